/* polarbench install script: the data loaders */

/* What polarbench_init returns: one row summing up the load */
CREATE TYPE polarbench_init_result AS (
	dataset			text,
	tables			int,
	rows			bigint,
	bytes			bigint,
	seconds			float8,
	rows_per_second	float8
);

/*
 * Create and fill the tables of a benchmark's data set, as the calling
 * role: 'pgbench' (what pgbench -i -s scale makes), 'sysbench' (sbtest1..
 * sbtest<tables> of table_size rows, as sysbench's oltp prepare), 'ycsb'
 * (usertable of records rows of fields text fields of field_length
 * characters) or 'tpcc' (TPC-C's nine tables for warehouses warehouses,
 * and tpcc_load; over a TPC-C data set of fewer warehouses, the missing
 * ones are added).  parallel > 1 spreads the load over background workers,
 * each committing its tables on its own; fillfactor, unlogged, partitions,
 * partition_method and foreign_keys are pgbench -i's options (foreign_keys
 * TPC-C's too); drop => false refuses to replace tables already there;
 * progress => true sends pgbench -i's progress lines as notices;
 * wal_compression => true compresses the page images the load writes to
 * WAL when wal_compression is off and the role may set it (by default, for
 * the data sets whose pages compress: pgbench's).  The arguments only some
 * data sets read default to NULL, left out: a data set refuses one given
 * that it does not read, and takes its default (polarbench_datasets shows
 * it) for one left out.  On a Citus coordinator, distributed => true makes
 * the tables Citus tables as Citus's guides lay the data set out, of
 * shard_count shards each (NULL: citus.shard_count).
 */
CREATE FUNCTION polarbench_init(
	dataset				text,
	scale				int DEFAULT NULL,
	tables				int DEFAULT NULL,
	table_size			int DEFAULT NULL,
	records				bigint DEFAULT NULL,
	fields				int DEFAULT NULL,
	field_length		int DEFAULT NULL,
	parallel			int DEFAULT 1,
	fillfactor			int DEFAULT 100,
	unlogged			boolean DEFAULT false,
	partitions			int DEFAULT NULL,
	partition_method	text DEFAULT NULL,
	foreign_keys		boolean DEFAULT NULL,
	drop				boolean DEFAULT true,
	progress			boolean DEFAULT false,
	wal_compression		boolean DEFAULT NULL,
	warehouses			int DEFAULT NULL,
	distributed			boolean DEFAULT false,
	shard_count			int DEFAULT NULL)
RETURNS polarbench_init_result
AS 'MODULE_PATHNAME', 'polarbench_init'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_init(text, int, int, int, bigint, int, int,
	int, int, boolean, int, text, boolean, boolean, boolean, boolean, int,
	boolean, int)
	FROM PUBLIC;

/*
 * On a node of a Citus cluster, called by polarbench_init(..., distributed
 * => true) on the coordinator through Citus, in its transaction: fill the
 * shards named (tables[i]'s shard shards[i], of hash range mins[i] to
 * maxs[i] of its column columns[i]; a reference table's placement, of
 * column '', with all its rows) with their rows of data set dataset loaded
 * with options, a JSON object of named options (polarbench_init's
 * arguments, and what the coordinator decided: seed, load_time...).  Only
 * shards created in the current transaction, into which the caller may
 * insert, are filled.  Returns the rows inserted into the shards of
 * distributed tables, the shards' size on disk, and the rows inserted into
 * the placements of reference tables.
 */
CREATE FUNCTION polarbench_fill_shards(dataset text, options jsonb, tables text[],
									   columns text[], shards text[], mins int[],
									   maxs int[])
RETURNS bigint[]
AS 'MODULE_PATHNAME', 'polarbench_fill_shards'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

/*
 * TPC-C's consistency conditions (clause 3.3.2.1 to 3.3.2.12), checked on
 * the TPC-C tables the caller's search_path finds, as the caller: one row
 * per condition, with the number of rows (warehouses, districts, orders,
 * order lines or customers) that break it and the first five of them.
 */
CREATE FUNCTION polarbench_tpcc_check(
	OUT condition int, OUT statement text, OUT offending bigint,
	OUT sample jsonb)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'polarbench_tpcc_check'
LANGUAGE C STRICT STABLE PARALLEL RESTRICTED;
