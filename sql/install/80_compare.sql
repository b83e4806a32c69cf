/* polarbench install script: comparisons of runs, with their intervals */

/*
 * Is B faster than A, by how much, and how sure: one row per metric (tps,
 * qps, latency_avg, latency_p50, latency_p95, latency_p99, and the latency
 * metrics of each statement or operation when both sides run the same
 * workload) with A's value, B's (value_a, value_b: the geometric mean of
 * a side's runs, or its one run's), the ratio B/A and its 95% interval, the
 * verdict (faster, slower, no difference shown; equivalent when the
 * interval lies within 1 +- threshold), the method, and for a difference
 * not shown how many runs a side would show one of the size seen; no
 * interval nor verdict when a side's figures do not spread.  A run is on
 * one side only, but for a run against itself alone.  With
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
 * 95% interval, Student's t on their logs; nulls are left out, a figure
 * that is NaN, infinite or negative is refused, and there is no interval
 * (nor center) under two figures, with one of zero, or when they are all
 * the same.
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
 * seen.  Nulls are left out; a figure that is not finite and above zero is
 * refused.  A side of two or more figures all the same has no spread: no
 * interval and no verdict then.
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
