/*-------------------------------------------------------------------------
 *
 * run_args.c
 *	  polarbench_run()'s arguments, which polarbench_start()'s conductor and
 *	  polarbench_sweep() pass on too: checked, resolved by the workload's
 *	  driver into the run's configuration, and the run launched and waited
 *	  for.
 *
 * Everything a caller can get wrong is found here or by the driver, before
 * any worker starts: bad limits, too many clients for the background
 * worker slots, settings a run cannot have, and whatever the workload's
 * driver refuses (an unknown workload, a script's syntax error, a missing
 * table, an option out of range).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/xact.h"
#include "access/xlog.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "postmaster/postmaster.h"
#include "storage/ipc.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"

#include "admission.h"
#include "args.h"
#include "settings.h"
#include "functions.h"

/* Whether an argument was given non-null (options: not in version 1.0) */
#define PB_ARG_GIVEN(n)	(PG_NARGS() > (n) && !PG_ARGISNULL(n))

/* A server parameter for the run's clients, as SET name = value. */
static void
pb_add_json_setting(const char *name, const char *value, void *arg)
{
	pb_settings_add((PbRunConfig *) arg, name, value);
}

/*
 * pb_settings_from_json
 *		The settings of a run from a JSON object of scalars, as SET name =
 *		value would take them; kept as given for the record.
 */
void
pb_settings_from_json(PbRunConfig *config, Jsonb *jb)
{
	pb_json_scalars(jb, "settings", "setting",
					"{\"synchronous_commit\": \"off\", \"work_mem\": \"64MB\"}",
					pb_add_json_setting, config);
	config->settings_json = DatumGetCString(DirectFunctionCall1(jsonb_out,
																JsonbPGetDatum(jb)));
}

/* A parameter set with ALTER SYSTEM for the run. */
static void
pb_add_json_server_setting(const char *name, const char *value, void *arg)
{
	PbRunConfig *config = arg;
	int			n = config->nserver_settings;
	char	   *canonical = pb_setting_canonical_name(name);

	for (int i = 0; i < n; i++)
		if (strcmp(config->server_names[i], canonical) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("parameter \"%s\" is given twice in server_settings", name),
					 errhint("Parameter names are not case-sensitive; give each once.")));
	config->server_names = n == 0 ? palloc(sizeof(char *)) :
		repalloc(config->server_names, sizeof(char *) * (n + 1));
	config->server_values = n == 0 ? palloc(sizeof(char *)) :
		repalloc(config->server_values, sizeof(char *) * (n + 1));
	config->server_names[n] = canonical;
	config->server_values[n] = pstrdup(value);
	config->nserver_settings++;
}

/*
 * pb_server_settings_from_json
 *		The server settings of a run from a JSON object of scalars; kept as
 *		given for the record.
 */
void
pb_server_settings_from_json(PbRunConfig *config, Jsonb *jb)
{
	pb_json_scalars(jb, "server_settings", "setting",
					"{\"fsync\": \"off\", \"full_page_writes\": \"off\"}",
					pb_add_json_server_setting, config);
	config->server_settings_json = DatumGetCString(DirectFunctionCall1(jsonb_out,
																	   JsonbPGetDatum(jb)));
}

/*
 * pb_next_unstored_id
 *		The id of a run on a hot standby, which has no sequence to draw
 *		from: negative, from the backend's pid and a count of its runs, so
 *		that no two sessions' runs share one.
 */
static int64
pb_next_unstored_id(void)
{
	static uint32 count = 0;

	count = (count + 1) & 0xFFFFF;
	return -(((int64) MyProcPid << 20) | count);
}

/*
 * pb_check_end_grace
 *		How long the transactions in flight at the end of the duration may
 *		go on before their statements are canceled: the end_grace argument,
 *		or polarbench.end_grace.  Only a run with a duration has an end to
 *		give a grace after.
 */
static void
pb_check_end_grace(FunctionCallInfo fcinfo, PbRunParams *params)
{
	if (!PB_ARG_GIVEN(ARG_END_GRACE))
	{
		params->end_grace = pb_end_grace / 1000.0;
		return;
	}
	params->end_grace = PG_GETARG_FLOAT8(ARG_END_GRACE);
	if (isnan(params->end_grace) || params->end_grace < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("end_grace must be a number of seconds, not negative"),
				 errhint("end_grace is how long the transactions in flight at the end of the duration may take; 0 cancels them at once.")));
	if (params->end_grace > pb_max_run_duration)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("end_grace %g s exceeds polarbench.max_run_duration (%d s)",
						params->end_grace, pb_max_run_duration),
				 errhint("Give a shorter grace, or ask a superuser to raise polarbench.max_run_duration.")));
	if (params->duration == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("end_grace needs a duration"),
				 errdetail("A run of a number of transactions ends with its clients' last transactions, which are not cut off."),
				 errhint("Give a duration, as in duration => 60, end_grace => 5, or leave end_grace out.")));
}

/*
 * pb_check_pacing
 *		The run's rate, latency limit, tries and warm-up, checked as pgbench
 *		checks -R, -L and --max-tries; the warm-up must leave some of the
 *		duration to measure.
 */
static void
pb_check_pacing(FunctionCallInfo fcinfo, PbRunParams *params)
{
	params->max_tries = 1;
	if (PB_ARG_GIVEN(ARG_RATE))
	{
		params->rate = PG_GETARG_FLOAT8(ARG_RATE);
		if (!(params->rate > 0) || isinf(params->rate))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid rate limit: %g", params->rate),
					 errhint("rate is the target number of transactions per second of all clients together, a positive number.")));
		/* a client's mean gap must be a nanosecond or more, and fit a clock */
		if (params->rate > PB_MAX_RATE * params->nclients ||
			params->rate < PB_MIN_RATE * params->nclients)
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg_plural("rate limit %g is out of range for %d client",
								   "rate limit %g is out of range for %d clients",
								   params->nclients, params->rate, params->nclients),
					 errhint("Each client's share of the rate must be from %g to %g transactions per second.",
							 PB_MIN_RATE, PB_MAX_RATE)));
	}
	if (PB_ARG_GIVEN(ARG_LATENCY_LIMIT))
	{
		params->latency_limit = PG_GETARG_FLOAT8(ARG_LATENCY_LIMIT);
		if (!(params->latency_limit >= 0.001) ||
			params->latency_limit > (double) pb_max_run_duration * 1000)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid latency limit: %g", params->latency_limit),
					 errhint("latency_limit is a number of milliseconds from 0.001 to polarbench.max_run_duration.")));
	}
	if (PB_ARG_GIVEN(ARG_MAX_TRIES))
	{
		params->max_tries = PG_GETARG_INT32(ARG_MAX_TRIES);
		if (params->max_tries < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid number of maximum tries: %d", params->max_tries),
					 errhint("max_tries is 1 (no retry), more, or 0 for as many as the duration or the latency limit allows.")));
		if (params->max_tries == 0 && params->latency_limit == 0 &&
			params->duration == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("an unlimited number of transaction tries can only be used with latency_limit or a duration")));
	}
	if (PB_ARG_GIVEN(ARG_WARMUP))
	{
		params->warmup = PG_GETARG_FLOAT8(ARG_WARMUP);
		if (params->warmup < 0 || isnan(params->warmup))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("warmup must not be negative")));
		if (params->warmup > 0 && params->duration == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("warmup needs a duration"),
					 errhint("The warm-up is the first part of the duration; give one, as in duration => 60, warmup => 10.")));
		if (params->warmup >= params->duration && params->warmup > 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("warmup (%g s) must be shorter than the duration (%g s)",
							params->warmup, params->duration),
					 errhint("The warm-up is the first part of the duration, which is measured after it.")));
	}
	if (PB_ARG_GIVEN(ARG_COUNTERS_ONLY))
		params->counters_only = PG_GETARG_BOOL(ARG_COUNTERS_ONLY);
	pb_check_end_grace(fcinfo, params);
}

/*
 * pb_check_caller
 *		Refuse what cannot work: a benchmark started from a restricted
 *		context, from a transaction whose changes the clients could not see
 *		(and whose locks they might wait for forever), or by a role that may
 *		not log in (the clients log in as it).  function is the SQL
 *		function called; in the conductor of a background run (the one
 *		polarbench worker that may start a run), background.
 */
void
pb_check_caller(const char *function, bool background)
{
	if (!background)
		pb_refuse_in_worker(function);
	if (InSecurityRestrictedOperation())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("cannot start a benchmark within a security-restricted operation")));
	if (TransactionIdIsValid(GetTopTransactionIdIfAny()))
		ereport(ERROR,
				(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				 errmsg("%s cannot run in a transaction that has written data or taken an ACCESS EXCLUSIVE lock",
						function),
				 errdetail("Benchmark clients run in transactions of their own: they cannot see this transaction's changes and could wait for its locks."),
				 errhint("Commit or roll back first, then start the run.")));
	/* a hot standby runs polarbench_run(), which can keep its result to itself */
	if (RecoveryInProgress() && (background || strcmp(function, "polarbench_run") != 0))
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("%s cannot run on a hot standby", background ? "a background run" : function),
				 errdetail("A hot standby can store no run; its runs are kept by the session that runs them."),
				 errhint("On a hot standby, run read-only workloads with polarbench_run(), which returns their results without storing them.")));

	pb_check_role_can_login("Benchmark clients log in as the role that starts the run.",
							NULL);
}

/*
 * pb_nodes_all
 *		Whether argument argno, nodes, asks for a run on every node of the
 *		Citus cluster ('all') rather than on this server ('local', or NULL
 *		or not given); refuses any other value.
 */
bool
pb_nodes_all(FunctionCallInfo fcinfo, int argno)
{
	char	   *nodes;

	if (PG_NARGS() <= argno || PG_ARGISNULL(argno))
		return false;
	nodes = text_to_cstring(PG_GETARG_TEXT_PP(argno));
	if (strcmp(nodes, "local") == 0)
		return false;
	if (strcmp(nodes, "all") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid value for nodes: \"%s\"", nodes),
				 errhint("nodes is 'all' (clients on every node of the Citus cluster) or 'local' (this server only).")));
	return true;
}

/*
 * pb_workload_args
 *		The arguments that say what a run runs, for its driver.
 */
static void
pb_workload_args(FunctionCallInfo fcinfo, PbWorkloadArgs *args)
{
	memset(args, 0, sizeof(PbWorkloadArgs));
	args->workload = PG_ARGISNULL(ARG_WORKLOAD) ? NULL :
		text_to_cstring(PG_GETARG_TEXT_PP(ARG_WORKLOAD));
	args->script = PG_ARGISNULL(ARG_SCRIPT) ? NULL :
		text_to_cstring(PG_GETARG_TEXT_PP(ARG_SCRIPT));
	args->script_weight = PG_ARGISNULL(ARG_SCRIPT_WEIGHT) ? 1 :
		PG_GETARG_INT32(ARG_SCRIPT_WEIGHT);
	args->scripts = PG_ARGISNULL(ARG_SCRIPTS) ? NULL : PG_GETARG_ARRAYTYPE_P(ARG_SCRIPTS);
	args->weights = PG_ARGISNULL(ARG_WEIGHTS) ? NULL : PG_GETARG_ARRAYTYPE_P(ARG_WEIGHTS);
	args->script_names = PB_ARG_GIVEN(ARG_SCRIPT_NAMES) ?
		PG_GETARG_ARRAYTYPE_P(ARG_SCRIPT_NAMES) : NULL;
	args->vars = PG_ARGISNULL(ARG_VARS) ? NULL : PG_GETARG_JSONB_P(ARG_VARS);
	args->scale_given = !PG_ARGISNULL(ARG_SCALE);
	args->scale = args->scale_given ? PG_GETARG_INT32(ARG_SCALE) : 0;
	args->options = PB_ARG_GIVEN(ARG_OPTIONS) ? PG_GETARG_JSONB_P(ARG_OPTIONS) : NULL;
}

/*
 * pb_run_id_arg
 *		A run's id, argument argno of an SQL function, which must not be null.
 */
int64
pb_run_id_arg(FunctionCallInfo fcinfo, int argno)
{
	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("run_id must not be null")));
	return PG_GETARG_INT64(argno);
}

/*
 * pb_check_workload_options
 *		The options of a stored run of workload, checked as a run of it
 *		would read them (polarbench_record() holds documents to it).
 */
void
pb_check_workload_options(const char *workload, Jsonb *options)
{
	const PbWorkloadDef *def;
	const PbDriver *driver = pb_driver(pb_kind_find(workload, &def));

	driver->check_options(def, options);
}

/*
 * pb_check_limits
 *		The run's clients, duration or transactions and progress, into
 *		params; with neither a duration nor transactions, the default of the
 *		workload's driver (params->limited says which).
 */
static void
pb_check_limits(FunctionCallInfo fcinfo, const PbDriver *driver, PbRunParams *params)
{
	int			clients;

	if (PG_ARGISNULL(ARG_CLIENTS))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("clients must not be null")));
	clients = PG_GETARG_INT32(ARG_CLIENTS);
	pb_check_range("clients", clients, 1, MAX_BACKENDS - 1, NULL);
	if (clients + 1 > max_worker_processes)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("%d clients need %d background workers, more than max_worker_processes allows",
						clients, clients + 1),
				 errdetail("A run needs one background worker per client and one more for its recorder."),
				 errhint("Raise max_worker_processes (it takes a server restart), or run with fewer clients.")));
	params->nclients = clients;

	if (!PG_ARGISNULL(ARG_DURATION) && !PG_ARGISNULL(ARG_TRANSACTIONS))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("specify either duration or transactions, not both")));
	if (!PG_ARGISNULL(ARG_DURATION))
	{
		params->duration = PG_GETARG_FLOAT8(ARG_DURATION);
		if (!(params->duration > 0) || isinf(params->duration))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("duration must be a positive number of seconds")));
		if (params->duration > pb_max_run_duration)
			ereport(ERROR,
					(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
					 errmsg("duration %g s exceeds polarbench.max_run_duration (%d s)",
							params->duration, pb_max_run_duration),
					 errhint("Run for a shorter time, or ask a superuser to raise polarbench.max_run_duration.")));
	}
	else if (!PG_ARGISNULL(ARG_TRANSACTIONS))
	{
		params->transactions = PG_GETARG_INT64(ARG_TRANSACTIONS);
		pb_check_range("transactions", params->transactions, 1, PB_NO_MAXIMUM,
					   NULL);
	}
	else
	{
		/* the workload's tool's default (a budget of operations, or none) */
		params->transactions = driver->default_transactions;
		params->duration = Min(driver->default_duration, pb_max_run_duration);
	}
	if (!PG_ARGISNULL(ARG_PROGRESS))
	{
		params->progress = PG_GETARG_INT32(ARG_PROGRESS);
		pb_check_range("progress", params->progress, 0, PB_NO_MAXIMUM,
					   "progress is the number of seconds between progress reports; 0 turns them off.");
	}
	params->limited = !PG_ARGISNULL(ARG_DURATION) || !PG_ARGISNULL(ARG_TRANSACTIONS);
}

/*
 * pb_run_configure
 *		The run's workload, configured by its driver with the run's settings
 *		in force, as its clients will have them: the seed, the options, the
 *		commands; then its clients' memory checked, its statements prepared
 *		as the caller, and on a hot standby its writes refused.
 */
static void
pb_run_configure(FunctionCallInfo fcinfo, const PbWorkloadArgs *args,
				 PbRunConfig *config, PbRunParams *params)
{
	const PbDriver *driver = pb_driver(config->kind);
	PbRunEstimate estimate = {0, 0};
	int			nest;

	nest = pb_settings_push(config);
	if (!PG_ARGISNULL(ARG_RANDOM_SEED))
		config->random_seed = PG_GETARG_INT64(ARG_RANDOM_SEED);
	else if (!pg_strong_random(&config->random_seed, sizeof(config->random_seed)))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not generate a random seed")));
	if (args->def != NULL)
		config->workload = pstrdup(args->def->name);
	driver->configure(args, config, params, &estimate);
	if (config->options != NULL)
	{
		config->options_json = pb_kind_options_json(pb_kind_at(config->kind)->library,
													config->options);
		if (config->options_json == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("out of memory")));
	}
	/* the memory first: preparing takes the caller as much */
	pb_check_memory(params->nclients, estimate.nplans, params->ncommands,
					estimate.text_bytes, params->command_histograms);
	if (driver->check != NULL)
		driver->check(config, params);
	if (RecoveryInProgress() && driver->writes != NULL && driver->writes(config))
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("workload \"%s\" writes, and a hot standby runs only read-only workloads",
						config->workload),
				 errhint("Run it on the primary; on a standby, run one that only reads: polarbench_workloads says which write.")));
	pb_settings_pop(nest);
}

/*
 * pb_run_launch
 *		Launch a configured run, its workers admitted (the launcher lets go
 *		of the admission once they have connected), and wait for its end:
 *		the extension's owner and schema for its recorder, on a hot standby
 *		its unstored id, and whether the caller's snapshot may be let go.
 */
static void
pb_run_launch(FunctionCallInfo fcinfo, bool background,
			  const PbRunConfig *config, PbRunParams *params,
			  PbRunResult *result_out)
{
	Oid			schema = InvalidOid;

	params->owner = pb_extension_owner(&schema);
	params->schema = get_namespace_name(schema);

	if (RecoveryInProgress())
		params->unstored_id = pb_next_unstored_id();

	params->release_xmin = background || pb_can_release_snapshot(fcinfo);
	if (!params->release_xmin)
		ereport(NOTICE,
				(errmsg("this run holds back the removal of dead rows until it ends"),
				 errdetail("The calling statement's snapshot stays in use while the run goes on, so row versions the clients make dead cannot be pruned, which slows workloads that update."),
				 errhint("Run it as a statement of its own, such as SELECT * FROM polarbench_run(...), at READ COMMITTED, in a transaction that has written nothing and has no cursor open.")));

	pb_launch_run(config, params, result_out);
}

/*
 * pb_run_from_args
 *		Check polarbench_run()'s arguments in fcinfo, resolve them into a
 *		configuration (*config) and parameters (*params, whose on_started
 *		the caller may have set), launch the run and wait for its end.  In
 *		the conductor of a background run (background), no caller's
 *		statement waits: its snapshot is not kept.  With params->check_only
 *		(a sweep's check of a run to come), all but the start.
 *
 * Every check is made once, before anything changes: the arguments, the
 * settings, the workload (configured once, with the run's settings), the
 * admission of the run's workers.  Only then are the run's server settings
 * applied (and put back whatever happens), and the parameters' effective
 * values and the run's environment recorded as the clients will have them.
 */
void
pb_run_from_args(FunctionCallInfo fcinfo, bool background, PbRunParams *params_out,
				 PbRunConfig **config_out, PbRunResult *result_out)
{
	PbRunConfig *config;
	PbRunParams params = *params_out;
	PbWorkloadArgs args;
	int			nest;

	pb_check_caller("polarbench_run", background);

	pb_workload_args(fcinfo, &args);
	config = palloc0(sizeof(PbRunConfig));
	config->kind = pb_kind_find(args.workload, &args.def);
	pb_check_limits(fcinfo, pb_driver(config->kind), &params);
	pb_check_pacing(fcinfo, &params);
	params.command_histograms = !params.counters_only;

	if (PB_ARG_GIVEN(ARG_SETTINGS))
		pb_settings_from_json(config, PG_GETARG_JSONB_P(ARG_SETTINGS));
	if (PB_ARG_GIVEN(ARG_SERVER_SETTINGS))
	{
		pb_server_settings_from_json(config, PG_GETARG_JSONB_P(ARG_SERVER_SETTINGS));
		pb_server_settings_check(config);
	}
	/* the settings first: the workload is checked as the clients will run it */
	pb_settings_check(config);
	pb_run_configure(fcinfo, &args, config, &params);
	*config_out = config;

	if (params.check_only)
	{
		/* a run to come: it would fit what the limits leave now */
		pb_admission_check(params.nclients + 1);
		*params_out = params;
		return;
	}

	/* the clients and the recorder, admitted before the server changes */
	pb_admission_begin(params.nclients + 1);

	/* from here on, the server's settings are put back whatever happens */
	PG_ENSURE_ERROR_CLEANUP(pb_server_settings_cleanup, PointerGetDatum(config));
	{
		pb_server_settings_apply(config);
		pb_settings_record(config);
		/* where it runs, its data set found as its clients will find it */
		nest = pb_settings_push(config);
		config->environment_json = pb_environment(config);
		pb_settings_pop(nest);
		pb_run_launch(fcinfo, background, config, &params, result_out);
	}
	PG_END_ENSURE_ERROR_CLEANUP(pb_server_settings_cleanup, PointerGetDatum(config));
	pb_server_settings_restore(config);
	*params_out = params;
}
