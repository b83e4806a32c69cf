/*-------------------------------------------------------------------------
 *
 * test_capture.c
 *	  Unit tests of the capture library: the SQL scanner's tokens, the
 *	  statements of a simple query and what each does to the transaction,
 *	  log times, and captures of logs written as PostgreSQL 15 writes them
 *	  (stderr with log_line_prefix = '%m|%u|%d|%c|', and csvlog) with
 *	  log_statement = 'all', log_min_duration_statement = 0 or both: the
 *	  simple and the extended protocol, errors that belong to a logged
 *	  statement and errors of statements that failed before they were
 *	  logged, what is left out and counted, the filters, the time range
 *	  that keeps transactions whole, and the lines that are errors.  Every
 *	  log is also fed one byte at a time, which must capture the same.
 *
 * Prints one line per failure and ends with "N passed, N failed".
 *
 *-------------------------------------------------------------------------
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_capture.h"
#include "unit_check.h"

/* ---- the scanner --------------------------------------------------------- */

/* The kinds of sql's tokens, one letter each (i q s b n f p o x e). */
static void
kinds(const char *sql, char *out)
{
	static const char letters[] = "Eiqsbnfpoxe";
	PbSqlScanner scanner;
	PbSqlToken	token;
	PbSqlTokenKind kind;
	int			n = 0;

	pb_sql_scan_init(&scanner, sql, strlen(sql));
	while ((kind = pb_sql_scan(&scanner, &token)) != PB_TOK_END && n < 60)
	{
		out[n++] = letters[kind];
		if (kind == PB_TOK_ERROR)
			break;
	}
	out[n] = '\0';
}

static void
test_scanner(void)
{
	static const struct
	{
		const char *sql;
		const char *kinds;
	}			cases[] = {
		{"SELECT 1, 2.5, .5e3, 1e-3 FROM t", "inxfxfxfii"},
		{"select 'it''s', E'a\\'b', $q$x;y$q$, $$z$$", "isxsxsxs"},
		{"select B'01', X'ff', N'n', U&'u', U&\"q\"", "ibxbxsxsxq"},
		{"x=-1 AND y<>$12 -- c;\n/* a /* nested */ b */ z::int", "iooniiopioi"},
		{"a[1:2] b[1..2]", "ixnxnxixnxnx"},
		{"'a'\n'b' 'c'", "ss"},
		{"'never closed", "e"},
		{"/* never closed", "e"},
		{"a$1b $tag$ $1 $tag$", "is"},
		{"select $$a$b$$", "is"},
		{"\"quoted \"\" name\".x", "qxi"},
		{"1+-2 @-3 1!=2", "noononnon"},
	};

	for (int i = 0; i < (int) (sizeof(cases) / sizeof(cases[0])); i++)
	{
		char		got[64];

		kinds(cases[i].sql, got);
		check(strcmp(got, cases[i].kinds) == 0, "tokens of \"%s\": %s, not %s",
			  cases[i].sql, got, cases[i].kinds);
	}
}

static void
test_split(void)
{
	PbSqlStatement parts[8];
	const char *sql = "BEGIN; COPY t FROM STDIN;; select ';' ; SET client_encoding TO 'UTF8'; commit";
	int			n = pb_sql_split(sql, strlen(sql), parts, 8);

	check(n == 5, "a query of five statements and an empty one: %d", n);
	check(n == 5 && parts[0].txn == PB_SQL_BEGIN && parts[1].kind == PB_SQL_COPY &&
		  parts[2].kind == PB_SQL_PLAIN && parts[2].txn == PB_SQL_OTHER &&
		  parts[3].kind == PB_SQL_CLIENT_ENCODING && parts[4].txn == PB_SQL_END,
		  "the statements are told apart");
	check(n == 5 && parts[2].end - parts[2].start == 10 &&
		  strncmp(sql + parts[2].start, "select ';'", 10) == 0,
		  "a statement ends before its semicolon, strings kept whole");
	sql = "CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT 2; END; SELECT 3";
	check(pb_sql_split(sql, strlen(sql), parts, 8) == 1,
		  "a text with BEGIN ATOMIC is one statement");
	check(pb_sql_split("", 0, parts, 8) == 0 && pb_sql_split(" ; -- x", 7, parts, 8) == 0,
		  "no statement in an empty text");
	check(pb_sql_split("a;b;c;d", 7, parts, 2) == 4, "the count goes past max");

	check(pb_sql_txn("begin isolation level serializable", 34) == PB_SQL_BEGIN, "BEGIN begins");
	check(pb_sql_txn("START TRANSACTION", 17) == PB_SQL_BEGIN, "START TRANSACTION begins");
	check(pb_sql_txn("END;", 4) == PB_SQL_END && pb_sql_txn("abort", 5) == PB_SQL_END &&
		  pb_sql_txn("PREPARE TRANSACTION 'x'", 23) == PB_SQL_END,
		  "END, ABORT and PREPARE TRANSACTION end");
	check(pb_sql_txn("ROLLBACK TO SAVEPOINT a", 23) == PB_SQL_OTHER &&
		  pb_sql_txn("rollback work to a", 18) == PB_SQL_OTHER &&
		  pb_sql_txn("COMMIT PREPARED 'x'", 19) == PB_SQL_OTHER &&
		  pb_sql_txn("prepare p as select 1", 21) == PB_SQL_OTHER,
		  "ROLLBACK TO, COMMIT PREPARED and PREPARE do not end the block");
	check(pb_sql_txn("commit and chain", 16) == PB_SQL_CHAIN &&
		  pb_sql_txn("ROLLBACK WORK AND CHAIN", 23) == PB_SQL_CHAIN &&
		  pb_sql_txn("commit and no chain", 19) == PB_SQL_END,
		  "AND CHAIN ends and begins, AND NO CHAIN ends");
	check(pb_sql_kind("set names 'UTF8'", 16) == PB_SQL_CLIENT_ENCODING &&
		  pb_sql_kind("SET SESSION client_encoding = 'x'", 33) == PB_SQL_CLIENT_ENCODING &&
		  pb_sql_kind("reset client_encoding", 21) == PB_SQL_CLIENT_ENCODING &&
		  pb_sql_kind("set work_mem = 1", 16) == PB_SQL_PLAIN,
		  "what changes the client's encoding");
	check(pb_sql_has_params("select $1", 9) && !pb_sql_has_params("select '$1', $$ $2 $$", 21),
		  "parameters, not in strings");
}

static void
test_times(void)
{
	int			f[7];
	const char *zone;
	size_t		zone_len;
	const char *t = "2024-02-29 23:59:59.123 CET";

	check(pb_log_time_parse(t, strlen(t), f, &zone, &zone_len) &&
		  f[0] == 2024 && f[1] == 2 && f[2] == 29 && f[5] == 59 && f[6] == 123000 &&
		  zone_len == 3 && strncmp(zone, "CET", 3) == 0,
		  "a time as %%m writes it");
	check(!pb_log_time_parse("2024-02-30 00:00:00 UTC", 23, f, &zone, &zone_len) &&
		  !pb_log_time_parse("2024-02-28 24:00:00", 19, f, &zone, &zone_len) &&
		  !pb_log_time_parse("2024-02-28T00:00:00", 19, f, &zone, &zone_len) &&
		  !pb_log_time_parse("2024-02-28 00:00:00.", 20, f, &zone, &zone_len),
		  "times that are not");
	f[0] = 2000;
	f[1] = 1;
	f[2] = 1;
	f[3] = f[4] = f[5] = f[6] = 0;
	check(pb_log_time_from_fields(f) == 0, "2000-01-01 is PostgreSQL's epoch");
	f[0] = 2024;
	f[1] = 3;
	f[2] = 1;
	f[3] = 1;
	f[6] = 7;
	/* SELECT extract(epoch from '2024-03-01 01:00:00+00'::timestamptz - '2000-01-01+00') */
	check(pb_log_time_from_fields(f) == INT64_C(762570000) * 1000000 + 7,
		  "2024-03-01 01:00:00.000007 in microseconds");
	f[0] = 1999;
	f[1] = 12;
	f[2] = 31;
	f[3] = 23;
	f[6] = 0;
	check(pb_log_time_from_fields(f) == -INT64_C(3600000000), "before the epoch");
}

/* ---- shapes -------------------------------------------------------------- */

/* The shape of sql as "text | kind:value ...", or "-" when it has none. */
static void
shape_of(const char *sql, char *out, size_t size)
{
	static const char kinds[] = "48nu";
	PbSqlShape	shape;
	size_t		o;

	if (!pb_sql_shape(sql, strlen(sql), &shape))
	{
		snprintf(out, size, "-");
		return;
	}
	o = snprintf(out, size, "%s |", shape.text);
	for (int i = 0; i < shape.nliterals && o < size; i++)
		o += snprintf(out + o, size - o, " %c:%s", kinds[shape.literals[i].kind],
					  shape.literals[i].value);
	pb_sql_shape_free(&shape);
}

static void
test_shapes(void)
{
	static const struct
	{
		const char *sql;
		const char *shape;
	}			cases[] = {
		{"UPDATE pgbench_accounts SET abalance = abalance + -4087 WHERE aid = 20398;",
		 "UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2; | 4:-4087 4:20398"},
		{"SELECT a - 1, -2, f(-3.5), x[-1], b -4 FROM t WHERE c = - 2147483648 AND d IN (1, -2)",
		 "SELECT a - $1, $2, f($3), x[$4], b -$5 FROM t WHERE c = $6 AND d IN ($7, $8) | "
		 "4:1 4:-2 n:-3.5 4:-1 4:4 4:-2147483648 4:1 4:-2"},
		{"select * from t where name = 'it''s' and x > 1.5e3 and y = 3000000000",
		 "select * from t where name = $1 and x > $2 and y = $3 | u:it's n:1.5e3 8:3000000000"},
		{"SELECT 99999999999999999999 LIMIT 10 OFFSET 5",
		 "SELECT $1 LIMIT $2 OFFSET $3 | n:99999999999999999999 4:10 4:5"},
		{"SELECT a FROM t WHERE b LIKE 'x%' ORDER BY 1, a DESC, 2 LIMIT 3",
		 "SELECT a FROM t WHERE b LIKE $1 ORDER BY 1, a DESC, 2 LIMIT $2 | u:x% 4:3"},
		{"SELECT count(*) FROM t GROUP BY 1 HAVING count(*) > 2",
		 "SELECT count(*) FROM t GROUP BY 1 HAVING count(*) > $1 | 4:2"},
		{"SELECT interval '1 day', date '2024-01-01', x AT TIME ZONE 'UTC', 'a'::text",
		 "SELECT interval '1 day', date '2024-01-01', x AT TIME ZONE 'UTC', $1::text | u:a"},
		{"INSERT INTO t (a, b) VALUES (1, CAST('x' AS varchar(20))), (2, 3.5::numeric(10, 2))",
		 "INSERT INTO t (a, b) VALUES ($1, CAST($2 AS varchar(20))), ($3, $4::numeric(10, 2)) | 4:1 u:x 4:2 n:3.5"},
		{"SELECT E'a\\nb', $$d$$, extract('epoch' FROM now()), a[1:2] FROM t",
		 "SELECT E'a\\nb', $$d$$, extract('epoch' FROM now()), a[$1:$2] FROM t | 4:1 4:2"},
		{"SELECT CASE WHEN a THEN 'y' ELSE 'n' END, 1 BETWEEN 0 AND 2",
		 "SELECT CASE WHEN a THEN $1 ELSE $2 END, $3 BETWEEN $4 AND $5 | u:y u:n 4:1 4:0 4:2"},
		{"SELECT 'a'\n'b'", "-"},
		{"SELECT a FROM t WHERE b = $1 AND c = 2", "-"},
		{"SELECT 1; SELECT 2", "-"},
		{"SET work_mem = '64MB'", "-"},
		{"CREATE TABLE t (a varchar(10) DEFAULT 'x')", "-"},
		{"SELECT a FROM t", "-"},
		{"BEGIN;", "-"},
		{"WITH x AS (SELECT 1) SELECT * FROM x;", "WITH x AS (SELECT $1) SELECT * FROM x; | 4:1"},
	};

	for (int i = 0; i < (int) (sizeof(cases) / sizeof(cases[0])); i++)
	{
		char		got[512];

		shape_of(cases[i].sql, got, sizeof(got));
		check(strcmp(got, cases[i].shape) == 0, "shape of \"%s\":\n  %s\nnot\n  %s",
			  cases[i].sql, got, cases[i].shape);
	}
}

/* ---- captures ------------------------------------------------------------ */

static char *logbuf;
static size_t loglen;

/* Append a formatted piece of a log. */
static void
add(const char *fmt,...)
{
	va_list		ap;
	char		piece[4096];
	int			n;

	va_start(ap, fmt);
	n = vsnprintf(piece, sizeof(piece), fmt, ap);
	va_end(ap);
	logbuf = realloc(logbuf, loglen + n + 1);
	memcpy(logbuf + loglen, piece, n + 1);
	loglen += n;
}

static void
reset_log(void)
{
	loglen = 0;
	if (logbuf != NULL)
		logbuf[0] = '\0';
}

/* A stderr line of session sid, at 12:00:00 plus ms. */
static void
line(int ms, const char *sid, const char *sev, const char *msg)
{
	add("2024-05-01 12:%02d:%02d.%03d UTC|alice|shop|%s|%s:  %s\n",
		ms / 60000, (ms / 1000) % 60, ms % 1000, sid, sev, msg);
}

/* A csvlog record of session sid, at 12:00:00 plus ms (fields CSV-quoted by the caller). */
static void
record(int ms, const char *sid, const char *tag, const char *sev, const char *state,
	   const char *msg, const char *detail, const char *context, const char *query)
{
	add("2024-05-01 12:%02d:%02d.%03d UTC,\"alice\",\"shop\",100,\"[local]\",%s,1,\"%s\","
		"2024-05-01 12:00:00 UTC,3/1,0,%s,%s,%s,%s,,,,%s,%s,,,\"app\",\"client backend\",,0\n",
		ms / 60000, (ms / 1000) % 60, ms % 1000, sid, tag, sev, state, msg, detail,
		context, query);
}

typedef struct Result
{
	bool		ok;
	PbCaptureError err;
	PbCaptureCounts counts;
	char		out[8192];		/* a line per statement, in the order handed out */
	char		sessions[1024];
} Result;

/* Put one statement on a line of the result. */
static void
describe(Result *r, const PbCaptureStatement *st)
{
	size_t		o = strlen(r->out);
	size_t		room = sizeof(r->out) - o;
	int			n;

	n = snprintf(r->out + o, room, "%d.%ld @%.3f %s%s%s '%s'", st->session_no,
				 st->statement_no,
				 (double) (st->at - INT64_C(767880000) * 1000000) / 1000.0,
				 st->name == NULL ? "S" : "E(", st->name == NULL ? "" : st->name,
				 st->name == NULL ? "" : ")", st->text);
	o += n;
	if (st->name != NULL)
	{
		o += snprintf(r->out + o, sizeof(r->out) - o, " {");
		for (int i = 0; i < st->nparams; i++)
			o += snprintf(r->out + o, sizeof(r->out) - o, "%s%s", i > 0 ? "," : "",
						  st->params[i] == NULL ? "NULL" : st->params[i]);
		o += snprintf(r->out + o, sizeof(r->out) - o, "}");
	}
	if (st->duration >= 0)
		o += snprintf(r->out + o, sizeof(r->out) - o, " d=%.3f", st->duration);
	if (st->error != NULL)
		o += snprintf(r->out + o, sizeof(r->out) - o, " !%s:%s", st->sqlstate, st->error);
	snprintf(r->out + o, sizeof(r->out) - o, " L%ld\n", st->line);
}

/* Capture the log, fed step bytes at a time. */
static void
capture_by(const PbCaptureOptions *options, size_t step, Result *r)
{
	PbCapture  *c = pb_capture_new(options);
	const PbCaptureStatement *st;

	memset(r, 0, sizeof(*r));
	r->ok = true;
	for (size_t p = 0; p < loglen && r->ok; p += step)
	{
		size_t		n = loglen - p < step ? loglen - p : step;

		r->ok = pb_capture_feed(c, logbuf + p, n, &r->err);
		while (r->ok && (st = pb_capture_next(c)) != NULL)
			describe(r, st);
	}
	if (r->ok)
		r->ok = pb_capture_finish(c, &r->err);
	while (r->ok && (st = pb_capture_next(c)) != NULL)
		describe(r, st);
	r->counts = *pb_capture_counts(c);
	for (int i = 1; pb_capture_session(c, i) != NULL; i++)
	{
		const PbCaptureSession *s = pb_capture_session(c, i);
		size_t		o = strlen(r->sessions);

		snprintf(r->sessions + o, sizeof(r->sessions) - o, "%s %s/%s/%s %ld %ld%s%s\n",
				 s->id, s->role, s->database, s->application ? s->application : "?",
				 s->statements, s->errors, s->connected ? " c" : "",
				 s->disconnected ? " d" : "");
	}
	pb_capture_free(c);
}

/*
 * Capture the log whole and a byte at a time: the same statements, in the
 * same order, either way.
 */
static void
capture(const PbCaptureOptions *options, Result *r, const char *what)
{
	static Result bytewise;

	capture_by(options, loglen > 0 ? loglen : 1, r);
	capture_by(options, 1, &bytewise);
	check(r->ok == bytewise.ok && strcmp(r->out, bytewise.out) == 0 &&
		  strcmp(r->sessions, bytewise.sessions) == 0 &&
		  r->counts.statements == bytewise.counts.statements,
		  "%s: the same fed a byte at a time:\n%s---\n%s", what, r->out, bytewise.out);
}

static PbCaptureOptions
no_options(void)
{
	PbCaptureOptions o;

	memset(&o, 0, sizeof(o));
	return o;
}

/* expect the result's statements to be exactly these lines */
static void
expect(const Result *r, const char *what, const char *out)
{
	check(r->ok, "%s: captured (%s)", what, r->ok ? "" : r->err.message);
	check(strcmp(r->out, out) == 0, "%s:\n%s--- expected:\n%s", what, r->out, out);
}

/* log_statement = 'all' with log_min_duration_statement = 0, stderr */
static void
test_stderr_both(void)
{
	PbCaptureOptions o = no_options();
	Result		r;

	reset_log();
	add("2024-05-01 12:00:00.000 UTC|||662d0000.1|LOG:  checkpoint starting: time\n");
	add("2024-05-01 12:00:00.001 UTC|[unknown]|[unknown]|662d0000.a|LOG:  connection received: host=[local]\n");
	line(1, "662d0000.a", "LOG", "connection authorized: user=alice database=shop application_name=pgbench");
	line(2, "662d0000.a", "LOG", "statement: BEGIN;");
	line(2, "662d0000.a", "LOG", "duration: 0.050 ms");
	line(3, "662d0000.a", "LOG", "duration: 0.100 ms  parse P_1: UPDATE t SET v = v + $1 WHERE id = $2;");
	line(3, "662d0000.a", "LOG", "duration: 0.200 ms  bind P_1: UPDATE t SET v = v + $1 WHERE id = $2;");
	line(3, "662d0000.a", "DETAIL", "parameters: $1 = '-5', $2 = '7'");
	line(4, "662d0000.a", "LOG", "execute P_1: UPDATE t SET v = v + $1 WHERE id = $2;");
	line(4, "662d0000.a", "DETAIL", "parameters: $1 = '-5', $2 = '7'");
	line(5, "662d0000.a", "LOG", "duration: 1.000 ms");
	line(6, "662d0000.a", "LOG", "execute <unnamed>: SELECT $1::text, $2");
	line(6, "662d0000.a", "DETAIL", "parameters: $1 = 'it''s\n\ttwo lines', $2 = NULL");
	line(6, "662d0000.a", "LOG", "duration: 0.500 ms");
	line(7, "662d0000.a", "LOG", "statement: SELECT 1/0;");
	line(7, "662d0000.a", "ERROR", "division by zero");
	line(7, "662d0000.a", "STATEMENT", "SELECT 1/0;");
	line(8, "662d0000.a", "LOG", "statement: SELECT 'still aborted';");
	line(8, "662d0000.a", "ERROR", "current transaction is aborted, commands ignored until end of transaction block");
	line(8, "662d0000.a", "STATEMENT", "SELECT 'still aborted';");
	line(9, "662d0000.a", "LOG", "statement: ROLLBACK;");
	line(9, "662d0000.a", "LOG", "duration: 0.010 ms");
	line(10, "662d0000.a", "ERROR", "syntax error at or near \"SELEC\" at character 1");
	line(10, "662d0000.a", "STATEMENT", "SELEC 1;");
	line(11, "662d0000.a", "LOG", "statement: SELECT 'a\n\tmultiline statement'");
	add("TopMemoryContext: 1000 total in 2 blocks; 100 free\n");
	add("  MessageContext: 8192 total in 1 blocks; 100 free\n");
	add("Grand total: 1 bytes in 1 blocks\n");
	line(11, "662d0000.a", "LOG", "duration: 0.020 ms");
	line(12, "662d0000.a", "LOG", "disconnection: session time: 0:00:00.011 user=alice database=shop host=[local]");
	capture(&o, &r, "stderr, both");
	expect(&r, "stderr, both",
		   "1.1 @2.000 S 'BEGIN;' d=0.050 L4\n"
		   "1.2 @2.800 E(P_1) 'UPDATE t SET v = v + $1 WHERE id = $2;' {-5,7} d=1.300 L9\n"
		   "1.3 @6.000 E() 'SELECT $1::text, $2' {it's\ntwo lines,NULL} d=0.500 L12\n"
		   "1.4 @7.000 S 'SELECT 1/0;' !:division by zero L16\n"
		   "1.5 @8.000 S 'SELECT 'still aborted';' !:current transaction is aborted, commands ignored until end of transaction block L19\n"
		   "1.6 @9.000 S 'ROLLBACK;' d=0.010 L22\n"
		   "1.7 @10.000 S 'SELEC 1;' !:syntax error at or near \"SELEC\" at character 1 L24\n"
		   "1.8 @11.000 S 'SELECT 'a\nmultiline statement'' d=0.020 L26\n");
	check(strcmp(r.sessions, "662d0000.a alice/shop/pgbench 8 3 c d\n") == 0,
		  "the session, its application and counts: %s", r.sessions);
	check(r.counts.lines == 32 && r.counts.statements == 8 && r.counts.errors == 3 &&
		  r.counts.sessions == 1 && r.counts.format == PB_LOG_STDERR,
		  "the counts: %ld lines, %ld statements, %ld errors", r.counts.lines,
		  r.counts.statements, r.counts.errors);
}

/* log_min_duration_statement = 0 alone: statements logged as they end */
static void
test_duration_only(void)
{
	PbCaptureOptions o = no_options();
	Result		r;

	reset_log();
	line(10, "662d0000.b", "LOG", "duration: 2.000 ms  statement: SELECT 1;");
	line(20, "662d0000.b", "LOG", "duration: 0.500 ms  parse <unnamed>: SELECT $1");
	line(20, "662d0000.b", "LOG", "duration: 0.500 ms  bind <unnamed>/C_1: SELECT $1");
	line(20, "662d0000.b", "DETAIL", "parameters: $1 = '42'");
	line(23, "662d0000.b", "LOG", "duration: 2.000 ms  execute <unnamed>/C_1: SELECT $1");
	line(23, "662d0000.b", "DETAIL", "parameters: $1 = '42'");
	line(24, "662d0000.b", "LOG", "duration: 1.000 ms  execute fetch from <unnamed>/C_1: SELECT $1");
	line(24, "662d0000.b", "DETAIL", "parameters: $1 = '42'");
	/* an error: only the ERROR shows it */
	line(30, "662d0000.b", "ERROR", "division by zero");
	line(30, "662d0000.b", "STATEMENT", "SELECT 1/0");
	/* a bind that failed, its parameters in the CONTEXT */
	line(40, "662d0000.b", "LOG", "duration: 0.100 ms  parse P_2: SELECT 1/$1");
	line(40, "662d0000.b", "ERROR", "division by zero");
	line(40, "662d0000.b", "CONTEXT", "unnamed portal with parameters: $1 = '0'");
	line(40, "662d0000.b", "STATEMENT", "SELECT 1/$1");
	/* and one without: it cannot be replayed */
	line(50, "662d0000.b", "ERROR", "invalid input syntax for type integer: \"x\"");
	line(50, "662d0000.b", "STATEMENT", "SELECT $1::int");
	capture(&o, &r, "stderr, durations");
	expect(&r, "stderr, durations",
		   "1.1 @8.000 S 'SELECT 1;' d=2.000 L1\n"
		   "1.2 @19.500 E() 'SELECT $1' {42} d=4.000 L5\n"
		   "1.3 @30.000 S 'SELECT 1/0' !:division by zero L9\n"
		   "1.4 @39.900 E() 'SELECT 1/$1' {0} !:division by zero L12\n");
	check(r.counts.skipped[PB_SKIP_NO_PARAMETERS] == 1 &&
		  r.counts.skipped_line[PB_SKIP_NO_PARAMETERS] == 15,
		  "a failed bind without its parameters is counted, with its line");
	check(strcmp(r.sessions, "662d0000.b alice/shop/? 4 2\n") == 0,
		  "a session whose connection is not in the log: %s", r.sessions);
}

/* csvlog: the same, the message's parts in columns */
static void
test_csv(void)
{
	PbCaptureOptions o = no_options();
	Result		r;

	reset_log();
	add("2024-05-01 12:00:00.000 UTC,,,1,,662d0000.1,1,,2024-05-01 12:00:00 UTC,,0,LOG,00000,\"checkpoint starting: time\",,,,,,,,,\"\",\"checkpointer\",,0\n");
	record(1, "662d0000.c", "authentication", "LOG", "00000",
		   "\"connection authorized: user=alice database=shop application_name=app\"", "", "", "");
	record(2, "662d0000.c", "BEGIN", "LOG", "00000", "\"execute P_0: BEGIN;\"", "", "", "");
	record(3, "662d0000.c", "INSERT", "LOG", "00000",
		   "\"execute P_1: INSERT INTO h VALUES ($1, $2)\"",
		   "\"parameters: $1 = 'say \"\"hi\"\"', $2 = 'a,b\nc'\"", "", "");
	record(4, "662d0000.c", "BIND", "ERROR", "22P02",
		   "\"invalid input syntax for type integer: \"\"x\"\"\"", "",
		   "\"unnamed portal with parameters: $1 = 'x'\"",
		   "\"INSERT INTO h VALUES ($1, $2)\"");
	record(5, "662d0000.c", "UPDATE", "LOG", "00000", "\"statement: UPDATE h SET a = 1\"", "", "", "");
	record(5, "662d0000.c", "UPDATE", "ERROR", "40001",
		   "\"could not serialize access due to concurrent update\"", "", "",
		   "\"UPDATE h SET a = 1\"");
	record(6, "662d0000.c", "idle in transaction (aborted)", "LOG", "00000", "\"statement: ROLLBACK\"", "", "", "");
	add("2024-05-01 12:00:00.006 UTC,\"alice\",\"shop\",100,\"[local]\",662d0000.c,1,\"SELECT\","
		"2024-05-01 12:00:00 UTC,3/1,0,ERROR,42601,\"syntax error at or near \"\"SELEC\"\"\",,,,,,"
		"\"SELEC 1\",1,,\"app\",\"client backend\",,0\n");
	record(7, "662d0000.c", "idle", "LOG", "00000",
		   "\"disconnection: session time: 0:00:00.006 user=alice database=shop host=[local]\"", "", "", "");
	capture(&o, &r, "csvlog");
	expect(&r, "csvlog",
		   "1.1 @2.000 E(P_0) 'BEGIN;' {} L3\n"
		   "1.2 @3.000 E(P_1) 'INSERT INTO h VALUES ($1, $2)' {say \"hi\",a,b\nc} L4\n"
		   "1.3 @4.000 E() 'INSERT INTO h VALUES ($1, $2)' {x} !22P02:invalid input syntax for type integer: \"x\" L6\n"
		   "1.4 @5.000 S 'UPDATE h SET a = 1' !40001:could not serialize access due to concurrent update L7\n"
		   "1.5 @6.000 S 'ROLLBACK' L9\n"
		   "1.6 @6.000 S 'SELEC 1' !42601:syntax error at or near \"SELEC\" at character 1 L10\n");
	check(r.counts.format == PB_LOG_CSV && r.counts.lines == 11,
		  "csvlog told from its first line, lines counted in its quoted fields: %ld",
		  r.counts.lines);
	check(strcmp(r.sessions, "662d0000.c alice/shop/app 6 3 c d\n") == 0,
		  "the csv session: %s", r.sessions);
}

/* COPY, client_encoding, the fast path: left out and counted */
static void
test_skipped(void)
{
	PbCaptureOptions o = no_options();
	Result		r;

	reset_log();
	line(1, "662d0000.d", "LOG", "statement: BEGIN; COPY t FROM STDIN; SELECT 1");
	line(2, "662d0000.d", "LOG", "statement: COPY t TO STDOUT");
	line(2, "662d0000.d", "ERROR", "relation \"t\" does not exist");
	line(2, "662d0000.d", "STATEMENT", "COPY t TO STDOUT");
	line(3, "662d0000.d", "LOG", "statement: SET client_encoding TO 'LATIN1'");
	line(4, "662d0000.d", "LOG", "fastpath function call: \"lo_open\" (OID 952)");
	line(5, "662d0000.d", "LOG", "fastpath function call: \"pg_sleep\" (OID 2626)");
	line(6, "662d0000.d", "LOG", "statement: COMMIT");
	add("2024-05-01 12:00:00.007 UTC|alice|shop|662d0000.d|LOG:  statement: SELECT 'still being wr");
	capture(&o, &r, "skipped");
	expect(&r, "skipped",
		   "1.1 @1.000 S 'BEGIN; SELECT 1' L1\n"
		   "1.2 @6.000 S 'COMMIT' L8\n");
	check(r.counts.skipped[PB_SKIP_COPY] == 2 && r.counts.skipped_line[PB_SKIP_COPY] == 1 &&
		  r.counts.skipped[PB_SKIP_CLIENT_ENCODING] == 1 &&
		  r.counts.skipped[PB_SKIP_LARGE_OBJECT] == 1 &&
		  r.counts.skipped[PB_SKIP_FASTPATH] == 1 &&
		  r.counts.skipped[PB_SKIP_INCOMPLETE] == 1 &&
		  r.counts.skipped_line[PB_SKIP_INCOMPLETE] == 9,
		  "each kind counted once, the COPY's error not as another COPY: copy %ld, incomplete at %ld",
		  r.counts.skipped[PB_SKIP_COPY], r.counts.skipped_line[PB_SKIP_INCOMPLETE]);
}

/* two sessions interleaved, filtered by role, database, application */
static void
test_filters(void)
{
	PbCaptureOptions o = no_options();
	Result		r;

	reset_log();
	line(1, "662d0000.e", "LOG", "connection authorized: user=alice database=shop application_name=web");
	add("2024-05-01 12:00:00.001 UTC|bob|shop|662d0000.f|LOG:  connection authorized: user=bob database=shop application_name=batch\n");
	line(2, "662d0000.e", "LOG", "statement: SELECT 'alice'");
	add("2024-05-01 12:00:00.002 UTC|bob|shop|662d0000.f|LOG:  statement: SELECT 'bob'\n");
	add("2024-05-01 12:00:00.003 UTC|alice|other|662d0000.10|LOG:  statement: SELECT 'other'\n");
	capture(&o, &r, "unfiltered");
	expect(&r, "unfiltered",
		   "1.1 @2.000 S 'SELECT 'alice'' L3\n"
		   "2.1 @2.000 S 'SELECT 'bob'' L4\n"
		   "3.1 @3.000 S 'SELECT 'other'' L5\n");
	o.role = "bob";
	capture(&o, &r, "role");
	expect(&r, "role", "1.1 @2.000 S 'SELECT 'bob'' L4\n");
	o.role = NULL;
	o.database = "other";
	capture(&o, &r, "database");
	expect(&r, "database", "1.1 @3.000 S 'SELECT 'other'' L5\n");
	o.database = NULL;
	o.application = "web";
	capture(&o, &r, "application");
	expect(&r, "application", "1.1 @2.000 S 'SELECT 'alice'' L3\n");
	check(r.counts.sessions == 1, "the application's session alone, not one it does not say");
}

/* since and until keep transactions whole */
static void
test_range(void)
{
	PbCaptureOptions o = no_options();
	Result		r;
	const PbLogTime noon = INT64_C(767880000) * 1000000;

	reset_log();
	line(100, "662d0000.11", "LOG", "statement: BEGIN");
	line(200, "662d0000.11", "LOG", "statement: SELECT 'cut at since'");
	line(300, "662d0000.11", "LOG", "statement: COMMIT");
	line(400, "662d0000.11", "LOG", "statement: SELECT 'in'");
	line(500, "662d0000.11", "LOG", "statement: BEGIN; SELECT 'whole'");
	line(600, "662d0000.11", "LOG", "statement: SELECT 'after until, in its block'");
	line(700, "662d0000.11", "LOG", "statement: END");
	line(800, "662d0000.11", "LOG", "statement: SELECT 'after'");
	o.has_since = true;
	o.since = noon + 150 * 1000;
	o.has_until = true;
	o.until = noon + 550 * 1000;
	capture(&o, &r, "range");
	expect(&r, "range",
		   "1.1 @400.000 S 'SELECT 'in'' L4\n"
		   "1.2 @500.000 S 'BEGIN; SELECT 'whole'' L5\n"
		   "1.3 @600.000 S 'SELECT 'after until, in its block'' L6\n"
		   "1.4 @700.000 S 'END' L7\n");
	check(r.counts.skipped[PB_SKIP_OUTSIDE_RANGE] == 4,
		  "the statements outside counted: %ld", r.counts.skipped[PB_SKIP_OUTSIDE_RANGE]);
}

static bool
cet(void *arg, const char *zone, const int *fields, int *offset)
{
	*(int *) arg += 1;
	if (strcmp(zone, "CEST") == 0)
		*offset = 7200;
	else if (strcmp(zone, "CET") == 0)
		*offset = 3600;
	else
		return false;
	return true;
}

/* zones: numeric, resolved, unknown */
static void
test_zones(void)
{
	PbCaptureOptions o = no_options();
	Result		r;
	int			calls = 0;

	reset_log();
	add("2024-05-01 14:00:00.000 CEST|alice|shop|662d0000.12|LOG:  statement: SELECT 1\n");
	add("2024-05-01 14:00:00.001 CEST|alice|shop|662d0000.12|LOG:  statement: SELECT 2\n");
	add("2024-05-01 17:30:00.002 +0530|alice|shop|662d0000.12|LOG:  statement: SELECT 3\n");
	add("2024-05-01 09:00:00.003 -03|alice|shop|662d0000.12|LOG:  statement: SELECT 4\n");
	capture(&o, &r, "zones unknown");
	check(!r.ok && r.err.line == 1 && strstr(r.err.message, "\"CEST\"") != NULL,
		  "an abbreviation no one resolves is an error naming the line: %s", r.err.message);
	o.resolve_zone = cet;
	o.resolve_arg = &calls;
	capture_by(&o, loglen, &r);
	expect(&r, "zones resolved",
		   "1.1 @0.000 S 'SELECT 1' L1\n"
		   "1.2 @1.000 S 'SELECT 2' L2\n"
		   "1.3 @2.000 S 'SELECT 3' L3\n"
		   "1.4 @3.000 S 'SELECT 4' L4\n");
	check(calls == 1, "an hour's offset is asked once: %d", calls);
}

/* what is not a log, or not one that reads */
static void
test_errors(void)
{
	PbCaptureOptions o = no_options();
	Result		r;

	reset_log();
	line(1, "662d0000.13", "LOG", "statement: SELECT 1");
	add("2024-05-01 12:00:00.002 UTC alice shop LOG:  statement: SELECT 2\n");
	capture(&o, &r, "bad prefix");
	check(!r.ok && r.err.line == 2 && strstr(r.err.message, "line 2 does not start with log_line_prefix") != NULL &&
		  strstr(r.err.detail, "2024-05-01 12:00:00.002 UTC alice") != NULL,
		  "a line without the prefix is an error naming it: %s (%s)", r.err.message, r.err.detail);

	reset_log();
	add("hello\n");
	capture(&o, &r, "not a log");
	check(!r.ok && r.err.line == 1 && strstr(r.err.message, "is not the start of a csvlog record nor") != NULL,
		  "a file that is no log: %s", r.err.message);

	reset_log();
	line(1, "662d0000.13", "LOG", "execute <unnamed>: SELECT $1");
	line(1, "662d0000.13", "DETAIL", "parameters: $1 = 'unterminated");
	capture(&o, &r, "bad parameters");
	check(!r.ok && r.err.line == 1 && strstr(r.err.message, "parameters of the statement at line 1 do not read") != NULL,
		  "parameters that do not read: %s", r.err.message);

	reset_log();
	record(1, "662d0000.14", "idle", "LOG", "00000", "\"statement: SELECT 1\"", "", "", "");
	add("2024-05-01 12:00:00.002 UTC,\"alice\",\"shop\"\n");
	capture(&o, &r, "short record");
	check(!r.ok && r.err.line == 2 && strstr(r.err.message, "line 2 is not the start of a csvlog record") != NULL,
		  "a csvlog record of too few columns: %s", r.err.message);

	reset_log();
	add("2024-05-01 12:00:00.002 UTC|a|b|c|LOG:  x\n");
	logbuf[30] = '\0';
	capture_by(&o, loglen, &r);
	check(!r.ok && strstr(r.err.message, "zero byte") != NULL, "a zero byte: %s", r.err.message);

	reset_log();
	capture(&o, &r, "empty");
	check(r.ok && r.counts.statements == 0 && r.counts.lines == 0, "an empty log holds nothing");
}

int
main(void)
{
	test_scanner();
	test_split();
	test_times();
	test_shapes();
	test_stderr_both();
	test_duration_only();
	test_csv();
	test_skipped();
	test_filters();
	test_range();
	test_zones();
	test_errors();
	free(logbuf);
	return check_summary();
}
