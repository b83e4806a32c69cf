/*-------------------------------------------------------------------------
 *
 * script_parse.c
 *	  Split a pgbench script into commands, as pgbench 15-17 does.
 *
 * SQL commands may span lines and end with a semicolon outside quotes,
 * comments, parentheses and CREATE FUNCTION ... BEGIN ATOMIC bodies (the
 * rules of psql's lexer, which pgbench uses).  A backslash starts a
 * meta-command, which ends at the end of its line unless the line ends
 * with a backslash; it also ends the SQL command before it, and \gset and
 * \aset attach to that command.  "\;" and "\:" put a literal ";" or ":"
 * into the SQL text.
 *
 * In SQL text, each :name becomes a parameter $n, as pgbench's -M
 * extended/prepared modes do; "::" is a cast.  Unlike pgbench, names
 * inside quoted strings, quoted identifiers, dollar quotes and comments
 * are left alone (pgbench would substitute them), and a name used twice
 * is bound to the same $n.
 *
 * Conditionals are checked and resolved to jump targets here, so that
 * running a script needs no stack.
 *
 *-------------------------------------------------------------------------
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pb_script_int.h"

/* at most this many parameters in one SQL command, as pgbench */
#define PB_MAX_SQL_PARAMS	255

/* at most this many words in one meta-command, as pgbench's MAX_ARGS */
#define PB_MAX_META_ARGS	256

/* A growable string */
typedef struct StrBuf
{
	char	   *data;
	size_t		len;
	size_t		cap;
	bool		oom;
} StrBuf;

/* One word of a meta-command */
typedef struct Word
{
	size_t		start;			/* offset in the script text */
	size_t		len;
} Word;

/* State of parsing one script */
typedef struct ScriptParser
{
	PbScriptSet *set;
	const char *text;
	size_t		len;
	size_t		pos;
	int			line;			/* line of text[pos] */
	const char *name;
	PbError    *err;

	PbCommand  *cmds;
	int			ncmds;
	int			cap;

	/* the SQL command being collected */
	StrBuf		sqltext;		/* as written */
	StrBuf		sqlparam;		/* with $n for each :name */
	int		   *params;
	int			nparams;
	int			sqlline;		/* line of its first significant char */
	bool		sql_has_content;	/* more than white space and comments */
	int			paren_depth;
	int			begin_depth;
	int			identifier_count;
	char		identifiers[4];
} ScriptParser;

/*
 * Append len bytes to a string; on allocation failure the buffer is marked
 * and further appends are ignored.
 */
static void
sb_append(StrBuf *sb, const char *s, size_t len)
{
	if (sb->oom)
		return;
	if (sb->len + len + 1 > sb->cap)
	{
		size_t		newcap = sb->cap ? sb->cap : 64;
		char	   *nd;

		while (newcap < sb->len + len + 1)
			newcap *= 2;
		nd = realloc(sb->data, newcap);
		if (nd == NULL)
		{
			sb->oom = true;
			return;
		}
		sb->data = nd;
		sb->cap = newcap;
	}
	memcpy(sb->data + sb->len, s, len);
	sb->len += len;
	sb->data[sb->len] = '\0';
}

/* Empty a string, keeping its memory */
static void
sb_reset(StrBuf *sb)
{
	sb->len = 0;
	if (sb->data)
		sb->data[0] = '\0';
}

/*
 * malloc'd copy of a string without its trailing white space; NULL when
 * out of memory.
 */
static char *
trimmed_copy(const char *s, size_t len)
{
	while (len > 0 && isspace((unsigned char) s[len - 1]))
		len--;
	return pb_strndup(s, len);
}

/* Identifier characters of the SQL lexer */
static inline bool
ident_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
		c >= 0x80;
}

/* A character that may continue an SQL identifier (which includes $). */
static inline bool
ident_cont(unsigned char c)
{
	return ident_start(c) || (c >= '0' && c <= '9') || c == '$';
}

/* Characters of a pgbench variable name (no '$', unlike identifiers) */
static inline bool
var_cont(unsigned char c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

/*
 * Add a zeroed command to the script and return it, or NULL when out of
 * memory.
 */
static PbCommand *
new_command(ScriptParser *sp, PbCommandKind kind, int line)
{
	PbCommand  *cmd;

	if (sp->ncmds == sp->cap)
	{
		int			newcap = sp->cap ? sp->cap * 2 : 16;
		PbCommand  *nc = realloc(sp->cmds, newcap * sizeof(PbCommand));

		if (nc == NULL)
		{
			pb_error_oom(sp->err, line);
			return NULL;
		}
		sp->cmds = nc;
		sp->cap = newcap;
	}
	cmd = &sp->cmds[sp->ncmds++];
	memset(cmd, 0, sizeof(*cmd));
	cmd->kind = kind;
	cmd->line = line;
	cmd->set_var = -1;
	cmd->sleep_var = -1;
	cmd->false_target = -1;
	cmd->endif_target = -1;
	return cmd;
}

/*
 * Skip white space and comments at the start of SQL text; returns the
 * first significant character.
 */
static const char *
skip_sql_space(const char *p)
{
	for (;;)
	{
		if (isspace((unsigned char) *p))
			p++;
		else if (p[0] == '-' && p[1] == '-')
		{
			while (*p && *p != '\n')
				p++;
		}
		else if (p[0] == '/' && p[1] == '*')
		{
			int			depth = 1;

			p += 2;
			while (*p && depth > 0)
			{
				if (p[0] == '/' && p[1] == '*')
				{
					depth++;
					p += 2;
				}
				else if (p[0] == '*' && p[1] == '/')
				{
					depth--;
					p += 2;
				}
				else
					p++;
			}
		}
		else
			return p;
	}
}

/*
 * If p starts with keyword kw (case-insensitively, as a whole word),
 * return the position after it and any following space and comments;
 * NULL otherwise.
 */
static const char *
match_keyword(const char *p, const char *kw)
{
	size_t		len = strlen(kw);

	if (strncasecmp(p, kw, len) != 0 || ident_cont((unsigned char) p[len]))
		return NULL;
	return skip_sql_space(p + len);
}

/*
 * How an SQL command bears on the transaction, from its first keywords.
 * COMMIT/ROLLBACK PREPARED and ROLLBACK TO a savepoint do not end the
 * current transaction, so they are ordinary statements here.
 */
static PbTxnControl
classify_txn(const char *sql)
{
	const char *p = skip_sql_space(sql);
	const char *q;

	if (match_keyword(p, "begin"))
		return PB_TXN_BEGIN;
	if ((q = match_keyword(p, "start")) != NULL && match_keyword(q, "transaction"))
		return PB_TXN_BEGIN;
	if (match_keyword(p, "end"))
		return PB_TXN_COMMIT;
	if ((q = match_keyword(p, "commit")) != NULL)
		return match_keyword(q, "prepared") ? PB_TXN_NONE : PB_TXN_COMMIT;
	if ((q = match_keyword(p, "rollback")) != NULL ||
		(q = match_keyword(p, "abort")) != NULL)
	{
		const char *r;

		if (match_keyword(q, "prepared"))
			return PB_TXN_NONE;
		if ((r = match_keyword(q, "work")) != NULL ||
			(r = match_keyword(q, "transaction")) != NULL)
			q = r;
		if (match_keyword(q, "to"))
			return PB_TXN_NONE;
		return PB_TXN_ROLLBACK;
	}
	return PB_TXN_NONE;
}

/* Forget the SQL command being collected */
static void
reset_sql(ScriptParser *sp)
{
	sb_reset(&sp->sqltext);
	sb_reset(&sp->sqlparam);
	sp->nparams = 0;
	sp->sql_has_content = false;
	sp->paren_depth = 0;
	sp->begin_depth = 0;
	sp->identifier_count = 0;
}

/*
 * Turn the collected SQL text into a command, unless it is empty (white
 * space and comments only).  False on failure (out of memory).
 */
static bool
finish_sql(ScriptParser *sp)
{
	PbCommand  *cmd;

	if (sp->sqltext.oom || sp->sqlparam.oom)
	{
		pb_error_oom(sp->err, sp->sqlline);
		return false;
	}
	if (!sp->sql_has_content)
	{
		reset_sql(sp);
		return true;
	}

	cmd = new_command(sp, PB_CMD_SQL, sp->sqlline);
	if (cmd == NULL)
		return false;
	cmd->text = trimmed_copy(sp->sqltext.data, sp->sqltext.len);
	cmd->sql = trimmed_copy(sp->sqlparam.data, sp->sqlparam.len);
	cmd->result_prefix = strdup("");
	cmd->nparams = sp->nparams;
	if (sp->nparams > 0)
	{
		cmd->param_vars = malloc(sp->nparams * sizeof(int));
		if (cmd->param_vars != NULL)
			memcpy(cmd->param_vars, sp->params, sp->nparams * sizeof(int));
	}
	if (cmd->text == NULL || cmd->sql == NULL || cmd->result_prefix == NULL ||
		(sp->nparams > 0 && cmd->param_vars == NULL))
	{
		pb_error_oom(sp->err, sp->sqlline);
		return false;
	}
	cmd->txn = classify_txn(cmd->text);
	reset_sql(sp);
	return true;
}

/*
 * Append text[start, end) to both forms of the SQL command, noting where
 * the command starts.
 */
static void
emit(ScriptParser *sp, size_t start, size_t end, bool significant)
{
	if (sp->sqltext.len == 0)
		sp->sqlline = sp->line;
	if (significant)
		sp->sql_has_content = true;
	sb_append(&sp->sqltext, sp->text + start, end - start);
	sb_append(&sp->sqlparam, sp->text + start, end - start);
}

/*
 * Advance over text[pos, to), counting newlines.
 */
static void
advance_to(ScriptParser *sp, size_t to)
{
	size_t		i;

	for (i = sp->pos; i < to; i++)
	{
		if (sp->text[i] == '\n')
			sp->line++;
	}
	sp->pos = to;
}

/*
 * Emit and skip text[pos, to).
 */
static void
emit_to(ScriptParser *sp, size_t to, bool significant)
{
	emit(sp, sp->pos, to, significant);
	advance_to(sp, to);
}

/*
 * End of a quoted string or identifier starting at pos (the opening
 * quote); a doubled quote is an escaped one, and in E'' strings a
 * backslash escapes the next character.  Unterminated: end of text.
 */
static size_t
quoted_end(const ScriptParser *sp, size_t pos, char quote, bool backslash)
{
	size_t		i = pos + 1;

	while (i < sp->len)
	{
		char		c = sp->text[i];

		if (backslash && c == '\\' && i + 1 < sp->len)
			i += 2;
		else if (c == quote)
		{
			if (i + 1 < sp->len && sp->text[i + 1] == quote)
				i += 2;
			else
				return i + 1;
		}
		else
			i++;
	}
	return sp->len;
}

/*
 * Length of a dollar-quote delimiter ($$ or $tag$) at pos, 0 if none.
 */
static size_t
dollar_tag_len(const ScriptParser *sp, size_t pos)
{
	size_t		i = pos + 1;

	if (i < sp->len && ident_start((unsigned char) sp->text[i]))
	{
		i++;
		while (i < sp->len && var_cont((unsigned char) sp->text[i]))
			i++;
	}
	if (i < sp->len && sp->text[i] == '$')
		return i + 1 - pos;
	return 0;
}

/*
 * End of a dollar-quoted string whose delimiter (taglen bytes) is at pos.
 */
static size_t
dollar_end(const ScriptParser *sp, size_t pos, size_t taglen)
{
	size_t		i = pos + taglen;

	while (i + taglen <= sp->len)
	{
		if (sp->text[i] == '$' &&
			memcmp(sp->text + i, sp->text + pos, taglen) == 0)
			return i + taglen;
		i++;
	}
	return sp->len;
}

/*
 * End of a (possibly nested) slash-star comment starting at pos.
 */
static size_t
block_comment_end(const ScriptParser *sp, size_t pos)
{
	size_t		i = pos + 2;
	int			depth = 1;

	while (i < sp->len)
	{
		if (sp->text[i] == '/' && i + 1 < sp->len && sp->text[i + 1] == '*')
		{
			depth++;
			i += 2;
		}
		else if (sp->text[i] == '*' && i + 1 < sp->len && sp->text[i + 1] == '/')
		{
			i += 2;
			if (--depth == 0)
				return i;
		}
		else
			i++;
	}
	return sp->len;
}

/*
 * Track identifiers as psql's lexer does, to know when a semicolon is
 * inside the BEGIN ATOMIC ... END body of CREATE [OR REPLACE] FUNCTION or
 * PROCEDURE and so does not end the command.
 */
static void
track_identifier(ScriptParser *sp, const char *word, size_t len)
{
	static const char *const tracked[] = {"create", "function", "procedure", "or", "replace"};
	size_t		i;
	char	   *ids = sp->identifiers;

	if (sp->identifier_count == 0)
		memset(ids, 0, sizeof(sp->identifiers));

	for (i = 0; i < sizeof(tracked) / sizeof(tracked[0]); i++)
	{
		if (strlen(tracked[i]) == len && strncasecmp(word, tracked[i], len) == 0)
		{
			if (sp->identifier_count < (int) sizeof(sp->identifiers))
				ids[sp->identifier_count] = tracked[i][0];
			break;
		}
	}
	if (sp->identifier_count < INT_MAX)
		sp->identifier_count++;

	if (ids[0] == 'c' &&
		(ids[1] == 'f' || ids[1] == 'p' ||
		 (ids[1] == 'o' && ids[2] == 'r' && (ids[3] == 'f' || ids[3] == 'p'))) &&
		sp->paren_depth == 0)
	{
		if (len == 5 && strncasecmp(word, "begin", 5) == 0)
			sp->begin_depth++;
		else if (len == 4 && strncasecmp(word, "case", 4) == 0)
		{
			/* CASE also ends with END, which only matters inside BEGIN */
			if (sp->begin_depth >= 1)
				sp->begin_depth++;
		}
		else if (len == 3 && strncasecmp(word, "end", 3) == 0)
		{
			if (sp->begin_depth > 0)
				sp->begin_depth--;
		}
	}
}

/*
 * A :name at pos (pos is the colon, a name character follows): bind it to
 * a parameter, reusing the number of an earlier use in the same command.
 */
static bool
substitute_variable(ScriptParser *sp)
{
	size_t		start = sp->pos + 1;
	size_t		end = start;
	char	   *name;
	int			id;
	int			i;
	int			n = -1;
	char		pbuf[16];

	while (end < sp->len && var_cont((unsigned char) sp->text[end]))
		end++;
	name = pb_strndup(sp->text + start, end - start);
	id = name ? pb_var_id(sp->set, name, true) : -1;
	free(name);
	if (id < 0)
	{
		pb_error_oom(sp->err, sp->line);
		return false;
	}

	for (i = 0; i < sp->nparams; i++)
	{
		if (sp->params[i] == id)
		{
			n = i + 1;
			break;
		}
	}
	if (n < 0)
	{
		if (sp->nparams >= PB_MAX_SQL_PARAMS)
		{
			char		detail[256];

			snprintf(detail, sizeof(detail), "%s", sp->sqltext.data ? sp->sqltext.data : "");
			pb_error_set(sp->err, PB_ERROR_SYNTAX, sp->sqlline, detail,
						 "statement has too many arguments (maximum is %d)",
						 PB_MAX_SQL_PARAMS);
			return false;
		}
		sp->params[sp->nparams++] = id;
		n = sp->nparams;
	}

	if (sp->sqltext.len == 0)
		sp->sqlline = sp->line;
	sp->sql_has_content = true;
	snprintf(pbuf, sizeof(pbuf), "$%d", n);
	sb_append(&sp->sqlparam, pbuf, strlen(pbuf));
	sb_append(&sp->sqltext, sp->text + sp->pos, end - sp->pos);
	sp->pos = end;
	return true;
}

/* ---- meta-commands ------------------------------------------------------- */

/*
 * Report a meta-command syntax error in pgbench's terms: message, the
 * optional "more" text in parentheses and the command name; the detail is
 * the command's line, with a caret under the column when it is known.
 */
static void
meta_error(ScriptParser *sp, int line, size_t cmd_offset, size_t end,
		   const char *cmdname, const char *msg, const char *more,
		   long column)
{
	pb_syntax_error(sp->err, line, sp->text + cmd_offset, end - cmd_offset,
					msg, more, cmdname, column);
}

/*
 * Collect the words of a meta-command in text[from, end): runs of
 * non-space characters, split by line continuations.  Returns the number
 * of words stored, at most maxwords; *overflow tells whether there were
 * more (which only matters for commands that take words, not for the
 * expressions of \set and \if).
 */
static int
split_words(const ScriptParser *sp, size_t from, size_t end, Word *words,
			int maxwords, bool *overflow)
{
	size_t		i = from;
	int			n = 0;

	*overflow = false;
	for (;;)
	{
		size_t		start;

		/* skip spaces and continuations */
		while (i < end)
		{
			char		c = sp->text[i];

			if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' ||
				c == '\n')
				i++;
			else if (c == '\\' && i + 1 < end && sp->text[i + 1] == '\n')
				i += 2;
			else if (c == '\\' && i + 2 < end && sp->text[i + 1] == '\r' &&
					 sp->text[i + 2] == '\n')
				i += 3;
			else
				break;
		}
		if (i >= end)
			return n;

		start = i;
		while (i < end)
		{
			char		c = sp->text[i];

			if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' ||
				c == '\n')
				break;
			/* a continuation ends the word */
			if (c == '\\' && i + 1 < end &&
				(sp->text[i + 1] == '\n' ||
				 (i + 2 < end && sp->text[i + 1] == '\r' && sp->text[i + 2] == '\n')))
				break;
			i++;
		}
		if (n >= maxwords)
		{
			*overflow = true;
			return n;
		}
		words[n].start = start;
		words[n].len = i - start;
		n++;
	}
}

/* Whether word w is s, case-insensitively */
static bool
word_is(const ScriptParser *sp, const Word *w, const char *s)
{
	return strlen(s) == w->len && strncasecmp(sp->text + w->start, s, w->len) == 0;
}

/*
 * Report msg about the \sleep command's time argument, words[1]; returns
 * false.
 */
static bool
sleep_time_error(ScriptParser *sp, PbCommand *cmd, Word *words,
				 size_t cmd_offset, size_t end, const char *cmdname,
				 const char *msg)
{
	char		more[128];

	snprintf(more, sizeof(more), "%.*s", (int) words[1].len,
			 sp->text + words[1].start);
	meta_error(sp, cmd->line, cmd_offset, end, cmdname, msg, more,
			   (long) (words[1].start - cmd_offset));
	return false;
}

/*
 * Parse the \sleep arguments (words[1..nwords-1]) into cmd, with pgbench's
 * checks: an integer or a :variable, then an optional unit, which may also
 * be glued to the number ("10ms").
 */
static bool
parse_sleep(ScriptParser *sp, PbCommand *cmd, Word *words, int nwords,
			size_t cmd_offset, size_t end, const char *cmdname)
{
	const char *arg;
	size_t		arglen;
	size_t		unit_start = 0;
	size_t		unit_len = 0;
	bool		has_unit = false;

	if (nwords < 2)
	{
		meta_error(sp, cmd->line, cmd_offset, end, cmdname, "missing argument", NULL, -1);
		return false;
	}
	if (nwords > 3)
	{
		meta_error(sp, cmd->line, cmd_offset, end, cmdname, "too many arguments", NULL,
				   (long) (words[3].start - cmd_offset));
		return false;
	}

	arg = sp->text + words[1].start;
	arglen = words[1].len;

	if (arg[0] == ':')
	{
		char	   *name = pb_strndup(arg + 1, arglen - 1);

		cmd->sleep_var = name ? pb_var_id(sp->set, name, true) : -1;
		free(name);
		if (cmd->sleep_var < 0)
		{
			pb_error_oom(sp->err, cmd->line);
			return false;
		}
	}
	else
	{
		size_t		i = 0;
		bool		neg = false;
		bool		have_digit = false;
		int64_t		value = 0;

		if (arglen > 0 && (arg[0] == '+' || arg[0] == '-'))
		{
			neg = arg[0] == '-';
			i++;
		}
		while (i < arglen && isdigit((unsigned char) arg[i]))
		{
			have_digit = true;
			/* atoi() would overflow silently: an error, as every overflow */
			if (value > (PB_MAX_SLEEP_US - (arg[i] - '0')) / 10)
				return sleep_time_error(sp, cmd, words, cmd_offset, end,
										cmdname, "sleep time out of range");
			value = value * 10 + (arg[i] - '0');
			i++;
		}
		if (i < arglen)
		{
			if (nwords == 2 && have_digit)
			{
				unit_start = words[1].start + i;
				unit_len = arglen - i;
				has_unit = true;
			}
			else
				return sleep_time_error(sp, cmd, words, cmd_offset, end, cmdname,
										"invalid sleep time, must be an integer");
		}
		cmd->sleep_value = neg ? -value : value;
	}

	if (nwords == 3)
	{
		unit_start = words[2].start;
		unit_len = words[2].len;
		has_unit = true;
	}

	cmd->sleep_unit_us = 1000000;
	if (has_unit)
	{
		Word		u;

		u.start = unit_start;
		u.len = unit_len;
		if (word_is(sp, &u, "us"))
			cmd->sleep_unit_us = 1;
		else if (word_is(sp, &u, "ms"))
			cmd->sleep_unit_us = 1000;
		else if (word_is(sp, &u, "s"))
			cmd->sleep_unit_us = 1000000;
		else
		{
			char		more[128];

			snprintf(more, sizeof(more), "%.*s", (int) unit_len, sp->text + unit_start);
			meta_error(sp, cmd->line, cmd_offset, end, cmdname,
					   "unrecognized time unit, must be us, ms or s", more,
					   (long) (unit_start - cmd_offset));
			return false;
		}
	}
	if (cmd->sleep_var < 0 &&
		(cmd->sleep_value > PB_MAX_SLEEP_US / cmd->sleep_unit_us ||
		 cmd->sleep_value < -(PB_MAX_SLEEP_US / cmd->sleep_unit_us)))
		return sleep_time_error(sp, cmd, words, cmd_offset, end, cmdname,
								"sleep time out of range");
	return true;
}

/*
 * Attach a \gset or \aset to the preceding command, which must be SQL
 * without one already, as pgbench does.
 */
static bool
attach_result_target(ScriptParser *sp, PbResultTarget target, Word *words,
					 int nwords, int line, size_t cmd_offset, size_t end,
					 const char *cmdname)
{
	PbCommand  *prev;
	char	   *prefix;

	if (nwords > 2)
	{
		meta_error(sp, line, cmd_offset, end, cmdname, "too many arguments", NULL, -1);
		return false;
	}
	prev = sp->ncmds > 0 ? &sp->cmds[sp->ncmds - 1] : NULL;
	if (prev == NULL || prev->kind != PB_CMD_SQL ||
		prev->result_target != PB_RESULT_NONE)
	{
		pb_error_set(sp->err, PB_ERROR_SYNTAX, line, prev ? prev->text : NULL,
					 "\\gset must follow an SQL command");
		return false;
	}
	prefix = nwords == 2 ? pb_strndup(sp->text + words[1].start, words[1].len)
		: strdup("");
	if (prefix == NULL)
	{
		pb_error_oom(sp->err, line);
		return false;
	}
	free(prev->result_prefix);
	prev->result_prefix = prefix;
	prev->result_target = target;
	sp->set->has_result_targets = true;
	return true;
}

/*
 * Parse the meta-command whose backslash is at sp->pos, up to the end of
 * its line (continuations included), and advance past it.
 */
static bool
parse_meta(ScriptParser *sp)
{
	size_t		cmd_offset = sp->pos;
	int			line = sp->line;
	size_t		end = cmd_offset + 1;
	Word		words[PB_MAX_META_ARGS];
	int			nwords;
	char		cmdname[64];
	PbCommand  *cmd = NULL;
	bool		ok = false;
	bool		overflow;

	/* find the end of the command: a newline not escaped by a backslash */
	while (end < sp->len && sp->text[end] != '\n')
	{
		if (sp->text[end] == '\\' && end + 1 < sp->len && sp->text[end + 1] == '\n')
			end += 2;
		else if (sp->text[end] == '\\' && end + 2 < sp->len &&
				 sp->text[end + 1] == '\r' && sp->text[end + 2] == '\n')
			end += 3;
		else
			end++;
	}

	nwords = split_words(sp, cmd_offset + 1, end, words, PB_MAX_META_ARGS,
						 &overflow);
	if (nwords == 0)
	{
		/* a lone backslash: nothing, as in pgbench */
		ok = true;
		goto done;
	}
	snprintf(cmdname, sizeof(cmdname), "%.*s",
			 (int) words[0].len, sp->text + words[0].start);
	if (overflow && !word_is(sp, &words[0], "set") &&
		!word_is(sp, &words[0], "if") && !word_is(sp, &words[0], "elif"))
	{
		meta_error(sp, line, cmd_offset, end, cmdname, "too many arguments", NULL, -1);
		goto done;
	}

	if (word_is(sp, &words[0], "set") || word_is(sp, &words[0], "if") ||
		word_is(sp, &words[0], "elif"))
	{
		PbCommandKind kind = word_is(sp, &words[0], "set") ? PB_CMD_SET :
			word_is(sp, &words[0], "if") ? PB_CMD_IF : PB_CMD_ELIF;
		size_t		expr_start = words[0].start + words[0].len;

		cmd = new_command(sp, kind, line);
		if (cmd == NULL)
			goto done;
		if (kind == PB_CMD_SET)
		{
			char	   *name;

			if (nwords < 2)
			{
				meta_error(sp, line, cmd_offset, end, cmdname, "missing argument", NULL, -1);
				goto done;
			}
			name = pb_strndup(sp->text + words[1].start, words[1].len);
			if (name == NULL)
			{
				pb_error_oom(sp->err, line);
				goto done;
			}
			if (!pb_valid_variable_name(name))
			{
				meta_error(sp, line, cmd_offset, end, cmdname,
						   "invalid variable name", name,
						   (long) (words[1].start - cmd_offset));
				free(name);
				goto done;
			}
			cmd->set_var = pb_var_id(sp->set, name, true);
			free(name);
			if (cmd->set_var < 0)
			{
				pb_error_oom(sp->err, line);
				goto done;
			}
			expr_start = words[1].start + words[1].len;
		}
		cmd->expr = pb_expr_parse(sp->set, sp->text, expr_start, end,
								  cmd_offset, cmdname, line, sp->err);
		if (cmd->expr == NULL)
			goto done;
	}
	else if (word_is(sp, &words[0], "sleep"))
	{
		cmd = new_command(sp, PB_CMD_SLEEP, line);
		if (cmd == NULL ||
			!parse_sleep(sp, cmd, words, nwords, cmd_offset, end, cmdname))
			goto done;
	}
	else if (word_is(sp, &words[0], "else") || word_is(sp, &words[0], "endif") ||
			 word_is(sp, &words[0], "startpipeline") ||
			 word_is(sp, &words[0], "endpipeline") ||
			 word_is(sp, &words[0], "syncpipeline"))
	{
		PbCommandKind kind = word_is(sp, &words[0], "else") ? PB_CMD_ELSE :
			word_is(sp, &words[0], "endif") ? PB_CMD_ENDIF : PB_CMD_NOOP;

		if (nwords != 1)
		{
			meta_error(sp, line, cmd_offset, end, cmdname, "unexpected argument", NULL, -1);
			goto done;
		}
		cmd = new_command(sp, kind, line);
		if (cmd == NULL)
			goto done;
	}
	else if (word_is(sp, &words[0], "gset") || word_is(sp, &words[0], "aset"))
	{
		ok = attach_result_target(sp, word_is(sp, &words[0], "gset") ?
								  PB_RESULT_GSET : PB_RESULT_ASET,
								  words, nwords, line, cmd_offset, end, cmdname);
		goto done;
	}
	else if (word_is(sp, &words[0], "shell") || word_is(sp, &words[0], "setshell"))
	{
		meta_error(sp, line, cmd_offset, end, cmdname,
				   "shell commands are not supported inside the server", NULL, -1);
		goto done;
	}
	else
	{
		meta_error(sp, line, cmd_offset, end, cmdname, "invalid command", NULL, -1);
		goto done;
	}

	cmd->text = trimmed_copy(sp->text + cmd_offset, end - cmd_offset);
	if (cmd->text == NULL)
	{
		pb_error_oom(sp->err, line);
		goto done;
	}
	ok = true;

done:
	advance_to(sp, end < sp->len ? end + 1 : end);
	return ok;
}

/*
 * Check the nesting of \if, \elif, \else and \endif as pgbench's
 * CheckConditional() and compute the jump targets.  Each open \if keeps
 * the branch whose false target is still unknown, and a chain (through
 * endif_target, temporarily) of the \elif and \else commands that must
 * jump to the \endif.
 */
static bool
resolve_conditionals(ScriptParser *sp)
{
	typedef struct OpenIf
	{
		int			if_idx;
		int			pending;	/* IF/ELIF whose false_target is unknown */
		int			chain;		/* last ELIF/ELSE, chained by endif_target */
		bool		seen_else;
	} OpenIf;
	OpenIf	   *stack = NULL;
	int			depth = 0;
	int			cap = 0;
	int			i;
	bool		ok = false;

	for (i = 0; i < sp->ncmds; i++)
	{
		PbCommand  *cmd = &sp->cmds[i];
		OpenIf	   *top = depth > 0 ? &stack[depth - 1] : NULL;

		switch (cmd->kind)
		{
			case PB_CMD_IF:
				if (depth == cap)
				{
					int			newcap = cap ? cap * 2 : 8;
					OpenIf	   *ns = realloc(stack, newcap * sizeof(OpenIf));

					if (ns == NULL)
					{
						pb_error_oom(sp->err, cmd->line);
						goto done;
					}
					stack = ns;
					cap = newcap;
				}
				stack[depth].if_idx = i;
				stack[depth].pending = i;
				stack[depth].chain = -1;
				stack[depth].seen_else = false;
				depth++;
				break;

			case PB_CMD_ELIF:
			case PB_CMD_ELSE:
				{
					bool		is_elif = cmd->kind == PB_CMD_ELIF;

					if (top == NULL)
					{
						pb_error_set(sp->err, PB_ERROR_SYNTAX, cmd->line, cmd->text,
									 is_elif ? "\\elif without matching \\if" :
									 "\\else without matching \\if");
						goto done;
					}
					if (top->seen_else)
					{
						pb_error_set(sp->err, PB_ERROR_SYNTAX, cmd->line, cmd->text,
									 is_elif ? "\\elif after \\else" :
									 "\\else after \\else");
						goto done;
					}
					/* the previous condition, when false, comes here */
					sp->cmds[top->pending].false_target = is_elif ? i : i + 1;
					top->pending = is_elif ? i : -1;
					cmd->endif_target = top->chain;
					top->chain = i;
					if (!is_elif)
						top->seen_else = true;
				}
				break;

			case PB_CMD_ENDIF:
				{
					int			c;

					if (top == NULL)
					{
						pb_error_set(sp->err, PB_ERROR_SYNTAX, cmd->line, cmd->text,
									 "\\endif without matching \\if");
						goto done;
					}
					if (top->pending >= 0)
						sp->cmds[top->pending].false_target = i;
					c = top->chain;
					while (c >= 0)
					{
						int			prev = sp->cmds[c].endif_target;

						sp->cmds[c].endif_target = i;
						c = prev;
					}
					sp->cmds[top->if_idx].endif_target = i;
					depth--;
				}
				break;

			default:
				break;
		}
	}

	if (depth > 0)
	{
		PbCommand  *open = &sp->cmds[stack[depth - 1].if_idx];

		pb_error_set(sp->err, PB_ERROR_SYNTAX, open->line, open->text,
					 "\\if without matching \\endif");
		goto done;
	}
	ok = true;

done:
	free(stack);
	return ok;
}

/*
 * Split the script text into commands.
 */
static bool
split_script(ScriptParser *sp)
{
	while (sp->pos < sp->len)
	{
		unsigned char c = (unsigned char) sp->text[sp->pos];
		unsigned char c1 = sp->pos + 1 < sp->len ? (unsigned char) sp->text[sp->pos + 1] : 0;

		if (c == '-' && c1 == '-')
		{
			/* a comment to the end of the line; dropped before the command */
			size_t		e = sp->pos;

			while (e < sp->len && sp->text[e] != '\n')
				e++;
			if (sp->sqltext.len > 0)
				emit_to(sp, e, false);
			else
				advance_to(sp, e);
		}
		else if (c == '/' && c1 == '*')
			emit_to(sp, block_comment_end(sp, sp->pos), false);
		else if (c == '\'')
			emit_to(sp, quoted_end(sp, sp->pos, '\'', false), true);
		else if (c == '"')
			emit_to(sp, quoted_end(sp, sp->pos, '"', false), true);
		else if (c == '$')
		{
			size_t		taglen = dollar_tag_len(sp, sp->pos);

			if (taglen > 0)
				emit_to(sp, dollar_end(sp, sp->pos, taglen), true);
			else
			{
				/* a lone $ or a parameter $n */
				size_t		e = sp->pos + 1;

				while (e < sp->len && isdigit((unsigned char) sp->text[e]))
					e++;
				emit_to(sp, e, true);
			}
		}
		else if (ident_start(c))
		{
			size_t		s = sp->pos;
			size_t		e = s + 1;

			while (e < sp->len && ident_cont((unsigned char) sp->text[e]))
				e++;
			track_identifier(sp, sp->text + s, e - s);
			emit_to(sp, e, true);
			/* E'...' strings take backslash escapes */
			if (e - s == 1 && (c == 'e' || c == 'E') &&
				sp->pos < sp->len && sp->text[sp->pos] == '\'')
				emit_to(sp, quoted_end(sp, sp->pos, '\'', true), true);
		}
		else if (isdigit(c))
		{
			size_t		e = sp->pos + 1;

			while (e < sp->len && (isalnum((unsigned char) sp->text[e]) ||
								   sp->text[e] == '.' || sp->text[e] == '_'))
				e++;
			emit_to(sp, e, true);
		}
		else if (c == '(')
		{
			sp->paren_depth++;
			emit_to(sp, sp->pos + 1, true);
		}
		else if (c == ')')
		{
			if (sp->paren_depth > 0)
				sp->paren_depth--;
			emit_to(sp, sp->pos + 1, true);
		}
		else if (c == ';')
		{
			/* a bare ";" is an empty statement, skipped */
			emit_to(sp, sp->pos + 1, false);
			if (sp->paren_depth == 0 && sp->begin_depth == 0)
			{
				if (!finish_sql(sp))
					return false;
			}
		}
		else if (c == ':')
		{
			if (c1 == ':')
			{
				size_t		e = sp->pos;

				while (e < sp->len && sp->text[e] == ':')
					e++;
				emit_to(sp, e, true);
			}
			else if (ident_start(c1))
			{
				if (!substitute_variable(sp))
					return false;
			}
			else
				emit_to(sp, sp->pos + 1, true);
		}
		else if (c == '\\')
		{
			if (c1 == ';' || c1 == ':')
			{
				/*
				 * "\;" and "\:" put the bare character in the command; a
				 * "\;" alone does not make a command.
				 */
				emit(sp, sp->pos + 1, sp->pos + 2, c1 == ':');
				advance_to(sp, sp->pos + 2);
				if (c1 == ';')
					sp->identifier_count = 0;
			}
			else
			{
				/* a backslash command ends the SQL command before it */
				if (!finish_sql(sp) || !parse_meta(sp))
					return false;
			}
		}
		else if (isspace(c))
		{
			if (sp->sqltext.len > 0)
				emit_to(sp, sp->pos + 1, false);
			else
				advance_to(sp, sp->pos + 1);
		}
		else
			emit_to(sp, sp->pos + 1, true);
	}
	return finish_sql(sp);
}

/*
 * Release commands parsed so far (on failure).
 */
static void
free_commands(PbCommand *cmds, int ncmds)
{
	int			i;

	for (i = 0; i < ncmds; i++)
	{
		free(cmds[i].text);
		free(cmds[i].sql);
		free(cmds[i].param_vars);
		free(cmds[i].result_prefix);
		pb_expr_free(cmds[i].expr);
	}
	free(cmds);
}

/*
 * Parse one script's text and add it to the set with the given weight.
 * On failure the set is left as it was (no script, no new variables) and
 * err tells what and where.
 */
bool
pb_script_parse(PbScriptSet *set, const char *name, const char *text,
				int weight, PbError *err)
{
	ScriptParser sp;
	int			old_nvars = set->nvars;
	bool		old_has_results = set->has_result_targets;
	PbScript   *scripts;
	PbScript   *script;
	char		namebuf[32];
	int			i;
	bool		ok = false;

	memset(&sp, 0, sizeof(sp));
	if (err != NULL)
		memset(err, 0, sizeof(*err));

	if (weight < 0)
	{
		pb_error_set(err, PB_ERROR_INVALID_ARGUMENT, 0, NULL, "weight specification out of range (0 .. %d): %d",
					 INT_MAX, weight);
		return false;
	}
	if (set->nscripts >= PB_MAX_SCRIPTS)
	{
		pb_error_set(err, PB_ERROR_INVALID_ARGUMENT, 0, NULL, "at most %d SQL scripts are allowed",
					 PB_MAX_SCRIPTS);
		return false;
	}
	if (name == NULL)
	{
		snprintf(namebuf, sizeof(namebuf), "script %d", set->nscripts);
		name = namebuf;
	}

	sp.set = set;
	sp.text = text;
	sp.len = strlen(text);
	sp.line = 1;
	sp.name = name;
	sp.err = err;
	sp.params = malloc(PB_MAX_SQL_PARAMS * sizeof(int));
	if (sp.params == NULL)
	{
		pb_error_oom(err, 0);
		return false;
	}

	if (!split_script(&sp) || !resolve_conditionals(&sp))
		goto done;

	if (sp.ncmds == 0)
	{
		pb_error_set(err, PB_ERROR_SYNTAX, 0, NULL, "empty command list for script \"%s\"", name);
		goto done;
	}

	scripts = realloc(set->scripts, (set->nscripts + 1) * sizeof(PbScript));
	if (scripts == NULL)
	{
		pb_error_oom(err, 0);
		goto done;
	}
	set->scripts = scripts;
	script = &set->scripts[set->nscripts];
	memset(script, 0, sizeof(*script));
	script->name = strdup(name);
	if (script->name == NULL)
	{
		pb_error_oom(err, 0);
		goto done;
	}
	script->weight = weight;
	script->ncommands = sp.ncmds;
	script->commands = sp.cmds;
	sp.cmds = NULL;
	set->nscripts++;
	set->total_weight += weight;

	/* only now that the script is in can its \set targets count */
	for (i = 0; i < script->ncommands; i++)
	{
		if (script->commands[i].kind == PB_CMD_SET)
			set->var_assigned[script->commands[i].set_var] = true;
	}
	ok = true;

done:
	if (!ok)
	{
		free_commands(sp.cmds, sp.ncmds);
		for (i = old_nvars; i < set->nvars; i++)
			free(set->var_names[i]);
		set->nvars = old_nvars;
		set->has_result_targets = old_has_results;
	}
	free(sp.params);
	free(sp.sqltext.data);
	free(sp.sqlparam.data);
	return ok;
}
