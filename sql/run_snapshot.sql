-- The caller's snapshot stops holding back dead-row removal only where
-- nothing can read with it again; elsewhere a NOTICE says it is kept.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT rows FROM polarbench_init('pgbench', scale => 1);
RESET client_min_messages;
CREATE FUNCTION nbranches() RETURNS bigint STABLE LANGUAGE plpgsql
	AS $$BEGIN RETURN (SELECT count(*) FROM pgbench_branches); END$$;

-- A function of the same statement reads with the snapshot after the run:
-- the snapshot is kept, and the function sees the branch the run updated.
SELECT (polarbench_run('tpcb-like', clients => 2, transactions => 200)).transactions,
       nbranches();
SELECT nbranches() AS branches, transactions
  FROM polarbench_run('tpcb-like', clients => 2, transactions => 200);

-- A script that fails (division by zero) when the caller still advertises
-- an xmin older than the script's own first transaction: the caller holds
-- back dead-row removal.
SELECT pg_backend_pid() AS launcher \gset
SELECT $s$SELECT txid_current() AS x \gset
SELECT 1 / (backend_xmin IS NULL OR backend_xmin::text::bigint > :x)::int
  FROM pg_stat_activity WHERE pid = :launcher;
$s$ AS check_xmin \gset

-- released: the statement alone, in any of the plain forms
SELECT transactions FROM polarbench_run(script => :'check_xmin', transactions => 2,
	vars => jsonb_build_object('launcher', :launcher));
SELECT (polarbench_run(script => :'check_xmin', transactions => 2,
	vars => jsonb_build_object('launcher', :launcher))).transactions;
SELECT round(tps) >= 0 AS ran
  FROM polarbench_run(script => :'check_xmin', transactions => 2,
                      vars => jsonb_build_object('launcher', :launcher))
 WHERE transactions > 0;
-- and in a READ COMMITTED transaction block that wrote nothing, as
-- psycopg and JDBC send it with autocommit off
BEGIN;
SELECT transactions FROM polarbench_run(script => :'check_xmin', transactions => 2,
	vars => jsonb_build_object('launcher', :launcher));
SELECT transactions FROM polarbench_run(script => :'check_xmin', transactions => 2,
	vars => jsonb_build_object('launcher', :launcher));
COMMIT;

-- kept, and then the check fails: proof that it would see a held snapshot
-- (terse: the context names the run)
\set VERBOSITY terse
SELECT transactions, nbranches() FROM polarbench_run(script => :'check_xmin',
	transactions => 2, vars => jsonb_build_object('launcher', :launcher));
SELECT * FROM polarbench_run(script => :'check_xmin', transactions => 2,
	vars => jsonb_build_object('launcher', :launcher)) WHERE nbranches() > 0;
SELECT * FROM polarbench_run(script => :'check_xmin', transactions => 2,
	vars => jsonb_build_object('launcher', :launcher)),
	pgbench_branches;
-- a cursor of the transaction could be fetched from after the run
BEGIN;
DECLARE c CURSOR FOR SELECT bid FROM pgbench_branches;
SELECT transactions FROM polarbench_run(script => :'check_xmin', transactions => 2,
	vars => jsonb_build_object('launcher', :launcher));
ROLLBACK;
-- an exported snapshot may be imported by another session
BEGIN;
SELECT pg_export_snapshot() IS NOT NULL AS exported;
SELECT transactions FROM polarbench_run(script => :'check_xmin', transactions => 2,
	vars => jsonb_build_object('launcher', :launcher));
ROLLBACK;
-- REPEATABLE READ reads with the transaction's snapshot
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT transactions FROM polarbench_run(script => :'check_xmin', transactions => 2,
	vars => jsonb_build_object('launcher', :launcher));
ROLLBACK;
-- called from a function, whose caller reads on
DO $$BEGIN
	PERFORM polarbench_run(script => 'SELECT 1;', transactions => 1);
END$$;
-- a cursor over the call could be fetched from again
BEGIN;
DECLARE r CURSOR FOR SELECT transactions FROM polarbench_run(script => 'SELECT 1;',
	transactions => 1);
FETCH r;
COMMIT;
\set VERBOSITY default

DROP FUNCTION nbranches();
SELECT count(*) AS workers_left FROM pg_stat_activity
 WHERE backend_type LIKE 'polarbench%';
