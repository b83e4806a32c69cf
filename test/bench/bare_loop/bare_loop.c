/*-------------------------------------------------------------------------
 *
 * bare_loop.c
 *	  The yardstick of polarbench's own cost: N background workers, each
 *	  running pgbench's select-only lookup (SELECT abalance FROM
 *	  pgbench_accounts WHERE aid = $1, aid uniform) in the barest loop:
 *	  StartTransactionCommand, SPI_execute_plan of one kept plan, read
 *	  only, with a pushed snapshot, commit.  No counting but one counter,
 *	  no clock read but one per transaction to know when to stop.
 *
 * bare_loop_run(clients, seconds, naccounts) starts them together and
 * returns the lookups they made in all, and the CPU time (user and
 * system) their loops took.  A test module: no error
 * recovery beyond what a test needs.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/resource.h>
#include <time.h>

#include "access/xact.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "access/htup_details.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "port/atomics.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "tcop/tcopprot.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"
#include "utils/wait_event.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(bare_loop_run);
PGDLLEXPORT void bare_loop_main(Datum arg);


typedef struct BareShared
{
	Oid			database;
	Oid			role;
	int			naccounts;
	int			nclients;
	pg_atomic_uint32 ready;
	pg_atomic_uint32 go;
	int64		end_ns;
	pg_atomic_uint64 lookups;
	pg_atomic_uint64 cpu_ns;		/* the workers' CPU time in their loops */
	pg_atomic_uint32 done;
} BareShared;

extern uint64 bare_loop_iterate(BareShared *sh, SPIPlanPtr plan, uint64 *statep);

static int64
bare_cpu_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ((int64) ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000 +
		((int64) ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
}

static inline int64
bare_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * bare_loop_iterate
 *		The loop itself, a function of its own so that a profiler can count
 *		it alone: lookups until the end; returns how many.
 */
pg_noinline uint64
bare_loop_iterate(BareShared *sh, SPIPlanPtr plan, uint64 *statep)
{
	uint64		n = 0;
	uint64		state = *statep;

	while (bare_now_ns() < sh->end_ns)
	{
		Datum		values[1];
		char		nulls[1] = {' '};

		/* xorshift64: as cheap as a random number gets */
		state ^= state << 13;
		state ^= state >> 7;
		state ^= state << 17;
		values[0] = Int32GetDatum((int32) (state % sh->naccounts) + 1);

		CHECK_FOR_INTERRUPTS();
		StartTransactionCommand();
		SPI_connect();
		PushActiveSnapshot(GetTransactionSnapshot());
		if (SPI_execute_plan(plan, values, nulls, true, 0) != SPI_OK_SELECT)
			elog(ERROR, "lookup failed");
		PopActiveSnapshot();
		SPI_finish();
		CommitTransactionCommand();
		n++;
	}
	*statep = state;
	return n;
}

void
bare_loop_main(Datum arg)
{
	dsm_segment *seg;
	BareShared *sh;
	SPIPlanPtr plan;
	Oid			argtypes[1] = {INT4OID};
	uint64		n = 0;
	int64		cpu;
	uint64		state = 0x9E3779B97F4A7C15ULL ^ (uint64) MyProcPid;

	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	CurrentResourceOwner = ResourceOwnerCreate(NULL, "bare loop");
	seg = dsm_attach(DatumGetUInt32(arg));
	if (seg == NULL)
		proc_exit(0);
	sh = dsm_segment_address(seg);
	BackgroundWorkerInitializeConnectionByOid(sh->database, sh->role, 0);

	StartTransactionCommand();
	SPI_connect();
	PushActiveSnapshot(GetTransactionSnapshot());
	plan = SPI_prepare("SELECT abalance FROM pgbench_accounts WHERE aid = $1", 1, argtypes);
	if (plan == NULL || SPI_keepplan(plan) != 0)
		elog(ERROR, "could not prepare the lookup");
	PopActiveSnapshot();
	SPI_finish();
	CommitTransactionCommand();

	pg_atomic_fetch_add_u32(&sh->ready, 1);
	while (pg_atomic_read_u32(&sh->go) == 0)
	{
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 1, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	pg_read_barrier();
	cpu = bare_cpu_ns();
	n = bare_loop_iterate(sh, plan, &state);
	pg_atomic_fetch_add_u64(&sh->lookups, n);
	pg_atomic_fetch_add_u64(&sh->cpu_ns, bare_cpu_ns() - cpu);
	pg_atomic_fetch_add_u32(&sh->done, 1);
	proc_exit(0);
}

Datum
bare_loop_run(PG_FUNCTION_ARGS)
{
	int			clients = PG_GETARG_INT32(0);
	double		seconds = PG_GETARG_FLOAT8(1);
	dsm_segment *seg = dsm_create(sizeof(BareShared), 0);
	BareShared *sh = dsm_segment_address(seg);
	BackgroundWorkerHandle **handles = palloc(sizeof(void *) * clients);
	TupleDesc	tupdesc;
	Datum		values[2];
	bool		nulls[2] = {false, false};

	memset(sh, 0, sizeof(BareShared));
	sh->database = MyDatabaseId;
	sh->role = GetUserId();
	sh->naccounts = PG_GETARG_INT32(2);
	sh->nclients = clients;
	pg_atomic_init_u32(&sh->ready, 0);
	pg_atomic_init_u32(&sh->go, 0);
	pg_atomic_init_u64(&sh->lookups, 0);
	pg_atomic_init_u64(&sh->cpu_ns, 0);
	pg_atomic_init_u32(&sh->done, 0);
	for (int i = 0; i < clients; i++)
	{
		BackgroundWorker w;

		memset(&w, 0, sizeof(w));
		w.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
		w.bgw_start_time = BgWorkerStart_ConsistentState;
		w.bgw_restart_time = BGW_NEVER_RESTART;
		strlcpy(w.bgw_library_name, "bare_loop", BGW_MAXLEN);
		strlcpy(w.bgw_function_name, "bare_loop_main", BGW_MAXLEN);
		snprintf(w.bgw_name, BGW_MAXLEN, "bare loop %d", i + 1);
		strlcpy(w.bgw_type, "bare loop", BGW_MAXLEN);
		w.bgw_main_arg = UInt32GetDatum(dsm_segment_handle(seg));
		w.bgw_notify_pid = MyProcPid;
		if (!RegisterDynamicBackgroundWorker(&w, &handles[i]))
			elog(ERROR, "no background worker slot");
	}
	while (pg_atomic_read_u32(&sh->ready) < (uint32) clients)
	{
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 10, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	sh->end_ns = bare_now_ns() + (int64) (seconds * 1e9);
	pg_write_barrier();
	pg_atomic_write_u32(&sh->go, 1);
	for (int i = 0; i < clients; i++)
		(void) WaitForBackgroundWorkerShutdown(handles[i]);
	values[0] = Int64GetDatum((int64) pg_atomic_read_u64(&sh->lookups));
	values[1] = Float8GetDatum(pg_atomic_read_u64(&sh->cpu_ns) / 1e9);
	dsm_detach(seg);
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "bare_loop_run must return a record");
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, nulls)));
}
