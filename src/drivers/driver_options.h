/*-------------------------------------------------------------------------
 *
 * driver_options.h
 *	  What the drivers of the other tools' workloads share in the caller:
 *	  a workload's options read through its kind's table, the refusal of
 *	  the arguments only pgbench's scripts take, and a kind's workloads as
 *	  polarbench_workloads lists them (driver_options.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_DRIVER_OPTIONS_H
#define PB_DRIVER_OPTIONS_H

#include "postgres.h"

#include "utils/jsonb.h"

#include "driver.h"

/* driver_options.c */
extern void *pb_options_from_json(const PbKindLibrary *kind,
								  const PbWorkloadDef *def, Jsonb *given,
								  const char *example, bool check);
extern void pb_refuse_script_args(const PbWorkloadArgs *args,
								  const PbRunParams *params,
								  const char *retry_hint);
extern bool pb_library_workload_at(const PbKindLibrary *kind,
								   bool (*writes) (const PbRunConfig *config),
								   int i, PbWorkloadEntry *entry);

#endif							/* PB_DRIVER_OPTIONS_H */
