/*-------------------------------------------------------------------------
 *
 * sweep.c
 *	  Sweeps, as the reference reports tabulate them: every client count of
 *	  -c 8,16,32 with every setting set of --set, repeat times, printed as
 *	  one table (rows: concurrency, columns: setting sets, cells: qps for
 *	  the workloads of other tools, tps for pgbench's scripts; with repetitions, each
 *	  cell's interval, and its mark against the first setting set's), or as
 *	  data (--report csv, json), or drawn (--svg, with the intervals).
 *
 * Each setting set runs as one polarbench_sweep() call, its settings
 * sorted by what changes them: a SET in every client, a reload, or a
 * restart with --restart-command.  Every set is checked before the first
 * run.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include <math.h>

#include "common/logging.h"

#include "pb_measure.h"
#include "polarbench.h"

/* One run of the sweep */
typedef struct SweepRun
{
	int			set;			/* index into the sets */
	int			clients;
	int			repetition;
	char	   *run_id;
	double		tps;
	double		qps;
	double		latency_avg;
	double		latency_p95;
	double		latency_p99;
	long long	failed;
} SweepRun;

/* A setting set, sorted by what changes it */
typedef struct SortedSet
{
	SettingSet	session;
	SettingSet	server;
	SettingSet	restart;
	char	   *session_json;	/* NULL when empty */
	char	   *server_json;
} SortedSet;

/* The metric of a run the table shows. */
static double
run_metric(const SweepRun *r, bool qps)
{
	return qps ? r->qps : r->tps;
}

static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a;
	double		y = *(const double *) b;

	return x < y ? -1 : x > y;
}

/*
 * cell_values
 *		The metric of every run of a set at a client count, sorted; returns
 *		their number.
 */
static int
cell_values(const SweepRun *runs, int nruns, int set, int clients, bool qps,
			double *values)
{
	int			n = 0;

	for (int i = 0; i < nruns; i++)
		if (runs[i].set == set && runs[i].clients == clients)
			values[n++] = run_metric(&runs[i], qps);
	qsort(values, n, sizeof(double), cmp_double);
	return n;
}

/* The median of n sorted values. */
static double
median(const double *v, int n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * A cell of the table: its runs' figures, what it shows of them, and its
 * mark against the first setting set's cell at its client count
 */
typedef struct SweepCell
{
	int			n;				/* repetitions */
	double		center;			/* the figure, or of several their geometric
								 * mean (their median if one is zero) */
	double		low;			/* the center's 95% interval, NAN when none */
	double		high;
	const char *mark;			/* faster, slower, no difference shown, or NULL */
} SweepCell;

/*
 * sweep_cells
 *		Every cell of the sweep, set by set (nsets * nclient_counts): its
 *		center and interval (the geometric mean of its repetitions and its
 *		95% interval, Student's t on their logs, as polarbench_sweep_table
 *		shows it) and, when the sweep has several setting sets, its mark
 *		against the first set's cell (Welch's t on the logs, as
 *		polarbench_compare_figures() makes it).  Returns whether any cell
 *		has an interval.
 */
static bool
sweep_cells(const ClientOptions *opts, const SweepRun *runs, int nruns, int nsets,
			bool qps, SweepCell *cells)
{
	double	   *values = pg_malloc(sizeof(double) * (nruns + 1));
	double	   *first = pg_malloc(sizeof(double) * (nruns + 1));
	bool		intervals = false;

	for (int c = 0; c < opts->nclient_counts; c++)
	{
		int			nfirst = cell_values(runs, nruns, 0, opts->client_counts[c], qps, first);

		for (int s = 0; s < nsets; s++)
		{
			SweepCell  *cell = &cells[s * opts->nclient_counts + c];
			int			n = cell_values(runs, nruns, s, opts->client_counts[c], qps, values);
			PbRatio		r;

			cell->n = n;
			cell->center = n > 0 ? values[0] : NAN;
			cell->low = cell->high = NAN;
			cell->mark = NULL;
			if (n < 2)
				continue;
			if (pb_log_interval(values, n, PB_CONFIDENCE, &cell->center, &cell->low,
								&cell->high) != PB_STAT_OK)
				cell->center = median(values, n);
			else
				intervals = true;
			if (s > 0 && nfirst > 0 &&
				pb_ratio_of_runs(first, nfirst, values, n, PB_CONFIDENCE, &r) == PB_STAT_OK)
				cell->mark = pb_verdict_name(pb_verdict(&r, false, 0));
		}
	}
	free(values);
	free(first);
	return intervals;
}

/* The width of a string on a terminal: its UTF-8 characters. */
static int
text_width(const char *s)
{
	int			n = 0;

	for (; *s; s++)
		if ((*s & 0xC0) != 0x80)
			n++;
	return n;
}

/* Print s in width columns, to the right (right) or to the left. */
static void
print_padded(const char *s, int width, bool right)
{
	int			pad = Max(width - text_width(s), 0);

	if (right)
		printf("%*s%s", pad, "", s);
	else
		printf("%s%*s", s, pad, "");
}

/* The label of set i: as given, or the server's own settings. */
static const char *
set_label(const ClientOptions *opts, int i)
{
	if (opts->nsets == 0 || opts->sets[i].label[0] == '\0')
		return "(as configured)";
	return opts->sets[i].label;
}

/*
 * print_table
 *		The sweep as the reference reports tabulate one: a row per client
 *		count, a column per setting set, in each cell the figure or, with
 *		repetitions, their geometric mean and its 95% interval (their median
 *		and spread, half the range as a share of the median, when a figure
 *		is zero), marked faster, slower or no difference shown against the
 *		first setting set's cell.
 */
static void
print_table(const ClientOptions *opts, const SweepRun *runs, int nruns,
			int nsets, bool qps)
{
	double	   *values = pg_malloc(sizeof(double) * (nruns + 1));
	int		   *widths = pg_malloc(sizeof(int) * nsets);
	char	  **cells = pg_malloc0(sizeof(char *) * nsets * opts->nclient_counts);
	SweepCell  *stats = pg_malloc0(sizeof(SweepCell) * nsets * opts->nclient_counts);
	bool		intervals = sweep_cells(opts, runs, nruns, nsets, qps, stats);

	printf("%s by clients (rows) and setting set (columns): %s, ",
		   qps ? "qps" : "tps",
		   opts->workload ? opts->workload->name :
		   opts->nscripts == 1 ? opts->scripts[0].desc : "multiple scripts");
	if (opts->duration > 0)
		printf("%d s per run", opts->duration);
	else
		printf("%d transactions per client", opts->nxacts > 0 ? opts->nxacts : 10);
	if (opts->repeat > 1 && intervals)
		printf(", geometric mean of %d and its 95%% interval", opts->repeat);
	else if (opts->repeat > 1)
		printf(", median of %d and spread", opts->repeat);
	if (opts->repeat > 1 && nsets > 1 && intervals)
		printf(", marked against the first setting set");
	printf("\n");

	for (int s = 0; s < nsets; s++)
	{
		widths[s] = text_width(set_label(opts, s));
		for (int c = 0; c < opts->nclient_counts; c++)
		{
			int			n = cell_values(runs, nruns, s, opts->client_counts[c], qps, values);
			const SweepCell *st = &stats[s * opts->nclient_counts + c];
			char	   *cell;

			if (n == 0)
				cell = pg_strdup("");
			else if (n == 1)
				cell = psprintf("%.1f", values[0]);
			else if (!isnan(st->low))
				cell = psprintf("%.1f [%.1f, %.1f]%s%s", st->center, st->low, st->high,
								st->mark ? " " : "", st->mark ? st->mark : "");
			else
			{
				double		m = median(values, n);

				cell = psprintf("%.1f ±%.1f%%", m,
								m > 0 ? 100.0 * (values[n - 1] - values[0]) / 2 / m : 0.0);
			}
			cells[s * opts->nclient_counts + c] = cell;
			widths[s] = Max(widths[s], text_width(cell));
		}
	}
	printf("%7s", "clients");
	for (int s = 0; s < nsets; s++)
	{
		printf(" | ");
		print_padded(set_label(opts, s), widths[s], false);
	}
	printf("\n-------");
	for (int s = 0; s < nsets; s++)
	{
		printf("-+-");
		for (int w = 0; w < widths[s]; w++)
			putchar('-');
	}
	printf("\n");
	for (int c = 0; c < opts->nclient_counts; c++)
	{
		printf("%7d", opts->client_counts[c]);
		for (int s = 0; s < nsets; s++)
		{
			printf(" | ");
			print_padded(cells[s * opts->nclient_counts + c], widths[s], true);
		}
		printf("\n");
	}
	free(values);
	free(widths);
	free(stats);
}

/* The run ids of the sweep as a SQL array literal. */
static char *
run_id_array(const SweepRun *runs, int nruns)
{
	PQExpBufferData buf;

	initPQExpBuffer(&buf);
	appendPQExpBufferChar(&buf, '{');
	for (int i = 0; i < nruns; i++)
		appendPQExpBuffer(&buf, "%s%s", i > 0 ? "," : "", runs[i].run_id);
	appendPQExpBufferChar(&buf, '}');
	return buf.data;
}

/* The setting set labels in sweep order, as a SQL array literal. */
static char *
label_array(const ClientOptions *opts, const SweepRun *runs, int nruns)
{
	PQExpBufferData buf;

	initPQExpBuffer(&buf);
	appendPQExpBufferChar(&buf, '{');
	for (int i = 0; i < nruns; i++)
	{
		appendPQExpBufferStr(&buf, i > 0 ? "," : "");
		append_json_string(&buf, set_label(opts, runs[i].set));
	}
	appendPQExpBufferChar(&buf, '}');
	return buf.data;
}

/*
 * print_data
 *		The sweep as data: CSV, a line per run with its setting set and
 *		every column of its polarbench_runs row; or JSON, the table (the
 *		median cells) and every run's row.
 */
static bool
print_data(PGconn *conn, const ClientOptions *opts, const SweepRun *runs,
		   int nruns, int nsets, bool qps)
{
	const char *params[2] = {run_id_array(runs, nruns), label_array(opts, runs, nruns)};

	if (strcmp(opts->report, "csv") == 0)
		return print_csv_query(conn,
							   "SELECT l.setting_set, r.*"
							   "  FROM ROWS FROM (pg_catalog.unnest($1::pg_catalog.int8[]),"
							   "                  pg_catalog.unnest($2::pg_catalog.text[])) AS l(run_id, setting_set)"
							   "  JOIN @extschema@.polarbench_runs r ON r.run_id OPERATOR(pg_catalog.=) l.run_id"
							   " ORDER BY r.run_id",
							   2, params);
	else
	{
		PQExpBufferData doc;
		SweepCell  *cells = pg_malloc0(sizeof(SweepCell) * nsets * opts->nclient_counts);
		char	   *rows;

		rows = single_value(conn,
							"SELECT pg_catalog.jsonb_agg(pg_catalog.to_jsonb(r) OPERATOR(pg_catalog.||)"
							"                            pg_catalog.jsonb_build_object('setting_set', l.setting_set)"
							"                            ORDER BY r.run_id)"
							"  FROM ROWS FROM (pg_catalog.unnest($1::pg_catalog.int8[]),"
							"                  pg_catalog.unnest($2::pg_catalog.text[])) AS l(run_id, setting_set)"
							"  JOIN @extschema@.polarbench_runs r ON r.run_id OPERATOR(pg_catalog.=) l.run_id",
							2, params);
		if (rows == NULL)
			return false;
		initPQExpBuffer(&doc);
		appendPQExpBuffer(&doc, "{\"metric\": \"%s\", \"clients\": [", qps ? "qps" : "tps");
		for (int c = 0; c < opts->nclient_counts; c++)
			appendPQExpBuffer(&doc, "%s%d", c > 0 ? ", " : "", opts->client_counts[c]);
		appendPQExpBufferStr(&doc, "], \"setting_sets\": [");
		for (int s = 0; s < nsets; s++)
		{
			appendPQExpBufferStr(&doc, s > 0 ? ", " : "");
			append_json_string(&doc, set_label(opts, s));
		}
		(void) sweep_cells(opts, runs, nruns, nsets, qps, cells);
		/* each cell's figure (or center), interval and mark */
		for (int part = 0; part < 3; part++)
		{
			appendPQExpBuffer(&doc, "], \"%s\": [",
							  part == 0 ? "table" : part == 1 ? "intervals" : "marks");
			for (int c = 0; c < opts->nclient_counts; c++)
			{
				appendPQExpBuffer(&doc, "%s[", c > 0 ? ", " : "");
				for (int s = 0; s < nsets; s++)
				{
					const SweepCell *cell = &cells[s * opts->nclient_counts + c];

					appendPQExpBufferStr(&doc, s > 0 ? ", " : "");
					if (part == 0 && cell->n > 0)
						appendPQExpBuffer(&doc, "%.17g", cell->center);
					else if (part == 1 && !isnan(cell->low))
						appendPQExpBuffer(&doc, "[%.17g, %.17g]", cell->low, cell->high);
					else if (part == 2 && cell->mark != NULL)
						append_json_string(&doc, cell->mark);
					else
						appendPQExpBufferStr(&doc, "null");
				}
				appendPQExpBufferStr(&doc, "]");
			}
		}
		appendPQExpBuffer(&doc, "], \"runs\": %s}\n", rows);
		fputs(doc.data, stdout);
		termPQExpBuffer(&doc);
		free(cells);
	}
	return true;
}

/*
 * chart_sweep
 *		--svg for a sweep: the metric against concurrency, a line per
 *		setting set, as Tencent Cloud's sysbench report draws QPS by
 *		concurrency; with repetitions, each point is their geometric mean,
 *		drawn with its 95% interval.
 */
static bool
chart_sweep(const ClientOptions *opts, const SweepRun *runs, int nruns,
			int nsets, bool qps)
{
	ChartPanel	panel = {0};
	ChartSeries *series = pg_malloc0(sizeof(ChartSeries) * nsets);
	SweepCell  *cells = pg_malloc0(sizeof(SweepCell) * nsets * opts->nclient_counts);
	bool		intervals = sweep_cells(opts, runs, nruns, nsets, qps, cells);
	bool		doubling = opts->nclient_counts > 2;

	for (int c = 1; c < opts->nclient_counts; c++)
		if (opts->client_counts[c] != 2 * opts->client_counts[c - 1])
			doubling = false;
	for (int s = 0; s < nsets; s++)
	{
		series[s].label = set_label(opts, s);
		series[s].x = pg_malloc(sizeof(double) * opts->nclient_counts);
		series[s].y = pg_malloc(sizeof(double) * opts->nclient_counts);
		if (intervals)
		{
			series[s].low = pg_malloc(sizeof(double) * opts->nclient_counts);
			series[s].high = pg_malloc(sizeof(double) * opts->nclient_counts);
		}
		for (int c = 0; c < opts->nclient_counts; c++)
		{
			const SweepCell *cell = &cells[s * opts->nclient_counts + c];

			if (cell->n == 0)
				continue;
			series[s].x[series[s].n] = opts->client_counts[c];
			series[s].y[series[s].n] = cell->center;
			if (intervals)
			{
				series[s].low[series[s].n] = cell->low;
				series[s].high[series[s].n] = cell->high;
			}
			series[s].n++;
		}
	}
	panel.title = qps ? "Queries per second by concurrency" : "Transactions per second by concurrency";
	panel.x_label = "clients (concurrent connections)";
	panel.y_label = qps ? "queries per second (qps)" : "transactions per second (tps)";
	panel.series = series;
	panel.nseries = nsets;
	panel.x_log2 = doubling;
	panel.x_at_points = true;
	return write_svg(opts->svg,
					 psprintf("%s: %s by clients and setting set",
							  opts->workload ? opts->workload->name :
							  opts->nscripts == 1 ? opts->scripts[0].desc : "multiple scripts",
							  qps ? "qps" : "tps"),
					 &panel, 1);
}

/*
 * sort_sets
 *		Sort every setting set by what changes it, and check them all before
 *		the first run: no set twice, a restart command for any setting that
 *		takes a restart.  Returns false on error (reported).
 */
static bool
sort_sets(PGconn *conn, const ClientOptions *opts, SortedSet *sorted, int nsets)
{
	for (int i = 0; i < nsets; i++)
	{
		SettingSet	empty = {0};
		const SettingSet *set = opts->nsets > 0 ? &opts->sets[i] : &empty;

		for (int k = 0; k < i; k++)
			if (setting_sets_equal(set, &opts->sets[k]))
			{
				pg_log_error("setting set %d (\"%s\") is the same as setting set %d",
							 i + 1, set->label, k + 1);
				return false;
			}
		if (!classify_settings(conn, set, &sorted[i].session, &sorted[i].server,
							   &sorted[i].restart))
			return false;
		if (!check_restart_command(&sorted[i].restart, opts->restart_command))
			return false;
		sorted[i].session_json = setting_set_json_or_null(&sorted[i].session);
		sorted[i].server_json = setting_set_json_or_null(&sorted[i].server);
	}
	return true;
}

/*
 * run_set
 *		Run the sweep of one setting set, adding its runs; returns false on
 *		error (reported).
 */
static bool
run_set(PGconn *conn, const ClientOptions *opts, const SortedSet *set, int set_no,
		SweepRun **runs, int *nruns, int *space)
{
	PQExpBufferData sql;
	ParamList	params = {0};
	PGresult   *res;
	bool		ok;

	initPQExpBuffer(&sql);
	build_sweep_query(opts, &sql, &params, set->session_json, set->server_json);
	if (opts->nsets > 0)
		fprintf(stderr, "setting set %d: %s\n", set_no + 1, set_label(opts, set_no));
	res = exec_query(conn, PB_QUERY_USER_PATH | PB_QUERY_CANCELABLE, sql.data,
					 params.n, params.values);
	ok = PQresultStatus(res) == PGRES_TUPLES_OK;
	if (!ok)
		report_server_error(conn, res);
	for (int i = 0; ok && i < PQntuples(res); i++)
	{
		SweepRun   *r;

		if (*nruns == *space)
		{
			*space = Max(16, *space * 2);
			*runs = pg_realloc(*runs, sizeof(SweepRun) * *space);
		}
		r = &(*runs)[(*nruns)++];
		r->set = set_no;
		r->run_id = pg_strdup(PQgetvalue(res, i, 1));
		r->repetition = atoi(PQgetvalue(res, i, 2));
		r->clients = atoi(PQgetvalue(res, i, 3));
		r->tps = atof(PQgetvalue(res, i, 4));
		r->qps = atof(PQgetvalue(res, i, 5));
		r->latency_avg = atof(PQgetvalue(res, i, 6));
		r->latency_p95 = atof(PQgetvalue(res, i, 7));
		r->latency_p99 = atof(PQgetvalue(res, i, 8));
		r->failed = atoll(PQgetvalue(res, i, 9));
	}
	PQclear(res);
	termPQExpBuffer(&sql);
	return ok;
}

/*
 * run_sweep
 *		Run every client count with every setting set, repeat times, and
 *		print the table.  Returns the exit status: 1 if nothing ran, 2 if a
 *		run failed or was canceled.
 */
int
run_sweep(PGconn *conn, const ConnTarget *target, const ClientOptions *opts)
{
	int			nsets = Max(opts->nsets, 1);
	SortedSet  *sorted = pg_malloc0(sizeof(SortedSet) * nsets);
	SweepRun   *runs = NULL;
	int			nruns = 0;
	int			space = 0;
	RestartState restart = {0};
	bool		restarted = false;
	bool		qps = opts->workload != NULL;
	int			status = 0;

	char	   *last_run;

	if (!sort_sets(conn, opts, sorted, nsets))
		return 1;
	last_run = last_run_id(conn);
	if (last_run == NULL)
		return 1;
	vacuum_tables(conn, opts);
	for (int s = 0; s < nsets && status == 0; s++)
	{
		/* a restart only where the restart settings change */
		if (restart.active && !setting_sets_equal(&restart.settings, &sorted[s].restart) &&
			!restart_restore(&conn, target, &restart))
			status = 2;
		if (status == 0 && !restart.active && sorted[s].restart.n > 0)
		{
			restarted = true;
			if (!restart_apply(&conn, target, opts->restart_command, &sorted[s].restart,
							   &restart))
				status = 2;
		}
		/* SIGINT or SIGTERM while the settings changed: no more runs */
		if (status == 0 && stop_was_requested())
			status = 2;
		if (status == 0 && !run_set(conn, opts, &sorted[s], s, &runs, &nruns, &space))
			status = 2;
	}
	if (!restart_restore(&conn, target, &restart))
		status = 2;
	if (status != 0)
	{
		int			recorded = runs_since(conn, last_run);

		/* the server refused the arguments: nothing ran */
		if (recorded == 0 && !restarted)
			return 1;
		fprintf(stderr, "The sweep stopped; its %d runs so far are recorded in polarbench_runs.\n",
				recorded);
		return 2;
	}

	if (opts->report != NULL &&
		(strcmp(opts->report, "csv") == 0 || strcmp(opts->report, "json") == 0))
	{
		if (!print_data(conn, opts, runs, nruns, nsets, qps))
			return 1;
	}
	else
		print_table(opts, runs, nruns, nsets, qps);
	if (opts->svg != NULL && !chart_sweep(opts, runs, nruns, nsets, qps))
		return 1;
	if (opts->output != NULL && nruns > 0)
	{
		PQExpBufferData ids;
		const char *params[2];

		/* each setting set ran as a sweep of its own: the page has them all */
		initPQExpBuffer(&ids);
		for (int i = 0; i < nruns; i++)
			appendPQExpBuffer(&ids, "%s%s", i == 0 ? "{" : ",", runs[i].run_id);
		appendPQExpBufferStr(&ids, "}");
		params[0] = ids.data;
		params[1] = qps ? "qps" : "tps";
		if (!write_html_report(conn, opts,
							   "SELECT @extschema@.polarbench_sweep_report_html("
							   "  ARRAY(SELECT DISTINCT r.sweep_id FROM @extschema@.polarbench_runs r"
							   "         WHERE r.run_id OPERATOR(pg_catalog.=) ANY ($1::pg_catalog.int8[])"
							   "         ORDER BY 1), $2::pg_catalog.text)",
							   2, params))
		{
			termPQExpBuffer(&ids);
			return 1;
		}
		termPQExpBuffer(&ids);
	}
	return 0;
}
