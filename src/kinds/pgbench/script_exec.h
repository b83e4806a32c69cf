/*-------------------------------------------------------------------------
 *
 * script_exec.h
 *	  What the pgbench kind's server files share: a run of pgbench scripts
 *	  configured in the caller (script_config.c), executed through SPI in
 *	  a client (script_exec.c) and counted per script (script_stats.c), for
 *	  the kind's driver (script_driver.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_SCRIPT_EXEC_H
#define PB_SCRIPT_EXEC_H

#include "postgres.h"

#include "lib/stringinfo.h"

#include "driver.h"
#include "pb_script.h"

/* The options a run of scripts takes, as its errors show them */
#define PB_PGBENCH_OPTIONS_EXAMPLE	"{\"continue_on_error\": true}"

/* script_config.c */
extern void pb_script_configure(const PbWorkloadArgs *args, PbRunConfig *config,
								PbRunParams *params, PbRunEstimate *estimate);
extern PbScriptSet *pb_config_build_scripts(const PbRunConfig *config,
											bool check_vars);

/* script_stats.c */
typedef struct PbScriptCounts PbScriptCounts;
extern Size pb_script_stats_size(int nclients, int nscripts);
extern void pb_script_stats_init(void *shared, int nclients, int nscripts);
extern PbScriptCounts *pb_script_stats_of(void *shared, int client_no);
extern void pb_script_stats_add(PbScriptCounts *counts, int script_no,
								PbTxnEnd end, int64 latency_ns, int tries);
extern void pb_script_stats_json(StringInfo json, const void *shared);
extern void pb_script_stats_report(StringInfo out, struct PbRow *script,
								   int64 run_total, double seconds,
								   int max_tries, bool failures_detailed,
								   bool skips);

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
extern bool pb_executor_failed_in_sql(PbExecutor *exec);

#endif							/* PB_SCRIPT_EXEC_H */
