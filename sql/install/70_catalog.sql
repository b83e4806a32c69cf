/* polarbench install script: what polarbench runs and loads */

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
