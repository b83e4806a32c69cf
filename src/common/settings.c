/*-------------------------------------------------------------------------
 *
 * settings.c
 *	  The polarbench.* settings, defined when the library is loaded.
 *
 * The limits are set by a superuser (PGC_SUSET), in postgresql.conf or
 * with ALTER SYSTEM, and bound what any one role can take of the server
 * with a benchmark: worker processes, time and memory.  The library need not
 * be preloaded, so the settings are defined in each process that loads it; a
 * value set in postgresql.conf before that is picked up then, as for any
 * extension's settings.  Preloaded (shared_preload_libraries), it also
 * registers the worker that puts back, when the server starts, the server
 * settings of a run the server's stop interrupted.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>

#include "miscadmin.h"
#include "postmaster/postmaster.h"
#include "utils/guc.h"

#include "query_stack.h"
#include "settings.h"
#include "settings_journal.h"

PG_MODULE_MAGIC;

int			pb_max_clients = 64;
int			pb_max_run_duration = 86400;
int			pb_max_script_commands = 10000;
int			pb_max_run_memory = 1024 * 1024;
int			pb_start_timeout = 60000;
int			pb_lock_timeout = 5000;
int			pb_end_grace = 5000;
char	   *pb_cluster_start = NULL;

static shmem_request_hook_type prev_shmem_request_hook = NULL;

/*
 * pb_shmem_request
 *		Preloaded: reserve the shared memory polarbench uses.
 */
static void
pb_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	pb_journal_request_shmem();
}

/*
 * pb_settings_init
 *		Define the settings, and follow the statements this process runs
 *		(query_stack.c); called from _PG_init (functions/module.c).
 */
void
pb_settings_init(void)
{
	DefineCustomIntVariable("polarbench.max_clients",
							"Sets the maximum number of polarbench processes running at once: benchmark clients, run recorders, background runs' conductors and loader workers.",
							"Counts every polarbench worker of every run and parallel load in the server, of every role and database.",
							&pb_max_clients,
							64, 1, MAX_BACKENDS,
							PGC_SUSET, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("polarbench.max_run_duration",
							"Sets the maximum time a benchmark run may last.",
							"A longer duration is refused; a run that is still going at this time is stopped and fails.",
							&pb_max_run_duration,
							86400, 1, PB_MAX_RUN_DURATION_LIMIT,
							PGC_SUSET, GUC_UNIT_S,
							NULL, NULL, NULL);
	DefineCustomIntVariable("polarbench.max_script_commands",
							"Sets the maximum number of commands in the scripts of one run.",
							NULL,
							&pb_max_script_commands,
							10000, 1, 1000000,
							PGC_SUSET, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("polarbench.max_run_memory",
							"Sets the maximum memory the clients of one run may use together, as estimated before it starts.",
							NULL,
							&pb_max_run_memory,
							1024 * 1024, 1024, MAX_KILOBYTES,
							PGC_SUSET, GUC_UNIT_KB,
							NULL, NULL, NULL);
	DefineCustomIntVariable("polarbench.start_timeout",
							"Sets the maximum time the clients of a run may take to connect and prepare their statements.",
							NULL,
							&pb_start_timeout,
							60000, 1, INT_MAX,
							PGC_USERSET, GUC_UNIT_MS,
							NULL, NULL, NULL);
	DefineCustomIntVariable("polarbench.lock_timeout",
							"Sets the maximum time a worker of a run may wait for one lock before the run fails.",
							"Bounds a wait the deadlock detector cannot see, such as a lock held by a process that waits for a buffer pin of the caller. 0 turns it off.",
							&pb_lock_timeout,
							5000, 0, INT_MAX,
							PGC_USERSET, GUC_UNIT_MS,
							NULL, NULL, NULL);
	/*
	 * Any role may set it: it bounds only how long the caller's own run goes
	 * on after its duration, which the role chooses anyway, and
	 * polarbench.max_run_duration still bounds the whole run.
	 */
	DefineCustomIntVariable("polarbench.end_grace",
							"Sets how long the transactions in flight at the end of a run's duration may take to finish before their statements are canceled.",
							"Transactions so ended are rolled back and counted as cut off, apart from the others. A run's end_grace argument takes precedence.",
							&pb_end_grace,
							5000, 0, INT_MAX,
							PGC_USERSET, GUC_UNIT_MS,
							NULL, NULL, NULL);
	/*
	 * Set by the coordinator of a run across a Citus cluster on its
	 * connection to each node (functions/cluster_run.c), never in a file:
	 * any role may set it, as it changes only how the role's own runs in
	 * the session start (at that instant) and that they only check.
	 */
	DefineCustomStringVariable("polarbench.cluster_start",
							   "Makes the session's runs a node's part of a run across a Citus cluster.",
							   "Empty for an ordinary run; \"check\" to check a run without starting it; a timestamp with time zone to release the run's clients at that instant. Set by polarbench_run(..., nodes => 'all') on the nodes it runs on.",
							   &pb_cluster_start,
							   "",
							   PGC_USERSET, GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE | GUC_DISALLOW_IN_FILE,
							   NULL, NULL, NULL);
	MarkGUCPrefixReserved("polarbench");
	pb_query_stack_init();

	/*
	 * preloaded: reserve shared memory, and put back a stopped run's server
	 * settings at the start
	 */
	if (process_shared_preload_libraries_in_progress)
	{
		prev_shmem_request_hook = shmem_request_hook;
		shmem_request_hook = pb_shmem_request;
		pb_journal_register_worker();
	}
}
