/*-------------------------------------------------------------------------
 *
 * config.c
 *	  A run's configuration (its workload's options, scripts, weights,
 *	  variables, seed, settings) as the caller resolved it, serialized into
 *	  the run's shared memory so that each worker rebuilds the same
 *	  workload.
 *
 * The format is a flat sequence: integers as decimal strings and texts,
 * each NUL-terminated.  It is written and read only by the same build of
 * polarbench, within one run.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/builtins.h"

#include "run.h"

/*
 * pb_config_encode_options
 *		The options struct of a workload as hex digits, so that it travels
 *		as one string; "" when there is none.
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
	visit(config->environment_json ? config->environment_json : "", arg);
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
	const char *environment_json;
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
	environment_json = pb_config_next(&src);
	config->environment_json = environment_json[0] ? (char *) environment_json : NULL;
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
