/* polarbench 1.4 to 1.5 */

\echo Use "ALTER EXTENSION polarbench UPDATE TO '1.5'" to load this file. \quit

/*
 * polarbench_operations: throughput's nullif() compares float8 with
 * float8, an operator pg_catalog has, so that one of (float8, integer)
 * in the extension's schema, planted before the view was made, cannot
 * match it better.
 */
CREATE OR REPLACE VIEW polarbench_operations AS
	SELECT o.run_id, o.operation, o.operations, o.errors, o.latency_avg,
		   o.latency_min, o.latency_max, o.latency_p95, o.latency_p99,
		   o.operations::float8 / nullif(r.seconds, 0::float8) AS throughput,
		   o.latency_p50, o.latency_p90, o.latency_p999, o.retries,
		   o.rollbacks
	  FROM polarbench_operation_data o
	  JOIN polarbench_run_data r USING (run_id);
