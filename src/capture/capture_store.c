/*-------------------------------------------------------------------------
 *
 * capture_store.c
 *	  Storing a capture as the log is read: a row for the capture, its
 *	  statements in chunks, a row per session at the end.
 *
 * A session's statements are kept in chunks of up to PB_CHUNK_STATEMENTS,
 * one row each, the statements' fields in parallel arrays (start times,
 * lines, texts, names, the parameters of all of them one after the other
 * with where each statement's end, durations, SQLSTATEs, errors): a few
 * rows to write per thousand statements, which TOAST compresses, and which
 * a replay reads back a chunk at a time.  Chunks are written as they fill,
 * and all of them once the statements waiting take PB_CHUNK_MEMORY, so
 * that memory holds a bounded part of the log whatever its size.
 *
 * Each statement has a shape (sql_shape.c): its text with its constants
 * made parameters, or, for the extended protocol's statements and the
 * simple ones whose constants cannot be, its text.  The shapes are kept
 * apart, each with how often it ran and the durations the log recorded,
 * and a statement names its own: a replay prepares a plan per shape, and
 * compares its latencies with the log's shape by shape.  Past
 * PB_MAX_SHAPES distinct ones, a statement has none (shape 0) and is
 * replayed from its text.
 *
 * The caller acts as the extension's owner, who alone writes the tables;
 * the statements are fixed SQL, their values parameters.  The log's texts
 * are checked to be valid in the database's encoding before they are
 * stored: a log holds each database's statements in its own encoding.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "capture_store.h"

/* statements in a chunk at most, and the memory the waiting ones may take */
#define PB_CHUNK_STATEMENTS	1000
#define PB_CHUNK_MEMORY		(16 * 1024 * 1024)

/* the distinct shapes a capture keeps at most */
#define PB_MAX_SHAPES		100000

/* the columns of a chunk, in the table's order after its key */
typedef enum ChunkColumn
{
	CC_AT = 0,
	CC_LINES,
	CC_TEXTS,
	CC_NAMES,
	CC_PARAM_ENDS,
	CC_PARAMS,
	CC_PARAM_TYPES,
	CC_DURATIONS,
	CC_SQLSTATES,
	CC_ERRORS,
	CC_SHAPES,
	CC_COUNT
} ChunkColumn;

static const Oid chunk_types[CC_COUNT] = {
	TIMESTAMPTZOID, INT8OID, TEXTOID, TEXTOID, INT4OID, TEXTOID, OIDOID,
	FLOAT8OID, TEXTOID, TEXTOID, INT4OID
};

/* a shape, by its text's hash (colliding ones at the next hashes) */
typedef struct Shape
{
	uint64		hash;			/* the key */
	int			shape_no;
	char	   *text;
	bool		parameterized;	/* its constants are parameters */
	int64		statements;
	int64		errors;
	double	   *durations;		/* the log's, of the statements that have one */
	int			ndurations;
	int			cap;
} Shape;

/* the statements of a session waiting to be written */
typedef struct Chunk
{
	int64		first;			/* the statement number of the first */
	int			n;
	int			nparams;
	Datum	   *values[CC_COUNT];	/* CC_PARAMS: nparams of them */
	bool	   *nulls[CC_COUNT];
	int			cap;
	int			param_cap;
} Chunk;

struct PbCaptureStore
{
	int64		capture_id;
	char	   *nsp;			/* the extension's schema, quoted */
	MemoryContext own_cxt;		/* the store's own, lasting */
	MemoryContext cxt;			/* the chunks' values, reset when all are written */
	MemoryContext write_cxt;	/* a chunk's arrays, reset once it is written */
	Chunk	   *chunks;			/* by session number - 1 */
	int			nchunks;
	Size		waiting;		/* bytes of the statements waiting */
	SPIPlanPtr	insert_chunk;
	HTAB	   *shapes;
	Shape	  **by_no;			/* shapes by number - 1 */
	int			nshapes;
};

/*
 * Start storing a capture by role captured_by of the file source, with
 * the filters given (a JSON object), in the tables of the extension's
 * schema: its row is made, with its id, counts to come.  SPI connected,
 * as the extension's owner.
 */
PbCaptureStore *
pb_capture_store_begin(Oid schema, Oid captured_by, const char *source,
					   const char *filters_json)
{
	PbCaptureStore *store = palloc0(sizeof(PbCaptureStore));
	Oid			types[3] = {OIDOID, TEXTOID, JSONBOID};
	Datum		values[3];
	Oid			chunk_arg_types[CC_COUNT + 3];
	bool		isnull;

	store->nsp = pstrdup(quote_identifier(get_namespace_name(schema)));
	store->own_cxt = CurrentMemoryContext;
	store->cxt = AllocSetContextCreate(CurrentMemoryContext, "polarbench capture chunks",
									   ALLOCSET_DEFAULT_SIZES);
	store->write_cxt = AllocSetContextCreate(CurrentMemoryContext, "polarbench capture chunk",
											 ALLOCSET_DEFAULT_SIZES);
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(uint64);
		ctl.entrysize = sizeof(Shape);
		ctl.hcxt = CurrentMemoryContext;
		store->shapes = hash_create("polarbench capture shapes", 1024, &ctl,
									HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
		store->by_no = palloc(sizeof(Shape *) * 1024);
	}
	values[0] = ObjectIdGetDatum(captured_by);
	values[1] = CStringGetTextDatum(source);
	values[2] = DirectFunctionCall1(jsonb_in, CStringGetDatum(filters_json));
	if (SPI_execute_with_args(psprintf("INSERT INTO %s.polarbench_capture_data"
									   " (captured_by, captured_at, source, format, filters,"
									   "  sessions, statements, errors, skipped, skipped_by, lines)"
									   " VALUES ($1, pg_catalog.now(), $2, 'stderr', $3,"
									   "  0, 0, 0, 0, '{}', 0) RETURNING capture_id",
									   store->nsp),
							  3, types, values, NULL, false, 1) != SPI_OK_INSERT_RETURNING ||
		SPI_processed != 1)
		elog(ERROR, "could not store the capture");
	store->capture_id = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0],
													SPI_tuptable->tupdesc, 1, &isnull));
	chunk_arg_types[0] = INT8OID;
	chunk_arg_types[1] = INT4OID;
	chunk_arg_types[2] = INT8OID;
	for (int i = 0; i < CC_COUNT; i++)
		chunk_arg_types[3 + i] = get_array_type(chunk_types[i]);
	store->insert_chunk = SPI_prepare(psprintf("INSERT INTO %s.polarbench_capture_chunk_data"
											   " (capture_id, session_no, first_statement, at, lines,"
											   "  texts, names, param_ends, params, param_types,"
											   "  durations, sqlstates, errors, shapes)"
											   " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
											   store->nsp),
									  CC_COUNT + 3, chunk_arg_types);
	if (store->insert_chunk == NULL)
		elog(ERROR, "could not prepare the capture's chunks: %s",
			 SPI_result_code_string(SPI_result));
	return store;
}

/* The capture's id. */
int64
pb_capture_store_id(const PbCaptureStore *store)
{
	return store->capture_id;
}

/* Write a session's waiting statements as one chunk, and empty it. */
static void
chunk_write(PbCaptureStore *store, int session_no)
{
	Chunk	   *c = &store->chunks[session_no - 1];
	Datum		values[CC_COUNT + 3];
	int16		typlen;
	bool		typbyval;
	char		typalign;
	MemoryContext old;

	if (c->n == 0)
		return;
	CHECK_FOR_INTERRUPTS();
	old = MemoryContextSwitchTo(store->write_cxt);
	values[0] = Int64GetDatum(store->capture_id);
	values[1] = Int32GetDatum(session_no);
	values[2] = Int64GetDatum(c->first);
	for (int i = 0; i < CC_COUNT; i++)
	{
		int			n = i == CC_PARAMS || i == CC_PARAM_TYPES ? c->nparams : c->n;
		int			dims[1] = {n};
		int			lbs[1] = {1};

		get_typlenbyvalalign(chunk_types[i], &typlen, &typbyval, &typalign);
		values[3 + i] = PointerGetDatum(construct_md_array(c->values[i], c->nulls[i],
														   1, dims, lbs, chunk_types[i],
														   typlen, typbyval, typalign));
	}
	if (SPI_execute_plan(store->insert_chunk, values, NULL, false, 0) != SPI_OK_INSERT)
		elog(ERROR, "could not store a chunk of the capture");
	MemoryContextSwitchTo(old);
	MemoryContextReset(store->write_cxt);
	c->first += c->n;
	c->n = 0;
	c->nparams = 0;
}

/* Write every waiting chunk, and give their memory back. */
static void
chunks_write_all(PbCaptureStore *store)
{
	for (int i = 0; i < store->nchunks; i++)
		chunk_write(store, i + 1);
	for (int i = 0; i < store->nchunks; i++)
	{
		Chunk	   *c = &store->chunks[i];

		memset(c->values, 0, sizeof(c->values));
		memset(c->nulls, 0, sizeof(c->nulls));
		c->cap = c->param_cap = 0;
	}
	MemoryContextReset(store->cxt);
	store->waiting = 0;
}

/* Room in a chunk for one more statement of nparams parameters. */
static void
chunk_room(PbCaptureStore *store, Chunk *c, int nparams)
{
	MemoryContext old = MemoryContextSwitchTo(store->cxt);

	if (c->n == c->cap)
	{
		int			cap = c->cap == 0 ? 16 : Min(c->cap * 2, PB_CHUNK_STATEMENTS);

		for (int i = 0; i < CC_COUNT; i++)
		{
			if (i == CC_PARAMS || i == CC_PARAM_TYPES)
				continue;
			c->values[i] = c->values[i] == NULL ? palloc(cap * sizeof(Datum)) :
				repalloc(c->values[i], cap * sizeof(Datum));
			c->nulls[i] = c->nulls[i] == NULL ? palloc(cap * sizeof(bool)) :
				repalloc(c->nulls[i], cap * sizeof(bool));
		}
		c->cap = cap;
	}
	if (c->nparams + nparams > c->param_cap || c->values[CC_PARAMS] == NULL)
	{
		int			cap = Max(16, Max(c->param_cap * 2, c->nparams + nparams));

		c->values[CC_PARAMS] = c->values[CC_PARAMS] == NULL ? palloc(cap * sizeof(Datum)) :
			repalloc(c->values[CC_PARAMS], cap * sizeof(Datum));
		c->nulls[CC_PARAMS] = c->nulls[CC_PARAMS] == NULL ? palloc(cap * sizeof(bool)) :
			repalloc(c->nulls[CC_PARAMS], cap * sizeof(bool));
		c->values[CC_PARAM_TYPES] = c->values[CC_PARAM_TYPES] == NULL ? palloc(cap * sizeof(Datum)) :
			repalloc(c->values[CC_PARAM_TYPES], cap * sizeof(Datum));
		c->nulls[CC_PARAM_TYPES] = c->nulls[CC_PARAM_TYPES] == NULL ? palloc(cap * sizeof(bool)) :
			repalloc(c->nulls[CC_PARAM_TYPES], cap * sizeof(bool));
		c->param_cap = cap;
	}
	MemoryContextSwitchTo(old);
}

/*
 * A text of the log as a text datum of the database, once it is known to
 * be valid in its encoding.
 */
static Datum
log_text(PbCaptureStore *store, const char *s, long line)
{
	size_t		len = strlen(s);

	if (!pg_verifymbstr(s, len, true))
		ereport(ERROR,
				(errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
				 errmsg("line %ld of the log holds a byte sequence that is not valid in encoding \"%s\"",
						line, GetDatabaseEncodingName()),
				 errhint("A log holds each database's statements in its encoding: capture the statements of a database in that database, with database => its name.")));
	store->waiting += len;
	return PointerGetDatum(cstring_to_text_with_len(s, len));
}

/* FNV-1a of a text */
static uint64
text_hash(const char *s)
{
	uint64		h = UINT64CONST(14695981039346656037);

	for (; *s; s++)
		h = (h ^ (unsigned char) *s) * UINT64CONST(1099511628211);
	return h;
}

/*
 * The number of a statement's shape, made when it is new (0 past
 * PB_MAX_SHAPES); its figures counted.
 */
static int
statement_shape(PbCaptureStore *store, const PbCaptureStatement *st)
{
	PbSqlShape	parsed;
	bool		parameterized = st->name == NULL &&
		pb_sql_shape(st->text, strlen(st->text), &parsed);
	const char *text = parameterized ? parsed.text : st->text;
	uint64		h = text_hash(text);
	Shape	   *shape;
	bool		found;

	for (;;)
	{
		shape = hash_search(store->shapes, &h, HASH_FIND, NULL);
		if (shape == NULL || strcmp(shape->text, text) == 0)
			break;
		h++;
	}
	if (shape == NULL)
	{
		if (store->nshapes >= PB_MAX_SHAPES)
		{
			if (parameterized)
				pb_sql_shape_free(&parsed);
			return 0;
		}
		shape = hash_search(store->shapes, &h, HASH_ENTER, &found);
		shape->shape_no = ++store->nshapes;
		shape->text = MemoryContextStrdup(store->own_cxt, text);
		shape->parameterized = parameterized;
		shape->statements = shape->errors = 0;
		shape->durations = NULL;
		shape->ndurations = shape->cap = 0;
		if (store->nshapes % 1024 == 0)
			store->by_no = repalloc(store->by_no, sizeof(Shape *) * (store->nshapes + 1024));
		store->by_no[shape->shape_no - 1] = shape;
		store->waiting += strlen(text);
	}
	if (parameterized)
		pb_sql_shape_free(&parsed);
	shape->statements++;
	if (st->error != NULL)
		shape->errors++;
	if (st->duration >= 0)
	{
		if (shape->ndurations == shape->cap)
		{
			shape->cap = shape->cap == 0 ? 16 : shape->cap * 2;
			shape->durations = shape->durations == NULL ?
				MemoryContextAlloc(store->own_cxt, shape->cap * sizeof(double)) :
				repalloc(shape->durations, shape->cap * sizeof(double));
		}
		shape->durations[shape->ndurations++] = st->duration;
	}
	return shape->shape_no;
}

/* Add a statement the capture library handed out. */
void
pb_capture_store_add(PbCaptureStore *store, const PbCaptureStatement *st)
{
	Chunk	   *c;
	MemoryContext old;
	int			i;

	if (st->session_no > store->nchunks)
	{
		int			n = Max(st->session_no, store->nchunks * 2);

		store->chunks = store->chunks == NULL ?
			MemoryContextAlloc(store->own_cxt, n * sizeof(Chunk)) :
			repalloc(store->chunks, n * sizeof(Chunk));
		for (int k = store->nchunks; k < n; k++)
		{
			memset(&store->chunks[k], 0, sizeof(Chunk));
			store->chunks[k].first = 1;
		}
		store->nchunks = n;
	}
	c = &store->chunks[st->session_no - 1];
	chunk_room(store, c, st->nparams);
	old = MemoryContextSwitchTo(store->cxt);
	i = c->n;
	c->values[CC_AT][i] = TimestampTzGetDatum((TimestampTz) st->at);
	c->values[CC_LINES][i] = Int64GetDatum((int64) st->line);
	c->values[CC_TEXTS][i] = log_text(store, st->text, st->line);
	c->nulls[CC_NAMES][i] = st->name == NULL;
	c->values[CC_NAMES][i] = st->name == NULL ? (Datum) 0 : log_text(store, st->name, st->line);
	for (int p = 0; p < st->nparams; p++)
	{
		c->nulls[CC_PARAMS][c->nparams] = st->params[p] == NULL;
		c->values[CC_PARAMS][c->nparams] = st->params[p] == NULL ? (Datum) 0 :
			log_text(store, st->params[p], st->line);
		c->nulls[CC_PARAM_TYPES][c->nparams] = st->param_types == NULL;
		c->values[CC_PARAM_TYPES][c->nparams] = st->param_types == NULL ? (Datum) 0 :
			ObjectIdGetDatum((Oid) st->param_types[p]);
		c->nparams++;
	}
	c->values[CC_PARAM_ENDS][i] = Int32GetDatum(c->nparams);
	c->nulls[CC_DURATIONS][i] = st->duration < 0;
	c->values[CC_DURATIONS][i] = Float8GetDatum(st->duration < 0 ? 0 : st->duration);
	c->nulls[CC_SQLSTATES][i] = st->error == NULL || st->sqlstate[0] == '\0';
	c->values[CC_SQLSTATES][i] = c->nulls[CC_SQLSTATES][i] ? (Datum) 0 :
		CStringGetTextDatum(st->sqlstate);
	c->nulls[CC_ERRORS][i] = st->error == NULL;
	c->values[CC_ERRORS][i] = st->error == NULL ? (Datum) 0 : log_text(store, st->error, st->line);
	c->nulls[CC_SHAPES][i] = false;
	c->values[CC_SHAPES][i] = Int32GetDatum(statement_shape(store, st));
	c->nulls[CC_AT][i] = c->nulls[CC_LINES][i] = c->nulls[CC_TEXTS][i] = false;
	c->nulls[CC_PARAM_ENDS][i] = false;
	c->n++;
	store->waiting += 64;
	MemoryContextSwitchTo(old);
	if (store->waiting > PB_CHUNK_MEMORY)
		chunks_write_all(store);
	else if (c->n == PB_CHUNK_STATEMENTS)
		chunk_write(store, st->session_no);
}

/* A JSON object of what was left out, and how much: {"copy": 2, ...}. */
static char *
skipped_json(const PbCaptureCounts *counts, int64 *total)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	*total = 0;
	for (int i = 0; i < PB_SKIP_KINDS; i++)
	{
		if (counts->skipped[i] == 0)
			continue;
		appendStringInfo(&buf, "%s\"%s\": %ld", *total > 0 ? ", " : "",
						 pb_capture_skip_names[i], counts->skipped[i]);
		*total += counts->skipped[i];
	}
	appendStringInfoChar(&buf, '}');
	return buf.data;
}

static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a;
	double		y = *(const double *) b;

	return x < y ? -1 : x > y;
}

/* The nearest-rank percentile of sorted values. */
static double
percentile(const double *sorted, int n, double fraction)
{
	int			rank = (int) ceil(fraction * n);

	return sorted[Max(rank, 1) - 1];
}

/*
 * A row per shape: its text, whether its constants are parameters, its
 * statements and errors, and the log's durations: average, p50, p95, p99,
 * max (NULL when the log recorded none).
 */
static void
shapes_write(PbCaptureStore *store)
{
	Oid			types[11] = {INT8OID, INT4OID, TEXTOID, BOOLOID, INT8OID, INT8OID,
	FLOAT8OID, FLOAT8OID, FLOAT8OID, FLOAT8OID, FLOAT8OID};
	SPIPlanPtr	plan;

	plan = SPI_prepare(psprintf("INSERT INTO %s.polarbench_capture_shape_data"
								" (capture_id, shape_no, shape, parameterized, statements,"
								"  errors, logged_avg, logged_p50, logged_p95, logged_p99,"
								"  logged_max)"
								" VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
								store->nsp), 11, types);
	if (plan == NULL)
		elog(ERROR, "could not prepare the capture's shapes");
	for (int i = 0; i < store->nshapes; i++)
	{
		Shape	   *shape = store->by_no[i];
		Datum		values[11];
		char		nulls[12] = "           ";
		double		sum = 0;

		CHECK_FOR_INTERRUPTS();
		values[0] = Int64GetDatum(store->capture_id);
		values[1] = Int32GetDatum(shape->shape_no);
		values[2] = CStringGetTextDatum(shape->text);
		values[3] = BoolGetDatum(shape->parameterized);
		values[4] = Int64GetDatum(shape->statements);
		values[5] = Int64GetDatum(shape->errors);
		if (shape->ndurations > 0)
		{
			qsort(shape->durations, shape->ndurations, sizeof(double), cmp_double);
			for (int k = 0; k < shape->ndurations; k++)
				sum += shape->durations[k];
			values[6] = Float8GetDatum(sum / shape->ndurations);
			values[7] = Float8GetDatum(percentile(shape->durations, shape->ndurations, 0.50));
			values[8] = Float8GetDatum(percentile(shape->durations, shape->ndurations, 0.95));
			values[9] = Float8GetDatum(percentile(shape->durations, shape->ndurations, 0.99));
			values[10] = Float8GetDatum(shape->durations[shape->ndurations - 1]);
		}
		else
			memset(nulls + 6, 'n', 5);
		if (SPI_execute_plan(plan, values, nulls, false, 0) != SPI_OK_INSERT)
			elog(ERROR, "could not store a shape of the capture");
	}
}

/*
 * The end of the capture: the waiting statements are written, a row per
 * session (each found by session) and per shape, and the capture's counts
 * with its format ("csvlog", "stderr" or "hooks").
 */
void
pb_capture_store_finish(PbCaptureStore *store, const PbCaptureCounts *counts,
						const char *format, PbCaptureSessionFn session,
						const void *session_arg)
{
	SPIPlanPtr	plan;
	Oid			types[12] = {INT8OID, INT4OID, TEXTOID, TEXTOID, TEXTOID, TEXTOID,
	TIMESTAMPTZOID, TIMESTAMPTZOID, TIMESTAMPTZOID, TIMESTAMPTZOID, INT8OID, INT8OID};
	Oid			ctypes[10] = {INT8OID, TEXTOID, INT4OID, INT8OID, INT8OID, INT8OID,
	JSONBOID, INT8OID, TIMESTAMPTZOID, TIMESTAMPTZOID};
	Datum		cvalues[10];
	int64		skipped;
	char	   *skipped_by = skipped_json(counts, &skipped);

	chunks_write_all(store);
	shapes_write(store);
	plan = SPI_prepare(psprintf("INSERT INTO %s.polarbench_capture_session_data"
								" (capture_id, session_no, session_id, role_name, database_name,"
								"  application_name, connected_at, disconnected_at, first_at,"
								"  last_at, statements, errors)"
								" VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
								store->nsp), 12, types);
	if (plan == NULL)
		elog(ERROR, "could not prepare the capture's sessions");
	for (int no = 1; no <= counts->sessions; no++)
	{
		const PbCaptureSession *s = session(session_arg, no);
		Datum		values[12];
		char		nulls[13] = "            ";

		CHECK_FOR_INTERRUPTS();
		values[0] = Int64GetDatum(store->capture_id);
		values[1] = Int32GetDatum(no);
		values[2] = log_text(store, s->id, 0);
		values[3] = log_text(store, s->role, 0);
		values[4] = log_text(store, s->database, 0);
		if (s->application != NULL)
			values[5] = log_text(store, s->application, 0);
		else
			nulls[5] = 'n';
		values[6] = TimestampTzGetDatum((TimestampTz) s->connected_at);
		if (!s->connected)
			nulls[6] = 'n';
		values[7] = TimestampTzGetDatum((TimestampTz) s->disconnected_at);
		if (!s->disconnected)
			nulls[7] = 'n';
		values[8] = TimestampTzGetDatum((TimestampTz) s->first_at);
		values[9] = TimestampTzGetDatum((TimestampTz) s->last_at);
		values[10] = Int64GetDatum((int64) s->statements);
		values[11] = Int64GetDatum((int64) s->errors);
		if (SPI_execute_plan(plan, values, nulls, false, 0) != SPI_OK_INSERT)
			elog(ERROR, "could not store a session of the capture");
	}
	cvalues[0] = Int64GetDatum(store->capture_id);
	cvalues[1] = CStringGetTextDatum(format);
	cvalues[2] = Int32GetDatum((int32) counts->sessions);
	cvalues[3] = Int64GetDatum((int64) counts->statements);
	cvalues[4] = Int64GetDatum((int64) counts->errors);
	cvalues[5] = Int64GetDatum(skipped);
	cvalues[6] = DirectFunctionCall1(jsonb_in, CStringGetDatum(skipped_by));
	cvalues[7] = Int64GetDatum((int64) counts->lines);
	cvalues[8] = TimestampTzGetDatum((TimestampTz) counts->first_at);
	cvalues[9] = TimestampTzGetDatum((TimestampTz) counts->last_at);
	if (SPI_execute_with_args(psprintf("UPDATE %s.polarbench_capture_data"
									   "   SET format = $2, sessions = $3, statements = $4,"
									   "       errors = $5, skipped = $6, skipped_by = $7,"
									   "       lines = $8, first_at = $9, last_at = $10"
									   " WHERE capture_id OPERATOR(pg_catalog.=) $1",
									   store->nsp),
							  10, ctypes, cvalues, NULL, false, 0) != SPI_OK_UPDATE ||
		SPI_processed != 1)
		elog(ERROR, "could not store the capture's counts");
}
