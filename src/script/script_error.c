/*-------------------------------------------------------------------------
 *
 * script_error.c
 *	  How the script library reports what went wrong: a PbError filled with
 *	  the error's kind, pgbench's message, the line and the offending text;
 *	  and the one string helper the other files share.
 *
 *-------------------------------------------------------------------------
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_script_int.h"

/*
 * Fill err with the error's kind, a formatted message, a line number and an
 * optional detail (the offending text).  err may be NULL when the caller
 * does not care.
 */
void
pb_error_set(PbError *err, PbErrorKind kind, int line, const char *detail,
			 const char *fmt,...)
{
	va_list		ap;

	if (err == NULL)
		return;
	err->kind = kind;
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
		pb_error_set(err, PB_ERROR_SYNTAX, line, detail, "%s (%s)%s", msg, more,
					 cmdbuf);
	else
		pb_error_set(err, PB_ERROR_SYNTAX, line, detail, "%s%s", msg, cmdbuf);
}

/*
 * Report an allocation failure; kept apart so that every caller says the
 * same thing.
 */
void
pb_error_oom(PbError *err, int line)
{
	pb_error_set(err, PB_ERROR_OUT_OF_MEMORY, line, NULL, "out of memory");
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
