/*-------------------------------------------------------------------------
 *
 * registry.h
 *	  The registry of the kinds of workload (registry.c): the descriptors
 *	  (PbKind, driver.h) that the kind folders export as pb_kind_<name>,
 *	  in kind_list.h's order: the one place where the server finds a run's
 *	  kind, its driver, and the data sets polarbench_init() loads.  It
 *	  stands above the kind folders, as the list of them.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_REGISTRY_H
#define PB_REGISTRY_H

#include "kind_options.h"

/* a kind's descriptor and driver (driver.h), a data set (load.h) */
struct PbKind;
struct PbDriver;
struct PbDataset;

/* registry.c */
extern int	pb_kind_count(void);
extern const struct PbKind *pb_kind_at(int row);
extern int	pb_kind_find(const char *workload, const PbWorkloadDef **def);
extern const struct PbDriver *pb_driver(int row);
extern const struct PbDriver *pb_driver_for_style(const char *style);
extern int	pb_dataset_count(void);
extern const struct PbDataset *pb_dataset_at(int dataset);
extern int	pb_dataset_find(const char *name);
extern int	pb_dataset_named(const char *name);

#endif							/* PB_REGISTRY_H */
