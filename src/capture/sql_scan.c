/*-------------------------------------------------------------------------
 *
 * sql_scan.c
 *	  A scanner of SQL text that splits it into tokens as PostgreSQL's
 *	  lexer does (with standard_conforming_strings on, the default), and
 *	  what a capture and a replay read from the tokens: the statements of a
 *	  simple query, what each does to the transaction, whether it is a COPY,
 *	  and whether a text uses parameters.
 *
 * It does not parse: a statement is what lies between semicolons (a
 * function body of BEGIN ATOMIC ... END keeps its semicolons, so a text
 * holding one is one statement), and a statement is known by its first
 * keywords.  Strings, quoted identifiers, dollar quotes and comments are
 * skipped whole, so a semicolon or a keyword inside them counts for
 * nothing.  Backend-free: see pb_capture.h.
 *
 *-------------------------------------------------------------------------
 */
#include <string.h>

#include "pb_capture.h"

/* the characters of PostgreSQL's lexer's classes */
#define IS_SPACE(c)	((c) == ' ' || (c) == '\t' || (c) == '\n' || (c) == '\r' || \
					 (c) == '\f' || (c) == '\v')
#define IS_DIGIT(c)	((c) >= '0' && (c) <= '9')
#define IS_IDENT_START(c) (((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') || \
						   (c) == '_' || (unsigned char) (c) >= 0200)
#define IS_IDENT_CONT(c) (IS_IDENT_START(c) || IS_DIGIT(c) || (c) == '$')
#define IS_OP_CHAR(c) ((c) != '\0' && strchr("~!@#^&|`?+-*/%<>=", (c)) != NULL)
#define IS_SELF(c) ((c) != '\0' && strchr(",()[].;:", (c)) != NULL)

/* Start scanning sql[0..len). */
void
pb_sql_scan_init(PbSqlScanner *scanner, const char *sql, size_t len)
{
	scanner->sql = sql;
	scanner->len = len;
	scanner->pos = 0;
}

/*
 * Skip white space and comments from pos; returns where the next token
 * starts, or (size_t) -1 for a comment that never ends.
 */
static size_t
skip_space(const char *s, size_t len, size_t pos)
{
	while (pos < len)
	{
		if (IS_SPACE(s[pos]))
			pos++;
		else if (s[pos] == '-' && pos + 1 < len && s[pos + 1] == '-')
		{
			while (pos < len && s[pos] != '\n' && s[pos] != '\r')
				pos++;
		}
		else if (s[pos] == '/' && pos + 1 < len && s[pos + 1] == '*')
		{
			int			depth = 1;

			pos += 2;
			while (depth > 0)
			{
				if (pos + 1 >= len)
					return (size_t) -1;
				if (s[pos] == '*' && s[pos + 1] == '/')
				{
					depth--;
					pos += 2;
				}
				else if (s[pos] == '/' && s[pos + 1] == '*')
				{
					depth++;
					pos += 2;
				}
				else
					pos++;
			}
		}
		else
			break;
	}
	return pos;
}

/*
 * The end of a quoted string or identifier whose opening quote is at pos:
 * the position past its closing quote, doubled quotes (and, with
 * backslashes, backslash escapes) taken as part of it; 0 if it never
 * closes.
 */
static size_t
quoted_end(const char *s, size_t len, size_t pos, char quote, bool backslashes)
{
	pos++;
	while (pos < len)
	{
		if (backslashes && s[pos] == '\\')
			pos += 2;
		else if (s[pos] == quote)
		{
			if (pos + 1 < len && s[pos + 1] == quote)
				pos += 2;
			else
				return pos + 1;
		}
		else
			pos++;
	}
	return 0;
}

/*
 * A string constant goes on after white space holding a newline with
 * another quoted part ('a'\n'b' is 'ab'): the end of the last part.
 */
static size_t
string_continues(const char *s, size_t len, size_t end, bool backslashes)
{
	for (;;)
	{
		size_t		p = end;
		bool		newline = false;
		size_t		next;

		while (p < len && IS_SPACE(s[p]))
		{
			if (s[p] == '\n' || s[p] == '\r')
				newline = true;
			p++;
		}
		if (!newline || p >= len || s[p] != '\'')
			return end;
		next = quoted_end(s, len, p, '\'', backslashes);
		if (next == 0)
			return 0;
		end = next;
	}
}

/* The end of a dollar-quoted string whose opening tag is s[pos..pos+taglen). */
static size_t
dollar_end(const char *s, size_t len, size_t pos, size_t taglen)
{
	size_t		p = pos + taglen;

	while (p + taglen <= len)
	{
		if (s[p] == '$' && memcmp(s + p, s + pos, taglen) == 0)
			return p + taglen;
		p++;
	}
	return 0;
}

/*
 * The length of the dollar-quote tag ($tag$ or $$) at pos, or 0 when what
 * starts there is not one.
 */
static size_t
dollar_tag(const char *s, size_t len, size_t pos)
{
	size_t		p = pos + 1;

	if (p < len && IS_IDENT_START(s[p]))
	{
		p++;
		while (p < len && IS_IDENT_CONT(s[p]) && s[p] != '$')
			p++;
	}
	if (p < len && s[p] == '$')
		return p + 1 - pos;
	return 0;
}

/*
 * The length of the operator at pos, as PostgreSQL's lexer takes it: the
 * longest run of operator characters, stopping before a comment, and a
 * run of more than one character ending in + or - loses them unless it
 * holds one of ~ ! @ # ^ & | ` ? % (so that "=-1" is "=" then "-1").
 */
static size_t
operator_len(const char *s, size_t len, size_t pos)
{
	size_t		n = 0;
	bool		special = false;

	while (pos + n < len && IS_OP_CHAR(s[pos + n]))
	{
		if (n > 0 && ((s[pos + n] == '-' && s[pos + n - 1] == '-') ||
					  (s[pos + n] == '*' && s[pos + n - 1] == '/')))
		{
			n--;
			break;
		}
		if (strchr("~!@#^&|`?%", s[pos + n]) != NULL)
			special = true;
		n++;
	}
	if (n > 1 && !special)
	{
		while (n > 1 && (s[pos + n - 1] == '+' || s[pos + n - 1] == '-'))
			n--;
	}
	return n;
}

/* The length of the number at pos (a digit, or a point before a digit). */
static size_t
number_len(const char *s, size_t len, size_t pos, bool *numeric)
{
	size_t		p = pos;

	*numeric = false;
	while (p < len && IS_DIGIT(s[p]))
		p++;
	/* a point, but not the ".." of an array slice */
	if (p < len && s[p] == '.' && !(p + 1 < len && s[p + 1] == '.'))
	{
		*numeric = true;
		p++;
		while (p < len && IS_DIGIT(s[p]))
			p++;
	}
	if (p < len && (s[p] == 'e' || s[p] == 'E'))
	{
		size_t		q = p + 1;

		if (q < len && (s[q] == '+' || s[q] == '-'))
			q++;
		if (q < len && IS_DIGIT(s[q]))
		{
			*numeric = true;
			p = q;
			while (p < len && IS_DIGIT(s[p]))
				p++;
		}
	}
	return p - pos;
}

/*
 * The next token of the text, in token; returns its kind (PB_TOK_END at
 * the end, PB_TOK_ERROR for an unterminated string, identifier or comment,
 * which runs to the end of the text).
 */
PbSqlTokenKind
pb_sql_scan(PbSqlScanner *scanner, PbSqlToken *token)
{
	const char *s = scanner->sql;
	size_t		len = scanner->len;
	size_t		pos = skip_space(s, len, scanner->pos);
	size_t		end = 0;
	PbSqlTokenKind kind;
	char		c;

	if (pos == (size_t) -1)
	{
		token->kind = PB_TOK_ERROR;
		token->start = scanner->pos;
		token->len = len - scanner->pos;
		scanner->pos = len;
		return PB_TOK_ERROR;
	}
	token->start = pos;
	if (pos >= len)
	{
		token->kind = PB_TOK_END;
		token->len = 0;
		scanner->pos = len;
		return PB_TOK_END;
	}
	c = s[pos];
	if (c == '\'')
	{
		kind = PB_TOK_STRING;
		end = quoted_end(s, len, pos, '\'', false);
		if (end != 0)
			end = string_continues(s, len, end, false);
	}
	else if ((c == 'e' || c == 'E') && pos + 1 < len && s[pos + 1] == '\'')
	{
		kind = PB_TOK_STRING;
		end = quoted_end(s, len, pos + 1, '\'', true);
		if (end != 0)
			end = string_continues(s, len, end, true);
	}
	else if ((c == 'b' || c == 'B' || c == 'x' || c == 'X') &&
			 pos + 1 < len && s[pos + 1] == '\'')
	{
		kind = PB_TOK_BITSTRING;
		end = quoted_end(s, len, pos + 1, '\'', false);
		if (end != 0)
			end = string_continues(s, len, end, false);
	}
	else if ((c == 'n' || c == 'N') && pos + 1 < len && s[pos + 1] == '\'')
	{
		kind = PB_TOK_STRING;
		end = quoted_end(s, len, pos + 1, '\'', false);
		if (end != 0)
			end = string_continues(s, len, end, false);
	}
	else if ((c == 'u' || c == 'U') && pos + 2 < len && s[pos + 1] == '&' &&
			 (s[pos + 2] == '\'' || s[pos + 2] == '"'))
	{
		kind = s[pos + 2] == '\'' ? PB_TOK_STRING : PB_TOK_QIDENT;
		end = quoted_end(s, len, pos + 2, s[pos + 2], false);
	}
	else if (c == '"')
	{
		kind = PB_TOK_QIDENT;
		end = quoted_end(s, len, pos, '"', false);
	}
	else if (c == '$' && pos + 1 < len && IS_DIGIT(s[pos + 1]))
	{
		kind = PB_TOK_PARAM;
		end = pos + 1;
		while (end < len && IS_DIGIT(s[end]))
			end++;
	}
	else if (c == '$' && dollar_tag(s, len, pos) > 0)
	{
		kind = PB_TOK_STRING;
		end = dollar_end(s, len, pos, dollar_tag(s, len, pos));
	}
	else if (IS_IDENT_START(c))
	{
		kind = PB_TOK_IDENT;
		end = pos + 1;
		while (end < len && IS_IDENT_CONT(s[end]))
			end++;
	}
	else if (IS_DIGIT(c) || (c == '.' && pos + 1 < len && IS_DIGIT(s[pos + 1])))
	{
		bool		numeric;

		end = pos + number_len(s, len, pos, &numeric);
		kind = numeric ? PB_TOK_NUMERIC : PB_TOK_INTEGER;
	}
	else if (c == ':' && pos + 1 < len && (s[pos + 1] == ':' || s[pos + 1] == '='))
	{
		kind = PB_TOK_OPERATOR;
		end = pos + 2;
	}
	else if (c == '.' && pos + 1 < len && s[pos + 1] == '.')
	{
		/* the ".." of an array slice */
		kind = PB_TOK_SELF;
		end = pos + 2;
	}
	else if (IS_SELF(c))
	{
		kind = PB_TOK_SELF;
		end = pos + 1;
	}
	else if (IS_OP_CHAR(c))
	{
		kind = PB_TOK_OPERATOR;
		end = pos + operator_len(s, len, pos);
	}
	else
	{
		/* a character the lexer would refuse: a token of its own */
		kind = PB_TOK_OPERATOR;
		end = pos + 1;
	}
	if (end == 0)
	{
		kind = PB_TOK_ERROR;
		end = len;
	}
	token->kind = kind;
	token->len = end - pos;
	scanner->pos = end;
	return kind;
}

/* Whether the token is the keyword (given in lower case), in any case. */
bool
pb_sql_token_is(const char *sql, const PbSqlToken *token, const char *keyword)
{
	size_t		n = strlen(keyword);

	if (token->kind != PB_TOK_IDENT || token->len != n)
		return false;
	for (size_t i = 0; i < n; i++)
	{
		char		c = sql[token->start + i];

		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if (c != keyword[i])
			return false;
	}
	return true;
}

/* The first few tokens of a statement, for telling what it is */
#define PB_LEAD_TOKENS 5

static int
lead_tokens(const char *sql, size_t len, PbSqlToken *tokens)
{
	PbSqlScanner scanner;
	int			n = 0;

	pb_sql_scan_init(&scanner, sql, len);
	while (n < PB_LEAD_TOKENS)
	{
		PbSqlTokenKind kind = pb_sql_scan(&scanner, &tokens[n]);

		if (kind == PB_TOK_END || kind == PB_TOK_ERROR ||
			(kind == PB_TOK_SELF && sql[tokens[n].start] == ';'))
			break;
		n++;
	}
	return n;
}

/*
 * Whether the tokens from i on say AND CHAIN (not AND NO CHAIN), after an
 * optional WORK or TRANSACTION.
 */
static bool
and_chain(const char *sql, const PbSqlToken *t, int n, int i)
{
	if (i < n && (pb_sql_token_is(sql, &t[i], "work") ||
				  pb_sql_token_is(sql, &t[i], "transaction")))
		i++;
	return i + 1 < n && pb_sql_token_is(sql, &t[i], "and") &&
		pb_sql_token_is(sql, &t[i + 1], "chain");
}

/*
 * What the statement that sql[0..len) starts with does to the transaction:
 * begins one (BEGIN, START TRANSACTION), ends it (COMMIT, END, ROLLBACK,
 * ABORT, PREPARE TRANSACTION; not ROLLBACK TO a savepoint, nor COMMIT or
 * ROLLBACK PREPARED, which act on another), ends it and begins the next
 * (AND CHAIN), or nothing.
 */
PbSqlTxn
pb_sql_txn(const char *sql, size_t len)
{
	PbSqlToken	t[PB_LEAD_TOKENS];
	int			n = lead_tokens(sql, len, t);

	if (n == 0)
		return PB_SQL_OTHER;
	if (pb_sql_token_is(sql, &t[0], "begin"))
		return PB_SQL_BEGIN;
	if (pb_sql_token_is(sql, &t[0], "start"))
		return n > 1 && pb_sql_token_is(sql, &t[1], "transaction") ?
			PB_SQL_BEGIN : PB_SQL_OTHER;
	if (pb_sql_token_is(sql, &t[0], "prepare"))
		return n > 1 && pb_sql_token_is(sql, &t[1], "transaction") ?
			PB_SQL_END : PB_SQL_OTHER;
	if (pb_sql_token_is(sql, &t[0], "commit") || pb_sql_token_is(sql, &t[0], "end"))
	{
		if (n > 1 && pb_sql_token_is(sql, &t[1], "prepared"))
			return PB_SQL_OTHER;
		return and_chain(sql, t, n, 1) ? PB_SQL_CHAIN : PB_SQL_END;
	}
	if (pb_sql_token_is(sql, &t[0], "rollback") || pb_sql_token_is(sql, &t[0], "abort"))
	{
		int			i = 1;

		if (n > 1 && pb_sql_token_is(sql, &t[1], "prepared"))
			return PB_SQL_OTHER;
		if (i < n && (pb_sql_token_is(sql, &t[i], "work") ||
					  pb_sql_token_is(sql, &t[i], "transaction")))
			i++;
		if (i < n && pb_sql_token_is(sql, &t[i], "to"))
			return PB_SQL_OTHER;
		return and_chain(sql, t, n, 1) ? PB_SQL_CHAIN : PB_SQL_END;
	}
	return PB_SQL_OTHER;
}

/*
 * What the statement sql[0..len) starts with is, for a capture: a COPY
 * (whose data the log does not hold), a change of the client's encoding
 * (SET [SESSION | LOCAL] client_encoding, SET NAMES, RESET
 * client_encoding: the log is in one encoding), or any other.
 */
PbSqlKind
pb_sql_kind(const char *sql, size_t len)
{
	PbSqlToken	t[PB_LEAD_TOKENS];
	int			n = lead_tokens(sql, len, t);
	int			i = 1;

	if (n == 0)
		return PB_SQL_PLAIN;
	if (pb_sql_token_is(sql, &t[0], "copy"))
		return PB_SQL_COPY;
	if (pb_sql_token_is(sql, &t[0], "reset"))
		return n > 1 && pb_sql_token_is(sql, &t[1], "client_encoding") ?
			PB_SQL_CLIENT_ENCODING : PB_SQL_PLAIN;
	if (!pb_sql_token_is(sql, &t[0], "set"))
		return PB_SQL_PLAIN;
	if (i < n && (pb_sql_token_is(sql, &t[i], "session") ||
				  pb_sql_token_is(sql, &t[i], "local")))
		i++;
	if (i < n && (pb_sql_token_is(sql, &t[i], "client_encoding") ||
				  pb_sql_token_is(sql, &t[i], "names")))
		return PB_SQL_CLIENT_ENCODING;
	return PB_SQL_PLAIN;
}

/*
 * Split sql[0..len) into its statements, as a simple query's: fills out
 * with at most max of them (where each starts and ends, what it does to
 * the transaction, what it is) and returns how many there are, which may
 * be more than max.  Empty statements (";;") are left out.  A text with an
 * unterminated string or comment ends its last statement there.
 */
int
pb_sql_split(const char *sql, size_t len, PbSqlStatement *out, int max)
{
	PbSqlScanner scanner;
	PbSqlToken	token;
	PbSqlToken	previous = {PB_TOK_END, 0, 0};
	int			count = 0;
	bool		in_statement = false;
	bool		atomic = false;
	size_t		start = 0;
	size_t		end = 0;

	pb_sql_scan_init(&scanner, sql, len);
	for (;;)
	{
		PbSqlTokenKind kind = pb_sql_scan(&scanner, &token);
		bool		last = kind == PB_TOK_END;
		bool		semicolon = kind == PB_TOK_SELF && sql[token.start] == ';';

		/* BEGIN ATOMIC: a function body, whose semicolons are its own */
		if (pb_sql_token_is(sql, &token, "atomic") &&
			pb_sql_token_is(sql, &previous, "begin"))
			atomic = true;
		if (kind == PB_TOK_ERROR)
		{
			end = token.start + token.len;
			in_statement = true;
			last = true;
		}
		if ((last || (semicolon && !atomic)) && in_statement)
		{
			if (count < max)
			{
				out[count].start = start;
				out[count].end = end;
				out[count].txn = pb_sql_txn(sql + start, end - start);
				out[count].kind = pb_sql_kind(sql + start, end - start);
			}
			count++;
			in_statement = false;
		}
		if (last)
			break;
		if (!semicolon || atomic)
		{
			if (!in_statement)
				start = token.start;
			in_statement = true;
			end = token.start + token.len;
		}
		previous = token;
	}
	return count;
}

/* Whether sql[0..len) refers to a parameter ($1) outside its strings. */
bool
pb_sql_has_params(const char *sql, size_t len)
{
	PbSqlScanner scanner;
	PbSqlToken	token;
	PbSqlTokenKind kind;

	pb_sql_scan_init(&scanner, sql, len);
	while ((kind = pb_sql_scan(&scanner, &token)) != PB_TOK_END &&
		   kind != PB_TOK_ERROR)
	{
		if (kind == PB_TOK_PARAM)
			return true;
	}
	return false;
}
