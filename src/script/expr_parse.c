/*-------------------------------------------------------------------------
 *
 * expr_parse.c
 *	  Scanner and parser for the expressions of \set, \if and \elif.
 *
 * The language is pgbench's (exprscan.l and exprparse.y of PostgreSQL 15):
 * integer, double, boolean and null constants, :variables, function calls,
 * CASE, and the operators below, lowest precedence first:
 *
 *		OR					left
 *		AND					left
 *		NOT					right, prefix
 *		IS, ISNULL, NOTNULL	postfix
 *		= <> != < <= > >=	non-associative
 *		| # & << >> ~		left (~ is prefix)
 *		+ -					left
 *		* / %				left
 *		unary + -			right
 *
 * The parser is hand-written precedence climbing that reproduces what
 * bison makes of that grammar, including which inputs are syntax errors
 * (a = b = c) and which are not (a IS NULL IS NULL).  Operators become
 * function nodes exactly as in pgbench (a > b is b < a, -x is 0 - x, ~x is
 * -1 # x), so that evaluation has pgbench's semantics.  Error messages are
 * pgbench's, with the column counted from the command's backslash.
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pb_script_int.h"

typedef enum TokType
{
	T_EOF,
	T_INT,
	T_MAXINT_PLUS_ONE,			/* 9223372036854775808, only after unary - */
	T_DOUBLE,
	T_BOOL,
	T_NULL,
	T_VAR,
	T_IDENT,					/* function name */
	T_PLUS,
	T_MINUS,
	T_STAR,
	T_SLASH,
	T_PERCENT,
	T_EQ,
	T_NE,
	T_LT,
	T_LE,
	T_GT,
	T_GE,
	T_BITOR,
	T_BITAND,
	T_HASH,
	T_TILDE,
	T_LSHIFT,
	T_RSHIFT,
	T_LPAREN,
	T_RPAREN,
	T_COMMA,
	T_AND,
	T_OR,
	T_NOT,
	T_IS,
	T_ISNULL,
	T_NOTNULL,
	T_CASE,
	T_WHEN,
	T_THEN,
	T_ELSE,
	T_END
} TokType;

typedef struct Token
{
	TokType		type;
	size_t		start;			/* offset of the first character */
	size_t		last;			/* offset of the last character */
	int64_t		ival;
	double		dval;
	bool		bval;
} Token;

typedef struct ExprParser
{
	PbScriptSet *set;
	const char *text;
	size_t		pos;			/* next character to scan */
	size_t		end;			/* end of the command */
	size_t		cmd_offset;		/* the backslash */
	const char *cmd;			/* command name, for messages */
	int			line;
	PbError    *err;
	Token		tok;			/* the lookahead */
	int			depth;			/* parser recursion depth */
	bool		failed;
} ExprParser;

/* precedence levels, as in exprparse.y */
#define PREC_OR			1
#define PREC_AND		2
#define PREC_NOT		3
#define PREC_IS			4
#define PREC_CMP		5
#define PREC_BIT		6
#define PREC_ADD		7
#define PREC_MUL		8
#define PREC_UNARY		9

/* arity markers of the function table */
#define NARGS_VARIABLE	(-1)	/* least, greatest: at least one */
#define NARGS_HASH		(-3)	/* one, plus an optional seed */
#define NARGS_PERMUTE	(-4)	/* two, plus an optional seed */

/* Functions callable by name; "mod" is reachable as in pgbench */
static const struct
{
	const char *name;
	int			nargs;
	PbFunc		func;
}			functions[] =
{
	{"mod", 2, PB_F_MOD},
	{"abs", 1, PB_F_ABS},
	{"least", NARGS_VARIABLE, PB_F_LEAST},
	{"greatest", NARGS_VARIABLE, PB_F_GREATEST},
	{"debug", 1, PB_F_DEBUG},
	{"pi", 0, PB_F_PI},
	{"sqrt", 1, PB_F_SQRT},
	{"ln", 1, PB_F_LN},
	{"exp", 1, PB_F_EXP},
	{"int", 1, PB_F_INT},
	{"double", 1, PB_F_DOUBLE},
	{"random", 2, PB_F_RANDOM},
	{"random_gaussian", 3, PB_F_RANDOM_GAUSSIAN},
	{"random_exponential", 3, PB_F_RANDOM_EXPONENTIAL},
	{"random_zipfian", 3, PB_F_RANDOM_ZIPFIAN},
	{"pow", 2, PB_F_POW},
	{"power", 2, PB_F_POW},
	{"hash", NARGS_HASH, PB_F_HASH_MURMUR2},
	{"hash_murmur2", NARGS_HASH, PB_F_HASH_MURMUR2},
	{"hash_fnv1a", NARGS_HASH, PB_F_HASH_FNV1A},
	{"permute", NARGS_PERMUTE, PB_F_PERMUTE},
};

/* Keywords, matched case-insensitively on whole identifiers */
static const struct
{
	const char *word;
	TokType		type;
	bool		bval;
}			keywords[] =
{
	{"and", T_AND, false},
	{"or", T_OR, false},
	{"not", T_NOT, false},
	{"is", T_IS, false},
	{"isnull", T_ISNULL, false},
	{"notnull", T_NOTNULL, false},
	{"case", T_CASE, false},
	{"when", T_WHEN, false},
	{"then", T_THEN, false},
	{"else", T_ELSE, false},
	{"end", T_END, false},
	{"true", T_BOOL, true},
	{"false", T_BOOL, false},
	{"null", T_NULL, false},
};

static PbExpr *parse_expr(ExprParser *p, int minprec);

/*
 * Record a syntax error found at offset errpos (the last character of the
 * offending token), with pgbench's message and optional "more" text, and
 * the command's line with a caret under errpos as the detail.
 */
static void
expr_error(ExprParser *p, size_t errpos, const char *msg, const char *more)
{
	if (p->failed)
		return;
	p->failed = true;
	pb_syntax_error(p->err, p->line, p->text + p->cmd_offset,
					p->end - p->cmd_offset, msg, more, p->cmd,
					(long) (errpos - p->cmd_offset));
}

/* A syntax error at the current lookahead, as bison reports it */
static void
syntax_error(ExprParser *p)
{
	expr_error(p, p->tok.last, "syntax error", NULL);
}

/* Character classes of exprscan.l */
static inline bool
is_alpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
		c >= 0x80;
}

/* A decimal digit. */
static inline bool
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* A character that may continue a name or variable. */
static inline bool
is_alnum(unsigned char c)
{
	return is_alpha(c) || is_digit(c);
}

/*
 * Length of a line continuation (backslash, optional CR, newline) at pos,
 * or 0 if there is none.
 */
static size_t
continuation_len(const ExprParser *p, size_t pos)
{
	const char *t = p->text;

	if (pos < p->end && t[pos] == '\\')
	{
		if (pos + 1 < p->end && t[pos + 1] == '\n')
			return 2;
		if (pos + 2 < p->end && t[pos + 1] == '\r' && t[pos + 2] == '\n')
			return 3;
	}
	return 0;
}

/*
 * Convert the number text[start..end) with strtoll or strtod, on a
 * NUL-terminated copy.  Returns false on overflow (and, as pgbench's
 * strtodouble, on underflow) or when out of memory (*oom set).
 */
static bool
convert_number(ExprParser *p, size_t start, size_t end, bool is_double,
			   int64_t *ival, double *dval, bool *oom)
{
	char		small[64];
	char	   *buf = small;
	size_t		len = end - start;
	bool		ok = true;
	char	   *endp;

	*oom = false;
	if (len >= sizeof(small))
	{
		buf = malloc(len + 1);
		if (buf == NULL)
		{
			*oom = true;
			return false;
		}
	}
	memcpy(buf, p->text + start, len);
	buf[len] = '\0';

	errno = 0;
	if (is_double)
		*dval = strtod(buf, &endp);
	else
		*ival = strtoll(buf, &endp, 10);
	if (errno != 0 || *endp != '\0')
		ok = false;

	if (buf != small)
		free(buf);
	return ok;
}

/*
 * Report a bad constant with the token's text as the "more" part.
 */
static void
constant_error(ExprParser *p, size_t start, size_t end, const char *msg)
{
	char		more[64];
	size_t		len = end - start;

	if (len >= sizeof(more))
		len = sizeof(more) - 1;
	memcpy(more, p->text + start, len);
	more[len] = '\0';
	expr_error(p, end - 1, msg, more);
}

/*
 * Scan the next token into p->tok.  Errors (unexpected character,
 * constant overflow) set p->failed.
 */
static void
next_token(ExprParser *p)
{
	const char *t = p->text;
	size_t		pos = p->pos;
	size_t		start;
	unsigned char c;

	/* skip white space and line continuations */
	for (;;)
	{
		size_t		clen;

		if (pos >= p->end)
			break;
		c = (unsigned char) t[pos];
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' ||
			c == '\n')
			pos++;
		else if ((clen = continuation_len(p, pos)) > 0)
			pos += clen;
		else
			break;
	}

	start = pos;
	memset(&p->tok, 0, sizeof(p->tok));
	p->tok.start = start;

	if (pos >= p->end)
	{
		/* pgbench points past the end of the line */
		p->tok.type = T_EOF;
		p->tok.last = p->end;
		p->pos = pos;
		return;
	}

	c = (unsigned char) t[pos];

	if (is_digit(c) || (c == '.' && pos + 1 < p->end && is_digit((unsigned char) t[pos + 1])))
	{
		bool		is_double = false;
		bool		oom;

		while (pos < p->end && is_digit((unsigned char) t[pos]))
			pos++;
		if (pos < p->end && t[pos] == '.')
		{
			is_double = true;
			pos++;
			while (pos < p->end && is_digit((unsigned char) t[pos]))
				pos++;
		}
		/* exponent only if digits follow, as the flex rule */
		if (pos < p->end && (t[pos] == 'e' || t[pos] == 'E'))
		{
			size_t		q = pos + 1;

			if (q < p->end && (t[q] == '+' || t[q] == '-'))
				q++;
			if (q < p->end && is_digit((unsigned char) t[q]))
			{
				is_double = true;
				while (q < p->end && is_digit((unsigned char) t[q]))
					q++;
				pos = q;
			}
		}
		p->pos = pos;
		p->tok.last = pos - 1;

		if (!is_double && pos - start == 19 &&
			memcmp(t + start, "9223372036854775808", 19) == 0)
		{
			p->tok.type = T_MAXINT_PLUS_ONE;
			return;
		}
		p->tok.type = is_double ? T_DOUBLE : T_INT;
		if (!convert_number(p, start, pos, is_double,
							&p->tok.ival, &p->tok.dval, &oom))
		{
			if (oom)
			{
				p->failed = true;
				pb_error_oom(p->err, p->line);
			}
			else
				constant_error(p, start, pos, is_double ?
							   "double constant overflow" :
							   "bigint constant overflow");
		}
		return;
	}

	if (c == ':' && pos + 1 < p->end && is_alnum((unsigned char) t[pos + 1]))
	{
		char	   *name;
		int			id;

		pos++;
		while (pos < p->end && is_alnum((unsigned char) t[pos]))
			pos++;
		p->pos = pos;
		p->tok.type = T_VAR;
		p->tok.last = pos - 1;
		name = pb_strndup(t + start + 1, pos - start - 1);
		id = name ? pb_var_id(p->set, name, true) : -1;
		free(name);
		if (id < 0)
		{
			p->failed = true;
			pb_error_oom(p->err, p->line);
		}
		p->tok.ival = id;
		return;
	}

	if (is_alpha(c))
	{
		size_t		len;
		size_t		i;

		while (pos < p->end && is_alnum((unsigned char) t[pos]))
			pos++;
		p->pos = pos;
		p->tok.last = pos - 1;
		len = pos - start;
		p->tok.type = T_IDENT;
		for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		{
			if (strlen(keywords[i].word) == len &&
				strncasecmp(keywords[i].word, t + start, len) == 0)
			{
				p->tok.type = keywords[i].type;
				p->tok.bval = keywords[i].bval;
				break;
			}
		}
		return;
	}

	/* operators, two-character ones first */
	if (pos + 1 < p->end)
	{
		char		c2 = t[pos + 1];
		TokType		two = T_EOF;

		if (c == '<' && c2 == '>')
			two = T_NE;
		else if (c == '!' && c2 == '=')
			two = T_NE;
		else if (c == '<' && c2 == '=')
			two = T_LE;
		else if (c == '>' && c2 == '=')
			two = T_GE;
		else if (c == '<' && c2 == '<')
			two = T_LSHIFT;
		else if (c == '>' && c2 == '>')
			two = T_RSHIFT;
		if (two != T_EOF)
		{
			p->tok.type = two;
			p->pos = pos + 2;
			p->tok.last = pos + 1;
			return;
		}
	}

	p->pos = pos + 1;
	p->tok.last = pos;
	switch (c)
	{
		case '+':
			p->tok.type = T_PLUS;
			return;
		case '-':
			p->tok.type = T_MINUS;
			return;
		case '*':
			p->tok.type = T_STAR;
			return;
		case '/':
			p->tok.type = T_SLASH;
			return;
		case '%':
			p->tok.type = T_PERCENT;
			return;
		case '=':
			p->tok.type = T_EQ;
			return;
		case '<':
			p->tok.type = T_LT;
			return;
		case '>':
			p->tok.type = T_GT;
			return;
		case '|':
			p->tok.type = T_BITOR;
			return;
		case '&':
			p->tok.type = T_BITAND;
			return;
		case '#':
			p->tok.type = T_HASH;
			return;
		case '~':
			p->tok.type = T_TILDE;
			return;
		case '(':
			p->tok.type = T_LPAREN;
			return;
		case ')':
			p->tok.type = T_RPAREN;
			return;
		case ',':
			p->tok.type = T_COMMA;
			return;
		default:
			{
				char		more[2];

				more[0] = (char) c;
				more[1] = '\0';
				p->tok.type = T_EOF;
				expr_error(p, pos, "unexpected character", more);
				return;
			}
	}
}

/*
 * Advance to the next token; false if scanning failed.
 */
static bool
advance(ExprParser *p)
{
	next_token(p);
	return !p->failed;
}

/*
 * A new leaf node, or NULL (with the error set) when out of memory.
 */
static PbExpr *
make_leaf(ExprParser *p, PbExprKind kind)
{
	PbExpr	   *e = calloc(1, sizeof(PbExpr));

	if (e == NULL)
	{
		p->failed = true;
		pb_error_oom(p->err, p->line);
		return NULL;
	}
	e->kind = kind;
	e->depth = 1;
	e->varid = -1;
	return e;
}

/* An integer constant node. */
static PbExpr *
make_int(ExprParser *p, int64_t ival)
{
	PbExpr	   *e = make_leaf(p, PB_EXPR_CONST);

	if (e)
	{
		e->constant.type = PB_VAL_INT;
		e->constant.u.ival = ival;
	}
	return e;
}

/* A double constant node. */
static PbExpr *
make_double(ExprParser *p, double dval)
{
	PbExpr	   *e = make_leaf(p, PB_EXPR_CONST);

	if (e)
	{
		e->constant.type = PB_VAL_DOUBLE;
		e->constant.u.dval = dval;
	}
	return e;
}

/* A boolean constant node. */
static PbExpr *
make_bool(ExprParser *p, bool bval)
{
	PbExpr	   *e = make_leaf(p, PB_EXPR_CONST);

	if (e)
	{
		e->constant.type = PB_VAL_BOOL;
		e->constant.u.bval = bval;
	}
	return e;
}

/* the null constant; its payload is zeroed so that IS compares cleanly */
static PbExpr *
make_null(ExprParser *p)
{
	PbExpr	   *e = make_leaf(p, PB_EXPR_CONST);

	if (e)
	{
		e->constant.type = PB_VAL_NULL;
		e->constant.u.ival = 0;
	}
	return e;
}

/*
 * A function node over nargs arguments, taking ownership of them (they
 * are freed on failure).  Any NULL argument means an earlier failure.
 */
static PbExpr *
make_func(ExprParser *p, PbFunc func, int nargs, PbExpr **args)
{
	PbExpr	   *e;
	int			i;
	int			depth = 0;
	bool		ok = !p->failed;

	for (i = 0; i < nargs; i++)
	{
		if (args[i] == NULL)
			ok = false;
		else if (args[i]->depth > depth)
			depth = args[i]->depth;
	}
	if (ok && depth + 1 > PB_EXPR_MAX_DEPTH)
	{
		expr_error(p, p->tok.last, "expression is too deeply nested", NULL);
		ok = false;
	}
	e = ok ? make_leaf(p, PB_EXPR_FUNC) : NULL;
	if (e != NULL && nargs > 0)
	{
		e->args = malloc(nargs * sizeof(PbExpr *));
		if (e->args == NULL)
		{
			free(e);
			e = NULL;
			p->failed = true;
			pb_error_oom(p->err, p->line);
		}
	}
	if (e == NULL)
	{
		for (i = 0; i < nargs; i++)
			pb_expr_free(args[i]);
		return NULL;
	}
	e->func = func;
	e->nargs = nargs;
	for (i = 0; i < nargs; i++)
		e->args[i] = args[i];
	e->depth = depth + 1;
	return e;
}

/* binary function node */
static PbExpr *
make_op(ExprParser *p, PbFunc func, PbExpr *l, PbExpr *r)
{
	PbExpr	   *args[2];

	args[0] = l;
	args[1] = r;
	return make_func(p, func, 2, args);
}

/* unary function node */
static PbExpr *
make_uop(ExprParser *p, PbFunc func, PbExpr *a)
{
	return make_func(p, func, 1, &a);
}

/*
 * Parse a function call; the lookahead is the function name.
 */
static PbExpr *
parse_call(ExprParser *p)
{
	size_t		namestart = p->tok.start;
	size_t		namelen = p->tok.last - p->tok.start + 1;
	size_t		i;
	int			fidx = -1;
	PbExpr	  **args = NULL;
	int			nargs = 0;
	int			cap = 0;
	int			want;
	const char *fname;
	PbExpr	   *result;

	for (i = 0; i < sizeof(functions) / sizeof(functions[0]); i++)
	{
		if (strlen(functions[i].name) == namelen &&
			strncasecmp(functions[i].name, p->text + namestart, namelen) == 0)
		{
			fidx = (int) i;
			break;
		}
	}
	if (fidx < 0)
	{
		char		more[64];

		if (namelen >= sizeof(more))
			namelen = sizeof(more) - 1;
		memcpy(more, p->text + namestart, namelen);
		more[namelen] = '\0';
		expr_error(p, p->tok.last, "unexpected function name", more);
		return NULL;
	}
	fname = functions[fidx].name;
	want = functions[fidx].nargs;

	if (!advance(p))
		return NULL;
	if (p->tok.type != T_LPAREN)
	{
		syntax_error(p);
		return NULL;
	}
	if (!advance(p))
		return NULL;

	if (p->tok.type != T_RPAREN)
	{
		for (;;)
		{
			PbExpr	   *arg;

			arg = parse_expr(p, 0);
			if (arg == NULL)
				goto fail;
			if (nargs + 1 >= cap)
			{
				int			newcap = cap ? cap * 2 : 4;
				PbExpr	  **na = realloc(args, newcap * sizeof(PbExpr *));

				if (na == NULL)
				{
					pb_expr_free(arg);
					p->failed = true;
					pb_error_oom(p->err, p->line);
					goto fail;
				}
				args = na;
				cap = newcap;
			}
			args[nargs++] = arg;
			if (p->tok.type == T_COMMA)
			{
				if (!advance(p))
					goto fail;
				continue;
			}
			break;
		}
		if (p->tok.type != T_RPAREN)
		{
			syntax_error(p);
			goto fail;
		}
	}

	/* arity is checked once ")" is read, as pgbench's make_func */
	switch (want)
	{
		case NARGS_VARIABLE:
			if (nargs == 0)
			{
				expr_error(p, p->tok.last, "at least one argument expected", fname);
				goto fail;
			}
			break;
		case NARGS_HASH:
		case NARGS_PERMUTE:
			{
				int			min = want == NARGS_HASH ? 1 : 2;

				if (nargs < min || nargs > min + 1)
				{
					expr_error(p, p->tok.last, "unexpected number of arguments", fname);
					goto fail;
				}
				if (nargs == min)
				{
					/* the seed defaults to the client's :default_seed */
					PbExpr	   *seed;

					if (nargs + 1 > cap)
					{
						PbExpr	  **na = realloc(args, (nargs + 1) * sizeof(PbExpr *));

						if (na == NULL)
						{
							p->failed = true;
							pb_error_oom(p->err, p->line);
							goto fail;
						}
						args = na;
						cap = nargs + 1;
					}
					seed = make_leaf(p, PB_EXPR_DEFAULT_SEED);
					if (seed == NULL)
						goto fail;
					args[nargs++] = seed;
				}
			}
			break;
		default:
			if (nargs != want)
			{
				expr_error(p, p->tok.last, "unexpected number of arguments", fname);
				goto fail;
			}
			break;
	}

	result = make_func(p, functions[fidx].func, nargs, args);
	free(args);
	if (result == NULL)
		return NULL;
	if (!advance(p))
	{
		pb_expr_free(result);
		return NULL;
	}
	return result;

fail:
	for (i = 0; i < (size_t) nargs; i++)
		pb_expr_free(args[i]);
	free(args);
	return NULL;
}

/*
 * Parse CASE WHEN c THEN r [WHEN ...] [ELSE e] END; the lookahead is CASE.
 * The node's arguments are c1, r1, c2, r2, ..., e (NULL when no ELSE).
 */
static PbExpr *
parse_case(ExprParser *p)
{
	PbExpr	  **args = NULL;
	int			nargs = 0;
	int			cap = 0;
	int			i;
	PbExpr	   *e;
	PbExpr	   *result;

	if (!advance(p))
		return NULL;
	if (p->tok.type != T_WHEN)
	{
		syntax_error(p);
		return NULL;
	}

	while (p->tok.type == T_WHEN)
	{
		PbExpr	   *cond,
				   *res;

		if (!advance(p))
			goto fail;
		cond = parse_expr(p, 0);
		if (cond == NULL)
			goto fail;
		if (p->tok.type != T_THEN)
		{
			syntax_error(p);
			pb_expr_free(cond);
			goto fail;
		}
		if (!advance(p) || (res = parse_expr(p, 0)) == NULL)
		{
			pb_expr_free(cond);
			goto fail;
		}
		if (nargs + 3 > cap)
		{
			int			newcap = cap ? cap * 2 : 8;
			PbExpr	  **na = realloc(args, newcap * sizeof(PbExpr *));

			if (na == NULL)
			{
				pb_expr_free(cond);
				pb_expr_free(res);
				p->failed = true;
				pb_error_oom(p->err, p->line);
				goto fail;
			}
			args = na;
			cap = newcap;
		}
		args[nargs++] = cond;
		args[nargs++] = res;
	}

	if (p->tok.type == T_ELSE)
	{
		if (!advance(p) || (e = parse_expr(p, 0)) == NULL)
			goto fail;
	}
	else if ((e = make_null(p)) == NULL)
		goto fail;
	args[nargs++] = e;

	if (p->tok.type != T_END)
	{
		syntax_error(p);
		goto fail;
	}

	result = make_func(p, PB_F_CASE, nargs, args);
	free(args);
	if (result == NULL)
		return NULL;
	if (!advance(p))
	{
		pb_expr_free(result);
		return NULL;
	}
	return result;

fail:
	for (i = 0; i < nargs; i++)
		pb_expr_free(args[i]);
	free(args);
	return NULL;
}

/*
 * Parse a primary expression or a prefix operator application.
 */
static PbExpr *
parse_prefix(ExprParser *p)
{
	PbExpr	   *e = NULL;
	PbExpr	   *operand;

	if (p->depth >= PB_EXPR_MAX_DEPTH)
	{
		expr_error(p, p->tok.last, "expression is too deeply nested", NULL);
		return NULL;
	}

	switch (p->tok.type)
	{
		case T_LPAREN:
			if (!advance(p))
				return NULL;
			p->depth++;
			e = parse_expr(p, 0);
			p->depth--;
			if (e == NULL)
				return NULL;
			if (p->tok.type != T_RPAREN)
			{
				syntax_error(p);
				pb_expr_free(e);
				return NULL;
			}
			break;

		case T_PLUS:
			if (!advance(p))
				return NULL;
			p->depth++;
			e = parse_expr(p, PREC_UNARY);
			p->depth--;
			return e;

		case T_MINUS:
			if (!advance(p))
				return NULL;
			if (p->tok.type == T_MAXINT_PLUS_ONE)
			{
				e = make_int(p, INT64_MIN);
				break;
			}
			p->depth++;
			operand = parse_expr(p, PREC_UNARY);
			p->depth--;
			if (operand == NULL)
				return NULL;
			/* -x is 0 - x, so that it overflows as pgbench's */
			return make_op(p, PB_F_SUB, make_int(p, 0), operand);

		case T_TILDE:
			if (!advance(p))
				return NULL;
			p->depth++;
			operand = parse_expr(p, PREC_BIT + 1);
			p->depth--;
			if (operand == NULL)
				return NULL;
			return make_op(p, PB_F_BITXOR, make_int(p, -1), operand);

		case T_NOT:
			if (!advance(p))
				return NULL;
			p->depth++;
			operand = parse_expr(p, PREC_NOT);
			p->depth--;
			if (operand == NULL)
				return NULL;
			return make_uop(p, PB_F_NOT, operand);

		case T_NULL:
			e = make_null(p);
			break;
		case T_BOOL:
			e = make_bool(p, p->tok.bval);
			break;
		case T_INT:
			e = make_int(p, p->tok.ival);
			break;
		case T_DOUBLE:
			e = make_double(p, p->tok.dval);
			break;
		case T_VAR:
			e = make_leaf(p, PB_EXPR_VAR);
			if (e)
				e->varid = (int) p->tok.ival;
			break;

		case T_IDENT:
			p->depth++;
			e = parse_call(p);
			p->depth--;
			return e;

		case T_CASE:
			p->depth++;
			e = parse_case(p);
			p->depth--;
			return e;

		default:
			syntax_error(p);
			return NULL;
	}

	if (e == NULL)
		return NULL;
	if (!advance(p))
	{
		pb_expr_free(e);
		return NULL;
	}
	return e;
}

/*
 * Precedence and operator function of a binary lookahead token; 0 when
 * the token is not a binary operator.  *swap is set for > and >=, which
 * pgbench turns into < and <= with swapped operands.
 */
static int
binary_op(TokType type, PbFunc *func, bool *swap)
{
	*swap = false;
	switch (type)
	{
		case T_OR:
			*func = PB_F_OR;
			return PREC_OR;
		case T_AND:
			*func = PB_F_AND;
			return PREC_AND;
		case T_EQ:
			*func = PB_F_EQ;
			return PREC_CMP;
		case T_NE:
			*func = PB_F_NE;
			return PREC_CMP;
		case T_LT:
			*func = PB_F_LT;
			return PREC_CMP;
		case T_LE:
			*func = PB_F_LE;
			return PREC_CMP;
		case T_GT:
			*func = PB_F_LT;
			*swap = true;
			return PREC_CMP;
		case T_GE:
			*func = PB_F_LE;
			*swap = true;
			return PREC_CMP;
		case T_BITOR:
			*func = PB_F_BITOR;
			return PREC_BIT;
		case T_BITAND:
			*func = PB_F_BITAND;
			return PREC_BIT;
		case T_HASH:
			*func = PB_F_BITXOR;
			return PREC_BIT;
		case T_LSHIFT:
			*func = PB_F_LSHIFT;
			return PREC_BIT;
		case T_RSHIFT:
			*func = PB_F_RSHIFT;
			return PREC_BIT;
		case T_PLUS:
			*func = PB_F_ADD;
			return PREC_ADD;
		case T_MINUS:
			*func = PB_F_SUB;
			return PREC_ADD;
		case T_STAR:
			*func = PB_F_MUL;
			return PREC_MUL;
		case T_SLASH:
			*func = PB_F_DIV;
			return PREC_MUL;
		case T_PERCENT:
			*func = PB_F_MOD;
			return PREC_MUL;
		default:
			return 0;
	}
}

/*
 * Parse the IS / ISNULL / NOTNULL suffix of left; the lookahead is the
 * keyword.
 */
static PbExpr *
parse_is(ExprParser *p, PbExpr *left)
{
	TokType		type = p->tok.type;
	bool		negate = false;
	PbExpr	   *rhs;

	if (!advance(p))
	{
		pb_expr_free(left);
		return NULL;
	}
	if (type == T_ISNULL)
		return make_op(p, PB_F_IS, left, make_null(p));
	if (type == T_NOTNULL)
		return make_uop(p, PB_F_NOT, make_op(p, PB_F_IS, left, make_null(p)));

	if (p->tok.type == T_NOT)
	{
		negate = true;
		if (!advance(p))
		{
			pb_expr_free(left);
			return NULL;
		}
	}
	if (p->tok.type == T_NULL)
		rhs = make_null(p);
	else if (p->tok.type == T_BOOL)
		rhs = make_bool(p, p->tok.bval);
	else
	{
		syntax_error(p);
		pb_expr_free(left);
		return NULL;
	}
	if (rhs == NULL || !advance(p))
	{
		pb_expr_free(rhs);
		pb_expr_free(left);
		return NULL;
	}
	left = make_op(p, PB_F_IS, left, rhs);
	return negate ? make_uop(p, PB_F_NOT, left) : left;
}

/*
 * Parse an expression whose binary operators all bind at least as tightly
 * as minprec.
 */
static PbExpr *
parse_expr(ExprParser *p, int minprec)
{
	PbExpr	   *left;

	left = parse_prefix(p);
	if (left == NULL)
		return NULL;

	for (;;)
	{
		PbFunc		func;
		bool		swap;
		int			prec;
		PbExpr	   *right;

		if (p->tok.type == T_IS || p->tok.type == T_ISNULL ||
			p->tok.type == T_NOTNULL)
		{
			if (PREC_IS < minprec)
				break;
			left = parse_is(p, left);
			if (left == NULL)
				return NULL;
			continue;
		}

		prec = binary_op(p->tok.type, &func, &swap);
		if (prec == 0 || prec < minprec)
			break;

		if (!advance(p))
		{
			pb_expr_free(left);
			return NULL;
		}
		right = parse_expr(p, prec + 1);
		if (right == NULL)
		{
			pb_expr_free(left);
			return NULL;
		}
		left = swap ? make_op(p, func, right, left) : make_op(p, func, left, right);
		if (left == NULL)
			return NULL;

		/* comparisons are non-associative: a = b = c is an error */
		if (prec == PREC_CMP)
		{
			PbFunc		f2;
			bool		s2;

			if (binary_op(p->tok.type, &f2, &s2) == PREC_CMP)
			{
				syntax_error(p);
				pb_expr_free(left);
				return NULL;
			}
		}
	}
	return left;
}

/*
 * Parse the expression in text[start, end).  Returns the tree, or NULL
 * with err filled.
 */
PbExpr *
pb_expr_parse(PbScriptSet *set, const char *text, size_t start, size_t end,
			  size_t cmd_offset, const char *cmd, int line, PbError *err)
{
	ExprParser	p;
	PbExpr	   *e;

	memset(&p, 0, sizeof(p));
	p.set = set;
	p.text = text;
	p.pos = start;
	p.end = end;
	p.cmd_offset = cmd_offset;
	p.cmd = cmd;
	p.line = line;
	p.err = err;

	if (!advance(&p))
		return NULL;
	e = parse_expr(&p, 0);
	if (e == NULL)
	{
		if (!p.failed)
			syntax_error(&p);
		return NULL;
	}
	if (p.tok.type != T_EOF)
	{
		syntax_error(&p);
		pb_expr_free(e);
		return NULL;
	}
	return e;
}
