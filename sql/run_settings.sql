-- Settings per run: every client sets them, as the calling role; those a
-- session cannot SET, those the role may not set, bad values and those
-- that do not act on SPI statements are refused before anything starts.
-- The run records what was asked and the effective values that matter.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT rows FROM polarbench_init('pgbench', scale => 1);
RESET client_min_messages;

-- the clients have them: a read-only default makes the run's UPDATE fail
-- (terse: the run's id is in the context)
\set VERBOSITY terse
SELECT * FROM polarbench_run('simple-update', transactions => 1,
                             settings => '{"default_transaction_read_only": "on"}');
\set VERBOSITY default
SELECT status, error_sqlstate FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;
-- and the scripts are checked with them, as the clients run them: a table
-- only the run's search_path finds
CREATE SCHEMA pb_settings_shadow;
CREATE TABLE pb_settings_shadow.only_here (n int);
INSERT INTO pb_settings_shadow.only_here VALUES (1), (2);
SELECT * FROM polarbench_run(script => 'SELECT n FROM only_here WHERE n = 1;', transactions => 1);
SELECT transactions, reads FROM polarbench_run(script => 'SELECT n FROM only_here WHERE n = 1;',
       transactions => 3, settings => '{"search_path": "pb_settings_shadow, public"}');
-- the caller's own session is left as it was
SHOW search_path;
SELECT count(*) FROM only_here;
DROP SCHEMA pb_settings_shadow CASCADE;

-- what was asked, and the effective values, with the run
SELECT transactions FROM polarbench_run('select-only', transactions => 2,
       settings => '{"work_mem": "64MB", "Synchronous_Commit": "off"}');
SELECT settings, effective_settings->>'work_mem' AS work_mem,
       effective_settings->>'synchronous_commit' AS synchronous_commit,
       effective_settings ? 'shared_buffers' AS shared_buffers,
       effective_settings ? 'fsync' AS fsync, effective_settings ? 'wal_level' AS wal_level
  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;
-- a run without settings records the effective values too
SELECT transactions FROM polarbench_run('select-only', transactions => 1);
SELECT settings IS NULL AS none_asked, effective_settings->>'work_mem' = current_setting('work_mem') AS server_work_mem
  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;

-- refused, with the reason
SELECT count(*) AS runs_before FROM polarbench_runs \gset
SELECT * FROM polarbench_run('select-only', settings => '{"log_statement": "all"}');
SELECT * FROM polarbench_run('select-only', settings => '{"log_min_duration_statement": 0}');
SELECT * FROM polarbench_run('select-only', settings => '{"statement_timeout": "1s"}');
SELECT * FROM polarbench_run('select-only', settings => '{"fsync": "off"}');
SELECT * FROM polarbench_run('select-only', settings => '{"shared_buffers": "1GB"}');
SELECT * FROM polarbench_run('select-only', settings => '{"log_connections": "on"}');
SELECT * FROM polarbench_run('select-only', settings => '{"server_version": "1"}');
SELECT * FROM polarbench_run('select-only', settings => '{"work_mem": "64XB"}');
SELECT * FROM polarbench_run('select-only', settings => '{"no_such_setting": 1}');
SELECT * FROM polarbench_run('select-only', settings => '{"pgaudit.log": "all"}');
SELECT * FROM polarbench_run('select-only', settings => '["work_mem"]');
SELECT * FROM polarbench_run('select-only', settings => '{"work_mem": {"a": 1}}');

-- a superuser-only parameter: refused to a role, accepted once granted
CREATE ROLE pb_settings_role LOGIN;
GRANT EXECUTE ON FUNCTION polarbench_run TO pb_settings_role;
GRANT SELECT ON pgbench_accounts TO pb_settings_role;
SET ROLE pb_settings_role;
SELECT * FROM polarbench_run(script => 'SELECT abalance FROM pgbench_accounts WHERE aid = 1;',
                             transactions => 1, settings => '{"lc_messages": "C"}');
RESET ROLE;
GRANT SET ON PARAMETER lc_messages TO pb_settings_role;
SET ROLE pb_settings_role;
SELECT transactions FROM polarbench_run(script => 'SELECT abalance FROM pgbench_accounts WHERE aid = 1;',
                                        transactions => 1, settings => '{"lc_messages": "C"}');
RESET ROLE;
SELECT count(*) = :runs_before + 1 AS only_the_granted_run FROM polarbench_runs;
-- one pg_settings hides from the role (GUC_SUPERUSER_ONLY) is found as SET
-- finds it, and its value shown to the role as pg_settings would show it
SET ROLE pb_settings_role;
SELECT * FROM polarbench_run(script => 'SELECT abalance FROM pgbench_accounts WHERE aid = 1;',
                             transactions => 1, settings => '{"dynamic_library_path": "$libdir"}');
RESET ROLE;
GRANT SET ON PARAMETER dynamic_library_path TO pb_settings_role;
SET ROLE pb_settings_role;
SELECT transactions FROM polarbench_run(script => 'SELECT abalance FROM pgbench_accounts WHERE aid = 1;',
                                        transactions => 1, settings => '{"Dynamic_Library_Path": "$libdir"}');
SELECT settings, effective_settings->>'dynamic_library_path' AS effective
  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;
RESET ROLE;
SELECT settings, effective_settings->>'dynamic_library_path' AS effective
  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;
REVOKE SET ON PARAMETER dynamic_library_path FROM pb_settings_role;

REVOKE SET ON PARAMETER lc_messages FROM pb_settings_role;
REVOKE SELECT ON pgbench_accounts FROM pb_settings_role;
REVOKE EXECUTE ON FUNCTION polarbench_run FROM pb_settings_role;
DELETE FROM polarbench_run_data WHERE run_by = 'pb_settings_role'::regrole;
DROP ROLE pb_settings_role;
