/* sim/world.c - world creation, the synchronous macro step, events and metrics.
 *
 * One macro step of length h (run.step) does, for every agent from the same snapshot of the
 * others:
 *   1. GLM weights: with relaxed weights (the publications' algorithm) the competition
 *      parameters (9)-(10) are computed once at the step start and (8) is relaxed to its stable
 *      fixed point, warm-started from the previous weights (floored) or restarted near zero;
 *   2. the flow is integrated over [t, t + h];
 *   3. the arrival event g = |p - T(t)| - R_T is watched: when it changes sign over the step its
 *      instant is located with GSL's Brent solver on g(integrate(y(t), t -> tau)), to
 *      run.event_tol, and the agent stops there (arrived agents no longer move);
 *   4. the heading noise of (1) is added as an Euler-Maruyama increment sigma sqrt(h) N(0,1);
 *   5. algebraic outputs (commanded speed) and metrics are updated.
 * Collisions and clearances are measured at step ends.  Agents running a behaviour automaton and
 * the signals follow sim/hybrid.c instead of steps 3: every guard is watched, not only arrival;
 * signals are advanced first so that agents reading them see their switches at the exact
 * instants. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_roots.h>

#include "sim_internal.h"


static const struct {
	const char *name;
	const gsl_odeiv2_step_type **type;
} integrators[] = {
	{"rk2", &gsl_odeiv2_step_rk2},       {"rk4", &gsl_odeiv2_step_rk4},
	{"rkf45", &gsl_odeiv2_step_rkf45},   {"rkck", &gsl_odeiv2_step_rkck},
	{"rk8pd", &gsl_odeiv2_step_rk8pd},   {"rk1imp", &gsl_odeiv2_step_rk1imp},
	{"rk2imp", &gsl_odeiv2_step_rk2imp}, {"rk4imp", &gsl_odeiv2_step_rk4imp},
	{"bsimp", &gsl_odeiv2_step_bsimp},   {"msadams", &gsl_odeiv2_step_msadams},
	{"msbdf", &gsl_odeiv2_step_msbdf},
};

/* Most jumps of one unit at one instant before a Zeno error. */
#define SW_ZENO_MAX 64

/* sqrt(x^2 + y^2): see sw_v2_len. */
static double sw_hypot(double x, double y)
{
	return sqrt(x * x + y * y);
}

void sw_world_destroy(sw_world *w)
{
	if (!w)
		return;
	for (int u = 0; u < w->nu; u++) {
		if (w->rng && u < w->n && w->rng[u])
			gsl_rng_free(w->rng[u]);
		if (w->drv && w->drv[u])
			gsl_odeiv2_driver_free(w->drv[u]);
	}
	free(w->dim);
	free(w->off);
	free(w->y);
	free(w->y_snap);
	free(w->work);
	free(w->mode);
	free(w->aut);
	free(w->steer);
	free(w->steer_first);
	free(w->tkind);
	free(w->tindex);
	free(w->rng);
	free(w->metrics);
	free(w->min_clear);
	free(w->overlap);
	free(w->agent_overlap);
	free(w->sys);
	free(w->drv);
	free(w->ctx);
	free(w->scratch);
	free(w->slots);
	free(w->sig_mode0);
	free(w->switches);
	free(w->hist);
	sw__grid_free(w);
	free(w);
}

static double *agent_y(const sw_world *w, int i)
{
	return w->y + w->off[i];
}

/* Plain-law agents: index of the target agent i steers to at time t (bound, else closest). */
static void pick_target(sw_world *w, int i, double t)
{
	const sw_model *m = w->m;
	if (w->aut[i]) {
		if (m->agents[i].behaviour >= 0 && w->aut[i]->modes[w->mode[i]].target_param < 0)
			sw__retarget(w, i, t); /* closest target may change */
		return;
	}
	w->tkind[i] = TGT_NONE;
	if (m->agents[i].target >= 0) {
		w->tkind[i] = TGT_TARGET;
		w->tindex[i] = m->agents[i].target;
		return;
	}
	const double *y = agent_y(w, i);
	double bd = INFINITY;
	for (int k = 0; k < m->n_targets; k++) {
		sw_vec2 q = sw_model_target_position(m, k, t);
		double d = sw_hypot(q.x - y[SW_STATE_X], q.y - y[SW_STATE_Y]);
		if (d < bd) {
			bd = d;
			w->tkind[i] = TGT_TARGET;
			w->tindex[i] = k;
		}
	}
}

/* Signed arrival margin of a plain-law agent: > 0 away, <= 0 inside the arrival radius. */
static double arrival_margin(const sw_world *w, int i, double t, const double *y)
{
	int tg = w->tindex[i];
	sw_vec2 q = sw_model_target_position(w->m, tg, t);
	return sw_hypot(q.x - y[SW_STATE_X], q.y - y[SW_STATE_Y]) - w->m->targets[tg].radius;
}

/* Whether agent i is moving under a steering law now. */
static int moving(const sw_world *w, int i)
{
	if (w->aut[i])
		return w->aut[i]->modes[w->mode[i]].moves;
	return w->mode[i] != MODE_ARRIVED;
}

/* GLM weights relaxed at the step start (step 1 of the header comment). */
static int relax_weights(sw_world *w, int i)
{
	if (!moving(w, i))
		return SW_SUCCESS;
	const sw_steer_def *def = sw__steer_of(w, i, w->mode[i]);
	if (def->law != SW_LAW_GLM || def->glm.weights == SW_WEIGHTS_DYNAMIC)
		return SW_SUCCESS;
	const sw_glm_params *p = &def->glm;
	double *y = agent_y(w, i);
	sw_situation s;
	sw__perceive(w, i, w->t, y, p->wall_near, &s, w->scratch, w->cap);
	sw_glm_terms tm;
	sw_glm_eval(p, &s, y[SW_STATE_PHI], 1.0, 1.0, &tm);
	double wt[2];
	if (p->weights == SW_WEIGHTS_RESTART) {
		wt[0] = wt[1] = p->w_restart;
	} else {
		wt[0] = fmax(fabs(y[SW_STATE_WTAR]), p->w_floor);
		wt[1] = fmax(fabs(y[SW_STATE_WOBS]), p->w_floor);
	}
	int st = sw_glm_relax(tm.a1, tm.a2, tm.g12, tm.g21, wt);
	if (st != SW_SUCCESS)
		return st;
	y[SW_STATE_WTAR] = wt[0];
	y[SW_STATE_WOBS] = wt[1];
	return SW_SUCCESS;
}

/* Writes the algebraic outputs of agent i (commanded speed; PF heading). */
static void algebraic(sw_world *w, int i)
{
	double *y = agent_y(w, i);
	if (!moving(w, i)) {
		y[SW_STATE_V] = 0.0;
		y[SW_STATE_OMEGA] = 0.0;
		return;
	}
	const sw_steer_def *def = sw__steer_of(w, i, w->mode[i]);
	sw_situation s;
	sw__perceive(w, i, w->t, y, sw__wall_near(def), &s, w->scratch, w->cap);
	sw_steer_algebraic(def, &w->m->agents[i].personality, &s, y);
}

/* Clearances, collision episodes and overlap time of agent i at the current time. */
static void measure(sw_world *w, int i, double dt)
{
	const sw_model *m = w->m;
	const double *y = agent_y(w, i);
	sw_vec2 p = sw_v2(y[SW_STATE_X], y[SW_STATE_Y]);
	double r = m->agents[i].radius;
	sw_agent_metrics *mt = &w->metrics[i];
	int overlapping = 0;
	for (int j = 0; j < m->n_obstacles; j++) {
		double c = sw_model_obstacle_clearance(m, j, w->t, p, r);
		size_t k = (size_t)i * m->n_obstacles + j;
		if (c < w->min_clear[k])
			w->min_clear[k] = c;
		if (c < mt->min_clearance)
			mt->min_clearance = c;
		if (c < 0.0) {
			overlapping = 1;
			if (!w->overlap[k])
				mt->collisions++;
			if (-c > mt->max_penetration)
				mt->max_penetration = -c;
		}
		w->overlap[k] = c < 0.0;
	}
	if (overlapping)
		mt->overlap_time += dt;
	/* Agents that do not perceive each other are independent (ghosts to each other, as in
	 * the lane experiments): no agent-agent metrics.  Otherwise the agents within the
	 * perception range count (all of them with unlimited perception), found through the grid
	 * when it is on; the caller has snapshotted the current positions. */
	int agent_hit = 0;
	if (m->run.agents_perceive) {
		int *cand = NULL, nc = w->n;
		double per = m->agents[i].perception;
		if (w->grid_on)
			nc = sw__grid_query(w, i, p, per + r + w->grid_rmax, &cand);
		for (int k = 0; k < nc; k++) {
			int j = cand ? cand[k] : k;
			if (j == i)
				continue;
			const double *yj = w->y_snap + w->off[j];
			double c = sw_hypot(yj[SW_STATE_X] - p.x, yj[SW_STATE_Y] - p.y) - r -
				   m->agents[j].radius;
			if (c > per)
				continue;
			if (c < mt->min_agent_clearance)
				mt->min_agent_clearance = c;
			if (c < 0.0)
				agent_hit = 1;
		}
	}
	if (agent_hit && !w->agent_overlap[i])
		mt->agent_collisions++;
	w->agent_overlap[i] = (unsigned char)agent_hit;
}

static void reached(sw_world *w, int i, double t)
{
	sw_agent_metrics *mt = &w->metrics[i];
	if (!mt->reached) {
		mt->reached = 1;
		mt->t_reached = t;
	}
	if (w->m->agents[i].stop_at_target) {
		w->mode[i] = MODE_ARRIVED;
		if (w->event_fn)
			w->event_fn(w, i, t, MODE_STEER, MODE_ARRIVED, "arrive",
				    "dist(target) <= radius", w->event_ctx);
	}
}

const char *sw_world_mode_name(const sw_world *w, int i, int mode)
{
	if (w->aut[i])
		return sw_automaton_mode_name(w->aut[i], mode);
	return mode == MODE_ARRIVED ? "arrived" : "steer";
}

const char *sw_world_unit_name(const sw_world *w, int u)
{
	return u < w->n ? w->m->agents[u].name : w->m->signals[u - w->n].name;
}

int sw_world_n_units(const sw_world *w)
{
	return w->nu;
}

void sw_world_set_event_fn(sw_world *w, sw_event_fn fn, void *ctx)
{
	w->event_fn = fn;
	w->event_ctx = ctx;
}

/* Sizes and layout of every unit; steering definitions per agent and mode. */
static int layout(sw_world *w)
{
	const sw_model *m = w->m;
	size_t off = 0;
	int nsteer = 0;
	w->maxdim = SW_STATE_DIM;
	w->max_slots = 1;
	for (int u = 0; u < w->nu; u++) {
		const struct sw_automaton *a = NULL;
		if (u < w->n && m->agents[u].behaviour >= 0)
			a = m->automata[m->agents[u].behaviour];
		else if (u >= w->n)
			a = m->automata[m->signals[u - w->n].automaton];
		w->aut[u] = a;
		w->dim[u] = a ? sw__automaton_dim(a) : SW_STATE_DIM;
		w->off[u] = off;
		off += (size_t)w->dim[u];
		if (w->dim[u] > w->maxdim)
			w->maxdim = w->dim[u];
		if (a && a->n_slots > w->max_slots)
			w->max_slots = a->n_slots;
		if (u < w->n) {
			w->steer_first[u] = nsteer;
			nsteer += a ? a->n_modes : 1;
		}
	}
	w->y = calloc(off + 1, sizeof *w->y);
	w->y_snap = calloc(off + 1, sizeof *w->y_snap);
	w->work = calloc(8 * (size_t)w->maxdim, sizeof *w->work);
	w->slots = calloc((size_t)w->max_slots, sizeof *w->slots);
	w->steer = calloc((size_t)nsteer + 1, sizeof *w->steer);
	if (!w->y || !w->y_snap || !w->work || !w->slots || !w->steer)
		return SW_ENOMEM;
	for (int i = 0; i < w->n; i++) {
		const sw_agent *ag = &m->agents[i];
		if (!w->aut[i]) {
			w->steer[w->steer_first[i]] = ag->steer; /* courage applied at finalize */
			continue;
		}
		for (int q = 0; q < w->aut[i]->n_modes; q++) {
			sw_steer_def d = w->aut[i]->modes[q].steer;
			if (d.law == SW_LAW_GLM)
				d.glm = sw_glm_with_personality(&d.glm, &ag->personality);
			w->steer[w->steer_first[i] + q] = d;
		}
	}
	return SW_SUCCESS;
}

int sw_world_create(const sw_model *m, sw_world **out, sw_diag *diag)
{
	*out = NULL;
	if (!m || !m->finalized)
		return SW_EUSAGE;
	const gsl_odeiv2_step_type *type = NULL;
	if (strcmp(m->run.integrator, "euler") != 0) {
		for (size_t k = 0; k < sizeof integrators / sizeof integrators[0]; k++)
			if (strcmp(m->run.integrator, integrators[k].name) == 0)
				type = *integrators[k].type;
		if (!type)
			return sw_diag_add(diag, SW_SEV_ERROR, m->file, 0, 0,
					   "unknown integrator '%s'; expected euler, rk2, rk4, rkf45, "
					   "rkck, rk8pd, rk1imp, rk2imp, rk4imp, bsimp, msadams or msbdf",
					   m->run.integrator);
	}
	sw_world *w = calloc(1, sizeof *w);
	if (!w)
		return SW_ENOMEM;
	int n = m->n_agents, nu = n + m->n_signals;
	size_t no = (size_t)n * (size_t)(m->n_obstacles > 0 ? m->n_obstacles : 1);
	w->m = m;
	w->n = n;
	w->ns = m->n_signals;
	w->nu = nu;
	w->type = type;
	w->zeno_max = SW_ZENO_MAX;
	w->cap = m->n_prims + n + 1;
	w->dim = calloc((size_t)nu, sizeof *w->dim);
	w->off = calloc((size_t)nu, sizeof *w->off);
	w->mode = calloc((size_t)nu, sizeof *w->mode);
	w->aut = calloc((size_t)nu, sizeof *w->aut);
	w->steer_first = calloc((size_t)n + 1, sizeof *w->steer_first);
	w->tkind = calloc((size_t)n + 1, sizeof *w->tkind);
	w->tindex = calloc((size_t)n + 1, sizeof *w->tindex);
	w->rng = calloc((size_t)n + 1, sizeof *w->rng);
	w->metrics = calloc((size_t)n + 1, sizeof *w->metrics);
	w->min_clear = calloc(no + 1, sizeof *w->min_clear);
	w->overlap = calloc(no + 1, 1);
	w->agent_overlap = calloc((size_t)n + 1, 1);
	w->sys = calloc((size_t)nu + 1, sizeof *w->sys);
	w->drv = calloc((size_t)nu + 1, sizeof *w->drv);
	w->ctx = calloc((size_t)nu + 1, sizeof *w->ctx);
	w->scratch = calloc((size_t)w->cap, sizeof *w->scratch);
	w->sig_mode0 = calloc((size_t)w->ns + 1, sizeof *w->sig_mode0);
	w->hist = calloc((size_t)n * SW_HISTORY * 3 + 1, sizeof *w->hist);
	if (!w->dim || !w->off || !w->mode || !w->aut || !w->steer_first || !w->tkind ||
	    !w->tindex || !w->rng || !w->metrics || !w->min_clear || !w->overlap ||
	    !w->agent_overlap || !w->sys || !w->drv || !w->ctx || !w->scratch || !w->sig_mode0 ||
	    !w->hist || layout(w) != SW_SUCCESS || sw__grid_alloc(w) != SW_SUCCESS) {
		sw_world_destroy(w);
		return SW_ENOMEM;
	}
	for (size_t k = 0; k < no; k++)
		w->min_clear[k] = INFINITY;
	for (int u = 0; u < nu; u++) {
		double *y = agent_y(w, u);
		w->ctx[u].w = w;
		w->ctx[u].i = u;
		if (u < n) {
			const sw_agent *a = &m->agents[u];
			y[SW_STATE_X] = a->position.x;
			y[SW_STATE_Y] = a->position.y;
			y[SW_STATE_PHI] = a->heading;
			y[SW_STATE_V] = a->speed;
			/* Initial weights: both constraints on; relaxation selects the stable point. */
			y[SW_STATE_WTAR] = 1.0;
			y[SW_STATE_WOBS] = 1.0;
			w->rng[u] = sw_rng_stream_alloc(m->run.seed, (uint64_t)u);
			w->metrics[u].t_reached = NAN;
			w->metrics[u].min_clearance = INFINITY;
			w->metrics[u].min_agent_clearance = INFINITY;
			if (!w->rng[u]) {
				sw_world_destroy(w);
				return SW_ENOMEM;
			}
		}
		for (int k = 0; w->aut[u] && k < w->aut[u]->n_vars; k++)
			y[SW_STATE_DIM + 1 + k] = w->aut[u]->vars[k].init;
		if (type) {
			w->sys[u] = (gsl_odeiv2_system){sw__agent_flow, sw__agent_jac,
							(size_t)w->dim[u], &w->ctx[u]};
			w->drv[u] = gsl_odeiv2_driver_alloc_y_new(&w->sys[u], type, 0.1 * m->run.step,
								  m->run.atol, m->run.rtol);
			if (!w->drv[u]) {
				sw_world_destroy(w);
				return SW_ENOMEM;
			}
		}
	}
	memcpy(w->y_snap, w->y, (w->off[nu - 1] + (size_t)w->dim[nu - 1]) * sizeof *w->y);
	sw__grid_build(w);
	int st = SW_SUCCESS;
	/* Signals first: agents' guards read them. */
	for (int u = n; u < nu && st == SW_SUCCESS; u++)
		st = sw__hybrid_start(w, u, 0.0, diag);
	for (int s = 0; s < w->ns; s++)
		w->sig_mode0[s] = w->mode[n + s];
	w->n_switch = 0;
	for (int i = 0; i < n && st == SW_SUCCESS; i++) {
		if (w->aut[i]) {
			st = sw__hybrid_start(w, i, 0.0, diag);
		} else {
			pick_target(w, i, 0.0);
			if (w->tkind[i] == TGT_TARGET && arrival_margin(w, i, 0.0, agent_y(w, i)) <= 0.0)
				reached(w, i, 0.0);
		}
		if (st == SW_SUCCESS)
			st = relax_weights(w, i);
		algebraic(w, i);
		measure(w, i, 0.0);
	}
	if (st != SW_SUCCESS) {
		sw_world_destroy(w);
		return st;
	}
	memcpy(w->y_snap, w->y, (w->off[nu - 1] + (size_t)w->dim[nu - 1]) * sizeof *w->y);
	sw__grid_build(w);
	sw__history_push(w);
	*out = w;
	return SW_SUCCESS;
}

/* Arrival event location of a plain-law agent: params of the Brent function. */
typedef struct {
	sw_world *w;
	int i;
	double t0;
	const double *y0;
	int status;
} event_ctx;

static double event_fn(double tau, void *params)
{
	event_ctx *e = params;
	double *y = e->w->work + 5 * (size_t)e->w->maxdim;
	memcpy(y, e->y0, SW_STATE_DIM * sizeof *y);
	int st = sw__integrate(e->w, e->i, e->t0, tau, y);
	if (st != SW_SUCCESS && e->status == SW_SUCCESS)
		e->status = st;
	return arrival_margin(e->w, e->i, tau, y);
}

/* Locates the arrival instant in (t0, t1] and leaves the agent's state there (or, when it does
 * not stop at its target, at t1). */
static int locate_arrival(sw_world *w, int i, double t0, double t1, const double *y0, double *y)
{
	event_ctx e = {w, i, t0, y0, SW_SUCCESS};
	gsl_function f = {event_fn, &e};
	gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
	if (!s)
		return SW_ENOMEM;
	double lo = t0, hi = t1;
	int st = gsl_root_fsolver_set(s, &f, lo, hi);
	for (int it = 0; st == GSL_SUCCESS && it < 200; it++) {
		st = gsl_root_fsolver_iterate(s);
		lo = gsl_root_fsolver_x_lower(s);
		hi = gsl_root_fsolver_x_upper(s);
		if (gsl_root_test_interval(lo, hi, w->m->run.event_tol, 0.0) == GSL_SUCCESS)
			break;
	}
	gsl_root_fsolver_free(s);
	if (st != GSL_SUCCESS)
		return st;
	if (e.status != SW_SUCCESS)
		return e.status;
	/* Report the upper bracket: the first instant known to be inside the arrival radius. */
	memcpy(y, y0, SW_STATE_DIM * sizeof *y);
	st = sw__integrate(w, i, t0, hi, y);
	if (st != SW_SUCCESS)
		return st;
	reached(w, i, hi);
	if (w->mode[i] != MODE_ARRIVED) /* keeps going: finish the step */
		st = sw__integrate(w, i, hi, t1, y);
	return st;
}

static int numeric_failure(sw_world *w, int u, const double *y0, int st, const char *what,
			   sw_diag *diag)
{
	if (st == SW_EZENO || st == SW_EMODEL)
		return st; /* already reported with its own message */
	if (u >= w->n)
		return sw_diag_add(diag, SW_SEV_ERROR, w->m->file, w->m->signals[u - w->n].line, 0,
				   "signal '%s' at t = %.9g s: %s", w->m->signals[u - w->n].name,
				   w->t, what),
		       SW_ENUMERIC;
	const sw_agent *a = &w->m->agents[u];
	char vars[200] = "";
	for (int k = 0, len = 0; w->aut[u] && k < w->aut[u]->n_vars && len < (int)sizeof vars; k++)
		len += snprintf(vars + len, sizeof vars - (size_t)len, ", %s = %.17g",
				w->aut[u]->vars[k].name, y0[SW_STATE_DIM + 1 + k]);
	sw_diag_add(diag, SW_SEV_ERROR, w->m->file, a->line, 0,
		    "agent '%s' (mode '%s') at t = %.9g s: %s; last good state x = %.17g, y = %.17g, "
		    "heading = %.17g, speed = %.17g%s",
		    a->name, sw_world_mode_name(w, u, w->mode[u]), w->t, what,
		    y0[SW_STATE_X], y0[SW_STATE_Y], y0[SW_STATE_PHI], y0[SW_STATE_V], vars);
	return SW_ENUMERIC;
}

static int state_finite(const double *y, int dim)
{
	for (int j = 0; j < dim; j++)
		if (!isfinite(y[j]))
			return 0;
	return 1;
}

/* One plain-law agent over [t0, t1] (steps 2-3 of the header comment). */
static int advance_plain(sw_world *w, int i, double t0, double t1, const double *y0)
{
	double *y = agent_y(w, i);
	int st = sw__integrate(w, i, t0, t1, y);
	if (st == SW_SUCCESS && state_finite(y, SW_STATE_DIM) && w->tkind[i] == TGT_TARGET &&
	    arrival_margin(w, i, t1, y) <= 0.0 && arrival_margin(w, i, t0, y0) > 0.0)
		st = locate_arrival(w, i, t0, t1, y0, y);
	return st;
}

int sw_world_step(sw_world *w, sw_diag *diag)
{
	const sw_model *m = w->m;
	double h = m->run.step, t0 = w->t, t1 = t0 + h;
	double *y0 = w->work + 6 * (size_t)w->maxdim;
	size_t total = w->off[w->nu - 1] + (size_t)w->dim[w->nu - 1];
	/* y_snap (and the grid) already hold the step-start states: they are refreshed at the end
	 * of sw_world_create and of every step, and nothing changes the world in between. */
	for (int s = 0; s < w->ns; s++)
		w->sig_mode0[s] = w->mode[w->n + s];
	w->n_switch = 0;
	/* Signals first, then agents (which may read the signals' switches in this step). */
	for (int k = 0; k < w->nu; k++) {
		int u = k < w->ns ? w->n + k : k - w->ns;
		double *y = agent_y(w, u);
		memcpy(y0, y, (size_t)w->dim[u] * sizeof *y0);
		int st = SW_SUCCESS;
		if (u < w->n && moving(w, u)) {
			pick_target(w, u, t0);
			st = relax_weights(w, u);
			memcpy(y0, y, (size_t)w->dim[u] * sizeof *y0);
		}
		if (st == SW_SUCCESS) {
			if (w->aut[u])
				st = sw__hybrid_advance(w, u, t0, t1, diag);
			else if (w->mode[u] != MODE_ARRIVED)
				st = advance_plain(w, u, t0, t1, y0);
		}
		if (st == SW_SUCCESS && !state_finite(y, w->dim[u]))
			st = SW_ENUMERIC;
		if (st != SW_SUCCESS) {
			char what[SW_DIAG_MSG / 2];
			sw__fault_describe(w, u, st, y, what, sizeof what);
			memcpy(y, y0, (size_t)w->dim[u] * sizeof *y0);
			return numeric_failure(w, u, y0, st, what, diag);
		}
		if (u >= w->n)
			continue;
		const sw_steer_def *def = sw__steer_of(w, u, w->mode[u]);
		if (moving(w, u) && def->law == SW_LAW_GLM && def->glm.sigma_phi > 0.0)
			y[SW_STATE_PHI] +=
			    def->glm.sigma_phi * sqrt(h) * gsl_ran_gaussian_ziggurat(w->rng[u], 1.0);
		w->metrics[u].path_length +=
		    sw_hypot(y[SW_STATE_X] - y0[SW_STATE_X], y[SW_STATE_Y] - y0[SW_STATE_Y]);
	}
	w->t = t1;
	w->steps++;
	/* Outputs and metrics use the time-t1 positions of every agent. */
	memcpy(w->y_snap, w->y, total * sizeof *w->y);
	sw__grid_build(w);
	for (int i = 0; i < w->n; i++) {
		algebraic(w, i);
		measure(w, i, h);
	}
	sw__history_push(w);
	return SW_SUCCESS;
}

const sw_model *sw_world_model(const sw_world *w) { return w->m; }

double sw_world_time(const sw_world *w) { return w->t; }

long sw_world_steps(const sw_world *w) { return w->steps; }

void sw_world_agent(const sw_world *w, int i, sw_agent_state *out)
{
	memcpy(out->y, agent_y(w, i), sizeof out->y);
	out->mode = w->mode[i];
	out->target = w->tkind[i] == TGT_TARGET ? w->tindex[i] : -1;
}

int sw_world_unit_mode(const sw_world *w, int u)
{
	return w->mode[u];
}

const double *sw_world_unit_state(const sw_world *w, int u, int *dim)
{
	if (dim)
		*dim = w->dim[u];
	return agent_y(w, u);
}

const sw_steer_def *sw_world_steer(const sw_world *w, int i)
{
	return sw__steer_of(w, i, w->mode[i]);
}

const sw_agent_metrics *sw_world_metrics(const sw_world *w, int i) { return &w->metrics[i]; }

double sw_world_min_clearance(const sw_world *w, int i, int j)
{
	return w->min_clear[(size_t)i * w->m->n_obstacles + j];
}

int sw_world_perceive(const sw_world *w, int i, sw_situation *s, sw_percept *buf, int cap)
{
	/* Perceive into the world's scratch (room for everything), then copy what fits. */
	const sw_steer_def *def = sw__steer_of(w, i, w->mode[i]);
	int n = sw__perceive(w, i, w->t, agent_y(w, i), sw__wall_near(def), s, w->scratch, w->cap);
	int k = n < cap ? n : (cap > 0 ? cap : 0);
	if (k > 0)
		memcpy(buf, w->scratch, (size_t)k * sizeof *buf);
	s->obs = buf;
	s->n_obs = k;
	return n;
}

int sw_world_glm_terms(const sw_world *w, int i, sw_glm_terms *out)
{
	const sw_steer_def *def = sw__steer_of(w, i, w->mode[i]);
	if (def->law != SW_LAW_GLM)
		return SW_EUSAGE;
	const double *y = agent_y(w, i);
	sw_situation s;
	sw__perceive(w, i, w->t, y, def->glm.wall_near, &s, w->scratch, w->cap);
	sw_glm_eval(&def->glm, &s, y[SW_STATE_PHI], y[SW_STATE_WTAR], y[SW_STATE_WOBS], out);
	return SW_SUCCESS;
}

int sw_world_run(sw_world *w, sw_sample_fn sample, void *ctx, void (*progress)(double frac),
		 sw_diag *diag)
{
	const sw_run_def *r = &w->m->run;
	long total = (long)ceil(r->duration / r->step - 1e-9);
	long every = lround(r->sample / r->step);
	if (every < 1)
		every = 1;
	int st = sample ? sample(w, ctx) : SW_SUCCESS;
	while (st == SW_SUCCESS && w->steps < total) {
		st = sw_world_step(w, diag);
		if (st == SW_SUCCESS && sample && (w->steps % every == 0 || w->steps == total))
			st = sample(w, ctx);
		if (progress)
			progress((double)w->steps / (double)total);
	}
	return st;
}
