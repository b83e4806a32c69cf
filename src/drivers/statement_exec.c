/*-------------------------------------------------------------------------
 *
 * statement_exec.c
 *	  The statement executor the drivers share: a statement prepared and
 *	  kept, and run through SPI with its rows unread: each row is formed and
 *	  its columns taken apart, as a server does before it sends a row, and
 *	  then dropped, instead of being copied into an SPI tuple table that is
 *	  freed right after.
 *
 * Also the errors that the tools of some workloads go on after: a
 * deadlock, a unique violation, a serialization failure; and a cancel that
 * an extension tells is one of those.
 *
 * A client of a server receives every row of its queries (sysbench and
 * YCSB's JDBC binding fetch them all); what it then does with them is the
 * client's cost, which polarbench's clients do not have.  The rows are
 * still produced in full, so the statement does all its work.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "nodes/params.h"
#include "tcop/dest.h"
#include "utils/memutils.h"

#include "statement_exec.h"

/* The receiver: whether the statement returns rows at all */
typedef struct PbDiscard
{
	DestReceiver pub;
	bool		returns_rows;
} PbDiscard;

/* Take the row apart, as printtup() would before sending it. */
static bool
pb_discard_receive(TupleTableSlot *slot, DestReceiver *self)
{
	slot_getallattrs(slot);
	return true;
}

/* Called only for statements that return rows (SELECT, RETURNING). */
static void
pb_discard_startup(DestReceiver *self, int operation, TupleDesc typeinfo)
{
	((PbDiscard *) self)->returns_rows = true;
}

/* Nothing to do at the end. */
static void
pb_discard_shutdown(DestReceiver *self)
{
}

/* The receiver is static: nothing to free. */
static void
pb_discard_destroy(DestReceiver *self)
{
}

static PbDiscard discard = {
	{pb_discard_receive, pb_discard_startup, pb_discard_shutdown,
	pb_discard_destroy, DestNone},
	false
};

/*
 * pb_params_make
 *		A parameter list of the given types, to be filled before each
 *		execution with pb_params_set(); in the current memory context.  NULL
 *		for a statement without parameters, as PostgreSQL's own callers pass
 *		it: an executor hook may copy the list with copyParamList(), which
 *		makes NULL of an empty one, and then read the copy (Citus's adaptive
 *		executor does, and crashed on an empty list).
 */
ParamListInfo
pb_params_make(int nparams, const Oid *types)
{
	ParamListInfo params;

	if (nparams == 0)
		return NULL;
	params = makeParamList(nparams);

	for (int i = 0; i < nparams; i++)
	{
		params->params[i].ptype = types[i];
		params->params[i].pflags = PARAM_FLAG_CONST;
		params->params[i].isnull = false;
		params->params[i].value = (Datum) 0;
	}
	return params;
}

/*
 * pb_spi_prepare
 *		Prepare a statement with SPI connected and, with keep, keep its plan
 *		past the transaction.  SPI's calls return in SPI's procedure
 *		context, which SPI_finish() deletes: the caller's memory context is
 *		made current again, so that what the caller allocates next (the
 *		arrays that hold these plans, say) outlives the transaction.
 */
SPIPlanPtr
pb_spi_prepare(const char *sql, int nparams, Oid *types, bool keep)
{
	MemoryContext cxt = CurrentMemoryContext;
	SPIPlanPtr	plan = SPI_prepare(sql, nparams, types);

	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed for \"%s\": %s", sql,
			 SPI_result_code_string(SPI_result));
	if (keep && SPI_keepplan(plan) != 0)
		elog(ERROR, "SPI_keepplan failed");
	MemoryContextSwitchTo(cxt);
	return plan;
}

/*
 * pb_plan_every_query
 *		Whether test holds of every statement of a plan (false for a plan
 *		not analysed yet).
 */
static bool
pb_plan_every_query(SPIPlanPtr plan, bool (*test) (const Query *query))
{
	ListCell   *lc;

	foreach(lc, SPI_plan_get_plan_sources(plan))
	{
		CachedPlanSource *source = lfirst(lc);
		ListCell   *lq;

		if (source->query_list == NIL)
			return false;
		foreach(lq, source->query_list)
			if (!test(lfirst_node(Query, lq)))
				return false;
	}
	return true;
}

/* A SELECT without FOR UPDATE/SHARE and without a data-modifying WITH */
static bool
pb_query_only_reads(const Query *query)
{
	return query->commandType == CMD_SELECT && query->rowMarks == NIL &&
		!query->hasModifyingCTE;
}

/* A utility command */
static bool
pb_query_is_utility(const Query *query)
{
	return query->commandType == CMD_UTILITY;
}

/*
 * pb_plan_is_read_only
 *		Whether every statement of a plan only reads: a SELECT without FOR
 *		UPDATE/SHARE and without a data-modifying WITH, as the server's
 *		CommandIsReadOnly() says of its plan.  (Functions it calls may
 *		write; they take snapshots of their own, as in any SELECT.)
 */
bool
pb_plan_is_read_only(SPIPlanPtr plan)
{
	return pb_plan_every_query(plan, pb_query_only_reads);
}

/*
 * pb_plan_is_utility
 *		Whether every statement of a plan is a utility command (SET, SHOW,
 *		LOCK, ...), which a hot standby runs if it may, and refuses with its
 *		own error if not.
 */
bool
pb_plan_is_utility(SPIPlanPtr plan)
{
	return pb_plan_every_query(plan, pb_query_is_utility);
}

/*
 * pb_spi_run
 *		Execute a prepared plan with SPI connected, its rows dropped, and
 *		count it as a read if it returns rows, else a write if it affected
 *		rows, else other.  With read_only (a plan that only reads, the one
 *		statement of a transaction whose snapshot is the active one), the
 *		statement runs with that snapshot, as the server runs a statement
 *		sent on its own, instead of SPI taking a second one.  Errors
 *		propagate.
 */
void
pb_spi_run(SPIPlanPtr plan, ParamListInfo params, PbTxnCounts *counts,
		   bool read_only)
{
	SPIExecuteOptions options;
	int			rc;

	memset(&options, 0, sizeof(options));
	options.params = params;
	options.read_only = read_only;
	options.dest = &discard.pub;
	discard.returns_rows = false;
	rc = SPI_execute_plan_extended(plan, &options);
	if (rc < 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("this command cannot run in a benchmark script"),
				 errdetail("SPI refused it with %s.", SPI_result_code_string(rc))));
	pb_count_statement(counts, discard.returns_rows, SPI_processed);
}

/*
 * pb_absorb_ignorable_error
 *		In a PG_CATCH block: if the error is one that a workload's tool goes
 *		on after (40P01, 23505, 40001) and the run is not stopping, roll the
 *		transaction back, forget the error and return, in memory context
 *		cxt; otherwise raise it again.
 */
void
pb_absorb_ignorable_error(MemoryContext cxt, PbRunShared *run)
{
	ErrorData  *edata;
	int			code;

	MemoryContextSwitchTo(cxt);
	pb_report_foreign_cancel(run);
	edata = CopyErrorData();
	code = edata->sqlerrcode;
	FreeErrorData(edata);
	if ((code != ERRCODE_T_R_DEADLOCK_DETECTED &&
		 code != ERRCODE_UNIQUE_VIOLATION &&
		 code != ERRCODE_T_R_SERIALIZATION_FAILURE) ||
		pg_atomic_read_u32(&run->stop_reason) != PB_STOP_NONE)
		PG_RE_THROW();
	HOLD_INTERRUPTS();
	FlushErrorState();
	AbortCurrentTransaction();
	RESUME_INTERRUPTS();
	MemoryContextSwitchTo(cxt);
}
