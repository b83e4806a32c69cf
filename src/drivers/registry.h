/*-------------------------------------------------------------------------
 *
 * registry.h
 *	  The server's descriptor of a kind of workload, PbKind, which each
 *	  kind folder exports as pb_kind_<name>, and the registry that lists
 *	  them (registry.c), in kind_list.h's order: the one place where the
 *	  server finds a run's kind, its driver, and the data sets
 *	  polarbench_init() loads.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_REGISTRY_H
#define PB_REGISTRY_H

#include "kind.h"

/* A kind's driver (driver.h), and a data set polarbench_init() loads (load.h) */
struct PbDriver;
struct PbDataset;

/*
 * The server's descriptor of a kind of workload: what its folder exports
 * to the server, as pb_kind_<name>, and its row in the registry.
 */
typedef struct PbKind
{
	const PbKindLibrary *library;	/* its name, workloads and options */
	const struct PbDriver *driver;
	/* the data sets polarbench_init() loads for it, NULL-terminated */
	const struct PbDataset *const *datasets;
} PbKind;

/* registry.c */
extern int	pb_kind_count(void);
extern const PbKind *pb_kind_at(int row);
extern int	pb_kind_find(const char *workload, const PbWorkloadDef **def);
extern const struct PbDriver *pb_driver(int row);
extern const struct PbDriver *pb_driver_for_style(const char *style);
extern int	pb_dataset_count(void);
extern const struct PbDataset *pb_dataset_at(int dataset);
extern int	pb_dataset_find(const char *name);

#endif							/* PB_REGISTRY_H */
