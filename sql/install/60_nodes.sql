
/* polarbench install script: runs across a primary and its hot standbys */

/*
 * The whole of a run as one document: its row, progress, statements,
 * operations, clients, histogram and wait events, as
 * polarbench_report(run_id, 'json') gives them.  A run on a hot standby,
 * which stores nothing, has a negative id and is kept only by the session
 * that ran it, for its last 16 runs.
 */
CREATE FUNCTION polarbench_run_document(run_id bigint)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'polarbench_run_document'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

/*
 * Store on the primary a run from another node (a hot standby's), from its
 * document, as the caller's run, with node naming where it ran.  Returns
 * the run's id here.
 */
CREATE FUNCTION polarbench_record(document jsonb, node text)
RETURNS bigint
AS 'MODULE_PATHNAME', 'polarbench_record'
LANGUAGE C CALLED ON NULL INPUT VOLATILE PARALLEL UNSAFE;

REVOKE ALL ON FUNCTION polarbench_record(jsonb, text) FROM PUBLIC;
