/*-------------------------------------------------------------------------
 *
 * start.c
 *	  polarbench_start(): a run that goes on after the calling statement and
 *	  its transaction end.  The caller hands its arguments to a background
 *	  worker of its own role, the run's conductor, which does everything
 *	  polarbench_run() does in a caller, and returns the run's id as soon as
 *	  the run is recorded and its clients are released.
 *
 * The run's clients use the caller's search_path at the call, which the
 * conductor takes as its own (pb_settings_search_path()).  With nodes =>
 * 'all', the conductor conducts a run across the Citus cluster instead
 * (cluster_start.c), whose summed run is a background run as any.
 *
 * Everything a caller can get wrong is still found before the run starts:
 * the conductor checks the arguments, and an error before the start comes
 * back to polarbench_start()'s caller as its own, with nothing recorded.
 * The conductor holds no snapshot of the caller, and its own xmin is
 * released while the run goes on.  Canceling polarbench_start() while it
 * waits stops the conductor, and with it the run; afterwards the run is
 * stopped with polarbench_cancel(), and waited for with polarbench_wait().
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/spin.h"
#include "utils/datum.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"
#include "utils/wait_event.h"

#include "admission.h"
#include "functions.h"
#include "settings.h"
#include "settings_journal.h"

PG_FUNCTION_INFO_V1(polarbench_start);

/* magic number at the head of a start segment */
#define PB_START_MAGIC			0x50425331

/* How often the caller looks at its conductor while it waits */
#define PB_START_POLL_MS		100

/* Where a background run's start is, in PbStartShared.state */
typedef enum PbStartState
{
	PB_START_PENDING = 0,		/* the conductor checks and starts the run */
	PB_START_STARTED,			/* the run is recorded and running */
	PB_START_FAILED,			/* it could not start: see error */
	PB_START_ABANDONED			/* the caller stopped waiting: stop the run */
} PbStartState;

/*
 * What polarbench_start()'s caller and the run's conductor share: the
 * caller's arguments, and the outcome of the start.
 */
typedef struct PbStartShared
{
	uint32		magic;
	Oid			database;
	Oid			role;
	int			caller_pgprocno;
	int			end_grace_ms;	/* the caller's polarbench.end_grace */
	slock_t		mutex;			/* protects what follows up to args */
	bool		connected;		/* the conductor has logged in */
	int			state;			/* PbStartState */
	int64		run_id;
	PbSharedError error;
	int			nargs;
	Size		args_size;
	/* the arguments, datumSerialize()d, then the caller's search_path */
	char		args[FLEXIBLE_ARRAY_MEMBER];
} PbStartShared;

PGDLLEXPORT void pb_conductor_main(Datum main_arg);

/*
 * pb_start_args_size
 *		Bytes the serialized arguments of fcinfo take.
 */
static Size
pb_start_args_size(FunctionCallInfo fcinfo, const Oid *types)
{
	Size		size = 0;

	for (int i = 0; i < PG_NARGS(); i++)
	{
		int16		typlen;
		bool		typbyval;

		get_typlenbyval(types[i], &typlen, &typbyval);
		size = add_size(size, datumEstimateSpace(fcinfo->args[i].value,
												 fcinfo->args[i].isnull,
												 typbyval, typlen));
	}
	return size;
}

/*
 * pb_start_check_lock_wait
 *		While the caller waits for its conductor to start the run: fail if
 *		the conductor (checking the scripts, say) waits for a lock the
 *		caller's transaction holds, or for any lock longer than
 *		polarbench.lock_timeout, as polarbench_run() fails when its workers
 *		do.  The conductor is stopped on the way out.
 */
static void
pb_start_check_lock_wait(pid_t pid)
{
	char	   *detail;
	int64		waited_ms;

	switch (pb_lock_wait_check(pid, &detail, &waited_ms))
	{
		case PB_LOCKWAIT_FOR_ME:
			ereport(ERROR,
					(errcode(ERRCODE_T_R_DEADLOCK_DETECTED),
					 errmsg("the background run's conductor waits for a lock held by the transaction that called polarbench_start"),
					 errdetail_internal("%s", detail),
					 errhint("Commit or roll back the transaction before starting the run, or start the run from another session.")));
			break;
		case PB_LOCKWAIT_TOO_LONG:
			ereport(ERROR,
					(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
					 errmsg("the background run's conductor has waited for a lock longer than polarbench.lock_timeout (%d ms)",
							pb_lock_timeout),
					 errdetail_internal("%s", detail),
					 errhint("Find what holds the lock in pg_locks and pg_stat_activity, or raise polarbench.lock_timeout (0 turns it off).")));
			break;
		case PB_LOCKWAIT_NONE:
			break;
	}
}

/*
 * pb_start_wait
 *		Wait for the conductor to start the run or fail.  Returns the run's
 *		id; raises the conductor's error if the run could not start.
 */
static int64
pb_start_wait(PbStartShared *start, BackgroundWorkerHandle *handle)
{
	for (;;)
	{
		int			state;
		int64		run_id;
		bool		connected;
		PbSharedError error;
		pid_t		pid;

		SpinLockAcquire(&start->mutex);
		state = start->state;
		run_id = start->run_id;
		connected = start->connected;
		if (state == PB_START_FAILED)
			error = start->error;
		SpinLockRelease(&start->mutex);
		/* logged in, it counts: let the next admission count it */
		if (connected || state != PB_START_PENDING)
			pb_admission_end();
		if (state == PB_START_STARTED)
			return run_id;
		if (state == PB_START_FAILED)
			pb_shared_error_raise(&error, "the conductor of a background run; nothing was started");
		switch (GetBackgroundWorkerPid(handle, &pid))
		{
			case BGWH_STOPPED:
				ereport(ERROR,
						(errcode(ERRCODE_INTERNAL_ERROR),
						 errmsg("the background run's conductor exited before the run started"),
						 errdetail(PB_SEE_LOG)));
				break;
			case BGWH_STARTED:
				pb_start_check_lock_wait(pid);
				break;
			default:
				break;
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 PB_START_POLL_MS, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/* What stopping the wait for a start needs */
typedef struct PbStartAbandon
{
	PbStartShared *start;
	BackgroundWorkerHandle *handle;
} PbStartAbandon;

/*
 * pb_start_abandon
 *		The caller stops waiting, on an error or as it exits: tell the
 *		conductor, and stop it.
 */
static void
pb_start_abandon(int code, Datum arg)
{
	PbStartAbandon *abandon = (PbStartAbandon *) DatumGetPointer(arg);

	SpinLockAcquire(&abandon->start->mutex);
	abandon->start->state = PB_START_ABANDONED;
	SpinLockRelease(&abandon->start->mutex);
	TerminateBackgroundWorker(abandon->handle);
}

/*
 * polarbench_start
 *		SQL entry point: see polarbench_start() in the install script.
 */
Datum
polarbench_start(PG_FUNCTION_ARGS)
{
	Oid			rettype;
	Oid		   *types;
	int			nargs;
	Size		args_size;
	dsm_segment *seg;
	PbStartShared *start;
	BackgroundWorkerHandle *handle;
	char	   *ptr;
	int64		run_id = 0;
	PbStartAbandon abandon;
	char	   *search_path;

	pb_journal_recover();

	pb_check_caller("polarbench_start", false);
	/* nodes is 'all' or 'local': the conductor sees which (cluster_start.c) */
	(void) pb_nodes_all(fcinfo, ARG_NODES);
	search_path = pb_settings_search_path();

	rettype = get_func_signature(fcinfo->flinfo->fn_oid, &types, &nargs);
	(void) rettype;
	if (nargs != PG_NARGS())
		elog(ERROR, "polarbench_start called with %d arguments, declared with %d",
			 PG_NARGS(), nargs);
	/* a value stored out of line (a temporary table's) travels in full */
	for (int i = 0; i < nargs; i++)
		if (!fcinfo->args[i].isnull && get_typlen(types[i]) == -1)
			fcinfo->args[i].value = PointerGetDatum(PG_DETOAST_DATUM(fcinfo->args[i].value));

	args_size = pb_start_args_size(fcinfo, types);
	seg = dsm_create(add_size(add_size(offsetof(PbStartShared, args), args_size),
							  strlen(search_path) + 1), 0);
	start = dsm_segment_address(seg);
	memset(start, 0, offsetof(PbStartShared, args));
	start->magic = PB_START_MAGIC;
	start->database = MyDatabaseId;
	start->role = GetUserId();
	start->caller_pgprocno = PB_MY_PGPROCNO;
	start->end_grace_ms = pb_end_grace;
	SpinLockInit(&start->mutex);
	start->state = PB_START_PENDING;
	start->nargs = nargs;
	start->args_size = args_size;
	ptr = start->args;
	for (int i = 0; i < nargs; i++)
	{
		int16		typlen;
		bool		typbyval;

		get_typlenbyval(types[i], &typlen, &typbyval);
		datumSerialize(fcinfo->args[i].value, fcinfo->args[i].isnull,
					   typbyval, typlen, &ptr);
	}
	strcpy(start->args + args_size, search_path);

	/* the conductor counts as any of the run's workers does */
	pb_admission_begin(1);
	handle = pb_worker_register(seg, "pb_conductor_main", "polarbench conductor",
								PB_CONDUCTOR_WORKER_TYPE, 0,
								BgWorkerStart_ConsistentState);
	if (handle == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("could not start the background run's conductor: no background worker slot is free"),
				 errdetail("A background run needs one background worker more than a run: its conductor."),
				 errhint("Raise max_worker_processes (it takes a server restart), or wait for other runs to end.")));

	/* if this backend stops waiting (an error, or its end), the run must not go on */
	abandon.start = start;
	abandon.handle = handle;
	PG_ENSURE_ERROR_CLEANUP(pb_start_abandon, PointerGetDatum(&abandon));
	{
		run_id = pb_start_wait(start, handle);
	}
	PG_END_ENSURE_ERROR_CLEANUP(pb_start_abandon, PointerGetDatum(&abandon));

	dsm_detach(seg);
	PG_RETURN_INT64(run_id);
}

/* ---- the conductor -------------------------------------------------------- */

/* the start segment, while the caller waits */
static PbStartShared *conductor_start;

/*
 * pb_conductor_started
 *		The run is recorded and its clients released: give the caller the
 *		run's id.  If the caller stopped waiting meanwhile, stop the run.
 */
static void
pb_conductor_started(int64 run_id, void *arg)
{
	PbStartShared *start = arg;
	bool		abandoned;

	SpinLockAcquire(&start->mutex);
	abandoned = (start->state == PB_START_ABANDONED);
	if (!abandoned)
	{
		start->state = PB_START_STARTED;
		start->run_id = run_id;
	}
	SpinLockRelease(&start->mutex);
	if (abandoned)
		ereport(ERROR,
				(errcode(ERRCODE_QUERY_CANCELED),
				 errmsg("the caller of polarbench_start stopped waiting for run " INT64_FORMAT,
						run_id)));
	SetLatch(&ProcGlobal->allProcs[start->caller_pgprocno].procLatch);
	conductor_start = NULL;
}

/*
 * pb_conductor_fail
 *		Hand an error raised before the start to the waiting caller.
 *		Returns false if the run had started (the error is the run's, and
 *		the recorder records it).
 */
static bool
pb_conductor_fail(ErrorData *edata)
{
	PbStartShared *start = conductor_start;

	if (start == NULL)
		return false;
	SpinLockAcquire(&start->mutex);
	if (start->state == PB_START_PENDING)
	{
		pb_shared_error_copy(&start->error, edata);
		start->state = PB_START_FAILED;
	}
	SpinLockRelease(&start->mutex);
	SetLatch(&ProcGlobal->allProcs[start->caller_pgprocno].procLatch);
	return true;
}

/*
 * pb_conductor_main
 *		Entry point of a background run's conductor; main_arg is the start
 *		segment.  Runs polarbench_run()'s work with the caller's arguments.
 */
void
pb_conductor_main(Datum main_arg)
{
	dsm_segment *seg;
	PbStartShared *start;
	FunctionCallInfo fcinfo;
	FmgrInfo	flinfo;
	PbRunParams params;
	PbRunConfig *config;
	PbRunResult result;
	MemoryContext cxt;
	char	   *ptr;

	/* a run's server settings wait for the server's reload, told by SIGHUP */
	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	seg = pb_worker_attach(main_arg, "polarbench conductor");
	start = dsm_segment_address(seg);
	if (start->magic != PB_START_MAGIC)
		elog(ERROR, "invalid polarbench start segment");
	conductor_start = start;
	BackgroundWorkerInitializeConnectionByOid(start->database, start->role, 0);
	SpinLockAcquire(&start->mutex);
	start->connected = true;
	SpinLockRelease(&start->mutex);
	SetLatch(&ProcGlobal->allProcs[start->caller_pgprocno].procLatch);
	pgstat_report_appname("polarbench conductor");

	/* the caller's arguments, as a call of polarbench_run() would have them */
	cxt = AllocSetContextCreate(TopMemoryContext, "polarbench conductor",
								ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(cxt);
	fcinfo = palloc0(SizeForFunctionCallInfo(start->nargs));
	memset(&flinfo, 0, sizeof(flinfo));
	flinfo.fn_mcxt = cxt;
	flinfo.fn_nargs = start->nargs;
	fcinfo->flinfo = &flinfo;
	fcinfo->nargs = start->nargs;
	ptr = start->args;
	for (int i = 0; i < start->nargs; i++)
		fcinfo->args[i].value = datumRestore(&ptr, &fcinfo->args[i].isnull);

	/* the run's default grace is the caller's, as in polarbench_run() */
	SetConfigOption("polarbench.end_grace", psprintf("%d", start->end_grace_ms),
					PGC_USERSET, PGC_S_SESSION);

	memset(&params, 0, sizeof(params));
	params.on_started = pb_conductor_started;
	params.on_started_arg = start;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	PushActiveSnapshot(GetTransactionSnapshot());
	pgstat_report_activity(STATE_RUNNING, "polarbench: conducting a background run");
	PG_TRY();
	{
		/* the caller's search_path, as the run's clients are to have it */
		(void) set_config_option("search_path", start->args + start->args_size,
								 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SET,
								 true, ERROR, false);
		if (pb_nodes_all(fcinfo, ARG_NODES))
		{
			/* across the cluster: in memory that outlives its commits */
			MemoryContextSwitchTo(cxt);
			pb_cluster_start_conduct(fcinfo, pb_conductor_started, start);
		}
		else
			pb_run_from_args(fcinfo, true, &params, &config, &result);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		if (pb_conductor_fail(edata))
		{
			/* the caller reports it: the log need not */
			FlushErrorState();
			AbortCurrentTransaction();
			proc_exit(0);
		}
		PG_RE_THROW();
	}
	PG_END_TRY();
	PopActiveSnapshot();
	CommitTransactionCommand();
	pgstat_report_activity(STATE_IDLE, NULL);
	proc_exit(0);
}
