/*-------------------------------------------------------------------------
 *
 * run_entry.c
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
 *		The caller's result row: the run's summary, in polarbench_result of
 *		whichever version of the extension is installed.
 */
static Datum
pb_result_row(FunctionCallInfo fcinfo, const PbRunConfig *config,
			  const PbRunParams *params, const PbRunResult *result)
{
	TupleDesc	tupdesc;
	Datum	   *values;
	bool	   *nulls;
	const PbRunSummary *s = &result->summary;
	bool		none = (s->transactions == 0);
	bool		nopct = none || params->counters_only;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be polarbench_result");
	tupdesc = BlessTupleDesc(tupdesc);
	values = palloc0(sizeof(Datum) * tupdesc->natts);
	nulls = palloc(sizeof(bool) * tupdesc->natts);
	memset(nulls, true, sizeof(bool) * tupdesc->natts);

#define PB_COL(name, datum, isnull) \
	pb_result_column(tupdesc, values, nulls, (name), (datum), (isnull))
	PB_COL("run_id", Int64GetDatum(result->run_id), false);
	PB_COL("workload", CStringGetTextDatum(config->workload), false);
	PB_COL("clients", Int32GetDatum(params->nclients), false);
	PB_COL("seconds", Float8GetDatum(result->seconds), false);
	PB_COL("transactions", Int64GetDatum(s->transactions), false);
	PB_COL("tps", Float8GetDatum(s->tps), false);
	PB_COL("statements", Int64GetDatum(s->statements), false);
	PB_COL("qps", Float8GetDatum(s->qps), false);
	PB_COL("failed", Int64GetDatum(s->failed), false);
	PB_COL("latency_avg", Float8GetDatum(s->latency_avg), none);
	PB_COL("latency_stddev", Float8GetDatum(s->latency_stddev), none);
	PB_COL("latency_min", Float8GetDatum(s->latency_min), none);
	PB_COL("latency_p50", Float8GetDatum(s->latency_p50), nopct);
	PB_COL("latency_p90", Float8GetDatum(s->latency_p90), nopct);
	PB_COL("latency_p95", Float8GetDatum(s->latency_p95), nopct);
	PB_COL("latency_p99", Float8GetDatum(s->latency_p99), nopct);
	PB_COL("latency_p999", Float8GetDatum(s->latency_p999), nopct);
	PB_COL("latency_max", Float8GetDatum(s->latency_max), none);
	PB_COL("reads", Int64GetDatum(s->reads), false);
	PB_COL("writes", Int64GetDatum(s->writes), false);
	PB_COL("others", Int64GetDatum(s->others), false);
	PB_COL("errors", Int64GetDatum(s->errors), false);
	PB_COL("failed_serialization", Int64GetDatum(s->failed_serialization), false);
	PB_COL("failed_deadlock", Int64GetDatum(s->failed_deadlock), false);
	PB_COL("retried", Int64GetDatum(s->retried), false);
	PB_COL("retries", Int64GetDatum(s->retries), false);
	PB_COL("skipped", Int64GetDatum(s->skipped), false);
	PB_COL("late", Int64GetDatum(s->late), false);
	PB_COL("lag_avg", Float8GetDatum(s->lag_avg), none || params->rate == 0);
	PB_COL("lag_max", Float8GetDatum(s->lag_max), none || params->rate == 0);
	PB_COL("cut_off", Int64GetDatum(s->cut_off), false);
#undef PB_COL

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

