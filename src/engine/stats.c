/*-------------------------------------------------------------------------
 *
 * stats.c
 *	  The figures of a run computed from its clients' counters: totals at
 *	  an instant, the figures of a progress interval, and a run's final
 *	  summary with its percentiles from the merged histograms.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "engine.h"

/*
 * pb_totals_read
 *		Sum the cumulative counters of every client: each counter figure,
 *		and the sums of latencies and lags.
 */
void
pb_totals_read(PbRunShared *run, char *slots, PbTotals *totals)
{
	memset(totals, 0, sizeof(PbTotals));
	for (int i = 0; i < run->nclients; i++)
	{
		PbClientSlot *slot = pb_slot(run, slots, i);
		uint64		sumsq = pg_atomic_read_u64(&slot->latency_sumsq);
		double		d;

		memcpy(&d, &sumsq, sizeof(d));
#define PB_TOTAL_ADD(name, type, nulls, counter, run, progress, live, program) \
		PB_FIG_IF(counter, totals->name += pg_atomic_read_u64(&slot->name);)
		PB_RUN_FIGURES(PB_TOTAL_ADD)
#undef PB_TOTAL_ADD
		totals->latency_sum_ns += pg_atomic_read_u64(&slot->latency_sum_ns);
		totals->latency_sumsq += d;
		totals->lag_sum_ns += pg_atomic_read_u64(&slot->lag_sum_ns);
	}
}

/*
 * pb_summary_interval
 *		Figures of the interval between two readings of the totals; the
 *		latency average and deviation are over the successful transactions
 *		of the interval, as pgbench's progress reports.
 */
void
pb_summary_interval(const PbTotals *from, const PbTotals *to,
					double seconds, PbRunSummary *summary)
{
	int64		done = to->transactions - from->transactions;
	int64		failed = to->failed - from->failed;
	int64		ok = done - failed;

	memset(summary, 0, sizeof(PbRunSummary));
	summary->seconds = seconds;
#define PB_INTERVAL_COUNT(name, type, nulls, counter, run, progress, live, program) \
	PB_FIG_IF(counter, summary->name = to->name - from->name;)
	PB_RUN_FIGURES(PB_INTERVAL_COUNT)
#undef PB_INTERVAL_COUNT
	/* the transactions that ended, less those that failed */
	summary->transactions = ok;
	if (seconds > 0)
	{
		summary->tps = ok / seconds;
		summary->qps = summary->statements / seconds;
	}
	if (ok > 0)
	{
		pb_latency_moments(ok, (to->latency_sum_ns - from->latency_sum_ns) / 1e6,
						   to->latency_sumsq - from->latency_sumsq,
						   &summary->latency_avg, &summary->latency_stddev);
		summary->lag_avg = (to->lag_sum_ns - from->lag_sum_ns) / 1e6 / ok;
	}
}

/*
 * pb_summary_percentiles
 *		Set the latency percentiles of a summary from the histogram of its
 *		count successful transactions, kept between the smallest and the
 *		largest latency seen when those are known (min_ns <= max_ns), since
 *		a bucket's middle may lie outside the values seen.
 */
void
pb_summary_percentiles(PbRunSummary *summary, const uint64 *hist, int64 count,
					   uint64 min_ns, uint64 max_ns)
{
	double		lo = min_ns <= max_ns ? min_ns / 1e6 : 0;
	double		hi = min_ns <= max_ns ? max_ns / 1e6 : HUGE_VAL;

#define PB_PCT(f) Max(Min(pb_hist_percentile(hist, count, (f)) / 1e6, hi), lo)
	if (count <= 0)
		return;
	summary->latency_p50 = PB_PCT(0.50);
	summary->latency_p90 = PB_PCT(0.90);
	summary->latency_p95 = PB_PCT(0.95);
	summary->latency_p99 = PB_PCT(0.99);
	summary->latency_p999 = PB_PCT(0.999);
	summary->latency_max = min_ns <= max_ns ? hi : PB_PCT(1.0);
	if (summary->pct > 0)
		summary->latency_pct = PB_PCT(summary->pct / 100.0);
#undef PB_PCT
}

/*
 * pb_summary_final
 *		Figures of a whole run, with percentiles from the merged histograms
 *		of every client.  Meant to be called once the clients have exited.
 */
void
pb_summary_final(PbRunShared *run, char *slots, double seconds,
				 PbRunSummary *summary)
{
	PbTotals	zero = {0};
	PbTotals	totals;
	uint64	   *merged;
	int64		ok;
	int64		max_ns = 0;
	uint64		min_ns = PG_UINT64_MAX;
	int64		lag_max_ns = 0;

	pb_totals_read(run, slots, &totals);
	pb_summary_interval(&zero, &totals, seconds, summary);

	merged = palloc0(sizeof(uint64) * PB_HIST_BUCKETS);
	pb_hist_merge(run, slots, -1, merged);
	for (int i = 0; i < run->nclients; i++)
	{
		PbClientSlot *slot = pb_slot(run, slots, i);

		max_ns = Max(max_ns, (int64) pg_atomic_read_u64(&slot->latency_max_ns));
		min_ns = Min(min_ns, pg_atomic_read_u64(&slot->latency_min_ns));
		lag_max_ns = Max(lag_max_ns, (int64) pg_atomic_read_u64(&slot->lag_max_ns));
	}
	ok = totals.transactions - totals.failed;
	if (ok > 0)
	{
		summary->latency_min = min_ns / 1e6;
		summary->latency_max = max_ns / 1e6;
		summary->lag_max = lag_max_ns / 1e6;
		/* counters only: no histogram, so no percentile */
		if (!run->counters_only)
			pb_summary_percentiles(summary, merged, ok, min_ns, max_ns);
	}
	pfree(merged);
}

/*
 * pb_hist_merge
 *		Sum the latency histograms of every client into merged: those of the
 *		transactions (command -1), or of one command.
 */
void
pb_hist_merge(PbRunShared *run, char *slots, int command, uint64 *merged)
{
	memset(merged, 0, sizeof(uint64) * PB_HIST_BUCKETS);
	for (int i = 0; i < run->nclients; i++)
	{
		PbClientSlot *slot = pb_slot(run, slots, i);
		uint64	   *hist = command < 0 ? pb_slot_histogram(slot) :
			pb_slot_command_histogram(run, slot, command);

		if (hist == NULL)
			continue;
		for (int b = 0; b < PB_HIST_BUCKETS; b++)
			merged[b] += hist[b];
	}
}

/*
 * pb_run_seconds
 *		How long a run was measured: from its start, after the warm-up, to
 *		the last client's finish (a client whose transaction was cut off
 *		finished at the end of the duration); 0 for a run that never
 *		started.
 */
double
pb_run_seconds(PbRunShared *run, char *slots)
{
	int64		finish = 0;

	for (int i = 0; i < run->nclients; i++)
		finish = Max(finish, pb_slot(run, slots, i)->finish_ns);
	if (run->start_ns > 0 && finish > run->measure_ns)
		return (finish - run->measure_ns) / 1e9;
	return 0;
}
