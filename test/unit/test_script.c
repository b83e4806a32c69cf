/*-------------------------------------------------------------------------
 *
 * test_script.c
 *	  Unit tests of the script language library: script splitting,
 *	  variables in SQL, meta-commands, expressions and their errors,
 *	  conditionals, PolarDB's scripts, the random generator and the shape
 *	  of the distributions.
 *
 * Prints one line per failure and ends with "N passed, N failed"; exits
 * non-zero when anything failed.  Every random check uses a fixed seed,
 * so the outcome never depends on luck.
 *
 *-------------------------------------------------------------------------
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pb_script.h"

#include "pgbench_expressions.inc"
#include "unit_check.h"


/* ---- allocation counting (the Makefile wraps malloc & co) ---------------- */

static long nallocs;

void	   *__real_malloc(size_t size);
void	   *__real_calloc(size_t n, size_t size);
void	   *__real_realloc(void *p, size_t size);
void	   *__wrap_malloc(size_t size);
void	   *__wrap_calloc(size_t n, size_t size);
void	   *__wrap_realloc(void *p, size_t size);

/* Count a malloc() made by the library or the tests. */
void *
__wrap_malloc(size_t size)
{
	nallocs++;
	return __real_malloc(size);
}

/* Count a calloc(). */
void *
__wrap_calloc(size_t n, size_t size)
{
	nallocs++;
	return __real_calloc(n, size);
}

/* Count a realloc(). */
void *
__wrap_realloc(void *p, size_t size)
{
	nallocs++;
	return __real_realloc(p, size);
}

/* ---- helpers ------------------------------------------------------------- */

/* Variables preset for expression tests, name and string value */
static const char *const preset[][2] = {
	{"i", "7"},
	{"d", "2.5"},
	{"b", "true"},
	{"n", "null"},
	{"s", "abc"},
	{"big", "9223372036854775807"},
	{"scale", "10"},
	{"range", "1000"},
};

/*
 * Parse a script into a new set, failing the test (and returning NULL)
 * when it does not parse.
 */
static PbScriptSet *
parse_ok(const char *text)
{
	PbScriptSet *set = pb_scriptset_create();
	PbError		err;

	if (!pb_script_parse(set, "test", text, 1, &err))
	{
		check(false, "script should parse: %s\n  error line %d: %s [%s]",
			  text, err.line, err.message, err.detail);
		pb_scriptset_free(set);
		return NULL;
	}
	return set;
}

/*
 * A client for set with the preset variables given their values.
 */
static PbClientState *
make_client(PbScriptSet *set, uint64_t seed)
{
	PbClientState *client = pb_client_create(set, seed, 5432);
	size_t		i;
	PbError		err;

	for (i = 0; i < sizeof(preset) / sizeof(preset[0]); i++)
	{
		int			id = pb_var_id(set, preset[i][0], false);

		if (id >= 0)
			pb_var_set_string(client, id, preset[i][1], &err);
	}
	return client;
}

/*
 * Evaluate expr through "\set r expr" and pb_exec_meta.  Returns whether
 * it succeeded; the value or the error is given back.
 */
static bool
eval_expr(const char *expr, PbValue *value, PbError *err)
{
	static char text[8192];
	PbScriptSet *set = pb_scriptset_create();
	PbClientState *client;
	int			next;
	int64_t		sleep_us;
	bool		ok;

	snprintf(text, sizeof(text), "\\set r %s\n", expr);
	memset(err, 0, sizeof(*err));
	if (!pb_script_parse(set, "expr", text, 1, err))
	{
		pb_scriptset_free(set);
		return false;
	}
	client = make_client(set, 1);
	ok = pb_exec_meta(&set->scripts[0], 0, client, set, &next, &sleep_us, err);
	if (ok)
		ok = pb_var_get_value(client, set, set->scripts[0].commands[0].set_var,
							  value, err);
	pb_client_free(client);
	pb_scriptset_free(set);
	return ok;
}

/* The expression must evaluate to this integer. */
static void
expect_int(const char *expr, int64_t want)
{
	PbValue		v;
	PbError		err;

	if (!eval_expr(expr, &v, &err))
		check(false, "%s: unexpected error: %s", expr, err.message);
	else
		check(v.type == PB_VAL_INT && v.u.ival == want,
			  "%s: want int %lld, got type %d value %lld", expr,
			  (long long) want, v.type, (long long) v.u.ival);
}

/* The expression must evaluate to a double within tol of want. */
static void
expect_double(const char *expr, double want, double tol)
{
	PbValue		v;
	PbError		err;

	if (!eval_expr(expr, &v, &err))
		check(false, "%s: unexpected error: %s", expr, err.message);
	else
		check(v.type == PB_VAL_DOUBLE && fabs(v.u.dval - want) <= tol,
			  "%s: want double %.17g, got type %d value %.17g", expr,
			  want, v.type, v.u.dval);
}

/* The expression must evaluate to this boolean. */
static void
expect_bool(const char *expr, bool want)
{
	PbValue		v;
	PbError		err;

	if (!eval_expr(expr, &v, &err))
		check(false, "%s: unexpected error: %s", expr, err.message);
	else
		check(v.type == PB_VAL_BOOL && v.u.bval == want,
			  "%s: want bool %d, got type %d value %d", expr, want, v.type,
			  (int) v.u.bval);
}

/* The expression must evaluate to null. */
static void
expect_null(const char *expr)
{
	PbValue		v;
	PbError		err;

	if (!eval_expr(expr, &v, &err))
		check(false, "%s: unexpected error: %s", expr, err.message);
	else
		check(v.type == PB_VAL_NULL, "%s: want null, got type %d", expr, v.type);
}

/* The expression must fail (to parse or to run) with message msg */
static void
expect_error(const char *expr, const char *msg)
{
	PbValue		v;
	PbError		err;

	if (eval_expr(expr, &v, &err))
		check(false, "%s: want error \"%s\", got type %d", expr, msg, v.type);
	else
		check(strstr(err.message, msg) != NULL,
			  "%s: want error \"%s\", got \"%s\"", expr, msg, err.message);
}

/* The script must fail to parse, on line line with message msg */
static void
expect_parse_error(const char *text, int line, const char *msg)
{
	PbScriptSet *set = pb_scriptset_create();
	PbError		err;

	if (pb_script_parse(set, "test", text, 1, &err))
		check(false, "script should not parse: %s", text);
	else
	{
		check(strstr(err.message, msg) != NULL,
			  "script %s: want error \"%s\", got \"%s\"", text, msg, err.message);
		check(err.line == line, "script %s: want error line %d, got %d",
			  text, line, err.line);
	}
	check(set->nscripts == 0 && set->nvars == 0,
		  "failed parse must leave the set empty: %s", text);
	pb_scriptset_free(set);
}

/*
 * Run a script as the server would (SQL commands skipped) and return the
 * number of SQL commands reached; false on a meta-command failure.
 */
static bool
run_script(const PbScriptSet *set, int s, PbClientState *client,
		   int *nsql, int64_t *slept, PbError *err)
{
	const PbScript *script = &set->scripts[s];
	int			pc = 0;
	int			guard = 0;

	*nsql = 0;
	*slept = 0;
	while (pc < script->ncommands && guard++ < 10000)
	{
		int			next;
		int64_t		us;

		if (script->commands[pc].kind == PB_CMD_SQL)
		{
			(*nsql)++;
			pc++;
			continue;
		}
		if (!pb_exec_meta(script, pc, client, set, &next, &us, err))
			return false;
		*slept += us;
		pc = next;
	}
	return true;
}

/* Integer value of variable name for client, or -999999 */
static int64_t
var_int(PbScriptSet *set, PbClientState *client, const char *name)
{
	PbValue		v;
	PbError		err;
	int			id = pb_var_id(set, name, false);

	if (id < 0 || !pb_var_get_value(client, set, id, &v, &err) ||
		v.type != PB_VAL_INT)
		return -999999;
	return v.u.ival;
}

/* ---- tests: expressions -------------------------------------------------- */

/* Operators, precedence, NULL handling, limits and syntax errors. */
static void
test_operators(void)
{
	expect_int("5 + 4", 9);
	expect_int("5 - 4", 1);
	expect_int("5 * 4", 20);
	expect_int("5 / 4", 1);
	expect_int("-5 / 4", -1);
	expect_int("5 % 4", 1);
	expect_int("-5 % 4", -1);
	expect_double("5.0 / 4", 1.25, 0);
	expect_double("5 / 4.0", 1.25, 0);
	expect_double("1 + 0.5", 1.5, 0);
	expect_double("2.5 * 2", 5.0, 0);
	expect_double("3.5 - 1", 2.5, 0);
	expect_int("5.5 % 2", 0);	/* % rounds doubles to int: 6 % 2 */
	expect_bool("5 = 4", false);
	expect_bool("5 = 5.0", true);
	expect_bool("5 <> 4", true);
	expect_bool("5 != 4", true);
	expect_bool("5 < 4", false);
	expect_bool("5 <= 5", true);
	expect_bool("5 > 4", true);
	expect_bool("5 >= 6", false);
	expect_bool("1.5 < 2", true);
	expect_int("1 | 2", 3);
	expect_int("1 & 3", 1);
	expect_int("1 # 3", 2);
	expect_int("~5", -6);
	expect_int("~ -1", 0);
	expect_int("1 << 2", 4);
	expect_int("-8 >> 1", -4);
	expect_int("1 << 64", 1);	/* shift count modulo 64, as on x86-64 */
	expect_int("5.6 | 0", 6);
	expect_bool("true AND false", false);
	expect_bool("true and true", true);
	expect_bool("false OR true", true);
	expect_bool("false or false", false);
	expect_bool("NOT true", false);
	expect_bool("not false", true);
	expect_bool("1 IS NULL", false);
	expect_bool("null IS NULL", true);
	expect_bool("1 IS NOT NULL", true);
	expect_bool("1 ISNULL", false);
	expect_bool("null ISNULL", true);
	expect_bool("1 NOTNULL", true);
	expect_bool("true IS TRUE", true);
	expect_bool("false IS TRUE", false);
	expect_bool("false IS NOT TRUE", true);
	expect_bool("1 IS TRUE", false);
	expect_bool("false is false", true);
	expect_bool("null IS NOT FALSE", true);
	expect_bool("1 IS NULL IS NULL", false);
	expect_int("CASE WHEN 1 = 1 THEN 10 ELSE 20 END", 10);
	expect_int("case when 1 > 2 then 1 else 2 end", 2);
	expect_int("case when false then 1 when true then 3 end", 3);
	expect_null("case when false then 1 end");
	expect_int("case when 0 then 1 when 2 then 5 else 6 end", 5);
	expect_null("case when null then 1 end");
	expect_int("(1 + 2) * 3", 9);
	expect_int("+5", 5);
	expect_int("- 5", -5);
	expect_int("--5", 5);
	expect_double("-2.5", -2.5, 0);

	/* precedence as in pgbench's grammar */
	expect_int("1 + 2 * 3", 7);
	expect_int("2 * 3 + 1", 7);
	expect_int("10 - 4 - 3", 3);
	expect_int("100 / 10 / 5", 2);
	expect_int("-2 * 3", -6);
	expect_int("1 + 2 | 4", 7);
	expect_int("1 | 2 + 4", 7);
	expect_int("~1 + 1", -3);	/* ~ binds looser than + */
	expect_int("~1 | 1", -1);
	expect_int("6 & 3 << 1", 4);	/* same level, left to right */
	expect_bool("1 + 1 = 2", true);
	expect_bool("1 = 1 AND 2 = 2", true);
	expect_bool("NOT 1 = 2", true);
	expect_bool("NOT true AND false", false);
	expect_bool("NOT false OR true", true);
	expect_bool("true OR false AND false", true);
	expect_bool("1 < 2 IS TRUE", true);
	expect_bool("2 = 2 ISNULL", false);
	expect_bool("NOT null IS NULL", false);

	/* variables */
	expect_int(":i", 7);
	expect_int(":i * 2", 14);
	expect_double(":d * 2", 5.0, 0);
	expect_bool(":b", true);
	expect_null(":n");
	expect_int(":big", INT64_MAX);
	expect_int(":scale * 100000", 1000000);
	expect_error(":s + 1", "malformed variable \"s\" value: \"abc\"");
	expect_error(":nosuchvar + 1", "undefined variable \"nosuchvar\"");

	/* NULL propagation and lazy evaluation */
	expect_null("null + 1");
	expect_null("1 * :n");
	expect_null("abs(null)");
	expect_null("random(1, null)");
	expect_null("null AND true");
	expect_null("true AND null");
	expect_bool("false AND null", false);
	expect_bool("true OR null", true);
	expect_null("null OR true");
	expect_null("NOT null");
	expect_null("least(1, null, 3)");
	expect_bool("false AND 1 / 0 = 1", false);
	expect_bool("true OR 1 / 0 = 1", true);
	expect_int("case when true then 1 else 1 / 0 end", 1);
	expect_int("case when false then 1 / 0 else 2 end", 2);

	/* integer limits and errors */
	expect_int("-9223372036854775808", INT64_MIN);
	expect_int("- 9223372036854775808", INT64_MIN);
	expect_int("9223372036854775807", INT64_MAX);
	expect_error("9223372036854775807 + 1", "bigint add out of range");
	expect_error("-9223372036854775808 - 1", "bigint sub out of range");
	expect_error("-(-9223372036854775808)", "bigint sub out of range");
	expect_error("9223372036854775807 * 2", "bigint mul out of range");
	expect_error("4611686018427387904 * -4", "bigint mul out of range");
	expect_error("1 / 0", "division by zero");
	expect_error("1 % 0", "division by zero");
	expect_error("-9223372036854775808 / -1", "bigint div out of range");
	expect_int("-9223372036854775808 % -1", 0);
	expect_int("7 / -1", -7);
	expect_bool("1.0 / 0 = 1.0 / 0", true);
	expect_bool("-1.0 / 0 < -1e308", true);
	expect_error("9223372036854775808", "syntax error");
	expect_error("9223372036854775809", "bigint constant overflow (9223372036854775809)");
	expect_error("1e400", "double constant overflow (1e400)");
	expect_error("int(1e30)", "double to int overflow for");
	expect_error("int(sqrt(-1))", "double to int overflow for");
	expect_error("true + 1", "cannot coerce boolean to int");
	expect_error("true + 1.5", "cannot coerce boolean to double");
	expect_error("1 AND true", "cannot coerce int to boolean");
	expect_error("NOT 1", "cannot coerce int to boolean");
	expect_error("true | 1", "cannot coerce boolean to int");
	expect_error("least(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17)",
				 "too many function arguments, maximum is 16");
	expect_int("least(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16)", 1);

	/* syntax errors */
	expect_error("1 +", "syntax error in command \"set\"");
	expect_error("1 = 2 = 3", "syntax error");
	expect_error("1 < 2 > 3", "syntax error");
	expect_error("foo(1)", "unexpected function name (foo)");
	expect_error("abc", "unexpected function name (abc)");
	expect_error("random(1)", "unexpected number of arguments (random)");
	expect_error("pi(1)", "unexpected number of arguments (pi)");
	expect_error("least()", "at least one argument expected (least)");
	expect_error("hash()", "unexpected number of arguments (hash)");
	expect_error("hash(1, 2, 3)", "unexpected number of arguments (hash)");
	expect_error("permute(1)", "unexpected number of arguments (permute)");
	expect_error("permute(1, 2, 3, 4)", "unexpected number of arguments (permute)");
	expect_error("1 $ 2", "unexpected character ($)");
	expect_error("(1 + 2", "syntax error");
	expect_error("1 + 2)", "syntax error");
	expect_error("case 1 end", "syntax error");
	expect_error("case when 1 then 2", "syntax error");
	expect_error("1 is 2", "syntax error");
	expect_error("1 2", "syntax error");
	expect_error("random 1", "syntax error");
	expect_error("", "syntax error");
	{
		char		deep[5000];
		int			k;

		/* too deep for the evaluator's stack: refused at parse time */
		strcpy(deep, "1");
		for (k = 0; k < 1200; k++)
			strcat(deep, "+1");
		expect_error(deep, "expression is too deeply nested");
		memset(deep, '(', 1500);
		strcpy(deep + 1500, "1");
		expect_error(deep, "expression is too deeply nested");
		strcpy(deep, "1");
		for (k = 0; k < 500; k++)
			strcat(deep, "+1");
		expect_int(deep, 501);
		/* more than 256 words is fine in an expression */
		strcpy(deep, "1");
		for (k = 0; k < 300; k++)
			strcat(deep, " + 1");
		expect_int(deep, 301);
	}
}

/* Every function, with the values of pgbench's documentation. */
static void
test_functions(void)
{
	PbValue		v;
	PbError		err;
	int			k;

	/* the examples of pgbench's documentation */
	expect_int("abs(-17)", 17);
	expect_double("abs(-17.5)", 17.5, 0);
	expect_int("abs(-9223372036854775808)", INT64_MIN);
	expect_double("debug(5.432)", 5.432, 0);
	expect_double("double(5432)", 5432.0, 0);
	expect_double("exp(1.0)", 2.718281828459045, 1e-15);
	expect_int("greatest(5, 4, 3, 2)", 5);
	expect_double("greatest(5, 4.5)", 5.0, 0);
	expect_int("hash(10, 5432)", -5817877081768721676LL);
	expect_int("hash_fnv1a(10, 5432)", -7793829335365542153LL);
	expect_int("hash_murmur2(10, 5432)", -5817877081768721676LL);
	expect_int("int(5.4 + 3.8)", 9);
	expect_int("int(2.5)", 2);	/* rint: to even */
	expect_int("int(-3.5)", -4);
	expect_double("least(5, 4, 3, 2.1)", 2.1, 0);
	expect_int("least(5, 4, 3, 2)", 2);
	expect_double("ln(2.718281828459045)", 1.0, 1e-15);
	expect_int("mod(54, 32)", 22);
	expect_double("pi()", 3.14159265358979323846, 0);
	expect_double("pow(2.0, 10)", 1024.0, 0);
	expect_double("power(2.0, 10)", 1024.0, 0);
	expect_double("sqrt(2.0)", 1.4142135623730951, 1e-15);
	expect_double("PI() * 2", 6.283185307179586, 1e-15);
	expect_int("Random(5, 5)", 5);

	/* default seed of hash() and permute() is the client's random_seed */
	expect_int("hash(10)", pb_hash_murmur2(10, 5432));
	expect_int("hash_fnv1a(10)", pb_hash_fnv1a(10, 5432));
	expect_int("permute(3, 10)", pb_permute(3, 10, 5432));

	/* random functions: bounds and pgbench's messages */
	expect_error("random(10, 1)", "empty range given to random");
	expect_error("random(-9223372036854775808, 9223372036854775807)",
				 "random range is too large");
	expect_error("random(0, 9223372036854775807)", "random range is too large");
	expect_error("random_gaussian(1, 10, 1.5)",
				 "gaussian parameter must be at least 2.000000 (not 1.500000)");
	expect_error("random_zipfian(1, 10, 0.5)",
				 "zipfian parameter must be in range [1.001, 1000] (not 0.500000)");
	expect_error("random_zipfian(1, 10, 1001)",
				 "zipfian parameter must be in range [1.001, 1000] (not 1001.000000)");
	expect_error("random_exponential(1, 10, 0)",
				 "exponential parameter must be greater than zero (not 0.000000)");
	expect_error("random_gaussian(1, 10, sqrt(-1))", "gaussian parameter must be at least");
	expect_error("random_gaussian(10, 1, 5)", "empty range given to random");
	expect_error("permute(1, 0)", "permute size parameter must be greater than zero");
	expect_error("permute(1, -5, 3)", "permute size parameter must be greater than zero");
	expect_int("permute(5, 1)", 0);
	expect_error("random(true, 2)", "cannot coerce boolean to int");

	for (k = 0; k < 50; k++)
	{
		char		e[128];

		snprintf(e, sizeof(e), "random(-3, 3) + 0 * %d", k);
		if (eval_expr(e, &v, &err))
			check(v.type == PB_VAL_INT && v.u.ival >= -3 && v.u.ival <= 3,
				  "random(-3, 3) out of range: %lld", (long long) v.u.ival);
	}
	check(eval_expr("random(-4611686018427387904, 4611686018427387902)", &v, &err),
		  "widest random range must work: %s", err.message);
	expect_error("random(-4611686018427387904, 4611686018427387903)",
				 "random range is too large");
	check(eval_expr("random_exponential(1, 9223372036854775806, 0.001)", &v, &err) &&
		  v.u.ival >= 1, "wide exponential must work");
	check(eval_expr("random_gaussian(-4611686018427387904, 4611686018427387902, 2.0)", &v, &err),
		  "wide gaussian must work");
	check(eval_expr("random_zipfian(1, 9223372036854775807, 1.001)", &v, &err) &&
		  v.u.ival >= 1, "wide zipfian must work");
	expect_int("random_zipfian(7, 7, 2.0)", 7);
	expect_int("random_gaussian(7, 7, 2.0)", 7);
	expect_int("random_exponential(7, 7, 2.0)", 7);
}

/* ---- tests: variables ---------------------------------------------------- */

/* A string value must parse to this typed value. */
static void
expect_var_value(const char *svalue, PbValueType type, int64_t ival,
				 double dval)
{
	PbScriptSet *set = pb_scriptset_create();
	int			id = pb_var_id(set, "v", true);
	PbClientState *client = pb_client_create(set, 1, 1);
	PbValue		v;
	PbError		err;

	pb_var_set_string(client, id, svalue, &err);
	if (!pb_var_get_value(client, set, id, &v, &err))
		check(false, "value \"%s\": unexpected error %s", svalue, err.message);
	else
		check(v.type == type &&
			  (type != PB_VAL_INT || v.u.ival == ival) &&
			  (type != PB_VAL_BOOL || v.u.bval == (ival != 0)) &&
			  (type != PB_VAL_DOUBLE || v.u.dval == dval),
			  "value \"%s\": got type %d", svalue, v.type);
	pb_client_free(client);
	pb_scriptset_free(set);
}

/* A string value must fail to parse with this message. */
static void
expect_var_error(const char *svalue, const char *msg)
{
	PbScriptSet *set = pb_scriptset_create();
	int			id = pb_var_id(set, "v", true);
	PbClientState *client = pb_client_create(set, 1, 1);
	PbValue		v;
	PbError		err;

	pb_var_set_string(client, id, svalue, &err);
	if (pb_var_get_value(client, set, id, &v, &err))
		check(false, "value \"%s\": want error %s", svalue, msg);
	else
		check(strstr(err.message, msg) != NULL, "value \"%s\": want \"%s\", got \"%s\"",
			  svalue, msg, err.message);
	pb_client_free(client);
	pb_scriptset_free(set);
}

/* A typed value must be formatted as pgbench sends it. */
static void
expect_string(const PbValue *value, const char *want)
{
	PbScriptSet *set = pb_scriptset_create();
	int			id = pb_var_id(set, "v", true);
	PbClientState *client = pb_client_create(set, 1, 1);
	char		buf[64];
	const char *s;

	pb_var_set_value(client, id, value);
	s = pb_var_get_string(client, id, buf, sizeof(buf));
	check(s != NULL && strcmp(s, want) == 0, "format: want \"%s\", got \"%s\"",
		  want, s ? s : "(null)");
	s = pb_var_get_string_ref(client, id, buf, sizeof(buf));
	check(s != NULL && strcmp(s, want) == 0, "format ref: want \"%s\", got \"%s\"",
		  want, s ? s : "(null)");
	pb_client_free(client);
	pb_scriptset_free(set);
}

/* Variable values: parsing, formatting, unset and late variables. */
static void
test_variables(void)
{
	PbValue		v;
	PbScriptSet *set;
	PbClientState *client;
	int			id;
	char		buf[64];
	PbError		err;

	expect_var_value("12", PB_VAL_INT, 12, 0);
	expect_var_value("-12", PB_VAL_INT, -12, 0);
	expect_var_value(" 12", PB_VAL_INT, 12, 0);
	expect_var_value("+3", PB_VAL_INT, 3, 0);
	expect_var_value("9223372036854775807", PB_VAL_INT, INT64_MAX, 0);
	expect_var_value("1.5", PB_VAL_DOUBLE, 0, 1.5);
	expect_var_value("1e3", PB_VAL_DOUBLE, 0, 1000.0);
	expect_var_value("-.5", PB_VAL_DOUBLE, 0, -0.5);
	expect_var_value("true", PB_VAL_BOOL, 1, 0);
	expect_var_value("TRUE", PB_VAL_BOOL, 1, 0);
	expect_var_value("t", PB_VAL_BOOL, 1, 0);
	expect_var_value("yes", PB_VAL_BOOL, 1, 0);
	expect_var_value("y", PB_VAL_BOOL, 1, 0);
	expect_var_value("on", PB_VAL_BOOL, 1, 0);
	expect_var_value("false", PB_VAL_BOOL, 0, 0);
	expect_var_value("fal", PB_VAL_BOOL, 0, 0);
	expect_var_value("no", PB_VAL_BOOL, 0, 0);
	expect_var_value("n", PB_VAL_BOOL, 0, 0);
	expect_var_value("off", PB_VAL_BOOL, 0, 0);
	expect_var_value("of", PB_VAL_BOOL, 0, 0);
	expect_var_value("null", PB_VAL_NULL, 0, 0);
	expect_var_value("NULL", PB_VAL_NULL, 0, 0);
	expect_var_error("abc", "malformed variable \"v\" value: \"abc\"");
	expect_var_error("o", "malformed variable");
	expect_var_error("truex", "malformed variable");
	expect_var_error("", "malformed variable \"v\" value: \"\"");
	expect_var_error("1.5 ", "malformed variable");
	expect_var_error("99999999999999999999",
					 "value \"99999999999999999999\" is out of range for type bigint");
	expect_var_error("+", "invalid input syntax for type bigint: \"+\"");

	v.type = PB_VAL_INT;
	v.u.ival = 42;
	expect_string(&v, "42");
	v.u.ival = INT64_MIN;
	expect_string(&v, "-9223372036854775808");
	v.type = PB_VAL_DOUBLE;
	v.u.dval = 0.1;
	expect_string(&v, "0.1");
	v.u.dval = 1.0 / 3.0;
	expect_string(&v, "0.333333333333333");
	v.u.dval = 1e20;
	expect_string(&v, "1e+20");
	v.u.dval = 2.0;
	expect_string(&v, "2");
	v.type = PB_VAL_BOOL;
	v.u.bval = true;
	expect_string(&v, "true");
	v.u.bval = false;
	expect_string(&v, "false");
	v.type = PB_VAL_NULL;
	expect_string(&v, "");

	/* unset, set, reset, strings kept verbatim */
	set = pb_scriptset_create();
	id = pb_var_id(set, "x", true);
	check(pb_var_id(set, "x", true) == id && pb_var_id(set, "x", false) == id,
		  "var ids are stable");
	check(pb_var_id(set, "y", false) == -1, "absent var without create is -1");
	client = pb_client_create(set, 1, 1);
	check(pb_var_get_string(client, id, buf, sizeof(buf)) == NULL, "unset var has no string");
	check(!pb_var_get_value(client, set, id, &v, &err) &&
		  strcmp(err.message, "undefined variable \"x\"") == 0,
		  "unset var: %s", err.message);
	pb_var_set_string(client, id, "0042", &err);
	check(strcmp(pb_var_get_string(client, id, buf, sizeof(buf)), "0042") == 0,
		  "string kept verbatim");
	check(pb_var_get_value(client, set, id, &v, &err) && v.type == PB_VAL_INT &&
		  v.u.ival == 42, "string parsed");
	check(strcmp(pb_var_get_string(client, id, buf, sizeof(buf)), "0042") == 0,
		  "string kept after parsing");
	pb_var_set_string(client, id, "a long string value", &err);
	check(strcmp(pb_var_get_string(client, id, buf, 5), "a lo") == 0, "truncated copy");
	check(strcmp(pb_var_get_string_ref(client, id, buf, 5), "a long string value") == 0,
		  "ref returns the whole string");

	/* a variable created after the client, as a \gset column would be */
	id = pb_var_id(set, "late", true);
	check(pb_var_get_string(client, id, buf, sizeof(buf)) == NULL, "late var unset");
	check(pb_var_set_string(client, id, "5", &err), "late var can be set");
	check(pb_var_get_value(client, set, id, &v, &err) && v.u.ival == 5, "late var value");
	pb_client_free(client);
	pb_scriptset_free(set);
}

/* ---- tests: script splitting and SQL ------------------------------------- */

/* Splitting SQL commands as psql's lexer does. */
static void
test_sql_splitting(void)
{
	PbScriptSet *set;
	const PbScript *s;

	set = parse_ok("SELECT 1; SELECT 2;\nSELECT\n  3\n;\n");
	if (set)
	{
		s = &set->scripts[0];
		check(s->ncommands == 3, "3 commands, got %d", s->ncommands);
		check(strcmp(s->commands[0].text, "SELECT 1;") == 0, "text 0: %s", s->commands[0].text);
		check(strcmp(s->commands[1].text, "SELECT 2;") == 0, "text 1: %s", s->commands[1].text);
		check(strcmp(s->commands[2].text, "SELECT\n  3\n;") == 0, "text 2: %s", s->commands[2].text);
		check(s->commands[0].line == 1 && s->commands[1].line == 1 &&
			  s->commands[2].line == 2, "sql lines");
		check(s->commands[2].kind == PB_CMD_SQL && s->commands[2].nparams == 0,
			  "plain sql");
		pb_scriptset_free(set);
	}


	/* semicolons inside quotes, identifiers, dollar quotes, comments */
	set = parse_ok("SELECT 'a;b''c;';\nSELECT \"x;\"\"y\";\nSELECT $$;$$, $f$ ; $$ ; $f$;\n"
				   "SELECT E'\\';' ;\nSELECT 1 /* ; /* ; */ ; */ + 1;\n"
				   "SELECT 2 -- ; comment\n + 2;\n");
	if (set)
	{
		s = &set->scripts[0];
		check(s->ncommands == 6, "quoted semicolons: 6 commands, got %d", s->ncommands);
		if (s->ncommands == 6)
		{
			check(strcmp(s->commands[3].text, "SELECT E'\\';' ;") == 0,
				  "E string: %s", s->commands[3].text);
			check(strcmp(s->commands[5].text, "SELECT 2 -- ; comment\n + 2;") == 0,
				  "dash comment kept inside: %s", s->commands[5].text);
			check(s->commands[5].line == 6, "line after comments: %d", s->commands[5].line);
		}
		pb_scriptset_free(set);
	}

	/* parentheses, BEGIN ATOMIC bodies, \; */
	set = parse_ok("SELECT (1;2);\n"
				   "CREATE FUNCTION f() RETURNS int LANGUAGE sql\nBEGIN ATOMIC\n SELECT 1;\n SELECT CASE WHEN true THEN 2 END;\nEND;\n"
				   "CREATE OR REPLACE PROCEDURE p() BEGIN ATOMIC SELECT 1; END;\n"
				   "SELECT 1 \\; SELECT 2;\n"
				   "SELECT 'x' \\: 'y';\n");
	if (set)
	{
		s = &set->scripts[0];
		check(s->ncommands == 5, "parens/atomic: 5 commands, got %d", s->ncommands);
		if (s->ncommands == 5)
		{
			check(s->commands[1].line == 2, "function line %d", s->commands[1].line);
			check(strcmp(s->commands[3].text, "SELECT 1 ; SELECT 2;") == 0,
				  "backslash-semicolon: %s", s->commands[3].text);
			check(strcmp(s->commands[4].sql, "SELECT 'x' : 'y';") == 0,
				  "backslash-colon: %s", s->commands[4].sql);
		}
		pb_scriptset_free(set);
	}

	/* empty statements, leading comments, last command without ; */
	set = parse_ok(";;\n  -- only a comment\n;\n/* block */ ;\nSELECT 1\n");
	if (set)
	{
		s = &set->scripts[0];
		check(s->ncommands == 1 && strcmp(s->commands[0].text, "SELECT 1") == 0,
			  "empty statements skipped");
		check(s->commands[0].line == 5, "line of last: %d", s->commands[0].line);
		pb_scriptset_free(set);
	}
	expect_parse_error(";; -- nothing\n", 0, "empty command list for script \"test\"");
	expect_parse_error("", 0, "empty command list");
}

/* :name to $n substitution. */
static void
test_sql_variables(void)
{
	PbScriptSet *set;
	const PbCommand *c;

	set = parse_ok("SELECT :a, :b, :a, x::int, :c::text, ':d', \"e:f\", $$:g$$, "
				   "arr[1:2], :_u9 -- :h\n;");
	if (set)
	{
		c = &set->scripts[0].commands[0];
		check(strcmp(c->sql, "SELECT $1, $2, $1, x::int, $3::text, ':d', \"e:f\", $$:g$$, "
					 "arr[1:2], $4 -- :h\n;") == 0, "substituted: %s", c->sql);
		check(strcmp(c->text, "SELECT :a, :b, :a, x::int, :c::text, ':d', \"e:f\", $$:g$$, "
					 "arr[1:2], :_u9 -- :h\n;") == 0, "text as written: %s", c->text);
		check(c->nparams == 4, "4 params, got %d", c->nparams);
		if (c->nparams == 4)
		{
			check(strcmp(set->var_names[c->param_vars[0]], "a") == 0 &&
				  strcmp(set->var_names[c->param_vars[1]], "b") == 0 &&
				  strcmp(set->var_names[c->param_vars[2]], "c") == 0 &&
				  strcmp(set->var_names[c->param_vars[3]], "_u9") == 0,
				  "param var ids");
		}
		check(pb_var_id(set, "d", false) < 0 && pb_var_id(set, "g", false) < 0 &&
			  pb_var_id(set, "h", false) < 0, "quoted names are not variables");
		pb_scriptset_free(set);
	}

	set = parse_ok("UPDATE t SET a = :v WHERE k = :k;\nSELECT :k, :v;\n");
	if (set)
	{
		const PbCommand *c0 = &set->scripts[0].commands[0];
		const PbCommand *c1 = &set->scripts[0].commands[1];

		check(strcmp(c1->sql, "SELECT $1, $2;") == 0, "numbering per command: %s", c1->sql);
		check(c0->param_vars[0] == c1->param_vars[1] &&
			  c0->param_vars[1] == c1->param_vars[0], "ids shared across commands");
		pb_scriptset_free(set);
	}
}

/* The single SQL command of sql must be classified as want. */
static void
expect_txn(const char *sql, PbTxnControl want)
{
	PbScriptSet *set = parse_ok(sql);

	if (set)
	{
		check(set->scripts[0].commands[0].txn == want, "txn of %s: want %d got %d",
			  sql, want, set->scripts[0].commands[0].txn);
		pb_scriptset_free(set);
	}
}

/* Transaction control classification. */
static void
test_txn(void)
{
	expect_txn("BEGIN;", PB_TXN_BEGIN);
	expect_txn("begin isolation level serializable;", PB_TXN_BEGIN);
	expect_txn("Begin Work;", PB_TXN_BEGIN);
	expect_txn("START TRANSACTION;", PB_TXN_BEGIN);
	expect_txn("start  /* c */ transaction read only;", PB_TXN_BEGIN);
	expect_txn("/* c */ -- d\n begin;", PB_TXN_BEGIN);
	expect_txn("END;", PB_TXN_COMMIT);
	expect_txn("end", PB_TXN_COMMIT);
	expect_txn("COMMIT;", PB_TXN_COMMIT);
	expect_txn("commit and chain;", PB_TXN_COMMIT);
	expect_txn("ROLLBACK;", PB_TXN_ROLLBACK);
	expect_txn("abort;", PB_TXN_ROLLBACK);
	expect_txn("ROLLBACK TO SAVEPOINT s;", PB_TXN_NONE);
	expect_txn("rollback work to s;", PB_TXN_NONE);
	expect_txn("COMMIT PREPARED 'x';", PB_TXN_NONE);
	expect_txn("ROLLBACK PREPARED 'x';", PB_TXN_NONE);
	expect_txn("BEGINX;", PB_TXN_NONE);
	expect_txn("START;", PB_TXN_NONE);
	expect_txn("SELECT 1;", PB_TXN_NONE);
	expect_txn("ending;", PB_TXN_NONE);
}

/* ---- tests: meta-commands ------------------------------------------------ */

/* Every meta-command and its syntax errors. */
static void
test_meta_commands(void)
{
	PbScriptSet *set;
	PbClientState *client;
	const PbScript *s;
	PbError		err;
	int			next;
	int64_t		us;
	int			id;

	/* \set, with continuation lines and a case-insensitive name */
	set = parse_ok("\\set x 1 + \\\n  2 * 3\n\\SET y :x * 2\n");
	if (set)
	{
		s = &set->scripts[0];
		check(s->ncommands == 2 && s->commands[0].kind == PB_CMD_SET &&
			  s->commands[1].kind == PB_CMD_SET, "two \\set");
		check(s->commands[1].line == 3, "line after continuation: %d", s->commands[1].line);
		check(set->var_assigned[s->commands[0].set_var], "\\set target assigned");
		client = make_client(set, 1);
		check(pb_exec_meta(s, 0, client, set, &next, &us, &err) && next == 1 && us == 0,
			  "exec \\set");
		check(pb_exec_meta(s, 1, client, set, &next, &us, &err) && next == 2, "exec \\set 2");
		check(var_int(set, client, "x") == 7 && var_int(set, client, "y") == 14,
			  "\\set values");
		pb_client_free(client);
		pb_scriptset_free(set);
	}

	/* \sleep in every form */
	set = parse_ok("\\sleep 10\n\\sleep 10 ms\n\\sleep 5us\n\\sleep 2 s\n\\sleep :t ms\n"
				   "\\sleep -5\n\\sleep +3 US\n\\sleep :t\n");
	if (set)
	{
		static const int64_t want[] = {10000000, 10000, 5, 2000000, 7000, 0, 3, 7000000};
		int			k;

		s = &set->scripts[0];
		id = pb_var_id(set, "t", false);
		client = pb_client_create(set, 1, 1);
		pb_var_set_string(client, id, "7", &err);
		for (k = 0; k < 8; k++)
		{
			bool		ok = pb_exec_meta(s, k, client, set, &next, &us, &err);

			check(ok && us == want[k] && next == k + 1, "sleep %d: %lld us, want %lld (%s)",
				  k, (long long) us, (long long) want[k], ok ? "" : err.message);
		}
		pb_var_set_string(client, id, "abc", &err);
		check(!pb_exec_meta(s, 4, client, set, &next, &us, &err) &&
			  strcmp(err.message, "sleep: invalid sleep time \"abc\" for variable \"t\"") == 0 &&
			  err.line == 5, "bad sleep var: %s", err.message);
		pb_var_set_string(client, id, "2.9", &err);
		check(pb_exec_meta(s, 4, client, set, &next, &us, &err) && us == 2000,
			  "sleep var read as atoi");
		/* a variable's sleep time that overflows is an error */
		pb_var_set_string(client, id, "99999999999999999999", &err);
		check(!pb_exec_meta(s, 7, client, set, &next, &us, &err) &&
			  strstr(err.message, "out of range") != NULL,
			  "sleep var overflow: %s", err.message);
		pb_var_set_string(client, id, "9223372036854775", &err);
		check(!pb_exec_meta(s, 4, client, set, &next, &us, &err) &&
			  strcmp(err.message, "sleep: sleep time out of range") == 0,
			  "sleep var times unit overflow: %s", err.message);
		pb_var_set_string(client, id, "9223372036854", &err);
		check(pb_exec_meta(s, 4, client, set, &next, &us, &err) &&
			  us == INT64_C(9223372036854000),
			  "largest sleep var in ms: %lld", (long long) us);
		pb_client_free(client);
		client = pb_client_create(set, 1, 1);
		check(!pb_exec_meta(s, 4, client, set, &next, &us, &err) &&
			  strcmp(err.message, "sleep: undefined variable \"t\"") == 0,
			  "unset sleep var: %s", err.message);
		pb_client_free(client);
		pb_scriptset_free(set);
	}

	/* pipelines are no-ops */
	set = parse_ok("\\startpipeline\nSELECT 1;\n\\syncpipeline\n\\endpipeline\n");
	if (set)
	{
		s = &set->scripts[0];
		check(s->ncommands == 4 && s->commands[0].kind == PB_CMD_NOOP &&
			  s->commands[2].kind == PB_CMD_NOOP && s->commands[3].kind == PB_CMD_NOOP,
			  "pipelines are NOOP");
		client = pb_client_create(set, 1, 1);
		check(pb_exec_meta(s, 0, client, set, &next, &us, &err) && next == 1, "exec NOOP");
		check(!pb_exec_meta(s, 1, client, set, &next, &us, &err), "SQL is not a meta-command");
		pb_client_free(client);
		pb_scriptset_free(set);
	}

	/* \gset and \aset */
	set = parse_ok("SELECT 1 AS a \\gset p_\nSELECT 2 AS b;\n\\aset\nSELECT 3\n\\gset\n");
	if (set)
	{
		s = &set->scripts[0];
		check(s->ncommands == 3, "gset: 3 commands, got %d", s->ncommands);
		check(s->commands[0].result_target == PB_RESULT_GSET &&
			  strcmp(s->commands[0].result_prefix, "p_") == 0 &&
			  strcmp(s->commands[0].sql, "SELECT 1 AS a") == 0, "gset with prefix");
		check(s->commands[1].result_target == PB_RESULT_ASET &&
			  strcmp(s->commands[1].result_prefix, "") == 0, "aset after ;");
		check(s->commands[2].result_target == PB_RESULT_GSET, "gset on next line");
		check(set->has_result_targets, "has_result_targets");
		pb_scriptset_free(set);
	}
	set = parse_ok("SELECT 1;\n");
	if (set)
	{
		check(!set->has_result_targets &&
			  set->scripts[0].commands[0].result_target == PB_RESULT_NONE &&
			  strcmp(set->scripts[0].commands[0].result_prefix, "") == 0,
			  "no result target");
		pb_scriptset_free(set);
	}

	/* syntax errors of meta-commands, with lines */
	expect_parse_error("\\set\n", 1, "missing argument in command \"set\"");
	expect_parse_error("SELECT 1;\n\n\\set x 1 +\n", 3, "syntax error in command \"set\"");
	expect_parse_error("\\set x-y 1\n", 1, "invalid variable name (x-y)");
	expect_parse_error("\\set 1x 1\n", 1, "invalid variable name");
	expect_parse_error("\\sleep\n", 1, "missing argument in command \"sleep\"");
	expect_parse_error("\\sleep 1 ms 3\n", 1, "too many arguments in command \"sleep\"");
	expect_parse_error("\\sleep abc\n", 1, "invalid sleep time, must be an integer (abc)");
	expect_parse_error("\\sleep 1x 2\n", 1, "invalid sleep time, must be an integer");
	expect_parse_error("\\sleep 10 xs\n", 1, "unrecognized time unit, must be us, ms or s (xs)");
	expect_parse_error("\\sleep 10min\n", 1, "unrecognized time unit, must be us, ms or s (min)");
	/* overflow is an error, not a saturated or wrapped sleep */
	expect_parse_error("\\sleep 99999999999999999999 us\n", 1,
					   "sleep time out of range (99999999999999999999)");
	expect_parse_error("\\sleep 9223372036854775807 us\n", 1,
					   "sleep time out of range (9223372036854775807)");
	expect_parse_error("\\sleep 9223372037 s\n", 1, "sleep time out of range (9223372037)");
	expect_parse_error("\\sleep -9223372037 s\n", 1, "sleep time out of range (-9223372037)");
	set = parse_ok("\\sleep 9223372036854775 us\n\\sleep 9223372036 s\n");
	check(set != NULL, "the largest sleeps parse");
	pb_scriptset_free(set);
	expect_parse_error("\\else foo\n", 1, "unexpected argument in command \"else\"");
	expect_parse_error("\\endif x\n", 1, "unexpected argument");
	expect_parse_error("\\startpipeline 1\n", 1, "unexpected argument");
	{
		static char many[2048];
		int			k;

		strcpy(many, "\\sleep");
		for (k = 0; k < 300; k++)
			strcat(many, " 1");
		expect_parse_error(many, 1, "too many arguments in command \"sleep\"");
	}
	expect_parse_error("\\foo\n", 1, "invalid command in command \"foo\"");
	expect_parse_error("SELECT 1;\n\\Gsetx\n", 2, "invalid command");
	expect_parse_error("\\gset\n", 1, "\\gset must follow an SQL command");
	expect_parse_error("\\set x 1\n\\gset\n", 2, "\\gset must follow an SQL command");
	expect_parse_error("SELECT 1 \\gset\n\\aset\n", 2, "\\gset must follow an SQL command");
	expect_parse_error("SELECT 1 \\gset a b\n", 1, "too many arguments");
	expect_parse_error("\\shell ls\n", 1, "shell commands are not supported inside the server");
	expect_parse_error("SELECT 1;\n\\setshell x echo 1\n", 2, "not supported inside the server");
	expect_parse_error("\\set x foo(1)\n", 1, "unexpected function name (foo)");
	expect_parse_error("\\if\n\\endif\n", 1, "syntax error");

	/* examples of pgbench's documentation */
	set = parse_ok("\\set aid (1021 * random(1, 100000 * :scale)) % \\\n"
				   "           (100000 * :scale) + 1\n"
				   "\\set divx CASE WHEN :x <> 0 THEN :y/:x ELSE NULL END\n"
				   "-- compound of two queries\n"
				   "SELECT 1 \\;\n"
				   "SELECT 2 AS two, 3 AS three \\gset p_\n");
	if (set)
	{
		s = &set->scripts[0];
		check(s->ncommands == 3, "doc example: 3 commands, got %d", s->ncommands);
		check(s->commands[2].kind == PB_CMD_SQL && s->commands[2].line == 5 &&
			  s->commands[2].result_target == PB_RESULT_GSET &&
			  strcmp(s->commands[2].sql, "SELECT 1 ;\nSELECT 2 AS two, 3 AS three") == 0,
			  "compound query with \\gset: %s", s->commands[2].sql);
		client = make_client(set, 1);
		pb_var_set_string(client, pb_var_id(set, "x", false), "4", &err);
		pb_var_set_string(client, pb_var_id(set, "y", false), "10", &err);
		check(pb_exec_meta(s, 0, client, set, &next, &us, &err) &&
			  var_int(set, client, "aid") >= 1 && var_int(set, client, "aid") <= 1000000,
			  "doc aid");
		check(pb_exec_meta(s, 1, client, set, &next, &us, &err) &&
			  var_int(set, client, "divx") == 2, "doc divx");
		pb_var_set_string(client, pb_var_id(set, "x", false), "0", &err);
		check(pb_exec_meta(s, 1, client, set, &next, &us, &err), "doc divx null");
		{
			PbValue		nv;

			check(pb_var_get_value(client, set, pb_var_id(set, "divx", false), &nv, &err) &&
				  nv.type == PB_VAL_NULL, "doc divx is null");
		}
		pb_client_free(client);
		pb_scriptset_free(set);
	}

	/* the detail shows the line and where the error is, as pgbench */
	{
		PbScriptSet *eset = pb_scriptset_create();

		check(!pb_script_parse(eset, "e", "SELECT 1;\n\\set x 1 +\n", 1, &err) &&
			  strcmp(err.message, "syntax error in command \"set\"") == 0 &&
			  strcmp(err.detail, "\\set x 1 +\n          ^ error found here") == 0 &&
			  err.line == 2, "syntax error detail: [%s] [%s]", err.message, err.detail);
		check(!pb_script_parse(eset, "e", "\\set x 2 * foo(3)\n", 1, &err) &&
			  strcmp(err.message, "unexpected function name (foo) in command \"set\"") == 0 &&
			  strcmp(err.detail, "\\set x 2 * foo(3)\n             ^ error found here") == 0,
			  "function error detail: [%s] [%s]", err.message, err.detail);
		check(!pb_script_parse(eset, "e", "\\sleep 10 xs\n", 1, &err) &&
			  strcmp(err.message, "unrecognized time unit, must be us, ms or s (xs) in command \"sleep\"") == 0 &&
			  strcmp(err.detail, "\\sleep 10 xs\n          ^ error found here") == 0,
			  "sleep error detail: [%s] [%s]", err.message, err.detail);
		check(!pb_script_parse(eset, "e", "\\set i ;\n", 1, &err) &&
			  strcmp(err.message, "unexpected character (;) in command \"set\"") == 0,
			  "unexpected char: %s", err.message);
		pb_scriptset_free(eset);
	}

	/* pgbench's own \gset and \aset tests: the last query of a compound */
	set = parse_ok("SELECT \\gset\n"
				   "\\; \\; SELECT 0 AS i5 \\; SELECT 5 AS i5 \\; \\; \\gset\n"
				   "\\; SELECT 6 AS i6 \\; SELECT 7 AS i7 \\; \\aset\n"
				   "\\;\n");
	if (set)
	{
		s = &set->scripts[0];
		check(s->ncommands == 3 && strcmp(s->commands[0].sql, "SELECT") == 0 &&
			  s->commands[1].result_target == PB_RESULT_GSET &&
			  strcmp(s->commands[1].sql, "; ; SELECT 0 AS i5 ; SELECT 5 AS i5 ; ;") == 0 &&
			  s->commands[2].result_target == PB_RESULT_ASET,
			  "compound gset/aset: %d commands", s->ncommands);
		pb_scriptset_free(set);
	}

	/* a lone backslash is ignored, as in pgbench */
	set = parse_ok("SELECT 1;\n\\\n");
	if (set)
	{
		check(set->scripts[0].ncommands == 1, "lone backslash ignored");
		pb_scriptset_free(set);
	}
}

/* ---- tests: conditionals ------------------------------------------------- */

/* Run the script with :a and :b set and check the resulting :r. */
static void
run_if(PbScriptSet *set, const char *a, const char *b, int64_t want)
{
	PbClientState *client = pb_client_create(set, 1, 1);
	PbError		err;
	int			nsql;
	int64_t		slept;

	pb_var_set_string(client, pb_var_id(set, "a", false), a, &err);
	pb_var_set_string(client, pb_var_id(set, "b", false), b, &err);
	if (!run_script(set, 0, client, &nsql, &slept, &err))
		check(false, "if a=%s b=%s: %s", a, b, err.message);
	else
		check(var_int(set, client, "r") == want, "if a=%s b=%s: r=%lld want %lld",
			  a, b, (long long) var_int(set, client, "r"), (long long) want);
	pb_client_free(client);
}

/* \if, \elif, \else, \endif: targets, execution and errors. */
static void
test_conditionals(void)
{
	PbScriptSet *set;
	const PbScript *s;

	set = parse_ok("\\if :a\n"		/* 0 */
				   "\\set r 1\n"	/* 1 */
				   "\\elif :b\n"	/* 2 */
				   "\\set r 2\n"	/* 3 */
				   "\\else\n"		/* 4 */
				   "\\set r 3\n"	/* 5 */
				   "\\endif\n");	/* 6 */
	if (set)
	{
		s = &set->scripts[0];
		check(s->commands[0].false_target == 2 && s->commands[2].false_target == 5 &&
			  s->commands[2].endif_target == 6 && s->commands[4].endif_target == 6 &&
			  s->commands[0].endif_target == 6, "if targets");
		run_if(set, "1", "0", 1);
		run_if(set, "true", "true", 1);
		run_if(set, "0", "1", 2);
		run_if(set, "null", "2.5", 2);
		run_if(set, "0", "0", 3);
		run_if(set, "false", "null", 3);
		pb_scriptset_free(set);
	}

	/* nesting, elif chains, if without else */
	set = parse_ok("\\set r 0\n"
				   "\\if :a = 1\n"
				   "  \\if :b = 1\n"
				   "    \\set r 11\n"
				   "  \\elif :b = 2\n"
				   "    \\set r 12\n"
				   "  \\elif :b = 3\n"
				   "    \\set r 13\n"
				   "  \\endif\n"
				   "\\elif :a = 2\n"
				   "  \\if :b = 1\n"
				   "    \\set r 21\n"
				   "  \\else\n"
				   "    \\set r 22\n"
				   "  \\endif\n"
				   "\\endif\n"
				   "\\if :a = 3\n"
				   "\\set r 30 + :r\n"
				   "\\endif\n");
	if (set)
	{
		run_if(set, "1", "1", 11);
		run_if(set, "1", "2", 12);
		run_if(set, "1", "3", 13);
		run_if(set, "1", "4", 0);
		run_if(set, "2", "1", 21);
		run_if(set, "2", "9", 22);
		run_if(set, "3", "1", 30);
		run_if(set, "4", "1", 0);
		pb_scriptset_free(set);
	}

	/* an error while evaluating an \elif names that \elif */
	set = parse_ok("\\if false\n\\elif 1/0\n\\endif\n");
	if (set)
	{
		PbClientState *client = pb_client_create(set, 1, 1);
		PbError		err;
		int			next;
		int64_t		us;

		check(!pb_exec_meta(&set->scripts[0], 0, client, set, &next, &us, &err) &&
			  strcmp(err.message, "division by zero") == 0 && err.line == 2 &&
			  strcmp(err.detail, "\\elif 1/0") == 0, "elif error located: %d %s",
			  err.line, err.detail);
		pb_client_free(client);
		pb_scriptset_free(set);
	}

	expect_parse_error("\\if true\nSELECT 1;\n", 1, "\\if without matching \\endif");
	expect_parse_error("\\if 1\n\\endif\n\\if 2\n\\if 3\n\\endif\n", 3, "\\if without matching \\endif");
	expect_parse_error("SELECT 1;\n\\endif\n", 2, "\\endif without matching \\if");
	expect_parse_error("\\else\n", 1, "\\else without matching \\if");
	expect_parse_error("\\elif 1\n", 1, "\\elif without matching \\if");
	expect_parse_error("\\if 1\n\\else\n\\else\n\\endif\n", 3, "\\else after \\else");
	expect_parse_error("\\if 1\n\\else\n\\elif 2\n\\endif\n", 3, "\\elif after \\else");
}

/* ---- tests: variables check ---------------------------------------------- */

/* The static check of variables that nothing sets. */
static void
test_check_vars(void)
{
	PbScriptSet *set;
	PbError		err;

	set = parse_ok("\\set a :b + 1\nSELECT :a;\n");
	if (set)
	{
		check(!pb_scriptset_check_vars(set, &err) &&
			  strcmp(err.message, "undefined variable \"b\"") == 0 && err.line == 1,
			  "undefined b: %s line %d", err.message, err.line);
		pb_var_mark_assigned(set, pb_var_id(set, "b", true));
		check(pb_scriptset_check_vars(set, &err), "b defined outside");
		pb_scriptset_free(set);
	}

	set = parse_ok("SELECT 1;\n\\sleep :t\n");
	if (set)
	{
		check(!pb_scriptset_check_vars(set, &err) && err.line == 2 &&
			  strstr(err.message, "\"t\"") != NULL, "sleep var checked");
		pb_scriptset_free(set);
	}

	set = parse_ok("SELECT 1 AS a \\gset p_\nSELECT :p_a;\nSELECT :q;\n");
	if (set)
	{
		check(!pb_scriptset_check_vars(set, &err) &&
			  strcmp(err.message, "undefined variable \"q\"") == 0 && err.line == 3,
			  "gset prefix only covers its names: %s", err.message);
		pb_scriptset_free(set);
	}

	set = parse_ok("SELECT 1 AS a \\gset\nSELECT :anything;\n\\set x :other\n");
	if (set)
	{
		check(pb_scriptset_check_vars(set, &err), "gset without prefix covers all");
		pb_scriptset_free(set);
	}

	/* \set in another script of the set counts */
	set = parse_ok("SELECT :shared;\n");
	if (set)
	{
		check(pb_script_parse(set, "second", "\\set shared 1\n", 2, &err),
			  "second script parses");
		check(pb_scriptset_check_vars(set, &err), "assigned in another script");
		check(set->nscripts == 2 && set->total_weight == 3 &&
			  strcmp(set->scripts[1].name, "second") == 0 &&
			  strcmp(set->scripts[0].name, "test") == 0, "two scripts");
		check(!pb_script_parse(set, NULL, "\\set zz 1\n\\endif\n", 1, &err) &&
			  set->nscripts == 2 && pb_var_id(set, "zz", false) < 0,
			  "failed parse leaves the set alone");
		check(pb_script_parse(set, NULL, "\\set w 1\n", 1, &err) &&
			  strcmp(set->scripts[2].name, "script 2") == 0, "default script name");
		check(!pb_script_parse(set, NULL, "SELECT 1;", -1, &err) &&
			  strstr(err.message, "weight specification out of range") != NULL,
			  "negative weight");
		pb_scriptset_free(set);
	}
}

/* ---- tests: PolarDB's scripts -------------------------------------------- */

static const char *ro_sql =
"\\set aid random_gaussian(1, :range, 10.0)\n"
"SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n";

static const char *rw_sql =
"\\set aid random_gaussian(1, :range, 10.0)\n"
"\\set bid random(1, 1 * :scale)\n"
"\\set tid random(1, 10 * :scale)\n"
"\\set delta random(-5000, 5000)\n"
"BEGIN;\n"
"UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n"
"SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
"UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;\n"
"UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;\n"
"INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);\n"
"END;\n";

/* PolarDB's ro.sql and rw.sql, as the white paper gives them. */
static void
test_polardb_scripts(void)
{
	PbScriptSet *set;
	PbError		err;

	/* PolarDB's ro.sql */
	set = parse_ok(ro_sql);
	if (set)
	{
		const PbScript *s = &set->scripts[0];

		check(s->ncommands == 2 && s->commands[0].kind == PB_CMD_SET &&
			  s->commands[1].kind == PB_CMD_SQL, "ro.sql commands");
		check(strcmp(s->commands[1].sql,
					 "SELECT abalance FROM pgbench_accounts WHERE aid = $1;") == 0,
			  "ro.sql sql: %s", s->commands[1].sql);
		check(!pb_scriptset_check_vars(set, &err) &&
			  strcmp(err.message, "undefined variable \"range\"") == 0 && err.line == 1,
			  "ro.sql needs range");
		pb_scriptset_free(set);
	}

	/* PolarDB's rw.sql, run 1000 times */
	set = parse_ok(rw_sql);
	if (set)
	{
		const PbScript *s = &set->scripts[0];
		PbClientState *client;
		int			iter;
		bool		inrange = true;
		int			nsql;
		int64_t		slept;

		check(s->ncommands == 11, "rw.sql: 11 commands, got %d", s->ncommands);
		check(s->commands[4].txn == PB_TXN_BEGIN && s->commands[10].txn == PB_TXN_COMMIT &&
			  s->commands[5].txn == PB_TXN_NONE, "rw.sql transaction control");
		check(strcmp(s->commands[5].sql,
					 "UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2;") == 0,
			  "rw.sql update: %s", s->commands[5].sql);
		check(strcmp(s->commands[9].sql,
					 "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP);") == 0,
			  "rw.sql insert: %s", s->commands[9].sql);
		check(s->commands[9].nparams == 4 && s->commands[9].line == 10, "rw.sql insert params");
		pb_var_mark_assigned(set, pb_var_id(set, "scale", true));
		pb_var_mark_assigned(set, pb_var_id(set, "range", true));
		check(pb_scriptset_check_vars(set, &err), "rw.sql vars ok");
		client = make_client(set, 99);
		for (iter = 0; iter < 1000; iter++)
		{
			int64_t		aid,
						bid,
						tid,
						delta;

			if (!run_script(set, 0, client, &nsql, &slept, &err))
			{
				check(false, "rw.sql run: %s", err.message);
				break;
			}
			aid = var_int(set, client, "aid");
			bid = var_int(set, client, "bid");
			tid = var_int(set, client, "tid");
			delta = var_int(set, client, "delta");
			if (aid < 1 || aid > 1000 || bid < 1 || bid > 10 || tid < 1 ||
				tid > 100 || delta < -5000 || delta > 5000 || nsql != 7)
				inrange = false;
		}
		check(inrange, "rw.sql values in range");
		pb_client_free(client);
		pb_scriptset_free(set);
	}
}

/* ---- tests: random numbers and distributions ----------------------------- */

/* The generator against values derived from its definition. */
static void
test_prng(void)
{
	PbPrng		st;
	int			k;
	bool		ok = true;

	/* xoroshiro128** from its definition, on state {1, 2} */
	st.s0 = 1;
	st.s1 = 2;
	check(pb_prng_u64(&st) == 5760, "xoroshiro first output");
	check(pb_prng_u64(&st) == UINT64_C(97769243520), "xoroshiro second output");

	/* seeding is splitmix64, whose outputs for seed 0 are well known */
	pb_prng_seed(&st, 0);
	check(st.s0 == UINT64_C(0xE220A8397B1DCDAF) && st.s1 == UINT64_C(0x6E789E6AA1B965F4),
		  "splitmix64 seeding: %llx %llx", (unsigned long long) st.s0,
		  (unsigned long long) st.s1);

	pb_prng_seed(&st, 12345);
	for (k = 0; k < 100000; k++)
	{
		double		d = pb_prng_double(&st);

		if (d < 0.0 || d >= 1.0)
			ok = false;
	}
	check(ok, "doubles in [0, 1)");

	/* same seed, same stream */
	{
		PbPrng		a,
					b;

		pb_prng_seed(&a, 777);
		pb_prng_seed(&b, 777);
		ok = true;
		for (k = 0; k < 100; k++)
			if (pb_prng_u64(&a) != pb_prng_u64(&b))
				ok = false;
		check(ok, "deterministic stream");
	}
}

#define NDRAWS 1000000

/* Shape of the distributions over a million draws each. */
static void
test_distributions(void)
{
	PbPrng		st;
	int			k;
	static long counts[1001];
	double		sum,
				sum2,
				mean,
				sd;
	bool		inrange;

	/* uniform over [1, 100]: every value about 1% of draws */
	pb_prng_seed(&st, 1);
	memset(counts, 0, sizeof(counts));
	inrange = true;
	sum = 0;
	for (k = 0; k < NDRAWS; k++)
	{
		int64_t		v = pb_rand_uniform(&st, 1, 100);

		if (v < 1 || v > 100)
			inrange = false;
		else
			counts[v]++;
		sum += v;
	}
	check(inrange, "uniform in range");
	mean = sum / NDRAWS;
	check(fabs(mean - 50.5) < 0.1, "uniform mean %f", mean);
	{
		double		chi2 = 0;

		for (k = 1; k <= 100; k++)
			chi2 += (counts[k] - NDRAWS / 100.0) * (counts[k] - NDRAWS / 100.0) / (NDRAWS / 100.0);
		/* 99 degrees of freedom: 99 +- 14; 160 is far in the tail */
		check(chi2 < 160, "uniform chi-square %f", chi2);
	}

	/* gaussian over [1, 1000], parameter 10: mean 500.5, sd 1000/20 */
	pb_prng_seed(&st, 2);
	sum = sum2 = 0;
	inrange = true;
	for (k = 0; k < NDRAWS; k++)
	{
		int64_t		v = pb_rand_gaussian(&st, 1, 1000, 10.0);

		if (v < 1 || v > 1000)
			inrange = false;
		sum += v;
		sum2 += (double) v * v;
	}
	mean = sum / NDRAWS;
	sd = sqrt(sum2 / NDRAWS - mean * mean);
	check(inrange, "gaussian in range");
	check(fabs(mean - 500.5) < 0.5, "gaussian mean %f", mean);
	check(fabs(sd - 50.0) < 0.5, "gaussian sd %f", sd);

	/* gaussian with parameter 2: normal truncated at 2 sd, sd 0.8796 */
	pb_prng_seed(&st, 3);
	sum = sum2 = 0;
	for (k = 0; k < NDRAWS; k++)
	{
		int64_t		v = pb_rand_gaussian(&st, 1, 1000, 2.0);

		sum += v;
		sum2 += (double) v * v;
	}
	mean = sum / NDRAWS;
	sd = sqrt(sum2 / NDRAWS - mean * mean);
	check(fabs(mean - 500.5) < 1.0, "gaussian(2) mean %f", mean);
	check(fabs(sd - 1000 * 0.879626 / 4) < 1.0, "gaussian(2) sd %f", sd);

	/*
	 * exponential over [1, 1000], parameter 5: the first tenth of the
	 * range gets (1 - e^-0.5) / (1 - e^-5) of the draws, and the mean of
	 * the underlying [0, 1) value is 1/5 - e^-5 / (1 - e^-5).
	 */
	pb_prng_seed(&st, 4);
	sum = 0;
	{
		long		first_tenth = 0;
		double		want = (1 - exp(-0.5)) / (1 - exp(-5.0));
		double		want_mean = 1 + 1000 * (0.2 - exp(-5.0) / (1 - exp(-5.0))) - 0.5;

		inrange = true;
		for (k = 0; k < NDRAWS; k++)
		{
			int64_t		v = pb_rand_exponential(&st, 1, 1000, 5.0);

			if (v < 1 || v > 1000)
				inrange = false;
			if (v <= 100)
				first_tenth++;
			sum += v;
		}
		check(inrange, "exponential in range");
		check(fabs((double) first_tenth / NDRAWS - want) < 0.002,
			  "exponential first tenth %f want %f", (double) first_tenth / NDRAWS, want);
		check(fabs(sum / NDRAWS - want_mean) < 0.5, "exponential mean %f want %f",
			  sum / NDRAWS, want_mean);
	}

	/* zipfian over [1, 1000], s = 1.5: P(k) = k^-s / H(1000, s) */
	pb_prng_seed(&st, 5);
	memset(counts, 0, sizeof(counts));
	inrange = true;
	for (k = 0; k < NDRAWS; k++)
	{
		int64_t		v = pb_rand_zipfian(&st, 1, 1000, 1.5);

		if (v < 1 || v > 1000)
			inrange = false;
		else
			counts[v]++;
	}
	check(inrange, "zipfian in range");
	{
		double		h = 0;
		int			j;

		for (j = 1; j <= 1000; j++)
			h += pow(j, -1.5);
		for (j = 1; j <= 4; j++)
		{
			double		want = pow(j, -1.5) / h;
			double		got = (double) counts[j] / NDRAWS;

			check(fabs(got - want) < 0.003, "zipfian P(%d) = %f want %f", j, got, want);
		}
	}

	/* zipfian with an offset range and a steep s */
	pb_prng_seed(&st, 6);
	{
		long		ones = 0;

		for (k = 0; k < 100000; k++)
			if (pb_rand_zipfian(&st, 100, 200, 3.0) == 100)
				ones++;
		/* P(1) = 1/zeta(3) truncated, about 0.8319 */
		check(fabs(ones / 100000.0 - 0.8319) < 0.01, "zipfian s=3: %f", ones / 100000.0);
	}
}

/* permute() is a bijection; hashes match the documentation. */
static void
test_permute_hash(void)
{
	int			size;
	int64_t		seed;

	/* permute is a bijection of [0, size) for any seed */
	for (size = 1; size <= 300; size += 37)
	{
		for (seed = -3; seed <= 3; seed++)
		{
			static char seen[1000];
			int			k;
			bool		ok = true;

			memset(seen, 0, sizeof(seen));
			for (k = 0; k < size; k++)
			{
				int64_t		p = pb_permute(k, size, seed);

				if (p < 0 || p >= size || seen[p])
					ok = false;
				else
					seen[p] = 1;
			}
			check(ok, "permute(size %d, seed %lld) is a bijection", size, (long long) seed);
		}
	}
	check(pb_permute(12, 10, 1) == pb_permute(2, 10, 1), "permute takes val mod size");
	check(pb_permute(-8, 10, 1) == pb_permute((int64_t) ((uint64_t) -8 % 10), 10, 1),
		  "permute of negative val as unsigned");
	{
		int			same = 0;
		int			k;

		for (k = 0; k < 1000; k++)
			if (pb_permute(k, 1000, 1) == pb_permute(k, 1000, 2))
				same++;
		check(same < 20, "seeds give different permutations (%d equal)", same);
	}
	check(pb_permute(INT64_MAX, INT64_MAX, 7) >= 0, "permute of the largest size");

	/* documented values */
	check(pb_hash_murmur2(10, 5432) == -5817877081768721676LL, "murmur2 doc value");
	check(pb_hash_fnv1a(10, 5432) == -7793829335365542153LL, "fnv1a doc value");
	check(pb_hash_fnv1a(-1, 0) != pb_hash_fnv1a(1, 0), "fnv1a of negatives");
}

/* Weighted choice of scripts. */
static void
test_choose_script(void)
{
	PbScriptSet *set = pb_scriptset_create();
	PbError		err;
	PbPrng		st;
	long		counts[3] = {0, 0, 0};
	int			k;

	pb_script_parse(set, "a", "SELECT 1;", 1, &err);
	check(pb_choose_script(set, &st) == 0, "single script");
	pb_script_parse(set, "b", "SELECT 2;", 0, &err);
	pb_script_parse(set, "c", "SELECT 3;", 3, &err);
	pb_prng_seed(&st, 9);
	for (k = 0; k < 400000; k++)
		counts[pb_choose_script(set, &st)]++;
	check(counts[1] == 0, "weight 0 never chosen");
	check(fabs(counts[0] / 400000.0 - 0.25) < 0.005, "weight 1 of 4: %f", counts[0] / 400000.0);
	pb_scriptset_free(set);
}

/* ---- tests: performance of the hot path ---------------------------------- */

/*
 * Every error says what kind it is, set where it is raised, whatever its
 * message: the server gives each kind one SQLSTATE.
 */
static void
test_error_kinds(void)
{
	static const struct
	{
		const char *expr;
		PbErrorKind kind;
	}			cases[] = {
		{"1 / 0", PB_ERROR_DIVISION_BY_ZERO},
		{"5 % 0", PB_ERROR_DIVISION_BY_ZERO},
		{"9223372036854775807 + 1", PB_ERROR_OUT_OF_RANGE},
		{"-9223372036854775807 - 2", PB_ERROR_OUT_OF_RANGE},
		{"int(1e30)", PB_ERROR_OUT_OF_RANGE},
		{"random(5, 1)", PB_ERROR_INVALID_ARGUMENT},
		{"random_gaussian(1, 10, 1.0)", PB_ERROR_INVALID_ARGUMENT},
		{"random_zipfian(1, 10, 0.5)", PB_ERROR_INVALID_ARGUMENT},
		{"permute(1, 0)", PB_ERROR_INVALID_ARGUMENT},
		{"true + 1", PB_ERROR_TYPE},
		{"1 and 2", PB_ERROR_TYPE},
		{":nosuch + 1", PB_ERROR_UNDEFINED_VARIABLE},
		{"1 +", PB_ERROR_SYNTAX},
		{"abs(1, 2)", PB_ERROR_SYNTAX},
	};
	PbError		err;
	PbValue		v;
	PbScriptSet *set;
	int			weight = -1;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		bool		ok = eval_expr(cases[i].expr, &v, &err);

		check(!ok && err.kind == cases[i].kind, "kind of \"%s\": %d, want %d (%s)",
			  cases[i].expr, (int) err.kind, (int) cases[i].kind, err.message);
	}

	/* at parse time */
	set = pb_scriptset_create();
	check(!pb_script_parse(set, "k", "\\if 1\n", 1, &err) && err.kind == PB_ERROR_SYNTAX,
		  "unclosed \\if is a syntax error: %s", err.message);
	check(!pb_script_parse(set, "k", "\\sleep 99999999999999999999\n", 1, &err) &&
		  err.kind == PB_ERROR_SYNTAX, "sleep overflow at parse time: %d", (int) err.kind);
	check(pb_script_parse(set, "k", "SELECT :v;\n", 1, &err), "parses");
	check(!pb_scriptset_check_vars(set, &err) && err.kind == PB_ERROR_UNDEFINED_VARIABLE,
		  "variable no one sets: %d", (int) err.kind);
	pb_scriptset_free(set);

	/* weights, as pgbench's -b name@w */
	check(pb_parse_weight("@5", &weight, &err) && weight == 5, "weight 5");
	check(pb_parse_weight("@0", &weight, &err) && weight == 0, "weight 0");
	check(!pb_parse_weight("@x", &weight, &err) && err.kind == PB_ERROR_INVALID_ARGUMENT &&
		  strcmp(err.message, "invalid weight specification: @x") == 0,
		  "bad weight: %s", err.message);
	check(!pb_parse_weight("@", &weight, &err), "empty weight");
	check(!pb_parse_weight("@2147483648", &weight, &err) &&
		  strcmp(err.message, "weight specification out of range (0 .. 2147483647): 2147483648") == 0,
		  "weight out of range: %s", err.message);
	check(!pb_parse_weight("@-1", &weight, &err), "negative weight");

	/* variable names, as pgbench: no leading digit */
	check(pb_valid_variable_name("aid") && pb_valid_variable_name("_a1") &&
		  pb_valid_variable_name("\xc3\xa9t\xc3\xa9"), "valid names");
	check(!pb_valid_variable_name("1a") && !pb_valid_variable_name("") &&
		  !pb_valid_variable_name("a-b"), "invalid names");
	check(strcmp(pb_predefined_variables[0], "client_id") == 0 &&
		  strcmp(pb_predefined_variables[3], "scale") == 0, "predefined variables");
}

/* The benchmark's hot path allocates nothing and is fast. */
static void
test_hot_path(void)
{
	PbScriptSet *set = parse_ok("\\set aid random(1, 100000 * :scale)\n");
	PbClientState *client;
	PbError		err;
	int			next;
	int64_t		us;
	long		before;
	int			k;
	bool		ok = true;
	clock_t		t0;
	double		ns;

	if (!set)
		return;
	client = make_client(set, 3);
	/* the first evaluation parses :scale's string once */
	pb_exec_meta(&set->scripts[0], 0, client, set, &next, &us, &err);
	before = nallocs;
	t0 = clock();
	for (k = 0; k < 1000000; k++)
		if (!pb_exec_meta(&set->scripts[0], 0, client, set, &next, &us, &err))
			ok = false;
	ns = (double) (clock() - t0) / CLOCKS_PER_SEC * 1e9 / 1000000;
	check(ok, "hot path evaluations succeed");
	check(nallocs == before, "no allocation per evaluation (%ld)", nallocs - before);
	check(ns < 2000, "evaluation takes %.0f ns", ns);
	printf("hot path: %.0f ns per \\set aid random(1, 100000 * :scale)\n", ns);
	pb_client_free(client);
	pb_scriptset_free(set);
}

/*
 * pgbench's own test of expressions, run as pgbench does with
 * --random-seed=5432 -Dfoo=-10.1 -Dbla=false -Di=+3 -Dn=null -Dt=t -Df=of
 * -Dd=1.0 for client 0 at scale 1, comparing debug() output line by line
 * with what pgbench prints.  The random draws (commands 1-3 and 20) only
 * match if the generator, its seeding and the distributions are pgbench's
 * bit for bit: a client's generator is seeded with the first number drawn
 * from the base sequence, and :default_seed is the second.
 */
static void
test_pgbench_expressions(void)
{
	static const char *const defs[][2] = {
		{"foo", "-10.1"}, {"bla", "false"}, {"i", "+3"}, {"n", "null"},
		{"t", "t"}, {"f", "of"}, {"d", "1.0"}, {"scale", "1"},
		{"client_id", "0"}, {"random_seed", "5432"},
	};
	static const struct
	{
		int			command;
		const char *output;
	}			expected[] = {
		{1, "int 17"}, {2, "int 104"}, {3, "int 1498"}, {4, "int 4"},
		{5, "int 5"}, {6, "int 6"}, {7, "int 7"}, {8, "int 8"}, {9, "int 9"},
		{10, "int 10"}, {11, "int 11"}, {12, "int 12"}, {15, "double 15"},
		{16, "double 16"}, {17, "double 17"}, {20, "int 3"},
		{21, "double -27"}, {22, "double 1024"}, {23, "double 1"},
		{24, "double 1"}, {25, "double -0.125"}, {26, "double -0.125"},
		{27, "double -0.00032"}, {28, "double 8.50705917302346e+37"},
		{29, "double 1e+30"}, {30, "boolean false"}, {31, "boolean true"},
		{32, "int 32"}, {33, "int 33"}, {34, "double 34"}, {35, "int 35"},
		{36, "int 36"}, {37, "double 37"}, {38, "int 38"}, {39, "int 39"},
		{40, "boolean true"}, {41, "null"}, {42, "null"},
		{43, "boolean true"}, {44, "boolean true"}, {45, "boolean true"},
		{46, "int 46"}, {47, "boolean true"}, {48, "boolean true"},
		{49, "int -5817877081768721676"}, {50, "boolean true"},
		{51, "int -7793829335365542153"}, {52, "int "}, {53, "boolean true"},
		{65, "int 65"}, {74, "int 74"}, {83, "int 83"}, {86, "int 86"},
		{93, "int 93"}, {95, "int 0"}, {96, "int 1"}, {97, "int 0"},
		{98, "int 5432"}, {99, "int -9223372036854775808"},
		{100, "int 9223372036854775807"}, {101, "boolean true"},
		{102, "boolean true"}, {103, "boolean true"}, {104, "boolean true"},
		{105, "boolean true"}, {109, "boolean true"}, {110, "boolean true"},
		{111, "boolean true"}, {113, "boolean true"},
	};
	static char outputs[200][64];
	PbScriptSet *set = parse_ok(pgbench_expressions_sql);
	PbClientState *client;
	PbPrng		base;
	uint64_t	client_seed;
	int64_t		default_seed;
	char		buf[64];
	FILE	   *capture;
	int			saved;
	int			nsql;
	int64_t		slept;
	PbError		err;
	bool		ok;
	size_t		k;
	char		line[256];

	if (!set)
		return;
	pb_prng_seed(&base, 5432);
	client_seed = pb_prng_u64(&base);
	default_seed = (int64_t) pb_prng_u64(&base);
	client = pb_client_create(set, client_seed, default_seed);
	for (k = 0; k < sizeof(defs) / sizeof(defs[0]); k++)
		pb_var_set_string(client, pb_var_id(set, defs[k][0], true), defs[k][1], &err);
	snprintf(buf, sizeof(buf), "%lld", (long long) default_seed);
	pb_var_set_string(client, pb_var_id(set, "default_seed", true), buf, &err);

	/* debug() writes to stderr: capture it */
	capture = tmpfile();
	fflush(stderr);
	saved = dup(2);
	dup2(fileno(capture), 2);
	ok = run_script(set, 0, client, &nsql, &slept, &err);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	check(ok, "pgbench expressions run: %s (line %d)", ok ? "" : err.message, err.line);
	check(set->scripts[0].ncommands == 113, "pgbench expressions: %d commands",
		  set->scripts[0].ncommands);

	memset(outputs, 0, sizeof(outputs));
	rewind(capture);
	while (fgets(line, sizeof(line), capture))
	{
		int			command;
		char	   *colon = strstr(line, "): ");

		if (sscanf(line, "debug(script=test,command=%d)", &command) == 1 &&
			colon != NULL && command > 0 && command < 200)
		{
			colon[3 + strcspn(colon + 3, "\n")] = '\0';
			snprintf(outputs[command], sizeof(outputs[command]), "%s", colon + 3);
		}
	}
	fclose(capture);
	for (k = 0; k < sizeof(expected) / sizeof(expected[0]); k++)
	{
		const char *got = outputs[expected[k].command];
		size_t		len = strlen(expected[k].output);
		char		after = got[len];

		/* the TAP test matches "output\\b": a prefix ending a word */
		check(strncmp(got, expected[k].output, len) == 0 &&
			  (expected[k].command == 52 ||
			   !(isalnum((unsigned char) after) || after == '_')),
			  "pgbench expression command %d: want \"%s\", got \"%s\"",
			  expected[k].command, expected[k].output, got);
	}
	pb_client_free(client);
	pb_scriptset_free(set);
}

/* ---- regressions found by fuzzing ---------------------------------------- */

/* Inputs found by fuzzing must parse or fail cleanly. */
static void
test_fuzz_regressions(void)
{
	/* inputs that once crashed or misbehaved; they must parse or fail cleanly */
	static const char *const inputs[] = {
		"\\set x random_gaussian(1, 10, 1e308)\n",
		"\\set x random_exponential(-9223372036854775807, 9223372036854775806, 1e-300)\n",
		"\\set x 1 \\\n",
		"\\",
		"SELECT $",
		"E'\\",
		"/* unterminated",
		"$a$ unterminated $b$",
	};
	size_t		k;

	for (k = 0; k < sizeof(inputs) / sizeof(inputs[0]); k++)
	{
		PbScriptSet *set = pb_scriptset_create();
		PbError		err;

		if (pb_script_parse(set, NULL, inputs[k], 1, &err))
		{
			PbClientState *client = pb_client_create(set, 1, 1);
			int			nsql;
			int64_t		slept;

			(void) run_script(set, 0, client, &nsql, &slept, &err);
			pb_client_free(client);
		}
		pb_scriptset_free(set);
		check(true, "fuzz regression %zu", k);
	}
}

/* Run every test and report. */
int
main(void)
{
	test_operators();
	test_error_kinds();
	test_functions();
	test_variables();
	test_sql_splitting();
	test_sql_variables();
	test_txn();
	test_meta_commands();
	test_conditionals();
	test_check_vars();
	test_polardb_scripts();
	test_prng();
	test_distributions();
	test_permute_hash();
	test_choose_script();
	test_pgbench_expressions();
	test_hot_path();
	test_fuzz_regressions();

	return check_summary();
}
