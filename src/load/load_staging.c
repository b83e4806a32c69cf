/*-------------------------------------------------------------------------
 *
 * load_staging.c
 *	  How a load replaces the tables that are there without ever leaving
 *	  fewer than before: the old tables are dropped in the same transaction
 *	  that makes the new ones visible under their names.
 *
 * A serial load does everything in the caller's transaction, so it is
 * all or nothing by itself.  A parallel load cannot: each worker commits
 * the tables it filled in a transaction of its own.  So its workers create
 * every relation under a staging name, the prefix "pbload_<xid>_" (the
 * caller's transaction id) before the final name, and commit; the caller
 * then drops the old tables and renames the staging relations (tables,
 * their indexes and sequences) to their final names, in its own
 * transaction.  If that transaction aborts, the old tables are there as
 * they were; if the caller fails while it waits, worker 0 drops the
 * staging tables (functions/init_parallel.c); if the server crashes, or the caller's
 * statement fails after polarbench_init returned, staging tables are left,
 * and the next load into the schema drops them: those whose transaction
 * is over and that the loading role owns.
 *
 * Before anything is written, a load also checks that no relation by a
 * name it creates is in the way, other than those it replaces.
 *
 * An extension (opts->extend: TPC-C's warehouses added to a smaller data
 * set) replaces nothing: its jobs, serial or parallel, fill tables under
 * staging names, and the caller's transaction appends their rows to the
 * tables of the final names and drops them (pb_staging_append()).  The
 * rows already there are not rewritten, and the appended ones appear all
 * at once, or never; what a crash leaves is dropped by the next load, as
 * above.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/transam.h"
#include "access/xact.h"
#include "catalog/dependency.h"
#include "catalog/index.h"
#include "catalog/partition.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "storage/procarray.h"
#include "utils/builtins.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/lsyscache.h"

#include "load.h"
#include "safe_sql.h"


/*
 * pb_staging_done
 *		Whether the load that named a relation relname is over: its
 *		transaction is neither this one nor in progress.  false for a name
 *		that is not a staging name.
 */
static bool
pb_staging_done(const char *relname)
{
	FullTransactionId next = ReadNextFullTransactionId();
	uint64		fxid;
	const char *final;

	if (!pb_staging_parse(relname, &fxid, &final))
		return false;
	if (fxid >= U64FromFullTransactionId(next))
		return false;			/* not a transaction of this server */
	if (U64FromFullTransactionId(next) - fxid >= (UINT64CONST(1) << 31))
		return true;			/* ended long ago */
	if (TransactionIdEquals((TransactionId) fxid, GetTopTransactionIdIfAny()))
		return false;
	return !TransactionIdIsInProgress((TransactionId) fxid);
}

/*
 * pb_staging_tables
 *		The staging tables in the load's schema that the current role owns,
 *		whose names start with prefix, as far as the statement's snapshot
 *		sees: what loads that are over left.
 */
static List *
pb_staging_tables(const PbLoadOptions *opts)
{
	const char *prefix = PB_STAGING_PREFIX;
	Oid			types[2] = {OIDOID, TEXTOID};
	Datum		values[2];
	List	   *names = NIL;

	values[0] = ObjectIdGetDatum(opts->nspid);
	values[1] = CStringGetTextDatum(prefix);
	if (pb_spi_execute_safe("select c.relname::text from pg_catalog.pg_class c"
							" where c.relnamespace = $1 and c.relkind in ('r', 'p')"
							"   and pg_catalog.starts_with(c.relname::text, $2)"
							"   and pg_catalog.pg_has_role(c.relowner, 'USAGE')"
							"   and not c.relispartition order by 1",
							2, types, values, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not list staging tables");
	for (uint64 i = 0; i < SPI_processed; i++)
		names = lappend(names, SPI_getvalue(SPI_tuptable->vals[i],
											SPI_tuptable->tupdesc, 1));
	return names;
}

/*
 * pb_staging_drop_orphans
 *		Drop the staging tables that loads into this schema left behind
 *		(their transaction is over) and that the current role may drop.
 */
void
pb_staging_drop_orphans(const PbLoadOptions *opts)
{
	ListCell   *lc;

	foreach(lc, pb_staging_tables(opts))
	{
		char	   *name = lfirst(lc);

		if (pb_staging_done(name))
			pb_loader_sql("drop table if exists %s",
						  quote_qualified_identifier(opts->nspname, name));
	}
}

/*
 * pb_staging_created_names
 *		The names of every relation the load of data set ds creates, tables
 *		first.
 */
static List *
pb_staging_created_names(const PbDataset *ds, const PbLoadOptions *opts)
{
	List	   *tables;
	List	   *others;

	ds->created_names(opts, &tables, &others);
	return list_concat(tables, others);
}

/*
 * pb_staging_drop
 *		Drop the staging tables of this load (opts->staging_prefix) that are
 *		there.
 */
void
pb_staging_drop(const PbDataset *ds, const PbLoadOptions *opts)
{
	ListCell   *lc;

	foreach(lc, pb_staging_created_names(ds, opts))
	{
		const char *staged = pb_loader_name(opts, lfirst(lc));
		Oid			relid = get_relname_relid(staged, opts->nspid);
		char		kind = OidIsValid(relid) ? get_rel_relkind(relid) : '\0';

		if (kind == RELKIND_RELATION || kind == RELKIND_PARTITIONED_TABLE)
			pb_loader_sql("drop table if exists %s",
						  quote_qualified_identifier(opts->nspname, staged));
	}
}

/*
 * pb_staging_promote
 *		Give every staging relation of this load (tables, indexes and
 *		sequences) its final name.  The old tables must be gone.  Looked up
 *		through the catalog caches, which see what the workers committed
 *		whatever the caller's snapshot.
 */
void
pb_staging_promote(const PbDataset *ds, const PbLoadOptions *opts)
{
	ListCell   *lc;

	foreach(lc, pb_staging_created_names(ds, opts))
	{
		const char *name = lfirst(lc);
		const char *staged = pb_loader_name(opts, name);
		Oid			relid = get_relname_relid(staged, opts->nspid);
		char		kind;

		if (!OidIsValid(relid))
			continue;
		kind = get_rel_relkind(relid);
		pb_loader_sql("alter %s %s rename to %s",
					  kind == RELKIND_INDEX || kind == RELKIND_PARTITIONED_INDEX ? "index" :
					  kind == RELKIND_SEQUENCE ? "sequence" : "table",
					  quote_qualified_identifier(opts->nspname, staged),
					  quote_identifier(name));
	}
}

/*
 * pb_replaced_by
 *		Whether relation relid goes when the tables of drop are dropped: it
 *		is one of them, or an index, a partition or an owned sequence of one.
 */
static bool
pb_replaced_by(Oid relid, List *drop)
{
	char		kind = get_rel_relkind(relid);
	Oid			owner = InvalidOid;
	int32		column;

	if (list_member_oid(drop, relid))
		return true;
	if (kind == RELKIND_INDEX || kind == RELKIND_PARTITIONED_INDEX)
		return pb_replaced_by(IndexGetRelation(relid, false), drop);
	if (kind == RELKIND_SEQUENCE &&
		(sequenceIsOwned(relid, DEPENDENCY_AUTO, &owner, &column) ||
		 sequenceIsOwned(relid, DEPENDENCY_INTERNAL, &owner, &column)))
		return pb_replaced_by(owner, drop);
	if ((kind == RELKIND_RELATION || kind == RELKIND_PARTITIONED_TABLE) &&
		get_rel_relispartition(relid))
		return pb_replaced_by(get_partition_parent(relid, false), drop);
	return false;
}

/*
 * pb_staging_check_name
 *		The name a load gives a relation must be free, or taken by something
 *		the load replaces (drop: the tables replaced and what goes with
 *		them); a table's name must also be free as a type's name.
 */
static void
pb_staging_check_name(const PbLoadOptions *opts, const char *name,
					  bool table, List *drop)
{
	Oid			relid = get_relname_relid(name, opts->nspid);
	Oid			typid;

	if (OidIsValid(relid) && !pb_replaced_by(relid, drop))
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_TABLE),
				 errmsg("relation \"%s.%s\" already exists",
						opts->nspname, name),
				 errdetail("polarbench_init creates a relation of that name, and \"%s\" is not one of the tables it replaces or part of one.",
						   name),
				 errhint("Drop or rename it, or load into another schema.")));
	if (!table)
		return;
	typid = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
							CStringGetDatum(name), ObjectIdGetDatum(opts->nspid));
	if (OidIsValid(typid) &&
		!(OidIsValid(get_typ_typrelid(typid)) &&
		  pb_replaced_by(get_typ_typrelid(typid), drop)))
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg("type \"%s.%s\" already exists", opts->nspname, name),
				 errdetail("polarbench_init creates a table of that name, whose row type would take the type's name."),
				 errhint("Drop or rename the type, or load into another schema.")));
}

/*
 * pb_staging_check_names
 *		Before anything is written: every relation name the load of data
 *		set ds creates must be free, or taken by something the load replaces, the tables of
 *		replaced and what goes with them.
 */
void
pb_staging_check_names(const PbDataset *ds, const PbLoadOptions *opts,
					   List *replaced)
{
	List	   *drop = NIL;
	List	   *tables;
	List	   *others;
	ListCell   *lc;

	foreach(lc, replaced)
	{
		Oid			relid = get_relname_relid(lfirst(lc), opts->nspid);

		if (OidIsValid(relid))
			drop = lappend_oid(drop, relid);
	}
	ds->created_names(opts, &tables, &others);
	foreach(lc, tables)
		pb_staging_check_name(opts, lfirst(lc), true, drop);
	foreach(lc, others)
		pb_staging_check_name(opts, lfirst(lc), false, drop);
}

/*
 * pb_staging_drop_replaced
 *		Drop the tables of names that are there, in one command as pgbench
 *		-i does.
 */
void
pb_staging_drop_replaced(const PbLoadOptions *opts, List *names)
{
	StringInfoData drop;
	ListCell   *lc;

	initStringInfo(&drop);
	foreach(lc, names)
	{
		if (OidIsValid(get_relname_relid(lfirst(lc), opts->nspid)))
			appendStringInfo(&drop, "%s%s", drop.len > 0 ? ", " : "",
							 quote_qualified_identifier(opts->nspname,
														lfirst(lc)));
	}
	if (drop.len > 0)
		pb_loader_sql("drop table %s", drop.data);
}

/*
 * pb_staging_append
 *		An extension's last step, in the caller's transaction: append the
 *		rows of every staging table of this load (opts->staging_prefix) to
 *		the table of its final name, in the order the data set lists them
 *		(referenced tables first), and drop it.  The tables have the same
 *		columns: the data set's prepare step checked it.
 */
void
pb_staging_append(const PbDataset *ds, const PbLoadOptions *opts)
{
	List	   *tables;
	List	   *others;
	ListCell   *lc;

	ds->created_names(opts, &tables, &others);
	foreach(lc, tables)
	{
		const char *name = lfirst(lc);
		const char *staged = pb_loader_name(opts, name);
		char	   *qstaged = quote_qualified_identifier(opts->nspname, staged);

		if (!OidIsValid(get_relname_relid(staged, opts->nspid)))
			elog(ERROR, "table \"%s\" was not loaded", staged);
		pb_loader_sql("insert into %s select * from %s",
					  quote_qualified_identifier(opts->nspname, name), qstaged);
		pb_loader_sql("drop table %s", qstaged);
	}
}
