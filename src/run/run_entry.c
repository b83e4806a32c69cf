/*-------------------------------------------------------------------------
 *
 * run_entry.c
 *	  polarbench_run(): checks the caller's arguments, resolves them into a
 *	  run configuration (scripts with weights, variables, scale, seed), and
 *	  returns the launched run's summary as one row.
 *
 * Everything a caller can get wrong is found here, before any worker
 * starts: unknown workloads, script syntax errors, variables never set,
 * bad limits, too many clients for the background worker slots.
 *
 * calls: settings.c, args.c, worker.c, admission.c, run_snapshot.c,
 * run_status.c, run_config.c, run_settings.c, sysbench_driver.c, ycsb_driver.c, drivers.c, run_check.c,
 * run_launcher.c; of the script library, script_set.c, builtin_scripts.c;
 * of the workload library, workload_options.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/indexing.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_extension.h"
#include "commands/dbcommands.h"
#include "commands/extension.h"
#include "executor/execdesc.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "postmaster/postmaster.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/formatting.h"
#include "storage/ipc.h"
#include "utils/fmgroids.h"
#include "utils/jsonb.h"
#include "tcop/pquery.h"
#include "utils/portal.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "admission.h"
#include "args.h"
#include "run.h"
#include "settings_journal.h"
#include "settings.h"

PG_FUNCTION_INFO_V1(polarbench_run);


/* Whether an argument was given non-null (options: not in version 1.0) */
#define PB_ARG_GIVEN(n)	(PG_NARGS() > (n) && !PG_ARGISNULL(n))

/* a client's share of a rate: a gap between starts from 1 ns to 11.6 days */
#define PB_MAX_RATE			1e9
#define PB_MIN_RATE			1e-6

/* pgbench's default: ten transactions per client */
#define PB_DEFAULT_TRANSACTIONS 10
/* sysbench's: --time=10 */
#define PB_SYSBENCH_DEFAULT_DURATION 10

/* A growing list of scripts and variables */
typedef struct PbConfigBuilder
{
	PbRunConfig *config;
	int			script_space;
	int			var_space;
	bool		builtin_used;
	StringInfoData workload;
} PbConfigBuilder;

/*
 * pb_grow
 *		An array grown to n elements of the given size; NULL grows from none.
 */
static void *
pb_grow(void *array, Size elemsize, int n)
{
	if (array == NULL)
		return palloc(elemsize * n);
	return repalloc(array, elemsize * n);
}

/*
 * pb_add_script
 *		Append one script with its weight.
 */
static void
pb_add_script(PbConfigBuilder *b, const char *name, const char *text, int weight)
{
	PbRunConfig *c = b->config;

	pb_check_range(psprintf("weight of script \"%s\"", name), weight, 0,
				   PG_INT32_MAX, NULL);
	if (c->nscripts == b->script_space)
	{
		b->script_space = Max(4, b->script_space * 2);
		c->script_names = pb_grow(c->script_names, sizeof(char *), b->script_space);
		c->script_texts = pb_grow(c->script_texts, sizeof(char *), b->script_space);
		c->weights = pb_grow(c->weights, sizeof(int), b->script_space);
	}
	c->script_names[c->nscripts] = pstrdup(name);
	c->script_texts[c->nscripts] = pstrdup(text);
	c->weights[c->nscripts] = weight;
	c->nscripts++;
	if (b->workload.len > 0)
		appendStringInfoChar(&b->workload, '+');
	appendStringInfoString(&b->workload, name);
}

/*
 * pb_add_var
 *		Append a variable given from outside, replacing an earlier value.
 */
static void
pb_add_var(PbConfigBuilder *b, const char *name, const char *value)
{
	PbRunConfig *c = b->config;

	for (int i = 0; i < c->nvars; i++)
		if (strcmp(c->var_names[i], name) == 0)
		{
			c->var_values[i] = pstrdup(value);
			return;
		}
	if (c->nvars == b->var_space)
	{
		b->var_space = Max(8, b->var_space * 2);
		c->var_names = pb_grow(c->var_names, sizeof(char *), b->var_space);
		c->var_values = pb_grow(c->var_values, sizeof(char *), b->var_space);
	}
	c->var_names[c->nvars] = pstrdup(name);
	c->var_values[c->nvars] = pstrdup(value);
	c->nvars++;
}

/* Whether a variable of that name was given. */
static bool
pb_has_var(PbRunConfig *c, const char *name)
{
	for (int i = 0; i < c->nvars; i++)
		if (strcmp(c->var_names[i], name) == 0)
			return true;
	return false;
}

/*
 * pb_add_builtins
 *		Add the built-in scripts a workload names: "name[@weight]", comma
 *		separated; unique prefixes are accepted, as pgbench's -b.
 */
static void
pb_add_builtins(PbConfigBuilder *b, const char *workload)
{
	char	   *copy = pstrdup(workload);
	char	   *save = NULL;

	for (char *item = strtok_r(copy, ",", &save); item != NULL;
		 item = strtok_r(NULL, ",", &save))
	{
		char	   *at;
		int			weight = 1;
		const char *canonical = NULL;
		const char *text;
		char	   *name;

		while (*item == ' ')
			item++;
		name = item;
		at = strrchr(item, '@');
		if (at != NULL)
		{
			PbError		err;

			if (!pb_parse_weight(at, &weight, &err))
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg_internal("%s", err.message),
						 errhint("A weight is a whole number from 0 to %d, as in \"select-only@5\".",
								 PG_INT32_MAX)));
			*at = '\0';
		}
		for (char *end = name + strlen(name); end > name && end[-1] == ' ';)
			*--end = '\0';

		if (pb_workload_find(name) != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("workload \"%s\" cannot be combined with scripts", name),
					 errhint("A sysbench or YCSB workload runs on its own; run pgbench scripts in a run of their own.")));
		text = pb_builtin_script(name, &canonical);
		if (text == NULL)
		{
			StringInfoData names;

			initStringInfo(&names);
			for (int i = 0; i < pb_builtin_count(); i++)
				appendStringInfo(&names, "%s%s", i > 0 ? ", " : "",
								 pb_builtin_name(i));
			for (int i = 0; i < pb_workload_count(); i++)
				appendStringInfo(&names, ", %s", pb_workload_at(i)->name);
			if (pb_builtin_matches(name) > 1)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("ambiguous builtin name: %d builtin scripts found for prefix \"%s\"",
								pb_builtin_matches(name), name),
						 errhint("The built-in workloads are %s.", names.data)));
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("no builtin script found for name \"%s\"", name),
					 errhint("The built-in workloads are %s.", names.data)));
		}
		pb_add_script(b, canonical ? canonical : name, text, weight);
		b->builtin_used = true;
	}
	if (b->config->nscripts == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("workload names no script")));
}

/* Called with each name and value (as text) of a JSON object of scalars */
typedef void (*PbJsonPairFn) (const char *name, const char *value, void *arg);

/*
 * pb_json_scalars
 *		Call fn on every member of a JSON object of scalars (numbers,
 *		strings, booleans); what is the argument's name ("vars", "options")
 *		and item what it holds ("variable", "option"), for the errors.
 */
static void
pb_json_scalars(Jsonb *jb, const char *what, const char *item, const char *example,
				PbJsonPairFn fn, void *arg)
{
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken tok;
	char	   *key = NULL;
	int			depth = 0;

	if (!JB_ROOT_IS_OBJECT(jb))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be a JSON object", what),
				 errhint("Pass %ss as in '%s'.", item, example)));

	it = JsonbIteratorInit(&jb->root);
	while ((tok = JsonbIteratorNext(&it, &v, false)) != WJB_DONE)
	{
		char	   *value;

		if (tok == WJB_BEGIN_OBJECT || tok == WJB_BEGIN_ARRAY)
		{
			if (++depth > 1)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("value of %s \"%s\" must be a number, a string or a boolean",
								item, key ? key : "")));
			continue;
		}
		if (tok == WJB_END_OBJECT || tok == WJB_END_ARRAY)
		{
			depth--;
			continue;
		}
		if (tok == WJB_KEY)
		{
			key = pnstrdup(v.val.string.val, v.val.string.len);
			continue;
		}
		switch (v.type)
		{
			case jbvString:
				value = pnstrdup(v.val.string.val, v.val.string.len);
				break;
			case jbvNumeric:
				value = DatumGetCString(DirectFunctionCall1(numeric_out,
															NumericGetDatum(v.val.numeric)));
				break;
			case jbvBool:
				value = v.val.boolean ? "true" : "false";
				break;
			default:
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("value of %s \"%s\" must be a number, a string or a boolean",
								item, key ? key : "")));
				value = NULL;	/* keep compiler quiet */
		}
		fn(key, value, arg);
	}
}

/* A variable from vars, as pgbench's -D name=value. */
static void
pb_add_json_var(const char *name, const char *value, void *arg)
{
	if (!pb_valid_variable_name(name))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid variable name: \"%s\"", name),
				 errhint("A variable's name has letters, digits and underscores, and does not start with a digit.")));
	pb_add_var((PbConfigBuilder *) arg, name, value);
}

/*
 * pb_add_json_vars
 *		Variables from a JSON object of scalars, as pgbench's -D name=value.
 */
static void
pb_add_json_vars(PbConfigBuilder *b, Jsonb *jb)
{
	pb_json_scalars(jb, "vars", "variable", "{\"scale\": 10, \"range\": 1000000}",
					pb_add_json_var, b);
}

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

/* What setting a native workload's options needs */
typedef struct PbOptionsBuilder
{
	PbWorkloadKind kind;
	void	   *options;
	bool		tables_given;
	bool		table_size_given;
} PbOptionsBuilder;

/* One option of a sysbench or YCSB workload. */
static void
pb_set_json_option(const char *name, const char *value, void *arg)
{
	PbOptionsBuilder *b = arg;
	PbError		err;

	memset(&err, 0, sizeof(err));
	if (!pb_workload_set_option(b->kind, b->options, name, value, &err))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg_internal("%s", err.message),
				 err.detail[0] ? errhint("%s", err.detail) : 0));
	b->tables_given |= pb_workload_option_is(name, "tables");
	b->table_size_given |= pb_workload_option_is(name, "table_size");
}

/*
 * pb_check_native_options
 *		Options of a sysbench or YCSB workload as a run would read them
 *		(its tool's defaults for the workload, then those given), checked as
 *		a run checks them: an option it does not have, a value out of its
 *		range or of the wrong type, or options that do not go together are
 *		errors.  What only the tables can tell is not looked at.
 */
void
pb_check_native_options(const PbWorkloadDef *def, Jsonb *options)
{
	PbOptionsBuilder b;
	PbError		err;

	memset(&b, 0, sizeof(b));
	b.kind = def->kind;
	if (def->kind == PB_KIND_SYSBENCH)
	{
		b.options = palloc0(sizeof(PbSysbenchOptions));
		pb_sysbench_defaults(b.options, def->variant);
	}
	else
	{
		b.options = palloc0(sizeof(PbYcsbOptions));
		pb_ycsb_defaults(b.options, def->variant);
	}
	pb_json_scalars(options, "options", "option",
					"{\"tables\": 64, \"table_size\": 25000}",
					pb_set_json_option, &b);
	memset(&err, 0, sizeof(err));
	if (!pb_workload_check_options(def->kind, b.options, &err))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg_internal("%s", err.message),
				 err.detail[0] ? errhint("%s", err.detail) : 0));
}

/*
 * pb_native_writes
 *		Whether a sysbench or YCSB workload, as configured, writes.
 */
static bool
pb_native_writes(const PbRunConfig *config)
{
	if (config->kind == PB_KIND_SYSBENCH)
	{
		const PbSysbenchOptions *o = config->options;

		return o->workload != PB_SB_READ_ONLY && o->workload != PB_SB_POINT_SELECT;
	}
	else
	{
		const PbYcsbOptions *o = config->options;

		return o->load || o->proportions[PB_YCSB_UPDATE] > 0 ||
			o->proportions[PB_YCSB_INSERT] > 0 || o->proportions[PB_YCSB_RMW] > 0;
	}
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
 * pb_configure_native
 *		A sysbench or YCSB workload: its options are its tool's defaults for
 *		that workload, then those given; what was not given is found in the
 *		tables; the clients' memory is estimated, then every statement is
 *		prepared as the caller.  Sets the configuration's options and the
 *		run's commands, operation budget and first insert key.
 */
static void
pb_configure_native(const PbWorkloadDef *def, Jsonb *options,
					PbRunConfig *config, PbRunParams *params, bool limited,
					int clients)
{
	PbOptionsBuilder b;
	PbCommandDesc *descs;

	memset(&b, 0, sizeof(b));
	b.kind = def->kind;
	config->kind = def->kind;
	config->workload = pstrdup(def->name);
	if (def->kind == PB_KIND_SYSBENCH)
	{
		PbSysbenchOptions *o = palloc0(sizeof(PbSysbenchOptions));

		pb_sysbench_defaults(o, def->variant);
		b.options = o;
		if (options != NULL)
			pb_json_scalars(options, "options", "option",
							"{\"tables\": 64, \"table_size\": 25000}",
							pb_set_json_option, &b);
		o->tables_given = b.tables_given;
		o->table_size_given = b.table_size_given;
		pb_sysbench_resolve(o);
		config->options = o;
		config->options_size = sizeof(PbSysbenchOptions);
	}
	else
	{
		PbYcsbOptions *o = palloc0(sizeof(PbYcsbOptions));

		pb_ycsb_defaults(o, def->variant);
		b.options = o;
		if (options != NULL)
			pb_json_scalars(options, "options", "option",
							"{\"readproportion\": 0.5, \"updateproportion\": 0.5}",
							pb_set_json_option, &b);
		pb_ycsb_resolve(o);
		config->options = o;
		config->options_size = sizeof(PbYcsbOptions);
		if (o->load)
			params->ops_limit = o->insertcount;
		else
		{
			params->first_key = o->recordcount;
			if (!limited)
				params->ops_limit = o->operationcount;
		}
	}
	config->options_json = pb_workload_options_json(def->kind, config->options);
	if (config->options_json == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory")));
	params->ncommands = pb_driver(def->kind)->commands(config, &descs);

	/* the memory first: preparing takes the caller as much */
	pb_check_memory(clients,
					def->kind == PB_KIND_SYSBENCH ? pb_sysbench_plans(config->options) :
					pb_ycsb_plans(config->options),
					params->ncommands, 0, params->command_histograms);
	if (def->kind == PB_KIND_SYSBENCH)
		pb_sysbench_check(config->options);
	else
		pb_ycsb_check(config->options);
}

/*
 * pb_native_workload
 *		The sysbench or YCSB workload a workload argument names, or NULL for
 *		pgbench's built-in scripts.
 */
static const PbWorkloadDef *
pb_native_workload(const char *workload)
{
	char	   *name = pstrdup(workload);
	char	   *end;

	while (*name == ' ')
		name++;
	for (end = name + strlen(name); end > name && end[-1] == ' ';)
		*--end = '\0';
	return pb_workload_find(name);
}

/*
 * pb_detect_scale
 *		The scale of the pgbench tables, as pgbench finds it: the number of
 *		rows of pgbench_branches, read with the caller's rights.
 */
static int
pb_detect_scale(void)
{
	bool		isnull;
	int64		count;

	SPI_connect();
	if (SPI_execute("SELECT pg_catalog.to_regclass('pgbench_branches') IS NULL",
					true, 1) != SPI_OK_SELECT ||
		DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc,
								   1, &isnull)))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("could not count number of branches: relation \"pgbench_branches\" does not exist"),
				 errhint("Perhaps you need to do initialization (polarbench_init('pgbench')) in database \"%s\".",
						 get_database_name(MyDatabaseId))));
	if (SPI_execute("SELECT pg_catalog.count(*) FROM pgbench_branches", true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not count number of branches");
	count = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0],
										SPI_tuptable->tupdesc, 1, &isnull));
	SPI_finish();
	if (count < 1 || count > PG_INT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("invalid count(*) from pgbench_branches: \"" INT64_FORMAT "\"", count),
				 errhint("Perhaps you need to do initialization (polarbench_init('pgbench')) in database \"%s\".",
						 get_database_name(MyDatabaseId))));
	return (int) count;
}

/*
 * pb_check_pacing
 *		The run's rate, latency limit, tries and warm-up, checked as pgbench
 *		checks -R, -L and --max-tries; the warm-up must leave some of the
 *		duration to measure.
 */
static void
pb_check_pacing(FunctionCallInfo fcinfo, PbRunParams *params,
				const PbWorkloadDef *native)
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
		if (params->max_tries != 1 && native != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("max_tries applies to pgbench scripts, not to workload \"%s\"", native->name),
					 errhint(native->kind == PB_KIND_SYSBENCH ?
							 "A sysbench workload starts an event again after a deadlock or a serialization failure, as sysbench does, and counts it in errors." :
							 "A YCSB workload counts a failed operation as an error of its operation, as YCSB does.")));
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
}

/*
 * pb_result_column
 *		Set the column of that name of the caller's result row; the result
 *		type of an older version of the extension may not have it.
 */
static void
pb_result_column(TupleDesc tupdesc, Datum *values, bool *nulls,
				 const char *name, Datum value, bool isnull)
{
	for (int i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);

		if (!att->attisdropped && strcmp(NameStr(att->attname), name) == 0)
		{
			values[i] = value;
			nulls[i] = isnull;
			return;
		}
	}
}

/*
 * pb_result_row
 *		The caller's result row: the run's summary, in polarbench_result of
 *		whichever version of the extension is installed.
 */
static Datum
pb_result_row(FunctionCallInfo fcinfo, const PbRunConfig *config,
			  const PbRunParams *params, const PbRunResult *result)
{
	TupleDesc	tupdesc;
	Datum	   *values;
	bool	   *nulls;
	const PbRunSummary *s = &result->summary;
	bool		none = (s->transactions == 0);
	bool		nopct = none || params->counters_only;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be polarbench_result");
	tupdesc = BlessTupleDesc(tupdesc);
	values = palloc0(sizeof(Datum) * tupdesc->natts);
	nulls = palloc(sizeof(bool) * tupdesc->natts);
	memset(nulls, true, sizeof(bool) * tupdesc->natts);

#define PB_COL(name, datum, isnull) \
	pb_result_column(tupdesc, values, nulls, (name), (datum), (isnull))
	PB_COL("run_id", Int64GetDatum(result->run_id), false);
	PB_COL("workload", CStringGetTextDatum(config->workload), false);
	PB_COL("clients", Int32GetDatum(params->nclients), false);
	PB_COL("seconds", Float8GetDatum(result->seconds), false);
	PB_COL("transactions", Int64GetDatum(s->transactions), false);
	PB_COL("tps", Float8GetDatum(s->tps), false);
	PB_COL("statements", Int64GetDatum(s->statements), false);
	PB_COL("qps", Float8GetDatum(s->qps), false);
	PB_COL("failed", Int64GetDatum(s->failed), false);
	PB_COL("latency_avg", Float8GetDatum(s->latency_avg), none);
	PB_COL("latency_stddev", Float8GetDatum(s->latency_stddev), none);
	PB_COL("latency_min", Float8GetDatum(s->latency_min), none);
	PB_COL("latency_p50", Float8GetDatum(s->latency_p50), nopct);
	PB_COL("latency_p90", Float8GetDatum(s->latency_p90), nopct);
	PB_COL("latency_p95", Float8GetDatum(s->latency_p95), nopct);
	PB_COL("latency_p99", Float8GetDatum(s->latency_p99), nopct);
	PB_COL("latency_p999", Float8GetDatum(s->latency_p999), nopct);
	PB_COL("latency_max", Float8GetDatum(s->latency_max), none);
	PB_COL("reads", Int64GetDatum(s->reads), false);
	PB_COL("writes", Int64GetDatum(s->writes), false);
	PB_COL("others", Int64GetDatum(s->others), false);
	PB_COL("errors", Int64GetDatum(s->errors), false);
	PB_COL("failed_serialization", Int64GetDatum(s->failed_serialization), false);
	PB_COL("failed_deadlock", Int64GetDatum(s->failed_deadlock), false);
	PB_COL("retried", Int64GetDatum(s->retried), false);
	PB_COL("retries", Int64GetDatum(s->retries), false);
	PB_COL("skipped", Int64GetDatum(s->skipped), false);
	PB_COL("late", Int64GetDatum(s->late), false);
	PB_COL("lag_avg", Float8GetDatum(s->lag_avg), none || params->rate == 0);
	PB_COL("lag_max", Float8GetDatum(s->lag_max), none || params->rate == 0);
#undef PB_COL

	return HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls));
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
 * pb_check_one_dimension
 *		An array argument must be one-dimensional and not empty.
 */
void
pb_check_one_dimension(ArrayType *array, const char *name)
{
	if (ARR_NDIM(array) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("%s must be a one-dimensional array", name)));
	if (ARR_NDIM(array) == 0 || ArrayGetNItems(ARR_NDIM(array), ARR_DIMS(array)) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must not be empty", name)));
}

/*
 * pb_fixed_values
 *		The string value of every variable of set that keeps one value for
 *		the whole run unless a script sets it: those given in vars, and the
 *		ones each client predefines (for client_id, the largest).  NULL for
 *		the others.
 */
static const char *const *
pb_fixed_values(const PbRunConfig *config, PbScriptSet *set, int nclients)
{
	const char **values = palloc0(sizeof(char *) * Max(set->nvars, 1));
	int			id;

	if ((id = pb_var_id(set, "client_id", false)) >= 0)
		values[id] = psprintf("%d", nclients - 1);
	if ((id = pb_var_id(set, "random_seed", false)) >= 0)
		values[id] = psprintf(INT64_FORMAT, config->random_seed);
	if ((id = pb_var_id(set, "default_seed", false)) >= 0)
		values[id] = psprintf(INT64_FORMAT, config->random_seed);
	for (int i = 0; i < config->nvars; i++)
		if ((id = pb_var_id(set, config->var_names[i], false)) >= 0)
			values[id] = config->var_values[i];
	return values;
}

/*
 * pb_configure_scripts
 *		pgbench scripts: the built-in ones workload names, script and
 *		scripts with their weights, vars, scale and seed; every script
 *		parsed, every variable set, every SQL command prepared as the
 *		caller.  Returns the plans a client keeps and sets the commands and
 *		their texts' size.
 */
static int
pb_configure_scripts(FunctionCallInfo fcinfo, PbRunConfig *config,
					 PbRunParams *params, int clients, double *text_bytes)
{
	PbConfigBuilder b;
	PbScriptSet *set;
	int			ncommands = 0;
	int			nplans;
	int			scale = 1;

	memset(&b, 0, sizeof(b));
	b.config = config;
	initStringInfo(&b.workload);
	if (!PG_ARGISNULL(ARG_WORKLOAD))
		pb_add_builtins(&b, text_to_cstring(PG_GETARG_TEXT_PP(ARG_WORKLOAD)));
	if (!PG_ARGISNULL(ARG_SCRIPT))
	{
		int			weight = PG_ARGISNULL(ARG_SCRIPT_WEIGHT) ? 1 :
			PG_GETARG_INT32(ARG_SCRIPT_WEIGHT);

		pb_add_script(&b, "custom", text_to_cstring(PG_GETARG_TEXT_PP(ARG_SCRIPT)),
					  weight);
	}
	if (!PG_ARGISNULL(ARG_SCRIPTS))
	{
		Datum	   *texts;
		bool	   *text_nulls;
		int			ntexts;
		Datum	   *weights = NULL;
		bool	   *weight_nulls = NULL;
		int			nweights = 0;

		pb_check_one_dimension(PG_GETARG_ARRAYTYPE_P(ARG_SCRIPTS), "scripts");
		deconstruct_array(PG_GETARG_ARRAYTYPE_P(ARG_SCRIPTS), TEXTOID, -1, false,
						  TYPALIGN_INT, &texts, &text_nulls, &ntexts);
		if (!PG_ARGISNULL(ARG_WEIGHTS))
		{
			pb_check_one_dimension(PG_GETARG_ARRAYTYPE_P(ARG_WEIGHTS), "weights");
			deconstruct_array(PG_GETARG_ARRAYTYPE_P(ARG_WEIGHTS), INT4OID, 4, true,
							  TYPALIGN_INT, &weights, &weight_nulls, &nweights);
			if (nweights != ntexts)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("weights has %d elements but scripts has %d",
								nweights, ntexts),
						 errhint("Give one weight per script, or none.")));
		}
		for (int i = 0; i < ntexts; i++)
		{
			char		name[32];

			if (text_nulls[i] || (weights && weight_nulls[i]))
				ereport(ERROR,
						(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						 errmsg("scripts and weights must not contain nulls")));
			snprintf(name, sizeof(name), "script %d", i + 1);
			pb_add_script(&b, name, TextDatumGetCString(texts[i]),
						  weights ? DatumGetInt32(weights[i]) : 1);
		}
	}
	else if (!PG_ARGISNULL(ARG_WEIGHTS))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("weights given without scripts")));
	if (config->nscripts == 0)
		pb_add_builtins(&b, "tpcb-like");
	{
		int64		total = 0;

		for (int i = 0; i < config->nscripts; i++)
			total += config->weights[i];
		if (total == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("total script weight must not be zero")));
	}
	config->workload = b.workload.data;

	/* variables */
	if (!PG_ARGISNULL(ARG_VARS))
	{
		Jsonb	   *jb = PG_GETARG_JSONB_P(ARG_VARS);

		pb_add_json_vars(&b, jb);
		config->vars_json = DatumGetCString(DirectFunctionCall1(jsonb_out,
																JsonbPGetDatum(jb)));
	}
	if (!PG_ARGISNULL(ARG_SCALE))
	{
		scale = PG_GETARG_INT32(ARG_SCALE);
		pb_check_range("scale", scale, 1, PB_NO_MAXIMUM, NULL);
	}
	if (b.builtin_used)
	{
		int			detected = pb_detect_scale();

		if (!PG_ARGISNULL(ARG_SCALE) && detected != scale)
			ereport(NOTICE,
					(errmsg("scale option ignored, using count from pgbench_branches table (%d)",
							detected)));
		scale = detected;
	}
	if (!pb_has_var(config, "scale"))
	{
		char		num[16];

		snprintf(num, sizeof(num), "%d", scale);
		pb_add_var(&b, "scale", num);
	}
	/* what a built-in script sets unless given: polardb-ro's range */
	for (int i = 0; i < config->nscripts; i++)
		for (int k = 0; k < pb_builtin_count(); k++)
		{
			int64		per_scale;
			const char *var = pb_builtin_default_var(k, &per_scale);

			if (var != NULL && strcmp(pb_builtin_name(k), config->script_names[i]) == 0 &&
				!pb_has_var(config, var))
				pb_add_var(&b, var, psprintf(INT64_FORMAT, per_scale * scale));
		}

	/* every script must parse, and every variable be set, before we start */
	set = pb_config_build_scripts(config, true);
	for (int i = 0; i < set->nscripts; i++)
		ncommands += set->scripts[i].ncommands;
	params->ncommands = ncommands;
	if (ncommands > pb_max_script_commands)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("the run's scripts have %d commands, more than polarbench.max_script_commands (%d)",
						ncommands, pb_max_script_commands),
				 errhint("Use shorter scripts, or ask a superuser to raise polarbench.max_script_commands.")));

	/* every SQL command must prepare, and every fixed value fit its type */
	nplans = pb_check_scripts(set, pb_fixed_values(config, set, clients));
	*text_bytes = pb_script_text_bytes(set, &ncommands);
	pb_scriptset_free(set);
	return nplans;
}

static void pb_run_configure_and_launch(FunctionCallInfo fcinfo, bool background,
										PbRunParams *params_io, PbRunConfig *config,
										const PbWorkloadDef *native, bool limited,
										int clients, PbRunResult *result_out);

/*
 * polarbench_run
 *		SQL entry point: see polarbench_run() in the install script.
 */
Datum
polarbench_run(PG_FUNCTION_ARGS)
{
	PbRunConfig *config;
	PbRunParams params;
	PbRunResult result;

	pb_journal_recover();
	pb_check_called_once(fcinfo, "polarbench_run");

	memset(&params, 0, sizeof(params));
	pb_run_from_args(fcinfo, false, &params, &config, &result);
	PG_RETURN_DATUM(pb_result_row(fcinfo, config, &params, &result));
}

/*
 * pb_run_from_args
 *		Check polarbench_run()'s arguments in fcinfo, resolve them into a
 *		configuration (*config) and parameters (*params, whose on_started
 *		the caller may have set), launch the run and wait for its end.  In
 *		the conductor of a background run (background), no caller's
 *		statement waits: its snapshot is not kept.
 */
void
pb_run_from_args(FunctionCallInfo fcinfo, bool background, PbRunParams *params_out,
				 PbRunConfig **config_out, PbRunResult *result_out)
{
	PbRunConfig *config;
	PbRunParams params = *params_out;
	const PbWorkloadDef *volatile native = NULL;
	bool		limited;
	int			clients;

	pb_check_caller("polarbench_run", background);
	if (!PG_ARGISNULL(ARG_WORKLOAD))
		native = pb_native_workload(text_to_cstring(PG_GETARG_TEXT_PP(ARG_WORKLOAD)));

	/* limits */
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

	params.nclients = clients;
	if (!PG_ARGISNULL(ARG_DURATION) && !PG_ARGISNULL(ARG_TRANSACTIONS))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("specify either duration or transactions, not both")));
	if (!PG_ARGISNULL(ARG_DURATION))
	{
		params.duration = PG_GETARG_FLOAT8(ARG_DURATION);
		if (!(params.duration > 0) || isinf(params.duration))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("duration must be a positive number of seconds")));
		if (params.duration > pb_max_run_duration)
			ereport(ERROR,
					(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
					 errmsg("duration %g s exceeds polarbench.max_run_duration (%d s)",
							params.duration, pb_max_run_duration),
					 errhint("Run for a shorter time, or ask a superuser to raise polarbench.max_run_duration.")));
	}
	else if (!PG_ARGISNULL(ARG_TRANSACTIONS))
	{
		params.transactions = PG_GETARG_INT64(ARG_TRANSACTIONS);
		pb_check_range("transactions", params.transactions, 1, PB_NO_MAXIMUM,
					   NULL);
	}
	limited = !PG_ARGISNULL(ARG_DURATION) || !PG_ARGISNULL(ARG_TRANSACTIONS);
	/* without either: pgbench's 10 transactions, sysbench's 10 s, YCSB's operationcount */
	if (!limited && native == NULL)
		params.transactions = PB_DEFAULT_TRANSACTIONS;
	else if (!limited && native->kind == PB_KIND_SYSBENCH)
		params.duration = Min(PB_SYSBENCH_DEFAULT_DURATION, pb_max_run_duration);
	if (!PG_ARGISNULL(ARG_PROGRESS))
	{
		params.progress = PG_GETARG_INT32(ARG_PROGRESS);
		pb_check_range("progress", params.progress, 0, PB_NO_MAXIMUM,
					   "progress is the number of seconds between progress reports; 0 turns them off.");
	}

	pb_check_pacing(fcinfo, &params, native);
	params.command_histograms = !params.counters_only;

	config = palloc0(sizeof(PbRunConfig));
	if (PB_ARG_GIVEN(ARG_SETTINGS))
		pb_settings_from_json(config, PG_GETARG_JSONB_P(ARG_SETTINGS));
	if (PB_ARG_GIVEN(ARG_SERVER_SETTINGS))
	{
		pb_server_settings_from_json(config, PG_GETARG_JSONB_P(ARG_SERVER_SETTINGS));
		pb_server_settings_check(config);
	}
	/* the settings first: the scripts are checked as the clients will run them */
	pb_settings_check(config);

	/* a sweep's check of a run to come: all but the start */
	if (params.check_only)
	{
		pb_run_configure_and_launch(fcinfo, background, &params, config, native,
									limited, clients, result_out);
		*config_out = config;
		*params_out = params;
		return;
	}

	/* from here on, the server's settings are put back whatever happens */
	PG_ENSURE_ERROR_CLEANUP(pb_server_settings_cleanup, PointerGetDatum(config));
	{
		pb_server_settings_apply(config);
		pb_run_configure_and_launch(fcinfo, background, &params, config, native,
									limited, clients, result_out);
	}
	PG_END_ENSURE_ERROR_CLEANUP(pb_server_settings_cleanup, PointerGetDatum(config));
	pb_server_settings_restore(config);
	*config_out = config;
	*params_out = params;
}

/*
 * pb_run_configure_and_launch
 *		The rest of pb_run_from_args(), once the settings are checked and the
 *		server's set: resolve the workload with the run's settings, check
 *		its scripts, launch it and wait for its end.
 */
static void
pb_run_configure_and_launch(FunctionCallInfo fcinfo, bool background,
							PbRunParams *params_io, PbRunConfig *config,
							const PbWorkloadDef *native, bool limited,
							int clients, PbRunResult *result_out)
{
	PbRunParams params = *params_io;
	double		text_bytes = 0;
	Oid			schema = InvalidOid;
	int			nplans;
	int			nest;

	nest = pb_settings_push(config);
	if (!PG_ARGISNULL(ARG_RANDOM_SEED))
		config->random_seed = PG_GETARG_INT64(ARG_RANDOM_SEED);
	else if (!pg_strong_random(&config->random_seed, sizeof(config->random_seed)))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not generate a random seed")));
	if (native != NULL)
	{
		if (!PG_ARGISNULL(ARG_SCRIPT) || !PG_ARGISNULL(ARG_SCRIPTS))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("workload \"%s\" cannot be combined with scripts", native->name),
					 errhint("A sysbench or YCSB workload runs on its own; run pgbench scripts in a run of their own.")));
		if (!PG_ARGISNULL(ARG_VARS) || !PG_ARGISNULL(ARG_SCALE))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("vars and scale apply to pgbench scripts, not to workload \"%s\"", native->name),
					 errhint("Give the workload's options in options, as in options => '{\"tables\": 8}'.")));
		pb_configure_native(native,
							PB_ARG_GIVEN(ARG_OPTIONS) ? PG_GETARG_JSONB_P(ARG_OPTIONS) : NULL,
							config, &params, limited, clients);
		if (RecoveryInProgress() && pb_native_writes(config))
			ereport(ERROR,
					(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
					 errmsg("workload \"%s\" writes, and a hot standby runs only read-only workloads",
							native->name),
					 errhint("Run it on the primary; on a standby, run oltp_read_only, oltp_point_select, or a YCSB workload that only reads and scans.")));
	}
	else
	{
		if (PB_ARG_GIVEN(ARG_OPTIONS))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("options apply to sysbench and YCSB workloads"),
					 errhint("Pass pgbench script variables in vars.")));
		nplans = pb_configure_scripts(fcinfo, config, &params, clients, &text_bytes);
		/* a histogram per command costs 20 kB a client: not for long scripts */
		if (params.ncommands > PB_MAX_COMMAND_HISTOGRAMS)
			params.command_histograms = false;
		pb_check_memory(clients, nplans, params.ncommands, text_bytes,
						params.command_histograms);
	}

	pb_settings_pop(nest);

	/* a run to come: it would fit what the limits leave now */
	if (params.check_only)
	{
		pb_admission_check(clients + 1);
		*params_io = params;
		return;
	}

	params.owner = pb_extension_owner(&schema);
	params.schema = get_namespace_name(schema);

	if (RecoveryInProgress())
		params.unstored_id = pb_next_unstored_id();

	params.release_xmin = background || pb_can_release_snapshot(fcinfo);
	if (!params.release_xmin)
		ereport(NOTICE,
				(errmsg("this run holds back the removal of dead rows until it ends"),
				 errdetail("The calling statement's snapshot stays in use while the run goes on, so row versions the clients make dead cannot be pruned, which slows workloads that update."),
				 errhint("Run it as a statement of its own, such as SELECT * FROM polarbench_run(...), at READ COMMITTED, in a transaction that has written nothing and has no cursor open.")));

	*params_io = params;
	pb_launch_run(config, &params, result_out);
}
