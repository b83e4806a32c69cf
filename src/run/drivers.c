/*-------------------------------------------------------------------------
 *
 * drivers.c
 *	  Which driver runs a kind of workload in a client: pgbench scripts,
 *	  sysbench's OLTP workloads or YCSB's.
 *
 * calls: script_driver.c, sysbench_driver.c, ycsb_driver.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "run.h"

/*
 * pb_driver
 *		The driver of a PbWorkloadKind.
 */
const PbDriver *
pb_driver(int kind)
{
	switch ((PbWorkloadKind) kind)
	{
		case PB_KIND_SCRIPTS:
			return &pb_script_driver;
		case PB_KIND_SYSBENCH:
			return &pb_sysbench_driver;
		case PB_KIND_YCSB:
			return &pb_ycsb_driver;
	}
	elog(ERROR, "unknown workload kind %d", kind);
	return NULL;				/* keep compiler quiet */
}
