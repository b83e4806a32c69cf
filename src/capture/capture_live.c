/*-------------------------------------------------------------------------
 *
 * capture_live.c
 *	  A capture of the statements sessions run, taken as they run: no log
 *	  settings, each bind's parameters with their types.
 *
 * Preloaded (shared_preload_libraries), the library hooks the executor
 * (ExecutorStart, Run, Finish, End), ProcessUtility and emit_log_hook.
 * While no capture goes on, a statement costs one read of a shared flag.
 * While one goes on, each top-level statement of a client backend that
 * passes its filters (database, role, application) is copied, as it
 * starts, into memory of its own backend: its session (the backend's start
 * time and pid, as %c writes it), role, database, application, start time
 * (statement_timestamp(), as the log's), text and the parameters of its
 * bind with their types (the ParamListInfo's, as text); as it ends, with
 * its duration or its error and SQLSTATE, it is appended to one shared
 * buffer of polarbench.capture_memory under an LWLock held for the copy
 * only.  A statement that finds the buffer full (or the capture's max_size
 * reached) is counted and dropped: a session is never held back.
 * polarbench_capture_stop() ends the capture, copies the buffer out and
 * stores it into the capture tables as polarbench_capture_log stores a
 * log (capture_store.c), so that a replay runs it unchanged.
 *
 * Top-level means what a client sent: no statement of a function, a
 * trigger, a DO block or a procedure (the executor's and ProcessUtility's
 * nesting is counted), no polarbench worker (only client backends are
 * captured).  A simple query of several statements is kept as its
 * statements, each with its own text.  emit_log_hook sees the errors, when
 * the server logs them (log_min_messages at ERROR or below, as by
 * default): of a statement captured, or of one that failed before the
 * executor or ProcessUtility started it (a syntax error, an error in its
 * planning, a statement in a failed transaction), kept then as the client
 * sent it (an error at bind: without its parameters).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "commands/dbcommands.h"
#include "executor/executor.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "parser/scansup.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "tcop/tcopprot.h"
#include "tcop/utility.h"
#include "utils/acl.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "capture_live.h"
#include "capture_store.h"

#define PB_LIVE_TRANCHE		"polarbench capture"

/* the memory a backend keeps for the statement it captures, at most */
#define PB_LIVE_KEEP_MEMORY	(64 * 1024)

int			pb_capture_memory = 16 * 1024;

/* the capture, in shared memory */
typedef struct LiveShared
{
	pg_atomic_uint32 active;	/* nonzero while a capture goes on */
	LWLock	   *lock;			/* protects every other field */
	bool		stopping;		/* the buffer is being copied out */
	uint64		generation;		/* counts the captures started */
	Oid			captured_by;
	Oid			database;
	Oid			role;
	bool		has_application;
	char		application[NAMEDATALEN];
	Size		limit;			/* bytes of records kept at most */
	Size		used;
	int64		kept;
	int64		dropped;		/* records that found the limit reached */
	char		buffer[FLEXIBLE_ARRAY_MEMBER];
} LiveShared;

/*
 * A statement in the buffer: this header, then the application, the text
 * and the error, each NUL-terminated, then each parameter as its type's
 * Oid, a byte 'n' for NULL or 'v', and, but for NULL, its text
 * NUL-terminated.  size is MAXALIGNed, so that records follow each other
 * aligned.
 */
typedef struct LiveRecord
{
	uint32		size;
	int			pid;
	pg_time_t	session_start;
	Oid			role;
	Oid			database;
	TimestampTz at;
	double		duration;		/* ms, < 0 unknown */
	int			sqlerrcode;		/* 0 if it did not fail */
	int			nparams;
	bool		extended;		/* bound with parameters */
} LiveRecord;

/* the statement of this backend being captured */
typedef struct Pending
{
	bool		set;
	const void *owner;			/* its QueryDesc or PlannedStmt */
	uint64		generation;
	StringInfoData rec;			/* the record, its error to come */
	int			params_at;		/* offset of its parameters in rec */
} Pending;

static LiveShared *live = NULL;
static Pending pending;
static int	exec_nesting = 0;
static int	utility_nesting = 0;

static shmem_request_hook_type prev_shmem_request = NULL;
static shmem_startup_hook_type prev_shmem_startup = NULL;
static ExecutorStart_hook_type prev_executor_start = NULL;
static ExecutorRun_hook_type prev_executor_run = NULL;
static ExecutorFinish_hook_type prev_executor_finish = NULL;
static ExecutorEnd_hook_type prev_executor_end = NULL;
static ProcessUtility_hook_type prev_process_utility = NULL;
static emit_log_hook_type prev_emit_log = NULL;

/* The shared memory the capture takes: its state and its buffer. */
static Size
live_size(void)
{
	return add_size(offsetof(LiveShared, buffer),
					mul_size((Size) pb_capture_memory, 1024));
}

/* Preloaded: reserve the shared memory and the lock. */
static void
live_shmem_request(void)
{
	if (prev_shmem_request)
		prev_shmem_request();
	RequestAddinShmemSpace(live_size());
	RequestNamedLWLockTranche(PB_LIVE_TRANCHE, 1);
}

/* Attach to the capture's shared memory, made by the first to come. */
static void
live_shmem_startup(void)
{
	bool		found;

	if (prev_shmem_startup)
		prev_shmem_startup();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	live = ShmemInitStruct(PB_LIVE_TRANCHE, live_size(), &found);
	if (!found)
	{
		memset(live, 0, offsetof(LiveShared, buffer));
		pg_atomic_init_u32(&live->active, 0);
		live->lock = &(GetNamedLWLockTranche(PB_LIVE_TRANCHE))->lock;
	}
	LWLockRelease(AddinShmemInitLock);
}

/*
 * Whether this backend's statements are to be captured now: a capture
 * goes on, this is a client's backend and passes the capture's filters.
 * The filters are read without the lock: a capture started meanwhile is
 * told apart by its generation when the statement is added.
 */
static inline bool
live_wanted(void)
{
	if (live == NULL || pg_atomic_read_u32(&live->active) == 0)
		return false;
	pg_read_barrier();
	if (MyBackendType != B_BACKEND)
		return false;
	if (OidIsValid(live->database) && live->database != MyDatabaseId)
		return false;
	if (OidIsValid(live->role) && live->role != GetSessionUserId())
		return false;
	if (live->has_application &&
		strcmp(live->application, application_name ? application_name : "") != 0)
		return false;
	return true;
}

/*
 * Begin capturing a statement: its part of source (as the parser located
 * it), its bind's parameters, when it started.
 */
static void
pending_begin(const void *owner, const char *source, int location, int len,
			  ParamListInfo params)
{
	LiveRecord	rec;
	MemoryContext old;
	const char *text = source;
	int			n;

	if (pending.rec.data == NULL)
	{
		old = MemoryContextSwitchTo(TopMemoryContext);
		initStringInfo(&pending.rec);
		MemoryContextSwitchTo(old);
	}
	resetStringInfo(&pending.rec);
	if (location >= 0 && location <= strlen(source))
	{
		text = source + location;
		n = len > 0 ? len : (int) strlen(text);
	}
	else
		n = (int) strlen(text);
	while (n > 0 && scanner_isspace(*text))
		text++, n--;
	while (n > 0 && (scanner_isspace(text[n - 1]) || text[n - 1] == ';'))
		n--;

	memset(&rec, 0, sizeof(rec));
	rec.pid = MyProcPid;
	rec.session_start = MyStartTime;
	rec.role = GetSessionUserId();
	rec.database = MyDatabaseId;
	rec.at = GetCurrentStatementStartTimestamp();
	rec.duration = -1;
	rec.nparams = params ? params->numParams : 0;
	rec.extended = params != NULL && params->numParams > 0;
	appendBinaryStringInfo(&pending.rec, (char *) &rec, sizeof(rec));
	appendStringInfoString(&pending.rec, application_name ? application_name : "");
	appendStringInfoChar(&pending.rec, '\0');
	appendBinaryStringInfo(&pending.rec, text, n);
	appendStringInfoChar(&pending.rec, '\0');
	pending.params_at = pending.rec.len;
	for (int i = 0; i < rec.nparams; i++)
	{
		ParamExternData workspace;
		ParamExternData *prm;
		char		flag;

		prm = params->paramFetch != NULL ?
			params->paramFetch(params, i + 1, false, &workspace) :
			&params->params[i];
		appendBinaryStringInfo(&pending.rec, (char *) &prm->ptype, sizeof(Oid));
		flag = prm->isnull || !OidIsValid(prm->ptype) ? 'n' : 'v';
		appendStringInfoChar(&pending.rec, flag);
		if (flag == 'v')
		{
			Oid			out;
			bool		isvarlena;

			getTypeOutputInfo(prm->ptype, &out, &isvarlena);
			appendStringInfoString(&pending.rec,
								   OidOutputFunctionCall(out, prm->value));
			appendStringInfoChar(&pending.rec, '\0');
		}
	}
	pending.owner = owner;
	pending.generation = live->generation;
	pending.set = true;
}

/* The statement being captured has run so far: its duration until now. */
static void
pending_ran(void)
{
	LiveRecord *rec = (LiveRecord *) pending.rec.data;

	rec->duration = (double) (GetCurrentTimestamp() - rec->at) / 1000.0;
}

/*
 * End capturing the statement: add it to the shared buffer, with the
 * error it failed with (message and SQLSTATE) if any, or count it dropped
 * if the buffer has no room for it.  Nothing here raises an error: it
 * runs in emit_log_hook too.
 */
static void
pending_end(const char *error, int sqlerrcode)
{
	LiveRecord *rec;
	Size		size;
	char	   *params;
	int			nparams_bytes;

	pending.set = false;
	/* the error goes between the text and the parameters */
	nparams_bytes = pending.rec.len - pending.params_at;
	params = pending.rec.data + pending.params_at;
	if (error != NULL)
	{
		int			elen = strlen(error) + 1;

		enlargeStringInfo(&pending.rec, elen);
		params = pending.rec.data + pending.params_at;
		memmove(params + elen, params, nparams_bytes);
		memcpy(params, error, elen);
		pending.rec.len += elen;
	}
	else
	{
		enlargeStringInfo(&pending.rec, 1);
		params = pending.rec.data + pending.params_at;
		memmove(params + 1, params, nparams_bytes);
		params[0] = '\0';
		pending.rec.len++;
	}
	rec = (LiveRecord *) pending.rec.data;
	rec->sqlerrcode = sqlerrcode;
	if (sqlerrcode != 0 && rec->duration < 0)
		pending_ran();
	size = MAXALIGN(pending.rec.len);
	rec->size = (uint32) size;

	LWLockAcquire(live->lock, LW_EXCLUSIVE);
	if (pg_atomic_read_u32(&live->active) != 0 &&
		live->generation == pending.generation)
	{
		if (size > live->limit - live->used)
			live->dropped++;
		else
		{
			memcpy(live->buffer + live->used, pending.rec.data, pending.rec.len);
			live->used += size;
			live->kept++;
		}
	}
	LWLockRelease(live->lock);

	/* a very long statement's memory is not kept for the next ones */
	if (pending.rec.maxlen > PB_LIVE_KEEP_MEMORY)
	{
		pfree(pending.rec.data);
		pending.rec.data = NULL;
	}
}

/* ExecutorStart: a top-level statement begins to be captured. */
static void
live_executor_start(QueryDesc *queryDesc, int eflags)
{
	if (exec_nesting == 0 && utility_nesting == 0 &&
		(eflags & EXEC_FLAG_EXPLAIN_ONLY) == 0 && live_wanted())
	{
		if (pending.set)
			pending_end(NULL, 0);	/* a portal still open: it ran */
		pending_begin(queryDesc, queryDesc->sourceText,
					  queryDesc->plannedstmt->stmt_location,
					  queryDesc->plannedstmt->stmt_len, queryDesc->params);
	}
	if (prev_executor_start)
		prev_executor_start(queryDesc, eflags);
	else
		standard_ExecutorStart(queryDesc, eflags);
}

/* ExecutorRun: what it runs is nested; the statement's time so far. */
static void
live_executor_run(QueryDesc *queryDesc, ScanDirection direction, uint64 count,
				  bool execute_once)
{
	exec_nesting++;
	PG_TRY();
	{
		if (prev_executor_run)
			prev_executor_run(queryDesc, direction, count, execute_once);
		else
			standard_ExecutorRun(queryDesc, direction, count, execute_once);
	}
	PG_FINALLY();
	{
		exec_nesting--;
	}
	PG_END_TRY();
	if (pending.set && pending.owner == queryDesc)
		pending_ran();
}

/* ExecutorFinish: the triggers it fires are nested. */
static void
live_executor_finish(QueryDesc *queryDesc)
{
	exec_nesting++;
	PG_TRY();
	{
		if (prev_executor_finish)
			prev_executor_finish(queryDesc);
		else
			standard_ExecutorFinish(queryDesc);
	}
	PG_FINALLY();
	{
		exec_nesting--;
	}
	PG_END_TRY();
}

/* ExecutorEnd: the captured statement has run; it is added. */
static void
live_executor_end(QueryDesc *queryDesc)
{
	if (pending.set && pending.owner == queryDesc)
		pending_end(NULL, 0);
	if (prev_executor_end)
		prev_executor_end(queryDesc);
	else
		standard_ExecutorEnd(queryDesc);
}

/*
 * ProcessUtility: a top-level utility statement (transaction control,
 * SET, DDL) is captured as it ends; what it runs is nested.
 */
static void
live_process_utility(PlannedStmt *pstmt, const char *queryString,
					 bool readOnlyTree, ProcessUtilityContext context,
					 ParamListInfo params, QueryEnvironment *queryEnv,
					 DestReceiver *dest, QueryCompletion *qc)
{
	if (context == PROCESS_UTILITY_TOPLEVEL && exec_nesting == 0 &&
		utility_nesting == 0 && live_wanted())
	{
		if (pending.set)
			pending_end(NULL, 0);
		pending_begin(pstmt, queryString, pstmt->stmt_location,
					  pstmt->stmt_len, params);
	}
	utility_nesting++;
	PG_TRY();
	{
		if (prev_process_utility)
			prev_process_utility(pstmt, queryString, readOnlyTree, context,
								 params, queryEnv, dest, qc);
		else
			standard_ProcessUtility(pstmt, queryString, readOnlyTree, context,
									params, queryEnv, dest, qc);
	}
	PG_FINALLY();
	{
		utility_nesting--;
	}
	PG_END_TRY();
	if (pending.set && pending.owner == pstmt)
	{
		pending_ran();
		pending_end(NULL, 0);
	}
}

/*
 * emit_log_hook: the error the captured statement fails with, or, of one
 * that failed before it was captured (in its parsing or planning, in a
 * failed transaction), the statement as the client sent it with its error.
 */
static void
live_emit_log(ErrorData *edata)
{
	if (edata->elevel == ERROR && !pending.set && debug_query_string != NULL &&
		exec_nesting == 0 && utility_nesting == 0 && live_wanted())
		pending_begin(NULL, debug_query_string, -1, 0, NULL);
	/* not at PANIC, which may come in a critical section */
	if (pending.set && (edata->elevel == ERROR || edata->elevel == FATAL))
		pending_end(edata->message ? edata->message : "", edata->sqlerrcode);
	if (prev_emit_log)
		prev_emit_log(edata);
}

/* A transaction's abort ends the statement that failed in it, kept or not. */
static void
live_xact_callback(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT)
		pending.set = false;
}

/*
 * Preloaded: define polarbench.capture_memory, take the shared memory and
 * the hooks; called from _PG_init.
 */
void
pb_capture_live_init(void)
{
	/* a setting of the postmaster's can be defined only as it starts */
	if (!process_shared_preload_libraries_in_progress)
		return;
	DefineCustomIntVariable("polarbench.capture_memory",
							"Sets the shared memory a capture through hooks (polarbench_capture_start) keeps its statements in until polarbench_capture_stop.",
							"Taken when the server starts, with polarbench in shared_preload_libraries. Statements past it are counted and not kept.",
							&pb_capture_memory,
							16 * 1024, 64, MAX_KILOBYTES,
							PGC_POSTMASTER, GUC_UNIT_KB,
							NULL, NULL, NULL);
	prev_shmem_request = shmem_request_hook;
	shmem_request_hook = live_shmem_request;
	prev_shmem_startup = shmem_startup_hook;
	shmem_startup_hook = live_shmem_startup;
	prev_executor_start = ExecutorStart_hook;
	ExecutorStart_hook = live_executor_start;
	prev_executor_run = ExecutorRun_hook;
	ExecutorRun_hook = live_executor_run;
	prev_executor_finish = ExecutorFinish_hook;
	ExecutorFinish_hook = live_executor_finish;
	prev_executor_end = ExecutorEnd_hook;
	ExecutorEnd_hook = live_executor_end;
	prev_process_utility = ProcessUtility_hook;
	ProcessUtility_hook = live_process_utility;
	prev_emit_log = emit_log_hook;
	emit_log_hook = live_emit_log;
	RegisterXactCallback(live_xact_callback, NULL);
}

/* Refuse a capture through hooks where polarbench is not preloaded. */
static void
live_check_available(void)
{
	if (live == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("a capture through hooks needs polarbench in shared_preload_libraries"),
				 errhint("Add polarbench to shared_preload_libraries and restart the server, or capture the server's log with polarbench_capture_log.")));
}

/*
 * Start capturing, for role captured_by, the statements the filters keep;
 * at once, whatever becomes of the caller's transaction.  One capture at
 * a time.
 */
void
pb_capture_live_start(Oid captured_by, const PbLiveFilters *filters)
{
	Size		memory = (Size) pb_capture_memory * 1024;

	live_check_available();
	LWLockAcquire(live->lock, LW_EXCLUSIVE);
	if (pg_atomic_read_u32(&live->active) != 0 || live->stopping)
	{
		Oid			by = live->captured_by;

		LWLockRelease(live->lock);
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_IN_USE),
				 errmsg("a capture through hooks is already going on"),
				 errdetail("Role \"%s\" started it.", GetUserNameFromId(by, true) ?
						   GetUserNameFromId(by, true) : "?"),
				 errhint("polarbench_capture_stop() ends it; one capture goes on at a time.")));
	}
	live->generation++;
	live->captured_by = captured_by;
	live->database = filters->database;
	live->role = filters->role;
	live->has_application = filters->application != NULL;
	strlcpy(live->application, filters->application ? filters->application : "",
			NAMEDATALEN);
	live->limit = filters->max_size > 0 && (uint64) filters->max_size < memory ?
		(Size) filters->max_size : memory;
	live->used = 0;
	live->kept = 0;
	live->dropped = 0;
	pg_write_barrier();
	pg_atomic_write_u32(&live->active, 1);
	LWLockRelease(live->lock);
}

struct PbLiveCapture
{
	Oid			captured_by;
	Oid			database;		/* its filters */
	Oid			role;
	char	   *application;
	Size		limit;
	char	   *buffer;			/* the records */
	Size		used;
	int64		kept;
	int64		dropped;
};

/*
 * Stop the capture going on, which the caller must have the privileges of
 * its role to do; its records, copied into the caller's memory.
 */
PbLiveCapture *
pb_capture_live_stop(void)
{
	PbLiveCapture *result = palloc0(sizeof(PbLiveCapture));

	live_check_available();
	LWLockAcquire(live->lock, LW_EXCLUSIVE);
	if (pg_atomic_read_u32(&live->active) == 0)
	{
		LWLockRelease(live->lock);
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("no capture through hooks is going on"),
				 errhint("polarbench_capture_start() starts one.")));
	}
	if (!has_privs_of_role(GetUserId(), live->captured_by))
	{
		Oid			by = live->captured_by;

		LWLockRelease(live->lock);
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to stop the capture of role \"%s\"",
						GetUserNameFromId(by, true) ? GetUserNameFromId(by, true) : "?"),
				 errhint("Only its role, roles with its privileges and superusers stop a capture.")));
	}
	/*
	 * No statement is added once it is inactive: the buffer is copied out
	 * without the lock, which the sessions' last statements take to find it
	 * so, and no capture starts until it is emptied
	 */
	pg_atomic_write_u32(&live->active, 0);
	live->stopping = true;
	result->captured_by = live->captured_by;
	result->database = live->database;
	result->role = live->role;
	result->application = live->has_application ? pstrdup(live->application) : NULL;
	result->limit = live->limit;
	result->used = live->used;
	result->kept = live->kept;
	result->dropped = live->dropped;
	LWLockRelease(live->lock);
	PG_TRY();
	{
		result->buffer = MemoryContextAllocHuge(CurrentMemoryContext, Max(result->used, 1));
		memcpy(result->buffer, live->buffer, result->used);
	}
	PG_FINALLY();
	{
		LWLockAcquire(live->lock, LW_EXCLUSIVE);
		live->used = 0;
		live->stopping = false;
		LWLockRelease(live->lock);
	}
	PG_END_TRY();
	return result;
}

/* a session of a capture through hooks, by its backend */
typedef struct LiveSession
{
	int			pid;			/* the key, with session_start */
	pg_time_t	session_start;
	int			session_no;
	PbCaptureSession s;
} LiveSession;

typedef struct LiveSessions
{
	LiveSession **by_no;
	int			n;
} LiveSessions;

/* The session numbered no, for the store. */
static const PbCaptureSession *
live_session(const void *arg, int no)
{
	const LiveSessions *sessions = arg;

	return &sessions->by_no[no - 1]->s;
}

/* A stopped capture's filters and bound, as a JSON object. */
static char *
live_filters_json(const PbLiveCapture *capture)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoString(&buf, "{\"max_size\": ");
	appendStringInfo(&buf, UINT64_FORMAT, (uint64) capture->limit);
	if (OidIsValid(capture->database))
	{
		char	   *name = get_database_name(capture->database);

		appendStringInfoString(&buf, ", \"database\": ");
		escape_json(&buf, name ? name : "?");
	}
	if (OidIsValid(capture->role))
	{
		char	   *name = GetUserNameFromId(capture->role, true);

		appendStringInfoString(&buf, ", \"role\": ");
		escape_json(&buf, name ? name : "?");
	}
	if (capture->application != NULL)
	{
		appendStringInfoString(&buf, ", \"application\": ");
		escape_json(&buf, capture->application);
	}
	appendStringInfoChar(&buf, '}');
	return buf.data;
}

/*
 * Store a stopped capture into the capture tables of the extension's
 * schema, as the log's are stored (SPI connected, as the extension's
 * owner); its id, and its counts into counts.
 */
int64
pb_capture_live_store(const PbLiveCapture *capture, Oid schema,
					  PbCaptureCounts *counts)
{
	PbCaptureStore *store;
	HTAB	   *by_backend;
	HASHCTL		ctl;
	LiveSessions sessions = {NULL, 0};
	int			cap = 64;
	Size		off;
	long		no = 0;

	memset(counts, 0, sizeof(*counts));
	if (capture->kept == 0)
		ereport(ERROR,
				(errcode(ERRCODE_NO_DATA_FOUND),
				 errmsg("the capture kept no statement"),
				 errdetail("%lld statements were past its bound.", (long long) capture->dropped),
				 errhint("A capture keeps the top-level statements of client sessions its filters keep, run between polarbench_capture_start and polarbench_capture_stop.")));
	store = pb_capture_store_begin(schema, capture->captured_by,
								   "polarbench_capture_start", live_filters_json(capture));
	ctl.keysize = offsetof(LiveSession, session_no);
	ctl.entrysize = sizeof(LiveSession);
	ctl.hcxt = CurrentMemoryContext;
	by_backend = hash_create("polarbench capture sessions", 256, &ctl,
							 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	sessions.by_no = palloc(sizeof(LiveSession *) * cap);
	for (off = 0; off < capture->used;)
	{
		const LiveRecord *rec = (const LiveRecord *) (capture->buffer + off);
		const char *p = capture->buffer + off + sizeof(LiveRecord);
		const char *application = p;
		PbCaptureStatement st;
		LiveSession key;
		LiveSession *ls;
		bool		found;
		char	  **params;
		unsigned int *param_types;

		CHECK_FOR_INTERRUPTS();
		off += rec->size;
		memset(&key, 0, sizeof(key));
		key.pid = rec->pid;
		key.session_start = rec->session_start;
		ls = hash_search(by_backend, &key, HASH_ENTER, &found);
		if (!found)
		{
			char	   *role = GetUserNameFromId(rec->role, true);
			char	   *database = get_database_name(rec->database);

			if (sessions.n == cap)
			{
				cap *= 2;
				sessions.by_no = repalloc(sessions.by_no, sizeof(LiveSession *) * cap);
			}
			sessions.by_no[sessions.n++] = ls;
			ls->session_no = sessions.n;
			memset(&ls->s, 0, sizeof(ls->s));
			ls->s.id = psprintf("%lx.%x", (long) rec->session_start, rec->pid);
			ls->s.role = role ? role : psprintf("%u", rec->role);
			ls->s.database = database ? database : psprintf("%u", rec->database);
			ls->s.application = pstrdup(application);
			ls->s.first_at = (PbLogTime) rec->at;
		}
		memset(&st, 0, sizeof(st));
		st.session_no = ls->session_no;
		st.statement_no = ++ls->s.statements;
		st.line = ++no;
		st.at = (PbLogTime) rec->at;
		p += strlen(p) + 1;
		st.text = (char *) p;
		p += strlen(p) + 1;
		st.error = rec->sqlerrcode != 0 ? (char *) p : NULL;
		p += strlen(p) + 1;
		if (rec->sqlerrcode != 0)
		{
			strlcpy(st.sqlstate, unpack_sql_state(rec->sqlerrcode), sizeof(st.sqlstate));
			ls->s.errors++;
			counts->errors++;
		}
		st.name = rec->extended ? "" : NULL;
		st.nparams = rec->nparams;
		params = st.nparams > 0 ? palloc(sizeof(char *) * st.nparams) : NULL;
		param_types = st.nparams > 0 ? palloc(sizeof(unsigned int) * st.nparams) : NULL;
		for (int i = 0; i < st.nparams; i++)
		{
			Oid			type;

			memcpy(&type, p, sizeof(Oid));
			param_types[i] = type;
			p += sizeof(Oid);
			if (*p++ == 'n')
				params[i] = NULL;
			else
			{
				params[i] = (char *) p;
				p += strlen(p) + 1;
			}
		}
		st.params = params;
		st.param_types = param_types;
		st.duration = rec->duration;
		ls->s.last_at = st.at;
		if (counts->statements == 0 || st.at < counts->first_at)
			counts->first_at = st.at;
		if (counts->statements == 0 || st.at > counts->last_at)
			counts->last_at = st.at;
		counts->statements++;
		pb_capture_store_add(store, &st);
		if (params)
		{
			pfree(params);
			pfree(param_types);
		}
	}
	counts->lines = capture->kept;
	counts->sessions = sessions.n;
	counts->skipped[PB_SKIP_BOUND] = capture->dropped;
	counts->skipped_line[PB_SKIP_BOUND] = 0;
	pb_capture_store_finish(store, counts, "hooks", live_session, &sessions);
	return pb_capture_store_id(store);
}
