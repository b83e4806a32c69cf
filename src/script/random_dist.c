/*-------------------------------------------------------------------------
 *
 * random_dist.c
 *	  Pseudo-random numbers and the distributions of pgbench's random
 *	  functions, plus its hash and permute functions.
 *
 * The generator is xoroshiro128** seeded through splitmix64, the same as
 * PostgreSQL's pg_prng, so that a given seed yields the same stream as in
 * pgbench.  The distributions follow pgbench's getrand(),
 * getGaussianRand(), getExponentialRand() and getZipfianRand(), so that
 * workloads have the same shape.  Parameter bounds are checked by the
 * callers (expr_eval.c); the functions here only guard against undefined
 * behaviour on values that cannot come from checked callers.
 *
 *-------------------------------------------------------------------------
 */
#include <math.h>
#include <stdint.h>

#include "pb_script_int.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* hashing constants, as pgbench */
#define PB_FNV_PRIME			UINT64_C(0x100000001b3)
#define PB_FNV_OFFSET_BASIS		UINT64_C(0xcbf29ce484222325)
#define PB_MM2_MUL				UINT64_C(0xc6a4a7935bd1e995)
#define PB_MM2_MUL_TIMES_8		UINT64_C(0x35253c9ade8f4ca8)
#define PB_MM2_ROT				47

/*
 * Rotate a 64-bit word left; bits is always in 1..63 here.
 */
static inline uint64_t
rotl64(uint64_t x, int bits)
{
	return (x << bits) | (x >> (64 - bits));
}

/*
 * Position of the most significant set bit of a non-zero word (0..63).
 */
static inline int
leftmost_one_pos64(uint64_t word)
{
	return 63 - __builtin_clzll(word);
}

/*
 * One step of splitmix64, used only to spread a 64-bit seed over the
 * 128-bit state as pg_prng_seed() does.
 */
static uint64_t
splitmix64(uint64_t *state)
{
	uint64_t	val = (*state += UINT64_C(0x9E3779B97f4A7C15));

	val = (val ^ (val >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	val = (val ^ (val >> 27)) * UINT64_C(0x94D049BB133111EB);
	return val ^ (val >> 31);
}

/*
 * Seed a generator from a 64-bit value, as pg_prng_seed(): an all-zero
 * state is a fixed point of the generator, hence the fallback.
 */
void
pb_prng_seed(PbPrng *state, uint64_t seed)
{
	state->s0 = splitmix64(&seed);
	state->s1 = splitmix64(&seed);
	if (state->s0 == 0 && state->s1 == 0)
	{
		state->s0 = UINT64_C(0x5851F42D4C957F2D);
		state->s1 = UINT64_C(0x14057B7EF767814F);
	}
}

/*
 * Next 64 uniformly distributed bits (xoroshiro128** 1.0).
 */
uint64_t
pb_prng_u64(PbPrng *state)
{
	uint64_t	s0 = state->s0;
	uint64_t	sx = state->s1 ^ s0;
	uint64_t	val = rotl64(s0 * 5, 7) * 9;

	state->s0 = rotl64(s0, 24) ^ sx ^ (sx << 16);
	state->s1 = rotl64(sx, 37);
	return val;
}

/*
 * Uniform double in [0, 1) from the top 52 bits, as pg_prng_double().
 */
double
pb_prng_double(PbPrng *state)
{
	uint64_t	v = pb_prng_u64(state);

	return ldexp((double) (v >> (64 - 52)), -52);
}

/*
 * Uniform integer in [0, range] by bitmask rejection, as
 * pg_prng_uint64_range(): no modulo bias, and on average fewer than two
 * draws.
 */
static uint64_t
prng_u64_upto(PbPrng *state, uint64_t range)
{
	uint64_t	val;
	int			rshift;

	if (range == 0)
		return 0;
	rshift = 63 - leftmost_one_pos64(range);
	do
	{
		val = pb_prng_u64(state) >> rshift;
	} while (val > range);
	return val;
}

/*
 * Uniform integer in [min, max], as pgbench's getrand().  The caller has
 * checked that min <= max and that the width fits in an int64; the
 * arithmetic is unsigned so that no input can overflow.
 */
int64_t
pb_rand_uniform(PbPrng *state, int64_t min, int64_t max)
{
	uint64_t	range = (uint64_t) max - (uint64_t) min;

	return (int64_t) ((uint64_t) min + prng_u64_upto(state, range));
}

/*
 * Map rand in [0, 1) onto [min, max] as pgbench does with
 * min + (int64) ((max - min + 1) * rand).  Rounding can push the product
 * onto the upper bound and a NaN has no integer value, so the offset is
 * clamped instead of relying on undefined conversions.
 */
static int64_t
scale_to_range(int64_t min, int64_t max, double rand)
{
	uint64_t	width = (uint64_t) max - (uint64_t) min + 1;
	double		offset;
	uint64_t	ioffset;

	if (width == 0)				/* the whole int64 range */
		width = UINT64_MAX;
	offset = (double) width * rand;
	if (!(offset > 0.0))
		ioffset = 0;
	else if (offset >= (double) width)
		ioffset = width - 1;
	else
		ioffset = (uint64_t) offset;
	return (int64_t) ((uint64_t) min + ioffset);
}

/*
 * Gaussian distribution over [min, max], as getGaussianRand(): a
 * Box-Muller normal value is drawn until it falls in [-parameter,
 * parameter), then mapped linearly onto the range, so that parameter is
 * the number of standard deviations from the middle to either end.
 */
int64_t
pb_rand_gaussian(PbPrng *state, int64_t min, int64_t max, double parameter)
{
	double		stdev;
	double		rand;

	do
	{
		/* pb_prng_double is in [0, 1); Box-Muller wants (0, 1] */
		double		rand1 = 1.0 - pb_prng_double(state);
		double		rand2 = 1.0 - pb_prng_double(state);

		stdev = sqrt(-2.0 * log(rand1)) * sin(2.0 * M_PI * rand2);
	} while (stdev < -parameter || stdev >= parameter);

	rand = (stdev + parameter) / (parameter * 2.0);
	return scale_to_range(min, max, rand);
}

/*
 * Exponential distribution over [min, max], as getExponentialRand(): the
 * density at max is exp(-parameter) times the density at min.
 */
int64_t
pb_rand_exponential(PbPrng *state, int64_t min, int64_t max,
					double parameter)
{
	double		cut = exp(-parameter);
	double		uniform = 1.0 - pb_prng_double(state);	/* (0, 1] */
	double		rand;

	rand = -log(cut + (1.0 - cut) * uniform) / parameter;
	return scale_to_range(min, max, rand);
}

/*
 * Zipfian value in [1, n] by rejection (Devroye, "Non-Uniform Random
 * Variate Generation", p. 550), as pgbench 15's computeIterativeZipfian().
 */
static int64_t
iterative_zipfian(PbPrng *state, int64_t n, double s)
{
	double		b = pow(2.0, s - 1.0);
	double		x,
				t,
				u,
				v;

	if (n <= 1)
		return 1;

	for (;;)
	{
		u = pb_prng_double(state);
		v = pb_prng_double(state);

		x = floor(pow(u, -1.0 / (s - 1.0)));
		t = pow(1.0 + 1.0 / x, s - 1.0);

		/*
		 * Reject if too large or out of bounds.  (double) n may round up
		 * to 2^63, so x must also be checked to fit an int64.
		 */
		if (v * x * (t - 1.0) / (b - 1.0) <= t / b && x <= (double) n &&
			x < 9223372036854775808.0)
			break;
	}
	return (int64_t) x;
}

/*
 * Zipfian distribution over [min, max], as getZipfianRand(); s must be in
 * [1.001, 1000].
 */
int64_t
pb_rand_zipfian(PbPrng *state, int64_t min, int64_t max, double s)
{
	int64_t		n = (int64_t) ((uint64_t) max - (uint64_t) min + 1);

	if (n <= 0)					/* cannot happen after the range check */
		n = INT64_MAX;
	return (int64_t) ((uint64_t) min - 1 + (uint64_t) iterative_zipfian(state, n, s));
}

/*
 * FNV-1a hash of the 8 bytes of val, low byte first, as getHashFnv1a().
 */
int64_t
pb_hash_fnv1a(int64_t val, int64_t seed)
{
	uint64_t	result = PB_FNV_OFFSET_BASIS ^ (uint64_t) seed;
	uint64_t	v = (uint64_t) val;
	int			i;

	for (i = 0; i < 8; i++)
	{
		result ^= v & 0xff;
		result *= PB_FNV_PRIME;
		v >>= 8;
	}
	return (int64_t) result;
}

/*
 * MurmurHash2 (64-bit) of one 8-byte value, as getHashMurmur2().
 */
int64_t
pb_hash_murmur2(int64_t val, int64_t seed)
{
	uint64_t	result = (uint64_t) seed ^ PB_MM2_MUL_TIMES_8;
	uint64_t	k = (uint64_t) val;

	k *= PB_MM2_MUL;
	k ^= k >> PB_MM2_ROT;
	k *= PB_MM2_MUL;

	result ^= k;
	result *= PB_MM2_MUL;

	result ^= result >> PB_MM2_ROT;
	result *= PB_MM2_MUL;
	result ^= result >> PB_MM2_ROT;

	return (int64_t) result;
}

/*
 * Pseudo-random permutation of [0, size), as pgbench's permute(): six
 * rounds of an odd multiply, xor and rotate on overlapping lower and upper
 * power-of-two halves, each followed by a random offset, all drawn from a
 * generator seeded with seed.  Returns where val (taken modulo size) goes.
 */
int64_t
pb_permute(int64_t val, int64_t isize, int64_t seed)
{
	PbPrng		state;
	uint64_t	size;
	uint64_t	v;
	int			masklen;
	uint64_t	mask;
	int			i;

	if (isize < 2)
		return 0;				/* nothing to permute */

	pb_prng_seed(&state, (uint64_t) seed);

	size = (uint64_t) isize;
	v = (uint64_t) val % size;

	masklen = leftmost_one_pos64(size);
	mask = (((uint64_t) 1) << masklen) - 1;

	for (i = 0; i < 6; i++)
	{
		uint64_t	m,
					r,
					t;

		/* lower half: odd multiply, xor, rotate */
		m = (pb_prng_u64(&state) & mask) | 1;
		r = pb_prng_u64(&state) & mask;
		if (v <= mask)
		{
			v = ((v * m) ^ r) & mask;
			v = ((v << 1) & mask) | (v >> (masklen - 1));
		}

		/* upper half, the same way from the top */
		m = (pb_prng_u64(&state) & mask) | 1;
		r = pb_prng_u64(&state) & mask;
		t = size - 1 - v;
		if (t <= mask)
		{
			t = ((t * m) ^ r) & mask;
			t = ((t << 1) & mask) | (t >> (masklen - 1));
			v = size - 1 - t;
		}

		/* random offset over the whole range */
		r = prng_u64_upto(&state, size - 1);
		v = (v + r) % size;
	}

	return (int64_t) v;
}
