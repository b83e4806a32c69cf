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
 * calls: worker.c, run_shmem.c, spi_discard.c; of the script library,
 * random_dist.c; of the workload library, sysbench_rand.c.
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
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "run.h"

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
	PbRunShared *run;
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
	for (int i = 0; i < params->numParams; i++)
		params->params[i].value = values[i];
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
		pb_xact_begin(NIL);
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
		uint32		index = pg_atomic_fetch_add_u32(&d->run->unique_index, 1);
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
			pb_absorb_ignorable_error(cxt, d->run);
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
		if (pb_now_ns() >= pb_run_deadline(d->run))
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
	d->run = ctx->run;
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
	 */
	if (SPI_execute("SELECT coalesce((SELECT n FROM (SELECT pg_catalog.generate_series(1, 100001) AS n) s"
					" WHERE pg_catalog.to_regclass(pg_catalog.concat('sbtest', n)) IS NULL LIMIT 1) - 1, 100000)",
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
void
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
int
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
void
pb_sysbench_check(const PbSysbenchOptions *options)
{
	PbSbDriver	d;

	memset(&d, 0, sizeof(d));
	d.opts = *options;
	pb_sb_uses(&d);
	pb_in_rolled_back_subxact(pb_sb_check_in, NULL, &d);
}

const PbDriver pb_sysbench_driver = {
	.setup = pb_sb_setup,
	.transaction = pb_sb_transaction,
	.abort = pb_sb_abort,
	.error_context = pb_sb_error_context,
	.commands = pb_sb_commands,
};
