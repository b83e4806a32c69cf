SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
RESET client_min_messages;
-- the data set as polarbench_datasets lists it, with the arguments of
-- polarbench_init() it reads
SELECT name, jsonb_path_query_array(options, '$[*].name') AS arguments
  FROM polarbench_datasets WHERE name = 'tpcc';
-- bad input is refused before anything is written
SELECT polarbench_init('tpcc', warehouses => 0);
SELECT polarbench_init('tpcc', warehouses => 100001);
SELECT polarbench_init('tpcc', partitions => 2);
-- pgbench's, sysbench's and YCSB's arguments, which a TPC-C load would
-- leave out
SELECT polarbench_init('tpcc', partition_method => 'hash', scale => 10, tables => 4, records => 100);
SELECT polarbench_init('tpcc', scale => 1);
SELECT polarbench_init('sysbench', foreign_keys => true);
BEGIN;
SELECT polarbench_init('tpcc', parallel => 2);
ROLLBACK;
CREATE ROLE polarbench_tpcc_tester LOGIN;
GRANT EXECUTE ON FUNCTION polarbench_init(text, int, int, int, bigint, int, int, int, int, boolean, int, text, boolean, boolean, boolean, boolean, int, boolean, int) TO polarbench_tpcc_tester;
SET ROLE polarbench_tpcc_tester;
SELECT polarbench_init('tpcc');
RESET ROLE;
SELECT count(*) FROM pg_class WHERE relname IN ('warehouse', 'tpcc_load') OR relname LIKE 'pbload%';

-- What every load must make: one row per rule, with whether it holds.
-- Shares are bounded by 7 standard deviations of their binomial counts,
-- which a correct load leaves with odds below 1e-11.
CREATE FUNCTION tpcc_test_last_name(n int) RETURNS text LANGUAGE sql IMMUTABLE
RETURN (ARRAY['BAR', 'OUGHT', 'ABLE', 'PRI', 'PRES', 'ESE', 'ANTI', 'CALLY', 'ATION', 'EING'])[n / 100 + 1]
    || (ARRAY['BAR', 'OUGHT', 'ABLE', 'PRI', 'PRES', 'ESE', 'ANTI', 'CALLY', 'ATION', 'EING'])[n / 10 % 10 + 1]
    || (ARRAY['BAR', 'OUGHT', 'ABLE', 'PRI', 'PRES', 'ESE', 'ANTI', 'CALLY', 'ATION', 'EING'])[n % 10 + 1];
-- a share of k in n near p
CREATE FUNCTION tpcc_test_near(k bigint, n bigint, p float8) RETURNS boolean
LANGUAGE sql IMMUTABLE
RETURN abs(k - p * n) <= 7 * sqrt(n * p * (1 - p));
-- (a function, parsed when called, so that the loads may replace the tables)
SET check_function_bodies = off;
CREATE FUNCTION tpcc_rules(OUT rule text, OUT holds boolean) RETURNS SETOF record
LANGUAGE sql AS $$
WITH l AS (SELECT warehouses AS w, c_load, loaded_at, loaded_at::timestamp AS at FROM tpcc_load),
names AS (SELECT n, tpcc_test_last_name(n) AS name FROM generate_series(0, 999) n),
-- NURand(255, 0, 999) with constant c gives n with probability p
ab AS (SELECT a | b AS v, count(*) AS ways FROM generate_series(0, 255) a, generate_series(0, 999) b GROUP BY 1),
nurand AS (SELECT c, (v + c) % 1000 AS n, sum(ways)::float8 / 256000 AS p
             FROM ab, generate_series(0, 255) c GROUP BY 1, 2),
drawn AS (SELECT nm.n, count(*) AS k FROM customer c JOIN names nm ON nm.name = c.c_last
           WHERE c.c_id > 1000 GROUP BY 1),
likelihood AS (SELECT u.c, sum(d.k * ln(u.p)) AS ll FROM drawn d JOIN nurand u USING (n) GROUP BY 1)
SELECT rule, holds FROM l, LATERAL (VALUES
  ('tpcc_load: one row, C_LOAD in [0, 255], a seed, loaded now',
   (SELECT count(*) = 1 FROM tpcc_load) AND l.c_load BETWEEN 0 AND 255
   AND (SELECT seed IS NOT NULL FROM tpcc_load) AND l.loaded_at BETWEEN now() - interval '1 hour' AND now()),
  ('warehouse: W rows, w_id 1..W',
   (SELECT count(*) = l.w AND count(DISTINCT w_id) = l.w AND min(w_id) = 1 AND max(w_id) = l.w FROM warehouse)),
  ('district: 10 per warehouse',
   (SELECT count(*) = 10 * l.w AND count(DISTINCT (d_w_id, d_id)) = 10 * l.w AND min(d_id) = 1 AND max(d_id) = 10
      AND bool_and(d_w_id BETWEEN 1 AND l.w) FROM district)),
  ('customer: 3000 per district',
   (SELECT count(*) = 30000 * l.w AND count(DISTINCT (c_w_id, c_d_id, c_id)) = 30000 * l.w
      AND min(c_id) = 1 AND max(c_id) = 3000 AND bool_and(c_d_id BETWEEN 1 AND 10) FROM customer)),
  ('history: one per customer',
   (SELECT count(*) = 30000 * l.w AND count(DISTINCT (h_c_w_id, h_c_d_id, h_c_id)) = 30000 * l.w
      AND bool_and(h_w_id = h_c_w_id AND h_d_id = h_c_d_id) FROM history)),
  ('orders: 3000 per district',
   (SELECT count(*) = 30000 * l.w AND count(DISTINCT (o_w_id, o_d_id, o_id)) = 30000 * l.w
      AND min(o_id) = 1 AND max(o_id) = 3000 FROM orders)),
  ('new_order: o_id 2101..3000 of each district',
   (SELECT count(*) = 9000 * l.w AND count(DISTINCT (no_w_id, no_d_id, no_o_id)) = 9000 * l.w
      AND min(no_o_id) = 2101 AND max(no_o_id) = 3000 FROM new_order)),
  ('order_line: o_ol_cnt lines per order, numbered 1..o_ol_cnt, about 10 per order',
   (SELECT count(*) = (SELECT sum(o_ol_cnt) FROM orders)
      AND count(DISTINCT (ol_w_id, ol_d_id, ol_o_id, ol_number)) = count(*)
      AND NOT EXISTS (SELECT FROM order_line x JOIN orders o ON (o.o_w_id, o.o_d_id, o.o_id) = (x.ol_w_id, x.ol_d_id, x.ol_o_id)
                       WHERE x.ol_number NOT BETWEEN 1 AND o.o_ol_cnt)
      AND abs(count(*) - 300000 * l.w) <= 7 * sqrt(10 * 30000 * l.w) FROM order_line)),
  ('item: 100000 items',
   (SELECT count(*) = 100000 AND count(DISTINCT i_id) = 100000 AND min(i_id) = 1 AND max(i_id) = 100000 FROM item)),
  ('stock: every item in every warehouse',
   (SELECT count(*) = 100000 * l.w AND count(DISTINCT (s_w_id, s_i_id)) = 100000 * l.w
      AND min(s_i_id) = 1 AND max(s_i_id) = 100000 FROM stock)),
  ('c_last: the syllables of c_id - 1 for c_id <= 1000',
   (SELECT bool_and(c_last = tpcc_test_last_name(c_id - 1)) FROM customer WHERE c_id <= 1000)),
  ('c_last: a name of NURand(255, 0, 999) for c_id > 1000',
   NOT EXISTS (SELECT FROM customer WHERE c_id > 1000 AND c_last NOT IN (SELECT name FROM names))),
  ('c_last: NURand''s constant is C_LOAD (the most likely of all 256)',
   (SELECT c FROM likelihood ORDER BY ll DESC LIMIT 1) = l.c_load),
  ('c_credit: GC or BC, 10% BC',
   (SELECT bool_and(c_credit IN ('GC', 'BC')) AND tpcc_test_near(count(*) FILTER (WHERE c_credit = 'BC'), count(*), 0.1)
      FROM customer)),
  ('i_data: ORIGINAL in 10% of items',
   (SELECT tpcc_test_near(count(*) FILTER (WHERE i_data LIKE '%ORIGINAL%'), count(*), 0.1) FROM item)),
  ('s_data: ORIGINAL in 10% of stock',
   (SELECT tpcc_test_near(count(*) FILTER (WHERE s_data LIKE '%ORIGINAL%'), count(*), 0.1) FROM stock)),
  ('o_c_id: a permutation of 1..3000 in each district',
   (SELECT bool_and(n = 3000 AND lo = 1 AND hi = 3000)
      FROM (SELECT count(DISTINCT o_c_id) AS n, min(o_c_id) AS lo, max(o_c_id) AS hi FROM orders GROUP BY o_w_id, o_d_id) p)),
  ('o_c_id: a permutation of its own in each district',
   (SELECT count(DISTINCT p) = 10 * l.w
      FROM (SELECT string_agg(o_c_id::text, ',' ORDER BY o_id) AS p FROM orders GROUP BY o_w_id, o_d_id) p)),
  ('o_carrier_id: in 1..10 below o_id 2101, null from 2101',
   (SELECT bool_and(CASE WHEN o_id < 2101 THEN o_carrier_id BETWEEN 1 AND 10 ELSE o_carrier_id IS NULL END) FROM orders)),
  ('orders: o_ol_cnt in 5..15, all local, entered at the load',
   (SELECT bool_and(o_ol_cnt BETWEEN 5 AND 15 AND o_all_local = 1 AND o_entry_d = l.at) FROM orders)),
  ('order_line below o_id 2101: delivered at the load, amount 0.00',
   (SELECT bool_and(ol_delivery_d = l.at AND ol_amount = 0) FROM order_line WHERE ol_o_id < 2101)),
  ('order_line from o_id 2101: not delivered, amount in [0.01, 9999.99]',
   (SELECT bool_and(ol_delivery_d IS NULL AND ol_amount BETWEEN 0.01 AND 9999.99) FROM order_line WHERE ol_o_id >= 2101)),
  ('order_line: an item, from the home warehouse, quantity 5, dist_info of 24',
   (SELECT bool_and(ol_i_id BETWEEN 1 AND 100000 AND ol_supply_w_id = ol_w_id AND ol_quantity = 5
                    AND ol_dist_info ~ '^[a-zA-Z0-9]{24}$') FROM order_line)),
  ('warehouse: w_ytd 300000.00, w_tax in [0, 0.2], name and address',
   (SELECT bool_and(w_ytd = 300000.00 AND w_tax BETWEEN 0 AND 0.2 AND length(w_name) BETWEEN 6 AND 10
                    AND length(w_street_1) BETWEEN 10 AND 20 AND length(w_street_2) BETWEEN 10 AND 20
                    AND length(w_city) BETWEEN 10 AND 20 AND w_state ~ '^[A-Z]{2}$' AND w_zip ~ '^[0-9]{4}11111$')
      FROM warehouse)),
  ('district: d_ytd 30000.00, d_next_o_id 3001, d_tax in [0, 0.2], name and address',
   (SELECT bool_and(d_ytd = 30000.00 AND d_next_o_id = 3001 AND d_tax BETWEEN 0 AND 0.2
                    AND length(d_name) BETWEEN 6 AND 10 AND length(d_street_1) BETWEEN 10 AND 20
                    AND length(d_city) BETWEEN 10 AND 20 AND d_state ~ '^[A-Z]{2}$' AND d_zip ~ '^[0-9]{4}11111$')
      FROM district)),
  ('customer: balance -10.00, payment 10.00, counts 1 and 0, limit 50000.00, discount in [0, 0.5]',
   (SELECT bool_and(c_balance = -10.00 AND c_ytd_payment = 10.00 AND c_payment_cnt = 1 AND c_delivery_cnt = 0
                    AND c_credit_lim = 50000.00 AND c_discount BETWEEN 0 AND 0.5) FROM customer)),
  ('customer: strings of their lengths, OE, phone, zip, since the load',
   (SELECT bool_and(c_first ~ '^[a-zA-Z0-9]{8,16}$' AND c_middle = 'OE' AND length(c_street_1) BETWEEN 10 AND 20
                    AND length(c_street_2) BETWEEN 10 AND 20 AND length(c_city) BETWEEN 10 AND 20
                    AND c_state ~ '^[A-Z]{2}$' AND c_zip ~ '^[0-9]{4}11111$' AND c_phone ~ '^[0-9]{16}$'
                    AND c_data ~ '^[a-zA-Z0-9]+$' AND length(c_data) BETWEEN 300 AND 500 AND c_since = l.at) FROM customer)),
  ('history: amount 10.00, dated at the load, data of 12..24',
   (SELECT bool_and(h_amount = 10.00 AND h_date = l.at AND h_data ~ '^[a-zA-Z0-9]{12,24}$') FROM history)),
  ('item: im_id in 1..10000, price in [1.00, 100.00], name of 14..24, data of 26..50',
   (SELECT bool_and(i_im_id BETWEEN 1 AND 10000 AND i_price BETWEEN 1.00 AND 100.00
                    AND i_name ~ '^[a-zA-Z0-9]{14,24}$' AND length(i_data) BETWEEN 26 AND 50) FROM item)),
  ('stock: quantity in 10..100, counters at 0, dist_xx of 24, data of 26..50',
   (SELECT bool_and(s_quantity BETWEEN 10 AND 100 AND s_ytd = 0 AND s_order_cnt = 0 AND s_remote_cnt = 0
                    AND s_dist_01 ~ '^[a-zA-Z0-9]{24}$' AND s_dist_10 ~ '^[a-zA-Z0-9]{24}$'
                    AND length(s_data) BETWEEN 26 AND 50) FROM stock))
) r(rule, holds);
$$;
RESET check_function_bodies;

-- one warehouse, in the caller's transaction
SELECT dataset, tables, rows AS loaded FROM polarbench_init('tpcc', warehouses => 1) \gset
SELECT :'dataset', :tables, :loaded = (SELECT count(*) FROM warehouse) + (SELECT count(*) FROM district)
                             + (SELECT count(*) FROM customer) + (SELECT count(*) FROM history)
                             + (SELECT count(*) FROM orders) + (SELECT count(*) FROM new_order)
                             + (SELECT count(*) FROM order_line) + (SELECT count(*) FROM item)
                             + (SELECT count(*) FROM stock) AS rows_counted;
SELECT count(*) AS rules, count(*) FILTER (WHERE holds) AS holding,
       string_agg(rule, '; ') FILTER (WHERE holds IS NOT TRUE) AS failing FROM tpcc_rules();
SELECT condition, statement, offending, sample FROM polarbench_tpcc_check();
-- the tables, their columns and indexes
SELECT c.relname, string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum)
  FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
 WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND c.relname NOT LIKE 'polarbench%'
 GROUP BY c.relname ORDER BY 1;
SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename NOT LIKE 'polarbench%' ORDER BY 1;
-- analyzed
SELECT relname, reltuples > 0 AS analyzed FROM pg_class
 WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' AND relname NOT LIKE 'polarbench%' AND relname <> 'tpcc_load'
 ORDER BY 1;

-- polarbench_tpcc_check finds each condition broken on purpose
CREATE FUNCTION tpcc_test_broken() RETURNS text LANGUAGE sql
RETURN (SELECT coalesce(string_agg(condition::text, ' ' ORDER BY condition), 'none')
          FROM polarbench_tpcc_check() WHERE offending > 0);
BEGIN;
UPDATE warehouse SET w_ytd = w_ytd + 1;
SELECT tpcc_test_broken();
ROLLBACK;
BEGIN;
UPDATE district SET d_next_o_id = 3002 WHERE d_id = 1;
SELECT tpcc_test_broken();
SELECT offending, sample FROM polarbench_tpcc_check() WHERE condition = 2;
ROLLBACK;
BEGIN;
DELETE FROM new_order WHERE no_d_id = 1 AND no_o_id = 2500;
SELECT tpcc_test_broken();
ROLLBACK;
BEGIN;
UPDATE orders SET o_ol_cnt = o_ol_cnt + 1 WHERE o_d_id = 1 AND o_id = 1;
SELECT tpcc_test_broken();
ROLLBACK;
BEGIN;
UPDATE orders SET o_carrier_id = 1 WHERE o_d_id = 1 AND o_id = 2500;
SELECT tpcc_test_broken();
ROLLBACK;
BEGIN;
UPDATE order_line SET ol_delivery_d = NULL WHERE ol_d_id = 1 AND ol_o_id = 1 AND ol_number = 1;
SELECT tpcc_test_broken();
SELECT offending, sample #- '{0,o_carrier_id}' AS sample FROM polarbench_tpcc_check() WHERE condition = 7;
ROLLBACK;
BEGIN;
INSERT INTO history VALUES (1, 1, 1, 1, 1, now(), 5.00, 'a payment');
SELECT tpcc_test_broken();
ROLLBACK;
BEGIN;
UPDATE district SET d_ytd = d_ytd + 1 WHERE d_id = 2;
SELECT tpcc_test_broken();
ROLLBACK;
BEGIN;
UPDATE customer SET c_balance = 0 WHERE c_d_id = 1 AND c_id = 1;
SELECT tpcc_test_broken();
ROLLBACK;
BEGIN;
DELETE FROM new_order WHERE no_d_id = 3 AND no_o_id = 2101;
SELECT tpcc_test_broken();
ROLLBACK;
BEGIN;
UPDATE customer SET c_ytd_payment = 0 WHERE c_d_id = 1 AND c_id = 2;
SELECT tpcc_test_broken();
ROLLBACK;
-- a customer with no delivered line is checked too (not skipped)
BEGIN;
UPDATE order_line SET ol_delivery_d = NULL, ol_amount = 1.00
 WHERE (ol_w_id, ol_d_id, ol_o_id) IN (SELECT o_w_id, o_d_id, o_id FROM orders WHERE o_d_id = 1 AND o_c_id = 7);
UPDATE customer SET c_balance = 5 WHERE c_d_id = 1 AND c_id = 7;
SELECT condition, offending FROM polarbench_tpcc_check() WHERE condition IN (10, 12);
ROLLBACK;
-- the tables are those the search_path finds, each by its own name
CREATE SCHEMA tpcc_other;
CREATE TABLE tpcc_other.district AS SELECT * FROM district;
UPDATE tpcc_other.district SET d_ytd = 0 WHERE d_id = 5;
SET search_path = tpcc_other, public;
SELECT tpcc_test_broken();
SET search_path = tpcc_other;
SELECT * FROM public.polarbench_tpcc_check();
RESET search_path;
DROP SCHEMA tpcc_other CASCADE;
-- read as the caller
CREATE ROLE polarbench_tpcc_reader;
SET ROLE polarbench_tpcc_reader;
SELECT * FROM polarbench_tpcc_check();
RESET ROLE;

-- warehouses added only to a TPC-C data set, as it is
BEGIN;
ALTER TABLE stock ADD COLUMN s_extra int;
SELECT polarbench_init('tpcc', warehouses => 2);
ROLLBACK;
BEGIN;
DROP TABLE item CASCADE;
SELECT polarbench_init('tpcc', warehouses => 2);
ROLLBACK;
BEGIN;
INSERT INTO district (d_id, d_w_id) VALUES (1, 2);
SELECT polarbench_init('tpcc', warehouses => 2);
ROLLBACK;
BEGIN;
UPDATE tpcc_load SET warehouses = 2;
SELECT polarbench_init('tpcc', warehouses => 3);
ROLLBACK;
BEGIN;
INSERT INTO tpcc_load SELECT * FROM tpcc_load;
SELECT polarbench_init('tpcc', warehouses => 2);
ROLLBACK;
SELECT polarbench_init('tpcc', warehouses => 2, foreign_keys => true);
-- by a role that may create tables but not add rows to these
GRANT CREATE ON SCHEMA public TO polarbench_tpcc_tester;
GRANT SELECT ON warehouse, district, customer, history, orders, new_order, order_line, item, stock, tpcc_load
   TO polarbench_tpcc_tester;
SET ROLE polarbench_tpcc_tester;
SELECT polarbench_init('tpcc', warehouses => 2, parallel => 2);
RESET ROLE;
-- drop => false refuses a new load over the data set (adding warehouses
-- replaces nothing: below)
SELECT polarbench_init('tpcc', warehouses => 1, drop => false);
-- nothing was left behind or changed
SELECT warehouses, (SELECT count(*) FROM warehouse) AS w, (SELECT count(*) FROM stock) AS s FROM tpcc_load;
SELECT count(*) FROM pg_class WHERE relname LIKE 'pbload%';

-- a second warehouse added, in parallel: the first one's rows stay
CREATE TABLE tpcc_test_before AS
SELECT 'customer' AS t, md5(string_agg(c::text, '' ORDER BY c_d_id, c_id)) AS sum FROM customer c
UNION ALL SELECT 'stock', md5(string_agg(s::text, '' ORDER BY s_i_id)) FROM stock s
UNION ALL SELECT 'order_line', md5(string_agg(l::text, '' ORDER BY ol_d_id, ol_o_id, ol_number)) FROM order_line l
UNION ALL SELECT 'orders', md5(string_agg(o::text, '' ORDER BY o_d_id, o_id)) FROM orders o
UNION ALL SELECT 'history', md5(string_agg(h::text, '' ORDER BY h_c_d_id, h_c_id)) FROM history h;
SELECT dataset, tables, rows BETWEEN 490000 AND 510000 AS rows_of_one_warehouse
  FROM polarbench_init('tpcc', warehouses => 2, parallel => 2, drop => false);
SELECT b.t, b.sum = a.sum AS unchanged FROM tpcc_test_before b JOIN (
SELECT 'customer' AS t, md5(string_agg(c::text, '' ORDER BY c_d_id, c_id)) AS sum FROM customer c WHERE c_w_id = 1
UNION ALL SELECT 'stock', md5(string_agg(s::text, '' ORDER BY s_i_id)) FROM stock s WHERE s_w_id = 1
UNION ALL SELECT 'order_line', md5(string_agg(l::text, '' ORDER BY ol_d_id, ol_o_id, ol_number)) FROM order_line l WHERE ol_w_id = 1
UNION ALL SELECT 'orders', md5(string_agg(o::text, '' ORDER BY o_d_id, o_id)) FROM orders o WHERE o_w_id = 1
UNION ALL SELECT 'history', md5(string_agg(h::text, '' ORDER BY h_c_d_id, h_c_id)) FROM history h WHERE h_c_w_id = 1
) a USING (t) ORDER BY 1;
SELECT count(*) AS rules, count(*) FILTER (WHERE holds) AS holding,
       string_agg(rule, '; ') FILTER (WHERE holds IS NOT TRUE) AS failing FROM tpcc_rules();
SELECT condition, offending FROM polarbench_tpcc_check() WHERE offending > 0;
SELECT count(*) FROM pg_class WHERE relname LIKE 'pbload%';
-- the second warehouse is the one a load of two would have made: its
-- own rows, not a copy of the first's
SELECT count(*) FROM customer a JOIN customer b ON (a.c_d_id, a.c_id) = (b.c_d_id, b.c_id)
 WHERE a.c_w_id = 1 AND b.c_w_id = 2 AND a.c_data = b.c_data;

-- two warehouses loaded anew, in parallel, with foreign keys
SELECT dataset, tables FROM polarbench_init('tpcc', warehouses => 2, parallel => 2, foreign_keys => true);
SELECT count(*) AS rules, count(*) FILTER (WHERE holds) AS holding,
       string_agg(rule, '; ') FILTER (WHERE holds IS NOT TRUE) AS failing FROM tpcc_rules();
SELECT condition, offending FROM polarbench_tpcc_check() WHERE offending > 0;
-- by name: the loader workers create the tables in whichever order they run
SELECT conrelid::regclass, pg_get_constraintdef(oid) FROM pg_constraint
 WHERE contype = 'f' AND connamespace = 'public'::regnamespace
 ORDER BY conrelid::regclass::text COLLATE "C", pg_get_constraintdef(oid) COLLATE "C";
SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'polarbench loader';

DROP TABLE tpcc_test_before;
DROP FUNCTION tpcc_rules();
DROP FUNCTION tpcc_test_broken(), tpcc_test_near(bigint, bigint, float8), tpcc_test_last_name(int);
DROP TABLE warehouse, district, customer, history, orders, new_order, order_line, item, stock, tpcc_load;
REVOKE ALL ON SCHEMA public FROM polarbench_tpcc_tester;
REVOKE ALL ON FUNCTION polarbench_init(text, int, int, int, bigint, int, int, int, int, boolean, int, text, boolean, boolean, boolean, boolean, int, boolean, int) FROM polarbench_tpcc_tester;
DROP ROLE polarbench_tpcc_tester, polarbench_tpcc_reader;
