/*-------------------------------------------------------------------------
 *
 * document.c
 *	  Runs on a hot standby, which can write no table: the recorder puts
 *	  the rows it would have written into one JSON document instead, the
 *	  shape of polarbench_report(run_id, 'json'): the run, its progress,
 *	  statements, operations, clients, histogram and wait events.  It hands
 *	  the document to the launcher in a DSM segment of its own, pinned until
 *	  the launcher takes it; the session that ran the run keeps the last
 *	  documents, for polarbench_run_document() (nodes.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/dsm.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/fmgrprotos.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "engine.h"


/* The recorder's document as it grows */
typedef struct PbDocument
{
	List	   *run_names;		/* the run's columns, in order of first write */
	List	   *run_values;		/* their JSON texts */
	StringInfoData parts[PB_DOC_PARTS];	/* each table's rows, comma separated */
	int			counts[PB_DOC_PARTS];
} PbDocument;

/* The result tables of a run's rows, and the document keys they go under */
const char *const pb_doc_tables[PB_DOC_PARTS][2] = {
	{"polarbench_progress_data", "progress"},
	{"polarbench_statement_data", "statements"},
	{"polarbench_operation_data", "operations"},
	{"polarbench_client_data", "clients"},
	{"polarbench_histogram_data", "histogram"},
	{"polarbench_wait_event_data", "wait_events"},
};

static PbDocument *pb_doc = NULL;

/* An unstored run's document, kept by the session that ran it */
typedef struct PbKeptDocument
{
	int64		run_id;
	char	   *json;
} PbKeptDocument;

static PbKeptDocument pb_kept[PB_KEPT_DOCUMENTS];
static int	pb_kept_next = 0;

/*
 * pb_datum_json
 *		Append a value as JSON, as to_jsonb() writes it: numbers and
 *		booleans as themselves (NaN and infinities, which JSON lacks, as
 *		strings), timestamps in ISO 8601, jsonb as it is, arrays with
 *		array_to_json, anything else as a string of its text.
 */
static void
pb_datum_json(StringInfo out, const char *name, Oid type, Datum value, bool isnull)
{
	Oid			typoutput;
	bool		varlena;

	if (isnull)
	{
		appendStringInfoString(out, "null");
		return;
	}
	switch (type)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
			getTypeOutputInfo(type, &typoutput, &varlena);
			appendStringInfoString(out, OidOutputFunctionCall(typoutput, value));
			return;
		case OIDOID:
			/* a role, as polarbench_runs names it */
			if (strcmp(name, "run_by") == 0)
			{
				char	   *role = GetUserNameFromId(DatumGetObjectId(value), true);

				escape_json(out, role ? role : "");
				return;
			}
			appendStringInfo(out, "%u", DatumGetObjectId(value));
			return;
		case FLOAT8OID:
			/* as to_jsonb() has them, and float8in reads them back */
			if (isnan(DatumGetFloat8(value)) || isinf(DatumGetFloat8(value)))
				escape_json(out, float8out_internal(DatumGetFloat8(value)));
			else
				appendStringInfoString(out, float8out_internal(DatumGetFloat8(value)));
			return;
		case TIMESTAMPTZOID:
			/* ISO 8601 whatever the DateStyle, as to_jsonb() has it */
			appendStringInfo(out, "\"%s\"", JsonEncodeDateTime(NULL, value, TIMESTAMPTZOID, NULL));
			return;
		case BOOLOID:
			appendStringInfoString(out, DatumGetBool(value) ? "true" : "false");
			return;
		case JSONBOID:
			appendStringInfoString(out, JsonbToCString(NULL, &DatumGetJsonbP(value)->root,
													   VARSIZE(DatumGetPointer(value))));
			return;
		case TEXTARRAYOID:
		case INT4ARRAYOID:
		case INT8ARRAYOID:
			appendStringInfoString(out, TextDatumGetCString(DirectFunctionCall1(array_to_json, value)));
			return;
		default:
			getTypeOutputInfo(type, &typoutput, &varlena);
			escape_json(out, OidOutputFunctionCall(typoutput, value));
	}
}

/*
 * pb_doc_start
 *		Begin the document of an unstored run, in the recorder.
 */
void
pb_doc_start(void)
{
	MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

	pb_doc = palloc0(sizeof(PbDocument));
	for (int i = 0; i < lengthof(pb_doc_tables); i++)
		initStringInfo(&pb_doc->parts[i]);
	MemoryContextSwitchTo(old);
}

/*
 * pb_doc_row
 *		What the recorder would have inserted into table, or (for the run's
 *		own table) inserted or updated: a row of the document.  The run_id
 *		column is left out of the rows, as the JSON report leaves it out.
 */
void
pb_doc_row(const char *table, int n, const char *const *names, const Oid *types,
		   const Datum *values, const char *nulls)
{
	/*
	 * The document lives in TopMemoryContext; what making its text takes
	 * (output functions) in the caller's, freed with its transaction.  A
	 * StringInfo grows in the context it was made in.
	 */
	if (strcmp(table, "polarbench_run_data") == 0)
	{
		for (int i = 0; i < n; i++)
		{
			StringInfoData v;
			ListCell   *ln,
					   *lv;
			bool		found = false;
			char	   *json;

			initStringInfo(&v);
			pb_datum_json(&v, names[i], types[i], values[i], nulls[i] == 'n');
			json = MemoryContextStrdup(TopMemoryContext, v.data);
			pfree(v.data);
			forboth(ln, pb_doc->run_names, lv, pb_doc->run_values)
				if (strcmp(lfirst(ln), names[i]) == 0)
			{
				pfree(lfirst(lv));
				lfirst(lv) = json;
				found = true;
			}
			if (!found)
			{
				MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

				pb_doc->run_names = lappend(pb_doc->run_names, pstrdup(names[i]));
				pb_doc->run_values = lappend(pb_doc->run_values, json);
				MemoryContextSwitchTo(old);
			}
		}
		return;
	}
	for (int t = 0; t < lengthof(pb_doc_tables); t++)
	{
		StringInfo	out = &pb_doc->parts[t];
		bool		first = true;

		if (strcmp(table, pb_doc_tables[t][0]) != 0)
			continue;
		appendStringInfoString(out, pb_doc->counts[t]++ > 0 ? ", {" : "{");
		for (int i = 0; i < n; i++)
		{
			if (strcmp(names[i], "run_id") == 0)
				continue;
			appendStringInfoString(out, first ? "" : ", ");
			first = false;
			escape_json(out, names[i]);
			appendStringInfoString(out, ": ");
			pb_datum_json(out, names[i], types[i], values[i], nulls[i] == 'n');
		}
		appendStringInfoChar(out, '}');
	}
}

/*
 * pb_doc_publish
 *		Put the finished document, with the run's id, into a DSM segment
 *		that outlives the recorder until the launcher takes it; returns its
 *		handle.
 */
dsm_handle
pb_doc_publish(int64 run_id)
{
	StringInfoData json;
	dsm_segment *seg;
	dsm_handle	handle;
	ListCell   *ln,
			   *lv;

	initStringInfo(&json);
	appendStringInfo(&json, "{\"run\": {\"run_id\": " INT64_FORMAT, run_id);
	forboth(ln, pb_doc->run_names, lv, pb_doc->run_values)
	{
		appendStringInfoString(&json, ", ");
		escape_json(&json, lfirst(ln));
		appendStringInfo(&json, ": %s", (char *) lfirst(lv));
	}
	appendStringInfoChar(&json, '}');
	for (int t = 0; t < lengthof(pb_doc_tables); t++)
		appendStringInfo(&json, ", \"%s\": [%s]", pb_doc_tables[t][1], pb_doc->parts[t].data);
	appendStringInfoChar(&json, '}');

	seg = dsm_create(json.len + 1, 0);
	memcpy(dsm_segment_address(seg), json.data, json.len + 1);
	dsm_pin_segment(seg);
	handle = dsm_segment_handle(seg);
	dsm_detach(seg);
	return handle;
}

/*
 * pb_doc_take
 *		In the launcher, after the recorder is gone: keep the document of
 *		unstored run run_id in the session, and free its segment.
 */
void
pb_doc_take(dsm_handle handle, int64 run_id)
{
	dsm_segment *seg = dsm_attach(handle);
	PbKeptDocument *kept = &pb_kept[pb_kept_next];
	char	   *json = NULL;

	/* attached first: the segment is then freed, whatever happens, on detach */
	dsm_unpin_segment(handle);
	if (seg == NULL)
		elog(ERROR, "could not map the document of run " INT64_FORMAT, run_id);
	PG_TRY();
	{
		json = MemoryContextStrdup(TopMemoryContext, dsm_segment_address(seg));
	}
	PG_FINALLY();
	{
		dsm_detach(seg);
	}
	PG_END_TRY();
	if (kept->json != NULL)
		pfree(kept->json);
	kept->run_id = run_id;
	kept->json = json;
	pb_kept_next = (pb_kept_next + 1) % PB_KEPT_DOCUMENTS;
}

/*
 * pb_doc_discard
 *		Free a document the launcher will not take (the run failed before
 *		its end was recorded).
 */
void
pb_doc_discard(dsm_handle handle)
{
	dsm_unpin_segment(handle);
}

/*
 * pb_doc_kept
 *		The document the session keeps of unstored run run_id, or NULL.
 */
const char *
pb_doc_kept(int64 run_id)
{
	for (int i = 0; i < PB_KEPT_DOCUMENTS; i++)
		if (pb_kept[i].json != NULL && pb_kept[i].run_id == run_id)
			return pb_kept[i].json;
	return NULL;
}
