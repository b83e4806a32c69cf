/*-------------------------------------------------------------------------
 *
 * tpcc_driver.c
 *	  TPC-C 5.11 in a client: the five transactions of clause 2 as prepared
 *	  plans on the nine tables of the TPC-C data set (tpcc_dataset.c, or
 *	  HammerDB's and go-tpc's, which have the same names and columns), each
 *	  in a transaction of its own, chosen by the deck of clause 5.2.4.2.
 *
 * Terminals.  Each terminal has a home warehouse, and a district of its own
 * for Stock-Level (2.8.1.1); terminals are spread over the warehouses.
 * Without keying and think times (the default, as in every kit) a client
 * is one terminal and runs its transactions back to back.  With
 * keying_think, each warehouse has `terminals` terminals (10, 4.2.2), the
 * clients share them out, and a terminal that is keying or thinking holds
 * no client: the client runs whichever of its terminals is due next
 * (PbDriver.schedule), and a transaction's response time runs from when
 * its terminal submitted it, so that a client too slow for its terminals
 * shows as longer response times, never as a quieter workload.
 *
 * The transactions, as clause 2 profiles them (the research notes in the
 * README name each rule):
 *	- New-Order: 5..15 lines, items by NURand(8191), 1% of lines from
 *	  another warehouse when there are several, 1% of orders rolled back
 *	  at their last line by an item number that does not exist; the stock
 *	  quantity rule, s_ytd, s_order_cnt and s_remote_cnt; the district's
 *	  next order number, the order, its new-order row and its lines.
 *	- Payment: 85% of customers at home, 15% in another warehouse (when
 *	  there are several) and a random district; 60% found by last name,
 *	  taking the row at ceil(n / 2) of those in c_first order; the three
 *	  ytd values, c_payment_cnt, c_data of bad-credit customers, a history
 *	  row.
 *	- Order-Status: the customer (60% by last name), the last order, its
 *	  lines.
 *	- Delivery: for every district of the warehouse, the oldest new order
 *	  (none: the district is skipped, and counted), its carrier, its lines'
 *	  delivery date, the customer's balance and c_delivery_cnt; one
 *	  database transaction for the ten.
 *	- Stock-Level: the distinct items of the district's last 20 orders
 *	  whose stock is below a threshold of 10..20.
 * The numbers come from the kind's backend-free part (tpcc_rand.c), with the
 * run's constants C drawn by the caller by the rule of 2.1.6.1 against
 * the C the load recorded.  A rolled-back New-Order is counted as a
 * completed New-Order (and in its operation's rollbacks), as the
 * specification counts it; serialization failures and deadlocks are
 * retried with the same inputs under max_tries, by the engine.
 *
 * Results: polarbench_operations has a row per transaction type, with its
 * rollbacks and retries; the run's figures hold tpmC (New-Orders per
 * minute, rolled back ones included), NOPM as HammerDB measures it (the
 * change of sum(d_next_o_id) per minute, read by the recorder at the
 * measurement's start and end) and the efficiency against 12.86 tpmC per
 * warehouse; polarbench_report(run_id, 'tpcc') prints them.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"

#include "driver.h"
#include "driver_options.h"
#include "report_query.h"
#include "statement_exec.h"
#include "tpcc.h"

/* The statements, in the order of the transactions that run them */
typedef enum PbTpccStatement
{
	/* New-Order */
	NO_WAREHOUSE,
	NO_DISTRICT,
	NO_CUSTOMER,
	NO_ORDER,
	NO_NEW_ORDER,
	NO_ITEM,
	NO_STOCK,
	NO_ORDER_LINE,
	/* Payment */
	PAY_WAREHOUSE,
	PAY_DISTRICT,
	PAY_CUSTOMER_BY_NAME,
	PAY_CUSTOMER,
	PAY_HISTORY,
	/* Order-Status */
	OS_CUSTOMER_BY_NAME,
	OS_CUSTOMER,
	OS_ORDER,
	OS_ORDER_LINES,
	/* Delivery */
	DEL_NEW_ORDER,
	DEL_DELETE,
	DEL_ORDER,
	DEL_ORDER_LINES,
	DEL_CUSTOMER,
	/* Stock-Level */
	SL_DISTRICT,
	SL_STOCK,
	TPCC_NSTATEMENTS
} PbTpccStatement;

typedef struct PbTpccStatementDef
{
	const char *sql;
	int			nparams;
	Oid			types[10];
} PbTpccStatementDef;

/*
 * Each step of clause 2's profiles, on the tables' names as the caller's
 * search path finds them.  A row that the profile selects FOR UPDATE and
 * then updates is updated with RETURNING, which has the same effect with
 * one statement less.
 *
 * Every operator, function and aggregate they call is pg_catalog's,
 * whatever a role plants on the search_path: the clients search pg_catalog
 * first (pb_settings_search_path()), where most calls have an exact match,
 * operands of mixed types being cast to one; a call that has none there
 * names pg_catalog's: c_last, a varchar, is compared with OPERATOR
 * (pg_catalog.=) (pg_catalog has no operator of varchar, and one planted
 * for (varchar, text) would be an exact match), and Stock-Level counts with
 * pg_catalog.count (whose count("any") an aggregate planted for integer
 * would beat).  The index on c_last is used as before: its operator class
 * is text's, whose = the operator resolves to.
 *
 * Stock's district column is chosen by a searched CASE: Citus evaluates on
 * the coordinator the parts of a modification that read no column, and the
 * tests of a simple CASE ($5 WHEN 1, stored as a placeholder = 1) read
 * none, so it sends the node holding the shard "CASE 10 WHEN NULL::boolean
 * ...", which fails there (integer = boolean).
 */
static const PbTpccStatementDef tpcc_statements[TPCC_NSTATEMENTS] = {
	[NO_WAREHOUSE] = {"SELECT w_tax FROM warehouse WHERE w_id = $1", 1, {INT4OID}},
	[NO_DISTRICT] = {"UPDATE district SET d_next_o_id = d_next_o_id + 1"
		" WHERE d_w_id = $1 AND d_id = $2 RETURNING d_tax, d_next_o_id - 1",
	2, {INT4OID, INT4OID}},
	[NO_CUSTOMER] = {"SELECT c_discount, c_last, c_credit FROM customer"
		" WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3", 3, {INT4OID, INT4OID, INT4OID}},
	[NO_ORDER] = {"INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d,"
		" o_carrier_id, o_ol_cnt, o_all_local)"
		" VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP, NULL, $5, $6)",
	6, {INT4OID, INT4OID, INT4OID, INT4OID, INT4OID, INT4OID}},
	[NO_NEW_ORDER] = {"INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES ($1, $2, $3)",
	3, {INT4OID, INT4OID, INT4OID}},
	[NO_ITEM] = {"SELECT i_price, i_name, i_data FROM item WHERE i_id = $1", 1, {INT4OID}},
	[NO_STOCK] = {"UPDATE stock SET s_quantity = CASE WHEN s_quantity >= $3 + 10"
		" THEN s_quantity - $3 ELSE s_quantity - $3 + 91 END,"
		" s_ytd = s_ytd + $3, s_order_cnt = s_order_cnt + 1,"
		" s_remote_cnt = s_remote_cnt + $4"
		" WHERE s_i_id = $1 AND s_w_id = $2"
		" RETURNING s_data, CASE WHEN $5 = 1 THEN s_dist_01"
		" WHEN $5 = 2 THEN s_dist_02 WHEN $5 = 3 THEN s_dist_03"
		" WHEN $5 = 4 THEN s_dist_04 WHEN $5 = 5 THEN s_dist_05"
		" WHEN $5 = 6 THEN s_dist_06 WHEN $5 = 7 THEN s_dist_07"
		" WHEN $5 = 8 THEN s_dist_08 WHEN $5 = 9 THEN s_dist_09"
		" ELSE s_dist_10 END",
	5, {INT4OID, INT4OID, INT4OID, INT4OID, INT4OID}},
	[NO_ORDER_LINE] = {"INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number,"
		" ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)"
		" VALUES ($1, $2, $3, $4, $5, $6, NULL, $7, $8 * $7::numeric, $9)",
	9, {INT4OID, INT4OID, INT4OID, INT4OID, INT4OID, INT4OID, INT4OID, NUMERICOID, TEXTOID}},
	[PAY_WAREHOUSE] = {"UPDATE warehouse SET w_ytd = w_ytd + $2 WHERE w_id = $1"
		" RETURNING w_name, w_street_1, w_street_2, w_city, w_state, w_zip",
	2, {INT4OID, NUMERICOID}},
	[PAY_DISTRICT] = {"UPDATE district SET d_ytd = d_ytd + $3 WHERE d_w_id = $1 AND d_id = $2"
		" RETURNING d_name, d_street_1, d_street_2, d_city, d_state, d_zip",
	3, {INT4OID, INT4OID, NUMERICOID}},
	[PAY_CUSTOMER_BY_NAME] = {"SELECT c_id FROM customer"
		" WHERE c_w_id = $1 AND c_d_id = $2 AND c_last OPERATOR(pg_catalog.=) $3 ORDER BY c_first",
	3, {INT4OID, INT4OID, TEXTOID}},
	[PAY_CUSTOMER] = {"UPDATE customer SET c_balance = c_balance - $4,"
		" c_ytd_payment = c_ytd_payment + $4, c_payment_cnt = c_payment_cnt + 1,"
		" c_data = CASE WHEN c_credit = 'BC' THEN substr($5 || c_data::text, 1, 500) ELSE c_data END"
		" WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3"
		" RETURNING c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state,"
		" c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance,"
		" CASE WHEN c_credit = 'BC' THEN substr(c_data::text, 1, 200) END",
	5, {INT4OID, INT4OID, INT4OID, NUMERICOID, TEXTOID}},
	[PAY_HISTORY] = {"INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id,"
		" h_date, h_amount, h_data) VALUES ($1, $2, $3, $4, $5, CURRENT_TIMESTAMP, $6, $7)",
	7, {INT4OID, INT4OID, INT4OID, INT4OID, INT4OID, NUMERICOID, TEXTOID}},
	[OS_CUSTOMER_BY_NAME] = {"SELECT c_id, c_balance, c_first, c_middle, c_last FROM customer"
		" WHERE c_w_id = $1 AND c_d_id = $2 AND c_last OPERATOR(pg_catalog.=) $3 ORDER BY c_first",
	3, {INT4OID, INT4OID, TEXTOID}},
	[OS_CUSTOMER] = {"SELECT c_id, c_balance, c_first, c_middle, c_last FROM customer"
		" WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3", 3, {INT4OID, INT4OID, INT4OID}},
	[OS_ORDER] = {"SELECT o_id, o_entry_d, o_carrier_id FROM orders"
		" WHERE o_w_id = $1 AND o_d_id = $2 AND o_c_id = $3 ORDER BY o_id DESC LIMIT 1",
	3, {INT4OID, INT4OID, INT4OID}},
	[OS_ORDER_LINES] = {"SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d"
		" FROM order_line WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3",
	3, {INT4OID, INT4OID, INT4OID}},
	[DEL_NEW_ORDER] = {"SELECT no_o_id FROM new_order WHERE no_w_id = $1 AND no_d_id = $2"
		" ORDER BY no_o_id LIMIT 1 FOR UPDATE", 2, {INT4OID, INT4OID}},
	[DEL_DELETE] = {"DELETE FROM new_order WHERE no_w_id = $1 AND no_d_id = $2 AND no_o_id = $3",
	3, {INT4OID, INT4OID, INT4OID}},
	[DEL_ORDER] = {"UPDATE orders SET o_carrier_id = $4"
		" WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3 RETURNING o_c_id",
	4, {INT4OID, INT4OID, INT4OID, INT4OID}},
	[DEL_ORDER_LINES] = {"WITH l AS (UPDATE order_line SET ol_delivery_d = CURRENT_TIMESTAMP"
		" WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3 RETURNING ol_amount)"
		" SELECT sum(ol_amount) FROM l", 3, {INT4OID, INT4OID, INT4OID}},
	[DEL_CUSTOMER] = {"UPDATE customer SET c_balance = c_balance + $4,"
		" c_delivery_cnt = c_delivery_cnt + 1"
		" WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3",
	4, {INT4OID, INT4OID, INT4OID, NUMERICOID}},
	[SL_DISTRICT] = {"SELECT d_next_o_id FROM district WHERE d_w_id = $1 AND d_id = $2",
	2, {INT4OID, INT4OID}},
	[SL_STOCK] = {"SELECT pg_catalog.count(DISTINCT s_i_id) FROM order_line, stock"
		" WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id < $3 AND ol_o_id >= $3 - 20"
		" AND s_w_id = $1 AND s_i_id = ol_i_id AND s_quantity < $4",
	4, {INT4OID, INT4OID, INT4OID, INT4OID}},
};

/* The tables the transactions use, and what they do to each */
typedef struct PbTpccTable
{
	const char *name;
	const char *privileges;		/* as has_table_privilege() takes them */
	const char *key;			/* an index that must lead with these columns */
	const char *second_key;		/* and another, or NULL */
} PbTpccTable;

static const PbTpccTable tpcc_tables[] = {
	{"warehouse", "SELECT, UPDATE", "w_id", NULL},
	{"district", "SELECT, UPDATE", "d_w_id, d_id", NULL},
	{"customer", "SELECT, UPDATE", "c_w_id, c_d_id, c_id", "c_w_id, c_d_id, c_last, c_first"},
	{"history", "INSERT", NULL, NULL},
	{"new_order", "SELECT, INSERT, DELETE", "no_w_id, no_d_id, no_o_id", NULL},
	{"orders", "SELECT, INSERT, UPDATE", "o_w_id, o_d_id, o_id", "o_w_id, o_d_id, o_c_id, o_id"},
	{"order_line", "SELECT, INSERT, UPDATE", "ol_w_id, ol_d_id, ol_o_id, ol_number", NULL},
	{"item", "SELECT", "i_id", NULL},
	{"stock", "SELECT, UPDATE", "s_w_id, s_i_id", NULL},
};

/* What the clients of a run count together, for the run's figures */
typedef struct PbTpccShared
{
	pg_atomic_uint64 order_lines;	/* New-Order lines asked for */
	pg_atomic_uint64 remote_lines;	/* of which from another warehouse */
	pg_atomic_uint64 payments;
	pg_atomic_uint64 remote_payments;	/* customers of another warehouse */
	pg_atomic_uint64 by_name;	/* Payments and Order-Status by last name */
	pg_atomic_uint64 by_name_of;	/* Payments and Order-Status in all */
	pg_atomic_uint64 deliveries;	/* districts asked for */
	pg_atomic_uint64 skipped_deliveries;	/* districts without a new order */
} PbTpccShared;

/* The inputs of one transaction, drawn before it starts (2.x.1) */
typedef struct PbTpccInput
{
	int			type;
	int			w_id;
	int			d_id;
	int			c_w_id;			/* Payment: the customer's warehouse */
	int			c_d_id;
	int			c_id;			/* 0: by last name */
	char		c_last[PB_TPCC_LAST_LEN + 1];
	int			ol_cnt;
	int			item[PB_TPCC_MAX_LINES];
	int			supply_w[PB_TPCC_MAX_LINES];
	int			quantity[PB_TPCC_MAX_LINES];
	bool		all_local;
	int			cents;			/* Payment's H_AMOUNT, in cents */
	int			carrier;		/* Delivery */
	int			threshold;		/* Stock-Level */
} PbTpccInput;

/* What a client running TPC-C keeps */
typedef struct PbTpccDriver
{
	PbTpccOptions opts;
	PbPrng		prng;			/* the inputs, restored by the engine for a retry */
	PbTpccTerminal *terminals;
	int			nterminals;
	int			current;		/* the terminal whose transaction runs */
	bool		in_flight;		/* it started and has not finished */
	bool		started;		/* the terminals' clock is the run's */
	SPIPlanPtr	plans[TPCC_NSTATEMENTS];
	ParamListInfo params[TPCC_NSTATEMENTS];
	const char *activity;
	PbTpccShared *shared;
	PbTpccInput in;
} PbTpccDriver;

/* ---- statements --------------------------------------------------------- */

/*
 * pb_tpcc_prepare
 *		Prepare every statement with SPI connected; keep the plans past the
 *		transaction with keep.
 */
static void
pb_tpcc_prepare(PbTpccDriver *d, MemoryContext cxt, bool keep)
{
	for (int s = 0; s < TPCC_NSTATEMENTS; s++)
	{
		const PbTpccStatementDef *def = &tpcc_statements[s];
		MemoryContext old = MemoryContextSwitchTo(cxt);

		d->params[s] = pb_params_make(def->nparams, def->types);
		MemoryContextSwitchTo(old);
		d->plans[s] = pb_spi_prepare(def->sql, def->nparams, (Oid *) def->types, keep);
	}
}

/*
 * pb_tpcc_exec
 *		Run statement s with the values given, its rows in SPI_tuptable,
 *		and count it.  Returns the rows it returned or affected.
 */
static uint64
pb_tpcc_exec(PbTpccDriver *d, PbTxnCounts *counts, int s, const Datum *values)
{
	ParamListInfo params = d->params[s];
	int			rc;

	pb_params_set(params, values);
	if (d->activity != tpcc_statements[s].sql)
	{
		pgstat_report_activity(STATE_RUNNING, tpcc_statements[s].sql);
		d->activity = tpcc_statements[s].sql;
	}
	rc = SPI_execute_plan_with_paramlist(d->plans[s], params, false, 0);
	if (rc < 0)
		elog(ERROR, "SPI_execute_plan_with_paramlist failed: %s",
			 SPI_result_code_string(rc));
	pb_count_statement(counts, SPI_tuptable != NULL && SPI_tuptable->tupdesc != NULL &&
					   (rc == SPI_OK_SELECT || rc == SPI_OK_INSERT_RETURNING ||
						rc == SPI_OK_UPDATE_RETURNING || rc == SPI_OK_DELETE_RETURNING),
					   SPI_processed);
	return SPI_processed;
}

/* Column col (1-based) of row row of the last result, and whether null */
static inline Datum
pb_tpcc_value(uint64 row, int col, bool *isnull)
{
	return SPI_getbinval(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, col, isnull);
}

/* The same, which may not be null */
static inline Datum
pb_tpcc_value_nn(uint64 row, int col)
{
	bool		isnull;
	Datum		v = pb_tpcc_value(row, col, &isnull);

	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("TPC-C column \"%s\" is null",
						SPI_fname(SPI_tuptable->tupdesc, col))));
	return v;
}

/* An integer column, whatever its integer type */
static int64
pb_tpcc_int(uint64 row, int col)
{
	Datum		v = pb_tpcc_value_nn(row, col);

	switch (SPI_gettypeid(SPI_tuptable->tupdesc, col))
	{
		case INT2OID:
			return DatumGetInt16(v);
		case INT4OID:
			return DatumGetInt32(v);
		case INT8OID:
			return DatumGetInt64(v);
		case NUMERICOID:
			return DatumGetInt64(DirectFunctionCall1(numeric_int8, v));
	}
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("TPC-C column \"%s\" is not an integer",
					SPI_fname(SPI_tuptable->tupdesc, col))));
	return 0;					/* keep compiler quiet */
}

/* A numeric value of cents / 100 */
static Datum
pb_tpcc_money(int cents)
{
	char		buf[32];

	snprintf(buf, sizeof(buf), "%d.%02d", cents / 100, cents % 100);
	return DirectFunctionCall3(numeric_in, CStringGetDatum(buf),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

/* ---- inputs (2.4.1, 2.5.1, 2.6.1, 2.7.1, 2.8.1) ----------------------- */

/* A warehouse other than w, when there are several */
static int
pb_tpcc_other_warehouse(PbTpccDriver *d, int w)
{
	int			other;

	if (d->opts.warehouses < 2)
		return w;
	other = (int) pb_tpcc_random(&d->prng, 1, d->opts.warehouses - 1);
	return other >= w ? other + 1 : other;
}

/* A customer: 60% by last name (c_id 0 and c_last), else by number */
static void
pb_tpcc_customer(PbTpccDriver *d, PbTpccInput *in)
{
	if (pb_tpcc_random(&d->prng, 1, 100) <= 60)
	{
		in->c_id = 0;
		pb_tpcc_last_name(pb_tpcc_nurand(&d->prng, PB_TPCC_A_LAST, 0, 999, d->opts.c.c_last),
						  in->c_last);
	}
	else
		in->c_id = pb_tpcc_nurand(&d->prng, PB_TPCC_A_C_ID, 1, PB_TPCC_CUSTOMERS, d->opts.c.c_id);
}

/*
 * pb_tpcc_inputs
 *		Draw the inputs of a transaction of the terminal's type.
 */
static void
pb_tpcc_inputs(PbTpccDriver *d, const PbTpccTerminal *t, PbTpccInput *in)
{
	in->type = t->next_type;
	in->w_id = t->w_id;
	switch (in->type)
	{
		case PB_TPCC_NEW_ORDER:
			{
				bool		rollback;

				in->d_id = (int) pb_tpcc_random(&d->prng, 1, PB_TPCC_DISTRICTS);
				in->c_id = pb_tpcc_nurand(&d->prng, PB_TPCC_A_C_ID, 1, PB_TPCC_CUSTOMERS, d->opts.c.c_id);
				in->ol_cnt = (int) pb_tpcc_random(&d->prng, PB_TPCC_MIN_LINES, PB_TPCC_MAX_LINES);
				rollback = pb_tpcc_random(&d->prng, 1, 100) == 1;
				in->all_local = true;
				for (int i = 0; i < in->ol_cnt; i++)
				{
					in->item[i] = pb_tpcc_nurand(&d->prng, PB_TPCC_A_ITEM, 1, PB_TPCC_ITEMS, d->opts.c.ol_i_id);
					if (rollback && i == in->ol_cnt - 1)
						in->item[i] = PB_TPCC_ITEMS + 1;	/* unused: not found */
					in->supply_w[i] = in->w_id;
					if (pb_tpcc_random(&d->prng, 1, 100) == 1)
						in->supply_w[i] = pb_tpcc_other_warehouse(d, in->w_id);
					in->all_local &= in->supply_w[i] == in->w_id;
					in->quantity[i] = (int) pb_tpcc_random(&d->prng, 1, 10);
				}
				break;
			}
		case PB_TPCC_PAYMENT:
			in->d_id = (int) pb_tpcc_random(&d->prng, 1, PB_TPCC_DISTRICTS);
			if (pb_tpcc_random(&d->prng, 1, 100) <= 85)
			{
				in->c_w_id = in->w_id;
				in->c_d_id = in->d_id;
			}
			else
			{
				in->c_w_id = pb_tpcc_other_warehouse(d, in->w_id);
				in->c_d_id = (int) pb_tpcc_random(&d->prng, 1, PB_TPCC_DISTRICTS);
			}
			pb_tpcc_customer(d, in);
			in->cents = (int) pb_tpcc_random(&d->prng, 100, 500000);
			break;
		case PB_TPCC_ORDER_STATUS:
			in->d_id = (int) pb_tpcc_random(&d->prng, 1, PB_TPCC_DISTRICTS);
			pb_tpcc_customer(d, in);
			break;
		case PB_TPCC_DELIVERY:
			in->carrier = (int) pb_tpcc_random(&d->prng, 1, 10);
			break;
		case PB_TPCC_STOCK_LEVEL:
			in->d_id = t->d_id;
			in->threshold = (int) pb_tpcc_random(&d->prng, 10, 20);
			break;
	}
}

/* ---- the transactions --------------------------------------------------- */

/*
 * pb_tpcc_new_order
 *		New-Order (2.4.2).  Returns false when the order is rolled back for
 *		its unused item, as 2.4.2.3 asks.
 */
static bool
pb_tpcc_new_order(PbTpccDriver *d, const PbTpccInput *in, PbTxnCounts *counts)
{
	Datum		v[9];
	int			o_id;
	int			remote = 0;

	v[0] = Int32GetDatum(in->w_id);
	pb_tpcc_exec(d, counts, NO_WAREHOUSE, v);
	v[1] = Int32GetDatum(in->d_id);
	if (pb_tpcc_exec(d, counts, NO_DISTRICT, v) != 1)
		ereport(ERROR,
				(errcode(ERRCODE_NO_DATA_FOUND),
				 errmsg("TPC-C district %d of warehouse %d not found", in->d_id, in->w_id)));
	o_id = (int) pb_tpcc_int(0, 2);
	v[2] = Int32GetDatum(in->c_id);
	pb_tpcc_exec(d, counts, NO_CUSTOMER, v);

	v[0] = Int32GetDatum(o_id);
	v[1] = Int32GetDatum(in->d_id);
	v[2] = Int32GetDatum(in->w_id);
	v[3] = Int32GetDatum(in->c_id);
	v[4] = Int32GetDatum(in->ol_cnt);
	v[5] = Int32GetDatum(in->all_local ? 1 : 0);
	pb_tpcc_exec(d, counts, NO_ORDER, v);
	pb_tpcc_exec(d, counts, NO_NEW_ORDER, v);

	for (int i = 0; i < in->ol_cnt; i++)
	{
		Datum		price;
		Datum		dist;

		remote += in->supply_w[i] != in->w_id;
		v[0] = Int32GetDatum(in->item[i]);
		if (pb_tpcc_exec(d, counts, NO_ITEM, v) == 0)
		{
			pg_atomic_fetch_add_u64(&d->shared->order_lines, i + 1);
			pg_atomic_fetch_add_u64(&d->shared->remote_lines, remote);
			return false;		/* "Item number is not valid" */
		}
		price = pb_tpcc_value_nn(0, 1);

		v[0] = Int32GetDatum(in->item[i]);
		v[1] = Int32GetDatum(in->supply_w[i]);
		v[2] = Int32GetDatum(in->quantity[i]);
		v[3] = Int32GetDatum(in->supply_w[i] != in->w_id ? 1 : 0);
		v[4] = Int32GetDatum(in->d_id);
		/* the item's price outlives the next statement's result */
		price = datumCopy(price, false, -1);
		if (pb_tpcc_exec(d, counts, NO_STOCK, v) != 1)
			ereport(ERROR,
					(errcode(ERRCODE_NO_DATA_FOUND),
					 errmsg("TPC-C stock of item %d in warehouse %d not found",
							in->item[i], in->supply_w[i])));
		dist = datumCopy(pb_tpcc_value_nn(0, 2), false, -1);

		v[0] = Int32GetDatum(o_id);
		v[1] = Int32GetDatum(in->d_id);
		v[2] = Int32GetDatum(in->w_id);
		v[3] = Int32GetDatum(i + 1);
		v[4] = Int32GetDatum(in->item[i]);
		v[5] = Int32GetDatum(in->supply_w[i]);
		v[6] = Int32GetDatum(in->quantity[i]);
		v[7] = price;
		v[8] = dist;
		pb_tpcc_exec(d, counts, NO_ORDER_LINE, v);
	}
	pg_atomic_fetch_add_u64(&d->shared->order_lines, in->ol_cnt);
	pg_atomic_fetch_add_u64(&d->shared->remote_lines, remote);
	return true;
}

/*
 * pb_tpcc_by_name
 *		The customer found by last name in the statement's result (c_id in
 *		its first column): the row at ceil(n / 2) of the n in c_first order
 *		(2.5.2.2, 2.6.2.2).  Returns its row.
 */
static uint64
pb_tpcc_by_name(const PbTpccInput *in, int w_id, int d_id)
{
	uint64		n = SPI_processed;

	if (n == 0)
		ereport(ERROR,
				(errcode(ERRCODE_NO_DATA_FOUND),
				 errmsg("TPC-C has no customer named \"%s\" in district %d of warehouse %d",
						in->c_last, d_id, w_id),
				 errhint("Every district has a customer of each of the 1000 last names; load the tables with polarbench_init('tpcc').")));
	return (n + 1) / 2 - 1;
}

/*
 * pb_tpcc_payment
 *		Payment (2.5.2).
 */
static void
pb_tpcc_payment(PbTpccDriver *d, const PbTpccInput *in, PbTxnCounts *counts)
{
	Datum		v[7];
	Datum		amount = pb_tpcc_money(in->cents);
	char	   *w_name;
	char	   *d_name;
	int			c_id = in->c_id;

	v[0] = Int32GetDatum(in->w_id);
	v[1] = amount;
	if (pb_tpcc_exec(d, counts, PAY_WAREHOUSE, v) != 1)
		ereport(ERROR,
				(errcode(ERRCODE_NO_DATA_FOUND),
				 errmsg("TPC-C warehouse %d not found", in->w_id)));
	w_name = TextDatumGetCString(pb_tpcc_value_nn(0, 1));
	v[1] = Int32GetDatum(in->d_id);
	v[2] = amount;
	pb_tpcc_exec(d, counts, PAY_DISTRICT, v);
	d_name = SPI_processed == 1 ? TextDatumGetCString(pb_tpcc_value_nn(0, 1)) : "";

	if (c_id == 0)
	{
		v[0] = Int32GetDatum(in->c_w_id);
		v[1] = Int32GetDatum(in->c_d_id);
		v[2] = CStringGetTextDatum(in->c_last);
		pb_tpcc_exec(d, counts, PAY_CUSTOMER_BY_NAME, v);
		c_id = (int) pb_tpcc_int(pb_tpcc_by_name(in, in->c_w_id, in->c_d_id), 1);
	}
	v[0] = Int32GetDatum(in->c_w_id);
	v[1] = Int32GetDatum(in->c_d_id);
	v[2] = Int32GetDatum(c_id);
	v[3] = amount;
	/* what a bad-credit customer's c_data gets at its left (2.5.2.2) */
	v[4] = CStringGetTextDatum(psprintf("%d %d %d %d %d %d.%02d ", c_id, in->c_d_id,
										in->c_w_id, in->d_id, in->w_id,
										in->cents / 100, in->cents % 100));
	if (pb_tpcc_exec(d, counts, PAY_CUSTOMER, v) != 1)
		ereport(ERROR,
				(errcode(ERRCODE_NO_DATA_FOUND),
				 errmsg("TPC-C customer %d of district %d of warehouse %d not found",
						c_id, in->c_d_id, in->c_w_id)));

	v[0] = Int32GetDatum(c_id);
	v[1] = Int32GetDatum(in->c_d_id);
	v[2] = Int32GetDatum(in->c_w_id);
	v[3] = Int32GetDatum(in->d_id);
	v[4] = Int32GetDatum(in->w_id);
	v[5] = amount;
	v[6] = CStringGetTextDatum(psprintf("%.10s    %.10s", w_name, d_name));
	pb_tpcc_exec(d, counts, PAY_HISTORY, v);

	pg_atomic_fetch_add_u64(&d->shared->payments, 1);
	pg_atomic_fetch_add_u64(&d->shared->remote_payments, in->c_w_id != in->w_id);
	pg_atomic_fetch_add_u64(&d->shared->by_name, in->c_id == 0);
	pg_atomic_fetch_add_u64(&d->shared->by_name_of, 1);
}

/*
 * pb_tpcc_order_status
 *		Order-Status (2.6.2).
 */
static void
pb_tpcc_order_status(PbTpccDriver *d, const PbTpccInput *in, PbTxnCounts *counts)
{
	Datum		v[3];
	int			c_id;

	v[0] = Int32GetDatum(in->w_id);
	v[1] = Int32GetDatum(in->d_id);
	if (in->c_id == 0)
	{
		v[2] = CStringGetTextDatum(in->c_last);
		pb_tpcc_exec(d, counts, OS_CUSTOMER_BY_NAME, v);
		c_id = (int) pb_tpcc_int(pb_tpcc_by_name(in, in->w_id, in->d_id), 1);
	}
	else
	{
		v[2] = Int32GetDatum(in->c_id);
		pb_tpcc_exec(d, counts, OS_CUSTOMER, v);
		c_id = in->c_id;
	}
	v[2] = Int32GetDatum(c_id);
	if (pb_tpcc_exec(d, counts, OS_ORDER, v) == 1)
	{
		v[2] = Int32GetDatum((int) pb_tpcc_int(0, 1));
		pb_tpcc_exec(d, counts, OS_ORDER_LINES, v);
	}
	pg_atomic_fetch_add_u64(&d->shared->by_name, in->c_id == 0);
	pg_atomic_fetch_add_u64(&d->shared->by_name_of, 1);
}

/*
 * pb_tpcc_delivery
 *		Delivery (2.7.4): every district of the warehouse, in one database
 *		transaction; a district without a new order is skipped.
 */
static void
pb_tpcc_delivery(PbTpccDriver *d, const PbTpccInput *in, PbTxnCounts *counts)
{
	int			skipped = 0;

	for (int d_id = 1; d_id <= PB_TPCC_DISTRICTS; d_id++)
	{
		Datum		v[4];
		int			o_id;
		int			c_id;
		bool		isnull;
		Datum		sum;

		v[0] = Int32GetDatum(in->w_id);
		v[1] = Int32GetDatum(d_id);
		if (pb_tpcc_exec(d, counts, DEL_NEW_ORDER, v) == 0)
		{
			skipped++;
			continue;
		}
		o_id = (int) pb_tpcc_int(0, 1);
		v[2] = Int32GetDatum(o_id);
		pb_tpcc_exec(d, counts, DEL_DELETE, v);
		v[3] = Int32GetDatum(in->carrier);
		if (pb_tpcc_exec(d, counts, DEL_ORDER, v) != 1)
			ereport(ERROR,
					(errcode(ERRCODE_NO_DATA_FOUND),
					 errmsg("TPC-C order %d of district %d of warehouse %d not found",
							o_id, d_id, in->w_id)));
		c_id = (int) pb_tpcc_int(0, 1);
		pb_tpcc_exec(d, counts, DEL_ORDER_LINES, v);
		sum = pb_tpcc_value(0, 1, &isnull);
		v[2] = Int32GetDatum(c_id);
		v[3] = isnull ? pb_tpcc_money(0) : datumCopy(sum, false, -1);
		pb_tpcc_exec(d, counts, DEL_CUSTOMER, v);
	}
	pg_atomic_fetch_add_u64(&d->shared->deliveries, PB_TPCC_DISTRICTS);
	pg_atomic_fetch_add_u64(&d->shared->skipped_deliveries, skipped);
}

/*
 * pb_tpcc_stock_level
 *		Stock-Level (2.8.2).
 */
static void
pb_tpcc_stock_level(PbTpccDriver *d, const PbTpccInput *in, PbTxnCounts *counts)
{
	Datum		v[4];

	v[0] = Int32GetDatum(in->w_id);
	v[1] = Int32GetDatum(in->d_id);
	if (pb_tpcc_exec(d, counts, SL_DISTRICT, v) != 1)
		ereport(ERROR,
				(errcode(ERRCODE_NO_DATA_FOUND),
				 errmsg("TPC-C district %d of warehouse %d not found", in->d_id, in->w_id)));
	v[2] = Int32GetDatum((int) pb_tpcc_int(0, 1));
	v[3] = Int32GetDatum(in->threshold);
	pb_tpcc_exec(d, counts, SL_STOCK, v);
}

/* ---- a client's loop ---------------------------------------------------- */

/*
 * pb_tpcc_schedule
 *		When the client's next transaction is due: with keying_think, the
 *		submission of the terminal due first, which runs next; else no
 *		sooner than now (0: the engine decides).  A transaction that
 *		failed for good (not tried again) ended its terminal's turn.
 */
static int64
pb_tpcc_schedule(PbDriverContext *ctx, int64 now)
{
	PbTpccDriver *d = ctx->state;
	int			first = 0;

	if (!d->started)
	{
		/* the terminals began keying when the run started */
		for (int i = 0; i < d->nterminals; i++)
			d->terminals[i].due_ns += ctx->run->start_ns;
		d->started = true;
	}
	if (d->in_flight)
	{
		pb_tpcc_terminal_advance(&d->terminals[d->current], &d->prng,
								 d->opts.keying_think, now);
		d->in_flight = false;
	}
	if (!d->opts.keying_think)
		return 0;
	for (int i = 1; i < d->nterminals; i++)
		if (d->terminals[i].due_ns < d->terminals[first].due_ns)
			first = i;
	d->current = first;
	return d->terminals[first].due_ns;
}

/*
 * pb_tpcc_transaction
 *		Run the current terminal's next transaction, in a database
 *		transaction of its own; a New-Order with an unused item rolls back.
 *		A retry of a failed one draws the same inputs, from the generator
 *		the engine put back.
 */
static bool
pb_tpcc_transaction(PbDriverContext *ctx, PbTxnCounts *counts)
{
	PbTpccDriver *d = ctx->state;
	PbTpccTerminal *t = &d->terminals[d->current];
	PbTpccInput *in = &d->in;
	int64		start;
	bool		committed = true;

	d->in_flight = true;
	pb_tpcc_inputs(d, t, in);
	ctx->current_command = in->type;
	start = pb_now_ns();
	pb_xact_begin_block(NIL);
	switch (in->type)
	{
		case PB_TPCC_NEW_ORDER:
			committed = pb_tpcc_new_order(d, in, counts);
			break;
		case PB_TPCC_PAYMENT:
			pb_tpcc_payment(d, in, counts);
			break;
		case PB_TPCC_ORDER_STATUS:
			pb_tpcc_order_status(d, in, counts);
			break;
		case PB_TPCC_DELIVERY:
			pb_tpcc_delivery(d, in, counts);
			break;
		case PB_TPCC_STOCK_LEVEL:
			pb_tpcc_stock_level(d, in, counts);
			break;
	}
	if (committed)
		pb_xact_commit();
	else
	{
		pb_xact_rollback();
		pb_counter_add(&ctx->stats[in->type].rollbacks, 1);
	}
	ctx->txn_end_ns = pb_now_ns();
	pb_command_done(&ctx->stats[in->type], ctx->txn_end_ns - start,
					pb_command_hist(ctx, in->type));
	ctx->current_command = -1;
	d->activity = NULL;
	pb_tpcc_terminal_advance(t, &d->prng, d->opts.keying_think, ctx->txn_end_ns);
	d->in_flight = false;
	return true;
}

/* Roll back what an error left open. */
static void
pb_tpcc_abort(PbDriverContext *ctx)
{
	PbTpccDriver *d = ctx->state;

	AbortCurrentTransaction();
	d->activity = NULL;
}

/* The transaction and statement an error came from. */
static char *
pb_tpcc_error_context(PbDriverContext *ctx)
{
	PbTpccDriver *d = ctx->state;

	if (ctx->current_command < 0)
		return NULL;
	return psprintf("TPC-C transaction %s%s%s", pb_tpcc_type_name(ctx->current_command),
					d->activity ? ", statement " : "", d->activity ? d->activity : "");
}

/*
 * pb_tpcc_setup
 *		The client's terminals, their decks and first cards, and every
 *		statement prepared.  Without keying_think the client is one
 *		terminal, at home in warehouse (client mod W) + 1; with it, the
 *		client serves every terminal t (0-based, W x terminals of them) with
 *		t mod clients = its number, terminal t at home in warehouse
 *		t / terminals + 1.  Stock-Level's district goes round 1..10 over
 *		the terminals of a warehouse.
 */
static void
pb_tpcc_setup(PbDriverContext *ctx)
{
	PbTpccDriver *d = MemoryContextAllocZero(TopMemoryContext, sizeof(PbTpccDriver));
	const PbTpccOptions *o = ctx->config->options;
	int			nclients = ctx->run->nclients;
	int			pct[PB_TPCC_NTYPES];
	int64		now = 0;		/* from the run's start (pb_tpcc_schedule) */

	ctx->state = d;
	d->opts = *o;
	d->shared = ctx->shared;
	pb_prng_seed(&d->prng, ctx->seed);
	ctx->draws[0] = &d->prng;
	ctx->ndraws = 1;
	pct[PB_TPCC_PAYMENT] = o->payment;
	pct[PB_TPCC_ORDER_STATUS] = o->order_status;
	pct[PB_TPCC_DELIVERY] = o->delivery;
	pct[PB_TPCC_STOCK_LEVEL] = o->stock_level;
	pct[PB_TPCC_NEW_ORDER] = PB_TPCC_DECK_CARDS - o->payment - o->order_status -
		o->delivery - o->stock_level;

	if (o->keying_think)
	{
		int64		all = (int64) o->warehouses * o->terminals;

		d->nterminals = (int) ((all - ctx->client_no + nclients - 1) / nclients);
	}
	else
		d->nterminals = 1;
	d->terminals = MemoryContextAllocZero(TopMemoryContext,
										  sizeof(PbTpccTerminal) * Max(d->nterminals, 1));
	for (int i = 0; i < d->nterminals; i++)
	{
		PbTpccTerminal *t = &d->terminals[i];
		int64		global = o->keying_think ? (int64) i * nclients + ctx->client_no : ctx->client_no;
		int			per_w = o->keying_think ? o->terminals : 1;

		if (o->keying_think)
			pb_tpcc_terminal_init(t, (int) (global / per_w) + 1,
								  (int) (global % per_w) % PB_TPCC_DISTRICTS + 1,
								  pct, &d->prng, true, now);
		else
			pb_tpcc_terminal_init(t, (int) (global % o->warehouses) + 1,
								  (int) (global / o->warehouses) % PB_TPCC_DISTRICTS + 1,
								  pct, &d->prng, false, now);
	}

	pb_xact_begin(NIL);
	pgstat_report_activity(STATE_RUNNING, "polarbench: preparing");
	pb_tpcc_prepare(d, TopMemoryContext, true);
	pb_xact_commit();
	pgstat_report_activity(STATE_IDLE, NULL);
}

/* ---- the caller's side -------------------------------------------------- */

/*
 * pb_tpcc_commands
 *		The five transaction types, polarbench_operations' rows.
 */
static int
pb_tpcc_commands(const PbRunConfig *config, PbCommandDesc **descs)
{
	*descs = palloc0(sizeof(PbCommandDesc) * PB_TPCC_NTYPES);
	for (int t = 0; t < PB_TPCC_NTYPES; t++)
	{
		(*descs)[t].script_no = 1;
		(*descs)[t].command_no = t + 1;
		(*descs)[t].text = pb_tpcc_type_name(t);
	}
	return PB_TPCC_NTYPES;
}

/* A single value of a query the caller runs, and whether it is null */
static Datum
pb_tpcc_caller_value(const char *sql, int nargs, Oid *types, Datum *values,
					 bool *isnull)
{
	if (SPI_execute_with_args(sql, nargs, types, values, NULL, true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not run \"%s\"", sql);
	return SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, isnull);
}

/*
 * pb_tpcc_check_table
 *		A table of the workload: it exists where the caller's search path
 *		finds it, the caller may do to it what the transactions do, and it
 *		has the indexes they need.  Returns its OID.
 */
static Oid
pb_tpcc_check_table(const PbTpccTable *t)
{
	Oid			types[2] = {TEXTOID, TEXTOID};
	Datum		values[2];
	bool		isnull;
	Oid			relid;
	const char *keys[2] = {t->key, t->second_key};
	static const struct
	{
		const char *name;
		AclMode		mode;
	}			privileges[] = {
		{"SELECT", ACL_SELECT}, {"INSERT", ACL_INSERT},
		{"UPDATE", ACL_UPDATE}, {"DELETE", ACL_DELETE}
	};

	values[0] = CStringGetTextDatum(t->name);
	relid = DatumGetObjectId(pb_tpcc_caller_value("SELECT pg_catalog.to_regclass($1)::pg_catalog.oid",
												  1, types, values, &isnull));
	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation \"%s\" does not exist", t->name),
				 errhint("Load TPC-C's tables first, as in SELECT polarbench_init('tpcc', warehouses => 2).")));
	for (int p = 0; p < lengthof(privileges); p++)
		if (strstr(t->privileges, privileges[p].name) != NULL &&
			pg_class_aclcheck(relid, GetUserId(), privileges[p].mode) != ACLCHECK_OK)
			aclcheck_error(ACLCHECK_NO_PRIV, OBJECT_TABLE, t->name);

	/* an index whose leading columns are the key's, in order */
	for (int k = 0; k < 2; k++)
	{
		Oid			ktypes[2] = {OIDOID, TEXTOID};
		Datum		kvalues[2];

		if (keys[k] == NULL)
			continue;
		kvalues[0] = ObjectIdGetDatum(relid);
		kvalues[1] = CStringGetTextDatum(keys[k]);
		if (!DatumGetBool(pb_tpcc_caller_value(
											   "SELECT pg_catalog.count(*) OPERATOR(pg_catalog.>) 0"
											   "  FROM pg_catalog.pg_index i"
											   " WHERE i.indrelid OPERATOR(pg_catalog.=) $1 AND i.indisvalid"
											   "   AND (SELECT pg_catalog.array_agg(a.attname::pg_catalog.text ORDER BY k.n)"
											   "          FROM pg_catalog.unnest(i.indkey::pg_catalog.int2[]) WITH ORDINALITY k(attnum, n)"
											   "          JOIN pg_catalog.pg_attribute a ON a.attrelid OPERATOR(pg_catalog.=) i.indrelid"
											   "                                      AND a.attnum OPERATOR(pg_catalog.=) k.attnum"
											   "         WHERE k.n OPERATOR(pg_catalog.<=) pg_catalog.cardinality(pg_catalog.string_to_array($2, ', ')))"
											   "       OPERATOR(pg_catalog.=) pg_catalog.string_to_array($2, ', ')",
											   2, ktypes, kvalues, &isnull)))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("table \"%s\" has no index on (%s)", t->name, keys[k]),
					 errdetail("TPC-C's transactions find their rows by it."),
					 errhint("Load the tables with polarbench_init('tpcc'), or CREATE INDEX ON %s (%s).",
							 t->name, keys[k])));
	}
	return relid;
}

/*
 * pb_tpcc_count_warehouses
 *		How many warehouses the table warehouse (relid) holds: it must hold
 *		exactly warehouses 1 to W, the ids the terminals and the remote
 *		lines are drawn from (a W of 0 would divide by zero, an id outside
 *		them be missed by every client).  Else an error naming what it holds.
 */
static int
pb_tpcc_count_warehouses(Oid relid)
{
	char	   *table = quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
												   get_rel_name(relid));
	SPITupleTable *t;
	bool		isnull;
	int64		rows;
	int64		distinct;
	int64		low;
	int64		high;

	if (SPI_execute(psprintf("SELECT pg_catalog.count(*), pg_catalog.count(DISTINCT w_id),"
							 "       pg_catalog.min(w_id)::pg_catalog.int8,"
							 "       pg_catalog.max(w_id)::pg_catalog.int8"
							 "  FROM %s", table),
					true, 1) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "could not count the warehouses of %s", table);
	t = SPI_tuptable;
	rows = DatumGetInt64(SPI_getbinval(t->vals[0], t->tupdesc, 1, &isnull));
	if (rows == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("table \"warehouse\" is empty"),
				 errhint("Load TPC-C's tables first, as in SELECT polarbench_init('tpcc', warehouses => 2).")));
	distinct = DatumGetInt64(SPI_getbinval(t->vals[0], t->tupdesc, 2, &isnull));
	low = DatumGetInt64(SPI_getbinval(t->vals[0], t->tupdesc, 3, &isnull));
	if (isnull)
		low = high = 0;
	else
		high = DatumGetInt64(SPI_getbinval(t->vals[0], t->tupdesc, 4, &isnull));
	if (low != 1 || high != rows || distinct != rows || high > PG_INT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 rows == 1 ?
				 errmsg("table \"warehouse\" does not hold warehouse 1") :
				 errmsg("table \"warehouse\" does not hold warehouses 1 to %lld", (long long) rows),
				 distinct == 0 ?
				 errdetail("Its rows have no w_id.") :
				 rows == 1 ?
				 errdetail("Its one row has w_id %lld.", (long long) low) :
				 errdetail("Its %lld rows have %lld distinct w_id from %lld to %lld.",
						   (long long) rows, (long long) distinct, (long long) low,
						   (long long) high),
				 errhint("TPC-C's transactions draw warehouses from 1 to their number: load the tables again with polarbench_init('tpcc', warehouses => %lld), or number the warehouses from 1.",
						 (long long) rows)));
	return (int) rows;
}

/*
 * pb_tpcc_resolve
 *		What the tables say: every table is there, with its indexes and the
 *		caller's privileges; the warehouses (1 to W, and W unless given);
 *		the C the load recorded in tpcc_load, if it did; and the district
 *		table, for the recorder's NOPM.  Then the run's constants C, from
 *		the run's seed.
 */
static void
pb_tpcc_resolve(PbTpccOptions *o, int64 seed)
{
	bool		isnull;
	Datum		v;
	int			found = 0;
	PbPrng		prng;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	for (int i = 0; i < lengthof(tpcc_tables); i++)
	{
		Oid			relid = pb_tpcc_check_table(&tpcc_tables[i]);

		if (strcmp(tpcc_tables[i].name, "district") == 0)
			o->district_relid = relid;
		if (strcmp(tpcc_tables[i].name, "warehouse") == 0)
			found = pb_tpcc_count_warehouses(relid);
	}
	if (!o->warehouses_given)
		o->warehouses = found;
	else if (o->warehouses > found)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the TPC-C tables have %d warehouses, not %d", found, o->warehouses),
				 errhint("Load more with polarbench_init('tpcc', warehouses => %d), or run with warehouses => %d.",
						 o->warehouses, found)));
	o->c_load = -1;
	v = pb_tpcc_caller_value("SELECT pg_catalog.to_regclass('tpcc_load') IS NOT NULL",
							 0, NULL, NULL, &isnull);
	if (DatumGetBool(v))
	{
		v = pb_tpcc_caller_value("SELECT (SELECT c_load FROM tpcc_load LIMIT 1)::pg_catalog.int4",
								 0, NULL, NULL, &isnull);
		if (!isnull)
			o->c_load = DatumGetInt32(v);
	}
	SPI_finish();

	pb_prng_seed(&prng, (uint64) seed ^ UINT64CONST(0x5443504343));	/* "TPCC" */
	pb_tpcc_constants(&prng, o->c_load, &o->c);
}

/* Prepare every statement as the caller. */
static void
pb_tpcc_check_in(void *arg)
{
	PbTpccDriver *d = arg;

	pb_tpcc_prepare(d, CurrentMemoryContext, false);
}

/*
 * pb_tpcc_configure
 *		The caller's side of a run: TPC-C's defaults, the options given, the
 *		tables and what they say, the run's constants; no scripts, and
 *		retries under max_tries.
 */
static void
pb_tpcc_configure(const PbWorkloadArgs *args, PbRunConfig *config,
				  PbRunParams *params, PbRunEstimate *estimate)
{
	PbTpccOptions *o;
	PbCommandDesc *descs;

	pb_refuse_script_args(args, params, NULL);
	o = pb_options_from_json(&pb_tpcc_library, args->def, args->options,
							 "{\"warehouses\": 4, \"keying_think\": true}", true);
	if (o->keying_think && params->rate > 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("rate cannot be used with keying_think"),
				 errhint("With keying and think times, the terminals set the pace: %d per warehouse.",
						 o->terminals)));
	pb_tpcc_resolve(o, config->random_seed);
	config->options = o;
	config->options_size = sizeof(PbTpccOptions);
	params->ncommands = pb_tpcc_commands(config, &descs);
	estimate->nplans = TPCC_NSTATEMENTS;
	estimate->text_bytes = o->keying_think ?
		(double) sizeof(PbTpccTerminal) * o->warehouses * o->terminals / Max(params->nclients, 1) : 0;
}

/* Prepare the statements as the caller, in a subtransaction rolled back. */
static void
pb_tpcc_check(const PbRunConfig *config, const PbRunParams *params)
{
	PbTpccDriver d;

	memset(&d, 0, sizeof(d));
	d.opts = *(const PbTpccOptions *) config->options;
	pb_in_rolled_back_subxact(pb_tpcc_check_in, NULL, &d);
}

/* TPC-C writes: every transaction but two. */
static bool
pb_tpcc_writes(const PbRunConfig *config)
{
	return true;
}

/* The options of a stored run, read as a run would read them. */
static void
pb_tpcc_check_options(const PbWorkloadDef *def, Jsonb *options)
{
	(void) pb_options_from_json(&pb_tpcc_library, def, options, "{\"warehouses\": 4}", true);
}

/* The clients' shared counters. */
static Size
pb_tpcc_shared_size(const PbRunConfig *config, const PbRunParams *params)
{
	return sizeof(PbTpccShared);
}

/* They start at 0. */
static void
pb_tpcc_shared_init(void *shared, const PbRunConfig *config,
					 const PbRunParams *params)
{
	PbTpccShared *s = shared;

	pg_atomic_init_u64(&s->order_lines, 0);
	pg_atomic_init_u64(&s->remote_lines, 0);
	pg_atomic_init_u64(&s->payments, 0);
	pg_atomic_init_u64(&s->remote_payments, 0);
	pg_atomic_init_u64(&s->by_name, 0);
	pg_atomic_init_u64(&s->by_name_of, 0);
	pg_atomic_init_u64(&s->deliveries, 0);
	pg_atomic_init_u64(&s->skipped_deliveries, 0);
}

/* ---- the recorder's side ------------------------------------------------ */

/* The percentile of TPC-C's response time limits (5.2.5.3): the 90th. */
static int
pb_tpcc_percentile(const PbRunConfig *config)
{
	return 90;
}

/*
 * pb_tpcc_progress_line
 *		An interval: the time, tpmC (New-Orders per minute), all
 *		transactions per minute, the mix, the 90th percentile of the
 *		response times, and failures per second.
 */
static void
pb_tpcc_progress_line(char *buf, size_t len, const PbProgressTick *tick)
{
	const PbRunSummary *interval = tick->interval;
	double		s = interval->seconds > 0 ? interval->seconds : 1;
	uint64		all = 0;
	size_t		n;

	for (int t = 0; t < PB_TPCC_NTYPES; t++)
		all += tick->command_counts[t];
	n = snprintf(buf, len, "[ %.0fs ] tpmC: %.0f tpm: %.0f mix (NO/P/OS/D/SL):",
				 tick->elapsed, tick->command_counts[PB_TPCC_NEW_ORDER] * 60.0 / s,
				 all * 60.0 / s);
	for (int t = 0; t < PB_TPCC_NTYPES && n < len; t++)
		n += snprintf(buf + n, len - n, "%s%.1f", t > 0 ? "/" : " ",
					  all > 0 ? 100.0 * tick->command_counts[t] / all : 0.0);
	if (n < len)
		snprintf(buf + n, len - n, "%% lat (ms,%d%%): %.2f failed/s: %.2f",
				 interval->pct, interval->latency_pct, interval->failed / s);
}

/*
 * The figures the recorder reads of the database: sum(d_next_o_id) at the
 * measurement's start
 */
typedef struct PbTpccFigures
{
	bool		read;
	double		next_o_ids;
} PbTpccFigures;

/* sum(d_next_o_id) of the district table, as the run's role */
static double
pb_tpcc_next_o_ids(const PbTpccOptions *o)
{
	char	   *name = get_rel_name(o->district_relid);
	char	   *nsp = get_namespace_name(get_rel_namespace(o->district_relid));
	bool		isnull;
	Datum		v;

	if (name == NULL || nsp == NULL)
		return NAN;				/* dropped meanwhile */
	v = pb_tpcc_caller_value(psprintf("SELECT pg_catalog.sum(d_next_o_id)::pg_catalog.float8 FROM %s",
									  quote_qualified_identifier(nsp, name)),
							 0, NULL, NULL, &isnull);
	return isnull ? NAN : DatumGetFloat8(v);
}

/*
 * pb_tpcc_figures
 *		At the measurement's start (in NULL): read sum(d_next_o_id).  At the
 *		end: the run's TPC-C figures as a JSON object: tpmC from the
 *		New-Orders counted (rolled back ones included), NOPM from the change
 *		of sum(d_next_o_id) (committed New-Orders, as HammerDB), the
 *		efficiency against 12.86 tpmC per warehouse, the constants, and the
 *		shares of the inputs as drawn.
 */
static char *
pb_tpcc_figures(const PbRunConfig *config, void *shared, void **state,
				const PbFiguresInput *in)
{
	const PbTpccOptions *o = config->options;
	PbTpccFigures *f = *state;
	PbTpccShared *s = shared;
	StringInfoData json;
	double		minutes;
	double		tpmc;
	double		nopm = NAN;
	uint64		by_name_of;

	if (f == NULL)
		*state = f = MemoryContextAllocZero(TopMemoryContext, sizeof(PbTpccFigures));
	if (in == NULL)
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		f->next_o_ids = pb_tpcc_next_o_ids(o);
		f->read = !isnan(f->next_o_ids);
		SPI_finish();
		return NULL;
	}
	minutes = in->seconds / 60;
	tpmc = minutes > 0 ? in->executions[PB_TPCC_NEW_ORDER] / minutes : 0;
	if (f->read && minutes > 0)
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		nopm = (pb_tpcc_next_o_ids(o) - f->next_o_ids) / minutes;
		SPI_finish();
	}
	by_name_of = pg_atomic_read_u64(&s->by_name_of);
	initStringInfo(&json);
	appendStringInfo(&json, "{\"tpcc\": {\"tpmc\": %.3f, \"nopm\": ", tpmc);
	if (isnan(nopm))
		appendStringInfoString(&json, "null");
	else
		appendStringInfo(&json, "%.3f", nopm);
	appendStringInfo(&json, ", \"efficiency\": %.4f, \"warehouses\": %d, \"keying_think\": %s",
					 100.0 * tpmc / (PB_TPCC_MAX_TPMC_PER_W * o->warehouses),
					 o->warehouses, o->keying_think ? "true" : "false");
	appendStringInfo(&json, ", \"c_load\": %s, \"c_run\": {\"c_last\": %d, \"c_id\": %d, \"ol_i_id\": %d}",
					 o->c_load >= 0 ? psprintf("%d", o->c_load) : "null",
					 o->c.c_last, o->c.c_id, o->c.ol_i_id);
	appendStringInfo(&json, ", \"order_lines\": " UINT64_FORMAT ", \"remote_order_lines\": " UINT64_FORMAT
					 ", \"payments\": " UINT64_FORMAT ", \"remote_payments\": " UINT64_FORMAT
					 ", \"by_last_name\": " UINT64_FORMAT ", \"by_last_name_of\": " UINT64_FORMAT
					 ", \"delivery_districts\": " UINT64_FORMAT ", \"skipped_deliveries\": " UINT64_FORMAT "}}",
					 pg_atomic_read_u64(&s->order_lines), pg_atomic_read_u64(&s->remote_lines),
					 pg_atomic_read_u64(&s->payments), pg_atomic_read_u64(&s->remote_payments),
					 pg_atomic_read_u64(&s->by_name), by_name_of,
					 pg_atomic_read_u64(&s->deliveries), pg_atomic_read_u64(&s->skipped_deliveries));
	return json.data;
}

/*
 * pb_tpcc_report
 *		The summary HammerDB and BenchBase users read: tpmC, NOPM and the
 *		efficiency, then the mix as run and each type's count, rollbacks,
 *		retries, failures and response time percentiles.
 */
static void
pb_tpcc_report(StringInfo out, PbRow *run, int64 run_id,
			   const PbReportOptions *options)
{
	SPITupleTable *t;
	uint64		n;
	int64		all = 0;
	PbRow		f;
	char	   *tpmc = NULL;
	char	   *nopm = NULL;
	char	   *efficiency = NULL;
	char	   *warehouses = NULL;
	char	   *keying = NULL;

	/* by to_jsonb(), so that tables older than 1.4, without figures, work */
	t = pb_report_query("SELECT round((f->>'tpmc')::numeric, 1) AS tpmc,"
						"       round((f->>'nopm')::numeric, 1) AS nopm,"
						"       round((f->>'efficiency')::numeric, 2) AS efficiency,"
						"       f->>'warehouses' AS warehouses, f->>'keying_think' AS keying"
						"  FROM (SELECT to_jsonb(r)->'figures'->'tpcc' AS f FROM @runs@ r"
						"         WHERE run_id = $1) t", run_id, &n);
	if (n == 1)
	{
		f.tuptable = t;
		f.row = 0;
		tpmc = pb_row_text_opt(&f, "tpmc");
		nopm = pb_row_text_opt(&f, "nopm");
		efficiency = pb_row_text_opt(&f, "efficiency");
		warehouses = pb_row_text_opt(&f, "warehouses");
		keying = pb_row_text_opt(&f, "keying");
	}

	appendStringInfo(out, "TPC-C run " INT64_FORMAT ": %s warehouses, %s clients, %.1f s measured\n",
					 run_id, warehouses ? warehouses : "?", pb_row_text(run, "clients"),
					 pb_row_num(run, "seconds"));
	appendStringInfo(out, "tpmC: %s (New-Orders per minute, rolled back ones included)\n",
					 tpmc ? tpmc : "?");
	appendStringInfo(out, "NOPM: %s (new orders committed per minute, from sum(d_next_o_id), as HammerDB)\n",
					 nopm ? nopm : "?");
	appendStringInfo(out, "efficiency: %s%% of %.2f tpmC per warehouse%s\n",
					 efficiency ? efficiency : "?", PB_TPCC_MAX_TPMC_PER_W,
					 keying && strcmp(keying, "true") == 0 ? "" :
					 " (without keying and think times, as every kit by default: not the specification's measure)");
	if (pb_row_int_opt(run, "cut_off") > 0)
		appendStringInfo(out, "cut off at the end: " INT64_FORMAT " (transactions still in flight after the grace: rolled back, not counted)\n",
						 pb_row_int_opt(run, "cut_off"));
	t = pb_report_query("SELECT operation, operations, errors,"
						"       coalesce((to_jsonb(o)->>'rollbacks')::bigint, 0) AS rollbacks,"
						"       coalesce((to_jsonb(o)->>'retries')::bigint, 0) AS retries,"
						"       latency_avg, latency_p50, latency_p90, latency_p95,"
						"       latency_p99, latency_p999, latency_max"
						"  FROM @operations@ o WHERE run_id = $1"
						" ORDER BY array_position(ARRAY['NEW_ORDER', 'PAYMENT', 'ORDER_STATUS',"
						"                               'DELIVERY', 'STOCK_LEVEL'], operation)",
						run_id, &n);
	for (uint64 i = 0; i < n; i++)
	{
		PbRow		row = {t, i};

		all += pb_row_int(&row, "operations");
	}
	appendStringInfoString(out, "\ntransaction      mix %     count  rollbacks  retries  failed"
						   "   avg ms   p50 ms   p90 ms   p95 ms   p99 ms p99.9 ms   max ms\n");
	for (uint64 i = 0; i < n; i++)
	{
		PbRow		row = {t, i};
		int64		count = pb_row_int(&row, "operations");

		appendStringInfo(out, "%-14s %6.2f %9" INT64_MODIFIER "d %10" INT64_MODIFIER "d %8" INT64_MODIFIER "d %7" INT64_MODIFIER "d"
						 " %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f\n",
						 pb_row_text(&row, "operation"),
						 all > 0 ? 100.0 * count / all : 0.0, count,
						 pb_row_int(&row, "rollbacks"), pb_row_int(&row, "retries"),
						 pb_row_int(&row, "errors"),
						 pb_row_num(&row, "latency_avg"), pb_row_num(&row, "latency_p50"),
						 pb_row_num(&row, "latency_p90"), pb_row_num(&row, "latency_p95"),
						 pb_row_num(&row, "latency_p99"), pb_row_num(&row, "latency_p999"),
						 pb_row_num(&row, "latency_max"));
	}
}

/* Its one workload, from its library's. */
static bool
pb_tpcc_workload_at(int i, PbWorkloadEntry *entry)
{
	return pb_library_workload_at(&pb_tpcc_library, pb_tpcc_writes, i, entry);
}

/*
 * pb_tpcc_dataset
 *		The data set a run works on: TPC-C's nine tables and tpcc_load, of
 *		the run's warehouses.
 */
static char *
pb_tpcc_dataset(const PbRunConfig *config)
{
	const PbTpccOptions *o = config->options;

	return psprintf("{\"dataset\": \"tpcc\", \"warehouses\": %d, \"table_names\": ["
					"\"customer\", \"district\", \"history\", \"item\", \"new_order\","
					" \"order_line\", \"orders\", \"stock\", \"tpcc_load\", \"warehouse\"]}",
					o->warehouses);
}

static const PbDriver tpcc_driver = {
	.report_style = "tpcc",
	.rows = PB_ROWS_OPERATIONS,
	.record_unused = true,
	.progress_by_command = true,
	.default_transactions = 0,
	.default_duration = 60,
	.configure = pb_tpcc_configure,
	.check = pb_tpcc_check,
	.writes = pb_tpcc_writes,
	.check_options = pb_tpcc_check_options,
	.shared_size = pb_tpcc_shared_size,
	.shared_init = pb_tpcc_shared_init,
	.setup = pb_tpcc_setup,
	.transaction = pb_tpcc_transaction,
	.abort = pb_tpcc_abort,
	.error_context = pb_tpcc_error_context,
	.schedule = pb_tpcc_schedule,
	.workload_at = pb_tpcc_workload_at,
	.commands = pb_tpcc_commands,
	.percentile = pb_tpcc_percentile,
	.progress_line = pb_tpcc_progress_line,
	.report = pb_tpcc_report,
	.figures = pb_tpcc_figures,
	.dataset = pb_tpcc_dataset,
};

/* The data sets of the kind (tpcc_dataset.c) */
extern const struct PbDataset pb_dataset_tpcc;
static const struct PbDataset *const tpcc_datasets[] = {&pb_dataset_tpcc, NULL};

/* The kind's descriptor, its row in the registry */
const PbKind pb_kind_tpcc = {
	.library = &pb_tpcc_library,
	.driver = &tpcc_driver,
	.datasets = tpcc_datasets,
};
