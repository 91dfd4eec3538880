/* model/motion.c - scripted motion and time-dependent geometry queries of a compiled model. */
#include <math.h>

#include "swerve/model.h"

sw_vec2 sw_motion_displacement(const sw_model *m, const sw_motion *mo, double t)
{
	switch (mo->kind) {
	case SW_MOTION_LINEAR:
		return sw_v2_scale(mo->velocity, t);
	case SW_MOTION_WAYPOINTS: {
		const sw_vec2 *p = m->points + mo->first;
		sw_vec2 at = sw_polyline_loop_at(p, mo->count, mo->speed * t, NULL);
		return sw_v2_sub(at, p[0]);
	}
	case SW_MOTION_NONE:
	default:
		return sw_v2(0.0, 0.0);
	}
}

sw_vec2 sw_model_target_position(const sw_model *m, int i, double t)
{
	const sw_target *tg = &m->targets[i];
	return sw_v2_add(tg->position, sw_motion_displacement(m, &tg->motion, t));
}

void sw_model_prim_at(const sw_model *m, int i, double t, sw_vec2 *a, sw_vec2 *b)
{
	const sw_prim *p = &m->prims[i];
	sw_vec2 d = sw_motion_displacement(m, &m->obstacles[p->owner].motion, t);
	*a = sw_v2_add(p->a, d);
	if (b)
		*b = sw_v2_add(p->b, d);
}

double sw_model_obstacle_clearance(const sw_model *m, int i, double t, sw_vec2 p, double r)
{
	const sw_obstacle *o = &m->obstacles[i];
	double best = INFINITY;
	for (int k = o->prim_first; k < o->prim_first + o->prim_count; k++) {
		sw_vec2 a, b;
		sw_model_prim_at(m, k, t, &a, &b);
		double c = m->prims[k].is_segment ? sw_segment_distance(a, b, p) - r
						   : sw_v2_dist(a, p) - m->prims[k].radius - r;
		if (c < best)
			best = c;
	}
	if (o->shape == SW_SHAPE_POLYGON && o->closed) {
		/* Inside a closed polygon: the clearance is minus the depth plus the radius. */
		sw_vec2 d = sw_motion_displacement(m, &o->motion, t);
		sw_vec2 q = sw_v2_sub(p, d);
		if (sw_polygon_contains(m->points + o->first, o->count, q))
			best = -(best + 2.0 * r);
	}
	return best;
}
