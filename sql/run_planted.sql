-- Operators, functions, aggregates and types planted on the search_path
-- never run in what polarbench runs.  A low role owns a schema on the
-- path of the superuser who runs the benchmarks, after the tables' schema
-- and before pg_catalog, and plants there: for every comparison and
-- arithmetic operator, one of every pair of the types the data sets use
-- (varchar, text, bpchar, int2, int4, int8, numeric, float8, timestamp)
-- that pg_catalog resolves; count, sum, min, max and avg of each of these
-- types, and count(*); the string functions of varchar and bpchar, which
-- pg_catalog has only for text; and domains named as the types.  Each one
-- counts in a sequence (which no rollback undoes) and logs that it ran.
-- The superuser then loads every data set, runs every workload
-- polarbench_workloads lists (with the path given in settings, and with
-- its own), in the background and in a sweep, checks TPC-C's consistency,
-- reads every report, comparison and view: nothing planted runs.  Then, in a
-- database where the role planted the same in the extension's schema
-- before CREATE EXTENSION, none of the extension's views, defaults or
-- constraints is bound to a planted object.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
RESET client_min_messages;
CREATE ROLE regress_pb_mallory;
CREATE SCHEMA regress_pb_evil AUTHORIZATION regress_pb_mallory;
-- the benchmark's tables, in a schema of their own; the extension in public
CREATE SCHEMA regress_pb_tables;
\set path 'regress_pb_tables, public, regress_pb_evil, pg_catalog'

-- the planting, into schema target: returns how many objects it planted
SET ROLE regress_pb_mallory;
CREATE FUNCTION regress_pb_evil.plant(target name) RETURNS int
LANGUAGE plpgsql SET search_path = pg_catalog AS $plant$
DECLARE
	types text[] := ARRAY['varchar', 'text', 'bpchar', 'int2', 'int4', 'int8',
						  'numeric', 'float8', 'timestamp'];
	ops text[] := ARRAY['=', '<>', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', '||'];
	aggs text[] := ARRAY['count', 'sum', 'min', 'max', 'avg'];
	-- pg_catalog has these of text only (or of "any"): these would match better
	funcs text[] := ARRAY[
		'substr(varchar,int4,int4)', 'substr(varchar,int4)', 'substr(bpchar,int4,int4)',
		'substr(bpchar,int4)', 'substring(varchar,int4,int4)', 'length(varchar)',
		'char_length(varchar)', 'octet_length(varchar)', 'lower(varchar)', 'upper(varchar)',
		'lower(bpchar)', 'upper(bpchar)', 'btrim(varchar)', 'ltrim(varchar)', 'rtrim(bpchar)',
		'left(varchar,int4)', 'right(varchar,int4)', 'replace(varchar,text,text)',
		'repeat(varchar,int4)', 'strpos(varchar,text)', 'md5(varchar)', 'concat(text)',
		'concat(text,text)', 'concat(text,int4)', 'concat(text,int8)', 'concat(varchar,varchar)',
		'format(text,text)', 'format(text,int4)', 'format(text,int8)', 'to_char(int4,text)',
		'to_char(int8,text)', 'to_char(numeric,text)', 'round(numeric,int4)', 'abs(int4)'];
	l text;
	r text;
	x text;
	args text[];
	res regtype;
	n int := 0;
BEGIN
	EXECUTE format('CREATE SEQUENCE %I.ran_count', target);
	EXECUTE format('CREATE TABLE %I.ran_log (what text)', target);
	EXECUTE format('GRANT ALL ON %I.ran_count, %I.ran_log TO PUBLIC', target, target);
	EXECUTE format($f$
		CREATE FUNCTION %1$I.ran(what text) RETURNS bool
		LANGUAGE plpgsql SET search_path = pg_catalog AS $r$
		BEGIN
			PERFORM nextval(%2$L);
			BEGIN
				INSERT INTO %1$I.ran_log VALUES (what);
			EXCEPTION WHEN OTHERS THEN
				NULL;
			END;
			RETURN true;
		END $r$$f$, target, quote_ident(target) || '.ran_count');
	-- operators: each pair pg_catalog resolves, returning what its resolves to
	FOREACH l IN ARRAY types LOOP
		FOREACH r IN ARRAY types LOOP
			FOREACH x IN ARRAY ops LOOP
				BEGIN
					EXECUTE format('SELECT pg_typeof(NULL::%I OPERATOR(pg_catalog.%s) NULL::%I)',
								   l, x, r) INTO res;
				EXCEPTION WHEN OTHERS THEN
					CONTINUE;
				END;
				n := n + 1;
				EXECUTE format('CREATE FUNCTION %I.planted_%s(a %I, b %I) RETURNS %s'
							   ' LANGUAGE plpgsql SET search_path = pg_catalog AS $f$'
							   ' BEGIN PERFORM %I.ran(%L); RETURN a OPERATOR(pg_catalog.%s) b; END $f$',
							   target, n, l, r, res, target,
							   format('operator %s %s %s', l, x, r), x);
				EXECUTE format('CREATE OPERATOR %I.%s (LEFTARG = %I, RIGHTARG = %I, FUNCTION = %I.planted_%s)',
							   target, x, l, r, target, n);
			END LOOP;
		END LOOP;
	END LOOP;
	-- aggregates of each type pg_catalog has them of, and count(*)
	FOREACH l IN ARRAY types LOOP
		FOREACH x IN ARRAY aggs LOOP
			BEGIN
				EXECUTE format('SELECT pg_typeof(%s(NULL::%I))', x, l) INTO res;
			EXCEPTION WHEN OTHERS THEN
				CONTINUE;
			END;
			n := n + 1;
			EXECUTE format('CREATE FUNCTION %I.planted_%s(s %s, v %I) RETURNS %s'
						   ' LANGUAGE plpgsql SET search_path = pg_catalog AS $f$'
						   ' BEGIN PERFORM %I.ran(%L); RETURN %s; END $f$',
						   target, n, res, l, res, target, format('aggregate %s(%s)', x, l),
						   CASE x WHEN 'count' THEN 's + 1' ELSE format('coalesce(s, v::%s)', res) END);
			EXECUTE format('CREATE AGGREGATE %I.%I(%I) (SFUNC = %I.planted_%s, STYPE = %s%s)',
						   target, x, l, target, n, res,
						   CASE x WHEN 'count' THEN ', INITCOND = 0' ELSE '' END);
		END LOOP;
	END LOOP;
	n := n + 1;
	EXECUTE format('CREATE FUNCTION %I.planted_%s(s int8) RETURNS int8'
				   ' LANGUAGE plpgsql SET search_path = pg_catalog AS $f$'
				   ' BEGIN PERFORM %I.ran(''aggregate count(*)''); RETURN s + 1; END $f$',
				   target, n, target);
	EXECUTE format('CREATE AGGREGATE %I.count(*) (SFUNC = %I.planted_%s, STYPE = int8, INITCOND = 0)',
				   target, target, n);
	-- string functions
	FOREACH x IN ARRAY funcs LOOP
		args := string_to_array(rtrim(split_part(x, '(', 2), ')'), ',');
		BEGIN
			EXECUTE format('SELECT pg_typeof(pg_catalog.%s(%s))', split_part(x, '(', 1),
						   (SELECT string_agg(format('NULL::%I', a), ', ') FROM unnest(args) a))
			   INTO res;
		EXCEPTION WHEN OTHERS THEN
			RAISE EXCEPTION 'pg_catalog has no %', x;
		END;
		n := n + 1;
		EXECUTE format('CREATE FUNCTION %I.%I(%s) RETURNS %s'
					   ' LANGUAGE plpgsql SET search_path = pg_catalog AS $f$'
					   ' BEGIN PERFORM %I.ran(%L); RETURN pg_catalog.%I(%s); END $f$',
					   target, split_part(x, '(', 1),
					   (SELECT string_agg(format('%I', a), ', ') FROM unnest(args) a), res,
					   target, 'function ' || x, split_part(x, '(', 1),
					   (SELECT string_agg('$' || i, ', ') FROM generate_series(1, cardinality(args)) i));
	END LOOP;
	-- types of the same names
	FOREACH x IN ARRAY types || ARRAY['timestamptz', 'bool', 'oid', 'name', 'jsonb'] LOOP
		n := n + 1;
		EXECUTE format('CREATE DOMAIN %I.%I AS %I CHECK (%I.ran(%L))',
					   target, x, x, target, 'type ' || x);
	END LOOP;
	RETURN n;
END $plant$;
SELECT regress_pb_evil.plant('regress_pb_evil') > 450 AS planted;
RESET ROLE;

-- what ran of it: nothing, as nextval() has not been called
CREATE TEMP VIEW planted_ran AS
	SELECT (SELECT is_called FROM regress_pb_evil.ran_count) AS any_ran,
		   (SELECT string_agg(DISTINCT what, ', ') FROM regress_pb_evil.ran_log) AS what_ran;
SELECT * FROM planted_ran;

-- the data sets, loaded with the planter's schema before pg_catalog
SET search_path = :path;
SET client_min_messages = warning;
SELECT dataset FROM polarbench_init('pgbench', scale => 1, partitions => 2, foreign_keys => true);
SELECT dataset FROM polarbench_init('sysbench', tables => 2, table_size => 1000, parallel => 2);
SELECT dataset FROM polarbench_init('ycsb', records => 1000);
SELECT dataset FROM polarbench_init('tpcc', warehouses => 1, foreign_keys => true);
RESET client_min_messages;
RESET search_path;
SELECT * FROM planted_ran;

-- every workload the server lists, so that each kind's statements run:
-- TPC-C long enough for every transaction type, by last name too; YCSB's
-- load phase with new keys.  First with the path in settings, pg_catalog
-- not named, as its place is by default
CREATE TEMP VIEW every_workload AS
	SELECT w.name, w.kind,
		   CASE WHEN w.kind = 'tpcc' THEN 300 ELSE 20 END AS transactions,
		   CASE WHEN w.name = 'ycsb-load'
				THEN '{"insertstart": 2000, "recordcount": 3000}'::jsonb END AS options
	  FROM polarbench_workloads w
	 -- a replay needs a capture, which only a server log makes: the planted
	 -- path of its own queries is test/t/405_replay_planted.pl's
	 WHERE w.name <> 'replay';
SET client_min_messages = warning;
SELECT w.name, r.transactions, r.failed, r.errors
  FROM every_workload w,
	   LATERAL polarbench_run(w.name, clients => 1, random_seed => 7,
			transactions => w.transactions, options => w.options,
			settings => '{"search_path": "regress_pb_tables, regress_pb_evil"}') r;
RESET client_min_messages;
SELECT * FROM planted_ran;
-- then with the caller's path, which names pg_catalog after the schema
SET client_min_messages = warning;
SET search_path = :path;
SELECT dataset FROM polarbench_init('ycsb', records => 1000);
SELECT w.name, r.transactions, r.failed, r.errors
  FROM every_workload w,
	   LATERAL polarbench_run(w.name, clients => 1, random_seed => 7,
			transactions => w.transactions, options => w.options) r;
RESET client_min_messages;
RESET search_path;
SELECT run_id AS tpcc_run FROM polarbench_runs WHERE workload = 'tpcc'
 ORDER BY run_id DESC LIMIT 1 \gset
SELECT operation, operations > 0 AS ran
  FROM polarbench_operations WHERE run_id = :tpcc_run ORDER BY operation;
SELECT (figures->'tpcc'->>'by_last_name')::int > 0 AS by_last_name
  FROM polarbench_runs WHERE run_id = :tpcc_run;
SELECT * FROM planted_ran;

-- a background run, a sweep, TPC-C's consistency conditions
SET search_path = :path;
SELECT polarbench_start('tpcc', transactions => 100, random_seed => 7) AS background \gset
SELECT workload, transactions FROM polarbench_wait(:background);
SET client_min_messages = warning;
SELECT sweep_id AS sweep FROM polarbench_sweep('oltp_read_write', clients => ARRAY[1, 2],
		transactions => 5, repeat => 2) LIMIT 1 \gset
RESET client_min_messages;
SELECT pg_catalog.count(*) AS conditions FROM polarbench_tpcc_check();
RESET search_path;
SELECT * FROM planted_ran;

-- every report, comparison, document and view
SELECT pg_catalog.min(run_id) AS sweep_1, pg_catalog.max(run_id) AS sweep_2
  FROM polarbench_runs WHERE sweep_id = :sweep AND clients = 1 \gset
SELECT pg_catalog.min(run_id) AS sweep_3, pg_catalog.max(run_id) AS sweep_4
  FROM polarbench_runs WHERE sweep_id = :sweep AND clients = 2 \gset
SET search_path = :path;
SET client_min_messages = warning;
SELECT pg_catalog.bool_and(pg_catalog.length(polarbench_report(r.run_id, s.style))
						   OPERATOR(pg_catalog.>) 0) AS reported
  FROM polarbench_runs r,
	   pg_catalog.unnest(ARRAY['pgbench', 'sysbench', 'ycsb', 'tpcc', 'json']) s(style)
 WHERE r.run_id OPERATOR(pg_catalog.>=) :sweep;
SELECT pg_catalog.count(*) OPERATOR(pg_catalog.>) 0 AS compared
  FROM polarbench_compare(ARRAY[:sweep_1, :sweep_2]::bigint[], ARRAY[:sweep_3, :sweep_4]::bigint[]);
SELECT pg_catalog.count(*) OPERATOR(pg_catalog.>) 0 AS compared
  FROM polarbench_compare(:tpcc_run, :background);
SELECT pg_catalog.count(*) OPERATOR(pg_catalog.>) 0 AS compared
  FROM polarbench_steadiness(:tpcc_run);
SELECT pg_catalog.count(*) OPERATOR(pg_catalog.>) 0 AS compared
  FROM polarbench_compare_figures('{1, 1.1, 1.2}', '{2, 2.1, 2.3}'), polarbench_interval('{1, 2}');
SELECT pg_catalog.count(*) OPERATOR(pg_catalog.>) 0 AS tabled
  FROM polarbench_sweep_table(:sweep, 'tps', compare_to => 1);
SELECT polarbench_record(polarbench_run_document(:tpcc_run), 'elsewhere') IS NOT NULL AS recorded;
SELECT pg_catalog.count(*) OPERATOR(pg_catalog.>) 0 AS histogram
  FROM polarbench_histogram(:tpcc_run);
SELECT pg_catalog.count(*) AS rows FROM polarbench_runs, polarbench_progress,
	polarbench_statements, polarbench_operations, polarbench_clients, polarbench_histograms,
	polarbench_wait_events, polarbench_live, polarbench_workloads, polarbench_datasets
 WHERE false;
SELECT pg_catalog.count(*) OPERATOR(pg_catalog.>) 0 AS rows FROM polarbench_operations
 WHERE throughput IS NOT NULL;
SELECT pg_catalog.count(*) OPERATOR(pg_catalog.>) 0 AS rows FROM polarbench_wait_events
 WHERE share IS NOT NULL;
RESET client_min_messages;
RESET search_path;
SELECT * FROM planted_ran;

-- the extension's views, defaults and constraints are bound when it is
-- created: in a database where the role planted all of it in the
-- extension's schema before CREATE EXTENSION, none is bound to a planted
-- object, and nothing planted runs
SELECT pg_catalog.pg_get_functiondef('regress_pb_evil.plant(name)'::regprocedure) AS plant_function \gset
SELECT current_database() AS regress_db \gset
CREATE DATABASE regress_pb_planted_early;
\c regress_pb_planted_early
GRANT CREATE ON SCHEMA public TO regress_pb_mallory;
CREATE SCHEMA regress_pb_evil AUTHORIZATION regress_pb_mallory;
SET ROLE regress_pb_mallory;
:plant_function;
SELECT regress_pb_evil.plant('public') > 450 AS planted;
RESET ROLE;
SET client_min_messages = warning;
CREATE EXTENSION polarbench;
RESET client_min_messages;
SET search_path = pg_catalog;
WITH planted AS (
	SELECT 'pg_operator'::regclass AS classid, oid FROM pg_operator
	 WHERE oprowner = 'regress_pb_mallory'::regrole
	UNION ALL
	SELECT 'pg_proc'::regclass, oid FROM pg_proc WHERE proowner = 'regress_pb_mallory'::regrole
	UNION ALL
	SELECT 'pg_type'::regclass, oid FROM pg_type WHERE typowner = 'regress_pb_mallory'::regrole),
members AS (
	SELECT classid, objid FROM pg_depend
	 WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
	   AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'polarbench')),
parts AS (
	SELECT classid, objid FROM members
	UNION ALL
	SELECT 'pg_rewrite'::regclass, r.oid FROM pg_rewrite r
	  JOIN members m ON m.classid = 'pg_class'::regclass AND m.objid = r.ev_class
	UNION ALL
	SELECT 'pg_attrdef'::regclass, a.oid FROM pg_attrdef a
	  JOIN members m ON m.classid = 'pg_class'::regclass AND m.objid = a.adrelid
	UNION ALL
	SELECT 'pg_constraint'::regclass, c.oid FROM pg_constraint c
	  JOIN members m ON m.classid = 'pg_class'::regclass AND m.objid = c.conrelid)
SELECT pg_describe_object(d.classid, d.objid, 0) AS part,
	   pg_describe_object(d.refclassid, d.refobjid, 0) AS bound_to_planted
  FROM pg_depend d
  JOIN parts p ON p.classid = d.classid AND p.objid = d.objid
  JOIN planted q ON q.classid = d.refclassid AND q.oid = d.refobjid
 ORDER BY 1, 2;
SELECT is_called AS any_ran FROM public.ran_count;
RESET search_path;
\c :regress_db
DROP DATABASE regress_pb_planted_early;

SET client_min_messages = warning;
DROP SCHEMA regress_pb_evil, regress_pb_tables CASCADE;
RESET client_min_messages;
DROP ROLE regress_pb_mallory;
