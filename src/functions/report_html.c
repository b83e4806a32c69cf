/*-------------------------------------------------------------------------
 *
 * report_html.c
 *	  The report people publish: polarbench_report_html(run_id),
 *	  polarbench_report_html(a, b) (a comparison) and
 *	  polarbench_sweep_report_html(sweep_id): one self-contained HTML page
 *	  (inline CSS and SVG, nothing fetched from anywhere, no script) with
 *	  the method in a few sentences, the environment, the tables in the
 *	  tool's words (polarbench_report's styles), the latency percentiles,
 *	  and the charts: throughput and p99 latency over time from the progress
 *	  rows; a sweep's metric against concurrency, each point with its 95%
 *	  interval, as Tencent Cloud's sysbench report draws it; a comparison's
 *	  ratios with their intervals.  The command-line program's --report html
 *	  writes what these return, so there is one implementation.
 *
 * Printed, it reads on A4 or Letter (paper): an @page size, charts that
 * scale to the page and are never cut across two, the sections after the
 * first page starting one of their own.  Everything that comes from the
 * database (names, scripts, setting values, error messages) is escaped by
 * the chart library's pb_text_escaped(); the figures are read from the
 * views with the caller's rights, so the page shows only what the caller
 * may read there.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "utils/array.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "pb_measure.h"
#include "safe_sql.h"
#include "settings_journal.h"
#include "functions.h"

PG_FUNCTION_INFO_V1(polarbench_report_html);
PG_FUNCTION_INFO_V1(polarbench_compare_report_html);
PG_FUNCTION_INFO_V1(polarbench_sweep_report_html);

/* The page's style: on screen, and printed on paper of the size given */
#define PB_HTML_STYLE \
	"body{font-family:sans-serif;color:#222;max-width:62em;margin:2em auto;padding:0 1em;line-height:1.4}" \
	"h1{font-size:1.6em;margin:0 0 .3em}h2{font-size:1.2em;margin:1.2em 0 .4em;border-bottom:1px solid #ccc}" \
	"table{border-collapse:collapse;margin:.3em 0}th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}" \
	"td.num{text-align:right;font-variant-numeric:tabular-nums}" \
	"pre{background:#f6f6f6;padding:.6em;white-space:pre-wrap;word-break:break-word;font-size:.85em}" \
	"figure{margin:1em 0}figure svg{width:100%;height:auto}" \
	"p.note{color:#555;font-size:.9em}" \
	"@media print{body{max-width:none;margin:0;padding:0;font-size:10pt}" \
	"figure,table,tr,section.keep{break-inside:avoid;page-break-inside:avoid}" \
	"h2{break-after:avoid;page-break-after:avoid}figure svg{max-height:125mm}" \
	"section.page{break-before:page;page-break-before:always}}"

/* ---- the page ------------------------------------------------------------ */

/*
 * pb_html_paper
 *		The @page size of paper ("A4" or "letter", in any case); an error
 *		for any other.
 */
static const char *
pb_html_paper(FunctionCallInfo fcinfo, int argno)
{
	const char *paper;

	if (PG_NARGS() <= argno || PG_ARGISNULL(argno))
		return "A4";
	paper = text_to_cstring(PG_GETARG_TEXT_PP(argno));
	if (pg_strcasecmp(paper, "a4") == 0)
		return "A4";
	if (pg_strcasecmp(paper, "letter") == 0)
		return "letter";
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("unrecognized paper \"%s\"", paper),
			 errhint("The papers are A4 and letter.")));
	return NULL;				/* keep compiler quiet */
}

/* Free a page's text when its memory context goes: on an error, say. */
static void
pb_html_text_free(void *arg)
{
	PbText	   *t = arg;

	free(t->data);
	t->data = NULL;
}

/*
 * pb_html_text_new
 *		A page's text (the chart library's, malloc'd), freed with the
 *		current memory context whatever happens: an error on the way leaks
 *		nothing.
 */
static PbText *
pb_html_text_new(void)
{
	PbText	   *t = palloc(sizeof(PbText));
	MemoryContextCallback *cb = palloc(sizeof(MemoryContextCallback));

	pb_text_init(t);
	cb->func = pb_html_text_free;
	cb->arg = t;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, cb);
	return t;
}

/* The page's head and title; the body is open after it. */
static void
pb_html_begin(PbText *t, const char *title, const char *paper)
{
	pb_text_append(t, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
				   "<meta name=\"generator\" content=\"polarbench\">\n<title>");
	pb_text_escaped(t, title);
	pb_text_printf(t, "</title>\n<style>%s@page{size:%s;margin:15mm}</style>\n</head>\n<body>\n<h1>",
				   PB_HTML_STYLE, paper);
	pb_text_escaped(t, title);
	pb_text_append(t, "</h1>\n");
}

/* Close the page, and hand it over as text in the caller's memory. */
static text *
pb_html_end(PbText *t)
{
	text	   *result;

	pb_text_append(t, "</body>\n</html>\n");
	if (t->failed)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory")));
	result = cstring_to_text_with_len(t->data, t->len);
	pb_html_text_free(t);
	return result;
}

/* The text of column col of row r of the last query, NULL if null */
static char *
pb_html_value(uint64 r, int col)
{
	return SPI_getvalue(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, col);
}

/* A number of the last query, NAN if null */
static double
pb_html_number(uint64 r, int col)
{
	char	   *v = pb_html_value(r, col);

	return v ? strtod(v, NULL) : NAN;
}

/*
 * pb_html_query
 *		Run one of the report's queries, in the extension's schema, with the
 *		search_path pinned, with up to two arguments.
 */
static void
pb_html_query(const char *sql, const char *schema, int nargs, Oid *types,
			  Datum *values)
{
	if (pb_spi_execute_safe(pb_sql_in_schema(sql, schema), nargs, types, values,
							true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the report's figures");
}

/* Whether a column's type is a number's, aligned right in a table */
static bool
pb_html_is_number(Oid type)
{
	return type == INT2OID || type == INT4OID || type == INT8OID ||
		type == FLOAT4OID || type == FLOAT8OID || type == NUMERICOID;
}

/*
 * pb_html_table
 *		The last query's rows as a table, its columns' names as the header,
 *		numbers aligned right.
 */
static void
pb_html_table(PbText *t)
{
	TupleDesc	desc = SPI_tuptable->tupdesc;

	pb_text_append(t, "<table>\n<tr>");
	for (int c = 1; c <= desc->natts; c++)
	{
		pb_text_append(t, "<th>");
		pb_text_escaped(t, SPI_fname(desc, c));
		pb_text_append(t, "</th>");
	}
	pb_text_append(t, "</tr>\n");
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		pb_text_append(t, "<tr>");
		for (int c = 1; c <= desc->natts; c++)
		{
			char	   *v = pb_html_value(r, c);

			pb_text_append(t, pb_html_is_number(SPI_gettypeid(desc, c)) ?
						   "<td class=\"num\">" : "<td>");
			pb_text_escaped(t, v ? v : "");
			pb_text_append(t, "</td>");
		}
		pb_text_append(t, "</tr>\n");
	}
	pb_text_append(t, "</table>\n");
}

/* A heading, escaped. */
static void
pb_html_heading(PbText *t, const char *heading)
{
	pb_text_append(t, "<h2>");
	pb_text_escaped(t, heading);
	pb_text_append(t, "</h2>\n");
}

/* A paragraph, escaped. */
static void
pb_html_paragraph(PbText *t, const char *cls, const char *s)
{
	pb_text_printf(t, "<p class=\"%s\">", cls);
	pb_text_escaped(t, s);
	pb_text_append(t, "</p>\n");
}

/* ---- its parts ----------------------------------------------------------- */

/*
 * pb_html_environment
 *		The environment of a run, as polarbench_environment_items() words
 *		it, a row an item.
 */
static void
pb_html_environment(PbText *t, int64 run_id, const char *schema)
{
	Oid			types[1] = {INT8OID};
	Datum		args[1] = {Int64GetDatum(run_id)};

	pb_html_query("SELECT i.label AS item, i.value"
				  "  FROM @extschema@.polarbench_environment_items($1) i",
				  schema, 1, types, args);
	pb_html_table(t);
}

/*
 * pb_html_tool_report
 *		A run's report in its tool's words (polarbench_report(), with the
 *		run's own style), as preformatted text.
 */
static void
pb_html_tool_report(PbText *t, int64 run_id, const char *schema)
{
	Oid			types[1] = {INT8OID};
	Datum		args[1] = {Int64GetDatum(run_id)};

	pb_html_query("SELECT @extschema@.polarbench_report($1)", schema, 1, types, args);
	pb_text_append(t, "<pre class=\"tool-report\">");
	pb_text_escaped(t, pb_html_value(0, 1));
	pb_text_append(t, "</pre>\n");
}

/*
 * pb_html_percentiles
 *		The latency percentiles of runs (ms), a row a run.
 */
static void
pb_html_percentiles(PbText *t, Datum ids, const char *schema)
{
	Oid			types[1] = {INT8ARRAYOID};
	Datum		args[1] = {ids};

	pb_html_query("SELECT r.run_id AS run, r.workload, r.clients,"
				  "       round(r.tps::numeric, 2) AS tps, round(r.latency_avg::numeric, 3) AS \"avg\","
				  "       round(r.latency_min::numeric, 3) AS \"min\", round(r.latency_p50::numeric, 3) AS p50,"
				  "       round(r.latency_p90::numeric, 3) AS p90, round(r.latency_p95::numeric, 3) AS p95,"
				  "       round(r.latency_p99::numeric, 3) AS p99, round(r.latency_p999::numeric, 3) AS \"p99.9\","
				  "       round(r.latency_max::numeric, 3) AS \"max\""
				  "  FROM @extschema@.polarbench_runs r"
				  " WHERE r.run_id OPERATOR(pg_catalog.=) ANY ($1) ORDER BY r.run_id",
				  schema, 1, types, args);
	pb_html_table(t);
	pb_html_paragraph(t, "note", "Latencies in milliseconds, of the successful transactions after the warm-up; percentiles from each run's latency histogram (within 0.8% of the true value).");
}

/*
 * pb_html_progress_chart
 *		Throughput and p99 latency over time of runs, from their progress
 *		rows, a line a run; a note instead when none has any.
 */
static void
pb_html_progress_chart(PbText *t, Datum ids, int nruns, const char *schema,
					   const char *title)
{
	Oid			types[1] = {INT8ARRAYOID};
	Datum		args[1] = {ids};
	PbChartSeries *tps = palloc0(sizeof(PbChartSeries) * nruns);
	PbChartSeries *p99 = palloc0(sizeof(PbChartSeries) * nruns);
	PbChartPanel panels[2];
	int			nseries = 0;
	int64		current = -1;

	pb_html_query("SELECT p.run_id, p.elapsed, p.tps, coalesce(p.latency_p99, 0)"
				  "  FROM @extschema@.polarbench_progress p"
				  " WHERE p.run_id OPERATOR(pg_catalog.=) ANY ($1)"
				  " ORDER BY p.run_id, p.elapsed",
				  schema, 1, types, args);
	if (SPI_processed == 0)
	{
		pb_html_paragraph(t, "note", "No progress rows: a run records them with progress => 1 or more (polarbench -P 1), and its charts over time are drawn from them.");
		return;
	}
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		int64		run_id = (int64) pb_html_number(r, 1);

		if (run_id != current)
		{
			if (nseries == nruns)
				break;
			current = run_id;
			tps[nseries].label = p99[nseries].label = psprintf("run " INT64_FORMAT, run_id);
			tps[nseries].x = palloc(sizeof(double) * SPI_processed);
			tps[nseries].y = palloc(sizeof(double) * SPI_processed);
			p99[nseries].x = tps[nseries].x;
			p99[nseries].y = palloc(sizeof(double) * SPI_processed);
			nseries++;
		}
		tps[nseries - 1].x[tps[nseries - 1].n] = pb_html_number(r, 2);
		tps[nseries - 1].y[tps[nseries - 1].n++] = pb_html_number(r, 3);
		p99[nseries - 1].y[p99[nseries - 1].n++] = pb_html_number(r, 4);
	}
	memset(panels, 0, sizeof(panels));
	panels[0] = (PbChartPanel) {.title = "Throughput over time",
		.x_label = "elapsed time (s)", .y_label = "transactions per second (tps)",
	.series = tps, .nseries = nseries};
	panels[1] = (PbChartPanel) {.title = "p99 latency over time",
		.x_label = "elapsed time (s)", .y_label = "p99 latency (ms)",
	.series = p99, .nseries = nseries};
	pb_text_append(t, "<figure class=\"chart progress\">\n");
	pb_chart_svg(t, title, panels, 2, false);
	pb_text_append(t, "</figure>\n");
}

/* An array of run ids as a bigint[] datum */
static Datum
pb_html_ids(const int64 *ids, int n)
{
	Datum	   *elems = palloc(sizeof(Datum) * Max(n, 1));

	for (int i = 0; i < n; i++)
		elems[i] = Int64GetDatum(ids[i]);
	return PointerGetDatum(construct_array(elems, n, INT8OID, sizeof(int64),
										   FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}

/*
 * pb_html_method_run
 *		What was run, how long, its warm-up, its progress, and how the
 *		intervals are made, for the runs of ids, in a few sentences.
 */
static void
pb_html_method(PbText *t, Datum ids, const char *schema, const char *intervals)
{
	Oid			types[1] = {INT8ARRAYOID};
	Datum		args[1] = {ids};

	pb_html_query("SELECT pg_catalog.string_agg(DISTINCT pg_catalog.format("
				  "  '%s ran workload %s with %s client%s, %s%s%s%s, as its tool runs it, its clients inside the server (background workers running the workload through SPI with prepared plans).',"
				  "  CASE WHEN r.node IS NULL THEN 'polarbench' ELSE 'polarbench on ' OPERATOR(pg_catalog.||) r.node END,"
				  "  r.workload, r.clients, CASE WHEN r.clients OPERATOR(pg_catalog.=) 1 THEN '' ELSE 's' END,"
				  "  CASE WHEN r.duration IS NOT NULL THEN 'for ' OPERATOR(pg_catalog.||) r.duration OPERATOR(pg_catalog.||) ' s'"
				  "       ELSE r.transactions_limit OPERATOR(pg_catalog.||) ' transactions a client' END,"
				  "  CASE WHEN r.warmup OPERATOR(pg_catalog.>) 0 THEN ' after a warm-up of ' OPERATOR(pg_catalog.||) r.warmup OPERATOR(pg_catalog.||) ' s, not measured' ELSE ', with no warm-up' END,"
				  "  CASE WHEN r.progress_interval OPERATOR(pg_catalog.>) 0 THEN ', a progress row every ' OPERATOR(pg_catalog.||) r.progress_interval OPERATOR(pg_catalog.||) ' s' ELSE '' END,"
				  "  CASE WHEN r.rate IS NOT NULL THEN ', at a rate of ' OPERATOR(pg_catalog.||) r.rate OPERATOR(pg_catalog.||) ' transactions per second' ELSE '' END),"
				  "  ' ') AS what,"
				  "  pg_catalog.count(*) AS runs,"
				  "  pg_catalog.min(r.started_at)::pg_catalog.text AS first, pg_catalog.max(r.ended_at)::pg_catalog.text AS last"
				  "  FROM @extschema@.polarbench_runs r WHERE r.run_id OPERATOR(pg_catalog.=) ANY ($1)",
				  schema, 1, types, args);
	pb_html_heading(t, "Method");
	pb_text_append(t, "<p class=\"method\">");
	pb_text_escaped(t, pb_html_value(0, 1));
	pb_text_printf(t, " %s run%s, from ", pb_html_value(0, 2),
				   strcmp(pb_html_value(0, 2), "1") == 0 ? "" : "s");
	pb_text_escaped(t, pb_html_value(0, 3));
	pb_text_append(t, " to ");
	pb_text_escaped(t, pb_html_value(0, 4));
	pb_text_append(t, ". ");
	pb_text_escaped(t, intervals);
	pb_text_append(t, "</p>\n");
}

/*
 * pb_html_check_runs
 *		Every run of ids exists and has ended: else the error
 *		polarbench_report() gives for it.
 */
static void
pb_html_check_runs(const int64 *ids, int n, const char *schema)
{
	for (int i = 0; i < n; i++)
	{
		Oid			types[1] = {INT8OID};
		Datum		args[1] = {Int64GetDatum(ids[i])};

		pb_html_query("SELECT pg_catalog.length(@extschema@.polarbench_report($1))",
					  schema, 1, types, args);
	}
}

/* Run ids as a list, "1,2,3". */
static char *
pb_html_value_list(const int64 *ids, int n)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (int i = 0; i < n; i++)
		appendStringInfo(&buf, "%s" INT64_FORMAT, i > 0 ? "," : "", ids[i]);
	return buf.data;
}

/* Begin: the extension's schema, the pinned search_path, SPI. */
static char *
pb_html_start(int *nest)
{
	Oid			schema;

	pb_journal_recover();
	(void) pb_extension_owner(&schema);
	*nest = pb_pin_search_path();
	SPI_connect();
	return get_namespace_name(schema);
}

/* The run ids of a bigint[] argument: none null, at least one. */
static int
pb_html_id_array(FunctionCallInfo fcinfo, int argno, const char *name, int64 **ids)
{
	ArrayType  *arr;
	Datum	   *elems;
	bool	   *nulls;
	int			n;

	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be null", name)));
	arr = PG_GETARG_ARRAYTYPE_P(argno);
	deconstruct_array(arr, INT8OID, sizeof(int64), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
					  &elems, &nulls, &n);
	if (n == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must name at least one run", name)));
	*ids = palloc(sizeof(int64) * n);
	for (int i = 0; i < n; i++)
	{
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("%s must not hold a null run id", name)));
		(*ids)[i] = DatumGetInt64(elems[i]);
	}
	return n;
}

/* ---- the entry points ---------------------------------------------------- */

/*
 * polarbench_report_html(run_id bigint, paper text): a run's report.
 */
Datum
polarbench_report_html(PG_FUNCTION_ARGS)
{
	int64		run_id = pb_run_id_arg(fcinfo, 0);
	const char *paper = pb_html_paper(fcinfo, 1);
	MemoryContext caller_cxt = CurrentMemoryContext;
	PbText	   *t;
	int			nest;
	char	   *schema;
	char	   *title;
	Datum		ids;
	text	   *result;

	schema = pb_html_start(&nest);
	pb_html_check_runs(&run_id, 1, schema);
	ids = pb_html_ids(&run_id, 1);
	{
		Oid			types[1] = {INT8OID};
		Datum		args[1] = {Int64GetDatum(run_id)};

		pb_html_query("SELECT r.workload, r.status FROM @extschema@.polarbench_runs r"
					  " WHERE r.run_id OPERATOR(pg_catalog.=) $1", schema, 1, types, args);
		title = psprintf("polarbench run " INT64_FORMAT ": %s, %s", run_id,
						 pb_html_value(0, 1), pb_html_value(0, 2));
	}
	t = pb_html_text_new();
	pb_html_begin(t, title, paper);
	pb_html_method(t, ids, schema,
				   "One run: its figures are its own, with no interval; polarbench_compare makes intervals of one run against another from their progress intervals (batch means, and a block bootstrap of their histograms for percentiles).");
	pb_html_heading(t, "Latency percentiles");
	pb_html_percentiles(t, ids, schema);
	pb_html_heading(t, "Throughput and latency over time");
	pb_html_progress_chart(t, ids, 1, schema, psprintf("run " INT64_FORMAT, run_id));
	pb_text_append(t, "<section class=\"page\">\n");
	pb_html_heading(t, "Environment");
	pb_html_environment(t, run_id, schema);
	pb_html_heading(t, "The report, in its tool's words");
	pb_html_tool_report(t, run_id, schema);
	pb_text_append(t, "</section>\n");
	MemoryContextSwitchTo(caller_cxt);
	result = pb_html_end(t);
	SPI_finish();
	pb_unpin_search_path(nest);
	PG_RETURN_TEXT_P(result);
}

/*
 * polarbench_compare_report_html(a bigint[], b bigint[], paper text): a
 * comparison's report: polarbench_compare()'s rows as a table and their
 * ratios with their intervals as a chart, both sides' runs over time, their
 * percentiles, and the environment of the first run of each side.
 */
Datum
polarbench_compare_report_html(PG_FUNCTION_ARGS)
{
	int64	   *a;
	int64	   *b;
	int			na = pb_html_id_array(fcinfo, 0, "a", &a);
	int			nb = pb_html_id_array(fcinfo, 1, "b", &b);
	const char *paper = pb_html_paper(fcinfo, 2);
	MemoryContext caller_cxt = CurrentMemoryContext;
	int64	   *all = palloc(sizeof(int64) * (na + nb));
	PbText	   *t;
	int			nest;
	char	   *schema;
	Datum		ids;
	text	   *result;
	Oid			types[2] = {INT8ARRAYOID, INT8ARRAYOID};
	Datum		args[2];
	PbChartSeries ratios = {.label = "ratio B/A"};
	PbChartPanel panel = {0};
	const char **names;

	memcpy(all, a, sizeof(int64) * na);
	memcpy(all + na, b, sizeof(int64) * nb);
	schema = pb_html_start(&nest);
	pb_html_check_runs(all, na + nb, schema);
	ids = pb_html_ids(all, na + nb);
	args[0] = pb_html_ids(a, na);
	args[1] = pb_html_ids(b, nb);

	t = pb_html_text_new();
	pb_html_begin(t, psprintf("polarbench comparison: runs %s (A) and %s (B)",
							   pb_html_value_list(a, na), pb_html_value_list(b, nb)),
				  paper);
	pb_html_method(t, ids, schema,
				   "Each ratio is B's figure over A's with its 95% interval: with two or more runs a side, Welch's t on the logs of the runs' figures; with one run a side, batch means of the runs' progress intervals, and a block bootstrap of their latency histograms for percentiles (each row names its method).");

	/* the comparison's rows, and its ratios as a chart */
	pb_html_query("SELECT c.metric, c.part AS \"of\", round(c.value_a::numeric, 3) AS \"A\","
				  "       round(c.value_b::numeric, 3) AS \"B\", round(c.ratio::numeric, 4) AS \"B/A\","
				  "       round(c.ratio_low::numeric, 4) AS low, round(c.ratio_high::numeric, 4) AS high,"
				  "       c.verdict, c.method, c.note"
				  "  FROM @extschema@.polarbench_compare($1, $2) c",
				  schema, 2, types, args);
	pb_html_heading(t, "Ratios B/A with their 95% intervals");
	names = palloc(sizeof(char *) * Max(SPI_processed, 1));
	ratios.x = palloc(sizeof(double) * Max(SPI_processed, 1));
	ratios.y = palloc(sizeof(double) * Max(SPI_processed, 1));
	ratios.low = palloc(sizeof(double) * Max(SPI_processed, 1));
	ratios.high = palloc(sizeof(double) * Max(SPI_processed, 1));
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		double		ratio = pb_html_number(r, 5);

		if (pb_html_value(r, 2) != NULL || !isfinite(ratio))
			continue;			/* the whole runs' metrics only */
		names[ratios.n] = pb_html_value(r, 1);
		ratios.x[ratios.n] = ratios.n + 1;
		ratios.y[ratios.n] = ratio;
		ratios.low[ratios.n] = pb_html_number(r, 6);
		ratios.high[ratios.n] = pb_html_number(r, 7);
		ratios.n++;
	}
	if (ratios.n > 0)
	{
		panel.title = "Ratio B/A of each metric, with its 95% interval";
		panel.x_label = "metric (throughput: above 1 is faster; latency: below 1 is)";
		panel.y_label = "ratio B/A";
		panel.series = &ratios;
		panel.nseries = 1;
		panel.x_at_points = true;
		panel.x_names = names;
		panel.points_only = true;
		panel.y_reference = 1;
		pb_text_append(t, "<figure class=\"chart ratios\">\n");
		pb_chart_svg(t, "B against A", &panel, 1, false);
		pb_text_append(t, "</figure>\n");
	}
	pb_html_table(t);

	pb_text_append(t, "<section class=\"page\">\n");
	pb_html_heading(t, "Throughput and latency over time");
	pb_html_progress_chart(t, ids, na + nb, schema, "the runs of both sides");
	pb_html_heading(t, "Latency percentiles");
	pb_html_percentiles(t, ids, schema);
	pb_text_append(t, "</section>\n<section class=\"page\">\n");
	pb_html_heading(t, psprintf("Environment of run " INT64_FORMAT " (A)", a[0]));
	pb_html_environment(t, a[0], schema);
	pb_html_heading(t, psprintf("Environment of run " INT64_FORMAT " (B)", b[0]));
	pb_html_environment(t, b[0], schema);
	pb_text_append(t, "</section>\n");
	MemoryContextSwitchTo(caller_cxt);
	result = pb_html_end(t);
	SPI_finish();
	pb_unpin_search_path(nest);
	PG_RETURN_TEXT_P(result);
}

/*
 * polarbench_sweep_report_html(sweep_ids bigint[], metric text, paper
 * text): the report of sweeps (the command-line program's sweep is one
 * polarbench_sweep() a setting set): each one's table
 * (polarbench_sweep_table(), with the lines saying where its columns'
 * environments differ), the metric against concurrency, a line per setting
 * set with each point's 95% interval over its repetitions, the runs'
 * percentiles, and the environment of the first run.
 */
Datum
polarbench_sweep_report_html(PG_FUNCTION_ARGS)
{
	int64	   *sweeps;
	int			nsweeps = pb_html_id_array(fcinfo, 0, "sweep_ids", &sweeps);
	const char *metric;
	const char *paper = pb_html_paper(fcinfo, 2);
	MemoryContext caller_cxt = CurrentMemoryContext;
	PbText	   *t;
	int			nest;
	char	   *schema;
	text	   *result;
	Oid			types[2] = {INT8OID, TEXTOID};
	Datum		args[2];
	int64		first_run;

	PbChartSeries *series;
	PbChartPanel panel = {0};
	int			nseries = 0;
	int64		current = -1;
	bool		doubling = true;
	Datum		ids;
	int64	   *run_ids;
	int			nruns;

	metric = PG_ARGISNULL(1) ? "qps" : text_to_cstring(PG_GETARG_TEXT_PP(1));
	args[1] = CStringGetTextDatum(metric);
	schema = pb_html_start(&nest);

	/* each one's table, which checks the sweep and the metric */
	{
		StringInfoData table;

		initStringInfo(&table);
		for (int i = 0; i < nsweeps; i++)
		{
			args[0] = Int64GetDatum(sweeps[i]);
			pb_html_query("SELECT pg_catalog.string_agg(l, E'\\n') FROM @extschema@.polarbench_sweep_table($1, $2) l",
						  schema, 2, types, args);
			appendStringInfo(&table, "%ssweep " INT64_FORMAT "\n%s\n", i > 0 ? "\n" : "",
							 sweeps[i], pb_html_value(0, 1));
		}
		types[0] = INT8ARRAYOID;
		args[0] = pb_html_ids(sweeps, nsweeps);
		pb_html_query("SELECT r.run_id FROM @extschema@.polarbench_runs r"
					  " WHERE r.sweep_id OPERATOR(pg_catalog.=) ANY ($1) ORDER BY r.sweep_id, r.sweep_run",
					  schema, 1, types, args);
		nruns = SPI_processed;
		run_ids = palloc(sizeof(int64) * Max(nruns, 1));
		for (int i = 0; i < nruns; i++)
			run_ids[i] = (int64) pb_html_number(i, 1);
		first_run = run_ids[0];
		ids = pb_html_ids(run_ids, nruns);

		t = pb_html_text_new();
		pb_html_begin(t, psprintf("polarbench sweep %s: %s by clients and setting set",
								   pb_html_value_list(sweeps, nsweeps), metric), paper);
		pb_html_method(t, ids, schema,
					   "Every combination of client count and setting set ran as many times as the sweep repeats; a cell of several repetitions is their geometric mean with its 95% interval (Student's t on the logs of the runs' figures), a cell of one run its figure.");
		pb_html_heading(t, psprintf("%s by clients and setting set", metric));
		pb_text_append(t, "<pre class=\"sweep-table\">");
		pb_text_escaped(t, table.data);
		pb_text_append(t, "</pre>\n");
	}

	/* the metric against concurrency, each setting set a line */
	pb_html_query(psprintf("SELECT g.sweep_id OPERATOR(pg_catalog.*) 100000 OPERATOR(pg_catalog.+) g.sweep_set,"
						   "       g.clients, (g.iv).center, (g.iv).low, (g.iv).high,"
						   "       g.mean, g.label"
						   "  FROM (SELECT r.sweep_id, r.sweep_set, r.clients,"
						   "               @extschema@.polarbench_interval(pg_catalog.array_agg(r.%s::pg_catalog.float8)) AS iv,"
						   "               pg_catalog.avg(r.%s::pg_catalog.float8) AS mean,"
						   "               pg_catalog.min(pg_catalog.concat_ws(' ', 'set ' OPERATOR(pg_catalog.||) r.sweep_set,"
						   "                   r.server_settings::pg_catalog.text, r.settings::pg_catalog.text,"
						   "                   r.vars::pg_catalog.text, r.options::pg_catalog.text)) AS label"
						   "          FROM @extschema@.polarbench_runs r"
						   "         WHERE r.sweep_id OPERATOR(pg_catalog.=) ANY ($1)"
						   "         GROUP BY r.sweep_id, r.sweep_set, r.clients) g"
						   " ORDER BY g.sweep_id, g.sweep_set, g.clients",
						   quote_identifier(metric), quote_identifier(metric)),
				  schema, 1, types, args);
	series = palloc0(sizeof(PbChartSeries) * Max(SPI_processed, 1));
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		int64		set = (int64) pb_html_number(r, 1);
		PbChartSeries *s;
		double		center = pb_html_number(r, 3);

		if (set != current)
		{
			current = set;
			s = &series[nseries++];
			s->label = pb_html_value(r, 7);
			s->x = palloc(sizeof(double) * SPI_processed);
			s->y = palloc(sizeof(double) * SPI_processed);
			s->low = palloc(sizeof(double) * SPI_processed);
			s->high = palloc(sizeof(double) * SPI_processed);
		}
		s = &series[nseries - 1];
		s->x[s->n] = pb_html_number(r, 2);
		s->y[s->n] = isfinite(center) ? center : pb_html_number(r, 6);
		s->low[s->n] = pb_html_number(r, 4);
		s->high[s->n] = pb_html_number(r, 5);
		if (s->n > 0 && s->x[s->n] != 2 * s->x[s->n - 1])
			doubling = false;
		s->n++;
	}
	panel.title = psprintf("%s by concurrency, with 95%% intervals", metric);
	panel.x_label = "clients (concurrent connections)";
	panel.y_label = metric;
	panel.series = series;
	panel.nseries = nseries;
	panel.x_log2 = doubling && nseries > 0 && series[0].n > 2;
	panel.x_at_points = true;
	pb_text_append(t, "<figure class=\"chart sweep\">\n");
	pb_chart_svg(t, psprintf("sweep %s", pb_html_value_list(sweeps, nsweeps)), &panel, 1, false);
	pb_text_append(t, "</figure>\n");

	pb_text_append(t, "<section class=\"page\">\n");
	pb_html_heading(t, "Latency percentiles of its runs");
	pb_html_percentiles(t, ids, schema);
	pb_html_heading(t, psprintf("Environment of its first run, " INT64_FORMAT, first_run));
	pb_html_environment(t, first_run, schema);
	pb_text_append(t, "</section>\n");
	MemoryContextSwitchTo(caller_cxt);
	result = pb_html_end(t);
	SPI_finish();
	pb_unpin_search_path(nest);
	PG_RETURN_TEXT_P(result);
}
