/*-------------------------------------------------------------------------
 *
 * page_writers.c
 *	  Idle workers of a parallel load write the pages the others fill.
 *
 * A loader worker spends about half its time building pages and half
 * writing them: logging them to WAL (compressing them, with
 * wal_compression) and copying them into the kernel.  When a parallel load
 * has fewer jobs left than workers (pgbench_accounts unpartitioned is one
 * job that takes nearly all the time), the workers without a job would
 * wait idle for the last one to finish.  Instead they become writers:
 * the worker still loading (the producer) hands its full batches of heap
 * pages over through a ring of page batches in the load's shared segment,
 * and goes on building the next pages while a writer logs and writes
 * these, on the other core.  When no writer is free, or the ring is full,
 * the producer writes the batch itself, as a serial load does.
 *
 * A batch names the relation file, fork and blocks it goes to.  Only the
 * producer's transaction can see the table, but the file is there for any
 * process to write, as the checkpointer and the startup process do; the
 * writer asks the checkpointer to fsync it, exactly as the producer would
 * have (pb_write_pages()).  The producer's transaction commits only after
 * its batches are written (pb_writer_wait_own(), before the table is
 * analyzed), so the WAL records of its pages precede its commit record.
 *
 * If the producer's transaction aborts, its files are unlinked: no writer
 * may write to them afterwards, or it would create them again, orphaned.
 * So on any exit path the producer first withdraws (pb_writer_withdraw()):
 * its batches still queued are dropped, and it waits until no writer is in
 * the middle of one of its batches.  A writer never waits for anything
 * while it holds a batch, and gives it back if it fails.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "storage/condition_variable.h"
#include "storage/ipc.h"
#include "storage/smgr.h"
#include "storage/spin.h"
#include "utils/wait_event.h"

#include "load.h"

/* Batches in the ring: 16 x 32 pages = 4 MB */
#define PB_WRITER_BATCHES		16

typedef enum PbBatchState
{
	PB_BATCH_FREE = 0,
	PB_BATCH_FILLING,			/* its producer copies pages into it */
	PB_BATCH_FILLED,			/* waiting for a writer */
	PB_BATCH_WRITING			/* a writer is writing it */
} PbBatchState;

typedef struct PbPageBatch
{
	PbBatchState state;
	int			producer;		/* worker number that filled it */
	uint64		seqno;			/* order of submission */
	PbRelLocator locator;
	ForkNumber	fork;
	BlockNumber first;
	int			npages;
	bool		use_wal;
	bool		sync;
	/* aligned as a page's header needs */
	char		pages[PB_DIRECT_PAGES * BLCKSZ] pg_attribute_aligned(MAXIMUM_ALIGNOF);
} PbPageBatch;

struct PbPageWriters
{
	slock_t		mutex;			/* protects what follows but the pages */
	int			nworkers;
	int			nloading;		/* workers not done with their jobs */
	int			nwriting;		/* workers in pb_writer_help() */
	uint64		next_seqno;
	ConditionVariable changed;	/* a batch was filled or written */
	bool		loading[PB_MAX_PARALLEL];	/* counted in nloading */
	bool		lost[PB_MAX_PARALLEL];	/* a batch of its was not written */
	PbPageBatch batches[PB_WRITER_BATCHES];
};

/* This process's part in the load */
static PbPageWriters *my_writers = NULL;
static int	my_index = -1;
static int	my_batch = -1;		/* batch this process is writing */

static void pb_writer_exit(int code, Datum arg);
static int	pb_writer_own_batches(PbPageWriters *w, int producer,
								  bool writing_only);
static bool pb_writer_wait(PbPageWriters *w, bool writing_only);
static void pb_writer_stop_loading(PbPageWriters *w);

/*
 * Room the ring takes in a load's segment; it must be BUFFERALIGN'ed.
 */
Size
pb_writer_size(void)
{
	return BUFFERALIGN(sizeof(PbPageWriters)) + ALIGNOF_BUFFER;
}

/*
 * Set up the ring in space (pb_writer_size() bytes) for nworkers workers,
 * all loading; returns it.
 */
PbPageWriters *
pb_writer_init(void *space, int nworkers)
{
	PbPageWriters *w = (PbPageWriters *) BUFFERALIGN(space);

	Assert(nworkers <= PB_MAX_PARALLEL);
	memset(w, 0, sizeof(PbPageWriters));
	SpinLockInit(&w->mutex);
	w->nworkers = nworkers;
	w->nloading = nworkers;
	memset(w->loading, true, sizeof(bool) * nworkers);
	ConditionVariableInit(&w->changed);
	return w;
}

/*
 * Take part in the ring set up in space, as worker number index: from now
 * on pb_write_pages_async() may hand pages over.  The exit callback
 * withdraws this worker's batches before its transaction's files can go.
 */
void
pb_writer_attach(void *space, int index)
{
	my_writers = (PbPageWriters *) BUFFERALIGN(space);
	my_index = index;
	before_shmem_exit(pb_writer_exit, (Datum) 0);
}

/*
 * Leave the ring for good, before the segment is unmapped, once this
 * worker's transaction is over.
 */
void
pb_writer_detach(void)
{
	my_writers = NULL;
}

/*
 * This worker loads no more: writers stop waiting for it.  Caller holds
 * the mutex.
 */
static void
pb_writer_stop_loading(PbPageWriters *w)
{
	if (w->loading[my_index])
	{
		w->loading[my_index] = false;
		w->nloading--;
	}
}

/*
 * Number of producer's batches in the ring (only those being written with
 * writing_only).  Caller holds the mutex.
 */
static int
pb_writer_own_batches(PbPageWriters *w, int producer, bool writing_only)
{
	int			n = 0;
	int			i;

	for (i = 0; i < PB_WRITER_BATCHES; i++)
	{
		PbPageBatch *b = &w->batches[i];

		if (b->producer == producer &&
			(b->state == PB_BATCH_WRITING ||
			 (!writing_only && b->state == PB_BATCH_FILLED)))
			n++;
	}
	return n;
}

/*
 * Write npages pages of smgr's fork from block first, as pb_write_pages()
 * does, but by an idle worker of the load when one is there and the ring
 * has room; the pages are copied, the caller may reuse them on return.
 */
void
pb_write_pages_async(SMgrRelation smgr, ForkNumber fork, bool use_wal,
					 bool sync, BlockNumber first, int npages, Page *pages)
{
	PbPageWriters *w = my_writers;
	PbPageBatch *batch = NULL;
	int			i;

	if (w != NULL)
	{
		SpinLockAcquire(&w->mutex);
		if (w->nwriting > 0)
		{
			for (i = 0; i < PB_WRITER_BATCHES; i++)
				if (w->batches[i].state == PB_BATCH_FREE)
				{
					batch = &w->batches[i];
					batch->state = PB_BATCH_FILLING;
					batch->producer = my_index;
					break;
				}
		}
		SpinLockRelease(&w->mutex);
	}
	if (batch == NULL)
	{
		pb_write_pages(smgr, fork, use_wal, sync, true, first, npages, pages,
					   true);
		return;
	}

	batch->locator = *PB_SMGR_LOCATOR(smgr);
	batch->fork = fork;
	batch->first = first;
	batch->npages = npages;
	batch->use_wal = use_wal;
	batch->sync = sync;
	for (i = 0; i < npages; i++)
		memcpy(batch->pages + i * BLCKSZ, pages[i], BLCKSZ);

	SpinLockAcquire(&w->mutex);
	batch->seqno = w->next_seqno++;
	batch->state = PB_BATCH_FILLED;
	SpinLockRelease(&w->mutex);
	ConditionVariableBroadcast(&w->changed);
}

/*
 * Wait until none of this worker's batches is in the ring (with
 * writing_only: none is being written), or, without writing_only, until a
 * writer lost one.  Returns whether one was lost.
 */
static bool
pb_writer_wait(PbPageWriters *w, bool writing_only)
{
	bool		lost;

	for (;;)
	{
		int			n;

		SpinLockAcquire(&w->mutex);
		n = pb_writer_own_batches(w, my_index, writing_only);
		lost = w->lost[my_index];
		SpinLockRelease(&w->mutex);
		/* withdrawing, wait for every write in progress, lost or not */
		if (n == 0 || (lost && !writing_only))
			break;
		/* timed: also serves exit paths, where a wakeup may come late */
		(void) ConditionVariableTimedSleep(&w->changed, 10,
										   PG_WAIT_EXTENSION);
	}
	ConditionVariableCancelSleep();
	return lost;
}

/*
 * Wait until the batches this worker handed over are written.
 */
void
pb_writer_wait_own(void)
{
	if (my_writers != NULL && pb_writer_wait(my_writers, false))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("a polarbench loader worker failed while writing pages of this worker")));
}

/*
 * This worker has no job left: write the others' batches until no worker
 * is loading any more.  Batches go out oldest first, so that files grow
 * mostly in order.
 */
void
pb_writer_help(void)
{
	PbPageWriters *w = my_writers;

	if (w == NULL)
		return;
	SpinLockAcquire(&w->mutex);
	pb_writer_stop_loading(w);
	w->nwriting++;
	SpinLockRelease(&w->mutex);
	ConditionVariableBroadcast(&w->changed);

	for (;;)
	{
		PbPageBatch *batch = NULL;
		bool		done;
		int			i;

		CHECK_FOR_INTERRUPTS();
		SpinLockAcquire(&w->mutex);
		for (i = 0; i < PB_WRITER_BATCHES; i++)
		{
			PbPageBatch *b = &w->batches[i];

			if (b->state == PB_BATCH_FILLED &&
				(batch == NULL || b->seqno < batch->seqno))
				batch = b;
		}
		if (batch != NULL)
		{
			batch->state = PB_BATCH_WRITING;
			my_batch = batch - w->batches;
		}
		done = batch == NULL && w->nloading == 0;
		SpinLockRelease(&w->mutex);

		if (done)
			break;
		if (batch == NULL)
		{
			ConditionVariableSleep(&w->changed, PG_WAIT_EXTENSION);
			continue;
		}
		ConditionVariableCancelSleep();

		{
			SMgrRelation smgr = PB_SMGROPEN(batch->locator);
			Page		pages[PB_DIRECT_PAGES];

			for (i = 0; i < batch->npages; i++)
				pages[i] = (Page) (batch->pages + i * BLCKSZ);
			pb_write_pages(smgr, batch->fork, batch->use_wal, batch->sync,
						   true, batch->first, batch->npages, pages, true);
		}

		SpinLockAcquire(&w->mutex);
		batch->state = PB_BATCH_FREE;
		my_batch = -1;
		SpinLockRelease(&w->mutex);
		ConditionVariableBroadcast(&w->changed);
	}
	ConditionVariableCancelSleep();

	SpinLockAcquire(&w->mutex);
	w->nwriting--;
	SpinLockRelease(&w->mutex);
}

/*
 * Make sure no writer touches this worker's files any more: drop its
 * queued batches, wait for those being written, give back the one it was
 * writing itself.  Runs before the transaction's files can be unlinked,
 * on every way out of the worker.
 */
static void
pb_writer_withdraw(void)
{
	PbPageWriters *w = my_writers;
	int			i;

	if (w == NULL)
		return;
	HOLD_INTERRUPTS();
	SpinLockAcquire(&w->mutex);
	pb_writer_stop_loading(w);
	if (my_batch >= 0)
	{
		/* a write of ours was cut short: its producer must fail */
		w->lost[w->batches[my_batch].producer] = true;
		w->batches[my_batch].state = PB_BATCH_FREE;
		my_batch = -1;
	}
	for (i = 0; i < PB_WRITER_BATCHES; i++)
		if (w->batches[i].producer == my_index &&
			(w->batches[i].state == PB_BATCH_FILLED ||
			 w->batches[i].state == PB_BATCH_FILLING))
			w->batches[i].state = PB_BATCH_FREE;
	SpinLockRelease(&w->mutex);
	ConditionVariableBroadcast(&w->changed);

	/* a lost batch does not matter any more: this worker is leaving */
	(void) pb_writer_wait(w, true);
	RESUME_INTERRUPTS();
}

/*
 * Exit callback of a worker taking part in the ring.
 */
static void
pb_writer_exit(int code, Datum arg)
{
	pb_writer_withdraw();
	my_writers = NULL;
}
