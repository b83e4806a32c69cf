/*-------------------------------------------------------------------------
 *
 * tpcc_check.c
 *	  polarbench_tpcc_check(): TPC-C's consistency conditions (clause
 *	  3.3.2.1 to 3.3.2.12) checked on the TPC-C tables of the caller, after
 *	  a load or after any run, by polarbench or by any other tool.
 *
 * Each condition is one query returning the rows that break it (a
 * warehouse, a district, an order, an order line or a customer), with the
 * figures that disagree; polarbench_tpcc_check() returns one row per
 * condition: its number, its statement, how many rows break it and the
 * first five of them as JSON.  Conditions 10 and 12 count a customer with
 * no delivered order line as having delivered 0.00 (a correlated sum would
 * be NULL, and the customer silently skipped), and every customer is
 * checked, not a sample.  Condition 11 holds after a load, and stays true
 * only until the first Delivery: each delivered order leaves NEW-ORDER
 * and stays in ORDER.
 *
 * The tables are those the caller's search_path finds, resolved before
 * the queries run; the queries then run as the caller, read-only, with a
 * search_path of pg_catalog only and the tables named with their schemas
 * (safe_sql.c), so that no function or operator of the caller's schemas
 * takes part.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/objectaddress.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "safe_sql.h"

PG_FUNCTION_INFO_V1(polarbench_tpcc_check);

/* The tables the conditions read, written @name@ in their queries */
static const char *const tpcc_check_tables[] = {
	"warehouse", "district", "customer", "history", "orders", "new_order",
	"order_line"
};

/* One consistency condition: its number, statement and offending rows */
typedef struct TpccCondition
{
	int			number;
	const char *statement;
	const char *sql;
} TpccCondition;

static const TpccCondition tpcc_conditions[] = {
	{1, "W_YTD = sum(D_YTD) of its districts, for each warehouse",
		"select w.w_id, w.w_ytd, d.sum_d_ytd"
		"  from @warehouse@ w"
		"  left join (select d_w_id, sum(d_ytd) as sum_d_ytd from @district@ group by 1) d"
		"    on d.d_w_id = w.w_id"
		" where w.w_ytd is distinct from coalesce(d.sum_d_ytd, 0)"
	" order by 1"},
	{2, "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) of its orders and new orders, for each district",
		"select d.d_w_id, d.d_id, d.d_next_o_id, o.max_o_id, n.max_no_o_id"
		"  from @district@ d"
		"  left join (select o_w_id, o_d_id, max(o_id) as max_o_id from @orders@ group by 1, 2) o"
		"    on o.o_w_id = d.d_w_id and o.o_d_id = d.d_id"
		"  left join (select no_w_id, no_d_id, max(no_o_id) as max_no_o_id from @new_order@ group by 1, 2) n"
		"    on n.no_w_id = d.d_w_id and n.no_d_id = d.d_id"
		" where d.d_next_o_id - 1 is distinct from coalesce(o.max_o_id, 0)"
		"    or n.max_no_o_id <> d.d_next_o_id - 1"
	" order by 1, 2"},
	{3, "max(NO_O_ID) - min(NO_O_ID) + 1 = the number of its new orders, for each district",
		"select no_w_id, no_d_id, min(no_o_id) as min_no_o_id,"
		"       max(no_o_id) as max_no_o_id, count(*) as new_orders"
		"  from @new_order@ group by 1, 2"
		" having max(no_o_id) - min(no_o_id) + 1 <> count(*)"
	" order by 1, 2"},
	{4, "sum(O_OL_CNT) of its orders = the number of its order lines, for each district",
		"select coalesce(o.o_w_id, l.ol_w_id) as w_id, coalesce(o.o_d_id, l.ol_d_id) as d_id,"
		"       coalesce(o.sum_o_ol_cnt, 0) as sum_o_ol_cnt, coalesce(l.order_lines, 0) as order_lines"
		"  from (select o_w_id, o_d_id, sum(o_ol_cnt) as sum_o_ol_cnt from @orders@ group by 1, 2) o"
		"  full join (select ol_w_id, ol_d_id, count(*) as order_lines from @order_line@ group by 1, 2) l"
		"    on l.ol_w_id = o.o_w_id and l.ol_d_id = o.o_d_id"
		" where coalesce(o.sum_o_ol_cnt, 0) <> coalesce(l.order_lines, 0)"
	" order by 1, 2"},
	{5, "O_CARRIER_ID is null if and only if the order is in NEW-ORDER, for each order",
		"select o.o_w_id, o.o_d_id, o.o_id, o.o_carrier_id, n.no_o_id is not null as new_order"
		"  from @orders@ o"
		"  left join @new_order@ n"
		"    on n.no_w_id = o.o_w_id and n.no_d_id = o.o_d_id and n.no_o_id = o.o_id"
		" where (o.o_carrier_id is null) = (n.no_o_id is null)"
	" order by 1, 2, 3"},
	{6, "O_OL_CNT = the number of its order lines, for each order",
		"select o.o_w_id, o.o_d_id, o.o_id, o.o_ol_cnt, coalesce(l.order_lines, 0) as order_lines"
		"  from @orders@ o"
		"  left join (select ol_w_id, ol_d_id, ol_o_id, count(*) as order_lines"
		"               from @order_line@ group by 1, 2, 3) l"
		"    on l.ol_w_id = o.o_w_id and l.ol_d_id = o.o_d_id and l.ol_o_id = o.o_id"
		" where o.o_ol_cnt is distinct from coalesce(l.order_lines, 0)"
	" order by 1, 2, 3"},
	{7, "OL_DELIVERY_D is null if and only if its order's O_CARRIER_ID is null, for each order line",
		"select l.ol_w_id, l.ol_d_id, l.ol_o_id, l.ol_number, l.ol_delivery_d, o.o_carrier_id"
		"  from @order_line@ l"
		"  join @orders@ o on o.o_w_id = l.ol_w_id and o.o_d_id = l.ol_d_id and o.o_id = l.ol_o_id"
		" where (l.ol_delivery_d is null) <> (o.o_carrier_id is null)"
	" order by 1, 2, 3, 4"},
	{8, "W_YTD = sum(H_AMOUNT) of its history rows, for each warehouse",
		"select w.w_id, w.w_ytd, coalesce(h.sum_h_amount, 0) as sum_h_amount"
		"  from @warehouse@ w"
		"  left join (select h_w_id, sum(h_amount) as sum_h_amount from @history@ group by 1) h"
		"    on h.h_w_id = w.w_id"
		" where w.w_ytd is distinct from coalesce(h.sum_h_amount, 0)"
	" order by 1"},
	{9, "D_YTD = sum(H_AMOUNT) of its history rows, for each district",
		"select d.d_w_id, d.d_id, d.d_ytd, coalesce(h.sum_h_amount, 0) as sum_h_amount"
		"  from @district@ d"
		"  left join (select h_w_id, h_d_id, sum(h_amount) as sum_h_amount from @history@ group by 1, 2) h"
		"    on h.h_w_id = d.d_w_id and h.h_d_id = d.d_id"
		" where d.d_ytd is distinct from coalesce(h.sum_h_amount, 0)"
	" order by 1, 2"},
	{10, "C_BALANCE = sum(OL_AMOUNT) of its delivered order lines - sum(H_AMOUNT) of its history rows, for each customer",
		"select c.c_w_id, c.c_d_id, c.c_id, c.c_balance,"
		"       coalesce(dl.delivered, 0) as delivered, coalesce(h.paid, 0) as paid"
		"  from @customer@ c"
		"  left join (select o.o_w_id, o.o_d_id, o.o_c_id, sum(ol.ol_amount) as delivered"
		"               from @orders@ o"
		"               join @order_line@ ol"
		"                 on ol.ol_w_id = o.o_w_id and ol.ol_d_id = o.o_d_id and ol.ol_o_id = o.o_id"
		"              where ol.ol_delivery_d is not null group by 1, 2, 3) dl"
		"    on dl.o_w_id = c.c_w_id and dl.o_d_id = c.c_d_id and dl.o_c_id = c.c_id"
		"  left join (select h_c_w_id, h_c_d_id, h_c_id, sum(h_amount) as paid"
		"               from @history@ group by 1, 2, 3) h"
		"    on h.h_c_w_id = c.c_w_id and h.h_c_d_id = c.c_d_id and h.h_c_id = c.c_id"
		" where c.c_balance is distinct from coalesce(dl.delivered, 0) - coalesce(h.paid, 0)"
	" order by 1, 2, 3"},
	{11, "count of its orders - count of its new orders = 2100, for each district: true after the load, and until the first Delivery (each delivered order adds one)",
		"select d.d_w_id, d.d_id, coalesce(o.orders, 0) as orders, coalesce(n.new_orders, 0) as new_orders"
		"  from @district@ d"
		"  left join (select o_w_id, o_d_id, count(*) as orders from @orders@ group by 1, 2) o"
		"    on o.o_w_id = d.d_w_id and o.o_d_id = d.d_id"
		"  left join (select no_w_id, no_d_id, count(*) as new_orders from @new_order@ group by 1, 2) n"
		"    on n.no_w_id = d.d_w_id and n.no_d_id = d.d_id"
		" where coalesce(o.orders, 0) - coalesce(n.new_orders, 0) <> 2100"
	" order by 1, 2"},
	{12, "C_BALANCE + C_YTD_PAYMENT = sum(OL_AMOUNT) of its delivered order lines, for each customer",
		"select c.c_w_id, c.c_d_id, c.c_id, c.c_balance, c.c_ytd_payment,"
		"       coalesce(dl.delivered, 0) as delivered"
		"  from @customer@ c"
		"  left join (select o.o_w_id, o.o_d_id, o.o_c_id, sum(ol.ol_amount) as delivered"
		"               from @orders@ o"
		"               join @order_line@ ol"
		"                 on ol.ol_w_id = o.o_w_id and ol.ol_d_id = o.o_d_id and ol.ol_o_id = o.o_id"
		"              where ol.ol_delivery_d is not null group by 1, 2, 3) dl"
		"    on dl.o_w_id = c.c_w_id and dl.o_d_id = c.c_d_id and dl.o_c_id = c.c_id"
		" where c.c_balance + c.c_ytd_payment is distinct from coalesce(dl.delivered, 0)"
	" order by 1, 2, 3"},
};

/* Offending rows shown in a condition's sample */
#define TPCC_CHECK_SAMPLE		5

/*
 * The schema-qualified, quoted name of the table called name that the
 * caller's search_path finds; an error if there is none, or if the caller
 * may not read it.
 */
static char *
tpcc_check_resolve(const char *name)
{
	Oid			relid = RangeVarGetRelid(makeRangeVar(NULL, pstrdup(name), -1),
										 NoLock, true);
	AclResult	aclresult;

	if (!OidIsValid(relid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation \"%s\" does not exist", name),
				 errdetail("polarbench_tpcc_check reads the TPC-C tables that search_path finds."),
				 errhint("Load them with polarbench_init('tpcc'), or put their schema in search_path.")));
	aclresult = pg_class_aclcheck(relid, GetUserId(), ACL_SELECT);
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, get_relkind_objtype(get_rel_relkind(relid)),
					   get_rel_name(relid));
	return quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
									  get_rel_name(relid));
}

/*
 * polarbench_tpcc_check
 *		SQL entry point: OUT condition, statement, offending, sample; one
 *		row per consistency condition, in order.
 */
Datum
polarbench_tpcc_check(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	const char *names[lengthof(tpcc_check_tables)];

	InitMaterializedSRF(fcinfo, 0);

	/* by the caller's search_path, before it is pinned */
	for (int t = 0; t < lengthof(tpcc_check_tables); t++)
		names[t] = tpcc_check_resolve(tpcc_check_tables[t]);

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	for (int c = 0; c < lengthof(tpcc_conditions); c++)
	{
		const TpccCondition *cond = &tpcc_conditions[c];
		char	   *sql = pstrdup(cond->sql);
		Datum		values[4];
		bool		nulls[4] = {false};
		bool		isnull;

		for (int t = 0; t < lengthof(tpcc_check_tables); t++)
			sql = pb_replace(sql, psprintf("@%s@", tpcc_check_tables[t]),
							 names[t]);
		sql = psprintf("select count(*)::int8,"
					   "       coalesce(jsonb_agg(r.j) filter (where r.n <= %d), '[]'::jsonb)"
					   "  from (select to_jsonb(q) as j, row_number() over () as n"
					   "          from (%s) q) r",
					   TPCC_CHECK_SAMPLE, sql);
		if (pb_spi_execute_safe(sql, 0, NULL, NULL, true, 0) != SPI_OK_SELECT ||
			SPI_processed != 1)
			elog(ERROR, "could not check consistency condition %d",
				 cond->number);

		values[0] = Int32GetDatum(cond->number);
		values[1] = CStringGetTextDatum(cond->statement);
		values[2] = SPI_getbinval(SPI_tuptable->vals[0],
								  SPI_tuptable->tupdesc, 1, &isnull);
		values[3] = SPI_getbinval(SPI_tuptable->vals[0],
								  SPI_tuptable->tupdesc, 2, &isnull);
		/* copied into the tuplestore, before SPI's memory goes */
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values,
							 nulls);
		SPI_freetuptable(SPI_tuptable);
	}
	SPI_finish();
	return (Datum) 0;
}
