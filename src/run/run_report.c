/*-------------------------------------------------------------------------
 *
 * run_report.c
 *	  polarbench_report(run_id, style): a finished run as the tool its user
 *	  knows would have printed it at the end: pgbench's summary (with its
 *	  per-statement latencies), sysbench's (SQL statistics, General
 *	  statistics, Latency, Threads fairness), YCSB's ([OVERALL], [READ]
 *	  ... lines), or every figure as JSON.
 *
 * The figures are read from the views, with the caller's rights: a report
 * shows no text the caller may not read in polarbench_runs.
 *
 * calls: nothing of polarbench's but the script library's builtin_scripts.c
 * and the workload library's workload_options.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "safe_sql.h"

#include "run.h"
#include "settings_journal.h"

PG_FUNCTION_INFO_V1(polarbench_report);

/* One row of a query's result, read by column name */
typedef struct PbRow
{
	SPITupleTable *tuptable;
	uint64		row;
} PbRow;

/* A column's value as text, or NULL. */
static char *
pb_text(PbRow *r, const char *column)
{
	int			fnum = SPI_fnumber(r->tuptable->tupdesc, column);

	if (fnum <= 0)
		elog(ERROR, "no column \"%s\" in the report's query", column);
	return SPI_getvalue(r->tuptable->vals[r->row], r->tuptable->tupdesc, fnum);
}

/*
 * A column's value as text, or NULL when it is NULL or when the installed
 * version of the extension does not have that column yet.
 */
static char *
pb_text_opt(PbRow *r, const char *column)
{
	if (SPI_fnumber(r->tuptable->tupdesc, column) <= 0)
		return NULL;
	return pb_text(r, column);
}

/* A number column, 0 when NULL. */
static double
pb_num(PbRow *r, const char *column)
{
	char	   *v = pb_text(r, column);

	return v ? strtod(v, NULL) : 0;
}

/* An integer column, 0 when NULL. */
static int64
pb_int(PbRow *r, const char *column)
{
	char	   *v = pb_text(r, column);

	return v ? strtoi64(v, NULL, 10) : 0;
}

/* The extension's schema, which the report's queries name as @extschema@ */
static const char *pb_report_schema;

/*
 * Run a query of the report with the run's id, under the pinned
 * search_path; returns its rows.
 */
static SPITupleTable *
pb_query(const char *sql, int64 run_id, uint64 *nrows)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(run_id)};

	if (SPI_execute_with_args(pb_sql_in_schema(sql, pb_report_schema), 1, types,
							  values, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read run " INT64_FORMAT, run_id);
	*nrows = SPI_processed;
	return SPI_tuptable;
}

/* The description pgbench gives a script of that name. */
static const char *
pb_script_desc(const char *name)
{
	for (int i = 0; i < pb_builtin_count(); i++)
		if (strcmp(pb_builtin_name(i), name) == 0)
			return pb_builtin_desc(i);
	return name;
}

/*
 * pb_report_pgbench
 *		pgbench 15's printResults(), with polarbench's own figures after it
 *		and the per-statement latencies of -r.
 */
static void
pb_report_pgbench(StringInfo out, PbRow *run, int64 run_id)
{
	int64		done = pb_int(run, "transactions");
	int64		failed = pb_int(run, "failed");
	char	   *v;
	int64		skipped = (v = pb_text_opt(run, "skipped")) ? strtoi64(v, NULL, 10) : 0;
	int64		total = done + failed + skipped;
	int			max_tries = (v = pb_text_opt(run, "max_tries")) ? atoi(v) : 1;
	double		rate = (v = pb_text_opt(run, "rate")) ? strtod(v, NULL) : 0;
	double		latency_limit = (v = pb_text_opt(run, "latency_limit")) ? strtod(v, NULL) : 0;
	int			clients = (int) pb_int(run, "clients");
	char	   *workload = pb_text(run, "workload");
	char	   *scale = pb_text(run, "scale");
	char	   *limit = pb_text(run, "transactions_limit");
	SPITupleTable *st;
	uint64		nst;
	int			nscripts = (int) pb_int(run, "nscripts");
	bool		latency = done > 0;

	appendStringInfo(out, "transaction type: %s\n",
					 nscripts <= 1 ? pb_script_desc(workload) : "multiple scripts");
	appendStringInfo(out, "scaling factor: %s\n", scale ? scale : "1");
	appendStringInfoString(out, "query mode: prepared\n");
	appendStringInfo(out, "number of clients: %d\n", clients);
	appendStringInfo(out, "number of threads: %d (one server worker per client)\n", clients);
	if (max_tries != 0)
		appendStringInfo(out, "maximum number of tries: %d\n", max_tries);
	if (limit == NULL)
	{
		appendStringInfo(out, "duration: %s s\n", pb_text(run, "duration") ? pb_text(run, "duration") : "0");
		appendStringInfo(out, "number of transactions actually processed: " INT64_FORMAT "\n", done);
	}
	else
	{
		appendStringInfo(out, "number of transactions per client: %s\n", limit);
		appendStringInfo(out, "number of transactions actually processed: " INT64_FORMAT "/" INT64_FORMAT "\n",
						 done, strtoi64(limit, NULL, 10) * clients);
	}
	appendStringInfo(out, "number of failed transactions: " INT64_FORMAT " (%.3f%%)\n",
					 failed, total > 0 ? 100.0 * failed / total : 0.0);
	if (failed > 0 && pb_text_opt(run, "failed_serialization") != NULL)
	{
		int64		serialization = pb_int(run, "failed_serialization");
		int64		deadlock = pb_int(run, "failed_deadlock");

		appendStringInfo(out, "number of serialization failures: " INT64_FORMAT " (%.3f%%)\n",
						 serialization, 100.0 * serialization / total);
		appendStringInfo(out, "number of deadlock failures: " INT64_FORMAT " (%.3f%%)\n",
						 deadlock, 100.0 * deadlock / total);
	}
	if (max_tries != 1)
	{
		int64		retried = pb_int(run, "retried");

		appendStringInfo(out, "number of transactions retried: " INT64_FORMAT " (%.3f%%)\n",
						 retried, total > 0 ? 100.0 * retried / total : 0.0);
		appendStringInfo(out, "total number of retries: " INT64_FORMAT "\n",
						 pb_int(run, "retries"));
	}
	if (rate > 0 && latency_limit > 0 && done + skipped > 0)
		appendStringInfo(out, "number of transactions skipped: " INT64_FORMAT " (%.3f%%)\n",
						 skipped, 100.0 * skipped / total);
	if (latency_limit > 0 && done + skipped > 0)
	{
		int64		late = pb_int(run, "late");

		appendStringInfo(out, "number of transactions above the %.1f ms latency limit: " INT64_FORMAT "/" INT64_FORMAT " (%.3f %%)\n",
						 latency_limit, late, done, done > 0 ? 100.0 * late / done : 0.0);
	}
	if (latency)
	{
		appendStringInfo(out, "latency average = %.3f ms\n", pb_num(run, "latency_avg"));
		appendStringInfo(out, "latency stddev = %.3f ms\n", pb_num(run, "latency_stddev"));
	}
	if (latency && rate > 0)
		appendStringInfo(out, "rate limit schedule lag: avg %.3f (max %.3f) ms\n",
						 pb_num(run, "lag_avg"), pb_num(run, "lag_max"));
	appendStringInfo(out, "tps = %f (without initial connection time)\n", pb_num(run, "tps"));
	appendStringInfo(out, "run id: " INT64_FORMAT "\n", run_id);
	appendStringInfo(out, "statements: " INT64_FORMAT " (qps = %f)\n",
					 pb_int(run, "statements"), pb_num(run, "qps"));
	if (latency && pb_text(run, "latency_p50") != NULL)
	{
		if (pb_text_opt(run, "latency_p90") != NULL)
			appendStringInfo(out, "latency percentiles: p50 = %.3f ms, p90 = %.3f ms, p95 = %.3f ms, p99 = %.3f ms, p99.9 = %.3f ms, max = %.3f ms\n",
							 pb_num(run, "latency_p50"), pb_num(run, "latency_p90"),
							 pb_num(run, "latency_p95"), pb_num(run, "latency_p99"),
							 pb_num(run, "latency_p999"), pb_num(run, "latency_max"));
		else
			appendStringInfo(out, "latency percentiles: p50 = %.3f ms, p95 = %.3f ms, p99 = %.3f ms, max = %.3f ms\n",
							 pb_num(run, "latency_p50"), pb_num(run, "latency_p95"),
							 pb_num(run, "latency_p99"), pb_num(run, "latency_max"));
	}

	st = pb_query("SELECT *"
				  "  FROM @extschema@.polarbench_statements WHERE run_id = $1"
				  " ORDER BY script_no, command_no", run_id, &nst);
	for (int s = 1; s <= Max(nscripts, 1); s++)
	{
		PbRow		row = {st, 0};

		if (nscripts > 1)
		{
			int64		weight = 0;
			int64		total_weight = 0;
			char	   *w = pb_text(run, "weight_list");
			char	   *names = pstrdup(workload);
			char	   *name = names;

			for (int i = 1; w != NULL && *w; i++)
			{
				int64		v = strtoi64(w, &w, 10);

				total_weight += v;
				if (i == s)
					weight = v;
				if (*w == ',')
					w++;
			}
			for (int i = 1; i < s && name != NULL; i++)
			{
				name = strchr(name, '+');
				if (name != NULL)
					name++;
			}
			if (name != NULL && strchr(name, '+') != NULL)
				*strchr(name, '+') = '\0';
			appendStringInfo(out, "SQL script %d: %s\n - weight: " INT64_FORMAT " (targets %.1f%% of total)\n",
							 s, name ? pb_script_desc(name) : "?", weight,
							 total_weight > 0 ? 100.0 * weight / total_weight : 0.0);
		}
		appendStringInfo(out, "%sstatement latencies in milliseconds%s:\n",
						 nscripts > 1 ? " - " : "",
						 max_tries == 1 ? " and failures" : ", failures and retries");
		for (uint64 i = 0; i < nst; i++)
		{
			char	   *command;
			size_t		len;

			row.row = i;
			if (pb_int(&row, "script_no") != s)
				continue;
			command = pb_text(&row, "command");
			command = command ? command : "";
			len = strcspn(command, "\n");
			if (max_tries == 1)
				appendStringInfo(out, "   %11.3f  %10s  %.*s\n", pb_num(&row, "latency_avg"),
								 pb_text(&row, "failures"), (int) len, command);
			else
				appendStringInfo(out, "   %11.3f  %10s  %10s  %.*s\n", pb_num(&row, "latency_avg"),
								 pb_text(&row, "failures"), pb_text(&row, "retries"),
								 (int) len, command);
		}
	}
}

/*
 * pb_report_sysbench
 *		sysbench 1.0.20's report after a run (db_report_cumulative() and
 *		sb_report_cumulative()), its percentile read from the run's
 *		histogram.
 */
static void
pb_report_sysbench(StringInfo out, PbRow *run, int64 run_id)
{
	double		seconds = pb_num(run, "seconds");
	int64		reads = pb_int(run, "reads");
	int64		writes = pb_int(run, "writes");
	int64		others = pb_int(run, "others");
	int64		queries = reads + writes + others;
	int64		events = pb_int(run, "transactions");
	int64		errors = pb_int(run, "errors");
	int			pct = (int) pb_int(run, "percentile");
	double		s = seconds > 0 ? seconds : 1;
	double		latency_sum = 0;
	double		events_avg;
	double		time_avg;
	double		events_sd = 0;
	double		time_sd = 0;
	double		pct_latency = 0;
	SPITupleTable *t;
	uint64		n;
	int			nclients;

	appendStringInfoString(out, "SQL statistics:\n");
	appendStringInfoString(out, "    queries performed:\n");
	appendStringInfo(out, "        read:                            " INT64_FORMAT "\n", reads);
	appendStringInfo(out, "        write:                           " INT64_FORMAT "\n", writes);
	appendStringInfo(out, "        other:                           " INT64_FORMAT "\n", others);
	appendStringInfo(out, "        total:                           " INT64_FORMAT "\n", queries);
	appendStringInfo(out, "    transactions:                        %-6" INT64_MODIFIER "d (%.2f per sec.)\n",
					 events, events / s);
	appendStringInfo(out, "    queries:                             %-6" INT64_MODIFIER "d (%.2f per sec.)\n",
					 queries, queries / s);
	appendStringInfo(out, "    ignored errors:                      %-6" INT64_MODIFIER "d (%.2f per sec.)\n",
					 errors, errors / s);
	appendStringInfo(out, "    reconnects:                          %-6d (%.2f per sec.)\n", 0, 0.0);
	appendStringInfoString(out, "\n");
	appendStringInfoString(out, "General statistics:\n");
	appendStringInfo(out, "    total time:                          %.4fs\n", seconds);
	appendStringInfo(out, "    total number of events:              " INT64_FORMAT "\n", events);
	appendStringInfoString(out, "\n");

	/* the latency at the percentile: the first bucket that reaches it */
	t = pb_query("SELECT latency_from, latency_to, transactions,"
				 "       sum(transactions) OVER (ORDER BY latency_from) AS running"
				 "  FROM @extschema@.polarbench_histograms WHERE run_id = $1 ORDER BY latency_from",
				 run_id, &n);
	for (uint64 i = 0; i < n; i++)
	{
		PbRow		row = {t, i};

		if (pb_num(&row, "running") >= ceil(events * pct / 100.0))
		{
			pct_latency = (pb_num(&row, "latency_from") + pb_num(&row, "latency_to")) / 2;
			break;
		}
	}
	pct_latency = Min(pct_latency, pb_num(run, "latency_max"));

	t = pb_query("SELECT transactions, latency_sum FROM @extschema@.polarbench_clients WHERE run_id = $1",
				 run_id, &n);
	nclients = (int) Max(n, 1);
	for (uint64 i = 0; i < n; i++)
	{
		PbRow		row = {t, i};

		latency_sum += pb_num(&row, "latency_sum");
	}
	events_avg = (double) events / nclients;
	time_avg = latency_sum / 1000 / nclients;
	for (uint64 i = 0; i < n; i++)
	{
		PbRow		row = {t, i};
		double		d = events_avg - pb_num(&row, "transactions");

		events_sd += d * d;
		d = time_avg - pb_num(&row, "latency_sum") / 1000;
		time_sd += d * d;
	}
	events_sd = sqrt(events_sd / nclients);
	time_sd = sqrt(time_sd / nclients);

	appendStringInfoString(out, "Latency (ms):\n");
	appendStringInfo(out, "         min: %39.2f\n", pb_num(run, "latency_min"));
	appendStringInfo(out, "         avg: %39.2f\n", pb_num(run, "latency_avg"));
	appendStringInfo(out, "         max: %39.2f\n", pb_num(run, "latency_max"));
	appendStringInfo(out, "        %3dth percentile: %27.2f\n", pct, pct_latency);
	appendStringInfo(out, "         sum: %39.2f\n", latency_sum);
	appendStringInfoString(out, "\n");
	appendStringInfoString(out, "Threads fairness:\n");
	appendStringInfo(out, "    events (avg/stddev):           %.4f/%3.2f\n", events_avg, events_sd);
	appendStringInfo(out, "    execution time (avg/stddev):   %.4f/%3.2f\n", time_avg, time_sd);
}

/* A Java double as Double.toString() would show it, near enough. */
static void
pb_append_java_double(StringInfo out, double v)
{
	char		buf[64];

	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strchr(buf, '.') == NULL && strchr(buf, 'e') == NULL)
		strlcat(buf, ".0", sizeof(buf));
	appendStringInfoString(out, buf);
}

/*
 * pb_report_ycsb
 *		YCSB's final measurements: [OVERALL] then, for each operation that
 *		ran, its count, latencies in microseconds and return codes.
 */
static void
pb_report_ycsb(StringInfo out, PbRow *run, int64 run_id)
{
	SPITupleTable *t;
	uint64		n;

	appendStringInfo(out, "[OVERALL], RunTime(ms), %.0f\n", pb_num(run, "seconds") * 1000);
	appendStringInfoString(out, "[OVERALL], Throughput(ops/sec), ");
	pb_append_java_double(out, pb_num(run, "tps"));
	appendStringInfoString(out, "\n");
	t = pb_query("SELECT operation, operations, errors, latency_avg, latency_min,"
				 "       latency_max, latency_p95, latency_p99"
				 "  FROM @extschema@.polarbench_operations WHERE run_id = $1"
				 " ORDER BY array_position(ARRAY['READ', 'UPDATE', 'INSERT', 'SCAN', 'READ-MODIFY-WRITE'], operation)",
				 run_id, &n);
	for (uint64 i = 0; i < n; i++)
	{
		PbRow		row = {t, i};
		char	   *op = pb_text(&row, "operation");
		int64		ops = pb_int(&row, "operations");
		int64		errors = pb_int(&row, "errors");

		appendStringInfo(out, "[%s], Operations, " INT64_FORMAT "\n", op, ops);
		appendStringInfo(out, "[%s], AverageLatency(us), ", op);
		pb_append_java_double(out, pb_num(&row, "latency_avg") * 1000);
		appendStringInfoString(out, "\n");
		appendStringInfo(out, "[%s], MinLatency(us), %.0f\n", op, floor(pb_num(&row, "latency_min") * 1000));
		appendStringInfo(out, "[%s], MaxLatency(us), %.0f\n", op, ceil(pb_num(&row, "latency_max") * 1000));
		appendStringInfo(out, "[%s], 95thPercentileLatency(us), %.0f\n", op, pb_num(&row, "latency_p95") * 1000);
		appendStringInfo(out, "[%s], 99thPercentileLatency(us), %.0f\n", op, pb_num(&row, "latency_p99") * 1000);
		appendStringInfo(out, "[%s], Return=OK, " INT64_FORMAT "\n", op, ops - errors);
		if (errors > 0)
			appendStringInfo(out, "[%s], Return=ERROR, " INT64_FORMAT "\n", op, errors);
	}
}

/*
 * pb_report_json
 *		Every figure of the run: its row, and those of its statements,
 *		operations, clients, progress, histogram and wait events: the
 *		document polarbench_run_document() returns, and that
 *		polarbench_record() stores.
 */
static void
pb_report_json(StringInfo out, int64 run_id)
{
	SPITupleTable *t;
	uint64		n;
	PbRow		row;

	t = pb_query("SELECT jsonb_pretty(jsonb_build_object("
				 "  'run', (SELECT to_jsonb(r) FROM @extschema@.polarbench_runs r WHERE run_id = $1),"
				 "  'statements', (SELECT coalesce(jsonb_agg(to_jsonb(s) - 'run_id' ORDER BY script_no, command_no), '[]')"
				 "                   FROM @extschema@.polarbench_statements s WHERE run_id = $1),"
				 "  'operations', (SELECT coalesce(jsonb_agg(to_jsonb(o) - 'run_id' ORDER BY operation), '[]')"
				 "                   FROM @extschema@.polarbench_operations o WHERE run_id = $1),"
				 "  'clients', (SELECT coalesce(jsonb_agg(to_jsonb(c) - 'run_id' ORDER BY client), '[]')"
				 "                FROM @extschema@.polarbench_clients c WHERE run_id = $1),"
				 "  'progress', (SELECT coalesce(jsonb_agg(to_jsonb(p) - 'run_id' ORDER BY elapsed), '[]')"
				 "                 FROM @extschema@.polarbench_progress p WHERE run_id = $1),"
				 "  'histogram', (SELECT coalesce(jsonb_agg(to_jsonb(h) - 'run_id' ORDER BY latency_from), '[]')"
				 "                  FROM @extschema@.polarbench_histograms h WHERE run_id = $1),"
				 "  'wait_events', (SELECT coalesce(jsonb_agg(to_jsonb(w) - 'run_id' - 'share' ORDER BY wait_event_type, wait_event), '[]')"
				 "                    FROM @extschema@.polarbench_wait_events w WHERE run_id = $1))) AS report",
				 run_id, &n);
	row.tuptable = t;
	row.row = 0;
	appendStringInfoString(out, pb_text(&row, "report"));
}

/*
 * polarbench_report
 *		SQL entry point: see polarbench_report() in the install script.
 */
Datum
polarbench_report(PG_FUNCTION_ARGS)
{
	int64		run_id;
	const char *style = NULL;
	const PbWorkloadDef *def;
	SPITupleTable *t;
	uint64		n;
	PbRow		run;
	StringInfoData out;
	char	   *status;
	MemoryContext caller_cxt = CurrentMemoryContext;
	text	   *result;
	Oid			schema;
	int			nest;

	pb_journal_recover();

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("run_id must not be null")));
	run_id = PG_GETARG_INT64(0);
	if (!PG_ARGISNULL(1))
		style = text_to_cstring(PG_GETARG_TEXT_PP(1));
	if (style != NULL && strcmp(style, "pgbench") != 0 && strcmp(style, "sysbench") != 0 &&
		strcmp(style, "ycsb") != 0 && strcmp(style, "json") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unrecognized report style \"%s\"", style),
				 errhint("The styles are pgbench, sysbench, ycsb and json.")));

	/*
	 * Every query of the report runs with a search_path of pg_catalog only:
	 * the caller may be a superuser, and the report's functions and
	 * operators must be pg_catalog's, not ones another role planted.
	 */
	(void) pb_extension_owner(&schema);
	pb_report_schema = get_namespace_name(schema);
	nest = pb_pin_search_path();
	SPI_connect();
	t = pb_query("SELECT r.*, r.vars->>'scale' AS scale,"
				 "       coalesce(cardinality(r.weights), 0) AS nscripts,"
				 "       array_to_string(r.weights, ',') AS weight_list,"
				 "       coalesce((r.options->>'percentile')::int, 95) AS percentile"
				 "  FROM @extschema@.polarbench_runs r WHERE run_id = $1", run_id, &n);
	if (n == 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("run " INT64_FORMAT " does not exist", run_id),
				 errhint("The runs are in polarbench_runs.")));
	run.tuptable = t;
	run.row = 0;
	status = pb_text(&run, "status");
	if (strcmp(status, "running") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("run " INT64_FORMAT " has not ended", run_id),
				 errhint("Report on it once polarbench_runs shows it finished.")));
	def = pb_workload_find(pb_text(&run, "workload"));
	if (style == NULL)
		style = def == NULL ? "pgbench" :
			def->kind == PB_KIND_SYSBENCH ? "sysbench" : "ycsb";

	initStringInfo(&out);
	if (strcmp(style, "json") == 0)
		pb_report_json(&out, run_id);
	else if (strcmp(style, "sysbench") == 0)
		pb_report_sysbench(&out, &run, run_id);
	else if (strcmp(style, "ycsb") == 0)
		pb_report_ycsb(&out, &run, run_id);
	else
		pb_report_pgbench(&out, &run, run_id);
	if (strcmp(style, "json") != 0 && strcmp(status, "finished") != 0)
		appendStringInfo(&out, "run " INT64_FORMAT " %s%s%s\n", run_id, status,
						 pb_text(&run, "error_message") ? ": " : "",
						 pb_text(&run, "error_message") ? pb_text(&run, "error_message") : "");
	/* the text outlives SPI's memory, which SPI_finish() frees */
	MemoryContextSwitchTo(caller_cxt);
	result = cstring_to_text_with_len(out.data, out.len);
	SPI_finish();
	pb_unpin_search_path(nest);
	PG_RETURN_TEXT_P(result);
}
