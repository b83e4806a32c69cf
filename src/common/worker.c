/*-------------------------------------------------------------------------
 *
 * worker.c
 *	  What the run's clients and recorder and the parallel load's workers
 *	  all do the same way.
 *
 * Every worker is a dynamic background worker of the polarbench library
 * with a database connection, started by a backend that waits for it
 * (bgw_notify_pid) and that passes it a dynamic shared memory segment and
 * its number.  If the segment is gone when the worker starts, its starter
 * is gone too, and the worker exits without a word.  A worker hands its
 * error to its starter through the segment, which raises it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_authid.h"
#include "commands/variable.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "storage/ipc.h"
#include "tcop/tcopprot.h"
#include "utils/guc.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "worker.h"

/*
 * pb_worker_register
 *		Register one worker running function of the polarbench library,
 *		called name in the server log and type in pg_stat_activity, with the
 *		segment's handle and its number index.  NULL when no background
 *		worker slot is free.
 */
BackgroundWorkerHandle *
pb_worker_register(dsm_segment *seg, const char *function, const char *name,
				   const char *type, int index, BgWorkerStartTime start)
{
	BackgroundWorker worker;
	BackgroundWorkerHandle *handle;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = start;
	worker.bgw_restart_time = BGW_NEVER_RESTART;
	strlcpy(worker.bgw_library_name, "polarbench", BGW_MAXLEN);
	strlcpy(worker.bgw_function_name, function, BGW_MAXLEN);
	strlcpy(worker.bgw_name, name, BGW_MAXLEN);
	strlcpy(worker.bgw_type, type, BGW_MAXLEN);
	worker.bgw_main_arg = UInt32GetDatum(dsm_segment_handle(seg));
	memcpy(worker.bgw_extra, &index, sizeof(int));
	worker.bgw_notify_pid = MyProcPid;

	if (!RegisterDynamicBackgroundWorker(&worker, &handle))
		return NULL;
	return handle;
}

/*
 * pb_worker_attach
 *		In a worker, unblock signals and attach to the segment its starter
 *		made.  If the segment is gone, so is the starter: exit.
 */
dsm_segment *
pb_worker_attach(Datum main_arg, const char *what)
{
	dsm_segment *seg;

	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	CurrentResourceOwner = ResourceOwnerCreate(NULL, what);
	seg = dsm_attach(DatumGetUInt32(main_arg));
	if (seg == NULL)
		proc_exit(0);
	return seg;
}

/*
 * pb_worker_index
 *		In a worker, its number as its starter registered it.
 */
int
pb_worker_index(void)
{
	int			index;

	memcpy(&index, MyBgworkerEntry->bgw_extra, sizeof(int));
	return index;
}

/*
 * pb_shared_error_set
 *		Fill an error to hand over.
 */
void
pb_shared_error_set(PbSharedError *error, int sqlerrcode, const char *message,
					const char *detail, const char *hint, const char *context)
{
	error->sqlerrcode = sqlerrcode;
	strlcpy(error->message, message ? message : "", sizeof(error->message));
	strlcpy(error->detail, detail ? detail : "", sizeof(error->detail));
	strlcpy(error->hint, hint ? hint : "", sizeof(error->hint));
	strlcpy(error->context, context ? context : "", sizeof(error->context));
}

/*
 * pb_shared_error_copy
 *		Fill an error to hand over from a caught one.
 */
void
pb_shared_error_copy(PbSharedError *error, const ErrorData *edata)
{
	pb_shared_error_set(error, edata->sqlerrcode,
						edata->message ? edata->message : "unknown error",
						edata->detail, edata->hint, edata->context);
}

/*
 * pb_shared_error_raise
 *		Raise a handed-over error in the backend that started the worker,
 *		with its own context, then context saying where it came from.
 */
void
pb_shared_error_raise(const PbSharedError *error, const char *context)
{
	ereport(ERROR,
			(errcode(error->sqlerrcode),
			 errmsg_internal("%s", error->message),
			 error->detail[0] ? errdetail_internal("%s", error->detail) : 0,
			 error->hint[0] ? errhint("%s", error->hint) : 0,
			 error->context[0] ? errcontext("%s", error->context) : 0,
			 context ? errcontext("%s", context) : 0));
}

/*
 * The memory context that was current when pb_xact_begin() was called, to
 * be current again after pb_xact_commit().  A transaction's start, SPI's
 * calls and a commit each leave another context current (the transaction's,
 * SPI's procedure context, TopMemoryContext): what a worker allocates
 * between its transactions must not land in one of those by accident, to
 * be freed while still in use or never freed at all.
 */
static MemoryContext pb_xact_caller_cxt = NULL;

/*
 * pb_xact_open
 *		Start a transaction in a worker, in a transaction block with block;
 *		apply the options of a BEGIN (isolation level, read only, deferrable:
 *		a list of DefElem, or NIL) before it takes its first snapshot, as
 *		the server applies them; connect SPI and push a snapshot.
 */
static void
pb_xact_open(List *options, bool block)
{
	ListCell   *lc;

	Assert(!IsTransactionState());
	pb_xact_caller_cxt = CurrentMemoryContext;
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	if (block)
		BeginImplicitTransactionBlock();
	foreach(lc, options)
	{
		DefElem    *item = lfirst_node(DefElem, lc);

		if (strcmp(item->defname, "transaction_isolation") == 0 ||
			strcmp(item->defname, "transaction_read_only") == 0 ||
			strcmp(item->defname, "transaction_deferrable") == 0)
			SetPGVariable(item->defname, list_make1(item->arg), true);
	}
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	PushActiveSnapshot(GetTransactionSnapshot());
}

/*
 * pb_xact_begin
 *		Start a transaction in a worker, as the server starts one for a
 *		statement sent on its own, with the options of a BEGIN (isolation
 *		level, read only, deferrable: a list of DefElem, or NIL); connect
 *		SPI and push a snapshot.  Called outside any transaction, in a
 *		context that outlives it.
 */
void
pb_xact_begin(List *options)
{
	pb_xact_open(options, false);
}

/*
 * pb_xact_begin_block
 *		pb_xact_begin() for a transaction of several statements, which a
 *		client opens with BEGIN or sends as one query string: in a
 *		transaction block, so that IsTransactionBlock() says so to the code
 *		that decides from it how a statement runs.  Citus does: outside a
 *		block it runs each statement on the nodes that hold its shards as a
 *		transaction of its own, committed there when it ends, so a failure
 *		later in the same transaction would leave the earlier statements
 *		committed on other nodes; inside one, the nodes' transactions commit
 *		or roll back with this one.
 *
 * The block is the kind the server opens for a query string of several
 * statements (an implicit one): it ends with the transaction, committed by
 * pb_xact_commit() or rolled back by AbortCurrentTransaction() after an
 * error, with nothing more to do, so every rollback path stays as it is.
 * It costs a change of the transaction's state, nothing more.
 */
void
pb_xact_begin_block(List *options)
{
	pb_xact_open(options, true);
}

/*
 * pb_xact_end_statement
 *		Let go of what pb_xact_begin() or pb_xact_begin_block() took but
 *		the transaction itself.
 */
void
pb_xact_end_statement(void)
{
	PopActiveSnapshot();
	SPI_finish();
}

/*
 * pb_xact_commit
 *		Commit what pb_xact_begin() or pb_xact_begin_block() started, and
 *		make the memory context of its caller current again.
 */
void
pb_xact_commit(void)
{
	pb_xact_end_statement();
	/* out of the block, if any, so that the transaction commits */
	EndImplicitTransactionBlock();
	CommitTransactionCommand();
	if (pb_xact_caller_cxt != NULL)
		MemoryContextSwitchTo(pb_xact_caller_cxt);
}

/*
 * pb_xact_rollback
 *		Roll back what pb_xact_begin() or pb_xact_begin_block() started, as
 *		a ROLLBACK would, and make the memory context of its caller current
 *		again.
 */
void
pb_xact_rollback(void)
{
	pb_xact_end_statement();
	AbortCurrentTransaction();
	if (pb_xact_caller_cxt != NULL)
		MemoryContextSwitchTo(pb_xact_caller_cxt);
}

/*
 * pb_in_rolled_back_subxact
 *		Call fn(arg) in a subtransaction of the caller's transaction, with
 *		SPI connected, and roll the subtransaction back, so that nothing
 *		fn did (the locks its parse analysis took, the plans it made) is
 *		left.  cleanup(arg), if given, runs after the rollback, whether fn
 *		returned or raised an error; errors propagate.
 */
void
pb_in_rolled_back_subxact(void (*fn) (void *arg), void (*cleanup) (void *arg),
						  void *arg)
{
	MemoryContext oldcxt = CurrentMemoryContext;
	ResourceOwner oldowner = CurrentResourceOwner;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(oldcxt);
	PG_TRY();
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		fn(arg);
		SPI_finish();
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(oldcxt);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcxt);
		CurrentResourceOwner = oldowner;
		if (cleanup != NULL)
			cleanup(arg);
		ReThrowError(edata);
	}
	PG_END_TRY();

	RollbackAndReleaseCurrentSubTransaction();
	MemoryContextSwitchTo(oldcxt);
	CurrentResourceOwner = oldowner;
	if (cleanup != NULL)
		cleanup(arg);
}

/*
 * pb_check_role_can_login
 *		Workers log in as the current role: it must be allowed to.  detail
 *		says who logs in, hint what to do instead (or NULL).
 */
void
pb_check_role_can_login(const char *detail, const char *hint)
{
	HeapTuple	tuple = SearchSysCache1(AUTHOID, ObjectIdGetDatum(GetUserId()));
	bool		canlogin;

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for role %u", GetUserId());
	canlogin = ((Form_pg_authid) GETSTRUCT(tuple))->rolcanlogin;
	ReleaseSysCache(tuple);
	if (!canlogin)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("role \"%s\" is not permitted to log in",
						GetUserNameFromId(GetUserId(), false)),
				 errdetail("%s", detail),
				 hint ? errhint("%s", hint) : 0));
}
