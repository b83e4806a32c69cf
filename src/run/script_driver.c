/*-------------------------------------------------------------------------
 *
 * script_driver.c
 *	  The driver of pgbench scripts in a client: builds the client's script
 *	  set from the run's configuration, prepares it, sets its variables,
 *	  and runs one script, chosen by weight, per benchmark transaction.
 *
 * calls: run_config.c, script_exec.c; of the script library, script_set.c,
 * client_vars.c, random_dist.c, script_choice.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "run.h"

/* What a client running scripts keeps */
typedef struct PbScriptDriver
{
	PbScriptSet *set;
	PbExecutor *exec;
	PbPrng		choose_prng;
	int		   *stats_offset;	/* first command of each script in stats */
	int			current_script;
} PbScriptDriver;

/*
 * pb_script_setup
 *		Build the client's scripts from the run's configuration, prepare
 *		them, and set its variables: the predefined ones first, so that vars
 *		may override them.
 */
static void
pb_script_setup(PbDriverContext *ctx)
{
	const PbRunConfig *config = ctx->config;
	PbScriptDriver *d = palloc0(sizeof(PbScriptDriver));
	PbClientState *state;
	PbValue		v;
	int			ncommands = 0;

	ctx->state = d;
	d->set = pb_config_build_scripts(config, false);
	d->exec = pb_executor_create(d->set, ctx->run);
	pb_executor_prepare(d->exec);

	/* every client draws its own numbers, reproducible from the run's seed */
	state = pb_client_create(d->set, ctx->seed, config->random_seed);
	if (state == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory")));
	pb_executor_set_client(d->exec, state);
	pb_prng_seed(&d->choose_prng,
				 (uint64) config->random_seed ^ ((uint64) ctx->client_no << 32));
	/* a retry chooses the same script and draws the same numbers */
	ctx->draws[0] = &d->choose_prng;
	ctx->draws[1] = &state->prng;
	ctx->ndraws = 2;

	v.type = PB_VAL_INT;
	v.u.ival = ctx->client_no;
	pb_var_set_value(state, pb_var_id(d->set, "client_id", false), &v);
	v.u.ival = config->random_seed;
	pb_var_set_value(state, pb_var_id(d->set, "random_seed", false), &v);
	pb_var_set_value(state, pb_var_id(d->set, "default_seed", false), &v);
	for (int i = 0; i < config->nvars; i++)
	{
		PbError		err;

		if (!pb_var_set_string(state, pb_var_id(d->set, config->var_names[i], false),
							   config->var_values[i], &err))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s", err.message)));
	}

	d->stats_offset = palloc(sizeof(int) * d->set->nscripts);
	for (int s = 0; s < d->set->nscripts; s++)
	{
		d->stats_offset[s] = ncommands;
		ncommands += d->set->scripts[s].ncommands;
	}
	if (ctx->run != NULL && ncommands != ctx->run->ncommands)
		elog(ERROR, "script set has %d commands, run has %d",
			 ncommands, ctx->run->ncommands);
}

/*
 * pb_script_transaction
 *		Run one script chosen by weight.
 */
static bool
pb_script_transaction(PbDriverContext *ctx, PbTxnCounts *counts)
{
	PbScriptDriver *d = ctx->state;
	int			script_no = pb_choose_script(d->set, &d->choose_prng);
	int64		clock_ns = ctx->txn_begin_ns;
	bool		done;

	d->current_script = script_no;
	ctx->current_command = d->stats_offset[script_no];
	/* counters only: no clock read or count per command */
	done = pb_executor_run_script(d->exec, script_no,
								  ctx->run->counters_only ? NULL :
								  ctx->stats + d->stats_offset[script_no],
								  pb_command_hist(ctx, d->stats_offset[script_no]),
								  counts, &clock_ns);
	if (!ctx->run->counters_only)
		ctx->txn_end_ns = clock_ns;
	ctx->current_command = -1;
	return done;
}

/* Roll back what the script left open. */
static void
pb_script_abort(PbDriverContext *ctx)
{
	PbScriptDriver *d = ctx->state;

	pb_executor_abort(d->exec);
	/* the command the error came from, if it came from one */
	if (ctx->current_command >= 0)
		ctx->current_command = d->stats_offset[d->current_script] +
			pb_executor_current_command(d->exec);
}

/* The script and line an error came from. */
static char *
pb_script_error_context(PbDriverContext *ctx)
{
	PbScriptDriver *d = ctx->state;
	PbScript   *script = &d->set->scripts[d->current_script];

	return psprintf("command at line %d of script \"%s\"",
					script->commands[pb_executor_current_command(d->exec)].line,
					script->name);
}

/*
 * pb_script_commands
 *		Every command of every script, in script order.
 */
static int
pb_script_commands(const PbRunConfig *config, PbCommandDesc **descs)
{
	PbScriptSet *set = pb_config_build_scripts(config, false);
	int			n = 0;

	for (int s = 0; s < set->nscripts; s++)
		n += set->scripts[s].ncommands;
	*descs = palloc0(sizeof(PbCommandDesc) * Max(n, 1));
	n = 0;
	for (int s = 0; s < set->nscripts; s++)
		for (int c = 0; c < set->scripts[s].ncommands; c++)
		{
			(*descs)[n].script_no = s + 1;
			(*descs)[n].command_no = c + 1;
			(*descs)[n].line = set->scripts[s].commands[c].line;
			(*descs)[n].text = pstrdup(set->scripts[s].commands[c].text);
			n++;
		}
	pb_scriptset_free(set);
	return n;
}

const PbDriver pb_script_driver = {
	.setup = pb_script_setup,
	.transaction = pb_script_transaction,
	.abort = pb_script_abort,
	.error_context = pb_script_error_context,
	.commands = pb_script_commands,
};
