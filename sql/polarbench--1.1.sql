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
	recorder_pid		int,
	options				jsonb,
	reads				bigint,
	writes				bigint,
	others				bigint,
	errors				bigint,
	latency_min			float8
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
	reads				bigint,
	writes				bigint,
	others				bigint,
	errors				bigint,
	latency_p95			float8,
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
	latency_min			float8,
	latency_max			float8,
	PRIMARY KEY (run_id, script_no, command_no)
);

/* YCSB's operations: READ, UPDATE, INSERT, SCAN, READ-MODIFY-WRITE */
CREATE TABLE polarbench_operation_data (
	run_id				bigint NOT NULL
		REFERENCES polarbench_run_data ON DELETE CASCADE,
	operation			text NOT NULL,
	operations			bigint NOT NULL,
	errors				bigint NOT NULL,
	latency_avg			float8,
	latency_min			float8,
	latency_max			float8,
	latency_p95			float8,
	latency_p99			float8,
	PRIMARY KEY (run_id, operation)
);

/* Each client's share of a run: what sysbench's threads fairness is made of */
CREATE TABLE polarbench_client_data (
	run_id				bigint NOT NULL
		REFERENCES polarbench_run_data ON DELETE CASCADE,
	client				int NOT NULL,
	transactions		bigint NOT NULL,
	failed				bigint NOT NULL,
	errors				bigint NOT NULL,
	latency_sum			float8 NOT NULL,
	PRIMARY KEY (run_id, client)
);

/*
 * A run's latency histogram: how many transactions took from latency_from
 * up to latency_to milliseconds, for the buckets that hold any
 */
CREATE TABLE polarbench_histogram_data (
	run_id				bigint NOT NULL
		REFERENCES polarbench_run_data ON DELETE CASCADE,
	latency_from		float8 NOT NULL,
	latency_to			float8 NOT NULL,
	transactions		bigint NOT NULL,
	PRIMARY KEY (run_id, latency_from)
);

SELECT pg_catalog.pg_extension_config_dump('polarbench_run_data', '');
SELECT pg_catalog.pg_extension_config_dump('polarbench_run_data_run_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('polarbench_progress_data', '');
SELECT pg_catalog.pg_extension_config_dump('polarbench_statement_data', '');
SELECT pg_catalog.pg_extension_config_dump('polarbench_operation_data', '');
SELECT pg_catalog.pg_extension_config_dump('polarbench_client_data', '');
SELECT pg_catalog.pg_extension_config_dump('polarbench_histogram_data', '');

REVOKE ALL ON polarbench_run_data, polarbench_progress_data,
	polarbench_statement_data, polarbench_operation_data,
	polarbench_client_data, polarbench_histogram_data FROM PUBLIC;

/*
 * Whether the current role may read the texts of a run of role run_by: its
 * scripts, variables and error message may hold what only that role may
 * see.  As pg_stat_activity's query column: the role itself, roles that
 * have its privileges, and pg_read_all_stats.
 */
CREATE FUNCTION polarbench_may_read(run_by oid)
RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
	SELECT pg_catalog.pg_has_role('pg_read_all_stats', 'USAGE')
		OR coalesce((SELECT pg_catalog.pg_has_role(a.oid, 'USAGE')
					   FROM pg_catalog.pg_roles a WHERE a.oid = run_by), false)
$$;

/*
 * A run as it is: a run recorded as running whose recorder is gone
 * (killed, or the server restarted) is over, and failed.
 */
CREATE FUNCTION polarbench_run_status(recorded_status text, recorder_pid int,
									  started_at timestamptz,
									  recorded_sqlstate text,
									  recorded_message text,
									  OUT status text, OUT error_sqlstate text,
									  OUT error_message text)
RETURNS record
AS 'MODULE_PATHNAME', 'polarbench_run_status'
LANGUAGE C STABLE PARALLEL RESTRICTED;

/*
 * The figures of every run are public; its texts (scripts, variables,
 * error message) only to those polarbench_may_read() allows.
 */
CREATE VIEW polarbench_runs AS
	SELECT r.run_id, r.workload, r.clients, r.duration, r.transactions_limit,
		   r.progress_interval,
		   CASE WHEN v.may_read THEN r.vars END AS vars,
		   r.random_seed,
		   COALESCE(a.rolname::text, r.run_by::text) AS run_by,
		   s.status, r.started_at, r.ended_at, r.seconds, r.transactions,
		   r.tps, r.statements, r.qps, r.failed, r.latency_avg,
		   r.latency_stddev, r.latency_p50, r.latency_p95, r.latency_p99,
		   r.latency_max, s.error_sqlstate,
		   CASE WHEN v.may_read THEN s.error_message END AS error_message,
		   CASE WHEN v.may_read THEN r.scripts END AS scripts,
		   r.weights, r.options, r.reads, r.writes, r.others, r.errors,
		   r.latency_min
	  FROM polarbench_run_data r
	  LEFT JOIN pg_catalog.pg_roles a ON a.oid = r.run_by
	  CROSS JOIN LATERAL (SELECT polarbench_may_read(r.run_by) AS may_read) v
	  CROSS JOIN LATERAL polarbench_run_status(r.status, r.recorder_pid,
											   r.started_at, r.error_sqlstate,
											   r.error_message) s;

CREATE VIEW polarbench_progress AS
	SELECT run_id, elapsed, transactions, tps, qps, latency_avg,
		   latency_stddev, failed, reads, writes, others, errors, latency_p95
	  FROM polarbench_progress_data;

CREATE VIEW polarbench_statements AS
	SELECT s.run_id, s.script_no, s.command_no, s.line,
		   CASE WHEN polarbench_may_read(r.run_by) THEN s.command END AS command,
		   s.executions, s.failures, s.latency_avg, s.latency_min, s.latency_max
	  FROM polarbench_statement_data s
	  JOIN polarbench_run_data r USING (run_id);

CREATE VIEW polarbench_operations AS
	SELECT o.run_id, o.operation, o.operations, o.errors, o.latency_avg,
		   o.latency_min, o.latency_max, o.latency_p95, o.latency_p99,
		   o.operations / nullif(r.seconds, 0) AS throughput
	  FROM polarbench_operation_data o
	  JOIN polarbench_run_data r USING (run_id);

CREATE VIEW polarbench_clients AS
	SELECT run_id, client, transactions, failed, errors, latency_sum
	  FROM polarbench_client_data;

CREATE VIEW polarbench_histograms AS
	SELECT run_id, latency_from, latency_to, transactions
	  FROM polarbench_histogram_data;

GRANT SELECT ON polarbench_runs, polarbench_progress, polarbench_statements,
	polarbench_operations, polarbench_clients, polarbench_histograms TO PUBLIC;

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
	latency_max		float8,
	reads			bigint,
	writes			bigint,
	others			bigint,
	errors			bigint
);

/*
 * Start a benchmark run and wait for its end.  workload names built-in
 * scripts, comma separated, each with an optional @weight as pgbench's -b;
 * script and scripts give custom scripts in pgbench's language, with
 * script_weight and weights as pgbench's -f file@weight.  workload may
 * instead name one of sysbench's OLTP workloads (oltp_read_write, ...) or
 * YCSB's (ycsb-a .. ycsb-f, ycsb-load), whose options (sysbench's, YCSB's
 * properties) go in options.  Latencies are in milliseconds.
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
	scale			int DEFAULT NULL,
	options			jsonb DEFAULT NULL)
RETURNS polarbench_result
AS 'MODULE_PATHNAME', 'polarbench_run'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_run(text, int, float8, bigint, int, text,
	int, text[], int[], jsonb, bigint, int, jsonb) FROM PUBLIC;
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
/* polarbench install script: reports */

/*
 * A finished run as the tool its user knows would have printed it: style
 * 'pgbench', 'sysbench', 'ycsb' or 'json' (every figure); by default the
 * style of the workload's tool.
 */
CREATE FUNCTION polarbench_report(run_id bigint, style text DEFAULT NULL)
RETURNS text
AS 'MODULE_PATHNAME', 'polarbench_report'
LANGUAGE C STABLE PARALLEL RESTRICTED;
