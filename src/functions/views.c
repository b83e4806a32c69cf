/*-------------------------------------------------------------------------
 *
 * views.c
 *	  Functions the result views call, and polarbench_histogram() over one
 *	  of them.
 *
 * polarbench_may_read() says whether the current role may read a run's
 * texts (scripts, variables, error message), as pg_stat_activity shows a
 * query: to the run's role, roles that have its privileges, and
 * pg_read_all_stats.  The views call it for each row, so it costs a
 * catalog cache look-up, and the look for server settings to put back that
 * every polarbench function starts with is one shared-memory read when
 * there is nothing to put back.
 *
 * polarbench_run_status() makes the status a run shows the status it
 * has: a run recorded as running whose recorder is no longer there (it
 * was killed, or the server restarted) will never be recorded as ended,
 * so the view shows it failed at once, whoever reads it, instead of
 * waiting for the next run to repair the row.
 *
 * polarbench_shown_settings() shows a run's parameters as pg_settings
 * shows the server's: the value of a parameter only superusers may see
 * (GUC_SUPERUSER_ONLY, such as archive_command, which may hold a password)
 * is shown only to roles with the privileges of pg_read_all_settings.  A
 * parameter this session does not know (a module's, not loaded here) may
 * be such a one, and is shown to them alone too.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "safe_sql.h"
#include "functions.h"
#include "settings_journal.h"

PG_FUNCTION_INFO_V1(polarbench_run_status);
PG_FUNCTION_INFO_V1(polarbench_shown_settings);
PG_FUNCTION_INFO_V1(polarbench_may_read);
PG_FUNCTION_INFO_V1(polarbench_histogram);

/* What a hidden parameter's value is shown as, as pg_stat_activity says it */
#define PB_HIDDEN_VALUE		"<insufficient privilege>"

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

	pb_journal_recover();

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

/*
 * pb_setting_is_shown
 *		Whether the current role may see the value of parameter name, as
 *		pg_settings would show it: not a superuser-only parameter, nor one
 *		this session does not know, unless the role has the privileges of
 *		pg_read_all_settings (superusers have).
 */
static bool
pb_setting_is_shown(const char *name)
{
	int			flags;

	if (has_privs_of_role(GetUserId(), ROLE_PG_READ_ALL_SETTINGS))
		return true;
	if (GetConfigOption(name, true, false) == NULL)
		return false;
	flags = GetConfigOptionFlags(name, true);
	return (flags & (GUC_SUPERUSER_ONLY | GUC_CUSTOM_PLACEHOLDER)) == 0;
}

/*
 * polarbench_shown_settings(settings jsonb): a run's parameters (an object
 * of name and value) with the values the current role may not see
 * replaced by "<insufficient privilege>"; anything but an object as it is.
 */
Datum
polarbench_shown_settings(PG_FUNCTION_ARGS)
{
	Jsonb	   *in = PG_GETARG_JSONB_P(0);
	JsonbIterator *it;
	JsonbIteratorToken token;
	JsonbValue	v;
	JsonbParseState *state = NULL;
	JsonbValue *result = NULL;
	bool		hide = false;
	bool		changed = false;

	pb_journal_recover();

	if (!JB_ROOT_IS_OBJECT(in))
		PG_RETURN_JSONB_P(in);
	it = JsonbIteratorInit(&in->root);
	while ((token = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		if (token == WJB_KEY)
		{
			char	   *name = pnstrdup(v.val.string.val, v.val.string.len);

			hide = !pb_setting_is_shown(name);
			result = pushJsonbValue(&state, token, &v);
		}
		else if (token == WJB_VALUE && hide)
		{
			JsonbValue	masked;

			masked.type = jbvString;
			masked.val.string.val = PB_HIDDEN_VALUE;
			masked.val.string.len = strlen(PB_HIDDEN_VALUE);
			result = pushJsonbValue(&state, token, &masked);
			changed = true;
		}
		else
			result = pushJsonbValue(&state, token,
									token < WJB_BEGIN_ARRAY ? &v : NULL);
	}
	if (!changed)
		PG_RETURN_JSONB_P(in);
	PG_RETURN_JSONB_P(JsonbValueToJsonb(result));
}

/*
 * polarbench_may_read(run_by oid): whether the current role may read the
 * texts of a run of role run_by: it has the privileges of pg_read_all_stats,
 * or of run_by, a role that exists.
 */
Datum
polarbench_may_read(PG_FUNCTION_ARGS)
{
	Oid			me = GetUserId();
	Oid			run_by;

	pb_journal_recover();

	if (has_privs_of_role(me, ROLE_PG_READ_ALL_STATS))
		PG_RETURN_BOOL(true);
	if (PG_ARGISNULL(0))
		PG_RETURN_BOOL(false);
	run_by = PG_GETARG_OID(0);
	PG_RETURN_BOOL(SearchSysCacheExists1(AUTHOID, ObjectIdGetDatum(run_by)) &&
				   has_privs_of_role(me, run_by));
}

/*
 * polarbench_histogram(run_id bigint, OUT latency_from float8, OUT
 * latency_to float8, OUT transactions bigint): a run's histogram, from the
 * view beside this function, bucket by bucket; read as the caller.
 */
Datum
polarbench_histogram(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			types[1] = {INT8OID};
	Datum		args[1];
	char	   *sql;

	pb_journal_recover();

	InitMaterializedSRF(fcinfo, 0);
	if (PG_ARGISNULL(0))
		return (Datum) 0;
	args[0] = PG_GETARG_DATUM(0);
	sql = pb_sql_in_schema("SELECT h.latency_from, h.latency_to, h.transactions"
						   "  FROM @extschema@.polarbench_histograms h"
						   " WHERE h.run_id OPERATOR(pg_catalog.=) $1"
						   " ORDER BY h.latency_from",
						   get_namespace_name(get_func_namespace(fcinfo->flinfo->fn_oid)));
	SPI_connect();
	if (pb_spi_execute_safe(sql, 1, types, args, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the histogram of run " INT64_FORMAT,
			 PG_GETARG_INT64(0));
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		Datum		values[3];
		bool		nulls[3];

		for (int col = 0; col < 3; col++)
			values[col] = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc,
										col + 1, &nulls[col]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	SPI_finish();
	return (Datum) 0;
}
