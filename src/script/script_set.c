/*-------------------------------------------------------------------------
 *
 * script_set.c
 *	  Script sets and their variable names: creation and release, and the
 *	  name <-> id mapping shared by every script of a set; the rules every
 *	  user of the library shares (variable names, weights, the variables
 *	  each client predefines).
 *
 * Variables are known by name only while parsing; afterwards commands and
 * expressions carry ids, which index PbScriptSet.var_names and each
 * client's PbClientState.vars, so that run-time lookups cost nothing.
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_script_int.h"

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

/* The variables every client sets for itself, as pgbench does */
const char *const pb_predefined_variables[PB_PREDEFINED_VARIABLES] = {
	"client_id", "random_seed", "default_seed", "scale"
};

/*
 * The weight of a script given as "name@weight", as pgbench's
 * parseScriptWeight(): at points to the '@', and what follows must be a
 * whole number from 0 to INT32_MAX.  False, with pgbench's message, if not.
 */
bool
pb_parse_weight(const char *at, int *weight, PbError *err)
{
	char	   *end;
	long long	w;

	errno = 0;
	w = strtoll(at + 1, &end, 10);
	if (errno != 0 || end == at + 1 || *end != '\0')
	{
		pb_error_set(err, PB_ERROR_INVALID_ARGUMENT, 0, NULL,
					 "invalid weight specification: %s", at);
		return false;
	}
	if (w < 0 || w > INT32_MAX)
	{
		pb_error_set(err, PB_ERROR_INVALID_ARGUMENT, 0, NULL,
					 "weight specification out of range (0 .. %d): %lld",
					 INT32_MAX, w);
		return false;
	}
	*weight = (int) w;
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

/*
 * pb_var_name
 *		Name of a variable, for messages.
 */
const char *
pb_var_name(const PbScriptSet *set, int id)
{
	if (set != NULL && id >= 0 && id < set->nvars)
		return set->var_names[id];
	return "?";
}
