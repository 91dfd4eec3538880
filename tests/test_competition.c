/* tests/test_competition.c - the GLM constraint competition (8): fixed points, their stability
 * table (docs/steering-models.md, section 1.2) and the relaxation.
 *
 * Fixed points and eigenvalues are compared with closed forms (A1, A2; the diagonal Jacobians on
 * the axes; trace and determinant at the interior point) and with an independent numeric
 * Jacobian diagonalised by GSL.  The relaxation is compared with the table in the monostable
 * regimes and, in the bistable regime, with the end point of a long, tight explicit integration
 * (GSL rk8pd) of (8) written here. */
#include <math.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_rng.h>

#include "swerve/core.h"
#include "swerve/steer.h"
#include "tests.h"

typedef enum { COEXIST, OBSTACLE, TARGET, BISTABLE } regime;

static double unif(gsl_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * gsl_rng_uniform(r);
}

/* Random parameters (all positive) in a regime of the stability table. */
static void random_params(gsl_rng *r, regime g, double *a1, double *a2, double *g12, double *g21)
{
	*a1 = unif(r, 0.02, 1.0);
	*a2 = unif(r, 0.02, 1.0);
	int t_in = g == COEXIST || g == TARGET, o_in = g == COEXIST || g == OBSTACLE;
	*g12 = *a1 * (t_in ? unif(r, 0.0, 0.95) : unif(r, 1.05, 6.0));
	*g21 = *a2 * (o_in ? unif(r, 0.0, 0.95) : unif(r, 1.05, 6.0));
}

/* (8), written independently. */
static void rhs8(double a1, double a2, double g12, double g21, const double w[2], double f[2])
{
	f[0] = a1 * w[0] * (1.0 - w[0] * w[0]) - g12 * w[1] * w[1] * w[0];
	f[1] = a2 * w[1] * (1.0 - w[1] * w[1]) - g21 * w[0] * w[0] * w[1];
}

/* Eigenvalues (sorted by decreasing real part) of the central-difference Jacobian of (8). */
static void numeric_eigen(double a1, double a2, double g12, double g21, double wt, double wo,
			  double re[2], double im[2])
{
	double jac[4], h = 1e-6;
	for (int j = 0; j < 2; j++) {
		double wp[2] = {wt, wo}, wm[2] = {wt, wo}, fp[2], fm[2];
		wp[j] += h;
		wm[j] -= h;
		rhs8(a1, a2, g12, g21, wp, fp);
		rhs8(a1, a2, g12, g21, wm, fm);
		for (int i = 0; i < 2; i++)
			jac[2 * i + j] = (fp[i] - fm[i]) / (2 * h);
	}
	double ev[4];
	gsl_matrix_view m = gsl_matrix_view_array(jac, 2, 2);
	gsl_vector_complex_view v = gsl_vector_complex_view_array(ev, 2);
	gsl_eigen_nonsymm_workspace *ws = gsl_eigen_nonsymm_alloc(2);
	gsl_eigen_nonsymm(&m.matrix, &v.vector, ws);
	gsl_eigen_nonsymm_free(ws);
	int k = ev[0] >= ev[2] ? 0 : 1;
	re[0] = ev[2 * k];
	im[0] = ev[2 * k + 1];
	re[1] = ev[2 * (1 - k)];
	im[1] = ev[2 * (1 - k) + 1];
}

/* Closed-form eigenvalues from trace and determinant, sorted like the library's. */
static void eig_from_trace_det(double tr, double det, double re[2], double im[2])
{
	double disc = tr * tr - 4.0 * det;
	if (disc >= 0.0) {
		re[0] = 0.5 * (tr + sqrt(disc));
		re[1] = 0.5 * (tr - sqrt(disc));
		im[0] = im[1] = 0.0;
	} else {
		re[0] = re[1] = 0.5 * tr;
		im[0] = 0.5 * sqrt(-disc);
		im[1] = -im[0];
	}
}

static void check_eigs(const sw_fixed_point *fp, const double re[2], const double im[2], double tol)
{
	ck_close(fp->eig_re[0], re[0], tol);
	ck_close(fp->eig_re[1], re[1], tol);
	/* The order of a conjugate pair is not specified: compare magnitudes. */
	ck_close(fabs(fp->eig_im[0]), fabs(im[0]), tol);
	ck_close(fabs(fp->eig_im[1]), fabs(im[1]), tol);
}

START_TEST(test_weights_rhs_matches_eq8)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 31);
	for (int k = 0; k < 2000; k++) {
		double a1 = unif(r, 0, 1), a2 = unif(r, 0, 1), g12 = unif(r, 0, 50),
		       g21 = unif(r, 0, 1);
		double w[2] = {unif(r, -2, 2), unif(r, -2, 2)}, f[2], g[2];
		sw_glm_weights_rhs(a1, a2, g12, g21, w, f);
		rhs8(a1, a2, g12, g21, w, g);
		ck_close(f[0], g[0], 1e-13 * (1 + fabs(g[0])));
		ck_close(f[1], g[1], 1e-13 * (1 + fabs(g[1])));
		/* Odd in each weight. */
		double wn[2] = {-w[0], w[1]};
		sw_glm_weights_rhs(a1, a2, g12, g21, wn, g);
		ck_assert(g[0] == -f[0] && g[1] == f[1]);
	}
	gsl_rng_free(r);
}
END_TEST

START_TEST(test_fixed_points_match_table)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 32);
	for (int k = 0; k < 2000; k++) {
		regime g = (regime)(k % 4);
		double a1, a2, g12, g21;
		random_params(r, g, &a1, &a2, &g12, &g21);
		sw_fixed_point fp[4];
		int n = -1;
		ck_assert_int_eq(sw_glm_fixed_points(a1, a2, g12, g21, fp, &n), SW_SUCCESS);
		int interior = g == COEXIST || g == BISTABLE;
		ck_assert_int_eq(n, interior ? 4 : 3);
		double re[2], im[2], nre[2], nim[2];

		/* (0,0): eigenvalues a1, a2; never stable. */
		ck_assert(fp[0].w_tar == 0.0 && fp[0].w_obs == 0.0);
		re[0] = fmax(a1, a2);
		re[1] = fmin(a1, a2);
		im[0] = im[1] = 0.0;
		check_eigs(&fp[0], re, im, 1e-13);
		ck_assert(!fp[0].stable);

		/* (0,1): a1 - g12 and -2 a2; stable when g12 > a1 and a2 > 0. */
		ck_assert(fp[1].w_tar == 0.0 && fp[1].w_obs == 1.0);
		re[0] = fmax(a1 - g12, -2 * a2);
		re[1] = fmin(a1 - g12, -2 * a2);
		check_eigs(&fp[1], re, im, 1e-13);
		ck_assert_int_eq(fp[1].stable, g12 > a1 && a2 > 0);

		/* (1,0): -2 a1 and a2 - g21; stable when g21 > a2 and a1 > 0. */
		ck_assert(fp[2].w_tar == 1.0 && fp[2].w_obs == 0.0);
		re[0] = fmax(-2 * a1, a2 - g21);
		re[1] = fmin(-2 * a1, a2 - g21);
		check_eigs(&fp[2], re, im, 1e-13);
		ck_assert_int_eq(fp[2].stable, g21 > a2 && a1 > 0);

		if (!interior)
			continue;
		/* (A1, A2); J = [[-2 a1 u, -2 g12 A1 A2], [-2 g21 A1 A2, -2 a2 s]] there, so
		 * trace -2 (a1 u + a2 s) and determinant 4 u s (a1 a2 - g12 g21). */
		double det = a1 * a2 - g12 * g21;
		double A1 = sqrt(a2 * (a1 - g12) / det), A2 = sqrt(a1 * (a2 - g21) / det);
		ck_close(fp[3].w_tar, A1, 1e-12 * A1);
		ck_close(fp[3].w_obs, A2, 1e-12 * A2);
		double u = A1 * A1, s = A2 * A2;
		eig_from_trace_det(-2 * (a1 * u + a2 * s), 4 * u * s * det, re, im);
		double sc = 1e-10 * (a1 + a2 + g12 + g21);
		check_eigs(&fp[3], re, im, sc);
		numeric_eigen(a1, a2, g12, g21, A1, A2, nre, nim);
		check_eigs(&fp[3], nre, nim, 1e-7 * (a1 + a2 + g12 + g21));
		/* Stable exactly in the averaging regime (a1 > g12, a2 > g21, both g positive). */
		ck_assert_int_eq(fp[3].stable, g == COEXIST);
	}
	gsl_rng_free(r);
}
END_TEST

START_TEST(test_fixed_points_mutualistic_and_errors)
{
	/* g12 g21 < 0 with a1 > g12, a2 > g21: the averaging point exists and is stable. */
	sw_fixed_point fp[4];
	int n;
	ck_assert_int_eq(sw_glm_fixed_points(0.3, 0.5, 0.1, -0.2, fp, &n), SW_SUCCESS);
	ck_assert_int_eq(n, 4);
	ck_assert(fp[3].stable);
	double w[2] = {0.3, 0.3};
	ck_assert_int_eq(sw_glm_relax(0.3, 0.5, 0.1, -0.2, w), SW_SUCCESS);
	ck_close(w[0], fp[3].w_tar, 1e-14);
	ck_close(w[1], fp[3].w_obs, 1e-14);
	ck_assert_int_eq(sw_glm_fixed_points(NAN, 0.5, 0.1, 0.2, fp, &n), SW_ENUMERIC);
	ck_assert_int_eq(sw_glm_fixed_points(0.3, 0.5, 0.1, 0.2, NULL, &n), SW_EUSAGE);
}
END_TEST

START_TEST(test_relax_monostable_selects_table_point)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 33);
	for (int k = 0; k < 3000; k++) {
		regime g = (regime)(k % 3); /* COEXIST, OBSTACLE, TARGET */
		double a1, a2, g12, g21;
		random_params(r, g, &a1, &a2, &g12, &g21);
		double w[2] = {unif(r, 1e-3, 1.5), unif(r, 1e-3, 1.5)};
		if (k % 5 == 0)
			w[0] = -w[0]; /* signs are ignored */
		ck_assert_int_eq(sw_glm_relax(a1, a2, g12, g21, w), SW_SUCCESS);
		if (g == COEXIST) {
			double det = a1 * a2 - g12 * g21;
			ck_close(w[0], sqrt(a2 * (a1 - g12) / det), 1e-12);
			ck_close(w[1], sqrt(a1 * (a2 - g21) / det), 1e-12);
		} else if (g == OBSTACLE) {
			ck_assert(w[0] == 0.0 && w[1] == 1.0);
		} else {
			ck_assert(w[0] == 1.0 && w[1] == 0.0);
		}
	}
	gsl_rng_free(r);
}
END_TEST

/* Long explicit integration of (8): the stable point reached (0: target, 1: obstacle), -1 when
 * not within 1e-6 of either by t_max. */
typedef struct {
	double a1, a2, g12, g21;
} par8;

static int ode8(double t, const double y[], double f[], void *p)
{
	(void)t;
	const par8 *c = p;
	rhs8(c->a1, c->a2, c->g12, c->g21, y, f);
	return GSL_SUCCESS;
}

static int reference_end(double a1, double a2, double g12, double g21, const double w0[2],
			 double t_max, double end[2])
{
	par8 c = {a1, a2, g12, g21};
	gsl_odeiv2_system sys = {ode8, NULL, 2, &c};
	gsl_odeiv2_driver *d =
	    gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-6, 1e-13, 1e-13);
	gsl_odeiv2_driver_set_nmax(d, 10000000);
	double y[2] = {fabs(w0[0]), fabs(w0[1])}, t = 0.0;
	int res = -1;
	for (double t1 = 1.0; t1 <= t_max; t1 *= 2.0) {
		if (gsl_odeiv2_driver_apply(d, &t, t1, y) != GSL_SUCCESS)
			break;
		if (hypot(y[0] - 1.0, y[1]) < 1e-6) {
			res = 0;
			break;
		}
		if (hypot(y[0], y[1] - 1.0) < 1e-6) {
			res = 1;
			break;
		}
	}
	gsl_odeiv2_driver_free(d);
	if (end) {
		end[0] = y[0];
		end[1] = y[1];
	}
	return res;
}

START_TEST(test_relax_bistable_follows_integration)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 34);
	int compared = 0, undecided_starts = 0, ends[2] = {0, 0};
	sw_relax_ws *ws = sw_relax_ws_alloc();
	ck_assert_ptr_nonnull(ws);
	for (int k = 0; k < 400; k++) {
		double a1, a2, g12, g21;
		random_params(r, BISTABLE, &a1, &a2, &g12, &g21);
		a1 = fmax(a1, 0.1);
		a2 = fmax(a2, 0.1);
		g12 = fmax(g12, 1.05 * a1);
		g21 = fmax(g21, 1.05 * a2);
		/* Starts of three kinds: near zero (the restart option), both large, anywhere. */
		double w[2];
		if (k % 3 == 0) {
			w[0] = unif(r, 1e-3, 0.05);
			w[1] = unif(r, 1e-3, 0.05);
		} else if (k % 3 == 1) {
			w[0] = unif(r, 0.8, 1.5);
			w[1] = unif(r, 0.8, 1.5);
		} else {
			w[0] = unif(r, 1e-3, 1.5);
			w[1] = unif(r, 1e-3, 1.5);
		}
		double det = a1 * a2 - g12 * g21;
		double us = a2 * (a1 - g12) / det, ss = a1 * (a2 - g21) / det;
		double u = w[0] * w[0], s = w[1] * w[1];
		if ((u - us) * (s - ss) > 0.0)
			undecided_starts++;
		double w0[2] = {w[0], w[1]};
		int ref = reference_end(a1, a2, g12, g21, w0, 1e5, NULL);
		ck_assert_int_eq(sw_glm_relax(a1, a2, g12, g21, w), SW_SUCCESS);
		/* The workspace variant (one driver reused for all 400 cases, as a simulator
		 * thread does) gives the same bits as a fresh driver per call. */
		double wws[2] = {w0[0], w0[1]};
		ck_assert_int_eq(sw_glm_relax_ws(a1, a2, g12, g21, wws, ws), SW_SUCCESS);
		ck_assert_msg(wws[0] == w[0] && wws[1] == w[1] && signbit(wws[0]) == signbit(w[0]),
			      "case %d: workspace (%.17g, %.17g) vs fresh (%.17g, %.17g)", k,
			      wws[0], wws[1], w[0], w[1]);
		if (ref < 0)
			continue; /* too close to the separatrix for the reference */
		compared++;
		ends[ref]++;
		ck_assert_msg(w[0] == (ref == 0 ? 1.0 : 0.0) && w[1] == (ref == 0 ? 0.0 : 1.0),
			      "a=(%g,%g) g=(%g,%g) start (%g,%g): got (%g,%g), reference %s", a1,
			      a2, g12, g21, w0[0], w0[1], w[0], w[1], ref ? "(0,1)" : "(1,0)");
	}
	ck_assert_int_gt(compared, 380);
	ck_assert_int_gt(undecided_starts, 100); /* the integrating branch was exercised */
	ck_assert_int_gt(ends[0], 20);
	sw_relax_ws_free(ws);
	ck_assert_int_gt(ends[1], 20);
	gsl_rng_free(r);
}
END_TEST

START_TEST(test_relax_stiff)
{
	/* sum W large: g12 in the thousands.  Monostable (obstacle wins) and bistable (a2 < g21).
	 */
	double w[2] = {0.7, 0.2};
	ck_assert_int_eq(sw_glm_relax(0.2, 0.6, 3000.0, 0.05, w), SW_SUCCESS);
	ck_assert(w[0] == 0.0 && w[1] == 1.0);
	double starts[4][2] = {{0.01, 0.01}, {1.0, 1.0}, {1.2, 0.05}, {0.9, 0.011}};
	for (int k = 0; k < 4; k++) {
		double a1 = 0.3, a2 = 0.01, g12 = 2500.0 + 500.0 * k, g21 = 0.05;
		w[0] = starts[k][0];
		w[1] = starts[k][1];
		ck_assert_int_eq(sw_glm_relax(a1, a2, g12, g21, w), SW_SUCCESS);
		ck_assert(isfinite(w[0]) && isfinite(w[1]));
		ck_assert((w[0] == 1.0 && w[1] == 0.0) || (w[0] == 0.0 && w[1] == 1.0));
		double end[2];
		int ref = reference_end(a1, a2, g12, g21, starts[k], 1e4, end);
		if (ref >= 0)
			ck_assert(w[0] == (ref == 0 ? 1.0 : 0.0));
	}
}
END_TEST

START_TEST(test_relax_degenerate_edges)
{
	double w[2];
	/* No obstacles (a2 = 0): obstacle weight off, target on. */
	w[0] = 0.2;
	w[1] = 0.7;
	ck_assert_int_eq(sw_glm_relax(0.4, 0.0, 0.13, 0.05, w), SW_SUCCESS);
	ck_assert(w[0] == 1.0 && w[1] == 0.0);
	/* a1 = 0 (a2 = tanh(sum D) = 1): only avoidance. */
	w[0] = 0.9;
	w[1] = 0.1;
	ck_assert_int_eq(sw_glm_relax(0.0, 1.0, 0.5, 0.05, w), SW_SUCCESS);
	ck_assert(w[0] == 0.0 && w[1] == 1.0);
	/* Starts on an axis stay on it; (0, 0) stays. */
	w[0] = 0.0;
	w[1] = 0.3;
	ck_assert_int_eq(sw_glm_relax(0.4, 0.5, 0.1, 0.05, w), SW_SUCCESS);
	ck_assert(w[0] == 0.0 && w[1] == 1.0);
	w[0] = 0.3;
	w[1] = 0.0;
	ck_assert_int_eq(sw_glm_relax(0.4, 0.5, 0.1, 0.05, w), SW_SUCCESS);
	ck_assert(w[0] == 1.0 && w[1] == 0.0);
	w[0] = w[1] = 0.0;
	ck_assert_int_eq(sw_glm_relax(0.4, 0.5, 0.1, 0.05, w), SW_SUCCESS);
	ck_assert(w[0] == 0.0 && w[1] == 0.0);
	/* a1 == g12: decided by a2 versus g21 (second order), as the integration shows. */
	double ws[2] = {0.5, 0.5}, end[2];
	w[0] = w[1] = 0.5;
	ck_assert_int_eq(sw_glm_relax(0.3, 0.5, 0.3, 0.05, w), SW_SUCCESS);
	ck_assert(w[0] == 0.0 && w[1] == 1.0);
	reference_end(0.3, 0.5, 0.3, 0.05, ws, 1e4, end);
	ck_assert(end[0] < 0.05 && fabs(end[1] - 1.0) < 1e-3);
	w[0] = w[1] = 0.5;
	ck_assert_int_eq(sw_glm_relax(0.3, 0.2, 0.3, 0.6, w), SW_SUCCESS);
	ck_assert(w[0] == 1.0 && w[1] == 0.0);
	/* Both equalities: a line of fixed points u + s = 1; the end point matches integration. */
	double starts[3][2] = {{0.2, 0.4}, {1.3, 0.1}, {0.05, 0.9}};
	for (int k = 0; k < 3; k++) {
		w[0] = starts[k][0];
		w[1] = starts[k][1];
		ck_assert_int_eq(sw_glm_relax(0.4, 0.3, 0.4, 0.3, w), SW_SUCCESS);
		ck_close(w[0] * w[0] + w[1] * w[1], 1.0, 1e-12);
		double cv =
		    0.3 * log(starts[k][0] * starts[k][0]) - 0.4 * log(starts[k][1] * starts[k][1]);
		ck_close(0.3 * log(w[0] * w[0]) - 0.4 * log(w[1] * w[1]), cv, 1e-9);
		par8 c = {0.4, 0.3, 0.4, 0.3};
		gsl_odeiv2_system sys = {ode8, NULL, 2, &c};
		gsl_odeiv2_driver *d =
		    gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-6, 1e-13, 1e-13);
		double y[2] = {starts[k][0], starts[k][1]}, t = 0.0;
		gsl_odeiv2_driver_apply(d, &t, 200.0, y);
		gsl_odeiv2_driver_free(d);
		ck_close(w[0], y[0], 1e-8);
		ck_close(w[1], y[1], 1e-8);
	}
	/* Errors: non-finite input, NULL, unbounded mutualism. */
	w[0] = w[1] = 0.5;
	ck_assert_int_eq(sw_glm_relax(NAN, 0.5, 0.1, 0.05, w), SW_ENUMERIC);
	ck_assert_int_eq(sw_glm_relax(0.4, 0.5, NAN, 0.05, w), SW_ENUMERIC);
	ck_assert_int_eq(sw_glm_relax(0.4, 0.5, INFINITY, INFINITY, w), SW_ENUMERIC);
	/* An overflowed competition coefficient (dense packs): complete suppression. */
	w[0] = w[1] = 0.5;
	ck_assert_int_eq(sw_glm_relax(0.4, 0.5, INFINITY, 0.05, w), SW_SUCCESS);
	ck_assert(w[0] == 0.0 && w[1] == 1.0);
	w[0] = w[1] = 0.5;
	ck_assert_int_eq(sw_glm_relax(0.4, 0.5, 0.1, INFINITY, w), SW_SUCCESS);
	ck_assert(w[0] == 1.0 && w[1] == 0.0);
	/* Finite coefficients too large for any time step (the bistable branch's start step would
	 * be 0, which GSL reports through its aborting handler): the stronger suppression wins. */
	w[0] = w[1] = 0.5;
	ck_assert_int_eq(sw_glm_relax(0.5, 0.5, 1e308, 1e307, w), SW_SUCCESS);
	ck_assert(w[0] == 0.0 && w[1] == 1.0);
	w[0] = w[1] = 0.5;
	ck_assert_int_eq(sw_glm_relax(0.5, 0.5, 1e307, 1e308, w), SW_SUCCESS);
	ck_assert(w[0] == 1.0 && w[1] == 0.0);
	ck_assert_int_eq(sw_glm_relax(0.4, 0.5, 0.1, 0.05, NULL), SW_EUSAGE);
	w[0] = w[1] = 0.5;
	ck_assert_int_eq(sw_glm_relax(1.0, 1.0, -2.0, -2.0, w), SW_EUSAGE);
}
END_TEST

Suite *competition_suite(void)
{
	Suite *s = suite_create("competition");
	TCase *tc = tcase_create("fixed_points");
	tcase_add_test(tc, test_weights_rhs_matches_eq8);
	tcase_add_test(tc, test_fixed_points_match_table);
	tcase_add_test(tc, test_fixed_points_mutualistic_and_errors);
	suite_add_tcase(s, tc);
	TCase *tr = tcase_create("relax");
	tcase_set_timeout(tr, 120);
	tcase_add_test(tr, test_relax_monostable_selects_table_point);
	tcase_add_test(tr, test_relax_bistable_follows_integration);
	tcase_add_test(tr, test_relax_stiff);
	tcase_add_test(tr, test_relax_degenerate_edges);
	suite_add_tcase(s, tr);
	return s;
}
