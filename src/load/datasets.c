/*-------------------------------------------------------------------------
 *
 * datasets.c
 *	  The registry of the data sets polarbench_init() loads: one row each,
 *	  pointing at the PbDataset its dataset_*.c file defines.  A data set is
 *	  found by its name, and a load refers to it by its row, which is the
 *	  same in every backend (a parallel load's workers read it from the
 *	  options they are handed).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"

#include "load.h"

extern const PbDataset pb_dataset_pgbench;
extern const PbDataset pb_dataset_sysbench;
extern const PbDataset pb_dataset_ycsb;
extern const PbDataset pb_dataset_tpcc;

static const PbDataset *const datasets[] = {
	&pb_dataset_pgbench,
	&pb_dataset_sysbench,
	&pb_dataset_ycsb,
	&pb_dataset_tpcc,
};

/*
 * pb_loader_dataset
 *		The data set of a registry row.
 */
const PbDataset *
pb_loader_dataset(int dataset)
{
	if (dataset < 0 || dataset >= lengthof(datasets))
		elog(ERROR, "unknown data set %d", dataset);
	return datasets[dataset];
}

/*
 * pb_dataset_find
 *		The registry row of the data set of that name (case aside), or -1.
 */
int
pb_dataset_find(const char *name)
{
	for (int i = 0; i < lengthof(datasets); i++)
		if (pg_strcasecmp(datasets[i]->name, name) == 0)
			return i;
	return -1;
}

/* How many data sets there are. */
int
pb_dataset_count(void)
{
	return lengthof(datasets);
}

/*
 * pb_dataset_names
 *		The data sets' names for a hint: "a", "b" and "c".
 */
char *
pb_dataset_names(void)
{
	StringInfoData out;

	initStringInfo(&out);
	for (int i = 0; i < lengthof(datasets); i++)
		appendStringInfo(&out, "%s\"%s\"",
						 i == 0 ? "" : i == lengthof(datasets) - 1 ? " and " : ", ",
						 datasets[i]->name);
	return out.data;
}

/*
 * pb_dataset_reads
 *		Whether a data set reads an argument of polarbench_init() of its own
 *		(beyond those every data set reads).
 */
bool
pb_dataset_reads(const PbDataset *ds, const char *argument)
{
	for (const PbDatasetOption *o = ds->options; o->argument != NULL; o++)
		if (strcmp(o->argument, argument) == 0)
			return true;
	return false;
}
