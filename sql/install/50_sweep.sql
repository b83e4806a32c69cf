
/* polarbench install script: sweeps, and the reference reports' tables made of them */

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

/*
 * A sweep as the reference reports tabulate one: a row per client count, a column
 * per setting set (with its variable and option sets, when they vary),
 * and in each cell the metric (qps, tps, latency_avg, latency_p50 ..
 * latency_p999, latency_max, failed): with repetitions, their geometric
 * mean and its 95% interval (Student's t on the logs; their median and
 * spread, half the range as a share of the median, when a figure is
 * zero or they are all the same).  compare_to => N marks every other cell faster, slower or no
 * difference shown against column N's at the same client count, as
 * polarbench_compare_figures() compares them.  Lines after the table say
 * where a column's runs ran otherwise than column 1's
 * (polarbench_environment_diff()), beyond the server settings the sweep
 * sets itself.
 */
CREATE FUNCTION polarbench_sweep_table(sweep_id bigint, metric text DEFAULT 'qps',
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
