/*-------------------------------------------------------------------------
 *
 * load_entry.c
 *	  polarbench_init(): create and fill pgbench's, sysbench's, YCSB's or
 *	  TPC-C's tables inside the server.
 *
 * This file holds the SQL entry point: it checks every argument before
 * anything is written, resolves the schema the tables go to (the first of
 * search_path, as pgbench and sysbench would), lets the data set look at
 * what is there (it may decide to add to it: TPC-C's warehouses), drops or
 * refuses tables already there, then runs the data set's jobs, in the
 * caller's transaction or, with parallel > 1, in background workers (see
 * load_parallel.c).  Everything runs as the calling role: DDL through SPI,
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
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "portability/instr_time.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "admission.h"
#include "worker.h"
#include "args.h"
#include "load.h"
#include "settings_journal.h"
#include "safe_sql.h"

PG_FUNCTION_INFO_V1(polarbench_init);

/* polarbench_init()'s arguments, in order */
static const char *const pb_init_argnames[] = {
	"dataset", "scale", "tables", "table_size", "records", "fields",
	"field_length", "parallel", "fillfactor", "unlogged", "partitions",
	"partition_method", "foreign_keys", "drop", "progress", "wal_compression",
	"warehouses"
};

static void pb_init_parse(FunctionCallInfo fcinfo, PbLoadOptions *opts);
static void pb_init_check_common(const PbLoadOptions *opts);
static int64 pb_init_bytes(const PbLoadOptions *opts, List *names);
static int64 pb_init_serial(const PbLoadOptions *opts, List *names);

/*
 * polarbench_init(dataset, scale, tables, table_size, records, fields,
 * field_length, parallel, fillfactor, unlogged, partitions,
 * partition_method, foreign_keys, drop, progress, wal_compression,
 * warehouses): load a data set and return one row (dataset, tables, rows,
 * bytes, seconds, rows_per_second).
 */
Datum
polarbench_init(PG_FUNCTION_ARGS)
{
	PbLoadOptions opts;
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
	pb_init_parse(fcinfo, &opts);
	pb_init_check_common(&opts);
	ds = pb_loader_dataset(opts.dataset);
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

	/* what is there, and what every job shares */
	if (ds->prepare)
		ds->prepare(&opts);
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
		pb_staging_check_names(&opts, names);

	if (opts.parallel > 1 && ds->njobs(&opts, true) > 1)
		rows = pb_loader_run_parallel(&opts, names);
	else
		rows = pb_init_serial(&opts, names);

	bytes = pb_init_bytes(&opts, names);
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
	const PbDataset *ds = pb_loader_dataset(opts->dataset);
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
		pb_staging_append(&staged);
	ds->finish(opts, false);
	pb_loader_compress_wal_end(nest_level);
	return rows;
}

/*
 * Read polarbench_init()'s arguments into opts.  None may be NULL but
 * wal_compression, whose NULL means: where the data set's pages compress.
 */
static void
pb_init_parse(FunctionCallInfo fcinfo, PbLoadOptions *opts)
{
	char	   *dataset;
	char	   *method;
	int			i;

	for (i = 0; i < lengthof(pb_init_argnames); i++)
		if (PG_ARGISNULL(i) && strcmp(pb_init_argnames[i], "wal_compression") != 0)
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("argument \"%s\" of polarbench_init must not be null",
							pb_init_argnames[i])));

	memset(opts, 0, sizeof(PbLoadOptions));
	dataset = text_to_cstring(PG_GETARG_TEXT_PP(0));
	opts->dataset = pb_dataset_find(dataset);
	if (opts->dataset < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown data set \"%s\"", dataset),
				 errhint("Valid data sets are %s.", pb_dataset_names())));

	opts->scale = PG_GETARG_INT32(1);
	opts->tables = PG_GETARG_INT32(2);
	opts->table_size = PG_GETARG_INT32(3);
	opts->records = PG_GETARG_INT64(4);
	opts->fields = PG_GETARG_INT32(5);
	opts->field_length = PG_GETARG_INT32(6);
	opts->parallel = PG_GETARG_INT32(7);
	opts->fillfactor = PG_GETARG_INT32(8);
	opts->unlogged = PG_GETARG_BOOL(9);
	opts->partitions = PG_GETARG_INT32(10);
	method = text_to_cstring(PG_GETARG_TEXT_PP(11));
	opts->foreign_keys = PG_GETARG_BOOL(12);
	opts->drop = PG_GETARG_BOOL(13);
	opts->progress = PG_GETARG_BOOL(14);
	opts->warehouses = PG_GETARG_INT32(16);
	/* not given: where the data set's pages compress */
	opts->wal_compression = PG_ARGISNULL(15) ?
		pb_loader_dataset(opts->dataset)->compressible : PG_GETARG_BOOL(15);

	if (pg_strcasecmp(method, "range") == 0)
		opts->partition_method = PB_PART_RANGE;
	else if (pg_strcasecmp(method, "hash") == 0)
		opts->partition_method = PB_PART_HASH;
	else
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown partition method \"%s\"", method),
				 errhint("Valid partition methods are \"range\" and \"hash\".")));
}

/*
 * The arguments of polarbench_init() that only some data sets read, and
 * that a load of another would silently ignore: refused when given.
 */
static bool
pb_partitions_given(const PbLoadOptions *opts)
{
	return opts->partitions != 0;
}

static bool
pb_foreign_keys_given(const PbLoadOptions *opts)
{
	return opts->foreign_keys;
}

static const struct
{
	const char *argument;
	const char *what;			/* in the message */
	bool		(*given) (const PbLoadOptions *opts);
	const char *hint;
}			pb_init_own_arguments[] = {
	{"partitions", "partitions", pb_partitions_given,
	"Leave partitions at 0 for this data set."},
	{"foreign_keys", "foreign keys", pb_foreign_keys_given,
	"Leave foreign_keys false for this data set."},
};

/*
 * Check the options every data set shares, and refuse those of other data
 * sets.
 */
static void
pb_init_check_common(const PbLoadOptions *opts)
{
	const PbDataset *ds = pb_loader_dataset(opts->dataset);

	pb_check_range("parallel", opts->parallel, 1, PB_MAX_PARALLEL,
				   "parallel is the number of loader workers.");
	pb_check_range("fillfactor", opts->fillfactor, 10, 100, NULL);
	for (int i = 0; i < lengthof(pb_init_own_arguments); i++)
	{
		StringInfoData readers;
		int			nreaders = 0;
		int			seen = 0;

		if (!pb_init_own_arguments[i].given(opts) ||
			pb_dataset_reads(ds, pb_init_own_arguments[i].argument))
			continue;
		for (int d = 0; d < pb_dataset_count(); d++)
			nreaders += pb_dataset_reads(pb_loader_dataset(d),
										 pb_init_own_arguments[i].argument);
		/* "the a data set", "the a and b data sets", "the a, b and c ..." */
		initStringInfo(&readers);
		for (int d = 0; d < pb_dataset_count(); d++)
			if (pb_dataset_reads(pb_loader_dataset(d), pb_init_own_arguments[i].argument))
			{
				seen++;
				appendStringInfo(&readers, "%s%s",
								 seen == 1 ? "" : seen == nreaders ? " and " : ", ",
								 pb_loader_dataset(d)->name);
			}
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s only apply to the %s data set%s",
						pb_init_own_arguments[i].what, readers.data,
						nreaders > 1 ? "s" : ""),
				 errhint("%s", pb_init_own_arguments[i].hint)));
	}
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
