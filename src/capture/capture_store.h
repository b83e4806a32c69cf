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
extern void pb_capture_store_finish(PbCaptureStore *store,
									const PbCapture *capture);

#endif							/* PB_CAPTURE_STORE_H */
