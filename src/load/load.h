/*-------------------------------------------------------------------------
 *
 * load.h
 *	  The loader's machinery behind polarbench_init(): the resolved
 *	  options, the interface of a data set (PbDataset, which each kind
 *	  folder defines for its own and lists in its descriptor), bulk
 *	  insertion, progress reporting, and the staging of a load's tables.
 *
 * A data set is loaded as a list of jobs.  A job creates its tables (or
 * fills tables an earlier job of the same transaction created), fills them
 * with rows generated in C (bulk_insert.c: full frozen pages written past
 * shared buffers for small rows, table_multi_insert() otherwise) and, when
 * it owns whole tables, builds their indexes.  A serial load runs every
 * job in the caller's transaction; a parallel load hands the jobs out to
 * background workers, each running its jobs in one transaction of its own
 * (see functions/init_parallel.c for the protocol).  A finishing step, run
 * by the caller, ties the jobs' tables together (primary keys, foreign
 * keys, partitions).
 *
 * The machinery's files, in layers, each calling only those below it:
 *
 *	  page_write.c, load_sql.c, load_progress.c,	pages, SQL and names,
 *	  load_wal.c									progress, WAL
 *	  btree_build.c, page_writers.c					index built as rows go,
 *													pages written by others
 *	  bulk_insert.c									rows into a table
 *	  load_staging.c								tables replaced (or rows
 *													added), all or nothing
 *
 * Above them: the kinds' data sets (src/kinds/<kind>/), found through the
 * registry (kinds/registry.h), and polarbench_init(), its parallel load
 * and polarbench_datasets (functions/init.c, init_parallel.c,
 * dataset_list.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_LOAD_H
#define PB_LOAD_H

#include "postgres.h"

#include "access/heapam.h"
#include "access/tableam.h"
#include "nodes/pg_list.h"
#include "datatype/timestamp.h"
#include "port/atomics.h"
#include "portability/instr_time.h"
#include "storage/smgr.h"
#include "utils/rel.h"

#include "compat.h"

/* The start of every staging name (load_sql.c, load_staging.c) */
#define PB_STAGING_PREFIX		"pbload_"

/* Most workers of a parallel load */
#define PB_MAX_PARALLEL			64

/* pgbench's --partition-method */
typedef enum PbPartitionMethod
{
	PB_PART_RANGE = 0,
	PB_PART_HASH
} PbPartitionMethod;

/*
 * polarbench_init()'s arguments once checked, plus the schema the tables
 * go to and what the data set's prepare step decided for every job.  Plain
 * data: it is copied as is into a parallel load's segment.
 */
typedef struct PbLoadOptions
{
	int			dataset;		/* its place among the kinds' data sets
								 * (kinds/registry.c) */
	int			scale;
	int			tables;
	int			table_size;
	int64		records;
	int			fields;
	int			field_length;
	int			warehouses;
	int			parallel;
	int			fillfactor;
	bool		unlogged;
	int			partitions;
	PbPartitionMethod partition_method;
	bool		partition_method_given; /* not left to its default */
	bool		foreign_keys;
	bool		drop;
	bool		progress;
	bool		wal_compression;	/* compress the load's page images */
	bool		distributed;	/* make the tables Citus tables */
	int			shard_count;	/* their shards, 0 for citus.shard_count */
	Oid			nspid;			/* schema the tables are created in */
	char		nspname[NAMEDATALEN];
	char		staging_prefix[NAMEDATALEN];	/* "" but in a parallel
												 * load's workers, and in
												 * an extension's jobs */

	/*
	 * Set before any job runs, by the data set's prepare step (in the
	 * caller's transaction), so that every job, in whatever worker, makes
	 * rows that agree with the others'.
	 */
	bool		extend;			/* add rows to the tables there, which stay
								 * (see pb_staging_append()), rather than
								 * replace them */
	uint64		seed;			/* the load's seed */
	TimestampTz load_time;		/* when the data set was loaded */
	Timestamp	row_time;		/* the same as the rows' dates hold it */
	int			first_warehouse;	/* TPC-C: 1, or the first one added */
	int			c_load;			/* TPC-C: C for C_LAST (2.1.6) */
	int64		total_rows;		/* rows the load inserts (total_rows()) */
} PbLoadOptions;

/*
 * Progress of a load.  Serial loads count in "done"; the workers of a
 * parallel load add to the shared counter, which the caller reads to
 * write its notices.  Each backend that inserts also reports the table it
 * fills in pg_stat_progress_copy.
 */
typedef struct PbProgress
{
	int64		total;			/* rows to insert over the whole load */
	int64		done;			/* rows inserted, this backend */
	int64		next_notice;	/* row count of the next notice */
	int64		table_done;		/* rows inserted into the current table */
	bool		notice;			/* send NOTICE lines (serial load) */
	bool		reporting;		/* a COPY progress command is open */
	instr_time	start;
	pg_atomic_uint64 *shared;	/* parallel: counter summed over workers */
} PbProgress;

/*
 * An argument of polarbench_init() that a data set reads beyond those every
 * data set reads (parallel, fillfactor, unlogged, drop, progress,
 * wal_compression), with what it means for that data set.
 */
typedef struct PbDatasetOption
{
	const char *argument;
	const char *description;
} PbDatasetOption;

/*
 * How a table of a data set is laid out on a Citus cluster, when
 * polarbench_init() is called with distributed => true: hash-distributed
 * by a column, or a reference table (a copy on every node).
 */
typedef struct PbDistributedTable
{
	const char *table;
	const char *column;			/* distribution column; NULL: a reference
								 * table */
	const char *colocate_with;	/* a table distributed before it, or NULL
								 * for a colocation group of its own */
} PbDistributedTable;

/*
 * One data set: what it creates and how its load is cut into jobs.  A kind
 * folder defines its data sets (its <kind>_dataset.c) and lists them in its
 * descriptor (PbKind.datasets), through which the registry finds them.
 */
typedef struct PbDataset
{
	const char *name;
	const char *description;	/* one line, for polarbench_datasets */
	const PbDatasetOption *options; /* terminated by a NULL argument */
	/* whether its pages compress in WAL by enough for compression to pay */
	bool		compressible;
	/* check the options that concern this data set, ereport if wrong */
	void		(*check) (const PbLoadOptions *opts);
	/*
	 * Optional.  Before anything is written, in the caller's transaction
	 * with SPI connected: look at what is there (ereport if it is in the
	 * way), and decide what every job shares (seed, extend...).
	 */
	void		(*prepare) (PbLoadOptions *opts);
	/* names of the tables it creates (partitions aside), drop order */
	List	   *(*table_names) (const PbLoadOptions *opts);
	/* names of every relation it creates: tables and partitions (which
	 * also take a type's name), then indexes and sequences; in an
	 * extension, the tables whose rows are appended, in that order */
	void		(*created_names) (const PbLoadOptions *opts, List **tables,
								  List **others);
	/* number of jobs */
	int			(*njobs) (const PbLoadOptions *opts, bool parallel);
	/* rows the whole load inserts */
	int64		(*total_rows) (const PbLoadOptions *opts);
	/* run one job in the current transaction; returns rows inserted */
	int64		(*run_job) (const PbLoadOptions *opts, int job, bool parallel,
							PbProgress *progress);
	/* after all jobs, in the caller's transaction */
	void		(*finish) (const PbLoadOptions *opts, bool parallel);
	/*
	 * Its tables on a Citus cluster: a list of PbDistributedTable, in the
	 * order they are distributed (a table after the one it is colocated
	 * with), laid out as Citus's guides lay out the tool's tables.
	 */
	List	   *(*distribution) (const PbLoadOptions *opts);
	/*
	 * Optional: fill the data set's tables, there already with their keys
	 * and indexes, in one transaction (functions/init_shards.c calls it on
	 * every node of a Citus cluster, its rows routed to the node's shards
	 * by shard_route.c); returns the rows inserted.  Rows must be the same
	 * whichever node makes them (seeded by their key, not by the load),
	 * and those of another node's shards are best not made
	 * (pb_bulk_row_elsewhere()).  Without it, a distributed load goes
	 * through the coordinator.
	 */
	int64		(*fill_shards) (const PbLoadOptions *opts, PbProgress *progress);
} PbDataset;

/* Rows buffered before a table_multi_insert() call */
#define PB_BULK_BATCH			1000

/* Pages written at once by the direct path (one WAL record) */
#define PB_DIRECT_PAGES			32

/* pgbench -i prints a progress line every this many rows */
#define PB_PROGRESS_ROWS		100000

/*
 * Where the rows of one table go in a distributed load (shard_route.c):
 * the shards of it this node fills, by hash range.
 */
typedef struct PbShardRoute
{
	Oid			relid;			/* the table the data set names */
	AttrNumber	attnum;			/* its distribution column */
	int			nshards;		/* 0: every row dropped */
	Oid		   *shard_relids;
	int32	   *mins;			/* hash ranges, both ends included */
	int32	   *maxs;
	FmgrInfo	hash;			/* the column type's standard hash */
	Oid			collation;
	int64		rows;			/* rows its shards took */
} PbShardRoute;

/* An index built from rows in key order (btree_build.c) */
typedef struct PbBtreeBuild PbBtreeBuild;

/* Buffered insertion into one table created by the current load */
typedef struct PbBulkInsert PbBulkInsert;
struct PbBulkInsert
{
	Relation	rel;
	TupleTableSlot *slots[PB_BULK_BATCH];
	int			batch;			/* rows per table_multi_insert() */
	int			nbuffered;
	int			options;		/* TABLE_INSERT_* */
	CommandId	cid;
	BulkInsertState bistate;
	MemoryContext batch_cxt;	/* values of the buffered rows */
	int64		rows;
	PbProgress *progress;
	PbBtreeBuild *btree;		/* index filled as rows go, or NULL */
	List	   *reindex;		/* a shard's other indexes, built at the end */

	/*
	 * Direct path: full pages built here and written past shared buffers
	 * (see bulk_insert.c).
	 */
	bool		direct;
	bool		use_wal;
	bool		sync;			/* fsync the files at the end */
	Size		save_free;		/* room the fillfactor keeps free */
	TransactionId xid;
	BlockNumber next_block;		/* block number of pages[0] */
	int			npages;			/* pages filled or being filled */
	int			max_pages;		/* PB_DIRECT_PAGES, or 1 for one of many */
	char	   *pages;			/* max_pages aligned pages */

	/*
	 * A table routed to its shards (shard_route.c): rows are filled in
	 * route_slot and stored into the shard's own insertion, begun when its
	 * first row comes.
	 */
	PbShardRoute *route;
	TupleTableSlot *route_slot;
	PbBulkInsert **shard_bulks;
	bool		shard_small_rows;
	bool		shard_keyed;	/* build each shard's primary key */
};

/* page_write.c */
extern void pb_write_pages(SMgrRelation smgr, ForkNumber fork, bool use_wal,
						   bool sync, bool extend, BlockNumber first,
						   int npages, Page *pages, bool page_std);
extern void pb_write_visibility_map(SMgrRelation smgr, BlockNumber nblocks,
									bool use_wal, bool sync, Page page);

/* load_sql.c */
extern void pb_loader_sql(const char *fmt,...) pg_attribute_printf(1, 2);
extern Oid	pb_loader_relid(const PbLoadOptions *opts, const char *name);
extern Oid	pb_loader_primary_key(Oid relid);
extern const char *pb_loader_name(const PbLoadOptions *opts, const char *name);
extern char *pb_loader_qualify(const PbLoadOptions *opts, const char *name);
extern char *pb_loader_bpchar_fill(int len, char c);
extern const char *pb_loader_with(const PbLoadOptions *opts, bool always);
extern PbDistributedTable *pb_distributed_table(const char *table,
												const char *column,
												const char *colocate_with);
extern void pb_staging_set_prefix(PbLoadOptions *opts);
extern bool pb_staging_parse(const char *relname, uint64 *fxid,
							 const char **final);
extern const char *pb_staging_final_name(const char *relname);

/* load_progress.c */
extern void pb_progress_init(PbProgress *progress, int64 total, bool notice,
							 pg_atomic_uint64 *shared);
extern void pb_progress_table_begin(PbProgress *progress, Oid relid);
extern void pb_progress_table_end(PbProgress *progress);
extern void pb_progress_add(PbProgress *progress, int64 rows);
extern void pb_progress_notice(PbProgress *progress, int64 done, bool last);

/* load_wal.c */
extern int	pb_loader_compress_wal_begin(const PbLoadOptions *opts);
extern void pb_loader_compress_wal_end(int nest_level);

/* btree_build.c */
extern PbBtreeBuild *pb_btree_begin(Relation heap, Oid indexoid, int max_run);
extern void pb_btree_add(PbBtreeBuild *build, const Datum *values,
						 ItemPointer tid);
extern void pb_btree_end(PbBtreeBuild *build);

/* page_writers.c */
typedef struct PbPageWriters PbPageWriters;
extern Size pb_writer_size(void);
extern PbPageWriters *pb_writer_init(void *space, int nworkers);
extern void pb_writer_attach(void *space, int index);
extern void pb_writer_detach(void);
extern void pb_write_pages_async(SMgrRelation smgr, ForkNumber fork,
								 bool use_wal, bool sync, BlockNumber first,
								 int npages, Page *pages);
extern void pb_writer_wait_own(void);
extern void pb_writer_help(void);

/* shard_route.c */
extern void pb_route_add(Oid relid, AttrNumber attnum, int nshards,
						 const Oid *shard_relids, const int32 *mins,
						 const int32 *maxs);
extern PbShardRoute *pb_route_find(Oid relid);
extern int	pb_route_shard(PbShardRoute *route, Datum key, bool isnull);
extern int64 pb_route_reference_rows(void);
extern void pb_route_forget(void);

/* bulk_insert.c */
extern PbBulkInsert *pb_bulk_begin(Oid relid, PbProgress *progress,
								   int batch, bool small_rows,
								   Oid key_index);
extern bool pb_bulk_row_elsewhere(PbBulkInsert *bulk, AttrNumber attnum,
								  Datum value);
extern bool pb_bulk_rows_elsewhere(PbBulkInsert *bulk, Datum key);
extern TupleTableSlot *pb_bulk_next_slot(PbBulkInsert *bulk);
extern void pb_bulk_store(PbBulkInsert *bulk);
extern int64 pb_bulk_end(PbBulkInsert *bulk);

/* load_staging.c */
extern void pb_staging_drop_orphans(const PbLoadOptions *opts);
extern void pb_staging_drop(const PbDataset *ds, const PbLoadOptions *opts);
extern void pb_staging_promote(const PbDataset *ds, const PbLoadOptions *opts);
extern void pb_staging_check_names(const PbDataset *ds,
								   const PbLoadOptions *opts, List *replaced);
extern void pb_staging_drop_replaced(const PbLoadOptions *opts, List *names);
extern void pb_staging_append(const PbDataset *ds, const PbLoadOptions *opts);

/* functions/init_parallel.c */
extern int64 pb_loader_run_parallel(const PbLoadOptions *opts, List *names);
extern PGDLLEXPORT void pb_loader_worker_main(Datum main_arg);

/* functions/shard_options.c */
extern Datum pb_shard_options_write(const PbLoadOptions *opts);
extern void pb_shard_options_read(PbLoadOptions *opts, const char *dataset,
								  Datum options);

/* functions/init_shards.c */
extern bool pb_shards_load_on_nodes(const PbLoadOptions *opts);
extern void pb_shards_check(const PbLoadOptions *opts);
extern int	pb_shards_sequential_begin(void);
extern void pb_shards_sequential_end(int nest_level);
extern int64 pb_shards_load(const PbLoadOptions *opts, int64 *bytes);

/* functions/init_distributed.c */
extern void pb_distribute_check(const PbLoadOptions *opts);
extern void pb_distribute_check_extension(const PbLoadOptions *opts);
extern void pb_distribute_tables(const PbLoadOptions *opts);

/* functions/init.c */
extern const char *pb_init_argument_default(const char *argument);

#endif							/* PB_LOAD_H */
