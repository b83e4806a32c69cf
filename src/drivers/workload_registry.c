/*-------------------------------------------------------------------------
 *
 * workload_registry.c
 *	  The kinds of workload polarbench runs, one row each: the driver that
 *	  runs it.  A new kind of workload is one driver file, one options
 *	  table in the workload library, and one row here.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "driver.h"

extern const PbDriver pb_script_driver;
extern const PbDriver pb_sysbench_driver;
extern const PbDriver pb_ycsb_driver;
extern const PbDriver pb_tpcc_driver;

/* The registry: the first row runs what no other row claims */
static const PbDriver *const drivers[] = {
	&pb_script_driver,
	&pb_sysbench_driver,
	&pb_ycsb_driver,
	&pb_tpcc_driver,
};

/*
 * pb_driver
 *		The driver of a kind of workload (a PbWorkloadKind).
 */
const PbDriver *
pb_driver(int kind)
{
	for (int i = 0; i < lengthof(drivers); i++)
		if ((int) drivers[i]->kind == kind)
			return drivers[i];
	elog(ERROR, "unknown workload kind %d", kind);
	return NULL;				/* keep compiler quiet */
}

/*
 * pb_driver_for_workload
 *		The driver that runs a workload argument: the one of the workload
 *		library's workload of that name (in *def), or, for any other name or
 *		none, the driver of pgbench's scripts (*def NULL), which takes
 *		built-in script names.
 */
const PbDriver *
pb_driver_for_workload(const char *workload, const PbWorkloadDef **def)
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
		*def = pb_workload_find(name);
	}
	return *def != NULL ? pb_driver((*def)->kind) : drivers[0];
}

/*
 * pb_driver_for_style
 *		The driver whose tool's report style is style, or NULL.
 */
const PbDriver *
pb_driver_for_style(const char *style)
{
	for (int i = 0; i < lengthof(drivers); i++)
		if (strcmp(drivers[i]->report_style, style) == 0)
			return drivers[i];
	return NULL;
}

/* How many kinds of workload there are. */
int
pb_driver_count(void)
{
	return lengthof(drivers);
}

/* The i-th kind's driver. */
const PbDriver *
pb_driver_at(int i)
{
	return drivers[i];
}
