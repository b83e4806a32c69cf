/*-------------------------------------------------------------------------
 *
 * callsite.c
 *	  Whether the calling statement calls polarbench_run() (or
 *	  polarbench_sweep()) once for the row it wants, or once for each
 *	  column of it.
 *
 * SELECT (polarbench_run(...)).* is expanded by the parser into one call
 * per column of the result, (polarbench_run(...)).run_id,
 * (polarbench_run(...)).workload, ..., each of which would be a run of its
 * own, and the row returned would be stitched from thirty runs.  The plan
 * of the calling statement shows it, whether the statement is the one at
 * the top (what psql and the client send) or one a function runs (PL/pgSQL,
 * SQL): query_stack.c finds it from the call's memory, and the call is
 * refused before anything starts.  (The planner computes the equal
 * set-returning calls of one select list once, so (polarbench_sweep(...)).*
 * is one sweep; polarbench_sweep() is checked all the same, should a plan
 * ever hold several of its calls.)  Only an expression that PL/pgSQL
 * evaluates without the executor (x := (polarbench_run(...)).tps +
 * (polarbench_run(...)).qps) has no plan; there, the second call with the
 * same arguments from another place of the same expression is refused once
 * the first run is over, so that it fails rather than return figures of
 * two runs.
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

#include "query_stack.h"
#include "functions.h"

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

/*
 * Walk the expressions of every node of a plan, and of its subplans (the
 * executor's state of it, which has them all).
 */
static bool
pb_count_in_planstate(PlanState *ps, void *context)
{
	PbCallCount *count = (PbCallCount *) context;
	Plan	   *plan = ps->plan;

	(void) pb_count_walker((Node *) plan->targetlist, count);
	(void) pb_count_walker((Node *) plan->qual, count);
	switch (nodeTag(plan))
	{
		case T_Result:
			(void) pb_count_walker(((Result *) plan)->resconstantqual, count);
			break;
		case T_FunctionScan:
			(void) pb_count_walker((Node *) ((FunctionScan *) plan)->functions, count);
			break;
		case T_ValuesScan:
			(void) pb_count_walker((Node *) ((ValuesScan *) plan)->values_lists, count);
			break;
		case T_NestLoop:
		case T_MergeJoin:
		case T_HashJoin:
			(void) pb_count_walker((Node *) ((Join *) plan)->joinqual, count);
			break;
		default:
			break;
	}
	return planstate_tree_walker(ps, pb_count_in_planstate, context);
}

/*
 * The error of a call that is one of several for one row; what each call
 * would be is a noun ("run", "sweep").
 */
static void
pb_refuse_per_column(const char *function, const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("%s would be called once for each column of its result", function),
			 errdetail("In (%s(...)).* or (%s(...)).column, each column is a call of its own, so each would be a %s of its own, and the row would be made of several %ss.",
					   function, function, what, what),
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
 *		when the calling statement's plan can be seen (a statement the
 *		executor runs), else when the second of them comes.  what is what
 *		each call would be ("run", "sweep").
 */
void
pb_check_called_once(FunctionCallInfo fcinfo, const char *function,
					 const char *what)
{
	Portal		portal = ActivePortal;
	FmgrInfo   *flinfo = fcinfo->flinfo;
	QueryDesc  *query;
	PbCallCount count;
	MemoryContext old;

	if (flinfo == NULL || flinfo->fn_expr == NULL)
		return;
	count.call = flinfo->fn_expr;
	count.taken_apart = 0;

	/* the statement that calls it, at the top or run by a function */
	query = pb_query_executing(flinfo->fn_mcxt);
	if (query == NULL && portal != NULL && portal->queryDesc != NULL &&
		portal->queryDesc->estate != NULL &&
		flinfo->fn_mcxt == portal->queryDesc->estate->es_query_cxt)
		query = portal->queryDesc;
	if (query != NULL && query->planstate != NULL)
	{
		(void) pb_count_in_planstate(query->planstate, &count);
		if (count.taken_apart > 1)
			pb_refuse_per_column(function, what);
		return;
	}

	/* an expression with no plan: the same call from another place of it */
	if (last_call.query_cxt == flinfo->fn_mcxt && last_call.flinfo != flinfo &&
		equal(last_call.call, flinfo->fn_expr))
		pb_refuse_per_column(function, what);
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
