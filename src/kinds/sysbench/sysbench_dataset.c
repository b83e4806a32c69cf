/*-------------------------------------------------------------------------
 *
 * sysbench_dataset.c
 *	  The 'sysbench' data set: sbtest1..sbtestN as sysbench 1.0.20's
 *	  oltp_common.lua prepare makes them with the pgsql driver.
 *
 * Each table is id SERIAL, k INTEGER DEFAULT '0' NOT NULL, c CHAR(120)
 * DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, with PRIMARY KEY
 * (id) and the secondary index k_N on k.  Rows are ids 1..table_size, k
 * uniform in 1..table_size, c and pad filled from sysbench's templates of
 * 11-digit groups separated by dashes (10 groups in c, 5 in pad, blank
 * padded to the column's length), each row's from a generator seeded by
 * its table and id, so that every load makes the same rows (sysbench's own
 * differ with its --rand-seed).  sysbench inserts through the id
 * sequence, so the sequence is left where it would be: last value
 * table_size, called.  Like sysbench, no ANALYZE: autovacuum sees to
 * statistics (and rows are frozen already).  One job per table: tables are independent, so a
 * parallel load gives each worker whole tables.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/pg_prng.h"
#include "executor/tuptable.h"
#include "utils/builtins.h"

#include "args.h"
#include "load.h"

#define SB_MAX_TABLES			10000
#define SB_C_LEN				120
#define SB_PAD_LEN				60
#define SB_C_GROUPS				10
#define SB_PAD_GROUPS			5

/*
 * Check the options that concern sysbench.
 */
static void
sb_check(const PbLoadOptions *opts)
{
	pb_check_range("tables", opts->tables, 1, SB_MAX_TABLES, NULL);
	pb_check_range("table_size", opts->table_size, 0, PG_INT32_MAX, NULL);
}

/*
 * sbtest1 .. sbtestN.
 */
static List *
sb_table_names(const PbLoadOptions *opts)
{
	List	   *names = NIL;
	int			i;

	for (i = 1; i <= opts->tables; i++)
		names = lappend(names, psprintf("sbtest%d", i));
	return names;
}

/*
 * Every relation sysbench's prepare creates: the tables, then their keys,
 * k_N indexes and id sequences.
 */
static void
sb_created_names(const PbLoadOptions *opts, List **tables, List **others)
{
	int			i;

	*tables = sb_table_names(opts);
	*others = NIL;
	for (i = 1; i <= opts->tables; i++)
	{
		*others = lappend(*others, psprintf("sbtest%d_pkey", i));
		*others = lappend(*others, psprintf("sbtest%d_id_seq", i));
		*others = lappend(*others, psprintf("k_%d", i));
	}
}

/*
 * One job per table.
 */
static int
sb_njobs(const PbLoadOptions *opts, bool parallel)
{
	return opts->tables;
}

/*
 * Rows over all tables.
 */
static int64
sb_total_rows(const PbLoadOptions *opts)
{
	return (int64) opts->tables * opts->table_size;
}

/*
 * Write into dst (len bytes, blank padded) groups of 11 random digits
 * separated by dashes, as sysbench.rand.string() fills its '#' templates.
 */
static void
sb_fill_groups(char *dst, int len, int groups, pg_prng_state *rng)
{
	uint64		r = 0;
	int			left = 0;
	int			pos = 0;
	int			g,
				d;

	for (g = 0; g < groups; g++)
	{
		if (g > 0)
			dst[pos++] = '-';
		for (d = 0; d < 11; d++)
		{
			/* 18 uniform digits from a draw below 18 * 10^18 */
			while (left == 0)
			{
				r = pg_prng_uint64(rng);
				if (r < UINT64CONST(18000000000000000000))
				{
					r %= UINT64CONST(1000000000000000000);
					left = 18;
				}
			}
			dst[pos++] = '0' + (char) (r % 10);
			r /= 10;
			left--;
		}
	}
	memset(dst + pos, ' ', len - pos);
}

/*
 * Fill table sbtestN, there with its primary key, with its rows in id
 * order, the key built as they go.  Each row's random values come from a
 * generator of its own, seeded by the table and the id: a row is the same
 * at every load, whichever node of a Citus cluster makes it (the rows of
 * other nodes' shards are not made).  Returns the rows inserted.
 */
static int64
sb_fill_table(const PbLoadOptions *opts, int n, PbProgress *progress)
{
	Oid			relid = pb_loader_relid(opts, psprintf("sbtest%d", n));
	PbBulkInsert *bulk;
	int64		rows;
	int			id;

	pb_progress_table_begin(progress, relid);
	bulk = pb_bulk_begin(relid, progress, PB_BULK_BATCH, true,
						 pb_loader_primary_key(relid));
	for (id = 1; id <= opts->table_size; id++)
	{
		TupleTableSlot *slot;
		char	   *c;
		char	   *pad;
		pg_prng_state rng;

		if (pb_bulk_row_elsewhere(bulk, 1, Int32GetDatum(id)))
		{
			if (id == PG_INT32_MAX)
				break;
			continue;
		}
		pg_prng_seed(&rng, ((uint64) n << 32) | (uint32) id);
		slot = pb_bulk_next_slot(bulk);
		c = MemoryContextAlloc(bulk->batch_cxt, VARHDRSZ + SB_C_LEN);
		pad = MemoryContextAlloc(bulk->batch_cxt, VARHDRSZ + SB_PAD_LEN);
		SET_VARSIZE(c, VARHDRSZ + SB_C_LEN);
		sb_fill_groups(VARDATA(c), SB_C_LEN, SB_C_GROUPS, &rng);
		SET_VARSIZE(pad, VARHDRSZ + SB_PAD_LEN);
		sb_fill_groups(VARDATA(pad), SB_PAD_LEN, SB_PAD_GROUPS, &rng);

		slot->tts_values[0] = Int32GetDatum(id);
		slot->tts_isnull[0] = false;
		slot->tts_values[1] = Int32GetDatum((int32)
											pg_prng_uint64_range(&rng, 1,
																 opts->table_size));
		slot->tts_isnull[1] = false;
		slot->tts_values[2] = PointerGetDatum(c);
		slot->tts_isnull[2] = false;
		slot->tts_values[3] = PointerGetDatum(pad);
		slot->tts_isnull[3] = false;
		pb_bulk_store(bulk);
		if (id == PG_INT32_MAX)
			break;
	}
	rows = pb_bulk_end(bulk);
	pb_progress_table_end(progress);
	return rows;
}

/*
 * Create, fill and index table number job + 1.
 */
static int64
sb_run_job(const PbLoadOptions *opts, int job, bool parallel,
		   PbProgress *progress)
{
	int			n = job + 1;
	char	   *qname = pb_loader_qualify(opts, psprintf("sbtest%d", n));
	int64		rows;

	pb_loader_sql("CREATE%s TABLE %s(\n"
				  "  id SERIAL,\n"
				  "  k INTEGER DEFAULT '0' NOT NULL,\n"
				  "  c CHAR(120) DEFAULT '' NOT NULL,\n"
				  "  pad CHAR(60) DEFAULT '' NOT NULL\n"
				  ")%s",
				  opts->unlogged ? " UNLOGGED" : "", qname,
				  pb_loader_with(opts, false));

	/*
	 * Rows come in id order: the key is built as they are written.  (Added
	 * before the COPY progress report starts, which the index build would
	 * end.)
	 */
	pb_loader_sql("ALTER TABLE %s ADD PRIMARY KEY (id)", qname);
	rows = sb_fill_table(opts, n, progress);

	pb_loader_sql("CREATE INDEX %s ON %s(k)",
				  quote_identifier(pb_loader_name(opts, psprintf("k_%d", n))),
				  qname);
	if (opts->table_size > 0)
		pb_loader_sql("SELECT pg_catalog.setval(pg_catalog.pg_get_serial_sequence(%s, 'id'), %d)",
					  quote_literal_cstr(qname), opts->table_size);
	/* sysbench prepare does not analyze: autovacuum will */
	return rows;
}

/*
 * Nothing ties sysbench's tables together.
 */
static void
sb_finish(const PbLoadOptions *opts, bool parallel)
{
}

/*
 * On a Citus cluster: each table distributed by its key, id, which every
 * event's statements name, all colocated with sbtest1.
 */
static List *
sb_distribution(const PbLoadOptions *opts)
{
	List	   *tables = NIL;
	ListCell   *lc;

	foreach(lc, sb_table_names(opts))
		tables = lappend(tables,
						 pb_distributed_table(lfirst(lc), "id",
											  tables == NIL ? NULL : "sbtest1"));
	return tables;
}

/*
 * On every node of a Citus cluster, its tables there with their keys and
 * indexes: the rows of every table, each to its shard (shard_route.c);
 * each shard's k_N index is built once its rows are in (bulk_insert.c).
 */
static int64
sb_fill_shards(const PbLoadOptions *opts, PbProgress *progress)
{
	int64		rows = 0;

	for (int n = 1; n <= opts->tables; n++)
		rows += sb_fill_table(opts, n, progress);
	return rows;
}

/* The arguments of polarbench_init() it reads of its own */
static const PbDatasetOption sb_options[] = {
	{"tables", "number of tables (--tables)"},
	{"table_size", "rows of each table (--table-size)"},
	{NULL, NULL}
};

const PbDataset pb_dataset_sysbench = {
	.name = "sysbench",
	.description = "sysbench's OLTP tables, as its prepare makes them: sbtest1 .. sbtestN",
	.options = sb_options,
	.compressible = false,			/* random digits: a fifth less WAL */
	.check = sb_check,
	.table_names = sb_table_names,
	.created_names = sb_created_names,
	.njobs = sb_njobs,
	.total_rows = sb_total_rows,
	.run_job = sb_run_job,
	.finish = sb_finish,
	.distribution = sb_distribution,
	.fill_shards = sb_fill_shards
};
