/*-------------------------------------------------------------------------
 *
 * run_status.c
 *	  Whether a run recorded as running is still going: its recorder is
 *	  alive.  The views and the next run's recorder ask it alike, and a run
 *	  that is not is shown and recorded as interrupted (PB_INTERRUPTED_*).
 *
 * calls: nothing of polarbench's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "postmaster/bgworker.h"
#include "utils/backend_status.h"

#include "admission.h"
#include "run.h"

/*
 * pb_recorder_running
 *		Whether process pid is a polarbench recorder that started no later
 *		than since (so not another process that got the same pid later).
 */
bool
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
