/*-------------------------------------------------------------------------
 *
 * segment.c
 *	  Access to a run's dynamic shared memory segment: client slots, the
 *	  stop flag, the run's error and the latches of the launcher, the
 *	  recorder and the clients; and how a client reports an error it
 *	  catches, which depends on whether the run is stopping.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "storage/proc.h"

#include "segment.h"

static void pb_wake_clients(PbRunShared *run);

/*
 * pb_slot_size
 *		Bytes of one client slot with its histogram, its command counters
 *		and, with command_histograms, one histogram per command, rounded up
 *		to a cache line so that no two clients share one.
 */
Size
pb_slot_size(int ncommands, bool command_histograms)
{
	Size		size;

	size = MAXALIGN(sizeof(PbClientSlot));
	size = add_size(size, sizeof(uint64) * PB_HIST_BUCKETS);
	size = add_size(size, mul_size(sizeof(PbCommandStats), ncommands));
	if (command_histograms)
		size = add_size(size, mul_size(sizeof(uint64) * PB_HIST_BUCKETS, ncommands));
	return TYPEALIGN(PG_CACHE_LINE_SIZE, size);
}

/*
 * pb_slot_command_histogram
 *		The latency histogram of a command, after the command counters; NULL
 *		when the run keeps none per command.
 */
uint64 *
pb_slot_command_histogram(PbRunShared *run, PbClientSlot *slot, int command)
{
	if (!run->command_histograms)
		return NULL;
	return (uint64 *) (pb_slot_commands(slot) + run->ncommands) +
		(Size) command * PB_HIST_BUCKETS;
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
	pb_wake_clients(run);
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
	pb_fail_run_error(run, client, code, message, detail, NULL, NULL);
}

/*
 * pb_fail_run_hint
 *		pb_fail_run() with a hint for the caller's error.
 */
void
pb_fail_run_hint(PbRunShared *run, int client, int code, const char *message,
				 const char *detail, const char *hint)
{
	pb_fail_run_error(run, client, code, message, detail, hint, NULL);
}

/*
 * pb_fail_run_error
 *		pb_fail_run() with everything the caller's error will say: hint and
 *		context (where in the worker), either may be NULL.
 */
void
pb_fail_run_error(PbRunShared *run, int client, int code, const char *message,
				  const char *detail, const char *hint, const char *context)
{
	SpinLockAcquire(&run->mutex);
	if (run->error.sqlerrcode == 0)
	{
		run->failed_client = client;
		pb_shared_error_set(&run->error, code, message, detail, hint, context);
	}
	SpinLockRelease(&run->mutex);
	pb_set_stop(run, PB_STOP_FAILED);
}

/*
 * pb_abort_client
 *		Record that a client aborted alone with an error (everything the
 *		record of the run will say of it; detail, hint and context may be
 *		NULL), without stopping the run.  The first abort's error stays.
 */
void
pb_abort_client(PbRunShared *run, int client, int code, const char *message,
				const char *detail, const char *hint, const char *context)
{
	SpinLockAcquire(&run->mutex);
	if (run->naborted++ == 0)
	{
		run->aborted_client = client;
		pb_shared_error_set(&run->abort_error, code, message, detail, hint, context);
	}
	SpinLockRelease(&run->mutex);
	pb_wake_launcher(run);
}

/*
 * pb_fail_run_too_long
 *		Fail a run that reached polarbench.max_run_duration.
 */
void
pb_fail_run_too_long(PbRunShared *run)
{
	const char *hint;

	/* what made it last: its transactions, its operations, or its rate */
	if (run->transactions_limit > 0)
		hint = "Run fewer transactions, or ask a superuser to raise polarbench.max_run_duration.";
	else if (run->ops_limit > 0)
		hint = "Run fewer operations (operationcount, or the records of a load), or ask a superuser to raise polarbench.max_run_duration.";
	else
		hint = "Give a shorter duration or a higher rate, or ask a superuser to raise polarbench.max_run_duration.";
	pb_fail_run_hint(run, PB_FAILED_BY_LAUNCHER, ERRCODE_QUERY_CANCELED,
					 psprintf("the run exceeded polarbench.max_run_duration (%d s)",
							  (int) ((run->limit_ns - run->start_ns) / 1000000000)),
					 NULL, hint);
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
 * pb_wake_clients
 *		Set the latch of every client that runs, so that a client sleeping
 *		in \sleep or waiting for the start looks at the run again.
 */
static void
pb_wake_clients(PbRunShared *run)
{
	char	   *slots;

	if (run->slots_offset == 0)
		return;
	slots = (char *) run + run->slots_offset;
	for (int i = 0; i < run->nclients; i++)
	{
		uint32		procno = pg_atomic_read_u32(&pb_slot(run, slots, i)->pgprocno);

		if (procno != 0)
			SetLatch(&ProcGlobal->allProcs[procno - 1].procLatch);
	}
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
 * pb_report_foreign_cancel
 *		After an error longjmp'd back, before it is copied: if it is a
 *		cancel that the run did not send (it is not stopping), report it as
 *		a client's backend reports its errors, to the server log, through
 *		emit_log_hook, where an extension may say what the cancel was.
 *		Citus's distributed deadlock detection cancels one backend of a
 *		deadlock that spans nodes, and its hook makes that error a deadlock
 *		(40P01) as it is reported: the error a client receives, and retries
 *		as any deadlock.  A worker reports no other error it handles: those
 *		are already what a client would receive.
 */
void
pb_report_foreign_cancel(PbRunShared *run)
{
	if (geterrcode() == ERRCODE_QUERY_CANCELED &&
		pg_atomic_read_u32(&run->stop_reason) == PB_STOP_NONE)
		EmitErrorReport();
}
