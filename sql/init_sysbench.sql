SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
RESET client_min_messages;
-- the data set as polarbench_datasets lists it, with the arguments of
-- polarbench_init() it reads
SELECT name, jsonb_path_query_array(options, '$[*].name') AS arguments
  FROM polarbench_datasets WHERE name = 'sysbench';
-- sysbench prepare: sbtest1..sbtestN
SELECT dataset, tables, rows, bytes > 0 AS has_bytes
  FROM polarbench_init('sysbench', tables => 2, table_size => 1000);
SELECT count(*), min(id), max(id), count(DISTINCT id),
       min(k) >= 1 AS k_min, max(k) <= 1000 AS k_max,
       bool_and(c ~ '^([0-9]{11}-){9}[0-9]{11} $') AS c_shape,
       bool_and(pad ~ '^([0-9]{11}-){4}[0-9]{11} $') AS pad_shape,
       min(octet_length(c)), min(octet_length(pad))
  FROM sbtest1;
SELECT count(*) FROM sbtest2;
SELECT count(DISTINCT c) > 990 AS c_random FROM sbtest1;
SELECT attname, format_type(atttypid, atttypmod), attnotnull,
       pg_get_expr(adbin, adrelid)
  FROM pg_attribute LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum
 WHERE attrelid = 'sbtest1'::regclass AND attnum > 0 ORDER BY attnum;
SELECT tablename, indexname, indexdef FROM pg_indexes
 WHERE tablename LIKE 'sbtest%' ORDER BY 1, 2;
-- the sequence is where sysbench's inserts leave it
INSERT INTO sbtest1 (k, c, pad) VALUES (1, 'x', 'y') RETURNING id;
SELECT last_value, is_called FROM sbtest2_id_seq;
-- options
SELECT rows FROM polarbench_init('sysbench', tables => 1, table_size => 10,
                                 fillfactor => 80, unlogged => true);
SELECT relname, reloptions, relpersistence FROM pg_class
 WHERE relname LIKE 'sbtest%' AND relkind = 'r' ORDER BY 1;
SELECT rows FROM polarbench_init('sysbench', tables => 1, table_size => 0);
SELECT count(*) FROM sbtest1;
SELECT polarbench_init('sysbench', drop => false);
DROP TABLE sbtest1, sbtest2;
-- parallel: each worker loads whole tables in a transaction of its own
SELECT dataset, tables, rows FROM polarbench_init('sysbench', tables => 3,
                                 table_size => 500, parallel => 2);
SELECT 'sbtest1' AS t, count(*), max(id) FROM sbtest1
UNION ALL SELECT 'sbtest2', count(*), max(id) FROM sbtest2
UNION ALL SELECT 'sbtest3', count(*), max(id) FROM sbtest3;
SELECT count(*) FROM pg_indexes WHERE tablename LIKE 'sbtest%';
SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'polarbench loader';
DROP TABLE sbtest1, sbtest2, sbtest3;
