/*-------------------------------------------------------------------------
 *
 * shard_options.c
 *	  The options of a distributed load as polarbench_fill_shards() takes
 *	  them: a jsonb object of named options, written by the coordinator and
 *	  read, and checked, by each node.
 *
 * A node of a Citus cluster makes the rows of its shards from the data
 * set's name and these options alone (init_shards.c).  They are the
 * arguments of polarbench_init() the data set reads (scale, tables,
 * records, warehouses...), those every data set reads and that shape the
 * rows or their pages (fillfactor, unlogged, progress, wal_compression),
 * the schema, and what the data set's prepare step decided on the
 * coordinator for every node alike (seed, load_time, row_time,
 * first_warehouse, c_load), in the types a reader expects: numbers,
 * booleans, strings, dates in ISO 8601.  So the nodes need not run the same
 * build of polarbench as the coordinator, only one that reads the same
 * options, and a reader of the nodes' logs sees what each was asked.
 *
 * A node refuses an object that is not one, an option it does not know, an
 * option of the data set missing or of the wrong type, and values that the
 * data set's own check refuses: what it loads is then what polarbench_init()
 * with those arguments would load.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/timestamp.h"

#include "args.h"
#include "load.h"
#include "registry.h"

/* How an option's value is written and read */
typedef enum PbShardOptionType
{
	PB_SHOPT_INT,				/* int, a JSON number */
	PB_SHOPT_INT64,				/* int64 (uint64 seed too), a JSON number */
	PB_SHOPT_BOOL,				/* bool, true or false */
	PB_SHOPT_TIMESTAMPTZ,		/* TimestampTz, an ISO 8601 string */
	PB_SHOPT_TIMESTAMP,			/* Timestamp, an ISO 8601 string */
	PB_SHOPT_METHOD,			/* PbPartitionMethod, "range" or "hash" */
	PB_SHOPT_SCHEMA				/* nspname, a string */
} PbShardOptionType;

/*
 * Every option a node reads.  Those marked dataset are sent only for the
 * data sets that read the argument of polarbench_init() of that name.
 */
static const struct
{
	const char *name;
	PbShardOptionType type;
	size_t		offset;			/* in PbLoadOptions */
	bool		dataset;		/* an argument only some data sets read */
}			pb_shard_options[] = {
	{"schema", PB_SHOPT_SCHEMA, offsetof(PbLoadOptions, nspname), false},
	{"scale", PB_SHOPT_INT, offsetof(PbLoadOptions, scale), true},
	{"partitions", PB_SHOPT_INT, offsetof(PbLoadOptions, partitions), true},
	{"partition_method", PB_SHOPT_METHOD, offsetof(PbLoadOptions, partition_method), true},
	{"tables", PB_SHOPT_INT, offsetof(PbLoadOptions, tables), true},
	{"table_size", PB_SHOPT_INT, offsetof(PbLoadOptions, table_size), true},
	{"records", PB_SHOPT_INT64, offsetof(PbLoadOptions, records), true},
	{"fields", PB_SHOPT_INT, offsetof(PbLoadOptions, fields), true},
	{"field_length", PB_SHOPT_INT, offsetof(PbLoadOptions, field_length), true},
	{"warehouses", PB_SHOPT_INT, offsetof(PbLoadOptions, warehouses), true},
	{"fillfactor", PB_SHOPT_INT, offsetof(PbLoadOptions, fillfactor), false},
	{"unlogged", PB_SHOPT_BOOL, offsetof(PbLoadOptions, unlogged), false},
	{"progress", PB_SHOPT_BOOL, offsetof(PbLoadOptions, progress), false},
	{"wal_compression", PB_SHOPT_BOOL, offsetof(PbLoadOptions, wal_compression), false},
	{"seed", PB_SHOPT_INT64, offsetof(PbLoadOptions, seed), false},
	{"load_time", PB_SHOPT_TIMESTAMPTZ, offsetof(PbLoadOptions, load_time), false},
	{"row_time", PB_SHOPT_TIMESTAMP, offsetof(PbLoadOptions, row_time), false},
	{"first_warehouse", PB_SHOPT_INT, offsetof(PbLoadOptions, first_warehouse), false},
	{"c_load", PB_SHOPT_INT, offsetof(PbLoadOptions, c_load), false},
};

/*
 * Whether data set ds reads option i: every data set reads those not
 * marked dataset; the others, when they are among its arguments.
 */
static bool
pb_shard_option_read(const PbDataset *ds, int i)
{
	if (!pb_shard_options[i].dataset)
		return true;
	for (const PbDatasetOption *o = ds->options; o->argument != NULL; o++)
		if (strcmp(o->argument, pb_shard_options[i].name) == 0)
			return true;
	return false;
}

/*
 * pb_shard_options_write
 *		The options of the load of opts that its nodes read, as a jsonb
 *		object.
 */
Datum
pb_shard_options_write(const PbLoadOptions *opts)
{
	const PbDataset *ds = pb_dataset_at(opts->dataset);
	StringInfoData json;
	bool		first = true;

	initStringInfo(&json);
	appendStringInfoChar(&json, '{');
	for (int i = 0; i < lengthof(pb_shard_options); i++)
	{
		const char *field = (const char *) opts + pb_shard_options[i].offset;

		if (!pb_shard_option_read(ds, i))
			continue;
		if (!first)
			appendStringInfoString(&json, ", ");
		first = false;
		escape_json(&json, pb_shard_options[i].name);
		appendStringInfoString(&json, ": ");
		switch (pb_shard_options[i].type)
		{
			case PB_SHOPT_INT:
				appendStringInfo(&json, "%d", *(const int *) field);
				break;
			case PB_SHOPT_INT64:
				appendStringInfo(&json, INT64_FORMAT, *(const int64 *) field);
				break;
			case PB_SHOPT_BOOL:
				appendStringInfoString(&json, *(const bool *) field ? "true" : "false");
				break;
			case PB_SHOPT_TIMESTAMPTZ:
				appendStringInfo(&json, "\"%s\"",
								 JsonEncodeDateTime(NULL, TimestampTzGetDatum(*(const TimestampTz *) field),
													TIMESTAMPTZOID, NULL));
				break;
			case PB_SHOPT_TIMESTAMP:
				appendStringInfo(&json, "\"%s\"",
								 JsonEncodeDateTime(NULL, TimestampGetDatum(*(const Timestamp *) field),
													TIMESTAMPOID, NULL));
				break;
			case PB_SHOPT_METHOD:
				appendStringInfoString(&json,
									   *(const PbPartitionMethod *) field == PB_PART_HASH ?
									   "\"hash\"" : "\"range\"");
				break;
			case PB_SHOPT_SCHEMA:
				escape_json(&json, field);
				break;
		}
	}
	appendStringInfoChar(&json, '}');
	return DirectFunctionCall1(jsonb_in, CStringGetDatum(json.data));
}

/* Refuse option name's value, not of the type wanted */
static void
pb_shard_option_refuse(const char *name, const char *wanted)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("option \"%s\" of polarbench_fill_shards must be %s",
					name, wanted)));
}

/* value, an integer between min and max, or refused */
static int64
pb_shard_option_integer(const char *name, const char *value, int64 min,
						int64 max)
{
	char	   *end;
	long long	v;

	errno = 0;
	v = strtoll(value, &end, 10);
	if (*value == '\0' || *end != '\0' || errno != 0 || v < min || v > max)
		pb_shard_option_refuse(name, "an integer");
	return (int64) v;
}

/* What pb_json_scalars() hands each option of the object to */
typedef struct PbShardOptionsRead
{
	PbLoadOptions *opts;
	const PbDataset *ds;
	bool		seen[lengthof(pb_shard_options)];
} PbShardOptionsRead;

/*
 * Store option name, of value (as text), into the options being read,
 * checked for its type.
 */
static void
pb_shard_option_set(const char *name, const char *value, void *arg)
{
	PbShardOptionsRead *read = arg;
	char	   *field;
	bool		b;
	int			i;

	for (i = 0; i < lengthof(pb_shard_options); i++)
		if (strcmp(pb_shard_options[i].name, name) == 0 &&
			pb_shard_option_read(read->ds, i))
			break;
	if (i == lengthof(pb_shard_options))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown option \"%s\" of polarbench_fill_shards for data set \"%s\"",
						name, read->ds->name)));
	read->seen[i] = true;
	field = (char *) read->opts + pb_shard_options[i].offset;
	switch (pb_shard_options[i].type)
	{
		case PB_SHOPT_INT:
			*(int *) field = (int) pb_shard_option_integer(name, value,
														   PG_INT32_MIN,
														   PG_INT32_MAX);
			break;
		case PB_SHOPT_INT64:
			*(int64 *) field = pb_shard_option_integer(name, value,
													   PG_INT64_MIN,
													   PG_INT64_MAX);
			break;
		case PB_SHOPT_BOOL:
			if (!parse_bool(value, &b))
				pb_shard_option_refuse(name, "a boolean");
			*(bool *) field = b;
			break;
		case PB_SHOPT_TIMESTAMPTZ:
			*(TimestampTz *) field =
				DatumGetTimestampTz(DirectFunctionCall3(timestamptz_in,
														CStringGetDatum(value),
														ObjectIdGetDatum(InvalidOid),
														Int32GetDatum(-1)));
			break;
		case PB_SHOPT_TIMESTAMP:
			*(Timestamp *) field =
				DatumGetTimestamp(DirectFunctionCall3(timestamp_in,
													  CStringGetDatum(value),
													  ObjectIdGetDatum(InvalidOid),
													  Int32GetDatum(-1)));
			break;
		case PB_SHOPT_METHOD:
			if (strcmp(value, "range") == 0)
				*(PbPartitionMethod *) field = PB_PART_RANGE;
			else if (strcmp(value, "hash") == 0)
				*(PbPartitionMethod *) field = PB_PART_HASH;
			else
				pb_shard_option_refuse(name, "\"range\" or \"hash\"");
			break;
		case PB_SHOPT_SCHEMA:
			strlcpy(field, value, NAMEDATALEN);
			read->opts->nspid = get_namespace_oid(value, false);
			break;
	}
}

/*
 * pb_shard_options_read
 *		Fill opts with the load of data set dataset and options (a jsonb), as a node
 *		receives them from the coordinator; refuse (ereport) what
 *		polarbench_init() would not load, as above.
 */
void
pb_shard_options_read(PbLoadOptions *opts, const char *dataset,
					  Datum options_datum)
{
	Jsonb	   *options = DatumGetJsonbP(options_datum);
	const PbDataset *ds;
	PbShardOptionsRead read;

	memset(opts, 0, sizeof(PbLoadOptions));
	opts->dataset = pb_dataset_named(dataset);
	ds = pb_dataset_at(opts->dataset);
	memset(&read, 0, sizeof(read));
	read.opts = opts;
	read.ds = ds;
	pb_json_scalars(options, "the options of polarbench_fill_shards", "option",
					"{\"schema\": \"public\", \"scale\": 10, ...}",
					pb_shard_option_set, &read);
	for (int i = 0; i < lengthof(pb_shard_options); i++)
		if (!read.seen[i] && pb_shard_option_read(ds, i))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("option \"%s\" of polarbench_fill_shards is missing",
							pb_shard_options[i].name),
					 errdetail("A node makes the rows of data set \"%s\" from all the options polarbench_init sends it.",
							   ds->name)));

	/* what polarbench_init() would load, on the nodes */
	opts->distributed = true;
	opts->parallel = 1;
	pb_check_range("fillfactor", opts->fillfactor, 10, 100, NULL);
	ds->check(opts);
	opts->total_rows = ds->total_rows(opts);
}
