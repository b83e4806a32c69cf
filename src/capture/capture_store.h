/*-------------------------------------------------------------------------
 *
 * capture_store.h
 *	  The server's side of a capture: storing what the capture library reads
 *	  of a log into the capture tables (capture_store.c), for the SQL entry
 *	  points of functions/capture.c.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_CAPTURE_STORE_H
#define PB_CAPTURE_STORE_H

#include "postgres.h"

#include "pb_capture.h"

typedef struct PbCaptureStore PbCaptureStore;

extern PbCaptureStore *pb_capture_store_begin(Oid schema, Oid captured_by,
											  const char *source,
											  const char *filters_json);
extern int64 pb_capture_store_id(const PbCaptureStore *store);
extern void pb_capture_store_add(PbCaptureStore *store,
								 const PbCaptureStatement *st);
/* the capture's session numbered session_no (1-based), for the store */
typedef const PbCaptureSession *(*PbCaptureSessionFn) (const void *arg,
													   int session_no);

extern void pb_capture_store_finish(PbCaptureStore *store,
									const PbCaptureCounts *counts,
									const char *format,
									PbCaptureSessionFn session,
									const void *session_arg);

#endif							/* PB_CAPTURE_STORE_H */
