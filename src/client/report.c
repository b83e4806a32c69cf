/*-------------------------------------------------------------------------
 *
 * report.c
 *	  The report printed after a run, in pgbench's words (pgbench 15's
 *	  printResults), so that whoever reads or parses pgbench's output can
 *	  read polarbench's.  What pgbench cannot say (the run's id, statement
 *	  rate, latency percentiles) follows on lines of its own.
 *
 * print_run_report() prints a run in the style --report asks for: this
 * report for pgbench's scripts, the server's polarbench_report() for the
 * other tools' styles and JSON, the run's row as CSV.
 *
 * calls: client_conn.c, report_data.c.
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
static void
print_results(PGconn *conn, const ClientOptions *opts,
			  const ClientResult *result, int scale)
{
	long long	total = result->transactions + result->failed + result->skipped;
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
	/* 0 is unlimited, which pgbench does not print */
	if (opts->max_tries != 0)
		printf("maximum number of tries: %d\n", opts->max_tries);
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
	if (opts->failures_detailed)
	{
		printf("number of serialization failures: %lld (%.3f%%)\n",
			   result->failed_serialization,
			   total > 0 ? 100.0 * result->failed_serialization / total : 0.0);
		printf("number of deadlock failures: %lld (%.3f%%)\n",
			   result->failed_deadlock,
			   total > 0 ? 100.0 * result->failed_deadlock / total : 0.0);
	}
	if (opts->max_tries != 1)
	{
		printf("number of transactions retried: %lld (%.3f%%)\n",
			   result->retried, total > 0 ? 100.0 * result->retried / total : 0.0);
		printf("total number of retries: %lld\n", result->retries);
	}
	if (opts->rate > 0 && opts->latency_limit > 0 && total > 0)
		printf("number of transactions skipped: %lld (%.3f%%)\n",
			   result->skipped, 100.0 * result->skipped / total);
	if (opts->latency_limit > 0 && total > 0)
		printf("number of transactions above the %.1f ms latency limit: %lld/%lld (%.3f %%)\n",
			   opts->latency_limit, result->late, result->transactions,
			   result->transactions > 0 ?
			   100.0 * result->late / result->transactions : 0.0);

	if (result->has_latency)
	{
		/* measured for every transaction, as pgbench does under -P */
		printf("latency average = %.3f ms\n", result->latency_avg);
		printf("latency stddev = %.3f ms\n", result->latency_stddev);
	}
	if (result->has_latency && opts->rate > 0)
		printf("rate limit schedule lag: avg %.3f (max %.3f) ms\n",
			   result->lag_avg, result->lag_max);
	/* no connection is made per client: there is no connection time */
	printf("tps = %f (without initial connection time)\n", result->tps);

	/* polarbench's own figures */
	printf("run id: %s\n", result->run_id);
	printf("statements: %lld (qps = %f)\n", result->statements, result->qps);
	if (result->has_latency)
		printf("latency percentiles: p50 = %.3f ms, p90 = %.3f ms, p95 = %.3f ms, p99 = %.3f ms, p99.9 = %.3f ms, max = %.3f ms\n",
			   result->latency_p50, result->latency_p90, result->latency_p95,
			   result->latency_p99, result->latency_p999, result->latency_max);

	if (opts->report_per_command)
	{
		const char *params[1] = {result->run_id};

		res = exec_query(conn, 0,
						 "SELECT script_no, command_no, latency_avg, failures, command"
						 "  FROM @extschema@.polarbench_statements"
						 " WHERE run_id OPERATOR(pg_catalog.=) $1::pg_catalog.int8"
						 " ORDER BY script_no, command_no",
						 1, params);
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

/*
 * print_run_report
 *		Print a finished run in the style --report names: pgbench's words
 *		for pgbench's scripts unless another style is asked for, the
 *		server's report of the run in the other styles (and for sysbench's
 *		and YCSB's workloads by default), its row of polarbench_runs as CSV.
 *		Returns the exit status.
 */
int
print_run_report(PGconn *conn, const ClientOptions *opts,
				 const ClientResult *result)
{
	const char *style = opts->report;
	const char *params[2] = {result->run_id, NULL};
	char	   *report;

	/* a hot standby's run is in no table: its document has it all */
	bool		unstored = result->run_id[0] == '-';

	if (style != NULL && strcmp(style, "csv") == 0)
		return print_csv_query(conn, unstored ?
							   "SELECT * FROM pg_catalog.jsonb_populate_record(NULL::@extschema@.polarbench_runs,"
							   " @extschema@.polarbench_run_document($1::pg_catalog.int8) OPERATOR(pg_catalog.->) 'run')" :
							   "SELECT * FROM @extschema@.polarbench_runs"
							   " WHERE run_id OPERATOR(pg_catalog.=) $1::pg_catalog.int8",
							   1, params) ? 0 : 1;
	/* its document as JSON; by default for a sysbench or YCSB workload too */
	if (unstored && ((style != NULL && strcmp(style, "json") == 0) ||
					 (style == NULL && opts->native != NULL)))
	{
		if (style == NULL)
			fprintf(stderr, "run %s ran on a hot standby, which stores no run: its document follows\n",
					result->run_id);
		report = single_value(conn,
							  "SELECT pg_catalog.jsonb_pretty(@extschema@.polarbench_run_document($1::pg_catalog.int8))",
							  1, params);
		if (report == NULL)
			return 1;
		printf("%s\n", report);
		return 0;
	}
	if (opts->native == NULL && (style == NULL || strcmp(style, "pgbench") == 0))
	{
		int			scale = opts->scale > 0 ? opts->scale : 1;

		/*
		 * built-in scripts ran at the scale of the tables, as pgbench finds
		 * it: the user's pgbench_branches, in the session's search_path
		 */
		if (opts->nbuiltins > 0)
		{
			PGresult   *res = exec_query(conn, PB_QUERY_USER_PATH,
										 "SELECT pg_catalog.count(*) FROM pgbench_branches",
										 0, NULL);

			if (PQresultStatus(res) != PGRES_TUPLES_OK)
				report_server_error(conn, res);
			else if (PQntuples(res) == 1)
				scale = atoi(PQgetvalue(res, 0, 0));
			PQclear(res);
		}
		print_results(conn, opts, result, scale);
		return 0;
	}
	if (unstored)
	{
		pg_log_error("run %s ran on a hot standby, which stores no run, and has no %s report",
					 result->run_id, style);
		pg_log_error_hint("Use --report json or csv, or run on the standby and its primary together with -h primary,standby.");
		return 1;
	}
	params[1] = style;
	report = single_value(conn,
						  "SELECT @extschema@.polarbench_report($1::pg_catalog.int8, $2::pg_catalog.text)",
						  2, params);
	if (report == NULL)
		return 1;
	printf("%s%s", report, report[0] && report[strlen(report) - 1] != '\n' ? "\n" : "");
	return 0;
}
