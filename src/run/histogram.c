/*-------------------------------------------------------------------------
 *
 * histogram.c
 *	  Latency histograms: the bucket of a value, counting a value, and the
 *	  value at a percentile.
 *
 * Latencies are recorded in nanoseconds into log-linear buckets (see
 * run.h), so that a percentile is within 1/64 of its true value
 * whatever the scale, at a fixed cost of one array increment per
 * transaction.
 *
 * calls: nothing of polarbench's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "port/pg_bitutils.h"

#include "run.h"

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
 * pb_hist_bounds
 *		The values in nanoseconds a bucket holds: from *lower up to, not
 *		including, *upper.
 */
void
pb_hist_bounds(int bucket, uint64 *lower, uint64 *upper)
{
	int			shift;

	if (bucket < 2 * PB_HIST_SUB)
	{
		*lower = bucket;
		*upper = bucket + 1;
		return;
	}
	shift = (bucket - 2 * PB_HIST_SUB) / PB_HIST_SUB + 1;
	*lower = ((uint64) (PB_HIST_SUB + (bucket - 2 * PB_HIST_SUB) % PB_HIST_SUB)) << shift;
	*upper = *lower + ((uint64) 1 << shift);
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
