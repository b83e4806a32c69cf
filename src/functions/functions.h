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
extern void pb_refuse_nodes_all(FunctionCallInfo fcinfo, int argno, const char *function);
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
extern int64 pb_record_document(Jsonb *doc, const char *node);

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

extern Datum pb_cluster_run(FunctionCallInfo fcinfo);

/* record_check.c */
extern void pb_record_check(Jsonb *doc, const char *nsp);

/* report.c */
extern Datum polarbench_report(PG_FUNCTION_ARGS);
extern char *pb_report_json(int64 run_id);

#endif							/* PB_FUNCTIONS_H */
