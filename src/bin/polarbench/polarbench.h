/*-------------------------------------------------------------------------
 *
 * polarbench.h
 *	  Shared definitions of the polarbench command-line program: the run it
 *	  was asked for, the connections it makes, and the files that turn
 *	  options into calls (run_query.c), prepare a database (setup.c), look
 *	  up the server's workloads and data sets (catalog.c), apply settings
 *	  that need a restart (restart.c), run sweeps (sweep.c), runs on
 *	  several nodes (nodes.c), print reports (report.c, report_data.c),
 *	  charts (chart.c) and comparisons of runs (compare.c), and read the
 *	  command line (scripts.c, options.c).
 *
 * In layers, each file calling only those above it in this list (the
 * order of PB_PROGRAM_NAMES in the Makefile, which test/check_layers.sh
 * checks): connection.c, run_query.c, report_data.c, report.c, chart.c,
 * compare.c, setup.c, catalog.c, restart.c, sweep.c, nodes.c, scripts.c,
 * options.c, polarbench.c.
 *
 *-------------------------------------------------------------------------
 */
#ifndef POLARBENCH_H
#define POLARBENCH_H

#include "libpq-fe.h"
#include "pqexpbuffer.h"

#include "run_figures.h"

/* POLARBENCH_VERSION: the extension's default_version, set by the Makefile */

/* One script of the run, as given with -b or -f */
typedef struct ClientScript
{
	const char *builtin;		/* canonical built-in name, or NULL for -f */
	char	   *desc;			/* "<builtin: select only>", or the file name */
	char	   *text;			/* the file's text; NULL for a built-in */
	int			weight;
} ClientScript;

/*
 * A workload of the server's that -b names and that is no pgbench script
 * of the client's: what polarbench_workloads says of it (catalog.c)
 */
typedef struct ClientWorkload
{
	char	   *name;
	char	  **options;		/* its options' names, as the view spells them */
	int			noptions;
} ClientWorkload;

/* name=value pairs: settings, or a sweep's setting set */
typedef struct SettingSet
{
	char	   *label;			/* as given, "name=value,name=value" */
	char	  **names;
	char	  **values;
	int			n;
} SettingSet;

/* What the command line asks for */
typedef struct ClientOptions
{
	/* scripts: built-ins first, then files, as the server numbers them */
	ClientScript *scripts;
	int			nscripts;
	int			nbuiltins;

	/* -D name=value, in order; a later one wins */
	char	  **var_names;
	char	  **var_values;
	int			nvars;

	/*
	 * -b names that are no built-in script, to look up in the server's
	 * polarbench_workloads once connected (resolve_workload), the workload
	 * one of them names, and the --name=value options given for it
	 */
	char	  **workload_names;
	int			nworkload_names;
	ClientWorkload *workload;
	char	  **opt_names;
	char	  **opt_values;
	int			nopts;

	int			nclients;		/* -c, its first count */
	int		   *client_counts;	/* -c 8,16,32: every count, in order */
	int			nclient_counts;
	int			duration;		/* -T, 0 when not given */
	int			nxacts;			/* -t, 0 when not given */
	int			progress;		/* -P */
	int			scale;			/* -s, 0 when not given */
	const char *random_seed;	/* --random-seed, NULL when not given */
	bool		report_per_command; /* -r */
	double		rate;			/* -R, transactions per second; 0: none */
	double		latency_limit;	/* -L, ms; 0: none */
	int			max_tries;		/* --max-tries; 1 unless given */
	bool		failures_detailed;	/* --failures-detailed */
	bool		continue_on_error;	/* --continue-on-error */
	bool		exit_on_abort;	/* --exit-on-abort */
	bool		environment;	/* --environment */
	double		warmup;			/* --warmup, seconds */
	double		end_grace;		/* --end-grace, seconds; -1 when not given */
	SettingSet	settings;		/* --settings name=value, for the run */
	SettingSet *sets;			/* --set: a sweep's setting sets */
	int			nsets;
	int			repeat;			/* --repeat */
	const char *report;			/* --report style, NULL: the workload's tool */
	const char *svg;			/* --svg FILE */
	const char *output;			/* -o FILE, of --report html */
	const char *restart_command;	/* --restart-command */
	bool		no_vacuum;		/* -n */
	bool		vacuum_all;		/* -v */

	/* --compare A,B C,D: each side's run ids, as given and as SQL arrays */
	char	  **compare_a;
	int			ncompare_a;
	char	  **compare_b;
	int			ncompare_b;
	char	   *compare_a_list;	/* "12,13" */
	char	   *compare_b_list;
	char	   *compare_a_array;	/* "{12,13}" */
	char	   *compare_b_array;
	double		threshold;		/* --threshold, a fraction; 0: none */
} ClientOptions;

/* An argument of polarbench_init() given for -i, checked (catalog.c) */
typedef struct InitArgument
{
	char	   *name;			/* the view's name of it */
	char	   *type;			/* its SQL type, schema-qualified */
	char	   *value;
} InitArgument;

/*
 * -i's options, passed to polarbench_init(): pgbench -i's, the data set -b
 * names, and that data set's own arguments as --name=value
 */
typedef struct InitOptions
{
	const char *dataset;		/* -b NAME; NULL: pgbench's tables */
	int			scale;			/* -s, 0 when not given */
	int			fillfactor;		/* -F */
	bool		unlogged;		/* --unlogged-tables */
	int			partitions;		/* --partitions */
	bool		partitions_given;
	const char *partition_method;	/* --partition-method, NULL if none */
	bool		foreign_keys;	/* --foreign-keys */
	bool		distributed;	/* --distributed */
	int			shard_count;	/* --shard-count, 0 when not given */
	int			jobs;			/* -j: loader workers */
	bool		quiet;			/* -q: a progress line every 5 s */
	/* --name=value or --name value, as given (value NULL: --name alone) */
	char	  **arg_names;
	char	  **arg_values;
	int			nargs;
	/* every argument given, checked against polarbench_datasets */
	InitArgument *call;
	int			ncall;
} InitOptions;

/* Where to connect: one node's part of -h, -p, -U and the database */
typedef struct ConnTarget
{
	const char *host;
	const char *port;
	const char *user;
	const char *dbname;
	char	   *label;			/* "host:port", to name the node */
} ConnTarget;

/* What the command line asks the client to do */
typedef enum ClientMode
{
	PB_MODE_RUN,				/* a run or a sweep */
	PB_MODE_INIT,				/* -i */
	PB_MODE_RESTORE,			/* --restore */
	PB_MODE_LIST,				/* --list [NAME] */
	PB_MODE_LIST_SCRIPTS,		/* -b list */
	PB_MODE_COMPARE				/* --compare A,B C,D */
} ClientMode;

/* The command line, read (options.c) */
typedef struct ClientCommand
{
	ClientMode	mode;
	const char *list_name;		/* --list NAME, or NULL */
	ClientOptions run;
	InitOptions init;
	ConnTarget *targets;		/* -h, -p, -U, -d: one node or several */
	int			ntargets;
} ClientCommand;

/* The C types of a figure's type (run_figures.h), as the program prints them */
#define CLIENT_FIG_CTYPE_COUNT	long long
#define CLIENT_FIG_CTYPE_NUMBER double

/*
 * The row polarbench_run() returns as the program reads it, what the
 * nodes' report adds up and the chart draws: its run_id and the figures of
 * PB_RUN_FIGURES marked for the program; the report of one run is the
 * server's
 */
typedef struct ClientResult
{
	char	   *run_id;
#define CLIENT_FIG_MEMBER(name, type, nulls, counter, run, progress, live, program) \
	PB_FIG_IF(program, CLIENT_FIG_CTYPE_##type name;)
	PB_RUN_FIGURES(CLIENT_FIG_MEMBER)
#undef CLIENT_FIG_MEMBER
} ClientResult;

/* A figure the program reads and prints, from PB_RUN_FIGURES */
typedef struct ClientFigure
{
	const char *name;
	bool		count;			/* long long, else double */
	size_t		offset;			/* in ClientResult */
} ClientFigure;

/* Query parameters, as text; NULL values are SQL nulls */
typedef struct ParamList
{
	const char **values;
	int			n;
	int			space;
} ParamList;

/* connection.c */
#define PB_QUERY_USER_PATH	0x01	/* in the session's own search_path */
#define PB_QUERY_CANCELABLE	0x02	/* SIGINT and SIGTERM cancel it */
extern const char *progname;
extern PGconn *connect_target(const ConnTarget *target, bool exit_on_failure);
extern void report_server_error(PGconn *conn, const PGresult *res);
extern PGresult *exec_query(PGconn *conn, int flags, const char *sql,
							int nparams, const char *const *params);
extern bool send_query(PGconn *conn, int flags, const char *sql, int nparams,
					   const char *const *params);
extern bool pin_search_path(PGconn *conn);
extern char *single_value(PGconn *conn, const char *sql, int nparams,
						  const char *const *params);
extern void defer_stop(bool on);
extern bool stop_was_requested(void);
extern void set_notice_mode(bool init, bool quiet, bool show_progress);
extern void exit_nicely(PGconn *conn, int status);
extern char *last_run_id(PGconn *conn);
extern int	runs_since(PGconn *conn, const char *last_run);

/* run_query.c */
extern void append_json_string(PQExpBuffer buf, const char *s);
extern char *setting_set_json_or_null(const SettingSet *set);
extern void build_run_query(const ClientOptions *opts, PQExpBuffer sql,
							ParamList *p, const char *settings_json,
							const char *server_json);
extern void build_sweep_query(const ClientOptions *opts, PQExpBuffer sql,
							  ParamList *p, const char *settings_json,
							  const char *server_json);
extern bool read_result(PGresult *res, int row, ClientResult *result);
extern const char *result_columns(void);
extern int	client_figure_count(void);
extern const ClientFigure *client_figure_at(int i);
extern void append_figure(PQExpBuffer buf, const ClientFigure *f,
						  const ClientResult *result);

/* report_data.c */
extern bool print_csv_query(PGconn *conn, const char *sql, int nparams,
							const char *const *params);
extern void csv_field(FILE *out, const char *value, bool last);

/* report.c */
extern bool write_html_report(PGconn *conn, const ClientOptions *opts,
							  const char *sql, int nparams,
							  const char *const *params);
extern int	print_run_report(PGconn *conn, const ClientOptions *opts,
							 const ClientResult *result);

/* chart.c */
/* the measurement library's (pb_measure.h) */
typedef struct PbChartSeries ChartSeries;
typedef struct PbChartPanel ChartPanel;
extern bool write_svg(const char *path, const char *title,
					  const ChartPanel *panels, int npanels);
extern bool chart_run_progress(PGconn *conn, const char *path,
							   const char *title, const char *run_id);

/* compare.c */
extern int	run_compare(PGconn *conn, const ClientOptions *opts);

/* setup.c */
extern bool ensure_extension(PGconn *conn, bool create);
extern void vacuum_tables(PGconn *conn, const ClientOptions *opts);
extern bool check_restart_command(const SettingSet *restart,
								  const char *command);
extern bool classify_settings(PGconn *conn, const SettingSet *in,
							  SettingSet *session, SettingSet *server,
							  SettingSet *restart);

/* catalog.c */
extern bool resolve_workload(PGconn *conn, ClientOptions *opts);
extern bool check_report_style(PGconn *conn, const ClientOptions *opts);
extern bool resolve_dataset(PGconn *conn, InitOptions *init);
extern void list_builtin_scripts(const ConnTarget *target);
extern int	list_catalog(PGconn *conn, const char *name);

/* restart.c */
typedef struct RestartState
{
	SettingSet	settings;		/* what ALTER SYSTEM sets, in order */
	int			napplied;		/* how many of them it set */
	char	  **previous;		/* their postgresql.auto.conf values, NULL: none */
	char	   *command;		/* the restart command */
	char	   *start_time;		/* the server's start before the restart */
	char	   *system_identifier;	/* the server, as pg_control_system() names it */
	char	   *host;			/* ... and as connected */
	char	   *port;
	char	   *pending_dir;	/* where the pending-restore file is */
	char	   *pending_file;	/* NULL until it is written */
	int			lock_fd;		/* with pending_file, it open and locked */
	bool		active;			/* the file is written: settings to put back */
} RestartState;
extern bool restart_apply(PGconn **conn, const ConnTarget *target,
						  const char *command, const SettingSet *settings,
						  RestartState *state);
extern bool restart_restore(PGconn **conn, const ConnTarget *target,
							RestartState *state);
extern int	restore_pending(PGconn **conn, const ConnTarget *target, bool *held);
extern bool setting_sets_equal(const SettingSet *a, const SettingSet *b);

/* sweep.c */
extern int	run_sweep(PGconn *conn, const ConnTarget *target,
					  const ClientOptions *opts);

/* nodes.c */
extern int	run_on_nodes(ConnTarget *targets, int ntargets,
						 ClientOptions *opts);

/* scripts.c */
extern void add_builtin(ClientOptions *opts, const char *arg);
extern ClientScript read_script_file(const char *arg);
extern void add_define(ClientOptions *opts, const char *arg);
extern void finish_scripts(ClientOptions *opts, const ClientScript *files,
						   int nfiles);
extern void check_scripts(const ClientOptions *opts);

/* options.c */
extern void parse_command_line(int argc, char **argv, ClientCommand *cmd);

#endif							/* POLARBENCH_H */
