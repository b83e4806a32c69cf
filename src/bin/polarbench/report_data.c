/*-------------------------------------------------------------------------
 *
 * report_data.c
 *	  Results as data: a query's rows as CSV (RFC 4180, a header line of
 *	  column names, every field quoted where it must be, NULL as an empty
 *	  field), for --report csv.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include "polarbench.h"

/*
 * csv_field
 *		Print one CSV field, quoted when it holds a separator, a quote or a
 *		line break; then a comma, or the line's end if last.
 */
void
csv_field(FILE *out, const char *value, bool last)
{
	if (value != NULL && value[strcspn(value, ",\"\r\n")] != '\0')
	{
		fputc('"', out);
		for (const char *p = value; *p; p++)
		{
			if (*p == '"')
				fputc('"', out);
			fputc(*p, out);
		}
		fputc('"', out);
	}
	else if (value != NULL)
		fputs(value, out);
	fputs(last ? "\r\n" : ",", out);
}

/*
 * print_csv_query
 *		Print the rows of a query (one of the client's, as exec_query()
 *		runs them) to stdout as CSV, with a header line.  Returns false on
 *		error (reported).
 */
bool
print_csv_query(PGconn *conn, const char *sql, int nparams,
				const char *const *params)
{
	PGresult   *res = exec_query(conn, 0, sql, nparams, params);
	int			ncols;

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		report_server_error(conn, res);
		PQclear(res);
		return false;
	}
	ncols = PQnfields(res);
	for (int c = 0; c < ncols; c++)
		csv_field(stdout, PQfname(res, c), c == ncols - 1);
	for (int r = 0; r < PQntuples(res); r++)
		for (int c = 0; c < ncols; c++)
			csv_field(stdout, PQgetisnull(res, r, c) ? NULL : PQgetvalue(res, r, c),
					  c == ncols - 1);
	PQclear(res);
	return true;
}
