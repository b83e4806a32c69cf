/*-------------------------------------------------------------------------
 *
 * run_figures.h
 *	  THE declaration of a run's figures: PB_RUN_FIGURES, one line per
 *	  figure, from which are made the run's summary (PbRunSummary, run.h),
 *	  the totals of its clients' counters (engine.h), its figures in
 *	  polarbench_live, the rows the recorder writes (the run's, a progress
 *	  interval's), the row polarbench_run() returns, the check of a stored
 *	  run's document, and the command-line program's reading of that row
 *	  and its reports of several nodes.  The SQL objects are static, made by
 *	  the versions' install and upgrade scripts; test/t/011_run_figures.pl
 *	  holds their columns to this list.
 *
 * Plain C without a header of its own, so that the server and the
 * program both include it.
 *
 * PB_RUN_FIGURES(X) calls
 *	X(name, type, nulls, counter, run, progress, live, program)
 * for each figure, in the order of the program's reports:
 *	name	  its C field and its SQL column
 *	type	  COUNT, a whole number (int64, bigint), or NUMBER (double,
 *			  float8)
 *	nulls	  when it is NULL in a row (NaN in the segment): NEVER; NO_TXN,
 *			  when no transaction ended; NO_PCT, also when the run keeps
 *			  counters only (a percentile of its histograms); NO_RATE, also
 *			  when the run has no rate; MAX, as NO_TXN for a whole run and
 *			  as NO_PCT for an interval (a progress interval, polarbench_live),
 *			  whose largest latency is its histogram's
 *	counter   1: each client counts it in its slot (segment.h) under the
 *			  same name; the clients' totals sum it, and an interval's figure
 *			  is the difference of the totals
 *	run		  1: a column of polarbench_run_data (polarbench_runs) and of
 *			  polarbench_result
 *	progress  1: a column of polarbench_progress_data (polarbench_progress)
 *	live	  1: a column of polarbench_live_runs() (polarbench_live): the
 *			  last second's, but for the counters transactions and cut_off,
 *			  which are the run's so far
 *	program   1: read by the command-line program from polarbench_result,
 *			  and shown for each node and their total in its reports of
 *			  several nodes
 *
 *-------------------------------------------------------------------------
 */
#ifndef PB_RUN_FIGURES_H
#define PB_RUN_FIGURES_H

#define PB_RUN_FIGURES(X) \
	X(seconds,				NUMBER, NEVER,	 0, 1, 0, 0, 0) \
	X(transactions,			COUNT,	NEVER,	 1, 1, 1, 1, 1) \
	X(tps,					NUMBER, NEVER,	 0, 1, 1, 1, 1) \
	X(statements,			COUNT,	NEVER,	 1, 1, 0, 0, 1) \
	X(qps,					NUMBER, NEVER,	 0, 1, 1, 1, 1) \
	X(failed,				COUNT,	NEVER,	 1, 1, 1, 0, 1) \
	X(cut_off,				COUNT,	NEVER,	 1, 1, 0, 1, 1) \
	X(latency_avg,			NUMBER, NO_TXN,	 0, 1, 1, 1, 1) \
	X(latency_stddev,		NUMBER, NO_TXN,	 0, 1, 1, 0, 0) \
	X(latency_min,			NUMBER, NO_TXN,	 0, 1, 0, 0, 0) \
	X(latency_p50,			NUMBER, NO_PCT,	 0, 1, 1, 1, 1) \
	X(latency_p90,			NUMBER, NO_PCT,	 0, 1, 1, 1, 1) \
	X(latency_p95,			NUMBER, NO_PCT,	 0, 1, 1, 1, 1) \
	X(latency_p99,			NUMBER, NO_PCT,	 0, 1, 1, 1, 1) \
	X(latency_p999,			NUMBER, NO_PCT,	 0, 1, 1, 1, 1) \
	X(latency_max,			NUMBER, MAX,	 0, 1, 1, 1, 1) \
	X(reads,				COUNT,	NEVER,	 1, 1, 1, 0, 0) \
	X(writes,				COUNT,	NEVER,	 1, 1, 1, 0, 0) \
	X(others,				COUNT,	NEVER,	 1, 1, 1, 0, 0) \
	X(errors,				COUNT,	NEVER,	 1, 1, 1, 0, 0) \
	X(failed_serialization, COUNT,	NEVER,	 1, 1, 1, 0, 0) \
	X(failed_deadlock,		COUNT,	NEVER,	 1, 1, 1, 0, 0) \
	X(failed_other,			COUNT,	NEVER,	 1, 1, 1, 0, 0) \
	X(retried,				COUNT,	NEVER,	 1, 1, 1, 0, 0) \
	X(retries,				COUNT,	NEVER,	 1, 1, 1, 0, 0) \
	X(skipped,				COUNT,	NEVER,	 1, 1, 1, 0, 0) \
	X(late,					COUNT,	NEVER,	 1, 1, 1, 0, 0) \
	X(lag_avg,				NUMBER, NO_RATE, 0, 1, 1, 1, 0) \
	X(lag_max,				NUMBER, NO_RATE, 0, 1, 0, 0, 0)

/* When a figure is NULL in a row (the nulls of PB_RUN_FIGURES) */
typedef enum PbFigureNulls
{
	PB_FIG_NULL_NEVER,
	PB_FIG_NULL_NO_TXN,
	PB_FIG_NULL_NO_PCT,
	PB_FIG_NULL_NO_RATE,
	PB_FIG_NULL_MAX
} PbFigureNulls;

/* The rows that hold a figure (the flags of PB_RUN_FIGURES) */
#define PB_FIG_COUNTER		0x01
#define PB_FIG_RUN			0x02
#define PB_FIG_PROGRESS		0x04
#define PB_FIG_LIVE			0x08
#define PB_FIG_PROGRAM		0x10

/*
 * PB_FIG_IF(flag, ...): the tokens when flag is 1, nothing when it is 0;
 * for a member or a statement of each figure in one of the rows.
 */
#define PB_FIG_IF(flag, ...)	PB_FIG_IF_##flag(__VA_ARGS__)
#define PB_FIG_IF_0(...)
#define PB_FIG_IF_1(...)		__VA_ARGS__

/* A figure's flags, from its line */
#define PB_FIG_FLAGS(counter, run, progress, live, program) \
	((counter) * PB_FIG_COUNTER | (run) * PB_FIG_RUN | \
	 (progress) * PB_FIG_PROGRESS | (live) * PB_FIG_LIVE | \
	 (program) * PB_FIG_PROGRAM)

/* Whether a figure's type is COUNT */
#define PB_FIG_IS_COUNT_COUNT	1
#define PB_FIG_IS_COUNT_NUMBER	0

#endif							/* PB_RUN_FIGURES_H */
