-- TPC-C's five transactions (tpcc_driver.c) on two warehouses: the mix the
-- deck deals, exactly; each transaction's effects on the tables, from the
-- counts of the run (a New-Order adds its order, new order and lines and
-- moves d_next_o_id, a rolled back one leaves nothing, a Payment moves the
-- three ytd values and writes one history row, a Delivery removes one new
-- order per district it serves); the remote and by-name shares; the run's
-- figures (tpmC, NOPM) and report; triggers, a rule and a deferred
-- constraint on the tables; keying times; and bad input.  Nothing here
-- depends on timing: the run has a fixed seed and a number of transactions.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT dataset FROM polarbench_init('tpcc', warehouses => 2);
RESET client_min_messages;

-- the kind's workloads as polarbench_workloads lists them: whether each
-- writes, its report's style, how many options it takes
SELECT name, writes, report_style, jsonb_array_length(options) AS options
  FROM polarbench_workloads WHERE kind = 'tpcc';

CREATE TEMP VIEW tpcc_totals AS
	SELECT (SELECT sum(d_next_o_id) FROM district) AS next_o_ids,
		   (SELECT count(*) FROM orders) AS orders,
		   (SELECT count(*) FROM orders WHERE o_carrier_id IS NULL) AS undelivered,
		   (SELECT count(*) FROM new_order) AS new_orders,
		   (SELECT count(*) FROM order_line) AS lines,
		   (SELECT count(*) FROM order_line WHERE ol_o_id > 3000
		      AND ol_supply_w_id <> ol_w_id) AS remote_lines,
		   (SELECT coalesce(sum(ol_quantity), 0) FROM order_line WHERE ol_o_id > 3000) AS new_quantity,
		   (SELECT count(*) FROM history) AS history,
		   (SELECT sum(h_amount) FROM history) AS h_amount,
		   (SELECT sum(w_ytd) FROM warehouse) AS w_ytd,
		   (SELECT sum(d_ytd) FROM district) AS d_ytd,
		   (SELECT sum(c_ytd_payment) FROM customer) AS c_ytd_payment,
		   (SELECT sum(c_payment_cnt) FROM customer) AS c_payment_cnt,
		   (SELECT sum(c_delivery_cnt) FROM customer) AS c_delivery_cnt,
		   (SELECT sum(s_order_cnt) FROM stock) AS s_order_cnt,
		   (SELECT sum(s_remote_cnt) FROM stock) AS s_remote_cnt,
		   (SELECT sum(s_ytd) FROM stock) AS s_ytd;
CREATE TEMP TABLE before AS SELECT * FROM tpcc_totals;

-- two clients, one terminal each, at home in warehouses 1 and 2; retries
-- of deadlocks between them make every transaction count
SELECT workload, clients, transactions, failed
  FROM polarbench_run('tpcc', clients => 2, transactions => 1000,
                      random_seed => 42, max_tries => 20) \gset tpcc_
SELECT run_id AS tpcc_run FROM polarbench_runs ORDER BY run_id DESC LIMIT 1 \gset
SELECT :'tpcc_workload' AS workload, :tpcc_transactions AS transactions, :tpcc_failed AS failed;

-- the mix: each 100 transactions of a terminal are one deck of 45/43/4/4/4
SELECT operation, operations, errors
  FROM polarbench_operations WHERE run_id = :tpcc_run
 ORDER BY array_position(ARRAY['NEW_ORDER', 'PAYMENT', 'ORDER_STATUS',
                               'DELIVERY', 'STOCK_LEVEL'], operation);

-- each transaction's effects, from the run's own counts
CREATE TEMP VIEW ops AS
	SELECT max(operations) FILTER (WHERE operation = 'NEW_ORDER') AS new_order,
		   max(rollbacks) FILTER (WHERE operation = 'NEW_ORDER') AS rollbacks,
		   max(operations) FILTER (WHERE operation = 'PAYMENT') AS payment,
		   max(operations) FILTER (WHERE operation = 'DELIVERY') AS delivery,
		   max(rollbacks) FILTER (WHERE operation <> 'NEW_ORDER') AS other_rollbacks
	  FROM polarbench_operations WHERE run_id = :tpcc_run;
CREATE TEMP VIEW figures AS
	SELECT (figures->'tpcc'->>'skipped_deliveries')::bigint AS skipped,
		   (figures->'tpcc'->>'delivery_districts')::bigint AS districts,
		   figures->'tpcc' AS tpcc, seconds
	  FROM polarbench_runs WHERE run_id = :tpcc_run;
SELECT o.rollbacks > 0 AS some_rolled_back,
	   o.rollbacks < o.new_order / 20 AS about_one_in_a_hundred,
	   o.other_rollbacks = 0 AS only_new_orders_roll_back,
	   a.next_o_ids - b.next_o_ids = o.new_order - o.rollbacks AS next_o_ids_moved_by_commits,
	   a.orders - b.orders = o.new_order - o.rollbacks AS one_order_each,
	   f.districts = 10 * o.delivery AS delivery_serves_ten_districts,
	   a.new_orders - b.new_orders = o.new_order - o.rollbacks - (f.districts - f.skipped)
		   AS one_new_order_each_less_those_delivered,
	   a.undelivered - b.undelivered = o.new_order - o.rollbacks - (f.districts - f.skipped)
		   AS carriers_set_on_delivery,
	   a.c_delivery_cnt - b.c_delivery_cnt = f.districts - f.skipped AS delivery_counts,
	   a.lines - b.lines = a.s_order_cnt - b.s_order_cnt AS stock_order_counts,
	   a.s_remote_cnt - b.s_remote_cnt = a.remote_lines AS stock_remote_counts,
	   a.s_ytd - b.s_ytd = a.new_quantity AS stock_ytd,
	   a.lines - b.lines BETWEEN 5 * (a.orders - b.orders) AND 15 * (a.orders - b.orders)
		   AS five_to_fifteen_lines,
	   a.history - b.history = o.payment AS one_history_row_each,
	   a.c_payment_cnt - b.c_payment_cnt = o.payment AS payment_counts,
	   a.w_ytd - b.w_ytd = a.h_amount - b.h_amount AS warehouse_ytd,
	   a.d_ytd - b.d_ytd = a.h_amount - b.h_amount AS district_ytd,
	   a.c_ytd_payment - b.c_ytd_payment = a.h_amount - b.h_amount AS customer_ytd
  FROM tpcc_totals a, before b, ops o, figures f;
-- every order of the run has exactly its lines, numbered from 1
SELECT count(*) AS orders_with_wrong_lines
  FROM orders o
 WHERE o_id > 3000
   AND o_ol_cnt <> (SELECT count(*) FROM order_line
                     WHERE ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
                       AND ol_number BETWEEN 1 AND o_ol_cnt);
-- the shares of the inputs, far inside what the seed could make of them
SELECT (tpcc->>'remote_order_lines')::float8 / (tpcc->>'order_lines')::float8 < 0.05
		   AS one_line_in_a_hundred_remote,
	   (tpcc->>'remote_order_lines')::bigint > 0 AS some_lines_remote,
	   (tpcc->>'remote_payments')::float8 / (tpcc->>'payments')::float8 BETWEEN 0.08 AND 0.25
		   AS fifteen_in_a_hundred_payments_remote,
	   (tpcc->>'by_last_name')::float8 / (tpcc->>'by_last_name_of')::float8 BETWEEN 0.5 AND 0.7
		   AS sixty_in_a_hundred_by_name,
	   (tpcc->'c_run'->>'c_last')::int IS NOT NULL AS has_c_run
  FROM figures;
-- C_RUN keeps its distance to the load's C (2.1.6.1)
SELECT abs((tpcc->'c_run'->>'c_last')::int - (SELECT c_load FROM tpcc_load)) BETWEEN 65 AND 119
	   AND abs((tpcc->'c_run'->>'c_last')::int - (SELECT c_load FROM tpcc_load)) NOT IN (96, 112)
		   AS c_delta_kept
  FROM figures;
-- tpmC counts New-Orders per minute; NOPM the committed ones, as the
-- change of sum(d_next_o_id), which the recorder read before and after
SELECT round((tpcc->>'tpmc')::numeric * seconds::numeric / 60) = o.new_order AS tpmc,
	   round((tpcc->>'nopm')::numeric * seconds::numeric / 60) = o.new_order - o.rollbacks AS nopm,
	   abs((tpcc->>'efficiency')::float8 - 100 * (tpcc->>'tpmc')::float8 / (12.86 * 2)) < 0.01
		   AS efficiency
  FROM figures, ops o;
-- the report, numbers masked; the JSON document has them at its top
SELECT regexp_replace(regexp_replace(polarbench_report(:tpcc_run, 'tpcc'),
						  '[0-9]+(\.[0-9]+)?', 'N', 'g'), ' +', ' ', 'g') AS report;
SELECT jsonb_typeof(d->'tpcc'->'tpmc') AS tpmc, jsonb_typeof(d->'tpcc'->'nopm') AS nopm,
	   jsonb_array_length(d->'operations') AS operations
  FROM (SELECT polarbench_report(:tpcc_run, 'json')::jsonb AS d) j;
SELECT count(*) AS conditions_broken
  FROM polarbench_tpcc_check() WHERE offending > 0 AND condition <> 11;

-- at REPEATABLE READ, both terminals in warehouse 1: serialization
-- failures are tried again with the same inputs until they pass, and each
-- transaction still counts once, in the tables as in the run
CREATE TEMP TABLE before_rr AS SELECT * FROM tpcc_totals;
SELECT run_id AS rr_run
  FROM polarbench_run('tpcc', clients => 2, transactions => 200, random_seed => 3,
                      max_tries => 1000, options => '{"warehouses": 1}',
                      settings => '{"default_transaction_isolation": "repeatable read"}') \gset
SELECT r.failed, o.new_order + o.payment + o.others = r.transactions AS each_counted_once,
	   a.orders - b.orders = o.new_order - o.rollbacks AS one_order_each,
	   a.history - b.history = o.payment AS one_history_row_each,
	   a.w_ytd - b.w_ytd = a.h_amount - b.h_amount AS warehouse_ytd
  FROM polarbench_runs r, tpcc_totals a, before_rr b,
	   (SELECT max(operations) FILTER (WHERE operation = 'NEW_ORDER') AS new_order,
			   max(rollbacks) FILTER (WHERE operation = 'NEW_ORDER') AS rollbacks,
			   max(operations) FILTER (WHERE operation = 'PAYMENT') AS payment,
			   sum(operations) FILTER (WHERE operation NOT IN ('NEW_ORDER', 'PAYMENT')) AS others
		  FROM polarbench_operations WHERE run_id = :rr_run) o
 WHERE r.run_id = :rr_run;

-- row triggers writing another table, a rule and a deferred constraint
-- trigger on the tables TPC-C writes: every transaction still counts
CREATE TABLE tpcc_log (tbl text, op text);
CREATE FUNCTION tpcc_log_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO tpcc_log VALUES (TG_TABLE_NAME, TG_OP);
	RETURN NULL;
END $$;
CREATE TRIGGER log_after AFTER INSERT ON orders FOR EACH ROW EXECUTE FUNCTION tpcc_log_row();
CREATE TRIGGER log_after AFTER UPDATE ON stock FOR EACH ROW EXECUTE FUNCTION tpcc_log_row();
CREATE TRIGGER log_after AFTER UPDATE ON customer FOR EACH ROW EXECUTE FUNCTION tpcc_log_row();
CREATE TRIGGER log_after AFTER DELETE ON new_order FOR EACH ROW EXECUTE FUNCTION tpcc_log_row();
CREATE CONSTRAINT TRIGGER log_deferred AFTER INSERT ON order_line
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION tpcc_log_row();
CREATE RULE log_history AS ON INSERT TO history DO ALSO INSERT INTO tpcc_log VALUES ('history', 'RULE');
CREATE TEMP TABLE before2 AS SELECT * FROM tpcc_totals;
SELECT workload, transactions, failed
  FROM polarbench_run('tpcc', clients => 2, transactions => 200,
                      random_seed => 7, max_tries => 20);
SELECT (SELECT count(*) FROM tpcc_log WHERE tbl = 'orders') = a.orders - b.orders AS orders_logged,
	   (SELECT count(*) FROM tpcc_log WHERE tbl = 'order_line') = a.lines - b.lines AS lines_logged_at_commit,
	   (SELECT count(*) FROM tpcc_log WHERE tbl = 'history') = a.history - b.history AS rule_ran,
	   (SELECT count(*) FROM tpcc_log WHERE tbl = 'new_order') > 0 AS deliveries_logged
  FROM tpcc_totals a, before2 b;
DROP TABLE tpcc_log CASCADE;
DROP FUNCTION tpcc_log_row() CASCADE;

-- with keying times, a terminal keys a New-Order for 18 s: none completes
-- in a run of 3 s, whatever the machine's speed
SELECT run_id AS keyed_run
  FROM polarbench_run('tpcc', clients => 2, duration => 3,
                      options => '{"keying_think": true}') \gset
SELECT operation, operations = 0 AS none_completed
  FROM polarbench_operations WHERE run_id = :keyed_run AND operation = 'NEW_ORDER';

-- after runs of every kind (retried, under triggers, keyed) the database
-- still meets every condition of clause 3.3.2 but the one that holds only
-- while deliveries keep up with new orders
SELECT condition, offending FROM polarbench_tpcc_check() WHERE condition <> 11 AND offending > 0;

-- bad input, refused before anything starts
SELECT count(*) AS runs_before FROM polarbench_runs \gset
SELECT * FROM polarbench_run('tpcc', options => '{"payment": 42}');
SELECT * FROM polarbench_run('tpcc', options => '{"payment": 60, "order_status": 40}');
SELECT * FROM polarbench_run('tpcc', options => '{"warehouses": 3}');
SELECT * FROM polarbench_run('tpcc', options => '{"keying_think": "maybe"}');
SELECT * FROM polarbench_run('tpcc', options => '{"tables": 2}');
SELECT * FROM polarbench_run('tpcc', options => '{"keying_think": true}', rate => 10);
SELECT * FROM polarbench_run('tpcc', script => 'SELECT 1');
DROP INDEX idx_customer;
SELECT * FROM polarbench_run('tpcc', transactions => 1);
CREATE INDEX idx_customer ON customer (c_w_id, c_d_id, c_last, c_first);
-- warehouses that are not 1 to W: the terminals and remote lines are drawn
-- from 1 to W, so a W of 0 once divided by zero in a client, and an id
-- outside them was not found; refused before any client starts, naming
-- what the table holds
CREATE TEMP TABLE totals_before AS SELECT * FROM tpcc_totals;
CREATE TEMP TABLE warehouse_saved AS SELECT * FROM warehouse;
DELETE FROM warehouse WHERE w_id = 2;
UPDATE warehouse SET w_id = 0;
SELECT * FROM polarbench_run('tpcc', transactions => 1);
UPDATE warehouse SET w_id = -3;
SELECT * FROM polarbench_run('tpcc', transactions => 1);
DELETE FROM warehouse;
INSERT INTO warehouse SELECT * FROM warehouse_saved;
UPDATE warehouse SET w_id = 3 WHERE w_id = 2;
SELECT * FROM polarbench_run('tpcc', transactions => 1);
SELECT * FROM polarbench_run('tpcc', transactions => 1, options => '{"warehouses": 1}');
DELETE FROM warehouse;
SELECT * FROM polarbench_run('tpcc', transactions => 1);
INSERT INTO warehouse SELECT * FROM warehouse_saved;
-- nothing ran: the tables are as they were
SELECT (SELECT row(b.*)::text FROM totals_before b) = (SELECT row(t.*)::text FROM tpcc_totals t)
	   AS tables_unchanged;
-- a data set that is not TPC-C's: a warehouse table, and nothing else
CREATE SCHEMA not_tpcc;
CREATE TABLE not_tpcc.warehouse (w_id int PRIMARY KEY);
INSERT INTO not_tpcc.warehouse VALUES (1);
SET search_path = not_tpcc;
SELECT * FROM public.polarbench_run('tpcc', transactions => 1);
RESET search_path;
DROP SCHEMA not_tpcc CASCADE;
CREATE ROLE regress_tpcc_reader LOGIN;
GRANT SELECT ON warehouse, district, customer, history, new_order, orders,
	order_line, item, stock TO regress_tpcc_reader;
GRANT EXECUTE ON FUNCTION polarbench_run TO regress_tpcc_reader;
SET ROLE regress_tpcc_reader;
SELECT * FROM polarbench_run('tpcc', transactions => 1);
RESET ROLE;
REVOKE ALL ON warehouse, district, customer, history, new_order, orders,
	order_line, item, stock FROM regress_tpcc_reader;
REVOKE EXECUTE ON FUNCTION polarbench_run FROM regress_tpcc_reader;
DROP ROLE regress_tpcc_reader;
SELECT count(*) = :runs_before AS nothing_recorded FROM polarbench_runs;
