SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
RESET client_min_messages;
-- every bad argument is refused before anything is written
SELECT polarbench_init('nosuch');
SELECT polarbench_init(NULL);
SELECT polarbench_init('pgbench', scale => 0);
SELECT polarbench_init('pgbench', scale => 1000001);
SELECT polarbench_init('pgbench', fillfactor => 9);
SELECT polarbench_init('pgbench', fillfactor => 101);
SELECT polarbench_init('pgbench', partitions => -1);
SELECT polarbench_init('pgbench', partitions => 10001);
SELECT polarbench_init('pgbench', partitions => 2, partition_method => 'list');
SELECT polarbench_init('pgbench', parallel => 0);
SELECT polarbench_init('pgbench', parallel => 65);
SELECT polarbench_init('sysbench', tables => 0);
SELECT polarbench_init('sysbench', tables => 10001);
SELECT polarbench_init('sysbench', table_size => -1);
SELECT polarbench_init('sysbench', partitions => 2);
SELECT polarbench_init('sysbench', foreign_keys => true);
SELECT polarbench_init('ycsb', records => -1);
SELECT polarbench_init('ycsb', fields => 0);
SELECT polarbench_init('ycsb', fields => 1001);
SELECT polarbench_init('ycsb', field_length => 0);
SELECT polarbench_init('ycsb', field_length => 1000001);
SELECT polarbench_init('ycsb', fields => 100, field_length => 1000000);
-- an argument a data set does not read is refused, even at the value a
-- data set that reads it takes by default, with those it reads in the hint
SELECT polarbench_init('pgbench', tables => 2, table_size => 10, records => 1000, fields => 10,
					   field_length => 100, warehouses => 1);
SELECT polarbench_init('sysbench', scale => 1, partitions => 0, partition_method => 'range',
					   foreign_keys => false);
SELECT polarbench_init('ycsb', warehouses => 2);
SELECT polarbench_init('ycsb', tables => 1, scale => 2);
-- as pgbench -i: a partition method without partitions
SELECT polarbench_init('pgbench', partition_method => 'hash');
SELECT polarbench_init('pgbench', partitions => 0, partition_method => 'range');
-- parallel loads commit on their own: not inside a transaction block
BEGIN;
SELECT polarbench_init('sysbench', tables => 2, parallel => 2);
ROLLBACK;
-- nothing was created
SELECT count(*) FROM pg_class
 WHERE relname LIKE 'pgbench%' OR relname LIKE 'sbtest%' OR relname = 'usertable';
-- the function is not for everybody, and runs with the caller's rights
SELECT has_function_privilege('public', 'polarbench_init(text, int, int, int, bigint, int, int, int, int, boolean, int, text, boolean, boolean, boolean, boolean, int, boolean, int)', 'execute');
CREATE ROLE polarbench_loader_tester;
GRANT EXECUTE ON FUNCTION polarbench_init(text, int, int, int, bigint, int, int, int, int, boolean, int, text, boolean, boolean, boolean, boolean, int, boolean, int) TO polarbench_loader_tester;
CREATE SCHEMA polarbench_locked;
SET ROLE polarbench_loader_tester;
SET search_path = polarbench_locked, public;
SELECT polarbench_init('ycsb', records => 10);
RESET search_path;
RESET ROLE;
-- loader workers log in as the caller: a NOLOGIN role cannot load in parallel
CREATE ROLE polarbench_nologin_tester NOLOGIN;
GRANT EXECUTE ON FUNCTION polarbench_init(text, int, int, int, bigint, int, int, int, int, boolean, int, text, boolean, boolean, boolean, boolean, int, boolean, int) TO polarbench_nologin_tester;
CREATE SCHEMA polarbench_nologin AUTHORIZATION polarbench_nologin_tester;
SET ROLE polarbench_nologin_tester;
SET search_path = polarbench_nologin, public;
SELECT polarbench_init('sysbench', tables => 2, parallel => 2);
RESET search_path;
RESET ROLE;
DROP SCHEMA polarbench_nologin;
REVOKE ALL ON FUNCTION polarbench_init(text, int, int, int, bigint, int, int, int, int, boolean, int, text, boolean, boolean, boolean, boolean, int, boolean, int) FROM polarbench_nologin_tester;
DROP ROLE polarbench_nologin_tester;
DROP SCHEMA polarbench_locked;
REVOKE ALL ON FUNCTION polarbench_init(text, int, int, int, bigint, int, int, int, int, boolean, int, text, boolean, boolean, boolean, boolean, int, boolean, int) FROM polarbench_loader_tester;
DROP ROLE polarbench_loader_tester;
-- a table changed behind the loader's back (here: given an index by an
-- event trigger) is not filled; nor is one whose primary key the load
-- builds as rows go, when it gets a second index
CREATE FUNCTION polarbench_test_add_index() RETURNS event_trigger
LANGUAGE plpgsql AS $$
DECLARE
	cmd record;
BEGIN
	FOR cmd IN SELECT * FROM pg_event_trigger_ddl_commands()
				WHERE command_tag = 'CREATE TABLE' LOOP
		-- a parallel load's workers create the tables under staging names
		IF cmd.object_identity LIKE 'public.%usertable' THEN
			EXECUTE format('CREATE INDEX ON %s (field0)', cmd.object_identity);
		ELSIF cmd.object_identity LIKE 'public.%sbtest1' THEN
			EXECUTE format('CREATE INDEX ON %s (k)', cmd.object_identity);
		ELSIF cmd.object_identity LIKE 'public.%pgbench_accounts' THEN
			EXECUTE format('CREATE INDEX ON %s (bid)', cmd.object_identity);
		END IF;
	END LOOP;
END $$;
CREATE EVENT TRIGGER polarbench_test_add_index ON ddl_command_end
	EXECUTE FUNCTION polarbench_test_add_index();
SELECT polarbench_init('ycsb', records => 10);
SELECT polarbench_init('sysbench', tables => 1, table_size => 10);
SELECT polarbench_init('pgbench', scale => 1);
-- (terse: which worker takes which table varies)
\set VERBOSITY terse
SELECT polarbench_init('pgbench', scale => 1, parallel => 2);
\set VERBOSITY default
DROP EVENT TRIGGER polarbench_test_add_index;
DROP FUNCTION polarbench_test_add_index();
SELECT count(*) FROM pg_class WHERE relname IN ('usertable', 'sbtest1')
    OR relname LIKE 'pgbench%';
