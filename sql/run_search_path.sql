-- polarbench's own SQL (reports, documents, the views' functions, the
-- lookups before a run or a load) takes nothing from the caller's
-- search_path: a role that may create objects in public plants functions,
-- aggregates and operators that are exact matches for what that SQL calls
-- (so that they would beat pg_catalog's polymorphic or coercing ones), and
-- a superuser whose search_path puts public before pg_catalog then reads
-- every report.  None of the planted objects runs, and the role stays what
-- it was.  (The workloads' own statements resolve names as their tools'
-- do, with the running role's search_path.)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS polarbench;
SELECT dataset FROM polarbench_init('pgbench', scale => 1);
SELECT dataset FROM polarbench_init('sysbench', tables => 1, table_size => 100);
SELECT dataset FROM polarbench_init('ycsb', records => 100);
RESET client_min_messages;
CREATE ROLE regress_pb_planter;
GRANT CREATE ON SCHEMA public TO regress_pb_planter;

SET ROLE regress_pb_planter;
-- what every planted object does: say so, and try to make its role a
-- superuser
CREATE FUNCTION public.planted(what text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	RAISE WARNING 'planted % ran as %', what, current_user;
	BEGIN
		EXECUTE 'ALTER ROLE regress_pb_planter SUPERUSER';
	EXCEPTION WHEN OTHERS THEN
		NULL;
	END;
END $$;
CREATE FUNCTION public.cardinality(integer[]) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('cardinality(integer[])'); RETURN pg_catalog.cardinality($1); END $$;
CREATE FUNCTION public.array_to_string(integer[], text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('array_to_string(integer[], text)'); RETURN pg_catalog.array_to_string($1, $2); END $$;
CREATE FUNCTION public.array_position(text[], text) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('array_position(text[], text)'); RETURN pg_catalog.array_position($1, $2); END $$;
CREATE FUNCTION public.to_jsonb(public.polarbench_runs) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('to_jsonb(polarbench_runs)'); RETURN pg_catalog.to_jsonb($1); END $$;
CREATE FUNCTION public.to_jsonb(public.polarbench_statements) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('to_jsonb(polarbench_statements)'); RETURN pg_catalog.to_jsonb($1); END $$;
CREATE FUNCTION public.jsonb_pretty(jsonb) RETURNS text LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('jsonb_pretty(jsonb)'); RETURN pg_catalog.jsonb_pretty($1); END $$;
CREATE FUNCTION public.concat(text, integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('concat(text, integer)'); RETURN pg_catalog.concat($1, $2); END $$;
CREATE FUNCTION public.jsonb_agg_step(jsonb, jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('jsonb_agg(jsonb)'); RETURN coalesce($1, '[]') || pg_catalog.jsonb_build_array($2); END $$;
CREATE AGGREGATE public.jsonb_agg(jsonb) (SFUNC = public.jsonb_agg_step, STYPE = jsonb);
CREATE FUNCTION public.count_step(bigint) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('count(*)'); RETURN coalesce($1, 0) + 1; END $$;
CREATE AGGREGATE public.count(*) (SFUNC = public.count_step, STYPE = bigint, INITCOND = '0');
CREATE FUNCTION public.max_step(integer, integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('max(integer)'); RETURN greatest($1, $2); END $$;
CREATE AGGREGATE public.max(integer) (SFUNC = public.max_step, STYPE = integer);
CREATE FUNCTION public.sum_step(numeric, bigint) RETURNS numeric LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('sum(bigint)'); RETURN coalesce($1, 0) + $2; END $$;
CREATE AGGREGATE public.sum(bigint) (SFUNC = public.sum_step, STYPE = numeric);
CREATE FUNCTION public.int8_eq(bigint, bigint) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('=(bigint, bigint)'); RETURN $1 OPERATOR(pg_catalog.=) $2; END $$;
CREATE OPERATOR public.= (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = public.int8_eq);
CREATE FUNCTION public.oid_eq(oid, oid) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('=(oid, oid)'); RETURN $1 OPERATOR(pg_catalog.=) $2; END $$;
CREATE OPERATOR public.= (LEFTARG = oid, RIGHTARG = oid, FUNCTION = public.oid_eq);
CREATE FUNCTION public.jsonb_field(jsonb, text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('->>(jsonb, text)'); RETURN $1 OPERATOR(pg_catalog.->>) $2; END $$;
CREATE OPERATOR public.->> (LEFTARG = jsonb, RIGHTARG = text, FUNCTION = public.jsonb_field);
CREATE FUNCTION public.jsonb_minus(jsonb, text) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('-(jsonb, text)'); RETURN $1 OPERATOR(pg_catalog.-) $2; END $$;
CREATE OPERATOR public.- (LEFTARG = jsonb, RIGHTARG = text, FUNCTION = public.jsonb_minus);
CREATE FUNCTION public.int4_minus(integer, integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('-(integer, integer)'); RETURN $1 OPERATOR(pg_catalog.-) $2; END $$;
CREATE OPERATOR public.- (LEFTARG = integer, RIGHTARG = integer, FUNCTION = public.int4_minus);
-- what the comparisons and the sweep table's intervals and marks call
CREATE FUNCTION public.int8_gt_int4(bigint, integer) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('>(bigint, integer)'); RETURN $1 OPERATOR(pg_catalog.>) $2; END $$;
CREATE OPERATOR public.> (LEFTARG = bigint, RIGHTARG = integer, FUNCTION = public.int8_gt_int4);
CREATE FUNCTION public.name_eq_text(name, text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('=(name, text)'); RETURN $1 OPERATOR(pg_catalog.=) $2; END $$;
CREATE OPERATOR public.= (LEFTARG = name, RIGHTARG = text, FUNCTION = public.name_eq_text);
CREATE FUNCTION public.round(numeric, integer) RETURNS numeric LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('round(numeric, integer)'); RETURN pg_catalog.round($1, $2); END $$;
CREATE FUNCTION public.jsonb_array_elements_text(jsonb) RETURNS SETOF text LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('jsonb_array_elements_text(jsonb)'); RETURN QUERY SELECT pg_catalog.jsonb_array_elements_text($1); END $$;
CREATE FUNCTION public.to_jsonb(double precision[]) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('to_jsonb(double precision[])'); RETURN pg_catalog.to_jsonb($1); END $$;
RESET ROLE;

-- a superuser with public first on its search_path runs and reads
SET search_path = public, pg_catalog;
SELECT workload, transactions FROM polarbench_run('tpcb-like', transactions => 5);
SELECT workload, transactions FROM polarbench_run('oltp_read_only', transactions => 2);
SELECT workload, transactions FROM polarbench_run('ycsb-c', transactions => 5);
SELECT run_id AS ycsb_run FROM polarbench_runs ORDER BY run_id DESC LIMIT 1 \gset
SELECT run_id AS sysbench_run FROM polarbench_runs ORDER BY run_id DESC OFFSET 1 LIMIT 1 \gset
SELECT run_id AS pgbench_run FROM polarbench_runs ORDER BY run_id DESC OFFSET 2 LIMIT 1 \gset
SELECT length(polarbench_report(:pgbench_run)) > 0 AS pgbench_style,
       length(polarbench_report(:sysbench_run)) > 0 AS sysbench_style,
       length(polarbench_report(:ycsb_run)) > 0 AS ycsb_style,
       length(polarbench_report(:ycsb_run, 'json')) > 0 AS json_style,
       length(polarbench_report(:pgbench_run, 'ycsb')) > 0 AS ycsb_of_pgbench;
SELECT polarbench_run_document(:ycsb_run) OPERATOR(pg_catalog.?) 'run' AS document;
SELECT pg_catalog.count(*) OPERATOR(pg_catalog.>) 0 AS histogram FROM polarbench_histogram(:pgbench_run);
SELECT pg_catalog.count(*) OPERATOR(pg_catalog.>) 0 AS runs_view FROM polarbench_runs;
SELECT pg_catalog.count(*) OPERATOR(pg_catalog.>=) 0 AS operations_view FROM polarbench_operations;
SELECT pg_catalog.count(*) OPERATOR(pg_catalog.>=) 0 AS wait_events_view FROM polarbench_wait_events;
SELECT transactions FROM polarbench_wait(:pgbench_run);
-- comparisons, steadiness, and a sweep's table with intervals and marks
SELECT pg_catalog.count(*) AS comparison_rows,
	   pg_catalog.count(verdict) OPERATOR(pg_catalog.=) 0 AS no_verdict
  FROM polarbench_compare(:pgbench_run, :pgbench_run);
SELECT pg_catalog.count(*) AS comparison_rows
  FROM polarbench_compare(ARRAY[:pgbench_run, :sysbench_run]::bigint[], ARRAY[:ycsb_run]::bigint[]);
SELECT note IS NOT NULL AS says_why, drifted FROM polarbench_steadiness(:pgbench_run);
SELECT verdict FROM polarbench_compare_figures('{1, 1.1}', '{2, 2.1}');
SELECT center IS NOT NULL AS interval FROM polarbench_interval('{1, 1.1}');
SET client_min_messages = warning;
SELECT sweep_id AS sweep FROM polarbench_sweep('select-only', transactions => 5, repeat => 2,
		settings => ARRAY['{"work_mem": "4MB"}', '{"work_mem": "8MB"}']::jsonb[]) LIMIT 1 \gset
RESET client_min_messages;
SELECT pg_catalog.count(*) AS table_lines FROM polarbench_sweep_table(:sweep, 'tps', compare_to => 1);
SET client_min_messages = warning;
SELECT dataset FROM polarbench_init('ycsb', records => 100);
SELECT dataset FROM polarbench_init('sysbench', tables => 1, table_size => 100, parallel => 2);
RESET client_min_messages;
RESET search_path;

SELECT rolsuper AS planter_is_superuser FROM pg_roles WHERE rolname = 'regress_pb_planter';

-- the views are bound when the extension is created, as a superuser whose
-- search_path is the extension's schema: in a database where the role had
-- planted exact matches for what polarbench_datasets calls before that,
-- the view calls pg_catalog's all the same
SELECT current_database() AS regress_db \gset
CREATE DATABASE regress_pb_planted;
\c regress_pb_planted
GRANT CREATE ON SCHEMA public TO regress_pb_planter;
SET ROLE regress_pb_planter;
CREATE FUNCTION public.planted(what text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	RAISE WARNING 'planted % ran as %', what, current_user;
	BEGIN
		EXECUTE 'ALTER ROLE regress_pb_planter SUPERUSER';
	EXCEPTION WHEN OTHERS THEN
		NULL;
	END;
END $$;
CREATE FUNCTION public.jsonb_agg_step(jsonb, jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('jsonb_agg(jsonb)'); RETURN coalesce($1, '[]') || pg_catalog.jsonb_build_array($2); END $$;
CREATE AGGREGATE public.jsonb_agg(jsonb) (SFUNC = public.jsonb_agg_step, STYPE = jsonb);
CREATE FUNCTION public.unnest(text[]) RETURNS SETOF text LANGUAGE plpgsql AS $$
BEGIN PERFORM public.planted('unnest(text[])'); RETURN QUERY SELECT pg_catalog.unnest($1); END $$;
RESET ROLE;
SET client_min_messages = warning;
CREATE EXTENSION polarbench;
RESET client_min_messages;
SELECT count(*) > 0 AS datasets, bool_and(jsonb_typeof(options) = 'array') AS with_options
  FROM polarbench_datasets;
SELECT rolsuper AS planter_is_superuser FROM pg_roles WHERE rolname = 'regress_pb_planter';
DROP OWNED BY regress_pb_planter;
\c :regress_db
DROP DATABASE regress_pb_planted;

DROP OWNED BY regress_pb_planter;
REVOKE CREATE ON SCHEMA public FROM regress_pb_planter;
DROP ROLE regress_pb_planter;
