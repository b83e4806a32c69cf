/*-------------------------------------------------------------------------
 *
 * polarbench.c
 *	  The polarbench command-line program: pgbench's options and output for
 *	  benchmarks whose clients run inside the server.
 *
 * main() reads the command line (options.c), which checks custom scripts
 * with the same script library the server uses, so that a syntax error is
 * reported with its file and line before anything is sent; then it does
 * what the command asks: polarbench_init() for -i (the data set -b names,
 * with its arguments as the server lists them), the lists of --list
 * (catalog.c), --restore (restart.c), a comparison of runs (compare.c), a
 * sweep (sweep.c), a run on several nodes (nodes.c), or one run, printed
 * in the style of the workload's tool or of --report.  Progress arrives as
 * NOTICE messages already in the tool's words and goes to stderr as it
 * comes.  Ctrl-C or SIGTERM sends a cancel request, which the server
 * records as a canceled run.
 *
 * Every value reaches the server as a query parameter, never pasted into
 * SQL text, and every query runs with the search_path pinned (see
 * connection.c).
 *
 * Settings that a killed client left changed with --restart-command are put
 * back before anything else, on the next run against that server or with
 * --restore (restart.c).
 *
 * Exit status: 0 on success, 1 for errors in the invocation (options,
 * scripts, connection, arguments the server refuses), 2 when a run started
 * but failed or was canceled, as pgbench exits 2 when a run is aborted, or
 * when settings could not be put back.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include "common/logging.h"
#include "libpq-fe.h"
#include "pqexpbuffer.h"

#include "polarbench.h"

/*
 * run_init
 *		-i: create and fill the tables of the data set -b names (pgbench's
 *		by default) with polarbench_init(), with the arguments given for
 *		it, and its progress lines on stderr as pgbench -i prints them.
 */
static int
run_init(PGconn *conn, InitOptions *init)
{
	char		fillfactor[16],
				jobs[16],
				shard_count[16];
	const char **params;
	PQExpBufferData sql;
	PGresult   *res;
	int			n = 0;

	if (!ensure_extension(conn, true) || !resolve_dataset(conn, init))
		return 1;
	snprintf(fillfactor, sizeof(fillfactor), "%d", init->fillfactor);
	snprintf(jobs, sizeof(jobs), "%d", init->jobs);
	snprintf(shard_count, sizeof(shard_count), "%d", init->shard_count);
	params = pg_malloc(sizeof(char *) * (6 + init->ncall));
	params[n++] = init->dataset;
	params[n++] = fillfactor;
	params[n++] = init->unlogged ? "true" : "false";
	params[n++] = jobs;
	initPQExpBuffer(&sql);
	appendPQExpBufferStr(&sql,
						 "SELECT tables, rows, pg_catalog.pg_size_pretty(bytes), seconds, rows_per_second "
						 "FROM @extschema@.polarbench_init($1::pg_catalog.text, "
						 "fillfactor => $2::pg_catalog.int4, unlogged => $3::pg_catalog.bool, "
						 "parallel => $4::pg_catalog.int4, progress => true");
	/* --distributed, --shard-count: on a Citus coordinator */
	if (init->distributed)
	{
		params[n++] = "true";
		appendPQExpBuffer(&sql, ", distributed => $%d::pg_catalog.bool", n);
	}
	if (init->shard_count > 0)
	{
		params[n++] = shard_count;
		appendPQExpBuffer(&sql, ", shard_count => $%d::pg_catalog.int4", n);
	}
	/* the data set's own arguments, named and typed as the server says */
	for (int i = 0; i < init->ncall; i++)
	{
		char	   *ident = PQescapeIdentifier(conn, init->call[i].name,
											   strlen(init->call[i].name));

		if (ident == NULL)
		{
			pg_log_error("%s", PQerrorMessage(conn));
			return 1;
		}
		appendPQExpBuffer(&sql, ", %s => $%d::%s", ident, n + 1,
						  init->call[i].type);
		PQfreemem(ident);
		params[n++] = init->call[i].value;
	}
	appendPQExpBufferChar(&sql, ')');

	set_notice_mode(true, init->quiet, true);
	/* in the session's own search_path, which says where the tables go */
	res = exec_query(conn, PB_QUERY_USER_PATH | PB_QUERY_CANCELABLE, sql.data,
					 n, params);
	set_notice_mode(false, false, true);
	termPQExpBuffer(&sql);
	free(params);
	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1)
	{
		report_server_error(conn, res);
		PQclear(res);
		return 1;
	}
	fprintf(stderr, "done in %.2f s (%s tables, %s rows, %s, %.0f rows/s).\n",
			atof(PQgetvalue(res, 0, 3)), PQgetvalue(res, 0, 0),
			PQgetvalue(res, 0, 1), PQgetvalue(res, 0, 2),
			atof(PQgetvalue(res, 0, 4)));
	PQclear(res);
	return 0;
}

/*
 * report_failed_run
 *		After polarbench_run() failed: if a run was recorded for it, say
 *		how it ended and return 2 (the run was aborted); otherwise the
 *		server refused the arguments, return 1.  The run is the newest of
 *		the current role after the one seen before the call.
 */
static int
report_failed_run(PGconn *conn, const char *last_run_before, PGresult *error)
{
	const char *sqlstate = PQresultErrorField(error, PG_DIAG_SQLSTATE);
	const char *params[1] = {last_run_before};
	PGresult   *res;
	int			status = 1;

	if (PQstatus(conn) != CONNECTION_OK)
		return (sqlstate != NULL && strncmp(sqlstate, "57", 2) == 0) ? 2 : 1;
	res = exec_query(conn, 0,
					 "SELECT run_id, status FROM @extschema@.polarbench_runs"
					 " WHERE run_id OPERATOR(pg_catalog.>) $1::pg_catalog.int8"
					 "   AND run_by OPERATOR(pg_catalog.=) CURRENT_USER::pg_catalog.text"
					 " ORDER BY run_id DESC LIMIT 1",
					 1, params);
	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
	{
		fprintf(stderr, "Run %s was aborted; it is recorded as %s.\n",
				PQgetvalue(res, 0, 0), PQgetvalue(res, 0, 1));
		status = 2;
	}
	PQclear(res);
	return status;
}

/*
 * aborted_run_error
 *		If a run that returned was recorded aborted (a client aborted alone,
 *		with --exit_on_abort=false), the first abort's error as the record
 *		says it; NULL for a run that finished.
 */
static char *
aborted_run_error(PGconn *conn, const char *run_id)
{
	const char *params[1] = {run_id};

	return single_value(conn,
						"SELECT error_message FROM @extschema@.polarbench_runs"
						" WHERE run_id OPERATOR(pg_catalog.=) $1::pg_catalog.int8"
						"   AND status OPERATOR(pg_catalog.=) 'aborted'",
						1, params);
}

/*
 * run_and_report
 *		Run the polarbench_run() call sql, print the run's report and draw
 *		its chart.  Returns the exit status: 2 for a run some client of
 *		which aborted, which pgbench's words say before and after the
 *		report, as pgbench says them.
 */
static int
run_and_report(PGconn *conn, const ClientOptions *opts, const char *sql,
			   const ParamList *params, const char *last_run)
{
	PGresult   *res;
	ClientResult result;
	char	   *aborted;
	int			status;

	set_notice_mode(false, false, opts->progress > 0);
	res = exec_query(conn, PB_QUERY_USER_PATH | PB_QUERY_CANCELABLE, sql,
					 params->n, params->values);
	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1 ||
		!read_result(res, 0, &result))
	{
		report_server_error(conn, res);
		status = report_failed_run(conn, last_run, res);
		PQclear(res);
		return status;
	}
	PQclear(res);
	aborted = aborted_run_error(conn, result.run_id);
	if (aborted != NULL)
		pg_log_error("%s", aborted);
	status = print_run_report(conn, opts, &result);
	if (aborted != NULL)
	{
		pg_log_error("Run was aborted; the above results are incomplete.");
		if (status == 0)
			status = 2;
	}
	if (status == 0 && opts->svg != NULL &&
		!chart_run_progress(conn, opts->svg,
							opts->workload ? opts->workload->name :
							opts->nscripts == 1 ? opts->scripts[0].desc : "multiple scripts",
							result.run_id))
		status = 1;
	return status;
}

/*
 * run_benchmark
 *		Start the run, wait for its end and print its results: settings
 *		that take a restart applied first and put back after, pgbench's
 *		tables vacuumed as pgbench does.  Returns the exit status.
 */
static int
run_benchmark(PGconn *conn, const ConnTarget *target, const ClientOptions *opts)
{
	PQExpBufferData sql;
	ParamList	params = {0};
	char	   *last_run;
	SettingSet	session,
				server,
				restart;
	RestartState restart_state = {0};
	char	   *session_json;
	char	   *server_json;
	int			status = 0;

	if (!classify_settings(conn, &opts->settings, &session, &server, &restart))
		return 1;
	if (!check_restart_command(&restart, opts->restart_command))
		return 1;
	session_json = setting_set_json_or_null(&session);
	server_json = setting_set_json_or_null(&server);

	/* as pgbench, say what runs before it starts: here, the server */
	if (opts->report == NULL || (strcmp(opts->report, "json") != 0 &&
								 strcmp(opts->report, "csv") != 0))
		printf("%s (%s, server %s)\n", progname, POLARBENCH_VERSION,
			   PQparameterStatus(conn, "server_version"));
	fflush(stdout);

	if (restart.n > 0 &&
		!restart_apply(&conn, target, opts->restart_command, &restart, &restart_state))
	{
		restart_restore(&conn, target, &restart_state);
		return 1;
	}
	last_run = last_run_id(conn);
	if (last_run != NULL && !stop_was_requested())
		vacuum_tables(conn, opts);

	initPQExpBuffer(&sql);
	build_run_query(opts, &sql, &params, session_json, server_json);
	if (last_run == NULL || PQExpBufferBroken(&sql))
	{
		if (last_run != NULL)
			pg_log_error("out of memory");
		status = 1;
	}
	else if (stop_was_requested())
	{
		/* SIGINT or SIGTERM while the settings were applied: no run */
		fprintf(stderr, "The run was canceled before it started.\n");
		status = 2;
	}
	else
		status = run_and_report(conn, opts, sql.data, &params, last_run);
	termPQExpBuffer(&sql);
	if (!restart_restore(&conn, target, &restart_state) && status == 0)
		status = 1;
	PQfinish(conn);
	return status;
}

/*
 * run_restore
 *		--restore: put back, on every node, the settings that an
 *		interrupted run with --restart-command left changed, or say that
 *		none are.  Returns the exit status: 2 if some could not be put back.
 */
static int
run_restore(ConnTarget *targets, int ntargets)
{
	int			status = 0;

	for (int i = 0; i < ntargets; i++)
	{
		PGconn	   *conn = connect_target(&targets[i], true);
		bool		held;
		int			restored = restore_pending(&conn, &targets[i], &held);

		if (restored < 0)
			status = 2;
		else if (restored == 0 && !held)
			pg_log_info("no settings to put back on server %s:%s",
						PQhost(conn), PQport(conn));
		if (conn != NULL)
			PQfinish(conn);
	}
	return status;
}

/*
 * run_command
 *		Do what the command line asks of a database at one node or several.
 *		Returns the exit status.
 */
static int
run_command(ClientCommand *cmd)
{
	ClientOptions *opts = &cmd->run;
	PGconn	   *conn;
	int			status;

	switch (cmd->mode)
	{
		case PB_MODE_LIST_SCRIPTS:
			list_builtin_scripts(&cmd->targets[0]);
			return 0;
		case PB_MODE_RESTORE:
			return run_restore(cmd->targets, cmd->ntargets);
		case PB_MODE_LIST:
			conn = connect_target(&cmd->targets[0], true);
			if (!ensure_extension(conn, false))
				exit_nicely(conn, 1);
			status = list_catalog(conn, cmd->list_name);
			PQfinish(conn);
			return status;
		case PB_MODE_COMPARE:
			conn = connect_target(&cmd->targets[0], true);
			if (!ensure_extension(conn, false))
				exit_nicely(conn, 1);
			status = run_compare(conn, opts);
			PQfinish(conn);
			return status;
		case PB_MODE_INIT:
		case PB_MODE_RUN:
			break;
	}
	if (cmd->ntargets > 1)
		return run_on_nodes(cmd->targets, cmd->ntargets, opts);

	conn = connect_target(&cmd->targets[0], true);
	/* settings a killed client left changed come back before anything */
	if (restore_pending(&conn, &cmd->targets[0], NULL) < 0)
		exit_nicely(conn, 2);
	if (cmd->mode == PB_MODE_INIT)
	{
		status = run_init(conn, &cmd->init);
		PQfinish(conn);
		return status;
	}
	if (!ensure_extension(conn, false) || !resolve_workload(conn, opts) ||
		!check_report_style(conn, opts))
		exit_nicely(conn, 1);
	if (opts->nclient_counts > 1 || opts->nsets > 0 || opts->repeat > 1)
		return run_sweep(conn, &cmd->targets[0], opts);
	return run_benchmark(conn, &cmd->targets[0], opts);
}

/*
 * main
 *		Read the command line, then do what it asks.
 */
int
main(int argc, char **argv)
{
	ClientCommand cmd;

	pg_logging_init(argv[0]);
	progname = get_progname(argv[0]);
	parse_command_line(argc, argv, &cmd);
	return run_command(&cmd);
}
