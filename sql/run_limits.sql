-- What one run may take, as a superuser limits it, and bad input: refused
-- before any worker starts, with nothing recorded.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT rows FROM polarbench_init('pgbench', scale => 1);
RESET client_min_messages;
CREATE TEMP TABLE runs_before AS SELECT count(*) AS n FROM polarbench_runs;
CREATE ROLE regress_pb_limits LOGIN;
GRANT EXECUTE ON FUNCTION polarbench_run TO regress_pb_limits;
GRANT SELECT ON pgbench_accounts, pgbench_branches TO regress_pb_limits;

-- the settings, which only a superuser may change
SELECT name, context, unit FROM pg_settings
 WHERE name LIKE 'polarbench.%' ORDER BY name;
-- polarbench.max_clients counts every polarbench process, not only clients
SELECT short_desc FROM pg_settings WHERE name = 'polarbench.max_clients';
SET ROLE regress_pb_limits;
SET polarbench.max_clients = 1000;
SET polarbench.max_run_duration = '1y';
RESET ROLE;

-- polarbench.max_clients: all runs together, this one alone already
SET polarbench.max_clients = 1;
SELECT * FROM polarbench_run('select-only', clients => 2);
RESET polarbench.max_clients;

-- polarbench.max_run_duration: a longer duration is refused...
SET polarbench.max_run_duration = '10s';
SELECT * FROM polarbench_run('select-only', duration => 11);
-- ...and a run of transactions that outlasts it fails when it is reached
-- (terse: the context names the run)
SET polarbench.max_run_duration = '1s';
\set VERBOSITY terse
SELECT * FROM polarbench_run(script => E'\\sleep 10 s', transactions => 1);
\set VERBOSITY default
SELECT status, error_sqlstate, error_message, seconds < 10 AS stopped_in_time
  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;
-- ...and so does a run given a duration whose statement outlasts it: its
-- hint is about the duration, not about transactions (no context: it names
-- the run)
\set SHOW_CONTEXT never
SELECT * FROM polarbench_run(script => 'SELECT pg_sleep(2);', duration => 1);
\set SHOW_CONTEXT errors
RESET polarbench.max_run_duration;

-- polarbench.max_script_commands
SET polarbench.max_script_commands = 3;
SELECT * FROM polarbench_run(script => E'SELECT 1;\nSELECT 2;\n\\set x 1\nSELECT :x;');
RESET polarbench.max_script_commands;

-- polarbench.max_run_memory: clients times what each keeps
SET polarbench.max_run_memory = '2MB';
SELECT * FROM polarbench_run('select-only', clients => 2);
-- a command repeated is one plan that its copies share, so 2000 copies
-- fit where 2000 plans (some 28 MB a client) would not
SET polarbench.max_run_memory = '8MB';
SELECT transactions FROM polarbench_run(
	script => repeat(E'SELECT abalance FROM pgbench_accounts WHERE aid = 1;\n', 2000),
	clients => 2, transactions => 1);
SELECT * FROM polarbench_run(
	script => (SELECT string_agg(format('SELECT abalance FROM pgbench_accounts WHERE aid = %s;', i), E'\n')
				 FROM generate_series(1, 2000) i),
	transactions => 1);
RESET polarbench.max_run_memory;

-- a role's connection limit counts its clients and the run's recorder
-- (superusers are exempt): one client and its recorder fit in two
ALTER ROLE regress_pb_limits CONNECTION LIMIT 2;
SET ROLE regress_pb_limits;
SELECT transactions FROM polarbench_run('select-only', transactions => 1);
SELECT * FROM polarbench_run('select-only', clients => 2, transactions => 1);
RESET ROLE;
ALTER ROLE regress_pb_limits CONNECTION LIMIT 1;
SET ROLE regress_pb_limits;
SELECT * FROM polarbench_run('select-only', transactions => 1);
RESET ROLE;
ALTER ROLE regress_pb_limits CONNECTION LIMIT -1;
-- and so does the database's: this session, one client and its recorder
-- are three
SELECT current_database() AS db \gset
ALTER DATABASE :"db" CONNECTION LIMIT 1;
SET ROLE regress_pb_limits;
SELECT * FROM polarbench_run('select-only', transactions => 1);
RESET ROLE;
ALTER DATABASE :"db" CONNECTION LIMIT -1;

-- bad input
SELECT * FROM polarbench_run(scripts => '{}');
SELECT * FROM polarbench_run(scripts => '{{"SELECT 1;"},{"SELECT 2;"}}');
SELECT * FROM polarbench_run(scripts => ARRAY['SELECT 1;'], weights => '{{1}}');
SELECT * FROM polarbench_run(script => 'SELEC 1;');
SELECT * FROM polarbench_run(script => E'\\set aid 1\nSELECT abalance FROM pgbench_accounts\n WHERE aid = :aid AND bid = :bid;',
                             vars => '{"bid": "one"}');
SELECT * FROM polarbench_run(script => 'SELECT :n + 1;', vars => '{"n": "1.5x"}');
SELECT * FROM polarbench_run(script => E'\\sleep 99999999999999999999 us');
SELECT * FROM polarbench_run(script => E'\\sleep 9223372036854775807 us');
SELECT * FROM polarbench_run(script => E'\\sleep 9223372037 s');
SELECT count(*) = (SELECT n FROM runs_before) + 2 AS nothing_else_recorded
  FROM polarbench_runs;

-- a \sleep ends with the run: with a duration of 1 s, \sleep 4 s ends no
-- transaction, which is an error, and the run took less than the sleep
\set VERBOSITY terse
SELECT * FROM polarbench_run(script => E'\\sleep 4 s', duration => 1);
\set VERBOSITY default
SELECT status, error_sqlstate, error_message, transactions, seconds < 4 AS stopped_in_time
  FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;

-- a script may not start runs or loads of its own
\set VERBOSITY terse
SELECT * FROM polarbench_run(script => 'SELECT polarbench_run(''select-only'');',
                             transactions => 1);
SELECT * FROM polarbench_run(script => 'SELECT polarbench_init(''ycsb'');',
                             transactions => 1);
\set VERBOSITY default
SELECT status, error_sqlstate, error_message FROM polarbench_runs
 ORDER BY run_id DESC LIMIT 2;

-- a role whose sessions are read-only by default: its runs are recorded
-- all the same, and a client that writes fails with the server's error
ALTER ROLE regress_pb_limits SET default_transaction_read_only = on;
SET ROLE regress_pb_limits;
SELECT transactions FROM polarbench_run('select-only', transactions => 2);
\set VERBOSITY terse
SELECT * FROM polarbench_run(script => 'CREATE TEMP TABLE t (a int);', transactions => 1);
\set VERBOSITY default
RESET ROLE;
SELECT status, error_sqlstate, error_message, run_by FROM polarbench_runs
 ORDER BY run_id DESC LIMIT 2;
ALTER ROLE regress_pb_limits RESET default_transaction_read_only;

REVOKE ALL ON pgbench_accounts, pgbench_branches FROM regress_pb_limits;
REVOKE ALL ON FUNCTION polarbench_run FROM regress_pb_limits;
DROP ROLE regress_pb_limits;
SELECT count(*) AS workers_left FROM pg_stat_activity
 WHERE backend_type LIKE 'polarbench%';
