/*-------------------------------------------------------------------------
 *
 * record_check.c
 *	  What a run's document must hold before polarbench_record() stores
 *	  it: every field as a run itself would have recorded it.
 *
 * The document comes from the caller, who may have written it by hand.
 * A field no run would have recorded makes a stored run that misleads or
 * breaks what reads it: an error_sqlstate of 00000 has polarbench_wait()
 * raise an "error" that is success, one of the wrong length makes a
 * failed run look finished, an options.percentile out of range breaks
 * polarbench_report(), a missing scripts or weights would crash the check
 * itself.  So the run's row is read as its table's types (their input
 * functions refuse what is no value of the type), every column the table
 * has NOT NULL must be there, then it is held to a run's rules: its limits
 * as polarbench_run() checks them, from below and from above (those that
 * a setting bounds, at the most any server could allow), its workload's
 * options as that workload reads them, its counts and times never
 * negative, its error only if it did not finish.  The rows of its
 * progress (each interval's histogram pairs of a bucket's lower bound and
 * its count, never negative), statements, operations, clients, histogram
 * and wait events are held to theirs.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/table.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "postmaster/postmaster.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/jsonb.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "pb_measure.h"
#include "settings.h"
#include "functions.h"

/* The error of a field that no run would have recorded; why is a sentence. */
static void
pb_refuse_field(const char *field, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("the document's run has a value of \"%s\" that no run records", field),
			 errdetail("%s", why),
			 errhint("Pass the document polarbench_run_document() returns, as it returns it.")));
}

/* A column of the run's row; *isnull says whether it is null. */
static Datum
pb_field(HeapTuple tuple, TupleDesc desc, const char *name, bool *isnull)
{
	int			fnum = SPI_fnumber(desc, name);

	if (fnum <= 0)
		elog(ERROR, "no column \"%s\" in polarbench_run_data", name);
	return SPI_getbinval(tuple, desc, fnum, isnull);
}

/* An integer column (int4 or int8): null, or from min to max. */
static void
pb_check_int(HeapTuple tuple, TupleDesc desc, const char *name, int64 min,
			 int64 max, bool nullable)
{
	bool		isnull;
	Datum		d = pb_field(tuple, desc, name, &isnull);
	int64		v;

	if (isnull)
	{
		if (!nullable)
			pb_refuse_field(name, "It is null.");
		return;
	}
	v = SPI_gettypeid(desc, SPI_fnumber(desc, name)) == INT4OID ?
		DatumGetInt32(d) : DatumGetInt64(d);
	if (v < min)
		pb_refuse_field(name, psprintf("It is " INT64_FORMAT ", less than " INT64_FORMAT ".",
									   v, min));
	if (v > max)
		pb_refuse_field(name, psprintf("It is " INT64_FORMAT ", more than " INT64_FORMAT ".",
									   v, max));
}

/*
 * A float column: null, NaN (a figure nothing was measured for), or a
 * finite number at least min (more than min when open) and at most max.
 */
static double
pb_check_float(HeapTuple tuple, TupleDesc desc, const char *name, double min,
			   bool open, double max)
{
	bool		isnull;
	Datum		d = pb_field(tuple, desc, name, &isnull);
	double		v;

	if (isnull)
		return NAN;
	v = DatumGetFloat8(d);
	if (isnan(v) || isinf(v) || v < min || (open && v == min) || v > max)
		pb_refuse_field(name, psprintf("It is %g.", v));
	return v;
}

/*
 * pb_valid_error_sqlstate
 *		Whether code is an SQLSTATE a failed or canceled run can have: five
 *		digits or upper-case letters, of no class that means success, a
 *		warning or no data.
 */
static bool
pb_valid_error_sqlstate(const char *code)
{
	if (strlen(code) != 5)
		return false;
	for (int i = 0; i < 5; i++)
		if (!((code[i] >= '0' && code[i] <= '9') || (code[i] >= 'A' && code[i] <= 'Z')))
			return false;
	return strncmp(code, "00", 2) != 0 && strncmp(code, "01", 2) != 0 &&
		strncmp(code, "02", 2) != 0;
}

/* A jsonb column: null, or an object. */
static Jsonb *
pb_check_object(HeapTuple tuple, TupleDesc desc, const char *name)
{
	bool		isnull;
	Datum		d = pb_field(tuple, desc, name, &isnull);
	Jsonb	   *jb;

	if (isnull)
		return NULL;
	jb = DatumGetJsonbP(d);
	if (!JB_ROOT_IS_OBJECT(jb))
		pb_refuse_field(name, "It is not an object.");
	return jb;
}

/*
 * pb_check_not_null
 *		Every column the run table has NOT NULL (but the run's id and role,
 *		which polarbench_record() gives it) is in the document's run, and
 *		not null: jsonb_populate_record() leaves a missing or null field
 *		null, whatever the table says.  nsp is the extension's schema,
 *		quoted.
 */
static void
pb_check_not_null(Jsonb *doc, HeapTuple tuple, TupleDesc desc, const char *nsp)
{
	Oid			relid;
	Relation	rel;
	TupleDesc	table_desc;
	JsonbValue *run;

	relid = DatumGetObjectId(DirectFunctionCall1(regclassin,
												 CStringGetDatum(psprintf("%s.polarbench_run_data", nsp))));
	run = getKeyJsonValueFromContainer(&doc->root, "run", 3, NULL);
	rel = table_open(relid, AccessShareLock);
	table_desc = RelationGetDescr(rel);
	for (int i = 0; i < table_desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(table_desc, i);
		const char *name = NameStr(att->attname);
		bool		isnull;
		bool		missing;

		if (att->attisdropped || !att->attnotnull ||
			strcmp(name, "run_id") == 0 || strcmp(name, "run_by") == 0)
			continue;
		(void) pb_field(tuple, desc, name, &isnull);
		if (!isnull)
			continue;
		missing = run == NULL || run->type != jbvBinary ||
			getKeyJsonValueFromContainer(run->val.binary.data, name,
										 strlen(name), NULL) == NULL;
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("the document's run has no value of \"%s\"", name),
				 errdetail(missing ? "The field is missing; every run records it." :
						   "The field is null; every run records a value."),
				 errhint("Pass the document polarbench_run_document() returns, as it returns it.")));
	}
	table_close(rel, AccessShareLock);
}

/*
 * pb_check_run_row
 *		The run's row (its table's types) held to a run's rules; every
 *		column the table has NOT NULL is known to be there.
 */
static void
pb_check_run_row(HeapTuple tuple, TupleDesc desc)
{
	bool		isnull;
	bool		sqlstate_null;
	bool		message_null;
	char	   *status;
	char	   *workload;
	const PbWorkloadDef *def;
	Jsonb	   *options;
	ArrayType  *scripts;
	ArrayType  *weights;
	int			clients;
	int			nscripts;
	double		duration;
	double		warmup;
	double		rate;
	double		latency_limit;
	Datum		started;
	Datum		ended;
	Datum		d;

	workload = TextDatumGetCString(pb_field(tuple, desc, "workload", &isnull));
	if (workload[0] == '\0')
		pb_refuse_field("workload", "It is empty.");
	status = TextDatumGetCString(pb_field(tuple, desc, "status", &isnull));

	/* its error, only if it did not finish, and one a run can fail with */
	d = pb_field(tuple, desc, "error_sqlstate", &sqlstate_null);
	(void) pb_field(tuple, desc, "error_message", &message_null);
	if (strcmp(status, "finished") == 0)
	{
		if (!sqlstate_null || !message_null)
			pb_refuse_field("error_sqlstate", "A finished run has no error.");
	}
	else
	{
		if (sqlstate_null || message_null)
			pb_refuse_field("error_sqlstate",
							psprintf("%s %s run has an SQLSTATE and a message.",
									 strcmp(status, "aborted") == 0 ? "An" : "A", status));
		if (!pb_valid_error_sqlstate(TextDatumGetCString(d)))
			pb_refuse_field("error_sqlstate",
							psprintf("\"%s\" is not the SQLSTATE of an error: five digits or upper-case letters, of a class other than 00, 01 and 02.",
									 TextDatumGetCString(d)));
	}

	/*
	 * its limits, as polarbench_run() checks them; those a setting bounds,
	 * at the most the setting allows on any server
	 */
	pb_check_int(tuple, desc, "clients", 1, MAX_BACKENDS - 1, false);
	clients = DatumGetInt32(pb_field(tuple, desc, "clients", &isnull));
	pb_check_int(tuple, desc, "transactions_limit", 1, PG_INT64_MAX, true);
	pb_check_int(tuple, desc, "progress_interval", 0, PG_INT32_MAX, false);
	pb_check_int(tuple, desc, "max_tries", 0, PG_INT32_MAX, true);
	duration = pb_check_float(tuple, desc, "duration", 0, true,
							  PB_MAX_RUN_DURATION_LIMIT);
	warmup = pb_check_float(tuple, desc, "warmup", 0, false,
							PB_MAX_RUN_DURATION_LIMIT);
	if (!isnan(warmup) && warmup > 0 && !(warmup < duration))
		pb_refuse_field("warmup", "It is not shorter than the duration.");
	/* since 1.5: the grace after the duration, and what it cut off */
	if (SPI_fnumber(desc, "end_grace") > 0 &&
		!isnan(pb_check_float(tuple, desc, "end_grace", 0, false,
							  PB_MAX_RUN_DURATION_LIMIT)) &&
		isnan(duration))
		pb_refuse_field("end_grace", "A run without a duration has no grace after it.");
	if (SPI_fnumber(desc, "cut_off") > 0)
		pb_check_int(tuple, desc, "cut_off", 0, PG_INT64_MAX, true);
	rate = pb_check_float(tuple, desc, "rate", 0, true, PB_MAX_RATE * clients);
	if (!isnan(rate) && rate < PB_MIN_RATE * clients)
		pb_refuse_field("rate", psprintf("It is %g, less than %g for %d clients.",
										 rate, PB_MIN_RATE * clients, clients));
	latency_limit = pb_check_float(tuple, desc, "latency_limit", 0, true,
								   (double) PB_MAX_RUN_DURATION_LIMIT * 1000);
	if (!isnan(latency_limit) && latency_limit < 0.001)
		pb_refuse_field("latency_limit", psprintf("It is %g, less than 0.001.", latency_limit));
	d = pb_field(tuple, desc, "max_tries", &isnull);
	if (!isnull && DatumGetInt32(d) == 0 && isnan(latency_limit) && isnan(duration))
		pb_refuse_field("max_tries", "Unlimited tries are for a run with a duration or a latency limit.");

	/* its scripts and their weights: one each, none null, not all zero */
	scripts = DatumGetArrayTypeP(pb_field(tuple, desc, "scripts", &isnull));
	weights = DatumGetArrayTypeP(pb_field(tuple, desc, "weights", &isnull));
	if (ARR_NDIM(scripts) > 1 || ARR_NDIM(weights) > 1 ||
		ArrayGetNItems(ARR_NDIM(scripts), ARR_DIMS(scripts)) !=
		ArrayGetNItems(ARR_NDIM(weights), ARR_DIMS(weights)))
		pb_refuse_field("weights", "There is not one for each script.");
	if (array_contains_nulls(scripts))
		pb_refuse_field("scripts", "One of them is null.");
	{
		Datum	   *w;
		bool	   *wnulls;
		int64		total = 0;

		deconstruct_array(weights, INT4OID, sizeof(int32), true, TYPALIGN_INT,
						  &w, &wnulls, &nscripts);
		for (int i = 0; i < nscripts; i++)
		{
			if (wnulls[i] || DatumGetInt32(w[i]) < 0)
				pb_refuse_field("weights", "One of them is null or negative.");
			total += DatumGetInt32(w[i]);
		}
		if (nscripts > 0 && total == 0)
			pb_refuse_field("weights", "They are all zero.");
	}

	/* its workload's options, as that workload reads them */
	options = pb_check_object(tuple, desc, "options");
	(void) pb_kind_library_of(workload, &def);
	if (def != NULL && options == NULL)
		pb_refuse_field("options", psprintf("A run of workload \"%s\" records its options.", workload));
	/* a run of pgbench scripts records those it was given, if any */
	if (options != NULL)
		pb_check_workload_options(workload, options);
	(void) pb_check_object(tuple, desc, "vars");
	(void) pb_check_object(tuple, desc, "settings");
	(void) pb_check_object(tuple, desc, "effective_settings");
	(void) pb_check_object(tuple, desc, "server_settings");
	(void) pb_check_object(tuple, desc, "server_stats");
	/* a table of an older version has no environment */
	if (SPI_fnumber(desc, "environment") > 0)
		(void) pb_check_object(tuple, desc, "environment");

	/*
	 * its figures, those of PB_RUN_FIGURES a run's row holds (a table of an
	 * older version of the extension may lack some): counts and times
	 */
	for (int i = 0; i < pb_figure_count(); i++)
	{
		const PbFigureDef *f = pb_figure_at(i);

		if ((f->flags & PB_FIG_RUN) == 0 || SPI_fnumber(desc, f->name) <= 0)
			continue;
		if (f->count)
			pb_check_int(tuple, desc, f->name, 0, PG_INT64_MAX, true);
		else
			(void) pb_check_float(tuple, desc, f->name, 0, false, get_float8_infinity());
	}
	started = pb_field(tuple, desc, "started_at", &isnull);
	ended = pb_field(tuple, desc, "ended_at", &isnull);
	if (isnull)
		pb_refuse_field("ended_at", "An ended run has an end.");
	if (DatumGetTimestampTz(ended) < DatumGetTimestampTz(started))
		pb_refuse_field("ended_at", "It is before started_at.");
}

/*
 * A figure of time or rate: zero or more, and finite (in SQL, NaN is above
 * every number, infinity too), or null when the column may be.
 */
#define PB_FIGURE(col)			col " >= 0 AND " col " < 'Infinity'"
#define PB_FIGURE_OR_NULL(col)	"coalesce(" col " >= 0 AND " col " < 'Infinity', true)"
#define PB_LATENCY_FIGURES \
	PB_FIGURE_OR_NULL("latency_avg") " AND " PB_FIGURE_OR_NULL("latency_p50") \
	" AND " PB_FIGURE_OR_NULL("latency_p95") " AND " PB_FIGURE_OR_NULL("latency_p99")

/*
 * What the rows of each part of a document must be (%s: the largest
 * latency a histogram bucket holds, in ms)
 */
static const char *const pb_part_rules[PB_DOC_PARTS][2] = {
	{"progress", PB_FIGURE("elapsed") " AND transactions >= 0 AND " PB_FIGURE("tps")
	 " AND " PB_FIGURE("qps") " AND failed >= 0 AND " PB_LATENCY_FIGURES},
	{"statements", "script_no >= 1 AND command_no >= 1 AND executions >= 0 AND failures >= 0"
	 " AND " PB_LATENCY_FIGURES},
	{"operations", "operations >= 0 AND errors >= 0 AND " PB_LATENCY_FIGURES},
	{"clients", "client >= 1 AND transactions >= 0 AND failed >= 0 AND errors >= 0 AND latency_sum >= 0"},
	{"histogram", "latency_from >= 0 AND latency_to > latency_from AND latency_to <= %s"
	 " AND transactions >= 0"},
	{"wait_events", "samples >= 0"},
};

/*
 * What each progress row's latency histogram must be, since 1.4: pairs of
 * a bucket's lower bound in ns, below the end of the last bucket (%s), and
 * its count (a format: %% for %)
 */
#define PB_PROGRESS_HISTOGRAM_RULE \
	"latency_histogram IS NULL OR (coalesce(array_ndims(latency_histogram), 1) = 1" \
	" AND cardinality(latency_histogram) %% 2 = 0 AND 0 <= ALL (latency_histogram)" \
	" AND NOT EXISTS (SELECT FROM unnest(latency_histogram) WITH ORDINALITY h(v, i)" \
	" WHERE i %% 2 = 1 AND v >= %s))"

/*
 * pb_progress_keeps_histograms
 *		Whether the installed version's progress rows keep each interval's
 *		latency histogram (before ALTER EXTENSION UPDATE to 1.4 they do
 *		not, and the rule may not name the column).
 */
static bool
pb_progress_keeps_histograms(const char *nsp)
{
	if (SPI_execute(psprintf("SELECT 1 FROM pg_catalog.pg_attribute"
							 " WHERE attrelid = '%s.polarbench_progress_data'::pg_catalog.regclass"
							 " AND attname = 'latency_histogram' AND NOT attisdropped", nsp),
					true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read the progress table's columns");
	return SPI_processed == 1;
}

/*
 * pb_record_check
 *		Refuse a document whose run, or a row of whose parts, no run would
 *		have recorded.  SPI connected, as the extension's owner, with the
 *		search_path pinned; nsp is the extension's schema, quoted.
 */
void
pb_record_check(Jsonb *doc, const char *nsp)
{
	Oid			types[1] = {JSONBOID};
	Datum		values[1] = {JsonbPGetDatum(doc)};
	uint64_t	last_lower;
	uint64_t	end_ns;

	/* a run's histograms end where the last bucket does */
	pb_hist_bounds(PB_HIST_BUCKETS - 1, &last_lower, &end_ns);

	/* the fields polarbench_record() sets itself are not the document's */
	if (SPI_execute_with_args(psprintf("SELECT r.* FROM jsonb_populate_record(NULL::%s.polarbench_run_data,"
									   " ($1->'run') - '{run_id,run_by,node,recorder_pid,segment,sweep_id,sweep_run,sweep_set,sweep_repeat}'::text[]) r",
									   nsp),
							  1, types, values, NULL, true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not read the document's run");
	pb_check_not_null(doc, SPI_tuptable->vals[0], SPI_tuptable->tupdesc, nsp);
	pb_check_run_row(SPI_tuptable->vals[0], SPI_tuptable->tupdesc);

	for (int i = 0; i < lengthof(pb_doc_tables); i++)
	{
		const char *part = pb_doc_tables[i][1];
		const char *rule = pb_part_rules[i][1];
		bool		isnull;
		int64		bad;

		if (strcmp(part, "histogram") == 0)
			rule = psprintf(rule, psprintf("%.6f", end_ns / 1e6));
		if (strcmp(part, "progress") == 0 && pb_progress_keeps_histograms(nsp))
			rule = psprintf("%s AND (%s)", rule,
							psprintf(PB_PROGRESS_HISTOGRAM_RULE,
									 psprintf(UINT64_FORMAT, (uint64) end_ns)));

		Assert(strcmp(part, pb_part_rules[i][0]) == 0);
		if (SPI_execute_with_args(psprintf("SELECT pg_catalog.jsonb_typeof(coalesce($1->'%s', '[]')) = 'array'",
										   part),
								  1, types, values, NULL, true, 1) != SPI_OK_SELECT ||
			!DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull)))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("the document's %s is not an array", part),
					 errhint("Pass the document polarbench_run_document() returns, as it returns it.")));
		if (SPI_execute_with_args(psprintf("SELECT count(*) FROM jsonb_array_elements(coalesce($1->'%s', '[]')) e,"
										   " jsonb_populate_record(NULL::%s.%s, e) r WHERE NOT coalesce(%s, false)",
										   part, nsp, pb_doc_tables[i][0], rule),
								  1, types, values, NULL, true, 1) != SPI_OK_SELECT)
			elog(ERROR, "could not read the document's %s", part);
		bad = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
		if (bad > 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg_plural("the document's %s has " INT64_FORMAT " row that no run records",
								   "the document's %s has " INT64_FORMAT " rows that no run records",
								   bad, part, bad),
					 errdetail("Each row holds %s.", rule),
					 errhint("Pass the document polarbench_run_document() returns, as it returns it.")));
	}
}
