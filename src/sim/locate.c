/* sim/locate.c - the one event locator: the first instant in (t0, t1] at which a margin along a
 * unit's flow reaches its "true" side (> 0): urgent guards and invariants (hybrid.c) and arrival
 * at a target (step.c).
 *
 * The margin is evaluated on the state re-integrated from (t0, y0) to each trial instant, so the
 * located instant is that of the trajectory the step itself follows.
 *
 * Guaranteed detection.  With a rate bound L (|d margin / dt| <= L over the step, sim/rate.c),
 * a piece [a, b] whose end margins m(a), m(b) are <= 0 cannot reach zero inside when
 * (m(a) + m(b) + L (b - a)) / 2 < 0: that is the largest value a function with those ends and
 * slope at most L can take.  The step is scanned from its left end: a piece is dropped when that
 * bound proves it false throughout, else halved (left half first), so every piece left of the
 * located instant is proved false.  The scan stops at the first piece at most run.event_tol wide
 * that is not proved false - either the margin is positive at its right end (a crossing), or it
 * comes within L event_tol / 2 of zero there (a tangency, or a guard true for less than
 * event_tol): both count as the event, at the piece's right end (with `strict`, for invariants,
 * only the former: the scan goes on past an undecided piece, so the instant reported is one
 * where the invariant is false).  So no crossing is missed,
 * whatever the step and however many times the margin crosses within it; the first one fires; a
 * margin that only touches zero fires (as reachability analysis counts it reachable); and the
 * located instant is at most event_tol after the first crossing and at most event_tol L / s
 * before it, where s is the margin's slope there (L / s = 1 for a head-on crossing at full
 * speed).  The scan ends after at most about 2 log2((t1 - t0) / event_tol) margin evaluations
 * per crossing, plus those near a close miss (few unless the miss is within a few L event_tol).
 *
 * Without a rate bound (L infinite: margins sim/rate.c does not bound) the margin is compared at
 * the step's ends only, and a sign change is located by GSL's Brent solver to event_tol; a
 * bracket that has not converged after SW_LOCATE_ITER iterations is a failure (SW_ENUMERIC,
 * with the worker's fault_t, fault_t1 and fault_locate set for the message naming the unit, its
 * mode and the interval), never a silent accept. */
#include <float.h>
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
	sw_worker *wk;
	int u;
	double t0;
	const double *y0;
	sw__margin_fn margin;
	const void *arg;
	double rate, tol;
	int strict; /* an undecided piece is not the event (invariants) */
	int status;
	int nonfinite; /* a margin was not finite (GSL's error handler aborts on one) */
} locate_ctx;

static double along_flow(double tau, void *params)
{
	locate_ctx *c = params;
	double *y = c->wk->y_trial;
	memcpy(y, c->y0, (size_t)c->w->unit.dim[c->u] * sizeof *y);
	int st = sw__integrate(c->w, c->wk, c->u, c->t0, tau, y);
	if (st != SW_SUCCESS && c->status == SW_SUCCESS)
		c->status = st;
	double v = c->margin(c->w, c->wk, c->u, c->t0, tau, y, c->arg);
	if (tau <= c->t0 && v > 0.0)
		v = 0.0; /* false at t0 by the callers' contract (the bracket's lower end) */
	if (isfinite(v))
		return v;
	c->nonfinite = 1;
	return 0.0;
}

/* Brent on [t0, t1] (f0 <= 0 < f1): the upper end of the final bracket. */
static int brent(locate_ctx *c, double t0, double t1, double f0, double f1, double *tstar)
{
	gsl_function f = {along_flow, c};
	int done = 0, st = GSL_EINVAL;
	double lo = t0, hi = t1;
	gsl_root_fsolver *s = c->wk->root; /* the worker's solver: a step allocates nothing */
	/* GSL reports a bracket without a sign change through its error handler (which aborts by
	 * default): checked here, so such a margin fails like any other. */
	if (f0 <= 0.0 && f1 > 0.0)
		st = gsl_root_fsolver_set(s, &f, t0, t1);
	for (int it = 0; st == GSL_SUCCESS && !done && it < SW_LOCATE_ITER; it++) {
		st = gsl_root_fsolver_iterate(s);
		lo = gsl_root_fsolver_x_lower(s);
		hi = gsl_root_fsolver_x_upper(s);
		done = gsl_root_test_interval(lo, hi, c->tol, 0.0) == GSL_SUCCESS ||
		       nextafter(lo, INFINITY) >= hi;
	}
	*tstar = hi;
	if (c->status != SW_SUCCESS)
		return c->status;
	if (st != GSL_SUCCESS || !done || c->nonfinite)
		return SW_ENUMERIC;
	return SW_SUCCESS;
}

/* The scan of [a, b] (ma <= 0 at a): 1 with *tstar when the event is in (a, b], 0 when the piece
 * is proved false, -1 on a failure (c->status). */
static int scan(locate_ctx *c, double a, double ma, double b, double mb, double *tstar)
{
	/* At a touch the bound is 0 up to rounding (the largest value of -|c - 2| at rate 1 over
	 * a piece holding c = 2), and rounding to below 0 would drop the piece holding the touch
	 * and miss the event.  The rounding is that of the margin's inputs, not of the tiny
	 * margins near the touch: a clock at 2 carries ulps of 2, and a clock or time-based
	 * margin at instant b about ulps of rate |b|; so the bound must be below 0 by more than a
	 * few of those.  (A touch of a margin read from positions far from the origin can still
	 * be lost to their rounding; docs/automata-format.md.) */
	double slack = 8.0 * DBL_EPSILON * (fabs(ma) + fabs(mb) + c->rate * (fabs(b) + 1.0));
	if (!(mb > 0.0) && 0.5 * (ma + mb + c->rate * (b - a)) < -slack)
		return 0;
	if (b - a <= c->tol || nextafter(a, INFINITY) >= b) {
		*tstar = b;
		return mb > 0.0 || !c->strict;
	}
	double mid = a + 0.5 * (b - a), mm = along_flow(mid, c);
	if (c->status != SW_SUCCESS || c->nonfinite)
		return -1;
	if (mm > 0.0) /* the event is in (a, mid] */
		return scan(c, a, ma, mid, mm, tstar);
	int r = scan(c, a, ma, mid, mm, tstar);
	return r != 0 ? r : scan(c, mid, mm, b, mb, tstar);
}

int sw__locate(struct sw_world *w, sw_worker *wk, int u, double t0, double t1, const double *y0,
	       double m0, double m1, double rate, int strict, sw__margin_fn margin, const void *arg,
	       double *tstar)
{
	locate_ctx c = {w,      wk,         u, t0, y0, margin, arg, rate, w->m->run.event_tol,
			strict, SW_SUCCESS, 0};
	*tstar = INFINITY;
	if (!(t1 > t0) || isnan(m1) || (!(rate < INFINITY) && !(m1 > 0.0)))
		return SW_SUCCESS; /* no bound: compared at the ends only, and false at t1 */
	m0 = fmin(m0, 0.0); /* false at t0 by the callers' contract; a NaN counts as 0 */
	int st;
	if (rate < INFINITY) {
		int r = scan(&c, t0, m0, t1, m1, tstar);
		st = r >= 0 ? SW_SUCCESS : c.status != SW_SUCCESS ? c.status : SW_ENUMERIC;
		if (r == 0)
			*tstar = INFINITY;
	} else {
		st = brent(&c, t0, t1, m0, m1, tstar);
	}
	if (st == SW_ENUMERIC && c.status == SW_SUCCESS) {
		wk->fault_t = t0;
		wk->fault_t1 = t1;
		wk->fault_locate = 1;
	}
	return st;
}
