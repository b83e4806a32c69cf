/*-------------------------------------------------------------------------
 *
 * report.c
 *	  The report printed after a run: the server's polarbench_report() of
 *	  it, in pgbench's words for pgbench's scripts (pgbench 15's
 *	  printResults, with the run's id, statement rate and latency
 *	  percentiles on lines of their own), in its tool's for the server's
 *	  other workloads, or in the style --report asks for; the run's row as
 *	  CSV.
 *
 * The server names the scripts as the client gave them (script_names:
 * -f's file names, as pgbench prints them), and -r and --failures-detailed
 * become the report's options, as they are pgbench's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include "common/logging.h"

#include "polarbench.h"

/*
 * print_server_report
 *		Print polarbench_report() of the run in style (NULL: the workload's
 *		tool's), with pgbench's -r and --failures-detailed as its options,
 *		and --environment.
 *		Returns false on error (reported).
 */
static bool
print_server_report(PGconn *conn, const ClientOptions *opts,
					const char *run_id, const char *style)
{
	const char *params[5] = {run_id, style,
		opts->report_per_command ? "true" : "false",
		opts->failures_detailed ? "true" : "false",
	opts->environment ? "true" : "false"};
	char	   *report;

	report = single_value(conn,
						  "SELECT @extschema@.polarbench_report($1::pg_catalog.int8, $2::pg_catalog.text,"
						  " pg_catalog.jsonb_build_object('statements', $3::pg_catalog.bool,"
						  " 'failures_detailed', $4::pg_catalog.bool,"
						  " 'environment', $5::pg_catalog.bool))",
						  5, params);
	if (report == NULL)
		return false;
	printf("%s%s", report, report[0] && report[strlen(report) - 1] != '\n' ? "\n" : "");
	free(report);
	return true;
}

/*
 * write_html_report
 *		--report html: write the page the server's query returns (its
 *		polarbench_report_html() of a run, a comparison or a sweep: one
 *		implementation, the server's) to -o's file.  Returns false on error
 *		(reported).
 */
bool
write_html_report(PGconn *conn, const ClientOptions *opts, const char *sql,
				  int nparams, const char *const *params)
{
	char	   *page = single_value(conn, sql, nparams, params);
	FILE	   *f;

	if (page == NULL)
		return false;
	f = fopen(opts->output, "w");
	if (f == NULL)
	{
		pg_log_error("could not open file \"%s\" for writing: %m", opts->output);
		free(page);
		return false;
	}
	fputs(page, f);
	free(page);
	if (ferror(f) || fclose(f) != 0)
	{
		pg_log_error("could not write file \"%s\": %m", opts->output);
		return false;
	}
	return true;
}

/*
 * print_run_report
 *		Print a finished run in the style --report names: pgbench's words
 *		for pgbench's scripts unless another style is asked for, the
 *		workload's tool's for the server's other workloads, its row of
 *		polarbench_runs as CSV; with html, the workload's report, and the
 *		page written to -o's file.  Returns the exit status.
 */
int
print_run_report(PGconn *conn, const ClientOptions *opts,
				 const ClientResult *result)
{
	const char *style = opts->report;
	const char *params[1] = {result->run_id};
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
	/* its document as JSON; by default for a workload of another tool too */
	if (unstored && ((style != NULL && strcmp(style, "json") == 0) ||
					 (style == NULL && opts->workload != NULL)))
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
	if (style != NULL && strcmp(style, "html") == 0)
	{
		if (unstored)
		{
			pg_log_error("run %s ran on a hot standby, which stores no run, and has no html report",
						 result->run_id);
			pg_log_error_hint("Store it on the primary with polarbench_record(), and make its report there.");
			return 1;
		}
		if (!write_html_report(conn, opts,
							   "SELECT @extschema@.polarbench_report_html($1::pg_catalog.int8)",
							   1, params))
			return 1;
		style = NULL;
	}
	/* pgbench's scripts in pgbench's words, the other workloads in their tool's */
	if (style == NULL && opts->workload == NULL)
		style = "pgbench";
	if (unstored && strcmp(style, "pgbench") != 0)
	{
		pg_log_error("run %s ran on a hot standby, which stores no run, and has no %s report",
					 result->run_id, style);
		pg_log_error_hint("Use --report json or csv, or run on the standby and its primary together with -h primary,standby.");
		return 1;
	}
	return print_server_report(conn, opts, result->run_id, style) ? 0 : 1;
}
