/*-------------------------------------------------------------------------
 *
 * query_stack.h
 *	  The statements this process is executing, innermost last
 *	  (query_stack.c), so that a function can see the plan of the
 *	  statement that calls it, in a function's statement too.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_QUERY_STACK_H
#define PB_QUERY_STACK_H

#include "executor/execdesc.h"

extern void pb_query_stack_init(void);
extern QueryDesc *pb_query_executing(MemoryContext query_cxt);

#endif							/* PB_QUERY_STACK_H */
