/*-------------------------------------------------------------------------
 *
 * test_workload.c
 *	  Unit tests of the workload library: sysbench 1.0.20's distributions
 *	  and strings, YCSB's generators, key names and field order, TPC-C's
 *	  numbers, strings, deck and think times, and the options of the three.
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

#include "pb_workload.h"
#include "unit_check.h"

#define NDRAWS 1000000

#ifndef Max
#define Max(a, b) ((a) > (b) ? (a) : (b))
#define Min(a, b) ((a) < (b) ? (a) : (b))
#endif


/* Check that x lies in [lo, hi]. */
static void
check_between(double x, double lo, double hi, const char *what)
{
	check(x >= lo && x <= hi, "%s: %g not in [%g, %g]", what, x, lo, hi);
}

/* ---- sysbench ------------------------------------------------------------ */

/* uniform: within bounds, every value reached, flat */
static void
test_sb_uniform(void)
{
	PbPrng		prng;
	int			counts[10] = {0};
	bool		in_range = true;

	pb_prng_seed(&prng, 1);
	for (int i = 0; i < NDRAWS; i++)
	{
		uint32_t	v = pb_sb_uniform(&prng, 1, 10);

		if (v < 1 || v > 10)
			in_range = false;
		else
			counts[v - 1]++;
	}
	check(in_range, "sysbench uniform(1, 10) stays in [1, 10]");
	for (int i = 0; i < 10; i++)
		check_between(counts[i] / (double) NDRAWS, 0.098, 0.102, "sysbench uniform share of a value");
}

/*
 * special (the default, iter 12, pct 1, res 75): 75% of the draws fall on
 * the 1% of the range around the middle, plus the gaussian draws that land
 * there (the gaussian of 12 draws has a deviation of t / 12).
 */
static void
test_sb_special(void)
{
	PbSbRand	r;
	PbPrng		prng;
	uint32_t	a = 1,
				b = 100001;
	double		t = b - a;
	double		lo = a + t / 2 - t * 0.005;
	double		hi = a + t / 2 + t * 0.005 + 1;
	long		in_hot = 0;
	bool		in_range = true;
	double		sd = t / 12;
	double		gauss_share = erf((t * 0.005) / (sd * sqrt(2.0)));
	double		expected;

	pb_sb_rand_init(&r, PB_SB_SPECIAL, 12, 1, 75, 0.2);
	pb_prng_seed(&prng, 2);
	for (int i = 0; i < NDRAWS; i++)
	{
		uint32_t	v = pb_sb_default(&r, &prng, a, b);

		if (v < a || v > b)
			in_range = false;
		if (v >= lo && v < hi)
			in_hot++;
	}
	expected = 0.75 + 0.25 * gauss_share;
	check(in_range, "sysbench special stays in its range");
	check_between(in_hot / (double) NDRAWS, expected - 0.003, expected + 0.003,
				  "sysbench special: share of the hot 1%");
}

/* gaussian: centred, with the deviation of a mean of iter uniforms */
static void
test_sb_gaussian(void)
{
	PbSbRand	r;
	PbPrng		prng;
	double		sum = 0,
				sumsq = 0;
	double		t = 10000;

	pb_sb_rand_init(&r, PB_SB_GAUSSIAN, 12, 1, 75, 0.2);
	pb_prng_seed(&prng, 3);
	for (int i = 0; i < NDRAWS; i++)
	{
		double		v = pb_sb_default(&r, &prng, 1, 10000);

		sum += v;
		sumsq += v * v;
	}
	check_between(sum / NDRAWS, 5000.5 - 5, 5000.5 + 5, "sysbench gaussian mean");
	check_between(sqrt(sumsq / NDRAWS - (sum / NDRAWS) * (sum / NDRAWS)),
				  t / sqrt(144) * 0.99, t / sqrt(144) * 1.01, "sysbench gaussian deviation");
}

/* pareto with h = 0.2: 80% of the draws in the first 20% of the range */
static void
test_sb_pareto(void)
{
	PbSbRand	r;
	PbPrng		prng;
	long		low = 0;

	pb_sb_rand_init(&r, PB_SB_PARETO, 12, 1, 75, 0.2);
	pb_prng_seed(&prng, 4);
	for (int i = 0; i < NDRAWS; i++)
		if (pb_sb_default(&r, &prng, 1, 100000) <= 20000)
			low++;
	check_between(low / (double) NDRAWS, 0.797, 0.803, "sysbench pareto 80/20");
}

/* strings: digits for '#', letters for '@', the rest kept */
static void
test_sb_string(void)
{
	PbPrng		prng;
	char		buf[sizeof(PB_SB_C_TEMPLATE)];
	const char *t = PB_SB_C_TEMPLATE;
	bool		ok = true;
	char		mixed[8];

	pb_prng_seed(&prng, 5);
	pb_sb_string(&prng, t, buf);
	for (size_t i = 0; i < strlen(t); i++)
		if ((t[i] == '#' && (buf[i] < '0' || buf[i] > '9')) ||
			(t[i] != '#' && buf[i] != t[i]))
			ok = false;
	check(ok && strlen(t) == 119, "sysbench c value: 10 groups of 11 digits");
	pb_sb_string(&prng, "@-#@", mixed);
	check(mixed[0] >= 'a' && mixed[0] <= 'z' && mixed[1] == '-' &&
		  mixed[2] >= '0' && mixed[2] <= '9' && mixed[3] >= 'a' && mixed[3] <= 'z',
		  "sysbench template with @ and #");
}

/* qsort's order of uint32 */
static int
compare_u32(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *) a;
	uint32_t	y = *(const uint32_t *) b;

	return x < y ? -1 : x > y;
}

/* unique: no value twice */
static void
test_sb_unique(void)
{
	uint32_t	si,
				so;
	uint32_t   *values = malloc(sizeof(uint32_t) * 200000);
	int			dups = 0;

	pb_sb_unique_seed(12345, 67890, &si, &so);
	for (uint32_t i = 0; i < 200000; i++)
		values[i] = pb_sb_unique(i, si, so);
	qsort(values, 200000, sizeof(uint32_t), compare_u32);
	for (int i = 1; i < 200000; i++)
		if (values[i] == values[i - 1])
			dups++;
	check(dups == 0, "sysbench unique: %d repeated values", dups);
	free(values);
}

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

static void
test_options(void)
{
	PbSysbenchOptions sb;
	PbYcsbOptions y;
	PbError		err;
	char	   *json;

	pb_sysbench_defaults(&sb, PB_SB_READ_WRITE);
	check(sb.table_size == 10000 && sb.point_selects == 10 &&
		  sb.rand_type == PB_SB_SPECIAL && sb.percentile == 95,
		  "sysbench 1.0.20's defaults");
	check(pb_workload_set_option(PB_KIND_SYSBENCH, &sb, "table-size", "25000", &err) &&
		  sb.table_size == 25000, "--table-size spelling");
	check(pb_workload_set_option(PB_KIND_SYSBENCH, &sb, "TABLES", "64", &err) &&
		  sb.tables == 64, "names fold case");
	check(pb_workload_set_option(PB_KIND_SYSBENCH, &sb, "rand-type", "uniform", &err) &&
		  sb.rand_type == PB_SB_UNIFORM, "--rand-type=uniform");
	check(pb_workload_set_option(PB_KIND_SYSBENCH, &sb, "skip_trx", "on", &err) &&
		  sb.skip_trx, "--skip-trx=on");
	check(!pb_workload_set_option(PB_KIND_SYSBENCH, &sb, "tables", "0", &err) &&
		  strstr(err.message, "invalid value for sysbench option \"tables\"") != NULL,
		  "tables 0 refused: %s", err.message);
	check(!pb_workload_set_option(PB_KIND_SYSBENCH, &sb, "tables", "12x", &err),
		  "tables 12x refused");
	check(!pb_workload_set_option(PB_KIND_SYSBENCH, &sb, "rand-type", "zipf", &err) &&
		  strstr(err.detail, "uniform, gaussian, special, pareto") != NULL,
		  "unknown rand-type lists the others: %s", err.detail);
	check(!pb_workload_set_option(PB_KIND_SYSBENCH, &sb, "rand_pareto_h", "1", &err),
		  "pareto h of 1 refused");
	check(!pb_workload_set_option(PB_KIND_SYSBENCH, &sb, "threads", "8", &err) &&
		  strcmp(err.message, "unrecognized sysbench option \"threads\"") == 0,
		  "unknown sysbench option: %s", err.message);
	json = pb_workload_options_json(PB_KIND_SYSBENCH, &sb);
	check(json != NULL && strstr(json, "\"table_size\": 25000") != NULL &&
		  strstr(json, "\"rand_type\": \"uniform\"") != NULL &&
		  strstr(json, "\"skip_trx\": true") != NULL, "sysbench options as JSON: %s",
		  json ? json : "NULL");
	free(json);

	pb_ycsb_defaults(&y, 'a');
	check(y.proportions[PB_YCSB_READ] == 0.5 && y.proportions[PB_YCSB_UPDATE] == 0.5 &&
		  y.requestdistribution == PB_YCSB_DIST_ZIPFIAN && y.fieldcount == 10,
		  "workload a's defaults");
	check(pb_workload_set_option(PB_KIND_YCSB, &y, "read_proportion", "0", &err) &&
		  pb_workload_set_option(PB_KIND_YCSB, &y, "updateproportion", "1", &err) &&
		  y.proportions[PB_YCSB_UPDATE] == 1, "proportions given directly");
	y.recordcount = 1000;
	check(pb_workload_check_options(PB_KIND_YCSB, &y, &err) && y.insertcount == 1000,
		  "write-only mix accepted");
	check(pb_workload_set_option(PB_KIND_YCSB, &y, "readproportion", "0.5", &err) &&
		  !pb_workload_check_options(PB_KIND_YCSB, &y, &err) &&
		  strstr(err.message, "add up to 1.5") != NULL, "proportions not adding up to 1: %s",
		  err.message);
	check(!pb_workload_set_option(PB_KIND_YCSB, &y, "requestdistribution", "exponential", &err),
		  "unsupported request distribution refused");
	check(pb_workload_set_option(PB_KIND_YCSB, &y, "insertorder", "ordered", &err) &&
		  y.orderedinserts, "insertorder=ordered");
	pb_ycsb_defaults(&y, 'e');
	y.recordcount = 1000;
	check(pb_workload_set_option(PB_KIND_YCSB, &y, "minscanlength", "200", &err) &&
		  !pb_workload_check_options(PB_KIND_YCSB, &y, &err), "minscanlength above maxscanlength");
	pb_ycsb_defaults(&y, 'l');
	check(pb_workload_set_option(PB_KIND_YCSB, &y, "readproportion", "0.5", &err) &&
		  !pb_workload_check_options(PB_KIND_YCSB, &y, &err), "no reads in the load phase");
	check(pb_workload_find("oltp_read_write") != NULL &&
		  pb_workload_find("oltp_read_write")->kind == PB_KIND_SYSBENCH &&
		  pb_workload_find("ycsb-f")->kind == PB_KIND_YCSB &&
		  pb_workload_find("tpcb-like") == NULL, "workload names");
}

/* ---- TPC-C --------------------------------------------------------------- */

/* last names from the syllables, as 4.3.2.3's examples */
static void
test_tpcc_last_names(void)
{
	char		buf[PB_TPCC_LAST_LEN + 1];
	int			longest = 0;

	check(pb_tpcc_last_name(371, buf) == 13 && strcmp(buf, "PRICALLYOUGHT") == 0,
		  "371 is PRICALLYOUGHT: %s", buf);
	check(pb_tpcc_last_name(40, buf) == 10 && strcmp(buf, "BARPRESBAR") == 0,
		  "40 is BARPRESBAR: %s", buf);
	check(pb_tpcc_last_name(0, buf) == 9 && strcmp(buf, "BARBARBAR") == 0,
		  "0 is BARBARBAR: %s", buf);
	for (int n = 0; n < 1000; n++)
		longest = Max(longest, pb_tpcc_last_name(n, buf));
	check(longest == PB_TPCC_LAST_LEN, "the longest last name: %d", longest);
}

/*
 * NURand(A, x, y): within [x, y]; the run's C for C_LAST keeps to the rule
 * of 2.1.6.1 with the load's; NURand is far from uniform (its most
 * frequent value is drawn far more often than 1 / (y - x + 1)).
 */
static void
test_tpcc_nurand(void)
{
	PbPrng		prng;
	static int	counts[3000];
	bool		in_range = true;
	int			most = 0;
	PbTpccConstants c;

	pb_prng_seed(&prng, 7);
	for (int i = 0; i < NDRAWS; i++)
	{
		int			v = pb_tpcc_nurand(&prng, PB_TPCC_A_C_ID, 1, 3000, 259);

		if (v < 1 || v > 3000)
			in_range = false;
		else
			counts[v - 1]++;
	}
	check(in_range, "NURand(1023, 1, 3000) stays in [1, 3000]");
	for (int i = 0; i < 3000; i++)
		most = Max(most, counts[i]);
	check(most > 3.0 * NDRAWS / 3000, "NURand is skewed: the most drawn value %d times", most);

	check(pb_tpcc_c_delta_ok(100, 165) && pb_tpcc_c_delta_ok(200, 81) &&
		  !pb_tpcc_c_delta_ok(100, 164) && !pb_tpcc_c_delta_ok(100, 196) &&
		  !pb_tpcc_c_delta_ok(100, 212) && !pb_tpcc_c_delta_ok(0, 120),
		  "the delta rule of 2.1.6.1");
	for (int load = 0; load <= PB_TPCC_A_LAST; load++)
	{
		pb_tpcc_constants(&prng, load, &c);
		if (!pb_tpcc_c_delta_ok(load, c.c_last) || c.c_id < 0 || c.c_id > 1023 ||
			c.ol_i_id < 0 || c.ol_i_id > 8191)
		{
			check(false, "constants for C_LOAD %d: %d %d %d", load, c.c_last, c.c_id, c.ol_i_id);
			break;
		}
	}
	check(true, "run constants for every C_LOAD");
}

/* a-strings, n-strings, zips and the data columns' ORIGINAL in 10% of rows */
static void
test_tpcc_strings(void)
{
	PbPrng		prng;
	char		buf[600];
	int			minlen = 1000,
				maxlen = 0,
				original = 0;
	bool		alnum = true;

	pb_prng_seed(&prng, 11);
	for (int i = 0; i < 100000; i++)
	{
		int			len = pb_tpcc_astring(&prng, 300, 500, buf);

		if (i < 1000)
			for (int k = 0; k < len; k++)
				alnum &= (buf[k] >= '0' && buf[k] <= '9') || (buf[k] >= 'a' && buf[k] <= 'z') ||
					(buf[k] >= 'A' && buf[k] <= 'Z');
		minlen = Min(minlen, len);
		maxlen = Max(maxlen, len);
		if (i >= 1000)
			break;
	}
	check(alnum && minlen >= 300 && maxlen <= 500 && (int) strlen(buf) <= 500,
		  "a-string[300..500]: letters and digits, lengths %d..%d", minlen, maxlen);
	{
		/* every character as likely: 1/62 each, within 6 standard deviations */
		long		counts[256] = {0};
		long		total = 0;
		int			seen = 0;

		for (int i = 0; i < 4000; i++)
		{
			int			len = pb_tpcc_astring(&prng, 24, 24, buf);

			for (int k = 0; k < len; k++)
				counts[(unsigned char) buf[k]]++;
			total += len;
		}
		for (int ch = 0; ch < 256; ch++)
			if (counts[ch] > 0)
			{
				seen++;
				check_between((double) counts[ch] / total, 1.0 / 62 - 6 * sqrt((1.0 / 62) * (61.0 / 62) / total),
							  1.0 / 62 + 6 * sqrt((1.0 / 62) * (61.0 / 62) / total),
							  "share of an a-string's character");
			}
		check(seen == 62, "an a-string draws from 62 characters: %d", seen);
	}
	pb_tpcc_zip(&prng, buf);
	check(strlen(buf) == 9 && strcmp(buf + 4, "11111") == 0 &&
		  strspn(buf, "0123456789") == 9, "zip: 4 digits and 11111: %s", buf);
	check(pb_tpcc_nstring(&prng, 16, 16, buf) == 16 && strspn(buf, "0123456789") == 16,
		  "n-string of 16: %s", buf);
	minlen = 1000;
	maxlen = 0;
	for (int i = 0; i < 100000; i++)
	{
		int			len = pb_tpcc_data(&prng, buf);

		minlen = Min(minlen, len);
		maxlen = Max(maxlen, len);
		original += strstr(buf, "ORIGINAL") != NULL;
	}
	check(minlen == 26 && maxlen == 50, "data: 26..50 characters: %d..%d", minlen, maxlen);
	check_between(original / 100000.0, 0.095, 0.105, "share of data with ORIGINAL");
}

/* the customers of a district's orders: every one exactly once */
static void
test_tpcc_permutation(void)
{
	PbPrng		prng;
	int			perm[PB_TPCC_ORDERS];
	static bool seen[PB_TPCC_ORDERS + 1];
	bool		ok = true;
	int			fixed = 0;

	pb_prng_seed(&prng, 5);
	pb_tpcc_permutation(&prng, perm, PB_TPCC_ORDERS);
	for (int i = 0; i < PB_TPCC_ORDERS; i++)
	{
		if (perm[i] < 1 || perm[i] > PB_TPCC_ORDERS || seen[perm[i]])
			ok = false;
		else
			seen[perm[i]] = true;
		fixed += perm[i] == i + 1;
	}
	check(ok, "o_c_id is a permutation of 1..3000");
	check(fixed < 20, "a permutation, not the identity: %d fixed points", fixed);
}

/* an order's line count is the same whoever asks, and in [5, 15] */
static void
test_tpcc_order_lines(void)
{
	int			counts[16] = {0};
	bool		same = true;

	for (int o = 1; o <= 30000; o++)
	{
		int			n = pb_tpcc_order_lines(42, 1 + o % 3, 1 + o % 10, o);

		same &= n == pb_tpcc_order_lines(42, 1 + o % 3, 1 + o % 10, o);
		if (n >= 5 && n <= 15)
			counts[n]++;
		else
			same = false;
	}
	check(same, "order line counts are reproducible and in [5, 15]");
	for (int n = 5; n <= 15; n++)
		check_between(counts[n] / 30000.0, 0.08, 0.102, "share of an order line count");
	check(pb_tpcc_seed(1, PB_TPCC_SEED_ORDER, 1, 1, 1) != pb_tpcc_seed(1, PB_TPCC_SEED_ORDER, 1, 1, 2) &&
		  pb_tpcc_seed(1, PB_TPCC_SEED_ORDER, 1, 1, 1) != pb_tpcc_seed(2, PB_TPCC_SEED_ORDER, 1, 1, 1),
		  "seeds differ by key and by load");
}

/*
 * C_LOAD: in [0, 255], the same for a load's seed, spread over the range by
 * seeds; states: two upper-case letters, every one reached; bad credit:
 * 10% (over a million draws, a share within 0.3 points is certain: the
 * standard deviation is 0.03 points)
 */
static void
test_tpcc_load_rules(void)
{
	int			c_counts[256] = {0};
	int			letters[26] = {0};
	bool		ok = true;
	int			reached = 0;
	long		bad = 0;
	PbPrng		prng;
	char		buf[3];

	for (uint64_t seed = 0; seed < 256 * 100; seed++)
	{
		int			c = pb_tpcc_c_load(seed);

		if (c < 0 || c > 255 || c != pb_tpcc_c_load(seed))
			ok = false;
		else
			c_counts[c]++;
	}
	check(ok, "C_LOAD is in [0, 255] and follows from the seed");
	for (int c = 0; c < 256; c++)
		reached += c_counts[c] > 0;
	check(reached == 256, "every C_LOAD is drawn by some seed: %d of 256", reached);

	pb_prng_seed(&prng, 7);
	ok = true;
	for (int i = 0; i < 10000; i++)
	{
		pb_tpcc_state(&prng, buf);
		if (buf[0] < 'A' || buf[0] > 'Z' || buf[1] < 'A' || buf[1] > 'Z' || buf[2] != '\0')
			ok = false;
		else
			letters[buf[0] - 'A']++, letters[buf[1] - 'A']++;
	}
	check(ok, "a state is two upper-case letters");
	reached = 0;
	for (int l = 0; l < 26; l++)
		reached += letters[l] > 0;
	check(reached == 26, "every letter is drawn: %d of 26", reached);

	for (int i = 0; i < NDRAWS; i++)
		bad += pb_tpcc_bad_credit(&prng);
	check_between((double) bad / NDRAWS, 0.097, 0.103, "share of BC credit");
}

/* the deck: each run of 100 cards is the mix exactly; think times capped */
static void
test_tpcc_deck(void)
{
	PbTpccDeck	deck;
	PbPrng		prng;
	int			pct[PB_TPCC_NTYPES] = {45, 43, 4, 4, 4};
	bool		exact = true;
	double		sum = 0,
				most = 0;

	pb_prng_seed(&prng, 3);
	pb_tpcc_deck_init(&deck, pct);
	for (int round = 0; round < 50; round++)
	{
		int			counts[PB_TPCC_NTYPES] = {0};

		for (int i = 0; i < PB_TPCC_DECK_CARDS; i++)
			counts[pb_tpcc_deck_draw(&deck, &prng)]++;
		for (int t = 0; t < PB_TPCC_NTYPES; t++)
			exact &= counts[t] == pct[t];
	}
	check(exact, "every 100 cards hold the mix exactly");
	for (int i = 0; i < NDRAWS; i++)
	{
		double		t = pb_tpcc_think_time(&prng, 12);

		sum += t;
		most = Max(most, t);
	}
	/* the mean of the exponential capped at 10 means: mean (1 - e^-10) */
	check_between(sum / NDRAWS, 11.95, 12.03, "mean think time of 12 s");
	check(most <= 120.0 && most > 100.0, "think times capped at 10 means: %g", most);
	check(pb_tpcc_keying_time(PB_TPCC_NEW_ORDER) == 18 && pb_tpcc_think_mean(PB_TPCC_PAYMENT) == 12 &&
		  pb_tpcc_think_mean(PB_TPCC_STOCK_LEVEL) == 5, "keying and think times of 5.2.5.7");
	check(strcmp(pb_tpcc_type_name(PB_TPCC_DELIVERY), "DELIVERY") == 0, "type names");
}

/*
 * Terminals with keying and think times, served by a client that takes no
 * time: each terminal's New-Orders per minute come out at 1.286, the
 * 12.86 tpmC of a warehouse's ten (clause 4.2 and 5.2.5), over a day of
 * simulated time; without them a terminal is due at once.
 */
static void
test_tpcc_terminals(void)
{
	PbTpccTerminal terminals[10];
	PbPrng		prng;
	int			pct[PB_TPCC_NTYPES] = {45, 43, 4, 4, 4};
	const int64_t day = INT64_C(86400) * 1000000000;
	int64_t		new_orders = 0;
	int64_t		now = 0;
	PbTpccTerminal t;

	pb_prng_seed(&prng, 13);
	for (int i = 0; i < 10; i++)
		pb_tpcc_terminal_init(&terminals[i], 1, i + 1, pct, &prng, true, 0);
	check(terminals[0].due_ns == (int64_t) (pb_tpcc_keying_time(terminals[0].next_type) * 1e9),
		  "a terminal is first due after its keying time");
	while (now < day)
	{
		int			first = 0;

		for (int i = 1; i < 10; i++)
			if (terminals[i].due_ns < terminals[first].due_ns)
				first = i;
		now = terminals[first].due_ns;
		new_orders += terminals[first].next_type == PB_TPCC_NEW_ORDER;
		pb_tpcc_terminal_advance(&terminals[first], &prng, true, now);
	}
	check_between(new_orders / 1440.0, 12.86 * 0.97, 12.86 * 1.03,
				  "tpmC of a warehouse's ten terminals");
	pb_tpcc_terminal_init(&t, 2, 3, pct, &prng, false, 500);
	pb_tpcc_terminal_advance(&t, &prng, false, 700);
	check(t.due_ns == 700 && t.w_id == 2 && t.d_id == 3, "without keying, due at once");
}

/* TPC-C's options: the defaults, the minimums of the mix, and its sum */
static void
test_tpcc_options(void)
{
	PbTpccOptions o;
	PbError		err;

	pb_tpcc_defaults(&o);
	check(o.payment == 43 && o.order_status == 4 && o.delivery == 4 && o.stock_level == 4 &&
		  !o.keying_think && o.terminals == 10 && o.warehouses == 0, "TPC-C's defaults");
	check(!pb_workload_set_option(PB_KIND_TPCC, &o, "payment", "42", &err) &&
		  strstr(err.message, "invalid value for TPC-C option \"payment\"") != NULL,
		  "fewer than 43 Payment cards: %s", err.message);
	check(pb_workload_set_option(PB_KIND_TPCC, &o, "keying-think", "on", &err) && o.keying_think,
		  "keying_think on");
	check(pb_workload_set_option(PB_KIND_TPCC, &o, "Warehouses", "4", &err) &&
		  o.warehouses == 4 && o.warehouses_given, "warehouses given");
	check(pb_workload_set_option(PB_KIND_TPCC, &o, "payment", "90", &err) &&
		  !pb_workload_check_options(PB_KIND_TPCC, &o, &err) &&
		  strstr(err.message, "more than 100") != NULL, "a mix over 100 cards: %s", err.message);
	check(pb_workload_find("tpcc") != NULL && pb_workload_find("tpcc")->kind == PB_KIND_TPCC,
		  "tpcc is a workload");
}

/* every option of the three refuses a value that is not one */
static void
test_every_option(void)
{
	PbWorkloadKind kinds[3] = {PB_KIND_SYSBENCH, PB_KIND_YCSB, PB_KIND_TPCC};
	static const char *const tools[3] = {"sysbench", "YCSB", "TPC-C"};
	int			checked = 0;

	for (int k = 0; k < 3; k++)
	{
		const char *name;

		for (int i = 0; (name = pb_workload_option_at(kinds[k], i)) != NULL; i++)
		{
			PbSysbenchOptions sb;
			PbYcsbOptions y;
			PbTpccOptions tc;
			void	   *o = k == 0 ? (void *) &sb : k == 1 ? (void *) &y : (void *) &tc;
			PbError		err;
			char		expect[128];

			pb_sysbench_defaults(&sb, PB_SB_READ_WRITE);
			pb_ycsb_defaults(&y, 'a');
			pb_tpcc_defaults(&tc);
			snprintf(expect, sizeof(expect), "invalid value for %s option \"%s\"",
					 tools[k], name);
			check(!pb_workload_set_option(kinds[k], o, name, "not-a-value", &err) &&
				  strstr(err.message, expect) != NULL && err.detail[0] != '\0',
				  "%s refuses a value that is not one: %s", name, err.message);
			check(!pb_workload_set_option(kinds[k], o, name, "-99999999999", &err),
				  "%s refuses -99999999999", name);
			check(pb_workload_has_option(kinds[k], name), "%s is an option", name);
			checked++;
		}
	}
	check(checked == 50, "the options of the three: %d", checked);
}

int
main(void)
{
	test_sb_uniform();
	test_sb_special();
	test_sb_gaussian();
	test_sb_pareto();
	test_sb_string();
	test_sb_unique();
	test_ycsb_keys();
	test_ycsb_zipfian();
	test_ycsb_scrambled();
	test_ycsb_latest();
	test_ycsb_hotspot();
	test_ycsb_values();
	test_tpcc_last_names();
	test_tpcc_nurand();
	test_tpcc_strings();
	test_tpcc_permutation();
	test_tpcc_load_rules();
	test_tpcc_order_lines();
	test_tpcc_deck();
	test_tpcc_terminals();
	test_tpcc_options();
	test_options();
	test_every_option();
	return check_summary();
}
