/*-------------------------------------------------------------------------
 *
 * recorder_worker.c
 *	  The run recorder: a background worker that writes a run's rows into
 *	  the result tables, each write in a transaction of its own, so that
 *	  any session can follow a run while it goes on: the run's row when the
 *	  clients are ready, a progress row every progress interval, and the
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
#include "catalog/namespace.h"
#include "storage/lmgr.h"
#include "utils/lsyscache.h"
#include "utils/wait_event.h"

#include "polarbench.h"

static PbRunShared *recorder_run;

/* The result tables the recorder holds session locks on */
#define PB_RECORDER_NLOCKS		4
static LockRelId recorder_locks[PB_RECORDER_NLOCKS];
static int	recorder_nlocks = 0;

static void pb_recorder_record(PbRunShared *run, char *slots,
							   PbRunConfig *config, PbScriptSet *set);

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

/* Start a transaction for one write. */
static void
pb_recorder_begin(void)
{
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	PushActiveSnapshot(GetTransactionSnapshot());
}

/* Commit one write. */
static void
pb_recorder_commit(void)
{
	PopActiveSnapshot();
	SPI_finish();
	CommitTransactionCommand();
	pgstat_report_stat(false);
}

/*
 * pb_recorder_exec
 *		Run one of the recorder's statements as the extension owner, in a
 *		security-restricted operation.  Returns SPI's result code.
 */
static int
pb_recorder_exec(const char *sql, int nargs, Oid *types, Datum *values,
				 const char *nulls)
{
	Oid			save_userid;
	int			save_sec;
	int			rc;

	GetUserIdAndSecContext(&save_userid, &save_sec);
	SetUserIdAndSecContext(recorder_run->owner,
						   save_sec | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
	rc = SPI_execute_with_args(sql, nargs, types, values, nulls, false, 0);
	SetUserIdAndSecContext(save_userid, save_sec);
	if (rc < 0)
		elog(ERROR, "polarbench recorder: \"%s\" failed: %s", sql,
			 SPI_result_code_string(rc));
	return rc;
}

/* Qualified name of a result table. */
static const char *
pb_table(const char *name)
{
	return psprintf("%s.%s", quote_identifier(recorder_run->schema), name);
}

/*
 * pb_recorder_insert_run
 *		Insert the run's row, status running, and return its id.
 */
static int64
pb_recorder_insert_run(PbRunConfig *config)
{
	PbRunShared *run = recorder_run;
	Oid			types[10] = {TEXTOID, TEXTARRAYOID, INT4ARRAYOID, INT4OID,
	FLOAT8OID, INT8OID, INT4OID, TEXTOID, INT8OID, OIDOID};
	Datum		values[10];
	char		nulls[10];
	Datum	   *texts = palloc(sizeof(Datum) * config->nscripts);
	Datum	   *weights = palloc(sizeof(Datum) * config->nscripts);
	char	   *sql;
	bool		isnull;
	int64		run_id;

	for (int i = 0; i < config->nscripts; i++)
	{
		texts[i] = CStringGetTextDatum(config->script_texts[i]);
		weights[i] = Int32GetDatum(config->weights[i]);
	}
	memset(nulls, ' ', sizeof(nulls));
	values[0] = CStringGetTextDatum(config->workload);
	values[1] = PointerGetDatum(construct_array(texts, config->nscripts, TEXTOID,
												-1, false, TYPALIGN_INT));
	values[2] = PointerGetDatum(construct_array(weights, config->nscripts, INT4OID,
												4, true, TYPALIGN_INT));
	values[3] = Int32GetDatum(run->nclients);
	values[4] = Float8GetDatum(run->duration);
	nulls[4] = run->duration > 0 ? ' ' : 'n';
	values[5] = Int64GetDatum(run->transactions_limit);
	nulls[5] = run->transactions_limit > 0 ? ' ' : 'n';
	values[6] = Int32GetDatum(run->progress_interval);
	values[7] = config->vars_json ? CStringGetTextDatum(config->vars_json) : (Datum) 0;
	nulls[7] = config->vars_json ? ' ' : 'n';
	values[8] = Int64GetDatum(config->random_seed);
	values[9] = ObjectIdGetDatum(run->role);

	sql = psprintf("INSERT INTO %s (workload, scripts, weights, clients, duration,"
				   " transactions_limit, progress_interval, vars, random_seed,"
				   " run_by, status, started_at, recorder_pid)"
				   " VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10,"
				   " 'running', now(), pg_backend_pid()) RETURNING run_id",
				   pb_table("polarbench_run_data"));
	pb_recorder_begin();

	/*
	 * A run still marked running whose recorder is gone was cut short by a
	 * crash or a restart: say so, rather than leave it running for ever.
	 */
	pb_recorder_exec(psprintf("UPDATE %s SET status = 'failed', ended_at = now(),"
							  " error_sqlstate = '57P01', error_message ="
							  " 'the run was interrupted: its recorder stopped before the run ended'"
							  " WHERE status = 'running' AND recorder_pid NOT IN"
							  " (SELECT pid FROM pg_stat_activity"
							  "   WHERE backend_type = 'polarbench recorder')",
							  pb_table("polarbench_run_data")),
					 0, NULL, NULL, NULL);
	pb_recorder_exec(sql, 10, types, values, nulls);
	if (SPI_processed != 1)
		elog(ERROR, "polarbench recorder: run row not inserted");
	run_id = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0],
										 SPI_tuptable->tupdesc, 1, &isnull));
	pb_recorder_commit();
	return run_id;
}

/*
 * pb_recorder_progress
 *		Insert one progress row and publish its line for the launcher.
 */
static void
pb_recorder_progress(int64 run_id, double elapsed, const PbRunSummary *s)
{
	Oid			types[8] = {INT8OID, FLOAT8OID, INT8OID, FLOAT8OID, FLOAT8OID,
	FLOAT8OID, FLOAT8OID, INT8OID};
	Datum		values[8];
	char		nulls[8];
	char		line[256];

	memset(nulls, ' ', sizeof(nulls));
	values[0] = Int64GetDatum(run_id);
	values[1] = Float8GetDatum(elapsed);
	values[2] = Int64GetDatum(s->transactions);
	values[3] = Float8GetDatum(s->tps);
	values[4] = Float8GetDatum(s->qps);
	values[5] = Float8GetDatum(s->latency_avg);
	values[6] = Float8GetDatum(s->latency_stddev);
	values[7] = Int64GetDatum(s->failed);
	if (s->transactions == 0)
		nulls[5] = nulls[6] = 'n';

	pb_recorder_begin();
	pb_recorder_exec(psprintf("INSERT INTO %s VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
							  pb_table("polarbench_progress_data")),
					 8, types, values, nulls);
	pb_recorder_commit();

	pb_progress_line(line, sizeof(line), elapsed, s);
	SpinLockAcquire(&recorder_run->mutex);
	strlcpy(recorder_run->progress_line, line, sizeof(recorder_run->progress_line));
	recorder_run->progress_seq++;
	SpinLockRelease(&recorder_run->mutex);
	pb_wake_launcher(recorder_run);
}

/*
 * pb_recorder_statements
 *		Insert the per-command figures of every script, summed over clients.
 */
static void
pb_recorder_statements(int64 run_id, PbScriptSet *set, char *slots)
{
	PbRunShared *run = recorder_run;
	Oid			types[8] = {INT8OID, INT4OID, INT4OID, INT4OID, TEXTOID,
	INT8OID, INT8OID, FLOAT8OID};
	char	   *sql;
	int			offset = 0;

	sql = psprintf("INSERT INTO %s VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
				   pb_table("polarbench_statement_data"));
	for (int s = 0; s < set->nscripts; s++)
	{
		PbScript   *script = &set->scripts[s];

		for (int c = 0; c < script->ncommands; c++)
		{
			Datum		values[8];
			char		nulls[8];
			uint64		executions = 0;
			uint64		failures = 0;
			uint64		total_ns = 0;

			for (int i = 0; i < run->nclients; i++)
			{
				PbCommandStats *stats = pb_slot_commands(pb_slot(run, slots, i));

				executions += pg_atomic_read_u64(&stats[offset + c].executions);
				failures += pg_atomic_read_u64(&stats[offset + c].failures);
				total_ns += pg_atomic_read_u64(&stats[offset + c].total_ns);
			}
			memset(nulls, ' ', sizeof(nulls));
			values[0] = Int64GetDatum(run_id);
			values[1] = Int32GetDatum(s + 1);
			values[2] = Int32GetDatum(c + 1);
			values[3] = Int32GetDatum(script->commands[c].line);
			values[4] = CStringGetTextDatum(script->commands[c].text);
			values[5] = Int64GetDatum(executions);
			values[6] = Int64GetDatum(failures);
			values[7] = Float8GetDatum(executions > 0 ? total_ns / 1e6 / executions : 0);
			nulls[7] = executions > 0 ? ' ' : 'n';
			pb_recorder_exec(sql, 8, types, values, nulls);
		}
		offset += script->ncommands;
	}
}

/*
 * pb_recorder_finish
 *		Write the run's summary and final status, and the per-command
 *		figures, in one transaction.
 */
static void
pb_recorder_finish(int64 run_id, PbScriptSet *set, char *slots)
{
	PbRunShared *run = recorder_run;
	PbRunSummary s;
	Oid			types[16] = {INT8OID, TEXTOID, FLOAT8OID, INT8OID, FLOAT8OID,
		INT8OID, FLOAT8OID, INT8OID, FLOAT8OID, FLOAT8OID, FLOAT8OID,
	FLOAT8OID, FLOAT8OID, FLOAT8OID, TEXTOID, TEXTOID};
	Datum		values[16];
	char		nulls[16];
	const char *status;
	int64		finish = 0;
	double		seconds = 0;
	uint32		reason = pg_atomic_read_u32(&run->stop_reason);

	for (int i = 0; i < run->nclients; i++)
		finish = Max(finish, pb_slot(run, slots, i)->finish_ns);
	if (run->start_ns > 0 && finish > run->start_ns)
		seconds = (finish - run->start_ns) / 1e9;
	pb_summary_final(run, slots, seconds, &s);

	/* a run that measured nothing is no result */
	if (reason == PB_STOP_NONE && run->start_ns > 0 && run->duration > 0 &&
		s.transactions + s.failed == 0)
	{
		pb_fail_run_hint(run, PB_FAILED_BY_LAUNCHER,
						 ERRCODE_INVALID_PARAMETER_VALUE,
						 psprintf("no transaction ended within the run's duration of %g s",
								  run->duration),
						 NULL,
						 "Give a duration long enough for at least one transaction.");
		reason = pg_atomic_read_u32(&run->stop_reason);
	}

	status = reason == PB_STOP_FAILED ? "failed" :
		reason == PB_STOP_CANCELED ? "canceled" : "finished";

	memset(nulls, ' ', sizeof(nulls));
	values[0] = Int64GetDatum(run_id);
	values[1] = CStringGetTextDatum(status);
	values[2] = Float8GetDatum(seconds);
	values[3] = Int64GetDatum(s.transactions);
	values[4] = Float8GetDatum(s.tps);
	values[5] = Int64GetDatum(s.statements);
	values[6] = Float8GetDatum(s.qps);
	values[7] = Int64GetDatum(s.failed);
	values[8] = Float8GetDatum(s.latency_avg);
	values[9] = Float8GetDatum(s.latency_stddev);
	values[10] = Float8GetDatum(s.latency_p50);
	values[11] = Float8GetDatum(s.latency_p95);
	values[12] = Float8GetDatum(s.latency_p99);
	values[13] = Float8GetDatum(s.latency_max);
	if (s.transactions == 0)
		for (int i = 8; i <= 13; i++)
			nulls[i] = 'n';
	nulls[14] = nulls[15] = 'n';
	if (reason == PB_STOP_FAILED)
	{
		SpinLockAcquire(&run->mutex);
		values[14] = CStringGetTextDatum(unpack_sql_state(run->error_code));
		values[15] = CStringGetTextDatum(run->error_message);
		SpinLockRelease(&run->mutex);
		nulls[14] = nulls[15] = ' ';
	}

	pb_recorder_begin();
	pb_recorder_exec(psprintf("UPDATE %s SET status = $2, ended_at = now(),"
							  " seconds = $3, transactions = $4, tps = $5,"
							  " statements = $6, qps = $7, failed = $8,"
							  " latency_avg = $9, latency_stddev = $10,"
							  " latency_p50 = $11, latency_p95 = $12,"
							  " latency_p99 = $13, latency_max = $14,"
							  " error_sqlstate = $15, error_message = $16"
							  " WHERE run_id = $1",
							  pb_table("polarbench_run_data")),
					 16, types, values, nulls);
	if (run->start_ns > 0)
		pb_recorder_statements(run_id, set, slots);
	pb_recorder_commit();
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
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(run_id)};

	pb_recorder_begin();
	pb_recorder_exec(psprintf("DELETE FROM %s WHERE run_id = $1",
							  pb_table("polarbench_run_data")),
					 1, types, values, NULL);
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
		{"search_path", "pg_catalog, pg_temp"},
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
		"polarbench_progress_data", "polarbench_statement_data"
	};
	Oid			nspid;

	pb_recorder_begin();
	nspid = get_namespace_oid(recorder_run->schema, false);
	for (int i = 0; i < lengthof(tables); i++)
	{
		LockRelId	relid;
		Oid			oid = get_relname_relid(tables[i], nspid);

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
	PbScriptSet *set;

	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();

	CurrentResourceOwner = ResourceOwnerCreate(NULL, "polarbench recorder");
	seg = dsm_attach(DatumGetUInt32(main_arg));
	if (seg == NULL)
		proc_exit(0);
	toc = shm_toc_attach(PB_RUN_MAGIC, dsm_segment_address(seg));
	if (toc == NULL)
		proc_exit(0);
	run = shm_toc_lookup(toc, PB_KEY_RUN, false);
	slots = shm_toc_lookup(toc, PB_KEY_SLOTS, false);
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
		set = pb_config_build_scripts(config, false);
		pb_recorder_record(run, slots, config, set);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		/* the launcher tells the caller why the run is not recorded */
		HOLD_INTERRUPTS();
		MemoryContextSwitchTo(TopMemoryContext);
		edata = CopyErrorData();
		pb_fail_run(run, PB_FAILED_BY_RECORDER, edata->sqlerrcode,
					edata->message, edata->detail);
		RESUME_INTERRUPTS();
		PG_RE_THROW();
	}
	PG_END_TRY();
	proc_exit(0);
}

/*
 * pb_recorder_record
 *		Record the run from its start to its end.
 */
static void
pb_recorder_record(PbRunShared *run, char *slots, PbRunConfig *config,
				   PbScriptSet *set)
{
	int64		run_id;
	PbTotals	last = {0};
	int64		last_ns = 0;
	int			ticks = 0;

	run_id = pb_recorder_insert_run(config);
	SpinLockAcquire(&run->mutex);
	run->run_id = run_id;
	run->recorder_ready = true;
	SpinLockRelease(&run->mutex);
	pb_wake_launcher(run);

	while (pg_atomic_read_u32(&run->state) == PB_STATE_STARTING)
		pb_recorder_wait(1000);

	if (pg_atomic_read_u32(&run->stop_reason) == PB_STOP_ABORTED)
	{
		pb_recorder_delete_run(run_id);
		return;
	}

	pgstat_report_activity(STATE_RUNNING, "polarbench: recording");
	last_ns = run->start_ns;
	while (!pb_clients_exited(run, slots))
	{
		long		timeout = 1000;

		if (run->progress_interval > 0 && run->start_ns > 0)
		{
			int64		tick = run->start_ns +
				(int64) (ticks + 1) * run->progress_interval * INT64CONST(1000000000);
			int64		now = pb_now_ns();

			if (now >= tick)
			{
				PbTotals	totals;
				PbRunSummary interval;

				pb_totals_read(run, slots, &totals);
				/* the figures cover the time since the last reading */
				pb_summary_interval(&last, &totals, (now - last_ns) / 1e9,
									&interval);
				last = totals;
				last_ns = now;
				ticks++;
				pb_recorder_progress(run_id, (double) ticks * run->progress_interval,
									 &interval);
				continue;
			}
			timeout = Min(timeout, (tick - now) / 1000000 + 1);
		}
		pb_recorder_wait(timeout);
	}

	pb_recorder_finish(run_id, set, slots);
	pb_scriptset_free(set);
}
