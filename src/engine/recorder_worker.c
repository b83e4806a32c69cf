/*-------------------------------------------------------------------------
 *
 * recorder_worker.c
 *	  The run recorder: a background worker that writes a run's rows into
 *	  the result tables, each write in a transaction of its own, so that
 *	  any session can follow a run while it goes on: the run's row when the
 *	  clients are ready, a progress row every progress interval (with the
 *	  interval's latency histogram, its non-empty buckets), and the
 *	  summary, status and per-command figures once every client is gone.
 *
 * The worker runs as the role that started the run.  The result tables
 * belong to the extension's owner and nobody else may write them, so each
 * write switches to that owner in a security-restricted operation, with a
 * search_path of pg_catalog only, as PostgreSQL does for maintenance
 * commands that run code on another role's behalf.  The SQL it runs is
 * fixed; only values go in as parameters.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/time.h>
#include <time.h>

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "storage/proc.h"
#include "storage/shm_toc.h"
#include "tcop/tcopprot.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"
#include "utils/jsonb.h"
#include "utils/float.h"
#include "utils/fmgrprotos.h"
#include "utils/timestamp.h"
#include "catalog/namespace.h"
#include "storage/lmgr.h"
#include "utils/lsyscache.h"
#include "utils/wait_event.h"

#include "engine.h"
#include "safe_sql.h"

static PbRunShared *recorder_run;
static dsm_handle recorder_segment;	/* the run's, for polarbench_live and _cancel */
static void *recorder_driver_shared;	/* the driver's area of the segment */

/* the figures the workload's driver reads of the database (PbDriver.figures) */
static void *recorder_figures_state = NULL;
static bool recorder_figures_begun = false;

/* where the run's time went (profile.c) */
static HTAB *recorder_waits;	/* the clients' wait events, sampled */
static int64 recorder_counters[PB_SERVER_COUNTERS];	/* at the start */
static bool recorder_counters_read = false;

/* The result tables the recorder holds session locks on */
#define PB_RECORDER_NLOCKS		8
/* of which those that every version has */
#define PB_RECORDER_CORE_TABLES	4
static LockRelId recorder_locks[PB_RECORDER_NLOCKS];
static int	recorder_nlocks = 0;

static void pb_recorder_record(PbRunShared *run, char *slots,
							   PbRunConfig *config);
static char *pb_recorder_figures_end(const PbRunConfig *config, char *slots,
									 double seconds);

/*
 * pb_recorder_exit
 *		However the recorder ends, tell the launcher, so that it never waits
 *		for a recorder that is gone.
 */
static void
pb_recorder_exit(int code, Datum arg)
{
	/*
	 * Session locks outlast transactions, and process exit does not release
	 * them: left, they would stay with this PGPROC for its next process.
	 */
	for (int i = 0; i < recorder_nlocks; i++)
	{
		LOCKTAG		tag;

		/* an abort at exit may have released them all already */
		SET_LOCKTAG_RELATION(tag, recorder_locks[i].dbId,
							 recorder_locks[i].relId);
		if (PB_LOCK_HELD_BY_ME(&tag, AccessShareLock))
			UnlockRelationIdForSession(&recorder_locks[i], AccessShareLock);
	}
	recorder_nlocks = 0;

	if (recorder_run == NULL)
		return;
	SpinLockAcquire(&recorder_run->mutex);
	recorder_run->recorder_done = true;
	SpinLockRelease(&recorder_run->mutex);
	pb_wake_launcher(recorder_run);
}

/* The most columns one of the recorder's statements writes */
#define PB_RECORDER_MAX_COLUMNS	64

/*
 * The columns one of the recorder's statements writes, by name, with
 * their values: the statement's text is made from the names, so that no
 * $n has to match a position by hand.
 */
typedef struct PbColumns
{
	int			n;
	const char *names[PB_RECORDER_MAX_COLUMNS];
	Oid			types[PB_RECORDER_MAX_COLUMNS];
	Datum		values[PB_RECORDER_MAX_COLUMNS];
	char		nulls[PB_RECORDER_MAX_COLUMNS];
} PbColumns;

/* Add a column and its value (a NULL when isnull). */
static void
pb_column(PbColumns *c, const char *name, Oid type, Datum value, bool isnull)
{
	if (c->n >= PB_RECORDER_MAX_COLUMNS)
		elog(ERROR, "too many columns for a recorder statement");
	c->names[c->n] = name;
	c->types[c->n] = type;
	c->values[c->n] = isnull ? (Datum) 0 : value;
	c->nulls[c->n] = isnull ? 'n' : ' ';
	c->n++;
}

/* Add a jsonb column from its text, NULL when there is none. */
static void
pb_json_column(PbColumns *c, const char *name, const char *json)
{
	pb_column(c, name, JSONBOID,
			  json ? DirectFunctionCall1(jsonb_in, CStringGetDatum(json)) : 0,
			  json == NULL);
}

/*
 * pb_figure_columns
 *		Add the figures of a summary that a row of the rows flag names holds
 *		(PB_FIG_RUN, PB_FIG_PROGRESS), NULL as their rules say: for the whole
 *		run, or for an interval.
 */
static void
pb_figure_columns(PbColumns *c, const PbRunSummary *s, int flag, bool interval)
{
	PbFigureState state;

	pb_figure_state(&state, s, recorder_run->counters_only, recorder_run->rate > 0,
					interval);
	for (int i = 0; i < pb_figure_count(); i++)
	{
		const PbFigureDef *f = pb_figure_at(i);

		if ((f->flags & flag) != 0)
			pb_column(c, f->name, pb_figure_type(f), pb_figure_datum(f, s),
					  pb_figure_is_null(f, &state));
	}
}

/*
 * pb_percentile_columns
 *		Add the latency percentiles of a summary (the figures that are NULL
 *		as percentiles are): a command's, NULL without an execution or when
 *		the run keeps no histogram.
 */
static void
pb_percentile_columns(PbColumns *c, const PbRunSummary *s)
{
	PbFigureState state;

	pb_figure_state(&state, s, recorder_run->counters_only, true, false);
	for (int i = 0; i < pb_figure_count(); i++)
	{
		const PbFigureDef *f = pb_figure_at(i);

		if (f->nulls == PB_FIG_NULL_NO_PCT)
			pb_column(c, f->name, pb_figure_type(f), pb_figure_datum(f, s),
					  pb_figure_is_null(f, &state));
	}
}

/*
 * pb_histogram_column
 *		Add an interval's latency histogram in compact form: its non-empty
 *		buckets only, as pairs of (the bucket's lower bound in ns, how many
 *		transactions it holds) in one bigint[], so that percentiles of any
 *		stretch of intervals can be read back (polarbench_compare's
 *		bootstrap merges them); NULL when the run keeps no histogram.
 */
static void
pb_histogram_column(PbColumns *c, const char *name, const uint64 *hist,
					bool none)
{
	Datum	   *elems;
	int			n = 0;

	if (none)
	{
		pb_column(c, name, INT8ARRAYOID, (Datum) 0, true);
		return;
	}
	for (int b = 0; b < PB_HIST_BUCKETS; b++)
		n += hist[b] > 0;
	elems = palloc(sizeof(Datum) * Max(2 * n, 1));
	n = 0;
	for (int b = 0; b < PB_HIST_BUCKETS; b++)
	{
		uint64		lower;
		uint64		upper;

		if (hist[b] == 0)
			continue;
		pb_hist_bounds(b, &lower, &upper);
		elems[n++] = Int64GetDatum((int64) lower);
		elems[n++] = Int64GetDatum((int64) hist[b]);
	}
	pb_column(c, name, INT8ARRAYOID,
			  PointerGetDatum(construct_array(elems, n, INT8OID, sizeof(int64),
											  FLOAT8PASSBYVAL, TYPALIGN_DOUBLE)),
			  false);
}

/* Qualified name of a result table. */
static const char *
pb_table(const char *name)
{
	return quote_qualified_identifier(recorder_run->schema, name);
}

/*
 * pb_recorder_exec
 *		Run one of the recorder's statements as the extension owner, in a
 *		security-restricted operation, with the columns' values as its
 *		parameters.
 */
static void
pb_recorder_exec(const char *sql, PbColumns *c)
{
	Oid			save_userid;
	int			save_sec;
	int			nest;
	int			rc;

	nest = pb_as_owner_begin(recorder_run->owner, &save_userid, &save_sec);
	rc = SPI_execute_with_args(sql, c ? c->n : 0, c ? c->types : NULL,
							   c ? c->values : NULL, c ? c->nulls : NULL,
							   false, 0);
	pb_as_owner_end(nest, save_userid, save_sec);
	if (rc < 0)
		elog(ERROR, "polarbench recorder: \"%s\" failed: %s", sql,
			 SPI_result_code_string(rc));
}

/*
 * pb_result_table
 *		The result table of that name, or InvalidOid if the installed
 *		version of the extension has none.
 */
static Oid
pb_result_table(const char *name)
{
	return get_relname_relid(name, get_namespace_oid(recorder_run->schema, false));
}

/*
 * pb_columns_installed
 *		Keep only the columns the installed version of the table has: a
 *		library newer than the extension's SQL objects (before ALTER
 *		EXTENSION polarbench UPDATE) records what they can hold.
 */
static void
pb_columns_installed(PbColumns *c, Oid relid)
{
	int			kept = 0;

	for (int i = 0; i < c->n; i++)
	{
		if (get_attnum(relid, c->names[i]) == InvalidAttrNumber)
			continue;
		c->names[kept] = c->names[i];
		c->types[kept] = c->types[i];
		c->values[kept] = c->values[i];
		c->nulls[kept] = c->nulls[i];
		kept++;
	}
	c->n = kept;
}

/*
 * pb_recorder_insert
 *		INSERT the columns into table, with what follows them (RETURNING...);
 *		nothing if the installed version has no such table.
 */
static void
pb_recorder_insert(const char *table, PbColumns *c, const char *tail)
{
	StringInfoData sql;
	Oid			relid = pb_result_table(table);

	if (!OidIsValid(relid))
		return;
	pb_columns_installed(c, relid);
	if (recorder_run->unstored_id != 0)
	{
		/* a hot standby's run: the row goes into its document */
		pb_doc_row(table, c->n, c->names, c->types, c->values, c->nulls);
		return;
	}

	initStringInfo(&sql);
	appendStringInfo(&sql, "INSERT INTO %s (", pb_table(table));
	for (int i = 0; i < c->n; i++)
		appendStringInfo(&sql, "%s%s", i > 0 ? ", " : "", c->names[i]);
	appendStringInfoString(&sql, ") VALUES (");
	for (int i = 0; i < c->n; i++)
		appendStringInfo(&sql, "%s$%d", i > 0 ? ", " : "", i + 1);
	appendStringInfo(&sql, ")%s", tail);
	pb_recorder_exec(sql.data, c);
}

/*
 * pb_recorder_update_run
 *		UPDATE the columns of run run_id.
 */
static void
pb_recorder_update_run(PbColumns *c, int64 run_id)
{
	StringInfoData sql;

	pb_columns_installed(c, pb_result_table("polarbench_run_data"));
	if (c->n == 0)
		return;
	if (recorder_run->unstored_id != 0)
	{
		pb_doc_row("polarbench_run_data", c->n, c->names, c->types, c->values, c->nulls);
		return;
	}
	initStringInfo(&sql);
	appendStringInfo(&sql, "UPDATE %s SET ", pb_table("polarbench_run_data"));
	for (int i = 0; i < c->n; i++)
		appendStringInfo(&sql, "%s%s = $%d", i > 0 ? ", " : "", c->names[i], i + 1);
	pb_column(c, "run_id", INT8OID, Int64GetDatum(run_id), false);
	appendStringInfo(&sql, " WHERE run_id = $%d", c->n);
	pb_recorder_exec(sql.data, c);
}

/* Commit one write. */
static void
pb_recorder_commit(void)
{
	pb_xact_commit();
	pgstat_report_stat(false);
}

/*
 * pb_recorder_repair
 *		A run still recorded as running whose recorder is gone was cut short
 *		by a crash or a restart: record it as the views already show it,
 *		rather than leave it running for ever.
 */
static void
pb_recorder_repair(void)
{
	List	   *interrupted = NIL;
	ListCell   *lc;

	pb_recorder_exec(psprintf("SELECT run_id, recorder_pid, started_at FROM %s"
							  " WHERE status = 'running'",
							  pb_table("polarbench_run_data")), NULL);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tuple = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		int64		run_id = DatumGetInt64(SPI_getbinval(tuple, desc, 1, &isnull));
		int			pid = DatumGetInt32(SPI_getbinval(tuple, desc, 2, &isnull));
		TimestampTz since = DatumGetTimestampTz(SPI_getbinval(tuple, desc, 3,
															  &isnull));

		if (!pb_recorder_running(pid, since))
		{
			int64	   *id = palloc(sizeof(int64));

			*id = run_id;
			interrupted = lappend(interrupted, id);
		}
	}
	foreach(lc, interrupted)
	{
		PbColumns	c = {0};

		pb_column(&c, "status", TEXTOID, CStringGetTextDatum("failed"), false);
		pb_column(&c, "ended_at", TIMESTAMPTZOID,
				  TimestampTzGetDatum(GetCurrentTransactionStartTimestamp()), false);
		pb_column(&c, "error_sqlstate", TEXTOID,
				  CStringGetTextDatum(unpack_sql_state(PB_INTERRUPTED_SQLSTATE)), false);
		pb_column(&c, "error_message", TEXTOID,
				  CStringGetTextDatum(PB_INTERRUPTED_MESSAGE), false);
		pb_recorder_update_run(&c, *(int64 *) lfirst(lc));
	}
}

/*
 * pb_recorder_insert_run
 *		Insert the run's row, status running, and return its id.
 */
static int64
pb_recorder_insert_run(PbRunConfig *config)
{
	PbRunShared *run = recorder_run;
	PbColumns	c = {0};
	Datum	   *texts = palloc(sizeof(Datum) * Max(config->nscripts, 1));
	Datum	   *weights = palloc(sizeof(Datum) * Max(config->nscripts, 1));
	Datum	   *names = palloc(sizeof(Datum) * Max(config->nscripts, 1));
	bool		isnull;
	int64		run_id;

	pb_xact_begin(NIL);
	for (int i = 0; i < config->nscripts; i++)
	{
		texts[i] = CStringGetTextDatum(config->script_texts[i]);
		weights[i] = Int32GetDatum(config->weights[i]);
		names[i] = CStringGetTextDatum(config->script_names[i]);
	}
	pb_column(&c, "workload", TEXTOID, CStringGetTextDatum(config->workload), false);
	pb_column(&c, "scripts", TEXTARRAYOID,
			  PointerGetDatum(construct_array(texts, config->nscripts, TEXTOID,
											  -1, false, TYPALIGN_INT)), false);
	pb_column(&c, "weights", INT4ARRAYOID,
			  PointerGetDatum(construct_array(weights, config->nscripts, INT4OID,
											  sizeof(int32), true, TYPALIGN_INT)), false);
	pb_column(&c, "script_names", TEXTARRAYOID,
			  PointerGetDatum(construct_array(names, config->nscripts, TEXTOID,
											  -1, false, TYPALIGN_INT)),
			  config->nscripts == 0);
	pb_column(&c, "clients", INT4OID, Int32GetDatum(run->nclients), false);
	pb_column(&c, "duration", FLOAT8OID, Float8GetDatum(run->duration),
			  run->duration == 0);
	pb_column(&c, "transactions_limit", INT8OID,
			  Int64GetDatum(run->transactions_limit), run->transactions_limit == 0);
	pb_column(&c, "progress_interval", INT4OID, Int32GetDatum(run->progress_interval),
			  false);
	pb_column(&c, "rate", FLOAT8OID, Float8GetDatum(run->rate), run->rate == 0);
	pb_column(&c, "latency_limit", FLOAT8OID, Float8GetDatum(run->latency_limit_ns / 1e6),
			  run->latency_limit_ns == 0);
	pb_column(&c, "max_tries", INT4OID, Int32GetDatum(run->max_tries), false);
	pb_column(&c, "warmup", FLOAT8OID, Float8GetDatum(run->warmup), false);
	pb_column(&c, "end_grace", FLOAT8OID, Float8GetDatum(run->grace_ns / 1e9),
			  run->duration == 0);
	pb_column(&c, "counters_only", BOOLOID, BoolGetDatum(run->counters_only), false);
	pb_json_column(&c, "vars", config->vars_json);
	pb_json_column(&c, "settings", config->settings_json);
	pb_json_column(&c, "server_settings", config->server_settings_json);
	pb_json_column(&c, "effective_settings", config->effective_json);
	pb_json_column(&c, "environment", config->environment_json);
	pb_json_column(&c, "options", config->options_json);
	pb_column(&c, "random_seed", INT8OID, Int64GetDatum(config->random_seed), false);
	pb_column(&c, "run_by", OIDOID, ObjectIdGetDatum(run->role), false);
	pb_column(&c, "status", TEXTOID, CStringGetTextDatum("running"), false);
	pb_column(&c, "started_at", TIMESTAMPTZOID,
			  TimestampTzGetDatum(GetCurrentTransactionStartTimestamp()), false);
	pb_column(&c, "recorder_pid", INT4OID, Int32GetDatum(MyProcPid), false);
	pb_column(&c, "segment", INT8OID, Int64GetDatum((int64) recorder_segment), false);

	if (run->unstored_id != 0)
	{
		/* a hot standby's run, kept in a document rather than the tables */
		pb_doc_start();
		pb_recorder_insert("polarbench_run_data", &c, "");
		pb_recorder_commit();
		return run->unstored_id;
	}
	pb_recorder_repair();
	pb_recorder_insert("polarbench_run_data", &c, " RETURNING run_id");
	if (SPI_processed != 1)
		elog(ERROR, "polarbench recorder: run row not inserted");
	run_id = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0],
										 SPI_tuptable->tupdesc, 1, &isnull));
	/* a sweep's first run gives the sweep its id */
	if (run->sweep_id != 0)
	{
		PbColumns	s = {0};

		pb_column(&s, "sweep_id", INT8OID,
				  Int64GetDatum(run->sweep_id < 0 ? run_id : run->sweep_id), false);
		pb_column(&s, "sweep_run", INT4OID, Int32GetDatum(run->sweep_run), false);
		pb_column(&s, "sweep_set", INT4OID, Int32GetDatum(run->sweep_set), false);
		pb_column(&s, "sweep_repeat", INT4OID, Int32GetDatum(run->sweep_repeat), false);
		pb_recorder_update_run(&s, run_id);
	}
	pb_recorder_commit();
	return run_id;
}

/* What the recorder keeps from one progress tick to the next */
typedef struct PbProgressState
{
	PbTotals	last;
	int64		last_ns;
	uint64	   *last_hist;		/* the transactions' histogram at the last tick */
	uint64	   *hist;			/* an interval's histogram */
	uint64	   *merged;			/* scratch */
	int			pct;			/* the percentile the progress line shows */
	/* each command's, when the driver's progress line needs them */
	int			ncommands;
	uint64	  **last_command_hist;	/* at the last tick */
	uint64	   *last_command_count;
	uint64	   *last_command_ns;
	uint64	  **command_hist;	/* the interval's */
	uint64	   *command_count;
	uint64	   *command_ns;
} PbProgressState;

/*
 * pb_hist_since
 *		Merge the clients' histograms of a command (-1: of the transactions)
 *		once, put what they gained since last into into, and make the
 *		merge the new last.  Returns the interval's count.
 */
static uint64
pb_hist_since(PbRunShared *run, char *slots, int command, uint64 *last,
			  uint64 *into, PbProgressState *ps)
{
	uint64		count = 0;

	pb_hist_merge(run, slots, command, ps->merged);
	for (int b = 0; b < PB_HIST_BUCKETS; b++)
	{
		into[b] = ps->merged[b] - last[b];
		count += into[b];
	}
	memcpy(last, ps->merged, sizeof(uint64) * PB_HIST_BUCKETS);
	return count;
}

/*
 * pb_progress_commands
 *		Each command's interval: its executions and time since the last
 *		tick, and its latencies when the run keeps them per command.
 */
static void
pb_progress_commands(PbRunShared *run, char *slots, PbProgressState *ps)
{
	for (int cmd = 0; cmd < ps->ncommands; cmd++)
	{
		uint64		count = 0;
		uint64		ns = 0;

		for (int i = 0; i < run->nclients; i++)
		{
			PbCommandStats *stats = pb_slot_commands(pb_slot(run, slots, i)) + cmd;

			count += pg_atomic_read_u64(&stats->executions);
			ns += pg_atomic_read_u64(&stats->total_ns);
		}
		ps->command_count[cmd] = count - ps->last_command_count[cmd];
		ps->command_ns[cmd] = ns - ps->last_command_ns[cmd];
		ps->last_command_count[cmd] = count;
		ps->last_command_ns[cmd] = ns;
		if (run->command_histograms)
			(void) pb_hist_since(run, slots, cmd, ps->last_command_hist[cmd],
								 ps->command_hist[cmd], ps);
	}
}

/*
 * pb_recorder_progress
 *		At a progress tick: the interval's figures, one progress row, and
 *		its line, in the words of the workload's tool, published for the
 *		launcher.
 */
static void
pb_recorder_progress(int64 run_id, double elapsed, PbRunShared *run,
					 char *slots, PbProgressState *ps,
					 const PbRunConfig *config)
{
	PbColumns	c = {0};
	PbTotals	totals;
	PbRunSummary s;
	PbProgressTick tick;
	char		line[PB_PROGRESS_LINE_LEN];
	int64		now = pb_now_ns();
	int64		ok;

	pb_totals_read(run, slots, &totals);
	/* the figures cover the time since the last reading */
	pb_summary_interval(&ps->last, &totals, (now - ps->last_ns) / 1e9, &s);
	s.pct = ps->pct;
	if (!run->counters_only)
	{
		ok = pb_hist_since(run, slots, -1, ps->last_hist, ps->hist, ps);
		pb_summary_percentiles(&s, ps->hist, ok, 1, 0);
	}

	/* the line, in the words of the workload's tool */
	memset(&tick, 0, sizeof(tick));
	tick.run = run;
	tick.config = config;
	tick.elapsed = elapsed;
	tick.transactions = totals.transactions;
	tick.interval = &s;
	if (ps->ncommands > 0)
	{
		pb_progress_commands(run, slots, ps);
		tick.command_counts = ps->command_count;
		tick.command_ns = ps->command_ns;
		tick.command_hists = run->command_histograms ? ps->command_hist : NULL;
	}
	pb_driver(config->kind)->progress_line(line, sizeof(line), &tick);
	ps->last = totals;
	ps->last_ns = now;

	pb_column(&c, "run_id", INT8OID, Int64GetDatum(run_id), false);
	pb_column(&c, "elapsed", FLOAT8OID, Float8GetDatum(elapsed), false);
	pb_figure_columns(&c, &s, PB_FIG_PROGRESS, true);
	pb_histogram_column(&c, "latency_histogram", ps->hist, run->counters_only);
	pb_xact_begin(NIL);
	pb_recorder_insert("polarbench_progress_data", &c, "");
	pb_recorder_commit();

	SpinLockAcquire(&recorder_run->mutex);
	strlcpy(recorder_run->progress_line, line, sizeof(recorder_run->progress_line));
	recorder_run->progress_seq++;
	SpinLockRelease(&recorder_run->mutex);
	pb_wake_launcher(recorder_run);
}

/*
 * pb_recorder_live
 *		Every second: the figures of the second gone by, published in the
 *		run's segment for polarbench_live.
 */
static void
pb_recorder_live(PbRunShared *run, char *slots, PbProgressState *ls)
{
	PbTotals	totals;
	PbRunSummary s;
	PbLiveFigures f;
	int64		now = pb_now_ns();
	double		seconds = (now - ls->last_ns) / 1e9;

	pb_totals_read(run, slots, &totals);
	pb_summary_interval(&ls->last, &totals, seconds, &s);
	if (!run->counters_only)
	{
		int64		ok = pb_hist_since(run, slots, -1, ls->last_hist, ls->hist, ls);

		pb_summary_percentiles(&s, ls->hist, ok, 1, 0);
	}
	memset(&f, 0, sizeof(f));
	f.valid = true;
	f.warming_up = now < run->measure_ns;
	f.elapsed = f.warming_up ? 0 : (now - run->measure_ns) / 1e9;
	for (int i = 0; i < run->nclients; i++)
		if (pg_atomic_read_u32(&pb_slot(run, slots, i)->status) != PB_SLOT_EXITED)
			f.clients++;
	f.failed_per_second = seconds > 0 ? s.failed / seconds : 0;
	f.retried_per_second = seconds > 0 ? s.retried / seconds : 0;
	/* NULL as the second's figures are, with the run's so far beside them */
	pb_figure_state(&f.state, &s, run->counters_only, run->rate > 0, true);
	f.second = s;
	f.second.transactions = totals.transactions - totals.failed;
	f.second.cut_off = totals.cut_off;
	ls->last = totals;
	ls->last_ns = now;

	SpinLockAcquire(&run->mutex);
	run->live = f;
	SpinLockRelease(&run->mutex);
}

/*
 * pb_recorder_commands
 *		Insert the figures of every command the workload reports on, summed
 *		over clients, with their percentiles: its statements, or its named
 *		operations, as its driver keeps them.
 */
static void
pb_recorder_commands(int64 run_id, const PbRunConfig *config, char *slots)
{
	PbRunShared *run = recorder_run;
	const PbDriver *driver = pb_driver(config->kind);
	PbCommandDesc *descs;
	int			n = driver->commands(config, &descs);
	uint64	   *merged = palloc(sizeof(uint64) * PB_HIST_BUCKETS);

	for (int cmd = 0; cmd < n; cmd++)
	{
		PbColumns	c = {0};
		uint64		executions = 0;
		uint64		failures = 0;
		uint64		retries = 0;
		uint64		rollbacks = 0;
		uint64		total_ns = 0;
		PbRunSummary pct;
		uint64		min_ns = PG_UINT64_MAX;
		uint64		max_ns = 0;
		bool		none;

		for (int i = 0; i < run->nclients; i++)
		{
			PbCommandStats *stats = pb_slot_commands(pb_slot(run, slots, i)) + cmd;

			executions += pg_atomic_read_u64(&stats->executions);
			failures += pg_atomic_read_u64(&stats->failures);
			retries += pg_atomic_read_u64(&stats->retries);
			rollbacks += pg_atomic_read_u64(&stats->rollbacks);
			total_ns += pg_atomic_read_u64(&stats->total_ns);
			min_ns = Min(min_ns, pg_atomic_read_u64(&stats->min_ns));
			max_ns = Max(max_ns, pg_atomic_read_u64(&stats->max_ns));
		}
		none = (executions == 0);
		/* a statement or operation the workload never runs may have no row */
		if (!driver->record_unused && none && failures == 0)
			continue;
		pb_column(&c, "run_id", INT8OID, Int64GetDatum(run_id), false);
		memset(&pct, 0, sizeof(pct));
		pct.transactions = executions;
		if (run->command_histograms && !none)
		{
			pb_hist_merge(run, slots, cmd, merged);
			pb_summary_percentiles(&pct, merged, executions, min_ns, max_ns);
		}
		pb_percentile_columns(&c, &pct);
		if (driver->rows == PB_ROWS_OPERATIONS)
		{
			pb_column(&c, "operation", TEXTOID, CStringGetTextDatum(descs[cmd].text), false);
			pb_column(&c, "operations", INT8OID, Int64GetDatum(executions), false);
			pb_column(&c, "errors", INT8OID, Int64GetDatum(failures), false);
			pb_column(&c, "retries", INT8OID, Int64GetDatum(retries), false);
			pb_column(&c, "rollbacks", INT8OID, Int64GetDatum(rollbacks), false);
		}
		else
		{
			pb_column(&c, "script_no", INT4OID, Int32GetDatum(descs[cmd].script_no), false);
			pb_column(&c, "command_no", INT4OID, Int32GetDatum(descs[cmd].command_no), false);
			pb_column(&c, "line", INT4OID, Int32GetDatum(descs[cmd].line), false);
			pb_column(&c, "command", TEXTOID, CStringGetTextDatum(descs[cmd].text), false);
			pb_column(&c, "executions", INT8OID, Int64GetDatum(executions), false);
			pb_column(&c, "failures", INT8OID, Int64GetDatum(failures), false);
			pb_column(&c, "retries", INT8OID, Int64GetDatum(retries), false);
		}
		pb_column(&c, "latency_avg", FLOAT8OID,
				  Float8GetDatum(none ? 0 : total_ns / 1e6 / executions), none);
		pb_column(&c, "latency_min", FLOAT8OID, Float8GetDatum(min_ns / 1e6), none);
		pb_column(&c, "latency_max", FLOAT8OID, Float8GetDatum(max_ns / 1e6), none);
		pb_recorder_insert(driver->rows == PB_ROWS_OPERATIONS ? "polarbench_operation_data" :
						   "polarbench_statement_data", &c, "");
	}
	pfree(merged);
}

/*
 * pb_recorder_clients
 *		Insert each client's transactions, errors and time spent in them:
 *		what sysbench's threads fairness is made from.
 */
static void
pb_recorder_clients(int64 run_id, char *slots)
{
	PbRunShared *run = recorder_run;

	for (int i = 0; i < run->nclients; i++)
	{
		PbClientSlot *slot = pb_slot(run, slots, i);
		PbColumns	c = {0};

		pb_column(&c, "run_id", INT8OID, Int64GetDatum(run_id), false);
		pb_column(&c, "client", INT4OID, Int32GetDatum(i + 1), false);
		pb_column(&c, "transactions", INT8OID,
				  Int64GetDatum(pg_atomic_read_u64(&slot->transactions)), false);
		pb_column(&c, "failed", INT8OID,
				  Int64GetDatum(pg_atomic_read_u64(&slot->failed)), false);
		pb_column(&c, "errors", INT8OID,
				  Int64GetDatum(pg_atomic_read_u64(&slot->errors)), false);
		pb_column(&c, "latency_sum", FLOAT8OID,
				  Float8GetDatum(pg_atomic_read_u64(&slot->latency_sum_ns) / 1e6), false);
		pb_column(&c, "cpu_seconds", FLOAT8OID, Float8GetDatum(slot->cpu_ns / 1e9), false);
		pb_recorder_insert("polarbench_client_data", &c, "");
	}
}

/*
 * pb_recorder_histogram
 *		Insert the run's merged latency histogram, one row per bucket that
 *		holds any transaction, so that any percentile can be read later.
 */
static void
pb_recorder_histogram(int64 run_id, char *slots)
{
	uint64	   *merged = palloc(sizeof(uint64) * PB_HIST_BUCKETS);

	pb_hist_merge(recorder_run, slots, -1, merged);
	for (int b = 0; b < PB_HIST_BUCKETS; b++)
	{
		PbColumns	c = {0};
		uint64		lower;
		uint64		upper;

		if (merged[b] == 0)
			continue;
		pb_hist_bounds(b, &lower, &upper);
		pb_column(&c, "run_id", INT8OID, Int64GetDatum(run_id), false);
		pb_column(&c, "latency_from", FLOAT8OID, Float8GetDatum(lower / 1e6), false);
		pb_column(&c, "latency_to", FLOAT8OID, Float8GetDatum(upper / 1e6), false);
		pb_column(&c, "transactions", INT8OID, Int64GetDatum(merged[b]), false);
		pb_recorder_insert("polarbench_histogram_data", &c, "");
	}
	pfree(merged);
}

/* Insert one wait event's samples. */
static void
pb_recorder_wait_event(const char *type, const char *name, int64 samples, void *arg)
{
	PbColumns	c = {0};

	pb_column(&c, "run_id", INT8OID, Int64GetDatum(*(int64 *) arg), false);
	pb_column(&c, "wait_event_type", TEXTOID, CStringGetTextDatum(type), false);
	pb_column(&c, "wait_event", TEXTOID, CStringGetTextDatum(name), false);
	pb_column(&c, "samples", INT8OID, Int64GetDatum(samples), false);
	pb_recorder_insert("polarbench_wait_event_data", &c, "");
}

/*
 * pb_abort_message
 *		What the record of an aborted run says of its first abort e, in
 *		pgbench's words: the client (numbered from 0, as pgbench and
 *		:client_id number them), where its error came from, the error, and
 *		how many clients aborted.
 */
static char *
pb_abort_message(const PbSharedError *e, int client, int naborted)
{
	char	   *first;

	if (e->sqlerrcode == 0)
		return "";
	first = e->context[0] != '\0' ?
		psprintf("client %d aborted in %s: %s", client, e->context, e->message) :
		psprintf("client %d aborted: %s", client, e->message);
	if (naborted == 1)
		return first;
	return psprintf("%s (%d clients aborted)", first, naborted);
}

/*
 * pb_recorder_finish
 *		Write the run's summary and final status, and the per-command and
 *		per-client figures, in one transaction.
 */
static void
pb_recorder_finish(int64 run_id, const PbRunConfig *config, char *slots)
{
	PbRunShared *run = recorder_run;
	PbRunSummary s;
	PbColumns	c = {0};
	const char *status;
	double		seconds;
	uint32		reason = pg_atomic_read_u32(&run->stop_reason);
	int			naborted;
	int			aborted_client;
	PbSharedError error;

	seconds = pb_run_seconds(run, slots);
	pb_summary_final(run, slots, seconds, &s);
	SpinLockAcquire(&run->mutex);
	naborted = run->naborted;
	SpinLockRelease(&run->mutex);

	/*
	 * A run that measured nothing is no result, unless its clients aborted:
	 * then it is an aborted run, with what they measured.
	 */
	if (reason == PB_STOP_NONE && run->start_ns > 0 && run->duration > 0 &&
		naborted == 0 && s.transactions + s.failed + s.skipped == 0)
	{
		pb_fail_run_hint(run, PB_FAILED_BY_LAUNCHER,
						 ERRCODE_INVALID_PARAMETER_VALUE,
						 psprintf("no transaction ended within the run's duration of %g s",
								  run->duration),
						 s.cut_off == 0 ? NULL :
						 psprintf(s.cut_off == 1 ?
								  "%lld transaction was in flight at its end, and was cut off after its grace of %g s." :
								  "%lld transactions were in flight at its end, and were cut off after its grace of %g s.",
								  (long long) s.cut_off, run->grace_ns / 1e9),
						 "Give a duration long enough for at least one transaction.");
		reason = pg_atomic_read_u32(&run->stop_reason);
	}

	/* from here on a cancel comes too late: the run is over */
	if (reason == PB_STOP_NONE)
	{
		uint32		expected = PB_STOP_NONE;

		if (!pg_atomic_compare_exchange_u32(&run->stop_reason, &expected, PB_STOP_DONE))
			reason = expected;
	}
	status = reason == PB_STOP_FAILED ? "failed" :
		reason == PB_STOP_CANCELED ? "canceled" :
		naborted > 0 ? "aborted" : "finished";

	pb_xact_begin(NIL);

	/*
	 * The table of 1.4 (before ALTER EXTENSION polarbench UPDATE) checks
	 * that a status is one it knew: an aborted run is failed there.  1.5's
	 * table has failed_other, which 1.4's has not.
	 */
	if (strcmp(status, "aborted") == 0 && run->unstored_id == 0 &&
		get_attnum(pb_result_table("polarbench_run_data"), "failed_other") == InvalidAttrNumber)
		status = "failed";
	pb_column(&c, "status", TEXTOID, CStringGetTextDatum(status), false);
	pb_column(&c, "ended_at", TIMESTAMPTZOID,
			  TimestampTzGetDatum(GetCurrentTransactionStartTimestamp()), false);
	pb_figure_columns(&c, &s, PB_FIG_RUN, false);
	if (run->start_ns > 0)
	{
		char	   *figures = pb_recorder_figures_end(config, slots, seconds);

		if (figures != NULL)
			pb_json_column(&c, "figures", figures);
	}
	if (recorder_counters_read)
	{
		int64		after[PB_SERVER_COUNTERS];

		pb_server_counters_read(after);
		pb_json_column(&c, "server_stats", pb_server_counters_json(recorder_counters, after));
	}
	/* a failed run's error, or an aborted one's first abort */
	SpinLockAcquire(&run->mutex);
	error = *(reason == PB_STOP_FAILED ? &run->error : &run->abort_error);
	aborted_client = run->aborted_client;
	SpinLockRelease(&run->mutex);
	if (reason != PB_STOP_FAILED && naborted == 0)
		error.sqlerrcode = 0;
	pb_column(&c, "error_sqlstate", TEXTOID,
			  CStringGetTextDatum(unpack_sql_state(error.sqlerrcode)),
			  error.sqlerrcode == 0);
	pb_column(&c, "error_message", TEXTOID,
			  CStringGetTextDatum(reason == PB_STOP_FAILED ? error.message :
								  pb_abort_message(&error, aborted_client, naborted)),
			  error.sqlerrcode == 0);
	pb_recorder_update_run(&c, run_id);
	if (run->start_ns > 0)
	{
		pb_recorder_commands(run_id, config, slots);
		pb_recorder_clients(run_id, slots);
		pb_recorder_histogram(run_id, slots);
		if (recorder_waits != NULL &&
			OidIsValid(pb_result_table("polarbench_wait_event_data")))
			pb_waits_foreach(recorder_waits, pb_recorder_wait_event, &run_id);
	}
	pb_recorder_commit();
	if (run->unstored_id != 0)
	{
		dsm_handle	document = pb_doc_publish(run_id);

		SpinLockAcquire(&run->mutex);
		run->document = document;
		SpinLockRelease(&run->mutex);
	}
	SpinLockAcquire(&run->mutex);
	run->recorded = true;
	SpinLockRelease(&run->mutex);
}

/*
 * pb_recorder_delete_run
 *		Remove the row of a run that never started.
 */
static void
pb_recorder_delete_run(int64 run_id)
{
	PbColumns	c = {0};

	if (recorder_run->unstored_id != 0)
		return;
	pb_column(&c, "run_id", INT8OID, Int64GetDatum(run_id), false);
	pb_xact_begin(NIL);
	pb_recorder_exec(psprintf("DELETE FROM %s WHERE run_id = $1",
							  pb_table("polarbench_run_data")), &c);
	pb_recorder_commit();
}

/* Whether every client has exited. */
static bool
pb_clients_exited(PbRunShared *run, char *slots)
{
	for (int i = 0; i < run->nclients; i++)
		if (pg_atomic_read_u32(&pb_slot(run, slots, i)->status) != PB_SLOT_EXITED)
			return false;
	return true;
}

/* Sleep until woken, or for at most timeout_ms. */
static void
pb_recorder_wait(long timeout_ms)
{
	(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
					 Max(timeout_ms, 1), PG_WAIT_EXTENSION);
	ResetLatch(MyLatch);
	CHECK_FOR_INTERRUPTS();
}

/*
 * pb_recorder_settings
 *		The recorder runs as the caller's role, with the role's and the
 *		database's settings; those that would stop it from writing its fixed
 *		rows are put back to what the recorder needs.
 */
static void
pb_recorder_settings(void)
{
	static const char *const settings[][2] = {
		{"search_path", PB_SAFE_SEARCH_PATH},
		{"default_transaction_read_only", "off"},
		{"default_transaction_isolation", "read committed"},
		{"default_transaction_deferrable", "off"},
		{"statement_timeout", "0"},
		{"lock_timeout", "0"},
		{"idle_in_transaction_session_timeout", "0"},
		{"transaction_timeout", "0"},
	};

	for (int i = 0; i < lengthof(settings); i++)
		if (GetConfigOption(settings[i][0], true, false) != NULL)
			SetConfigOption(settings[i][0], settings[i][1], PGC_SUSET,
							PGC_S_OVERRIDE);
}

/*
 * pb_recorder_lock_tables
 *		Lock the result tables for the recorder's whole life, so that DROP
 *		EXTENSION waits for the run to be recorded instead of dropping the
 *		tables under it.  Session locks: they outlast each write's
 *		transaction.  As the recorder holds them, its own writes go ahead of
 *		a DROP queued for the tables.
 */
static void
pb_recorder_lock_tables(void)
{
	static const char *const tables[PB_RECORDER_NLOCKS] = {
		"polarbench_run_data", "polarbench_run_data_run_id_seq",
		"polarbench_progress_data", "polarbench_statement_data",
		"polarbench_operation_data", "polarbench_client_data",
		"polarbench_histogram_data", "polarbench_wait_event_data"
	};
	Oid			nspid;

	pb_xact_begin(NIL);
	nspid = get_namespace_oid(recorder_run->schema, false);
	for (int i = 0; i < lengthof(tables); i++)
	{
		LockRelId	relid;
		Oid			oid = get_relname_relid(tables[i], nspid);

		/* tables of a newer version than the one installed */
		if (!OidIsValid(oid) && i >= PB_RECORDER_CORE_TABLES)
			continue;
		if (!OidIsValid(oid))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("relation \"%s.%s\" does not exist",
							recorder_run->schema, tables[i]),
					 errdetail("The polarbench extension was dropped while the run started.")));
		relid.relId = oid;
		relid.dbId = MyDatabaseId;
		LockRelationIdForSession(&relid, AccessShareLock);
		recorder_locks[recorder_nlocks++] = relid;
	}
	pb_recorder_commit();
}

/*
 * pb_recorder_main
 *		Entry point of the recorder worker; main_arg is the run's segment.
 */
void
pb_recorder_main(Datum main_arg)
{
	dsm_segment *seg;
	shm_toc    *toc;
	char	   *slots;
	PbRunShared *run;
	PbRunConfig *config;

	seg = pb_worker_attach(main_arg, "polarbench recorder");
	recorder_segment = dsm_segment_handle(seg);
	toc = shm_toc_attach(PB_RUN_MAGIC, dsm_segment_address(seg));
	if (toc == NULL)
		elog(ERROR, "invalid polarbench run segment");
	run = shm_toc_lookup(toc, PB_KEY_RUN, false);
	slots = shm_toc_lookup(toc, PB_KEY_SLOTS, false);
	recorder_driver_shared = shm_toc_lookup(toc, PB_KEY_DRIVER, false);
	recorder_run = run;
	before_shmem_exit(pb_recorder_exit, (Datum) 0);
	pg_atomic_write_u32(&run->recorder_pgprocno, PB_MY_PGPROCNO + 1);

	BackgroundWorkerInitializeConnectionByOid(run->database, run->role, 0);
	pgstat_report_appname("polarbench recorder");
	pb_recorder_settings();

	PG_TRY();
	{
		pb_recorder_lock_tables();
		config = pb_config_deserialize(shm_toc_lookup(toc, PB_KEY_CONFIG, false));
		pb_recorder_record(run, slots, config);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		/* the launcher tells the caller why the run is not recorded */
		HOLD_INTERRUPTS();
		MemoryContextSwitchTo(TopMemoryContext);
		edata = CopyErrorData();
		pb_fail_run_error(run, PB_FAILED_BY_RECORDER, edata->sqlerrcode,
						  edata->message, edata->detail, edata->hint,
						  edata->context);
		RESUME_INTERRUPTS();
		PG_RE_THROW();
	}
	PG_END_TRY();
	proc_exit(0);
}

/*
 * pb_recorder_figures_begin
 *		Let the workload's driver read what it reads of the database at the
 *		measurement's start, in a transaction of its own, as the run's role.
 */
static void
pb_recorder_figures_begin(const PbRunConfig *config)
{
	const PbDriver *driver = pb_driver(config->kind);

	recorder_figures_begun = true;
	if (driver->figures == NULL)
		return;
	pb_xact_begin(NIL);
	(void) driver->figures(config, recorder_driver_shared, &recorder_figures_state, NULL);
	pb_recorder_commit();
}

/*
 * pb_recorder_figures_end
 *		The run's figures, as the workload's driver reads them after the
 *		clients (a JSON object), or NULL; in the caller's transaction.
 */
static char *
pb_recorder_figures_end(const PbRunConfig *config, char *slots, double seconds)
{
	PbRunShared *run = recorder_run;
	const PbDriver *driver = pb_driver(config->kind);
	PbFiguresInput in;
	uint64	   *executions;
	uint64	   *rollbacks;

	if (driver->figures == NULL || !recorder_figures_begun)
		return NULL;
	executions = palloc0(sizeof(uint64) * Max(run->ncommands, 1));
	rollbacks = palloc0(sizeof(uint64) * Max(run->ncommands, 1));
	for (int i = 0; i < run->nclients; i++)
	{
		PbCommandStats *stats = pb_slot_commands(pb_slot(run, slots, i));

		for (int cmd = 0; cmd < run->ncommands; cmd++)
		{
			executions[cmd] += pg_atomic_read_u64(&stats[cmd].executions);
			rollbacks[cmd] += pg_atomic_read_u64(&stats[cmd].rollbacks);
		}
	}
	in.seconds = seconds;
	in.executions = executions;
	in.rollbacks = rollbacks;
	return driver->figures(config, recorder_driver_shared, &recorder_figures_state, &in);
}

/*
 * pb_recorder_record
 *		Record the run from its start to its end.
 */
static void
pb_recorder_record(PbRunShared *run, char *slots, PbRunConfig *config)
{
	int64		run_id;
	PbProgressState ps;
	PbProgressState ls;			/* polarbench_live's, every second */
	int			ticks = 0;
	int			live_ticks = 0;
	int64		next_sample = 0;

	run_id = pb_recorder_insert_run(config);
	/* without a warm-up, before any client is released: nothing missed */
	if (run->warmup == 0)
		pb_recorder_figures_begin(config);
	SpinLockAcquire(&run->mutex);
	run->run_id = run_id;
	run->recorder_ready = true;
	SpinLockRelease(&run->mutex);
	pb_wake_launcher(run);

	while (pg_atomic_read_u32(&run->state) == PB_STATE_STARTING)
		pb_recorder_wait(1000);
	pg_read_barrier();			/* the start and deadlines were set before */

	if (pg_atomic_read_u32(&run->stop_reason) == PB_STOP_ABORTED)
	{
		pb_recorder_delete_run(run_id);
		return;
	}

	memset(&ps, 0, sizeof(ps));
	ps.last_ns = run->measure_ns;
	ps.hist = palloc0(sizeof(uint64) * PB_HIST_BUCKETS);
	ps.merged = palloc0(sizeof(uint64) * PB_HIST_BUCKETS);
	ps.last_hist = palloc0(sizeof(uint64) * PB_HIST_BUCKETS);
	ps.pct = pb_driver(config->kind)->percentile(config);
	if (pb_driver(config->kind)->progress_by_command && run->progress_interval > 0)
	{
		ps.ncommands = run->ncommands;
		ps.last_command_hist = palloc0(sizeof(uint64 *) * Max(run->ncommands, 1));
		ps.command_hist = palloc0(sizeof(uint64 *) * Max(run->ncommands, 1));
		for (int cmd = 0; cmd < run->ncommands; cmd++)
		{
			ps.last_command_hist[cmd] = palloc0(sizeof(uint64) * PB_HIST_BUCKETS);
			ps.command_hist[cmd] = palloc0(sizeof(uint64) * PB_HIST_BUCKETS);
		}
		ps.last_command_count = palloc0(sizeof(uint64) * Max(run->ncommands, 1));
		ps.last_command_ns = palloc0(sizeof(uint64) * Max(run->ncommands, 1));
		ps.command_count = palloc0(sizeof(uint64) * Max(run->ncommands, 1));
		ps.command_ns = palloc0(sizeof(uint64) * Max(run->ncommands, 1));
	}
	memset(&ls, 0, sizeof(ls));
	ls.last_ns = run->start_ns;
	ls.hist = ps.hist;			/* scratch, shared */
	ls.merged = ps.merged;
	ls.last_hist = palloc0(sizeof(uint64) * PB_HIST_BUCKETS);

	/* the server's counters at the start, and a tally of wait events */
	pb_xact_begin(NIL);
	pb_server_counters_read(recorder_counters);
	pb_recorder_commit();
	recorder_counters_read = true;
	{
		MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

		recorder_waits = pb_waits_create();
		MemoryContextSwitchTo(old);
	}

	pgstat_report_activity(STATE_RUNNING, "polarbench: recording");
	while (!pb_clients_exited(run, slots))
	{
		long		timeout = 1000;
		int64		live_tick = run->start_ns + (int64) (live_ticks + 1) * 1000000000;
		int64		now = pb_now_ns();

		/* after a warm-up, as soon as the measurement starts */
		if (!recorder_figures_begun && run->start_ns > 0)
		{
			if (now >= run->measure_ns)
			{
				pb_recorder_figures_begin(config);
				continue;
			}
			timeout = Min(timeout, (run->measure_ns - now) / 1000000 + 1);
		}

		/* the clients' wait events every few ms, once the warm-up is over */
		if (now >= next_sample)
		{
			if (now >= run->measure_ns)
				pb_waits_sample(recorder_waits, run, slots);
			next_sample += PB_WAIT_SAMPLE_MS * INT64CONST(1000000);
			/* late: the next sample a whole interval on, not at once */
			if (next_sample <= now)
				next_sample = now + PB_WAIT_SAMPLE_MS * INT64CONST(1000000);
		}
		timeout = Min(timeout, (next_sample - now) / 1000000 + 1);

		/* every second of a run that started; a missed second is not made up */
		if (run->start_ns > 0 && now >= live_tick)
		{
			live_ticks = (int) ((now - run->start_ns) / 1000000000);
			pb_recorder_live(run, slots, &ls);
			continue;
		}
		if (run->start_ns > 0)
			timeout = Min(timeout, (live_tick - now) / 1000000 + 1);

		if (run->progress_interval > 0 && run->start_ns > 0)
		{
			int64		tick = run->measure_ns +
				(int64) (ticks + 1) * run->progress_interval * INT64CONST(1000000000);
			int64		now = pb_now_ns();

			if (now >= tick)
			{
				ticks++;
				pb_recorder_progress(run_id, (double) ticks * run->progress_interval,
									 run, slots, &ps, config);
				continue;
			}
			timeout = Min(timeout, (tick - now) / 1000000 + 1);
		}
		pb_recorder_wait(timeout);
	}

	pb_recorder_finish(run_id, config, slots);
}
