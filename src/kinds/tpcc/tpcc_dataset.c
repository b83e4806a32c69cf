/*-------------------------------------------------------------------------
 *
 * tpcc_dataset.c
 *	  The 'tpcc' data set: TPC-C's nine tables (TPC-C 5.11, clause 1.3) for
 *	  W warehouses, with the initial population of clause 4.3.3.1, and the
 *	  table tpcc_load that records how it was loaded.
 *
 * Tables and columns are the specification's, with the names HammerDB and
 * go-tpc give them (orders for ORDER, new_order for NEW-ORDER), and its
 * types: numeric(4,4) taxes and discount, numeric(12,2) balances and
 * year-to-date amounts, timestamps for dates, char and varchar of the
 * lengths of clause 1.3.  Identifiers and counters are integer, as in
 * go-tpc: the counters' numeric(4) would overflow in a long run
 * (s_order_cnt of a popular item).  Primary keys as in the specification;
 * the secondary indexes idx_customer (c_w_id, c_d_id, c_last, c_first),
 * for the customers found by name, and idx_order (o_w_id, o_d_id, o_c_id,
 * o_id), for a customer's last order; foreign keys on request.
 *
 * Rows.  Every rule of 4.3.3.1 is drawn from the kind's backend-free TPC-C
 * functions (tpcc_rand.c), which the workload's driver draws from too.
 * Each row (or group of rows that must agree: an order and its lines, a
 * district's permutation of customers) has a generator of its own, seeded
 * from the load's seed and its key (pb_tpcc_seed()), so that a row is the
 * same whichever job, worker or extension makes it: the orders' o_ol_cnt
 * and the order lines agree although two jobs write them.  The load's
 * seed, its C_LOAD (the C of NURand for C_LAST), its warehouses and its
 * time are kept in tpcc_load (c_load, seed, warehouses, loaded_at), where a
 * run finds C_LOAD to draw its C_RUN by the rule of 2.1.6.1; every date of
 * the initial population is loaded_at.
 *
 * Loading.  Each table is one job, which creates it, fills it with rows
 * generated in C, written as frozen pages (bulk_insert.c), and builds its
 * primary key as the rows go: rows are generated in the key's order
 * ((s_w_id, s_i_id), (ol_w_id, ol_d_id, ol_o_id, ol_number), ...), and the
 * key's columns are integers (btree_build.c).  The secondary indexes are
 * built after the rows, by CREATE INDEX (with the server's parallel index
 * build): their keys do not come in order.  Jobs go largest first (stock,
 * customer, order_line), so that a parallel load's workers start on those;
 * workers without a job left write the pages of those still loading
 * (page_writers.c).  A table filled frozen must be created by the
 * transaction that fills it, so a worker owns whole tables: giving each
 * worker its warehouses would take a table per warehouse (partitions),
 * which every transaction of a run would pay for (a generic plan locks
 * every partition in PostgreSQL 15).
 *
 * Adding warehouses.  polarbench_init('tpcc', warehouses => W2) on a TPC-C
 * data set of W < W2 warehouses (as tpcc_load says, and as the tables
 * check out) adds warehouses W + 1 .. W2: the rows of every table but item
 * that a load of W2 warehouses with the same seed would have made.  Jobs,
 * serial or parallel, fill unlogged staging tables without keys, and the
 * caller's transaction appends their rows to the tables there
 * (pb_staging_append()), which keep their keys, indexes and foreign keys:
 * the rows already there are not rewritten, and the new ones appear all
 * together or not at all.  The tables are locked against writes meanwhile.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "common/pg_prng.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

#include "args.h"
#include "load.h"
#include "tpcc.h"
#include "safe_sql.h"

/* Most warehouses a load makes: about 10 TB */
#define TPCC_MAX_WAREHOUSES		100000

/* The tables, in an order where a table comes after those it references */
typedef enum TpccTableId
{
	TPCC_WAREHOUSE,
	TPCC_DISTRICT,
	TPCC_CUSTOMER,
	TPCC_HISTORY,
	TPCC_ORDERS,
	TPCC_NEW_ORDER,
	TPCC_ITEM,
	TPCC_STOCK,
	TPCC_ORDER_LINE,
	TPCC_LOAD,					/* tpcc_load: made by the finishing step */
	TPCC_NTABLES
} TpccTableId;

/* A column: its name and its type, as format_type() spells it */
typedef struct TpccColumn
{
	const char *name;
	const char *type;
} TpccColumn;

/* One of the tables */
typedef struct TpccTable
{
	const char *name;
	const TpccColumn *columns;	/* terminated by a NULL name */
	const char *key;			/* primary key's columns, or NULL */
	const char *index;			/* secondary index's name, or NULL */
	const char *index_columns;
	const char *warehouse_column;	/* the key's first column, or NULL */
	const char *analyzed;		/* the columns ANALYZE reads, NULL: all */
	void		(*fill) (const PbLoadOptions *opts, PbBulkInsert *bulk);
} TpccTable;

#define TPCC_INT			"integer"
#define TPCC_VARCHAR(n)		"character varying(" #n ")"
#define TPCC_CHAR(n)		"character(" #n ")"
#define TPCC_DATE			"timestamp without time zone"

static const TpccColumn tpcc_warehouse_cols[] = {
	{"w_id", TPCC_INT}, {"w_name", TPCC_VARCHAR(10)},
	{"w_street_1", TPCC_VARCHAR(20)}, {"w_street_2", TPCC_VARCHAR(20)},
	{"w_city", TPCC_VARCHAR(20)}, {"w_state", TPCC_CHAR(2)},
	{"w_zip", TPCC_CHAR(9)}, {"w_tax", "numeric(4,4)"},
	{"w_ytd", "numeric(12,2)"}, {NULL, NULL}
};

static const TpccColumn tpcc_district_cols[] = {
	{"d_id", TPCC_INT}, {"d_w_id", TPCC_INT}, {"d_name", TPCC_VARCHAR(10)},
	{"d_street_1", TPCC_VARCHAR(20)}, {"d_street_2", TPCC_VARCHAR(20)},
	{"d_city", TPCC_VARCHAR(20)}, {"d_state", TPCC_CHAR(2)},
	{"d_zip", TPCC_CHAR(9)}, {"d_tax", "numeric(4,4)"},
	{"d_ytd", "numeric(12,2)"}, {"d_next_o_id", TPCC_INT}, {NULL, NULL}
};

static const TpccColumn tpcc_customer_cols[] = {
	{"c_id", TPCC_INT}, {"c_d_id", TPCC_INT}, {"c_w_id", TPCC_INT},
	{"c_first", TPCC_VARCHAR(16)}, {"c_middle", TPCC_CHAR(2)},
	{"c_last", TPCC_VARCHAR(16)}, {"c_street_1", TPCC_VARCHAR(20)},
	{"c_street_2", TPCC_VARCHAR(20)}, {"c_city", TPCC_VARCHAR(20)},
	{"c_state", TPCC_CHAR(2)}, {"c_zip", TPCC_CHAR(9)},
	{"c_phone", TPCC_CHAR(16)}, {"c_since", TPCC_DATE},
	{"c_credit", TPCC_CHAR(2)}, {"c_credit_lim", "numeric(12,2)"},
	{"c_discount", "numeric(4,4)"}, {"c_balance", "numeric(12,2)"},
	{"c_ytd_payment", "numeric(12,2)"}, {"c_payment_cnt", TPCC_INT},
	{"c_delivery_cnt", TPCC_INT}, {"c_data", TPCC_VARCHAR(500)},
	{NULL, NULL}
};

static const TpccColumn tpcc_history_cols[] = {
	{"h_c_id", TPCC_INT}, {"h_c_d_id", TPCC_INT}, {"h_c_w_id", TPCC_INT},
	{"h_d_id", TPCC_INT}, {"h_w_id", TPCC_INT}, {"h_date", TPCC_DATE},
	{"h_amount", "numeric(6,2)"}, {"h_data", TPCC_VARCHAR(24)}, {NULL, NULL}
};

static const TpccColumn tpcc_orders_cols[] = {
	{"o_id", TPCC_INT}, {"o_d_id", TPCC_INT}, {"o_w_id", TPCC_INT},
	{"o_c_id", TPCC_INT}, {"o_entry_d", TPCC_DATE},
	{"o_carrier_id", TPCC_INT}, {"o_ol_cnt", TPCC_INT},
	{"o_all_local", TPCC_INT}, {NULL, NULL}
};

static const TpccColumn tpcc_new_order_cols[] = {
	{"no_o_id", TPCC_INT}, {"no_d_id", TPCC_INT}, {"no_w_id", TPCC_INT},
	{NULL, NULL}
};

static const TpccColumn tpcc_item_cols[] = {
	{"i_id", TPCC_INT}, {"i_im_id", TPCC_INT}, {"i_name", TPCC_VARCHAR(24)},
	{"i_price", "numeric(5,2)"}, {"i_data", TPCC_VARCHAR(50)}, {NULL, NULL}
};

static const TpccColumn tpcc_stock_cols[] = {
	{"s_i_id", TPCC_INT}, {"s_w_id", TPCC_INT}, {"s_quantity", TPCC_INT},
	{"s_dist_01", TPCC_CHAR(24)}, {"s_dist_02", TPCC_CHAR(24)},
	{"s_dist_03", TPCC_CHAR(24)}, {"s_dist_04", TPCC_CHAR(24)},
	{"s_dist_05", TPCC_CHAR(24)}, {"s_dist_06", TPCC_CHAR(24)},
	{"s_dist_07", TPCC_CHAR(24)}, {"s_dist_08", TPCC_CHAR(24)},
	{"s_dist_09", TPCC_CHAR(24)}, {"s_dist_10", TPCC_CHAR(24)},
	{"s_ytd", TPCC_INT}, {"s_order_cnt", TPCC_INT},
	{"s_remote_cnt", TPCC_INT}, {"s_data", TPCC_VARCHAR(50)}, {NULL, NULL}
};

static const TpccColumn tpcc_order_line_cols[] = {
	{"ol_o_id", TPCC_INT}, {"ol_d_id", TPCC_INT}, {"ol_w_id", TPCC_INT},
	{"ol_number", TPCC_INT}, {"ol_i_id", TPCC_INT},
	{"ol_supply_w_id", TPCC_INT}, {"ol_delivery_d", TPCC_DATE},
	{"ol_quantity", TPCC_INT}, {"ol_amount", "numeric(6,2)"},
	{"ol_dist_info", TPCC_CHAR(24)}, {NULL, NULL}
};

static const TpccColumn tpcc_load_cols[] = {
	{"c_load", TPCC_INT}, {"seed", "bigint"}, {"warehouses", TPCC_INT},
	{"loaded_at", "timestamp with time zone"}, {NULL, NULL}
};

static void tpcc_fill_warehouse(const PbLoadOptions *opts, PbBulkInsert *bulk);
static void tpcc_fill_district(const PbLoadOptions *opts, PbBulkInsert *bulk);
static void tpcc_fill_customer(const PbLoadOptions *opts, PbBulkInsert *bulk);
static void tpcc_fill_history(const PbLoadOptions *opts, PbBulkInsert *bulk);
static void tpcc_fill_orders(const PbLoadOptions *opts, PbBulkInsert *bulk);
static void tpcc_fill_new_order(const PbLoadOptions *opts, PbBulkInsert *bulk);
static void tpcc_fill_item(const PbLoadOptions *opts, PbBulkInsert *bulk);
static void tpcc_fill_stock(const PbLoadOptions *opts, PbBulkInsert *bulk);
static void tpcc_fill_order_line(const PbLoadOptions *opts, PbBulkInsert *bulk);

static const TpccTable tpcc_tables[TPCC_NTABLES] = {
	[TPCC_WAREHOUSE] = {"warehouse", tpcc_warehouse_cols, "w_id", NULL, NULL,
	"w_id", NULL, tpcc_fill_warehouse},
	[TPCC_DISTRICT] = {"district", tpcc_district_cols, "d_w_id, d_id", NULL,
	NULL, "d_w_id", NULL, tpcc_fill_district},
	[TPCC_CUSTOMER] = {"customer", tpcc_customer_cols, "c_w_id, c_d_id, c_id",
		"idx_customer", "c_w_id, c_d_id, c_last, c_first", "c_w_id",
		"c_id, c_d_id, c_w_id, c_last",
	tpcc_fill_customer},
	[TPCC_HISTORY] = {"history", tpcc_history_cols, NULL, NULL, NULL, NULL,
	"h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id",
	tpcc_fill_history},
	[TPCC_ORDERS] = {"orders", tpcc_orders_cols, "o_w_id, o_d_id, o_id",
		"idx_order", "o_w_id, o_d_id, o_c_id, o_id", "o_w_id", NULL,
	tpcc_fill_orders},
	[TPCC_NEW_ORDER] = {"new_order", tpcc_new_order_cols,
		"no_w_id, no_d_id, no_o_id", NULL, NULL, "no_w_id", NULL,
	tpcc_fill_new_order},
	[TPCC_ITEM] = {"item", tpcc_item_cols, "i_id", NULL, NULL, NULL,
	"i_id", tpcc_fill_item},
	[TPCC_STOCK] = {"stock", tpcc_stock_cols, "s_w_id, s_i_id", NULL, NULL,
		"s_w_id", "s_i_id, s_w_id, s_quantity",
	tpcc_fill_stock},
	[TPCC_ORDER_LINE] = {"order_line", tpcc_order_line_cols,
		"ol_w_id, ol_d_id, ol_o_id, ol_number", NULL, NULL, "ol_w_id",
		"ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, "
		"ol_delivery_d",
	tpcc_fill_order_line},
	[TPCC_LOAD] = {"tpcc_load", tpcc_load_cols, NULL, NULL, NULL, NULL, NULL,
	NULL},
};

/* The jobs, largest table first; an extension skips item */
static const TpccTableId tpcc_jobs[] = {
	TPCC_STOCK, TPCC_CUSTOMER, TPCC_ORDER_LINE, TPCC_ITEM, TPCC_HISTORY,
	TPCC_ORDERS, TPCC_NEW_ORDER, TPCC_DISTRICT, TPCC_WAREHOUSE
};

/* The foreign keys of foreign_keys => true: table, columns, references */
static const struct
{
	TpccTableId table;
	const char *columns;
	TpccTableId references;
}			tpcc_foreign_keys[] = {
	{TPCC_DISTRICT, "d_w_id", TPCC_WAREHOUSE},
	{TPCC_CUSTOMER, "c_w_id, c_d_id", TPCC_DISTRICT},
	{TPCC_HISTORY, "h_c_w_id, h_c_d_id, h_c_id", TPCC_CUSTOMER},
	{TPCC_HISTORY, "h_w_id, h_d_id", TPCC_DISTRICT},
	{TPCC_ORDERS, "o_w_id, o_d_id, o_c_id", TPCC_CUSTOMER},
	{TPCC_NEW_ORDER, "no_w_id, no_d_id, no_o_id", TPCC_ORDERS},
	{TPCC_STOCK, "s_w_id", TPCC_WAREHOUSE},
	{TPCC_STOCK, "s_i_id", TPCC_ITEM},
	{TPCC_ORDER_LINE, "ol_w_id, ol_d_id, ol_o_id", TPCC_ORDERS},
	{TPCC_ORDER_LINE, "ol_supply_w_id, ol_i_id", TPCC_STOCK},
};

/* The rows of each table per warehouse (order_line aside) */
#define TPCC_CUSTOMERS_PER_W	(PB_TPCC_DISTRICTS * PB_TPCC_CUSTOMERS)
#define TPCC_ORDERS_PER_W		(PB_TPCC_DISTRICTS * PB_TPCC_ORDERS)
#define TPCC_NEW_ORDERS_PER_W	(PB_TPCC_DISTRICTS * \
								 (PB_TPCC_ORDERS - PB_TPCC_FIRST_NEW_ORDER + 1))

/* ---- options, names and jobs -------------------------------------------- */

/*
 * Check the options that concern TPC-C.
 */
static void
tpcc_check(const PbLoadOptions *opts)
{
	pb_check_range("warehouses", opts->warehouses, 1, TPCC_MAX_WAREHOUSES,
				   NULL);
}

/*
 * The tables it creates, tpcc_load with them, in an order to drop them.
 */
static List *
tpcc_table_names(const PbLoadOptions *opts)
{
	List	   *names = NIL;

	for (int t = TPCC_NTABLES - 1; t >= 0; t--)
		names = lappend(names, pstrdup(tpcc_tables[t].name));
	return names;
}

/*
 * Every relation a load creates: the tables, then their primary keys and
 * secondary indexes.  An extension creates (under staging names) the
 * tables it adds rows to, those referenced first, and nothing else.
 */
static void
tpcc_created_names(const PbLoadOptions *opts, List **tables, List **others)
{
	*tables = NIL;
	*others = NIL;
	for (int t = 0; t < TPCC_NTABLES; t++)
	{
		if (opts->extend && (t == TPCC_ITEM || t == TPCC_LOAD))
			continue;
		*tables = lappend(*tables, pstrdup(tpcc_tables[t].name));
		if (opts->extend)
			continue;
		if (tpcc_tables[t].key)
			*others = lappend(*others, psprintf("%s_pkey", tpcc_tables[t].name));
		if (tpcc_tables[t].index)
			*others = lappend(*others, pstrdup(tpcc_tables[t].index));
	}
}

/*
 * The table of job number job.
 */
static TpccTableId
tpcc_job_table(const PbLoadOptions *opts, int job)
{
	if (opts->extend && job >= 3)
		job++;					/* past item */
	if (job < 0 || job >= lengthof(tpcc_jobs))
		elog(ERROR, "no TPC-C load job %d", job);
	return tpcc_jobs[job];
}

/*
 * One job per table: nine, or eight when adding warehouses.
 */
static int
tpcc_njobs(const PbLoadOptions *opts, bool parallel)
{
	return lengthof(tpcc_jobs) - (opts->extend ? 1 : 0);
}

/*
 * Rows of the warehouses loaded, in every table: order_line's counted
 * order by order, as its job draws them.
 */
static int64
tpcc_total_rows(const PbLoadOptions *opts)
{
	int64		n = opts->warehouses - opts->first_warehouse + 1;
	int64		rows;

	rows = n * (1 + PB_TPCC_DISTRICTS + 2 * TPCC_CUSTOMERS_PER_W +
				TPCC_ORDERS_PER_W + TPCC_NEW_ORDERS_PER_W + PB_TPCC_ITEMS);
	if (!opts->extend)
		rows += PB_TPCC_ITEMS;
	for (int w = opts->first_warehouse; w <= opts->warehouses; w++)
		for (int d = 1; d <= PB_TPCC_DISTRICTS; d++)
			for (int o = 1; o <= PB_TPCC_ORDERS; o++)
				rows += pb_tpcc_order_lines(opts->seed, w, d, o);
	return rows;
}

/* ---- values of columns ---------------------------------------------------- */

/* An a-string of [min, max] characters (4.3.2.2) */
static Datum
tpcc_astring(PbPrng *prng, int min, int max)
{
	text	   *t = palloc(VARHDRSZ + max + 1);

	SET_VARSIZE(t, VARHDRSZ + pb_tpcc_astring(prng, min, max, VARDATA(t)));
	return PointerGetDatum(t);
}

/* An n-string of n digits */
static Datum
tpcc_nstring(PbPrng *prng, int n)
{
	text	   *t = palloc(VARHDRSZ + n + 1);

	SET_VARSIZE(t, VARHDRSZ + pb_tpcc_nstring(prng, n, n, VARDATA(t)));
	return PointerGetDatum(t);
}

/* A zip code (4.3.2.7) */
static Datum
tpcc_zip(PbPrng *prng)
{
	text	   *t = palloc(VARHDRSZ + 10);

	pb_tpcc_zip(prng, VARDATA(t));
	SET_VARSIZE(t, VARHDRSZ + 9);
	return PointerGetDatum(t);
}

/* A state: two letters */
static Datum
tpcc_state(PbPrng *prng)
{
	text	   *t = palloc(VARHDRSZ + 3);

	pb_tpcc_state(prng, VARDATA(t));
	SET_VARSIZE(t, VARHDRSZ + 2);
	return PointerGetDatum(t);
}

/* I_DATA or S_DATA, "ORIGINAL" in 10% of them */
static Datum
tpcc_data(PbPrng *prng)
{
	text	   *t = palloc(VARHDRSZ + 51);

	SET_VARSIZE(t, VARHDRSZ + pb_tpcc_data(prng, VARDATA(t)));
	return PointerGetDatum(t);
}

/* A constant text, allocated in the current memory context */
static Datum
tpcc_text(const char *s)
{
	return PointerGetDatum(cstring_to_text(s));
}

/* units / 10^scale as a numeric of that scale */
static Datum
tpcc_numeric(int64 units, int scale)
{
	return NumericGetDatum(int64_div_fast_to_numeric(units, scale));
}

/*
 * A generator for one row (or group of rows) of table seed_for, keyed by
 * (w, d, id), from the load's seed.
 */
static void
tpcc_row_prng(PbPrng *prng, const PbLoadOptions *opts, int seed_for,
			  int64 w, int64 d, int64 id)
{
	pb_prng_seed(prng, pb_tpcc_seed(opts->seed, seed_for, w, d, id));
}

/*
 * The slot of the next row, every column not null, its values to be
 * allocated in the batch's memory context (switched to; switch back with
 * tpcc_store()).
 */
static TupleTableSlot *
tpcc_next(PbBulkInsert *bulk, MemoryContext *oldcxt)
{
	TupleTableSlot *slot = pb_bulk_next_slot(bulk);

	memset(slot->tts_isnull, 0,
		   sizeof(bool) * slot->tts_tupleDescriptor->natts);
	*oldcxt = MemoryContextSwitchTo(bulk->batch_cxt);
	return slot;
}

/* Store the row of tpcc_next() */
static void
tpcc_store(PbBulkInsert *bulk, MemoryContext oldcxt)
{
	MemoryContextSwitchTo(oldcxt);
	pb_bulk_store(bulk);
}

/* ---- the rows of each table (4.3.3.1) ------------------------------------ */

/*
 * Street 1, street 2, city, state and zip: the address of a warehouse,
 * district or customer, into five consecutive columns from first.
 */
static void
tpcc_address(PbPrng *prng, Datum *values, int first)
{
	values[first] = tpcc_astring(prng, 10, 20);
	values[first + 1] = tpcc_astring(prng, 10, 20);
	values[first + 2] = tpcc_astring(prng, 10, 20);
	values[first + 3] = tpcc_state(prng);
	values[first + 4] = tpcc_zip(prng);
}

/*
 * WAREHOUSE: W_YTD 300,000.00, W_TAX in [0.0000, 0.2000].
 */
static void
tpcc_fill_warehouse(const PbLoadOptions *opts, PbBulkInsert *bulk)
{
	Datum		ytd = tpcc_numeric(30000000, 2);

	for (int w = opts->first_warehouse; w <= opts->warehouses; w++)
	{
		MemoryContext oldcxt;
		TupleTableSlot *slot;
		Datum	   *v;
		PbPrng		prng;

		if (pb_bulk_rows_elsewhere(bulk, Int32GetDatum(w)))
			continue;
		slot = tpcc_next(bulk, &oldcxt);
		v = slot->tts_values;

		tpcc_row_prng(&prng, opts, PB_TPCC_SEED_WAREHOUSE, w, 0, 0);
		v[0] = Int32GetDatum(w);
		v[1] = tpcc_astring(&prng, 6, 10);
		tpcc_address(&prng, v, 2);
		v[7] = tpcc_numeric(pb_tpcc_random(&prng, 0, 2000), 4);
		v[8] = ytd;
		tpcc_store(bulk, oldcxt);
	}
}

/*
 * DISTRICT: 10 per warehouse, D_YTD 30,000.00, D_NEXT_O_ID 3001.
 */
static void
tpcc_fill_district(const PbLoadOptions *opts, PbBulkInsert *bulk)
{
	Datum		ytd = tpcc_numeric(3000000, 2);

	for (int w = opts->first_warehouse; w <= opts->warehouses; w++)
	{
		if (pb_bulk_rows_elsewhere(bulk, Int32GetDatum(w)))
			continue;
		for (int d = 1; d <= PB_TPCC_DISTRICTS; d++)
		{
			MemoryContext oldcxt;
			TupleTableSlot *slot = tpcc_next(bulk, &oldcxt);
			Datum	   *v = slot->tts_values;
			PbPrng		prng;

			tpcc_row_prng(&prng, opts, PB_TPCC_SEED_DISTRICT, w, d, 0);
			v[0] = Int32GetDatum(d);
			v[1] = Int32GetDatum(w);
			v[2] = tpcc_astring(&prng, 6, 10);
			tpcc_address(&prng, v, 3);
			v[8] = tpcc_numeric(pb_tpcc_random(&prng, 0, 2000), 4);
			v[9] = ytd;
			v[10] = Int32GetDatum(PB_TPCC_ORDERS + 1);
			tpcc_store(bulk, oldcxt);
		}
	}
}

/*
 * CUSTOMER: 3,000 per district; C_LAST by the syllables of c_id - 1 for
 * the first 1,000, of NURand(255, 0, 999) with C_LOAD above; 10% "BC"
 * credit; C_DISCOUNT in [0.0000, 0.5000]; the initial balance, payment and
 * counts.
 */
static void
tpcc_fill_customer(const PbLoadOptions *opts, PbBulkInsert *bulk)
{
	Datum		middle = tpcc_text("OE");
	Datum		bc = tpcc_text("BC");
	Datum		gc = tpcc_text("GC");
	Datum		credit_lim = tpcc_numeric(5000000, 2);
	Datum		balance = tpcc_numeric(-1000, 2);
	Datum		ytd_payment = tpcc_numeric(1000, 2);
	Datum		since = TimestampGetDatum(opts->row_time);

	for (int w = opts->first_warehouse; w <= opts->warehouses; w++)
	{
		if (pb_bulk_rows_elsewhere(bulk, Int32GetDatum(w)))
			continue;
		for (int d = 1; d <= PB_TPCC_DISTRICTS; d++)
			for (int c = 1; c <= PB_TPCC_CUSTOMERS; c++)
			{
				MemoryContext oldcxt;
				TupleTableSlot *slot = tpcc_next(bulk, &oldcxt);
				Datum	   *v = slot->tts_values;
				PbPrng		prng;
				text	   *last = palloc(VARHDRSZ + PB_TPCC_LAST_LEN + 1);

				tpcc_row_prng(&prng, opts, PB_TPCC_SEED_CUSTOMER, w, d, c);
				v[0] = Int32GetDatum(c);
				v[1] = Int32GetDatum(d);
				v[2] = Int32GetDatum(w);
				v[3] = tpcc_astring(&prng, 8, 16);
				v[4] = middle;
				SET_VARSIZE(last, VARHDRSZ +
							pb_tpcc_customer_last(&prng, c, opts->c_load,
												  VARDATA(last)));
				v[5] = PointerGetDatum(last);
				tpcc_address(&prng, v, 6);
				v[11] = tpcc_nstring(&prng, 16);
				v[12] = since;
				v[13] = pb_tpcc_bad_credit(&prng) ? bc : gc;
				v[14] = credit_lim;
				v[15] = tpcc_numeric(pb_tpcc_random(&prng, 0, 5000), 4);
				v[16] = balance;
				v[17] = ytd_payment;
				v[18] = Int32GetDatum(1);
				v[19] = Int32GetDatum(0);
				v[20] = tpcc_astring(&prng, 300, 500);
				tpcc_store(bulk, oldcxt);
			}
	}
}

/*
 * HISTORY: one row per customer, H_AMOUNT 10.00.
 */
static void
tpcc_fill_history(const PbLoadOptions *opts, PbBulkInsert *bulk)
{
	Datum		amount = tpcc_numeric(1000, 2);
	Datum		date = TimestampGetDatum(opts->row_time);

	for (int w = opts->first_warehouse; w <= opts->warehouses; w++)
	{
		if (pb_bulk_rows_elsewhere(bulk, Int32GetDatum(w)))
			continue;
		for (int d = 1; d <= PB_TPCC_DISTRICTS; d++)
			for (int c = 1; c <= PB_TPCC_CUSTOMERS; c++)
			{
				MemoryContext oldcxt;
				TupleTableSlot *slot = tpcc_next(bulk, &oldcxt);
				Datum	   *v = slot->tts_values;
				PbPrng		prng;

				tpcc_row_prng(&prng, opts, PB_TPCC_SEED_HISTORY, w, d, c);
				v[0] = Int32GetDatum(c);
				v[1] = Int32GetDatum(d);
				v[2] = Int32GetDatum(w);
				v[3] = Int32GetDatum(d);
				v[4] = Int32GetDatum(w);
				v[5] = date;
				v[6] = amount;
				v[7] = tpcc_astring(&prng, 12, 24);
				tpcc_store(bulk, oldcxt);
			}
	}
}

/*
 * ORDER: 3,000 per district, O_C_ID from a permutation of the customers
 * drawn for the district; a carrier for the delivered orders (o_id below
 * 2101) only; O_OL_CNT as the order's lines have it.
 */
static void
tpcc_fill_orders(const PbLoadOptions *opts, PbBulkInsert *bulk)
{
	int		   *perm = palloc(sizeof(int) * PB_TPCC_ORDERS);
	Datum		entry = TimestampGetDatum(opts->row_time);

	for (int w = opts->first_warehouse; w <= opts->warehouses; w++)
	{
		if (pb_bulk_rows_elsewhere(bulk, Int32GetDatum(w)))
			continue;
		for (int d = 1; d <= PB_TPCC_DISTRICTS; d++)
		{
			PbPrng		prng;

			tpcc_row_prng(&prng, opts, PB_TPCC_SEED_PERMUTATION, w, d, 0);
			pb_tpcc_permutation(&prng, perm, PB_TPCC_ORDERS);
			for (int o = 1; o <= PB_TPCC_ORDERS; o++)
			{
				MemoryContext oldcxt;
				TupleTableSlot *slot = tpcc_next(bulk, &oldcxt);
				Datum	   *v = slot->tts_values;

				tpcc_row_prng(&prng, opts, PB_TPCC_SEED_ORDER, w, d, o);
				v[0] = Int32GetDatum(o);
				v[1] = Int32GetDatum(d);
				v[2] = Int32GetDatum(w);
				v[3] = Int32GetDatum(perm[o - 1]);
				v[4] = entry;
				if (o < PB_TPCC_FIRST_NEW_ORDER)
					v[5] = Int32GetDatum((int32) pb_tpcc_random(&prng, 1, 10));
				else
					slot->tts_isnull[5] = true;
				v[6] = Int32GetDatum(pb_tpcc_order_lines(opts->seed, w, d, o));
				v[7] = Int32GetDatum(1);
				tpcc_store(bulk, oldcxt);
			}
		}
	}
	pfree(perm);
}

/*
 * NEW-ORDER: the last 900 orders of each district, o_id 2101 .. 3000.
 */
static void
tpcc_fill_new_order(const PbLoadOptions *opts, PbBulkInsert *bulk)
{
	for (int w = opts->first_warehouse; w <= opts->warehouses; w++)
	{
		if (pb_bulk_rows_elsewhere(bulk, Int32GetDatum(w)))
			continue;
		for (int d = 1; d <= PB_TPCC_DISTRICTS; d++)
			for (int o = PB_TPCC_FIRST_NEW_ORDER; o <= PB_TPCC_ORDERS; o++)
			{
				MemoryContext oldcxt;
				TupleTableSlot *slot = tpcc_next(bulk, &oldcxt);

				slot->tts_values[0] = Int32GetDatum(o);
				slot->tts_values[1] = Int32GetDatum(d);
				slot->tts_values[2] = Int32GetDatum(w);
				tpcc_store(bulk, oldcxt);
			}
	}
}

/*
 * ORDER-LINE: O_OL_CNT lines per order, of a random item from the home
 * warehouse, quantity 5; the delivered orders' lines (o_id below 2101)
 * delivered when the order was entered, of amount 0.00, the others not
 * delivered, of an amount in [0.01, 9,999.99].
 */
static void
tpcc_fill_order_line(const PbLoadOptions *opts, PbBulkInsert *bulk)
{
	Datum		zero = tpcc_numeric(0, 2);
	Datum		delivery = TimestampGetDatum(opts->row_time);

	for (int w = opts->first_warehouse; w <= opts->warehouses; w++)
	{
		if (pb_bulk_rows_elsewhere(bulk, Int32GetDatum(w)))
			continue;
		for (int d = 1; d <= PB_TPCC_DISTRICTS; d++)
			for (int o = 1; o <= PB_TPCC_ORDERS; o++)
			{
				int			lines = pb_tpcc_order_lines(opts->seed, w, d, o);
				bool		delivered = o < PB_TPCC_FIRST_NEW_ORDER;
				PbPrng		prng;

				tpcc_row_prng(&prng, opts, PB_TPCC_SEED_ORDER_LINE, w, d, o);
				for (int l = 1; l <= lines; l++)
				{
					MemoryContext oldcxt;
					TupleTableSlot *slot = tpcc_next(bulk, &oldcxt);
					Datum	   *v = slot->tts_values;

					v[0] = Int32GetDatum(o);
					v[1] = Int32GetDatum(d);
					v[2] = Int32GetDatum(w);
					v[3] = Int32GetDatum(l);
					v[4] = Int32GetDatum((int32) pb_tpcc_random(&prng, 1,
																PB_TPCC_ITEMS));
					v[5] = Int32GetDatum(w);
					if (delivered)
					{
						v[6] = delivery;
						v[8] = zero;
					}
					else
					{
						slot->tts_isnull[6] = true;
						v[8] = tpcc_numeric(pb_tpcc_random(&prng, 1, 999999), 2);
					}
					v[7] = Int32GetDatum(5);
					v[9] = tpcc_astring(&prng, 24, 24);
					tpcc_store(bulk, oldcxt);
				}
			}
	}
}

/*
 * ITEM: 100,000 items, I_PRICE in [1.00, 100.00], "ORIGINAL" in 10% of
 * I_DATA.
 */
static void
tpcc_fill_item(const PbLoadOptions *opts, PbBulkInsert *bulk)
{
	/* every row dropped: the coordinator creating the tables empty */
	if (pb_bulk_rows_elsewhere(bulk, (Datum) 0))
		return;
	for (int i = 1; i <= PB_TPCC_ITEMS; i++)
	{
		MemoryContext oldcxt;
		TupleTableSlot *slot = tpcc_next(bulk, &oldcxt);
		Datum	   *v = slot->tts_values;
		PbPrng		prng;

		tpcc_row_prng(&prng, opts, PB_TPCC_SEED_ITEM, 0, 0, i);
		v[0] = Int32GetDatum(i);
		v[1] = Int32GetDatum((int32) pb_tpcc_random(&prng, 1, 10000));
		v[2] = tpcc_astring(&prng, 14, 24);
		v[3] = tpcc_numeric(pb_tpcc_random(&prng, 100, 10000), 2);
		v[4] = tpcc_data(&prng);
		tpcc_store(bulk, oldcxt);
	}
}

/*
 * STOCK: every item in every warehouse, S_QUANTITY in [10, 100], the
 * counters at 0, "ORIGINAL" in 10% of S_DATA.
 */
static void
tpcc_fill_stock(const PbLoadOptions *opts, PbBulkInsert *bulk)
{
	for (int w = opts->first_warehouse; w <= opts->warehouses; w++)
	{
		if (pb_bulk_rows_elsewhere(bulk, Int32GetDatum(w)))
			continue;
		for (int i = 1; i <= PB_TPCC_ITEMS; i++)
		{
			MemoryContext oldcxt;
			TupleTableSlot *slot = tpcc_next(bulk, &oldcxt);
			Datum	   *v = slot->tts_values;
			PbPrng		prng;

			tpcc_row_prng(&prng, opts, PB_TPCC_SEED_STOCK, w, 0, i);
			v[0] = Int32GetDatum(i);
			v[1] = Int32GetDatum(w);
			v[2] = Int32GetDatum((int32) pb_tpcc_random(&prng, 10, 100));
			for (int k = 0; k < PB_TPCC_DISTRICTS; k++)
				v[3 + k] = tpcc_astring(&prng, 24, 24);
			v[13] = Int32GetDatum(0);
			v[14] = Int32GetDatum(0);
			v[15] = Int32GetDatum(0);
			v[16] = tpcc_data(&prng);
			tpcc_store(bulk, oldcxt);
		}
	}
}

/* ---- a job: one table ----------------------------------------------------- */

/*
 * CREATE TABLE for table t, under the load's name for it.
 */
static void
tpcc_create_table(const PbLoadOptions *opts, TpccTableId t)
{
	StringInfoData sql;
	const TpccTable *table = &tpcc_tables[t];

	initStringInfo(&sql);
	/* an extension's tables only pass its rows on: no WAL for them */
	appendStringInfo(&sql, "create%s table %s (",
					 opts->unlogged || opts->extend ? " unlogged" : "",
					 pb_loader_qualify(opts, table->name));
	for (const TpccColumn *c = table->columns; c->name != NULL; c++)
		appendStringInfo(&sql, "%s\n  %s %s", c == table->columns ? "" : ",",
						 c->name, c->type);
	appendStringInfo(&sql, "\n)%s", opts->extend ? "" :
					 pb_loader_with(opts, false));
	pb_loader_sql("%s", sql.data);
	pfree(sql.data);
}

/*
 * ANALYZE table t: the columns that TPC-C's transactions search or join
 * by (keys, c_last, s_quantity, ol_i_id, ol_delivery_d), whose statistics
 * make their plans.  The other columns' would not (random strings, all
 * different, and amounts), and they were most of what ANALYZE cost: 1.2 s
 * for customer and 1.3 s for stock per warehouse, against 0.15 s and 0.1 s.
 */
static void
tpcc_analyze(const PbLoadOptions *opts, TpccTableId t)
{
	const TpccTable *table = &tpcc_tables[t];

	if (table->analyzed)
		pb_loader_sql("analyze %s (%s)",
					  pb_loader_qualify(opts, table->name), table->analyzed);
	else
		pb_loader_sql("analyze %s", pb_loader_qualify(opts, table->name));
}

/*
 * Fill table t, there (with its primary key, empty, but in an extension),
 * with its rows, the key built as they go.  Returns the rows inserted.
 */
static int64
tpcc_fill_table(const PbLoadOptions *opts, TpccTableId t,
				PbProgress *progress)
{
	const TpccTable *table = &tpcc_tables[t];
	Oid			relid = pb_loader_relid(opts, table->name);
	Oid			key = InvalidOid;
	PbBulkInsert *bulk;
	int64		rows;

	if (table->key && !opts->extend)
		key = pb_loader_primary_key(relid);
	pb_progress_table_begin(progress, relid);
	bulk = pb_bulk_begin(relid, progress, PB_BULK_BATCH, true, key);
	table->fill(opts, bulk);
	rows = pb_bulk_end(bulk);
	pb_progress_table_end(progress);
	return rows;
}

/*
 * Create, fill and index the table of job number job (see the file
 * header); for an extension, only create and fill it.
 */
static int64
tpcc_run_job(const PbLoadOptions *opts, int job, bool parallel,
			 PbProgress *progress)
{
	TpccTableId t = tpcc_job_table(opts, job);
	const TpccTable *table = &tpcc_tables[t];
	char	   *qname = pb_loader_qualify(opts, table->name);
	int64		rows;

	tpcc_create_table(opts, t);
	/*
	 * Rows come in the key's order: it is built as they are written.
	 * (Added before the COPY progress report starts, which the index build
	 * would end.)
	 */
	if (table->key && !opts->extend)
		pb_loader_sql("alter table %s add primary key (%s)", qname,
					  table->key);
	rows = tpcc_fill_table(opts, t, progress);

	if (!opts->extend)
	{
		if (table->index)
			pb_loader_sql("create index %s on %s (%s)",
						  quote_identifier(pb_loader_name(opts, table->index)),
						  qname, table->index_columns);
		tpcc_analyze(opts, t);
	}
	return rows;
}

/*
 * Once every job is done, in the caller's transaction, the tables under
 * their names: record the load in tpcc_load (for an extension, its new
 * number of warehouses, and the statistics of the tables that grew), then
 * the foreign keys.
 */
static void
tpcc_finish(const PbLoadOptions *opts, bool parallel)
{
	char	   *load = pb_loader_qualify(opts, tpcc_tables[TPCC_LOAD].name);
	Oid			types[4] = {INT4OID, INT8OID, INT4OID, TIMESTAMPTZOID};
	Datum		values[4];

	if (opts->extend)
	{
		values[0] = Int32GetDatum(opts->warehouses);
		if (pb_spi_execute_safe(psprintf("update %s set warehouses = $1", load),
								1, types, values, false, 0) != SPI_OK_UPDATE ||
			SPI_processed != 1)
			elog(ERROR, "could not record the warehouses added in tpcc_load");
		for (int t = 0; t < TPCC_NTABLES; t++)
			if (t != TPCC_ITEM && t != TPCC_LOAD)
				tpcc_analyze(opts, t);
		return;
	}

	values[0] = Int32GetDatum(opts->c_load);
	values[1] = Int64GetDatum((int64) opts->seed);
	values[2] = Int32GetDatum(opts->warehouses);
	values[3] = TimestampTzGetDatum(opts->load_time);
	tpcc_create_table(opts, TPCC_LOAD);
	if (pb_spi_execute_safe(psprintf("insert into %s values ($1, $2, $3, $4)", load),
							4, types, values, false, 0) != SPI_OK_INSERT)
		elog(ERROR, "could not record the load in tpcc_load");

	if (opts->foreign_keys)
		for (int i = 0; i < lengthof(tpcc_foreign_keys); i++)
			pb_loader_sql("alter table %s add foreign key (%s) references %s",
						  pb_loader_qualify(opts, tpcc_tables[tpcc_foreign_keys[i].table].name),
						  tpcc_foreign_keys[i].columns,
						  pb_loader_qualify(opts, tpcc_tables[tpcc_foreign_keys[i].references].name));
}

/* ---- what is there: a new load, or warehouses added ----------------------- */

/*
 * Refuse to add warehouses to the tables of the load's schema, because of
 * what detail says.
 */
static void
tpcc_refuse_extension(const PbLoadOptions *opts, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("cannot add warehouses to the tables in schema \"%s\": they are not a TPC-C data set of polarbench's",
					opts->nspname),
			 errdetail("%s", detail),
			 errhint("Drop table tpcc_load to load a new data set over these tables instead.")));
}

/*
 * The one value of the query's one row, as int64; the query must be
 * polarbench's own (run with a pinned search_path).  Like every query of
 * the prepare step, it takes a snapshot of its own, which sees what was
 * committed before the step's locks were granted.
 */
static bool
tpcc_query_int8(const char *sql, int64 *value)
{
	bool		isnull;
	Datum		d;

	if (pb_spi_execute_safe(sql, 0, NULL, NULL, false, 0) != SPI_OK_SELECT ||
		SPI_processed != 1)
		return false;
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1,
					  &isnull);
	*value = isnull ? 0 : DatumGetInt64(d);
	return true;
}

/*
 * Whether table t of the load's schema has the columns the load makes, in
 * order, with their types.
 */
static bool
tpcc_columns_match(const PbLoadOptions *opts, TpccTableId t, Oid relid)
{
	const TpccColumn *c = tpcc_tables[t].columns;
	Oid			types[1] = {OIDOID};
	Datum		values[1] = {ObjectIdGetDatum(relid)};
	uint64		i;

	if (pb_spi_execute_safe("select a.attname::text, format_type(a.atttypid, a.atttypmod)"
							"  from pg_attribute a"
							" where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped"
							" order by a.attnum",
							1, types, values, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the columns of table \"%s\"",
			 tpcc_tables[t].name);
	for (i = 0; i < SPI_processed; i++, c++)
	{
		if (c->name == NULL ||
			strcmp(SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1),
				   c->name) != 0 ||
			strcmp(SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2),
				   c->type) != 0)
			return false;
	}
	return c->name == NULL;
}

/*
 * An extension: check that the tables of the load's schema are a TPC-C data
 * set of opts->first_warehouse - 1 warehouses that the current role may
 * add rows to, lock them against writes, and take from them the load's
 * date.  Refuses anything else, before anything is written.
 */
static void
tpcc_check_extension(PbLoadOptions *opts)
{
	Oid			relids[TPCC_NTABLES];
	int			w = opts->first_warehouse - 1;
	int64		value;
	bool		has_fk;

	for (int t = 0; t < TPCC_NTABLES; t++)
	{
		AclMode		mode = t == TPCC_LOAD ? ACL_UPDATE : ACL_INSERT;
		AclResult	aclresult;

		relids[t] = get_relname_relid(tpcc_tables[t].name, opts->nspid);
		if (!OidIsValid(relids[t]) ||
			get_rel_relkind(relids[t]) != RELKIND_RELATION)
			tpcc_refuse_extension(opts, psprintf("Table \"%s\" is missing.",
												 tpcc_tables[t].name));
		if (!tpcc_columns_match(opts, t, relids[t]))
			tpcc_refuse_extension(opts, psprintf("Table \"%s\" does not have the columns of TPC-C's %s.",
												 tpcc_tables[t].name,
												 tpcc_tables[t].name));
		/* the tables are read, and rows added by the caller */
		aclresult = pg_class_aclcheck(relids[t], GetUserId(), ACL_SELECT);
		if (aclresult == ACLCHECK_OK && t != TPCC_ITEM)
			aclresult = pg_class_aclcheck(relids[t], GetUserId(), mode);
		if (aclresult != ACLCHECK_OK)
			aclcheck_error(aclresult, OBJECT_TABLE, tpcc_tables[t].name);

		/*
		 * No other session writes them until the rows are added (the
		 * caller may add rows, so it may also keep others from doing so).
		 */
		LockRelationOid(relids[t], ShareRowExclusiveLock);
		if (get_relname_relid(tpcc_tables[t].name, opts->nspid) != relids[t])
			tpcc_refuse_extension(opts, psprintf("Table \"%s\" was replaced meanwhile.",
												 tpcc_tables[t].name));
	}

	/* the warehouses are those tpcc_load says, and nothing is past them */
	if (!tpcc_query_int8(psprintf("select count(*)::int8 from %s",
								  pb_loader_qualify(opts, "warehouse")), &value) ||
		value != w ||
		!tpcc_query_int8(psprintf("select coalesce(max(w_id), 0)::int8 from %s",
								  pb_loader_qualify(opts, "warehouse")), &value) ||
		value != w)
		tpcc_refuse_extension(opts, psprintf("Table \"warehouse\" does not hold warehouses 1 to %d, as tpcc_load says.",
											 w));
	for (int t = 0; t < TPCC_NTABLES; t++)
	{
		const char *col = tpcc_tables[t].warehouse_column;

		if (col == NULL)
			continue;
		if (!tpcc_query_int8(psprintf("select coalesce(max(%s), 0)::int8 from %s",
									  col, pb_loader_qualify(opts, tpcc_tables[t].name)),
							 &value) || value > w)
			tpcc_refuse_extension(opts, psprintf("Table \"%s\" has rows of a warehouse past %d, which tpcc_load says is the last.",
												 tpcc_tables[t].name, w));
	}

	/* the tables keep their foreign keys, or their lack of them */
	has_fk = tpcc_query_int8(psprintf("select count(*) from pg_constraint"
									  " where conrelid = %u and contype = 'f'",
									  relids[TPCC_ORDER_LINE]), &value) &&
		value > 0;
	if (opts->foreign_keys && !has_fk)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot add foreign keys to a TPC-C data set while adding warehouses"),
				 errdetail("Warehouses are added to the tables as they are."),
				 errhint("Add warehouses without foreign_keys, or load a new data set with them.")));

	/* the dates of the rows there, for the new ones */
	if (pb_spi_execute_safe(psprintf("select c_since from %s where c_w_id = 1 and c_d_id = 1 and c_id = 1",
									 pb_loader_qualify(opts, "customer")),
							0, NULL, NULL, false, 0) != SPI_OK_SELECT ||
		SPI_processed != 1)
		tpcc_refuse_extension(opts, "Customer 1 of district 1 of warehouse 1 is missing.");
	else
	{
		bool		isnull;
		Datum		d = SPI_getbinval(SPI_tuptable->vals[0],
									  SPI_tuptable->tupdesc, 1, &isnull);

		if (isnull)
			tpcc_refuse_extension(opts, "Customer 1 of district 1 of warehouse 1 has no c_since.");
		opts->row_time = DatumGetTimestamp(d);
	}
}

/*
 * Before anything is written, in the caller's transaction: a load of W
 * warehouses over a TPC-C data set of fewer, which tpcc_load describes,
 * adds the missing ones with that load's seed (after checking that the
 * tables are as it made them); any other load is a new one, with a seed,
 * C_LOAD and date of its own.
 */
static void
tpcc_prepare(PbLoadOptions *opts)
{
	Oid			relid = get_relname_relid(tpcc_tables[TPCC_LOAD].name,
										  opts->nspid);

	/*
	 * Another load into the schema may replace tpcc_load meanwhile: look
	 * at it once no other load can, through a snapshot taken then.
	 */
	while (OidIsValid(relid))
	{
		Oid			again;

		LockRelationOid(relid, ShareRowExclusiveLock);
		again = get_relname_relid(tpcc_tables[TPCC_LOAD].name, opts->nspid);
		if (again == relid)
			break;
		UnlockRelationOid(relid, ShareRowExclusiveLock);
		relid = again;
	}

	opts->first_warehouse = 1;
	opts->extend = false;
	if (OidIsValid(relid))
	{
		bool		isnull[4];
		Datum		d[4];
		int			w;

		if (!tpcc_columns_match(opts, TPCC_LOAD, relid) ||
			pb_spi_execute_safe(psprintf("select c_load, seed, warehouses, loaded_at from %s",
										 pb_loader_qualify(opts, "tpcc_load")),
								0, NULL, NULL, false, 0) != SPI_OK_SELECT ||
			SPI_processed != 1)
			tpcc_refuse_extension(opts, "Table \"tpcc_load\" does not describe one load.");
		for (int i = 0; i < 4; i++)
			d[i] = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc,
								 i + 1, &isnull[i]);
		if (isnull[0] || isnull[1] || isnull[2] || isnull[3] ||
			DatumGetInt32(d[0]) < 0 || DatumGetInt32(d[0]) > PB_TPCC_A_LAST ||
			DatumGetInt32(d[2]) < 1)
			tpcc_refuse_extension(opts, "Table \"tpcc_load\" does not describe one load.");
		w = DatumGetInt32(d[2]);
		if (w < opts->warehouses)
		{
			opts->extend = true;
			opts->first_warehouse = w + 1;
			opts->c_load = DatumGetInt32(d[0]);
			opts->seed = (uint64) DatumGetInt64(d[1]);
			opts->load_time = DatumGetTimestampTz(d[3]);
			tpcc_check_extension(opts);
			ereport(NOTICE,
					(errmsg("adding %s to the TPC-C data set of %d warehouse%s in schema \"%s\"",
							w + 1 == opts->warehouses ?
							psprintf("warehouse %d", opts->warehouses) :
							psprintf("warehouses %d to %d", w + 1, opts->warehouses),
							w, w == 1 ? "" : "s", opts->nspname)));
			return;
		}
	}

	opts->seed = pg_prng_uint64(&pg_global_prng_state);
	opts->c_load = pb_tpcc_c_load(opts->seed);
	opts->load_time = GetCurrentTimestamp();
	/* the dates as the caller's session sees them, whoever writes them */
	opts->row_time = DatumGetTimestamp(DirectFunctionCall1(timestamptz_timestamp,
														   TimestampTzGetDatum(opts->load_time)));
}

/*
 * The column each table is distributed by on a Citus cluster, as HammerDB's
 * Citus mode and Citus's TPC-C benchmarks lay them out: the eight tables of
 * a warehouse by its id, item (which every warehouse reads) and tpcc_load
 * reference tables.
 */
static const char *const tpcc_distribution_columns[TPCC_NTABLES] = {
	[TPCC_WAREHOUSE] = "w_id",
	[TPCC_DISTRICT] = "d_w_id",
	[TPCC_CUSTOMER] = "c_w_id",
	[TPCC_HISTORY] = "h_w_id",
	[TPCC_ORDERS] = "o_w_id",
	[TPCC_NEW_ORDER] = "no_w_id",
	[TPCC_ITEM] = NULL,
	[TPCC_STOCK] = "s_w_id",
	[TPCC_ORDER_LINE] = "ol_w_id",
	[TPCC_LOAD] = NULL,
};

/*
 * On a Citus cluster: the warehouse tables colocated with warehouse, so
 * that a transaction of one warehouse runs on the node that holds it.
 */
static List *
tpcc_distribution(const PbLoadOptions *opts)
{
	List	   *tables = NIL;

	for (int t = 0; t < TPCC_NTABLES; t++)
		tables = lappend(tables,
						 pb_distributed_table(tpcc_tables[t].name,
											  tpcc_distribution_columns[t],
											  t == TPCC_WAREHOUSE || tpcc_distribution_columns[t] == NULL ?
											  NULL : tpcc_tables[TPCC_WAREHOUSE].name));
	return tables;
}

/*
 * On every node of a Citus cluster, the tables there with their keys and
 * indexes: the rows of the warehouses of its shards, and all of item into
 * its placement of that reference table (shard_route.c); each shard's
 * secondary index is built once its rows are in (bulk_insert.c).
 * tpcc_load's one row was copied to every node by Citus, as the
 * coordinator made it (tpcc_finish()).
 */
static int64
tpcc_fill_shards(const PbLoadOptions *opts, PbProgress *progress)
{
	int64		rows = 0;

	for (int j = 0; j < lengthof(tpcc_jobs); j++)
		rows += tpcc_fill_table(opts, tpcc_jobs[j], progress);
	return rows;
}

/* The arguments of polarbench_init() it reads of its own */
static const PbDatasetOption tpcc_options[] = {
	{"warehouses", "warehouses (W): about 100 MB each; on a TPC-C data set of fewer, the missing ones are added"},
	{"foreign_keys", "foreign keys between the tables"},
	{NULL, NULL}
};

const PbDataset pb_dataset_tpcc = {
	.name = "tpcc",
	.description = "TPC-C's nine tables and their initial population (clause 4.3.3.1), as HammerDB and go-tpc name them",
	.options = tpcc_options,
	.compressible = false,			/* random strings */
	.check = tpcc_check,
	.prepare = tpcc_prepare,
	.table_names = tpcc_table_names,
	.created_names = tpcc_created_names,
	.njobs = tpcc_njobs,
	.total_rows = tpcc_total_rows,
	.run_job = tpcc_run_job,
	.finish = tpcc_finish,
	.distribution = tpcc_distribution,
	.fill_shards = tpcc_fill_shards
};
