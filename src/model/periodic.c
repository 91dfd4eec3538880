/* model/periodic.c - periodic worlds: x joined end to end with period L (<world periodic-x>,
 * docs/scenario-format.md "Periodic worlds").
 *
 * The simulator wraps agents' x into [0, L) after every step and perceives other agents at their
 * nearest image (sim/perceive.c); static obstacles are perceived where they are, without images.
 * That is exact for what this file admits and refuses the rest with the element's line:
 *   - the seam must not cut an obstacle: every primitive lies within 0 <= x <= L;
 *   - an agent near one end must see the obstacles near the other end: a primitive within the
 *     largest perception reach of the seam must be a wall along x spanning the strip (a corridor
 *     wall, which every agent perceives at the same closest point either way);
 *   - the nearest image must be the only one within reach: L > 2 (perception + 2 rmax);
 *   - what has no periodic form yet (3-D; fields, solved on a plain grid; moving obstacles;
 *     SteerBench metrics) is refused.
 * Behaviour automata read other agents at their nearest images too (sim/host.c: dist, bearing,
 * visible, neighbors, oncoming; progress unwraps the agent's own past positions). */
#include <math.h>

#include "automaton_impl.h"

int sw_model_set_periodic_x(sw_model *m, double length, int line)
{
	if (!m || m->finalized || !(length > 0.0) || !isfinite(length))
		return SW_EUSAGE;
	m->periodic_x = length;
	m->periodic_line = line;
	return SW_SUCCESS;
}

static int refuse(const sw_model *m, int line, const char *what, sw_diag *diag)
{
	sw_diag_add(diag, SW_SEV_ERROR, m->file, line, 0,
		    "periodic world (periodic-x=\"%g\", line %d): %s", m->periodic_x,
		    m->periodic_line, what);
	return 1;
}

/* 1 when primitive k is a wall along x spanning the whole strip. */
static int corridor_wall(const sw_model *m, const sw_prim *p)
{
	return p->is_segment && p->a.y == p->b.y && fmin(p->a.x, p->b.x) <= 0.0 &&
	       fmax(p->a.x, p->b.x) >= m->periodic_x;
}

int sw__check_periodic(const sw_model *m, sw_diag *diag)
{
	double L = m->periodic_x;
	if (!(L > 0.0))
		return SW_SUCCESS;
	int bad = 0;
	if (m->dim3)
		bad |= refuse(m, m->dim3_line, "3-D worlds cannot be periodic; expected a 2-D world",
			      diag);
	if (m->n_fields > 0)
		bad |= refuse(m, m->fields[0].line,
			      "fields are not supported in periodic worlds yet (they are solved on a "
			      "plain grid); expected none",
			      diag);
	if (m->routes.resolution > 0.0)
		bad |= refuse(m, m->routes.line,
			      "routes are not supported in periodic worlds yet (they are planned on a "
			      "plain grid); expected none",
			      diag);
	if (m->run.steerbench)
		bad |= refuse(m, m->run_line,
			      "SteerBench metrics are not supported in periodic worlds yet; expected "
			      "steerbench=\"false\"",
			      diag);
	double reach = 0.0, rmax = 0.0;
	for (int i = 0; i < m->n_agents; i++) {
		const sw_agent *a = &m->agents[i];
		rmax = fmax(rmax, a->radius);
		reach = fmax(reach, a->perception);
		if (!isfinite(a->perception))
			bad |= refuse(m, a->line,
				      "every agent needs a finite perception radius; expected "
				      "perception=\"...\"",
				      diag);
		if (!(a->position.x >= 0.0 && a->position.x < L))
			bad |= refuse(m, a->line, "the agent starts outside 0 <= x < periodic-x",
				      diag);
	}
	reach += 2.0 * rmax;
	if (isfinite(reach) && !(L > 2.0 * reach)) {
		char what[200];
		snprintf(what, sizeof what,
			 "the strip is no longer than twice the perception reach (%g m: largest "
			 "perception + 2 largest radii); expected periodic-x above %g",
			 reach, 2.0 * reach);
		bad |= refuse(m, m->periodic_line, what, diag);
	}
	for (int k = 0; k < m->n_prims; k++) {
		const sw_prim *p = &m->prims[k];
		const sw_obstacle *o = &m->obstacles[p->owner];
		double r = p->is_segment ? 0.0 : p->radius;
		double x0 = fmin(p->a.x, p->is_segment ? p->b.x : p->a.x) - r;
		double x1 = fmax(p->a.x, p->is_segment ? p->b.x : p->a.x) + r;
		if (o->motion.kind != SW_MOTION_NONE) {
			bad |= refuse(m, o->line,
				      "moving obstacles are not supported in periodic worlds yet; "
				      "expected a static one",
				      diag);
		} else if (corridor_wall(m, p)) {
			continue;
		} else if (x0 < 0.0 || x1 > L) {
			bad |= refuse(m, o->line,
				      "the obstacle crosses the seam (it reaches outside 0 <= x <= "
				      "periodic-x); expected it inside the strip, or a wall along x "
				      "spanning it",
				      diag);
		} else if (isfinite(reach) && (x0 < reach || x1 > L - reach)) {
			char what[240];
			snprintf(what, sizeof what,
				 "the obstacle lies within the perception reach (%g m) of the seam, "
				 "where agents on the other side would not see it; expected it at "
				 "least that far from x = 0 and x = periodic-x, or a wall along x "
				 "spanning the strip",
				 reach);
			bad |= refuse(m, o->line, what, diag);
		}
	}
	return bad ? SW_EINPUT : SW_SUCCESS;
}
