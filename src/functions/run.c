/*-------------------------------------------------------------------------
 *
 * run.c
 *	  polarbench_run(): the run its arguments ask for (run_args.c), and its
 *	  summary as one row, in polarbench_result of whichever version of the
 *	  extension is installed.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

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
 * polarbench_run
 *		SQL entry point: see polarbench_run() in the install script.
 */
Datum
polarbench_run(PG_FUNCTION_ARGS)
{
	PbRunConfig *config;
	PbRunParams params;
	PbRunResult result;

	pb_journal_recover();
	pb_check_called_once(fcinfo, "polarbench_run", "run");

	memset(&params, 0, sizeof(params));
	pb_run_from_args(fcinfo, false, &params, &config, &result);
	PG_RETURN_DATUM(pb_result_row(fcinfo, config, &params, &result));
}

