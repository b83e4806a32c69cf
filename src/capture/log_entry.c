/*-------------------------------------------------------------------------
 *
 * log_entry.c
 *	  Reading a server log's entries from its raw text, fed piece by piece:
 *	  csvlog's records, or stderr's lines with log_line_prefix =
 *	  '%m|%u|%d|%c|'.
 *
 * stderr writes a message's further lines after a newline and a tab, and
 * what goes with the message (DETAIL, CONTEXT, STATEMENT, ...) as entries
 * of their own that follow it, with the same prefix: an entry is complete
 * once the line after it is seen to start neither with a tab nor with one
 * of those.  It also holds what processes write to stderr themselves: the
 * memory context dumps of pg_log_backend_memory_contexts() and of an out
 * of memory (lines beginning "TopMemoryContext: ", "Grand total: " or a
 * space) are passed over, as pgreplay does; any other line that does not
 * start with the prefix is an error, which names it.  csvlog's records
 * hold all of a message in their columns, quoted, newlines included; the
 * columns from PostgreSQL 13's 23 to 15's 26 are read; an error's position,
 * a column of its own, is added to its message as stderr writes it.
 *
 * Backend-free: see pb_capture.h.
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_capture_int.h"

/* csvlog's columns that a capture reads, and how many a record has at least */
#define CSV_TIME			0
#define CSV_USER			1
#define CSV_DATABASE		2
#define CSV_SESSION			5
#define CSV_COMMAND_TAG		7
#define CSV_SEVERITY		11
#define CSV_SQLSTATE		12
#define CSV_MESSAGE			13
#define CSV_DETAIL			14
#define CSV_CONTEXT			18
#define CSV_QUERY			19
#define CSV_QUERY_POS		20
#define CSV_APPLICATION		22
#define CSV_MIN_COLUMNS		23
#define CSV_MAX_COLUMNS		32

struct PbLogReader
{
	PbLogFormat format;			/* PB_LOG_AUTO until the first line */
	PbLogEntryFn fn;
	void	   *arg;
	char	   *buf;			/* input not yet made into entries */
	size_t		len;
	size_t		cap;
	size_t		scan;			/* csvlog: how far the quotes are followed */
	bool		in_quotes;		/* csvlog: inside quotes at scan */
	long		lines;			/* lines consumed */
	PbLogEntry	held;			/* stderr: the entry whose lines may follow */
	bool		has_held;
	PbLogEntry	next;			/* stderr: the entry just read */
	PbLogField	text;			/* stderr: an entry's lines, tabs removed */
};

/* Set a field to s[0..len); false when memory runs out. */
bool
pb_log_field_set(PbLogField *field, const char *s, size_t len)
{
	field->len = 0;
	if (field->s == NULL)
	{
		field->s = malloc(16);
		if (field->s == NULL)
			return false;
		field->cap = 16;
	}
	field->s[0] = '\0';
	return pb_log_field_append(field, s, len);
}

/* Append s[0..len) to a field; false when memory runs out. */
bool
pb_log_field_append(PbLogField *field, const char *s, size_t len)
{
	if (field->len + len + 1 > field->cap)
	{
		size_t		cap = field->cap < 16 ? 16 : field->cap;
		char	   *p;

		while (cap < field->len + len + 1)
			cap *= 2;
		p = realloc(field->s, cap);
		if (p == NULL)
			return false;
		field->s = p;
		field->cap = cap;
	}
	memcpy(field->s + field->len, s, len);
	field->len += len;
	field->s[field->len] = '\0';
	return true;
}

/* Empty every field of an entry, keeping their space. */
static bool
entry_clear(PbLogEntry *entry)
{
	for (int i = 0; i < PB_LF_COUNT; i++)
		if (!pb_log_field_set(&entry->f[i], "", 0))
			return false;
	return true;
}

static void
entry_free(PbLogEntry *entry)
{
	for (int i = 0; i < PB_LF_COUNT; i++)
		free(entry->f[i].s);
}

/* A new reader handing each entry to fn. */
PbLogReader *
pb_log_reader_new(PbLogFormat format, PbLogEntryFn fn, void *arg)
{
	PbLogReader *reader = calloc(1, sizeof(PbLogReader));

	if (reader == NULL)
		return NULL;
	reader->format = format;
	reader->fn = fn;
	reader->arg = arg;
	reader->cap = 65536;
	reader->buf = malloc(reader->cap);
	if (reader->buf == NULL ||
		!entry_clear(&reader->held) || !entry_clear(&reader->next))
	{
		pb_log_reader_free(reader);
		return NULL;
	}
	return reader;
}

void
pb_log_reader_free(PbLogReader *reader)
{
	if (reader == NULL)
		return;
	entry_free(&reader->held);
	entry_free(&reader->next);
	free(reader->text.s);
	free(reader->buf);
	free(reader);
}

/* The format, once the first line told it (PB_LOG_AUTO before). */
PbLogFormat
pb_log_reader_format(const PbLogReader *reader)
{
	return reader->format;
}

/* The lines read so far. */
long
pb_log_reader_lines(const PbLogReader *reader)
{
	return reader->lines;
}

static bool
out_of_memory(PbCaptureError *err, long line)
{
	pb_capture_error(err, line, NULL, "out of memory reading the log");
	return false;
}

/* The start of a line, quoted in an error's detail. */
static void
line_detail(char *detail, size_t size, const char *what, const char *s, size_t len)
{
	size_t		n = 0;

	while (n < len && n < 80 && s[n] != '\n')
		n++;
	snprintf(detail, size, "%s \"%.*s%s\".", what, (int) n, s, n < len ? "..." : "");
}

/*
 * Tell the format from the log's first line: a time, then '|' (stderr's
 * prefix) or ',' (csvlog's next column).
 */
static bool
detect_format(PbLogReader *reader, const char *s, size_t len, PbCaptureError *err)
{
	int			fields[7];
	const char *zone;
	size_t		zone_len;
	size_t		p = 19;
	char		detail[200];

	while (p < len && s[p] != '|' && s[p] != ',' && s[p] != '\n')
		p++;
	if (p < len && pb_log_time_parse(s, p, fields, &zone, &zone_len))
	{
		if (s[p] == '|')
		{
			reader->format = PB_LOG_STDERR;
			return true;
		}
		if (s[p] == ',')
		{
			reader->format = PB_LOG_CSV;
			return true;
		}
	}
	line_detail(detail, sizeof(detail), "It begins", s, len);
	pb_capture_error(err, reader->lines + 1, detail,
					 "line %ld is not the start of a csvlog record nor of a stderr log line with log_line_prefix '%%m|%%u|%%d|%%c|'",
					 reader->lines + 1);
	return false;
}

/* Whether a stderr line is part of a memory context dump. */
static bool
dump_line(const char *s, size_t len)
{
	return (len > 0 && s[0] == ' ') ||
		(len >= 18 && memcmp(s, "TopMemoryContext: ", 18) == 0) ||
		(len >= 13 && memcmp(s, "Grand total: ", 13) == 0);
}

/* Whether a stderr severity is one of the lines that go with a message. */
static bool
sub_severity(const char *s)
{
	return strcmp(s, "DETAIL") == 0 || strcmp(s, "HINT") == 0 ||
		strcmp(s, "CONTEXT") == 0 || strcmp(s, "STATEMENT") == 0 ||
		strcmp(s, "QUERY") == 0 || strcmp(s, "LOCATION") == 0;
}

/*
 * Read a stderr entry's text (its lines joined, tabs removed) into
 * reader->next: the prefix's four fields, the severity and the message,
 * with a SQLSTATE that log_error_verbosity = verbose writes before it.
 */
static bool
parse_stderr(PbLogReader *reader, const char *s, size_t len, long line,
			 PbCaptureError *err)
{
	PbLogEntry *e = &reader->next;
	static const PbLogFieldNo prefix[4] = {PB_LF_TIME, PB_LF_USER, PB_LF_DATABASE,
	PB_LF_SESSION};
	size_t		p = 0;
	size_t		sev;
	int			fields[7];
	const char *zone;
	size_t		zone_len;
	char		detail[200];

	if (!entry_clear(e))
		return out_of_memory(err, line);
	e->line = line;
	for (int i = 0; i < 4; i++)
	{
		size_t		q = p;

		while (q < len && s[q] != '|' && s[q] != '\n')
			q++;
		if (q >= len || s[q] != '|')
			goto bad;
		if (!pb_log_field_set(&e->f[prefix[i]], s + p, q - p))
			return out_of_memory(err, line);
		p = q + 1;
	}
	if (!pb_log_time_parse(e->f[PB_LF_TIME].s, e->f[PB_LF_TIME].len, fields,
						   &zone, &zone_len))
		goto bad;
	while (p < len && s[p] == ' ')
		p++;
	sev = p;
	while (p < len && s[p] >= 'A' && s[p] <= 'Z')
		p++;
	while (p < len && s[p] >= '0' && s[p] <= '9')
		p++;
	if (p == sev || p + 3 > len || memcmp(s + p, ":  ", 3) != 0)
	{
		/* "LOG:" at the end of the line: an empty message */
		if (!(p > sev && p + 1 == len && s[p] == ':'))
			goto bad;
	}
	if (!pb_log_field_set(&e->f[PB_LF_SEVERITY], s + sev, p - sev))
		return out_of_memory(err, line);
	p = p + 3 > len ? len : p + 3;
	/* log_error_verbosity = verbose: "ERROR:  22012: division by zero" */
	if (len - p >= 7 && s[p + 5] == ':' && s[p + 6] == ' ')
	{
		bool		code = true;

		for (int i = 0; i < 5; i++)
			if (!((s[p + i] >= '0' && s[p + i] <= '9') ||
				  (s[p + i] >= 'A' && s[p + i] <= 'Z')))
				code = false;
		if (code)
		{
			if (!pb_log_field_set(&e->f[PB_LF_SQLSTATE], s + p, 5))
				return out_of_memory(err, line);
			p += 7;
		}
	}
	if (!pb_log_field_set(&e->f[PB_LF_MESSAGE], s + p, len - p))
		return out_of_memory(err, line);
	return true;

bad:
	line_detail(detail, sizeof(detail), "It begins", s, len);
	pb_capture_error(err, line, detail,
					 "line %ld does not start with log_line_prefix '%%m|%%u|%%d|%%c|'",
					 line);
	return false;
}

/* Swap two entries' contents. */
static void
entry_swap(PbLogEntry *a, PbLogEntry *b)
{
	PbLogEntry	t = *a;

	*a = *b;
	*b = t;
}

/*
 * One complete stderr entry, s[0..len) starting on line: a line that goes
 * with the held message is added to it; a new message hands the held one
 * on and is held in its place.
 */
static bool
stderr_entry(PbLogReader *reader, const char *s, size_t len, long line,
			 PbCaptureError *err)
{
	PbLogEntry *e = &reader->next;
	const char *sev;

	if (dump_line(s, len))
		return true;
	/* the lines joined: a newline and a tab is a newline of the message */
	if (!pb_log_field_set(&reader->text, "", 0))
		return out_of_memory(err, line);
	for (size_t p = 0; p < len;)
	{
		const char *nl = memchr(s + p, '\n', len - p);
		size_t		n = nl != NULL ? (size_t) (nl - (s + p)) + 1 : len - p;

		if (!pb_log_field_append(&reader->text, s + p, n))
			return out_of_memory(err, line);
		p += n;
		if (p < len && s[p] == '\t')
			p++;
	}
	if (!parse_stderr(reader, reader->text.s, reader->text.len, line, err))
		return false;
	sev = e->f[PB_LF_SEVERITY].s;
	if (sub_severity(sev))
	{
		PbLogFieldNo to;

		if (!reader->has_held ||
			strcmp(e->f[PB_LF_SESSION].s, reader->held.f[PB_LF_SESSION].s) != 0)
			return true;
		if (strcmp(sev, "DETAIL") == 0)
			to = PB_LF_DETAIL;
		else if (strcmp(sev, "CONTEXT") == 0)
			to = PB_LF_CONTEXT;
		else if (strcmp(sev, "STATEMENT") == 0)
			to = PB_LF_STATEMENT;
		else
			return true;
		if (!pb_log_field_set(&reader->held.f[to], e->f[PB_LF_MESSAGE].s,
							  e->f[PB_LF_MESSAGE].len))
			return out_of_memory(err, line);
		return true;
	}
	if (reader->has_held && !reader->fn(reader->arg, &reader->held, err))
		return false;
	entry_swap(&reader->held, &reader->next);
	reader->has_held = true;
	return true;
}

/*
 * One csvlog record, s[0..len) starting on line: its columns, unquoted,
 * into an entry handed on.
 */
static bool
csv_entry(PbLogReader *reader, const char *s, size_t len, long line,
		  PbCaptureError *err)
{
	static const struct
	{
		int			column;
		PbLogFieldNo field;
	}			map[] = {
		{CSV_TIME, PB_LF_TIME}, {CSV_USER, PB_LF_USER},
		{CSV_DATABASE, PB_LF_DATABASE}, {CSV_SESSION, PB_LF_SESSION},
		{CSV_COMMAND_TAG, PB_LF_COMMAND_TAG}, {CSV_SEVERITY, PB_LF_SEVERITY},
		{CSV_SQLSTATE, PB_LF_SQLSTATE}, {CSV_MESSAGE, PB_LF_MESSAGE},
		{CSV_DETAIL, PB_LF_DETAIL}, {CSV_CONTEXT, PB_LF_CONTEXT},
		{CSV_QUERY, PB_LF_STATEMENT}, {CSV_APPLICATION, PB_LF_APPLICATION}
	};
	PbLogEntry *e = &reader->next;
	int			column = 0;
	size_t		p = 0;
	char		position[16] = "";
	int			fields[7];
	const char *zone;
	size_t		zone_len;
	char		detail[200];

	if (len == 0)
		return true;
	if (!entry_clear(e))
		return out_of_memory(err, line);
	e->line = line;
	for (;;)
	{
		PbLogField *to = NULL;

		for (int i = 0; i < (int) (sizeof(map) / sizeof(map[0])); i++)
			if (map[i].column == column)
				to = &e->f[map[i].field];
		/* the error's position, which stderr writes in the message */
		if (column == CSV_QUERY_POS && p < len && s[p] != ',')
		{
			size_t		q = p;

			while (q < len && q - p < sizeof(position) - 1 && s[q] >= '0' && s[q] <= '9')
			{
				position[q - p] = s[q];
				q++;
			}
			position[q - p] = '\0';
		}
		if (p < len && s[p] == '"')
		{
			p++;
			for (;;)
			{
				const char *q = memchr(s + p, '"', len - p);

				if (q == NULL)
					goto bad;
				if (to != NULL && !pb_log_field_append(to, s + p, q - (s + p)))
					return out_of_memory(err, line);
				p = q - s + 1;
				if (p < len && s[p] == '"')
				{
					if (to != NULL && !pb_log_field_append(to, "\"", 1))
						return out_of_memory(err, line);
					p++;
				}
				else
					break;
			}
		}
		else
		{
			size_t		q = p;

			while (q < len && s[q] != ',')
				q++;
			if (to != NULL && !pb_log_field_append(to, s + p, q - p))
				return out_of_memory(err, line);
			p = q;
		}
		column++;
		if (p >= len)
			break;
		if (s[p] != ',' || column >= CSV_MAX_COLUMNS)
			goto bad;
		p++;
	}
	if (column < CSV_MIN_COLUMNS ||
		!pb_log_time_parse(e->f[PB_LF_TIME].s, e->f[PB_LF_TIME].len, fields,
						   &zone, &zone_len))
		goto bad;
	if (position[0] != '\0' &&
		(!pb_log_field_append(&e->f[PB_LF_MESSAGE], " at character ", 14) ||
		 !pb_log_field_append(&e->f[PB_LF_MESSAGE], position, strlen(position))))
		return out_of_memory(err, line);
	return reader->fn(reader->arg, e, err);

bad:
	line_detail(detail, sizeof(detail), "It begins", s, len);
	pb_capture_error(err, line, detail,
					 "line %ld is not the start of a csvlog record of 23 to %d columns",
					 line, CSV_MAX_COLUMNS);
	return false;
}

/* Count the lines of s[0..len). */
static long
count_lines(const char *s, size_t len)
{
	long		n = 0;
	const char *p = s;
	const char *end;

	if (len == 0)
		return 0;
	end = s + len;
	while ((p = memchr(p, '\n', end - p)) != NULL)
	{
		n++;
		p++;
	}
	return n;
}

/*
 * Make entries of the complete ones in the buffer; at the end of the
 * input (final), of what is left that ends with a newline too.
 */
static bool
drain(PbLogReader *reader, bool final, PbCaptureError *err)
{
	size_t		start = 0;

	if (reader->format == PB_LOG_AUTO)
	{
		const char *nl = memchr(reader->buf, '\n', reader->len);

		if (nl == NULL && !final)
			return true;
		if (reader->len == 0)
			return true;
		if (!detect_format(reader, reader->buf, reader->len, err))
			return false;
	}
	if (reader->format == PB_LOG_CSV)
	{
		size_t		p = reader->scan;

		while (p < reader->len)
		{
			char		c = reader->buf[p];

			if (c == '"')
				reader->in_quotes = !reader->in_quotes;
			else if (c == '\n' && !reader->in_quotes)
			{
				long		line = reader->lines + 1;

				reader->lines += count_lines(reader->buf + start, p + 1 - start);
				if (!csv_entry(reader, reader->buf + start, p - start, line, err))
					return false;
				start = p + 1;
			}
			p++;
		}
		reader->scan = p - start;
	}
	else
	{
		size_t		p = start;

		for (;;)
		{
			const char *nl = memchr(reader->buf + p, '\n', reader->len - p);
			size_t		end;
			long		line;

			if (nl == NULL)
				break;
			end = nl - reader->buf;
			/* a tab after the newline continues the entry */
			if (end + 1 >= reader->len && !final)
				break;
			if (end + 1 < reader->len && reader->buf[end + 1] == '\t')
			{
				p = end + 1;
				continue;
			}
			line = reader->lines + 1;
			reader->lines += count_lines(reader->buf + start, end + 1 - start);
			if (!stderr_entry(reader, reader->buf + start, end - start, line, err))
				return false;
			start = end + 1;
			p = start;
		}
	}
	memmove(reader->buf, reader->buf + start, reader->len - start);
	reader->len -= start;
	return true;
}

/* Read data[0..len), the log's next bytes; false on an error (err filled). */
bool
pb_log_reader_feed(PbLogReader *reader, const char *data, size_t len,
				   PbCaptureError *err)
{
	if (memchr(data, '\0', len) != NULL)
	{
		pb_capture_error(err, reader->lines + 1 + count_lines(reader->buf, reader->len),
						 "A server log holds no zero bytes.",
						 "the log holds a zero byte");
		return false;
	}
	if (reader->len + len > reader->cap)
	{
		size_t		cap = reader->cap;
		char	   *p;

		while (cap < reader->len + len)
			cap *= 2;
		p = realloc(reader->buf, cap);
		if (p == NULL)
			return out_of_memory(err, reader->lines + 1);
		reader->buf = p;
		reader->cap = cap;
	}
	memcpy(reader->buf + reader->len, data, len);
	reader->len += len;
	return drain(reader, false, err);
}

/*
 * The end of the log: its last entries are handed on.  What is left
 * without a final newline is a line still being written: incomplete says
 * so, and incomplete_line where it starts.
 */
bool
pb_log_reader_finish(PbLogReader *reader, bool *incomplete, long *incomplete_line,
					 PbCaptureError *err)
{
	if (!drain(reader, true, err))
		return false;
	*incomplete = reader->len > 0;
	*incomplete_line = reader->lines + 1;
	if (reader->len > 0)
		reader->lines += 1 + count_lines(reader->buf, reader->len);
	reader->len = 0;
	if (reader->has_held)
	{
		reader->has_held = false;
		if (!reader->fn(reader->arg, &reader->held, err))
			return false;
	}
	return true;
}
