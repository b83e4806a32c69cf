/*-------------------------------------------------------------------------
 *
 * ycsb_dataset.c
 *	  The 'ycsb' data set: usertable as YCSB's JDBC binding expects it.
 *
 * usertable(YCSB_KEY VARCHAR(255) PRIMARY KEY, FIELD0 .. FIELDn-1 TEXT),
 * one row per record number 0..records-1.  Keys are built as YCSB's
 * CoreWorkload.buildKeyName() does with its default (hashed) insert order:
 * "user" followed by the decimal FNV-1a 64-bit hash of the record number,
 * computed with Java's wrapping long arithmetic and made non-negative with
 * Math.abs() (which leaves Long.MIN_VALUE negative).  Field values are
 * field_length random printable ASCII characters, each record's from a
 * generator seeded by its number, so that every load makes the same
 * records.  The single table is one
 * job, so a parallel load of this data set runs in one worker.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/pg_prng.h"
#include "executor/tuptable.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"

#include "args.h"
#include "load.h"
#include "ycsb.h"

#define YCSB_MAX_RECORDS		INT64CONST(1000000000000)
#define YCSB_MAX_FIELDS			1000
#define YCSB_MAX_FIELD_LENGTH	1000000
#define YCSB_MAX_ROW_BYTES		(64 * 1024 * 1024)
#define YCSB_BATCH_BYTES		(8 * 1024 * 1024)

/*
 * Check the options that concern YCSB.
 */
static void
ycsb_check(const PbLoadOptions *opts)
{
	pb_check_range("records", opts->records, 0, YCSB_MAX_RECORDS,
				   "records => 0 makes an empty usertable, for the ycsb-load workload.");
	pb_check_range("fields", opts->fields, 1, YCSB_MAX_FIELDS, NULL);
	pb_check_range("field_length", opts->field_length, 1,
				   YCSB_MAX_FIELD_LENGTH, NULL);
	if ((int64) opts->fields * opts->field_length > YCSB_MAX_ROW_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("rows of %d fields of %d characters are too large",
						opts->fields, opts->field_length),
				 errhint("The product of fields and field_length must not exceed %d.",
						 YCSB_MAX_ROW_BYTES)));
}

/*
 * usertable.
 */
static List *
ycsb_table_names(const PbLoadOptions *opts)
{
	return list_make1(pstrdup("usertable"));
}

/*
 * One table, one job.
 */
static int
ycsb_njobs(const PbLoadOptions *opts, bool parallel)
{
	return 1;
}

/*
 * One row per record.
 */
static int64
ycsb_total_rows(const PbLoadOptions *opts)
{
	return opts->records;
}

/*
 * Fill usertable, there, with its records in record number order.  Each
 * record's fields come from a generator of its own, seeded by its number:
 * a record is the same at every load, whichever node of a Citus cluster
 * makes it (the records of other nodes' shards are not made).  Returns the
 * rows inserted.
 */
static int64
ycsb_fill_table(const PbLoadOptions *opts, PbProgress *progress)
{
	Oid			relid = pb_loader_relid(opts, "usertable");
	PbBulkInsert *bulk;
	text	   *key = palloc(VARHDRSZ + 32);
	int64		rows;
	int64		keynum;

	pb_progress_table_begin(progress, relid);
	/* keep a batch's values within YCSB_BATCH_BYTES whatever the row size */
	bulk = pb_bulk_begin(relid, progress,
						 (int) Max(1, Min(PB_BULK_BATCH,
										  YCSB_BATCH_BYTES /
										  ((int64) opts->fields * opts->field_length))),
						 false, InvalidOid);
	for (keynum = 0; keynum < opts->records; keynum++)
	{
		TupleTableSlot *slot;
		pg_prng_state rng;
		int			keylen;
		text	   *row_key;

		keylen = pb_ycsb_key_name(VARDATA(key), 32, keynum, false, 1);
		SET_VARSIZE(key, VARHDRSZ + keylen);
		if (pb_bulk_row_elsewhere(bulk, 1, PointerGetDatum(key)))
			continue;
		slot = pb_bulk_next_slot(bulk);
		row_key = MemoryContextAlloc(bulk->batch_cxt, VARHDRSZ + keylen);
		memcpy(row_key, key, VARHDRSZ + keylen);
		slot->tts_values[0] = PointerGetDatum(row_key);
		slot->tts_isnull[0] = false;

		pg_prng_seed(&rng, (uint64) keynum);
		for (int f = 0; f < opts->fields; f++)
		{
			text	   *val = MemoryContextAlloc(bulk->batch_cxt,
												 VARHDRSZ + opts->field_length);
			char	   *p = VARDATA(val);
			int			i = 0;

			SET_VARSIZE(val, VARHDRSZ + opts->field_length);
			while (i < opts->field_length)
			{
				uint64		r = pg_prng_uint64(&rng);
				int			k;

				/* 7 characters of 95 printable ones per 64 random bits */
				for (k = 0; k < 7 && i < opts->field_length; k++, i++)
				{
					p[i] = ' ' + (char) (r % 95);
					r /= 95;
				}
			}
			slot->tts_values[f + 1] = PointerGetDatum(val);
			slot->tts_isnull[f + 1] = false;
		}
		pb_bulk_store(bulk);
	}
	rows = pb_bulk_end(bulk);
	pb_progress_table_end(progress);
	return rows;
}

/*
 * Create, fill and index usertable.
 */
static int64
ycsb_run_job(const PbLoadOptions *opts, int job, bool parallel,
			 PbProgress *progress)
{
	char	   *qname = pb_loader_qualify(opts, "usertable");
	StringInfoData ddl;
	int64		rows;

	initStringInfo(&ddl);
	appendStringInfo(&ddl, "CREATE%s TABLE %s (YCSB_KEY VARCHAR(255)",
					 opts->unlogged ? " UNLOGGED" : "", qname);
	for (int f = 0; f < opts->fields; f++)
		appendStringInfo(&ddl, ", FIELD%d TEXT", f);
	appendStringInfo(&ddl, ")%s", pb_loader_with(opts, false));
	pb_loader_sql("%s", ddl.data);

	rows = ycsb_fill_table(opts, progress);

	pb_loader_sql("ALTER TABLE %s ADD PRIMARY KEY (YCSB_KEY)", qname);
	pb_loader_sql("ANALYZE %s", qname);
	return rows;
}

/*
 * Nothing to tie together.
 */
static void
ycsb_finish(const PbLoadOptions *opts, bool parallel)
{
}

/*
 * usertable and its key.
 */
static void
ycsb_created_names(const PbLoadOptions *opts, List **tables, List **others)
{
	*tables = list_make1(pstrdup("usertable"));
	*others = list_make1(pstrdup("usertable_pkey"));
}

/*
 * On a Citus cluster: usertable distributed by its key, which every
 * operation but a scan names.
 */
static List *
ycsb_distribution(const PbLoadOptions *opts)
{
	return list_make1(pb_distributed_table("usertable", "ycsb_key", NULL));
}

/*
 * On every node of a Citus cluster, usertable's shards there with their
 * keys: the records of its shards (shard_route.c), each shard's key built
 * once its rows are in (bulk_insert.c).
 */
static int64
ycsb_fill_shards(const PbLoadOptions *opts, PbProgress *progress)
{
	return ycsb_fill_table(opts, progress);
}

/* The arguments of polarbench_init() it reads of its own */
static const PbDatasetOption ycsb_options[] = {
	{"records", "rows of usertable (recordcount)"},
	{"fields", "fields of each row (fieldcount)"},
	{"field_length", "characters of each field (fieldlength)"},
	{NULL, NULL}
};

const PbDataset pb_dataset_ycsb = {
	.name = "ycsb",
	.description = "YCSB's usertable, as its load phase fills it",
	.options = ycsb_options,
	.compressible = false,			/* random characters */
	.check = ycsb_check,
	.table_names = ycsb_table_names,
	.created_names = ycsb_created_names,
	.njobs = ycsb_njobs,
	.total_rows = ycsb_total_rows,
	.run_job = ycsb_run_job,
	.finish = ycsb_finish,
	.distribution = ycsb_distribution,
	.fill_shards = ycsb_fill_shards
};
