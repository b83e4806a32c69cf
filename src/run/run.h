/*-------------------------------------------------------------------------
 *
 * run.h
 *	  Declarations shared by the run engine: the dynamic shared memory
 *	  segment that a run's launcher, clients and recorder share, and the
 *	  functions each of those files exports.
 *
 * A run is driven by the backend that called polarbench_run() (the
 * launcher).  It starts one background worker per client and one recorder,
 * which alone writes the run's rows into the result tables, in transactions
 * of its own, so that other sessions see a run while it goes on.
 *
 *-------------------------------------------------------------------------
 */
#ifndef POLARBENCH_H
#define POLARBENCH_H

#include "postgres.h"

#include "port/atomics.h"
#include "storage/condition_variable.h"
#include "storage/dsm.h"
#include "storage/latch.h"
#include "storage/spin.h"
#include "datatype/timestamp.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "nodes/params.h"
#include "utils/hsearch.h"
#include "utils/jsonb.h"

#include "compat.h"
#include "worker.h"
#include "pb_script.h"
#include "pb_workload.h"
#include "pb_measure.h"

#include <time.h>

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
 * a sysbench workload's statements, or YCSB's operations (which also have
 * a latency histogram each, see PbRunShared.command_histograms).
 */
typedef struct PbCommandStats
{
	pg_atomic_uint64 executions;
	pg_atomic_uint64 failures;
	pg_atomic_uint64 total_ns;
	pg_atomic_uint64 min_ns;	/* PG_UINT64_MAX before the first */
	pg_atomic_uint64 max_ns;
	pg_atomic_uint64 retries;	/* tries started again after its error */
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
	pg_atomic_uint64 failed;		/* serialization or deadlock failures */
	pg_atomic_uint64 failed_serialization;	/* of which serialization */
	pg_atomic_uint64 failed_deadlock;	/* of which deadlocks */
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
	int64		finish_ns;		/* monotonic clock when the client stopped */
	int64		cpu_ns;			/* CPU time (user and system) it took from
								 * the end of the warm-up to its stop */
	int64		key_in_flight;	/* YCSB insert key not yet acknowledged, or
								 * -1; under PbRunShared.keys_mutex */
	/*
	 * uint64 histogram[PB_HIST_BUCKETS], PbCommandStats[ncommands] and, with
	 * command_histograms, uint64 histogram[PB_HIST_BUCKETS] per command
	 * follow
	 */
} PbClientSlot;

/*
 * The figures of a run's last second, which the recorder computes every
 * second for polarbench_live; latencies in ms, NaN when not measured.
 */
typedef struct PbLiveFigures
{
	bool		valid;			/* computed at least once */
	bool		warming_up;		/* nothing is counted yet */
	double		elapsed;		/* seconds measured so far */
	int			clients;		/* still running */
	int64		transactions;	/* so far, successful */
	double		tps;
	double		qps;
	double		failed_per_second;
	double		retried_per_second;
	double		latency_avg;
	double		latency_p50;
	double		latency_p90;
	double		latency_p95;
	double		latency_p99;
	double		latency_p999;
	double		latency_max;
	double		lag_avg;
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
	bool		counters_only;	/* no histogram, per-command or live figures */
	int64		sweep_id;		/* 0 if none, -1 for the run's own id */
	int			sweep_run;		/* its place in the sweep, from 1 */
	int			sweep_set;		/* its setting set, from 1 */
	int			sweep_repeat;	/* its repetition, from 1 */
	int64		unstored_id;	/* on a hot standby, the run's id (negative),
								 * kept in no table; 0 for a recorded run */
	int			kind;			/* PbWorkloadKind */
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
	 * Work the clients share: a budget of operations for the whole run
	 * (YCSB's operationcount and load phase), sysbench.rand.unique()'s
	 * sequence, and YCSB's insert keys (AcknowledgedCounterGenerator):
	 * next_key is the next to hand out, acked_key the highest below which
	 * every key handed out has been inserted.
	 */
	int64		ops_limit;		/* 0 if none */
	pg_atomic_uint64 ops_claimed;
	pg_atomic_uint32 unique_index;
	slock_t		keys_mutex;		/* protects next_key, slots' key_in_flight */
	int64		next_key;
	pg_atomic_uint64 acked_key;	/* int64, only grows */

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
} PbRunShared;

/* The figures of a run or of one progress interval */
typedef struct PbRunSummary
{
	double		seconds;
	int64		transactions;
	int64		statements;
	int64		failed;
	int64		reads;
	int64		writes;
	int64		others;
	int64		errors;
	double		tps;
	double		qps;
	double		latency_avg;	/* ms */
	double		latency_stddev;
	double		latency_min;
	double		latency_p50;
	double		latency_p90;
	double		latency_p95;
	double		latency_p99;
	double		latency_p999;
	double		latency_max;
	int			pct;			/* a percentile asked for (sysbench's) */
	double		latency_pct;	/* the latency at it */
	int64		failed_serialization;
	int64		failed_deadlock;
	int64		retried;
	int64		retries;
	int64		skipped;
	int64		late;
	double		lag_avg;		/* ms, over successful transactions */
	double		lag_max;
} PbRunSummary;

/* Cumulative totals of all clients at one instant */
typedef struct PbTotals
{
	int64		transactions;
	int64		statements;
	int64		failed;
	int64		reads;
	int64		writes;
	int64		others;
	int64		errors;
	int64		latency_sum_ns;
	double		latency_sumsq;
	int64		failed_serialization;
	int64		failed_deadlock;
	int64		retried;
	int64		retries;
	int64		skipped;
	int64		late;
	int64		lag_sum_ns;
} PbTotals;

/*
 * The run's configuration as the launcher resolved it: what every worker
 * needs to rebuild the script set.  Serialized into the segment.
 */
typedef struct PbRunConfig
{
	char	   *workload;		/* display name, e.g. "tpcb-like" */
	int			kind;			/* PbWorkloadKind */
	/* sysbench and YCSB: PbSysbenchOptions or PbYcsbOptions, and as JSON */
	void	   *options;
	Size		options_size;
	char	   *options_hex;	/* options as they travel (run_config.c) */
	char	   *options_json;
	int			nscripts;
	char	  **script_names;
	char	  **script_texts;
	int		   *weights;
	int			nvars;
	char	  **var_names;
	char	  **var_values;
	char	   *vars_json;		/* as given, for the record, or NULL */
	int64		random_seed;
	/* server parameters every client sets (run_settings.c) */
	int			nsettings;
	char	  **setting_names;
	char	  **setting_values;
	char	   *settings_json;	/* as given, for the record, or NULL */
	char	   *effective_json; /* the values that matter, as the run has them */
	/* parameters set with ALTER SYSTEM for the run (run_server_settings.c) */
	int			nserver_settings;
	char	  **server_names;
	char	  **server_values;
	char	  **server_previous;	/* in postgresql.auto.conf before, or NULL */
	bool		server_journaled;	/* the journal is written: to be put back */
	char	   *server_settings_json;	/* as given, for the record, or NULL */
} PbRunConfig;

/* What the caller asks of a run, beside its scripts */
typedef struct PbRunParams
{
	int			nclients;
	double		duration;		/* seconds, 0 if none */
	int64		transactions;	/* per client, 0 if none */
	int			progress;		/* seconds between reports, 0 if none */
	double		rate;			/* transactions per second, 0 if unlimited */
	double		latency_limit;	/* ms, 0 if none */
	int			max_tries;		/* 0: unlimited */
	double		warmup;			/* seconds */
	bool		counters_only;
	int			ncommands;		/* over all scripts */
	bool		command_histograms; /* a latency histogram per command */
	int64		ops_limit;		/* operations of the whole run, 0 if none */
	int64		first_key;		/* YCSB: the first insert key */
	Oid			owner;			/* extension owner */
	const char *schema;			/* extension schema */
	bool		release_xmin;	/* the caller's snapshot is not needed */
	/* a run of a sweep: the sweep's id (-1: the run's own), its place in it */
	int64		sweep_id;
	int			sweep_run;
	int			sweep_set;
	int			sweep_repeat;
	/* on a hot standby: the run's negative id; its rows are kept in no table */
	int64		unstored_id;
	/* only check the run, as a sweep does of its runs before the first */
	bool		check_only;
	/* called once the run is recorded and its clients released, or NULL */
	void		(*on_started) (int64 run_id, void *arg);
	void	   *on_started_arg;
} PbRunParams;

/* What a finished run gives back */
typedef struct PbRunResult
{
	int64		run_id;
	double		seconds;
	PbRunSummary summary;
} PbRunResult;

/* What one benchmark transaction did; added to the client's slot after it */
typedef struct PbTxnCounts
{
	int64		statements;
	int64		reads;
	int64		writes;
	int64		others;
	int64		errors;
} PbTxnCounts;

/*
 * pb_count_statement
 *		Count a statement that ran as sysbench counts queries: one that
 *		returned a result set (even empty) is a read, one that did not is a
 *		write if it affected rows, else other.
 */
static inline void
pb_count_statement(PbTxnCounts *counts, bool returned_rows, uint64 processed)
{
	counts->statements++;
	if (returned_rows)
		counts->reads++;
	else if (processed > 0)
		counts->writes++;
	else
		counts->others++;
}

/*
 * A client's view of its run, in which the driver of its workload (the
 * engine of pgbench scripts, of sysbench's or of YCSB's workloads) works.
 */
/* The most random streams a driver draws a transaction's numbers from */
#define PB_MAX_DRAWS			2

typedef struct PbDriverContext
{
	PbRunShared *run;
	char	   *slots;
	PbClientSlot *slot;
	PbCommandStats *stats;		/* the slot's per-command counters */
	const PbRunConfig *config;
	int			client_no;
	uint64		seed;			/* of this client's random numbers */
	int64		op_index;		/* operation claimed from the run's budget, or -1 */
	int			current_command;	/* of stats, while it runs; -1 if none */
	void	   *state;			/* the driver's */

	/*
	 * The clock at the transaction's start, set by the client; and at its
	 * end, set by a driver that read it anyway (else 0): a clock read costs
	 * as much as a meta-command, so none is made twice.
	 */
	int64		txn_begin_ns;
	int64		txn_end_ns;

	/*
	 * Where commands are counted: the slot's counters and per-command
	 * histograms (NULL when the run keeps none), or scratch ones during the
	 * warm-up.
	 */
	uint64	   *command_hists;

	/*
	 * The random streams a transaction draws from, which the driver names
	 * at set-up: a transaction tried again after a serialization failure
	 * or deadlock draws the same numbers, as pgbench's retries do.
	 */
	PbPrng	   *draws[PB_MAX_DRAWS];
	int			ndraws;
} PbDriverContext;

/*
 * pb_command_hist
 *		The latency histogram of a command, NULL when the run keeps none.
 */
static inline uint64 *
pb_command_hist(const PbDriverContext *ctx, int command)
{
	if (ctx->command_hists == NULL)
		return NULL;
	return ctx->command_hists + (Size) command * PB_HIST_BUCKETS;
}

/*
 * pb_command_done
 *		Count one execution of a command that took ns, into its counters and
 *		its histogram when it has one (hist may be NULL).
 */
static inline void
pb_command_done(PbCommandStats *stats, int64 ns, uint64 *hist)
{
	pb_counter_add(&stats->executions, 1);
	pb_counter_add(&stats->total_ns, ns);
	if ((uint64) ns < pg_atomic_read_u64(&stats->min_ns))
		pg_atomic_write_u64(&stats->min_ns, ns);
	if ((uint64) ns > pg_atomic_read_u64(&stats->max_ns))
		pg_atomic_write_u64(&stats->max_ns, ns);
	if (hist != NULL)
		pb_hist_add(hist, ns);
}

/* A command a workload reports figures for, in its slot order */
typedef struct PbCommandDesc
{
	int			script_no;		/* 1-based */
	int			command_no;		/* 1-based */
	int			line;			/* in its script, 0 if none */
	const char *text;
} PbCommandDesc;

/* The engine that runs one kind of workload in a client */
typedef struct PbDriver
{
	/* build the client's state and prepare its plans */
	void		(*setup) (PbDriverContext *ctx);
	/* run one benchmark transaction; false if the run ended in it */
	bool		(*transaction) (PbDriverContext *ctx, PbTxnCounts *counts);
	/* roll back whatever an error escaping transaction() left open */
	void		(*abort) (PbDriverContext *ctx);
	/* where the last error happened, for its context; NULL if nowhere */
	char	   *(*error_context) (PbDriverContext *ctx);
	/* the commands reported on, in slot order; returns their number */
	int			(*commands) (const PbRunConfig *config, PbCommandDesc **descs);
} PbDriver;

/* spi_discard.c */
extern ParamListInfo pb_params_make(int nparams, const Oid *types);
extern SPIPlanPtr pb_spi_prepare(const char *sql, int nparams, Oid *types,
							   bool keep);
extern bool pb_plan_is_read_only(SPIPlanPtr plan);
extern bool pb_plan_is_utility(SPIPlanPtr plan);
extern void pb_spi_run(SPIPlanPtr plan, ParamListInfo params,
					   PbTxnCounts *counts, bool read_only);
extern void pb_absorb_ignorable_error(MemoryContext cxt, PbRunShared *run);

/* script_driver.c, sysbench_driver.c, ycsb_driver.c */
extern const PbDriver pb_script_driver;
extern const PbDriver pb_sysbench_driver;
extern const PbDriver pb_ycsb_driver;

/* sysbench_driver.c: in the caller, before the run */
extern void pb_sysbench_resolve(PbSysbenchOptions *options);
extern int	pb_sysbench_plans(const PbSysbenchOptions *options);
extern void pb_sysbench_check(const PbSysbenchOptions *options);

/* ycsb_driver.c: in the caller, before the run */
extern void pb_ycsb_resolve(PbYcsbOptions *options);
extern int	pb_ycsb_plans(const PbYcsbOptions *options);
extern void pb_ycsb_check(const PbYcsbOptions *options);

/* drivers.c */
extern const PbDriver *pb_driver(int kind);

/* run_launcher.c */
extern void pb_launch_run(const PbRunConfig *config, const PbRunParams *params,
						  PbRunResult *result);

/* run_config.c */
extern Size pb_config_size(const PbRunConfig *config);
extern void pb_config_serialize(const PbRunConfig *config, char *dest);
extern PbRunConfig *pb_config_deserialize(const char *src);
extern PbScriptSet *pb_config_build_scripts(const PbRunConfig *config,
											bool check_vars);
extern void pb_script_error(const PbError *err, const char *name,
							const char *hint) pg_attribute_noreturn();

/* run_shmem.c */
extern PbClientSlot *pb_slot(PbRunShared *run, char *slots, int client);
extern uint64 *pb_slot_histogram(PbClientSlot *slot);
extern PbCommandStats *pb_slot_commands(PbClientSlot *slot);
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
extern int64 pb_run_deadline(PbRunShared *run);
extern void pb_fail_run_too_long(PbRunShared *run);

/* detail of failures whose reason only the server log has */
#define PB_SEE_LOG "See the server log for the reason."

extern void pb_wake_launcher(PbRunShared *run);
extern void pb_wake_recorder(PbRunShared *run);


/* run_stats.c */
extern double pb_run_seconds(PbRunShared *run, char *slots);
extern void pb_totals_read(PbRunShared *run, char *slots, PbTotals *totals);
extern void pb_summary_interval(const PbTotals *from, const PbTotals *to,
								double seconds, PbRunSummary *summary);
extern void pb_summary_final(PbRunShared *run, char *slots, double seconds,
							 PbRunSummary *summary);
extern void pb_summary_percentiles(PbRunSummary *summary, const uint64 *hist,
								   int64 count, uint64 min_ns, uint64 max_ns);
extern void pb_progress_line(char *buf, size_t len, const PbRunShared *run,
							 double elapsed, const PbRunSummary *interval);
extern void pb_hist_merge(PbRunShared *run, char *slots, int command,
						  uint64 *merged);

/* What a run cut short is recorded and shown as (run_status.c) */
#define PB_INTERRUPTED_SQLSTATE	ERRCODE_ADMIN_SHUTDOWN
#define PB_INTERRUPTED_MESSAGE	"the run was interrupted: its recorder stopped before the run ended"
extern bool pb_recorder_running(int pid, TimestampTz since);
extern Oid	pb_extension_owner(Oid *schema);

/* Argument positions of polarbench_run() (and polarbench_start()) */
enum
{
	ARG_WORKLOAD,
	ARG_CLIENTS,
	ARG_DURATION,
	ARG_TRANSACTIONS,
	ARG_PROGRESS,
	ARG_SCRIPT,
	ARG_SCRIPT_WEIGHT,
	ARG_SCRIPTS,
	ARG_WEIGHTS,
	ARG_VARS,
	ARG_RANDOM_SEED,
	ARG_SCALE,
	ARG_OPTIONS,				/* since 1.1 */
	ARG_RATE,					/* since 1.2 */
	ARG_LATENCY_LIMIT,
	ARG_MAX_TRIES,
	ARG_WARMUP,
	ARG_COUNTERS_ONLY,
	ARG_SETTINGS,
	ARG_SERVER_SETTINGS,
	PB_RUN_NARGS
};

/* run_entry.c: what polarbench_run and a background run's conductor share */
extern void pb_check_caller(const char *function, bool background);
extern void pb_check_one_dimension(struct ArrayType *array, const char *name);
extern void pb_settings_from_json(PbRunConfig *config, Jsonb *jb);
extern void pb_server_settings_from_json(PbRunConfig *config, Jsonb *jb);
extern void pb_check_native_options(const PbWorkloadDef *def, Jsonb *options);
extern void pb_run_from_args(FunctionCallInfo fcinfo, bool background,
							 PbRunParams *params, PbRunConfig **config,
							 PbRunResult *result);

/* run_profile.c */
#define PB_SERVER_COUNTERS		13
#define PB_WAIT_SAMPLE_MS		10
extern HTAB *pb_waits_create(void);
extern void pb_waits_sample(HTAB *waits, PbRunShared *run, char *slots);
extern void pb_waits_foreach(HTAB *waits,
							 void (*fn) (const char *type, const char *name,
										 int64 samples, void *arg),
							 void *arg);
extern void pb_server_counters_read(int64 *counters);
extern char *pb_server_counters_json(const int64 *before, const int64 *after);

/* run_settings.c: what run_server_settings.c shares */
extern char *pb_setting_context(const char *name);
extern int	pb_setting_flags(const char *name);
extern char *pb_setting_canonical_name(const char *name);

/* run_server_settings.c */
extern void pb_server_settings_check(PbRunConfig *config);
extern void pb_server_settings_apply(PbRunConfig *config);
extern void pb_server_settings_restore(PbRunConfig *config);
extern void pb_server_settings_cleanup(int code, Datum arg);

/* run_settings.c */
extern void pb_settings_add(PbRunConfig *config, const char *name,
							const char *value);
extern void pb_settings_check(PbRunConfig *config);
extern int	pb_settings_push(PbRunConfig *config);
extern void pb_settings_pop(int nest);
extern void pb_settings_apply(const PbRunConfig *config);

/* run_control.c */
extern int	pb_as_owner_begin(Oid owner, Oid *save_user, int *save_sec);
extern void pb_as_owner_end(int nest, Oid save_user, int save_sec);

/* run_document.c */
#define PB_DOC_PARTS	6
extern const char *const pb_doc_tables[PB_DOC_PARTS][2];
extern void pb_doc_start(void);
extern void pb_doc_row(const char *table, int n, const char *const *names,
					   const Oid *types, const Datum *values, const char *nulls);
extern dsm_handle pb_doc_publish(int64 run_id);
extern void pb_doc_take(dsm_handle handle, int64 run_id);
extern void pb_doc_discard(dsm_handle handle);
extern const char *pb_doc_kept(int64 run_id);

/* How many unstored runs' documents a session keeps */
#define PB_KEPT_DOCUMENTS	16

/* run_record_check.c */
extern void pb_record_check(Jsonb *doc, const char *nsp);

/* run_report.c */
extern Datum polarbench_report(PG_FUNCTION_ARGS);

/* run_check.c */
extern int	pb_check_scripts(PbScriptSet *set, const char *const *values);
extern double pb_script_text_bytes(const PbScriptSet *set, int *ncommands);
extern void pb_check_memory(int nclients, int nplans, int ncommands,
							double text_bytes, bool command_histograms);

/* run_callsite.c */
extern void pb_check_called_once(FunctionCallInfo fcinfo, const char *function);

/* run_snapshot.c */
extern bool pb_can_release_snapshot(FunctionCallInfo fcinfo);
extern void pb_release_xmin(void);
extern void pb_refresh_xmin(void);

/* run_lockwait.c */
typedef enum PbLockWaitVerdict
{
	PB_LOCKWAIT_NONE,			/* no lock wait that matters */
	PB_LOCKWAIT_FOR_ME,			/* for a lock the caller holds */
	PB_LOCKWAIT_TOO_LONG		/* longer than polarbench.lock_timeout */
} PbLockWaitVerdict;
extern bool pb_waits_for_me(int pid);
extern PbLockWaitVerdict pb_lock_wait_check(int pid, char **detail,
											int64 *waited_ms);

/* client_worker.c */
extern PGDLLEXPORT void pb_client_main(Datum main_arg);

/* recorder_worker.c */
extern PGDLLEXPORT void pb_recorder_main(Datum main_arg);

/* script_exec.c */
typedef struct PbExecutor PbExecutor;
extern PbExecutor *pb_executor_create(PbScriptSet *set, PbRunShared *run);
extern void pb_executor_prepare(PbExecutor *exec);
extern void pb_executor_prepare_plans(PbExecutor *exec);
extern void pb_executor_check_values(PbExecutor *exec,
									 const char *const *values);
extern int	pb_executor_nplans(PbExecutor *exec);
extern const PbCommand *pb_executor_first_writer(PbExecutor *exec, int *script_no);
extern void pb_executor_free(PbExecutor *exec);
extern void pb_executor_set_client(PbExecutor *exec, PbClientState *client);
extern bool pb_executor_run_script(PbExecutor *exec, int script_no,
								   PbCommandStats *stats, uint64 *hists,
								   PbTxnCounts *counts, int64 *clock_ns);
extern void pb_executor_abort(PbExecutor *exec);
extern int	pb_executor_current_command(PbExecutor *exec);

#endif							/* POLARBENCH_H */
