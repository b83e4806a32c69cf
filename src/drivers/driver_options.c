/*-------------------------------------------------------------------------
 *
 * driver_options.c
 *	  What the drivers of the other tools' workloads share in the caller: a
 *	  workload's options read from polarbench_run()'s options argument
 *	  through its kind's option table (its tool's defaults for
 *	  the workload, then those given, then the rules that no single option
 *	  shows), and the refusal of the arguments that only pgbench's scripts
 *	  take.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "args.h"
#include "driver_options.h"

/* What pb_set_json_option() sets an option of */
typedef struct PbJsonOptions
{
	const PbKindLibrary *kind;
	void	   *options;
} PbJsonOptions;

/* One option of a workload, set from its JSON value. */
static void
pb_set_json_option(const char *name, const char *value, void *arg)
{
	PbJsonOptions *target = arg;
	PbError		err;

	memset(&err, 0, sizeof(err));
	if (!pb_kind_set_option(target->kind, target->options, name, value, &err))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg_internal("%s", err.message),
				 err.detail[0] ? errhint("%s", err.detail) : 0));
}

/*
 * pb_options_from_json
 *		A workload's options struct (palloc'd): the defaults of the kind's
 *		workload def, then the options given (NULL for none; example is a
 *		JSON object of them, for the errors), then, with check, checked by
 *		the rules of its kind (which a driver that finds options in the
 *		tables checks after).  An option it does not have, or a value out of
 *		its range or of the wrong type, is an error.
 */
void *
pb_options_from_json(const PbKindLibrary *kind, const PbWorkloadDef *def,
					 Jsonb *given, const char *example, bool check)
{
	PbJsonOptions target = {kind, palloc0(Max(kind->options_size, 1))};
	PbError		err;

	pb_kind_defaults(kind, def, target.options);
	if (given != NULL)
		pb_json_scalars(given, "options", "option", example,
						pb_set_json_option, &target);
	memset(&err, 0, sizeof(err));
	if (check && !pb_kind_check_options(kind, target.options, &err))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg_internal("%s", err.message),
				 err.detail[0] ? errhint("%s", err.detail) : 0));
	return target.options;
}

/*
 * pb_refuse_script_args
 *		A workload that runs on its own takes no scripts, variables or scale
 *		(pgbench's), and, unless retry_hint is NULL, no retries in its
 *		parameters: its tool's own way with errors is retry_hint.
 */
void
pb_refuse_script_args(const PbWorkloadArgs *args, const PbRunParams *params,
					  const char *retry_hint)
{
	if (args->script != NULL || args->scripts != NULL || args->script_names != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("workload \"%s\" cannot be combined with scripts", args->def->name),
				 errhint("A workload of the server's runs on its own; run pgbench scripts in a run of their own.")));
	if (args->vars != NULL || args->scale_given)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("vars and scale apply to pgbench scripts, not to workload \"%s\"", args->def->name),
				 errhint("Give the workload's options in options, as in options => '{\"tables\": 8}'.")));
	if (retry_hint != NULL && params->max_tries != 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("max_tries applies to pgbench scripts, not to workload \"%s\"", args->def->name),
				 errhint("%s", retry_hint)));
}

/*
 * pb_library_workload_at
 *		The i-th of a kind's workloads in its library, as
 *		polarbench_workloads lists it, whether it writes (as writes says)
 *		with its default options; false past the last.
 */
bool
pb_library_workload_at(const PbKindLibrary *kind,
					   bool (*writes) (const PbRunConfig *config),
					   int i, PbWorkloadEntry *entry)
{
	PbRunConfig config = {0};

	if (i >= pb_kind_workload_count(kind))
		return false;
	entry->def = &kind->workloads[i];
	entry->name = entry->def->name;
	entry->description = entry->def->description;
	config.workload = (char *) entry->def->name;
	config.options_size = kind->options_size;
	config.options = palloc0(Max(config.options_size, 1));
	pb_kind_defaults(kind, entry->def, config.options);
	entry->writes = writes(&config);
	pfree(config.options);
	return true;
}
