/*-------------------------------------------------------------------------
 *
 * workload_list.c
 *	  polarbench_workload_list(), behind the polarbench_workloads view:
 *	  every workload polarbench_run() takes by name, as each kind's driver
 *	  lists them, with its options (their types, ranges, defaults and what
 *	  they mean, from its kind's library), whether it writes, and the
 *	  report its tool prints.  The client's --list prints it, and takes
 *	  its option names from it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"

#include "settings_journal.h"
#include "functions.h"

PG_FUNCTION_INFO_V1(polarbench_workload_list);

/*
 * pb_options_json
 *		The options of a workload as a JSON array, one object each: name,
 *		type, default (null when the run computes it), min and max
 *		(numbers), values (enums), description.
 */
static char *
pb_options_json(const PbKindLibrary *kind, const PbWorkloadDef *def)
{
	StringInfoData out;
	PbOptionInfo info;

	initStringInfo(&out);
	appendStringInfoChar(&out, '[');
	for (int i = 0; def != NULL && pb_kind_option_info(kind, def, i, &info); i++)
	{
		if (i > 0)
			appendStringInfoString(&out, ", ");
		appendStringInfoString(&out, "{\"name\": ");
		escape_json(&out, info.name);
		appendStringInfoString(&out, ", \"type\": ");
		escape_json(&out, info.type);
		appendStringInfoString(&out, ", \"default\": ");
		if (info.default_value[0] == '\0')
			appendStringInfoString(&out, "null");
		else if (strcmp(info.type, "enum") == 0)
			escape_json(&out, info.default_value);
		else
			appendStringInfoString(&out, info.default_value);	/* a number or boolean */
		if (info.has_range)
			appendStringInfo(&out, ", \"min\": %.17g, \"max\": %.17g", info.min, info.max);
		if (info.values[0] != '\0')
		{
			char	   *values = pstrdup(info.values);
			char	   *save = NULL;
			bool		first = true;

			appendStringInfoString(&out, ", \"values\": [");
			for (char *v = strtok_r(values, ",", &save); v != NULL; v = strtok_r(NULL, ",", &save))
			{
				if (!first)
					appendStringInfoString(&out, ", ");
				escape_json(&out, v);
				first = false;
			}
			appendStringInfoChar(&out, ']');
		}
		appendStringInfoString(&out, ", \"description\": ");
		escape_json(&out, info.description);
		appendStringInfoChar(&out, '}');
	}
	appendStringInfoChar(&out, ']');
	return out.data;
}

/*
 * polarbench_workload_list
 *		SQL entry point: OUT name, kind, description, writes, report_style,
 *		options, one row per workload, kind by kind in the registry's order.
 */
Datum
polarbench_workload_list(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	pb_journal_recover();

	InitMaterializedSRF(fcinfo, 0);
	for (int k = 0; k < pb_kind_count(); k++)
	{
		const PbKind *kind = pb_kind_at(k);
		const PbDriver *driver = kind->driver;
		PbWorkloadEntry entry;

		for (int i = 0; driver->workload_at(i, &entry); i++)
		{
			Datum		values[6];
			bool		nulls[6] = {0};

			values[0] = CStringGetTextDatum(entry.name);
			values[1] = CStringGetTextDatum(kind->library->name);
			values[2] = CStringGetTextDatum(entry.description);
			values[3] = BoolGetDatum(entry.writes);
			values[4] = CStringGetTextDatum(driver->report_style);
			values[5] = DirectFunctionCall1(jsonb_in,
											CStringGetDatum(pb_options_json(kind->library, entry.def)));
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		}
	}
	return (Datum) 0;
}
