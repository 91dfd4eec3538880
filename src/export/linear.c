/* export/linear.c - the linear abstraction (--linear): every non-constant flow becomes a rate
 * input bounded by interval arithmetic over a region proven to hold every reachable state. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core_internal.h"
#include "export_internal.h"
#include "swerve/steer.h"

/* ---- linear abstraction --------------------------------------------------------------------
 *
 * Every non-constant flow x' == f of a location becomes x' == rate_x, rate_x an input bounded
 * by sw_expr_interval(f) over the location's region: a box that contains every state the
 * exported automaton can be in, in that location, during the time horizon T of the cfg.
 *   - x, y: init +- V T, V the agent's speed bound (|x'|, |y'| <= V in every location: GLM
 *     v_max, clamped by eq. (12) and the arrival cap; FW, wall and PF their constant speed (PF
 *     along a unit vector); the speed state when a mass lag makes it one).
 *   - speed, w_tar, w_obs: a candidate box, kept only when it contains the initial interval,
 *     every reset keeps it and, in every location, the flow on each face points inward
 *     (checked by interval arithmetic over the region: Nagumo's condition, so the box is
 *     invariant): speed in [-V, V] (a lag towards a command in [-v_max, v_max]); weights, both
 *     at once, in the first of [0, 1 + d], [0, 1], [-1 - d, 1 + d], [-1, 1] that passes
 *     (d = 1e-6 absorbs the simulator's integration error), else unbounded.  For eq. (8),
 *     w_tar' = (a1 w (1 - w^2) - g12 w_obs^2 w) / eps: w = 0 is an equilibrium (the flow is
 *     exactly 0 on that face), and on the face w = 1 + d the flow is <= 0 because
 *     a1 = a1_scale (1 - tanh D) >= 0 when a1_scale >= 0, 1 - w^2 < 0 and g12 = exp(.) > 0;
 *     likewise w_obs with a2 = tanh D and g21 >= 0.  The check is done on the exported trees,
 *     so other parameters (a1_scale < 0, g21 < 0) fall back to a wider box or none.
 *   - variables whose flow is a constant c in every location (clocks, time_in_mode, frozen
 *     variables, signal indices) and whose resets are identities or constants: the hull of the
 *     initial interval and the reset constants, plus [min(0, c) T, max(0, c) T].
 *   - turn_rate: [-W, W], the smallest W found (doubling, then bisection) for which the box is
 *     invariant in the same sense.  FW: turn_rate' = -b turn_rate + F with F bounded (wrapped
 *     angles in [-pi, pi], exp of non-positive arguments), so W = max F / b passes the interval
 *     check.  GLM with agility: turn_rate' = lk (phidot - turn_rate), lk >= 0, and |phidot| <= B
 *     = (|a| + N) max|w| (the heading bound below), so the face turn_rate = W >= B points inward
 *     whatever interval arithmetic says of phidot.
 *   - t in [0, T]; other agents' positions as their own x, y; inputs their bounds in the
 *     location; everything else (heading, automaton variables) unbounded.
 *   - intersected with the simple bounds (variable <= constant ...) of the location invariant.
 * Bounds are widened by a relative 1e-9 where computed in floating point.
 *
 * A rate's interval is then intersected with what is known of the flow beyond its tree:
 * |x'|, |y'| <= V where the position box is proven (the potential field's unit vector -grad U /
 * |grad U| has no finite interval where the gradient may vanish); the GLM heading rate with B;
 * with agility turn_rate' with lk [-(B + W), B + W]; a lifted variable g == f with the interval
 * of sum_v (df/dv) [rate of v] (+ df/dt), its derivative along the bounded rates.  A rate left
 * with an infinite bound after all that has no sound finite bound here: it is bounded by
 * [-LIN_OPEN, LIN_OPEN] so that every input is bounded (HyST stops on an unbounded one) and the
 * report lists it as a difference (not an over-approximation). */

#define LIN_DRIFT 1e-6
/* Box of a rate without a sound finite bound (units per second): a documented difference. */
#define LIN_OPEN 1e6
/* Search for the turning rate's bound W: at most LIN_DOUBLINGS doublings from the initial value,
 * then LIN_BISECT bisection steps (relative precision 2^-LIN_BISECT). */
#define LIN_DOUBLINGS 60
#define LIN_BISECT 16

typedef struct {
	int n;
	double *lo, *hi;
} lbox;

static double wlo(double v)
{
	return isfinite(v) ? v - 1e-9 * (1.0 + fabs(v)) : v;
}

static double whi(double v)
{
	return isfinite(v) ? v + 1e-9 * (1.0 + fabs(v)) : v;
}

/* Speed bound V of agent i over its moving modes (the laws' speeds) and its initial speed. */
static double speed_bound(const struct xb *b, int i, const double *v0, int *lag)
{
	const sw_model *m = b->m;
	const sw_agent *ag = &m->agents[i];
	const struct sw_automaton *a = ag->behaviour >= 0 ? m->automata[ag->behaviour] : NULL;
	double V = fmax(fabs(v0[0]), fabs(v0[1]));
	*lag = ag->personality.has_mass;
	for (int q = 0; q < (a ? a->n_modes : 1); q++) {
		if (a && !a->modes[q].moves)
			continue;
		const sw_steer_def *d = a ? &a->modes[q].steer : &ag->steer;
		/* the law's speed cap, also as the agent's personality makes it; none: unbounded */
		const sw__law_table *t = sw__law_table_of(d->law);
		if (!t || !(t->flags & SW__LAW_SPEED_CAPPED)) {
			V = INFINITY;
			continue;
		}
		sw_steer_def p = *d;
		sw__law_personalize(&p, &ag->personality);
		V = fmax(V, fmax(fabs(sw__law_at(&p, t->speed_off)), fabs(sw__law_at(d, t->speed_off))));
	}
	return V;
}

/* Initial interval of state k of unit u (the world's value widened by def.ranges). */
static void init_range(const struct xb *b, const sw_hcomponent *c, int u, int k, double *lo,
		       double *hi)
{
	const sw_model *m = b->m;
	int dim = 0;
	const double *y = sw_world_unit_state(b->w, u, &dim);
	double v;
	if (c->vars[k].lifted) { /* its expression over the others' initial ranges */
		double *sl = calloc((size_t)c->n_state + 1, sizeof *sl);
		double *sh = calloc((size_t)c->n_state + 1, sizeof *sh);
		for (int j = 0; sl && sh && j < c->n_state; j++)
			if (!c->vars[j].lifted)
				init_range(b, c, u, j, &sl[j], &sh[j]);
		*lo = -INFINITY;
		*hi = INFINITY;
		if (!sl || !sh || xb_lifted_initial(c, (const char(*)[2 * SW_NAME_MAX])b->map, k, sl,
						    sh, lo, hi) != SW_SUCCESS) {
			*lo = -INFINITY;
			*hi = INFINITY;
		}
		free(sl);
		free(sh);
		return;
	}
	if (u >= m->n_agents)
		v = strcmp(c->vars[k].name, "loc") == 0 ? sw_world_unit_mode(b->w, u)
							 : y[SW_STATE_DIM + k];
	else
		v = k < dim ? y[k] : 0.0;
	*lo = *hi = v;
	for (int r = 0; u < m->n_agents && r < b->def.n_ranges; r++) {
		const sw_export_range *g = &b->def.ranges[r];
		if (g->agent && g->var && sw_model_find_agent(m, g->agent) == u &&
		    strcmp(g->var, c->vars[k].name) == 0 && isfinite(g->lo) && isfinite(g->hi) &&
		    g->lo <= g->hi) {
			*lo = g->lo;
			*hi = g->hi;
		}
	}
}

/* Position box of agent j over the horizon into lo[0..1], hi[0..1]; its speed bound in *V. */
static void position_box(const struct xb *b, const sw_hcomponent *c, int j, double T, double lo[2],
			 double hi[2])
{
	double v0[2];
	int lag;
	init_range(b, c, j, SW_STATE_V, &v0[0], &v0[1]);
	double V = speed_bound(b, j, v0, &lag);
	for (int k = 0; k < 2; k++) {
		init_range(b, c, j, k, &lo[k], &hi[k]);
		lo[k] = wlo(lo[k] - V * T);
		hi[k] = whi(hi[k] + V * T);
	}
}

/* Whether every reset of state k in c keeps it in [lo, hi] (identity or a constant inside). */
static int resets_keep(const sw_hcomponent *c, int k, double lo, double hi)
{
	for (int t = 0; t < c->n_transitions; t++) {
		const sw_expr_ast *r = c->transitions[t].reset[k];
		if (r->op == SW_EXPR_VAR && r->slot == k)
			continue;
		if (r->op == SW_EXPR_NUM && r->value >= lo && r->value <= hi)
			continue;
		return 0;
	}
	return 1;
}

/* Whether flow f of state k points inward on both faces k = lo and k = hi of box (the other
 * variables ranging over box). */
static int faces_inward(const sw_expr_ast *f, int k, lbox *box, double lo, double hi)
{
	double il, ih, ol, oh, save_lo = box->lo[k], save_hi = box->hi[k];
	box->lo[k] = box->hi[k] = lo;
	int st = sw_expr_interval(f, box->lo, box->hi, &il, &ih);
	box->lo[k] = box->hi[k] = hi;
	int st2 = sw_expr_interval(f, box->lo, box->hi, &ol, &oh);
	box->lo[k] = save_lo;
	box->hi[k] = save_hi;
	return st != SW_EUSAGE && st2 != SW_EUSAGE && (il > ih || il >= 0.0) &&
	       (ol > oh || oh <= 0.0);
}

/* Nagumo's condition for state k and the box [lo, hi] (already in box): on each face the flow
 * of k points inward in every location, the other variables ranging over box. */
static int box_invariant(const sw_hcomponent *c, int k, lbox *box, double lo, double hi,
			 const double *inlo, const double *inhi)
{
	int ok = !(inlo[k] < lo || inhi[k] > hi) && resets_keep(c, k, lo, hi);
	for (int l = 0; ok && l < c->n_locations; l++)
		ok = faces_inward(c->locations[l].flow[k], k, box, lo, hi);
	return ok;
}

/* The GLM law steering location l of agent u's component, or NULL. */
static const sw_steer_def *glm_law(const struct xb *b, const sw_hcomponent *c, int u, int l)
{
	const sw_model *m = b->m;
	if (u >= m->n_agents)
		return NULL;
	const sw_agent *ag = &m->agents[u];
	const struct sw_automaton *a = ag->behaviour >= 0 ? m->automata[ag->behaviour] : NULL;
	const sw_steer_def *d = NULL;
	if (!a && strcmp(c->locations[l].name, "steer") == 0)
		d = &ag->steer;
	else if (a && l < a->n_modes && a->modes[l].moves)
		d = &a->modes[l].steer;
	return d && d->law == SW_LAW_GLM ? d : NULL;
}

/* The analytic bound B of the GLM heading rate phidot of eq. (1) in location l of agent u's
 * component (phidot = |w_tar| f_tar + |w_obs| sum f_i with |f_tar| <= |a|, |f_i| <= 1, so
 * |phidot| <= (|a| + N) wmax, wmax the weights' bound in box), or INFINITY when l is not a GLM
 * location.  Without agility phidot is heading', with agility turn_rate' = lk (phidot -
 * turn_rate). */
static double glm_phidot_bound(const struct xb *b, const sw_hcomponent *c, int u, int l,
			       const lbox *box)
{
	const sw_model *m = b->m;
	const sw_steer_def *d = glm_law(b, c, u, l);
	if (!d)
		return INFINITY;
	const sw_agent *ag = &m->agents[u];
	double wmax = 0.0;
	for (int k = SW_STATE_WTAR; k <= SW_STATE_WOBS; k++)
		wmax = fmax(wmax, fmax(fabs(box->lo[k]), fabs(box->hi[k])));
	sw_glm_params g = sw_glm_with_personality(&d->glm, &ag->personality);
	int n = m->n_prims + (m->run.agents_perceive ? m->n_agents - 1 : 0);
	return whi((fmax(fabs(g.a), fabs(d->glm.a)) + n) * wmax);
}

/* An upper bound of the agility lag rate lk of agent u (turn_rate' = lk (phidot - turn_rate),
 * lk between lambda_k_min and lambda_k_max), -1 when the agent has no agility, NaN when lk >= 0
 * is not certain. */
static double agility_rate(const struct xb *b, int u)
{
	if (u >= b->m->n_agents || !b->m->agents[u].personality.has_agility)
		return -1.0;
	const sw_personality *pers = &b->m->agents[u].personality;
	if (!(fmin(pers->lambda_k_min, pers->lambda_k_max) >= 0.0))
		return NAN;
	return fmax(pers->lambda_k_min, pers->lambda_k_max);
}

/* Whether turn_rate in [-W, W] is invariant (see the top): resets and the initial interval
 * inside, and in each location either the agility argument (a GLM location, lk >= 0, B <= W)
 * or the interval check of its faces. */
static int turn_rate_invariant(const struct xb *b, const sw_hcomponent *c, int u, lbox *box,
			       double W, const double *inlo, const double *inhi)
{
	const int k = SW_STATE_OMEGA;
	double lk = agility_rate(b, u);
	int ok = !(inlo[k] < -W || inhi[k] > W) && resets_keep(c, k, -W, W);
	for (int l = 0; ok && l < c->n_locations; l++) {
		if (lk >= 0.0 && glm_law(b, c, u, l)) {
			ok = glm_phidot_bound(b, c, u, l, box) <= W;
			continue;
		}
		ok = faces_inward(c->locations[l].flow[k], k, box, -W, W);
	}
	return ok;
}

/* The smallest W (within 2^-LIN_BISECT) found for which turn_rate in [-W, W] is invariant, or
 * INFINITY. */
static double turn_rate_bound(const struct xb *b, const sw_hcomponent *c, int u, lbox *box,
			      const double *inlo, const double *inhi)
{
	const int k = SW_STATE_OMEGA;
	double fail = 0.0, W = fmax(1.0, fmax(fabs(inlo[k]), fabs(inhi[k])));
	int i = 0;
	while (i < LIN_DOUBLINGS && !turn_rate_invariant(b, c, u, box, W, inlo, inhi)) {
		fail = W;
		W *= 2.0;
		i++;
	}
	if (i == LIN_DOUBLINGS)
		return INFINITY;
	for (int s = 0; s < LIN_BISECT && fail > 0.0; s++) {
		double mid = 0.5 * (fail + W);
		if (turn_rate_invariant(b, c, u, box, mid, inlo, inhi))
			W = mid;
		else
			fail = mid;
	}
	return W;
}

/* The location-independent region of component c (unit u) into box; *vpos receives V when
 * |x'|, |y'| <= V is proven (INFINITY otherwise). */
static void base_region(struct xb *b, const sw_hcomponent *c, int u, lbox *box, double *inlo,
			double *inhi, double *vpos, char *text, size_t n)
{
	*vpos = INFINITY;
	const sw_model *m = b->m;
	double T = b->def.time_horizon > 0 ? b->def.time_horizon : m->run.duration;
	int agent = u < m->n_agents;
	for (int k = 0; k < c->n_vars; k++) {
		box->lo[k] = -INFINITY;
		box->hi[k] = INFINITY;
	}
	for (int k = 0; k < c->n_state; k++)
		init_range(b, c, u, k, &inlo[k], &inhi[k]);
	/* constant flows and constant resets */
	for (int k = 0; k < c->n_state; k++) {
		double cmin = 0.0, cmax = 0.0, lo = inlo[k], hi = inhi[k];
		int ok = 1;
		for (int l = 0; ok && l < c->n_locations; l++) {
			const sw_expr_ast *f = c->locations[l].flow[k];
			ok = f->op == SW_EXPR_NUM && isfinite(f->value);
			if (ok) {
				cmin = fmin(cmin, f->value);
				cmax = fmax(cmax, f->value);
			}
		}
		for (int t = 0; ok && t < c->n_transitions; t++) {
			const sw_expr_ast *r = c->transitions[t].reset[k];
			if (r->op == SW_EXPR_NUM) {
				lo = fmin(lo, r->value);
				hi = fmax(hi, r->value);
			} else {
				ok = r->op == SW_EXPR_VAR && r->slot == k;
			}
		}
		if (ok) {
			box->lo[k] = wlo(lo + cmin * T);
			box->hi[k] = whi(hi + cmax * T);
		}
	}
	sw__text why = sw__text_fixed(text, n);
	if (agent) {
		int lag;
		double pl[2], ph[2];
		double V = speed_bound(b, u, &inlo[SW_STATE_V], &lag);
		(void)lag;
		position_box(b, c, u, T, pl, ph);
		/* speed in [-V, V] when invariant (it bounds |x'| and |y'|) */
		int vok = isfinite(V) && box_invariant(c, SW_STATE_V, box, -V, V, inlo, inhi);
		if (vok) {
			box->lo[SW_STATE_V] = -V;
			box->hi[SW_STATE_V] = V;
		}
		for (int k = 0; vok && k < 2; k++) {
			box->lo[k] = pl[k];
			box->hi[k] = ph[k];
		}
		if (vok)
			*vpos = V;
		sw__text_printf(&why, "x, y within the start +- V T (V = %.10g m/s, T = %.10g s)%s", V,
				T, vok ? "" : " not proven: speed unbounded");
		/* weights, jointly: [0, 1 + d], [0, 1], [-1 - d, 1 + d] or [-1, 1] */
		static const double cand[4][2] = {
		    {0.0, 1.0 + LIN_DRIFT}, {0.0, 1.0}, {-1.0 - LIN_DRIFT, 1.0 + LIN_DRIFT}, {-1.0, 1.0}};
		int wok = 0;
		for (int ci = 0; ci < 4 && !wok; ci++) {
			double wl = cand[ci][0], wh = cand[ci][1];
			box->lo[SW_STATE_WTAR] = box->lo[SW_STATE_WOBS] = wl;
			box->hi[SW_STATE_WTAR] = box->hi[SW_STATE_WOBS] = wh;
			wok = box_invariant(c, SW_STATE_WTAR, box, wl, wh, inlo, inhi) &&
			      box_invariant(c, SW_STATE_WOBS, box, wl, wh, inlo, inhi);
			if (wok)
				sw__text_printf(&why,
						"; w_tar, w_obs in [%.10g, %.10g] (invariant: "
						"checked on its faces)",
						wl, wh);
		}
		if (!wok) {
			for (int k = SW_STATE_WTAR; k <= SW_STATE_WOBS; k++) {
				box->lo[k] = -INFINITY;
				box->hi[k] = INFINITY;
			}
			sw__text_put(&why, "; weights unbounded");
		}
	}
	/* read variables: t, other agents' positions */
	for (int k = c->n_state; k < c->n_vars; k++) {
		if (c->vars[k].role != SW_HVAR_READ)
			continue;
		if (strcmp(b->map[k], "t") == 0) {
			box->lo[k] = 0.0;
			box->hi[k] = whi(T);
		}
		for (int j = 0; j < m->n_agents; j++) {
			char nx[2 * SW_NAME_MAX], ny[2 * SW_NAME_MAX];
			snprintf(nx, sizeof nx, "%s_x", b->unit_name[j]);
			snprintf(ny, sizeof ny, "%s_y", b->unit_name[j]);
			int which = strcmp(b->map[k], nx) == 0 ? 0 : strcmp(b->map[k], ny) == 0 ? 1 : -1;
			if (which < 0)
				continue;
			double pl[2], ph[2];
			position_box(b, c, j, T, pl, ph);
			box->lo[k] = pl[which];
			box->hi[k] = ph[which];
		}
	}
	/* turning rate: [-W, W] when some W is found invariant (after t and the others'
	 * positions, which its flow may read) */
	const int om = SW_STATE_OMEGA;
	if (agent && c->vars[om].role == SW_HVAR_STATE &&
	    !(isfinite(box->lo[om]) && isfinite(box->hi[om]))) {
		double W = turn_rate_bound(b, c, u, box, inlo, inhi);
		if (isfinite(W)) {
			box->lo[om] = -W;
			box->hi[om] = W;
			sw__text_printf(&why,
					"; turn_rate in [-%.10g, %.10g] (invariant: checked on its faces%s)",
					W, W, agility_rate(b, u) >= 0.0 ? ", with the GLM agility bound" : "");
		} else {
			sw__text_put(&why, "; turn_rate unbounded (no invariant bound found)");
		}
	}
	sw__text_put(&why, why.len ? "; " : "");
	sw__text_put(&why, "clocks and constant-rate variables from their rates; the rest unbounded");
	sw__text_end(&why);
}

/* Intersects box with the simple bounds VAR op NUM / NUM op VAR of the invariant atoms q. */
static void invariant_bounds(const xr_conj *q, lbox *box)
{
	for (int i = 0; i < q->n; i++) {
		const sw_expr_ast *a = q->atom[i];
		if (!a || a->nkid != 2)
			continue;
		int le = a->op == SW_EXPR_LE || a->op == SW_EXPR_LT;
		int ge = a->op == SW_EXPR_GE || a->op == SW_EXPR_GT;
		const sw_expr_ast *v = a->kid[0], *c = a->kid[1];
		if (v->op == SW_EXPR_NUM && c->op == SW_EXPR_VAR) { /* c op v: swap */
			const sw_expr_ast *t = v;
			v = c;
			c = t;
			int s = le;
			le = ge;
			ge = s;
		}
		if ((!le && !ge) || v->op != SW_EXPR_VAR || c->op != SW_EXPR_NUM ||
		    v->type != SW_EXPR_REAL || v->slot < 0 || v->slot >= box->n || isnan(c->value))
			continue;
		if (le)
			box->hi[v->slot] = fmin(box->hi[v->slot], c->value);
		else
			box->lo[v->slot] = fmax(box->lo[v->slot], c->value);
	}
}

/* The rate input of state k (created on first use, with a unique name). */
static int rate_var(struct xb *b, sw_hcomponent *comp, int loc, int k, int *rate, double lo,
		    double hi)
{
	char name[SW_NAME_MAX], meaning[96];
	if (rate[k] < 0) {
		snprintf(name, sizeof name, "rate_%.40s", comp->vars[k].name);
		for (int s = 2; s < 1000 && sw_hcomponent_find_var(comp, name) >= 0; s++)
			snprintf(name, sizeof name, "rate_%.40s_%d", comp->vars[k].name, s);
	} else {
		snprintf(name, sizeof name, "%s", comp->vars[rate[k]].name);
	}
	snprintf(meaning, sizeof meaning, "rate of %.60s (linear abstraction)", comp->vars[k].name);
	int v = xb_input_var(b, comp, loc, name, lo, hi, meaning);
	if (v >= 0)
		rate[k] = v;
	return v;
}

/* Interval [*lo, *hi] of the derivative of a lifted variable g == f along bounded rates: the
 * sum over f's variables v of (df/dv over box) times [rlo[v], rhi[v]] (t' = 1), each step
 * widened outward; (-inf, inf) when a derivative is missing or f reads a variable without a
 * known rate (an input, another component's variable). */
static void lifted_rate(const struct xb *b, const sw_hcomponent *c, const sw_expr_ast *f,
			const lbox *box, const double *rlo, const double *rhi, double *lo, double *hi)
{
	double slo = 0.0, shi = 0.0;
	*lo = -INFINITY;
	*hi = INFINITY;
	for (int v = 0; v < box->n; v++) {
		int t = c->vars[v].role == SW_HVAR_READ && strcmp(b->map[v], "t") == 0;
		int known = t || (v < c->n_state && !c->vars[v].lifted);
		sw_expr_ast *d = NULL;
		if (sw_expr_ast_derivative(f, v, NULL, NULL, &d) != SW_SUCCESS) {
			sw_expr_ast_free(d);
			return;
		}
		double dl = 0.0, dh = 0.0;
		int st = d->op == SW_EXPR_NUM && d->value == 0.0
				 ? SW_SUCCESS
				 : sw_expr_interval(d, box->lo, box->hi, &dl, &dh);
		sw_expr_ast_free(d);
		if (st != SW_SUCCESS || (!known && !(dl == 0.0 && dh == 0.0)))
			return;
		double rl = t ? 1.0 : known ? rlo[v] : 0.0, rh = t ? 1.0 : known ? rhi[v] : 0.0;
		if ((dl == 0.0 && dh == 0.0) || (rl == 0.0 && rh == 0.0))
			continue;
		double p[4] = {dl * rl, dl * rh, dh * rl, dh * rh}, pl = p[0], ph = p[0];
		for (int i = 0; i < 4; i++) {
			if (isnan(p[i]))
				return;
			pl = fmin(pl, p[i]);
			ph = fmax(ph, p[i]);
		}
		slo = wlo(slo + wlo(pl));
		shi = whi(shi + whi(ph));
	}
	if (!isnan(slo) && !isnan(shi)) {
		*lo = slo;
		*hi = shi;
	}
}

int xb_linearize(struct xb *b, sw_hcomponent *comp, int u)
{
	const sw_model *m = b->m;
	int n0 = comp->n_vars, ns = comp->n_state;
	lbox base = {n0, calloc((size_t)n0 + 1, sizeof(double)), calloc((size_t)n0 + 1, sizeof(double))};
	lbox box = {n0, calloc((size_t)n0 + 1, sizeof(double)), calloc((size_t)n0 + 1, sizeof(double))};
	double *inlo = calloc((size_t)ns + 1, sizeof(double)), *inhi = calloc((size_t)ns + 1, sizeof(double));
	int *rate = malloc(((size_t)ns + 1) * sizeof *rate);
	double *rlo = calloc((size_t)ns + 1, sizeof(double)), *rhi = calloc((size_t)ns + 1, sizeof(double));
	char region[SW_DIAG_MSG - 64], where[256];
	if (!base.lo || !base.hi || !box.lo || !box.hi || !inlo || !inhi || !rate || !rlo || !rhi) {
		b->status = SW_ENOMEM;
		goto done;
	}
	for (int k = 0; k < ns; k++)
		rate[k] = -1;
	double vpos, lk = agility_rate(b, u);
	base_region(b, comp, u, &base, inlo, inhi, &vpos, region, sizeof region);
	const char *unit = u < m->n_agents ? m->agents[u].name : m->signals[u - m->n_agents].name;
	snprintf(where, sizeof where, "%.60s (%s '%.60s')", comp->id,
		 u < m->n_agents ? "agent" : "signal", unit);
	int any = 0;
	for (int l = 0; l < comp->n_locations && b->status == SW_SUCCESS; l++) {
		memcpy(box.lo, base.lo, (size_t)n0 * sizeof(double));
		memcpy(box.hi, base.hi, (size_t)n0 * sizeof(double));
		for (int k = ns; k < n0; k++) {
			if (comp->vars[k].role != SW_HVAR_INPUT)
				continue;
			box.lo[k] = box.hi[k] = 0.0;
			for (int i = 0; i < b->n_bounds; i++)
				if (b->bounds[i].loc == l && b->bounds[i].var == k) {
					box.lo[k] = b->bounds[i].lo;
					box.hi[k] = b->bounds[i].hi;
				}
		}
		invariant_bounds(&b->inv[l], &box);
		int empty = 0;
		for (int k = 0; k < n0; k++)
			if (box.lo[k] > box.hi[k]) { /* an empty invariant: no state, any rate */
				box.lo[k] = -INFINITY;
				box.hi[k] = INFINITY;
				empty = 1;
			}
		char lwhere[256 + SW_NAME_MAX];
		snprintf(lwhere, sizeof lwhere, "%.120s: location %s", where, comp->locations[l].name);
		for (int k = 0; k < ns && b->status == SW_SUCCESS; k++) {
			sw_expr_ast **f = &comp->locations[l].flow[k];
			if ((*f)->op == SW_EXPR_NUM) {
				rlo[k] = rhi[k] = (*f)->value;
				continue; /* constant flows stay exact */
			}
			double lo, hi;
			int st = sw_expr_interval(*f, box.lo, box.hi, &lo, &hi);
			if (st == SW_EUSAGE) {
				xb_refuse(b, 0, "internal: %s: interval of the flow of '%s' failed", lwhere,
					  comp->vars[k].name);
				break;
			}
			if (lo > hi) { /* defined nowhere in the region: no state there */
				lo = -INFINITY;
				hi = INFINITY;
			}
			/* what is known of the flow beyond its tree (see the top) */
			const char *also = "";
			double B = INFINITY, nlo = -INFINITY, nhi = INFINITY;
			int agent = u < m->n_agents && comp->vars[k].role == SW_HVAR_STATE;
			if (agent && (k == SW_STATE_X || k == SW_STATE_Y) && isfinite(vpos)) {
				nlo = -vpos;
				nhi = vpos;
				also = ", intersected with |x'|, |y'| <= V (the speed bound of the region)";
			} else if (agent && k == SW_STATE_PHI && lk == -1.0) {
				B = glm_phidot_bound(b, comp, u, l, &base);
				nlo = -B;
				nhi = B;
				also = ", intersected with the GLM bound (|a| + N) max|w| "
				       "(|f_tar| <= |a|, each repeller |R W D| <= 1)";
			} else if (agent && k == SW_STATE_OMEGA && lk >= 0.0 && glm_law(b, comp, u, l)) {
				B = whi(lk * whi(glm_phidot_bound(b, comp, u, l, &base) +
						 base.hi[SW_STATE_OMEGA]));
				nlo = -B;
				nhi = B;
				also = ", intersected with lk (B + W) (turn_rate' = lk (phidot - turn_rate), "
				       "|phidot| <= B = (|a| + N) max|w|, |turn_rate| <= W)";
			} else if (comp->vars[k].lifted) {
				lifted_rate(b, comp, comp->vars[k].lifted, &box, rlo, rhi, &nlo, &nhi);
				also = ", intersected with the derivative of its expression along the "
				       "bounded rates of its variables";
			}
			if (!(nlo > lo || nhi < hi))
				also = "";
			lo = fmax(lo, nlo);
			hi = fmin(hi, nhi);
			rlo[k] = lo;
			rhi[k] = hi;
			if (!(isfinite(lo) && isfinite(hi))) {
				/* no sound finite bound: the documented box, reported */
				xb_note(b, lwhere, empty,
					"linear abstraction: no finite bound of %s' is proven over the "
					"location's region (interval [%.10g, %.10g]%s); its rate is bounded by "
					"[%.10g, %.10g] so that every input is bounded (HyST needs it): %s",
					comp->vars[k].name, lo, hi, also, fmax(lo, -LIN_OPEN),
					fmin(hi, LIN_OPEN),
					empty ? "sound, since no state satisfies the location's invariant"
					      : "not proven, a verdict that relies on it is not a proof");
				lo = fmax(lo, -LIN_OPEN);
				hi = fmin(hi, LIN_OPEN);
			}
			sw_expr_ast *nf;
			if (st == SW_SUCCESS && lo == hi && isfinite(lo)) {
				nf = xn_num(lo); /* constant over the region: exact */
			} else {
				int rv = rate_var(b, comp, l, k, rate, lo, hi);
				if (rv < 0)
					break;
				nf = xn_var(comp, rv);
				xb_note(b, lwhere, 1,
					"linear abstraction: %s' == %s with %s in [%.10g, %.10g], the "
					"interval of its exact flow over the location's region%s%s",
					comp->vars[k].name, comp->vars[rv].name, comp->vars[rv].name, lo, hi,
					also, st == SW_ENUMERIC ? " (the flow may be undefined at some points of "
							    "the region: the bounds cover the points where "
							    "it is defined; an infinite bound is no "
							    "constraint)"
							  : "");
				any = 1;
			}
			if (!nf) {
				b->status = SW_ENOMEM;
				break;
			}
			sw_expr_ast_free(*f);
			*f = nf;
		}
	}
	if (any && b->status == SW_SUCCESS)
		xb_note(b, where, 1,
			"linear abstraction: the rate bounds hold over each location's region, which "
			"contains every state reachable within the cfg time horizon (not beyond): %s",
			region);
done:
	free(base.lo);
	free(base.hi);
	free(box.lo);
	free(box.hi);
	free(inlo);
	free(inhi);
	free(rate);
	free(rlo);
	free(rhi);
	return b->status;
}
