/* steer/sf.c - the social force law: Helbing & Molnar, "Social force model for pedestrian
 * dynamics", Phys. Rev. E 51, 4282 (1995), in the circular form with the body force and sliding
 * friction of Helbing, Farkas & Vicsek, "Simulating dynamical features of escape panic",
 * Nature 407, 487 (2000), their eqs. (1)-(3).
 *
 * An agent of mass m with velocity u is driven toward its desired velocity v0 e0 with relaxation
 * time tau and pushed by every percept j (another agent, a disc obstacle, a wall at its closest
 * point as a disc of radius 0):
 *     m u' = m (v0 e0 - u) / tau + sum_j f_j                                      (HFV eq. 1)
 *     f_j = [A exp((r - d) / B) + k g(r - d)] n + kappa g(r - d) (du.t) t          (HFV eq. 2)
 * with d the distance of the centres, r the sum of radii, n the unit vector from the percept to
 * the agent, t = (-n_y, n_x), du the percept's velocity minus the agent's (its tangential part
 * du.t; for static obstacles du = -u, which is HFV eq. 3) and g(z) = max(z, 0): the body force
 * k g n and the sliding friction act only while the discs overlap.  The normal part is
 * -grad_x U(|x|) with U(d) = A B exp((r - d) / B) + k g(r - d)^2 / 2.
 *
 * **Decisions.**  The social term may be weighted by the anisotropy of Helbing & Johansson
 * (Encyclopedia of Complexity and Systems Science, 2009), w = lambda + (1 - lambda)(1 + cos phi)/2
 * with phi the angle between the agent's heading and the direction to the percept; lambda = 1
 * (the default) is the isotropic 2000 law.  Percepts farther than the neighbour range (clearance)
 * are ignored (the exponential is below 1e-13 N at the default 3 m).  Obstacles are static (a
 * scripted obstacle's velocity is not perceived).  No speed cap: the 1995 paper's v_max = 1.3 v0
 * is not part of the 2000 equations. */
#include <math.h>
#include <stddef.h>

#include "steer_internal.h"

/* sw_sf_force on scalars (inlined into sw_sf_accel's loop; the public function wraps it), with
 * the distance d = sqrt(x0 x0 + x1 x1) given. */
static inline double pair_force_at(const sw_sf_params *p, double x0, double x1, double d,
				   double du0, double du1, double r, const double e[2], double f[2])
{
	f[0] = f[1] = 0.0;
	if (!(d > 0.0))
		return -r; /* coincident centres: no direction */
	double nx = x0 / d, ny = x1 / d, overlap = r - d;
	/* cos phi = e.(-n): 1 when the percept is straight ahead. */
	double w = p->lambda + (1.0 - p->lambda) * 0.5 * (1.0 - (e[0] * nx + e[1] * ny));
	double normal = w * p->a * exp(overlap / p->b);
	if (overlap > 0.0) {
		normal += p->k * overlap;
		double tx = -ny, ty = nx, slide = p->kappa * overlap * (du0 * tx + du1 * ty);
		f[0] = slide * tx;
		f[1] = slide * ty;
	}
	f[0] += normal * nx;
	f[1] += normal * ny;
	return -overlap;
}

double sw_sf_force(const sw_sf_params *p, const double x[2], const double du[2], double r,
		   const double e[2], double f[2])
{
	return pair_force_at(p, x[0], x[1], sqrt(x[0] * x[0] + x[1] * x[1]), du[0], du[1], r, e, f);
}

double sw_sf_potential(const sw_sf_params *p, const double x[2], double r)
{
	double overlap = r - sqrt(x[0] * x[0] + x[1] * x[1]);
	double body = overlap > 0.0 ? 0.5 * p->k * overlap * overlap : 0.0;
	return p->a * p->b * exp(overlap / p->b) + body;
}

/* sw_sf_accel; with dist_known, each percept's dist is taken as its distance instead of being
 * computed again (the same bits when it is sqrt(dx dx + dy dy), as perception computes it: the
 * signs of dx and dy do not change their squares). */
static inline void accel(const sw_sf_params *p, const sw_situation *s, double v, const double e[2],
			 double acc[2], int dist_known)
{
	/* Driving force (v0 e0 - u) / tau; no target (or at it): relax to rest. */
	double gx = 0.0, gy = 0.0;
	if (s->has_target) {
		double dx = s->tx - s->x, dy = s->ty - s->y, dist = sqrt(dx * dx + dy * dy);
		if (dist > 0.0) {
			gx = p->v0 * dx / dist;
			gy = p->v0 * dy / dist;
		}
	}
	double vel[2] = {v * e[0], v * e[1]};
	/* The direction of motion (for the anisotropy): backwards when the speed is negative. */
	double em[2] = {v < 0.0 ? -e[0] : e[0], v < 0.0 ? -e[1] : e[1]};
	double fx = 0.0, fy = 0.0;
	for (int i = 0; i < s->n_obs; i++) {
		const sw_percept *o = &s->obs[i];
		if (!(o->clearance <= p->range))
			continue;
		double du0 = -vel[0], du1 = -vel[1], f[2];
		if (o->id < 0 && s->agent_v) { /* agent -1 - id */
			const double *vj = s->agent_v + 2 * (size_t)(-1 - o->id);
			du0 += vj[0];
			du1 += vj[1];
		}
		double x0 = -o->dx, x1 = -o->dy;
		double d = dist_known ? o->dist : sqrt(x0 * x0 + x1 * x1);
		pair_force_at(p, x0, x1, d, du0, du1, o->rho + s->radius, em, f);
		fx += f[0];
		fy += f[1];
	}
	acc[0] = (gx - vel[0]) / p->tau + fx / p->mass;
	acc[1] = (gy - vel[1]) / p->tau + fy / p->mass;
}

void sw_sf_accel(const sw_sf_params *p, const sw_situation *s, double v, const double e[2],
		 double acc[2])
{
	accel(p, s, v, e, acc, 0);
}

void sw__sf_accel_perceived(const sw_sf_params *p, const sw_situation *s, double v,
			    const double e[2], double acc[2])
{
	accel(p, s, v, e, acc, 1);
}
