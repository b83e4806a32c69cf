/*-------------------------------------------------------------------------
 *
 * report.c
 *	  polarbench_report(run_id, style, options): a finished run as the tool
 *	  its user knows would have printed it at the end, in the style of the
 *	  driver that style names (each workload's driver has its tool's), or
 *	  every figure as JSON.
 *
 * The figures are read from the views, with the caller's rights: a report
 * shows no text the caller may not read in polarbench_runs.  A run a hot
 * standby kept in no table is read from its document, which the session
 * that ran it keeps.  Every query runs with a search_path of pg_catalog
 * only: the caller may be a superuser, and the report's functions and
 * operators must be pg_catalog's, not ones another role planted.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"

#include "report_query.h"
#include "safe_sql.h"
#include "settings_journal.h"
#include "functions.h"

PG_FUNCTION_INFO_V1(polarbench_report);

/*
 * pb_report_json_text
 *		Every figure of a stored run: its row, and those of its statements,
 *		operations, clients, progress, histogram and wait events, and at the
 *		top the workload's own figures (as "tpcc": {...}; none in tables
 *		older than 1.4), pretty:
 *		the document polarbench_run_document() returns, and that
 *		polarbench_record() stores.  Under the pinned search_path.
 */
static char *
pb_report_json_text(int64 run_id)
{
	SPITupleTable *t;
	uint64		n;
	PbRow		row;

	t = pb_report_query("SELECT jsonb_pretty(jsonb_build_object("
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
						"                    FROM @extschema@.polarbench_wait_events w WHERE run_id = $1))"
						"  || coalesce((SELECT to_jsonb(r)->'figures' FROM @extschema@.polarbench_runs r"
						"                WHERE run_id = $1 AND jsonb_typeof(to_jsonb(r)->'figures') = 'object'),"
						"              '{}')) AS report",
						run_id, &n);
	row.tuptable = t;
	row.row = 0;
	return pb_row_text(&row, "report");
}

/*
 * pb_report_options
 *		What polarbench_report()'s options ask: {"statements": true/false,
 *		"failures_detailed": true/false, "environment": true/false}; by
 *		default each statement's figures, the failures by kind when there
 *		are any, and not the environment (*environment).
 */
static void
pb_report_options(Jsonb *jb, PbReportOptions *options, bool *environment)
{
	JsonbValue *v;

	options->statements = true;
	options->failures_detailed = -1;
	*environment = false;
	if (jb == NULL)
		return;
	if (!JB_ROOT_IS_OBJECT(jb))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("options must be a JSON object"),
				 errhint("Pass options as in '{\"statements\": false, \"failures_detailed\": true}'.")));
	{
		JsonbIterator *it = JsonbIteratorInit(&jb->root);
		JsonbValue	key;
		JsonbIteratorToken tok;

		while ((tok = JsonbIteratorNext(&it, &key, true)) != WJB_DONE)
			if (tok == WJB_KEY &&
				!(key.val.string.len == 10 && strncmp(key.val.string.val, "statements", 10) == 0) &&
				!(key.val.string.len == 17 && strncmp(key.val.string.val, "failures_detailed", 17) == 0) &&
				!(key.val.string.len == 11 && strncmp(key.val.string.val, "environment", 11) == 0))
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("unknown report option \"%.*s\"",
								key.val.string.len, key.val.string.val),
						 errhint("The options are \"statements\", \"failures_detailed\" and \"environment\".")));
	}
	if ((v = getKeyJsonValueFromContainer(&jb->root, "statements", 10, NULL)) != NULL)
	{
		if (v->type != jbvBool)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("option \"statements\" must be true or false")));
		options->statements = v->val.boolean;
	}
	if ((v = getKeyJsonValueFromContainer(&jb->root, "failures_detailed", 17, NULL)) != NULL)
	{
		if (v->type != jbvBool)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("option \"failures_detailed\" must be true or false")));
		options->failures_detailed = v->val.boolean ? 1 : 0;
	}
	if ((v = getKeyJsonValueFromContainer(&jb->root, "environment", 11, NULL)) != NULL)
	{
		if (v->type != jbvBool)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("option \"environment\" must be true or false")));
		*environment = v->val.boolean;
	}
}

/*
 * pb_report_environment
 *		Append a stored run's environment, an item a line, as
 *		polarbench_environment_items() words it.  Under the pinned
 *		search_path.
 */
static void
pb_report_environment(StringInfo out, int64 run_id)
{
	SPITupleTable *t;
	uint64		n;
	PbRow		row;

	t = pb_report_query("SELECT i.label, i.value"
						"  FROM @extschema@.polarbench_environment_items($1) i",
						run_id, &n);
	appendStringInfoString(out, "environment:\n");
	row.tuptable = t;
	for (row.row = 0; row.row < n; row.row++)
	{
		const char *value = pb_row_text(&row, "value");

		appendStringInfo(out, "  %s: %s\n", pb_row_text(&row, "label"),
						 value ? value : "unknown");
	}
}

/*
 * pb_report_json
 *		A run's whole document, as text: a stored run's from the views, a
 *		run of this session that a hot standby kept in no table from the
 *		session; read through SPI of its own, under the pinned search_path.
 */
char *
pb_report_json(int64 run_id)
{
	MemoryContext caller_cxt = CurrentMemoryContext;
	Oid			schema;
	int			nest;
	char	   *json;

	if (run_id < 0)
	{
		const char *kept = pb_doc_kept(run_id);

		if (kept == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("unstored run " INT64_FORMAT " is not kept in this session", run_id),
					 errhint("A run on a hot standby is kept only by the session that ran it, for its last %d runs.",
							 PB_KEPT_DOCUMENTS)));
		return pstrdup(kept);
	}
	(void) pb_extension_owner(&schema);
	pb_report_use_run(get_namespace_name(schema), NULL);
	nest = pb_pin_search_path();
	SPI_connect();
	json = pb_report_json_text(run_id);
	/* the text outlives SPI's memory */
	json = MemoryContextStrdup(caller_cxt, json);
	SPI_finish();
	pb_unpin_search_path(nest);
	return json;
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
	const PbDriver *driver = NULL;
	const PbWorkloadDef *def;
	PbReportOptions options;
	const char *document = NULL;
	SPITupleTable *t;
	uint64		n;
	PbRow		run;
	StringInfoData out;
	char	   *status;
	MemoryContext caller_cxt = CurrentMemoryContext;
	text	   *result;
	Oid			schema;
	int			nest;
	bool		environment;

	pb_journal_recover();

	run_id = pb_run_id_arg(fcinfo, 0);
	if (!PG_ARGISNULL(1))
		style = text_to_cstring(PG_GETARG_TEXT_PP(1));
	if (style != NULL && strcmp(style, "json") != 0 &&
		(driver = pb_driver_for_style(style)) == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unrecognized report style \"%s\"", style),
				 errhint("The styles are json and the report_style of each workload in polarbench_workloads.")));
	pb_report_options(PG_NARGS() > 2 && !PG_ARGISNULL(2) ? PG_GETARG_JSONB_P(2) : NULL,
					  &options, &environment);
	if (run_id < 0)
		document = pb_report_json(run_id);

	(void) pb_extension_owner(&schema);
	pb_report_use_run(get_namespace_name(schema), document);
	nest = pb_pin_search_path();
	SPI_connect();
	/* the scale the run read of the tables (runs recorded without it: as given) */
	t = pb_report_query("SELECT r.*, coalesce(to_jsonb(r)->'figures'->>'scale',"
						"                     r.vars->>'scale') AS scale,"
						"       coalesce(cardinality(r.weights), 0) AS nscripts,"
						"       array_to_string(r.weights, ',') AS weight_list"
						"  FROM @runs@ r WHERE run_id = $1", run_id, &n);
	if (n == 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("run " INT64_FORMAT " does not exist", run_id),
				 errhint("The runs are in polarbench_runs.")));
	run.tuptable = t;
	run.row = 0;
	status = pb_row_text(&run, "status");
	if (strcmp(status, "running") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("run " INT64_FORMAT " has not ended", run_id),
				 errhint("Report on it once polarbench_runs shows it finished.")));
	if (style == NULL)
		driver = pb_driver(pb_kind_find(pb_row_text(&run, "workload"), &def));

	initStringInfo(&out);
	if (driver == NULL)
		appendStringInfoString(&out, document ? document : pb_report_json_text(run_id));
	else
		driver->report(&out, &run, run_id, &options);
	if (driver != NULL && strcmp(status, "aborted") == 0)
	{
		/* a client aborted alone and the others went on: pgbench's last words */
		appendStringInfo(&out, "run " INT64_FORMAT " aborted: %s\n", run_id,
						 pb_row_text(&run, "error_message"));
		appendStringInfoString(&out, "Run was aborted; the above results are incomplete.\n");
	}
	else if (driver != NULL && strcmp(status, "finished") != 0)
		appendStringInfo(&out, "run " INT64_FORMAT " %s%s%s\n", run_id, status,
						 pb_row_text(&run, "error_message") ? ": " : "",
						 pb_row_text(&run, "error_message") ? pb_row_text(&run, "error_message") : "");
	if (driver != NULL && environment && run_id > 0)
		pb_report_environment(&out, run_id);
	/* the text outlives SPI's memory, which SPI_finish() frees */
	MemoryContextSwitchTo(caller_cxt);
	result = cstring_to_text_with_len(out.data, out.len);
	SPI_finish();
	pb_unpin_search_path(nest);
	PG_RETURN_TEXT_P(result);
}
