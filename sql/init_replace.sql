SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
RESET client_min_messages;
-- A load either completes or leaves the tables it would replace as they
-- were; nothing is dropped before the load knows it can create; what an
-- interrupted parallel load left, the next load drops.
SELECT rows FROM polarbench_init('pgbench', scale => 1, partitions => 2);
-- (a function, not a view: a view would keep the tables from being dropped)
CREATE FUNCTION accounts_state(OUT accounts bigint, OUT branches bigint,
							   OUT tellers bigint, OUT partitions bigint)
LANGUAGE sql AS $$
	SELECT (SELECT count(*) FROM pgbench_accounts),
		   (SELECT count(*) FROM pgbench_branches),
		   (SELECT count(*) FROM pgbench_tellers),
		   (SELECT count(*) FROM pg_inherits
			 WHERE inhparent = 'pgbench_accounts'::regclass)
$$;
CREATE TEMP VIEW staging AS
	SELECT count(*) AS staging_tables FROM pg_class
	 WHERE relname LIKE 'pbload\_%' AND relkind IN ('r', 'p');
SELECT * FROM accounts_state();

-- the statement fails after a parallel load returned: its tables are not
-- kept, the old ones are there as they were, and the workers' committed
-- staging tables wait for the next load
SELECT polarbench_init('pgbench', scale => 2, partitions => 3, parallel => 2) IS NULL,
	   1 / (random() * 0)::int;
SELECT * FROM accounts_state();
SELECT staging_tables > 0 AS staging_left FROM staging;

-- the same in a serial load: nothing is left at all
SELECT polarbench_init('pgbench', scale => 2, partitions => 3) IS NULL,
	   1 / (random() * 0)::int;
SELECT * FROM accounts_state();

-- the next load drops what the interrupted one left, and completes
SELECT rows FROM polarbench_init('pgbench', scale => 2, partitions => 3, parallel => 2);
SELECT * FROM accounts_state();
SELECT * FROM staging;

-- a relation in the way of a name the load creates, that the load does not
-- replace, is an error before anything is dropped
CREATE TABLE pgbench_accounts_4 (aid int);
SELECT rows FROM polarbench_init('pgbench', scale => 1, partitions => 4);
SELECT rows FROM polarbench_init('pgbench', scale => 1, partitions => 4, parallel => 2);
SELECT * FROM accounts_state();
DROP TABLE pgbench_accounts_4;
CREATE SEQUENCE sbtest1_id_seq;
SELECT rows FROM polarbench_init('sysbench', tables => 2, table_size => 10, parallel => 2);
SELECT count(*) FROM pg_class WHERE relname LIKE 'sbtest%' AND relkind = 'r';
DROP SEQUENCE sbtest1_id_seq;
-- what the replaced tables own goes with them: indexes, sequences
SELECT rows FROM polarbench_init('sysbench', tables => 2, table_size => 10, parallel => 2);
SELECT rows FROM polarbench_init('sysbench', tables => 2, table_size => 10);
SELECT relname FROM pg_class WHERE relname LIKE 'sbtest%' OR relname LIKE 'k\_%'
 ORDER BY 1;

-- staging tables of other roles, or of loads still running, are not
-- touched; those of loads that are over and that the role owns are dropped
-- (transaction 3 is long over; a transaction id not given yet is no load)
CREATE ROLE regress_pb_loader;
CREATE ROLE regress_pb_other;
GRANT EXECUTE ON FUNCTION polarbench_init TO regress_pb_loader;
CREATE SCHEMA regress_pb_staging AUTHORIZATION regress_pb_loader;
CREATE TABLE regress_pb_staging.pbload_4_usertable (a int);
ALTER TABLE regress_pb_staging.pbload_4_usertable OWNER TO regress_pb_other;
SET ROLE regress_pb_loader;
SET search_path = regress_pb_staging, public;
CREATE TABLE pbload_3_usertable (a int);
CREATE TABLE pbload_99999999999_usertable (a int);
CREATE TABLE pbload_x_usertable (a int);
SELECT rows FROM polarbench_init('ycsb', records => 10);
SELECT relname FROM pg_class
 WHERE relnamespace = 'regress_pb_staging'::regnamespace AND relkind = 'r'
 ORDER BY 1;
RESET search_path;
RESET ROLE;
SET client_min_messages = warning;
DROP SCHEMA regress_pb_staging CASCADE;
RESET client_min_messages;
REVOKE ALL ON FUNCTION polarbench_init FROM regress_pb_loader;
DROP ROLE regress_pb_loader, regress_pb_other;

DROP TABLE pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers,
	sbtest1, sbtest2;
DROP FUNCTION accounts_state();
SELECT count(*) AS workers_left FROM pg_stat_activity
 WHERE backend_type = 'polarbench loader';
