/*-------------------------------------------------------------------------
 *
 * expr_eval.c
 *	  Evaluation of pgbench's expressions for a client.
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
#define eval_error(ctx, kind, ...) pb_error_set((ctx)->err, (kind), 0, NULL, __VA_ARGS__)

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
	eval_error(ctx, PB_ERROR_TYPE, "cannot coerce %s to boolean", type_name(v));
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
			eval_error(ctx, PB_ERROR_OUT_OF_RANGE, "double to int overflow for %f", d);
			return false;
		}
		*i = (int64_t) d;
		return true;
	}
	eval_error(ctx, PB_ERROR_TYPE, "cannot coerce %s to int", type_name(v));
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
	eval_error(ctx, PB_ERROR_TYPE, "cannot coerce %s to double", type_name(v));
	return false;
}

/*
 * Truth of a value for \if, \elif and CASE: non-zero numbers and true;
 * NULL is false.
 */
bool
pb_value_truth(const PbValue *v)
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
			if (pb_value_truth(&a1))
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
		eval_error(ctx, PB_ERROR_DATA, "too many function arguments, maximum is %d",
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
					eval_error(ctx, PB_ERROR_OUT_OF_RANGE, "bigint add out of range");
					return false;
				}
				set_int(result, res);
				break;
			case PB_F_SUB:
				if (__builtin_sub_overflow(li, ri, &res))
				{
					eval_error(ctx, PB_ERROR_OUT_OF_RANGE, "bigint sub out of range");
					return false;
				}
				set_int(result, res);
				break;
			case PB_F_MUL:
				if (__builtin_mul_overflow(li, ri, &res))
				{
					eval_error(ctx, PB_ERROR_OUT_OF_RANGE, "bigint mul out of range");
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
					eval_error(ctx, PB_ERROR_DIVISION_BY_ZERO, "division by zero");
					return false;
				}
				if (ri == -1)
				{
					/* INT64_MIN / -1 overflows; anything % -1 is 0 */
					if (func == PB_F_MOD)
						set_int(result, 0);
					else if (li == INT64_MIN)
					{
						eval_error(ctx, PB_ERROR_OUT_OF_RANGE, "bigint div out of range");
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
		eval_error(ctx, PB_ERROR_INVALID_ARGUMENT, "empty range given to random");
		return false;
	}
	if (__builtin_sub_overflow(imax, imin, &delta) ||
		__builtin_add_overflow(delta, 1, &delta))
	{
		eval_error(ctx, PB_ERROR_INVALID_ARGUMENT, "random range is too large");
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
				eval_error(ctx, PB_ERROR_INVALID_ARGUMENT, "gaussian parameter must be at least %f (not %f)",
						   PB_MIN_GAUSSIAN_PARAM, param);
				return false;
			}
			set_int(result, pb_rand_gaussian(prng, imin, imax, param));
			break;
		case PB_F_RANDOM_ZIPFIAN:
			if (!(param >= PB_MIN_ZIPFIAN_PARAM && param <= PB_MAX_ZIPFIAN_PARAM))
			{
				eval_error(ctx, PB_ERROR_INVALID_ARGUMENT, "zipfian parameter must be in range [%.3f, %.0f] (not %f)",
						   PB_MIN_ZIPFIAN_PARAM, PB_MAX_ZIPFIAN_PARAM, param);
				return false;
			}
			set_int(result, pb_rand_zipfian(prng, imin, imax, param));
			break;
		default:				/* PB_F_RANDOM_EXPONENTIAL */
			if (!(param > 0.0))
			{
				eval_error(ctx, PB_ERROR_INVALID_ARGUMENT, "exponential parameter must be greater than zero (not %f)",
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
					eval_error(ctx, PB_ERROR_INVALID_ARGUMENT, "permute size parameter must be greater than zero");
					return false;
				}
				set_int(result, pb_permute(val, size, seed));
				return true;
			}

		default:
			eval_error(ctx, PB_ERROR_INTERNAL, "unexpected function %d", (int) expr->func);
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
	eval_error(ctx, PB_ERROR_INTERNAL, "unexpected expression node %d", (int) expr->kind);
	return false;
}

/*
 * pb_expr_evaluate
 *		Evaluate an expression for a client.  script and pc name the command
 *		being run, for debug()'s output (script may be NULL).  On failure err
 *		has pgbench's message and line 0.
 */
bool
pb_expr_evaluate(const PbExpr *expr, PbClientState *client,
				 const PbScriptSet *set, const PbScript *script, int pc,
				 PbValue *result, PbError *err)
{
	EvalCtx		ctx;

	ctx.client = client;
	ctx.set = set;
	ctx.script = script;
	ctx.pc = pc;
	ctx.err = err;
	return eval(&ctx, expr, result);
}
