-- Sweeps: every combination, in the stated order, recorded with the
-- sweep's id; the pivot that reads like the reference reports' tables; and
-- the errors,
-- found before the first run.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT rows FROM polarbench_init('pgbench', scale => 1);
RESET client_min_messages;
-- run ids this file can show, whatever ran before it; put back at the end
SELECT last_value AS ids_before, is_called AS ids_called
  FROM polarbench_run_data_run_id_seq \gset
SELECT setval('polarbench_run_data_run_id_seq', 2000) > 0 AS ids_set;

-- two client counts by two setting sets, twice: for each repetition, for
-- each setting set, every client count
SELECT sweep_id, run_id, repetition, setting_set, run_clients, run_settings,
       run_transactions, failed, tps > 0 AS tps
  FROM polarbench_sweep('select-only', clients => '{2,1}',
                        settings => ARRAY['{"synchronous_commit": "on"}',
                                          '{"synchronous_commit": "off", "work_mem": "8MB"}']::jsonb[],
                        transactions => 10, repeat => 2);
-- each run recorded with the sweep, its place in it and its settings
SELECT run_id, sweep_id, sweep_run, sweep_set, sweep_repeat, clients, settings,
       effective_settings->>'synchronous_commit' AS synchronous_commit
  FROM polarbench_runs WHERE sweep_id = 2001 ORDER BY sweep_run;
-- the pivot: a row per client count, a column per setting set
SELECT * FROM polarbench_sweep_table(2001, 'failed');
SELECT count(*) AS lines FROM polarbench_sweep_table(2001);

-- any run argument can vary: variable sets, with a custom script
SELECT sweep_id, setting_set, run_clients, run_vars, run_transactions
  FROM polarbench_sweep(script => E'\\set aid random(1, :range)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n',
                        clients => '{1}', vars => ARRAY['{"range": 10}', '{"range": 100000}']::jsonb[],
                        transactions => 5);
SELECT * FROM polarbench_sweep_table(2009, 'failed');

-- a write workload: each run reads the scale and prepares with a snapshot
-- of its own, not with the statement's, which the runs before it let go
-- (enough updates of the one branch that its page is pruned)
SELECT run_clients, run_transactions = 300 * run_clients AS all_done
  FROM polarbench_sweep('tpcb-like', clients => '{1,2,1}', transactions => 300);

-- refused before the first run
SELECT count(*) AS runs_before FROM polarbench_runs \gset
SELECT * FROM polarbench_sweep('select-only', clients => '{}');
SELECT * FROM polarbench_sweep('select-only', clients => NULL);
SELECT * FROM polarbench_sweep('select-only', clients => '{1,NULL}');
SELECT * FROM polarbench_sweep('select-only', clients => '{1,0}');
SELECT * FROM polarbench_sweep('select-only', clients => '{{1},{2}}');
SELECT * FROM polarbench_sweep('select-only', settings => '{}');
SELECT * FROM polarbench_sweep('select-only', repeat => 0);
SELECT * FROM polarbench_sweep('select-only', settings => ARRAY['{"work_mem": "8MB"}', '{"work_mem": "8MB"}']::jsonb[]);
SELECT * FROM polarbench_sweep('select-only', settings => ARRAY['{"work_mem": "8MB"}', '{"no_such_setting": 1}']::jsonb[]);
SELECT * FROM polarbench_sweep('select-only', settings => ARRAY['{"work_mem": "8MB"}', '{"work_mem": "8XB"}']::jsonb[]);
SELECT * FROM polarbench_sweep('select-only', settings => ARRAY['{"work_mem": "8MB"}', '{"fsync": "off"}']::jsonb[]);
SELECT * FROM polarbench_sweep('select-only', settings => ARRAY['["work_mem"]']::jsonb[]);
-- the same set, its names in another case; a parameter given twice
SELECT * FROM polarbench_sweep('select-only', settings => ARRAY['{"DateStyle": "ISO"}', '{"datestyle": "ISO"}']::jsonb[]);
SELECT * FROM polarbench_sweep('select-only', settings => ARRAY['{"DateStyle": "ISO", "datestyle": "SQL"}']::jsonb[]);
-- a run the limits have no room for, found before the first run starts
SET polarbench.max_clients = 3;
SELECT * FROM polarbench_sweep('select-only', clients => '{1,2,3}', transactions => 1);
RESET polarbench.max_clients;
-- a variable set that breaks the script of its turn, found before the first
SELECT * FROM polarbench_sweep(script => 'SELECT :n::int;', clients => '{1}', transactions => 1,
                               vars => ARRAY['{"n": 1}', '{"n": "x"}']::jsonb[]);
-- bounded: repetitions, runs, and their time together
SELECT * FROM polarbench_sweep('select-only', repeat => 2147483647);
SELECT * FROM polarbench_sweep('select-only', clients => (SELECT array_agg(i) FROM generate_series(1, 101) i),
                               repeat => 100);
SELECT * FROM polarbench_sweep('select-only', clients => '{1,2}', duration => 86400);
SELECT count(*) = :runs_before AS nothing_run FROM polarbench_runs;
\set SHOW_CONTEXT never
SELECT * FROM polarbench_sweep_table(2001, 'bogus');
SELECT * FROM polarbench_sweep_table(-1);
\set SHOW_CONTEXT errors

-- leave the history as it was for the files that follow
DELETE FROM polarbench_run_data WHERE run_id > 2000;
SELECT setval('polarbench_run_data_run_id_seq', :ids_before, :'ids_called') > 0 AS ids_reset;
