/*-------------------------------------------------------------------------
 *
 * ycsb_driver.c
 *	  YCSB's CoreWorkload in a client, with the statements of YCSB's JDBC
 *	  binding: one operation (read, update, insert, scan, read-modify-write)
 *	  per benchmark transaction, chosen by the workload's proportions, on
 *	  keys drawn by its request distribution.
 *
 * As YCSB with the JDBC binding (autocommit on, its DefaultDBFlavor):
 *	- read: SELECT * FROM usertable WHERE YCSB_KEY = $1 (all fields, which
 *	  is what the binding reads whatever readallfields says);
 *	- update: UPDATE usertable SET field<k>=$1 WHERE YCSB_KEY = $2, of one
 *	  field chosen uniformly, or of every field with writeallfields;
 *	- insert: INSERT INTO usertable (YCSB_KEY,<fields>) VALUES(...), the
 *	  fields in the order a Java HashMap lists them, as the binding names
 *	  them;
 *	- scan: SELECT * FROM usertable WHERE YCSB_KEY >= $1 ORDER BY YCSB_KEY
 *	  LIMIT $2, its length from scanlengthdistribution;
 *	- read-modify-write: a read then an update of the same key, timed
 *	  together, and also counted as a read and an update.
 * Keys and values are bound as varchar, as JDBC's setString() sends them.
 * Each statement commits on its own.
 *
 * The one change to the binding's texts: the key is compared with OPERATOR
 * (pg_catalog.=) and OPERATOR(pg_catalog.>=), not = and >=.  pg_catalog
 * has no operator of varchar (text's serve it, and the index's operator
 * class is text's), so = of two varchars has no exact match there, and one
 * that a role planted in a schema of the clients' search_path would be
 * called, with the rights of the role that runs the benchmark.  Named so,
 * the operators are those the binding's texts resolve to without such a
 * plant, and the plans are the same.
 *
 * Keys: requests go to records insertstart .. insertstart + insertcount
 * - 1 through the request distribution, as CoreWorkload.nextKeynum(),
 * redrawn while above the latest acknowledged insert.  Inserts take the
 * next key of the run (all clients share it, so they never collide) and
 * acknowledge it when done, as AcknowledgedCounterGenerator: the latest
 * acknowledged key is the one below which every key handed out has been
 * inserted.  The load phase (ycsb-load) inserts the keys of the run's
 * operation budget, insertstart onwards.
 *
 * An operation that fails with a serialization failure, a deadlock or a
 * unique violation is counted as an error of its operation (YCSB's
 * Return=ERROR), and the run goes on; any other error ends the run.
 *
 * In the caller, the driver reads the properties (CoreWorkload's and the
 * workload file's defaults, then those given), counts the records of
 * usertable unless recordcount is given, and prepares every statement;
 * during the run, its progress line is YCSB's status line; after it, its
 * report is YCSB's final measurements.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <sys/time.h>

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "driver.h"
#include "driver_options.h"
#include "report_query.h"
#include "statement_exec.h"
#include "ycsb.h"

/*
 * What the clients of a run share: YCSB's insert keys
 * (AcknowledgedCounterGenerator).  next_key is the next to hand out,
 * acked_key the highest below which every key handed out has been
 * inserted, and each client's key in flight (-1 for none) follows.
 */
typedef struct PbYcsbShared
{
	slock_t		keys_mutex;		/* protects next_key and the keys in flight */
	int64		next_key;
	pg_atomic_uint64 acked_key;	/* int64, only grows */
	int64		key_in_flight[FLEXIBLE_ARRAY_MEMBER];	/* one per client */
} PbYcsbShared;

/* The longest key name: "user", 20 digits of padding or of a long */
#define PB_YCSB_KEY_LEN		48

/* What a client running a YCSB workload keeps */
typedef struct PbYcsbDriver
{
	PbYcsbOptions opts;
	PbPrng		prng;
	PbYcsbZipfian keys;			/* zipfian or latest request keys */
	PbYcsbZipfian scan_lengths;
	PbYcsbZipfian field_lengths;
	int64		key_items;		/* the request distribution's item count */
	SPIPlanPtr	read;
	SPIPlanPtr	scan;
	SPIPlanPtr	insert;
	SPIPlanPtr	update_all;		/* writeallfields */
	SPIPlanPtr *update_field;	/* [field] */
	char	   *read_sql;
	char	   *scan_sql;
	char	   *insert_sql;
	char	   *update_all_sql;
	char	  **update_field_sql;
	int		   *field_order;	/* HashMap order of the fields */
	ParamListInfo key_params;	/* read: the key */
	ParamListInfo scan_params;	/* scan: the key and a length */
	ParamListInfo all_params;	/* insert, writeallfields update: every field and the key */
	ParamListInfo field_params; /* one field's update: a value and the key */
	bool		keep;
	MemoryContext op_cxt;		/* reset at each operation */
	PbRunShared *run;
	PbYcsbShared *shared;
	int			client_no;
	const char *activity;
} PbYcsbDriver;

/*
 * pb_ycsb_plan
 *		Prepare one of the binding's statements, with SPI connected; keep it
 *		past the transaction when d->keep.
 */
static SPIPlanPtr
pb_ycsb_plan(PbYcsbDriver *d, const char *sql, int nparams, Oid *types)
{
	return pb_spi_prepare(sql, nparams, types, d->keep);
}

/* Make and prepare the statements the workload's operations run. */
static void
pb_ycsb_prepare(PbYcsbDriver *d, MemoryContext cxt)
{
	const PbYcsbOptions *o = &d->opts;
	int			nfields = o->fieldcount;
	Oid		   *types = MemoryContextAlloc(cxt, sizeof(Oid) * (nfields + 1));
	Oid			scan_types[2] = {VARCHAROID, INT4OID};
	bool		reads = o->proportions[PB_YCSB_READ] > 0 || o->proportions[PB_YCSB_RMW] > 0;
	bool		updates = o->proportions[PB_YCSB_UPDATE] > 0 || o->proportions[PB_YCSB_RMW] > 0;
	StringInfoData sql;
	MemoryContext old = MemoryContextSwitchTo(cxt);

	for (int i = 0; i <= nfields; i++)
		types[i] = VARCHAROID;
	d->key_params = pb_params_make(1, types);
	d->scan_params = pb_params_make(2, scan_types);
	d->all_params = pb_params_make(nfields + 1, types);
	d->field_params = pb_params_make(2, types);
	d->field_order = palloc(sizeof(int) * nfields);
	pb_ycsb_field_order(nfields, d->field_order);

	if (reads)
	{
		d->read_sql = pstrdup("SELECT * FROM usertable WHERE YCSB_KEY OPERATOR(pg_catalog.=) $1");
		d->read = pb_ycsb_plan(d, d->read_sql, 1, types);
	}
	if (o->proportions[PB_YCSB_SCAN] > 0)
	{
		d->scan_sql = pstrdup("SELECT * FROM usertable WHERE YCSB_KEY OPERATOR(pg_catalog.>=) $1 ORDER BY YCSB_KEY LIMIT $2");
		d->scan = pb_ycsb_plan(d, d->scan_sql, 2, scan_types);
	}
	if (o->proportions[PB_YCSB_INSERT] > 0)
	{
		initStringInfo(&sql);
		appendStringInfoString(&sql, "INSERT INTO usertable (YCSB_KEY");
		for (int i = 0; i < nfields; i++)
			appendStringInfo(&sql, ",field%d", d->field_order[i]);
		appendStringInfoString(&sql, ") VALUES($1");
		for (int i = 0; i < nfields; i++)
			appendStringInfo(&sql, ",$%d", i + 2);
		appendStringInfoChar(&sql, ')');
		d->insert_sql = sql.data;
		d->insert = pb_ycsb_plan(d, d->insert_sql, nfields + 1, types);
	}
	if (updates && o->writeallfields)
	{
		initStringInfo(&sql);
		appendStringInfoString(&sql, "UPDATE usertable SET ");
		for (int i = 0; i < nfields; i++)
			appendStringInfo(&sql, "%sfield%d=$%d", i > 0 ? ", " : "",
							 d->field_order[i], i + 1);
		appendStringInfo(&sql, " WHERE YCSB_KEY OPERATOR(pg_catalog.=) $%d", nfields + 1);
		d->update_all_sql = sql.data;
		d->update_all = pb_ycsb_plan(d, d->update_all_sql, nfields + 1, types);
	}
	else if (updates)
	{
		d->update_field = palloc0(sizeof(SPIPlanPtr) * nfields);
		d->update_field_sql = palloc0(sizeof(char *) * nfields);
		for (int f = 0; f < nfields; f++)
		{
			d->update_field_sql[f] = psprintf("UPDATE usertable SET field%d=$1 WHERE YCSB_KEY OPERATOR(pg_catalog.=) $2", f);
			d->update_field[f] = pb_ycsb_plan(d, d->update_field_sql[f], 2, types);
		}
	}
	MemoryContextSwitchTo(old);
}

/* The latest acknowledged key. */
static inline int64
pb_ycsb_acked(PbYcsbDriver *d)
{
	return (int64) pg_atomic_read_u64(&d->shared->acked_key);
}

/*
 * pb_ycsb_next_keynum
 *		CoreWorkload.nextKeynum(): a key of the request distribution, drawn
 *		again while above the latest acknowledged insert.
 */
static int64
pb_ycsb_next_keynum(PbYcsbDriver *d)
{
	const PbYcsbOptions *o = &d->opts;
	int64		keynum;

	for (;;)
	{
		int64		acked = pb_ycsb_acked(d);

		switch ((PbYcsbDist) o->requestdistribution)
		{
			case PB_YCSB_DIST_ZIPFIAN:
				keynum = pb_ycsb_scrambled_next(&d->keys, &d->prng, o->insertstart,
												d->key_items);
				break;
			case PB_YCSB_DIST_LATEST:
				return pb_ycsb_latest_next(&d->keys, &d->prng, acked);
			case PB_YCSB_DIST_HOTSPOT:
				keynum = pb_ycsb_hotspot(&d->prng, o->insertstart,
										 o->insertstart + o->insertcount - 1,
										 o->hotspotdatafraction, o->hotspotopnfraction);
				break;
			default:
				keynum = pb_ycsb_uniform(&d->prng, o->insertstart,
										 o->insertstart + o->insertcount - 1);
				break;
		}
		if (keynum <= acked)
			return keynum;
		CHECK_FOR_INTERRUPTS();
	}
}

/* A key's name as a varchar datum. */
static Datum
pb_ycsb_key_datum(PbYcsbDriver *d, int64 keynum)
{
	char		name[PB_YCSB_KEY_LEN];
	int			len = pb_ycsb_key_name(name, sizeof(name), keynum,
									   d->opts.orderedinserts, d->opts.zeropadding);

	return PointerGetDatum(cstring_to_text_with_len(name, len));
}

/* A field value: RandomByteIterator of the field length generator's length. */
static Datum
pb_ycsb_value_datum(PbYcsbDriver *d)
{
	const PbYcsbOptions *o = &d->opts;
	int64		len;
	text	   *t;

	switch ((PbYcsbDist) o->fieldlengthdistribution)
	{
		case PB_YCSB_DIST_UNIFORM:
			len = pb_ycsb_uniform(&d->prng, o->minfieldlength, o->fieldlength);
			break;
		case PB_YCSB_DIST_ZIPFIAN:
			len = pb_ycsb_zipfian_next(&d->field_lengths, &d->prng,
									   d->field_lengths.items);
			break;
		default:
			len = o->fieldlength;
			break;
	}
	t = palloc(VARHDRSZ + len);
	SET_VARSIZE(t, VARHDRSZ + len);
	pb_ycsb_random_bytes(&d->prng, VARDATA(t), len);
	return PointerGetDatum(t);
}

/*
 * pb_ycsb_execute
 *		Run one statement with the parameters values, in a transaction of
 *		its own, and count it.
 */
static void
pb_ycsb_execute(PbYcsbDriver *d, PbTxnCounts *counts, SPIPlanPtr plan,
				const char *sql, ParamListInfo params, Datum *values)
{
	pb_params_set(params, values);
	pb_xact_begin(NIL);
	if (d->activity != sql)
	{
		pgstat_report_activity(STATE_RUNNING, sql);
		d->activity = sql;
	}
	/* a statement in a transaction of its own: a read uses its snapshot */
	pb_spi_run(plan, params, counts, pb_plan_is_read_only(plan));
	pb_xact_commit();
}

/* Count an operation of ns into its counters and histogram. */
static inline void
pb_ycsb_op_done(PbDriverContext *ctx, int op, int64 ns)
{
	pb_command_done(&ctx->stats[op], ns, pb_command_hist(ctx, op));
}

/* doTransactionRead(), or the read of a read-modify-write. */
static void
pb_ycsb_read(PbYcsbDriver *d, PbTxnCounts *counts, Datum key)
{
	Datum		values[1] = {key};

	pb_ycsb_execute(d, counts, d->read, d->read_sql, d->key_params, values);
}

/* doTransactionUpdate(), or the write of a read-modify-write. */
static void
pb_ycsb_update(PbYcsbDriver *d, PbTxnCounts *counts, Datum key)
{
	int			nfields = d->opts.fieldcount;

	if (d->opts.writeallfields)
	{
		Datum	   *values = palloc(sizeof(Datum) * (nfields + 1));

		for (int i = 0; i < nfields; i++)
			values[i] = pb_ycsb_value_datum(d);
		values[nfields] = key;
		pb_ycsb_execute(d, counts, d->update_all, d->update_all_sql, d->all_params, values);
	}
	else
	{
		int			field = (int) pb_ycsb_uniform(&d->prng, 0, nfields - 1);
		Datum		values[2];

		values[0] = pb_ycsb_value_datum(d);
		values[1] = key;
		pb_ycsb_execute(d, counts, d->update_field[field],
						d->update_field_sql[field], d->field_params, values);
	}
}

/*
 * pb_ycsb_acknowledge
 *		The client's insert of its key in flight is over: the latest
 *		acknowledged key moves up to just below the lowest key still in
 *		flight (or handed out next).
 */
static void
pb_ycsb_acknowledge(PbYcsbDriver *d)
{
	int64		lowest;

	PbYcsbShared *sh = d->shared;

	SpinLockAcquire(&sh->keys_mutex);
	sh->key_in_flight[d->client_no] = -1;
	lowest = sh->next_key;
	for (int i = 0; i < d->run->nclients; i++)
	{
		int64		k = sh->key_in_flight[i];

		if (k >= 0 && k < lowest)
			lowest = k;
	}
	if (lowest - 1 > (int64) pg_atomic_read_u64(&sh->acked_key))
		pg_atomic_write_u64(&sh->acked_key, (uint64) (lowest - 1));
	SpinLockRelease(&sh->keys_mutex);
}

/*
 * pb_ycsb_insert
 *		doTransactionInsert() or, in the load phase, doInsert(): a whole
 *		record under the run's next key, or the key of the operation.
 */
static void
pb_ycsb_insert(PbYcsbDriver *d, PbDriverContext *ctx, PbTxnCounts *counts)
{
	int			nfields = d->opts.fieldcount;
	Datum	   *values = palloc(sizeof(Datum) * (nfields + 1));
	int64		keynum;

	if (d->opts.load)
		keynum = d->opts.insertstart + ctx->op_index;
	else
	{
		SpinLockAcquire(&d->shared->keys_mutex);
		keynum = d->shared->next_key++;
		d->shared->key_in_flight[d->client_no] = keynum;
		SpinLockRelease(&d->shared->keys_mutex);
	}
	values[0] = pb_ycsb_key_datum(d, keynum);
	for (int i = 0; i < nfields; i++)
		values[i + 1] = pb_ycsb_value_datum(d);
	PG_TRY();
	{
		pb_ycsb_execute(d, counts, d->insert, d->insert_sql, d->all_params, values);
	}
	PG_FINALLY();
	{
		if (!d->opts.load)
			pb_ycsb_acknowledge(d);
	}
	PG_END_TRY();
}

/* doTransactionScan() */
static void
pb_ycsb_scan(PbYcsbDriver *d, PbTxnCounts *counts)
{
	const PbYcsbOptions *o = &d->opts;
	Datum		values[2];
	int64		len;

	values[0] = pb_ycsb_key_datum(d, pb_ycsb_next_keynum(d));
	if (o->scanlengthdistribution == PB_YCSB_DIST_ZIPFIAN)
		len = pb_ycsb_zipfian_next(&d->scan_lengths, &d->prng, d->scan_lengths.items);
	else
		len = pb_ycsb_uniform(&d->prng, o->minscanlength, o->maxscanlength);
	values[1] = Int32GetDatum((int32) len);
	pb_ycsb_execute(d, counts, d->scan, d->scan_sql, d->scan_params, values);
}

/* DiscreteGenerator.nextValue() over the operations' proportions */
static pg_noinline int
pb_ycsb_choose(PbYcsbDriver *d)
{
	double		val = pb_prng_double(&d->prng);
	int			last = PB_YCSB_READ;

	for (int op = 0; op < PB_YCSB_NOPS; op++)
	{
		double		p = d->opts.proportions[op];

		if (p <= 0)
			continue;
		if (val < p)
			return op;
		val -= p;
		last = op;
	}
	return last;				/* rounding */
}

/* Run one operation; errors propagate. */
static void
pb_ycsb_operation(PbYcsbDriver *d, PbDriverContext *ctx, PbTxnCounts *counts,
				  int op)
{
	int64		start = pb_now_ns();

	switch ((PbYcsbOp) op)
	{
		case PB_YCSB_READ:
			pb_ycsb_read(d, counts, pb_ycsb_key_datum(d, pb_ycsb_next_keynum(d)));
			break;
		case PB_YCSB_UPDATE:
			pb_ycsb_update(d, counts, pb_ycsb_key_datum(d, pb_ycsb_next_keynum(d)));
			break;
		case PB_YCSB_INSERT:
			pb_ycsb_insert(d, ctx, counts);
			break;
		case PB_YCSB_SCAN:
			pb_ycsb_scan(d, counts);
			break;
		case PB_YCSB_RMW:
			{
				Datum		key = pb_ycsb_key_datum(d, pb_ycsb_next_keynum(d));
				int64		t;

				ctx->current_command = PB_YCSB_READ;
				pb_ycsb_read(d, counts, key);
				t = pb_now_ns();
				pb_ycsb_op_done(ctx, PB_YCSB_READ, t - start);
				ctx->current_command = PB_YCSB_UPDATE;
				pb_ycsb_update(d, counts, key);
				pb_ycsb_op_done(ctx, PB_YCSB_UPDATE, pb_now_ns() - t);
				ctx->current_command = PB_YCSB_RMW;
				break;
			}
		case PB_YCSB_NOPS:
			break;
	}
	pb_ycsb_op_done(ctx, op, pb_now_ns() - start);
}

/*
 * pb_ycsb_transaction
 *		One operation, chosen by the proportions.  A failure YCSB would
 *		report as Return=ERROR is rolled back and counted as an error of its
 *		operation; the operation still counts, as in YCSB's throughput.
 */
static bool
pb_ycsb_transaction(PbDriverContext *ctx, PbTxnCounts *counts)
{
	PbYcsbDriver *d = ctx->state;
	MemoryContext cxt = CurrentMemoryContext;
	volatile int op = pb_ycsb_choose(d);
	volatile int64 start = pb_now_ns();

	MemoryContextReset(d->op_cxt);
	MemoryContextSwitchTo(d->op_cxt);
	ctx->current_command = op;
	PG_TRY();
	{
		pb_ycsb_operation(d, ctx, counts, op);
	}
	PG_CATCH();
	{
		/* YCSB's Return=ERROR for the operation, which still counts */
		pb_absorb_ignorable_error(cxt, d->run);
		d->activity = NULL;
		counts->errors++;
		pb_counter_add(&ctx->stats[ctx->current_command].failures, 1);
		if (ctx->current_command != op)
			pb_counter_add(&ctx->stats[op].failures, 1);
		pb_ycsb_op_done(ctx, op, pb_now_ns() - start);
	}
	PG_END_TRY();
	MemoryContextSwitchTo(cxt);
	ctx->current_command = -1;
	return true;
}

/* Roll back what an error left open. */
static void
pb_ycsb_abort(PbDriverContext *ctx)
{
	PbYcsbDriver *d = ctx->state;

	AbortCurrentTransaction();
	d->activity = NULL;
}

/* The operation an error came from. */
static char *
pb_ycsb_error_context(PbDriverContext *ctx)
{
	if (ctx->current_command < 0)
		return NULL;
	return psprintf("operation %s of workload \"%s\"",
					pb_ycsb_op_name(ctx->current_command), ctx->config->workload);
}

/*
 * pb_ycsb_setup
 *		Read the options, make the generators as CoreWorkload.init() does,
 *		and prepare the statements.
 */
static void
pb_ycsb_setup(PbDriverContext *ctx)
{
	PbYcsbDriver *d = MemoryContextAllocZero(TopMemoryContext, sizeof(PbYcsbDriver));
	const PbYcsbOptions *o = ctx->config->options;

	ctx->state = d;
	d->opts = *o;
	d->run = ctx->run;
	d->shared = ctx->shared;
	d->client_no = ctx->client_no;
	pb_prng_seed(&d->prng, ctx->seed);
	ctx->draws[0] = &d->prng;
	ctx->ndraws = 1;
	switch ((PbYcsbDist) o->requestdistribution)
	{
		case PB_YCSB_DIST_ZIPFIAN:
			{
				int			expectednewkeys = (int) (o->operationcount *
													 o->proportions[PB_YCSB_INSERT] * 2.0);

				/* ScrambledZipfianGenerator(insertstart, insertstart + insertcount + new) */
				d->key_items = o->insertcount + expectednewkeys + 1;
				pb_ycsb_zipfian_init(&d->keys, 0, PB_YCSB_SCRAMBLED_ITEMS,
									 PB_YCSB_ZIPFIAN_CONSTANT, PB_YCSB_SCRAMBLED_ZETAN);
				break;
			}
		case PB_YCSB_DIST_LATEST:
			/* ZipfianGenerator(latest acknowledged key) */
			pb_ycsb_zipfian_init(&d->keys, 0, o->recordcount - 2,
								 PB_YCSB_ZIPFIAN_CONSTANT, o->latest_zetan);
			break;
		default:
			break;
	}
	if (o->scanlengthdistribution == PB_YCSB_DIST_ZIPFIAN)
		pb_ycsb_zipfian_init(&d->scan_lengths, o->minscanlength, o->maxscanlength,
							 PB_YCSB_ZIPFIAN_CONSTANT, o->scan_zetan);
	if (o->fieldlengthdistribution == PB_YCSB_DIST_ZIPFIAN)
		pb_ycsb_zipfian_init(&d->field_lengths, o->minfieldlength, o->fieldlength,
							 PB_YCSB_ZIPFIAN_CONSTANT, -1);
	d->op_cxt = AllocSetContextCreate(TopMemoryContext, "polarbench YCSB operation",
									  ALLOCSET_SMALL_SIZES);
	d->keep = true;
	pb_xact_begin(NIL);
	pgstat_report_activity(STATE_RUNNING, "polarbench: preparing");
	pb_ycsb_prepare(d, TopMemoryContext);
	pb_xact_commit();
	pgstat_report_activity(STATE_IDLE, NULL);
}

/*
 * pb_ycsb_commands
 *		YCSB's operations, in slot order, by the names it prints.
 */
static int
pb_ycsb_commands(const PbRunConfig *config, PbCommandDesc **descs)
{
	*descs = palloc0(sizeof(PbCommandDesc) * PB_YCSB_NOPS);
	for (int op = 0; op < PB_YCSB_NOPS; op++)
	{
		(*descs)[op].script_no = 1;
		(*descs)[op].command_no = op + 1;
		(*descs)[op].text = pb_ycsb_op_name(op);
	}
	return PB_YCSB_NOPS;
}

/*
 * pb_ycsb_resolve
 *		Fill in what was not given: recordcount from the rows of usertable
 *		(the load phase takes the workload files' 1000), then the key space
 *		and the zetas every client would otherwise compute.  A missing
 *		usertable is an error here, before anything starts.
 */
static void
pb_ycsb_resolve(PbYcsbOptions *o)
{
	PbError		err;
	bool		isnull;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute("SELECT pg_catalog.to_regclass('usertable') IS NULL", true, 1) != SPI_OK_SELECT ||
		DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull)))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation \"usertable\" does not exist"),
				 errhint("Load YCSB's table first, as in SELECT polarbench_init('ycsb', records => 100000), or with records => 0 before ycsb-load.")));
	if (o->recordcount < 0 && o->load)
		o->recordcount = 1000;
	else if (o->recordcount < 0)
	{
		if (SPI_execute("SELECT pg_catalog.count(*) FROM usertable", true, 1) != SPI_OK_SELECT)
			elog(ERROR, "could not count the rows of usertable");
		o->recordcount = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0],
													 SPI_tuptable->tupdesc, 1, &isnull));
		if (o->recordcount == 0)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("table \"usertable\" is empty"),
					 errhint("Load records first, with polarbench_init('ycsb', records => ...) or the ycsb-load workload.")));
	}
	SPI_finish();

	memset(&err, 0, sizeof(err));
	if (!pb_kind_check_options(&pb_ycsb_library, o, &err))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg_internal("%s", err.message),
				 err.detail[0] ? errhint("%s", err.detail) : 0));
	if (o->requestdistribution == PB_YCSB_DIST_LATEST && !o->load)
	{
		if (o->recordcount < 2)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("requestdistribution latest needs at least 2 records")));
		o->latest_zetan = pb_ycsb_zeta(0, o->recordcount - 1, PB_YCSB_ZIPFIAN_CONSTANT, 0);
	}
	if (o->scanlengthdistribution == PB_YCSB_DIST_ZIPFIAN &&
		o->proportions[PB_YCSB_SCAN] > 0)
	{
		if ((int64) o->maxscanlength - o->minscanlength >= 100000000)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("zipfian scan lengths span at most 100000000 values")));
		o->scan_zetan = pb_ycsb_zeta(0, (int64) o->maxscanlength - o->minscanlength + 1,
									 PB_YCSB_ZIPFIAN_CONSTANT, 0);
	}
}

/* Prepare the statements the workload runs. */
static void
pb_ycsb_check_in(void *arg)
{
	PbYcsbDriver *d = arg;

	pb_ycsb_prepare(d, CurrentMemoryContext);
}

/*
 * pb_ycsb_plans
 *		How many plans a client of the workload keeps, as pb_ycsb_prepare()
 *		makes them: what the memory estimate needs before anything is
 *		prepared.
 */
static int
pb_ycsb_plans(const PbYcsbOptions *o)
{
	bool		reads = o->proportions[PB_YCSB_READ] > 0 || o->proportions[PB_YCSB_RMW] > 0;
	bool		updates = o->proportions[PB_YCSB_UPDATE] > 0 || o->proportions[PB_YCSB_RMW] > 0;

	return reads + (o->proportions[PB_YCSB_SCAN] > 0) + (o->proportions[PB_YCSB_INSERT] > 0) +
		(updates ? (o->writeallfields ? 1 : o->fieldcount) : 0);
}

/*
 * pb_ycsb_check
 *		Prepare the workload's statements as the caller, in a subtransaction
 *		rolled back after: a usertable without the fields is an error here.
 */
static void
pb_ycsb_check(const PbYcsbOptions *options)
{
	PbYcsbDriver d;

	memset(&d, 0, sizeof(d));
	d.opts = *options;
	pb_in_rolled_back_subxact(pb_ycsb_check_in, NULL, &d);
}

/*
 * pb_ycsb_configure
 *		The caller's side of a run: the workload's properties, the records
 *		of usertable unless recordcount is given, the operations and plans;
 *		the run's budget of operations (operationcount, unless a duration or
 *		a number of transactions is given; the load phase's inserts).
 */
static void
pb_ycsb_configure(const PbWorkloadArgs *args, PbRunConfig *config,
				  PbRunParams *params, PbRunEstimate *estimate)
{
	PbYcsbOptions *o;
	PbCommandDesc *descs;

	pb_refuse_script_args(args, params, "A YCSB workload counts a failed operation as an error of its operation, as YCSB does.");
	o = pb_options_from_json(&pb_ycsb_library, args->def, args->options,
							 "{\"readproportion\": 0.5, \"updateproportion\": 0.5}", false);
	pb_ycsb_resolve(o);
	config->options = o;
	config->options_size = sizeof(PbYcsbOptions);
	if (o->load)
		params->ops_limit = o->insertcount;
	else if (!params->limited)
		params->ops_limit = o->operationcount;
	params->ncommands = pb_ycsb_commands(config, &descs);
	estimate->nplans = pb_ycsb_plans(o);
	estimate->text_bytes = 0;
}

/* Prepare the statements as the caller. */
static void
pb_ycsb_check_run(const PbRunConfig *config, const PbRunParams *params)
{
	pb_ycsb_check(config->options);
}

/* Whether the workload writes: it loads, updates or inserts. */
static bool
pb_ycsb_writes(const PbRunConfig *config)
{
	const PbYcsbOptions *o = config->options;

	return o->load || o->proportions[PB_YCSB_UPDATE] > 0 ||
		o->proportions[PB_YCSB_INSERT] > 0 || o->proportions[PB_YCSB_RMW] > 0;
}

/* The properties of a stored run, read as a run would read them. */
static void
pb_ycsb_check_options(const PbWorkloadDef *def, Jsonb *options)
{
	(void) pb_options_from_json(&pb_ycsb_library, def, options,
								"{\"readproportion\": 0.5, \"updateproportion\": 0.5}", true);
}

/* The clients' shared area: the insert keys, and each client's in flight. */
static Size
pb_ycsb_shared_size(const PbRunConfig *config, const PbRunParams *params)
{
	return add_size(offsetof(PbYcsbShared, key_in_flight),
					mul_size(sizeof(int64), params->nclients));
}

/* The first insert key is the record after the last loaded one. */
static void
pb_ycsb_shared_init(void *shared, const PbRunConfig *config,
					 const PbRunParams *params)
{
	PbYcsbShared *sh = shared;
	int64		first_key = ((const PbYcsbOptions *) config->options)->recordcount;

	SpinLockInit(&sh->keys_mutex);
	sh->next_key = first_key;
	pg_atomic_init_u64(&sh->acked_key, (uint64) (first_key - 1));
	for (int i = 0; i < params->nclients; i++)
		sh->key_in_flight[i] = -1;
}

/* YCSB's measurements show the 95th percentile (and others). */
static int
pb_ycsb_percentile(const PbRunConfig *config)
{
	return 95;
}

/*
 * pb_ycsb_progress_line
 *		YCSB's status line for an interval: the time, the seconds and
 *		operations so far, the interval's throughput, and for each operation
 *		of the workload its interval's count and latencies in microseconds,
 *		as its HdrHistogram measurements print them.
 */
static void
pb_ycsb_progress_line(char *buf, size_t len, const PbProgressTick *tick)
{
	const PbYcsbOptions *o = tick->config->options;
	struct timeval tv;
	struct tm	tm;
	size_t		n;
	char		stamp[32];

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm);
	n = snprintf(buf, len, "%s:%03d %.0f sec: " INT64_FORMAT " operations; %.2f current ops/sec;",
				 stamp, (int) (tv.tv_usec / 1000), tick->elapsed, tick->transactions,
				 tick->interval->tps);
	for (int op = 0; op < PB_YCSB_NOPS && n < len; op++)
	{
		uint64		count = tick->command_counts[op];
		uint64	   *hist = tick->command_hists ? tick->command_hists[op] : NULL;
		bool		used = o->proportions[op] > 0 ||
			(o->proportions[PB_YCSB_RMW] > 0 && (op == PB_YCSB_READ || op == PB_YCSB_UPDATE));

		if (!used)
			continue;
		n += snprintf(buf + n, len - n,
					  " [%s: Count=" UINT64_FORMAT ", Max=%.0f, Min=%.0f, Avg=%.2f, 90=%.0f, 99=%.0f, 99.9=%.0f, 99.99=%.0f]",
					  pb_ycsb_op_name(op), count,
					  hist ? pb_hist_percentile(hist, count, 1.0) / 1e3 : 0,
					  hist ? pb_hist_percentile(hist, count, 0.0) / 1e3 : 0,
					  count > 0 ? tick->command_ns[op] / 1e3 / count : 0.0,
					  hist ? pb_hist_percentile(hist, count, 0.90) / 1e3 : 0,
					  hist ? pb_hist_percentile(hist, count, 0.99) / 1e3 : 0,
					  hist ? pb_hist_percentile(hist, count, 0.999) / 1e3 : 0,
					  hist ? pb_hist_percentile(hist, count, 0.9999) / 1e3 : 0);
	}
}

/*
 * pb_ycsb_report
 *		YCSB's final measurements: [OVERALL] then, for each operation that
 *		ran, its count, latencies in microseconds and return codes.
 */
static void
pb_ycsb_report(StringInfo out, PbRow *run, int64 run_id,
			   const PbReportOptions *options)
{
	SPITupleTable *t;
	uint64		n;

	appendStringInfo(out, "[OVERALL], RunTime(ms), %.0f\n", pb_row_num(run, "seconds") * 1000);
	appendStringInfoString(out, "[OVERALL], Throughput(ops/sec), ");
	pb_append_java_double(out, pb_row_num(run, "tps"));
	appendStringInfoString(out, "\n");
	/* operations in flight that the run's end canceled, after its grace */
	if (pb_row_int_opt(run, "cut_off") > 0)
		appendStringInfo(out, "[OVERALL], Operations cut off at the end, " INT64_FORMAT "\n",
						 pb_row_int_opt(run, "cut_off"));
	t = pb_report_query("SELECT operation, operations, errors, latency_avg, latency_min,"
						"       latency_max, latency_p95, latency_p99"
						"  FROM @operations@ WHERE run_id = $1"
						" ORDER BY array_position(ARRAY['READ', 'UPDATE', 'INSERT', 'SCAN', 'READ-MODIFY-WRITE'], operation)",
						run_id, &n);
	for (uint64 i = 0; i < n; i++)
	{
		PbRow		row = {t, i};
		char	   *op = pb_row_text(&row, "operation");
		int64		ops = pb_row_int(&row, "operations");
		int64		errors = pb_row_int(&row, "errors");

		appendStringInfo(out, "[%s], Operations, " INT64_FORMAT "\n", op, ops);
		appendStringInfo(out, "[%s], AverageLatency(us), ", op);
		pb_append_java_double(out, pb_row_num(&row, "latency_avg") * 1000);
		appendStringInfoString(out, "\n");
		appendStringInfo(out, "[%s], MinLatency(us), %.0f\n", op, floor(pb_row_num(&row, "latency_min") * 1000));
		appendStringInfo(out, "[%s], MaxLatency(us), %.0f\n", op, ceil(pb_row_num(&row, "latency_max") * 1000));
		appendStringInfo(out, "[%s], 95thPercentileLatency(us), %.0f\n", op, pb_row_num(&row, "latency_p95") * 1000);
		appendStringInfo(out, "[%s], 99thPercentileLatency(us), %.0f\n", op, pb_row_num(&row, "latency_p99") * 1000);
		appendStringInfo(out, "[%s], Return=OK, " INT64_FORMAT "\n", op, ops - errors);
		if (errors > 0)
			appendStringInfo(out, "[%s], Return=ERROR, " INT64_FORMAT "\n", op, errors);
	}
}

/* Its workloads, from its library's. */
static bool
pb_ycsb_workload_at(int i, PbWorkloadEntry *entry)
{
	return pb_library_workload_at(&pb_ycsb_library, pb_ycsb_writes, i, entry);
}

/*
 * pb_ycsb_dataset
 *		The data set a run works on: usertable, of recordcount records of
 *		fieldcount fields of fieldlength characters.
 */
static char *
pb_ycsb_dataset(const PbRunConfig *config)
{
	const PbYcsbOptions *o = config->options;

	return psprintf("{\"dataset\": \"ycsb\", \"records\": " INT64_FORMAT ", \"fields\": %d,"
					" \"field_length\": %d, \"table_names\": [\"usertable\"]}",
					(int64) o->recordcount, o->fieldcount, o->fieldlength);
}

static const PbDriver ycsb_driver = {
	.report_style = "ycsb",
	.rows = PB_ROWS_OPERATIONS,
	.record_unused = false,
	.progress_by_command = true,
	.default_transactions = 0,	/* operationcount, as the budget */
	.default_duration = 0,
	.configure = pb_ycsb_configure,
	.check = pb_ycsb_check_run,
	.writes = pb_ycsb_writes,
	.check_options = pb_ycsb_check_options,
	.shared_size = pb_ycsb_shared_size,
	.shared_init = pb_ycsb_shared_init,
	.setup = pb_ycsb_setup,
	.transaction = pb_ycsb_transaction,
	.abort = pb_ycsb_abort,
	.error_context = pb_ycsb_error_context,
	.workload_at = pb_ycsb_workload_at,
	.commands = pb_ycsb_commands,
	.percentile = pb_ycsb_percentile,
	.progress_line = pb_ycsb_progress_line,
	.report = pb_ycsb_report,
	.dataset = pb_ycsb_dataset,
};

/* The data sets of the kind (ycsb_dataset.c) */
extern const struct PbDataset pb_dataset_ycsb;
static const struct PbDataset *const ycsb_datasets[] = {&pb_dataset_ycsb, NULL};

/* The kind's descriptor, its row in the registry */
const PbKind pb_kind_ycsb = {
	.library = &pb_ycsb_library,
	.driver = &ycsb_driver,
	.datasets = ycsb_datasets,
};
