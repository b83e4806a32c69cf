/*-------------------------------------------------------------------------
 *
 * capture.c
 *	  The SQL entry points of captures: polarbench_capture_log() reads a
 *	  server log and keeps its workload as a capture, polarbench_capture_drop()
 *	  drops one.
 *
 * Reading a file of the server needs what COPY FROM a file needs:
 * superuser, or the privileges of pg_read_server_files; so does a capture
 * through hooks, which sees what a log of every statement would show.  A capture is its
 * role's: its texts (statements, parameters, errors, the file, the
 * filters, the sessions' roles, databases and applications) show in the
 * views only to that role, roles with its privileges and pg_read_all_stats,
 * as a run's texts do; its figures are public.  Everything is checked
 * before the file is opened, and the capture is stored in the caller's
 * transaction, so that an error leaves nothing of it.
 *
 * The log's times are in log_timezone, written as its abbreviation: they
 * are read with the rules of the time zone given (by default the server's
 * log_timezone), each abbreviation checked against the one those rules
 * give for that local time.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>

#include "access/htup_details.h"
#include "access/xlog.h"
#include "catalog/pg_authid.h"
#include "commands/dbcommands.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "pgtime.h"
#include "storage/fd.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "capture_live.h"
#include "capture_store.h"
#include "engine.h"
#include "settings_journal.h"

PG_FUNCTION_INFO_V1(polarbench_capture_log);
PG_FUNCTION_INFO_V1(polarbench_capture_drop);
PG_FUNCTION_INFO_V1(polarbench_capture_start);
PG_FUNCTION_INFO_V1(polarbench_capture_stop);

/* how much of the log is read at a time */
#define PB_LOG_READ_SIZE	(1024 * 1024)

/* seconds from 1970-01-01 to PostgreSQL's epoch, 2000-01-01 */
#define PB_UNIX_TO_PG_SECONDS	INT64CONST(946684800)

/*
 * The capture library's resolver of time zone abbreviations: the offset
 * that the rules of tz (arg) give the local time fields, among the one or
 * two a local time has about a change of offset, whose abbreviation is
 * zone's.  No error is raised here (the library reports it, naming the
 * line).
 */
static bool
resolve_zone(void *arg, const char *zone, const int *fields, int *offset)
{
	pg_tz	   *tz = arg;
	struct pg_tm tm;
	int			guess;
	pg_time_t	local;
	static const int shifts[] = {0, -3600, 3600, -1800, 1800};

	memset(&tm, 0, sizeof(tm));
	tm.tm_year = fields[0];
	tm.tm_mon = fields[1];
	tm.tm_mday = fields[2];
	tm.tm_hour = fields[3];
	tm.tm_min = fields[4];
	tm.tm_sec = fields[5];
	/* UTC = local + guess, by PostgreSQL's sign */
	guess = DetermineTimeZoneOffset(&tm, tz);
	local = (pg_time_t) ((((int64) date2j(fields[0], fields[1], fields[2]) -
						   POSTGRES_EPOCH_JDATE) * 24 + fields[3]) * 60 + fields[4]) * 60 +
		fields[5] + PB_UNIX_TO_PG_SECONDS;
	for (int i = 0; i < lengthof(shifts); i++)
	{
		pg_time_t	utc = local + guess + shifts[i];
		struct pg_tm *at = pg_localtime(&utc, tz);

		if (at != NULL && at->tm_zone != NULL && strcmp(at->tm_zone, zone) == 0 &&
			at->tm_hour == fields[3] && at->tm_min == fields[4])
		{
			*offset = -(guess + shifts[i]);
			return true;
		}
	}
	return false;
}

/* The capture library's error as the server's, naming the line. */
static void
report_capture_error(const PbCaptureError *err, const char *path)
{
	if (strncmp(err->message, "out of memory", 13) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errdetail("Capturing line %ld of \"%s\".", err->line, path)));
	ereport(ERROR,
			(errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
			 errmsg("%s", err->message),
			 err->detail[0] != '\0' ? errdetail("%s", err->detail) : 0,
			 errcontext("log file \"%s\"", path)));
}

/* Free the capture library's state when the memory context is reset. */
static void
capture_free_callback(void *arg)
{
	pb_capture_free((PbCapture *) arg);
}

/* The session of a log's capture numbered no, for the store. */
static const PbCaptureSession *
log_session(const void *arg, int no)
{
	return pb_capture_session((const PbCapture *) arg, no);
}

/* A text argument, or NULL. */
static char *
text_arg(FunctionCallInfo fcinfo, int n)
{
	return PG_ARGISNULL(n) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(n));
}

/* Append "name": value (a JSON string) to a JSON object being built. */
static void
json_field(StringInfo buf, const char *name, const char *value)
{
	if (value == NULL)
		return;
	appendStringInfoString(buf, buf->len > 1 ? ", " : "");
	escape_json(buf, name);
	appendStringInfoString(buf, ": ");
	escape_json(buf, value);
}

/*
 * The path of the log to read: as given when absolute, else under the
 * data directory, where the logging collector writes (log_directory).
 */
static char *
log_path(const char *path)
{
	if (is_absolute_path(path))
		return pstrdup(path);
	return psprintf("%s/%s", DataDir, path);
}

/*
 * Refuse a capture of what, by role captured_by, without the privileges
 * of pg_read_server_files, or on a hot standby.
 */
static void
check_may_capture(Oid captured_by, const char *what, const char *why)
{
	if (!has_privs_of_role(captured_by, ROLE_PG_READ_SERVER_FILES))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be superuser or have privileges of the pg_read_server_files role to capture %s", what),
				 errhint("%s", why)));
	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("cannot capture %s on a hot standby", what),
				 errhint("Capture it on the primary; a replay of a capture that only reads runs on a standby.")));
}

/*
 * A capture's row as polarbench_capture_log and polarbench_capture_stop
 * return it, what it left out said in a NOTICE of each kind.
 */
static Datum
capture_result(TupleDesc tupdesc, int64 capture_id, const PbCaptureCounts *counts)
{
	Datum		values[6];
	bool		nulls[6] = {false};
	int64		skipped = 0;

	for (int i = 0; i < PB_SKIP_KINDS; i++)
	{
		if (counts->skipped[i] == 0)
			continue;
		skipped += counts->skipped[i];
		if (i == PB_SKIP_BOUND)
			ereport(NOTICE,
					(errmsg("%s left out: %ld", pb_capture_skip_what[i],
							counts->skipped[i]),
					 errdetail("%s", pb_capture_skip_why[i])));
		else
			ereport(NOTICE,
					(errmsg("%s left out: %ld, the first at line %ld",
							pb_capture_skip_what[i], counts->skipped[i],
							counts->skipped_line[i]),
					 errdetail("%s", pb_capture_skip_why[i])));
	}
	values[0] = Int64GetDatum(capture_id);
	values[1] = Int32GetDatum((int32) counts->sessions);
	values[2] = Int64GetDatum((int64) counts->statements);
	values[3] = Int64GetDatum((int64) counts->errors);
	values[4] = Int64GetDatum(skipped);
	values[5] = Float8GetDatum((double) (counts->last_at - counts->first_at) / 1000000.0);
	return HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls));
}

/*
 * polarbench_capture_log(path, format, database, role, application, since,
 *		until, time_zone)
 *		SQL entry point: read the server log at path and keep its workload as
 *		a capture of the calling role; returns its id and counts.
 */
Datum
polarbench_capture_log(PG_FUNCTION_ARGS)
{
	char	   *path = text_arg(fcinfo, 0);
	char	   *format = text_arg(fcinfo, 1);
	char	   *time_zone = text_arg(fcinfo, 7);
	PbCaptureOptions options;
	PbCaptureError err;
	PbCapture  *capture;
	PbCaptureStore *store;
	MemoryContextCallback *callback;
	const PbCaptureCounts *counts;
	const PbCaptureStatement *st;
	StringInfoData filters;
	TupleDesc	tupdesc;
	Oid			captured_by = GetUserId();
	Oid			save_user;
	int			save_sec;
	int			nest;
	pg_tz	   *tz;
	Oid			schema;
	char	   *file;
	FILE	   *fp;
	struct stat st_buf;
	char	   *buf;
	size_t		n;

	pb_journal_recover();
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	/* everything the caller can get wrong, before the file is opened */
	if (path == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("path must not be null"),
				 errhint("Give the server log file to read, such as pg_current_logfile('csvlog').")));
	check_may_capture(captured_by, "a server log",
					  "A server log is a file of the server, which COPY FROM reads with the same privileges.");
	memset(&options, 0, sizeof(options));
	if (format == NULL)
		options.format = PB_LOG_AUTO;
	else if (pg_strcasecmp(format, "csvlog") == 0 || pg_strcasecmp(format, "csv") == 0)
		options.format = PB_LOG_CSV;
	else if (pg_strcasecmp(format, "stderr") == 0)
		options.format = PB_LOG_STDERR;
	else
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unrecognized log format \"%s\"", format),
				 errhint("The formats are csvlog and stderr (with log_line_prefix = '%%m|%%u|%%d|%%c|'); without one, it is told from the log's first line.")));
	options.database = text_arg(fcinfo, 2);
	options.role = text_arg(fcinfo, 3);
	options.application = text_arg(fcinfo, 4);
	options.has_since = !PG_ARGISNULL(5);
	options.since = options.has_since ? (PbLogTime) PG_GETARG_TIMESTAMPTZ(5) : 0;
	options.has_until = !PG_ARGISNULL(6);
	options.until = options.has_until ? (PbLogTime) PG_GETARG_TIMESTAMPTZ(6) : 0;
	if (options.has_since && options.has_until && options.since >= options.until)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("since must be before until")));
	if (time_zone == NULL)
		tz = log_timezone;
	else if ((tz = pg_tzset(time_zone)) == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("time zone \"%s\" not recognized", time_zone),
				 errhint("Give the log_timezone the log was written in, such as 'Europe/Vienna' or 'UTC'.")));
	options.resolve_zone = resolve_zone;
	options.resolve_arg = tz;

	file = log_path(path);
	fp = AllocateFile(file, PG_BINARY_R);
	if (fp == NULL)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open file \"%s\" for reading: %m", file),
				 is_absolute_path(path) ? 0 :
				 errhint("A relative path is read from the data directory, where log_directory is by default.")));
	if (fstat(fileno(fp), &st_buf) == 0 && S_ISDIR(st_buf.st_mode))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is a directory", file)));

	initStringInfo(&filters);
	appendStringInfoChar(&filters, '{');
	json_field(&filters, "database", options.database);
	json_field(&filters, "role", options.role);
	json_field(&filters, "application", options.application);
	json_field(&filters, "since", options.has_since ?
			   timestamptz_to_str((TimestampTz) options.since) : NULL);
	json_field(&filters, "until", options.has_until ?
			   timestamptz_to_str((TimestampTz) options.until) : NULL);
	json_field(&filters, "time_zone", time_zone);
	appendStringInfoChar(&filters, '}');

	/* the library's memory is given back however this ends */
	capture = pb_capture_new(&options);
	if (capture == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	callback = palloc(sizeof(MemoryContextCallback));
	callback->func = capture_free_callback;
	callback->arg = capture;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, callback);

	SPI_connect();
	nest = pb_as_owner_begin(pb_extension_owner(&schema), &save_user, &save_sec);
	store = pb_capture_store_begin(schema, captured_by, file, filters.data);
	buf = palloc(PB_LOG_READ_SIZE);
	while ((n = fread(buf, 1, PB_LOG_READ_SIZE, fp)) > 0)
	{
		CHECK_FOR_INTERRUPTS();
		if (!pb_capture_feed(capture, buf, n, &err))
			report_capture_error(&err, file);
		while ((st = pb_capture_next(capture)) != NULL)
			pb_capture_store_add(store, st);
	}
	if (ferror(fp))
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read file \"%s\": %m", file)));
	if (!pb_capture_finish(capture, &err))
		report_capture_error(&err, file);
	while ((st = pb_capture_next(capture)) != NULL)
		pb_capture_store_add(store, st);
	FreeFile(fp);
	counts = pb_capture_counts(capture);
	if (counts->statements == 0)
		ereport(ERROR,
				(errcode(ERRCODE_NO_DATA_FOUND),
				 errmsg("the log holds no statement to capture"),
				 errdetail("%ld lines were read.", counts->lines),
				 errhint("Statements are in the log with log_statement = 'all' or log_min_duration_statement = 0, with lc_messages in English; the filters given may leave none.")));
	pb_capture_store_finish(store, counts,
							counts->format == PB_LOG_CSV ? "csvlog" : "stderr",
							log_session, capture);
	pb_as_owner_end(nest, save_user, save_sec);
	SPI_finish();

	PG_RETURN_DATUM(capture_result(tupdesc, pb_capture_store_id(store), counts));
}

/*
 * polarbench_capture_drop(capture_id)
 *		SQL entry point: drop a capture, which its role, roles with its
 *		privileges and superusers may do.
 */
Datum
polarbench_capture_drop(PG_FUNCTION_ARGS)
{
	int64		capture_id = PG_GETARG_INT64(0);
	Oid			schema;
	Oid			owner = pb_extension_owner(&schema);
	const char *nsp = quote_identifier(get_namespace_name(schema));
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(capture_id)};
	Oid			save_user;
	int			save_sec;
	int			nest;
	Oid			captured_by;
	bool		isnull;

	pb_journal_recover();
	SPI_connect();
	nest = pb_as_owner_begin(owner, &save_user, &save_sec);
	if (SPI_execute_with_args(psprintf("SELECT captured_by FROM %s.polarbench_capture_data"
									   " WHERE capture_id OPERATOR(pg_catalog.=) $1 FOR UPDATE",
									   nsp), 1, types, values, NULL, false, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read the capture");
	if (SPI_processed == 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("capture " INT64_FORMAT " does not exist", capture_id)));
	captured_by = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[0],
												 SPI_tuptable->tupdesc, 1, &isnull));
	if (!has_privs_of_role(save_user, captured_by))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to drop capture " INT64_FORMAT, capture_id),
				 errdetail("Only the role that made it, roles with its privileges and superusers may drop it.")));
	if (SPI_execute_with_args(psprintf("DELETE FROM %s.polarbench_capture_data"
									   " WHERE capture_id OPERATOR(pg_catalog.=) $1",
									   nsp), 1, types, values, NULL, false, 0) != SPI_OK_DELETE)
		elog(ERROR, "could not drop the capture");
	pb_as_owner_end(nest, save_user, save_sec);
	SPI_finish();
	PG_RETURN_BOOL(true);
}

/*
 * polarbench_capture_start(database, role, application, max_size)
 *		SQL entry point: start capturing, through hooks, the top-level
 *		statements of the client sessions the filters keep, for the calling
 *		role, up to max_size bytes; at once, one capture at a time.
 */
Datum
polarbench_capture_start(PG_FUNCTION_ARGS)
{
	char	   *database = text_arg(fcinfo, 0);
	char	   *role = text_arg(fcinfo, 1);
	PbLiveFilters filters;

	check_may_capture(GetUserId(), "statements through hooks",
					  "A capture sees the statements of every session, with their parameters, as a server log would.");
	memset(&filters, 0, sizeof(filters));
	filters.database = database ? get_database_oid(database, false) : InvalidOid;
	filters.role = role ? get_role_oid(role, false) : InvalidOid;
	filters.application = text_arg(fcinfo, 2);
	if (!PG_ARGISNULL(3) && PG_GETARG_INT64(3) <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("max_size must be positive"),
				 errhint("It bounds the bytes of statements a capture keeps; without it, polarbench.capture_memory does.")));
	filters.max_size = PG_ARGISNULL(3) ? 0 : PG_GETARG_INT64(3);
	pb_capture_live_start(GetUserId(), &filters);
	PG_RETURN_VOID();
}

/*
 * polarbench_capture_stop()
 *		SQL entry point: stop the capture through hooks going on and store
 *		what it kept as a capture of its role, in the caller's transaction;
 *		returns its id and counts, as polarbench_capture_log does.
 */
Datum
polarbench_capture_stop(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	PbLiveCapture *live;
	PbCaptureCounts counts;
	Oid			save_user;
	int			save_sec;
	int			nest;
	Oid			schema;
	int64		capture_id;

	pb_journal_recover();
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	live = pb_capture_live_stop();
	SPI_connect();
	nest = pb_as_owner_begin(pb_extension_owner(&schema), &save_user, &save_sec);
	capture_id = pb_capture_live_store(live, schema, &counts);
	pb_as_owner_end(nest, save_user, save_sec);
	SPI_finish();
	PG_RETURN_DATUM(capture_result(tupdesc, capture_id, &counts));
}
