/* sim/perceive.c - what an agent perceives: its target and the obstacles (static primitives
 * displaced by their scripted motion, and other agents as moving discs) inside its perception
 * radius.  Walls follow steering-models.md section 1.1: far away a wall acts as a repeller at its
 * midpoint whose half-width is half the angle the wall subtends; near it (clearance below
 * wall_near times its half length) it acts at its closest point, like a mirror. */
#include <math.h>

#include "sim_internal.h"

double sw__wall_near(const sw_steer_def *def)
{
	return def->law == SW_LAW_GLM ? def->glm.wall_near : INFINITY;
}

const sw_steer_def *sw__steer_of(const struct sw_world *w, int i, int mode)
{
	return &w->steer[w->steer_first[i] + (w->aut[i] ? mode : 0)];
}

int sw__target_pos(const struct sw_world *w, int i, double t, sw_vec2 *out)
{
	switch (w->tkind[i]) {
	case TGT_TARGET:
		*out = sw_model_target_position(w->m, w->tindex[i], t);
		return 1;
	case TGT_AGENT: {
		const double *yj = w->y_snap + w->off[w->tindex[i]];
		*out = sw_v2(yj[SW_STATE_X], yj[SW_STATE_Y]);
		return 1;
	}
	default:
		return 0;
	}
}

static void put(sw_percept *o, sw_vec2 d, double rho, double clearance, int id)
{
	o->dx = d.x;
	o->dy = d.y;
	o->dist = sw_v2_len(d);
	o->rho = rho;
	o->clearance = clearance;
	o->id = id;
}

int sw__perceive(const struct sw_world *w, int i, double t, const double *y, double wall_near,
		 sw_situation *s, sw_percept *buf, int cap)
{
	const sw_model *m = w->m;
	const sw_agent *a = &m->agents[i];
	sw_vec2 p = sw_v2(y[SW_STATE_X], y[SW_STATE_Y]);
	s->x = p.x;
	s->y = p.y;
	s->radius = a->radius;
	sw_vec2 q = sw_v2(0.0, 0.0);
	s->has_target = sw__target_pos(w, i, t, &q);
	/* Global planning: a field may replace the target by a look-ahead point (navigate.c). */
	sw_vec2 la;
	if (sw__field_goal(w, i, p, s->has_target ? &q : NULL, &la)) {
		q = la;
		s->has_target = 1;
	}
	s->tx = q.x;
	s->ty = q.y;
	int n = 0;
	for (int k = 0; k < m->n_prims && n < cap; k++) {
		const sw_prim *pr = &m->prims[k];
		sw_vec2 pa, pb;
		sw_model_prim_at(m, k, t, &pa, &pb);
		if (!pr->is_segment) {
			sw_vec2 d = sw_v2_sub(pa, p);
			double c = sw_v2_len(d) - pr->radius - a->radius;
			if (c <= a->perception)
				put(&buf[n++], d, pr->radius, c, k);
			continue;
		}
		sw_vec2 cp = sw_segment_closest(pa, pb, p, NULL);
		double c = sw_v2_dist(cp, p) - a->radius;
		if (c > a->perception)
			continue;
		double half = 0.5 * sw_v2_dist(pa, pb);
		if (c < wall_near * half) {
			put(&buf[n++], sw_v2_sub(cp, p), 0.0, c, k);
		} else {
			/* Midpoint repeller; rho such that asin(rho / dist) is half the angle the
			 * wall subtends from p. */
			sw_vec2 mid = sw_v2_scale(sw_v2_add(pa, pb), 0.5);
			sw_vec2 da = sw_v2_sub(pa, p), db = sw_v2_sub(pb, p), dm = sw_v2_sub(mid, p);
			double ang = atan2(fabs(sw_v2_cross(da, db)), sw_v2_dot(da, db));
			put(&buf[n++], dm, sw_v2_len(dm) * sin(0.5 * ang), c, k);
		}
	}
	if (m->run.agents_perceive) {
		/* Other agents at their start-of-step positions: through the grid when it is on
		 * (same candidates in the same order as the loop over every agent). */
		int *cand = NULL, nc = w->n;
		if (w->grid_on)
			nc = sw__grid_query((struct sw_world *)w, i, p,
					    a->perception + a->radius + w->grid_rmax, &cand);
		/* The agent steered to is the target, not an obstacle: a chaser does not keep a
		 * safety distance from what it chases. */
		int chased = w->tkind[i] == TGT_AGENT ? w->tindex[i] : -1;
		for (int k = 0; k < nc && n < cap; k++) {
			int j = cand ? cand[k] : k;
			if (j == i || j == chased)
				continue;
			const double *yj = w->y_snap + w->off[j];
			sw_vec2 d = sw_v2(yj[SW_STATE_X] - p.x, yj[SW_STATE_Y] - p.y);
			double rj = m->agents[j].radius;
			double c = sw_v2_len(d) - rj - a->radius;
			if (c <= a->perception)
				put(&buf[n++], d, rj, c, -1 - j);
		}
	}
	s->n_obs = n;
	s->obs = buf;
	return n;
}
