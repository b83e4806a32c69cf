/*-------------------------------------------------------------------------
 *
 * compare.c
 *	  --compare A,B C,D: the server's polarbench_compare() of the runs of
 *	  side A (the ids after --compare) with those of side B (the next
 *	  argument), printed as a table, a row per metric with A's value, B's,
 *	  the ratio B/A with its 95% interval and the verdict, and under it
 *	  each row's method and notes; or as data (--report json: the sides and
 *	  every row; csv: the rows); and drawn with --svg: both sides'
 *	  throughput and p99 latency over time, a line per run, on the same
 *	  axes.
 *
 * The statistics are the server's; the client only prints them.  The
 * server's warnings (a run that drifted) arrive as notices, on stderr.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include <math.h>

#include "common/logging.h"

#include "polarbench.h"
#include "pb_measure.h"

/* The columns of polarbench_compare(), in order */
enum
{
	COL_METRIC,
	COL_PART,
	COL_A,
	COL_B,
	COL_RATIO,
	COL_LOW,
	COL_HIGH,
	COL_VERDICT,
	COL_METHOD,
	COL_RUNS_NEEDED,
	COL_NOTE
};

#define COMPARE_QUERY \
	"SELECT * FROM @extschema@.polarbench_compare($1::pg_catalog.int8[], $2::pg_catalog.int8[]," \
	" $3::pg_catalog.float8)"

/*
 * A figure of a result as the table shows it: to a tenth from 1000 up,
 * else to four significant digits (latencies of a few microseconds); ""
 * for NULL.
 */
static char *
figure_cell(const PGresult *res, int row, int col)
{
	double		v;

	if (PQgetisnull(res, row, col))
		return pg_strdup("");
	v = atof(PQgetvalue(res, row, col));
	return psprintf(fabs(v) >= 1000 ? "%.1f" : "%.4g", v);
}

/* A ratio of a result as the table shows it, or "" for NULL. */
static char *
ratio_cell(const PGresult *res, int row, int col)
{
	if (PQgetisnull(res, row, col))
		return pg_strdup("");
	return psprintf("%.3f", atof(PQgetvalue(res, row, col)));
}

/* The text of a result's field, or "" for NULL. */
static const char *
text_cell(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? "" : PQgetvalue(res, row, col);
}

/* The columns of the table: metric, of what, A, B, B/A, interval, verdict */
#define TABLE_COLUMNS	7

/*
 * print_compare_table
 *		The comparison as a table, a row per metric (and part), then each
 *		row's method and notes.
 */
static void
print_compare_table(const ClientOptions *opts, const PGresult *res)
{
	static const char *const headers[TABLE_COLUMNS] = {
		"metric", "of", "A", "B", "B/A", "95% interval", "verdict"
	};
	int			nrows = PQntuples(res);
	char	 ***cells = pg_malloc(sizeof(char **) * (nrows + 1));
	int			widths[TABLE_COLUMNS];

	printf("comparison of runs %s (A) with runs %s (B): the ratio B/A with its 95%% interval",
		   opts->compare_a_list, opts->compare_b_list);
	if (opts->threshold > 0)
		printf(", equivalent within %g%%", 100 * opts->threshold);
	printf("\n");
	for (int c = 0; c < TABLE_COLUMNS; c++)
		widths[c] = strlen(headers[c]);
	for (int r = 0; r < nrows; r++)
	{
		cells[r] = pg_malloc(sizeof(char *) * TABLE_COLUMNS);
		cells[r][0] = pg_strdup(text_cell(res, r, COL_METRIC));
		cells[r][1] = pg_strdup(text_cell(res, r, COL_PART));
		cells[r][2] = figure_cell(res, r, COL_A);
		cells[r][3] = figure_cell(res, r, COL_B);
		cells[r][4] = ratio_cell(res, r, COL_RATIO);
		if (PQgetisnull(res, r, COL_LOW))
			cells[r][5] = pg_strdup("");
		else
			cells[r][5] = psprintf("%.3f .. %.3f", atof(PQgetvalue(res, r, COL_LOW)),
								   atof(PQgetvalue(res, r, COL_HIGH)));
		cells[r][6] = pg_strdup(text_cell(res, r, COL_VERDICT));
		for (int c = 0; c < TABLE_COLUMNS; c++)
			widths[c] = Max(widths[c], (int) strlen(cells[r][c]));
	}
	for (int c = 0; c < TABLE_COLUMNS; c++)
		printf("%s%-*s", c > 0 ? " | " : "", c == TABLE_COLUMNS - 1 ? 0 : widths[c], headers[c]);
	printf("\n");
	for (int c = 0; c < TABLE_COLUMNS; c++)
	{
		printf("%s", c > 0 ? "-+-" : "");
		for (int w = 0; w < widths[c]; w++)
			putchar('-');
	}
	printf("\n");
	for (int r = 0; r < nrows; r++)
	{
		for (int c = 0; c < TABLE_COLUMNS; c++)
		{
			bool		number = c >= 2 && c <= 5;

			if (c == TABLE_COLUMNS - 1)
				printf(" | %s", cells[r][c]);
			else
				printf("%s%*s", c > 0 ? " | " : "", number ? widths[c] : -widths[c], cells[r][c]);
		}
		printf("\n");
	}

	/* each row's method, the runs that would show it, and its notes */
	printf("\n");
	for (int r = 0; r < nrows; r++)
	{
		const char *part = text_cell(res, r, COL_PART);

		printf("%s%s%s:", text_cell(res, r, COL_METRIC), part[0] ? " of " : "", part);
		if (!PQgetisnull(res, r, COL_METHOD))
			printf(" %s.", PQgetvalue(res, r, COL_METHOD));
		if (!PQgetisnull(res, r, COL_RUNS_NEEDED))
			printf(" Runs needed: %s a side.", PQgetvalue(res, r, COL_RUNS_NEEDED));
		if (!PQgetisnull(res, r, COL_NOTE))
			printf(" Note: %s.", PQgetvalue(res, r, COL_NOTE));
		printf("\n");
		for (int c = 0; c < TABLE_COLUMNS; c++)
			free(cells[r][c]);
		free(cells[r]);
	}
	free(cells);
}

/*
 * print_compare_json
 *		The comparison as one JSON document: the sides' run ids, the
 *		threshold, and every row, in order.  Returns false on error.
 */
static bool
print_compare_json(PGconn *conn, const char *const *params)
{
	char	   *doc = single_value(conn,
								   "SELECT pg_catalog.jsonb_pretty(pg_catalog.jsonb_build_object("
								   " 'a', $1::pg_catalog.int8[], 'b', $2::pg_catalog.int8[],"
								   " 'threshold', $3::pg_catalog.float8,"
								   " 'rows', (SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(c)"
								   "                          OPERATOR(pg_catalog.-) 'n' ORDER BY c.n),"
								   "                          '[]'::pg_catalog.jsonb)"
								   "            FROM @extschema@.polarbench_compare($1::pg_catalog.int8[],"
								   "                 $2::pg_catalog.int8[], $3::pg_catalog.float8)"
								   "                 WITH ORDINALITY c(metric, part, value_a, value_b, ratio,"
								   "                 ratio_low, ratio_high, verdict, method, runs_needed,"
								   "                 note, n))))",
								   3, params);

	if (doc == NULL)
		return false;
	printf("%s\n", doc);
	free(doc);
	return true;
}

/*
 * chart_compare
 *		--svg for a comparison: every run's throughput and p99 latency at
 *		each progress interval, A's runs and B's, in two panels whose runs
 *		share the axes.  Returns false on error (reported).
 */
static bool
chart_compare(PGconn *conn, const ClientOptions *opts)
{
	int			nruns = opts->ncompare_a + opts->ncompare_b;
	ChartSeries *tps = pg_malloc0(sizeof(ChartSeries) * nruns);
	ChartSeries *p99 = pg_malloc0(sizeof(ChartSeries) * nruns);
	ChartPanel	panels[2];
	bool		ok = true;

	for (int i = 0; i < nruns && ok; i++)
	{
		bool		side_a = i < opts->ncompare_a;
		const char *run_id = side_a ? opts->compare_a[i] : opts->compare_b[i - opts->ncompare_a];
		const char *params[1] = {run_id};
		PGresult   *res = exec_query(conn, 0,
									 "SELECT p.elapsed, p.tps, coalesce(p.latency_p99, 0)"
									 "  FROM @extschema@.polarbench_progress p"
									 " WHERE p.run_id OPERATOR(pg_catalog.=) $1::pg_catalog.int8"
									 " ORDER BY p.elapsed",
									 1, params);
		int			n;

		if (PQresultStatus(res) != PGRES_TUPLES_OK)
		{
			report_server_error(conn, res);
			PQclear(res);
			ok = false;
			break;
		}
		n = PQntuples(res);
		if (n == 0)
			pg_log_warning("run %s has no progress rows to draw", run_id);
		tps[i].label = psprintf("%s: run %s", side_a ? "A" : "B", run_id);
		p99[i].label = tps[i].label;
		tps[i].x = pg_malloc(sizeof(double) * (n + 1));
		tps[i].y = pg_malloc(sizeof(double) * (n + 1));
		p99[i].x = tps[i].x;
		p99[i].y = pg_malloc(sizeof(double) * (n + 1));
		for (int r = 0; r < n; r++)
		{
			tps[i].x[r] = atof(PQgetvalue(res, r, 0));
			tps[i].y[r] = atof(PQgetvalue(res, r, 1));
			p99[i].y[r] = atof(PQgetvalue(res, r, 2));
		}
		tps[i].n = p99[i].n = n;
		PQclear(res);
	}
	if (ok)
	{
		panels[0] = (ChartPanel) {.title = "Throughput over time, A's runs and B's",
			.x_label = "elapsed time (s)", .y_label = "transactions per second (tps)",
		.series = tps, .nseries = nruns};
		panels[1] = (ChartPanel) {.title = "p99 latency over time, A's runs and B's",
			.x_label = "elapsed time (s)", .y_label = "p99 latency (ms)",
		.series = p99, .nseries = nruns};
		ok = write_svg(opts->svg, psprintf("runs %s (A) and %s (B)", opts->compare_a_list,
										   opts->compare_b_list),
					   panels, 2);
	}
	for (int i = 0; i < nruns; i++)
	{
		free(tps[i].x);
		free(tps[i].y);
		free(p99[i].y);
	}
	free(tps);
	free(p99);
	return ok;
}

/*
 * run_compare
 *		--compare: print the comparison of the two sides' runs in the form
 *		--report asks (a table by default, json or csv; with html, the table
 *		and the page written to -o's file), and draw it with --svg.  Returns
 *		the exit status: 1 if the server refused it.
 */
int
run_compare(PGconn *conn, const ClientOptions *opts)
{
	char		threshold[32];
	const char *params[3] = {opts->compare_a_array, opts->compare_b_array, NULL};
	bool		ok;

	if (opts->threshold > 0)
	{
		snprintf(threshold, sizeof(threshold), "%.17g", opts->threshold);
		params[2] = threshold;
	}
	if (opts->report != NULL && strcmp(opts->report, "json") == 0)
		ok = print_compare_json(conn, params);
	else if (opts->report != NULL && strcmp(opts->report, "csv") == 0)
		ok = print_csv_query(conn, COMPARE_QUERY, 3, params);
	else
	{
		PGresult   *res = exec_query(conn, 0, COMPARE_QUERY, 3, params);

		ok = PQresultStatus(res) == PGRES_TUPLES_OK;
		if (ok)
			print_compare_table(opts, res);
		else
			report_server_error(conn, res);
		PQclear(res);
	}
	if (ok && opts->svg != NULL)
		ok = chart_compare(conn, opts);
	if (ok && opts->output != NULL)
		ok = write_html_report(conn, opts,
							   "SELECT @extschema@.polarbench_report_html($1::pg_catalog.int8[], $2::pg_catalog.int8[])",
							   2, params);
	return ok ? 0 : 1;
}
