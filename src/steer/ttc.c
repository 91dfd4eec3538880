/* steer/ttc.c - the anticipatory time-to-collision law of Karamouzas, Skinner & Guy, "Universal
 * power law governing pedestrian interactions", Phys. Rev. Lett. 113, 238701 (2014).
 *
 * Two discs with relative position x (the agent's centre minus the other's), relative velocity v
 * and sum of radii r collide, if both keep their velocities, at the smallest t >= 0 with
 * |x + v t| = r, i.e. a t^2 - 2 b t + c = 0 with a = v.v, b = -x.v, c = x.x - r^2:
 *     tau = (b - sqrt(d)) / a = c / (b + sqrt(d)),   d = b^2 - a c.
 * With c > 0 both roots have the sign of b, so there is a collision ahead only when b > 0 and
 * d > 0; the second form has no cancellation there.  The interaction energy (per unit mass) is
 *     E(tau) = k tau^-2 exp(-tau / tau0)                                         (paper eq. 2)
 * and the force on the agent is F = -grad_x E = -E'(tau) grad_x tau.  Differentiating
 * a tau^2 - 2 b tau + c = 0 in x (grad b = -v, grad c = 2 x) gives
 *     (a tau - b) grad tau = -(x + tau v),   a tau - b = -sqrt(d),
 * so grad tau = (x + tau v) / sqrt(d) and, with -E'(tau) = k exp(-tau/tau0) tau^-2 (2/tau + 1/tau0),
 *     F = k exp(-tau/tau0) tau^-2 (2/tau + 1/tau0) (x + tau v) / sqrt(d),
 * the paper's closed form (its bracket v - (v^2 x - (x.v) v) / sqrt(d) equals -a (x + tau v) /
 * sqrt(d)).  x + tau v is the relative position at contact, of length r: F pushes the agent away
 * from where the contact would happen, and |F| = -E'(tau) r / sqrt(d).
 *
 * **Decisions** (not in the paper, as in its authors' and others' implementations): each
 * pair's force is capped at f_max (F grows as tau^-3 when tau -> 0); discs already overlapping
 * (c < 0, or touching and approaching: tau = 0) are pushed apart along x with magnitude f_max.
 * Obstacles go through the same law as static discs: a disc primitive with its radius, a wall
 * at its closest point as a disc of radius 0 (the closest point is taken as fixed for the
 * gradient).  Percepts farther than the neighbour range (clearance) are ignored. */
#include <math.h>
#include <stddef.h>

#include "steer_internal.h"

/* The pair force of the file comment on f (x the relative position, v the relative velocity, r
 * the sum of radii); returns tau.  One pass: tau from the roots (d, sqrt(d)) the force then
 * reuses, the same operations in the same order as computing tau first and the force from it. */
static inline double pair_force(const sw_ttc_params *p, double x0, double x1, double v0, double v1,
				double r, double f[2])
{
	f[0] = f[1] = 0.0;
	double c = x0 * x0 + x1 * x1 - r * r, tau = 0.0, sd = 0.0;
	if (!(c < 0.0)) {
		double a = v0 * v0 + v1 * v1, b = -(x0 * v0 + x1 * v1);
		if (!(a > 0.0) || !(b > 0.0))
			return INFINITY;
		double d = b * b - a * c;
		if (!(d > 0.0))
			return INFINITY;
		sd = sqrt(d);
		tau = c / (b + sd);
		if (tau == INFINITY)
			return tau;
	}
	if (tau == 0.0) { /* overlap: straight apart (no direction at coincident centres) */
		double len = sqrt(x0 * x0 + x1 * x1);
		if (len > 0.0) {
			f[0] = p->f_max * x0 / len;
			f[1] = p->f_max * x1 / len;
		}
		return tau;
	}
	/* -E'(tau) / sqrt(d): the factor of (x + tau v). */
	double g = p->k * exp(-tau / p->tau0) / (tau * tau) * (2.0 / tau + 1.0 / p->tau0) / sd;
	double nx = x0 + tau * v0, ny = x1 + tau * v1;
	double mag = g * sqrt(nx * nx + ny * ny);
	if (mag > p->f_max)
		g *= p->f_max / mag;
	f[0] = g * nx;
	f[1] = g * ny;
	return tau;
}

double sw_ttc_tau(const double x[2], const double v[2], double r)
{
	double c = x[0] * x[0] + x[1] * x[1] - r * r;
	if (c < 0.0)
		return 0.0;
	double a = v[0] * v[0] + v[1] * v[1];
	double b = -(x[0] * v[0] + x[1] * v[1]);
	if (!(a > 0.0) || !(b > 0.0))
		return INFINITY;
	double d = b * b - a * c;
	if (!(d > 0.0))
		return INFINITY;
	return c / (b + sqrt(d));
}

double sw_ttc_energy(const sw_ttc_params *p, double tau)
{
	if (tau == INFINITY)
		return 0.0;
	return p->k / (tau * tau) * exp(-tau / p->tau0);
}

double sw_ttc_force(const sw_ttc_params *p, const double x[2], const double v[2], double r,
		    double f[2])
{
	return pair_force(p, x[0], x[1], v[0], v[1], r, f);
}

/* (x, y) turned by the angle b.  Not inlined: in sw_ttc_accel GCC 12's SLP vectorizer takes
 * the two components for a complex product and, on a machine with FMA (-march=native), fuses
 * them into one vfmaddsub despite -ffp-contract=off, so such a build's trajectories differed
 * from the default build's wherever a bias turns the goal (the imported pedestrians' passing
 * and detour modes). */
static __attribute__((noinline)) void turn_by(double b, double *x, double *y)
{
	double sb = sin(b), cb = cos(b), rx = cb * *x - sb * *y;
	*y = sb * *x + cb * *y;
	*x = rx;
}

void sw_ttc_accel(const sw_ttc_params *p, const sw_situation *s, const double vel[2],
		  double acc[2])
{
	/* Goal force (v_pref e_goal - u) / xi; no target (or at it): relax to rest. */
	double gx = 0.0, gy = 0.0;
	if (s->has_target) {
		double dx = s->tx - s->x, dy = s->ty - s->y, dist = sqrt(dx * dx + dy * dy);
		if (dist > 0.0) {
			double vp = p->v_pref;
			if (p->t_arrive > 0.0 && dist < vp * p->t_arrive)
				vp = dist / p->t_arrive;
			double ex = dx / dist, ey = dy / dist;
			if (p->bias != 0.0)
				turn_by(p->bias, &ex, &ey);
			gx = vp * ex;
			gy = vp * ey;
		}
	}
	double ax = (gx - vel[0]) / p->xi, ay = (gy - vel[1]) / p->xi;
	for (int i = 0; i < s->n_obs; i++) {
		const sw_percept *o = &s->obs[i];
		if (!(o->clearance <= p->range))
			continue;
		double v0 = vel[0], v1 = vel[1], f[2];
		if (o->id < 0 && s->agent_v) { /* agent -1 - id */
			const double *vj = s->agent_v + 2 * (size_t)(-1 - o->id);
			v0 -= vj[0];
			v1 -= vj[1];
		}
		pair_force(p, -o->dx, -o->dy, v0, v1, o->rho + s->radius, f);
		ax += f[0];
		ay += f[1];

	}
	acc[0] = ax;
	acc[1] = ay;
}

void sw__hard_walls_some(double t_contact, double range, const sw_situation *s, const double u[2],
			 double out[2])
{
	out[0] = u[0];
	out[1] = u[1];
	/* Two passes: at a corner the second wall's cut may undo part of the first's.  The second
	 * is skipped when the first met no obstacle within range (a crowd away from walls): it
	 * would meet none either. */
	int met = 0;
	for (int pass = 0; pass < 2 && (pass == 0 || met); pass++)
		for (int i = 0; i < s->n_obs; i++) {
			const sw_percept *o = &s->obs[i];
			if (o->id < 0 || !(o->dist > 0.0) || !(o->clearance <= range))
				continue;
			met = 1;
			double nx = o->dx / o->dist, ny = o->dy / o->dist;
			double cap = fmax(o->clearance, 0.0) / t_contact;
			double excess = out[0] * nx + out[1] * ny - cap;
			if (excess > 0.0) {
				out[0] -= excess * nx;
				out[1] -= excess * ny;
			}
		}
}

void sw_ttc_wall_velocity(const sw_ttc_params *p, const sw_situation *s, const double u[2],
			  double out[2])
{
	sw__hard_walls(p->t_contact, p->range, s, u, out);
}
