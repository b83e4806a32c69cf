/*-------------------------------------------------------------------------
 *
 * query_stack.c
 *	  The statements this process is executing, innermost last: an
 *	  ExecutorRun hook pushes each statement as it runs and pops it when it
 *	  stops, by return or by error.
 *
 * A function called by a statement knows only its own call: its
 * expression and the statement's memory (fcinfo->flinfo).  The statement
 * at the top is the active portal's; one that a function runs (PL/pgSQL,
 * SQL, SPI) is no portal's.  Both run under ExecutorRun(), so the stack
 * finds either from its memory, with its plan.  The library is loaded, at
 * the latest, as the executor starts the first statement that calls one of
 * its functions, which is before that statement runs.  In background
 * workers (a run's clients and recorder) nothing is kept: they start no
 * run, and the benchmark's statements should not pay for the stack.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/executor.h"
#include "nodes/execnodes.h"
#include "postmaster/bgworker.h"

#include "query_stack.h"

/* One statement that runs, on the C stack of the hook that runs it */
typedef struct PbQueryFrame
{
	QueryDesc  *query;
	struct PbQueryFrame *outer;
} PbQueryFrame;

static PbQueryFrame *innermost = NULL;
static ExecutorRun_hook_type prev_executor_run = NULL;

/*
 * pb_executor_run
 *		ExecutorRun hook: run the statement with it on the stack.
 */
static void
pb_executor_run(QueryDesc *queryDesc, ScanDirection direction, uint64 count,
				bool execute_once)
{
	PbQueryFrame frame;

	/*
	 * Background workers (a run's clients) start no run: their statements,
	 * the benchmark's, go straight through
	 */
	if (MyBgworkerEntry != NULL)
	{
		if (prev_executor_run)
			prev_executor_run(queryDesc, direction, count, execute_once);
		else
			standard_ExecutorRun(queryDesc, direction, count, execute_once);
		return;
	}
	frame.query = queryDesc;
	frame.outer = innermost;
	innermost = &frame;
	PG_TRY();
	{
		if (prev_executor_run)
			prev_executor_run(queryDesc, direction, count, execute_once);
		else
			standard_ExecutorRun(queryDesc, direction, count, execute_once);
	}
	PG_FINALLY();
	{
		innermost = frame.outer;
	}
	PG_END_TRY();
}

/*
 * pb_query_stack_init
 *		Install the hook, once, when the library is loaded.
 */
void
pb_query_stack_init(void)
{
	prev_executor_run = ExecutorRun_hook;
	ExecutorRun_hook = pb_executor_run;
}

/*
 * pb_query_executing
 *		The statement running now whose memory is query_cxt (its executor
 *		state's per-query context), innermost first; NULL if none is.
 */
QueryDesc *
pb_query_executing(MemoryContext query_cxt)
{
	for (PbQueryFrame *f = innermost; f != NULL; f = f->outer)
		if (f->query->estate != NULL && f->query->estate->es_query_cxt == query_cxt)
			return f->query;
	return NULL;
}
