/* polarbench 1.2 to 1.3: runs across a primary and its hot standbys */

\echo Use "ALTER EXTENSION polarbench UPDATE TO '1.3'" to load this file. \quit

/* a run stored from another node names it */
ALTER TABLE polarbench_run_data ADD COLUMN node text;

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
		   CASE WHEN v.may_read THEN r.settings END AS settings,
		   CASE WHEN v.may_read THEN r.effective_settings END AS effective_settings,
		   r.server_stats, r.sweep_id, r.sweep_run,
		   r.sweep_set, r.sweep_repeat, r.server_settings, r.node
	  FROM polarbench_run_data r
	  LEFT JOIN pg_catalog.pg_roles a ON a.oid = r.run_by
	  CROSS JOIN LATERAL (SELECT polarbench_may_read(r.run_by) AS may_read) v
	  CROSS JOIN LATERAL polarbench_run_status(r.status, r.recorder_pid,
											   r.started_at, r.error_sqlstate,
											   r.error_message) s;

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
