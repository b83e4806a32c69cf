/*-------------------------------------------------------------------------
 *
 * launcher.c
 *	  Sets up a run: its dynamic shared memory segment, one background
 *	  worker per client and the recorder; releases the clients together,
 *	  relays progress to the caller, waits for the end, and reads the
 *	  result.
 *
 * Every wait of the launcher can be canceled, and none is without a
 * bound: the clients must be ready within polarbench.start_timeout, the
 * run must end within polarbench.max_run_duration, and a worker that
 * waits for a lock the caller's own transaction holds (which the server's
 * deadlock detector cannot see, as the caller waits on a latch) ends the
 * run at once.  A client whose statement was canceled, at the run's
 * cut-off or by a stop, and that is still there PB_CANCEL_WAIT_MS later
 * is terminated (run/segment.h says how a run ends).
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
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "admission.h"
#include "engine.h"
#include "settings.h"

/* How long a canceled run, or a client whose statement was canceled, may
 * take to wind down before its workers are terminated, in milliseconds */
#define PB_CANCEL_WAIT_MS		10000

/* How often the launcher looks at its workers while it waits */
#define PB_LAUNCHER_TICK_MS		100

/* Lock waits looked into at one tick at most */
#define PB_LOCKWAIT_CHECKS		8

/* The launcher's own state, kept where an abort cannot free it */
typedef struct PbLaunch
{
	MemoryContext cxt;
	dsm_segment *seg;
	PbRunShared *run;
	char	   *slots;
	int			nhandles;		/* clients, then the recorder */
	BackgroundWorkerHandle **handles;
	bool		finished;		/* the run ended normally */
	bool		interrupted;	/* the clients were told to cancel */
	int64		interrupted_ns; /* when */
	bool		terminated;		/* clients that outstayed a cancel were */
	bool		release_xmin;	/* the caller's snapshot is not needed */
	int			lockwait_next;	/* worker to look at first */
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
 *		before it could say so itself.  Returns the number of the first
 *		client that stopped without having marked its slot, or -1.
 */
static int
pb_mark_gone_clients(PbLaunch *launch)
{
	int			unexpected = -1;

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
			if (unexpected < 0)
				unexpected = i;
		}
	}
	return unexpected;
}

/*
 * pb_interrupt_clients
 *		Cancel the statement every running client is in, so that a client
 *		waiting for a lock or in a long query stops now; and the recorder's,
 *		when it is the recorder that waits, or when it has not recorded the
 *		run yet (held up as it logs in, say: there is nothing for it to
 *		record, and the caller waits for it).  Once per run.
 */
static void
pb_interrupt_clients(PbLaunch *launch)
{
	int			failed;
	bool		recorded;

	if (launch->interrupted)
		return;
	launch->interrupted = true;
	launch->interrupted_ns = pb_now_ns();
	SpinLockAcquire(&launch->run->mutex);
	failed = launch->run->failed_client;
	recorded = launch->run->recorder_ready;
	SpinLockRelease(&launch->run->mutex);
	for (int i = 0; i < launch->nhandles; i++)
	{
		pid_t		pid;

		if (i == launch->run->nclients && failed != PB_FAILED_BY_RECORDER && recorded)
			continue;
		if (launch->handles[i] != NULL &&
			GetBackgroundWorkerPid(launch->handles[i], &pid) == BGWH_STARTED)
			kill(pid, SIGINT);
	}
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

		if (launch->handles[i] != NULL &&
			GetBackgroundWorkerPid(launch->handles[i], &pid) == BGWH_NOT_YET_STARTED)
			TerminateBackgroundWorker(launch->handles[i]);
	}
	pb_interrupt_clients(launch);

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

	/* a hot standby's run, ended by the abort: nobody takes its document */
	{
		dsm_handle	document;

		SpinLockAcquire(&launch->run->mutex);
		document = launch->run->document;
		launch->run->document = 0;
		SpinLockRelease(&launch->run->mutex);
		if (document != 0)
			pb_doc_discard(document);
	}
	launch->finished = true;
	MemoryContextDelete(launch->cxt);
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
			 errhint("Raise max_worker_processes, or run with fewer clients.")));
}

/*
 * pb_check_lock_waits
 *		Fail the run if one of its workers waits for a lock that the caller's
 *		transaction holds (the caller waits for the run, so the worker would
 *		wait for ever), or has waited for a lock longer than
 *		polarbench.lock_timeout.  Looks at a few lock waits per call, in
 *		turn.
 */
static void
pb_check_lock_waits(PbLaunch *launch)
{
	int			checks = 0;

	for (int n = 0; n < launch->nhandles && checks < PB_LOCKWAIT_CHECKS; n++)
	{
		int			i = (launch->lockwait_next + n) % launch->nhandles;
		bool		recorder = (i == launch->run->nclients);
		pid_t		pid;
		char	   *detail;
		int64		waited_ms;
		PbLockWaitVerdict verdict;
		const char *who;

		if (launch->handles[i] == NULL ||
			GetBackgroundWorkerPid(launch->handles[i], &pid) != BGWH_STARTED)
			continue;
		checks++;
		verdict = pb_lock_wait_check(pid, &detail, &waited_ms);
		if (verdict == PB_LOCKWAIT_NONE)
			continue;
		who = recorder ? "the run's recorder" :
			psprintf("benchmark client %d", i + 1);
		if (verdict == PB_LOCKWAIT_FOR_ME)
			pb_fail_run_hint(launch->run, recorder ? PB_FAILED_BY_RECORDER : i,
							 ERRCODE_T_R_DEADLOCK_DETECTED,
							 psprintf("%s waits for a lock held by the transaction that started the run", who),
							 detail,
							 "Commit or roll back the transaction before starting the run, or start the run from another session.");
		else
			pb_fail_run_hint(launch->run, recorder ? PB_FAILED_BY_RECORDER : i,
							 ERRCODE_LOCK_NOT_AVAILABLE,
							 psprintf("%s has waited for a lock longer than polarbench.lock_timeout (%d ms)",
									  who, pb_lock_timeout),
							 detail,
							 "Find what holds the lock in pg_locks and pg_stat_activity, or raise polarbench.lock_timeout (0 turns it off).");
		break;
	}
	launch->lockwait_next = (launch->lockwait_next + 1) % Max(launch->nhandles, 1);
}

/*
 * pb_terminate_stuck_clients
 *		Terminate the clients still running PB_CANCEL_WAIT_MS after their
 *		statements were canceled: by the launcher's interrupt of a stopped
 *		run, or by the clients themselves at the run's cut-off (then the run
 *		fails, as it cannot end when it says it does).  A statement that
 *		ignores a cancel (a function that catches it) still ends with its
 *		process.  Once per run.
 */
static void
pb_terminate_stuck_clients(PbLaunch *launch)
{
	PbRunShared *run = launch->run;
	int64		since;
	int64		now = pb_now_ns();

	if (launch->terminated)
		return;
	if (launch->interrupted)
		since = launch->interrupted_ns;
	else if (pg_atomic_read_u32(&run->state) != PB_STATE_STARTING &&
			 pb_run_cutoff(run) > 0)
		since = pb_run_cutoff(run);
	else
		return;
	if (now < since + (int64) PB_CANCEL_WAIT_MS * 1000000)
		return;
	launch->terminated = true;
	for (int i = 0; i < run->nclients; i++)
	{
		if (pg_atomic_read_u32(&pb_slot(run, launch->slots, i)->status) == PB_SLOT_EXITED ||
			pb_worker_stopped(launch->handles[i]))
			continue;
		if (!launch->interrupted)
			pb_fail_run_hint(run, i, ERRCODE_QUERY_CANCELED,
							 psprintf("benchmark client %d did not stop when its statement was canceled at the end of the run",
									  i + 1),
							 psprintf("The run's duration and its grace of %g s were over; the client was terminated %d s later.",
									  run->grace_ns / 1e9, PB_CANCEL_WAIT_MS / 1000),
							 "A statement that ignores a cancel, such as a function that catches query_canceled, keeps a client from stopping.");
		TerminateBackgroundWorker(launch->handles[i]);
	}
}

/*
 * pb_launcher_tick
 *		Everything the launcher does at each wake-up while it waits: notice
 *		clients that are gone, look into lock waits, keep the xmin horizon
 *		free, and stop a failed run's clients.  Then sleep for at most
 *		timeout_ms, and look at interrupts.
 */
static void
pb_launcher_tick(PbLaunch *launch, long timeout_ms)
{
	PbRunShared *run = launch->run;
	int			gone;

	gone = pb_mark_gone_clients(launch);
	if (gone >= 0)
		pb_fail_run(run, gone, ERRCODE_CONNECTION_FAILURE,
					psprintf("benchmark client %d exited unexpectedly", gone + 1),
					PB_SEE_LOG);
	if (pg_atomic_read_u32(&run->stop_reason) == PB_STOP_NONE)
		pb_check_lock_waits(launch);
	/* failed, or canceled by polarbench_cancel(): stop what the clients run */
	if (pg_atomic_read_u32(&run->stop_reason) == PB_STOP_FAILED ||
		pg_atomic_read_u32(&run->stop_reason) == PB_STOP_CANCELED)
		pb_interrupt_clients(launch);
	pb_terminate_stuck_clients(launch);
	if (launch->release_xmin)
		pb_release_xmin();

	(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
					 Max(timeout_ms, 1), PG_WAIT_EXTENSION);
	ResetLatch(MyLatch);
	CHECK_FOR_INTERRUPTS();
}

/*
 * pb_clients_connected
 *		Whether every client has logged in (or is gone), so that the workers
 *		of the next run to start will see it in the backend status.
 */
static bool
pb_clients_connected(PbLaunch *launch)
{
	for (int i = 0; i < launch->run->nclients; i++)
		if (pg_atomic_read_u32(&pb_slot(launch->run, launch->slots, i)->status) ==
			PB_SLOT_STARTING)
			return false;
	return true;
}

/*
 * pb_wait_ready
 *		Wait until every client has prepared and the run is recorded, or the
 *		run stops; for at most polarbench.start_timeout.
 */
static void
pb_wait_ready(PbLaunch *launch)
{
	PbRunShared *run = launch->run;
	BackgroundWorkerHandle *recorder = launch->handles[run->nclients];
	int64		deadline = pb_now_ns() + (int64) pb_start_timeout * 1000000;

	for (;;)
	{
		bool		recorder_ready;
		uint32		nready = pg_atomic_read_u32(&run->nready);

		SpinLockAcquire(&run->mutex);
		recorder_ready = run->recorder_ready;
		SpinLockRelease(&run->mutex);
		if (pb_clients_connected(launch))
			pb_admission_end();
		if (pg_atomic_read_u32(&run->stop_reason) != PB_STOP_NONE)
			break;
		if (recorder_ready && nready == (uint32) run->nclients)
			break;
		if (!recorder_ready && pb_worker_stopped(recorder))
			pb_fail_run(run, PB_FAILED_BY_RECORDER, ERRCODE_CONNECTION_FAILURE,
						"the run's recorder exited before it recorded the run",
						PB_SEE_LOG);
		else if (pb_now_ns() >= deadline)
			pb_fail_run_hint(run, PB_FAILED_BY_LAUNCHER, ERRCODE_QUERY_CANCELED,
							 psprintf("the run's clients were not ready within polarbench.start_timeout (%d ms)",
									  pb_start_timeout),
							 psprintf("%u of %d clients had prepared their statements%s.",
									  nready, run->nclients,
									  recorder_ready ? "" : ", and the run was not recorded yet"),
							 "Look for locks the clients wait for in pg_locks, or raise polarbench.start_timeout.");
		pb_launcher_tick(launch, PB_LAUNCHER_TICK_MS);
	}
	pb_admission_end();
}

/*
 * pb_init_slots
 *		Lay out the clients' slots in the segment, counters at zero.
 */
static void
pb_init_slots(PbRunShared *run, char *slots, int ncommands)
{
	for (int i = 0; i < run->nclients; i++)
	{
		PbClientSlot *slot = pb_slot(run, slots, i);
		PbCommandStats *stats = pb_slot_commands(slot);

		pg_atomic_init_u32(&slot->status, PB_SLOT_STARTING);
		pg_atomic_init_u32(&slot->pgprocno, 0);
#define PB_SLOT_COUNTER_INIT(name, type, nulls, counter, r, p, l, g) \
		PB_FIG_IF(counter, pg_atomic_init_u64(&slot->name, 0);)
		PB_RUN_FIGURES(PB_SLOT_COUNTER_INIT)
#undef PB_SLOT_COUNTER_INIT
		pg_atomic_init_u64(&slot->latency_sum_ns, 0);
		pg_atomic_init_u64(&slot->latency_sumsq, 0);
		pg_atomic_init_u64(&slot->latency_min_ns, PG_UINT64_MAX);
		pg_atomic_init_u64(&slot->latency_max_ns, 0);
		pg_atomic_init_u64(&slot->lag_sum_ns, 0);
		pg_atomic_init_u64(&slot->lag_max_ns, 0);
		for (int c = 0; c < ncommands; c++)
		{
			pg_atomic_init_u64(&stats[c].executions, 0);
			pg_atomic_init_u64(&stats[c].failures, 0);
			pg_atomic_init_u64(&stats[c].total_ns, 0);
			pg_atomic_init_u64(&stats[c].min_ns, PG_UINT64_MAX);
			pg_atomic_init_u64(&stats[c].max_ns, 0);
			pg_atomic_init_u64(&stats[c].retries, 0);
			pg_atomic_init_u64(&stats[c].rollbacks, 0);
		}
	}
}

/*
 * pb_failure_context
 *		Where a failed run's error came from and what became of the run's
 *		record, for the error's context line.
 */
static char *
pb_failure_context(int failed, int64 run_id, bool recorded)
{
	if (run_id == 0)
	{
		if (failed >= 0)
			return psprintf("benchmark client %d, before the run was recorded; nothing was recorded",
							failed + 1);
		if (failed == PB_FAILED_BY_RECORDER)
			return pstrdup("the run's recorder, before it recorded the run; nothing was recorded");
		return pstrdup("a benchmark run, before it was recorded; nothing was recorded");
	}
	if (recorded)
	{
		if (failed >= 0)
			return psprintf("benchmark client %d of run " INT64_FORMAT "; the run is recorded as failed",
							failed + 1, run_id);
		return psprintf("benchmark run " INT64_FORMAT "; the run is recorded as failed",
						run_id);
	}
	if (failed >= 0)
		return psprintf("benchmark client %d of run " INT64_FORMAT "; the run could not be recorded to its end, and polarbench_runs shows it as failed",
						failed + 1, run_id);
	if (failed == PB_FAILED_BY_RECORDER)
		return psprintf("the recorder of run " INT64_FORMAT "; the run could not be recorded to its end, and polarbench_runs shows it as failed",
						run_id);
	return psprintf("benchmark run " INT64_FORMAT "; the run could not be recorded to its end, and polarbench_runs shows it as failed",
					run_id);
}

/*
 * pb_launch_segment
 *		Make the run's segment and fill what is set before any worker
 *		starts: the run's state, its configuration, its clients' slots, and
 *		the area of its workload's driver.  Returns the launcher's state,
 *		which the segment's detach frees.
 */
static PbLaunch *
pb_launch_segment(const PbRunConfig *config, const PbRunParams *params)
{
	const PbDriver *driver = pb_driver(config->kind);
	shm_toc_estimator estimator;
	Size		config_size = pb_config_size(config);
	Size		slot_size = pb_slot_size(params->ncommands,
										 params->command_histograms);
	Size		slots_size = add_size(mul_size(slot_size, params->nclients),
									  PG_CACHE_LINE_SIZE);
	Size		driver_size = driver->shared_size ?
		driver->shared_size(config, params) : 0;
	Size		segsize;
	dsm_segment *seg;
	shm_toc    *toc;
	PbRunShared *run;
	PbLaunch   *launch;
	MemoryContext cxt;
	char	   *slots_raw;
	char	   *chunk;

	shm_toc_initialize_estimator(&estimator);
	shm_toc_estimate_chunk(&estimator, sizeof(PbRunShared));
	shm_toc_estimate_chunk(&estimator, config_size);
	shm_toc_estimate_chunk(&estimator, slots_size);
	shm_toc_estimate_chunk(&estimator, Max(driver_size, 1));
	shm_toc_estimate_keys(&estimator, 4);
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
	run->rate = params->rate;
	run->latency_limit_ns = (int64) (params->latency_limit * 1e6);
	run->max_tries = params->max_tries;
	run->warmup = params->warmup;
	run->grace_ns = (int64) (params->end_grace * 1e9);
	run->counters_only = params->counters_only;
	run->sweep_id = params->sweep_id;
	run->sweep_run = params->sweep_run;
	run->sweep_set = params->sweep_set;
	run->sweep_repeat = params->sweep_repeat;
	run->unstored_id = params->unstored_id;
	run->ncommands = params->ncommands;
	run->command_histograms = params->command_histograms;
	run->slot_size = slot_size;
	run->ops_limit = params->ops_limit;
	pg_atomic_init_u64(&run->ops_claimed, 0);
	run->launcher_pgprocno = PB_MY_PGPROCNO;
	pg_atomic_init_u32(&run->recorder_pgprocno, 0);
	pg_atomic_init_u32(&run->state, PB_STATE_STARTING);
	pg_atomic_init_u32(&run->stop_reason, PB_STOP_NONE);
	pg_atomic_init_u32(&run->nready, 0);
	ConditionVariableInit(&run->start_cv);
	SpinLockInit(&run->mutex);
	shm_toc_insert(toc, PB_KEY_RUN, run);

	chunk = shm_toc_allocate(toc, config_size);
	pb_config_serialize(config, chunk);
	shm_toc_insert(toc, PB_KEY_CONFIG, chunk);

	/* the driver's own, as it says it starts */
	chunk = shm_toc_allocate(toc, Max(driver_size, 1));
	memset(chunk, 0, Max(driver_size, 1));
	if (driver->shared_init != NULL)
		driver->shared_init(chunk, config, params);
	shm_toc_insert(toc, PB_KEY_DRIVER, chunk);

	slots_raw = shm_toc_allocate(toc, slots_size);
	memset(slots_raw, 0, slots_size);

	cxt = AllocSetContextCreate(TopMemoryContext, "polarbench launch",
								ALLOCSET_SMALL_SIZES);
	launch = MemoryContextAllocZero(cxt, sizeof(PbLaunch));
	launch->cxt = cxt;
	launch->seg = seg;
	launch->run = run;
	launch->release_xmin = params->release_xmin;
	launch->slots = (char *) TYPEALIGN(PG_CACHE_LINE_SIZE, slots_raw);
	launch->handles = MemoryContextAllocZero(cxt, sizeof(BackgroundWorkerHandle *) *
											 (params->nclients + 1));
	shm_toc_insert(toc, PB_KEY_SLOTS, launch->slots);
	pb_init_slots(run, launch->slots, params->ncommands);
	pg_write_barrier();
	run->slots_offset = launch->slots - (char *) run;
	on_dsm_detach(seg, pb_launcher_detach, PointerGetDatum(launch));
	return launch;
}

/*
 * pb_launch_workers
 *		Register the clients, then the recorder, which the caller admitted
 *		(pb_admission_begin()): if the recorder starts, everybody has a
 *		slot.  The admission is held until they have connected.
 */
static void
pb_launch_workers(PbLaunch *launch, int nclients)
{
	MemoryContext oldcxt;

	oldcxt = MemoryContextSwitchTo(launch->cxt);
	for (int i = 0; i <= nclients; i++)
	{
		bool		recorder = (i == nclients);
		char		name[BGW_MAXLEN];

		if (recorder)
			snprintf(name, sizeof(name), "polarbench recorder");
		else
			snprintf(name, sizeof(name), "polarbench client %d", i + 1);
		launch->handles[i] = pb_worker_register(launch->seg,
												recorder ? "pb_recorder_main" : "pb_client_main",
												name,
												recorder ? PB_RECORDER_WORKER_TYPE : PB_CLIENT_WORKER_TYPE,
												i, BgWorkerStart_ConsistentState);
		if (launch->handles[i] == NULL)
		{
			MemoryContextSwitchTo(oldcxt);
			launch->nhandles = i;
			pb_launcher_abort_start(launch, nclients);
		}
		launch->nhandles = i + 1;
	}
	MemoryContextSwitchTo(oldcxt);
}

/*
 * pb_launch_release
 *		Release the clients together, unless the run stopped before: its
 *		times, then (after a write barrier) RUNNING.
 */
static void
pb_launch_release(PbLaunch *launch, const PbRunParams *params)
{
	PbRunShared *run = launch->run;

	/*
	 * A node's part of a run across a cluster: its clients, ready, wait for
	 * the instant the coordinator set for every node, so that the nodes'
	 * runs overlap fully.  The launcher keeps watching them meanwhile.
	 */
	while (params->release_at != 0 &&
		   pg_atomic_read_u32(&run->stop_reason) == PB_STOP_NONE)
	{
		long		wait_ms = TimestampDifferenceMilliseconds(GetCurrentTimestamp(),
															  (TimestampTz) params->release_at);

		if (wait_ms <= 0)
			break;
		pb_launcher_tick(launch, Min(wait_ms, PB_LAUNCHER_TICK_MS));
	}
	if (pg_atomic_read_u32(&run->stop_reason) != PB_STOP_NONE)
		return;
	run->start_ns = pb_now_ns();
	run->measure_ns = run->start_ns + (int64) (params->warmup * 1e9);
	run->end_ns = params->duration > 0 ?
		run->start_ns + (int64) (params->duration * 1e9) : 0;
	run->limit_ns = run->start_ns + (int64) pb_max_run_duration * 1000000000;
	pg_write_barrier();
	pg_atomic_write_u32(&run->state, PB_STATE_RUNNING);
	ConditionVariableBroadcast(&run->start_cv);
	pb_wake_recorder(run);
	if (params->on_started != NULL)
		params->on_started(run->run_id, params->on_started_arg);
}

/*
 * pb_launch_relay
 *		Relay the progress lines as NOTICEs until the recorder has written
 *		the end of the run; then wait for every worker to be gone.
 */
static void
pb_launch_relay(PbLaunch *launch)
{
	PbRunShared *run = launch->run;
	int			seen_progress = 0;

	for (;;)
	{
		char		line[PB_PROGRESS_LINE_LEN];
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
		if (run->limit_ns > 0 && pb_now_ns() >= run->limit_ns)
			pb_fail_run_too_long(run);
		pb_launcher_tick(launch, PB_LAUNCHER_TICK_MS);
	}

	/*
	 * The recorder ends after every client, unless it failed: then the run
	 * cannot be recorded, and the clients are told to stop.
	 */
	for (int i = 0; i < run->nclients; i++)
		if (pg_atomic_read_u32(&pb_slot(run, launch->slots, i)->status) != PB_SLOT_EXITED)
		{
			pb_fail_run(run, PB_FAILED_BY_RECORDER, ERRCODE_INTERNAL_ERROR,
						"the run's recorder exited before the run ended", PB_SEE_LOG);
			pb_interrupt_clients(launch);
			break;
		}
	for (int i = 0; i < launch->nhandles; i++)
		(void) WaitForBackgroundWorkerShutdown(launch->handles[i]);
	pb_mark_gone_clients(launch);
	if (launch->release_xmin)
		pb_refresh_xmin();
}

/*
 * pb_launch_collect
 *		Read the run's result, let go of the segment, and raise the run's
 *		error if it failed or was canceled.
 */
static void
pb_launch_collect(PbLaunch *launch, PbRunResult *result)
{
	PbRunShared *run = launch->run;
	uint32		reason = pg_atomic_read_u32(&run->stop_reason);
	int			failed_client;
	bool		recorded;
	dsm_handle	document;
	PbSharedError error;
	PbSharedError abort_error;
	int			aborted_client;
	int			run_nclients;

	result->run_id = run->run_id;
	run_nclients = run->nclients;
	pb_summary_final(run, launch->slots, pb_run_seconds(run, launch->slots),
					 &result->summary);
	SpinLockAcquire(&run->mutex);
	failed_client = run->failed_client;
	recorded = run->recorded;
	error = run->error;
	document = run->document;
	result->aborted = run->naborted;
	abort_error = run->abort_error;
	aborted_client = run->aborted_client;
	SpinLockRelease(&run->mutex);
	/* a hot standby's run: the session keeps its document */
	if (document != 0)
		pb_doc_take(document, run->run_id);

	launch->finished = true;
	dsm_detach(launch->seg);	/* frees launch too */

	if (reason == PB_STOP_FAILED)
		pb_shared_error_raise(&error,
							  pb_failure_context(failed_client, result->run_id,
												 recorded));
	/* this backend was not interrupted, so polarbench_cancel() stopped it */
	if (reason == PB_STOP_CANCELED && recorded)
		ereport(ERROR,
				(errcode(ERRCODE_QUERY_CANCELED),
				 errmsg("run " INT64_FORMAT " was canceled", result->run_id),
				 errdetail("polarbench_cancel() was called for it; the run is recorded as canceled.")));
	if (!recorded)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("the run's recorder exited before the run ended"),
				 errdetail(PB_SEE_LOG),
				 errcontext("%s", pb_failure_context(PB_FAILED_BY_RECORDER,
													result->run_id, false))));

	/*
	 * Clients that aborted alone: the run went on without them, and its
	 * result comes back, but it is no clean one, as pgbench says after its
	 * report.
	 */
	if (result->aborted > 0)
		ereport(WARNING,
				(errcode(ERRCODE_WARNING),
				 errmsg("run was aborted; its results are incomplete"),
				 errdetail("%d of %d clients aborted; the first, client %d (benchmark client %d), with: %s",
						   result->aborted, run_nclients, aborted_client,
						   aborted_client + 1, abort_error.message),
				 abort_error.context[0] != '\0' ?
				 errcontext("%s", abort_error.context) : 0,
				 errhint("The run is recorded as aborted. Leave out the option exit_on_abort, or make it true, for a client's error to fail the run instead.")));
}

/*
 * pb_launch_run
 *		Run a benchmark whose workers the caller admitted
 *		(pb_admission_begin() of its clients and recorder), and wait for its
 *		end, in steps: the segment, the workers, the wait until they are
 *		ready (which ends the admission), their release, the relay of
 *		progress, the result.  Fills *result and returns normally if the run
 *		finished; raises the clients' error if it failed.
 */
void
pb_launch_run(const PbRunConfig *config, const PbRunParams *params,
			  PbRunResult *result)
{
	PbLaunch   *launch = pb_launch_segment(config, params);

	pb_launch_workers(launch, params->nclients);
	pb_wait_ready(launch);
	if (launch->release_xmin)
		pb_release_xmin();
	pb_launch_release(launch, params);
	pb_launch_relay(launch);
	pb_launch_collect(launch, result);
}
