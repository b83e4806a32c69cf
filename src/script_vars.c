/*-------------------------------------------------------------------------
 *
 * script_vars.c
 *	  Script sets and their variable names: creation and release, the
 *	  name <-> id mapping shared by every script of a set, and the static
 *	  check that every variable a script reads can be set by someone.
 *	  Also the small error and string helpers the other files share.
 *
 * Variables are known by name only while parsing; afterwards commands and
 * expressions carry ids, which index PbScriptSet.var_names and each
 * client's PbClientState.vars, so that run-time lookups cost nothing.
 *
 *-------------------------------------------------------------------------
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_script_int.h"

/*
 * Fill err with a formatted message, a line number and an optional detail
 * (the offending text).  err may be NULL when the caller does not care.
 */
void
pb_error_set(PbError *err, int line, const char *detail, const char *fmt,...)
{
	va_list		ap;

	if (err == NULL)
		return;
	err->line = line;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	if (detail != NULL)
		snprintf(err->detail, sizeof(err->detail), "%s", detail);
	else
		err->detail[0] = '\0';
}

/*
 * Report a syntax error of a meta-command as pgbench does: the message is
 * "msg (more) in command \"cmd\"", and the detail the command's line
 * (text[0..len), up to its first newline) followed, when the column is
 * known (0-based, from the backslash), by a caret line pointing at it.
 */
void
pb_syntax_error(PbError *err, int line, const char *text, size_t len,
				const char *msg, const char *more, const char *cmd,
				long column)
{
	char		detail[sizeof(err->detail)];
	char		cmdbuf[96] = "";
	size_t		n = 0;

	if (err == NULL)
		return;
	while (n < len && text[n] != '\n' && n < sizeof(detail) - 1)
	{
		detail[n] = text[n];
		n++;
	}
	while (n > 0 && (detail[n - 1] == '\r' || detail[n - 1] == ' ' ||
					 detail[n - 1] == '\t'))
		n--;
	detail[n] = '\0';

	/* the caret line, if it fits */
	if (column >= 0 &&
		n + 1 + (size_t) column + sizeof("^ error found here") < sizeof(detail))
		snprintf(detail + n, sizeof(detail) - n, "\n%*c error found here",
				 (int) column + 1, '^');

	if (cmd != NULL)
		snprintf(cmdbuf, sizeof(cmdbuf), " in command \"%s\"", cmd);
	if (more != NULL)
		pb_error_set(err, line, detail, "%s (%s)%s", msg, more, cmdbuf);
	else
		pb_error_set(err, line, detail, "%s%s", msg, cmdbuf);
}

/*
 * Report an allocation failure; kept apart so that every caller says the
 * same thing.
 */
void
pb_error_oom(PbError *err, int line)
{
	pb_error_set(err, line, NULL, "out of memory");
}

/*
 * malloc'd copy of the first len bytes of s, NUL-terminated; NULL when
 * out of memory.
 */
char *
pb_strndup(const char *s, size_t len)
{
	char	   *r = malloc(len + 1);

	if (r == NULL)
		return NULL;
	memcpy(r, s, len);
	r[len] = '\0';
	return r;
}

/*
 * Whether name is acceptable as a variable name, as pgbench's
 * valid_variable_name(): ASCII letters, digits, underscore and any
 * non-ASCII byte, not starting with a digit.
 */
bool
pb_valid_variable_name(const char *name)
{
	const unsigned char *p = (const unsigned char *) name;

	if (*p == '\0')
		return false;
	if (!(*p >= 0x80 || *p == '_' ||
		  (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		return false;
	for (p++; *p; p++)
	{
		if (!(*p >= 0x80 || *p == '_' ||
			  (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			  (*p >= '0' && *p <= '9')))
			return false;
	}
	return true;
}

/*
 * A new, empty script set; NULL when out of memory.
 */
PbScriptSet *
pb_scriptset_create(void)
{
	return calloc(1, sizeof(PbScriptSet));
}

/*
 * Release one command's allocations (not the command itself, which lives
 * in its script's array).
 */
static void
free_command(PbCommand *cmd)
{
	free(cmd->text);
	free(cmd->sql);
	free(cmd->param_vars);
	free(cmd->result_prefix);
	pb_expr_free(cmd->expr);
}

/*
 * Release a script set with all its scripts, commands and expressions.
 * Clients created from it must be freed separately.
 */
void
pb_scriptset_free(PbScriptSet *set)
{
	int			i,
				j;

	if (set == NULL)
		return;
	for (i = 0; i < set->nscripts; i++)
	{
		PbScript   *script = &set->scripts[i];

		for (j = 0; j < script->ncommands; j++)
			free_command(&script->commands[j]);
		free(script->commands);
		free(script->name);
	}
	free(set->scripts);
	for (i = 0; i < set->nvars; i++)
		free(set->var_names[i]);
	free(set->var_names);
	free(set->var_assigned);
	free(set);
}

/*
 * Id of the variable called name.  When absent, it is added if create is
 * true (unassigned), and -1 is returned otherwise.  -1 is also returned
 * when adding fails for lack of memory.  Lookup by name is linear: it only
 * happens while parsing and setting up, never per evaluation.
 */
int
pb_var_id(PbScriptSet *set, const char *name, bool create)
{
	int			i;
	char	   *copy;
	char	  **names;
	bool	   *assigned;

	for (i = 0; i < set->nvars; i++)
	{
		if (strcmp(set->var_names[i], name) == 0)
			return i;
	}
	if (!create)
		return -1;

	copy = strdup(name);
	if (copy == NULL)
		return -1;
	names = realloc(set->var_names, (set->nvars + 1) * sizeof(char *));
	if (names == NULL)
	{
		free(copy);
		return -1;
	}
	set->var_names = names;
	assigned = realloc(set->var_assigned, (set->nvars + 1) * sizeof(bool));
	if (assigned == NULL)
	{
		free(copy);
		return -1;
	}
	set->var_assigned = assigned;
	set->var_names[set->nvars] = copy;
	set->var_assigned[set->nvars] = false;
	return set->nvars++;
}

/*
 * Record that a variable is given a value from outside the scripts
 * (-D style definitions, scale, client_id...), for pb_scriptset_check_vars.
 */
void
pb_var_mark_assigned(PbScriptSet *set, int id)
{
	if (id >= 0 && id < set->nvars)
		set->var_assigned[id] = true;
}

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
				char		detail[256];

				snprintf(detail, sizeof(detail), "%s: %s",
						 script->name, cmd->text ? cmd->text : "");
				pb_error_set(err, cmd->line, detail,
							 "undefined variable \"%s\"",
							 set->var_names[state.bad_var]);
				return false;
			}
		}
	}
	return true;
}
