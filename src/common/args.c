/*-------------------------------------------------------------------------
 *
 * args.c
 *	  Checks of the SQL functions' arguments that polarbench_run() and
 *	  polarbench_init() share.
 *
 * calls: nothing of polarbench's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "args.h"

/*
 * pb_check_range
 *		Argument name must be between min and max (max PB_NO_MAXIMUM: at
 *		least min).  hint, when not NULL, says what the argument is for.
 */
void
pb_check_range(const char *name, int64 value, int64 min, int64 max,
			   const char *hint)
{
	if (value >= min && value <= max)
		return;
	if (max == PB_NO_MAXIMUM)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be at least " INT64_FORMAT, name, min),
				 hint ? errhint("%s", hint) : 0));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("%s must be between " INT64_FORMAT " and " INT64_FORMAT,
					name, min, max),
			 hint ? errhint("%s", hint) : 0));
}
