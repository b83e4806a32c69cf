/*-------------------------------------------------------------------------
 *
 * restart.c
 *	  Settings that only a server restart changes (shared_buffers, ...):
 *	  written with ALTER SYSTEM, applied by the user's own restart command
 *	  (--restart-command, such as "pg_ctlcluster 15 main restart"), waited
 *	  for, and at the end put back as they were in postgresql.auto.conf,
 *	  with one more restart.
 *
 * The client runs the command with the shell, as the user who runs the
 * client; it never guesses how the server is managed.
 *
 * calls: client_conn.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include <sys/wait.h>

#include "common/logging.h"

#include "polarbench_client.h"

/* how long to wait for the server to accept connections after a restart */
#define RESTART_WAIT_SECONDS	120

/*
 * setting_sets_equal
 *		Whether two sets hold the same settings in the same order.
 */
bool
setting_sets_equal(const SettingSet *a, const SettingSet *b)
{
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++)
		if (strcmp(a->names[i], b->names[i]) != 0 ||
			strcmp(a->values[i], b->values[i]) != 0)
			return false;
	return true;
}

/* A setting's name as ALTER SYSTEM takes it: each dotted part quoted. */
static char *
quoted_name(PGconn *conn, const char *name)
{
	PQExpBufferData buf;
	char	   *copy = pg_strdup(name);
	char	   *part = copy;

	initPQExpBuffer(&buf);
	for (;;)
	{
		char	   *dot = strchr(part, '.');
		char	   *q;

		if (dot != NULL)
			*dot = '\0';
		q = PQescapeIdentifier(conn, part, strlen(part));
		appendPQExpBuffer(&buf, "%s%s", buf.len > 0 ? "." : "", q ? q : part);
		PQfreemem(q);
		if (dot == NULL)
			break;
		part = dot + 1;
	}
	free(copy);
	return buf.data;
}

/*
 * append_value_list
 *		Append value as ALTER SYSTEM takes it: a list (shared_preload_libraries
 *		= 'a, b') as one literal per element, split at commas outside double
 *		quotes, so that the server does not read it as one element "a, b";
 *		anything else as one literal.
 */
static void
append_value_list(PGconn *conn, PQExpBuffer sql, const char *value)
{
	const char *p = value;
	bool		first = true;

	do
	{
		PQExpBufferData item;
		bool		quoted = false;
		char	   *literal;

		initPQExpBuffer(&item);
		while (*p == ' ')
			p++;
		for (; *p && (quoted || *p != ','); p++)
		{
			if (*p == '"')
				quoted = !quoted;
			else
				appendPQExpBufferChar(&item, *p);
		}
		while (item.len > 0 && item.data[item.len - 1] == ' ')
			item.data[--item.len] = '\0';
		literal = PQescapeLiteral(conn, item.data, item.len);
		appendPQExpBuffer(sql, "%s%s", first ? "" : ", ", literal ? literal : "''");
		PQfreemem(literal);
		termPQExpBuffer(&item);
		first = false;
	} while (*p++ == ',');
}

/* ALTER SYSTEM SET name = value, or RESET when value is NULL. */
static bool
alter_system(PGconn *conn, const char *name, const char *value)
{
	PQExpBufferData sql;
	PGresult   *res;
	bool		ok;
	char	   *q = quoted_name(conn, name);

	initPQExpBuffer(&sql);
	if (value == NULL)
		appendPQExpBuffer(&sql, "ALTER SYSTEM RESET %s", q);
	else
	{
		appendPQExpBuffer(&sql, "ALTER SYSTEM SET %s = ", q);
		append_value_list(conn, &sql, value);
	}
	res = PQexec(conn, sql.data);
	ok = PQresultStatus(res) == PGRES_COMMAND_OK;
	if (!ok)
		report_server_error(conn, res);
	PQclear(res);
	termPQExpBuffer(&sql);
	free(q);
	return ok;
}

/*
 * restart_server
 *		Close the connection, run the restart command and connect again,
 *		waiting for the server to come up.  Returns false (reported) if the
 *		command fails or the server does not come back; *conn is then NULL.
 */
static bool
restart_server(PGconn **conn, const ConnTarget *target, const char *command)
{
	int			rc;
	char	   *started = single_value(*conn, "SELECT pg_catalog.pg_postmaster_start_time()",
									   0, NULL);
	char	   *restarted;

	PQfinish(*conn);
	*conn = NULL;
	fflush(stdout);
	fflush(stderr);
	fprintf(stderr, "restarting the server: %s\n", command);
	rc = system(command);
	if (rc != 0)
	{
		if (rc == -1)
			pg_log_error("could not run the restart command: %m");
		else if (WIFEXITED(rc))
			pg_log_error("restart command failed with exit status %d", WEXITSTATUS(rc));
		else
			pg_log_error("restart command was terminated by a signal");
		pg_log_error_detail("The command was: %s", command);
	}
	for (int i = 0; i < RESTART_WAIT_SECONDS * 4; i++)
	{
		*conn = connect_target(target, false);
		if (*conn != NULL)
			break;
		pg_usleep(250000);
	}
	if (*conn == NULL)
	{
		pg_log_error("the server did not accept connections within %d s of the restart",
					 RESTART_WAIT_SECONDS);
		return false;
	}
	if (rc != 0)
		return false;
	restarted = single_value(*conn, "SELECT pg_catalog.pg_postmaster_start_time()", 0, NULL);
	if (started == NULL || restarted == NULL || strcmp(started, restarted) == 0)
	{
		pg_log_error("the restart command did not restart the server");
		pg_log_error_detail("The command was: %s", command);
		pg_log_error_hint("Check that it restarts the server the client is connected to.");
		return false;
	}
	return true;
}

/*
 * restart_apply
 *		Write settings with ALTER SYSTEM, keeping what postgresql.auto.conf
 *		held for each, restart the server with command and check that every
 *		one took effect.  state records what to put back, and is active
 *		once anything was written, even when this fails.
 */
bool
restart_apply(PGconn **conn, const ConnTarget *target, const char *command,
			  const SettingSet *settings, RestartState *state)
{
	memset(state, 0, sizeof(*state));
	state->previous = pg_malloc0(sizeof(char *) * Max(settings->n, 1));
	state->applied.names = pg_malloc0(sizeof(char *) * Max(settings->n, 1));
	state->applied.values = pg_malloc0(sizeof(char *) * Max(settings->n, 1));
	for (int i = 0; i < settings->n; i++)
	{
		const char *params[1] = {settings->names[i]};
		PGresult   *res = PQexecParams(*conn,
									   "SELECT setting FROM pg_catalog.pg_file_settings"
									   " WHERE name = pg_catalog.lower($1) AND sourcefile LIKE '%/postgresql.auto.conf'"
									   " ORDER BY seqno DESC LIMIT 1",
									   1, NULL, params, NULL, NULL, 0);

		if (PQresultStatus(res) != PGRES_TUPLES_OK)
		{
			report_server_error(*conn, res);
			PQclear(res);
			return false;
		}
		state->previous[i] = PQntuples(res) == 1 ? pg_strdup(PQgetvalue(res, 0, 0)) : NULL;
		PQclear(res);
		if (!alter_system(*conn, settings->names[i], settings->values[i]))
			return false;
		state->applied.names[i] = settings->names[i];
		state->applied.values[i] = settings->values[i];
		state->applied.n = i + 1;
		state->active = true;
	}
	if (!restart_server(conn, target, command))
		return false;
	for (int i = 0; i < settings->n; i++)
	{
		const char *params[1] = {settings->names[i]};
		char	   *pending = single_value(*conn,
										   "SELECT NOT pending_restart AND sourcefile LIKE '%/postgresql.auto.conf'"
										   "  FROM pg_catalog.pg_settings WHERE name = pg_catalog.lower($1)",
										   1, params);

		if (pending == NULL || strcmp(pending, "t") != 0)
		{
			pg_log_error("parameter \"%s\" did not take effect with the restart", settings->names[i]);
			pg_log_error_hint("Another configuration file the server reads after postgresql.auto.conf may set it.");
			return false;
		}
	}
	return true;
}

/*
 * restart_restore
 *		Put back what postgresql.auto.conf held for the settings state
 *		applied (every one that can be, in reverse order), and restart the
 *		server for it.  Returns false on error (reported).
 */
bool
restart_restore(PGconn **conn, const ConnTarget *target, const char *command,
				RestartState *state)
{
	bool		ok = true;

	if (!state->active)
		return true;
	state->active = false;
	if (*conn == NULL && (*conn = connect_target(target, false)) == NULL)
	{
		pg_log_error("could not connect to put back the server's settings");
		ok = false;
	}
	/* last first: a name given twice gets back what it had before the first */
	for (int i = state->applied.n - 1; *conn != NULL && i >= 0; i--)
		if (!alter_system(*conn, state->applied.names[i], state->previous[i]))
			ok = false;
	if (!ok)
	{
		pg_log_error("the server's settings were not all put back");
		pg_log_error_hint("Check postgresql.auto.conf in the server's data directory.");
		return false;
	}
	return restart_server(conn, target, command);
}
