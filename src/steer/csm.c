/* steer/csm.c - the collision-free speed model of Tordeux, Chraibi & Seyfried, "Collision-free
 * speed model for pedestrian dynamics", Traffic and Granular Flow '15 (Springer 2016) 225-232,
 * arXiv:1512.05597, with walls as in the generalised model of Xu, Chraibi, Tordeux & Zhang,
 * "Generalized collision-free velocity model for pedestrian dynamics", Physica A 535 (2019),
 * arXiv:1908.10304.
 *
 * A first-order law: the agent's velocity is a speed times a direction,
 *     x' = V(s) e,    V(s) = min(v0, max(0, s / T))                             (speed model)
 *     e  = u(e0 + sum_j a exp(-s_j / D) n_j + sum_w a_w exp(-s_w / D_w) n_w)   (direction model)
 * with u(z) = z / |z|, e0 the goal direction, n_j the unit vector from percept j to the agent and
 * s_j its clearance (the surface-to-surface gap: the publication's centre distance less the
 * agent length, which for discs of different sizes is the sum of their radii).  The spacing s is
 * the smallest gap to a body ahead on the agent's course: j counts when it lies in front
 * (e.(x_j - x) > 0) and within the swept strip (|e_perp.(x_j - x)| < r + r_j), i.e. it would be
 * hit if the agent went straight on.  Agents and disc obstacles are bodies (parameters a, D);
 * walls (seen at their closest point) bend the direction with a_w, D_w but are not in the
 * spacing, as in the publications.
 *
 * **Decisions** (swerve's, docs/models.md section 9): the spacing is taken along the direction e
 * the model computes (the publications' e_i of the same instant); with nothing around and no
 * target the agent stands; when the direction sum vanishes the agent keeps its heading.  Walls
 * are hard as for the time-to-collision law (t_contact: the position closes on a static obstacle
 * at most at clearance / t_contact).  With t_arrive > 0 the speed is also capped by
 * dist(T) / t_arrive (slowing down to the goal).  Percepts with a clearance beyond `range` are
 * ignored (exp(-range / D) is below 1e-8 at the defaults). */
#include <math.h>

#include "swerve/steer.h"

double sw_csm_speed(const sw_csm_params *p, double spacing)
{
	double v = spacing / p->time_gap;
	if (!(v > 0.0))
		return 0.0;
	return v < p->v0 ? v : p->v0;
}

int sw_csm_direction(const sw_csm_params *p, const sw_situation *s, double phi, double e[2])
{
	double zx = 0.0, zy = 0.0;
	if (s->has_target) {
		double dx = s->tx - s->x, dy = s->ty - s->y, dist = sqrt(dx * dx + dy * dy);
		if (dist > 0.0) {
			zx = dx / dist;
			zy = dy / dist;
		}
	}
	int any = zx != 0.0 || zy != 0.0;
	for (int i = 0; i < s->n_obs; i++) {
		const sw_percept *o = &s->obs[i];
		if (!(o->clearance <= p->range) || !(o->dist > 0.0))
			continue;
		/* A wall percept: a segment primitive seen at its closest point (rho 0, id >= 0). */
		int wall = o->id >= 0 && o->rho == 0.0;
		double r = wall ? p->a_wall * exp(-o->clearance / p->d_wall)
				: p->a * exp(-o->clearance / p->d);
		zx -= r * o->dx / o->dist;
		zy -= r * o->dy / o->dist;
		any = 1;
	}
	double len = sqrt(zx * zx + zy * zy);
	if (!any || !(len > 0.0)) {
		e[0] = cos(phi);
		e[1] = sin(phi);
		return 0;
	}
	e[0] = zx / len;
	e[1] = zy / len;
	return 1;
}

double sw_csm_spacing(const sw_csm_params *p, const sw_situation *s, const double e[2])
{
	double best = INFINITY;
	for (int i = 0; i < s->n_obs; i++) {
		const sw_percept *o = &s->obs[i];
		if (!(o->clearance <= p->range) || (o->id >= 0 && o->rho == 0.0))
			continue; /* far, or a wall */
		double ahead = o->dx * e[0] + o->dy * e[1];
		double side = o->dx * e[1] - o->dy * e[0];
		if (ahead > 0.0 && fabs(side) < o->rho + s->radius && o->clearance < best)
			best = o->clearance;
	}
	return best;
}

double sw_csm_velocity(const sw_csm_params *p, const sw_situation *s, double phi, double u[2])
{
	double e[2];
	int moving = sw_csm_direction(p, s, phi, e);
	double v = moving ? sw_csm_speed(p, sw_csm_spacing(p, s, e)) : 0.0;
	if (v > 0.0 && p->t_arrive > 0.0 && s->has_target) {
		double dx = s->tx - s->x, dy = s->ty - s->y;
		double cap = sqrt(dx * dx + dy * dy) / p->t_arrive;
		if (cap < v)
			v = cap;
	}
	u[0] = v * e[0];
	u[1] = v * e[1];
	return atan2(e[1], e[0]);
}
