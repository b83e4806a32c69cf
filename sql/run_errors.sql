-- polarbench_run: every argument error, and failures that end a run.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT rows FROM polarbench_init('pgbench', scale => 1);
RESET client_min_messages;
CREATE TEMP TABLE runs_before AS SELECT count(*) AS n FROM polarbench_runs;

-- wrong arguments: clear errors, nothing recorded
SELECT * FROM polarbench_run('no-such-workload');
SELECT * FROM polarbench_run('select-only', clients => 0);
SELECT * FROM polarbench_run('select-only', clients => NULL);
SELECT * FROM polarbench_run('select-only', clients => 1000);
SELECT * FROM polarbench_run('select-only', clients => 2147483647);
SELECT * FROM polarbench_run('select-only', duration => -1);
SELECT * FROM polarbench_run('select-only', duration => 'NaN');
SELECT * FROM polarbench_run('select-only', duration => 10, transactions => 10);
SELECT * FROM polarbench_run('select-only', transactions => 0);
SELECT * FROM polarbench_run('select-only', progress => -1);
SELECT * FROM polarbench_run('select-only@x');
SELECT * FROM polarbench_run('select-only@0');
SELECT * FROM polarbench_run(scripts => ARRAY['SELECT 1;'], weights => ARRAY[1, 2]);
SELECT * FROM polarbench_run(weights => ARRAY[1]);
SELECT * FROM polarbench_run(script => 'SELECT 1;', script_weight => -1);
SELECT * FROM polarbench_run(script => 'SELECT 1;', vars => '[1, 2]');
SELECT * FROM polarbench_run(script => 'SELECT 1;', vars => '{"a": [1]}');
SELECT * FROM polarbench_run(script => 'SELECT 1;', vars => '{"a": null}');
SELECT * FROM polarbench_run(script => 'SELECT 1;', vars => '{"a-b": 1}');
SELECT * FROM polarbench_run(script => 'SELECT 1;', scale => 0);
-- settings: names as SET takes them, each once
SELECT * FROM polarbench_run(script => 'SELECT 1;', settings => '{"DateStyle": "ISO", "datestyle": "SQL"}');
SELECT * FROM polarbench_run(script => 'SELECT 1;', server_settings => '{"Fsync": "on", "fsync": "on"}');
SELECT * FROM polarbench_run(script => 'SELECT 1;', settings => '{"no_such_parameter": 1}');
SELECT count(*) = (SELECT n FROM runs_before) AS nothing_recorded FROM polarbench_runs;

-- not inside a transaction that has written data
BEGIN;
CREATE TABLE written (a int);
SELECT * FROM polarbench_run('select-only', transactions => 1);
ROLLBACK;

-- a missing table is found before any worker starts, with the script's
-- name and line; nothing is recorded
SELECT * FROM polarbench_run(script => E'\\set x 1\nSELECT * FROM no_such_table;',
                             transactions => 1);
SELECT count(*) = (SELECT n FROM runs_before) AS nothing_recorded FROM polarbench_runs;

-- a table dropped after the start: the run fails with the server's error
-- and is recorded (terse: the run's id is in the context)
\set VERBOSITY terse
CREATE TABLE vanishing (a int);
INSERT INTO vanishing VALUES (1);
SELECT * FROM polarbench_run(script => $s$
SELECT count(*) FROM vanishing;
\if :client_id = 0
DROP TABLE vanishing;
\endif
$s$, transactions => 3);
SELECT status, error_sqlstate, error_message, transactions
  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;

-- a statement that fails at run time fails the run
SELECT * FROM polarbench_run(script => 'SELECT 1 / (aid - aid) FROM pgbench_accounts WHERE aid = 1;',
                             clients => 2, transactions => 5);
SELECT status, error_sqlstate, error_message
  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;

\set VERBOSITY default

-- a parameter in mixed case, or by its old name, is the parameter
SELECT transactions FROM polarbench_run(script => 'SELECT 1;', transactions => 1,
                                        settings => '{"DateStyle": "SQL, DMY", "sort_mem": "8MB"}');
SELECT settings, effective_settings->>'work_mem' AS work_mem
  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;
-- (polarbench_run(...)).* would be a run per column: refused, nothing run
SELECT count(*) AS runs_then FROM polarbench_runs \gset
SELECT (polarbench_run('select-only', transactions => 1)).*;
SELECT (polarbench_run('select-only', transactions => 1)).tps,
       (polarbench_run('select-only', transactions => 1)).qps;
SELECT count(*) = :runs_then AS nothing_run FROM polarbench_runs;
-- one column of one call is one run
SELECT (polarbench_run('select-only', transactions => 1)).transactions;
-- in a function's statement too, refused before anything runs
SELECT count(*) AS runs_then FROM polarbench_runs \gset
DO $$
DECLARE
	r record;
BEGIN
	SELECT (polarbench_run('select-only', transactions => 1)).* INTO r;
END $$;
CREATE FUNCTION run_columns() RETURNS SETOF float8 LANGUAGE sql AS $$
	SELECT (polarbench_run('select-only', transactions => 1)).tps
	UNION ALL
	SELECT (polarbench_run('select-only', transactions => 1)).qps
	  FROM (SELECT (polarbench_run('select-only', transactions => 1)).* OFFSET 0) s
$$;
SELECT * FROM run_columns();
DROP FUNCTION run_columns();
SELECT count(*) = :runs_then AS nothing_run FROM polarbench_runs;
-- (polarbench_sweep(...)).* is one sweep: the planner computes the equal
-- set-returning calls of a select list once, and takes that one's row apart
SELECT run_clients, run_transactions
  FROM (SELECT (polarbench_sweep('select-only', clients => '{1}', transactions => 1)).*) s;
DO $$
DECLARE
	r record;
	n int := 0;
BEGIN
	FOR r IN SELECT (polarbench_sweep('select-only', clients => '{1}', transactions => 1)).* LOOP
		n := n + 1;
	END LOOP;
	RAISE NOTICE '% row', n;
END $$;
SELECT count(*) - :runs_then AS runs_of_two_sweeps FROM polarbench_runs;
-- a polarbench_wait timeout that is no number
SELECT * FROM polarbench_wait(1, 'NaN');
SELECT * FROM polarbench_wait(1, -1);

-- missing pgbench tables for a built-in workload
DROP TABLE pgbench_branches;
SELECT * FROM polarbench_run('select-only', transactions => 1);

-- nothing is left running
SELECT count(*) AS workers_left FROM pg_stat_activity
 WHERE backend_type LIKE 'polarbench%';
