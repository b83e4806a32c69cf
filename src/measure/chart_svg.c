/*-------------------------------------------------------------------------
 *
 * chart_svg.c
 *	  Charts as SVG that any browser draws without fetching anything: a
 *	  run's progress (tps and p99 latency over time), a comparison's runs
 *	  on the same axes, a sweep's curves (a metric against concurrency, a
 *	  line per setting set, each point with its interval when it has
 *	  repetitions), or ratios with their intervals.  Each panel has a title,
 *	  both axes labelled with their units, ticks at round values, and a
 *	  legend, so that it reads on its own.
 *
 * The command-line program writes them as SVG files (--svg), and the
 * server's HTML report (polarbench_report_html) puts them inline in the
 * page: one drawing for both, into a growing text (PbText) that says when
 * memory ran out rather than exiting.
 *
 * Every series is a <polyline class="series"> with its label in
 * data-label, so that tools (and the tests) can find them; a point with an
 * interval has a <path class="interval"> of the same label, a bar from its
 * low end to its high end.  Every text from outside is escaped.
 *
 *-------------------------------------------------------------------------
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_measure.h"

#define PB_CHART_MARGIN_LEFT	90
#define PB_CHART_MARGIN_RIGHT	230
#define PB_CHART_MARGIN_TOP		60
#define PB_CHART_MARGIN_BOTTOM	60

/* colours of the series, in order (Okabe and Ito's, for colour blindness) */
static const char *const pb_chart_colours[] = {
	"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
	"#F0E442", "#000000"
};

/* ---- growing text -------------------------------------------------------- */

/*
 * pb_text_init
 *		An empty text.
 */
void
pb_text_init(PbText *t)
{
	t->len = 0;
	t->cap = 1024;
	t->failed = false;
	t->data = malloc(t->cap);
	if (t->data == NULL)
	{
		t->cap = 0;
		t->failed = true;
	}
	else
		t->data[0] = '\0';
}

/* Make room for more bytes and the terminator; false when there is none. */
static bool
pb_text_reserve(PbText *t, size_t more)
{
	char	   *grown;
	size_t		cap = t->cap;

	if (t->failed)
		return false;
	if (t->len + more + 1 <= t->cap)
		return true;
	while (cap < t->len + more + 1)
		cap *= 2;
	grown = realloc(t->data, cap);
	if (grown == NULL)
	{
		t->failed = true;
		return false;
	}
	t->data = grown;
	t->cap = cap;
	return true;
}

/*
 * pb_text_append
 *		Append a string as it is.
 */
void
pb_text_append(PbText *t, const char *s)
{
	size_t		n = strlen(s);

	if (!pb_text_reserve(t, n))
		return;
	memcpy(t->data + t->len, s, n + 1);
	t->len += n;
}

/*
 * pb_text_printf
 *		Append what printf would print.
 */
void
pb_text_printf(PbText *t, const char *fmt,...)
{
	va_list		args;
	int			n;

	va_start(args, fmt);
	n = vsnprintf(NULL, 0, fmt, args);
	va_end(args);
	if (n < 0 || !pb_text_reserve(t, (size_t) n))
		return;
	va_start(args, fmt);
	vsnprintf(t->data + t->len, (size_t) n + 1, fmt, args);
	va_end(args);
	t->len += n;
}

/*
 * pb_text_escaped
 *		Append a string as text of HTML or XML: &, <, >, " and ' escaped, so
 *		that no name, value or message from the database is markup.
 */
void
pb_text_escaped(PbText *t, const char *s)
{
	for (; s != NULL && *s; s++)
	{
		switch (*s)
		{
			case '&':
				pb_text_append(t, "&amp;");
				break;
			case '<':
				pb_text_append(t, "&lt;");
				break;
			case '>':
				pb_text_append(t, "&gt;");
				break;
			case '"':
				pb_text_append(t, "&quot;");
				break;
			case '\'':
				pb_text_append(t, "&#39;");
				break;
			default:
				if (pb_text_reserve(t, 1))
				{
					t->data[t->len++] = *s;
					t->data[t->len] = '\0';
				}
		}
	}
}

/* ---- charts -------------------------------------------------------------- */

/* A round tick step for a range: 1, 2 or 5 times a power of ten. */
static double
pb_chart_tick_step(double range)
{
	double		raw = range / 5;
	double		mag = pow(10, floor(log10(raw)));
	double		norm = raw / mag;

	if (norm <= 1)
		return mag;
	if (norm <= 2)
		return 2 * mag;
	if (norm <= 5)
		return 5 * mag;
	return 10 * mag;
}

/* A tick's label: no more digits than the step needs. */
static void
pb_chart_tick_label(char *buf, size_t len, double v, double step)
{
	int			digits = step >= 1 ? 0 : (int) ceil(-log10(step));

	snprintf(buf, len, "%.*f", digits, v);
}

/* Where x falls on the panel's x axis, from 0 to 1. */
static double
pb_chart_x_pos(const PbChartPanel *p, double x, double lo, double hi)
{
	if (p->x_log2)
		return hi > lo ? (log2(x) - log2(lo)) / (log2(hi) - log2(lo)) : 0.5;
	return hi > lo ? (x - lo) / (hi - lo) : 0.5;
}

/*
 * pb_chart_panel
 *		Draw one panel with its top at y0, PB_CHART_PANEL_HEIGHT high: its
 *		title, axes with ticks and labels, the series (a polyline each, dots
 *		at up to 64 points, intervals as bars with caps), a reference line
 *		where p->y_reference is above zero, and the legend.
 */
static void
pb_chart_panel(PbText *t, const PbChartPanel *p, int y0)
{
	int			pw = PB_CHART_WIDTH - PB_CHART_MARGIN_LEFT - PB_CHART_MARGIN_RIGHT;
	int			ph = PB_CHART_PANEL_HEIGHT - PB_CHART_MARGIN_TOP - PB_CHART_MARGIN_BOTTOM;
	int			left = PB_CHART_MARGIN_LEFT;
	int			top = y0 + PB_CHART_MARGIN_TOP;
	double		xlo = INFINITY,
				xhi = -INFINITY,
				yhi = p->y_reference > 0 ? p->y_reference : 0;
	double		ystep,
				xstep;
	char		label[64];

	for (int s = 0; s < p->nseries; s++)
		for (int i = 0; i < p->series[s].n; i++)
		{
			xlo = fmin(xlo, p->series[s].x[i]);
			xhi = fmax(xhi, p->series[s].x[i]);
			yhi = fmax(yhi, p->series[s].y[i]);
			if (p->series[s].high != NULL && isfinite(p->series[s].high[i]))
				yhi = fmax(yhi, p->series[s].high[i]);
		}
	if (xlo > xhi)
		xlo = xhi = 0;
	if (!p->x_log2 && !p->x_at_points)
		xlo = fmin(xlo, 0);
	if (p->x_log2 && xlo <= 0)
		xlo = 1;
	if (yhi <= 0)
		yhi = 1;
	ystep = pb_chart_tick_step(yhi);
	yhi = ceil(yhi / ystep) * ystep;

	pb_text_printf(t, "<g class=\"panel\">\n<text class=\"panel-title\" x=\"%d\" y=\"%d\" font-size=\"16\" font-weight=\"bold\">",
				   left, y0 + PB_CHART_MARGIN_TOP - 18);
	pb_text_escaped(t, p->title);
	pb_text_append(t, "</text>\n");

	/* the y axis: grid lines, ticks and its label */
	for (double v = 0; v <= yhi + ystep / 2; v += ystep)
	{
		double		y = top + ph - ph * v / yhi;

		pb_chart_tick_label(label, sizeof(label), v, ystep);
		pb_text_printf(t, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
					   left, y, left + pw, y);
		pb_text_printf(t, "<text class=\"y-tick\" x=\"%d\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">%s</text>\n",
					   left - 6, y + 4, label);
	}
	pb_text_printf(t, "<text class=\"y-label\" transform=\"translate(%d,%d) rotate(-90)\" font-size=\"13\" text-anchor=\"middle\">",
				   22, top + ph / 2);
	pb_text_escaped(t, p->y_label);
	pb_text_append(t, "</text>\n");

	/* the x axis: ticks at the points (doubling steps) or at round values */
	if (p->x_log2 || p->x_at_points)
	{
		for (int i = 0; p->nseries > 0 && i < p->series[0].n; i++)
		{
			double		x = left + pw * pb_chart_x_pos(p, p->series[0].x[i], xlo, xhi);

			pb_text_printf(t, "<text class=\"x-tick\" x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">",
						   x, top + ph + 18);
			if (p->x_names != NULL)
				pb_text_escaped(t, p->x_names[i]);
			else
				pb_text_printf(t, "%g", p->series[0].x[i]);
			pb_text_append(t, "</text>\n");
		}
	}
	else
	{
		xstep = pb_chart_tick_step(xhi > xlo ? xhi - xlo : 1);
		for (double v = ceil(xlo / xstep) * xstep; v <= xhi + xstep / 100; v += xstep)
		{
			double		x = left + pw * pb_chart_x_pos(p, v, xlo, xhi);

			pb_chart_tick_label(label, sizeof(label), v, xstep);
			pb_text_printf(t, "<text class=\"x-tick\" x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%s</text>\n",
						   x, top + ph + 18, label);
		}
	}
	pb_text_printf(t, "<text class=\"x-label\" x=\"%d\" y=\"%d\" font-size=\"13\" text-anchor=\"middle\">",
				   left + pw / 2, top + ph + 42);
	pb_text_escaped(t, p->x_label);
	pb_text_append(t, "</text>\n");
	pb_text_printf(t, "<path class=\"axes\" d=\"M%d %dV%dH%d\" fill=\"none\" stroke=\"#333\"/>\n",
				   left, top, top + ph, left + pw);
	if (p->y_reference > 0)
	{
		double		y = top + ph - ph * p->y_reference / yhi;

		pb_text_printf(t, "<line class=\"reference\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#333\" stroke-dasharray=\"6 4\"/>\n",
					   left, y, left + pw, y);
	}

	/* the series, and the legend */
	for (int s = 0; s < p->nseries; s++)
	{
		const PbChartSeries *ser = &p->series[s];
		const char *colour = pb_chart_colours[s % (sizeof(pb_chart_colours) / sizeof(pb_chart_colours[0]))];

		pb_text_append(t, "<polyline class=\"series\" data-label=\"");
		pb_text_escaped(t, ser->label);
		pb_text_printf(t, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" points=\"",
					   colour, p->points_only ? "0" : "2");
		for (int i = 0; i < ser->n; i++)
			pb_text_printf(t, "%s%.1f,%.1f", i > 0 ? " " : "",
						   left + pw * pb_chart_x_pos(p, ser->x[i], xlo, xhi),
						   top + ph - ph * ser->y[i] / yhi);
		pb_text_append(t, "\"/>\n");
		for (int i = 0; i < ser->n && ser->n <= 64; i++)
			pb_text_printf(t, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
						   left + pw * pb_chart_x_pos(p, ser->x[i], xlo, xhi),
						   top + ph - ph * ser->y[i] / yhi, colour);
		/* each point's interval, a bar with caps */
		for (int i = 0; ser->low != NULL && ser->high != NULL && i < ser->n; i++)
		{
			double		x = left + pw * pb_chart_x_pos(p, ser->x[i], xlo, xhi);
			double		ylow = top + ph - ph * ser->low[i] / yhi;
			double		yhigh = top + ph - ph * ser->high[i] / yhi;

			if (!isfinite(ser->low[i]) || !isfinite(ser->high[i]))
				continue;
			pb_text_append(t, "<path class=\"interval\" data-label=\"");
			pb_text_escaped(t, ser->label);
			pb_text_printf(t, "\" d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" stroke=\"%s\" stroke-width=\"1.5\" fill=\"none\"/>\n",
						   x, ylow, yhigh, x - 5, ylow, x + 5, x - 5, yhigh, x + 5, colour);
		}
		pb_text_printf(t, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"4\" fill=\"%s\"/>\n",
					   left + pw + 20, top + 10 + 20 * s, colour);
		pb_text_printf(t, "<text class=\"legend\" x=\"%d\" y=\"%d\" font-size=\"12\">",
					   left + pw + 40, top + 15 + 20 * s);
		pb_text_escaped(t, ser->label);
		pb_text_append(t, "</text>\n");
	}
	pb_text_append(t, "</g>\n");
}

/*
 * pb_chart_svg
 *		The panels, one under the other, as one <svg> with a title: a file
 *		of its own (standalone: with the XML declaration and a fixed size),
 *		or an element of a page that scales it to the page's width.
 */
void
pb_chart_svg(PbText *t, const char *title, const PbChartPanel *panels,
			 int npanels, bool standalone)
{
	int			height = PB_CHART_TITLE_HEIGHT + npanels * PB_CHART_PANEL_HEIGHT;

	if (standalone)
		pb_text_printf(t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
					   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n",
					   PB_CHART_WIDTH, height, PB_CHART_WIDTH, height);
	else
		pb_text_printf(t, "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" role=\"img\">\n",
					   PB_CHART_WIDTH, height);
	pb_text_append(t, "<title>");
	pb_text_escaped(t, title);
	pb_text_append(t, "</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
	pb_text_printf(t, "<text class=\"title\" x=\"%d\" y=\"28\" font-size=\"20\" font-weight=\"bold\">",
				   PB_CHART_MARGIN_LEFT);
	pb_text_escaped(t, title);
	pb_text_append(t, "</text>\n");
	for (int i = 0; i < npanels; i++)
		pb_chart_panel(t, &panels[i], PB_CHART_TITLE_HEIGHT + i * PB_CHART_PANEL_HEIGHT);
	pb_text_append(t, "</svg>\n");
}
