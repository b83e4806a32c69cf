/* polarbench 1.1 to 1.2: latency percentiles, rate, retries, warm-up */

\echo Use "ALTER EXTENSION polarbench UPDATE TO '1.2'" to load this file. \quit

/* what runs, their progress and their statements keep */
ALTER TABLE polarbench_run_data
	ADD COLUMN latency_p90 float8,
	ADD COLUMN latency_p999 float8,
	ADD COLUMN rate float8,
	ADD COLUMN latency_limit float8,
	ADD COLUMN max_tries int,
	ADD COLUMN warmup float8,
	ADD COLUMN counters_only boolean,
	ADD COLUMN failed_serialization bigint,
	ADD COLUMN failed_deadlock bigint,
	ADD COLUMN retried bigint,
	ADD COLUMN retries bigint,
	ADD COLUMN skipped bigint,
	ADD COLUMN late bigint,
	ADD COLUMN lag_avg float8,
	ADD COLUMN lag_max float8,
	ADD COLUMN segment bigint,
	ADD COLUMN settings jsonb,
	ADD COLUMN effective_settings jsonb,
	ADD COLUMN server_stats jsonb,
	ADD COLUMN sweep_id bigint,
	ADD COLUMN sweep_run int,
	ADD COLUMN sweep_set int,
	ADD COLUMN sweep_repeat int,
	ADD COLUMN server_settings jsonb;

CREATE INDEX polarbench_run_data_sweep_id_idx ON polarbench_run_data (sweep_id);

ALTER TABLE polarbench_progress_data
	ADD COLUMN latency_p50 float8,
	ADD COLUMN latency_p90 float8,
	ADD COLUMN latency_p99 float8,
	ADD COLUMN latency_p999 float8,
	ADD COLUMN latency_max float8,
	ADD COLUMN failed_serialization bigint,
	ADD COLUMN failed_deadlock bigint,
	ADD COLUMN retried bigint,
	ADD COLUMN retries bigint,
	ADD COLUMN skipped bigint,
	ADD COLUMN late bigint,
	ADD COLUMN lag_avg float8;

ALTER TABLE polarbench_statement_data
	ADD COLUMN retries bigint,
	ADD COLUMN latency_p50 float8,
	ADD COLUMN latency_p90 float8,
	ADD COLUMN latency_p95 float8,
	ADD COLUMN latency_p99 float8,
	ADD COLUMN latency_p999 float8;

/* the CPU time each client took, from the end of the warm-up to its stop */
ALTER TABLE polarbench_client_data
	ADD COLUMN cpu_seconds float8;

ALTER TABLE polarbench_operation_data
	ADD COLUMN latency_p50 float8,
	ADD COLUMN latency_p90 float8,
	ADD COLUMN latency_p999 float8;

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
		   CASE WHEN v.may_read THEN r.settings END AS settings,
		   CASE WHEN v.may_read THEN r.effective_settings END AS effective_settings,
		   r.server_stats, r.sweep_id, r.sweep_run,
		   r.sweep_set, r.sweep_repeat, r.server_settings
	  FROM polarbench_run_data r
	  LEFT JOIN pg_catalog.pg_roles a ON a.oid = r.run_by
	  CROSS JOIN LATERAL (SELECT polarbench_may_read(r.run_by) AS may_read) v
	  CROSS JOIN LATERAL polarbench_run_status(r.status, r.recorder_pid,
											   r.started_at, r.error_sqlstate,
											   r.error_message) s;

CREATE OR REPLACE VIEW polarbench_progress AS
	SELECT run_id, elapsed, transactions, tps, qps, latency_avg,
		   latency_stddev, failed, reads, writes, others, errors, latency_p95,
		   latency_p50, latency_p90, latency_p99, latency_p999, latency_max,
		   failed_serialization, failed_deadlock, retried, retries, skipped,
		   late, lag_avg
	  FROM polarbench_progress_data;

CREATE OR REPLACE VIEW polarbench_statements AS
	SELECT s.run_id, s.script_no, s.command_no, s.line,
		   CASE WHEN polarbench_may_read(r.run_by) THEN s.command END AS command,
		   s.executions, s.failures, s.latency_avg, s.latency_min, s.latency_max,
		   s.retries, s.latency_p50, s.latency_p90, s.latency_p95,
		   s.latency_p99, s.latency_p999
	  FROM polarbench_statement_data s
	  JOIN polarbench_run_data r USING (run_id);

CREATE OR REPLACE VIEW polarbench_operations AS
	SELECT o.run_id, o.operation, o.operations, o.errors, o.latency_avg,
		   o.latency_min, o.latency_max, o.latency_p95, o.latency_p99,
		   o.operations / nullif(r.seconds, 0) AS throughput,
		   o.latency_p50, o.latency_p90, o.latency_p999
	  FROM polarbench_operation_data o
	  JOIN polarbench_run_data r USING (run_id);

CREATE OR REPLACE VIEW polarbench_clients AS
	SELECT run_id, client, transactions, failed, errors, latency_sum,
		   cpu_seconds
	  FROM polarbench_client_data;

/*
 * Where a run's clients spent their time: their wait events, sampled every
 * few milliseconds after the warm-up ("CPU" when they waited for nothing)
 */
CREATE TABLE polarbench_wait_event_data (
	run_id				bigint NOT NULL
		REFERENCES polarbench_run_data ON DELETE CASCADE,
	wait_event_type		text NOT NULL,
	wait_event			text NOT NULL,
	samples				bigint NOT NULL,
	PRIMARY KEY (run_id, wait_event_type, wait_event)
);

SELECT pg_catalog.pg_extension_config_dump('polarbench_wait_event_data', '');
REVOKE ALL ON polarbench_wait_event_data FROM PUBLIC;

CREATE VIEW polarbench_wait_events AS
	SELECT run_id, wait_event_type, wait_event, samples,
		   samples::float8 / sum(samples) OVER (PARTITION BY run_id) AS share
	  FROM polarbench_wait_event_data;

GRANT SELECT ON polarbench_wait_events TO PUBLIC;

/* what polarbench_run returns has the new figures */
ALTER TYPE polarbench_result
	ADD ATTRIBUTE latency_min float8,
	ADD ATTRIBUTE latency_p90 float8,
	ADD ATTRIBUTE latency_p999 float8,
	ADD ATTRIBUTE failed_serialization bigint,
	ADD ATTRIBUTE failed_deadlock bigint,
	ADD ATTRIBUTE retried bigint,
	ADD ATTRIBUTE retries bigint,
	ADD ATTRIBUTE skipped bigint,
	ADD ATTRIBUTE late bigint,
	ADD ATTRIBUTE lag_avg float8,
	ADD ATTRIBUTE lag_max float8;

/*
 * polarbench_run takes new arguments: a new function.  What was granted on
 * the old one goes with it, as with any function an update replaces; say so
 * to whoever updates.  (Grants made here would be the extension's initial
 * privileges, which pg_dump does not dump: they must be given again outside
 * the update.)
 */
DO $$
DECLARE
	grantees text;
BEGIN
	SELECT string_agg(CASE WHEN a.grantee = 0 THEN 'PUBLIC'
						   ELSE pg_catalog.quote_ident(r.rolname) END, ', ')
	  INTO grantees
	  FROM pg_catalog.pg_proc p
	 CROSS JOIN LATERAL pg_catalog.aclexplode(p.proacl) a
	  LEFT JOIN pg_catalog.pg_roles r ON r.oid = a.grantee
	 WHERE p.oid = 'polarbench_run(text, int, float8, bigint, int, text, int, text[], int[], jsonb, bigint, int, jsonb)'::pg_catalog.regprocedure
	   AND a.grantee <> p.proowner AND a.privilege_type = 'EXECUTE';
	IF grantees IS NOT NULL THEN
		RAISE WARNING 'polarbench_run is replaced: grant EXECUTE on it again to %, and on polarbench_start and polarbench_sweep', grantees;
	END IF;
END
$$;

DROP FUNCTION polarbench_run(text, int, float8, bigint, int, text, int,
	text[], int[], jsonb, bigint, int, jsonb);

/*
 * Start a benchmark run and wait for its end.  workload names built-in
 * scripts, comma separated, each with an optional @weight as pgbench's -b;
 * script and scripts give custom scripts in pgbench's language, with
 * script_weight and weights as pgbench's -f file@weight.  workload may
 * instead name one of sysbench's OLTP workloads (oltp_read_write, ...) or
 * YCSB's (ycsb-a .. ycsb-f, ycsb-load), whose options (sysbench's, YCSB's
 * properties) go in options.  Latencies are in milliseconds.
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
	server_settings	jsonb DEFAULT NULL)
RETURNS polarbench_result
AS 'MODULE_PATHNAME', 'polarbench_run'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_run(text, int, float8, bigint, int, text,
	int, text[], int[], jsonb, bigint, int, jsonb, float8, float8, int, float8,
	boolean, jsonb, jsonb) FROM PUBLIC;

/* background runs, watched and steered from any session */
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
	server_settings	jsonb DEFAULT NULL)
RETURNS bigint
AS 'MODULE_PATHNAME', 'polarbench_start'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_start(text, int, float8, bigint, int, text,
	int, text[], int[], jsonb, bigint, int, jsonb, float8, float8, int, float8,
	boolean, jsonb, jsonb) FROM PUBLIC;

/*
 * Wait for a run to end, at most timeout seconds (NULL: as long as it
 * lasts), and return its summary; NULL if the time ran out.  A failed run
 * raises its error, a canceled one says so.  For the run's role, roles
 * with its privileges and superusers.
 */
CREATE FUNCTION polarbench_wait(run_id bigint, timeout float8 DEFAULT NULL)
RETURNS polarbench_result
AS 'MODULE_PATHNAME', 'polarbench_wait'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

/*
 * Stop a run that goes on; it is recorded as canceled.  True if it was
 * told to stop, false if it had ended.  For the run's role, roles with its
 * privileges and superusers.
 */
CREATE FUNCTION polarbench_cancel(run_id bigint)
RETURNS boolean
AS 'MODULE_PATHNAME', 'polarbench_cancel'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

/* The figures of the last second of every run that goes on */
CREATE FUNCTION polarbench_live_runs(
	OUT run_id bigint, OUT warming_up boolean, OUT elapsed float8,
	OUT clients int, OUT transactions bigint, OUT tps float8, OUT qps float8,
	OUT failed_per_second float8, OUT retried_per_second float8,
	OUT latency_avg float8, OUT latency_p50 float8, OUT latency_p90 float8,
	OUT latency_p95 float8, OUT latency_p99 float8, OUT latency_p999 float8,
	OUT latency_max float8, OUT lag_avg float8)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'polarbench_live_runs'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

CREATE VIEW polarbench_live AS
	SELECT l.run_id, r.workload, r.run_by, l.warming_up, l.elapsed,
		   l.clients, l.transactions, l.tps, l.qps, l.failed_per_second,
		   l.retried_per_second, l.latency_avg, l.latency_p50, l.latency_p90,
		   l.latency_p95, l.latency_p99, l.latency_p999, l.latency_max,
		   l.lag_avg
	  FROM polarbench_live_runs() l
	  JOIN polarbench_runs r USING (run_id);

GRANT SELECT ON polarbench_live TO PUBLIC;

/* sweeps, and the seeds' tables made of them */
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
 * A sweep as the seeds' tables show one: a row per client count, a column
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


/*
 * A run's latency histogram, to plot its distribution: how many successful
 * transactions took from latency_from up to latency_to milliseconds, for
 * every bucket that holds any; the counts add up to the transactions.
 */
CREATE FUNCTION polarbench_histogram(run_id bigint,
									 OUT latency_from float8,
									 OUT latency_to float8,
									 OUT transactions bigint)
RETURNS SETOF record
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
	SELECT h.latency_from, h.latency_to, h.transactions
	  FROM @extschema@.polarbench_histograms h
	 WHERE h.run_id = polarbench_histogram.run_id
	 ORDER BY h.latency_from
$$;
