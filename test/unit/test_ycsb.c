/*-------------------------------------------------------------------------
 *
 * test_ycsb.c
 *	  Unit tests of the YCSB kind's backend-free part: YCSB's generators,
 *	  key names and field order, and its properties.
 *
 * Distribution shapes are checked against what the formulas imply, over a
 * million draws from a fixed seed, so the outcome never depends on luck.
 * Prints one line per failure and ends with "N passed, N failed".
 *
 *-------------------------------------------------------------------------
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ycsb.h"
#include "unit_check.h"

#define NDRAWS 1000000

#ifndef Max
#define Max(a, b) ((a) > (b) ? (a) : (b))
#define Min(a, b) ((a) < (b) ? (a) : (b))
#endif

/* ---- YCSB ----------------------------------------------------------------- */

/* keys: the well-known first YCSB key, padding, ordered inserts */
static void
test_ycsb_keys(void)
{
	char		buf[64];

	pb_ycsb_key_name(buf, sizeof(buf), 0, false, 1);
	check(strcmp(buf, "user6284781860667377211") == 0, "YCSB key of record 0: %s", buf);
	pb_ycsb_key_name(buf, sizeof(buf), 42, true, 5);
	check(strcmp(buf, "user00042") == 0, "YCSB ordered key with zero padding: %s", buf);
	pb_ycsb_key_name(buf, sizeof(buf), 42, true, 1);
	check(strcmp(buf, "user42") == 0, "YCSB ordered key: %s", buf);
	check(pb_ycsb_fnvhash64(1) >= 0, "fnvhash64 is not negative");
}

/*
 * zipfian over 1000 items: item 0 has 1/zeta(1000) of the draws, item 1
 * 1/(2^0.99 zeta); every draw in range
 */
static void
test_ycsb_zipfian(void)
{
	PbYcsbZipfian z;
	PbPrng		prng;
	long		zero = 0,
				one = 0;
	bool		in_range = true;
	double		zeta = pb_ycsb_zeta(0, 1000, 0.99, 0);

	pb_ycsb_zipfian_init(&z, 0, 999, PB_YCSB_ZIPFIAN_CONSTANT, -1);
	check_between(z.zetan, zeta - 1e-9, zeta + 1e-9, "zipfian zeta");
	pb_prng_seed(&prng, 6);
	for (int i = 0; i < NDRAWS; i++)
	{
		int64_t		v = pb_ycsb_zipfian_next(&z, &prng, z.items);

		if (v < 0 || v > 999)
			in_range = false;
		zero += (v == 0);
		one += (v == 1);
	}
	check(in_range, "zipfian stays in [0, 999]");
	check_between(zero / (double) NDRAWS, 1 / zeta - 0.002, 1 / zeta + 0.002, "zipfian share of item 0");
	check_between(one / (double) NDRAWS, 1 / (pow(2, 0.99) * zeta) - 0.002,
				  1 / (pow(2, 0.99) * zeta) + 0.002, "zipfian share of item 1");

	/* a grown item count extends zeta incrementally */
	pb_ycsb_zipfian_next(&z, &prng, 2000);
	check_between(z.zetan, pb_ycsb_zeta(0, 2000, 0.99, 0) - 1e-9,
				  pb_ycsb_zeta(0, 2000, 0.99, 0) + 1e-9, "zipfian zeta grown to 2000 items");
}

/*
 * scrambled zipfian: the popular items of YCSB's 10^10 space, hashed onto
 * the records; the most popular record gets about 1/26.47 of the draws
 */
static void
test_ycsb_scrambled(void)
{
	PbYcsbZipfian z;
	PbPrng		prng;
	long	   *counts = calloc(1000, sizeof(long));
	long		top = 0;
	int			distinct = 0;
	bool		in_range = true;

	pb_ycsb_zipfian_init(&z, 0, PB_YCSB_SCRAMBLED_ITEMS, PB_YCSB_ZIPFIAN_CONSTANT,
						 PB_YCSB_SCRAMBLED_ZETAN);
	pb_prng_seed(&prng, 7);
	for (int i = 0; i < NDRAWS; i++)
	{
		int64_t		v = pb_ycsb_scrambled_next(&z, &prng, 0, 1000);

		if (v < 0 || v >= 1000)
			in_range = false;
		else
			counts[v]++;
	}
	for (int i = 0; i < 1000; i++)
	{
		top = counts[i] > top ? counts[i] : top;
		distinct += counts[i] > 0;
	}
	check(in_range, "scrambled zipfian stays in [0, 1000)");
	check_between(top / (double) NDRAWS, 1 / 26.469 - 0.001, 1 / 26.469 + 0.004,
				  "scrambled zipfian: share of the most popular record");
	check(distinct > 990, "scrambled zipfian reaches the records: %d of 1000", distinct);
	free(counts);
}

/* latest: the newest key is drawn 1/zeta(items) of the time, none beyond */
static void
test_ycsb_latest(void)
{
	PbYcsbZipfian z;
	PbPrng		prng;
	long		newest = 0;
	bool		in_range = true;
	int64_t		max = 9999;
	double		zeta;

	pb_ycsb_zipfian_init(&z, 0, max - 1, PB_YCSB_ZIPFIAN_CONSTANT, -1);
	zeta = pb_ycsb_zeta(0, max, 0.99, 0);
	pb_prng_seed(&prng, 8);
	for (int i = 0; i < NDRAWS; i++)
	{
		int64_t		v = pb_ycsb_latest_next(&z, &prng, max);

		if (v < 0 || v > max)
			in_range = false;
		newest += (v == max);
	}
	check(in_range, "latest stays at or below the newest key");
	check_between(newest / (double) NDRAWS, 1 / zeta - 0.002, 1 / zeta + 0.002,
				  "latest: share of the newest key");
}

/* hotspot: 80% of the draws in the first 20% */
static void
test_ycsb_hotspot(void)
{
	PbPrng		prng;
	long		hot = 0;
	bool		in_range = true;

	pb_prng_seed(&prng, 9);
	for (int i = 0; i < NDRAWS; i++)
	{
		int64_t		v = pb_ycsb_hotspot(&prng, 0, 9999, 0.2, 0.8);

		if (v < 0 || v > 9999)
			in_range = false;
		hot += (v < 2000);
	}
	check(in_range, "hotspot stays in range");
	check_between(hot / (double) NDRAWS, 0.798, 0.802, "hotspot: share of the hot set");
}

/* values: YCSB's printable range; field order: Java's HashMap */
static void
test_ycsb_values(void)
{
	PbPrng		prng;
	char		buf[1000];
	bool		ok = true;
	int			order[10];
	const int	java[10] = {1, 0, 7, 6, 9, 8, 3, 2, 5, 4};
	int			order20[20];
	bool		perm = true;
	int			seen[20] = {0};

	pb_prng_seed(&prng, 10);
	pb_ycsb_random_bytes(&prng, buf, sizeof(buf));
	for (size_t i = 0; i < sizeof(buf); i++)
		if ((unsigned char) buf[i] < 32 || (unsigned char) buf[i] > 127)
			ok = false;
	check(ok, "YCSB random values between ' ' and DEL");
	pb_ycsb_field_order(10, order);
	check(memcmp(order, java, sizeof(java)) == 0,
		  "HashMap order of 10 fields: %d,%d,%d,%d,%d,%d,%d,%d,%d,%d", order[0],
		  order[1], order[2], order[3], order[4], order[5], order[6], order[7],
		  order[8], order[9]);
	pb_ycsb_field_order(20, order20);
	for (int i = 0; i < 20; i++)
	{
		if (order20[i] < 0 || order20[i] >= 20 || seen[order20[i]]++)
			perm = false;
	}
	check(perm, "HashMap order of 20 fields is a permutation");
}

/* ---- options ------------------------------------------------------------- */

/* YCSB's defaults, proportions and the rules no single property shows */
static void
test_ycsb_options(void)
{
	PbYcsbOptions y;
	PbError		err;
	const PbWorkloadDef *def;

	pb_ycsb_defaults(&y, 'a');
	check(y.proportions[PB_YCSB_READ] == 0.5 && y.proportions[PB_YCSB_UPDATE] == 0.5 &&
		  y.requestdistribution == PB_YCSB_DIST_ZIPFIAN && y.fieldcount == 10,
		  "workload a's defaults");
	check(pb_kind_set_option(&pb_ycsb_library, &y, "read_proportion", "0", &err) &&
		  pb_kind_set_option(&pb_ycsb_library, &y, "updateproportion", "1", &err) &&
		  y.proportions[PB_YCSB_UPDATE] == 1, "proportions given directly");
	y.recordcount = 1000;
	check(pb_kind_check_options(&pb_ycsb_library, &y, &err) && y.insertcount == 1000,
		  "write-only mix accepted");
	check(pb_kind_set_option(&pb_ycsb_library, &y, "readproportion", "0.5", &err) &&
		  !pb_kind_check_options(&pb_ycsb_library, &y, &err) &&
		  strstr(err.message, "add up to 1.5") != NULL, "proportions not adding up to 1: %s",
		  err.message);
	check(!pb_kind_set_option(&pb_ycsb_library, &y, "requestdistribution", "exponential", &err),
		  "unsupported request distribution refused");
	check(pb_kind_set_option(&pb_ycsb_library, &y, "insertorder", "ordered", &err) &&
		  y.orderedinserts, "insertorder=ordered");
	pb_ycsb_defaults(&y, 'e');
	y.recordcount = 1000;
	check(pb_kind_set_option(&pb_ycsb_library, &y, "minscanlength", "200", &err) &&
		  !pb_kind_check_options(&pb_ycsb_library, &y, &err), "minscanlength above maxscanlength");
	pb_ycsb_defaults(&y, 'l');
	check(pb_kind_set_option(&pb_ycsb_library, &y, "readproportion", "0.5", &err) &&
		  !pb_kind_check_options(&pb_ycsb_library, &y, &err), "no reads in the load phase");
	check(pb_kind_library_of("ycsb-f", &def) == &pb_ycsb_library && def->variant == 'f',
		  "workload names");
}

int
main(void)
{
	test_ycsb_keys();
	test_ycsb_zipfian();
	test_ycsb_scrambled();
	test_ycsb_latest();
	test_ycsb_hotspot();
	test_ycsb_values();
	test_ycsb_options();
	return check_summary();
}
