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
