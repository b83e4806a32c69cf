/*-------------------------------------------------------------------------
 *
 * pb_measure.h
 *	  The backend-free measurement library: latency histograms, the
 *	  schedule of a rate-limited client, and the statistics that compare
 *	  runs, for the run engine, the SQL entry points (polarbench_compare),
 *	  the command-line program (which merges the histograms of several
 *	  nodes, and marks a sweep's cells) and the unit tests.
 *
 * Like the script library, it uses no PostgreSQL header and never
 * allocates on the paths a client takes for each transaction; the
 * statistics take scratch memory with malloc() and say when there was
 * none, never exiting or jumping.
 *
 * In layers, each file calling only those before it:
 *	 histogram.c, moments.c, throttle.c (which draws from the script
 *	 library's PbPrng),
 *	 compare_stats.c (which does too, for the bootstrap); chart_svg.c, the
 *	 charts of the program's SVG files and of the server's HTML reports.
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
 * bucket starts at (2 * PB_HIST_SUB - 1) << PB_HIST_MAX_SHIFT ns, some 9.7
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

/* ---- a latency's average and deviation (moments.c) ----------------------- */

extern void pb_latency_moments(int64_t count, double sum, double sumsq,
							   double *avg, double *stddev);

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

/* ---- comparing runs (compare_stats.c) ---------------------------------- */

/*
 * The confidence of every interval, the power of the sample-size
 * calculation, and what batch means and the bootstrap take: at least
 * PB_MIN_BATCHES batches, a batch long enough that the lag-1
 * autocorrelation of the batch means is at most PB_MAX_AUTOCORR, and
 * PB_BOOTSTRAP_RESAMPLES resamples of at most PB_BOOTSTRAP_MAX_BLOCKS
 * blocks drawn from PB_BOOTSTRAP_SEED, so that the same runs always give
 * the same interval.
 */
#define PB_CONFIDENCE			0.95
#define PB_POWER				0.80
#define PB_MIN_BATCHES			10
#define PB_MAX_AUTOCORR			0.1
#define PB_BOOTSTRAP_RESAMPLES	1000
#define PB_BOOTSTRAP_MAX_BLOCKS 200
#define PB_BOOTSTRAP_SEED		UINT64_C(20240521)

/* Why a statistic could not be had */
typedef enum PbStatStatus
{
	PB_STAT_OK = 0,
	PB_STAT_TOO_FEW,			/* too few values (runs, intervals, batches) */
	PB_STAT_NOT_POSITIVE,		/* a figure that is zero or negative (no log) */
	PB_STAT_NO_SPREAD,			/* a side whose values do not vary: no interval */
	PB_STAT_NO_MEMORY
} PbStatStatus;

/* A mean with the variance of that mean, and the degrees of freedom of it */
typedef struct PbEstimate
{
	double		mean;
	double		var;			/* of the mean: s^2 / n for a sample */
	double		df;				/* of var; INFINITY when var is exact */
	int			n;				/* the values (runs, batches) it is made of */
} PbEstimate;

/*
 * The sides of a ratio that have no spread (PbRatio.flat): values all the
 * same, as identical percentiles often are (a percentile is a histogram
 * bucket's value), say nothing of how far another run may fall from them,
 * so such a side gives no interval, and no verdict.
 */
#define PB_FLAT_A				1
#define PB_FLAT_B				2

/* A ratio B/A and its interval, with what the interval was made of */
typedef struct PbRatio
{
	double		ratio;
	double		low;			/* NAN when there is no interval */
	double		high;
	double		se;				/* standard error of log(ratio) */
	double		df;				/* of se; INFINITY for a normal law */
	int			flat;			/* PB_FLAT_A | PB_FLAT_B: sides of no spread */
} PbRatio;

/* What a comparison of one figure says */
typedef enum PbVerdict
{
	PB_VERDICT_NONE,			/* no interval */
	PB_VERDICT_FASTER,
	PB_VERDICT_SLOWER,
	PB_VERDICT_NO_DIFFERENCE,
	PB_VERDICT_EQUIVALENT
} PbVerdict;

/* Batch means of a series: the batch length chosen from the data */
typedef struct PbBatchMeans
{
	int			length;			/* values per batch */
	int			batches;
	int			used;			/* the last batches * length values */
	double		autocorr;		/* lag-1 autocorrelation of the batch means */
	bool		settled;		/* at most PB_MAX_AUTOCORR at that length */
	PbEstimate	estimate;		/* the mean of the batch means */
} PbBatchMeans;

/* Whether a series drifted: its last third against its first */
typedef struct PbDrift
{
	double		first;			/* the first third's mean */
	double		last;			/* the last third's */
	PbRatio		ratio;			/* last / first */
	int			length;			/* of the batches within each third */
	int			batches;		/* in each third */
	bool		drifted;		/* the interval leaves out 1 */
} PbDrift;

/* One progress interval's latency histogram: its non-empty buckets */
typedef struct PbIntervalHist
{
	int			n;
	const int  *buckets;		/* bucket indexes, as pb_hist_bucket() */
	const uint64_t *counts;
} PbIntervalHist;

/* A side of a bootstrap: its intervals' histograms and its block length */
typedef struct PbBootSide
{
	const PbIntervalHist *intervals;
	int			n;
	int			block;			/* intervals per block */
	int			blocks;			/* resampled: the last blocks * block intervals */
} PbBootSide;

extern double pb_normal_cdf(double x);
extern double pb_normal_quantile(double p);
extern double pb_t_cdf(double t, double df);
extern double pb_t_quantile(double p, double df);

extern PbStatStatus pb_estimate_of(const double *x, int n, PbEstimate *e);
extern void pb_welch(const PbEstimate *a, const PbEstimate *b,
					 double *se, double *df);
extern PbStatStatus pb_ratio_of_runs(const double *a, int na,
									 const double *b, int nb,
									 double level, PbRatio *r);
extern PbStatStatus pb_ratio_of_means(const PbEstimate *a,
									  const PbEstimate *b, double level,
									  PbRatio *r);
extern PbStatStatus pb_log_interval(const double *x, int n, double level,
									double *center, double *low,
									double *high);
extern PbVerdict pb_verdict(const PbRatio *r, bool lower_is_better,
							double threshold);
extern const char *pb_verdict_name(PbVerdict v);

extern double pb_autocorr(const double *x, int n);
extern PbStatStatus pb_batch_means(const double *x, const double *w, int n,
								   int min_batches, PbBatchMeans *bm);
extern PbStatStatus pb_drift(const double *x, int n, double level,
							 PbDrift *d);

extern PbStatStatus pb_bootstrap_block(const PbIntervalHist *intervals,
									   int n, const double *fractions,
									   int nfractions, int *block);
extern PbStatStatus pb_bootstrap_percentiles(const PbBootSide *a,
											 const PbBootSide *b,
											 const double *fractions,
											 int nfractions, int resamples,
											 uint64_t seed, double level,
											 double *a_values,
											 double *b_values,
											 PbRatio *ratios);

extern int	pb_runs_needed(double sd, double diff, double level,
						   double power, int limit);
extern double pb_length_factor(double se, double diff, double level,
							   double power);

/* ---- charts as SVG (chart_svg.c) ----------------------------------------- */

/* A text that grows, malloc'd; failed once memory ran out */
typedef struct PbText
{
	char	   *data;
	size_t		len;
	size_t		cap;
	bool		failed;
} PbText;

/* A chart's size: its width, its title's height, each panel's height */
#define PB_CHART_WIDTH			960
#define PB_CHART_TITLE_HEIGHT	40
#define PB_CHART_PANEL_HEIGHT	380

/* One line of a panel: its points, each with its interval or none */
typedef struct PbChartSeries
{
	const char *label;
	double	   *x;
	double	   *y;
	int			n;
	double	   *low;			/* each point's interval, or NULL (NAN: none) */
	double	   *high;
} PbChartSeries;

/* One panel of a chart */
typedef struct PbChartPanel
{
	const char *title;
	const char *x_label;		/* with its unit */
	const char *y_label;		/* with its unit */
	PbChartSeries *series;
	int			nseries;
	bool		x_log2;			/* client counts: doubling steps */
	bool		x_at_points;	/* x ticks at the points (client counts) */
	const char *const *x_names; /* with x_at_points, the ticks' names, or NULL */
	bool		points_only;	/* dots (and intervals), no line between */
	double		y_reference;	/* a dashed line at this y (a ratio's 1), if > 0 */
} PbChartPanel;

extern void pb_text_init(PbText *t);
extern void pb_text_append(PbText *t, const char *s);
extern void pb_text_printf(PbText *t, const char *fmt,...)
			__attribute__((format(printf, 2, 3)));
extern void pb_text_escaped(PbText *t, const char *s);
extern void pb_chart_svg(PbText *t, const char *title,
						 const PbChartPanel *panels, int npanels,
						 bool standalone);

#endif							/* PB_MEASURE_H */
