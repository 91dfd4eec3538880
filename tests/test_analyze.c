/* tests/test_analyze.c - the k-class competition analysis (11), sw_competition_kclass().
 *
 * k = 2 is checked against the closed forms of the stability table (docs/steering-models.md,
 * section 1.2) and against sw_glm_fixed_points(); k = 3 by direct substitution (rhs(11) = 0 at
 * every reported point) and against a numeric (central-difference) Jacobian diagonalised here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>

#include "swerve/core.h"
#include "swerve/steer.h"
#include "tests.h"

static double unif(gsl_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * gsl_rng_uniform(r);
}

/* rhs of (11). */
static void rhs11(int k, const double *a, const double *g, const double *w, double *dw)
{
	for (int i = 0; i < k; i++) {
		double s = 0.0;
		for (int j = 0; j < k; j++)
			if (j != i)
				s += g[i * k + j] * w[j] * w[j];
		dw[i] = a[i] * w[i] * (1.0 - w[i] * w[i]) - s * w[i];
	}
}

/* Eigenvalues of the central-difference Jacobian of (11) at w, sorted by decreasing real part
 * (then imaginary part), into re[k], im[k]. */
static void numeric_eigs(int k, const double *a, const double *g, const double *w, double *re,
			 double *im)
{
	double jac[SW_KCLASS_MAX * SW_KCLASS_MAX], ev[2 * SW_KCLASS_MAX];
	double wp[SW_KCLASS_MAX], fp[SW_KCLASS_MAX], fm[SW_KCLASS_MAX];
	const double h = 1e-6;
	for (int j = 0; j < k; j++) {
		memcpy(wp, w, sizeof(double) * (size_t)k);
		wp[j] = w[j] + h;
		rhs11(k, a, g, wp, fp);
		wp[j] = w[j] - h;
		rhs11(k, a, g, wp, fm);
		for (int i = 0; i < k; i++)
			jac[i * k + j] = (fp[i] - fm[i]) / (2.0 * h);
	}
	gsl_matrix_view J = gsl_matrix_view_array(jac, (size_t)k, (size_t)k);
	gsl_vector_complex_view v = gsl_vector_complex_view_array(ev, (size_t)k);
	gsl_eigen_nonsymm_workspace *ws = gsl_eigen_nonsymm_alloc((size_t)k);
	ck_assert_ptr_nonnull(ws);
	ck_assert_int_eq(gsl_eigen_nonsymm(&J.matrix, &v.vector, ws), 0);
	gsl_eigen_nonsymm_free(ws);
	for (int i = 0; i < k; i++) {
		re[i] = ev[2 * i];
		im[i] = ev[2 * i + 1];
	}
	for (int i = 1; i < k; i++)
		for (int j = i; j > 0 && (re[j - 1] < re[j] || (re[j - 1] == re[j] && im[j - 1] < im[j]));
		     j--) {
			double t = re[j];
			re[j] = re[j - 1];
			re[j - 1] = t;
			t = im[j];
			im[j] = im[j - 1];
			im[j - 1] = t;
		}
}

static void check_flags(const sw_kfixed_point *p)
{
	int stable = 1;
	for (int i = 0; i < p->k; i++)
		if (!(p->eig_re[i] < 0.0))
			stable = 0;
	ck_assert_int_eq(p->stable, stable);
	for (int i = 1; i < p->k; i++)
		ck_assert(p->eig_re[i - 1] >= p->eig_re[i]);
}

static const sw_kfixed_point *find_point(const sw_kfixed_point *fp, int n, double wt, double wo)
{
	for (int i = 0; i < n; i++)
		if (fabs(fp[i].w[0] - wt) < 1e-9 && fabs(fp[i].w[1] - wo) < 1e-9)
			return &fp[i];
	return NULL;
}

/* k = 2: locations and eigenvalues against the table's closed forms and sw_glm_fixed_points. */
START_TEST(test_kclass_two_closed_forms)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 20261122);
	for (int trial = 0; trial < 2000; trial++) {
		double a1 = unif(r, 0.01, 1.0), a2 = unif(r, 0.01, 1.0);
		double g12 = trial % 4 == 3 ? exp(unif(r, -4.0, 4.0)) : unif(r, 0.0, 1.5);
		double g21 = unif(r, 0.0, 1.5);
		double a[2] = {a1, a2}, g[4] = {123.0, g12, g21, -77.0}; /* diagonal ignored */
		sw_kfixed_point fp[4];
		int n = -1;
		ck_assert_int_eq(sw_competition_kclass(2, a, g, fp, 4, &n), SW_SUCCESS);

		/* Closed forms: (0,0) eigenvalues a1, a2; (0,1): a1 - g12, -2 a2; (1,0): -2 a1,
		 * a2 - g21; interior (A1, A2) when both squares are positive. */
		double det = a1 * a2 - g12 * g21;
		double u = a2 * (a1 - g12) / det, s = a1 * (a2 - g21) / det;
		int interior = u > 0.0 && s > 0.0;
		ck_assert_int_eq(n, 3 + interior);
		const sw_kfixed_point *p = find_point(fp, n, 0.0, 0.0);
		ck_assert_ptr_nonnull(p);
		ck_close(p->eig_re[0], fmax(a1, a2), 1e-12);
		ck_close(p->eig_re[1], fmin(a1, a2), 1e-12);
		p = find_point(fp, n, 0.0, 1.0);
		ck_assert_ptr_nonnull(p);
		ck_close(p->eig_re[0], fmax(a1 - g12, -2.0 * a2), 1e-12);
		ck_close(p->eig_re[1], fmin(a1 - g12, -2.0 * a2), 1e-12);
		ck_assert_int_eq(p->stable, g12 > a1 && a2 > 0.0);
		p = find_point(fp, n, 1.0, 0.0);
		ck_assert_ptr_nonnull(p);
		ck_close(p->eig_re[0], fmax(-2.0 * a1, a2 - g21), 1e-12);
		ck_close(p->eig_re[1], fmin(-2.0 * a1, a2 - g21), 1e-12);
		ck_assert_int_eq(p->stable, g21 > a2 && a1 > 0.0);
		if (interior) {
			double A1 = sqrt(u), A2 = sqrt(s);
			p = find_point(fp, n, A1, A2);
			ck_assert_ptr_nonnull(p);
			/* Jacobian at the interior point: -2 a1 A1^2, -2 g12 A1 A2 / -2 g21 A1 A2,
			 * -2 a2 A2^2: trace and determinant. */
			double tr = -2.0 * (a1 * u + a2 * s), dt = 4.0 * u * s * det;
			ck_close(p->eig_re[0] + p->eig_re[1], tr, 1e-9 * (1.0 + fabs(tr)));
			double prod = p->eig_re[0] * p->eig_re[1] + p->eig_im[0] * p->eig_im[0];
			ck_close(prod, dt, 1e-9 * (1.0 + fabs(dt)));
			ck_assert_int_eq(p->stable, a1 > g12 && a2 > g21);
		}
		for (int i = 0; i < n; i++)
			check_flags(&fp[i]);

		/* Agreement with sw_glm_fixed_points. */
		sw_fixed_point gp[4];
		int gn = -1;
		ck_assert_int_eq(sw_glm_fixed_points(a1, a2, g12, g21, gp, &gn), SW_SUCCESS);
		ck_assert_int_eq(gn, n);
		for (int i = 0; i < gn; i++) {
			p = find_point(fp, n, gp[i].w_tar, gp[i].w_obs);
			ck_assert_ptr_nonnull(p);
			for (int e = 0; e < 2; e++) {
				ck_close(p->eig_re[e], gp[i].eig_re[e], 1e-10 * (1.0 + fabs(gp[i].eig_re[e])));
				ck_close(fabs(p->eig_im[e]), fabs(gp[i].eig_im[e]), 1e-10 * (1.0 + fabs(gp[i].eig_im[e])));
			}
			ck_assert_int_eq(p->stable, gp[i].stable);
		}
	}
	gsl_rng_free(r);
}
END_TEST

/* k = 3 (and k = 4..8): every point solves (11); eigenvalues match a numeric Jacobian; the
 * supports found are exactly those whose M_S u = a_S solution is positive. */
START_TEST(test_kclass_substitution)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 7);
	int found_interior = 0, found_stable = 0;
	for (int trial = 0; trial < 600; trial++) {
		int k = trial < 400 ? 3 : 4 + trial % 5;
		double a[SW_KCLASS_MAX], g[SW_KCLASS_MAX * SW_KCLASS_MAX];
		for (int i = 0; i < k; i++) {
			a[i] = unif(r, 0.05, 1.0);
			for (int j = 0; j < k; j++)
				g[i * k + j] = i == j ? NAN : unif(r, 0.0, trial % 2 ? 0.6 : 2.0);
		}
		sw_kfixed_point fp[1 << SW_KCLASS_MAX];
		int n = -1;
		ck_assert_int_eq(sw_competition_kclass(k, a, g, fp, 1 << SW_KCLASS_MAX, &n),
				 SW_SUCCESS);
		ck_assert_int_ge(n, k + 1); /* 0 and the k unit vectors always exist */
		for (int m = 0; m < n; m++) {
			const sw_kfixed_point *p = &fp[m];
			ck_assert_int_eq(p->k, k);
			double dw[SW_KCLASS_MAX];
			rhs11(k, a, g, p->w, dw);
			for (int i = 0; i < k; i++) {
				ck_assert(p->w[i] >= 0.0);
				ck_assert_int_eq(p->w[i] > 0.0, (p->support >> i) & 1u);
				ck_close(dw[i], 0.0, 1e-10);
			}
			double re[SW_KCLASS_MAX], im[SW_KCLASS_MAX];
			numeric_eigs(k, a, g, p->w, re, im);
			for (int i = 0; i < k; i++) {
				ck_close(p->eig_re[i], re[i], 1e-6);
				ck_close(fabs(p->eig_im[i]), fabs(im[i]), 1e-6);
			}
			check_flags(p);
			if (p->support == (1u << k) - 1u)
				found_interior++;
			found_stable += p->stable;
		}
		/* Ordered by support, no duplicates. */
		for (int m = 1; m < n; m++)
			ck_assert(fp[m - 1].support < fp[m].support);
	}
	ck_assert_int_gt(found_interior, 0);
	ck_assert_int_gt(found_stable, 0);
	gsl_rng_free(r);
}
END_TEST

/* A hand-checked 3-class case: symmetric weak competition g = 0.5, a = 1: interior point with
 * u_i = 1 / (1 + 2 * 0.5) = 0.5, stable (eigenvalues -2 u (1 - g) twice and -2 u (1 + 2 g)). */
START_TEST(test_kclass_symmetric_three)
{
	double a[3] = {1.0, 1.0, 1.0};
	double g[9] = {0, 0.5, 0.5, 0.5, 0, 0.5, 0.5, 0.5, 0};
	sw_kfixed_point fp[8];
	int n = -1;
	ck_assert_int_eq(sw_competition_kclass(3, a, g, fp, 8, &n), SW_SUCCESS);
	ck_assert_int_eq(n, 8); /* every support: pairs give u = 1 / 1.5 */
	const sw_kfixed_point *p = &fp[7];
	ck_assert_uint_eq(p->support, 7u);
	for (int i = 0; i < 3; i++)
		ck_close(p->w[i], sqrt(0.5), 1e-14);
	ck_close(p->eig_re[0], -0.5, 1e-12);
	ck_close(p->eig_re[1], -0.5, 1e-12);
	ck_close(p->eig_re[2], -2.0, 1e-12);
	ck_assert_int_eq(p->stable, 1);
	for (int m = 0; m < 7; m++)
		ck_assert_int_eq(fp[m].stable, 0);
	/* Pair {0, 1}: u = 2/3 each; w_2 direction grows at a_2 - g (u_0 + u_1) = 1 - 2/3 > 0. */
	ck_assert_uint_eq(fp[3].support, 3u);
	ck_close(fp[3].w[0], sqrt(2.0 / 3.0), 1e-14);
	ck_close(fp[3].eig_re[0], 1.0 / 3.0, 1e-12);
}
END_TEST

START_TEST(test_kclass_args)
{
	double a[2] = {1.0, 0.5}, g[4] = {0, 0.1, 0.2, 0};
	sw_kfixed_point fp[4];
	int n = 0;
	ck_assert_int_eq(sw_competition_kclass(0, a, g, fp, 4, &n), SW_EUSAGE);
	ck_assert_int_eq(sw_competition_kclass(SW_KCLASS_MAX + 1, a, g, fp, 4, &n), SW_EUSAGE);
	ck_assert_int_eq(sw_competition_kclass(2, NULL, g, fp, 4, &n), SW_EUSAGE);
	ck_assert_int_eq(sw_competition_kclass(2, a, g, fp, 4, NULL), SW_EUSAGE);
	double bad[2] = {1.0, INFINITY};
	ck_assert_int_eq(sw_competition_kclass(2, bad, g, fp, 4, &n), SW_ENUMERIC);
	/* Too small a buffer: the count is still reported, only cap points are stored. */
	ck_assert_int_eq(sw_competition_kclass(2, a, g, fp, 2, &n), SW_SUCCESS);
	ck_assert_int_eq(n, 4);
	ck_assert_int_eq(sw_competition_kclass(2, a, g, NULL, 0, &n), SW_SUCCESS);
	ck_assert_int_eq(n, 4);
	/* k = 1: 0 (unstable for a > 0) and 1 (stable). */
	ck_assert_int_eq(sw_competition_kclass(1, a, g, fp, 4, &n), SW_SUCCESS);
	ck_assert_int_eq(n, 2);
	ck_close(fp[0].eig_re[0], 1.0, 1e-15);
	ck_close(fp[1].w[0], 1.0, 1e-15);
	ck_close(fp[1].eig_re[0], -2.0, 1e-15);
	ck_assert_int_eq(fp[1].stable, 1);
	/* Singular pair (a1 a2 = g12 g21, a line of fixed points) is skipped, not reported. */
	double as[2] = {1.0, 1.0}, gs[4] = {0, 1.0, 1.0, 0};
	ck_assert_int_eq(sw_competition_kclass(2, as, gs, fp, 4, &n), SW_SUCCESS);
	ck_assert_int_eq(n, 3);
}
END_TEST

/* The design check of `swerve analyze` claims that the default design (a1 = 0.4 (1 - a2),
 * g21 = 0.05) is bistable where sum D < atanh(g21) and the target hides behind an obstacle
 * (g12 -> 1): check it on such a situation with the GSL analysis, and that just outside
 * (a2 > g21) only one of the two is stable. */
START_TEST(test_default_design_bistable_where_claimed)
{
	sw_fixed_point fp[4];
	int n = 0;
	for (int side = 0; side < 2; side++) {
		double sum_d = side ? 1.2 * atanh(0.05) : 0.8 * atanh(0.05), a2 = tanh(sum_d);
		double a1 = 0.4 * (1 - a2);
		ck_assert_int_eq(sw_glm_fixed_points(a1, a2, 1.0, 0.05, fp, &n), SW_SUCCESS);
		int on_tar = 0, on_obs = 0;
		for (int k = 0; k < n; k++) {
			on_tar += fp[k].stable && fp[k].w_tar == 1.0 && fp[k].w_obs == 0.0;
			on_obs += fp[k].stable && fp[k].w_tar == 0.0 && fp[k].w_obs == 1.0;
		}
		ck_assert_int_eq(on_obs, 1);
		ck_assert_int_eq(on_tar, side ? 0 : 1);
	}
}
END_TEST

Suite *analyze_suite(void)
{
	Suite *s = suite_create("analyze");
	TCase *tc = tcase_create("kclass");
	tcase_add_test(tc, test_default_design_bistable_where_claimed);
	tcase_add_test(tc, test_kclass_two_closed_forms);
	tcase_add_test(tc, test_kclass_substitution);
	tcase_add_test(tc, test_kclass_symmetric_three);
	tcase_add_test(tc, test_kclass_args);
	suite_add_tcase(s, tc);
	return s;
}
