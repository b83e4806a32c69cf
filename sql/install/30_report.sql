/* polarbench install script: reports */

/*
 * A finished run as the tool its user knows would have printed it: style
 * 'json' (every figure) or the report style of a workload's tool
 * (polarbench_workloads.report_style: 'pgbench', 'sysbench', 'ycsb',
 * 'tpcc'); by default the style of the run's workload.
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
