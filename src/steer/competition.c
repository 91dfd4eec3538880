/* steer/competition.c - the GLM constraint competition: parameters (9)-(10), the weight system
 * (8), its fixed points with their stability, and the relaxation used at every step.
 *
 * Rationale (relaxation).  With u = w_tar^2 and s = w_obs^2, system (8) becomes (u' = 2 w w')
 *
 *     u' = 2 u (a1 (1 - u) - g12 s),        s' = 2 s (a2 (1 - s) - g21 u),
 *
 * a Lotka-Volterra competition system with carrying capacities 1.  Its trajectories are those of
 * (8) (the map w -> w^2 is a bijection of the non-negative quadrant), so the fixed point that a
 * positive start (u, s > 0) reaches can be chosen from the invasion conditions of the stability
 * table in docs/models.md (section 1.2) instead of integrating a possibly very
 * stiff system (g12 reaches exp(c2 (sum W - 1)), thousands):
 *
 *     target invades (0,1):   a1 > g12       obstacle invades (1,0):   a2 > g21
 *
 *   - both invade:  coexistence; the interior point (A1, A2), A1^2 = a2 (a1 - g12) / det,
 *     A2^2 = a1 (a2 - g21) / det, det = a1 a2 - g12 g21 > 0, attracts every positive start.
 *   - only the obstacle invades: (0, 1) attracts every positive start.
 *   - only the target invades:   (1, 0) attracts every positive start.
 *   - neither (g12 > a1 and g21 > a2): bistable.  The interior point is a saddle (det < 0) and the
 *     start decides.  Because the off-diagonal Jacobian entries are <= 0, the system is competitive
 *     and its flow preserves the south-east order (u larger, s smaller): the closed south-east
 *     quadrant {u >= u*, s <= s*} of the saddle (u*, s*) is forward invariant and contains no
 *     other fixed point than (1, 0), so every start in it other than the saddle goes to (1, 0);
 *     likewise the north-west quadrant goes to (0, 1).  The separatrix (the saddle's stable
 *     manifold) runs through the other two quadrants.  A warm start usually lies in one of the
 *     two decided quadrants already; otherwise (u, s) is integrated with GSL's implicit msbdf
 *     stepper and analytic Jacobian until it enters one, and the weights snap to its fixed point.
 *     Only this branch needs a GSL driver: allocated per call by sw_glm_relax, reused from a
 *     workspace by sw_glm_relax_ws (the simulator keeps one per thread); inside it, GSL 2.7's LU
 *     decomposition still allocates its pivot vector at every Newton iteration.  Everything
 *     else is allocation-free.
 *     A start that does not leave the undecided quadrants within SW_RELAX_HORIZON e-foldings of the
 *     slowest rate lies on the separatrix to working precision and returns the saddle (whose
 *     instability the heading noise resolves at a later step).
 *
 * Degenerate edges, chosen deterministically (all documented limits of the cases above):
 *   - Equality a1 == g12 (resp. a2 == g21) is decided by second order: near (0, 1) the target
 *     grows like u' ~ 2 a1 (g21 / a2 - 1) u^2, so it invades exactly when g21 > a2 (resp. the
 *     obstacle invades (1, 0) exactly when g12 > a1).  When both equalities hold the two nullclines
 *     coincide with u + s = 1, a line of fixed points; a2 ln u - a1 ln s is conserved, and the end
 *     point on the line is found by bisection.
 *   - a2 <= 0 (no obstacles perceived: sum D = 0): w = (1, 0) when a1 > 0, else (0, 0).
 *     a1 <= 0 (a2 = tanh(sum D) = 1 exactly): w = (0, 1).
 *   - A start on an axis stays on it: (0, s > 0) -> (0, 1), (u > 0, 0) -> (1, 0); (0, 0) is a
 *     fixed point and is returned as is (callers floor warm starts, see SW_WEIGHTS_RELAX).
 *   - Parameters with both invasions but det <= 0 (only possible with negative, mutualistic
 *     g12 and g21) give unbounded growth: SW_EUSAGE.
 *   - g12 = +inf (the obstacles' suppression of the target overflowed; g21 finite): w = (0, 1);
 *     g21 = +inf: w = (1, 0) (sw_glm_relax only).  Other non-finite input: SW_ENUMERIC. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_odeiv2.h>

#include "steer_internal.h"

/* Integration horizon of the bistable branch, in e-foldings of the slowest rate: 750 would
 * already separate a start 1e-300 from the separatrix. */
#define SW_RELAX_HORIZON 1500.0
/* Tolerances of the bistable-branch integration of (u, s) (both are O(1)). */
#define SW_RELAX_EPSABS 1e-12
#define SW_RELAX_EPSREL 1e-10
/* First step of that integration, in units of the fastest time scale 1 / fast (the workspace's
 * driver is allocated with fast = 1 and reset to the problem's at every use). */
#define SW_RELAX_H0 1e-3
/* Step budget of one driver call (one chunk of the horizon). */
#define SW_RELAX_NMAX 1000000

static double sgn(double x)
{
	return (double)((x > 0.0) - (x < 0.0)); /* sgn(0) = 0 */
}

void sw_glm_competition(const sw_glm_params *p, double f_tar, double df_tar, double f_obs,
			double df_obs, double sum_d, double sum_w, double *a1, double *a2,
			double *g12, double *g21)
{
	/* Eq. (9). */
	double b2 = tanh(sum_d);
	*a2 = b2;
	*a1 = p->a1_scale * (1.0 - b2);
	*g21 = p->g21;
	/* Eq. (10): fixed-point detectors and the target's suppression g12. */
	double p_tar = sgn(df_tar) * exp(-p->c1 * fabs(f_tar));
	double p_obs = sgn(df_obs) * exp(-p->c1 * fabs(f_obs)) * sum_w;
	*g12 = exp(-p->c2 * (p_tar * p_obs + 1.0));
}

void sw_glm_weights_rhs(double a1, double a2, double g12, double g21, const double w[2],
			double dw[2])
{
	/* Eq. (8). */
	double wt = w[0], wo = w[1];
	dw[0] = a1 * wt * (1.0 - wt * wt) - g12 * wo * wo * wt;
	dw[1] = a2 * wo * (1.0 - wo * wo) - g21 * wt * wt * wo;
}

/* Fills fp with location (wt, wo), eigenvalues of the Jacobian of (8) there (GSL, sorted by
 * decreasing real part) and the stability flag. */
static int classify(double a1, double a2, double g12, double g21, double wt, double wo,
		    gsl_eigen_nonsymm_workspace *ws, sw_fixed_point *fp)
{
	double jac[4] = {
	    a1 * (1.0 - 3.0 * wt * wt) - g12 * wo * wo,
	    -2.0 * g12 * wt * wo,
	    -2.0 * g21 * wt * wo,
	    a2 * (1.0 - 3.0 * wo * wo) - g21 * wt * wt,
	};
	double ev[4];
	gsl_matrix_view m = gsl_matrix_view_array(jac, 2, 2);
	gsl_vector_complex_view v = gsl_vector_complex_view_array(ev, 2);
	int st = gsl_eigen_nonsymm(&m.matrix, &v.vector, ws);
	if (st != GSL_SUCCESS)
		return st;
	int k = ev[0] >= ev[2] ? 0 : 1; /* index of the larger real part */
	fp->w_tar = wt;
	fp->w_obs = wo;
	fp->eig_re[0] = ev[2 * k];
	fp->eig_im[0] = ev[2 * k + 1];
	fp->eig_re[1] = ev[2 * (1 - k)];
	fp->eig_im[1] = ev[2 * (1 - k) + 1];
	fp->stable = fp->eig_re[0] < 0.0 && fp->eig_re[1] < 0.0;
	return GSL_SUCCESS;
}

int sw_glm_fixed_points(double a1, double a2, double g12, double g21, sw_fixed_point fp[4], int *n)
{
	if (!fp || !n)
		return SW_EUSAGE;
	*n = 0;
	if (!isfinite(a1) || !isfinite(a2) || !isfinite(g12) || !isfinite(g21))
		return SW_ENUMERIC;

	/* (0,0), (0,1) and (1,0) exist for all parameters; the interior point when
	 * A1^2 = a2 (a1 - g12) / det and A2^2 = a1 (a2 - g21) / det are both positive. */
	double loc[4][2] = {{0.0, 0.0}, {0.0, 1.0}, {1.0, 0.0}, {0.0, 0.0}};
	int count = 3;
	double det = a1 * a2 - g12 * g21;
	if (det != 0.0) {
		double u = a2 * (a1 - g12) / det, s = a1 * (a2 - g21) / det;
		if (u > 0.0 && s > 0.0 && isfinite(u) && isfinite(s)) {
			loc[3][0] = sqrt(u);
			loc[3][1] = sqrt(s);
			count = 4;
		}
	}

	gsl_eigen_nonsymm_workspace *ws = gsl_eigen_nonsymm_alloc(2);
	if (!ws)
		return GSL_ENOMEM;
	int st = GSL_SUCCESS;
	for (int i = 0; i < count && st == GSL_SUCCESS; i++)
		st = classify(a1, a2, g12, g21, loc[i][0], loc[i][1], ws, &fp[i]);
	gsl_eigen_nonsymm_free(ws);
	if (st == GSL_SUCCESS)
		*n = count;
	return st;
}

/* --- relaxation ---------------------------------------------------------------------------- */

typedef struct {
	double a1, a2, g12, g21;
} lv_params;

struct sw_relax_ws {
	lv_params c;            /* the parameters of the current call */
	gsl_odeiv2_system sys;  /* lv_rhs, lv_jac over c */
	gsl_odeiv2_driver *d;   /* msbdf driver over sys */
};

/* (8) in u = w_tar^2, s = w_obs^2 (see the header comment). */
static int lv_rhs(double t, const double y[], double f[], void *params)
{
	(void)t;
	const lv_params *c = params;
	f[0] = 2.0 * y[0] * (c->a1 * (1.0 - y[0]) - c->g12 * y[1]);
	f[1] = 2.0 * y[1] * (c->a2 * (1.0 - y[1]) - c->g21 * y[0]);
	return GSL_SUCCESS;
}

static int lv_jac(double t, const double y[], double *dfdy, double dfdt[], void *params)
{
	(void)t;
	const lv_params *c = params;
	dfdy[0] = 2.0 * (c->a1 * (1.0 - 2.0 * y[0]) - c->g12 * y[1]);
	dfdy[1] = -2.0 * c->g12 * y[0];
	dfdy[2] = -2.0 * c->g21 * y[1];
	dfdy[3] = 2.0 * (c->a2 * (1.0 - 2.0 * y[1]) - c->g21 * y[0]);
	dfdt[0] = dfdt[1] = 0.0;
	return GSL_SUCCESS;
}

/* +1: in the closed south-east quadrant of the saddle (goes to (1,0)); -1: north-west (goes to
 * (0,1)); 0: undecided. */
static int quadrant(double u, double s, double us, double ss)
{
	if (u >= us && s <= ss && (u > us || s < ss))
		return 1;
	if (u <= us && s >= ss && (u < us || s > ss))
		return -1;
	return 0;
}

static void set_w(double w[2], double u, double s)
{
	w[0] = sqrt(u);
	w[1] = sqrt(s);
}

/* The bistable case: decide the basin of (u, s), integrating when the start is undecided. */
static int relax_bistable(const lv_params *c, double u, double s, double w[2], sw_relax_ws *ws)
{
	double det = c->a1 * c->a2 - c->g12 * c->g21;
	double us = c->a2 * (c->a1 - c->g12) / det, ss = c->a1 * (c->a2 - c->g21) / det;
	int q = quadrant(u, s, us, ss);
	if (q != 0) {
		set_w(w, q > 0 ? 1.0 : 0.0, q > 0 ? 0.0 : 1.0);
		return SW_SUCCESS;
	}

	/* Time scales: the saddle's eigenvalues (u-s form: trace tr, determinant dt < 0) and the
	 * growth rates 2 a1, 2 a2 near the origin; the horizon covers the slowest. */
	double tr = 2.0 * (c->a1 * (1.0 - 2.0 * us) - c->g12 * ss) +
		    2.0 * (c->a2 * (1.0 - 2.0 * ss) - c->g21 * us);
	double dt = 4.0 * us * ss * det; /* determinant of the u-s Jacobian at the saddle */
	double disc = sqrt(tr * tr - 4.0 * dt);
	double lam_p = 0.5 * (tr + disc), lam_m = 0.5 * (tr - disc);
	double slow = fmin(fmin(lam_p, -lam_m), 2.0 * fmin(c->a1, c->a2));
	double fast = 2.0 * (fabs(c->a1) + fabs(c->a2) + fabs(c->g12) + fabs(c->g21));
	double horizon = SW_RELAX_HORIZON / slow;
	if (!(SW_RELAX_H0 / fast > 0.0) || !isfinite(horizon)) {
		/* Coefficients beyond the double range's time scales (|g| near 1e308 in dense packs):
		 * no step can resolve them, and GSL would reject the start step through its aborting
		 * error handler.  The stronger suppression (g12 / a1 against g21 / a2) wins, as it
		 * does when one of them is infinite. */
		int tar_loses = c->g12 / c->a1 >= c->g21 / c->a2;
		set_w(w, tar_loses ? 0.0 : 1.0, tar_loses ? 1.0 : 0.0);
		return SW_SUCCESS;
	}

	gsl_odeiv2_system sys = {lv_rhs, lv_jac, 2, (void *)c};
	gsl_odeiv2_driver *d;
	if (ws) { /* the workspace's driver, reset as a new one starts */
		ws->c = *c;
		d = ws->d;
		if (gsl_odeiv2_driver_reset_hstart(d, SW_RELAX_H0 / fast) != GSL_SUCCESS)
			return GSL_EINVAL;
	} else {
		d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_msbdf, SW_RELAX_H0 / fast,
						  SW_RELAX_EPSABS, SW_RELAX_EPSREL);
		if (!d)
			return GSL_ENOMEM;
	}
	gsl_odeiv2_driver_set_nmax(d, SW_RELAX_NMAX);
	double y[2] = {u, s}, t = 0.0, chunk = 1.0 / fast;
	int st = GSL_SUCCESS;
	while (q == 0 && t < horizon) {
		st = gsl_odeiv2_driver_apply(d, &t, fmin(t + chunk, horizon), y);
		if (st != GSL_SUCCESS)
			break;
		if (!isfinite(y[0]) || !isfinite(y[1])) {
			st = SW_ENUMERIC;
			break;
		}
		q = quadrant(y[0], y[1], us, ss);
		chunk *= 2.0;
	}
	if (!ws)
		gsl_odeiv2_driver_free(d);
	if (st != GSL_SUCCESS)
		return st;
	if (q == 0)
		set_w(w, us, ss); /* on the separatrix to working precision */
	else
		set_w(w, q > 0 ? 1.0 : 0.0, q > 0 ? 0.0 : 1.0);
	return SW_SUCCESS;
}

/* Both equalities a1 == g12, a2 == g21: the end point on the line u + s = 1 keeps
 * a2 ln u - a1 ln s constant; the left side of a2 ln x - a1 ln(1 - x) = C increases with x. */
static void relax_line(double a1, double a2, double u, double s, double w[2])
{
	double cval = a2 * log(u) - a1 * log(s);
	double lo = 0.0, hi = 1.0;
	for (;;) {
		double mid = 0.5 * (lo + hi);
		if (mid <= lo || mid >= hi)
			break;
		if (a2 * log(mid) - a1 * log1p(-mid) < cval)
			lo = mid;
		else
			hi = mid;
	}
	double x = 0.5 * (lo + hi);
	set_w(w, x, 1.0 - x);
}

sw_relax_ws *sw_relax_ws_alloc(void)
{
	sw_relax_ws *ws = calloc(1, sizeof *ws);
	if (!ws)
		return NULL;
	ws->sys = (gsl_odeiv2_system){lv_rhs, lv_jac, 2, &ws->c};
	/* The step size is set at every use (gsl_odeiv2_driver_reset_hstart). */
	ws->d = gsl_odeiv2_driver_alloc_y_new(&ws->sys, gsl_odeiv2_step_msbdf, SW_RELAX_H0,
					      SW_RELAX_EPSABS, SW_RELAX_EPSREL);
	if (!ws->d) {
		free(ws);
		return NULL;
	}
	return ws;
}

void sw_relax_ws_free(sw_relax_ws *ws)
{
	if (!ws)
		return;
	gsl_odeiv2_driver_free(ws->d);
	free(ws);
}

int sw_glm_relax(double a1, double a2, double g12, double g21, double w[2])
{
	return sw_glm_relax_ws(a1, a2, g12, g21, w, NULL);
}

int sw_glm_relax_ws(double a1, double a2, double g12, double g21, double w[2], sw_relax_ws *ws)
{
	if (!w)
		return SW_EUSAGE;
	double wt = fabs(w[0]), wo = fabs(w[1]);
	double u = wt * wt, s = wo * wo;
	/* An infinite competition coefficient is a real situation, not a failure: g12 grows as
	 * exp(sum W) and overflows in dense packs (hundreds of agents in view).  The competitor
	 * then suppresses that weight completely and the other one goes to its capacity; at
	 * (u, 0) or (0, s) starts the axis rule below gives the same result. */
	if (isfinite(a1) && isfinite(a2) && a1 > 0.0 && a2 > 0.0 && isfinite(u) && isfinite(s) &&
	    (g12 == INFINITY) != (g21 == INFINITY) && !isnan(g12) && !isnan(g21)) {
		if (g12 == INFINITY)
			set_w(w, 0.0, s > 0.0 || u > 0.0 ? 1.0 : 0.0);
		else
			set_w(w, u > 0.0 || s > 0.0 ? 1.0 : 0.0, 0.0);
		return SW_SUCCESS;
	}
	if (!isfinite(a1) || !isfinite(a2) || !isfinite(g12) || !isfinite(g21) || !isfinite(u) ||
	    !isfinite(s))
		return SW_ENUMERIC;

	/* Degenerate edges (header comment). */
	if (a2 <= 0.0) {
		set_w(w, a1 > 0.0 ? 1.0 : 0.0, 0.0);
		return SW_SUCCESS;
	}
	if (a1 <= 0.0) {
		set_w(w, 0.0, 1.0);
		return SW_SUCCESS;
	}
	if (u == 0.0 || s == 0.0) {
		if (u == 0.0 && s == 0.0)
			set_w(w, 0.0, 0.0);
		else
			set_w(w, u > 0.0 ? 1.0 : 0.0, u > 0.0 ? 0.0 : 1.0);
		return SW_SUCCESS;
	}

	/* Invasion conditions with the second-order tie-breaks. */
	int tar_in = a1 > g12 || (a1 == g12 && g21 > a2);
	int obs_in = a2 > g21 || (a2 == g21 && g12 > a1);
	double det = a1 * a2 - g12 * g21;
	if (tar_in && obs_in) {
		if (!(det > 0.0))
			return SW_EUSAGE;
		set_w(w, a2 * (a1 - g12) / det, a1 * (a2 - g21) / det);
		return SW_SUCCESS;
	}
	if (obs_in) {
		set_w(w, 0.0, 1.0);
		return SW_SUCCESS;
	}
	if (tar_in) {
		set_w(w, 1.0, 0.0);
		return SW_SUCCESS;
	}
	if (a1 == g12 && a2 == g21) {
		relax_line(a1, a2, u, s, w);
		return SW_SUCCESS;
	}
	lv_params c = {a1, a2, g12, g21};
	return relax_bistable(&c, u, s, w, ws);
}
