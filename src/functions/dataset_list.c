/*-------------------------------------------------------------------------
 *
 * dataset_list.c
 *	  polarbench_dataset_list(), behind the polarbench_datasets view: every
 *	  data set polarbench_init() loads, as the registry lists them, and the
 *	  arguments of polarbench_init() each reads of its own, one row per
 *	  argument, with the value taken when it is left out (the view adds
 *	  their types from the function's signature, where they default to
 *	  NULL: left out).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "load.h"
#include "registry.h"
#include "settings_journal.h"

PG_FUNCTION_INFO_V1(polarbench_dataset_list);

/*
 * polarbench_dataset_list
 *		SQL entry point: OUT dataset, description, argument,
 *		argument_description, argument_default; a data set that reads no
 *		argument of its own has one row with a null argument.
 */
Datum
polarbench_dataset_list(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	pb_journal_recover();

	InitMaterializedSRF(fcinfo, 0);
	for (int d = 0; d < pb_dataset_count(); d++)
	{
		const PbDataset *ds = pb_dataset_at(d);
		int			n = 0;

		while (ds->options[n].argument != NULL)
			n++;
		for (int i = 0; i < Max(n, 1); i++)
		{
			Datum		values[5];
			bool		nulls[5] = {0};
			const char *fallback = n > 0 ? pb_init_argument_default(ds->options[i].argument) : NULL;

			values[0] = CStringGetTextDatum(ds->name);
			values[1] = CStringGetTextDatum(ds->description);
			nulls[2] = nulls[3] = (n == 0);
			if (n > 0)
			{
				values[2] = CStringGetTextDatum(ds->options[i].argument);
				values[3] = CStringGetTextDatum(ds->options[i].description);
			}
			nulls[4] = fallback == NULL;
			values[4] = fallback ? CStringGetTextDatum(fallback) : (Datum) 0;
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		}
	}
	return (Datum) 0;
}
