/*-------------------------------------------------------------------------
 *
 * datasets.c
 *	  The data sets polarbench_init() knows, by kind.
 *
 * calls: dataset_pgbench.c, dataset_sysbench.c, dataset_ycsb.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "load.h"

/*
 * The data set behind kind.
 */
const PbDataset *
pb_loader_dataset(PbDatasetKind kind)
{
	switch (kind)
	{
		case PB_DATASET_PGBENCH:
			return &pb_dataset_pgbench;
		case PB_DATASET_SYSBENCH:
			return &pb_dataset_sysbench;
		case PB_DATASET_YCSB:
			return &pb_dataset_ycsb;
	}
	elog(ERROR, "unknown data set %d", (int) kind);
	return NULL;				/* keep compiler quiet */
}
