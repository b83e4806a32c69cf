/*-------------------------------------------------------------------------
 *
 * profile.c
 *	  Where a run's time went, as the recorder sees it: the clients' wait
 *	  events sampled every few milliseconds from their PGPROCs (the
 *	  clients do nothing for it), and the server-wide counters (WAL, the
 *	  database's commits and buffers, the checkpointer's and the background
 *	  writer's writes, which they report when they get to it; on a Citus
 *	  node, its executor's statements and connections) read at the start
 *	  and at the end of the run.
 *
 * A client that waits for nothing is on the CPU (or ready for it): its
 * samples count as wait event type "CPU".  The counters are the server's,
 * so a run shares them with whatever else the server did meanwhile; the
 * clients flush their own statistics as they exit, so the warm-up is in
 * the counters too.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "nodes/value.h"
#include "parser/parse_func.h"
#include "pgstat.h"
#include "storage/proc.h"
#include "utils/hsearch.h"
#include "utils/json.h"
#include "utils/lsyscache.h"
#include "utils/wait_event.h"

#include "engine.h"

/* One wait event's samples */
typedef struct PbWaitCount
{
	uint32		wait_event_info;	/* key; 0 for none */
	int64		samples;
} PbWaitCount;

/*
 * The server-wide counters, in the order of pb_server_counter_names;
 * PostgreSQL 17 moved the checkpointer's out of pg_stat_bgwriter.  The
 * last ones are Citus's, on a node with Citus 13.1 or later
 * (citus_stat_counters: the statements its executor sent to one shard and
 * to several, the connections it opened to other nodes and reused), and the
 * transactions it prepared on other nodes to commit in two phases: Citus
 * keeps no counter of those, but records each in pg_dist_transaction (a row
 * per node prepared on, until its recovery removes the row), so the rows
 * inserted there count them (tuples inserted, as pg_stat_all_tables shows
 * them); -1 where there are none, and then left out.
 */
static const char *const pb_server_counter_names[] = {
	"wal_records", "wal_fpi", "wal_bytes",
	"xact_commit", "xact_rollback", "blks_read", "blks_hit",
	"tup_inserted", "tup_updated", "tup_deleted",
	"buffers_checkpoint", "buffers_clean", "checkpoints",
	"citus_single_shard_queries", "citus_multi_shard_queries",
	"citus_connections_established", "citus_connections_reused",
	"citus_two_phase_prepares",
};

/* The first of Citus's counters */
#define PB_CITUS_COUNTERS_FIRST	13

/*
 * Citus's counters, and pg_dist_transaction's rows inserted ($2); a row
 * whether or not citus_stat_counters has one yet (it has none before a
 * connection to the database is counted)
 */
#define PB_CITUS_COUNTERS_SQL \
	"SELECT s.query_execution_single_shard, s.query_execution_multi_shard," \
	"       s.connection_establishment_succeeded, s.connection_reused," \
	"       pg_catalog.pg_stat_get_tuples_inserted($2)" \
	"  FROM (SELECT) AS one" \
	"       LEFT JOIN pg_catalog.citus_stat_counters($1) s ON true"

#if PG_VERSION_NUM >= 170000
#define PB_SERVER_COUNTERS_SQL \
	"SELECT w.wal_records, w.wal_fpi, w.wal_bytes::int8," \
	"       d.xact_commit, d.xact_rollback, d.blks_read, d.blks_hit," \
	"       d.tup_inserted, d.tup_updated, d.tup_deleted," \
	"       c.buffers_written, b.buffers_clean, c.num_timed + c.num_requested" \
	"  FROM pg_catalog.pg_stat_wal w, pg_catalog.pg_stat_database d," \
	"       pg_catalog.pg_stat_bgwriter b, pg_catalog.pg_stat_checkpointer c" \
	" WHERE d.datid = $1"
#else
#define PB_SERVER_COUNTERS_SQL \
	"SELECT w.wal_records, w.wal_fpi, w.wal_bytes::int8," \
	"       d.xact_commit, d.xact_rollback, d.blks_read, d.blks_hit," \
	"       d.tup_inserted, d.tup_updated, d.tup_deleted," \
	"       b.buffers_checkpoint, b.buffers_clean," \
	"       b.checkpoints_timed + b.checkpoints_req" \
	"  FROM pg_catalog.pg_stat_wal w, pg_catalog.pg_stat_database d," \
	"       pg_catalog.pg_stat_bgwriter b" \
	" WHERE d.datid = $1"
#endif

/*
 * pb_waits_create
 *		An empty tally of wait events, in the current memory context.
 */
HTAB *
pb_waits_create(void)
{
	HASHCTL		ctl;

	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(uint32);
	ctl.entrysize = sizeof(PbWaitCount);
	ctl.hcxt = CurrentMemoryContext;
	return hash_create("polarbench wait events", 64, &ctl,
					   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
}

/*
 * pb_waits_sample
 *		Count what every client that runs waits for at this instant.
 */
void
pb_waits_sample(HTAB *waits, PbRunShared *run, char *slots)
{
	for (int i = 0; i < run->nclients; i++)
	{
		PbClientSlot *slot = pb_slot(run, slots, i);
		uint32		procno = pg_atomic_read_u32(&slot->pgprocno);
		uint32		info;
		PbWaitCount *count;
		bool		found;

		if (procno == 0 || pg_atomic_read_u32(&slot->status) != PB_SLOT_READY)
			continue;
		info = *((volatile uint32 *) &ProcGlobal->allProcs[procno - 1].wait_event_info);
		count = hash_search(waits, &info, HASH_ENTER, &found);
		if (!found)
			count->samples = 0;
		count->samples++;
	}
}

/*
 * pb_waits_foreach
 *		Call fn with the type and name of every wait event sampled (type
 *		and name "CPU" for none) and its samples.
 */
void
pb_waits_foreach(HTAB *waits, void (*fn) (const char *type, const char *name,
										  int64 samples, void *arg),
				 void *arg)
{
	HASH_SEQ_STATUS seq;
	PbWaitCount *count;

	hash_seq_init(&seq, waits);
	while ((count = hash_seq_search(&seq)) != NULL)
	{
		const char *type = count->wait_event_info == 0 ? "CPU" :
			pgstat_get_wait_event_type(count->wait_event_info);
		const char *name = count->wait_event_info == 0 ? "CPU" :
			pgstat_get_wait_event(count->wait_event_info);

		fn(type ? type : "???", name ? name : "???", count->samples, arg);
	}
}

/*
 * pb_server_counters_read
 *		Read the server-wide counters into counters[PB_SERVER_COUNTERS], with
 *		SPI connected, in a transaction; statistics read afresh.
 */
void
pb_server_counters_read(int64 *counters)
{
	Oid			types[1] = {OIDOID};
	Datum		values[1] = {ObjectIdGetDatum(MyDatabaseId)};

	Oid			citus_types[2] = {OIDOID, OIDOID};
	Datum		citus_values[2];
	Oid			prepared_log;

	pgstat_clear_snapshot();
	if (SPI_execute_with_args(PB_SERVER_COUNTERS_SQL, 1, types, values, NULL, true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not read the server's statistics");
	for (int i = 0; i < PB_CITUS_COUNTERS_FIRST; i++)
	{
		bool		isnull;
		Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc,
									  i + 1, &isnull);

		counters[i] = isnull ? 0 : DatumGetInt64(d);
	}

	/* Citus's, where its extension has them */
	for (int i = PB_CITUS_COUNTERS_FIRST; i < PB_SERVER_COUNTERS; i++)
		counters[i] = -1;
	if (!OidIsValid(get_extension_oid("citus", true)) ||
		!OidIsValid(LookupFuncName(list_make2(makeString("pg_catalog"),
											  makeString("citus_stat_counters")),
								   1, citus_types, true)))
		return;
	prepared_log = get_relname_relid("pg_dist_transaction", PG_CATALOG_NAMESPACE);
	citus_values[0] = ObjectIdGetDatum(MyDatabaseId);
	citus_values[1] = ObjectIdGetDatum(prepared_log);
	if (SPI_execute_with_args(PB_CITUS_COUNTERS_SQL, 2, citus_types, citus_values,
							  NULL, true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not read Citus's statistics");
	for (int i = PB_CITUS_COUNTERS_FIRST; i < PB_SERVER_COUNTERS; i++)
	{
		bool		isnull;
		Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc,
									  i - PB_CITUS_COUNTERS_FIRST + 1, &isnull);

		/* null: no connection to the database counted yet */
		counters[i] = isnull ? 0 : DatumGetInt64(d);
	}
	if (!OidIsValid(prepared_log))
		counters[PB_SERVER_COUNTERS - 1] = -1;
}

/*
 * pb_server_counters_json
 *		What the counters gained from before to after, as a JSON object.
 */
char *
pb_server_counters_json(const int64 *before, const int64 *after)
{
	StringInfoData json;

	StaticAssertStmt(lengthof(pb_server_counter_names) == PB_SERVER_COUNTERS,
					 "one name per server counter");
	initStringInfo(&json);
	appendStringInfoChar(&json, '{');
	for (int i = 0; i < PB_SERVER_COUNTERS; i++)
	{
		/* Citus's, where there are none */
		if (before[i] < 0 || after[i] < 0)
			continue;
		if (i > 0)
			appendStringInfoString(&json, ", ");
		escape_json(&json, pb_server_counter_names[i]);
		appendStringInfo(&json, ": " INT64_FORMAT, after[i] - before[i]);
	}
	appendStringInfoChar(&json, '}');
	return json.data;
}
