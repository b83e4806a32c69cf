/*-------------------------------------------------------------------------
 *
 * pb_pipeline.c
 *	  A test tool: send SQL statements to a server in one pipeline of
 *	  libpq's pipeline mode (the extended protocol, one implicit
 *	  transaction up to the Sync), then run more statements one by one.
 *
 * Usage: pb_pipeline CONNINFO SQL... [--then SQL...]
 *
 * For each statement it prints one line, "N: STATUS ROWS", then its rows
 * with their columns separated by tabs; notices go to standard error.
 * Exits 1 if a statement failed.
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpq-fe.h"

/* Print a notice on standard error, as psql does. */
static void
print_notice(void *arg, const char *message)
{
	fputs(message, stderr);
}

/* Print a statement's result: its status, its row count, its rows. */
static int
print_result(int n, PGresult *res)
{
	ExecStatusType status = PQresultStatus(res);

	printf("%d: %s %d\n", n, PQresStatus(status), PQntuples(res));
	for (int r = 0; r < PQntuples(res); r++)
		for (int c = 0; c < PQnfields(res); c++)
			printf("%s%s", PQgetvalue(res, r, c), c + 1 < PQnfields(res) ? "\t" : "\n");
	if (status == PGRES_FATAL_ERROR)
		fprintf(stderr, "%d: %s", n, PQresultErrorMessage(res));
	return status == PGRES_FATAL_ERROR || status == PGRES_PIPELINE_ABORTED;
}

int
main(int argc, char **argv)
{
	PGconn	   *conn;
	int			first_then = argc;
	int			failed = 0;
	PGresult   *res;

	if (argc < 3)
	{
		fprintf(stderr, "usage: %s CONNINFO SQL... [--then SQL...]\n", argv[0]);
		return 2;
	}
	conn = PQconnectdb(argv[1]);
	if (PQstatus(conn) != CONNECTION_OK)
	{
		fprintf(stderr, "%s", PQerrorMessage(conn));
		return 2;
	}
	PQsetNoticeProcessor(conn, print_notice, NULL);
	for (int i = 2; i < argc; i++)
		if (strcmp(argv[i], "--then") == 0)
		{
			first_then = i;
			break;
		}

	if (!PQenterPipelineMode(conn))
	{
		fprintf(stderr, "could not enter pipeline mode: %s", PQerrorMessage(conn));
		return 2;
	}
	for (int i = 2; i < first_then; i++)
		if (!PQsendQueryParams(conn, argv[i], 0, NULL, NULL, NULL, NULL, 0))
		{
			fprintf(stderr, "could not send: %s", PQerrorMessage(conn));
			return 2;
		}
	if (!PQpipelineSync(conn))
	{
		fprintf(stderr, "could not sync: %s", PQerrorMessage(conn));
		return 2;
	}
	/* each statement's result, then NULL; then the Sync's */
	for (int i = 2; i < first_then; i++)
	{
		while ((res = PQgetResult(conn)) != NULL)
		{
			failed |= print_result(i - 1, res);
			PQclear(res);
		}
	}
	res = PQgetResult(conn);
	if (res == NULL || PQresultStatus(res) != PGRES_PIPELINE_SYNC)
	{
		fprintf(stderr, "no pipeline sync: %s", PQerrorMessage(conn));
		return 2;
	}
	PQclear(res);
	if (!PQexitPipelineMode(conn))
	{
		fprintf(stderr, "could not leave pipeline mode: %s", PQerrorMessage(conn));
		return 2;
	}

	for (int i = first_then + 1; i < argc; i++)
	{
		res = PQexec(conn, argv[i]);
		failed |= print_result(i - 2, res);
		PQclear(res);
	}
	PQfinish(conn);
	return failed;
}
