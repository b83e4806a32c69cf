/*-------------------------------------------------------------------------
 *
 * run.c
 *	  polarbench_run(): the run its arguments ask for (run_args.c), and its
 *	  summary as one row, in polarbench_result of whichever version of the
 *	  extension is installed.  With nodes => 'all', a run across a Citus
 *	  cluster (cluster_run.c), of which each node runs a part here.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "settings.h"
#include "settings_journal.h"
#include "functions.h"

PG_FUNCTION_INFO_V1(polarbench_run);

/*
 * pb_result_column
 *		Set the column of that name of the caller's result row; the result
 *		type of an older version of the extension may not have it.
 */
static void
pb_result_column(TupleDesc tupdesc, Datum *values, bool *nulls,
				 const char *name, Datum value, bool isnull)
{
	for (int i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);

		if (!att->attisdropped && strcmp(NameStr(att->attname), name) == 0)
		{
			values[i] = value;
			nulls[i] = isnull;
			return;
		}
	}
}

/*
 * pb_result_row
 *		The caller's result row: the run's figures (those of
 *		PB_RUN_FIGURES a run's row holds), in polarbench_result of whichever
 *		version of the extension is installed.
 */
static Datum
pb_result_row(FunctionCallInfo fcinfo, const PbRunConfig *config,
			  const PbRunParams *params, const PbRunResult *result)
{
	TupleDesc	tupdesc;
	Datum	   *values;
	bool	   *nulls;
	PbFigureState state;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be polarbench_result");
	tupdesc = BlessTupleDesc(tupdesc);
	values = palloc0(sizeof(Datum) * tupdesc->natts);
	nulls = palloc(sizeof(bool) * tupdesc->natts);
	memset(nulls, true, sizeof(bool) * tupdesc->natts);

	pb_result_column(tupdesc, values, nulls, "run_id", Int64GetDatum(result->run_id), false);
	pb_result_column(tupdesc, values, nulls, "workload",
					 CStringGetTextDatum(config->workload), false);
	pb_result_column(tupdesc, values, nulls, "clients", Int32GetDatum(params->nclients), false);
	pb_figure_state(&state, &result->summary, params->counters_only, params->rate > 0, false);
	pb_figures_row(tupdesc, values, nulls, &result->summary, PB_FIG_RUN, &state);

	return HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls));
}

/*
 * pb_cluster_part_started
 *		A node's part of a run across a Citus cluster has released its
 *		clients: tell the coordinator (cluster_run.c reads this notice) the
 *		part's run id on this node, and how late after the cluster's start
 *		instant its clients were released.
 */
static void
pb_cluster_part_started(int64 run_id, void *arg)
{
	TimestampTz release_at = *(TimestampTz *) arg;

	ereport(NOTICE,
			(errmsg(PB_CLUSTER_PART_NOTICE, run_id,
					(int64) (GetCurrentTimestamp() - release_at))));
}

/*
 * pb_nodes_arg
 *		Whether the run goes on every node of the Citus cluster (nodes =>
 *		'all'); a node's part of such a run cannot.
 */
static bool
pb_nodes_arg(FunctionCallInfo fcinfo)
{
	if (!pb_nodes_all(fcinfo, ARG_NODES))
		return false;
	if (pb_cluster_start[0] != '\0')
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("a node's part of a run across a cluster cannot itself run across the cluster"),
				 errhint("Reset polarbench.cluster_start, which the coordinator of such a run sets.")));
	return true;
}

/*
 * polarbench_run
 *		SQL entry point: see polarbench_run() in the install script.  With
 *		nodes => 'all', the run across the cluster (cluster_run.c); with
 *		polarbench.cluster_start set (by such a run's coordinator), this
 *		node's part of it, or only its check.
 */
Datum
polarbench_run(PG_FUNCTION_ARGS)
{
	PbRunConfig *config;
	PbRunParams params;
	PbRunResult result;
	TimestampTz release_at;

	pb_journal_recover();
	pb_check_called_once(fcinfo, "polarbench_run", "run");

	if (pb_nodes_arg(fcinfo))
		return pb_cluster_run(fcinfo);

	memset(&params, 0, sizeof(params));
	memset(&result, 0, sizeof(result));
	if (strcmp(pb_cluster_start, "check") == 0)
		params.check_only = true;
	else if (pb_cluster_start[0] != '\0')
	{
		release_at = DatumGetTimestampTz(DirectFunctionCall3(timestamptz_in,
															 CStringGetDatum(pb_cluster_start),
															 ObjectIdGetDatum(InvalidOid),
															 Int32GetDatum(-1)));
		params.release_at = (int64) release_at;
		params.on_started = pb_cluster_part_started;
		params.on_started_arg = &release_at;
	}
	pb_run_from_args(fcinfo, false, &params, &config, &result);
	PG_RETURN_DATUM(pb_result_row(fcinfo, config, &params, &result));
}

