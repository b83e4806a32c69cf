/*-------------------------------------------------------------------------
 *
 * sysbench.h
 *	  The sysbench kind's backend-free part: sysbench 1.0.20's random
 *	  numbers and strings (sysbench_rand.c), and its OLTP workloads with
 *	  their options and defaults (sysbench_options.c), which the server,
 *	  the command-line program and the unit tests share.
 *
 * Like the script library, it uses no PostgreSQL header, allocates with
 * malloc and reports errors as a message in a buffer, never by longjmp.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_SYSBENCH_H
#define PB_SYSBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kind_options.h"

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

/* ---- the kind's workloads and options (sysbench_options.c) --------------- */

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
	/* whether tables and table_size were given (set by pb_kind_set_option) */
	bool		tables_given;
	bool		table_size_given;
} PbSysbenchOptions;

extern const PbKindLibrary pb_sysbench_library;
extern void pb_sysbench_defaults(PbSysbenchOptions *o, int workload);

#endif							/* PB_SYSBENCH_H */
