/*-------------------------------------------------------------------------
 *
 * cluster_run.c
 *	  polarbench_run(..., nodes => 'all') on a Citus coordinator: the run's
 *	  clients on every node of the cluster, released together, ended
 *	  together, and one run recorded on the coordinator with each node's
 *	  own figures kept in it.
 *
 * The coordinator conducts; every node, the coordinator too when it is in
 * pg_dist_node, runs its part as an ordinary polarbench_run() of its own,
 * with the caller's arguments, called over a libpq connection that this
 * backend opens to it as the calling role (as Citus's own connections do:
 * same host and port as in pg_dist_node, citus.node_conninfo's options, the
 * current user and database).  So each node's clients log in there as the
 * caller, route their statements through that node's Citus metadata, and
 * are started, watched and stopped by that node's polarbench as any run:
 *
 *	1. The nodes: pg_dist_node's active primaries; each must have
 *	   polarbench of the coordinator's version.
 *	2. The check: with polarbench.cluster_start = 'check', each node runs
 *	   every check of polarbench_run() and starts nothing.  Any refusal
 *	   (a workload, table, option or setting a node cannot run, too few
 *	   worker slots) is the caller's error, and nothing started anywhere.
 *	3. The start: this backend sets one instant, a second ahead, as each
 *	   node's polarbench.cluster_start; each node starts its clients and
 *	   releases them at that instant once they are ready (launcher.c), and
 *	   sends a notice with its run's id and how late after that instant it
 *	   released them.
 *	4. The wait: this backend waits on its latch and the nodes' sockets.
 *	   A node whose part fails, or whose connection is lost, ends the run
 *	   everywhere: the other nodes' parts are canceled with
 *	   polarbench_cancel() (so that they still end and record their
 *	   figures), or, before they have started, with a cancel request.  The
 *	   caller's cancel or statement_timeout sends a cancel request to every
 *	   node and waits for them to answer (their runs stop their workers
 *	   before that) before the error is raised.  Whatever else ends this
 *	   backend's query closes the connections, and each node's backend,
 *	   which checks its client connection (client_connection_check_interval)
 *	   while its run goes on, ends its run then.
 *	5. The record: the nodes' documents are merged into one run (counts
 *	   added up, the latency histogram merged and its percentiles read from
 *	   it, tps over the longest node's duration) with figures->'nodes'
 *	   holding each node's own figures and its run's id there, and stored
 *	   on the coordinator through polarbench_record()'s path, node 'all'.
 *	   Each node's part stays a run of the caller on that node, with its
 *	   statements, progress and wait events.
 *
 * polarbench_start() and polarbench_sweep() conduct the same run through
 * pb_cluster_conduct(): a sweep's step is recorded with its place in the
 * sweep, and a background run's conductor (cluster_start.c) records the
 * summed run as running once every node has released its clients, asks
 * for its cancel while it goes on, and has its end recorded in that row.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "libpq-fe.h"

#include "access/htup_details.h"
#include "access/xlog.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/dbcommands.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/catcache.h"
#include "utils/datum.h"
#include "utils/float.h"
#include "utils/guc.h"
#include "utils/jsonb.h"
#include "utils/array.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "pb_measure.h"
#include "safe_sql.h"
#include "functions.h"

/* How far ahead of now the nodes' clients are released together */
#define PB_CLUSTER_START_MARGIN_MS	1000

/* How often a node's backend checks that the coordinator is still there */
#define PB_CLUSTER_CHECK_INTERVAL	"250ms"

/* How long stopped nodes may take to answer before the caller's error */
#define PB_CLUSTER_STOP_WAIT_MS		60000

/* One node of the cluster, as this backend talks to it */
typedef struct PbClusterNode
{
	char	   *host;
	int			port;
	char	   *label;			/* host:port, as the run names the node */
	PGconn	   *conn;
	char	   *nsp;			/* polarbench's schema there, quoted */
	bool		busy;			/* a command sent, its results not all read */
	bool		done;			/* its part has ended, or never started */
	char	   *rows;			/* the value of its command's first row */
	char	   *error;			/* why its part failed, or NULL */
	char	   *sqlstate;
	char	   *detail;
	char	   *hint;
	int64		part_id;		/* its part's run id there, 0 until released */
	int64		late_us;		/* its release after the start instant */
	bool		stopped;		/* told to stop */
	char	   *document;		/* its part's document, or NULL */
} PbClusterNode;

/* The conninfo keywords the run sets itself, not citus.node_conninfo */
static const char *const pb_own_keywords[] = {
	"host", "hostaddr", "port", "dbname", "user", "application_name", "options"
};

/*
 * pb_cluster_nodes
 *		The nodes of the run: the active primaries of this coordinator's
 *		Citus metadata.  Refuses a server that is no Citus coordinator.
 */
static PbClusterNode *
pb_cluster_nodes(int *nnodes)
{
	PbClusterNode *nodes;
	MemoryContext caller_cxt = CurrentMemoryContext;
	int			nest;
	bool		isnull;

	if (!OidIsValid(get_extension_oid("citus", true)))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("nodes => 'all' needs a Citus coordinator"),
				 errdetail("The extension citus is not installed in this database."),
				 errhint("Run on this server only with nodes => 'local', or leave nodes out.")));

	SPI_connect();
	nest = pb_pin_search_path();
	if (SPI_execute("SELECT groupid FROM pg_catalog.pg_dist_local_group", true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not read pg_dist_local_group");
	if (DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull)) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("nodes => 'all' runs on the Citus coordinator only"),
				 errdetail("This server is a Citus worker."),
				 errhint("Call it on the coordinator, which starts every node's clients.")));
	if (SPI_execute("SELECT nodename, nodeport FROM pg_catalog.pg_dist_node"
					" WHERE noderole OPERATOR(pg_catalog.=) 'primary' AND isactive"
					"   AND nodecluster OPERATOR(pg_catalog.=) pg_catalog.current_setting('citus.cluster_name')"
					" ORDER BY groupid, nodeid", true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read pg_dist_node");
	if (SPI_processed == 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("the Citus cluster has no active primary node"),
				 errhint("Add the workers with citus_add_node(), or run on this server only with nodes => 'local'.")));
	*nnodes = (int) SPI_processed;
	nodes = MemoryContextAllocZero(caller_cxt, sizeof(PbClusterNode) * SPI_processed);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tuple = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;

		nodes[i].host = MemoryContextStrdup(caller_cxt, SPI_getvalue(tuple, desc, 1));
		nodes[i].port = DatumGetInt32(SPI_getbinval(tuple, desc, 2, &isnull));
		nodes[i].label = MemoryContextStrdup(caller_cxt,
											 psprintf("%s:%d", nodes[i].host, nodes[i].port));
	}
	pb_unpin_search_path(nest);
	SPI_finish();
	return nodes;
}

/*
 * pb_cluster_notice
 *		libpq's notice receiver of a node's connection: the notice of its
 *		part's release (run.c) gives its run id there.  Other notices (its
 *		progress lines) are the node's own business.
 */
static void
pb_cluster_notice(void *arg, const PGresult *res)
{
	PbClusterNode *node = arg;
	const char *msg = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	long long	id;
	long long	late;

	if (msg != NULL &&
		sscanf(msg, "polarbench cluster part: run %lld, released %lld us after the start",
			   &id, &late) == 2)
	{
		node->part_id = (int64) id;
		node->late_us = (int64) late;
	}
}

/*
 * pb_cluster_connect
 *		A new connection to node as the calling role, to the current
 *		database, with citus.node_conninfo's options as Citus's own
 *		connections have them; NULL (and the error in *error) if it fails.
 */
static PGconn *
pb_cluster_connect(PbClusterNode *node, char **error)
{
	const char *keywords[64];
	const char *values[64];
	int			n = 0;
	const char *node_conninfo = GetConfigOption("citus.node_conninfo", true, false);
	PQconninfoOption *extra = NULL;
	PGconn	   *conn;

	keywords[n] = "host";
	values[n++] = node->host;
	keywords[n] = "port";
	values[n++] = psprintf("%d", node->port);
	keywords[n] = "dbname";
	values[n++] = get_database_name(MyDatabaseId);
	keywords[n] = "user";
	values[n++] = GetUserNameFromId(GetUserId(), false);
	keywords[n] = "application_name";
	values[n++] = "polarbench cluster run";
	if (node_conninfo != NULL && node_conninfo[0] != '\0')
		extra = PQconninfoParse(node_conninfo, NULL);
	for (PQconninfoOption *o = extra; o != NULL && o->keyword != NULL && n < 62; o++)
	{
		bool		own = false;

		if (o->val == NULL)
			continue;
		for (int k = 0; k < lengthof(pb_own_keywords); k++)
			own |= strcmp(o->keyword, pb_own_keywords[k]) == 0;
		if (own)
			continue;
		keywords[n] = pstrdup(o->keyword);
		values[n++] = pstrdup(o->val);
	}
	keywords[n] = NULL;
	values[n] = NULL;
	if (extra != NULL)
		PQconninfoFree(extra);

	/* interrupted by the caller's cancel, which stays pending */
	conn = pb_node_connect(keywords, values, pb_node_connect_timeout(), error);
	if (conn == NULL)
		return NULL;
	PQsetNoticeReceiver(conn, pb_cluster_notice, node);
	return conn;
}

/* Close every connection still open. */
static void
pb_cluster_disconnect(PbClusterNode *nodes, int nnodes)
{
	for (int i = 0; i < nnodes; i++)
		if (nodes[i].conn != NULL)
		{
			PQfinish(nodes[i].conn);
			nodes[i].conn = NULL;
		}
}

/* The text of a libpq message, without its final newline. */
static char *
pb_chomp(const char *msg)
{
	char	   *s = pstrdup(msg != NULL ? msg : "");
	int			len = strlen(s);

	while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == ' '))
		s[--len] = '\0';
	return s;
}

/* Note that node's part failed, why, unless a reason is noted already. */
static void
pb_cluster_node_failed(PbClusterNode *node, const PGresult *res)
{
	if (node->error != NULL)
		return;
	if (res != NULL && PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) != NULL)
	{
		node->error = pb_chomp(PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY));
		node->sqlstate = pb_chomp(PQresultErrorField(res, PG_DIAG_SQLSTATE));
		if (PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL) != NULL)
			node->detail = pb_chomp(PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL));
		if (PQresultErrorField(res, PG_DIAG_MESSAGE_HINT) != NULL)
			node->hint = pb_chomp(PQresultErrorField(res, PG_DIAG_MESSAGE_HINT));
	}
	else
	{
		node->error = pb_chomp(node->conn != NULL ? PQerrorMessage(node->conn) : NULL);
		node->sqlstate = "08006";	/* connection_failure */
	}
}

/*
 * pb_cluster_send
 *		Send a command to every node that is not done; a node that cannot
 *		take it is failed and done.
 */
static void
pb_cluster_send(PbClusterNode *nodes, int nnodes, const char *(*command) (PbClusterNode *, void *),
				void *arg)
{
	for (int i = 0; i < nnodes; i++)
	{
		PbClusterNode *node = &nodes[i];

		if (node->done)
			continue;
		if (!PQsendQuery(node->conn, command(node, arg)))
		{
			pb_cluster_node_failed(node, NULL);
			node->done = true;
			continue;
		}
		node->busy = true;
	}
}

/*
 * pb_cluster_read
 *		Read what node has sent; when its command is over, note its first
 *		row's value or its error, and that it is done.
 */
static void
pb_cluster_read(PbClusterNode *node)
{
	PGresult   *res;

	if (!PQconsumeInput(node->conn))
	{
		pb_cluster_node_failed(node, NULL);
		node->busy = false;
		node->done = true;
		return;
	}
	while (!PQisBusy(node->conn))
	{
		res = PQgetResult(node->conn);
		if (res == NULL)
		{
			node->busy = false;
			node->done = true;
			if (PQstatus(node->conn) == CONNECTION_BAD)
				pb_cluster_node_failed(node, NULL);
			return;
		}
		if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) > 0 &&
			!PQgetisnull(res, 0, 0))
			node->rows = pstrdup(PQgetvalue(res, 0, 0));
		else if (PQresultStatus(res) == PGRES_FATAL_ERROR)
			pb_cluster_node_failed(node, res);
		PQclear(res);
	}
}

/*
 * pb_cluster_side_query
 *		Run one query on node over a connection of its own, beside the one
 *		its part runs on; the first row's value, or NULL.  *answered says
 *		whether the node could be reached.
 */
static char *
pb_cluster_side_query(PbClusterNode *node, const char *sql, bool *answered)
{
	char	   *error = NULL;
	char	   *value = NULL;
	PGconn	   *side = pb_cluster_connect(node, &error);
	PGresult   *res;

	*answered = side != NULL;
	if (side == NULL)
		return NULL;
	res = PQexec(side, sql);
	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) > 0 &&
		!PQgetisnull(res, 0, 0))
		value = pstrdup(PQgetvalue(res, 0, 0));
	PQclear(res);
	PQfinish(side);
	return value;
}

/*
 * pb_cluster_stop
 *		Stop node's part: by polarbench_cancel() of its run over a
 *		connection of its own once it is released (so that it ends as a run
 *		does and records its figures), else by a cancel request of its
 *		command.
 */
static void
pb_cluster_stop(PbClusterNode *node, bool cancel_request)
{
	char		errbuf[256];
	bool		answered;

	/* a node whose own error is in (its command not over yet) is no stop */
	if (node->stopped || node->done || node->error != NULL)
		return;
	node->stopped = true;
	if (!cancel_request && node->part_id != 0)
	{
		(void) pb_cluster_side_query(node,
									 psprintf("SELECT %s.polarbench_cancel(" INT64_FORMAT "::pg_catalog.int8)",
											  node->nsp, node->part_id),
									 &answered);
		if (answered)
			return;
	}
	{
		PGcancel   *cancel = PQgetCancel(node->conn);

		if (cancel != NULL)
		{
			(void) PQcancel(cancel, errbuf, sizeof(errbuf));
			PQfreeCancel(cancel);
		}
	}
}

/*
 * pb_cluster_wait_for
 *		Wait until every node is done with its command, or with
 *		until_released, until every node still at it has released its
 *		clients or one has failed.  With end_together, a node that fails
 *		stops the others, and so does a cancel that params asks for.  The
 *		caller's cancel (or statement_timeout, or termination) sends a
 *		cancel request to every node, waits for them to answer (their runs
 *		stop their workers first), and only then raises its error.
 */
static void
pb_cluster_wait_for(PbClusterNode *nodes, int nnodes, bool end_together, bool release_xmin,
					bool until_released, PbClusterParams *params)
{
	WaitEvent  *events = palloc(sizeof(WaitEvent) * (nnodes + 1));
	TimestampTz stop_deadline = 0;

	for (;;)
	{
		WaitEventSet *set;
		int			nbusy = 0;
		int			nwaiting = 0;
		bool		failed = false;

		for (int i = 0; i < nnodes; i++)
		{
			if (nodes[i].busy)
				pb_cluster_read(&nodes[i]);
			nbusy += nodes[i].busy ? 1 : 0;
			nwaiting += nodes[i].busy && nodes[i].part_id == 0 ? 1 : 0;
			failed |= nodes[i].error != NULL;
		}
		if (nbusy == 0 || (until_released && (nwaiting == 0 || failed)))
			break;
		/* a background run canceled with polarbench_cancel() */
		if (params != NULL && params->cancel_requested != NULL && !params->canceled &&
			params->cancel_requested(params->arg))
			params->canceled = true;
		if ((failed && end_together) || (params != NULL && params->canceled))
			for (int i = 0; i < nnodes; i++)
				pb_cluster_stop(&nodes[i], false);

		/* the caller's cancel: every node's run ends before the error */
		if (QueryCancelPending || ProcDiePending)
		{
			if (stop_deadline == 0)
			{
				for (int i = 0; i < nnodes; i++)
				{
					nodes[i].stopped = false;
					pb_cluster_stop(&nodes[i], true);
				}
				stop_deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(),
															PB_CLUSTER_STOP_WAIT_MS);
			}
			else if (GetCurrentTimestamp() >= stop_deadline)
				break;
		}
		if (release_xmin)
			pb_release_xmin();

		set = CreateWaitEventSet(CurrentMemoryContext, nnodes + 2);
		AddWaitEventToSet(set, WL_LATCH_SET, PGINVALID_SOCKET, MyLatch, NULL);
		AddWaitEventToSet(set, WL_EXIT_ON_PM_DEATH, PGINVALID_SOCKET, NULL, NULL);
		for (int i = 0; i < nnodes; i++)
			if (nodes[i].busy)
				AddWaitEventToSet(set, WL_SOCKET_READABLE, PQsocket(nodes[i].conn), NULL, NULL);
		(void) WaitEventSetWait(set, 1000, events, nnodes + 1, PG_WAIT_EXTENSION);
		FreeWaitEventSet(set);
		ResetLatch(MyLatch);
	}
	pfree(events);
	if (release_xmin)
		pb_refresh_xmin();
	CHECK_FOR_INTERRUPTS();
}

/*
 * pb_cluster_wait
 *		pb_cluster_wait_for() every node's end of its command.
 */
static void
pb_cluster_wait(PbClusterNode *nodes, int nnodes, bool end_together, bool release_xmin)
{
	pb_cluster_wait_for(nodes, nnodes, end_together, release_xmin, false, NULL);
}

/*
 * pb_run_function
 *		polarbench_run() of this version of the extension, whose arguments
 *		fcinfo holds (polarbench_start()'s and a sweep's step's are the
 *		same).
 */
static Oid
pb_run_function(void)
{
	Oid			schema;
	Oid			found = InvalidOid;
	CatCList   *procs;

	(void) pb_extension_owner(&schema);
	procs = SearchSysCacheList1(PROCNAMEARGSNSP, CStringGetDatum("polarbench_run"));
	for (int i = 0; i < procs->n_members; i++)
	{
		Form_pg_proc proc = (Form_pg_proc) GETSTRUCT(&procs->members[i]->tuple);

		if (proc->pronamespace == schema && proc->pronargs == PB_RUN_NARGS)
			found = proc->oid;
	}
	ReleaseSysCacheList(procs);
	if (!OidIsValid(found))
		elog(ERROR, "polarbench_run() of %d arguments not found", PB_RUN_NARGS);
	return found;
}

/*
 * pb_cluster_call
 *		The call of polarbench_run() each node makes: the caller's own
 *		arguments but nodes, each as a literal of its type, by name.
 */
static char *
pb_cluster_call(FunctionCallInfo fcinfo)
{
	Oid			run_function = pb_run_function();
	HeapTuple	proc = SearchSysCache1(PROCOID, ObjectIdGetDatum(run_function));
	Oid		   *types;
	char	  **names;
	char	   *modes;
	int			nargs;
	StringInfoData call;
	bool		first = true;

	if (!HeapTupleIsValid(proc))
		elog(ERROR, "cache lookup failed for function %u", run_function);
	nargs = get_func_arg_info(proc, &types, &names, &modes);
	ReleaseSysCache(proc);

	initStringInfo(&call);
	for (int i = 0; i < nargs && i < PG_NARGS(); i++)
	{
		Oid			output;
		bool		varlena;

		if (i == ARG_NODES || PG_ARGISNULL(i) || names == NULL || names[i][0] == '\0')
			continue;
		getTypeOutputInfo(types[i], &output, &varlena);
		appendStringInfo(&call, "%s%s => %s::%s", first ? "" : ", ",
						 quote_identifier(names[i]),
						 quote_literal_cstr(OidOutputFunctionCall(output, PG_GETARG_DATUM(i))),
						 format_type_extended(types[i], -1, FORMAT_TYPE_FORCE_QUALIFY));
		first = false;
	}
	return call.data;
}

/* What each node is sent: see the commands below */
typedef struct PbClusterCommand
{
	const char *call;			/* polarbench_run()'s arguments */
	const char *start;			/* polarbench.cluster_start */
	int64		part_id;		/* for the document of a part */
} PbClusterCommand;

/* polarbench's version and schema there */
static const char *
pb_command_version(PbClusterNode *node, void *arg)
{
	return "SELECT e.extversion OPERATOR(pg_catalog.||) ' ' OPERATOR(pg_catalog.||) pg_catalog.quote_ident(n.nspname)"
		"  FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n"
		"    ON n.oid OPERATOR(pg_catalog.=) e.extnamespace"
		" WHERE e.extname OPERATOR(pg_catalog.=) 'polarbench'";
}

/*
 * the node's part of the run, checked or run; its document is read in a
 * statement of its own (polarbench_run_document() is stable: in this one,
 * it would not see the run its recorder wrote)
 */
static const char *
pb_command_part(PbClusterNode *node, void *arg)
{
	PbClusterCommand *cmd = arg;

	return psprintf("SET client_connection_check_interval = '%s';"
					" SET polarbench.cluster_start = %s;"
					" SELECT r.run_id FROM %s.polarbench_run(%s) r",
					PB_CLUSTER_CHECK_INTERVAL, quote_literal_cstr(cmd->start),
					node->nsp, cmd->call);
}

/* the document of a part that ended in an error */
static const char *
pb_command_document(PbClusterNode *node, void *arg)
{
	return psprintf("SELECT %s.polarbench_run_document(" INT64_FORMAT "::pg_catalog.int8)",
					node->nsp, node->part_id);
}

/*
 * pb_cluster_refuse
 *		Raise the first node's error of a step before the start, as the
 *		node's own error, naming the node.
 */
static void
pb_cluster_refuse(PbClusterNode *nodes, int nnodes, const char *what)
{
	for (int i = 0; i < nnodes; i++)
	{
		PbClusterNode *node = &nodes[i];

		if (node->error == NULL)
			continue;
		ereport(ERROR,
				(errcode(node->sqlstate != NULL && strlen(node->sqlstate) == 5 ?
						 MAKE_SQLSTATE(node->sqlstate[0], node->sqlstate[1], node->sqlstate[2],
									   node->sqlstate[3], node->sqlstate[4]) :
						 ERRCODE_CONNECTION_FAILURE),
				 errmsg("node %s %s: %s", node->label, what, node->error),
				 node->detail != NULL ? errdetail("%s", node->detail) : 0,
				 node->hint != NULL ? errhint("%s", node->hint) : 0));
	}
}

/* The version of polarbench installed in this database. */
static const char *
pb_local_version(void)
{
	MemoryContext caller_cxt = CurrentMemoryContext;
	char	   *version;

	SPI_connect();
	if (SPI_execute("SELECT e.extversion FROM pg_catalog.pg_extension e"
					" WHERE e.extname OPERATOR(pg_catalog.=) 'polarbench'", true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not read polarbench's version");
	version = MemoryContextStrdup(caller_cxt,
								  SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1));
	SPI_finish();
	return version;
}

/*
 * pb_cluster_connect_all
 *		Connect to every node, and check that each has polarbench of this
 *		server's version; refuses the run otherwise.
 */
static void
pb_cluster_connect_all(PbClusterNode *nodes, int nnodes)
{
	const char *version = pb_local_version();

	for (int i = 0; i < nnodes; i++)
	{
		char	   *error = NULL;

		nodes[i].conn = pb_cluster_connect(&nodes[i], &error);
		if (nodes[i].conn == NULL)
		{
			/* the caller's cancel or statement_timeout, if that stopped it */
			CHECK_FOR_INTERRUPTS();
			ereport(ERROR,
					(errcode(ERRCODE_CONNECTION_FAILURE),
					 errmsg("could not connect to node %s as role \"%s\": %s",
							nodes[i].label, GetUserNameFromId(GetUserId(), false),
							pb_chomp(error)),
					 errhint("Each node must let the caller in as Citus's own connections do (citus.node_conninfo, pg_hba.conf, a password file), and answer within citus.node_connection_timeout.")));
		}
	}
	pb_cluster_send(nodes, nnodes, pb_command_version, NULL);
	pb_cluster_wait(nodes, nnodes, false, false);
	pb_cluster_refuse(nodes, nnodes, "could not be read");
	for (int i = 0; i < nnodes; i++)
	{
		char	   *space = nodes[i].rows != NULL ? strchr(nodes[i].rows, ' ') : NULL;

		if (space == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("node %s has no polarbench", nodes[i].label),
					 errhint("CREATE EXTENSION polarbench on every node of the cluster, of version %s.",
							 version)));
		*space = '\0';
		if (strcmp(nodes[i].rows, version) != 0)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("node %s has polarbench %s, not %s as this coordinator",
							nodes[i].label, nodes[i].rows, version),
					 errhint("ALTER EXTENSION polarbench UPDATE on every node, to the same version.")));
		nodes[i].nsp = pstrdup(space + 1);
		nodes[i].rows = NULL;
		nodes[i].done = false;
	}
}

/* The run's counts: added up over the nodes */
static const char *const pb_summed[] = {
	"clients", "transactions", "statements", "failed", "reads", "writes",
	"others", "errors", "failed_serialization", "failed_deadlock", "retried",
	"retries", "skipped", "late", "cut_off", "failed_other"
};

/* The run's percentiles, read from the merged histogram */
static const struct
{
	const char *column;
	double		fraction;
}			pb_percentiles[] = {
	{"latency_p50", 0.50}, {"latency_p90", 0.90}, {"latency_p95", 0.95},
	{"latency_p99", 0.99}, {"latency_p999", 0.999}
};

/*
 * pb_cluster_percentiles
 *		The latency percentiles of the nodes' histograms merged, as a JSON
 *		object of the run's columns (nulls without histograms): never an
 *		average of the nodes' percentiles.
 */
static char *
pb_cluster_percentiles(Datum docs)
{
	uint64_t   *hist = palloc0(sizeof(uint64_t) * PB_HIST_BUCKETS);
	Oid			types[1] = {JSONBARRAYOID};
	Datum		values[1] = {docs};
	StringInfoData out;
	uint64_t	count;
	bool		isnull;

	if (SPI_execute_with_args("SELECT (h ->> 'latency_from')::float8, (h ->> 'transactions')::int8"
							  "  FROM unnest($1) d, jsonb_array_elements(coalesce(d -> 'histogram', '[]')) h",
							  1, types, values, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read the nodes' histograms");
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		/* the bucket's lower bound, in ms, names it exactly */
		double		from_ns = DatumGetFloat8(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull)) * 1e6;

		hist[pb_hist_bucket((uint64_t) llround(from_ns))] +=
			DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2, &isnull));
	}
	count = pb_hist_count(hist);
	initStringInfo(&out);
	appendStringInfoChar(&out, '{');
	for (int i = 0; i < lengthof(pb_percentiles); i++)
	{
		if (count > 0)
			appendStringInfo(&out, "%s\"%s\": %.6f", i > 0 ? ", " : "", pb_percentiles[i].column,
							 pb_hist_percentile(hist, (int64_t) count, pb_percentiles[i].fraction) / 1e6);
		else
			appendStringInfo(&out, "%s\"%s\": null", i > 0 ? ", " : "", pb_percentiles[i].column);
	}
	appendStringInfoChar(&out, '}');
	return out.data;
}

/*
 * pb_cluster_merge
 *		The run across the cluster as one document: the first node's with a
 *		document (its workload, settings, environment, server's figures),
 *		its run's counts the nodes' sums, its latency average and deviation
 *		those of all the transactions, its percentiles the merged
 *		histogram's, its tps and qps over the longest node's duration, its
 *		status and error given, and figures->'nodes' each node's own;
 *		statements, operations, clients, progress and wait events stay in
 *		each node's run there.
 */
static Jsonb *
pb_cluster_merge(PbClusterNode *nodes, int nnodes, const char *status,
				 const char *sqlstate, const char *message)
{
	Datum	   *docs = palloc0(sizeof(Datum) * nnodes);
	bool	   *docnulls = palloc0(sizeof(bool) * nnodes);
	Datum	   *labels = palloc(sizeof(Datum) * nnodes);
	Datum	   *ids = palloc(sizeof(Datum) * nnodes);
	bool	   *idnulls = palloc(sizeof(bool) * nnodes);
	Datum	   *lates = palloc(sizeof(Datum) * nnodes);
	Datum	   *errors = palloc(sizeof(Datum) * nnodes);
	bool	   *errnulls = palloc(sizeof(bool) * nnodes);
	Datum	   *statuses = palloc(sizeof(Datum) * nnodes);
	int			dims[1] = {nnodes};
	int			lbs[1] = {1};
	Oid			types[9] = {JSONBARRAYOID, TEXTARRAYOID, INT8ARRAYOID, FLOAT8ARRAYOID,
	TEXTARRAYOID, TEXTARRAYOID, JSONBOID, TEXTOID, TEXTOID};
	Datum		values[9];
	char		nulls[9] = {' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' '};
	StringInfoData sql;
	MemoryContext caller_cxt = CurrentMemoryContext;
	Jsonb	   *merged;
	bool		isnull;
	int			nest;

	for (int i = 0; i < nnodes; i++)
	{
		PbClusterNode *node = &nodes[i];

		docnulls[i] = node->document == NULL;
		if (node->document != NULL)
			docs[i] = DirectFunctionCall1(jsonb_in, CStringGetDatum(node->document));
		labels[i] = CStringGetTextDatum(node->label);
		idnulls[i] = node->part_id == 0;
		ids[i] = Int64GetDatum(node->part_id);
		lates[i] = Float8GetDatum(node->part_id != 0 ? node->late_us / 1000.0 : get_float8_nan());
		errnulls[i] = node->error == NULL;
		errors[i] = node->error != NULL ? CStringGetTextDatum(node->error) : (Datum) 0;
		statuses[i] = CStringGetTextDatum(node->document != NULL ? "ended" :
										  node->stopped ? "canceled" : "failed");
	}
	values[0] = PointerGetDatum(construct_md_array(docs, docnulls, 1, dims, lbs, JSONBOID, -1, false, TYPALIGN_INT));
	values[1] = PointerGetDatum(construct_array(labels, nnodes, TEXTOID, -1, false, TYPALIGN_INT));
	values[2] = PointerGetDatum(construct_md_array(ids, idnulls, 1, dims, lbs, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
	values[3] = PointerGetDatum(construct_array(lates, nnodes, FLOAT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
	values[4] = PointerGetDatum(construct_md_array(errors, errnulls, 1, dims, lbs, TEXTOID, -1, false, TYPALIGN_INT));
	values[5] = PointerGetDatum(construct_array(statuses, nnodes, TEXTOID, -1, false, TYPALIGN_INT));
	values[7] = CStringGetTextDatum(status);
	nulls[8] = message == NULL ? 'n' : ' ';
	values[8] = message == NULL ? (Datum) 0 : CStringGetTextDatum(psprintf("%s %s", sqlstate, message));

	SPI_connect();
	nest = pb_pin_search_path();
	values[6] = DirectFunctionCall1(jsonb_in, CStringGetDatum(pb_cluster_percentiles(values[0])));

	initStringInfo(&sql);
	appendStringInfoString(&sql,
						   "WITH n AS (SELECT u.*, u.d -> 'run' AS run"
						   "             FROM unnest($1, $2, $3, $4, $5, $6)"
						   "                  WITH ORDINALITY AS u(d, label, part, late, error, ended, o)),"
						   " base AS (SELECT d FROM n WHERE d IS NOT NULL ORDER BY o LIMIT 1),"
						   " s AS (SELECT jsonb_build_object(");
	for (int i = 0; i < lengthof(pb_summed); i++)
		appendStringInfo(&sql, "'%s', sum((run ->> '%s')::numeric), ", pb_summed[i], pb_summed[i]);
	appendStringInfoString(&sql,
						   "'seconds', max((run ->> 'seconds')::float8),"
						   " 'latency_min', min((run ->> 'latency_min')::float8),"
						   " 'latency_max', max((run ->> 'latency_max')::float8),"
						   " 'lag_max', max((run ->> 'lag_max')::float8),"
						   " 'started_at', min((run ->> 'started_at')::timestamptz),"
						   " 'ended_at', max((run ->> 'ended_at')::timestamptz),"
						   " 'latency_avg', sum((run ->> 'latency_avg')::float8 * (run ->> 'transactions')::float8)"
						   "                / nullif(sum((run ->> 'transactions')::float8)"
						   "                         FILTER (WHERE run ->> 'latency_avg' IS NOT NULL), 0),"
						   " 'lag_avg', sum((run ->> 'lag_avg')::float8 * (run ->> 'transactions')::float8)"
						   "            / nullif(sum((run ->> 'transactions')::float8)"
						   "                     FILTER (WHERE run ->> 'lag_avg' IS NOT NULL), 0),"
						   " 'latency_m2', sum((run ->> 'transactions')::float8"
						   "                   * ((run ->> 'latency_stddev')::float8 ^ 2 + (run ->> 'latency_avg')::float8 ^ 2))"
						   "               / nullif(sum((run ->> 'transactions')::float8)"
						   "                        FILTER (WHERE run ->> 'latency_stddev' IS NOT NULL), 0)"
						   ") AS sums,"
						   " jsonb_agg(jsonb_build_object('node', label, 'run_id', part,"
						   "   'status', CASE WHEN ended OPERATOR(pg_catalog.=) 'ended' THEN run ->> 'status' ELSE ended END,"
						   "   'clients', run -> 'clients', 'seconds', run -> 'seconds',"
						   "   'transactions', run -> 'transactions', 'tps', run -> 'tps',"
						   "   'failed', run -> 'failed', 'latency_avg', run -> 'latency_avg',"
						   "   'latency_p50', run -> 'latency_p50', 'latency_p95', run -> 'latency_p95',"
						   "   'latency_p99', run -> 'latency_p99', 'latency_max', run -> 'latency_max',"
						   "   'started_late_ms', CASE WHEN late OPERATOR(pg_catalog.=) 'NaN' THEN NULL ELSE late END,"
						   "   'error_message', coalesce(error, run ->> 'error_message')) ORDER BY o) AS per_node,"
						   " max(late) FILTER (WHERE late OPERATOR(pg_catalog.<>) 'NaN')"
						   "   OPERATOR(pg_catalog.-) min(late) FILTER (WHERE late OPERATOR(pg_catalog.<>) 'NaN') AS spread"
						   " FROM n)"
						   " SELECT (b.d - '{statements,operations,clients,progress,wait_events}'::text[])"
						   "        || jsonb_build_object('run', (b.d -> 'run')"
						   "             || (s.sums - 'latency_m2')"
						   "             || jsonb_build_object("
						   "                  'tps', (s.sums ->> 'transactions')::float8 / nullif((s.sums ->> 'seconds')::float8, 0),"
						   "                  'qps', (s.sums ->> 'statements')::float8 / nullif((s.sums ->> 'seconds')::float8, 0),"
						   "                  'latency_stddev', CASE WHEN s.sums ->> 'latency_m2' IS NOT NULL THEN"
						   "                                      sqrt(greatest((s.sums ->> 'latency_m2')::float8"
						   "                                      - (s.sums ->> 'latency_avg')::float8 ^ 2, 0)) END,"
						   "                  'status', $8,"
						   "                  'error_sqlstate', split_part($9, ' ', 1),"
						   "                  'error_message', nullif(substr($9, 7), ''),"
						   "                  'figures', jsonb_build_object('nodes', s.per_node,"
						   "                                                'start_spread_ms', s.spread))"
						   "             || $7,"
						   "           'histogram', (SELECT coalesce(jsonb_agg(jsonb_build_object("
						   "                                'latency_from', f, 'latency_to', t, 'transactions', c) ORDER BY f), '[]')"
						   "                           FROM (SELECT (h ->> 'latency_from')::float8 f, (h ->> 'latency_to')::float8 t,"
						   "                                        sum((h ->> 'transactions')::int8) c"
						   "                                   FROM n, jsonb_array_elements(coalesce(n.d -> 'histogram', '[]')) h"
						   "                                  GROUP BY 1, 2) m))"
						   "   FROM base b, s");
	if (SPI_execute_with_args(sql.data, 9, types, values, nulls, true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not merge the nodes' runs");
	merged = DatumGetJsonbP(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	{
		MemoryContext spi_cxt = MemoryContextSwitchTo(caller_cxt);

		merged = (Jsonb *) DatumGetPointer(datumCopy(PointerGetDatum(merged), false, -1));
		MemoryContextSwitchTo(spi_cxt);
	}
	pb_unpin_search_path(nest);
	SPI_finish();
	return merged;
}

/*
 * pb_cluster_run_row
 *		The recorded run's row of polarbench_run_data, read as the
 *		extension's owner (who alone reads it), copied into the caller's
 *		memory with its descriptor (*desc).
 */
static HeapTuple
pb_cluster_run_row(int64 run_id, TupleDesc *desc)
{
	Oid			schema;
	Oid			owner = pb_extension_owner(&schema);
	Oid			save_user;
	int			save_sec;
	int			nest;
	Oid			types[1] = {INT8OID};
	Datum		args[1] = {Int64GetDatum(run_id)};
	MemoryContext caller_cxt = CurrentMemoryContext;
	MemoryContext spi_cxt;
	HeapTuple	row;

	SPI_connect();
	nest = pb_as_owner_begin(owner, &save_user, &save_sec);
	if (SPI_execute_with_args(psprintf("SELECT * FROM %s.polarbench_run_data WHERE run_id OPERATOR(pg_catalog.=) $1",
									   quote_identifier(get_namespace_name(schema))),
							  1, types, args, NULL, false, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not read run " INT64_FORMAT, run_id);
	spi_cxt = MemoryContextSwitchTo(caller_cxt);
	row = heap_copytuple(SPI_tuptable->vals[0]);
	*desc = CreateTupleDescCopy(SPI_tuptable->tupdesc);
	MemoryContextSwitchTo(spi_cxt);
	pb_as_owner_end(nest, save_user, save_sec);
	SPI_finish();
	return row;
}

/*
 * pb_cluster_result
 *		The caller's result row: the recorded run's figures, in
 *		polarbench_result.
 */
static Datum
pb_cluster_result(FunctionCallInfo fcinfo, int64 run_id)
{
	TupleDesc	tupdesc;
	TupleDesc	rowdesc;
	HeapTuple	row = pb_cluster_run_row(run_id, &rowdesc);
	Datum	   *values;
	bool	   *nulls;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be polarbench_result");
	tupdesc = BlessTupleDesc(tupdesc);
	values = palloc0(sizeof(Datum) * tupdesc->natts);
	nulls = palloc(sizeof(bool) * tupdesc->natts);
	for (int i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		int			fnum = SPI_fnumber(rowdesc, NameStr(att->attname));

		nulls[i] = true;
		if (att->attisdropped || fnum <= 0 ||
			SPI_gettypeid(rowdesc, fnum) != att->atttypid)
			continue;
		values[i] = heap_getattr(row, fnum, rowdesc, &nulls[i]);
	}
	return HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls));
}

/*
 * pb_cluster_summary
 *		The recorded summed run's figures, as a run's summary: what a
 *		sweep's row shows of a step across the cluster.
 */
void
pb_cluster_summary(int64 run_id, PbRunSummary *summary)
{
	TupleDesc	rowdesc;
	HeapTuple	row = pb_cluster_run_row(run_id, &rowdesc);

	memset(summary, 0, sizeof(PbRunSummary));
#define PB_FIG_READ(name, type, nulls, counter, run, progress, live, program) \
	if (run) \
	{ \
		int			fnum = SPI_fnumber(rowdesc, #name); \
		bool		isnull = true; \
		Datum		d = fnum > 0 ? heap_getattr(row, fnum, rowdesc, &isnull) : (Datum) 0; \
		\
		if (!isnull && SPI_gettypeid(rowdesc, fnum) == INT8OID) \
			summary->name = (PB_FIG_CTYPE_##type) DatumGetInt64(d); \
		else if (!isnull && SPI_gettypeid(rowdesc, fnum) == FLOAT8OID) \
			summary->name = (PB_FIG_CTYPE_##type) DatumGetFloat8(d); \
	}
	PB_RUN_FIGURES(PB_FIG_READ)
#undef PB_FIG_READ
}

/*
 * pb_cluster_released
 *		Every node has released its clients: hand the summed run as it
 *		starts (the nodes' parts' documents merged, as they are recorded
 *		there now, each read over a connection of its own) to a background
 *		run's conductor, which records it; its id is the summed run's.
 */
static void
pb_cluster_released(PbClusterNode *nodes, int nnodes, PbClusterParams *params)
{
	bool		answered;

	for (int i = 0; i < nnodes; i++)
		if (nodes[i].part_id != 0)
			nodes[i].document = pb_cluster_side_query(&nodes[i],
													  pb_command_document(&nodes[i], NULL),
													  &answered);
	params->run_id = params->on_released(pb_cluster_merge(nodes, nnodes, "running", NULL, NULL),
										 params->arg);
	for (int i = 0; i < nnodes; i++)
		nodes[i].document = NULL;
}

/*
 * pb_cluster_check_nodes
 *		Connect to every node, and have each check the run of cmd's call,
 *		starting nothing: any refusal is the caller's error.
 */
static void
pb_cluster_check_nodes(PbClusterNode *nodes, int nnodes, PbClusterCommand *cmd)
{
	pb_cluster_connect_all(nodes, nnodes);
	cmd->start = "check";
	pb_cluster_send(nodes, nnodes, pb_command_part, cmd);
	pb_cluster_wait(nodes, nnodes, false, false);
	pb_cluster_refuse(nodes, nnodes, "refused the run");
}

/*
 * pb_cluster_check
 *		A run of fcinfo's arguments across the cluster checked on every
 *		node, starting nothing (a sweep's check of its steps): refused as
 *		polarbench_run(..., nodes => 'all') would be.
 */
void
pb_cluster_check(FunctionCallInfo fcinfo)
{
	PbClusterNode *nodes;
	int			nnodes;
	PbClusterCommand cmd = {0};

	nodes = pb_cluster_nodes(&nnodes);
	cmd.call = pb_cluster_call(fcinfo);
	PG_TRY();
	{
		pb_cluster_check_nodes(nodes, nnodes, &cmd);
	}
	PG_FINALLY();
	{
		pb_cluster_disconnect(nodes, nnodes);
	}
	PG_END_TRY();
}

/*
 * pb_cluster_conduct
 *		Run polarbench_run()'s arguments in fcinfo across the cluster, as
 *		params says (see PbClusterParams), and merge the nodes' parts into
 *		the summed run (params->merged), for pb_cluster_record();
 *		params->status says how it ended.  A refusal before the start is an
 *		error; a node's failure after it is the summed run's.
 */
void
pb_cluster_conduct(FunctionCallInfo fcinfo, PbClusterParams *params)
{
	PbClusterNode *nodes;
	int			nnodes;
	PbClusterCommand cmd = {0};
	PbClusterNode *volatile cause = NULL;
	bool		any_document;
	char	  **errors;

	pb_check_caller("polarbench_run", params->background);
	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("nodes => 'all' cannot run on a hot standby")));
	nodes = pb_cluster_nodes(&nnodes);
	cmd.call = pb_cluster_call(fcinfo);
	params->run_id = 0;
	params->canceled = false;

	PG_TRY();
	{
		/* every node checks the run: a refusal starts nothing anywhere */
		pb_cluster_check_nodes(nodes, nnodes, &cmd);

		/* one instant for every node's clients */
		for (int i = 0; i < nnodes; i++)
		{
			nodes[i].done = false;
			nodes[i].rows = NULL;
		}
		cmd.start = DatumGetCString(DirectFunctionCall1(timestamptz_out,
														TimestampTzGetDatum(TimestampTzPlusMilliseconds(GetCurrentTimestamp(),
																										PB_CLUSTER_START_MARGIN_MS))));
		pb_cluster_send(nodes, nnodes, pb_command_part, &cmd);

		/* a background run is recorded, and its caller told, once released */
		if (params->on_released != NULL)
		{
			bool		failed = false;

			pb_cluster_wait_for(nodes, nnodes, true, params->release_xmin, true, params);
			for (int i = 0; i < nnodes; i++)
				failed |= nodes[i].error != NULL;
			if (!failed)
				pb_cluster_released(nodes, nnodes, params);
		}
		pb_cluster_wait_for(nodes, nnodes, true, params->release_xmin, false, params);

		/* what went wrong first: a node's failure, not the stops it caused */
		for (int i = 0; i < nnodes && cause == NULL; i++)
			if (nodes[i].error != NULL && !nodes[i].stopped)
				cause = &nodes[i];
		for (int i = 0; i < nnodes && cause == NULL && !params->canceled; i++)
			if (nodes[i].error != NULL)
				cause = &nodes[i];

		/*
		 * Each part's document, in a statement of its own that sees what its
		 * recorder wrote; the parts that ended in an error recorded theirs
		 * too.  The fetch's own failure must not hide the run's.
		 */
		errors = palloc(sizeof(char *) * nnodes);
		for (int i = 0; i < nnodes; i++)
		{
			if (nodes[i].error == NULL && nodes[i].rows != NULL)
				nodes[i].part_id = strtoi64(nodes[i].rows, NULL, 10);
			nodes[i].done = !(nodes[i].part_id != 0 &&
							  PQstatus(nodes[i].conn) == CONNECTION_OK);
			nodes[i].rows = NULL;
			errors[i] = nodes[i].error;
			nodes[i].error = NULL;
		}
		pb_cluster_send(nodes, nnodes, pb_command_document, NULL);
		pb_cluster_wait(nodes, nnodes, false, false);
		for (int i = 0; i < nnodes; i++)
		{
			nodes[i].document = nodes[i].error == NULL ? nodes[i].rows : NULL;
			nodes[i].error = errors[i];
		}
	}
	PG_FINALLY();
	{
		pb_cluster_disconnect(nodes, nnodes);
	}
	PG_END_TRY();

	any_document = false;
	for (int i = 0; i < nnodes; i++)
		any_document |= nodes[i].document != NULL;
	if (!any_document)
	{
		/* (a background run's row, recorded running, shows it failed) */
		if (cause != NULL)
			pb_cluster_refuse(cause, 1, "failed, and no node's part could be recorded");
		ereport(ERROR,
				(errcode(ERRCODE_QUERY_CANCELED),
				 errmsg("the run across the cluster was canceled before any node's part was recorded")));
	}
	params->status = cause != NULL ? "failed" : params->canceled ? "canceled" : "finished";
	params->failed_node = cause != NULL ? cause->label : NULL;
	params->failure = cause != NULL ? cause->error : NULL;
	params->merged = pb_cluster_merge(nodes, nnodes, params->status,
									  cause != NULL ? cause->sqlstate : params->canceled ? "57014" : NULL,
									  cause != NULL ? psprintf("node %s: %s", cause->label, cause->error) :
									  params->canceled ? psprintf("canceled with polarbench_cancel(" INT64_FORMAT ")",
																  params->run_id) : NULL);
}

/*
 * pb_cluster_record
 *		Record the summed run pb_cluster_conduct() merged, at its place (in
 *		the row recorded as running, or a new one; in its sweep), and
 *		return its id.
 */
int64
pb_cluster_record(PbClusterParams *params)
{
	PbRecordPlace place = {0};

	place.replace_id = params->run_id;
	place.sweep_id = params->sweep_id;
	place.sweep_run = params->sweep_run;
	place.sweep_set = params->sweep_set;
	place.sweep_repeat = params->sweep_repeat;
	params->run_id = pb_record_document_at(params->merged, "all", &place);

	/*
	 * Recorded in the caller's transaction, the failure cannot be an error
	 * (it would take the record away): a warning says it.
	 */
	if (params->failed_node != NULL)
		ereport(WARNING,
				(errmsg("run " INT64_FORMAT " failed on node %s: %s", params->run_id,
						params->failed_node, params->failure),
				 errdetail("The run ended on every node and is recorded as failed, with the figures of the nodes' parts.")));
	return params->run_id;
}

/*
 * pb_cluster_run
 *		polarbench_run(..., nodes => 'all'): see the file's header.
 */
Datum
pb_cluster_run(FunctionCallInfo fcinfo)
{
	PbClusterParams params = {0};

	params.release_xmin = pb_can_release_snapshot(fcinfo);
	pb_cluster_conduct(fcinfo, &params);
	return pb_cluster_result(fcinfo, pb_cluster_record(&params));
}
