\echo Use "CREATE EXTENSION bare_loop" to load this file. \quit

-- Run clients workers for seconds; returns the lookups they made in all
-- and the CPU time their loops took.
CREATE FUNCTION bare_loop_run(clients int, seconds float8, naccounts int,
							  OUT lookups bigint, OUT cpu_seconds float8)
RETURNS record
AS 'MODULE_PATHNAME', 'bare_loop_run'
LANGUAGE C STRICT;
