/* sim/integrate.c - one agent's flow integrated over an interval.
 *
 * "euler" is the publications' fixed-step explicit Euler; GSL's odeiv2 has no first-order
 * explicit stepper, so it is written here (three lines).  Every other integrator is a GSL odeiv2
 * step type driven adaptively (tolerances rtol/atol, largest step the macro step) or, with
 * run.fixed, at a fixed sub-step.  The driver is reset before every interval: intervals start
 * after jumps or perception snapshots, and GSL's multistep methods must not carry history across
 * them. */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "sim_internal.h"

int sw__agent_flow(double t, const double y[], double dydt[], void *params)
{
	agent_ctx *c = params;
	struct sw_world *w = c->w;
	const sw_agent *a = &w->m->agents[c->i];
	sw_situation s;
	sw__perceive(w, c->i, t, y, sw__wall_near(a), &s, w->scratch, w->cap);
	int st = sw_steer_rhs(&a->steer, &a->personality, &s, y, dydt, NULL);
	if (st != SW_SUCCESS) {
		if (w->rhs_status == SW_SUCCESS)
			w->rhs_status = st;
		return GSL_EBADFUNC;
	}
	return GSL_SUCCESS;
}

/* Forward differences rather than gsl_deriv_central: the latter differentiates scalar functions
 * and would need 4 * SW_STATE_DIM^2 full right-hand-side evaluations; the implicit steppers only
 * need a rough Jacobian for their Newton iterations. */
int sw__agent_jac(double t, const double y[], double *dfdy, double dfdt[], void *params)
{
	double f0[SW_STATE_DIM], f1[SW_STATE_DIM], yp[SW_STATE_DIM];
	int st = sw__agent_flow(t, y, f0, params);
	if (st != GSL_SUCCESS)
		return st;
	memcpy(yp, y, sizeof yp);
	for (int j = 0; j < SW_STATE_DIM; j++) {
		double hj = 1e-7 * fmax(1.0, fabs(y[j]));
		yp[j] = y[j] + hj;
		if ((st = sw__agent_flow(t, yp, f1, params)) != GSL_SUCCESS)
			return st;
		for (int i = 0; i < SW_STATE_DIM; i++)
			dfdy[i * SW_STATE_DIM + j] = (f1[i] - f0[i]) / hj;
		yp[j] = y[j];
	}
	double ht = 1e-7 * fmax(1.0, fabs(t));
	if ((st = sw__agent_flow(t + ht, y, f1, params)) != GSL_SUCCESS)
		return st;
	for (int i = 0; i < SW_STATE_DIM; i++)
		dfdt[i] = (f1[i] - f0[i]) / ht;
	return GSL_SUCCESS;
}

static int euler(struct sw_world *w, int i, double t0, double t1, double *y)
{
	int n = w->m->run.substeps;
	double h = (t1 - t0) / n;
	double dydt[SW_STATE_DIM];
	for (int k = 0; k < n; k++) {
		int st = sw__agent_flow(t0 + k * h, y, dydt, &w->ctx[i]);
		if (st != GSL_SUCCESS)
			return w->rhs_status ? w->rhs_status : SW_ENUMERIC;
		for (int j = 0; j < SW_STATE_DIM; j++)
			y[j] += h * dydt[j];
	}
	return SW_SUCCESS;
}

int sw__integrate(struct sw_world *w, int i, double t0, double t1, double *y)
{
	if (!(t1 > t0))
		return SW_SUCCESS;
	w->rhs_status = SW_SUCCESS;
	if (!w->type)
		return euler(w, i, t0, t1, y);
	gsl_odeiv2_driver *d = w->drv[i];
	gsl_odeiv2_driver_reset(d);
	double t = t0;
	int st;
	if (w->m->run.fixed) {
		int n = w->m->run.substeps;
		st = gsl_odeiv2_driver_apply_fixed_step(d, &t, (t1 - t0) / n, (unsigned long)n, y);
	} else {
		gsl_odeiv2_driver_reset_hstart(d, fmin(0.1 * w->m->run.step, t1 - t0));
		gsl_odeiv2_driver_set_hmax(d, w->m->run.step);
		st = gsl_odeiv2_driver_apply(d, &t, t1, y);
	}
	if (st != GSL_SUCCESS)
		return w->rhs_status ? w->rhs_status : (st == GSL_EBADFUNC ? SW_ENUMERIC : st);
	return SW_SUCCESS;
}
