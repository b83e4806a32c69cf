-- A run ends at its duration: the transactions in flight then have the
-- run's grace (end_grace, else polarbench.end_grace) to finish, and their
-- statements are canceled after it, whatever they wait for.  They are
-- rolled back and counted in cut_off, apart from the transactions, the
-- failures and the latencies, and the run returns with no worker left.
-- For each kind of workload a trigger (or a \sleep) lets some transactions
-- through, then holds the next one for 600 s: a run that did not end at
-- its duration and grace would hold this test for ten minutes.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT dataset FROM polarbench_init('pgbench', scale => 1);
SELECT dataset FROM polarbench_init('sysbench', tables => 1, table_size => 1000);
SELECT dataset FROM polarbench_init('ycsb', records => 1000);
SELECT dataset FROM polarbench_init('tpcc', warehouses => 1);
RESET client_min_messages;

-- lets five rows through, then marks the next one (its column TG_ARGV[0]
-- set to 'cut') and holds it: committed, the mark would show
CREATE SEQUENCE grace_rows;
CREATE FUNCTION grace_stall() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF nextval('grace_rows') > 5 THEN
		NEW := jsonb_populate_record(NEW, jsonb_build_object(TG_ARGV[0], 'cut'));
		PERFORM pg_sleep(600);
	END IF;
	RETURN NEW;
END $$;
-- the last run as recorded, whether it ended long before the trigger's
-- sleep, and the polarbench workers left
CREATE VIEW grace_last AS
SELECT status, cut_off, end_grace,
       ended_at - started_at < interval '60 s' AS bounded,
       (SELECT count(*) FROM pg_stat_activity
         WHERE backend_type LIKE 'polarbench%') AS workers
  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;
-- the report's lines about what the run's end cut off
CREATE FUNCTION grace_report_lines(run_id bigint) RETURNS SETOF text
LANGUAGE sql AS $$
	SELECT line FROM regexp_split_to_table(polarbench_report(run_id), E'\n') line
	 WHERE line ILIKE '%cut off%'
$$;

SELECT coalesce(max(run_id), 0) AS runs_from FROM polarbench_runs \gset

-- pgbench's tpcb-like: the sixth transaction waits in its INSERT's trigger;
-- rolled back, its UPDATEs are undone too, and the balances add up
CREATE TRIGGER grace_stall BEFORE INSERT ON pgbench_history
	FOR EACH ROW EXECUTE FUNCTION grace_stall('filler');
SELECT run_id AS tpcb_run, transactions, failed, cut_off, seconds < 60 AS measured
  FROM polarbench_run('tpcb-like', duration => 1, end_grace => 1) \gset
SELECT :transactions AS transactions, :failed AS failed, :cut_off AS cut_off,
       :'measured' AS measured;
SELECT * FROM grace_last;
SELECT count(*) AS history, count(*) FILTER (WHERE filler = 'cut') AS cut_rows,
       (SELECT sum(abalance) FROM pgbench_accounts) = sum(delta) AS balanced
  FROM pgbench_history;
SELECT * FROM grace_report_lines(:tpcb_run);
DROP TRIGGER grace_stall ON pgbench_history;

-- a custom script: client 1 sleeps between the statements of its fourth
-- BEGIN ... END, client 2 goes on; the cut-off transaction's first INSERT
-- is rolled back, and every row is a counted transaction's
CREATE TABLE grace_a (client int);
CREATE TABLE grace_b (client int);
SELECT transactions > 3 AS others_went_on, failed, cut_off
  FROM polarbench_run(script => $$\set n :n + 1
BEGIN;
INSERT INTO grace_a VALUES (:client_id);
\if :client_id = 0 and :n > 3
\sleep 600 s
\endif
INSERT INTO grace_b VALUES (:client_id);
END;$$, vars => '{"n": 0}', clients => 2, duration => 1, end_grace => 1);
SELECT status, cut_off, bounded, workers FROM grace_last;
SELECT client, count(*) FROM grace_a WHERE client = 0 GROUP BY client;
SELECT (SELECT count(*) FROM grace_a) = transactions AS a_counted,
       (SELECT count(*) FROM grace_b) = transactions AS b_counted
  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;

-- sysbench's oltp_read_write: the sixth event waits in its INSERT, after
-- its DELETE of the same row, which is rolled back with it
ALTER SEQUENCE grace_rows RESTART;
CREATE TRIGGER grace_stall BEFORE INSERT ON sbtest1
	FOR EACH ROW EXECUTE FUNCTION grace_stall('c');
SELECT run_id AS sb_run, transactions, errors, cut_off
  FROM polarbench_run('oltp_read_write', duration => 1, end_grace => 1,
                      options => '{"tables": 1}') \gset
SELECT :transactions AS transactions, :errors AS errors, :cut_off AS cut_off;
SELECT * FROM grace_last;
SELECT count(*) AS sbtest_rows, count(*) FILTER (WHERE c = 'cut') AS cut_rows FROM sbtest1;
SELECT * FROM grace_report_lines(:sb_run);
DROP TRIGGER grace_stall ON sbtest1;

-- YCSB's workload A: the sixth UPDATE waits in its trigger
ALTER SEQUENCE grace_rows RESTART;
CREATE TRIGGER grace_stall BEFORE UPDATE ON usertable
	FOR EACH ROW EXECUTE FUNCTION grace_stall('field0');
SELECT run_id AS ycsb_run, transactions >= 5 AS went_on, cut_off
  FROM polarbench_run('ycsb-a', duration => 1, end_grace => 1) \gset
SELECT :'went_on' AS went_on, :cut_off AS cut_off;
SELECT * FROM grace_last;
SELECT operation, operations FROM polarbench_operations
 WHERE run_id = :ycsb_run AND operation = 'UPDATE';
SELECT count(*) AS cut_rows FROM usertable WHERE field0 = 'cut';
SELECT * FROM grace_report_lines(:ycsb_run);
DROP TRIGGER grace_stall ON usertable;

-- TPC-C: the sixth Payment waits in its INSERT into history, holding its
-- warehouse's, district's and customer's rows, which are let go
ALTER SEQUENCE grace_rows RESTART;
CREATE TRIGGER grace_stall BEFORE INSERT ON history
	FOR EACH ROW EXECUTE FUNCTION grace_stall('h_data');
SELECT run_id AS tpcc_run, transactions >= 5 AS went_on, cut_off
  FROM polarbench_run('tpcc', duration => 1, end_grace => 1) \gset
SELECT :'went_on' AS went_on, :cut_off AS cut_off;
SELECT * FROM grace_last;
SELECT operation, operations FROM polarbench_operations
 WHERE run_id = :tpcc_run AND operation = 'PAYMENT';
SELECT count(*) - 30000 AS payments_kept, count(*) FILTER (WHERE h_data = 'cut') AS cut_rows
  FROM history;
SELECT * FROM grace_report_lines(:tpcc_run);
SELECT count(*) AS conditions_broken FROM polarbench_tpcc_check()
 WHERE offending > 0 AND condition <> 11;
DROP TRIGGER grace_stall ON history;

-- the grace is the session's polarbench.end_grace unless given; it is
-- recorded, and shown by the live view's function too (no run goes on)
SET polarbench.end_grace = '1500ms';
SELECT cut_off FROM polarbench_run(script => 'SELECT 1;', duration => 0.2);
SELECT status, cut_off, end_grace, workers FROM grace_last;
RESET polarbench.end_grace;
SELECT count(*) FROM polarbench_live WHERE cut_off IS NOT NULL;
-- a run without slow statements cuts nothing off, and says nothing of it
-- (a grace of 0 would cut off the transactions in flight at the end)
SELECT run_id AS plain_run, transactions > 0 AS went_on, failed, cut_off
  FROM polarbench_run('select-only', clients => 2, duration => 1) \gset
SELECT :'went_on' AS went_on, :failed AS failed, :cut_off AS cut_off;
SELECT count(*) AS cut_lines FROM grace_report_lines(:plain_run);
-- a run of a number of transactions has no end to give a grace after
SELECT transactions, cut_off FROM polarbench_run(script => 'SELECT 1;', transactions => 3);
SELECT status, cut_off, end_grace FROM grace_last;

-- a grace that is no number of seconds, or more than a run may last, or
-- for a run without a duration, is refused before anything starts
SELECT count(*) AS runs_before FROM polarbench_runs \gset
SELECT * FROM polarbench_run(script => 'SELECT 1;', duration => 1, end_grace => -1);
SELECT * FROM polarbench_run(script => 'SELECT 1;', duration => 1, end_grace => 'NaN');
SELECT * FROM polarbench_run(script => 'SELECT 1;', duration => 1, end_grace => 'Infinity');
SET polarbench.max_run_duration = '1h';
SELECT * FROM polarbench_run(script => 'SELECT 1;', duration => 1, end_grace => 3601);
RESET polarbench.max_run_duration;
SELECT * FROM polarbench_run(script => 'SELECT 1;', transactions => 5, end_grace => 1);
SELECT polarbench_start(script => 'SELECT 1;', transactions => 5, end_grace => 1);
SELECT * FROM polarbench_sweep(script => 'SELECT 1;', clients => '{1,2}',
                               duration => 1, end_grace => -2);
SET polarbench.end_grace = -1;
SELECT count(*) - :runs_before AS runs_added FROM polarbench_runs;

-- a run's document carries its grace and what it cut off; one that no run
-- would have recorded is refused
CREATE TEMP TABLE grace_doc AS SELECT polarbench_run_document(:tpcb_run) AS doc;
SELECT doc->'run'->'cut_off' AS cut_off, doc->'run'->'end_grace' AS end_grace FROM grace_doc;
SELECT polarbench_record(doc, 'other:5432') AS stored FROM grace_doc \gset
SELECT cut_off, end_grace, node FROM polarbench_runs WHERE run_id = :stored;
SELECT polarbench_record(jsonb_set(doc, '{run,cut_off}', '-1'), 'x') FROM grace_doc;
SELECT polarbench_record(jsonb_set(doc, '{run,end_grace}', '-1'), 'x') FROM grace_doc;
SELECT polarbench_record(jsonb_set(jsonb_set(doc, '{run,duration}', 'null'),
                                   '{run,transactions_limit}', '5'), 'x') FROM grace_doc;

-- what this test made goes, its runs too: the tests after it pick runs by
-- workload, and load TPC-C's data set anew
DELETE FROM polarbench_run_data WHERE run_id > :runs_from;
DROP TABLE grace_doc, grace_a, grace_b;
DROP VIEW grace_last;
DROP FUNCTION grace_report_lines(bigint), grace_stall();
DROP SEQUENCE grace_rows;
DROP TABLE warehouse, district, customer, history, orders, new_order, order_line, item, stock, tpcc_load;
