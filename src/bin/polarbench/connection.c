/*-------------------------------------------------------------------------
 *
 * connection.c
 *	  The client's connections: connecting to a node with its search_path
 *	  pinned, running the client's queries (every one with the extension's
 *	  schema named, and the calls that must see the user's tables in the
 *	  session's own search_path), reporting the server's errors with their
 *	  detail and hint, queries that Ctrl-C or SIGTERM cancel, and the
 *	  server's notices (progress lines) as they arrive.
 *
 * A role that may create objects in a schema of the search_path (public,
 * say) could plant there a function or an operator of exactly the argument
 * types the client's SQL calls with, which would win over pg_catalog's and
 * run as whoever runs the client.  So, as pg_dump does, the client pins the
 * search_path to '' right after connecting, remembering the session's own;
 * its SQL names pg_catalog's functions, operators and types with their
 * schema, and polarbench's objects as @extschema@, replaced here by the
 * extension's schema.  polarbench_init(), polarbench_run() and
 * polarbench_sweep() resolve the workload's tables with the caller's
 * search_path, as VACUUM of pgbench's tables does: only around them is the
 * session's own put back (PB_QUERY_USER_PATH), their text still qualified.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include <signal.h>

#include "common/logging.h"
#include "fe_utils/cancel.h"
#include "libpq-events.h"

#include "polarbench.h"

const char *progname;

/* in -i mode every notice is a progress line of the load */
static bool init_notices = false;

/* -q: the elapsed seconds from which the next progress line is printed */
static bool init_quiet = false;
static double init_next_line = 0;

/* whether a run's progress lines are shown (-P), or only drawn (--svg) */
static bool show_progress = true;

/* pgbench -q prints a progress line every this many seconds */
#define QUIET_LOG_SECONDS	5

/*
 * set_notice_mode
 *		What the notices that follow are: a load's progress (init), printed
 *		every 5 s only (quiet), or a run's, shown or not.
 */
void
set_notice_mode(bool init, bool quiet, bool show)
{
	init_notices = init;
	init_quiet = quiet;
	init_next_line = QUIET_LOG_SECONDS;
	show_progress = show;
}

/*
 * notice_receiver
 *		Print the server's notices to stderr as they arrive: progress lines
 *		as pgbench prints them, anything else as psql would.  arg is the
 *		node's label when the client runs on several, else NULL.
 */
static void
notice_receiver(void *arg, const PGresult *res)
{
	const char *severity = PQresultErrorField(res, PG_DIAG_SEVERITY_NONLOCALIZED);
	const char *message = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	const char *node = arg;
	bool		notice = severity != NULL && strcmp(severity, "NOTICE") == 0;

	if (notice && message != NULL && init_notices)
	{
		const char *elapsed = strstr(message, "(elapsed ");
		double		seconds = elapsed ? atof(elapsed + 9) : 0;

		/* with -q, the lines after every 5 s, and the last one */
		if (!init_quiet || seconds >= init_next_line ||
			strstr(message, "(100%)") != NULL)
		{
			fprintf(stderr, "%s\n", message);
			while (init_next_line <= seconds)
				init_next_line += QUIET_LOG_SECONDS;
		}
	}
	else if (notice && message != NULL &&
			 (strncmp(message, "progress: ", 10) == 0 || strncmp(message, "[ ", 2) == 0 ||
			  strstr(message, " current ops/sec;") != NULL))
	{
		if (show_progress)
			fprintf(stderr, "%s%s%s\n", node ? node : "", node ? ": " : "", message);
	}
	else
		fprintf(stderr, "%s%s%s", node ? node : "", node ? ": " : "",
				PQresultErrorMessage(res));
}

/* What the client keeps of each connection, as libpq's instance data */
typedef struct ConnState
{
	char	   *user_path;		/* the session's search_path, before the pin */
	bool		user_path_set;	/* whether it is the session's path now */
	char	   *schema;			/* the extension's schema, quoted; NULL: unknown */
} ConnState;

/* a query's text names the extension's schema so */
#define EXTSCHEMA_MARKER	"@extschema@"

/*
 * conn_event
 *		libpq's events of a connection: its ConnState goes with it.
 */
static int
conn_event(PGEventId id, void *info, void *arg)
{
	if (id == PGEVT_CONNDESTROY)
	{
		PGEventConnDestroy *destroy = info;
		ConnState  *state = PQinstanceData(destroy->conn, conn_event);

		if (state != NULL)
		{
			free(state->user_path);
			free(state->schema);
			free(state);
		}
	}
	return 1;
}

/*
 * conn_state
 *		The ConnState of a connection that connect_target() made.
 */
static ConnState *
conn_state(PGconn *conn)
{
	ConnState  *state = PQinstanceData(conn, conn_event);

	if (state == NULL)
		pg_fatal("connection has no search_path state");
	return state;
}

/*
 * switch_search_path
 *		Make the connection's search_path the session's own (user) or ''.
 *		NULL on success (or when it is so already), else the failed
 *		result, for the caller to report and clear.
 */
static PGresult *
switch_search_path(PGconn *conn, bool user)
{
	ConnState  *state = conn_state(conn);
	const char *params[1] = {user ? state->user_path : ""};
	PGresult   *res;

	if (state->user_path_set == user)
		return NULL;
	res = PQexecParams(conn,
					   "SELECT pg_catalog.set_config('search_path', $1::pg_catalog.text, false)",
					   1, NULL, params, NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		return res;
	PQclear(res);
	state->user_path_set = user;
	return NULL;
}

/*
 * pin_search_path
 *		Make the connection's search_path '' again after a call that ran in
 *		the session's own.  Returns false on error (reported); the next
 *		query then tries again before it runs.
 */
bool
pin_search_path(PGconn *conn)
{
	PGresult   *res = switch_search_path(conn, false);

	if (res == NULL)
		return true;
	report_server_error(conn, res);
	PQclear(res);
	return false;
}

/*
 * prepare_connection
 *		Remember the session's search_path and pin it to '', as pg_dump
 *		does, before anything else is sent.  Returns false on error
 *		(reported).
 */
static bool
prepare_connection(PGconn *conn)
{
	PGresult   *res = PQexec(conn, "SELECT pg_catalog.current_setting('search_path')");
	ConnState  *state;

	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1)
	{
		report_server_error(conn, res);
		PQclear(res);
		return false;
	}
	state = pg_malloc0(sizeof(ConnState));
	state->user_path = pg_strdup(PQgetvalue(res, 0, 0));
	state->user_path_set = true;
	PQclear(res);
	if (!PQregisterEventProc(conn, conn_event, "polarbench", NULL) ||
		!PQsetInstanceData(conn, conn_event, state))
	{
		pg_log_error("could not keep the state of the connection");
		free(state->user_path);
		free(state);
		return false;
	}
	return pin_search_path(conn);
}

/*
 * connect_target
 *		Connect to a node, libpq's environment variables filling in what the
 *		target leaves out, with the search_path pinned.  On failure, exits,
 *		or reports and returns NULL.
 */
PGconn *
connect_target(const ConnTarget *target, bool exit_on_failure)
{
	const char *keywords[] = {"host", "port", "user", "dbname",
	"fallback_application_name", NULL};
	const char *values[] = {target->host, target->port, target->user,
	target->dbname, progname, NULL};
	PGconn	   *conn = PQconnectdbParams(keywords, values, true);

	if (conn == NULL)
	{
		pg_log_error("could not create connection object");
		exit(1);
	}
	if (PQstatus(conn) == CONNECTION_BAD)
	{
		if (exit_on_failure)
		{
			pg_log_error("%s", PQerrorMessage(conn));
			PQfinish(conn);
			exit(1);
		}
		PQfinish(conn);
		return NULL;
	}
	PQsetNoticeReceiver(conn, notice_receiver, target->label);
	if (!prepare_connection(conn))
	{
		PQfinish(conn);
		if (exit_on_failure)
			exit(1);
		return NULL;
	}
	return conn;
}

/*
 * exit_nicely
 *		Close the connection and exit with status.
 */
void
exit_nicely(PGconn *conn, int status)
{
	if (conn != NULL)
		PQfinish(conn);
	exit(status);
}

/*
 * report_server_error
 *		Report an error result with the server's message, detail and hint.
 */
void
report_server_error(PGconn *conn, const PGresult *res)
{
	const char *primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	const char *detail = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL);
	const char *hint = PQresultErrorField(res, PG_DIAG_MESSAGE_HINT);

	if (primary == NULL)
	{
		pg_log_error("%s", PQerrorMessage(conn));
		return;
	}
	pg_log_error("%s", primary);
	if (detail != NULL)
		pg_log_error_detail("%s", detail);
	if (hint != NULL)
		pg_log_error_hint("%s", hint);
}

/*
 * extension_schema
 *		The schema of the polarbench extension in the connection's database,
 *		quoted, looked up once.  Where it is not created (the callers check
 *		first; it could be dropped meanwhile), pg_catalog, which holds none
 *		of polarbench's objects: the query then fails, naming the object.
 */
static const char *
extension_schema(PGconn *conn)
{
	ConnState  *state = conn_state(conn);
	char	   *name;
	char	   *quoted;

	if (state->schema != NULL)
		return state->schema;
	name = single_value(conn,
						"SELECT n.nspname FROM pg_catalog.pg_extension e"
						"  JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace"
						" WHERE e.extname OPERATOR(pg_catalog.=) 'polarbench'",
						0, NULL);
	if (name == NULL)
		return "pg_catalog";
	quoted = PQescapeIdentifier(conn, name, strlen(name));
	if (quoted != NULL)
		state->schema = pg_strdup(quoted);
	PQfreemem(quoted);
	free(name);
	return state->schema ? state->schema : "pg_catalog";
}

/*
 * expand_schema
 *		The query's text, malloc'd, with every @extschema@ replaced by the
 *		extension's schema.
 */
static char *
expand_schema(PGconn *conn, const char *sql)
{
	PQExpBufferData buf;
	const char *p = sql;
	const char *marker;
	size_t		len = strlen(EXTSCHEMA_MARKER);

	if (strstr(sql, EXTSCHEMA_MARKER) == NULL)
		return pg_strdup(sql);
	initPQExpBuffer(&buf);
	while ((marker = strstr(p, EXTSCHEMA_MARKER)) != NULL)
	{
		appendBinaryPQExpBuffer(&buf, p, marker - p);
		appendPQExpBufferStr(&buf, extension_schema(conn));
		p = marker + len;
	}
	appendPQExpBufferStr(&buf, p);
	if (PQExpBufferBroken(&buf))
		pg_fatal("out of memory");
	return buf.data;
}

/*
 * Signals.  Ctrl-C (SIGINT) and SIGTERM send a cancel request during a
 * query that waits (a run, a load, a sweep), as psql's Ctrl-C does, and the
 * client winds down as after any failed run: it puts back the settings a
 * restart applied, and exits with status 2.  While there are such settings
 * to put back (defer_stop), either signal outside such a query is noted and
 * acted on at the next step; otherwise it ends the client as usual.
 */
static volatile sig_atomic_t stop_requested = false;
static bool stop_deferred = false;

/* SIGINT or SIGTERM while settings wait to be put back */
static void
note_stop(SIGNAL_ARGS)
{
	stop_requested = true;
}

/*
 * set_outside_handlers
 *		SIGINT's and SIGTERM's handling outside a cancelable query.
 */
static void
set_outside_handlers(void)
{
	pqsignal(SIGINT, stop_deferred ? note_stop : SIG_DFL);
	pqsignal(SIGTERM, stop_deferred ? note_stop : SIG_DFL);
}

/*
 * defer_stop
 *		Whether SIGINT and SIGTERM outside a cancelable query wait for the
 *		client to put back what it changed (on), or end it (off).
 */
void
defer_stop(bool on)
{
	stop_deferred = on;
	set_outside_handlers();
}

/*
 * stop_was_requested
 *		Whether SIGINT or SIGTERM asked the client to stop: a run was
 *		canceled, or one should not start.
 */
bool
stop_was_requested(void)
{
	return stop_requested;
}

/*
 * start_cancelable
 *		Until end_cancelable(), SIGINT and SIGTERM send a cancel request
 *		for the query on conn: both with psql's own Ctrl-C handler.
 */
static void
start_cancelable(PGconn *conn)
{
	setup_cancel_handler(NULL);
#ifndef WIN32
	{
		struct sigaction sa;

		if (sigaction(SIGINT, NULL, &sa) == 0)
			(void) sigaction(SIGTERM, &sa, NULL);
	}
#endif
	CancelRequested = false;
	SetCancelConn(conn);
}

/*
 * end_cancelable
 *		Back to the signal handling outside a cancelable query, noting a
 *		cancel request that was sent.
 */
static void
end_cancelable(void)
{
	ResetCancelConn();
	if (CancelRequested)
		stop_requested = true;
	set_outside_handlers();
}

/*
 * exec_query
 *		Run one of the client's queries, its @extschema@ replaced, with the
 *		search_path pinned to '', or with PB_QUERY_USER_PATH the session's
 *		own (pinned again after); with PB_QUERY_CANCELABLE, SIGINT and
 *		SIGTERM cancel it.  Returns its result, or the failed result of
 *		switching the search_path.
 */
PGresult *
exec_query(PGconn *conn, int flags, const char *sql, int nparams,
		   const char *const *params)
{
	bool		user = (flags & PB_QUERY_USER_PATH) != 0;
	char	   *text = expand_schema(conn, sql);	/* may look the schema up */
	PGresult   *res = switch_search_path(conn, user);

	if (res != NULL)
	{
		free(text);
		return res;
	}
	if (flags & PB_QUERY_CANCELABLE)
		start_cancelable(conn);
	/* utility commands (VACUUM, ALTER SYSTEM) go as simple queries */
	if (nparams > 0)
		res = PQexecParams(conn, text, nparams, NULL, params, NULL, NULL, 0);
	else
		res = PQexec(conn, text);
	if (flags & PB_QUERY_CANCELABLE)
		end_cancelable();
	free(text);
	if (user && PQstatus(conn) == CONNECTION_OK)
		(void) pin_search_path(conn);
	return res;
}

/*
 * send_query
 *		Send one of the client's queries as exec_query() runs it, without
 *		waiting for its result; the caller pins the search_path again with
 *		pin_search_path() once it has them all.  Returns false on error
 *		(reported).
 */
bool
send_query(PGconn *conn, int flags, const char *sql, int nparams,
		   const char *const *params)
{
	char	   *text = expand_schema(conn, sql);	/* may look the schema up */
	PGresult   *res = switch_search_path(conn, (flags & PB_QUERY_USER_PATH) != 0);
	bool		ok;

	if (res != NULL)
	{
		report_server_error(conn, res);
		PQclear(res);
		free(text);
		return false;
	}
	ok = PQsendQueryParams(conn, text, nparams, NULL, params, NULL, NULL, 0) == 1;
	if (!ok)
		pg_log_error("%s", PQerrorMessage(conn));
	free(text);
	return ok;
}

/*
 * single_value
 *		The one value a query returns, malloc'd, or NULL on error (reported)
 *		or for a NULL value.
 */
char *
single_value(PGconn *conn, const char *sql, int nparams,
			 const char *const *params)
{
	PGresult   *res = exec_query(conn, 0, sql, nparams, params);
	char	   *value = NULL;

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		report_server_error(conn, res);
	else if (PQntuples(res) == 1 && !PQgetisnull(res, 0, 0))
		value = pg_strdup(PQgetvalue(res, 0, 0));
	PQclear(res);
	return value;
}

/*
 * last_run_id
 *		The newest run's id (0 if none), before a run starts, to find what
 *		it recorded if it fails; NULL on error (reported).
 */
char *
last_run_id(PGconn *conn)
{
	return single_value(conn,
						"SELECT coalesce(pg_catalog.max(run_id), 0) FROM @extschema@.polarbench_runs",
						0, NULL);
}

/*
 * runs_since
 *		How many runs the current role recorded after run last_run; -1 if
 *		that cannot be read.
 */
int
runs_since(PGconn *conn, const char *last_run)
{
	const char *params[1] = {last_run};
	char	   *count;

	if (conn == NULL || PQstatus(conn) != CONNECTION_OK)
		return -1;
	count = single_value(conn,
						 "SELECT pg_catalog.count(*) FROM @extschema@.polarbench_runs"
						 " WHERE run_id OPERATOR(pg_catalog.>) $1::pg_catalog.int8"
						 "   AND run_by OPERATOR(pg_catalog.=) CURRENT_USER::pg_catalog.text",
						 1, params);
	return count ? atoi(count) : -1;
}
