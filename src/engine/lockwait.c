/*-------------------------------------------------------------------------
 *
 * lockwait.c
 *	  Whether a worker of a run waits for a lock that the run's caller
 *	  holds: a deadlock the server's detector cannot see, since the caller
 *	  waits for its workers on a latch, not on a lock.
 *
 * A client may wait for the caller's lock directly (the caller ran LOCK
 * TABLE in its open transaction) or behind other waiters (a third session
 * queues for a lock that conflicts with the caller's, and the client
 * queues behind it).  pg_blocking_pids() names both kinds of blockers;
 * following it a few steps finds the caller at the end of such a chain.
 *
 * Some chains go through a wait that is no lock: a VACUUM waits for a
 * buffer pin that the caller's open cursor holds, and a client waits for
 * the VACUUM's lock.  pg_blocking_pids() does not name the pin's holder,
 * so such a chain is not found; a lock wait longer than
 * polarbench.lock_timeout fails the run instead, whatever it waits for,
 * with the chain as far as it can be seen.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "utils/array.h"
#include "utils/backend_status.h"
#include "utils/fmgrprotos.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "engine.h"
#include "settings.h"

/* A lock wait shorter than this is not looked into (most are brief) */
#define PB_LOCKWAIT_MIN_MS		50

/* How far a chain of waiters is followed, and how many pids at most */
#define PB_LOCKWAIT_MAX_PIDS	64

/*
 * pb_waits_for_me
 *		Whether process pid waits, directly or behind other waiters, for a
 *		lock this backend holds.
 */
static ArrayType *pb_blockers(int pid);

bool
pb_waits_for_me(int pid)
{
	MemoryContext cxt;
	MemoryContext old;
	int			queue[PB_LOCKWAIT_MAX_PIDS];
	int			nqueue = 0;
	bool		found = false;

	cxt = AllocSetContextCreate(CurrentMemoryContext, "polarbench lock wait",
								ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(cxt);
	queue[nqueue++] = pid;
	for (int next = 0; next < nqueue && !found; next++)
	{
		ArrayType  *blockers = pb_blockers(queue[next]);
		Datum	   *pids;
		bool	   *nulls;
		int			npids;

		deconstruct_array(blockers, INT4OID, sizeof(int32), true,
						  TYPALIGN_INT, &pids, &nulls, &npids);
		for (int i = 0; i < npids && !found; i++)
		{
			int			blocker = DatumGetInt32(pids[i]);
			bool		seen = false;

			if (blocker == MyProcPid)
			{
				found = true;
				break;
			}
			for (int j = 0; j < nqueue; j++)
				seen |= (queue[j] == blocker);
			if (!seen && nqueue < PB_LOCKWAIT_MAX_PIDS)
				queue[nqueue++] = blocker;
		}
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	return found;
}

/* The processes process pid waits for, as pg_blocking_pids() names them. */
static ArrayType *
pb_blockers(int pid)
{
	return DatumGetArrayTypeP(DirectFunctionCall1(pg_blocking_pids,
												  Int32GetDatum(pid)));
}

/* What pg_stat_activity's backend_type says of process pid. */
static const char *
pb_backend_type(int pid)
{
	int			nbackends = pgstat_fetch_stat_numbackends();

	for (int i = 1; i <= nbackends; i++)
	{
		LocalPgBackendStatus *local = pgstat_fetch_stat_local_beentry(i);

		if (local == NULL || local->backendStatus.st_procpid != pid)
			continue;
		if (local->backendStatus.st_backendType == B_BG_WORKER)
		{
			const char *type = GetBackgroundWorkerTypeByPid(pid);

			if (type != NULL)
				return type;
		}
		return GetBackendTypeDesc(local->backendStatus.st_backendType);
	}
	return "process";
}

/*
 * pb_describe_wait_chain
 *		Who process pid waits for, and they for whom, a few steps: "process
 *		12 (client backend, waiting for BufferPin), ...".
 */
static char *
pb_describe_wait_chain(int pid)
{
	StringInfoData buf;
	int			queue[PB_LOCKWAIT_MAX_PIDS];
	int			nqueue = 0;

	initStringInfo(&buf);
	/* not the backends an earlier look in this transaction saw */
	pgstat_clear_backend_activity_snapshot();
	queue[nqueue++] = pid;
	for (int next = 0; next < nqueue; next++)
	{
		ArrayType  *blockers = pb_blockers(queue[next]);
		Datum	   *pids;
		bool	   *nulls;
		int			npids;

		deconstruct_array(blockers, INT4OID, sizeof(int32), true,
						  TYPALIGN_INT, &pids, &nulls, &npids);
		for (int i = 0; i < npids; i++)
		{
			int			blocker = DatumGetInt32(pids[i]);
			bool		seen = false;
			PGPROC	   *proc;
			const char *type = "process";
			uint32		wait_event = 0;

			for (int j = 0; j < nqueue; j++)
				seen |= (queue[j] == blocker);
			if (seen || nqueue == PB_LOCKWAIT_MAX_PIDS)
				continue;
			queue[nqueue++] = blocker;
			proc = BackendPidGetProc(blocker);
			if (proc != NULL)
				wait_event = proc->wait_event_info;
			type = pb_backend_type(blocker);
			appendStringInfo(&buf, "%sprocess %d (%s%s%s)", buf.len ? ", " : "",
							 blocker, type, wait_event ? ", waiting for " : "",
							 wait_event ? pgstat_get_wait_event(wait_event) : "");
		}
	}
	return buf.len ? buf.data : pstrdup("no process that holds a lock");
}

/*
 * pb_lock_wait_check
 *		What the wait of process pid (a worker of a run this backend waits
 *		for) comes to: nothing to do, a wait for a lock this backend holds,
 *		or a lock wait longer than polarbench.lock_timeout.  For the latter
 *		two, *detail says what it waits for, and *waited_ms for how long.
 */
PbLockWaitVerdict
pb_lock_wait_check(int pid, char **detail, int64 *waited_ms)
{
	PGPROC	   *proc = BackendPidGetProc(pid);
	uint32		wait_event;
	uint64		wait_start;
	int64		waited;

	if (proc == NULL)
		return PB_LOCKWAIT_NONE;
	wait_event = proc->wait_event_info;
	wait_start = pg_atomic_read_u64(&proc->waitStart);
	if ((wait_event & 0xFF000000) != PG_WAIT_LOCK || wait_start == 0)
		return PB_LOCKWAIT_NONE;
	waited = (GetCurrentTimestamp() - (TimestampTz) wait_start) / 1000;
	if (waited < PB_LOCKWAIT_MIN_MS)
		return PB_LOCKWAIT_NONE;
	*waited_ms = waited;
	if (pb_waits_for_me(pid))
	{
		*detail = psprintf("Process %d waits for a lock of type %s that this session (process %d) holds, directly or behind other waiters, while this session waits for the run.",
						   pid, pgstat_get_wait_event(wait_event), MyProcPid);
		return PB_LOCKWAIT_FOR_ME;
	}
	if (pb_lock_timeout > 0 && waited >= pb_lock_timeout)
	{
		*detail = psprintf("Process %d has waited %.1f s for a lock of type %s; it waits for %s.",
						   pid, waited / 1000.0, pgstat_get_wait_event(wait_event),
						   pb_describe_wait_chain(pid));
		return PB_LOCKWAIT_TOO_LONG;
	}
	return PB_LOCKWAIT_NONE;
}
