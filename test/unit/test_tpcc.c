/*-------------------------------------------------------------------------
 *
 * test_tpcc.c
 *	  Unit tests of the TPC-C kind's backend-free part: TPC-C's numbers,
 *	  strings, deck and think times, and its options.
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

#include "tpcc.h"
#include "unit_check.h"

#define NDRAWS 1000000

#ifndef Max
#define Max(a, b) ((a) > (b) ? (a) : (b))
#define Min(a, b) ((a) < (b) ? (a) : (b))
#endif

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
	const PbWorkloadDef *def;

	pb_tpcc_defaults(&o);
	check(o.payment == 43 && o.order_status == 4 && o.delivery == 4 && o.stock_level == 4 &&
		  !o.keying_think && o.terminals == 10 && o.warehouses == 0, "TPC-C's defaults");
	check(!pb_kind_set_option(&pb_tpcc_library, &o, "payment", "42", &err) &&
		  strstr(err.message, "invalid value for TPC-C option \"payment\"") != NULL,
		  "fewer than 43 Payment cards: %s", err.message);
	check(pb_kind_set_option(&pb_tpcc_library, &o, "keying-think", "on", &err) && o.keying_think,
		  "keying_think on");
	check(pb_kind_set_option(&pb_tpcc_library, &o, "Warehouses", "4", &err) &&
		  o.warehouses == 4 && o.warehouses_given, "warehouses given");
	check(pb_kind_set_option(&pb_tpcc_library, &o, "payment", "90", &err) &&
		  !pb_kind_check_options(&pb_tpcc_library, &o, &err) &&
		  strstr(err.message, "more than 100") != NULL, "a mix over 100 cards: %s", err.message);
	check(pb_kind_library_of("tpcc", &def) == &pb_tpcc_library && def != NULL &&
		  strcmp(def->name, "tpcc") == 0, "tpcc is a workload of the kind");
}

/* every option of the three refuses a value that is not one */

int
main(void)
{
	test_tpcc_last_names();
	test_tpcc_nurand();
	test_tpcc_strings();
	test_tpcc_permutation();
	test_tpcc_order_lines();
	test_tpcc_load_rules();
	test_tpcc_deck();
	test_tpcc_terminals();
	test_tpcc_options();
	return check_summary();
}
