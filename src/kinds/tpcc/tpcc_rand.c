/*-------------------------------------------------------------------------
 *
 * tpcc_rand.c
 *	  TPC-C's numbers and strings (TPC-C 5.11, clauses 2.1.6, 4.3.2 and
 *	  5.2): NURand and its run-time constants with the load/run rule of
 *	  2.1.6.1, customer last names from their syllables, a-strings,
 *	  n-strings, zip codes, states, the data columns with "ORIGINAL" in
 *	  them, bad credit, the permutation of customers over a district's
 *	  initial orders, the load's C_LOAD, the deck of transaction types and
 *	  the think time.
 *
 * Both the loader (rows of the initial population) and the workload's
 * driver (each transaction's input) draw from here, so that they cannot
 * disagree on a rule.  A row that two tables must agree on (an order and
 * its lines, which two load jobs write) is drawn from a generator seeded
 * by pb_tpcc_seed() from the row's key and the load's seed, not from a
 * stream that depends on what was generated before.
 *
 *-------------------------------------------------------------------------
 */
#include <math.h>
#include <string.h>

#include "tpcc.h"

/* 4.3.2.3: the syllables of C_LAST */
static const char *const tpcc_syllables[10] = {
	"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"
};

/* 4.3.2.2: the characters of an a-string (letters and digits) */
static const char tpcc_alnum[] =
"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/*
 * pb_tpcc_random
 *		random(x, y) of 2.1.4: uniform over [x, y], both included.
 */
int64_t
pb_tpcc_random(PbPrng *prng, int64_t x, int64_t y)
{
	return pb_rand_uniform(prng, x, y);
}

/*
 * pb_tpcc_nurand
 *		NURand(A, x, y) of 2.1.6 with the run-time constant C:
 *		(((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x.
 */
int
pb_tpcc_nurand(PbPrng *prng, int a, int x, int y, int c)
{
	int64_t		r = pb_rand_uniform(prng, 0, a) | pb_rand_uniform(prng, x, y);

	return (int) (((r + c) % (y - x + 1)) + x);
}

/*
 * pb_tpcc_c_delta_ok
 *		Whether C_RUN may go with C_LOAD for C_LAST (2.1.6.1): their
 *		distance is in [65, 119] and is neither 96 nor 112.
 */
bool
pb_tpcc_c_delta_ok(int c_load, int c_run)
{
	int			delta = c_run > c_load ? c_run - c_load : c_load - c_run;

	return delta >= 65 && delta <= 119 && delta != 96 && delta != 112;
}

/*
 * pb_tpcc_constants
 *		The run's constants C of NURand: C_LAST drawn in [0, 255] until it
 *		may go with c_load (the load's, which a run reads with the data; -1
 *		when the data does not say, and any C_LAST goes), C_ID in [0, 1023]
 *		and OL_I_ID in [0, 8191], which have no rule.
 */
void
pb_tpcc_constants(PbPrng *prng, int c_load, PbTpccConstants *c)
{
	do
		c->c_last = (int) pb_rand_uniform(prng, 0, PB_TPCC_A_LAST);
	while (c_load >= 0 && !pb_tpcc_c_delta_ok(c_load, c->c_last));
	c->c_id = (int) pb_rand_uniform(prng, 0, PB_TPCC_A_C_ID);
	c->ol_i_id = (int) pb_rand_uniform(prng, 0, PB_TPCC_A_ITEM);
}

/*
 * pb_tpcc_last_name
 *		C_LAST for a number in [0, 999] (4.3.2.3): the syllables of its
 *		hundreds, tens and units, in buf (at least PB_TPCC_LAST_LEN + 1
 *		bytes).  Returns its length.
 */
int
pb_tpcc_last_name(int num, char *buf)
{
	int			digits[3] = {num / 100, (num / 10) % 10, num % 10};
	int			len = 0;

	for (int i = 0; i < 3; i++)
	{
		size_t		n = strlen(tpcc_syllables[digits[i]]);

		memcpy(buf + len, tpcc_syllables[digits[i]], n);
		len += (int) n;
	}
	buf[len] = '\0';
	return len;
}

/*
 * pb_tpcc_customer_last
 *		The initial population's C_LAST of customer c_id (4.3.3.1): the
 *		name of c_id - 1 for the first 1000, of NURand(255, 0, 999) with
 *		the load's constant above.  Returns its length.
 */
int
pb_tpcc_customer_last(PbPrng *prng, int c_id, int c_load, char *buf)
{
	if (c_id <= 1000)
		return pb_tpcc_last_name(c_id - 1, buf);
	return pb_tpcc_last_name(pb_tpcc_nurand(prng, PB_TPCC_A_LAST, 0, 999, c_load),
							 buf);
}

/*
 * pb_tpcc_astring
 *		An a-string of random length in [min, max] (4.3.2.2) in buf, which
 *		has room for max + 1 bytes.  Returns its length.  Each character is
 *		uniform over the 62 letters and digits: six random bits, drawn again
 *		when they say 62 or 63, ten of them from each 64-bit draw (a loader
 *		draws some 50 million characters per warehouse).
 */
int
pb_tpcc_astring(PbPrng *prng, int min, int max, char *buf)
{
	int			len = (int) pb_rand_uniform(prng, min, max);
	uint64_t	bits = 0;
	int			left = 0;

	for (int i = 0; i < len;)
	{
		unsigned int v;

		if (left == 0)
		{
			bits = pb_prng_u64(prng);
			left = 10;
		}
		v = (unsigned int) (bits & 63);
		bits >>= 6;
		left--;
		if (v < sizeof(tpcc_alnum) - 1)
			buf[i++] = tpcc_alnum[v];
	}
	buf[len] = '\0';
	return len;
}

/*
 * pb_tpcc_nstring
 *		An n-string (digits) of random length in [min, max], likewise.
 */
int
pb_tpcc_nstring(PbPrng *prng, int min, int max, char *buf)
{
	int			len = (int) pb_rand_uniform(prng, min, max);

	for (int i = 0; i < len; i++)
		buf[i] = (char) ('0' + pb_rand_uniform(prng, 0, 9));
	buf[len] = '\0';
	return len;
}

/*
 * pb_tpcc_zip
 *		A zip code (4.3.2.7): four random digits and "11111", in buf (10
 *		bytes).
 */
void
pb_tpcc_zip(PbPrng *prng, char *buf)
{
	pb_tpcc_nstring(prng, 4, 4, buf);
	memcpy(buf + 4, "11111", 6);
}

/*
 * pb_tpcc_data
 *		I_DATA or S_DATA (4.3.3.1): an a-string of [26, 50] characters, in
 *		10% of rows with "ORIGINAL" at a random place in it, in buf (51
 *		bytes).  Returns its length.
 */
int
pb_tpcc_data(PbPrng *prng, char *buf)
{
	int			len = pb_tpcc_astring(prng, 26, 50, buf);

	if (pb_rand_uniform(prng, 1, 100) <= 10)
	{
		int			at = (int) pb_rand_uniform(prng, 0, len - 8);

		memcpy(buf + at, "ORIGINAL", 8);
	}
	return len;
}

/*
 * pb_tpcc_permutation
 *		A random permutation of 1..n in perm (Fisher-Yates): the customers
 *		of a district's initial orders, O_C_ID in o_id order (4.3.3.1).
 */
void
pb_tpcc_permutation(PbPrng *prng, int *perm, int n)
{
	for (int i = 0; i < n; i++)
		perm[i] = i + 1;
	for (int i = n - 1; i > 0; i--)
	{
		int			j = (int) pb_rand_uniform(prng, 0, i);
		int			t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
}

/*
 * pb_tpcc_seed
 *		The seed of a generator for one row of the initial population (or a
 *		group of rows that must agree: an order and its lines), from the
 *		load's seed and the row's key: a 64-bit mix (splitmix64's), so that
 *		neighbouring keys get unrelated streams.
 */
uint64_t
pb_tpcc_seed(uint64_t load_seed, int table, int64_t w, int64_t d, int64_t id)
{
	uint64_t	z = load_seed;
	uint64_t	parts[4] = {(uint64_t) table, (uint64_t) w, (uint64_t) d, (uint64_t) id};

	for (int i = 0; i < 4; i++)
	{
		z += parts[i] + UINT64_C(0x9E3779B97F4A7C15);
		z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
		z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
		z ^= z >> 31;
	}
	return z;
}

/*
 * pb_tpcc_order_lines
 *		O_OL_CNT of an order of the initial population, [5, 15], from the
 *		order's own generator, so that the orders and the order lines,
 *		which the loader writes in different jobs, agree.
 */
int
pb_tpcc_order_lines(uint64_t load_seed, int w, int d, int o_id)
{
	PbPrng		prng;

	pb_prng_seed(&prng, pb_tpcc_seed(load_seed, PB_TPCC_SEED_ORDER_LINES, w, d, o_id));
	return (int) pb_rand_uniform(&prng, PB_TPCC_MIN_LINES, PB_TPCC_MAX_LINES);
}

/*
 * pb_tpcc_c_load
 *		C_LOAD, the constant C of NURand(255) for the C_LAST of the initial
 *		population (2.1.6, 4.3.3.1): drawn in [0, 255], once per load, from
 *		the load's seed, so that every job of a load (and an extension of
 *		it) agrees on it.
 */
int
pb_tpcc_c_load(uint64_t load_seed)
{
	PbPrng		prng;

	pb_prng_seed(&prng, pb_tpcc_seed(load_seed, PB_TPCC_SEED_C_LOAD, 0, 0, 0));
	return (int) pb_rand_uniform(&prng, 0, PB_TPCC_A_LAST);
}

/*
 * pb_tpcc_state
 *		W_STATE, D_STATE or C_STATE (4.3.3.1): an a-string of 2 letters,
 *		upper case as a state's code, in buf (3 bytes).
 */
void
pb_tpcc_state(PbPrng *prng, char *buf)
{
	buf[0] = (char) ('A' + pb_rand_uniform(prng, 0, 25));
	buf[1] = (char) ('A' + pb_rand_uniform(prng, 0, 25));
	buf[2] = '\0';
}

/*
 * pb_tpcc_bad_credit
 *		Whether a customer of the initial population has bad credit,
 *		C_CREDIT "BC" (4.3.3.1): 10% of them, chosen at random; "GC"
 *		otherwise.
 */
bool
pb_tpcc_bad_credit(PbPrng *prng)
{
	return pb_rand_uniform(prng, 1, 100) <= 10;
}

/*
 * pb_tpcc_deck_init
 *		A deck of 100 cards for the mix (5.2.4.2): pct[t] cards of each
 *		transaction type t, which add up to 100.  Drawn without
 *		replacement, and shuffled again when it runs out.
 */
void
pb_tpcc_deck_init(PbTpccDeck *deck, const int *pct)
{
	int			n = 0;

	for (int t = 0; t < PB_TPCC_NTYPES; t++)
		for (int i = 0; i < pct[t] && n < PB_TPCC_DECK_CARDS; i++)
			deck->cards[n++] = (uint8_t) t;
	deck->ncards = n;
	deck->next = n;				/* shuffled at the first draw */
}

/*
 * pb_tpcc_deck_draw
 *		The next card: the transaction type a terminal runs next.
 */
int
pb_tpcc_deck_draw(PbTpccDeck *deck, PbPrng *prng)
{
	if (deck->next >= deck->ncards)
	{
		for (int i = deck->ncards - 1; i > 0; i--)
		{
			int			j = (int) pb_rand_uniform(prng, 0, i);
			uint8_t		t = deck->cards[i];

			deck->cards[i] = deck->cards[j];
			deck->cards[j] = t;
		}
		deck->next = 0;
	}
	return deck->cards[deck->next++];
}

/*
 * pb_tpcc_think_time
 *		A think time of mean seconds (5.2.5.4): -ln(r) * mean for r uniform
 *		in (0, 1], at most 10 times the mean.
 */
double
pb_tpcc_think_time(PbPrng *prng, double mean)
{
	double		r = 1.0 - pb_prng_double(prng);	/* (0, 1] */
	double		t = -log(r) * mean;

	return t < 10 * mean ? t : 10 * mean;
}

/* 5.2.5.7: the keying times and the means of the think times, in seconds */
static const double tpcc_keying[PB_TPCC_NTYPES] = {18, 3, 2, 2, 2};
static const double tpcc_think[PB_TPCC_NTYPES] = {12, 12, 10, 5, 5};

/* The keying time of a transaction type. */
double
pb_tpcc_keying_time(int type)
{
	return tpcc_keying[type];
}

/* The mean think time of a transaction type. */
double
pb_tpcc_think_mean(int type)
{
	return tpcc_think[type];
}

/*
 * pb_tpcc_terminal_init
 *		A terminal at home in w_id, with d_id for Stock-Level, a deck of
 *		the mix pct and its first card; with keying_think due once it has
 *		keyed that card's input (5.2.5.2), from now_ns.
 */
void
pb_tpcc_terminal_init(PbTpccTerminal *t, int w_id, int d_id, const int *pct,
					  PbPrng *prng, bool keying_think, int64_t now_ns)
{
	t->w_id = w_id;
	t->d_id = d_id;
	pb_tpcc_deck_init(&t->deck, pct);
	t->next_type = pb_tpcc_deck_draw(&t->deck, prng);
	t->due_ns = keying_think ?
		now_ns + (int64_t) (pb_tpcc_keying_time(t->next_type) * 1e9) : now_ns;
}

/*
 * pb_tpcc_terminal_advance
 *		A terminal's transaction ended at now_ns: draw its next card, and
 *		with keying_think make it due after the think time of the one that
 *		ended and the keying time of the next (5.2.5: the menu's and the
 *		output screen's time is not modelled, as no kit does).
 */
void
pb_tpcc_terminal_advance(PbTpccTerminal *t, PbPrng *prng, bool keying_think,
						 int64_t now_ns)
{
	int			ended = t->next_type;

	t->next_type = pb_tpcc_deck_draw(&t->deck, prng);
	t->due_ns = now_ns;
	if (keying_think)
		t->due_ns += (int64_t) ((pb_tpcc_think_time(prng, pb_tpcc_think_mean(ended)) +
								 pb_tpcc_keying_time(t->next_type)) * 1e9);
}

static const char *const tpcc_type_names[PB_TPCC_NTYPES] = {
	"NEW_ORDER", "PAYMENT", "ORDER_STATUS", "DELIVERY", "STOCK_LEVEL"
};

/*
 * pb_tpcc_type_name
 *		A transaction type's name, as polarbench_operations shows it.
 */
const char *
pb_tpcc_type_name(int type)
{
	return (type >= 0 && type < PB_TPCC_NTYPES) ? tpcc_type_names[type] : "?";
}
