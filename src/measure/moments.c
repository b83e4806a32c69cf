/*-------------------------------------------------------------------------
 *
 * moments.c
 *	  A latency's average and standard deviation from the running sums a
 *	  client keeps (the count, the sum and the sum of squares), as pgbench
 *	  prints them: for the run and its progress intervals (the engine's
 *	  summaries) and for each script (pgbench's per-script figures).  One
 *	  formula, so that the run's deviation and a script's cannot differ in
 *	  how they are made.
 *
 *-------------------------------------------------------------------------
 */
#include <math.h>

#include "pb_measure.h"

/*
 * pb_latency_moments
 *		Set *avg and *stddev of count values whose sum is sum and whose sum
 *		of squares is sumsq; both 0 without values.  The population
 *		deviation, as pgbench's (sqrt(sum2/n - avg^2)); rounding that makes
 *		the variance slightly negative for equal values gives 0.
 */
void
pb_latency_moments(int64_t count, double sum, double sumsq,
				   double *avg, double *stddev)
{
	double		var;

	*avg = 0;
	*stddev = 0;
	if (count <= 0)
		return;
	*avg = sum / count;
	var = sumsq / count - *avg * *avg;
	*stddev = var > 0 ? sqrt(var) : 0;
}
