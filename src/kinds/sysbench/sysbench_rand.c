/*-------------------------------------------------------------------------
 *
 * sysbench_rand.c
 *	  sysbench 1.0.20's pseudo-random numbers (sb_rand.c): the uniform,
 *	  gaussian, special and pareto distributions of sysbench.rand.default(),
 *	  the '#'/'@' string templates of sysbench.rand.string(), and the
 *	  permutation behind sysbench.rand.unique().
 *
 * The formulas are sysbench's, including its conversions to uint32 and
 * its ranges: uniform(a, b) is a + u * (b - a + 1) for u in [0, 1), the
 * special distribution spreads (100 - res)% of the values as a gaussian
 * over [a, b] and puts the other res% uniformly on pct% of the range
 * around its middle.  The uniform bits come from PbPrng rather than
 * sysbench's xoroshiro128+; both are uniform, so the shapes are the same.
 *
 *-------------------------------------------------------------------------
 */
#include <math.h>

#include "sysbench.h"

/*
 * pb_sb_rand_init
 *		Precompute what sysbench.rand.default() needs, as sb_rand_init().
 *		The caller has checked the ranges (res below 100, h in (0, 1)).
 */
void
pb_sb_rand_init(PbSbRand *r, PbSbDist dist, int iter, int pct, int res,
				double pareto_h)
{
	r->dist = dist;
	r->iter = iter;
	r->iter_mult = 1.0 / iter;
	r->pct_mult = pct / 100.0;
	r->pct_2_mult = pct / 200.0;
	r->res_mult = 100.0 / (100.0 - res);
	r->pareto_power = log(pareto_h) / log(1.0 - pareto_h);
}

/*
 * pb_sb_uniform
 *		sb_rand_uniform(): uniform in [a, b].
 */
uint32_t
pb_sb_uniform(PbPrng *prng, uint32_t a, uint32_t b)
{
	return a + pb_prng_double(prng) * (b - a + 1);
}

/* sb_rand_gaussian(): the mean of iter uniform values over [a, b]. */
static uint32_t
pb_sb_gaussian(const PbSbRand *r, PbPrng *prng, uint32_t a, uint32_t b)
{
	double		t = (double) b - a + 1;
	double		sum = 0;

	for (unsigned int i = 0; i < r->iter; i++)
		sum += pb_prng_double(prng) * t;
	return a + (uint32_t) (sum * r->iter_mult);
}

/*
 * sb_rand_special(): the range is stretched by 100 / (100 - res); a
 * uniform draw that falls in the original width picks a gaussian value,
 * one beyond it a uniform value in the pct% of the range around its
 * middle.
 */
static uint32_t
pb_sb_special(const PbSbRand *r, PbPrng *prng, uint32_t a, uint32_t b)
{
	double		t = (double) b - a;
	double		range_size = t * r->res_mult;
	double		rnd = pb_prng_double(prng);
	double		res = rnd * range_size;
	double		d;

	if (res < t)
	{
		double		sum = 0.0;

		for (unsigned int i = 0; i < r->iter; i++)
			sum += pb_prng_double(prng);
		return a + sum * t * r->iter_mult;
	}
	d = t * r->pct_mult;
	res = rnd * (d + 1);
	res += t / 2 - t * r->pct_2_mult;
	return a + (uint32_t) res;
}

/* sb_rand_pareto(). */
static uint32_t
pb_sb_pareto(const PbSbRand *r, PbPrng *prng, uint32_t a, uint32_t b)
{
	return a + (uint32_t) (((double) b - a + 1) *
						   pow(pb_prng_double(prng), r->pareto_power));
}

/*
 * pb_sb_default
 *		sysbench.rand.default(a, b): the --rand-type distribution.
 */
uint32_t
pb_sb_default(const PbSbRand *r, PbPrng *prng, uint32_t a, uint32_t b)
{
	switch (r->dist)
	{
		case PB_SB_UNIFORM:
			return pb_sb_uniform(prng, a, b);
		case PB_SB_GAUSSIAN:
			return pb_sb_gaussian(r, prng, a, b);
		case PB_SB_SPECIAL:
			return pb_sb_special(r, prng, a, b);
		case PB_SB_PARETO:
			return pb_sb_pareto(r, prng, a, b);
	}
	return a;
}

/*
 * pb_sb_string
 *		sb_rand_str(): a copy of template with every '#' a random digit and
 *		every '@' a random lower-case letter, into buf (as long as the
 *		template, not terminated).
 */
void
pb_sb_string(PbPrng *prng, const char *template, char *buf)
{
	for (int i = 0; template[i] != '\0'; i++)
	{
		if (template[i] == '#')
			buf[i] = (char) pb_sb_uniform(prng, '0', '9');
		else if (template[i] == '@')
			buf[i] = (char) pb_sb_uniform(prng, 'a', 'z');
		else
			buf[i] = template[i];
	}
}

/*
 * The permutation of sysbench's unique sequence: quadratic residues modulo
 * the largest prime below 2^32 (Preshing's construction), a bijection of
 * the 32-bit integers.
 */
static uint32_t
pb_sb_permute(uint32_t x)
{
	const uint32_t prime = UINT32_C(4294967291);
	uint32_t	residue;

	if (x >= prime)
		return x;
	residue = (uint32_t) (((uint64_t) x * x) % prime);
	return (x <= prime / 2) ? residue : prime - residue;
}

/*
 * pb_sb_unique_seed
 *		The start of a unique sequence from two seed values, as
 *		rand_unique_seed().
 */
void
pb_sb_unique_seed(uint32_t index, uint32_t offset, uint32_t *seed_index,
				  uint32_t *seed_offset)
{
	*seed_index = pb_sb_permute(pb_sb_permute(index) + 0x682f0161);
	*seed_offset = pb_sb_permute(pb_sb_permute(offset) + 0x46790905);
}

/*
 * pb_sb_unique
 *		The index-th value of the unique sequence that starts at seed_index
 *		with seed_offset, as sb_rand_unique() for the index it takes from
 *		its shared counter: distinct for distinct indexes.
 */
uint32_t
pb_sb_unique(uint32_t index, uint32_t seed_index, uint32_t seed_offset)
{
	return pb_sb_permute((pb_sb_permute(seed_index + index) + seed_offset) ^
						 0x5bf03635);
}
