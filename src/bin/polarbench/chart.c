/*-------------------------------------------------------------------------
 *
 * chart.c
 *	  Charts as self-contained SVG files that any browser opens: a run's
 *	  progress (tps and p99 latency over time), a comparison's (every run's
 *	  of both sides, on the same axes), or a sweep's curves (qps against
 *	  concurrency, a line per setting set, each point with its interval
 *	  when it has repetitions).  Each panel has a
 *	  title, both axes labelled with their units, ticks at round values,
 *	  and a legend, so that it reads without the terminal output.
 *
 * Every series is a <polyline class="series"> with its label in
 * data-label, so that tools (and the tests) can find them; a point with an
 * interval (a sweep's cell of repetitions) has a <path class="interval">
 * of the same label, a bar from its low end to its high end.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres_fe.h"

#include <math.h>

#include "common/logging.h"

#include "polarbench.h"

#define SVG_WIDTH		960
#define PANEL_HEIGHT	380
#define MARGIN_LEFT		90
#define MARGIN_RIGHT	230
#define MARGIN_TOP		60
#define MARGIN_BOTTOM	60
#define TITLE_HEIGHT	40

/* colours of the series, in order (Okabe and Ito's, for colour blindness) */
static const char *const colours[] = {
	"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
	"#F0E442", "#000000"
};

/* Print text for XML: <, >, & and quotes escaped. */
static void
xml_text(FILE *f, const char *s)
{
	for (; *s; s++)
	{
		switch (*s)
		{
			case '<':
				fputs("&lt;", f);
				break;
			case '>':
				fputs("&gt;", f);
				break;
			case '&':
				fputs("&amp;", f);
				break;
			case '"':
				fputs("&quot;", f);
				break;
			default:
				fputc(*s, f);
		}
	}
}

/* A round tick step for a range: 1, 2 or 5 times a power of ten. */
static double
tick_step(double range)
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
tick_label(char *buf, size_t len, double v, double step)
{
	int			digits = step >= 1 ? 0 : (int) ceil(-log10(step));

	snprintf(buf, len, "%.*f", digits, v);
}

/* Where x falls on the panel's x axis, from 0 to 1. */
static double
x_pos(const ChartPanel *p, double x, double lo, double hi)
{
	if (p->x_log2)
		return hi > lo ? (log2(x) - log2(lo)) / (log2(hi) - log2(lo)) : 0.5;
	return hi > lo ? (x - lo) / (hi - lo) : 0.5;
}

/* Draw one panel with its top at y0. */
static void
draw_panel(FILE *f, const ChartPanel *p, int y0)
{
	int			pw = SVG_WIDTH - MARGIN_LEFT - MARGIN_RIGHT;
	int			ph = PANEL_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM;
	int			top = y0 + MARGIN_TOP;
	double		xlo = INFINITY,
				xhi = -INFINITY,
				yhi = 0;
	double		ystep,
				xstep;
	char		label[64];

	for (int s = 0; s < p->nseries; s++)
		for (int i = 0; i < p->series[s].n; i++)
		{
			xlo = Min(xlo, p->series[s].x[i]);
			xhi = Max(xhi, p->series[s].x[i]);
			yhi = Max(yhi, p->series[s].y[i]);
			if (p->series[s].high != NULL && isfinite(p->series[s].high[i]))
				yhi = Max(yhi, p->series[s].high[i]);
		}
	if (xlo > xhi)
		xlo = xhi = 0;
	if (!p->x_log2 && !p->x_at_points)
		xlo = Min(xlo, 0);
	if (p->x_log2 && xlo <= 0)
		xlo = 1;
	if (yhi <= 0)
		yhi = 1;
	ystep = tick_step(yhi);
	yhi = ceil(yhi / ystep) * ystep;

	fprintf(f, "<g class=\"panel\">\n<text class=\"panel-title\" x=\"%d\" y=\"%d\" font-size=\"16\" font-weight=\"bold\">",
			MARGIN_LEFT, y0 + MARGIN_TOP - 18);
	xml_text(f, p->title);
	fprintf(f, "</text>\n");

	/* the y axis: grid lines, ticks and its label */
	for (double v = 0; v <= yhi + ystep / 2; v += ystep)
	{
		double		y = top + ph - ph * v / yhi;

		tick_label(label, sizeof(label), v, ystep);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
				MARGIN_LEFT, y, MARGIN_LEFT + pw, y);
		fprintf(f, "<text class=\"y-tick\" x=\"%d\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">%s</text>\n",
				MARGIN_LEFT - 6, y + 4, label);
	}
	fprintf(f, "<text class=\"y-label\" transform=\"translate(%d,%d) rotate(-90)\" font-size=\"13\" text-anchor=\"middle\">",
			22, top + ph / 2);
	xml_text(f, p->y_label);
	fprintf(f, "</text>\n");

	/* the x axis: ticks at the points (doubling steps) or at round values */
	if (p->x_log2 || p->x_at_points)
	{
		for (int i = 0; p->nseries > 0 && i < p->series[0].n; i++)
		{
			double		x = MARGIN_LEFT + pw * x_pos(p, p->series[0].x[i], xlo, xhi);

			fprintf(f, "<text class=\"x-tick\" x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%g</text>\n",
					x, top + ph + 18, p->series[0].x[i]);
		}
	}
	else
	{
		xstep = tick_step(xhi > xlo ? xhi - xlo : 1);
		for (double v = ceil(xlo / xstep) * xstep; v <= xhi + xstep / 100; v += xstep)
		{
			double		x = MARGIN_LEFT + pw * x_pos(p, v, xlo, xhi);

			tick_label(label, sizeof(label), v, xstep);
			fprintf(f, "<text class=\"x-tick\" x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%s</text>\n",
					x, top + ph + 18, label);
		}
	}
	fprintf(f, "<text class=\"x-label\" x=\"%d\" y=\"%d\" font-size=\"13\" text-anchor=\"middle\">",
			MARGIN_LEFT + pw / 2, top + ph + 42);
	xml_text(f, p->x_label);
	fprintf(f, "</text>\n");
	fprintf(f, "<path class=\"axes\" d=\"M%d %dV%dH%d\" fill=\"none\" stroke=\"#333\"/>\n",
			MARGIN_LEFT, top, top + ph, MARGIN_LEFT + pw);

	/* the series, and the legend */
	for (int s = 0; s < p->nseries; s++)
	{
		const ChartSeries *ser = &p->series[s];
		const char *colour = colours[s % lengthof(colours)];

		fprintf(f, "<polyline class=\"series\" data-label=\"");
		xml_text(f, ser->label);
		fprintf(f, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colour);
		for (int i = 0; i < ser->n; i++)
			fprintf(f, "%s%.1f,%.1f", i > 0 ? " " : "",
					MARGIN_LEFT + pw * x_pos(p, ser->x[i], xlo, xhi),
					top + ph - ph * ser->y[i] / yhi);
		fprintf(f, "\"/>\n");
		for (int i = 0; i < ser->n && ser->n <= 64; i++)
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
					MARGIN_LEFT + pw * x_pos(p, ser->x[i], xlo, xhi),
					top + ph - ph * ser->y[i] / yhi, colour);
		/* each point's interval, a bar with caps */
		for (int i = 0; ser->low != NULL && ser->high != NULL && i < ser->n; i++)
		{
			double		x = MARGIN_LEFT + pw * x_pos(p, ser->x[i], xlo, xhi);
			double		ylow = top + ph - ph * ser->low[i] / yhi;
			double		yhigh = top + ph - ph * ser->high[i] / yhi;

			if (!isfinite(ser->low[i]) || !isfinite(ser->high[i]))
				continue;
			fprintf(f, "<path class=\"interval\" data-label=\"");
			xml_text(f, ser->label);
			fprintf(f, "\" d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" stroke=\"%s\" stroke-width=\"1.5\" fill=\"none\"/>\n",
					x, ylow, yhigh, x - 5, ylow, x + 5, x - 5, yhigh, x + 5, colour);
		}
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"4\" fill=\"%s\"/>\n",
				MARGIN_LEFT + pw + 20, top + 10 + 20 * s, colour);
		fprintf(f, "<text class=\"legend\" x=\"%d\" y=\"%d\" font-size=\"12\">",
				MARGIN_LEFT + pw + 40, top + 15 + 20 * s);
		xml_text(f, ser->label);
		fprintf(f, "</text>\n");
	}
	fprintf(f, "</g>\n");
}

/*
 * write_svg
 *		Write the panels, one under the other, as an SVG file with a title.
 *		Returns false on error (reported).
 */
bool
write_svg(const char *path, const char *title, const ChartPanel *panels,
		  int npanels)
{
	FILE	   *f = fopen(path, "w");
	int			height = TITLE_HEIGHT + npanels * PANEL_HEIGHT;

	if (f == NULL)
	{
		pg_log_error("could not open file \"%s\" for writing: %m", path);
		return false;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n",
			SVG_WIDTH, height, SVG_WIDTH, height);
	fprintf(f, "<title>");
	xml_text(f, title);
	fprintf(f, "</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(f, "<text class=\"title\" x=\"%d\" y=\"28\" font-size=\"20\" font-weight=\"bold\">",
			MARGIN_LEFT);
	xml_text(f, title);
	fprintf(f, "</text>\n");
	for (int i = 0; i < npanels; i++)
		draw_panel(f, &panels[i], TITLE_HEIGHT + i * PANEL_HEIGHT);
	fprintf(f, "</svg>\n");
	if (ferror(f) || fclose(f) != 0)
	{
		pg_log_error("could not write file \"%s\": %m", path);
		return false;
	}
	return true;
}

/*
 * chart_run_progress
 *		--svg for a run: its tps and its p99 latency at every progress
 *		interval, from the run's document (a hot standby's run is in no
 *		table).  Returns false on error.
 */
bool
chart_run_progress(PGconn *conn, const char *path, const char *title,
				   const char *run_id)
{
	const char *params[1] = {run_id};
	PGresult   *res = exec_query(conn, 0,
								 "SELECT (p OPERATOR(pg_catalog.->>) 'elapsed')::pg_catalog.float8,"
								 " (p OPERATOR(pg_catalog.->>) 'tps')::pg_catalog.float8,"
								 " coalesce((p OPERATOR(pg_catalog.->>) 'latency_p99')::pg_catalog.float8, 0)"
								 "  FROM pg_catalog.jsonb_array_elements(@extschema@.polarbench_run_document($1::pg_catalog.int8)"
								 "       OPERATOR(pg_catalog.->) 'progress') p"
								 " ORDER BY 1",
								 1, params);
	ChartSeries tps = {.label = "tps"};
	ChartSeries p99 = {.label = "p99 latency"};
	ChartPanel	panels[2];
	int			n;
	bool		ok;

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		report_server_error(conn, res);
		PQclear(res);
		return false;
	}
	n = PQntuples(res);
	tps.x = pg_malloc(sizeof(double) * (n + 1));
	tps.y = pg_malloc(sizeof(double) * (n + 1));
	p99.x = tps.x;
	p99.y = pg_malloc(sizeof(double) * (n + 1));
	for (int i = 0; i < n; i++)
	{
		tps.x[i] = atof(PQgetvalue(res, i, 0));
		tps.y[i] = atof(PQgetvalue(res, i, 1));
		p99.y[i] = atof(PQgetvalue(res, i, 2));
	}
	tps.n = p99.n = n;
	PQclear(res);
	panels[0] = (ChartPanel) {"Throughput over time", "elapsed time (s)",
	"transactions per second (tps)", &tps, 1, false, false};
	panels[1] = (ChartPanel) {"p99 latency over time", "elapsed time (s)",
	"p99 latency (ms)", &p99, 1, false, false};
	ok = write_svg(path, title, panels, 2);
	free(tps.x);
	free(tps.y);
	free(p99.y);
	return ok;
}
