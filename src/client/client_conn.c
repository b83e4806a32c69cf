/*-------------------------------------------------------------------------
 *
 * client_conn.c
 *	  The client's connections: connecting to a node, reporting the
 *	  server's errors with their detail and hint, one-value queries, queries
 *	  that Ctrl-C cancels, and the server's notices (progress lines) as they
 *	  arrive.
 *
 * calls: nothing of polarbench's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include <signal.h>

#include "common/logging.h"
#include "fe_utils/cancel.h"

#include "polarbench_client.h"

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

/*
 * connect_target
 *		Connect to a node, libpq's environment variables filling in what the
 *		target leaves out.  On failure, exits, or reports and returns NULL.
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
 * exec_cancelable
 *		Run a query whose end we wait for with Ctrl-C sending a cancel
 *		request to the server, as psql does; outside such a query, Ctrl-C
 *		ends the program as usual.
 */
PGresult *
exec_cancelable(PGconn *conn, const char *sql, int nparams,
				const char *const *params)
{
	PGresult   *res;

	setup_cancel_handler(NULL);
	SetCancelConn(conn);
	res = PQexecParams(conn, sql, nparams, NULL, params, NULL, NULL, 0);
	ResetCancelConn();
	pqsignal(SIGINT, SIG_DFL);
	return res;
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
	PGresult   *res = PQexecParams(conn, sql, nparams, NULL, params, NULL, NULL, 0);
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
	return single_value(conn, "SELECT coalesce(max(run_id), 0) FROM polarbench_runs", 0, NULL);
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
						 "SELECT count(*) FROM polarbench_runs WHERE run_id > $1::bigint AND run_by = current_user",
						 1, params);
	return count ? atoi(count) : -1;
}
