/* polarbench install script: the report people publish, as one HTML page */

/*
 * A finished run's report as one self-contained HTML page (inline CSS and
 * SVG; no script, font or image fetched from anywhere): the method, the
 * latency percentiles, throughput and p99 latency over time, the
 * environment, and the report in its tool's words.  paper is the printed
 * page's size, 'A4' or 'letter'.  Everything from the database is
 * HTML-escaped; the caller sees what it may read in the views.
 */
CREATE FUNCTION polarbench_report_html(run_id bigint, paper text DEFAULT 'A4')
RETURNS text
AS 'MODULE_PATHNAME', 'polarbench_report_html'
LANGUAGE C STABLE PARALLEL RESTRICTED;

/*
 * A comparison's report, the same way: polarbench_compare(a, b)'s rows and
 * their ratios with 95% intervals drawn, both sides' runs over time, their
 * percentiles, and the environment of each side's first run.
 */
CREATE FUNCTION polarbench_report_html(a bigint[], b bigint[], paper text DEFAULT 'A4')
RETURNS text
AS 'MODULE_PATHNAME', 'polarbench_compare_report_html'
LANGUAGE C STABLE PARALLEL RESTRICTED;

/*
 * The report of sweeps, the same way (the command-line program's sweep is
 * one sweep a setting set): each one's polarbench_sweep_table(sweep_id,
 * metric), the metric against concurrency with each cell's 95% interval
 * over its repetitions, a line per setting set, the runs' percentiles, and
 * the environment of the first run.
 */
CREATE FUNCTION polarbench_sweep_report_html(sweep_ids bigint[], metric text DEFAULT 'qps',
											 paper text DEFAULT 'A4')
RETURNS text
AS 'MODULE_PATHNAME', 'polarbench_sweep_report_html'
LANGUAGE C STABLE PARALLEL RESTRICTED;
