/*-------------------------------------------------------------------------
 *
 * worker.h
 *	  What every polarbench background worker and the backend that starts
 *	  it share (worker.c): registration, attaching the segment, an error
 *	  handed from worker to starter, one transaction with SPI and a
 *	  snapshot, and the login check for the role workers log in as.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_WORKER_H
#define PB_WORKER_H

#include "nodes/pg_list.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "utils/elog.h"

/* An error a worker hands to the backend that started it */
typedef struct PbSharedError
{
	int			sqlerrcode;		/* 0 while there is none */
	char		message[1024];
	char		detail[1024];
	char		hint[1024];
	char		context[1024];	/* where in the worker, or empty */
} PbSharedError;

extern BackgroundWorkerHandle *pb_worker_register(dsm_segment *seg,
												  const char *function,
												  const char *name,
												  const char *type,
												  int index,
												  BgWorkerStartTime start);
extern dsm_segment *pb_worker_attach(Datum main_arg, const char *what);
extern int	pb_worker_index(void);
extern void pb_shared_error_set(PbSharedError *error, int sqlerrcode,
								const char *message, const char *detail,
								const char *hint, const char *context);
extern void pb_shared_error_copy(PbSharedError *error, const ErrorData *edata);
extern void pb_shared_error_raise(const PbSharedError *error,
								  const char *context);
extern void pb_xact_begin(List *options);
extern void pb_xact_begin_block(List *options);
extern void pb_xact_end_statement(void);
extern void pb_xact_commit(void);
extern void pb_xact_rollback(void);
extern void pb_in_rolled_back_subxact(void (*fn) (void *arg),
									  void (*cleanup) (void *arg), void *arg);
extern void pb_check_role_can_login(const char *detail, const char *hint);

#endif							/* PB_WORKER_H */
