/* sim/hybrid.c - exact hybrid-automaton semantics for automaton units (docs/automata-format.md,
 * section Semantics).
 *
 * Over a macro step [t0, t1] a unit in mode q integrates q's flow.  Transitions are urgent: one
 * fires at the first instant its guard becomes true.  After integrating to t1, every outgoing
 * guard of q (and q's invariant, as "left") goes to the one event locator (sim/locate.c) with
 * its signed margin (expr.h: > 0 exactly when true) at both ends and a bound on how fast that
 * margin can change (sim/rate.c): the locator proves the guard false over the whole interval or
 * finds the first instant it becomes true (guards are false at the interval's start), along the
 * flow re-integrated from the interval's start, to run.event_tol - also when the guard is true
 * only for a moment inside the interval and false again at t1.  A guard with no rate bound is
 * compared at t1 only (docs/automata-format.md lists which are covered).  A guard far from true
 * is not evaluated at every step end: with its margin m (or a bound on it) at the end of the
 * unit's last step and its rate bound L, m1 <= m + L h at the end of a step of length h that starts
 * where the last one ended, so m + 2 L h < 0 proves the test m1 + L h < 0 below without
 * evaluating m1, and m + L h is carried on as the bound (only while the mode, the position and the
 * speed bound allow it, and never for a margin reading another agent, who moves between steps);
 * the instants found are bit for bit those of evaluating every margin.  The earliest instant
 * wins; at equal instants the transition listed first in the file wins.  The unit is then placed
 * at that instant, resets are applied with pre-jump values on the right, time_in_mode restarts,
 * and the new mode's guards are evaluated at the same instant: chains are allowed, more than
 * zeno_max jumps at one instant is a Zeno error, and so are more than SW_ZENO_STEP jumps of one
 * unit within one macro step (jumps whose instants converge, like a bouncing ball's: each is at
 * its own instant, but infinitely many come before a finite time), reported before the event log
 * balloons.
 * Integration then resumes from the jump instant (the GSL driver is reset, as GSL requires after
 * a discontinuity).  Leaving an invariant with no transition enabled at that instant is a model
 * error, reported at the located instant. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "sim_internal.h"

/* Most jumps of one unit within one macro step before a Zeno error (an agent's behaviour
 * switches a few times per second at most; a thousand in one step is an accumulation). */
#define SW_ZENO_STEP 1000

static const char *unit_name(const struct sw_world *w, int u)
{
	return u < w->n ? w->m->agents[u].name : w->m->signals[u - w->n].name;
}

void sw__retarget(struct sw_world *w, int i, double t)
{
	if (i >= w->n || !w->unit.aut[i])
		return;
	const sw_amode *md = &w->unit.aut[i]->modes[w->unit.mode[i]];
	w->agent.tkind[i] = TGT_NONE;
	if (md->target_param >= 0) {
		const sw_binding *b = &w->m->bindings[w->m->agents[i].binding_first + md->target_param];
		w->agent.tkind[i] = w->unit.aut[i]->params[md->target_param].kind == SW_PARAM_AGENT
					? TGT_AGENT
					: TGT_TARGET;
		w->agent.tindex[i] = b->index;
	} else { /* closest target, like the plain law */
		int k = sw__closest_target(w, i, t);
		if (k >= 0) {
			w->agent.tkind[i] = TGT_TARGET;
			w->agent.tindex[i] = k;
		}
	}
}

/* Agent u was moved by resets at a jump (dx, dy, dphi): the moves are not walked.  Its path
 * length and SteerBench chords leave them out (step.c subtracts w->agent.jumped from the step's
 * chord; the SteerBench frame starts from the shifted point), and its obstacle clearances are
 * measured again at the next step end (their skipping bounds how far the agent has walked). */
static void moved(struct sw_world *w, int u, double dx, double dy, double dphi)
{
	if (w->agent.jumped) {
		w->agent.jumped[2 * (size_t)u] += dx;
		w->agent.jumped[2 * (size_t)u + 1] += dy;
	}
	for (int j = 0; j < w->m->n_obstacles; j++)
		w->meas.clear_until[(size_t)u * (size_t)w->m->n_obstacles + (size_t)j] = -INFINITY;
	if (w->meas.sb)
		sw__steerbench_moved(w->meas.sb, u, dx, dy, dphi);
}

/* Applies transition tr of unit u at time t (state y in place); logs the event through wk.  A
 * signal's switch is recorded for the agents reading it (signals advance serially, so the
 * world's switch list is theirs to write); when there is no room for it (and no memory for
 * more), SW_ENOMEM is returned with nothing changed. */
static int fire(struct sw_world *w, sw_worker *wk, int u, const sw_atrans *tr, double t, double *y,
		sw_diag *diag)
{
	if (u >= w->n && w->sig.n_switch == w->sig.cap_switch) {
		int nc = w->sig.cap_switch ? 2 * w->sig.cap_switch : 16;
		void *p = realloc(w->sig.switches, (size_t)nc * sizeof *w->sig.switches);
		if (!p)
			return SW_ENOMEM;
		w->sig.switches = p;
		w->sig.cap_switch = nc;
	}
	const struct sw_automaton *a = w->unit.aut[u];
	double *pre = wk->y_pre;
	memcpy(pre, y, (size_t)w->unit.dim[u] * sizeof *pre);
	for (int r = 0; r < tr->n_resets; r++) {
		const sw_areset *rs = &tr->resets[r];
		double v = sw__eval(w, wk, u, t, pre, rs->expr);
		if (rs->state < 0 && a->vars[rs->var].kind == SW_VAR_INT)
			v = nearbyint(v);
		if (rs->state == SW_STATE_V && !(v >= 0.0)) {
			memcpy(y, pre, (size_t)w->unit.dim[u] * sizeof *y);
			return sw_diag_add(diag, SW_SEV_ERROR, w->m->file, w->m->agents[u].line, 0,
					   "'%s' (automaton '%s'): the jump from mode '%s' to '%s' at "
					   "t = %.9g s resets speed to %g; expected a speed >= 0",
					   unit_name(w, u), a->name, a->modes[tr->from].name,
					   a->modes[tr->to].name, t, v),
			       SW_EMODEL;
		}
		y[sw__reset_index(rs)] = v;
	}
	if (u < w->n && (y[SW_STATE_X] != pre[SW_STATE_X] || y[SW_STATE_Y] != pre[SW_STATE_Y] ||
			 y[SW_STATE_PHI] != pre[SW_STATE_PHI]))
		moved(w, u, y[SW_STATE_X] - pre[SW_STATE_X], y[SW_STATE_Y] - pre[SW_STATE_Y],
		      y[SW_STATE_PHI] - pre[SW_STATE_PHI]);
	y[SW_STATE_DIM] = 0.0; /* time_in_mode */
	if (u < w->n)
		sw__fast(w, u)[0] = NAN; /* the sensed flow belonged to the old mode and state */
	int from = w->unit.mode[u];
	w->unit.mode[u] = tr->to;
	if (u < w->n && a->modes[tr->to].arrival)
		sw__arrived(w, u, t);
	if (u < w->n) {
		if (!a->modes[tr->to].moves) {
			y[SW_STATE_V] = 0.0;
			y[SW_STATE_OMEGA] = 0.0;
		}
		sw__retarget(w, u, t);
	} else {
		/* a signal switched: agents reading it see the new mode from t on */
		w->sig.switches[w->sig.n_switch++] = (sig_switch){u - w->n, t, tr->to};
	}
	if (w->def.event_fn) {
		char guard[256];
		sw_automaton_transition(a, (int)(tr - a->trans), NULL, NULL, NULL, guard, sizeof guard);
		sw__worker_event(w, wk, u, t, from, tr->to, tr->label, guard);
	}
	return SW_SUCCESS;
}

/* First enabled outgoing transition of u's mode at (t, y), or NULL. */
static const sw_atrans *enabled(const struct sw_world *w, sw_worker *wk, int u, double t,
				const double *y)
{
	const struct sw_automaton *a = w->unit.aut[u];
	const sw_amode *md = &a->modes[w->unit.mode[u]];
	for (int k = md->trans_first; k < md->trans_first + md->trans_count; k++) {
		const sw_atrans *tr = &a->trans[k];
		if (!tr->guard || sw__eval(w, wk, u, t, y, tr->guard) != 0.0)
			return tr;
	}
	return NULL;
}

/* Fires enabled transitions at instant t until none is (chains), then checks the invariant. */
static int settle(struct sw_world *w, sw_worker *wk, int u, double t, double *y, sw_diag *diag)
{
	const struct sw_automaton *a = w->unit.aut[u];
	int jumps = 0, first_mode = w->unit.mode[u];
	const sw_atrans *tr;
	while ((tr = enabled(w, wk, u, t, y)) != NULL) {
		if (++jumps > w->unit.zeno_max)
			return sw_diag_add(diag, SW_SEV_ERROR, w->m->file,
					   u < w->n ? w->m->agents[u].line : 0, 0,
					   "Zeno behaviour: '%s' (automaton '%s') made more than %d jumps "
					   "at t = %.9g s, starting in mode '%s' and now in mode '%s'",
					   unit_name(w, u), a->name, w->unit.zeno_max, t,
					   a->modes[first_mode].name,
					   a->modes[w->unit.mode[u]].name),
			       SW_EZENO;
		int st = fire(w, wk, u, tr, t, y, diag);
		if (st != SW_SUCCESS)
			return st;
	}
	const sw_amode *md = &a->modes[w->unit.mode[u]];
	if (md->invariant && sw__eval(w, wk, u, t, y, md->invariant) == 0.0)
		return sw_diag_add(diag, SW_SEV_ERROR, w->m->file, u < w->n ? w->m->agents[u].line : 0,
				   0,
				   "'%s' (automaton '%s') left the invariant of mode '%s' at t = %.9g "
				   "s with no transition enabled",
				   unit_name(w, u), a->name, md->name, t),
		       SW_EMODEL;
	return SW_SUCCESS;
}

int sw__hybrid_start(struct sw_world *w, sw_worker *wk, int u, double t, sw_diag *diag)
{
	w->unit.mode[u] = w->unit.aut[u]->initial;
	if (u < w->n && w->unit.aut[u]->modes[w->unit.mode[u]].arrival)
		sw__arrived(w, u, t);
	sw__retarget(w, u, t);
	int st = settle(w, wk, u, t, w->unit.y + w->unit.off[u], diag);
	if (w->agent.jumped && u < w->n) /* where the agent starts is where its path starts */
		w->agent.jumped[2 * (size_t)u] = w->agent.jumped[2 * (size_t)u + 1] = 0.0;
	return st;
}

/* A guard's margin in sw__locate's form: > 0 exactly when true (a comparison true at equality
 * gives +DBL_MIN there); slots: sw__slots(w, wk, u, t, y). */
static double guard_value(const struct sw_world *w, sw_worker *wk, int u, double t, const double *y,
			  const double *slots, const sw_expr *guard)
{
	double g = sw__margin_in(w, wk, u, t, y, slots, guard);
	if (g == 0.0 && sw__eval_in(w, wk, u, t, y, slots, guard) != 0.0)
		g = DBL_MIN;
	return g;
}

/* An invariant's "left" margin: > 0 exactly when the invariant is false. */
static double leave_value(const struct sw_world *w, sw_worker *wk, int u, double t, const double *y,
			  const double *slots, const sw_expr *inv)
{
	double g = -sw__margin_in(w, wk, u, t, y, slots, inv);
	if (g == 0.0 && sw__eval_in(w, wk, u, t, y, slots, inv) == 0.0)
		g = DBL_MIN;
	return g;
}

/* The two as sw__locate's margin functions. */
static double guard_margin(const struct sw_world *w, sw_worker *wk, int u, double t0, double t,
			   const double *y, const void *guard)
{
	(void)t0;
	return guard_value(w, wk, u, t, y, sw__slots(w, wk, u, t, y), guard);
}

static double leave_margin(const struct sw_world *w, sw_worker *wk, int u, double t0, double t,
			   const double *y, const void *inv)
{
	(void)t0;
	return leave_value(w, wk, u, t, y, sw__slots(w, wk, u, t, y), inv);
}

/* Whether bound b proves that the old test below (m1 <= 0 and m1 + rate h < 0, at the end of a
 * step of length h from the bound's instant) holds without evaluating m1: m1 <= b->m + b->rate h,
 * so b->m + 2 b->rate h < 0 suffices; the relative allowance covers the rounding of the margins
 * (well below 1e-6 of them). */
static int proved_false(const sw_margin_bound *b, double h)
{
	double reach = b->m + 2.0 * b->rate * h;
	return reach < -1e-6 * (fabs(b->m) + 2.0 * b->rate * h);
}

/* The first instant in (t0, t1] at which expression e's margin (an invariant's "left" margin
 * when leave, else a guard's) becomes positive along u's flow from (t0, y0) to (t1, y1) (speed
 * bound v), or INFINITY.  *s1 holds the slots of (t1, y1), shared by the unit's guards, or NULL
 * when they have to be filled; it is reset to NULL when the search overwrites them.  b: e's
 * bound, carried from the previous step when `carried`, updated for t1. */
static int first(struct sw_world *w, sw_worker *wk, int u, double t0, double t1, const double *y0,
		 const double *y1, double v, int leave, const sw_expr *e, const double **s1,
		 sw_margin_bound *b, int carried, double *tstar)
{
	*tstar = INFINITY;
	if (carried && b->steady && v <= b->v && proved_false(b, t1 - t0)) {
		b->m += b->rate * (t1 - t0); /* the rate bound only grows with v */
		return SW_SUCCESS;
	}
	if (!*s1)
		*s1 = sw__slots(w, wk, u, t1, y1);
	int steady;
	double rate = sw__rate_bound(w, u, e, v, &steady);
	double m1 =
	    leave ? leave_value(w, wk, u, t1, y1, *s1, e) : guard_value(w, wk, u, t1, y1, *s1, e);
	*b = (sw_margin_bound){m1, rate, v, steady};
	if (!(m1 > 0.0) && !(m1 + rate * (t1 - t0) >= 0.0 && rate < INFINITY))
		return SW_SUCCESS; /* false throughout (m <= m1 + rate (t1 - t) < 0), or no bound and
				      false at the end (compared at the ends only); m0 not needed */
	*s1 = NULL; /* the margins below fill the slots for other instants */
	sw__margin_fn fn = leave ? leave_margin : guard_margin;
	double m0 = fn(w, wk, u, t0, t0, y0, e);
	return sw__locate(w, wk, u, t0, t1, y0, m0, m1, rate, leave, fn, e, tstar);
}

void sw__hybrid_layout(struct sw_world *w, sw_arena *a)
{
	const sw_model *m = w->m;
	int stride = 0, resets_state = 0;
	for (int u = 0; u < w->nu; u++) {
		const struct sw_automaton *aut = sw__unit_automaton(m, u);
		for (int q = 0; aut && q < aut->n_modes; q++)
			if (aut->modes[q].trans_count + 1 > stride)
				stride = aut->modes[q].trans_count + 1;
		/* the moves of agents whose jumps may reset their position (moved()) */
		resets_state |= u < w->n && aut && aut->resets_state;
	}
	w->unit.carry_stride = stride;
	w->agent.jumped = sw__arena_take(a, resets_state ? 2 * (size_t)w->n : 0,
					 sizeof *w->agent.jumped);
	/* no automaton unit: no bounds */
	size_t nu = stride > 0 ? (size_t)w->nu : 0;
	w->unit.carry = sw__arena_take(
	    a, nu * sizeof *w->unit.carry + nu * (size_t)stride * sizeof(sw_margin_bound), 1);
}

void sw__hybrid_init(struct sw_world *w)
{
	for (int u = 0; w->unit.carry && u < w->nu; u++)
		w->unit.carry[u] = (sw_carry){NAN, 0.0, 0.0, -1};
}

/* Unit u's bounds (after the nu sw_carry entries of the same block). */
static sw_margin_bound *bounds_of(const struct sw_world *w, int u)
{
	return (sw_margin_bound *)(w->unit.carry + w->nu) +
	       (size_t)u * (size_t)w->unit.carry_stride;
}

int sw__hybrid_advance(struct sw_world *w, sw_worker *wk, int u, double t0, double t1,
		       sw_diag *diag)
{
	double *y = w->unit.y + w->unit.off[u];
	double *y0 = wk->y_piece;
	int dim = w->unit.dim[u];
	double t = t0;
	int first_mode = w->unit.mode[u];
	/* The guards' bounds from the end of the unit's last step carry over when this step starts
	 * where that one ended (nothing moved the unit in between); invalid until this step ends. */
	sw_carry *cu = &w->unit.carry[u];
	sw_margin_bound *mb = bounds_of(w, u);
	int carried = cu->t == t0 && cu->mode == w->unit.mode[u] && cu->x == y[SW_STATE_X] &&
		      cu->y == y[SW_STATE_Y];
	cu->t = NAN;
	for (int guard_jumps = 0; t < t1; guard_jumps++) {
		if (guard_jumps >= SW_ZENO_STEP) {
			const struct sw_automaton *a = w->unit.aut[u];
			return sw_diag_add(diag, SW_SEV_ERROR, w->m->file,
					   u < w->n ? w->m->agents[u].line : 0, 0,
					   "Zeno behaviour: '%s' (automaton '%s') made %d jumps between "
					   "t = %.9g s and t = %.17g s, from mode '%s' to mode '%s': the "
					   "jump instants converge (they accumulate before t = %.9g s)",
					   unit_name(w, u), a->name, guard_jumps, t0, t,
					   a->modes[first_mode].name,
					   a->modes[w->unit.mode[u]].name, t1),
			       SW_EZENO;
		}
		memcpy(y0, y, (size_t)dim * sizeof *y0);
		int st = sw__integrate(w, wk, u, t, t1, y);
		if (st != SW_SUCCESS)
			return st;
		const struct sw_automaton *a = w->unit.aut[u];
		const sw_amode *md = &a->modes[w->unit.mode[u]];
		const sw_atrans *best = NULL;
		double tbest = INFINITY, ts, v = sw__speed_bound(w, u, w->unit.mode[u], y0, y);
		const double *s1 = NULL; /* slots of (t1, y), filled by the first guard */
		for (int k = md->trans_first; k < md->trans_first + md->trans_count; k++) {
			const sw_atrans *tr = &a->trans[k];
			if (!tr->guard)
				continue;
			st = first(w, wk, u, t, t1, y0, y, v, 0, tr->guard, &s1,
				   &mb[k - md->trans_first], carried, &ts);
			if (st != SW_SUCCESS)
				return st;
			if (ts < tbest) { /* strict: at equal instants document order wins */
				tbest = ts;
				best = tr;
			}
		}
		if (md->invariant) {
			/* Left before any guard fires: an error at that instant (the located
			 * instant is one where the invariant is false), unless a transition is
			 * enabled there after all. */
			st = first(w, wk, u, t, t1, y0, y, v, 1, md->invariant, &s1,
				   &mb[md->trans_count], carried, &ts);
			if (st != SW_SUCCESS)
				return st;
			if (ts < tbest) {
				double *yi = wk->y_trial; /* locate.c's, free now */
				memcpy(yi, y0, (size_t)dim * sizeof *yi);
				if ((st = sw__integrate(w, wk, u, t, ts, yi)) != SW_SUCCESS)
					return st;
				if (sw__eval(w, wk, u, ts, yi, md->invariant) == 0.0) {
					memcpy(y, yi, (size_t)dim * sizeof *y);
					if ((st = settle(w, wk, u, ts, y, diag)) != SW_SUCCESS)
						return st; /* reports the violation */
					t = ts;
					carried = 0;
					continue;
				}
			}
		}
		if (!best) {
			*cu = (sw_carry){t1, y[SW_STATE_X], y[SW_STATE_Y], w->unit.mode[u]};
			return SW_SUCCESS;
		}
		memcpy(y, y0, (size_t)dim * sizeof *y);
		if ((st = sw__integrate(w, wk, u, t, tbest, y)) != SW_SUCCESS)
			return st;
		/* Priority among guards that become true at the same instant: each instant above is
		 * located on its own margin, to event-tol, so two guards crossing together (sharing
		 * the term that crosses) can be located a few ulps apart in either order (Brent's
		 * bracket ends depend on the whole margin: min(m, 0) and m differ).  A guard listed
		 * before best that is true at best's instant fires instead.  Only those: best may
		 * be a touch (a margin that reaches zero within the scan's resolution, false at the
		 * instant), and a guard listed after it must not win by being true there. */
		for (const sw_atrans *tr = &a->trans[md->trans_first]; tr < best; tr++)
			if (tr->guard && sw__eval(w, wk, u, tbest, y, tr->guard) != 0.0) {
				best = tr;
				break;
			}
		if ((st = fire(w, wk, u, best, tbest, y, diag)) != SW_SUCCESS ||
		    (st = settle(w, wk, u, tbest, y, diag)) != SW_SUCCESS)
			return st;
		t = tbest;
		carried = 0;
	}
	return SW_SUCCESS;
}
