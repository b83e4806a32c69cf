SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
RESET client_min_messages;
-- the data set as polarbench_datasets lists it, with the arguments of
-- polarbench_init() it reads
SELECT name, jsonb_path_query_array(options, '$[*].name') AS arguments
  FROM polarbench_datasets WHERE name = 'ycsb';
-- YCSB usertable, as the JDBC binding expects it
SELECT dataset, tables, rows, bytes > 0 AS has_bytes
  FROM polarbench_init('ycsb', records => 1000, fields => 3,
                       field_length => 20);
SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute
 WHERE attrelid = 'usertable'::regclass AND attnum > 0 ORDER BY attnum;
SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'usertable';
SELECT count(*), count(DISTINCT ycsb_key),
       bool_and(ycsb_key ~ '^user[0-9]+$') AS key_shape,
       bool_and(length(field0) = 20 AND length(field1) = 20
                AND length(field2) = 20) AS lengths,
       bool_and(field0 ~ '^[ -~]+$') AS printable
  FROM usertable;
-- keys are "user" || YCSB's FNV-1a 64 hash of the record number 0..n-1:
-- Utils.fnvhash64(0) and (1), known values
SELECT count(*) FROM usertable
 WHERE ycsb_key IN ('user6284781860667377211', 'user8517097267634966620');
SELECT rows FROM polarbench_init('ycsb', records => 5, fields => 1,
                                 field_length => 1000, fillfactor => 50);
SELECT count(*), min(length(field0)), max(length(field0)) FROM usertable;
SELECT reloptions FROM pg_class WHERE relname = 'usertable';
-- parallel: one table is one job, loaded serially
SELECT rows FROM polarbench_init('ycsb', records => 100, parallel => 4);
SELECT count(*) FROM usertable;
DROP TABLE usertable;
