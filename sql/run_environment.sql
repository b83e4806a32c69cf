-- Every run records where it ran (polarbench_environments): the server's
-- version and build, polarbench's version, the settings whose source is
-- not the default (the server's, the database's, the role's; not the
-- caller's SETs, nor the run's own settings), the extensions, the machine,
-- the data set, the database, who and when.  Roles see it as they see the
-- run's texts, its settings' values as pg_settings shows them.  Reports
-- print it on request, documents carry it, and polarbench_compare and the
-- sweep tables say where two runs' environments differ.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT rows FROM polarbench_init('pgbench', scale => 1);
RESET client_min_messages;
SELECT current_database() AS db \gset

-- the database's setting is recorded, not the caller's SET nor the run's own
ALTER DATABASE :"db" SET work_mem = '3MB';
\c
SET work_mem = '5MB';
SELECT run_id AS r1 FROM polarbench_run('select-only', transactions => 2,
                                        settings => '{"temp_buffers": "2MB"}') \gset
SHOW work_mem;
SELECT recorded, note,
       server_version = current_setting('server_version') AS server_version,
       polarbench_version = (SELECT extversion FROM pg_extension
                              WHERE extname = 'polarbench') AS polarbench_version,
       block_size = current_setting('block_size')::int AS block_size,
       wal_block_size = current_setting('wal_block_size')::int AS wal_block_size,
       segment_size = current_setting('segment_size') AS segment_size,
       wal_segment_size = current_setting('wal_segment_size') AS wal_segment_size,
       assertions = current_setting('debug_assertions')::boolean AS assertions,
       data_checksums = current_setting('data_checksums')::boolean AS data_checksums,
       jit = current_setting('jit')::boolean AS jit, llvm IS NOT NULL AS llvm,
       settings->>'work_mem' AS work_mem, settings ? 'temp_buffers' AS run_setting,
       extensions->>'polarbench' = polarbench_version AS extensions,
       extensions ? 'plpgsql' AS plpgsql,
       cpus >= 1 AS cpus, memory > 0 AS memory,
       machine_source LIKE '%sysconf%' AS machine_source,
       machine_unseen LIKE '%not seen%' AS machine_unseen,
       database = current_database() AS database,
       recorded_by = current_user AS recorded_by,
       recorded_at BETWEEN now() - interval '1 hour' AND clock_timestamp() AS recorded_at
  FROM polarbench_environments WHERE run_id = :r1;
-- its data set: what the run read, its tables, their size on disk
SELECT dataset, dataset_detail->'scale' AS scale, dataset_detail->'table_names' AS tables,
       dataset_detail->'partitions' AS partitions, dataset_detail->'partitioned' AS partitioned,
       dataset_bytes >= pg_total_relation_size('pgbench_accounts') AS bytes
  FROM polarbench_environments WHERE run_id = :r1;
-- polarbench_runs shows the same
SELECT r.environment = e.environment AS same
  FROM polarbench_runs r JOIN polarbench_environments e USING (run_id)
 WHERE run_id = :r1;

-- a partitioned data set: its partitions, and their size with it
SET client_min_messages = warning;
SELECT rows FROM polarbench_init('pgbench', scale => 1, partitions => 3,
                                 partition_method => 'hash');
RESET client_min_messages;
SELECT run_id AS r2 FROM polarbench_run('select-only', transactions => 2) \gset
SELECT dataset_detail->'partitions' AS partitions, dataset_detail->'partitioned' AS partitioned,
       dataset_bytes >= (SELECT sum(pg_total_relation_size(relid))
                           FROM pg_partition_tree('pgbench_accounts')) AS bytes
  FROM polarbench_environments WHERE run_id = :r2;

-- what differs: the database's setting and the partitions; the run
-- against one alike shows no row
ALTER DATABASE :"db" SET work_mem = '6MB';
\c
SELECT run_id AS r3 FROM polarbench_run('select-only', transactions => 2) \gset
SELECT run_id AS r4 FROM polarbench_run('select-only', transactions => 2) \gset
SELECT * FROM polarbench_environment_diff(ARRAY[:r1], ARRAY[:r3]);
SELECT * FROM polarbench_environment_diff(ARRAY[:r3], ARRAY[:r4]);
SELECT metric, part, value_a, value_b, ratio, verdict, note
  FROM polarbench_compare(:r1, :r3) WHERE metric = 'environment';
SELECT count(*) AS environment_rows
  FROM polarbench_compare(:r3, :r4) WHERE metric = 'environment';

-- reports print it on request, an item a line
SELECT polarbench_report(:r1, NULL, '{"environment": true}') ~ E'\nenvironment:\n  server: PostgreSQL '
       AS printed,
       polarbench_report(:r1) !~ 'environment:' AS not_by_default,
       (SELECT string_agg(label, ', ') FROM polarbench_environment_items(:r1)) AS items,
       (SELECT value FROM polarbench_environment_items(:r1) WHERE label = 'data set')
         ~ '^pgbench scale 1; tables pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers; [0-9]+ .*on disk; not partitioned$'
       AS data_set;
SELECT polarbench_report(:r1, NULL, '{"environment": 1}');

-- documents carry it; one without it is stored without, and says so;
-- one whose environment is not an object is refused
SELECT polarbench_record(polarbench_run_document(:r1), 'other:5432') AS stored \gset
SELECT s.environment = r.environment AS carried
  FROM polarbench_runs s, polarbench_runs r WHERE s.run_id = :stored AND r.run_id = :r1;
SELECT polarbench_record(polarbench_run_document(:r1) #- '{run,environment}', 'other:5432') AS bare \gset
SELECT recorded, note FROM polarbench_environments WHERE run_id = :bare;
SELECT * FROM polarbench_environment_items(:bare);
SELECT * FROM polarbench_environment_diff(ARRAY[:bare], ARRAY[:r1]);
SELECT polarbench_record(jsonb_set(polarbench_run_document(:r1), '{run,environment}', '[1, 2]'),
                         'other:5432');

-- privacy: a role sees the environment of its own runs only, and the
-- value of a superuser-only setting not at all, as pg_settings shows it
ALTER DATABASE :"db" SET dynamic_library_path = '$libdir';
\c
CREATE ROLE regress_pb_env LOGIN;
GRANT EXECUTE ON FUNCTION polarbench_run TO regress_pb_env;
SET ROLE regress_pb_env;
SELECT run_id AS own FROM polarbench_run(script => 'SELECT 1;', transactions => 1) \gset
SELECT recorded, settings->>'dynamic_library_path' AS hidden, settings->>'work_mem' AS work_mem
  FROM polarbench_environments WHERE run_id = :own;
SELECT recorded, environment IS NULL AS hidden, note
  FROM polarbench_environments WHERE run_id = :r1;
SELECT environment IS NULL AS hidden FROM polarbench_runs WHERE run_id = :r1;
SELECT count(*) AS items FROM polarbench_environment_items(:r1) WHERE label <> 'environment';
RESET ROLE;
SELECT settings->>'dynamic_library_path' AS shown FROM polarbench_environments WHERE run_id = :own;
GRANT pg_read_all_settings TO regress_pb_env;
SET ROLE regress_pb_env;
SELECT settings->>'dynamic_library_path' AS shown FROM polarbench_environments WHERE run_id = :own;
RESET ROLE;

-- a sweep's table says where a column's runs ran otherwise than column 1's,
-- but not the server settings the sweep sets itself
SET client_min_messages = warning;
SELECT count(*) AS runs FROM polarbench_sweep('select-only', clients => '{1}', transactions => 2,
       server_settings => ARRAY['{"checkpoint_completion_target": "0.8"}',
                                '{"checkpoint_completion_target": "0.7"}']::jsonb[]);
RESET client_min_messages;
SELECT max(sweep_id) AS sweep FROM polarbench_runs \gset
SELECT line FROM polarbench_sweep_table(:sweep, 'tps') line WHERE line LIKE 'column%';
UPDATE polarbench_run_data
   SET environment = jsonb_set(environment, '{machine,cpus}',
                               CASE sweep_set WHEN 1 THEN '1024' ELSE '4096' END::jsonb)
 WHERE sweep_id = :sweep;
SELECT line FROM polarbench_sweep_table(:sweep, 'tps') line WHERE line LIKE 'column%';

ALTER DATABASE :"db" RESET ALL;
REVOKE pg_read_all_settings FROM regress_pb_env;
DROP OWNED BY regress_pb_env;
DROP ROLE regress_pb_env;
