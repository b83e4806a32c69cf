/*-------------------------------------------------------------------------
 *
 * client_vars.c
 *	  A client's state: its variables, by id, as strings or typed values,
 *	  and its random number generator.
 *
 * As in pgbench a variable holds a string (from vars, \gset or \aset), a
 * typed value (from \set), or both once the string has been parsed for
 * use in an expression.
 *
 *-------------------------------------------------------------------------
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pb_script_int.h"

/*
 * A client state for a script set: every variable unset, random functions
 * seeded with prng_seed, and random_seed as the seed of hash() and
 * permute() when they are called without one.  NULL when out of memory.
 */
PbClientState *
pb_client_create(const PbScriptSet *set, uint64_t prng_seed,
				 int64_t random_seed)
{
	PbClientState *client = calloc(1, sizeof(PbClientState));

	if (client == NULL)
		return NULL;
	if (set->nvars > 0)
	{
		client->vars = calloc(set->nvars, sizeof(PbVariable));
		if (client->vars == NULL)
		{
			free(client);
			return NULL;
		}
	}
	client->nvars = set->nvars;
	pb_prng_seed(&client->prng, prng_seed);
	client->random_seed = random_seed;
	return client;
}

/*
 * Release a client state and its variables' strings.
 */
void
pb_client_free(PbClientState *client)
{
	int			i;

	if (client == NULL)
		return;
	for (i = 0; i < client->nvars; i++)
		free(client->vars[i].svalue);
	free(client->vars);
	free(client);
}

/*
 * Make room for variable id, which may have been created in the set after
 * the client (a \gset column, say).  False when out of memory.
 */
static bool
ensure_var(PbClientState *client, int id)
{
	PbVariable *vars;

	if (id < client->nvars)
		return true;
	vars = realloc(client->vars, (size_t) (id + 1) * sizeof(PbVariable));
	if (vars == NULL)
		return false;
	memset(vars + client->nvars, 0,
		   (size_t) (id + 1 - client->nvars) * sizeof(PbVariable));
	client->vars = vars;
	client->nvars = id + 1;
	return true;
}

/*
 * Give a variable a string value (from -D, \gset, \aset...); its typed
 * value is worked out when an expression first reads it.
 */
bool
pb_var_set_string(PbClientState *client, int id, const char *value,
				  PbError *err)
{
	char	   *copy;

	if (id < 0)
	{
		pb_error_set(err, PB_ERROR_INTERNAL, 0, NULL, "invalid variable id %d", id);
		return false;
	}
	if (!ensure_var(client, id) || (copy = strdup(value)) == NULL)
	{
		pb_error_oom(err, 0);
		return false;
	}
	free(client->vars[id].svalue);
	client->vars[id].svalue = copy;
	client->vars[id].value.type = PB_VAL_NONE;
	return true;
}

/*
 * Give a variable a typed value, as \set does.  Ids out of range are
 * ignored, as is a failure to grow the array (only possible for ids
 * created after the client).
 */
void
pb_var_set_value(PbClientState *client, int id, const PbValue *value)
{
	PbVariable *var;

	if (id < 0 || !ensure_var(client, id))
		return;
	var = &client->vars[id];
	if (var->svalue != NULL)
	{
		free(var->svalue);
		var->svalue = NULL;
	}
	var->value = *value;
}

/*
 * Whether s (after leading white space and a sign) is all digits, as
 * pgbench's is_an_int(); like it, a bare sign or empty string passes and
 * is then rejected by the conversion.
 */
static bool
is_an_int(const char *s)
{
	const unsigned char *p = (const unsigned char *) s;

	while (*p && isspace(*p))
		p++;
	if (*p == '+' || *p == '-')
		p++;
	if (*p && !isdigit(*p))
		return false;
	while (*p && isdigit(*p))
		p++;
	return *p == '\0';
}

/*
 * Work out the typed value of a string as pgbench's makeVariableValue():
 * null, boolean words and their prefixes, integers, then doubles.
 */
static bool
pb_parse_variable_string(const char *name, const char *svalue,
						 PbValue *value, PbError *err)
{
	size_t		slen = strlen(svalue);

	if (slen == 0)
	{
		pb_error_set(err, PB_ERROR_TYPE, 0, NULL,
					 "malformed variable \"%s\" value: \"%s\"", name, svalue);
		return false;
	}

	if (strcasecmp(svalue, "null") == 0)
	{
		value->type = PB_VAL_NULL;
		value->u.ival = 0;
	}
	/* prefixes such as y, ye, n, no are accepted, but not "o" */
	else if ((slen <= 4 && strncasecmp(svalue, "true", slen) == 0) ||
			 (slen <= 3 && strncasecmp(svalue, "yes", slen) == 0) ||
			 strcasecmp(svalue, "on") == 0)
	{
		value->type = PB_VAL_BOOL;
		value->u.bval = true;
	}
	else if ((slen <= 5 && strncasecmp(svalue, "false", slen) == 0) ||
			 (slen <= 2 && strncasecmp(svalue, "no", slen) == 0) ||
			 strcasecmp(svalue, "off") == 0 ||
			 strcasecmp(svalue, "of") == 0)
	{
		value->type = PB_VAL_BOOL;
		value->u.bval = false;
	}
	else if (is_an_int(svalue))
	{
		char	   *end;
		long long	iv;

		errno = 0;
		iv = strtoll(svalue, &end, 10);
		if (errno == ERANGE)
		{
			pb_error_set(err, PB_ERROR_OUT_OF_RANGE, 0, NULL,
						 "value \"%s\" is out of range for type bigint", svalue);
			return false;
		}
		if (errno != 0 || end == svalue || *end != '\0')
		{
			pb_error_set(err, PB_ERROR_TYPE, 0, NULL,
						 "invalid input syntax for type bigint: \"%s\"", svalue);
			return false;
		}
		value->type = PB_VAL_INT;
		value->u.ival = iv;
	}
	else
	{
		char	   *end;
		double		dv;

		errno = 0;
		dv = strtod(svalue, &end);
		if (errno != 0 || end == svalue || *end != '\0')
		{
			pb_error_set(err, PB_ERROR_TYPE, 0, NULL,
						 "malformed variable \"%s\" value: \"%s\"", name, svalue);
			return false;
		}
		value->type = PB_VAL_DOUBLE;
		value->u.dval = dv;
	}
	return true;
}

/*
 * The typed value of a variable.  A string value is parsed once and the
 * result kept, as pgbench does.  Fails on an unset variable or a string
 * that is not a value.
 */
bool
pb_var_get_value(PbClientState *client, const PbScriptSet *set, int id,
				 PbValue *value, PbError *err)
{
	PbVariable *var;

	if (id < 0 || id >= client->nvars ||
		(client->vars[id].value.type == PB_VAL_NONE &&
		 client->vars[id].svalue == NULL))
	{
		pb_error_set(err, PB_ERROR_UNDEFINED_VARIABLE, 0, NULL, "undefined variable \"%s\"",
					 pb_var_name(set, id));
		return false;
	}
	var = &client->vars[id];
	if (var->value.type == PB_VAL_NONE &&
		!pb_parse_variable_string(pb_var_name(set, id), var->svalue,
								  &var->value, err))
		return false;
	*value = var->value;
	return true;
}

/*
 * Format a typed value as pgbench's getVariable(): %lld for integers,
 * %.15g for doubles, true/false; NULL gives "" (pgbench sends "NULL").
 */
static void
format_value(const PbValue *value, char *buf, size_t buflen)
{
	switch (value->type)
	{
		case PB_VAL_BOOL:
			snprintf(buf, buflen, "%s", value->u.bval ? "true" : "false");
			break;
		case PB_VAL_INT:
			snprintf(buf, buflen, "%lld", (long long) value->u.ival);
			break;
		case PB_VAL_DOUBLE:
			snprintf(buf, buflen, "%.*g", DBL_DIG, value->u.dval);
			break;
		default:
			if (buflen > 0)
				buf[0] = '\0';
			break;
	}
}

/*
 * The string form of a variable copied into buf (truncated to buflen);
 * NULL for an unset variable.
 */
const char *
pb_var_get_string(PbClientState *client, int id, char *buf, size_t buflen)
{
	PbVariable *var;

	if (id < 0 || id >= client->nvars)
		return NULL;
	var = &client->vars[id];
	if (var->svalue != NULL)
		snprintf(buf, buflen, "%s", var->svalue);
	else if (var->value.type == PB_VAL_NONE)
		return NULL;
	else
		format_value(&var->value, buf, buflen);
	return buf;
}

/*
 * The string form of a variable without copying: the variable's own
 * string when it has one (valid until the variable is next set), or the
 * value formatted into buf (64 bytes are always enough).  NULL when unset.
 */
const char *
pb_var_get_string_ref(PbClientState *client, int id, char *buf,
					  size_t buflen)
{
	PbVariable *var;

	if (id < 0 || id >= client->nvars)
		return NULL;
	var = &client->vars[id];
	if (var->svalue != NULL)
		return var->svalue;
	if (var->value.type == PB_VAL_NONE)
		return NULL;
	format_value(&var->value, buf, buflen);
	return buf;
}
