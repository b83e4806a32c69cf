/*-------------------------------------------------------------------------
 *
 * test_measure.c
 *	  Unit tests of the measurement library: the latency histogram's
 *	  buckets, its percentiles against the exact percentiles of known
 *	  inputs at every magnitude from a microsecond to a hundred seconds,
 *	  merging, the rate limiter's Poisson schedule, and the statistics that
 *	  compare runs against known answers: Student's t quantiles, Welch's t
 *	  on textbook data, batch means on a first-order autoregressive series
 *	  whose variance is known, the block bootstrap on a fixed seed, drift,
 *	  and the power calculation.
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
/*
 * A latency's average and deviation from its sums, as the run's figures and
 * each script's are made: pgbench's population deviation, none without
 * values, and 0 (not NaN) where rounding makes equal values' variance
 * negative.
 */
static void
test_moments(void)
{
	double		values[] = {1.5, 2.25, 7.0, 0.125, 3.0};
	double		sum = 0,
				sumsq = 0,
				mean,
				var = 0,
				avg,
				stddev;
	int			n = sizeof(values) / sizeof(values[0]);

	for (int i = 0; i < n; i++)
	{
		sum += values[i];
		sumsq += values[i] * values[i];
	}
	mean = sum / n;
	for (int i = 0; i < n; i++)
		var += (values[i] - mean) * (values[i] - mean) / n;
	pb_latency_moments(n, sum, sumsq, &avg, &stddev);
	check(fabs(avg - mean) < 1e-12 && fabs(stddev - sqrt(var)) < 1e-12,
		  "moments: the average and the population deviation of the values");
	pb_latency_moments(0, 0, 0, &avg, &stddev);
	check(avg == 0 && stddev == 0, "moments: none without values");
	sum = sumsq = 0;
	for (int i = 0; i < 3; i++)
	{
		sum += 0.1;
		sumsq += 0.1 * 0.1;
	}
	pb_latency_moments(3, sum, sumsq, &avg, &stddev);
	check(stddev == 0 && !isnan(stddev), "moments: equal values deviate by 0, never NaN");
}

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

/* Whether got is within rel (relative) of want. */
static bool
near(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want);
}

/* A draw of the standard normal law (Box-Muller), from prng. */
static double
normal_draw(PbPrng *prng)
{
	double		u1 = 1.0 - pb_prng_double(prng);
	double		u2 = pb_prng_double(prng);

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/*
 * A first-order autoregressive series: x[t] = mu + phi (x[t-1] - mu) + e,
 * e normal of deviation sigma, started from its stationary law.
 */
static void
ar1_series(PbPrng *prng, double *x, int n, double mu, double phi, double sigma)
{
	double		dev = normal_draw(prng) * sigma / sqrt(1 - phi * phi);

	for (int i = 0; i < n; i++)
	{
		dev = phi * dev + sigma * normal_draw(prng);
		x[i] = mu + dev;
	}
}

/* Student's t and the normal law against their tables (mpmath's values) */
static void
test_t_law(void)
{
	static const struct
	{
		double		df;
		double		q975;
		double		q80;
	}			table[] = {
		{1, 12.7062047361747, 1.37638192047117},
		{2, 4.30265272974946, 1.06066017177982},
		{3, 3.18244630528371, 0.978472312363304},
		{5, 2.57058183563632, 0.919543780240826},
		{10, 2.22813885198627, 0.879057828550589},
		{30, 2.04227245630124, 0.853767261471298},
		{100, 1.98397151852355, 0.845230424491016},
	};

	for (int i = 0; i < (int) (sizeof(table) / sizeof(table[0])); i++)
	{
		double		q = pb_t_quantile(0.975, table[i].df);

		check(near(q, table[i].q975, 1e-9), "t: quantile 0.975 at %g df is %.12g, want %.12g",
			  table[i].df, q, table[i].q975);
		check(near(pb_t_quantile(0.8, table[i].df), table[i].q80, 1e-9),
			  "t: quantile 0.8 at %g df", table[i].df);
		check(near(pb_t_quantile(0.025, table[i].df), -table[i].q975, 1e-9),
			  "t: quantile 0.025 at %g df is the negative of 0.975's", table[i].df);
		check(fabs(pb_t_cdf(table[i].q975, table[i].df) - 0.975) < 1e-12,
			  "t: the cdf at the 0.975 quantile at %g df", table[i].df);
	}
	/* Welch's degrees of freedom are not whole */
	check(near(pb_t_quantile(0.975, 2.5), 3.57465484200368, 1e-9), "t: 2.5 df");
	check(fabs(pb_t_cdf(2, 3) - 0.930337015720578) < 1e-12, "t: cdf(2) at 3 df");
	check(pb_t_cdf(0, 7) == 0.5 && pb_t_quantile(0.5, 7) == 0, "t: symmetric about 0");
	check(near(pb_normal_quantile(0.975), 1.95996398454005, 1e-12), "normal: quantile 0.975");
	check(near(pb_normal_quantile(0.8), 0.841621233572914, 1e-12), "normal: quantile 0.8");
	check(near(pb_t_quantile(0.975, INFINITY), 1.95996398454005, 1e-12),
		  "t: infinite degrees of freedom are the normal law");
	check(isnan(pb_t_quantile(0.975, 0)) && isnan(pb_t_cdf(1, -1)), "t: no law without degrees of freedom");
}

/*
 * Welch's t on the example data of Welch's t-test (Wikipedia, "Welch's
 * t-test", example 1): t = -2.4554, 24.9885 df, p = 0.02138; and the
 * ratios of runs on the log scale, against mpmath's answers.
 */
static void
test_welch(void)
{
	static const double a1[] = {27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
	21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4};
	static const double a2[] = {27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
	24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4};
	static const double runs_a[] = {100, 110, 105};
	static const double runs_b[] = {120, 125, 118};
	static const double one[] = {100};
	static const double cell[] = {100, 110, 121};
	static const double bad[] = {100, 0};
	static const double same_a[] = {1, 1};
	static const double same_b[] = {1.001, 1.001};
	static const double same_c[] = {5, 5, 5};
	PbEstimate e1,
				e2;
	double		se,
				df,
				t,
				q;
	double		center,
				low,
				high;
	PbRatio		r;

	check(pb_estimate_of(a1, 15, &e1) == PB_STAT_OK && pb_estimate_of(a2, 15, &e2) == PB_STAT_OK,
		  "welch: the samples' estimates");
	check(near(e1.mean, 20.82, 1e-12) && near(e2.mean, 22.9866666666667, 1e-12), "welch: the means");
	pb_welch(&e1, &e2, &se, &df);
	t = (e1.mean - e2.mean) / se;
	check(near(t, -2.45535639828600, 1e-10), "welch: t is %.12g, want -2.455356398286", t);
	check(near(df, 24.9885292902314, 1e-10), "welch: %.12g degrees of freedom, want 24.9885292902314", df);
	check(near(2 * pb_t_cdf(-fabs(t), df), 0.0213780014628671, 1e-8), "welch: p = 0.02138");
	q = pb_t_quantile(0.975, df);
	check(near(e2.mean - e1.mean - q * se, 0.349237066192405, 1e-9) &&
		  near(e2.mean - e1.mean + q * se, 3.98409626714093, 1e-9),
		  "welch: the difference's 95%% interval is 0.3492 to 3.9841");

	check(pb_ratio_of_runs(runs_a, 3, runs_b, 3, 0.95, &r) == PB_STAT_OK, "runs: three a side");
	check(near(r.ratio, 1.15291448083839, 1e-12) && near(r.low, 1.04597031600316, 1e-9) &&
		  near(r.high, 1.27079304239342, 1e-9) && near(r.df, 3.34555528788742, 1e-9),
		  "runs: ratio %.12g [%.12g, %.12g] at %.12g df", r.ratio, r.low, r.high, r.df);
	check(pb_verdict(&r, false, 0) == PB_VERDICT_FASTER && pb_verdict(&r, true, 0) == PB_VERDICT_SLOWER,
		  "runs: more throughput is faster, more latency slower");
	check(pb_ratio_of_runs(one, 1, runs_b, 3, 0.95, &r) == PB_STAT_OK &&
		  near(r.ratio, 1.20964450089633, 1e-12) && near(r.low, 1.04402441522153, 1e-9) &&
		  near(r.high, 1.40153793073723, 1e-9) && r.df == 2,
		  "runs: one against three takes the three's spread");
	check(pb_ratio_of_runs(one, 1, one, 1, 0.95, &r) == PB_STAT_TOO_FEW, "runs: one a side is too few");
	check(pb_ratio_of_runs(bad, 2, runs_b, 3, 0.95, &r) == PB_STAT_NOT_POSITIVE && isnan(r.low),
		  "runs: no log of zero");
	check(pb_ratio_of_runs(runs_a, 3, runs_a, 3, 0.95, &r) == PB_STAT_OK && r.ratio == 1 &&
		  r.low < 1 && r.high > 1 && pb_verdict(&r, false, 0) == PB_VERDICT_NO_DIFFERENCE,
		  "runs: a side against itself shows no difference");

	check(pb_log_interval(cell, 3, 0.95, &center, &low, &high) == PB_STAT_OK &&
		  near(center, 110, 1e-12) && near(low, 86.8095599979519, 1e-9) &&
		  near(high, 139.385569979683, 1e-9), "interval: a cell's geometric mean and its interval");
	check(pb_log_interval(cell, 1, 0.95, &center, &low, &high) == PB_STAT_TOO_FEW && isnan(center),
		  "interval: none of one value");

	/*
	 * No spread on a side: the issue's {1, 1} against {1.001, 1.001} once
	 * had the interval [1.001, 1.001], "faster", at infinite df
	 */
	check(pb_ratio_of_runs(same_a, 2, same_b, 2, 0.95, &r) == PB_STAT_NO_SPREAD &&
		  r.flat == (PB_FLAT_A | PB_FLAT_B) && near(r.ratio, 1.001, 1e-12) &&
		  isnan(r.low) && isnan(r.high) && pb_verdict(&r, false, 0) == PB_VERDICT_NONE,
		  "no spread: two sides of identical figures have no interval, no verdict");
	check(pb_ratio_of_runs(same_a, 2, runs_b, 3, 0.95, &r) == PB_STAT_NO_SPREAD &&
		  r.flat == PB_FLAT_A && isnan(r.low) && pb_verdict(&r, false, 0) == PB_VERDICT_NONE,
		  "no spread: one side of identical figures is enough to have none");
	check(pb_ratio_of_runs(runs_a, 3, same_c, 3, 0.95, &r) == PB_STAT_NO_SPREAD && r.flat == PB_FLAT_B,
		  "no spread: on side B");
	check(pb_ratio_of_runs(one, 1, same_c, 3, 0.95, &r) == PB_STAT_NO_SPREAD && r.flat == PB_FLAT_B &&
		  near(r.ratio, 0.05, 1e-12),
		  "no spread: one run against identical ones borrows no spread");
	check(pb_log_interval(same_c, 3, 0.95, &center, &low, &high) == PB_STAT_NO_SPREAD &&
		  near(center, 5, 1e-12) && isnan(low) && isnan(high),
		  "no spread: a cell of identical figures has its center, no interval");
	e1 = (PbEstimate) {1000, 0, 9, 10};
	e2 = (PbEstimate) {1100, 25, 9, 10};
	check(pb_ratio_of_means(&e1, &e2, 0.95, &r) == PB_STAT_NO_SPREAD && r.flat == PB_FLAT_A &&
		  near(r.ratio, 1.1, 1e-12) && isnan(r.low),
		  "no spread: a mean without variance has no interval");

	/* verdicts: within the threshold is equivalent, before faster */
	r.ratio = 1.02;
	r.low = 1.01;
	r.high = 1.03;
	check(pb_verdict(&r, false, 0.05) == PB_VERDICT_EQUIVALENT && pb_verdict(&r, false, 0) == PB_VERDICT_FASTER,
		  "verdict: equivalent within the threshold");
	r.low = 0.9;
	check(pb_verdict(&r, false, 0.05) == PB_VERDICT_NO_DIFFERENCE, "verdict: beyond the threshold");
	r.low = NAN;
	check(pb_verdict(&r, false, 0.05) == PB_VERDICT_NONE && pb_verdict_name(PB_VERDICT_NONE) == NULL,
		  "verdict: none without an interval");
	check(strcmp(pb_verdict_name(PB_VERDICT_NO_DIFFERENCE), "no difference shown") == 0,
		  "verdict: in words");
}

/*
 * Batch means on a first-order autoregressive series with phi = 0.8 and
 * unit innovations, whose mean's variance times n is 1 / (1 - phi)^2 = 25
 * (24.9989 at n = 100000); on white noise, 1, in batches of one; and the
 * 95% interval of a short correlated series covers the mean about 95% of
 * the time.
 */
static void
test_batch_means(void)
{
	int			n = 100000;
	double	   *x = malloc(sizeof(double) * n);
	double	   *w = malloc(sizeof(double) * n);
	PbBatchMeans bm;
	PbPrng		prng;
	int			covered = 0;
	int			reps = 1000;

	pb_prng_seed(&prng, 11);
	ar1_series(&prng, x, n, 50, 0.8, 1);
	check(pb_batch_means(x, NULL, n, PB_MIN_BATCHES, &bm) == PB_STAT_OK, "batch means: long AR(1)");
	check(bm.settled && bm.length > 1 && bm.autocorr <= PB_MAX_AUTOCORR,
		  "batch means: a correlated series takes longer batches (%d)", bm.length);
	check(near(bm.estimate.var * n, 24.9988888888889, 0.15),
		  "batch means: n var(mean) is %g, want 25 within 15%%", bm.estimate.var * n);
	check(near(bm.estimate.mean, 50, 0.01), "batch means: the mean");
	check(bm.used == bm.batches * bm.length && bm.used > n - bm.length, "batch means: the values used");

	ar1_series(&prng, x, n, 50, 0, 1);
	check(pb_batch_means(x, NULL, n, PB_MIN_BATCHES, &bm) == PB_STAT_OK && bm.length == 1,
		  "batch means: white noise in batches of one (%d)", bm.length);
	check(near(bm.estimate.var * n, 1, 0.05), "batch means: white noise, n var(mean) %g", bm.estimate.var * n);

	/* weights: a batch's mean weighs its values; no weight, no value */
	for (int i = 0; i < 20; i++)
	{
		x[i] = (i % 2) ? 3 : 1;
		w[i] = (i % 2) ? 3 : 1;
	}
	check(pb_batch_means(x, w, 20, 10, &bm) == PB_STAT_OK && near(bm.estimate.mean, 2.5, 1e-12),
		  "batch means: weighted");
	check(pb_batch_means(x, NULL, 9, 10, &bm) == PB_STAT_TOO_FEW, "batch means: too short");

	/* coverage of the 95% interval of the mean of 120 values, phi = 0.5 */
	for (int r = 0; r < reps; r++)
	{
		double		q;

		ar1_series(&prng, x, 120, 100, 0.5, 5);
		if (pb_batch_means(x, NULL, 120, PB_MIN_BATCHES, &bm) != PB_STAT_OK)
			continue;
		q = pb_t_quantile(0.975, bm.estimate.df);
		covered += fabs(bm.estimate.mean - 100) <= q * sqrt(bm.estimate.var);
	}
	check(covered >= 0.92 * reps && covered <= 0.98 * reps,
		  "batch means: the 95%% interval covered the mean %d times in %d", covered, reps);
	free(x);
	free(w);
}

/* drift: a rising series drifts by what its thirds say, a steady one not */
static void
test_drift(void)
{
	double		x[90];
	PbDrift		d;
	PbPrng		prng;

	pb_prng_seed(&prng, 5);
	/* from 1000 to 1200 over the run, with 1% noise */
	for (int i = 0; i < 90; i++)
		x[i] = 1000 + 200.0 * i / 89 + 10 * normal_draw(&prng);
	check(pb_drift(x, 90, 0.95, &d) == PB_STAT_OK && d.drifted && d.ratio.low > 1,
		  "drift: a rising series drifted");
	check(near(d.ratio.ratio, 1166.0 / 1033.0, 0.01), "drift: by its thirds, %g", d.ratio.ratio);
	for (int i = 0; i < 90; i++)
		x[i] = 1000 + 10 * normal_draw(&prng);
	check(pb_drift(x, 90, 0.95, &d) == PB_STAT_OK && !d.drifted && d.ratio.low < 1 && d.ratio.high > 1,
		  "drift: a steady series did not");
	check(pb_drift(x, 11, 0.95, &d) == PB_STAT_TOO_FEW, "drift: too short to tell");
	for (int i = 0; i < 90; i++)
		x[i] = 1000;
	check(pb_drift(x, 90, 0.95, &d) == PB_STAT_NO_SPREAD && !d.drifted,
		  "drift: a constant series has no spread to tell a drift from");
}

/* Make n intervals, each of count values near value_ns: a sparse histogram each. */
static PbIntervalHist *
make_intervals(PbPrng *prng, int n, int count, double value_ns, double noise, double drift)
{
	PbIntervalHist *iv = calloc(n, sizeof(PbIntervalHist));
	uint64_t   *hist = malloc(sizeof(uint64_t) * PB_HIST_BUCKETS);

	for (int i = 0; i < n; i++)
	{
		int			nz = 0;
		int		   *buckets;
		uint64_t   *counts;

		memset(hist, 0, sizeof(uint64_t) * PB_HIST_BUCKETS);
		for (int t = 0; t < count; t++)
			pb_hist_add(hist, (int64_t) (value_ns * (1 + drift * i) *
										 (noise > 0 ? exp(noise * normal_draw(prng)) : 1)));
		for (int b = 0; b < PB_HIST_BUCKETS; b++)
			nz += hist[b] > 0;
		buckets = malloc(sizeof(int) * nz);
		counts = malloc(sizeof(uint64_t) * nz);
		nz = 0;
		for (int b = 0; b < PB_HIST_BUCKETS; b++)
			if (hist[b] > 0)
			{
				buckets[nz] = b;
				counts[nz++] = hist[b];
			}
		iv[i].n = nz;
		iv[i].buckets = buckets;
		iv[i].counts = counts;
	}
	free(hist);
	return iv;
}

static void
free_intervals(PbIntervalHist *iv, int n)
{
	for (int i = 0; i < n; i++)
	{
		free((void *) iv[i].buckets);
		free((void *) iv[i].counts);
	}
	free(iv);
}

/*
 * The block bootstrap: every interval alike gives an exact answer (the
 * ratio of the two buckets' middles, however resampled); from a fixed
 * seed the same intervals give the same interval; identical sides show no
 * difference; latencies 10% longer show a ratio of about 1.10.
 */
static void
test_bootstrap(void)
{
	static const double fractions[] = {0.5, 0.95, 0.99};
	PbPrng		prng;
	PbIntervalHist *a;
	PbIntervalHist *b;
	PbBootSide	sa,
				sb;
	double		av[3],
				bv[3],
				av2[3],
				bv2[3];
	PbRatio		r[3],
				r2[3];
	int			block;
	bool		same = true;

	pb_prng_seed(&prng, 17);
	/* every interval alike: 1 ms against 1.1 ms */
	a = make_intervals(&prng, 20, 100, 1e6, 0, 0);
	b = make_intervals(&prng, 20, 100, 1.1e6, 0, 0);
	sa = (PbBootSide) {a, 20, 2, 10};
	sb = (PbBootSide) {b, 20, 2, 10};
	check(pb_bootstrap_percentiles(&sa, &sb, fractions, 3, PB_BOOTSTRAP_RESAMPLES,
								   PB_BOOTSTRAP_SEED, 0.95, av, bv, r) == PB_STAT_OK,
		  "bootstrap: constant intervals");
	check(av[0] == pb_hist_value(pb_hist_bucket(1000000)) && bv[2] == pb_hist_value(pb_hist_bucket(1100000)),
		  "bootstrap: the percentiles are the buckets'");
	check(r[1].ratio == bv[1] / av[1] && isnan(r[1].low) && isnan(r[1].high) &&
		  r[1].flat == (PB_FLAT_A | PB_FLAT_B) && pb_verdict(&r[1], true, 0) == PB_VERDICT_NONE,
		  "bootstrap: constant intervals have no spread, no interval, no verdict (%.6f)", r[1].ratio);
	check(near(r[0].ratio, 1.1, 0.01), "bootstrap: and it is 1.1 (%.4f)", r[0].ratio);
	free_intervals(a, 20);
	free_intervals(b, 20);

	/* 60 noisy intervals a side, the same law */
	a = make_intervals(&prng, 60, 200, 2e5, 0.5, 0);
	b = make_intervals(&prng, 60, 200, 2e5, 0.5, 0);
	check(pb_bootstrap_block(a, 60, fractions, 3, &block) == PB_STAT_OK && block >= 1 && block <= 6,
		  "bootstrap: a block length from the data (%d)", block);
	sa = (PbBootSide) {a, 60, block, 60 / block};
	check(pb_bootstrap_block(b, 60, fractions, 3, &block) == PB_STAT_OK, "bootstrap: b's block");
	sb = (PbBootSide) {b, 60, block, 60 / block};
	check(pb_bootstrap_percentiles(&sa, &sb, fractions, 3, PB_BOOTSTRAP_RESAMPLES,
								   PB_BOOTSTRAP_SEED, 0.95, av, bv, r) == PB_STAT_OK &&
		  pb_bootstrap_percentiles(&sa, &sb, fractions, 3, PB_BOOTSTRAP_RESAMPLES,
								   PB_BOOTSTRAP_SEED, 0.95, av2, bv2, r2) == PB_STAT_OK,
		  "bootstrap: twice from the same seed");
	for (int f = 0; f < 3; f++)
		same &= r[f].low == r2[f].low && r[f].high == r2[f].high && av[f] == av2[f];
	check(same, "bootstrap: the same seed, the same intervals");
	for (int f = 0; f < 3; f++)
		check(r[f].low < 1 && r[f].high > 1 && r[f].low > 0.8 && r[f].high < 1.25,
			  "bootstrap: the same law shows no difference at p%g: [%.4f, %.4f]",
			  100 * fractions[f], r[f].low, r[f].high);
	check(pb_bootstrap_percentiles(&sa, &sb, fractions, 3, PB_BOOTSTRAP_RESAMPLES,
								   PB_BOOTSTRAP_SEED + 1, 0.95, av2, bv2, r2) == PB_STAT_OK &&
		  (r2[2].low != r[2].low || r2[2].high != r[2].high) && av2[2] == av[2],
		  "bootstrap: another seed resamples otherwise, from the same point");
	free_intervals(b, 60);

	/* latencies 10% longer */
	b = make_intervals(&prng, 60, 200, 2.2e5, 0.5, 0);
	sb.intervals = b;
	check(pb_bootstrap_percentiles(&sa, &sb, fractions, 3, PB_BOOTSTRAP_RESAMPLES,
								   PB_BOOTSTRAP_SEED, 0.95, av, bv, r) == PB_STAT_OK,
		  "bootstrap: 10% longer");
	check(r[0].low > 1 && r[0].high < 1.2 && near(r[0].ratio, 1.1, 0.04),
		  "bootstrap: p50 10%% longer: %.4f [%.4f, %.4f]", r[0].ratio, r[0].low, r[0].high);
	check(pb_verdict(&r[0], true, 0) == PB_VERDICT_SLOWER, "bootstrap: longer latency is slower");
	check(r[0].flat == 0 && r[1].flat == 0 && r[2].flat == 0, "bootstrap: noisy sides spread");

	/* a side whose every interval is alike against a noisy one */
	free_intervals(b, 60);
	b = make_intervals(&prng, 60, 200, 2.2e5, 0, 0);
	sb.intervals = b;
	check(pb_bootstrap_percentiles(&sa, &sb, fractions, 3, PB_BOOTSTRAP_RESAMPLES,
								   PB_BOOTSTRAP_SEED, 0.95, av, bv, r) == PB_STAT_OK &&
		  r[0].flat == PB_FLAT_B && isnan(r[0].low) && pb_verdict(&r[0], true, 0) == PB_VERDICT_NONE,
		  "bootstrap: a side alike in every resample has no spread: no interval, no verdict");

	/* too few blocks */
	sb.blocks = 1;
	sb.block = 60;
	check(pb_bootstrap_percentiles(&sa, &sb, fractions, 3, 10, 1, 0.95, av, bv, r) == PB_STAT_TOO_FEW,
		  "bootstrap: a side of one block is too few");
	check(pb_bootstrap_block(a, 9, fractions, 3, &block) == PB_STAT_TOO_FEW,
		  "bootstrap: nine intervals are too few");
	free_intervals(a, 60);
	free_intervals(b, 60);
}

/* the power calculation against mpmath's answers */
static void
test_power(void)
{
	check(pb_runs_needed(0.1, 0.1, 0.95, 0.8, 10000) == 17, "power: sd 0.1, a difference of 0.1: 17 runs");
	check(pb_runs_needed(0.05, -0.02, 0.95, 0.8, 10000) == 100, "power: sd 0.05, a difference of 0.02: 100 runs");
	check(pb_runs_needed(0.05, 0.02, 0.95, 0.8, 50) == -1, "power: more than the limit");
	check(pb_runs_needed(0, 0.02, 0.95, 0.8, 50) == 0 && pb_runs_needed(0.1, 0, 0.95, 0.8, 50) == 0,
		  "power: nothing to say without spread or difference");
	check(near(pb_length_factor(0.05, 0.05, 0.95, 0.8), 7.84887973434909, 1e-9),
		  "power: runs 7.85 times as long");
	check(isnan(pb_length_factor(0.05, 0, 0.95, 0.8)), "power: no length for no difference");
}

/* the charts: texts from outside escaped, series and intervals drawn */
static void
test_chart(void)
{
	PbText		t;
	double		x[3] = {1, 2, 4};
	double		y[3] = {10, 20, 15};
	double		low[3] = {9, NAN, 14};
	double		high[3] = {11, NAN, 16};
	PbChartSeries s = {.label = "<b>set</b> & \"1\"", .x = x, .y = y, .n = 3,
	.low = low, .high = high};
	PbChartPanel p = {.title = "title <i>", .x_label = "clients", .y_label = "tps",
	.series = &s, .nseries = 1, .x_log2 = true, .x_at_points = true};

	pb_text_init(&t);
	pb_text_escaped(&t, "<script>alert('1')</script> & \"x\"");
	check(strcmp(t.data, "&lt;script&gt;alert(&#39;1&#39;)&lt;/script&gt; &amp; &quot;x&quot;") == 0,
		  "chart: a text escaped, got %s", t.data);
	free(t.data);

	pb_text_init(&t);
	pb_chart_svg(&t, "<chart>", &p, 1, false);
	check(!t.failed && strncmp(t.data, "<svg class=\"chart\"", 18) == 0, "chart: an inline SVG");
	check(strstr(t.data, "<chart>") == NULL && strstr(t.data, "&lt;chart&gt;") != NULL &&
		  strstr(t.data, "title &lt;i&gt;") != NULL, "chart: its titles escaped");
	check(strstr(t.data, "<polyline class=\"series\" data-label=\"&lt;b&gt;set&lt;/b&gt; &amp; &quot;1&quot;\"") != NULL,
		  "chart: a series with its label escaped");
	check(strstr(t.data, "<path class=\"interval\"") != NULL &&
		  strstr(strstr(t.data, "<path class=\"interval\"") + 1, "<path class=\"interval\"") != NULL &&
		  strstr(strstr(strstr(t.data, "<path class=\"interval\"") + 1, "<path class=\"interval\"") + 1,
				 "<path class=\"interval\"") == NULL,
		  "chart: an interval for each point that has one (two of three)");
	check(strstr(t.data, ">1</text>") != NULL && strstr(t.data, ">4</text>") != NULL,
		  "chart: a tick at each client count");
	free(t.data);

	pb_text_init(&t);
	pb_chart_svg(&t, "file", &p, 1, true);
	check(strncmp(t.data, "<?xml version=\"1.0\"", 19) == 0, "chart: a file of its own");
	free(t.data);
}

int
main(void)
{
	test_buckets();
	test_percentiles();
	test_merge();
	test_moments();
	test_throttle();
	test_t_law();
	test_welch();
	test_batch_means();
	test_drift();
	test_bootstrap();
	test_power();
	test_chart();
	return check_summary();
}
