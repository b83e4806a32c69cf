/*-------------------------------------------------------------------------
 *
 * client_worker.c
 *	  A benchmark client: a dynamic background worker that runs as the role
 *	  that started the run, prepares the scripts' plans, waits for the
 *	  start, then runs one benchmark transaction after another until the
 *	  run's limit, and counts them in its slot of the run's shared memory.
 *
 * Errors: serialization failures and deadlocks are tried again up to the
 * run's max_tries, with the same random draws, then count as failed
 * transactions and the client goes on, as pgbench does (a cancel is
 * reported first, so that an extension that cancels one backend of a
 * deadlock, as Citus does across nodes, makes it one); any other error
 * fails the run, with the error's SQLSTATE and message handed to the
 * launcher, as pgbench --exit-on-abort ends every client, unless the
 * workload's driver says it fails its transaction only (pgbench's
 * --continue-on-error): then it counts in failed_other, untried again; or
 * that it aborts its client alone (pgbench's default): then that client
 * leaves, the run records the abort, and the others go on.  An error
 * raised because the run was canceled just ends the client.
 *
 * The end of a run with a duration: no transaction starts after it, and
 * those in flight have the run's grace to finish.  Then a timeout the
 * client armed as it was released cancels its statement, as
 * statement_timeout cancels a backend's, whatever it waits for (a lock, a
 * trigger's sleep, a \sleep between the statements of a BEGIN ... END):
 * the transaction is rolled back and counted as cut off, apart from the
 * transactions, failures and latencies, and the client exits.  A
 * transaction the launcher's interrupt of a stopped run ends is cut off
 * the same way.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <sys/resource.h>

#include "access/xact.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "storage/proc.h"
#include "storage/shm_toc.h"
#include "tcop/tcopprot.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/timeout.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "engine.h"

/*
 * Each client draws its numbers from the run's seed plus its number times
 * this odd constant (2^64 over the golden ratio, as splitmix64), so that
 * the clients' streams start far apart.
 */
#define PB_CLIENT_SEED_STRIDE	UINT64CONST(0x9E3779B97F4A7C15)

/* Another odd constant, for the rate limiter's own random stream */
#define PB_THROTTLE_SEED_MIX	UINT64CONST(0xD1B54A32D192ED03)

/* What the client needs after an error longjmps back to its loop */
typedef struct PbClient
{
	PbRunShared *run;
	PbClientSlot *slot;
	const PbDriver *driver;
	PbDriverContext ctx;
	bool		set_up;			/* the driver's state is made */
	int			client_no;
	int64		done;			/* transactions finished or skipped */
	bool		running;		/* past the start barrier */
	bool		clean_exit;		/* leaving by its own decision */
	bool		in_transaction; /* in the driver's transaction() */
	bool		cutoff_armed;	/* the cut-off timeout is enabled */
	TimeoutId	cutoff_timeout;

	/* the transaction in progress, which a retry starts again */
	int64		scheduled_ns;	/* when it should have started */
	int64		begin_ns;		/* when it did */
	int			tries;
	bool		retrying;		/* the next transaction is a retry */
	PbPrng		saved_draws[PB_MAX_DRAWS];

	PbThrottle	throttle;		/* under a rate */
	bool		measuring;		/* the warm-up is over */
	int64		cpu_start_ns;	/* the process's CPU time when it began */
	PbCommandStats *scratch_stats;	/* counted into during the warm-up */
} PbClient;

static PbClient client;

/* the cut-off timeout has fired: the statement's cancel is the run's end */
static volatile sig_atomic_t cutoff_fired = false;

static void pb_client_fail(ErrorData *edata);

/*
 * pb_client_exit
 *		At exit, however it comes: mark the slot exited and wake the launcher
 *		and the recorder, so that neither waits for a client that is gone.
 */
static void
pb_client_exit(int code, Datum arg)
{
	/*
	 * Terminated in the start barrier's sleep, the process still has the
	 * run's condition variable as its sleep target, in the segment that is
	 * detached next: the exit's own cleanup would touch it there.
	 */
	ConditionVariableCancelSleep();
	if (client.slot == NULL)
		return;

	/* terminated, or failed in a way no handler saw: the run fails */
	if (!client.clean_exit &&
		pg_atomic_read_u32(&client.run->stop_reason) == PB_STOP_NONE)
	{
		ErrorData	edata;

		memset(&edata, 0, sizeof(edata));
		edata.sqlerrcode = ERRCODE_ADMIN_SHUTDOWN;
		edata.message = psprintf("benchmark client %d was terminated",
								 client.client_no + 1);
		edata.detail = PB_SEE_LOG;
		pb_client_fail(&edata);
	}
	if (client.slot->finish_ns == 0)
		client.slot->finish_ns = pb_now_ns();
	/*
	 * The statistics' own exit hook runs after this one: flush them first,
	 * so that the recorder, once every client has exited, reads the
	 * server's counters with the whole run in them.
	 */
	if (!IsTransactionOrTransactionBlock())
		pgstat_report_stat(true);
	pg_write_barrier();
	pg_atomic_write_u32(&client.slot->status, PB_SLOT_EXITED);
	pb_wake_launcher(client.run);
	pb_wake_recorder(client.run);
}

/*
 * pb_client_leave
 *		End the client by its own decision: the run is over, or its failure
 *		is already recorded.  A cut-off that fires from here on would cancel
 *		nothing of the run's, and an error raised while the process exits
 *		becomes a FATAL one: it is disarmed first, and a cancel it left
 *		pending forgotten.
 */
static void
pb_client_leave(void)
{
	client.clean_exit = true;
	if (client.cutoff_armed)
	{
		disable_timeout(client.cutoff_timeout, false);
		client.cutoff_armed = false;
	}
	if (cutoff_fired)
		QueryCancelPending = false;
	proc_exit(0);
}

/*
 * pb_client_cutoff_handler
 *		The timeout module's handler, at the run's cut-off: cancel the
 *		statement the client runs, as StatementCancelHandler does for
 *		SIGINT.  Runs in a signal handler.
 */
static void
pb_client_cutoff_handler(void)
{
	cutoff_fired = true;
	QueryCancelPending = true;
	InterruptPending = true;
	SetLatch(MyLatch);
}

/*
 * pb_client_arm_cutoff
 *		Once released: have the timeout module cancel the client's statement
 *		at the run's cut-off, the end of its duration and its grace, if it
 *		has a duration.  The timeout module keeps wall-clock time, the run
 *		monotonic time: the cut-off is converted as a delay from now.
 */
static void
pb_client_arm_cutoff(void)
{
	int64		cutoff = pb_run_cutoff(client.run);
	int64		left_us;

	if (cutoff == 0)
		return;
	left_us = Max(cutoff - pb_now_ns(), 0) / 1000;
	client.cutoff_timeout = RegisterTimeout(USER_TIMEOUT, pb_client_cutoff_handler);
	enable_timeout_at(client.cutoff_timeout,
					  GetCurrentTimestamp() + (TimestampTz) left_us);
	client.cutoff_armed = true;
}

/*
 * pb_client_ended_by_run
 *		Whether an error is the run's end reaching the client: a cancel
 *		after the run was told to stop (the launcher interrupts every
 *		client), or once the run's cut-off has come.
 */
static bool
pb_client_ended_by_run(const ErrorData *edata)
{
	int64		cutoff = pb_run_cutoff(client.run);

	if (edata->sqlerrcode != ERRCODE_QUERY_CANCELED)
		return false;
	if (pg_atomic_read_u32(&client.run->stop_reason) != PB_STOP_NONE)
		return true;
	return cutoff_fired || (cutoff > 0 && pb_now_ns() >= cutoff);
}

/*
 * pb_client_fail
 *		Hand an error to the launcher and stop the run, unless the run was
 *		already stopping (then the error is most likely the cancel itself).
 */
static void
pb_client_fail(ErrorData *edata)
{
	const char *context = edata->context;

	if (pg_atomic_read_u32(&client.run->stop_reason) != PB_STOP_NONE)
		return;
	/* an SQL command's error: say which command */
	if (context == NULL && client.running && client.set_up)
		context = client.driver->error_context(&client.ctx);
	pb_fail_run_error(client.run, client.client_no, edata->sqlerrcode,
					  edata->message, edata->detail, edata->hint, context);
}

/*
 * pb_client_should_stop
 *		Whether the run is over for this client: told to stop, its
 *		transactions done, or its time up.
 */
static inline bool
pb_client_should_stop(int64 now)
{
	PbRunShared *run = client.run;

	if (pg_atomic_read_u32(&run->stop_reason) != PB_STOP_NONE)
		return true;
	if (run->transactions_limit > 0 && client.done >= run->transactions_limit)
		return true;
	if (now >= pb_run_deadline(run))
		return true;
	return false;
}

/*
 * pb_client_claim
 *		Take the next operation of the run's budget, if it has one (YCSB's
 *		operationcount, or the records of its load phase).  Returns false
 *		when the budget is spent.
 */
static inline bool
pb_client_claim(void)
{
	PbRunShared *run = client.run;
	uint64		claimed;

	if (run->ops_limit == 0)
		return true;
	claimed = pg_atomic_fetch_add_u64(&run->ops_claimed, 1);
	client.ctx.op_index = (int64) claimed;
	return claimed < (uint64) run->ops_limit;
}

/*
 * pb_client_wait_start
 *		Report ready and wait until the launcher releases every client, or
 *		stops the run before it starts.  Returns false in the latter case.
 */
static bool
pb_client_wait_start(void)
{
	PbRunShared *run = client.run;

	pg_atomic_write_u32(&client.slot->status, PB_SLOT_READY);
	pg_atomic_fetch_add_u32(&run->nready, 1);
	pb_wake_launcher(run);

	ConditionVariablePrepareToSleep(&run->start_cv);
	while (pg_atomic_read_u32(&run->state) == PB_STATE_STARTING)
		ConditionVariableSleep(&run->start_cv, PG_WAIT_EXTENSION);
	ConditionVariableCancelSleep();
	pg_read_barrier();			/* the start and deadlines were set before */

	return pg_atomic_read_u32(&run->stop_reason) == PB_STOP_NONE;
}

/*
 * pb_client_add_counts
 *		Add one successful transaction's counts, latency (from its
 *		scheduled start, so that a late start counts) and schedule lag to
 *		the client's slot.
 */
static inline void
pb_client_add_counts(PbClientSlot *slot, const PbTxnCounts *counts,
					 int64 latency, int64 lag)
{
	PbRunShared *run = client.run;
	double		ms = latency / 1e6;
	uint64		sumsq_bits;
	double		sumsq;

	pb_counter_add(&slot->transactions, 1);
	pb_counter_add(&slot->statements, counts->statements);
	pb_counter_add(&slot->reads, counts->reads);
	pb_counter_add(&slot->writes, counts->writes);
	pb_counter_add(&slot->others, counts->others);
	if (counts->errors > 0)
		pb_counter_add(&slot->errors, counts->errors);
	pb_counter_add(&slot->latency_sum_ns, latency);
	sumsq_bits = pg_atomic_read_u64(&slot->latency_sumsq);
	memcpy(&sumsq, &sumsq_bits, sizeof(sumsq));
	sumsq += ms * ms;
	memcpy(&sumsq_bits, &sumsq, sizeof(sumsq));
	pg_atomic_write_u64(&slot->latency_sumsq, sumsq_bits);
	if ((uint64) latency > pg_atomic_read_u64(&slot->latency_max_ns))
		pg_atomic_write_u64(&slot->latency_max_ns, latency);
	if ((uint64) latency < pg_atomic_read_u64(&slot->latency_min_ns))
		pg_atomic_write_u64(&slot->latency_min_ns, latency);
	if (!run->counters_only)
		pb_hist_add(pb_slot_histogram(slot), latency);
	if (client.tries > 1)
	{
		pb_counter_add(&slot->retried, 1);
		pb_counter_add(&slot->retries, client.tries - 1);
	}
	if (run->latency_limit_ns > 0 && latency > run->latency_limit_ns)
		pb_counter_add(&slot->late, 1);
	if (run->rate > 0)
	{
		pb_counter_add(&slot->lag_sum_ns, lag);
		if ((uint64) lag > pg_atomic_read_u64(&slot->lag_max_ns))
			pg_atomic_write_u64(&slot->lag_max_ns, lag);
	}
}

/*
 * pb_cpu_ns
 *		The CPU time this process has taken, user and system, in ns.
 */
static int64
pb_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return ((int64) ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000 +
		((int64) ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
}

/*
 * pb_client_start_measuring
 *		At the end of the warm-up: count commands into the slot from now on.
 */
static void
pb_client_start_measuring(void)
{
	client.measuring = true;
	client.cpu_start_ns = pb_cpu_ns();
	client.ctx.stats = pb_slot_commands(client.slot);
	client.ctx.command_hists = client.run->command_histograms ?
		pb_slot_command_histogram(client.run, client.slot, 0) : NULL;
}

/*
 * pb_client_sleep_until
 *		Wait for the scheduled start of a transaction, waking for
 *		interrupts.  Returns false if the run ends first.
 */
static bool
pb_client_sleep_until(int64 target)
{
	PbRunShared *run = client.run;
	int64		now;

	while ((now = pb_now_ns()) < target)
	{
		int64		left = target - now;

		if (pb_client_should_stop(now) || target > pb_run_deadline(run))
			return false;
		if (left >= 1000000)
		{
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
							 left / 1000000, PG_WAIT_EXTENSION);
			ResetLatch(MyLatch);
		}
		else
			pg_usleep(left / 1000);
		CHECK_FOR_INTERRUPTS();
	}
	return true;
}

/*
 * pb_client_schedule
 *		When the next transaction is due: when the workload's driver says,
 *		or now, or under a rate the next
 *		start of the client's Poisson schedule, skipping (as pgbench -R -L
 *		does) those already later than the latency limit, then sleeping
 *		until it.  Returns false if the run ends first.
 */
static bool
pb_client_schedule(int64 *now)
{
	PbRunShared *run = client.run;
	int64		due = client.driver->schedule ?
		client.driver->schedule(&client.ctx, *now) : 0;

	if (due > 0)
	{
		/* the workload's own schedule: its terminals' keying and thinking */
		client.scheduled_ns = due;
		if (run->end_ns > 0 && due > run->end_ns)
			return false;
		if (!pb_client_sleep_until(due))
			return false;
		*now = pb_now_ns();
		return true;
	}
	if (run->rate == 0)
	{
		client.scheduled_ns = *now;
		return true;
	}
	for (;;)
	{
		client.scheduled_ns = pb_throttle_next(&client.throttle);
		if (run->end_ns > 0 && client.scheduled_ns > run->end_ns)
			return false;
		if (run->latency_limit_ns == 0 ||
			client.scheduled_ns >= *now - run->latency_limit_ns)
			break;
		/*
		 * hopeless: counted as skipped, toward the transactions too, and
		 * for what the driver chose to run, as pgbench counts it for the
		 * script it chose before it throttled
		 */
		client.done++;
		if (client.scheduled_ns >= run->measure_ns)
		{
			pb_counter_add(&client.slot->skipped, 1);
			if (client.driver->transaction_ended != NULL)
				client.driver->transaction_ended(&client.ctx, PB_TXN_SKIPPED, 0, 0);
		}
		if (pb_client_should_stop(*now))
			return false;
	}
	if (!pb_client_sleep_until(client.scheduled_ns))
		return false;
	*now = pb_now_ns();
	return true;
}

/*
 * pb_client_begin
 *		Start a new transaction (not a retry): keep its random draws, and
 *		end the warm-up if it is over.
 */
static inline void
pb_client_begin(int64 now)
{
	client.begin_ns = now;
	client.tries = 1;
	if (client.run->max_tries != 1)
		for (int i = 0; i < client.ctx.ndraws; i++)
			client.saved_draws[i] = *client.ctx.draws[i];
	if (!client.measuring && now >= client.run->measure_ns)
		pb_client_start_measuring();
}

/*
 * pb_client_loop
 *		Run transactions until the run is over.  Each one is timed from its
 *		scheduled start to its end, \sleep, restarts and retries included,
 *		as pgbench does.
 */
static void
pb_client_loop(void)
{
	PbClientSlot *slot = client.slot;
	int64		now = pb_now_ns();

	for (;;)
	{
		PbTxnCounts counts = {0};

		if (client.retrying)
			client.retrying = false;
		else
		{
			if (pb_client_should_stop(now))
				break;
			if (client.driver->choose != NULL)
				client.driver->choose(&client.ctx);
			if (!pb_client_schedule(&now) || !pb_client_claim())
				break;
			pb_client_begin(now);
		}

		CHECK_FOR_INTERRUPTS();

		/* a retry's commands are timed from where the retry starts */
		client.ctx.txn_begin_ns = now;
		client.ctx.txn_end_ns = 0;
		client.in_transaction = true;
		if (!client.driver->transaction(&client.ctx, &counts))
		{
			/* the run ended in the transaction: it does not count */
			client.in_transaction = false;
			now = pb_now_ns();
			break;
		}
		client.in_transaction = false;
		now = client.ctx.txn_end_ns != 0 ? client.ctx.txn_end_ns : pb_now_ns();
		client.done++;
		if (client.measuring)
		{
			pb_client_add_counts(slot, &counts, now - client.scheduled_ns,
								 client.begin_ns - client.scheduled_ns);
			if (client.driver->transaction_ended != NULL)
				client.driver->transaction_ended(&client.ctx, PB_TXN_SUCCEEDED,
												 now - client.scheduled_ns,
												 client.tries);
		}
	}
	slot->finish_ns = now;
	if (client.measuring)
		slot->cpu_ns = pb_cpu_ns() - client.cpu_start_ns;

	/*
	 * Stopped by polarbench.max_run_duration, not by the run's own end: its
	 * time is up, or, under a rate, its next transaction was due after it.
	 */
	if (Max(now, client.scheduled_ns) >= client.run->limit_ns &&
		(client.run->end_ns == 0 || client.run->end_ns > client.run->limit_ns) &&
		(client.run->transactions_limit == 0 ||
		 client.done < client.run->transactions_limit) &&
		(client.run->ops_limit == 0 ||
		 pg_atomic_read_u64(&client.run->ops_claimed) < (uint64) client.run->ops_limit))
		pb_fail_run_too_long(client.run);
}

/*
 * pb_client_may_retry
 *		Whether a transaction that failed with a serialization failure or a
 *		deadlock is tried again, as pgbench's doRetry: tries left, still
 *		within the latency limit, and the run not over.
 */
static bool
pb_client_may_retry(void)
{
	PbRunShared *run = client.run;
	int64		now = pb_now_ns();

	if (run->max_tries != 0 && client.tries >= run->max_tries)
		return false;
	if (run->latency_limit_ns > 0 &&
		now - client.scheduled_ns > run->latency_limit_ns)
		return false;
	return !pb_client_should_stop(now);
}

/*
 * pb_client_count_failure
 *		Count a transaction that failed for good with a serialization
 *		failure or a deadlock, or with another error its driver lets fail
 *		it alone (other): it ends, and the client goes on.
 */
static void
pb_client_count_failure(int sqlerrcode, bool other)
{
	PbClientSlot *slot = client.slot;

	client.done++;
	if (!client.measuring)
		return;
	pb_counter_add(&slot->transactions, 1);
	pb_counter_add(&slot->failed, 1);
	if (other)
		pb_counter_add(&slot->failed_other, 1);
	else if (sqlerrcode == ERRCODE_T_R_SERIALIZATION_FAILURE)
		pb_counter_add(&slot->failed_serialization, 1);
	else
		pb_counter_add(&slot->failed_deadlock, 1);
	if (client.tries > 1)
	{
		pb_counter_add(&slot->retried, 1);
		pb_counter_add(&slot->retries, client.tries - 1);
	}
	if (client.driver->transaction_ended != NULL)
		client.driver->transaction_ended(&client.ctx,
										 other ? PB_TXN_FAILED_OTHER :
										 sqlerrcode == ERRCODE_T_R_SERIALIZATION_FAILURE ?
										 PB_TXN_FAILED_SERIALIZATION : PB_TXN_FAILED_DEADLOCK,
										 0, client.tries);
}

/*
 * pb_client_cut_off
 *		The run ended while the client ran (its cut-off came, or it was
 *		stopped), and the transaction in flight, if any, is rolled back:
 *		count it apart, and close the client's measurement at the end of
 *		the duration (or at the stop, if that came first), not where the
 *		grace ended, which no transaction of the client's used.
 */
static void
pb_client_cut_off(void)
{
	PbRunShared *run = client.run;
	int64		now = pb_now_ns();

	if (client.in_transaction && client.measuring)
		pb_counter_add(&client.slot->cut_off, 1);
	client.in_transaction = false;
	client.slot->finish_ns = run->end_ns > 0 && now > run->end_ns ?
		run->end_ns : now;
	if (client.measuring)
		client.slot->cpu_ns = pb_cpu_ns() - client.cpu_start_ns;
}

/*
 * pb_client_abort_alone
 *		End this client alone after an error its driver says aborts it, as
 *		a pgbench client aborts without --exit-on-abort: its transaction
 *		counts in nothing, the run records the abort (the first one's error
 *		and where it came from), and the other clients go on to the run's
 *		end.  Nothing is recorded if the run is stopping already: the error
 *		is then most likely the stop's cancel.
 */
static void
pb_client_abort_alone(ErrorData *edata)
{
	const char *context;

	client.slot->finish_ns = pb_now_ns();
	if (client.measuring)
		client.slot->cpu_ns = pb_cpu_ns() - client.cpu_start_ns;
	if (pg_atomic_read_u32(&client.run->stop_reason) != PB_STOP_NONE)
		return;
	/* where in the workload, as pgbench says it, rather than SPI's context */
	context = client.set_up ? client.driver->error_context(&client.ctx) :
		edata->context;
	pb_abort_client(client.run, client.client_no, edata->sqlerrcode,
					edata->message, edata->detail, edata->hint, context);
}

/*
 * pb_client_handle_error
 *		Called after an error escaped a transaction.  Returns true if the
 *		client goes on: with the same transaction again (a serialization
 *		failure or deadlock with tries left, its random draws restored), or
 *		with its next one (the failure counted: of those two, or of another
 *		error its driver lets fail the transaction alone, as pgbench's
 *		--continue-on-error).  Returns false if it must end: the run ended
 *		in the transaction (cut off), or failed, or the client aborted alone.
 */
static bool
pb_client_handle_error(MemoryContext loop_cxt)
{
	ErrorData  *edata;
	bool		retryable;
	bool		other;
	int			command;

	/* not using PG_TRY, so reset the error context stack by hand */
	error_context_stack = NULL;
	HOLD_INTERRUPTS();
	/* an error in the start barrier's sleep (a cancel) left it queued */
	ConditionVariableCancelSleep();
	MemoryContextSwitchTo(loop_cxt);
	/* a cancel from elsewhere, as a client would receive it */
	pb_report_foreign_cancel(client.run);
	edata = CopyErrorData();
	FlushErrorState();
	client.ctx.error_fails_transaction = false;
	client.ctx.error_aborts_client = false;
	if (client.set_up)
		client.driver->abort(&client.ctx);
	else
		AbortCurrentTransaction();
	MemoryContextSwitchTo(loop_cxt);
	RESUME_INTERRUPTS();

	if (client.running && pb_client_ended_by_run(edata))
	{
		pb_client_cut_off();
		FreeErrorData(edata);
		return false;
	}
	client.in_transaction = false;

	retryable = client.running &&
		(edata->sqlerrcode == ERRCODE_T_R_SERIALIZATION_FAILURE ||
		 edata->sqlerrcode == ERRCODE_T_R_DEADLOCK_DETECTED);
	/* another error its driver lets fail the transaction alone */
	other = client.running && !retryable && client.ctx.error_fails_transaction;
	command = client.running ? client.ctx.current_command : -1;

	if (retryable && pb_client_may_retry())
	{
		if (command >= 0)
			pb_counter_add(&client.ctx.stats[command].retries, 1);
		for (int i = 0; i < client.ctx.ndraws; i++)
			*client.ctx.draws[i] = client.saved_draws[i];
		client.tries++;
		client.retrying = true;
		FreeErrorData(edata);
		return true;
	}

	if (retryable && pb_client_should_stop(pb_now_ns()))
	{
		/* cut short by the run's end, as pgbench's timer: not counted */
		FreeErrorData(edata);
		return true;
	}
	if (command >= 0)
		pb_counter_add(&client.ctx.stats[command].failures, 1);
	if (retryable || other)
	{
		pb_client_count_failure(edata->sqlerrcode, other);
		FreeErrorData(edata);
		return true;
	}

	if (client.running && client.ctx.error_aborts_client)
		pb_client_abort_alone(edata);
	else
		pb_client_fail(edata);
	FreeErrorData(edata);
	return false;
}

/*
 * pb_client_setup
 *		Have the workload's driver build and prepare what the client runs.
 */
static void
pb_client_setup(PbRunConfig *config, char *slots)
{
	client.driver = pb_driver(config->kind);
	client.ctx.run = client.run;
	client.ctx.slots = slots;
	client.ctx.slot = client.slot;
	client.ctx.config = config;
	client.ctx.client_no = client.client_no;
	client.ctx.seed = (uint64) config->random_seed +
		(uint64) (client.client_no + 1) * PB_CLIENT_SEED_STRIDE;
	client.ctx.op_index = -1;
	client.ctx.current_command = -1;
	/* until the warm-up ends, commands are counted where nobody looks */
	client.scratch_stats = palloc0(sizeof(PbCommandStats) *
								   Max(client.run->ncommands, 1));
	client.ctx.stats = client.scratch_stats;
	client.ctx.command_hists = NULL;
	if (config->nsettings > 0)
	{
		SetCurrentStatementStartTimestamp();
		StartTransactionCommand();
		pb_settings_apply(config);
		CommitTransactionCommand();
	}
	client.driver->setup(&client.ctx);
	client.set_up = true;
}

/*
 * pb_client_main
 *		Entry point of a client worker.  main_arg is the run's segment handle,
 *		bgw_extra the client's number.
 */
void
pb_client_main(Datum main_arg)
{
	dsm_segment *seg;
	shm_toc    *toc;
	char	   *slots;
	MemoryContext loop_cxt;
	sigjmp_buf	local_sigjmp_buf;
	char		num[32];

	client.client_no = pb_worker_index();
	seg = pb_worker_attach(main_arg, "polarbench client");
	toc = shm_toc_attach(PB_RUN_MAGIC, dsm_segment_address(seg));
	if (toc == NULL)
		elog(ERROR, "invalid polarbench run segment");
	client.run = shm_toc_lookup(toc, PB_KEY_RUN, false);
	slots = shm_toc_lookup(toc, PB_KEY_SLOTS, false);
	client.slot = pb_slot(client.run, slots, client.client_no);
	client.ctx.shared = shm_toc_lookup(toc, PB_KEY_DRIVER, false);
	client.slot->pid = MyProcPid;
	pg_atomic_write_u32(&client.slot->pgprocno, PB_MY_PGPROCNO + 1);
	before_shmem_exit(pb_client_exit, (Datum) 0);

	BackgroundWorkerInitializeConnectionByOid(client.run->database,
											  client.run->role, 0);
	pg_atomic_write_u32(&client.slot->status, PB_SLOT_CONNECTED);
	pb_wake_launcher(client.run);
	snprintf(num, sizeof(num), "polarbench client %d", client.client_no + 1);
	pgstat_report_appname(num);

	loop_cxt = AllocSetContextCreate(TopMemoryContext, "polarbench client",
									 ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(loop_cxt);

	/* From here on an error comes back here instead of killing the worker. */
	if (sigsetjmp(local_sigjmp_buf, 1) != 0)
	{
		if (!pb_client_handle_error(loop_cxt))
			pb_client_leave();
		/* a failed transaction: go on with the next one */
		PG_exception_stack = &local_sigjmp_buf;
		pb_client_loop();
		pb_client_leave();
	}
	PG_exception_stack = &local_sigjmp_buf;

	pb_client_setup(pb_config_deserialize(shm_toc_lookup(toc, PB_KEY_CONFIG, false)),
					slots);

	if (!pb_client_wait_start())
		pb_client_leave();
	client.running = true;
	pb_client_arm_cutoff();
	if (client.run->rate > 0)
		pb_throttle_init(&client.throttle,
						 client.run->rate / client.run->nclients,
						 client.run->start_ns,
						 client.ctx.seed ^ PB_THROTTLE_SEED_MIX);
	pgstat_report_activity(STATE_RUNNING, "polarbench: running");

	pb_client_loop();
	pb_client_leave();
}
