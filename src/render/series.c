/* render/series.c - time series of one agent from a trace: heading, speed and the GLM weights
 * against time, in three stacked panels sharing the time axis, with the agent's transitions as
 * vertical lines.  Built as a scene, written as SVG or PNG. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/core_internal.h"
#include "render/scene.h"
#include "render/trace.h"

/* Picture layout, px. */
#define SW_W 900.0
#define PANEL_H 170.0
#define GAP 40.0
#define LEFT 90.0
#define RIGHT 150.0
#define TOP 44.0
#define BOTTOM 50.0

/* Vertical lines at the agent's transitions, with the modes as tooltip; with `label`, the new
 * mode written along the line (at most one label per 12 px, so a burst stays readable). */
static void transitions(sw_scene *sc, const sc_axes *a, const sw_world *w, const sw_trace *tr,
			int agent, int label)
{
	double last_x = -INFINITY;
	char buf[2 * SW_NAME_MAX + 64];
	sc_style st = sc_stroke(0x7f7f7f, 1);
	st.dash[0] = 3, st.dash[1] = 3;
	for (int k = 0; k < tr->n_events; k++) {
		const trace_ev *e = &tr->events[k];
		if (e->unit != agent || e->t < a->xlo || e->t > a->xhi)
			continue;
		snprintf(buf, sizeof buf, "t = %.3f s: %s -> %s", e->t,
			 sw_world_mode_name(w, agent, e->from), sw_world_mode_name(w, agent, e->to));
		double x = sc_ax_x(a, e->t);
		sc_line(sc, "transition", x, a->y0, x, a->y1, st, buf);
		if (label && x - last_x >= 12.0) {
			/* rotated 90 degrees: the text runs down the line from the panel's top */
			sc_text(sc, "transition-label", x + 3, a->y0 + 4, SC_START, 10, 90, 0x555555,
				sw_world_mode_name(w, agent, e->to));
			last_x = x;
		}
	}
}

int sw_plot_series(const sw_world *w, const sw_trace *tr, int agent, sw_image_format fmt,
		   const char *path, sw_diag *diag)
{
	const sw_model *m = tr->m;
	if (agent < 0 || agent >= m->n_agents)
		return sw_diag_add(diag, SW_SEV_ERROR, NULL, 0, 0, "time series: no agent %d", agent),
		       SW_EUSAGE;
	int n = tr->n_samples;
	if (n < 2)
		return sw_diag_add(diag, SW_SEV_ERROR, NULL, 0, 0,
				   "time series: the trace has %d samples; at least 2 are needed", n),
		       SW_EUSAGE;
	double *buf = malloc(5 * (size_t)n * sizeof *buf);
	sw_scene *sc = NULL;
	int st = SW_ENOMEM;
	if (!buf)
		goto done;
	double *t = buf, *hd = t + n, *v = hd + n, *wt = v + n, *wo = wt + n;
	for (int k = 0; k < n; k++) {
		const trace_pt *p = trace_at(tr, k, agent);
		t[k] = p->t;
		/* Unwrapped: each sample continues from the last by the smallest turn, so a heading
		 * that passes +-180 degrees draws on instead of jumping across the panel. */
		double deg = p->heading * 180.0 / SW_PI;
		hd[k] = k == 0 ? deg : hd[k - 1] + sw_wrap_angle((deg - hd[k - 1]) * SW_PI / 180.0) *
							   180.0 / SW_PI;
		v[k] = p->speed;
		wt[k] = fabs(p->w_tar);
		wo[k] = fabs(p->w_obs);
	}
	double H = TOP + 3 * PANEL_H + 2 * GAP + BOTTOM;
	char title[2 * SW_NAME_MAX + 64];
	snprintf(title, sizeof title, "%s: heading, speed and weights of %s", m->name,
		 m->agents[agent].name);
	sc = sc_new(SW_W, H, title);
	if (!sc)
		goto done;
	sc_text(sc, "title", 0.5 * (LEFT + SW_W - RIGHT), 24, SC_MIDDLE, 14, 0, 0, title);
	sc_axes ax[3];
	for (int q = 0; q < 3; q++) {
		double y0 = TOP + q * (PANEL_H + GAP);
		ax[q] = (sc_axes){LEFT, SW_W - RIGHT, y0, y0 + PANEL_H, t[0], t[n - 1], 0, 1};
	}
	sc_range(hd, n, 20.0, &ax[0].ylo, &ax[0].yhi);
	sc_range(v, n, 0.2, &ax[1].ylo, &ax[1].yhi);
	ax[2].ylo = -0.05, ax[2].yhi = 1.05; /* widened below if a weight exceeds 1 */
	for (int k = 0; k < n; k++)
		ax[2].yhi = fmax(ax[2].yhi, fmax(wt[k], wo[k]) * 1.05);
	if (ax[0].xhi <= ax[0].xlo)
		for (int q = 0; q < 3; q++)
			ax[q].xhi = ax[q].xlo + 1;
	static const char *ylabels[] = {"heading (deg)", "speed (m/s)", "weights"};
	for (int q = 0; q < 3; q++) {
		/* heading ticks every 90 degrees unless that crowds the panel (many turns) */
		double ystep = q == 0 && ax[0].yhi - ax[0].ylo <= 720.0 ? 90 : 0;
		sc_axes_draw(sc, &ax[q], 0, ystep, q == 2 ? "time (s)" : NULL, ylabels[q]);
		transitions(sc, &ax[q], w, tr, agent, q == 0);
	}
	sc_axes_curve(sc, &ax[0], "heading", sc_stroke(0x1f77b4, 1.5), n, t, hd, NULL);
	sc_legend_key(sc, &ax[0], 0, sc_stroke(0x1f77b4, 2), 0, "heading");
	sc_axes_curve(sc, &ax[1], "speed", sc_stroke(0xff7f0e, 1.5), n, t, v, NULL);
	sc_legend_key(sc, &ax[1], 0, sc_stroke(0xff7f0e, 2), 0, "speed");
	sc_axes_curve(sc, &ax[2], "w-tar", sc_stroke(0x2ca02c, 1.5), n, t, wt, NULL);
	sc_axes_curve(sc, &ax[2], "w-obs", sc_stroke(0xd62728, 1.5), n, t, wo, NULL);
	sc_legend_key(sc, &ax[2], 0, sc_stroke(0x2ca02c, 2), 0, "|w_tar|");
	sc_legend_key(sc, &ax[2], 1, sc_stroke(0xd62728, 2), 0, "|w_obs|");
	st = sc_write(sc, fmt, path, diag);
done:
	if (st == SW_ENOMEM && !sc)
		sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "out of memory");
	sc_free(sc);
	free(buf);
	return st;
}
