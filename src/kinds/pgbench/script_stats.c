/*-------------------------------------------------------------------------
 *
 * script_stats.c
 *	  Each script's own figures, as pgbench keeps them per script and
 *	  prints them with several scripts: its transactions that succeeded
 *	  (with their latency's average and deviation), failed (by kind), were
 *	  retried and were skipped.  The clients count them in the driver's area of the run's
 *	  segment, one row per client and script, each written by its client
 *	  alone; the recorder adds them up after the clients into the run's
 *	  figures (figures->'scripts', one object per script), and pgbench's
 *	  report reads them from there.  A run recorded before keeps none, and
 *	  its report prints none.
 *
 * A transaction skipped under a rate with a latency limit counts for the
 * script chosen for the transaction its client skipped to: the script is
 * chosen before the client waits for its turn, and each turn too late is
 * skipped in that wait, as pgbench counts them (processXactStats() with
 * its client's use_file, chosen before its throttling).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"

#include "driver.h"
#include "report_query.h"
#include "script_exec.h"

/* One script's figures in one client */
struct PbScriptCounts
{
	int64		transactions;	/* succeeded */
	int64		failed;
	int64		failed_serialization;
	int64		failed_deadlock;
	int64		failed_other;
	int64		retried;		/* tried more than once, either way */
	int64		retries;		/* tries beyond the first */
	int64		skipped;		/* too late under a rate's latency limit */
	double		latency_sum_ms; /* of those that succeeded */
	double		latency_sumsq_ms;
};

/* The driver's area of the segment: its size, then the clients' rows */
typedef struct PbScriptStatsArea
{
	int			nclients;
	int			nscripts;
	PbScriptCounts counts[FLEXIBLE_ARRAY_MEMBER];	/* [client][script] */
} PbScriptStatsArea;

/* The size of the area for a run's clients and scripts */
Size
pb_script_stats_size(int nclients, int nscripts)
{
	return add_size(offsetof(PbScriptStatsArea, counts),
					mul_size(mul_size(nclients, nscripts), sizeof(PbScriptCounts)));
}

/* The area as the run starts: every figure zero */
void
pb_script_stats_init(void *shared, int nclients, int nscripts)
{
	PbScriptStatsArea *area = shared;

	memset(area, 0, pb_script_stats_size(nclients, nscripts));
	area->nclients = nclients;
	area->nscripts = nscripts;
}

/* A client's row of the area: its scripts' figures */
PbScriptCounts *
pb_script_stats_of(void *shared, int client_no)
{
	PbScriptStatsArea *area = shared;

	return &area->counts[(Size) client_no * area->nscripts];
}

/*
 * pb_script_stats_add
 *		Count a transaction of script script_no (0-based) that ended as end,
 *		after tries tries; latency_ns is that of a successful one.
 */
void
pb_script_stats_add(PbScriptCounts *counts, int script_no, PbTxnEnd end,
					int64 latency_ns, int tries)
{
	PbScriptCounts *c = &counts[script_no];

	switch (end)
	{
		case PB_TXN_SUCCEEDED:
			{
				double		ms = latency_ns / 1e6;

				c->transactions++;
				c->latency_sum_ms += ms;
				c->latency_sumsq_ms += ms * ms;
				break;
			}
		case PB_TXN_FAILED_SERIALIZATION:
			c->failed++;
			c->failed_serialization++;
			break;
		case PB_TXN_FAILED_DEADLOCK:
			c->failed++;
			c->failed_deadlock++;
			break;
		case PB_TXN_FAILED_OTHER:
			c->failed++;
			c->failed_other++;
			break;
		case PB_TXN_SKIPPED:
			c->skipped++;
			break;
	}
	if (tries > 1)
	{
		c->retried++;
		c->retries += tries - 1;
	}
}

/*
 * pb_script_stats_json
 *		Append "scripts": each script's figures, summed over the clients,
 *		as a JSON array to json, an object being written.  Read after the
 *		clients have exited, whose last writes their exit's barrier made
 *		visible.
 */
void
pb_script_stats_json(StringInfo json, const void *shared)
{
	const PbScriptStatsArea *area = shared;

	pg_read_barrier();
	appendStringInfoString(json, "\"scripts\": [");
	for (int s = 0; s < area->nscripts; s++)
	{
		PbScriptCounts sum = {0};
		double		avg = 0;
		double		stddev = 0;

		for (int c = 0; c < area->nclients; c++)
		{
			const PbScriptCounts *one = &area->counts[(Size) c * area->nscripts + s];

			sum.transactions += one->transactions;
			sum.failed += one->failed;
			sum.failed_serialization += one->failed_serialization;
			sum.failed_deadlock += one->failed_deadlock;
			sum.failed_other += one->failed_other;
			sum.retried += one->retried;
			sum.retries += one->retries;
			sum.skipped += one->skipped;
			sum.latency_sum_ms += one->latency_sum_ms;
			sum.latency_sumsq_ms += one->latency_sumsq_ms;
		}
		pb_latency_moments(sum.transactions, sum.latency_sum_ms,
						   sum.latency_sumsq_ms, &avg, &stddev);
		appendStringInfo(json, "%s{\"transactions\": " INT64_FORMAT ", \"failed\": " INT64_FORMAT
						 ", \"failed_serialization\": " INT64_FORMAT
						 ", \"failed_deadlock\": " INT64_FORMAT
						 ", \"failed_other\": " INT64_FORMAT
						 ", \"retried\": " INT64_FORMAT ", \"retries\": " INT64_FORMAT
						 ", \"skipped\": " INT64_FORMAT,
						 s > 0 ? ", " : "", sum.transactions, sum.failed,
						 sum.failed_serialization, sum.failed_deadlock,
						 sum.failed_other, sum.retried, sum.retries, sum.skipped);
		if (sum.transactions > 0)
			appendStringInfo(json, ", \"latency_avg\": %.17g, \"latency_stddev\": %.17g",
							 avg, stddev);
		appendStringInfoChar(json, '}');
	}
	appendStringInfoChar(json, ']');
}

/*
 * pb_script_stats_report
 *		The lines of pgbench's report of several scripts that follow a
 *		script's weight (printResults()): its transactions, those processed
 *		and their rate, failed (by kind with failures_detailed), retried
 *		(with retries), skipped (under a rate with a latency limit), and
 *		its latency.  script is the script's object of the run's
 *		figures->'scripts' (without skipped in a run recorded before they
 *		were counted per script), run_total the run's transactions tried,
 *		seconds its measured time.
 */
void
pb_script_stats_report(StringInfo out, PbRow *script, int64 run_total,
					   double seconds, int max_tries, bool failures_detailed,
					   bool skips)
{
	int64		done = pb_row_int(script, "transactions");
	int64		failed = pb_row_int(script, "failed");
	char	   *skipped_text = pb_row_text(script, "skipped");
	int64		skipped = skipped_text ? strtoi64(skipped_text, NULL, 10) : 0;
	int64		total = done + failed + skipped;

	appendStringInfo(out, " - " INT64_FORMAT " transactions (%.1f%% of total)\n",
					 total, run_total > 0 ? 100.0 * total / run_total : 0.0);
	if (total > 0)
	{
		appendStringInfo(out, " - number of transactions actually processed: " INT64_FORMAT " (tps = %f)\n",
						 done, seconds > 0 ? done / seconds : 0.0);
		appendStringInfo(out, " - number of failed transactions: " INT64_FORMAT " (%.3f%%)\n",
						 failed, 100.0 * failed / total);
		if (failures_detailed)
		{
			int64		serialization = pb_row_int(script, "failed_serialization");
			int64		deadlock = pb_row_int(script, "failed_deadlock");
			int64		other = pb_row_int(script, "failed_other");

			appendStringInfo(out, " - number of serialization failures: " INT64_FORMAT " (%.3f%%)\n",
							 serialization, 100.0 * serialization / total);
			appendStringInfo(out, " - number of deadlock failures: " INT64_FORMAT " (%.3f%%)\n",
							 deadlock, 100.0 * deadlock / total);
			appendStringInfo(out, " - number of other failures: " INT64_FORMAT " (%.3f%%)\n",
							 other, 100.0 * other / total);
		}
		if (max_tries != 1)
		{
			int64		retried = pb_row_int(script, "retried");

			appendStringInfo(out, " - number of transactions retried: " INT64_FORMAT " (%.3f%%)\n",
							 retried, 100.0 * retried / total);
			appendStringInfo(out, " - total number of retries: " INT64_FORMAT "\n",
							 pb_row_int(script, "retries"));
		}
		if (skips && skipped_text != NULL)
			appendStringInfo(out, " - number of transactions skipped: " INT64_FORMAT " (%.3f%%)\n",
							 skipped, 100.0 * skipped / total);
	}
	if (done > 0)
	{
		appendStringInfo(out, " - latency average = %.3f ms\n", pb_row_num(script, "latency_avg"));
		appendStringInfo(out, " - latency stddev = %.3f ms\n", pb_row_num(script, "latency_stddev"));
	}
}
