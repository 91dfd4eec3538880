/* render/trace.h - the recording of a run (internal to the render module). */
#ifndef SW_RENDER_TRACE_H
#define SW_RENDER_TRACE_H

#include "swerve/render.h"

/** One agent at one sample. */
typedef struct {
	double t, x, y, heading, speed, w_tar, w_obs;
	int mode;
} trace_pt;

/** One transition of a unit (agent or signal). */
typedef struct {
	int unit;
	double t, x, y;
	int from, to;
	char label[64];
	char guard[192];
} trace_ev;

struct sw_trace {
	const sw_model *m;
	int n_agents;
	int n_samples, cap_samples; /* samples: n_samples * n_agents points, sample-major */
	trace_pt *pts;
	int n_events, cap_events;
	trace_ev *events;
};

/** Agent i at sample k. */
static inline const trace_pt *trace_at(const sw_trace *tr, int k, int i)
{
	return &tr->pts[(size_t)k * (size_t)tr->n_agents + (size_t)i];
}

/** The last sample at or before time t (0 when t precedes every sample). */
int trace_sample_before(const sw_trace *tr, double t);

#endif
