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
	latency_min			float8,
	latency_p90			float8,
	latency_p999		float8,
	rate				float8,
	latency_limit		float8,
	max_tries			int,
	warmup				float8,
	counters_only		boolean,
	failed_serialization bigint,
	failed_deadlock		bigint,
	retried				bigint,
	retries				bigint,
	skipped				bigint,
	late				bigint,
	lag_avg				float8,
	lag_max				float8,
	segment				bigint,
	settings			jsonb,
	effective_settings	jsonb,
	server_stats		jsonb,
	sweep_id			bigint,
	sweep_run			int,
	sweep_set			int,
	sweep_repeat		int,
	server_settings		jsonb,
	node				text,
	script_names		text[],
	figures				jsonb
);

CREATE INDEX polarbench_run_data_sweep_id_idx ON polarbench_run_data (sweep_id);

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
	latency_p50			float8,
	latency_p90			float8,
	latency_p99			float8,
	latency_p999		float8,
	latency_max			float8,
	failed_serialization bigint,
	failed_deadlock		bigint,
	retried				bigint,
	retries				bigint,
	skipped				bigint,
	late				bigint,
	lag_avg				float8,
	latency_histogram	bigint[],
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
	retries				bigint,
	latency_p50			float8,
	latency_p90			float8,
	latency_p95			float8,
	latency_p99			float8,
	latency_p999		float8,
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
	latency_p50			float8,
	latency_p90			float8,
	latency_p999		float8,
	retries				bigint,
	rollbacks			bigint,
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
	cpu_seconds			float8,
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

/*
 * Where a run's clients spent their time: their wait events, sampled every
 * few milliseconds after the warm-up ("CPU" when they waited for nothing)
 */
CREATE TABLE polarbench_wait_event_data (
	run_id				bigint NOT NULL
		REFERENCES polarbench_run_data ON DELETE CASCADE,
	wait_event_type		text NOT NULL,
	wait_event			text NOT NULL,
	samples				bigint NOT NULL,
	PRIMARY KEY (run_id, wait_event_type, wait_event)
);

SELECT pg_catalog.pg_extension_config_dump('polarbench_run_data', '');
SELECT pg_catalog.pg_extension_config_dump('polarbench_run_data_run_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('polarbench_progress_data', '');
SELECT pg_catalog.pg_extension_config_dump('polarbench_statement_data', '');
SELECT pg_catalog.pg_extension_config_dump('polarbench_operation_data', '');
SELECT pg_catalog.pg_extension_config_dump('polarbench_client_data', '');
SELECT pg_catalog.pg_extension_config_dump('polarbench_histogram_data', '');
SELECT pg_catalog.pg_extension_config_dump('polarbench_wait_event_data', '');

REVOKE ALL ON polarbench_run_data, polarbench_progress_data,
	polarbench_statement_data, polarbench_operation_data,
	polarbench_client_data, polarbench_histogram_data,
	polarbench_wait_event_data FROM PUBLIC;

/*
 * Whether the current role may read the texts of a run of role run_by: its
 * scripts, variables and error message may hold what only that role may
 * see.  As pg_stat_activity's query column: the role itself, roles that
 * have its privileges, and pg_read_all_stats.
 */
CREATE FUNCTION polarbench_may_read(run_by oid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'polarbench_may_read'
LANGUAGE C STABLE PARALLEL SAFE;

/*
 * A run's parameters (settings, server settings) as pg_settings would show
 * them to the current role: the value of a superuser-only parameter (or of
 * one this session does not know) is "<insufficient privilege>" unless the
 * role has the privileges of pg_read_all_settings.
 */
CREATE FUNCTION polarbench_shown_settings(settings jsonb)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'polarbench_shown_settings'
LANGUAGE C STRICT STABLE PARALLEL SAFE;

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
 * error message, settings and server settings) only to those
 * polarbench_may_read() allows, and its parameters' values as
 * polarbench_shown_settings() shows them.
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
		   r.latency_min, r.latency_p90, r.latency_p999, r.rate,
		   r.latency_limit, r.max_tries, r.warmup, r.counters_only,
		   r.failed_serialization, r.failed_deadlock, r.retried, r.retries,
		   r.skipped, r.late, r.lag_avg, r.lag_max,
		   CASE WHEN v.may_read THEN polarbench_shown_settings(r.settings) END AS settings,
		   CASE WHEN v.may_read THEN polarbench_shown_settings(r.effective_settings) END AS effective_settings,
		   r.server_stats, r.sweep_id, r.sweep_run,
		   r.sweep_set, r.sweep_repeat,
		   CASE WHEN v.may_read THEN polarbench_shown_settings(r.server_settings) END AS server_settings,
		   r.node,
		   CASE WHEN v.may_read THEN r.script_names END AS script_names,
		   r.figures
	  FROM polarbench_run_data r
	  LEFT JOIN pg_catalog.pg_roles a ON a.oid = r.run_by
	  CROSS JOIN LATERAL (SELECT polarbench_may_read(r.run_by) AS may_read) v
	  CROSS JOIN LATERAL polarbench_run_status(r.status, r.recorder_pid,
											   r.started_at, r.error_sqlstate,
											   r.error_message) s;

/*
 * latency_histogram is the interval's latency histogram in compact form:
 * its non-empty buckets, as pairs of (the bucket's lower bound in ns, the
 * transactions in it); NULL when the run kept counters only.
 */
CREATE VIEW polarbench_progress AS
	SELECT run_id, elapsed, transactions, tps, qps, latency_avg,
		   latency_stddev, failed, reads, writes, others, errors, latency_p95,
		   latency_p50, latency_p90, latency_p99, latency_p999, latency_max,
		   failed_serialization, failed_deadlock, retried, retries, skipped,
		   late, lag_avg, latency_histogram
	  FROM polarbench_progress_data;

CREATE VIEW polarbench_statements AS
	SELECT s.run_id, s.script_no, s.command_no, s.line,
		   CASE WHEN polarbench_may_read(r.run_by) THEN s.command END AS command,
		   s.executions, s.failures, s.latency_avg, s.latency_min, s.latency_max,
		   s.retries, s.latency_p50, s.latency_p90, s.latency_p95,
		   s.latency_p99, s.latency_p999
	  FROM polarbench_statement_data s
	  JOIN polarbench_run_data r USING (run_id);

CREATE VIEW polarbench_operations AS
	SELECT o.run_id, o.operation, o.operations, o.errors, o.latency_avg,
		   o.latency_min, o.latency_max, o.latency_p95, o.latency_p99,
		   o.operations::float8 / nullif(r.seconds, 0) AS throughput,
		   o.latency_p50, o.latency_p90, o.latency_p999, o.retries,
		   o.rollbacks
	  FROM polarbench_operation_data o
	  JOIN polarbench_run_data r USING (run_id);

CREATE VIEW polarbench_clients AS
	SELECT run_id, client, transactions, failed, errors, latency_sum,
		   cpu_seconds
	  FROM polarbench_client_data;

CREATE VIEW polarbench_histograms AS
	SELECT run_id, latency_from, latency_to, transactions
	  FROM polarbench_histogram_data;

CREATE VIEW polarbench_wait_events AS
	SELECT run_id, wait_event_type, wait_event, samples,
		   samples::float8 / (sum(samples) OVER (PARTITION BY run_id))::float8 AS share
	  FROM polarbench_wait_event_data;

GRANT SELECT ON polarbench_runs, polarbench_progress, polarbench_statements,
	polarbench_operations, polarbench_clients, polarbench_histograms,
	polarbench_wait_events TO PUBLIC;

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
	errors			bigint,
	latency_min		float8,
	latency_p90		float8,
	latency_p999	float8,
	failed_serialization bigint,
	failed_deadlock	bigint,
	retried			bigint,
	retries			bigint,
	skipped			bigint,
	late			bigint,
	lag_avg			float8,
	lag_max			float8
);

/*
 * Start a benchmark run and wait for its end.  workload names built-in
 * scripts, comma separated, each with an optional @weight as pgbench's -b;
 * script and scripts give custom scripts in pgbench's language, with
 * script_weight and weights as pgbench's -f file@weight.  workload may
 * instead name one of sysbench's OLTP workloads (oltp_read_write, ...) or
 * YCSB's (ycsb-a .. ycsb-f, ycsb-load), whose options (sysbench's, YCSB's
 * properties) go in options; polarbench_workloads lists them all, with
 * their options.  script_names names the scripts in pgbench's report, as
 * pgbench names them by their files.  Latencies are in milliseconds.
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
	options			jsonb DEFAULT NULL,
	rate			float8 DEFAULT NULL,
	latency_limit	float8 DEFAULT NULL,
	max_tries		int DEFAULT 1,
	warmup			float8 DEFAULT 0,
	counters_only	boolean DEFAULT false,
	settings		jsonb DEFAULT NULL,
	server_settings	jsonb DEFAULT NULL,
	script_names	text[] DEFAULT NULL)
RETURNS polarbench_result
AS 'MODULE_PATHNAME', 'polarbench_run'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_run(text, int, float8, bigint, int, text,
	int, text[], int[], jsonb, bigint, int, jsonb, float8, float8, int, float8,
	boolean, jsonb, jsonb, text[]) FROM PUBLIC;

/*
 * A run's latency histogram, to plot its distribution: how many successful
 * transactions took from latency_from up to latency_to milliseconds, for
 * every bucket that holds any; the counts add up to the transactions.
 */
CREATE FUNCTION polarbench_histogram(run_id bigint,
									 OUT latency_from float8,
									 OUT latency_to float8,
									 OUT transactions bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'polarbench_histogram'
LANGUAGE C STABLE PARALLEL RESTRICTED;
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
 * the data sets whose pages compress: pgbench's).
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
	wal_compression		boolean DEFAULT NULL,
	warehouses			int DEFAULT 1)
RETURNS polarbench_init_result
AS 'MODULE_PATHNAME', 'polarbench_init'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_init(text, int, int, int, bigint, int, int,
	int, int, boolean, int, text, boolean, boolean, boolean, boolean, int)
	FROM PUBLIC;

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
/* polarbench install script: reports */

/*
 * A finished run as the tool its user knows would have printed it: style
 * 'pgbench', 'sysbench', 'ycsb' or 'json' (every figure); by default the
 * style of the workload's tool (polarbench_workloads.report_style).
 * options asks a pgbench report for each statement's figures
 * ({"statements": true}, pgbench's -r; by default they are shown) and for
 * the failures by kind ({"failures_detailed": true}, pgbench's
 * --failures-detailed; by default, when there are any).
 */
CREATE FUNCTION polarbench_report(run_id bigint, style text DEFAULT NULL,
								  options jsonb DEFAULT NULL)
RETURNS text
AS 'MODULE_PATHNAME', 'polarbench_report'
LANGUAGE C STABLE PARALLEL RESTRICTED;

/* polarbench install script: background runs, watched and steered from any session */

/*
 * Start a run in the background: polarbench_run's arguments, checked
 * before anything starts; returns the run's id as soon as it is recorded
 * and its clients are released.  The run goes on after the calling
 * statement and transaction end, and holds no snapshot of the caller.
 */
CREATE FUNCTION polarbench_start(
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
	options			jsonb DEFAULT NULL,
	rate			float8 DEFAULT NULL,
	latency_limit	float8 DEFAULT NULL,
	max_tries		int DEFAULT 1,
	warmup			float8 DEFAULT 0,
	counters_only	boolean DEFAULT false,
	settings		jsonb DEFAULT NULL,
	server_settings	jsonb DEFAULT NULL,
	script_names	text[] DEFAULT NULL)
RETURNS bigint
AS 'MODULE_PATHNAME', 'polarbench_start'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_start(text, int, float8, bigint, int, text,
	int, text[], int[], jsonb, bigint, int, jsonb, float8, float8, int, float8,
	boolean, jsonb, jsonb, text[]) FROM PUBLIC;

/*
 * Wait for a run to end, at most timeout seconds (NULL: as long as it
 * lasts), and return its summary; NULL if the time ran out.  A failed run
 * raises its error, a canceled one says so.  For the run's role, roles
 * with its privileges and superusers.
 */
CREATE FUNCTION polarbench_wait(run_id bigint, timeout float8 DEFAULT NULL)
RETURNS polarbench_result
AS 'MODULE_PATHNAME', 'polarbench_wait'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

/*
 * Stop a run that goes on; it is recorded as canceled.  True if it was
 * told to stop, false if it had ended.  For the run's role, roles with its
 * privileges and superusers.
 */
CREATE FUNCTION polarbench_cancel(run_id bigint)
RETURNS boolean
AS 'MODULE_PATHNAME', 'polarbench_cancel'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

/* The figures of the last second of every run that goes on */
CREATE FUNCTION polarbench_live_runs(
	OUT run_id bigint, OUT warming_up boolean, OUT elapsed float8,
	OUT clients int, OUT transactions bigint, OUT tps float8, OUT qps float8,
	OUT failed_per_second float8, OUT retried_per_second float8,
	OUT latency_avg float8, OUT latency_p50 float8, OUT latency_p90 float8,
	OUT latency_p95 float8, OUT latency_p99 float8, OUT latency_p999 float8,
	OUT latency_max float8, OUT lag_avg float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'polarbench_live_runs'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

CREATE VIEW polarbench_live AS
	SELECT l.run_id, r.workload, r.run_by, l.warming_up, l.elapsed,
		   l.clients, l.transactions, l.tps, l.qps, l.failed_per_second,
		   l.retried_per_second, l.latency_avg, l.latency_p50, l.latency_p90,
		   l.latency_p95, l.latency_p99, l.latency_p999, l.latency_max,
		   l.lag_avg
	  FROM polarbench_live_runs() l
	  JOIN polarbench_runs r USING (run_id);

GRANT SELECT ON polarbench_live TO PUBLIC;

/* polarbench install script: sweeps, and the reference reports' tables made of them */

/*
 * Every combination of clients, server setting sets, setting sets,
 * variable sets and option sets, each one run as polarbench_run runs it,
 * repeat times: for each repetition, for each server setting set, for each
 * setting set, for each variable set, for each option
 * set, every client count in order.  One row per run; the runs are
 * recorded with the sweep's id, the id of its first run.
 */
CREATE FUNCTION polarbench_sweep(
	workload		text DEFAULT NULL,
	clients			int[] DEFAULT '{1}',
	settings		jsonb[] DEFAULT NULL,
	vars			jsonb[] DEFAULT NULL,
	options			jsonb[] DEFAULT NULL,
	duration		float8 DEFAULT NULL,
	transactions	bigint DEFAULT NULL,
	repeat			int DEFAULT 1,
	warmup			float8 DEFAULT 0,
	script			text DEFAULT NULL,
	random_seed		bigint DEFAULT NULL,
	scale			int DEFAULT NULL,
	rate			float8 DEFAULT NULL,
	latency_limit	float8 DEFAULT NULL,
	max_tries		int DEFAULT 1,
	server_settings	jsonb[] DEFAULT NULL,
	OUT sweep_id bigint, OUT run_id bigint, OUT repetition int,
	OUT setting_set int, OUT run_clients int, OUT run_settings jsonb,
	OUT run_vars jsonb, OUT run_options jsonb, OUT run_transactions bigint,
	OUT tps float8, OUT qps float8, OUT latency_avg float8,
	OUT latency_p95 float8, OUT latency_p99 float8, OUT failed bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'polarbench_sweep'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_sweep(text, int[], jsonb[], jsonb[], jsonb[],
	float8, bigint, int, float8, text, bigint, int, float8, float8, int, jsonb[])
	FROM PUBLIC;

/*
 * A sweep as the reference reports tabulate one: a row per client count, a column
 * per setting set (with its variable and option sets, when they vary),
 * and in each cell the metric (qps, tps, latency_avg, latency_p50 ..
 * latency_p999, latency_max, failed): with repetitions, their geometric
 * mean and its 95% interval (Student's t on the logs; their median and
 * spread, half the range as a share of the median, when a figure is
 * zero).  compare_to => N marks every other cell faster, slower or no
 * difference shown against column N's at the same client count, as
 * polarbench_compare_figures() compares them.
 */
CREATE FUNCTION polarbench_sweep_table(sweep_id bigint, metric text DEFAULT 'qps',
									   compare_to int DEFAULT NULL)
RETURNS SETOF text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	columns		text[];
	widths		int[];
	line		text;
	width0		int := 7;
	cells		jsonb := '{}';
	figures		jsonb := '{}';
	clients		int[] := '{}';
	cr			record;
	iv			record;
	cmp			record;
	cell		text;
	key			text;
	ref			text;
	by_vars		boolean;
	by_options	boolean;
	repeated	boolean := false;
BEGIN
	IF metric IS NULL OR metric NOT IN ('qps', 'tps', 'latency_avg', 'latency_p50',
			'latency_p90', 'latency_p95', 'latency_p99', 'latency_p999',
			'latency_max', 'failed') THEN
		RAISE EXCEPTION 'unrecognized sweep metric "%"', metric
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'The metrics are qps, tps, latency_avg, latency_p50, latency_p90, latency_p95, latency_p99, latency_p999, latency_max and failed.';
	END IF;
	IF compare_to IS NOT NULL AND metric = 'failed' THEN
		RAISE EXCEPTION 'compare_to marks cells of throughput or latency, not of failed transactions'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Give a metric of throughput (qps, tps) or of latency.';
	END IF;
	-- the columns: each setting set with its variable and option sets, in order
	SELECT count(DISTINCT coalesce(r.vars::text, '')) > 1,
		   count(DISTINCT coalesce(r.options::text, '')) > 1
	  INTO by_vars, by_options
	  FROM @extschema@.polarbench_runs r
	 WHERE r.sweep_id = polarbench_sweep_table.sweep_id;
	SELECT array_agg(label ORDER BY first) INTO columns
	  FROM (SELECT 'set ' || r.sweep_set
				   || coalesce(' server ' || r.server_settings::text, '')
				   || coalesce(' ' || r.settings::text, '')
				   || CASE WHEN by_vars THEN coalesce(' vars ' || r.vars::text, '') ELSE '' END
				   || CASE WHEN by_options THEN coalesce(' options ' || r.options::text, '') ELSE '' END AS label,
				   min(r.sweep_run) AS first
			  FROM @extschema@.polarbench_runs r
			 WHERE r.sweep_id = polarbench_sweep_table.sweep_id
			 GROUP BY 1) l;
	IF columns IS NULL THEN
		RAISE EXCEPTION 'sweep % does not exist', polarbench_sweep_table.sweep_id
			USING ERRCODE = 'undefined_object',
				  HINT = 'A sweep''s id is the run_id of its first run; its runs are in polarbench_runs with that sweep_id.';
	END IF;
	IF compare_to < 1 OR compare_to > cardinality(columns) THEN
		RAISE EXCEPTION 'compare_to must be a column of sweep %, from 1 to %',
			polarbench_sweep_table.sweep_id, cardinality(columns)
			USING ERRCODE = 'invalid_parameter_value';
	END IF;

	-- every cell, as text, by client count and column, and its figures
	FOR cr IN EXECUTE format($q$
		SELECT r.clients, array_position($2, 'set ' || r.sweep_set
				   || coalesce(' server ' || r.server_settings::text, '')
				   || coalesce(' ' || r.settings::text, '')
				   || CASE WHEN $3 THEN coalesce(' vars ' || r.vars::text, '') ELSE '' END
				   || CASE WHEN $4 THEN coalesce(' options ' || r.options::text, '') ELSE '' END) AS col,
			   array_agg(r.%1$I::float8 ORDER BY r.sweep_run) AS figures,
			   CASE WHEN count(*) = 1 THEN round(min(r.%1$I)::numeric, 3)::text
					ELSE round(percentile_cont(0.5) WITHIN GROUP (ORDER BY r.%1$I)::numeric, 3)::text
						 || coalesce(' ±' || round((100 * (max(r.%1$I) - min(r.%1$I)) / 2
								/ nullif(percentile_cont(0.5) WITHIN GROUP (ORDER BY r.%1$I), 0))::numeric, 1)
						 || '%%', '')
			   END AS cell
		  FROM @extschema@.polarbench_runs r
		 WHERE r.sweep_id = $1
		 GROUP BY r.clients, 2$q$, metric)
		USING polarbench_sweep_table.sweep_id, columns, by_vars, by_options
	LOOP
		key := cr.clients || ':' || cr.col;
		cell := cr.cell;
		IF cardinality(cr.figures) >= 2 THEN
			repeated := true;
			SELECT * INTO iv FROM @extschema@.polarbench_interval(cr.figures);
			IF iv.center IS NOT NULL THEN
				cell := round(iv.center::numeric, 3) || ' [' || round(iv.low::numeric, 3)
						|| ', ' || round(iv.high::numeric, 3) || ']';
			END IF;
		END IF;
		cells := cells || jsonb_build_object(key, coalesce(cell, ''));
		figures := figures || jsonb_build_object(key, to_jsonb(cr.figures));
		IF NOT cr.clients = ANY (clients) THEN
			clients := clients || cr.clients;
		END IF;
	END LOOP;
	SELECT array_agg(x ORDER BY x) INTO clients FROM unnest(clients) x;

	-- the marks: each cell against column compare_to's at its client count
	IF compare_to IS NOT NULL THEN
		IF NOT repeated THEN
			RAISE EXCEPTION 'sweep % has no repetitions to compare', polarbench_sweep_table.sweep_id
				USING ERRCODE = 'object_not_in_prerequisite_state',
					  HINT = 'A cell of one run has no interval: run the sweep with repeat => 2 or more.';
		END IF;
		FOR n IN 1..cardinality(clients) LOOP
			ref := clients[n] || ':' || compare_to;
			CONTINUE WHEN figures->ref IS NULL;
			FOR c IN 1..cardinality(columns) LOOP
				key := clients[n] || ':' || c;
				CONTINUE WHEN c = compare_to OR figures->key IS NULL;
				SELECT * INTO cmp
				  FROM @extschema@.polarbench_compare_figures(
						ARRAY(SELECT jsonb_array_elements_text(figures->ref)::float8),
						ARRAY(SELECT jsonb_array_elements_text(figures->key)::float8),
						lower_is_better => metric LIKE 'latency%');
				IF cmp.verdict IS NOT NULL THEN
					cells := jsonb_set(cells, ARRAY[key], to_jsonb((cells->>key) || ' ' || cmp.verdict));
				END IF;
			END LOOP;
		END LOOP;
	END IF;

	widths := array_fill(0, ARRAY[cardinality(columns)]);
	FOR c IN 1..cardinality(columns) LOOP
		widths[c] := length(columns[c]);
		FOR n IN 1..cardinality(clients) LOOP
			widths[c] := greatest(widths[c], length(coalesce(cells->>(clients[n] || ':' || c), '')));
		END LOOP;
	END LOOP;

	line := lpad('clients', width0);
	FOR c IN 1..cardinality(columns) LOOP
		line := line || ' | ' || rpad(columns[c], widths[c]);
	END LOOP;
	RETURN NEXT line;
	line := repeat('-', width0);
	FOR c IN 1..cardinality(columns) LOOP
		line := line || '-+-' || repeat('-', widths[c]);
	END LOOP;
	RETURN NEXT line;
	FOR n IN 1..cardinality(clients) LOOP
		line := lpad(clients[n]::text, width0);
		FOR c IN 1..cardinality(columns) LOOP
			line := line || ' | ' || lpad(coalesce(cells->>(clients[n] || ':' || c), ''), widths[c]);
		END LOOP;
		RETURN NEXT line;
	END LOOP;
END
$$;

/* polarbench install script: runs across a primary and its hot standbys */

/*
 * The whole of a run as one document: its row, progress, statements,
 * operations, clients, histogram and wait events, as
 * polarbench_report(run_id, 'json') gives them.  A run on a hot standby,
 * which stores nothing, has a negative id and is kept only by the session
 * that ran it, for its last 16 runs.
 */
CREATE FUNCTION polarbench_run_document(run_id bigint)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'polarbench_run_document'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

/*
 * Store on the primary a run from another node (a hot standby's), from its
 * document, as the caller's run, with node naming where it ran.  Returns
 * the run's id here.
 */
CREATE FUNCTION polarbench_record(document jsonb, node text)
RETURNS bigint
AS 'MODULE_PATHNAME', 'polarbench_record'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_record(jsonb, text) FROM PUBLIC;
/* polarbench install script: what polarbench runs and loads */

/*
 * Every workload polarbench_run() takes by name: its kind (whose driver
 * runs it), what it is, whether it writes with its default options (a hot
 * standby runs only those that do not), the report style of its tool, and
 * its options (for options =>): each one's name, type, default, range or
 * values, and what it means.
 */
CREATE FUNCTION polarbench_workload_list(
	OUT name text, OUT kind text, OUT description text, OUT writes boolean,
	OUT report_style text, OUT options jsonb)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'polarbench_workload_list'
LANGUAGE C STRICT STABLE PARALLEL SAFE;

CREATE VIEW polarbench_workloads AS
	SELECT name, kind, description, writes, report_style, options
	  FROM polarbench_workload_list();

GRANT SELECT ON polarbench_workloads TO PUBLIC;

/*
 * Every data set polarbench_init() loads, with the arguments of
 * polarbench_init() it reads of its own (beyond parallel, fillfactor,
 * unlogged, drop, progress and wal_compression, which every one reads):
 * each one's name, type, default and what it means for that data set.
 */
CREATE FUNCTION polarbench_dataset_list(
	OUT dataset text, OUT description text, OUT argument text,
	OUT argument_description text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'polarbench_dataset_list'
LANGUAGE C STRICT STABLE PARALLEL SAFE;

CREATE VIEW polarbench_datasets AS
	SELECT l.dataset AS name, l.description,
		   coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
						'name', l.argument,
						'type', pg_catalog.format_type(a.type, NULL),
						'default', pg_catalog.regexp_replace(
							pg_catalog.pg_get_function_arg_default(f.oid, a.n::int),
							'^''(.*)''::[a-z ]+$', '\1'),
						'description', l.argument_description) ORDER BY a.n)
					FILTER (WHERE l.argument IS NOT NULL), '[]') AS options
	  FROM polarbench_dataset_list() WITH ORDINALITY l(dataset, description, argument,
													 argument_description, ord)
	 CROSS JOIN (SELECT '@extschema@.polarbench_init(text, int, int, int, bigint, int, int, int, int, boolean, int, text, boolean, boolean, boolean, boolean, int)'::pg_catalog.regprocedure::pg_catalog.oid AS oid) f
	  LEFT JOIN LATERAL (SELECT u.n, p.proargtypes[u.n OPERATOR(pg_catalog.-) 1] AS type
						   FROM pg_catalog.pg_proc p,
								pg_catalog.unnest(p.proargnames) WITH ORDINALITY u(argname, n)
						  WHERE p.oid OPERATOR(pg_catalog.=) f.oid
							AND u.argname OPERATOR(pg_catalog.=) l.argument) a ON true
	 GROUP BY l.dataset, l.description
	 ORDER BY pg_catalog.min(l.ord);

GRANT SELECT ON polarbench_datasets TO PUBLIC;
/* polarbench install script: comparisons of runs, with their intervals */

/*
 * Is B faster than A, by how much, and how sure: one row per metric (tps,
 * qps, latency_avg, latency_p50, latency_p95, latency_p99, and the latency
 * metrics of each statement or operation when both sides run the same
 * workload) with A's value, B's (value_a, value_b: the geometric mean of
 * a side's runs, or its one run's), the ratio B/A and its 95% interval, the
 * verdict (faster, slower, no difference shown; equivalent when the
 * interval lies within 1 +- threshold), the method, and for a difference
 * not shown how many runs a side would show one of the size seen.  With
 * two or more runs on a side, runs are the unit (Welch's t on the logs of
 * their figures); with one run a side, the runs' progress intervals (batch
 * means, and a block bootstrap of the interval histograms for
 * percentiles).  A role compares only runs whose texts it may read.
 */
CREATE FUNCTION polarbench_compare(a bigint[], b bigint[],
								   threshold float8 DEFAULT NULL,
								   OUT metric text, OUT part text,
								   OUT value_a float8, OUT value_b float8,
								   OUT ratio float8, OUT ratio_low float8,
								   OUT ratio_high float8, OUT verdict text,
								   OUT method text, OUT runs_needed int,
								   OUT note text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'polarbench_compare'
LANGUAGE C CALLED ON NULL INPUT STABLE PARALLEL RESTRICTED;

/* The same, for one run on each side */
CREATE FUNCTION polarbench_compare(a bigint, b bigint,
								   threshold float8 DEFAULT NULL,
								   OUT metric text, OUT part text,
								   OUT value_a float8, OUT value_b float8,
								   OUT ratio float8, OUT ratio_low float8,
								   OUT ratio_high float8, OUT verdict text,
								   OUT method text, OUT runs_needed int,
								   OUT note text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'polarbench_compare'
LANGUAGE C CALLED ON NULL INPUT STABLE PARALLEL RESTRICTED;

/*
 * Whether a run's throughput drifted: its last third against its first,
 * from batch means of its progress intervals, with the drift in percent
 * and its 95% interval.  A drifting machine makes every comparison with
 * the run doubtful; polarbench_compare warns of it.
 */
CREATE FUNCTION polarbench_steadiness(run_id bigint, OUT drifted boolean,
									  OUT drift float8, OUT drift_low float8,
									  OUT drift_high float8,
									  OUT first_tps float8, OUT last_tps float8,
									  OUT batch_length int, OUT method text,
									  OUT note text)
RETURNS record
AS 'MODULE_PATHNAME', 'polarbench_steadiness'
LANGUAGE C CALLED ON NULL INPUT STABLE PARALLEL RESTRICTED;

/*
 * The geometric mean of some figures (a sweep cell's repetitions) and its
 * 95% interval, Student's t on their logs; nulls are left out, and there
 * is no interval under two figures or with one of zero.
 */
CREATE FUNCTION polarbench_interval(figures float8[],
									OUT center float8, OUT low float8,
									OUT high float8)
RETURNS record
AS 'MODULE_PATHNAME', 'polarbench_interval'
LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

/*
 * Two sets of figures compared as polarbench_compare compares runs' (runs
 * as the unit): the ratio of b's geometric mean to a's, its 95% interval
 * by Welch's t on the logs, the verdict (lower_is_better for latencies),
 * the method, and the runs a side that would show a difference of the size
 * seen.  Nulls are left out.
 */
CREATE FUNCTION polarbench_compare_figures(a float8[], b float8[],
										   lower_is_better boolean DEFAULT false,
										   threshold float8 DEFAULT NULL,
										   OUT ratio float8, OUT ratio_low float8,
										   OUT ratio_high float8, OUT verdict text,
										   OUT method text, OUT runs_needed int)
RETURNS record
AS 'MODULE_PATHNAME', 'polarbench_compare_figures'
LANGUAGE C CALLED ON NULL INPUT IMMUTABLE PARALLEL SAFE;
