/*-------------------------------------------------------------------------
 *
 * node_connect.c
 *	  A libpq connection from this backend to another node of a Citus
 *	  cluster, made without blocking the backend.
 *
 * PQconnectdbParams() waits in libpq until the node has answered: a node
 * that accepts the TCP connection but never answers (a hung server, a
 * firewall that swallows packets, a port forwarded to nothing) holds the
 * backend there, deaf to its caller's cancel and statement_timeout, until
 * libpq's connect_timeout.  Here the connection is started with
 * PQconnectStartParams() and advanced with PQconnectPoll() while the
 * backend waits on the connection's socket and its own latch, as
 * PostgreSQL's walreceiver connects (libpqwalreceiver.c): a cancel, a
 * statement_timeout or a termination wakes it at once.  It then closes the
 * connection and gives up, leaving the interrupt pending for its caller,
 * which may have its own way of ending (a run across the cluster stops its
 * nodes before it raises the caller's error).
 *
 * The time a node has to answer is Citus's own for its connections,
 * citus.node_connection_timeout (30 s by default), which Citus's users set
 * already; libpq's connect_timeout does not apply to a connection made
 * this way, as it does not to Citus's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "libpq-fe.h"

#include "miscadmin.h"
#include "storage/latch.h"
#include "utils/guc.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "functions.h"

/* citus.node_connection_timeout's default, when Citus is not loaded */
#define PB_NODE_CONNECT_TIMEOUT_MS	30000

/*
 * pb_node_connect_timeout
 *		How long, in milliseconds, a node has to answer a new connection:
 *		citus.node_connection_timeout, as for Citus's own connections.
 */
int
pb_node_connect_timeout(void)
{
	const char *value = GetConfigOption("citus.node_connection_timeout", true, false);
	int			ms;

	/* an int setting's raw value, in its unit: milliseconds */
	if (value == NULL || sscanf(value, "%d", &ms) != 1 || ms <= 0)
		return PB_NODE_CONNECT_TIMEOUT_MS;
	return ms;
}

/* Whether this backend is asked to cancel its query or to end */
static bool
pb_interrupt_pending(void)
{
	return QueryCancelPending || ProcDiePending;
}

/*
 * pb_node_connect
 *		A connection of keywords and values (as PQconnectStartParams takes
 *		them), made within timeout_ms.  Returns it, or NULL with why in
 *		*error: the node's or libpq's error, the timeout, or a cancel or
 *		termination of this backend, which is left pending (the caller's
 *		next CHECK_FOR_INTERRUPTS raises it).
 */
PGconn *
pb_node_connect(const char *const *keywords, const char *const *values,
				int timeout_ms, char **error)
{
	PGconn	   *conn = PQconnectStartParams(keywords, values, false);
	PostgresPollingStatusType status = PGRES_POLLING_WRITING;
	TimestampTz deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), timeout_ms);

	*error = NULL;
	if (conn == NULL)
	{
		*error = pstrdup("out of memory");
		return NULL;
	}

	/* a connection left open on an error would stay until the backend ends */
	PG_TRY();
	{
		while (status != PGRES_POLLING_OK && status != PGRES_POLLING_FAILED &&
			   PQstatus(conn) != CONNECTION_BAD)
		{
			long		left;
			int			rc;

			/* the caller's to raise, once the connection is closed */
			if (pb_interrupt_pending())
			{
				*error = pstrdup("connection canceled");
				break;
			}
			/* what else is pending (a barrier, a reload) is served now */
			CHECK_FOR_INTERRUPTS();

			left = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), deadline);
			if (left <= 0)
			{
				*error = psprintf("no answer within %d ms (citus.node_connection_timeout)",
								  timeout_ms);
				break;
			}
			rc = WaitLatchOrSocket(MyLatch,
								   WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH |
								   (status == PGRES_POLLING_READING ?
									WL_SOCKET_READABLE : WL_SOCKET_WRITEABLE),
								   PQsocket(conn), left, PG_WAIT_EXTENSION);
			if (rc & WL_LATCH_SET)
				ResetLatch(MyLatch);
			if (rc & (WL_SOCKET_READABLE | WL_SOCKET_WRITEABLE))
				status = PQconnectPoll(conn);
		}
	}
	PG_CATCH();
	{
		PQfinish(conn);
		PG_RE_THROW();
	}
	PG_END_TRY();

	if (*error == NULL && (status != PGRES_POLLING_OK || PQstatus(conn) != CONNECTION_OK))
		*error = pstrdup(PQerrorMessage(conn));
	if (*error != NULL)
	{
		PQfinish(conn);
		return NULL;
	}
	return conn;
}
