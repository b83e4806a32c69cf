
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
	OUT sweep_id bigint, OUT run_id bigint, OUT repetition int,
	OUT setting_set int, OUT run_clients int, OUT run_settings jsonb,
	OUT run_vars jsonb, OUT run_options jsonb, OUT run_transactions bigint,
	OUT tps float8, OUT qps float8, OUT latency_avg float8,
	OUT latency_p95 float8, OUT latency_p99 float8, OUT failed bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'polarbench_sweep'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_sweep(text, int[], jsonb[], jsonb[], jsonb[],
	float8, bigint, int, float8, text, bigint, int, float8, float8, int, jsonb[])
	FROM PUBLIC;

/*
 * A sweep as the reference reports tabulate one: a row per client count, a column
 * per setting set (with its variable and option sets, when they vary),
 * and in each cell
 * the metric (qps, tps, latency_avg, latency_p50 .. latency_p999,
 * latency_max, failed): with repetitions, their median and, after it, the
 * spread, half the range as a share of the median.
 */
CREATE FUNCTION polarbench_sweep_table(sweep_id bigint, metric text DEFAULT 'qps')
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
	clients		int[] := '{}';
	cr			record;
	by_vars		boolean;
	by_options	boolean;
BEGIN
	IF metric IS NULL OR metric NOT IN ('qps', 'tps', 'latency_avg', 'latency_p50',
			'latency_p90', 'latency_p95', 'latency_p99', 'latency_p999',
			'latency_max', 'failed') THEN
		RAISE EXCEPTION 'unrecognized sweep metric "%"', metric
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'The metrics are qps, tps, latency_avg, latency_p50, latency_p90, latency_p95, latency_p99, latency_p999, latency_max and failed.';
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

	-- every cell, as text, by client count and column
	FOR cr IN EXECUTE format($q$
		SELECT r.clients, array_position($2, 'set ' || r.sweep_set
				   || coalesce(' server ' || r.server_settings::text, '')
				   || coalesce(' ' || r.settings::text, '')
				   || CASE WHEN $3 THEN coalesce(' vars ' || r.vars::text, '') ELSE '' END
				   || CASE WHEN $4 THEN coalesce(' options ' || r.options::text, '') ELSE '' END) AS col,
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
		cells := cells || jsonb_build_object(cr.clients || ':' || cr.col, coalesce(cr.cell, ''));
		IF NOT cr.clients = ANY (clients) THEN
			clients := clients || cr.clients;
		END IF;
	END LOOP;
	SELECT array_agg(x ORDER BY x) INTO clients FROM unnest(clients) x;

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
END
$$;
