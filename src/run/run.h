/*-------------------------------------------------------------------------
 *
 * run.h
 *	  The run model, below the drivers and the engine, which both use it: a
 *	  run's configuration as the caller resolved it (PbRunConfig), which
 *	  travels to every worker in the run's segment (config.c), what the
 *	  caller asks of the run beside its workload (PbRunParams), and its
 *	  figures (PbRunSummary), made from the one list of them
 *	  (run_figures.h) and written into rows by that list (figures.c).  The
 *	  segment's layout is segment.h's.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_RUN_H
#define PB_RUN_H

#include "postgres.h"

#include "access/tupdesc.h"

#include "run_figures.h"

/* The C types of a figure's type (run_figures.h) */
#define PB_FIG_CTYPE_COUNT		int64
#define PB_FIG_CTYPE_NUMBER		double

/*
 * The figures of a run or of one interval, one member per figure of
 * PB_RUN_FIGURES: latencies in ms, counts of the run's successful
 * transactions (transactions) and of the others by what befell them.
 */
typedef struct PbRunSummary
{
#define PB_FIG_MEMBER(name, type, nulls, counter, run, progress, live, program) \
	PB_FIG_CTYPE_##type name;
	PB_RUN_FIGURES(PB_FIG_MEMBER)
#undef PB_FIG_MEMBER
	int			pct;			/* a percentile the workload's tool shows */
	double		latency_pct;	/* the latency at it */
} PbRunSummary;

/* One figure of PB_RUN_FIGURES, as the server writes it into rows */
typedef struct PbFigureDef
{
	const char *name;
	bool		count;			/* COUNT: int64, bigint; else double, float8 */
	PbFigureNulls nulls;
	int			flags;			/* PB_FIG_RUN, ...: the rows that hold it */
	Size		offset;			/* in PbRunSummary */
} PbFigureDef;

/* What decides whether a figure of a row is NULL */
typedef struct PbFigureState
{
	bool		no_txn;			/* no transaction ended */
	bool		counters_only;	/* the run keeps no histogram */
	bool		no_rate;		/* the run has no rate */
	bool		interval;		/* the row is an interval's, not a run's */
} PbFigureState;

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
	char	   *environment_json;	/* where it runs (engine/environment.c) */
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
	bool		limited;		/* the caller gave a duration or a number of
								 * transactions, not its workload's tool */
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
	/*
	 * a node's part of a run across a Citus cluster: the instant
	 * (TimestampTz) at which its clients are released, 0 for at once
	 */
	int64		release_at;
	/* called once the run is recorded and its clients released, or NULL */
	void		(*on_started) (int64 run_id, void *arg);
	void	   *on_started_arg;
} PbRunParams;

/* What a finished run gives back */
typedef struct PbRunResult
{
	int64		run_id;
	PbRunSummary summary;		/* its seconds measured among them */
	int			aborted;		/* clients that aborted alone: the run is
								 * recorded aborted, its figures partial */
} PbRunResult;

/* figures.c */
extern int	pb_figure_count(void);
extern const PbFigureDef *pb_figure_at(int i);
extern void pb_figure_state(PbFigureState *state, const PbRunSummary *s,
							bool counters_only, bool rated, bool interval);
extern bool pb_figure_is_null(const PbFigureDef *f, const PbFigureState *state);
extern Datum pb_figure_datum(const PbFigureDef *f, const PbRunSummary *s);
extern Oid	pb_figure_type(const PbFigureDef *f);
extern void pb_figures_row(TupleDesc desc, Datum *values, bool *nulls,
						   const PbRunSummary *s, int flag,
						   const PbFigureState *state);

/* config.c */
extern Size pb_config_size(const PbRunConfig *config);
extern void pb_config_serialize(const PbRunConfig *config, char *dest);
extern PbRunConfig *pb_config_deserialize(const char *src);

#endif							/* PB_RUN_H */
