/*-------------------------------------------------------------------------
 *
 * polarbench_client.h
 *	  Shared definitions of the polarbench command-line client: the run it
 *	  was asked for, and the report of its results (report.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef POLARBENCH_CLIENT_H
#define POLARBENCH_CLIENT_H

#include "libpq-fe.h"

#include "pb_workload.h"

/* One script of the run, as given with -b or -f */
typedef struct ClientScript
{
	const char *builtin;		/* canonical built-in name, or NULL for -f */
	char	   *desc;			/* "<builtin: select only>", or the file name */
	char	   *text;			/* the file's text; NULL for a built-in */
	int			weight;
} ClientScript;

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

	/* -b with a sysbench or YCSB workload, and its --name=value options */
	const PbWorkloadDef *native;
	char	  **opt_names;
	char	  **opt_values;
	int			nopts;

	int			nclients;		/* -c */
	int			duration;		/* -T, 0 when not given */
	int			nxacts;			/* -t, 0 when not given */
	int			progress;		/* -P */
	int			scale;			/* -s, 0 when not given */
	const char *random_seed;	/* --random-seed, NULL when not given */
	bool		report_per_command; /* -r */
} ClientOptions;

/* pgbench -i's options, passed to polarbench_init() */
typedef struct InitOptions
{
	int			scale;			/* -s */
	int			fillfactor;		/* -F */
	bool		unlogged;		/* --unlogged-tables */
	int			partitions;		/* --partitions */
	const char *partition_method;	/* --partition-method, NULL if none */
	bool		foreign_keys;	/* --foreign-keys */
	int			jobs;			/* -j: loader workers */
	bool		quiet;			/* -q: a progress line every 5 s */
} InitOptions;

/* The row polarbench_run() returns */
typedef struct ClientResult
{
	char	   *run_id;
	double		seconds;
	long long	transactions;
	double		tps;
	long long	statements;
	double		qps;
	long long	failed;
	bool		has_latency;	/* latencies are NULL without transactions */
	double		latency_avg;
	double		latency_stddev;
	double		latency_p50;
	double		latency_p95;
	double		latency_p99;
	double		latency_max;
} ClientResult;

/* report.c */
extern void print_results(PGconn *conn, const ClientOptions *opts,
						  const ClientResult *result, int scale);

#endif							/* POLARBENCH_CLIENT_H */
