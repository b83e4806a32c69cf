/*-------------------------------------------------------------------------
 *
 * pb_workload.h
 *	  The backend-free workload library: sysbench 1.0.20's, YCSB's and
 *	  TPC-C's workloads as data (their names, options and defaults) and
 *	  their number generators, for the run engine, the loader, the
 *	  command-line client and the unit tests.
 *
 * Like the script library, it uses no PostgreSQL header, allocates with
 * malloc and reports errors as a message in a buffer, never by longjmp.
 * Its pseudo-random numbers come from the script library's PbPrng.
 *
 * In layers, each file calling only those before it:
 *	 sysbench_rand.c, ycsb_gen.c, tpcc_rand.c;
 *	 workload_options.c.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_WORKLOAD_H
#define PB_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pb_script.h"

/* ---- sysbench 1.0.20's numbers (sysbench_rand.c) ------------------------- */

/* --rand-type */
typedef enum PbSbDist
{
	PB_SB_UNIFORM,
	PB_SB_GAUSSIAN,
	PB_SB_SPECIAL,
	PB_SB_PARETO
} PbSbDist;

/* The parameters of sysbench.rand.default(), precomputed as sb_rand_init() */
typedef struct PbSbRand
{
	PbSbDist	dist;
	unsigned int iter;			/* --rand-spec-iter */
	double		iter_mult;
	double		pct_mult;		/* --rand-spec-pct / 100 */
	double		pct_2_mult;		/* --rand-spec-pct / 200 */
	double		res_mult;		/* 100 / (100 - --rand-spec-res) */
	double		pareto_power;	/* log(h) / log(1 - h) */
} PbSbRand;

extern void pb_sb_rand_init(PbSbRand *r, PbSbDist dist, int iter, int pct,
							int res, double pareto_h);
extern uint32_t pb_sb_uniform(PbPrng *prng, uint32_t a, uint32_t b);
extern uint32_t pb_sb_default(const PbSbRand *r, PbPrng *prng,
							  uint32_t a, uint32_t b);
extern void pb_sb_string(PbPrng *prng, const char *template, char *buf);
extern uint32_t pb_sb_unique(uint32_t index, uint32_t seed_index,
							 uint32_t seed_offset);
extern void pb_sb_unique_seed(uint32_t index, uint32_t offset,
							  uint32_t *seed_index, uint32_t *seed_offset);

/* sysbench's c and pad templates: digits for '#' */
#define PB_SB_C_TEMPLATE \
	"###########-###########-###########-###########-###########-" \
	"###########-###########-###########-###########-###########"
#define PB_SB_PAD_TEMPLATE \
	"###########-###########-###########-###########-###########"

/* ---- YCSB's generators (ycsb_gen.c) ------------------------------------- */

/* YCSB's ZipfianGenerator.ZIPFIAN_CONSTANT */
#define PB_YCSB_ZIPFIAN_CONSTANT	0.99
/* ScrambledZipfianGenerator's item space and its precomputed zeta */
#define PB_YCSB_SCRAMBLED_ITEMS		INT64_C(10000000000)
#define PB_YCSB_SCRAMBLED_ZETAN		26.46902820178302

/* A ZipfianGenerator: items from base, with what nextLong() keeps */
typedef struct PbYcsbZipfian
{
	int64_t		base;
	int64_t		items;			/* as constructed; eta keeps using it */
	double		theta;
	double		zeta2theta;
	double		alpha;
	double		zetan;
	double		eta;
	int64_t		countforzeta;
} PbYcsbZipfian;

extern double pb_ycsb_zeta(int64_t start, int64_t n, double theta,
						   double initial);
extern void pb_ycsb_zipfian_init(PbYcsbZipfian *z, int64_t min, int64_t max,
								 double theta, double zetan);
extern int64_t pb_ycsb_zipfian_next(PbYcsbZipfian *z, PbPrng *prng,
									int64_t itemcount);
extern int64_t pb_ycsb_scrambled_next(PbYcsbZipfian *z, PbPrng *prng,
									  int64_t min, int64_t itemcount);
extern int64_t pb_ycsb_latest_next(PbYcsbZipfian *z, PbPrng *prng,
								   int64_t max);
extern int64_t pb_ycsb_uniform(PbPrng *prng, int64_t lb, int64_t ub);
extern int64_t pb_ycsb_hotspot(PbPrng *prng, int64_t lb, int64_t ub,
							   double hotset_fraction, double hotopn_fraction);
extern int64_t pb_ycsb_fnvhash64(int64_t val);
extern int	pb_ycsb_key_name(char *buf, size_t len, int64_t keynum,
							 bool ordered, int zeropadding);
extern void pb_ycsb_random_bytes(PbPrng *prng, char *buf, int64_t len);
extern void pb_ycsb_field_order(int fieldcount, int *order);

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

/* ---- workloads and their options (workload_options.c) ------------------- */

/* Which engine runs a workload */
typedef enum PbWorkloadKind
{
	PB_KIND_SCRIPTS = 0,		/* pgbench scripts */
	PB_KIND_SYSBENCH,			/* sysbench 1.0.20's OLTP Lua scripts */
	PB_KIND_YCSB,				/* YCSB's CoreWorkload */
	PB_KIND_TPCC				/* TPC-C 5.11's five transactions */
} PbWorkloadKind;

/* The sysbench OLTP scripts */
typedef enum PbSbWorkload
{
	PB_SB_READ_WRITE,
	PB_SB_READ_ONLY,
	PB_SB_WRITE_ONLY,
	PB_SB_POINT_SELECT,
	PB_SB_UPDATE_INDEX,
	PB_SB_UPDATE_NON_INDEX,
	PB_SB_INSERT,
	PB_SB_DELETE
} PbSbWorkload;

/* sysbench's options, as oltp_common.lua and sb_rand.c define them */
typedef struct PbSysbenchOptions
{
	int			workload;		/* PbSbWorkload */
	int			tables;
	int			table_size;
	int			range_size;
	int			point_selects;
	int			simple_ranges;
	int			sum_ranges;
	int			order_ranges;
	int			distinct_ranges;
	int			index_updates;
	int			non_index_updates;
	int			delete_inserts;
	bool		range_selects;
	bool		auto_inc;
	bool		skip_trx;
	int			rand_type;		/* PbSbDist */
	int			rand_spec_iter;
	int			rand_spec_pct;
	int			rand_spec_res;
	double		rand_pareto_h;
	int			percentile;
	/* whether tables and table_size were given (set by pb_workload_set_option) */
	bool		tables_given;
	bool		table_size_given;
} PbSysbenchOptions;

/* YCSB's operations, in the order CoreWorkload adds them to its chooser */
typedef enum PbYcsbOp
{
	PB_YCSB_READ,
	PB_YCSB_UPDATE,
	PB_YCSB_INSERT,
	PB_YCSB_SCAN,
	PB_YCSB_RMW,
	PB_YCSB_NOPS
} PbYcsbOp;

/* requestdistribution, fieldlengthdistribution, scanlengthdistribution */
typedef enum PbYcsbDist
{
	PB_YCSB_DIST_UNIFORM,
	PB_YCSB_DIST_ZIPFIAN,
	PB_YCSB_DIST_LATEST,
	PB_YCSB_DIST_HOTSPOT,
	PB_YCSB_DIST_CONSTANT
} PbYcsbDist;

/* CoreWorkload's properties */
typedef struct PbYcsbOptions
{
	bool		load;			/* the load phase: inserts only */
	int64_t		recordcount;	/* -1: the rows of usertable */
	int64_t		operationcount;
	int64_t		insertstart;
	int64_t		insertcount;	/* -1: recordcount - insertstart */
	int			fieldcount;
	int			fieldlength;
	int			minfieldlength;
	int			fieldlengthdistribution;	/* constant, uniform, zipfian */
	bool		readallfields;
	bool		writeallfields;
	double		proportions[PB_YCSB_NOPS];
	int			requestdistribution;	/* uniform, zipfian, latest, hotspot */
	int			minscanlength;
	int			maxscanlength;
	int			scanlengthdistribution; /* uniform, zipfian */
	bool		orderedinserts; /* insertorder=ordered */
	int			zeropadding;
	double		hotspotdatafraction;
	double		hotspotopnfraction;
	/* computed by the caller once for every client: zetas of the records and scan lengths */
	double		latest_zetan;
	double		scan_zetan;
} PbYcsbOptions;

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

/* A workload polarbench runs natively, by name */
typedef struct PbWorkloadDef
{
	const char *name;
	PbWorkloadKind kind;
	int			variant;		/* PbSbWorkload, or for YCSB its letter */
	const char *description;
} PbWorkloadDef;

/* What polarbench_workloads says of one option of a workload */
typedef struct PbOptionInfo
{
	const char *name;
	const char *type;			/* integer, boolean, number, enum */
	bool		has_range;
	double		min;
	double		max;
	char		values[256];	/* enum: its values, comma separated */
	char		default_value[128];	/* as JSON's text, "" if computed at the run */
	const char *description;
} PbOptionInfo;

extern const PbWorkloadDef *pb_workload_find(const char *name);
extern int	pb_workload_count(void);
extern const PbWorkloadDef *pb_workload_at(int i);

extern void pb_sysbench_defaults(PbSysbenchOptions *o, int workload);
extern void pb_ycsb_defaults(PbYcsbOptions *o, int letter);
extern void pb_tpcc_defaults(PbTpccOptions *o);
extern bool pb_workload_set_option(PbWorkloadKind kind, void *options,
								   const char *name, const char *value,
								   PbError *err);
extern bool pb_workload_check_options(PbWorkloadKind kind, void *options,
									  PbError *err);
extern char *pb_workload_options_json(PbWorkloadKind kind, const void *options);
extern bool pb_workload_option_is(const char *name, const char *canonical);
extern bool pb_workload_has_option(PbWorkloadKind kind, const char *name);
extern const char *pb_workload_option_at(PbWorkloadKind kind, int i);
extern const char *pb_ycsb_op_name(int op);
extern const char *pb_workload_kind_name(PbWorkloadKind kind);
extern size_t pb_workload_options_size(PbWorkloadKind kind);
extern void pb_workload_defaults(const PbWorkloadDef *def, void *options);
extern bool pb_workload_option_info(const PbWorkloadDef *def, int i,
									PbOptionInfo *info);

#endif							/* PB_WORKLOAD_H */
