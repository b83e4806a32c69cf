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
 * So that the settings come back even when the client is killed, a
 * pending-restore file is written durably (temporary file, fsync, rename,
 * fsync of the directory) before the first ALTER SYSTEM: it names the
 * server (its system identifier, and the host and port as connected), the
 * server's start time then, the restart command, and each parameter with
 * the value it is set to and the one postgresql.auto.conf held before (or
 * none).  It is removed, durably, once everything is put back.  The client
 * that wrote it holds an flock() on it while it lives, so that another
 * client leaves it alone; a file that nobody holds is left by a client
 * that was killed, and the next client run against that server (or
 * polarbench --restore) puts its settings back before anything else.  A
 * restart goes with it only when the server was started since the file was
 * written: otherwise it still runs with the values from before.
 *
 * The files live in $POLARBENCH_STATE_DIR, or $XDG_STATE_HOME/polarbench,
 * or ~/.local/state/polarbench, created with mode 0700.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/file_utils.h"
#include "common/logging.h"

#include "polarbench.h"

/* how long to wait for the server to accept connections after a restart */
#define RESTART_WAIT_SECONDS	120

/* the pending-restore files: their names, and their first line */
#define PENDING_PREFIX		"pending-restore-"
#define PENDING_HEADER		"polarbench pending restore"
#define PENDING_VERSION		"1"

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
	res = exec_query(conn, 0, sql.data, 0, NULL);
	ok = PQresultStatus(res) == PGRES_COMMAND_OK;
	if (!ok)
		report_server_error(conn, res);
	PQclear(res);
	termPQExpBuffer(&sql);
	free(q);
	return ok;
}

/*
 * server_start_time
 *		When the server started, in seconds since 1970, malloc'd; NULL on
 *		error (reported).
 */
static char *
server_start_time(PGconn *conn)
{
	/* as a number: the same text whatever the session's time zone */
	return single_value(conn, "SELECT EXTRACT(EPOCH FROM pg_catalog.pg_postmaster_start_time())",
						0, NULL);
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
	char	   *started = server_start_time(*conn);
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
	restarted = server_start_time(*conn);
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
 * restart_state_free
 *		Free what a RestartState holds, close its lock, and reset it.
 */
static void
restart_state_free(RestartState *state)
{
	if (state->pending_file != NULL)
		close(state->lock_fd);
	for (int i = 0; i < state->settings.n; i++)
	{
		free(state->settings.names[i]);
		free(state->settings.values[i]);
		if (state->previous != NULL)
			free(state->previous[i]);
	}
	free(state->previous);
	free(state->settings.names);
	free(state->settings.values);
	free(state->command);
	free(state->start_time);
	free(state->system_identifier);
	free(state->host);
	free(state->port);
	free(state->pending_dir);
	free(state->pending_file);
	memset(state, 0, sizeof(*state));
}

/*
 * auto_conf_value
 *		What postgresql.auto.conf holds for a parameter, malloc'd, in *value
 *		(NULL: nothing).  Returns false on error (reported).
 */
static bool
auto_conf_value(PGconn *conn, const char *name, char **value)
{
	const char *params[1] = {name};
	PGresult   *res = exec_query(conn, 0,
								 "SELECT setting FROM pg_catalog.pg_file_settings"
								 " WHERE name OPERATOR(pg_catalog.=) pg_catalog.lower($1::pg_catalog.text)"
								 "   AND sourcefile OPERATOR(pg_catalog.~~) '%/postgresql.auto.conf'"
								 " ORDER BY seqno DESC LIMIT 1",
								 1, params);

	*value = NULL;
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		report_server_error(conn, res);
		PQclear(res);
		return false;
	}
	if (PQntuples(res) == 1 && !PQgetisnull(res, 0, 0))
		*value = pg_strdup(PQgetvalue(res, 0, 0));
	PQclear(res);
	return true;
}

/*
 * same_value
 *		Whether two values of postgresql.auto.conf are the same setting,
 *		NULL (none) only like NULL: compared without their blanks and
 *		double quotes, which ALTER SYSTEM adds to the elements of a list.
 */
static bool
same_value(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	for (;;)
	{
		while (*a == ' ' || *a == '"')
			a++;
		while (*b == ' ' || *b == '"')
			b++;
		if (*a != *b)
			return false;
		if (*a == '\0')
			return true;
		a++;
		b++;
	}
}

/*
 * server_identifier
 *		The server's system identifier, malloc'd; NULL on error (reported).
 */
static char *
server_identifier(PGconn *conn)
{
	return single_value(conn, "SELECT system_identifier FROM pg_catalog.pg_control_system()",
						0, NULL);
}

/*
 * state_directory
 *		Where the client keeps its pending-restore files, malloc'd:
 *		$POLARBENCH_STATE_DIR, $XDG_STATE_HOME/polarbench or
 *		~/.local/state/polarbench.  NULL when there is no home (reported
 *		if report).
 */
static char *
state_directory(bool report)
{
	const char *dir = getenv("POLARBENCH_STATE_DIR");
	char		home[MAXPGPATH];

	if (dir != NULL && dir[0] != '\0')
		return pg_strdup(dir);
	/* the XDG specification ignores a relative path */
	dir = getenv("XDG_STATE_HOME");
	if (dir != NULL && is_absolute_path(dir))
		return psprintf("%s/polarbench", dir);
	if (get_home_path(home) && home[0] != '\0')
		return psprintf("%s/.local/state/polarbench", home);
	if (!report)
		return NULL;
	pg_log_error("could not find the home directory, to keep the settings to put back");
	pg_log_error_hint("Set POLARBENCH_STATE_DIR to a directory of your own.");
	return NULL;
}

/*
 * make_directory
 *		Create dir and the directories above it that are missing, each with
 *		mode 0700.  Returns false on error (reported).
 */
static bool
make_directory(const char *dir)
{
	char	   *path = pg_strdup(dir);

	for (char *p = path + 1;; p++)
	{
		if (*p != '/' && *p != '\0')
			continue;
		if (p[-1] != '/')
		{
			char		c = *p;

			*p = '\0';
			if (mkdir(path, S_IRWXU) == 0)
			{
				/* a new directory lasts as the files in it do */
				if (fsync_parent_path(path) != 0)
				{
					free(path);
					return false;
				}
			}
			else if (errno != EEXIST)
			{
				pg_log_error("could not create directory \"%s\": %m", path);
				free(path);
				return false;
			}
			*p = c;
		}
		if (*p == '\0')
			break;
	}
	free(path);
	return true;
}

/*
 * append_field
 *		Append a line "key<TAB>value" to a pending-restore file's text, the
 *		value's backslashes, tabs and line breaks escaped.
 */
static void
append_field(PQExpBuffer buf, const char *key, const char *value)
{
	appendPQExpBuffer(buf, "%s\t", key);
	for (const char *p = value; *p; p++)
	{
		switch (*p)
		{
			case '\\':
				appendPQExpBufferStr(buf, "\\\\");
				break;
			case '\t':
				appendPQExpBufferStr(buf, "\\t");
				break;
			case '\n':
				appendPQExpBufferStr(buf, "\\n");
				break;
			case '\r':
				appendPQExpBufferStr(buf, "\\r");
				break;
			default:
				appendPQExpBufferChar(buf, *p);
		}
	}
	appendPQExpBufferChar(buf, '\n');
}

/*
 * unescape_field
 *		A value of a pending-restore file as it was, in place.
 */
static void
unescape_field(char *value)
{
	char	   *out = value;

	for (char *p = value; *p; p++)
	{
		if (*p == '\\' && p[1] != '\0')
		{
			p++;
			*out++ = *p == 't' ? '\t' : *p == 'n' ? '\n' : *p == 'r' ? '\r' : *p;
		}
		else
			*out++ = *p;
	}
	*out = '\0';
}

/*
 * pending_file_name
 *		The pending-restore file of a server, in dir: its system
 *		identifier, port and host, with what a file name should not hold
 *		replaced.  The file's contents name the server exactly.
 */
static char *
pending_file_name(const char *dir, const char *sysid, const char *host,
				  const char *port)
{
	PQExpBufferData buf;

	initPQExpBuffer(&buf);
	appendPQExpBuffer(&buf, "%s/" PENDING_PREFIX "%s-%s-", dir, sysid, port);
	for (const char *p = host; *p && p - host < 64; p++)
		appendPQExpBufferChar(&buf, isalnum((unsigned char) *p) || *p == '.' || *p == '-' ? *p : '_');
	return buf.data;
}

/*
 * write_pending
 *		Write state's pending-restore file durably, and keep it locked in
 *		state->lock_fd as long as the client lives or until it is removed.
 *		Refuses (reported) when the server has one already.
 */
static bool
write_pending(RestartState *state)
{
	PQExpBufferData buf;
	char	   *tmp;
	int			fd;
	char		pid[32];

	if ((state->pending_dir = state_directory(true)) == NULL ||
		!make_directory(state->pending_dir))
		return false;
	state->pending_file = pending_file_name(state->pending_dir, state->system_identifier,
											state->host, state->port);
	if (access(state->pending_file, F_OK) == 0)
	{
		pg_log_error("settings of another run with --restart-command are pending for this server");
		pg_log_error_detail("They are recorded in \"%s\".", state->pending_file);
		pg_log_error_hint("If no other %s is running, \"%s --restore\" puts them back.",
						  progname, progname);
		free(state->pending_file);
		state->pending_file = NULL;
		return false;
	}

	snprintf(pid, sizeof(pid), "%d", (int) getpid());
	initPQExpBuffer(&buf);
	append_field(&buf, PENDING_HEADER, PENDING_VERSION);
	append_field(&buf, "system_identifier", state->system_identifier);
	append_field(&buf, "host", state->host);
	append_field(&buf, "port", state->port);
	append_field(&buf, "start_time", state->start_time);
	append_field(&buf, "restart_command", state->command);
	append_field(&buf, "pid", pid);
	for (int i = 0; i < state->settings.n; i++)
	{
		append_field(&buf, "setting", state->settings.names[i]);
		append_field(&buf, "value", state->settings.values[i]);
		if (state->previous[i] != NULL)
			append_field(&buf, "previous", state->previous[i]);
		else
			append_field(&buf, "no_previous", "");
	}
	if (PQExpBufferBroken(&buf))
		pg_fatal("out of memory");

	/* not inherited by the restart command, nor by the server it starts */
	tmp = psprintf("%s.tmp", state->pending_file);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, S_IRUSR | S_IWUSR);
	if (fd < 0)
	{
		pg_log_error("could not create file \"%s\": %m", tmp);
		goto fail;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0)
	{
		pg_log_error("could not lock file \"%s\": %m", tmp);
		goto fail;
	}
	errno = 0;
	if (write(fd, buf.data, buf.len) != buf.len)
	{
		if (errno == 0)
			errno = ENOSPC;
		pg_log_error("could not write file \"%s\": %m", tmp);
		goto fail;
	}
	if (fsync(fd) != 0)
	{
		pg_log_error("could not fsync file \"%s\": %m", tmp);
		goto fail;
	}
	/* fsyncs the file again under its name, and the directory */
	if (durable_rename(tmp, state->pending_file) != 0)
		goto fail;
	state->lock_fd = fd;
	termPQExpBuffer(&buf);
	free(tmp);
	return true;

fail:
	if (fd >= 0)
	{
		close(fd);
		unlink(tmp);
	}
	termPQExpBuffer(&buf);
	free(tmp);
	free(state->pending_file);
	state->pending_file = NULL;
	return false;
}

/*
 * remove_pending
 *		Remove state's pending-restore file durably, and let go of it.
 *		Returns false on error (reported).
 */
static bool
remove_pending(RestartState *state)
{
	bool		ok = true;

	if (state->pending_file == NULL)
		return true;
	if (unlink(state->pending_file) != 0 && errno != ENOENT)
	{
		pg_log_error("could not remove file \"%s\": %m", state->pending_file);
		ok = false;
	}
	else if (fsync_fname(state->pending_dir, true) != 0)
		ok = false;
	close(state->lock_fd);
	free(state->pending_file);
	state->pending_file = NULL;
	return ok;
}

/*
 * restart_apply
 *		Write settings with ALTER SYSTEM, keeping what postgresql.auto.conf
 *		held for each, restart the server with command and check that every
 *		one took effect.  Before the first is written, the pending-restore
 *		file records what to put back; state is active from then on, even
 *		when this fails, until restart_restore().
 */
bool
restart_apply(PGconn **conn, const ConnTarget *target, const char *command,
			  const SettingSet *settings, RestartState *state)
{
	int			n = settings->n;

	memset(state, 0, sizeof(*state));
	state->command = pg_strdup(command);
	state->settings.names = pg_malloc0(sizeof(char *) * Max(n, 1));
	state->settings.values = pg_malloc0(sizeof(char *) * Max(n, 1));
	state->previous = pg_malloc0(sizeof(char *) * Max(n, 1));
	state->settings.n = n;
	for (int i = 0; i < n; i++)
	{
		state->settings.names[i] = pg_strdup(settings->names[i]);
		state->settings.values[i] = pg_strdup(settings->values[i]);
	}

	/* what to put back, and on which server, before anything changes */
	state->host = pg_strdup(PQhost(*conn) ? PQhost(*conn) : "");
	state->port = pg_strdup(PQport(*conn) ? PQport(*conn) : "");
	if ((state->system_identifier = server_identifier(*conn)) == NULL ||
		(state->start_time = server_start_time(*conn)) == NULL)
		return false;
	for (int i = 0; i < n; i++)
		if (!auto_conf_value(*conn, settings->names[i], &state->previous[i]))
			return false;
	if (!write_pending(state))
		return false;
	state->active = true;
	defer_stop(true);

	for (int i = 0; i < n; i++)
	{
		if (!alter_system(*conn, settings->names[i], settings->values[i]))
			return false;
		state->napplied = i + 1;
	}
	if (!restart_server(conn, target, command))
		return false;
	for (int i = 0; i < n; i++)
	{
		const char *params[1] = {settings->names[i]};
		char	   *pending = single_value(*conn,
										   "SELECT NOT pending_restart"
										   "   AND sourcefile OPERATOR(pg_catalog.~~) '%/postgresql.auto.conf'"
										   "  FROM pg_catalog.pg_settings"
										   " WHERE name OPERATOR(pg_catalog.=) pg_catalog.lower($1::pg_catalog.text)",
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
 *		applied (every one that can be, in reverse order), restart the
 *		server for it if it was started since state recorded them, and
 *		remove the pending-restore file.  Returns false on error (reported);
 *		the file then stays, for polarbench --restore.
 */
bool
restart_restore(PGconn **conn, const ConnTarget *target, RestartState *state)
{
	bool		ok = true;
	char	   *started = NULL;

	if (!state->active)
	{
		restart_state_free(state);
		return true;
	}
	state->active = false;
	if (*conn == NULL && (*conn = connect_target(target, false)) == NULL)
	{
		pg_log_error("could not connect to put back the server's settings");
		ok = false;
	}
	/* last first: a name given twice gets back what it had before the first */
	for (int i = state->napplied - 1; *conn != NULL && i >= 0; i--)
		if (!alter_system(*conn, state->settings.names[i], state->previous[i]))
			ok = false;
	if (!ok)
	{
		pg_log_error("the server's settings were not all put back");
		pg_log_error_hint("Check postgresql.auto.conf in the server's data directory; \"%s --restore\" tries again.",
						  progname);
	}

	/*
	 * A server that has not been started since the settings were read still
	 * runs with the values put back: no restart.
	 */
	if (ok && (started = server_start_time(*conn)) == NULL)
		ok = false;
	if (ok && strcmp(started, state->start_time) != 0 &&
		!restart_server(conn, target, state->command))
	{
		pg_log_error_hint("\"%s --restore\" tries again.", progname);
		ok = false;
	}
	if (ok && !remove_pending(state))
		ok = false;
	free(started);
	restart_state_free(state);
	defer_stop(false);
	return ok;
}

/*
 * read_pending
 *		Read a pending-restore file, open as fd, into state (settings,
 *		previous values, the server, its start time and restart command).
 *		Returns false, with a warning, for a file that is not one.
 */
static bool
read_pending(int fd, const char *path, RestartState *state)
{
	PQExpBufferData buf;
	char		block[8192];
	ssize_t		n;
	char	   *line;
	char	   *next;
	bool		header = false;
	bool		ok;
	int			space = 0;

	initPQExpBuffer(&buf);
	while ((n = read(fd, block, sizeof(block))) > 0)
		appendBinaryPQExpBuffer(&buf, block, n);
	if (n < 0)
	{
		pg_log_warning("could not read file \"%s\": %m", path);
		termPQExpBuffer(&buf);
		return false;
	}
	for (line = buf.data; *line; line = next)
	{
		char	   *value = strchr(line, '\t');
		SettingSet *set = &state->settings;

		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		if (next[-1] == '\n')
			next[-1] = '\0';
		if (value == NULL)
			continue;
		*value++ = '\0';
		unescape_field(value);
		if (strcmp(line, PENDING_HEADER) == 0)
			header = strcmp(value, PENDING_VERSION) == 0;
		else if (strcmp(line, "system_identifier") == 0)
			state->system_identifier = pg_strdup(value);
		else if (strcmp(line, "host") == 0)
			state->host = pg_strdup(value);
		else if (strcmp(line, "port") == 0)
			state->port = pg_strdup(value);
		else if (strcmp(line, "start_time") == 0)
			state->start_time = pg_strdup(value);
		else if (strcmp(line, "restart_command") == 0)
			state->command = pg_strdup(value);
		else if (strcmp(line, "setting") == 0)
		{
			if (set->n == space)
			{
				space = Max(8, space * 2);
				set->names = pg_realloc(set->names, sizeof(char *) * space);
				set->values = pg_realloc(set->values, sizeof(char *) * space);
				state->previous = pg_realloc(state->previous, sizeof(char *) * space);
			}
			set->names[set->n] = pg_strdup(value);
			set->values[set->n] = NULL;
			state->previous[set->n] = NULL;
			set->n++;
		}
		else if (strcmp(line, "value") == 0 && set->n > 0)
			set->values[set->n - 1] = pg_strdup(value);
		else if (strcmp(line, "previous") == 0 && set->n > 0)
			state->previous[set->n - 1] = pg_strdup(value);
	}
	termPQExpBuffer(&buf);
	ok = header && state->system_identifier != NULL && state->host != NULL &&
		state->port != NULL && state->start_time != NULL && state->command != NULL;
	for (int i = 0; ok && i < state->settings.n; i++)
		ok = state->settings.values[i] != NULL;
	if (!ok)
		pg_log_warning("file \"%s\" is not a pending restore of %s: left alone",
					   path, progname);
	return ok;
}

/*
 * describe_value
 *		A value put back, for the warning: quoted, or "reset".
 */
static void
describe_value(PQExpBuffer buf, const char *name, const char *value)
{
	appendPQExpBuffer(buf, "%s%s", buf->len > 0 ? ", " : "", name);
	if (value != NULL)
		appendPQExpBuffer(buf, " = '%s'", value);
	else
		appendPQExpBufferStr(buf, " reset");
}

/*
 * restore_one
 *		Put back the settings of the pending-restore file path, read into
 *		file and locked as fd (which this closes), for the server of *conn:
 *		those postgresql.auto.conf still holds as the interrupted run set
 *		them, with its restart command if the server was started since; and
 *		say what was put back.  Returns false on error (reported).
 */
static bool
restore_one(PGconn **conn, const ConnTarget *target, RestartState *file,
			const char *dir, const char *path, int fd)
{
	RestartState back;
	PQExpBufferData what;
	char	   *command = pg_strdup(file->command);
	bool		ok;

	memset(&back, 0, sizeof(back));
	back.lock_fd = fd;
	back.pending_dir = pg_strdup(dir);
	back.pending_file = pg_strdup(path);
	back.command = pg_strdup(file->command);
	back.start_time = pg_strdup(file->start_time);
	back.settings.names = pg_malloc0(sizeof(char *) * Max(file->settings.n, 1));
	back.settings.values = pg_malloc0(sizeof(char *) * Max(file->settings.n, 1));
	back.previous = pg_malloc0(sizeof(char *) * Max(file->settings.n, 1));
	initPQExpBuffer(&what);

	/* what the interrupted run may have left: the file's settings in order */
	for (int i = 0; i < file->settings.n; i++)
	{
		char	   *now;

		bool		later = false;

		/* a name given several times: its last value is the one set */
		for (int j = i + 1; j < file->settings.n; j++)
			later |= strcmp(file->settings.names[j], file->settings.names[i]) == 0;
		if (later)
			continue;
		if (!auto_conf_value(*conn, file->settings.names[i], &now))
		{
			free(command);
			termPQExpBuffer(&what);
			restart_state_free(&back);
			return false;
		}
		if (same_value(now, file->settings.values[i]) &&
			!same_value(now, file->previous[i]))
		{
			int			k = back.settings.n++;

			back.settings.names[k] = pg_strdup(file->settings.names[i]);
			back.settings.values[k] = pg_strdup(file->settings.values[i]);
			back.previous[k] = file->previous[i] ? pg_strdup(file->previous[i]) : NULL;
		}
		else if (!same_value(now, file->previous[i]))
			pg_log_warning("parameter \"%s\" was changed to '%s' since an interrupted run set it to '%s': left as it is",
						   file->settings.names[i], now ? now : "", file->settings.values[i]);
		free(now);
	}
	for (int k = 0; k < back.settings.n; k++)
		describe_value(&what, back.settings.names[k], back.previous[k]);
	back.napplied = back.settings.n;
	back.active = true;
	defer_stop(true);
	ok = restart_restore(conn, target, &back);
	if (ok && what.len > 0)
	{
		pg_log_warning("put back server settings that an interrupted run with --restart-command changed: %s",
					   what.data);
		pg_log_warning_detail("The restart command was: %s", command);
	}
	else if (ok)
		pg_log_warning("removed the record of an interrupted run with --restart-command: the server's settings were as before");
	free(command);
	termPQExpBuffer(&what);
	return ok;
}

/*
 * restore_pending
 *		Before anything else: if a client that was killed left settings
 *		changed on the server of *conn (a pending-restore file with its
 *		system identifier, host and port), put them back, restarting the
 *		server with the command it recorded if needed, and say so.
 *		Returns how many such files were restored, or -1 on error
 *		(reported).  *held, if not NULL, tells whether a running client
 *		holds one for this server.
 */
int
restore_pending(PGconn **conn, const ConnTarget *target, bool *held)
{
	char	   *dir;
	DIR		   *d;
	struct dirent *de;
	char	   *sysid = NULL;
	const char *host = PQhost(*conn) ? PQhost(*conn) : "";
	const char *port = PQport(*conn) ? PQport(*conn) : "";
	int			restored = 0;

	if (held != NULL)
		*held = false;
	/* without a home, nothing can have been recorded */
	if ((dir = state_directory(false)) == NULL)
		return 0;
	if ((d = opendir(dir)) == NULL)
	{
		if (errno != ENOENT)
			pg_log_warning("could not open directory \"%s\", which would name settings to put back: %m",
						   dir);
		free(dir);
		return 0;
	}
	while (restored >= 0 && (errno = 0, de = readdir(d)) != NULL)
	{
		size_t		len = strlen(de->d_name);
		char	   *path;
		RestartState file;
		int			fd;
		struct stat by_name;
		struct stat by_fd;

		if (strncmp(de->d_name, PENDING_PREFIX, strlen(PENDING_PREFIX)) != 0 ||
			(len > 4 && strcmp(de->d_name + len - 4, ".tmp") == 0))
			continue;
		path = psprintf("%s/%s", dir, de->d_name);
		memset(&file, 0, sizeof(file));
		fd = open(path, O_RDONLY | O_CLOEXEC, 0);
		if (fd < 0)
		{
			if (errno != ENOENT)
				pg_log_warning("could not open file \"%s\": %m", path);
			free(path);
			continue;
		}
		if (!read_pending(fd, path, &file))
			;					/* not one of ours: said so */
		else if (strcmp(file.host, host) != 0 || strcmp(file.port, port) != 0)
			;					/* another server's */
		else if (sysid == NULL && (sysid = server_identifier(*conn)) == NULL)
			restored = -1;
		else if (strcmp(file.system_identifier, sysid) != 0)
			;					/* another server, on that port once */
		else if (flock(fd, LOCK_EX | LOCK_NB) != 0)
		{
			if (errno != EWOULDBLOCK)
			{
				pg_log_error("could not lock file \"%s\": %m", path);
				restored = -1;
			}
			else
			{
				pg_log_warning("another %s is running with settings of server %s:%s that it puts back when it ends",
							   progname, host, port);
				pg_log_warning_detail("They are recorded in \"%s\".", path);
				if (held != NULL)
					*held = true;
			}
		}
		else if (stat(path, &by_name) != 0 || fstat(fd, &by_fd) != 0 ||
				 by_name.st_ino != by_fd.st_ino || by_name.st_dev != by_fd.st_dev)
			;					/* put back by its own client meanwhile */
		else if (restore_one(conn, target, &file, dir, path, fd))
		{
			fd = -1;			/* closed with the file's removal */
			restored++;
		}
		else
		{
			fd = -1;
			restored = -1;
		}
		if (fd >= 0)
			close(fd);
		restart_state_free(&file);
		free(path);
	}
	if (restored >= 0 && errno != 0)
	{
		pg_log_error("could not read directory \"%s\": %m", dir);
		restored = -1;
	}
	closedir(d);
	free(dir);
	free(sysid);
	return restored;
}
