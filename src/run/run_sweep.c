/*-------------------------------------------------------------------------
 *
 * run_sweep.c
 *	  polarbench_sweep(): every combination of client counts, setting
 *	  sets, variable sets and option sets, each run as polarbench_run()
 *	  would run it, repeated, in a stated order, with one row per run.
 *	  The runs are recorded with the sweep's id (the first run's), so that
 *	  polarbench_sweep_table() can show them as the seeds' tables.
 *
 * The order: for each repetition, for each server setting set, for each
 * setting set, for each variable set, for each option set, every client
 * count in the order given.  A column of the sweep's table (its setting
 * set, numbered from 1) is a server setting set with a setting set.  So a
 * repetition goes over the whole table before the next one starts, and
 * the machine's drift from one to the next moves every cell alike.
 *
 * Everything that can be checked before the first run is: the arrays'
 * shape, duplicate setting sets, and every setting set against the
 * parameters (run_settings.c).  The runs check the rest as each starts; a
 * failed run ends the sweep with its error, the runs before it recorded.
 *
 * calls: args.c, run_server_settings.c, run_settings.c, run_entry.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "args.h"
#include "run.h"
#include "settings.h"
#include "settings_journal.h"

PG_FUNCTION_INFO_V1(polarbench_sweep);

/* Argument positions of polarbench_sweep() */
enum
{
	SWEEP_WORKLOAD,
	SWEEP_CLIENTS,
	SWEEP_SETTINGS,
	SWEEP_VARS,
	SWEEP_OPTIONS,
	SWEEP_DURATION,
	SWEEP_TRANSACTIONS,
	SWEEP_REPEAT,
	SWEEP_WARMUP,
	SWEEP_SCRIPT,
	SWEEP_RANDOM_SEED,
	SWEEP_SCALE,
	SWEEP_RATE,
	SWEEP_LATENCY_LIMIT,
	SWEEP_MAX_TRIES,
	SWEEP_SERVER_SETTINGS,
	SWEEP_NARGS
};

/* Columns of the rows it returns */
enum
{
	OUT_SWEEP_ID,
	OUT_RUN_ID,
	OUT_REPEAT,
	OUT_SETTING_SET,
	OUT_CLIENTS,
	OUT_SETTINGS,
	OUT_VARS,
	OUT_OPTIONS,
	OUT_TRANSACTIONS,
	OUT_TPS,
	OUT_QPS,
	OUT_LATENCY_AVG,
	OUT_LATENCY_P95,
	OUT_LATENCY_P99,
	OUT_FAILED,
	OUT_NCOLUMNS
};

/* One dimension of a sweep: the values of an array argument, or one NULL */
/* The most repetitions, and the most runs, of one sweep */
#define PB_MAX_SWEEP_REPEAT		1000
#define PB_MAX_SWEEP_RUNS		10000

typedef struct PbDimension
{
	int			n;
	Datum	   *values;
	bool	   *nulls;
} PbDimension;

/*
 * pb_dimension
 *		The values of array argument argno (one NULL when it is NULL),
 *		which must be one-dimensional and not empty.
 */
static void
pb_dimension(FunctionCallInfo fcinfo, int argno, const char *name, Oid elemtype,
			 PbDimension *dim)
{
	ArrayType  *array;
	int16		typlen;
	bool		typbyval;
	char		typalign;

	if (argno < 0 || PG_ARGISNULL(argno))
	{
		dim->n = 1;
		dim->values = palloc0(sizeof(Datum));
		dim->nulls = palloc(sizeof(bool));
		dim->nulls[0] = true;
		return;
	}
	array = PG_GETARG_ARRAYTYPE_P(argno);
	pb_check_one_dimension(array, name);
	get_typlenbyvalalign(elemtype, &typlen, &typbyval, &typalign);
	deconstruct_array(array, elemtype, typlen, typbyval, typalign,
					  &dim->values, &dim->nulls, &dim->n);
}

/* Order of two strings, for qsort */
static int
pb_cmp_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/*
 * pb_setting_set_key
 *		What a set of parameters comes to, whatever the order and case of
 *		its names: "name=value" lines sorted by name.
 */
static char *
pb_setting_set_key(int n, char **names, char **values)
{
	char	  **lines = palloc(sizeof(char *) * Max(n, 1));
	StringInfoData key;

	for (int i = 0; i < n; i++)
		lines[i] = psprintf("%s=%s", names[i], values[i]);
	qsort(lines, n, sizeof(char *), pb_cmp_strings);
	initStringInfo(&key);
	for (int i = 0; i < n; i++)
		appendStringInfo(&key, "%s\n", lines[i]);
	return key.data;
}

/*
 * pb_check_setting_sets
 *		Refuse duplicate sets in a dimension of setting sets (what says
 *		which: "setting", "server setting"; server says which of the
 *		config's lists from_json fills), the same parameters to the same
 *		values whatever the case of their names, and any set the runs could
 *		not have, as from_json and check find them, before the first run.
 */
static void
pb_check_setting_sets(const PbDimension *sets, const char *what, bool server,
					  void (*from_json) (PbRunConfig *config, Jsonb *jb),
					  void (*check) (PbRunConfig *config))
{
	char	  **keys = palloc0(sizeof(char *) * sets->n);

	for (int i = 0; i < sets->n; i++)
	{
		if (!sets->nulls[i])
		{
			PbRunConfig *config = palloc0(sizeof(PbRunConfig));

			from_json(config, DatumGetJsonbP(sets->values[i]));
			check(config);
			keys[i] = server ?
				pb_setting_set_key(config->nserver_settings, config->server_names,
								   config->server_values) :
				pb_setting_set_key(config->nsettings, config->setting_names,
								   config->setting_values);
		}
		for (int k = 0; k < i; k++)
			if (sets->nulls[i] == sets->nulls[k] &&
				(sets->nulls[i] || strcmp(keys[i], keys[k]) == 0))
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("%s sets %d and %d of the sweep are the same", what, k + 1, i + 1),
						 errhint("Each setting set is a column of the sweep's table; give each once.")));
	}
}

/*
 * pb_sweep_args
 *		polarbench_run()'s arguments for the combination of client count c,
 *		setting set s, server setting set g, variable set v and option set
 *		o.
 */
static void
pb_sweep_args(FunctionCallInfo run_fcinfo, const PbDimension *clients, int c,
			  const PbDimension *sets, int s, const PbDimension *servers, int g,
			  const PbDimension *vars, int v, const PbDimension *options, int o)
{
	run_fcinfo->args[ARG_CLIENTS].isnull = false;
	run_fcinfo->args[ARG_CLIENTS].value = clients->values[c];
	run_fcinfo->args[ARG_SETTINGS].isnull = sets->nulls[s];
	run_fcinfo->args[ARG_SETTINGS].value = sets->values[s];
	run_fcinfo->args[ARG_SERVER_SETTINGS].isnull = servers->nulls[g];
	run_fcinfo->args[ARG_SERVER_SETTINGS].value = servers->values[g];
	run_fcinfo->args[ARG_VARS].isnull = vars->nulls[v];
	run_fcinfo->args[ARG_VARS].value = vars->values[v];
	run_fcinfo->args[ARG_OPTIONS].isnull = options->nulls[o];
	run_fcinfo->args[ARG_OPTIONS].value = options->values[o];
}

/*
 * pb_check_sweep_size
 *		A sweep is bounded: at most PB_MAX_SWEEP_RUNS runs, and with a
 *		duration, runs that together last no longer than
 *		polarbench.max_run_duration allows one run.
 */
static void
pb_check_sweep_size(FunctionCallInfo fcinfo, int repeat, int64 combinations)
{
	int64		runs = combinations * repeat;

	if (runs > PB_MAX_SWEEP_RUNS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("a sweep of " INT64_FORMAT " runs is more than the %d a sweep may have",
						runs, PB_MAX_SWEEP_RUNS),
				 errdetail(INT64_FORMAT " combinations of clients and sets, each run %d times.",
						   combinations, repeat),
				 errhint("Sweep over fewer values, or repeat less.")));
	if (!PG_ARGISNULL(SWEEP_DURATION) &&
		PG_GETARG_FLOAT8(SWEEP_DURATION) * runs > pb_max_run_duration)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("a sweep of " INT64_FORMAT " runs of %g s would last longer than polarbench.max_run_duration (%d s)",
						runs, PG_GETARG_FLOAT8(SWEEP_DURATION), pb_max_run_duration),
				 errdetail("A sweep's runs together are bounded as one run is."),
				 errhint("Run for a shorter time, sweep over fewer values, or ask a superuser to raise polarbench.max_run_duration.")));
}

/*
 * polarbench_sweep
 *		SQL entry point: see polarbench_sweep() in the install script.
 */
Datum
polarbench_sweep(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	PbDimension clients;
	PbDimension sets;
	PbDimension vars;
	PbDimension options;
	PbDimension servers;
	int			repeat = 1;
	int64		sweep_id = -1;
	int			run_no = 0;
	FunctionCallInfo run_fcinfo;
	MemoryContext run_cxt;
	MemoryContext old_cxt;

	pb_journal_recover();

	pb_check_caller("polarbench_sweep", false);
	if (PG_ARGISNULL(SWEEP_CLIENTS))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("clients must not be null")));
	pb_dimension(fcinfo, SWEEP_CLIENTS, "clients", INT4OID, &clients);
	for (int i = 0; i < clients.n; i++)
	{
		if (clients.nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("clients must not contain nulls")));
		pb_check_range("clients", DatumGetInt32(clients.values[i]), 1, PB_NO_MAXIMUM, NULL);
	}
	pb_dimension(fcinfo, SWEEP_SETTINGS, "settings", JSONBOID, &sets);
	pb_dimension(fcinfo, SWEEP_VARS, "vars", JSONBOID, &vars);
	pb_dimension(fcinfo, SWEEP_OPTIONS, "options", JSONBOID, &options);
	if (PG_NARGS() > SWEEP_SERVER_SETTINGS)
		pb_dimension(fcinfo, SWEEP_SERVER_SETTINGS, "server_settings", JSONBOID, &servers);
	else
		pb_dimension(fcinfo, -1, "server_settings", JSONBOID, &servers);
	if (!PG_ARGISNULL(SWEEP_REPEAT))
	{
		repeat = PG_GETARG_INT32(SWEEP_REPEAT);
		pb_check_range("repeat", repeat, 1, PB_MAX_SWEEP_REPEAT,
					   "repeat is how many times every combination runs.");
	}
	pb_check_sweep_size(fcinfo, repeat, (int64) clients.n * sets.n * vars.n *
						options.n * servers.n);
	pb_check_setting_sets(&sets, "setting", false, pb_settings_from_json,
						  pb_settings_check);
	pb_check_setting_sets(&servers, "server setting", true,
						  pb_server_settings_from_json, pb_server_settings_check);

	InitMaterializedSRF(fcinfo, 0);
	/* what one run takes, let go before the next */
	run_cxt = AllocSetContextCreate(CurrentMemoryContext, "polarbench sweep run",
									ALLOCSET_DEFAULT_SIZES);

	/* polarbench_run's arguments, those of the sweep's that do not vary */
	run_fcinfo = palloc0(SizeForFunctionCallInfo(PB_RUN_NARGS));
	run_fcinfo->flinfo = fcinfo->flinfo;	/* the caller's statement is this call */
	run_fcinfo->nargs = PB_RUN_NARGS;
	for (int i = 0; i < PB_RUN_NARGS; i++)
		run_fcinfo->args[i].isnull = true;
#define PB_PASS(run_arg, sweep_arg) \
	do { \
		run_fcinfo->args[run_arg].isnull = PG_ARGISNULL(sweep_arg); \
		run_fcinfo->args[run_arg].value = PG_GETARG_DATUM(sweep_arg); \
	} while (0)
	PB_PASS(ARG_WORKLOAD, SWEEP_WORKLOAD);
	PB_PASS(ARG_DURATION, SWEEP_DURATION);
	PB_PASS(ARG_TRANSACTIONS, SWEEP_TRANSACTIONS);
	PB_PASS(ARG_WARMUP, SWEEP_WARMUP);
	PB_PASS(ARG_SCRIPT, SWEEP_SCRIPT);
	PB_PASS(ARG_RANDOM_SEED, SWEEP_RANDOM_SEED);
	PB_PASS(ARG_SCALE, SWEEP_SCALE);
	PB_PASS(ARG_RATE, SWEEP_RATE);
	PB_PASS(ARG_LATENCY_LIMIT, SWEEP_LATENCY_LIMIT);
	PB_PASS(ARG_MAX_TRIES, SWEEP_MAX_TRIES);
#undef PB_PASS
	run_fcinfo->args[ARG_PROGRESS].isnull = false;
	run_fcinfo->args[ARG_PROGRESS].value = Int32GetDatum(0);

	/*
	 * Every combination, checked as its run will be before the first run
	 * starts: a client count the limits do not leave room for, a script a
	 * variable set breaks, options a workload does not take are found now,
	 * not when their turn comes.  (Repetitions run the same.)
	 */
	for (int g = 0; g < servers.n; g++)
		for (int s = 0; s < sets.n; s++)
			for (int v = 0; v < vars.n; v++)
				for (int o = 0; o < options.n; o++)
					for (int c = 0; c < clients.n; c++)
					{
						PbRunParams params;
						PbRunConfig *config;
						PbRunResult result;

						CHECK_FOR_INTERRUPTS();
						pb_sweep_args(run_fcinfo, &clients, c, &sets, s, &servers, g,
									  &vars, v, &options, o);
						memset(&params, 0, sizeof(params));
						params.check_only = true;
						MemoryContextReset(run_cxt);
						old_cxt = MemoryContextSwitchTo(run_cxt);
						pb_run_from_args(run_fcinfo, false, &params, &config, &result);
						MemoryContextSwitchTo(old_cxt);
					}

	for (int r = 1; r <= repeat; r++)
		for (int g = 0; g < servers.n; g++)
		for (int s = 0; s < sets.n; s++)
			for (int v = 0; v < vars.n; v++)
				for (int o = 0; o < options.n; o++)
					for (int c = 0; c < clients.n; c++)
					{
						PbRunParams params;
						PbRunConfig *config;
						PbRunResult result;
						Datum		values[OUT_NCOLUMNS];
						bool		nulls[OUT_NCOLUMNS];

						CHECK_FOR_INTERRUPTS();
						pb_sweep_args(run_fcinfo, &clients, c, &sets, s, &servers, g,
									  &vars, v, &options, o);

						memset(&params, 0, sizeof(params));
						params.sweep_id = sweep_id;
						params.sweep_run = ++run_no;
						params.sweep_set = g * sets.n + s + 1;
						params.sweep_repeat = r;
						/*
						 * The runs before this one released the statement's
						 * snapshot (when it may), and their clients pruned
						 * what it saw: what is read before this run (the
						 * scale, the plans) is read with a new one.
						 */
						PushActiveSnapshot(GetTransactionSnapshot());
						MemoryContextReset(run_cxt);
						old_cxt = MemoryContextSwitchTo(run_cxt);
						pb_run_from_args(run_fcinfo, false, &params, &config, &result);
						MemoryContextSwitchTo(old_cxt);
						PopActiveSnapshot();
						if (sweep_id < 0)
							sweep_id = result.run_id;

						memset(nulls, 0, sizeof(nulls));
						values[OUT_SWEEP_ID] = Int64GetDatum(sweep_id);
						values[OUT_RUN_ID] = Int64GetDatum(result.run_id);
						values[OUT_REPEAT] = Int32GetDatum(r);
						values[OUT_SETTING_SET] = Int32GetDatum(g * sets.n + s + 1);
						values[OUT_CLIENTS] = clients.values[c];
						values[OUT_SETTINGS] = sets.values[s];
						nulls[OUT_SETTINGS] = sets.nulls[s];
						values[OUT_VARS] = vars.values[v];
						nulls[OUT_VARS] = vars.nulls[v];
						values[OUT_OPTIONS] = options.values[o];
						nulls[OUT_OPTIONS] = options.nulls[o];
						values[OUT_TRANSACTIONS] = Int64GetDatum(result.summary.transactions);
						values[OUT_TPS] = Float8GetDatum(result.summary.tps);
						values[OUT_QPS] = Float8GetDatum(result.summary.qps);
						values[OUT_LATENCY_AVG] = Float8GetDatum(result.summary.latency_avg);
						values[OUT_LATENCY_P95] = Float8GetDatum(result.summary.latency_p95);
						values[OUT_LATENCY_P99] = Float8GetDatum(result.summary.latency_p99);
						values[OUT_FAILED] = Int64GetDatum(result.summary.failed);
						if (result.summary.transactions == 0)
							nulls[OUT_LATENCY_AVG] = nulls[OUT_LATENCY_P95] =
								nulls[OUT_LATENCY_P99] = true;
						tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
					}
	return (Datum) 0;
}
