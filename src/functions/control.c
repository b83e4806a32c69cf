/*-------------------------------------------------------------------------
 *
 * control.c
 *	  Runs seen and steered from any session: polarbench_wait() waits for a
 *	  run and returns its summary, polarbench_cancel() stops one, and
 *	  polarbench_live_runs() (the polarbench_live view) shows the last
 *	  second of every run that goes on.
 *
 * A run's row holds the handle of its shared memory segment, which these
 * functions attach to read the run's live figures or to stop it; what
 * they find there is checked to be that run's before it is used.  Waiting
 * and canceling take the privileges of the run's role (it, roles that have
 * its privileges, and superusers, as pg_cancel_backend()); the live
 * figures are public, as the recorded ones are.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/proc.h"
#include "storage/shm_toc.h"
#include "utils/acl.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "functions.h"
#include "settings_journal.h"
#include "safe_sql.h"

PG_FUNCTION_INFO_V1(polarbench_wait);
PG_FUNCTION_INFO_V1(polarbench_cancel);
PG_FUNCTION_INFO_V1(polarbench_live_runs);

/* How often polarbench_wait() looks at the run */
#define PB_WAIT_POLL_MS			100

/* What the run history says of a run */
typedef struct PbRunInfo
{
	bool		found;
	Oid			run_by;
	dsm_handle	segment;		/* 0 if none recorded */
	char		status[16];
	char		sqlstate[6];	/* of a failed run */
	char	   *message;
} PbRunInfo;

/*
 * pb_run_lookup
 *		Read a run's role, segment and status (as polarbench_runs derives
 *		it) as the extension's owner, who alone reads the run table, with a
 *		new snapshot.
 */
static void
pb_run_lookup(int64 run_id, PbRunInfo *info)
{
	MemoryContext caller_cxt = CurrentMemoryContext;
	Oid			schema;
	Oid			owner = pb_extension_owner(&schema);
	char	   *nsp = get_namespace_name(schema);
	Oid			save_user;
	int			save_sec;
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(run_id)};
	int			nest;

	memset(info, 0, sizeof(PbRunInfo));
	nest = pb_as_owner_begin(owner, &save_user, &save_sec);
	SPI_connect();
	if (SPI_execute_with_args(psprintf("SELECT d.run_by, d.segment, v.status, v.error_sqlstate, v.error_message"
									   "  FROM %s.polarbench_run_data d JOIN %s.polarbench_runs v USING (run_id)"
									   " WHERE run_id = $1",
									   quote_identifier(nsp), quote_identifier(nsp)),
							  1, types, values, NULL, false, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read run " INT64_FORMAT, run_id);
	if (SPI_processed == 1)
	{
		HeapTuple	tuple = SPI_tuptable->vals[0];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		char	   *v;
		MemoryContext spi_cxt = MemoryContextSwitchTo(caller_cxt);

		info->found = true;
		info->run_by = DatumGetObjectId(SPI_getbinval(tuple, desc, 1, &isnull));
		info->segment = (dsm_handle) DatumGetInt64(SPI_getbinval(tuple, desc, 2, &isnull));
		if (isnull)
			info->segment = 0;
		strlcpy(info->status, SPI_getvalue(tuple, desc, 3), sizeof(info->status));
		if ((v = SPI_getvalue(tuple, desc, 4)) != NULL)
			strlcpy(info->sqlstate, v, sizeof(info->sqlstate));
		if ((v = SPI_getvalue(tuple, desc, 5)) != NULL)
			info->message = pstrdup(v);
		MemoryContextSwitchTo(spi_cxt);
	}
	SPI_finish();
	pb_as_owner_end(nest, save_user, save_sec);
}

/*
 * pb_run_lookup_checked
 *		pb_run_lookup() of a run that must exist and be the caller's to act
 *		on (what says the verb: "wait for", "cancel").
 */
static void
pb_run_lookup_checked(int64 run_id, PbRunInfo *info, const char *verb)
{
	pb_run_lookup(run_id, info);
	if (!info->found)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("run " INT64_FORMAT " does not exist", run_id),
				 errhint("The runs are in polarbench_runs.")));
	if (!has_privs_of_role(GetUserId(), info->run_by))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to %s run " INT64_FORMAT, verb, run_id),
				 errdetail("Only roles with the privileges of the role that started the run may %s it.",
						   verb)));
}

/*
 * pb_run_attach
 *		Attach the segment of a running run and return its shared state, or
 *		NULL (and *seg NULL) if the run is over: the segment is gone, or the
 *		handle now names another run's or none of polarbench's.
 */
static PbRunShared *
pb_run_attach(int64 run_id, dsm_handle handle, dsm_segment **seg, bool *attached)
{
	shm_toc    *toc;
	PbRunShared *run;
	int64		id;

	/* a client of the run itself has it mapped already */
	*seg = handle != 0 ? dsm_find_mapping(handle) : NULL;
	*attached = false;
	if (*seg == NULL && handle != 0)
	{
		*seg = dsm_attach(handle);
		*attached = (*seg != NULL);
	}
	if (*seg == NULL)
		return NULL;
	toc = shm_toc_attach(PB_RUN_MAGIC, dsm_segment_address(*seg));
	run = toc ? shm_toc_lookup(toc, PB_KEY_RUN, true) : NULL;
	if (run != NULL)
	{
		SpinLockAcquire(&run->mutex);
		id = run->run_id;
		SpinLockRelease(&run->mutex);
		if (id == run_id)
			return run;
	}
	if (*attached)
		dsm_detach(*seg);
	*seg = NULL;
	return NULL;
}

/* Let go of what pb_run_attach() attached. */
static void
pb_run_detach(dsm_segment *seg, bool attached)
{
	if (seg != NULL && attached)
		dsm_detach(seg);
}

/*
 * pb_check_clients_wait_for_me
 *		Fail a wait for a run whose clients wait for a lock this session
 *		holds, directly or behind another session: neither would ever end,
 *		and the server's deadlock detector cannot see it.
 */
static void
pb_check_clients_wait_for_me(int64 run_id, dsm_handle handle)
{
	dsm_segment *seg;
	bool		attached;
	PbRunShared *run = pb_run_attach(run_id, handle, &seg, &attached);
	bool		waits = false;

	if (run == NULL)
		return;
	if (run->slots_offset != 0)
	{
		char	   *slots = (char *) run + run->slots_offset;

		for (int i = 0; i < run->nclients && !waits; i++)
		{
			PbClientSlot *slot = pb_slot(run, slots, i);

			uint32		procno = pg_atomic_read_u32(&slot->pgprocno);
			uint32		info;

			if (procno == 0 || pg_atomic_read_u32(&slot->status) == PB_SLOT_EXITED)
				continue;
			/* following the lock graph is dear: only for a client waiting on a lock */
			info = *((volatile uint32 *) &ProcGlobal->allProcs[procno - 1].wait_event_info);
			if ((info & 0xFF000000) == PG_WAIT_LOCK)
				waits = pb_waits_for_me(slot->pid);
		}
	}
	pb_run_detach(seg, attached);
	if (waits)
		ereport(ERROR,
				(errcode(ERRCODE_T_R_DEADLOCK_DETECTED),
				 errmsg("the clients of run " INT64_FORMAT " wait for a lock this session holds",
						run_id),
				 errdetail("This session waits for the run, which cannot end while its clients wait for this session."),
				 errhint("Wait for the run in a transaction that holds no lock the run needs, or end this transaction first.")));
}

/*
 * polarbench_cancel
 *		SQL entry point: stop a run that goes on.  Returns true if it was
 *		told to stop, false if it had ended already.
 */
Datum
polarbench_cancel(PG_FUNCTION_ARGS)
{
	int64		run_id;
	PbRunInfo	info;
	PbRunShared *run;
	dsm_segment *seg;
	bool		canceled;
	bool		attached;

	pb_journal_recover();

	run_id = pb_run_id_arg(fcinfo, 0);
	pb_run_lookup_checked(run_id, &info, "cancel");
	if (strcmp(info.status, "running") != 0)
	{
		ereport(NOTICE,
				(errmsg("run " INT64_FORMAT " is not running: it is %s", run_id, info.status)));
		PG_RETURN_BOOL(false);
	}
	run = pb_run_attach(run_id, info.segment, &seg, &attached);
	if (run == NULL)
		PG_RETURN_BOOL(false);
	/* false if it was stopping already, or over: its recorder writing its end */
	canceled = pb_set_stop(run, PB_STOP_CANCELED);
	pb_run_detach(seg, attached);
	PG_RETURN_BOOL(canceled);
}

/*
 * pb_wait_deadline
 *		When a wait of timeout seconds (NULL: none, -1 here) ends.
 */
static TimestampTz
pb_wait_deadline(FunctionCallInfo fcinfo, double *timeout)
{
	*timeout = -1;
	if (PG_ARGISNULL(1))
		return 0;
	*timeout = PG_GETARG_FLOAT8(1);
	if (isnan(*timeout))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("timeout must be a number of seconds, not NaN"),
				 errhint("timeout is in seconds; NULL waits as long as the run lasts.")));
	if (*timeout < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("timeout must not be negative"),
				 errhint("timeout is in seconds; NULL waits as long as the run lasts.")));
	return TimestampTzPlusMilliseconds(GetCurrentTimestamp(),
									   (int64) Min(*timeout * 1000, (double) PG_INT32_MAX));
}

/*
 * pb_wait_for_end
 *		Poll the run until it is no longer running, or the deadline; false
 *		then.  While it runs, the caller's snapshot is let go of (when
 *		release) and no client may wait for a lock the caller holds.
 */
static bool
pb_wait_for_end(int64 run_id, double timeout, TimestampTz deadline, bool release,
				PbRunInfo *info)
{
	MemoryContext poll_cxt = AllocSetContextCreate(CurrentMemoryContext, "polarbench wait",
												   ALLOCSET_SMALL_SIZES);

	for (;;)
	{
		MemoryContext old;

		MemoryContextReset(poll_cxt);
		old = MemoryContextSwitchTo(poll_cxt);
		pb_run_lookup_checked(run_id, info, "wait for");
		if (release)
			pb_release_xmin();
		if (strcmp(info->status, "running") == 0)
			pb_check_clients_wait_for_me(run_id, info->segment);
		MemoryContextSwitchTo(old);
		if (strcmp(info->status, "running") != 0)
		{
			if (info->message != NULL)
				info->message = pstrdup(info->message);
			return true;
		}
		if (timeout >= 0 && GetCurrentTimestamp() >= deadline)
			return false;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 PB_WAIT_POLL_MS, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * pb_wait_summary
 *		The run's row of polarbench_runs, in the result type's columns, read
 *		with our query under the pinned search_path.
 */
static Datum
pb_wait_summary(int64 run_id, TupleDesc tupdesc)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(run_id)};
	StringInfoData cols;
	HeapTuple	tuple;
	Oid			schema;
	int			nest;

	(void) pb_extension_owner(&schema);
	nest = pb_pin_search_path();
	SPI_connect();
	initStringInfo(&cols);
	for (int i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);

		if (att->attisdropped)
			appendStringInfo(&cols, "%sNULL::int", cols.len ? ", " : "");
		else
			appendStringInfo(&cols, "%s%s", cols.len ? ", " : "",
							 quote_identifier(NameStr(att->attname)));
	}
	if (SPI_execute_with_args(psprintf("SELECT %s FROM %s.polarbench_runs WHERE run_id = $1",
									   cols.data,
									   quote_identifier(get_namespace_name(schema))),
							  1, types, values, NULL, false, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not read run " INT64_FORMAT, run_id);
	tuple = SPI_copytuple(SPI_tuptable->vals[0]);
	SPI_finish();
	pb_unpin_search_path(nest);
	return heap_copy_tuple_as_datum(tuple, BlessTupleDesc(tupdesc));
}

/*
 * polarbench_wait
 *		SQL entry point: wait for a run to end, at most timeout seconds (no
 *		limit if NULL), and return its summary as polarbench_result; NULL if
 *		the time ran out.  A failed run raises its error, a canceled one
 *		says so.  While it waits, the caller's snapshot does not hold back
 *		the xmin horizon when the statement's shape allows it, as in
 *		polarbench_run().
 */
Datum
polarbench_wait(PG_FUNCTION_ARGS)
{
	int64		run_id;
	double		timeout;
	TimestampTz deadline;
	PbRunInfo	info;
	bool		release;
	TupleDesc	tupdesc;

	pb_journal_recover();

	run_id = pb_run_id_arg(fcinfo, 0);
	deadline = pb_wait_deadline(fcinfo, &timeout);
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be polarbench_result");
	if (IsolationUsesXactSnapshot())
		ereport(ERROR,
				(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				 errmsg("polarbench_wait cannot see a run end in a transaction at REPEATABLE READ or SERIALIZABLE"),
				 errdetail("Such a transaction sees the run as it was when the transaction took its snapshot."),
				 errhint("Wait at READ COMMITTED, as in a statement of its own.")));

	release = pb_can_release_snapshot(fcinfo);
	if (!pb_wait_for_end(run_id, timeout, deadline, release, &info))
		PG_RETURN_NULL();
	if (release)
		pb_refresh_xmin();

	if (strcmp(info.status, "failed") == 0 && strlen(info.sqlstate) == 5)
		ereport(ERROR,
				(errcode(MAKE_SQLSTATE(info.sqlstate[0], info.sqlstate[1], info.sqlstate[2],
									   info.sqlstate[3], info.sqlstate[4])),
				 errmsg_internal("%s", info.message ? info.message : "the run failed"),
				 errcontext("benchmark run " INT64_FORMAT "; the run is recorded as failed", run_id)));
	if (strcmp(info.status, "canceled") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_QUERY_CANCELED),
				 errmsg("run " INT64_FORMAT " was canceled", run_id),
				 errdetail("The run is recorded as canceled; its figures are in polarbench_runs.")));
	PG_RETURN_DATUM(pb_wait_summary(run_id, tupdesc));
}

/*
 * pb_live_column
 *		Set the column of that name of a row of polarbench_live_runs(), if
 *		the installed version returns it.
 */
static void
pb_live_column(TupleDesc desc, Datum *values, bool *nulls, const char *name,
			   Datum value)
{
	for (int i = 0; i < desc->natts; i++)
		if (strcmp(NameStr(TupleDescAttr(desc, i)->attname), name) == 0)
		{
			values[i] = value;
			nulls[i] = false;
		}
}

/*
 * polarbench_live_runs
 *		SQL entry point: one row per run that goes on and has figures, with
 *		those of its last second.
 */
Datum
polarbench_live_runs(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			schema;
	Oid			owner = pb_extension_owner(&schema);
	char	   *nsp = get_namespace_name(schema);
	Oid			save_user;
	int			save_sec;
	int64	   *ids;
	dsm_handle *handles;
	uint64		n;
	int			nest;

	pb_journal_recover();

	InitMaterializedSRF(fcinfo, 0);

	/* the running runs, read as the owner of the run table */
	nest = pb_as_owner_begin(owner, &save_user, &save_sec);
	SPI_connect();
	if (SPI_execute(psprintf("SELECT d.run_id, d.segment FROM %s.polarbench_run_data d"
							 "  JOIN %s.polarbench_runs v USING (run_id)"
							 " WHERE v.status = 'running' AND d.segment IS NOT NULL"
							 " ORDER BY d.run_id",
							 quote_identifier(nsp), quote_identifier(nsp)),
					true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the running runs");
	n = SPI_processed;
	ids = MemoryContextAlloc(rsinfo->econtext->ecxt_per_query_memory,
							 sizeof(int64) * Max(n, 1));
	handles = MemoryContextAlloc(rsinfo->econtext->ecxt_per_query_memory,
								 sizeof(dsm_handle) * Max(n, 1));
	for (uint64 i = 0; i < n; i++)
	{
		bool		isnull;

		ids[i] = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull));
		handles[i] = (dsm_handle) DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[i],
															  SPI_tuptable->tupdesc, 2, &isnull));
	}
	SPI_finish();
	pb_as_owner_end(nest, save_user, save_sec);

	for (uint64 i = 0; i < n; i++)
	{
		dsm_segment *seg;
		bool		attached;
		PbRunShared *run = pb_run_attach(ids[i], handles[i], &seg, &attached);
		PbLiveFigures f;
		TupleDesc	desc = rsinfo->setDesc;
		Datum	   *values = palloc0(sizeof(Datum) * desc->natts);
		bool	   *nulls = palloc(sizeof(bool) * desc->natts);

		if (run == NULL)
			continue;
		SpinLockAcquire(&run->mutex);
		f = run->live;
		SpinLockRelease(&run->mutex);
		pb_run_detach(seg, attached);
		if (!f.valid)
			continue;			/* its first second is not over */

		memset(nulls, true, sizeof(bool) * desc->natts);
		pb_live_column(desc, values, nulls, "run_id", Int64GetDatum(ids[i]));
		pb_live_column(desc, values, nulls, "warming_up", BoolGetDatum(f.warming_up));
		pb_live_column(desc, values, nulls, "elapsed", Float8GetDatum(f.elapsed));
		pb_live_column(desc, values, nulls, "clients", Int32GetDatum(f.clients));
		pb_live_column(desc, values, nulls, "failed_per_second",
					   Float8GetDatum(f.failed_per_second));
		pb_live_column(desc, values, nulls, "retried_per_second",
					   Float8GetDatum(f.retried_per_second));
		pb_figures_row(desc, values, nulls, &f.second, PB_FIG_LIVE, &f.state);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
