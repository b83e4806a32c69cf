-- Custom scripts in pgbench's language, run in the server: the PolarDB
-- white paper's ro.sql and rw.sql verbatim, meta-commands, weights, \gset
-- and \aset, transactions, and errors before and during a run.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT rows FROM polarbench_init('pgbench', scale => 1);
RESET client_min_messages;

-- ro.sql: one SELECT per transaction, aid drawn with random_gaussian
SELECT workload, transactions, statements, failed
  FROM polarbench_run(script => E'\\set aid random_gaussian(1, :range, 10.0)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n',
                      clients => 2, transactions => 100,
                      vars => '{"scale": 1, "range": 100000}');

-- rw.sql: TPC-B-like between BEGIN and END, verbatim; keeps the invariant
SELECT workload, transactions, statements, failed
  FROM polarbench_run(script => $rw$\set aid random_gaussian(1, :range, 10.0)
\set bid random(1, 1 * :scale)
\set tid random(1, 10 * :scale)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
$rw$, clients => 2, transactions => 100, vars => '{"scale": 1, "range": 100000}');
SELECT (SELECT sum(abalance) FROM pgbench_accounts) =
       (SELECT sum(bbalance) FROM pgbench_branches) AS accounts_eq_branches,
       (SELECT sum(delta) FROM pgbench_history) =
       (SELECT sum(tbalance) FROM pgbench_tellers) AS history_eq_tellers,
       (SELECT count(*) FROM pgbench_history) AS history_rows;

-- the gaussian draws concentrate around the middle of the range
SELECT avg(aid) BETWEEN 45000 AND 55000 AS centered,
       min(aid) >= 1 AND max(aid) <= 100000 AS in_range
  FROM pgbench_history;

-- variables are typed parameters: a bigint, a double and a text
CREATE TABLE script_values (client int, i bigint, d float8, t text, n int);
SELECT transactions FROM polarbench_run(script => $s$
\set i 9000000000 + :client_id
\set d 1.5 * 2
INSERT INTO script_values VALUES (:client_id, :i, :d, :label, :n);
$s$, clients => 2, transactions => 1,
   vars => jsonb_build_object('label', 'it''s text, and longer than sixty-four bytes, so not formatted into a buffer', 'n', 7));
SELECT client, i, d, t, n FROM script_values ORDER BY client;

-- \gset and \aset feed query results into variables; \if branches
TRUNCATE script_values;
SELECT transactions, statements FROM polarbench_run(script => $s$
SELECT 40 AS base, 'x' AS word \gset
SELECT 1 AS a UNION ALL SELECT 2 AS a \aset p_
\if :base + :p_a = 42
INSERT INTO script_values (client, i, t) VALUES (:client_id, :p_a, :word);
\elif :base > 0
INSERT INTO script_values (client, i, t) VALUES (:client_id, -1, 'elif');
\else
INSERT INTO script_values (client, i, t) VALUES (:client_id, -2, 'else');
\endif
$s$, clients => 1, transactions => 3);
SELECT client, i, t FROM script_values;

-- statements outside BEGIN/END each commit; ROLLBACK undoes its block
TRUNCATE script_values;
SELECT transactions FROM polarbench_run(script => $s$
INSERT INTO script_values (client, t) VALUES (:client_id, 'kept');
BEGIN;
INSERT INTO script_values (client, t) VALUES (:client_id, 'rolled back');
ROLLBACK;
\sleep 1 ms
$s$, clients => 2, transactions => 2);
SELECT t, count(*) FROM script_values GROUP BY t ORDER BY t;

-- weights choose scripts in proportion; a weight of zero never runs
TRUNCATE script_values;
SELECT workload, transactions FROM polarbench_run(
    scripts => ARRAY[$a$INSERT INTO script_values (t) VALUES ('a');$a$,
                     $b$INSERT INTO script_values (t) VALUES ('b');$b$],
    weights => ARRAY[1, 0], transactions => 20);
SELECT t, count(*) FROM script_values GROUP BY t ORDER BY t;
-- built-in and custom scripts mixed, each command counted on its own
SELECT workload, transactions FROM polarbench_run('select-only@1',
    script => 'SELECT 1;', script_weight => 1, transactions => 200,
    random_seed => 7);
SELECT script_no, command_no, command, executions > 0 AS ran
  FROM polarbench_statements
 WHERE run_id = (SELECT max(run_id) FROM polarbench_runs)
 ORDER BY 1, 2;
SELECT sum(executions) FILTER (WHERE command = 'SELECT 1;') +
       sum(executions) FILTER (WHERE command LIKE 'SELECT abalance%') AS both_scripts
  FROM polarbench_statements
 WHERE run_id = (SELECT max(run_id) FROM polarbench_runs);

-- errors before any client starts: nothing recorded
CREATE TEMP TABLE runs_before AS SELECT count(*) AS n FROM polarbench_runs;
SELECT * FROM polarbench_run(script => E'SELECT 1;\n\\set x 1 +\n');
SELECT * FROM polarbench_run(script => E'\\nosuchcommand\n');
SELECT * FROM polarbench_run(script => E'\\sleep\n');
SELECT * FROM polarbench_run(script => E'\\if true\nSELECT 1;\n');
SELECT * FROM polarbench_run(script => E'\\shell ls\n');
SELECT * FROM polarbench_run(script => 'SELECT :undefined_var;');
SELECT * FROM polarbench_run(script => E'\\set x random(1, 2, 3, 4)\n');
SELECT * FROM polarbench_run(script => '');
SELECT count(*) = (SELECT n FROM runs_before) AS nothing_recorded FROM polarbench_runs;

-- errors while running fail the run, naming the command
\set VERBOSITY terse
SELECT * FROM polarbench_run(script => E'\\set x 1 / 0\n', transactions => 1);
SELECT * FROM polarbench_run(script => E'\\set x 9223372036854775807 + 1\n', transactions => 1);
SELECT * FROM polarbench_run(script => E'\\set x random(5, 1)\n', transactions => 1);
SELECT * FROM polarbench_run(script => E'SELECT 1 AS a UNION ALL SELECT 2 \\gset\n', transactions => 1);
SELECT * FROM polarbench_run(script => E'BEGIN;\nSELECT 1;\n', transactions => 1);
\set VERBOSITY default
SELECT status, error_sqlstate FROM polarbench_runs ORDER BY run_id DESC LIMIT 5;

-- a client fails mid-run: the twentieth transaction divides by zero
CREATE TABLE script_counter (n int);
INSERT INTO script_counter VALUES (0);
\set VERBOSITY terse
SELECT * FROM polarbench_run(script => $s$
UPDATE script_counter SET n = n + 1 RETURNING n \gset
\if :n = 20
SELECT 1 / 0;
\endif
$s$, clients => 1, transactions => 100);
\set VERBOSITY default
SELECT status, error_sqlstate, transactions FROM polarbench_runs
 ORDER BY run_id DESC LIMIT 1;
SELECT n FROM script_counter;

-- serialization failures and deadlocks count as failed transactions and the
-- client goes on, as in pgbench; here every third transaction fails so
CREATE FUNCTION script_fail_every_third(n int) RETURNS int
LANGUAGE plpgsql AS $f$
BEGIN
	IF n % 3 = 0 THEN
		RAISE EXCEPTION 'simulated conflict' USING ERRCODE = 'serialization_failure';
	END IF;
	RETURN n;
END
$f$;
UPDATE script_counter SET n = 0;
SELECT transactions, failed FROM polarbench_run(script => $s$
UPDATE script_counter SET n = n + 1 RETURNING n \gset
SELECT script_fail_every_third(:n);
$s$, clients => 1, transactions => 9);
SELECT status, transactions, failed FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;
SELECT command_no, executions, failures FROM polarbench_statements
 WHERE run_id = (SELECT max(run_id) FROM polarbench_runs) ORDER BY 1;

-- BEGIN's options apply to the transaction it opens
TRUNCATE script_values;
SELECT transactions FROM polarbench_run(script => $s$
BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY;
SELECT current_setting('transaction_isolation') AS iso,
       current_setting('transaction_read_only') AS ro \gset
END;
START TRANSACTION;
SELECT current_setting('transaction_isolation') AS iso2 \gset
COMMIT;
INSERT INTO script_values (t) VALUES (:iso || ', ' || :ro || '; then ' || :iso2);
$s$, transactions => 1);
SELECT t FROM script_values;

DROP FUNCTION script_fail_every_third(int);
DROP TABLE script_values, script_counter;
