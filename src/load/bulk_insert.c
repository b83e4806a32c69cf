/*-------------------------------------------------------------------------
 *
 * bulk_insert.c
 *	  Bulk insertion of generated rows into a table the load created.
 *
 * Rows are buffered PB_BULK_BATCH at a time in slots and written with
 * table_multi_insert() through a BulkInsertState, as COPY FROM does.  The
 * values of the buffered rows live in a memory context reset after every
 * batch, so memory stays flat whatever the number of rows.  Tables are
 * filled right after the same (sub)transaction created them, so rows are
 * written frozen and their pages all-visible (the condition COPY FREEZE
 * checks), which spares the VACUUM that pgbench -i runs afterwards.
 *
 * Direct path.  When the rows are small (never TOASTed) and the table is a
 * new, empty heap of this (sub)transaction, pages are instead built here,
 * full, and written straight to the relation's file the way CREATE INDEX
 * and CLUSTER write theirs: frozen rows, PD_ALL_VISIBLE set, WAL-logged as
 * full-page images when the relation needs WAL, the visibility map fork
 * written at the end with every page all-visible and all-frozen, and the
 * checkpointer asked to fsync both forks, as for pages of shared buffers
 * (see pb_write_pages() for why no checkpoint can slip in between).
 * This skips the buffer manager's one-page extensions, zero-filled first,
 * and the bulk-write ring's write-backs, which are most of the cost of
 * table_multi_insert() for such rows.  pg_class.relallvisible is set by
 * the ANALYZE that follows.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/heaptoast.h"
#include "access/htup_details.h"
#include "access/visibilitymapdefs.h"
#include "access/xloginsert.h"
#include "catalog/index.h"
#include "catalog/pg_am.h"
#include "common/relpath.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "storage/proc.h"
#include "storage/smgr.h"
#include "utils/rel.h"
#include "access/table.h"
#include "access/xact.h"
#include "commands/progress.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "utils/backend_progress.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "load.h"

/* first block of a batch's memory context */
#define PB_BATCH_CONTEXT_SIZE	(2 * 1024 * 1024)

static PbBulkInsert *pb_bulk_begin_table(Oid relid, PbProgress *progress,
										 int batch, bool small_rows,
										 Oid key_index, bool reindex);
static PbBulkInsert *pb_bulk_begin_routed(PbShardRoute *route, Oid relid,
										  PbProgress *progress, int batch,
										  bool small_rows, Oid key_index);
static void pb_bulk_store_routed(PbBulkInsert *bulk);
static int64 pb_bulk_end_routed(PbBulkInsert *bulk);
static void pb_bulk_flush(PbBulkInsert *bulk);
static char *palloc_aligned_pages(PbBulkInsert *bulk);
static void pb_direct_add(PbBulkInsert *bulk, HeapTuple tuple,
						  const Datum *values);
static void pb_direct_write(PbBulkInsert *bulk, int npages);
static void pb_direct_finish(PbBulkInsert *bulk);

/*
 * Open relation relid, which the current load created, for insertion of
 * batch rows at a time (at most PB_BULK_BATCH).  Rows are counted in
 * progress when it is not NULL.  small_rows promises rows that never need
 * TOAST, allowing the direct path.  key_index, when valid, is the table's
 * one index, created empty by the load, whose key (of one or more integer
 * columns) the rows fill in ascending order: it is built as they are
 * written (btree_build.c).
 *
 * A table routed to its shards (shard_route.c) takes its rows into the
 * shards of this node instead.  Citus gave each shard the indexes its
 * table had when it was distributed: the shard's primary key is built as
 * rows go when key_index is given (the rows come in its order), and every
 * other index of the shard once its rows are in.
 */
PbBulkInsert *
pb_bulk_begin(Oid relid, PbProgress *progress, int batch, bool small_rows,
			  Oid key_index)
{
	PbShardRoute *route = pb_route_find(relid);

	if (route != NULL)
		return pb_bulk_begin_routed(route, relid, progress, batch,
									small_rows, key_index);
	return pb_bulk_begin_table(relid, progress, batch, small_rows, key_index,
							   false);
}

/*
 * pb_bulk_begin() into the table relid itself, whatever the routes.
 * reindex: the table may have indexes besides key_index, which
 * pb_bulk_end() builds once the rows are in (a shard, which Citus created
 * with every index of its table).
 */
static PbBulkInsert *
pb_bulk_begin_table(Oid relid, PbProgress *progress, int batch,
					bool small_rows, Oid key_index, bool reindex)
{
	PbBulkInsert *bulk = palloc0(sizeof(PbBulkInsert));
	SubTransactionId subid = GetCurrentSubTransactionId();
	List	   *indexes;
	int			i;

	bulk->rel = table_open(relid, RowExclusiveLock);
	if (bulk->rel->rd_rel->relkind != RELKIND_RELATION)
		elog(ERROR, "relation \"%s\" is not a table",
			 RelationGetRelationName(bulk->rel));

	/*
	 * Rows go in without index maintenance (but for key_index, built
	 * here), triggers or row security: the table must still be as the load
	 * created it (an event trigger could have added an index meanwhile).
	 */
	indexes = RelationGetIndexList(bulk->rel);
	if (reindex)
		bulk->reindex = list_delete_oid(indexes, key_index);
	if ((!reindex &&
		 (list_length(indexes) != (OidIsValid(key_index) ? 1 : 0) ||
		  (indexes != NIL && linitial_oid(indexes) != key_index))) ||
		bulk->rel->rd_rel->relhastriggers || bulk->rel->rd_rel->relrowsecurity)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("table \"%s\" got indexes, triggers or row security before it was loaded",
						pb_staging_final_name(RelationGetRelationName(bulk->rel))),
				 errhint("Disable the event triggers that change new tables while polarbench_init runs.")));

	/*
	 * Frozen rows are only safe when nobody but this (sub)transaction can
	 * have seen the table: if the transaction or the subtransaction aborts,
	 * the rows go with the table.  That is COPY FREEZE's test.
	 */
	bulk->options = TABLE_INSERT_SKIP_FSM;
	if (bulk->rel->rd_createSubid == subid ||
		PB_REL_FIRST_SUBID(bulk->rel) == subid)
		bulk->options |= TABLE_INSERT_FROZEN;

	bulk->cid = GetCurrentCommandId(true);
	bulk->batch = Max(1, Min(batch, PB_BULK_BATCH));

	if (small_rows && (bulk->options & TABLE_INSERT_FROZEN) &&
		bulk->rel->rd_rel->relam == HEAP_TABLE_AM_OID &&
		RelationGetNumberOfBlocks(bulk->rel) == 0)
	{
		bulk->direct = true;
		bulk->use_wal = RelationNeedsWAL(bulk->rel);
		/*
		 * Ask for fsyncs when WAL is written, and for unlogged tables,
		 * which must survive a clean shutdown.  A new table not WAL-logged
		 * (wal_level minimal) is synced at commit by PostgreSQL itself.
		 */
		bulk->sync = bulk->use_wal ||
			bulk->rel->rd_rel->relpersistence == RELPERSISTENCE_UNLOGGED;
		bulk->save_free = RelationGetTargetPageFreeSpace(bulk->rel,
														 HEAP_DEFAULT_FILLFACTOR);
		bulk->xid = GetCurrentTransactionId();
		bulk->next_block = 0;
		bulk->npages = 0;
		bulk->max_pages = bulk->batch == PB_BULK_BATCH ? PB_DIRECT_PAGES : 1;
		bulk->pages = palloc_aligned_pages(bulk);
		PageInit((Page) bulk->pages, BLCKSZ, 0);
	}
	bulk->bistate = GetBulkInsertState();
	/*
	 * A batch's values fit in the context's first block, kept across
	 * resets: no malloc()/free() churn (nor the page faults of memory
	 * handed back to the kernel) at every batch.
	 */
	if (bulk->batch == PB_BULK_BATCH)
		bulk->batch_cxt = AllocSetContextCreate(CurrentMemoryContext,
												"polarbench load batch",
												PB_BATCH_CONTEXT_SIZE,
												PB_BATCH_CONTEXT_SIZE,
												ALLOCSET_DEFAULT_MAXSIZE);
	else						/* one of many targets: stay small */
		bulk->batch_cxt = AllocSetContextCreate(CurrentMemoryContext,
												"polarbench load batch",
												ALLOCSET_DEFAULT_SIZES);
	for (i = 0; i < bulk->batch; i++)
		bulk->slots[i] = table_slot_create(bulk->rel, NULL);
	bulk->progress = progress;
	if (OidIsValid(key_index))
		bulk->btree = pb_btree_begin(bulk->rel, key_index,
									 bulk->batch == PB_BULK_BATCH ?
									 PB_DIRECT_PAGES : 1);
	return bulk;
}

/*
 * Return the slot for the next row, empty.  The caller fills tts_values
 * and tts_isnull, allocating in bulk->batch_cxt, then calls
 * pb_bulk_store().
 */
TupleTableSlot *
pb_bulk_next_slot(PbBulkInsert *bulk)
{
	TupleTableSlot *slot;

	if (bulk->route != NULL)
	{
		MemoryContextReset(bulk->batch_cxt);
		slot = bulk->route_slot;
	}
	else
		slot = bulk->slots[bulk->nbuffered];
	ExecClearTuple(slot);
	return slot;
}

/*
 * Whether the row whose column attnum is value goes to no table here: a
 * table routed to its shards (shard_route.c) by that column, the row's
 * shard on another node.  The caller may then skip making the row.
 */
bool
pb_bulk_row_elsewhere(PbBulkInsert *bulk, AttrNumber attnum, Datum value)
{
	return bulk->route != NULL &&
		(bulk->route->nshards == 0 ||
		 (bulk->route->attnum == attnum &&
		  pb_route_shard(bulk->route, value, false) < 0));
}

/*
 * Whether the rows whose distribution column is key go to no table here:
 * a table routed to its shards, their shard on another node, or the rows
 * of every table dropped (the coordinator creating the tables empty).  A
 * data set that makes its rows by groups of one key (TPC-C's warehouses)
 * may then skip the group.
 */
bool
pb_bulk_rows_elsewhere(PbBulkInsert *bulk, Datum key)
{
	return bulk->route != NULL &&
		pb_route_shard(bulk->route, key, false) < 0;
}

/*
 * Add the row filled in the slot pb_bulk_next_slot() returned to the
 * batch, writing the batch when it is full.
 */
void
pb_bulk_store(PbBulkInsert *bulk)
{
	TupleTableSlot *slot;

	if (bulk->route != NULL)
	{
		pb_bulk_store_routed(bulk);
		return;
	}
	slot = bulk->slots[bulk->nbuffered];
	if (bulk->direct)
	{
		MemoryContext oldcxt = MemoryContextSwitchTo(bulk->batch_cxt);

		pb_direct_add(bulk, heap_form_tuple(RelationGetDescr(bulk->rel),
											slot->tts_values,
											slot->tts_isnull),
					  slot->tts_values);
		MemoryContextSwitchTo(oldcxt);
	}
	else
		ExecStoreVirtualTuple(slot);
	if (++bulk->nbuffered >= bulk->batch)
		pb_bulk_flush(bulk);
}

/*
 * Memory for the direct path's pages, aligned as shared buffers are.
 */
static char *
palloc_aligned_pages(PbBulkInsert *bulk)
{
	char	   *raw = palloc(bulk->max_pages * BLCKSZ + ALIGNOF_BUFFER);

	return (char *) BUFFERALIGN(raw);
}

/*
 * Direct path: put tuple on the current page, starting a new page when it
 * does not fit (by heap_multi_insert()'s rule, so pages hold as many rows
 * as they would have), and its key, from its columns' values, into the
 * index built as rows go.
 */
static void
pb_direct_add(PbBulkInsert *bulk, HeapTuple tuple, const Datum *values)
{
	Page		page = (Page) (bulk->pages + bulk->npages * BLCKSZ);
	HeapTupleHeader htup = tuple->t_data;
	OffsetNumber off;

	if (tuple->t_len > TOAST_TUPLE_THRESHOLD)
		elog(ERROR, "row of %u bytes is too large for the direct path",
			 tuple->t_len);

	if (!PageIsEmpty(page) &&
		PageGetHeapFreeSpace(page) < MAXALIGN(tuple->t_len) + bulk->save_free)
	{
		if (++bulk->npages == bulk->max_pages)
			pb_direct_write(bulk, bulk->max_pages);
		page = (Page) (bulk->pages + bulk->npages * BLCKSZ);
		PageInit(page, BLCKSZ, 0);
	}

	/* what heap_prepare_insert() does for a frozen insert */
	htup->t_infomask &= ~(HEAP_XACT_MASK);
	htup->t_infomask2 &= ~(HEAP2_XACT_MASK);
	htup->t_infomask |= HEAP_XMAX_INVALID;
	HeapTupleHeaderSetXmin(htup, bulk->xid);
	HeapTupleHeaderSetXminFrozen(htup);
	HeapTupleHeaderSetCmin(htup, bulk->cid);
	HeapTupleHeaderSetXmax(htup, 0);

	off = PageAddItem(page, (Item) htup, tuple->t_len, InvalidOffsetNumber,
					  false, true);
	if (off == InvalidOffsetNumber)
		elog(ERROR, "failed to add tuple to page");
	htup = (HeapTupleHeader) PageGetItem(page, PageGetItemId(page, off));
	ItemPointerSet(&htup->t_ctid, bulk->next_block + bulk->npages, off);
	if (bulk->btree)
		pb_btree_add(bulk->btree, values, &htup->t_ctid);
}

/*
 * Direct path: write the first npages heap pages and start over with an
 * empty first page.
 */
static void
pb_direct_write(PbBulkInsert *bulk, int npages)
{
	Page		pages[PB_DIRECT_PAGES];
	int			i;

	if (npages == 0)
		return;
	for (i = 0; i < npages; i++)
	{
		pages[i] = (Page) (bulk->pages + i * BLCKSZ);
		PageSetAllVisible(pages[i]);
	}
	/* by an idle worker of a parallel load when there is one */
	pb_write_pages_async(RelationGetSmgr(bulk->rel), MAIN_FORKNUM,
						 bulk->use_wal, bulk->sync, bulk->next_block, npages,
						 pages);
	bulk->next_block += npages;
	bulk->npages = 0;
	PageInit((Page) bulk->pages, BLCKSZ, 0);
}

/*
 * Direct path: write the last pages, then the visibility map, all pages
 * all-visible and all-frozen.
 */
static void
pb_direct_finish(PbBulkInsert *bulk)
{
	if (!PageIsEmpty((Page) (bulk->pages + bulk->npages * BLCKSZ)))
		bulk->npages++;
	pb_direct_write(bulk, bulk->npages);

	pb_write_visibility_map(RelationGetSmgr(bulk->rel), bulk->next_block,
							bulk->use_wal, bulk->sync, (Page) bulk->pages);
}

/*
 * Write the buffered rows, then forget their values.
 */
static void
pb_bulk_flush(PbBulkInsert *bulk)
{
	int			n = bulk->nbuffered;

	if (n == 0)
		return;
	CHECK_FOR_INTERRUPTS();
	if (!bulk->direct)
	{
		int			i;

		table_multi_insert(bulk->rel, bulk->slots, n, bulk->cid,
						   bulk->options, bulk->bistate);
		if (bulk->btree)
			for (i = 0; i < n; i++)
				pb_btree_add(bulk->btree, bulk->slots[i]->tts_values,
							 &bulk->slots[i]->tts_tid);
	}
	bulk->nbuffered = 0;
	bulk->rows += n;
	MemoryContextReset(bulk->batch_cxt);
	if (bulk->progress)
		pb_progress_add(bulk->progress, n);
}

/*
 * Write what is left, release everything and return the number of rows
 * inserted.  The relation stays locked until the end of the transaction.
 */
int64
pb_bulk_end(PbBulkInsert *bulk)
{
	int64		rows;
	int			i;
	ListCell   *lc;

	if (bulk->route != NULL)
		return pb_bulk_end_routed(bulk);
	pb_bulk_flush(bulk);
	if (bulk->direct)
	{
		pb_direct_finish(bulk);
		/* what follows (ANALYZE, commit) needs the pages written */
		pb_writer_wait_own();
	}
	if (bulk->btree)
		pb_btree_end(bulk->btree);
	FreeBulkInsertState(bulk->bistate);
	table_finish_bulk_insert(bulk->rel, bulk->options);
	/* the other indexes of a shard, from its rows */
	foreach(lc, bulk->reindex)
	{
		ReindexParams params = {0};

		reindex_index(lfirst_oid(lc), false,
					  bulk->rel->rd_rel->relpersistence, &params);
	}
	for (i = 0; i < bulk->batch; i++)
		ExecDropSingleTupleTableSlot(bulk->slots[i]);
	table_close(bulk->rel, NoLock);
	MemoryContextDelete(bulk->batch_cxt);
	rows = bulk->rows;
	pfree(bulk);
	return rows;
}


/*
 * Routed table: the insertion that sends each row to its shard on this
 * node, each shard's own insertion begun with its first row.  The rows'
 * values are made in batch_cxt, reset at each row, and copied into the
 * shard's batch.
 */
static PbBulkInsert *
pb_bulk_begin_routed(PbShardRoute *route, Oid relid, PbProgress *progress,
					 int batch, bool small_rows, Oid key_index)
{
	PbBulkInsert *bulk = palloc0(sizeof(PbBulkInsert));

	bulk->route = route;
	bulk->rel = table_open(relid, AccessShareLock);
	bulk->route_slot = MakeSingleTupleTableSlot(RelationGetDescr(bulk->rel),
												&TTSOpsVirtual);
	bulk->shard_bulks = palloc0(sizeof(PbBulkInsert *) *
								Max(route->nshards, 1));
	bulk->batch = batch;
	bulk->progress = progress;
	bulk->shard_small_rows = small_rows;
	bulk->shard_keyed = OidIsValid(key_index);
	bulk->batch_cxt = AllocSetContextCreate(CurrentMemoryContext,
											"polarbench routed row",
											ALLOCSET_DEFAULT_SIZES);
	return bulk;
}

/*
 * Routed table: store the row of route_slot into its shard, or drop it
 * when its shard is not on this node.
 */
static void
pb_bulk_store_routed(PbBulkInsert *bulk)
{
	TupleTableSlot *row = bulk->route_slot;
	TupleDesc	desc = row->tts_tupleDescriptor;
	AttrNumber	attnum = bulk->route->attnum;
	int			shard = pb_route_shard(bulk->route,
									   row->tts_values[attnum - 1],
									   row->tts_isnull[attnum - 1]);
	PbBulkInsert *to;
	TupleTableSlot *slot;
	MemoryContext oldcxt;

	if (shard < 0)
		return;
	to = bulk->shard_bulks[shard];
	if (to == NULL)
	{
		Oid			shard_relid = bulk->route->shard_relids[shard];
		Oid			key = InvalidOid;
		Relation	rel;

		/*
		 * The shard's primary key is built as the rows go when they come
		 * in its order (the data set gave its table's key); its other
		 * indexes, and a key whose rows come in no order, once they are
		 * all in.
		 */
		if (bulk->shard_keyed)
		{
			rel = table_open(shard_relid, AccessShareLock);
			key = RelationGetPrimaryKeyIndex(rel);
			table_close(rel, AccessShareLock);
		}
		/*
		 * Whole batches and runs of pages for each shard: rows come to
		 * all of them all along
		 */
		to = pb_bulk_begin_table(shard_relid, bulk->progress, bulk->batch,
								 bulk->shard_small_rows, key, true);
		bulk->shard_bulks[shard] = to;
	}
	slot = pb_bulk_next_slot(to);
	oldcxt = MemoryContextSwitchTo(to->batch_cxt);
	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		slot->tts_isnull[i] = row->tts_isnull[i];
		slot->tts_values[i] = row->tts_isnull[i] ? (Datum) 0 :
			datumCopy(row->tts_values[i], att->attbyval, att->attlen);
	}
	MemoryContextSwitchTo(oldcxt);
	pb_bulk_store(to);
}

/*
 * Routed table: finish every shard's insertion; returns the rows they
 * took.
 */
static int64
pb_bulk_end_routed(PbBulkInsert *bulk)
{
	int64		rows = 0;

	for (int i = 0; i < bulk->route->nshards; i++)
		if (bulk->shard_bulks[i] != NULL)
			rows += pb_bulk_end(bulk->shard_bulks[i]);
	bulk->route->rows += rows;
	ExecDropSingleTupleTableSlot(bulk->route_slot);
	table_close(bulk->rel, NoLock);
	MemoryContextDelete(bulk->batch_cxt);
	pfree(bulk->shard_bulks);
	pfree(bulk);
	return rows;
}
