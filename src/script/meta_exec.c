/*-------------------------------------------------------------------------
 *
 * meta_exec.c
 *	  Execution of a script's meta-commands: \set, \sleep and the
 *	  conditionals; the caller runs the SQL commands.
 *
 *-------------------------------------------------------------------------
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "pb_script_int.h"

/*
 * Fill in where a run-time error happened: the command's line and text.
 */
static void
locate_error(PbError *err, const PbCommand *cmd)
{
	if (err == NULL)
		return;
	err->line = cmd->line;
	snprintf(err->detail, sizeof(err->detail), "%s", cmd->text ? cmd->text : "");
}

/*
 * The duration of a \sleep in microseconds, as pgbench's evaluateSleep():
 * a variable's string form is read with atoi() semantics and must start
 * with a digit unless it reads as non-zero.
 */
static bool
eval_sleep(const PbCommand *cmd, PbClientState *client,
		   const PbScriptSet *set, int64_t *sleep_us, PbError *err)
{
	int64_t		value = cmd->sleep_value;
	int64_t		us;

	if (cmd->sleep_var >= 0)
	{
		char		buf[64];
		const char *s = pb_var_get_string_ref(client, cmd->sleep_var,
											  buf, sizeof(buf));
		const char *p;
		bool		neg = false;

		if (s == NULL)
		{
			pb_error_set(err, PB_ERROR_UNDEFINED_VARIABLE, 0, NULL, "sleep: undefined variable \"%s\"",
						 pb_var_name(set, cmd->sleep_var));
			return false;
		}
		p = s;
		while (isspace((unsigned char) *p))
			p++;
		if (*p == '+' || *p == '-')
			neg = *p++ == '-';
		value = 0;
		while (isdigit((unsigned char) *p))
		{
			if (value > (PB_MAX_SLEEP_US - (*p - '0')) / 10)
			{
				pb_error_set(err, PB_ERROR_OUT_OF_RANGE, 0, NULL,
							 "sleep: sleep time \"%s\" of variable \"%s\" out of range",
							 s, pb_var_name(set, cmd->sleep_var));
				return false;
			}
			value = value * 10 + (*p - '0');
			p++;
		}
		if (neg)
			value = -value;
		if (value == 0 && !isdigit((unsigned char) *s))
		{
			pb_error_set(err, PB_ERROR_DATA, 0, NULL,
						 "sleep: invalid sleep time \"%s\" for variable \"%s\"",
						 s, pb_var_name(set, cmd->sleep_var));
			return false;
		}
	}

	if (value <= 0)
		us = 0;					/* a past deadline: no sleep at all */
	else if (value > PB_MAX_SLEEP_US / cmd->sleep_unit_us)
	{
		pb_error_set(err, PB_ERROR_OUT_OF_RANGE, 0, NULL, "sleep: sleep time out of range");
		return false;
	}
	else
		us = value * cmd->sleep_unit_us;
	*sleep_us = us;
	return true;
}

/*
 * Execute the meta-command at script->commands[pc]; see pb_script.h.
 *
 * Conditionals are resolved with the targets computed at parse time: a
 * false \if or \elif walks the chain of its \elif branches itself, so the
 * next command is never an \elif to evaluate; an \elif or \else reached
 * in sequence ends a branch that was taken, and goes to its \endif.
 */
bool
pb_exec_meta(const PbScript *script, int pc, PbClientState *client,
			 const PbScriptSet *set, int *next_pc, int64_t *sleep_us,
			 PbError *err)
{
	const PbCommand *cmd;
	PbValue		value;

	*sleep_us = 0;
	*next_pc = pc + 1;
	if (pc < 0 || pc >= script->ncommands)
	{
		pb_error_set(err, PB_ERROR_INTERNAL, 0, NULL, "no command %d in script \"%s\"", pc,
					 script->name ? script->name : "?");
		return false;
	}
	cmd = &script->commands[pc];

	switch (cmd->kind)
	{
		case PB_CMD_SET:
			if (!pb_expr_evaluate(cmd->expr, client, set, script, pc, &value, err))
			{
				locate_error(err, cmd);
				return false;
			}
			pb_var_set_value(client, cmd->set_var, &value);
			return true;

		case PB_CMD_SLEEP:
			if (!eval_sleep(cmd, client, set, sleep_us, err))
			{
				locate_error(err, cmd);
				return false;
			}
			return true;

		case PB_CMD_IF:
			{
				int			target;

				if (!pb_expr_evaluate(cmd->expr, client, set, script, pc, &value, err))
				{
					locate_error(err, cmd);
					return false;
				}
				if (pb_value_truth(&value))
					return true;

				target = cmd->false_target;
				while (target >= 0 && target < script->ncommands &&
					   script->commands[target].kind == PB_CMD_ELIF)
				{
					const PbCommand *elif = &script->commands[target];

					if (!pb_expr_evaluate(elif->expr, client, set, script, target,
										  &value, err))
					{
						locate_error(err, elif);
						return false;
					}
					if (pb_value_truth(&value))
					{
						*next_pc = target + 1;
						return true;
					}
					target = elif->false_target;
				}
				*next_pc = target;
				return true;
			}

		case PB_CMD_ELIF:
		case PB_CMD_ELSE:
			*next_pc = cmd->endif_target;
			return true;

		case PB_CMD_ENDIF:
		case PB_CMD_NOOP:
			return true;

		default:
			pb_error_set(err, PB_ERROR_INTERNAL, cmd->line, cmd->text,
						 "command %d is not a meta-command", pc);
			return false;
	}
}
