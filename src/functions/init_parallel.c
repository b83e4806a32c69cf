/*-------------------------------------------------------------------------
 *
 * init_parallel.c
 *	  Parallel loads: polarbench_init(..., parallel => P) spread over
 *	  dynamic background workers.
 *
 * Tables created in the caller's transaction are invisible to other
 * backends until it commits, and only the transaction that created a
 * table may fill it with frozen rows.  So in a parallel load every worker
 * creates, fills and indexes whole tables (the data set's jobs: one
 * sysbench table, one pgbench_accounts partition...) in one transaction
 * of its own, under staging names (load_staging.c), and the commits are
 * coordinated by the caller (the leader):
 *
 *	1. Every worker takes jobs from a shared counter until none is left,
 *	   writes the pages of the workers still loading (page_writers.c) until
 *	   they are done, and reports READY, its transaction still open: nothing
 *	   of the new tables is visible yet.
 *	2. When all are READY the leader, interrupts held, tells them to commit
 *	   and waits for them to have done so.
 *	3. The leader, in the caller's transaction, drops the tables being
 *	   replaced, gives the staging relations their names (or, for an
 *	   extension, appends the staging tables' rows to the tables there and
 *	   drops them) and runs the data set's finishing step (attach
 *	   partitions, foreign keys), then says DONE; workers exit.
 *
 * Cancel or error in the leader before step 2 terminates the workers
 * (TerminateBackgroundWorker, then WaitForBackgroundWorkerShutdown): their
 * transactions abort, so no half-loaded table is ever visible.  After step
 * 2, the workers have committed their staging tables; until DONE they stay
 * connected, and on cancel or error in the leader (or if the leader
 * vanishes) worker 0 drops the staging tables in a new transaction, while
 * the leader's transaction, aborting, leaves the old tables as they were.
 * The leader cleans up from PG_ENSURE_ERROR_CLEANUP, which also covers its
 * exit.  What a crash leaves, the next load drops.  A worker that fails
 * records its error in the shared segment; the leader reports it.
 *
 * Because each worker commits on its own, a parallel load cannot run
 * inside a transaction block.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <signal.h>

#include "access/xact.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "tcop/tcopprot.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"
#include "utils/wait_event.h"

#include "admission.h"
#include "worker.h"
#include "load.h"
#include "registry.h"

/* What the leader says, in PbLoadShared.verdict */
typedef enum PbLoadVerdict
{
	PB_VERDICT_NONE = 0,		/* keep loading */
	PB_VERDICT_COMMIT,			/* all ready: commit */
	PB_VERDICT_DONE,			/* finished: exit */
	PB_VERDICT_ABORT			/* give up (and drop what was committed) */
} PbLoadVerdict;

/* A worker's state, in PbLoadWorkerSlot.status */
typedef enum PbLoadStatus
{
	PB_LOADER_STARTING = 0,
	PB_LOADER_READY,			/* jobs done, transaction open */
	PB_LOADER_COMMITTED,
	PB_LOADER_FAILED			/* error recorded in the slot */
} PbLoadStatus;

typedef struct PbLoadWorkerSlot
{
	pg_atomic_uint32 status;	/* PbLoadStatus */
	pg_atomic_uint32 connected; /* logged in: counted by the next admission */
	int			pgprocno;
	int64		rows;
	PbSharedError error;		/* set before status becomes FAILED */
} PbLoadWorkerSlot;

/* The segment a parallel load shares */
typedef struct PbLoadShared
{
	PbLoadOptions opts;
	Oid			database;
	Oid			role;
	int			leader_pid;
	int			leader_pgprocno;
	int			nworkers;
	int			njobs;
	pg_atomic_uint32 next_job;
	pg_atomic_uint32 verdict;	/* PbLoadVerdict */
	pg_atomic_uint64 rows_done;
	Size		writers_offset; /* the page writers' ring (page_writers.c) */
	PbLoadWorkerSlot workers[FLEXIBLE_ARRAY_MEMBER];
} PbLoadShared;

/* The leader's view of its workers */
typedef struct PbLoadLeader
{
	dsm_segment *seg;
	PbLoadShared *shared;
	int			nregistered;
	BackgroundWorkerHandle *handles[FLEXIBLE_ARRAY_MEMBER];
} PbLoadLeader;

static void pb_loader_leader_cleanup(int code, Datum arg);
static void pb_loader_wait_all(PbLoadLeader *leader, PbLoadStatus status,
							   PbProgress *progress);
static void pb_loader_wake_workers(PbLoadShared *shared);
static bool pb_loader_all_connected(PbLoadLeader *leader);
static void pb_loader_worker_run(PbLoadShared *shared, int index);
static PbLoadVerdict pb_loader_worker_wait(PbLoadShared *shared,
										   PbLoadVerdict past);
static void pb_loader_worker_cleanup(PbLoadShared *shared);

/*
 * Run the load described by opts in background workers, replacing the
 * tables of names; the caller is connected to SPI.  Returns the number of
 * rows inserted.
 */
int64
pb_loader_run_parallel(const PbLoadOptions *opts, List *names)
{
	const PbDataset *ds = pb_dataset_at(opts->dataset);
	int			njobs = ds->njobs(opts, true);
	int			nworkers = Min(opts->parallel, njobs);
	PbLoadLeader *leader;
	PbLoadShared *shared;
	PbProgress	progress;
	Size		size;
	int64		rows = 0;
	int			i;

	size = offsetof(PbLoadShared, workers) +
		sizeof(PbLoadWorkerSlot) * nworkers;
	size = MAXALIGN(size);
	leader = palloc0(offsetof(PbLoadLeader, handles) +
					 sizeof(BackgroundWorkerHandle *) * nworkers);
	leader->seg = dsm_create(size + pb_writer_size(), 0);
	shared = dsm_segment_address(leader->seg);
	memset(shared, 0, size);
	leader->shared = shared;
	shared->writers_offset = size;
	pb_writer_init((char *) shared + size, nworkers);
	shared->opts = *opts;
	pb_staging_set_prefix(&shared->opts);
	shared->database = MyDatabaseId;
	shared->role = GetUserId();
	shared->leader_pid = MyProcPid;
	shared->leader_pgprocno = PB_MY_PGPROCNO;
	shared->nworkers = nworkers;
	shared->njobs = njobs;
	pg_atomic_init_u32(&shared->next_job, 0);
	pg_atomic_init_u32(&shared->verdict, PB_VERDICT_NONE);
	pg_atomic_init_u64(&shared->rows_done, 0);
	for (i = 0; i < nworkers; i++)
	{
		pg_atomic_init_u32(&shared->workers[i].status, PB_LOADER_STARTING);
		pg_atomic_init_u32(&shared->workers[i].connected, 0);
		shared->workers[i].pgprocno = -1;
	}

	pb_progress_init(&progress, opts->total_rows, opts->progress, NULL);

	PG_ENSURE_ERROR_CLEANUP(pb_loader_leader_cleanup,
							PointerGetDatum(leader));
	{
		/* held until the workers have connected */
		pb_admission_begin(nworkers);
		for (i = 0; i < nworkers; i++)
		{
			char		name[BGW_MAXLEN];

			snprintf(name, sizeof(name), "polarbench loader %d for PID %d",
					 i, MyProcPid);
			leader->handles[i] = pb_worker_register(leader->seg,
													"pb_loader_worker_main",
													name, PB_LOADER_WORKER_TYPE,
													i, BgWorkerStart_RecoveryFinished);
			if (leader->handles[i] == NULL)
				ereport(ERROR,
						(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
						 errmsg("not enough background worker slots for %d loader workers",
								nworkers),
						 errhint("Load with a lower parallel, or raise max_worker_processes.")));
			leader->nregistered++;
		}

		/* step 1 */
		pb_loader_wait_all(leader, PB_LOADER_READY, &progress);
		pb_admission_end();

		/* step 2: a cancel now would leave some workers committed */
		HOLD_INTERRUPTS();
		pg_atomic_write_u32(&shared->verdict, PB_VERDICT_COMMIT);
		pb_loader_wake_workers(shared);
		pb_loader_wait_all(leader, PB_LOADER_COMMITTED, NULL);
		RESUME_INTERRUPTS();

		/* see the workers' tables, not what the caches said before */
		AcceptInvalidationMessages();
		if (opts->progress)
			pb_progress_notice(&progress, progress.total, true);

		/* step 3, in the caller's transaction: all or nothing */
		if (opts->extend)
			pb_staging_append(ds, &shared->opts);
		else
		{
			pb_staging_drop_replaced(opts, names);
			pb_staging_promote(ds, &shared->opts);
		}
		ds->finish(opts, true);

		for (i = 0; i < nworkers; i++)
			rows += shared->workers[i].rows;

		pg_atomic_write_u32(&shared->verdict, PB_VERDICT_DONE);
		pb_loader_wake_workers(shared);
		HOLD_INTERRUPTS();
		for (i = 0; i < nworkers; i++)
			WaitForBackgroundWorkerShutdown(leader->handles[i]);
		RESUME_INTERRUPTS();
	}
	PG_END_ENSURE_ERROR_CLEANUP(pb_loader_leader_cleanup,
								PointerGetDatum(leader));

	dsm_detach(leader->seg);
	return rows;
}

/*
 * Wait until every worker reaches status, sending progress notices
 * meanwhile when progress is given.  A worker that fails or exits early
 * makes the whole load fail with its error.
 */
static void
pb_loader_wait_all(PbLoadLeader *leader, PbLoadStatus status,
				   PbProgress *progress)
{
	PbLoadShared *shared = leader->shared;

	for (;;)
	{
		int			nreached = 0;
		int			i;

		for (i = 0; i < shared->nworkers; i++)
		{
			PbLoadWorkerSlot *slot = &shared->workers[i];
			uint32		st = pg_atomic_read_u32(&slot->status);
			pid_t		pid;

			if (st == PB_LOADER_FAILED)
			{
				pg_read_barrier();
				pb_shared_error_raise(&slot->error,
									  psprintf("polarbench loader worker %d", i));
			}
			if (st >= status)
			{
				nreached++;
				continue;
			}
			if (GetBackgroundWorkerPid(leader->handles[i], &pid) ==
				BGWH_STOPPED)
				ereport(ERROR,
						(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
						 errmsg("polarbench loader worker %d exited before finishing its load",
								i)));
		}
		if (nreached == shared->nworkers)
			return;
		if (pb_loader_all_connected(leader))
			pb_admission_end();

		if (progress && progress->notice)
		{
			int64		done = pg_atomic_read_u64(&shared->rows_done);

			if (done >= progress->next_notice && done < progress->total)
			{
				pb_progress_notice(progress, done, false);
				while (progress->next_notice <= done)
					progress->next_notice += PB_PROGRESS_ROWS;
			}
		}

		(void) WaitLatch(MyLatch,
						 WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * Whether every worker has logged in, or is gone.
 */
static bool
pb_loader_all_connected(PbLoadLeader *leader)
{
	for (int i = 0; i < leader->shared->nworkers; i++)
	{
		pid_t		pid;

		if (pg_atomic_read_u32(&leader->shared->workers[i].connected) == 0 &&
			GetBackgroundWorkerPid(leader->handles[i], &pid) != BGWH_STOPPED)
			return false;
	}
	return true;
}

/*
 * Set the latches of the workers that have started.
 */
static void
pb_loader_wake_workers(PbLoadShared *shared)
{
	int			i;

	for (i = 0; i < shared->nworkers; i++)
	{
		int			procno = shared->workers[i].pgprocno;

		if (procno >= 0)
			SetLatch(&GetPGProcByNumber(procno)->procLatch);
	}
}

/*
 * Error cleanup of the leader: before the workers commit, terminate them
 * (their transactions abort); after, tell them to drop what they
 * committed.  Either way, wait until the workers that do not drop anything
 * have exited.
 */
static void
pb_loader_leader_cleanup(int code, Datum arg)
{
	PbLoadLeader *leader = (PbLoadLeader *) DatumGetPointer(arg);
	PbLoadShared *shared = leader->shared;
	uint32		verdict = pg_atomic_read_u32(&shared->verdict);
	int			i;

	if (verdict == PB_VERDICT_DONE)
		return;
	pg_atomic_write_u32(&shared->verdict, PB_VERDICT_ABORT);

	HOLD_INTERRUPTS();
	if (verdict == PB_VERDICT_NONE)
	{
		for (i = 0; i < leader->nregistered; i++)
			TerminateBackgroundWorker(leader->handles[i]);
		for (i = 0; i < leader->nregistered; i++)
			WaitForBackgroundWorkerShutdown(leader->handles[i]);
	}
	else
	{
		/*
		 * Worker 0 drops the staging tables, which waits for this
		 * transaction's locks to go: don't wait for it.
		 */
		pb_loader_wake_workers(shared);
		for (i = 1; i < leader->nregistered; i++)
			WaitForBackgroundWorkerShutdown(leader->handles[i]);
	}
	RESUME_INTERRUPTS();
}

/*
 * Entry point of a loader worker.  main_arg is the segment's handle,
 * bgw_extra the worker's number (pb_worker_index()).
 */
void
pb_loader_worker_main(Datum main_arg)
{
	dsm_segment *seg;
	PbLoadShared *shared;
	PbLoadWorkerSlot *slot;
	int			index;

	index = pb_worker_index();
	seg = pb_worker_attach(main_arg, "polarbench loader");
	shared = dsm_segment_address(seg);
	if (index < 0 || index >= shared->nworkers)
		elog(ERROR, "bad polarbench loader worker number %d", index);
	slot = &shared->workers[index];
	slot->pgprocno = PB_MY_PGPROCNO;
	pg_write_barrier();

	BackgroundWorkerInitializeConnectionByOid(shared->database, shared->role,
											  0);
	pg_atomic_write_u32(&slot->connected, 1);
	SetLatch(&GetPGProcByNumber(shared->leader_pgprocno)->procLatch);

	PG_TRY();
	{
		pb_loader_worker_run(shared, index);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(TopMemoryContext);
		edata = CopyErrorData();
		pb_shared_error_copy(&slot->error, edata);
		pg_write_barrier();
		pg_atomic_write_u32(&slot->status, PB_LOADER_FAILED);
		SetLatch(&GetPGProcByNumber(shared->leader_pgprocno)->procLatch);
		PG_RE_THROW();
	}
	PG_END_TRY();

	pb_writer_detach();
	dsm_detach(seg);
	proc_exit(0);
}

/*
 * The worker's part of the protocol in the file header.
 */
static void
pb_loader_worker_run(PbLoadShared *shared, int index)
{
	const PbLoadOptions *opts = &shared->opts;
	const PbDataset *ds = pb_dataset_at(opts->dataset);
	PbLoadWorkerSlot *slot = &shared->workers[index];
	Latch	   *leader_latch = &GetPGProcByNumber(shared->leader_pgprocno)->procLatch;
	PbProgress	progress;
	uint32		job;
	int			nest_level;

	pb_writer_attach((char *) shared + shared->writers_offset, index);

	/* step 1 */
	pb_progress_init(&progress, opts->total_rows, false,
					 &shared->rows_done);
	pb_xact_begin(NIL);
	pgstat_report_activity(STATE_RUNNING, "polarbench_init: loading");
	nest_level = pb_loader_compress_wal_begin(opts);
	while ((job = pg_atomic_fetch_add_u32(&shared->next_job, 1)) <
		   (uint32) shared->njobs)
		slot->rows += ds->run_job(opts, (int) job, true, &progress);
	/* no job left: write the pages of those still loading */
	pb_writer_help();
	pb_loader_compress_wal_end(nest_level);
	pb_xact_end_statement();
	pgstat_report_activity(STATE_IDLEINTRANSACTION,
						   "polarbench_init: waiting to commit");
	pg_atomic_write_u32(&slot->status, PB_LOADER_READY);
	SetLatch(leader_latch);

	/* step 2 */
	if (pb_loader_worker_wait(shared, PB_VERDICT_NONE) !=
		PB_VERDICT_COMMIT)
		ereport(ERROR,
				(errcode(ERRCODE_QUERY_CANCELED),
				 errmsg("polarbench load canceled")));
	CommitTransactionCommand();
	pgstat_report_activity(STATE_IDLE, NULL);
	pg_atomic_write_u32(&slot->status, PB_LOADER_COMMITTED);
	SetLatch(leader_latch);

	/* step 3 */
	if (pb_loader_worker_wait(shared, PB_VERDICT_COMMIT) !=
		PB_VERDICT_DONE && index == 0)
		pb_loader_worker_cleanup(shared);
}

/*
 * Wait for the leader, until the verdict is no longer past.  A leader gone
 * counts as ABORT.  Returns the verdict.
 */
static PbLoadVerdict
pb_loader_worker_wait(PbLoadShared *shared, PbLoadVerdict past)
{
	for (;;)
	{
		uint32		verdict = pg_atomic_read_u32(&shared->verdict);

		if (verdict == PB_VERDICT_ABORT)
			return PB_VERDICT_ABORT;
		if (verdict != (uint32) past)
			return (PbLoadVerdict) verdict;
		if (BackendPidGetProc(shared->leader_pid) == NULL)
		{
			pg_atomic_write_u32(&shared->verdict, PB_VERDICT_ABORT);
			return PB_VERDICT_ABORT;
		}
		(void) WaitLatch(MyLatch,
						 WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * After a failed load whose workers committed: drop their staging tables
 * in a transaction of its own, once the leader's aborting transaction has
 * let go of them.
 */
static void
pb_loader_worker_cleanup(PbLoadShared *shared)
{
	pb_xact_begin(NIL);
	pgstat_report_activity(STATE_RUNNING,
						   "polarbench_init: dropping a failed load");
	pb_staging_drop(pb_dataset_at(shared->opts.dataset), &shared->opts);
	pb_xact_commit();
	pgstat_report_activity(STATE_IDLE, NULL);
}
