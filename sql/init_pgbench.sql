SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
RESET client_min_messages;
-- the data set as polarbench_datasets lists it, with the arguments of
-- polarbench_init() it reads
SELECT name, jsonb_path_query_array(options, '$[*].name') AS arguments
  FROM polarbench_datasets WHERE name = 'pgbench';
-- pgbench -i -s 1: row counts, numbering, fillers, keys
SELECT dataset, tables, rows, bytes > 0 AS has_bytes
  FROM polarbench_init('pgbench');
SELECT count(*), min(bid), max(bid), sum(bbalance), count(filler) FROM pgbench_branches;
SELECT count(*), min(tid), max(tid), sum(tbalance), count(filler),
       count(DISTINCT bid) FROM pgbench_tellers;
SELECT count(*), min(aid), max(aid), sum(abalance), min(bid), max(bid),
       min(octet_length(filler)), max(octet_length(filler)),
       bool_and(filler = '') AS blank
  FROM pgbench_accounts;
SELECT count(*) FROM pgbench_history;
SELECT tablename, indexname, indexdef FROM pg_indexes
 WHERE tablename LIKE 'pgbench%' ORDER BY 1, 2;
SELECT relname, reloptions, relpersistence FROM pg_class
 WHERE relname LIKE 'pgbench%' AND relkind = 'r' ORDER BY 1;
SELECT attname, format_type(atttypid, atttypmod), attnotnull FROM pg_attribute
 WHERE attrelid = 'pgbench_history'::regclass AND attnum > 0 ORDER BY attnum;
-- rows are frozen in all-visible pages: no VACUUM needed
SELECT relpages = relallvisible AS all_visible, relpages > 0 AS has_pages
  FROM pg_class WHERE relname = 'pgbench_accounts';
-- a second load replaces the tables
SELECT rows FROM polarbench_init('pgbench', scale => 2, fillfactor => 90,
                                 unlogged => true);
SELECT count(*), max(aid), max(bid) FROM pgbench_accounts;
SELECT relname, reloptions, relpersistence FROM pg_class
 WHERE relname LIKE 'pgbench%' AND relkind = 'r' ORDER BY 1;
-- range partitions, foreign keys
SELECT rows FROM polarbench_init('pgbench', scale => 2, partitions => 3,
                                 foreign_keys => true);
SELECT partstrat, partnatts FROM pg_partitioned_table
 WHERE partrelid = 'pgbench_accounts'::regclass;
SELECT c.relname, pg_get_expr(c.relpartbound, c.oid), c.reloptions,
       (SELECT count(*) FROM pgbench_accounts a WHERE a.tableoid = c.oid)
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
 WHERE i.inhparent = 'pgbench_accounts'::regclass ORDER BY 1;
SELECT conrelid::regclass, conname, pg_get_constraintdef(oid)
  FROM pg_constraint WHERE contype IN ('f', 'p')
   AND conrelid::regclass::text LIKE 'pgbench%' ORDER BY conrelid::regclass::text, 2;
-- hash partitions: every row is in the partition PostgreSQL routes it to
SELECT rows FROM polarbench_init('pgbench', scale => 1, partitions => 4,
                                 partition_method => 'hash');
SELECT partstrat FROM pg_partitioned_table
 WHERE partrelid = 'pgbench_accounts'::regclass;
SELECT c.relname, pg_get_expr(c.relpartbound, c.oid),
       (SELECT count(*) FROM pgbench_accounts a WHERE a.tableoid = c.oid) > 0 AS filled,
       (SELECT bool_and(satisfies_hash_partition('pgbench_accounts'::regclass,
                                                 4, i::int, aid))
          FROM pgbench_accounts a WHERE a.tableoid = c.oid) AS routed
  FROM (SELECT inhrelid, row_number() OVER (ORDER BY inhrelid::regclass::text) - 1 AS i
          FROM pg_inherits WHERE inhparent = 'pgbench_accounts'::regclass) p(inhrelid, i)
  JOIN pg_class c ON c.oid = p.inhrelid ORDER BY 1;
SELECT count(*), count(DISTINCT aid), min(aid), max(aid) FROM pgbench_accounts;
-- progress notices (their figures depend on timing: only count them)
SET client_min_messages = warning;
SELECT rows FROM polarbench_init('pgbench', progress => true);
RESET client_min_messages;
-- drop => false refuses tables already there, and leaves them alone
SELECT polarbench_init('pgbench', drop => false);
SELECT count(*) FROM pgbench_accounts;
DROP TABLE pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers;
SELECT rows FROM polarbench_init('pgbench', drop => false);
-- inside a transaction: all or nothing
BEGIN;
SELECT rows FROM polarbench_init('pgbench', scale => 2);
ROLLBACK;
SELECT count(*) FROM pgbench_accounts;
DROP TABLE pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers;
-- from scale 20000 on, aid is a bigint in pgbench_accounts and
-- pgbench_history, as pgbench makes them: an event trigger looks when
-- pgbench_accounts is created, then stops the load
CREATE FUNCTION polarbench_test_aid_type() RETURNS event_trigger
LANGUAGE plpgsql AS $$
DECLARE
	cmd record;
BEGIN
	FOR cmd IN SELECT * FROM pg_event_trigger_ddl_commands()
				WHERE object_identity = 'public.pgbench_accounts'
				  AND command_tag = 'CREATE TABLE' LOOP
		RAISE EXCEPTION 'pgbench_accounts.aid is %, pgbench_history.aid is %',
			(SELECT format_type(atttypid, atttypmod) FROM pg_attribute
			  WHERE attrelid = cmd.objid AND attname = 'aid'),
			(SELECT format_type(atttypid, atttypmod) FROM pg_attribute
			  WHERE attrelid = 'public.pgbench_history'::regclass
				AND attname = 'aid');
	END LOOP;
END $$;
CREATE EVENT TRIGGER polarbench_test_aid_type ON ddl_command_end
	EXECUTE FUNCTION polarbench_test_aid_type();
\set VERBOSITY terse
SELECT polarbench_init('pgbench', scale => 19999);
SELECT polarbench_init('pgbench', scale => 20000);
SELECT polarbench_init('pgbench', scale => 20000, partitions => 4,
                       partition_method => 'hash');
\set VERBOSITY default
DROP EVENT TRIGGER polarbench_test_aid_type;
DROP FUNCTION polarbench_test_aid_type();
SELECT count(*) FROM pg_class WHERE relname LIKE 'pgbench%';
