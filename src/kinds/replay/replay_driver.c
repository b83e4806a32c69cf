/*-------------------------------------------------------------------------
 *
 * replay_driver.c
 *	  The replay of a capture in the run's clients: every captured session
 *	  runs its statements in the order it ran them, each at its logged time
 *	  divided by the speed (or as soon as it can, at "max"), with the
 *	  transactions the log shows, and goes on after an error as the logged
 *	  session did.
 *
 * A client serves several sessions (replay_sessions.c spreads them), as
 * TPC-C's clients serve terminals: PbDriver.schedule picks the session whose
 * next statement is due first.  A client's backend holds one transaction
 * at a time, so a client moves from one session to another only between
 * transactions: a statement outside a transaction is one step, and a
 * transaction from its BEGIN to its COMMIT or ROLLBACK is one step, its
 * statements each waiting for its own time.  A session that waits for a
 * lock therefore waits only for a transaction that another client runs to
 * its end, and never for a statement that its own client has not sent: a
 * log with contention replays to its end.  Sessions that the log shows
 * overlapping go to different clients as long as there are clients.
 *
 * Statements that differ only in their constants share a plan: a simple
 * query's constants are made parameters, typed as the parser types them
 * (sql_shape.c), and the shape is prepared once per client; a shape that
 * cannot be prepared (no type for a parameter, say) runs as its text.  The
 * extended protocol's statements are prepared once by their text, their
 * parameters' types inferred as the server infers those a client leaves
 * unspecified, and bound to the logged values.  Several statements in one
 * simple query run as their text, in one transaction.
 *
 * An error of a logged statement is counted and the session goes on: in a
 * transaction, the transaction is rolled back and its statements up to its
 * end fail as the server fails them (25P02).  Errors are counted apart as
 * those the log shows too, those it does not (by SQLSTATE), and the
 * statements that failed in the log but not here.
 *
 * The logged statements are the user's own and run as logged, along the
 * run's search path, as the run's role, or with the option roles as each
 * session's logged role.  A session runs with its logged role's rights or
 * fewer, never more: without roles, the caller refuses a capture with a
 * session of a role that lacks the run's role's privileges.  With roles,
 * a session's transactions run as its logged role the way a SECURITY
 * DEFINER function runs as its owner (a local change of the user ID,
 * which a transaction's abort undoes), so that the session's own SET ROLE,
 * RESET ROLE or SET SESSION AUTHORIZATION cannot take it back to the
 * client's login role: they fail, as in such a function.  The replay's
 * own queries (the capture's views) run as the run's role and name
 * pg_catalog's operators.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "parser/parse_param.h"
#include "parser/parser.h"
#include "pgstat.h"
#include "storage/latch.h"
#include "storage/spin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/wait_event.h"

#include "driver.h"
#include "driver_options.h"
#include "report_query.h"
#include "statement_exec.h"
#include "replay_sessions.h"

/* The shapes counted apart, each a row of polarbench_operations; the rest as one */
#define PB_REPLAY_MAX_SHAPES	500

/*
 * The plans a client keeps, about 14 kB each: past them, a statement is
 * planned each time it runs, as an application without prepared
 * statements has it planned
 */
#define PB_REPLAY_MAX_PLANS		1000

/* The SQLSTATEs of unlogged errors counted apart */
#define PB_REPLAY_MAX_CODES		32

/* An error the log does not show, by its SQLSTATE */
typedef struct PbReplayCode
{
	char		code[6];
	uint64		count;
} PbReplayCode;

/* What the clients count together, for the run's figures */
typedef struct PbReplayShared
{
	pg_atomic_uint64 statements;
	pg_atomic_uint64 as_logged;	/* failed, as in the log */
	pg_atomic_uint64 unlogged;	/* failed, not in the log */
	pg_atomic_uint64 missing;	/* failed in the log, not here */
	pg_atomic_uint64 sessions;	/* replayed to their end */
	pg_atomic_uint64 behind;	/* of which late by PB_REPLAY_BEHIND_MS */
	pg_atomic_uint64 lag_count;
	pg_atomic_uint64 lag_sum_ns;
	int			nclients;
	slock_t		mutex;			/* codes */
	int			ncodes;
	PbReplayCode codes[PB_REPLAY_MAX_CODES];
	/* each client's statements' lag, PB_HIST_BUCKETS each */
	uint64		lag_hists[FLEXIBLE_ARRAY_MEMBER];
} PbReplayShared;

/*
 * A plan: of a shape (key 's' + its text) or of an extended protocol's
 * statement ('e' + text).  A shape that could not be prepared has none,
 * and its statements run as their texts.
 */
typedef struct PbReplayPlan
{
	const char *key;			/* hash key */
	SPIPlanPtr	plan;
	int			nparams;
	Oid		   *types;
	FmgrInfo   *input_funcs;
	Oid		   *input_params;
	ParamListInfo params;
	bool		read_only;
} PbReplayPlan;

/* What a client of a replay keeps */
typedef struct PbReplayDriver
{
	PbReplayOptions opts;
	MemoryContext cxt;			/* lives as long as the client */
	MemoryContext step_cxt;		/* reset after each step */
	PbReplaySession *sessions;
	int			nsessions;
	int			current;		/* the session whose step is next, -1: none */
	int64		skipped_ns;		/* idle time skipped */
	HTAB	   *plans;
	PbReplayShared *shared;
	uint64	   *lag_hist;		/* the client's own, in shared */
	bool		in_xact;		/* a logged transaction is open */
	bool		failed;			/* and one of its statements failed */
	PbReplaySession *session;	/* what runs, for the error context */
	PbReplayStatement *statement;
	bool		acting;			/* as the session's logged role */
	Oid			client_user;	/* the user ID and security context before */
	int			client_sec;
} PbReplayDriver;

/* ---- plans --------------------------------------------------------------- */

/* Hash of a plan's key */
static uint32
pb_replay_plan_hash(const void *key, Size keysize)
{
	const char *s = *(const char *const *) key;

	return hash_bytes((const unsigned char *) s, strlen(s));
}

/* Whether two plan keys are the same (0 if so) */
static int
pb_replay_plan_match(const void *key1, const void *key2, Size keysize)
{
	return strcmp(*(const char *const *) key1, *(const char *const *) key2);
}

/* Collects the parameter types the parser infers */
typedef struct PbReplayParamTypes
{
	Oid		   *types;
	int			ntypes;
} PbReplayParamTypes;

/* Parser hook: let the parser infer the types of the parameters left 0. */
static void
pb_replay_param_setup(ParseState *pstate, void *arg)
{
	PbReplayParamTypes *pt = (PbReplayParamTypes *) arg;

	setup_parse_variable_parameters(pstate, &pt->types, &pt->ntypes);
}

/*
 * pb_replay_prepare
 *		A plan of sql with nparams parameters of the types given (0: the
 *		parser's), kept in the driver's context under key while the client
 *		keeps fewer than PB_REPLAY_MAX_PLANS, else made for this once, in
 *		the current context; SPI connected, in a transaction.  Errors
 *		propagate, and leave no entry.
 */
static PbReplayPlan *
pb_replay_prepare(PbReplayDriver *d, const char *key, const char *sql,
				  int nparams, const Oid *given)
{
	PbReplayParamTypes pt = {NULL, 0};
	PbReplayPlan p;
	PbReplayPlan *entry;
	bool		keep = hash_get_num_entries(d->plans) < PB_REPLAY_MAX_PLANS;
	MemoryContext cxt = keep ? d->cxt : CurrentMemoryContext;
	bool		infer = false;
	bool		found;

	memset(&p, 0, sizeof(p));
	p.nparams = nparams;
	p.types = MemoryContextAllocZero(cxt, sizeof(Oid) * Max(nparams, 1));
	for (int i = 0; i < nparams; i++)
	{
		p.types[i] = given ? given[i] : InvalidOid;
		infer |= (p.types[i] == InvalidOid);
	}
	if (infer)
	{
		SPIPrepareOptions options;
		SPIPlanPtr	probe;

		pt.types = palloc0(sizeof(Oid) * nparams);
		memcpy(pt.types, p.types, sizeof(Oid) * nparams);
		pt.ntypes = nparams;
		memset(&options, 0, sizeof(options));
		options.parserSetup = pb_replay_param_setup;
		options.parserSetupArg = &pt;
		options.parseMode = RAW_PARSE_DEFAULT;
		probe = SPI_prepare_extended(sql, &options);
		if (probe == NULL)
			elog(ERROR, "SPI_prepare_extended failed: %s",
				 SPI_result_code_string(SPI_result));
		SPI_freeplan(probe);
		for (int i = 0; i < nparams; i++)
		{
			Oid			type = i < pt.ntypes ? pt.types[i] : InvalidOid;

			p.types[i] = (type == InvalidOid || type == UNKNOWNOID) ? TEXTOID : type;
		}
	}
	p.plan = pb_spi_prepare(sql, nparams, p.types, keep);
	p.read_only = pb_plan_is_read_only(p.plan);
	p.input_funcs = MemoryContextAllocZero(cxt, sizeof(FmgrInfo) * Max(nparams, 1));
	p.input_params = MemoryContextAllocZero(cxt, sizeof(Oid) * Max(nparams, 1));
	for (int i = 0; i < nparams; i++)
	{
		Oid			infunc;

		getTypeInputInfo(p.types[i], &infunc, &p.input_params[i]);
		fmgr_info_cxt(infunc, &p.input_funcs[i], cxt);
	}
	{
		MemoryContext old = MemoryContextSwitchTo(cxt);

		p.params = pb_params_make(nparams, p.types);
		p.key = pstrdup(key);
		entry = keep ? hash_search(d->plans, &p.key, HASH_ENTER, &found) :
			palloc(sizeof(PbReplayPlan));
		MemoryContextSwitchTo(old);
	}
	*entry = p;
	return entry;
}

/* The plan of key, if it was made */
static PbReplayPlan *
pb_replay_find(PbReplayDriver *d, const char *key, bool *found)
{
	return hash_search(d->plans, &key, HASH_FIND, found);
}

/*
 * pb_replay_shape_plan
 *		The plan of a shape, made the first time in a subtransaction: a
 *		shape the parser cannot type (or that fails for any reason but a
 *		cancel) gets an entry without a plan, and its statements run as
 *		their texts.
 */
static PbReplayPlan *
pb_replay_shape_plan(PbReplayDriver *d, const PbSqlShape *shape)
{
	char	   *key = psprintf("s%s", shape->text);
	PbReplayPlan *volatile p;
	bool		found;
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	Oid		   *types;

	p = pb_replay_find(d, key, &found);
	if (found)
		return p;
	types = palloc0(sizeof(Oid) * Max(shape->nliterals, 1));
	for (int i = 0; i < shape->nliterals; i++)
		types[i] = shape->literals[i].kind == PB_LIT_INT4 ? INT4OID :
			shape->literals[i].kind == PB_LIT_INT8 ? INT8OID :
			shape->literals[i].kind == PB_LIT_NUMERIC ? NUMERICOID : InvalidOid;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		p = pb_replay_prepare(d, key, shape->text, shape->nliterals, types);
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);
		CurrentResourceOwner = owner;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);
		CurrentResourceOwner = owner;
		if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED)
			ReThrowError(edata);
		FreeErrorData(edata);
		p = hash_search(d->plans, &key, HASH_ENTER, &found);
		memset(p, 0, sizeof(PbReplayPlan));
		p->key = MemoryContextStrdup(d->cxt, key);
	}
	PG_END_TRY();
	return p;
}

/*
 * pb_replay_run_plan
 *		Run a plan with its parameters' values read from text (NULL for SQL
 *		NULL), and count it.
 */
static void
pb_replay_run_plan(PbReplayPlan *p, char *const *values, PbTxnCounts *counts,
				   bool alone)
{
	for (int i = 0; i < p->nparams; i++)
	{
		ParamExternData *prm = &p->params->params[i];

		prm->isnull = values[i] == NULL;
		prm->value = prm->isnull ? (Datum) 0 :
			InputFunctionCall(&p->input_funcs[i], values[i],
							  p->input_params[i], -1);
	}
	pb_spi_run(p->plan, p->params, counts, alone && p->read_only);
}

/*
 * pb_replay_run_text
 *		Run a text as it is, once, and count it.
 */
static void
pb_replay_run_text(const char *text, PbTxnCounts *counts)
{
	int			rc = SPI_execute(text, false, 0);

	if (rc < 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("this statement cannot be replayed in a client of the server"),
				 errdetail("SPI refused it with %s.", SPI_result_code_string(rc))));
	pb_count_statement(counts, SPI_tuptable != NULL, SPI_processed);
	if (SPI_tuptable != NULL)
		SPI_freetuptable(SPI_tuptable);
}

/*
 * pb_replay_exec
 *		Run one logged statement that is not transaction control, in the
 *		open transaction (alone: one of its own), SPI connected.
 */
static void
pb_replay_exec(PbReplayDriver *d, const PbReplayStatement *st,
			   PbTxnCounts *counts, bool alone)
{
	PbReplayPlan *p;
	PbSqlShape	shape;
	bool		found;
	char	   *key;

	if (st->several)
	{
		pb_replay_run_text(st->text, counts);
		return;
	}
	if (st->extended)
	{
		key = psprintf("e%s", st->text);
		p = pb_replay_find(d, key, &found);
		if (!found)
			p = pb_replay_prepare(d, key, st->text, st->nparams, st->param_types);
		if (p->nparams != st->nparams)
			ereport(ERROR,
					(errcode(ERRCODE_PROTOCOL_VIOLATION),
					 errmsg("bind message supplies %d parameters, but prepared statement requires %d",
							st->nparams, p->nparams)));
		pb_replay_run_plan(p, st->params, counts, alone);
		return;
	}
	if (pb_sql_shape(st->text, strlen(st->text), &shape))
	{
		char	  **values = palloc(sizeof(char *) * Max(shape.nliterals, 1));

		/* the constants copied, so that an error leaves nothing of malloc's */
		for (int i = 0; i < shape.nliterals; i++)
			values[i] = pstrdup(shape.literals[i].value);
		p = pb_replay_shape_plan(d, &shape);
		pb_sql_shape_free(&shape);
		if (p->plan != NULL)
		{
			pb_replay_run_plan(p, values, counts, alone);
			return;
		}
	}
	/* a text of its own: planned each time, as the application had it */
	pb_replay_run_text(st->text, counts);
}

/* ---- a client's steps ---------------------------------------------------- */

/* When a statement logged at at_us is due, in pb_now_ns() time */
static inline int64
pb_replay_due(const PbReplayDriver *d, const PbDriverContext *ctx, int64 at_us)
{
	return ctx->run->start_ns + d->skipped_ns +
		(int64) ((double) at_us * 1000.0 / d->opts.speed);
}

/*
 * pb_replay_wait
 *		Wait in a logged transaction until its next statement is due,
 *		waking for interrupts (the run's cut-off cancels the wait as it
 *		cancels a statement).  The run told to stop ends the transaction.
 */
static void
pb_replay_wait(PbDriverContext *ctx, int64 until)
{
	for (;;)
	{
		int64		left;

		CHECK_FOR_INTERRUPTS();
		if (pg_atomic_read_u32(&ctx->run->stop_reason) != PB_STOP_NONE)
			ereport(ERROR,
					(errcode(ERRCODE_QUERY_CANCELED),
					 errmsg("canceling the replay's open transaction: the run ended")));
		left = until - pb_now_ns();
		if (left <= 0)
			return;
		if (left < 1000000)
		{
			pg_usleep(left / 1000);
			continue;
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 left / 1000000, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/* The run's command of a shape: its own up to the last kept, else 0 */
static inline int
pb_replay_command(const PbReplayDriver *d, int shape)
{
	return shape >= 1 && shape <= d->opts.shapes ? shape : 0;
}

/*
 * pb_replay_count_error
 *		Count a statement that failed with code (NULL: as the server fails
 *		those of a failed transaction, 25P02) against the log.
 */
static void
pb_replay_count_error(PbReplayDriver *d, const PbReplayStatement *st,
					  const char *code)
{
	PbReplayShared *sh = d->shared;
	int			i;

	if (st->sqlstate[0] != '\0')
	{
		pg_atomic_fetch_add_u64(&sh->as_logged, 1);
		return;
	}
	pg_atomic_fetch_add_u64(&sh->unlogged, 1);
	SpinLockAcquire(&sh->mutex);
	for (i = 0; i < sh->ncodes; i++)
		if (strcmp(sh->codes[i].code, code) == 0)
			break;
	if (i == sh->ncodes && sh->ncodes < PB_REPLAY_MAX_CODES)
	{
		strlcpy(sh->codes[i].code, code, sizeof(sh->codes[i].code));
		sh->codes[i].count = 0;
		sh->ncodes++;
	}
	if (i < sh->ncodes)
		sh->codes[i].count++;
	SpinLockRelease(&sh->mutex);
}

/*
 * pb_replay_caught
 *		In a PG_CATCH block: an error of a logged statement, which the
 *		session goes on after: the transaction rolled back, the error
 *		forgotten, its SQLSTATE returned.  The run's end (a cancel once it
 *		stops or its cut-off came) and any error once the run stops are
 *		raised again.
 */
static const char *
pb_replay_caught(PbReplayDriver *d, PbDriverContext *ctx, MemoryContext cxt)
{
	ErrorData  *edata;
	int			code;
	int64		cutoff = pb_run_cutoff(ctx->run);

	MemoryContextSwitchTo(cxt);
	edata = CopyErrorData();
	code = edata->sqlerrcode;
	FreeErrorData(edata);
	if (pg_atomic_read_u32(&ctx->run->stop_reason) != PB_STOP_NONE ||
		(code == ERRCODE_QUERY_CANCELED && cutoff > 0 && pb_now_ns() >= cutoff))
		PG_RE_THROW();
	HOLD_INTERRUPTS();
	FlushErrorState();
	AbortCurrentTransaction();
	RESUME_INTERRUPTS();
	MemoryContextSwitchTo(cxt);
	d->in_xact = false;
	d->acting = false;			/* the abort put the user ID back */
	return unpack_sql_state(code);
}

/*
 * pb_replay_begin_options
 *		The options of a logged BEGIN or START TRANSACTION (isolation level,
 *		read only, deferrable), in the step's context.
 */
static List *
pb_replay_begin_options(PbReplayDriver *d, const char *text)
{
	List	   *stmts;
	RawStmt    *raw;

	if (pg_strcasecmp(text, "begin") == 0 || pg_strcasecmp(text, "begin;") == 0)
		return NIL;
	stmts = raw_parser(text, RAW_PARSE_DEFAULT);
	if (list_length(stmts) != 1)
		return NIL;
	raw = linitial_node(RawStmt, stmts);
	if (!IsA(raw->stmt, TransactionStmt))
		return NIL;
	return ((TransactionStmt *) raw->stmt)->options;
}

/* Whether a statement that ends a transaction rolls it back */
static bool
pb_replay_rolls_back(const char *text)
{
	while (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')
		text++;
	return pg_strncasecmp(text, "rollback", 8) == 0 ||
		pg_strncasecmp(text, "abort", 5) == 0 ||
		pg_strncasecmp(text, "prepare", 7) == 0;
}

/*
 * pb_replay_open
 *		Open a transaction for the session's statements (a block with
 *		block, with the options of its BEGIN) and, with the option roles,
 *		act as the session's logged role in it (see the header).
 */
static void
pb_replay_open(PbReplayDriver *d, bool block, List *options)
{
	if (block)
		pb_xact_begin_block(options);
	else
		pb_xact_begin(options);
	d->in_xact = true;
	if (d->opts.roles && OidIsValid(d->session->role_oid) &&
		d->session->role_oid != GetUserId())
	{
		GetUserIdAndSecContext(&d->client_user, &d->client_sec);
		SetUserIdAndSecContext(d->session->role_oid,
							   d->client_sec | SECURITY_LOCAL_USERID_CHANGE);
		d->acting = true;
	}
}

/*
 * pb_replay_close
 *		End the session's transaction, committed or rolled back, as the
 *		client again.  (An error's abort puts the user ID back itself.)
 */
static void
pb_replay_close(PbReplayDriver *d, bool commit)
{
	d->in_xact = false;
	if (d->acting)
	{
		SetUserIdAndSecContext(d->client_user, d->client_sec);
		d->acting = false;
	}
	if (commit)
		pb_xact_commit();
	else
		pb_xact_rollback();
}

/*
 * pb_replay_run
 *		Run a statement: transaction control moves the client in and out of
 *		the logged transaction; any other statement runs in it, or in one
 *		of its own.  Returns NULL, or the SQLSTATE of its error (caught:
 *		the session goes on), "25P02" for a statement of a failed
 *		transaction, which is not run.
 */
static const char *
pb_replay_run(PbReplayDriver *d, PbDriverContext *ctx, const PbReplayStatement *st,
			  PbTxnCounts *counts, MemoryContext cxt)
{
	const char *volatile code = NULL;

	if (d->failed && st->txn != PB_SQL_END && st->txn != PB_SQL_CHAIN)
		return "25P02";
	PG_TRY();
	{
		switch (st->txn)
		{
			case PB_SQL_BEGIN:
				if (!d->in_xact)
					pb_replay_open(d, true, pb_replay_begin_options(d, st->text));
				pb_count_statement(counts, false, 0);
				break;
			case PB_SQL_END:
			case PB_SQL_CHAIN:
				if (d->in_xact)
					pb_replay_close(d, !pb_replay_rolls_back(st->text));
				d->failed = false;
				if (st->txn == PB_SQL_CHAIN)
					pb_replay_open(d, true, NIL);
				pb_count_statement(counts, false, 0);
				break;
			case PB_SQL_OTHER:
				if (d->in_xact)
					pb_replay_exec(d, st, counts, false);
				else
				{
					pb_replay_open(d, false, NIL);
					pb_replay_exec(d, st, counts, true);
					pb_replay_close(d, true);
				}
				break;
		}
	}
	PG_CATCH();
	{
		bool		block = d->in_xact && st->txn == PB_SQL_OTHER &&
			IsTransactionBlock();

		code = pb_replay_caught(d, ctx, cxt);
		/* in a logged transaction, what follows fails to its end */
		d->failed = block;
	}
	PG_END_TRY();
	return code;
}

/*
 * pb_replay_one
 *		Run the session's next statement, timed, counted and compared with
 *		the log; its lag behind the log's schedule counted.
 */
static void
pb_replay_one(PbReplayDriver *d, PbDriverContext *ctx, PbReplaySession *s,
			  PbTxnCounts *counts, MemoryContext cxt)
{
	PbReplayStatement *st = &s->statements[s->next];
	int			cmd = pb_replay_command(d, st->shape);
	int64		start = pb_now_ns();
	const char *code;

	d->statement = st;
	if (d->opts.speed > 0)
	{
		int64		lag = start - pb_replay_due(d, ctx, st->at_us);

		if (lag < 0)
			lag = 0;
		pb_hist_add(d->lag_hist, lag);
		pg_atomic_fetch_add_u64(&d->shared->lag_count, 1);
		pg_atomic_fetch_add_u64(&d->shared->lag_sum_ns, lag);
		s->max_lag_ms = Max(s->max_lag_ms, lag / 1e6);
	}
	pgstat_report_activity(STATE_RUNNING, st->text);
	code = pb_replay_run(d, ctx, st, counts, cxt);
	if (code != NULL)
	{
		counts->statements++;
		counts->others++;
		counts->errors++;
		pb_counter_add(&ctx->stats[cmd].failures, 1);
		pb_replay_count_error(d, st, code);
	}
	else
	{
		int64		end = pb_now_ns();

		pb_command_done(&ctx->stats[cmd], end - start, pb_command_hist(ctx, cmd));
		if (st->sqlstate[0] != '\0')
			pg_atomic_fetch_add_u64(&d->shared->missing, 1);
	}
	pg_atomic_fetch_add_u64(&d->shared->statements, 1);
	s->next++;
	if (s->next == s->nstatements)
	{
		pg_atomic_fetch_add_u64(&d->shared->sessions, 1);
		if (s->max_lag_ms > PB_REPLAY_BEHIND_MS)
			pg_atomic_fetch_add_u64(&d->shared->behind, 1);
	}
}

/*
 * pb_replay_schedule
 *		The session whose next statement is due first, and when it is due:
 *		now at speed "max", and with skip_idle, when the client would wait,
 *		now, the time skipped.  With no statement left, now: the step then
 *		ends the client.
 */
static int64
pb_replay_schedule(PbDriverContext *ctx, int64 now)
{
	PbReplayDriver *d = ctx->state;
	int			best = -1;
	int64		due;

	for (int i = 0; i < d->nsessions; i++)
	{
		PbReplaySession *s = &d->sessions[i];

		if (s->next < s->nstatements &&
			(best < 0 || s->statements[s->next].at_us <
			 d->sessions[best].statements[d->sessions[best].next].at_us))
			best = i;
	}
	d->current = best;
	if (best < 0 || d->opts.speed <= 0)
		return now;
	due = pb_replay_due(d, ctx, d->sessions[best].statements[d->sessions[best].next].at_us);
	if (d->opts.skip_idle && due > now)
	{
		d->skipped_ns += due - now;
		due = now;
	}
	return due;
}

/*
 * pb_replay_transaction
 *		One step of the current session: a statement outside a transaction,
 *		or a logged transaction from its BEGIN to its end, each statement
 *		at its time.  A session that ends in a transaction has it rolled
 *		back, as the server does at a disconnection.  Returns false when
 *		the client has nothing left.
 */
static bool
pb_replay_transaction(PbDriverContext *ctx, PbTxnCounts *counts)
{
	PbReplayDriver *d = ctx->state;
	PbReplaySession *s;
	MemoryContext cxt = CurrentMemoryContext;

	if (d->current < 0)
		return false;
	s = &d->sessions[d->current];
	d->session = s;
	ctx->current_command = -1;
	MemoryContextSwitchTo(d->step_cxt);
	pb_replay_one(d, ctx, s, counts, d->step_cxt);
	while ((d->in_xact || d->failed) && s->next < s->nstatements)
	{
		if (d->opts.speed > 0)
			pb_replay_wait(ctx, pb_replay_due(d, ctx, s->statements[s->next].at_us));
		pb_replay_one(d, ctx, s, counts, d->step_cxt);
	}
	if (d->in_xact)
		pb_replay_close(d, false);
	d->failed = false;
	d->statement = NULL;
	MemoryContextSwitchTo(cxt);
	MemoryContextReset(d->step_cxt);
	ctx->txn_end_ns = pb_now_ns();
	pgstat_report_activity(STATE_IDLE, NULL);
	return true;
}

/* Roll back what an error left open. */
static void
pb_replay_abort(PbDriverContext *ctx)
{
	PbReplayDriver *d = ctx->state;

	AbortCurrentTransaction();
	d->in_xact = false;
	d->acting = false;			/* the abort put the user ID back */
	d->failed = false;
	MemoryContextReset(d->step_cxt);
}

/* The session and statement an error came from. */
static char *
pb_replay_error_context(PbDriverContext *ctx)
{
	PbReplayDriver *d = ctx->state;

	if (d->session == NULL || d->statement == NULL)
		return NULL;
	return psprintf("replayed session %d, statement %ld: %s", d->session->session_no,
					(long) (d->statement - d->session->statements) + 1,
					d->statement->text);
}

/* The extension's schema, quoted; SPI connected */
static char *
pb_replay_schema(void)
{
	bool		isnull;
	Datum		nsp;

	if (SPI_execute("SELECT pg_catalog.quote_ident(n.nspname)"
					"  FROM pg_catalog.pg_extension e"
					"  JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace"
					" WHERE e.extname OPERATOR(pg_catalog.=) 'polarbench'", true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "extension polarbench not found");
	nsp = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	return TextDatumGetCString(nsp);
}

/*
 * pb_replay_setup
 *		The client's sessions and their statements, read as the run's role;
 *		plans are made as statements first need them.
 */
static void
pb_replay_setup(PbDriverContext *ctx)
{
	PbReplayDriver *d = MemoryContextAllocZero(TopMemoryContext, sizeof(PbReplayDriver));
	const PbReplayOptions *o = ctx->config->options;
	PbReplayCapture info;
	HASHCTL		ctl;
	char	   *nsp;

	ctx->state = d;
	d->opts = *o;
	d->shared = ctx->shared;
	d->lag_hist = d->shared->lag_hists + (Size) ctx->client_no * PB_HIST_BUCKETS;
	d->current = -1;
	d->cxt = AllocSetContextCreate(TopMemoryContext, "polarbench replay",
								   ALLOCSET_DEFAULT_SIZES);
	d->step_cxt = AllocSetContextCreate(d->cxt, "polarbench replay step",
										ALLOCSET_DEFAULT_SIZES);
	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(const char *);
	ctl.entrysize = sizeof(PbReplayPlan);
	ctl.hash = pb_replay_plan_hash;
	ctl.match = pb_replay_plan_match;
	ctl.hcxt = d->cxt;
	d->plans = hash_create("polarbench replay plans", 256, &ctl,
						   HASH_ELEM | HASH_FUNCTION | HASH_COMPARE | HASH_CONTEXT);

	pb_xact_begin(NIL);
	pgstat_report_activity(STATE_RUNNING, "polarbench: reading the capture");
	nsp = pb_replay_schema();
	if (!pb_replay_capture_info(nsp, o->capture, &info))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("capture " INT64_FORMAT " does not exist", o->capture)));
	d->sessions = pb_replay_load(nsp, o->capture, &info, ctx->run->nclients,
								 ctx->client_no, d->cxt, &d->nsessions);
	pb_xact_commit();
	pgstat_report_activity(STATE_IDLE, NULL);
}

/* ---- the caller's side ----------------------------------------------------- */

/*
 * pb_replay_max
 *		The options given, with "speed": "max" made 0, which the options
 *		table reads.
 */
static Jsonb *
pb_replay_max(Jsonb *given)
{
	JsonbValue	key;
	JsonbValue *v;
	JsonbParseState *state = NULL;
	JsonbIterator *it;
	JsonbValue	jv;
	JsonbIteratorToken tok;
	bool		is_speed = false;

	if (given == NULL || !JB_ROOT_IS_OBJECT(given))
		return given;
	key.type = jbvString;
	key.val.string.val = "speed";
	key.val.string.len = 5;
	v = findJsonbValueFromContainer(&given->root, JB_FOBJECT, &key);
	if (v == NULL || v->type != jbvString || v->val.string.len != 3 ||
		strncmp(v->val.string.val, "max", 3) != 0)
		return given;
	it = JsonbIteratorInit(&given->root);
	while ((tok = JsonbIteratorNext(&it, &jv, true)) != WJB_DONE)
	{
		JsonbValue *res;

		if (tok == WJB_KEY)
			is_speed = jv.val.string.len == 5 && strncmp(jv.val.string.val, "speed", 5) == 0;
		else if (tok == WJB_VALUE && is_speed)
		{
			jv.type = jbvNumeric;
			jv.val.numeric = int64_to_numeric(0);
		}
		res = pushJsonbValue(&state, tok, tok < WJB_BEGIN_ARRAY ? &jv : NULL);
		if (tok == WJB_END_OBJECT && state == NULL)
			return JsonbValueToJsonb(res);
	}
	return given;
}

/* The options as given, read as a run would read them */
static PbReplayOptions *
pb_replay_options(const PbWorkloadDef *def, Jsonb *options)
{
	return pb_options_from_json(&pb_replay_library, def, pb_replay_max(options),
								"{\"capture\": 1, \"speed\": \"max\"}", true);
}

/*
 * pb_replay_configure
 *		The caller's side of a replay: the options, the capture (which the
 *		run's role must be allowed to read), a command per shape kept.
 */
static void
pb_replay_configure(const PbWorkloadArgs *args, PbRunConfig *config,
					PbRunParams *params, PbRunEstimate *estimate)
{
	PbReplayOptions *o;
	PbReplayCapture info;
	bool		found;

	pb_refuse_script_args(args, params,
						  "A replayed session goes on after an error, as the logged one did: nothing is tried again.");
	if (params->rate > 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("rate cannot be used with a replay"),
				 errhint("A replay keeps the log's pace times its speed: give options => '{\"speed\": 2}'.")));
	o = pb_replay_options(args->def, args->options);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	found = pb_replay_capture_info(pb_replay_schema(), o->capture, &info);
	SPI_finish();
	if (!found)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("capture " INT64_FORMAT " does not exist", o->capture),
				 errhint("polarbench_captures lists the captures.")));
	if (!info.may_read)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for capture " INT64_FORMAT, o->capture),
				 errdetail("A capture is replayed by its role, the roles that have its privileges, and superusers.")));
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	pb_replay_check_roles(pb_replay_schema(), o->capture, GetUserId(), o->roles);
	SPI_finish();
	o->shapes = Min(info.shapes, PB_REPLAY_MAX_SHAPES);
	o->read_only = info.read_only;
	config->options = o;
	config->options_size = sizeof(PbReplayOptions);
	params->ncommands = o->shapes + 1;
	estimate->nplans = o->shapes + 1;
	estimate->text_bytes = (double) info.statements * 256 / Max(params->nclients, 1);
}

/*
 * Whether a replay writes: unless its capture only reads (as its
 * statements' texts say), which a hot standby replays.
 */
static bool
pb_replay_writes(const PbRunConfig *config)
{
	const PbReplayOptions *o = config->options;

	return o == NULL || !o->read_only;
}

/* The options of a stored run, read as a run would read them. */
static void
pb_replay_check_options(const PbWorkloadDef *def, Jsonb *options)
{
	(void) pb_replay_options(def, options);
}

/* The clients' shared area: the counters, and each client's lag histogram */
static Size
pb_replay_shared_size(const PbRunConfig *config, const PbRunParams *params)
{
	return add_size(offsetof(PbReplayShared, lag_hists),
					mul_size(sizeof(uint64) * PB_HIST_BUCKETS, params->nclients));
}

/* Everything at zero. */
static void
pb_replay_shared_init(void *shared, const PbRunConfig *config,
					  const PbRunParams *params)
{
	PbReplayShared *sh = shared;

	memset(sh, 0, pb_replay_shared_size(config, params));
	pg_atomic_init_u64(&sh->statements, 0);
	pg_atomic_init_u64(&sh->as_logged, 0);
	pg_atomic_init_u64(&sh->unlogged, 0);
	pg_atomic_init_u64(&sh->missing, 0);
	pg_atomic_init_u64(&sh->sessions, 0);
	pg_atomic_init_u64(&sh->behind, 0);
	pg_atomic_init_u64(&sh->lag_count, 0);
	pg_atomic_init_u64(&sh->lag_sum_ns, 0);
	sh->nclients = params->nclients;
	SpinLockInit(&sh->mutex);
}

/* Its commands: the statements of no shape kept, then each shape's */
static int
pb_replay_commands(const PbRunConfig *config, PbCommandDesc **descs)
{
	const PbReplayOptions *o = config->options;
	int			n = o->shapes + 1;

	*descs = palloc0(sizeof(PbCommandDesc) * n);
	for (int i = 0; i < n; i++)
	{
		(*descs)[i].script_no = 1;
		(*descs)[i].command_no = i + 1;
		(*descs)[i].text = i == 0 ? "other" : psprintf("shape %d", i);
	}
	return n;
}

/* The median, as the lag's */
static int
pb_replay_percentile(const PbRunConfig *config)
{
	return 50;
}

/*
 * pb_replay_progress_line
 *		The interval's steps (statements outside transactions, and
 *		transactions) and statements per second, with the latency of a step.
 */
static void
pb_replay_progress_line(char *buf, size_t len, const PbProgressTick *tick)
{
	const PbRunSummary *interval = tick->interval;

	snprintf(buf, len,
			 "progress: %.1f s, %.1f steps/s, %.1f statements/s, step lat %.3f ms, " INT64_FORMAT " errors",
			 tick->elapsed, interval->tps, interval->qps, interval->latency_avg,
			 interval->errors);
}

/*
 * pb_replay_figures
 *		At the end: the replay's figures as a JSON object: the statements
 *		and sessions replayed, the lag behind the log's schedule, the
 *		errors by what the log shows of them.
 */
static char *
pb_replay_figures(const PbRunConfig *config, void *shared, void **state,
				  const PbFiguresInput *in)
{
	const PbReplayOptions *o = config->options;
	PbReplayShared *sh = shared;
	StringInfoData json;
	uint64		lags = pg_atomic_read_u64(&sh->lag_count);
	uint64		statements = pg_atomic_read_u64(&sh->statements);

	if (in == NULL)
		return NULL;
	initStringInfo(&json);
	appendStringInfo(&json, "{\"replay\": {\"capture\": " INT64_FORMAT ", \"speed\": ", o->capture);
	if (o->speed > 0)
		appendStringInfo(&json, "%g", o->speed);
	else
		appendStringInfoString(&json, "\"max\"");
	appendStringInfo(&json, ", \"statements\": " UINT64_FORMAT ", \"statements_per_second\": %.3f",
					 statements, in->seconds > 0 ? statements / in->seconds : 0.0);
	appendStringInfo(&json, ", \"sessions\": " UINT64_FORMAT ", \"sessions_behind\": " UINT64_FORMAT,
					 pg_atomic_read_u64(&sh->sessions), pg_atomic_read_u64(&sh->behind));
	if (lags > 0)
	{
		uint64	   *merged = palloc0(sizeof(uint64) * PB_HIST_BUCKETS);

		for (int c = 0; c < sh->nclients; c++)
			pb_hist_merge_into(merged, sh->lag_hists + (Size) c * PB_HIST_BUCKETS);
		appendStringInfo(&json, ", \"lag_ms\": {\"avg\": %.3f, \"p50\": %.3f, \"p99\": %.3f, \"max\": %.3f}",
						 pg_atomic_read_u64(&sh->lag_sum_ns) / 1e6 / lags,
						 pb_hist_percentile(merged, lags, 0.5) / 1e6,
						 pb_hist_percentile(merged, lags, 0.99) / 1e6,
						 pb_hist_percentile(merged, lags, 1.0) / 1e6);
	}
	else
		appendStringInfoString(&json, ", \"lag_ms\": null");
	appendStringInfo(&json, ", \"errors_as_logged\": " UINT64_FORMAT ", \"errors_not_logged\": " UINT64_FORMAT
					 ", \"logged_errors_missing\": " UINT64_FORMAT ", \"errors_by_sqlstate\": {",
					 pg_atomic_read_u64(&sh->as_logged), pg_atomic_read_u64(&sh->unlogged),
					 pg_atomic_read_u64(&sh->missing));
	SpinLockAcquire(&sh->mutex);
	for (int i = 0; i < sh->ncodes; i++)
		appendStringInfo(&json, "%s\"%s\": " UINT64_FORMAT, i > 0 ? ", " : "",
						 sh->codes[i].code, sh->codes[i].count);
	SpinLockRelease(&sh->mutex);
	appendStringInfoString(&json, "}}}");
	return json.data;
}

/*
 * pb_replay_report
 *		What a replay did against its log: statements per second, the lag
 *		behind the log's schedule, the sessions that fell behind, the
 *		errors the log does not show by SQLSTATE, and each shape's latency
 *		beside the one the log recorded.
 */
static void
pb_replay_report(StringInfo out, PbRow *run, int64 run_id,
				 const PbReportOptions *options)
{
	SPITupleTable *t;
	uint64		n;
	PbRow		f;

	t = pb_report_query("SELECT f->>'capture' AS capture, f->>'speed' AS speed,"
						"       f->>'statements' AS statements,"
						"       round((f->>'statements_per_second')::numeric, 1) AS sps,"
						"       f->>'sessions' AS sessions, f->>'sessions_behind' AS behind,"
						"       round((f->'lag_ms'->>'p50')::numeric, 3) AS lag_p50,"
						"       round((f->'lag_ms'->>'p99')::numeric, 3) AS lag_p99,"
						"       round((f->'lag_ms'->>'max')::numeric, 3) AS lag_max,"
						"       f->>'errors_as_logged' AS as_logged,"
						"       f->>'errors_not_logged' AS not_logged,"
						"       f->>'logged_errors_missing' AS missing,"
						"       (SELECT string_agg(k || ' ' || v, ', ' ORDER BY k)"
						"          FROM jsonb_each_text(f->'errors_by_sqlstate') AS e(k, v)) AS codes"
						"  FROM (SELECT to_jsonb(r)->'figures'->'replay' AS f FROM @runs@ r"
						"         WHERE run_id = $1) t", run_id, &n);
	if (n != 1)
		return;
	f.tuptable = t;
	f.row = 0;
	appendStringInfo(out, "replay run " INT64_FORMAT " of capture %s at speed %s: %s clients, %.1f s\n",
					 run_id, pb_row_text(&f, "capture"), pb_row_text(&f, "speed"),
					 pb_row_text(run, "clients"), pb_row_num(run, "seconds"));
	appendStringInfo(out, "statements: %s, %s per second\n",
					 pb_row_text(&f, "statements"), pb_row_text(&f, "sps"));
	appendStringInfo(out, "sessions: %s, of which behind the log's schedule by over %.0f ms: %s\n",
					 pb_row_text(&f, "sessions"), PB_REPLAY_BEHIND_MS, pb_row_text(&f, "behind"));
	if (pb_row_text_opt(&f, "lag_p50") != NULL)
		appendStringInfo(out, "lag behind the log's schedule (ms): median %s, p99 %s, max %s\n",
						 pb_row_text(&f, "lag_p50"), pb_row_text(&f, "lag_p99"),
						 pb_row_text(&f, "lag_max"));
	appendStringInfo(out, "errors: %s as in the log, %s not in the log%s%s%s, %s in the log but not here\n",
					 pb_row_text(&f, "as_logged"), pb_row_text(&f, "not_logged"),
					 pb_row_text_opt(&f, "codes") ? " (" : "",
					 pb_row_text_opt(&f, "codes") ? pb_row_text(&f, "codes") : "",
					 pb_row_text_opt(&f, "codes") ? ")" : "",
					 pb_row_text(&f, "missing"));

	t = pb_report_query("SELECT o.operation, o.operations, o.errors, o.latency_avg, o.latency_p50,"
						"       s.logged_avg, s.logged_p50, s.shape"
						"  FROM @operations@ o"
						"  LEFT JOIN @extschema@.polarbench_capture_shapes s"
						"    ON s.capture_id = (SELECT (to_jsonb(r)->'figures'->'replay'->>'capture')::bigint"
						"                         FROM @runs@ r WHERE r.run_id = $1)"
						"   AND o.operation = 'shape ' || s.shape_no"
						" WHERE o.run_id = $1"
						" ORDER BY o.operations DESC, o.operation", run_id, &n);
	appendStringInfoString(out, "\nshape        count  errors   avg ms   p50 ms  logged avg  logged p50  statement\n");
	for (uint64 i = 0; i < n; i++)
	{
		PbRow		row = {t, i};
		char	   *shape = pb_row_text_opt(&row, "shape");
		char	   *avg = pb_row_text_opt(&row, "logged_avg");
		char	   *p50 = pb_row_text_opt(&row, "logged_p50");

		appendStringInfo(out, "%-10s %7" INT64_MODIFIER "d %7" INT64_MODIFIER "d %8.3f %8.3f %11.3f %11.3f  %.60s\n",
						 pb_row_text(&row, "operation"), pb_row_int(&row, "operations"),
						 pb_row_int(&row, "errors"), pb_row_num(&row, "latency_avg"),
						 pb_row_text_opt(&row, "latency_p50") ? pb_row_num(&row, "latency_p50") : NAN,
						 avg ? strtod(avg, NULL) : NAN, p50 ? strtod(p50, NULL) : NAN,
						 shape ? shape : "");
	}
}

/* Its one workload, from its library's. */
static bool
pb_replay_workload_at(int i, PbWorkloadEntry *entry)
{
	return pb_library_workload_at(&pb_replay_library, pb_replay_writes, i, entry);
}

static const PbDriver replay_driver = {
	.report_style = "replay",
	.rows = PB_ROWS_OPERATIONS,
	.record_unused = false,
	.progress_by_command = false,
	.default_transactions = 0,
	.default_duration = 0,
	.configure = pb_replay_configure,
	.check = NULL,
	.writes = pb_replay_writes,
	.check_options = pb_replay_check_options,
	.shared_size = pb_replay_shared_size,
	.shared_init = pb_replay_shared_init,
	.setup = pb_replay_setup,
	.transaction = pb_replay_transaction,
	.abort = pb_replay_abort,
	.error_context = pb_replay_error_context,
	.schedule = pb_replay_schedule,
	.workload_at = pb_replay_workload_at,
	.commands = pb_replay_commands,
	.percentile = pb_replay_percentile,
	.progress_line = pb_replay_progress_line,
	.report = pb_replay_report,
	.figures = pb_replay_figures,
};

/* A replay loads no data set: its tables are the user's */
static const struct PbDataset *const replay_datasets[] = {NULL};

/* The kind's descriptor, its row in the registry */
const PbKind pb_kind_replay = {
	.library = &pb_replay_library,
	.driver = &replay_driver,
	.datasets = replay_datasets,
};
