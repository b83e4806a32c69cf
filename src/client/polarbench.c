/*-------------------------------------------------------------------------
 *
 * polarbench.c
 *	  The polarbench command-line client: pgbench's options and output for
 *	  benchmarks whose clients run inside the server.
 *
 * The client reads the command line as pgbench would, checks custom
 * scripts with the same script library the server uses (so that a syntax
 * error is reported with its file and line before anything is sent), then
 * calls polarbench_init() or polarbench_run() and prints the result as
 * pgbench prints its own, or in the style --report asks for; several
 * client counts or setting sets make a sweep (sweep.c), several hosts a
 * run on every node (nodes.c).  Progress arrives as NOTICE messages already in
 * pgbench's words and goes to stderr as it comes.  Ctrl-C or SIGTERM sends
 * a cancel request, which the server records as a canceled run.
 *
 * Every value reaches the server as a query parameter, never pasted into
 * SQL text, and every query runs with the search_path pinned (see
 * client_conn.c).
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
 * calls: client_conn.c, run_query.c, report.c, chart.c, setup.c, restart.c,
 * sweep.c, nodes.c; of the script library, script_set.c, builtin_scripts.c,
 * script_parse.c, script_check.c; of the workload library,
 * workload_options.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include <limits.h>
#include <math.h>
#include <signal.h>

#include "common/logging.h"
#include "fe_utils/cancel.h"
#include "fe_utils/option_utils.h"
#include "getopt_long.h"
#include "libpq-fe.h"
#include "pqexpbuffer.h"

#include "pb_script.h"
#include "polarbench_client.h"

/* files given with -f, kept apart until the built-ins are known */
static ClientScript *file_scripts = NULL;
static int	nfile_scripts = 0;

/*
 * usage
 *		Print the --help text.
 */
static void
usage(void)
{
	printf("%s runs pgbench's benchmarks with clients inside the PostgreSQL server.\n\n",
		   progname);
	printf("Usage:\n"
		   "  %s [OPTION]... [DBNAME]\n"
		   "\nInitialization options:\n"
		   "  -i, --initialize         invokes initialization mode (polarbench_init)\n"
		   "  -F, --fillfactor=NUM     set fill factor\n"
		   "  -j, --jobs=NUM           number of loader workers (default: 1)\n"
		   "  -q, --quiet              quiet logging (one message each 5 seconds)\n"
		   "  -s, --scale=NUM          scaling factor\n"
		   "  --foreign-keys           create foreign key constraints between tables\n"
		   "  --partition-method=(range|hash)\n"
		   "                           partition pgbench_accounts with this method (default: range)\n"
		   "  --partitions=NUM         partition pgbench_accounts into NUM parts (default: 0)\n"
		   "  --unlogged-tables        create tables as unlogged tables\n"
		   "\nOptions to select what to run:\n"
		   "  -b, --builtin=NAME[@W]   add builtin script NAME weighted at W (default: 1)\n"
		   "                           (use \"-b list\" to list available scripts)\n"
		   "  -b oltp_read_write ...   run a sysbench OLTP workload, or a YCSB one (ycsb-a\n"
		   "                           .. ycsb-f, ycsb-load), with its tool's options as\n"
		   "                           --NAME=VALUE (--tables=64, --table-size=25000,\n"
		   "                           --rand-type=uniform, --readproportion=0.5, ...)\n"
		   "  -f, --file=FILENAME[@W]  add script FILENAME weighted at W (default: 1)\n"
		   "  -N, --skip-some-updates  skip updates of pgbench_tellers and pgbench_branches\n"
		   "                           (same as \"-b simple-update\")\n"
		   "  -S, --select-only        perform SELECT-only transactions\n"
		   "                           (same as \"-b select-only\")\n"
		   "\nBenchmarking options:\n"
		   "  -c, --client=NUM[,...]  number of concurrent database clients (default: 1);\n"
		   "                           each client is a background worker in the server\n"
		   "                           (also --threads=NUM, as sysbench); several counts\n"
		   "                           make a sweep\n"
		   "  -D, --define=VARNAME=VALUE\n"
		   "                           define variable for use by custom script\n"
		   "  -j, --jobs=NUM           accepted for pgbench compatibility (every client\n"
		   "                           is a worker of its own)\n"
		   "  -L, --latency-limit=NUM  count transactions lasting more than NUM ms as late\n"
		   "  -n, --no-vacuum          do not run VACUUM before tests\n"
		   "  -P, --progress=NUM       show thread progress report every NUM seconds\n"
		   "                           (also --report-interval=NUM, as sysbench)\n"
		   "  -r, --report-per-command report latencies, failures, and retries per command\n"
		   "  -R, --rate=NUM           target rate in transactions per second\n"
		   "  -s, --scale=NUM          scale for :scale in custom scripts\n"
		   "  -t, --transactions=NUM   number of transactions each client runs (default: 10)\n"
		   "  -T, --time=NUM           duration of benchmark test in seconds\n"
		   "  -v, --vacuum-all         vacuum all four standard tables before tests\n"
		   "  --failures-detailed      report the failures grouped by basic types\n"
		   "  --max-tries=NUM          max number of tries to run transaction (default: 1)\n"
		   "  --random-seed=SEED       set random seed (\"time\", \"rand\", integer)\n"
		   "  --settings=NAME=VALUE    a setting for the run, in every client (or, for one\n"
		   "                           that a reload or a restart changes, in the server)\n"
		   "  --warmup=NUM             run NUM seconds before measuring\n"
		   "\nSweeps, reports and charts:\n"
		   "  --set=NAME=VALUE[,...]   a setting set of a sweep: every client count of -c\n"
		   "                           runs with each --set given\n"
		   "  --repeat=NUM             run every combination of a sweep NUM times\n"
		   "  --restart-command=CMD    command that restarts the server, to apply settings\n"
		   "                           that take a restart (shared_buffers, ...); they are\n"
		   "                           put back, with another restart, at the end\n"
		   "  --restore                put back the settings that an interrupted run with\n"
		   "                           --restart-command left changed, then exit (any run\n"
		   "                           against the server does so first)\n"
		   "  --report=STYLE           pgbench, sysbench, ycsb, json or csv (default: the\n"
		   "                           workload's tool)\n"
		   "  --svg=FILE               draw the run's progress, or the sweep, as SVG\n"
		   "\nCommon options:\n"
		   "  -d, --dbname=DBNAME      database name to connect to\n"
		   "  -h, --host=HOSTNAME[,...]\n"
		   "                           database server host or socket directory; with\n"
		   "                           several, the run goes to every node at once\n"
		   "                           (read-only workloads to hot standbys too)\n"
		   "  -p, --port=PORT[,...]    database server port number, or one per host\n"
		   "  -U, --username=USERNAME  connect as specified database user\n"
		   "  -V, --version            output version information, then exit\n"
		   "  -?, --help               show this help, then exit\n"
		   "\n\"%s -i\" creates the polarbench extension in the database if it is missing.\n",
		   progname, progname);
}

/*
 * parse_weight
 *		Split "name@weight" as pgbench does: the weight follows the last '@'.
 *		Returns the weight (1 when none is given) and cuts it off the name;
 *		exits on a bad weight.
 */
static int
parse_weight(char *option)
{
	char	   *sep = strrchr(option, '@');
	int			weight;
	PbError		err;

	if (sep == NULL)
		return 1;
	if (!pb_parse_weight(sep, &weight, &err))
	{
		pg_log_error("%s", err.message);
		exit(1);
	}
	*sep = '\0';
	return weight;
}

/*
 * list_builtins
 *		Print the names of the built-in scripts to stderr, as pgbench does.
 */
static void
list_builtins(void)
{
	fprintf(stderr, "Available builtin scripts:\n");
	for (int i = 0; i < pb_builtin_count(); i++)
		fprintf(stderr, "  %13s\n", pb_builtin_name(i));
	fprintf(stderr, "\nAvailable sysbench and YCSB workloads:\n");
	for (int i = 0; i < pb_workload_count(); i++)
		fprintf(stderr, "  %21s  %s\n", pb_workload_at(i)->name,
				pb_workload_at(i)->description);
	fprintf(stderr, "\n");
}

/*
 * add_builtin
 *		Add the built-in script an -b argument names, by unique prefix.
 *		Exits when the name matches no script or several.
 */
static void
add_builtin(ClientOptions *opts, const char *arg)
{
	char	   *name = pg_strdup(arg);
	int			weight = parse_weight(name);
	const char *canonical = NULL;
	int			found = pb_builtin_matches(name);
	ClientScript *s;

	if (pb_workload_find(name) != NULL)
	{
		if (opts->native != NULL || opts->nscripts > 0)
		{
			pg_log_error("workload \"%s\" cannot be combined with other scripts", name);
			exit(1);
		}
		opts->native = pb_workload_find(name);
		free(name);
		return;
	}
	if (opts->native != NULL)
	{
		pg_log_error("workload \"%s\" cannot be combined with other scripts",
					 opts->native->name);
		exit(1);
	}
	if (found == 0 || pb_builtin_script(name, &canonical) == NULL)
	{
		if (found > 1)
			pg_log_error("ambiguous builtin name: %d builtin scripts found for prefix \"%s\"",
						 found, name);
		else
			pg_log_error("no builtin script found for name \"%s\"", name);
		list_builtins();
		exit(1);
	}

	opts->scripts = pg_realloc(opts->scripts,
							   sizeof(ClientScript) * (opts->nscripts + 1));
	s = &opts->scripts[opts->nscripts++];
	opts->nbuiltins++;
	s->builtin = canonical;
	s->desc = NULL;
	for (int i = 0; i < pb_builtin_count(); i++)
		if (strcmp(pb_builtin_name(i), canonical) == 0)
			s->desc = pg_strdup(pb_builtin_desc(i));
	s->text = NULL;
	s->weight = weight;
	free(name);
}

/*
 * read_file_contents
 *		The whole of a file, or of stdin for "-"; exits if it cannot be read.
 */
static char *
read_file_contents(const char *filename)
{
	FILE	   *fd;
	PQExpBufferData buf;
	char		block[8192];
	size_t		n;

	if (strcmp(filename, "-") == 0)
		fd = stdin;
	else if ((fd = fopen(filename, "r")) == NULL)
	{
		pg_log_error("could not open file \"%s\": %m", filename);
		exit(1);
	}
	initPQExpBuffer(&buf);
	while ((n = fread(block, 1, sizeof(block), fd)) > 0)
		appendBinaryPQExpBuffer(&buf, block, n);
	if (ferror(fd))
	{
		pg_log_error("could not read file \"%s\": %m", filename);
		exit(1);
	}
	if (PQExpBufferBroken(&buf))
	{
		pg_log_error("out of memory");
		exit(1);
	}
	if (fd != stdin)
		fclose(fd);
	return buf.data;
}

/*
 * add_file
 *		Add the script an -f argument names, read now.
 */
static void
add_file(const char *arg)
{
	char	   *filename = pg_strdup(arg);
	int			weight = parse_weight(filename);
	ClientScript *s;

	file_scripts = pg_realloc(file_scripts,
							  sizeof(ClientScript) * (nfile_scripts + 1));
	s = &file_scripts[nfile_scripts++];
	s->builtin = NULL;
	s->desc = filename;
	s->text = read_file_contents(filename);
	s->weight = weight;
}

/*
 * add_define
 *		Record a -D name=value; exits on a malformed definition.
 */
static void
add_define(ClientOptions *opts, const char *arg)
{
	char	   *copy = pg_strdup(arg);
	char	   *value = strchr(copy, '=');

	if (value == NULL || value == copy || value[1] == '\0')
	{
		pg_log_error("invalid variable definition: \"%s\"", arg);
		exit(1);
	}
	*value++ = '\0';
	for (const unsigned char *p = (const unsigned char *) copy; *p; p++)
		if (!(IS_HIGHBIT_SET(*p) || isalnum(*p) || *p == '_'))
		{
			pg_log_error("invalid variable name: \"%s\"", copy);
			exit(1);
		}
	opts->var_names = pg_realloc(opts->var_names, sizeof(char *) * (opts->nvars + 1));
	opts->var_values = pg_realloc(opts->var_values, sizeof(char *) * (opts->nvars + 1));
	opts->var_names[opts->nvars] = copy;
	opts->var_values[opts->nvars] = value;
	opts->nvars++;
}

/*
 * mark_known_variables
 *		Mark as assigned the variables the server sets before a client runs
 *		a script: -D definitions and pgbench's predefined ones.
 */
static void
mark_known_variables(PbScriptSet *set, const ClientOptions *opts)
{
	for (int i = 0; i < opts->nvars; i++)
		pb_var_mark_assigned(set, pb_var_id(set, opts->var_names[i], true));
	for (int i = 0; i < PB_PREDEFINED_VARIABLES; i++)
		pb_var_mark_assigned(set, pb_var_id(set, pb_predefined_variables[i], true));
}

/*
 * check_scripts
 *		Parse every script as the server will, so that mistakes are found
 *		before contacting it: syntax errors with the file and line, empty
 *		scripts, variables that nothing sets.  Exits on the first one.
 */
static void
check_scripts(const ClientOptions *opts)
{
	PbScriptSet *all = pb_scriptset_create();
	PbError		err;

	if (all == NULL)
	{
		pg_log_error("out of memory");
		exit(1);
	}
	for (int i = 0; i < opts->nscripts; i++)
	{
		const ClientScript *s = &opts->scripts[i];
		const char *text = s->builtin ? pb_builtin_script(s->builtin, NULL) : s->text;

		memset(&err, 0, sizeof(err));
		if (!pb_script_parse(all, s->desc, text, s->weight, &err))
		{
			if (err.line > 0)
				pg_log_error("%s:%d: %s", s->desc, err.line, err.message);
			else
				pg_log_error("%s: %s", s->desc, err.message);
			if (err.detail[0] != '\0')
				pg_log_error_detail("%s", err.detail);
			exit(1);
		}
		if (all->scripts[all->nscripts - 1].ncommands == 0)
		{
			pg_log_error("empty command list for script \"%s\"", s->desc);
			exit(1);
		}
	}
	mark_known_variables(all, opts);
	memset(&err, 0, sizeof(err));
	if (!pb_scriptset_check_vars(all, &err))
	{
		pg_log_error("%s:%d: %s", all->scripts[err.script_no].name, err.line,
					 err.message);
		if (err.detail[0] != '\0')
			pg_log_error_detail("%s", err.detail);
		pg_log_error_hint("Set the variable with \\set in the script or with -D.");
		exit(1);
	}
	pb_scriptset_free(all);
}

/*
 * run_init
 *		-i: create and fill pgbench's tables with polarbench_init(), with
 *		its progress lines on stderr as pgbench -i prints them.
 */
static int
run_init(PGconn *conn, const InitOptions *init)
{
	char		scale[16],
				fillfactor[16],
				partitions[16],
				jobs[16];
	const char *params[8];
	PGresult   *res;

	snprintf(scale, sizeof(scale), "%d", init->scale > 0 ? init->scale : 1);
	snprintf(fillfactor, sizeof(fillfactor), "%d", init->fillfactor);
	snprintf(partitions, sizeof(partitions), "%d", init->partitions);
	snprintf(jobs, sizeof(jobs), "%d", init->jobs);
	params[0] = scale;
	params[1] = fillfactor;
	params[2] = init->unlogged ? "true" : "false";
	params[3] = partitions;
	params[4] = init->partition_method ? init->partition_method : "range";
	params[5] = init->foreign_keys ? "true" : "false";
	params[6] = jobs;
	if (!ensure_extension(conn, true))
		return 1;
	set_notice_mode(true, init->quiet, true);
	/* in the session's own search_path, which says where the tables go */
	res = exec_query(conn, PB_QUERY_USER_PATH | PB_QUERY_CANCELABLE,
					 "SELECT tables, rows, pg_catalog.pg_size_pretty(bytes), seconds, rows_per_second "
					 "FROM @extschema@.polarbench_init('pgbench'::pg_catalog.text, "
					 "scale => $1::pg_catalog.int4, fillfactor => $2::pg_catalog.int4, "
					 "unlogged => $3::pg_catalog.bool, partitions => $4::pg_catalog.int4, "
					 "partition_method => $5::pg_catalog.text, foreign_keys => $6::pg_catalog.bool, "
					 "parallel => $7::pg_catalog.int4, progress => true)",
					 7, params);
	set_notice_mode(false, false, true);
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
 * run_and_report
 *		Run the polarbench_run() call sql, print the run's report and draw
 *		its chart.  Returns the exit status.
 */
static int
run_and_report(PGconn *conn, const ClientOptions *opts, const char *sql,
			   const ParamList *params, const char *last_run)
{
	PGresult   *res;
	ClientResult result;
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
	status = print_run_report(conn, opts, &result);
	if (status == 0 && opts->svg != NULL &&
		!chart_run_progress(conn, opts->svg,
							opts->native ? opts->native->name :
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
 * parse_client_counts
 *		-c NUM or -c NUM,NUM,...: the client counts, each at least 1; exits
 *		on a bad one.
 */
static void
parse_client_counts(ClientOptions *opts, const char *arg)
{
	char	   *copy = pg_strdup(arg);
	char	   *tok;
	char	   *save = NULL;

	opts->nclient_counts = 0;
	for (tok = strtok_r(copy, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save))
	{
		int			n;

		if (!option_parse_int(tok, "-c/--clients", 1, INT_MAX, &n))
			exit(1);
		opts->client_counts = pg_realloc(opts->client_counts,
										 sizeof(int) * (opts->nclient_counts + 1));
		opts->client_counts[opts->nclient_counts++] = n;
	}
	if (opts->nclient_counts == 0)
	{
		pg_log_error("-c/--clients must be in range 1..%d", INT_MAX);
		exit(1);
	}
	opts->nclients = opts->client_counts[0];
	free(copy);
}

/*
 * parse_positive
 *		A number greater than zero for option name; exits otherwise.
 */
static double
parse_positive(const char *arg, const char *name)
{
	char	   *end;
	double		v;

	errno = 0;
	v = strtod(arg, &end);
	if (arg[0] == '\0' || *end != '\0' || errno != 0 || !(v > 0) || isinf(v))
	{
		pg_log_error("invalid value \"%s\" for option %s", arg, name);
		pg_log_error_detail("Expecting a number greater than zero.");
		exit(1);
	}
	return v;
}

/*
 * parse_settings
 *		Add name=value to set, or with list name=value,name=value; exits on
 *		a malformed one.  A list may be empty: the server's own settings.
 */
static void
parse_settings(SettingSet *set, const char *arg, bool list)
{
	char	   *copy = pg_strdup(arg);
	char	   *item = copy;

	if (set->label == NULL)
		set->label = pg_strdup(arg);
	while (*item != '\0')
	{
		char	   *next = list ? strchr(item, ',') : NULL;
		char	   *eq;

		if (next != NULL)
			*next = '\0';
		eq = strchr(item, '=');
		if (eq == NULL || eq == item)
		{
			pg_log_error("invalid setting \"%s\"", item);
			pg_log_error_detail("Expecting name=value%s.", list ? "[,name=value...]" : "");
			exit(1);
		}
		*eq = '\0';
		set->names = pg_realloc(set->names, sizeof(char *) * (set->n + 1));
		set->values = pg_realloc(set->values, sizeof(char *) * (set->n + 1));
		set->names[set->n] = pg_strdup(item);
		set->values[set->n] = pg_strdup(eq + 1);
		set->n++;
		if (next == NULL)
			break;
		item = next + 1;
	}
	free(copy);
}

/*
 * split_list
 *		The comma-separated parts of -h or -p; one NULL part for NULL.
 */
static int
split_list(const char *arg, char ***parts)
{
	char	   *copy;
	char	   *tok;
	char	   *save = NULL;
	int			n = 0;

	*parts = NULL;
	if (arg == NULL)
	{
		*parts = pg_malloc0(sizeof(char *));
		return 1;
	}
	copy = pg_strdup(arg);
	for (tok = strtok_r(copy, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save))
	{
		*parts = pg_realloc(*parts, sizeof(char *) * (n + 1));
		(*parts)[n++] = pg_strdup(tok);
	}
	if (n == 0)
	{
		*parts = pg_malloc0(sizeof(char *));
		n = 1;
	}
	return n;
}

/*
 * make_targets
 *		The nodes of -h and -p: one host, or one per comma-separated host,
 *		with one port for all or one per host.  Exits on a mismatch.
 */
static int
make_targets(const char *hosts, const char *ports, const char *user,
			 const char *dbname, ConnTarget **targets)
{
	char	  **h;
	char	  **p;
	int			nh = split_list(hosts, &h);
	int			np = split_list(ports, &p);

	if (np != 1 && np != nh)
	{
		pg_log_error("%d hosts and %d ports given", nh, np);
		pg_log_error_hint("Give one port for every host, or one for all.");
		exit(1);
	}
	*targets = pg_malloc0(sizeof(ConnTarget) * nh);
	for (int i = 0; i < nh; i++)
	{
		ConnTarget *t = &(*targets)[i];

		t->host = h[i];
		t->port = p[np == 1 ? 0 : i];
		t->user = user;
		t->dbname = dbname;
		if (nh > 1)
			t->label = psprintf("%s:%s", t->host ? t->host : "default",
								t->port ? t->port : "default");
	}
	return nh;
}

/*
 * take_workload_options
 *		Take sysbench's and YCSB's options out of the command line, in
 *		their tools' spellings (--table-size=25000, --readproportion=0.5):
 *		they go to the server as the run's options, which checks them.
 */
static void
take_workload_options(int *argc, char **argv, ClientOptions *opts)
{
	int			kept = 1;
	int			i;

	for (i = 1; i < *argc; i++)
	{
		char	   *arg = argv[i];
		char	   *eq = strchr(arg, '=');

		if (strcmp(arg, "--") == 0)
			break;
		if (strncmp(arg, "--", 2) == 0 && eq != NULL)
		{
			char	   *name = pnstrdup(arg + 2, eq - arg - 2);

			if (pb_workload_has_option(PB_KIND_SYSBENCH, name) ||
				pb_workload_has_option(PB_KIND_YCSB, name))
			{
				opts->opt_names = pg_realloc(opts->opt_names, sizeof(char *) * (opts->nopts + 1));
				opts->opt_values = pg_realloc(opts->opt_values, sizeof(char *) * (opts->nopts + 1));
				opts->opt_names[opts->nopts] = name;
				opts->opt_values[opts->nopts] = pg_strdup(eq + 1);
				opts->nopts++;
				continue;
			}
			free(name);
		}
		argv[kept++] = arg;
	}
	for (; i < *argc; i++)
		argv[kept++] = argv[i];
	*argc = kept;
	argv[kept] = NULL;
}

/*
 * check_run_options
 *		What the options of a run cannot be together; exits with the reason.
 *		--settings go into every setting set of a sweep.
 */
static void
check_run_options(ClientOptions *opts, int ntargets)
{
	bool		sweep = opts->nclient_counts > 1 || opts->nsets > 0 || opts->repeat > 1;

	if (opts->nclient_counts == 0)
	{
		opts->client_counts = pg_malloc(sizeof(int));
		opts->client_counts[0] = opts->nclients;
		opts->nclient_counts = 1;
	}
	if (sweep && opts->nscripts - opts->nbuiltins > 1)
	{
		pg_log_error("a sweep runs built-in scripts or one script file, not %d files",
					 opts->nscripts - opts->nbuiltins);
		exit(1);
	}
	if (sweep && opts->nscripts > opts->nbuiltins && opts->nbuiltins > 0)
	{
		pg_log_error("a sweep runs built-in scripts or one script file, not both");
		exit(1);
	}
	if (sweep && opts->progress > 0)
	{
		pg_log_error("-P/--progress cannot be used with a sweep");
		pg_log_error_hint("A sweep prints its table at the end; polarbench_live shows each run while it goes on.");
		exit(1);
	}
	if (sweep && opts->report_per_command)
	{
		pg_log_error("-r/--report-per-command cannot be used with a sweep");
		exit(1);
	}
	if (ntargets > 1 && (sweep || opts->restart_command != NULL || opts->svg != NULL))
	{
		pg_log_error("%s cannot be used with several hosts",
					 sweep ? "a sweep" : opts->restart_command ? "--restart-command" : "--svg");
		exit(1);
	}
	if (opts->svg != NULL && !sweep && opts->progress == 0)
		opts->progress = -1;	/* drawn, not printed: see run_benchmark */
	for (int i = 0; i < opts->nsets; i++)
	{
		SettingSet *set = &opts->sets[i];

		for (int k = opts->settings.n - 1; k >= 0; k--)
		{
			set->names = pg_realloc(set->names, sizeof(char *) * (set->n + 1));
			set->values = pg_realloc(set->values, sizeof(char *) * (set->n + 1));
			memmove(set->names + 1, set->names, sizeof(char *) * set->n);
			memmove(set->values + 1, set->values, sizeof(char *) * set->n);
			set->names[0] = opts->settings.names[k];
			set->values[0] = opts->settings.values[k];
			set->n++;
		}
	}
}

/*
 * main
 *		Parse the command line, check the scripts, connect, run.
 */
int
main(int argc, char **argv)
{
	static struct option long_options[] = {
		{"builtin", required_argument, NULL, 'b'},
		{"client", required_argument, NULL, 'c'},
		{"threads", required_argument, NULL, 'c'},
		{"report-interval", required_argument, NULL, 'P'},
		{"dbname", required_argument, NULL, 'd'},
		{"define", required_argument, NULL, 'D'},
		{"file", required_argument, NULL, 'f'},
		{"help", no_argument, NULL, '?'},
		{"host", required_argument, NULL, 'h'},
		{"initialize", no_argument, NULL, 'i'},
		{"no-vacuum", no_argument, NULL, 'n'},
		{"port", required_argument, NULL, 'p'},
		{"progress", required_argument, NULL, 'P'},
		{"report-latencies", no_argument, NULL, 'r'},
		{"report-per-command", no_argument, NULL, 'r'},
		{"scale", required_argument, NULL, 's'},
		{"select-only", no_argument, NULL, 'S'},
		{"skip-some-updates", no_argument, NULL, 'N'},
		{"time", required_argument, NULL, 'T'},
		{"transactions", required_argument, NULL, 't'},
		{"username", required_argument, NULL, 'U'},
		{"version", no_argument, NULL, 'V'},
		{"random-seed", required_argument, NULL, 1},
		{"fillfactor", required_argument, NULL, 'F'},
		{"jobs", required_argument, NULL, 'j'},
		{"quiet", no_argument, NULL, 'q'},
		{"foreign-keys", no_argument, NULL, 2},
		{"partition-method", required_argument, NULL, 3},
		{"partitions", required_argument, NULL, 4},
		{"unlogged-tables", no_argument, NULL, 5},
		{"rate", required_argument, NULL, 'R'},
		{"latency-limit", required_argument, NULL, 'L'},
		{"vacuum-all", no_argument, NULL, 'v'},
		{"max-tries", required_argument, NULL, 6},
		{"failures-detailed", no_argument, NULL, 7},
		{"warmup", required_argument, NULL, 8},
		{"settings", required_argument, NULL, 9},
		{"set", required_argument, NULL, 10},
		{"repeat", required_argument, NULL, 11},
		{"report", required_argument, NULL, 12},
		{"svg", required_argument, NULL, 13},
		{"restart-command", required_argument, NULL, 14},
		{"restore", no_argument, NULL, 15},
		{NULL, 0, NULL, 0}
	};
	ClientOptions opts;
	InitOptions init;
	bool		is_init_mode = false;
	bool		is_restore_mode = false;
	bool		benchmarking_option_set = false;
	bool		initialization_option_set = false;
	const char *pghost = NULL;
	const char *pgport = NULL;
	const char *username = NULL;
	const char *dbname = NULL;
	PGconn	   *conn;
	ConnTarget *targets;
	int			ntargets;
	int			c;
	int			optindex;
	int			status;

	pg_logging_init(argv[0]);
	progname = get_progname(argv[0]);

	if (argc > 1)
	{
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0)
		{
			usage();
			exit(0);
		}
		if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)
		{
			printf("%s %s (PostgreSQL %s)\n", progname, POLARBENCH_VERSION, PG_VERSION);
			exit(0);
		}
	}

	memset(&opts, 0, sizeof(opts));
	opts.nclients = 1;
	opts.max_tries = 1;
	opts.repeat = 1;
	memset(&init, 0, sizeof(init));
	init.fillfactor = 100;
	init.jobs = 1;
	take_workload_options(&argc, argv, &opts);

	while ((c = getopt_long(argc, argv, "b:c:d:D:f:F:h:ij:L:nNp:P:qrR:s:St:T:U:vV?",
							long_options, &optindex)) != -1)
	{
		switch (c)
		{
			case 'b':
				if (strcmp(optarg, "list") == 0)
				{
					list_builtins();
					exit(0);
				}
				add_builtin(&opts, optarg);
				benchmarking_option_set = true;
				break;
			case 'c':
				parse_client_counts(&opts, optarg);
				benchmarking_option_set = true;
				break;
			case 'd':
				dbname = pg_strdup(optarg);
				break;
			case 'D':
				add_define(&opts, optarg);
				benchmarking_option_set = true;
				break;
			case 'f':
				add_file(optarg);
				benchmarking_option_set = true;
				break;
			case 'F':
				if (!option_parse_int(optarg, "-F/--fillfactor", 10, 100,
									  &init.fillfactor))
					exit(1);
				initialization_option_set = true;
				break;
			case 'h':
				pghost = pg_strdup(optarg);
				break;
			case 'j':
				/* loader workers with -i; every client is a worker anyway */
				if (!option_parse_int(optarg, "-j/--jobs", 1, INT_MAX,
									  &init.jobs))
					exit(1);
				break;
			case 'q':
				init.quiet = true;
				initialization_option_set = true;
				break;
			case 'i':
				is_init_mode = true;
				break;
			case 'n':
				opts.no_vacuum = true;
				break;
			case 'v':
				opts.vacuum_all = true;
				benchmarking_option_set = true;
				break;
			case 'R':
				opts.rate = parse_positive(optarg, "-R/--rate");
				benchmarking_option_set = true;
				break;
			case 'L':
				opts.latency_limit = parse_positive(optarg, "-L/--latency-limit");
				benchmarking_option_set = true;
				break;
			case 'N':
				add_builtin(&opts, "simple-update");
				benchmarking_option_set = true;
				break;
			case 'p':
				pgport = pg_strdup(optarg);
				break;
			case 'P':
				if (!option_parse_int(optarg, "-P/--progress", 1, INT_MAX,
									  &opts.progress))
					exit(1);
				benchmarking_option_set = true;
				break;
			case 'r':
				opts.report_per_command = true;
				benchmarking_option_set = true;
				break;
			case 's':
				if (!option_parse_int(optarg, "-s/--scale", 1, INT_MAX,
									  &opts.scale))
					exit(1);
				break;
			case 'S':
				add_builtin(&opts, "select-only");
				benchmarking_option_set = true;
				break;
			case 't':
				if (!option_parse_int(optarg, "-t/--transactions", 1, INT_MAX,
									  &opts.nxacts))
					exit(1);
				benchmarking_option_set = true;
				break;
			case 'T':
				if (!option_parse_int(optarg, "-T/--time", 1, INT_MAX,
									  &opts.duration))
					exit(1);
				benchmarking_option_set = true;
				break;
			case 'U':
				username = pg_strdup(optarg);
				break;
			case 'V':
				printf("%s %s (PostgreSQL %s)\n", progname, POLARBENCH_VERSION, PG_VERSION);
				exit(0);
			case 1:				/* --random-seed */
				if (strcmp(optarg, "time") != 0 && strcmp(optarg, "rand") != 0)
				{
					char	   *end;
					long long	seed;

					errno = 0;
					seed = strtoll(optarg, &end, 10);
					if (optarg[0] == '\0' || *end != '\0' || errno != 0 || seed < 0)
					{
						pg_log_error("unrecognized random seed option \"%s\"", optarg);
						pg_log_error_detail("Expecting an unsigned integer, \"time\" or \"rand\".");
						exit(1);
					}
					opts.random_seed = psprintf("%lld", seed);
				}
				/* "time" and "rand": the server draws a seed */
				benchmarking_option_set = true;
				break;
			case 2:				/* --foreign-keys */
				init.foreign_keys = true;
				initialization_option_set = true;
				break;
			case 3:				/* --partition-method */
				if (strcmp(optarg, "range") != 0 && strcmp(optarg, "hash") != 0)
				{
					pg_log_error("invalid partition method, expecting \"range\" or \"hash\", got: \"%s\"",
								 optarg);
					exit(1);
				}
				init.partition_method = pg_strdup(optarg);
				initialization_option_set = true;
				break;
			case 4:				/* --partitions */
				if (!option_parse_int(optarg, "--partitions", 0, INT_MAX,
									  &init.partitions))
					exit(1);
				initialization_option_set = true;
				break;
			case 5:				/* --unlogged-tables */
				init.unlogged = true;
				initialization_option_set = true;
				break;
			case 6:				/* --max-tries */
				if (!option_parse_int(optarg, "--max-tries", 0, INT_MAX,
									  &opts.max_tries))
					exit(1);
				benchmarking_option_set = true;
				break;
			case 7:				/* --failures-detailed */
				opts.failures_detailed = true;
				benchmarking_option_set = true;
				break;
			case 8:				/* --warmup */
				opts.warmup = parse_positive(optarg, "--warmup");
				benchmarking_option_set = true;
				break;
			case 9:				/* --settings */
				parse_settings(&opts.settings, optarg, false);
				benchmarking_option_set = true;
				break;
			case 10:			/* --set */
				opts.sets = pg_realloc(opts.sets, sizeof(SettingSet) * (opts.nsets + 1));
				memset(&opts.sets[opts.nsets], 0, sizeof(SettingSet));
				parse_settings(&opts.sets[opts.nsets++], optarg, true);
				benchmarking_option_set = true;
				break;
			case 11:			/* --repeat */
				if (!option_parse_int(optarg, "--repeat", 1, INT_MAX, &opts.repeat))
					exit(1);
				benchmarking_option_set = true;
				break;
			case 12:			/* --report */
				if (strcmp(optarg, "pgbench") != 0 && strcmp(optarg, "sysbench") != 0 &&
					strcmp(optarg, "ycsb") != 0 && strcmp(optarg, "json") != 0 &&
					strcmp(optarg, "csv") != 0)
				{
					pg_log_error("invalid report style \"%s\"", optarg);
					pg_log_error_hint("The styles are pgbench, sysbench, ycsb, json and csv.");
					exit(1);
				}
				opts.report = pg_strdup(optarg);
				benchmarking_option_set = true;
				break;
			case 13:			/* --svg */
				opts.svg = pg_strdup(optarg);
				benchmarking_option_set = true;
				break;
			case 14:			/* --restart-command */
				if (optarg[0] == '\0')
				{
					pg_log_error("--restart-command must not be empty");
					exit(1);
				}
				opts.restart_command = pg_strdup(optarg);
				break;
			case 15:			/* --restore */
				is_restore_mode = true;
				break;
			case '?':
				if (optind <= argc && argv[optind - 1] != NULL &&
					(strcmp(argv[optind - 1], "-?") == 0 ||
					 strcmp(argv[optind - 1], "--help") == 0))
				{
					usage();
					exit(0);
				}
				/* getopt_long already complained */
				pg_log_error_hint("Try \"%s --help\" for more information.", progname);
				exit(1);
			default:
				pg_log_error_hint("Try \"%s --help\" for more information.", progname);
				exit(1);
		}
	}

	if (optind < argc)
	{
		if (dbname == NULL)
			dbname = argv[optind++];
		if (optind < argc)
		{
			pg_log_error("too many command-line arguments (first is \"%s\")",
						 argv[optind]);
			pg_log_error_hint("Try \"%s --help\" for more information.", progname);
			exit(1);
		}
	}

	if (opts.duration > 0 && opts.nxacts > 0)
	{
		pg_log_error("specify either a number of transactions (-t) or a duration (-T), not both");
		exit(1);
	}
	if (is_restore_mode && (is_init_mode || benchmarking_option_set ||
							initialization_option_set || opts.restart_command != NULL))
	{
		pg_log_error("--restore cannot be used with other options than the connection's");
		pg_log_error_hint("Try \"%s --help\" for more information.", progname);
		exit(1);
	}
	if (is_init_mode && benchmarking_option_set)
	{
		pg_log_error("some of the specified options cannot be used in initialization (-i) mode");
		exit(1);
	}
	if (!is_init_mode && initialization_option_set)
	{
		pg_log_error("some of the specified options cannot be used in benchmarking mode");
		exit(1);
	}
	if (init.partitions == 0 && init.partition_method != NULL)
	{
		pg_log_error("--partition-method requires greater than zero --partitions");
		exit(1);
	}

	if (!is_init_mode)
	{
		long long	total_weight = 0;

		/* the server numbers built-ins first, then the files */
		if (nfile_scripts > 0)
		{
			opts.scripts = pg_realloc(opts.scripts,
									  sizeof(ClientScript) * (opts.nscripts + nfile_scripts));
			memcpy(opts.scripts + opts.nscripts, file_scripts,
				   sizeof(ClientScript) * nfile_scripts);
			opts.nscripts += nfile_scripts;
		}
		if (opts.nopts > 0 && opts.native == NULL)
		{
			pg_log_error("option --%s applies to sysbench and YCSB workloads",
						 opts.opt_names[0]);
			pg_log_error_hint("Choose one with -b, as in -b oltp_read_write or -b ycsb-a.");
			exit(1);
		}
		if (opts.nscripts == 0 && opts.native == NULL)
			add_builtin(&opts, "tpcb-like");
		for (int i = 0; i < opts.nscripts; i++)
			total_weight += opts.scripts[i].weight;
		if (total_weight == 0 && opts.native == NULL)
		{
			pg_log_error("total script weight must not be zero");
			exit(1);
		}
		check_scripts(&opts);
	}

	ntargets = make_targets(pghost, pgport, username, dbname, &targets);
	if (is_restore_mode)
		return run_restore(targets, ntargets);
	if (!is_init_mode)
		check_run_options(&opts, ntargets);
	if (ntargets > 1)
	{
		if (is_init_mode)
		{
			pg_log_error("-i initializes one node");
			pg_log_error_hint("Initialize the primary; its standbys replicate the tables.");
			exit(1);
		}
		return run_on_nodes(targets, ntargets, &opts);
	}
	conn = connect_target(&targets[0], true);
	/* settings a killed client left changed come back before anything */
	if (restore_pending(&conn, &targets[0], NULL) < 0)
		exit_nicely(conn, 2);
	if (is_init_mode)
	{
		init.scale = opts.scale;
		status = run_init(conn, &init);
		PQfinish(conn);
		return status;
	}
	if (!ensure_extension(conn, false))
		exit_nicely(conn, 1);
	if (opts.nclient_counts > 1 || opts.nsets > 0 || opts.repeat > 1)
		return run_sweep(conn, &targets[0], &opts);
	return run_benchmark(conn, &targets[0], &opts);
}
