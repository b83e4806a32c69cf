-- pgbench's failure options as a run of scripts takes them in options:
-- continue_on_error (pgbench 19's --continue-on-error: a transaction whose
-- SQL command fails is rolled back, counted in failed_other, left out of
-- transactions and tps, and its client goes on) and exit_on_abort
-- (pgbench 17's --exit-on-abort, a run's default; false, pgbench's own
-- default, stops an aborting client alone and records the run aborted);
-- skipped transactions per script; the report's lines, and every refusal.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
RESET client_min_messages;
SELECT coalesce(max(run_id), 0) AS runs_from FROM polarbench_runs \gset

-- every try takes the next number, which a rolled-back insert does not
-- give back: of the numbers the run took, those already in the table (one
-- in four) fail with a unique violation, whatever the clients' interleaving
CREATE TABLE failures_keys (k int PRIMARY KEY);
CREATE SEQUENCE failures_seq;
INSERT INTO failures_keys SELECT k FROM generate_series(4, 40, 4) k;
CREATE TABLE failures_given (k int PRIMARY KEY);
INSERT INTO failures_given SELECT k FROM failures_keys;

-- the run ends normally: 40 tries, as many failed as the table had keys
-- among the numbers taken, and only the others in transactions and tps
SELECT run_id AS cont_run, transactions, failed, failed_other,
       failed_serialization, failed_deadlock, retried,
       round((tps * seconds)::numeric) = transactions AS tps_of_successes
  FROM polarbench_run(script => 'INSERT INTO failures_keys VALUES (nextval(''failures_seq''));',
                      clients => 2, transactions => 20,
                      options => '{"continue_on_error": true}') \gset
SELECT :transactions AS transactions, :failed AS failed, :failed_other AS failed_other,
       :failed_serialization AS failed_serialization, :failed_deadlock AS failed_deadlock,
       :retried AS retried, :'tps_of_successes' AS tps_of_successes;
SELECT :failed_other = (SELECT count(*) FROM failures_given
                         WHERE k <= (SELECT last_value FROM failures_seq)) AS failed_are_the_given_keys,
       :transactions = (SELECT count(*) FROM failures_keys) -
                       (SELECT count(*) FROM failures_given) AS transactions_are_the_rows_added;
-- recorded as the run returned it, and the run's options with it
SELECT status, transactions, failed, failed_other, options
  FROM polarbench_runs WHERE run_id = :cont_run;
-- and a node's copy of the run keeps them (its document, recorded)
SELECT polarbench_record(polarbench_run_document(:cont_run), 'copy') AS copy_run \gset
SELECT node, failed, failed_other, options FROM polarbench_runs WHERE run_id = :copy_run;
-- the failing command counts them, and pgbench's report says it in its words
SELECT command_no, executions, failures FROM polarbench_statements
 WHERE run_id = :cont_run ORDER BY command_no;
SELECT line FROM regexp_split_to_table(polarbench_report(:cont_run, 'pgbench',
                                                         '{"failures_detailed": true}'), E'\n') line
 WHERE line ~ '^number of (transactions actually|failed|serialization|deadlock|other)';

-- without it, the first such error fails the run, as before: every client
-- stops, as pgbench --exit-on-abort; exit_on_abort => true says so
\set VERBOSITY terse
SELECT setval('failures_seq', 3);
SELECT * FROM polarbench_run(script => 'INSERT INTO failures_keys VALUES (nextval(''failures_seq''));',
                             transactions => 5);
SELECT status, error_sqlstate, failed_other FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;
SELECT setval('failures_seq', 3);
SELECT * FROM polarbench_run(script => 'INSERT INTO failures_keys VALUES (nextval(''failures_seq''));',
                             transactions => 5, options => '{"exit_on_abort": true}');
SELECT status, error_sqlstate, options FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;

-- continue_on_error covers SQL commands' errors only: a meta-command's
-- error, or \gset's count of rows, still fails the run, as in pgbench
SELECT * FROM polarbench_run(script => E'\\set x 1 / 0\nSELECT 1;',
                             transactions => 2, options => '{"continue_on_error": true}');
SELECT * FROM polarbench_run(script => 'SELECT 1 AS x WHERE false \gset',
                             transactions => 2, options => '{"continue_on_error": true}');
\set VERBOSITY default

-- several scripts, weighted: each one's failures are its command's
TRUNCATE failures_keys;
INSERT INTO failures_keys SELECT k FROM failures_given;
SELECT setval('failures_seq', 1, false);
SELECT run_id AS mixed_run, transactions + failed AS tries
  FROM polarbench_run(scripts => ARRAY['INSERT INTO failures_keys VALUES (nextval(''failures_seq''));',
                                       'SELECT 1;'],
                      weights => ARRAY[1, 1], script_names => ARRAY['insert', 'select'],
                      clients => 2, transactions => 20,
                      options => '{"continue_on_error": true}') \gset
SELECT :tries AS tries;
SELECT script_no, sum(failures) = CASE script_no
         WHEN 1 THEN (SELECT count(*) FROM failures_given
                       WHERE k <= (SELECT last_value FROM failures_seq))
         ELSE 0 END AS failures_as_the_table_says
  FROM polarbench_statements WHERE run_id = :mixed_run
 GROUP BY script_no ORDER BY script_no;
SELECT failed_other = (SELECT sum(failures) FROM polarbench_statements WHERE run_id = :mixed_run)
       AS failed_are_the_scripts_failures
  FROM polarbench_runs WHERE run_id = :mixed_run;
-- each script's own figures, as the run keeps them: the inserts tried
-- are the numbers taken, those that failed the given keys among them; the
-- scripts' transactions add up to the run's
SELECT n AS script_no,
       (e->>'transactions')::int8 + (e->>'failed')::int8 =
         CASE n WHEN 1 THEN (SELECT last_value FROM failures_seq) ELSE (e->>'transactions')::int8 END
         AS tries_as_the_table_says,
       (e->>'failed_other')::int8 = CASE n WHEN 1 THEN (SELECT count(*) FROM failures_given
                                                    WHERE k <= (SELECT last_value FROM failures_seq))
                                    ELSE 0 END AS failed_as_the_table_says,
       (e->>'failed')::int8 = (e->>'failed_other')::int8 AS failed_are_other,
       e->>'retried' AS retried
  FROM polarbench_runs r, jsonb_array_elements(r.figures->'scripts') WITH ORDINALITY AS s(e, n)
 WHERE run_id = :mixed_run ORDER BY n;
SELECT sum((e->>'transactions')::int8) = r.transactions AS scripts_add_up
  FROM polarbench_runs r, jsonb_array_elements(r.figures->'scripts') e
 WHERE run_id = :mixed_run GROUP BY r.transactions;
-- and pgbench's report prints them under each script, in its words
SELECT regexp_replace(line, '[0-9.]+', 'N', 'g') AS line
  FROM regexp_split_to_table(polarbench_report(:mixed_run, 'pgbench',
                                               '{"failures_detailed": true}'), E'\n') line
 WHERE line ~ '^(SQL script| - )';

-- under a rate with a latency limit, a transaction too late when its turn
-- comes is skipped, and counted for the script chosen for the transaction
-- its client skipped to, as pgbench counts it: a client's turns come 3.3 ms
-- apart on average and each transaction sleeps 10 ms, so the turn after it
-- is more than the 5 ms late unless it came 5 ms after the last (one time
-- in five): turns are skipped whatever the speed.  The scripts' skipped
-- add up to the run's, each client's 20 transactions are run or skipped,
-- and the script of weight 0 is never chosen, so none is skipped for it
SELECT run_id AS skip_run, skipped > 0 AS some_skipped,
       transactions + failed + skipped AS ran_or_skipped
  FROM polarbench_run(scripts => ARRAY['SELECT pg_sleep(0.01);', 'SELECT pg_sleep(0.01), 2;',
                                       'SELECT 3;'],
                      weights => ARRAY[1, 1, 0], script_names => ARRAY['one', 'two', 'never'],
                      clients => 2, transactions => 20,
                      rate => 600, latency_limit => 5) \gset
SELECT :'some_skipped' AS some_skipped, :ran_or_skipped AS ran_or_skipped;
SELECT sum((e->>'skipped')::int8) = r.skipped AS scripts_skipped_add_up,
       sum((e->>'transactions')::int8 + (e->>'failed')::int8 + (e->>'skipped')::int8)
         AS scripts_ran_or_skipped
  FROM polarbench_runs r, jsonb_array_elements(r.figures->'scripts') e
 WHERE run_id = :skip_run GROUP BY r.skipped;
SELECT n AS script_no, e->>'transactions' AS transactions, e->>'skipped' AS skipped
  FROM polarbench_runs r, jsonb_array_elements(r.figures->'scripts') WITH ORDINALITY AS s(e, n)
 WHERE run_id = :skip_run AND n = 3;
-- pgbench's report prints each script's skipped after its failures, for
-- each script that has transactions, with the figures' numbers
WITH lines AS (
  SELECT line, n
    FROM regexp_split_to_table(polarbench_report(:skip_run, 'pgbench'), E'\n')
         WITH ORDINALITY AS l(line, n)),
script_skips AS (
  SELECT (SELECT count(*) FROM lines h WHERE h.line ~ '^SQL script ' AND h.n < l.n) AS script_no,
         substring(line FROM '^ - number of transactions skipped: ([0-9]+) ')::int8 AS skipped
    FROM lines l WHERE line ~ '^ - number of transactions skipped: ')
SELECT count(*) = count(*) FILTER (WHERE s.skipped = (e->>'skipped')::int8)
         AS report_says_the_figures,
       array_agg(s.script_no ORDER BY s.script_no) =
         (SELECT array_agg(n ORDER BY n)
            FROM jsonb_array_elements(r.figures->'scripts') WITH ORDINALITY AS t(e, n)
           WHERE (e->>'transactions')::int8 + (e->>'failed')::int8 + (e->>'skipped')::int8 > 0)
         AS a_line_for_each_script_that_ran
  FROM script_skips s, polarbench_runs r,
       jsonb_array_elements(r.figures->'scripts') WITH ORDINALITY AS f(e, n)
 WHERE r.run_id = :skip_run AND f.n = s.script_no
 GROUP BY r.figures;
-- the line comes after the failures (and retries) and before the
-- latency, as pgbench's
SELECT count(*) > 0 AND
       bool_and(prev ~ '^ - number of failed transactions: ' AND
                coalesce(next, '') ~ '^( - latency average| - statement latencies|SQL script|$)')
         AS in_pgbench_order
  FROM (SELECT line, lag(line) OVER w AS prev, lead(line) OVER w AS next
          FROM regexp_split_to_table(polarbench_report(:skip_run, 'pgbench'), E'\n')
               WITH ORDINALITY AS l(line, n)
        WINDOW w AS (ORDER BY n)) l
 WHERE line ~ '^ - number of transactions skipped: ';

-- exit_on_abort => false, pgbench's default: a client that aborts (an
-- error continue_on_error does not cover) stops alone, and the others go
-- on to the run's end; the run comes back with their figures and a
-- warning, recorded aborted with the first abort's error
CREATE TABLE failures_rows (client int);
SELECT run_id AS abort_run, transactions, failed
  FROM polarbench_run(script => E'\\if :client_id = 0\nSELECT 1 / 0;\n\\endif\nINSERT INTO failures_rows VALUES (:client_id);',
                      clients => 3, transactions => 20,
                      options => '{"exit_on_abort": false}') \gset
SELECT :transactions AS transactions, :failed AS failed;
-- client 0 wrote nothing, the others all theirs, which the figures count
SELECT client, count(*) FROM failures_rows GROUP BY client ORDER BY client;
SELECT r.transactions = (SELECT count(*) FROM failures_rows) AS figures_are_the_rows,
       r.status, r.error_sqlstate, r.error_message, r.options
  FROM polarbench_runs r WHERE run_id = :abort_run;
-- no worker is left, and pgbench's report ends with pgbench's words
SELECT count(*) AS workers_left FROM pg_stat_activity
 WHERE backend_type IN ('polarbench client', 'polarbench recorder');
SELECT regexp_replace(line, '^run [0-9]+ ', 'run N ') AS line
  FROM regexp_split_to_table(polarbench_report(:abort_run, 'pgbench'), E'\n') line
 WHERE line ~ '^(number of transactions actually|run [0-9]+ aborted|Run )';
-- a node's copy of it is aborted too
SELECT polarbench_record(polarbench_run_document(:abort_run), 'copy') AS copy_run \gset
SELECT node, status, error_sqlstate, error_message FROM polarbench_runs WHERE run_id = :copy_run;
-- an aborted run is no result to compare, as a failed one is not
DO $$
DECLARE
	d text;
BEGIN
	PERFORM polarbench_compare(max(run_id), max(run_id)) FROM polarbench_runs WHERE status = 'aborted';
EXCEPTION WHEN object_not_in_prerequisite_state THEN
	GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL;
	RAISE NOTICE 'compare refused: %', d;
END
$$;
-- with continue_on_error too, an SQL command's error fails its transaction
-- and a meta-command's aborts its client alone; every client aborting
-- ends the run early, aborted, with the others' count
TRUNCATE failures_rows;
SELECT transactions, failed, failed_other
  FROM polarbench_run(script => E'\\if :client_id = 0\n\\set x 1 / 0\n\\endif\nINSERT INTO failures_rows VALUES (1 / (:client_id - 1));',
                      clients => 3, transactions => 10,
                      options => '{"exit_on_abort": false, "continue_on_error": true}');
SELECT status, error_message FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;
-- (which client aborts first is the clients' race: its warning is not shown)
SET client_min_messages = error;
SELECT transactions, failed
  FROM polarbench_run(script => 'SELECT 1 / 0;', clients => 2, transactions => 5,
                      options => '{"exit_on_abort": false}');
RESET client_min_messages;
SELECT status, transactions, error_sqlstate,
       error_message ~ '^client [01] aborted in command at line 1 of script "custom": division by zero \(2 clients aborted\)$'
         AS says_both_aborted
  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;
DROP TABLE failures_rows;

-- polarbench_workloads lists the options beside each built-in script
SELECT o->>'name' AS name, o->>'type' AS type, o->>'default' AS default
  FROM polarbench_workloads w, jsonb_array_elements(w.options) o
 WHERE w.name = 'tpcb-like' ORDER BY 1;

-- refused before anything starts
SELECT count(*) AS runs_before FROM polarbench_runs \gset
SELECT * FROM polarbench_run('oltp_point_select', options => '{"exit_on_abort": false}');
SELECT * FROM polarbench_run(script => 'SELECT 1;', options => '{"continue_on_error": "maybe"}');
SELECT * FROM polarbench_run(script => 'SELECT 1;', options => '{"continue_on_eror": true}');
SELECT * FROM polarbench_run(script => 'SELECT 1;', options => '[true]');
SELECT * FROM polarbench_run('oltp_point_select', options => '{"continue_on_error": true}');
SELECT count(*) = :runs_before AS nothing_recorded FROM polarbench_runs;

-- what this test made goes, its runs too: the tests after it pick runs by
-- workload
DELETE FROM polarbench_run_data WHERE run_id > :runs_from;
DROP TABLE failures_keys, failures_given;
DROP SEQUENCE failures_seq;
