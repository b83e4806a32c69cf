/*-------------------------------------------------------------------------
 *
 * script_driver.c
 *	  The driver of pgbench scripts.  In the caller, the run is configured
 *	  and checked as script_config.c does it.  In a client: builds the
 *	  client's script set from the run's configuration, prepares it, sets
 *	  its variables, and runs one script, chosen by weight, per benchmark
 *	  transaction.  After the run, pgbench's progress line and its report.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "nodes/parsenodes.h"
#include "parser/parser.h"
#include "utils/builtins.h"
#include "utils/json.h"

#include "driver.h"
#include "driver_options.h"
#include "report_query.h"
#include "script_exec.h"
#include "pgbench.h"

/* What a client running scripts keeps */
typedef struct PbScriptDriver
{
	PbScriptSet *set;
	PbExecutor *exec;
	PbPrng		choose_prng;
	int		   *stats_offset;	/* first command of each script in stats */
	int			current_script;
	bool		continue_on_error;	/* the run's option */
	bool		abort_alone;	/* exit_on_abort is false */
	PbScriptCounts *counts;		/* its scripts' figures (script_stats.c) */
} PbScriptDriver;

/*
 * pb_script_setup
 *		Build the client's scripts from the run's configuration, prepare
 *		them, and set its variables: the predefined ones first, so that vars
 *		may override them.
 */
static void
pb_script_setup(PbDriverContext *ctx)
{
	const PbRunConfig *config = ctx->config;
	PbScriptDriver *d = palloc0(sizeof(PbScriptDriver));
	PbClientState *state;
	PbValue		v;
	int			ncommands = 0;

	ctx->state = d;
	/* a run given no options has the kind's defaults */
	d->continue_on_error = config->options != NULL &&
		((const PbPgbenchOptions *) config->options)->continue_on_error;
	d->abort_alone = config->options != NULL &&
		!((const PbPgbenchOptions *) config->options)->exit_on_abort;
	d->set = pb_config_build_scripts(config, false);
	d->counts = pb_script_stats_of(ctx->shared, ctx->client_no);
	d->exec = pb_executor_create(d->set, ctx->run);
	pb_executor_prepare(d->exec);

	/* every client draws its own numbers, reproducible from the run's seed */
	state = pb_client_create(d->set, ctx->seed, config->random_seed);
	if (state == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory")));
	pb_executor_set_client(d->exec, state);
	pb_prng_seed(&d->choose_prng,
				 (uint64) config->random_seed ^ ((uint64) ctx->client_no << 32));

	/*
	 * A retry draws the same numbers; it runs the script chosen for its
	 * transaction (pb_script_choose), which it does not choose again.
	 */
	ctx->draws[0] = &state->prng;
	ctx->ndraws = 1;

	v.type = PB_VAL_INT;
	v.u.ival = ctx->client_no;
	pb_var_set_value(state, pb_var_id(d->set, "client_id", false), &v);
	v.u.ival = config->random_seed;
	pb_var_set_value(state, pb_var_id(d->set, "random_seed", false), &v);
	pb_var_set_value(state, pb_var_id(d->set, "default_seed", false), &v);
	for (int i = 0; i < config->nvars; i++)
	{
		PbError		err;

		if (!pb_var_set_string(state, pb_var_id(d->set, config->var_names[i], false),
							   config->var_values[i], &err))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s", err.message)));
	}

	d->stats_offset = palloc(sizeof(int) * d->set->nscripts);
	for (int s = 0; s < d->set->nscripts; s++)
	{
		d->stats_offset[s] = ncommands;
		ncommands += d->set->scripts[s].ncommands;
	}
	if (ctx->run != NULL && ncommands != ctx->run->ncommands)
		elog(ERROR, "script set has %d commands, run has %d",
			 ncommands, ctx->run->ncommands);
}

/*
 * pb_script_choose
 *		Choose the next transaction's script by weight, before it is
 *		scheduled, as pgbench's CSTATE_CHOOSE_SCRIPT comes before its
 *		throttling: one draw per transaction, whatever was skipped.
 */
static void
pb_script_choose(PbDriverContext *ctx)
{
	PbScriptDriver *d = ctx->state;

	d->current_script = pb_choose_script(d->set, &d->choose_prng);
}

/*
 * pb_script_transaction
 *		Run the script chosen for the transaction (or tried again).
 */
static bool
pb_script_transaction(PbDriverContext *ctx, PbTxnCounts *counts)
{
	PbScriptDriver *d = ctx->state;
	int			script_no = d->current_script;
	int64		clock_ns = ctx->txn_begin_ns;
	bool		done;

	ctx->current_command = d->stats_offset[script_no];
	/* counters only: no clock read or count per command */
	done = pb_executor_run_script(d->exec, script_no,
								  ctx->run->counters_only ? NULL :
								  ctx->stats + d->stats_offset[script_no],
								  pb_command_hist(ctx, d->stats_offset[script_no]),
								  counts, &clock_ns);
	if (!ctx->run->counters_only)
		ctx->txn_end_ns = clock_ns;
	ctx->current_command = -1;
	return done;
}

/*
 * pb_script_abort
 *		Roll back what the script left open.  With continue_on_error, an SQL
 *		command's error fails its transaction only, as pgbench 19's
 *		--continue-on-error: the client goes on with its next one.  With
 *		exit_on_abort false, any other error of a script (an SQL command's,
 *		a meta-command's, the end of a script inside BEGIN) aborts its
 *		client alone, as pgbench's clients abort without --exit-on-abort.
 */
static void
pb_script_abort(PbDriverContext *ctx)
{
	PbScriptDriver *d = ctx->state;
	bool		in_script = ctx->current_command >= 0;

	pb_executor_abort(d->exec);
	/* the command the error came from, if it came from one */
	if (in_script)
		ctx->current_command = d->stats_offset[d->current_script] +
			pb_executor_current_command(d->exec);
	ctx->error_fails_transaction = in_script && d->continue_on_error &&
		pb_executor_failed_in_sql(d->exec);
	ctx->error_aborts_client = in_script && d->abort_alone &&
		!ctx->error_fails_transaction;
}

/*
 * Count a transaction of the script it ran, or skipped (the script chosen
 * for the transaction it skipped to), for the script's figures.
 */
static void
pb_script_transaction_ended(PbDriverContext *ctx, PbTxnEnd end,
							int64 latency_ns, int tries)
{
	PbScriptDriver *d = ctx->state;

	pb_script_stats_add(d->counts, d->current_script, end, latency_ns, tries);
}

/* The area of the segment where the clients count their scripts' figures */
static Size
pb_script_shared_size(const PbRunConfig *config, const PbRunParams *params)
{
	return pb_script_stats_size(params->nclients, config->nscripts);
}

/* Every figure zero */
static void
pb_script_shared_init(void *shared, const PbRunConfig *config,
					  const PbRunParams *params)
{
	pb_script_stats_init(shared, params->nclients, config->nscripts);
}

/* The script and line an error came from. */
static char *
pb_script_error_context(PbDriverContext *ctx)
{
	PbScriptDriver *d = ctx->state;
	PbScript   *script = &d->set->scripts[d->current_script];

	return psprintf("command at line %d of script \"%s\"",
					script->commands[pb_executor_current_command(d->exec)].line,
					script->name);
}

/*
 * pb_script_commands
 *		Every command of every script, in script order.
 */
static int
pb_script_commands(const PbRunConfig *config, PbCommandDesc **descs)
{
	PbScriptSet *set = pb_config_build_scripts(config, false);
	int			n = 0;

	for (int s = 0; s < set->nscripts; s++)
		n += set->scripts[s].ncommands;
	*descs = palloc0(sizeof(PbCommandDesc) * Max(n, 1));
	n = 0;
	for (int s = 0; s < set->nscripts; s++)
		for (int c = 0; c < set->scripts[s].ncommands; c++)
		{
			(*descs)[n].script_no = s + 1;
			(*descs)[n].command_no = c + 1;
			(*descs)[n].line = set->scripts[s].commands[c].line;
			(*descs)[n].text = pstrdup(set->scripts[s].commands[c].text);
			n++;
		}
	pb_scriptset_free(set);
	return n;
}

/* The options of a stored run, read as a run would read them. */
static void
pb_script_check_options(const PbWorkloadDef *def, Jsonb *options)
{
	if (options != NULL)
		(void) pb_options_from_json(&pb_pgbench_library, &pb_pgbench_scripts, options,
									PB_PGBENCH_OPTIONS_EXAMPLE, true);
}

/* pgbench shows no percentile; polarbench shows its p95 beside the others. */
static int
pb_script_percentile(const PbRunConfig *config)
{
	return 95;
}

/*
 * pb_script_progress_line
 *		pgbench's progress line (printProgressReport()): the time, tps, the
 *		latency's average and deviation, failures, and under a rate its lag
 *		and skipped transactions, with retries its retried ones.
 */
static void
pb_script_progress_line(char *buf, size_t len, const PbProgressTick *tick)
{
	const PbRunShared *run = tick->run;
	const PbRunSummary *interval = tick->interval;
	size_t		n;

	n = snprintf(buf, len,
				 "progress: %.1f s, %.1f tps, lat %.3f ms stddev %.3f, " INT64_FORMAT " failed",
				 tick->elapsed, interval->tps, interval->latency_avg,
				 interval->latency_stddev, interval->failed);
	if (run->rate > 0 && n < len)
	{
		n += snprintf(buf + n, len - n, ", lag %.3f ms", interval->lag_avg);
		if (run->latency_limit_ns > 0 && n < len)
			n += snprintf(buf + n, len - n, ", " INT64_FORMAT " skipped",
						  interval->skipped);
	}
	if (run->max_tries != 1 && n < len)
		snprintf(buf + n, len - n, ", " INT64_FORMAT " retried, " INT64_FORMAT " retries",
				 interval->retried, interval->retries);
}

/* The description pgbench gives a script of that name: a built-in's, or the name. */
static const char *
pb_script_desc(const char *name)
{
	for (int i = 0; i < pb_builtin_count(); i++)
		if (strcmp(pb_builtin_name(i), name) == 0)
			return pb_builtin_desc(i);
	return name;
}

/*
 * pb_script_names
 *		The names of the run's scripts, as the report shows them, and their
 *		weights; returns how many.  Runs recorded before script_names was
 *		kept name them in workload, joined by '+'.
 */
static int
pb_script_names(PbRow *run, char ***names, int **weights)
{
	char	   *workload = pb_row_text(run, "workload");
	char	  **kept;
	int			nkept = pb_row_texts(run, "script_names", &kept);
	char	   *w = pb_row_text(run, "weight_list");
	int			n = (int) pb_row_int(run, "nscripts");

	*names = palloc0(sizeof(char *) * Max(n, 1));
	*weights = palloc0(sizeof(int) * Max(n, 1));
	for (int i = 0; i < n; i++)
	{
		if (i < nkept)
			(*names)[i] = kept[i];
		(*weights)[i] = w ? (int) strtol(w, &w, 10) : 1;
		if (w && *w == ',')
			w++;
	}
	/* older runs: the names joined in workload */
	for (int i = 0, start = 0; workload != NULL && i < n; i++)
	{
		char	   *plus = strchr(workload + start, '+');
		int			end = plus ? (int) (plus - workload) : (int) strlen(workload);

		if ((*names)[i] == NULL)
			(*names)[i] = pnstrdup(workload + start, end - start);
		start = plus ? end + 1 : end;
	}
	return n;
}

/* One script's statement latencies, as pgbench -r prints them. */
static void
pb_script_report_commands(StringInfo out, SPITupleTable *st, uint64 nst,
						  int script_no, bool several, int max_tries)
{
	PbRow		row = {st, 0};

	appendStringInfo(out, "%sstatement latencies in milliseconds%s:\n",
					 several ? " - " : "",
					 max_tries == 1 ? " and failures" : ", failures and retries");
	for (uint64 i = 0; i < nst; i++)
	{
		char	   *command;
		size_t		len;

		row.row = i;
		if (pb_row_int(&row, "script_no") != script_no)
			continue;
		command = pb_row_text(&row, "command");
		command = command ? command : "";
		len = strcspn(command, "\n");
		if (max_tries == 1)
			appendStringInfo(out, "   %11.3f  %10s  %.*s\n", pb_row_num(&row, "latency_avg"),
							 pb_row_text(&row, "failures"), (int) len, command);
		else
			appendStringInfo(out, "   %11.3f  %10s  %10s  %.*s\n", pb_row_num(&row, "latency_avg"),
							 pb_row_text(&row, "failures"), pb_row_text(&row, "retries"),
							 (int) len, command);
	}
}

/* What the parts of pgbench's report read of the run */
typedef struct PbScriptReport
{
	StringInfo	out;
	PbRow	   *run;
	int64		done;
	int64		failed;
	int64		skipped;
	int64		cut_off;		/* in flight at the end, canceled */
	int64		total;			/* transactions tried */
	int			max_tries;
	double		rate;
	double		latency_limit;
	double		seconds;		/* measured */
	bool		latency;		/* some transaction measured */
} PbScriptReport;

/* A number column that runs of earlier versions may not have, or absent */
static double
pb_row_num_opt(PbRow *run, const char *column, double absent)
{
	char	   *v = pb_row_text_opt(run, column);

	return v ? strtod(v, NULL) : absent;
}

/*
 * pb_script_report_settings
 *		The lines before the figures: what ran, how, and how much.
 */
static void
pb_script_report_settings(PbScriptReport *r, char **names, int nscripts)
{
	StringInfo	out = r->out;
	int			clients = (int) pb_row_int(r->run, "clients");
	char	   *scale = pb_row_text(r->run, "scale");
	char	   *limit = pb_row_text(r->run, "transactions_limit");
	double		duration = pb_row_num(r->run, "duration");

	appendStringInfo(out, "transaction type: %s\n",
					 nscripts == 1 ? pb_script_desc(names[0]) :
					 nscripts == 0 ? pb_row_text(r->run, "workload") : "multiple scripts");
	appendStringInfo(out, "scaling factor: %s\n", scale ? scale : "1");
	/* the clients run the server's prepared plans, as pgbench -M prepared */
	appendStringInfoString(out, "query mode: prepared\n");
	appendStringInfo(out, "number of clients: %d\n", clients);
	/* pgbench's threads run its clients; here each client is a worker */
	appendStringInfo(out, "number of threads: %d (one server worker per client)\n", clients);
	/* 0 is unlimited, which pgbench does not print */
	if (r->max_tries != 0)
		appendStringInfo(out, "maximum number of tries: %d\n", r->max_tries);
	if (limit == NULL)
	{
		if (duration == floor(duration))
			appendStringInfo(out, "duration: %.0f s\n", duration);
		else
			appendStringInfo(out, "duration: %g s\n", duration);
		appendStringInfo(out, "number of transactions actually processed: " INT64_FORMAT "\n", r->done);
	}
	else
	{
		appendStringInfo(out, "number of transactions per client: %s\n", limit);
		appendStringInfo(out, "number of transactions actually processed: " INT64_FORMAT "/" INT64_FORMAT "\n",
						 r->done, strtoi64(limit, NULL, 10) * clients);
	}
}

/*
 * pb_script_report_failures
 *		The transactions that failed (by kind as options ask), were cut off
 *		at the end, tried again, skipped or late.
 */
static void
pb_script_report_failures(PbScriptReport *r, const PbReportOptions *options)
{
	StringInfo	out = r->out;
	int64		total = r->total;

	appendStringInfo(out, "number of failed transactions: " INT64_FORMAT " (%.3f%%)\n",
					 r->failed, total > 0 ? 100.0 * r->failed / total : 0.0);
	/* pgbench waits for them; polarbench cancels them after the grace */
	if (r->cut_off > 0)
		appendStringInfo(out, "number of transactions cut off at the end: " INT64_FORMAT " (%.3f%%)\n",
						 r->cut_off, 100.0 * r->cut_off / (total + r->cut_off));
	if ((options->failures_detailed > 0 || (options->failures_detailed < 0 && r->failed > 0)) &&
		pb_row_text_opt(r->run, "failed_serialization") != NULL)
	{
		int64		serialization = pb_row_int(r->run, "failed_serialization");
		int64		deadlock = pb_row_int(r->run, "failed_deadlock");

		appendStringInfo(out, "number of serialization failures: " INT64_FORMAT " (%.3f%%)\n",
						 serialization, total > 0 ? 100.0 * serialization / total : 0.0);
		appendStringInfo(out, "number of deadlock failures: " INT64_FORMAT " (%.3f%%)\n",
						 deadlock, total > 0 ? 100.0 * deadlock / total : 0.0);
		/* pgbench 19's, with --continue-on-error; runs of 1.4 had none */
		if (pb_row_text_opt(r->run, "failed_other") != NULL)
		{
			int64		other = pb_row_int(r->run, "failed_other");

			appendStringInfo(out, "number of other failures: " INT64_FORMAT " (%.3f%%)\n",
							 other, total > 0 ? 100.0 * other / total : 0.0);
		}
	}
	if (r->max_tries != 1)
	{
		appendStringInfo(out, "number of transactions retried: " INT64_FORMAT " (%.3f%%)\n",
						 pb_row_int(r->run, "retried"),
						 total > 0 ? 100.0 * pb_row_int(r->run, "retried") / total : 0.0);
		appendStringInfo(out, "total number of retries: " INT64_FORMAT "\n",
						 pb_row_int(r->run, "retries"));
	}
	if (r->rate > 0 && r->latency_limit > 0 && total > 0)
		appendStringInfo(out, "number of transactions skipped: " INT64_FORMAT " (%.3f%%)\n",
						 r->skipped, 100.0 * r->skipped / total);
	if (r->latency_limit > 0 && total > 0)
	{
		int64		late = pb_row_int(r->run, "late");

		appendStringInfo(out, "number of transactions above the %.1f ms latency limit: " INT64_FORMAT "/" INT64_FORMAT " (%.3f %%)\n",
						 r->latency_limit, late, r->done,
						 r->done > 0 ? 100.0 * late / r->done : 0.0);
	}
}

/*
 * pb_script_report_latency
 *		The latency and the rate, then polarbench's own figures: the run's
 *		id, the statements and their rate, the latency's percentiles.
 */
static void
pb_script_report_latency(PbScriptReport *r, int64 run_id)
{
	StringInfo	out = r->out;
	PbRow	   *run = r->run;

	if (r->latency)
	{
		/* measured for every transaction, as pgbench does under -P */
		appendStringInfo(out, "latency average = %.3f ms\n", pb_row_num(run, "latency_avg"));
		appendStringInfo(out, "latency stddev = %.3f ms\n", pb_row_num(run, "latency_stddev"));
	}
	if (r->latency && r->rate > 0)
		appendStringInfo(out, "rate limit schedule lag: avg %.3f (max %.3f) ms\n",
						 pb_row_num(run, "lag_avg"), pb_row_num(run, "lag_max"));
	/* no connection is made per client: there is no connection time */
	appendStringInfo(out, "tps = %f (without initial connection time)\n", pb_row_num(run, "tps"));

	appendStringInfo(out, "run id: " INT64_FORMAT "\n", run_id);
	appendStringInfo(out, "statements: " INT64_FORMAT " (qps = %f)\n",
					 pb_row_int(run, "statements"), pb_row_num(run, "qps"));
	if (r->latency && pb_row_text(run, "latency_p50") != NULL)
	{
		if (pb_row_text_opt(run, "latency_p90") != NULL)
			appendStringInfo(out, "latency percentiles: p50 = %.3f ms, p90 = %.3f ms, p95 = %.3f ms, p99 = %.3f ms, p99.9 = %.3f ms, max = %.3f ms\n",
							 pb_row_num(run, "latency_p50"), pb_row_num(run, "latency_p90"),
							 pb_row_num(run, "latency_p95"), pb_row_num(run, "latency_p99"),
							 pb_row_num(run, "latency_p999"), pb_row_num(run, "latency_max"));
		else
			appendStringInfo(out, "latency percentiles: p50 = %.3f ms, p95 = %.3f ms, p99 = %.3f ms, max = %.3f ms\n",
							 pb_row_num(run, "latency_p50"), pb_row_num(run, "latency_p95"),
							 pb_row_num(run, "latency_p99"), pb_row_num(run, "latency_max"));
	}
}

/*
 * pb_script_report_scripts
 *		Each script's name, weight and figures when there are several, and
 *		the latencies of its statements when options ask for them (-r).
 */
static void
pb_script_report_scripts(PbScriptReport *r, int64 run_id, char **names,
						 int *weights, int nscripts, const PbReportOptions *options)
{
	SPITupleTable *st = NULL;
	uint64		nst = 0;
	SPITupleTable *per_script;
	uint64		nper_script = 0;
	int64		total_weight = 0;

	if (options->statements)
		st = pb_report_query("SELECT * FROM @statements@ WHERE run_id = $1"
							 " ORDER BY script_no, command_no", run_id, &nst);
	if (nscripts <= 1)
	{
		if (options->statements)
			pb_script_report_commands(r->out, st, nst, 1, false, r->max_tries);
		return;
	}
	/* each script's figures, in its order; none for a run recorded before */
	per_script = pb_report_query("SELECT s.* FROM @runs@ r,"
								 " pg_catalog.jsonb_array_elements(r.figures OPERATOR(pg_catalog.->) 'scripts')"
								 "  WITH ORDINALITY AS e(value, n),"
								 " pg_catalog.jsonb_to_record(e.value) AS s(transactions int8, failed int8,"
								 "  failed_serialization int8, failed_deadlock int8, failed_other int8,"
								 "  retried int8, retries int8, skipped int8, latency_avg float8, latency_stddev float8)"
								 " WHERE r.run_id OPERATOR(pg_catalog.=) $1 ORDER BY e.n", run_id, &nper_script);
	for (int i = 0; i < nscripts; i++)
		total_weight += weights[i];
	for (int i = 0; i < nscripts; i++)
	{
		appendStringInfo(r->out, "SQL script %d: %s\n - weight: %d (targets %.1f%% of total)\n",
						 i + 1, pb_script_desc(names[i]), weights[i],
						 total_weight > 0 ? 100.0 * weights[i] / total_weight : 0.0);
		if (nper_script == (uint64) nscripts)
		{
			PbRow		script = {per_script, i};

			pb_script_stats_report(r->out, &script, r->total, r->seconds, r->max_tries,
								   options->failures_detailed > 0 ||
								   (options->failures_detailed < 0 && r->failed > 0),
								   r->rate > 0 && r->latency_limit > 0);
		}
		if (options->statements)
			pb_script_report_commands(r->out, st, nst, i + 1, true, r->max_tries);
	}
}

/*
 * pb_script_report
 *		pgbench 15's printResults(), line for line, with polarbench's own
 *		figures after it (the run's id, the statements and their rate, the
 *		latency's percentiles); the statement latencies of -r, and the
 *		failures by kind of --failures-detailed, as options ask.
 */
static void
pb_script_report(StringInfo out, PbRow *run, int64 run_id,
				 const PbReportOptions *options)
{
	PbScriptReport r;
	char	  **names;
	int		   *weights;
	int			nscripts = pb_script_names(run, &names, &weights);

	r.out = out;
	r.run = run;
	r.done = pb_row_int(run, "transactions");
	r.failed = pb_row_int(run, "failed");
	r.skipped = (int64) pb_row_num_opt(run, "skipped", 0);
	r.total = r.done + r.failed + r.skipped;
	r.cut_off = pb_row_int_opt(run, "cut_off");
	r.max_tries = (int) pb_row_num_opt(run, "max_tries", 1);
	r.rate = pb_row_num_opt(run, "rate", 0);
	r.latency_limit = pb_row_num_opt(run, "latency_limit", 0);
	r.latency = r.done > 0;
	r.seconds = pb_row_num(run, "seconds");

	pb_script_report_settings(&r, names, nscripts);
	pb_script_report_failures(&r, options);
	pb_script_report_latency(&r, run_id);
	pb_script_report_scripts(&r, run_id, names, weights, nscripts, options);
}

/*
 * pb_sql_writes
 *		Whether an SQL command may write, as its text says: anything but a
 *		plain SELECT (no INTO, FOR UPDATE or data-modifying WITH) and
 *		transaction control.
 */
static bool
pb_sql_writes(const char *sql)
{
	List	   *stmts = raw_parser(sql, RAW_PARSE_DEFAULT);
	ListCell   *lc;

	foreach(lc, stmts)
	{
		Node	   *stmt = ((RawStmt *) lfirst(lc))->stmt;
		SelectStmt *select = (SelectStmt *) stmt;

		if (IsA(stmt, TransactionStmt))
			continue;
		if (!IsA(stmt, SelectStmt) || select->intoClause != NULL ||
			select->lockingClause != NIL)
			return true;
		if (select->withClause != NULL)
		{
			ListCell   *c;

			foreach(c, select->withClause->ctes)
				if (!IsA(((CommonTableExpr *) lfirst(c))->ctequery, SelectStmt))
					return true;
		}
	}
	return false;
}

/*
 * pb_script_workload_at
 *		pgbench's built-in scripts, for polarbench_workloads: a script
 *		writes if one of its SQL commands does.
 */
static bool
pb_script_workload_at(int i, PbWorkloadEntry *entry)
{
	PbScriptSet *set;
	PbError		err;
	const PbScript *script;

	if (i >= pb_builtin_count())
		return false;
	entry->name = pb_builtin_name(i);
	entry->description = psprintf("pgbench's built-in script %s", pb_builtin_desc(i));
	/* every script takes the kind's options, which the view lists */
	entry->def = &pb_pgbench_scripts;
	entry->writes = false;
	set = pb_scriptset_create();
	if (!pb_script_parse(set, entry->name, pb_builtin_script(entry->name, NULL), 1, &err))
		elog(ERROR, "built-in script \"%s\" does not parse: %s", entry->name, err.message);
	script = &set->scripts[0];
	for (int c = 0; c < script->ncommands && !entry->writes; c++)
		if (script->commands[c].kind == PB_CMD_SQL)
			entry->writes = pb_sql_writes(script->commands[c].sql);
	pb_scriptset_free(set);
	return true;
}

/*
 * pb_script_figures
 *		At the run's end, what the run read of the tables: the scale (of
 *		pgbench_branches for a built-in script, as pgbench counts it;
 *		else as given, or 1), which pgbench's report prints; and each
 *		script's figures, which the clients counted (script_stats.c).  The
 *		run's variables as given are recorded apart, without the scale.
 */
static char *
pb_script_figures(const PbRunConfig *config, void *shared, void **state,
				  const PbFiguresInput *in)
{
	StringInfoData json;

	if (in == NULL)
		return NULL;
	initStringInfo(&json);
	appendStringInfoChar(&json, '{');
	for (int i = 0; i < config->nvars; i++)
		if (strcmp(config->var_names[i], "scale") == 0)
		{
			appendStringInfoString(&json, "\"scale\": ");
			escape_json(&json, config->var_values[i]);
			appendStringInfoString(&json, ", ");
			break;
		}
	pb_script_stats_json(&json, shared);
	appendStringInfoChar(&json, '}');
	return json.data;
}

/*
 * pb_script_dataset
 *		The data set a run works on: pgbench's tables, at the run's scale
 *		(a variable of every run, as pgbench's :scale).
 */
static char *
pb_script_dataset(const PbRunConfig *config)
{
	StringInfoData json;

	initStringInfo(&json);
	appendStringInfoString(&json, "{\"dataset\": \"pgbench\"");
	for (int i = 0; i < config->nvars; i++)
		if (strcmp(config->var_names[i], "scale") == 0)
			appendStringInfo(&json, ", \"scale\": %d", atoi(config->var_values[i]));
	appendStringInfoString(&json, ", \"table_names\": [\"pgbench_accounts\", \"pgbench_branches\","
						   " \"pgbench_history\", \"pgbench_tellers\"]}");
	return json.data;
}

static const PbDriver script_driver = {
	.report_style = "pgbench",
	.rows = PB_ROWS_STATEMENTS,
	.record_unused = true,
	.progress_by_command = false,
	.default_transactions = 10, /* pgbench's */
	.default_duration = 0,
	.configure = pb_script_configure,
	.check = NULL,
	.writes = NULL,
	.check_options = pb_script_check_options,
	.shared_size = pb_script_shared_size,
	.shared_init = pb_script_shared_init,
	.setup = pb_script_setup,
	.choose = pb_script_choose,
	.transaction = pb_script_transaction,
	.abort = pb_script_abort,
	.error_context = pb_script_error_context,
	.transaction_ended = pb_script_transaction_ended,
	.workload_at = pb_script_workload_at,
	.commands = pb_script_commands,
	.percentile = pb_script_percentile,
	.progress_line = pb_script_progress_line,
	.report = pb_script_report,
	.figures = pb_script_figures,
	.dataset = pb_script_dataset,
};

/* The data sets of the kind (pgbench_dataset.c) */
extern const struct PbDataset pb_dataset_pgbench;
static const struct PbDataset *const pgbench_datasets[] = {&pb_dataset_pgbench, NULL};

/* The kind's descriptor, its row in the registry */
const PbKind pb_kind_pgbench = {
	.library = &pb_pgbench_library,
	.driver = &script_driver,
	.datasets = pgbench_datasets,
};
