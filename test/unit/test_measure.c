/*-------------------------------------------------------------------------
 *
 * test_measure.c
 *	  Unit tests of the measurement library: the latency histogram's
 *	  buckets, its percentiles against the exact percentiles of known
 *	  inputs at every magnitude from a microsecond to a hundred seconds,
 *	  merging, and the rate limiter's Poisson schedule.
 *
 * Inputs come from a fixed seed, so the outcome never depends on luck.
 * Prints one line per failure and ends with "N passed, N failed".
 *
 *-------------------------------------------------------------------------
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_measure.h"
#include "unit_check.h"

#define NVALUES 20000


static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *) a;
	uint64_t	y = *(const uint64_t *) b;

	return x < y ? -1 : x > y;
}

/* The exact nearest-rank percentile of sorted values. */
static double
exact_percentile(const uint64_t *sorted, int n, double fraction)
{
	int64_t		rank = (int64_t) ceil(fraction * n);

	if (rank < 1)
		rank = 1;
	return (double) sorted[rank - 1];
}

/* every value lies in its bucket, buckets follow values, and tile the line */
static void
test_buckets(void)
{
	uint64_t	lower;
	uint64_t	upper;
	uint64_t	prev_upper = 0;
	int			bad = 0;

	for (int b = 0; b < PB_HIST_BUCKETS; b++)
	{
		pb_hist_bounds(b, &lower, &upper);
		if (lower != prev_upper || upper <= lower ||
			pb_hist_bucket(lower) != b || pb_hist_bucket(upper - 1) != b)
			bad++;
		/* no bucket wider than 1/64 of its lower bound, above the exact ones */
		if (lower >= 2 * PB_HIST_SUB && (double) (upper - lower) / lower > 1.0 / PB_HIST_SUB)
			bad++;
		prev_upper = upper;
	}
	check(bad == 0, "buckets: %d buckets do not tile the values", bad);
	check(pb_hist_bucket(0) == 0 && pb_hist_bucket(127) == 127,
		  "buckets: values below 128 ns are exact");
	check(pb_hist_bucket(UINT64_MAX) == PB_HIST_BUCKETS - 1,
		  "buckets: the largest value goes to the last bucket");
	/* 100 s is well inside the range */
	check(pb_hist_bucket(UINT64_C(100000000000)) < PB_HIST_BUCKETS - 1,
		  "buckets: 100 s is below the last bucket");
	check(pb_hist_value(5) == 5.0, "buckets: an exact bucket stands for its value");
}

/*
 * Percentiles of log-uniform values over [m, 10 m], for m from 1 us to
 * 10 s, against the exact ones: within 1%.
 */
static void
test_percentiles(void)
{
	static const double fractions[] = {0.0, 0.5, 0.9, 0.95, 0.99, 0.999, 1.0};
	uint64_t   *values = malloc(sizeof(uint64_t) * NVALUES);
	uint64_t   *hist = malloc(sizeof(uint64_t) * PB_HIST_BUCKETS);
	PbPrng		prng;

	pb_prng_seed(&prng, 42);
	for (double m = 1e3; m <= 1e10; m *= 10)
	{
		double		worst = 0;

		memset(hist, 0, sizeof(uint64_t) * PB_HIST_BUCKETS);
		for (int i = 0; i < NVALUES; i++)
		{
			values[i] = (uint64_t) (m * pow(10.0, pb_prng_double(&prng)));
			pb_hist_add(hist, (int64_t) values[i]);
		}
		qsort(values, NVALUES, sizeof(uint64_t), cmp_u64);
		check(pb_hist_count(hist) == NVALUES, "percentiles at %g ns: count", m);
		for (int f = 0; f < (int) (sizeof(fractions) / sizeof(fractions[0])); f++)
		{
			double		exact = exact_percentile(values, NVALUES, fractions[f]);
			double		got = pb_hist_percentile(hist, NVALUES, fractions[f]);
			double		err = fabs(got - exact) / exact;

			if (err > worst)
				worst = err;
			check(err <= 0.01, "percentile %g at %g ns: %g, exact %g (%.2f%% off)",
				  fractions[f], m, got, exact, 100 * err);
		}
		/* the error bound is the bucket's half-width: under 0.8% */
		check(worst <= 1.0 / (2 * PB_HIST_SUB), "percentiles at %g ns: worst error %.3f%%",
			  m, 100 * worst);
	}
	check(pb_hist_percentile(hist, 0, 0.5) == 0, "percentiles: none without values");

	/* one value: every percentile is it, within its bucket */
	memset(hist, 0, sizeof(uint64_t) * PB_HIST_BUCKETS);
	pb_hist_add(hist, 123456789);
	check(fabs(pb_hist_percentile(hist, 1, 0.5) - 123456789) / 123456789 < 0.008 &&
		  pb_hist_percentile(hist, 1, 0.5) == pb_hist_percentile(hist, 1, 1.0),
		  "percentiles: a single value");
	/* a negative latency (a clock step) counts as 0 */
	pb_hist_add(hist, -5);
	check(hist[0] == 1, "percentiles: a negative value counts as 0");
	free(values);
	free(hist);
}

/* merging two histograms is the histogram of both inputs */
static void
test_merge(void)
{
	uint64_t   *a = calloc(PB_HIST_BUCKETS, sizeof(uint64_t));
	uint64_t   *b = calloc(PB_HIST_BUCKETS, sizeof(uint64_t));
	uint64_t   *all = calloc(PB_HIST_BUCKETS, sizeof(uint64_t));
	uint64_t   *values = malloc(sizeof(uint64_t) * 2 * NVALUES);
	PbPrng		prng;
	int			same = 1;

	pb_prng_seed(&prng, 7);
	for (int i = 0; i < 2 * NVALUES; i++)
	{
		/* two different distributions: fast reads, slow writes */
		values[i] = i < NVALUES ? 50000 + pb_prng_u64(&prng) % 100000 :
			5000000 + pb_prng_u64(&prng) % 20000000;
		pb_hist_add(i < NVALUES ? a : b, (int64_t) values[i]);
		pb_hist_add(all, (int64_t) values[i]);
	}
	pb_hist_merge_into(a, b);
	for (int i = 0; i < PB_HIST_BUCKETS; i++)
		same &= (a[i] == all[i]);
	check(same, "merge: the merged histogram is that of all values");
	check(pb_hist_count(a) == 2 * NVALUES, "merge: counts add up");
	qsort(values, 2 * NVALUES, sizeof(uint64_t), cmp_u64);
	{
		double		exact = exact_percentile(values, 2 * NVALUES, 0.75);
		double		got = pb_hist_percentile(a, 2 * NVALUES, 0.75);

		check(fabs(got - exact) / exact <= 0.01,
			  "merge: p75 of the merge %g, exact %g", got, exact);
	}
	free(a);
	free(b);
	free(all);
	free(values);
}

/* the schedule: exponential gaps of the right mean, never backwards */
static void
test_throttle(void)
{
	PbThrottle	t;
	int64_t		prev;
	int			backwards = 0;
	double		sum = 0;
	double		sumsq = 0;
	int			n = 200000;
	double		mean;
	double		var;

	check(pb_poisson_delay(1000.0, 1.0) == 0, "throttle: a draw of 1 waits nothing");
	check(pb_poisson_delay(1000.0, exp(-1.0)) == 1000, "throttle: -log(u) * center");
	check(pb_poisson_delay(1000.0, exp(-2.0)) == 2000, "throttle: twice the center");

	/* 200 transactions per second: a mean gap of 5 ms */
	pb_throttle_init(&t, 200.0, 1000, 99);
	check(t.next_ns == 1000 && fabs(t.delay_ns - 5e6) < 1e-6, "throttle: starts at the run's start");
	prev = t.next_ns;
	for (int i = 0; i < n; i++)
	{
		int64_t		next = pb_throttle_next(&t);
		double		gap = (double) (next - prev);

		backwards += (next < prev);
		sum += gap;
		sumsq += gap * gap;
		prev = next;
	}
	mean = sum / n;
	var = sumsq / n - mean * mean;
	check(backwards == 0, "throttle: the schedule never goes back");
	check(fabs(mean - 5e6) / 5e6 < 0.01, "throttle: mean gap %g ns, want 5e6", mean);
	/* an exponential law's deviation equals its mean */
	check(fabs(sqrt(var) - 5e6) / 5e6 < 0.02, "throttle: gap deviation %g ns, want 5e6",
		  sqrt(var));
	/* so n transactions take about n / rate seconds */
	check(fabs((prev - 1000) / 1e9 - n / 200.0) / (n / 200.0) < 0.01,
		  "throttle: %d transactions scheduled over %g s", n, (prev - 1000) / 1e9);

	/* the same seed, the same schedule */
	{
		PbThrottle	u;
		PbThrottle	v;
		int			same = 1;

		pb_throttle_init(&u, 50.0, 0, 5);
		pb_throttle_init(&v, 50.0, 0, 5);
		for (int i = 0; i < 1000; i++)
			same &= (pb_throttle_next(&u) == pb_throttle_next(&v));
		check(same, "throttle: reproducible from its seed");
	}
}

int
main(void)
{
	test_buckets();
	test_percentiles();
	test_merge();
	test_throttle();
	return check_summary();
}
