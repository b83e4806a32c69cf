/*-------------------------------------------------------------------------
 *
 * report_query.c
 *	  The queries a report style makes of one run, and reading their rows
 *	  by column name: what every style of polarbench_report() shares.
 *
 * A report's SQL names the run's views as @runs@, @statements@,
 * @operations@, @clients@, @histogram@ and @progress@, with the run's id
 * as $1.  For a stored run they are the extension's views; for a run a hot
 * standby kept in no table, they are read from its document ($2), in the
 * views' row types, so that one report serves both.  The queries run under
 * the caller's pinned search_path (polarbench_report() pins it), with the
 * caller's rights: a report shows no text the caller may not read.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "report_query.h"
#include "safe_sql.h"

/* The run the queries are of: the extension's schema, and a document */
static const char *report_schema;
static const char *report_document;	/* NULL for a stored run */

/* The views a report reads, and their parts in a document */
static const char *const report_views[][2] = {
	{"statements", "polarbench_statements"},
	{"operations", "polarbench_operations"},
	{"clients", "polarbench_clients"},
	{"histogram", "polarbench_histograms"},
	{"progress", "polarbench_progress"},
};

/*
 * pb_report_use_run
 *		Make the queries that follow read the run of the extension in schema:
 *		from the views, or, given its document (JSON text), from that.
 */
void
pb_report_use_run(const char *schema, const char *document)
{
	report_schema = schema;
	report_document = document;
}

/* Replace every marker in sql with what it stands for, into buf. */
static char *
pb_report_expand(const char *sql)
{
	StringInfoData buf;
	char	   *text = pstrdup(sql);

	if (report_document == NULL)
	{
		text = pb_replace(text, "@runs@", "@extschema@.polarbench_runs");
		for (int i = 0; i < lengthof(report_views); i++)
			text = pb_replace(text, psprintf("@%s@", report_views[i][0]),
							  psprintf("@extschema@.%s", report_views[i][1]));
	}
	else
	{
		text = pb_replace(text, "@runs@",
						  "(SELECT * FROM jsonb_populate_record(NULL::@extschema@.polarbench_runs, $2->'run'))");
		for (int i = 0; i < lengthof(report_views); i++)
		{
			initStringInfo(&buf);
			appendStringInfo(&buf,
							 "(SELECT * FROM jsonb_populate_recordset(NULL::@extschema@.%s,"
							 " (SELECT coalesce(jsonb_agg(e || jsonb_build_object('run_id', $1)), '[]')"
							 "    FROM jsonb_array_elements($2->'%s') e)))",
							 report_views[i][1], report_views[i][0]);
			text = pb_replace(text, psprintf("@%s@", report_views[i][0]), buf.data);
		}
	}
	return pb_sql_in_schema(text, report_schema);
}

/*
 * pb_report_query
 *		Run a query of the report with the run's id; returns its rows.
 */
SPITupleTable *
pb_report_query(const char *sql, int64 run_id, uint64 *nrows)
{
	Oid			types[2] = {INT8OID, JSONBOID};
	Datum		values[2];
	char		nulls[2] = {' ', report_document ? ' ' : 'n'};

	values[0] = Int64GetDatum(run_id);
	values[1] = report_document ?
		DirectFunctionCall1(jsonb_in, CStringGetDatum(report_document)) : (Datum) 0;
	if (SPI_execute_with_args(pb_report_expand(sql), 2, types, values, nulls,
							  true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read run " INT64_FORMAT, run_id);
	*nrows = SPI_processed;
	return SPI_tuptable;
}

/* A column's value as text, or NULL. */
char *
pb_row_text(PbRow *r, const char *column)
{
	int			fnum = SPI_fnumber(r->tuptable->tupdesc, column);

	if (fnum <= 0)
		elog(ERROR, "no column \"%s\" in the report's query", column);
	return SPI_getvalue(r->tuptable->vals[r->row], r->tuptable->tupdesc, fnum);
}

/*
 * A column's value as text, or NULL when it is NULL or when the installed
 * version of the extension does not have that column yet.
 */
char *
pb_row_text_opt(PbRow *r, const char *column)
{
	if (SPI_fnumber(r->tuptable->tupdesc, column) <= 0)
		return NULL;
	return pb_row_text(r, column);
}

/*
 * pb_row_texts
 *		A text[] column as strings (a NULL element as NULL); returns how many,
 *		0 when the column is NULL or not there.
 */
int
pb_row_texts(PbRow *r, const char *column, char ***values)
{
	int			fno = SPI_fnumber(r->tuptable->tupdesc, column);
	bool		isnull;
	Datum		d;
	Datum	   *elems;
	bool	   *nulls;
	int			n;

	*values = NULL;
	if (fno <= 0)
		return 0;
	d = SPI_getbinval(r->tuptable->vals[r->row], r->tuptable->tupdesc, fno, &isnull);
	if (isnull)
		return 0;
	deconstruct_array(DatumGetArrayTypeP(d), TEXTOID, -1, false, TYPALIGN_INT,
					  &elems, &nulls, &n);
	*values = palloc0(sizeof(char *) * Max(n, 1));
	for (int i = 0; i < n; i++)
		(*values)[i] = nulls[i] ? NULL : TextDatumGetCString(elems[i]);
	return n;
}

/* A number column, 0 when NULL. */
double
pb_row_num(PbRow *r, const char *column)
{
	char	   *v = pb_row_text(r, column);

	return v ? strtod(v, NULL) : 0;
}

/* An integer column, 0 when NULL. */
int64
pb_row_int(PbRow *r, const char *column)
{
	char	   *v = pb_row_text(r, column);

	return v ? strtoi64(v, NULL, 10) : 0;
}

/*
 * pb_row_int_opt
 *		An integer column, 0 when NULL or when the installed version of the
 *		extension does not have that column yet (a run's cut_off, recorded
 *		since 1.5).
 */
int64
pb_row_int_opt(PbRow *r, const char *column)
{
	char	   *v = pb_row_text_opt(r, column);

	return v ? strtoi64(v, NULL, 10) : 0;
}

/* A Java double as Double.toString() would show it, near enough. */
void
pb_append_java_double(StringInfo out, double v)
{
	char		buf[64];

	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strchr(buf, '.') == NULL && strchr(buf, 'e') == NULL)
		strlcat(buf, ".0", sizeof(buf));
	appendStringInfoString(out, buf);
}
