/* render/plot.c - the heading plot of a GLM agent (written with libxml2's text writer).
 *
 * For the situation a GLM agent perceives at the world's current time and its current weights,
 * the plot shows over phi in [-180, 180] degrees the target attractor f_tar (2), the summed
 * obstacle repeller f_obs (3) and the heading rate phidot = |w_tar| f_tar + |w_obs| f_obs of
 * eq. (1) without noise.  The fixed points of phidot are bracketed on the samples and refined
 * with GSL's Brent solver; a fixed point is stable when the slope of phidot there is negative
 * (weights held fixed).  The y axis is symmetric about zero and scaled to the largest value. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include <libxml/xmlwriter.h>

#include "swerve/render.h"

#define N_SAMPLES 721 /* every half degree, both ends included */
#define MAX_FIXED 64

/* Picture layout, px. */
#define PW 900.0
#define PH 520.0
#define LEFT 80.0
#define RIGHT 200.0
#define TOP 40.0
#define BOTTOM 60.0

typedef struct {
	const sw_glm_params *p;
	const sw_situation *s;
	double w_tar, w_obs;
} plot_ctx;

typedef struct {
	double phi;   /* rad, in [-pi, pi) */
	double slope; /* d phidot / d phi at the root (weights fixed), 1/s */
	int stable;   /* phidot goes from positive to negative across the root */
	int weak;     /* |phidot| tiny on both sides of the bracket (nearly neutral) */
} fixed_pt;

static double phidot_at(double phi, void *arg)
{
	const plot_ctx *c = arg;
	sw_glm_terms t;
	sw_glm_eval(c->p, c->s, phi, c->w_tar, c->w_obs, &t);
	return t.phidot;
}

static double slope_at(const plot_ctx *c, double phi)
{
	sw_glm_terms t;
	sw_glm_eval(c->p, c->s, phi, c->w_tar, c->w_obs, &t);
	return fabs(c->w_tar) * t.df_tar + fabs(c->w_obs) * t.df_obs;
}

/* Refines a sign change of phidot in [lo, hi] with Brent's method; returns the root. */
static double brent(plot_ctx *c, gsl_root_fsolver *s, double lo, double hi)
{
	/* GSL's default error handler aborts: call the solver only on a finite, strict bracket
	 * (a jump of f_obs exactly at the interval's end can break the samples' bracket). */
	gsl_function f = {phidot_at, c};
	double flo = phidot_at(lo, c), fhi = phidot_at(hi, c);
	if (!(isfinite(flo) && isfinite(fhi) && flo * fhi < 0))
		return 0.5 * (lo + hi);
	if (gsl_root_fsolver_set(s, &f, lo, hi) != GSL_SUCCESS)
		return 0.5 * (lo + hi);
	double r = 0.5 * (lo + hi);
	for (int it = 0; it < 100; it++) {
		if (gsl_root_fsolver_iterate(s) != GSL_SUCCESS)
			break;
		r = gsl_root_fsolver_root(s);
		lo = gsl_root_fsolver_x_lower(s);
		hi = gsl_root_fsolver_x_upper(s);
		if (gsl_root_test_interval(lo, hi, 1e-12, 1e-10) == GSL_SUCCESS)
			break;
	}
	return r;
}

/* Zero crossings of phidot over one period.  The samples 0 .. N_SAMPLES - 2 cover the circle
 * once (the last sample is phi = pi = -pi again).  Consecutive non-zero samples of opposite
 * signs (circularly) bracket a fixed point: adjacent ones are refined with Brent's method; a run
 * of exact zeros between them (phidot underflows behind an obstacle when the target is switched
 * off) is a neutral stretch, marked at its middle.  Stability is the direction of the sign
 * change (negative slope at sample resolution), so the marks alternate around the circle. */
static int find_fixed(plot_ctx *c, const double *phi, const double *pd, double scale,
		      fixed_pt *out, int cap)
{
	int n = 0, np = N_SAMPLES - 1, first = -1;
	double step = phi[1] - phi[0];
	for (int k = 0; k < np && first < 0; k++)
		if (pd[k] != 0.0)
			first = k;
	if (first < 0)
		return 0; /* phidot vanishes everywhere */
	gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
	if (!s)
		return 0;
	int i = first;
	do {
		int gap = 1;
		while (pd[(i + gap) % np] == 0.0)
			gap++;
		int j = (i + gap) % np;
		double a = pd[i], b = pd[j];
		if (a * b < 0 && n < cap) {
			double lo = phi[i], root;
			if (gap == 1)
				root = brent(c, s, lo, lo + step);
			else
				root = lo + 0.5 * gap * step;
			root = root >= M_PI ? root - 2 * M_PI : root;
			out[n++] = (fixed_pt){root, slope_at(c, root), a > 0,
					      gap > 1 || fmax(fabs(a), fabs(b)) < 1e-6 * scale};
		}
		i = j;
	} while (i != first);
	gsl_root_fsolver_free(s);
	return n;
}

/* A "nice" tick step (1, 2 or 5 times a power of ten) giving about n ticks over span. */
static double nice_step(double span, int n)
{
	double raw = span / n, p = pow(10.0, floor(log10(raw))), f = raw / p;
	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

static void attr(xmlTextWriterPtr wr, const char *name, const char *value)
{
	xmlTextWriterWriteAttribute(wr, BAD_CAST name, BAD_CAST value);
}

static void attr_num(xmlTextWriterPtr wr, const char *name, double value)
{
	xmlTextWriterWriteFormatAttribute(wr, BAD_CAST name, "%.2f", value);
}

static void line(xmlTextWriterPtr wr, const char *cls, double x1, double y1, double x2, double y2,
		 const char *stroke, const char *width, const char *dash)
{
	xmlTextWriterStartElement(wr, BAD_CAST "line");
	attr(wr, "class", cls);
	attr_num(wr, "x1", x1);
	attr_num(wr, "y1", y1);
	attr_num(wr, "x2", x2);
	attr_num(wr, "y2", y2);
	attr(wr, "stroke", stroke);
	attr(wr, "stroke-width", width);
	if (dash)
		attr(wr, "stroke-dasharray", dash);
	xmlTextWriterEndElement(wr);
}

static void text(xmlTextWriterPtr wr, double x, double y, const char *anchor, const char *extra,
		 const char *s)
{
	xmlTextWriterStartElement(wr, BAD_CAST "text");
	attr_num(wr, "x", x);
	attr_num(wr, "y", y);
	attr(wr, "text-anchor", anchor);
	if (extra)
		attr(wr, "transform", extra);
	xmlTextWriterWriteString(wr, BAD_CAST s);
	xmlTextWriterEndElement(wr);
}

typedef struct {
	double x0, x1, y0, y1; /* plot area, px */
	double ymax;           /* |y| range of the data axis */
} axes;

static double ax_x(const axes *a, double phi) /* phi in rad */
{
	return a->x0 + (phi * 180.0 / M_PI + 180.0) / 360.0 * (a->x1 - a->x0);
}

static double ax_y(const axes *a, double v)
{
	double y = a->y0 + (a->ymax - v) / (2 * a->ymax) * (a->y1 - a->y0);
	return fmin(fmax(y, a->y0), a->y1);
}

static void curve(xmlTextWriterPtr wr, const axes *a, const char *cls, const char *colour,
		  const char *width, const double *phi, const double *v)
{
	char buf[64];
	xmlTextWriterStartElement(wr, BAD_CAST "polyline");
	attr(wr, "class", cls);
	xmlTextWriterStartAttribute(wr, BAD_CAST "points");
	for (int k = 0; k < N_SAMPLES; k++) {
		snprintf(buf, sizeof buf, "%s%.2f,%.2f", k ? " " : "", ax_x(a, phi[k]), ax_y(a, v[k]));
		xmlTextWriterWriteString(wr, BAD_CAST buf);
	}
	xmlTextWriterEndAttribute(wr);
	attr(wr, "fill", "none");
	attr(wr, "stroke", colour);
	attr(wr, "stroke-width", width);
	xmlTextWriterEndElement(wr);
}

static void draw_axes(xmlTextWriterPtr wr, const axes *a)
{
	char buf[64];
	xmlTextWriterStartElement(wr, BAD_CAST "rect");
	attr(wr, "class", "frame");
	attr_num(wr, "x", a->x0);
	attr_num(wr, "y", a->y0);
	attr_num(wr, "width", a->x1 - a->x0);
	attr_num(wr, "height", a->y1 - a->y0);
	attr(wr, "fill", "none");
	attr(wr, "stroke", "#000000");
	xmlTextWriterEndElement(wr);
	xmlTextWriterStartElement(wr, BAD_CAST "g");
	attr(wr, "class", "axes");
	attr(wr, "font-family", "sans-serif");
	attr(wr, "font-size", "12");
	for (int deg = -180; deg <= 180; deg += 45) {
		double x = ax_x(a, deg * M_PI / 180.0);
		line(wr, "grid", x, a->y0, x, a->y1, "#e0e0e0", "1", NULL);
		line(wr, "tick", x, a->y1, x, a->y1 + 5, "#000000", "1", NULL);
		snprintf(buf, sizeof buf, "%d", deg);
		text(wr, x, a->y1 + 18, "middle", NULL, buf);
	}
	double step = nice_step(2 * a->ymax, 8);
	for (double v = -floor(a->ymax / step) * step; v <= a->ymax + 1e-12; v += step) {
		double y = ax_y(a, v);
		if (fabs(v) > 1e-12 * step)
			line(wr, "grid", a->x0, y, a->x1, y, "#e0e0e0", "1", NULL);
		line(wr, "tick", a->x0 - 5, y, a->x0, y, "#000000", "1", NULL);
		snprintf(buf, sizeof buf, "%g", fabs(v) < 1e-12 * step ? 0.0 : v);
		text(wr, a->x0 - 8, y + 4, "end", NULL, buf);
	}
	text(wr, 0.5 * (a->x0 + a->x1), a->y1 + 40, "middle", NULL, "heading \xcf\x86 (deg)");
	snprintf(buf, sizeof buf, "rotate(-90 %.2f %.2f)", 20.0, 0.5 * (a->y0 + a->y1));
	text(wr, 20.0, 0.5 * (a->y0 + a->y1), "middle", buf, "rate (rad/s)");
	xmlTextWriterEndElement(wr);
	line(wr, "zero", a->x0, ax_y(a, 0), a->x1, ax_y(a, 0), "#000000", "1", NULL);
}

static void legend(xmlTextWriterPtr wr, const axes *a, double w_tar, double w_obs)
{
	static const char *names[] = {"f_tar", "f_obs", "d\xcf\x86/dt (weighted sum)", "heading"};
	static const char *cols[] = {"#2ca02c", "#d62728", "#1f77b4", "#7f7f7f"};
	char buf[96];
	double x = a->x1 + 14, y = a->y0 + 10;
	xmlTextWriterStartElement(wr, BAD_CAST "g");
	attr(wr, "class", "legend");
	attr(wr, "font-family", "sans-serif");
	attr(wr, "font-size", "11");
	for (int k = 0; k < 4; k++, y += 18) {
		line(wr, "legend-key", x, y, x + 22, y, cols[k], k == 2 ? "2.5" : "1.5",
		     k == 3 ? "5 3" : NULL);
		text(wr, x + 28, y + 4, "start", NULL, names[k]);
	}
	xmlTextWriterStartElement(wr, BAD_CAST "circle");
	attr_num(wr, "cx", x + 11);
	attr_num(wr, "cy", y);
	attr(wr, "r", "5");
	attr(wr, "fill", "#1f77b4");
	attr(wr, "stroke", "#000000");
	xmlTextWriterEndElement(wr);
	text(wr, x + 28, y + 4, "start", NULL, "stable fixed point");
	y += 18;
	xmlTextWriterStartElement(wr, BAD_CAST "circle");
	attr_num(wr, "cx", x + 11);
	attr_num(wr, "cy", y);
	attr(wr, "r", "5");
	attr(wr, "fill", "#ffffff");
	attr(wr, "stroke", "#000000");
	xmlTextWriterEndElement(wr);
	text(wr, x + 28, y + 4, "start", NULL, "unstable fixed point");
	y += 30;
	snprintf(buf, sizeof buf, "|w_tar| = %.3g", fabs(w_tar));
	text(wr, x, y, "start", NULL, buf);
	snprintf(buf, sizeof buf, "|w_obs| = %.3g", fabs(w_obs));
	text(wr, x, y + 16, "start", NULL, buf);
	xmlTextWriterEndElement(wr);
}

static double wrap_pi(double a)
{
	a = fmod(a + M_PI, 2 * M_PI);
	if (a < 0)
		a += 2 * M_PI;
	return a - M_PI;
}

static int write_svg(const char *tmp, const char *title, const axes *a, const double *phi,
		     const double *ft, const double *fo, const double *pd, double heading,
		     const fixed_pt *fp, int nfp, double w_tar, double w_obs)
{
	char buf[160];
	xmlTextWriterPtr wr = xmlNewTextWriterFilename(tmp, 0);
	if (!wr)
		return 0;
	xmlTextWriterSetIndent(wr, 1);
	int ok = xmlTextWriterStartDocument(wr, "1.0", "UTF-8", NULL) >= 0;
	xmlTextWriterStartElement(wr, BAD_CAST "svg");
	attr(wr, "xmlns", "http://www.w3.org/2000/svg");
	attr_num(wr, "width", PW);
	attr_num(wr, "height", PH);
	snprintf(buf, sizeof buf, "0 0 %.2f %.2f", PW, PH);
	attr(wr, "viewBox", buf);
	xmlTextWriterWriteElement(wr, BAD_CAST "title", BAD_CAST title);
	xmlTextWriterStartElement(wr, BAD_CAST "rect");
	attr(wr, "width", "100%");
	attr(wr, "height", "100%");
	attr(wr, "fill", "#ffffff");
	xmlTextWriterEndElement(wr);
	xmlTextWriterStartElement(wr, BAD_CAST "text");
	attr_num(wr, "x", 0.5 * (a->x0 + a->x1));
	attr_num(wr, "y", 24);
	attr(wr, "text-anchor", "middle");
	attr(wr, "font-family", "sans-serif");
	attr(wr, "font-size", "14");
	xmlTextWriterWriteString(wr, BAD_CAST title);
	xmlTextWriterEndElement(wr);
	draw_axes(wr, a);
	double hx = ax_x(a, wrap_pi(heading));
	xmlTextWriterStartElement(wr, BAD_CAST "line");
	attr(wr, "class", "heading");
	attr_num(wr, "x1", hx);
	attr_num(wr, "y1", a->y0);
	attr_num(wr, "x2", hx);
	attr_num(wr, "y2", a->y1);
	attr(wr, "stroke", "#7f7f7f");
	attr(wr, "stroke-width", "1.5");
	attr(wr, "stroke-dasharray", "5 3");
	snprintf(buf, sizeof buf, "current heading %.1f deg", wrap_pi(heading) * 180.0 / M_PI);
	xmlTextWriterWriteElement(wr, BAD_CAST "title", BAD_CAST buf);
	xmlTextWriterEndElement(wr);
	/* phidot first (thick) so that f_tar and f_obs stay visible where they coincide with it. */
	curve(wr, a, "phidot", "#1f77b4", "3", phi, pd);
	curve(wr, a, "f-tar", "#2ca02c", "1.5", phi, ft);
	curve(wr, a, "f-obs", "#d62728", "1.5", phi, fo);
	for (int k = 0; k < nfp; k++) {
		xmlTextWriterStartElement(wr, BAD_CAST "circle");
		attr(wr, "class", fp[k].stable ? "fixed-stable" : "fixed-unstable");
		attr_num(wr, "cx", ax_x(a, fp[k].phi));
		attr_num(wr, "cy", ax_y(a, 0));
		attr(wr, "r", "5");
		attr(wr, "fill", fp[k].stable ? "#1f77b4" : "#ffffff");
		attr(wr, "stroke", "#000000");
		attr(wr, "stroke-width", "1.5");
		snprintf(buf, sizeof buf, "%s fixed point at %.2f deg (slope %.3g 1/s)%s",
			 fp[k].stable ? "stable" : "unstable", fp[k].phi * 180.0 / M_PI, fp[k].slope,
			 fp[k].weak ? ", nearly neutral: phidot ~ 0 around it" : "");
		xmlTextWriterWriteElement(wr, BAD_CAST "title", BAD_CAST buf);
		xmlTextWriterEndElement(wr);
	}
	legend(wr, a, w_tar, w_obs);
	xmlTextWriterEndElement(wr);
	ok = ok && xmlTextWriterEndDocument(wr) >= 0;
	xmlFreeTextWriter(wr);
	return ok;
}

int sw_plot_heading_svg(const sw_world *w, int agent, const char *path, sw_diag *diag)
{
	const sw_model *m = sw_world_model(w);
	if (agent < 0 || agent >= m->n_agents)
		return sw_diag_add(diag, SW_SEV_ERROR, NULL, 0, 0, "heading plot: no agent %d",
				   agent),
		       SW_EUSAGE;
	const sw_steer_def *def = sw_world_steer(w, agent);
	if (def->law != SW_LAW_GLM)
		return sw_diag_add(diag, SW_SEV_ERROR, NULL, 0, 0,
				   "heading plot: agent '%s' steers with law '%s' in mode '%s', not "
				   "glm",
				   m->agents[agent].name, sw_law_name(def->law),
				   sw_world_mode_name(w, agent, sw_world_unit_mode(w, agent))),
		       SW_EUSAGE;
	sw_agent_state st;
	sw_world_agent(w, agent, &st);
	int cap = 64, n;
	sw_percept *buf = NULL;
	sw_situation s;
	for (;;) {
		sw_percept *nb = realloc(buf, (size_t)cap * sizeof *buf);
		if (!nb) {
			free(buf);
			return SW_ENOMEM;
		}
		buf = nb;
		n = sw_world_perceive(w, agent, &s, buf, cap);
		if (n <= cap)
			break;
		cap = n;
	}
	plot_ctx c = {&def->glm, &s, st.y[SW_STATE_WTAR], st.y[SW_STATE_WOBS]};
	double *phi = malloc(4 * N_SAMPLES * sizeof *phi);
	fixed_pt *fp = malloc(MAX_FIXED * sizeof *fp);
	if (!phi || !fp) {
		free(phi);
		free(fp);
		free(buf);
		return SW_ENOMEM;
	}
	double *ft = phi + N_SAMPLES, *fo = ft + N_SAMPLES, *pd = fo + N_SAMPLES;
	double ymax = 0;
	for (int k = 0; k < N_SAMPLES; k++) {
		sw_glm_terms t;
		phi[k] = -M_PI + 2 * M_PI * k / (N_SAMPLES - 1);
		sw_glm_eval(c.p, &s, phi[k], c.w_tar, c.w_obs, &t);
		ft[k] = t.f_tar;
		fo[k] = t.f_obs;
		pd[k] = t.phidot;
		for (int q = 0; q < 3; q++) {
			double v = q == 0 ? ft[k] : q == 1 ? fo[k] : pd[k];
			if (isfinite(v))
				ymax = fmax(ymax, fabs(v));
		}
	}
	int nfp = find_fixed(&c, phi, pd, ymax, fp, MAX_FIXED);
	axes a = {LEFT, PW - RIGHT, TOP, PH - BOTTOM, ymax > 0 ? 1.1 * ymax : 1.0};
	char title[2 * SW_NAME_MAX + 96];
	snprintf(title, sizeof title, "%s: heading dynamics of %s at t = %.3g s", m->name,
		 m->agents[agent].name, sw_world_time(w));
	int st_out = SW_SUCCESS;
	char tmp[4096];
	if (snprintf(tmp, sizeof tmp, "%s.tmpXXXXXX", path) >= (int)sizeof tmp) {
		sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "path too long");
		st_out = SW_EIO;
	} else {
		int fd = mkstemp(tmp);
		if (fd < 0) {
			sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "cannot write the plot");
			st_out = SW_EIO;
		} else {
			close(fd);
			if (!write_svg(tmp, title, &a, phi, ft, fo, pd, st.y[SW_STATE_PHI], fp, nfp,
				       c.w_tar, c.w_obs) ||
			    rename(tmp, path) != 0) {
				unlink(tmp);
				sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "writing the plot failed");
				st_out = SW_EIO;
			}
		}
	}
	free(phi);
	free(fp);
	free(buf);
	return st_out;
}
