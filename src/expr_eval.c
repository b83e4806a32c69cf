/*-------------------------------------------------------------------------
 *
 * expr_eval.c
 *	  Run-time side of the script language: client states and their
 *	  variables, expression evaluation, execution of meta-commands and the
 *	  weighted choice of a script.
 *
 * Evaluation follows pgbench's evaluateExpr()/evalFunc() exactly: int64
 * arithmetic that fails on overflow instead of wrapping, promotion to
 * double when either operand is a double, NULL propagation, lazy AND, OR
 * and CASE, and pgbench's error messages.  It is on the benchmark's hot
 * path, so it allocates nothing, reads variables by id and formats no
 * strings unless a value has to be given back as text.
 *
 * Where pgbench relies on undefined behaviour (shifting by 64 or more,
 * negating INT64_MIN in abs()), this file picks what pgbench does on
 * x86-64 in practice: the shift count is taken modulo 64 and integers
 * wrap.
 *
 *-------------------------------------------------------------------------
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pb_script_int.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* What an evaluation needs besides the expression */
typedef struct EvalCtx
{
	PbClientState *client;
	const PbScriptSet *set;
	const PbScript *script;		/* for debug(); NULL outside pb_exec_meta */
	int			pc;
	PbError    *err;
} EvalCtx;

static bool eval(EvalCtx *ctx, const PbExpr *expr, PbValue *result);

/*
 * Report an evaluation error.  The line and the command text are filled
 * in by pb_exec_meta, which knows them.
 */
#define eval_error(ctx, ...) pb_error_set((ctx)->err, 0, NULL, __VA_ARGS__)

/* ---- client states and variables ----------------------------------------- */

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
		pb_error_set(err, 0, NULL, "invalid variable id %d", id);
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
bool
pb_parse_variable_string(const char *name, const char *svalue,
						 PbValue *value, PbError *err)
{
	size_t		slen = strlen(svalue);

	if (slen == 0)
	{
		pb_error_set(err, 0, NULL, "malformed variable \"%s\" value: \"%s\"",
					 name, svalue);
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
			pb_error_set(err, 0, NULL,
						 "value \"%s\" is out of range for type bigint", svalue);
			return false;
		}
		if (errno != 0 || end == svalue || *end != '\0')
		{
			pb_error_set(err, 0, NULL,
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
			pb_error_set(err, 0, NULL,
						 "malformed variable \"%s\" value: \"%s\"", name, svalue);
			return false;
		}
		value->type = PB_VAL_DOUBLE;
		value->u.dval = dv;
	}
	return true;
}

/*
 * Name of a variable for messages.
 */
static const char *
var_name(const PbScriptSet *set, int id)
{
	if (set != NULL && id >= 0 && id < set->nvars)
		return set->var_names[id];
	return "?";
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
		pb_error_set(err, 0, NULL, "undefined variable \"%s\"",
					 var_name(set, id));
		return false;
	}
	var = &client->vars[id];
	if (var->value.type == PB_VAL_NONE &&
		!pb_parse_variable_string(var_name(set, id), var->svalue,
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

/* ---- coercions ----------------------------------------------------------- */

/* pgbench's name of a value type, for messages */
static const char *
type_name(const PbValue *v)
{
	switch (v->type)
	{
		case PB_VAL_NULL:
			return "null";
		case PB_VAL_BOOL:
			return "boolean";
		case PB_VAL_INT:
			return "int";
		case PB_VAL_DOUBLE:
			return "double";
		default:
			return "none";
	}
}

/* A value as a boolean; only booleans are accepted, as coerceToBool() */
static bool
coerce_to_bool(EvalCtx *ctx, const PbValue *v, bool *b)
{
	if (v->type == PB_VAL_BOOL)
	{
		*b = v->u.bval;
		return true;
	}
	eval_error(ctx, "cannot coerce %s to boolean", type_name(v));
	return false;
}

/*
 * A value as an integer; doubles are rounded with rint() and must fit, as
 * coerceToInt().
 */
static bool
coerce_to_int(EvalCtx *ctx, const PbValue *v, int64_t *i)
{
	if (v->type == PB_VAL_INT)
	{
		*i = v->u.ival;
		return true;
	}
	if (v->type == PB_VAL_DOUBLE)
	{
		double		d = rint(v->u.dval);

		if (isnan(d) || !(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
		{
			eval_error(ctx, "double to int overflow for %f", d);
			return false;
		}
		*i = (int64_t) d;
		return true;
	}
	eval_error(ctx, "cannot coerce %s to int", type_name(v));
	return false;
}

/* A value as a double, as coerceToDouble() */
static bool
coerce_to_double(EvalCtx *ctx, const PbValue *v, double *d)
{
	if (v->type == PB_VAL_DOUBLE)
	{
		*d = v->u.dval;
		return true;
	}
	if (v->type == PB_VAL_INT)
	{
		*d = (double) v->u.ival;
		return true;
	}
	eval_error(ctx, "cannot coerce %s to double", type_name(v));
	return false;
}

/*
 * Truth of a value for \if, \elif and CASE: non-zero numbers and true;
 * NULL is false.
 */
static bool
value_truth(const PbValue *v)
{
	switch (v->type)
	{
		case PB_VAL_BOOL:
			return v->u.bval;
		case PB_VAL_INT:
			return v->u.ival != 0;
		case PB_VAL_DOUBLE:
			return v->u.dval != 0.0;
		default:
			return false;
	}
}

/* Make v the null value; its payload is zeroed so IS compares cleanly. */
static inline void
set_null(PbValue *v)
{
	v->type = PB_VAL_NULL;
	v->u.ival = 0;
}

/* Make v a boolean. */
static inline void
set_bool(PbValue *v, bool b)
{
	v->type = PB_VAL_BOOL;
	v->u.bval = b;
}

/* Make v an integer. */
static inline void
set_int(PbValue *v, int64_t i)
{
	v->type = PB_VAL_INT;
	v->u.ival = i;
}

/* Make v a double. */
static inline void
set_double(PbValue *v, double d)
{
	v->type = PB_VAL_DOUBLE;
	v->u.dval = d;
}

/* ---- evaluation ---------------------------------------------------------- */

/*
 * AND, OR and CASE, which evaluate only the arguments they need.
 */
static bool
eval_lazy(EvalCtx *ctx, const PbExpr *expr, PbValue *result)
{
	PbValue		a1,
				a2;
	bool		b1,
				b2;
	int			i;

	if (expr->func == PB_F_CASE)
	{
		/* pairs of condition and result, then the else part */
		for (i = 0; i + 1 < expr->nargs; i += 2)
		{
			if (!eval(ctx, expr->args[i], &a1))
				return false;
			if (value_truth(&a1))
				return eval(ctx, expr->args[i + 1], result);
		}
		return eval(ctx, expr->args[expr->nargs - 1], result);
	}

	if (!eval(ctx, expr->args[0], &a1))
		return false;
	if (a1.type == PB_VAL_NULL)
	{
		set_null(result);
		return true;
	}
	if (!coerce_to_bool(ctx, &a1, &b1))
		return false;

	/* AND stops on false, OR on true */
	if ((expr->func == PB_F_AND && !b1) || (expr->func == PB_F_OR && b1))
	{
		set_bool(result, b1);
		return true;
	}

	if (!eval(ctx, expr->args[1], &a2))
		return false;
	if (a2.type == PB_VAL_NULL)
	{
		set_null(result);
		return true;
	}
	if (!coerce_to_bool(ctx, &a2, &b2))
		return false;
	set_bool(result, b2);
	return true;
}

/*
 * least() and greatest(): an integer result unless some argument is a
 * double.  Kept apart because only they need room for many arguments.
 */
static bool
eval_extremum(EvalCtx *ctx, const PbExpr *expr, PbValue *result)
{
	PbValue		vargs[PB_MAX_FARGS];
	int			nargs;
	int			i;
	bool		has_null = false;
	bool		has_double = false;
	bool		least = expr->func == PB_F_LEAST;

	/* the parser guarantees one argument; this keeps compilers sure of it */
	set_null(&vargs[0]);
	for (nargs = 0; nargs < expr->nargs && nargs < PB_MAX_FARGS; nargs++)
	{
		if (!eval(ctx, expr->args[nargs], &vargs[nargs]))
			return false;
		has_null |= vargs[nargs].type == PB_VAL_NULL;
		has_double |= vargs[nargs].type == PB_VAL_DOUBLE;
	}
	if (nargs < expr->nargs)
	{
		eval_error(ctx, "too many function arguments, maximum is %d",
				   PB_MAX_FARGS);
		return false;
	}
	if (has_null)
	{
		set_null(result);
		return true;
	}

	if (has_double)
	{
		double		extremum,
					d;

		if (!coerce_to_double(ctx, &vargs[0], &extremum))
			return false;
		for (i = 1; i < nargs; i++)
		{
			if (!coerce_to_double(ctx, &vargs[i], &d))
				return false;
			if (least ? d < extremum : d > extremum)
				extremum = d;
		}
		set_double(result, extremum);
	}
	else
	{
		int64_t		extremum,
					v;

		if (!coerce_to_int(ctx, &vargs[0], &extremum))
			return false;
		for (i = 1; i < nargs; i++)
		{
			if (!coerce_to_int(ctx, &vargs[i], &v))
				return false;
			if (least ? v < extremum : v > extremum)
				extremum = v;
		}
		set_int(result, extremum);
	}
	return true;
}

/*
 * The overloaded arithmetic and comparison operators: double arithmetic if
 * either side is a double (except %), otherwise checked int64 arithmetic.
 */
static bool
eval_arith(EvalCtx *ctx, PbFunc func, const PbValue *l, const PbValue *r,
		   PbValue *result)
{
	if ((l->type == PB_VAL_DOUBLE || r->type == PB_VAL_DOUBLE) &&
		func != PB_F_MOD)
	{
		double		ld,
					rd;

		if (!coerce_to_double(ctx, l, &ld) || !coerce_to_double(ctx, r, &rd))
			return false;
		switch (func)
		{
			case PB_F_ADD:
				set_double(result, ld + rd);
				break;
			case PB_F_SUB:
				set_double(result, ld - rd);
				break;
			case PB_F_MUL:
				set_double(result, ld * rd);
				break;
			case PB_F_DIV:
				set_double(result, ld / rd);
				break;
			case PB_F_EQ:
				set_bool(result, ld == rd);
				break;
			case PB_F_NE:
				set_bool(result, ld != rd);
				break;
			case PB_F_LE:
				set_bool(result, ld <= rd);
				break;
			default:			/* PB_F_LT */
				set_bool(result, ld < rd);
				break;
		}
		return true;
	}
	else
	{
		int64_t		li,
					ri,
					res;

		if (!coerce_to_int(ctx, l, &li) || !coerce_to_int(ctx, r, &ri))
			return false;
		switch (func)
		{
			case PB_F_ADD:
				if (__builtin_add_overflow(li, ri, &res))
				{
					eval_error(ctx, "bigint add out of range");
					return false;
				}
				set_int(result, res);
				break;
			case PB_F_SUB:
				if (__builtin_sub_overflow(li, ri, &res))
				{
					eval_error(ctx, "bigint sub out of range");
					return false;
				}
				set_int(result, res);
				break;
			case PB_F_MUL:
				if (__builtin_mul_overflow(li, ri, &res))
				{
					eval_error(ctx, "bigint mul out of range");
					return false;
				}
				set_int(result, res);
				break;
			case PB_F_EQ:
				set_bool(result, li == ri);
				break;
			case PB_F_NE:
				set_bool(result, li != ri);
				break;
			case PB_F_LE:
				set_bool(result, li <= ri);
				break;
			case PB_F_LT:
				set_bool(result, li < ri);
				break;
			default:			/* PB_F_DIV, PB_F_MOD */
				if (ri == 0)
				{
					eval_error(ctx, "division by zero");
					return false;
				}
				if (ri == -1)
				{
					/* INT64_MIN / -1 overflows; anything % -1 is 0 */
					if (func == PB_F_MOD)
						set_int(result, 0);
					else if (li == INT64_MIN)
					{
						eval_error(ctx, "bigint div out of range");
						return false;
					}
					else
						set_int(result, -li);
				}
				else
					set_int(result, func == PB_F_DIV ? li / ri : li % ri);
				break;
		}
		return true;
	}
}

/*
 * random(), random_gaussian(), random_exponential(), random_zipfian():
 * check the range and the parameter with pgbench's messages, then draw
 * from the client's generator.
 */
static bool
eval_random(EvalCtx *ctx, const PbExpr *expr, const PbValue *vargs,
			PbValue *result)
{
	int64_t		imin,
				imax,
				delta;
	double		param;
	PbPrng	   *prng = &ctx->client->prng;

	if (!coerce_to_int(ctx, &vargs[0], &imin) ||
		!coerce_to_int(ctx, &vargs[1], &imax))
		return false;

	if (imin > imax)
	{
		eval_error(ctx, "empty range given to random");
		return false;
	}
	if (__builtin_sub_overflow(imax, imin, &delta) ||
		__builtin_add_overflow(delta, 1, &delta))
	{
		eval_error(ctx, "random range is too large");
		return false;
	}

	if (expr->func == PB_F_RANDOM)
	{
		set_int(result, pb_rand_uniform(prng, imin, imax));
		return true;
	}

	if (!coerce_to_double(ctx, &vargs[2], &param))
		return false;

	switch (expr->func)
	{
		case PB_F_RANDOM_GAUSSIAN:
			/* NaN and infinity would make the mapping meaningless */
			if (!(param >= PB_MIN_GAUSSIAN_PARAM) || isinf(param))
			{
				eval_error(ctx, "gaussian parameter must be at least %f (not %f)",
						   PB_MIN_GAUSSIAN_PARAM, param);
				return false;
			}
			set_int(result, pb_rand_gaussian(prng, imin, imax, param));
			break;
		case PB_F_RANDOM_ZIPFIAN:
			if (!(param >= PB_MIN_ZIPFIAN_PARAM && param <= PB_MAX_ZIPFIAN_PARAM))
			{
				eval_error(ctx, "zipfian parameter must be in range [%.3f, %.0f] (not %f)",
						   PB_MIN_ZIPFIAN_PARAM, PB_MAX_ZIPFIAN_PARAM, param);
				return false;
			}
			set_int(result, pb_rand_zipfian(prng, imin, imax, param));
			break;
		default:				/* PB_F_RANDOM_EXPONENTIAL */
			if (!(param > 0.0))
			{
				eval_error(ctx, "exponential parameter must be greater than zero (not %f)",
						   param);
				return false;
			}
			set_int(result, pb_rand_exponential(prng, imin, imax, param));
			break;
	}
	return true;
}

/*
 * debug(): print the value to stderr as pgbench does and return it.
 */
static void
print_debug(const EvalCtx *ctx, const PbValue *v)
{
	if (ctx->script != NULL)
		fprintf(stderr, "debug(script=%s,command=%d): ",
				ctx->script->name ? ctx->script->name : "?", ctx->pc + 1);
	else
		fprintf(stderr, "debug: ");

	switch (v->type)
	{
		case PB_VAL_NULL:
			fprintf(stderr, "null\n");
			break;
		case PB_VAL_BOOL:
			fprintf(stderr, "boolean %s\n", v->u.bval ? "true" : "false");
			break;
		case PB_VAL_INT:
			fprintf(stderr, "int %lld\n", (long long) v->u.ival);
			break;
		case PB_VAL_DOUBLE:
			fprintf(stderr, "double %.*g\n", DBL_DIG, v->u.dval);
			break;
		default:
			fprintf(stderr, "none\n");
			break;
	}
}

/*
 * Functions that evaluate all their arguments first (at most three here):
 * a NULL argument gives NULL, except for IS and debug().
 */
static bool
eval_standard(EvalCtx *ctx, const PbExpr *expr, PbValue *result)
{
	PbValue		vargs[3];
	int			i;
	bool		has_null = false;

	for (i = 0; i < expr->nargs; i++)
	{
		if (!eval(ctx, expr->args[i], &vargs[i]))
			return false;
		has_null |= vargs[i].type == PB_VAL_NULL;
	}

	if (has_null && expr->func != PB_F_IS && expr->func != PB_F_DEBUG)
	{
		set_null(result);
		return true;
	}

	switch (expr->func)
	{
		case PB_F_ADD:
		case PB_F_SUB:
		case PB_F_MUL:
		case PB_F_DIV:
		case PB_F_MOD:
		case PB_F_EQ:
		case PB_F_NE:
		case PB_F_LE:
		case PB_F_LT:
			return eval_arith(ctx, expr->func, &vargs[0], &vargs[1], result);

		case PB_F_BITAND:
		case PB_F_BITOR:
		case PB_F_BITXOR:
		case PB_F_LSHIFT:
		case PB_F_RSHIFT:
			{
				int64_t		li,
							ri;

				if (!coerce_to_int(ctx, &vargs[0], &li) ||
					!coerce_to_int(ctx, &vargs[1], &ri))
					return false;
				if (expr->func == PB_F_BITAND)
					set_int(result, li & ri);
				else if (expr->func == PB_F_BITOR)
					set_int(result, li | ri);
				else if (expr->func == PB_F_BITXOR)
					set_int(result, li ^ ri);
				else if (expr->func == PB_F_LSHIFT)
					set_int(result, (int64_t) ((uint64_t) li << (ri & 63)));
				else
					set_int(result, li >> (ri & 63));
				return true;
			}

		case PB_F_NOT:
			{
				bool		b;

				if (!coerce_to_bool(ctx, &vargs[0], &b))
					return false;
				set_bool(result, !b);
				return true;
			}

		case PB_F_PI:
			set_double(result, M_PI);
			return true;

		case PB_F_ABS:
			if (vargs[0].type == PB_VAL_INT)
			{
				/* abs(INT64_MIN) wraps to itself, as in pgbench */
				uint64_t	u = (uint64_t) vargs[0].u.ival;

				set_int(result, (int64_t) (vargs[0].u.ival < 0 ? 0 - u : u));
			}
			else
			{
				double		d;

				if (!coerce_to_double(ctx, &vargs[0], &d))
					return false;
				set_double(result, d < 0.0 ? -d : d);
			}
			return true;

		case PB_F_DEBUG:
			print_debug(ctx, &vargs[0]);
			*result = vargs[0];
			return true;

		case PB_F_DOUBLE:
		case PB_F_SQRT:
		case PB_F_LN:
		case PB_F_EXP:
			{
				double		d;

				if (!coerce_to_double(ctx, &vargs[0], &d))
					return false;
				if (expr->func == PB_F_SQRT)
					d = sqrt(d);
				else if (expr->func == PB_F_LN)
					d = log(d);
				else if (expr->func == PB_F_EXP)
					d = exp(d);
				set_double(result, d);
				return true;
			}

		case PB_F_INT:
			{
				int64_t		iv;

				if (!coerce_to_int(ctx, &vargs[0], &iv))
					return false;
				set_int(result, iv);
				return true;
			}

		case PB_F_RANDOM:
		case PB_F_RANDOM_GAUSSIAN:
		case PB_F_RANDOM_EXPONENTIAL:
		case PB_F_RANDOM_ZIPFIAN:
			return eval_random(ctx, expr, vargs, result);

		case PB_F_POW:
			{
				double		ld,
							rd;

				if (!coerce_to_double(ctx, &vargs[0], &ld) ||
					!coerce_to_double(ctx, &vargs[1], &rd))
					return false;
				set_double(result, pow(ld, rd));
				return true;
			}

		case PB_F_IS:
			/* the right side is always a null or boolean constant */
			if (vargs[0].type != vargs[1].type)
				set_bool(result, false);
			else if (vargs[0].type == PB_VAL_BOOL)
				set_bool(result, vargs[0].u.bval == vargs[1].u.bval);
			else
				set_bool(result, true);
			return true;

		case PB_F_HASH_MURMUR2:
		case PB_F_HASH_FNV1A:
			{
				int64_t		val,
							seed;

				if (!coerce_to_int(ctx, &vargs[0], &val) ||
					!coerce_to_int(ctx, &vargs[1], &seed))
					return false;
				set_int(result, expr->func == PB_F_HASH_MURMUR2 ?
						pb_hash_murmur2(val, seed) : pb_hash_fnv1a(val, seed));
				return true;
			}

		case PB_F_PERMUTE:
			{
				int64_t		val,
							size,
							seed;

				if (!coerce_to_int(ctx, &vargs[0], &val) ||
					!coerce_to_int(ctx, &vargs[1], &size) ||
					!coerce_to_int(ctx, &vargs[2], &seed))
					return false;
				if (size <= 0)
				{
					eval_error(ctx, "permute size parameter must be greater than zero");
					return false;
				}
				set_int(result, pb_permute(val, size, seed));
				return true;
			}

		default:
			eval_error(ctx, "unexpected function %d", (int) expr->func);
			return false;
	}
}

/*
 * Evaluate one node.
 */
static bool
eval(EvalCtx *ctx, const PbExpr *expr, PbValue *result)
{
	switch (expr->kind)
	{
		case PB_EXPR_CONST:
			*result = expr->constant;
			return true;

		case PB_EXPR_VAR:
			return pb_var_get_value(ctx->client, ctx->set, expr->varid,
									result, ctx->err);

		case PB_EXPR_DEFAULT_SEED:
			set_int(result, ctx->client->random_seed);
			return true;

		case PB_EXPR_FUNC:
			if (expr->func == PB_F_AND || expr->func == PB_F_OR ||
				expr->func == PB_F_CASE)
				return eval_lazy(ctx, expr, result);
			if (expr->func == PB_F_LEAST || expr->func == PB_F_GREATEST)
				return eval_extremum(ctx, expr, result);
			return eval_standard(ctx, expr, result);
	}
	eval_error(ctx, "unexpected expression node %d", (int) expr->kind);
	return false;
}

/*
 * Evaluate an expression for a client.  On failure err has pgbench's
 * message and line 0.
 */
bool
pb_expr_eval(const PbExpr *expr, PbClientState *client,
			 const PbScriptSet *set, PbValue *result, PbError *err)
{
	EvalCtx		ctx;

	ctx.client = client;
	ctx.set = set;
	ctx.script = NULL;
	ctx.pc = -1;
	ctx.err = err;
	return eval(&ctx, expr, result);
}

/* ---- meta-commands ------------------------------------------------------- */

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
			pb_error_set(err, 0, NULL, "sleep: undefined variable \"%s\"",
						 var_name(set, cmd->sleep_var));
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
				pb_error_set(err, 0, NULL,
							 "sleep: sleep time \"%s\" of variable \"%s\" out of range",
							 s, var_name(set, cmd->sleep_var));
				return false;
			}
			value = value * 10 + (*p - '0');
			p++;
		}
		if (neg)
			value = -value;
		if (value == 0 && !isdigit((unsigned char) *s))
		{
			pb_error_set(err, 0, NULL,
						 "sleep: invalid sleep time \"%s\" for variable \"%s\"",
						 s, var_name(set, cmd->sleep_var));
			return false;
		}
	}

	if (value <= 0)
		us = 0;					/* a past deadline: no sleep at all */
	else if (value > PB_MAX_SLEEP_US / cmd->sleep_unit_us)
	{
		pb_error_set(err, 0, NULL, "sleep: sleep time out of range");
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
	EvalCtx		ctx;
	PbValue		value;

	*sleep_us = 0;
	*next_pc = pc + 1;
	if (pc < 0 || pc >= script->ncommands)
	{
		pb_error_set(err, 0, NULL, "no command %d in script \"%s\"", pc,
					 script->name ? script->name : "?");
		return false;
	}
	cmd = &script->commands[pc];

	ctx.client = client;
	ctx.set = set;
	ctx.script = script;
	ctx.pc = pc;
	ctx.err = err;

	switch (cmd->kind)
	{
		case PB_CMD_SET:
			if (!eval(&ctx, cmd->expr, &value))
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

				if (!eval(&ctx, cmd->expr, &value))
				{
					locate_error(err, cmd);
					return false;
				}
				if (value_truth(&value))
					return true;

				target = cmd->false_target;
				while (target >= 0 && target < script->ncommands &&
					   script->commands[target].kind == PB_CMD_ELIF)
				{
					const PbCommand *elif = &script->commands[target];

					ctx.pc = target;
					if (!eval(&ctx, elif->expr, &value))
					{
						locate_error(err, elif);
						return false;
					}
					if (value_truth(&value))
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
			pb_error_set(err, cmd->line, cmd->text,
						 "command %d is not a meta-command", pc);
			return false;
	}
}

/*
 * Choose a script by weight, as pgbench's chooseScript(): a single script
 * is chosen without drawing a number.
 */
int
pb_choose_script(const PbScriptSet *set, PbPrng *prng)
{
	int			i = 0;
	int64_t		w;

	if (set->nscripts <= 1 || set->total_weight <= 0)
		return 0;

	w = pb_rand_uniform(prng, 0, set->total_weight - 1);
	do
	{
		w -= set->scripts[i++].weight;
	} while (w >= 0 && i < set->nscripts);

	return i - 1;
}
