/* tests/test_steer_fw_pf.c - the Fajen-Warren law (docs/steering-models.md eq. (13)) and the
 * potential field (section 3) against independent transcriptions of the document, in the manner
 * of tests/test_steer.c (its random scenes, declared in tests.h). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_deriv.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_rng.h>

#include "swerve/core.h"
#include "swerve/steer.h"
#include "emit_util.h"
#include "tests.h"

static double ref_fw(const sw_fw_params *p, const sw_situation *s, double phi, double phidot,
		     double *scale)
{
	double acc = -p->b * phidot;
	*scale = fabs(acc);
	if (s->has_target) {
		double dg = sqrt(pow(s->tx - s->x, 2) + pow(s->ty - s->y, 2));
		double g = p->kg * test_ref_wrap(phi - atan2(s->ty - s->y, s->tx - s->x)) *
			   (exp(-p->c1 * dg) + p->c2);
		acc -= g;
		*scale += fabs(g);
	}
	for (int i = 0; i < s->n_obs; i++) {
		double e = test_ref_wrap(phi - atan2(s->obs[i].dy, s->obs[i].dx));
		double o = p->ko * e * exp(-p->c3 * fabs(e)) * exp(-p->c4 * s->obs[i].dist);
		acc += o;
		*scale += fabs(o);
	}
	return acc;
}

START_TEST(test_fw_matches_eq13)
{
	gsl_rng *r = et_rng_new(21);
	test_scene sc;
	sw_glm_params g = sw_default_glm_params();
	for (int k = 0; k < TEST_STEER_N_RANDOM; k++) {
		sw_fw_params p = sw_default_fw_params();
		p.c4 = et_unif(r, 0.4, 1.6);
		p.c3 = et_unif(r, 3, 10);
		test_random_scene(r, &g, &sc);
		double phi = et_unif(r, -3 * PI, 3 * PI), w = et_unif(r, -2, 2), scale;
		double ref = ref_fw(&p, &sc.s, phi, w, &scale);
		ck_close(sw_fw_accel(&p, &sc.s, phi, w), ref, 1e-12 * scale + 1e-300);
	}
	gsl_rng_free(r);
}
END_TEST

START_TEST(test_fw_goal_only_converges)
{
	/* Agent fixed at the origin, goal 4 m away at 20 deg; RK4 on (phi, phi'). */
	sw_fw_params p = sw_default_fw_params();
	double psi = 20.0 * PI / 180.0;
	sw_situation s = {0.0, 0.0, 0.25, 1, 4.0 * cos(psi), 4.0 * sin(psi), 0, NULL, NULL, 0};
	/* Sign: phi'' pushes toward the goal from either side. */
	ck_assert(sw_fw_accel(&p, &s, 0.0, 0.0) > 0.0);
	ck_assert(sw_fw_accel(&p, &s, 2 * psi, 0.0) < 0.0);
	ck_close(sw_fw_accel(&p, &s, psi, 0.0), 0.0, 1e-15);
	/* The goal term is linear here: phi'' = -b phi' - k (phi - psi), k = kg (e^{-c1 d} + c2).
	 */
	double k = p.kg * (exp(-p.c1 * 4.0) + p.c2);
	double om = sqrt(k - 0.25 * p.b * p.b);
	double y[2] = {0.0, 0.0}, h = 1e-3;
	for (int n = 1; n <= 10000; n++) {
		double k1[2], k2[2], k3[2], k4[2], z[2];
		k1[0] = y[1];
		k1[1] = sw_fw_accel(&p, &s, y[0], y[1]);
		z[0] = y[0] + 0.5 * h * k1[0];
		z[1] = y[1] + 0.5 * h * k1[1];
		k2[0] = z[1];
		k2[1] = sw_fw_accel(&p, &s, z[0], z[1]);
		z[0] = y[0] + 0.5 * h * k2[0];
		z[1] = y[1] + 0.5 * h * k2[1];
		k3[0] = z[1];
		k3[1] = sw_fw_accel(&p, &s, z[0], z[1]);
		z[0] = y[0] + h * k3[0];
		z[1] = y[1] + h * k3[1];
		k4[0] = z[1];
		k4[1] = sw_fw_accel(&p, &s, z[0], z[1]);
		for (int j = 0; j < 2; j++)
			y[j] += h / 6.0 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
		if (n == 1000) { /* t = 1: the closed-form damped oscillation */
			double t = 1.0;
			double exact = psi - psi * exp(-0.5 * p.b * t) *
						 (cos(om * t) + 0.5 * p.b / om * sin(om * t));
			ck_close(y[0], exact, 1e-9);
		}
	}
	ck_close(y[0], psi, 1e-6);
	ck_close(y[1], 0.0, 1e-6);
}
END_TEST

START_TEST(test_fw_obstacle_peak)
{
	/* One point obstacle straight along +x, 2 m away, no goal: |phi''| peaks at |phi| = 1/c3.
	 */
	sw_fw_params p = sw_default_fw_params();
	sw_percept o = {2.0, 0.0, 2.0, 0.0, 2.0, 0, 0.0, 0.0};
	sw_situation s = {0.0, 0.0, 0.25, 0, 0.0, 0.0, 1, &o, NULL, 0};
	double peak = 1.0 / p.c3;
	double a0 = sw_fw_accel(&p, &s, peak, 0.0);
	ck_close(a0, p.ko * peak * exp(-1.0) * exp(-p.c4 * 2.0), 1e-12 * a0);
	ck_assert(a0 > 0.0); /* heading left of the obstacle turns further left */
	for (double d = 1e-3; d < 0.3; d *= 1.5) {
		ck_assert(sw_fw_accel(&p, &s, peak + d, 0.0) < a0);
		ck_assert(sw_fw_accel(&p, &s, peak - d, 0.0) < a0);
	}
	ck_close(sw_fw_accel(&p, &s, -peak, 0.0), -a0, 1e-12 * a0);
	/* Damping alone. */
	s.n_obs = 0;
	ck_close(sw_fw_accel(&p, &s, 0.3, 2.0), -p.b * 2.0, 0.0);
}
END_TEST

/* --- potential field ------------------------------------------------------------------------ */

typedef struct {
	double ox[8], oy[8], rad[8];
	int n;
	double ra, tx, ty;
	int has_target;
} pf_world;

static void pf_situation(const pf_world *w, double x, double y, sw_percept *obs, sw_situation *s)
{
	memset(s, 0, sizeof *s);
	s->x = x;
	s->y = y;
	s->radius = w->ra;
	s->has_target = w->has_target;
	s->tx = w->tx;
	s->ty = w->ty;
	s->n_obs = w->n;
	s->obs = obs;
	for (int i = 0; i < w->n; i++) {
		obs[i].dx = w->ox[i] - x;
		obs[i].dy = w->oy[i] - y;
		obs[i].dist = hypot(obs[i].dx, obs[i].dy);
		obs[i].rho = w->rad[i];
		obs[i].clearance = obs[i].dist - w->rad[i] - w->ra;
		obs[i].id = i;
	}
}

static double ref_potential(const sw_pf_params *p, const pf_world *w, double x, double y)
{
	double u = 0.0;
	if (w->has_target)
		u = 0.5 * p->kp * ((x - w->tx) * (x - w->tx) + (y - w->ty) * (y - w->ty));
	for (int i = 0; i < w->n; i++) {
		double rho = sqrt(pow(w->ox[i] - x, 2) + pow(w->oy[i] - y, 2)) - w->rad[i] - w->ra;
		if (rho < p->r_floor)
			rho = p->r_floor;
		if (rho <= p->rho0)
			u += 0.5 * p->eta * pow(1.0 / rho - 1.0 / p->rho0, 2);
	}
	return u;
}

START_TEST(test_pf_gradient_matches_finite_differences)
{
	gsl_rng *r = et_rng_new(22);
	sw_pf_params p = sw_default_pf_params();
	int checked = 0;
	for (int k = 0; k < TEST_STEER_N_RANDOM; k++) {
		pf_world w;
		memset(&w, 0, sizeof w);
		p.kp = et_unif(r, 0.1, 2);
		p.eta = et_unif(r, 0.1, 2);
		p.rho0 = et_unif(r, 0.5, 2);
		w.ra = et_unif(r, 0, 0.4);
		w.has_target = k % 5 != 0;
		w.tx = et_unif(r, -5, 5);
		w.ty = et_unif(r, -5, 5);
		w.n = (int)gsl_rng_uniform_int(r, 8);
		double x = et_unif(r, -2, 2), y = et_unif(r, -2, 2);
		int ok = 1;
		for (int i = 0; i < w.n; i++) {
			double a = et_unif(r, -PI, PI);
			w.rad[i] = et_unif(r, 0, 0.6);
			double dist = w.rad[i] + w.ra + et_unif(r, 0.05, 2.5);
			w.ox[i] = x + dist * cos(a);
			w.oy[i] = y + dist * sin(a);
			double rho = dist - w.rad[i] - w.ra;
			if (fabs(rho - p.rho0) < 1e-3)
				ok = 0;
		}
		if (!ok)
			continue;
		sw_percept obs[8];
		sw_situation s;
		pf_situation(&w, x, y, obs, &s);
		double g[2];
		sw_pf_gradient(&p, &s, g);
		double h = 1e-6;
		double gx =
		    (ref_potential(&p, &w, x + h, y) - ref_potential(&p, &w, x - h, y)) / (2 * h);
		double gy =
		    (ref_potential(&p, &w, x, y + h) - ref_potential(&p, &w, x, y - h)) / (2 * h);
		double sc = 1.0 + fabs(gx) + fabs(gy);
		ck_close(g[0], gx, 1e-5 * sc);
		ck_close(g[1], gy, 1e-5 * sc);
		checked++;
	}
	ck_assert_int_gt(checked, TEST_STEER_N_RANDOM / 2);
	gsl_rng_free(r);
}
END_TEST

START_TEST(test_pf_pushes_away_and_pulls_to_goal)
{
	sw_pf_params p = sw_default_pf_params();
	/* Obstacle east at clearance 0.5 < rho0: -grad points west. */
	sw_percept o = {1.0, 0.0, 1.0, 0.25, 0.5, 0, 0.0, 0.0};
	sw_situation s = {0.0, 0.0, 0.25, 0, 0.0, 0.0, 1, &o, NULL, 0};
	double g[2];
	sw_pf_gradient(&p, &s, g);
	ck_assert(g[0] > 0.0 && g[1] == 0.0);
	ck_close(g[0], p.eta * (1.0 / 0.5 - 1.0) / 0.25, 1e-14);
	/* Beyond rho0 it vanishes. */
	o.clearance = 1.5;
	sw_pf_gradient(&p, &s, g);
	ck_assert(g[0] == 0.0 && g[1] == 0.0);
	/* Goal only: grad = kp (p - goal). */
	s.n_obs = 0;
	s.has_target = 1;
	s.tx = 3.0;
	s.ty = -4.0;
	sw_pf_gradient(&p, &s, g);
	ck_close(g[0], -3.0, 0.0);
	ck_close(g[1], 4.0, 0.0);
}
END_TEST

/* The whole right-hand sides of FW and PF (src/steer/rhs.c). */
START_TEST(test_rhs_fw_and_pf)
{
	sw_steer_def d = sw_default_steer_def();
	sw_percept o = {2.0, 0.5, hypot(2.0, 0.5), 0.3, hypot(2.0, 0.5) - 0.55, 0, 0.0, 0.0};
	sw_situation s = {0.0, 0.0, 0.25, 1, 6.0, 1.0, 1, &o, NULL, 0};
	double y[SW_STATE_DIM] = {0.0, 0.0, 0.3, -0.2, 0.0, 0.0, 0.0};
	double dy[SW_STATE_DIM], scale;

	d.law = SW_LAW_FW;
	ck_assert_int_eq(sw_steer_rhs(&d, NULL, &s, y, dy, NULL), SW_SUCCESS);
	ck_close(dy[SW_STATE_PHI], -0.2, 0.0);
	ck_close(dy[SW_STATE_OMEGA], ref_fw(&d.fw, &s, 0.3, -0.2, &scale), 1e-12 * scale);
	ck_close(dy[SW_STATE_X], cos(0.3), 1e-15);
	ck_close(dy[SW_STATE_Y], sin(0.3), 1e-15);
	ck_assert(dy[SW_STATE_V] == 0.0 && dy[SW_STATE_WTAR] == 0.0 && dy[SW_STATE_WOBS] == 0.0);
	sw_steer_algebraic(&d, NULL, &s, y);
	ck_assert(y[SW_STATE_V] == d.fw.speed);

	d.law = SW_LAW_PF;
	double g[2];
	sw_pf_gradient(&d.pf, &s, g);
	double n = hypot(g[0], g[1]);
	ck_assert_int_eq(sw_steer_rhs(&d, NULL, &s, y, dy, NULL), SW_SUCCESS);
	ck_close(dy[SW_STATE_X], -d.pf.speed * g[0] / n, 1e-15);
	ck_close(dy[SW_STATE_Y], -d.pf.speed * g[1] / n, 1e-15);
	ck_assert(dy[SW_STATE_PHI] == 0.0 && dy[SW_STATE_OMEGA] == 0.0);
	sw_steer_algebraic(&d, NULL, &s, y);
	ck_close(y[SW_STATE_PHI], atan2(-g[1], -g[0]), 0.0);
	ck_assert(y[SW_STATE_V] == d.pf.speed);
	/* A vanishing gradient keeps the heading. */
	s.has_target = 0;
	s.n_obs = 0;
	y[SW_STATE_PHI] = 1.234;
	ck_assert_int_eq(sw_steer_rhs(&d, NULL, &s, y, dy, NULL), SW_SUCCESS);
	ck_close(dy[SW_STATE_X], d.pf.speed * cos(1.234), 1e-15);
	ck_close(dy[SW_STATE_Y], d.pf.speed * sin(1.234), 1e-15);
	sw_steer_algebraic(&d, NULL, &s, y);
	ck_assert(y[SW_STATE_PHI] == 1.234);
}
END_TEST

Suite *steer_fw_pf_suite(void)
{
	Suite *s = suite_create("steer_fw_pf");
	TCase *tf = tcase_create("fw_pf");
	tcase_add_test(tf, test_fw_matches_eq13);
	tcase_add_test(tf, test_fw_goal_only_converges);
	tcase_add_test(tf, test_fw_obstacle_peak);
	tcase_add_test(tf, test_pf_gradient_matches_finite_differences);
	tcase_add_test(tf, test_pf_pushes_away_and_pulls_to_goal);
	tcase_add_test(tf, test_rhs_fw_and_pf);
	suite_add_tcase(s, tf);
	return s;
}
