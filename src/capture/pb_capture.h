/*-------------------------------------------------------------------------
 *
 * pb_capture.h
 *	  A workload captured from a PostgreSQL server log: the sessions the log
 *	  shows, each with its statements in the order it ran them, their
 *	  start times, the parameters of the extended protocol's binds, the
 *	  durations and errors the log records, and what could not be kept.
 *
 * The library reads the log formats pgreplay reads: csvlog, and stderr with
 * log_line_prefix = '%m|%u|%d|%c|', written with log_statement = 'all' or
 * log_min_duration_statement = 0 (or both), lc_messages in English.  It is
 * plain C with no dependency on the PostgreSQL backend (no postgres.h, no
 * palloc, no ereport), so that the server, the unit tests and the fuzzer
 * share one implementation: functions that can fail return false and fill
 * a PbCaptureError, never exit or longjmp; memory is taken with malloc()
 * and given back by pb_capture_free().
 *
 * Its other half, sql_scan.c, is a scanner of SQL text as PostgreSQL's
 * lexer splits it (standard_conforming_strings on): enough to split a
 * simple query's statements, to see what each one does to the transaction
 * and to find its literals and parameters; sql_shape.c makes a statement's
 * constants parameters, so that statements that differ only in them share
 * a plan.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_CAPTURE_H
#define PB_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- scanning SQL text --------------------------------------------------- */

typedef enum PbSqlTokenKind
{
	PB_TOK_END = 0,				/* the end of the text */
	PB_TOK_IDENT,				/* a keyword or an unquoted identifier */
	PB_TOK_QIDENT,				/* a quoted identifier ("x", U&"x") */
	PB_TOK_STRING,				/* a string constant of any kind ('x', E'x', $$x$$) */
	PB_TOK_BITSTRING,			/* B'0101' or X'1F' */
	PB_TOK_INTEGER,				/* digits only */
	PB_TOK_NUMERIC,				/* a number with a point or an exponent */
	PB_TOK_PARAM,				/* $n */
	PB_TOK_OPERATOR,			/* an operator (+, <=, ::, ...) */
	PB_TOK_SELF,				/* one of ( ) [ ] , ; : . */
	PB_TOK_ERROR				/* an unterminated string, identifier or comment */
} PbSqlTokenKind;

typedef struct PbSqlToken
{
	PbSqlTokenKind kind;
	size_t		start;			/* offset of its first byte in the text */
	size_t		len;			/* its length in bytes */
} PbSqlToken;

typedef struct PbSqlScanner
{
	const char *sql;
	size_t		len;
	size_t		pos;
} PbSqlScanner;

extern void pb_sql_scan_init(PbSqlScanner *scanner, const char *sql, size_t len);
extern PbSqlTokenKind pb_sql_scan(PbSqlScanner *scanner, PbSqlToken *token);
extern bool pb_sql_token_is(const char *sql, const PbSqlToken *token,
							const char *keyword);

/* What a statement does to the transaction it runs in */
typedef enum PbSqlTxn
{
	PB_SQL_OTHER = 0,			/* nothing: an ordinary statement */
	PB_SQL_BEGIN,				/* BEGIN, START TRANSACTION */
	PB_SQL_END,					/* COMMIT, END, ROLLBACK, ABORT, PREPARE TRANSACTION */
	PB_SQL_CHAIN				/* COMMIT or ROLLBACK AND CHAIN: ends one, begins the next */
} PbSqlTxn;

/* What a statement is, for what a capture keeps and a replay runs */
typedef enum PbSqlKind
{
	PB_SQL_PLAIN = 0,			/* any other statement */
	PB_SQL_COPY,				/* COPY: its data is not in the log */
	PB_SQL_CLIENT_ENCODING		/* SET client_encoding: the log is in one encoding */
} PbSqlKind;

/* One statement of a text: where it is and what it does */
typedef struct PbSqlStatement
{
	size_t		start;			/* offset of its first token */
	size_t		end;			/* offset past its last token (before ';') */
	PbSqlTxn	txn;
	PbSqlKind	kind;
} PbSqlStatement;

extern PbSqlTxn pb_sql_txn(const char *sql, size_t len);
extern PbSqlKind pb_sql_kind(const char *sql, size_t len);
extern int	pb_sql_split(const char *sql, size_t len, PbSqlStatement *out,
						 int max);
extern bool pb_sql_has_params(const char *sql, size_t len);

/* A constant made a parameter, typed as the parser types it */
typedef enum PbLiteralKind
{
	PB_LIT_INT4 = 0,
	PB_LIT_INT8,
	PB_LIT_NUMERIC,
	PB_LIT_UNKNOWN				/* a string: its context gives its type */
} PbLiteralKind;

typedef struct PbSqlLiteral
{
	PbLiteralKind kind;
	char	   *value;			/* as the type's input function reads it */
} PbSqlLiteral;

/* A statement with its constants made parameters $1..$n (sql_shape.c) */
typedef struct PbSqlShape
{
	char	   *text;
	int			nliterals;
	PbSqlLiteral *literals;
} PbSqlShape;

extern bool pb_sql_shape(const char *sql, size_t len, PbSqlShape *shape);
extern void pb_sql_shape_free(PbSqlShape *shape);

/* ---- capturing a log ------------------------------------------------------ */

typedef struct PbCaptureError
{
	long		line;			/* the log's line it is about, 0 if none */
	char		message[256];	/* lower case, no full stop */
	char		detail[512];	/* a sentence, or empty */
} PbCaptureError;

typedef enum PbLogFormat
{
	PB_LOG_AUTO = 0,			/* told from the first line */
	PB_LOG_STDERR,				/* log_line_prefix = '%m|%u|%d|%c|' */
	PB_LOG_CSV					/* csvlog */
} PbLogFormat;

/*
 * What a capture leaves out, and counts: pb_capture_skip_names[] names each
 * kind (a key of JSON), pb_capture_skip_what[] says what it is and
 * pb_capture_skip_why[] why, as a sentence.
 */
typedef enum PbCaptureSkip
{
	PB_SKIP_COPY = 0,			/* COPY: the log has no data */
	PB_SKIP_FASTPATH,			/* a function call of the fast-path protocol */
	PB_SKIP_LARGE_OBJECT,		/* a large object's function through it */
	PB_SKIP_CLIENT_ENCODING,	/* SET client_encoding */
	PB_SKIP_NO_PARAMETERS,		/* failed at its bind: no parameters logged */
	PB_SKIP_OUTSIDE_RANGE,		/* before since, after until */
	PB_SKIP_INCOMPLETE,			/* the last line, still being written */
	PB_SKIP_BOUND,				/* past a hooks capture's bound */
	PB_SKIP_KINDS
} PbCaptureSkip;

extern const char *const pb_capture_skip_names[PB_SKIP_KINDS];
extern const char *const pb_capture_skip_what[PB_SKIP_KINDS];
extern const char *const pb_capture_skip_why[PB_SKIP_KINDS];

/*
 * The UTC offset, in seconds east of Greenwich, of the log's local time
 * (year, month 1-12, day, hour, minute, second) written with the time zone
 * abbreviation zone; false when zone cannot be told.  The library knows
 * UTC, GMT and numeric offsets (+03, -0530) itself.
 */
typedef bool (*PbZoneResolver) (void *arg, const char *zone, const int *fields,
								int *offset);

/* A time: microseconds since 2000-01-01 00:00:00 UTC, as PostgreSQL's */
typedef int64_t PbLogTime;

typedef struct PbCaptureOptions
{
	PbLogFormat format;
	const char *database;		/* keep only this database's sessions, or NULL */
	const char *role;			/* ... this role's */
	const char *application;	/* ... this application's */
	bool		has_since;
	PbLogTime	since;			/* keep statements from this time on */
	bool		has_until;
	PbLogTime	until;			/* ... before this time */
	PbZoneResolver resolve_zone;	/* NULL: UTC, GMT and offsets only */
	void	   *resolve_arg;
} PbCaptureOptions;

/*
 * A statement as the capture keeps it.  name is NULL for the simple
 * protocol, "" for the extended protocol's unnamed statement, else its
 * prepared statement's name; params are the bind's parameters as the log
 * shows them (NULL for SQL NULL), with their types where known (a
 * capture through hooks).
 */
typedef struct PbCaptureStatement
{
	int			session_no;		/* 1-based, in order of first statement */
	long		statement_no;	/* 1-based within the session */
	long		line;			/* the log line that shows it */
	PbLogTime	at;				/* when it started */
	char	   *text;
	char	   *name;
	int			nparams;
	char	  **params;
	unsigned int *param_types;	/* their types' Oids; NULL: not known */
	double		duration;		/* ms, parse and bind included; < 0 unknown */
	char	   *error;			/* the error it failed with, or NULL */
	char		sqlstate[6];	/* the error's SQLSTATE, "" if not logged */
} PbCaptureStatement;

/* A session: one connection of the log, with a statement kept at least */
typedef struct PbCaptureSession
{
	char	   *id;				/* the log's session id (%c) */
	char	   *role;
	char	   *database;
	char	   *application;	/* NULL when the log does not say */
	bool		connected;		/* its connection is in the log */
	bool		disconnected;	/* and its disconnection */
	PbLogTime	connected_at;
	PbLogTime	disconnected_at;
	PbLogTime	first_at;		/* its first statement's start */
	PbLogTime	last_at;		/* its last statement's start */
	long		statements;
	long		errors;
} PbCaptureSession;

typedef struct PbCaptureCounts
{
	long		lines;			/* physical lines read */
	long		sessions;		/* sessions with a statement kept */
	long		statements;
	long		errors;			/* statements kept that failed in the log */
	long		skipped[PB_SKIP_KINDS];
	long		skipped_line[PB_SKIP_KINDS];	/* the first one's line */
	PbLogTime	first_at;		/* the first statement kept */
	PbLogTime	last_at;		/* and the last */
	PbLogFormat format;			/* as told from the first line */
} PbCaptureCounts;

typedef struct PbCapture PbCapture;

extern PbCapture *pb_capture_new(const PbCaptureOptions *options);
extern bool pb_capture_feed(PbCapture *capture, const char *data, size_t len,
							PbCaptureError *err);
extern bool pb_capture_finish(PbCapture *capture, PbCaptureError *err);
extern const PbCaptureStatement *pb_capture_next(PbCapture *capture);
extern const PbCaptureSession *pb_capture_session(const PbCapture *capture,
												  int session_no);
extern const PbCaptureCounts *pb_capture_counts(const PbCapture *capture);
extern void pb_capture_free(PbCapture *capture);

/* log times: parsing one as %m writes it, and the day count it rests on */
extern bool pb_log_time_parse(const char *text, size_t len, int *fields,
							  const char **zone_start, size_t *zone_len);
extern PbLogTime pb_log_time_from_fields(const int *fields);

#endif							/* PB_CAPTURE_H */
