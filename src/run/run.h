/*-------------------------------------------------------------------------
 *
 * run.h
 *	  The run model, below the drivers and the engine, which both use it: a
 *	  run's configuration as the caller resolved it (PbRunConfig), which
 *	  travels to every worker in the run's segment (config.c), what the
 *	  caller asks of the run beside its workload (PbRunParams), and its
 *	  figures (PbRunSummary).  The segment's layout is segment.h's.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_RUN_H
#define PB_RUN_H

#include "postgres.h"

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

/* What a finished run gives back */
typedef struct PbRunResult
{
	int64		run_id;
	double		seconds;
	PbRunSummary summary;
} PbRunResult;

/* config.c */
extern Size pb_config_size(const PbRunConfig *config);
extern void pb_config_serialize(const PbRunConfig *config, char *dest);
extern PbRunConfig *pb_config_deserialize(const char *src);

#endif							/* PB_RUN_H */
