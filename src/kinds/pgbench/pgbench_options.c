/*-------------------------------------------------------------------------
 *
 * pgbench_options.c
 *	  The options of a run of pgbench scripts, as its kind's backend-free
 *	  descriptor, pb_pgbench_library: what a client does on an error other
 *	  than a serialization failure or a deadlock, as pgbench's
 *	  --continue-on-error (pgbench 19) and --exit-on-abort (pgbench 17).
 *
 * They are the kind's options, not polarbench_run()'s parameters, since
 * they concern pgbench's scripts only (as max_tries would, had it not
 * come first): a run gives them in options, as any kind's, and
 * polarbench_workloads lists them beside each built-in script.
 *
 *-------------------------------------------------------------------------
 */
#include <stddef.h>
#include <string.h>

#include "pgbench.h"

#define PO(field) offsetof(PbPgbenchOptions, field)

static const PbOptionDef pgbench_options[] = {
	{"continue_on_error", PB_OPT_BOOL, PO(continue_on_error), 0, 0, NULL, false,
	"Whether a transaction whose SQL command fails, not by a serialization failure or a deadlock, is rolled back and counted as failed while its client goes on, as pgbench --continue-on-error", 0},
	{"exit_on_abort", PB_OPT_BOOL, PO(exit_on_abort), 0, 0, NULL, false,
	"Whether a client's abort (an error continue_on_error does not cover) stops every client and fails the run, as pgbench --exit-on-abort; false: that client stops alone, the others go on to the end, and the run is recorded aborted, as pgbench's default", 0},
	{NULL}
};

/*
 * The defaults: an error fails the run, as pgbench --exit-on-abort (a run
 * that errs fails, as it always did); exit_on_abort false is pgbench's own
 * default
 */
static void
pb_pgbench_defaults(void *options, int variant)
{
	PbPgbenchOptions *o = options;

	memset(o, 0, sizeof(PbPgbenchOptions));
	o->exit_on_abort = true;
}

/*
 * The kind's descriptor: its workloads are the built-in scripts, which its
 * driver lists and finds by unique prefix (builtin_scripts.c); its scripts
 * take variables, and a run its options.
 */
const PbKindLibrary pb_pgbench_library = {
	.name = "pgbench",
	.tool = "pgbench",
	.workloads = NULL,
	.options = pgbench_options,
	.options_size = sizeof(PbPgbenchOptions),
	.defaults = pb_pgbench_defaults,
	.check = NULL,
};

/* What a run of scripts is when no workload of the descriptor names it */
const PbWorkloadDef pb_pgbench_scripts = {"pgbench scripts", 0,
"pgbench scripts, built-in or custom"};
