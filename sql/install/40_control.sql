
/* polarbench install script: background runs, watched and steered from any session */

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
