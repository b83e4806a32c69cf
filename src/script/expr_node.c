/*-------------------------------------------------------------------------
 *
 * expr_node.c
 *	  Parsed expression trees (PbExpr, see pb_script_int.h): freeing them
 *	  and walking the variables they read.
 *
 *-------------------------------------------------------------------------
 */
#include <stdlib.h>

#include "pb_script_int.h"

/*
 * Free an expression tree.
 */
void
pb_expr_free(PbExpr *expr)
{
	int			i;

	if (expr == NULL)
		return;
	for (i = 0; i < expr->nargs; i++)
		pb_expr_free(expr->args[i]);
	free(expr->args);
	free(expr);
}

/*
 * Call fn for every variable read by expr.
 */
void
pb_expr_walk_vars(const PbExpr *expr, void (*fn) (int varid, void *arg),
				  void *arg)
{
	int			i;

	if (expr == NULL)
		return;
	if (expr->kind == PB_EXPR_VAR)
		fn(expr->varid, arg);
	for (i = 0; i < expr->nargs; i++)
		pb_expr_walk_vars(expr->args[i], fn, arg);
}
