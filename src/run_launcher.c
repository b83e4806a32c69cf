/*-------------------------------------------------------------------------
 *
 * run_launcher.c
 *	  Sets up a run: its dynamic shared memory segment, one background
 *	  worker per client and the recorder; releases the clients together,
 *	  relays progress to the caller, waits for the end, and reads the
 *	  result.
 *
 * If the caller's query ends before the run does (cancel, statement
 * timeout, termination), the segment is detached during the abort and
 * pb_launcher_detach() stops every worker and waits for them, so that no
 * worker outlives the query and the recorder has written the run as
 * canceled before the error reaches the user.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <signal.h>

#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/proc.h"
#include "storage/shm_toc.h"
#include "utils/snapmgr.h"
#include "utils/memutils.h"
#include "utils/wait_event.h"

#include "polarbench.h"

/* How long a canceled run may take to wind down before its workers are
 * terminated, in milliseconds */
#define PB_CANCEL_WAIT_MS		10000

/* The launcher's own state, kept where an abort cannot free it */
typedef struct PbLaunch
{
	MemoryContext cxt;
	PbRunShared *run;
	char	   *slots;
	int			nhandles;		/* clients, then the recorder */
	BackgroundWorkerHandle **handles;
	bool		finished;		/* the run ended normally */
} PbLaunch;

/*
 * pb_worker_stopped
 *		Whether a worker has stopped (or will never start).
 */
static bool
pb_worker_stopped(BackgroundWorkerHandle *handle)
{
	pid_t		pid;

	return handle == NULL ||
		GetBackgroundWorkerPid(handle, &pid) == BGWH_STOPPED;
}

/*
 * pb_mark_gone_clients
 *		A client whose worker has stopped is marked exited, even if it died
 *		before it could say so itself.  Returns the number of clients that
 *		stopped without having marked their slot.
 */
static int
pb_mark_gone_clients(PbLaunch *launch)
{
	int			unexpected = 0;

	for (int i = 0; i < launch->run->nclients; i++)
	{
		PbClientSlot *slot = pb_slot(launch->run, launch->slots, i);

		if (pg_atomic_read_u32(&slot->status) != PB_SLOT_EXITED &&
			pb_worker_stopped(launch->handles[i]))
		{
			pg_read_barrier();
			if (pg_atomic_read_u32(&slot->status) == PB_SLOT_EXITED)
				continue;
			if (slot->finish_ns == 0)
				slot->finish_ns = pb_now_ns();
			pg_atomic_write_u32(&slot->status, PB_SLOT_EXITED);
			pb_wake_recorder(launch->run);
			unexpected++;
		}
	}
	return unexpected;
}

/*
 * pb_launcher_detach
 *		on_dsm_detach callback.  Does nothing after a normal end; otherwise
 *		the caller's query is being aborted: stop the run, interrupt what the
 *		clients are running, and wait (for a bounded time) until every worker
 *		is gone.  Runs with interrupts held, so waits cannot be canceled.
 */
static void
pb_launcher_detach(dsm_segment *seg, Datum arg)
{
	PbLaunch   *launch = (PbLaunch *) DatumGetPointer(arg);
	int64		deadline;

	if (launch->finished)
	{
		MemoryContextDelete(launch->cxt);
		return;
	}

	pb_set_stop(launch->run, PB_STOP_CANCELED);
	for (int i = 0; i < launch->nhandles; i++)
	{
		pid_t		pid;
		BgwHandleStatus status;

		if (launch->handles[i] == NULL)
			continue;
		status = GetBackgroundWorkerPid(launch->handles[i], &pid);
		if (status == BGWH_NOT_YET_STARTED)
			TerminateBackgroundWorker(launch->handles[i]);
		else if (status == BGWH_STARTED && i < launch->run->nclients)
			kill(pid, SIGINT);	/* cancel the client's current statement */
	}

	deadline = pb_now_ns() + (int64) PB_CANCEL_WAIT_MS * 1000000;
	for (;;)
	{
		bool		all_stopped = true;
		int			rc;

		pb_mark_gone_clients(launch);
		for (int i = 0; i < launch->nhandles; i++)
			if (!pb_worker_stopped(launch->handles[i]))
				all_stopped = false;
		if (all_stopped)
			break;
		if (pb_now_ns() >= deadline)
		{
			for (int i = 0; i < launch->nhandles; i++)
				if (launch->handles[i] != NULL)
					TerminateBackgroundWorker(launch->handles[i]);
			break;
		}
		rc = WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_POSTMASTER_DEATH,
					   10, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		if (rc & WL_POSTMASTER_DEATH)
			break;
	}
	launch->finished = true;
	MemoryContextDelete(launch->cxt);
}

/*
 * pb_register_worker
 *		Register one worker; NULL when no background worker slot is free.
 */
static BackgroundWorkerHandle *
pb_register_worker(dsm_segment *seg, const char *function, const char *name,
				   const char *type, int client_no)
{
	BackgroundWorker worker;
	BackgroundWorkerHandle *handle;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_ConsistentState;
	worker.bgw_restart_time = BGW_NEVER_RESTART;
	snprintf(worker.bgw_library_name, BGW_MAXLEN, "polarbench");
	snprintf(worker.bgw_function_name, BGW_MAXLEN, "%s", function);
	snprintf(worker.bgw_name, BGW_MAXLEN, "%s", name);
	snprintf(worker.bgw_type, BGW_MAXLEN, "%s", type);
	worker.bgw_main_arg = UInt32GetDatum(dsm_segment_handle(seg));
	memcpy(worker.bgw_extra, &client_no, sizeof(int));
	worker.bgw_notify_pid = MyProcPid;

	if (!RegisterDynamicBackgroundWorker(&worker, &handle))
		return NULL;
	return handle;
}

/*
 * pb_launcher_abort_start
 *		Registration failed: stop the workers registered so far, wait until
 *		they are gone, and raise the error.  Nothing was recorded yet, as the
 *		recorder is registered last.
 */
static void
pb_launcher_abort_start(PbLaunch *launch, int nclients)
{
	pb_set_stop(launch->run, PB_STOP_ABORTED);
	for (int i = 0; i < launch->nhandles; i++)
		if (launch->handles[i] != NULL)
			TerminateBackgroundWorker(launch->handles[i]);
	for (int i = 0; i < launch->nhandles; i++)
		if (launch->handles[i] != NULL)
			(void) WaitForBackgroundWorkerShutdown(launch->handles[i]);
	launch->finished = true;
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
			 errmsg("not enough background worker slots for %d clients", nclients),
			 errdetail("A run needs one background worker per client and one more for its recorder; other background workers may be using slots."),
			 errhint("Raise max_worker_processes (currently %d), or run with fewer clients.",
					 max_worker_processes)));
}

/*
 * pb_release_xmin
 *		Stop holding back the xmin horizon while the run goes on; the caller
 *		has checked that nothing will read with this backend's snapshots
 *		again (see pb_can_release_snapshot()).  Done at every wake-up, as
 *		interrupt processing may have taken a catalog snapshot.
 */
static void
pb_release_xmin(void)
{
	InvalidateCatalogSnapshot();
	MyProc->xmin = InvalidTransactionId;
}

/* Wait for the latch for at most timeout_ms, then look at interrupts. */
static void
pb_launcher_wait(long timeout_ms)
{
	(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
					 timeout_ms, PG_WAIT_EXTENSION);
	ResetLatch(MyLatch);
	CHECK_FOR_INTERRUPTS();
}

/*
 * pb_launch_run
 *		Run a benchmark and wait for its end.  Fills *result and returns
 *		normally if the run finished; raises the clients' error if it
 *		failed.
 */
void
pb_launch_run(const PbRunConfig *config, const PbRunParams *params,
			  PbRunResult *result)
{
	shm_toc_estimator estimator;
	Size		config_size = pb_config_size(config);
	Size		slot_size = pb_slot_size(params->ncommands);
	Size		slots_size = add_size(mul_size(slot_size, params->nclients),
									  PG_CACHE_LINE_SIZE);
	Size		segsize;
	dsm_segment *seg;
	shm_toc    *toc;
	PbRunShared *run;
	PbLaunch   *launch;
	MemoryContext cxt;
	MemoryContext oldcxt;
	char	   *slots_raw;
	char	   *config_chunk;
	int			seen_progress = 0;
	uint32		reason;
	int64		finish = 0;
	int			error_code = 0;
	int			failed_client = 0;
	char		error_message[1024];
	char		error_detail[1024];

	shm_toc_initialize_estimator(&estimator);
	shm_toc_estimate_chunk(&estimator, sizeof(PbRunShared));
	shm_toc_estimate_chunk(&estimator, config_size);
	shm_toc_estimate_chunk(&estimator, slots_size);
	shm_toc_estimate_keys(&estimator, 3);
	segsize = shm_toc_estimate(&estimator);

	seg = dsm_create(segsize, 0);
	toc = shm_toc_create(PB_RUN_MAGIC, dsm_segment_address(seg), segsize);

	run = shm_toc_allocate(toc, sizeof(PbRunShared));
	memset(run, 0, sizeof(PbRunShared));
	run->nclients = params->nclients;
	run->database = MyDatabaseId;
	run->role = GetUserId();
	run->owner = params->owner;
	strlcpy(run->schema, params->schema, sizeof(run->schema));
	run->duration = params->duration;
	run->transactions_limit = params->transactions;
	run->progress_interval = params->progress;
	run->ncommands = params->ncommands;
	run->slot_size = slot_size;
	run->launcher_pgprocno = PB_MY_PGPROCNO;
	pg_atomic_init_u32(&run->recorder_pgprocno, 0);
	pg_atomic_init_u32(&run->state, PB_STATE_STARTING);
	pg_atomic_init_u32(&run->stop_reason, PB_STOP_NONE);
	pg_atomic_init_u32(&run->nready, 0);
	ConditionVariableInit(&run->start_cv);
	SpinLockInit(&run->mutex);
	shm_toc_insert(toc, PB_KEY_RUN, run);

	config_chunk = shm_toc_allocate(toc, config_size);
	pb_config_serialize(config, config_chunk);
	shm_toc_insert(toc, PB_KEY_CONFIG, config_chunk);

	slots_raw = shm_toc_allocate(toc, slots_size);
	memset(slots_raw, 0, slots_size);

	cxt = AllocSetContextCreate(TopMemoryContext, "polarbench launch",
								ALLOCSET_SMALL_SIZES);
	launch = MemoryContextAllocZero(cxt, sizeof(PbLaunch));
	launch->cxt = cxt;
	launch->run = run;
	launch->slots = (char *) TYPEALIGN(PG_CACHE_LINE_SIZE, slots_raw);
	launch->handles = MemoryContextAllocZero(cxt, sizeof(BackgroundWorkerHandle *) *
											 (params->nclients + 1));
	shm_toc_insert(toc, PB_KEY_SLOTS, launch->slots);
	for (int i = 0; i < params->nclients; i++)
	{
		PbClientSlot *slot = pb_slot(run, launch->slots, i);
		PbCommandStats *stats = pb_slot_commands(slot);

		pg_atomic_init_u32(&slot->status, PB_SLOT_STARTING);
		pg_atomic_init_u64(&slot->transactions, 0);
		pg_atomic_init_u64(&slot->failed, 0);
		pg_atomic_init_u64(&slot->statements, 0);
		pg_atomic_init_u64(&slot->latency_sum_ns, 0);
		pg_atomic_init_u64(&slot->latency_sumsq, 0);
		pg_atomic_init_u64(&slot->latency_max_ns, 0);
		for (int c = 0; c < params->ncommands; c++)
		{
			pg_atomic_init_u64(&stats[c].executions, 0);
			pg_atomic_init_u64(&stats[c].failures, 0);
			pg_atomic_init_u64(&stats[c].total_ns, 0);
		}
	}
	on_dsm_detach(seg, pb_launcher_detach, PointerGetDatum(launch));

	/* clients first, the recorder last: if it starts, everybody has a slot */
	oldcxt = MemoryContextSwitchTo(cxt);
	for (int i = 0; i <= params->nclients; i++)
	{
		bool		recorder = (i == params->nclients);
		char		name[BGW_MAXLEN];

		if (recorder)
			snprintf(name, sizeof(name), "polarbench recorder");
		else
			snprintf(name, sizeof(name), "polarbench client %d", i + 1);
		launch->handles[i] = pb_register_worker(seg,
												recorder ? "pb_recorder_main" : "pb_client_main",
												name,
												recorder ? "polarbench recorder" : "polarbench client",
												i);
		if (launch->handles[i] == NULL)
		{
			MemoryContextSwitchTo(oldcxt);
			launch->nhandles = i;
			pb_launcher_abort_start(launch, params->nclients);
		}
		launch->nhandles = i + 1;
	}
	MemoryContextSwitchTo(oldcxt);

	/* wait until every client has prepared and the run is recorded */
	for (;;)
	{
		bool		recorder_ready;

		SpinLockAcquire(&run->mutex);
		recorder_ready = run->recorder_ready;
		SpinLockRelease(&run->mutex);
		if (pg_atomic_read_u32(&run->stop_reason) != PB_STOP_NONE)
			break;
		if (recorder_ready &&
			pg_atomic_read_u32(&run->nready) == (uint32) params->nclients)
			break;
		if (pb_mark_gone_clients(launch) > 0)
			pb_fail_run(run, -1, ERRCODE_CONNECTION_FAILURE,
						"a benchmark client exited unexpectedly", PB_SEE_LOG);
		if (pb_worker_stopped(launch->handles[params->nclients]) && !recorder_ready)
			pb_fail_run(run, -1, ERRCODE_CONNECTION_FAILURE,
						"a benchmark client exited unexpectedly", PB_SEE_LOG);
		pb_launcher_wait(100);
	}

	/* release the clients together */
	if (pg_atomic_read_u32(&run->stop_reason) == PB_STOP_NONE)
	{
		run->start_ns = pb_now_ns();
		run->end_ns = params->duration > 0 ?
			run->start_ns + (int64) (params->duration * 1e9) : 0;
		pg_write_barrier();
		pg_atomic_write_u32(&run->state, PB_STATE_RUNNING);
		ConditionVariableBroadcast(&run->start_cv);
		pb_wake_recorder(run);
	}

	/* relay progress until the recorder has written the end of the run */
	for (;;)
	{
		char		line[256];
		bool		show = false;
		bool		done;

		SpinLockAcquire(&run->mutex);
		if (run->progress_seq != seen_progress)
		{
			seen_progress = run->progress_seq;
			strlcpy(line, run->progress_line, sizeof(line));
			show = true;
		}
		done = run->recorder_done;
		SpinLockRelease(&run->mutex);
		if (show)
			ereport(NOTICE, (errmsg_internal("%s", line)));
		if (done)
			break;
		if (pb_mark_gone_clients(launch) > 0)
			pb_fail_run(run, -1, ERRCODE_CONNECTION_FAILURE,
						"a benchmark client exited unexpectedly", PB_SEE_LOG);
		if (params->release_xmin)
			pb_release_xmin();
		pb_launcher_wait(1000);
	}

	/*
	 * The recorder ends after every client, unless it failed: then the run
	 * cannot be recorded, and the clients are told to stop.
	 */
	for (int i = 0; i < run->nclients; i++)
		if (pg_atomic_read_u32(&pb_slot(run, launch->slots, i)->status) != PB_SLOT_EXITED)
		{
			pb_fail_run(run, -1, ERRCODE_INTERNAL_ERROR,
						"the run's recorder exited before the run ended", PB_SEE_LOG);
			break;
		}
	for (int i = 0; i < launch->nhandles; i++)
		(void) WaitForBackgroundWorkerShutdown(launch->handles[i]);
	pb_mark_gone_clients(launch);

	/* read the result */
	reason = pg_atomic_read_u32(&run->stop_reason);
	for (int i = 0; i < run->nclients; i++)
		finish = Max(finish, pb_slot(run, launch->slots, i)->finish_ns);
	result->run_id = run->run_id;
	result->seconds = (run->start_ns > 0 && finish > run->start_ns) ?
		(finish - run->start_ns) / 1e9 : 0;
	pb_summary_final(run, launch->slots, result->seconds, &result->summary);
	SpinLockAcquire(&run->mutex);
	error_code = run->error_code;
	failed_client = run->failed_client;
	strlcpy(error_message, run->error_message, sizeof(error_message));
	strlcpy(error_detail, run->error_detail, sizeof(error_detail));
	SpinLockRelease(&run->mutex);

	launch->finished = true;
	dsm_detach(seg);			/* frees launch too */

	if (reason == PB_STOP_FAILED)
	{
		char		who[64] = "";

		if (failed_client >= 0)
			snprintf(who, sizeof(who), "Client %d of run " INT64_FORMAT " failed; ",
					 failed_client + 1, result->run_id);
		else
			snprintf(who, sizeof(who), "Run " INT64_FORMAT " failed; ", result->run_id);
		ereport(ERROR,
				(errcode(error_code),
				 errmsg("%s", error_message),
				 errdetail("%s%s%sthe run is recorded as failed.", error_detail,
						   error_detail[0] ? " " : "", who)));
	}
}
