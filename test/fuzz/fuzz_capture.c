/*-------------------------------------------------------------------------
 *
 * fuzz_capture.c
 *	  libFuzzer harness for the capture library: read arbitrary bytes as a
 *	  server log, in each format, whole and in pieces cut where the input
 *	  says, with a time range and filters, draining the statements as a
 *	  server would; and scan them as SQL text, splitting it into
 *	  statements and making its constants parameters.
 *
 * Built with ASan and UBSan by run.sh; any crash, leak or undefined
 * behaviour is a bug, whatever the input.  Each statement handed out is
 * checked: a text, numbers, its session, and its parameters.
 *
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pb_capture.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A resolver that knows one abbreviation, and refuses the others. */
static bool
resolve(void *arg, const char *zone, const int *fields, int *offset)
{
	*offset = 3600;
	return strcmp(zone, "CET") == 0;
}

/* Drain the statements handed out, checking each. */
static void
drain(PbCapture *capture)
{
	const PbCaptureStatement *st;

	while ((st = pb_capture_next(capture)) != NULL)
	{
		if (st->text == NULL || st->text[0] == '\0' || st->session_no < 1 ||
			st->session_no > 1000000 || st->statement_no < 1 ||
			(st->nparams > 0 && st->params == NULL))
			abort();
		for (int i = 0; i < st->nparams; i++)
			if (st->params[i] != NULL && strlen(st->params[i]) > (size_t) 1 << 30)
				abort();
		if (pb_capture_session(capture, st->session_no) == NULL)
			abort();
	}
}

/* Capture data as a log of that format, fed in pieces of step bytes. */
static void
capture(const uint8_t *data, size_t size, PbLogFormat format, size_t step,
		bool filtered)
{
	PbCaptureOptions options;
	PbCaptureError err;
	PbCapture  *capture;
	bool		ok = true;

	memset(&options, 0, sizeof(options));
	options.format = format;
	options.resolve_zone = resolve;
	if (filtered)
	{
		options.role = "alice";
		options.application = "app";
		options.has_since = true;
		options.since = INT64_C(767880000) * 1000000;
		options.has_until = true;
		options.until = options.since + 60000000;
	}
	capture = pb_capture_new(&options);
	if (capture == NULL)
		return;
	for (size_t p = 0; p < size && ok; p += step)
	{
		ok = pb_capture_feed(capture, (const char *) data + p,
							 size - p < step ? size - p : step, &err);
		drain(capture);
	}
	if (ok && pb_capture_finish(capture, &err))
		drain(capture);
	(void) pb_capture_counts(capture);
	pb_capture_free(capture);
}

/* Scan data as SQL: its tokens, its statements, what they do. */
static void
scan(const uint8_t *data, size_t size)
{
	PbSqlStatement parts[8];
	PbSqlScanner scanner;
	PbSqlToken	token;
	PbSqlShape	shape;
	const char *sql = (const char *) data;
	int			n;

	pb_sql_scan_init(&scanner, sql, size);
	while (pb_sql_scan(&scanner, &token) != PB_TOK_END)
	{
		if (token.start + token.len > size || (token.len == 0 && token.kind != PB_TOK_END))
			abort();
		if (token.kind == PB_TOK_ERROR)
			break;
	}
	n = pb_sql_split(sql, size, parts, 8);
	for (int i = 0; i < n && i < 8; i++)
	{
		if (parts[i].start > parts[i].end || parts[i].end > size)
			abort();
		(void) pb_sql_txn(sql + parts[i].start, parts[i].end - parts[i].start);
	}
	(void) pb_sql_has_params(sql, size);
	(void) pb_sql_kind(sql, size);
	if (pb_sql_shape(sql, size, &shape))
	{
		/* a shape's text takes its parameters, and scans */
		if (shape.nliterals < 1 || !pb_sql_has_params(shape.text, strlen(shape.text)))
			abort();
		for (int i = 0; i < shape.nliterals; i++)
			if (shape.literals[i].value == NULL)
				abort();
		pb_sql_shape_free(&shape);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t		step = size > 0 ? (size_t) data[0] % 64 + 1 : 1;

	scan(data, size);
	capture(data, size, PB_LOG_AUTO, size > 0 ? size : 1, false);
	capture(data, size, PB_LOG_STDERR, step, true);
	capture(data, size, PB_LOG_CSV, step, false);
	return 0;
}
