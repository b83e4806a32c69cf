/*-------------------------------------------------------------------------
 *
 * run_lockwait.c
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
 * calls: nothing of polarbench's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/fmgrprotos.h"
#include "utils/memutils.h"

#include "run.h"

/* How far a chain of waiters is followed, and how many pids at most */
#define PB_LOCKWAIT_MAX_PIDS	64

/*
 * pb_waits_for_me
 *		Whether process pid waits, directly or behind other waiters, for a
 *		lock this backend holds.
 */
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
		ArrayType  *blockers;
		Datum	   *pids;
		bool	   *nulls;
		int			npids;

		blockers = DatumGetArrayTypeP(DirectFunctionCall1(pg_blocking_pids,
														  Int32GetDatum(queue[next])));
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
