/*-------------------------------------------------------------------------
 *
 * shard_route.c
 *	  Where the rows of a distributed load go: for each table of the data
 *	  set, the shards of it this node fills, and which of them a row's
 *	  distribution column sends it to.
 *
 * A distributed load (functions/init_shards.c) runs the data set's row
 * generation on every node of a Citus cluster.  The data set writes its
 * rows as always, through pb_bulk_begin() on the table's name; a route
 * registered here for that table makes bulk_insert.c send each row to the
 * shard that Citus would route it to, or drop it when that shard is on
 * another node.  A route of no table (InvalidOid) and no shards drops the
 * rows of every table: the coordinator so creates the tables, empty, by
 * the data set's own steps.
 *
 * A row goes to the shard whose hash range holds the hash of its
 * distribution column, computed as Citus computes it: the column type's
 * standard hash function (hashint4 for an int), compared with the
 * shards' shardminvalue and shardmaxvalue, both included.  A reference
 * table has no distribution column (a route of no column): its one shard,
 * of which each node holds a placement, takes every row.
 *
 * Routes live in TopTransactionContext and are forgotten at the end of
 * the transaction, whatever ends it, and at the abort of a subtransaction
 * (a load that failed, its error caught).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "nodes/pg_list.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/typcache.h"

#include "load.h"

/* The routes of the current transaction, by table */
static List *pb_routes = NIL;
static bool pb_routes_callback = false;

static void pb_route_xact_end(XactEvent event, void *arg);
static void pb_route_subxact_abort(SubXactEvent event,
								   SubTransactionId mySubid,
								   SubTransactionId parentSubid, void *arg);

/*
 * Forget the routes when the transaction that registered them ends.
 */
static void
pb_route_xact_end(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT ||
		event == XACT_EVENT_PARALLEL_COMMIT ||
		event == XACT_EVENT_PARALLEL_ABORT || event == XACT_EVENT_PREPARE)
		pb_routes = NIL;
}

/*
 * Forget the routes when a subtransaction aborts: the load that registered
 * them failed, and a caller that goes on after catching its error (a
 * PL/pgSQL EXCEPTION block) must not see its next rows dropped.
 */
static void
pb_route_subxact_abort(SubXactEvent event, SubTransactionId mySubid,
					   SubTransactionId parentSubid, void *arg)
{
	if (event == SUBXACT_EVENT_ABORT_SUB)
		pb_routes = NIL;
}

/*
 * pb_route_add
 *		Route the rows of table relid, by its column attnum, to the nshards
 *		shards of shard_relids, of hash ranges [mins[i], maxs[i]]; rows of
 *		other ranges are dropped.  attnum InvalidAttrNumber: a reference
 *		table, every row to its one shard.  relid InvalidOid (with nshards
 *		0): drop the rows of every table.
 */
void
pb_route_add(Oid relid, AttrNumber attnum, int nshards,
			 const Oid *shard_relids, const int32 *mins, const int32 *maxs)
{
	MemoryContext oldcxt = MemoryContextSwitchTo(TopTransactionContext);
	PbShardRoute *route = palloc0(sizeof(PbShardRoute));
	int			i;

	if (!pb_routes_callback)
	{
		RegisterXactCallback(pb_route_xact_end, NULL);
		RegisterSubXactCallback(pb_route_subxact_abort, NULL);
		pb_routes_callback = true;
	}
	route->relid = relid;
	route->attnum = attnum;
	route->nshards = nshards;
	route->shard_relids = palloc(sizeof(Oid) * Max(nshards, 1));
	route->mins = palloc(sizeof(int32) * Max(nshards, 1));
	route->maxs = palloc(sizeof(int32) * Max(nshards, 1));
	for (i = 0; i < nshards; i++)
	{
		route->shard_relids[i] = shard_relids[i];
		route->mins[i] = mins[i];
		route->maxs[i] = maxs[i];
	}
	if (nshards > 0 && attnum != InvalidAttrNumber)
	{
		Oid			type;
		int32		typmod;
		TypeCacheEntry *tc;

		Assert(OidIsValid(relid));
		get_atttypetypmodcoll(relid, attnum, &type, &typmod,
							  &route->collation);
		tc = lookup_type_cache(type, TYPECACHE_HASH_PROC_FINFO);
		if (!OidIsValid(tc->hash_proc_finfo.fn_oid))
			elog(ERROR, "type %s has no hash function", format_type_be(type));
		fmgr_info_copy(&route->hash, &tc->hash_proc_finfo,
					   TopTransactionContext);
	}
	pb_routes = lappend(pb_routes, route);
	MemoryContextSwitchTo(oldcxt);
}

/*
 * pb_route_find
 *		The route of table relid, or NULL when its rows go to it.
 */
PbShardRoute *
pb_route_find(Oid relid)
{
	ListCell   *lc;

	foreach(lc, pb_routes)
	{
		PbShardRoute *route = lfirst(lc);

		if (route->relid == relid || !OidIsValid(route->relid))
			return route;
	}
	return NULL;
}

/*
 * pb_route_shard
 *		The index among the route's shards of the shard a row whose
 *		distribution column is key (isnull: NULL) goes to, or -1 when it
 *		goes to no shard of this node.
 */
int
pb_route_shard(PbShardRoute *route, Datum key, bool isnull)
{
	int32		hash;

	if (route->nshards == 0)
		return -1;
	if (route->attnum == InvalidAttrNumber)
		return 0;				/* a reference table's one shard */
	if (isnull)
		elog(ERROR, "a row of a distributed table has a NULL distribution column");
	hash = DatumGetInt32(FunctionCall1Coll(&route->hash, route->collation,
										   key));
	for (int i = 0; i < route->nshards; i++)
		if (hash >= route->mins[i] && hash <= route->maxs[i])
			return i;
	return -1;
}

/*
 * pb_route_reference_rows
 *		The rows the reference tables' shards took: every node makes them
 *		all, so that they count once in a load's rows, not once a node.
 */
int64
pb_route_reference_rows(void)
{
	ListCell   *lc;
	int64		rows = 0;

	foreach(lc, pb_routes)
	{
		PbShardRoute *route = lfirst(lc);

		if (route->nshards > 0 && route->attnum == InvalidAttrNumber)
			rows += route->rows;
	}
	return rows;
}

/*
 * pb_route_forget
 *		Let rows go to their tables again.
 */
void
pb_route_forget(void)
{
	pb_routes = NIL;
}
