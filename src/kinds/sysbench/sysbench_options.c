/*-------------------------------------------------------------------------
 *
 * sysbench_options.c
 *	  sysbench's OLTP workloads and their options: names, types, ranges
 *	  and defaults in one table, and the sysbench kind's backend-free
 *	  descriptor, pb_sysbench_library.
 *
 * The defaults are sysbench 1.0.20's (oltp_common.lua, sb_rand.c).
 *
 *-------------------------------------------------------------------------
 */
#include <stddef.h>
#include <string.h>

#include "sysbench.h"

/* sysbench's OLTP scripts */
static const PbWorkloadDef sysbench_workloads[] = {
	{"oltp_read_write", PB_SB_READ_WRITE, "sysbench OLTP read/write"},
	{"oltp_read_only", PB_SB_READ_ONLY, "sysbench OLTP read only"},
	{"oltp_write_only", PB_SB_WRITE_ONLY, "sysbench OLTP write only"},
	{"oltp_point_select", PB_SB_POINT_SELECT, "sysbench OLTP point select"},
	{"oltp_update_index", PB_SB_UPDATE_INDEX, "sysbench OLTP update index"},
	{"oltp_update_non_index", PB_SB_UPDATE_NON_INDEX, "sysbench OLTP update non-index"},
	{"oltp_insert", PB_SB_INSERT, "sysbench OLTP insert"},
	{"oltp_delete", PB_SB_DELETE, "sysbench OLTP delete"},
	{NULL}
};

static const char *const sb_rand_types[] = {"uniform", "gaussian", "special", "pareto", NULL};

#define SB(field) offsetof(PbSysbenchOptions, field)

static const PbOptionDef sysbench_options[] = {
	{"tables", PB_OPT_INT, SB(tables), 1, 100000, NULL, false,
	"Number of tables", SB(tables_given) + 1},
	{"table_size", PB_OPT_INT, SB(table_size), 1, PB_OPT_INT_MAX, NULL, false,
	"Number of rows per table", SB(table_size_given) + 1},
	{"range_size", PB_OPT_INT, SB(range_size), 1, PB_OPT_INT_MAX, NULL, false,
	"Range size for range SELECT queries", 0},
	{"point_selects", PB_OPT_INT, SB(point_selects), 0, 1000000, NULL, false,
	"Number of point SELECT queries per transaction", 0},
	{"simple_ranges", PB_OPT_INT, SB(simple_ranges), 0, 1000000, NULL, false,
	"Number of simple range SELECT queries per transaction", 0},
	{"sum_ranges", PB_OPT_INT, SB(sum_ranges), 0, 1000000, NULL, false,
	"Number of SELECT SUM() queries per transaction", 0},
	{"order_ranges", PB_OPT_INT, SB(order_ranges), 0, 1000000, NULL, false,
	"Number of SELECT ORDER BY queries per transaction", 0},
	{"distinct_ranges", PB_OPT_INT, SB(distinct_ranges), 0, 1000000, NULL, false,
	"Number of SELECT DISTINCT queries per transaction", 0},
	{"index_updates", PB_OPT_INT, SB(index_updates), 0, 1000000, NULL, false,
	"Number of UPDATE index queries per transaction", 0},
	{"non_index_updates", PB_OPT_INT, SB(non_index_updates), 0, 1000000, NULL, false,
	"Number of UPDATE non-index queries per transaction", 0},
	{"delete_inserts", PB_OPT_INT, SB(delete_inserts), 0, 1000000, NULL, false,
	"Number of DELETE/INSERT combinations per transaction", 0},
	{"range_selects", PB_OPT_BOOL, SB(range_selects), 0, 0, NULL, false,
	"Whether the range SELECT queries run at all", 0},
	{"auto_inc", PB_OPT_BOOL, SB(auto_inc), 0, 0, NULL, false,
	"Whether the id of an insert comes from the table's sequence (else from the client)", 0},
	{"skip_trx", PB_OPT_BOOL, SB(skip_trx), 0, 0, NULL, false,
	"Whether every query runs in autocommit mode, without BEGIN and COMMIT", 0},
	{"rand_type", PB_OPT_ENUM, SB(rand_type), 0, 0, sb_rand_types, false,
	"Distribution of the random numbers", 0},
	{"rand_spec_iter", PB_OPT_INT, SB(rand_spec_iter), 1, 1000, NULL, false,
	"Number of iterations of the special distribution", 0},
	{"rand_spec_pct", PB_OPT_INT, SB(rand_spec_pct), 0, 100, NULL, false,
	"Percentage of the values the special distribution treats as special", 0},
	{"rand_spec_res", PB_OPT_INT, SB(rand_spec_res), 0, 99, NULL, false,
	"Percentage of special values to use, for the special distribution", 0},
	{"rand_pareto_h", PB_OPT_DOUBLE, SB(rand_pareto_h), 0, 1, NULL, true,
	"Shape parameter of the Pareto distribution", 0},
	{"percentile", PB_OPT_INT, SB(percentile), 1, 100, NULL, false,
	"Percentile of the latency statistics, from 1 to 100", 0},
	{NULL}
};

/*
 * pb_sysbench_defaults
 *		sysbench 1.0.20's defaults for one of its OLTP scripts.
 */
void
pb_sysbench_defaults(PbSysbenchOptions *o, int workload)
{
	memset(o, 0, sizeof(PbSysbenchOptions));
	o->workload = workload;
	o->tables = 1;
	o->table_size = 10000;
	o->range_size = 100;
	o->point_selects = 10;
	o->simple_ranges = 1;
	o->sum_ranges = 1;
	o->order_ranges = 1;
	o->distinct_ranges = 1;
	o->index_updates = 1;
	o->non_index_updates = 1;
	o->delete_inserts = 1;
	o->range_selects = true;
	o->auto_inc = true;
	o->skip_trx = false;
	o->rand_type = PB_SB_SPECIAL;
	o->rand_spec_iter = 12;
	o->rand_spec_pct = 1;
	o->rand_spec_res = 75;
	o->rand_pareto_h = 0.2;
	o->percentile = 95;
}

/* sysbench's defaults, as the kind's defaults callback. */
static void
pb_sysbench_defaults_of(void *options, int variant)
{
	pb_sysbench_defaults(options, variant);
}

const PbKindLibrary pb_sysbench_library = {
	.name = "sysbench",
	.tool = "sysbench",
	.workloads = sysbench_workloads,
	.options = sysbench_options,
	.options_size = sizeof(PbSysbenchOptions),
	.defaults = pb_sysbench_defaults_of,
	.check = NULL,
};
