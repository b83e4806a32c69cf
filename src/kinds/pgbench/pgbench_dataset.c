/*-------------------------------------------------------------------------
 *
 * pgbench_dataset.c
 *	  The 'pgbench' data set: what pgbench -i (PostgreSQL 15) creates.
 *
 * Tables, columns, fillers, fillfactor clause, partitions, primary and
 * foreign keys follow pgbench's initCreateTables(), createPartitions(),
 * initCreatePKeys() and initCreateFKeys(); the rows are those of its
 * client-side generation: branches and tellers with a NULL filler (pgbench
 * 15 inserts them with INSERT), accounts with an empty filler, which char(84)
 * pads with blanks.  pgbench's final VACUUM is not needed: rows are written
 * frozen into all-visible pages; ANALYZE gathers the statistics.
 *
 * Jobs.  Serially, job 0 creates every table and fills branches and
 * tellers, job 1 fills pgbench_accounts, routing rows to their partition.
 * In a parallel load each job owns whole tables: job 0 creates and fills
 * branches, tellers and history; the next jobs each create, fill and index
 * pgbench_accounts or, when partitioned, one partition as a table of its
 * own (with a CHECK constraint matching its range, so that attaching it
 * needs no scan).  The finishing step creates the partitioned table,
 * attaches the partitions and adds the keys.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/partition.h"
#include "common/hashfn.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"

#include "args.h"
#include "load.h"

/* pgbench's sizes per unit of scale */
#define PGB_NBRANCHES			1
#define PGB_NTELLERS			10
#define PGB_NACCOUNTS			100000

/* from this scale on, aid is a bigint (pgbench's SCALE_32BIT_THRESHOLD) */
#define PGB_SCALE_32BIT_THRESHOLD	20000

#define PGB_MAX_SCALE			1000000
#define PGB_MAX_PARTITIONS		10000

static const char *pgb_tables[] = {
	"pgbench_accounts", "pgbench_branches", "pgbench_history",
	"pgbench_tellers"
};

static void pgb_create_accounts(const PbLoadOptions *opts, bool standalone,
								int part);
static void pgb_create_small(const PbLoadOptions *opts, bool accounts);
static const char *pgb_accounts_columns(const PbLoadOptions *opts);
static int64 pgb_fill_small(const PbLoadOptions *opts, PbProgress *progress);
static int64 pgb_fill_accounts(const PbLoadOptions *opts, int part,
							   PbProgress *progress);
static PbBulkInsert *pgb_accounts_begin(const PbLoadOptions *opts, int part,
										PbProgress *progress, int batch);
static void pgb_partition_bounds(const PbLoadOptions *opts, int part,
								 int64 *lo, int64 *hi);

/*
 * Check the options that concern pgbench.
 */
static void
pgb_check(const PbLoadOptions *opts)
{
	pb_check_range("scale", opts->scale, 1, PGB_MAX_SCALE, NULL);
	pb_check_range("partitions", opts->partitions, 0, PGB_MAX_PARTITIONS, NULL);
	/* as pgbench -i: a method of no partitions is a mistake */
	if (opts->partition_method_given && opts->partitions == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("partition_method requires partitions greater than zero"),
				 errhint("Give partitions => N as well, or leave partition_method out.")));
}

/*
 * The tables pgbench -i drops and creates, in its drop order.
 */
static List *
pgb_table_names(const PbLoadOptions *opts)
{
	List	   *names = NIL;
	int			i;

	for (i = 0; i < lengthof(pgb_tables); i++)
		names = lappend(names, pstrdup(pgb_tables[i]));
	return names;
}

/*
 * Every relation pgbench -i creates: the tables and the partitions of
 * pgbench_accounts, and their keys.
 */
static void
pgb_created_names(const PbLoadOptions *opts, List **tables, List **others)
{
	int			p;

	*tables = pgb_table_names(opts);
	*others = list_make3(pstrdup("pgbench_accounts_pkey"),
						 pstrdup("pgbench_branches_pkey"),
						 pstrdup("pgbench_tellers_pkey"));
	for (p = 1; p <= opts->partitions; p++)
	{
		*tables = lappend(*tables, psprintf("pgbench_accounts_%d", p));
		*others = lappend(*others, psprintf("pgbench_accounts_%d_pkey", p));
	}
}

/*
 * Serially: create everything, then fill accounts.  In parallel: the
 * small tables, then accounts or each of its partitions.
 */
static int
pgb_njobs(const PbLoadOptions *opts, bool parallel)
{
	if (parallel && opts->partitions > 0)
		return 1 + opts->partitions;
	return 2;
}

/*
 * Rows of branches, tellers and accounts.
 */
static int64
pgb_total_rows(const PbLoadOptions *opts)
{
	return (int64) opts->scale *
		(PGB_NBRANCHES + PGB_NTELLERS + PGB_NACCOUNTS);
}

/*
 * Run job number job (see the file header).
 */
static int64
pgb_run_job(const PbLoadOptions *opts, int job, bool parallel,
			PbProgress *progress)
{
	int64		rows;
	char	   *name;

	if (!parallel)
	{
		if (job == 0)
		{
			pgb_create_small(opts, true);
			return pgb_fill_small(opts, progress);
		}
		/* the key is built as the rows go (btree_build.c) */
		pb_loader_sql("alter table %s add primary key (aid)",
					  pb_loader_qualify(opts, "pgbench_accounts"));
		return pgb_fill_accounts(opts, 0, progress);
	}

	if (job == 0)
	{
		pgb_create_small(opts, false);
		rows = pgb_fill_small(opts, progress);
		pb_loader_sql("alter table %s add primary key (bid)",
					  pb_loader_qualify(opts, "pgbench_branches"));
		pb_loader_sql("alter table %s add primary key (tid)",
					  pb_loader_qualify(opts, "pgbench_tellers"));
		pb_loader_sql("analyze %s, %s, %s",
					  pb_loader_qualify(opts, "pgbench_branches"),
					  pb_loader_qualify(opts, "pgbench_tellers"),
					  pb_loader_qualify(opts, "pgbench_history"));
		return rows;
	}

	/* accounts, or its partition number job, and its key */
	pgb_create_accounts(opts, true, opts->partitions > 0 ? job : 0);
	name = opts->partitions > 0 ? psprintf("pgbench_accounts_%d", job) :
		pstrdup("pgbench_accounts");
	pb_loader_sql("alter table %s add primary key (aid)",
				  pb_loader_qualify(opts, name));
	rows = pgb_fill_accounts(opts, opts->partitions > 0 ? job : 0, progress);
	pb_loader_sql("analyze %s", pb_loader_qualify(opts, name));
	return rows;
}

/*
 * Create history, tellers and branches, in pgbench's order; with accounts
 * (serial load) also pgbench_accounts, in its place between them.
 */
static void
pgb_create_small(const PbLoadOptions *opts, bool accounts)
{
	pb_loader_sql("create%s table %s(tid int,bid int,aid %s,delta int,mtime timestamp,filler char(22))",
				  opts->unlogged ? " unlogged" : "",
				  pb_loader_qualify(opts, "pgbench_history"),
				  opts->scale >= PGB_SCALE_32BIT_THRESHOLD ? "bigint" : "   int");
	pb_loader_sql("create%s table %s(tid int not null,bid int,tbalance int,filler char(84))%s",
				  opts->unlogged ? " unlogged" : "",
				  pb_loader_qualify(opts, "pgbench_tellers"),
				  pb_loader_with(opts, true));
	if (accounts)
		pgb_create_accounts(opts, false, 0);
	pb_loader_sql("create%s table %s(bid int not null,bbalance int,filler char(88))%s",
				  opts->unlogged ? " unlogged" : "",
				  pb_loader_qualify(opts, "pgbench_branches"),
				  pb_loader_with(opts, true));
}

/*
 * pgbench_accounts' columns, as pgbench writes them: aid is a bigint from
 * scale 20000 on.
 */
static const char *
pgb_accounts_columns(const PbLoadOptions *opts)
{
	return opts->scale >= PGB_SCALE_32BIT_THRESHOLD ?
		"aid bigint not null,bid int,abalance int,filler char(84)" :
		"aid    int not null,bid int,abalance int,filler char(84)";
}

/*
 * Create pgbench_accounts as pgbench does, with its partitions.  With
 * standalone (parallel load), create instead the plain table
 * pgbench_accounts, or when partitioned the table that becomes partition
 * part, constrained to its range.
 */
static void
pgb_create_accounts(const PbLoadOptions *opts, bool standalone, int part)
{
	const char *cols = pgb_accounts_columns(opts);
	const char *unlogged = opts->unlogged ? " unlogged" : "";
	int			p;

	if (standalone && opts->partitions > 0)
	{
		int64		lo,
					hi;
		char	   *check = "";

		/*
		 * pg_catalog's operators by name: the caller's search_path could
		 * bind another's, which the constraint would keep
		 */
		pgb_partition_bounds(opts, part, &lo, &hi);
		if (opts->partition_method == PB_PART_RANGE && (lo > 0 || hi > 0))
		{
			if (lo > 0 && hi > 0)
				check = psprintf(",constraint polarbench_range check (aid operator(pg_catalog.>=) " INT64_FORMAT " and aid operator(pg_catalog.<) " INT64_FORMAT ")", lo, hi);
			else if (lo > 0)
				check = psprintf(",constraint polarbench_range check (aid operator(pg_catalog.>=) " INT64_FORMAT ")", lo);
			else
				check = psprintf(",constraint polarbench_range check (aid operator(pg_catalog.<) " INT64_FORMAT ")", hi);
		}
		pb_loader_sql("create%s table %s(%s%s)%s", unlogged,
					  pb_loader_qualify(opts, psprintf("pgbench_accounts_%d", part)),
					  cols, check, pb_loader_with(opts, true));
		return;
	}

	if (opts->partitions == 0)
	{
		pb_loader_sql("create%s table %s(%s)%s", unlogged,
					  pb_loader_qualify(opts, "pgbench_accounts"), cols,
					  pb_loader_with(opts, true));
		return;
	}

	pb_loader_sql("create%s table %s(%s) partition by %s (aid)", unlogged,
				  pb_loader_qualify(opts, "pgbench_accounts"), cols,
				  opts->partition_method == PB_PART_RANGE ? "range" : "hash");
	for (p = 1; p <= opts->partitions; p++)
	{
		char	   *bound;

		if (opts->partition_method == PB_PART_RANGE)
		{
			int64		lo,
						hi;

			pgb_partition_bounds(opts, p, &lo, &hi);
			bound = psprintf("for values from (%s) to (%s)",
							 lo > 0 ? psprintf(INT64_FORMAT, lo) : "minvalue",
							 hi > 0 ? psprintf(INT64_FORMAT, hi) : "maxvalue");
		}
		else
			bound = psprintf("for values with (modulus %d, remainder %d)",
							 opts->partitions, p - 1);
		pb_loader_sql("create%s table %s\n  partition of %s\n  %s%s",
					  unlogged,
					  pb_loader_qualify(opts, psprintf("pgbench_accounts_%d", p)),
					  pb_loader_qualify(opts, "pgbench_accounts"),
					  bound, pb_loader_with(opts, true));
	}
}

/*
 * pgbench's range bounds of partition part: [lo, hi), 0 for minvalue or
 * maxvalue.  Hash partitions have none (both 0).
 */
static void
pgb_partition_bounds(const PbLoadOptions *opts, int part, int64 *lo,
					 int64 *hi)
{
	int64		part_size = ((int64) PGB_NACCOUNTS * opts->scale +
							 opts->partitions - 1) / opts->partitions;

	*lo = *hi = 0;
	if (opts->partition_method != PB_PART_RANGE)
		return;
	if (part > 1)
		*lo = (part - 1) * part_size + 1;
	if (part < opts->partitions)
		*hi = part * part_size + 1;
}

/*
 * Fill branches and tellers.
 */
static int64
pgb_fill_small(const PbLoadOptions *opts, PbProgress *progress)
{
	PbBulkInsert *bulk;
	Oid			relid;
	int64		rows = 0;
	int			i;

	relid = pb_loader_relid(opts, "pgbench_branches");
	pb_progress_table_begin(progress, relid);
	bulk = pb_bulk_begin(relid, progress, PB_BULK_BATCH, true, InvalidOid);
	for (i = 0; i < PGB_NBRANCHES * opts->scale; i++)
	{
		TupleTableSlot *slot = pb_bulk_next_slot(bulk);

		slot->tts_values[0] = Int32GetDatum(i + 1);
		slot->tts_isnull[0] = false;
		slot->tts_values[1] = Int32GetDatum(0);
		slot->tts_isnull[1] = false;
		slot->tts_isnull[2] = true;
		pb_bulk_store(bulk);
	}
	rows += pb_bulk_end(bulk);
	pb_progress_table_end(progress);

	relid = pb_loader_relid(opts, "pgbench_tellers");
	pb_progress_table_begin(progress, relid);
	bulk = pb_bulk_begin(relid, progress, PB_BULK_BATCH, true, InvalidOid);
	for (i = 0; i < PGB_NTELLERS * opts->scale; i++)
	{
		TupleTableSlot *slot = pb_bulk_next_slot(bulk);

		slot->tts_values[0] = Int32GetDatum(i + 1);
		slot->tts_isnull[0] = false;
		slot->tts_values[1] = Int32GetDatum(i / PGB_NTELLERS + 1);
		slot->tts_isnull[1] = false;
		slot->tts_values[2] = Int32GetDatum(0);
		slot->tts_isnull[2] = false;
		slot->tts_isnull[3] = true;
		pb_bulk_store(bulk);
	}
	rows += pb_bulk_end(bulk);
	pb_progress_table_end(progress);
	return rows;
}

/*
 * Hash partition (0-based remainder) of aid, as PostgreSQL's hash
 * partitioning computes it for a single int4 or int8 key.
 */
static int
pgb_hash_remainder(int64 aid, bool bigaid, int partitions)
{
	Datum		h;

	if (bigaid)
		h = DirectFunctionCall2(hashint8extended, Int64GetDatum(aid),
								UInt64GetDatum(HASH_PARTITION_SEED));
	else
		h = DirectFunctionCall2(hashint4extended, Int32GetDatum((int32) aid),
								UInt64GetDatum(HASH_PARTITION_SEED));
	return (int) (hash_combine64(0, DatumGetUInt64(h)) % partitions);
}

/*
 * Start inserting into pgbench_accounts (part 0) or its partition part,
 * batch rows at a time, building its primary key as rows go.
 */
static PbBulkInsert *
pgb_accounts_begin(const PbLoadOptions *opts, int part, PbProgress *progress,
				   int batch)
{
	Oid			relid = pb_loader_relid(opts, part > 0 ?
										psprintf("pgbench_accounts_%d", part) :
										"pgbench_accounts");

	return pb_bulk_begin(relid, progress, batch, true,
						 pb_loader_primary_key(relid));
}

/*
 * Fill pgbench_accounts.  part 0: all of it, to its partitions if any;
 * otherwise only the rows of partition part, into the table of that name.
 * Each table filled has its primary key already, empty: rows come in aid
 * order, so the key is built as they are written.
 */
static int64
pgb_fill_accounts(const PbLoadOptions *opts, int part, PbProgress *progress)
{
	bool		bigaid = opts->scale >= PGB_SCALE_32BIT_THRESHOLD;
	int64		naccounts = (int64) PGB_NACCOUNTS * opts->scale;
	int			ntargets = (part == 0 && opts->partitions > 0) ?
	opts->partitions : 1;
	bool		hash = opts->partitions > 0 &&
	opts->partition_method == PB_PART_HASH;
	PbBulkInsert **bulks = palloc0(sizeof(PbBulkInsert *) * ntargets);
	Datum		filler = PointerGetDatum(pb_loader_bpchar_fill(84, ' '));
	int64		part_size = 1;
	int64		first = 1;
	int64		last = naccounts;
	int64		rows = 0;
	int64		aid;
	int			t;

	pb_progress_table_begin(progress,
							pb_loader_relid(opts, part > 0 ?
											psprintf("pgbench_accounts_%d", part) :
											"pgbench_accounts"));

	if (opts->partitions > 0)
		part_size = (naccounts + opts->partitions - 1) / opts->partitions;

	if (part > 0)
	{
		/* one partition, made a table of its own */
		bulks[0] = pgb_accounts_begin(opts, part, progress, PB_BULK_BATCH);
		if (!hash)
		{
			first = (part - 1) * part_size + 1;
			last = Min(naccounts, part * part_size);
		}
	}
	else if (opts->partitions == 0)
		bulks[0] = pgb_accounts_begin(opts, 0, progress, PB_BULK_BATCH);
	else if (hash)
	{
		/* every partition takes rows all along: share the batch memory */
		for (t = 0; t < ntargets; t++)
			bulks[t] = pgb_accounts_begin(opts, t + 1, progress,
										  Max(16, PB_BULK_BATCH / ntargets));
	}

	for (aid = first; aid <= last; aid++)
	{
		PbBulkInsert *bulk;
		TupleTableSlot *slot;

		if (hash)
		{
			int			r = pgb_hash_remainder(aid, bigaid, opts->partitions);

			if (part > 0)
			{
				if (r != part - 1)
					continue;
				bulk = bulks[0];
			}
			else
				bulk = bulks[r];
		}
		else if (part == 0 && opts->partitions > 0)
		{
			/* range partitions are filled one after the other */
			t = (int) ((aid - 1) / part_size);
			if (bulks[t] == NULL)
			{
				if (t > 0 && bulks[t - 1] != NULL)
				{
					rows += pb_bulk_end(bulks[t - 1]);
					bulks[t - 1] = NULL;
				}
				bulks[t] = pgb_accounts_begin(opts, t + 1, progress,
											  PB_BULK_BATCH);
			}
			bulk = bulks[t];
		}
		else
			bulk = bulks[0];

		/* on a Citus node, the rows of other nodes' shards are not made */
		if (pb_bulk_row_elsewhere(bulk, 1, bigaid ? Int64GetDatum(aid) :
								  Int32GetDatum((int32) aid)))
			continue;
		slot = pb_bulk_next_slot(bulk);
		slot->tts_values[0] = bigaid ? Int64GetDatum(aid) :
			Int32GetDatum((int32) aid);
		slot->tts_isnull[0] = false;
		slot->tts_values[1] = Int32GetDatum((int32) ((aid - 1) / PGB_NACCOUNTS + 1));
		slot->tts_isnull[1] = false;
		slot->tts_values[2] = Int32GetDatum(0);
		slot->tts_isnull[2] = false;
		slot->tts_values[3] = filler;
		slot->tts_isnull[3] = false;
		pb_bulk_store(bulk);
	}

	for (t = 0; t < ntargets; t++)
		if (bulks[t] != NULL)
			rows += pb_bulk_end(bulks[t]);
	pb_progress_table_end(progress);
	return rows;
}

/*
 * Keys and statistics, once every job is done.  In a parallel load, also
 * build the partitioned pgbench_accounts from its partitions.
 */
static void
pgb_finish(const PbLoadOptions *opts, bool parallel)
{
	const char *accounts = pb_loader_qualify(opts, "pgbench_accounts");
	int			p;

	if (!parallel)
	{
		pb_loader_sql("alter table %s add primary key (bid)",
					  pb_loader_qualify(opts, "pgbench_branches"));
		pb_loader_sql("alter table %s add primary key (tid)",
					  pb_loader_qualify(opts, "pgbench_tellers"));
		/* accounts got its key before its rows (pgb_run_job()) */
	}
	else if (opts->partitions > 0)
	{
		pb_loader_sql("create%s table %s(%s) partition by %s (aid)",
					  opts->unlogged ? " unlogged" : "", accounts,
					  pgb_accounts_columns(opts),
					  opts->partition_method == PB_PART_RANGE ? "range" : "hash");
		for (p = 1; p <= opts->partitions; p++)
		{
			char	   *part = pb_loader_qualify(opts,
												 psprintf("pgbench_accounts_%d", p));
			int64		lo,
						hi;

			pgb_partition_bounds(opts, p, &lo, &hi);
			if (opts->partition_method == PB_PART_RANGE)
				pb_loader_sql("alter table %s attach partition %s for values from (%s) to (%s)",
							  accounts, part,
							  lo > 0 ? psprintf(INT64_FORMAT, lo) : "minvalue",
							  hi > 0 ? psprintf(INT64_FORMAT, hi) : "maxvalue");
			else
				pb_loader_sql("alter table %s attach partition %s for values with (modulus %d, remainder %d)",
							  accounts, part, opts->partitions, p - 1);
			if (lo > 0 || hi > 0)
				pb_loader_sql("alter table %s drop constraint polarbench_range",
							  part);
		}
		/* finds and attaches the partitions' primary keys */
		pb_loader_sql("alter table %s add primary key (aid)", accounts);
	}

	if (opts->foreign_keys)
	{
		pb_loader_sql("alter table %s add constraint pgbench_tellers_bid_fkey foreign key (bid) references %s",
					  pb_loader_qualify(opts, "pgbench_tellers"),
					  pb_loader_qualify(opts, "pgbench_branches"));
		pb_loader_sql("alter table %s add constraint pgbench_accounts_bid_fkey foreign key (bid) references %s",
					  accounts, pb_loader_qualify(opts, "pgbench_branches"));
		pb_loader_sql("alter table %s add constraint pgbench_history_bid_fkey foreign key (bid) references %s",
					  pb_loader_qualify(opts, "pgbench_history"),
					  pb_loader_qualify(opts, "pgbench_branches"));
		pb_loader_sql("alter table %s add constraint pgbench_history_tid_fkey foreign key (tid) references %s",
					  pb_loader_qualify(opts, "pgbench_history"),
					  pb_loader_qualify(opts, "pgbench_tellers"));
		pb_loader_sql("alter table %s add constraint pgbench_history_aid_fkey foreign key (aid) references %s",
					  pb_loader_qualify(opts, "pgbench_history"), accounts);
	}

	if (!parallel)
		pb_loader_sql("analyze %s, %s, %s, %s",
					  pb_loader_qualify(opts, "pgbench_branches"),
					  pb_loader_qualify(opts, "pgbench_tellers"),
					  accounts,
					  pb_loader_qualify(opts, "pgbench_history"));
	else if (opts->partitions > 0)
		pb_loader_sql("analyze %s", accounts);
}

/*
 * On a Citus cluster: pgbench_accounts and pgbench_history distributed by
 * aid and colocated, as Citus's pgbench guide distributes them;
 * pgbench_branches and pgbench_tellers by their keys, which the TPC-B-like
 * updates name (reference tables would make each of those updates write on
 * every node), colocated with accounts while aid is an int as bid and tid
 * are.
 */
static List *
pgb_distribution(const PbLoadOptions *opts)
{
	const char *with = opts->scale >= PGB_SCALE_32BIT_THRESHOLD ? NULL :
		"pgbench_accounts";

	return list_make4(pb_distributed_table("pgbench_accounts", "aid", NULL),
					  pb_distributed_table("pgbench_history", "aid",
										   "pgbench_accounts"),
					  pb_distributed_table("pgbench_branches", "bid", with),
					  pb_distributed_table("pgbench_tellers", "tid",
										   "pgbench_branches"));
}

/*
 * On every node of a Citus cluster, its tables there with their keys: the
 * rows of every table, in key order, each to its shard (shard_route.c).
 */
static int64
pgb_fill_shards(const PbLoadOptions *opts, PbProgress *progress)
{
	Assert(opts->partitions == 0);
	return pgb_fill_small(opts, progress) +
		pgb_fill_accounts(opts, 0, progress);
}

/* The arguments of polarbench_init() it reads of its own */
static const PbDatasetOption pgb_options[] = {
	{"scale", "scale factor: 100000 accounts, 10 tellers and 1 branch each (-s)"},
	{"partitions", "partitions of pgbench_accounts, 0 for none (--partitions)"},
	{"partition_method", "range or hash (--partition-method)"},
	{"foreign_keys", "foreign keys between the tables (--foreign-keys)"},
	{NULL, NULL}
};

const PbDataset pb_dataset_pgbench = {
	.name = "pgbench",
	.description = "pgbench's tables, as pgbench -i makes them: pgbench_accounts, _branches, _tellers and _history",
	.options = pgb_options,
	.compressible = true,			/* blank filler: a third of the WAL */
	.check = pgb_check,
	.table_names = pgb_table_names,
	.created_names = pgb_created_names,
	.njobs = pgb_njobs,
	.total_rows = pgb_total_rows,
	.run_job = pgb_run_job,
	.finish = pgb_finish,
	.distribution = pgb_distribution,
	.fill_shards = pgb_fill_shards
};
