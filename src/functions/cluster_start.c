/*-------------------------------------------------------------------------
 *
 * cluster_start.c
 *	  polarbench_start(..., nodes => 'all'): a background run's conductor
 *	  (start.c) conducts a run across the Citus cluster as polarbench_run()
 *	  would (cluster_run.c), and the summed run is a background run as any:
 *	  its id is returned once every node has released its clients, it is
 *	  waited for with polarbench_wait() and stopped with polarbench_cancel().
 *
 * Once every node has released its clients, the conductor records the
 * summed run as running (the nodes' parts as they start, merged; node
 * 'all'), with itself as its recorder and a small run segment of its own
 * (its PbRunShared alone, no client slot), and commits, so that the caller
 * and every session see it; only then is the caller given its id.  So:
 *
 *	- polarbench_runs shows it running, its clients every node's, and
 *	  figures->'nodes' each node's part's run id there, whose live figures
 *	  are that node's polarbench_live (the sum has none of its own);
 *	- polarbench_cancel(id) stops it through that segment as any run: the
 *	  conductor wakes, cancels every node's part with polarbench_cancel()
 *	  there (so that each records its figures, canceled), and records the
 *	  sum canceled;
 *	- at its end the conductor records the sum in that row, in place of the
 *	  running one, as polarbench_run() records it;
 *	- if the conductor dies, the row it recorded as running shows failed
 *	  at once (polarbench_run_status()), and each node ends its part when
 *	  the conductor's connection goes.
 *
 * A refusal before the start (a node's check, a node without polarbench)
 * is the caller's error, as any background run's, and nothing started.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "miscadmin.h"
#include "storage/dsm.h"
#include "storage/proc.h"
#include "storage/shm_toc.h"
#include "utils/snapmgr.h"

#include "functions.h"

/* What the conductor of a background run across the cluster keeps */
typedef struct PbClusterStart
{
	dsm_segment *seg;			/* the summed run's segment, once recorded */
	PbRunShared *run;
	void		(*on_started) (int64 run_id, void *arg);
	void	   *on_started_arg;
	bool		told;			/* the caller has the run's id */
} PbClusterStart;

/*
 * pb_cluster_start_commit
 *		Commit what the conductor recorded, so that every session sees it,
 *		and go on in a new transaction, in the memory it was in.
 */
static void
pb_cluster_start_commit(void)
{
	MemoryContext cxt = CurrentMemoryContext;

	PopActiveSnapshot();
	CommitTransactionCommand();
	StartTransactionCommand();
	PushActiveSnapshot(GetTransactionSnapshot());
	MemoryContextSwitchTo(cxt);
}

/*
 * pb_cluster_start_segment
 *		A run segment for the summed run: its shared state alone, through
 *		which polarbench_cancel() stops it and wakes this conductor, its
 *		launcher.  Mapped until the conductor exits, whatever transactions
 *		end meanwhile.
 */
static dsm_segment *
pb_cluster_start_segment(PbRunShared **run_out)
{
	shm_toc_estimator estimator;
	Size		size;
	dsm_segment *seg;
	shm_toc    *toc;
	PbRunShared *run;

	shm_toc_initialize_estimator(&estimator);
	shm_toc_estimate_chunk(&estimator, sizeof(PbRunShared));
	shm_toc_estimate_keys(&estimator, 1);
	size = shm_toc_estimate(&estimator);
	seg = dsm_create(size, 0);
	dsm_pin_mapping(seg);
	toc = shm_toc_create(PB_RUN_MAGIC, dsm_segment_address(seg), size);
	run = shm_toc_allocate(toc, sizeof(PbRunShared));
	memset(run, 0, sizeof(PbRunShared));
	run->database = MyDatabaseId;
	run->role = GetUserId();
	run->launcher_pgprocno = PB_MY_PGPROCNO;
	pg_atomic_init_u32(&run->recorder_pgprocno, 0);
	pg_atomic_init_u32(&run->state, PB_STATE_RUNNING);
	pg_atomic_init_u32(&run->stop_reason, PB_STOP_NONE);
	pg_atomic_init_u32(&run->nready, 0);
	ConditionVariableInit(&run->start_cv);
	SpinLockInit(&run->mutex);
	shm_toc_insert(toc, PB_KEY_RUN, run);
	*run_out = run;
	return seg;
}

/*
 * pb_cluster_start_released
 *		Every node has released its clients: record the summed run as
 *		running, commit, and give its id to the caller.
 */
static int64
pb_cluster_start_released(Jsonb *running, void *arg)
{
	PbClusterStart *cs = arg;
	PbRecordPlace place = {0};
	int64		run_id;

	cs->seg = pb_cluster_start_segment(&cs->run);
	place.running = true;
	place.recorder_pid = MyProcPid;
	place.segment = (int64) dsm_segment_handle(cs->seg);
	run_id = pb_record_document_at(running, "all", &place);
	SpinLockAcquire(&cs->run->mutex);
	cs->run->run_id = run_id;
	SpinLockRelease(&cs->run->mutex);
	pb_cluster_start_commit();
	cs->told = true;
	cs->on_started(run_id, cs->on_started_arg);
	return run_id;
}

/* Whether polarbench_cancel() stopped the summed run. */
static bool
pb_cluster_start_canceled(void *arg)
{
	PbClusterStart *cs = arg;

	return cs->run != NULL &&
		pg_atomic_read_u32(&cs->run->stop_reason) == PB_STOP_CANCELED;
}

/*
 * pb_cluster_start_conduct
 *		The conductor's work for polarbench_start(..., nodes => 'all'), in
 *		its transaction with a snapshot pushed (both new ones on return):
 *		on_started(run_id, arg) once the run is recorded and released, or,
 *		if it ended before every node released its clients, recorded.
 */
void
pb_cluster_start_conduct(FunctionCallInfo fcinfo, void (*on_started) (int64 run_id, void *arg),
						 void *arg)
{
	PbClusterStart cs = {0};
	PbClusterParams params = {0};
	int64		run_id;

	cs.on_started = on_started;
	cs.on_started_arg = arg;
	params.background = true;
	params.release_xmin = true;
	params.on_released = pb_cluster_start_released;
	params.cancel_requested = pb_cluster_start_canceled;
	params.arg = &cs;
	pb_cluster_conduct(fcinfo, &params);
	run_id = pb_cluster_record(&params);

	/* from here on a cancel comes too late: the run is over */
	if (cs.run != NULL)
	{
		uint32		expected = PB_STOP_NONE;

		(void) pg_atomic_compare_exchange_u32(&cs.run->stop_reason, &expected, PB_STOP_DONE);
	}
	pb_cluster_start_commit();
	if (!cs.told)
		on_started(run_id, arg);
	if (cs.seg != NULL)
		dsm_detach(cs.seg);
}
