/*-------------------------------------------------------------------------
 *
 * segment.h
 *	  The dynamic shared memory segment of a run, which its launcher, its
 *	  clients and its recorder share: the run's state, one slot per client,
 *	  and the area of the workload's driver.
 *
 * A run is driven by the backend that called polarbench_run() (the
 * launcher, or a background run's conductor).  It lays the segment out and
 * fills what is set before any worker starts, registers one background
 * worker per client and one recorder, which alone writes the run's rows.
 *
 * The run's state machine.  state moves STARTING -> RUNNING -> STOPPING,
 * and only forward.  The launcher alone sets RUNNING, once every client has
 * reported READY in its slot and the recorder has recorded the run: it
 * writes start_ns, measure_ns, end_ns and limit_ns, then
 * pg_write_barrier(), then state, then broadcasts start_cv; a client that
 * wakes from start_cv and reads RUNNING issues pg_read_barrier() before it
 * reads those times (client_worker.c, recorder_worker.c).  Anyone may stop
 * the run, with pb_set_stop(): stop_reason moves from NONE by one compare-
 * and-exchange, so the first reason wins (CANCELED by the launcher or
 * polarbench_cancel(), FAILED by a client, the launcher or the recorder,
 * ABORTED by a launcher whose workers never all started, DONE by the
 * recorder once it records the end, after which a cancel is too late), and
 * state becomes STOPPING.  A failure's error is written under mutex before
 * its reason is set, and the first error stays.  A client's counters are
 * its own to write, with plain atomic reads and writes; it writes its last
 * ones, then pg_write_barrier(), then status EXITED, which the launcher
 * and the recorder read before they read its counters for the last time
 * (pg_read_barrier()).
 *
 * How a run ends.  A run with a duration ends in two steps: from end_ns no
 * client starts a transaction, and those in flight have until
 * end_ns + grace_ns (pb_run_cutoff()) to finish; then each client cancels
 * its own statement (a timeout it arms as it is released), rolls its
 * transaction back, counts it in cut_off (not as a transaction, a failure
 * or a latency) and exits, its finish_ns the end of the duration.  A stop
 * does not wait: the launcher interrupts (SIGINT) every client's statement
 * as soon as it sees the stop, and a transaction so interrupted is counted
 * in cut_off too.  A client still there PB_CANCEL_WAIT_MS after its
 * statement was canceled (a statement that ignores the cancel) is
 * terminated by the launcher; at the end of the duration the run then
 * fails, as it did not end when it said.  A run of a number of
 * transactions has no end to give a grace after; a stop ends it as any
 * other.
 *
 * A client that aborts alone (an error its driver says ends that client
 * only, as pgbench's clients without --exit-on-abort) stops no one else:
 * it counts itself in naborted under mutex (the first one's error stays),
 * counts nothing of its transaction, closes its slot as any client that
 * leaves (status EXITED), and the run goes on to its end, recorded
 * 'aborted' instead of 'finished'.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_SEGMENT_H
#define PB_SEGMENT_H

#include "postgres.h"

#include <time.h>

#include "port/atomics.h"
#include "storage/condition_variable.h"
#include "storage/dsm.h"
#include "storage/spin.h"

#include "compat.h"
#include "worker.h"
#include "pb_measure.h"
#include "run.h"

/*
 * pb_now_ns
 *		The monotonic clock in nanoseconds; comparable across processes.
 */
static inline int64
pb_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64) ts.tv_sec * INT64CONST(1000000000) + ts.tv_nsec;
}

/*
 * pb_counter_add
 *		Add to a counter that only this process writes: a plain atomic read
 *		and write, no locked instruction.
 */
static inline void
pb_counter_add(pg_atomic_uint64 *counter, uint64 n)
{
	pg_atomic_write_u64(counter, pg_atomic_read_u64(counter) + n);
}

/* magic number of a run's shm_toc */
#define PB_RUN_MAGIC			0x50425231

/* shm_toc keys */
#define PB_KEY_RUN				1
#define PB_KEY_CONFIG			2
#define PB_KEY_SLOTS			3
#define PB_KEY_DRIVER			4

/* Scripts of more commands keep no latency histogram per command */
#define PB_MAX_COMMAND_HISTOGRAMS	64

/* The longest progress line a run relays */
#define PB_PROGRESS_LINE_LEN	1024

/* Run states, in PbRunShared.state */
typedef enum PbRunState
{
	PB_STATE_STARTING = 0,		/* workers preparing */
	PB_STATE_RUNNING,			/* clients released */
	PB_STATE_STOPPING			/* clients told to stop */
} PbRunState;

/* Why a run stops, in PbRunShared.stop_reason; the first reason wins */
typedef enum PbStopReason
{
	PB_STOP_NONE = 0,
	PB_STOP_CANCELED,			/* launcher canceled or gone */
	PB_STOP_FAILED,				/* a client failed */
	PB_STOP_ABORTED,			/* never started: nothing is recorded */
	PB_STOP_DONE				/* ended, the recorder writing its end: too
								 * late to cancel */
} PbStopReason;

/* A client slot's status */
typedef enum PbSlotStatus
{
	PB_SLOT_STARTING = 0,
	PB_SLOT_CONNECTED,			/* logged in, preparing */
	PB_SLOT_READY,
	PB_SLOT_EXITED
} PbSlotStatus;

/* Who failed a run, in PbRunShared.failed_client when not a client */
#define PB_FAILED_BY_LAUNCHER	(-1)
#define PB_FAILED_BY_RECORDER	(-2)

/*
 * Per-command counters, for the per-statement report: a script's commands,
 * or a workload's statements or operations (which may also have a latency
 * histogram each, see PbRunShared.command_histograms).
 */
typedef struct PbCommandStats
{
	pg_atomic_uint64 executions;
	pg_atomic_uint64 failures;
	pg_atomic_uint64 total_ns;
	pg_atomic_uint64 min_ns;	/* PG_UINT64_MAX before the first */
	pg_atomic_uint64 max_ns;
	pg_atomic_uint64 retries;	/* tries started again after its error */
	pg_atomic_uint64 rollbacks; /* ended by the workload's own rollback */
} PbCommandStats;

/*
 * Counters of one client.  Only that client writes them (single writer, so
 * plain atomic reads and writes suffice, no locked instructions); the
 * launcher and the recorder read them.  Each slot starts on a cache line
 * of its own and is followed by its histogram and command counters.
 */
typedef struct PbClientSlot
{
	pg_atomic_uint32 status;	/* PbSlotStatus */
	int			pid;
	pg_atomic_uint32 pgprocno;	/* pgprocno + 1, 0 before it runs */
	pg_atomic_uint64 transactions;	/* finished, successful or not */
	pg_atomic_uint64 failed;		/* failed transactions, every kind */
	pg_atomic_uint64 failed_serialization;	/* of which serialization */
	pg_atomic_uint64 failed_deadlock;	/* of which deadlocks */
	pg_atomic_uint64 failed_other;	/* of which other errors (continue_on_error) */
	pg_atomic_uint64 retried;	/* transactions tried more than once */
	pg_atomic_uint64 retries;	/* tries beyond the first */
	pg_atomic_uint64 skipped;	/* hopelessly late under the rate: not run */
	pg_atomic_uint64 late;		/* successful, above the latency limit */
	pg_atomic_uint64 lag_sum_ns;	/* from scheduled to actual starts */
	pg_atomic_uint64 lag_max_ns;
	pg_atomic_uint64 statements;	/* SQL commands executed */
	pg_atomic_uint64 reads;		/* of which returned rows */
	pg_atomic_uint64 writes;	/* returned none but affected rows */
	pg_atomic_uint64 others;	/* neither */
	pg_atomic_uint64 errors;	/* statement errors ignored, the transaction restarted */
	pg_atomic_uint64 latency_sum_ns;
	pg_atomic_uint64 latency_sumsq; /* double bits, ms^2 */
	pg_atomic_uint64 latency_min_ns;	/* PG_UINT64_MAX before the first */
	pg_atomic_uint64 latency_max_ns;
	pg_atomic_uint64 cut_off;	/* in flight when the run ended, rolled back */
	int64		finish_ns;		/* monotonic clock when the client stopped */
	int64		cpu_ns;			/* CPU time (user and system) it took from
								 * the end of the warm-up to its stop */
	/*
	 * uint64 histogram[PB_HIST_BUCKETS], PbCommandStats[ncommands] and, with
	 * command_histograms, uint64 histogram[PB_HIST_BUCKETS] per command
	 * follow
	 */
} PbClientSlot;

/*
 * The figures of a run's last second, which the recorder computes every
 * second for polarbench_live: its figures of PB_RUN_FIGURES with their
 * NULLs, but transactions and cut_off, the run's so far.
 */
typedef struct PbLiveFigures
{
	bool		valid;			/* computed at least once */
	bool		warming_up;		/* nothing is counted yet */
	double		elapsed;		/* seconds measured so far */
	int			clients;		/* still running */
	double		failed_per_second;
	double		retried_per_second;
	PbRunSummary second;		/* the last second's figures */
	PbFigureState state;		/* which of them are NULL */
} PbLiveFigures;

/* The run's shared state */
typedef struct PbRunShared
{
	/* set by the launcher before any worker starts */
	int			nclients;
	Oid			database;
	Oid			role;
	Oid			owner;			/* extension owner, for the recorder */
	char		schema[NAMEDATALEN];	/* extension schema */
	double		duration;		/* seconds, 0 if none */
	int64		transactions_limit; /* per client, 0 if none */
	int			progress_interval;
	double		rate;			/* transactions per second, 0 if unlimited */
	int64		latency_limit_ns;	/* 0 if none */
	int			max_tries;		/* 0: unlimited */
	double		warmup;			/* seconds not measured at the start */
	int64		grace_ns;		/* after end_ns, for the transactions in flight */
	bool		counters_only;	/* no histogram, per-command or live figures */
	int64		sweep_id;		/* 0 if none, -1 for the run's own id */
	int			sweep_run;		/* its place in the sweep, from 1 */
	int			sweep_set;		/* its setting set, from 1 */
	int			sweep_repeat;	/* its repetition, from 1 */
	int64		unstored_id;	/* on a hot standby, the run's id (negative),
								 * kept in no table; 0 for a recorded run */
	int			ncommands;		/* over all scripts */
	bool		command_histograms; /* a latency histogram per command */
	Size		slot_size;
	Size		slots_offset;	/* of the slots from this struct, same segment */
	int			launcher_pgprocno;
	pg_atomic_uint32 recorder_pgprocno; /* pgprocno + 1, 0 before it runs */

	pg_atomic_uint32 state;		/* PbRunState */
	pg_atomic_uint32 stop_reason;	/* PbStopReason */
	pg_atomic_uint32 nready;	/* clients ready to start */
	ConditionVariable start_cv;
	int64		start_ns;		/* monotonic clock when released */
	int64		measure_ns;		/* when measuring starts: start_ns + warmup */
	int64		end_ns;			/* end of the duration, 0 if none */
	int64		limit_ns;		/* polarbench.max_run_duration's end */

	/*
	 * A budget of operations the clients share, for the whole run: each
	 * takes the next one before a transaction (a workload's operation
	 * count, or the records of a load phase).
	 */
	int64		ops_limit;		/* 0 if none */
	pg_atomic_uint64 ops_claimed;

	slock_t		mutex;			/* protects what follows */
	int64		run_id;			/* assigned by the recorder, 0 before */
	bool		recorder_ready;
	bool		recorder_done;	/* the recorder has exited */
	bool		recorded;		/* the run's final row is committed */
	dsm_handle	document;		/* an unstored run's document, pinned by the
								 * recorder for the launcher; 0 if none */
	int			progress_seq;	/* bumped at each progress record */
	char		progress_line[PB_PROGRESS_LINE_LEN];
	PbLiveFigures live;			/* the last second's figures */
	int			failed_client;	/* client number, or PB_FAILED_BY_* */
	PbSharedError error;		/* why the run failed; the first one wins */

	/*
	 * Clients that aborted alone (a driver's error_aborts_client, pgbench's
	 * default without --exit-on-abort): the run goes on without them, and
	 * is recorded aborted.  The first one's number and error stay.
	 */
	int			naborted;
	int			aborted_client;
	PbSharedError abort_error;
} PbRunShared;

/*
 * pb_slot
 *		The slot of a client.
 */
static inline PbClientSlot *
pb_slot(const PbRunShared *run, char *slots, int client)
{
	Assert(client >= 0 && client < run->nclients);
	return (PbClientSlot *) (slots + run->slot_size * client);
}

/*
 * pb_slot_histogram
 *		The latency histogram that follows a slot.
 */
static inline uint64 *
pb_slot_histogram(PbClientSlot *slot)
{
	return (uint64 *) ((char *) slot + MAXALIGN(sizeof(PbClientSlot)));
}

/*
 * pb_slot_commands
 *		The per-command counters that follow a slot's histogram.
 */
static inline PbCommandStats *
pb_slot_commands(PbClientSlot *slot)
{
	return (PbCommandStats *) (pb_slot_histogram(slot) + PB_HIST_BUCKETS);
}

/*
 * pb_run_deadline
 *		When a client must have stopped: the end of the run's duration, or
 *		of polarbench.max_run_duration, whichever comes first; 0 before the
 *		run starts.
 */
static inline int64
pb_run_deadline(const PbRunShared *run)
{
	if (run->end_ns > 0 && run->end_ns < run->limit_ns)
		return run->end_ns;
	return run->limit_ns;
}

/*
 * pb_run_cutoff
 *		When the statements of the transactions still in flight after the
 *		end of the run's duration are canceled: the end and its grace; 0 for
 *		a run without a duration, or before the run starts.  A grace that
 *		goes past polarbench.max_run_duration's end does not hold it back:
 *		a run still going then fails, and the launcher interrupts it.
 */
static inline int64
pb_run_cutoff(const PbRunShared *run)
{
	if (run->end_ns == 0)
		return 0;
	return run->end_ns + run->grace_ns;
}

/* segment.c */
extern Size pb_slot_size(int ncommands, bool command_histograms);
extern uint64 *pb_slot_command_histogram(PbRunShared *run, PbClientSlot *slot,
										 int command);
extern bool pb_set_stop(PbRunShared *run, PbStopReason reason);
extern void pb_fail_run(PbRunShared *run, int client, int code,
						const char *message, const char *detail);
extern void pb_fail_run_hint(PbRunShared *run, int client, int code,
							 const char *message, const char *detail,
							 const char *hint);
extern void pb_fail_run_error(PbRunShared *run, int client, int code,
							  const char *message, const char *detail,
							  const char *hint, const char *context);
extern void pb_fail_run_too_long(PbRunShared *run);
extern void pb_abort_client(PbRunShared *run, int client, int code,
							const char *message, const char *detail,
							const char *hint, const char *context);
extern void pb_wake_launcher(PbRunShared *run);
extern void pb_wake_recorder(PbRunShared *run);
extern void pb_report_foreign_cancel(PbRunShared *run);

#endif							/* PB_SEGMENT_H */
