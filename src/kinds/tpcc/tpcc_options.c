/*-------------------------------------------------------------------------
 *
 * tpcc_options.c
 *	  TPC-C's workload and its options: names, types, ranges and defaults
 *	  in one table, the rule of its mix, and the TPC-C kind's backend-free
 *	  descriptor, pb_tpcc_library.
 *
 * The defaults are TPC-C 5.11's: the mix of 5.2.3 at its minimums, and 10
 * terminals per warehouse.
 *
 *-------------------------------------------------------------------------
 */
#include <stddef.h>
#include <string.h>

#include "tpcc.h"

/* TPC-C's one workload */
static const PbWorkloadDef tpcc_workloads[] = {
	{"tpcc", 0, "TPC-C 5.11: New-Order, Payment, Order-Status, Delivery and Stock-Level by the deck"},
	{NULL}
};

#define TC(field) offsetof(PbTpccOptions, field)

static const PbOptionDef tpcc_options[] = {
	{"warehouses", PB_OPT_INT, TC(warehouses), 1, 1000000, NULL, false,
	"Number of warehouses the terminals work on (by default the rows of warehouse)",
	TC(warehouses_given) + 1},
	{"payment", PB_OPT_INT, TC(payment), 43, 100, NULL, false,
	"Cards of 100 that are Payment (at least 43)", 0},
	{"order_status", PB_OPT_INT, TC(order_status), 4, 100, NULL, false,
	"Cards of 100 that are Order-Status (at least 4)", 0},
	{"delivery", PB_OPT_INT, TC(delivery), 4, 100, NULL, false,
	"Cards of 100 that are Delivery (at least 4)", 0},
	{"stock_level", PB_OPT_INT, TC(stock_level), 4, 100, NULL, false,
	"Cards of 100 that are Stock-Level (at least 4); New-Order has the rest", 0},
	{"keying_think", PB_OPT_BOOL, TC(keying_think), 0, 0, NULL, false,
	"Whether terminals wait the keying and think times of clause 5.2.5", 0},
	{"terminals", PB_OPT_INT, TC(terminals), 1, 1000, NULL, false,
	"Terminals per warehouse, with keying_think (the clients serve them)", 0},
	{NULL}
};

/*
 * pb_tpcc_defaults
 *		TPC-C's: the minimum mix of 5.2.3 (New-Order has the 45 cards left),
 *		no keying or think times, as every kit runs by default, and 10
 *		terminals per warehouse (4.2.2) when they are on.
 */
void
pb_tpcc_defaults(PbTpccOptions *o)
{
	memset(o, 0, sizeof(PbTpccOptions));
	o->warehouses = 0;
	o->payment = 43;
	o->order_status = 4;
	o->delivery = 4;
	o->stock_level = 4;
	o->keying_think = false;
	o->terminals = 10;
}

/* TPC-C's defaults, as the kind's defaults callback. */
static void
pb_tpcc_defaults_of(void *options, int variant)
{
	pb_tpcc_defaults(options);
}

/*
 * pb_tpcc_check
 *		TPC-C's rule for the mix: the cards of the four other types leave
 *		New-Order at least none of the deck's 100.
 */
static bool
pb_tpcc_check(void *options, PbError *err)
{
	PbTpccOptions *o = options;
	int			others = o->payment + o->order_status + o->delivery + o->stock_level;

	if (others > PB_TPCC_DECK_CARDS)
		return pb_option_error(err, "payment, order_status, delivery and stock_level are cards of a deck of 100, of which New-Order has the rest.",
							   "the TPC-C mix has %d cards besides New-Order, more than 100",
							   others);
	return true;
}

const PbKindLibrary pb_tpcc_library = {
	.name = "tpcc",
	.tool = "TPC-C",
	.workloads = tpcc_workloads,
	.options = tpcc_options,
	.options_size = sizeof(PbTpccOptions),
	.defaults = pb_tpcc_defaults_of,
	.check = pb_tpcc_check,
};
