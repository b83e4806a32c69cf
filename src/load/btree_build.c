/*-------------------------------------------------------------------------
 *
 * btree_build.c
 *	  A btree index built as its table is loaded, from rows that arrive in
 *	  ascending order of the index's key.
 *
 * The loader generates pgbench_accounts in aid order, sbtestN in id order
 * and each TPC-C table in the order of its primary key ((s_w_id, s_i_id),
 * (ol_w_id, ol_d_id, ol_o_id, ol_number)...), and writes each row where it
 * chooses, so it knows every row's key and heap TID as it goes.  Building the primary key afterwards would scan
 * the table again and sort keys that are already sorted, the costliest
 * step of pgbench -i after the rows themselves.  Instead the primary key
 * is added while the table is still empty, and its leaf pages are filled
 * here from the rows as they are written, the upper levels built on the
 * way, exactly as nbtree's own sorted build (nbtsort.c) does from the
 * output of its sort: same fillfactors, same high keys (made by
 * _bt_truncate()), same minus-infinity first items on inner pages, same
 * order of block numbers.  The index is the one ALTER TABLE ... ADD
 * PRIMARY KEY would have built after the load, page for page.
 *
 * Pages are written past shared buffers as the heap's are
 * (pb_write_pages(): full-page images in WAL when the index needs WAL,
 * fsync requests to the checkpointer), consecutive pages together.  A
 * page of an upper level gets its block number when it is started and is
 * written when it is full, after leaves numbered higher: its block is
 * zero-filled meanwhile, as nbtsort.c does.  The metapage that the build
 * on the empty table wrote is rewritten last to point to the new root.
 *
 * Only what can be checked cheaply is accepted: a unique btree on int2,
 * int4 or int8 columns in ascending order (integer_ops), without included
 * columns or expressions, created in the current transaction so that
 * nobody else can have seen it, with nothing in it yet.  Keys of several
 * columns are compared column by column, as the index orders them; a key
 * that does not follow the previous one ends the load with an error
 * rather than a wrong index.  Unique keys in ascending order are all
 * different, so no leaf item is ever a duplicate: nbtsort.c would not
 * deduplicate either (it does not for unique indexes), and a high key
 * never needs a heap TID.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/nbtree.h"
#include "access/tupmacs.h"
#include "access/xact.h"
#include "catalog/index.h"
#include "catalog/pg_am.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/smgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "load.h"

/* The page being filled on one level of the tree */
typedef struct PbBtreeLevel
{
	Page		page;
	BlockNumber blkno;			/* block number it will be written at */
	OffsetNumber lastoff;		/* offset of its last item */
	IndexTuple	lowkey;			/* its low key, the parent's downlink */
	uint32		level;			/* 0 for leaves */
	Size		full;			/* free space under which it is full */
	struct PbBtreeLevel *parent;
} PbBtreeLevel;

struct PbBtreeBuild
{
	Relation	index;
	BTScanInsert inskey;		/* for _bt_truncate() */
	int			nkeys;			/* key columns */
	AttrNumber	heap_attno[INDEX_MAX_KEYS]; /* their columns in the table */
	int16		keylen[INDEX_MAX_KEYS]; /* 2, 4 or 8 */
	char		keyalign[INDEX_MAX_KEYS];
	Size		tuplesz;		/* size of every index tuple */
	bool		use_wal;
	bool		sync;
	BlockNumber next_alloc;		/* next block number to hand out */
	BlockNumber nwritten;		/* blocks in the file */
	PbBtreeLevel *leaf;			/* NULL until the first key */
	int64		last_key[INDEX_MAX_KEYS];
	int64		tuples;
	MemoryContext cxt;

	/* completed pages of consecutive block numbers, not yet written */
	char	   *run;
	int			run_max;
	int			run_len;
	BlockNumber run_first;
};

static void pb_btree_add_item(PbBtreeBuild *build, PbBtreeLevel *lev,
							  IndexTuple itup);
static PbBtreeLevel *pb_btree_new_level(PbBtreeBuild *build, uint32 level);
static Page pb_btree_new_page(uint32 level);
static void pb_btree_put(Page page, IndexTuple itup, OffsetNumber off,
						 bool minus_infinity);
static void pb_btree_write(PbBtreeBuild *build, BlockNumber blkno,
						   Page page);
static void pb_btree_flush_run(PbBtreeBuild *build);

/*
 * Start building index indexoid of heap, which must be empty and as
 * described in the file header; pages are written up to max_run at once
 * (at most PB_DIRECT_PAGES).  Returns the build state, allocated in the
 * current memory context.
 */
PbBtreeBuild *
pb_btree_begin(Relation heap, Oid indexoid, int max_run)
{
	PbBtreeBuild *build = palloc0(sizeof(PbBtreeBuild));
	SubTransactionId subid = GetCurrentSubTransactionId();
	Relation	index = index_open(indexoid, AccessExclusiveLock);
	Form_pg_index ind = index->rd_index;
	TupleDesc	itupdesc = RelationGetDescr(index);
	SMgrRelation smgr;
	ForkNumber	fork = MAIN_FORKNUM;
	BlockNumber first = 0;
	Size		off = MAXALIGN(sizeof(IndexTupleData));
	bool		ok;

	ok = index->rd_rel->relam == BTREE_AM_OID &&
		ind->indrelid == RelationGetRelid(heap) &&
		ind->indisunique && ind->indnatts == ind->indnkeyatts &&
		ind->indnkeyatts >= 1 && ind->indnkeyatts <= INDEX_MAX_KEYS &&
		RelationGetIndexExpressions(index) == NIL &&
		RelationGetIndexPredicate(index) == NIL;
	for (int i = 0; ok && i < ind->indnkeyatts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(itupdesc, i);

		ok = ind->indkey.values[i] != 0 &&
			index->rd_opfamily[i] == INTEGER_BTREE_FAM_OID &&
			(index->rd_indoption[i] & INDOPTION_DESC) == 0 &&
			(att->atttypid == INT2OID || att->atttypid == INT4OID ||
			 att->atttypid == INT8OID);
		if (!ok)
			break;
		build->heap_attno[i] = ind->indkey.values[i];
		build->keylen[i] = att->attlen;
		build->keyalign[i] = att->attalign;
		/* where index_form_tuple() puts the column: no nulls, fixed width */
		off = att_align_nominal(off, att->attalign) + att->attlen;
	}
	if (!ok)
		elog(ERROR, "index \"%s\" cannot be built from ordered rows",
			 RelationGetRelationName(index));
	if (index->rd_createSubid != subid && PB_REL_FIRST_SUBID(index) != subid)
		elog(ERROR, "index \"%s\" was not created by this load",
			 RelationGetRelationName(index));
	smgr = RelationGetSmgr(index);
	if (smgrnblocks(smgr, MAIN_FORKNUM) != 1)
		elog(ERROR, "index \"%s\" is not empty",
			 RelationGetRelationName(index));

	/*
	 * Nothing but the metapage is there, written past shared buffers by
	 * the build on the empty table; should anything have read it into a
	 * buffer since, forget that copy, as the page is rewritten below.
	 */
	PB_DROP_RELATION_BUFFERS(smgr, &fork, 1, &first);

	build->index = index;
	build->nkeys = ind->indnkeyatts;
	build->tuplesz = MAXALIGN(off);
	build->inskey = _bt_mkscankey(index, NULL);
	build->inskey->allequalimage = _bt_allequalimage(index, false);
	build->use_wal = RelationNeedsWAL(index);
	build->sync = build->use_wal ||
		index->rd_rel->relpersistence == RELPERSISTENCE_UNLOGGED;
	build->next_alloc = BTREE_METAPAGE + 1;
	build->nwritten = 1;
	build->cxt = AllocSetContextCreate(CurrentMemoryContext,
									   "polarbench btree build",
									   ALLOCSET_DEFAULT_SIZES);
	build->run_max = Max(1, Min(max_run, PB_DIRECT_PAGES));
	build->run = MemoryContextAlloc(build->cxt,
									build->run_max * BLCKSZ + ALIGNOF_BUFFER);
	build->run = (char *) BUFFERALIGN(build->run);
	return build;
}

/*
 * Value of key column i of a row whose columns are values.
 */
static inline int64
pb_btree_key_value(PbBtreeBuild *build, int i, const Datum *values)
{
	Datum		d = values[build->heap_attno[i] - 1];

	switch (build->keylen[i])
	{
		case sizeof(int16):
			return DatumGetInt16(d);
		case sizeof(int32):
			return DatumGetInt32(d);
		default:
			return DatumGetInt64(d);
	}
}

/*
 * Add the row stored at heap TID tid, whose columns are values (in the
 * table's order, none of the key's null).  Keys must come in strictly
 * ascending order.
 */
void
pb_btree_add(PbBtreeBuild *build, const Datum *values, ItemPointer tid)
{
	union
	{
		IndexTupleData itup;
		char		data[MAXALIGN(sizeof(IndexTupleData)) +
						 INDEX_MAX_KEYS * sizeof(int64)];
		int64		align;
	}			buf;
	int64		key[INDEX_MAX_KEYS];
	Size		off = MAXALIGN(sizeof(IndexTupleData));
	int			cmp = build->tuples > 0 ? 0 : 1;
	MemoryContext oldcxt;

	for (int i = 0; i < build->nkeys; i++)
	{
		key[i] = pb_btree_key_value(build, i, values);
		if (cmp == 0 && key[i] != build->last_key[i])
			cmp = key[i] > build->last_key[i] ? 1 : -1;
	}
	if (cmp <= 0)
	{
		StringInfoData k;

		initStringInfo(&k);
		for (int i = 0; i < build->nkeys; i++)
			appendStringInfo(&k, "%s" INT64_FORMAT " after " INT64_FORMAT,
							 i > 0 ? ", " : "", key[i], build->last_key[i]);
		elog(ERROR, "key of index \"%s\" out of order: %s",
			 RelationGetRelationName(build->index), k.data);
	}
	memcpy(build->last_key, key, sizeof(int64) * build->nkeys);
	build->tuples++;

	/* what index_form_tuple() makes of fixed-width keys with no nulls */
	memset(&buf, 0, sizeof(buf));
	buf.itup.t_tid = *tid;
	buf.itup.t_info = (unsigned short) build->tuplesz;
	for (int i = 0; i < build->nkeys; i++)
	{
		off = att_align_nominal(off, build->keyalign[i]);
		switch (build->keylen[i])
		{
			case sizeof(int16):
				{
					int16		v = (int16) key[i];

					memcpy(buf.data + off, &v, sizeof(v));
					break;
				}
			case sizeof(int32):
				{
					int32		v = (int32) key[i];

					memcpy(buf.data + off, &v, sizeof(v));
					break;
				}
			default:
				memcpy(buf.data + off, &key[i], sizeof(int64));
				break;
		}
		off += build->keylen[i];
	}

	oldcxt = MemoryContextSwitchTo(build->cxt);
	if (build->leaf == NULL)
		build->leaf = pb_btree_new_level(build, 0);
	pb_btree_add_item(build, build->leaf, &buf.itup);
	MemoryContextSwitchTo(oldcxt);
}

/*
 * Add itup to the page being filled on level lev, finishing that page
 * first when it is full: its last item moves to a new page and becomes,
 * truncated on leaves, its high key; its low key goes up to the parent
 * level as the downlink to it.  (nbtsort.c's _bt_buildadd() rules.)
 */
static void
pb_btree_add_item(PbBtreeBuild *build, PbBtreeLevel *lev, IndexTuple itup)
{
	bool		isleaf = lev->level == 0;
	Size		itupsz = MAXALIGN(IndexTupleSize(itup));
	Size		pgspc = PageGetFreeSpace(lev->page);

	if (pgspc < itupsz + (isleaf ? MAXALIGN(sizeof(ItemPointerData)) : 0) ||
		(pgspc < lev->full && lev->lastoff > P_FIRSTKEY))
	{
		Page		opage = lev->page;
		BlockNumber oblkno = lev->blkno;
		ItemId		ii = PageGetItemId(opage, lev->lastoff);
		ItemId		hii = PageGetItemId(opage, P_HIKEY);
		IndexTuple	oitup = (IndexTuple) PageGetItem(opage, ii);

		lev->page = pb_btree_new_page(lev->level);
		lev->blkno = build->next_alloc++;
		pb_btree_put(lev->page, oitup, P_FIRSTKEY, !isleaf);

		/* the old page's last item becomes its high key */
		*hii = *ii;
		ItemIdSetUnused(ii);
		((PageHeader) opage)->pd_lower -= sizeof(ItemIdData);
		if (isleaf)
		{
			IndexTuple	lastleft;
			IndexTuple	truncated;

			lastleft = (IndexTuple)
				PageGetItem(opage, PageGetItemId(opage,
												 OffsetNumberPrev(lev->lastoff)));
			truncated = _bt_truncate(build->index, lastleft, oitup,
									 build->inskey);
			if (!PageIndexTupleOverwrite(opage, P_HIKEY, (Item) truncated,
										 IndexTupleSize(truncated)))
				elog(ERROR, "failed to add high key to index page");
			pfree(truncated);
			oitup = (IndexTuple) PageGetItem(opage,
											 PageGetItemId(opage, P_HIKEY));
		}

		/* the downlink to the old page, keyed by its low key */
		if (lev->parent == NULL)
			lev->parent = pb_btree_new_level(build, lev->level + 1);
		BTreeTupleSetDownLink(lev->lowkey, oblkno);
		pb_btree_add_item(build, lev->parent, lev->lowkey);
		pfree(lev->lowkey);
		lev->lowkey = CopyIndexTuple(oitup);

		BTPageGetOpaque(opage)->btpo_next = lev->blkno;
		BTPageGetOpaque(lev->page)->btpo_prev = oblkno;
		pb_btree_write(build, oblkno, opage);
		pfree(opage);
		lev->lastoff = P_FIRSTKEY;
	}

	if (lev->lastoff == P_HIKEY)
	{
		/* first item of the level: the leftmost page's low key is -inf */
		lev->lowkey = palloc0(sizeof(IndexTupleData));
		lev->lowkey->t_info = sizeof(IndexTupleData);
		BTreeTupleSetNAtts(lev->lowkey, 0, false);
	}
	lev->lastoff = OffsetNumberNext(lev->lastoff);
	pb_btree_put(lev->page, itup, lev->lastoff,
				 !isleaf && lev->lastoff == P_FIRSTKEY);
}

/*
 * A new level of the tree, its first page numbered now.
 */
static PbBtreeLevel *
pb_btree_new_level(PbBtreeBuild *build, uint32 level)
{
	PbBtreeLevel *lev = palloc0(sizeof(PbBtreeLevel));

	lev->page = pb_btree_new_page(level);
	lev->blkno = build->next_alloc++;
	lev->lastoff = P_HIKEY;
	lev->level = level;
	if (level > 0)
		lev->full = BLCKSZ * (100 - BTREE_NONLEAF_FILLFACTOR) / 100;
	else
		lev->full = BTGetTargetPageFreeSpace(build->index);
	return lev;
}

/*
 * An empty page of the given level, room kept for its high key's line
 * pointer (given back by the rightmost page of each level at the end).
 */
static Page
pb_btree_new_page(uint32 level)
{
	Page		page = palloc(BLCKSZ);
	BTPageOpaque opaque;

	_bt_pageinit(page, BLCKSZ);
	opaque = BTPageGetOpaque(page);
	opaque->btpo_prev = opaque->btpo_next = P_NONE;
	opaque->btpo_level = level;
	opaque->btpo_flags = level > 0 ? 0 : BTP_LEAF;
	opaque->btpo_cycleid = 0;
	((PageHeader) page)->pd_lower += sizeof(ItemIdData);
	return page;
}

/*
 * Put itup on page at offset off; as the first item of an inner page, only
 * its downlink (the key is minus infinity there).
 */
static void
pb_btree_put(Page page, IndexTuple itup, OffsetNumber off,
			 bool minus_infinity)
{
	IndexTupleData trunc;
	Size		size = IndexTupleSize(itup);

	if (minus_infinity)
	{
		trunc = *itup;
		trunc.t_info = sizeof(IndexTupleData);
		BTreeTupleSetNAtts(&trunc, 0, false);
		itup = &trunc;
		size = sizeof(IndexTupleData);
	}
	if (PageAddItem(page, (Item) itup, MAXALIGN(size), off, false,
					false) == InvalidOffsetNumber)
		elog(ERROR, "failed to add item to index page");
}

/*
 * Write page at block blkno: appended to the run of pages to write
 * together when it follows it, else after the run, or, for a block handed
 * out earlier and zero-filled meanwhile, right away over it.
 */
static void
pb_btree_write(PbBtreeBuild *build, BlockNumber blkno, Page page)
{
	if (build->run_len > 0 && build->run_len < build->run_max &&
		blkno == build->run_first + build->run_len)
	{
		memcpy(build->run + build->run_len * BLCKSZ, page, BLCKSZ);
		build->run_len++;
		return;
	}
	pb_btree_flush_run(build);
	if (blkno >= build->nwritten)
	{
		build->run_first = blkno;
		memcpy(build->run, page, BLCKSZ);
		build->run_len = 1;
	}
	else
		pb_write_pages(RelationGetSmgr(build->index), MAIN_FORKNUM,
					   build->use_wal, build->sync, false, blkno, 1, &page,
					   true);
}

/*
 * Write the run of pages, zero-filling first the blocks before it that are
 * handed out but not written yet (not WAL-logged: their real content is,
 * when they are written).
 */
static void
pb_btree_flush_run(PbBtreeBuild *build)
{
	Page		pages[PB_DIRECT_PAGES];
	int			i;

	if (build->run_len == 0)
		return;
	if (build->nwritten < build->run_first)
	{
		char	   *zero = palloc0(BLCKSZ);

		while (build->nwritten < build->run_first)
			smgrextend(RelationGetSmgr(build->index), MAIN_FORKNUM,
					   build->nwritten++, zero, true);
		pfree(zero);
	}
	for (i = 0; i < build->run_len; i++)
		pages[i] = (Page) (build->run + i * BLCKSZ);
	pb_write_pages(RelationGetSmgr(build->index), MAIN_FORKNUM,
				   build->use_wal, build->sync, true, build->run_first,
				   build->run_len, pages, true);
	build->nwritten = build->run_first + build->run_len;
	build->run_len = 0;
}

/*
 * Finish the build: write the last page of every level, linking it into
 * its parent, the top one becoming the root, then the metapage.  The
 * index stays open (locked) until the end of the transaction.
 */
void
pb_btree_end(PbBtreeBuild *build)
{
	MemoryContext oldcxt = MemoryContextSwitchTo(build->cxt);
	BlockNumber root = P_NONE;
	uint32		rootlevel = 0;
	PbBtreeLevel *lev;
	Page		meta;

	for (lev = build->leaf; lev != NULL; lev = lev->parent)
	{
		BTPageOpaque opaque = BTPageGetOpaque(lev->page);
		OffsetNumber off;
		OffsetNumber maxoff = PageGetMaxOffsetNumber(lev->page);

		if (lev->parent == NULL)
		{
			opaque->btpo_flags |= BTP_ROOT;
			root = lev->blkno;
			rootlevel = lev->level;
		}
		else
		{
			BTreeTupleSetDownLink(lev->lowkey, lev->blkno);
			pb_btree_add_item(build, lev->parent, lev->lowkey);
		}

		/* the rightmost page has no high key: slide its items left */
		for (off = P_FIRSTKEY; off <= maxoff; off = OffsetNumberNext(off))
			*PageGetItemId(lev->page, OffsetNumberPrev(off)) =
				*PageGetItemId(lev->page, off);
		((PageHeader) lev->page)->pd_lower -= sizeof(ItemIdData);
		pb_btree_write(build, lev->blkno, lev->page);
	}
	pb_btree_flush_run(build);

	if (build->leaf != NULL)
	{
		meta = palloc(BLCKSZ);
		_bt_initmetapage(meta, root, rootlevel, build->inskey->allequalimage);
		pb_write_pages(RelationGetSmgr(build->index), MAIN_FORKNUM,
					   build->use_wal, build->sync, false, BTREE_METAPAGE, 1,
					   &meta, true);
	}

	/* a metapage cached from before the build is stale */
	if (build->index->rd_amcache != NULL)
	{
		pfree(build->index->rd_amcache);
		build->index->rd_amcache = NULL;
	}
	MemoryContextSwitchTo(oldcxt);
	index_close(build->index, NoLock);
	MemoryContextDelete(build->cxt);
	pfree(build);
}
