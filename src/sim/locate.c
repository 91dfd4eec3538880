/* sim/locate.c - the one event locator: the first instant in (t0, t1] at which a margin along a
 * unit's flow reaches its "true" side (urgent guards in hybrid.c, arrival at a target in step.c).
 *
 * The margin is evaluated on the state re-integrated from (t0, y0) to each trial instant, so the
 * located instant is that of the trajectory the step itself follows.  The caller knows the
 * margin changed sides between t0 and t1; GSL's Brent solver then shrinks the bracket until it
 * is at most run.event_tol wide, or until its ends are adjacent doubles (the instant cannot be
 * told more finely at that time), and the upper end, where the margin is known to be on its
 * true side, is the event instant.  A bracket that has not converged after SW_LOCATE_ITER
 * iterations is a failure (SW_ENUMERIC, with w->fault_t and w->fault_locate set for the
 * message), never a silent accept. */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

#include "sim_internal.h"

/* Brent iterations before giving up: each shrinks the bracket at least as a bisection every
 * few steps, so 200 reach adjacent doubles from any step length. */
#define SW_LOCATE_ITER 200

typedef struct {
	struct sw_world *w;
	int u;
	double t0;
	const double *y0;
	sw__margin_fn margin;
	const void *arg;
	int status;
	int nonfinite; /* a margin was not finite (GSL's error handler aborts on one) */
} locate_ctx;

static double along_flow(double tau, void *params)
{
	locate_ctx *c = params;
	double *y = c->w->work + 5 * (size_t)c->w->maxdim;
	memcpy(y, c->y0, (size_t)c->w->dim[c->u] * sizeof *y);
	int st = sw__integrate(c->w, c->u, c->t0, tau, y);
	if (st != SW_SUCCESS && c->status == SW_SUCCESS)
		c->status = st;
	double v = c->margin(c->w, c->u, c->t0, tau, y, c->arg);
	if (isfinite(v))
		return v;
	c->nonfinite = 1;
	return 0.0;
}

int sw__locate(struct sw_world *w, int u, double t0, double t1, const double *y0,
	       sw__margin_fn margin, const void *arg, double *tstar)
{
	locate_ctx c = {w, u, t0, y0, margin, arg, SW_SUCCESS, 0};
	gsl_function f = {along_flow, &c};
	*tstar = t1;
	/* GSL reports a bracket without a sign change and a value that is not finite through its
	 * error handler (which aborts by default): check both here (along_flow gives 0 for a value
	 * that is not finite and flags it), so such a margin fails like any other. */
	double f0 = along_flow(t0, &c), f1 = along_flow(t1, &c);
	if (c.status != SW_SUCCESS)
		return c.status;
	int done = 0, st = GSL_EINVAL;
	double lo = t0, hi = t1;
	gsl_root_fsolver *s = w->root; /* the thread's solver: a step allocates nothing */
	if (!c.nonfinite && ((f0 <= 0.0 && f1 >= 0.0) || (f0 >= 0.0 && f1 <= 0.0)))
		st = gsl_root_fsolver_set(s, &f, t0, t1);
	for (int it = 0; st == GSL_SUCCESS && !done && it < SW_LOCATE_ITER; it++) {
		st = gsl_root_fsolver_iterate(s);
		lo = gsl_root_fsolver_x_lower(s);
		hi = gsl_root_fsolver_x_upper(s);
		done = gsl_root_test_interval(lo, hi, w->m->run.event_tol, 0.0) == GSL_SUCCESS ||
		       nextafter(lo, INFINITY) >= hi;
	}
	*tstar = hi;
	if (c.status != SW_SUCCESS)
		return c.status;
	if (st != GSL_SUCCESS || !done || c.nonfinite) {
		w->fault_t = t0;
		w->fault_t1 = t1;
		w->fault_locate = 1;
		return SW_ENUMERIC;
	}
	return SW_SUCCESS;
}
