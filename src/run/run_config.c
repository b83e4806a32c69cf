/*-------------------------------------------------------------------------
 *
 * run_config.c
 *	  A run's configuration (scripts, weights, variables, seed, settings) as the
 *	  launcher resolved it, serialized into the run's shared memory so
 *	  that each worker rebuilds the same script set.
 *
 * The format is a flat sequence: integers as decimal strings and texts,
 * each NUL-terminated.  It is written and read only by the same build of
 * polarbench, within one run.
 *
 * calls: the script library's script_set.c, script_parse.c, script_check.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/builtins.h"

#include "run.h"

/*
 * pb_config_encode_options
 *		The options struct of a sysbench or YCSB workload as hex digits, so
 *		that it travels as one string; "" when there is none.
 */
static void
pb_config_encode_options(PbRunConfig *config)
{
	if (config->options_hex != NULL)
		return;
	if (config->options == NULL || config->options_size == 0)
	{
		config->options_hex = "";
		return;
	}
	config->options_hex = palloc(config->options_size * 2 + 1);
	hex_encode(config->options, config->options_size, config->options_hex);
	config->options_hex[config->options_size * 2] = '\0';
}

/* Iterate over the strings of a configuration in serialization order. */
typedef void (*PbConfigVisitor) (const char *str, void *arg);

/*
 * pb_config_visit
 *		Call visit on every string of the configuration, in order.
 */
static void
pb_config_visit(const PbRunConfig *config, PbConfigVisitor visit, void *arg)
{
	char		num[32];

	visit(config->workload, arg);
	snprintf(num, sizeof(num), "%d", config->kind);
	visit(num, arg);
	visit(config->options_hex, arg);
	visit(config->options_json ? config->options_json : "", arg);
	snprintf(num, sizeof(num), INT64_FORMAT, config->random_seed);
	visit(num, arg);
	visit(config->vars_json ? config->vars_json : "", arg);
	snprintf(num, sizeof(num), "%d", config->nscripts);
	visit(num, arg);
	for (int i = 0; i < config->nscripts; i++)
	{
		visit(config->script_names[i], arg);
		visit(config->script_texts[i], arg);
		snprintf(num, sizeof(num), "%d", config->weights[i]);
		visit(num, arg);
	}
	snprintf(num, sizeof(num), "%d", config->nvars);
	visit(num, arg);
	for (int i = 0; i < config->nvars; i++)
	{
		visit(config->var_names[i], arg);
		visit(config->var_values[i], arg);
	}
	visit(config->settings_json ? config->settings_json : "", arg);
	visit(config->effective_json ? config->effective_json : "", arg);
	visit(config->server_settings_json ? config->server_settings_json : "", arg);
	snprintf(num, sizeof(num), "%d", config->nsettings);
	visit(num, arg);
	for (int i = 0; i < config->nsettings; i++)
	{
		visit(config->setting_names[i], arg);
		visit(config->setting_values[i], arg);
	}
}

static void
pb_config_count(const char *str, void *arg)
{
	Size	   *size = (Size *) arg;

	*size = add_size(*size, strlen(str) + 1);
}

static void
pb_config_copy(const char *str, void *arg)
{
	char	  **dest = (char **) arg;
	Size		len = strlen(str) + 1;

	memcpy(*dest, str, len);
	*dest += len;
}

/*
 * pb_config_size
 *		Bytes the serialized configuration takes.
 */
Size
pb_config_size(const PbRunConfig *config)
{
	Size		size = 0;

	pb_config_encode_options((PbRunConfig *) config);
	pb_config_visit(config, pb_config_count, &size);
	return size;
}

/*
 * pb_config_serialize
 *		Write the configuration to dest, which has pb_config_size() bytes.
 */
void
pb_config_serialize(const PbRunConfig *config, char *dest)
{
	pb_config_encode_options((PbRunConfig *) config);
	pb_config_visit(config, pb_config_copy, &dest);
}

/* Take the next string of a serialized configuration. */
static const char *
pb_config_next(const char **src)
{
	const char *str = *src;

	*src += strlen(str) + 1;
	return str;
}

/*
 * pb_config_deserialize
 *		Read a configuration back; strings point into src.
 */
PbRunConfig *
pb_config_deserialize(const char *src)
{
	PbRunConfig *config = palloc0(sizeof(PbRunConfig));
	const char *vars_json;
	const char *options_json;
	const char *settings_json;
	const char *effective_json;
	const char *server_json;

	config->workload = (char *) pb_config_next(&src);
	config->kind = atoi(pb_config_next(&src));
	config->options_hex = (char *) pb_config_next(&src);
	if (config->options_hex[0] != '\0')
	{
		size_t		len = strlen(config->options_hex);

		config->options_size = len / 2;
		config->options = palloc(config->options_size);
		hex_decode(config->options_hex, len, config->options);
	}
	options_json = pb_config_next(&src);
	config->options_json = options_json[0] ? (char *) options_json : NULL;
	config->random_seed = strtoi64(pb_config_next(&src), NULL, 10);
	vars_json = pb_config_next(&src);
	config->vars_json = vars_json[0] ? (char *) vars_json : NULL;
	config->nscripts = atoi(pb_config_next(&src));
	config->script_names = palloc(sizeof(char *) * config->nscripts);
	config->script_texts = palloc(sizeof(char *) * config->nscripts);
	config->weights = palloc(sizeof(int) * config->nscripts);
	for (int i = 0; i < config->nscripts; i++)
	{
		config->script_names[i] = (char *) pb_config_next(&src);
		config->script_texts[i] = (char *) pb_config_next(&src);
		config->weights[i] = atoi(pb_config_next(&src));
	}
	config->nvars = atoi(pb_config_next(&src));
	config->var_names = palloc(sizeof(char *) * Max(config->nvars, 1));
	config->var_values = palloc(sizeof(char *) * Max(config->nvars, 1));
	for (int i = 0; i < config->nvars; i++)
	{
		config->var_names[i] = (char *) pb_config_next(&src);
		config->var_values[i] = (char *) pb_config_next(&src);
	}
	settings_json = pb_config_next(&src);
	config->settings_json = settings_json[0] ? (char *) settings_json : NULL;
	effective_json = pb_config_next(&src);
	config->effective_json = effective_json[0] ? (char *) effective_json : NULL;
	server_json = pb_config_next(&src);
	config->server_settings_json = server_json[0] ? (char *) server_json : NULL;
	config->nsettings = atoi(pb_config_next(&src));
	config->setting_names = palloc(sizeof(char *) * Max(config->nsettings, 1));
	config->setting_values = palloc(sizeof(char *) * Max(config->nsettings, 1));
	for (int i = 0; i < config->nsettings; i++)
	{
		config->setting_names[i] = (char *) pb_config_next(&src);
		config->setting_values[i] = (char *) pb_config_next(&src);
	}
	return config;
}

/*
 * pb_script_sqlstate
 *		The SQLSTATE of a script library error, by its kind.
 */
static int
pb_script_sqlstate(PbErrorKind kind)
{
	switch (kind)
	{
		case PB_ERROR_SYNTAX:
			return ERRCODE_SYNTAX_ERROR;
		case PB_ERROR_UNDEFINED_VARIABLE:
			return ERRCODE_UNDEFINED_OBJECT;
		case PB_ERROR_DIVISION_BY_ZERO:
			return ERRCODE_DIVISION_BY_ZERO;
		case PB_ERROR_OUT_OF_RANGE:
			return ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
		case PB_ERROR_INVALID_ARGUMENT:
			return ERRCODE_INVALID_PARAMETER_VALUE;
		case PB_ERROR_TYPE:
			return ERRCODE_DATATYPE_MISMATCH;
		case PB_ERROR_OUT_OF_MEMORY:
			return ERRCODE_OUT_OF_MEMORY;
		case PB_ERROR_DATA:
			return ERRCODE_DATA_EXCEPTION;
		case PB_ERROR_NONE:
		case PB_ERROR_INTERNAL:
			break;
	}
	return ERRCODE_INTERNAL_ERROR;
}

/*
 * pb_script_error
 *		Raise a script library error of the script called name: its message
 *		(pgbench's), its detail, and the command's line in the context.
 */
void
pb_script_error(const PbError *err, const char *name, const char *hint)
{
	char	   *where = err->line > 0 ?
		psprintf("command at line %d of script \"%s\"", err->line, name) :
		psprintf("script \"%s\"", name);

	ereport(ERROR,
			(errcode(pb_script_sqlstate(err->kind)),
			 errmsg_internal("%s", err->message),
			 err->detail[0] ? errdetail_internal("%s", err->detail) : 0,
			 hint ? errhint("%s", hint) : 0,
			 errcontext("%s", where)));
}

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
