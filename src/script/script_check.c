/*-------------------------------------------------------------------------
 *
 * script_check.c
 *	  The static check of a parsed script set: every variable a script
 *	  reads can be set by someone.
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <string.h>

#include "pb_script_int.h"

/* State of the walk in pb_scriptset_check_vars */
typedef struct CheckVarsState
{
	const PbScriptSet *set;
	int			bad_var;		/* first unsettable variable found, or -1 */
} CheckVarsState;

/*
 * Whether a \gset or \aset of the set could store into a variable of this
 * name: it stores column names behind its prefix, and column names are
 * only known at run time.
 */
static bool
may_come_from_result(const PbScriptSet *set, const char *name)
{
	int			i,
				j;

	if (!set->has_result_targets)
		return false;
	for (i = 0; i < set->nscripts; i++)
	{
		const PbScript *script = &set->scripts[i];

		for (j = 0; j < script->ncommands; j++)
		{
			const PbCommand *cmd = &script->commands[j];
			const char *prefix = cmd->result_prefix;

			if (cmd->kind != PB_CMD_SQL || cmd->result_target == PB_RESULT_NONE)
				continue;
			if (prefix == NULL ||
				strncmp(name, prefix, strlen(prefix)) == 0)
				return true;
		}
	}
	return false;
}

/*
 * Note a variable read by a command, remembering the first one that
 * nothing can set.
 */
static void
check_one_var(int varid, void *arg)
{
	CheckVarsState *state = arg;
	const PbScriptSet *set = state->set;

	if (state->bad_var >= 0 || varid < 0 || varid >= set->nvars)
		return;
	if (set->var_assigned[varid])
		return;
	if (may_come_from_result(set, set->var_names[varid]))
		return;
	state->bad_var = varid;
}

/*
 * Fail on the first variable that some command reads (in SQL, in an
 * expression or as a \sleep duration) but that is neither the target of
 * a \set nor marked assigned, unless a \gset/\aset could produce it.
 * pgbench would only find out when running the command.
 */
bool
pb_scriptset_check_vars(const PbScriptSet *set, PbError *err)
{
	CheckVarsState state;
	int			i,
				j,
				k;

	state.set = set;
	state.bad_var = -1;

	for (i = 0; i < set->nscripts; i++)
	{
		const PbScript *script = &set->scripts[i];

		for (j = 0; j < script->ncommands; j++)
		{
			const PbCommand *cmd = &script->commands[j];

			switch (cmd->kind)
			{
				case PB_CMD_SQL:
					for (k = 0; k < cmd->nparams; k++)
						check_one_var(cmd->param_vars[k], &state);
					break;
				case PB_CMD_SET:
				case PB_CMD_IF:
				case PB_CMD_ELIF:
					pb_expr_walk_vars(cmd->expr, check_one_var, &state);
					break;
				case PB_CMD_SLEEP:
					if (cmd->sleep_var >= 0)
						check_one_var(cmd->sleep_var, &state);
					break;
				default:
					break;
			}
			if (state.bad_var >= 0)
			{
				pb_error_set(err, PB_ERROR_UNDEFINED_VARIABLE, cmd->line, NULL,
							 "undefined variable \"%s\"",
							 set->var_names[state.bad_var]);
				if (err != NULL)
					err->script_no = i;
				return false;
			}
		}
	}
	return true;
}
