/*-------------------------------------------------------------------------
 *
 * snapshot.c
 *	  Whether the caller's snapshot may stop holding back the xmin horizon
 *	  while its run goes on, and doing so.
 *
 * A benchmark of updates depends on it: as long as one session's xmin is
 * older than the run, no row version the clients make dead can be pruned,
 * HOT chains grow without bound and the throughput measured falls with the
 * length of the run, which a client-side benchmark never sees.  But a
 * snapshot whose xmin is no longer advertised must never be read with
 * again: the rows it sees may be gone.  So the release is allowed only for
 * statements whose shape shows that nothing reads with the snapshot after
 * the run (a whitelist, checked on the plan), and only when no other
 * snapshot of the transaction can be read with later:
 *
 *	- the statement is the top-level one, a plain SELECT of the unnamed
 *	  portal (not a cursor, which could be fetched from again), whose plan
 *	  is one Result or FunctionScan node without subplans, and whose
 *	  expressions are this one call of polarbench_run() (whose arguments
 *	  are evaluated before it runs, so may be anything but subqueries),
 *	  constants, parameters, output columns, and built-in immutable
 *	  functions and operators (which read no table);
 *	- the transaction runs at READ COMMITTED (each statement takes a new
 *	  snapshot) and has no transaction id (it wrote nothing);
 *	- no other portal is open (a cursor holds its snapshot, and so does a
 *	  portal the extended protocol suspended), and no snapshot was
 *	  exported: in a transaction block, and in the implicit transaction of
 *	  an extended-protocol pipeline too, which is not a block.
 *
 * What remains outside what can be checked: a large object opened for
 * reading earlier in the same transaction block keeps a snapshot of its
 * own.  The README says so.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/transam.h"
#include "access/xact.h"
#include "catalog/pg_proc.h"
#include "executor/execdesc.h"
#include "nodes/nodeFuncs.h"
#include "nodes/plannodes.h"
#include "storage/proc.h"
#include "tcop/pquery.h"
#include "utils/lsyscache.h"
#include "utils/portal.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"

#include "engine.h"

/* What the expression walker looks for */
typedef struct PbShapeCheck
{
	Oid			funcid;			/* polarbench_run's own OID */
	int			calls;			/* its calls seen */
	bool		ok;				/* nothing outside the whitelist yet */
} PbShapeCheck;

/*
 * pb_safe_function
 *		A function that reads no table with the snapshot: a built-in one
 *		marked immutable.
 */
static bool
pb_safe_function(Oid funcid)
{
	return funcid < FirstGenbkiObjectId &&
		func_volatile(funcid) == PROVOLATILE_IMMUTABLE;
}

/*
 * pb_shape_walker
 *		Whether an expression stays within the whitelist.
 */
static bool
pb_shape_walker(Node *node, PbShapeCheck *check)
{
	if (node == NULL || !check->ok)
		return false;
	switch (nodeTag(node))
	{
		case T_Var:
		case T_Const:
		case T_TargetEntry:
		case T_List:
		case T_FieldSelect:
		case T_RelabelType:
		case T_NullTest:
		case T_BoolExpr:
		case T_CoalesceExpr:
		case T_RangeTblFunction:
			break;
		case T_Param:
			if (((Param *) node)->paramkind != PARAM_EXTERN)
				check->ok = false;
			break;
		case T_FuncExpr:
			{
				FuncExpr   *func = (FuncExpr *) node;

				/*
				 * Its arguments are evaluated before it runs, so they may
				 * read what they like.
				 */
				if (func->funcid == check->funcid)
				{
					check->calls++;
					return false;
				}
				if (!pb_safe_function(func->funcid))
					check->ok = false;
				break;
			}
		case T_OpExpr:
		case T_DistinctExpr:
		case T_NullIfExpr:
			{
				OpExpr	   *op = (OpExpr *) node;

				set_opfuncid(op);
				if (!pb_safe_function(op->opfuncid))
					check->ok = false;
				break;
			}
		default:
			check->ok = false;
			break;
	}
	if (!check->ok)
		return true;
	return expression_tree_walker(node, pb_shape_walker, (void *) check);
}

/*
 * pb_plan_is_plain_call
 *		Whether the plan is one Result or FunctionScan node whose
 *		expressions stay within the whitelist and call polarbench_run once.
 */
static bool
pb_plan_is_plain_call(PlannedStmt *stmt, Oid funcid)
{
	Plan	   *plan = stmt->planTree;
	PbShapeCheck check = {funcid, 0, true};
	ListCell   *lc;

	if (stmt->commandType != CMD_SELECT || stmt->hasModifyingCTE ||
		stmt->subplans != NIL || stmt->rowMarks != NIL ||
		plan == NULL || plan->lefttree != NULL || plan->righttree != NULL ||
		plan->initPlan != NIL)
		return false;

	foreach(lc, stmt->rtable)
	{
		RangeTblEntry *rte = lfirst_node(RangeTblEntry, lc);

		if (rte->rtekind != RTE_FUNCTION && rte->rtekind != RTE_RESULT)
			return false;
	}

	(void) pb_shape_walker((Node *) plan->targetlist, &check);
	(void) pb_shape_walker((Node *) plan->qual, &check);
	switch (nodeTag(plan))
	{
		case T_Result:
			(void) pb_shape_walker(((Result *) plan)->resconstantqual, &check);
			break;
		case T_FunctionScan:
			(void) pb_shape_walker((Node *) ((FunctionScan *) plan)->functions,
								   &check);
			break;
		default:
			return false;
	}
	return check.ok && check.calls == 1;
}

/*
 * pb_other_portal_open
 *		Whether a portal other than the running one is open (ready to be
 *		read from), in the whole session.  ThereAreNoReadyPortals() ends its
 *		walk of the portals early, without ending the scan, which would be
 *		reported as leaked at commit: it is called in a subtransaction rolled
 *		back at once, whose abort ends the scan quietly.
 */
static bool
pb_other_portal_open(void)
{
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	bool		open;

	BeginInternalSubTransaction(NULL);
	open = !ThereAreNoReadyPortals();
	RollbackAndReleaseCurrentSubTransaction();
	MemoryContextSwitchTo(cxt);
	CurrentResourceOwner = owner;
	return open;
}

/*
 * pb_can_release_snapshot
 *		Whether the caller's snapshot may stop holding back the xmin horizon
 *		while the run goes on; see the file header.
 */
bool
pb_can_release_snapshot(FunctionCallInfo fcinfo)
{
	Portal		portal = ActivePortal;
	QueryDesc  *query;

	if (IsolationUsesXactSnapshot() ||
		TransactionIdIsValid(GetTopTransactionIdIfAny()))
		return false;
	if (portal == NULL || portal->name == NULL || portal->name[0] != '\0' ||
		portal->strategy != PORTAL_ONE_SELECT ||
		(portal->cursorOptions & CURSOR_OPT_SCROLL) ||
		portal->queryDesc == NULL || portal->queryDesc->estate == NULL ||
		fcinfo->flinfo == NULL)
		return false;
	query = portal->queryDesc;
	if (fcinfo->flinfo->fn_mcxt != query->estate->es_query_cxt)
		return false;			/* called from a nested query */
	if (!pb_plan_is_plain_call(query->plannedstmt, fcinfo->flinfo->fn_oid))
		return false;
	if (XactHasExportedSnapshots() || pb_other_portal_open())
		return false;
	return true;
}

/*
 * pb_release_xmin
 *		Stop holding back the xmin horizon; pb_can_release_snapshot() said
 *		that nothing will read with this backend's snapshots again.  Done at
 *		every wake-up of the launcher, as interrupt processing may have
 *		taken a catalog snapshot (whose xmin is a current one).
 */
void
pb_release_xmin(void)
{
	InvalidateCatalogSnapshot();
	MyProc->xmin = InvalidTransactionId;
}

/*
 * pb_refresh_xmin
 *		Once the run is over, advertise a current xmin until the statement
 *		ends, so that the statement's own snapshot, when the executor lets
 *		go of it, does not bring the old horizon back for a moment.
 */
void
pb_refresh_xmin(void)
{
	InvalidateCatalogSnapshot();
	(void) GetLatestSnapshot();
}
