/*-------------------------------------------------------------------------
 *
 * sql_shape.c
 *	  A statement's shape: its text with its constants made parameters
 *	  ($1, $2, ...), and the constants, typed as PostgreSQL's parser types
 *	  them (an integer int4, or int8 when it does not fit, or numeric; a
 *	  number with a point or an exponent numeric; a string of unknown type,
 *	  which the statement's context types).  Statements that differ only in
 *	  their constants have one shape, and so can share one prepared plan.
 *
 * A minus before a number that it makes negative goes with it (-5 is one
 * constant, as the parser folds it), so that a + -5 and a + 5 have one
 * shape.  Only where a parameter can stand for the constant: in the statements
 * that take parameters (SELECT, INSERT, UPDATE, DELETE, MERGE, VALUES,
 * WITH), of one statement, that use none yet; not a typed literal (a string
 * after a type name or any word that is not one of the keywords an
 * expression follows: interval '1 day', date '2024-01-01', time zone
 * 'UTC'), not a type's modifier (varchar(20), numeric(10, 2)), not a
 * position in ORDER BY or GROUP BY (ORDER BY 1), and not a string that
 * needs more than its quotes undone to read (E'\n', U&'', N'', $$x$$,
 * strings continued on another line).  A shape whose plan the parser
 * cannot make (an unknown parameter where the context gives no type, as
 * in SELECT 'x') is for the caller to see when it prepares it, and to run
 * the text instead.  Backend-free: see pb_capture.h.
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_capture.h"

/* the words after which an expression, and so a parameter, may come */
static const char *const expression_words[] = {
	"all", "and", "any", "between", "both", "by", "case", "distinct", "else",
	"escape", "for", "from", "having", "ilike", "in", "is", "leading", "like",
	"limit", "not", "offset", "on", "or", "returning", "select", "similar",
	"some", "then", "to", "trailing", "using", "when", "where", "first", "next",
	"return", "values", NULL
};

/* type names whose parenthesized numbers are a modifier, not values */
static const char *const modified_types[] = {
	"bit", "char", "character", "dec", "decimal", "float", "interval",
	"national", "nchar", "numeric", "time", "timestamp", "timestamptz",
	"timetz", "varbit", "varchar", "varying", NULL
};

/* the words that end an ORDER BY or a GROUP BY */
static const char *const clause_words[] = {
	"except", "fetch", "for", "having", "intersect", "limit", "offset",
	"returning", "union", "window", NULL
};

/* the statements whose constants can be parameters */
static const char *const parameterized_statements[] = {
	"select", "insert", "update", "delete", "merge", "values", "with", NULL
};

static bool
word_in(const char *sql, const PbSqlToken *token, const char *const *words)
{
	for (int i = 0; words[i] != NULL; i++)
		if (pb_sql_token_is(sql, token, words[i]))
			return true;
	return false;
}

/*
 * Whether a string token is a plain one: quotes at both ends, nothing
 * else to read in it but doubled quotes.
 */
static bool
plain_string(const char *sql, const PbSqlToken *t)
{
	if (sql[t->start] != '\'' || sql[t->start + t->len - 1] != '\'' || t->len < 2)
		return false;
	/* a string continued after a newline holds a quote-newline-quote */
	for (size_t i = t->start + 1; i + 1 < t->start + t->len; i++)
		if (sql[i] == '\'' && sql[i + 1] != '\'')
			return false;
		else if (sql[i] == '\'')
			i++;
	return true;
}

/*
 * The value a literal token stands for, as its type's input reads it;
 * negated, with the minus before it.
 */
static char *
literal_value(const char *sql, const PbSqlToken *t, bool negated)
{
	char	   *v;
	size_t		n = 0;

	if (t->kind != PB_TOK_STRING)
	{
		v = malloc(t->len + 2);
		if (v != NULL)
		{
			if (negated)
				v[n++] = '-';
			memcpy(v + n, sql + t->start, t->len);
			v[n + t->len] = '\0';
		}
		return v;
	}
	v = malloc(t->len);
	if (v == NULL)
		return NULL;
	for (size_t i = t->start + 1; i < t->start + t->len - 1; i++)
	{
		v[n++] = sql[i];
		if (sql[i] == '\'')
			i++;
	}
	v[n] = '\0';
	return v;
}

/* The type the parser gives an integer constant: int4, int8 or numeric. */
static PbLiteralKind
integer_kind(const char *value)
{
	char	   *end;
	long long	v;

	errno = 0;
	v = strtoll(value, &end, 10);
	if (errno == ERANGE || *end != '\0')
		return PB_LIT_NUMERIC;
	return (v >= -2147483647LL - 1 && v <= 2147483647LL) ? PB_LIT_INT4 : PB_LIT_INT8;
}

void
pb_sql_shape_free(PbSqlShape *shape)
{
	for (int i = 0; i < shape->nliterals; i++)
		free(shape->literals[i].value);
	free(shape->literals);
	free(shape->text);
	memset(shape, 0, sizeof(*shape));
}

/*
 * The shape of sql[0..len): true and shape filled (to be freed with
 * pb_sql_shape_free()) when some constant became a parameter; false when
 * none could, or out of memory, shape then empty.
 */
bool
pb_sql_shape(const char *sql, size_t len, PbSqlShape *shape)
{
	PbSqlScanner scanner;
	PbSqlToken *tokens;
	int			ntokens = 0;
	int			cap = 64;
	bool	   *replace = NULL;
	bool	   *negated = NULL;
	int			nreplace = 0;
	int			depth = 0;
	int			modifier_depth = -1;	/* the parentheses of a modifier */
	bool		order_by = false;
	size_t		out_len;
	char	   *out;
	size_t		o = 0;
	size_t		from = 0;
	int			k = 0;

	memset(shape, 0, sizeof(*shape));
	tokens = malloc(cap * sizeof(PbSqlToken));
	if (tokens == NULL)
		return false;
	pb_sql_scan_init(&scanner, sql, len);
	for (;;)
	{
		PbSqlTokenKind kind;
		PbSqlToken	after;

		if (ntokens == cap)
		{
			PbSqlToken *t = realloc(tokens, (cap *= 2) * sizeof(PbSqlToken));

			if (t == NULL)
				goto none;
			tokens = t;
		}
		kind = pb_sql_scan(&scanner, &tokens[ntokens]);
		if (kind == PB_TOK_END)
			break;
		/* no shape for what is not one parameterless statement */
		if (kind == PB_TOK_ERROR || kind == PB_TOK_PARAM)
			goto none;
		if (kind == PB_TOK_SELF && sql[tokens[ntokens].start] == ';')
		{
			if (pb_sql_scan(&scanner, &after) != PB_TOK_END)
				goto none;
			break;
		}
		ntokens++;
	}
	if (ntokens == 0 || !word_in(sql, &tokens[0], parameterized_statements))
		goto none;
	replace = calloc(ntokens, sizeof(bool));
	negated = calloc(ntokens, sizeof(bool));
	if (replace == NULL || negated == NULL)
		goto none;
	for (int i = 0; i < ntokens; i++)
	{
		PbSqlToken *t = &tokens[i];
		PbSqlToken *prev = i > 0 ? &tokens[i - 1] : NULL;
		bool		literal = t->kind == PB_TOK_INTEGER || t->kind == PB_TOK_NUMERIC ||
			(t->kind == PB_TOK_STRING && plain_string(sql, t));

		if (t->kind == PB_TOK_SELF && sql[t->start] == '(')
		{
			if (modifier_depth < 0 && prev != NULL && word_in(sql, prev, modified_types))
				modifier_depth = depth;
			depth++;
		}
		else if (t->kind == PB_TOK_SELF && sql[t->start] == ')')
		{
			depth--;
			if (depth == modifier_depth)
				modifier_depth = -1;
			order_by = false;
		}
		else if (t->kind == PB_TOK_IDENT)
		{
			if (pb_sql_token_is(sql, t, "by") && prev != NULL &&
				(pb_sql_token_is(sql, prev, "order") || pb_sql_token_is(sql, prev, "group")))
				order_by = true;
			else if (word_in(sql, t, clause_words))
				order_by = false;
		}
		if (!literal || modifier_depth >= 0)
			continue;
		/* a typed literal, or a string after a word an expression does not follow */
		if (prev != NULL && prev->kind == PB_TOK_IDENT && !word_in(sql, prev, expression_words))
			continue;
		if (prev != NULL && prev->kind == PB_TOK_QIDENT)
			continue;
		/* ORDER BY 1, GROUP BY 1, 2: positions */
		if (order_by && t->kind == PB_TOK_INTEGER && prev != NULL &&
			(pb_sql_token_is(sql, prev, "by") ||
			 (prev->kind == PB_TOK_SELF && sql[prev->start] == ',')))
			continue;
		/* EXTRACT('epoch' FROM x) takes a constant */
		if (t->kind == PB_TOK_STRING && i >= 2 && prev->kind == PB_TOK_SELF &&
			sql[prev->start] == '(' && pb_sql_token_is(sql, &tokens[i - 2], "extract"))
			continue;
		replace[i] = true;
		nreplace++;
		/* a minus that makes a number negative goes with it: -5 is one constant */
		if (t->kind != PB_TOK_STRING && prev != NULL && prev->kind == PB_TOK_OPERATOR &&
			prev->len == 1 && sql[prev->start] == '-' && i >= 1 &&
			(i == 1 || tokens[i - 2].kind == PB_TOK_OPERATOR ||
			 (tokens[i - 2].kind == PB_TOK_SELF && strchr("(,[", sql[tokens[i - 2].start]) != NULL) ||
			 (tokens[i - 2].kind == PB_TOK_IDENT && word_in(sql, &tokens[i - 2], expression_words))))
			negated[i] = true;
	}
	if (nreplace == 0)
		goto none;

	shape->literals = calloc(nreplace, sizeof(PbSqlLiteral));
	out_len = len + (size_t) nreplace * 12 + 1;
	out = malloc(out_len);
	if (shape->literals == NULL || out == NULL)
	{
		free(out);
		goto none;
	}
	shape->text = out;
	for (int i = 0; i < ntokens; i++)
	{
		PbSqlToken *t = &tokens[i];
		PbSqlLiteral *lit;
		size_t		start;

		if (!replace[i])
			continue;
		lit = &shape->literals[k];
		lit->value = literal_value(sql, t, negated[i]);
		if (lit->value == NULL)
			goto none;
		lit->kind = t->kind == PB_TOK_STRING ? PB_LIT_UNKNOWN :
			t->kind == PB_TOK_NUMERIC ? PB_LIT_NUMERIC : integer_kind(lit->value);
		shape->nliterals = ++k;
		start = negated[i] ? tokens[i - 1].start : t->start;
		memcpy(out + o, sql + from, start - from);
		o += start - from;
		o += snprintf(out + o, out_len - o, "$%d", k);
		from = t->start + t->len;
	}
	memcpy(out + o, sql + from, len - from);
	o += len - from;
	out[o] = '\0';
	free(replace);
	free(negated);
	free(tokens);
	return true;

none:
	free(replace);
	free(negated);
	free(tokens);
	pb_sql_shape_free(shape);
	return false;
}
