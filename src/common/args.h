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

/* no upper bound, for pb_check_range() */
#define PB_NO_MAXIMUM	PG_INT64_MAX

extern void pb_check_range(const char *name, int64 value, int64 min,
						   int64 max, const char *hint);

#endif							/* PB_ARGS_H */
