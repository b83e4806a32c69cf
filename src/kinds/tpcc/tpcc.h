/*-------------------------------------------------------------------------
 *
 * tpcc.h
 *	  The TPC-C kind's backend-free part: TPC-C 5.11's numbers, strings,
 *	  decks and terminals (tpcc_rand.c), and its workload with its options
 *	  and defaults (tpcc_options.c), which the server, the command-line
 *	  program and the unit tests share.
 *
 * Like the script library, it uses no PostgreSQL header, allocates with
 * malloc and reports errors as a message in a buffer, never by longjmp.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_TPCC_H
#define PB_TPCC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kind_options.h"

/* ---- TPC-C's numbers (tpcc_rand.c) -------------------------------------- */

/* The cardinalities of the initial population per warehouse (4.3.3.1) */
#define PB_TPCC_DISTRICTS			10
#define PB_TPCC_CUSTOMERS			3000	/* per district */
#define PB_TPCC_ORDERS				3000	/* per district */
#define PB_TPCC_ITEMS				100000	/* once, and stock per warehouse */
#define PB_TPCC_FIRST_NEW_ORDER		2101	/* undelivered: o_id 2101..3000 */
#define PB_TPCC_MIN_LINES			5
#define PB_TPCC_MAX_LINES			15
#define PB_TPCC_LAST_LEN			15	/* the longest C_LAST */

/* NURand's A for C_LAST, C_ID and OL_I_ID (2.1.6) */
#define PB_TPCC_A_LAST				255
#define PB_TPCC_A_C_ID				1023
#define PB_TPCC_A_ITEM				8191

/* tpmC per warehouse at most, with keying and think times (4.2, 5.2.5) */
#define PB_TPCC_MAX_TPMC_PER_W		12.86

/* The transaction types, in polarbench_operations' order */
typedef enum PbTpccType
{
	PB_TPCC_NEW_ORDER,
	PB_TPCC_PAYMENT,
	PB_TPCC_ORDER_STATUS,
	PB_TPCC_DELIVERY,
	PB_TPCC_STOCK_LEVEL,
	PB_TPCC_NTYPES
} PbTpccType;

/* The run-time constants C of NURand */
typedef struct PbTpccConstants
{
	int			c_last;
	int			c_id;
	int			ol_i_id;
} PbTpccConstants;

/* A terminal's deck of transaction types (5.2.4.2) */
#define PB_TPCC_DECK_CARDS			100
typedef struct PbTpccDeck
{
	uint8_t		cards[PB_TPCC_DECK_CARDS];
	int			ncards;
	int			next;
} PbTpccDeck;

/*
 * A terminal (4.2.2): its home warehouse, its district for Stock-Level, its
 * deck, the card it drew for its next transaction, and with keying and
 * think times when it submits that one
 */
typedef struct PbTpccTerminal
{
	int			w_id;
	int			d_id;
	PbTpccDeck	deck;
	int			next_type;
	int64_t		due_ns;
} PbTpccTerminal;

/* What pb_tpcc_seed() seeds a generator for (the loader's rows) */
typedef enum PbTpccSeedFor
{
	PB_TPCC_SEED_ITEM = 1,
	PB_TPCC_SEED_WAREHOUSE,
	PB_TPCC_SEED_DISTRICT,
	PB_TPCC_SEED_CUSTOMER,
	PB_TPCC_SEED_HISTORY,
	PB_TPCC_SEED_PERMUTATION,
	PB_TPCC_SEED_ORDER,
	PB_TPCC_SEED_ORDER_LINES,
	PB_TPCC_SEED_ORDER_LINE,
	PB_TPCC_SEED_STOCK,
	PB_TPCC_SEED_C_LOAD
} PbTpccSeedFor;

extern int64_t pb_tpcc_random(PbPrng *prng, int64_t x, int64_t y);
extern int	pb_tpcc_nurand(PbPrng *prng, int a, int x, int y, int c);
extern bool pb_tpcc_c_delta_ok(int c_load, int c_run);
extern void pb_tpcc_constants(PbPrng *prng, int c_load, PbTpccConstants *c);
extern int	pb_tpcc_last_name(int num, char *buf);
extern int	pb_tpcc_customer_last(PbPrng *prng, int c_id, int c_load, char *buf);
extern int	pb_tpcc_astring(PbPrng *prng, int min, int max, char *buf);
extern int	pb_tpcc_nstring(PbPrng *prng, int min, int max, char *buf);
extern void pb_tpcc_zip(PbPrng *prng, char *buf);
extern int	pb_tpcc_data(PbPrng *prng, char *buf);
extern void pb_tpcc_permutation(PbPrng *prng, int *perm, int n);
extern uint64_t pb_tpcc_seed(uint64_t load_seed, int table, int64_t w,
							 int64_t d, int64_t id);
extern int	pb_tpcc_order_lines(uint64_t load_seed, int w, int d, int o_id);
extern int	pb_tpcc_c_load(uint64_t load_seed);
extern void pb_tpcc_state(PbPrng *prng, char *buf);
extern bool pb_tpcc_bad_credit(PbPrng *prng);
extern void pb_tpcc_deck_init(PbTpccDeck *deck, const int *pct);
extern int	pb_tpcc_deck_draw(PbTpccDeck *deck, PbPrng *prng);
extern double pb_tpcc_think_time(PbPrng *prng, double mean);
extern void pb_tpcc_terminal_init(PbTpccTerminal *t, int w_id, int d_id,
								  const int *pct, PbPrng *prng, bool keying_think,
								  int64_t now_ns);
extern void pb_tpcc_terminal_advance(PbTpccTerminal *t, PbPrng *prng,
									 bool keying_think, int64_t now_ns);
extern double pb_tpcc_keying_time(int type);
extern double pb_tpcc_think_mean(int type);
extern const char *pb_tpcc_type_name(int type);

/* ---- the kind's workload and options (tpcc_options.c) -------------------- */

/* TPC-C's options */
typedef struct PbTpccOptions
{
	int			warehouses;		/* 0: the rows of warehouse */
	/* the mix: cards of the deck of 100; New-Order has the rest */
	int			payment;
	int			order_status;
	int			delivery;
	int			stock_level;
	bool		keying_think;	/* keying and think times (5.2.5) */
	int			terminals;		/* per warehouse, with keying_think */
	bool		warehouses_given;
	/* found by the caller: the load's C for C_LAST (-1: not recorded) */
	int			c_load;
	/* drawn by the caller for the whole run, by the rule of 2.1.6.1 */
	PbTpccConstants c;
	/* the district table, for the New-Orders committed (NOPM) */
	uint32_t	district_relid;
} PbTpccOptions;

extern const PbKindLibrary pb_tpcc_library;
extern void pb_tpcc_defaults(PbTpccOptions *o);

#endif							/* PB_TPCC_H */
