/* render/table_plot.c - a chart of a CSV table (sw_plot_table): series of markers joined by lines,
 * reference lines from columns, an optional reference curve y(x), a legend.
 *
 * Rows are grouped into series by the distinct values of the `by` column (in order of first
 * appearance) and, within a series, joined in the order of x (ties in file order), so a table
 * written in any row order draws the same picture.  A line column is one curve over all rows
 * (one point per distinct x, the first row's value): a reference such as the Weidmann speed,
 * repeated on every row of a per-walker table, draws once.  The curve is sampled at N_CURVE
 * points across the x axis; where it leaves the y range it is broken rather than clamped to the
 * frame.  The axes span the data (points and lines), padded by 5 %, not the curve. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/scene.h"
#include "render/table.h"
#include "swerve/expr.h"

/* Samples of the reference curve across the x axis. */
#define N_CURVE 241

/* Picture layout, px. */
#define LEFT 80.0
#define RIGHT 190.0
#define TOP 44.0
#define BOTTOM 56.0
#define MIN_W 200.0
#define MIN_H 150.0
#define MARKER 3.5

/* Named reference curves: y(x) as an expression in x. */
static const struct {
	const char *name, *label, *expr;
} named_curves[] = {
    /* Weidmann (1993): walking speed (m/s) against density (1/m^2), free speed 1.34 m/s,
     * gamma 1.913 1/m^2, jam density 5.4 1/m^2. */
    {"weidmann", "Weidmann (1993)", "1.34 * (1 - exp(-1.913 * (1 / x - 1 / 5.4)))"},
};

sw_table_plot_def sw_default_table_plot_def(void)
{
	sw_table_plot_def d;
	memset(&d, 0, sizeof d);
	d.width = 900;
	d.height = 560;
	return d;
}

typedef struct {
	double x, y;
	int row;
} pt;

static int pt_cmp(const void *a, const void *b)
{
	const pt *p = a, *q = b;
	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return (p->row > q->row) - (p->row < q->row);
}

/* Widens a degenerate range (every value equal) to +-10 % of the value (+-1 about 0). */
static void widen(double *lo, double *hi)
{
	if (*hi > *lo)
		return;
	double c = *lo, d = c != 0 ? 0.1 * fabs(c) : 1.0;
	*lo = c - d, *hi = c + d;
}

/* Draws points p[0..n) (sorted by x) as a polyline of class cls, with markers when `marker` (the
 * tooltip names the series and the row's values). */
static void draw_points(sw_scene *sc, const sc_axes *a, const char *cls, sc_style st, pt *p, int n,
			double *xs, double *ys, int marker, const char *name, const char *xname,
			const char *yname)
{
	for (int k = 0; k < n; k++)
		xs[k] = p[k].x, ys[k] = p[k].y;
	sc_axes_curve(sc, a, cls, st, n, xs, ys, NULL);
	if (!marker)
		return;
	char tip[320];
	for (int k = 0; k < n; k++) {
		snprintf(tip, sizeof tip, "%s: %s = %g, %s = %g (row %d)", name, xname, p[k].x, yname,
			 p[k].y, p[k].row + 1);
		sc_circle(sc, "marker", sc_ax_x(a, p[k].x), sc_ax_y(a, p[k].y), MARKER,
			  sc_filled(st.stroke, st.stroke, 1), tip);
	}
}

/* Compiles the curve (a name of named_curves or an expression in x) into *e; *label gets its
 * legend text (into buf). */
static int curve_compile(const char *curve, sw_expr **e, char *buf, size_t n, const char **label,
			 sw_diag *diag)
{
	const char *text = curve;
	*label = buf;
	snprintf(buf, n, "y = %s", curve);
	for (size_t k = 0; k < sizeof named_curves / sizeof named_curves[0]; k++)
		if (strcmp(curve, named_curves[k].name) == 0)
			text = named_curves[k].expr, *label = named_curves[k].label;
	sw_expr_var x = {"x", 0, SW_EXPR_REAL};
	sw_expr_symbols sym = {&x, 1, NULL, 0, NULL, NULL, NULL};
	sw_expr_def def = sw_default_expr_def();
	def.file = "--curve";
	def.expect = SW_EXPR_REAL;
	return sw_expr_compile(text, &sym, &def, diag, e);
}

/* The columns of a chart as numbers, and the series' membership. */
typedef struct {
	int n;          /* rows */
	double *x;      /* x column */
	double **y;     /* n_y columns */
	double **line;  /* n_line columns */
	int *group;     /* row -> index of its by-value (0 without by) */
	int *first;     /* group -> first row holding its value */
	int n_groups;
	double *buf;    /* storage of the above */
} columns;

static void columns_free(columns *c)
{
	free(c->buf);
	free(c->y);
	free(c->group);
}

static int columns_read(const sw_table *t, const sw_table_plot_def *d, columns *c, sw_diag *diag)
{
	int n = sw_table_n_rows(t), nc = 1 + d->n_y + d->n_line;
	memset(c, 0, sizeof *c);
	c->n = n;
	c->buf = malloc((size_t)nc * (size_t)n * sizeof *c->buf);
	c->y = malloc((size_t)nc * sizeof *c->y);
	c->group = malloc(2 * (size_t)n * sizeof *c->group);
	if (!c->buf || !c->y || !c->group)
		return SW_ENOMEM;
	c->x = c->buf;
	c->line = c->y + d->n_y;
	for (int k = 0; k < d->n_y + d->n_line; k++)
		c->y[k] = c->buf + (size_t)(k + 1) * (size_t)n;
	int st = sw_table_numbers(t, d->x, c->x, diag);
	for (int k = 0; k < d->n_y && st == SW_SUCCESS; k++)
		st = sw_table_numbers(t, d->y[k], c->y[k], diag);
	for (int k = 0; k < d->n_line && st == SW_SUCCESS; k++)
		st = sw_table_numbers(t, d->line[k], c->line[k], diag);
	if (st != SW_SUCCESS)
		return st;
	c->first = c->group + n;
	int by = -1;
	if (d->by && (by = sw__table_require(t, d->by, diag)) < 0)
		return SW_EINPUT;
	for (int r = 0; r < n; r++) {
		int g = 0;
		if (by >= 0) {
			const char *v = sw_table_cell(t, r, by);
			while (g < c->n_groups && strcmp(sw_table_cell(t, c->first[g], by), v) != 0)
				g++;
		}
		if (g == c->n_groups)
			c->first[c->n_groups++] = r;
		c->group[r] = g;
	}
	return SW_SUCCESS;
}

/* Joins names[0..n) with ", " into buf. */
static const char *joined(const char *const *names, int n, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int k = 0; k < n && used + 1 < size; k++) {
		int w = snprintf(buf + used, size - used, "%s%s", k ? ", " : "", names[k]);
		used += w > 0 ? (size_t)w : 0;
	}
	return buf;
}

/* Draws the chart of c into sc. */
static void chart(sw_scene *sc, const sc_axes *a, const sw_table *t, const sw_table_plot_def *d,
		  const columns *c, pt *p, double *xs, double *ys, const sw_expr *curve,
		  const char *curve_label, const char *xlabel, const char *ylabel)
{
	int by = d->by ? sw_table_find(t, d->by) : -1, row = 0, colour = 0;
	char name[256];
	sc_axes_draw(sc, a, 0, 0, xlabel, ylabel);
	/* series: one per (by-value, y column) */
	for (int g = 0; g < c->n_groups; g++)
		for (int j = 0; j < d->n_y; j++) {
			int n = 0;
			for (int r = 0; r < c->n; r++)
				if (c->group[r] == g)
					p[n++] = (pt){c->x[r], c->y[j][r], r};
			qsort(p, (size_t)n, sizeof *p, pt_cmp);
			const char *gv = by >= 0 ? sw_table_cell(t, c->first[g], by) : NULL;
			if (gv && d->n_y > 1)
				snprintf(name, sizeof name, "%s %s", gv, d->y[j]);
			else
				snprintf(name, sizeof name, "%s", gv ? gv : d->y[j]);
			sc_style st = sc_stroke(sc_palette(colour++), 1.5);
			draw_points(sc, a, "series", st, p, n, xs, ys, 1, name, d->x, d->y[j]);
			sc_legend_key(sc, a, row++, st, MARKER, name);
		}
	/* line columns: one point per distinct x */
	for (int j = 0; j < d->n_line; j++) {
		for (int r = 0; r < c->n; r++)
			p[r] = (pt){c->x[r], c->line[j][r], r};
		qsort(p, (size_t)c->n, sizeof *p, pt_cmp);
		int n = 0;
		for (int r = 0; r < c->n; r++)
			if (n == 0 || p[r].x != p[n - 1].x)
				p[n++] = p[r];
		sc_style st = sc_stroke(j == 0 ? 0x000000 : sc_palette(colour++), 2);
		draw_points(sc, a, "line", st, p, n, xs, ys, 0, d->line[j], d->x, d->line[j]);
		sc_legend_key(sc, a, row++, st, 0, d->line[j]);
	}
	/* the reference curve, broken where it leaves the y range */
	if (curve) {
		for (int k = 0; k < N_CURVE; k++) {
			xs[k] = a->xlo + (a->xhi - a->xlo) * k / (N_CURVE - 1);
			double v = sw_expr_eval(curve, &xs[k], NULL);
			ys[k] = v >= a->ylo && v <= a->yhi ? v : NAN;
		}
		sc_style st = sc_stroke(0x555555, 1.5);
		st.dash[0] = 6, st.dash[1] = 4;
		sc_axes_curve(sc, a, "curve", st, N_CURVE, xs, ys, NULL);
		sc_legend_key(sc, a, row, st, 0, curve_label);
	}
}

int sw_plot_table(const sw_table *t, const sw_table_plot_def *def, sw_image_format fmt,
		  const char *path, sw_diag *diag)
{
	if (!t || !def || !path)
		return SW_EUSAGE;
	const sw_table_plot_def *d = def;
	if (!d->x || d->n_y < 1 || !d->y || (d->n_line > 0 && !d->line))
		return sw_diag_add(diag, SW_SEV_ERROR, NULL, 0, 0,
				   "table chart: an x column and at least one y column are needed"),
		       SW_EUSAGE;
	if (!(d->width >= MIN_W && d->height >= MIN_H))
		return sw_diag_add(diag, SW_SEV_ERROR, NULL, 0, 0,
				   "table chart: a size of %g x %g px is too small (at least %g x "
				   "%g)",
				   d->width, d->height, MIN_W, MIN_H),
		       SW_EUSAGE;
	columns c;
	sw_expr *curve = NULL;
	sw_scene *sc = NULL;
	pt *p = NULL;
	double *xs = NULL;
	char curve_buf[160], title[512], ybuf[512];
	const char *curve_label = NULL;
	int st = columns_read(t, d, &c, diag);
	if (st == SW_SUCCESS && d->curve)
		st = curve_compile(d->curve, &curve, curve_buf, sizeof curve_buf, &curve_label, diag);
	if (st != SW_SUCCESS)
		goto done;
	int m = c.n > N_CURVE ? c.n : N_CURVE;
	p = malloc((size_t)c.n * sizeof *p);
	xs = malloc(2 * (size_t)m * sizeof *xs);
	if (!p || !xs) {
		st = SW_ENOMEM;
		goto done;
	}
	sc_axes a = {LEFT, d->width - RIGHT, TOP, d->height - BOTTOM, 0, 0, 0, 0};
	sc_range(c.x, c.n, 0, &a.xlo, &a.xhi);
	widen(&a.xlo, &a.xhi);
	/* the y range over every y and line column: c.y[0 .. n_y + n_line) are contiguous */
	sc_range(c.y[0], c.n * (d->n_y + d->n_line), 0, &a.ylo, &a.yhi);
	widen(&a.ylo, &a.yhi);
	const char *ynames = joined(d->y, d->n_y, ybuf, sizeof ybuf);
	const char *ylabel = d->ylabel ? d->ylabel : ynames;
	if (d->title)
		snprintf(title, sizeof title, "%s", d->title);
	else
		snprintf(title, sizeof title, "%s against %s", ynames, d->x);
	sc = sc_new(d->width, d->height, title);
	if (!sc) {
		st = SW_ENOMEM;
		goto done;
	}
	sc_text(sc, "title", 0.5 * (a.x0 + a.x1), 26, SC_MIDDLE, 14, 0, 0, title);
	chart(sc, &a, t, d, &c, p, xs, xs + m, curve, curve_label, d->xlabel ? d->xlabel : d->x,
	      ylabel);
	st = sc_write(sc, fmt, path, diag);
done:
	if (st == SW_ENOMEM && !sc)
		sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "out of memory");
	sc_free(sc);
	sw_expr_free(curve);
	free(p);
	free(xs);
	columns_free(&c);
	return st;
}
