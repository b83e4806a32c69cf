/* polarbench 1.3 to 1.4: reliability and security */

\echo Use "ALTER EXTENSION polarbench UPDATE TO '1.4'" to load this file. \quit

/*
 * The SQL functions' bodies are bound when they are created, with every
 * operator pg_catalog's: parsed at each call, they took the caller's
 * search_path, where another role could have put an operator of its own.
 */
CREATE OR REPLACE FUNCTION polarbench_may_read(run_by oid)
RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE
RETURN pg_catalog.pg_has_role('pg_read_all_stats', 'USAGE')
	OR coalesce((SELECT pg_catalog.pg_has_role(a.oid, 'USAGE')
				   FROM pg_catalog.pg_roles a
				  WHERE a.oid OPERATOR(pg_catalog.=) run_by), false);

CREATE OR REPLACE FUNCTION polarbench_histogram(run_id bigint,
									 OUT latency_from float8,
									 OUT latency_to float8,
									 OUT transactions bigint)
RETURNS SETOF record
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
	SELECT h.latency_from, h.latency_to, h.transactions
	  FROM @extschema@.polarbench_histograms h
	 WHERE h.run_id OPERATOR(pg_catalog.=) polarbench_histogram.run_id
	 ORDER BY h.latency_from;
END;

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
 * The views show the values of superuser-only parameters to those who may
 * read them, and divide with operators of exact types.
 */
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
		   r.node
	  FROM polarbench_run_data r
	  LEFT JOIN pg_catalog.pg_roles a ON a.oid = r.run_by
	  CROSS JOIN LATERAL (SELECT polarbench_may_read(r.run_by) AS may_read) v
	  CROSS JOIN LATERAL polarbench_run_status(r.status, r.recorder_pid,
											   r.started_at, r.error_sqlstate,
											   r.error_message) s;

CREATE OR REPLACE VIEW polarbench_operations AS
	SELECT o.run_id, o.operation, o.operations, o.errors, o.latency_avg,
		   o.latency_min, o.latency_max, o.latency_p95, o.latency_p99,
		   o.operations::float8 / nullif(r.seconds, 0) AS throughput,
		   o.latency_p50, o.latency_p90, o.latency_p999
	  FROM polarbench_operation_data o
	  JOIN polarbench_run_data r USING (run_id);

CREATE OR REPLACE VIEW polarbench_wait_events AS
	SELECT run_id, wait_event_type, wait_event, samples,
		   samples::float8 / (sum(samples) OVER (PARTITION BY run_id))::float8 AS share
	  FROM polarbench_wait_event_data;
