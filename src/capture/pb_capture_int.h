/*-------------------------------------------------------------------------
 *
 * pb_capture_int.h
 *	  What the files of the capture library share and no one else uses:
 *	  a log entry as log_entry.c reads it from the raw log, for
 *	  log_capture.c to make statements of.
 *
 * The files are in layers, each using only those before it: sql_scan.c,
 * sql_shape.c, log_time.c, log_entry.c, log_capture.c.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_CAPTURE_INT_H
#define PB_CAPTURE_INT_H

#include "pb_capture.h"

/* A string field of a log entry, its space kept from one entry to the next */
typedef struct PbLogField
{
	char	   *s;				/* NUL-terminated, "" when the entry has none */
	size_t		len;
	size_t		cap;
} PbLogField;

/* The fields a capture reads of a log entry */
typedef enum PbLogFieldNo
{
	PB_LF_TIME = 0,
	PB_LF_USER,
	PB_LF_DATABASE,
	PB_LF_SESSION,
	PB_LF_SEVERITY,
	PB_LF_SQLSTATE,
	PB_LF_MESSAGE,
	PB_LF_DETAIL,
	PB_LF_CONTEXT,
	PB_LF_STATEMENT,
	PB_LF_APPLICATION,
	PB_LF_COMMAND_TAG,
	PB_LF_COUNT
} PbLogFieldNo;

/*
 * One entry of the log: a message with what goes with it (its DETAIL,
 * CONTEXT and STATEMENT, which stderr writes as lines of their own after
 * it, and csvlog as columns of its record).
 */
typedef struct PbLogEntry
{
	long		line;			/* the physical line it starts on */
	PbLogField	f[PB_LF_COUNT];
} PbLogEntry;

/* The reader of entries from the raw log, fed piece by piece */
typedef struct PbLogReader PbLogReader;

/* Called with each entry read; false stops the reading (with err filled). */
typedef bool (*PbLogEntryFn) (void *arg, PbLogEntry *entry, PbCaptureError *err);

/* log_time.c */
extern void pb_capture_error(PbCaptureError *err, long line, const char *detail,
							 const char *fmt,...) __attribute__((format(printf, 4, 5)));

/* log_entry.c */
extern PbLogReader *pb_log_reader_new(PbLogFormat format, PbLogEntryFn fn,
									  void *arg);
extern bool pb_log_reader_feed(PbLogReader *reader, const char *data,
							   size_t len, PbCaptureError *err);
extern bool pb_log_reader_finish(PbLogReader *reader, bool *incomplete,
								 long *incomplete_line, PbCaptureError *err);
extern PbLogFormat pb_log_reader_format(const PbLogReader *reader);
extern long pb_log_reader_lines(const PbLogReader *reader);
extern void pb_log_reader_free(PbLogReader *reader);
extern bool pb_log_field_set(PbLogField *field, const char *s, size_t len);
extern bool pb_log_field_append(PbLogField *field, const char *s, size_t len);

#endif							/* PB_CAPTURE_INT_H */
