/*-------------------------------------------------------------------------
 *
 * run_views.c
 *	  Functions the result views call.
 *
 * polarbench_run_status() makes the status a run shows the status it
 * has: a run recorded as running whose recorder is no longer there (it
 * was killed, or the server restarted) will never be recorded as ended,
 * so the view shows it failed at once, whoever reads it, instead of
 * waiting for the next run to repair the row.
 *
 * calls: admission.h (worker type names).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "postmaster/bgworker.h"
#include "utils/backend_status.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "admission.h"

PG_FUNCTION_INFO_V1(polarbench_run_status);

/*
 * pb_recorder_running
 *		Whether process pid is a polarbench recorder that started no later
 *		than since (so not another process that got the same pid later).
 */
static bool
pb_recorder_running(int pid, TimestampTz since)
{
	int			nbackends = pgstat_fetch_stat_numbackends();

	for (int i = 1; i <= nbackends; i++)
	{
		LocalPgBackendStatus *local = pgstat_fetch_stat_local_beentry(i);
		const char *type;

		if (local == NULL || local->backendStatus.st_procpid != pid)
			continue;
		if (local->backendStatus.st_proc_start_timestamp > since)
			return false;
		type = GetBackgroundWorkerTypeByPid(pid);
		return type != NULL && strcmp(type, PB_RECORDER_WORKER_TYPE) == 0;
	}
	return false;
}

/*
 * polarbench_run_status(status text, recorder_pid int, started_at
 * timestamptz) returns text: status, but 'failed' for a run recorded as
 * running whose recorder is gone.
 */
Datum
polarbench_run_status(PG_FUNCTION_ARGS)
{
	text	   *status = PG_GETARG_TEXT_PP(0);

	if (strcmp(text_to_cstring(status), "running") == 0 &&
		!pb_recorder_running(PG_GETARG_INT32(1), PG_GETARG_TIMESTAMPTZ(2)))
		PG_RETURN_TEXT_P(cstring_to_text("failed"));
	PG_RETURN_TEXT_P(status);
}
