-- polarbench_run with pgbench's built-in workloads: counts that follow from
-- the limits, the TPC-B consistency invariant, and the run history.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT dataset, tables, rows FROM polarbench_init('pgbench', scale => 1);
RESET client_min_messages;

-- the kind's workloads as polarbench_workloads lists them: whether each
-- writes, its report's style, how many options it takes
SELECT name, writes, report_style, jsonb_array_length(options) AS options
  FROM polarbench_workloads WHERE kind = 'pgbench';

-- select-only: one SELECT per transaction
SELECT workload, clients, transactions, statements, failed,
       tps > 0 AS tps_positive, qps > 0 AS qps_positive,
       latency_avg > 0 AS latency_positive,
       latency_p50 <= latency_p95 AND latency_p95 <= latency_p99
         AND latency_p99 <= latency_max AS percentiles_ordered
  FROM polarbench_run('select-only', clients => 2, transactions => 50);

-- simple-update: UPDATE, SELECT, INSERT between BEGIN and END
SELECT workload, clients, transactions, statements, failed
  FROM polarbench_run('simple-update', clients => 2, transactions => 40);
SELECT count(*) AS history_rows FROM pgbench_history;

-- tpcb-like from zero balances keeps the TPC-B invariant
SET client_min_messages = warning;
SELECT rows FROM polarbench_init('pgbench', scale => 1);
RESET client_min_messages;
SELECT workload, clients, transactions, statements, failed
  FROM polarbench_run('tpcb-like', clients => 2, transactions => 100);
SELECT (SELECT sum(abalance) FROM pgbench_accounts) =
       (SELECT sum(tbalance) FROM pgbench_tellers) AS accounts_eq_tellers,
       (SELECT sum(tbalance) FROM pgbench_tellers) =
       (SELECT sum(bbalance) FROM pgbench_branches) AS tellers_eq_branches,
       (SELECT sum(bbalance) FROM pgbench_branches) =
       (SELECT sum(delta) FROM pgbench_history) AS branches_eq_history,
       (SELECT count(*) FROM pgbench_history) AS history_rows,
       (SELECT count(DISTINCT mtime) > 1 FROM pgbench_history) AS mtime_per_transaction;

-- the default workload is tpcb-like, 10 transactions per client
SELECT workload, clients, transactions FROM polarbench_run(clients => 1);

-- weights mix built-in workloads in proportion (all weight on one here)
SELECT workload, transactions, statements
  FROM polarbench_run('select-only@1, simple-update@0', clients => 1,
                      transactions => 20);

-- the history: one row per run, finished, with its figures
SELECT workload, clients, transactions_limit, status, transactions,
       statements, failed, error_sqlstate, ended_at >= started_at AS ended,
       run_by = current_user AS run_by_me
  FROM polarbench_runs ORDER BY run_id;

-- per-command figures of the last tpcb-like run, as pgbench -r reports
SELECT script_no, command_no, line, command, executions, failures,
       latency_avg IS NOT NULL AS timed
  FROM polarbench_statements
 WHERE run_id = (SELECT max(run_id) FROM polarbench_runs
                  WHERE workload = 'tpcb-like' AND clients = 2)
 ORDER BY script_no, command_no;

-- progress rows only with progress => N (none for runs shorter than N)
SELECT count(*) AS progress_rows FROM polarbench_progress;

-- reproducible: the same seed draws the same accounts
SET client_min_messages = warning;
SELECT rows FROM polarbench_init('pgbench', scale => 1);
RESET client_min_messages;
SELECT transactions FROM polarbench_run('simple-update', clients => 1,
                                        transactions => 30, random_seed => 42);
CREATE TEMP TABLE first_draw AS SELECT aid, delta FROM pgbench_history;
TRUNCATE pgbench_history;
SELECT transactions FROM polarbench_run('simple-update', clients => 1,
                                        transactions => 30, random_seed => 42);
SELECT count(*) AS same_draws
  FROM (SELECT aid, delta FROM first_draw
        INTERSECT ALL SELECT aid, delta FROM pgbench_history) s;

-- the PolarDB white paper's ro.sql and rw.sql, verbatim: range, unless
-- given, is every account; given, the accounts drawn stay below it
SELECT workload, transactions, statements
  FROM polarbench_run('polardb-ro', clients => 2, transactions => 20);
TRUNCATE pgbench_history;
SELECT workload, transactions, statements, failed
  FROM polarbench_run('polardb-rw', transactions => 20, vars => '{"range": 10}');
SELECT count(*) AS history_rows, max(aid) <= 10 AS aids_within_range FROM pgbench_history;
SELECT command FROM polarbench_statements
 WHERE run_id = (SELECT max(run_id) FROM polarbench_runs) ORDER BY command_no;
