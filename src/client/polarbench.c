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
 * pgbench prints its own.  Progress arrives as NOTICE messages already in
 * pgbench's words and goes to stderr as it comes.  Ctrl-C sends a cancel
 * request, which the server records as a canceled run.
 *
 * Every value reaches the server as a query parameter, never pasted into
 * SQL text.
 *
 * Exit status: 0 on success, 1 for errors in the invocation (options,
 * scripts, connection, arguments the server refuses), 2 when a run started
 * but failed or was canceled, as pgbench exits 2 when a run is aborted.
 *
 * calls: report.c; of the script library, script_set.c, builtin_scripts.c,
 * script_parse.c, script_check.c; of the workload library,
 * workload_options.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include <limits.h>
#include <signal.h>

#include "common/logging.h"
#include "fe_utils/cancel.h"
#include "fe_utils/option_utils.h"
#include "getopt_long.h"
#include "libpq-fe.h"
#include "pqexpbuffer.h"

#include "pb_script.h"
#include "polarbench_client.h"

#define POLARBENCH_VERSION "1.0"

static const char *progname;

/* in -i mode every notice is a progress line of the load */
static bool init_notices = false;

/* -q: the elapsed seconds from which the next progress line is printed */
static bool init_quiet = false;
static double init_next_line = 0;

/* pgbench -q prints a progress line every this many seconds */
#define QUIET_LOG_SECONDS	5

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
		   "  -c, --client=NUM         number of concurrent database clients (default: 1);\n"
		   "                           each client is a background worker in the server\n"
		   "                           (also --threads=NUM, as sysbench)\n"
		   "  -D, --define=VARNAME=VALUE\n"
		   "                           define variable for use by custom script\n"
		   "  -j, --jobs=NUM           accepted for pgbench compatibility (every client\n"
		   "                           is a worker of its own)\n"
		   "  -n, --no-vacuum          accepted for pgbench compatibility (polarbench does\n"
		   "                           not vacuum)\n"
		   "  -P, --progress=NUM       show thread progress report every NUM seconds\n"
		   "                           (also --report-interval=NUM, as sysbench)\n"
		   "  -r, --report-per-command report latencies and failures per command\n"
		   "  -s, --scale=NUM          scale for :scale in custom scripts\n"
		   "  -t, --transactions=NUM   number of transactions each client runs (default: 10)\n"
		   "  -T, --time=NUM           duration of benchmark test in seconds\n"
		   "  --random-seed=SEED       set random seed (\"time\", \"rand\", integer)\n"
		   "\nCommon options:\n"
		   "  -d, --dbname=DBNAME      database name to connect to\n"
		   "  -h, --host=HOSTNAME      database server host or socket directory\n"
		   "  -p, --port=PORT          database server port number\n"
		   "  -U, --username=USERNAME  connect as specified database user\n"
		   "  -V, --version            output version information, then exit\n"
		   "  -?, --help               show this help, then exit\n"
		   "\nThe database must have the polarbench extension (CREATE EXTENSION polarbench).\n",
		   progname);
}

/*
 * report_server_error
 *		Report an error result with the server's message, detail and hint.
 */
static void
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
 * notice_receiver
 *		Print the server's notices to stderr as they arrive: progress lines
 *		as pgbench prints them, anything else as psql would.
 */
static void
notice_receiver(void *arg, const PGresult *res)
{
	const char *severity = PQresultErrorField(res, PG_DIAG_SEVERITY_NONLOCALIZED);
	const char *message = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
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
		fprintf(stderr, "%s\n", message);
	else
		fprintf(stderr, "%s", PQresultErrorMessage(res));
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
 * connect_db
 *		Connect with the given options, libpq's environment variables
 *		filling in the rest; exits on failure.
 */
static PGconn *
connect_db(const char *host, const char *port, const char *user,
		   const char *dbname)
{
	const char *keywords[] = {"host", "port", "user", "dbname",
	"fallback_application_name", NULL};
	const char *values[] = {host, port, user, dbname, progname, NULL};
	PGconn	   *conn = PQconnectdbParams(keywords, values, true);

	if (conn == NULL)
	{
		pg_log_error("could not create connection object");
		exit(1);
	}
	if (PQstatus(conn) == CONNECTION_BAD)
	{
		pg_log_error("%s", PQerrorMessage(conn));
		PQfinish(conn);
		exit(1);
	}
	PQsetNoticeReceiver(conn, notice_receiver, NULL);
	return conn;
}

/*
 * exec_cancelable
 *		Run a query whose end we wait for with Ctrl-C sending a cancel
 *		request to the server, as psql does; outside such a query, Ctrl-C
 *		ends the program as usual.
 */
static PGresult *
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
static char *
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
	init_notices = true;
	init_quiet = init->quiet;
	init_next_line = QUIET_LOG_SECONDS;
	res = exec_cancelable(conn,
						  "SELECT tables, rows, pg_catalog.pg_size_pretty(bytes), seconds, rows_per_second "
						  "FROM polarbench_init('pgbench', scale => $1::int, fillfactor => $2::int, "
						  "unlogged => $3::boolean, partitions => $4::int, partition_method => $5, "
						  "foreign_keys => $6::boolean, parallel => $7::int, progress => true)",
						  7, params);
	init_notices = false;
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
 * Query parameters, as text; NULL values are SQL nulls.
 */
typedef struct ParamList
{
	const char **values;
	int			n;
	int			space;
} ParamList;

/* Add a parameter and return its $n number. */
static int
add_param(ParamList *p, const char *value)
{
	if (p->n == p->space)
	{
		p->space = Max(16, p->space * 2);
		p->values = pg_realloc(p->values, sizeof(char *) * p->space);
	}
	p->values[p->n++] = value;
	return p->n;
}

/*
 * build_run_query
 *		The polarbench_run() call for the options, in sql, with its
 *		parameters: built-ins as the workload, files as scripts and
 *		weights, -D definitions as a jsonb object built by the server.
 */
static void
build_run_query(const ClientOptions *opts, PQExpBuffer sql, ParamList *p)
{
	PQExpBufferData workload;
	char	   *num;

	appendPQExpBufferStr(sql,
						 "SELECT run_id, seconds, transactions, tps, statements, qps, failed, "
						 "latency_avg, latency_stddev, latency_p50, latency_p95, "
						 "latency_p99, latency_max FROM polarbench_run(");

	initPQExpBuffer(&workload);
	if (opts->native != NULL)
		appendPQExpBufferStr(&workload, opts->native->name);
	for (int i = 0; i < opts->nbuiltins; i++)
		appendPQExpBuffer(&workload, "%s%s@%d", i > 0 ? "," : "",
						  opts->scripts[i].builtin, opts->scripts[i].weight);
	appendPQExpBuffer(sql, "workload => $%d",
					  add_param(p, workload.len > 0 ? workload.data : NULL));

	num = psprintf("%d", opts->nclients);
	appendPQExpBuffer(sql, ", clients => $%d::int", add_param(p, num));
	if (opts->duration > 0)
		appendPQExpBuffer(sql, ", duration => $%d::float8",
						  add_param(p, psprintf("%d", opts->duration)));
	if (opts->nxacts > 0)
		appendPQExpBuffer(sql, ", transactions => $%d::bigint",
						  add_param(p, psprintf("%d", opts->nxacts)));
	appendPQExpBuffer(sql, ", progress => $%d::int",
					  add_param(p, psprintf("%d", opts->progress)));

	if (opts->nscripts > opts->nbuiltins)
	{
		appendPQExpBufferStr(sql, ", scripts => ARRAY[");
		for (int i = opts->nbuiltins; i < opts->nscripts; i++)
			appendPQExpBuffer(sql, "%s$%d::text", i > opts->nbuiltins ? ", " : "",
							  add_param(p, opts->scripts[i].text));
		appendPQExpBufferStr(sql, "], weights => ARRAY[");
		for (int i = opts->nbuiltins; i < opts->nscripts; i++)
			appendPQExpBuffer(sql, "%s$%d::int", i > opts->nbuiltins ? ", " : "",
							  add_param(p, psprintf("%d", opts->scripts[i].weight)));
		appendPQExpBufferStr(sql, "]");
	}

	if (opts->nvars > 0)
	{
		/* pairs of key and value; for a repeated name the last one wins */
		appendPQExpBufferStr(sql, ", vars => pg_catalog.jsonb_object(ARRAY[");
		for (int i = 0; i < opts->nvars; i++)
		{
			int			k = add_param(p, opts->var_names[i]);
			int			v = add_param(p, opts->var_values[i]);

			appendPQExpBuffer(sql, "%s$%d::text, $%d::text", i > 0 ? ", " : "", k, v);
		}
		appendPQExpBufferStr(sql, "])");
	}
	if (opts->nopts > 0)
	{
		/* the server reads each value as the option's type */
		appendPQExpBufferStr(sql, ", options => pg_catalog.jsonb_object(ARRAY[");
		for (int i = 0; i < opts->nopts; i++)
		{
			int			k = add_param(p, opts->opt_names[i]);
			int			v = add_param(p, opts->opt_values[i]);

			appendPQExpBuffer(sql, "%s$%d::text, $%d::text", i > 0 ? ", " : "", k, v);
		}
		appendPQExpBufferStr(sql, "])");
	}
	if (opts->random_seed != NULL)
		appendPQExpBuffer(sql, ", random_seed => $%d::bigint",
						  add_param(p, opts->random_seed));
	if (opts->scale > 0)
		appendPQExpBuffer(sql, ", scale => $%d::int",
						  add_param(p, psprintf("%d", opts->scale)));
	appendPQExpBufferStr(sql, ")");
	/* workload.data stays: it is a parameter */
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
	res = PQexecParams(conn,
					   "SELECT run_id, status FROM polarbench_runs "
					   "WHERE run_id > $1::bigint AND run_by = current_user "
					   "ORDER BY run_id DESC LIMIT 1",
					   1, NULL, params, NULL, NULL, 0);
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
 * run_benchmark
 *		Start the run, wait for its end and print its results.  Returns the
 *		exit status.
 */
static int
run_benchmark(PGconn *conn, const ClientOptions *opts)
{
	PQExpBufferData sql;
	ParamList	params = {0};
	PGresult   *res;
	ClientResult result;
	char	   *last_run;
	int			scale = opts->scale > 0 ? opts->scale : 1;

	/* also tells whether the extension is there */
	last_run = single_value(conn, "SELECT coalesce(max(run_id), 0) FROM polarbench_runs",
							0, NULL);
	if (last_run == NULL)
	{
		pg_log_error_hint("Install the extension with CREATE EXTENSION polarbench.");
		return 1;
	}

	/* as pgbench, say what runs before it starts: here, the server */
	printf("%s (%s, server %s)\n", progname, POLARBENCH_VERSION,
		   PQparameterStatus(conn, "server_version"));
	fflush(stdout);

	initPQExpBuffer(&sql);
	build_run_query(opts, &sql, &params);
	if (PQExpBufferBroken(&sql))
	{
		pg_log_error("out of memory");
		return 1;
	}

	res = exec_cancelable(conn, sql.data, params.n, params.values);
	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1)
	{
		int			status;

		report_server_error(conn, res);
		status = report_failed_run(conn, last_run, res);
		PQclear(res);
		return status;
	}

	memset(&result, 0, sizeof(result));
	result.run_id = pg_strdup(PQgetvalue(res, 0, 0));
	result.seconds = atof(PQgetvalue(res, 0, 1));
	result.transactions = atoll(PQgetvalue(res, 0, 2));
	result.tps = atof(PQgetvalue(res, 0, 3));
	result.statements = atoll(PQgetvalue(res, 0, 4));
	result.qps = atof(PQgetvalue(res, 0, 5));
	result.failed = atoll(PQgetvalue(res, 0, 6));
	result.has_latency = !PQgetisnull(res, 0, 7);
	if (result.has_latency)
	{
		result.latency_avg = atof(PQgetvalue(res, 0, 7));
		result.latency_stddev = atof(PQgetvalue(res, 0, 8));
		result.latency_p50 = atof(PQgetvalue(res, 0, 9));
		result.latency_p95 = atof(PQgetvalue(res, 0, 10));
		result.latency_p99 = atof(PQgetvalue(res, 0, 11));
		result.latency_max = atof(PQgetvalue(res, 0, 12));
	}
	PQclear(res);

	/* sysbench and YCSB workloads: the report of their tool */
	if (opts->native != NULL)
	{
		const char *params[1] = {result.run_id};
		char	   *report = single_value(conn, "SELECT polarbench_report($1::bigint)",
										  1, params);

		if (report == NULL)
			return 1;
		printf("%s", report);
		termPQExpBuffer(&sql);
		return 0;
	}

	/* built-in scripts ran at the scale of the tables, as pgbench finds it */
	if (opts->nbuiltins > 0)
	{
		char	   *count = single_value(conn, "SELECT count(*) FROM pgbench_branches",
										 0, NULL);

		if (count != NULL)
			scale = atoi(count);
	}

	print_results(conn, opts, &result, scale);
	termPQExpBuffer(&sql);
	return 0;
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
		{NULL, 0, NULL, 0}
	};
	ClientOptions opts;
	InitOptions init;
	bool		is_init_mode = false;
	bool		benchmarking_option_set = false;
	bool		initialization_option_set = false;
	const char *pghost = NULL;
	const char *pgport = NULL;
	const char *username = NULL;
	const char *dbname = NULL;
	PGconn	   *conn;
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
	memset(&init, 0, sizeof(init));
	init.fillfactor = 100;
	init.jobs = 1;
	take_workload_options(&argc, argv, &opts);

	while ((c = getopt_long(argc, argv, "b:c:d:D:f:F:h:ij:nNp:P:qrs:St:T:U:V?",
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
				if (!option_parse_int(optarg, "-c/--clients", 1, INT_MAX,
									  &opts.nclients))
					exit(1);
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
				/* polarbench never vacuums before a run */
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

	conn = connect_db(pghost, pgport, username, dbname);
	if (is_init_mode)
	{
		init.scale = opts.scale;
		status = run_init(conn, &init);
	}
	else
		status = run_benchmark(conn, &opts);
	PQfinish(conn);
	return status;
}
