/*-------------------------------------------------------------------------
 *
 * nodes.c
 *	  Runs across a primary and its hot standbys: polarbench_run_document()
 *	  gives a run as one document (a standby's from the session that ran
 *	  it), and polarbench_record(document, node) stores on the primary a run
 *	  that a hot standby could not store, marked with the node it ran on.
 *	  The command-line program calls them for the standbys of a run across
 *	  several nodes.
 *
 * The run is stored as the caller's: its role is the caller, whatever the
 * document says, and it gets a run id of the primary's.  The rows are
 * written as the extension's owner (who alone writes the result tables) in
 * a security-restricted operation with a search_path of pg_catalog, by
 * fixed SQL taking the document as a parameter: only its values, read by
 * the columns' input functions, reach the tables.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xlog.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"

#include "functions.h"
#include "settings_journal.h"

PG_FUNCTION_INFO_V1(polarbench_run_document);
PG_FUNCTION_INFO_V1(polarbench_record);

/* The string at a key of the document's run, or NULL. */
static char *
pb_run_field(Jsonb *doc, const char *key)
{
	JsonbValue *run;
	JsonbValue *value;

	if (!JB_ROOT_IS_OBJECT(doc))
		return NULL;
	run = getKeyJsonValueFromContainer(&doc->root, "run", 3, NULL);
	if (run == NULL || run->type != jbvBinary ||
		!JsonContainerIsObject(run->val.binary.data))
		return NULL;
	value = getKeyJsonValueFromContainer(run->val.binary.data, key, strlen(key), NULL);
	if (value == NULL || value->type != jbvString)
		return NULL;
	return pnstrdup(value->val.string.val, value->val.string.len);
}

/*
 * polarbench_run_document
 *		SQL entry point: the whole of a run as one jsonb document.  An
 *		unstored run (negative id) from the session that ran it; a recorded
 *		one from the views, as polarbench_report(run_id, 'json') gives it.
 */
Datum
polarbench_run_document(PG_FUNCTION_ARGS)
{
	int64		run_id = PG_GETARG_INT64(0);
	pb_journal_recover();

	if (run_id < 0)
	{
		const char *kept = pb_doc_kept(run_id);

		if (kept != NULL)
			PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(kept)));
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("unstored run " INT64_FORMAT " is not kept in this session", run_id),
				 errhint("A run on a hot standby is kept only by the session that ran it, for its last %d runs.",
						 PB_KEPT_DOCUMENTS)));
	}
	PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(pb_report_json(run_id))));
}

/*
 * pb_record_document
 *		Store a run's ended document as a run of the caller with a new id of
 *		this server's, marked with node (or not, when NULL); returns its id.
 *		The document is checked first (record_check.c).
 */
int64
pb_record_document(Jsonb *doc, const char *node)
{
	PbRecordPlace place = {0};

	return pb_record_document_at(doc, node, &place);
}

/*
 * pb_record_document_at
 *		pb_record_document() at the place given: in the row of run
 *		place->replace_id (its rows of before gone with it) or a new one,
 *		with the place's sweep, recorder and segment.  A running document
 *		(polarbench's own, of a run across a cluster that goes on) is not
 *		checked: only an ended run has every figure a run records.
 */
int64
pb_record_document_at(Jsonb *doc, const char *node, const PbRecordPlace *place)
{
	Oid			schema;
	Oid			owner;
	const char *nsp;
	Oid			save_user;
	int			save_sec;
	int			nest;
	int64		run_id;
	bool		isnull;
	Oid			types[10] = {JSONBOID, TEXTOID, OIDOID, INT8OID, INT4OID, INT8OID,
	INT8OID, INT4OID, INT4OID, INT4OID};
	Datum		values[10];
	char		nulls[10] = {' ', node == NULL ? 'n' : ' ', ' ', ' ',
		place->recorder_pid == 0 ? 'n' : ' ', place->segment == 0 ? 'n' : ' ',
		place->sweep_id == 0 ? 'n' : ' ', place->sweep_id == 0 ? 'n' : ' ',
	place->sweep_id == 0 ? 'n' : ' ', place->sweep_id == 0 ? 'n' : ' '};

	owner = pb_extension_owner(&schema);
	nsp = quote_identifier(get_namespace_name(schema));
	/* the caller's, before acting as the owner */
	values[2] = ObjectIdGetDatum(GetUserId());

	SPI_connect();
	nest = pb_as_owner_begin(owner, &save_user, &save_sec);
	if (!place->running)
		pb_record_check(doc, nsp);
	if (place->replace_id != 0)
	{
		Oid			idtype[1] = {INT8OID};
		Datum		id[1] = {Int64GetDatum(place->replace_id)};

		/* its statements, progress and histogram of before go with it */
		run_id = place->replace_id;
		if (SPI_execute_with_args(psprintf("DELETE FROM %s.polarbench_run_data"
										   " WHERE run_id OPERATOR(pg_catalog.=) $1", nsp),
								  1, idtype, id, NULL, false, 0) != SPI_OK_DELETE ||
			SPI_processed != 1)
			elog(ERROR, "could not replace run " INT64_FORMAT, run_id);
	}
	else
	{
		Oid			seqtype[1] = {TEXTOID};
		Datum		seq[1] = {CStringGetTextDatum(quote_qualified_identifier(get_namespace_name(schema),
																			  "polarbench_run_data_run_id_seq"))};

		if (SPI_execute_with_args("SELECT pg_catalog.nextval($1::pg_catalog.regclass)",
								  1, seqtype, seq, NULL, false, 1) != SPI_OK_SELECT ||
			SPI_processed != 1)
			elog(ERROR, "could not draw a run id");
		run_id = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc,
											 1, &isnull));
	}
	values[0] = JsonbPGetDatum(doc);
	values[1] = node == NULL ? (Datum) 0 : CStringGetTextDatum(node);
	values[3] = Int64GetDatum(run_id);
	values[4] = Int32GetDatum(place->recorder_pid);
	values[5] = Int64GetDatum(place->segment);
	values[6] = Int64GetDatum(place->sweep_id < 0 ? run_id : place->sweep_id);
	values[7] = Int32GetDatum(place->sweep_run);
	values[8] = Int32GetDatum(place->sweep_set);
	values[9] = Int32GetDatum(place->sweep_repeat);

	/* the run: the caller's, at its place */
	if (SPI_execute_with_args(psprintf(
									   "INSERT INTO %s.polarbench_run_data SELECT r.*"
									   "  FROM pg_catalog.jsonb_populate_record(NULL::%s.polarbench_run_data,"
									   "       ($1 OPERATOR(pg_catalog.->) 'run') OPERATOR(pg_catalog.-) 'run_by'"
									   "       OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object("
									   "         'run_id', $4, 'run_by', $3, 'node', $2, 'recorder_pid', $5,"
									   "         'segment', $6, 'sweep_id', $7, 'sweep_run', $8, 'sweep_set', $9,"
									   "         'sweep_repeat', $10)%s) r",
									   nsp, nsp,
									   /* a running run's start: once its recorder ran */
									   place->running ?
									   " OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object('started_at', pg_catalog.clock_timestamp())" : ""),
							  10, types, values, nulls, false, 0) != SPI_OK_INSERT ||
		SPI_processed != 1)
		elog(ERROR, "could not store the run");
	for (int i = 0; i < lengthof(pb_doc_tables); i++)
	{
		Oid			ptypes[2] = {JSONBOID, INT8OID};
		Datum		pvalues[2] = {JsonbPGetDatum(doc), Int64GetDatum(run_id)};

		if (SPI_execute_with_args(psprintf(
										   "INSERT INTO %s.%s SELECT r.*"
										   "  FROM pg_catalog.jsonb_array_elements(coalesce($1 OPERATOR(pg_catalog.->) '%s', '[]')) e,"
										   "       pg_catalog.jsonb_populate_record(NULL::%s.%s,"
										   "         e OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object('run_id', $2)) r",
										   nsp, pb_doc_tables[i][0], pb_doc_tables[i][1],
										   nsp, pb_doc_tables[i][0]),
								  2, ptypes, pvalues, NULL, false, 0) != SPI_OK_INSERT)
			elog(ERROR, "could not store the run's %s", pb_doc_tables[i][1]);
	}
	pb_as_owner_end(nest, save_user, save_sec);
	SPI_finish();
	return run_id;
}

/*
 * polarbench_record
 *		SQL entry point: see polarbench_record() in the install script.
 */
Datum
polarbench_record(PG_FUNCTION_ARGS)
{
	Jsonb	   *doc;
	char	   *node;
	char	   *status;

	pb_journal_recover();

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("document and node must not be null")));
	doc = PG_GETARG_JSONB_P(0);
	node = text_to_cstring(PG_GETARG_TEXT_PP(1));
	if (node[0] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("node must not be empty"),
				 errhint("Name the node the run came from, such as its host and port.")));
	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("cannot store a run on a hot standby"),
				 errhint("Store it on the primary.")));
	status = pb_run_field(doc, "status");
	if (status == NULL || pb_run_field(doc, "workload") == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the document holds no run"),
				 errhint("Pass the document polarbench_run_document() returns.")));
	if (strcmp(status, "finished") != 0 && strcmp(status, "failed") != 0 &&
		strcmp(status, "canceled") != 0 && strcmp(status, "aborted") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the document's run is \"%s\", not ended", status)));

	PG_RETURN_INT64(pb_record_document(doc, node));
}
