/*-------------------------------------------------------------------------
 *
 * safe_sql.c
 *	  Running polarbench's own SQL (reports, lookups, the recorder's
 *	  writes) so that a role that can create objects in a schema on the
 *	  caller's search_path gains nothing from it.
 *
 * Function and operator names are resolved along the search_path, and an
 * exact match of the argument types wins over pg_catalog's polymorphic or
 * coercing candidates even though pg_catalog is searched first:
 * public.cardinality(integer[]) beats pg_catalog.cardinality(anyarray).
 * So polarbench's SQL runs with a search_path of pg_catalog and pg_temp
 * only, as pg_dump runs its own, and names the extension's tables, views and functions with the
 * extension's schema, written @extschema@ in the text as in an extension
 * script.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "safe_sql.h"

/*
 * pb_pin_search_path
 *		Make the search_path pg_catalog and pg_temp until
 *		pb_unpin_search_path(), or the end of the (sub)transaction on an
 *		error.  Returns the GUC nesting level to pop.
 */
int
pb_pin_search_path(void)
{
	int			nest = NewGUCNestLevel();

	(void) set_config_option("search_path", PB_SAFE_SEARCH_PATH, PGC_USERSET,
							 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	return nest;
}

/*
 * pb_unpin_search_path
 *		Put back the search_path pb_pin_search_path() replaced.
 */
void
pb_unpin_search_path(int nest)
{
	AtEOXact_GUC(true, nest);
}

/*
 * pb_replace
 *		The text with every occurrence of from replaced by to; palloc'd.
 */
char *
pb_replace(const char *text, const char *from, const char *to)
{
	StringInfoData buf;
	const char *p = text;
	const char *hit;

	initStringInfo(&buf);
	while ((hit = strstr(p, from)) != NULL)
	{
		appendBinaryStringInfo(&buf, p, hit - p);
		appendStringInfoString(&buf, to);
		p = hit + strlen(from);
	}
	appendStringInfoString(&buf, p);
	return buf.data;
}

/*
 * pb_sql_in_schema
 *		The SQL text with every @extschema@ replaced by schema, quoted as
 *		an identifier; palloc'd.
 */
char *
pb_sql_in_schema(const char *sql, const char *schema)
{
	return pb_replace(sql, "@extschema@", quote_identifier(schema));
}

/*
 * pb_spi_execute_safe
 *		SPI_execute_with_args() of polarbench's own SQL under the pinned
 *		search_path; returns what it returns.  SPI connected.
 */
int
pb_spi_execute_safe(const char *sql, int nargs, Oid *types, Datum *values,
					bool read_only, long count)
{
	int			nest = pb_pin_search_path();
	int			rc;

	rc = SPI_execute_with_args(sql, nargs, types, values, NULL, read_only, count);
	pb_unpin_search_path(nest);
	return rc;
}
