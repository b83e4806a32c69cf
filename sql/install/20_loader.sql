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
 * sbtest<tables> of table_size rows, as sysbench's oltp prepare) or 'ycsb'
 * (usertable of records rows of fields text fields of field_length
 * characters).  parallel > 1 spreads the load over background workers, each
 * committing its tables on its own; fillfactor, unlogged, partitions,
 * partition_method and foreign_keys are pgbench -i's options; drop => false
 * refuses to replace tables already there; progress => true sends pgbench
 * -i's progress lines as notices; wal_compression => true compresses the
 * page images the load writes to WAL when wal_compression is off and the
 * role may set it (by default, for the data sets whose pages compress:
 * pgbench's).
 */
CREATE FUNCTION polarbench_init(
	dataset				text,
	scale				int DEFAULT 1,
	tables				int DEFAULT 1,
	table_size			int DEFAULT 10000,
	records				bigint DEFAULT 1000,
	fields				int DEFAULT 10,
	field_length		int DEFAULT 100,
	parallel			int DEFAULT 1,
	fillfactor			int DEFAULT 100,
	unlogged			boolean DEFAULT false,
	partitions			int DEFAULT 0,
	partition_method	text DEFAULT 'range',
	foreign_keys		boolean DEFAULT false,
	drop				boolean DEFAULT true,
	progress			boolean DEFAULT false,
	wal_compression		boolean DEFAULT NULL)
RETURNS polarbench_init_result
AS 'MODULE_PATHNAME', 'polarbench_init'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_init(text, int, int, int, bigint, int, int,
	int, int, boolean, int, text, boolean, boolean, boolean, boolean)
	FROM PUBLIC;
