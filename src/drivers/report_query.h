/*-------------------------------------------------------------------------
 *
 * report_query.h
 *	  What the drivers' reports share: the queries of a run's rows, stored
 *	  or in an unstored run's document, and their values read by column name
 *	  (report_query.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_REPORT_QUERY_H
#define PB_REPORT_QUERY_H

#include "postgres.h"

#include "executor/spi.h"
#include "lib/stringinfo.h"

/* One row of a report's query, read by column name (report_query.c) */
typedef struct PbRow
{
	SPITupleTable *tuptable;
	uint64		row;
} PbRow;

/* report_query.c */
extern void pb_report_use_run(const char *schema, const char *document);
extern SPITupleTable *pb_report_query(const char *sql, int64 run_id,
									  uint64 *nrows);
extern char *pb_row_text(PbRow *r, const char *column);
extern char *pb_row_text_opt(PbRow *r, const char *column);
extern int	pb_row_texts(PbRow *r, const char *column, char ***values);
extern double pb_row_num(PbRow *r, const char *column);
extern int64 pb_row_int(PbRow *r, const char *column);
extern int64 pb_row_int_opt(PbRow *r, const char *column);
extern void pb_append_java_double(StringInfo out, double v);

#endif							/* PB_REPORT_QUERY_H */
