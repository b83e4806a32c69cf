/*-------------------------------------------------------------------------
 *
 * run_check.c
 *	  What is checked of a run's scripts in the calling backend before any
 *	  worker starts: every SQL command prepares (its syntax, its tables and
 *	  columns, as the caller, who is also the clients' role), every
 *	  variable that keeps one value for the run reads as the type of the
 *	  parameters it is bound to, and the memory the clients would take
 *	  stays within polarbench.max_run_memory.
 *
 * The commands are prepared in a subtransaction that is rolled back, so
 * that the locks parse analysis takes on the tables are not held by the
 * caller while its clients run (a client's ALTER or LOCK would wait for
 * them for ever).
 *
 * calls: settings.c, run_shmem.c, script_exec.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "executor/spi.h"
#include "utils/memutils.h"
#include "utils/resowner.h"

#include "run.h"
#include "settings.h"

/*
 * What a client takes, as measured with pg_log_backend_memory_contexts()
 * on a client of a run of N distinct one-row SELECTs (see the README): a
 * backend of its own, about 1.1 MB, and per plan three plan cache contexts
 * of 4 kB blocks (14 kB with the executor's own entry).  Other commands
 * cost their parse trees, well under a kilobyte.
 */
#define PB_CLIENT_BASE_BYTES	(1152 * 1024)
#define PB_PLAN_BYTES			(14 * 1024)
#define PB_COMMAND_BYTES		512

/*
 * pb_check_scripts
 *		Prepare every SQL command of set and check the fixed variable values
 *		(values[varid], NULL where a variable has none) in a subtransaction
 *		that is rolled back.  Errors propagate with the script's name and
 *		line.  Returns the number of plans a client will keep.
 */
int
pb_check_scripts(PbScriptSet *set, const char *const *values)
{
	MemoryContext oldcxt = CurrentMemoryContext;
	ResourceOwner oldowner = CurrentResourceOwner;
	PbExecutor *volatile exec = NULL;
	int			nplans;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(oldcxt);
	PG_TRY();
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		exec = pb_executor_create(set, NULL);
		pb_executor_prepare_plans(exec);
		pb_executor_check_values(exec, values);
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
		if (exec != NULL)
			pb_executor_free(exec);
		ReThrowError(edata);
	}
	PG_END_TRY();

	RollbackAndReleaseCurrentSubTransaction();
	MemoryContextSwitchTo(oldcxt);
	CurrentResourceOwner = oldowner;
	nplans = pb_executor_nplans(exec);
	pb_executor_free(exec);
	return nplans;
}

/*
 * pb_check_memory
 *		Refuse a run whose clients would take more memory together than
 *		polarbench.max_run_memory allows.
 */
void
pb_check_memory(const PbScriptSet *set, int nclients, int nplans)
{
	int			ncommands = 0;
	double		script_bytes = 0;
	double		per_client;
	double		total;
	double		limit = (double) pb_max_run_memory * 1024;

	for (int s = 0; s < set->nscripts; s++)
	{
		ncommands += set->scripts[s].ncommands;
		for (int c = 0; c < set->scripts[s].ncommands; c++)
			script_bytes += strlen(set->scripts[s].commands[c].text) * 2;
	}
	per_client = PB_CLIENT_BASE_BYTES + (double) nplans * PB_PLAN_BYTES +
		(double) ncommands * PB_COMMAND_BYTES + script_bytes +
		pb_slot_size(ncommands);
	total = per_client * nclients;
	if (total > limit)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("the run's clients would take about %.1f MB of memory, more than polarbench.max_run_memory (%.1f MB)",
						total / (1024 * 1024), limit / (1024 * 1024)),
				 errdetail_plural("Each client would take about %.1f MB: a backend, %d prepared plan of about 14 kB, and its script's commands.",
								  "Each client would take about %.1f MB: a backend, %d prepared plans of about 14 kB, and its script's commands.",
								  nplans, per_client / (1024 * 1024), nplans),
				 errhint("Run with fewer clients or commands, or ask a superuser to raise polarbench.max_run_memory.")));
}
