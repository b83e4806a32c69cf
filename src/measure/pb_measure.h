/*-------------------------------------------------------------------------
 *
 * pb_measure.h
 *	  The backend-free measurement library: latency histograms and the
 *	  schedule of a rate-limited client, for the run engine, the
 *	  command-line client (which merges the histograms of several nodes)
 *	  and the unit tests.
 *
 * Like the script library, it uses no PostgreSQL header and never
 * allocates on the paths a client takes for each transaction.
 *
 * In layers, each file calling only those before it:
 *	 histogram.c, throttle.c (which draws from the script library's PbPrng).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_MEASURE_H
#define PB_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pb_script.h"

/* ---- latency histograms (histogram.c) ------------------------------------ */

/*
 * A histogram counts values in nanoseconds in log-linear buckets, as
 * HdrHistogram does: values below 2 * PB_HIST_SUB are exact; above, each
 * power of two is split into PB_HIST_SUB buckets, so that a bucket is at
 * most 1/PB_HIST_SUB of its lower bound wide and the middle of a bucket is
 * within 1/(2 * PB_HIST_SUB), under 0.8%, of any value in it.  The last
 * bucket starts at 2^(PB_HIST_MAX_SHIFT + PB_HIST_SUB_BITS) ns, some 4.9
 * hours, and holds everything longer.
 */
#define PB_HIST_SUB_BITS		6
#define PB_HIST_SUB				(1 << PB_HIST_SUB_BITS)
#define PB_HIST_MAX_SHIFT		38
#define PB_HIST_BUCKETS			(2 * PB_HIST_SUB + PB_HIST_MAX_SHIFT * PB_HIST_SUB)

/*
 * pb_hist_bucket
 *		Bucket index of a value in nanoseconds: a few instructions, no
 *		branch but the range checks, for the client's hot path.
 */
static inline int
pb_hist_bucket(uint64_t value)
{
	int			msb;
	int			shift;

	if (value < 2 * PB_HIST_SUB)
		return (int) value;
	msb = 63 - __builtin_clzll(value);
	shift = msb - PB_HIST_SUB_BITS;
	if (shift > PB_HIST_MAX_SHIFT)
		return PB_HIST_BUCKETS - 1;
	return 2 * PB_HIST_SUB + (shift - 1) * PB_HIST_SUB +
		(int) ((value >> shift) - PB_HIST_SUB);
}

/*
 * pb_hist_add
 *		Count one value.  A histogram has a single writer, so a plain
 *		increment suffices; readers may see it a moment late.
 */
static inline void
pb_hist_add(uint64_t *hist, int64_t value_ns)
{
	hist[pb_hist_bucket(value_ns < 0 ? 0 : (uint64_t) value_ns)]++;
}

extern void pb_hist_bounds(int bucket, uint64_t *lower, uint64_t *upper);
extern double pb_hist_value(int bucket);
extern double pb_hist_percentile(const uint64_t *hist, int64_t count,
								 double fraction);
extern uint64_t pb_hist_count(const uint64_t *hist);
extern void pb_hist_merge_into(uint64_t *dest, const uint64_t *src);

/* ---- the rate limiter's schedule (throttle.c) ---------------------------- */

/*
 * A client's schedule under a target rate: the start of each transaction
 * is drawn from a Poisson process, as pgbench -R does, so that latency is
 * measured from when a transaction should have started, not from when a
 * late client got to it (no coordinated omission).
 */
typedef struct PbThrottle
{
	double		delay_ns;		/* mean time between two starts */
	int64_t		next_ns;		/* the scheduled start of the next one */
	PbPrng		prng;			/* a stream of its own: scripts' draws stay the same */
} PbThrottle;

extern void pb_throttle_init(PbThrottle *t, double rate_per_second,
							 int64_t start_ns, uint64_t seed);
extern int64_t pb_poisson_delay(double center, double uniform);
extern int64_t pb_throttle_next(PbThrottle *t);

#endif							/* PB_MEASURE_H */
