SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
RESET client_min_messages;
-- pgbench in parallel: partitions loaded as tables of their own, attached
SELECT dataset, tables, rows FROM polarbench_init('pgbench', scale => 2,
       partitions => 3, foreign_keys => true, parallel => 2);
SELECT c.relname, pg_get_expr(c.relpartbound, c.oid), c.reloptions,
       (SELECT count(*) FROM pgbench_accounts a WHERE a.tableoid = c.oid)
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
 WHERE i.inhparent = 'pgbench_accounts'::regclass ORDER BY 1;
SELECT count(*), count(DISTINCT aid), min(aid), max(aid), sum(abalance),
       max(bid) FROM pgbench_accounts;
SELECT count(*), count(filler) FROM pgbench_tellers;
SELECT conrelid::regclass, conname, pg_get_constraintdef(oid)
  FROM pg_constraint WHERE contype IN ('f', 'p', 'c')
   AND conrelid::regclass::text LIKE 'pgbench%'
 ORDER BY conrelid::regclass::text, 2;
-- hash partitions
SELECT rows FROM polarbench_init('pgbench', scale => 1, partitions => 2,
                                 partition_method => 'hash', parallel => 3);
SELECT c.relname, pg_get_expr(c.relpartbound, c.oid),
       (SELECT count(*) FROM pgbench_accounts a WHERE a.tableoid = c.oid) > 0
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
 WHERE i.inhparent = 'pgbench_accounts'::regclass ORDER BY 1;
SELECT count(*), count(DISTINCT aid) FROM pgbench_accounts;
-- no partitions: accounts and the small tables in two workers
SELECT rows FROM polarbench_init('pgbench', scale => 1, parallel => 4);
SELECT count(*) FROM pgbench_accounts;
SELECT tablename, indexname FROM pg_indexes
 WHERE tablename LIKE 'pgbench%' ORDER BY 1, 2;
SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'polarbench loader';
DROP TABLE pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers;
