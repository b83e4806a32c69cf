/* polarbench 1.3 to 1.4: reliability, security, and workloads as drivers */

\echo Use "ALTER EXTENSION polarbench UPDATE TO '1.4'" to load this file. \quit

/*
 * The SQL functions' bodies are bound when they are created, with every
 * operator pg_catalog's: parsed at each call, they took the caller's
 * search_path, where another role could have put an operator of its own.
 */
CREATE OR REPLACE FUNCTION polarbench_may_read(run_by oid)
RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE
RETURN pg_catalog.pg_has_role('pg_read_all_stats', 'USAGE')
	OR coalesce((SELECT pg_catalog.pg_has_role(a.oid, 'USAGE')
				   FROM pg_catalog.pg_roles a
				  WHERE a.oid OPERATOR(pg_catalog.=) run_by), false);

CREATE OR REPLACE FUNCTION polarbench_histogram(run_id bigint,
									 OUT latency_from float8,
									 OUT latency_to float8,
									 OUT transactions bigint)
RETURNS SETOF record
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
	SELECT h.latency_from, h.latency_to, h.transactions
	  FROM @extschema@.polarbench_histograms h
	 WHERE h.run_id OPERATOR(pg_catalog.=) polarbench_histogram.run_id
	 ORDER BY h.latency_from;
END;

/*
 * A run's parameters (settings, server settings) as pg_settings would show
 * them to the current role: the value of a superuser-only parameter (or of
 * one this session does not know) is "<insufficient privilege>" unless the
 * role has the privileges of pg_read_all_settings.
 */
CREATE FUNCTION polarbench_shown_settings(settings jsonb)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'polarbench_shown_settings'
LANGUAGE C STRICT STABLE PARALLEL SAFE;

/* The names of a run's scripts, as pgbench's report shows them */
ALTER TABLE polarbench_run_data ADD COLUMN script_names text[];

/*
 * The views show the values of superuser-only parameters to those who may
 * read them, and divide with operators of exact types.
 */
CREATE OR REPLACE VIEW polarbench_runs AS
	SELECT r.run_id, r.workload, r.clients, r.duration, r.transactions_limit,
		   r.progress_interval,
		   CASE WHEN v.may_read THEN r.vars END AS vars,
		   r.random_seed,
		   COALESCE(a.rolname::text, r.run_by::text) AS run_by,
		   s.status, r.started_at, r.ended_at, r.seconds, r.transactions,
		   r.tps, r.statements, r.qps, r.failed, r.latency_avg,
		   r.latency_stddev, r.latency_p50, r.latency_p95, r.latency_p99,
		   r.latency_max, s.error_sqlstate,
		   CASE WHEN v.may_read THEN s.error_message END AS error_message,
		   CASE WHEN v.may_read THEN r.scripts END AS scripts,
		   r.weights, r.options, r.reads, r.writes, r.others, r.errors,
		   r.latency_min, r.latency_p90, r.latency_p999, r.rate,
		   r.latency_limit, r.max_tries, r.warmup, r.counters_only,
		   r.failed_serialization, r.failed_deadlock, r.retried, r.retries,
		   r.skipped, r.late, r.lag_avg, r.lag_max,
		   CASE WHEN v.may_read THEN polarbench_shown_settings(r.settings) END AS settings,
		   CASE WHEN v.may_read THEN polarbench_shown_settings(r.effective_settings) END AS effective_settings,
		   r.server_stats, r.sweep_id, r.sweep_run,
		   r.sweep_set, r.sweep_repeat,
		   CASE WHEN v.may_read THEN polarbench_shown_settings(r.server_settings) END AS server_settings,
		   r.node,
		   CASE WHEN v.may_read THEN r.script_names END AS script_names
	  FROM polarbench_run_data r
	  LEFT JOIN pg_catalog.pg_roles a ON a.oid = r.run_by
	  CROSS JOIN LATERAL (SELECT polarbench_may_read(r.run_by) AS may_read) v
	  CROSS JOIN LATERAL polarbench_run_status(r.status, r.recorder_pid,
											   r.started_at, r.error_sqlstate,
											   r.error_message) s;

CREATE OR REPLACE VIEW polarbench_operations AS
	SELECT o.run_id, o.operation, o.operations, o.errors, o.latency_avg,
		   o.latency_min, o.latency_max, o.latency_p95, o.latency_p99,
		   o.operations::float8 / nullif(r.seconds, 0) AS throughput,
		   o.latency_p50, o.latency_p90, o.latency_p999
	  FROM polarbench_operation_data o
	  JOIN polarbench_run_data r USING (run_id);

CREATE OR REPLACE VIEW polarbench_wait_events AS
	SELECT run_id, wait_event_type, wait_event, samples,
		   samples::float8 / (sum(samples) OVER (PARTITION BY run_id))::float8 AS share
	  FROM polarbench_wait_event_data;

/*
 * polarbench_run and polarbench_start take the scripts' names, for
 * pgbench's report, and polarbench_report takes options.  A function's
 * arguments change only with the function dropped, and with it the
 * privileges granted on it: they are named here, to be granted again.
 */
DO $$
DECLARE
	grant_list text;
BEGIN
	SELECT pg_catalog.string_agg(DISTINCT pg_catalog.format('GRANT EXECUTE ON FUNCTION %I.%I TO %I;',
															n.nspname, p.proname, r.rolname), ' ')
	  INTO grant_list
	  FROM pg_catalog.pg_proc p
	  JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) p.pronamespace
	 CROSS JOIN LATERAL pg_catalog.aclexplode(p.proacl) a
	  JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) a.grantee
	 WHERE n.nspname OPERATOR(pg_catalog.=) '@extschema@'
	   AND p.proname OPERATOR(pg_catalog.=) ANY (ARRAY['polarbench_run', 'polarbench_start']::pg_catalog.name[])
	   AND a.grantee OPERATOR(pg_catalog.<>) p.proowner
	   AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE';
	IF grant_list IS NOT NULL THEN
		RAISE WARNING 'the privileges granted on polarbench_run and polarbench_start are dropped with them'
			USING HINT = 'Grant them again on the new functions: ' OPERATOR(pg_catalog.||) grant_list;
	END IF;
END
$$;

DROP FUNCTION polarbench_run(text, int, float8, bigint, int, text, int, text[],
	int[], jsonb, bigint, int, jsonb, float8, float8, int, float8, boolean,
	jsonb, jsonb);
DROP FUNCTION polarbench_start(text, int, float8, bigint, int, text, int,
	text[], int[], jsonb, bigint, int, jsonb, float8, float8, int, float8,
	boolean, jsonb, jsonb);
DROP FUNCTION polarbench_report(bigint, text);

/*
 * Start a benchmark run and wait for its end.  workload names built-in
 * scripts, comma separated, each with an optional @weight as pgbench's -b;
 * script and scripts give custom scripts in pgbench's language, with
 * script_weight and weights as pgbench's -f file@weight.  workload may
 * instead name one of sysbench's OLTP workloads (oltp_read_write, ...) or
 * YCSB's (ycsb-a .. ycsb-f, ycsb-load), whose options (sysbench's, YCSB's
 * properties) go in options; polarbench_workloads lists them all, with
 * their options.  script_names names the scripts in pgbench's report, as
 * pgbench names them by their files.  Latencies are in milliseconds.
 */
CREATE FUNCTION polarbench_run(
	workload		text DEFAULT NULL,
	clients			int DEFAULT 1,
	duration		float8 DEFAULT NULL,
	transactions	bigint DEFAULT NULL,
	progress		int DEFAULT 0,
	script			text DEFAULT NULL,
	script_weight	int DEFAULT 1,
	scripts			text[] DEFAULT NULL,
	weights			int[] DEFAULT NULL,
	vars			jsonb DEFAULT NULL,
	random_seed		bigint DEFAULT NULL,
	scale			int DEFAULT NULL,
	options			jsonb DEFAULT NULL,
	rate			float8 DEFAULT NULL,
	latency_limit	float8 DEFAULT NULL,
	max_tries		int DEFAULT 1,
	warmup			float8 DEFAULT 0,
	counters_only	boolean DEFAULT false,
	settings		jsonb DEFAULT NULL,
	server_settings	jsonb DEFAULT NULL,
	script_names	text[] DEFAULT NULL)
RETURNS polarbench_result
AS 'MODULE_PATHNAME', 'polarbench_run'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_run(text, int, float8, bigint, int, text,
	int, text[], int[], jsonb, bigint, int, jsonb, float8, float8, int, float8,
	boolean, jsonb, jsonb, text[]) FROM PUBLIC;

/*
 * Start a run in the background: polarbench_run's arguments, checked
 * before anything starts; returns the run's id as soon as it is recorded
 * and its clients are released.  The run goes on after the calling
 * statement and transaction end, and holds no snapshot of the caller.
 */
CREATE FUNCTION polarbench_start(
	workload		text DEFAULT NULL,
	clients			int DEFAULT 1,
	duration		float8 DEFAULT NULL,
	transactions	bigint DEFAULT NULL,
	progress		int DEFAULT 0,
	script			text DEFAULT NULL,
	script_weight	int DEFAULT 1,
	scripts			text[] DEFAULT NULL,
	weights			int[] DEFAULT NULL,
	vars			jsonb DEFAULT NULL,
	random_seed		bigint DEFAULT NULL,
	scale			int DEFAULT NULL,
	options			jsonb DEFAULT NULL,
	rate			float8 DEFAULT NULL,
	latency_limit	float8 DEFAULT NULL,
	max_tries		int DEFAULT 1,
	warmup			float8 DEFAULT 0,
	counters_only	boolean DEFAULT false,
	settings		jsonb DEFAULT NULL,
	server_settings	jsonb DEFAULT NULL,
	script_names	text[] DEFAULT NULL)
RETURNS bigint
AS 'MODULE_PATHNAME', 'polarbench_start'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_start(text, int, float8, bigint, int, text,
	int, text[], int[], jsonb, bigint, int, jsonb, float8, float8, int, float8,
	boolean, jsonb, jsonb, text[]) FROM PUBLIC;

/*
 * A finished run as the tool its user knows would have printed it: style
 * 'pgbench', 'sysbench', 'ycsb' or 'json' (every figure); by default the
 * style of the workload's tool (polarbench_workloads.report_style).
 * options asks a pgbench report for each statement's figures
 * ({"statements": true}, pgbench's -r; by default they are shown) and for
 * the failures by kind ({"failures_detailed": true}, pgbench's
 * --failures-detailed; by default, when there are any).
 */
CREATE FUNCTION polarbench_report(run_id bigint, style text DEFAULT NULL,
								  options jsonb DEFAULT NULL)
RETURNS text
AS 'MODULE_PATHNAME', 'polarbench_report'
LANGUAGE C STABLE PARALLEL RESTRICTED;

/*
 * polarbench_init takes warehouses, for TPC-C's data set, which
 * polarbench_tpcc_check checks.  As above, the privileges granted on the
 * function go with it: they are named, to be granted again.
 */
DO $$
DECLARE
	grant_list text;
BEGIN
	SELECT pg_catalog.string_agg(DISTINCT pg_catalog.format('GRANT EXECUTE ON FUNCTION %I.%I TO %I;',
															n.nspname, p.proname, r.rolname), ' ')
	  INTO grant_list
	  FROM pg_catalog.pg_proc p
	  JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) p.pronamespace
	 CROSS JOIN LATERAL pg_catalog.aclexplode(p.proacl) a
	  JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) a.grantee
	 WHERE n.nspname OPERATOR(pg_catalog.=) '@extschema@'
	   AND p.proname OPERATOR(pg_catalog.=) 'polarbench_init'
	   AND a.grantee OPERATOR(pg_catalog.<>) p.proowner
	   AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE';
	IF grant_list IS NOT NULL THEN
		RAISE WARNING 'the privileges granted on polarbench_init are dropped with it'
			USING HINT = 'Grant them again on the new function: ' OPERATOR(pg_catalog.||) grant_list;
	END IF;
END
$$;

DROP FUNCTION polarbench_init(text, int, int, int, bigint, int, int, int,
	int, boolean, int, text, boolean, boolean, boolean, boolean);

/*
 * Create and fill the tables of a benchmark's data set, as the calling
 * role: 'pgbench' (what pgbench -i -s scale makes), 'sysbench' (sbtest1..
 * sbtest<tables> of table_size rows, as sysbench's oltp prepare), 'ycsb'
 * (usertable of records rows of fields text fields of field_length
 * characters) or 'tpcc' (TPC-C's nine tables for warehouses warehouses,
 * and tpcc_load; over a TPC-C data set of fewer warehouses, the missing
 * ones are added).  parallel > 1 spreads the load over background workers,
 * each committing its tables on its own; fillfactor, unlogged, partitions,
 * partition_method and foreign_keys are pgbench -i's options (foreign_keys
 * TPC-C's too); drop => false refuses to replace tables already there;
 * progress => true sends pgbench -i's progress lines as notices;
 * wal_compression => true compresses the page images the load writes to
 * WAL when wal_compression is off and the role may set it (by default, for
 * the data sets whose pages compress: pgbench's).
 */
CREATE FUNCTION polarbench_init(
	dataset				text,
	scale				int DEFAULT 1,
	tables				int DEFAULT 1,
	table_size			int DEFAULT 10000,
	records				bigint DEFAULT 1000,
	fields				int DEFAULT 10,
	field_length		int DEFAULT 100,
	parallel			int DEFAULT 1,
	fillfactor			int DEFAULT 100,
	unlogged			boolean DEFAULT false,
	partitions			int DEFAULT 0,
	partition_method	text DEFAULT 'range',
	foreign_keys		boolean DEFAULT false,
	drop				boolean DEFAULT true,
	progress			boolean DEFAULT false,
	wal_compression		boolean DEFAULT NULL,
	warehouses			int DEFAULT 1)
RETURNS polarbench_init_result
AS 'MODULE_PATHNAME', 'polarbench_init'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_init(text, int, int, int, bigint, int, int,
	int, int, boolean, int, text, boolean, boolean, boolean, boolean, int)
	FROM PUBLIC;

/*
 * TPC-C's consistency conditions (clause 3.3.2.1 to 3.3.2.12), checked on
 * the TPC-C tables the caller's search_path finds, as the caller: one row
 * per condition, with the number of rows (warehouses, districts, orders,
 * order lines or customers) that break it and the first five of them.
 */
CREATE FUNCTION polarbench_tpcc_check(
	OUT condition int, OUT statement text, OUT offending bigint,
	OUT sample jsonb)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'polarbench_tpcc_check'
LANGUAGE C STRICT STABLE PARALLEL RESTRICTED;

/*
 * Every workload polarbench_run() takes by name: its kind (whose driver
 * runs it), what it is, whether it writes with its default options (a hot
 * standby runs only those that do not), the report style of its tool, and
 * its options (for options =>): each one's name, type, default, range or
 * values, and what it means.
 */
CREATE FUNCTION polarbench_workload_list(
	OUT name text, OUT kind text, OUT description text, OUT writes boolean,
	OUT report_style text, OUT options jsonb)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'polarbench_workload_list'
LANGUAGE C STRICT STABLE PARALLEL SAFE;

CREATE VIEW polarbench_workloads AS
	SELECT name, kind, description, writes, report_style, options
	  FROM polarbench_workload_list();

GRANT SELECT ON polarbench_workloads TO PUBLIC;

/*
 * Every data set polarbench_init() loads, with the arguments of
 * polarbench_init() it reads of its own (beyond parallel, fillfactor,
 * unlogged, drop, progress and wal_compression, which every one reads):
 * each one's name, type, default and what it means for that data set.
 */
CREATE FUNCTION polarbench_dataset_list(
	OUT dataset text, OUT description text, OUT argument text,
	OUT argument_description text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'polarbench_dataset_list'
LANGUAGE C STRICT STABLE PARALLEL SAFE;

CREATE VIEW polarbench_datasets AS
	SELECT l.dataset AS name, l.description,
		   coalesce(jsonb_agg(jsonb_build_object(
						'name', l.argument,
						'type', pg_catalog.format_type(a.type, NULL),
						'default', pg_catalog.regexp_replace(
							pg_catalog.pg_get_function_arg_default(f.oid, a.n::int),
							'^''(.*)''::[a-z ]+$', '\1'),
						'description', l.argument_description) ORDER BY a.n)
					FILTER (WHERE l.argument IS NOT NULL), '[]') AS options
	  FROM polarbench_dataset_list() WITH ORDINALITY l(dataset, description, argument,
													 argument_description, ord)
	 CROSS JOIN (SELECT '@extschema@.polarbench_init(text, int, int, int, bigint, int, int, int, int, boolean, int, text, boolean, boolean, boolean, boolean, int)'::pg_catalog.regprocedure::pg_catalog.oid AS oid) f
	  LEFT JOIN LATERAL (SELECT u.n, p.proargtypes[u.n - 1] AS type
						   FROM pg_catalog.pg_proc p,
								unnest(p.proargnames) WITH ORDINALITY u(argname, n)
						  WHERE p.oid = f.oid AND u.argname = l.argument) a ON true
	 GROUP BY l.dataset, l.description
	 ORDER BY min(l.ord);

GRANT SELECT ON polarbench_datasets TO PUBLIC;
