/* render/chart.c - a framed plot area with grid, ticks, labels, curves and legend keys, shared
 * by the heading plot, the time series and the table charts. */
#include <math.h>
#include <stdio.h>

#include "render/scene.h"

double sc_ax_x(const sc_axes *a, double x)
{
	return a->x0 + (x - a->xlo) / (a->xhi - a->xlo) * (a->x1 - a->x0);
}

double sc_ax_y(const sc_axes *a, double v)
{
	double y = a->y0 + (a->yhi - v) / (a->yhi - a->ylo) * (a->y1 - a->y0);
	return fmin(fmax(y, a->y0), a->y1);
}

double sc_nice_step(double span, int n)
{
	double raw = span / n, p = pow(10.0, floor(log10(raw))), f = raw / p;
	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

void sc_axes_draw(sw_scene *s, const sc_axes *a, double xstep, double ystep,
		  const char *xlabel, const char *ylabel)
{
	char buf[64];
	sc_style grid = sc_stroke(0xe0e0e0, 1), tick = sc_stroke(0x000000, 1);
	if (!(xstep > 0))
		xstep = sc_nice_step(a->xhi - a->xlo, 8);
	if (!(ystep > 0))
		ystep = sc_nice_step(a->yhi - a->ylo, 6);
	sc_rect(s, "frame", a->x0, a->y0, a->x1 - a->x0, a->y1 - a->y0,
		sc_filled(SC_NONE, 0x000000, 1));
	for (double v = ceil(a->xlo / xstep - 1e-9) * xstep; v <= a->xhi + 1e-9 * xstep; v += xstep) {
		double x = sc_ax_x(a, v);
		sc_line(s, "grid", x, a->y0, x, a->y1, grid, NULL);
		sc_line(s, "tick", x, a->y1, x, a->y1 + 5, tick, NULL);
		snprintf(buf, sizeof buf, "%g", fabs(v) < 1e-9 * xstep ? 0.0 : v);
		sc_text(s, "tick-label", x, a->y1 + 18, SC_MIDDLE, 12, 0, 0, buf);
	}
	for (double v = ceil(a->ylo / ystep - 1e-9) * ystep; v <= a->yhi + 1e-9 * ystep; v += ystep) {
		double y = sc_ax_y(a, v);
		if (fabs(v) > 1e-9 * ystep)
			sc_line(s, "grid", a->x0, y, a->x1, y, grid, NULL);
		sc_line(s, "tick", a->x0 - 5, y, a->x0, y, tick, NULL);
		snprintf(buf, sizeof buf, "%g", fabs(v) < 1e-9 * ystep ? 0.0 : v);
		sc_text(s, "tick-label", a->x0 - 8, y + 4, SC_END, 12, 0, 0, buf);
	}
	if (xlabel)
		sc_text(s, "axis-label", 0.5 * (a->x0 + a->x1), a->y1 + 38, SC_MIDDLE, 12, 0, 0,
			xlabel);
	if (ylabel)
		sc_text(s, "axis-label", a->x0 - 50, 0.5 * (a->y0 + a->y1), SC_MIDDLE, 12, -90, 0,
			ylabel);
}

void sc_axes_curve(sw_scene *s, const sc_axes *a, const char *cls, sc_style st, int n,
		   const double *x, const double *y, const unsigned char *breaks)
{
	int open = 0;
	for (int k = 0; k < n; k++) {
		if (!isfinite(x[k]) || !isfinite(y[k])) {
			if (open)
				sc_poly_end(s);
			open = 0;
			continue;
		}
		if (open && breaks && breaks[k]) {
			sc_poly_end(s);
			open = 0;
		}
		if (!open) {
			sc_poly_begin(s, cls, 0, st, NULL);
			open = 1;
		}
		sc_point(s, sc_ax_x(a, x[k]), sc_ax_y(a, y[k]));
	}
	if (open)
		sc_poly_end(s);
}

void sc_range(const double *v, int n, double min_span, double *lo, double *hi)
{
	double a = INFINITY, b = -INFINITY;
	for (int k = 0; k < n; k++)
		if (isfinite(v[k]))
			a = fmin(a, v[k]), b = fmax(b, v[k]);
	if (!(a <= b))
		a = 0, b = 1;
	if (b - a < min_span) {
		double c = 0.5 * (a + b);
		a = c - 0.5 * min_span, b = c + 0.5 * min_span;
	}
	double pad = 0.05 * (b - a);
	*lo = a - pad, *hi = b + pad;
}

void sc_legend_key(sw_scene *s, const sc_axes *a, int row, sc_style st, double marker,
		   const char *name)
{
	double x = a->x1 + 12, y = a->y0 + 12 + 16 * row;
	sc_line(s, "legend-key", x, y - 4, x + 20, y - 4, st, NULL);
	if (marker > 0)
		sc_circle(s, "legend-key", x + 10, y - 4, marker, sc_filled(st.stroke, st.stroke, 1),
			  NULL);
	sc_text(s, "legend", x + 26, y, SC_START, 11, 0, 0, name);
}
