-- Latency percentiles and histograms, runs under a target rate with a
-- latency limit (pgbench -R -L), retries of serialization failures and
-- deadlocks (--max-tries), the warm-up, counters-only runs, and their errors.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT rows FROM polarbench_init('pgbench', scale => 1);
RESET client_min_messages;

-- percentiles are ordered, in the summary and for every statement
SELECT transactions, latency_min <= latency_p50 AND latency_p50 <= latency_p90
         AND latency_p90 <= latency_p95 AND latency_p95 <= latency_p99
         AND latency_p99 <= latency_p999 AND latency_p999 <= latency_max AS ordered,
       lag_avg IS NULL AS no_lag, skipped, late, retried, retries
  FROM polarbench_run('tpcb-like', clients => 2, transactions => 50);
SELECT command_no, executions,
       latency_min <= latency_p50 AND latency_p50 <= latency_p90
         AND latency_p90 <= latency_p95 AND latency_p95 <= latency_p99
         AND latency_p99 <= latency_p999 AND latency_p999 <= latency_max AS ordered
  FROM polarbench_statements
 WHERE run_id = (SELECT max(run_id) FROM polarbench_runs) AND command_no > 4
 ORDER BY command_no;

-- each client's CPU time: some, and no more than the time it ran
SELECT count(*) AS clients,
       bool_and(c.cpu_seconds > 0 AND c.cpu_seconds <= r.seconds + 0.01) AS cpu_within_run
  FROM polarbench_clients c JOIN polarbench_runs r USING (run_id)
 WHERE run_id = (SELECT max(run_id) FROM polarbench_runs);

-- polarbench_histogram: buckets in order whose counts add up to the run's
-- transactions, and that hold its percentiles
SELECT count(*) > 0 AS buckets,
       sum(h.transactions) = r.transactions AS adds_up,
       bool_and(h.latency_from < h.latency_to) AS bounded,
       min(h.latency_from) <= r.latency_p50 AND r.latency_p50 <= max(h.latency_to) AS holds_p50,
       min(h.latency_from) <= r.latency_min AND r.latency_max < max(h.latency_to) AS holds_all
  FROM polarbench_runs r, polarbench_histogram(r.run_id) h
 WHERE r.run_id = (SELECT max(run_id) FROM polarbench_runs)
 GROUP BY r.transactions, r.latency_p50, r.latency_min, r.latency_max;
SELECT count(*) AS no_such_run FROM polarbench_histogram(-1);

-- a rate: every transaction runs (nothing is skipped without a latency
-- limit), on the schedule drawn from the seed, which it cannot beat
SELECT transactions, skipped, lag_avg >= 0 AS lag, lag_max >= lag_avg AS lag_max,
       seconds >= 0.15 AS on_schedule
  FROM polarbench_run('select-only', clients => 2, transactions => 20,
                      rate => 200, random_seed => 1);
SELECT rate, latency_limit FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;

-- a latency limit of a microsecond: every transaction that runs is late,
-- and those skipped count toward the transactions, as in pgbench
SELECT transactions + skipped + failed AS all_counted, late = transactions AS all_late
  FROM polarbench_run('select-only', clients => 2, transactions => 30,
                      rate => 100000, latency_limit => 0.001);
-- without a rate, the limit counts late transactions and skips none
SELECT transactions, skipped, late = transactions AS all_late, lag_avg IS NULL AS no_lag
  FROM polarbench_run('select-only', transactions => 10, latency_limit => 0.001);

-- retries: a function fails every transaction's first two tries with a
-- serialization failure, and checks that each try draws the same number
CREATE SEQUENCE pacing_tries;
CREATE SEQUENCE pacing_first_x;
CREATE SEQUENCE pacing_mismatches;
CREATE FUNCTION pacing_try(x bigint, code text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	n bigint := nextval('pacing_tries');
BEGIN
	IF n % 3 = 1 THEN
		PERFORM setval('pacing_first_x', x);	-- not rolled back
	ELSIF x <> (SELECT last_value FROM pacing_first_x) THEN
		PERFORM nextval('pacing_mismatches');
	END IF;
	IF n % 3 <> 0 THEN
		RAISE EXCEPTION 'induced failure' USING ERRCODE = code;
	END IF;
END
$$;
-- three tries: every transaction succeeds at its third, with the same draws
SELECT transactions, failed, retried, retries
  FROM polarbench_run(script => E'\\set x random(1, 1000000000)\nSELECT pacing_try(:x, ''40001'');\n',
                      transactions => 10, max_tries => 3);
SELECT is_called AS draws_differed FROM pacing_mismatches;
SELECT command_no, executions, failures, retries FROM polarbench_statements
 WHERE run_id = (SELECT max(run_id) FROM polarbench_runs) ORDER BY command_no;
-- two tries: every other transaction fails for good, after one retry
SELECT setval('pacing_tries', 1, false);
SELECT transactions, failed, failed_serialization, failed_deadlock, retried, retries
  FROM polarbench_run(script => E'\\set x random(1, 1000000000)\nSELECT pacing_try(:x, ''40001'');\n',
                      transactions => 10, max_tries => 2);
-- deadlocks are counted as such
SELECT setval('pacing_tries', 1, false);
SELECT transactions, failed, failed_serialization, failed_deadlock, retried, retries
  FROM polarbench_run(script => E'\\set x random(1, 1000000000)\nSELECT pacing_try(:x, ''40P01'');\n',
                      transactions => 10);
-- pgbench's report says it in its words
SELECT line FROM regexp_split_to_table(polarbench_report((SELECT max(run_id) FROM polarbench_runs)), E'\n') line
 WHERE line ~ '^(maximum number|number of (failed|serialization|deadlock|transactions retried)|total number)';
-- real contention: four clients update one row at REPEATABLE READ, where a
-- concurrent update is a serialization failure; whatever the interleaving,
-- every successful transaction added one, once, and failures were retried
UPDATE pgbench_branches SET bbalance = 0 WHERE bid = 1;
SELECT transactions AS rr_transactions, transactions + failed AS rr_all
  FROM polarbench_run(script => E'BEGIN ISOLATION LEVEL REPEATABLE READ;\nSELECT bbalance FROM pgbench_branches WHERE bid = 1;\n\\sleep 1 ms\nUPDATE pgbench_branches SET bbalance = bbalance + 1 WHERE bid = 1;\nEND;\n',
                      clients => 4, transactions => 20, max_tries => 1000) \gset
SELECT :rr_all AS all_ended, bbalance = :rr_transactions AS each_success_once
  FROM pgbench_branches WHERE bid = 1;

-- unlimited tries with a duration: no failure is left; a transaction the
-- run's end cuts short is not counted, as in pgbench
SELECT setval('pacing_tries', 1, false);
SELECT failed, retries = 2 * transactions AS two_retries_each
  FROM polarbench_run(script => E'\\set x random(1, 1000000000)\nSELECT pacing_try(:x, ''40001'');\n',
                      duration => 0.2, max_tries => 0);
-- any other error still fails the run (terse: the run's id is in the context)
\set VERBOSITY terse
SELECT transactions FROM polarbench_run(script => E'SELECT 1 / 0;\n',
                                        transactions => 1, max_tries => 5);
\set VERBOSITY default
SELECT status, error_sqlstate FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;

-- a warm-up: transactions run from the start, but only those begun after
-- the warm-up are counted, and the measured time is what follows it
CREATE TABLE pacing_log (at timestamptz);
SELECT run_id AS warm_run, transactions AS warm_transactions,
       seconds < 2.5 AS measured_after_warmup
  FROM polarbench_run(script => 'INSERT INTO pacing_log VALUES (now());',
                      duration => 2.5, warmup => 2) \gset
SELECT :'measured_after_warmup' AS measured_after_warmup,
       :warm_transactions < count(*) AS warmup_not_counted FROM pacing_log;
SELECT sum(executions) = :warm_transactions AS statements_after_warmup
  FROM polarbench_statements WHERE run_id = :warm_run;
SELECT duration, warmup FROM polarbench_runs WHERE run_id = :warm_run;

-- counters only: no percentile, no histogram, no per-command figures
SELECT transactions, latency_avg > 0 AS avg, latency_p50 IS NULL AS no_p50,
       latency_max > 0 AS max
  FROM polarbench_run('select-only', transactions => 20, counters_only => true);
SELECT (SELECT count(*) FROM polarbench_histogram(r.run_id)) AS buckets,
       (SELECT sum(executions) FROM polarbench_statements s WHERE s.run_id = r.run_id) AS executions,
       counters_only
  FROM polarbench_runs r ORDER BY run_id DESC LIMIT 1;

-- bad input, refused before anything starts
SELECT count(*) AS runs_before FROM polarbench_runs \gset
SELECT * FROM polarbench_run('select-only', rate => 0);
SELECT * FROM polarbench_run('select-only', rate => -5);
SELECT * FROM polarbench_run('select-only', rate => 'infinity');
SELECT * FROM polarbench_run('select-only', rate => 1e12);
SELECT * FROM polarbench_run('select-only', clients => 2, rate => 1e-6);
SELECT * FROM polarbench_run('select-only', latency_limit => 0);
SELECT * FROM polarbench_run('select-only', latency_limit => 1e13);
SELECT * FROM polarbench_run('select-only', max_tries => -1);
SELECT * FROM polarbench_run('select-only', max_tries => 0);
SELECT * FROM polarbench_run('select-only', transactions => 5, max_tries => 0);
SELECT * FROM polarbench_run('select-only', warmup => 1);
SELECT * FROM polarbench_run('select-only', duration => 1, warmup => 1);
SELECT * FROM polarbench_run('select-only', duration => 1, warmup => -1);
SELECT * FROM polarbench_run('select-only', duration => 1, warmup => 'NaN');
SET client_min_messages = warning;
SELECT rows FROM polarbench_init('sysbench', tables => 1, table_size => 100);
RESET client_min_messages;
SELECT * FROM polarbench_run('oltp_read_only', max_tries => 3);
SELECT count(*) = :runs_before AS nothing_recorded FROM polarbench_runs;

DROP FUNCTION pacing_try(bigint, text);
DROP SEQUENCE pacing_tries, pacing_first_x, pacing_mismatches;
DROP TABLE pacing_log;
