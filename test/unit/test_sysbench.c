/*-------------------------------------------------------------------------
 *
 * test_sysbench.c
 *	  Unit tests of the sysbench kind's backend-free part: sysbench 1.0.20's
 *	  distributions and strings, and its options.
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

#include "sysbench.h"
#include "unit_check.h"

#define NDRAWS 1000000

#ifndef Max
#define Max(a, b) ((a) > (b) ? (a) : (b))
#define Min(a, b) ((a) < (b) ? (a) : (b))
#endif

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

/* ---- options ------------------------------------------------------------- */

/* sysbench's defaults, spellings, refusals and JSON */
static void
test_sb_options(void)
{
	PbSysbenchOptions sb;
	PbError		err;
	const PbWorkloadDef *def;
	char	   *json;

	pb_sysbench_defaults(&sb, PB_SB_READ_WRITE);
	check(sb.table_size == 10000 && sb.point_selects == 10 &&
		  sb.rand_type == PB_SB_SPECIAL && sb.percentile == 95,
		  "sysbench 1.0.20's defaults");
	check(pb_kind_set_option(&pb_sysbench_library, &sb, "table-size", "25000", &err) &&
		  sb.table_size == 25000, "--table-size spelling");
	check(pb_kind_set_option(&pb_sysbench_library, &sb, "TABLES", "64", &err) &&
		  sb.tables == 64, "names fold case");
	check(pb_kind_set_option(&pb_sysbench_library, &sb, "rand-type", "uniform", &err) &&
		  sb.rand_type == PB_SB_UNIFORM, "--rand-type=uniform");
	check(pb_kind_set_option(&pb_sysbench_library, &sb, "skip_trx", "on", &err) &&
		  sb.skip_trx, "--skip-trx=on");
	check(!pb_kind_set_option(&pb_sysbench_library, &sb, "tables", "0", &err) &&
		  strstr(err.message, "invalid value for sysbench option \"tables\"") != NULL,
		  "tables 0 refused: %s", err.message);
	check(!pb_kind_set_option(&pb_sysbench_library, &sb, "tables", "12x", &err),
		  "tables 12x refused");
	check(!pb_kind_set_option(&pb_sysbench_library, &sb, "rand-type", "zipf", &err) &&
		  strstr(err.detail, "uniform, gaussian, special, pareto") != NULL,
		  "unknown rand-type lists the others: %s", err.detail);
	check(!pb_kind_set_option(&pb_sysbench_library, &sb, "rand_pareto_h", "1", &err),
		  "pareto h of 1 refused");
	check(!pb_kind_set_option(&pb_sysbench_library, &sb, "threads", "8", &err) &&
		  strcmp(err.message, "unrecognized sysbench option \"threads\"") == 0,
		  "unknown sysbench option: %s", err.message);
	json = pb_kind_options_json(&pb_sysbench_library, &sb);
	check(json != NULL && strstr(json, "\"table_size\": 25000") != NULL &&
		  strstr(json, "\"rand_type\": \"uniform\"") != NULL &&
		  strstr(json, "\"skip_trx\": true") != NULL, "sysbench options as JSON: %s",
		  json ? json : "NULL");
	free(json);
	check(pb_kind_library_of("oltp_read_write", &def) == &pb_sysbench_library &&
		  def->variant == PB_SB_READ_WRITE &&
		  pb_kind_library_of("tpcb-like", &def) == NULL && def == NULL,
		  "workload names");
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
	test_sb_options();
	return check_summary();
}
