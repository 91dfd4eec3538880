/* steer/glm.c - the GLM heading law: attractor, repellers, speed and courage, eqs. (1)-(12).
 *
 * Method.  For every percept i the law needs e_i = wrap(phi - psi_i) with psi_i = atan2(dy, dx),
 * the half-width dpsi_i, the window bound c_i = min(2 dpsi_i + delta, pi) and the three factors
 * R, W, D of eqs. (4)-(7) with the derivative of their product in phi.  Written literally this is
 * atan2, a wrap, asin, cos(e), sin(e), cos(2 dpsi), cos(c), tanh and two exp per percept.  The
 * evaluation below computes the same quantities with fewer transcendental calls, by identities
 * that are exact in real arithmetic (so results agree with the literal formula to rounding,
 * ~1e-15 relative; tests/test_steer.c checks 1e-12 against a literal transcription):
 *
 *   - sin e and cos e come from the cross and dot products of the heading (cos phi, sin phi),
 *     computed once per evaluation, with the unit vector (dx, dy) / |(dx, dy)|:
 *         cos e = (cos phi dx + sin phi dy) / r,     sin e = (sin phi dx - cos phi dy) / r,
 *     and e itself is atan2(sin e, cos e), which already lies in (-pi, pi] (a -0 sine is turned
 *     into +0 so that e = pi, not -pi, behind the agent): one atan2 replaces atan2, wrap, sin, cos.
 *   - With q = sin dpsi = (rho_i + rho_a + m) / dist_i (clamped to [q_min, 1]), dpsi = asin(q)
 *     is still needed for R, but cos(2 dpsi) = 1 - 2 q^2 and sin(2 dpsi) = 2 q sqrt(1 - q^2), so
 *     cos(c) = cos(2 dpsi) cos(delta) - sin(2 dpsi) sin(delta) (when c < pi, else -1), with
 *     cos(delta) and sin(delta) computed once per evaluation.
 *   - The window (5) is a logistic function: 0.5 (tanh(x) + 1) = 1 / (1 + exp(-2 x)), whose
 *     derivative is 2 W (1 - W) with 1 - W = exp(-2 x) W.  This form costs one exp and, unlike
 *     1 + tanh(x), keeps full relative accuracy in the tail where W is tiny.
 *   - R = (e / dpsi) exp(1 - |e| / dpsi) has the derivative
 *         dR/de = (1 / dpsi) exp(1 - |e| / dpsi) (1 - |e| / dpsi)
 *     for every e, including e = 0 where it is e^1 / dpsi (the |e| only makes the second
 *     derivative jump); dW/de = 0.5 (1 - tanh^2) h1 (-sin e); D does not depend on phi, and
 *     de/dphi = 1.
 *
 * That leaves atan2, asin and three exp per percept (D, R, W); the last is skipped inside the
 * window, where W rounds to 1 (SW_GLM_W_SAT).  The target term takes sin(phi - psi_T) and
 * cos(phi - psi_T) from the same products.  Measured at -O2: about 45 ns per percept plus 50 ns
 * per evaluation, against about 65 ns per percept for the literal transcription.
 *
 * Built with SLEEF (-DSW_HAVE_SLEEF) and run on a CPU with AVX2 and FMA, sw_glm_eval() hands
 * situations with SW_GLM_SIMD_MIN or more obstacles to the same loop vectorised over 4 obstacles
 * (8 with AVX-512; glm_simd.c), and sw_glm_eval_batch() hands several agents' situations to it
 * at once; sw__glm_obstacles_scalar() below remains the reference the fast path is tested against
 * (tests/test_steer_simd.c).
 *
 * When c_i = pi and dpsi_i = pi/2 (the agent touches or overlaps the obstacle) the denominator of
 * h1 in (6) vanishes; the window is then the step it tends to: W = 1 where cos e > cos c, 0.5 on
 * the boundary, dW = 0.
 *
 * **Decision (dpsi floor):** dpsi is floored at asin(SW_GLM_Q_MIN) ~ 1e-6 rad so that a point
 * obstacle seen by a point agent with no margin (zero numerator) does not divide by zero in (4).
 * A percept with dist <= 0 has q = 1 (dpsi = pi/2) and psi = atan2(0, 0) = 0, as the C formula. */
#include <math.h>

#include "steer_internal.h"

/* The scalar and vector loops must round alike, so no a * b + c may be contracted into an FMA:
 * GCC's ISO C modes (-std=c11) default to -ffp-contract=off; clang needs the standard pragma. */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

/* Fewest obstacles for which the vectorised loop (glm_simd.c) is faster than the scalar one: a
 * lone block of 4 is latency-bound (about 110 ns against 45 ns per scalar obstacle). */
#define SW_GLM_SIMD_MIN 3

double sw_glm_target(double a, double phi, double psi_t, double *dfdphi)
{
	/* Eq. (2); sin is periodic, so phi need not be wrapped. */
	double d = phi - psi_t;
	if (dfdphi)
		*dfdphi = -a * cos(d);
	return -a * sin(d);
}

/* q = sin(dpsi) of the dpsi decision (section 1.1), clamped to [SW_GLM_Q_MIN, 1]. */
static double dpsi_sine(double rho, double rho_a, double margin, double dist)
{
	double q = (rho + rho_a + margin) / dist;
	if (!(q < 1.0)) /* also dist == 0 and NaN from 0 / 0 */
		return 1.0;
	return q > SW_GLM_Q_MIN ? q : SW_GLM_Q_MIN;
}

double sw_glm_dpsi(double rho, double rho_a, double margin, double dist)
{
	return asin(dpsi_sine(rho, rho_a, margin, dist));
}

/* R W D of eqs. (3)-(7) and its derivative in phi, from e, sin e, cos e, dpsi, cos(2 dpsi),
 * cos(c) and D.  Shared by the public building block and by the evaluation loop. */
static double repeller_core(double e, double sin_e, double cos_e, double dpsi, double cos2,
			    double cosc, double dval, double *dfdphi, double *wval)
{
	/* Eq. (4) and its derivative (continuous at e = 0, where it is e^1 / dpsi). */
	double inv = 1.0 / dpsi;
	double ae = fabs(e) * inv;
	double ex = exp(1.0 - ae);
	double r = e * inv * ex;
	double dr = inv * ex * (1.0 - ae);

	/* Eqs. (5)-(6) as a logistic function; a step when h1 is infinite. */
	double w, dw;
	double h1 = 4.0 / (cos2 - cosc);
	if (isfinite(h1) && h1 > 0.0) {
		double x = h1 * (cos_e - cosc);
		if (x > SW_GLM_W_SAT) {
			w = 1.0; /* 1 / (1 + exp(-2 x)) rounds to 1 */
			dw = 0.0;
		} else {
			double big = exp(-2.0 * x);
			w = 1.0 / (1.0 + big);
			double one_minus_w = isinf(big) ? 1.0 : big * w;
			dw = -2.0 * h1 * w * one_minus_w * sin_e;
		}
	} else {
		w = cos_e > cosc ? 1.0 : (cos_e == cosc ? 0.5 : 0.0);
		dw = 0.0;
	}

	if (dfdphi)
		*dfdphi = dval * (dr * w + r * dw);
	if (wval)
		*wval = w;
	return r * w * dval;
}

double sw_glm_repeller(double e, double dpsi, double r, double delta, double d0, double *dfdphi,
		       double *w, double *d)
{
	/* The literal route: dpsi clamped to [asin(q_min), pi/2] as sw_glm_dpsi() produces it. */
	double lo = asin(SW_GLM_Q_MIN);
	dpsi = dpsi > lo ? (dpsi < SW_PI_2 ? dpsi : SW_PI_2) : lo;
	double c = fmin(2.0 * dpsi + delta, SW_PI);
	double dval = exp(-r / d0); /* eq. (7) */
	if (d)
		*d = dval;
	return repeller_core(e, sin(e), cos(e), dpsi, cos(2.0 * dpsi), cos(c), dval, dfdphi, w);
}

/* Sine and cosine of e = phi - psi for psi = atan2(dy, dx), from the heading's sine and cosine;
 * a zero vector gives psi = atan2(0, 0) = 0 as in the formula. */
static void rel_dir(double sphi, double cphi, double dx, double dy, double *se, double *ce)
{
	double r = sqrt(dx * dx + dy * dy);
	if (r > 0.0) {
		double inv = 1.0 / r;
		*ce = (cphi * dx + sphi * dy) * inv;
		*se = (sphi * dx - cphi * dy) * inv;
	} else {
		*ce = cphi;
		*se = sphi;
	}
}

/* Flocking attractors (docs/models.md section 6, flocking: cohesion toward the local centre,
 * alignment with the local mean heading), each of the form of eq. (2), -k sin(phi - psi), over
 * the perceived agents (percepts with id < 0): psi_c is the direction of their centroid, psi_h the
 * direction of the sum of their heading unit vectors.  They are attractors, so they join the
 * target term and share its weight w_tar in (1); an empty neighbourhood (or a zero sum) adds
 * nothing. */
static void flock_terms(const sw_glm_params *p, const sw_situation *s, double sphi, double cphi,
			double *f, double *df)
{
	double cx = 0.0, cy = 0.0, hx = 0.0, hy = 0.0;
	int n = 0;
	for (int i = 0; i < s->n_obs; i++) {
		const sw_percept *o = &s->obs[i];
		if (o->id >= 0)
			continue;
		cx += o->dx;
		cy += o->dy;
		hx += o->hx;
		hy += o->hy;
		n++;
	}
	if (n == 0)
		return;
	double se, ce;
	if (p->cohesion != 0.0 && (cx != 0.0 || cy != 0.0)) {
		rel_dir(sphi, cphi, cx, cy, &se, &ce);
		*f += -p->cohesion * se;
		*df += -p->cohesion * ce;
	}
	if (p->alignment != 0.0 && (hx != 0.0 || hy != 0.0)) {
		rel_dir(sphi, cphi, hx, hy, &se, &ce);
		*f += -p->alignment * se;
		*df += -p->alignment * ce;
	}
}

/* The distance the agent can walk along its heading (sine sphi, cosine cphi) before its disc,
 * grown by the margin, touches a percept's disc (rho): along - sqrt(rho_g^2 - lateral^2) for a
 * percept in front whose lateral offset from the heading line is below the grown radius rho_g;
 * negative inside the grown disc (the agent backs off).  INFINITY when nothing is on the course.
 * A wall counts by its percept (its closest point, or its midpoint disc when far, section 5). */
static double contact_distance(const sw_glm_params *p, const sw_situation *s, double sphi,
			       double cphi)
{
	double margin = p->margin < 0.0 ? p->d1 : p->margin, best = INFINITY;
	for (int i = 0; i < s->n_obs; i++) {
		const sw_percept *o = &s->obs[i];
		double along = cphi * o->dx + sphi * o->dy, lat = sphi * o->dx - cphi * o->dy;
		double rg = o->rho + s->radius + margin;
		if (along > 0.0 && fabs(lat) < rg)
			best = fmin(best, along - sqrt(rg * rg - lat * lat));
	}
	return best;
}

/* Speed from the smallest clearance in front (found == 0: none in front), eq. (12), or from the
 * contact distance, or v_max; then the arrival cap (applied to every speed law). */
static double speed_law(const sw_glm_params *p, const sw_situation *s, double sphi, double cphi,
			int found, double r_min)
{
	double v = p->v_max;
	if (p->speed == SW_SPEED_T2C && found)
		v = (r_min - p->d1) / p->t2c;
	else if (p->speed == SW_SPEED_CONTACT)
		v = contact_distance(p, s, sphi, cphi) / p->t2c;
	v = fmin(fmax(v, -p->v_max), p->v_max);
	if (p->arrive && s->has_target)
		v = fmin(v, hypot(s->tx - s->x, s->ty - s->y) / p->t2c);
	return v;
}

double sw__glm_speed(const sw_glm_params *p, const sw_situation *s, double phi)
{
	double sphi = sin(phi), cphi = cos(phi);
	double r_min = INFINITY;
	int found = 0;
	for (int i = 0; i < s->n_obs; i++) {
		const sw_percept *o = &s->obs[i];
		double se, ce;
		rel_dir(sphi, cphi, o->dx, o->dy, &se, &ce);
		if (ce > 0.0 && (!found || o->clearance < r_min)) { /* |e_i| < pi/2 */
			r_min = o->clearance;
			found = 1;
		}
	}
	return speed_law(p, s, sphi, cphi, found, r_min);
}

void sw__glm_delta_cs(double delta, double cs[2])
{
	static _Thread_local double last = NAN, c, s;
	if (!(delta == last && signbit(delta) == signbit(last))) {
		c = cos(delta);
		s = sin(delta);
		last = delta;
	}
	cs[0] = c;
	cs[1] = s;
}

void sw__glm_obstacles_scalar(const sw_glm_params *p, const sw_situation *s, double sphi,
			      double cphi, sw__glm_obs_sums *out)
{
	/* Obstacle repellers, eqs. (3)-(7), by the identities of the header comment. */
	double dcs[2];
	sw__glm_delta_cs(p->delta, dcs);
	double sdel = dcs[1], cdel = dcs[0];
	double margin = p->margin < 0.0 ? p->d1 : p->margin;
	sw__glm_obs_sums t = {0.0, 0.0, 0.0, 0.0, INFINITY, 0};
	for (int i = 0; i < s->n_obs; i++) {
		const sw_percept *o = &s->obs[i];
		double se, ce;
		rel_dir(sphi, cphi, o->dx, o->dy, &se, &ce);
		double e = atan2(se + 0.0, ce); /* wrap(phi - psi_i) in (-pi, pi] */

		double q = dpsi_sine(o->rho, s->radius, margin, o->dist);
		double dpsi = asin(q);
		double cos2 = 1.0 - 2.0 * q * q;
		double cosc = -1.0; /* c = pi */
		if (2.0 * dpsi + p->delta < SW_PI)
			cosc = cos2 * cdel - 2.0 * q * sqrt(1.0 - q * q) * sdel;

		double r = fmax(o->clearance, p->r_floor);
		double dval = exp(-r / p->d0);
		double df, w;
		t.f_obs += repeller_core(e, se, ce, dpsi, cos2, cosc, dval, &df, &w);
		t.df_obs += df;
		t.sum_d += dval;
		t.sum_w += w;

		if (ce > 0.0 && (!t.found || o->clearance < t.r_min)) { /* |e_i| < pi/2, eq. (12) */
			t.r_min = o->clearance;
			t.found = 1;
		}
	}
	*out = t;
}

void sw_glm_eval(const sw_glm_params *p, const sw_situation *s, double phi, double w_tar,
		 double w_obs, sw_glm_terms *out)
{
	double cs[2];
	sw_steer_velocity(1.0, phi, cs); /* (cos phi, sin phi), the bits every path uses */
	sw_glm_eval_cs(p, s, cs[0], cs[1], w_tar, w_obs, out);
	if (s->has_target)
		out->psi_t = atan2(s->ty - s->y, s->tx - s->x);
}

/* The attractor terms of sw_glm_eval_cs(): target, eq. (2), and flocking. */
static void attractor_terms(const sw_glm_params *p, const sw_situation *s, double cphi,
			    double sphi, sw_glm_terms *t)
{
	*t = (sw_glm_terms){0};
	/* Target attractor, eq. (2); without a target f_tar = df_tar = 0. */
	if (s->has_target) {
		double dx = s->tx - s->x, dy = s->ty - s->y, se, ce;
		t->psi_t = NAN; /* filled by sw_glm_eval */
		rel_dir(sphi, cphi, dx, dy, &se, &ce);
		t->f_tar = -p->a * se;
		t->df_tar = -p->a * ce;
	}
	if (p->cohesion != 0.0 || p->alignment != 0.0)
		flock_terms(p, s, sphi, cphi, &t->f_tar, &t->df_tar);
}

/* The rest of sw_glm_eval_cs() from the obstacle sums o: competition parameters (9)-(10), heading
 * rate (1) without noise, speed (12). */
static void finish_terms(const sw_glm_params *p, const sw_situation *s, double sphi, double cphi,
			 double w_tar, double w_obs, const sw__glm_obs_sums *o, sw_glm_terms *t)
{
	t->f_obs = o->f_obs;
	t->df_obs = o->df_obs;
	t->sum_d = o->sum_d;
	t->sum_w = o->sum_w;
	sw_glm_competition(p, t->f_tar, t->df_tar, t->f_obs, t->df_obs, t->sum_d, t->sum_w, &t->a1,
			   &t->a2, &t->g12, &t->g21);
	t->phidot = fabs(w_tar) * t->f_tar + fabs(w_obs) * t->f_obs;
	t->v_cmd = speed_law(p, s, sphi, cphi, o->found, o->r_min);
}

/* Whether the situation's obstacle repellers, eqs. (3)-(7), go through the vectorised loop (built
 * with SLEEF, on an AVX2 CPU; else, or when it is missing, the scalar reference). */
static int vectorised(const sw_situation *s)
{
	return s->n_obs >= SW_GLM_SIMD_MIN;
}

void sw_glm_eval_batch(int n, const sw_glm_params *const p[], const sw_situation *const s[],
		       const double cphi[], const double sphi[], double w_tar, double w_obs,
		       sw_glm_terms out[])
{
	for (int k0 = 0; k0 < n; k0 += SW_GLM_BATCH) {
		int m = n - k0 < SW_GLM_BATCH ? n - k0 : SW_GLM_BATCH;
		/* The vectorised situations together. */
		const sw_glm_params *vp[SW_GLM_BATCH];
		const sw_situation *vs[SW_GLM_BATCH];
		double vc[SW_GLM_BATCH], vsn[SW_GLM_BATCH];
		int idx[SW_GLM_BATCH], nv = 0;
		sw__glm_obs_sums o[SW_GLM_BATCH], vo[SW_GLM_BATCH];
		for (int k = k0; k < k0 + m; k++) {
			attractor_terms(p[k], s[k], cphi[k], sphi[k], &out[k]);
			if (vectorised(s[k])) {
				vp[nv] = p[k];
				vs[nv] = s[k];
				vc[nv] = cphi[k];
				vsn[nv] = sphi[k];
				idx[nv++] = k - k0;
			}
		}
		int vec = nv > 0 && sw__glm_obstacles_simd_batch(nv, vp, vs, vsn, vc, vo);
		for (int j = 0; vec && j < nv; j++)
			o[idx[j]] = vo[j];
		for (int k = k0, j = 0; k < k0 + m; k++) {
			if (vec && j < nv && idx[j] == k - k0)
				j++; /* summed above */
			else
				sw__glm_obstacles_scalar(p[k], s[k], sphi[k], cphi[k], &o[k - k0]);
			finish_terms(p[k], s[k], sphi[k], cphi[k], w_tar, w_obs, &o[k - k0],
				     &out[k]);
		}
	}
}

void sw_glm_eval_cs(const sw_glm_params *p, const sw_situation *s, double cphi, double sphi,
		    double w_tar, double w_obs, sw_glm_terms *out)
{
	/* sw_glm_eval_batch() for one situation, without its batch bookkeeping (5 % of a single
	 * evaluation with 10 obstacles). */
	sw_glm_terms t;
	attractor_terms(p, s, cphi, sphi, &t);
	sw__glm_obs_sums o;
	if (!vectorised(s) || !sw__glm_obstacles_simd(p, s, sphi, cphi, &o))
		sw__glm_obstacles_scalar(p, s, sphi, cphi, &o);
	finish_terms(p, s, sphi, cphi, w_tar, w_obs, &o, &t);
	*out = t;
}
