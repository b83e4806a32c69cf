/*-------------------------------------------------------------------------
 *
 * statement_exec.h
 *	  What the drivers share to run a statement: prepared through SPI,
 *	  executed with its parameters, its result counted as the workload's
 *	  tool counts it, and the errors a workload absorbs (statement_exec.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_STATEMENT_EXEC_H
#define PB_STATEMENT_EXEC_H

#include "postgres.h"

#include "executor/spi.h"
#include "nodes/params.h"

#include "driver.h"

/*
 * pb_params_set
 *		Put the values of an execution into a parameter list made by
 *		pb_params_make(), which is NULL for a statement without parameters.
 */
static inline void
pb_params_set(ParamListInfo params, const Datum *values)
{
	if (params == NULL)
		return;
	for (int i = 0; i < params->numParams; i++)
		params->params[i].value = values[i];
}

/* statement_exec.c */
extern ParamListInfo pb_params_make(int nparams, const Oid *types);
extern SPIPlanPtr pb_spi_prepare(const char *sql, int nparams, Oid *types,
								 bool keep);
extern bool pb_plan_is_read_only(SPIPlanPtr plan);
extern bool pb_plan_is_utility(SPIPlanPtr plan);
extern void pb_spi_run(SPIPlanPtr plan, ParamListInfo params,
					   PbTxnCounts *counts, bool read_only);
extern void pb_absorb_ignorable_error(MemoryContext cxt, PbRunShared *run);

#endif							/* PB_STATEMENT_EXEC_H */
