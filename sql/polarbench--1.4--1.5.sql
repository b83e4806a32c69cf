/* polarbench 1.4 to 1.5 */

\echo Use "ALTER EXTENSION polarbench UPDATE TO '1.5'" to load this file. \quit

/*
 * A run with a duration gives the transactions in flight at its end a
 * grace (end_grace, or polarbench.end_grace), then cancels their
 * statements and counts them in cut_off.  The runs recorded before have
 * neither: their columns stay NULL.
 */
ALTER TABLE polarbench_run_data ADD COLUMN end_grace float8;
ALTER TABLE polarbench_run_data ADD COLUMN cut_off bigint;

CREATE OR REPLACE VIEW polarbench_runs AS
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
		   r.figures, r.end_grace, r.cut_off
	  FROM polarbench_run_data r
	  LEFT JOIN pg_catalog.pg_roles a ON a.oid = r.run_by
	  CROSS JOIN LATERAL (SELECT polarbench_may_read(r.run_by) AS may_read) v
	  CROSS JOIN LATERAL polarbench_run_status(r.status, r.recorder_pid,
											   r.started_at, r.error_sqlstate,
											   r.error_message) s;

ALTER TYPE polarbench_result ADD ATTRIBUTE cut_off bigint;

/*
 * polarbench_run, polarbench_start and polarbench_sweep take end_grace.  A
 * function's arguments change only with the function dropped, and with it
 * the privileges granted on it: they are named here, to be granted again.
 */
DO $$
DECLARE
	grant_list text;
BEGIN
	SELECT pg_catalog.string_agg(DISTINCT pg_catalog.format('GRANT EXECUTE ON FUNCTION %I.%I TO %I;',
															n.nspname, p.proname, r.rolname), ' ')
	  INTO grant_list
	  FROM pg_catalog.pg_proc p
	  JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) p.pronamespace
	 CROSS JOIN LATERAL pg_catalog.aclexplode(p.proacl) a
	  JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) a.grantee
	 WHERE n.nspname OPERATOR(pg_catalog.=) '@extschema@'
	   AND p.proname OPERATOR(pg_catalog.=) ANY (ARRAY['polarbench_run', 'polarbench_start', 'polarbench_sweep']::pg_catalog.name[])
	   AND a.grantee OPERATOR(pg_catalog.<>) p.proowner
	   AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE';
	IF grant_list IS NOT NULL THEN
		RAISE WARNING 'the privileges granted on polarbench_run, polarbench_start and polarbench_sweep are dropped with them'
			USING HINT = 'Grant them again on the new functions: ' OPERATOR(pg_catalog.||) grant_list;
	END IF;
END
$$;

DROP FUNCTION polarbench_run(text, int, float8, bigint, int, text, int, text[],
	int[], jsonb, bigint, int, jsonb, float8, float8, int, float8, boolean,
	jsonb, jsonb, text[]);
DROP FUNCTION polarbench_start(text, int, float8, bigint, int, text, int,
	text[], int[], jsonb, bigint, int, jsonb, float8, float8, int, float8,
	boolean, jsonb, jsonb, text[]);
DROP FUNCTION polarbench_sweep(text, int[], jsonb[], jsonb[], jsonb[],
	float8, bigint, int, float8, text, bigint, int, float8, float8, int, jsonb[]);

/*
 * Start a benchmark run and wait for its end.  workload names built-in
 * scripts, comma separated, each with an optional @weight as pgbench's -b;
 * script and scripts give custom scripts in pgbench's language, with
 * script_weight and weights as pgbench's -f file@weight.  workload may
 * instead name one of sysbench's OLTP workloads (oltp_read_write, ...) or
 * YCSB's (ycsb-a .. ycsb-f, ycsb-load), whose options (sysbench's, YCSB's
 * properties) go in options; polarbench_workloads lists them all, with
 * their options.  script_names names the scripts in pgbench's report, as
 * pgbench names them by their files.  end_grace is how many seconds the
 * transactions in flight at the end of the duration may take before their
 * statements are canceled (polarbench.end_grace if NULL); those are
 * counted in cut_off.  Latencies are in milliseconds.
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
	end_grace		float8 DEFAULT NULL)
RETURNS polarbench_result
AS 'MODULE_PATHNAME', 'polarbench_run'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_run(text, int, float8, bigint, int, text,
	int, text[], int[], jsonb, bigint, int, jsonb, float8, float8, int, float8,
	boolean, jsonb, jsonb, text[], float8) FROM PUBLIC;

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
	script_names	text[] DEFAULT NULL,
	end_grace		float8 DEFAULT NULL)
RETURNS bigint
AS 'MODULE_PATHNAME', 'polarbench_start'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_start(text, int, float8, bigint, int, text,
	int, text[], int[], jsonb, bigint, int, jsonb, float8, float8, int, float8,
	boolean, jsonb, jsonb, text[], float8) FROM PUBLIC;

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
	end_grace		float8 DEFAULT NULL,
	OUT sweep_id bigint, OUT run_id bigint, OUT repetition int,
	OUT setting_set int, OUT run_clients int, OUT run_settings jsonb,
	OUT run_vars jsonb, OUT run_options jsonb, OUT run_transactions bigint,
	OUT tps float8, OUT qps float8, OUT latency_avg float8,
	OUT latency_p95 float8, OUT latency_p99 float8, OUT failed bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'polarbench_sweep'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_sweep(text, int[], jsonb[], jsonb[], jsonb[],
	float8, bigint, int, float8, text, bigint, int, float8, float8, int, jsonb[],
	float8) FROM PUBLIC;

/* the live figures show the transactions cut off so far */
DROP VIEW polarbench_live;
DROP FUNCTION polarbench_live_runs();

/*
 * The figures of the last second of every run that goes on; cut_off, the
 * transactions the run's end has cut off so far
 */
CREATE FUNCTION polarbench_live_runs(
	OUT run_id bigint, OUT warming_up boolean, OUT elapsed float8,
	OUT clients int, OUT transactions bigint, OUT tps float8, OUT qps float8,
	OUT failed_per_second float8, OUT retried_per_second float8,
	OUT latency_avg float8, OUT latency_p50 float8, OUT latency_p90 float8,
	OUT latency_p95 float8, OUT latency_p99 float8, OUT latency_p999 float8,
	OUT latency_max float8, OUT lag_avg float8, OUT cut_off bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'polarbench_live_runs'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

CREATE VIEW polarbench_live AS
	SELECT l.run_id, r.workload, r.run_by, l.warming_up, l.elapsed,
		   l.clients, l.transactions, l.tps, l.qps, l.failed_per_second,
		   l.retried_per_second, l.latency_avg, l.latency_p50, l.latency_p90,
		   l.latency_p95, l.latency_p99, l.latency_p999, l.latency_max,
		   l.lag_avg, l.cut_off
	  FROM polarbench_live_runs() l
	  JOIN polarbench_runs r USING (run_id);

GRANT SELECT ON polarbench_live TO PUBLIC;
