/* render/trace.c - recording runs for pictures: every agent at every sample (through the world's
 * sample callback) and every transition (through its event callback). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/trace.h"

sw_trace *sw_trace_alloc(const sw_model *m)
{
	sw_trace *tr = calloc(1, sizeof *tr);
	if (tr) {
		tr->m = m;
		tr->n_agents = m->n_agents;
	}
	return tr;
}

void sw_trace_free(sw_trace *tr)
{
	if (!tr)
		return;
	free(tr->pts);
	free(tr->events);
	free(tr);
}

int sw_trace_n_samples(const sw_trace *tr) { return tr->n_samples; }

int sw_trace_sample(const sw_world *w, void *ctx)
{
	sw_trace *tr = ctx;
	if (tr->n_samples == tr->cap_samples) {
		int nc = tr->cap_samples ? 2 * tr->cap_samples : 64;
		void *p = realloc(tr->pts, (size_t)nc * (size_t)(tr->n_agents ? tr->n_agents : 1) *
						sizeof *tr->pts);
		if (!p)
			return SW_ENOMEM;
		tr->pts = p;
		tr->cap_samples = nc;
	}
	trace_pt *row = tr->pts + (size_t)tr->n_samples * tr->n_agents;
	for (int i = 0; i < tr->n_agents; i++) {
		sw_agent_state s;
		sw_world_agent(w, i, &s);
		row[i] = (trace_pt){sw_world_time(w),     s.y[SW_STATE_X],    s.y[SW_STATE_Y],
				    s.y[SW_STATE_PHI],     s.y[SW_STATE_V],    s.y[SW_STATE_WTAR],
				    s.y[SW_STATE_WOBS],    s.mode};
	}
	tr->n_samples++;
	return SW_SUCCESS;
}

void sw_trace_event(const sw_world *w, int unit, double t, int from, int to, const char *label,
		    const char *guard, void *ctx)
{
	sw_trace *tr = ctx;
	if (tr->n_events == tr->cap_events) {
		int nc = tr->cap_events ? 2 * tr->cap_events : 32;
		void *p = realloc(tr->events, (size_t)nc * sizeof *tr->events);
		if (!p)
			return; /* the picture loses a marker, nothing else */
		tr->events = p;
		tr->cap_events = nc;
	}
	const double *y = sw_world_unit_state(w, unit, NULL);
	trace_ev *e = &tr->events[tr->n_events++];
	e->unit = unit;
	e->t = t;
	e->x = y[SW_STATE_X];
	e->y = y[SW_STATE_Y];
	e->from = from;
	e->to = to;
	snprintf(e->label, sizeof e->label, "%s", label ? label : "");
	snprintf(e->guard, sizeof e->guard, "%s", guard ? guard : "");
}

int trace_sample_before(const sw_trace *tr, double t)
{
	/* Samples are in time order: binary search for the last one with time <= t. */
	int lo = 0, hi = tr->n_samples - 1;
	if (hi < 0 || trace_at(tr, 0, 0)->t > t + 1e-9)
		return 0;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (trace_at(tr, mid, 0)->t <= t + 1e-9)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}
