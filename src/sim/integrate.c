/* sim/integrate.c - one unit's flow integrated over an interval.
 *
 * "euler" is the publications' fixed-step explicit Euler; GSL's odeiv2 has no first-order
 * explicit stepper, so it is written here (a few lines).  Every other integrator is a GSL odeiv2
 * step type driven adaptively (tolerances rtol/atol, largest step the macro step) or, with
 * run.fixed, at a fixed sub-step.  The driver is reset before every interval: intervals start
 * after jumps or perception snapshots, and GSL's multistep methods must not carry history across
 * them (GSL requires a reset after a discontinuity). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "sim_internal.h"

/* Most adaptive steps within one interval (at most one macro step) before the integration is
 * given up: a flow that stiff (a tight rtol near a contact, a law that switches) would otherwise
 * crawl for hours; a smooth flow needs a few per interval. */
#define SW_ODE_MAX_STEPS 100000UL

/* The GLM flow from the heading rate and speed sensed at the step start (sim/step.c): the same
 * operations as sw_steer_rhs (steer/rhs.c glm_rhs) without agility or mass lags. */
static void fast_flow(const double y[], const double fast[3], double dydt[])
{
	/* sw_steer_velocity(v, phi) with the cosine and sine it computed at the sensing */
	dydt[SW_STATE_X] = y[SW_STATE_V] * fast[1];
	dydt[SW_STATE_Y] = y[SW_STATE_V] * fast[2];
	dydt[SW_STATE_PHI] = fast[0];
}

/* Agent u's entry in w->fast.data when it holds what it sensed for time t (the step start), with
 * *glm set when its mode's law is GLM, clear when it is a crowd law; else NULL. */
static inline const double *sensed_kind(const struct sw_world *w, int u, double t, int *glm)
{
	const double *f = sw__fast(w, u);
	if (isnan(f[0]) || t != w->t)
		return NULL;
	sw_law law = sw__steer_of(w, u, w->unit.mode[u])->law;
	*glm = law == SW_LAW_GLM;
	return *glm || sw__crowd_law(law) ? f : NULL;
}

/* sensed_kind() when the law is GLM (glm) or a crowd law (!glm); else NULL. */
static const double *sensed_as(const struct sw_world *w, int u, double t, int glm)
{
	int g = 0;
	const double *f = sensed_kind(w, u, t, &g);
	return f && g == glm ? f : NULL;
}

/* The GLM heading rate, cosine and sine of agent u sensed for time t (step.c glm_sense). */
static const double *sensed(const struct sw_world *w, int u, double t)
{
	return sensed_as(w, u, t, 1);
}

/* The crowd law's flow of agent u sensed for time t (step.c sense_one): (dx, dy, dphi, dv) with
 * the same bits as sw_steer_rhs would give at the agent's state, which no jump has changed since
 * (a jump clears the entry). */
static const double *sensed_law(const struct sw_world *w, int u, double t)
{
	return sensed_as(w, u, t, 0);
}

/* dydt of a crowd law from its sensed flow (sensed_law); the other entries are 0 as in
 * sw_steer_rhs. */
static void law_flow(const double f[], double dydt[])
{
	for (int k = 0; k < SW_STATE_DIM; k++)
		dydt[k] = 0.0;
	dydt[SW_STATE_X] = f[0];
	dydt[SW_STATE_Y] = f[1];
	dydt[SW_STATE_PHI] = f[2];
	dydt[SW_STATE_V] = f[3];
}

/* Flow of an automaton unit: the mode's steering (or standing still), time_in_mode, clocks and
 * the mode's flow equations. */
static int automaton_flow(const struct sw_world *w, sw_worker *wk, int u, double t,
			  const double y[], double dydt[])
{
	const struct sw_automaton *a = w->unit.aut[u];
	const sw_amode *md = &a->modes[w->unit.mode[u]];
	memset(dydt, 0, (size_t)w->unit.dim[u] * sizeof *dydt);
	const double *f = u < w->n && md->moves ? sensed(w, u, t) : NULL;
	const double *fl = u < w->n && md->moves && !f ? sensed_law(w, u, t) : NULL;
	if (u < w->n && md->moves && w->space3.on) { /* 3-D agent (space3.c; its own fast path) */
		int st = sw__flow3(w, wk, u, t, y, dydt);
		if (st != SW_SUCCESS)
			return st;
	} else if (f) {
		fast_flow(y, f, dydt);
	} else if (fl) {
		law_flow(fl, dydt);
	} else if (u < w->n && md->moves) {
		const sw_steer_def *def = sw__steer_of(w, u, w->unit.mode[u]);
		sw_situation s;
		if (sw__perceive_grow(w, wk, u, t, y, sw__wall_near(def), &s) < 0)
			return SW_ENOMEM;
		int st = sw_steer_rhs(def, sw__pers(w, u), &s, y, dydt, NULL);
		if (st != SW_SUCCESS)
			return st;
	}
	dydt[SW_STATE_DIM] = 1.0; /* time_in_mode */
	for (int k = 0; k < a->n_vars; k++) {
		double *d = &dydt[SW_STATE_DIM + 1 + k];
		if (a->vars[k].kind == SW_VAR_CLOCK)
			*d = 1.0;
		else if (md->flows[k])
			*d = sw__eval(w, wk, u, t, y, md->flows[k]);
		if (!isfinite(*d)) {
			wk->fault_k = SW_STATE_DIM + 1 + k;
			wk->fault_t = t;
			return SW_ENUMERIC;
		}
	}
	return SW_SUCCESS;
}

int sw__agent_flow(double t, const double y[], double dydt[], void *params)
{
	const agent_ctx *c = params;
	const struct sw_world *w = c->w;
	sw_worker *wk = c->wk;
	int u = c->i, st;
	const double *fl;
	if (w->unit.aut[u]) {
		st = automaton_flow(w, wk, u, t, y, dydt);
	} else if (w->space3.on) { /* 3-D plain-law agent (space3.c) */
		st = sw__flow3(w, wk, u, t, y, dydt);
	} else if (sensed(w, u, t)) {
		memset(dydt, 0, SW_STATE_DIM * sizeof *dydt);
		fast_flow(y, sensed(w, u, t), dydt);
		st = SW_SUCCESS;
	} else if ((fl = sensed_law(w, u, t)) != NULL) {
		law_flow(fl, dydt);
		st = SW_SUCCESS;
	} else {
		const sw_steer_def *def = sw__steer_of(w, u, 0);
		sw_situation s;
		st = sw__perceive_grow(w, wk, u, t, y, sw__wall_near(def), &s) < 0
			 ? SW_ENOMEM
			 : sw_steer_rhs(def, sw__pers(w, u), &s, y, dydt, NULL);
	}
	if (st != SW_SUCCESS) {
		if (wk->rhs_status == SW_SUCCESS)
			wk->rhs_status = st;
		return GSL_EBADFUNC;
	}
	return GSL_SUCCESS;
}

/* Forward differences rather than gsl_deriv_central: the latter differentiates scalar functions
 * and would need 4 * dim^2 full right-hand-side evaluations; the implicit steppers only need a
 * rough Jacobian for their Newton iterations. */
int sw__agent_jac(double t, const double y[], double *dfdy, double dfdt[], void *params)
{
	const agent_ctx *c = params;
	int n = c->w->unit.dim[c->i];
	double *f0 = c->wk->jac, *f1 = f0 + c->w->unit.maxdim, *yp = f1 + c->w->unit.maxdim;
	int st = sw__agent_flow(t, y, f0, params);
	if (st != GSL_SUCCESS)
		return st;
	memcpy(yp, y, (size_t)n * sizeof *yp);
	for (int j = 0; j < n; j++) {
		double hj = 1e-7 * fmax(1.0, fabs(y[j]));
		yp[j] = y[j] + hj;
		if ((st = sw__agent_flow(t, yp, f1, params)) != GSL_SUCCESS)
			return st;
		for (int i = 0; i < n; i++)
			dfdy[i * n + j] = (f1[i] - f0[i]) / hj;
		yp[j] = y[j];
	}
	double ht = 1e-7 * fmax(1.0, fabs(t));
	if ((st = sw__agent_flow(t + ht, y, f1, params)) != GSL_SUCCESS)
		return st;
	for (int i = 0; i < n; i++)
		dfdt[i] = (f1[i] - f0[i]) / ht;
	return GSL_SUCCESS;
}

/* An Euler sub-step of length h of unit u from y at t by its flow (sw__agent_flow).  Not inlined
 * into euler(): its loop's set-up, about 30 instructions, was paid by every step of the sensed
 * paths, which do not run it. */
static __attribute__((noinline)) int euler_flow(const struct sw_world *w, sw_worker *wk, int u,
						double t, double h, double *y, int dim)
{
	double *dydt = wk->dydt;
	agent_ctx c = {w, wk, u};
	int st = sw__agent_flow(t, y, dydt, &c);
	if (st != GSL_SUCCESS)
		return wk->rhs_status ? wk->rhs_status : SW_ENUMERIC;
	for (int j = 0; j < dim; j++)
		y[j] += h * dydt[j];
	return SW_SUCCESS;
}

/* y[j] += h * 0.0 for j in [from, dim): the flow's loop on entries whose rate is 0 (it turns -0
 * into +0).  A plain agent's SW_STATE_DIM entries with a constant trip count, which the compiler
 * unrolls (the vectorised loop's set-up cost more than its work). */
static inline void add_zero(double *y, int from, int to, double h)
{
	for (int j = from; j < to; j++)
		y[j] += h * 0.0;
}

static inline void add_zero_flow(double *y, int from, int dim, double h)
{
	if (dim == SW_STATE_DIM)
		add_zero(y, from, SW_STATE_DIM, h);
	else
		add_zero(y, from, dim, h);
}

static int euler(const struct sw_world *w, sw_worker *wk, int u, double t0, double t1, double *y)
{
	int n = w->m->run.substeps, dim = w->unit.dim[u];
	double h = (t1 - t0) / n;
	for (int k = 0; k < n; k++) {
		int glm = 0;
		const double *f = w->unit.aut[u] ? NULL : sensed_kind(w, u, t0 + k * h, &glm);
		if (f && !glm) {
			/* A crowd law's sensed flow (law_flow) added as the loop below adds it,
			 * without the calls (+ h * 0.0 turns -0 into +0 as the loop does). */
			y[SW_STATE_X] += h * f[0];
			y[SW_STATE_Y] += h * f[1];
			y[SW_STATE_PHI] += h * f[2];
			y[SW_STATE_OMEGA] += h * 0.0;
			y[SW_STATE_V] += h * f[3];
			add_zero_flow(y, SW_STATE_V + 1, dim, h);
			continue;
		}
		if (f) {
			/* The sensed flow (fast_flow) added in registers, same arithmetic as the
			 * loop below: through dydt, the loop's vector loads of fast_flow's scalar
			 * stores stall on store forwarding, a third of a crowd step's
			 * integration. */
			double dx = y[SW_STATE_V] * f[1], dy = y[SW_STATE_V] * f[2];
			y[SW_STATE_X] += h * dx;
			y[SW_STATE_Y] += h * dy;
			y[SW_STATE_PHI] += h * f[0];
			add_zero_flow(y, SW_STATE_PHI + 1, dim, h);
			continue;
		}
		int st = euler_flow(w, wk, u, t0 + k * h, h, y, dim);
		if (st != SW_SUCCESS)
			return st;
	}
	return SW_SUCCESS;
}

int sw__integrate(struct sw_world *w, sw_worker *wk, int u, double t0, double t1, double *y)
{
	if (!(t1 > t0))
		return SW_SUCCESS;
	wk->rhs_status = SW_SUCCESS;
	wk->fault_k = -1;
	wk->fault_t = NAN;
	wk->fault_locate = 0;
	if (!w->unit.type)
		return w->space3.on && u < w->n ? sw__euler3(w, wk, u, t0, t1, y)
					   : euler(w, wk, u, t0, t1, y);
	w->unit.ctx[u].wk = wk; /* the worker integrating u now: its flow's scratch */
	gsl_odeiv2_driver *d = w->unit.drv[u];
	gsl_odeiv2_driver_reset(d);
	double t = t0;
	int st;
	if (w->m->run.fixed) {
		int n = w->m->run.substeps;
		st = gsl_odeiv2_driver_apply_fixed_step(d, &t, (t1 - t0) / n, (unsigned long)n, y);
	} else {
		gsl_odeiv2_driver_reset_hstart(d, fmin(0.1 * w->m->run.step, t1 - t0));
		gsl_odeiv2_driver_set_hmax(d, w->m->run.step);
		gsl_odeiv2_driver_set_nmax(d, SW_ODE_MAX_STEPS);
		st = gsl_odeiv2_driver_apply(d, &t, t1, y);
	}
	if (st != GSL_SUCCESS && isnan(wk->fault_t))
		wk->fault_t = t; /* where the driver stopped */
	if (st != GSL_SUCCESS)
		return wk->rhs_status ? wk->rhs_status : (st == GSL_EBADFUNC ? SW_ENUMERIC : st);
	if (w->space3.on && u < w->n)
		sw__fix3(w, u, y); /* back to |u| = 1 (space3.c) */
	return SW_SUCCESS;
}

/* Name of entry k of unit u's state. */
static const char *state_name(const struct sw_world *w, int u, int k)
{
	static const char *names[SW_STATE_DIM] = {"x",     "y",     "heading", "omega",
						  "speed", "w_tar", "w_obs"};
	if (k < SW_STATE_DIM)
		return names[k];
	if (k == SW_STATE_DIM)
		return "time_in_mode";
	return w->unit.aut[u] && k - SW_STATE_DIM - 1 < w->unit.aut[u]->n_vars
		   ? w->unit.aut[u]->vars[k - SW_STATE_DIM - 1].name
		   : "?";
}

void sw__fault_describe(const struct sw_world *w, const sw_worker *wk, int u, int st,
			const double *y, char *buf, size_t n)
{
	int bad = -1;
	for (int j = 0; y && j < w->unit.dim[u] && bad < 0; j++)
		if (!isfinite(y[j]))
			bad = j;
	if (wk->fault_locate)
		snprintf(buf, n,
			 "locating an event (a guard or the arrival) between t = %.17g s and t = "
			 "%.17g s did not converge to event-tol = %g s",
			 wk->fault_t, wk->fault_t1, w->m->run.event_tol);
	else if (st == GSL_FAILURE && w->unit.type && !w->m->run.fixed)
		/* gsl_odeiv2_evolve_apply gives up once a smaller step would not advance t */
		snprintf(buf, n,
			 "step-size underflow: the adaptive integrator's step fell below the "
			 "resolution of t at t = %.17g s (the solution is singular there or "
			 "blows up; if the model is stiff, an implicit integrator such as msbdf "
			 "may pass)",
			 wk->fault_t);
	else if (st == GSL_EMAXITER && w->unit.type && !w->m->run.fixed)
		snprintf(
		    buf, n,
		    "the adaptive integrator took more than %lu steps within one macro step "
		    "and stopped at t = %.17g s (the flow is stiff there; a looser rtol, or an "
		    "implicit integrator such as msbdf, may pass)",
		    SW_ODE_MAX_STEPS, wk->fault_t);
	else if (wk->fault_k >= 0)
		snprintf(buf, n, "the flow of '%s' is not finite at t = %.17g s",
			 state_name(w, u, wk->fault_k), wk->fault_t);
	else if (bad >= 0)
		snprintf(buf, n, "non-finite state: '%s' became %g during the step",
			 state_name(w, u, bad), y[bad]);
	else
		snprintf(buf, n, "%s", sw_strerror(st));
}
