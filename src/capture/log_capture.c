/*-------------------------------------------------------------------------
 *
 * log_capture.c
 *	  A capture made of a server log's entries: its sessions, each with
 *	  its statements in the order it ran them, when each started, the
 *	  parameters of the extended protocol's binds, the durations and the
 *	  errors the log records; and what was left out, counted by reason.
 *
 * What PostgreSQL logs, and what is made of it:
 *
 *	- log_statement = 'all' logs "statement: <text>" (the simple protocol)
 *	  and "execute <name>[/<portal>]: <text>" with "parameters: $1 = '...'"
 *	  in its DETAIL (the extended protocol) as each starts;
 *	  log_min_duration_statement = 0 then logs "duration: <ms> ms" as each
 *	  ends, and "duration: <ms> ms  parse|bind <name>: <text>" for the
 *	  extended protocol's earlier steps, which count in the next execute's
 *	  duration.  Alone, log_min_duration_statement = 0 logs each statement
 *	  as it ends, "duration: <ms> ms  statement|execute ...": it started
 *	  that long before.
 *	- An error is logged with the statement in STATEMENT (csvlog's query
 *	  column).  It belongs to the session's last statement when that one
 *	  has the same text, has not been logged as finished, and (csvlog)
 *	  did not fail in its parse or bind; else it failed before it was
 *	  logged (a syntax error, a bad parameter, any error with
 *	  log_min_duration_statement alone) and is a statement of its own, its
 *	  parameters read from the CONTEXT that log_parameter_max_length_on_error
 *	  writes (without them, one that uses parameters cannot be replayed,
 *	  and is left out).
 *	- "connection authorized: ... application_name=<name>" and
 *	  "disconnection: ..." open and close a session; a session whose
 *	  connection is not in the log starts with its first line.
 *	- Left out and counted: COPY (its data is not logged), SET
 *	  client_encoding (the log is in one encoding), the fast-path protocol's
 *	  function calls (large objects' apart), the statements outside the
 *	  time range, and a last line still being written.  A simple query of
 *	  several statements loses only those.
 *
 * The time range keeps transactions whole: a transaction block open at
 * since is left out, one open at until is kept to its end.
 *
 * Statements are handed out (pb_capture_next) once no later line can add
 * to them, so that the caller can store them as the log is read: memory
 * holds a statement per open session, not the log.  Backend-free: see
 * pb_capture.h.
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_capture_int.h"

const char *const pb_capture_skip_names[PB_SKIP_KINDS] = {
	"copy", "fastpath", "large_object", "client_encoding", "no_parameters",
	"outside_range", "incomplete", "over_bound"
};

const char *const pb_capture_skip_what[PB_SKIP_KINDS] = {
	"COPY statements",
	"function calls of the fast-path protocol",
	"large object calls of the fast-path protocol",
	"SET client_encoding statements",
	"statements that failed at their bind",
	"statements outside the time range",
	"incomplete last lines",
	"statements past the capture's bound"
};

const char *const pb_capture_skip_why[PB_SKIP_KINDS] = {
	"The log does not hold their data.",
	"The log does not hold their arguments.",
	"The log does not hold their arguments.",
	"The log is in the database's encoding.",
	"The log does not show their parameters; log_parameter_max_length_on_error = -1 shows them.",
	"Statements before since or from until are left out, but for those that finish a transaction begun within the range.",
	"The server was still writing them.",
	"A capture through hooks keeps what its max_size and polarbench.capture_memory allow; the sessions were not held back."
};

/* a session of the log, and what is being made of its statements */
typedef struct Session
{
	PbCaptureSession pub;
	int			session_no;		/* 0 until a statement of it is kept */
	bool		excluded;		/* left out by a filter */
	bool		app_known;
	bool		has_pending;	/* a statement that later lines may add to */
	bool		pending_keep;	/* it is kept (not outside the range) */
	bool		pending_done;	/* the log says it finished */
	PbCaptureStatement pending;
	bool		has_pre;		/* parse and bind durations, before an execute */
	double		pre_ms;
	PbLogTime	pre_start;
	double		pending_pre;	/* its parse and bind, until its duration comes */
	char	   *dropped_text;	/* the last statement left out, whose error is its own */
	bool		in_block;		/* in a transaction block, after the statements so far */
	bool		block_kept;		/* that block's statements are kept */
	PbLogTime	last_kept_at;
	struct Session *next;		/* in its hash bucket */
} Session;

/* the UTC offsets of local hours recently read */
#define ZONE_CACHE 4
typedef struct ZoneCacheEntry
{
	char		zone[16];
	int			key[4];			/* year, month, day, hour */
	int			offset;
} ZoneCacheEntry;

struct PbCapture
{
	PbCaptureOptions options;	/* the filters' strings copied */
	PbLogReader *reader;
	Session   **buckets;		/* open sessions by id */
	size_t		nbuckets;
	size_t		nopen;
	Session   **kept;			/* sessions with a statement kept, by number */
	int			nkept;
	int			kept_cap;
	PbCaptureStatement *queue;	/* statements complete, not yet handed out */
	size_t		qlen;
	size_t		qpos;
	size_t		qcap;
	PbCaptureCounts counts;
	ZoneCacheEntry zones[ZONE_CACHE];
	int			zone_next;
};

static bool
oom(PbCaptureError *err, long line)
{
	pb_capture_error(err, line, NULL, "out of memory reading the log");
	return false;
}

static char *
dup_n(const char *s, size_t n)
{
	char	   *d = malloc(n + 1);

	if (d != NULL)
	{
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

static char *
dup_s(const char *s)
{
	return s == NULL ? NULL : dup_n(s, strlen(s));
}

static void
statement_free(PbCaptureStatement *st)
{
	free(st->text);
	free(st->name);
	free(st->error);
	for (int i = 0; i < st->nparams; i++)
		free(st->params[i]);
	free(st->params);
	memset(st, 0, sizeof(*st));
}

static void
session_free(Session *s)
{
	if (s == NULL)
		return;
	if (s->has_pending)
		statement_free(&s->pending);
	free(s->dropped_text);
	free(s->pub.id);
	free(s->pub.role);
	free(s->pub.database);
	free(s->pub.application);
	free(s);
}

/* ---- options, times ------------------------------------------------------ */

/* A new capture with those options (its strings are copied); NULL if out of memory. */
PbCapture *
pb_capture_new(const PbCaptureOptions *options)
{
	PbCapture  *c = calloc(1, sizeof(PbCapture));

	if (c == NULL)
		return NULL;
	c->options = *options;
	c->options.database = dup_s(options->database);
	c->options.role = dup_s(options->role);
	c->options.application = dup_s(options->application);
	c->nbuckets = 1024;
	c->buckets = calloc(c->nbuckets, sizeof(Session *));
	c->counts.format = options->format;
	if (c->buckets == NULL ||
		(options->database != NULL && c->options.database == NULL) ||
		(options->role != NULL && c->options.role == NULL) ||
		(options->application != NULL && c->options.application == NULL))
	{
		pb_capture_free(c);
		return NULL;
	}
	return c;
}

/*
 * A numeric zone (+03, -0530, +05:30) as seconds east of UTC; false when
 * zone is not one.
 */
static bool
numeric_zone(const char *zone, size_t len, int *offset)
{
	int			h,
				m = 0;

	if (len < 3 || (zone[0] != '+' && zone[0] != '-'))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!(zone[i] >= '0' && zone[i] <= '9') && !(i == 3 && zone[i] == ':'))
			return false;
	h = (zone[1] - '0') * 10 + (zone[2] - '0');
	if (len == 5)
		m = (zone[3] - '0') * 10 + (zone[4] - '0');
	else if (len == 6 && zone[3] == ':')
		m = (zone[4] - '0') * 10 + (zone[5] - '0');
	else if (len != 3)
		return false;
	if (h > 15 || m > 59)
		return false;
	*offset = (zone[0] == '-' ? -1 : 1) * (h * 3600 + m * 60);
	return true;
}

/* When an entry was logged, in microseconds since 2000-01-01 UTC. */
static bool
entry_time(PbCapture *c, const PbLogEntry *e, PbLogTime *t, PbCaptureError *err)
{
	int			fields[7];
	const char *zone;
	size_t		zone_len;
	int			offset = 0;

	if (!pb_log_time_parse(e->f[PB_LF_TIME].s, e->f[PB_LF_TIME].len, fields,
						   &zone, &zone_len))
	{
		pb_capture_error(err, e->line, NULL, "line %ld has no valid time", e->line);
		return false;
	}
	if (zone_len == 0 ||
		(zone_len == 3 && (memcmp(zone, "UTC", 3) == 0 || memcmp(zone, "GMT", 3) == 0 ||
						   memcmp(zone, "UCT", 3) == 0)))
		offset = 0;
	else if (!numeric_zone(zone, zone_len, &offset))
	{
		int			key[4] = {fields[0], fields[1], fields[2], fields[3]};
		bool		found = false;

		for (int i = 0; i < ZONE_CACHE && !found; i++)
		{
			ZoneCacheEntry *z = &c->zones[i];

			if (strlen(z->zone) == zone_len && memcmp(z->zone, zone, zone_len) == 0 &&
				memcmp(z->key, key, sizeof(key)) == 0)
			{
				offset = z->offset;
				found = true;
			}
		}
		if (!found)
		{
			char		name[16];

			if (zone_len >= sizeof(name) || c->options.resolve_zone == NULL ||
				(memcpy(name, zone, zone_len), name[zone_len] = '\0',
				 !c->options.resolve_zone(c->options.resolve_arg, name, fields, &offset)))
			{
				pb_capture_error(err, e->line,
								 "Give the time zone the log was written in (its log_timezone), or write the log with log_timezone = 'UTC'.",
								 "the time zone \"%.*s\" of line %ld is not known",
								 (int) (zone_len < 40 ? zone_len : 40), zone, e->line);
				return false;
			}
			memcpy(c->zones[c->zone_next].zone, name, zone_len + 1);
			memcpy(c->zones[c->zone_next].key, key, sizeof(key));
			c->zones[c->zone_next].offset = offset;
			c->zone_next = (c->zone_next + 1) % ZONE_CACHE;
		}
	}
	*t = pb_log_time_from_fields(fields) - (PbLogTime) offset * 1000000;
	return true;
}

/* ---- sessions ---------------------------------------------------------- */

static size_t
hash_id(const char *id, size_t nbuckets)
{
	uint64_t	h = UINT64_C(14695981039346656037);

	for (; *id; id++)
		h = (h ^ (unsigned char) *id) * UINT64_C(1099511628211);
	return (size_t) (h % nbuckets);
}

static Session *
session_find(PbCapture *c, const char *id)
{
	for (Session *s = c->buckets[hash_id(id, c->nbuckets)]; s != NULL; s = s->next)
		if (strcmp(s->pub.id, id) == 0)
			return s;
	return NULL;
}

/* Double the buckets when sessions outnumber them. */
static bool
sessions_grow(PbCapture *c)
{
	size_t		n = c->nbuckets * 2;
	Session   **b = calloc(n, sizeof(Session *));

	if (b == NULL)
		return false;
	for (size_t i = 0; i < c->nbuckets; i++)
	{
		Session    *s = c->buckets[i];

		while (s != NULL)
		{
			Session    *next = s->next;
			size_t		h = hash_id(s->pub.id, n);

			s->next = b[h];
			b[h] = s;
			s = next;
		}
	}
	free(c->buckets);
	c->buckets = b;
	c->nbuckets = n;
	return true;
}

/*
 * The open session of the entry's session id, made when it is new (with
 * the entry's role and database, filtered by them); NULL if out of memory.
 */
static Session *
session_get(PbCapture *c, const PbLogEntry *e)
{
	const char *id = e->f[PB_LF_SESSION].s;
	Session    *s = session_find(c, id);
	size_t		h;

	if (s != NULL)
		return s;
	if (c->nopen >= c->nbuckets * 2 && !sessions_grow(c))
		return NULL;
	s = calloc(1, sizeof(Session));
	if (s == NULL)
		return NULL;
	s->pub.id = dup_s(id);
	s->pub.role = dup_s(e->f[PB_LF_USER].s);
	s->pub.database = dup_s(e->f[PB_LF_DATABASE].s);
	if (e->f[PB_LF_APPLICATION].len > 0)
	{
		s->pub.application = dup_s(e->f[PB_LF_APPLICATION].s);
		s->app_known = true;
	}
	if (s->pub.id == NULL || s->pub.role == NULL || s->pub.database == NULL ||
		(s->app_known && s->pub.application == NULL))
	{
		session_free(s);
		return NULL;
	}
	s->excluded = (c->options.database != NULL &&
				   strcmp(c->options.database, s->pub.database) != 0) ||
		(c->options.role != NULL && strcmp(c->options.role, s->pub.role) != 0);
	h = hash_id(id, c->nbuckets);
	s->next = c->buckets[h];
	c->buckets[h] = s;
	c->nopen++;
	return s;
}

/* Take a session out of the open ones (its id may start another). */
static void
session_close(PbCapture *c, Session *s)
{
	Session   **p = &c->buckets[hash_id(s->pub.id, c->nbuckets)];

	while (*p != NULL && *p != s)
		p = &(*p)->next;
	if (*p == s)
	{
		*p = s->next;
		c->nopen--;
	}
	s->next = NULL;
	if (s->session_no == 0)
		session_free(s);
}

/* ---- statements ---------------------------------------------------------- */

static void
skip(PbCapture *c, PbCaptureSkip kind, long line)
{
	if (c->counts.skipped[kind]++ == 0)
		c->counts.skipped_line[kind] = line;
}

/*
 * The in-block state after a statement that ran in a session whose state
 * was in_block before it (a simple query's statements one after the
 * other); began says whether it began a block.  A statement that failed
 * leaves a block it began open (aborted, until its end), and ends one only
 * if it was the end itself (a COMMIT whose deferred checks failed).
 */
static bool
txn_after(const char *text, bool failed, bool in_block, bool *began)
{
	PbSqlStatement local[16];
	PbSqlStatement *parts = local;
	int			n = pb_sql_split(text, strlen(text), local, 16);
	bool		state = in_block;

	*began = false;
	if (n > 16)
	{
		parts = malloc(sizeof(PbSqlStatement) * n);
		if (parts == NULL)
			return in_block;
		pb_sql_split(text, strlen(text), parts, n);
	}
	for (int i = 0; i < n; i++)
	{
		if (parts[i].txn == PB_SQL_BEGIN || parts[i].txn == PB_SQL_CHAIN)
		{
			state = true;
			*began = true;
		}
		else if (parts[i].txn == PB_SQL_END)
			state = false;
	}
	if (failed)
		state = (n == 1 && parts[0].txn == PB_SQL_END) ? false : (in_block || *began);
	if (parts != local)
		free(parts);
	return state;
}

/* Hand a complete statement out, or drop it; the session's block state follows it. */
static bool
pending_complete(PbCapture *c, Session *s, PbCaptureError *err)
{
	PbCaptureStatement *st = &s->pending;
	bool		began;

	if (!s->has_pending)
		return true;
	s->has_pending = false;
	s->in_block = txn_after(st->text, st->error != NULL, s->in_block, &began);
	if (began)
		s->block_kept = s->pending_keep;
	if (!s->pending_keep)
	{
		statement_free(st);
		return true;
	}
	/* the log's microseconds, without the sums' rounding */
	if (st->duration >= 0)
		st->duration = (double) (int64_t) (st->duration * 1000 + 0.5) / 1000;
	if (st->error != NULL)
	{
		s->pub.errors++;
		c->counts.errors++;
	}
	if (c->qlen == c->qcap)
	{
		size_t		cap = c->qcap == 0 ? 256 : c->qcap * 2;
		PbCaptureStatement *q = realloc(c->queue, cap * sizeof(PbCaptureStatement));

		if (q == NULL)
			return oom(err, st->line);
		c->queue = q;
		c->qcap = cap;
	}
	c->queue[c->qlen++] = *st;
	memset(st, 0, sizeof(*st));
	return true;
}

/*
 * Whether a statement starting at `at` is kept, given the session's block:
 * within the range, unless a block begun before it goes on; after it, only
 * to finish a block kept.
 */
static bool
in_range(PbCapture *c, Session *s, PbLogTime at)
{
	if (c->options.has_since && at < c->options.since)
		return false;
	if (c->options.has_until && at >= c->options.until)
		return s->in_block && s->block_kept;
	return !(s->in_block && !s->block_kept);
}

/*
 * Drop a simple query's COPY and SET client_encoding statements, counting
 * them: the text left (a new string, "" when none is left) or NULL if out
 * of memory.
 */
static char *
drop_skipped(PbCapture *c, const char *text, long line)
{
	PbSqlStatement local[16];
	PbSqlStatement *parts = local;
	size_t		len = strlen(text);
	int			n = pb_sql_split(text, len, local, 16);
	int			dropped = 0;
	char	   *out;
	size_t		o = 0;

	if (n > 16)
	{
		parts = malloc(sizeof(PbSqlStatement) * n);
		if (parts == NULL)
			return NULL;
		pb_sql_split(text, len, parts, n);
	}
	for (int i = 0; i < n; i++)
		if (parts[i].kind != PB_SQL_PLAIN)
		{
			skip(c, parts[i].kind == PB_SQL_COPY ? PB_SKIP_COPY : PB_SKIP_CLIENT_ENCODING, line);
			dropped++;
		}
	if (dropped == 0)
		out = dup_n(text, len);
	else if ((out = malloc(len + 1)) != NULL)
	{
		for (int i = 0; i < n; i++)
		{
			if (parts[i].kind != PB_SQL_PLAIN)
				continue;
			if (o > 0)
			{
				memcpy(out + o, "; ", 2);
				o += 2;
			}
			memcpy(out + o, text + parts[i].start, parts[i].end - parts[i].start);
			o += parts[i].end - parts[i].start;
		}
		out[o] = '\0';
	}
	if (parts != local)
		free(parts);
	return out;
}

/*
 * A new statement of session s, logged on line at time at: the session's
 * last one is complete.  name NULL for the simple protocol; params taken
 * over (freed here on failure or when it is left out).  duration < 0 when
 * the log has none yet.
 */
static bool
statement_new(PbCapture *c, Session *s, long line, PbLogTime at, const char *text,
			  const char *name, int nparams, char **params, double duration,
			  PbCaptureError *err)
{
	PbCaptureStatement *st = &s->pending;
	char	   *kept_text;

	if (!pending_complete(c, s, err))
		goto fail;
	if (!s->excluded && !s->app_known && c->options.application != NULL)
		s->excluded = true;
	if (!s->excluded && s->app_known && c->options.application != NULL &&
		strcmp(c->options.application, s->pub.application) != 0)
		s->excluded = true;
	free(s->dropped_text);
	s->dropped_text = NULL;
	if (s->excluded)
		goto drop;
	if (name == NULL)
		kept_text = drop_skipped(c, text, line);
	else if (pb_sql_kind(text, strlen(text)) != PB_SQL_PLAIN)
	{
		skip(c, pb_sql_kind(text, strlen(text)) == PB_SQL_COPY ?
			 PB_SKIP_COPY : PB_SKIP_CLIENT_ENCODING, line);
		kept_text = dup_s("");
	}
	else
		kept_text = dup_s(text);
	if (kept_text == NULL)
	{
		oom(err, line);
		goto fail;
	}
	/* what was left out of it: its error, if any, is this statement's */
	if (strcmp(kept_text, text) != 0 && (s->dropped_text = dup_s(text)) == NULL)
	{
		free(kept_text);
		oom(err, line);
		goto fail;
	}
	if (kept_text[0] == '\0')
	{
		free(kept_text);
		goto drop;
	}
	/* the extended protocol's parse and bind came first */
	s->pending_pre = 0;
	if (name != NULL && s->has_pre)
	{
		if (s->pre_start < at)
			at = s->pre_start;
		if (duration >= 0)
			duration += s->pre_ms;
		else
			s->pending_pre = s->pre_ms;
	}
	s->has_pre = false;
	memset(st, 0, sizeof(*st));
	st->text = kept_text;
	st->name = dup_s(name);
	st->nparams = nparams;
	st->params = params;
	params = NULL;
	st->line = line;
	st->at = at;
	st->duration = duration;
	if (name != NULL && st->name == NULL)
	{
		statement_free(st);
		oom(err, line);
		goto fail;
	}
	s->has_pending = true;
	s->pending_done = duration >= 0;
	s->pending_keep = in_range(c, s, at);
	if (!s->pending_keep)
	{
		skip(c, PB_SKIP_OUTSIDE_RANGE, line);
		return true;
	}
	/* kept: its session is numbered at its first, its times in order */
	if (s->session_no == 0)
	{
		if (c->nkept == c->kept_cap)
		{
			int			cap = c->kept_cap == 0 ? 64 : c->kept_cap * 2;
			Session   **k = realloc(c->kept, cap * sizeof(Session *));

			if (k == NULL)
				return oom(err, line);
			c->kept = k;
			c->kept_cap = cap;
		}
		c->kept[c->nkept++] = s;
		s->session_no = c->nkept;
		s->pub.first_at = st->at;
		s->last_kept_at = st->at;
		c->counts.sessions = c->nkept;
	}
	if (st->at < s->last_kept_at)
		st->at = s->last_kept_at;
	s->last_kept_at = st->at;
	s->pub.last_at = st->at;
	st->session_no = s->session_no;
	st->statement_no = ++s->pub.statements;
	if (c->counts.statements++ == 0 || st->at < c->counts.first_at)
		c->counts.first_at = st->at;
	if (st->at > c->counts.last_at)
		c->counts.last_at = st->at;
	return true;

drop:
	s->has_pre = false;
	for (int i = 0; i < nparams && params != NULL; i++)
		free(params[i]);
	free(params);
	return true;
fail:
	for (int i = 0; i < nparams && params != NULL; i++)
		free(params[i]);
	free(params);
	return false;
}

/* ---- parsing messages ---------------------------------------------------- */

/*
 * The parameters of "$1 = 'a', $2 = NULL" (quotes doubled inside values)
 * at s: *params gets them (NULL for NULL), *n their number.  False when s
 * is not that list (or out of memory, *oom_out set).
 */
static bool
parse_params(const char *s, int *n, char ***params, bool *oom_out)
{
	int			cap = 4;
	char	  **p = malloc(cap * sizeof(char *));
	int			count = 0;

	*oom_out = false;
	if (p == NULL)
	{
		*oom_out = true;
		return false;
	}
	while (*s != '\0')
	{
		long		no;
		char	   *end;
		char	   *value = NULL;

		if (*s != '$')
			goto bad;
		no = strtol(s + 1, &end, 10);
		if (end == s + 1 || no != count + 1 || strncmp(end, " = ", 3) != 0)
			goto bad;
		s = end + 3;
		if (strncmp(s, "NULL", 4) == 0)
			s += 4;
		else if (*s == '\'')
		{
			const char *q = s + 1;
			size_t		len = 0;

			/* its length, then its characters, quotes undoubled */
			for (;;)
			{
				if (*q == '\0')
					goto bad;
				if (*q == '\'')
				{
					if (q[1] != '\'')
						break;
					q++;
				}
				q++;
				len++;
			}
			value = malloc(len + 1);
			if (value == NULL)
			{
				*oom_out = true;
				goto bad;
			}
			len = 0;
			for (q = s + 1; !(*q == '\'' && q[1] != '\''); q++)
			{
				if (*q == '\'')
					q++;
				value[len++] = *q;
			}
			value[len] = '\0';
			s = q + 1;
		}
		else
			goto bad;
		if (count == cap)
		{
			char	  **np = realloc(p, (cap *= 2) * sizeof(char *));

			if (np == NULL)
			{
				free(value);
				*oom_out = true;
				goto bad;
			}
			p = np;
		}
		p[count++] = value;
		if (*s == '\0')
			break;
		if (strncmp(s, ", ", 2) != 0)
			goto bad;
		s += 2;
	}
	*n = count;
	*params = p;
	return true;

bad:
	for (int i = 0; i < count; i++)
		free(p[i]);
	free(p);
	return false;
}

/*
 * The parameters an entry's DETAIL shows ("parameters: ..."), or none; an
 * error when it shows a list that does not read.
 */
static bool
detail_params(const PbLogEntry *e, int *n, char ***params, PbCaptureError *err)
{
	const char *d = e->f[PB_LF_DETAIL].s;
	bool		oom_out;

	*n = 0;
	*params = NULL;
	if (strncmp(d, "parameters: ", 12) != 0)
		return true;
	if (parse_params(d + 12, n, params, &oom_out))
		return true;
	if (oom_out)
		return oom(err, e->line);
	pb_capture_error(err, e->line,
					 "It should read $1 = 'value', $2 = NULL, ... (log_parameter_max_length = -1).",
					 "the parameters of the statement at line %ld do not read", e->line);
	return false;
}

/*
 * The parameters of a portal that an error's CONTEXT shows ("unnamed
 * portal with parameters: ..." or "portal \"x\" with parameters: ..."):
 * true and them when it shows them.
 */
static bool
context_params(const PbLogEntry *e, int *n, char ***params, bool *oom_out)
{
	const char *ctx = e->f[PB_LF_CONTEXT].s;
	const char *p = strstr(ctx, "portal");
	const char *w;

	*oom_out = false;
	while (p != NULL)
	{
		w = strstr(p, " with parameters: ");
		if (w != NULL && (p == ctx || p[-1] == '\n' || p[-1] == ' ') &&
			parse_params(w + 18, n, params, oom_out))
			return true;
		if (*oom_out)
			return false;
		p = strstr(p + 6, "portal");
	}
	return false;
}

static bool
same_params(const PbCaptureStatement *st, int n, char **params)
{
	if (st->nparams != n)
		return false;
	for (int i = 0; i < n; i++)
	{
		if ((st->params[i] == NULL) != (params[i] == NULL))
			return false;
		if (params[i] != NULL && strcmp(st->params[i], params[i]) != 0)
			return false;
	}
	return true;
}

static void
free_params(int n, char **params)
{
	for (int i = 0; i < n && params != NULL; i++)
		free(params[i]);
	free(params);
}

/*
 * "<number> ms" at s, for "duration: "; *rest what follows.  False when
 * it does not read.
 */
static bool
parse_ms(const char *s, double *ms, const char **rest)
{
	char	   *end;

	*ms = strtod(s, &end);
	if (end == s || strncmp(end, " ms", 3) != 0 || *ms < 0)
		return false;
	*rest = end + 3;
	return true;
}

/*
 * An "execute <name>[/<portal>]: <text>" at s (after "execute "): the
 * statement's name ("" for <unnamed>) into name (a new string) and where
 * the text starts.
 */
static bool
parse_execute(const char *s, char **name, const char **text)
{
	const char *colon = strstr(s, ": ");
	const char *slash;
	size_t		n;

	if (colon == NULL)
		return false;
	slash = memchr(s, '/', colon - s);
	n = (slash != NULL ? slash : colon) - s;
	if (n == 9 && strncmp(s, "<unnamed>", 9) == 0)
		n = 0;
	*name = dup_n(s, n);
	*text = colon + 2;
	return *name != NULL;
}

/* The application_name of a "connection authorized: ..." message, or NULL. */
static char *
connection_application(const char *msg)
{
	const char *a = strstr(msg, " application_name=");
	const char *end;
	const char *ssl;
	const char *gss;

	if (a == NULL)
		return NULL;
	a += 18;
	end = a + strlen(a);
	ssl = strstr(a, " SSL enabled (");
	gss = strstr(a, " GSS (");
	if (ssl != NULL && ssl < end)
		end = ssl;
	if (gss != NULL && gss < end)
		end = gss;
	return dup_n(a, end - a);
}

/* Whether a fast-path call's function is one of the large objects'. */
static bool
large_object_function(const char *msg)
{
	const char *q = strchr(msg, '"');

	return q != NULL && (strncmp(q + 1, "lo_", 3) == 0 ||
						 strncmp(q + 1, "loread\"", 7) == 0 ||
						 strncmp(q + 1, "lowrite\"", 8) == 0);
}

/*
 * An execute (logged as it starts, or with its duration as it ends): a
 * statement of the extended protocol, with the parameters of the entry's
 * DETAIL.
 */
static bool
extended_statement(PbCapture *c, Session *s, const PbLogEntry *e, PbLogTime t,
				   const char *after_execute, double duration, PbCaptureError *err)
{
	char	   *name;
	const char *text;
	int			n;
	char	  **params;
	bool		ok;

	if (!parse_execute(after_execute, &name, &text))
	{
		pb_capture_error(err, e->line, NULL,
						 "line %ld logs an execute without its statement's name", e->line);
		return false;
	}
	if (!detail_params(e, &n, &params, err))
	{
		free(name);
		return false;
	}
	ok = statement_new(c, s, e->line, duration >= 0 ? t - (PbLogTime) (duration * 1000) : t,
					   text, name, n, params, duration, err);
	free(name);
	return ok;
}

/* A LOG entry of a session. */
static bool
log_entry(PbCapture *c, const PbLogEntry *e, PbCaptureError *err)
{
	const char *msg = e->f[PB_LF_MESSAGE].s;
	Session    *s;
	PbLogTime	t;
	double		ms;
	const char *rest;

	if (strncmp(msg, "connection authorized: ", 23) == 0)
	{
		if ((s = session_get(c, e)) == NULL || !entry_time(c, e, &t, err))
			return s != NULL ? false : oom(err, e->line);
		s->pub.connected = true;
		s->pub.connected_at = t;
		if (!s->app_known)
		{
			s->pub.application = connection_application(msg);
			s->app_known = s->pub.application != NULL;
		}
		return true;
	}
	if (strncmp(msg, "disconnection: ", 15) == 0)
	{
		if ((s = session_find(c, e->f[PB_LF_SESSION].s)) == NULL)
			return true;
		if (!entry_time(c, e, &t, err) || !pending_complete(c, s, err))
			return false;
		s->pub.disconnected = true;
		s->pub.disconnected_at = t;
		session_close(c, s);
		return true;
	}
	if (strncmp(msg, "statement: ", 11) == 0)
	{
		if ((s = session_get(c, e)) == NULL)
			return oom(err, e->line);
		return entry_time(c, e, &t, err) &&
			statement_new(c, s, e->line, t, msg + 11, NULL, 0, NULL, -1, err);
	}
	if (strncmp(msg, "execute fetch from ", 19) == 0)
		return true;
	if (strncmp(msg, "execute ", 8) == 0)
	{
		if ((s = session_get(c, e)) == NULL)
			return oom(err, e->line);
		return entry_time(c, e, &t, err) &&
			extended_statement(c, s, e, t, msg + 8, -1, err);
	}
	if (strncmp(msg, "fastpath function call: ", 24) == 0 ||
		(strncmp(msg, "duration: ", 10) == 0 && strstr(msg, " ms  fastpath function call: ") != NULL))
	{
		if ((s = session_get(c, e)) == NULL)
			return oom(err, e->line);
		if (!s->excluded)
			skip(c, large_object_function(msg) ? PB_SKIP_LARGE_OBJECT : PB_SKIP_FASTPATH, e->line);
		return true;
	}
	if (strncmp(msg, "duration: ", 10) != 0)
		return true;
	if (!parse_ms(msg + 10, &ms, &rest))
	{
		pb_capture_error(err, e->line, NULL, "line %ld logs a duration that does not read", e->line);
		return false;
	}
	if ((s = session_get(c, e)) == NULL)
		return oom(err, e->line);
	if (!entry_time(c, e, &t, err))
		return false;
	if (*rest == '\0' || strncmp(rest, "  execute fetch from ", 21) == 0)
	{
		/* the end of the statement logged at its start, or more of its rows */
		if (s->has_pending)
		{
			s->pending.duration = (s->pending.duration < 0 ? s->pending_pre :
								   s->pending.duration) + ms;
			s->pending_done = true;
		}
		return true;
	}
	if (strncmp(rest, "  statement: ", 13) == 0)
		return statement_new(c, s, e->line, t - (PbLogTime) (ms * 1000), rest + 13,
							 NULL, 0, NULL, ms, err);
	if (strncmp(rest, "  parse ", 8) == 0 || strncmp(rest, "  bind ", 7) == 0)
	{
		PbLogTime	start = t - (PbLogTime) (ms * 1000);

		if (!s->has_pre || start < s->pre_start)
			s->pre_start = start;
		s->pre_ms = (s->has_pre ? s->pre_ms : 0) + ms;
		s->has_pre = true;
		return true;
	}
	if (strncmp(rest, "  execute ", 10) == 0)
		return extended_statement(c, s, e, t, rest + 10, ms, err);
	return true;
}

/*
 * An ERROR entry of a session: the error of its last statement, or a
 * statement of its own that failed before it was logged.
 */
static bool
error_entry(PbCapture *c, const PbLogEntry *e, PbCaptureError *err)
{
	const char *text = e->f[PB_LF_STATEMENT].s;
	const char *tag = e->f[PB_LF_COMMAND_TAG].s;
	Session    *s;
	PbCaptureStatement *st;
	int			n = 0;
	char	  **params = NULL;
	bool		has_params;
	bool		oom_out;
	PbLogTime	t;

	if ((s = session_get(c, e)) == NULL)
		return oom(err, e->line);
	has_params = context_params(e, &n, &params, &oom_out);
	if (oom_out)
		return oom(err, e->line);
	st = &s->pending;
	if (s->has_pending && !s->pending_done && st->error == NULL &&
		(text[0] == '\0' || strcmp(text, st->text) == 0 ||
		 (s->dropped_text != NULL && strcmp(text, s->dropped_text) == 0)) &&
		strcmp(tag, "PARSE") != 0 && strcmp(tag, "BIND") != 0 &&
		(!has_params || same_params(st, n, params)))
	{
		free_params(n, params);
		st->error = dup_s(e->f[PB_LF_MESSAGE].s);
		if (st->error == NULL)
			return oom(err, e->line);
		snprintf(st->sqlstate, sizeof(st->sqlstate), "%s", e->f[PB_LF_SQLSTATE].s);
		s->pending_done = true;
		return true;
	}
	if (text[0] == '\0' ||
		(s->dropped_text != NULL && strcmp(text, s->dropped_text) == 0))
	{
		/* no statement to it, or one left out and counted */
		free_params(n, params);
		return true;
	}
	if (!entry_time(c, e, &t, err))
	{
		free_params(n, params);
		return false;
	}
	if (!has_params && pb_sql_has_params(text, strlen(text)))
	{
		if (!pending_complete(c, s, err))
			return false;
		if (!s->excluded)
			skip(c, PB_SKIP_NO_PARAMETERS, e->line);
		return true;
	}
	if (!statement_new(c, s, e->line, t, text, has_params ? "" : NULL, n, params, -1, err))
		return false;
	if (s->has_pending)
	{
		s->pending.error = dup_s(e->f[PB_LF_MESSAGE].s);
		if (s->pending.error == NULL)
			return oom(err, e->line);
		snprintf(s->pending.sqlstate, sizeof(s->pending.sqlstate), "%s",
				 e->f[PB_LF_SQLSTATE].s);
		s->pending_done = true;
	}
	return true;
}

/* Each entry the reader reads: a session's LOG or ERROR, the rest passed over. */
static bool
on_entry(void *arg, PbLogEntry *e, PbCaptureError *err)
{
	PbCapture  *c = arg;
	const char *user = e->f[PB_LF_USER].s;
	const char *sev = e->f[PB_LF_SEVERITY].s;

	if (user[0] == '\0' || strcmp(user, "[unknown]") == 0 ||
		e->f[PB_LF_SESSION].len == 0)
		return true;
	if (strcmp(sev, "LOG") == 0)
		return log_entry(c, e, err);
	if (strcmp(sev, "ERROR") == 0)
		return error_entry(c, e, err);
	return true;
}

/* ---- the interface ------------------------------------------------------- */

/* Read data[0..len), the log's next bytes; false on an error (err filled). */
bool
pb_capture_feed(PbCapture *capture, const char *data, size_t len,
				PbCaptureError *err)
{
	if (capture->reader == NULL)
	{
		capture->reader = pb_log_reader_new(capture->options.format, on_entry, capture);
		if (capture->reader == NULL)
			return oom(err, 0);
	}
	if (!pb_log_reader_feed(capture->reader, data, len, err))
		return false;
	capture->counts.lines = pb_log_reader_lines(capture->reader);
	capture->counts.format = pb_log_reader_format(capture->reader);
	return true;
}

/* qsort's order of sessions: their pending statements' lines */
static int
pending_order(const void *a, const void *b)
{
	long		la = (*(Session *const *) a)->pending.line;
	long		lb = (*(Session *const *) b)->pending.line;

	return la < lb ? -1 : la > lb;
}

/*
 * The end of the log: the last entries are read, and the statements of
 * the sessions still open are complete.
 */
bool
pb_capture_finish(PbCapture *capture, PbCaptureError *err)
{
	bool		incomplete;
	long		line;
	PbCapture  *c = capture;

	if (c->reader == NULL && !pb_capture_feed(c, "", 0, err))
		return false;
	if (!pb_log_reader_finish(c->reader, &incomplete, &line, err))
		return false;
	if (incomplete)
		skip(c, PB_SKIP_INCOMPLETE, line);
	c->counts.lines = pb_log_reader_lines(c->reader);
	c->counts.format = pb_log_reader_format(c->reader);
	/* the open sessions' last statements, in the order they were logged */
	if (c->nopen > 0)
	{
		Session   **open = malloc(c->nopen * sizeof(Session *));
		size_t		n = 0;

		if (open == NULL)
			return oom(err, c->counts.lines);
		for (size_t i = 0; i < c->nbuckets; i++)
			for (Session *s = c->buckets[i]; s != NULL; s = s->next)
				if (s->has_pending)
					open[n++] = s;
		qsort(open, n, sizeof(Session *), pending_order);
		for (size_t i = 0; i < n; i++)
			if (!pending_complete(c, open[i], err))
			{
				free(open);
				return false;
			}
		free(open);
	}
	return true;
}

/*
 * The next complete statement, or NULL when there is none until more of
 * the log is read.  It stays valid until the next call of a function of
 * the capture.
 */
const PbCaptureStatement *
pb_capture_next(PbCapture *capture)
{
	if (capture->qpos > 0)
		statement_free(&capture->queue[capture->qpos - 1]);
	if (capture->qpos == capture->qlen)
	{
		capture->qpos = capture->qlen = 0;
		return NULL;
	}
	return &capture->queue[capture->qpos++];
}

/* The session numbered session_no (1-based), or NULL. */
const PbCaptureSession *
pb_capture_session(const PbCapture *capture, int session_no)
{
	if (session_no < 1 || session_no > capture->nkept)
		return NULL;
	return &capture->kept[session_no - 1]->pub;
}

/* What the capture counted so far. */
const PbCaptureCounts *
pb_capture_counts(const PbCapture *capture)
{
	return &capture->counts;
}

/* Give back everything the capture holds. */
void
pb_capture_free(PbCapture *capture)
{
	if (capture == NULL)
		return;
	pb_log_reader_free(capture->reader);
	for (size_t i = 0; i < capture->nbuckets && capture->buckets != NULL; i++)
	{
		Session    *s = capture->buckets[i];

		while (s != NULL)
		{
			Session    *next = s->next;

			if (s->session_no == 0)
				session_free(s);
			s = next;
		}
	}
	for (int i = 0; i < capture->nkept; i++)
		session_free(capture->kept[i]);
	for (size_t i = capture->qpos > 0 ? capture->qpos - 1 : 0; i < capture->qlen; i++)
		statement_free(&capture->queue[i]);
	free(capture->queue);
	free(capture->kept);
	free(capture->buckets);
	free((char *) capture->options.database);
	free((char *) capture->options.role);
	free((char *) capture->options.application);
	free(capture);
}
