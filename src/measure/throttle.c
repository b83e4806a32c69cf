/*-------------------------------------------------------------------------
 *
 * throttle.c
 *	  The schedule of a client under a target rate, as pgbench -R makes it:
 *	  the time between two scheduled starts follows an exponential law (a
 *	  Poisson process) whose mean is the client's share of the rate.
 *
 * Each client has a schedule of its own (pgbench has one per thread; a
 * polarbench client is a thread of its own), so the clients' mean delay
 * is the number of clients over the rate.
 *
 *-------------------------------------------------------------------------
 */
#include <math.h>

#include "pb_measure.h"

/*
 * pb_throttle_init
 *		A schedule of rate_per_second transactions per second, whose first
 *		start is drawn after start_ns, with its own random stream.
 */
void
pb_throttle_init(PbThrottle *t, double rate_per_second, int64_t start_ns,
				 uint64_t seed)
{
	t->delay_ns = 1e9 / rate_per_second;
	t->next_ns = start_ns;
	pb_prng_seed(&t->prng, seed);
}

/*
 * pb_poisson_delay
 *		The time to the next event of a Poisson process of mean interval
 *		center, for a uniform draw in (0, 1]: -log(uniform) * center,
 *		rounded, as pgbench's getPoissonRand.
 */
int64_t
pb_poisson_delay(double center, double uniform)
{
	return (int64_t) (-log(uniform) * center + 0.5);
}

/*
 * pb_throttle_next
 *		Advance the schedule by one transaction and return its scheduled
 *		start.  The schedule does not wait for a late client: it runs on
 *		whatever the client does.
 */
int64_t
pb_throttle_next(PbThrottle *t)
{
	/* pb_prng_double is in [0, 1), so 1 - it is in (0, 1] */
	t->next_ns += pb_poisson_delay(t->delay_ns, 1.0 - pb_prng_double(&t->prng));
	return t->next_ns;
}
