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
		CHECK (status IN ('running', 'finished', 'failed', 'canceled', 'aborted')),
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
	figures				jsonb,
	end_grace			float8,
	cut_off				bigint,
	environment			jsonb,
	failed_other		bigint
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
	failed_other		bigint,
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

/*
 * The figures of a workload's named operations (polarbench_operations):
 * YCSB's READ, UPDATE, INSERT, SCAN and READ-MODIFY-WRITE, TPC-C's five
 * transactions
 */
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
 * A run's environment (where it ran: server, settings, machine, data set)
 * as the current role may see it: to those polarbench_may_read() allows,
 * with its settings' values as polarbench_shown_settings() shows them.
 */
CREATE FUNCTION polarbench_shown_environment(environment jsonb, run_by oid)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT CASE WHEN @extschema@.polarbench_may_read(run_by) THEN
		environment OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object('settings',
			@extschema@.polarbench_shown_settings(environment OPERATOR(pg_catalog.->) 'settings'))
	END
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
 * error message, settings, server settings and environment) only to those
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
		   r.figures, r.end_grace, r.cut_off,
		   polarbench_shown_environment(r.environment, r.run_by) AS environment,
		   r.failed_other
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
		   late, lag_avg, latency_histogram, failed_other
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
		   o.operations::float8 / nullif(r.seconds, 0::float8) AS throughput,
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
	lag_max			float8,
	cut_off			bigint,
	failed_other	bigint
);

/*
 * Start a benchmark run and wait for its end.  workload names built-in
 * scripts, comma separated, each with an optional @weight as pgbench's -b;
 * script and scripts give custom scripts in pgbench's language, with
 * script_weight and weights as pgbench's -f file@weight.  workload may
 * instead name a workload of another tool: one of sysbench's OLTP
 * workloads (oltp_read_write, ...), YCSB's (ycsb-a .. ycsb-f, ycsb-load) or
 * TPC-C (tpcc), whose options (sysbench's, YCSB's properties, TPC-C's mix)
 * go in options; polarbench_workloads lists them all, with their options.  script_names names the scripts in pgbench's report, as
 * pgbench names them by their files.  end_grace is how many seconds the
 * transactions in flight at the end of the duration may take before their
 * statements are canceled (polarbench.end_grace if NULL); those are
 * counted in cut_off.  nodes => 'all' on a Citus coordinator runs the
 * clients on every node of the cluster (clients per node) and records one
 * run, their sum, with each node's figures in figures->'nodes'; 'local'
 * (or NULL) runs on this server.  Latencies are in milliseconds.
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
	script_names	text[] DEFAULT NULL,
	end_grace		float8 DEFAULT NULL,
	nodes			text DEFAULT NULL)
RETURNS polarbench_result
AS 'MODULE_PATHNAME', 'polarbench_run'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_run(text, int, float8, bigint, int, text,
	int, text[], int[], jsonb, bigint, int, jsonb, float8, float8, int, float8,
	boolean, jsonb, jsonb, text[], float8, text) FROM PUBLIC;

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
