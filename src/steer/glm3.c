/* steer/glm3.c - the GLM law for a 3-D heading (docs/models.md section 1.5).
 *
 * The heading is a unit vector u.  Every attractor or repeller acts in the plane spanned by u and
 * the direction d to its object: theta = angle(u, d) in [0, pi] comes from the dot and cross
 * products (cos theta = u.d / |d|, sin theta = |u x d| / |d|), the scalar contribution is the 2-D
 * formula at the heading error e = -theta (in the plane oriented by n = (u x d) / |u x d|, d lies
 * at angle +theta from u, and e = phi - psi), and it becomes the angular-velocity vector f n: a
 * positive f turns u toward d, since (n x u) points from u toward d.  The 2-D terms are odd in e
 * (eq. (2) and R of eq. (4) odd, W of (5) and D of (7) even), so in the plane z = 0 the vertical
 * component f(-theta) n_z equals the 2-D f(e) and the law reduces to the 2-D one (tested).
 *
 * Where the plane is undefined (u parallel to d, |u x d| = 0): straight ahead every term vanishes
 * (f(0) = 0); exactly behind, the 2-D law evaluates e = +pi (a left turn), and the 3-D law uses
 * the vertical plane through u oriented so that it makes the same choice (plane_of()).
 *
 * The repellers go through the vectorised 2-D loop (glm_simd.c, 4 or 8 percepts per AVX2 or
 * AVX-512 vector with SLEEF) when the CPU has it and there are 3 or more percepts: each percept
 * is handed over as the 2-D percept at heading error -theta, and the loop returns every f_i
 * besides the sums (repellers_simd).  Otherwise, and for the attractors, the per-term scalars
 * come from the public building blocks (sw_glm_dpsi, sw_glm_repeller: the literal formulas
 * (4)-(7)).  Both agree with a literal construction written in tests/test_space3.c to 1e-9 (a
 * 3-D flock perceives about 80 neighbours each, so the loop halves its step time). */
#include <math.h>
#include <string.h>

#include "steer_internal.h"

/* The plane of u and d: cos and sin of theta, and the unit normal n (zero when undefined). */
typedef struct {
	double cos_t, sin_t, n[3]; /* theta = atan2(sin_t, cos_t) */
	int behind;                /* exactly behind: the tie plane of the header comment */
} plane3;

static void plane_of(const double u[3], double dx, double dy, double dz, plane3 *pl)
{
	double r = sqrt(dx * dx + dy * dy + dz * dz);
	double cx = u[1] * dz - u[2] * dy, cy = u[2] * dx - u[0] * dz, cz = u[0] * dy - u[1] * dx;
	double cn = sqrt(cx * cx + cy * cy + cz * cz);
	pl->n[0] = pl->n[1] = pl->n[2] = 0.0;
	pl->behind = 0;
	if (r > 0.0) {
		double inv = 1.0 / r;
		pl->cos_t = (u[0] * dx + u[1] * dy + u[2] * dz) * inv;
		pl->sin_t = cn * inv;
	} else { /* a zero vector: psi = atan2(0, 0) = 0 in 2-D, here "straight ahead" */
		pl->cos_t = 1.0;
		pl->sin_t = 0.0;
	}
	if (cn > 0.0) {
		pl->n[0] = cx / cn;
		pl->n[1] = cy / cn;
		pl->n[2] = cz / cn;
	} else if (pl->cos_t < 0.0) {
		pl->behind = 1;
		/* Exactly behind: the 2-D law takes e = +pi (its terms are not odd there: the
		 * tie is broken toward a left turn); the plane is the vertical one through u with
		 * n = -(z - (z.u) u) / |.|, which makes the same choice in a horizontal plane
		 * (u vertical: n = -x). */
		double vx = -u[2] * u[0], vy = -u[2] * u[1], vz = 1.0 - u[2] * u[2];
		double vn = sqrt(vx * vx + vy * vy + vz * vz);
		if (vn > 0.0) {
			pl->n[0] = -vx / vn;
			pl->n[1] = -vy / vn;
			pl->n[2] = -vz / vn;
		} else {
			pl->n[0] = -1.0;
		}
	}
}

static void add_turn(double acc[3], double f, const double n[3])
{
	acc[0] += f * n[0];
	acc[1] += f * n[1];
	acc[2] += f * n[2];
}

static double norm3(const double v[3])
{
	return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

/* An attractor -k sin(e) toward (dx, dy, dz), eq. (2) in its plane: f = k sin(theta), df/de =
 * -k cos(theta).  A zero vector adds nothing (as in 2-D). */
static void attractor(double k, const double u[3], double dx, double dy, double dz,
		      sw_glm3_terms *t)
{
	if (k == 0.0 || (dx == 0.0 && dy == 0.0 && dz == 0.0))
		return;
	plane3 pl;
	plane_of(u, dx, dy, dz, &pl);
	add_turn(t->omega_tar, k * pl.sin_t, pl.n);
	t->df_tar += -k * pl.cos_t;
}

/* Percepts handed to the vectorised 2-D loop per chunk. */
#define SW_GLM3_CHUNK 64

/* The repellers through the vectorised 2-D loop (glm_simd.c), when it is available and there are
 * enough percepts: each percept becomes the 2-D percept seen at the heading error e = -theta
 * (direction (cos theta, sin theta) from a heading along +x, with its distance, radius and
 * clearance), the loop returns each f_i with the sums, and f_i turns about n_i.  Exactly behind
 * the loop takes e = +pi where this law takes -pi (header comment); f is odd in e and df even,
 * so f_i changes sign there.  Returns 0 when the scalar loop must run. */
static int repellers_simd(const sw_glm_params *p, const sw_situation3 *s, const double u[3],
			  sw_glm3_terms *t, double *r_min, int *found)
{
#ifdef SW_HAVE_SLEEF
	if (s->n_obs < 3)
		return 0;
	sw_percept p2[SW_GLM3_CHUNK];
	plane3 pl[SW_GLM3_CHUNK];
	double each[SW_GLM3_CHUNK];
	sw_situation s2 = {0};
	sw__glm_obs_sums sums;
	if (!sw__glm_obstacles_simd_each(p, &s2, 0.0, 1.0, &sums, NULL))
		return 0; /* no AVX2 and FMA on this CPU */
	for (int c0 = 0; c0 < s->n_obs; c0 += SW_GLM3_CHUNK) {
		int m = s->n_obs - c0 < SW_GLM3_CHUNK ? s->n_obs - c0 : SW_GLM3_CHUNK;
		for (int k = 0; k < m; k++) {
			const sw_percept3 *o = &s->obs[c0 + k];
			plane_of(u, o->dx, o->dy, o->dz, &pl[k]);
			p2[k] = (sw_percept){pl[k].cos_t, pl[k].sin_t, o->dist, o->rho, o->clearance,
					     o->id, 0.0, 0.0};
		}
		s2.radius = s->radius;
		s2.n_obs = m;
		s2.obs = p2;
		sw__glm_obstacles_simd_each(p, &s2, 0.0, 1.0, &sums, each);
		for (int k = 0; k < m; k++)
			add_turn(t->omega_obs, pl[k].behind ? -each[k] : each[k], pl[k].n);
		t->df_obs += sums.df_obs;
		t->sum_d += sums.sum_d;
		t->sum_w += sums.sum_w;
		if (sums.found && (!*found || sums.r_min < *r_min)) {
			*r_min = sums.r_min;
			*found = 1;
		}
	}
	return 1;
#else
	(void)p;
	(void)s;
	(void)u;
	(void)t;
	(void)r_min;
	(void)found;
	return 0;
#endif
}

void sw_glm3_eval(const sw_glm_params *p, const sw_situation3 *s, const double u[3], double w_tar,
		  double w_obs, sw_glm3_terms *out)
{
	sw_glm3_terms t;
	memset(&t, 0, sizeof t);

	/* Target attractor, eq. (2). */
	if (s->has_target)
		attractor(p->a, u, s->tx - s->x, s->ty - s->y, s->tz - s->z, &t);

	/* Flocking attractors (as glm.c): toward the centroid of the perceived agents and along
	 * the sum of their headings. */
	if (p->cohesion != 0.0 || p->alignment != 0.0) {
		double c[3] = {0.0, 0.0, 0.0}, h[3] = {0.0, 0.0, 0.0};
		int n = 0;
		for (int i = 0; i < s->n_obs; i++) {
			const sw_percept3 *o = &s->obs[i];
			if (o->id >= 0)
				continue;
			c[0] += o->dx;
			c[1] += o->dy;
			c[2] += o->dz;
			h[0] += o->hx;
			h[1] += o->hy;
			h[2] += o->hz;
			n++;
		}
		if (n > 0) {
			attractor(p->cohesion, u, c[0], c[1], c[2], &t);
			attractor(p->alignment, u, h[0], h[1], h[2], &t);
		}
	}

	/* Repellers, eqs. (3)-(7), each in its plane; eq. (12) reads the closest clearance in
	 * front (theta < pi/2). */
	double r_min = INFINITY;
	int found = 0;
	if (!repellers_simd(p, s, u, &t, &r_min, &found)) {
		double margin = p->margin < 0.0 ? p->d1 : p->margin;
		for (int i = 0; i < s->n_obs; i++) {
			const sw_percept3 *o = &s->obs[i];
			plane3 pl;
			plane_of(u, o->dx, o->dy, o->dz, &pl);
			double dpsi = sw_glm_dpsi(o->rho, s->radius, margin, o->dist);
			double r = fmax(o->clearance, p->r_floor);
			double df, w, d;
			double f = sw_glm_repeller(-atan2(pl.sin_t, pl.cos_t), dpsi, r, p->delta,
						   p->d0, &df, &w, &d);
			add_turn(t.omega_obs, f, pl.n);
			t.df_obs += df;
			t.sum_d += d;
			t.sum_w += w;
			if (pl.cos_t > 0.0 && (!found || o->clearance < r_min)) {
				r_min = o->clearance;
				found = 1;
			}
		}
	}

	/* Competition (9)-(10) on the magnitudes of the summed turns. */
	t.f_tar = norm3(t.omega_tar);
	t.f_obs = norm3(t.omega_obs);
	sw_glm_competition(p, t.f_tar, t.df_tar, t.f_obs, t.df_obs, t.sum_d, t.sum_w, &t.a1, &t.a2,
			   &t.g12, &t.g21);
	for (int k = 0; k < 3; k++)
		t.omega[k] = fabs(w_tar) * t.omega_tar[k] + fabs(w_obs) * t.omega_obs[k];

	/* Speed, eq. (12) or the contact distance (glm.c), and the arrival cap at the 3-D distance
	 * (section 1.3). */
	double v = p->v_max;
	if (p->speed == SW_SPEED_T2C && found)
		v = fmin(fmax((r_min - p->d1) / p->t2c, -p->v_max), p->v_max);
	if (p->speed == SW_SPEED_CONTACT) {
		double margin = p->margin < 0.0 ? p->d1 : p->margin, best = INFINITY;
		for (int i = 0; i < s->n_obs; i++) {
			const sw_percept3 *o = &s->obs[i];
			double along = u[0] * o->dx + u[1] * o->dy + u[2] * o->dz;
			double lat2 = o->dist * o->dist - along * along;
			double rg = o->rho + s->radius + margin;
			if (along > 0.0 && lat2 < rg * rg)
				best = fmin(best, along - sqrt(rg * rg - fmax(lat2, 0.0)));
		}
		v = fmin(fmax(best / p->t2c, -p->v_max), p->v_max);
	}
	if (p->arrive && s->has_target) {
		double d[3] = {s->tx - s->x, s->ty - s->y, s->tz - s->z};
		v = fmin(v, norm3(d) / p->t2c);
	}
	t.v_cmd = v;
	*out = t;
}
