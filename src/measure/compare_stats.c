/*-------------------------------------------------------------------------
 *
 * compare_stats.c
 *	  The statistics that compare runs: Student's t law (its distribution
 *	  function and quantiles), Welch's t with the Welch-Satterthwaite
 *	  degrees of freedom, batch means whose batch length is chosen from the
 *	  data, a block bootstrap of latency percentiles with a fixed seed,
 *	  whether a run's throughput drifted, and how many runs would show a
 *	  difference (the power calculation).
 *
 * Every ratio is of B to A and is worked on the log scale, where a ratio
 * is a difference and a run twice as fast weighs as much as one half as
 * fast: the interval of a ratio is exp() of the interval of a difference
 * of logs.  Throughput and latency are positive, and their spread grows
 * with their size, which the log scale also evens out.
 *
 * The methods, and what they assume:
 *	- runs as the unit (pb_ratio_of_runs): each run's figure is one
 *	  independent value; Welch's t on their logs allows the two sides
 *	  different spreads.  With one run on a side, that side's spread is
 *	  taken to be the other's (Student's t with the other side's degrees
 *	  of freedom).
 *	- one run a side (pb_batch_means, pb_ratio_of_means): the run's
 *	  progress intervals after its warm-up are a stationary series;
 *	  consecutive intervals are correlated, so they are grouped in batches
 *	  long enough that the batch means are nearly uncorrelated (lag-1
 *	  autocorrelation at most PB_MAX_AUTOCORR), and the batch means are
 *	  the sample.  The ratio's interval is the delta method's on the log
 *	  scale, with Welch-Satterthwaite degrees of freedom.
 *	- percentiles of one run a side (pb_bootstrap_percentiles): a
 *	  percentile of a run is no mean, so it is resampled: blocks of
 *	  consecutive intervals (their latency histograms merged), drawn with
 *	  replacement as the run's batches, a side at a time, from a fixed
 *	  seed; the interval is the percentiles' 2.5% and 97.5% of the
 *	  resampled log ratios.
 *
 * A side whose values do not vary (all the same figure, every batch mean
 * the same, every resample the same percentile) has no spread to make an
 * interval of: its spread is not zero but too small to see, and an
 * interval from the other side alone, or a point for interval, would claim
 * more than the runs show.  So there is then no interval (NO_SPREAD, and
 * PbRatio.flat names the side), and no verdict.  Values that are all the
 * same may come out of the arithmetic a rounding apart, so a spread below
 * PB_NO_SPREAD of the values is none.
 *
 * Nothing here allocates but the scratch of batch means and of the
 * bootstrap, with malloc(), freed before returning; no function exits or
 * jumps: each returns a PbStatStatus.
 *
 *-------------------------------------------------------------------------
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pb_measure.h"

#ifndef Min
#define Min(a, b)	((a) < (b) ? (a) : (b))
#endif

#ifndef M_SQRT2
#define M_SQRT2 1.41421356237309504880
#endif

/* Beyond these degrees of freedom Student's t is the normal law, to 1e-7 */
#define PB_T_NORMAL_DF			1e7

/*
 * A spread below this share of the values is the rounding of sums of equal
 * values (a few units in the last place of a double), not spread: no figure
 * a run records has twelve significant digits of its own
 */
#define PB_NO_SPREAD			1e-12

/* ---- Student's t law --------------------------------------------------- */

/*
 * pb_normal_cdf
 *		The standard normal law's distribution function at x.
 */
double
pb_normal_cdf(double x)
{
	return 0.5 * erfc(-x / M_SQRT2);
}

/*
 * beta_fraction
 *		The continued fraction of the regularized incomplete beta function
 *		I_x(a, b), 1 / (1 + d1 / (1 + d2 / (1 + ...))), by Lentz's method;
 *		it converges fast for x < (a + 1) / (a + b + 2).
 */
static double
beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double		f = 1.0;
	double		c = 1.0;
	double		d = 0.0;

	for (int j = 1; j <= 1000; j++)
	{
		int			m = j / 2;
		double		dj;
		double		delta;

		if (j % 2 == 1)
			dj = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		else
			dj = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1.0 + dj * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1.0 + dj / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1.0 / d;
		delta = c * d;
		f *= delta;
		if (fabs(delta - 1.0) < 1e-15)
			break;
	}
	return 1.0 / f;
}

/*
 * incomplete_beta
 *		The regularized incomplete beta function I_x(a, b), for a, b > 0
 *		and x in [0, 1].
 */
static double
incomplete_beta(double a, double b, double x)
{
	double		front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(a * log(x) + b * log1p(-x) - (lgamma(a) + lgamma(b) - lgamma(a + b)));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1.0 - front * beta_fraction(b, a, 1.0 - x) / b;
}

/*
 * pb_t_cdf
 *		Student's t law's distribution function at t with df degrees of
 *		freedom (df > 0; INFINITY, or very many, is the normal law).
 */
double
pb_t_cdf(double t, double df)
{
	double		tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (df > PB_T_NORMAL_DF)
		return pb_normal_cdf(t);
	if (isinf(t))
		return t > 0 ? 1.0 : 0.0;
	/* P(T > |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) / 2 */
	tail = 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1.0 - tail : tail;
}

/*
 * solve_cdf
 *		The x at which cdf(x, df) = p, for an increasing cdf, by bracketing
 *		and bisection to the last bits of a double.
 */
static double
solve_cdf(double (*cdf) (double, double), double p, double df)
{
	double		lo = -1.0;
	double		hi = 1.0;

	while (cdf(lo, df) > p && lo > -1e300)
		lo *= 2;
	while (cdf(hi, df) < p && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < 2000; i++)
	{
		double		mid = lo + (hi - lo) / 2;

		if (mid <= lo || mid >= hi)
			break;
		if (cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

/* The normal law's cdf in solve_cdf()'s shape. */
static double
normal_cdf_df(double x, double df)
{
	return pb_normal_cdf(x);
}

/*
 * pb_normal_quantile
 *		The standard normal law's quantile of p, in (0, 1).
 */
double
pb_normal_quantile(double p)
{
	if (!(p > 0 && p < 1))
		return p == 0 ? -INFINITY : p == 1 ? INFINITY : NAN;
	if (p == 0.5)
		return 0;
	/* symmetric: solve in the lower half, where the cdf keeps its digits */
	if (p > 0.5)
		return -solve_cdf(normal_cdf_df, 1.0 - p, 0);
	return solve_cdf(normal_cdf_df, p, 0);
}

/*
 * pb_t_quantile
 *		Student's t law's quantile of p, in (0, 1), with df degrees of
 *		freedom (any df > 0, not only whole numbers, as Welch's t has them).
 */
double
pb_t_quantile(double p, double df)
{
	if (!(p > 0 && p < 1) || !(df > 0))
		return p == 0 ? -INFINITY : p == 1 ? INFINITY : NAN;
	if (df > PB_T_NORMAL_DF)
		return pb_normal_quantile(p);
	if (p == 0.5)
		return 0;
	if (p > 0.5)
		return -solve_cdf(pb_t_cdf, 1.0 - p, df);
	return solve_cdf(pb_t_cdf, p, df);
}

/* ---- means, Welch's t, ratios ------------------------------------------ */

/*
 * pb_estimate_of
 *		The mean of n values, with the variance of that mean (s^2 / n) and
 *		its n - 1 degrees of freedom.  TOO_FEW under two values.
 */
PbStatStatus
pb_estimate_of(const double *x, int n, PbEstimate *e)
{
	double		sum = 0;
	double		ss = 0;

	memset(e, 0, sizeof(*e));
	e->n = n;
	if (n < 1)
		return PB_STAT_TOO_FEW;
	for (int i = 0; i < n; i++)
		sum += x[i];
	e->mean = sum / n;
	if (n < 2)
		return PB_STAT_TOO_FEW;
	for (int i = 0; i < n; i++)
		ss += (x[i] - e->mean) * (x[i] - e->mean);
	e->var = ss / (n - 1) / n;
	e->df = n - 1;
	return PB_STAT_OK;
}

/*
 * pb_welch
 *		The standard error of the difference of two independent means, and
 *		its Welch-Satterthwaite degrees of freedom: (va + vb)^2 /
 *		(va^2 / dfa + vb^2 / dfb).  INFINITY degrees of freedom when the
 *		variances are exact or both zero.
 */
void
pb_welch(const PbEstimate *a, const PbEstimate *b, double *se, double *df)
{
	double		v = a->var + b->var;
	double		denom = 0;

	*se = sqrt(v);
	if (a->var > 0 && !isinf(a->df))
		denom += a->var * a->var / a->df;
	if (b->var > 0 && !isinf(b->df))
		denom += b->var * b->var / b->df;
	*df = denom > 0 ? v * v / denom : INFINITY;
}

/*
 * ratio_from_log
 *		The ratio exp(diff) with its interval, at level, for a difference
 *		of logs with standard error se and df degrees of freedom.
 */
static void
ratio_from_log(double diff, double se, double df, double level, PbRatio *r)
{
	double		q = se > 0 ? pb_t_quantile(1 - (1 - level) / 2, df) : 0;

	r->ratio = exp(diff);
	r->low = exp(diff - q * se);
	r->high = exp(diff + q * se);
	r->se = se;
	r->df = df;
}

/* The mean of the logs of n values, and their sum of squared deviations. */
static void
log_moments(const double *x, int n, double *mean, double *ss)
{
	double		sum = 0;

	for (int i = 0; i < n; i++)
		sum += log(x[i]);
	*mean = sum / n;
	*ss = 0;
	for (int i = 0; i < n; i++)
		*ss += (log(x[i]) - *mean) * (log(x[i]) - *mean);
}

/* Whether every one of n values is a finite number above zero. */
static bool
all_positive(const double *x, int n)
{
	for (int i = 0; i < n; i++)
		if (!(x[i] > 0) || isinf(x[i]))
			return false;
	return true;
}

/*
 * pb_ratio_of_runs
 *		Runs as the unit: the ratio of the geometric means of b's values
 *		and a's, and its interval at level, by Welch's t on the logs.  With
 *		a single value on one side, that side is taken to spread as the
 *		other (Student's t, the other side's degrees of freedom).  NO_SPREAD,
 *		the ratio without an interval, when a side of two or more values
 *		has them all the same.
 */
PbStatStatus
pb_ratio_of_runs(const double *a, int na, const double *b, int nb,
				 double level, PbRatio *r)
{
	double		ma,
				mb,
				ssa,
				ssb;

	memset(r, 0, sizeof(*r));
	r->low = r->high = r->ratio = NAN;
	if (na < 1 || nb < 1 || (na < 2 && nb < 2))
		return PB_STAT_TOO_FEW;
	if (!all_positive(a, na) || !all_positive(b, nb))
		return PB_STAT_NOT_POSITIVE;
	log_moments(a, na, &ma, &ssa);
	log_moments(b, nb, &mb, &ssb);
	/* the logs' spread is the values' relative spread */
	r->flat = (na >= 2 && sqrt(ssa / (na - 1)) < PB_NO_SPREAD ? PB_FLAT_A : 0) |
		(nb >= 2 && sqrt(ssb / (nb - 1)) < PB_NO_SPREAD ? PB_FLAT_B : 0);
	if (r->flat != 0)
	{
		r->ratio = exp(mb - ma);
		return PB_STAT_NO_SPREAD;
	}
	if (na >= 2 && nb >= 2)
	{
		PbEstimate	ea = {ma, ssa / (na - 1) / na, na - 1, na};
		PbEstimate	eb = {mb, ssb / (nb - 1) / nb, nb - 1, nb};
		double		se,
					df;

		pb_welch(&ea, &eb, &se, &df);
		ratio_from_log(mb - ma, se, df, level, r);
	}
	else
	{
		/* one side has one run: the other side's spread for both */
		int			n = na >= 2 ? na : nb;
		double		s2 = (na >= 2 ? ssa : ssb) / (n - 1);

		ratio_from_log(mb - ma, sqrt(s2 * (1.0 + 1.0 / n)), n - 1, level, r);
	}
	return PB_STAT_OK;
}

/*
 * pb_ratio_of_means
 *		The ratio of two independent means b / a with its interval at
 *		level, on the log scale by the delta method: the variance of
 *		log(mean) is var / mean^2, and the degrees of freedom are Welch's.
 *		NO_SPREAD, the ratio without an interval, when a mean has no
 *		variance.
 */
PbStatStatus
pb_ratio_of_means(const PbEstimate *a, const PbEstimate *b, double level,
				  PbRatio *r)
{
	PbEstimate	ra;
	PbEstimate	rb;
	double		se,
				df;

	memset(r, 0, sizeof(*r));
	r->low = r->high = r->ratio = NAN;
	if (!(a->mean > 0) || !(b->mean > 0) || isinf(a->mean) || isinf(b->mean))
		return PB_STAT_NOT_POSITIVE;
	r->flat = (sqrt(a->var) < PB_NO_SPREAD * a->mean ? PB_FLAT_A : 0) |
		(sqrt(b->var) < PB_NO_SPREAD * b->mean ? PB_FLAT_B : 0);
	if (r->flat != 0)
	{
		r->ratio = b->mean / a->mean;
		return PB_STAT_NO_SPREAD;
	}
	ra = *a;
	rb = *b;
	ra.var = a->var / (a->mean * a->mean);
	rb.var = b->var / (b->mean * b->mean);
	pb_welch(&ra, &rb, &se, &df);
	ratio_from_log(log(b->mean / a->mean), se, df, level, r);
	return PB_STAT_OK;
}

/*
 * pb_log_interval
 *		The geometric mean of n values and its interval at level, Student's
 *		t on their logs: what a sweep's cell shows of its repetitions.
 *		NO_SPREAD, the mean without an interval, when the values are all
 *		the same.
 */
PbStatStatus
pb_log_interval(const double *x, int n, double level, double *center,
				double *low, double *high)
{
	double		m,
				ss,
				se,
				q;

	*center = *low = *high = NAN;
	if (n < 2)
		return PB_STAT_TOO_FEW;
	if (!all_positive(x, n))
		return PB_STAT_NOT_POSITIVE;
	log_moments(x, n, &m, &ss);
	*center = exp(m);
	if (sqrt(ss / (n - 1)) < PB_NO_SPREAD)
		return PB_STAT_NO_SPREAD;
	se = sqrt(ss / (n - 1) / n);
	q = pb_t_quantile(1 - (1 - level) / 2, n - 1);
	*low = exp(m - q * se);
	*high = exp(m + q * se);
	return PB_STAT_OK;
}

/*
 * pb_verdict
 *		What an interval says: equivalent when it lies within 1 +-
 *		threshold (a threshold of 0 or less asks nothing of the kind);
 *		else faster or slower when it leaves 1 out, on the side that is
 *		better for the figure (lower for latencies); else no difference
 *		shown.  No verdict without an interval.
 */
PbVerdict
pb_verdict(const PbRatio *r, bool lower_is_better, double threshold)
{
	if (isnan(r->low) || isnan(r->high))
		return PB_VERDICT_NONE;
	if (threshold > 0 && r->low >= 1 - threshold && r->high <= 1 + threshold)
		return PB_VERDICT_EQUIVALENT;
	if (r->low > 1)
		return lower_is_better ? PB_VERDICT_SLOWER : PB_VERDICT_FASTER;
	if (r->high < 1)
		return lower_is_better ? PB_VERDICT_FASTER : PB_VERDICT_SLOWER;
	return PB_VERDICT_NO_DIFFERENCE;
}

/*
 * pb_verdict_name
 *		A verdict in words, as polarbench_compare() shows it; NULL for none.
 */
const char *
pb_verdict_name(PbVerdict v)
{
	switch (v)
	{
		case PB_VERDICT_FASTER:
			return "faster";
		case PB_VERDICT_SLOWER:
			return "slower";
		case PB_VERDICT_NO_DIFFERENCE:
			return "no difference shown";
		case PB_VERDICT_EQUIVALENT:
			return "equivalent";
		case PB_VERDICT_NONE:
			break;
	}
	return NULL;
}

/* ---- batch means ------------------------------------------------------- */

/*
 * pb_autocorr
 *		The lag-1 autocorrelation of n values: the covariance of
 *		neighbours over the variance; 0 for a constant series (one whose
 *		spread is only the rounding of its mean).
 */
double
pb_autocorr(const double *x, int n)
{
	double		mean = 0;
	double		num = 0;
	double		den = 0;

	if (n < 2)
		return 0;
	for (int i = 0; i < n; i++)
		mean += x[i];
	mean /= n;
	for (int i = 0; i < n; i++)
	{
		den += (x[i] - mean) * (x[i] - mean);
		if (i + 1 < n)
			num += (x[i] - mean) * (x[i + 1] - mean);
	}
	return den > n * (PB_NO_SPREAD * mean) * (PB_NO_SPREAD * mean) ? num / den : 0;
}

/*
 * make_batches
 *		The means of the batches of length values of x[from, from + count)
 *		(weighted by w when not NULL: a batch's mean is then sum(w x) /
 *		sum(w), and a batch of no weight is left out) into out; returns how
 *		many.
 */
static int
make_batches(const double *x, const double *w, int from, int count,
			 int length, double *out)
{
	int			k = 0;

	for (int start = from; start + length <= from + count; start += length)
	{
		double		sum = 0;
		double		weight = 0;

		for (int i = start; i < start + length; i++)
		{
			double		wi = w ? w[i] : 1.0;

			if (!(wi > 0))
				continue;
			sum += wi * x[i];
			weight += wi;
		}
		if (weight > 0)
			out[k++] = sum / weight;
	}
	return k;
}

/*
 * corrected_autocorr
 *		The lag-1 autocorrelation r of k values, less its bias: a short
 *		series' estimate falls short of the truth by about (1 + 4 r) / k
 *		(Marriott and Pope), enough to pass a correlated series for an
 *		uncorrelated one.
 */
static double
corrected_autocorr(double r, int k)
{
	return k > 0 ? r + (1 + 4 * fmax(r, 0)) / k : r;
}

/* The next batch length to try: at most one in ten longer, at least one. */
static int
next_length(int length)
{
	int			next = (int) floor(length * 1.1);

	return next > length ? next : length + 1;
}

/*
 * choose_length
 *		The shortest batch length up to max_length (tried 1, 2, 3, ... then
 *		a tenth longer each time) at which the lag-1 autocorrelation of the
 *		batch means of the last values of x is at most PB_MAX_AUTOCORR; the
 *		longest tried when none is (*settled false).  scratch holds n
 *		values.
 */
static int
choose_length(const double *x, const double *w, int n, int max_length,
			  double *scratch, double *autocorr, bool *settled)
{
	int			best = 1;

	*settled = false;
	*autocorr = 0;
	for (int m = 1; m <= max_length; m = next_length(m))
	{
		int			k = n / m;
		int			nb = make_batches(x, w, n - k * m, k * m, m, scratch);

		best = m;
		*autocorr = corrected_autocorr(pb_autocorr(scratch, nb), nb);
		if (*autocorr <= PB_MAX_AUTOCORR)
		{
			*settled = true;
			break;
		}
	}
	return best;
}

/*
 * inflate_for_autocorr
 *		What correlation is left between batch means (r, at most 0.9 of
 *		it) makes their mean vary more than their spread says: by (1 + r) /
 *		(1 - r), as the mean of a first-order autoregressive series.
 */
static void
inflate_for_autocorr(PbEstimate *e, double r)
{
	if (r > 0.9)
		r = 0.9;
	if (r > 0)
		e->var *= (1 + r) / (1 - r);
}

/*
 * pb_batch_means
 *		Batch means of n values (weighted by w when not NULL): the batch
 *		length chosen from the data, the shortest at which the batch means
 *		are nearly uncorrelated with at least min_batches batches, and the
 *		mean of the batch means (weighted, of the values used) with the
 *		variance of that mean, from the batch means' spread.  The first
 *		values are left out when n is no multiple of the length, as the
 *		ones nearest the warm-up.  TOO_FEW with fewer than min_batches
 *		values (or batches of any weight).
 */
PbStatStatus
pb_batch_means(const double *x, const double *w, int n, int min_batches,
			   PbBatchMeans *bm)
{
	double	   *scratch;
	int			k;

	memset(bm, 0, sizeof(*bm));
	if (min_batches < 2)
		min_batches = 2;
	if (n < min_batches)
		return PB_STAT_TOO_FEW;
	scratch = malloc(sizeof(double) * n);
	if (scratch == NULL)
		return PB_STAT_NO_MEMORY;
	bm->length = choose_length(x, w, n, n / min_batches, scratch,
							   &bm->autocorr, &bm->settled);
	k = n / bm->length;
	bm->used = k * bm->length;
	bm->batches = make_batches(x, w, n - bm->used, bm->used, bm->length, scratch);
	if (bm->batches < 2 || pb_estimate_of(scratch, bm->batches, &bm->estimate) != PB_STAT_OK)
	{
		free(scratch);
		return PB_STAT_TOO_FEW;
	}
	free(scratch);
	inflate_for_autocorr(&bm->estimate, bm->autocorr);

	/* weighted, the mean is that of every value used, by its weight */
	if (w != NULL)
	{
		double		sum = 0;
		double		weight = 0;

		for (int i = n - bm->used; i < n; i++)
			if (w[i] > 0)
			{
				sum += w[i] * x[i];
				weight += w[i];
			}
		bm->estimate.mean = sum / weight;
	}
	return PB_STAT_OK;
}

/*
 * pb_drift
 *		Whether a series (a run's throughput, interval by interval) drifted:
 *		its last third's mean against its first third's, each from batch
 *		means, with the ratio's interval at level.  The batch length is
 *		chosen from the whole series less its straight-line trend (a trend
 *		would make any batch look correlated), with at least four batches
 *		in a third.  TOO_FEW under twelve values.
 */
PbStatStatus
pb_drift(const double *x, int n, double level, PbDrift *d)
{
	int			third = n / 3;
	double	   *resid;
	double	   *scratch;
	double		tmean = (n - 1) / 2.0;
	double		xmean = 0;
	double		sxy = 0;
	double		sxx = 0;
	double		slope;
	double		autocorr;
	bool		settled;
	PbEstimate	first;
	PbEstimate	last;
	int			k;
	PbStatStatus status;

	memset(d, 0, sizeof(*d));
	d->ratio.ratio = d->ratio.low = d->ratio.high = NAN;
	if (third < 4)
		return PB_STAT_TOO_FEW;
	resid = malloc(sizeof(double) * n);
	scratch = malloc(sizeof(double) * n);
	if (resid == NULL || scratch == NULL)
	{
		free(resid);
		free(scratch);
		return PB_STAT_NO_MEMORY;
	}
	for (int i = 0; i < n; i++)
		xmean += x[i];
	xmean /= n;
	for (int i = 0; i < n; i++)
	{
		sxy += (i - tmean) * (x[i] - xmean);
		sxx += (i - tmean) * (i - tmean);
	}
	slope = sxy / sxx;
	for (int i = 0; i < n; i++)
		resid[i] = x[i] - xmean - slope * (i - tmean);
	d->length = choose_length(resid, NULL, n, third / 4, scratch, &autocorr, &settled);

	/* the first third from its start, the last up to the series' end */
	k = make_batches(x, NULL, 0, third, d->length, scratch);
	status = pb_estimate_of(scratch, k, &first);
	if (status == PB_STAT_OK)
	{
		k = make_batches(x, NULL, n - (third / d->length) * d->length,
						 (third / d->length) * d->length, d->length, scratch);
		status = pb_estimate_of(scratch, k, &last);
	}
	inflate_for_autocorr(&first, autocorr);
	inflate_for_autocorr(&last, autocorr);
	free(resid);
	free(scratch);
	if (status != PB_STAT_OK)
		return status;
	d->batches = k;
	d->first = first.mean;
	d->last = last.mean;
	status = pb_ratio_of_means(&first, &last, level, &d->ratio);
	if (status != PB_STAT_OK)
		return status;
	d->drifted = d->ratio.low > 1 || d->ratio.high < 1;
	return PB_STAT_OK;
}

/* ---- the block bootstrap of percentiles --------------------------------- */

/*
 * sparse_percentile
 *		The value in nanoseconds at fraction of one interval's histogram
 *		(buckets in ascending order), as pb_hist_percentile() reads a whole
 *		one; NAN for an empty interval.
 */
static double
sparse_percentile(const PbIntervalHist *h, double fraction)
{
	uint64_t	count = 0;
	uint64_t	rank;
	uint64_t	seen = 0;

	for (int i = 0; i < h->n; i++)
		count += h->counts[i];
	if (count == 0)
		return NAN;
	rank = (uint64_t) ceil(fraction * count);
	if (rank < 1)
		rank = 1;
	for (int i = 0; i < h->n; i++)
	{
		seen += h->counts[i];
		if (seen >= rank)
			return pb_hist_value(h->buckets[i]);
	}
	return pb_hist_value(h->buckets[h->n - 1]);
}

/*
 * pb_bootstrap_block
 *		The block length of a side's bootstrap, in intervals: the longest of
 *		the batch lengths chosen (as pb_batch_means() chooses them) for the
 *		series of each interval's percentiles, and long enough that there
 *		are at most PB_BOOTSTRAP_MAX_BLOCKS blocks.  TOO_FEW with fewer than
 *		PB_MIN_BATCHES intervals that hold any transaction.
 */
PbStatStatus
pb_bootstrap_block(const PbIntervalHist *intervals, int n,
				   const double *fractions, int nfractions, int *block)
{
	double	   *series = malloc(sizeof(double) * (n + 1));
	double	   *scratch = malloc(sizeof(double) * (n + 1));
	int			longest = (n + PB_BOOTSTRAP_MAX_BLOCKS - 1) / PB_BOOTSTRAP_MAX_BLOCKS;

	*block = 0;
	if (series == NULL || scratch == NULL)
	{
		free(series);
		free(scratch);
		return PB_STAT_NO_MEMORY;
	}
	for (int f = 0; f < nfractions; f++)
	{
		int			m = 0;
		double		autocorr;
		bool		settled;
		int			length;

		for (int i = 0; i < n; i++)
		{
			double		v = sparse_percentile(&intervals[i], fractions[f]);

			if (!isnan(v))
				series[m++] = v;
		}
		if (m < PB_MIN_BATCHES)
		{
			free(series);
			free(scratch);
			return PB_STAT_TOO_FEW;
		}
		length = choose_length(series, NULL, m, m / PB_MIN_BATCHES, scratch,
							   &autocorr, &settled);
		if (length > longest)
			longest = length;
	}
	free(series);
	free(scratch);
	if (longest < 1)
		longest = 1;
	*block = longest;
	return PB_STAT_OK;
}

/* A side's blocks, each its intervals' histograms merged, sparse */
typedef struct BootBlocks
{
	int			n;
	int		   *sizes;			/* non-empty buckets of each block */
	int		  **buckets;
	uint64_t  **counts;
} BootBlocks;

/* Free what make_blocks() took. */
static void
free_blocks(BootBlocks *b)
{
	for (int j = 0; j < b->n; j++)
	{
		if (b->buckets)
			free(b->buckets[j]);
		if (b->counts)
			free(b->counts[j]);
	}
	free(b->sizes);
	free(b->buckets);
	free(b->counts);
	memset(b, 0, sizeof(*b));
}

/*
 * make_blocks
 *		Merge a side's last blocks * block intervals into its blocks, and
 *		all of them into whole (a dense histogram, zeroed here); dense is
 *		scratch of PB_HIST_BUCKETS.  False when out of memory.
 */
static bool
make_blocks(const PbBootSide *side, BootBlocks *out, uint64_t *whole,
			uint64_t *dense)
{
	int			first = side->n - side->blocks * side->block;

	memset(out, 0, sizeof(*out));
	memset(whole, 0, sizeof(uint64_t) * PB_HIST_BUCKETS);
	out->sizes = calloc(side->blocks, sizeof(int));
	out->buckets = calloc(side->blocks, sizeof(int *));
	out->counts = calloc(side->blocks, sizeof(uint64_t *));
	if (out->sizes == NULL || out->buckets == NULL || out->counts == NULL)
		return false;
	out->n = side->blocks;
	for (int j = 0; j < side->blocks; j++)
	{
		int			nz = 0;

		memset(dense, 0, sizeof(uint64_t) * PB_HIST_BUCKETS);
		for (int i = first + j * side->block; i < first + (j + 1) * side->block; i++)
			for (int k = 0; k < side->intervals[i].n; k++)
			{
				int			bucket = side->intervals[i].buckets[k];

				if (bucket >= 0 && bucket < PB_HIST_BUCKETS)
					dense[bucket] += side->intervals[i].counts[k];
			}
		for (int bucket = 0; bucket < PB_HIST_BUCKETS; bucket++)
			nz += dense[bucket] > 0;
		out->buckets[j] = malloc(sizeof(int) * (nz + 1));
		out->counts[j] = malloc(sizeof(uint64_t) * (nz + 1));
		if (out->buckets[j] == NULL || out->counts[j] == NULL)
			return false;
		nz = 0;
		for (int bucket = 0; bucket < PB_HIST_BUCKETS; bucket++)
			if (dense[bucket] > 0)
			{
				out->buckets[j][nz] = bucket;
				out->counts[j][nz++] = dense[bucket];
				whole[bucket] += dense[bucket];
			}
		out->sizes[j] = nz;
	}
	return true;
}

/*
 * resample
 *		One resample of a side: as many blocks as it has, drawn with
 *		replacement, merged into hist (zeroed here); returns its count.
 */
static uint64_t
resample(const BootBlocks *blocks, PbPrng *prng, uint64_t *hist)
{
	uint64_t	count = 0;

	memset(hist, 0, sizeof(uint64_t) * PB_HIST_BUCKETS);
	for (int j = 0; j < blocks->n; j++)
	{
		int			pick = (int) pb_rand_uniform(prng, 0, blocks->n - 1);

		for (int k = 0; k < blocks->sizes[pick]; k++)
		{
			hist[blocks->buckets[pick][k]] += blocks->counts[pick][k];
			count += blocks->counts[pick][k];
		}
	}
	return count;
}

/* Order doubles, for qsort(). */
static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a;
	double		y = *(const double *) b;

	return x < y ? -1 : x > y;
}

/* The p quantile of n sorted values, interpolated between neighbours. */
static double
sorted_quantile(const double *v, int n, double p)
{
	double		at = p * (n - 1);
	int			i = (int) floor(at);

	if (i >= n - 1)
		return v[n - 1];
	return v[i] + (at - i) * (v[i + 1] - v[i]);
}

/*
 * pb_bootstrap_percentiles
 *		The ratio b / a of each percentile (fractions) of two runs'
 *		latencies, with its interval at level by a block bootstrap: each
 *		side's last blocks * block intervals, merged block by block, are
 *		resampled (as many blocks, with replacement) resamples times from
 *		seed, a side independently of the other, and the interval is the
 *		level's middle of the resampled log ratios, widened about the ratio
 *		as Student's t widens a normal interval of as few values as the
 *		side with fewer blocks has.  a_values and b_values
 *		get each side's percentiles (ns) of all its blocks together, ratios
 *		their ratio with its interval (se: the resamples' deviation of the
 *		log ratio).  A percentile that is the same in every resample of a
 *		side has no interval (low and high NAN, flat naming the side).
 *		TOO_FEW when a side has fewer than two blocks or no transaction, or
 *		too few resamples hold any; NOT_POSITIVE for a percentile of zero.
 */
PbStatStatus
pb_bootstrap_percentiles(const PbBootSide *a, const PbBootSide *b,
						 const double *fractions, int nfractions,
						 int resamples, uint64_t seed, double level,
						 double *a_values, double *b_values,
						 PbRatio *ratios)
{
	BootBlocks	ba = {0};
	BootBlocks	bb = {0};
	uint64_t   *ha = malloc(sizeof(uint64_t) * PB_HIST_BUCKETS);
	uint64_t   *hb = malloc(sizeof(uint64_t) * PB_HIST_BUCKETS);
	uint64_t   *scratch = malloc(sizeof(uint64_t) * PB_HIST_BUCKETS);
	double	   *logs = malloc(sizeof(double) * (size_t) nfractions * (resamples + 1));
	double	   *firsts = malloc(sizeof(double) * 2 * (nfractions + 1));
	PbStatStatus status = PB_STAT_OK;
	uint64_t	na,
				nb;
	int			valid = 0;
	double		widen;
	double		point;
	PbPrng		prng;

	for (int f = 0; f < nfractions; f++)
	{
		memset(&ratios[f], 0, sizeof(PbRatio));
		ratios[f].ratio = ratios[f].low = ratios[f].high = a_values[f] = b_values[f] = NAN;
	}
	if (ha == NULL || hb == NULL || scratch == NULL || logs == NULL || firsts == NULL)
	{
		status = PB_STAT_NO_MEMORY;
		goto done;
	}
	if (a->blocks < 2 || b->blocks < 2 || a->block < 1 || b->block < 1 ||
		a->blocks * a->block > a->n || b->blocks * b->block > b->n)
	{
		status = PB_STAT_TOO_FEW;
		goto done;
	}
	if (!make_blocks(a, &ba, ha, scratch) || !make_blocks(b, &bb, hb, scratch))
	{
		status = PB_STAT_NO_MEMORY;
		goto done;
	}

	/* the point values, from all of each side's blocks */
	na = pb_hist_count(ha);
	nb = pb_hist_count(hb);
	if (na == 0 || nb == 0)
	{
		status = PB_STAT_TOO_FEW;
		goto done;
	}
	for (int f = 0; f < nfractions; f++)
	{
		a_values[f] = pb_hist_percentile(ha, (int64_t) na, fractions[f]);
		b_values[f] = pb_hist_percentile(hb, (int64_t) nb, fractions[f]);
		if (!(a_values[f] > 0) || !(b_values[f] > 0))
			status = PB_STAT_NOT_POSITIVE;
		ratios[f].ratio = b_values[f] / a_values[f];
	}
	if (status != PB_STAT_OK)
		goto done;

	/* the resamples, from the fixed seed: the same runs, the same interval */
	pb_prng_seed(&prng, seed);
	for (int r = 0; r < resamples; r++)
	{
		uint64_t	ca = resample(&ba, &prng, ha);
		uint64_t	cb = resample(&bb, &prng, hb);

		if (ca == 0 || cb == 0)
			continue;
		for (int f = 0; f < nfractions; f++)
		{
			double		va = pb_hist_percentile(ha, (int64_t) ca, fractions[f]);
			double		vb = pb_hist_percentile(hb, (int64_t) cb, fractions[f]);

			logs[(size_t) f * resamples + valid] = log(vb / va);
			/* whether each side's percentile varies from resample to resample */
			if (valid == 0)
			{
				firsts[2 * f] = va;
				firsts[2 * f + 1] = vb;
				ratios[f].flat = PB_FLAT_A | PB_FLAT_B;
			}
			if (va != firsts[2 * f])
				ratios[f].flat &= ~PB_FLAT_A;
			if (vb != firsts[2 * f + 1])
				ratios[f].flat &= ~PB_FLAT_B;
		}
		valid++;
	}
	if (valid < resamples / 2 || valid < 2)
	{
		status = PB_STAT_TOO_FEW;
		goto done;
	}

	/*
	 * A bootstrap of few blocks is too narrow, as a normal interval of few
	 * values would be; widen it as Student's t widens that one, for the
	 * side with fewer blocks.
	 */
	widen = pb_t_quantile(1 - (1 - level) / 2, Min(a->blocks, b->blocks) - 1) /
		pb_normal_quantile(1 - (1 - level) / 2);
	for (int f = 0; f < nfractions; f++)
	{
		double	   *v = logs + (size_t) f * resamples;
		double		mean = 0;
		double		ss = 0;

		if (ratios[f].flat != 0)
			continue;
		for (int i = 0; i < valid; i++)
			mean += v[i];
		mean /= valid;
		for (int i = 0; i < valid; i++)
			ss += (v[i] - mean) * (v[i] - mean);
		qsort(v, valid, sizeof(double), cmp_double);
		point = log(ratios[f].ratio);
		ratios[f].low = exp(point - widen * (point - sorted_quantile(v, valid, (1 - level) / 2)));
		ratios[f].high = exp(point + widen * (sorted_quantile(v, valid, 1 - (1 - level) / 2) - point));
		ratios[f].se = widen * sqrt(ss / (valid - 1));
		ratios[f].df = INFINITY;
	}

done:
	free_blocks(&ba);
	free_blocks(&bb);
	free(ha);
	free(hb);
	free(scratch);
	free(logs);
	free(firsts);
	return status;
}

/* ---- how many runs would show it ----------------------------------------- */

/*
 * pb_runs_needed
 *		The power calculation of runs as the unit: the fewest runs a side
 *		(at least 2) at which a two-sided test at level would show, with
 *		probability power, a difference of logs diff between two sides
 *		whose runs spread as sd (on the log scale): the smallest n with
 *		(t(1 - alpha / 2, 2n - 2) + t(power, 2n - 2)) sd sqrt(2 / n) <=
 *		|diff|.  -1 when it takes more than limit, 0 when nothing can be
 *		said (no spread, no difference).
 */
int
pb_runs_needed(double sd, double diff, double level, double power, int limit)
{
	int			lo = 2;
	int			hi = limit;

	if (!(sd > 0) || !(fabs(diff) > 0) || isinf(sd) || isinf(diff) || limit < 2)
		return 0;
#define PB_SHOWN(n) ((pb_t_quantile(1 - (1 - level) / 2, 2.0 * (n) - 2) + \
					  pb_t_quantile(power, 2.0 * (n) - 2)) * sd * sqrt(2.0 / (n)) <= fabs(diff))
	if (!PB_SHOWN(hi))
		return -1;
	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (PB_SHOWN(mid))
			hi = mid;
		else
			lo = mid + 1;
	}
#undef PB_SHOWN
	return lo;
}

/*
 * pb_length_factor
 *		The power calculation of one run a side: how many times as long
 *		both runs would have to be (their standard error shrinking as the
 *		square root of their length) for a two-sided test at level to show,
 *		with probability power, a difference of logs diff whose standard
 *		error is se now.  NAN when nothing can be said.
 */
double
pb_length_factor(double se, double diff, double level, double power)
{
	double		z;

	if (!(se > 0) || !(fabs(diff) > 0) || isinf(se) || isinf(diff))
		return NAN;
	z = pb_normal_quantile(1 - (1 - level) / 2) + pb_normal_quantile(power);
	return (z * se / fabs(diff)) * (z * se / fabs(diff));
}
