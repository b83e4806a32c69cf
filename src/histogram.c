/*-------------------------------------------------------------------------
 *
 * histogram.c
 *	  Latency histograms and the figures computed from client counters:
 *	  totals, per-interval progress, and a run's final summary with its
 *	  percentiles.
 *
 * Latencies are recorded in nanoseconds into log-linear buckets (see
 * polarbench.h), so that a percentile is within 1/64 of its true value
 * whatever the scale, at a fixed cost of one array increment per
 * transaction.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "port/pg_bitutils.h"

#include "polarbench.h"

/*
 * pb_hist_bucket
 *		Bucket index of a value in nanoseconds.
 */
static inline int
pb_hist_bucket(uint64 value)
{
	int			msb;
	int			shift;

	if (value < 2 * PB_HIST_SUB)
		return (int) value;
	msb = pg_leftmost_one_pos64(value);
	shift = msb - PB_HIST_SUB_BITS;
	if (shift > PB_HIST_MAX_SHIFT)
		return PB_HIST_BUCKETS - 1;
	return 2 * PB_HIST_SUB + (shift - 1) * PB_HIST_SUB +
		(int) ((value >> shift) - PB_HIST_SUB);
}

/*
 * pb_hist_value
 *		The middle of a bucket, in nanoseconds.
 */
static double
pb_hist_value(int bucket)
{
	int			shift;
	uint64		low;

	if (bucket < 2 * PB_HIST_SUB)
		return bucket;
	shift = (bucket - 2 * PB_HIST_SUB) / PB_HIST_SUB + 1;
	low = ((uint64) (PB_HIST_SUB + (bucket - 2 * PB_HIST_SUB) % PB_HIST_SUB)) << shift;
	return low + ((uint64) 1 << shift) / 2.0;
}

/*
 * pb_hist_add
 *		Count one value.  Only the owning client writes its histogram.
 */
void
pb_hist_add(uint64 *hist, int64 value_ns)
{
	hist[pb_hist_bucket(value_ns < 0 ? 0 : (uint64) value_ns)]++;
}

/*
 * pb_hist_percentile
 *		The value in nanoseconds below which the given fraction of count
 *		values fall.
 */
double
pb_hist_percentile(const uint64 *hist, int64 count, double fraction)
{
	uint64		rank;
	uint64		seen = 0;

	if (count <= 0)
		return 0;
	rank = (uint64) ceil(fraction * count);
	if (rank < 1)
		rank = 1;
	for (int i = 0; i < PB_HIST_BUCKETS; i++)
	{
		seen += hist[i];
		if (seen >= rank)
			return pb_hist_value(i);
	}
	return pb_hist_value(PB_HIST_BUCKETS - 1);
}

/*
 * pb_totals_read
 *		Sum the cumulative counters of every client.
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
		totals->transactions += pg_atomic_read_u64(&slot->transactions);
		totals->statements += pg_atomic_read_u64(&slot->statements);
		totals->failed += pg_atomic_read_u64(&slot->failed);
		totals->latency_sum_ns += pg_atomic_read_u64(&slot->latency_sum_ns);
		totals->latency_sumsq += d;
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
	summary->transactions = ok;
	summary->statements = to->statements - from->statements;
	summary->failed = failed;
	if (seconds > 0)
	{
		summary->tps = ok / seconds;
		summary->qps = summary->statements / seconds;
	}
	if (ok > 0)
	{
		double		sum = (to->latency_sum_ns - from->latency_sum_ns) / 1e6;
		double		sumsq = to->latency_sumsq - from->latency_sumsq;
		double		var;

		summary->latency_avg = sum / ok;
		var = sumsq / ok - summary->latency_avg * summary->latency_avg;
		summary->latency_stddev = var > 0 ? sqrt(var) : 0;
	}
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

	pb_totals_read(run, slots, &totals);
	pb_summary_interval(&zero, &totals, seconds, summary);

	merged = palloc0(sizeof(uint64) * PB_HIST_BUCKETS);
	for (int i = 0; i < run->nclients; i++)
	{
		PbClientSlot *slot = pb_slot(run, slots, i);
		uint64	   *hist = pb_slot_histogram(slot);
		int64		m = pg_atomic_read_u64(&slot->latency_max_ns);

		for (int b = 0; b < PB_HIST_BUCKETS; b++)
			merged[b] += hist[b];
		max_ns = Max(max_ns, m);
	}
	ok = totals.transactions - totals.failed;
	if (ok > 0)
	{
		summary->latency_p50 = pb_hist_percentile(merged, ok, 0.50) / 1e6;
		summary->latency_p95 = pb_hist_percentile(merged, ok, 0.95) / 1e6;
		summary->latency_p99 = pb_hist_percentile(merged, ok, 0.99) / 1e6;
		summary->latency_max = max_ns / 1e6;
		/* a bucket's middle may lie above the largest value seen */
		summary->latency_p50 = Min(summary->latency_p50, summary->latency_max);
		summary->latency_p95 = Min(summary->latency_p95, summary->latency_max);
		summary->latency_p99 = Min(summary->latency_p99, summary->latency_max);
	}
	pfree(merged);
}

/*
 * pb_progress_line
 *		pgbench's progress report line for one interval.
 */
void
pb_progress_line(char *buf, size_t len, double elapsed,
				 const PbRunSummary *interval)
{
	snprintf(buf, len,
			 "progress: %.1f s, %.1f tps, lat %.3f ms stddev %.3f, " INT64_FORMAT " failed",
			 elapsed, interval->tps, interval->latency_avg,
			 interval->latency_stddev, interval->failed);
}
