/*-------------------------------------------------------------------------
 *
 * script_config.c
 *	  A run of pgbench scripts, configured in the caller: the built-in
 *	  scripts a workload names (as pgbench's -b) and custom scripts with
 *	  their weights and names, variables (pgbench's -D), the scale as
 *	  pgbench finds it; every script parsed, every variable set, every SQL
 *	  command prepared as the caller, every value a variable keeps for the
 *	  run read as the type of the parameters it is bound to.  And the
 *	  script set every client rebuilds from the configuration.
 *
 * Everything a caller can get wrong is found here, before any worker
 * starts: an unknown built-in, a syntax error, a variable never set, a
 * table that is not there.  The commands are prepared in a subtransaction
 * that is rolled back, so that the locks parse analysis takes on the
 * tables are not held by the caller while its clients run (a client's
 * ALTER or LOCK would wait for them for ever).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_type.h"
#include "commands/dbcommands.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

#include "args.h"
#include "driver.h"
#include "driver_options.h"
#include "script_exec.h"
#include "pgbench.h"
#include "settings.h"

/*
 * pb_config_build_scripts
 *		Parse every script of the configuration into one script set and
 *		mark the given variables as assigned.  A parse failure raises an
 *		error naming the script and line (the launcher checks every script
 *		this way before any worker starts); with check_vars, so does a
 *		variable that no one sets.
 */
PbScriptSet *
pb_config_build_scripts(const PbRunConfig *config, bool check_vars)
{
	PbScriptSet *set = pb_scriptset_create();
	PbError		err;

	if (set == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory")));

	for (int i = 0; i < config->nscripts; i++)
	{
		memset(&err, 0, sizeof(err));
		if (!pb_script_parse(set, config->script_names[i],
							 config->script_texts[i], config->weights[i],
							 &err))
		{
			pb_scriptset_free(set);
			pb_script_error(&err, config->script_names[i], NULL);
		}
	}
	for (int i = 0; i < config->nvars; i++)
		pb_var_mark_assigned(set, pb_var_id(set, config->var_names[i], true));
	/* set by every client, as pgbench does */
	for (int i = 0; i < PB_PREDEFINED_VARIABLES; i++)
		pb_var_mark_assigned(set, pb_var_id(set, pb_predefined_variables[i], true));

	memset(&err, 0, sizeof(err));
	if (check_vars && !pb_scriptset_check_vars(set, &err))
	{
		char	   *name = pstrdup(set->scripts[err.script_no].name);

		pb_scriptset_free(set);
		pb_script_error(&err, name,
						"Set the variable with \\set in the script or pass it in vars.");
	}
	return set;
}

/* What checking a script set needs across pb_in_rolled_back_subxact() */
typedef struct PbScriptCheck
{
	PbScriptSet *set;
	const char *const *values;
	PbExecutor *exec;
	int			nplans;
} PbScriptCheck;

/* Prepare every command and check the fixed values. */
static void
pb_check_scripts_in(void *arg)
{
	PbScriptCheck *check = arg;

	check->exec = pb_executor_create(check->set, NULL);
	pb_executor_prepare_plans(check->exec);
	pb_executor_check_values(check->exec, check->values);
	check->nplans = pb_executor_nplans(check->exec);
	if (RecoveryInProgress())
	{
		int			script_no;
		const PbCommand *writer = pb_executor_first_writer(check->exec, &script_no);

		if (writer != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
					 errmsg("script \"%s\" writes, and a hot standby runs only read-only workloads",
							check->set->scripts[script_no].name),
					 errdetail("Line %d: %s", writer->line, writer->text),
					 errhint("Run it on the primary.")));
	}
}

/* Free the executor of a check. */
static void
pb_check_scripts_cleanup(void *arg)
{
	PbScriptCheck *check = arg;

	if (check->exec != NULL)
		pb_executor_free(check->exec);
	check->exec = NULL;
}

/*
 * pb_check_scripts
 *		Prepare every SQL command of set and check the fixed variable values
 *		(values[varid], NULL where a variable has none) in a subtransaction
 *		that is rolled back.  Errors propagate with the script's name and
 *		line.  Returns the number of plans a client will keep.
 */
static int
pb_check_scripts(PbScriptSet *set, const char *const *values)
{
	PbScriptCheck check = {set, values, NULL, 0};

	pb_in_rolled_back_subxact(pb_check_scripts_in, pb_check_scripts_cleanup,
							  &check);
	return check.nplans;
}

/*
 * pb_script_text_bytes
 *		What the texts of a script set's commands take in a client (their
 *		text and their parse), and how many commands there are.
 */
static double
pb_script_text_bytes(const PbScriptSet *set, int *ncommands)
{
	double		bytes = 0;

	*ncommands = 0;
	for (int s = 0; s < set->nscripts; s++)
	{
		*ncommands += set->scripts[s].ncommands;
		for (int c = 0; c < set->scripts[s].ncommands; c++)
			bytes += strlen(set->scripts[s].commands[c].text) * 2;
	}
	return bytes;
}

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
		const PbWorkloadDef *def;
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

		if (pb_kind_library_of(name, &def) != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("workload \"%s\" cannot be combined with scripts", name),
					 errhint("A workload of the server's runs on its own; run pgbench scripts in a run of their own.")));
		text = pb_builtin_script(name, &canonical);
		if (text == NULL)
		{
			if (pb_builtin_matches(name) > 1)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("ambiguous builtin name: %d builtin scripts found for prefix \"%s\"",
								pb_builtin_matches(name), name),
						 errhint("polarbench_workloads lists the workloads.")));
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("no builtin script found for name \"%s\"", name),
					 errhint("polarbench_workloads lists the workloads.")));
		}
		pb_add_script(b, canonical ? canonical : name, text, weight);
		b->builtin_used = true;
	}
	if (b->config->nscripts == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("workload names no script")));
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
 * pb_script_add_scripts
 *		The custom scripts of scripts, with their weights and names.
 */
static void
pb_script_add_scripts(PbConfigBuilder *b, const PbWorkloadArgs *args)
{
	Datum	   *texts;
	bool	   *text_nulls;
	int			ntexts;
	Datum	   *weights = NULL;
	bool	   *weight_nulls = NULL;
	int			nweights = 0;
	Datum	   *names = NULL;
	bool	   *name_nulls = NULL;
	int			nnames = 0;

	pb_check_one_dimension(args->scripts, "scripts");
	deconstruct_array(args->scripts, TEXTOID, -1, false,
					  TYPALIGN_INT, &texts, &text_nulls, &ntexts);
	if (args->weights != NULL)
	{
		pb_check_one_dimension(args->weights, "weights");
		deconstruct_array(args->weights, INT4OID, 4, true,
						  TYPALIGN_INT, &weights, &weight_nulls, &nweights);
		if (nweights != ntexts)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("weights has %d elements but scripts has %d",
							nweights, ntexts),
					 errhint("Give one weight per script, or none.")));
	}
	if (args->script_names != NULL)
	{
		pb_check_one_dimension(args->script_names, "script_names");
		deconstruct_array(args->script_names, TEXTOID, -1, false,
						  TYPALIGN_INT, &names, &name_nulls, &nnames);
		if (nnames != ntexts)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("script_names has %d elements but scripts has %d",
							nnames, ntexts),
					 errhint("Give one name per script (the report shows them), or none.")));
	}
	for (int i = 0; i < ntexts; i++)
	{
		char		name[32];

		if (text_nulls[i] || (weights && weight_nulls[i]) || (names && name_nulls[i]))
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("scripts, weights and script_names must not contain nulls")));
		snprintf(name, sizeof(name), "script %d", i + 1);
		pb_add_script(b, names ? TextDatumGetCString(names[i]) : name,
					  TextDatumGetCString(texts[i]),
					  weights ? DatumGetInt32(weights[i]) : 1);
	}
}

/*
 * pb_script_take_scripts
 *		The run's scripts, as the arguments give them: built-in ones by name,
 *		a custom one, custom ones with weights and names; tpcb-like if none.
 *		Returns whether a built-in one is among them.
 */
static bool
pb_script_take_scripts(const PbWorkloadArgs *args, PbConfigBuilder *b)
{
	PbRunConfig *config = b->config;
	int64		total = 0;

	if (args->workload != NULL)
		pb_add_builtins(b, args->workload);
	if (args->script != NULL)
		pb_add_script(b, "custom", args->script, args->script_weight);
	if (args->scripts != NULL)
		pb_script_add_scripts(b, args);
	else if (args->weights != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("weights given without scripts")));
	else if (args->script_names != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("script_names given without scripts")));
	if (config->nscripts == 0)
		pb_add_builtins(b, "tpcb-like");
	for (int i = 0; i < config->nscripts; i++)
		total += config->weights[i];
	if (total == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("total script weight must not be zero")));
	config->workload = b->workload.data;
	return b->builtin_used;
}

/*
 * pb_script_take_vars
 *		The run's variables: those given, the scale (of the tables for a
 *		built-in script, as pgbench finds it), and what a built-in script
 *		sets unless given (polardb-ro's range).
 */
static void
pb_script_take_vars(const PbWorkloadArgs *args, PbConfigBuilder *b, bool builtin_used)
{
	PbRunConfig *config = b->config;
	int			scale = 1;

	if (args->vars != NULL)
	{
		pb_add_json_vars(b, args->vars);
		config->vars_json = DatumGetCString(DirectFunctionCall1(jsonb_out,
																JsonbPGetDatum(args->vars)));
	}
	if (args->scale_given)
	{
		scale = args->scale;
		pb_check_range("scale", scale, 1, PB_NO_MAXIMUM, NULL);
	}
	if (builtin_used)
	{
		int			detected = pb_detect_scale();

		if (args->scale_given && detected != scale)
			ereport(NOTICE,
					(errmsg("scale option ignored, using count from pgbench_branches table (%d)",
							detected)));
		scale = detected;
	}
	if (!pb_has_var(config, "scale"))
		pb_add_var(b, "scale", psprintf("%d", scale));
	for (int i = 0; i < config->nscripts; i++)
		for (int k = 0; k < pb_builtin_count(); k++)
		{
			int64		per_scale;
			const char *var = pb_builtin_default_var(k, &per_scale);

			if (var != NULL && strcmp(pb_builtin_name(k), config->script_names[i]) == 0 &&
				!pb_has_var(config, var))
				pb_add_var(b, var, psprintf(INT64_FORMAT, per_scale * scale));
		}
}

/*
 * pb_script_check_all
 *		Every script must parse and every variable be set, the commands be
 *		no more than the limit, every SQL command prepare and every fixed
 *		value fit its type, before anything starts; what a client keeps.
 */
static void
pb_script_check_all(const PbWorkloadArgs *args, PbRunConfig *config,
					PbRunParams *params, PbRunEstimate *estimate)
{
	PbScriptSet *set = pb_config_build_scripts(config, true);
	int			ncommands = 0;

	for (int i = 0; i < set->nscripts; i++)
		ncommands += set->scripts[i].ncommands;
	params->ncommands = ncommands;
	if (ncommands > pb_max_script_commands)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("the run's scripts have %d commands, more than polarbench.max_script_commands (%d)",
						ncommands, pb_max_script_commands),
				 errhint("Use shorter scripts, or ask a superuser to raise polarbench.max_script_commands.")));
	estimate->nplans = pb_check_scripts(set, pb_fixed_values(config, set, params->nclients));
	estimate->text_bytes = pb_script_text_bytes(set, &ncommands);
	pb_scriptset_free(set);
}

/*
 * pb_script_configure
 *		A run of pgbench scripts: the built-in ones workload names, script
 *		and scripts with their weights, vars, scale and seed, its options
 *		(what an SQL command's error does); every script
 *		parsed, every variable set, every SQL command prepared as the
 *		caller.  Sets the commands, and the plans a client keeps and their
 *		texts' size.
 */
void
pb_script_configure(const PbWorkloadArgs *args, PbRunConfig *config,
					PbRunParams *params, PbRunEstimate *estimate)
{
	PbConfigBuilder b;
	bool		builtin_used;

	/* a run records its options when it is given some, as it ran them */
	if (args->options != NULL)
	{
		config->options = pb_options_from_json(&pb_pgbench_library, &pb_pgbench_scripts,
											   args->options, PB_PGBENCH_OPTIONS_EXAMPLE, true);
		config->options_size = sizeof(PbPgbenchOptions);
	}
	memset(&b, 0, sizeof(b));
	b.config = config;
	initStringInfo(&b.workload);

	builtin_used = pb_script_take_scripts(args, &b);
	pb_script_take_vars(args, &b, builtin_used);
	pb_script_check_all(args, config, params, estimate);

	/* a histogram per command costs 20 kB a client: not for long scripts */
	if (params->ncommands > PB_MAX_COMMAND_HISTOGRAMS)
		params->command_histograms = false;
}
