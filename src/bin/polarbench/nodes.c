/*-------------------------------------------------------------------------
 *
 * nodes.c
 *	  One run across several nodes (-h host1,host2): started on every node
 *	  at once, their progress streamed with each node's name, and the
 *	  results added up: total tps and qps, and latency percentiles from the
 *	  merged histograms of the nodes (never from averaged percentiles).
 *
 * A hot standby runs read-only workloads only, and can store nothing: its
 * run comes back without being stored, and the client stores it on the
 * primary with polarbench_record(), marked with the node it came from.  A
 * workload that writes goes to the primary only: the standbys refuse it
 * before they start, and the client says so and goes on without them.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include <math.h>
#include <signal.h>
#include <sys/select.h>

#include "common/logging.h"

#include "pb_measure.h"
#include "polarbench.h"

/* One node of the run */
typedef struct Node
{
	ConnTarget *target;
	PGconn	   *conn;
	PGcancel   *cancel;
	bool		standby;
	bool		busy;			/* its run has not returned yet */
	bool		ran;			/* it returned a result */
	bool		skipped;		/* a standby that refused a writing workload */
	bool		failed;
	ClientResult result;
	char	   *stored_id;		/* a standby's run, as stored on the primary */
} Node;

static volatile sig_atomic_t cancel_requested = false;

/* SIGINT or SIGTERM: cancel the run on every node */
static void
request_cancel(SIGNAL_ARGS)
{
	cancel_requested = true;
}

/*
 * merge_histogram
 *		Add node's run's latency histogram, from its document, into hist.
 *		Returns false on error (reported).
 */
static bool
merge_histogram(Node *node, uint64_t *hist)
{
	const char *params[1] = {node->result.run_id};
	PGresult   *res = exec_query(node->conn, 0,
								 "SELECT (h OPERATOR(pg_catalog.->>) 'latency_from')::pg_catalog.float8,"
								 " (h OPERATOR(pg_catalog.->>) 'transactions')::pg_catalog.int8"
								 "  FROM pg_catalog.jsonb_array_elements(@extschema@.polarbench_run_document($1::pg_catalog.int8)"
								 "       OPERATOR(pg_catalog.->) 'histogram') h",
								 1, params);

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		pg_log_error("node %s: could not read the latency histogram of run %s",
					 node->target->label, node->result.run_id);
		report_server_error(node->conn, res);
		PQclear(res);
		return false;
	}
	for (int i = 0; i < PQntuples(res); i++)
	{
		/* the bucket's lower bound, in ms, names it exactly */
		double		from_ns = atof(PQgetvalue(res, i, 0)) * 1e6;

		hist[pb_hist_bucket((uint64_t) llround(from_ns))] += strtoull(PQgetvalue(res, i, 1), NULL, 10);
	}
	PQclear(res);
	return true;
}

/*
 * store_standby_run
 *		Store a standby's run on the primary, from its document.
 */
static bool
store_standby_run(Node *standby, Node *primary)
{
	const char *params[2] = {standby->result.run_id, NULL};
	char	   *doc = single_value(standby->conn,
								   "SELECT @extschema@.polarbench_run_document($1::pg_catalog.int8)",
								   1, params);

	if (doc == NULL)
		return false;
	params[0] = doc;
	params[1] = standby->target->label;
	standby->stored_id = single_value(primary->conn,
									  "SELECT @extschema@.polarbench_record($1::pg_catalog.jsonb, $2::pg_catalog.text)",
									  2, params);
	free(doc);
	return standby->stored_id != NULL;
}

/*
 * wait_for_nodes
 *		Wait for every node's run to return, streaming their notices and
 *		sending a cancel to each on Ctrl-C or SIGTERM.
 */
static void
wait_for_nodes(Node *nodes, int n)
{
	bool		canceled = false;

	pqsignal(SIGINT, request_cancel);
	pqsignal(SIGTERM, request_cancel);
	for (;;)
	{
		fd_set		fds;
		int			maxfd = -1;
		struct timeval tv = {0, 200000};

		if (cancel_requested && !canceled)
		{
			char		errbuf[256];

			for (int i = 0; i < n; i++)
				if (nodes[i].busy && !PQcancel(nodes[i].cancel, errbuf, sizeof(errbuf)))
					pg_log_error("node %s: could not send cancel request: %s",
								 nodes[i].target->label, errbuf);
			fprintf(stderr, "Cancel request sent\n");
			canceled = true;
			/* a second Ctrl-C or SIGTERM ends the client at once */
			pqsignal(SIGINT, SIG_DFL);
			pqsignal(SIGTERM, SIG_DFL);
		}
		FD_ZERO(&fds);
		for (int i = 0; i < n; i++)
		{
			PGresult   *res;

			if (!nodes[i].busy)
				continue;
			if (!PQconsumeInput(nodes[i].conn))
			{
				pg_log_error("node %s: %s", nodes[i].target->label, PQerrorMessage(nodes[i].conn));
				nodes[i].busy = false;
				nodes[i].failed = true;
				continue;
			}
			while (!PQisBusy(nodes[i].conn) && (res = PQgetResult(nodes[i].conn)) != NULL)
			{
				const char *sqlstate = PQresultErrorField(res, PG_DIAG_SQLSTATE);

				if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
					read_result(res, 0, &nodes[i].result))
					nodes[i].ran = true;
				else if (nodes[i].standby && sqlstate != NULL && strcmp(sqlstate, "25006") == 0)
				{
					fprintf(stderr, "node %s: %s; it runs on the primary only\n",
							nodes[i].target->label,
							PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY));
					nodes[i].skipped = true;
				}
				else
				{
					pg_log_error("node %s:", nodes[i].target->label);
					report_server_error(nodes[i].conn, res);
					nodes[i].failed = true;
				}
				PQclear(res);
			}
			if (!PQisBusy(nodes[i].conn))
				nodes[i].busy = false;
			else
			{
				FD_SET(PQsocket(nodes[i].conn), &fds);
				maxfd = Max(maxfd, PQsocket(nodes[i].conn));
			}
		}
		if (maxfd < 0)
			break;
		(void) select(maxfd + 1, &fds, NULL, NULL, &tv);
	}
	pqsignal(SIGINT, SIG_DFL);
	pqsignal(SIGTERM, SIG_DFL);
}

/* The role of a node, as the reports name it. */
static const char *
node_role(const Node *node)
{
	return node->standby ? "standby" : "primary";
}

/*
 * append_figures_json
 *		The figures of a result as members of a JSON object: after others
 *		(each after ", "), or as its first (first).
 */
static void
append_figures_json(PQExpBuffer doc, const ClientResult *r, bool first)
{
	for (int f = 0; f < client_figure_count(); f++)
	{
		appendPQExpBuffer(doc, "%s\"%s\": ", first && f == 0 ? "" : ", ",
						  client_figure_at(f)->name);
		append_figure(doc, client_figure_at(f), r);
	}
}

/*
 * print_nodes_report
 *		The nodes' runs and their total, in text, JSON or CSV: the figures
 *		the program reads of each run (the total's percentiles those of the
 *		merged histograms).
 */
static void
print_nodes_report(const ClientOptions *opts, Node *nodes, int n,
				   const ClientResult *total)
{
	const char *style = opts->report ? opts->report : "pgbench";

	if (strcmp(style, "json") == 0)
	{
		PQExpBufferData doc;
		bool		first = true;

		initPQExpBuffer(&doc);
		appendPQExpBufferStr(&doc, "{\"nodes\": [");
		for (int i = 0; i < n; i++)
		{
			const ClientResult *r = &nodes[i].result;

			if (!nodes[i].ran)
				continue;
			appendPQExpBuffer(&doc, "%s{\"node\": ", first ? "" : ", ");
			first = false;
			append_json_string(&doc, nodes[i].target->label);
			appendPQExpBuffer(&doc, ", \"role\": \"%s\", \"run_id\": %s, \"stored_run_id\": %s",
							  node_role(&nodes[i]), r->run_id,
							  nodes[i].standby ? (nodes[i].stored_id ? nodes[i].stored_id : "null") : r->run_id);
			append_figures_json(&doc, r, false);
			appendPQExpBufferChar(&doc, '}');
		}
		appendPQExpBufferStr(&doc, "], \"total\": {");
		append_figures_json(&doc, total, true);
		appendPQExpBufferStr(&doc, "}}\n");
		fputs(doc.data, stdout);
		termPQExpBuffer(&doc);
		return;
	}
	if (strcmp(style, "csv") == 0)
	{
		static const char *const header[] = {"node", "role", "run_id", "stored_run_id"};

		for (int c = 0; c < lengthof(header); c++)
			csv_field(stdout, header[c], false);
		for (int f = 0; f < client_figure_count(); f++)
			csv_field(stdout, client_figure_at(f)->name, f == client_figure_count() - 1);
		for (int i = 0; i <= n; i++)
		{
			bool		is_total = i == n;
			const ClientResult *r = is_total ? total : &nodes[i].result;

			if (!is_total && !nodes[i].ran)
				continue;
			csv_field(stdout, is_total ? "total" : nodes[i].target->label, false);
			csv_field(stdout, is_total ? "" : node_role(&nodes[i]), false);
			csv_field(stdout, is_total ? "" : r->run_id, false);
			csv_field(stdout, is_total ? "" : nodes[i].standby ?
					  (nodes[i].stored_id ? nodes[i].stored_id : "") : r->run_id, false);
			for (int f = 0; f < client_figure_count(); f++)
			{
				PQExpBufferData cell;

				initPQExpBuffer(&cell);
				append_figure(&cell, client_figure_at(f), r);
				csv_field(stdout, cell.data, f == client_figure_count() - 1);
				termPQExpBuffer(&cell);
			}
		}
		return;
	}

	for (int i = 0; i < n; i++)
	{
		const ClientResult *r = &nodes[i].result;

		if (!nodes[i].ran)
			continue;
		printf("node %s (%s): run %s", nodes[i].target->label, node_role(&nodes[i]), r->run_id);
		if (nodes[i].standby)
			printf(", not stored there; %s%s", nodes[i].stored_id ? "stored on the primary as run " : "not stored",
				   nodes[i].stored_id ? nodes[i].stored_id : "");
		printf("\n  %lld transactions, tps = %f, qps = %f, latency average = %.3f ms, p99 = %.3f ms\n",
			   r->transactions, r->tps, r->qps, r->latency_avg, r->latency_p99);
	}
	printf("number of nodes: %d\n", n);
	printf("number of clients: %d per node\n", opts->nclients);
	printf("number of transactions actually processed: %lld\n", total->transactions);
	printf("number of failed transactions: %lld (%.3f%%)\n", total->failed,
		   total->transactions + total->failed > 0 ?
		   100.0 * total->failed / (total->transactions + total->failed) : 0.0);
	if (total->cut_off > 0)
		printf("number of transactions cut off at the end: %lld (%.3f%%)\n", total->cut_off,
			   100.0 * total->cut_off / (total->transactions + total->failed + total->cut_off));
	printf("latency average = %.3f ms\n", total->latency_avg);
	printf("tps = %f (all nodes, without initial connection time)\n", total->tps);
	printf("statements: %lld (qps = %f)\n", total->statements, total->qps);
	printf("latency percentiles (merged histograms): p50 = %.3f ms, p90 = %.3f ms, p95 = %.3f ms, p99 = %.3f ms, p99.9 = %.3f ms, max = %.3f ms\n",
		   total->latency_p50, total->latency_p90, total->latency_p95,
		   total->latency_p99, total->latency_p999, total->latency_max);
}

/*
 * run_on_nodes
 *		Run on every node at once and print the nodes' results and their
 *		total.  Returns the exit status: 1 if nothing ran, 2 if a node's
 *		run failed.
 */
int
run_on_nodes(ConnTarget *targets, int n, ClientOptions *opts)
{
	Node	   *nodes = pg_malloc0(sizeof(Node) * n);
	Node	   *primary = NULL;
	PQExpBufferData sql;
	ParamList	params = {0};
	SettingSet	session,
				server,
				restart;
	char	   *session_json;
	uint64_t   *hist = pg_malloc0(sizeof(uint64_t) * PB_HIST_BUCKETS);
	ClientResult total = {0};
	double		latency_sum = 0;
	int			status = 0;
	int			nran = 0;

	for (int i = 0; i < n; i++)
	{
		char	   *standby;

		nodes[i].target = &targets[i];
		nodes[i].conn = connect_target(&targets[i], true);
		/* settings a killed client left changed on it come back first */
		if (restore_pending(&nodes[i].conn, &targets[i], NULL) < 0)
			return 2;
		if (!ensure_extension(nodes[i].conn, false))
			return 1;
		standby = single_value(nodes[i].conn, "SELECT pg_catalog.pg_is_in_recovery()", 0, NULL);
		if (standby == NULL)
			return 1;
		nodes[i].standby = strcmp(standby, "t") == 0;
		if (!nodes[i].standby && primary == NULL)
			primary = &nodes[i];
		nodes[i].cancel = PQgetCancel(nodes[i].conn);
	}
	/* a -b name that is no built-in script: the first node's workload */
	if (!resolve_workload(nodes[0].conn, opts) ||
		!check_report_style(nodes[0].conn, opts))
		return 1;
	if (!classify_settings(nodes[0].conn, &opts->settings, &session, &server, &restart))
		return 1;
	if (server.n > 0 || restart.n > 0)
	{
		pg_log_error("parameter \"%s\" is the server's, and cannot be set for a run on several hosts",
					 server.n > 0 ? server.names[0] : restart.names[0]);
		pg_log_error_hint("Set it on each server before the run.");
		return 1;
	}
	session_json = setting_set_json_or_null(&session);
	if (primary == NULL)
		fprintf(stderr, "no node is a primary: the standbys' runs are not stored\n");
	else
		vacuum_tables(primary->conn, opts);

	if (opts->report == NULL || strcmp(opts->report, "pgbench") == 0)
		printf("%s (%s) on %d nodes\n", progname, POLARBENCH_VERSION, n);
	fflush(stdout);
	initPQExpBuffer(&sql);
	build_run_query(opts, &sql, &params, session_json, NULL);
	set_notice_mode(false, false, opts->progress > 0);
	for (int i = 0; i < n; i++)
	{
		/* in the session's own search_path, which finds the user's tables */
		if (!send_query(nodes[i].conn, PB_QUERY_USER_PATH, sql.data, params.n,
						params.values))
		{
			pg_log_error("node %s: could not start the run", targets[i].label);
			nodes[i].failed = true;
			continue;
		}
		nodes[i].busy = true;
	}
	wait_for_nodes(nodes, n);
	for (int i = 0; i < n; i++)
		if (PQstatus(nodes[i].conn) == CONNECTION_OK && !pin_search_path(nodes[i].conn))
			nodes[i].failed = true;

	for (int i = 0; i < n; i++)
	{
		const ClientResult *r = &nodes[i].result;

		if (nodes[i].failed)
			status = 2;
		if (!nodes[i].ran)
			continue;
		nran++;
		if (nodes[i].standby && primary != NULL && !store_standby_run(&nodes[i], primary))
			status = 2;
		if (!merge_histogram(&nodes[i], hist))
			status = 2;
		total.transactions += r->transactions;
		total.statements += r->statements;
		total.failed += r->failed;
		total.cut_off += r->cut_off;
		total.tps += r->tps;
		total.qps += r->qps;
		latency_sum += r->latency_avg * r->transactions;
		total.latency_max = Max(total.latency_max, r->latency_max);
	}
	if (nran == 0)
		return status == 0 ? 1 : status;
	total.latency_avg = total.transactions > 0 ? latency_sum / total.transactions : 0;
	/* the percentiles of the merged histograms, never averaged ones */
	total.latency_p50 = pb_hist_percentile(hist, pb_hist_count(hist), 0.50) / 1e6;
	total.latency_p90 = pb_hist_percentile(hist, pb_hist_count(hist), 0.90) / 1e6;
	total.latency_p95 = pb_hist_percentile(hist, pb_hist_count(hist), 0.95) / 1e6;
	total.latency_p99 = pb_hist_percentile(hist, pb_hist_count(hist), 0.99) / 1e6;
	total.latency_p999 = pb_hist_percentile(hist, pb_hist_count(hist), 0.999) / 1e6;
	print_nodes_report(opts, nodes, n, &total);
	for (int i = 0; i < n; i++)
	{
		PQfreeCancel(nodes[i].cancel);
		PQfinish(nodes[i].conn);
	}
	return status;
}
