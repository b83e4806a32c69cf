/*-------------------------------------------------------------------------
 *
 * options.c
 *	  The command line, read as pgbench reads its own: --help and -V first,
 *	  then every option by getopt_long, each group of options (connection,
 *	  what to run, benchmarking, initialization, reports, sweeps and
 *	  restarts, modes) by a parser of its own, then what options cannot be
 *	  together.  The result is a ClientCommand: what to do, the run's or
 *	  the load's options, and the nodes to connect to.
 *
 * A --name=value (or --name value) argument that is no option of the
 * client's is a workload's option (--table-size=25000, --readproportion
 * 0.5), or with -i an argument of the data set -b names (--warehouses 10):
 * it is taken out of the command line first and checked, once the client
 * is connected, against the options the server's polarbench_workloads
 * gives the workload, or the arguments its polarbench_datasets gives the
 * data set (catalog.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include <limits.h>
#include <math.h>

#include "common/logging.h"
#include "fe_utils/option_utils.h"
#include "getopt_long.h"

#include "polarbench.h"

/* The long options that are not spellings of a short one */
enum
{
	OPT_RANDOM_SEED = 1,
	OPT_FOREIGN_KEYS,
	OPT_PARTITION_METHOD,
	OPT_PARTITIONS,
	OPT_UNLOGGED_TABLES,
	OPT_MAX_TRIES,
	OPT_FAILURES_DETAILED,
	OPT_WARMUP,
	OPT_SETTINGS,
	OPT_SET,
	OPT_REPEAT,
	OPT_REPORT,
	OPT_SVG,
	OPT_ENVIRONMENT,
	OPT_RESTART_COMMAND,
	OPT_RESTORE,
	OPT_LIST,
	OPT_COMPARE,
	OPT_THRESHOLD,
	OPT_END_GRACE,
	OPT_DISTRIBUTED,
	OPT_SHARD_COUNT,
	OPT_CONTINUE_ON_ERROR,
	OPT_EXIT_ON_ABORT
};

static const char short_options[] = "b:c:d:D:f:F:h:ij:L:nNo:p:P:qrR:s:St:T:U:vV?";

static const struct option long_options[] = {
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
	{"random-seed", required_argument, NULL, OPT_RANDOM_SEED},
	{"fillfactor", required_argument, NULL, 'F'},
	{"jobs", required_argument, NULL, 'j'},
	{"quiet", no_argument, NULL, 'q'},
	{"foreign-keys", no_argument, NULL, OPT_FOREIGN_KEYS},
	{"partition-method", required_argument, NULL, OPT_PARTITION_METHOD},
	{"partitions", required_argument, NULL, OPT_PARTITIONS},
	{"unlogged-tables", no_argument, NULL, OPT_UNLOGGED_TABLES},
	{"distributed", no_argument, NULL, OPT_DISTRIBUTED},
	{"shard-count", required_argument, NULL, OPT_SHARD_COUNT},
	{"rate", required_argument, NULL, 'R'},
	{"latency-limit", required_argument, NULL, 'L'},
	{"vacuum-all", no_argument, NULL, 'v'},
	{"max-tries", required_argument, NULL, OPT_MAX_TRIES},
	{"failures-detailed", no_argument, NULL, OPT_FAILURES_DETAILED},
	{"continue-on-error", no_argument, NULL, OPT_CONTINUE_ON_ERROR},
	{"exit-on-abort", no_argument, NULL, OPT_EXIT_ON_ABORT},
	{"warmup", required_argument, NULL, OPT_WARMUP},
	{"end-grace", required_argument, NULL, OPT_END_GRACE},
	{"settings", required_argument, NULL, OPT_SETTINGS},
	{"set", required_argument, NULL, OPT_SET},
	{"repeat", required_argument, NULL, OPT_REPEAT},
	{"report", required_argument, NULL, OPT_REPORT},
	{"svg", required_argument, NULL, OPT_SVG},
	{"environment", no_argument, NULL, OPT_ENVIRONMENT},
	{"output", required_argument, NULL, 'o'},
	{"restart-command", required_argument, NULL, OPT_RESTART_COMMAND},
	{"restore", no_argument, NULL, OPT_RESTORE},
	{"list", optional_argument, NULL, OPT_LIST},
	{"compare", required_argument, NULL, OPT_COMPARE},
	{"threshold", required_argument, NULL, OPT_THRESHOLD},
	{NULL, 0, NULL, 0}
};

/* What the parsers gather beside the command itself */
typedef struct ParseState
{
	ClientCommand *cmd;
	ClientScript *files;		/* -f, kept apart until the built-ins are known */
	int			nfiles;
	const char *host;			/* -h, -p, -U, -d, as given */
	const char *port;
	const char *user;
	const char *dbname;
	bool		init;			/* -i */
	bool		restore;		/* --restore */
	bool		list;			/* --list */
	bool		list_scripts;	/* -b list */
	const char *compare_a;		/* --compare's run ids, side A */
	const char *compare_b;		/* the argument after them, side B */
	char	  **b_args;			/* -b, as given: the data set with -i */
	int			nb_args;
	bool		named_options;	/* --name=value: a workload's or data set's */
	bool		benchmarking_option_set;
	bool		output_option_set;	/* --report, --svg: runs and comparisons */
	bool		initialization_option_set;
} ParseState;

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
		   "  -b, --builtin=NAME       the server's data set to load (default: pgbench's\n"
		   "                           tables), with its own arguments as --NAME=VALUE\n"
		   "                           (\"--list NAME\" shows them)\n"
		   "  -F, --fillfactor=NUM     set fill factor\n"
		   "  -j, --jobs=NUM           number of loader workers (default: 1)\n"
		   "  -q, --quiet              quiet logging (one message each 5 seconds)\n"
		   "  -s, --scale=NUM          scaling factor\n"
		   "  --foreign-keys           create foreign key constraints between tables\n"
		   "  --partition-method=(range|hash)\n"
		   "                           partition pgbench_accounts with this method (default: range)\n"
		   "  --partitions=NUM         partition pgbench_accounts into NUM parts (default: 0)\n"
		   "  --unlogged-tables        create tables as unlogged tables\n"
		   "  --distributed            on a Citus coordinator, make the tables Citus tables\n"
		   "  --shard-count=NUM        shards of each distributed table (default: citus.shard_count)\n"
		   "\nOptions to select what to run:\n"
		   "  -b, --builtin=NAME[@W]   add builtin script NAME weighted at W (default: 1)\n"
		   "                           (use \"-b list\" to list available scripts)\n"
		   "  -b NAME --OPTION=VALUE   run another of the server's workloads (sysbench's\n"
		   "                           oltp_read_write, YCSB's ycsb-a, ...) with its own\n"
		   "                           options, as \"--list NAME\" shows them\n"
		   "  -f, --file=FILENAME[@W]  add script FILENAME weighted at W (default: 1)\n"
		   "  -N, --skip-some-updates  skip updates of pgbench_tellers and pgbench_branches\n"
		   "                           (same as \"-b simple-update\")\n"
		   "  -S, --select-only        perform SELECT-only transactions\n"
		   "                           (same as \"-b select-only\")\n"
		   "  --list[=NAME]            list the server's workloads and data sets, or the\n"
		   "                           options of workload NAME (or the arguments of data\n"
		   "                           set NAME, also given as the last argument), then\n"
		   "                           exit; give the database with -d\n"
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
		   "  --continue-on-error      continue running after an SQL error\n"
		   "  --end-grace=NUM          give transactions in flight at the end NUM seconds,\n"
		   "                           then cancel them (default: polarbench.end_grace)\n"
		   "  --exit-on-abort          exit when any client is aborted (the default here;\n"
		   "                           --exit_on_abort=false lets the other clients go on)\n"
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
		   "  --report=STYLE           json, csv, html (with -o), or the style of a\n"
		   "                           workload's tool, as \"--list\" shows them (default:\n"
		   "                           the workload's)\n"
		   "  -o, --output=FILE        with --report html, write the run's, the sweep's or\n"
		   "                           the comparison's report to FILE, one HTML page\n"
		   "  --svg=FILE               draw the run's progress, or the sweep, as SVG\n"
		   "  --environment            after the report, where the run ran: server, build,\n"
		   "                           settings, machine, data set\n"
		   "\nComparisons:\n"
		   "  --compare=ID[,...] ID[,...]\n"
		   "                           compare the runs of the first ids (A) with those of\n"
		   "                           the second (B): each metric's ratio B/A with its 95%%\n"
		   "                           interval and whether B is faster, then exit; with\n"
		   "                           --report json or csv as data, with --svg drawn\n"
		   "  --threshold=FRACTION     with --compare, call a ratio whose interval lies\n"
		   "                           within 1 +- FRACTION equivalent (0.05: 5%%)\n"
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
 * print_version
 *		-V: the client's version, the extension's, and PostgreSQL's.
 */
static void
print_version(void)
{
	printf("%s %s (PostgreSQL %s)\n", progname, POLARBENCH_VERSION, PG_VERSION);
}

/* ---- values of options -------------------------------------------------- */

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
 * parse_number
 *		A finite number for option name: greater than zero, or with zero_ok
 *		zero or more; exits otherwise.
 */
static double
parse_number(const char *arg, const char *name, bool zero_ok)
{
	char	   *end;
	double		v;

	errno = 0;
	v = strtod(arg, &end);
	if (arg[0] == '\0' || *end != '\0' || errno != 0 || isinf(v) ||
		!(zero_ok ? v >= 0 : v > 0))
	{
		pg_log_error("invalid value \"%s\" for option %s", arg, name);
		pg_log_error_detail(zero_ok ? "Expecting a number of zero or more." :
							"Expecting a number greater than zero.");
		exit(1);
	}
	return v;
}

/*
 * parse_random_seed
 *		--random-seed: an unsigned integer, or NULL for "time" and "rand",
 *		for which the server draws a seed; exits on anything else.
 */
static const char *
parse_random_seed(const char *arg)
{
	char	   *end;
	long long	seed;

	if (strcmp(arg, "time") == 0 || strcmp(arg, "rand") == 0)
		return NULL;
	errno = 0;
	seed = strtoll(arg, &end, 10);
	if (arg[0] == '\0' || *end != '\0' || errno != 0 || seed < 0)
	{
		pg_log_error("unrecognized random seed option \"%s\"", arg);
		pg_log_error_detail("Expecting an unsigned integer, \"time\" or \"rand\".");
		exit(1);
	}
	return psprintf("%lld", seed);
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

/* ---- a parser for each group of options ---------------------------------- */

/*
 * parse_connection_option
 *		-h, -p, -U, -d.  Returns whether c is one of them.
 */
static bool
parse_connection_option(int c, const char *arg, ParseState *ps)
{
	switch (c)
	{
		case 'd':
			ps->dbname = pg_strdup(arg);
			return true;
		case 'h':
			ps->host = pg_strdup(arg);
			return true;
		case 'p':
			ps->port = pg_strdup(arg);
			return true;
		case 'U':
			ps->user = pg_strdup(arg);
			return true;
	}
	return false;
}

/*
 * parse_script_option
 *		What to run: -b (and -b list), -f, -N, -S, and -D's variables.
 *		Returns whether c is one of them.
 */
static bool
parse_script_option(int c, const char *arg, ParseState *ps)
{
	ClientOptions *opts = &ps->cmd->run;

	switch (c)
	{
		case 'b':
			if (strcmp(arg, "list") == 0)
			{
				ps->list_scripts = true;
				return true;
			}
			/* with -i, the data set: decide_mode() tells */
			ps->b_args = pg_realloc(ps->b_args, sizeof(char *) * (ps->nb_args + 1));
			ps->b_args[ps->nb_args++] = pg_strdup(arg);
			add_builtin(opts, arg);
			return true;
		case 'f':
			ps->files = pg_realloc(ps->files, sizeof(ClientScript) * (ps->nfiles + 1));
			ps->files[ps->nfiles++] = read_script_file(arg);
			break;
		case 'N':
			add_builtin(opts, "simple-update");
			break;
		case 'S':
			add_builtin(opts, "select-only");
			break;
		case 'D':
			add_define(opts, arg);
			break;
		default:
			return false;
	}
	ps->benchmarking_option_set = true;
	return true;
}

/*
 * add_workload_option
 *		Add an option of the workload (or, with -i, an argument of the data
 *		set), name as given; value NULL for none.
 */
static void
add_workload_option(ClientOptions *opts, char *name, const char *value)
{
	opts->opt_names = pg_realloc(opts->opt_names, sizeof(char *) * (opts->nopts + 1));
	opts->opt_values = pg_realloc(opts->opt_values, sizeof(char *) * (opts->nopts + 1));
	opts->opt_names[opts->nopts] = name;
	opts->opt_values[opts->nopts] = value ? pg_strdup(value) : NULL;
	opts->nopts++;
}

/*
 * parse_run_option
 *		How the run goes: clients, its length, progress, rate, latency
 *		limit, tries, errors, warm-up, seed, scale, settings, vacuum.  Returns
 *		whether c is one of them.
 */
static bool
parse_run_option(int c, const char *arg, ParseState *ps)
{
	ClientOptions *opts = &ps->cmd->run;

	switch (c)
	{
		case 'c':
			parse_client_counts(opts, arg);
			break;
		case 't':
			if (!option_parse_int(arg, "-t/--transactions", 1, INT_MAX, &opts->nxacts))
				exit(1);
			break;
		case 'T':
			if (!option_parse_int(arg, "-T/--time", 1, INT_MAX, &opts->duration))
				exit(1);
			break;
		case 'P':
			if (!option_parse_int(arg, "-P/--progress", 1, INT_MAX, &opts->progress))
				exit(1);
			break;
		case 'R':
			opts->rate = parse_number(arg, "-R/--rate", false);
			break;
		case 'L':
			opts->latency_limit = parse_number(arg, "-L/--latency-limit", false);
			break;
		case 'v':
			opts->vacuum_all = true;
			break;
		case OPT_MAX_TRIES:
			if (!option_parse_int(arg, "--max-tries", 0, INT_MAX, &opts->max_tries))
				exit(1);
			break;
			/* pgbench's, options of a run of scripts, as --name=true would be */
		case OPT_CONTINUE_ON_ERROR:
			opts->continue_on_error = true;
			add_workload_option(opts, pg_strdup("continue_on_error"), "true");
			break;
		case OPT_EXIT_ON_ABORT:
			opts->exit_on_abort = true;
			add_workload_option(opts, pg_strdup("exit_on_abort"), "true");
			break;
		case OPT_WARMUP:
			opts->warmup = parse_number(arg, "--warmup", false);
			break;
		case OPT_END_GRACE:
			opts->end_grace = parse_number(arg, "--end-grace", true);
			break;
		case OPT_RANDOM_SEED:
			opts->random_seed = parse_random_seed(arg);
			break;
		case OPT_SETTINGS:
			parse_settings(&opts->settings, arg, false);
			break;

			/* these two are pgbench's, and not benchmarking options to it */
		case 'n':
			opts->no_vacuum = true;
			return true;
		case 's':
			/* the run's :scale, or the data set's with -i */
			if (!option_parse_int(arg, "-s/--scale", 1, INT_MAX, &opts->scale))
				exit(1);
			return true;
		default:
			return false;
	}
	ps->benchmarking_option_set = true;
	return true;
}

/*
 * parse_init_option
 *		pgbench -i's options, for polarbench_init().  Returns whether c is
 *		one of them.
 */
static bool
parse_init_option(int c, const char *arg, ParseState *ps)
{
	InitOptions *init = &ps->cmd->init;

	switch (c)
	{
		case 'F':
			if (!option_parse_int(arg, "-F/--fillfactor", 10, 100, &init->fillfactor))
				exit(1);
			break;
		case 'q':
			init->quiet = true;
			break;
		case OPT_FOREIGN_KEYS:
			init->foreign_keys = true;
			break;
		case OPT_PARTITION_METHOD:
			if (strcmp(arg, "range") != 0 && strcmp(arg, "hash") != 0)
			{
				pg_log_error("invalid partition method, expecting \"range\" or \"hash\", got: \"%s\"",
							 arg);
				exit(1);
			}
			init->partition_method = pg_strdup(arg);
			break;
		case OPT_PARTITIONS:
			if (!option_parse_int(arg, "--partitions", 0, INT_MAX, &init->partitions))
				exit(1);
			init->partitions_given = true;
			break;
		case OPT_UNLOGGED_TABLES:
			init->unlogged = true;
			break;
		case OPT_DISTRIBUTED:
			init->distributed = true;
			break;
		case OPT_SHARD_COUNT:
			if (!option_parse_int(arg, "--shard-count", 1, 64000, &init->shard_count))
				exit(1);
			break;
		case 'j':
			/* loader workers with -i; every client is a worker anyway */
			if (!option_parse_int(arg, "-j/--jobs", 1, INT_MAX, &init->jobs))
				exit(1);
			return true;
		default:
			return false;
	}
	ps->initialization_option_set = true;
	return true;
}

/*
 * parse_report_option
 *		What is printed of the run: -r, --failures-detailed, --report,
 *		--svg, --environment and -o.  Returns whether c is one of them.
 */
static bool
parse_report_option(int c, const char *arg, ParseState *ps)
{
	ClientOptions *opts = &ps->cmd->run;

	switch (c)
	{
		case 'r':
			opts->report_per_command = true;
			break;
		case OPT_FAILURES_DETAILED:
			opts->failures_detailed = true;
			break;
		case OPT_REPORT:
			/* json, csv, or a workload's tool's: checked once connected */
			opts->report = pg_strdup(arg);
			/* a run's or a comparison's */
			ps->output_option_set = true;
			return true;
		case OPT_SVG:
			opts->svg = pg_strdup(arg);
			ps->output_option_set = true;
			return true;
		case OPT_ENVIRONMENT:
			opts->environment = true;
			break;
		case 'o':
			opts->output = pg_strdup(arg);
			ps->output_option_set = true;
			return true;
		default:
			return false;
	}
	ps->benchmarking_option_set = true;
	return true;
}

/*
 * parse_compare_option
 *		--compare and --threshold.  Returns whether c is one of them.
 */
static bool
parse_compare_option(int c, const char *arg, ParseState *ps)
{
	ClientOptions *opts = &ps->cmd->run;
	char	   *end;

	switch (c)
	{
		case OPT_COMPARE:
			ps->compare_a = pg_strdup(arg);
			return true;
		case OPT_THRESHOLD:
			errno = 0;
			opts->threshold = strtod(arg, &end);
			if (arg[0] == '\0' || *end != '\0' || errno != 0 ||
				!(opts->threshold > 0 && opts->threshold < 1))
			{
				pg_log_error("invalid value \"%s\" for option --threshold", arg);
				pg_log_error_detail("Expecting a fraction above 0 and below 1, as 0.05 for 5%%.");
				exit(1);
			}
			return true;
	}
	return false;
}

/*
 * parse_run_ids
 *		A side of --compare, run ids separated by commas, into its ids, the
 *		list as given and a SQL array; exits on anything but integers, an
 *		empty id (two commas in a row, or one at an end) too.
 */
static int
parse_run_ids(const char *arg, char ***ids, char **list, char **array)
{
	char	   *copy = pg_strdup(arg);
	char	   *tok;
	char	   *next;
	int			n = 0;
	PQExpBufferData l;
	PQExpBufferData a;

	initPQExpBuffer(&l);
	initPQExpBuffer(&a);
	*ids = NULL;
	for (tok = copy; tok != NULL; tok = next)
	{
		char	   *end;
		long long	id;

		/* not strtok(), which would pass over an empty id */
		next = strchr(tok, ',');
		if (next != NULL)
			*next++ = '\0';
		if (tok[0] == '\0')
		{
			pg_log_error("empty run id in --compare \"%s\"", arg);
			pg_log_error_hint("Give each side's run ids separated by commas: --compare 12,13 14,15.");
			exit(1);
		}
		errno = 0;
		id = strtoll(tok, &end, 10);
		if (*end != '\0' || errno != 0)
		{
			pg_log_error("invalid run id \"%s\" in --compare", tok);
			pg_log_error_hint("Give each side's run ids separated by commas: --compare 12,13 14,15.");
			exit(1);
		}
		*ids = pg_realloc(*ids, sizeof(char *) * (n + 1));
		(*ids)[n++] = psprintf("%lld", id);
		appendPQExpBuffer(&l, "%s%lld", n > 1 ? "," : "", id);
	}
	if (n == 0)
	{
		pg_log_error("--compare needs the run ids of two sides");
		pg_log_error_hint("Give each side's run ids separated by commas: --compare 12,13 14,15.");
		exit(1);
	}
	appendPQExpBuffer(&a, "{%s}", l.data);
	*list = l.data;
	*array = a.data;
	free(copy);
	return n;
}

/*
 * parse_sweep_option
 *		Sweeps and restarts: --set, --repeat, --restart-command.  Returns
 *		whether c is one of them.
 */
static bool
parse_sweep_option(int c, const char *arg, ParseState *ps)
{
	ClientOptions *opts = &ps->cmd->run;

	switch (c)
	{
		case OPT_SET:
			opts->sets = pg_realloc(opts->sets, sizeof(SettingSet) * (opts->nsets + 1));
			memset(&opts->sets[opts->nsets], 0, sizeof(SettingSet));
			parse_settings(&opts->sets[opts->nsets++], arg, true);
			break;
		case OPT_REPEAT:
			if (!option_parse_int(arg, "--repeat", 1, INT_MAX, &opts->repeat))
				exit(1);
			break;
		case OPT_RESTART_COMMAND:
			if (arg[0] == '\0')
			{
				pg_log_error("--restart-command must not be empty");
				exit(1);
			}
			opts->restart_command = pg_strdup(arg);
			/* a run's, a sweep's, and not refused with -i: as before */
			return true;
		default:
			return false;
	}
	ps->benchmarking_option_set = true;
	return true;
}

/*
 * parse_mode_option
 *		What to do other than a run: -i, --restore, --list, -V, --help;
 *		and getopt_long's complaints.  Returns whether c is one of them
 *		(exits for -V, --help and mistakes).
 */
static bool
parse_mode_option(int c, const char *arg, ParseState *ps, int argc, char **argv)
{
	switch (c)
	{
		case 'i':
			ps->init = true;
			return true;
		case OPT_RESTORE:
			ps->restore = true;
			return true;
		case OPT_LIST:
			ps->list = true;
			if (arg != NULL)
				ps->cmd->list_name = pg_strdup(arg);
			return true;
		case 'V':
			print_version();
			exit(0);
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
	}
	return false;
}

/* ---- workloads' options --------------------------------------------------- */

/* Whether name (len bytes) is, or abbreviates, a long option of the client's */
static const struct option *
client_long_option(const char *name, size_t len)
{
	for (const struct option *o = long_options; o->name != NULL; o++)
		if (strncmp(o->name, name, len) == 0)
			return o;
	return NULL;
}

/* Whether the short option c takes an argument */
static bool
short_option_takes_argument(char c)
{
	const char *p = strchr(short_options, c);

	return c != ':' && p != NULL && p[1] == ':';
}

/*
 * asks_init
 *		Whether the command line has -i (or --initialize), alone or among
 *		other short options, before any "--".
 */
static bool
asks_init(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
	{
		const char *arg = argv[i];

		if (strcmp(arg, "--") == 0)
			break;
		if (strcmp(arg, "--initialize") == 0)
			return true;
		if (arg[0] != '-' || arg[1] == '-')
			continue;
		for (const char *p = arg + 1; *p != '\0'; p++)
		{
			if (*p == 'i')
				return true;
			if (short_option_takes_argument(*p))
			{
				/* the rest, or the next argument, is its argument */
				if (p[1] == '\0')
					i++;
				break;
			}
		}
	}
	return false;
}

/*
 * take_workload_options
 *		Take the --name=value arguments that are no option of the client's
 *		out of the command line: a workload's options, in its tool's
 *		spellings (--table-size=25000, --readproportion=0.5), which the
 *		server's polarbench_workloads names and the server checks, or with
 *		-i a data set's arguments (--warehouses=10).  --name value is the
 *		same when value does not start with '-'; with -i, --name alone has
 *		no value (a boolean's true), and otherwise is left for getopt_long
 *		to refuse.  The arguments of options are left alone, wherever they
 *		are.
 */
static void
take_workload_options(int *argc, char **argv, ParseState *ps)
{
	ClientOptions *opts = &ps->cmd->run;
	bool		init = asks_init(*argc, argv);
	int			kept = 1;
	int			i;

	for (i = 1; i < *argc; i++)
	{
		char	   *arg = argv[i];

		if (strcmp(arg, "--") == 0)
			break;
		if (strncmp(arg, "--", 2) == 0)
		{
			const char *name = arg + 2;
			const char *eq = strchr(name, '=');
			size_t		len = eq ? eq - name : strlen(name);
			const struct option *o = len > 0 ? client_long_option(name, len) : NULL;

			if (len > 0 && o == NULL &&
				(eq != NULL || init || (i + 1 < *argc && argv[i + 1][0] != '-')))
			{
				const char *value = NULL;

				if (eq != NULL)
					value = eq + 1;
				else if (i + 1 < *argc && argv[i + 1][0] != '-')
					value = argv[++i];
				add_workload_option(opts, pnstrdup(name, len), value);
				ps->named_options = true;
				continue;
			}
			/* --define NAME=VALUE: its argument is the next one */
			if (eq == NULL && o != NULL && o->has_arg == required_argument && i + 1 < *argc)
				argv[kept++] = argv[i++];
		}
		else if (arg[0] == '-')
		{
			/* -D NAME=VALUE, -nD NAME=VALUE: the next one is an argument */
			for (const char *p = arg + 1; *p != '\0'; p++)
				if (short_option_takes_argument(*p))
				{
					if (p[1] == '\0' && i + 1 < *argc)
						argv[kept++] = argv[i++];
					break;
				}
		}
		argv[kept++] = argv[i];
	}
	for (; i < *argc; i++)
		argv[kept++] = argv[i];
	*argc = kept;
	argv[kept] = NULL;
}

/* ---- what cannot be together ---------------------------------------------- */

/*
 * decide_mode
 *		What the command line asks for, and the options that cannot go
 *		with it; exits with the reason.
 */
static void
decide_mode(ParseState *ps)
{
	ClientCommand *cmd = ps->cmd;
	ClientOptions *opts = &cmd->run;
	bool		run_option_set;

	/*
	 * -b and --name=value name the data set and its arguments with -i, a
	 * workload and its options otherwise
	 */
	if (ps->init)
	{
		if (ps->nb_args > 1)
		{
			pg_log_error("-i loads one data set, not %d", ps->nb_args);
			exit(1);
		}
		if (ps->nb_args == 1)
			cmd->init.dataset = ps->b_args[0];
		cmd->init.arg_names = opts->opt_names;
		cmd->init.arg_values = opts->opt_values;
		cmd->init.nargs = opts->nopts;
		opts->opt_names = opts->opt_values = NULL;
		opts->nopts = 0;
	}
	else if (ps->nb_args > 0 || ps->named_options)
		ps->benchmarking_option_set = true;
	run_option_set = ps->init || ps->benchmarking_option_set ||
		ps->output_option_set || ps->initialization_option_set ||
		opts->restart_command != NULL;

	/* an HTML report is a page of its own, in a file */
	if ((opts->report != NULL && strcmp(opts->report, "html") == 0) != (opts->output != NULL))
	{
		if (opts->output != NULL)
			pg_log_error("-o is used with --report html");
		else
			pg_log_error("--report html writes a file: give it with -o FILE");
		exit(1);
	}

	/* pgbench lists its scripts whatever else the line says */
	if (ps->list_scripts)
	{
		cmd->mode = PB_MODE_LIST_SCRIPTS;
		return;
	}
	if (opts->duration > 0 && opts->nxacts > 0)
	{
		pg_log_error("specify either a number of transactions (-t) or a duration (-T), not both");
		exit(1);
	}
	if (ps->restore && (run_option_set || ps->list))
	{
		pg_log_error("--restore cannot be used with other options than the connection's");
		pg_log_error_hint("Try \"%s --help\" for more information.", progname);
		exit(1);
	}
	if (ps->list && run_option_set)
	{
		pg_log_error("--list cannot be used with other options than the connection's");
		pg_log_error_hint("Try \"%s --help\" for more information.", progname);
		exit(1);
	}
	if (ps->compare_a != NULL)
	{
		if (ps->init || ps->benchmarking_option_set || ps->initialization_option_set ||
			opts->restart_command != NULL || ps->restore || ps->list)
		{
			pg_log_error("--compare cannot be used with options of a run, a load or a list");
			pg_log_error_hint("It takes the connection's options, --report json, csv or html (with -o), --svg and --threshold.");
			exit(1);
		}
		if (ps->compare_b == NULL)
		{
			pg_log_error("--compare needs the run ids of two sides");
			pg_log_error_hint("Give each side's run ids separated by commas: --compare 12,13 14,15.");
			exit(1);
		}
		if (opts->report != NULL && strcmp(opts->report, "json") != 0 &&
			strcmp(opts->report, "csv") != 0 && strcmp(opts->report, "html") != 0)
		{
			pg_log_error("--compare reports as a table, json, csv or html, not as %s", opts->report);
			exit(1);
		}
		opts->ncompare_a = parse_run_ids(ps->compare_a, &opts->compare_a,
										 &opts->compare_a_list, &opts->compare_a_array);
		opts->ncompare_b = parse_run_ids(ps->compare_b, &opts->compare_b,
										 &opts->compare_b_list, &opts->compare_b_array);
		cmd->mode = PB_MODE_COMPARE;
		return;
	}
	if (opts->threshold > 0)
	{
		pg_log_error("--threshold is used with --compare");
		exit(1);
	}
	if (ps->init && (ps->benchmarking_option_set || ps->output_option_set))
	{
		pg_log_error("some of the specified options cannot be used in initialization (-i) mode");
		exit(1);
	}
	if (!ps->init && ps->initialization_option_set)
	{
		pg_log_error("some of the specified options cannot be used in benchmarking mode");
		exit(1);
	}
	if (cmd->init.partitions == 0 && cmd->init.partition_method != NULL)
	{
		pg_log_error("--partition-method requires greater than zero --partitions");
		exit(1);
	}
	cmd->mode = ps->restore ? PB_MODE_RESTORE : ps->list ? PB_MODE_LIST :
		ps->init ? PB_MODE_INIT : PB_MODE_RUN;
	if (cmd->mode == PB_MODE_INIT)
		cmd->init.scale = opts->scale;
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

/* ---- where to connect ----------------------------------------------------- */

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
 * take_arguments
 *		The arguments that are no options: the database, or with --list the
 *		name to list (the database then comes with -d).  Exits on more.
 */
static void
take_arguments(int argc, char **argv, ParseState *ps)
{
	if (optind < argc && ps->list && ps->cmd->list_name == NULL)
		ps->cmd->list_name = argv[optind++];
	if (optind < argc && ps->compare_a != NULL && ps->compare_b == NULL)
		ps->compare_b = argv[optind++];
	if (optind < argc && ps->dbname == NULL)
		ps->dbname = argv[optind++];
	if (optind < argc)
	{
		pg_log_error("too many command-line arguments (first is \"%s\")",
					 argv[optind]);
		pg_log_error_hint("Try \"%s --help\" for more information.", progname);
		exit(1);
	}
}

/*
 * parse_command_line
 *		Read the command line into cmd: --help and -V first, as pgbench
 *		does, then every option by its group's parser, the arguments, what
 *		cannot be together, the scripts (read and checked) and the nodes.
 *		Exits on any mistake, with the reason.
 */
void
parse_command_line(int argc, char **argv, ClientCommand *cmd)
{
	ParseState	ps = {0};
	int			c;
	int			optindex;

	if (argc > 1)
	{
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0)
		{
			usage();
			exit(0);
		}
		if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)
		{
			print_version();
			exit(0);
		}
	}

	memset(cmd, 0, sizeof(*cmd));
	cmd->run.nclients = 1;
	cmd->run.max_tries = 1;
	cmd->run.end_grace = -1;
	cmd->run.repeat = 1;
	cmd->init.fillfactor = 100;
	cmd->init.jobs = 1;
	ps.cmd = cmd;

	take_workload_options(&argc, argv, &ps);
	while ((c = getopt_long(argc, argv, short_options, long_options, &optindex)) != -1)
	{
		if (parse_connection_option(c, optarg, &ps) ||
			parse_script_option(c, optarg, &ps) ||
			parse_run_option(c, optarg, &ps) ||
			parse_init_option(c, optarg, &ps) ||
			parse_report_option(c, optarg, &ps) ||
			parse_compare_option(c, optarg, &ps) ||
			parse_sweep_option(c, optarg, &ps) ||
			parse_mode_option(c, optarg, &ps, argc, argv))
			continue;
		pg_log_error_hint("Try \"%s --help\" for more information.", progname);
		exit(1);
	}
	take_arguments(argc, argv, &ps);
	decide_mode(&ps);

	if (cmd->mode == PB_MODE_RUN)
	{
		finish_scripts(&cmd->run, ps.files, ps.nfiles);
		check_scripts(&cmd->run);
	}
	cmd->ntargets = make_targets(ps.host, ps.port, ps.user, ps.dbname, &cmd->targets);
	if (cmd->mode == PB_MODE_RUN)
		check_run_options(&cmd->run, cmd->ntargets);
	if (cmd->mode == PB_MODE_COMPARE && cmd->ntargets > 1)
	{
		pg_log_error("--compare compares the runs of one node");
		pg_log_error_hint("The runs of a hot standby are stored on its primary: compare them there.");
		exit(1);
	}
	if (cmd->mode == PB_MODE_INIT && cmd->ntargets > 1)
	{
		pg_log_error("-i initializes one node");
		pg_log_error_hint("Initialize the primary; its standbys replicate the tables.");
		exit(1);
	}
}
