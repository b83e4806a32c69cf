/*-------------------------------------------------------------------------
 *
 * init_shards.c
 *	  polarbench_init(..., distributed => true) at the speed of the nodes:
 *	  each node of a Citus cluster generates and writes the rows of the
 *	  shards it holds, all nodes at once, in the caller's transaction.
 *
 * Through the coordinator, every row of a distributed load would be made
 * on the coordinator, copied by create_distributed_table() over the
 * network to its shard, and written there: one backend does all the
 * work.  Here the coordinator only conducts:
 *
 *	1. It runs the data set's own steps with every row dropped
 *	   (shard_route.c; in polarbench_init(), init.c): the tables are
 *	   created, empty, with their keys, as a local load creates them.
 *	2. It makes them Citus tables (init_distributed.c), on empty tables a
 *	   matter of DDL, in sequential mode (citus.multi_shard_modify_mode):
 *	   Citus then creates every shard of a node over one connection, in
 *	   one transaction of that node, which is the caller's distributed
 *	   transaction.
 *	3. It creates a small distributed table, colocated with the data set's
 *	   tables (polarbench_load_conduct), holding one row per node: a key
 *	   of one of the node's shards, and the names and hash ranges of every
 *	   shard of the node, with the load's options.
 *	4. One query, SELECT polarbench_fill_shards(...) over that table,
 *	   which Citus runs on every node at once, over the same connections,
 *	   so in the same transactions that created the shards: on each node,
 *	   polarbench_fill_shards() runs the data set's fill_shards step, its
 *	   rows routed by Citus's hash of their distribution column to the
 *	   node's shards or dropped (the other nodes write them), written by
 *	   the local loader's bulk path (frozen, full pages past shared
 *	   buffers, page images compressed in WAL, primary keys built as rows
 *	   go, as the shards were created in that transaction), then analyzes
 *	   the shards.
 *	5. It drops polarbench_load_conduct and checks that the nodes wrote
 *	   every row of the data set.
 *
 * Every node's work is part of the caller's transaction, which Citus
 * commits on every node in two phases: an error on any node (or on the
 * coordinator) aborts it everywhere, and a cancel of the caller is passed
 * by Citus to the nodes' backends, whose loops check for interrupts.  The
 * old tables stay as they were on every node, or none are there.  Nothing
 * is committed under another name, so a crash leaves nothing to drop
 * (Citus resolves its prepared transactions).
 *
 * Each node goes through every key of the data set and makes only the rows
 * of its shards (pb_bulk_row_elsewhere()): a key hashed costs far less
 * than a row written.  Each node fills its shards in one backend (one
 * connection per node in sequential mode), then analyzes them with a
 * statistics target divided by their number, so that together they sample
 * about what one ANALYZE of the table would.
 *
 * Reference tables (TPC-C's item): each node holding shards is also given
 * its placement of the reference table's one shard, and makes all its
 * rows there, the same on every node; the coordinator fills its own
 * placement itself, in the caller's backend, once the nodes are done.
 * Their rows count once in the load's.  A row the coordinator writes by
 * SQL while it creates the tables empty (tpcc_load's) is copied to the
 * placements by Citus, as in a load through the coordinator.
 *
 * Only data sets with a fill_shards step, whose hash-distributed tables
 * are all colocated (and
 * a node holding a shard of them wherever a reference table has a
 * placement), without partitions, load this way; others go through the
 * coordinator (init_distributed.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "commands/vacuum.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/typcache.h"

#include "engine.h"
#include "load.h"
#include "registry.h"
#include "safe_sql.h"

/* The table that conducts the nodes, in the load's schema */
#define PB_CONDUCT_TABLE		"polarbench_load_conduct"

/* The lowest statistics target a shard is analyzed with */
#define PB_SHARD_MIN_STATISTICS	10

/* One node's part of the load, as the coordinator gathers it */
typedef struct PbNodePart
{
	int			groupid;
	bool		has_key;		/* holds a shard of a distributed table */
	int32		first_min;		/* hash range of one of those */
	int32		first_max;
	List	   *tables;			/* of text Datums, one per shard */
	List	   *columns;
	List	   *shards;
	List	   *mins;			/* of int32 */
	List	   *maxs;
} PbNodePart;

static List *pb_shards_gather(const PbLoadOptions *opts, List *tables,
							  Oid *key_type);
static PbDistributedTable *pb_shards_first(List *tables);
static int	pb_shards_local_group(void);
static void pb_shards_add_result(int64 node_rows, int64 node_bytes,
								 int64 node_reference, int64 *rows,
								 int64 *bytes, int64 *reference_rows);
static void pb_shards_fill(const PbLoadOptions *opts, ArrayType *tables_array,
						   ArrayType *columns_array, ArrayType *shards_array,
						   ArrayType *mins_array, ArrayType *maxs_array,
						   bool every_table, int64 *result);
static Datum pb_shards_key(Oid key_type, int32 lo, int32 hi);
static Datum pb_list_array(List *list, Oid elemtype);
static void pb_shards_analyze(const char *nspname, const char *shard,
							  int nshards);
static int	pb_count_equal(const Datum *texts, int n, Datum wanted);
static Oid	pb_shards_check_shard(Oid relid, const PbLoadOptions *opts,
								  const char *shard);

PG_FUNCTION_INFO_V1(polarbench_fill_shards);

/*
 * pb_shards_load_on_nodes
 *		Whether the load of opts is made on the nodes (see the file
 *		header), rather than through the coordinator.
 */
bool
pb_shards_load_on_nodes(const PbLoadOptions *opts)
{
	const PbDataset *ds = pb_dataset_at(opts->dataset);
	List	   *tables;
	ListCell   *lc;
	const char *first = NULL;

	if (!opts->distributed || ds->fill_shards == NULL ||
		opts->partitions > 0 || opts->extend)
		return false;
	tables = ds->distribution(opts);
	foreach(lc, tables)
	{
		PbDistributedTable *t = lfirst(lc);

		if (t->column == NULL)
			continue;			/* a reference table: on every node */
		if (first == NULL)
			first = t->table;
		else if (t->colocate_with == NULL)
			return false;		/* another colocation group */
	}
	return first != NULL;
}

/*
 * pb_shards_sequential_begin
 *		Make Citus run what follows, to the matching
 *		pb_shards_sequential_end(), over one connection per node: the drop
 *		of the tables a load replaces, the creation of their shards and of
 *		their sequences, the nodes' loads.  (A sequence dropped over one
 *		connection and created again over another, in one distributed
 *		transaction, would wait for itself: Citus calls it a distributed
 *		deadlock.)  Returns the GUC nest level to end.
 */
int
pb_shards_sequential_begin(void)
{
	int			nest_level = NewGUCNestLevel();

	(void) set_config_option("citus.multi_shard_modify_mode", "sequential",
							 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
							 true, 0, false);
	return nest_level;
}

/*
 * pb_shards_sequential_end
 *		The mode of before pb_shards_sequential_begin() again.
 */
void
pb_shards_sequential_end(int nest_level)
{
	AtEOXact_GUC(true, nest_level);
}

/*
 * pb_shards_check
 *		Refuse, before anything is written, a load on the nodes that the
 *		conducting table could not be created for.
 */
void
pb_shards_check(const PbLoadOptions *opts)
{
	if (OidIsValid(get_relname_relid(PB_CONDUCT_TABLE, opts->nspid)))
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_TABLE),
				 errmsg("table \"%s.%s\" is in the way of a distributed load",
						opts->nspname, PB_CONDUCT_TABLE),
				 errdetail("polarbench_init creates it to conduct the nodes, and drops it before it returns."),
				 errhint("Drop it, or rename it.")));
}

/*
 * pb_shards_load
 *		Load the data set of opts on the nodes of the cluster, its tables
 *		created, empty, in the caller's transaction (steps 2 to 5 of the
 *		file header), in pb_shards_sequential_begin()'s mode; SPI
 *		connected.  Returns the rows inserted, and their
 *		size on disk on all nodes in *bytes.
 */
int64
pb_shards_load(const PbLoadOptions *opts, int64 *bytes)
{
	const PbDataset *ds = pb_dataset_at(opts->dataset);
	List	   *tables = ds->distribution(opts);
	PbDistributedTable *first = pb_shards_first(tables);
	Datum		options = pb_shard_options_write(opts);
	int			local_group = pb_shards_local_group();
	uint64		nconducted = 0;
	int64		reference_rows = -1;
	char	   *conduct = pb_loader_qualify(opts, PB_CONDUCT_TABLE);
	Oid			extschema;
	List	   *parts;
	ListCell   *lc;
	Oid			key_type;
	int			path_nest;
	int64		rows = 0;

	(void) pb_extension_owner(&extschema);

	/* 2. Citus tables, each node's shards over one connection */
	pb_distribute_tables(opts);

	/* 3. the conducting table, a row per node */
	parts = pb_shards_gather(opts, tables, &key_type);
	path_nest = pb_pin_search_path();
	pb_loader_sql("create table %s(k %s, dataset text, options jsonb, tables text[], columns text[], shards text[], mins int[], maxs int[])",
				  conduct, format_type_be(key_type));
	{
		Oid			types[3] = {REGCLASSOID, TEXTOID, TEXTOID};
		Datum		values[3];

		values[0] = ObjectIdGetDatum(pb_loader_relid(opts, PB_CONDUCT_TABLE));
		values[1] = CStringGetTextDatum("k");
		values[2] = CStringGetTextDatum(pb_loader_qualify(opts, first->table));
		if (SPI_execute_with_args("select pg_catalog.create_distributed_table($1, $2, colocate_with => $3)",
								  3, types, values, NULL, false, 0) != SPI_OK_SELECT)
			elog(ERROR, "could not distribute table \"%s\"", PB_CONDUCT_TABLE);
	}

	foreach(lc, parts)
	{
		PbNodePart *part = lfirst(lc);
		Oid			types[8] = {key_type, TEXTOID, JSONBOID, TEXTARRAYOID,
		TEXTARRAYOID, TEXTARRAYOID, INT4ARRAYOID, INT4ARRAYOID};
		Datum		values[8];

		if (!part->has_key)
		{
			if (part->groupid != local_group)
				ereport(ERROR,
						(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						 errmsg("a node of the cluster holds no shard of the distributed tables of data set \"%s\"",
								ds->name),
						 errdetail("Each node fills its placements of the reference tables as it loads its shards."),
						 errhint("Give shard_count at least the number of workers.")));
			continue;
		}
		nconducted++;
		values[0] = pb_shards_key(key_type, part->first_min, part->first_max);
		values[1] = CStringGetTextDatum(ds->name);
		values[2] = options;
		values[3] = pb_list_array(part->tables, TEXTOID);
		values[4] = pb_list_array(part->columns, TEXTOID);
		values[5] = pb_list_array(part->shards, TEXTOID);
		values[6] = pb_list_array(part->mins, INT4OID);
		values[7] = pb_list_array(part->maxs, INT4OID);
		if (SPI_execute_with_args(psprintf("insert into %s values ($1, $2, $3, $4, $5, $6, $7, $8)",
										   conduct),
								  8, types, values, NULL, false, 0) != SPI_OK_INSERT)
			elog(ERROR, "could not insert into table \"%s\"", PB_CONDUCT_TABLE);
	}

	/* 4. every node fills its shards, all at once */
	if (SPI_execute(psprintf("select %s.polarbench_fill_shards(dataset, options, tables, columns, shards, mins, maxs) from %s",
							 quote_identifier(get_namespace_name(extschema)), conduct),
					false, 0) != SPI_OK_SELECT ||
		SPI_processed != nconducted)
		elog(ERROR, "could not load the shards on the nodes");
	*bytes = 0;
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		bool		isnull;
		Datum		result = SPI_getbinval(SPI_tuptable->vals[r],
										   SPI_tuptable->tupdesc, 1, &isnull);
		Datum	   *elems;
		int			nelems;

		deconstruct_array(DatumGetArrayTypeP(result), INT8OID, sizeof(int64),
						  FLOAT8PASSBYVAL, TYPALIGN_DOUBLE, &elems, NULL,
						  &nelems);
		if (nelems != 3)
			elog(ERROR, "polarbench_fill_shards returned %d values", nelems);
		pb_shards_add_result(DatumGetInt64(elems[0]), DatumGetInt64(elems[1]),
							 DatumGetInt64(elems[2]), &rows, bytes,
							 &reference_rows);
	}

	/*
	 * The coordinator's own placements of the reference tables, when it
	 * holds no shard of the others (so no row of the conducting table)
	 */
	foreach(lc, parts)
	{
		PbNodePart *part = lfirst(lc);
		int64		result[3];

		if (part->has_key)
			continue;
		pb_shards_fill(opts,
					   DatumGetArrayTypeP(pb_list_array(part->tables, TEXTOID)),
					   DatumGetArrayTypeP(pb_list_array(part->columns, TEXTOID)),
					   DatumGetArrayTypeP(pb_list_array(part->shards, TEXTOID)),
					   DatumGetArrayTypeP(pb_list_array(part->mins, INT4OID)),
					   DatumGetArrayTypeP(pb_list_array(part->maxs, INT4OID)),
					   false, result);
		pb_shards_add_result(result[0], result[1], result[2], &rows, bytes,
							 &reference_rows);
	}

	/* 5. */
	pb_loader_sql("drop table %s", conduct);
	pb_unpin_search_path(path_nest);
	rows += reference_rows;
	if (rows != opts->total_rows)
		elog(ERROR, "the nodes loaded " INT64_FORMAT " rows of the " INT64_FORMAT " of the data set",
			 rows, opts->total_rows);
	return rows;
}

/*
 * Add a node's rows of distributed tables, bytes and rows of reference
 * tables to the load's: the reference tables' rows, which every node
 * makes, once, and the same on every node.
 */
static void
pb_shards_add_result(int64 node_rows, int64 node_bytes, int64 node_reference,
					 int64 *rows, int64 *bytes, int64 *reference_rows)
{
	if (*reference_rows >= 0 && node_reference != *reference_rows)
		elog(ERROR, "the nodes wrote " INT64_FORMAT " and " INT64_FORMAT " rows of the reference tables",
			 *reference_rows, node_reference);
	*reference_rows = node_reference;
	*rows += node_rows;
	*bytes += node_bytes;
}

/*
 * Every node's shards of the data set's tables (all colocated): one part
 * per node holding shards, with the hash range of one of them; *key_type
 * is the type of the first table's distribution column.
 */
static List *
pb_shards_gather(const PbLoadOptions *opts, List *tables, Oid *key_type)
{
	PbDistributedTable *first = pb_shards_first(tables);
	Oid			first_relid = pb_loader_relid(opts, first->table);
	List	   *parts = NIL;
	PbNodePart *part = NULL;
	ListCell   *lc;
	Datum	   *relids;
	Oid			types[1] = {OIDARRAYOID};
	Datum		values[1];
	int			i = 0;

	*key_type = get_atttype(first_relid, get_attnum(first_relid,
													first->column));

	relids = palloc(sizeof(Datum) * list_length(tables));
	foreach(lc, tables)
	{
		PbDistributedTable *t = lfirst(lc);

		relids[i++] = ObjectIdGetDatum(pb_loader_relid(opts, t->table));
	}
	values[0] = PointerGetDatum(construct_array(relids, i, OIDOID,
												sizeof(Oid), true,
												TYPALIGN_INT));
	if (pb_spi_execute_safe("select p.groupid, c.relname::pg_catalog.text,"
							"       s.shardminvalue::pg_catalog.int4, s.shardmaxvalue::pg_catalog.int4,"
							"       (pg_catalog.parse_ident(pg_catalog.shard_name(s.logicalrelid, s.shardid)))[pg_catalog.array_length(pg_catalog.parse_ident(pg_catalog.shard_name(s.logicalrelid, s.shardid)), 1)]"
							"  from pg_catalog.pg_dist_shard s"
							"  join pg_catalog.pg_dist_placement p on p.shardid operator(pg_catalog.=) s.shardid"
							"  join pg_catalog.pg_class c on c.oid operator(pg_catalog.=) s.logicalrelid"
							" where s.logicalrelid operator(pg_catalog.=) any ($1)"
							" order by p.groupid, c.relname, s.shardminvalue::pg_catalog.int4",
							1, types, values, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the placements of the shards");

	for (uint64 r = 0; r < SPI_processed; r++)
	{
		HeapTuple	tuple = SPI_tuptable->vals[r];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		int			groupid = DatumGetInt32(SPI_getbinval(tuple, desc, 1, &isnull));
		char	   *table = SPI_getvalue(tuple, desc, 2);
		int32		lo = DatumGetInt32(SPI_getbinval(tuple, desc, 3, &isnull));
		int32		hi = DatumGetInt32(SPI_getbinval(tuple, desc, 4, &isnull));
		char	   *shard = SPI_getvalue(tuple, desc, 5);
		const char *column = "";

		/* a reference table's shard: no column, no range */
		if (isnull)
		{
			lo = PG_INT32_MIN;
			hi = PG_INT32_MAX;
		}
		foreach(lc, tables)
		{
			PbDistributedTable *t = lfirst(lc);

			if (strcmp(t->table, table) == 0 && t->column != NULL)
				column = t->column;
		}
		if (part == NULL || part->groupid != groupid)
		{
			part = palloc0(sizeof(PbNodePart));
			part->groupid = groupid;
			parts = lappend(parts, part);
		}
		if (!part->has_key && column[0] != '\0')
		{
			part->has_key = true;
			part->first_min = lo;
			part->first_max = hi;
		}
		part->tables = lappend(part->tables, pstrdup(table));
		part->columns = lappend(part->columns, pstrdup(column));
		part->shards = lappend(part->shards, pstrdup(shard));
		part->mins = lappend_int(part->mins, lo);
		part->maxs = lappend_int(part->maxs, hi);
	}
	if (parts == NIL)
		elog(ERROR, "the distributed tables have no shards");
	return parts;
}

/* The first hash-distributed table of tables */
static PbDistributedTable *
pb_shards_first(List *tables)
{
	ListCell   *lc;

	foreach(lc, tables)
	{
		PbDistributedTable *t = lfirst(lc);

		if (t->column != NULL)
			return t;
	}
	elog(ERROR, "the data set has no distributed table");
	return NULL;
}

/* The group of this node (the coordinator's: 0), as Citus knows it */
static int
pb_shards_local_group(void)
{
	bool		isnull;

	if (pb_spi_execute_safe("select groupid from pg_catalog.pg_dist_local_group",
							0, NULL, NULL, true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not read the group of this node");
	return DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0],
									   SPI_tuptable->tupdesc, 1, &isnull));
}

/*
 * A value of type key_type whose hash, as Citus computes it (the type's
 * standard hash function, of the default collation), falls in [lo, hi]: a
 * row of that key goes to that shard.  Tried among the numbers 1, 2, ...
 * read by the type's input function (an int, a bigint, a text or a
 * varchar).
 */
static Datum
pb_shards_key(Oid key_type, int32 lo, int32 hi)
{
	TypeCacheEntry *tc = lookup_type_cache(key_type,
										   TYPECACHE_HASH_PROC_FINFO);
	Oid			input;
	Oid			ioparam;

	if (!OidIsValid(tc->hash_proc_finfo.fn_oid))
		elog(ERROR, "type %s has no hash function", format_type_be(key_type));
	getTypeInputInfo(key_type, &input, &ioparam);
	for (int64 k = 1; k < INT64CONST(100000000); k++)
	{
		char		text[32];
		Datum		key;
		int32		h;

		snprintf(text, sizeof(text), INT64_FORMAT, k);
		key = OidInputFunctionCall(input, text, ioparam, -1);
		h = DatumGetInt32(FunctionCall1Coll(&tc->hash_proc_finfo,
											DEFAULT_COLLATION_OID, key));
		if (h >= lo && h <= hi)
			return key;
	}
	elog(ERROR, "no key found for the hash range [%d, %d]", lo, hi);
	return (Datum) 0;
}

/* An array of a list of C strings (elemtype text) or of ints (int) */
static Datum
pb_list_array(List *list, Oid elemtype)
{
	Datum	   *elems = palloc(sizeof(Datum) * Max(1, list_length(list)));
	ListCell   *lc;
	int			i = 0;
	int16		typlen;
	bool		typbyval;
	char		typalign;

	foreach(lc, list)
		elems[i++] = elemtype == TEXTOID ? CStringGetTextDatum(lfirst(lc)) :
			Int32GetDatum(lfirst_int(lc));
	get_typlenbyvalalign(elemtype, &typlen, &typbyval, &typalign);
	return PointerGetDatum(construct_array(elems, i, elemtype, typlen,
										   typbyval, typalign));
}

/*
 * The OID of shard, a table of the load's schema that
 * polarbench_fill_shards() may fill with rows of table relid: created in
 * the current transaction (its rows are written frozen past the executor,
 * as COPY FREEZE writes them), into which the caller may insert, of the
 * table's columns.
 */
static Oid
pb_shards_check_shard(Oid relid, const PbLoadOptions *opts,
					  const char *shard)
{
	Oid			shard_relid = get_relname_relid(shard, opts->nspid);
	Relation	rel;
	Relation	table;
	AclResult	acl;
	bool		same;

	if (!OidIsValid(shard_relid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation \"%s.%s\" does not exist",
						opts->nspname, shard)));
	rel = table_open(shard_relid, AccessShareLock);
	if (rel->rd_createSubid == InvalidSubTransactionId)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("polarbench_fill_shards fills only shards created in its transaction"),
				 errdetail("Relation \"%s.%s\" was not created in the current transaction.",
						   opts->nspname, shard)));
	table = table_open(relid, AccessShareLock);
	same = RelationGetDescr(rel)->natts == RelationGetDescr(table)->natts;
	for (int a = 0; same && a < RelationGetDescr(rel)->natts; a++)
		same = TupleDescAttr(RelationGetDescr(rel), a)->atttypid ==
			TupleDescAttr(RelationGetDescr(table), a)->atttypid;
	if (!same)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("relation \"%s.%s\" does not have the columns of table \"%s\"",
						opts->nspname, shard, RelationGetRelationName(table))));
	table_close(table, AccessShareLock);
	table_close(rel, AccessShareLock);
	acl = pg_class_aclcheck(shard_relid, GetUserId(), ACL_INSERT);
	if (acl != ACLCHECK_OK)
		aclcheck_error(acl, OBJECT_TABLE, shard);
	return shard_relid;
}

/*
 * Analyze shard, one of nshards of its table on this node, sampling about
 * 1 / nshards of the rows a local load's ANALYZE of the whole table would
 * (its statistics target divided by nshards, at least
 * PB_SHARD_MIN_STATISTICS): an ANALYZE of full target on each of a
 * node's shards would sample as many rows as the load writes there.
 * SPI connected.
 */
static void
pb_shards_analyze(const char *nspname, const char *shard, int nshards)
{
	int			nest_level = NewGUCNestLevel();
	char		target[16];

	snprintf(target, sizeof(target), "%d",
			 Max(PB_SHARD_MIN_STATISTICS,
				 default_statistics_target / Max(1, nshards)));
	(void) set_config_option("default_statistics_target", target,
							 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
							 true, 0, false);
	pb_loader_sql("analyze %s.%s", quote_identifier(nspname),
				  quote_identifier(shard));
	AtEOXact_GUC(true, nest_level);
}

/* The elements of texts (of n) equal to wanted */
static int
pb_count_equal(const Datum *texts, int n, Datum wanted)
{
	char	   *value = TextDatumGetCString(wanted);
	int			count = 0;

	for (int i = 0; i < n; i++)
		if (strcmp(TextDatumGetCString(texts[i]), value) == 0)
			count++;
	return count;
}

/*
 * polarbench_fill_shards(dataset text, options jsonb, tables text[],
 *						  columns text[], shards text[], mins int[],
 *						  maxs int[])
 *		On a node of a Citus cluster, in a transaction that created the
 *		shards named (polarbench_init's, see the file header): fill them
 *		with their rows of data set dataset loaded with options (named
 *		options, shard_options.c), shard i of table tables[i] taking the
 *		rows whose column columns[i] hashes into [mins[i], maxs[i]] (a
 *		reference table's, of column "", all of them); analyze them.
 *		Returns the rows inserted into the shards of distributed tables,
 *		the shards' size on disk and the rows inserted into the reference
 *		tables' placements, as an array of three bigints.
 */
Datum
polarbench_fill_shards(PG_FUNCTION_ARGS)
{
	PbLoadOptions opts;
	int64		result[3];
	Datum		result_datums[3];

	for (int i = 0; i < 7; i++)
		if (PG_ARGISNULL(i))
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("polarbench_fill_shards takes no NULL argument")));
	pb_shard_options_read(&opts, text_to_cstring(PG_GETARG_TEXT_PP(0)),
						  PG_GETARG_DATUM(1));
	if (!pb_shards_load_on_nodes(&opts))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("data set \"%s\" is not loaded on the nodes",
						pb_dataset_at(opts.dataset)->name)));
	pb_shards_fill(&opts, PG_GETARG_ARRAYTYPE_P(2), PG_GETARG_ARRAYTYPE_P(3),
				   PG_GETARG_ARRAYTYPE_P(4), PG_GETARG_ARRAYTYPE_P(5),
				   PG_GETARG_ARRAYTYPE_P(6), true, result);
	for (int i = 0; i < 3; i++)
		result_datums[i] = Int64GetDatum(result[i]);
	PG_RETURN_ARRAYTYPE_P(construct_array(result_datums, 3, INT8OID,
										  sizeof(int64), FLOAT8PASSBYVAL,
										  TYPALIGN_DOUBLE));
}

/*
 * Fill the shards of this node named (tables[i]'s shard shards[i], of the
 * rows whose column columns[i] hashes into [mins[i], maxs[i]]; a reference
 * table, of no column, its one shard with all its rows) with their rows of
 * the load of opts, then analyze them.  every_table: the shards of every
 * table of the data set are named (a node's part of the load); otherwise
 * the rows of the tables not named are dropped (the coordinator's
 * placements of the reference tables).  result: the rows inserted into the
 * shards of distributed tables, the shards' size on disk, and the rows of
 * the reference tables.
 */
static void
pb_shards_fill(const PbLoadOptions *opts, ArrayType *tables_array,
			   ArrayType *columns_array, ArrayType *shards_array,
			   ArrayType *mins_array, ArrayType *maxs_array,
			   bool every_table, int64 *result)
{
	const PbDataset *ds = pb_dataset_at(opts->dataset);
	Datum	   *tables,
			   *columns,
			   *shards,
			   *mins,
			   *maxs;
	int			n,
				n2,
				n3,
				n4,
				n5;
	PbProgress	progress;
	Oid		   *shard_oids;
	int			path_nest;
	int			wal_nest;
	ListCell   *lc;

	deconstruct_array(tables_array, TEXTOID, -1, false,
					  TYPALIGN_INT, &tables, NULL, &n);
	deconstruct_array(columns_array, TEXTOID, -1, false,
					  TYPALIGN_INT, &columns, NULL, &n2);
	deconstruct_array(shards_array, TEXTOID, -1, false,
					  TYPALIGN_INT, &shards, NULL, &n3);
	deconstruct_array(mins_array, INT4OID, sizeof(int32), true,
					  TYPALIGN_INT, &mins, NULL, &n4);
	deconstruct_array(maxs_array, INT4OID, sizeof(int32), true,
					  TYPALIGN_INT, &maxs, NULL, &n5);
	if (n2 != n || n3 != n || n4 != n || n5 != n)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("the arrays of polarbench_fill_shards are not of the same length")));

	/*
	 * Every table the data set fills must be routed: its rows go nowhere
	 * else (the shell tables Citus keeps on the nodes stay empty)
	 */
	foreach(lc, every_table ? ds->distribution(opts) : NIL)
	{
		PbDistributedTable *t = lfirst(lc);
		bool		found = false;

		for (int i = 0; i < n && !found; i++)
			found = strcmp(TextDatumGetCString(tables[i]), t->table) == 0;
		if (!found)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("polarbench_fill_shards has no shards of table \"%s\"",
							t->table),
					 errdetail("Each table of the data set takes its rows from the same generation, so all are filled together.")));
	}

	/* a route per table, over its shards here, and only those */
	pb_route_forget();
	shard_oids = palloc(sizeof(Oid) * Max(n, 1));
	for (int i = 0; i < n;)
	{
		char	   *table = TextDatumGetCString(tables[i]);
		char	   *column = TextDatumGetCString(columns[i]);
		Oid			relid = get_relname_relid(table, opts->nspid);
		AttrNumber	attnum = InvalidAttrNumber;
		Oid		   *shard_relids = palloc(sizeof(Oid) * n);
		int32	   *lo = palloc(sizeof(int32) * n);
		int32	   *hi = palloc(sizeof(int32) * n);
		int			k = 0;

		if (!OidIsValid(relid))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("relation \"%s.%s\" does not exist",
							opts->nspname, table)));
		/* a reference table: no column */
		if (column[0] != '\0')
		{
			attnum = get_attnum(relid, column);
			if (attnum == InvalidAttrNumber)
				ereport(ERROR,
						(errcode(ERRCODE_UNDEFINED_COLUMN),
						 errmsg("column \"%s\" of relation \"%s\" does not exist",
								column, table)));
		}
		for (; i < n && strcmp(TextDatumGetCString(tables[i]), table) == 0; i++)
		{
			Oid			shard_relid = pb_shards_check_shard(relid, opts,
															TextDatumGetCString(shards[i]));

			shard_relids[k] = shard_relid;
			shard_oids[i] = shard_relid;
			lo[k] = DatumGetInt32(mins[i]);
			hi[k] = DatumGetInt32(maxs[i]);
			k++;
		}
		if (attnum == InvalidAttrNumber && k != 1)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("polarbench_fill_shards takes one shard of a table of no column, \"%s\"",
							table),
					 errdetail("A reference table has one shard, of which each node holds a placement.")));
		pb_route_add(relid, attnum, k, shard_relids, lo, hi);
	}
	/* after them, a route that drops the rows of any other table */
	pb_route_add(InvalidOid, InvalidAttrNumber, 0, NULL, NULL, NULL);

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	path_nest = pb_pin_search_path();
	pb_progress_init(&progress, opts->total_rows, opts->progress, NULL);
	/* the page images in WAL compressed, as a local load's */
	wal_nest = pb_loader_compress_wal_begin(opts);
	result[0] = ds->fill_shards(opts, &progress);
	pb_loader_compress_wal_end(wal_nest);
	result[2] = pb_route_reference_rows();
	result[0] -= result[2];
	pb_route_forget();
	result[1] = 0;
	for (int i = 0; i < n; i++)
	{
		pb_shards_analyze(opts->nspname, TextDatumGetCString(shards[i]),
						  pb_count_equal(tables, n, tables[i]));
		result[1] += DatumGetInt64(DirectFunctionCall1(pg_total_relation_size,
													   ObjectIdGetDatum(shard_oids[i])));
	}
	pb_unpin_search_path(path_nest);
	SPI_finish();
}
