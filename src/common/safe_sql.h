/*-------------------------------------------------------------------------
 *
 * safe_sql.h
 *	  polarbench's own SQL, run so that nothing of the caller's can take
 *	  part in it (safe_sql.c): a search_path of pg_catalog only, and the
 *	  extension's objects named with their schema.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_SAFE_SQL_H
#define PB_SAFE_SQL_H

/* the search_path polarbench's own SQL runs with */
#define PB_SAFE_SEARCH_PATH		"pg_catalog, pg_temp"

extern int	pb_pin_search_path(void);
extern void pb_unpin_search_path(int nest);
extern char *pb_replace(const char *text, const char *from, const char *to);
extern char *pb_sql_in_schema(const char *sql, const char *schema);
extern int	pb_spi_execute_safe(const char *sql, int nargs, Oid *types,
								Datum *values, bool read_only, long count);

#endif							/* PB_SAFE_SQL_H */
