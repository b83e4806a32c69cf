-- Who may run benchmarks, and with which rights the clients run.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT rows FROM polarbench_init('pgbench', scale => 1);
RESET client_min_messages;
CREATE ROLE regress_pb_nobody LOGIN;
CREATE ROLE regress_pb_runner LOGIN;
CREATE ROLE regress_pb_nologin NOLOGIN;
GRANT EXECUTE ON FUNCTION polarbench_run TO regress_pb_runner, regress_pb_nologin;

-- not PUBLIC: a role must be granted the function
SET ROLE regress_pb_nobody;
SELECT * FROM polarbench_run('select-only', transactions => 1);
-- but anybody may read the results' figures
SELECT count(*) >= 0 AS can_read FROM polarbench_runs;
RESET ROLE;

-- the clients run as the role: without SELECT on the table the run fails
-- (terse: a failed run's DETAIL names its run id)
\set VERBOSITY terse
SET ROLE regress_pb_runner;
SELECT * FROM polarbench_run(script => 'SELECT abalance FROM pgbench_accounts WHERE aid = 1;',
                             transactions => 1);
SELECT status, error_sqlstate, run_by FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;
-- and nobody writes the result tables but the recorder
INSERT INTO polarbench_run_data (workload, scripts, weights, clients,
    progress_interval, random_seed, run_by, status, started_at)
  VALUES ('fake', '{}', '{}', 1, 0, 0, 0, 'finished', now());
UPDATE polarbench_run_data SET status = 'finished';
DELETE FROM polarbench_progress_data;
RESET ROLE;

-- with the grant the same run works, as that role
GRANT SELECT ON pgbench_accounts TO regress_pb_runner;
SET ROLE regress_pb_runner;
SELECT transactions FROM polarbench_run(script => 'SELECT abalance FROM pgbench_accounts WHERE aid = 1;',
                                        transactions => 3);
SELECT status, run_by FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;
-- a client's statement runs with the role's rights, not the owner's
SELECT * FROM polarbench_run(script => 'UPDATE pgbench_accounts SET abalance = 1 WHERE aid = 1;',
                             transactions => 1);
RESET ROLE;

-- a run's texts (scripts, variables, error message) are shown only to its
-- role, to roles that have its privileges and to pg_read_all_stats; its
-- figures to everybody
SET ROLE regress_pb_runner;
SELECT transactions FROM polarbench_run(script => 'SELECT :pw::text;',
                                        vars => '{"pw": "hunter2"}', transactions => 1);
SELECT * FROM polarbench_run(script => 'SELECT 1 / (aid - aid) FROM pgbench_accounts WHERE aid = :pw2;',
                             vars => '{"pw2": 1}', transactions => 1);
RESET ROLE;
CREATE TEMP TABLE secret_runs AS
	SELECT run_id FROM polarbench_runs ORDER BY run_id DESC LIMIT 2;
GRANT SELECT ON secret_runs TO PUBLIC;
CREATE FUNCTION texts_seen() RETURNS TABLE (vars jsonb, scripts text[], error_message text,
											commands text[], transactions bigint)
LANGUAGE sql AS $$
	SELECT r.vars, r.scripts, r.error_message,
		   (SELECT array_agg(s.command ORDER BY s.command_no) FROM polarbench_statements s
			 WHERE s.run_id = r.run_id),
		   r.transactions
	  FROM polarbench_runs r WHERE r.run_id IN (SELECT run_id FROM secret_runs)
	 ORDER BY r.run_id
$$;
SET ROLE regress_pb_nobody;
SELECT * FROM texts_seen();
RESET ROLE;
SET ROLE regress_pb_runner;
SELECT * FROM texts_seen();
RESET ROLE;
GRANT regress_pb_runner TO regress_pb_nobody;
SET ROLE regress_pb_nobody;
SELECT * FROM texts_seen();
RESET ROLE;
REVOKE regress_pb_runner FROM regress_pb_nobody;
GRANT pg_read_all_stats TO regress_pb_nobody;
SET ROLE regress_pb_nobody;
SELECT * FROM texts_seen();
RESET ROLE;
REVOKE pg_read_all_stats FROM regress_pb_nobody;
DROP FUNCTION texts_seen();

\set VERBOSITY default
-- a role that may not log in cannot start clients
SET ROLE regress_pb_nologin;
SELECT * FROM polarbench_run('select-only', transactions => 1);
RESET ROLE;

REVOKE ALL ON pgbench_accounts FROM regress_pb_runner;
DROP OWNED BY regress_pb_runner, regress_pb_nologin;
DROP ROLE regress_pb_nobody, regress_pb_runner, regress_pb_nologin;
