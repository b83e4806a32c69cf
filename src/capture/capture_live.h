/*-------------------------------------------------------------------------
 *
 * capture_live.h
 *	  A capture of the statements sessions run, taken as they run through
 *	  the executor's and ProcessUtility's hooks (capture_live.c), for the
 *	  SQL entry points polarbench_capture_start() and
 *	  polarbench_capture_stop() of functions/capture.c.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_CAPTURE_LIVE_H
#define PB_CAPTURE_LIVE_H

#include "postgres.h"

#include "pb_capture.h"

/* polarbench.capture_memory, in kilobytes: the shared buffer's size */
extern PGDLLIMPORT int pb_capture_memory;

/* what a capture keeps: the sessions it captures, its bound */
typedef struct PbLiveFilters
{
	Oid			database;		/* InvalidOid: every database */
	Oid			role;			/* InvalidOid: every role */
	const char *application;	/* NULL: every application */
	int64		max_size;		/* bytes of statements kept at most */
} PbLiveFilters;

/* a stopped capture, its statements copied out of the shared buffer */
typedef struct PbLiveCapture PbLiveCapture;

extern void pb_capture_live_init(void);
extern void pb_capture_live_start(Oid captured_by, const PbLiveFilters *filters);
extern PbLiveCapture *pb_capture_live_stop(void);
extern int64 pb_capture_live_store(const PbLiveCapture *live, Oid schema,
								   PbCaptureCounts *counts);

#endif							/* PB_CAPTURE_LIVE_H */
