-- A run works on the tables the caller's search_path finds at the call:
-- its clients write them, its checks before the run read them, and what
-- the run reads of them for its figures (pgbench's scale, sysbench's table
-- count, YCSB's record count, TPC-C's warehouses and NOPM) is theirs.  Two
-- sets of every data set, loaded differently: one in public, the other in
-- a schema whose name needs quoting; each run with the second first on the
-- path changes its tables and no others.  The same for a background run
-- and a sweep; settings that give a search_path win; the path the clients
-- had is recorded, pg_catalog searched first (never named) and pg_temp
-- last.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
CREATE SCHEMA "Regress PB S2";
SELECT dataset FROM polarbench_init('pgbench', scale => 1);
SELECT dataset FROM polarbench_init('sysbench', tables => 1, table_size => 100);
SELECT dataset FROM polarbench_init('ycsb', records => 100);
SELECT dataset FROM polarbench_init('tpcc', warehouses => 1);
SET search_path = "Regress PB S2", public;
SELECT dataset FROM polarbench_init('pgbench', scale => 2);
SELECT dataset FROM polarbench_init('sysbench', tables => 2, table_size => 200);
SELECT dataset FROM polarbench_init('ycsb', records => 200);
SELECT dataset FROM polarbench_init('tpcc', warehouses => 2);
RESET search_path;
RESET client_min_messages;

-- what each set's tables hold, and what changed since the last look
CREATE TEMP VIEW sets AS
	SELECT 1 AS n, 'public' AS set,
		   (SELECT count(*) FROM public.pgbench_history) AS history,
		   (SELECT sum(bbalance) FROM public.pgbench_branches) AS bbalance,
		   (SELECT count(*) FROM public.sbtest1) AS sbtest_rows,
		   (SELECT count(*) FROM public.usertable) AS usertable,
		   (SELECT sum(d_next_o_id) FROM public.district) AS next_o_ids
	UNION ALL
	SELECT 2, 'Regress PB S2',
		   (SELECT count(*) FROM "Regress PB S2".pgbench_history),
		   (SELECT sum(bbalance) FROM "Regress PB S2".pgbench_branches),
		   (SELECT count(*) FROM "Regress PB S2".sbtest1) +
		   (SELECT count(*) FROM "Regress PB S2".sbtest2),
		   (SELECT count(*) FROM "Regress PB S2".usertable),
		   (SELECT sum(d_next_o_id) FROM "Regress PB S2".district);
CREATE TEMP TABLE seen AS SELECT * FROM sets;
SELECT * FROM seen ORDER BY n;
CREATE FUNCTION pg_temp.changed() RETURNS TABLE (set text, history bigint, bbalance bigint,
												 sbtest_rows bigint, usertable bigint,
												 next_o_ids bigint)
LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY
		SELECT s.set, s.history - b.history, s.bbalance - b.bbalance,
			   s.sbtest_rows - b.sbtest_rows, s.usertable - b.usertable,
			   s.next_o_ids - b.next_o_ids
		  FROM sets s JOIN seen b USING (n) ORDER BY s.n;
	DELETE FROM seen;
	INSERT INTO seen SELECT * FROM sets;
END $$;
-- the newest run
CREATE TEMP VIEW last_run AS
	SELECT * FROM polarbench_runs ORDER BY run_id DESC LIMIT 1;

SET search_path = "Regress PB S2", public;

-- pgbench's built-in: the history rows of tpcb-like, the scale of the report
SELECT workload, transactions FROM polarbench_run('tpcb-like', transactions => 10, random_seed => 3);
SELECT * FROM pg_temp.changed();
SELECT substring(polarbench_report(run_id) FROM 'scaling factor: \d+') AS scale,
	   effective_settings->>'search_path' AS clients_path
  FROM last_run;
-- a script of one's own
SELECT workload, transactions
  FROM polarbench_run(script => 'UPDATE pgbench_branches SET bbalance = bbalance + 1;',
					  transactions => 5);
SELECT * FROM pg_temp.changed();
-- sysbench's: its tables counted on the caller's path
SELECT workload, transactions FROM polarbench_run('oltp_insert', transactions => 10, random_seed => 3);
SELECT * FROM pg_temp.changed();
SELECT options->>'tables' AS tables, options->>'table_size' AS table_size FROM last_run;
-- YCSB's: its records counted on the caller's path
SELECT workload, transactions
  FROM polarbench_run('ycsb-load', transactions => 10, random_seed => 3,
					  options => '{"insertstart": 200, "recordcount": 300}');
SELECT * FROM pg_temp.changed();
SELECT workload, transactions FROM polarbench_run('ycsb-c', transactions => 10, random_seed => 3);
SELECT options->>'recordcount' AS recordcount FROM last_run;
-- TPC-C's: a terminal at home in each of the two warehouses, which only the
-- second set has; NOPM read of its district table
CREATE TEMP TABLE before_tpcc AS
	SELECT sum(d_next_o_id) AS next_o_ids FROM "Regress PB S2".district;
SELECT workload, transactions, failed
  FROM polarbench_run('tpcc', clients => 2, transactions => 50, random_seed => 3, max_tries => 20);
SELECT set, history, bbalance, sbtest_rows, usertable, next_o_ids > 0 AS new_orders
  FROM pg_temp.changed();
SELECT r.figures->'tpcc'->>'warehouses' AS warehouses,
	   abs((r.figures->'tpcc'->>'nopm')::float8 * r.seconds / 60
		   - (SELECT sum(d_next_o_id) FROM "Regress PB S2".district)
		   + (SELECT next_o_ids FROM before_tpcc)) < 0.5 AS nopm_of_these_districts,
	   o.operations - o.rollbacks = (SELECT sum(d_next_o_id) FROM "Regress PB S2".district)
		   - (SELECT next_o_ids FROM before_tpcc) AS committed_new_orders
  FROM last_run r JOIN polarbench_operations o USING (run_id)
 WHERE o.operation = 'NEW_ORDER';

-- a background run: the path of the call, not the conductor's own
SELECT polarbench_start('tpcb-like', transactions => 5, random_seed => 3) AS background \gset
SELECT workload, transactions FROM polarbench_wait(:background);
SELECT * FROM pg_temp.changed();
-- a sweep: each of its runs
SET client_min_messages = warning;
SELECT pg_catalog.count(*) AS runs
  FROM polarbench_sweep('tpcb-like', clients => ARRAY[1, 2], transactions => 3,
						  random_seed => 3);
RESET client_min_messages;
SELECT * FROM pg_temp.changed();

-- settings that give a search_path win
SELECT workload, transactions
  FROM polarbench_run('tpcb-like', transactions => 5, random_seed => 3,
					  settings => '{"search_path": "public"}');
SELECT * FROM pg_temp.changed();
SELECT settings->>'search_path' AS given, effective_settings->>'search_path' AS clients_path
  FROM last_run;
-- pg_catalog is searched first, named or not; the caller's pg_temp is not
-- the clients'
SET search_path = "Regress PB S2", pg_catalog, pg_temp, public;
SELECT workload, transactions FROM polarbench_run('select-only', transactions => 1);
SELECT effective_settings->>'search_path' AS clients_path FROM last_run;
RESET search_path;

SET client_min_messages = warning;
DROP SCHEMA "Regress PB S2" CASCADE;
RESET client_min_messages;
-- and public's TPC-C tables, which the runs changed: a later load of more
-- warehouses would add to them, not make them anew
DROP TABLE warehouse, district, customer, history, new_order, orders, order_line,
	item, stock, tpcc_load;
