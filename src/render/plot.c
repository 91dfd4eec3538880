/* render/plot.c - the heading plot of a GLM agent (SVG or PNG, through a scene).
 *
 * For the situation a GLM agent perceives at the world's current time and its current weights,
 * the plot shows over phi in [-180, 180] degrees the target attractor f_tar (2), the summed
 * obstacle repeller f_obs (3) and the heading rate phidot = |w_tar| f_tar + |w_obs| f_obs of
 * eq. (1) without noise.  The fixed points of phidot are bracketed on the samples and refined
 * with GSL's Brent solver; a fixed point is stable when the slope of phidot there is negative
 * (weights held fixed).  The y axis is symmetric about zero and scaled to the largest value.
 * The picture is a scene (scene.h), written as SVG or PNG. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include "core/core_internal.h"
#include "render/scene.h"

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
			root = root >= SW_PI ? root - 2 * SW_PI : root;
			out[n++] = (fixed_pt){root, slope_at(c, root), a > 0,
					      gap > 1 || fmax(fabs(a), fabs(b)) < 1e-6 * scale};
		}
		i = j;
	} while (i != first);
	gsl_root_fsolver_free(s);
	return n;
}

static double wrap_pi(double a)
{
	a = fmod(a + SW_PI, 2 * SW_PI);
	if (a < 0)
		a += 2 * SW_PI;
	return a - SW_PI;
}

static void legend(sw_scene *sc, const sc_axes *a, double w_tar, double w_obs)
{
	static const char *names[] = {"f_tar", "f_obs", "d\xcf\x86/dt (weighted sum)", "heading"};
	static const int cols[] = {0x2ca02c, 0xd62728, 0x1f77b4, 0x7f7f7f};
	char buf[96];
	double x = a->x1 + 14, y = a->y0 + 10;
	for (int k = 0; k < 4; k++, y += 18) {
		sc_style st = sc_stroke(cols[k], k == 2 ? 2.5 : 1.5);
		if (k == 3)
			st.dash[0] = 5, st.dash[1] = 3;
		sc_line(sc, "legend-key", x, y, x + 22, y, st, NULL);
		sc_text(sc, "legend", x + 28, y + 4, SC_START, 11, 0, 0, names[k]);
	}
	sc_circle(sc, "legend-key", x + 11, y, 5, sc_filled(0x1f77b4, 0x000000, 1), NULL);
	sc_text(sc, "legend", x + 28, y + 4, SC_START, 11, 0, 0, "stable fixed point");
	y += 18;
	sc_circle(sc, "legend-key", x + 11, y, 5, sc_filled(0xffffff, 0x000000, 1), NULL);
	sc_text(sc, "legend", x + 28, y + 4, SC_START, 11, 0, 0, "unstable fixed point");
	y += 30;
	snprintf(buf, sizeof buf, "|w_tar| = %.3g", fabs(w_tar));
	sc_text(sc, "legend", x, y, SC_START, 11, 0, 0, buf);
	snprintf(buf, sizeof buf, "|w_obs| = %.3g", fabs(w_obs));
	sc_text(sc, "legend", x, y + 16, SC_START, 11, 0, 0, buf);
}

/* The heading plot as a scene: axes in degrees, the three curves, the heading and the fixed
 * points. */
static sw_scene *heading_scene(const char *title, const sc_axes *a, const double *phi,
			       const double *ft, const double *fo, const double *pd, double heading,
			       const fixed_pt *fp, int nfp, double w_tar, double w_obs)
{
	char buf[160];
	sw_scene *sc = sc_new(PW, PH, title);
	if (!sc)
		return NULL;
	sc_text(sc, "title", 0.5 * (a->x0 + a->x1), 24, SC_MIDDLE, 14, 0, 0, title);
	sc_axes_draw(sc, a, 45, 0, "heading \xcf\x86 (deg)", "rate (rad/s)");
	sc_line(sc, "zero", a->x0, sc_ax_y(a, 0), a->x1, sc_ax_y(a, 0), sc_stroke(0, 1), NULL);
	double hx = sc_ax_x(a, wrap_pi(heading) * 180.0 / SW_PI);
	sc_style dashed = sc_stroke(0x7f7f7f, 1.5);
	dashed.dash[0] = 5, dashed.dash[1] = 3;
	snprintf(buf, sizeof buf, "current heading %.1f deg", wrap_pi(heading) * 180.0 / SW_PI);
	sc_line(sc, "heading", hx, a->y0, hx, a->y1, dashed, buf);
	double deg[N_SAMPLES];
	for (int k = 0; k < N_SAMPLES; k++)
		deg[k] = phi[k] * 180.0 / SW_PI;
	/* phidot first (thick) so that f_tar and f_obs stay visible where they coincide with it. */
	sc_axes_curve(sc, a, "phidot", sc_stroke(0x1f77b4, 3), N_SAMPLES, deg, pd, NULL);
	sc_axes_curve(sc, a, "f-tar", sc_stroke(0x2ca02c, 1.5), N_SAMPLES, deg, ft, NULL);
	sc_axes_curve(sc, a, "f-obs", sc_stroke(0xd62728, 1.5), N_SAMPLES, deg, fo, NULL);
	for (int k = 0; k < nfp; k++) {
		snprintf(buf, sizeof buf, "%s fixed point at %.2f deg (slope %.3g 1/s)%s",
			 fp[k].stable ? "stable" : "unstable", fp[k].phi * 180.0 / SW_PI, fp[k].slope,
			 fp[k].weak ? ", nearly neutral: phidot ~ 0 around it" : "");
		sc_circle(sc, fp[k].stable ? "fixed-stable" : "fixed-unstable",
			  sc_ax_x(a, fp[k].phi * 180.0 / SW_PI), sc_ax_y(a, 0), 5,
			  sc_filled(fp[k].stable ? 0x1f77b4 : 0xffffff, 0x000000, 1.5), buf);
	}
	legend(sc, a, w_tar, w_obs);
	return sc;
}

int sw_plot_heading_svg(sw_world *w, int agent, const char *path, sw_diag *diag)
{
	return sw_plot_heading(w, agent, SW_IMAGE_SVG, path, diag);
}

int sw_plot_heading(sw_world *w, int agent, sw_image_format fmt, const char *path,
		    sw_diag *diag)
{
	const sw_model *m = sw_world_model(w);
	if (agent < 0 || agent >= m->n_agents)
		return sw_diag_add(diag, SW_SEV_ERROR, NULL, 0, 0, "heading plot: no agent %d",
				   agent),
		       SW_EUSAGE;
	if (sw_world_is_3d(w)) /* the curves are functions of a planar heading */
		return sw_diag_add(diag, SW_SEV_ERROR, m->file, m->dim3_line, 0,
				   "heading plot: a 3-D scenario has no planar heading function; "
				   "expected a 2-D scenario (or --series)"),
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
		phi[k] = -SW_PI + 2 * SW_PI * k / (N_SAMPLES - 1);
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
	double ym = ymax > 0 ? 1.1 * ymax : 1.0;
	sc_axes a = {LEFT, PW - RIGHT, TOP, PH - BOTTOM, -180.0, 180.0, -ym, ym};
	char title[2 * SW_NAME_MAX + 96];
	snprintf(title, sizeof title, "%s: heading dynamics of %s at t = %.3g s", m->name,
		 m->agents[agent].name, sw_world_time(w));
	sw_scene *sc = heading_scene(title, &a, phi, ft, fo, pd, st.y[SW_STATE_PHI], fp, nfp,
				     c.w_tar, c.w_obs);
	int st_out = sc ? sc_write(sc, fmt, path, diag) : SW_ENOMEM;
	sc_free(sc);
	free(phi);
	free(fp);
	free(buf);
	return st_out;
}
