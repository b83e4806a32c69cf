/*-------------------------------------------------------------------------
 *
 * client_worker.c
 *	  A benchmark client: a dynamic background worker that runs as the role
 *	  that started the run, prepares the scripts' plans, waits for the
 *	  start, then runs one benchmark transaction after another until the
 *	  run's limit, and counts them in its slot of the run's shared memory.
 *
 * Errors: serialization failures and deadlocks count as failed
 * transactions and the client goes on, as pgbench does; any other error
 * fails the run, with the error's SQLSTATE and message handed to the
 * launcher.  An error raised because the run was canceled just ends the
 * client.
 *
 * calls: worker.c, run_shmem.c, histogram.c, run_config.c, script_exec.c; of
 * the script library, script_set.c, client_vars.c, random_dist.c,
 * script_choice.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

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
#include "utils/wait_event.h"

#include "run.h"

/*
 * Each client draws its numbers from the run's seed plus its number times
 * this odd constant (2^64 over the golden ratio, as splitmix64), so that
 * the clients' streams start far apart.
 */
#define PB_CLIENT_SEED_STRIDE	UINT64CONST(0x9E3779B97F4A7C15)

/* What the client needs after an error longjmps back to its loop */
typedef struct PbClient
{
	PbRunShared *run;
	PbClientSlot *slot;
	const PbDriver *driver;
	PbDriverContext ctx;
	bool		set_up;			/* the driver's state is made */
	int			client_no;
	int64		done;			/* transactions finished */
	bool		running;		/* past the start barrier */
	bool		clean_exit;		/* leaving by its own decision */
} PbClient;

static PbClient client;

static void pb_client_fail(ErrorData *edata);

/*
 * pb_client_exit
 *		At exit, however it comes: mark the slot exited and wake the launcher
 *		and the recorder, so that neither waits for a client that is gone.
 */
static void
pb_client_exit(int code, Datum arg)
{
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
	pg_write_barrier();
	pg_atomic_write_u32(&client.slot->status, PB_SLOT_EXITED);
	pb_wake_launcher(client.run);
	pb_wake_recorder(client.run);
}

/*
 * pb_client_leave
 *		End the client by its own decision: the run is over, or its failure
 *		is already recorded.
 */
static void
pb_client_leave(void)
{
	client.clean_exit = true;
	proc_exit(0);
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
 *		Add one transaction's counts and latency to the client's slot.
 */
static inline void
pb_client_add_counts(PbClientSlot *slot, uint64 *hist, const PbTxnCounts *counts,
					 int64 latency)
{
	double		ms = latency / 1e6;
	uint64		sumsq_bits;
	double		sumsq;

	client.done++;
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
	pb_hist_add(hist, latency);
}

/*
 * pb_client_loop
 *		Run transactions until the run is over.  Each one is timed from its
 *		start to its end, \sleep and restarts included, as pgbench and
 *		sysbench do.
 */
static void
pb_client_loop(void)
{
	PbClientSlot *slot = client.slot;
	uint64	   *hist = pb_slot_histogram(slot);
	int64		now = pb_now_ns();

	while (!pb_client_should_stop(now) && pb_client_claim())
	{
		PbTxnCounts counts = {0};
		int64		start = now;

		CHECK_FOR_INTERRUPTS();

		if (!client.driver->transaction(&client.ctx, &counts))
		{
			/* the run ended in the transaction: it does not count */
			now = pb_now_ns();
			break;
		}
		now = pb_now_ns();
		pb_client_add_counts(slot, hist, &counts, now - start);
	}
	slot->finish_ns = now;

	/* stopped by polarbench.max_run_duration, not by the run's own end */
	if (now >= client.run->limit_ns &&
		(client.run->end_ns == 0 || client.run->end_ns > client.run->limit_ns) &&
		(client.run->transactions_limit == 0 ||
		 client.done < client.run->transactions_limit) &&
		(client.run->ops_limit == 0 ||
		 pg_atomic_read_u64(&client.run->ops_claimed) < (uint64) client.run->ops_limit))
		pb_fail_run_too_long(client.run);
}

/*
 * pb_client_handle_error
 *		Called after an error escaped a transaction.  Returns true if the
 *		client goes on with its next transaction (a serialization failure or
 *		deadlock, counted as failed), false if it must end.
 */
static bool
pb_client_handle_error(MemoryContext loop_cxt)
{
	ErrorData  *edata;
	bool		retryable;

	/* not using PG_TRY, so reset the error context stack by hand */
	error_context_stack = NULL;
	HOLD_INTERRUPTS();
	/* an error in the start barrier's sleep (a cancel) left it queued */
	ConditionVariableCancelSleep();
	MemoryContextSwitchTo(loop_cxt);
	edata = CopyErrorData();
	FlushErrorState();
	if (client.set_up)
		client.driver->abort(&client.ctx);
	else
		AbortCurrentTransaction();
	MemoryContextSwitchTo(loop_cxt);
	RESUME_INTERRUPTS();

	retryable = client.running &&
		(edata->sqlerrcode == ERRCODE_T_R_SERIALIZATION_FAILURE ||
		 edata->sqlerrcode == ERRCODE_T_R_DEADLOCK_DETECTED);

	if (client.running && client.ctx.current_command >= 0)
		pb_counter_add(&client.ctx.stats[client.ctx.current_command].failures, 1);

	if (retryable)
	{
		client.done++;
		pb_counter_add(&client.slot->transactions, 1);
		pb_counter_add(&client.slot->failed, 1);
		FreeErrorData(edata);
		return true;
	}

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
	client.ctx.stats = pb_slot_commands(client.slot);
	client.ctx.config = config;
	client.ctx.client_no = client.client_no;
	client.ctx.seed = (uint64) config->random_seed +
		(uint64) (client.client_no + 1) * PB_CLIENT_SEED_STRIDE;
	client.ctx.op_index = -1;
	client.ctx.current_command = -1;
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
	pgstat_report_activity(STATE_RUNNING, "polarbench: running");

	pb_client_loop();
	pb_client_leave();
}
