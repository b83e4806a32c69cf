/*-------------------------------------------------------------------------
 *
 * sweep.c
 *	  polarbench_sweep(): every combination of client counts, setting
 *	  sets, variable sets and option sets, each run as polarbench_run()
 *	  would run it, repeated, in a stated order, with one row per run.
 *	  The runs are recorded with the sweep's id (the first run's), so that
 *	  polarbench_sweep_table() can show them as the reference reports'
 *	  tables.
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
 * failed run ends the sweep with its error, the runs before it recorded,
 * and so does an aborted one (a client that aborted alone, with
 * exit_on_abort false).
 *
 * With nodes => 'all', each run is a run across the Citus cluster
 * (cluster_run.c), every combination checked on every node first.  Their
 * sums are recorded in the caller's transaction, as polarbench_run(...,
 * nodes => 'all') records one, so they are recorded together once the last
 * run has ended: recorded after each run, the first would give the
 * transaction an id, which would hold dead rows back for every run after
 * it.  A run that fails is recorded too (with a warning) and ends the
 * sweep, its row the last, rather than an error, which would take the runs
 * before it away.
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
#include "functions.h"
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
	SWEEP_END_GRACE,			/* since 1.5 */
	SWEEP_NODES,
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
 * A sweep: its dimensions, how often each combination of them runs, and
 * polarbench_run()'s arguments, those that do not vary set once.  The
 * combinations are numbered, the client counts varying fastest, then the
 * options, the variables, the settings and the server settings.
 */
typedef struct PbSweep
{
	PbDimension clients;
	PbDimension sets;
	PbDimension vars;
	PbDimension options;
	PbDimension servers;
	int			repeat;
	int64		combinations;
	FunctionCallInfo run_fcinfo;
	MemoryContext run_cxt;		/* what one run takes, let go before the next */
	bool		cluster;		/* nodes => 'all': each run across the cluster */
} PbSweep;

/* A combination's place in each dimension */
typedef struct PbCombination
{
	int			c,
				o,
				v,
				s,
				g;
} PbCombination;

/*
 * pb_sweep_combination
 *		Combination k of the sweep, and polarbench_run()'s arguments for it.
 */
static PbCombination
pb_sweep_combination(PbSweep *sw, int64 k)
{
	PbCombination at;
	FunctionCallInfo run_fcinfo = sw->run_fcinfo;

	at.c = k % sw->clients.n;
	k /= sw->clients.n;
	at.o = k % sw->options.n;
	k /= sw->options.n;
	at.v = k % sw->vars.n;
	k /= sw->vars.n;
	at.s = k % sw->sets.n;
	at.g = k / sw->sets.n;

	run_fcinfo->args[ARG_CLIENTS].isnull = false;
	run_fcinfo->args[ARG_CLIENTS].value = sw->clients.values[at.c];
	run_fcinfo->args[ARG_SETTINGS].isnull = sw->sets.nulls[at.s];
	run_fcinfo->args[ARG_SETTINGS].value = sw->sets.values[at.s];
	run_fcinfo->args[ARG_SERVER_SETTINGS].isnull = sw->servers.nulls[at.g];
	run_fcinfo->args[ARG_SERVER_SETTINGS].value = sw->servers.values[at.g];
	run_fcinfo->args[ARG_VARS].isnull = sw->vars.nulls[at.v];
	run_fcinfo->args[ARG_VARS].value = sw->vars.values[at.v];
	run_fcinfo->args[ARG_OPTIONS].isnull = sw->options.nulls[at.o];
	run_fcinfo->args[ARG_OPTIONS].value = sw->options.values[at.o];
	return at;
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
 * pb_sweep_read_args
 *		The sweep's dimensions and repetitions, checked: its size against
 *		the limits, its sets of settings each against the runs' checks.
 */
static void
pb_sweep_read_args(FunctionCallInfo fcinfo, PbSweep *sw)
{
	if (PG_ARGISNULL(SWEEP_CLIENTS))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("clients must not be null")));
	pb_dimension(fcinfo, SWEEP_CLIENTS, "clients", INT4OID, &sw->clients);
	for (int i = 0; i < sw->clients.n; i++)
	{
		if (sw->clients.nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("clients must not contain nulls")));
		pb_check_range("clients", DatumGetInt32(sw->clients.values[i]), 1, PB_NO_MAXIMUM, NULL);
	}
	pb_dimension(fcinfo, SWEEP_SETTINGS, "settings", JSONBOID, &sw->sets);
	pb_dimension(fcinfo, SWEEP_VARS, "vars", JSONBOID, &sw->vars);
	pb_dimension(fcinfo, SWEEP_OPTIONS, "options", JSONBOID, &sw->options);
	pb_dimension(fcinfo, PG_NARGS() > SWEEP_SERVER_SETTINGS ? SWEEP_SERVER_SETTINGS : -1,
				 "server_settings", JSONBOID, &sw->servers);
	sw->repeat = 1;
	if (!PG_ARGISNULL(SWEEP_REPEAT))
	{
		sw->repeat = PG_GETARG_INT32(SWEEP_REPEAT);
		pb_check_range("repeat", sw->repeat, 1, PB_MAX_SWEEP_REPEAT,
					   "repeat is how many times every combination runs.");
	}
	sw->combinations = (int64) sw->clients.n * sw->sets.n * sw->vars.n *
		sw->options.n * sw->servers.n;
	pb_check_sweep_size(fcinfo, sw->repeat, sw->combinations);
	pb_check_setting_sets(&sw->sets, "setting", false, pb_settings_from_json,
						  pb_settings_check);
	pb_check_setting_sets(&sw->servers, "server setting", true,
						  pb_server_settings_from_json, pb_server_settings_check);
}

/*
 * pb_sweep_run_args
 *		polarbench_run()'s arguments: the sweep's that do not vary, no
 *		progress reports, the others NULL until a combination sets them.
 */
static FunctionCallInfo
pb_sweep_run_args(FunctionCallInfo fcinfo)
{
	FunctionCallInfo run_fcinfo = palloc0(SizeForFunctionCallInfo(PB_RUN_NARGS));

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
	if (PG_NARGS() > SWEEP_END_GRACE)
		PB_PASS(ARG_END_GRACE, SWEEP_END_GRACE);
#undef PB_PASS
	run_fcinfo->args[ARG_PROGRESS].isnull = false;
	run_fcinfo->args[ARG_PROGRESS].value = Int32GetDatum(0);
	return run_fcinfo;
}

/*
 * pb_sweep_check_all
 *		Every combination, checked as its run will be before the first run
 *		starts: a client count the limits do not leave room for, a script a
 *		variable set breaks, options a workload does not take are found now,
 *		not when their turn comes.  (Repetitions run the same.)
 */
static void
pb_sweep_check_all(PbSweep *sw)
{
	for (int64 k = 0; k < sw->combinations; k++)
	{
		PbRunParams params = {0};
		PbRunConfig *config;
		PbRunResult result;
		MemoryContext old_cxt;

		CHECK_FOR_INTERRUPTS();
		(void) pb_sweep_combination(sw, k);
		params.check_only = true;
		MemoryContextReset(sw->run_cxt);
		old_cxt = MemoryContextSwitchTo(sw->run_cxt);
		if (sw->cluster)
			pb_cluster_check(sw->run_fcinfo);
		else
			pb_run_from_args(sw->run_fcinfo, false, &params, &config, &result);
		MemoryContextSwitchTo(old_cxt);
	}
}

/*
 * pb_sweep_row
 *		The sweep's row of a run: its combination at, repetition r, the
 *		sweep's id and the run's figures.
 */
static void
pb_sweep_row(PbSweep *sw, PbCombination at, int r, int64 sweep_id,
			 const PbRunResult *result, Datum *values, bool *nulls)
{
	memset(nulls, 0, sizeof(bool) * OUT_NCOLUMNS);
	values[OUT_SWEEP_ID] = Int64GetDatum(sweep_id);
	values[OUT_RUN_ID] = Int64GetDatum(result->run_id);
	values[OUT_REPEAT] = Int32GetDatum(r);
	values[OUT_SETTING_SET] = Int32GetDatum(at.g * sw->sets.n + at.s + 1);
	values[OUT_CLIENTS] = sw->clients.values[at.c];
	values[OUT_SETTINGS] = sw->sets.values[at.s];
	nulls[OUT_SETTINGS] = sw->sets.nulls[at.s];
	values[OUT_VARS] = sw->vars.values[at.v];
	nulls[OUT_VARS] = sw->vars.nulls[at.v];
	values[OUT_OPTIONS] = sw->options.values[at.o];
	nulls[OUT_OPTIONS] = sw->options.nulls[at.o];
	values[OUT_TRANSACTIONS] = Int64GetDatum(result->summary.transactions);
	values[OUT_TPS] = Float8GetDatum(result->summary.tps);
	values[OUT_QPS] = Float8GetDatum(result->summary.qps);
	values[OUT_LATENCY_AVG] = Float8GetDatum(result->summary.latency_avg);
	values[OUT_LATENCY_P95] = Float8GetDatum(result->summary.latency_p95);
	values[OUT_LATENCY_P99] = Float8GetDatum(result->summary.latency_p99);
	values[OUT_FAILED] = Int64GetDatum(result->summary.failed);
	if (result->summary.transactions == 0)
		nulls[OUT_LATENCY_AVG] = nulls[OUT_LATENCY_P95] = nulls[OUT_LATENCY_P99] = true;
}

/*
 * pb_sweep_run_one
 *		Run combination k, the sweep's run run_no of repetition r, and
 *		return its row; the sweep's id is its first run's.
 */
static void
pb_sweep_run_one(PbSweep *sw, int64 k, int r, int run_no, int64 *sweep_id,
				 Datum *values, bool *nulls)
{
	PbCombination at = pb_sweep_combination(sw, k);
	PbRunParams params = {0};
	PbRunConfig *config;
	PbRunResult result;
	MemoryContext old_cxt;
	int			set_no = at.g * sw->sets.n + at.s + 1;

	params.sweep_id = *sweep_id;
	params.sweep_run = run_no;
	params.sweep_set = set_no;
	params.sweep_repeat = r;

	/*
	 * The runs before this one released the statement's snapshot (when it
	 * may), and their clients pruned what it saw: what is read before this
	 * run (the scale, the plans) is read with a new one.
	 */
	PushActiveSnapshot(GetTransactionSnapshot());
	MemoryContextReset(sw->run_cxt);
	old_cxt = MemoryContextSwitchTo(sw->run_cxt);
	pb_run_from_args(sw->run_fcinfo, false, &params, &config, &result);
	MemoryContextSwitchTo(old_cxt);
	PopActiveSnapshot();
	if (*sweep_id < 0)
		*sweep_id = result.run_id;
	/* an aborted run ends the sweep as a failed one does: its cell is no result */
	if (result.aborted > 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("run " INT64_FORMAT " of the sweep was aborted", result.run_id),
				 errdetail("%d of its clients aborted, so its figures cover only part of what it was to measure; the runs before it are recorded.",
						   result.aborted),
				 errhint("Run the sweep with exit_on_abort left true, or fix what the clients' error says.")));

	pb_sweep_row(sw, at, r, *sweep_id, &result, values, nulls);
}

/* One run of a sweep across the cluster, its sum not recorded yet */
typedef struct PbSweepStep
{
	PbCombination at;
	int			repeat;
	PbClusterParams params;
} PbSweepStep;

/*
 * pb_sweep_cluster
 *		Run the sweep's combinations across the cluster, repetition by
 *		repetition, until the last or one that does not finish; then record
 *		their sums, the first's id the sweep's, and return their rows.
 */
static void
pb_sweep_cluster(PbSweep *sw, ReturnSetInfo *rsinfo)
{
	PbSweepStep *steps = palloc0(sizeof(PbSweepStep) * sw->repeat * sw->combinations);
	int			nsteps = 0;
	bool		finished = true;
	int64		sweep_id = -1;

	for (int r = 1; r <= sw->repeat && finished; r++)
		for (int64 k = 0; k < sw->combinations && finished; k++)
		{
			PbSweepStep *step = &steps[nsteps++];

			CHECK_FOR_INTERRUPTS();
			step->at = pb_sweep_combination(sw, k);
			step->repeat = r;
			step->params.release_xmin = pb_can_release_snapshot(sw->run_fcinfo);
			step->params.sweep_run = nsteps;
			step->params.sweep_set = step->at.g * sw->sets.n + step->at.s + 1;
			step->params.sweep_repeat = r;
			/* as a run's, what is read before it is read with a new snapshot */
			PushActiveSnapshot(GetTransactionSnapshot());
			pb_cluster_conduct(sw->run_fcinfo, &step->params);
			PopActiveSnapshot();
			finished = strcmp(step->params.status, "finished") == 0;
		}

	for (int i = 0; i < nsteps; i++)
	{
		PbRunResult result = {0};
		Datum		values[OUT_NCOLUMNS];
		bool		nulls[OUT_NCOLUMNS];

		steps[i].params.sweep_id = sweep_id;
		result.run_id = pb_cluster_record(&steps[i].params);
		if (sweep_id < 0)
			sweep_id = result.run_id;
		pb_cluster_summary(result.run_id, &result.summary);
		pb_sweep_row(sw, steps[i].at, steps[i].repeat, sweep_id, &result, values, nulls);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	if (!finished)
		ereport(WARNING,
				(errmsg("sweep " INT64_FORMAT " ends at its run " INT64_FORMAT ", which did not finish",
						sweep_id, steps[nsteps - 1].params.run_id),
				 errdetail("Its row is the sweep's last; it and the runs before it are recorded.")));
}

/*
 * polarbench_sweep
 *		SQL entry point: see polarbench_sweep() in the install script.  The
 *		sweep's arguments are checked, then every combination as its run
 *		will be, then the combinations run, repetition by repetition, one
 *		row each.
 */
Datum
polarbench_sweep(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	PbSweep		sw;
	int64		sweep_id = -1;
	int			run_no = 0;

	pb_journal_recover();
	pb_check_called_once(fcinfo, "polarbench_sweep", "sweep");
	pb_check_caller("polarbench_sweep", false);
	sw.cluster = pb_nodes_all(fcinfo, SWEEP_NODES);
	pb_sweep_read_args(fcinfo, &sw);

	InitMaterializedSRF(fcinfo, 0);
	sw.run_cxt = AllocSetContextCreate(CurrentMemoryContext, "polarbench sweep run",
									   ALLOCSET_DEFAULT_SIZES);
	sw.run_fcinfo = pb_sweep_run_args(fcinfo);
	pb_sweep_check_all(&sw);
	if (sw.cluster)
	{
		pb_sweep_cluster(&sw, rsinfo);
		return (Datum) 0;
	}

	for (int r = 1; r <= sw.repeat; r++)
		for (int64 k = 0; k < sw.combinations; k++)
		{
			Datum		values[OUT_NCOLUMNS];
			bool		nulls[OUT_NCOLUMNS];

			CHECK_FOR_INTERRUPTS();
			pb_sweep_run_one(&sw, k, r, ++run_no, &sweep_id, values, nulls);
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		}
	return (Datum) 0;
}
