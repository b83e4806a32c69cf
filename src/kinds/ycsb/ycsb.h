/*-------------------------------------------------------------------------
 *
 * ycsb.h
 *	  The YCSB kind's backend-free part: YCSB's generators (ycsb_gen.c),
 *	  and its workloads with CoreWorkload's properties and defaults
 *	  (ycsb_options.c), which the server, the command-line program and the
 *	  unit tests share.
 *
 * Like the script library, it uses no PostgreSQL header, allocates with
 * malloc and reports errors as a message in a buffer, never by longjmp.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_YCSB_H
#define PB_YCSB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kind_options.h"

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

/* ---- the kind's workloads and options (ycsb_options.c) ------------------- */

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
	int			orderedinserts; /* insertorder: 0 hashed, 1 ordered */
	int			zeropadding;
	double		hotspotdatafraction;
	double		hotspotopnfraction;
	/* computed by the caller once for every client: zetas of the records and scan lengths */
	double		latest_zetan;
	double		scan_zetan;
} PbYcsbOptions;

extern const PbKindLibrary pb_ycsb_library;
extern void pb_ycsb_defaults(PbYcsbOptions *o, int letter);
extern const char *pb_ycsb_op_name(int op);

#endif							/* PB_YCSB_H */
