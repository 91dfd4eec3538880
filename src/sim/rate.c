/* sim/rate.c - how fast an event margin can change along a unit's flow: a bound L with
 * |d margin / dt| <= L over a step, which sim/locate.c turns into guaranteed detection (a margin
 * that is below zero by more than L times half a piece's width at both ends of the piece cannot
 * reach zero inside it).
 *
 * The bound follows the margin's tree (expr.h, sw_expr_margin: comparisons are differences,
 * and/or are min/max, not negates):
 *   - a constant (no variable, no host call) changes at rate 0; t, time_in_mode and clocks at 1;
 *     a real variable at the absolute value of its mode's flow when that flow is a constant, 0
 *     without a flow; integer, enumeration and boolean variables are constant along a flow;
 *     parameters and labels are constants;
 *   - x and y at the unit's planar speed bound V (sw__speed_bound);
 *   - dist(obj), inside(region) (its signed distance) and clearance() are 1-Lipschitz in the
 *     agent's position, so they change at most at V plus the speed of the object (a target's or
 *     obstacle's scripted motion: |velocity| or the waypoint speed; another agent is read at the
 *     step start, so it does not move within the step);
 *   - a + b, a - b and comparisons: the sum of the operands' rates; -a, abs(a): a's rate;
 *     min, max, and, or: the larger rate; a * c, a / c, c * a with c constant: |c| times a's rate.
 * Anything else (heading, speed and the other steering states, bearing, visible, neighbours,
 * in(signal, mode), progress, a product of two varying terms, nonlinear functions, a real
 * variable with a varying flow, if() with a varying condition) has no bound here: the margin is
 * then only compared at the ends of each step (docs/automata-format.md says which guards are
 * covered by the guarantee). */
#include <math.h>

#include "model/automaton_impl.h"
#include "sim_internal.h"

/* Whether a reads no variable and calls no host function (its value is a constant). */
static int constant(const sw_expr_ast *a)
{
	if (a->op == SW_EXPR_VAR || a->op == SW_EXPR_HOST)
		return 0;
	for (int k = 0; k < a->nkid; k++)
		if (a->kid[k] && !constant(a->kid[k]))
			return 0;
	return 1;
}

/* |value| of a constant tree (an upper bound), or INFINITY. */
static double constant_abs(const sw_expr_ast *a)
{
	double lo, hi;
	if (sw_expr_interval(a, NULL, NULL, &lo, &hi) != SW_SUCCESS)
		return INFINITY;
	return fmax(fabs(lo), fabs(hi));
}

/* Speed of a scripted motion, m/s. */
static double motion_speed(const sw_motion *mo)
{
	switch (mo->kind) {
	case SW_MOTION_LINEAR: return hypot(mo->velocity.x, mo->velocity.y);
	case SW_MOTION_WAYPOINTS: return fabs(mo->speed);
	default: return 0.0;
	}
}

double sw__obstacle_speed_max(const sw_model *m)
{
	double s = 0.0;
	for (int j = 0; j < m->n_obstacles; j++)
		s = fmax(s, motion_speed(&m->obstacles[j].motion));
	return s;
}

/* Rate bound of a host call's value (a real function of the agent's position). */
static double host_rate(const struct sw_world *w, int u, const sw_expr_ast *a, double v,
			int *steady)
{
	const sw_model *m = w->m;
	if (u >= w->n)
		return INFINITY;
	switch (a->slot) {
	case SW_HF_DIST: {
		const sw_param_kind kind = w->unit.aut[u]->params[a->kid[0]->slot].kind;
		int idx = m->bindings[m->agents[u].binding_first + a->kid[0]->slot].index;
		if (kind == SW_PARAM_TARGET)
			return v + motion_speed(&m->targets[idx].motion);
		if (kind == SW_PARAM_OBSTACLE)
			return v + motion_speed(&m->obstacles[idx].motion);
		if (kind == SW_PARAM_AGENT)
			*steady = 0; /* another agent: its position at the step start, then the next */
		if (kind == SW_PARAM_AGENT || kind == SW_PARAM_REGION)
			return v;
		return INFINITY;
	}
	case SW_HF_INSIDE: return v;
	case SW_HF_CLEARANCE: return v + w->pg.speed_max;
	default: return INFINITY;
	}
}

/* Rate bound of the value in slot `slot` of unit u in its mode. */
static double var_rate(const struct sw_world *w, int u, int slot, double v)
{
	const struct sw_automaton *au = w->unit.aut[u];
	if (slot == SW_STATE_X || slot == SW_STATE_Y)
		return v;
	if (slot == SW_SLOT_T || slot == SW_SLOT_TMODE)
		return 1.0;
	if (slot > SW_SLOT_TMODE && slot < SW_SLOT_TMODE + 1 + au->n_vars) {
		int j = slot - SW_SLOT_TMODE - 1;
		const sw_expr *f = au->modes[w->unit.mode[u]].flows[j];
		if (au->vars[j].kind == SW_VAR_CLOCK)
			return 1.0;
		if (au->vars[j].kind != SW_VAR_REAL || !f)
			return 0.0;
		return constant(sw_expr_tree(f)) ? constant_abs(sw_expr_tree(f)) : INFINITY;
	}
	return slot >= au->param_slot ? 0.0 : INFINITY; /* parameters, labels */
}

static double rate(const struct sw_world *w, int u, const sw_expr_ast *a, double v, int *cst,
		   int *steady);

/* The rate bound of a's value, in one walk of the tree (constant() at every node would walk each
 * subtree again): *cst is set to 1 when a is a constant (rate 0).  Leaves are handled here,
 * without a call (most guards are a comparison of a leaf or a host call with a constant). */
static inline double node_rate(const struct sw_world *w, int u, const sw_expr_ast *a, double v,
			       int *cst, int *steady)
{
	*cst = 0;
	switch (a->op) {
	case SW_EXPR_NUM:
	case SW_EXPR_BOOLEAN:
	case SW_EXPR_NAME: *cst = 1; return 0.0;
	case SW_EXPR_HOST: return host_rate(w, u, a, v, steady);
	case SW_EXPR_VAR: return var_rate(w, u, a->slot, v);
	default: return rate(w, u, a, v, cst, steady);
	}
}

/* node_rate of an operator or a built-in function. */
static double rate(const struct sw_world *w, int u, const sw_expr_ast *a, double v, int *cst,
		   int *steady)
{
	/* operators and built-in functions: at most three operands */
	double r[3] = {0.0, 0.0, 0.0};
	int c[3] = {1, 1, 1}, all = 1;
	for (int k = 0; k < a->nkid && k < 3; k++) {
		if (a->kid[k]) {
			r[k] = node_rate(w, u, a->kid[k], v, &c[k], steady);
			all &= c[k];
		}
	}
	if (a->nkid > 3) /* none so far */
		return (*cst = constant(a)) ? 0.0 : INFINITY;
	if ((*cst = all))
		return 0.0;
	const sw_expr_ast *const *k = (const sw_expr_ast *const *)a->kid;
	switch (a->op) {
	case SW_EXPR_NEG:
	case SW_EXPR_NOT:
	case SW_EXPR_ABS: return r[0];
	case SW_EXPR_ADD:
	case SW_EXPR_SUB:
	case SW_EXPR_LT:
	case SW_EXPR_LE:
	case SW_EXPR_GT:
	case SW_EXPR_GE:
	case SW_EXPR_EQ:
	case SW_EXPR_NE: return r[0] + r[1];
	case SW_EXPR_AND:
	case SW_EXPR_OR:
	case SW_EXPR_MIN:
	case SW_EXPR_MAX: return fmax(r[0], r[1]);
	case SW_EXPR_MUL:
		if (c[0])
			return constant_abs(k[0]) * r[1];
		if (c[1])
			return constant_abs(k[1]) * r[0];
		return INFINITY;
	case SW_EXPR_DIV: {
		if (!c[1])
			return INFINITY;
		double lo, hi;
		if (sw_expr_interval(k[1], NULL, NULL, &lo, &hi) != SW_SUCCESS || !(lo > 0.0 || hi < 0.0))
			return INFINITY;
		return r[0] / fmin(fabs(lo), fabs(hi));
	}
	case SW_EXPR_IF: return c[0] ? fmax(r[1], r[2]) : INFINITY;
	default: return INFINITY;
	}
}

double sw__rate_bound(const struct sw_world *w, int u, const sw_expr *e, double v, int *steady)
{
	int cst, st = 1;
	double r = node_rate(w, u, sw_expr_tree(e), v, &cst, &st);
	if (steady)
		*steady = st;
	return r >= 0.0 ? r : INFINITY; /* NaN: none */
}

double sw__speed_bound(const struct sw_world *w, int u, int mode, const double *y0,
		       const double *y1)
{
	if (u >= w->n)
		return 0.0; /* a signal has no position */
	if (w->unit.aut[u] && !w->unit.aut[u]->modes[mode].moves)
		return 0.0;
	const sw_steer_def *d = sw__steer_of(w, u, mode);
	double ends = sw__fmax(fabs(y0[SW_STATE_V]), fabs(y1[SW_STATE_V]));
	return sw__law_speed_bound(d, ends); /* the law's cap (steer/params.c) */
}
