/*-------------------------------------------------------------------------
 *
 * memory.c
 *	  Whether the memory a run's clients would take, as the driver of its
 *	  workload estimates what each keeps, stays within
 *	  polarbench.max_run_memory: checked in the caller before any worker
 *	  starts.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "engine.h"
#include "settings.h"

/*
 * What a client takes, as measured with pg_log_backend_memory_contexts()
 * on a client of a run of N distinct one-row SELECTs (see the README): a
 * backend of its own, about 1.1 MB, and per plan three plan cache contexts
 * of 4 kB blocks (14 kB with the executor's own entry).  Other commands
 * cost their parse trees, well under a kilobyte.
 */
#define PB_CLIENT_BASE_BYTES	(1152 * 1024)
#define PB_PLAN_BYTES			(14 * 1024)
#define PB_COMMAND_BYTES		512

/*
 * pb_check_memory
 *		Refuse a run whose clients would take more memory together than
 *		polarbench.max_run_memory allows: each keeps nplans plans and
 *		ncommands commands whose texts take text_bytes.
 */
void
pb_check_memory(int nclients, int nplans, int ncommands, double text_bytes,
				bool command_histograms)
{
	double		per_client;
	double		total;
	double		limit = (double) pb_max_run_memory * 1024;

	per_client = PB_CLIENT_BASE_BYTES + (double) nplans * PB_PLAN_BYTES +
		(double) ncommands * PB_COMMAND_BYTES + text_bytes +
		pb_slot_size(ncommands, command_histograms);
	total = per_client * nclients;
	if (total > limit)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("the run's clients would take about %.1f MB of memory, more than polarbench.max_run_memory (%.1f MB)",
						total / (1024 * 1024), limit / (1024 * 1024)),
				 errdetail_plural("Each client would take about %.1f MB: a backend, %d prepared plan of about 14 kB, and its workload's commands.",
								  "Each client would take about %.1f MB: a backend, %d prepared plans of about 14 kB, and its workload's commands.",
								  nplans, per_client / (1024 * 1024), nplans),
				 errhint("Run with fewer clients or commands, or ask a superuser to raise polarbench.max_run_memory.")));
}
