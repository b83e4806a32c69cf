-- Background runs: polarbench_start returns at once with the run's id,
-- polarbench_wait waits for it, polarbench_cancel stops it, polarbench_live
-- shows it while it goes on; who may do what, and the errors.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT rows FROM polarbench_init('pgbench', scale => 1);
RESET client_min_messages;
-- run ids this file can show, whatever ran before it; put back at the end
SELECT last_value AS ids_before, is_called AS ids_called
  FROM polarbench_run_data_run_id_seq \gset
SELECT setval('polarbench_run_data_run_id_seq', 1000) > 0 AS ids_set;

-- a background run ends on its own; waiting returns its summary
SELECT polarbench_start('select-only', clients => 2, transactions => 25) AS run \gset
SELECT run_id = :run AS same_run, workload, clients, transactions, failed
  FROM polarbench_wait(:run);
SELECT status, transactions FROM polarbench_runs WHERE run_id = :run;
-- waiting again for a run that ended returns at once
SELECT transactions FROM polarbench_wait(:run, 0);

-- a long one: running right after the start, seen live, then canceled
SELECT polarbench_start('select-only', clients => 2, duration => 60) AS run \gset
SELECT status FROM polarbench_runs WHERE run_id = :run;
-- no time left to wait: NULL
SELECT polarbench_wait(:run, 0) IS NULL AS timed_out;
-- its figures of the last second, once its first second is over
DO $$
BEGIN
	FOR i IN 1..600 LOOP
		EXIT WHEN EXISTS (SELECT FROM polarbench_live);
		PERFORM pg_sleep(0.05);
	END LOOP;
END
$$;
SELECT run_id = :run AS same_run, workload, run_by = current_user AS mine, clients,
       warming_up, tps > 0 AS tps, latency_p50 <= latency_p99 AS ordered,
       lag_avg IS NULL AS no_lag
  FROM polarbench_live;
-- another role may neither cancel it nor wait for it
CREATE ROLE pb_bg_other LOGIN;
GRANT USAGE ON SCHEMA public TO pb_bg_other;
SET ROLE pb_bg_other;
SELECT polarbench_cancel(:run);
SELECT * FROM polarbench_wait(:run, 0);
-- but sees its figures, as everybody sees polarbench_runs
SELECT count(*) AS live_runs FROM polarbench_live;
RESET ROLE;
SELECT polarbench_cancel(:run) AS canceled;
SELECT * FROM polarbench_wait(:run);
SELECT status, seconds < 60 AS cut_short FROM polarbench_runs WHERE run_id = :run;
SELECT polarbench_cancel(:run) AS canceled_again;
SELECT count(*) AS live_runs FROM polarbench_live;

-- a run that fails after its start: waiting raises its error
\set VERBOSITY terse
SELECT polarbench_start(script => 'SELECT 1 / 0;', transactions => 1) AS run \gset
SELECT * FROM polarbench_wait(:run);
\set VERBOSITY default
SELECT status, error_sqlstate FROM polarbench_runs WHERE run_id = :run;

-- started from a transaction block that then rolls back: the run goes on
BEGIN;
SELECT polarbench_start('select-only', transactions => 5) AS run \gset
ROLLBACK;
SELECT transactions FROM polarbench_wait(:run);

-- bad input is refused before anything starts, with the run's own errors
SELECT count(*) AS runs_before FROM polarbench_runs \gset
SELECT polarbench_start('no-such-workload');
SELECT polarbench_start('select-only', rate => 0);
SELECT polarbench_start('select-only', duration => 1, warmup => 2);
SELECT polarbench_start(script => 'SELECT * FROM no_such_table;');
SELECT polarbench_start('select-only', clients => 0);
BEGIN;
CREATE TABLE pb_bg_written (a int);
SELECT polarbench_start('select-only');
ROLLBACK;
SELECT count(*) = :runs_before AS nothing_recorded FROM polarbench_runs;
SELECT * FROM polarbench_wait(-1);
SELECT * FROM polarbench_wait(NULL);
SELECT * FROM polarbench_wait(:run, -1);
SELECT polarbench_cancel(-1);
SELECT polarbench_cancel(NULL);
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT * FROM polarbench_wait(:run);
ROLLBACK;

-- polarbench_start is granted as polarbench_run is
SET ROLE pb_bg_other;
SELECT polarbench_start('select-only');
RESET ROLE;
REVOKE USAGE ON SCHEMA public FROM pb_bg_other;
DROP ROLE pb_bg_other;

-- what polarbench_live, _wait and _cancel read as the extension's owner
-- runs with a search_path of pg_catalog: an operator of the caller's own
-- is not run as the owner
CREATE SCHEMA pb_bg_evil;
CREATE FUNCTION pb_bg_evil.eq(text, text) RETURNS boolean LANGUAGE plpgsql AS
  $$BEGIN RAISE EXCEPTION 'ran as %', current_user; END$$;
CREATE OPERATOR pb_bg_evil.= (leftarg = text, rightarg = text, function = pb_bg_evil.eq);
CREATE FUNCTION pb_bg_evil.eq8(bigint, bigint) RETURNS boolean LANGUAGE plpgsql AS
  $$BEGIN RAISE EXCEPTION 'ran as %', current_user; END$$;
CREATE OPERATOR pb_bg_evil.= (leftarg = bigint, rightarg = bigint, function = pb_bg_evil.eq8);
SET search_path = pb_bg_evil, pg_catalog, public;
SELECT count(*) AS live_runs FROM polarbench_live;
SELECT polarbench_cancel(:run) AS canceled;
SELECT transactions FROM polarbench_wait(:run);
RESET search_path;
DROP SCHEMA pb_bg_evil CASCADE;

-- leave the history as it was for the files that follow
DELETE FROM polarbench_run_data WHERE run_id > 1000;
SELECT setval('polarbench_run_data_run_id_seq', :ids_before, :'ids_called') > 0 AS ids_reset;
