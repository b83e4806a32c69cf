/* polarbench install script: where each run ran, and how two runs' differ */

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
