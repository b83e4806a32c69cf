/*-------------------------------------------------------------------------
 *
 * compare.c
 *	  Comparisons you can trust: polarbench_compare(a, b, threshold) says,
 *	  metric by metric, whether the runs of side B are faster than those of
 *	  side A, by how much (the ratio B/A and its 95% interval) and by which
 *	  method; polarbench_steadiness(run_id) says whether a run's throughput
 *	  drifted; polarbench_interval() and polarbench_compare_figures() are
 *	  what a sweep's table makes its cells' intervals and marks of.
 *
 * The statistics are the measurement library's (compare_stats.c), which
 * the command-line program shares, so that its sweep marks are these:
 *	- two or more runs on a side: runs are the unit, Welch's t on the logs
 *	  of their figures (their summaries' tps, latency average and
 *	  percentiles, and each statement's or operation's);
 *	- one run a side: the runs' progress intervals, after the warm-up, in
 *	  batch means (the batch length chosen from the data) for throughput
 *	  and the latency average, and a block bootstrap of the intervals'
 *	  latency histograms, from a fixed seed, for percentiles.
 * A row that can have no interval says why in its note.
 *
 * The figures are read from the views with the caller's rights, under the
 * pinned search_path.  A role compares only runs whose texts it may read
 * (polarbench_may_read(), as polarbench_runs shows them): a comparison
 * matches statements by their text.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/lsyscache.h"

#include "pb_measure.h"
#include "safe_sql.h"
#include "settings_journal.h"
#include "functions.h"

PG_FUNCTION_INFO_V1(polarbench_compare);
PG_FUNCTION_INFO_V1(polarbench_steadiness);
PG_FUNCTION_INFO_V1(polarbench_interval);
PG_FUNCTION_INFO_V1(polarbench_compare_figures);

/*
 * The most runs a side that the power calculation looks for, and the
 * longest runs, as a multiple of those compared, it names
 */
#define PB_RUNS_NEEDED_LIMIT	10000
#define PB_LENGTH_FACTOR_LIMIT	1000

/* The progress rows a drift can be told from: four batches in each third */
#define PB_DRIFT_MIN_ROWS		12

/* The figures compared, in the order of the rows */
typedef enum CmpMetric
{
	CMP_TPS,
	CMP_QPS,
	CMP_LATENCY_AVG,
	CMP_P50,
	CMP_P95,
	CMP_P99,
	CMP_NMETRICS
} CmpMetric;

#define CMP_FIRST_PART_METRIC	CMP_LATENCY_AVG
#define CMP_NPERCENTILES		3

static const struct
{
	const char *name;			/* as polarbench_runs names its column */
	bool		lower_is_better;
	double		fraction;		/* of a percentile, else 0 */
}			cmp_metrics[CMP_NMETRICS] =
{
	{"tps", false, 0},
	{"qps", false, 0},
	{"latency_avg", true, 0},
	{"latency_p50", true, 0.5},
	{"latency_p95", true, 0.95},
	{"latency_p99", true, 0.99},
};

/* A statement's or an operation's latencies in one run */
typedef struct CmpPart
{
	char	   *key;			/* what matches it across runs */
	char	   *label;			/* as the part column shows it */
	bool		operation;		/* a YCSB-style operation, not a statement */
	double		figures[CMP_NMETRICS];	/* NAN when none */
} CmpPart;

/* One run, as a comparison reads it */
typedef struct CmpRun
{
	int64		run_id;
	char	   *workload;
	int			progress_interval;
	bool		counters_only;
	double		figures[CMP_NMETRICS];	/* its summary's, NAN when none */
	/* its progress rows, after the warm-up, in order */
	int			nrows;
	double	   *tps;
	double	   *qps;
	double	   *latency;		/* each interval's average, ms */
	double	   *transactions;	/* each interval's: the average's weight */
	PbIntervalHist *hists;
	int			nhists;			/* rows that keep a histogram */
	/* whether its throughput drifted, when it can be told (status OK) */
	PbStatStatus drift_status;
	PbDrift		drift;
	/* its statements or operations */
	int			nparts;
	CmpPart    *parts;
} CmpRun;

/* One row of polarbench_compare(), as it is made */
typedef struct CmpRow
{
	const char *metric;
	const char *part;
	double		a;
	double		b;
	PbRatio		ratio;
	PbVerdict	verdict;
	char	   *method;
	int			runs_needed;	/* 0 when none */
	StringInfoData note;
} CmpRow;

/* ---- reading runs -------------------------------------------------------- */

/* A float8 column, NAN when NULL. */
static double
cmp_float(SPITupleTable *t, uint64 row, int col)
{
	bool		isnull;
	Datum		d = SPI_getbinval(t->vals[row], t->tupdesc, col, &isnull);

	return isnull ? NAN : DatumGetFloat8(d);
}

/* Run a query of the comparison with the run's id as $1. */
static SPITupleTable *
cmp_query(const char *sql, int64 run_id, const char *schema)
{
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(run_id)};

	if (SPI_execute_with_args(pb_sql_in_schema(sql, schema), 1, types, values,
							  NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not read run " INT64_FORMAT, run_id);
	return SPI_tuptable;
}

/* Order a histogram's pairs by bucket, for qsort(). */
static int
cmp_pair(const void *x, const void *y)
{
	const int64 *a = x;
	const int64 *b = y;

	return a[0] < b[0] ? -1 : a[0] > b[0];
}

/*
 * cmp_histogram
 *		An interval's histogram from its compact form, pairs of (a bucket's
 *		lower bound in ns, its count): the buckets in ascending order, each
 *		once (any value in a bucket names it).
 */
static void
cmp_histogram(ArrayType *arr, PbIntervalHist *h)
{
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	int64	   *pairs;
	int			npairs = 0;
	int		   *buckets;
	uint64_t   *counts;
	int			k = 0;

	deconstruct_array(arr, INT8OID, sizeof(int64), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
					  &elems, &nulls, &n);
	pairs = palloc(sizeof(int64) * 2 * Max(n / 2, 1));
	for (int i = 0; i + 1 < n; i += 2)
	{
		if (nulls[i] || nulls[i + 1] || DatumGetInt64(elems[i]) < 0 ||
			DatumGetInt64(elems[i + 1]) <= 0)
			continue;
		pairs[2 * npairs] = pb_hist_bucket((uint64) DatumGetInt64(elems[i]));
		pairs[2 * npairs + 1] = DatumGetInt64(elems[i + 1]);
		npairs++;
	}
	qsort(pairs, npairs, 2 * sizeof(int64), cmp_pair);
	buckets = palloc(sizeof(int) * Max(npairs, 1));
	counts = palloc(sizeof(uint64_t) * Max(npairs, 1));
	for (int i = 0; i < npairs; i++)
	{
		if (k > 0 && buckets[k - 1] == (int) pairs[2 * i])
			counts[k - 1] += pairs[2 * i + 1];
		else
		{
			buckets[k] = (int) pairs[2 * i];
			counts[k++] = pairs[2 * i + 1];
		}
	}
	h->n = k;
	h->buckets = buckets;
	h->counts = counts;
}

/* The first line of a statement's text, shortened, as its row names it. */
static char *
cmp_statement_label(int script_no, int command_no, const char *text)
{
	int			len = strcspn(text, "\r\n");

	if (len > 60)
		return psprintf("%d.%d: %.57s...", script_no, command_no, text);
	return psprintf("%d.%d: %.*s", script_no, command_no, len, text);
}

/*
 * cmp_load_run
 *		Read a run to compare (verb says how: "compare", "examine"): its
 *		summary, its progress rows with their histograms, and its
 *		statements' or operations' latencies.  It must exist, be stored,
 *		have finished, and be the caller's to read.
 */
static void
cmp_load_run(int64 run_id, const char *verb, const char *schema, CmpRun *run)
{
	SPITupleTable *t;
	uint64		n;
	char	   *status;
	bool		isnull;

	memset(run, 0, sizeof(*run));
	run->run_id = run_id;
	if (run_id < 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("run " INT64_FORMAT " is not stored", run_id),
				 errdetail("A run on a hot standby has a negative id and is kept only by the session that ran it."),
				 errhint("Store it on the primary with polarbench_record(), and %s the stored run.", verb)));

	t = cmp_query("SELECT r.status, r.workload, r.run_by, r.progress_interval,"
				  "       coalesce(r.counters_only, false),"
				  "       r.tps, r.qps, r.latency_avg, r.latency_p50, r.latency_p95, r.latency_p99,"
				  "       @extschema@.polarbench_may_read(coalesce((SELECT a.oid FROM pg_catalog.pg_roles a"
				  "                                                   WHERE a.rolname = r.run_by), 0))"
				  "  FROM @extschema@.polarbench_runs r WHERE r.run_id = $1",
				  run_id, schema);
	if (SPI_processed == 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("run " INT64_FORMAT " does not exist", run_id),
				 errhint("The runs are in polarbench_runs.")));
	if (!DatumGetBool(SPI_getbinval(t->vals[0], t->tupdesc, 12, &isnull)))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to %s run " INT64_FORMAT, verb, run_id),
				 errdetail("Run " INT64_FORMAT " is role \"%s\"'s: only that role, the roles that have its privileges and the members of pg_read_all_stats may read it.",
						   run_id, SPI_getvalue(t->vals[0], t->tupdesc, 3)),
				 errhint("Compare the runs whose texts polarbench_runs shows you.")));
	status = SPI_getvalue(t->vals[0], t->tupdesc, 1);
	if (strcmp(status, "running") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("run " INT64_FORMAT " has not ended", run_id),
				 errhint("Wait for it with polarbench_wait(" INT64_FORMAT ").", run_id)));
	if (strcmp(status, "finished") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("run " INT64_FORMAT " did not finish", run_id),
				 errdetail("It %s: its figures cover only part of what it was to measure.",
						   strcmp(status, "failed") == 0 ? "failed" :
						   strcmp(status, "aborted") == 0 ? "was aborted (a client stopped on an error)" :
						   "was canceled"),
				 errhint("Compare finished runs.")));
	run->workload = SPI_getvalue(t->vals[0], t->tupdesc, 2);
	run->progress_interval = DatumGetInt32(SPI_getbinval(t->vals[0], t->tupdesc, 4, &isnull));
	run->counters_only = DatumGetBool(SPI_getbinval(t->vals[0], t->tupdesc, 5, &isnull));
	for (int m = 0; m < CMP_NMETRICS; m++)
		run->figures[m] = cmp_float(t, 0, 6 + m);

	/* its progress rows: each interval's rates, average and histogram */
	t = cmp_query("SELECT p.transactions::pg_catalog.float8, p.tps, p.qps, p.latency_avg,"
				  "       p.latency_histogram"
				  "  FROM @extschema@.polarbench_progress p WHERE p.run_id = $1"
				  " ORDER BY p.elapsed",
				  run_id, schema);
	n = SPI_processed;
	run->nrows = (int) n;
	run->transactions = palloc(sizeof(double) * (n + 1));
	run->tps = palloc(sizeof(double) * (n + 1));
	run->qps = palloc(sizeof(double) * (n + 1));
	run->latency = palloc(sizeof(double) * (n + 1));
	run->hists = palloc0(sizeof(PbIntervalHist) * (n + 1));
	for (uint64 i = 0; i < n; i++)
	{
		Datum		d;

		run->transactions[i] = cmp_float(t, i, 1);
		run->tps[i] = cmp_float(t, i, 2);
		run->qps[i] = cmp_float(t, i, 3);
		run->latency[i] = cmp_float(t, i, 4);
		if (isnan(run->latency[i]))
			run->transactions[i] = 0;	/* no weight without an average */
		d = SPI_getbinval(t->vals[i], t->tupdesc, 5, &isnull);
		if (!isnull)
		{
			cmp_histogram(DatumGetArrayTypeP(d), &run->hists[i]);
			run->nhists++;
		}
	}

	/* its statements (SQL commands only) or operations, that ran */
	t = cmp_query("SELECT false, s.script_no::pg_catalog.text, s.command_no::pg_catalog.text, s.command,"
				  "       s.latency_avg, s.latency_p50, s.latency_p95, s.latency_p99"
				  "  FROM @extschema@.polarbench_statements s"
				  " WHERE s.run_id = $1 AND s.executions > 0"
				  " UNION ALL "
				  "SELECT true, o.operation, NULL, NULL,"
				  "       o.latency_avg, o.latency_p50, o.latency_p95, o.latency_p99"
				  "  FROM @extschema@.polarbench_operations o"
				  " WHERE o.run_id = $1 AND o.operations > 0"
				  " ORDER BY 1, 2, 3",
				  run_id, schema);
	n = SPI_processed;
	run->parts = palloc0(sizeof(CmpPart) * (n + 1));
	for (uint64 i = 0; i < n; i++)
	{
		CmpPart    *part = &run->parts[run->nparts];
		bool		operation = DatumGetBool(SPI_getbinval(t->vals[i], t->tupdesc, 1, &isnull));
		char	   *name = SPI_getvalue(t->vals[i], t->tupdesc, 2);

		if (operation)
		{
			part->key = psprintf("operation %s", name);
			part->label = name;
		}
		else
		{
			int			script_no = atoi(name);
			int			command_no = atoi(SPI_getvalue(t->vals[i], t->tupdesc, 3));
			char	   *text = SPI_getvalue(t->vals[i], t->tupdesc, 4);

			/* a meta-command's time is the client's, not the server's */
			if (text == NULL || text[0] == '\\')
				continue;
			part->key = psprintf("statement %d.%d %s", script_no, command_no, text);
			part->label = cmp_statement_label(script_no, command_no, text);
		}
		part->operation = operation;
		for (int m = 0; m < CMP_NMETRICS; m++)
			part->figures[m] = m < CMP_FIRST_PART_METRIC ? NAN : cmp_float(t, i, 5 + m - CMP_FIRST_PART_METRIC);
		run->nparts++;
	}

	/* whether its throughput drifted */
	run->drift_status = PB_STAT_TOO_FEW;
	if (run->nrows >= PB_DRIFT_MIN_ROWS)
	{
		run->drift_status = pb_drift(run->tps, run->nrows, PB_CONFIDENCE, &run->drift);
		if (run->drift_status == PB_STAT_NO_MEMORY)
			ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	}
}

/* ---- the rows ----------------------------------------------------------- */

/* A row of metric (of part, NULL for the whole run), with no figures yet. */
static void
cmp_row_init(CmpRow *row, const char *metric, const char *part)
{
	memset(row, 0, sizeof(*row));
	row->metric = metric;
	row->part = part;
	row->a = row->b = NAN;
	row->ratio.ratio = row->ratio.low = row->ratio.high = NAN;
	initStringInfo(&row->note);
}

/* Add a sentence to a row's note. */
static void
cmp_note(CmpRow *row, const char *fmt,...) pg_attribute_printf(2, 3);

static void
cmp_note(CmpRow *row, const char *fmt,...)
{
	va_list		args;

	if (row->note.len > 0)
		appendStringInfoString(&row->note, "; ");
	for (;;)
	{
		int			needed;

		va_start(args, fmt);
		needed = appendStringInfoVA(&row->note, fmt, args);
		va_end(args);
		if (needed == 0)
			break;
		enlargeStringInfo(&row->note, needed);
	}
}

/* The geometric mean of n figures, their mean if one is not above zero. */
static double
cmp_center(const double *x, int n)
{
	double		sum = 0;
	double		logs = 0;
	bool		positive = true;

	for (int i = 0; i < n; i++)
	{
		sum += x[i];
		if (x[i] > 0)
			logs += log(x[i]);
		else
			positive = false;
	}
	return positive ? exp(logs / n) : sum / n;
}

/* The sample standard deviation of the logs of n positive figures. */
static double
cmp_log_sd(const double *x, int n)
{
	double		mean = 0;
	double		ss = 0;

	for (int i = 0; i < n; i++)
		mean += log(x[i]);
	mean /= n;
	for (int i = 0; i < n; i++)
		ss += (log(x[i]) - mean) * (log(x[i]) - mean);
	return n > 1 ? sqrt(ss / (n - 1)) : NAN;
}

/*
 * cmp_runs_no_spread
 *		A row of runs as the unit with a side whose runs all give the same
 *		figure: no interval and no verdict, a note saying why, and when the
 *		other side spreads, the runs a side that would show a difference of
 *		the size seen if runs spread as that side's do.
 */
static void
cmp_runs_no_spread(CmpRow *row, const double *fa, int na, const double *fb,
				   int nb)
{
	int			flat = row->ratio.flat;
	const double *spread = NULL;
	int			nspread = 0;

	row->ratio.low = row->ratio.high = NAN;
	if (flat == (PB_FLAT_A | PB_FLAT_B))
		cmp_note(row, "no spread: the runs of side A all give %g and those of side B %g, and an interval needs their spread (a percentile is a histogram bucket's value, so runs often give the same one)",
				 fa[0], fb[0]);
	else
	{
		bool		a_flat = (flat & PB_FLAT_A) != 0;

		cmp_note(row, "no spread: the %d runs of side %s all give %g, and an interval needs their spread (a percentile is a histogram bucket's value, so runs often give the same one)",
				 a_flat ? na : nb, a_flat ? "A" : "B", a_flat ? fa[0] : fb[0]);
		if (a_flat && nb >= 2)
		{
			spread = fb;
			nspread = nb;
		}
		else if (!a_flat && na >= 2)
		{
			spread = fa;
			nspread = na;
		}
	}
	if (spread == NULL)
		return;
	row->runs_needed = pb_runs_needed(cmp_log_sd(spread, nspread), log(row->ratio.ratio),
									  PB_CONFIDENCE, PB_POWER, PB_RUNS_NEEDED_LIMIT);
	if (row->runs_needed > 0)
		cmp_note(row, "runs_needed: the runs a side that would show a difference of %+.1f%% with 80%% power, if runs spread as those of side %s did",
				 100 * (row->ratio.ratio - 1), spread == fa ? "A" : "B");
	else if (row->runs_needed < 0)
	{
		cmp_note(row, "more than %d runs a side would be needed to show a difference of %+.1f%% with 80%% power, if runs spread as those of side %s did",
				 PB_RUNS_NEEDED_LIMIT, 100 * (row->ratio.ratio - 1), spread == fa ? "A" : "B");
		row->runs_needed = 0;
	}
}

/*
 * cmp_runs_row
 *		A row with runs as the unit: na figures of A's runs against nb of
 *		B's, by Welch's t on their logs (Student's t with the spread of the
 *		side of several runs when the other has one); the verdict, and for
 *		a difference not shown, the runs a side that would show one of the
 *		size seen.
 */
static void
cmp_runs_row(CmpRow *row, const double *fa, int na, const double *fb, int nb,
			 bool lower_is_better, double threshold)
{
	PbStatStatus st = pb_ratio_of_runs(fa, na, fb, nb, PB_CONFIDENCE, &row->ratio);

	row->a = na > 0 ? cmp_center(fa, na) : NAN;
	row->b = nb > 0 ? cmp_center(fb, nb) : NAN;
	if (st == PB_STAT_TOO_FEW)
	{
		row->ratio.ratio = row->a > 0 ? row->b / row->a : NAN;
		cmp_note(row, "one run a side gives no spread of runs");
		return;
	}
	if (st == PB_STAT_NOT_POSITIVE)
	{
		row->ratio.ratio = row->a > 0 ? row->b / row->a : NAN;
		cmp_note(row, "a figure of zero has no ratio on the log scale");
		return;
	}
	if (st == PB_STAT_NO_SPREAD)
	{
		cmp_runs_no_spread(row, fa, na, fb, nb);
		return;
	}
	if (na >= 2 && nb >= 2)
		row->method = psprintf("Welch's t on the logs of %d and %d runs, %.1f df",
							   na, nb, row->ratio.df);
	else
		row->method = psprintf("Student's t on the logs of %d and %d runs, the spread of the %d for both, %.0f df",
							   na, nb, Max(na, nb), row->ratio.df);
	row->verdict = pb_verdict(&row->ratio, lower_is_better, threshold);
	if (row->verdict == PB_VERDICT_NO_DIFFERENCE)
	{
		double		sd;

		/* the spread of one run's log figure, pooled over the sides */
		if (na >= 2 && nb >= 2)
		{
			double		sa = cmp_log_sd(fa, na);
			double		sb = cmp_log_sd(fb, nb);

			sd = sqrt(((na - 1) * sa * sa + (nb - 1) * sb * sb) / (na + nb - 2));
		}
		else
			sd = na >= 2 ? cmp_log_sd(fa, na) : cmp_log_sd(fb, nb);
		row->runs_needed = pb_runs_needed(sd, log(row->ratio.ratio), PB_CONFIDENCE,
										  PB_POWER, PB_RUNS_NEEDED_LIMIT);
		if (row->runs_needed > 0)
			cmp_note(row, "runs_needed: the runs a side that would show a difference of %+.1f%% with 80%% power, if runs spread as these did",
					 100 * (row->ratio.ratio - 1));
		else if (row->runs_needed < 0)
		{
			cmp_note(row, "more than %d runs a side would be needed to show a difference of %+.1f%% with 80%% power",
					 PB_RUNS_NEEDED_LIMIT, 100 * (row->ratio.ratio - 1));
			row->runs_needed = 0;
		}
	}
}

/*
 * cmp_power_note
 *		For one run a side, a difference not shown: how long both runs would
 *		have to be to show one of the size seen (the power calculation), as
 *		a note; seconds is how long they measured.
 */
static void
cmp_power_note(CmpRow *row, double seconds)
{
	double		factor;

	if (row->verdict != PB_VERDICT_NO_DIFFERENCE)
		return;
	factor = pb_length_factor(row->ratio.se, log(row->ratio.ratio), PB_CONFIDENCE, PB_POWER);
	if (isnan(factor) || seconds <= 0)
		return;
	if (factor > PB_LENGTH_FACTOR_LIMIT)
		cmp_note(row, "runs more than %d times as long as these would be needed to show a difference of %+.2f%% with 80%% power",
				 PB_LENGTH_FACTOR_LIMIT, 100 * (row->ratio.ratio - 1));
	else
		cmp_note(row, "runs of about %.0f s each (these measured %.0f s) would show a difference of %+.1f%% with 80%% power, if each varied as much within itself",
				 ceil(factor * seconds), seconds, 100 * (row->ratio.ratio - 1));
}

/*
 * cmp_has_rows
 *		Whether a run has the progress rows a one-run-a-side comparison
 *		needs; if not, says why in the row's note.
 */
static bool
cmp_has_rows(CmpRow *row, const CmpRun *run)
{
	if (run->nrows == 0)
	{
		cmp_note(row, "run " INT64_FORMAT " has no progress rows: with one run a side, the runs need progress => 1 or more",
				 run->run_id);
		return false;
	}
	if (run->nrows < PB_MIN_BATCHES)
	{
		cmp_note(row, "run " INT64_FORMAT " has %d progress rows, too few for batch means: %d at least",
				 run->run_id, run->nrows, PB_MIN_BATCHES);
		return false;
	}
	return true;
}

/*
 * cmp_batch_row
 *		A row of throughput or the latency average with one run a side: each
 *		run's progress intervals in batch means, the ratio of the means by
 *		the delta method with Welch's degrees of freedom.
 */
static void
cmp_batch_row(CmpRow *row, CmpMetric m, const CmpRun *ra, const CmpRun *rb,
			  double threshold)
{
	const CmpRun *runs[2] = {ra, rb};
	PbBatchMeans bm[2];
	bool		ok = true;
	int			sides = ra->run_id == rb->run_id ? 1 : 2;
	PbStatStatus st;

	/* a run against itself is read once, and says what it lacks once */
	for (int s = 0; s < sides; s++)
		ok &= cmp_has_rows(row, runs[s]);
	if (!ok)
		return;
	for (int s = 0; s < sides; s++)
	{
		const CmpRun *run = runs[s];
		const double *x = m == CMP_TPS ? run->tps : m == CMP_QPS ? run->qps : run->latency;

		st = pb_batch_means(x, m == CMP_LATENCY_AVG ? run->transactions : NULL,
							run->nrows, PB_MIN_BATCHES, &bm[s]);

		if (st == PB_STAT_NO_MEMORY)
			ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
		if (st != PB_STAT_OK)
		{
			cmp_note(row, "run " INT64_FORMAT " has too few progress intervals with transactions for batch means",
					 run->run_id);
			ok = false;
		}
		else if (!bm[s].settled)
			cmp_note(row, "the batch means of run " INT64_FORMAT " are still correlated (%.2f) in its longest batches: the interval may be too narrow",
					 run->run_id, Min(bm[s].autocorr, 1.0));
	}
	if (!ok)
		return;
	if (sides == 1)
		bm[1] = bm[0];
	row->a = bm[0].estimate.mean;
	row->b = bm[1].estimate.mean;
	st = pb_ratio_of_means(&bm[0].estimate, &bm[1].estimate, PB_CONFIDENCE, &row->ratio);
	if (st == PB_STAT_NO_SPREAD)
	{
		row->ratio.low = row->ratio.high = NAN;
		for (int s = 0; s < sides; s++)
			if ((row->ratio.flat & (s == 0 ? PB_FLAT_A : PB_FLAT_B)) != 0)
				cmp_note(row, "no spread: the %s of run " INT64_FORMAT " is the same in every batch of its progress intervals, and an interval needs its spread",
						 cmp_metrics[m].name, runs[s]->run_id);
		return;
	}
	if (st != PB_STAT_OK)
	{
		row->ratio.ratio = row->a > 0 ? row->b / row->a : NAN;
		row->ratio.low = row->ratio.high = NAN;
		cmp_note(row, "a figure of zero has no ratio on the log scale");
		return;
	}
	row->method = psprintf("batch means: run " INT64_FORMAT " in %d batches of %d intervals (%d s), run " INT64_FORMAT " in %d of %d (%d s), %.1f df",
						   ra->run_id, bm[0].batches, bm[0].length, bm[0].length * ra->progress_interval,
						   rb->run_id, bm[1].batches, bm[1].length, bm[1].length * rb->progress_interval,
						   row->ratio.df);
	row->verdict = pb_verdict(&row->ratio, cmp_metrics[m].lower_is_better, threshold);
	cmp_power_note(row, Max(bm[0].used * ra->progress_interval, bm[1].used * rb->progress_interval));
}

/*
 * cmp_bootstrap_rows
 *		The percentile rows with one run a side: a block bootstrap of each
 *		run's progress intervals' latency histograms, from a fixed seed.
 */
static void
cmp_bootstrap_rows(CmpRow *rows, const CmpRun *ra, const CmpRun *rb,
				   double threshold)
{
	const CmpRun *runs[2] = {ra, rb};
	PbBootSide	sides[2];
	double		fractions[CMP_NPERCENTILES];
	double		values[2][CMP_NPERCENTILES];
	PbRatio		ratios[CMP_NPERCENTILES];
	bool		ok = true;
	PbStatStatus st;

	for (int f = 0; f < CMP_NPERCENTILES; f++)
		fractions[f] = cmp_metrics[CMP_P50 + f].fraction;
	for (int s = 0; s < 2; s++)
	{
		const CmpRun *run = runs[s];
		int			block;

		/* a run against itself is resampled twice, and said once */
		if (s == 1 && rb->run_id == ra->run_id)
		{
			sides[1] = sides[0];
			continue;
		}

		for (int f = 0; f < CMP_NPERCENTILES; f++)
			ok &= cmp_has_rows(&rows[f], run);
		if (!ok)
			continue;
		if (run->counters_only || run->nhists < run->nrows)
		{
			for (int f = 0; f < CMP_NPERCENTILES; f++)
			{
				if (run->counters_only)
					cmp_note(&rows[f], "run " INT64_FORMAT " kept counters only: it has no latency histograms",
							 run->run_id);
				else
					cmp_note(&rows[f], "the progress rows of run " INT64_FORMAT " keep no latency histograms (recorded before polarbench 1.4)",
							 run->run_id);
			}
			ok = false;
			continue;
		}
		st = pb_bootstrap_block(run->hists, run->nrows, fractions, CMP_NPERCENTILES, &block);
		if (st == PB_STAT_NO_MEMORY)
			ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
		if (st != PB_STAT_OK)
		{
			for (int f = 0; f < CMP_NPERCENTILES; f++)
				cmp_note(&rows[f], "run " INT64_FORMAT " has fewer than %d progress intervals with transactions, too few for the bootstrap",
						 run->run_id, PB_MIN_BATCHES);
			ok = false;
			continue;
		}
		sides[s].intervals = run->hists;
		sides[s].n = run->nrows;
		sides[s].block = block;
		sides[s].blocks = run->nrows / block;
	}
	if (!ok)
		return;
	st = pb_bootstrap_percentiles(&sides[0], &sides[1], fractions, CMP_NPERCENTILES,
								  PB_BOOTSTRAP_RESAMPLES, PB_BOOTSTRAP_SEED,
								  PB_CONFIDENCE, values[0], values[1], ratios);
	if (st == PB_STAT_NO_MEMORY)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	for (int f = 0; f < CMP_NPERCENTILES; f++)
	{
		CmpRow	   *row = &rows[f];

		if (st != PB_STAT_OK)
		{
			if (st == PB_STAT_NOT_POSITIVE)
				cmp_note(row, "a percentile of zero has no ratio on the log scale");
			else
				cmp_note(row, "too few of the resamples hold any transaction");
			continue;
		}
		row->a = values[0][f] / 1e6;
		row->b = values[1][f] / 1e6;
		row->ratio = ratios[f];
		if (row->ratio.flat != 0)
		{
			for (int s = 0; s < (rb->run_id == ra->run_id ? 1 : 2); s++)
				if ((row->ratio.flat & (s == 0 ? PB_FLAT_A : PB_FLAT_B)) != 0)
					cmp_note(row, "no spread: the %s of run " INT64_FORMAT " is %g ms in every resample of its intervals, and an interval needs its spread (a percentile is a histogram bucket's value)",
							 row->metric, runs[s]->run_id, values[s][f] / 1e6);
			continue;
		}
		row->method = psprintf("block bootstrap of the intervals' histograms: %d resamples of run " INT64_FORMAT "'s %d blocks of %d intervals and run " INT64_FORMAT "'s %d of %d, seed " UINT64_FORMAT,
							   PB_BOOTSTRAP_RESAMPLES, ra->run_id, sides[0].blocks, sides[0].block,
							   rb->run_id, sides[1].blocks, sides[1].block,
							   (uint64) PB_BOOTSTRAP_SEED);
		row->verdict = pb_verdict(&row->ratio, true, threshold);
		cmp_power_note(row, Max(sides[0].blocks * sides[0].block * ra->progress_interval,
								sides[1].blocks * sides[1].block * rb->progress_interval));
	}
}

/* The text of a float8 row value, NULL for NAN. */
static void
cmp_put_float(Datum *value, bool *isnull, double v)
{
	*isnull = isnan(v);
	*value = Float8GetDatum(v);
}

/* Put a row into the result, with the runs that drifted in its note. */
static void
cmp_emit(ReturnSetInfo *rsinfo, CmpRow *row, const char *drift_note)
{
	Datum		values[11];
	bool		nulls[11] = {0};
	const char *verdict = pb_verdict_name(row->verdict);

	if (drift_note != NULL)
		cmp_note(row, "%s", drift_note);
	values[0] = CStringGetTextDatum(row->metric);
	nulls[1] = row->part == NULL;
	values[1] = row->part ? CStringGetTextDatum(row->part) : (Datum) 0;
	cmp_put_float(&values[2], &nulls[2], row->a);
	cmp_put_float(&values[3], &nulls[3], row->b);
	cmp_put_float(&values[4], &nulls[4], row->ratio.ratio);
	cmp_put_float(&values[5], &nulls[5], row->ratio.low);
	cmp_put_float(&values[6], &nulls[6], row->ratio.high);
	nulls[7] = verdict == NULL;
	values[7] = verdict ? CStringGetTextDatum(verdict) : (Datum) 0;
	nulls[8] = row->method == NULL;
	values[8] = row->method ? CStringGetTextDatum(row->method) : (Datum) 0;
	nulls[9] = row->runs_needed <= 0;
	values[9] = Int32GetDatum(row->runs_needed);
	nulls[10] = row->note.len == 0;
	values[10] = row->note.len > 0 ? CStringGetTextDatum(row->note.data) : (Datum) 0;
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/* ---- the arguments ------------------------------------------------------ */

/*
 * cmp_side
 *		The run ids of a side (argument argno, named side), a bigint or a
 *		one-dimensional bigint[]: none null, none twice, at least one.
 */
static int
cmp_side(FunctionCallInfo fcinfo, int argno, bool scalar, const char *side,
		 int64 **ids)
{
	ArrayType  *arr;
	Datum	   *elems;
	bool	   *nulls;
	int			n;

	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("the runs of side %s must not be null", side)));
	if (scalar)
	{
		*ids = palloc(sizeof(int64));
		(*ids)[0] = PG_GETARG_INT64(argno);
		return 1;
	}
	arr = PG_GETARG_ARRAYTYPE_P(argno);
	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the runs of side %s must be a one-dimensional array", side)));
	deconstruct_array(arr, INT8OID, sizeof(int64), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
					  &elems, &nulls, &n);
	if (n == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("side %s names no run", side),
				 errhint("Give each side's run ids, as in polarbench_compare(ARRAY[12, 13], ARRAY[14, 15]).")));
	*ids = palloc(sizeof(int64) * n);
	for (int i = 0; i < n; i++)
	{
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("side %s holds a null run id", side)));
		(*ids)[i] = DatumGetInt64(elems[i]);
		for (int k = 0; k < i; k++)
			if ((*ids)[k] == (*ids)[i])
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("run " INT64_FORMAT " is on side %s twice", (*ids)[i], side),
						 errdetail("Each run counts once: given twice, it would weigh twice.")));
	}
	return n;
}

/*
 * cmp_sides_apart
 *		Refuse a run on both sides: a comparison of sides that share runs
 *		understates their difference, and its interval is too narrow.  A
 *		run against itself alone, an A/A check, is the exception: what it
 *		shows is the method's own noise.
 */
static void
cmp_sides_apart(const int64 *a, int na, const int64 *b, int nb)
{
	if (na == 1 && nb == 1)
		return;
	for (int i = 0; i < na; i++)
		for (int k = 0; k < nb; k++)
			if (a[i] == b[k])
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("run " INT64_FORMAT " is on both sides", a[i]),
						 errdetail("Sides that share runs are not independent: their difference would look smaller and surer than it is."),
						 errhint("Give each run to one side; a run against itself alone, polarbench_compare(" INT64_FORMAT ", " INT64_FORMAT "), checks the method on one run.",
								 a[i], a[i])));
}

/*
 * cmp_threshold
 *		The threshold argument: NULL (no equivalence asked), or a fraction
 *		above 0 and below 1.
 */
static double
cmp_threshold(FunctionCallInfo fcinfo, int argno)
{
	double		threshold;

	if (PG_NARGS() <= argno || PG_ARGISNULL(argno))
		return 0;
	threshold = PG_GETARG_FLOAT8(argno);
	if (!(threshold > 0 && threshold < 1))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("threshold must be above 0 and below 1"),
				 errhint("Give the largest difference that does not matter, as a fraction: 0.05 for 5%%.")));
	return threshold;
}

/* Whether the function's first argument is a bigint, not a bigint[]. */
static bool
cmp_scalar_args(FunctionCallInfo fcinfo)
{
	Oid			type = get_fn_expr_argtype(fcinfo->flinfo, 0);

	if (!OidIsValid(type))
	{
		Oid		   *types;
		int			nargs;

		(void) get_func_signature(fcinfo->flinfo->fn_oid, &types, &nargs);
		type = types[0];
	}
	return type == INT8OID;
}

/* ---- the entry points ----------------------------------------------------- */

/*
 * cmp_same_workload
 *		Whether every run of both sides runs the same workload; if not, says
 *		that each statement's figures are left out.
 */
static bool
cmp_same_workload(CmpRun *runs, int nruns)
{
	StringInfoData names;

	for (int i = 1; i < nruns; i++)
		if (strcmp(runs[i].workload, runs[0].workload) != 0)
		{
			initStringInfo(&names);
			for (int k = 0; k < nruns; k++)
			{
				bool		seen = false;

				for (int j = 0; j < k; j++)
					seen |= strcmp(runs[j].workload, runs[k].workload) == 0;
				if (!seen)
					appendStringInfo(&names, "%s\"%s\"", names.len > 0 ? ", " : "",
									 runs[k].workload);
			}
			ereport(NOTICE,
					(errmsg("the statements' and operations' figures are left out: the runs are of different workloads"),
					 errdetail("The runs compared are of workloads %s.", names.data)));
			return false;
		}
	return true;
}

/* The part of run whose key is key, or NULL. */
static const CmpPart *
cmp_find_part(const CmpRun *run, const char *key)
{
	for (int i = 0; i < run->nparts; i++)
		if (strcmp(run->parts[i].key, key) == 0)
			return &run->parts[i];
	return NULL;
}

/*
 * cmp_environment_rows
 *		A row for each item where the environments of the two sides' runs
 *		differ (polarbench_environment_diff()), metric "environment", the
 *		item as its part and each side's values in its note: a ratio of two
 *		runs that ran on different servers, settings or data sets measures
 *		those too.
 */
static void
cmp_environment_rows(ReturnSetInfo *rsinfo, int64 *const *ids, const int *n,
					 const char *schema)
{
	Oid			types[2] = {INT8ARRAYOID, INT8ARRAYOID};
	Datum		args[2];

	for (int s = 0; s < 2; s++)
	{
		Datum	   *elems = palloc(sizeof(Datum) * n[s]);

		for (int i = 0; i < n[s]; i++)
			elems[i] = Int64GetDatum(ids[s][i]);
		args[s] = PointerGetDatum(construct_array(elems, n[s], INT8OID, sizeof(int64),
												  FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
	}
	if (pb_spi_execute_safe(pb_sql_in_schema("SELECT d.item, d.value_a, d.value_b"
											 "  FROM @extschema@.polarbench_environment_diff($1, $2) d",
											 schema),
							2, types, args, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "could not compare the runs' environments");
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		CmpRow		row;
		char	   *a = SPI_getvalue(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, 2);
		char	   *b = SPI_getvalue(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, 3);

		cmp_row_init(&row, "environment",
					 SPI_getvalue(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, 1));
		cmp_note(&row, "A: %s; B: %s", a ? a : "none", b ? b : "none");
		cmp_emit(rsinfo, &row, NULL);
	}
}

/*
 * polarbench_compare
 *		SQL entry point: see polarbench_compare() in the install script.
 */
Datum
polarbench_compare(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	bool		scalar = cmp_scalar_args(fcinfo);
	int64	   *ids[2];
	int			n[2];
	double		threshold;
	Oid			schema;
	char	   *nsp;
	int			nest;
	CmpRun	   *all;
	CmpRun	   *runs[2];
	StringInfoData drift;
	double	   *figures[2];
	bool		one_a_side;

	pb_journal_recover();
	n[0] = cmp_side(fcinfo, 0, scalar, "A", &ids[0]);
	n[1] = cmp_side(fcinfo, 1, scalar, "B", &ids[1]);
	cmp_sides_apart(ids[0], n[0], ids[1], n[1]);
	threshold = cmp_threshold(fcinfo, 2);
	one_a_side = n[0] == 1 && n[1] == 1;

	InitMaterializedSRF(fcinfo, 0);
	(void) pb_extension_owner(&schema);
	nsp = get_namespace_name(schema);
	nest = pb_pin_search_path();
	SPI_connect();

	/* every run, A's then B's; each one that drifted said once */
	all = palloc0(sizeof(CmpRun) * (n[0] + n[1]));
	runs[0] = all;
	runs[1] = all + n[0];
	initStringInfo(&drift);
	for (int i = 0; i < n[0] + n[1]; i++)
	{
		CmpRun	   *run = &all[i];
		bool		said = false;

		cmp_load_run(i < n[0] ? ids[0][i] : ids[1][i - n[0]], "compare", nsp, run);
		for (int k = 0; k < i; k++)
			said |= all[k].run_id == run->run_id;
		if (run->drift_status == PB_STAT_OK && run->drift.drifted && !said)
		{
			double		percent = 100 * (run->drift.ratio.ratio - 1);

			ereport(WARNING,
					(errmsg("run " INT64_FORMAT " drifted: its throughput moved %+.1f%% from its first third to its last",
							run->run_id, percent),
					 errdetail("A comparison with a run whose machine or database changed while it ran is doubtful."),
					 errhint("See polarbench_steadiness(" INT64_FORMAT ").", run->run_id)));
			appendStringInfo(&drift, "%srun " INT64_FORMAT " drifted (%+.1f%%)",
							 drift.len > 0 ? ", " : "", run->run_id, percent);
		}
	}
	for (int s = 0; s < 2; s++)
		figures[s] = palloc(sizeof(double) * n[s]);

	/* the runs' own figures */
	for (int m = 0; m < CMP_NMETRICS; m++)
	{
		CmpRow		rows[CMP_NPERCENTILES];

		if (one_a_side && m >= CMP_P50)
		{
			if (m > CMP_P50)
				continue;
			/* the three percentiles from one bootstrap */
			for (int f = 0; f < CMP_NPERCENTILES; f++)
				cmp_row_init(&rows[f], cmp_metrics[CMP_P50 + f].name, NULL);
			cmp_bootstrap_rows(rows, &runs[0][0], &runs[1][0], threshold);
			for (int f = 0; f < CMP_NPERCENTILES; f++)
				cmp_emit(rsinfo, &rows[f], drift.len > 0 ? drift.data : NULL);
			continue;
		}
		cmp_row_init(&rows[0], cmp_metrics[m].name, NULL);
		if (one_a_side)
			cmp_batch_row(&rows[0], m, &runs[0][0], &runs[1][0], threshold);
		else
		{
			bool		complete = true;

			for (int s = 0; s < 2; s++)
				for (int i = 0; i < n[s]; i++)
				{
					figures[s][i] = runs[s][i].figures[m];
					if (isnan(figures[s][i]) && complete)
					{
						if (runs[s][i].counters_only && m >= CMP_P50)
							cmp_note(&rows[0], "run " INT64_FORMAT " kept counters only: it has no latency percentiles",
									 runs[s][i].run_id);
						else
							cmp_note(&rows[0], "run " INT64_FORMAT " has no %s",
									 runs[s][i].run_id, cmp_metrics[m].name);
						complete = false;
					}
				}
			if (complete)
				cmp_runs_row(&rows[0], figures[0], n[0], figures[1], n[1],
							 cmp_metrics[m].lower_is_better, threshold);
		}
		cmp_emit(rsinfo, &rows[0], drift.len > 0 ? drift.data : NULL);
	}

	/* each statement's or operation's, when every run has it */
	if (cmp_same_workload(all, n[0] + n[1]))
	{
		for (int p = 0; p < runs[0][0].nparts; p++)
		{
			const char *key = runs[0][0].parts[p].key;
			bool		everywhere = true;

			for (int s = 0; s < 2; s++)
				for (int i = 0; i < n[s]; i++)
					everywhere &= cmp_find_part(&runs[s][i], key) != NULL;
			if (!everywhere)
				continue;
			for (int m = CMP_FIRST_PART_METRIC; m < CMP_NMETRICS; m++)
			{
				CmpRow		row;
				bool		complete = true;

				cmp_row_init(&row, cmp_metrics[m].name, runs[0][0].parts[p].label);
				for (int s = 0; s < 2; s++)
					for (int i = 0; i < n[s]; i++)
					{
						figures[s][i] = cmp_find_part(&runs[s][i], key)->figures[m];
						complete &= !isnan(figures[s][i]);
					}
				if (!complete)
					cmp_note(&row, "a run has no %s of it", cmp_metrics[m].name);
				else if (one_a_side)
				{
					row.a = figures[0][0];
					row.b = figures[1][0];
					row.ratio.ratio = row.a > 0 ? row.b / row.a : NAN;
					cmp_note(&row, "%s figures are kept for the whole run only: compare two or more runs a side for an interval",
							 runs[0][0].parts[p].operation ? "an operation's" : "a statement's");
				}
				else
					cmp_runs_row(&row, figures[0], n[0], figures[1], n[1], true, threshold);
				cmp_emit(rsinfo, &row, drift.len > 0 ? drift.data : NULL);
			}
		}
	}

	cmp_environment_rows(rsinfo, ids, n, nsp);
	SPI_finish();
	pb_unpin_search_path(nest);
	return (Datum) 0;
}

/*
 * polarbench_steadiness
 *		SQL entry point: see polarbench_steadiness() in the install script.
 */
Datum
polarbench_steadiness(PG_FUNCTION_ARGS)
{
	int64		run_id;
	TupleDesc	desc;
	Datum		values[9];
	bool		nulls[9] = {0};
	Oid			schema;
	int			nest;
	CmpRun		run;
	HeapTuple	tuple;
	MemoryContext caller_cxt = CurrentMemoryContext;

	pb_journal_recover();
	run_id = pb_run_id_arg(fcinfo, 0);
	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	(void) pb_extension_owner(&schema);
	nest = pb_pin_search_path();
	SPI_connect();
	cmp_load_run(run_id, "examine", get_namespace_name(schema), &run);

	for (int i = 0; i < 9; i++)
		nulls[i] = true;
	if (run.nrows < PB_DRIFT_MIN_ROWS)
	{
		nulls[8] = false;
		values[8] = CStringGetTextDatum(run.nrows == 0 ?
										psprintf("run " INT64_FORMAT " has no progress rows: telling a drift takes progress => 1 or more", run_id) :
										psprintf("run " INT64_FORMAT " has %d progress rows, too few to tell a drift: %d at least, four batches in each third",
												 run_id, run.nrows, PB_DRIFT_MIN_ROWS));
	}
	else if (run.drift_status == PB_STAT_OK)
	{
		PbDrift    *d = &run.drift;

		values[0] = BoolGetDatum(d->drifted);
		values[1] = Float8GetDatum(100 * (d->ratio.ratio - 1));
		values[2] = Float8GetDatum(100 * (d->ratio.low - 1));
		values[3] = Float8GetDatum(100 * (d->ratio.high - 1));
		values[4] = Float8GetDatum(d->first);
		values[5] = Float8GetDatum(d->last);
		values[6] = Int32GetDatum(d->length);
		values[7] = CStringGetTextDatum(psprintf("batch means of the first and last thirds' progress rows: %d batches of %d intervals (%d s) each, the length chosen from the rows less their trend, %.1f df",
												 d->batches, d->length, d->length * run.progress_interval,
												 d->ratio.df));
		for (int i = 0; i < 8; i++)
			nulls[i] = false;
		if (d->drifted)
		{
			nulls[8] = false;
			values[8] = CStringGetTextDatum("its throughput moved beyond its noise: comparisons with this run are doubtful");
		}
	}
	else
	{
		nulls[8] = false;
		values[8] = CStringGetTextDatum(run.drift_status == PB_STAT_NO_SPREAD ?
										"its throughput is the same in every batch of its first or last third: no spread to tell a drift from" :
										"its throughput has no ratio on the log scale: a third of it is zero");
	}
	/* the tuple outlives SPI's memory */
	MemoryContextSwitchTo(caller_cxt);
	tuple = heap_form_tuple(desc, values, nulls);
	SPI_finish();
	pb_unpin_search_path(nest);
	PG_RETURN_DATUM(HeapTupleGetDatum(tuple));
}

/*
 * cmp_figures
 *		The non-null figures of a float8[] argument, which must not be null;
 *		returns how many.  Each must be finite and above zero (zero_ok: or
 *		zero), as the logs they are worked on need.
 */
static int
cmp_figures(FunctionCallInfo fcinfo, int argno, const char *name, bool zero_ok,
			double **out)
{
	ArrayType  *arr;
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	int			k = 0;

	if (PG_ARGISNULL(argno))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be null", name)));
	arr = PG_GETARG_ARRAYTYPE_P(argno);
	deconstruct_array(arr, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
					  &elems, &nulls, &n);
	*out = palloc(sizeof(double) * (n + 1));
	for (int i = 0; i < n; i++)
	{
		double		v;

		if (nulls[i])
			continue;
		v = DatumGetFloat8(elems[i]);
		if (isnan(v) || isinf(v) || v < 0 || (v == 0 && !zero_ok))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s holds %s, not a finite figure %s", name, float8out_internal(v),
							zero_ok ? "of zero or more" : "above zero"),
					 zero_ok ?
					 errdetail("Figures are worked on the log scale, as throughput and latency are: a figure of zero leaves no interval, and a negative or infinite one has no meaning.") :
					 errdetail("Figures are compared as ratios on the log scale, as throughput and latency are: each is finite and above zero."),
					 errhint("Leave out a run without the figure as NULL.")));
		(*out)[k++] = v;
	}
	return k;
}

/*
 * polarbench_interval
 *		SQL entry point: see polarbench_interval() in the install script.
 */
Datum
polarbench_interval(PG_FUNCTION_ARGS)
{
	TupleDesc	desc;
	double	   *x;
	int			n = cmp_figures(fcinfo, 0, "figures", true, &x);
	double		v[3];
	Datum		values[3];
	bool		nulls[3];

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	/* no interval, no center: a sweep's table shows their median then */
	if (pb_log_interval(x, n, PB_CONFIDENCE, &v[0], &v[1], &v[2]) != PB_STAT_OK)
		v[0] = v[1] = v[2] = NAN;
	for (int i = 0; i < 3; i++)
		cmp_put_float(&values[i], &nulls[i], v[i]);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}

/*
 * polarbench_compare_figures
 *		SQL entry point: see polarbench_compare_figures() in the install
 *		script.
 */
Datum
polarbench_compare_figures(PG_FUNCTION_ARGS)
{
	TupleDesc	desc;
	double	   *fa;
	double	   *fb;
	int			na = cmp_figures(fcinfo, 0, "a", false, &fa);
	int			nb = cmp_figures(fcinfo, 1, "b", false, &fb);
	bool		lower_is_better = !PG_ARGISNULL(2) && PG_GETARG_BOOL(2);
	double		threshold = cmp_threshold(fcinfo, 3);
	CmpRow		row;
	Datum		values[6];
	bool		nulls[6] = {0};
	const char *verdict;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	cmp_row_init(&row, "", NULL);
	if (na > 0 && nb > 0)
		cmp_runs_row(&row, fa, na, fb, nb, lower_is_better, threshold);
	cmp_put_float(&values[0], &nulls[0], row.ratio.ratio);
	cmp_put_float(&values[1], &nulls[1], row.ratio.low);
	cmp_put_float(&values[2], &nulls[2], row.ratio.high);
	verdict = pb_verdict_name(row.verdict);
	nulls[3] = verdict == NULL;
	values[3] = verdict ? CStringGetTextDatum(verdict) : (Datum) 0;
	nulls[4] = row.method == NULL;
	values[4] = row.method ? CStringGetTextDatum(row.method) : (Datum) 0;
	nulls[5] = row.runs_needed <= 0;
	values[5] = Int32GetDatum(row.runs_needed);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}
