/*-------------------------------------------------------------------------
 *
 * sysbench_driver.c
 *	  sysbench 1.0.20's OLTP workloads (src/lua/oltp_*.lua with the pgsql
 *	  driver) in a client: the same statements, prepared per table as
 *	  sysbench prepares them per connection, with the same parameter types,
 *	  the same composition of an event, the same choice of table and ids,
 *	  and sysbench's counting and error handling.
 *
 * What sysbench does, and so does this driver:
 *	- Statements are prepared for every table at the start ("SELECT c
 *	  FROM sbtest<N> WHERE id=$1", ...), with the parameter types its Lua
 *	  layer binds (bind_create() widens INT to BIGINT and CHAR to
 *	  VARCHAR, which the pgsql driver prepares as int8 and varchar).
 *	- An event (one transaction) draws a table uniformly for each group of
 *	  statements (point selects, each kind of range, index updates, ...),
 *	  and ids with --rand-type's distribution over 1..table_size.
 *	- oltp_point_select runs one point select per event whatever
 *	  point_selects says; oltp_insert sends an INSERT with the values in
 *	  its text, not prepared, as sysbench's con:query() does.
 *	- A query that returns rows counts as a read, one that affects rows
 *	  as a write, anything else (BEGIN, COMMIT, a DELETE that finds
 *	  nothing) as other.
 *	- A deadlock (40P01), unique violation (23505) or serialization
 *	  failure (40001) rolls back, counts as an ignored error, and the
 *	  event starts again with new random numbers, its latency running on.
 *	  Any other error ends the run.
 *
 * The statements are sysbench's texts unchanged: on sysbench's tables
 * (id and k integer, c and pad char) with those parameter types, every
 * operator and aggregate they call has an exact match in pg_catalog (=, <=
 * and >= of integer and bigint, + of integers, sum(integer)), which the
 * clients search first (pb_settings_search_path()), so none that a role
 * planted elsewhere on the path is called.
 *
 * In the caller, the driver reads the options (sysbench's defaults for
 * the workload, then those given), finds in the tables what was not given,
 * and prepares every statement; after the run, it gives sysbench's
 * progress line and report.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "pgstat.h"
#include <math.h>

#include "utils/builtins.h"
#include "utils/memutils.h"

#include "driver.h"
#include "driver_options.h"
#include "report_query.h"
#include "statement_exec.h"
#include "sysbench.h"

/* What the clients of a run share: sysbench.rand.unique()'s sequence */
typedef struct PbSbShared
{
	pg_atomic_uint32 unique_index;
} PbSbShared;

/* The statements of the OLTP scripts, in the slot's command order */
typedef enum PbSbStatement
{
	SB_BEGIN,
	SB_COMMIT,
	SB_POINT_SELECT,
	SB_SIMPLE_RANGE,
	SB_SUM_RANGE,
	SB_ORDER_RANGE,
	SB_DISTINCT_RANGE,
	SB_INDEX_UPDATE,
	SB_NON_INDEX_UPDATE,
	SB_DELETE,
	SB_INSERT,
	SB_INSERT_QUERY,			/* oltp_insert's, not prepared */
	SB_NSTATEMENTS
} PbSbStatement;

typedef struct PbSbStatementDef
{
	const char *sysbench;		/* as oltp_common.lua writes it */
	const char *sql;			/* with the table number and $n */
	int			nparams;
	Oid			types[4];
} PbSbStatementDef;

static const PbSbStatementDef sb_statements[SB_NSTATEMENTS] = {
	[SB_BEGIN] = {"BEGIN", NULL, 0, {0}},
	[SB_COMMIT] = {"COMMIT", NULL, 0, {0}},
	[SB_POINT_SELECT] = {"SELECT c FROM sbtest%u WHERE id=?",
	"SELECT c FROM sbtest%d WHERE id=$1", 1, {INT8OID}},
	[SB_SIMPLE_RANGE] = {"SELECT c FROM sbtest%u WHERE id BETWEEN ? AND ?",
	"SELECT c FROM sbtest%d WHERE id BETWEEN $1 AND $2", 2, {INT8OID, INT8OID}},
	[SB_SUM_RANGE] = {"SELECT SUM(k) FROM sbtest%u WHERE id BETWEEN ? AND ?",
	"SELECT SUM(k) FROM sbtest%d WHERE id BETWEEN $1 AND $2", 2, {INT8OID, INT8OID}},
	[SB_ORDER_RANGE] = {"SELECT c FROM sbtest%u WHERE id BETWEEN ? AND ? ORDER BY c",
	"SELECT c FROM sbtest%d WHERE id BETWEEN $1 AND $2 ORDER BY c", 2, {INT8OID, INT8OID}},
	[SB_DISTINCT_RANGE] = {"SELECT DISTINCT c FROM sbtest%u WHERE id BETWEEN ? AND ? ORDER BY c",
	"SELECT DISTINCT c FROM sbtest%d WHERE id BETWEEN $1 AND $2 ORDER BY c", 2, {INT8OID, INT8OID}},
	[SB_INDEX_UPDATE] = {"UPDATE sbtest%u SET k=k+1 WHERE id=?",
	"UPDATE sbtest%d SET k=k+1 WHERE id=$1", 1, {INT8OID}},
	[SB_NON_INDEX_UPDATE] = {"UPDATE sbtest%u SET c=? WHERE id=?",
	"UPDATE sbtest%d SET c=$1 WHERE id=$2", 2, {VARCHAROID, INT8OID}},
	[SB_DELETE] = {"DELETE FROM sbtest%u WHERE id=?",
	"DELETE FROM sbtest%d WHERE id=$1", 1, {INT8OID}},
	[SB_INSERT] = {"INSERT INTO sbtest%u (id, k, c, pad) VALUES (?, ?, ?, ?)",
	"INSERT INTO sbtest%d (id, k, c, pad) VALUES ($1, $2, $3, $4)", 4,
	{INT8OID, INT8OID, VARCHAROID, VARCHAROID}},
	[SB_INSERT_QUERY] = {"INSERT INTO sbtest%u (k, c, pad) VALUES (%d, '%s', '%s')",
	NULL, 0, {0}},
};

/* What a client running a sysbench workload keeps */
typedef struct PbSbDriver
{
	PbSysbenchOptions opts;
	PbSbRand	rand;
	PbPrng		prng;
	bool		uses[SB_NSTATEMENTS];	/* the statements the workload prepares */
	SPIPlanPtr *plans;			/* [table * SB_NSTATEMENTS + statement] */
	bool		read_only[SB_NSTATEMENTS];	/* the statement is a plain SELECT */
	char	  **texts;			/* the same, as shown in pg_stat_activity */
	bool		keep;			/* plans kept past the transaction */
	bool		in_block;		/* between BEGIN and COMMIT */
	const char *activity;		/* last text reported */
	uint32		unique_seed_index;
	uint32		unique_seed_offset;
	PbSbShared *shared;
	char		c_value[sizeof(PB_SB_C_TEMPLATE)];
	char		pad_value[sizeof(PB_SB_PAD_TEMPLATE)];
	text	   *c_param;		/* varchar parameters, filled in place */
	text	   *pad_param;
	ParamListInfo params[SB_NSTATEMENTS];	/* each statement's, all tables' */
} PbSbDriver;

/* Which statements a workload prepares, as its prepare_statements() */
static void
pb_sb_uses(PbSbDriver *d)
{
	const PbSysbenchOptions *o = &d->opts;
	bool		trx = !o->skip_trx;
	bool		ranges = o->range_selects;

	memset(d->uses, 0, sizeof(d->uses));
	switch ((PbSbWorkload) o->workload)
	{
		case PB_SB_READ_WRITE:
		case PB_SB_READ_ONLY:
		case PB_SB_WRITE_ONLY:
			d->uses[SB_BEGIN] = d->uses[SB_COMMIT] = trx;
			if (o->workload != PB_SB_WRITE_ONLY)
			{
				d->uses[SB_POINT_SELECT] = true;
				d->uses[SB_SIMPLE_RANGE] = d->uses[SB_SUM_RANGE] =
					d->uses[SB_ORDER_RANGE] = d->uses[SB_DISTINCT_RANGE] = ranges;
			}
			if (o->workload != PB_SB_READ_ONLY)
				d->uses[SB_INDEX_UPDATE] = d->uses[SB_NON_INDEX_UPDATE] =
					d->uses[SB_DELETE] = d->uses[SB_INSERT] = true;
			break;
		case PB_SB_POINT_SELECT:
			d->uses[SB_POINT_SELECT] = true;
			break;
		case PB_SB_UPDATE_INDEX:
			d->uses[SB_INDEX_UPDATE] = true;
			break;
		case PB_SB_UPDATE_NON_INDEX:
			d->uses[SB_NON_INDEX_UPDATE] = true;
			break;
		case PB_SB_INSERT:
			d->uses[SB_INSERT_QUERY] = true;
			break;
		case PB_SB_DELETE:
			d->uses[SB_DELETE] = true;
			break;
	}
}

/*
 * pb_sb_prepare
 *		Prepare the workload's statements for every table, with SPI
 *		connected; keep them past the transaction when d->keep.
 */
static void
pb_sb_prepare(PbSbDriver *d, MemoryContext cxt)
{
	int			tables = d->opts.tables;

	d->plans = MemoryContextAllocZero(cxt, sizeof(SPIPlanPtr) * tables * SB_NSTATEMENTS);
	d->texts = MemoryContextAllocZero(cxt, sizeof(char *) * tables * SB_NSTATEMENTS);
	for (int s = 0; s < SB_NSTATEMENTS; s++)
	{
		MemoryContext old = MemoryContextSwitchTo(cxt);

		if (d->uses[s] && sb_statements[s].sql != NULL)
			d->params[s] = pb_params_make(sb_statements[s].nparams, sb_statements[s].types);
		MemoryContextSwitchTo(old);
	}
	for (int t = 0; t < tables; t++)
		for (int s = 0; s < SB_NSTATEMENTS; s++)
		{
			const PbSbStatementDef *def = &sb_statements[s];
			SPIPlanPtr	plan;
			char	   *sql;

			if (!d->uses[s] || def->sql == NULL)
				continue;
			sql = MemoryContextStrdup(cxt, psprintf(def->sql, t + 1));
			plan = pb_spi_prepare(sql, def->nparams, (Oid *) def->types, d->keep);
			d->plans[t * SB_NSTATEMENTS + s] = plan;
			d->texts[t * SB_NSTATEMENTS + s] = sql;
			d->read_only[s] = pb_plan_is_read_only(plan);
		}
}

/* The number of plans a workload prepares per table. */
static int
pb_sb_plans_per_table(const PbSbDriver *d)
{
	int			n = 0;

	for (int s = 0; s < SB_NSTATEMENTS; s++)
		n += (d->uses[s] && sb_statements[s].sql != NULL);
	return n;
}

/*
 * pb_sb_report_activity
 *		Show the statement in pg_stat_activity, as a client's would be.
 */
static inline void
pb_sb_report_activity(PbSbDriver *d, const char *text)
{
	if (d->activity != text)
	{
		pgstat_report_activity(STATE_RUNNING, text);
		d->activity = text;
	}
}

/*
 * pb_sb_execute
 *		Execute statement s of table t (0-based) with its parameters, in the
 *		open transaction or in one of its own, and count it.
 */
static void
pb_sb_execute(PbSbDriver *d, PbDriverContext *ctx, PbTxnCounts *counts,
			  int s, int t, Datum *values)
{
	ParamListInfo params = d->params[s];
	bool		implicit = !d->in_block;
	int64		start = pb_now_ns();

	ctx->current_command = s;
	pb_params_set(params, values);
	if (implicit)
		pb_xact_begin(NIL);
	pb_sb_report_activity(d, d->texts[t * SB_NSTATEMENTS + s]);
	pb_spi_run(d->plans[t * SB_NSTATEMENTS + s], params, counts,
			   implicit && d->read_only[s]);
	if (implicit)
		pb_xact_commit();
	pb_command_done(&ctx->stats[s], pb_now_ns() - start, pb_command_hist(ctx, s));
}

/* BEGIN or COMMIT: a transaction block, counted as other statements */
static void
pb_sb_transaction_control(PbSbDriver *d, PbDriverContext *ctx,
						  PbTxnCounts *counts, int s)
{
	int64		start = pb_now_ns();

	ctx->current_command = s;
	if (s == SB_BEGIN)
	{
		pb_xact_begin_block(NIL);
		d->in_block = true;
	}
	else
	{
		pb_xact_commit();
		d->in_block = false;
	}
	pb_count_statement(counts, false, 0);
	pb_command_done(&ctx->stats[s], pb_now_ns() - start, pb_command_hist(ctx, s));
}

/* get_table_num(): a table, 0-based */
static inline int
pb_sb_table(PbSbDriver *d)
{
	return (int) pb_sb_uniform(&d->prng, 1, d->opts.tables) - 1;
}

/* get_id() */
static inline int64
pb_sb_id(PbSbDriver *d)
{
	return (int64) pb_sb_default(&d->rand, &d->prng, 1, d->opts.table_size);
}

/*
 * pb_sb_string_param
 *		A new random string of a template (c's or pad's) in its varchar
 *		parameter, as set_rand_str() does.
 */
static inline Datum
pb_sb_string_param(PbSbDriver *d, text *param, const char *template)
{
	pb_sb_string(&d->prng, template, VARDATA(param));
	return PointerGetDatum(param);
}

/* execute_point_selects() */
static void
pb_sb_point_selects(PbSbDriver *d, PbDriverContext *ctx, PbTxnCounts *counts,
					int n)
{
	int			t = pb_sb_table(d);

	for (int i = 0; i < n; i++)
	{
		Datum		values[1] = {Int64GetDatum(pb_sb_id(d))};

		pb_sb_execute(d, ctx, counts, SB_POINT_SELECT, t, values);
	}
}

/* execute_range(key) */
static void
pb_sb_ranges(PbSbDriver *d, PbDriverContext *ctx, PbTxnCounts *counts,
			 int s, int n)
{
	int			t = pb_sb_table(d);

	for (int i = 0; i < n; i++)
	{
		int64		id = pb_sb_id(d);
		Datum		values[2] = {Int64GetDatum(id),
		Int64GetDatum(id + d->opts.range_size - 1)};

		pb_sb_execute(d, ctx, counts, s, t, values);
	}
}

/* execute_index_updates() */
static void
pb_sb_index_updates(PbSbDriver *d, PbDriverContext *ctx, PbTxnCounts *counts)
{
	int			t = pb_sb_table(d);

	for (int i = 0; i < d->opts.index_updates; i++)
	{
		Datum		values[1] = {Int64GetDatum(pb_sb_id(d))};

		pb_sb_execute(d, ctx, counts, SB_INDEX_UPDATE, t, values);
	}
}

/* execute_non_index_updates() */
static void
pb_sb_non_index_updates(PbSbDriver *d, PbDriverContext *ctx, PbTxnCounts *counts)
{
	int			t = pb_sb_table(d);

	for (int i = 0; i < d->opts.non_index_updates; i++)
	{
		Datum		values[2];

		values[0] = pb_sb_string_param(d, d->c_param, PB_SB_C_TEMPLATE);
		values[1] = Int64GetDatum(pb_sb_id(d));
		pb_sb_execute(d, ctx, counts, SB_NON_INDEX_UPDATE, t, values);
	}
}

/* execute_delete_inserts() */
static void
pb_sb_delete_inserts(PbSbDriver *d, PbDriverContext *ctx, PbTxnCounts *counts)
{
	int			t = pb_sb_table(d);

	for (int i = 0; i < d->opts.delete_inserts; i++)
	{
		int64		id = pb_sb_id(d);
		int64		k = pb_sb_id(d);
		Datum		del[1] = {Int64GetDatum(id)};
		Datum		ins[4];

		ins[0] = Int64GetDatum(id);
		ins[1] = Int64GetDatum(k);
		ins[2] = pb_sb_string_param(d, d->c_param, PB_SB_C_TEMPLATE);
		ins[3] = pb_sb_string_param(d, d->pad_param, PB_SB_PAD_TEMPLATE);
		pb_sb_execute(d, ctx, counts, SB_DELETE, t, del);
		pb_sb_execute(d, ctx, counts, SB_INSERT, t, ins);
	}
}

/* oltp_delete's event */
static void
pb_sb_delete(PbSbDriver *d, PbDriverContext *ctx, PbTxnCounts *counts)
{
	int			t = pb_sb_table(d);
	Datum		values[1] = {Int64GetDatum(pb_sb_id(d))};

	pb_sb_execute(d, ctx, counts, SB_DELETE, t, values);
}

/*
 * oltp_insert's event: the values in the statement's text, as con:query()
 * sends it, with the id from the table's sequence (auto_inc) or from
 * sysbench.rand.unique() shifted into the int range.
 */
static void
pb_sb_insert(PbSbDriver *d, PbDriverContext *ctx, PbTxnCounts *counts)
{
	int			t = pb_sb_table(d);
	int64		k = pb_sb_id(d);
	StringInfoData sql;
	int64		start = pb_now_ns();
	int			rc;

	pb_sb_string(&d->prng, PB_SB_C_TEMPLATE, d->c_value);
	pb_sb_string(&d->prng, PB_SB_PAD_TEMPLATE, d->pad_value);
	initStringInfo(&sql);
	if (d->opts.auto_inc)
		appendStringInfo(&sql, "INSERT INTO sbtest%d (k, c, pad) VALUES (" INT64_FORMAT ", '%.*s', '%.*s')",
						 t + 1, k, (int) strlen(PB_SB_C_TEMPLATE), d->c_value,
						 (int) strlen(PB_SB_PAD_TEMPLATE), d->pad_value);
	else
	{
		uint32		index = pg_atomic_fetch_add_u32(&d->shared->unique_index, 1);
		int64		id = (int64) pb_sb_unique(index, d->unique_seed_index,
											  d->unique_seed_offset) - INT64CONST(2147483648);

		appendStringInfo(&sql, "INSERT INTO sbtest%d (id, k, c, pad) VALUES (" INT64_FORMAT ", " INT64_FORMAT ", '%.*s', '%.*s')",
						 t + 1, id, k, (int) strlen(PB_SB_C_TEMPLATE), d->c_value,
						 (int) strlen(PB_SB_PAD_TEMPLATE), d->pad_value);
	}
	ctx->current_command = SB_INSERT_QUERY;
	pb_xact_begin(NIL);
	pgstat_report_activity(STATE_RUNNING, sql.data);
	d->activity = NULL;
	rc = SPI_execute(sql.data, false, 0);
	if (rc < 0)
		elog(ERROR, "SPI_execute failed: %s", SPI_result_code_string(rc));
	pb_count_statement(counts, SPI_tuptable != NULL, SPI_processed);
	SPI_freetuptable(SPI_tuptable);
	pb_xact_commit();
	pfree(sql.data);
	pb_command_done(&ctx->stats[SB_INSERT_QUERY], pb_now_ns() - start,
					pb_command_hist(ctx, SB_INSERT_QUERY));
}

/* One event of the workload, as its event() function. */
static void
pb_sb_event(PbSbDriver *d, PbDriverContext *ctx, PbTxnCounts *counts)
{
	const PbSysbenchOptions *o = &d->opts;
	bool		trx = !o->skip_trx;

	switch ((PbSbWorkload) o->workload)
	{
		case PB_SB_READ_WRITE:
		case PB_SB_READ_ONLY:
		case PB_SB_WRITE_ONLY:
			if (trx)
				pb_sb_transaction_control(d, ctx, counts, SB_BEGIN);
			if (o->workload != PB_SB_WRITE_ONLY)
			{
				pb_sb_point_selects(d, ctx, counts, o->point_selects);
				if (o->range_selects)
				{
					pb_sb_ranges(d, ctx, counts, SB_SIMPLE_RANGE, o->simple_ranges);
					pb_sb_ranges(d, ctx, counts, SB_SUM_RANGE, o->sum_ranges);
					pb_sb_ranges(d, ctx, counts, SB_ORDER_RANGE, o->order_ranges);
					pb_sb_ranges(d, ctx, counts, SB_DISTINCT_RANGE, o->distinct_ranges);
				}
			}
			if (o->workload != PB_SB_READ_ONLY)
			{
				pb_sb_index_updates(d, ctx, counts);
				pb_sb_non_index_updates(d, ctx, counts);
				pb_sb_delete_inserts(d, ctx, counts);
			}
			if (trx)
				pb_sb_transaction_control(d, ctx, counts, SB_COMMIT);
			break;
		case PB_SB_POINT_SELECT:
			/* oltp_point_select sets point_selects to 1 */
			pb_sb_point_selects(d, ctx, counts, 1);
			break;
		case PB_SB_UPDATE_INDEX:
			pb_sb_index_updates(d, ctx, counts);
			break;
		case PB_SB_UPDATE_NON_INDEX:
			pb_sb_non_index_updates(d, ctx, counts);
			break;
		case PB_SB_INSERT:
			pb_sb_insert(d, ctx, counts);
			break;
		case PB_SB_DELETE:
			pb_sb_delete(d, ctx, counts);
			break;
	}
	ctx->current_command = -1;
}

/*
 * pb_sb_transaction
 *		One event, started again after each error sysbench ignores, until it
 *		succeeds; false if the run ended meanwhile.
 */
static bool
pb_sb_transaction(PbDriverContext *ctx, PbTxnCounts *counts)
{
	PbSbDriver *d = ctx->state;
	MemoryContext cxt = CurrentMemoryContext;

	for (;;)
	{
		volatile bool done = false;

		PG_TRY();
		{
			pb_sb_event(d, ctx, counts);
			done = true;
		}
		PG_CATCH();
		{
			/* the pgsql driver's ROLLBACK, then the event again */
			pb_absorb_ignorable_error(cxt, ctx->run);
			d->in_block = false;
			d->activity = NULL;
			counts->errors++;
			if (ctx->current_command >= 0)
				pb_counter_add(&ctx->stats[ctx->current_command].failures, 1);
			ctx->current_command = -1;
		}
		PG_END_TRY();
		if (done)
			return true;
		CHECK_FOR_INTERRUPTS();
		if (pb_now_ns() >= pb_run_deadline(ctx->run))
			return false;
	}
}

/* Roll back what an error left open. */
static void
pb_sb_abort(PbDriverContext *ctx)
{
	PbSbDriver *d = ctx->state;

	AbortCurrentTransaction();
	d->in_block = false;
	d->activity = NULL;
}

/* The statement an error came from. */
static char *
pb_sb_error_context(PbDriverContext *ctx)
{
	if (ctx->current_command < 0)
		return NULL;
	return psprintf("statement \"%s\" of workload \"%s\"",
					sb_statements[ctx->current_command].sysbench,
					ctx->config->workload);
}

/*
 * pb_sb_setup
 *		Read the options, seed the client's numbers and prepare the
 *		statements for every table, as sysbench's thread_init().
 */
static void
pb_sb_setup(PbDriverContext *ctx)
{
	PbSbDriver *d = MemoryContextAllocZero(TopMemoryContext, sizeof(PbSbDriver));
	const PbSysbenchOptions *o = ctx->config->options;

	ctx->state = d;
	d->opts = *o;
	d->shared = ctx->shared;
	pb_sb_rand_init(&d->rand, o->rand_type, o->rand_spec_iter, o->rand_spec_pct,
					o->rand_spec_res, o->rand_pareto_h);
	pb_prng_seed(&d->prng, ctx->seed);
	ctx->draws[0] = &d->prng;
	ctx->ndraws = 1;
	pb_sb_unique_seed((uint32) ctx->config->random_seed,
					  (uint32) ((uint64) ctx->config->random_seed >> 32),
					  &d->unique_seed_index, &d->unique_seed_offset);
	pb_sb_uses(d);
	d->c_param = MemoryContextAlloc(TopMemoryContext, VARHDRSZ + strlen(PB_SB_C_TEMPLATE));
	SET_VARSIZE(d->c_param, VARHDRSZ + strlen(PB_SB_C_TEMPLATE));
	d->pad_param = MemoryContextAlloc(TopMemoryContext, VARHDRSZ + strlen(PB_SB_PAD_TEMPLATE));
	SET_VARSIZE(d->pad_param, VARHDRSZ + strlen(PB_SB_PAD_TEMPLATE));
	d->keep = true;
	pb_xact_begin(NIL);
	pgstat_report_activity(STATE_RUNNING, "polarbench: preparing");
	pb_sb_prepare(d, TopMemoryContext);
	pb_xact_commit();
	pgstat_report_activity(STATE_IDLE, NULL);
}

/*
 * pb_sb_commands
 *		The statements a sysbench workload reports on: all of them, in slot
 *		order, as oltp_common.lua writes them.
 */
static int
pb_sb_commands(const PbRunConfig *config, PbCommandDesc **descs)
{
	*descs = palloc0(sizeof(PbCommandDesc) * SB_NSTATEMENTS);
	for (int s = 0; s < SB_NSTATEMENTS; s++)
	{
		(*descs)[s].script_no = 1;
		(*descs)[s].command_no = s + 1;
		(*descs)[s].line = 0;
		(*descs)[s].text = sb_statements[s].sysbench;
	}
	return SB_NSTATEMENTS;
}

/*
 * pb_sb_count_tables
 *		How many of sbtest1, sbtest2, ... the caller sees, in a row.
 */
static int
pb_sb_count_tables(void)
{
	bool		isnull;

	/*
	 * The first number that is no table, less one, in one query; the series
	 * in the select list is made one number at a time, up to the first gap.
	 * It runs with the caller's search_path (the tables are the caller's),
	 * so every function and operator is pg_catalog's by name.
	 */
	if (SPI_execute("SELECT coalesce((SELECT n FROM (SELECT pg_catalog.generate_series(1, 100001) AS n) s"
					" WHERE pg_catalog.to_regclass(pg_catalog.concat('sbtest', n)) IS NULL LIMIT 1)"
					" OPERATOR(pg_catalog.-) 1, 100000)",
					true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not look up sysbench's tables");
	return DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0],
									   SPI_tuptable->tupdesc, 1, &isnull));
}

/*
 * pb_sysbench_resolve
 *		Fill in what was not given from the tables the caller sees: tables
 *		(how many of sbtest1, sbtest2, ... there are) and table_size (the
 *		largest id of sbtest1), where sysbench would assume 1 and 10000.
 *		Missing tables are an error here, before anything starts.
 */
static void
pb_sysbench_resolve(PbSysbenchOptions *o)
{
	int			found;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	found = pb_sb_count_tables();
	if (found == 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation \"sbtest1\" does not exist"),
				 errhint("Load sysbench's tables first, as in SELECT polarbench_init('sysbench', tables => 8, table_size => 10000).")));
	if (!o->tables_given)
		o->tables = found;
	else if (o->tables > found)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation \"sbtest%d\" does not exist", found + 1),
				 errdetail("The workload runs on %d tables, and there are %d.", o->tables, found),
				 errhint("Load as many tables (polarbench_init('sysbench', tables => %d)), or run with tables => %d.",
						 o->tables, found)));
	if (!o->table_size_given)
	{
		bool		isnull;
		Datum		max;

		if (SPI_execute("SELECT pg_catalog.max(id)::pg_catalog.int4 FROM sbtest1", true, 1) != SPI_OK_SELECT)
			elog(ERROR, "could not read the size of sbtest1");
		max = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
		if (isnull)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("table \"sbtest1\" is empty"),
					 errhint("Give table_size in options, or load rows with polarbench_init('sysbench', ...).")));
		o->table_size = Max(DatumGetInt32(max), 1);
	}
	SPI_finish();
}

/* Prepare every statement of every table. */
static void
pb_sb_check_in(void *arg)
{
	PbSbDriver *d = arg;

	pb_sb_prepare(d, CurrentMemoryContext);
}

/*
 * pb_sysbench_plans
 *		How many plans a client of the workload keeps: what the memory
 *		estimate needs before anything is prepared.
 */
static int
pb_sysbench_plans(const PbSysbenchOptions *options)
{
	PbSbDriver	d;

	memset(&d, 0, sizeof(d));
	d.opts = *options;
	pb_sb_uses(&d);
	return pb_sb_plans_per_table(&d) * options->tables;
}

/*
 * pb_sysbench_check
 *		Prepare the workload's statements for every table as the caller, in
 *		a subtransaction rolled back after: a table without sysbench's
 *		columns is an error here.
 */
static void
pb_sysbench_check(const PbSysbenchOptions *options)
{
	PbSbDriver	d;

	memset(&d, 0, sizeof(d));
	d.opts = *options;
	pb_sb_uses(&d);
	pb_in_rolled_back_subxact(pb_sb_check_in, NULL, &d);
}

/*
 * pb_sb_configure
 *		The caller's side of a run: sysbench's defaults for the workload,
 *		then the options given; the tables and table size the tables have,
 *		unless given; the statements and plans.
 */
static void
pb_sb_configure(const PbWorkloadArgs *args, PbRunConfig *config,
				PbRunParams *params, PbRunEstimate *estimate)
{
	PbSysbenchOptions *o;
	PbCommandDesc *descs;

	pb_refuse_script_args(args, params, "A sysbench workload starts an event again after a deadlock or a serialization failure, as sysbench does, and counts it in errors.");
	o = pb_options_from_json(&pb_sysbench_library, args->def, args->options,
							 "{\"tables\": 64, \"table_size\": 25000}", false);
	pb_sysbench_resolve(o);
	config->options = o;
	config->options_size = sizeof(PbSysbenchOptions);
	params->ncommands = pb_sb_commands(config, &descs);
	estimate->nplans = pb_sysbench_plans(o);
	estimate->text_bytes = 0;
}

/* Prepare the statements as the caller. */
static void
pb_sb_check(const PbRunConfig *config, const PbRunParams *params)
{
	pb_sysbench_check(config->options);
}

/* Whether the workload writes: all but the read-only and point selects. */
static bool
pb_sb_writes(const PbRunConfig *config)
{
	const PbSysbenchOptions *o = config->options;

	return o->workload != PB_SB_READ_ONLY && o->workload != PB_SB_POINT_SELECT;
}

/* The options of a stored run, read as a run would read them. */
static void
pb_sb_check_options(const PbWorkloadDef *def, Jsonb *options)
{
	(void) pb_options_from_json(&pb_sysbench_library, def, options, "{\"tables\": 64, \"table_size\": 25000}", true);
}

/* The clients' shared area: the unique sequence. */
static Size
pb_sb_shared_size(const PbRunConfig *config, const PbRunParams *params)
{
	return sizeof(PbSbShared);
}

/* It starts at 0. */
static void
pb_sb_shared_init(void *shared, const PbRunConfig *config,
					 const PbRunParams *params)
{
	pg_atomic_init_u32(&((PbSbShared *) shared)->unique_index, 0);
}

/* --percentile. */
static int
pb_sb_percentile(const PbRunConfig *config)
{
	return ((const PbSysbenchOptions *) config->options)->percentile;
}

/*
 * pb_sb_progress_line
 *		sysbench's interim report line (sb_report_intermediate() with the
 *		database driver's counters): threads, tps, qps by reads, writes and
 *		others, the latency at the percentile, errors and reconnects per
 *		second.
 */
static void
pb_sb_progress_line(char *buf, size_t len, const PbProgressTick *tick)
{
	const PbRunSummary *interval = tick->interval;
	double		s = interval->seconds > 0 ? interval->seconds : 1;

	snprintf(buf, len,
			 "[ %.0fs ] thds: %d tps: %4.2f qps: %4.2f (r/w/o: %4.2f/%4.2f/%4.2f) lat (ms,%d%%): %4.2f err/s: %4.2f reconn/s: %4.2f",
			 tick->elapsed, tick->run->nclients, interval->tps,
			 (interval->reads + interval->writes + interval->others) / s,
			 interval->reads / s, interval->writes / s, interval->others / s,
			 interval->pct, interval->latency_pct, interval->errors / s, 0.0);
}

/*
 * pb_sb_report
 *		sysbench 1.0.20's report after a run (db_report_cumulative() and
 *		sb_report_cumulative()), its percentile read from the run's
 *		histogram.
 */
static void
pb_sb_report(StringInfo out, PbRow *run, int64 run_id,
			 const PbReportOptions *options)
{
	double		seconds = pb_row_num(run, "seconds");
	int64		reads = pb_row_int(run, "reads");
	int64		writes = pb_row_int(run, "writes");
	int64		others = pb_row_int(run, "others");
	int64		queries = reads + writes + others;
	int64		events = pb_row_int(run, "transactions");
	int64		errors = pb_row_int(run, "errors");
	double		s = seconds > 0 ? seconds : 1;
	double		latency_sum = 0;
	double		events_avg;
	double		time_avg;
	double		events_sd = 0;
	double		time_sd = 0;
	double		pct_latency = 0;
	SPITupleTable *t;
	uint64		n;
	int			nclients;
	int			pct;

	/* the percentile the run was asked for, sysbench's 95 for others */
	t = pb_report_query("SELECT coalesce((options->>'percentile')::int, 95) AS pct"
						"  FROM @runs@ WHERE run_id = $1", run_id, &n);
	{
		PbRow		row = {t, 0};

		pct = n > 0 ? (int) pb_row_int(&row, "pct") : 95;
	}

	appendStringInfoString(out, "SQL statistics:\n");
	appendStringInfoString(out, "    queries performed:\n");
	appendStringInfo(out, "        read:                            " INT64_FORMAT "\n", reads);
	appendStringInfo(out, "        write:                           " INT64_FORMAT "\n", writes);
	appendStringInfo(out, "        other:                           " INT64_FORMAT "\n", others);
	appendStringInfo(out, "        total:                           " INT64_FORMAT "\n", queries);
	appendStringInfo(out, "    transactions:                        %-6" INT64_MODIFIER "d (%.2f per sec.)\n",
					 events, events / s);
	appendStringInfo(out, "    queries:                             %-6" INT64_MODIFIER "d (%.2f per sec.)\n",
					 queries, queries / s);
	appendStringInfo(out, "    ignored errors:                      %-6" INT64_MODIFIER "d (%.2f per sec.)\n",
					 errors, errors / s);
	appendStringInfo(out, "    reconnects:                          %-6d (%.2f per sec.)\n", 0, 0.0);
	/* sysbench's events end when they end; polarbench's grace ends them */
	if (pb_row_int_opt(run, "cut_off") > 0)
		appendStringInfo(out, "    cut off at the end:                  " INT64_FORMAT "\n",
						 pb_row_int_opt(run, "cut_off"));
	appendStringInfoString(out, "\n");
	appendStringInfoString(out, "General statistics:\n");
	appendStringInfo(out, "    total time:                          %.4fs\n", seconds);
	appendStringInfo(out, "    total number of events:              " INT64_FORMAT "\n", events);
	appendStringInfoString(out, "\n");

	/* the latency at the percentile: the first bucket that reaches it */
	t = pb_report_query("SELECT latency_from, latency_to, transactions,"
						"       sum(transactions) OVER (ORDER BY latency_from) AS running"
						"  FROM @histogram@ WHERE run_id = $1 ORDER BY latency_from",
						run_id, &n);
	for (uint64 i = 0; i < n; i++)
	{
		PbRow		row = {t, i};

		if (pb_row_num(&row, "running") >= ceil(events * pct / 100.0))
		{
			pct_latency = (pb_row_num(&row, "latency_from") + pb_row_num(&row, "latency_to")) / 2;
			break;
		}
	}
	pct_latency = Min(pct_latency, pb_row_num(run, "latency_max"));

	t = pb_report_query("SELECT transactions, latency_sum FROM @clients@ WHERE run_id = $1",
						run_id, &n);
	nclients = (int) Max(n, 1);
	for (uint64 i = 0; i < n; i++)
	{
		PbRow		row = {t, i};

		latency_sum += pb_row_num(&row, "latency_sum");
	}
	events_avg = (double) events / nclients;
	time_avg = latency_sum / 1000 / nclients;
	for (uint64 i = 0; i < n; i++)
	{
		PbRow		row = {t, i};
		double		d = events_avg - pb_row_num(&row, "transactions");

		events_sd += d * d;
		d = time_avg - pb_row_num(&row, "latency_sum") / 1000;
		time_sd += d * d;
	}
	events_sd = sqrt(events_sd / nclients);
	time_sd = sqrt(time_sd / nclients);

	appendStringInfoString(out, "Latency (ms):\n");
	appendStringInfo(out, "         min: %39.2f\n", pb_row_num(run, "latency_min"));
	appendStringInfo(out, "         avg: %39.2f\n", pb_row_num(run, "latency_avg"));
	appendStringInfo(out, "         max: %39.2f\n", pb_row_num(run, "latency_max"));
	appendStringInfo(out, "        %3dth percentile: %27.2f\n", pct, pct_latency);
	appendStringInfo(out, "         sum: %39.2f\n", latency_sum);
	appendStringInfoString(out, "\n");
	appendStringInfoString(out, "Threads fairness:\n");
	appendStringInfo(out, "    events (avg/stddev):           %.4f/%3.2f\n", events_avg, events_sd);
	appendStringInfo(out, "    execution time (avg/stddev):   %.4f/%3.2f\n", time_avg, time_sd);
}

/* Its workloads, from its library's. */
static bool
pb_sb_workload_at(int i, PbWorkloadEntry *entry)
{
	return pb_library_workload_at(&pb_sysbench_library, pb_sb_writes, i, entry);
}

/*
 * pb_sb_dataset
 *		The data set a run works on: sbtest1 .. sbtest<tables> of
 *		table_size rows, as its options say.
 */
static char *
pb_sb_dataset(const PbRunConfig *config)
{
	const PbSysbenchOptions *o = config->options;
	StringInfoData json;

	initStringInfo(&json);
	appendStringInfo(&json, "{\"dataset\": \"sysbench\", \"tables\": %d, \"table_size\": %d,"
					 " \"table_names\": [", o->tables, o->table_size);
	for (int i = 1; i <= o->tables; i++)
		appendStringInfo(&json, "%s\"sbtest%d\"", i > 1 ? ", " : "", i);
	appendStringInfoString(&json, "]}");
	return json.data;
}

static const PbDriver sysbench_driver = {
	.report_style = "sysbench",
	.rows = PB_ROWS_STATEMENTS,
	.record_unused = false,
	.progress_by_command = false,
	.default_transactions = 0,
	.default_duration = 10,		/* sysbench's --time */
	.configure = pb_sb_configure,
	.check = pb_sb_check,
	.writes = pb_sb_writes,
	.check_options = pb_sb_check_options,
	.shared_size = pb_sb_shared_size,
	.shared_init = pb_sb_shared_init,
	.setup = pb_sb_setup,
	.transaction = pb_sb_transaction,
	.abort = pb_sb_abort,
	.error_context = pb_sb_error_context,
	.workload_at = pb_sb_workload_at,
	.commands = pb_sb_commands,
	.percentile = pb_sb_percentile,
	.progress_line = pb_sb_progress_line,
	.report = pb_sb_report,
	.dataset = pb_sb_dataset,
};

/* The data sets of the kind (sysbench_dataset.c) */
extern const struct PbDataset pb_dataset_sysbench;
static const struct PbDataset *const sysbench_datasets[] = {&pb_dataset_sysbench, NULL};

/* The kind's descriptor, its row in the registry */
const PbKind pb_kind_sysbench = {
	.library = &pb_sysbench_library,
	.driver = &sysbench_driver,
	.datasets = sysbench_datasets,
};
