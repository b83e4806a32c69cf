/*-------------------------------------------------------------------------
 *
 * driver.h
 *	  The interface of a workload's driver, PbDriver: everything that
 *	  differs from one kind of workload to another, in the caller before a
 *	  run, in a client during it, and in the recorder and the reports
 *	  after.  The engine and the SQL-callable functions ask a run's driver,
 *	  found in the registry (src/kinds/registry.h), and name no kind of workload
 *	  themselves.
 *
 * The run model the interface speaks of (the run's configuration,
 * parameters and figures, the segment) is below, in src/run; what the
 * drivers share has headers of its own: statement_exec.h (a statement
 * through SPI), driver_options.h (a workload's options and arguments) and
 * report_query.h (the reports' queries).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_DRIVER_H
#define PB_DRIVER_H

#include "postgres.h"

#include "lib/stringinfo.h"
#include "utils/array.h"
#include "utils/jsonb.h"

#include "pb_script.h"
#include "kind_options.h"
#include "run.h"
#include "segment.h"

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
 * How a transaction that counts in the run's figures ended; skipped: under
 * a rate with a latency limit, already too late when its turn came, so it
 * never ran (pgbench -R -L)
 */
typedef enum PbTxnEnd
{
	PB_TXN_SUCCEEDED,
	PB_TXN_FAILED_SERIALIZATION,
	PB_TXN_FAILED_DEADLOCK,
	PB_TXN_FAILED_OTHER,
	PB_TXN_SKIPPED
} PbTxnEnd;

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

	/*
	 * Set by abort (the engine clears it before): the error, which is not a
	 * serialization failure or a deadlock, fails only its transaction,
	 * counted in failed_other, and the client goes on (pgbench's
	 * --continue-on-error); else it fails the run.
	 */
	bool		error_fails_transaction;

	/*
	 * Set by abort too: the error (not one that fails its transaction
	 * alone) ends this client only, and the run goes on without it,
	 * recorded aborted (pgbench's default, without --exit-on-abort); else
	 * it fails the run.
	 */
	bool		error_aborts_client;
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
 * library's (kind_options.h).
 */
/* One row of a report's query (report_query.h) */
struct PbRow;

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
	 * In the caller, before anything starts, with the run's parameters
	 * (its clients, limits, tries: in a client, ctx->run has them).
	 * configure reads the arguments (refusing those the kind does not
	 * take), fills the configuration, the run's commands, budget and
	 * default limit, finds in the tables what was not given, and says what
	 * a client keeps; check then prepares every statement as the caller.
	 * writes says whether the run writes (a hot standby runs only those
	 * that do not), check_options checks options as a run would read them.
	 */
	void		(*configure) (const PbWorkloadArgs *args, PbRunConfig *config,
							  PbRunParams *params, PbRunEstimate *estimate);
	void		(*check) (const PbRunConfig *config, const PbRunParams *params);
	bool		(*writes) (const PbRunConfig *config);
	void		(*check_options) (const PbWorkloadDef *def, Jsonb *options);

	/* its area of the run's segment: its size, and what it starts as */
	Size		(*shared_size) (const PbRunConfig *config,
								const PbRunParams *params);
	void		(*shared_init) (void *shared, const PbRunConfig *config,
								const PbRunParams *params);

	/* in a client: build its state, run a transaction, clean up an error */
	void		(*setup) (PbDriverContext *ctx);
	bool		(*transaction) (PbDriverContext *ctx, PbTxnCounts *counts);
	void		(*abort) (PbDriverContext *ctx);
	char	   *(*error_context) (PbDriverContext *ctx);

	/*
	 * In a client, before each new transaction (not a retry) is scheduled,
	 * or NULL: decide what it runs (pgbench's script, chosen by weight), as
	 * pgbench chooses before it throttles.  Its retries run the same, and
	 * the transactions a latency limit skips while it waits for its turn
	 * are counted for it (transaction_ended, PB_TXN_SKIPPED).
	 */
	void		(*choose) (PbDriverContext *ctx);

	/*
	 * In a client, before each new transaction (not a retry), or NULL:
	 * when it is due, in pb_now_ns() time; 0 leaves it to the engine (now,
	 * or the rate's schedule).  A transaction's latency runs from when it
	 * was due.
	 */
	int64		(*schedule) (PbDriverContext *ctx, int64 now);

	/*
	 * In a client, after each transaction the run's figures count (begun
	 * after the warm-up, not cut off; a skipped one scheduled after it),
	 * or NULL: how it ended, its latency (of a successful one) and its
	 * tries, for figures of the driver's own (pgbench's per script).
	 */
	void		(*transaction_ended) (PbDriverContext *ctx, PbTxnEnd end,
									  int64 latency_ns, int tries);

	/* its workloads, for polarbench_workloads: false past the last */
	bool		(*workload_at) (int i, PbWorkloadEntry *entry);

	/* in the recorder and the reports */
	int			(*commands) (const PbRunConfig *config, PbCommandDesc **descs);
	int			(*percentile) (const PbRunConfig *config);
	void		(*progress_line) (char *buf, size_t len, const PbProgressTick *tick);
	void		(*report) (StringInfo out, struct PbRow *run, int64 run_id,
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

	/*
	 * In the caller, once configured, with the run's settings (its
	 * search_path among them), or NULL: the data set the run works on, as
	 * a JSON object: "dataset", its name in polarbench_datasets; its size
	 * as polarbench_init's arguments name it (scale, tables, table_size,
	 * records, fields, warehouses: those it has); and "table_names", the
	 * names of its tables, partitions aside.  The engine adds their size on
	 * disk, partitions and distribution (engine/environment.c).
	 */
	char	   *(*dataset) (const PbRunConfig *config);
} PbDriver;

/* a data set polarbench_init() loads (load.h) */
struct PbDataset;

/*
 * The server's descriptor of a kind of workload: what its folder exports
 * to the server, as pb_kind_<name>, and its row in the registry.
 */
typedef struct PbKind
{
	const PbKindLibrary *library;	/* its name, workloads and options */
	const struct PbDriver *driver;
	/* the data sets polarbench_init() loads for it, NULL-terminated */
	const struct PbDataset *const *datasets;
} PbKind;

#endif							/* PB_DRIVER_H */
