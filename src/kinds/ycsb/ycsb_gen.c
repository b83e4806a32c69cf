/*-------------------------------------------------------------------------
 *
 * ycsb_gen.c
 *	  YCSB's generators (site.ycsb.generator) and CoreWorkload's key and
 *	  value builders: the zipfian generator with its incremental zeta, the
 *	  scrambled zipfian over YCSB's fixed item space, the skewed-latest,
 *	  hotspot and uniform generators, FNV-64 key hashing, key names, the
 *	  random field values of RandomByteIterator, and the order in which a
 *	  Java HashMap lists a record's fields (which the JDBC binding's SQL
 *	  follows).
 *
 * The formulas are YCSB's, with Java's long arithmetic (wrapping, and
 * Math.abs(Long.MIN_VALUE) negative) where the results depend on it.  The
 * uniform numbers come from PbPrng rather than ThreadLocalRandom.
 *
 *-------------------------------------------------------------------------
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ycsb.h"

#define PB_FNV_OFFSET_BASIS_64	UINT64_C(0xCBF29CE484222325)
#define PB_FNV_PRIME_64			UINT64_C(1099511628211)

/* Java's Math.abs on a long: Long.MIN_VALUE stays negative */
static inline int64_t
java_abs(int64_t v)
{
	return (v < 0 && v != INT64_MIN) ? -v : v;
}

/* Java's % on longs: the sign of the dividend */
static inline int64_t
java_mod(int64_t a, int64_t b)
{
	if (a == INT64_MIN && b == -1)
		return 0;
	return a % b;
}

/*
 * pb_ycsb_zeta
 *		ZipfianGenerator.zetastatic(st, n, theta, initialsum): initial plus
 *		the sum of 1 / (i + 1)^theta for i from start to n - 1.
 */
double
pb_ycsb_zeta(int64_t start, int64_t n, double theta, double initial)
{
	double		sum = initial;

	for (int64_t i = start; i < n; i++)
		sum += 1 / pow((double) (i + 1), theta);
	return sum;
}

/*
 * pb_ycsb_zipfian_init
 *		A ZipfianGenerator over [min, max] with the given constant; zetan is
 *		the zeta of its item count, or negative to compute it here.
 */
void
pb_ycsb_zipfian_init(PbYcsbZipfian *z, int64_t min, int64_t max, double theta,
					 double zetan)
{
	z->items = max - min + 1;
	z->base = min;
	z->theta = theta;
	z->zeta2theta = pb_ycsb_zeta(0, 2, theta, 0);
	z->alpha = 1.0 / (1.0 - theta);
	z->zetan = zetan >= 0 ? zetan : pb_ycsb_zeta(0, z->items, theta, 0);
	z->countforzeta = z->items;
	z->eta = (1 - pow(2.0 / z->items, 1 - theta)) / (1 - z->zeta2theta / z->zetan);
}

/*
 * pb_ycsb_zipfian_next
 *		ZipfianGenerator.nextLong(itemcount): for an item count grown since
 *		the last call the zeta is extended incrementally, and eta recomputed
 *		with the item count the generator was made with, as YCSB does.
 */
int64_t
pb_ycsb_zipfian_next(PbYcsbZipfian *z, PbPrng *prng, int64_t itemcount)
{
	double		u;
	double		uz;

	if (itemcount > z->countforzeta)
	{
		z->zetan = pb_ycsb_zeta(z->countforzeta, itemcount, z->theta, z->zetan);
		z->countforzeta = itemcount;
		z->eta = (1 - pow(2.0 / z->items, 1 - z->theta)) /
			(1 - z->zeta2theta / z->zetan);
	}
	u = pb_prng_double(prng);
	uz = u * z->zetan;
	if (uz < 1.0)
		return z->base;
	if (uz < 1.0 + pow(0.5, z->theta))
		return z->base + 1;
	return z->base + (int64_t) (itemcount * pow(z->eta * u - z->eta + 1, z->alpha));
}

/*
 * pb_ycsb_scrambled_next
 *		ScrambledZipfianGenerator.nextValue(): a zipfian draw over YCSB's
 *		fixed item space (z made over 0..PB_YCSB_SCRAMBLED_ITEMS), hashed
 *		onto [min, min + itemcount), so that the popular items are spread
 *		over the key space.
 */
int64_t
pb_ycsb_scrambled_next(PbYcsbZipfian *z, PbPrng *prng, int64_t min,
					   int64_t itemcount)
{
	int64_t		v = pb_ycsb_zipfian_next(z, prng, z->items);

	return min + java_mod(pb_ycsb_fnvhash64(v), itemcount);
}

/*
 * pb_ycsb_latest_next
 *		SkewedLatestGenerator.nextValue() for the latest acknowledged key
 *		max: the newest keys are the most popular.  z was made over
 *		0..(the latest key when the run started) - 1.
 */
int64_t
pb_ycsb_latest_next(PbYcsbZipfian *z, PbPrng *prng, int64_t max)
{
	return max - pb_ycsb_zipfian_next(z, prng, max);
}

/* A Java nextLong(): 64 uniform bits as a signed long. */
static inline int64_t
java_next_long(PbPrng *prng)
{
	return (int64_t) pb_prng_u64(prng);
}

/*
 * pb_ycsb_uniform
 *		UniformLongGenerator(lb, ub).nextValue().
 */
int64_t
pb_ycsb_uniform(PbPrng *prng, int64_t lb, int64_t ub)
{
	return java_mod(java_abs(java_next_long(prng)), ub - lb + 1) + lb;
}

/*
 * pb_ycsb_hotspot
 *		HotspotIntegerGenerator: hotopn_fraction of the draws fall in the
 *		first hotset_fraction of [lb, ub], uniformly, the rest uniformly in
 *		the remainder.
 */
int64_t
pb_ycsb_hotspot(PbPrng *prng, int64_t lb, int64_t ub, double hotset_fraction,
				double hotopn_fraction)
{
	int64_t		interval = ub - lb + 1;
	int64_t		hot = (int32_t) (interval * hotset_fraction);
	int64_t		cold = interval - hot;

	if (pb_prng_double(prng) < hotopn_fraction && hot > 0)
		return lb + java_mod(java_abs(java_next_long(prng)), hot);
	if (cold <= 0)
		return lb;
	return lb + hot + java_mod(java_abs(java_next_long(prng)), cold);
}

/*
 * pb_ycsb_fnvhash64
 *		Utils.fnvhash64(): FNV over the 8 low-order bytes of val (shifted
 *		arithmetically, as Java's >>), then Math.abs().
 */
int64_t
pb_ycsb_fnvhash64(int64_t val)
{
	uint64_t	hash = PB_FNV_OFFSET_BASIS_64;
	uint64_t	v = (uint64_t) val;

	for (int i = 0; i < 8; i++)
	{
		hash ^= v & 0xff;
		hash *= PB_FNV_PRIME_64;
		v = (uint64_t) (((int64_t) v) >> 8);
	}
	return java_abs((int64_t) hash);
}

/*
 * pb_ycsb_key_name
 *		CoreWorkload.buildKeyName(): "user", zeros up to zeropadding digits,
 *		and the key number, hashed unless inserts are ordered.  Returns the
 *		name's length.
 */
int
pb_ycsb_key_name(char *buf, size_t len, int64_t keynum, bool ordered,
				 int zeropadding)
{
	char		digits[24];
	int			ndigits;
	int			n = 0;

	if (!ordered)
		keynum = pb_ycsb_fnvhash64(keynum);
	ndigits = snprintf(digits, sizeof(digits), "%lld", (long long) keynum);
	if (len < 1)
		return 0;
	for (const char *p = "user"; *p && n < (int) len - 1; p++)
		buf[n++] = *p;
	for (int fill = zeropadding - ndigits; fill > 0 && n < (int) len - 1; fill--)
		buf[n++] = '0';
	for (int i = 0; i < ndigits && n < (int) len - 1; i++)
		buf[n++] = digits[i];
	buf[n] = '\0';
	return n;
}

/*
 * pb_ycsb_random_bytes
 *		What RandomByteIterator yields: len printable characters, six from
 *		each random int, with its masks (so their distribution is YCSB's,
 *		between ' ' and DEL).
 */
void
pb_ycsb_random_bytes(PbPrng *prng, char *buf, int64_t len)
{
	int64_t		i = 0;

	while (i < len)
	{
		uint32_t	bytes = (uint32_t) (pb_prng_u64(prng) >> 32);
		int64_t		n = len - i < 6 ? len - i : 6;

		/* as fillBytesImpl(): the first character from the low bits */
		if (n > 0)
			buf[i + 0] = (char) ((bytes & 31) + ' ');
		if (n > 1)
			buf[i + 1] = (char) (((bytes >> 5) & 63) + ' ');
		if (n > 2)
			buf[i + 2] = (char) (((bytes >> 10) & 95) + ' ');
		if (n > 3)
			buf[i + 3] = (char) (((bytes >> 15) & 31) + ' ');
		if (n > 4)
			buf[i + 4] = (char) (((bytes >> 20) & 63) + ' ');
		if (n > 5)
			buf[i + 5] = (char) (((bytes >> 25) & 95) + ' ');
		i += n;
	}
}

/* Java's String.hashCode() of an ASCII string. */
static int32_t
java_string_hash(const char *s)
{
	uint32_t	h = 0;

	for (; *s; s++)
		h = 31 * h + (unsigned char) *s;
	return (int32_t) h;
}

/*
 * pb_ycsb_field_order
 *		The order in which a java.util.HashMap that was given "field0" ..
 *		"field<n-1>" in that order iterates them: by bucket of the spread
 *		hash in the final table (16 buckets, doubled whenever more than 3/4
 *		full), and in insertion order within a bucket.  YCSB's JDBC binding
 *		names the columns of its INSERT and of a writeallfields UPDATE in
 *		that order.  order[i] is the field number listed i-th.
 */
void
pb_ycsb_field_order(int fieldcount, int *order)
{
	int64_t		capacity = 16;
	int			n = 0;

	while (fieldcount > capacity * 3 / 4)
		capacity *= 2;
	for (int64_t bucket = 0; bucket < capacity; bucket++)
		for (int f = 0; f < fieldcount; f++)
		{
			char		name[32];
			uint32_t	h;

			snprintf(name, sizeof(name), "field%d", f);
			h = (uint32_t) java_string_hash(name);
			h ^= h >> 16;
			if ((int64_t) (h & (uint32_t) (capacity - 1)) == bucket)
				order[n++] = f;
		}
}
