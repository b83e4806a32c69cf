/* polarbench 1.0 to 1.1: a run's texts only to those who may read them, a
 * run whose recorder is gone shown as failed */

\echo Use "ALTER EXTENSION polarbench UPDATE TO '1.1'" to load this file. \quit

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
		   r.weights
	  FROM polarbench_run_data r
	  LEFT JOIN pg_catalog.pg_roles a ON a.oid = r.run_by
	  CROSS JOIN LATERAL (SELECT polarbench_may_read(r.run_by) AS may_read) v
	  CROSS JOIN LATERAL polarbench_run_status(r.status, r.recorder_pid,
											   r.started_at, r.error_sqlstate,
											   r.error_message) s;

CREATE OR REPLACE VIEW polarbench_statements AS
	SELECT s.run_id, s.script_no, s.command_no, s.line,
		   CASE WHEN polarbench_may_read(r.run_by) THEN s.command END AS command,
		   s.executions, s.failures, s.latency_avg
	  FROM polarbench_statement_data s
	  JOIN polarbench_run_data r USING (run_id);
