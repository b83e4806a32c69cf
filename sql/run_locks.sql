-- A run never waits for ever on the transaction that started it: a worker
-- that waits for a lock the caller holds ends the run at once, with an
-- error that says so (terse: the detail names processes).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT rows FROM polarbench_init('pgbench', scale => 1);
RESET client_min_messages;
\set VERBOSITY terse

-- the clients' updates wait for the caller's lock (an ACCESS EXCLUSIVE lock
-- gives the transaction an id, and is refused before anything starts)
BEGIN;
LOCK TABLE pgbench_accounts IN EXCLUSIVE MODE;
SELECT * FROM polarbench_run('tpcb-like', duration => 1);
ROLLBACK;
SELECT status, error_sqlstate FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;
BEGIN;
LOCK TABLE pgbench_accounts;
SELECT * FROM polarbench_run('select-only', transactions => 1);
ROLLBACK;


-- a lock the script takes itself
BEGIN;
LOCK TABLE pgbench_history IN SHARE MODE;
SELECT * FROM polarbench_run(script => E'BEGIN;\nLOCK TABLE pgbench_history IN ROW EXCLUSIVE MODE;\nEND;',
                             transactions => 1);
ROLLBACK;

-- the recorder cannot write the run's row
BEGIN;
LOCK TABLE polarbench_run_data IN EXCLUSIVE MODE;
SELECT * FROM polarbench_run('select-only', transactions => 1);
ROLLBACK;
\set VERBOSITY default

-- a lock taken by a statement of the transaction that the run does not
-- conflict with is no obstacle
BEGIN;
SELECT count(*) FROM pgbench_branches;
SELECT transactions FROM polarbench_run('select-only', clients => 2, transactions => 10);
COMMIT;

SELECT count(*) AS workers_left FROM pg_stat_activity
 WHERE backend_type LIKE 'polarbench%';
