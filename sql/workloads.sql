-- What polarbench runs and loads, as the polarbench_workloads and
-- polarbench_datasets views list it, and the names and options a run and
-- its report take from there: script_names, report options.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
RESET client_min_messages;

-- every workload by a name of its own, of a kind, with a description and
-- its report's style (each kind's tests show its workloads, so that a kind
-- added changes nothing here)
SELECT count(*) > 1 AS listed, count(DISTINCT name) = count(*) AS names_unique,
       bool_and(length(kind) > 0 AND length(description) > 0 AND length(report_style) > 0) AS described
  FROM polarbench_workloads;
-- every option has a type, a default and a description; numbers a range,
-- enums their values
SELECT bool_and(o ? 'type' AND o ? 'default' AND length(o->>'description') > 0) AS described,
       bool_and(o->>'type' NOT IN ('integer', 'number') OR (o ? 'min' AND o ? 'max')) AS ranged,
       bool_and(o->>'type' <> 'enum' OR jsonb_array_length(o->'values') > 1) AS enumerated
  FROM polarbench_workloads w, jsonb_array_elements(w.options) o;
SELECT o->>'name' AS name, o->>'type' AS type, o->>'default' AS default, o->'values' AS values
  FROM polarbench_workloads w, jsonb_array_elements(w.options) o
 WHERE w.name = 'oltp_read_only' AND o->>'name' IN ('range_size', 'rand_type', 'skip_trx');

-- the defaults the view shows are what a run takes: each workload run with
-- every option given at the default the view lists
SET client_min_messages = warning;
SELECT rows FROM polarbench_init('sysbench', tables => 1, table_size => 200);
SELECT rows FROM polarbench_init('ycsb', records => 200);
RESET client_min_messages;
SELECT jsonb_object_agg(o->>'name', o->'default') ||
       '{"tables": 1, "table_size": 200}' AS sb_given,
       jsonb_object_agg(o->>'name', o->'default') AS sb_listed
  FROM polarbench_workloads w, jsonb_array_elements(w.options) o
 WHERE w.name = 'oltp_point_select' AND o->>'name' NOT IN ('tables', 'table_size') \gset
SELECT jsonb_object_agg(o->>'name', o->'default') AS ycsb_given,
       jsonb_object_agg(o->>'name', o->'default') AS ycsb_listed
  FROM polarbench_workloads w, jsonb_array_elements(w.options) o
 WHERE w.name = 'ycsb-c' AND o->'default' <> 'null' \gset
-- those the run computes: the rows of the table, the records past insertstart
SELECT o->>'name' AS computed_at_the_run
  FROM polarbench_workloads w, jsonb_array_elements(w.options) o
 WHERE w.name = 'ycsb-c' AND o->'default' = 'null';
SELECT run_id AS sb_run, transactions FROM polarbench_run('oltp_point_select', transactions => 5,
                                                          options => :'sb_given') \gset
SELECT run_id AS ycsb_run, transactions FROM polarbench_run('ycsb-c', transactions => 5,
                                                            options => :'ycsb_given') \gset
-- the run records its options as the view lists their defaults
SELECT (options - 'tables' - 'table_size') = (:'sb_listed'::jsonb - 'tables' - 'table_size') AS sb_options_as_listed
  FROM polarbench_runs WHERE run_id = :sb_run;
SELECT (options - 'recordcount' - 'insertcount') = :'ycsb_listed'::jsonb AS ycsb_options_as_listed
  FROM polarbench_runs WHERE run_id = :ycsb_run;

-- the data sets, each by a name of its own, with a description and the
-- arguments of polarbench_init() it reads, each of a type (each data set's
-- tests show its own)
SELECT count(*) > 1 AS listed, count(DISTINCT name) = count(*) AS names_unique,
       bool_and(length(description) > 0) AS described
  FROM polarbench_datasets;
SELECT bool_and(o ? 'type' AND length(o->>'description') > 0) AS arguments_described
  FROM polarbench_datasets d, jsonb_array_elements(d.options) o;
SELECT o->>'name' AS name, o->>'type' AS type, o->>'default' AS default
  FROM polarbench_datasets d, jsonb_array_elements(d.options) o
 WHERE d.name = 'ycsb';
-- an argument of another data set is refused, with those the data set reads
SELECT * FROM polarbench_init('ycsb', partitions => 2);
SELECT * FROM polarbench_init('sysbench', foreign_keys => true);
SELECT * FROM polarbench_init('nosuch');

-- scripts named as pgbench names them by their files: in the run's row
-- and in its report
SELECT transactions FROM polarbench_run(scripts => ARRAY['SELECT 1', 'SELECT 2 AS two'],
                                        weights => ARRAY[1, 3],
                                        script_names => ARRAY['one.sql', 'two.sql'],
                                        transactions => 8, random_seed => 1);
SELECT script_names FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;
SELECT max(run_id) AS named_run FROM polarbench_runs \gset
SELECT regexp_replace(line, '^ +[0-9.]+ +[0-9]+ +', '(latency, failures) ') AS line
  FROM regexp_split_to_table(polarbench_report(:named_run), E'\n') line
 WHERE line ~ '^(transaction type|SQL script| - weight)' OR line ~ 'SELECT';
-- the report's options: no statements (pgbench without -r), failures by kind
SELECT polarbench_report(:named_run, options => '{"statements": false}') ~ 'SELECT' AS statements_shown;
SELECT polarbench_report(:named_run, options => '{"failures_detailed": true}') ~ 'serialization failures: 0' AS failures_by_kind;
SELECT polarbench_report(:named_run, options => '{"failures_detailed": false}') ~ 'serialization failures' AS no_failures_by_kind;
SELECT polarbench_report(:named_run, 'pgbench', NULL) = polarbench_report(:named_run) AS null_options_are_defaults;
-- a run of built-in scripts names them as pgbench does
SET client_min_messages = warning;
SELECT rows FROM polarbench_init('pgbench', scale => 1);
RESET client_min_messages;
SELECT run_id AS builtin_run FROM polarbench_run('select-only@1, simple@1', transactions => 2) \gset
SELECT script_names, workload FROM polarbench_runs WHERE run_id = :builtin_run;

-- bad names and options, refused before anything starts
SELECT count(*) AS runs_before FROM polarbench_runs \gset
SELECT * FROM polarbench_run(scripts => ARRAY['SELECT 1'], script_names => ARRAY['a.sql', 'b.sql']);
SELECT * FROM polarbench_run(scripts => ARRAY['SELECT 1', 'SELECT 2'], script_names => ARRAY['a.sql', NULL]);
SELECT * FROM polarbench_run(scripts => ARRAY['SELECT 1'], script_names => ARRAY[['a.sql']]);
SELECT * FROM polarbench_run('select-only', script_names => ARRAY['a.sql']);
SELECT * FROM polarbench_run('oltp_point_select', script_names => ARRAY['a.sql'],
                             options => '{"tables": 1, "table_size": 200}');
SELECT count(*) = :runs_before AS nothing_recorded FROM polarbench_runs;
SELECT polarbench_report(:named_run, options => '{"statement": false}');
SELECT polarbench_report(:named_run, options => '{"statements": "no"}');
SELECT polarbench_report(:named_run, options => '[true]');
