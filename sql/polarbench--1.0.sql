/* polarbench 1.0, as released: kept so that CREATE EXTENSION polarbench VERSION '1.0' and upgrades from it can be tested.  Do not edit; change sql/install/ and write an upgrade script. */

/* polarbench install script: run history, progress and the run entry point */

\echo Use "CREATE EXTENSION polarbench" to load this file. \quit

/*
 * Results are kept as data in tables owned by the extension owner.  Nobody
 * writes them but the run recorder, which does so under the owner's
 * identity in a security-restricted context; everybody may read them
 * through the views.
 */
CREATE TABLE polarbench_run_data (
	run_id				bigserial PRIMARY KEY,
	workload			text NOT NULL,
	scripts				text[] NOT NULL,
	weights				int[] NOT NULL,
	clients				int NOT NULL,
	duration			float8,
	transactions_limit	bigint,
	progress_interval	int NOT NULL,
	vars				jsonb,
	random_seed			bigint NOT NULL,
	run_by				oid NOT NULL,
	status				text NOT NULL
		CHECK (status IN ('running', 'finished', 'failed', 'canceled')),
	started_at			timestamptz NOT NULL,
	ended_at			timestamptz,
	seconds				float8,
	transactions		bigint,
	tps					float8,
	statements			bigint,
	qps					float8,
	failed				bigint,
	latency_avg			float8,
	latency_stddev		float8,
	latency_p50			float8,
	latency_p95			float8,
	latency_p99			float8,
	latency_max			float8,
	error_sqlstate		text,
	error_message		text,
	recorder_pid		int
);

CREATE TABLE polarbench_progress_data (
	run_id				bigint NOT NULL
		REFERENCES polarbench_run_data ON DELETE CASCADE,
	elapsed				float8 NOT NULL,
	transactions		bigint NOT NULL,
	tps					float8 NOT NULL,
	qps					float8 NOT NULL,
	latency_avg			float8,
	latency_stddev		float8,
	failed				bigint NOT NULL,
	PRIMARY KEY (run_id, elapsed)
);

CREATE TABLE polarbench_statement_data (
	run_id				bigint NOT NULL
		REFERENCES polarbench_run_data ON DELETE CASCADE,
	script_no			int NOT NULL,
	command_no			int NOT NULL,
	line				int NOT NULL,
	command				text NOT NULL,
	executions			bigint NOT NULL,
	failures			bigint NOT NULL,
	latency_avg			float8,
	PRIMARY KEY (run_id, script_no, command_no)
);

SELECT pg_catalog.pg_extension_config_dump('polarbench_run_data', '');
SELECT pg_catalog.pg_extension_config_dump('polarbench_run_data_run_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('polarbench_progress_data', '');
SELECT pg_catalog.pg_extension_config_dump('polarbench_statement_data', '');

REVOKE ALL ON polarbench_run_data, polarbench_progress_data,
	polarbench_statement_data FROM PUBLIC;

CREATE VIEW polarbench_runs AS
	SELECT r.run_id, r.workload, r.clients, r.duration, r.transactions_limit,
		   r.progress_interval, r.vars, r.random_seed,
		   COALESCE(a.rolname::text, r.run_by::text) AS run_by,
		   r.status, r.started_at, r.ended_at, r.seconds, r.transactions,
		   r.tps, r.statements, r.qps, r.failed, r.latency_avg,
		   r.latency_stddev, r.latency_p50, r.latency_p95, r.latency_p99,
		   r.latency_max, r.error_sqlstate, r.error_message, r.scripts,
		   r.weights
	  FROM polarbench_run_data r
	  LEFT JOIN pg_catalog.pg_roles a ON a.oid = r.run_by;

CREATE VIEW polarbench_progress AS
	SELECT run_id, elapsed, transactions, tps, qps, latency_avg,
		   latency_stddev, failed
	  FROM polarbench_progress_data;

CREATE VIEW polarbench_statements AS
	SELECT run_id, script_no, command_no, line, command, executions,
		   failures, latency_avg
	  FROM polarbench_statement_data;

GRANT SELECT ON polarbench_runs, polarbench_progress, polarbench_statements
	TO PUBLIC;

/* What polarbench_run returns: one row summing up the run */
CREATE TYPE polarbench_result AS (
	run_id			bigint,
	workload		text,
	clients			int,
	seconds			float8,
	transactions	bigint,
	tps				float8,
	statements		bigint,
	qps				float8,
	failed			bigint,
	latency_avg		float8,
	latency_stddev	float8,
	latency_p50		float8,
	latency_p95		float8,
	latency_p99		float8,
	latency_max		float8
);

/*
 * Start a benchmark run and wait for its end.  workload names built-in
 * scripts, comma separated, each with an optional @weight as pgbench's -b;
 * script and scripts give custom scripts in pgbench's language, with
 * script_weight and weights as pgbench's -f file@weight.  Latencies are in
 * milliseconds.
 */
CREATE FUNCTION polarbench_run(
	workload		text DEFAULT NULL,
	clients			int DEFAULT 1,
	duration		float8 DEFAULT NULL,
	transactions	bigint DEFAULT NULL,
	progress		int DEFAULT 0,
	script			text DEFAULT NULL,
	script_weight	int DEFAULT 1,
	scripts			text[] DEFAULT NULL,
	weights			int[] DEFAULT NULL,
	vars			jsonb DEFAULT NULL,
	random_seed		bigint DEFAULT NULL,
	scale			int DEFAULT NULL)
RETURNS polarbench_result
AS 'MODULE_PATHNAME', 'polarbench_run'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_run(text, int, float8, bigint, int, text,
	int, text[], int[], jsonb, bigint, int) FROM PUBLIC;
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
 * role may set it.
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
	wal_compression		boolean DEFAULT true)
RETURNS polarbench_init_result
AS 'MODULE_PATHNAME', 'polarbench_init'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_init(text, int, int, int, bigint, int, int,
	int, int, boolean, int, text, boolean, boolean, boolean, boolean)
	FROM PUBLIC;
