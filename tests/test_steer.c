/* tests/test_steer.c - the steering laws against independent transcriptions of
 * docs/steering-models.md: GLM eqs. (2)-(12), courage (section 1.4) and the whole right-hand
 * sides; FW eq. (13) and the potential field (section 3) are in tests/test_steer_fw_pf.c.
 *
 * Every reference below is written from the document with plain libm calls (atan2, asin, tanh,
 * exp), not with the library's identities, at pseudo-random high-entropy points from a fixed
 * seed.  Values agree to 1e-12 relative to the natural scale of the quantity (for a sum of
 * repellers, the sum of |R_i| D_i, because the window's tail is only known to an absolute error
 * in the literal 1 + tanh form); derivatives are checked against gsl_deriv_central. */
#include <math.h>
#include <string.h>

#include <gsl/gsl_deriv.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_rng.h>

#include "swerve/core.h"
#include "swerve/steer.h"
#include "emit_util.h"
#include "tests.h"

#define REL 1e-12

/* wrap to (-pi, pi], written independently of the library (fmod, not remainder). */
double test_ref_wrap(double a)
{
	double w = fmod(a + PI, 2.0 * PI);
	if (w <= 0.0)
		w += 2.0 * PI;
	return w - PI;
}

static double ref_sgn(double x)
{
	return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0);
}

/* --- literal GLM ----------------------------------------------------------------------------- */

/* R, W, D of eqs. (4)-(7), literally. */
static double ref_repeller(double e, double dpsi, double r, double delta, double d0, double *rw,
			   double *ww, double *dd)
{
	double R = (e / dpsi) * exp(1.0 - fabs(e) / dpsi);
	double c = fmin(2.0 * dpsi + delta, PI);
	double h1 = 4.0 / (cos(2.0 * dpsi) - cos(c));
	double W = 0.5 * (tanh(h1 * (cos(e) - cos(c))) + 1.0);
	double D = exp(-r / d0);
	if (rw)
		*rw = R;
	if (ww)
		*ww = W;
	if (dd)
		*dd = D;
	return R * W * D;
}

typedef struct {
	double f_tar, df_tar, f_obs, sum_d, sum_w, a1, a2, g12, g21, phidot, v_cmd;
	double scale; /* sum |R_i| D_i */
	double psi_t;
} ref_terms;

static void ref_competition(const sw_glm_params *p, double f_tar, double df_tar, double f_obs,
			    double df_obs, double sum_d, double sum_w, double *a1, double *a2,
			    double *g12, double *g21)
{
	*a2 = tanh(sum_d);
	*a1 = p->a1_scale * (1.0 - *a2);
	*g21 = p->g21;
	double pt = ref_sgn(df_tar) * exp(-p->c1 * fabs(f_tar));
	double po = ref_sgn(df_obs) * exp(-p->c1 * fabs(f_obs)) * sum_w;
	*g12 = exp(-p->c2 * (pt * po + 1.0));
}

/* The whole GLM evaluation, literally; df_obs is taken from the library's (checked separately
 * against finite differences) because (10) only needs its sign. */
static void ref_eval(const sw_glm_params *p, const sw_situation *s, double phi, double wt,
		     double wo, double df_obs, ref_terms *t)
{
	memset(t, 0, sizeof *t);
	if (s->has_target) {
		t->psi_t = atan2(s->ty - s->y, s->tx - s->x);
		t->f_tar = -p->a * sin(phi - t->psi_t);
		t->df_tar = -p->a * cos(phi - t->psi_t);
	}
	double m = p->margin < 0.0 ? p->d1 : p->margin;
	double rmin = HUGE_VAL;
	int front = 0;
	for (int i = 0; i < s->n_obs; i++) {
		const sw_percept *o = &s->obs[i];
		double psi = atan2(o->dy, o->dx);
		double e = test_ref_wrap(phi - psi);
		double dpsi = asin(fmin(1.0, (o->rho + s->radius + m) / o->dist));
		double r = fmax(o->clearance, p->r_floor);
		double R, W, D;
		t->f_obs += ref_repeller(e, dpsi, r, p->delta, p->d0, &R, &W, &D);
		t->sum_d += D;
		t->sum_w += W;
		t->scale += fabs(R) * D;
		if (fabs(e) < PI / 2 && o->clearance < rmin) {
			rmin = o->clearance;
			front = 1;
		}
	}
	ref_competition(p, t->f_tar, t->df_tar, t->f_obs, df_obs, t->sum_d, t->sum_w, &t->a1,
			&t->a2, &t->g12, &t->g21);
	t->phidot = fabs(wt) * t->f_tar + fabs(wo) * t->f_obs;
	double v = p->v_max;
	if (p->speed == SW_SPEED_T2C && front) {
		v = (rmin - p->d1) / p->t2c;
		if (v > p->v_max)
			v = p->v_max;
		if (v < -p->v_max)
			v = -p->v_max;
	}
	if (p->arrive && s->has_target) {
		double cap = sqrt(pow(s->tx - s->x, 2) + pow(s->ty - s->y, 2)) / p->t2c;
		if (cap < v)
			v = cap;
	}
	t->v_cmd = v;
}

/* A random situation: discs and wall points around the agent, built from world geometry so that
 * dist, clearance and (dx, dy) are consistent.  q = sin(dpsi) is kept out of (0.95, 1), where the
 * formula itself is ill-conditioned (asin near 1), except for overlapping percepts (q >= 1). */
void test_random_scene(gsl_rng *r, const sw_glm_params *p, test_scene *sc)
{
	memset(sc, 0, sizeof *sc);
	sw_situation *s = &sc->s;
	s->x = et_unif(r, -5, 5);
	s->y = et_unif(r, -5, 5);
	s->radius = et_unif(r, 0.0, 0.5);
	s->has_target = gsl_rng_uniform(r) < 0.8;
	s->tx = s->x + et_unif(r, -8, 8);
	s->ty = s->y + et_unif(r, -8, 8);
	s->n_obs = (int)gsl_rng_uniform_int(r, 13);
	s->obs = sc->obs;
	double m = p->margin < 0.0 ? p->d1 : p->margin;
	for (int i = 0; i < s->n_obs; i++) {
		sw_percept *o = &sc->obs[i];
		o->rho = gsl_rng_uniform(r) < 0.2 ? 0.0 : et_unif(r, 0.05, 1.0);
		double q = gsl_rng_uniform(r) < 0.1 ? et_unif(r, 1.0, 3.0) : et_unif(r, 0.05, 0.95);
		o->dist = (o->rho + s->radius + m) / q;
		double a = et_unif(r, -PI, PI);
		o->dx = o->dist * cos(a);
		o->dy = o->dist * sin(a);
		o->dist = hypot(o->dx, o->dy);
		o->clearance = o->dist - o->rho - s->radius;
		o->id = i;
	}
}

static sw_glm_params random_glm(gsl_rng *r)
{
	sw_glm_params p = sw_default_glm_params();
	p.a = et_unif(r, 0.2, 2.0);
	p.d0 = et_unif(r, 0.5, 3.0);
	p.delta = et_unif(r, 0.1, 1.5);
	p.d1 = et_unif(r, 0.05, 1.0);
	p.margin = gsl_rng_uniform(r) < 0.5 ? -1.0 : et_unif(r, 0.0, 0.8);
	p.a1_scale = et_unif(r, 0.1, 1.0);
	p.g21 = et_unif(r, 0.01, 0.2);
	p.c1 = et_unif(r, 0.5, 4.0);
	p.c2 = et_unif(r, 0.5, 4.0);
	p.v_max = et_unif(r, 0.3, 2.0);
	p.t2c = et_unif(r, 0.3, 3.0);
	p.arrive = gsl_rng_uniform(r) < 0.3;
	p.speed = gsl_rng_uniform(r) < 0.2 ? SW_SPEED_CONSTANT : SW_SPEED_T2C;
	return p;
}

/* Field-wise equality (memcmp would compare padding bytes). */
static int glm_equal(const sw_glm_params *a, const sw_glm_params *b)
{
	return a->a == b->a && a->d0 == b->d0 && a->delta == b->delta && a->margin == b->margin &&
	       a->r_floor == b->r_floor && a->wall_near == b->wall_near &&
	       a->a1_scale == b->a1_scale && a->g21 == b->g21 && a->c1 == b->c1 && a->c2 == b->c2 &&
	       a->weights == b->weights && a->eps == b->eps && a->w_floor == b->w_floor &&
	       a->w_restart == b->w_restart && a->speed == b->speed && a->v_max == b->v_max &&
	       a->d1 == b->d1 && a->t2c == b->t2c && a->arrive == b->arrive &&
	       a->sigma_phi == b->sigma_phi;
}

/* --- defaults ------------------------------------------------------------------------------ */

START_TEST(test_defaults_match_header)
{
	sw_glm_params g = sw_default_glm_params();
	ck_assert(g.a == 1.0 && g.d0 == 1.0 && g.delta == 0.8 && g.margin == -1.0);
	ck_assert(g.r_floor == 1e-3 && g.wall_near == 1.0 && g.a1_scale == 0.4 && g.g21 == 0.05);
	ck_assert(g.c1 == 2.0 && g.c2 == 2.0 && g.weights == SW_WEIGHTS_RELAX && g.eps == 0.05);
	ck_assert(g.w_floor == 1e-3 && g.w_restart == 1e-2 && g.speed == SW_SPEED_T2C);
	ck_assert(g.v_max == 1.0 && g.d1 == 0.5 && g.t2c == 1.0 && g.arrive == 0);
	ck_assert(g.sigma_phi == 0.02);
	sw_fw_params f = sw_default_fw_params();
	ck_assert(f.b == 3.25 && f.kg == 7.5 && f.c1 == 0.4 && f.c2 == 0.4 && f.ko == 198.0);
	ck_assert(f.c3 == 6.5 && f.c4 == 0.8 && f.speed == 1.0);
	sw_pf_params q = sw_default_pf_params();
	ck_assert(q.kp == 1.0 && q.eta == 1.0 && q.rho0 == 1.0 && q.r_floor == 1e-3);
	ck_assert(q.speed == 0.5);
	sw_personality s = sw_default_personality();
	ck_assert(!s.has_agility && !s.has_mass && !s.has_courage);
	ck_assert(s.agility == 0.5 && s.lambda_k_min == 0.5 && s.lambda_k_max == 20.0);
	ck_assert(s.mass == 0.5 && s.lambda_m_min == 0.5 && s.lambda_m_max == 20.0);
	ck_assert(s.courage == 0.5 && s.d0_floor == 0.05);
	sw_steer_def d = sw_default_steer_def();
	ck_assert(d.law == SW_LAW_GLM);
	ck_assert(glm_equal(&d.glm, &g));
	ck_assert(d.fw.b == f.b && d.fw.kg == f.kg && d.fw.c1 == f.c1 && d.fw.c2 == f.c2);
	ck_assert(d.fw.ko == f.ko && d.fw.c3 == f.c3 && d.fw.c4 == f.c4 && d.fw.speed == f.speed);
	ck_assert(d.pf.kp == q.kp && d.pf.eta == q.eta && d.pf.rho0 == q.rho0);
	ck_assert(d.pf.r_floor == q.r_floor && d.pf.speed == q.speed);
}
END_TEST

START_TEST(test_law_names)
{
	ck_assert_str_eq(sw_law_name(SW_LAW_GLM), "glm");
	ck_assert_str_eq(sw_law_name(SW_LAW_FW), "fw");
	ck_assert_str_eq(sw_law_name(SW_LAW_PF), "potential");
	ck_assert_ptr_nonnull(sw_law_name((sw_law)42));
}
END_TEST

/* --- GLM building blocks ------------------------------------------------------------------- */

START_TEST(test_target_matches_eq2_and_attracts)
{
	gsl_rng *r = et_rng_new(11);
	for (int k = 0; k < TEST_STEER_N_RANDOM; k++) {
		double a = et_unif(r, 0.1, 3), phi = et_unif(r, -20, 20), psi = et_unif(r, -PI, PI), df;
		double f = sw_glm_target(a, phi, psi, &df);
		ck_close(f, -a * sin(phi - psi), REL * a);
		ck_close(df, -a * cos(phi - psi), REL * a);
		ck_close(sw_glm_target(a, phi, psi, NULL), f, 0.0);
	}
	/* Attractor at psi_T (negative slope, restoring sign on both sides); repeller behind. */
	double df;
	ck_assert(sw_glm_target(1.0, 0.3, 0.3, &df) == 0.0 && df < 0.0);
	ck_assert(sw_glm_target(1.0, 0.35, 0.3, NULL) < 0.0);
	ck_assert(sw_glm_target(1.0, 0.25, 0.3, NULL) > 0.0);
	sw_glm_target(1.0, 0.3 + PI, 0.3, &df);
	ck_assert(df > 0.0);
	gsl_rng_free(r);
}
END_TEST

START_TEST(test_repeller_matches_eqs4_7)
{
	gsl_rng *r = et_rng_new(12);
	for (int k = 0; k < TEST_STEER_N_RANDOM; k++) {
		double e = et_unif(r, -PI, PI), dpsi = et_unif(r, 0.02, 1.45), rr = et_unif(r, 1e-3, 5);
		double delta = et_unif(r, 0.05, 1.5), d0 = et_unif(r, 0.3, 3);
		double R, W, D, w, d;
		double ref = ref_repeller(e, dpsi, rr, delta, d0, &R, &W, &D);
		double f = sw_glm_repeller(e, dpsi, rr, delta, d0, NULL, &w, &d);
		ck_close(f, ref, REL * fabs(R) * D + 1e-300);
		ck_close(w, W, REL);
		ck_close(d, D, REL * D);
		/* Inside the window W ~ 1: plain relative agreement. */
		double e2 = et_unif(r, -2.0 * dpsi, 2.0 * dpsi);
		if (fabs(e2) < PI) {
			ref = ref_repeller(e2, dpsi, rr, delta, d0, NULL, NULL, NULL);
			ck_close(sw_glm_repeller(e2, dpsi, rr, delta, d0, NULL, NULL, NULL), ref,
				 REL * fabs(ref));
		}
	}
	gsl_rng_free(r);
}
END_TEST

typedef struct {
	double dpsi, r, delta, d0;
} rep_args;

static double rep_of_e(double e, void *params)
{
	const rep_args *a = params;
	return sw_glm_repeller(e, a->dpsi, a->r, a->delta, a->d0, NULL, NULL, NULL);
}

START_TEST(test_repeller_derivative_matches_central_differences)
{
	gsl_rng *r = et_rng_new(13);
	int checked = 0;
	for (int k = 0; k < TEST_STEER_N_RANDOM; k++) {
		rep_args a = {et_unif(r, 0.05, 1.45), et_unif(r, 1e-3, 5), et_unif(r, 0.05, 1.5),
			      et_unif(r, 0.3, 3)};
		double e = et_unif(r, -PI + 1e-2, PI - 1e-2);
		if (fabs(e) < 1e-2) /* the second derivative jumps at 0 */
			continue;
		gsl_function F = {rep_of_e, &a};
		double fd, err, df;
		gsl_deriv_central(&F, e, 1e-4, &fd, &err);
		sw_glm_repeller(e, a.dpsi, a.r, a.delta, a.d0, &df, NULL, NULL);
		ck_close(df, fd, 1e-6 * (1.0 + fabs(fd)));
		checked++;
	}
	ck_assert_int_gt(checked, TEST_STEER_N_RANDOM / 2);
	gsl_rng_free(r);
}
END_TEST

START_TEST(test_repeller_shape)
{
	gsl_rng *r = et_rng_new(14);
	for (int k = 0; k < 200; k++) {
		double dpsi = et_unif(r, 0.05, 1.2), delta = et_unif(r, 0.1, 1.0), d0 = et_unif(r, 0.3, 3);
		double rr = et_unif(r, 0.01, 4), df, w, d;
		/* Repeller: zero with positive slope (1/dpsi) e W(0) D at e = 0. */
		double f = sw_glm_repeller(0.0, dpsi, rr, delta, d0, &df, &w, &d);
		ck_assert(f == 0.0 && df > 0.0);
		ck_close(df, exp(1.0) / dpsi * w * d, REL * df);
		/* D value, eq. (7). */
		ck_close(d, exp(-rr / d0), REL * d);
		/* R peaks at |e| = dpsi with value 1 (W D divided out; W ~ 1 there). */
		double fp = sw_glm_repeller(dpsi, dpsi, rr, delta, d0, &df, &w, &d);
		ck_close(fp / (w * d), 1.0, 1e-14);
		double fm = sw_glm_repeller(-dpsi, dpsi, rr, delta, d0, NULL, &w, &d);
		ck_close(fm / (w * d), -1.0, 1e-14);
		double rl =
		    sw_glm_repeller(0.97 * dpsi, dpsi, rr, delta, d0, NULL, &w, &d) / (w * d);
		double rh =
		    sw_glm_repeller(1.03 * dpsi, dpsi, rr, delta, d0, NULL, &w, &d) / (w * d);
		ck_assert(rl < 1.0 && rh < 1.0);
		/* W(2 dpsi + delta) = 0.5 when 2 dpsi + delta < pi; W(2 dpsi) = 0.5 (tanh 4 + 1).
		 */
		if (2.0 * dpsi + delta < PI) {
			sw_glm_repeller(2.0 * dpsi + delta, dpsi, rr, delta, d0, NULL, &w, NULL);
			ck_close(w, 0.5, 1e-12);
			sw_glm_repeller(2.0 * dpsi, dpsi, rr, delta, d0, NULL, &w, NULL);
			ck_close(w, 0.5 * (tanh(4.0) + 1.0), 1e-12);
		}
	}
	/* dpsi = pi/2 (contact): the window degenerates to a step that keeps everything but e = pi.
	 */
	double w, df;
	double f = sw_glm_repeller(2.0, PI / 2, 0.001, 0.8, 1.0, &df, &w, NULL);
	ck_assert(isfinite(f) && isfinite(df) && w == 1.0);
	gsl_rng_free(r);
}
END_TEST

START_TEST(test_dpsi_decision)
{
	gsl_rng *r = et_rng_new(15);
	for (int k = 0; k < TEST_STEER_N_RANDOM; k++) {
		double rho = et_unif(r, 0, 1), ra = et_unif(r, 0, 0.5), m = et_unif(r, 0, 1);
		double dist = et_unif(r, 0.1, 10);
		double ref = asin(fmin(1.0, (rho + ra + m) / dist));
		ck_close(sw_glm_dpsi(rho, ra, m, dist), ref, REL * ref);
	}
	ck_close(sw_glm_dpsi(1.0, 0.5, 0.5, 1.5), PI / 2, 0.0);
	ck_close(sw_glm_dpsi(1.0, 0.5, 0.5, 0.0), PI / 2, 0.0);
	double tiny = sw_glm_dpsi(0.0, 0.0, 0.0, 2.0);
	ck_assert(tiny > 0.0 && tiny < 1e-5);
	gsl_rng_free(r);
}
END_TEST

START_TEST(test_competition_matches_eqs9_10)
{
	gsl_rng *r = et_rng_new(16);
	for (int k = 0; k < TEST_STEER_N_RANDOM; k++) {
		sw_glm_params p = random_glm(r);
		double ft = et_unif(r, -2, 2), dft = et_unif(r, -2, 2), fo = et_unif(r, -3, 3);
		double dfo = et_unif(r, -30, 30), sd = et_unif(r, 0, 4), sw = et_unif(r, 0, 5);
		if (k % 7 == 0)
			dft = 0.0;
		if (k % 11 == 0)
			dfo = 0.0;
		double a1, a2, g12, g21, b1, b2, h12, h21;
		sw_glm_competition(&p, ft, dft, fo, dfo, sd, sw, &a1, &a2, &g12, &g21);
		ref_competition(&p, ft, dft, fo, dfo, sd, sw, &b1, &b2, &h12, &h21);
		ck_close(a1, b1, REL * b1);
		ck_close(a2, b2, REL * b2);
		ck_close(g12, h12, REL * h12);
		ck_assert(g21 == h21);
	}
	/* sgn(0) = 0: no target means g12 = exp(-c2). */
	sw_glm_params p = sw_default_glm_params();
	double a1, a2, g12, g21;
	sw_glm_competition(&p, 0.0, 0.0, 0.4, 3.0, 0.5, 1.5, &a1, &a2, &g12, &g21);
	ck_close(g12, exp(-2.0), 1e-15);
	/* Target hidden behind an obstacle: P_tar P_obs ~ -1, g12 ~ 1 > a1 (target switched off).
	 */
	sw_glm_competition(&p, 0.0, -1.0, 0.0, 2.0, 0.5, 1.0, &a1, &a2, &g12, &g21);
	ck_close(g12, 1.0, 1e-15);
	ck_assert(g12 > a1);
	gsl_rng_free(r);
}
END_TEST

/* --- GLM evaluation -------------------------------------------------------------------------- */

START_TEST(test_eval_matches_literal_glm)
{
	gsl_rng *r = et_rng_new(17);
	test_scene sc;
	for (int k = 0; k < TEST_STEER_N_RANDOM; k++) {
		sw_glm_params p = random_glm(r);
		test_random_scene(r, &p, &sc);
		double phi = et_unif(r, -3 * PI, 3 * PI), wt = et_unif(r, -1.5, 1.5),
		       wo = et_unif(r, -1.5, 1.5);
		sw_glm_terms t;
		ref_terms ref;
		sw_glm_eval(&p, &sc.s, phi, wt, wo, &t);
		ref_eval(&p, &sc.s, phi, wt, wo, t.df_obs, &ref);
		double sc_obs = REL * (ref.scale + 1e-300);
		ck_close(t.psi_t, ref.psi_t, 0.0);
		ck_close(t.f_tar, ref.f_tar, REL * p.a);
		ck_close(t.df_tar, ref.df_tar, REL * p.a);
		ck_close(t.f_obs, ref.f_obs, sc_obs);
		ck_close(t.sum_d, ref.sum_d, REL * ref.sum_d);
		ck_close(t.sum_w, ref.sum_w, REL * (1.0 + ref.sum_w));
		ck_close(t.a1, ref.a1, REL);
		ck_close(t.a2, ref.a2, REL);
		ck_assert(t.g21 == ref.g21);
		ck_close(t.g12, ref.g12, 1e-10 * ref.g12);
		ck_close(t.phidot, ref.phidot, REL * (p.a + ref.scale) * 1.5);
		ck_close(t.v_cmd, ref.v_cmd, REL * (1.0 + fabs(ref.v_cmd)));
	}
	gsl_rng_free(r);
}
END_TEST

typedef struct {
	const sw_glm_params *p;
	const sw_situation *s;
} eval_args;

static double f_obs_of_phi(double phi, void *params)
{
	const eval_args *a = params;
	sw_glm_terms t;
	sw_glm_eval(a->p, a->s, phi, 1.0, 1.0, &t);
	return t.f_obs;
}

START_TEST(test_eval_df_obs_matches_central_differences)
{
	gsl_rng *r = et_rng_new(18);
	test_scene sc;
	int checked = 0;
	for (int k = 0; k < TEST_STEER_N_RANDOM / 2; k++) {
		sw_glm_params p = random_glm(r);
		test_random_scene(r, &p, &sc);
		double phi = et_unif(r, -PI, PI);
		/* Stay clear of each e_i = 0 (kink of R'') and e_i = pi (wrap). */
		int ok = 1;
		for (int i = 0; i < sc.s.n_obs; i++) {
			double e = test_ref_wrap(phi - atan2(sc.obs[i].dy, sc.obs[i].dx));
			if (fabs(e) < 1e-2 || fabs(e) > PI - 1e-2)
				ok = 0;
		}
		if (!ok)
			continue;
		eval_args a = {&p, &sc.s};
		gsl_function F = {f_obs_of_phi, &a};
		double fd, err;
		gsl_deriv_central(&F, phi, 1e-4, &fd, &err);
		sw_glm_terms t;
		sw_glm_eval(&p, &sc.s, phi, 1.0, 1.0, &t);
		ck_close(t.df_obs, fd, 1e-6 * (1.0 + fabs(fd)));
		checked++;
	}
	ck_assert_int_gt(checked, TEST_STEER_N_RANDOM / 8);
	gsl_rng_free(r);
}
END_TEST

START_TEST(test_eval_speed_law)
{
	sw_glm_params p = sw_default_glm_params(); /* d1 = 0.5, t2c = 1, v_max = 1 */
	sw_percept o = {2.0, 0.0, 2.0, 0.5, 2.0 - 0.5 - 0.3, 0, 0.0, 0.0};
	sw_situation s = {0.0, 0.0, 0.3, 0, 0.0, 0.0, 1, &o, NULL, 0};
	sw_glm_terms t;
	/* Obstacle ahead at clearance 1.2: v = (1.2 - 0.5) / 1. */
	sw_glm_eval(&p, &s, 0.2, 1.0, 1.0, &t);
	ck_close(t.v_cmd, 0.7, 1e-15);
	/* Behind (|e| > pi/2): v_max. */
	sw_glm_eval(&p, &s, PI - 0.1, 1.0, 1.0, &t);
	ck_close(t.v_cmd, 1.0, 0.0);
	/* Overlap: clamped retreat. */
	o.clearance = -2.0;
	sw_glm_eval(&p, &s, 0.0, 1.0, 1.0, &t);
	ck_close(t.v_cmd, -1.0, 0.0);
	/* Constant speed ignores obstacles. */
	p.speed = SW_SPEED_CONSTANT;
	sw_glm_eval(&p, &s, 0.0, 1.0, 1.0, &t);
	ck_close(t.v_cmd, 1.0, 0.0);
	/* Arrival cap dist(T) / t2c. */
	s.n_obs = 0;
	s.has_target = 1;
	s.tx = 0.3;
	s.ty = 0.4;
	p.arrive = 1;
	p.t2c = 2.0;
	sw_glm_eval(&p, &s, 0.0, 1.0, 1.0, &t);
	ck_close(t.v_cmd, 0.25, 1e-15);
	/* No target, no obstacles: f = 0 everywhere. */
	s.has_target = 0;
	sw_glm_eval(&p, &s, 1.0, 1.0, 1.0, &t);
	ck_assert(t.f_tar == 0.0 && t.df_tar == 0.0 && t.f_obs == 0.0 && t.phidot == 0.0);
	ck_assert(t.a2 == 0.0);
}
END_TEST

/* speed="contact" against the closed form of a disc on the agent's course: with the obstacle
 * grown by agent radius and margin to rg, the agent's centre meets it after
 * along - sqrt(rg^2 - lat^2); an obstacle beside the course (lat >= rg) does not slow it. */
START_TEST(test_eval_contact_speed)
{
	sw_glm_params p = sw_default_glm_params();
	p.speed = SW_SPEED_CONTACT;
	p.margin = 0.1;
	p.t2c = 5.0;
	/* Disc of radius 0.25 at (5, 0.3), agent radius 0.25: rg = 0.6, s = 5 - sqrt(0.27). */
	sw_percept o = {5.0, 0.3, hypot(5.0, 0.3), 0.25, hypot(5.0, 0.3) - 0.5, 0, 0.0, 0.0};
	sw_situation s = {0.0, 0.0, 0.25, 0, 0.0, 0.0, 1, &o, NULL, 0};
	sw_glm_terms t;
	sw_glm_eval(&p, &s, 0.0, 1.0, 1.0, &t);
	ck_close(t.v_cmd, (5.0 - sqrt(0.36 - 0.09)) / 5.0, 1e-14);
	/* Heading 0.2 rad: along = 5 cos 0.2 + 0.3 sin 0.2, lat = 5 sin 0.2 - 0.3 cos 0.2 > 0.6. */
	sw_glm_eval(&p, &s, 0.2, 1.0, 1.0, &t);
	ck_close(t.v_cmd, 1.0, 0.0);
	/* Beside the course at 0.7 m: full speed, where eq. (12) slows down. */
	o.dy = 0.7;
	o.dist = hypot(5.0, 0.7);
	o.clearance = o.dist - 0.5;
	sw_glm_eval(&p, &s, 0.0, 1.0, 1.0, &t);
	ck_close(t.v_cmd, 1.0, 0.0);
	/* Inside the grown disc: backs off, clamped at -v_max. */
	o.dx = 0.55;
	o.dy = 0.0;
	o.dist = 0.55;
	o.clearance = 0.05;
	p.t2c = 0.01;
	sw_glm_eval(&p, &s, 0.0, 1.0, 1.0, &t);
	ck_close(t.v_cmd, -1.0, 0.0);
	p.t2c = 1.0;
	sw_glm_eval(&p, &s, 0.0, 1.0, 1.0, &t);
	ck_close(t.v_cmd, 0.55 - 0.6, 1e-15);
}
END_TEST

START_TEST(test_eval_obstacle_ahead_turns_away)
{
	/* A disc slightly to the left of the heading pushes the heading right (phidot < 0). */
	sw_glm_params p = sw_default_glm_params();
	sw_percept o = {3.0 * cos(0.1), 3.0 * sin(0.1), 3.0, 0.5, 3.0 - 0.5 - 0.3, 0, 0.0, 0.0};
	sw_situation s = {0.0, 0.0, 0.3, 0, 0.0, 0.0, 1, &o, NULL, 0};
	sw_glm_terms t;
	sw_glm_eval(&p, &s, 0.0, 0.0, 1.0, &t);
	ck_assert(t.phidot < 0.0 && t.df_obs > 0.0);
}
END_TEST

START_TEST(test_eval_obstacle_behind_is_e_pi)
{
	/* wrap maps to (-pi, pi]: an obstacle straight behind has e = +pi, so R > 0 there. */
	sw_glm_params p = sw_default_glm_params();
	sw_percept o = {-3.0, 0.0, 3.0, 0.3, 3.0 - 0.3 - 0.25, 0, 0.0, 0.0};
	sw_situation s = {0.0, 0.0, 0.25, 0, 0.0, 0.0, 1, &o, NULL, 0};
	sw_glm_terms t;
	sw_glm_eval(&p, &s, 0.0, 1.0, 1.0, &t);
	double dpsi = asin((0.3 + 0.25 + p.d1) / 3.0);
	double ref = ref_repeller(PI, dpsi, o.clearance, p.delta, p.d0, NULL, NULL, NULL);
	ck_assert(ref > 0.0 && t.f_obs > 0.0);
	ck_close(t.f_obs, ref, 1e-12 * ref);
}
END_TEST

START_TEST(test_courage)
{
	sw_glm_params p = sw_default_glm_params();
	p.d0 = 2.5;
	sw_personality q = sw_default_personality();
	q.has_courage = 1;
	q.courage = 0.0;
	sw_glm_params c = sw_glm_with_personality(&p, &q);
	ck_close(c.d0, 2.5, 1e-15);
	ck_close(c.d1, 2.5, 0.0);
	q.courage = 1.0;
	c = sw_glm_with_personality(&p, &q);
	ck_close(c.d0, q.d0_floor, 0.0);
	ck_close(c.d1, 0.0, 0.0);
	gsl_rng *r = et_rng_new(19);
	for (int k = 0; k < 500; k++) {
		p.d0 = et_unif(r, 0.2, 4);
		q.courage = et_unif(r, 0, 1);
		q.d0_floor = et_unif(r, 0.01, 0.2);
		c = sw_glm_with_personality(&p, &q);
		double k0 = log(p.d0 + 1.0);
		double d0 = fmax(exp(k0 * (1.0 - q.courage)) - 1.0, q.d0_floor);
		ck_close(c.d0, d0, REL * d0);
		ck_close(c.d1, q.courage < 0.5 ? p.d0 : 2.0 * p.d0 * (1.0 - q.courage), 1e-15);
		ck_assert(c.a == p.a && c.delta == p.delta && c.v_max == p.v_max);
	}
	/* Without the flag (or without a personality) nothing changes. */
	q.has_courage = 0;
	c = sw_glm_with_personality(&p, &q);
	ck_assert(glm_equal(&c, &p));
	c = sw_glm_with_personality(&p, NULL);
	ck_assert(glm_equal(&c, &p));
	gsl_rng_free(r);
}
END_TEST

/* --- whole right-hand sides ---------------------------------------------------------------- */

START_TEST(test_rhs_glm_kinematics)
{
	gsl_rng *r = et_rng_new(23);
	test_scene sc;
	sw_steer_def d = sw_default_steer_def();
	for (int k = 0; k < 300; k++) {
		d.glm = random_glm(r);
		test_random_scene(r, &d.glm, &sc);
		double y[SW_STATE_DIM], dy[SW_STATE_DIM];
		for (int i = 0; i < SW_STATE_DIM; i++)
			y[i] = et_unif(r, -1.5, 1.5);
		y[SW_STATE_X] = sc.s.x;
		y[SW_STATE_Y] = sc.s.y;
		sw_glm_terms t;
		ck_assert_int_eq(sw_steer_rhs(&d, NULL, &sc.s, y, dy, &t), SW_SUCCESS);
		ref_terms ref;
		ref_eval(&d.glm, &sc.s, y[SW_STATE_PHI], y[SW_STATE_WTAR], y[SW_STATE_WOBS],
			 t.df_obs, &ref);
		double tol = REL * (d.glm.a + ref.scale) * 3;
		ck_close(dy[SW_STATE_PHI], ref.phidot, tol);
		ck_close(dy[SW_STATE_X], ref.v_cmd * cos(y[SW_STATE_PHI]), 1e-12);
		ck_close(dy[SW_STATE_Y], ref.v_cmd * sin(y[SW_STATE_PHI]), 1e-12);
		ck_assert(dy[SW_STATE_OMEGA] == 0.0 && dy[SW_STATE_V] == 0.0);
		ck_assert(dy[SW_STATE_WTAR] == 0.0 && dy[SW_STATE_WOBS] == 0.0);

		/* Dynamic weights: rhs (8) / eps with the signed weights. */
		d.glm.weights = SW_WEIGHTS_DYNAMIC;
		d.glm.eps = et_unif(r, 0.01, 0.2);
		ck_assert_int_eq(sw_steer_rhs(&d, NULL, &sc.s, y, dy, NULL), SW_SUCCESS);
		double wt = y[SW_STATE_WTAR], wo = y[SW_STATE_WOBS];
		double e1 = (ref.a1 * wt * (1 - wt * wt) - ref.g12 * wo * wo * wt) / d.glm.eps;
		double e2 = (ref.a2 * wo * (1 - wo * wo) - ref.g21 * wt * wt * wo) / d.glm.eps;
		ck_close(dy[SW_STATE_WTAR], e1, 1e-9 * (1 + fabs(e1)));
		ck_close(dy[SW_STATE_WOBS], e2, 1e-9 * (1 + fabs(e2)));

		/* Algebraic speed. */
		y[SW_STATE_V] = -7.0;
		sw_steer_algebraic(&d, NULL, &sc.s, y);
		ck_close(y[SW_STATE_V], ref.v_cmd, 1e-12);
		d.glm.weights = SW_WEIGHTS_RELAX;
	}
	gsl_rng_free(r);
}
END_TEST

START_TEST(test_rhs_personality_lags)
{
	sw_steer_def d = sw_default_steer_def();
	sw_percept o = {2.0 * cos(0.2), 2.0 * sin(0.2), 2.0, 0.4, 2.0 - 0.4 - 0.3, 0, 0.0, 0.0};
	sw_situation s = {1.0, 2.0, 0.3, 1, 5.0, 6.0, 1, &o, NULL, 0};
	sw_personality q = sw_default_personality();
	q.has_agility = 1;
	q.agility = 0.3;
	q.has_mass = 1;
	q.mass = 0.3;
	double y[SW_STATE_DIM] = {1.0, 2.0, 0.1, 0.05, 0.2, 0.9, 0.4};
	double dy[SW_STATE_DIM];
	sw_glm_terms t, t0;
	ck_assert_int_eq(sw_steer_rhs(&d, &q, &s, y, dy, &t), SW_SUCCESS);
	sw_glm_eval(&d.glm, &s, 0.1, 0.9, 0.4, &t0);
	double lk = 0.5 + 0.3 * (20.0 - 0.5), lm = 20.0 - 0.3 * (20.0 - 0.5);
	ck_close(dy[SW_STATE_PHI], 0.05, 0.0);
	ck_close(dy[SW_STATE_OMEGA], lk * (t0.phidot - 0.05), 1e-13);
	ck_close(dy[SW_STATE_V], lm * (t0.v_cmd - 0.2), 1e-13);
	ck_close(dy[SW_STATE_X], 0.2 * cos(0.1), 1e-15);
	ck_close(dy[SW_STATE_Y], 0.2 * sin(0.1), 1e-15);
	/* With a mass lag the algebraic step leaves the speed state alone. */
	sw_steer_algebraic(&d, &q, &s, y);
	ck_assert(y[SW_STATE_V] == 0.2);
	/* Extreme traits keep positive rates: agility 0 -> lambda_k_min, mass 1 -> lambda_m_min. */
	q.agility = 0.0;
	q.mass = 1.0;
	sw_steer_rhs(&d, &q, &s, y, dy, NULL);
	ck_close(dy[SW_STATE_OMEGA], 0.5 * (t0.phidot - 0.05), 1e-13);
	ck_close(dy[SW_STATE_V], 0.5 * (t0.v_cmd - 0.2), 1e-13);
}
END_TEST

START_TEST(test_rhs_errors)
{
	sw_steer_def d = sw_default_steer_def();
	sw_situation s = {0.0, 0.0, 0.25, 1, 6.0, 1.0, 0, NULL, NULL, 0};
	double y[SW_STATE_DIM] = {0.0, 0.0, NAN, 0.0, 0.0, 1.0, 0.1};
	double dy[SW_STATE_DIM];
	ck_assert_int_eq(sw_steer_rhs(&d, NULL, &s, y, dy, NULL), SW_ENUMERIC);
	y[SW_STATE_PHI] = 0.0;
	ck_assert_int_eq(sw_steer_rhs(&d, NULL, &s, y, dy, NULL), SW_SUCCESS);
	d.law = (sw_law)1000; /* no law */
	ck_assert_int_eq(sw_steer_rhs(&d, NULL, &s, y, dy, NULL), SW_EUSAGE);
	ck_assert_int_eq(sw_steer_rhs(NULL, NULL, &s, y, dy, NULL), SW_EUSAGE);
	d.law = SW_LAW_FW;
	y[SW_STATE_OMEGA] = INFINITY;
	ck_assert_int_eq(sw_steer_rhs(&d, NULL, &s, y, dy, NULL), SW_ENUMERIC);
}
END_TEST

Suite *steer_suite(void)
{
	Suite *s = suite_create("steer");
	TCase *tc = tcase_create("glm");
	tcase_add_test(tc, test_defaults_match_header);
	tcase_add_test(tc, test_law_names);
	tcase_add_test(tc, test_target_matches_eq2_and_attracts);
	tcase_add_test(tc, test_repeller_matches_eqs4_7);
	tcase_add_test(tc, test_repeller_derivative_matches_central_differences);
	tcase_add_test(tc, test_repeller_shape);
	tcase_add_test(tc, test_dpsi_decision);
	tcase_add_test(tc, test_competition_matches_eqs9_10);
	tcase_add_test(tc, test_eval_matches_literal_glm);
	tcase_add_test(tc, test_eval_df_obs_matches_central_differences);
	tcase_add_test(tc, test_eval_speed_law);
	tcase_add_test(tc, test_eval_contact_speed);
	tcase_add_test(tc, test_eval_obstacle_ahead_turns_away);
	tcase_add_test(tc, test_eval_obstacle_behind_is_e_pi);
	tcase_add_test(tc, test_courage);
	suite_add_tcase(s, tc);
	TCase *tr = tcase_create("rhs");
	tcase_add_test(tr, test_rhs_glm_kinematics);
	tcase_add_test(tr, test_rhs_personality_lags);
	tcase_add_test(tr, test_rhs_errors);
	suite_add_tcase(s, tr);
	return s;
}
