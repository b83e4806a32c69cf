/*-------------------------------------------------------------------------
 *
 * engine.h
 *	  The run engine: what launches a run and waits for it (the launcher),
 *	  its client and recorder workers, and what they share: the segment's
 *	  slots and stop flag, the run's figures, its configuration as it
 *	  travels, its settings, its document, and the checks of the caller's
 *	  snapshot, locks and memory.  It names no kind of workload: it asks the
 *	  run's driver (driver.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_ENGINE_H
#define PB_ENGINE_H

#include "postgres.h"

#include "datatype/timestamp.h"
#include "utils/hsearch.h"

#include "driver.h"
#include "registry.h"
#include "run.h"
#include "segment.h"

/*
 * Cumulative totals of all clients at one instant: each figure the clients
 * count in their slots (the counters of PB_RUN_FIGURES), and the sums the
 * averages are made of.
 */
typedef struct PbTotals
{
#define PB_TOTAL_MEMBER(name, type, nulls, counter, run, progress, live, program) \
	PB_FIG_IF(counter, int64 name;)
	PB_RUN_FIGURES(PB_TOTAL_MEMBER)
#undef PB_TOTAL_MEMBER
	int64		latency_sum_ns;
	double		latency_sumsq;
	int64		lag_sum_ns;
} PbTotals;

/* detail of failures whose reason only the server log has */
#define PB_SEE_LOG "See the server log for the reason."

/* status.c: what a run cut short is recorded and shown as */
#define PB_INTERRUPTED_SQLSTATE	ERRCODE_ADMIN_SHUTDOWN
#define PB_INTERRUPTED_MESSAGE	"the run was interrupted: its recorder stopped before the run ended"
extern bool pb_recorder_running(int pid, TimestampTz since);
extern Oid	pb_extension_owner(Oid *schema);
extern int	pb_as_owner_begin(Oid owner, Oid *save_user, int *save_sec);
extern void pb_as_owner_end(int nest, Oid save_user, int save_sec);

/* snapshot.c */
extern bool pb_can_release_snapshot(FunctionCallInfo fcinfo);
extern void pb_release_xmin(void);
extern void pb_refresh_xmin(void);

/* lockwait.c */
typedef enum PbLockWaitVerdict
{
	PB_LOCKWAIT_NONE,			/* no lock wait that matters */
	PB_LOCKWAIT_FOR_ME,			/* for a lock the caller holds */
	PB_LOCKWAIT_TOO_LONG		/* longer than polarbench.lock_timeout */
} PbLockWaitVerdict;
extern bool pb_waits_for_me(int pid);
extern PbLockWaitVerdict pb_lock_wait_check(int pid, char **detail,
											int64 *waited_ms);

/* document.c */
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

/* profile.c */
#define PB_SERVER_COUNTERS		18
#define PB_WAIT_SAMPLE_MS		10
extern HTAB *pb_waits_create(void);
extern void pb_waits_sample(HTAB *waits, PbRunShared *run, char *slots);
extern void pb_waits_foreach(HTAB *waits,
							 void (*fn) (const char *type, const char *name,
										 int64 samples, void *arg),
							 void *arg);
extern void pb_server_counters_read(int64 *counters);
extern char *pb_server_counters_json(const int64 *before, const int64 *after);

/* stats.c */
extern double pb_run_seconds(PbRunShared *run, char *slots);
extern void pb_totals_read(PbRunShared *run, char *slots, PbTotals *totals);
extern void pb_summary_interval(const PbTotals *from, const PbTotals *to,
								double seconds, PbRunSummary *summary);
extern void pb_summary_final(PbRunShared *run, char *slots, double seconds,
							 PbRunSummary *summary);
extern void pb_summary_percentiles(PbRunSummary *summary, const uint64 *hist,
								   int64 count, uint64 min_ns, uint64 max_ns);
extern void pb_hist_merge(PbRunShared *run, char *slots, int command,
						  uint64 *merged);

/* run_settings.c */
extern char *pb_setting_shown_value(const char *name);
extern char *pb_setting_context(const char *name);
extern int	pb_setting_flags(const char *name);
extern char *pb_setting_canonical_name(const char *name);
extern void pb_settings_add(PbRunConfig *config, const char *name,
							const char *value);
extern void pb_settings_check(PbRunConfig *config);
extern char *pb_settings_search_path(void);
extern int	pb_settings_push(PbRunConfig *config);
extern void pb_settings_record(PbRunConfig *config);
extern void pb_settings_pop(int nest);
extern void pb_settings_apply(const PbRunConfig *config);

/* environment.c */
extern char *pb_environment(const PbRunConfig *config);

/* run_server_settings.c */
extern void pb_server_settings_check(PbRunConfig *config);
extern void pb_server_settings_apply(PbRunConfig *config);
extern void pb_server_settings_restore(PbRunConfig *config);
extern void pb_server_settings_cleanup(int code, Datum arg);

/* memory.c */
extern void pb_check_memory(int nclients, int nplans, int ncommands,
							double text_bytes, bool command_histograms);

/* launcher.c */
extern void pb_launch_run(const PbRunConfig *config, const PbRunParams *params,
						  PbRunResult *result);

/* client_worker.c */
extern PGDLLEXPORT void pb_client_main(Datum main_arg);

/* recorder_worker.c */
extern PGDLLEXPORT void pb_recorder_main(Datum main_arg);

#endif							/* PB_ENGINE_H */
