/*-------------------------------------------------------------------------
 *
 * load_progress.c
 *	  A load's progress: pg_stat_progress_copy for the table being filled,
 *	  the counter a parallel load's workers share, and pgbench -i's
 *	  progress lines as notices.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/progress.h"
#include "pgstat.h"
#include "utils/backend_progress.h"

#include "load.h"

/*
 * Show in pg_stat_progress_copy that this backend fills table relid; the
 * rows counted from now on are that table's.
 */
void
pb_progress_table_begin(PbProgress *progress, Oid relid)
{
	const int	index[] = {PROGRESS_COPY_COMMAND, PROGRESS_COPY_TYPE};
	const int64 val[] = {PROGRESS_COPY_COMMAND_FROM,
	PROGRESS_COPY_TYPE_CALLBACK};

	pgstat_progress_start_command(PROGRESS_COMMAND_COPY, relid);
	pgstat_progress_update_multi_param(2, index, val);
	progress->table_done = 0;
	progress->reporting = true;
}

/*
 * End what pb_progress_table_begin() started.
 */
void
pb_progress_table_end(PbProgress *progress)
{
	if (progress->reporting)
		pgstat_progress_end_command();
	progress->reporting = false;
}

/*
 * Start counting a load of total rows.  notice asks for pgbench -i's
 * progress lines; shared, for a worker of a parallel load, is the counter
 * summed over workers.
 */
void
pb_progress_init(PbProgress *progress, int64 total, bool notice,
				 pg_atomic_uint64 *shared)
{
	memset(progress, 0, sizeof(PbProgress));
	progress->total = total;
	progress->notice = notice;
	progress->shared = shared;
	progress->next_notice = Min(PB_PROGRESS_ROWS, total);
	INSTR_TIME_SET_CURRENT(progress->start);
}

/*
 * Count rows just inserted: in pg_stat_progress_copy, in the shared
 * counter of a parallel load and in NOTICE lines.
 */
void
pb_progress_add(PbProgress *progress, int64 rows)
{
	progress->done += rows;
	progress->table_done += rows;
	if (progress->reporting)
		pgstat_progress_update_param(PROGRESS_COPY_TUPLES_PROCESSED,
									 progress->table_done);
	if (progress->shared)
		pg_atomic_fetch_add_u64(progress->shared, rows);
	if (progress->notice && progress->done >= progress->next_notice)
	{
		pb_progress_notice(progress, progress->done,
						   progress->done >= progress->total);
		while (progress->next_notice <= progress->done)
			progress->next_notice += PB_PROGRESS_ROWS;
		progress->next_notice = Min(progress->next_notice, progress->total);
		if (progress->done >= progress->total)
			progress->notice = false;
	}
}

/*
 * Send pgbench -i's progress line for done rows out of progress->total.
 */
void
pb_progress_notice(PbProgress *progress, int64 done, bool last)
{
	instr_time	now;
	double		elapsed;
	double		remaining;

	INSTR_TIME_SET_CURRENT(now);
	INSTR_TIME_SUBTRACT(now, progress->start);
	elapsed = INSTR_TIME_GET_DOUBLE(now);
	remaining = done > 0 ? (progress->total - done) * elapsed / done : 0;
	if (last)
		remaining = 0;
	ereport(NOTICE,
			(errmsg(INT64_FORMAT " of " INT64_FORMAT " tuples (%d%%) done (elapsed %.2f s, remaining %.2f s)",
					done, progress->total,
					progress->total > 0 ? (int) (done * 100 / progress->total) : 100,
					elapsed, remaining)));
}
