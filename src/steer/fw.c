/* steer/fw.c - the Fajen-Warren second-order steering law, eq. (13).
 *
 * The publication measures heading from the walking direction (z axis); swerve measures it from
 * +x with psi = atan2(dy, dx).  Eq. (13) only involves differences phi - psi, so it is the same in
 * both frames (a rotation).  The goal is the situation's target (no target: no goal term) at centre
 * distance d_g; obstacles are points at the percepts' reference points, d_i = percept dist. */
#include <math.h>

#include "swerve/core.h"
#include "swerve/steer.h"

double sw_fw_accel(const sw_fw_params *p, const sw_situation *s, double phi, double phidot)
{
	/* Damping. */
	double acc = -p->b * phidot;

	/* Goal: stiffness grows linearly with the goal angle, with a floor c2 for distant goals. */
	if (s->has_target) {
		double dx = s->tx - s->x, dy = s->ty - s->y;
		double eg = sw_wrap_angle(phi - atan2(dy, dx));
		acc -= p->kg * eg * (exp(-p->c1 * hypot(dx, dy)) + p->c2);
	}

	/* Obstacles: ko e exp(-c3 |e|) exp(-c4 d), peaking at |e| = 1 / c3 (one exp for both). */
	for (int i = 0; i < s->n_obs; i++) {
		const sw_percept *o = &s->obs[i];
		double e = sw_wrap_angle(phi - atan2(o->dy, o->dx));
		acc += p->ko * e * exp(-p->c3 * fabs(e) - p->c4 * o->dist);
	}
	return acc;
}
