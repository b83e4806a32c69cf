/*-------------------------------------------------------------------------
 *
 * driver.h
 *	  The interface of a workload's driver: everything that differs from one
 *	  kind of workload to another (pgbench scripts, and the workloads of
 *	  other tools), in the caller before a run, in a client during it, and
 *	  in the recorder and the reports after.  The engine and the SQL entry
 *	  points ask a run's driver, found in the registry (registry.c), and
 *	  name no kind of workload themselves.
 *
 * Also the run's configuration and figures, which drivers fill and read,
 * and what the drivers share: running a statement through SPI
 * (statement_exec.c), pgbench scripts' execution (script_exec.c) and
 * configuration (script_config.c), and the queries of the reports
 * (report_query.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_DRIVER_H
#define PB_DRIVER_H

#include "postgres.h"

#include "executor/spi.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "nodes/params.h"
#include "utils/array.h"
#include "utils/jsonb.h"

#include "pb_script.h"
#include "kind.h"
#include "registry.h"
#include "segment.h"

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
	int			pct;			/* a percentile the workload's tool shows */
	double		latency_pct;	/* the latency at it */
	int64		failed_serialization;
	int64		failed_deadlock;
	int64		retried;
	int64		retries;
	int64		skipped;
	int64		late;
	double		lag_avg;		/* ms, over successful transactions */
	double		lag_max;
	int64		cut_off;		/* in flight at the end, canceled: not counted
								 * in the others */
} PbRunSummary;

/*
 * The run's configuration as the caller resolved it: what every worker
 * needs to rebuild the workload.  Serialized into the segment.
 */
typedef struct PbRunConfig
{
	char	   *workload;		/* display name, e.g. "tpcb-like" */
	int			kind;			/* its kind's registry row (registry.c) */
	/* a workload's options struct, opaque but to its driver, and as JSON */
	void	   *options;
	Size		options_size;
	char	   *options_hex;	/* options as they travel (run/config.c) */
	char	   *options_json;
	/* pgbench scripts: their names (as the report shows them), texts, weights */
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

/* What the caller asks of a run, beside its workload */
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
	double		end_grace;		/* seconds the transactions in flight at the
								 * end of the duration may take */
	bool		counters_only;
	int			ncommands;		/* of the workload's commands */
	bool		command_histograms; /* a latency histogram per command */
	int64		ops_limit;		/* operations of the whole run, 0 if none */
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

/*
 * The arguments of polarbench_run() that say what runs: for the driver
 * that runs it to read, and to refuse those it does not take.
 */
typedef struct PbWorkloadArgs
{
	const char *workload;		/* as given, NULL if not */
	const PbWorkloadDef *def;	/* of the kind's library, NULL for scripts */
	const char *script;			/* NULL if not given */
	int			script_weight;
	ArrayType  *scripts;		/* NULL if not given */
	ArrayType  *weights;		/* NULL if not given */
	ArrayType  *script_names;	/* NULL if not given */
	Jsonb	   *vars;			/* NULL if not given */
	bool		scale_given;
	int			scale;
	Jsonb	   *options;		/* NULL if not given */
	int			max_tries;
	int			clients;
	bool		limited;		/* a duration or a number of transactions */
} PbWorkloadArgs;

/* What a client of the run keeps, for the memory estimate */
typedef struct PbRunEstimate
{
	int			nplans;
	double		text_bytes;		/* of the commands' texts, beyond the plans */
} PbRunEstimate;

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
 * pb_params_set
 *		Put the values of an execution into a parameter list made by
 *		pb_params_make(), which is NULL for a statement without parameters.
 */
static inline void
pb_params_set(ParamListInfo params, const Datum *values)
{
	if (params == NULL)
		return;
	for (int i = 0; i < params->numParams; i++)
		params->params[i].value = values[i];
}

/* The most random streams a driver draws a transaction's numbers from */
#define PB_MAX_DRAWS			2

/* A client's view of its run, in which the workload's driver works */
typedef struct PbDriverContext
{
	PbRunShared *run;
	char	   *slots;
	PbClientSlot *slot;
	void	   *shared;			/* the driver's area of the segment */
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

/* Where the figures of a workload's commands are kept */
typedef enum PbCommandRows
{
	PB_ROWS_STATEMENTS,			/* polarbench_statements: SQL commands */
	PB_ROWS_OPERATIONS			/* polarbench_operations: named operations */
} PbCommandRows;

/* One progress interval: what a workload's progress line is made of */
typedef struct PbProgressTick
{
	const PbRunShared *run;
	const PbRunConfig *config;
	double		elapsed;		/* seconds measured, at the interval's end */
	int64		transactions;	/* ended so far */
	const PbRunSummary *interval;
	/* with PbDriver.progress_by_command, each command's interval: */
	const uint64 *command_counts;	/* executions */
	const uint64 *command_ns;	/* time they took together */
	uint64	   *const *command_hists;	/* their latencies, or NULL */
} PbProgressTick;

/* What polarbench_report() asks a report style for */
typedef struct PbReportOptions
{
	bool		statements;		/* each statement's figures (pgbench's -r) */
	int			failures_detailed;	/* failures by kind: 1 always, 0 never,
									 * -1 when there are any */
} PbReportOptions;

/* One row of a report's query, read by column name (report_query.c) */
typedef struct PbRow
{
	SPITupleTable *tuptable;
	uint64		row;
} PbRow;

/* What the recorder tells a driver's figures at a run's end */
typedef struct PbFiguresInput
{
	double		seconds;		/* measured */
	const uint64 *executions;	/* of each command, summed over clients */
	const uint64 *rollbacks;
} PbFiguresInput;

/* One workload of a kind, as polarbench_workloads lists it */
typedef struct PbWorkloadEntry
{
	const char *name;
	const char *description;
	const PbWorkloadDef *def;	/* of its kind's library (its options), or NULL */
	bool		writes;			/* with its default options */
} PbWorkloadEntry;

/*
 * The driver of one kind of workload, which its kind's descriptor (PbKind)
 * points at; its workloads, their options and defaults are the kind's
 * library's (kind.h).
 */
typedef struct PbDriver
{
	const char *report_style;	/* its tool's report, polarbench_report's default */
	PbCommandRows rows;			/* where its commands' figures go */
	bool		record_unused;	/* a command that never ran has a row too */
	bool		progress_by_command;	/* its progress line needs each command */
	/* its tool's limit when neither a duration nor transactions is given */
	int64		default_transactions;	/* per client, 0 for none */
	double		default_duration;	/* seconds, 0 for none */

	/*
	 * In the caller, before anything starts.  configure reads the
	 * arguments (refusing those the kind does not take), fills the
	 * configuration, the run's commands, budget and default limit, finds
	 * in the tables what was not given, and says what a client keeps;
	 * check then prepares every statement as the caller.  writes says
	 * whether the run writes (a hot standby runs only those that do not),
	 * check_options checks options as a run would read them.
	 */
	void		(*configure) (const PbWorkloadArgs *args, PbRunConfig *config,
							  PbRunParams *params, PbRunEstimate *estimate);
	void		(*check) (const PbRunConfig *config, int clients);
	bool		(*writes) (const PbRunConfig *config);
	void		(*check_options) (const PbWorkloadDef *def, Jsonb *options);

	/* its area of the run's segment: its size, and what it starts as */
	Size		(*shared_size) (const PbRunConfig *config, int nclients);
	void		(*shared_init) (void *shared, const PbRunConfig *config,
								int nclients);

	/* in a client: build its state, run a transaction, clean up an error */
	void		(*setup) (PbDriverContext *ctx);
	bool		(*transaction) (PbDriverContext *ctx, PbTxnCounts *counts);
	void		(*abort) (PbDriverContext *ctx);
	char	   *(*error_context) (PbDriverContext *ctx);

	/*
	 * In a client, before each new transaction (not a retry), or NULL:
	 * when it is due, in pb_now_ns() time; 0 leaves it to the engine (now,
	 * or the rate's schedule).  A transaction's latency runs from when it
	 * was due.
	 */
	int64		(*schedule) (PbDriverContext *ctx, int64 now);

	/* its workloads, for polarbench_workloads: false past the last */
	bool		(*workload_at) (int i, PbWorkloadEntry *entry);

	/* in the recorder and the reports */
	int			(*commands) (const PbRunConfig *config, PbCommandDesc **descs);
	int			(*percentile) (const PbRunConfig *config);
	void		(*progress_line) (char *buf, size_t len, const PbProgressTick *tick);
	void		(*report) (StringInfo out, PbRow *run, int64 run_id,
						   const PbReportOptions *options);

	/*
	 * In the recorder, as the run's role, in a transaction, or NULL: what
	 * the workload reads of the database itself, at the measurement's
	 * start (in NULL; returns NULL) and after the clients (returns a JSON
	 * object, the run's figures, or NULL); *state is the driver's between
	 * the two, shared its area of the segment.
	 */
	char	   *(*figures) (const PbRunConfig *config, void *shared, void **state,
							const PbFiguresInput *in);
} PbDriver;

/* statement_exec.c */
extern ParamListInfo pb_params_make(int nparams, const Oid *types);
extern SPIPlanPtr pb_spi_prepare(const char *sql, int nparams, Oid *types,
								 bool keep);
extern bool pb_plan_is_read_only(SPIPlanPtr plan);
extern bool pb_plan_is_utility(SPIPlanPtr plan);
extern void pb_spi_run(SPIPlanPtr plan, ParamListInfo params,
					   PbTxnCounts *counts, bool read_only);
extern void pb_report_foreign_cancel(PbRunShared *run);
extern void pb_absorb_ignorable_error(MemoryContext cxt, PbRunShared *run);

/* driver_options.c */
extern void *pb_options_from_json(const PbKindLibrary *kind,
								  const PbWorkloadDef *def, Jsonb *given,
								  const char *example, bool check);
extern void pb_refuse_script_args(const PbWorkloadArgs *args,
								  const char *retry_hint);
extern bool pb_library_workload_at(const PbKindLibrary *kind,
								   bool (*writes) (const PbRunConfig *config),
								   int i, PbWorkloadEntry *entry);

/* report_query.c */
extern void pb_report_use_run(const char *schema, const char *document);
extern SPITupleTable *pb_report_query(const char *sql, int64 run_id,
									  uint64 *nrows);
extern char *pb_row_text(PbRow *r, const char *column);
extern char *pb_row_text_opt(PbRow *r, const char *column);
extern int	pb_row_texts(PbRow *r, const char *column, char ***values);
extern double pb_row_num(PbRow *r, const char *column);
extern int64 pb_row_int(PbRow *r, const char *column);
extern int64 pb_row_int_opt(PbRow *r, const char *column);
extern void pb_append_java_double(StringInfo out, double v);

/* script_config.c */
extern void pb_script_configure(const PbWorkloadArgs *args, PbRunConfig *config,
								PbRunParams *params, PbRunEstimate *estimate);
extern PbScriptSet *pb_config_build_scripts(const PbRunConfig *config,
											bool check_vars);

/* script_exec.c */
typedef struct PbExecutor PbExecutor;
extern void pb_script_error(const PbError *err, const char *name,
							const char *hint) pg_attribute_noreturn();
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

#endif							/* PB_DRIVER_H */
