/*-------------------------------------------------------------------------
 *
 * run_callsite.c
 *	  Whether the calling statement calls polarbench_run() once for the row
 *	  it wants, or once for each column of it.
 *
 * SELECT (polarbench_run(...)).* is expanded by the parser into one call
 * per column of the result, (polarbench_run(...)).run_id,
 * (polarbench_run(...)).workload, ..., each of which would be a run of its
 * own, and the row returned would be stitched from thirty runs.  When the
 * call is in the statement at the top (what psql and the client send), the
 * statement's plan shows it, and the call is refused before anything
 * starts.  When it is in a statement run by a function (PL/pgSQL, SQL), the
 * plan cannot be seen; there, the second call with the same arguments from
 * another place of the same statement is refused once the first run is
 * over, so that the statement fails rather than return a stitched row.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/execdesc.h"
#include "nodes/execnodes.h"
#include "nodes/nodeFuncs.h"
#include "nodes/plannodes.h"
#include "tcop/pquery.h"
#include "utils/memutils.h"
#include "utils/portal.h"

#include "sql.h"

/* What the walk of a plan looks for and counts */
typedef struct PbCallCount
{
	Node	   *call;			/* this call's expression */
	int			taken_apart;	/* equal calls under a FieldSelect */
} PbCallCount;

/* The last call seen in a statement the plan of which could not be seen */
typedef struct PbLastCall
{
	MemoryContext query_cxt;	/* the statement's; NULL when none */
	FmgrInfo   *flinfo;			/* the call's place in it */
	Node	   *call;			/* a copy of its expression, in query_cxt */
} PbLastCall;

static PbLastCall last_call;

/* Count the calls equal to this one that a FieldSelect takes apart. */
static bool
pb_count_walker(Node *node, PbCallCount *count)
{
	if (node == NULL)
		return false;
	if (IsA(node, FieldSelect) &&
		equal(((FieldSelect *) node)->arg, count->call))
		count->taken_apart++;
	return expression_tree_walker(node, pb_count_walker, (void *) count);
}

/* Walk the expressions of every node of a plan tree. */
static void
pb_count_in_plan(Plan *plan, PbCallCount *count)
{
	if (plan == NULL)
		return;
	(void) pb_count_walker((Node *) plan->targetlist, count);
	(void) pb_count_walker((Node *) plan->qual, count);
	if (IsA(plan, Result))
		(void) pb_count_walker(((Result *) plan)->resconstantqual, count);
	else if (IsA(plan, FunctionScan))
		(void) pb_count_walker((Node *) ((FunctionScan *) plan)->functions, count);
	pb_count_in_plan(plan->lefttree, count);
	pb_count_in_plan(plan->righttree, count);
}

/* The error of a call that is one of several for one row. */
static void
pb_refuse_per_column(const char *function)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("%s would be called once for each column of its result", function),
			 errdetail("In (%s(...)).* or (%s(...)).column, each column is a call of its own, so each would be a run of its own, and the row would be made of several runs.",
					   function, function),
			 errhint("Call it in FROM: SELECT * FROM %s(...).", function)));
}

/* A statement's memory (arg) is gone: so is its last call. */
static void
pb_forget_last_call(void *arg)
{
	if (last_call.query_cxt != (MemoryContext) arg)
		return;
	last_call.query_cxt = NULL;
	last_call.flinfo = NULL;
	last_call.call = NULL;
}

/*
 * pb_check_called_once
 *		Refuse a call of function that is one of the several calls into
 *		which the parser expanded (function(...)).*: before anything starts
 *		when the calling statement is the top one, else when the second of
 *		them comes.
 */
void
pb_check_called_once(FunctionCallInfo fcinfo, const char *function)
{
	Portal		portal = ActivePortal;
	FmgrInfo   *flinfo = fcinfo->flinfo;
	PbCallCount count;
	MemoryContext old;

	if (flinfo == NULL || flinfo->fn_expr == NULL)
		return;
	count.call = flinfo->fn_expr;
	count.taken_apart = 0;

	/* the statement at the top, whose plan shows every call */
	if (portal != NULL && portal->queryDesc != NULL &&
		portal->queryDesc->estate != NULL &&
		flinfo->fn_mcxt == portal->queryDesc->estate->es_query_cxt)
	{
		pb_count_in_plan(portal->queryDesc->plannedstmt->planTree, &count);
		if (count.taken_apart > 1)
			pb_refuse_per_column(function);
		return;
	}

	/* a statement of a function: the same call from another place of it */
	if (last_call.query_cxt == flinfo->fn_mcxt && last_call.flinfo != flinfo &&
		equal(last_call.call, flinfo->fn_expr))
		pb_refuse_per_column(function);
	if (last_call.query_cxt != flinfo->fn_mcxt)
	{
		MemoryContextCallback *forget = MemoryContextAlloc(flinfo->fn_mcxt,
														   sizeof(MemoryContextCallback));

		forget->func = pb_forget_last_call;
		forget->arg = flinfo->fn_mcxt;
		MemoryContextRegisterResetCallback(flinfo->fn_mcxt, forget);
	}
	last_call.query_cxt = flinfo->fn_mcxt;
	last_call.flinfo = flinfo;
	old = MemoryContextSwitchTo(flinfo->fn_mcxt);
	last_call.call = copyObject(flinfo->fn_expr);
	MemoryContextSwitchTo(old);
}
