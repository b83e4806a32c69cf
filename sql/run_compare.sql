-- Comparisons: polarbench_compare() and polarbench_steadiness() on
-- synthetic runs stored with polarbench_record(), whose progress rows and
-- interval histograms are known, so that every figure here is the same on
-- every machine; then real runs, asserting only what timing cannot change
-- (a run against itself, select-only against tpcb-like); then every way
-- the arguments can be wrong.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT rows FROM polarbench_init('pgbench', scale => 1);
RESET client_min_messages;
-- run ids this file can show, whatever ran before it; put back at the end
SELECT last_value AS ids_before, is_called AS ids_called
  FROM polarbench_run_data_run_id_seq \gset
SELECT setval('polarbench_run_data_run_id_seq', 3000) > 0 AS ids_set;

-- A run of n one-second progress intervals, in a run's document: interval
-- i runs at tps * (1 + drift * i / n) * (1 + noise * sin(1.7 i)), its
-- transactions' latencies in four buckets around latency / that factor
-- (40% at half of it, 45% at it, 13% at twice it, 2% at five times it: p50
-- is the second bucket, p95 the third, p99 the fourth).
CREATE FUNCTION pg_temp.synthetic(tps float8, latency float8, n int,
								  noise float8 DEFAULT 0.01, drift float8 DEFAULT 0,
								  workload text DEFAULT 'select-only',
								  histograms boolean DEFAULT true,
								  counters_only boolean DEFAULT false)
RETURNS jsonb LANGUAGE sql AS $$
SELECT jsonb_build_object(
	'run', jsonb_build_object(
		'workload', workload, 'scripts', jsonb_build_array('SELECT 1;'),
		'weights', jsonb_build_array(1), 'clients', 1, 'duration', greatest(n, 1),
		'progress_interval', 1, 'random_seed', 1, 'status', 'finished',
		'started_at', '2024-01-01 00:00:00+00', 'ended_at', '2024-01-01 01:00:00+00',
		'seconds', n, 'transactions', round(tps * n), 'tps', tps, 'qps', tps,
		'latency_avg', latency, 'latency_p50', CASE WHEN NOT counters_only THEN latency END,
		'latency_p95', CASE WHEN NOT counters_only THEN 2 * latency END,
		'latency_p99', CASE WHEN NOT counters_only THEN 5 * latency END,
		'counters_only', counters_only, 'warmup', 0),
	'statements', jsonb_build_array(jsonb_build_object(
		'script_no', 1, 'command_no', 1, 'line', 1, 'command', 'SELECT 1;',
		'executions', round(tps * n), 'failures', 0, 'latency_avg', latency,
		'latency_p50', latency, 'latency_p95', 2 * latency, 'latency_p99', 5 * latency)),
	'progress', coalesce((
		SELECT jsonb_agg(jsonb_build_object(
				'elapsed', i, 'transactions', round(tps * f), 'tps', tps * f,
				'qps', tps * f, 'failed', 0, 'latency_avg', latency / f,
				'latency_histogram', CASE WHEN histograms AND NOT counters_only THEN
					jsonb_build_array(round(latency / f * 0.5e6), round(tps * f * 0.40),
									  round(latency / f * 1e6), round(tps * f * 0.45),
									  round(latency / f * 2e6), round(tps * f * 0.13),
									  round(latency / f * 5e6), round(tps * f * 0.02)) END)
				ORDER BY i)
		  FROM generate_series(1, n) i,
			   LATERAL (SELECT (1 + drift * i / n) * (1 + noise * sin(1.7 * i)) AS f) x), '[]'))
$$;

-- the figures of a comparison, rounded as the machine cannot change them
CREATE FUNCTION pg_temp.shown(a bigint[], b bigint[], threshold float8 DEFAULT NULL)
RETURNS TABLE (metric text, part text, a numeric, b numeric, ratio numeric,
			   low numeric, high numeric, verdict text, method text,
			   runs_needed int, note text)
LANGUAGE sql AS $$
SELECT c.metric, c.part, round(c.value_a::numeric, 4), round(c.value_b::numeric, 4),
	   round(c.ratio::numeric, 3), round(c.ratio_low::numeric, 3),
	   round(c.ratio_high::numeric, 3), c.verdict, c.method, c.runs_needed, c.note
  FROM polarbench_compare(a, b, threshold) c
$$;

-- one run a side: A at 1000 tps and 1 ms, its twin, B 10% faster
SELECT polarbench_record(pg_temp.synthetic(1000, 1, 60), 'synthetic') AS a1,
	   polarbench_record(pg_temp.synthetic(1000, 1, 60), 'synthetic') AS a1_twin,
	   polarbench_record(pg_temp.synthetic(1100, 1 / 1.1, 60), 'synthetic') AS b1 \gset
SELECT count(*) AS intervals, sum(cardinality(latency_histogram)) / 2 AS buckets
  FROM polarbench_progress WHERE run_id = :a1;

-- identical sides show no difference, 1 inside every interval
\x on
SELECT * FROM pg_temp.shown(ARRAY[:a1]::bigint[], ARRAY[:a1_twin]::bigint[]) WHERE part IS NULL;
\x off
SELECT bool_and(low < 1 AND high > 1 AND ratio = 1) AS one_inside,
	   bool_and(verdict = 'no difference shown') AS no_difference
  FROM pg_temp.shown(ARRAY[:a1]::bigint[], ARRAY[:a1_twin]::bigint[]) WHERE part IS NULL;

-- a 10% shift with small noise: faster, an interval around 1.10 (0.91 of
-- the latencies); the statement's figures, kept for the whole run only
SELECT metric, part, ratio, low, high, verdict, method, note
  FROM pg_temp.shown(ARRAY[:a1]::bigint[], ARRAY[:b1]::bigint[]);
-- the same from one bigint a side, and the same again: a fixed seed
SELECT (SELECT array_agg(c::text) FROM polarbench_compare(:a1, :b1) c) =
	   (SELECT array_agg(c::text) FROM polarbench_compare(ARRAY[:a1]::bigint[], ARRAY[:b1]::bigint[]) c)
	   AS reproducible;
-- with a threshold: a 10% difference is no equivalence at 5%, is at 20%
SELECT metric, verdict FROM pg_temp.shown(ARRAY[:a1]::bigint[], ARRAY[:b1]::bigint[], 0.05)
 WHERE part IS NULL;
SELECT metric, verdict FROM pg_temp.shown(ARRAY[:a1]::bigint[], ARRAY[:a1_twin]::bigint[], 0.2)
 WHERE part IS NULL;

-- a small difference not shown: how long the runs would have to be
SELECT polarbench_record(pg_temp.synthetic(1003, 1, 60, noise => 0.05), 'synthetic') AS a3,
	   polarbench_record(pg_temp.synthetic(1000, 1, 60, noise => 0.05), 'synthetic') AS b3 \gset
SELECT metric, ratio, verdict, note FROM pg_temp.shown(ARRAY[:a3]::bigint[], ARRAY[:b3]::bigint[])
 WHERE metric = 'tps';

-- runs as the unit: three runs a side, Welch's t on the logs of their
-- figures (the unit tests' known answer: 1.153 [1.046, 1.271], 3.3 df)
SELECT polarbench_record(pg_temp.synthetic(100, 1.2, 0), 'r') AS ra1,
	   polarbench_record(pg_temp.synthetic(110, 1.1, 0), 'r') AS ra2,
	   polarbench_record(pg_temp.synthetic(105, 1.15, 0), 'r') AS ra3,
	   polarbench_record(pg_temp.synthetic(120, 1.1, 0), 'r') AS rb1,
	   polarbench_record(pg_temp.synthetic(125, 0.9, 0), 'r') AS rb2,
	   polarbench_record(pg_temp.synthetic(118, 1.0, 0), 'r') AS rb3 \gset
SELECT metric, part, a, b, ratio, low, high, verdict, method, runs_needed, note
  FROM pg_temp.shown(ARRAY[:ra1, :ra2, :ra3]::bigint[], ARRAY[:rb1, :rb2, :rb3]::bigint[]);
-- one run against three: the three's spread for both
SELECT metric, ratio, low, high, verdict, method
  FROM pg_temp.shown(ARRAY[:ra1]::bigint[], ARRAY[:rb1, :rb2, :rb3]::bigint[]) WHERE metric = 'tps';
-- the same figures through polarbench_compare_figures(), as a sweep's table
-- marks its cells
SELECT round(ratio::numeric, 3) AS ratio, round(ratio_low::numeric, 3) AS low,
	   round(ratio_high::numeric, 3) AS high, verdict, method, runs_needed
  FROM polarbench_compare_figures('{100, 110, 105}', '{120, 125, NULL, 118}');
SELECT verdict FROM polarbench_compare_figures('{1, 1.1, 1.05}', '{1.2, 1.25, 1.18}', lower_is_better => true);
SELECT round(center::numeric, 3) AS center, round(low::numeric, 3) AS low,
	   round(high::numeric, 3) AS high FROM polarbench_interval('{100, 110, 121}');
SELECT * FROM polarbench_interval('{100}');
SELECT * FROM polarbench_interval('{100, 0}');

-- no spread on a side, no interval and no verdict: percentiles are
-- histogram buckets' values, so identical figures on a side are common
SELECT * FROM polarbench_compare_figures('{1, 1}', '{1.001, 1.001}');
SELECT round(ratio::numeric, 3) AS ratio, ratio_low, ratio_high, verdict, method, runs_needed
  FROM polarbench_compare_figures('{1, 1, 1}', '{1.3, 1.2, 1.25, 1.35}');
SELECT * FROM polarbench_compare_figures('{1}', '{1.2, 1.2}');
SELECT * FROM polarbench_interval('{5, 5, 5}');
-- a drifting run: found by polarbench_steadiness, and warned of
SELECT polarbench_record(pg_temp.synthetic(1000, 1, 90, drift => 0.2), 'synthetic') AS drifting \gset
SELECT drifted, round(drift::numeric, 1) AS drift, round(drift_low::numeric, 1) AS low,
	   round(drift_high::numeric, 1) AS high, round(first_tps) AS first_tps,
	   round(last_tps) AS last_tps, batch_length, method, note
  FROM polarbench_steadiness(:drifting);
SELECT drifted, round(drift::numeric, 1) AS drift, note FROM polarbench_steadiness(:a1);
SELECT metric, verdict, note FROM pg_temp.shown(ARRAY[:a1]::bigint[], ARRAY[:drifting]::bigint[])
 WHERE metric = 'tps';

-- what a row says when it can have no interval: no progress rows, too
-- few for batches, counters only, histograms not kept
SELECT polarbench_record(pg_temp.synthetic(1000, 1, 0), 'synthetic') AS none,
	   polarbench_record(pg_temp.synthetic(1000, 1, 5), 'synthetic') AS short,
	   polarbench_record(pg_temp.synthetic(1000, 1, 30, counters_only => true), 'synthetic') AS counters,
	   polarbench_record(pg_temp.synthetic(1000, 1, 30, histograms => false), 'synthetic') AS old \gset
SELECT metric, part, ratio, verdict, note FROM pg_temp.shown(ARRAY[:none]::bigint[], ARRAY[:short]::bigint[])
 WHERE part IS NULL;
SELECT metric, verdict, note FROM pg_temp.shown(ARRAY[:a1]::bigint[], ARRAY[:counters]::bigint[])
 WHERE part IS NULL;
SELECT metric, verdict, note FROM pg_temp.shown(ARRAY[:old]::bigint[], ARRAY[:a1]::bigint[])
 WHERE metric LIKE 'latency_p%' AND part IS NULL;
SELECT metric, verdict, note FROM pg_temp.shown(ARRAY[:ra1, :ra2]::bigint[], ARRAY[:counters, :a1]::bigint[])
 WHERE metric = 'latency_p99' AND part IS NULL;
SELECT * FROM polarbench_steadiness(:none);
SELECT * FROM polarbench_steadiness(:short);

-- runs of different workloads: their statements are left out, and said so
SELECT polarbench_record(pg_temp.synthetic(100, 10, 60, workload => 'tpcb-like'), 'synthetic') AS tpcb \gset
SELECT metric, part, verdict FROM pg_temp.shown(ARRAY[:a1]::bigint[], ARRAY[:tpcb]::bigint[]);

-- a compact histogram a document may not hold: pairs, counts not
-- negative, buckets a run can fill (below 2^45 ns, where the last one ends)
\set VERBOSITY terse
SELECT polarbench_record(jsonb_set(pg_temp.synthetic(1000, 1, 2), '{progress,0,latency_histogram}', '[1000, 5, 2000]'), 'x');
SELECT polarbench_record(jsonb_set(pg_temp.synthetic(1000, 1, 2), '{progress,0,latency_histogram}', '[1000, -5]'), 'x');
SELECT polarbench_record(jsonb_set(pg_temp.synthetic(1000, 1, 2), '{progress,0,latency_histogram}', '[35184372088832, 5]'), 'x');
SELECT polarbench_record(jsonb_set(pg_temp.synthetic(1000, 1, 2), '{progress,0,latency_histogram}', '[9000000000000000000, 5]'), 'x');
SELECT polarbench_record(jsonb_set(pg_temp.synthetic(1000, 1, 2), '{histogram}', '[{"latency_from": 34909494.181888, "latency_to": 35184372.089, "transactions": 1}]'), 'x');
SELECT polarbench_record(jsonb_set(pg_temp.synthetic(1000, 1, 2), '{progress,0,latency_histogram}', '[35184372088831, 5]'), 'x') > 0
	   AS last_bucket_kept;
-- figures no run records: NaN or infinite, a negative latency
SELECT polarbench_record(jsonb_set(pg_temp.synthetic(1000, 1, 2), '{run,tps}', '"NaN"'), 'x');
SELECT polarbench_record(jsonb_set(pg_temp.synthetic(1000, 1, 2), '{run,latency_p50}', '"Infinity"'), 'x');
SELECT polarbench_record(jsonb_set(pg_temp.synthetic(1000, 1, 2), '{progress,1,tps}', '"NaN"'), 'x');
SELECT polarbench_record(jsonb_set(pg_temp.synthetic(1000, 1, 2), '{progress,1,latency_avg}', '-1'), 'x');
SELECT polarbench_record(jsonb_set(pg_temp.synthetic(1000, 1, 2), '{statements,0,latency_p99}', '"Infinity"'), 'x');
\set VERBOSITY default

-- real runs, asserting what timing cannot change: a run against itself,
-- and select-only against tpcb-like (runs as the unit, no progress rows,
-- so no warning of drift can come from the machine)
SELECT run_id AS s1 FROM polarbench_run('select-only', duration => 1) \gset
SELECT run_id AS s2 FROM polarbench_run('select-only', duration => 1) \gset
SELECT run_id AS s3 FROM polarbench_run('select-only', duration => 1) \gset
SELECT run_id AS t1 FROM polarbench_run('tpcb-like', duration => 1) \gset
SELECT run_id AS t2 FROM polarbench_run('tpcb-like', duration => 1) \gset
SELECT run_id AS t3 FROM polarbench_run('tpcb-like', duration => 1) \gset
SELECT count(*) AS statement_rows
  FROM pg_temp.shown(ARRAY[:s1, :s2]::bigint[], ARRAY[:s3]::bigint[]) WHERE part IS NOT NULL;
SELECT metric, verdict FROM pg_temp.shown(ARRAY[:s1, :s2, :s3]::bigint[], ARRAY[:t1, :t2, :t3]::bigint[])
 WHERE metric IN ('tps', 'latency_avg');
-- one run a side: its progress rows in batch means and its histograms
-- bootstrapped against themselves (the machine's drift, if any, unsaid)
SET client_min_messages = error;
SELECT run_id AS p1 FROM polarbench_run('select-only', duration => 12, progress => 1) \gset
SELECT metric, ratio, low IS NULL OR (low <= 1 AND high >= 1) AS one_inside,
	   coalesce(verdict, 'no difference shown') AS verdict
  FROM pg_temp.shown(ARRAY[:p1]::bigint[], ARRAY[:p1]::bigint[]) WHERE part IS NULL;
RESET client_min_messages;

-- a sweep with repetitions: each cell's interval, and its mark against the
-- first column's (a sleep of 1 ms against one of 50 ms); the figures
-- masked, the marks kept
SET client_min_messages = warning;
SELECT sweep_id AS sweep FROM polarbench_sweep(script => E'\\sleep :t ms\n', clients => '{1}',
		vars => ARRAY['{"t": 1}', '{"t": 50}']::jsonb[], transactions => 5, repeat => 3) LIMIT 1 \gset
RESET client_min_messages;
CREATE FUNCTION pg_temp.masked(line text) RETURNS text LANGUAGE sql
RETURN rtrim(regexp_replace(regexp_replace(regexp_replace(line, '[0-9]+\.[0-9]+', 'N', 'g'),
												'-+', '-', 'g'), ' +', ' ', 'g'));
SELECT pg_temp.masked(line) FROM polarbench_sweep_table(:sweep, 'latency_avg', compare_to => 1) line;
SELECT pg_temp.masked(line) FROM polarbench_sweep_table(:sweep, 'tps', compare_to => 2) line;
SELECT pg_temp.masked(line) FROM polarbench_sweep_table(:sweep, 'tps') line;
\set SHOW_CONTEXT never
SELECT * FROM polarbench_sweep_table(:sweep, 'failed', compare_to => 1);
SELECT * FROM polarbench_sweep_table(:sweep, 'tps', compare_to => 3);
SET client_min_messages = warning;
SELECT sweep_id AS single FROM polarbench_sweep('select-only', transactions => 2) \gset
RESET client_min_messages;
SELECT * FROM polarbench_sweep_table(:single, 'tps', compare_to => 1);
\set SHOW_CONTEXT errors

-- who may compare: the runs whose texts a role may read
CREATE ROLE regress_pb_alice;
CREATE ROLE regress_pb_bob;
CREATE ROLE regress_pb_carol IN ROLE pg_read_all_stats;
GRANT EXECUTE ON FUNCTION polarbench_record TO regress_pb_alice;
SET ROLE regress_pb_alice;
SELECT polarbench_record(pg_temp.synthetic(1000, 1, 30), 'alice') AS alice_run \gset
SELECT count(*) AS rows FROM polarbench_compare(:alice_run, :alice_run);
SET ROLE regress_pb_bob;
SELECT * FROM polarbench_compare(:alice_run, :a1);
SELECT * FROM polarbench_steadiness(:alice_run);
SET ROLE regress_pb_carol;
SELECT count(*) AS rows FROM polarbench_compare(:alice_run, :a1);
RESET ROLE;
SELECT count(*) AS rows FROM polarbench_compare(:alice_run, :a1);

-- bad arguments
SELECT * FROM polarbench_compare(999999, :a1);
SELECT * FROM polarbench_compare(-3, :a1);
SELECT * FROM polarbench_compare('{}'::bigint[], ARRAY[:a1]::bigint[]);
SELECT * FROM polarbench_compare(ARRAY[:a1]::bigint[], NULL::bigint[]);
SELECT * FROM polarbench_compare(NULL::bigint, :a1);
SELECT * FROM polarbench_compare(ARRAY[:a1, NULL]::bigint[], ARRAY[:b1]::bigint[]);
SELECT * FROM polarbench_compare(ARRAY[:a1, :a1]::bigint[], ARRAY[:b1]::bigint[]);
SELECT * FROM polarbench_compare(ARRAY[[:a1], [:a1_twin]]::bigint[], ARRAY[:b1]::bigint[]);
SELECT * FROM polarbench_compare(:a1, :b1, threshold => 0);
SELECT * FROM polarbench_compare(:a1, :b1, threshold => 1.5);
SELECT polarbench_record(jsonb_set(jsonb_set(jsonb_set(pg_temp.synthetic(1000, 1, 12), '{run,status}', '"failed"'),
                         '{run,error_sqlstate}', '"40001"'), '{run,error_message}', '"boom"'), 'x') AS failed_run \gset
SELECT * FROM polarbench_compare(:failed_run, :a1);
SELECT * FROM polarbench_steadiness(NULL);
SELECT * FROM polarbench_steadiness(999999);
SELECT * FROM polarbench_compare_figures(NULL, '{1}');
SELECT * FROM polarbench_compare_figures('{1, 2}', '{1, 2}', threshold => -1);
SELECT * FROM polarbench_compare_figures('{1}', '{2}');
-- figures that are no ratio's: NaN, infinite, zero, negative
SELECT * FROM polarbench_compare_figures('{1, NaN}', '{1, 2}');
SELECT * FROM polarbench_compare_figures('{1, 2}', '{Infinity, 2}');
SELECT * FROM polarbench_compare_figures('{1, 2}', '{-Infinity, 2}');
SELECT * FROM polarbench_compare_figures('{0, 2}', '{1, 2}');
SELECT * FROM polarbench_compare_figures('{1, 2}', '{1, -2}');
SELECT * FROM polarbench_interval('{1, NaN}');
SELECT * FROM polarbench_interval('{-1, 2}');
-- a run on both sides, but for a run against itself alone (an A/A check)
SELECT * FROM polarbench_compare(ARRAY[:a1, :a1_twin]::bigint[], ARRAY[:a1_twin, :b1]::bigint[]);
SELECT * FROM polarbench_compare(ARRAY[:a1]::bigint[], ARRAY[:a1, :b1]::bigint[]);
SELECT * FROM polarbench_compare(ARRAY[:ra1, :ra2]::bigint[], ARRAY[:ra1, :ra2]::bigint[]);
SELECT count(*) AS rows, count(verdict) FILTER (WHERE verdict IN ('faster', 'slower')) AS differences
  FROM polarbench_compare(:a1, :a1);

-- no spread on a side, of recorded runs: no interval, no verdict
-- runs whose p50s are 0.004128 twice and 0.004160 twice
SELECT polarbench_record(jsonb_set(pg_temp.synthetic(1000, 0.004, 0), '{run,latency_p50}', '0.004128'), 'p') AS pa1,
	   polarbench_record(jsonb_set(pg_temp.synthetic(1010, 0.0041, 0), '{run,latency_p50}', '0.004128'), 'p') AS pa2,
	   polarbench_record(jsonb_set(pg_temp.synthetic(990, 0.0042, 0), '{run,latency_p50}', '0.004160'), 'p') AS pb1,
	   polarbench_record(jsonb_set(pg_temp.synthetic(1005, 0.0043, 0), '{run,latency_p50}', '0.004160'), 'p') AS pb2 \gset
SELECT metric, a, b, ratio, low, high, verdict, method, runs_needed, note
  FROM pg_temp.shown(ARRAY[:pa1, :pa2]::bigint[], ARRAY[:pb1, :pb2]::bigint[])
 WHERE part IS NULL AND metric IN ('tps', 'latency_p50');
-- one run a side whose every interval is alike: batch means and the
-- bootstrap have no spread either
SELECT polarbench_record(pg_temp.synthetic(1000, 1, 30, noise => 0), 'synthetic') AS flat_a,
	   polarbench_record(pg_temp.synthetic(1100, 1 / 1.1, 30, noise => 0), 'synthetic') AS flat_b \gset
SELECT metric, ratio, low, high, verdict, note
  FROM pg_temp.shown(ARRAY[:flat_a]::bigint[], ARRAY[:flat_b]::bigint[]) WHERE part IS NULL;
SELECT drifted, note FROM polarbench_steadiness(:flat_a);

-- leave the history as it was for the files that follow
DROP OWNED BY regress_pb_alice;
DROP ROLE regress_pb_alice, regress_pb_bob, regress_pb_carol;
DELETE FROM polarbench_run_data WHERE run_id > 3000;
SELECT setval('polarbench_run_data_run_id_seq', :ids_before, :'ids_called') > 0 AS ids_reset;
