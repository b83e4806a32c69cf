/*-------------------------------------------------------------------------
 *
 * page_write.c
 *	  Whole pages written straight to a relation's file, past shared
 *	  buffers, the way CREATE INDEX and CLUSTER write theirs; and the
 *	  visibility map of a heap whose pages are all frozen.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/visibilitymapdefs.h"
#include "access/xloginsert.h"
#include "storage/bufpage.h"
#include "storage/proc.h"
#include "storage/smgr.h"

#include "load.h"

/*
 * Write npages pages of smgr's fork, starting at block first, from pages[],
 * past shared buffers: appended to the file with extend, else over blocks
 * it already has.  With use_wal, each page is logged as a full-page image
 * before it is written; page_std says the pages have a standard layout
 * (their hole need not be logged).  With sync, the checkpointer is asked to
 * fsync what was written (once per batch and file segment), as it would be
 * for shared buffers; meanwhile the checkpoint's start is held back
 * (DELAY_CHKPT_START), so that no checkpoint can begin after our WAL
 * records yet miss the fsync request.
 */
void
pb_write_pages(SMgrRelation smgr, ForkNumber fork, bool use_wal, bool sync,
			   bool extend, BlockNumber first, int npages, Page *pages,
			   bool page_std)
{
	BlockNumber blknos[PB_DIRECT_PAGES];
	int			i;

	Assert(npages <= PB_DIRECT_PAGES);
	for (i = 0; i < npages; i++)
		blknos[i] = first + i;

	Assert((MyProc->delayChkptFlags & DELAY_CHKPT_START) == 0);
	PG_TRY();
	{
		MyProc->delayChkptFlags |= DELAY_CHKPT_START;
		if (use_wal)
			log_newpages(PB_SMGR_LOCATOR(smgr), fork, npages, blknos, pages,
						 page_std);
		for (i = 0; i < npages; i++)
		{
			bool		skip_fsync = !sync ||
			(i < npages - 1 && (blknos[i] + 1) % RELSEG_SIZE != 0);

			PageSetChecksumInplace(pages[i], blknos[i]);
			if (extend)
				smgrextend(smgr, fork, blknos[i], (char *) pages[i],
						   skip_fsync);
			else
				smgrwrite(smgr, fork, blknos[i], (char *) pages[i],
						  skip_fsync);
		}
	}
	PG_FINALLY();
	{
		MyProc->delayChkptFlags &= ~DELAY_CHKPT_START;
	}
	PG_END_TRY();
}

/*
 * Write the visibility map fork of a heap of nblocks pages, all of them
 * all-visible and all-frozen, creating the fork.  page is a scratch page.
 * use_wal and sync as for pb_write_pages().
 */
void
pb_write_visibility_map(SMgrRelation smgr, BlockNumber nblocks, bool use_wal,
						bool sync, Page page)
{
	/* two bits per heap block after the page header, as visibilitymap.c */
	BlockNumber per_vm_page = (BLCKSZ - MAXALIGN(SizeOfPageHeaderData)) * 4;

	if (nblocks == 0)
		return;
	if (!smgrexists(smgr, VISIBILITYMAP_FORKNUM))
		smgrcreate(smgr, VISIBILITYMAP_FORKNUM, false);
	for (BlockNumber vmblk = 0; vmblk * per_vm_page < nblocks; vmblk++)
	{
		BlockNumber first = vmblk * per_vm_page;
		BlockNumber count = Min(per_vm_page, nblocks - first);
		uint8	   *map;

		PageInit(page, BLCKSZ, 0);
		map = (uint8 *) PageGetContents(page);
		memset(map, 0xff, count / 4);
		if (count % 4)
			map[count / 4] = (uint8) ((1 << (2 * (count % 4))) - 1);
		/* the map is in the page's "hole": not a standard page */
		pb_write_pages(smgr, VISIBILITYMAP_FORKNUM, use_wal, sync, true,
					   vmblk, 1, &page, false);
	}
}
