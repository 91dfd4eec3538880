/* steer/kclass.c - fixed points of the k-class competition system (11) and their stability
 * (docs/models.md, section 1.2, the k-class generalisation).
 *
 * With u_i = w_i^2 a fixed point with support S (w_i > 0 exactly for i in S) solves
 * a_i (1 - u_i) - sum_{j in S, j != i} g_ij u_j = 0 for i in S, i.e. M_S u_S = a_S with M_ii = a_i
 * and M_ij = g_ij.  Every support is enumerated (2^k <= 256 of them) and solved with GSL's LU
 * decomposition; a point is kept when every u_i, i in S, is positive and finite.  The map
 * w -> w^2 is a bijection of the non-negative orthant, so these are all fixed points with
 * w >= 0 (apart from continua, which a singular M_S signals and which are skipped).  Stability
 * comes from the eigenvalues of the full k x k Jacobian of (11). */
#include <math.h>
#include <stddef.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>

#include "steer_internal.h"

/* Relative size below which a pivot of U makes M_S singular. */
#define SW_KCLASS_PIVOT_TOL 1e-13

/* Solves M_S u = a_S for support mask S of size m >= 2; u[k] receives u_i for i in S (0 else).
 * Returns 1 when M_S is regular and every u_i (i in S) is positive and finite, 0 otherwise. */
static int solve_support(int k, const double *a, const double *g, unsigned mask, double u[],
			 double mbuf[], double bbuf[], double xbuf[], size_t perm_data[])
{
	int idx[SW_KCLASS_MAX], m = 0;
	for (int i = 0; i < k; i++)
		if (mask & (1u << i))
			idx[m++] = i;
	double scale = 0.0;
	for (int r = 0; r < m; r++) {
		for (int c = 0; c < m; c++) {
			double v = r == c ? a[idx[r]] : g[idx[r] * k + idx[c]];
			mbuf[r * m + c] = v;
			if (fabs(v) > scale)
				scale = fabs(v);
		}
		bbuf[r] = a[idx[r]];
	}
	if (scale == 0.0)
		return 0;
	gsl_matrix_view M = gsl_matrix_view_array(mbuf, (size_t)m, (size_t)m);
	gsl_vector_view b = gsl_vector_view_array(bbuf, (size_t)m);
	gsl_vector_view x = gsl_vector_view_array(xbuf, (size_t)m);
	gsl_permutation perm = {(size_t)m, perm_data};
	int signum;
	if (gsl_linalg_LU_decomp(&M.matrix, &perm, &signum) != GSL_SUCCESS)
		return 0;
	for (int r = 0; r < m; r++)
		if (!(fabs(mbuf[r * m + r]) > SW_KCLASS_PIVOT_TOL * scale))
			return 0;
	if (gsl_linalg_LU_solve(&M.matrix, &perm, &b.vector, &x.vector) != GSL_SUCCESS)
		return 0;
	for (int i = 0; i < k; i++)
		u[i] = 0.0;
	for (int r = 0; r < m; r++) {
		if (!(xbuf[r] > 0.0) || !isfinite(xbuf[r]))
			return 0;
		u[idx[r]] = xbuf[r];
	}
	return 1;
}

/* Jacobian of (11) at w, eigenvalues sorted by decreasing real part (then imaginary part). */
static int classify(int k, const double *a, const double *g, sw_kfixed_point *fp,
		    gsl_eigen_nonsymm_workspace *ws)
{
	double jac[SW_KCLASS_MAX * SW_KCLASS_MAX];
	double ev[2 * SW_KCLASS_MAX];
	const double *w = fp->w;
	for (int i = 0; i < k; i++) {
		double d = a[i] * (1.0 - 3.0 * w[i] * w[i]);
		for (int j = 0; j < k; j++) {
			if (j == i)
				continue;
			d -= g[i * k + j] * w[j] * w[j];
			jac[i * k + j] = -2.0 * g[i * k + j] * w[i] * w[j];
		}
		jac[i * k + i] = d;
	}
	gsl_matrix_view J = gsl_matrix_view_array(jac, (size_t)k, (size_t)k);
	gsl_vector_complex_view v = gsl_vector_complex_view_array(ev, (size_t)k);
	int st = gsl_eigen_nonsymm(&J.matrix, &v.vector, ws);
	if (st != GSL_SUCCESS)
		return st;
	/* Insertion sort by (re, im) decreasing. */
	for (int i = 1; i < k; i++) {
		double re = ev[2 * i], im = ev[2 * i + 1];
		int j = i - 1;
		while (j >= 0 && (ev[2 * j] < re || (ev[2 * j] == re && ev[2 * j + 1] < im))) {
			ev[2 * (j + 1)] = ev[2 * j];
			ev[2 * (j + 1) + 1] = ev[2 * j + 1];
			j--;
		}
		ev[2 * (j + 1)] = re;
		ev[2 * (j + 1) + 1] = im;
	}
	fp->stable = 1;
	for (int i = 0; i < SW_KCLASS_MAX; i++) {
		fp->eig_re[i] = i < k ? ev[2 * i] : 0.0;
		fp->eig_im[i] = i < k ? ev[2 * i + 1] : 0.0;
		if (i < k && !(fp->eig_re[i] < 0.0))
			fp->stable = 0;
	}
	return GSL_SUCCESS;
}

int sw_competition_kclass(int k, const double *a, const double *g, sw_kfixed_point *fp, int cap,
			  int *n)
{
	if (!n)
		return SW_EUSAGE;
	*n = 0;
	if (k < 1 || k > SW_KCLASS_MAX || !a || !g || cap < 0 || (cap > 0 && !fp))
		return SW_EUSAGE;
	for (int i = 0; i < k; i++) {
		if (!isfinite(a[i]))
			return SW_ENUMERIC;
		for (int j = 0; j < k; j++)
			if (j != i && !isfinite(g[i * k + j]))
				return SW_ENUMERIC;
	}

	gsl_eigen_nonsymm_workspace *ws = gsl_eigen_nonsymm_alloc((size_t)k);
	if (!ws)
		return SW_ENOMEM;
	double mbuf[SW_KCLASS_MAX * SW_KCLASS_MAX], bbuf[SW_KCLASS_MAX], xbuf[SW_KCLASS_MAX];
	size_t perm_data[SW_KCLASS_MAX];
	double u[SW_KCLASS_MAX];
	int count = 0, st = GSL_SUCCESS;
	unsigned nmask = 1u << k;
	for (unsigned mask = 0; mask < nmask && st == GSL_SUCCESS; mask++) {
		int m = 0;
		for (int i = 0; i < k; i++) {
			u[i] = 0.0;
			if (mask & (1u << i))
				m++;
		}
		if (m == 1) {
			/* w_i = 1 solves a_i w (1 - w^2) = 0 whatever a_i. */
			for (int i = 0; i < k; i++)
				if (mask & (1u << i))
					u[i] = 1.0;
		} else if (m >= 2 && !solve_support(k, a, g, mask, u, mbuf, bbuf, xbuf, perm_data)) {
			continue;
		}
		if (count < cap) {
			sw_kfixed_point *p = &fp[count];
			p->k = k;
			p->support = mask;
			for (int i = 0; i < SW_KCLASS_MAX; i++)
				p->w[i] = i < k ? sqrt(u[i]) : 0.0;
			st = classify(k, a, g, p, ws);
		}
		count++;
	}
	gsl_eigen_nonsymm_free(ws);
	if (st != GSL_SUCCESS)
		return st;
	*n = count;
	return SW_SUCCESS;
}
