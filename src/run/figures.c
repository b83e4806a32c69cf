/*-------------------------------------------------------------------------
 *
 * figures.c
 *	  A run's figures, as the list of them (run_figures.h) describes them,
 *	  written into rows: which are NULL in a row, as what type, and the
 *	  columns of a row named as figures set from a summary, so that the
 *	  recorder, polarbench_run()'s result and polarbench_live take their
 *	  columns from the list rather than each from a list of its own.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"

#include "run.h"

/* The list, as a table the server loops over */
static const PbFigureDef figures[] = {
#define PB_FIG_DEF(name, type, nulls, counter, run, progress, live, program) \
	{#name, PB_FIG_IS_COUNT_##type, PB_FIG_NULL_##nulls, \
	 PB_FIG_FLAGS(counter, run, progress, live, program), \
	 offsetof(PbRunSummary, name)},
	PB_RUN_FIGURES(PB_FIG_DEF)
#undef PB_FIG_DEF
};

/* How many figures there are. */
int
pb_figure_count(void)
{
	return lengthof(figures);
}

/* The i-th figure of the list. */
const PbFigureDef *
pb_figure_at(int i)
{
	return &figures[i];
}

/*
 * pb_figure_state
 *		What decides the NULLs of a row of the figures s: whether any
 *		transaction ended, and of the run whether it keeps counters only and
 *		has a rate, and whether the row is an interval's.
 */
void
pb_figure_state(PbFigureState *state, const PbRunSummary *s, bool counters_only,
				bool rated, bool interval)
{
	state->no_txn = (s->transactions == 0);
	state->counters_only = counters_only;
	state->no_rate = !rated;
	state->interval = interval;
}

/*
 * pb_figure_is_null
 *		Whether figure f is NULL in a row, by its rule (run_figures.h).
 */
bool
pb_figure_is_null(const PbFigureDef *f, const PbFigureState *state)
{
	switch (f->nulls)
	{
		case PB_FIG_NULL_NEVER:
			return false;
		case PB_FIG_NULL_NO_TXN:
			return state->no_txn;
		case PB_FIG_NULL_NO_PCT:
			return state->no_txn || state->counters_only;
		case PB_FIG_NULL_NO_RATE:
			return state->no_txn || state->no_rate;
		case PB_FIG_NULL_MAX:
			return state->no_txn || (state->interval && state->counters_only);
	}
	return false;				/* keep compiler quiet */
}

/* The value of figure f in s, as a Datum of its type. */
Datum
pb_figure_datum(const PbFigureDef *f, const PbRunSummary *s)
{
	const char *field = (const char *) s + f->offset;

	if (f->count)
		return Int64GetDatum(*(const int64 *) field);
	return Float8GetDatum(*(const double *) field);
}

/* The SQL type of figure f. */
Oid
pb_figure_type(const PbFigureDef *f)
{
	return f->count ? INT8OID : FLOAT8OID;
}

/*
 * pb_figures_row
 *		Set the columns of a row of desc that are figures of the rows flag
 *		names (PB_FIG_RUN, ...) from s, NULL as their rules say; its other
 *		columns are left alone.  A row of an older version of the extension
 *		may lack some.
 */
void
pb_figures_row(TupleDesc desc, Datum *values, bool *nulls, const PbRunSummary *s,
			   int flag, const PbFigureState *state)
{
	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (att->attisdropped)
			continue;
		for (int f = 0; f < lengthof(figures); f++)
			if ((figures[f].flags & flag) != 0 &&
				strcmp(NameStr(att->attname), figures[f].name) == 0)
			{
				nulls[i] = pb_figure_is_null(&figures[f], state);
				values[i] = nulls[i] ? (Datum) 0 : pb_figure_datum(&figures[f], s);
				break;
			}
	}
}
