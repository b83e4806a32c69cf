/*-------------------------------------------------------------------------
 *
 * replay_sessions.c
 *	  What a replay reads of its capture: what the capture is, for the
 *	  caller's checks, and, in each client, the sessions the client serves
 *	  with their statements.
 *
 * The sessions are spread over the clients by their logged span: in order
 * of their first statement, each goes to the client whose sessions ended
 * first (interval partitioning), so that with as many clients as the log
 * had connections at once no two sessions of a client overlap, and with
 * fewer the overlap is spread evenly.  Every client computes the same
 * spread from the same rows, so nothing travels between them.  A session
 * stays with its client from its first statement to its last: what a
 * session sets in its connection stays in that backend.
 *
 * Everything is read through the capture's views as the run's role, who
 * sees the texts of its own captures only (polarbench_may_read), with
 * every operator and function pg_catalog's and the views named with the
 * extension's schema.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "replay_sessions.h"

/*
 * A capture only reads when each of its statements (each shape) begins as
 * a statement that only reads or controls the transaction or a setting,
 * and none of them locks rows, makes a table or moves a sequence: what a
 * hot standby runs.  (A function that writes, called by a SELECT, fails
 * there as the statement runs, counted as an error the log does not show.)
 */
#define PB_REPLAY_READS \
	"^\\s*(select|show|begin|start|commit|end|rollback|abort|set|reset)\\M"
#define PB_REPLAY_WRITES \
	"\\m(for\\s+(update|share|no\\s+key|key\\s+share)|into|nextval|setval)\\M"

/*
 * pb_replay_capture_info
 *		What the capture capture_id is, read through the views of the
 *		extension's schema nsp (quoted) with SPI connected; false if there
 *		is none.
 */
bool
pb_replay_capture_info(const char *nsp, int64 capture_id, PbReplayCapture *info)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(capture_id)};
	bool		isnull;
	HeapTuple	tuple;
	TupleDesc	desc;
	char	   *sql;

	sql = psprintf("SELECT c.first_at, c.sessions, c.statements,"
				   "       c.source IS NOT NULL AS may_read,"
				   "       (SELECT COALESCE(pg_catalog.max(s.shape_no), 0)"
				   "          FROM %s.polarbench_capture_shapes s"
				   "         WHERE s.capture_id OPERATOR(pg_catalog.=) c.capture_id) AS shapes,"
				   "       (SELECT COALESCE(pg_catalog.sum(s.statements), 0) OPERATOR(pg_catalog.=) c.statements"
				   "               AND pg_catalog.bool_and(s.shape OPERATOR(pg_catalog.~*) %s"
				   "                                       AND s.shape OPERATOR(pg_catalog.!~*) %s)"
				   "          FROM %s.polarbench_capture_shapes s"
				   "         WHERE s.capture_id OPERATOR(pg_catalog.=) c.capture_id) AS read_only"
				   "  FROM %s.polarbench_captures c"
				   " WHERE c.capture_id OPERATOR(pg_catalog.=) $1",
				   nsp, quote_literal_cstr(PB_REPLAY_READS), quote_literal_cstr(PB_REPLAY_WRITES),
				   nsp, nsp);
	if (SPI_execute_with_args(sql, 1, types, values, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read capture " INT64_FORMAT, capture_id);
	if (SPI_processed == 0)
		return false;
	tuple = SPI_tuptable->vals[0];
	desc = SPI_tuptable->tupdesc;
	memset(info, 0, sizeof(PbReplayCapture));
	info->first_at = DatumGetTimestampTz(SPI_getbinval(tuple, desc, 1, &isnull));
	if (isnull)
		info->first_at = 0;
	info->sessions = DatumGetInt32(SPI_getbinval(tuple, desc, 2, &isnull));
	info->statements = DatumGetInt64(SPI_getbinval(tuple, desc, 3, &isnull));
	info->may_read = DatumGetBool(SPI_getbinval(tuple, desc, 4, &isnull));
	info->shapes = DatumGetInt32(SPI_getbinval(tuple, desc, 5, &isnull));
	info->read_only = DatumGetBool(SPI_getbinval(tuple, desc, 6, &isnull)) && !isnull;
	return true;
}

/*
 * pb_replay_spread
 *		The client of each of the capture's sessions (1-based session_no
 *		indexes client_of), read in order of their first statement, each
 *		given to the client whose sessions ended first, the lowest numbered
 *		of those that tie; and its logged role's name, in cxt (role_of).
 *		SPI connected.
 */
static void
pb_replay_spread(const char *nsp, int64 capture_id, int nsessions, int nclients,
				 int *client_of, char **role_of, MemoryContext cxt)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(capture_id)};
	int64	   *busy_until = palloc(sizeof(int64) * nclients);
	char	   *sql;

	for (int c = 0; c < nclients; c++)
		busy_until[c] = PG_INT64_MIN;

	sql = psprintf("SELECT session_no, last_at, role_name"
				   "  FROM %s.polarbench_capture_sessions"
				   " WHERE capture_id OPERATOR(pg_catalog.=) $1"
				   " ORDER BY first_at, session_no", nsp);
	if (SPI_execute_with_args(sql, 1, types, values, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the sessions of capture " INT64_FORMAT, capture_id);
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		HeapTuple	tuple = SPI_tuptable->vals[r];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		int			session_no = DatumGetInt32(SPI_getbinval(tuple, desc, 1, &isnull));
		int64		last = DatumGetTimestampTz(SPI_getbinval(tuple, desc, 2, &isnull));
		int			best = 0;

		for (int c = 1; c < nclients; c++)
			if (busy_until[c] < busy_until[best])
				best = c;
		busy_until[best] = Max(busy_until[best], last);
		if (session_no >= 1 && session_no <= nsessions)
		{
			Datum		role = SPI_getbinval(tuple, desc, 3, &isnull);

			client_of[session_no - 1] = best;
			role_of[session_no - 1] = isnull ? NULL :
				MemoryContextStrdup(cxt, TextDatumGetCString(role));
		}
	}
	pfree(busy_until);
}

/*
 * pb_replay_load
 *		The sessions client client_no of nclients serves, with their
 *		statements, in cxt; in *nsessions how many.  SPI connected, as the
 *		run's role.
 */
PbReplaySession *
pb_replay_load(const char *nsp, int64 capture_id, const PbReplayCapture *info,
			   int nclients, int client_no, MemoryContext cxt, int *nsessions)
{
	int		   *client_of = palloc(sizeof(int) * Max(info->sessions, 1));
	char	  **role_of = palloc0(sizeof(char *) * Max(info->sessions, 1));
	int		   *index_of = palloc(sizeof(int) * Max(info->sessions, 1));
	Datum	   *mine = palloc(sizeof(Datum) * Max(info->sessions, 1));
	int			nmine = 0;
	PbReplaySession *sessions;
	Oid			types[2] = {INT8OID, INT4ARRAYOID};
	Datum		values[2];
	char	   *sql;
	int			cur = -1;
	int			cap = 0;

	for (int i = 0; i < info->sessions; i++)
		client_of[i] = -1;
	pb_replay_spread(nsp, capture_id, info->sessions, nclients, client_of, role_of, cxt);
	for (int i = 0; i < info->sessions; i++)
	{
		index_of[i] = -1;
		if (client_of[i] == client_no)
		{
			index_of[i] = nmine;
			mine[nmine++] = Int32GetDatum(i + 1);
		}
	}
	*nsessions = nmine;
	sessions = MemoryContextAllocZero(cxt, sizeof(PbReplaySession) * Max(nmine, 1));
	if (nmine == 0)
		return sessions;

	values[0] = Int64GetDatum(capture_id);
	values[1] = PointerGetDatum(construct_array(mine, nmine, INT4OID, 4, true, TYPALIGN_INT));
	sql = psprintf("SELECT session_no, at, statement,"
				   "       protocol OPERATOR(pg_catalog.=) 'extended' AS extended,"
				   "       parameters, sqlstate, shape_no,"
				   "       parameter_types::pg_catalog.oid[]"
				   "  FROM %s.polarbench_capture_statements"
				   " WHERE capture_id OPERATOR(pg_catalog.=) $1"
				   "   AND session_no OPERATOR(pg_catalog.=) ANY ($2)"
				   " ORDER BY session_no, statement_no", nsp);
	if (SPI_execute_with_args(sql, 2, types, values, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the statements of capture " INT64_FORMAT, capture_id);

	for (uint64 r = 0; r < SPI_processed; r++)
	{
		HeapTuple	tuple = SPI_tuptable->vals[r];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		int			session_no = DatumGetInt32(SPI_getbinval(tuple, desc, 1, &isnull));
		TimestampTz at = DatumGetTimestampTz(SPI_getbinval(tuple, desc, 2, &isnull));
		Datum		statement = SPI_getbinval(tuple, desc, 3, &isnull);
		PbReplaySession *s;
		PbReplayStatement *st;
		MemoryContext old;
		PbSqlStatement split[2];

		if (isnull)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("permission denied for capture " INT64_FORMAT, capture_id)));
		if (session_no < 1 || session_no > info->sessions || index_of[session_no - 1] < 0)
			continue;
		s = &sessions[index_of[session_no - 1]];
		if (index_of[session_no - 1] != cur)
		{
			cur = index_of[session_no - 1];
			cap = 0;
			s->session_no = session_no;
			s->role = role_of[session_no - 1];
			s->role_oid = s->role ? get_role_oid(s->role, true) : InvalidOid;
		}
		if (s->nstatements >= cap)
		{
			cap = Max(cap * 2, 16);
			s->statements = s->statements == NULL ?
				MemoryContextAllocZero(cxt, sizeof(PbReplayStatement) * cap) :
				repalloc(s->statements, sizeof(PbReplayStatement) * cap);
		}
		st = &s->statements[s->nstatements++];
		memset(st, 0, sizeof(PbReplayStatement));
		old = MemoryContextSwitchTo(cxt);
		st->at_us = at - info->first_at;
		st->text = TextDatumGetCString(statement);
		st->extended = DatumGetBool(SPI_getbinval(tuple, desc, 4, &isnull));
		{
			Datum		params = SPI_getbinval(tuple, desc, 5, &isnull);

			if (!isnull)
			{
				Datum	   *elems;
				bool	   *nulls;

				deconstruct_array(DatumGetArrayTypeP(params), TEXTOID, -1, false,
								  TYPALIGN_INT, &elems, &nulls, &st->nparams);
				st->params = palloc0(sizeof(char *) * Max(st->nparams, 1));
				for (int i = 0; i < st->nparams; i++)
					st->params[i] = nulls[i] ? NULL : TextDatumGetCString(elems[i]);
			}
		}
		{
			Datum		ptypes = SPI_getbinval(tuple, desc, 8, &isnull);

			if (!isnull)
			{
				Datum	   *elems;
				bool	   *nulls;
				int			n;

				deconstruct_array(DatumGetArrayTypeP(ptypes), OIDOID, sizeof(Oid), true,
								  TYPALIGN_INT, &elems, &nulls, &n);
				if (n == st->nparams)
				{
					st->param_types = palloc0(sizeof(Oid) * Max(n, 1));
					for (int i = 0; i < n; i++)
						st->param_types[i] = nulls[i] ? InvalidOid : DatumGetObjectId(elems[i]);
				}
			}
		}
		{
			Datum		code = SPI_getbinval(tuple, desc, 6, &isnull);

			if (!isnull)
				strlcpy(st->sqlstate, TextDatumGetCString(code), sizeof(st->sqlstate));
		}
		{
			Datum		shape = SPI_getbinval(tuple, desc, 7, &isnull);

			st->shape = isnull ? 0 : DatumGetInt32(shape);
		}
		MemoryContextSwitchTo(old);
		st->several = !st->extended &&
			pb_sql_split(st->text, strlen(st->text), split, 2) > 1;
		st->txn = st->several ? PB_SQL_OTHER : pb_sql_txn(st->text, strlen(st->text));
	}
	return sessions;
}

/*
 * pb_replay_check_roles
 *		That no session of the capture runs with more rights than its
 *		logged role has here: each logged role exists, and either the
 *		sessions run as their logged roles (as_logged), which role (the
 *		run's) must be a member of, or they run as role, whose privileges
 *		each logged role must have.  Otherwise a role that can get its
 *		statements into a server's log would have them run with the rights
 *		of whoever replays it.  SPI connected.
 */
void
pb_replay_check_roles(const char *nsp, int64 capture_id, Oid role, bool as_logged)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(capture_id)};
	char	   *sql;

	sql = psprintf("SELECT DISTINCT role_name COLLATE \"C\" FROM %s.polarbench_capture_sessions"
				   " WHERE capture_id OPERATOR(pg_catalog.=) $1"
				   " ORDER BY 1", nsp);
	if (SPI_execute_with_args(sql, 1, types, values, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the sessions of capture " INT64_FORMAT, capture_id);
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		char	   *name = SPI_getvalue(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, 1);
		Oid			logged = name ? get_role_oid(name, true) : InvalidOid;

		if (!OidIsValid(logged))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("role \"%s\" of capture " INT64_FORMAT " does not exist",
							name ? name : "", capture_id),
					 errdetail("A session runs with its logged role's rights, or with fewer."),
					 errhint("Create the role, or capture the other roles' sessions only (polarbench_capture_log's argument role).")));
		if (as_logged && !is_member_of_role(role, logged))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("permission denied to replay the sessions of role \"%s\"", name),
					 errdetail("With \"roles\", each session runs as the role the log shows, which the run's role must be a member of.")));
		if (!as_logged && !has_privs_of_role(logged, role))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("permission denied to replay the sessions of role \"%s\" as role \"%s\"",
							name, GetUserNameFromId(role, false)),
					 errdetail("Their statements would run with privileges that role \"%s\" does not have.", name),
					 errhint("Give the option \"roles\": true to run each session as its logged role.")));
	}
}
