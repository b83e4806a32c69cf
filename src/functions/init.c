/*-------------------------------------------------------------------------
 *
 * init.c
 *	  polarbench_init(): create and fill pgbench's, sysbench's, YCSB's or
 *	  TPC-C's tables inside the server.
 *
 * This file holds the SQL entry point: it checks every argument before
 * anything is written, resolves the schema the tables go to (the first of
 * search_path, as pgbench and sysbench would), lets the data set look at
 * what is there (it may decide to add to it: TPC-C's warehouses), drops or
 * refuses tables already there, then runs the data set's jobs, in the
 * caller's transaction or, with parallel > 1, in background workers (see
 * init_parallel.c).  Everything runs as the calling role: DDL through SPI,
 * rows inserted into tables that role just created.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "portability/instr_time.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "admission.h"
#include "worker.h"
#include "args.h"
#include "load.h"
#include "registry.h"
#include "settings_journal.h"
#include "safe_sql.h"

PG_FUNCTION_INFO_V1(polarbench_init);

/*
 * polarbench_init()'s arguments, in order.  Those that only some data sets
 * read default to NULL in the signature, so that one given can be told
 * from one left out, whatever its value: a data set refuses those it does
 * not read, and takes the default here for those left out.  The others
 * every data set reads (wal_compression's NULL is a value of its own).
 */
static const struct
{
	const char *name;
	Oid			type;
	const char *dataset_default;	/* NULL: every data set reads it */
}			pb_init_args[] = {
	{"dataset", TEXTOID, NULL},
	{"scale", INT4OID, "1"},
	{"tables", INT4OID, "1"},
	{"table_size", INT4OID, "10000"},
	{"records", INT8OID, "1000"},
	{"fields", INT4OID, "10"},
	{"field_length", INT4OID, "100"},
	{"parallel", INT4OID, NULL},
	{"fillfactor", INT4OID, NULL},
	{"unlogged", BOOLOID, NULL},
	{"partitions", INT4OID, "0"},
	{"partition_method", TEXTOID, "range"},
	{"foreign_keys", BOOLOID, "false"},
	{"drop", BOOLOID, NULL},
	{"progress", BOOLOID, NULL},
	{"wal_compression", BOOLOID, NULL},
	{"warehouses", INT4OID, "1"},
	{"distributed", BOOLOID, NULL},
	{"shard_count", INT4OID, NULL},
};

#define PB_INIT_NARGS				lengthof(pb_init_args)
#define PB_INIT_WAL_COMPRESSION		15
#define PB_INIT_DISTRIBUTED			17
#define PB_INIT_SHARD_COUNT			18

/* Citus's most shards of a table (its MAX_SHARD_COUNT) */
#define PB_MAX_SHARD_COUNT			64000

static void pb_init_parse(FunctionCallInfo fcinfo, PbLoadOptions *opts,
						  bool *given);
static void pb_init_check_given(const PbLoadOptions *opts, const bool *given);
static void pb_init_check_common(const PbLoadOptions *opts);
static bool pb_dataset_reads(const PbDataset *ds, const char *argument);
static int64 pb_init_bytes(const PbLoadOptions *opts, List *names);
static int64 pb_init_serial(const PbLoadOptions *opts, List *names);

/*
 * polarbench_init(dataset, scale, tables, table_size, records, fields,
 * field_length, parallel, fillfactor, unlogged, partitions,
 * partition_method, foreign_keys, drop, progress, wal_compression,
 * warehouses, distributed, shard_count): load a data set and return one
 * row (dataset, tables, rows, bytes, seconds, rows_per_second).
 */
Datum
polarbench_init(PG_FUNCTION_ARGS)
{
	PbLoadOptions opts;
	bool		given[PB_INIT_NARGS];
	const PbDataset *ds;
	List	   *names;
	ListCell   *lc;
	TupleDesc	tupdesc;
	Datum		values[6];
	bool		nulls[6] = {false};
	instr_time	start;
	instr_time	elapsed;
	double		seconds;
	int64		rows = 0;
	int64		bytes;
	AclResult	aclresult;

	pb_journal_recover();

	INSTR_TIME_SET_CURRENT(start);
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	pb_refuse_in_worker("polarbench_init");

	/* Everything is checked before anything is written. */
	pb_init_parse(fcinfo, &opts, given);
	pb_init_check_given(&opts, given);
	pb_init_check_common(&opts);
	ds = pb_dataset_at(opts.dataset);
	ds->check(&opts);

	names = ds->table_names(&opts);
	opts.nspid = RangeVarGetCreationNamespace(makeRangeVar(NULL,
														   linitial(names),
														   -1));
	if (isTempNamespace(opts.nspid))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("polarbench_init cannot create its tables in a temporary schema"),
				 errhint("Put a permanent schema first in search_path.")));
	aclresult = pb_namespace_aclcheck(opts.nspid, GetUserId(), ACL_CREATE);
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, OBJECT_SCHEMA,
					   get_namespace_name(opts.nspid));
	strlcpy(opts.nspname, get_namespace_name(opts.nspid), NAMEDATALEN);

	if (opts.parallel > 1 && IsTransactionBlock())
		ereport(ERROR,
				(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				 errmsg("polarbench_init with parallel > 1 cannot run inside a transaction block"),
				 errdetail("Each loader worker commits the tables it loads in a transaction of its own."),
				 errhint("Call it outside BEGIN ... COMMIT, or with parallel => 1.")));

	/* loader workers log in as the current role */
	if (opts.parallel > 1)
		pb_check_role_can_login("Loader workers log in as the role that calls polarbench_init.",
								"Load with parallel => 1, or as a role with LOGIN.");

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	pb_distribute_check(&opts);

	/* what is there, and what every job shares */
	if (ds->prepare)
		ds->prepare(&opts);
	pb_distribute_check_extension(&opts);
	opts.total_rows = ds->total_rows(&opts);

	if (!opts.drop && !opts.extend)
	{
		foreach(lc, names)
		{
			char	   *name = lfirst(lc);

			if (OidIsValid(get_relname_relid(name, opts.nspid)))
				ereport(ERROR,
						(errcode(ERRCODE_DUPLICATE_TABLE),
						 errmsg("table \"%s.%s\" already exists",
								opts.nspname, name),
						 errhint("Drop it first, or call polarbench_init with drop => true to replace it.")));
		}
	}

	/* what interrupted loads left; then nothing may be in the way */
	pb_staging_drop_orphans(&opts);
	if (!opts.extend)
		pb_staging_check_names(ds, &opts, names);
	if (pb_shards_load_on_nodes(&opts))
		pb_shards_check(&opts);

	if (pb_shards_load_on_nodes(&opts))
	{
		PbLoadOptions empty = opts;
		int			sequential = pb_shards_sequential_begin();

		/*
		 * The tables, created empty by the data set's own steps (every row
		 * dropped), then filled on the nodes (init_shards.c)
		 */
		empty.progress = false;
		pb_route_add(InvalidOid, InvalidAttrNumber, 0, NULL, NULL, NULL);
		(void) pb_init_serial(&empty, names);
		pb_route_forget();
		rows = pb_shards_load(&opts, &bytes);
		pb_shards_sequential_end(sequential);
	}
	else
	{
		if (opts.parallel > 1 && ds->njobs(&opts, true) > 1)
			rows = pb_loader_run_parallel(&opts, names);
		else
			rows = pb_init_serial(&opts, names);

		/*
		 * As loaded here: Citus cannot tell the shards' sizes in the
		 * transaction that copies rows to them.
		 */
		bytes = pb_init_bytes(&opts, names);
		if (opts.distributed)
			pb_distribute_tables(&opts);
	}
	SPI_finish();

	INSTR_TIME_SET_CURRENT(elapsed);
	INSTR_TIME_SUBTRACT(elapsed, start);
	seconds = INSTR_TIME_GET_DOUBLE(elapsed);

	values[0] = CStringGetTextDatum(ds->name);
	values[1] = Int32GetDatum(list_length(names));
	values[2] = Int64GetDatum(rows);
	values[3] = Int64GetDatum(bytes);
	values[4] = Float8GetDatum(seconds);
	values[5] = Float8GetDatum(seconds > 0 ? rows / seconds : 0);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values,
													  nulls)));
}

/*
 * Run the load described by opts in the caller's transaction, replacing
 * the tables of names, or for an extension filling staging tables and
 * appending their rows to the tables there.  Returns the number of rows
 * inserted.
 */
static int64
pb_init_serial(const PbLoadOptions *opts, List *names)
{
	const PbDataset *ds = pb_dataset_at(opts->dataset);
	PbLoadOptions staged = *opts;
	PbProgress	progress;
	int			njobs = ds->njobs(opts, false);
	int			nest_level = pb_loader_compress_wal_begin(opts);
	int64		rows = 0;

	/* in the same transaction as the new rows: all or nothing */
	if (opts->extend)
		pb_staging_set_prefix(&staged);
	else
		pb_staging_drop_replaced(opts, names);

	pb_progress_init(&progress, opts->total_rows, opts->progress, NULL);
	for (int job = 0; job < njobs; job++)
		rows += ds->run_job(&staged, job, false, &progress);
	if (opts->extend)
		pb_staging_append(ds, &staged);
	ds->finish(opts, false);
	pb_loader_compress_wal_end(nest_level);
	return rows;
}

/*
 * pb_init_argument_default
 *		The value polarbench_init() takes for an argument that only some data
 *		sets read when it is left out, as text; NULL for one every data set
 *		reads (its default is in the signature).
 */
const char *
pb_init_argument_default(const char *argument)
{
	for (int i = 0; i < lengthof(pb_init_args); i++)
		if (strcmp(pb_init_args[i].name, argument) == 0)
			return pb_init_args[i].dataset_default;
	return NULL;
}

/*
 * pb_init_left_out
 *		Whether argument i was left out: NULL, or past the arguments of the
 *		signature of an older version of the extension, not yet updated.
 */
static bool
pb_init_left_out(FunctionCallInfo fcinfo, int i)
{
	return i >= PG_NARGS() || PG_ARGISNULL(i);
}

/*
 * pb_init_signature_defaults
 *		Whether the signature of the polarbench_init() called gives the
 *		arguments that only some data sets read defaults of their own, as
 *		before 1.5: then one at that default cannot be told from one left
 *		out, and counts as left out.
 */
static bool
pb_init_signature_defaults(FunctionCallInfo fcinfo)
{
	HeapTuple	tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(fcinfo->flinfo->fn_oid));
	bool		own = false;
	bool		isnull;
	Datum		d;

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for function %u", fcinfo->flinfo->fn_oid);
	d = SysCacheGetAttr(PROCOID, tuple, Anum_pg_proc_proargdefaults, &isnull);
	if (!isnull)
	{
		List	   *defaults = castNode(List, stringToNode(TextDatumGetCString(d)));
		Node	   *first = defaults != NIL ? linitial(defaults) : NULL;

		/* the first default is scale's, the first argument after dataset */
		own = first != NULL && !(IsA(first, Const) && ((Const *) first)->constisnull);
	}
	ReleaseSysCache(tuple);
	return own;
}

/* Argument i, an int, or its data sets' default when left out. */
static int32
pb_init_int(FunctionCallInfo fcinfo, int i)
{
	return pb_init_left_out(fcinfo, i) ? pg_strtoint32(pb_init_args[i].dataset_default) :
		PG_GETARG_INT32(i);
}

/* Argument i, a bigint, or its data sets' default when left out. */
static int64
pb_init_int64(FunctionCallInfo fcinfo, int i)
{
	return pb_init_left_out(fcinfo, i) ? pg_strtoint64(pb_init_args[i].dataset_default) :
		PG_GETARG_INT64(i);
}

/* Argument i, a boolean, or its data sets' default when left out. */
static bool
pb_init_bool(FunctionCallInfo fcinfo, int i)
{
	bool		value = false;

	if (!pb_init_left_out(fcinfo, i))
		return PG_GETARG_BOOL(i);
	if (!parse_bool(pb_init_args[i].dataset_default, &value))
		elog(ERROR, "bad default of argument \"%s\"", pb_init_args[i].name);
	return value;
}

/*
 * Read polarbench_init()'s arguments into opts, and into given[] which of
 * those only some data sets read were given.  None of those every data set
 * reads may be NULL but wal_compression, whose NULL means: where the data
 * set's pages compress; the others' NULL is their default.
 */
static void
pb_init_parse(FunctionCallInfo fcinfo, PbLoadOptions *opts, bool *given)
{
	char	   *dataset;
	char	   *method;
	bool		signature_defaults = pb_init_signature_defaults(fcinfo);
	int			i;

	/* (those the signature of an older version lacks are left out) */
	for (i = 0; i < PB_INIT_NARGS; i++)
		if (i < PG_NARGS() && PG_ARGISNULL(i) &&
			pb_init_args[i].dataset_default == NULL &&
			i != PB_INIT_WAL_COMPRESSION && i != PB_INIT_SHARD_COUNT)
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("argument \"%s\" of polarbench_init must not be null",
							pb_init_args[i].name)));
	for (i = 0; i < PB_INIT_NARGS; i++)
	{
		Oid			input;
		Oid			ioparam;
		Datum		fallback;

		given[i] = pb_init_args[i].dataset_default != NULL && !pb_init_left_out(fcinfo, i);
		if (!given[i] || !signature_defaults)
			continue;
		/* before 1.5: given if it is not the default */
		getTypeInputInfo(pb_init_args[i].type, &input, &ioparam);
		fallback = OidInputFunctionCall(input, unconstify(char *, pb_init_args[i].dataset_default),
										ioparam, -1);
		if (pb_init_args[i].type == TEXTOID)
			given[i] = strcmp(TextDatumGetCString(PG_GETARG_DATUM(i)),
							  TextDatumGetCString(fallback)) != 0;
		else
			given[i] = !datumIsEqual(PG_GETARG_DATUM(i), fallback, true, sizeof(Datum));
	}

	memset(opts, 0, sizeof(PbLoadOptions));
	dataset = text_to_cstring(PG_GETARG_TEXT_PP(0));
	opts->dataset = pb_dataset_named(dataset);

	opts->scale = pb_init_int(fcinfo, 1);
	opts->tables = pb_init_int(fcinfo, 2);
	opts->table_size = pb_init_int(fcinfo, 3);
	opts->records = pb_init_int64(fcinfo, 4);
	opts->fields = pb_init_int(fcinfo, 5);
	opts->field_length = pb_init_int(fcinfo, 6);
	opts->parallel = PG_GETARG_INT32(7);
	opts->fillfactor = PG_GETARG_INT32(8);
	opts->unlogged = PG_GETARG_BOOL(9);
	opts->partitions = pb_init_int(fcinfo, 10);
	method = pb_init_left_out(fcinfo, 11) ? pstrdup(pb_init_args[11].dataset_default) :
		text_to_cstring(PG_GETARG_TEXT_PP(11));
	opts->foreign_keys = pb_init_bool(fcinfo, 12);
	opts->drop = PG_GETARG_BOOL(13);
	opts->progress = PG_GETARG_BOOL(14);
	opts->warehouses = pb_init_int(fcinfo, 16);
	opts->distributed = !pb_init_left_out(fcinfo, PB_INIT_DISTRIBUTED) &&
		PG_GETARG_BOOL(PB_INIT_DISTRIBUTED);
	/* not given: citus.shard_count */
	if (!pb_init_left_out(fcinfo, PB_INIT_SHARD_COUNT))
	{
		opts->shard_count = PG_GETARG_INT32(PB_INIT_SHARD_COUNT);
		pb_check_range("shard_count", opts->shard_count, 1, PB_MAX_SHARD_COUNT,
					   "shard_count is the number of shards of each distributed table; leave it out for citus.shard_count.");
	}
	/* not given: where the data set's pages compress */
	opts->wal_compression = pb_init_left_out(fcinfo, PB_INIT_WAL_COMPRESSION) ?
		pb_dataset_at(opts->dataset)->compressible :
		PG_GETARG_BOOL(PB_INIT_WAL_COMPRESSION);

	if (pg_strcasecmp(method, "range") == 0)
		opts->partition_method = PB_PART_RANGE;
	else if (pg_strcasecmp(method, "hash") == 0)
		opts->partition_method = PB_PART_HASH;
	else
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown partition method \"%s\"", method),
				 errhint("Valid partition methods are \"range\" and \"hash\".")));
	opts->partition_method_given = given[11];
}

/*
 * Refuse the arguments given that the data set does not read, naming them,
 * with those it does read in the hint: a load must not leave out silently
 * what its caller asked for.
 */
static void
pb_init_check_given(const PbLoadOptions *opts, const bool *given)
{
	const PbDataset *ds = pb_dataset_at(opts->dataset);
	StringInfoData unread;
	StringInfoData reads;
	int			nunread = 0;
	int			nreads = 0;
	int			seen = 0;

	for (int i = 0; i < PB_INIT_NARGS; i++)
		if (given[i] && !pb_dataset_reads(ds, pb_init_args[i].name))
			nunread++;
	if (nunread == 0)
		return;

	/* "a", "a and b", "a, b and c" */
	initStringInfo(&unread);
	for (int i = 0; i < PB_INIT_NARGS; i++)
		if (given[i] && !pb_dataset_reads(ds, pb_init_args[i].name))
		{
			seen++;
			appendStringInfo(&unread, "%s%s",
							 seen == 1 ? "" : seen == nunread ? " and " : ", ",
							 pb_init_args[i].name);
		}
	for (const PbDatasetOption *o = ds->options; o->argument != NULL; o++)
		nreads++;
	initStringInfo(&reads);
	seen = 0;
	for (const PbDatasetOption *o = ds->options; o->argument != NULL; o++)
	{
		seen++;
		appendStringInfo(&reads, "%s%s",
						 seen == 1 ? "" : seen == nreads ? " and " : ", ",
						 o->argument);
	}
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg_plural("data set \"%s\" does not take argument %s",
						   "data set \"%s\" does not take arguments %s",
						   nunread, ds->name, unread.data),
			 nreads == 0 ?
			 errhint("It takes no arguments of its own, only those every data set takes: parallel, fillfactor, unlogged, drop, progress and wal_compression.") :
			 errhint("It takes %s, and those every data set takes: parallel, fillfactor, unlogged, drop, progress and wal_compression.",
					 reads.data)));
}

/*
 * pb_dataset_reads
 *		Whether a data set reads an argument of polarbench_init() of its own
 *		(beyond those every data set reads).
 */
static bool
pb_dataset_reads(const PbDataset *ds, const char *argument)
{
	for (const PbDatasetOption *o = ds->options; o->argument != NULL; o++)
		if (strcmp(o->argument, argument) == 0)
			return true;
	return false;
}

/*
 * Check the options every data set shares.
 */
static void
pb_init_check_common(const PbLoadOptions *opts)
{
	pb_check_range("parallel", opts->parallel, 1, PB_MAX_PARALLEL,
				   "parallel is the number of loader workers.");
	pb_check_range("fillfactor", opts->fillfactor, 10, 100, NULL);
}

/*
 * Total size of the tables in names, with their partitions, indexes and
 * TOAST data.
 */
static int64
pb_init_bytes(const PbLoadOptions *opts, List *names)
{
	StringInfoData sql;
	ListCell   *lc;
	bool		isnull;
	Datum		d;

	initStringInfo(&sql);
	appendStringInfoString(&sql,
						   "select coalesce(sum(pg_catalog.pg_total_relation_size(coalesce(p.relid, t.r))), 0)::int8"
						   " from (values ");
	foreach(lc, names)
		appendStringInfo(&sql, "%s(%s::regclass)",
						 lc == list_head(names) ? "" : ", ",
						 quote_literal_cstr(pb_loader_qualify(opts,
															  lfirst(lc))));
	appendStringInfoString(&sql,
						   ") t(r) left join lateral pg_catalog.pg_partition_tree(t.r) p on true");
	if (pb_spi_execute_safe(sql.data, 0, NULL, NULL, true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not compute the size of the tables loaded");
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1,
					  &isnull);
	return isnull ? 0 : DatumGetInt64(d);
}
