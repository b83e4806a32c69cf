/*-------------------------------------------------------------------------
 *
 * functions.h
 *	  What the SQL entry points share: polarbench_run()'s arguments and
 *	  their checks (run_args.c), which polarbench_start() and
 *	  polarbench_sweep() take too, and the checks of the calling statement
 *	  and of a stored run's document.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_FUNCTIONS_H
#define PB_FUNCTIONS_H

#include "postgres.h"

#include "fmgr.h"
#include "utils/jsonb.h"

#include "engine.h"

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
	ARG_SCRIPT_NAMES,			/* since 1.4 */
	ARG_END_GRACE,				/* since 1.5 */
	ARG_NODES,					/* since 1.5 */
	PB_RUN_NARGS
};

/* a client's share of a rate: a gap between starts from 1 ns to 11.6 days */
#define PB_MAX_RATE			1e9
#define PB_MIN_RATE			1e-6

/* run_args.c */
extern void pb_check_caller(const char *function, bool background);
extern bool pb_nodes_all(FunctionCallInfo fcinfo, int argno);
extern int64 pb_run_id_arg(FunctionCallInfo fcinfo, int argno);
extern void pb_settings_from_json(PbRunConfig *config, Jsonb *jb);
extern void pb_server_settings_from_json(PbRunConfig *config, Jsonb *jb);
extern void pb_check_workload_options(const char *workload, Jsonb *options);
extern void pb_run_from_args(FunctionCallInfo fcinfo, bool background,
							 PbRunParams *params, PbRunConfig **config,
							 PbRunResult *result);

/* callsite.c */
extern void pb_check_called_once(FunctionCallInfo fcinfo, const char *function,
								 const char *what);

/* nodes.c */

/*
 * Where a run's document is stored, beyond pb_record_document(): the row it
 * replaces (0: a new id), the sweep it belongs to (as PbRunParams has it:
 * sweep_id 0 for none, -1 for the run's own id), and for a run that goes
 * on, the process that records its end and the segment that stops it.
 */
typedef struct PbRecordPlace
{
	int64		replace_id;
	int64		sweep_id;
	int			sweep_run;
	int			sweep_set;
	int			sweep_repeat;
	bool		running;		/* recorded as running: not checked */
	int			recorder_pid;
	int64		segment;
} PbRecordPlace;

extern int64 pb_record_document(Jsonb *doc, const char *node);
extern int64 pb_record_document_at(Jsonb *doc, const char *node,
								   const PbRecordPlace *place);

/* node_connect.c (libpq's PGconn) */
struct pg_conn;
extern int	pb_node_connect_timeout(void);
extern struct pg_conn *pb_node_connect(const char *const *keywords,
									   const char *const *values,
									   int timeout_ms, char **error);

/* cluster_run.c */

/*
 * The notice a node's part of a run across a cluster sends when its clients
 * are released: its run id there, and microseconds after the start instant
 */
#define PB_CLUSTER_PART_NOTICE	"polarbench cluster part: run " INT64_FORMAT ", released " INT64_FORMAT " us after the start"

/*
 * How a run across the cluster is conducted, beside polarbench_run()'s
 * arguments: by polarbench_run() itself, a sweep's step (its place in the
 * sweep), or a background run's conductor (cluster_start.c), which records
 * the summed run as running once every node has released its clients
 * (on_released returns its id, which the end's record replaces) and asks
 * for its cancel (cancel_requested, polled while it goes on).
 */
typedef struct PbClusterParams
{
	bool		background;
	bool		release_xmin;	/* the caller's snapshot may be let go */
	int64		sweep_id;
	int			sweep_run;
	int			sweep_set;
	int			sweep_repeat;
	int64		(*on_released) (Jsonb *running, void *arg);
	bool		(*cancel_requested) (void *arg);
	void	   *arg;
	/* set by pb_cluster_conduct() */
	int64		run_id;			/* the id on_released recorded, then the sum's */
	bool		canceled;		/* cancel_requested said so */
	char	   *status;			/* finished, failed, canceled */
	char	   *failed_node;	/* the node that failed first, or NULL */
	char	   *failure;		/* its error */
	Jsonb	   *merged;			/* the summed run, to record */
} PbClusterParams;

extern Datum pb_cluster_run(FunctionCallInfo fcinfo);
extern void pb_cluster_conduct(FunctionCallInfo fcinfo, PbClusterParams *params);
extern int64 pb_cluster_record(PbClusterParams *params);
extern void pb_cluster_check(FunctionCallInfo fcinfo);
extern void pb_cluster_summary(int64 run_id, PbRunSummary *summary);

/* cluster_start.c */
extern void pb_cluster_start_conduct(FunctionCallInfo fcinfo,
									 void (*on_started) (int64 run_id, void *arg),
									 void *arg);

/* record_check.c */
extern void pb_record_check(Jsonb *doc, const char *nsp);

/* report.c */
extern Datum polarbench_report(PG_FUNCTION_ARGS);
extern char *pb_report_json(int64 run_id);

#endif							/* PB_FUNCTIONS_H */
