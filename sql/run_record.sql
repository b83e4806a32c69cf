-- polarbench_record() stores a run's document only if every field is one a
-- run would have recorded: its error (only when it did not finish, and an
-- SQLSTATE of an error), its limits, its workload's options as the
-- workload reads them, its counts, times and the rows of its parts.
-- Whatever it refuses leaves nothing stored.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT dataset FROM polarbench_init('sysbench', tables => 1, table_size => 100);
RESET client_min_messages;
SELECT run_id AS sb_run FROM polarbench_run('oltp_point_select', transactions => 5,
                                            options => '{"tables": 1}') \gset
SELECT run_id AS script_run FROM polarbench_run(script => 'SELECT 1;', transactions => 5) \gset
CREATE TEMP TABLE doc AS
SELECT polarbench_run_document(:sb_run) AS sb,
       polarbench_run_document(:script_run) AS script;
SELECT count(*) AS runs_before FROM polarbench_runs \gset

-- the documents as they are: stored, and reported on
SELECT polarbench_record(sb, 'other:5432') AS sb_stored,
       polarbench_record(script, 'other:5432') AS script_stored FROM doc \gset
SELECT polarbench_report(:sb_stored) LIKE '%queries performed%' AS sysbench_report,
       polarbench_report(:script_stored) LIKE '%tps = %' AS pgbench_report;

-- errors that no run has
SELECT polarbench_record(jsonb_set(jsonb_set(jsonb_set(sb, '{run,status}', '"failed"'),
                                   '{run,error_sqlstate}', '"00000"'),
                                   '{run,error_message}', '"boom"'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(jsonb_set(jsonb_set(sb, '{run,status}', '"failed"'),
                                   '{run,error_sqlstate}', '"4000"'),
                                   '{run,error_message}', '"boom"'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(jsonb_set(jsonb_set(sb, '{run,status}', '"failed"'),
                                   '{run,error_sqlstate}', '"01000"'),
                                   '{run,error_message}', '"boom"'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(sb, '{run,status}', '"failed"'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(sb, '{run,error_sqlstate}', '"40001"'), 'x') FROM doc;
-- a failed run with a real error is stored, and polarbench_wait raises it
SELECT polarbench_record(jsonb_set(jsonb_set(jsonb_set(sb, '{run,status}', '"failed"'),
                                   '{run,error_sqlstate}', '"40001"'),
                                   '{run,error_message}', '"could not serialize"'), 'x') AS failed_run
  FROM doc \gset
\set VERBOSITY terse
SELECT * FROM polarbench_wait(:failed_run);
\set VERBOSITY default

-- options: out of the workload's range, unknown, or for a run of scripts
SELECT polarbench_record(jsonb_set(sb, '{run,options,percentile}', '500'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(sb, '{run,options,no_such_option}', '1'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(sb, '{run,options}', 'null'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(script, '{run,options}', '{"percentile": 95}'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(script, '{run,options}', '{"exit_on_abort": "maybe"}'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(sb, '{run,settings}', '[1, 2]'), 'x') FROM doc;

-- a field every run records, missing or null (the table's NOT NULL
-- columns, which jsonb_populate_record() does not enforce)
SELECT polarbench_record(sb #- '{run,scripts}', 'x') FROM doc;
SELECT polarbench_record(jsonb_set(sb, '{run,scripts}', 'null'), 'x') FROM doc;
SELECT polarbench_record(script #- '{run,weights}', 'x') FROM doc;
SELECT polarbench_record(jsonb_set(script, '{run,weights}', 'null'), 'x') FROM doc;
SELECT polarbench_record(sb #- '{run,started_at}', 'x') FROM doc;
SELECT polarbench_record(jsonb_set(sb, '{run,started_at}', 'null'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(sb, '{run,clients}', 'null'), 'x') FROM doc;
SELECT polarbench_record(sb #- '{run,random_seed}', 'x') FROM doc;
SELECT polarbench_record(jsonb_set(script, '{run,progress_interval}', 'null'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(script, '{run,scripts}', '[null]'), 'x') FROM doc;

-- limits, counts and times
SELECT polarbench_record(jsonb_set(sb, '{run,clients}', '0'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(sb, '{run,clients}', '262143'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(sb, '{run,duration}', '1e10'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(sb, '{run,rate}', '0'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(sb, '{run,rate}', '1e12'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(sb, '{run,latency_limit}', '0.0001'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(script, '{run,weights}', '[0]'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(sb, '{run,clients}', '"many"'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(sb, '{run,transactions}', '-5'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(sb, '{run,tps}', '-1.5'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(jsonb_set(sb, '{run,duration}', '2'), '{run,warmup}', '3'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(sb, '{run,ended_at}', '"2000-01-01 00:00:00+00"'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(script, '{run,weights}', '[1, 2]'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(script, '{run,workload}', '""'), 'x') FROM doc;

-- the rows of its parts
SELECT polarbench_record(jsonb_set(sb, '{histogram}', '[{"latency_from": 2, "latency_to": 1, "transactions": 3}]'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(sb, '{clients}', '[{"client": 0, "transactions": 1, "failed": 0, "errors": 0, "latency_sum": 1}]'), 'x') FROM doc;
SELECT polarbench_record(jsonb_set(sb, '{progress}', '{"elapsed": 1}'), 'x') FROM doc;

-- nothing of the refused ones was stored
SELECT count(*) - :runs_before AS stored FROM polarbench_runs;
SELECT status, error_sqlstate FROM polarbench_runs WHERE run_id > :script_run ORDER BY run_id;
