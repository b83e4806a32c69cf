/*-------------------------------------------------------------------------
 *
 * init_distributed.c
 *	  polarbench_init(..., distributed => true): a data set's tables made
 *	  Citus tables on a Citus coordinator, laid out as the data set says
 *	  (PbDataset.distribution): hash-distributed by a column, colocated, or
 *	  reference tables.
 *
 * The load itself is the one of a single server, in the caller's
 * transaction (or committed by a parallel load's workers under staging
 * names and renamed in it): the same rows, the same checks.  Then, still
 * in the caller's transaction, each table is handed to Citus's
 * create_distributed_table() or create_reference_table(), which copy its
 * rows to the shards on the workers, and its local copy on the
 * coordinator is truncated (truncate_local_data_after_distributing_table).
 * Citus commits the shards on every node with the caller's transaction,
 * in two phases: a load that fails or is canceled leaves the old tables
 * as they were on every node, or none.
 *
 * Every refusal comes before anything is written: a server without Citus,
 * a Citus worker, a role that may not call Citus's functions, options
 * that Citus cannot lay out (foreign keys that do not hold the
 * distribution columns, rows added to a data set already there).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "commands/dbcommands.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "load.h"
#include "registry.h"
#include "safe_sql.h"

/*
 * pb_distribute_check
 *		Refuse, before anything is written, a load with distributed => true
 *		that Citus could not lay out, and shard_count without it.  SPI
 *		connected.
 */
void
pb_distribute_check(const PbLoadOptions *opts)
{
	int			rc;
	bool		isnull;

	if (!opts->distributed)
	{
		if (opts->shard_count != 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("shard_count requires distributed => true"),
					 errhint("Give distributed => true as well, or leave shard_count out.")));
		return;
	}

	if (!OidIsValid(get_extension_oid("citus", true)))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("distributed => true needs a Citus coordinator"),
				 errdetail("The citus extension is not installed in database \"%s\".",
						   get_database_name(MyDatabaseId)),
				 errhint("Call polarbench_init on the coordinator of a Citus cluster, or leave distributed out.")));

	rc = pb_spi_execute_safe("select pg_catalog.citus_is_coordinator()",
							 0, NULL, NULL, true, 1);
	if (rc != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "could not ask Citus whether this node is its coordinator");
	if (!DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0],
									SPI_tuptable->tupdesc, 1, &isnull)) || isnull)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("distributed => true needs a Citus coordinator"),
				 errdetail("This node is a worker of a Citus cluster, or no node is in its metadata yet."),
				 errhint("Call polarbench_init on the coordinator, once citus_set_coordinator_host() and citus_add_node() have made its cluster.")));

	/* the functions it calls, as the calling role */
	rc = pb_spi_execute_safe("select p.oid::pg_catalog.regprocedure::pg_catalog.text"
							 "  from pg_catalog.pg_proc p"
							 " where p.pronamespace operator(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace"
							 "   and p.proname operator(pg_catalog.=) any ('{create_distributed_table,create_reference_table,truncate_local_data_after_distributing_table}'::pg_catalog.name[])"
							 "   and not pg_catalog.has_function_privilege(p.oid, 'execute')"
							 " order by p.proname",
							 0, NULL, NULL, true, 1);
	if (rc != SPI_OK_SELECT)
		elog(ERROR, "could not check the privileges on Citus's functions");
	if (SPI_processed > 0)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for function %s",
						SPI_getvalue(SPI_tuptable->vals[0],
									 SPI_tuptable->tupdesc, 1)),
				 errdetail("polarbench_init with distributed => true calls Citus's create_distributed_table, create_reference_table and truncate_local_data_after_distributing_table as the calling role."),
				 errhint("Grant the role EXECUTE on them, or load as a role that has it.")));

	if (opts->foreign_keys)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("distributed => true cannot be combined with foreign_keys => true"),
				 errdetail("Citus keeps a foreign key between distributed tables only when it holds their distribution columns, and the data set's foreign keys do not."),
				 errhint("Leave foreign_keys out, or load without distributed.")));
}

/*
 * pb_distribute_check_extension
 *		Refuse adding rows to a data set there (its prepare step decided
 *		to extend it) with distributed => true: only a new load is laid out
 *		on the cluster.  Called once the data set has looked at what is there.
 */
void
pb_distribute_check_extension(const PbLoadOptions *opts)
{
	if (opts->distributed && opts->extend)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("distributed => true cannot add to the data set in schema \"%s\"",
						opts->nspname),
				 errdetail("A distributed load makes the data set's tables anew."),
				 errhint("Drop the data set's tables first, or load without distributed.")));
}

/* A sequence a table owns, renamed while Citus distributes the table */
typedef struct PbOwnedSequence
{
	char	   *schema;			/* quoted */
	char	   *name;
	char	   *distributing;	/* its name meanwhile */
} PbOwnedSequence;

/* The prefix of that name */
#define PB_DISTRIBUTING_PREFIX	"pb_distributing_"

/* Rename seq to its name while distributed, or back to its own. */
static void
pb_distribute_rename_sequence(const PbOwnedSequence *seq, bool back)
{
	const char *from = back ? seq->distributing : seq->name;
	const char *to = back ? seq->name : seq->distributing;

	if (SPI_execute(psprintf("alter sequence %s.%s rename to %s", seq->schema,
							 quote_identifier(from), quote_identifier(to)),
					false, 0) != SPI_OK_UTILITY)
		elog(ERROR, "could not rename sequence %s", from);
}

/*
 * pb_distribute_rename_sequences
 *		Rename the sequences relid owns (a serial column's: sysbench's id)
 *		before Citus distributes the table, and return them, to be given
 *		back their names by pb_distribute_restore_sequences() once it is
 *		distributed.
 *
 * Citus creates on the workers a sequence that a new distributed table
 * owns over a connection of its own, committed at once (unless an object
 * it depends on was propagated in the caller's transaction).  When that
 * transaction has just dropped the old table of the same name (a data set
 * replaced), its connection to each worker has dropped the old sequence
 * of the same name: Citus's own connection waits for it, and Citus cancels
 * the load as a distributed deadlock.  Under another name, the new
 * sequence is made on the workers without waiting; renamed back, a
 * distributed sequence now, Citus renames it in the caller's transaction,
 * where the old one is gone.  polarbench's search_path pinned.
 */
static List *
pb_distribute_rename_sequences(Oid relid)
{
	Oid			type = OIDOID;
	Datum		value = ObjectIdGetDatum(relid);
	List	   *sequences = NIL;
	ListCell   *lc;

	if (SPI_execute_with_args("select pg_catalog.quote_ident(n.nspname), c.relname::pg_catalog.text"
							  "  from pg_catalog.pg_depend d"
							  "  join pg_catalog.pg_class c on c.oid operator(pg_catalog.=) d.objid"
							  "  join pg_catalog.pg_namespace n on n.oid operator(pg_catalog.=) c.relnamespace"
							  " where d.classid operator(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass"
							  "   and d.refclassid operator(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass"
							  "   and d.refobjid operator(pg_catalog.=) $1"
							  "   and d.deptype operator(pg_catalog.=) 'a'"
							  "   and c.relkind operator(pg_catalog.=) 'S'"
							  " order by c.relname",
							  1, &type, &value, NULL, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the sequences of table %u", relid);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		PbOwnedSequence *seq = palloc(sizeof(PbOwnedSequence));
		char		distributing[NAMEDATALEN];

		seq->schema = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);
		seq->name = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2);
		snprintf(distributing, sizeof(distributing), "%s%s", PB_DISTRIBUTING_PREFIX, seq->name);
		seq->distributing = pstrdup(distributing);
		sequences = lappend(sequences, seq);
	}
	foreach(lc, sequences)
		pb_distribute_rename_sequence(lfirst(lc), false);
	return sequences;
}

/*
 * pb_distribute_restore_sequences
 *		Give the sequences pb_distribute_rename_sequences() renamed their
 *		names back, on every node.
 */
static void
pb_distribute_restore_sequences(List *sequences)
{
	ListCell   *lc;

	foreach(lc, sequences)
		pb_distribute_rename_sequence(lfirst(lc), true);
}

/*
 * pb_distribute_tables
 *		Make the data set's tables, loaded in the caller's transaction, Citus
 *		tables as the data set lays them out, and truncate their local rows
 *		on the coordinator.  SPI connected; polarbench's search_path pinned.
 *		Citus's notices (the local rows it copies and leaves on disk, which
 *		this truncates) are left out of what the caller sees.
 */
void
pb_distribute_tables(const PbLoadOptions *opts)
{
	const PbDataset *ds = pb_dataset_at(opts->dataset);
	List	   *tables = ds->distribution(opts);
	ListCell   *lc;
	int			nest_level = NewGUCNestLevel();
	int			path_nest;

	(void) set_config_option("client_min_messages", "warning", PGC_USERSET,
							 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	path_nest = pb_pin_search_path();
	foreach(lc, tables)
	{
		PbDistributedTable *t = lfirst(lc);
		Oid			relid = pb_loader_relid(opts, t->table);
		Oid			types[4] = {REGCLASSOID, TEXTOID, TEXTOID, INT4OID};
		Datum		values[4];
		char		nulls[4] = {' ', ' ', ' ', ' '};
		List	   *sequences = pb_distribute_rename_sequences(relid);
		int			rc;

		values[0] = ObjectIdGetDatum(relid);
		if (t->column == NULL)
			rc = SPI_execute_with_args("select pg_catalog.create_reference_table($1)",
									   1, types, values, NULL, false, 0);
		else
		{
			values[1] = CStringGetTextDatum(t->column);
			values[2] = CStringGetTextDatum(t->colocate_with == NULL ? "none" :
											pb_loader_qualify(opts, t->colocate_with));
			values[3] = Int32GetDatum(opts->shard_count);
			/* a table colocated with another has its shards */
			if (opts->shard_count == 0 || t->colocate_with != NULL)
				nulls[3] = 'n';
			rc = SPI_execute_with_args("select pg_catalog.create_distributed_table($1, $2,"
									   " colocate_with => $3, shard_count => $4)",
									   4, types, values, nulls, false, 0);
		}
		if (rc != SPI_OK_SELECT)
			elog(ERROR, "could not distribute table \"%s\"", t->table);
		pb_distribute_restore_sequences(sequences);
	}
	foreach(lc, tables)
	{
		PbDistributedTable *t = lfirst(lc);
		Oid			type = REGCLASSOID;
		Datum		value = ObjectIdGetDatum(pb_loader_relid(opts, t->table));

		if (SPI_execute_with_args("select pg_catalog.truncate_local_data_after_distributing_table($1)",
								  1, &type, &value, NULL, false, 0) != SPI_OK_SELECT)
			elog(ERROR, "could not truncate the local rows of table \"%s\"",
				 t->table);
	}
	pb_unpin_search_path(path_nest);
	AtEOXact_GUC(true, nest_level);
}
