/*-------------------------------------------------------------------------
 *
 * workload_options.c
 *	  The workloads polarbench runs natively, sysbench's and YCSB's, with
 *	  their options: names, types, ranges and defaults, in one table each,
 *	  which the run engine (to read polarbench_run's options), the client
 *	  and the unit tests share.
 *
 * An option's name is matched without regard to case, dashes and
 * underscores, so that sysbench's spellings (--table-size, table_size)
 * and YCSB's property names (readproportion, read_proportion) all work.
 * Values are given as text, as on their tools' command lines.
 *
 * The defaults are sysbench 1.0.20's (oltp_common.lua, sb_rand.c), YCSB's
 * (CoreWorkload, and the workloads/workloada..f files, whose recordcount
 * and operationcount of 1000 apply here only to operationcount, as the
 * tables are already loaded) and TPC-C 5.11's (the mix of 5.2.3 at its
 * minimums, 10 terminals per warehouse).
 *
 *-------------------------------------------------------------------------
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_workload.h"

typedef struct PbKindDef PbKindDef;
static const PbKindDef *pb_kind(PbWorkloadKind kind);
static bool pb_ycsb_check(void *options, PbError *err);
static bool pb_tpcc_check(void *options, PbError *err);

static const PbWorkloadDef workloads[] = {
	{"oltp_read_write", PB_KIND_SYSBENCH, PB_SB_READ_WRITE,
	"sysbench OLTP read/write"},
	{"oltp_read_only", PB_KIND_SYSBENCH, PB_SB_READ_ONLY,
	"sysbench OLTP read only"},
	{"oltp_write_only", PB_KIND_SYSBENCH, PB_SB_WRITE_ONLY,
	"sysbench OLTP write only"},
	{"oltp_point_select", PB_KIND_SYSBENCH, PB_SB_POINT_SELECT,
	"sysbench OLTP point select"},
	{"oltp_update_index", PB_KIND_SYSBENCH, PB_SB_UPDATE_INDEX,
	"sysbench OLTP update index"},
	{"oltp_update_non_index", PB_KIND_SYSBENCH, PB_SB_UPDATE_NON_INDEX,
	"sysbench OLTP update non-index"},
	{"oltp_insert", PB_KIND_SYSBENCH, PB_SB_INSERT,
	"sysbench OLTP insert"},
	{"oltp_delete", PB_KIND_SYSBENCH, PB_SB_DELETE,
	"sysbench OLTP delete"},
	{"ycsb-a", PB_KIND_YCSB, 'a', "YCSB workload A: 50% reads, 50% updates, zipfian"},
	{"ycsb-b", PB_KIND_YCSB, 'b', "YCSB workload B: 95% reads, 5% updates, zipfian"},
	{"ycsb-c", PB_KIND_YCSB, 'c', "YCSB workload C: reads only, zipfian"},
	{"ycsb-d", PB_KIND_YCSB, 'd', "YCSB workload D: 95% reads of the latest, 5% inserts"},
	{"ycsb-e", PB_KIND_YCSB, 'e', "YCSB workload E: 95% short scans, 5% inserts"},
	{"ycsb-f", PB_KIND_YCSB, 'f', "YCSB workload F: 50% reads, 50% read-modify-writes"},
	{"ycsb-load", PB_KIND_YCSB, 'l', "YCSB load phase: inserts of whole records"},
	{"tpcc", PB_KIND_TPCC, 0, "TPC-C 5.11: New-Order, Payment, Order-Status, Delivery and Stock-Level by the deck"},
};

/*
 * pb_workload_find
 *		The workload of that name (exactly), or NULL.
 */
const PbWorkloadDef *
pb_workload_find(const char *name)
{
	for (size_t i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++)
		if (strcmp(workloads[i].name, name) == 0)
			return &workloads[i];
	return NULL;
}

/* How many native workloads there are. */
int
pb_workload_count(void)
{
	return (int) (sizeof(workloads) / sizeof(workloads[0]));
}

/* The i-th native workload. */
const PbWorkloadDef *
pb_workload_at(int i)
{
	return &workloads[i];
}

/* ---- option tables ------------------------------------------------------ */

typedef enum PbOptType
{
	OPT_INT,
	OPT_INT64,
	OPT_BOOL,
	OPT_DOUBLE,
	OPT_ENUM,
	OPT_PROPORTION				/* a double in PbYcsbOptions.proportions[] */
} PbOptType;

typedef struct PbOptDef
{
	const char *name;			/* as the tool spells it in its own files */
	PbOptType	type;
	size_t		offset;
	double		min;
	double		max;
	const char *const *values;	/* OPT_ENUM: names, NULL-terminated */
	bool		open;			/* min and max themselves are excluded */
	const char *description;	/* one line, as the tool's help says it */
	size_t		given;			/* offset + 1 of a bool set when it is given;
								 * 0 for none */
} PbOptDef;

static const char *const sb_rand_types[] = {"uniform", "gaussian", "special", "pareto", NULL};
static const char *const ycsb_request_dists[] = {"uniform", "zipfian", "latest", "hotspot", NULL};
static const char *const ycsb_length_dists[] = {"uniform", "zipfian", NULL};
static const char *const ycsb_field_dists[] = {"uniform", "zipfian", "", "", "constant", NULL};
static const char *const ycsb_insert_orders[] = {"hashed", "ordered", NULL};

#define SB(field) offsetof(PbSysbenchOptions, field)
#define YC(field) offsetof(PbYcsbOptions, field)
#define TC(field) offsetof(PbTpccOptions, field)
#define PB_INT_MAX 2147483647.0
#define PB_INT64_MAX 9.2e18

static const PbOptDef sysbench_options[] = {
	{"tables", OPT_INT, SB(tables), 1, 100000, NULL, false,
	"Number of tables", SB(tables_given) + 1},
	{"table_size", OPT_INT, SB(table_size), 1, PB_INT_MAX, NULL, false,
	"Number of rows per table", SB(table_size_given) + 1},
	{"range_size", OPT_INT, SB(range_size), 1, PB_INT_MAX, NULL, false,
	"Range size for range SELECT queries", 0},
	{"point_selects", OPT_INT, SB(point_selects), 0, 1000000, NULL, false,
	"Number of point SELECT queries per transaction", 0},
	{"simple_ranges", OPT_INT, SB(simple_ranges), 0, 1000000, NULL, false,
	"Number of simple range SELECT queries per transaction", 0},
	{"sum_ranges", OPT_INT, SB(sum_ranges), 0, 1000000, NULL, false,
	"Number of SELECT SUM() queries per transaction", 0},
	{"order_ranges", OPT_INT, SB(order_ranges), 0, 1000000, NULL, false,
	"Number of SELECT ORDER BY queries per transaction", 0},
	{"distinct_ranges", OPT_INT, SB(distinct_ranges), 0, 1000000, NULL, false,
	"Number of SELECT DISTINCT queries per transaction", 0},
	{"index_updates", OPT_INT, SB(index_updates), 0, 1000000, NULL, false,
	"Number of UPDATE index queries per transaction", 0},
	{"non_index_updates", OPT_INT, SB(non_index_updates), 0, 1000000, NULL, false,
	"Number of UPDATE non-index queries per transaction", 0},
	{"delete_inserts", OPT_INT, SB(delete_inserts), 0, 1000000, NULL, false,
	"Number of DELETE/INSERT combinations per transaction", 0},
	{"range_selects", OPT_BOOL, SB(range_selects), 0, 0, NULL, false,
	"Whether the range SELECT queries run at all", 0},
	{"auto_inc", OPT_BOOL, SB(auto_inc), 0, 0, NULL, false,
	"Whether the id of an insert comes from the table's sequence (else from the client)", 0},
	{"skip_trx", OPT_BOOL, SB(skip_trx), 0, 0, NULL, false,
	"Whether every query runs in autocommit mode, without BEGIN and COMMIT", 0},
	{"rand_type", OPT_ENUM, SB(rand_type), 0, 0, sb_rand_types, false,
	"Distribution of the random numbers", 0},
	{"rand_spec_iter", OPT_INT, SB(rand_spec_iter), 1, 1000, NULL, false,
	"Number of iterations of the special distribution", 0},
	{"rand_spec_pct", OPT_INT, SB(rand_spec_pct), 0, 100, NULL, false,
	"Percentage of the values the special distribution treats as special", 0},
	{"rand_spec_res", OPT_INT, SB(rand_spec_res), 0, 99, NULL, false,
	"Percentage of special values to use, for the special distribution", 0},
	{"rand_pareto_h", OPT_DOUBLE, SB(rand_pareto_h), 0, 1, NULL, true,
	"Shape parameter of the Pareto distribution", 0},
	{"percentile", OPT_INT, SB(percentile), 1, 100, NULL, false,
	"Percentile of the latency statistics, from 1 to 100", 0},
	{NULL, OPT_INT, 0, 0, 0, NULL, false, NULL, 0}
};

static const PbOptDef ycsb_options[] = {
	{"recordcount", OPT_INT64, YC(recordcount), 1, PB_INT64_MAX, NULL, false,
	"Number of records in the table (by default the rows of usertable)", 0},
	{"operationcount", OPT_INT64, YC(operationcount), 0, PB_INT_MAX, NULL, false,
	"Number of operations to run", 0},
	{"insertstart", OPT_INT64, YC(insertstart), 0, PB_INT64_MAX, NULL, false,
	"First record of the key range the requests go to", 0},
	{"insertcount", OPT_INT64, YC(insertcount), 0, PB_INT64_MAX, NULL, false,
	"Number of records in that key range (by default recordcount - insertstart)", 0},
	{"fieldcount", OPT_INT, YC(fieldcount), 1, 1000, NULL, false,
	"Number of fields in a record", 0},
	{"fieldlength", OPT_INT, YC(fieldlength), 1, 1000000, NULL, false,
	"Length of a field (its largest, when the length varies)", 0},
	{"minfieldlength", OPT_INT, YC(minfieldlength), 1, 1000000, NULL, false,
	"Smallest length of a field, when the length varies", 0},
	{"fieldlengthdistribution", OPT_ENUM, YC(fieldlengthdistribution), 0, 0, ycsb_field_dists, false,
	"Distribution of the field lengths", 0},
	{"readallfields", OPT_BOOL, YC(readallfields), 0, 0, NULL, false,
	"Whether a read reads every field", 0},
	{"writeallfields", OPT_BOOL, YC(writeallfields), 0, 0, NULL, false,
	"Whether an update writes every field (else one)", 0},
	{"readproportion", OPT_PROPORTION, PB_YCSB_READ, 0, 1, NULL, false,
	"Share of the operations that are reads", 0},
	{"updateproportion", OPT_PROPORTION, PB_YCSB_UPDATE, 0, 1, NULL, false,
	"Share of the operations that are updates", 0},
	{"insertproportion", OPT_PROPORTION, PB_YCSB_INSERT, 0, 1, NULL, false,
	"Share of the operations that are inserts", 0},
	{"scanproportion", OPT_PROPORTION, PB_YCSB_SCAN, 0, 1, NULL, false,
	"Share of the operations that are scans", 0},
	{"readmodifywriteproportion", OPT_PROPORTION, PB_YCSB_RMW, 0, 1, NULL, false,
	"Share of the operations that read a record and write it back", 0},
	{"requestdistribution", OPT_ENUM, YC(requestdistribution), 0, 0, ycsb_request_dists, false,
	"Distribution of the requested records", 0},
	{"minscanlength", OPT_INT, YC(minscanlength), 1, PB_INT_MAX, NULL, false,
	"Fewest records a scan reads", 0},
	{"maxscanlength", OPT_INT, YC(maxscanlength), 1, PB_INT_MAX, NULL, false,
	"Most records a scan reads", 0},
	{"scanlengthdistribution", OPT_ENUM, YC(scanlengthdistribution), 0, 0, ycsb_length_dists, false,
	"Distribution of the scan lengths", 0},
	{"insertorder", OPT_ENUM, YC(orderedinserts), 0, 0, ycsb_insert_orders, false,
	"Whether the keys are hashed or ordered", 0},
	{"zeropadding", OPT_INT, YC(zeropadding), 1, 20, NULL, false,
	"Number of digits a key's number is padded to with zeros", 0},
	{"hotspotdatafraction", OPT_DOUBLE, YC(hotspotdatafraction), 0, 1, NULL, false,
	"Share of the records in the hot set, for the hotspot distribution", 0},
	{"hotspotopnfraction", OPT_DOUBLE, YC(hotspotopnfraction), 0, 1, NULL, false,
	"Share of the operations on the hot set, for the hotspot distribution", 0},
	{NULL, OPT_INT, 0, 0, 0, NULL, false, NULL, 0}
};

static const PbOptDef tpcc_options[] = {
	{"warehouses", OPT_INT, TC(warehouses), 1, 1000000, NULL, false,
	"Number of warehouses the terminals work on (by default the rows of warehouse)",
	TC(warehouses_given) + 1},
	{"payment", OPT_INT, TC(payment), 43, 100, NULL, false,
	"Cards of 100 that are Payment (at least 43)", 0},
	{"order_status", OPT_INT, TC(order_status), 4, 100, NULL, false,
	"Cards of 100 that are Order-Status (at least 4)", 0},
	{"delivery", OPT_INT, TC(delivery), 4, 100, NULL, false,
	"Cards of 100 that are Delivery (at least 4)", 0},
	{"stock_level", OPT_INT, TC(stock_level), 4, 100, NULL, false,
	"Cards of 100 that are Stock-Level (at least 4); New-Order has the rest", 0},
	{"keying_think", OPT_BOOL, TC(keying_think), 0, 0, NULL, false,
	"Whether terminals wait the keying and think times of clause 5.2.5", 0},
	{"terminals", OPT_INT, TC(terminals), 1, 1000, NULL, false,
	"Terminals per warehouse, with keying_think (the clients serve them)", 0},
	{NULL, OPT_INT, 0, 0, 0, NULL, false, NULL, 0}
};

static const char *const ycsb_op_names[PB_YCSB_NOPS] = {
	"READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE"
};

/*
 * pb_ycsb_op_name
 *		An operation's name as YCSB prints it.
 */
const char *
pb_ycsb_op_name(int op)
{
	return (op >= 0 && op < PB_YCSB_NOPS) ? ycsb_op_names[op] : "?";
}

/* ---- kinds of workload -------------------------------------------------- */

static void pb_format_option(const PbOptDef *d, const void *options,
							 char *buf, size_t len);
static void pb_sysbench_defaults_of(void *options, int variant);
static void pb_ycsb_defaults_of(void *options, int variant);
static void pb_tpcc_defaults_of(void *options, int variant);

/* A kind of workload: its options, their defaults and their rules */
struct PbKindDef
{
	PbWorkloadKind kind;
	const char *name;			/* as polarbench_workloads shows it */
	const char *tool;			/* its tool, in messages */
	const PbOptDef *options;	/* NULL-terminated; NULL for none */
	size_t		options_size;	/* of its options struct */
	void		(*defaults) (void *options, int variant);
	bool		(*check) (void *options, PbError *err);
};

static const PbKindDef kinds[] = {
	{PB_KIND_SCRIPTS, "pgbench", "pgbench", NULL, 0, NULL, NULL},
	{PB_KIND_SYSBENCH, "sysbench", "sysbench", sysbench_options,
	sizeof(PbSysbenchOptions), pb_sysbench_defaults_of, NULL},
	{PB_KIND_YCSB, "ycsb", "YCSB", ycsb_options, sizeof(PbYcsbOptions),
	pb_ycsb_defaults_of, pb_ycsb_check},
	{PB_KIND_TPCC, "tpcc", "TPC-C", tpcc_options, sizeof(PbTpccOptions),
	pb_tpcc_defaults_of, pb_tpcc_check},
};

/* The definition of a kind of workload, or NULL. */
static const PbKindDef *
pb_kind(PbWorkloadKind kind)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].kind == kind)
			return &kinds[i];
	return NULL;
}

static const PbOptDef *
pb_option_table(PbWorkloadKind kind)
{
	const PbKindDef *k = pb_kind(kind);

	return k ? k->options : NULL;
}

static const char *
pb_kind_tool(PbWorkloadKind kind)
{
	const PbKindDef *k = pb_kind(kind);

	return k ? k->tool : "?";
}

/*
 * pb_workload_kind_name
 *		The name of a kind of workload ("pgbench", "sysbench", "ycsb").
 */
const char *
pb_workload_kind_name(PbWorkloadKind kind)
{
	const PbKindDef *k = pb_kind(kind);

	return k ? k->name : "?";
}

/*
 * pb_workload_options_size
 *		The size of the options struct of a kind of workload, 0 for none.
 */
size_t
pb_workload_options_size(PbWorkloadKind kind)
{
	const PbKindDef *k = pb_kind(kind);

	return k ? k->options_size : 0;
}

/*
 * pb_workload_defaults
 *		Fill options (pb_workload_options_size() bytes) with the defaults of
 *		a workload: its tool's, and those of the workload's own file.
 */
void
pb_workload_defaults(const PbWorkloadDef *def, void *options)
{
	const PbKindDef *k = pb_kind(def->kind);

	if (k != NULL && k->defaults != NULL)
		k->defaults(options, def->variant);
}

/* sysbench's defaults, as a kind's defaults callback. */
static void
pb_sysbench_defaults_of(void *options, int variant)
{
	pb_sysbench_defaults(options, variant);
}

/* YCSB's, likewise. */
static void
pb_ycsb_defaults_of(void *options, int variant)
{
	pb_ycsb_defaults(options, variant);
}

/* TPC-C's, likewise. */
static void
pb_tpcc_defaults_of(void *options, int variant)
{
	pb_tpcc_defaults(options);
}

/*
 * pb_format_option
 *		The value of option d in options, as text (JSON's, strings without
 *		their quotes) in buf.
 */
static void
pb_format_option(const PbOptDef *d, const void *options, char *buf, size_t len)
{
	const char *field = (const char *) options + d->offset;

	switch (d->type)
	{
		case OPT_INT:
			snprintf(buf, len, "%d", *(const int *) field);
			break;
		case OPT_INT64:
			snprintf(buf, len, "%lld", (long long) *(const int64_t *) field);
			break;
		case OPT_BOOL:
			snprintf(buf, len, "%s", *(const bool *) field ? "true" : "false");
			break;
		case OPT_DOUBLE:
			snprintf(buf, len, "%.17g", *(const double *) field);
			break;
		case OPT_PROPORTION:
			snprintf(buf, len, "%.17g",
					 ((const PbYcsbOptions *) options)->proportions[d->offset]);
			break;
		case OPT_ENUM:
			{
				int			v = (d->values == ycsb_insert_orders) ?
					(*(const bool *) field ? 1 : 0) : *(const int *) field;

				snprintf(buf, len, "%s", d->values[v]);
				break;
			}
	}
}

/*
 * pb_workload_option_info
 *		What polarbench_workloads says of the i-th option of a workload:
 *		its name, type, range, default (in the workload's own defaults; ""
 *		for one computed at the run, such as the rows of the table) and
 *		description.  Returns false past the last option.
 */
bool
pb_workload_option_info(const PbWorkloadDef *def, int i, PbOptionInfo *info)
{
	const PbKindDef *k = pb_kind(def->kind);
	const PbOptDef *d;
	char		defaults[1024];
	size_t		n = 0;

	if (k == NULL || k->options == NULL)
		return false;
	for (int j = 0; j <= i; j++)
		if (k->options[j].name == NULL)
			return false;
	d = &k->options[i];
	memset(info, 0, sizeof(PbOptionInfo));
	info->name = d->name;
	info->description = d->description;
	info->min = d->min;
	info->max = d->max;
	info->has_range = (d->type != OPT_BOOL && d->type != OPT_ENUM);
	switch (d->type)
	{
		case OPT_INT:
		case OPT_INT64:
			info->type = "integer";
			break;
		case OPT_BOOL:
			info->type = "boolean";
			break;
		case OPT_DOUBLE:
		case OPT_PROPORTION:
			info->type = "number";
			break;
		case OPT_ENUM:
			info->type = "enum";
			info->values[0] = '\0';
			for (int v = 0; d->values[v] != NULL; v++)
				if (d->values[v][0] != '\0')
					n += snprintf(info->values + n, n < sizeof(info->values) ?
								  sizeof(info->values) - n : 0, "%s%s",
								  n > 0 ? "," : "", d->values[v]);
			break;
	}
	if (k->options_size <= sizeof(defaults))
	{
		k->defaults(defaults, def->variant);
		pb_format_option(d, defaults, info->default_value, sizeof(info->default_value));
		/* a value out of range stands for one computed at the run: none */
		if (info->has_range && strtod(info->default_value, NULL) < d->min)
			info->default_value[0] = '\0';
	}
	return true;
}

static bool pb_option_error(PbError *err, const char *hint, const char *fmt,...)
			__attribute__((format(printf, 3, 4)));

/* Fill err: an invalid option, with a hint. */
static bool
pb_option_error(PbError *err, const char *hint, const char *fmt,...)
{
	va_list		ap;

	memset(err, 0, sizeof(PbError));
	err->kind = PB_ERROR_INVALID_ARGUMENT;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	if (hint != NULL)
		snprintf(err->detail, sizeof(err->detail), "%s", hint);
	return false;
}

/* An option's name folded for matching: lower case, no '-' or '_'. */
static void
pb_fold_name(const char *name, char *buf, size_t len)
{
	size_t		n = 0;

	for (; *name && n < len - 1; name++)
		if (*name != '-' && *name != '_')
			buf[n++] = (char) tolower((unsigned char) *name);
	buf[n] = '\0';
}

/*
 * pb_workload_option_is
 *		Whether name is a spelling of the option canonical.
 */
bool
pb_workload_option_is(const char *name, const char *canonical)
{
	char		a[64];
	char		b[64];

	pb_fold_name(name, a, sizeof(a));
	pb_fold_name(canonical, b, sizeof(b));
	return strcmp(a, b) == 0;
}

/* The option table of a kind of workload, and its tool's name. */
static const PbOptDef *pb_option_table(PbWorkloadKind kind);
static const char *pb_kind_tool(PbWorkloadKind kind);

/*
 * pb_workload_option_at
 *		The name of the i-th option of a kind of workload, or NULL past the
 *		last.
 */
const char *
pb_workload_option_at(PbWorkloadKind kind, int i)
{
	const PbOptDef *defs = pb_option_table(kind);

	for (int k = 0; defs != NULL && defs[k].name != NULL; k++)
		if (k == i)
			return defs[k].name;
	return NULL;
}

/*
 * pb_workload_has_option
 *		Whether name is a spelling of an option of that kind of workload.
 */
bool
pb_workload_has_option(PbWorkloadKind kind, const char *name)
{
	const PbOptDef *defs = pb_option_table(kind);

	for (int i = 0; defs != NULL && defs[i].name != NULL; i++)
		if (pb_workload_option_is(name, defs[i].name))
			return true;
	return false;
}

/*
 * pb_workload_option_names
 *		The options of a kind of workload, comma separated (static buffer).
 */
static const char *
pb_workload_option_names(PbWorkloadKind kind)
{
	static char buf[448];		/* both lists fit, with the hint's words, in PbError.detail */
	const PbOptDef *defs = pb_option_table(kind);
	size_t		n = 0;

	buf[0] = '\0';
	for (int i = 0; defs != NULL && defs[i].name != NULL; i++)
		n += snprintf(buf + n, n < sizeof(buf) ? sizeof(buf) - n : 0, "%s%s",
					  i > 0 ? ", " : "", defs[i].name);
	return buf;
}

/* Read a boolean as sysbench and Java do: on/off, true/false, yes/no, 1/0. */
static bool
pb_parse_bool(const char *value, bool *result)
{
	static const char *const yes[] = {"on", "true", "yes", "1"};
	static const char *const no[] = {"off", "false", "no", "0"};

	for (int i = 0; i < 4; i++)
	{
		if (strcasecmp(value, yes[i]) == 0)
		{
			*result = true;
			return true;
		}
		if (strcasecmp(value, no[i]) == 0)
		{
			*result = false;
			return true;
		}
	}
	return false;
}

/*
 * pb_workload_set_option
 *		Set the option name of a kind of workload to value (its text).
 *		Returns false with err set for an unknown name or a bad value.
 */
/* The option d is given: say so where its table says. */
static bool
pb_option_given(const PbOptDef *d, void *options)
{
	if (d->given > 0)
		*(bool *) ((char *) options + d->given - 1) = true;
	return true;
}

bool
pb_workload_set_option(PbWorkloadKind kind, void *options, const char *name,
					   const char *value, PbError *err)
{
	const PbOptDef *defs = pb_option_table(kind);
	char		folded[64];
	char		hint[512];

	pb_fold_name(name, folded, sizeof(folded));
	for (int i = 0; defs != NULL && defs[i].name != NULL; i++)
	{
		const PbOptDef *d = &defs[i];
		char		dfolded[64];
		char	   *field = (char *) options + d->offset;
		char	   *end;
		double		dv;
		long long	iv;

		pb_fold_name(d->name, dfolded, sizeof(dfolded));
		if (strcmp(folded, dfolded) != 0)
			continue;
		switch (d->type)
		{
			case OPT_INT:
			case OPT_INT64:
				errno = 0;
				iv = strtoll(value, &end, 10);
				if (errno != 0 || end == value || *end != '\0' ||
					iv < d->min || (double) iv > d->max)
				{
					snprintf(hint, sizeof(hint), "%s is a whole number from %.0f to %.0f.",
							 d->name, d->min, d->max);
					return pb_option_error(err, hint,
										   "invalid value for %s option \"%s\": \"%s\"",
										   pb_kind_tool(kind), d->name, value);
				}
				if (d->type == OPT_INT)
					*(int *) field = (int) iv;
				else
					*(int64_t *) field = (int64_t) iv;
				return pb_option_given(d, options);
			case OPT_BOOL:
				if (!pb_parse_bool(value, (bool *) field))
				{
					snprintf(hint, sizeof(hint), "%s is on or off (true or false).", d->name);
					return pb_option_error(err, hint,
										   "invalid value for %s option \"%s\": \"%s\"",
										   pb_kind_tool(kind), d->name, value);
				}
				return pb_option_given(d, options);
			case OPT_DOUBLE:
			case OPT_PROPORTION:
				errno = 0;
				dv = strtod(value, &end);
				if (errno != 0 || end == value || *end != '\0' || isnan(dv) ||
					dv < d->min || dv > d->max ||
					(d->open && (dv == d->min || dv == d->max)))
				{
					snprintf(hint, sizeof(hint), "%s is a number from %g to %g%s.",
							 d->name, d->min, d->max, d->open ? ", both excluded" : "");
					return pb_option_error(err, hint,
										   "invalid value for %s option \"%s\": \"%s\"",
										   pb_kind_tool(kind), d->name, value);
				}
				if (d->type == OPT_PROPORTION)
					((PbYcsbOptions *) options)->proportions[d->offset] = dv;
				else
					*(double *) field = dv;
				return pb_option_given(d, options);
			case OPT_ENUM:
				{
					size_t		n = 0;

					for (int v = 0; d->values[v] != NULL; v++)
						if (d->values[v][0] != '\0' && strcasecmp(value, d->values[v]) == 0)
						{
							if (d->values == ycsb_insert_orders)
								*(bool *) field = (v == 1);
							else
								*(int *) field = v;
							return pb_option_given(d, options);
						}
					n = snprintf(hint, sizeof(hint), "%s is one of", d->name);
					for (int v = 0, k = 0; d->values[v] != NULL; v++)
						if (d->values[v][0] != '\0')
							n += snprintf(hint + n, n < sizeof(hint) ? sizeof(hint) - n : 0,
										  "%s %s", k++ > 0 ? "," : "", d->values[v]);
					snprintf(hint + n, n < sizeof(hint) ? sizeof(hint) - n : 0, ".");
					return pb_option_error(err, hint,
										   "invalid value for %s option \"%s\": \"%s\"",
										   pb_kind_tool(kind), d->name, value);
				}
		}
	}
	snprintf(hint, sizeof(hint), "The options of %s workloads are %s.",
			 pb_kind_tool(kind), pb_workload_option_names(kind));
	return pb_option_error(err, hint, "unrecognized %s option \"%s\"",
						   pb_kind_tool(kind), name);
}

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

/*
 * pb_ycsb_defaults
 *		CoreWorkload's defaults with those of workloads/workload<letter>;
 *		'l' is the load phase.
 */
void
pb_ycsb_defaults(PbYcsbOptions *o, int letter)
{
	memset(o, 0, sizeof(PbYcsbOptions));
	o->recordcount = -1;
	o->operationcount = 1000;
	o->insertstart = 0;
	o->insertcount = -1;
	o->fieldcount = 10;
	o->fieldlength = 100;
	o->minfieldlength = 1;
	o->fieldlengthdistribution = PB_YCSB_DIST_CONSTANT;
	o->readallfields = true;
	o->writeallfields = false;
	o->requestdistribution = PB_YCSB_DIST_ZIPFIAN;
	o->minscanlength = 1;
	o->maxscanlength = 1000;
	o->scanlengthdistribution = PB_YCSB_DIST_UNIFORM;
	o->orderedinserts = false;
	o->zeropadding = 1;
	o->hotspotdatafraction = 0.2;
	o->hotspotopnfraction = 0.8;
	switch (letter)
	{
		case 'a':
			o->proportions[PB_YCSB_READ] = 0.5;
			o->proportions[PB_YCSB_UPDATE] = 0.5;
			break;
		case 'b':
			o->proportions[PB_YCSB_READ] = 0.95;
			o->proportions[PB_YCSB_UPDATE] = 0.05;
			break;
		case 'c':
			o->proportions[PB_YCSB_READ] = 1;
			break;
		case 'd':
			o->proportions[PB_YCSB_READ] = 0.95;
			o->proportions[PB_YCSB_INSERT] = 0.05;
			o->requestdistribution = PB_YCSB_DIST_LATEST;
			break;
		case 'e':
			o->proportions[PB_YCSB_SCAN] = 0.95;
			o->proportions[PB_YCSB_INSERT] = 0.05;
			o->maxscanlength = 100;
			break;
		case 'f':
			o->proportions[PB_YCSB_READ] = 0.5;
			o->proportions[PB_YCSB_RMW] = 0.5;
			break;
		case 'l':
			o->load = true;
			o->proportions[PB_YCSB_INSERT] = 1;
			break;
	}
}

/*
 * pb_tpcc_defaults
 *		TPC-C's: the minimum mix of 5.2.3 (New-Order has the 45 cards left),
 *		no keying or think times, as every kit runs by default, and 10
 *		terminals per warehouse (4.2.2) when they are on.
 */
void
pb_tpcc_defaults(PbTpccOptions *o)
{
	memset(o, 0, sizeof(PbTpccOptions));
	o->warehouses = 0;
	o->payment = 43;
	o->order_status = 4;
	o->delivery = 4;
	o->stock_level = 4;
	o->keying_think = false;
	o->terminals = 10;
}

/*
 * pb_workload_check_options
 *		What no single option shows, by the rules of the kind of workload.
 */
bool
pb_workload_check_options(PbWorkloadKind kind, void *options, PbError *err)
{
	const PbKindDef *k = pb_kind(kind);

	return k == NULL || k->check == NULL || k->check(options, err);
}

/*
 * pb_ycsb_check
 *		YCSB's rules, a kind's check callback: its proportions must add up
 *		to 1, the scan and field length bounds be in order, and insertstart
 *		and insertcount fit in the records (once recordcount is known).
 */
static bool
pb_ycsb_check(void *options, PbError *err)
{
	PbYcsbOptions *o = options;
	double		sum = 0;

	if (o->load)
	{
		for (int op = 0; op < PB_YCSB_NOPS; op++)
			if (op != PB_YCSB_INSERT && o->proportions[op] != 0)
				return pb_option_error(err, "ycsb-load inserts records; run the other operations with ycsb-a .. ycsb-f.",
									   "the load phase has only inserts");
		o->proportions[PB_YCSB_INSERT] = 1;
	}
	for (int op = 0; op < PB_YCSB_NOPS; op++)
		sum += o->proportions[op];
	if (fabs(sum - 1.0) > 1e-9)
		return pb_option_error(err, "Give readproportion, updateproportion, insertproportion, scanproportion and readmodifywriteproportion that add up to 1; set the others of the workload to 0.",
							   "YCSB operation proportions add up to %g, not 1", sum);
	if (o->minscanlength > o->maxscanlength)
		return pb_option_error(err, NULL,
							   "minscanlength (%d) is greater than maxscanlength (%d)",
							   o->minscanlength, o->maxscanlength);
	if (o->fieldlengthdistribution != PB_YCSB_DIST_CONSTANT &&
		o->minfieldlength > o->fieldlength)
		return pb_option_error(err, NULL,
							   "minfieldlength (%d) is greater than fieldlength (%d)",
							   o->minfieldlength, o->fieldlength);
	if (o->recordcount >= 0)
	{
		if (o->insertstart >= o->recordcount && !o->load)
			return pb_option_error(err, "insertstart is the first record the requests go to; keep it below recordcount.",
								   "insertstart (%lld) is not below recordcount (%lld)",
								   (long long) o->insertstart, (long long) o->recordcount);
		if (o->insertcount < 0)
			o->insertcount = o->recordcount - o->insertstart;
		if (!o->load && o->insertstart + o->insertcount > o->recordcount)
			return pb_option_error(err, "recordcount must be at least insertstart + insertcount, as YCSB requires.",
								   "invalid combination of insertstart, insertcount and recordcount");
		if (o->insertcount < 1)
			return pb_option_error(err, NULL, "insertcount must be at least 1");
	}
	return true;
}

/*
 * pb_tpcc_check
 *		TPC-C's rule for the mix: the cards of the four other types leave
 *		New-Order at least none of the deck's 100.
 */
static bool
pb_tpcc_check(void *options, PbError *err)
{
	PbTpccOptions *o = options;
	int			others = o->payment + o->order_status + o->delivery + o->stock_level;

	if (others > PB_TPCC_DECK_CARDS)
		return pb_option_error(err, "payment, order_status, delivery and stock_level are cards of a deck of 100, of which New-Order has the rest.",
							   "the TPC-C mix has %d cards besides New-Order, more than 100",
							   others);
	return true;
}

/*
 * pb_workload_options_json
 *		Every option of the workload with its value, as a JSON object
 *		(malloc'd), under the names of the option table.
 */
char *
pb_workload_options_json(PbWorkloadKind kind, const void *options)
{
	const PbOptDef *defs = pb_option_table(kind);
	size_t		size = 4096;
	size_t		n = 0;
	char	   *buf = malloc(size);

	if (buf == NULL)
		return NULL;
	n += snprintf(buf + n, size - n, "{");
	for (int i = 0; defs != NULL && defs[i].name != NULL; i++)
	{
		const PbOptDef *d = &defs[i];
		char		value[128];

		pb_format_option(d, options, value, sizeof(value));
		n += snprintf(buf + n, n < size ? size - n : 0,
					  d->type == OPT_ENUM ? "%s\"%s\": \"%s\"" : "%s\"%s\": %s",
					  i > 0 ? ", " : "", d->name, value);
	}
	if (n < size)
		snprintf(buf + n, size - n, "}");
	return buf;
}

