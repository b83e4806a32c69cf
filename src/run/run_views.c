/*-------------------------------------------------------------------------
 *
 * run_views.c
 *	  Functions the result views call.
 *
 * polarbench_run_status() makes the status a run shows the status it
 * has: a run recorded as running whose recorder is no longer there (it
 * was killed, or the server restarted) will never be recorded as ended,
 * so the view shows it failed at once, whoever reads it, instead of
 * waiting for the next run to repair the row.
 *
 * calls: run_status.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "run.h"

PG_FUNCTION_INFO_V1(polarbench_run_status);

/*
 * polarbench_run_status(recorded_status text, recorder_pid int, started_at
 * timestamptz, recorded_sqlstate text, recorded_message text, OUT status
 * text, OUT error_sqlstate text, OUT error_message text): a run as it is.
 * A run recorded as running whose recorder is gone is failed, interrupted.
 */
Datum
polarbench_run_status(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[3];
	bool		nulls[3];
	bool		interrupted;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	interrupted = !PG_ARGISNULL(0) && !PG_ARGISNULL(1) && !PG_ARGISNULL(2) &&
		strcmp(text_to_cstring(PG_GETARG_TEXT_PP(0)), "running") == 0 &&
		!pb_recorder_running(PG_GETARG_INT32(1), PG_GETARG_TIMESTAMPTZ(2));
	if (interrupted)
	{
		values[0] = CStringGetTextDatum("failed");
		values[1] = CStringGetTextDatum(unpack_sql_state(PB_INTERRUPTED_SQLSTATE));
		values[2] = CStringGetTextDatum(PB_INTERRUPTED_MESSAGE);
		memset(nulls, 0, sizeof(nulls));
	}
	else
	{
		for (int i = 0; i < 3; i++)
		{
			int			arg = (i == 0) ? 0 : i + 2;

			nulls[i] = PG_ARGISNULL(arg);
			values[i] = nulls[i] ? (Datum) 0 : PG_GETARG_DATUM(arg);
		}
	}
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc),
													  values, nulls)));
}
