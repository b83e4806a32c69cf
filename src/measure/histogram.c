/*-------------------------------------------------------------------------
 *
 * histogram.c
 *	  Latency histograms: a bucket's bounds and middle, the value at a
 *	  percentile, merging.  Counting a value is inline in pb_measure.h.
 *
 * A percentile is the middle of the bucket that holds the value of that
 * rank (nearest rank, as HdrHistogram's getValueAtPercentile), so it is
 * within 1/128 of the true value whatever the scale, at a fixed cost of
 * one array increment per transaction.
 *
 *-------------------------------------------------------------------------
 */
#include <math.h>

#include "pb_measure.h"

/*
 * pb_hist_bounds
 *		The values in nanoseconds a bucket holds: from *lower up to, not
 *		including, *upper.
 */
void
pb_hist_bounds(int bucket, uint64_t *lower, uint64_t *upper)
{
	int			shift;

	if (bucket < 2 * PB_HIST_SUB)
	{
		*lower = bucket;
		*upper = bucket + 1;
		return;
	}
	shift = (bucket - 2 * PB_HIST_SUB) / PB_HIST_SUB + 1;
	*lower = ((uint64_t) (PB_HIST_SUB + (bucket - 2 * PB_HIST_SUB) % PB_HIST_SUB)) << shift;
	*upper = *lower + ((uint64_t) 1 << shift);
}

/*
 * pb_hist_value
 *		The value a bucket stands for, in nanoseconds: the value itself in
 *		the exact buckets, the middle of the bucket above.
 */
double
pb_hist_value(int bucket)
{
	uint64_t	lower;
	uint64_t	upper;

	pb_hist_bounds(bucket, &lower, &upper);
	if (upper - lower == 1)
		return (double) lower;
	return lower + (upper - lower) / 2.0;
}

/*
 * pb_hist_percentile
 *		The value in nanoseconds of rank ceil(fraction * count) (at least 1)
 *		among count values; 0 when there are none.
 */
double
pb_hist_percentile(const uint64_t *hist, int64_t count, double fraction)
{
	uint64_t	rank;
	uint64_t	seen = 0;

	if (count <= 0)
		return 0;
	rank = (uint64_t) ceil(fraction * count);
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
 * pb_hist_count
 *		How many values a histogram holds.
 */
uint64_t
pb_hist_count(const uint64_t *hist)
{
	uint64_t	n = 0;

	for (int i = 0; i < PB_HIST_BUCKETS; i++)
		n += hist[i];
	return n;
}

/*
 * pb_hist_merge_into
 *		Add the counts of src to dest.
 */
void
pb_hist_merge_into(uint64_t *dest, const uint64_t *src)
{
	for (int i = 0; i < PB_HIST_BUCKETS; i++)
		dest[i] += src[i];
}
