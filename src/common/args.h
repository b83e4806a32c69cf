/*-------------------------------------------------------------------------
 *
 * args.h
 *	  Checks of the SQL functions' arguments that polarbench_run() and
 *	  polarbench_init() share (args.c), so that both say the same thing
 *	  the same way.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_ARGS_H
#define PB_ARGS_H

#include "utils/jsonb.h"

/* no upper bound, for pb_check_range() */
#define PB_NO_MAXIMUM	PG_INT64_MAX

struct ArrayType;
extern void pb_check_one_dimension(struct ArrayType *array, const char *name);
extern void pb_check_range(const char *name, int64 value, int64 min,
						   int64 max, const char *hint);

/* Called with each name and value (as text) of a JSON object of scalars */
typedef void (*PbJsonPairFn) (const char *name, const char *value, void *arg);

extern void pb_json_scalars(Jsonb *jb, const char *what, const char *item,
							const char *example, PbJsonPairFn fn, void *arg);

#endif							/* PB_ARGS_H */
