/*-------------------------------------------------------------------------
 *
 * report.c
 *	  The report printed after a run, in pgbench's words (pgbench 15's
 *	  printResults), so that whoever reads or parses pgbench's output can
 *	  read polarbench's.  What pgbench cannot say (the run's id, statement
 *	  rate, latency percentiles) follows on lines of its own.
 *
 * calls: nothing of polarbench's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include "common/logging.h"

#include "polarbench_client.h"

/*
 * print_command_report
 *		pgbench -r's per-command table for one script: average latency in
 *		milliseconds, failures and the command's first line, from the
 *		polarbench_statements rows of the run.
 */
static void
print_command_report(PGresult *res, int script_no, bool several)
{
	printf("%sstatement latencies in milliseconds and failures:\n",
		   several ? " - " : "");
	for (int i = 0; i < PQntuples(res); i++)
	{
		const char *command = PQgetvalue(res, i, 4);
		size_t		len = strcspn(command, "\n");

		if (atoi(PQgetvalue(res, i, 0)) != script_no)
			continue;
		printf("   %11.3f  %10s  %.*s\n",
			   PQgetisnull(res, i, 2) ? 0.0 : atof(PQgetvalue(res, i, 2)),
			   PQgetvalue(res, i, 3), (int) len, command);
	}
}

/*
 * print_results
 *		Print the report of a finished run to stdout.  scale is the scaling
 *		factor the run used.  With -r the per-command figures are read from
 *		polarbench_statements; a failure to read them is reported but the
 *		rest of the report stands.
 */
void
print_results(PGconn *conn, const ClientOptions *opts,
			  const ClientResult *result, int scale)
{
	long long	total = result->transactions + result->failed;
	long long	total_weight = 0;
	PGresult   *res = NULL;

	printf("transaction type: %s\n",
		   opts->nscripts == 1 ? opts->scripts[0].desc : "multiple scripts");
	printf("scaling factor: %d\n", scale);
	/* the clients run the server's prepared plans, as pgbench -M prepared */
	printf("query mode: prepared\n");
	printf("number of clients: %d\n", opts->nclients);
	/* pgbench's threads run its clients; here each client is a worker */
	printf("number of threads: %d (one server worker per client)\n",
		   opts->nclients);
	printf("maximum number of tries: 1\n");
	if (opts->duration > 0)
	{
		printf("duration: %d s\n", opts->duration);
		printf("number of transactions actually processed: %lld\n",
			   result->transactions);
	}
	else
	{
		int			nxacts = opts->nxacts > 0 ? opts->nxacts : 10;

		printf("number of transactions per client: %d\n", nxacts);
		printf("number of transactions actually processed: %lld/%lld\n",
			   result->transactions, (long long) nxacts * opts->nclients);
	}
	printf("number of failed transactions: %lld (%.3f%%)\n",
		   result->failed, total > 0 ? 100.0 * result->failed / total : 0.0);

	if (result->has_latency)
	{
		/* measured for every transaction, as pgbench does under -P */
		printf("latency average = %.3f ms\n", result->latency_avg);
		printf("latency stddev = %.3f ms\n", result->latency_stddev);
	}
	/* no connection is made per client: there is no connection time */
	printf("tps = %f (without initial connection time)\n", result->tps);

	/* polarbench's own figures */
	printf("run id: %s\n", result->run_id);
	printf("statements: %lld (qps = %f)\n", result->statements, result->qps);
	if (result->has_latency)
		printf("latency percentiles: p50 = %.3f ms, p95 = %.3f ms, p99 = %.3f ms, max = %.3f ms\n",
			   result->latency_p50, result->latency_p95,
			   result->latency_p99, result->latency_max);

	if (opts->report_per_command)
	{
		const char *params[1] = {result->run_id};

		res = PQexecParams(conn,
						   "SELECT script_no, command_no, latency_avg, failures, command "
						   "FROM polarbench_statements WHERE run_id = $1 "
						   "ORDER BY script_no, command_no",
						   1, NULL, params, NULL, NULL, 0);
		if (PQresultStatus(res) != PGRES_TUPLES_OK)
		{
			pg_log_error("could not read the statement latencies of run %s: %s",
						 result->run_id, PQerrorMessage(conn));
			PQclear(res);
			res = NULL;
		}
	}

	if (opts->nscripts > 1 || res != NULL)
	{
		for (int i = 0; i < opts->nscripts; i++)
			total_weight += opts->scripts[i].weight;
		for (int i = 0; i < opts->nscripts; i++)
		{
			if (opts->nscripts > 1)
				printf("SQL script %d: %s\n"
					   " - weight: %d (targets %.1f%% of total)\n",
					   i + 1, opts->scripts[i].desc, opts->scripts[i].weight,
					   total_weight > 0 ?
					   100.0 * opts->scripts[i].weight / total_weight : 0.0);
			if (res != NULL)
				print_command_report(res, i + 1, opts->nscripts > 1);
		}
	}
	PQclear(res);
}
