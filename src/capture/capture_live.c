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
 * bind with their types (the ParamListInfo's); as it ends, with its
 * duration or its error and SQLSTATE, it is appended to one shared buffer
 * of polarbench.capture_memory.  A statement that finds the buffer full
 * (or the capture's max_size reached) is counted and dropped: a session is
 * never held back.  polarbench_capture_stop() ends the capture, copies the
 * buffer out and stores it into the capture tables as
 * polarbench_capture_log stores a log (capture_store.c), so that a replay
 * runs it unchanged.
 *
 * What a captured statement costs is kept low (test/bench/bench_capture.sh,
 * README): no lock is taken to add it, nor an atomic operation on a shared
 * counter.  Each backend reserves a chunk of the buffer (PB_LIVE_CHUNK,
 * fewer bytes as the buffer fills, a record's size for a larger record)
 * with one atomic fetch-add, and appends its records there, the chunk's
 * used bytes in its header: no other backend writes to its pages, so it
 * alone takes their page faults, and no cache line is written by two
 * backends.  While it adds a record it sets a flag of its own, on a cache
 * line of its own, which polarbench_capture_stop waits for (live_add says
 * why that is enough).  The stop reads the buffer chunk by chunk, so each
 * backend's records in the order it added them; a backend that exited
 * left its chunk's header right.  max_size bounds the bytes of the buffer
 * taken: the records, an 8-byte header per chunk, and the tails of the
 * chunks the backends hold and have not filled; as a chunk takes at most a
 * 32nd of the room left, those tails shrink with it, and a statement is
 * dropped once the room left unreserved is less than it takes.  The
 * counters the backends write when they reserve or drop are on a cache
 * line of their own, away from the filters every statement reads.  A
 * parameter of a built-in type (the same type in every database) is kept
 * as its bytes, its text made at stop by its type's output function rather
 * than at every bind.
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

#include "access/transam.h"
#include "access/tupmacs.h"
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

/*
 * The bytes of the buffer a backend reserves at a time, at most: its
 * records are appended there without an atomic operation, and no other
 * backend writes to its pages and cache lines.  32 kB holds some 250 of
 * tpcb-like's records (130 bytes each with -M prepared), so that the
 * fetch-add that reserves it is paid once per 35 transactions, and 8
 * pages, whose page faults only this backend takes; larger, a chunk would
 * leave more of the buffer unused in the sessions that have stopped
 * writing when the buffer fills (a chunk per session, were they many).
 */
#define PB_LIVE_CHUNK		(32 * 1024)

/*
 * A chunk takes at most this share of the room not yet reserved: as the
 * buffer fills, chunks shrink down to a record, so that the tails the
 * backends have reserved and not filled stay a small part of the bound.
 */
#define PB_LIVE_CHUNK_SHARE	32

/* the buffer begins on a page, so that a chunk's pages are its own */
#define PB_LIVE_PAGE		4096

int			pb_capture_memory = 16 * 1024;

/*
 * What the backends write, past their chunks: the room they reserve and
 * the statements past the bound.  On a cache line of their own, so that
 * those writes do not take the line of the filters, which every statement
 * reads, from the others' caches.
 */
typedef union LiveCounters
{
	struct
	{
		pg_atomic_uint64 reserved;	/* bytes handed out, past limit too */
		pg_atomic_uint64 dropped;	/* records that found no room */
	}			c;
	char		pad[PG_CACHE_LINE_SIZE];
} LiveCounters;

/*
 * A backend's flag, set while it adds a record (a chunk's reservation
 * included), on a cache line of its own: polarbench_capture_stop waits for
 * the flags it finds set (live_add says why this is enough).
 */
typedef union LiveWriter
{
	struct
	{
		volatile uint32 copying;
	}			w;
	char		pad[PG_CACHE_LINE_SIZE];
} LiveWriter;

/* the capture, in shared memory */
typedef struct LiveShared
{
	LiveCounters counters;
	pg_atomic_uint32 active;	/* nonzero while a capture goes on */
	int			nwriters;		/* a LiveWriter per backend id */
	LWLock	   *lock;			/* protects the fields below */
	bool		stopping;		/* the buffer is being copied out */
	uint64		generation;		/* counts the captures started */
	Oid			captured_by;
	Oid			database;
	Oid			role;
	bool		has_application;
	char		application[NAMEDATALEN];
	Size		limit;			/* bytes of the buffer taken at most */
} LiveShared;

/* the bytes of the buffer the chunks take at most: limit, aligned */
#define LIVE_ROOM(limit)	TYPEALIGN_DOWN(MAXIMUM_ALIGNOF, (limit))

/*
 * A statement in the buffer: this header, then the application and the
 * text, each NUL-terminated, then each parameter as its type's Oid and a
 * byte: 'n' for NULL; 'v' then its text NUL-terminated; 'b' (a built-in
 * type) then its bytes (its typlen bytes, as a tuple stores them, for a
 * type of fixed length; else their count, uint32, first); then the
 * error, NUL-terminated (empty if none).  size is MAXALIGNed, so that
 * records follow each other aligned.
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

/*
 * The start of a chunk of the buffer, which one backend reserved and fills
 * with its records, one after the other from its header on: its bytes
 * (this header included) and those of its records.  Chunks follow each
 * other from the buffer's start: the reader goes from one to the next by
 * its size, and reads used bytes of records in each.
 */
typedef struct LiveChunk
{
	uint32		size;
	uint32		used;
} LiveChunk;

#define LIVE_CHUNK_HEADER	MAXALIGN(sizeof(LiveChunk))

/* the length and passing of a built-in type, as a parameter's bytes */
typedef struct TypeShape
{
	Oid			type;
	int16		typlen;
	bool		typbyval;
} TypeShape;

/* built-in types' shapes, looked up once each by this backend */
#define TYPE_SHAPES	32
static TypeShape type_shapes[TYPE_SHAPES];

/* the statement of this backend being captured */
typedef struct Pending
{
	bool		set;
	const void *owner;			/* its QueryDesc or PlannedStmt */
	bool		at_commit;		/* it has run; its commit decides how it
								 * ended */
	uint64		generation;
	StringInfoData rec;			/* the record, its error to come */
} Pending;

static LiveShared *live = NULL;
static LiveWriter *live_writers;	/* after the state */
static char *live_buffer;		/* after the writers, on a page */
static Pending pending;

/* the chunk of the buffer this backend appends its records to */
typedef struct OwnChunk
{
	uint64		generation;		/* the capture it is of; 0: none */
	LiveChunk  *chunk;
	char	   *next;			/* where the next record goes */
	char	   *end;
} OwnChunk;

static OwnChunk own_chunk;
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

/*
 * The shared memory the capture takes: its state, a writer's flag per
 * backend id (MaxBackends is known from shmem_request_hook on), its buffer
 * on a page.
 */
static Size
live_size(void)
{
	Size		size = CACHELINEALIGN(sizeof(LiveShared));

	size = add_size(size, mul_size(MaxBackends, sizeof(LiveWriter)));
	size = add_size(size, PB_LIVE_PAGE);
	return add_size(size, mul_size((Size) pb_capture_memory, 1024));
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
	live_writers = (LiveWriter *) ((char *) live + CACHELINEALIGN(sizeof(LiveShared)));
	live_buffer = (char *) TYPEALIGN(PB_LIVE_PAGE, live_writers + MaxBackends);
	if (!found)
	{
		memset(live, 0, sizeof(LiveShared));
		pg_atomic_init_u32(&live->active, 0);
		pg_atomic_init_u64(&live->counters.c.reserved, 0);
		pg_atomic_init_u64(&live->counters.c.dropped, 0);
		live->nwriters = MaxBackends;
		memset(live_writers, 0, mul_size(MaxBackends, sizeof(LiveWriter)));
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
 * Append n bytes to the statement being captured: inline, for every
 * statement appends a few short pieces (appendBinaryStringInfo's call of
 * enlargeStringInfo each time cost more than the copies).
 */
static inline void
pending_put(const void *data, Size n)
{
	if (pending.rec.len + n >= pending.rec.maxlen)
		enlargeStringInfo(&pending.rec, n);
	memcpy(pending.rec.data + pending.rec.len, data, n);
	pending.rec.len += n;
}

/* Append a string to the statement being captured, NUL-terminated. */
static inline void
pending_put_string(const char *s)
{
	pending_put(s, strlen(s) + 1);
}

/* The length and passing of built-in type type, looked up once. */
static const TypeShape *
type_shape(Oid type)
{
	TypeShape  *shape = &type_shapes[type % TYPE_SHAPES];

	if (shape->type != type)
	{
		get_typlenbyval(type, &shape->typlen, &shape->typbyval);
		shape->type = type;
	}
	return shape;
}

/*
 * Add a bind's parameter to the statement being captured: of a built-in
 * type, its bytes, its text made at stop (cheaper than the output
 * function at every bind, and a built-in type is the same in the database
 * the capture is stored from); of another type, or a value that is not
 * plain in memory, its text.
 */
static void
pending_add_param(const ParamExternData *prm)
{
	Oid			out;
	bool		isvarlena;

	pending_put(&prm->ptype, sizeof(Oid));
	if (prm->isnull || !OidIsValid(prm->ptype))
	{
		pending_put("n", 1);
		return;
	}
	if (prm->ptype < FirstNormalObjectId)
	{
		const TypeShape *shape = type_shape(prm->ptype);

		if (shape->typbyval)
		{
			/* its typlen bytes, as a tuple stores it */
			Datum		bytes;

			store_att_byval(&bytes, prm->value, shape->typlen);
			pending_put("b", 1);
			pending_put(&bytes, shape->typlen);
			return;
		}
		if (shape->typlen > 0)
		{
			pending_put("b", 1);
			pending_put(DatumGetPointer(prm->value), shape->typlen);
			return;
		}
		if ((shape->typlen == -1 &&
			 !VARATT_IS_EXTERNAL(DatumGetPointer(prm->value)) &&
			 !VARATT_IS_COMPRESSED(DatumGetPointer(prm->value))) ||
			shape->typlen == -2)
		{
			const char *bytes = DatumGetPointer(prm->value);
			uint32		len = shape->typlen == -1 ? VARSIZE_ANY(bytes) : strlen(bytes) + 1;

			pending_put("b", 1);
			pending_put(&len, sizeof(len));
			pending_put(bytes, len);
			return;
		}
	}
	pending_put("v", 1);
	getTypeOutputInfo(prm->ptype, &out, &isvarlena);
	pending_put_string(OidOutputFunctionCall(out, prm->value));
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
	pending_put(&rec, sizeof(rec));
	pending_put_string(application_name ? application_name : "");
	pending_put(text, n);
	pending_put("", 1);
	for (int i = 0; i < rec.nparams; i++)
	{
		ParamExternData workspace;
		ParamExternData *prm;

		prm = params->paramFetch != NULL ?
			params->paramFetch(params, i + 1, false, &workspace) :
			&params->params[i];
		pending_add_param(prm);
	}
	pending.owner = owner;
	pending.at_commit = false;
	pending.generation = live->generation;
	pending.set = true;
}

/*
 * The captured statement has run, and its transaction commits right after
 * it (a statement outside a transaction block, a COMMIT or PREPARE
 * TRANSACTION that will commit or prepare): it ends with the commit, which
 * may still fail (a deferred constraint, a serialization failure), and
 * then emit_log_hook gives its error; as the server's log, it is one
 * statement, its duration up to the commit.
 */
static void
pending_end_at_commit(void)
{
	pending.owner = NULL;
	pending.at_commit = true;
}

/* The statement being captured has run so far: its duration until now. */
static void
pending_ran(void)
{
	LiveRecord *rec = (LiveRecord *) pending.rec.data;

	rec->duration = (double) (GetCurrentTimestamp() - rec->at) / 1000.0;
}

/*
 * Reserve a chunk of the buffer for this backend's records, the next of
 * which takes record_size bytes: PB_LIVE_CHUNK, or less as the room not
 * yet reserved shrinks, or the record's size if larger.  The chunk is
 * marked (its header) at once, so that the reader finds it and the next.
 * Without room left, own_chunk is left as it was (a smaller record may fit
 * in it yet); a chunk cut short by the bound becomes own_chunk even if the
 * record does not fit in it.  Called by live_add, its flag set.
 */
static void
live_reserve_chunk(Size record_size)
{
	Size		room = LIVE_ROOM(live->limit);
	Size		need = LIVE_CHUNK_HEADER + record_size;
	uint64		reserved = pg_atomic_read_u64(&live->counters.c.reserved);
	uint64		at;
	Size		size;
	LiveChunk  *chunk;

	/* full: not even the fetch-add, whose line every backend would take */
	if (reserved >= room || room - reserved < need)
		return;
	size = Min(PB_LIVE_CHUNK, (room - reserved) / PB_LIVE_CHUNK_SHARE);
	size = CACHELINEALIGN(Max(size, need));
	at = pg_atomic_fetch_add_u64(&live->counters.c.reserved, size);
	if (at >= room)
		return;					/* the others took the rest meanwhile */
	if (at + size > room)
		size = room - at;
	chunk = (LiveChunk *) (live_buffer + at);
	chunk->size = (uint32) size;
	chunk->used = 0;
	own_chunk.generation = live->generation;
	own_chunk.chunk = chunk;
	own_chunk.next = (char *) chunk + LIVE_CHUNK_HEADER;
	own_chunk.end = (char *) chunk + size;
}

/*
 * Add a record to the shared buffer, if the capture it was taken for goes
 * on and the buffer has room for it; else count it dropped.  No lock, and
 * no atomic operation but when a chunk is reserved: the record goes into
 * this backend's chunk, after its previous one, the chunk's used bytes
 * counted in its header.  Nothing here raises an error or waits.
 *
 * Why the stop finds every record, and no writer writes once it has
 * stopped (so that a capture started next cannot be overwritten): this
 * backend sets its flag, then (a full barrier between) reads whether the
 * capture is active; the stop makes it inactive, then (a full barrier
 * between) reads every flag and waits while one is set.  With a full
 * barrier on each side, one of the two sees the other's store: either
 * this backend sees the capture inactive and writes nothing, or the stop
 * sees the flag set and waits until it is cleared, after the record, the
 * chunk's header and its used bytes (a write barrier before the clear, and
 * a barrier in the stop after its wait, order them).  The full barrier is
 * on a cache line only this backend writes: unlike an atomic on a shared
 * counter, it takes no line from another core.
 */
static void
live_add(const char *data, Size size)
{
	LiveWriter *me;

	/* a client backend's id is at most MaxBackends */
	if (MyBackendId < 1 || MyBackendId > live->nwriters)
		return;
	me = &live_writers[MyBackendId - 1];
	me->w.copying = 1;
	pg_memory_barrier();
	if (pg_atomic_read_u32(&live->active) != 0)
	{
		pg_read_barrier();
		if (live->generation == pending.generation)
		{
			if (own_chunk.generation != pending.generation ||
				(Size) (own_chunk.end - own_chunk.next) < size)
				live_reserve_chunk(size);
			if (own_chunk.generation == pending.generation &&
				(Size) (own_chunk.end - own_chunk.next) >= size)
			{
				memcpy(own_chunk.next, data, size);
				own_chunk.next += size;
				own_chunk.chunk->used += (uint32) size;
			}
			else
				pg_atomic_fetch_add_u64(&live->counters.c.dropped, 1);
		}
	}
	pg_write_barrier();
	me->w.copying = 0;
}

/*
 * End capturing the statement: add it to the shared buffer, with the
 * error it failed with (message and SQLSTATE) if any.  Nothing here
 * raises an error: it runs in emit_log_hook too.
 */
static void
pending_end(const char *error, int sqlerrcode)
{
	LiveRecord *rec;
	Size		size;

	pending.set = false;
	pending_put_string(error ? error : "");
	size = MAXALIGN(pending.rec.len);
	pending_put("\0\0\0\0\0\0\0", size - pending.rec.len);
	rec = (LiveRecord *) pending.rec.data;
	rec->sqlerrcode = sqlerrcode;
	if (sqlerrcode != 0 && rec->duration < 0)
		pending_ran();
	rec->size = (uint32) size;
	live_add(pending.rec.data, size);

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
	{
		if (IsTransactionBlock())
			pending_end(NULL, 0);
		else
			pending_end_at_commit();
	}
	if (prev_executor_end)
		prev_executor_end(queryDesc);
	else
		standard_ExecutorEnd(queryDesc);
}

/*
 * Whether the transaction commits (or is prepared) once the utility
 * statement has run: outside a transaction block, or a COMMIT or PREPARE
 * TRANSACTION that found one to end (one that found a failed block reports
 * a ROLLBACK in qc; a successful one leaves qc to the caller).
 */
static bool
live_commits_next(PlannedStmt *pstmt, QueryCompletion *qc)
{
	TransactionStmt *stmt = (TransactionStmt *) pstmt->utilityStmt;

	if (!IsTransactionBlock())
		return true;
	if (!IsA(stmt, TransactionStmt))
		return false;
	return (stmt->kind == TRANS_STMT_COMMIT || stmt->kind == TRANS_STMT_PREPARE) &&
		(qc == NULL || qc->commandTag != CMDTAG_ROLLBACK);
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
		if (live_commits_next(pstmt, qc))
			pending_end_at_commit();
		else
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

/*
 * A transaction's abort ends the statement that failed in it, kept or not;
 * its commit, the statement that waited for it (pending_end_at_commit).
 */
static void
live_xact_callback(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT)
		pending.set = false;
	else if ((event == XACT_EVENT_COMMIT || event == XACT_EVENT_PREPARE) &&
			 pending.set && pending.at_commit)
	{
		pending_ran();
		pending_end(NULL, 0);
	}
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
	pg_atomic_write_u64(&live->counters.c.reserved, 0);
	pg_atomic_write_u64(&live->counters.c.dropped, 0);
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
 * Copy the records of every chunk of the stopped capture's buffer into
 * result, one after the other, and count them: chunk by chunk from the
 * buffer's start, each backend's in the order it reserved them, so in the
 * order its records were added.  A chunk a backend left part filled (it
 * stopped writing, or exited) holds its used bytes.  The sessions come in
 * the order they added their first record (reserved their first chunk),
 * as the store numbers them; their records are not interleaved by time,
 * one chunk's after another's, and so the store's lines (the records'
 * numbers); a replay orders the sessions by their first statement's time
 * (first_at), each session's statements by their number in it.
 */
static void
live_copy_chunks(PbLiveCapture *result)
{
	Size		end = Min(pg_atomic_read_u64(&live->counters.c.reserved),
						  LIVE_ROOM(result->limit));
	Size		off;

	result->dropped = (int64) pg_atomic_read_u64(&live->counters.c.dropped);
	result->buffer = MemoryContextAllocHuge(CurrentMemoryContext, Max(end, 1));
	result->used = 0;
	for (off = 0; off + LIVE_CHUNK_HEADER <= end;)
	{
		const LiveChunk *chunk = (const LiveChunk *) (live_buffer + off);
		const char *records = (const char *) chunk + LIVE_CHUNK_HEADER;
		Size		r;

		/* every reserved chunk was marked before its writer's flag cleared */
		if (chunk->size < LIVE_CHUNK_HEADER || off + chunk->size > end ||
			chunk->used > chunk->size - LIVE_CHUNK_HEADER)
			elog(ERROR, "chunk at %zu of the capture's buffer is corrupt", off);
		for (r = 0; r < chunk->used; r += ((const LiveRecord *) (records + r))->size)
		{
			if (((const LiveRecord *) (records + r))->size == 0)
				elog(ERROR, "record at %zu of the capture's buffer is corrupt", off + r);
			result->kept++;
		}
		memcpy(result->buffer + result->used, records, chunk->used);
		result->used += chunk->used;
		off += chunk->size;
	}
}

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
	 * No statement is added once it is inactive and the writers that found
	 * it active have copied theirs: the buffer is then copied out without
	 * the lock, and no capture starts until it is emptied
	 */
	pg_atomic_write_u32(&live->active, 0);
	pg_memory_barrier();
	live->stopping = true;
	result->captured_by = live->captured_by;
	result->database = live->database;
	result->role = live->role;
	result->application = live->has_application ? pstrdup(live->application) : NULL;
	result->limit = live->limit;
	LWLockRelease(live->lock);
	PG_TRY();
	{
		/* a writer adds one record, without anything that can wait */
		for (int i = 0; i < live->nwriters; i++)
			while (live_writers[i].w.copying != 0)
				pg_usleep(100L);
		pg_memory_barrier();
		live_copy_chunks(result);
	}
	PG_FINALLY();
	{
		LWLockAcquire(live->lock, LW_EXCLUSIVE);
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
 * The text of a parameter kept at *p, of type type, which *p is moved
 * past; NULL for NULL.  Kept as bytes, it is written by its type's output
 * function now.
 */
static char *
live_param_text(Oid type, const char **p)
{
	char		kind = *(*p)++;
	char	   *text = NULL;

	if (kind == 'v')
	{
		text = (char *) *p;
		*p += strlen(text) + 1;
	}
	else if (kind == 'b')
	{
		uint32		len;
		int16		typlen;
		bool		typbyval;
		Oid			out;
		bool		isvarlena;
		Datum		value;

		get_typlenbyval(type, &typlen, &typbyval);
		if (typlen > 0)
			len = typlen;
		else
		{
			memcpy(&len, *p, sizeof(len));
			*p += sizeof(len);
		}
		if (typbyval)
		{
			Datum		bytes;

			memcpy(&bytes, *p, len);
			value = fetch_att(&bytes, true, typlen);
		}
		else
		{
			/* aligned, as the output function reads it */
			char	   *copy = palloc(len);

			memcpy(copy, *p, len);
			value = PointerGetDatum(copy);
		}
		*p += len;
		getTypeOutputInfo(type, &out, &isvarlena);
		text = OidOutputFunctionCall(out, value);
	}
	return text;
}

/*
 * Store a stopped capture into the capture tables of the extension's
 * schema, as the log's are stored (SPI connected, as the extension's
 * owner, in a GUC nest level of the caller's, which takes back the
 * settings made here); its id, and its counts into counts.
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
	MemoryContext record_cxt;
	MemoryContext old;

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
	record_cxt = AllocSetContextCreate(CurrentMemoryContext, "polarbench capture record",
									   ALLOCSET_DEFAULT_SIZES);

	/*
	 * The parameters kept as bytes are written in forms that read back the
	 * same whatever the replaying session's settings
	 */
	(void) set_config_option("datestyle", "ISO, MDY", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	(void) set_config_option("intervalstyle", "postgres", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	(void) set_config_option("extra_float_digits", "1", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	(void) set_config_option("bytea_output", "hex", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
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
		st.name = rec->extended ? "" : NULL;
		st.nparams = rec->nparams;
		old = MemoryContextSwitchTo(record_cxt);
		params = st.nparams > 0 ? palloc(sizeof(char *) * st.nparams) : NULL;
		param_types = st.nparams > 0 ? palloc(sizeof(unsigned int) * st.nparams) : NULL;
		for (int i = 0; i < st.nparams; i++)
		{
			Oid			type;

			memcpy(&type, p, sizeof(Oid));
			param_types[i] = type;
			p += sizeof(Oid);
			params[i] = live_param_text(type, &p);
		}
		st.error = rec->sqlerrcode != 0 ? (char *) p : NULL;
		if (rec->sqlerrcode != 0)
		{
			strlcpy(st.sqlstate, unpack_sql_state(rec->sqlerrcode), sizeof(st.sqlstate));
			ls->s.errors++;
			counts->errors++;
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
		MemoryContextSwitchTo(old);
		pb_capture_store_add(store, &st);
		MemoryContextReset(record_cxt);
	}
	MemoryContextDelete(record_cxt);
	counts->lines = capture->kept;
	counts->sessions = sessions.n;
	counts->skipped[PB_SKIP_BOUND] = capture->dropped;
	counts->skipped_line[PB_SKIP_BOUND] = 0;
	pb_capture_store_finish(store, counts, "hooks", live_session, &sessions);
	return pb_capture_store_id(store);
}
