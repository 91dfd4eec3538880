/* steer/pf.c - the potential-field baseline (Khatib 1986), section 3.
 *
 *     U = 0.5 kp |p - p_goal|^2 + sum_i U_i,  U_i = 0.5 eta (1/rho_i - 1/rho0)^2 for rho_i <= rho0
 *
 * with rho_i the percept's clearance floored at r_floor.  The clearance is |p - o_i| minus radii,
 * so d rho_i / dp = (p - o_i) / |p - o_i| = -(dx, dy) / dist: moving away from the obstacle's
 * reference point increases it, and -grad U_i points away from the obstacle.
 * **Decision:** when the clearance is below r_floor (contact or overlap) the floored rho is used
 * in dU/drho but the direction is kept, so an overlapping agent is still pushed out (the
 * literal derivative of the floored potential would be zero there).  A percept at dist 0 has no
 * direction and contributes nothing; without a target the goal term is 0. */
#include <math.h>

#include "swerve/steer.h"

void sw_pf_gradient(const sw_pf_params *p, const sw_situation *s, double grad[2])
{
	double gx = 0.0, gy = 0.0;
	if (s->has_target) {
		gx = p->kp * (s->x - s->tx);
		gy = p->kp * (s->y - s->ty);
	}
	for (int i = 0; i < s->n_obs; i++) {
		const sw_percept *o = &s->obs[i];
		double rho = fmax(o->clearance, p->r_floor);
		if (!(rho <= p->rho0) || !(o->dist > 0.0))
			continue;
		/* dU_i/drho = -eta (1/rho - 1/rho0) / rho^2; drho/dp = -(dx, dy) / dist. */
		double du = -p->eta * (1.0 / rho - 1.0 / p->rho0) / (rho * rho);
		double k = -du / o->dist;
		gx += k * o->dx;
		gy += k * o->dy;
	}
	grad[0] = gx;
	grad[1] = gy;
}
