/*-------------------------------------------------------------------------
 *
 * run_shmem.c
 *	  Access to a run's dynamic shared memory segment: client slots, the
 *	  stop flag and the launcher's latch.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <time.h>

#include "storage/proc.h"

#include "polarbench.h"

/*
 * pb_slot_size
 *		Bytes of one client slot with its histogram and command counters,
 *		rounded up to a cache line so that no two clients share one.
 */
Size
pb_slot_size(int ncommands)
{
	Size		size;

	size = MAXALIGN(sizeof(PbClientSlot));
	size = add_size(size, sizeof(uint64) * PB_HIST_BUCKETS);
	size = add_size(size, mul_size(sizeof(PbCommandStats), ncommands));
	return TYPEALIGN(PG_CACHE_LINE_SIZE, size);
}

/*
 * pb_slot
 *		The slot of a client.
 */
PbClientSlot *
pb_slot(PbRunShared *run, char *slots, int client)
{
	Assert(client >= 0 && client < run->nclients);
	return (PbClientSlot *) (slots + run->slot_size * client);
}

/*
 * pb_slot_histogram
 *		The latency histogram that follows a slot.
 */
uint64 *
pb_slot_histogram(PbClientSlot *slot)
{
	return (uint64 *) ((char *) slot + MAXALIGN(sizeof(PbClientSlot)));
}

/*
 * pb_slot_commands
 *		The per-command counters that follow a slot's histogram.
 */
PbCommandStats *
pb_slot_commands(PbClientSlot *slot)
{
	return (PbCommandStats *) (pb_slot_histogram(slot) + PB_HIST_BUCKETS);
}

/*
 * pb_set_stop
 *		Ask every client to stop for the given reason.  Returns true if this
 *		call set the reason, false if another one was set first.
 */
bool
pb_set_stop(PbRunShared *run, PbStopReason reason)
{
	uint32		expected = PB_STOP_NONE;
	bool		first;

	first = pg_atomic_compare_exchange_u32(&run->stop_reason, &expected,
										   (uint32) reason);
	pg_atomic_write_u32(&run->state, PB_STATE_STOPPING);
	ConditionVariableBroadcast(&run->start_cv);
	pb_wake_launcher(run);
	pb_wake_recorder(run);
	return first;
}

/*
 * pb_fail_run
 *		Record why the run failed, unless a reason was recorded first, and
 *		stop it.  client is the failing client's number, or -1.
 */
void
pb_fail_run(PbRunShared *run, int client, int code, const char *message,
			const char *detail)
{
	SpinLockAcquire(&run->mutex);
	if (run->error_code == 0)
	{
		run->failed_client = client;
		run->error_code = code;
		strlcpy(run->error_message, message ? message : "",
				sizeof(run->error_message));
		strlcpy(run->error_detail, detail ? detail : "",
				sizeof(run->error_detail));
	}
	SpinLockRelease(&run->mutex);
	pb_set_stop(run, PB_STOP_FAILED);
}

/*
 * pb_wake_launcher
 *		Set the launcher's latch, so that it looks at the run again.
 */
void
pb_wake_launcher(PbRunShared *run)
{
	SetLatch(&ProcGlobal->allProcs[run->launcher_pgprocno].procLatch);
}

/*
 * pb_wake_recorder
 *		Set the recorder's latch, if it runs already.
 */
void
pb_wake_recorder(PbRunShared *run)
{
	uint32		procno = pg_atomic_read_u32(&run->recorder_pgprocno);

	if (procno != 0)
		SetLatch(&ProcGlobal->allProcs[procno - 1].procLatch);
}

/*
 * pb_now_ns
 *		The monotonic clock in nanoseconds; comparable across processes.
 */
int64
pb_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64) ts.tv_sec * INT64CONST(1000000000) + ts.tv_nsec;
}
