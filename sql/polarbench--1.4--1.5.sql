/* polarbench 1.4 to 1.5 */

\echo Use "ALTER EXTENSION polarbench UPDATE TO '1.5'" to load this file. \quit

/*
 * polarbench_sweep_table marks no cell whose figures or whose column
 * compare_to's hold a zero (polarbench_compare_figures refuses figures
 * that are not above zero).
 */
CREATE OR REPLACE FUNCTION polarbench_sweep_table(sweep_id bigint, metric text DEFAULT 'qps',
									   compare_to int DEFAULT NULL)
RETURNS SETOF text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	columns		text[];
	widths		int[];
	line		text;
	width0		int := 7;
	cells		jsonb := '{}';
	figures		jsonb := '{}';
	clients		int[] := '{}';
	cr			record;
	iv			record;
	cmp			record;
	cell		text;
	key			text;
	ref			text;
	by_vars		boolean;
	by_options	boolean;
	repeated	boolean := false;
	col_runs	jsonb := '{}';
	d			record;
BEGIN
	IF metric IS NULL OR metric NOT IN ('qps', 'tps', 'latency_avg', 'latency_p50',
			'latency_p90', 'latency_p95', 'latency_p99', 'latency_p999',
			'latency_max', 'failed') THEN
		RAISE EXCEPTION 'unrecognized sweep metric "%"', metric
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'The metrics are qps, tps, latency_avg, latency_p50, latency_p90, latency_p95, latency_p99, latency_p999, latency_max and failed.';
	END IF;
	IF compare_to IS NOT NULL AND metric = 'failed' THEN
		RAISE EXCEPTION 'compare_to marks cells of throughput or latency, not of failed transactions'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Give a metric of throughput (qps, tps) or of latency.';
	END IF;
	-- the columns: each setting set with its variable and option sets, in order
	SELECT count(DISTINCT coalesce(r.vars::text, '')) > 1,
		   count(DISTINCT coalesce(r.options::text, '')) > 1
	  INTO by_vars, by_options
	  FROM @extschema@.polarbench_runs r
	 WHERE r.sweep_id = polarbench_sweep_table.sweep_id;
	SELECT array_agg(label ORDER BY first) INTO columns
	  FROM (SELECT 'set ' || r.sweep_set
				   || coalesce(' server ' || r.server_settings::text, '')
				   || coalesce(' ' || r.settings::text, '')
				   || CASE WHEN by_vars THEN coalesce(' vars ' || r.vars::text, '') ELSE '' END
				   || CASE WHEN by_options THEN coalesce(' options ' || r.options::text, '') ELSE '' END AS label,
				   min(r.sweep_run) AS first
			  FROM @extschema@.polarbench_runs r
			 WHERE r.sweep_id = polarbench_sweep_table.sweep_id
			 GROUP BY 1) l;
	IF columns IS NULL THEN
		RAISE EXCEPTION 'sweep % does not exist', polarbench_sweep_table.sweep_id
			USING ERRCODE = 'undefined_object',
				  HINT = 'A sweep''s id is the run_id of its first run; its runs are in polarbench_runs with that sweep_id.';
	END IF;
	IF compare_to < 1 OR compare_to > cardinality(columns) THEN
		RAISE EXCEPTION 'compare_to must be a column of sweep %, from 1 to %',
			polarbench_sweep_table.sweep_id, cardinality(columns)
			USING ERRCODE = 'invalid_parameter_value';
	END IF;

	-- every cell, as text, by client count and column, and its figures
	FOR cr IN EXECUTE format($q$
		SELECT r.clients, array_position($2, 'set ' || r.sweep_set
				   || coalesce(' server ' || r.server_settings::text, '')
				   || coalesce(' ' || r.settings::text, '')
				   || CASE WHEN $3 THEN coalesce(' vars ' || r.vars::text, '') ELSE '' END
				   || CASE WHEN $4 THEN coalesce(' options ' || r.options::text, '') ELSE '' END) AS col,
			   array_agg(r.%1$I::float8 ORDER BY r.sweep_run) AS figures,
			   array_agg(r.run_id ORDER BY r.sweep_run) AS run_ids,
			   CASE WHEN count(*) = 1 THEN round(min(r.%1$I)::numeric, 3)::text
					ELSE round(percentile_cont(0.5) WITHIN GROUP (ORDER BY r.%1$I)::numeric, 3)::text
						 || coalesce(' ±' || round((100 * (max(r.%1$I) - min(r.%1$I)) / 2
								/ nullif(percentile_cont(0.5) WITHIN GROUP (ORDER BY r.%1$I), 0))::numeric, 1)
						 || '%%', '')
			   END AS cell
		  FROM @extschema@.polarbench_runs r
		 WHERE r.sweep_id = $1
		 GROUP BY r.clients, 2$q$, metric)
		USING polarbench_sweep_table.sweep_id, columns, by_vars, by_options
	LOOP
		key := cr.clients || ':' || cr.col;
		cell := cr.cell;
		IF cardinality(cr.figures) >= 2 THEN
			repeated := true;
			SELECT * INTO iv FROM @extschema@.polarbench_interval(cr.figures);
			IF iv.center IS NOT NULL THEN
				cell := round(iv.center::numeric, 3) || ' [' || round(iv.low::numeric, 3)
						|| ', ' || round(iv.high::numeric, 3) || ']';
			END IF;
		END IF;
		cells := cells || jsonb_build_object(key, coalesce(cell, ''));
		figures := figures || jsonb_build_object(key, to_jsonb(cr.figures));
		col_runs := jsonb_set(col_runs, ARRAY[cr.col::text],
							  coalesce(col_runs->(cr.col::text), '[]') || to_jsonb(cr.run_ids));
		IF NOT cr.clients = ANY (clients) THEN
			clients := clients || cr.clients;
		END IF;
	END LOOP;
	SELECT array_agg(x ORDER BY x) INTO clients FROM unnest(clients) x;

	-- the marks: each cell against column compare_to's at its client count
	IF compare_to IS NOT NULL THEN
		IF NOT repeated THEN
			RAISE EXCEPTION 'sweep % has no repetitions to compare', polarbench_sweep_table.sweep_id
				USING ERRCODE = 'object_not_in_prerequisite_state',
					  HINT = 'A cell of one run has no interval: run the sweep with repeat => 2 or more.';
		END IF;
		FOR n IN 1..cardinality(clients) LOOP
			ref := clients[n] || ':' || compare_to;
			CONTINUE WHEN figures->ref IS NULL;
			FOR c IN 1..cardinality(columns) LOOP
				key := clients[n] || ':' || c;
				CONTINUE WHEN c = compare_to OR figures->key IS NULL;
				-- a figure of zero has no log: no mark, as the cell has no interval
				CONTINUE WHEN EXISTS (SELECT FROM jsonb_array_elements_text(figures->ref || figures->key) f
									   WHERE f::float8 <= 0);
				SELECT * INTO cmp
				  FROM @extschema@.polarbench_compare_figures(
						ARRAY(SELECT jsonb_array_elements_text(figures->ref)::float8),
						ARRAY(SELECT jsonb_array_elements_text(figures->key)::float8),
						lower_is_better => metric LIKE 'latency%');
				IF cmp.verdict IS NOT NULL THEN
					cells := jsonb_set(cells, ARRAY[key], to_jsonb((cells->>key) || ' ' || cmp.verdict));
				END IF;
			END LOOP;
		END LOOP;
	END IF;

	widths := array_fill(0, ARRAY[cardinality(columns)]);
	FOR c IN 1..cardinality(columns) LOOP
		widths[c] := length(columns[c]);
		FOR n IN 1..cardinality(clients) LOOP
			widths[c] := greatest(widths[c], length(coalesce(cells->>(clients[n] || ':' || c), '')));
		END LOOP;
	END LOOP;

	line := lpad('clients', width0);
	FOR c IN 1..cardinality(columns) LOOP
		line := line || ' | ' || rpad(columns[c], widths[c]);
	END LOOP;
	RETURN NEXT line;
	line := repeat('-', width0);
	FOR c IN 1..cardinality(columns) LOOP
		line := line || '-+-' || repeat('-', widths[c]);
	END LOOP;
	RETURN NEXT line;
	FOR n IN 1..cardinality(clients) LOOP
		line := lpad(clients[n]::text, width0);
		FOR c IN 1..cardinality(columns) LOOP
			line := line || ' | ' || lpad(coalesce(cells->>(clients[n] || ':' || c), ''), widths[c]);
		END LOOP;
		RETURN NEXT line;
	END LOOP;

	-- where a column's runs ran otherwise than column 1's, beyond the
	-- server settings the sweep sets itself
	FOR c IN 2..cardinality(columns) LOOP
		FOR d IN
			SELECT e.*
			  FROM @extschema@.polarbench_environment_diff(
					ARRAY(SELECT jsonb_array_elements_text(col_runs->'1')::bigint),
					ARRAY(SELECT jsonb_array_elements_text(col_runs->(c::text))::bigint)) e
			 WHERE e.item NOT IN (SELECT 'settings.' || k
									FROM @extschema@.polarbench_runs r,
										 jsonb_object_keys(r.server_settings) k
								   WHERE r.sweep_id = polarbench_sweep_table.sweep_id)
		LOOP
			RETURN NEXT format('column %s''s environment differs from column 1''s: %s %s, not %s',
							   c, d.item, coalesce(d.value_b, 'none'), coalesce(d.value_a, 'none'));
		END LOOP;
	END LOOP;
END
$$;

/*
 * polarbench_init's arguments that only some data sets read default to
 * NULL, so that a data set can refuse one given that it does not read;
 * distributed and shard_count lay a data set out on a Citus cluster.  A
 * function's arguments change only with the function dropped, and with it
 * the privileges granted on it: they are named here, to be granted again.
 * The old one goes once polarbench_datasets, which names it, is dropped.
 */
CREATE FUNCTION polarbench_init(
	dataset				text,
	scale				int DEFAULT NULL,
	tables				int DEFAULT NULL,
	table_size			int DEFAULT NULL,
	records				bigint DEFAULT NULL,
	fields				int DEFAULT NULL,
	field_length		int DEFAULT NULL,
	parallel			int DEFAULT 1,
	fillfactor			int DEFAULT 100,
	unlogged			boolean DEFAULT false,
	partitions			int DEFAULT NULL,
	partition_method	text DEFAULT NULL,
	foreign_keys		boolean DEFAULT NULL,
	drop				boolean DEFAULT true,
	progress			boolean DEFAULT false,
	wal_compression		boolean DEFAULT NULL,
	warehouses			int DEFAULT NULL,
	distributed			boolean DEFAULT false,
	shard_count			int DEFAULT NULL)
RETURNS polarbench_init_result
AS 'MODULE_PATHNAME', 'polarbench_init'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_init(text, int, int, int, bigint, int, int,
	int, int, boolean, int, text, boolean, boolean, boolean, boolean, int,
	boolean, int)
	FROM PUBLIC;

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
	 WHERE p.oid OPERATOR(pg_catalog.=) '@extschema@.polarbench_init(text, int, int, int, bigint, int, int, int, int, boolean, int, text, boolean, boolean, boolean, boolean, int)'::pg_catalog.regprocedure
	   AND a.grantee OPERATOR(pg_catalog.<>) p.proowner
	   AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE';
	IF grant_list IS NOT NULL THEN
		RAISE WARNING 'the privileges granted on polarbench_init are dropped with it'
			USING HINT = 'Grant them again on the new one: ' OPERATOR(pg_catalog.||) grant_list;
	END IF;
END
$$;

/*
 * polarbench_dataset_list returns each argument's default, which the
 * signature of polarbench_init no longer holds, and polarbench_datasets
 * shows it.  The privileges granted on them go with them: they are named,
 * to be granted again.
 */
DO $$
DECLARE
	grant_list text;
BEGIN
	SELECT pg_catalog.string_agg(g, ' ') INTO grant_list FROM (
		SELECT DISTINCT pg_catalog.format('GRANT EXECUTE ON FUNCTION %I.%I TO %I;',
										  n.nspname, p.proname, r.rolname) AS g
		  FROM pg_catalog.pg_proc p
		  JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) p.pronamespace
		 CROSS JOIN LATERAL pg_catalog.aclexplode(p.proacl) a
		  JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) a.grantee
		 WHERE n.nspname OPERATOR(pg_catalog.=) '@extschema@'
		   AND p.proname OPERATOR(pg_catalog.=) 'polarbench_dataset_list'
		   AND a.grantee OPERATOR(pg_catalog.<>) p.proowner
		   AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'
		UNION
		SELECT DISTINCT pg_catalog.format('GRANT %s ON %I.%I TO %I;',
										  a.privilege_type, n.nspname, c.relname, r.rolname)
		  FROM pg_catalog.pg_class c
		  JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
		 CROSS JOIN LATERAL pg_catalog.aclexplode(c.relacl) a
		  JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) a.grantee
		 WHERE n.nspname OPERATOR(pg_catalog.=) '@extschema@'
		   AND c.relname OPERATOR(pg_catalog.=) 'polarbench_datasets'
		   AND a.grantee OPERATOR(pg_catalog.<>) c.relowner) grants;
	IF grant_list IS NOT NULL THEN
		RAISE WARNING 'the privileges granted on polarbench_dataset_list and polarbench_datasets are dropped with them'
			USING HINT = 'Grant them again on the new ones: ' OPERATOR(pg_catalog.||) grant_list;
	END IF;
END
$$;

DROP VIEW polarbench_datasets;
DROP FUNCTION polarbench_dataset_list();
DROP FUNCTION polarbench_init(text, int, int, int, bigint, int, int, int, int,
	boolean, int, text, boolean, boolean, boolean, boolean, int);

/*
 * Every data set polarbench_init() loads, with the arguments of
 * polarbench_init() it reads of its own (beyond parallel, fillfactor,
 * unlogged, drop, progress and wal_compression, which every one reads):
 * each one's name, type, default (the value taken when it is left out:
 * the signature's default is NULL, so that a data set can refuse one it
 * does not read) and what it means for that data set.
 */
CREATE FUNCTION polarbench_dataset_list(
	OUT dataset text, OUT description text, OUT argument text,
	OUT argument_description text, OUT argument_default text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'polarbench_dataset_list'
LANGUAGE C STRICT STABLE PARALLEL SAFE;

CREATE VIEW polarbench_datasets AS
	SELECT l.dataset AS name, l.description,
		   coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
						'name', l.argument,
						'type', pg_catalog.format_type(a.type, NULL),
						'default', l.argument_default,
						'description', l.argument_description) ORDER BY a.n)
					FILTER (WHERE l.argument IS NOT NULL), '[]') AS options
	  FROM polarbench_dataset_list() WITH ORDINALITY l(dataset, description, argument,
													 argument_description,
													 argument_default, ord)
	 CROSS JOIN (SELECT '@extschema@.polarbench_init(text, int, int, int, bigint, int, int, int, int, boolean, int, text, boolean, boolean, boolean, boolean, int, boolean, int)'::pg_catalog.regprocedure::pg_catalog.oid AS oid) f
	  LEFT JOIN LATERAL (SELECT u.n, p.proargtypes[u.n OPERATOR(pg_catalog.-) 1] AS type
						   FROM pg_catalog.pg_proc p,
								pg_catalog.unnest(p.proargnames) WITH ORDINALITY u(argname, n)
						  WHERE p.oid OPERATOR(pg_catalog.=) f.oid
							AND u.argname OPERATOR(pg_catalog.=) l.argument) a ON true
	 GROUP BY l.dataset, l.description
	 ORDER BY pg_catalog.min(l.ord);

GRANT SELECT ON polarbench_datasets TO PUBLIC;

/*
 * A run with a duration gives the transactions in flight at its end a
 * grace (end_grace, or polarbench.end_grace), then cancels their
 * statements and counts them in cut_off.  The runs recorded before have
 * neither: their columns stay NULL.
 */
ALTER TABLE polarbench_run_data ADD COLUMN end_grace float8;
ALTER TABLE polarbench_run_data ADD COLUMN cut_off bigint;

/*
 * Where each run ran (polarbench_environments): the runs recorded before
 * have none, their environment stays NULL, and the view says so.
 */
ALTER TABLE polarbench_run_data ADD COLUMN environment jsonb;

/*
 * pgbench's continue_on_error counts the transactions that failed with an
 * error other than a serialization failure or a deadlock: failed_other.
 * The runs recorded before had none (such an error failed the run), but
 * their column stays NULL, as for the figures a run did not keep.
 */
ALTER TABLE polarbench_run_data ADD COLUMN failed_other bigint;
ALTER TABLE polarbench_progress_data ADD COLUMN failed_other bigint;

/*
 * A run's environment (where it ran: server, settings, machine, data set)
 * as the current role may see it: to those polarbench_may_read() allows,
 * with its settings' values as polarbench_shown_settings() shows them.
 */
CREATE FUNCTION polarbench_shown_environment(environment jsonb, run_by oid)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT CASE WHEN @extschema@.polarbench_may_read(run_by) THEN
		environment OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object('settings',
			@extschema@.polarbench_shown_settings(environment OPERATOR(pg_catalog.->) 'settings'))
	END
$$;


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
		   CASE WHEN v.may_read THEN r.script_names END AS script_names,
		   r.figures, r.end_grace, r.cut_off,
		   polarbench_shown_environment(r.environment, r.run_by) AS environment,
		   r.failed_other
	  FROM polarbench_run_data r
	  LEFT JOIN pg_catalog.pg_roles a ON a.oid = r.run_by
	  CROSS JOIN LATERAL (SELECT polarbench_may_read(r.run_by) AS may_read) v
	  CROSS JOIN LATERAL polarbench_run_status(r.status, r.recorder_pid,
											   r.started_at, r.error_sqlstate,
											   r.error_message) s;

ALTER TYPE polarbench_result ADD ATTRIBUTE cut_off bigint;
ALTER TYPE polarbench_result ADD ATTRIBUTE failed_other bigint;

CREATE OR REPLACE VIEW polarbench_progress AS
	SELECT run_id, elapsed, transactions, tps, qps, latency_avg,
		   latency_stddev, failed, reads, writes, others, errors, latency_p95,
		   latency_p50, latency_p90, latency_p99, latency_p999, latency_max,
		   failed_serialization, failed_deadlock, retried, retries, skipped,
		   late, lag_avg, latency_histogram, failed_other
	  FROM polarbench_progress_data;

/*
 * polarbench_run, polarbench_start and polarbench_sweep take end_grace.  A
 * function's arguments change only with the function dropped, and with it
 * the privileges granted on it: they are named here, to be granted again.
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
	   AND p.proname OPERATOR(pg_catalog.=) ANY (ARRAY['polarbench_run', 'polarbench_start', 'polarbench_sweep']::pg_catalog.name[])
	   AND a.grantee OPERATOR(pg_catalog.<>) p.proowner
	   AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE';
	IF grant_list IS NOT NULL THEN
		RAISE WARNING 'the privileges granted on polarbench_run, polarbench_start and polarbench_sweep are dropped with them'
			USING HINT = 'Grant them again on the new functions: ' OPERATOR(pg_catalog.||) grant_list;
	END IF;
END
$$;

DROP FUNCTION polarbench_run(text, int, float8, bigint, int, text, int, text[],
	int[], jsonb, bigint, int, jsonb, float8, float8, int, float8, boolean,
	jsonb, jsonb, text[]);
DROP FUNCTION polarbench_start(text, int, float8, bigint, int, text, int,
	text[], int[], jsonb, bigint, int, jsonb, float8, float8, int, float8,
	boolean, jsonb, jsonb, text[]);
DROP FUNCTION polarbench_sweep(text, int[], jsonb[], jsonb[], jsonb[],
	float8, bigint, int, float8, text, bigint, int, float8, float8, int, jsonb[]);

/*
 * Start a benchmark run and wait for its end.  workload names built-in
 * scripts, comma separated, each with an optional @weight as pgbench's -b;
 * script and scripts give custom scripts in pgbench's language, with
 * script_weight and weights as pgbench's -f file@weight.  workload may
 * instead name one of sysbench's OLTP workloads (oltp_read_write, ...) or
 * YCSB's (ycsb-a .. ycsb-f, ycsb-load), whose options (sysbench's, YCSB's
 * properties) go in options; polarbench_workloads lists them all, with
 * their options.  script_names names the scripts in pgbench's report, as
 * pgbench names them by their files.  end_grace is how many seconds the
 * transactions in flight at the end of the duration may take before their
 * statements are canceled (polarbench.end_grace if NULL); those are
 * counted in cut_off.  nodes => 'all' on a Citus coordinator runs the
 * clients on every node of the cluster (clients per node) and records one
 * run, their sum, with each node's figures in figures->'nodes'; 'local'
 * (or NULL) runs on this server.  Latencies are in milliseconds.
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
	script_names	text[] DEFAULT NULL,
	end_grace		float8 DEFAULT NULL,
	nodes			text DEFAULT NULL)
RETURNS polarbench_result
AS 'MODULE_PATHNAME', 'polarbench_run'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_run(text, int, float8, bigint, int, text,
	int, text[], int[], jsonb, bigint, int, jsonb, float8, float8, int, float8,
	boolean, jsonb, jsonb, text[], float8, text) FROM PUBLIC;

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
	script_names	text[] DEFAULT NULL,
	end_grace		float8 DEFAULT NULL,
	nodes			text DEFAULT NULL)
RETURNS bigint
AS 'MODULE_PATHNAME', 'polarbench_start'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_start(text, int, float8, bigint, int, text,
	int, text[], int[], jsonb, bigint, int, jsonb, float8, float8, int, float8,
	boolean, jsonb, jsonb, text[], float8, text) FROM PUBLIC;

/*
 * Every combination of clients, server setting sets, setting sets,
 * variable sets and option sets, each one run as polarbench_run runs it,
 * repeat times: for each repetition, for each server setting set, for each
 * setting set, for each variable set, for each option
 * set, every client count in order.  One row per run; the runs are
 * recorded with the sweep's id, the id of its first run.
 */
CREATE FUNCTION polarbench_sweep(
	workload		text DEFAULT NULL,
	clients			int[] DEFAULT '{1}',
	settings		jsonb[] DEFAULT NULL,
	vars			jsonb[] DEFAULT NULL,
	options			jsonb[] DEFAULT NULL,
	duration		float8 DEFAULT NULL,
	transactions	bigint DEFAULT NULL,
	repeat			int DEFAULT 1,
	warmup			float8 DEFAULT 0,
	script			text DEFAULT NULL,
	random_seed		bigint DEFAULT NULL,
	scale			int DEFAULT NULL,
	rate			float8 DEFAULT NULL,
	latency_limit	float8 DEFAULT NULL,
	max_tries		int DEFAULT 1,
	server_settings	jsonb[] DEFAULT NULL,
	end_grace		float8 DEFAULT NULL,
	nodes			text DEFAULT NULL,
	OUT sweep_id bigint, OUT run_id bigint, OUT repetition int,
	OUT setting_set int, OUT run_clients int, OUT run_settings jsonb,
	OUT run_vars jsonb, OUT run_options jsonb, OUT run_transactions bigint,
	OUT tps float8, OUT qps float8, OUT latency_avg float8,
	OUT latency_p95 float8, OUT latency_p99 float8, OUT failed bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'polarbench_sweep'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_sweep(text, int[], jsonb[], jsonb[], jsonb[],
	float8, bigint, int, float8, text, bigint, int, float8, float8, int, jsonb[],
	float8, text) FROM PUBLIC;

/* the live figures show the transactions cut off so far */
DROP VIEW polarbench_live;
DROP FUNCTION polarbench_live_runs();

/*
 * The figures of the last second of every run that goes on; cut_off, the
 * transactions the run's end has cut off so far
 */
CREATE FUNCTION polarbench_live_runs(
	OUT run_id bigint, OUT warming_up boolean, OUT elapsed float8,
	OUT clients int, OUT transactions bigint, OUT tps float8, OUT qps float8,
	OUT failed_per_second float8, OUT retried_per_second float8,
	OUT latency_avg float8, OUT latency_p50 float8, OUT latency_p90 float8,
	OUT latency_p95 float8, OUT latency_p99 float8, OUT latency_p999 float8,
	OUT latency_max float8, OUT lag_avg float8, OUT cut_off bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'polarbench_live_runs'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

CREATE VIEW polarbench_live AS
	SELECT l.run_id, r.workload, r.run_by, l.warming_up, l.elapsed,
		   l.clients, l.transactions, l.tps, l.qps, l.failed_per_second,
		   l.retried_per_second, l.latency_avg, l.latency_p50, l.latency_p90,
		   l.latency_p95, l.latency_p99, l.latency_p999, l.latency_max,
		   l.lag_avg, l.cut_off
	  FROM polarbench_live_runs() l
	  JOIN polarbench_runs r USING (run_id);

GRANT SELECT ON polarbench_live TO PUBLIC;

/*
 * polarbench_operations: throughput's nullif() compares float8 with
 * float8, an operator pg_catalog has, so that one of (float8, integer)
 * in the extension's schema, planted before the view was made, cannot
 * match it better.
 */
CREATE OR REPLACE VIEW polarbench_operations AS
	SELECT o.run_id, o.operation, o.operations, o.errors, o.latency_avg,
		   o.latency_min, o.latency_max, o.latency_p95, o.latency_p99,
		   o.operations::float8 / nullif(r.seconds, 0::float8) AS throughput,
		   o.latency_p50, o.latency_p90, o.latency_p999, o.retries,
		   o.rollbacks
	  FROM polarbench_operation_data o
	  JOIN polarbench_run_data r USING (run_id);

/*
 * Captures: a server log's workload, read by polarbench_capture_log(), kept
 * in three tables and shown in three views, private to the capture's role as
 * a run's texts are.
 */
CREATE TABLE polarbench_capture_data (
	capture_id			bigserial PRIMARY KEY,
	captured_by			oid NOT NULL,
	captured_at			timestamptz NOT NULL,
	source				text NOT NULL,
	format				text NOT NULL CHECK (format IN ('csvlog', 'stderr', 'hooks')),
	filters				jsonb NOT NULL,
	first_at			timestamptz,
	last_at				timestamptz,
	sessions			int NOT NULL,
	statements			bigint NOT NULL,
	errors				bigint NOT NULL,
	skipped				bigint NOT NULL,
	skipped_by			jsonb NOT NULL,
	lines				bigint NOT NULL
);

/* A session of a capture: one connection of the log */
CREATE TABLE polarbench_capture_session_data (
	capture_id			bigint NOT NULL
		REFERENCES polarbench_capture_data ON DELETE CASCADE,
	session_no			int NOT NULL,
	session_id			text NOT NULL,
	role_name			text NOT NULL,
	database_name		text NOT NULL,
	application_name	text,
	connected_at		timestamptz,
	disconnected_at		timestamptz,
	first_at			timestamptz NOT NULL,
	last_at				timestamptz NOT NULL,
	statements			bigint NOT NULL,
	errors				bigint NOT NULL,
	PRIMARY KEY (capture_id, session_no)
);

/*
 * A session's statements, up to a thousand a row, from first_statement on:
 * each field an array with an element per statement.  names is NULL for
 * the simple protocol; a statement's parameters are params from the
 * previous one's param_ends (0 for the first) to its own, their types
 * param_types' elements there (NULL where not known: a log's).
 */
CREATE TABLE polarbench_capture_chunk_data (
	capture_id			bigint NOT NULL
		REFERENCES polarbench_capture_data ON DELETE CASCADE,
	session_no			int NOT NULL,
	first_statement		bigint NOT NULL,
	at					timestamptz[] NOT NULL,
	lines				bigint[] NOT NULL,
	texts				text[] NOT NULL,
	names				text[] NOT NULL,
	param_ends			int[] NOT NULL,
	params				text[] NOT NULL,
	param_types			oid[] NOT NULL,
	durations			float8[] NOT NULL,
	sqlstates			text[] NOT NULL,
	errors				text[] NOT NULL,
	shapes				int[] NOT NULL,
	PRIMARY KEY (capture_id, session_no, first_statement)
);

/*
 * A statement's shape: its text with its constants made parameters (when
 * parameterized), or its text; the statements of that shape, their errors
 * and the durations the log recorded (ms).  A statement of shape 0 has
 * none of its own.
 */
CREATE TABLE polarbench_capture_shape_data (
	capture_id			bigint NOT NULL
		REFERENCES polarbench_capture_data ON DELETE CASCADE,
	shape_no			int NOT NULL,
	shape				text NOT NULL,
	parameterized		boolean NOT NULL,
	statements			bigint NOT NULL,
	errors				bigint NOT NULL,
	logged_avg			float8,
	logged_p50			float8,
	logged_p95			float8,
	logged_p99			float8,
	logged_max			float8,
	PRIMARY KEY (capture_id, shape_no)
);

SELECT pg_catalog.pg_extension_config_dump('polarbench_capture_data', '');
SELECT pg_catalog.pg_extension_config_dump('polarbench_capture_data_capture_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('polarbench_capture_session_data', '');
SELECT pg_catalog.pg_extension_config_dump('polarbench_capture_chunk_data', '');
SELECT pg_catalog.pg_extension_config_dump('polarbench_capture_shape_data', '');

REVOKE ALL ON polarbench_capture_data, polarbench_capture_session_data,
	polarbench_capture_chunk_data, polarbench_capture_shape_data FROM PUBLIC;

/*
 * Read the server log at path (csvlog, or stderr with log_line_prefix =
 * '%m|%u|%d|%c|') and keep its sessions and statements as a capture of the
 * calling role, filtered by database, role, application and time range.
 * Needs superuser or the privileges of pg_read_server_files, as COPY FROM
 * a file.
 */
CREATE FUNCTION polarbench_capture_log(path text, format text DEFAULT NULL,
									   database text DEFAULT NULL,
									   role text DEFAULT NULL,
									   application text DEFAULT NULL,
									   since timestamptz DEFAULT NULL,
									   until timestamptz DEFAULT NULL,
									   time_zone text DEFAULT NULL,
									   OUT capture_id bigint, OUT sessions int,
									   OUT statements bigint, OUT errors bigint,
									   OUT skipped bigint, OUT seconds float8)
RETURNS record
AS 'MODULE_PATHNAME', 'polarbench_capture_log'
LANGUAGE C CALLED ON NULL INPUT VOLATILE;
REVOKE ALL ON FUNCTION polarbench_capture_log(text, text, text, text, text,
	timestamptz, timestamptz, text) FROM PUBLIC;

/*
 * Capture the top-level statements of client sessions as they run, through
 * hooks (polarbench in shared_preload_libraries), filtered by database,
 * role and application, up to max_size bytes of statements (and
 * polarbench.capture_memory); polarbench_capture_stop() ends it and keeps
 * what it captured as a capture of the role that started it.  The same
 * privileges as polarbench_capture_log.
 */
CREATE FUNCTION polarbench_capture_start(database text DEFAULT NULL,
										 role text DEFAULT NULL,
										 application text DEFAULT NULL,
										 max_size bigint DEFAULT NULL)
RETURNS void
AS 'MODULE_PATHNAME', 'polarbench_capture_start'
LANGUAGE C CALLED ON NULL INPUT VOLATILE;
REVOKE ALL ON FUNCTION polarbench_capture_start(text, text, text, bigint) FROM PUBLIC;

CREATE FUNCTION polarbench_capture_stop(OUT capture_id bigint, OUT sessions int,
										OUT statements bigint, OUT errors bigint,
										OUT skipped bigint, OUT seconds float8)
RETURNS record
AS 'MODULE_PATHNAME', 'polarbench_capture_stop'
LANGUAGE C STRICT VOLATILE;
REVOKE ALL ON FUNCTION polarbench_capture_stop() FROM PUBLIC;

/* Drop a capture: its role, roles with its privileges, superusers */
CREATE FUNCTION polarbench_capture_drop(capture_id bigint)
RETURNS boolean
AS 'MODULE_PATHNAME', 'polarbench_capture_drop'
LANGUAGE C STRICT VOLATILE;

/*
 * The captures: figures public, texts (the file, the filters) only to
 * those polarbench_may_read() allows for the capture's role.
 */
CREATE VIEW polarbench_captures AS
	SELECT c.capture_id,
		   COALESCE(a.rolname::text, c.captured_by::text) AS captured_by,
		   c.captured_at,
		   CASE WHEN v.may_read THEN c.source END AS source,
		   c.format,
		   CASE WHEN v.may_read THEN c.filters END AS filters,
		   c.first_at, c.last_at, c.sessions, c.statements, c.errors, c.skipped,
		   c.skipped_by, c.lines
	  FROM polarbench_capture_data c
	  LEFT JOIN pg_catalog.pg_roles a ON a.oid = c.captured_by
	  CROSS JOIN LATERAL (SELECT polarbench_may_read(c.captured_by) AS may_read) v;

CREATE VIEW polarbench_capture_sessions AS
	SELECT s.capture_id, s.session_no,
		   CASE WHEN v.may_read THEN s.session_id END AS session_id,
		   CASE WHEN v.may_read THEN s.role_name END AS role_name,
		   CASE WHEN v.may_read THEN s.database_name END AS database_name,
		   CASE WHEN v.may_read THEN s.application_name END AS application_name,
		   s.connected_at, s.disconnected_at, s.first_at, s.last_at,
		   s.statements, s.errors
	  FROM polarbench_capture_session_data s
	  JOIN polarbench_capture_data c ON c.capture_id = s.capture_id
	  CROSS JOIN LATERAL (SELECT polarbench_may_read(c.captured_by) AS may_read) v;

/*
 * A capture's statements, one row each: when it started, its log line, its
 * protocol (simple, or extended with its prepared statement's name, '' for
 * the unnamed one), its text and parameters, the duration and the error
 * the log recorded.
 */
CREATE VIEW polarbench_capture_statements AS
	SELECT k.capture_id, k.session_no,
		   k.first_statement + u.n - 1 AS statement_no,
		   u.at, u.line,
		   CASE WHEN u.name IS NULL THEN 'simple' ELSE 'extended' END AS protocol,
		   CASE WHEN v.may_read THEN u.name END AS prepared_name,
		   CASE WHEN v.may_read THEN u.statement END AS statement,
		   CASE WHEN v.may_read AND u.name IS NOT NULL
				THEN k.params[COALESCE(k.param_ends[u.n::int - 1], 0) + 1 : k.param_ends[u.n::int]]
		   END AS parameters,
		   u.duration, u.sqlstate,
		   CASE WHEN v.may_read THEN u.error END AS error,
		   u.shape_no,
		   CASE WHEN v.may_read AND u.name IS NOT NULL
				THEN k.param_types[COALESCE(k.param_ends[u.n::int - 1], 0) + 1 : k.param_ends[u.n::int]]::pg_catalog.regtype[]
		   END AS parameter_types
	  FROM polarbench_capture_chunk_data k
	  JOIN polarbench_capture_data c ON c.capture_id = k.capture_id
	  CROSS JOIN LATERAL (SELECT polarbench_may_read(c.captured_by) AS may_read) v
	  CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(k.at), pg_catalog.unnest(k.lines),
									pg_catalog.unnest(k.texts), pg_catalog.unnest(k.names),
									pg_catalog.unnest(k.durations),
									pg_catalog.unnest(k.sqlstates),
									pg_catalog.unnest(k.errors),
									pg_catalog.unnest(k.shapes))
		   WITH ORDINALITY AS u(at, line, statement, name, duration, sqlstate, error,
								shape_no, n);

/*
 * A capture's shapes: how often each ran, and the latencies the log
 * recorded (ms), against which a replay's are compared.
 */
CREATE VIEW polarbench_capture_shapes AS
	SELECT s.capture_id, s.shape_no,
		   CASE WHEN v.may_read THEN s.shape END AS shape,
		   s.parameterized, s.statements, s.errors, s.logged_avg, s.logged_p50,
		   s.logged_p95, s.logged_p99, s.logged_max
	  FROM polarbench_capture_shape_data s
	  JOIN polarbench_capture_data c ON c.capture_id = s.capture_id
	  CROSS JOIN LATERAL (SELECT polarbench_may_read(c.captured_by) AS may_read) v;

GRANT SELECT ON polarbench_captures, polarbench_capture_sessions,
	polarbench_capture_statements, polarbench_capture_shapes TO PUBLIC;

/*
 * The extension's description, which CREATE EXTENSION takes from
 * polarbench.control and an update keeps: it names TPC-C too.
 */
COMMENT ON EXTENSION polarbench IS 'in-database benchmark clients: pgbench, sysbench, YCSB and TPC-C workloads run by background workers';

/*
 * A run's environment, recorded with it as its caller launched it: the
 * server's version and build (block sizes, segment sizes, assertions, data
 * checksums, JIT and LLVM), polarbench's version, the settings whose
 * source is not the default (the server's, the database's and the role's;
 * the run's own are in polarbench_runs.settings), the extensions, the
 * machine as the server's process sees it (machine_source says from what,
 * machine_unseen what it cannot see), the data set (its size as
 * polarbench_init takes it, its tables, their size on disk, partitions and
 * distribution), the database, who recorded the run and when.  Shown as
 * polarbench_runs shows its texts; a run recorded before polarbench 1.5
 * has none, and its note says so.
 */
CREATE VIEW polarbench_environments AS
	SELECT r.run_id,
		   r.environment IS NOT NULL AS recorded,
		   e.env->'server'->>'version' AS server_version,
		   e.env->'polarbench'->>'version' AS polarbench_version,
		   (e.env->'server'->>'block_size')::int AS block_size,
		   (e.env->'server'->>'wal_block_size')::int AS wal_block_size,
		   e.env->'server'->>'segment_size' AS segment_size,
		   e.env->'server'->>'wal_segment_size' AS wal_segment_size,
		   (e.env->'server'->>'assertions')::boolean AS assertions,
		   (e.env->'server'->>'data_checksums')::boolean AS data_checksums,
		   (e.env->'server'->>'jit')::boolean AS jit,
		   (e.env->'server'->>'llvm')::boolean AS llvm,
		   e.env->'settings' AS settings,
		   e.env->'extensions' AS extensions,
		   e.env->'machine'->>'host' AS host,
		   (e.env->'machine'->>'cpus')::int AS cpus,
		   e.env->'machine'->>'cpu_model' AS cpu_model,
		   (e.env->'machine'->>'memory')::bigint AS memory,
		   e.env->'machine'->>'source' AS machine_source,
		   e.env->'machine'->>'unseen' AS machine_unseen,
		   e.env->'dataset'->>'dataset' AS dataset,
		   (e.env->'dataset'->>'bytes')::bigint AS dataset_bytes,
		   e.env->'dataset' AS dataset_detail,
		   e.env->>'database' AS database,
		   e.env->>'recorded_by' AS recorded_by,
		   (e.env->>'recorded_at')::timestamptz AS recorded_at,
		   e.env AS environment,
		   CASE WHEN r.environment IS NULL THEN
				'not recorded: the run was recorded before polarbench 1.5, or stored from a document without one'
				WHEN e.env IS NULL THEN
				'not shown: only roles that may read the run''s texts see its environment'
		   END AS note
	  FROM polarbench_run_data r
	 CROSS JOIN LATERAL (SELECT polarbench_shown_environment(r.environment, r.run_by) AS env) e;

GRANT SELECT ON polarbench_environments TO PUBLIC;

/*
 * Where the environments of runs a and runs b differ, item by item (a
 * path such as settings.work_mem or machine.cpus) with each side's values,
 * distinct values of a side comma separated, none when the side has no
 * such item; "environment" when the runs of one side have one recorded and
 * those of the other not (or not all).  What changes from one run to the
 * next on any server (who recorded it, when, the data set's size on disk)
 * is left out, and so is an item of a side whose runs have no environment
 * the caller may see.
 */
CREATE FUNCTION polarbench_environment_diff(a bigint[], b bigint[],
											OUT item text, OUT value_a text,
											OUT value_b text)
RETURNS SETOF record
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	WITH RECURSIVE runs(side, run_id) AS (
		SELECT 'a', x FROM unnest(a) x
		UNION
		SELECT 'b', x FROM unnest(b) x
	), envs AS (
		SELECT s.side, s.run_id, e.environment
		  FROM runs s
		  JOIN @extschema@.polarbench_environments e USING (run_id)
	), leaves(side, item, value) AS (
		SELECT v.side, k.key, k.value
		  FROM envs v, jsonb_each(v.environment) k
		UNION ALL
		SELECT l.side, l.item || '.' || k.key, k.value
		  FROM leaves l,
			   jsonb_each(CASE WHEN jsonb_typeof(l.value) = 'object' THEN l.value ELSE '{}' END) k
	), kept AS (
		SELECT side, item, string_agg(DISTINCT value #>> '{}', ', ' ORDER BY value #>> '{}') AS vals
		  FROM leaves
		 WHERE jsonb_typeof(value) <> 'object'
		   AND item NOT IN ('recorded_at', 'recorded_by', 'dataset.bytes',
							'machine.source', 'machine.unseen')
		 GROUP BY side, item
	), recorded AS (
		SELECT side, CASE WHEN bool_and(environment IS NOT NULL) THEN 'recorded'
						  WHEN bool_or(environment IS NOT NULL) THEN 'recorded for some runs'
						  ELSE 'not recorded' END AS vals,
			   bool_or(environment IS NOT NULL) AS seen
		  FROM envs
		 GROUP BY side
	)
	SELECT 'environment', ra.vals, rb.vals
	  FROM recorded ra, recorded rb
	 WHERE ra.side = 'a' AND rb.side = 'b' AND ra.vals <> rb.vals
	UNION ALL
	(SELECT i.item, ka.vals, kb.vals
	   FROM (SELECT DISTINCT k.item FROM kept k) i
	   LEFT JOIN kept ka ON ka.item = i.item AND ka.side = 'a'
	   LEFT JOIN kept kb ON kb.item = i.item AND kb.side = 'b'
	  WHERE ka.vals IS DISTINCT FROM kb.vals
		AND (SELECT count(*) FROM recorded WHERE seen) = 2
	  ORDER BY i.item)
$$;

/*
 * A run's environment as a report prints it: one row per item, its label
 * and its value in words, in the order a reader wants them; one row
 * "environment" with polarbench_environments' note when there is none to
 * show.
 */
CREATE FUNCTION polarbench_environment_items(run_id bigint,
											 OUT label text, OUT value text)
RETURNS SETOF record
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT x.label, x.value FROM (
	SELECT i.n, i.label, i.value
	  FROM @extschema@.polarbench_environments e,
		   LATERAL (VALUES
			(1, 'server', format('PostgreSQL %s; block size %s, WAL block size %s, segment size %s, WAL segment size %s; assertions %s, data checksums %s, JIT %s (%s)',
								 e.server_version, e.block_size, e.wal_block_size, e.segment_size,
								 e.wal_segment_size,
								 CASE WHEN e.assertions THEN 'on' ELSE 'off' END,
								 CASE WHEN e.data_checksums THEN 'on' ELSE 'off' END,
								 CASE WHEN e.jit THEN 'on' ELSE 'off' END,
								 CASE WHEN e.llvm THEN 'built with LLVM' ELSE 'built without LLVM' END)),
			(2, 'polarbench', e.polarbench_version),
			(3, 'machine', format('%s CPUs%s, %s of memory%s%s, host %s',
								  coalesce(e.cpus::text, 'unknown'),
								  coalesce(' (' || e.cpu_model || ')', ''),
								  coalesce(pg_size_pretty(e.memory), 'unknown'),
								  coalesce('; cgroup limit ' || (e.environment->'machine'->>'cgroup_cpus') || ' CPUs', ''),
								  coalesce('; cgroup limit ' || pg_size_pretty((e.environment->'machine'->>'cgroup_memory')::bigint) || ' of memory', ''),
								  coalesce(e.host, 'unknown'))),
			(4, 'machine seen', format('from %s. %s', e.machine_source, e.machine_unseen)),
			(5, 'data set', CASE WHEN e.dataset_detail IS NULL OR jsonb_typeof(e.dataset_detail) <> 'object'
								 THEN 'not described by its workload'
								 ELSE concat_ws('; ',
									 e.dataset || coalesce(' ' || (SELECT string_agg(d.key || ' ' || d.value, ', ' ORDER BY d.key)
																	  FROM jsonb_each_text(e.dataset_detail) d
																	 WHERE d.key NOT IN ('dataset', 'table_names', 'schemas', 'bytes',
																						 'partitions', 'partitioned', 'distribution')), ''),
									 'tables ' || coalesce((SELECT string_agg(t, ', ') FROM jsonb_array_elements_text(e.dataset_detail->'table_names') t), 'none found'),
									 pg_size_pretty(e.dataset_bytes) || ' on disk',
									 CASE WHEN (e.dataset_detail->>'partitions')::int > 0 THEN
										 (e.dataset_detail->>'partitions') || ' partitions ('
										 || (SELECT string_agg(p.key || ' by ' || p.value, ', ' ORDER BY p.key)
											   FROM jsonb_each_text(e.dataset_detail->'partitioned') p) || ')'
										  ELSE 'not partitioned' END,
									 (SELECT 'distributed: ' || string_agg(x.key || ' ' || x.value, ', ' ORDER BY x.key)
										FROM jsonb_each_text(e.dataset_detail->'distribution') x))
							END),
			(6, 'database', e.database),
			(7, 'extensions', (SELECT string_agg(x.key || ' ' || x.value, ', ' ORDER BY x.key)
								 FROM jsonb_each_text(e.extensions) x)),
			(8, 'settings', coalesce((SELECT string_agg(s.key || ' = ' || s.value, ', ' ORDER BY s.key)
										FROM jsonb_each_text(e.settings) s), 'all at their defaults')),
			(9, 'recorded', format('by %s at %s', e.recorded_by, e.recorded_at))) AS i(n, label, value)
	 WHERE e.run_id = polarbench_environment_items.run_id AND e.environment IS NOT NULL
	UNION ALL
	SELECT 0, 'environment', e.note
	  FROM @extschema@.polarbench_environments e
	 WHERE e.run_id = polarbench_environment_items.run_id AND e.environment IS NULL) x
	 ORDER BY x.n
$$;

/*
 * A finished run's report as one self-contained HTML page (inline CSS and
 * SVG; no script, font or image fetched from anywhere): the method, the
 * latency percentiles, throughput and p99 latency over time, the
 * environment, and the report in its tool's words.  paper is the printed
 * page's size, 'A4' or 'letter'.  Everything from the database is
 * HTML-escaped; the caller sees what it may read in the views.
 */
CREATE FUNCTION polarbench_report_html(run_id bigint, paper text DEFAULT 'A4')
RETURNS text
AS 'MODULE_PATHNAME', 'polarbench_report_html'
LANGUAGE C STABLE PARALLEL RESTRICTED;

/*
 * A comparison's report, the same way: polarbench_compare(a, b)'s rows and
 * their ratios with 95% intervals drawn, both sides' runs over time, their
 * percentiles, and the environment of each side's first run.
 */
CREATE FUNCTION polarbench_report_html(a bigint[], b bigint[], paper text DEFAULT 'A4')
RETURNS text
AS 'MODULE_PATHNAME', 'polarbench_compare_report_html'
LANGUAGE C STABLE PARALLEL RESTRICTED;

/*
 * The report of sweeps, the same way (the command-line program's sweep is
 * one sweep a setting set): each one's polarbench_sweep_table(sweep_id,
 * metric), the metric against concurrency with each cell's 95% interval
 * over its repetitions, a line per setting set, the runs' percentiles, and
 * the environment of the first run.
 */
CREATE FUNCTION polarbench_sweep_report_html(sweep_ids bigint[], metric text DEFAULT 'qps',
											 paper text DEFAULT 'A4')
RETURNS text
AS 'MODULE_PATHNAME', 'polarbench_sweep_report_html'
LANGUAGE C STABLE PARALLEL RESTRICTED;

/*
 * On a node of a Citus cluster, called by polarbench_init(..., distributed
 * => true) on the coordinator through Citus, in its transaction: fill the
 * shards named (tables[i]'s shard shards[i], of hash range mins[i] to
 * maxs[i] of its column columns[i]; a reference table's placement, of
 * column '', with all its rows) with their rows of data set dataset loaded
 * with options, a JSON object of named options (polarbench_init's
 * arguments, and what the coordinator decided: seed, load_time...).  Only
 * shards created in the current transaction, into which the caller may
 * insert, are filled.  Returns the rows inserted into the shards of
 * distributed tables, the shards' size on disk, and the rows inserted into
 * the placements of reference tables.
 */
CREATE FUNCTION polarbench_fill_shards(dataset text, options jsonb, tables text[],
									   columns text[], shards text[], mins int[],
									   maxs int[])
RETURNS bigint[]
AS 'MODULE_PATHNAME', 'polarbench_fill_shards'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

/*
 * A run of pgbench scripts with exit_on_abort false goes on when a client
 * aborts alone, and is recorded 'aborted', with the first abort's error.
 */
ALTER TABLE polarbench_run_data
	DROP CONSTRAINT polarbench_run_data_status_check,
	ADD CONSTRAINT polarbench_run_data_status_check
		CHECK (status IN ('running', 'finished', 'failed', 'canceled', 'aborted'));
