/*-------------------------------------------------------------------------
 *
 * registry.c
 *	  The server's registry of the kinds of workload: one row each, the
 *	  PbKind its folder exports (pb_kind_<name>), in the order of
 *	  kind_list.h, which kind_library.c keeps too.  A run names its kind by
 *	  its row, and a load its data set by its place among the kinds' data
 *	  sets, the same in every process of the server.
 *
 * Adding a kind adds its line to kind_list.h, and so its row here: nothing
 * else of the server names a kind.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "driver.h"
#include "load.h"
#include "registry.h"

#define PB_KIND(name) extern const PbKind pb_kind_##name;
#include "kind_list.h"
#undef PB_KIND

/* The registry: the first row runs what no other row claims */
static const PbKind *const kinds[] = {
#define PB_KIND(name) &pb_kind_##name,
#include "kind_list.h"
#undef PB_KIND
};

/* How many kinds of workload there are. */
int
pb_kind_count(void)
{
	return lengthof(kinds);
}

/*
 * pb_kind_at
 *		The kind of a registry row; the backend-free list has the same
 *		kinds in the same order.
 */
const PbKind *
pb_kind_at(int row)
{
	if (row < 0 || row >= lengthof(kinds))
		elog(ERROR, "unknown kind of workload %d", row);
	Assert(kinds[row]->library == pb_kind_library_at(row));
	return kinds[row];
}

/*
 * pb_driver
 *		The driver of the kind of a registry row.
 */
const PbDriver *
pb_driver(int row)
{
	return pb_kind_at(row)->driver;
}

/*
 * pb_kind_find
 *		The registry row of the kind that runs a workload argument: the
 *		kind that has a workload of that name in its library (in *def), or,
 *		for any other name or none, the first row, pgbench's scripts (*def
 *		NULL), which takes built-in script names.
 */
int
pb_kind_find(const char *workload, const PbWorkloadDef **def)
{
	*def = NULL;
	if (workload != NULL)
	{
		char	   *name = pstrdup(workload);
		char	   *end;

		while (*name == ' ')
			name++;
		for (end = name + strlen(name); end > name && end[-1] == ' ';)
			*--end = '\0';
		for (int i = 0; i < lengthof(kinds); i++)
		{
			*def = pb_kind_workload(kinds[i]->library, name);
			if (*def != NULL)
				return i;
		}
	}
	return 0;
}

/*
 * pb_driver_for_style
 *		The driver whose tool's report style is style, or NULL.
 */
const PbDriver *
pb_driver_for_style(const char *style)
{
	for (int i = 0; i < lengthof(kinds); i++)
		if (strcmp(kinds[i]->driver->report_style, style) == 0)
			return kinds[i]->driver;
	return NULL;
}

/*
 * pb_dataset_at
 *		The data set at that place among the kinds' data sets, kind by kind
 *		in the registry's order.
 */
const PbDataset *
pb_dataset_at(int dataset)
{
	int			n = 0;

	for (int i = 0; i < lengthof(kinds); i++)
		for (const PbDataset *const *ds = kinds[i]->datasets; ds != NULL && *ds != NULL; ds++)
			if (n++ == dataset)
				return *ds;
	elog(ERROR, "unknown data set %d", dataset);
	return NULL;				/* keep compiler quiet */
}

/* How many data sets the kinds have. */
int
pb_dataset_count(void)
{
	int			n = 0;

	for (int i = 0; i < lengthof(kinds); i++)
		for (const PbDataset *const *ds = kinds[i]->datasets; ds != NULL && *ds != NULL; ds++)
			n++;
	return n;
}

/*
 * pb_dataset_find
 *		The place of the data set of that name (case aside), or -1.
 */
int
pb_dataset_find(const char *name)
{
	for (int d = 0; d < pb_dataset_count(); d++)
		if (pg_strcasecmp(pb_dataset_at(d)->name, name) == 0)
			return d;
	return -1;
}

/*
 * pb_dataset_named
 *		The place of the data set of that name (case aside), as the SQL
 *		functions that take a data set's name read it: an error naming it
 *		when there is none.
 */
int
pb_dataset_named(const char *name)
{
	int			dataset = pb_dataset_find(name);

	if (dataset < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown data set \"%s\"", name),
				 errhint("polarbench_datasets lists the data sets.")));
	return dataset;
}
