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
 * calls: settings.c, worker.c, run_shmem.c, script_exec.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "access/xlog.h"
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

/* What checking a script set needs across pb_in_rolled_back_subxact() */
typedef struct PbScriptCheck
{
	PbScriptSet *set;
	const char *const *values;
	PbExecutor *exec;
	int			nplans;
} PbScriptCheck;

/* Prepare every command and check the fixed values. */
static void
pb_check_scripts_in(void *arg)
{
	PbScriptCheck *check = arg;

	check->exec = pb_executor_create(check->set, NULL);
	pb_executor_prepare_plans(check->exec);
	pb_executor_check_values(check->exec, check->values);
	check->nplans = pb_executor_nplans(check->exec);
	if (RecoveryInProgress())
	{
		int			script_no;
		const PbCommand *writer = pb_executor_first_writer(check->exec, &script_no);

		if (writer != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
					 errmsg("script \"%s\" writes, and a hot standby runs only read-only workloads",
							check->set->scripts[script_no].name),
					 errdetail("Line %d: %s", writer->line, writer->text),
					 errhint("Run it on the primary.")));
	}
}

/* Free the executor of a check. */
static void
pb_check_scripts_cleanup(void *arg)
{
	PbScriptCheck *check = arg;

	if (check->exec != NULL)
		pb_executor_free(check->exec);
	check->exec = NULL;
}

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
	PbScriptCheck check = {set, values, NULL, 0};

	pb_in_rolled_back_subxact(pb_check_scripts_in, pb_check_scripts_cleanup,
							  &check);
	return check.nplans;
}

/*
 * pb_script_text_bytes
 *		What the texts of a script set's commands take in a client (their
 *		text and their parse), and how many commands there are.
 */
double
pb_script_text_bytes(const PbScriptSet *set, int *ncommands)
{
	double		bytes = 0;

	*ncommands = 0;
	for (int s = 0; s < set->nscripts; s++)
	{
		*ncommands += set->scripts[s].ncommands;
		for (int c = 0; c < set->scripts[s].ncommands; c++)
			bytes += strlen(set->scripts[s].commands[c].text) * 2;
	}
	return bytes;
}

/*
 * pb_check_memory
 *		Refuse a run whose clients would take more memory together than
 *		polarbench.max_run_memory allows: each keeps nplans plans and
 *		ncommands commands whose texts take text_bytes.
 */
void
pb_check_memory(int nclients, int nplans, int ncommands, double text_bytes,
				bool command_histograms)
{
	double		per_client;
	double		total;
	double		limit = (double) pb_max_run_memory * 1024;

	per_client = PB_CLIENT_BASE_BYTES + (double) nplans * PB_PLAN_BYTES +
		(double) ncommands * PB_COMMAND_BYTES + text_bytes +
		pb_slot_size(ncommands, command_histograms);
	total = per_client * nclients;
	if (total > limit)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("the run's clients would take about %.1f MB of memory, more than polarbench.max_run_memory (%.1f MB)",
						total / (1024 * 1024), limit / (1024 * 1024)),
				 errdetail_plural("Each client would take about %.1f MB: a backend, %d prepared plan of about 14 kB, and its workload's commands.",
								  "Each client would take about %.1f MB: a backend, %d prepared plans of about 14 kB, and its workload's commands.",
								  nplans, per_client / (1024 * 1024), nplans),
				 errhint("Run with fewer clients or commands, or ask a superuser to raise polarbench.max_run_memory.")));
}
