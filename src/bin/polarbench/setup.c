/*-------------------------------------------------------------------------
 *
 * setup.c
 *	  What the client does to a database before a run: make sure the
 *	  extension is there (creating it for -i when the role may), vacuum
 *	  pgbench's tables as pgbench does unless -n, and sort the settings a
 *	  run asks for by what changes them: a SET in every client, a reload,
 *	  or a restart.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include "common/logging.h"

#include "polarbench.h"

/*
 * ensure_extension
 *		Whether the polarbench extension is in the database.  With create
 *		(-i), create it when it is missing and the role may; otherwise say
 *		which command to run, and as whom.  A server without polarbench
 *		installed is told how to install it.
 */
bool
ensure_extension(PGconn *conn, bool create)
{
	PGresult   *res = exec_query(conn, 0,
								 "SELECT (SELECT extversion FROM pg_catalog.pg_extension"
								 "         WHERE extname OPERATOR(pg_catalog.=) 'polarbench'),"
								 " EXISTS (SELECT FROM pg_catalog.pg_available_extensions"
								 "          WHERE name OPERATOR(pg_catalog.=) 'polarbench'),"
								 " pg_catalog.current_database(), CURRENT_USER",
								 0, NULL);
	bool		installed;
	bool		available;
	char	   *db;
	char	   *role;

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		report_server_error(conn, res);
		PQclear(res);
		return false;
	}
	installed = !PQgetisnull(res, 0, 0);
	available = strcmp(PQgetvalue(res, 0, 1), "t") == 0;
	db = pg_strdup(PQgetvalue(res, 0, 2));
	role = pg_strdup(PQgetvalue(res, 0, 3));
	PQclear(res);
	if (installed)
		return true;

	if (!available)
	{
		pg_log_error("the polarbench extension is not installed on server %s:%s",
					 PQhost(conn), PQport(conn));
		pg_log_error_hint("Install it on the server's host: in polarbench's source tree, run \"make install\" as root (with PG_CONFIG naming that server's pg_config), then \"%s -i\".",
						  progname);
		return false;
	}
	if (!create)
	{
		pg_log_error("extension \"polarbench\" is not created in database \"%s\"", db);
		pg_log_error_hint("Run \"%s -i\" to create it and pgbench's tables, or, as a superuser, \"psql -d %s -c 'CREATE EXTENSION polarbench'\".",
						  progname, db);
		return false;
	}

	/* where the session's own search_path creates it, as ever */
	res = exec_query(conn, PB_QUERY_USER_PATH, "CREATE EXTENSION polarbench", 0, NULL);
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
	{
		const char *sqlstate = PQresultErrorField(res, PG_DIAG_SQLSTATE);

		if (sqlstate != NULL && strcmp(sqlstate, "42501") == 0)
		{
			pg_log_error("role \"%s\" may not create extension \"polarbench\" in database \"%s\"",
						 role, db);
			pg_log_error_hint("As a superuser, run \"psql -d %s -c 'CREATE EXTENSION polarbench'\", and \"psql -d %s -c 'GRANT EXECUTE ON FUNCTION polarbench_run, polarbench_init TO %s'\"; then \"%s -i\" again.",
							  db, db, role, progname);
		}
		else
			report_server_error(conn, res);
		PQclear(res);
		return false;
	}
	PQclear(res);
	fprintf(stderr, "created extension polarbench in database \"%s\"\n", db);
	return true;
}

/*
 * Run a maintenance command on the user's tables, in the session's own
 * search_path; on error, say so and go on, as pgbench does.
 */
static void
try_command(PGconn *conn, const char *sql)
{
	PGresult   *res = exec_query(conn, PB_QUERY_USER_PATH, sql, 0, NULL);

	if (PQresultStatus(res) != PGRES_COMMAND_OK)
	{
		report_server_error(conn, res);
		fprintf(stderr, "(ignoring this error and continuing anyway)\n");
	}
	PQclear(res);
}

/*
 * vacuum_tables
 *		As pgbench before a run unless -n: vacuum pgbench_branches and
 *		pgbench_tellers and empty pgbench_history, and with -v vacuum
 *		pgbench_accounts as well; for pgbench's scripts, whose figures then
 *		compare with pgbench's.  Not on a hot standby, which can do none of
 *		it (its primary's vacuum reaches it).
 */
void
vacuum_tables(PGconn *conn, const ClientOptions *opts)
{
	char	   *standby;

	if (opts->no_vacuum || opts->workload != NULL)
		return;
	standby = single_value(conn, "SELECT pg_catalog.pg_is_in_recovery()", 0, NULL);
	if (standby == NULL || strcmp(standby, "t") == 0)
		return;
	fprintf(stderr, "starting vacuum...");
	try_command(conn, "VACUUM pgbench_branches");
	try_command(conn, "VACUUM pgbench_tellers");
	try_command(conn, "TRUNCATE pgbench_history");
	if (opts->vacuum_all)
	{
		fprintf(stderr, "end.\nstarting vacuum pgbench_accounts...");
		try_command(conn, "VACUUM ANALYZE pgbench_accounts");
	}
	fprintf(stderr, "end.\n");
}

/* Append name=value to a set. */
static void
set_add(SettingSet *set, const char *name, const char *value)
{
	set->names = pg_realloc(set->names, sizeof(char *) * (set->n + 1));
	set->values = pg_realloc(set->values, sizeof(char *) * (set->n + 1));
	set->names[set->n] = pg_strdup(name);
	set->values[set->n] = pg_strdup(value);
	set->n++;
}

/*
 * classify_settings
 *		Sort the settings of in by what changes them, as pg_settings tells
 *		of each: a restart (context postmaster) into restart, a reload
 *		(sighup) into server, all else (and names the server does not know,
 *		which it then refuses with its reason) into session.  Returns false
 *		on error (reported).
 */
bool
classify_settings(PGconn *conn, const SettingSet *in, SettingSet *session,
				  SettingSet *server, SettingSet *restart)
{
	memset(session, 0, sizeof(*session));
	memset(server, 0, sizeof(*server));
	memset(restart, 0, sizeof(*restart));
	for (int i = 0; i < in->n; i++)
	{
		const char *params[1] = {in->names[i]};
		PGresult   *res = exec_query(conn, 0,
									 "SELECT context FROM pg_catalog.pg_settings"
									 " WHERE name OPERATOR(pg_catalog.=) pg_catalog.lower($1::pg_catalog.text)",
									 1, params);
		const char *context;

		if (PQresultStatus(res) != PGRES_TUPLES_OK)
		{
			report_server_error(conn, res);
			PQclear(res);
			return false;
		}
		context = PQntuples(res) == 1 ? PQgetvalue(res, 0, 0) : "user";
		if (strcmp(context, "postmaster") == 0)
			set_add(restart, in->names[i], in->values[i]);
		else if (strcmp(context, "sighup") == 0)
			set_add(server, in->names[i], in->values[i]);
		else
			set_add(session, in->names[i], in->values[i]);
		PQclear(res);
	}
	return true;
}

/*
 * check_restart_command
 *		Settings that take a restart need --restart-command: false, with
 *		that hint, when there are some and no command.
 */
bool
check_restart_command(const SettingSet *restart, const char *command)
{
	if (restart->n == 0 || command != NULL)
		return true;
	pg_log_error("parameter \"%s\" takes a server restart", restart->names[0]);
	pg_log_error_hint("Give the command that restarts the server with --restart-command, such as --restart-command='pg_ctlcluster 15 main restart'.");
	return false;
}
