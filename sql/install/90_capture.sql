/* polarbench install script: workloads captured from a server's log */

/*
 * A capture: the workload of a server log, read by polarbench_capture_log.
 * Its role (captured_by) alone reads its texts through the views, as a
 * run's; the tables are the extension owner's, written by it only.
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
