-- sysbench 1.0.20's OLTP workloads: each event's composition from the
-- counters, counted as sysbench counts (reads, writes, other), the tables
-- after writes, ignored errors restarting the event, the options and their
-- errors, and sysbench's report.  One client where counts must be exact.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT dataset, tables, rows FROM polarbench_init('sysbench', tables => 2, table_size => 1000);
RESET client_min_messages;

-- the kind's workloads as polarbench_workloads lists them: whether each
-- writes, its report's style, how many options it takes
SELECT name, writes, report_style, jsonb_array_length(options) AS options
  FROM polarbench_workloads WHERE kind = 'sysbench';

-- oltp_read_write: 14 reads, 4 writes, 2 other (BEGIN, COMMIT) per event
SELECT workload, transactions, statements, reads, writes, others, errors, failed
  FROM polarbench_run('oltp_read_write', transactions => 20, random_seed => 1);
-- the statements, in sysbench's words, each as often as its event runs it
SELECT command, executions, failures
  FROM polarbench_statements
 WHERE run_id = (SELECT max(run_id) FROM polarbench_runs)
 ORDER BY command_no;
-- what was not given is read from the tables; the rest is sysbench's
SELECT options->>'tables' AS tables, options->>'table_size' AS table_size,
       options->>'rand_type' AS rand_type, options->>'point_selects' AS point_selects
  FROM polarbench_runs WHERE run_id = (SELECT max(run_id) FROM polarbench_runs);

-- oltp_read_only, oltp_point_select (one select whatever point_selects says)
SELECT workload, statements, reads, writes, others
  FROM polarbench_run('oltp_read_only', transactions => 10);
SELECT workload, statements, reads, writes, others
  FROM polarbench_run('oltp_point_select', transactions => 10,
                      options => '{"point_selects": 5}');
-- skip_trx: no BEGIN and COMMIT; range_selects off: only the point selects
SELECT workload, statements, reads, others
  FROM polarbench_run('oltp_read_only', transactions => 10,
                      options => '{"skip_trx": "on", "range_selects": false}');
-- counts in sysbench's spellings: --point-selects, --simple-ranges
SELECT workload, reads
  FROM polarbench_run('oltp_read_only', transactions => 10,
                      options => '{"point-selects": 2, "simple-ranges": 3, "skip-trx": true}');

-- oltp_write_only keeps the row count (delete and insert of the same id),
-- and writes sysbench's values: c of 119 characters, pad of 59
SELECT workload, statements, reads, writes, others
  FROM polarbench_run('oltp_write_only', transactions => 20);
SELECT count(*) AS rows, min(length(rtrim(c))) AS c_min, max(length(rtrim(c))) AS c_max,
       min(length(rtrim(pad))) AS pad_min, max(length(rtrim(pad))) AS pad_max,
       bool_and(rtrim(c) ~ '^([0-9]{11}-){9}[0-9]{11}$') AS c_is_sysbench
  FROM (SELECT * FROM sbtest1 UNION ALL SELECT * FROM sbtest2) t;
SELECT workload, writes FROM polarbench_run('oltp_update_index', transactions => 10);
SELECT workload, writes FROM polarbench_run('oltp_update_non_index', transactions => 10,
                                              options => '{"non_index_updates": 3}');

-- oltp_insert: rows through the id sequence, then with sysbench's unique ids
SELECT workload, writes FROM polarbench_run('oltp_insert', clients => 2, transactions => 10);
SELECT (SELECT count(*) FROM sbtest1) + (SELECT count(*) FROM sbtest2) AS rows;
SELECT workload, writes FROM polarbench_run('oltp_insert', clients => 2, transactions => 10,
                                              options => '{"auto_inc": "off"}');
SELECT (SELECT count(*) FROM sbtest1) + (SELECT count(*) FROM sbtest2) AS rows,
       (SELECT count(*) - count(DISTINCT id) FROM sbtest1) +
       (SELECT count(*) - count(DISTINCT id) FROM sbtest2) AS repeated_ids;

-- a DELETE that finds no row is other, not write: sbtest2 is empty, and
-- every write is a row gone from sbtest1
CREATE TABLE deleted AS SELECT * FROM sbtest2;
DELETE FROM sbtest2;
DELETE FROM sbtest1 WHERE id NOT BETWEEN 1 AND 1000;
SELECT workload, writes + others AS statements, others > 0 AS some_found_nothing
  FROM polarbench_run('oltp_delete', transactions => 20, random_seed => 1,
                      options => '{"tables": 2, "table_size": 1000, "rand_type": "uniform"}');
SELECT 1000 - (SELECT count(*) FROM sbtest1) = writes AS writes_are_deleted_rows
  FROM polarbench_runs WHERE run_id = (SELECT max(run_id) FROM polarbench_runs);
DROP TABLE deleted;
SET client_min_messages = warning;
SELECT rows FROM polarbench_init('sysbench', tables => 2, table_size => 1000);
RESET client_min_messages;

-- errors sysbench ignores (here unique violations raised by a trigger on
-- the first three inserts) roll back and restart the event, counted as
-- ignored errors; what the failed attempts ran still counts
CREATE SEQUENCE raised;
CREATE FUNCTION raise_three() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF nextval('raised') <= 3 THEN
		RAISE unique_violation USING MESSAGE = 'raised by the test';
	END IF;
	RETURN NEW;
END $$;
CREATE TRIGGER raise_three BEFORE INSERT ON sbtest1
	FOR EACH ROW EXECUTE FUNCTION raise_three();
SELECT workload, transactions, reads, writes, others, errors, failed
  FROM polarbench_run('oltp_write_only', transactions => 10, random_seed => 3,
                      options => '{"tables": 1}');
SELECT command, executions, failures
  FROM polarbench_statements
 WHERE run_id = (SELECT max(run_id) FROM polarbench_runs) AND command LIKE 'INSERT%';
SELECT sum(errors) AS client_errors FROM polarbench_clients
 WHERE run_id = (SELECT max(run_id) FROM polarbench_runs);
-- any other error ends the run, saying which statement
CREATE OR REPLACE FUNCTION raise_three() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE division_by_zero USING MESSAGE = 'raised by the test';
END $$;
\set VERBOSITY terse
SELECT workload FROM polarbench_run('oltp_write_only', transactions => 10, options => '{"tables": 1}');
\set VERBOSITY default
SELECT status, error_sqlstate, error_message FROM polarbench_runs
 WHERE run_id = (SELECT max(run_id) FROM polarbench_runs);
DROP TRIGGER raise_three ON sbtest1;
DROP FUNCTION raise_three();
DROP SEQUENCE raised;

-- sysbench's report of the first run
SELECT polarbench_report(min(run_id)) FROM polarbench_runs WHERE workload = 'oltp_read_write'
\gset
SELECT split_part(:'polarbench_report', E'\n', n) AS line
  FROM generate_series(1, 6) n;
SELECT :'polarbench_report' ~ 'transactions:\s+20\s+\(' AS has_transactions,
       :'polarbench_report' ~ '95th percentile:' AS has_percentile,
       :'polarbench_report' ~ 'events \(avg/stddev\):\s+20\.0000/0\.00' AS has_fairness;
SELECT polarbench_report(min(run_id), 'json')::jsonb -> 'run' ->> 'reads' AS json_reads
  FROM polarbench_runs WHERE workload = 'oltp_read_write';

-- bad input: clear errors before anything starts, nothing recorded
SELECT count(*) AS runs_before FROM polarbench_runs \gset
SELECT * FROM polarbench_run('oltp_read_write', options => '{"threads": 8}');
SELECT * FROM polarbench_run('oltp_read_write', options => '{"tables": "many"}');
SELECT * FROM polarbench_run('oltp_read_write', options => '{"tables": 0}');
SELECT * FROM polarbench_run('oltp_read_write', options => '{"rand_type": "zipfian"}');
SELECT * FROM polarbench_run('oltp_read_write', options => '{"rand_pareto_h": 1}');
SELECT * FROM polarbench_run('oltp_read_write', options => '{"skip_trx": "maybe"}');
SELECT * FROM polarbench_run('oltp_read_write', options => '[1, 2]');
SELECT * FROM polarbench_run('oltp_read_write', options => '{"tables": [1]}');
SELECT * FROM polarbench_run('oltp_read_write', options => '{"tables": 3}');
SELECT * FROM polarbench_run('oltp_read_write', script => 'SELECT 1;');
SELECT * FROM polarbench_run('oltp_read_write,select-only');
SELECT * FROM polarbench_run('oltp_read_write', vars => '{"scale": 1}');
SELECT * FROM polarbench_run('select-only', options => '{"tables": 1}');
-- the clients' plans (9 statements per table) count against the memory
-- bound before the caller prepares any of them
SET polarbench.max_run_memory = '2MB';
SELECT * FROM polarbench_run('oltp_read_write', clients => 2);
RESET polarbench.max_run_memory;
-- tables of another data set, or none
CREATE SCHEMA elsewhere;
SET search_path = elsewhere;
SELECT * FROM public.polarbench_run('oltp_read_only');
CREATE TABLE sbtest1 (id int, k int);
INSERT INTO sbtest1 VALUES (1, 1);
SELECT * FROM public.polarbench_run('oltp_read_only');
-- the memory is checked first: nothing was prepared (or this would be the
-- missing column again)
SET polarbench.max_run_memory = '1MB';
SELECT * FROM public.polarbench_run('oltp_read_only');
RESET polarbench.max_run_memory;
RESET search_path;
DROP SCHEMA elsewhere CASCADE;
SELECT count(*) = :runs_before AS nothing_recorded FROM polarbench_runs;
