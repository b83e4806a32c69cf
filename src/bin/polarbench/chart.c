/*-------------------------------------------------------------------------
 *
 * chart.c
 *	  Charts as self-contained SVG files that any browser opens: a run's
 *	  progress (tps and p99 latency over time), a comparison's (every run's
 *	  of both sides, on the same axes), or a sweep's curves (qps against
 *	  concurrency, a line per setting set, each point with its interval
 *	  when it has repetitions).  The drawing is the measurement library's
 *	  (chart_svg.c), which the server's HTML reports draw with too; here
 *	  they are written to a file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include "common/logging.h"

#include "polarbench.h"
#include "pb_measure.h"

/*
 * write_svg
 *		Write the panels, one under the other, as an SVG file with a title.
 *		Returns false on error (reported).
 */
bool
write_svg(const char *path, const char *title, const ChartPanel *panels,
		  int npanels)
{
	PbText		svg;
	FILE	   *f;

	pb_text_init(&svg);
	pb_chart_svg(&svg, title, panels, npanels, true);
	if (svg.failed)
	{
		pg_log_error("out of memory");
		free(svg.data);
		return false;
	}
	f = fopen(path, "w");
	if (f == NULL)
	{
		pg_log_error("could not open file \"%s\" for writing: %m", path);
		free(svg.data);
		return false;
	}
	fwrite(svg.data, 1, svg.len, f);
	free(svg.data);
	if (ferror(f) || fclose(f) != 0)
	{
		pg_log_error("could not write file \"%s\": %m", path);
		return false;
	}
	return true;
}

/*
 * chart_run_progress
 *		--svg for a run: its tps and its p99 latency at every progress
 *		interval, from the run's document (a hot standby's run is in no
 *		table).  Returns false on error.
 */
bool
chart_run_progress(PGconn *conn, const char *path, const char *title,
				   const char *run_id)
{
	const char *params[1] = {run_id};
	PGresult   *res = exec_query(conn, 0,
								 "SELECT (p OPERATOR(pg_catalog.->>) 'elapsed')::pg_catalog.float8,"
								 " (p OPERATOR(pg_catalog.->>) 'tps')::pg_catalog.float8,"
								 " coalesce((p OPERATOR(pg_catalog.->>) 'latency_p99')::pg_catalog.float8, 0)"
								 "  FROM pg_catalog.jsonb_array_elements(@extschema@.polarbench_run_document($1::pg_catalog.int8)"
								 "       OPERATOR(pg_catalog.->) 'progress') p"
								 " ORDER BY 1",
								 1, params);
	ChartSeries tps = {.label = "tps"};
	ChartSeries p99 = {.label = "p99 latency"};
	ChartPanel	panels[2];
	int			n;
	bool		ok;

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		report_server_error(conn, res);
		PQclear(res);
		return false;
	}
	n = PQntuples(res);
	tps.x = pg_malloc(sizeof(double) * (n + 1));
	tps.y = pg_malloc(sizeof(double) * (n + 1));
	p99.x = tps.x;
	p99.y = pg_malloc(sizeof(double) * (n + 1));
	for (int i = 0; i < n; i++)
	{
		tps.x[i] = atof(PQgetvalue(res, i, 0));
		tps.y[i] = atof(PQgetvalue(res, i, 1));
		p99.y[i] = atof(PQgetvalue(res, i, 2));
	}
	tps.n = p99.n = n;
	PQclear(res);
	panels[0] = (ChartPanel) {.title = "Throughput over time",
		.x_label = "elapsed time (s)", .y_label = "transactions per second (tps)",
	.series = &tps, .nseries = 1};
	panels[1] = (ChartPanel) {.title = "p99 latency over time",
		.x_label = "elapsed time (s)", .y_label = "p99 latency (ms)",
	.series = &p99, .nseries = 1};
	ok = write_svg(path, title, panels, 2);
	free(tps.x);
	free(tps.y);
	free(p99.y);
	return ok;
}
