-- Every workload on tables that have row triggers (plpgsql functions that
-- write another table through SPI of their own, run while the client's
-- statement runs), rules and deferred constraint triggers (run at commit):
-- no client crashes, every trigger fires once per row written, a rule's
-- statement runs beside the client's, and an error raised by a trigger at
-- commit is handled as the workload's tool handles that error.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT dataset FROM polarbench_init('pgbench', scale => 1);
SELECT dataset FROM polarbench_init('sysbench', tables => 1, table_size => 1000);
SELECT dataset FROM polarbench_init('ycsb', records => 1000);
RESET client_min_messages;

CREATE TABLE trigger_log (tbl text, op text, fired text);
CREATE TABLE rule_log (tbl text, n int);
CREATE FUNCTION log_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO trigger_log VALUES (TG_TABLE_NAME, TG_OP, TG_WHEN);
	RETURN NULL;
END $$;
CREATE FUNCTION log_deferred() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO trigger_log VALUES (TG_TABLE_NAME, TG_OP, 'DEFERRED');
	RETURN NULL;
END $$;
-- a BEFORE trigger that changes the row, and looks up another table
CREATE FUNCTION stamp_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM count(*) FROM trigger_log;
	INSERT INTO trigger_log VALUES (TG_TABLE_NAME, TG_OP, TG_WHEN);
	RETURN NEW;
END $$;

-- pgbench's TPC-B-like script writes four tables
CREATE TRIGGER log_after AFTER UPDATE ON pgbench_accounts FOR EACH ROW EXECUTE FUNCTION log_row();
CREATE TRIGGER log_after AFTER UPDATE ON pgbench_tellers FOR EACH ROW EXECUTE FUNCTION log_row();
CREATE TRIGGER stamp_before BEFORE UPDATE ON pgbench_branches FOR EACH ROW EXECUTE FUNCTION stamp_row();
CREATE TRIGGER log_after AFTER INSERT ON pgbench_history FOR EACH ROW EXECUTE FUNCTION log_row();
CREATE CONSTRAINT TRIGGER log_deferred AFTER UPDATE ON pgbench_accounts
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION log_deferred();
CREATE RULE copy_history AS ON INSERT TO pgbench_history
	DO ALSO INSERT INTO rule_log VALUES ('pgbench_history', NEW.delta);
SELECT workload, transactions, failed
  FROM polarbench_run('tpcb-like', clients => 2, transactions => 20);
SELECT tbl, op, fired, count(*) FROM trigger_log GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
SELECT tbl, count(*) FROM rule_log GROUP BY 1;
-- the same with retries and in a transaction block of a custom script
TRUNCATE trigger_log, rule_log;
SELECT workload, transactions, failed
  FROM polarbench_run(script => $$\set aid random(1, 100000)
BEGIN ISOLATION LEVEL REPEATABLE READ;
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, :aid, 1, now());
END;$$, clients => 2, transactions => 15, max_tries => 10);
SELECT tbl, op, fired, count(*) FROM trigger_log GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
SELECT tbl, count(*) FROM rule_log GROUP BY 1;

-- a deferred constraint that fails at commit fails a pgbench run cleanly
CREATE FUNCTION refuse_deferred() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'refused at commit' USING ERRCODE = 'check_violation';
END $$;
CREATE CONSTRAINT TRIGGER refuse AFTER UPDATE ON pgbench_tellers
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_deferred();
\set VERBOSITY terse
SELECT * FROM polarbench_run('tpcb-like', transactions => 5);
\set VERBOSITY default
SELECT status, error_sqlstate, error_message FROM polarbench_runs
 WHERE run_id = (SELECT max(run_id) FROM polarbench_runs);
DROP TRIGGER refuse ON pgbench_tellers;
-- simple-update writes pgbench_accounts and pgbench_history
TRUNCATE trigger_log, rule_log;
SELECT workload, transactions, failed
  FROM polarbench_run('simple-update', clients => 2, transactions => 10);
SELECT tbl, op, fired, count(*) FROM trigger_log GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
SELECT tbl, count(*) FROM rule_log GROUP BY 1;

-- sysbench's oltp_read_write updates, deletes and inserts sbtest1
TRUNCATE trigger_log, rule_log;
CREATE TRIGGER log_after AFTER INSERT OR UPDATE OR DELETE ON sbtest1
	FOR EACH ROW EXECUTE FUNCTION log_row();
CREATE TRIGGER stamp_before BEFORE UPDATE ON sbtest1 FOR EACH ROW EXECUTE FUNCTION stamp_row();
CREATE CONSTRAINT TRIGGER log_deferred AFTER INSERT OR UPDATE ON sbtest1
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION log_deferred();
CREATE RULE copy_deletes AS ON DELETE TO sbtest1
	DO ALSO INSERT INTO rule_log VALUES ('sbtest1', OLD.id);
SELECT workload, transactions, writes, errors
  FROM polarbench_run('oltp_read_write', transactions => 10, random_seed => 1,
                      options => '{"tables": 1}');
SELECT tbl, op, fired, count(*) FROM trigger_log GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
SELECT tbl, count(*) FROM rule_log GROUP BY 1;
-- oltp_insert, and oltp_write_only with two clients
TRUNCATE trigger_log, rule_log;
SELECT workload, transactions, errors
  FROM polarbench_run('oltp_insert', transactions => 10, options => '{"tables": 1}');
SELECT count(*) AS inserted FROM trigger_log WHERE op = 'INSERT' AND fired = 'AFTER';
TRUNCATE trigger_log, rule_log;
SELECT workload, transactions
  FROM polarbench_run('oltp_write_only', clients => 2, transactions => 10,
                      options => '{"tables": 1}');
-- (two clients may delete the row another updates: each trigger fired as
-- often as the others of its statement, and the rule as the delete trigger)
SELECT count(*) FILTER (WHERE op = 'INSERT' AND fired = 'AFTER') =
         count(*) FILTER (WHERE op = 'INSERT' AND fired = 'DEFERRED') AS inserts_deferred,
       count(*) FILTER (WHERE op = 'INSERT') > 0 AS some_inserts,
       count(*) FILTER (WHERE op = 'UPDATE' AND fired = 'AFTER') =
         count(*) FILTER (WHERE op = 'UPDATE' AND fired = 'BEFORE') AS updates_before_after,
       count(*) FILTER (WHERE op = 'UPDATE' AND fired = 'AFTER') =
         count(*) FILTER (WHERE op = 'UPDATE' AND fired = 'DEFERRED') AS updates_deferred,
       count(*) FILTER (WHERE op = 'DELETE') = (SELECT count(*) FROM rule_log) AS deletes_copied
  FROM trigger_log;

-- oltp_delete deletes and inserts again
TRUNCATE trigger_log, rule_log;
SELECT workload, transactions, errors
  FROM polarbench_run('oltp_delete', transactions => 10, options => '{"tables": 1}');
SELECT count(*) FILTER (WHERE op = 'DELETE') = (SELECT count(*) FROM rule_log) AS deletes_copied,
       count(*) FILTER (WHERE op = 'INSERT' AND fired = 'AFTER') =
         count(*) FILTER (WHERE op = 'INSERT' AND fired = 'DEFERRED') AS inserts_deferred
  FROM trigger_log;

-- oltp_update_index and oltp_update_non_index update one row an event,
-- of ids 1 to 1000: put back those oltp_delete removed first
INSERT INTO sbtest1 (id, k, c, pad)
SELECT g, 0, '', '' FROM generate_series(1, 1000) g
 WHERE NOT EXISTS (SELECT FROM sbtest1 WHERE id = g);
TRUNCATE trigger_log, rule_log;
SELECT workload, transactions, writes, errors
  FROM polarbench_run('oltp_update_index', clients => 2, transactions => 10,
                      options => '{"tables": 1, "table_size": 1000}');
SELECT tbl, op, fired, count(*) FROM trigger_log GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
TRUNCATE trigger_log, rule_log;
SELECT workload, transactions, writes, errors
  FROM polarbench_run('oltp_update_non_index', clients => 2, transactions => 10,
                      options => '{"tables": 1, "table_size": 1000}');
SELECT tbl, op, fired, count(*) FROM trigger_log GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
SELECT count(*) AS rules_fired FROM rule_log;

-- YCSB: updates (workload a, b), read-modify-writes (f), inserts (e, d,
-- load)
TRUNCATE trigger_log, rule_log;
CREATE TRIGGER log_after AFTER INSERT OR UPDATE ON usertable
	FOR EACH ROW EXECUTE FUNCTION log_row();
CREATE TRIGGER stamp_before BEFORE UPDATE ON usertable FOR EACH ROW EXECUTE FUNCTION stamp_row();
CREATE CONSTRAINT TRIGGER log_deferred AFTER UPDATE ON usertable
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION log_deferred();
CREATE RULE copy_inserts AS ON INSERT TO usertable
	DO ALSO INSERT INTO rule_log VALUES ('usertable', 1);
SELECT workload, transactions, errors
  FROM polarbench_run('ycsb-a', clients => 2, transactions => 200);
SELECT count(*) FILTER (WHERE fired = 'AFTER') = o.operations AS after_per_update,
       count(*) FILTER (WHERE fired = 'BEFORE') = o.operations AS before_per_update,
       count(*) FILTER (WHERE fired = 'DEFERRED') = o.operations AS deferred_per_update
  FROM trigger_log,
       (SELECT operations FROM polarbench_operations
         WHERE run_id = (SELECT max(run_id) FROM polarbench_runs)
           AND operation = 'UPDATE') o
 GROUP BY o.operations;
TRUNCATE trigger_log;
SELECT workload, transactions, reads, writes, errors
  FROM polarbench_run('ycsb-f', transactions => 100, random_seed => 3);
SELECT count(*) FILTER (WHERE fired = 'DEFERRED') = r.writes AS deferred_per_write
  FROM trigger_log, polarbench_runs r
 WHERE r.run_id = (SELECT max(run_id) FROM polarbench_runs)
 GROUP BY r.writes;
TRUNCATE trigger_log;
SELECT workload, transactions, errors
  FROM polarbench_run('ycsb-b', clients => 2, transactions => 200);
SELECT (SELECT count(*) FROM trigger_log WHERE fired = 'AFTER') = o.operations AS after_per_update,
       (SELECT count(*) FROM trigger_log WHERE fired = 'BEFORE') = o.operations AS before_per_update,
       (SELECT count(*) FROM trigger_log WHERE fired = 'DEFERRED') = o.operations AS deferred_per_update,
       (SELECT count(*) FROM trigger_log WHERE op = 'INSERT') AS inserts
  FROM (SELECT coalesce(sum(operations), 0) AS operations FROM polarbench_operations
         WHERE run_id = (SELECT max(run_id) FROM polarbench_runs)
           AND operation = 'UPDATE') o;
-- ycsb-e scans, and inserts after the last record
TRUNCATE trigger_log, rule_log;
SELECT workload, transactions, errors
  FROM polarbench_run('ycsb-e', clients => 2, transactions => 100);
SELECT (SELECT count(*) FROM trigger_log WHERE op = 'INSERT' AND fired = 'AFTER') = o.operations AS trigger_per_insert,
       (SELECT count(*) FROM rule_log) = o.operations AS rule_per_insert,
       (SELECT count(*) FROM trigger_log WHERE op = 'UPDATE') AS updates
  FROM (SELECT coalesce(sum(operations), 0) AS operations FROM polarbench_operations
         WHERE run_id = (SELECT max(run_id) FROM polarbench_runs)
           AND operation = 'INSERT') o;
TRUNCATE trigger_log, rule_log;
SELECT workload, transactions, errors
  FROM polarbench_run('ycsb-d', clients => 2, transactions => 100);
SELECT (SELECT count(*) FROM trigger_log WHERE op = 'INSERT') = o.operations AS trigger_per_insert,
       (SELECT count(*) FROM rule_log) = o.operations AS rule_per_insert
  FROM polarbench_operations o
 WHERE run_id = (SELECT max(run_id) FROM polarbench_runs) AND operation = 'INSERT';
TRUNCATE trigger_log, rule_log;
SELECT workload, transactions, errors
  FROM polarbench_run('ycsb-load', clients => 2,
                      options => '{"insertstart": 100000, "insertcount": 50}');
SELECT (SELECT count(*) FROM trigger_log WHERE op = 'INSERT') AS inserts_triggered,
       (SELECT count(*) FROM rule_log) AS inserts_copied;
-- a deferred unique violation at commit is YCSB's Return=ERROR: counted,
-- and the run goes on
CREATE FUNCTION refuse_some() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF pg_catalog.hashtext(NEW.ycsb_key) % 4 = 0 THEN
		RAISE EXCEPTION 'refused at commit' USING ERRCODE = 'unique_violation';
	END IF;
	RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER refuse AFTER UPDATE ON usertable
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_some();
SELECT workload, transactions, errors > 0 AS some_refused
  FROM polarbench_run('ycsb-a', transactions => 100, random_seed => 5,
                      options => '{"readproportion": 0, "updateproportion": 1}');
SELECT status FROM polarbench_runs WHERE run_id = (SELECT max(run_id) FROM polarbench_runs);

-- no client is left, and the server took no harm
SELECT count(*) AS workers_left FROM pg_stat_activity
 WHERE backend_type LIKE 'polarbench%';
DROP RULE copy_inserts ON usertable;
DROP RULE copy_deletes ON sbtest1;
DROP RULE copy_history ON pgbench_history;
DROP TRIGGER log_after ON usertable;
DROP TRIGGER stamp_before ON usertable;
DROP TRIGGER log_deferred ON usertable;
DROP TRIGGER refuse ON usertable;
DROP TRIGGER log_after ON sbtest1;
DROP TRIGGER stamp_before ON sbtest1;
DROP TRIGGER log_deferred ON sbtest1;
DROP TRIGGER log_after ON pgbench_accounts;
DROP TRIGGER log_deferred ON pgbench_accounts;
DROP TRIGGER log_after ON pgbench_tellers;
DROP TRIGGER stamp_before ON pgbench_branches;
DROP TRIGGER log_after ON pgbench_history;
DROP TABLE trigger_log, rule_log;
DROP FUNCTION log_row(), log_deferred(), stamp_row(), refuse_deferred(), refuse_some();
