/* export/build.c - compiled model -> hybrid-automaton IR.
 *
 * One component per agent is built and then shared with every earlier agent whose component came
 * out identical (the steering emitters fold an agent's numbers - target, radius, law parameters,
 * personality - into its flows, so agents of one automaton share a component exactly when those
 * coincide).  Component variables, in order: the law state x, y, heading, turn_rate, speed, w_tar,
 * w_obs; time_in_mode; the automaton's variables (all controlled); then inputs (bounded
 * nondeterminism of over-approximated flows, local) and read variables (other agents' positions,
 * signal locations, the global time t, mapped in the network to their owners' variables).
 * Locations: the automaton's modes, or steer/arrived for a plain-law agent.  Urgency: for every
 * disjunct of an outgoing guard that is a single inequality a >= b (or >, <=, <), the location
 * invariant gets a <= b, the closure of its negation; a guard that is constantly true gets
 * time_in_mode <= 0; other disjuncts cannot stop the flow through a convex invariant and their
 * urgency is dropped (more behaviours) and reported.  The initial state is the world's state at
 * t = 0, after the jumps enabled at t = 0 (sw_world_create).  The last passes over a built
 * component, frozen weights and Flow*-friendly invariants, are in invariants.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"

typedef struct xb xb;

/* ---- names -------------------------------------------------------------------------------- */

static int name_taken(char (*names)[SW_NAME_MAX], int n, const char *s)
{
	for (int k = 0; k < n; k++)
		if (strcmp(names[k], s) == 0)
			return 1;
	return strcmp(s, "system") == 0 || strcmp(s, "clock") == 0 || strcmp(s, "t") == 0;
}

/* Unique instance names for agents and signals (identifiers). */
int xb_unit_names(xb *b)
{
	const sw_model *m = b->m;
	int n = m->n_agents + m->n_signals;
	b->unit_name = calloc((size_t)n + 1, sizeof *b->unit_name);
	if (!b->unit_name)
		return SW_ENOMEM;
	for (int u = 0; u < n; u++) {
		char base[SW_NAME_MAX];
		xi_ident(base, 48, u < m->n_agents ? m->agents[u].name : m->signals[u - m->n_agents].name);
		snprintf(b->unit_name[u], SW_NAME_MAX, "%s", base);
		for (int k = 2; name_taken(b->unit_name, u, b->unit_name[u]); k++)
			snprintf(b->unit_name[u], SW_NAME_MAX, "%.48s_%d", base, k);
	}
	return SW_SUCCESS;
}

/* ---- locations and transitions -------------------------------------------------------- */

static int add_location(xb *b, sw_hcomponent *c, const char *name)
{
	void *p = realloc(c->locations, (size_t)(c->n_locations + 1) * sizeof *c->locations);
	void *q = realloc(b->inv, (size_t)(c->n_locations + 1) * sizeof *b->inv);
	if (p)
		c->locations = p;
	if (q)
		b->inv = q;
	if (!p || !q)
		return b->status = SW_ENOMEM, -1;
	sw_hlocation *l = &c->locations[c->n_locations];
	memset(l, 0, sizeof *l);
	memset(&b->inv[c->n_locations], 0, sizeof *b->inv);
	xi_ident(l->name, sizeof l->name, name);
	l->flow = calloc((size_t)c->n_state + 1, sizeof *l->flow);
	if (!l->flow)
		return b->status = SW_ENOMEM, -1;
	return c->n_locations++;
}

static int add_label(sw_hcomponent *c, const char *label)
{
	for (int k = 0; k < c->n_labels; k++)
		if (strcmp(c->labels[k], label) == 0)
			return k;
	void *p = realloc(c->labels, (size_t)(c->n_labels + 1) * sizeof *c->labels);
	if (!p)
		return -1;
	c->labels = p;
	snprintf(c->labels[c->n_labels], SW_NAME_MAX, "%s", label);
	return c->n_labels++;
}

/* Adds a transition with guard atoms q (cloned) and resets (cloned). */
int xb_add_transition(xb *b, sw_hcomponent *c, int from, int to, const char *label,
			  const xr_conj *q, sw_expr_ast **reset, int origin)
{
	void *p = realloc(c->transitions, (size_t)(c->n_transitions + 1) * sizeof *c->transitions);
	if (!p)
		return b->status = SW_ENOMEM;
	c->transitions = p;
	sw_htransition *t = &c->transitions[c->n_transitions++];
	memset(t, 0, sizeof *t);
	t->source = from;
	t->target = to;
	t->origin = origin;
	if (label && label[0]) {
		xi_ident(t->label, sizeof t->label, label);
		if (add_label(c, t->label) < 0)
			return b->status = SW_ENOMEM;
	}
	for (int k = 0; q && k < q->n; k++)
		t->guard = xn_and(t->guard, sw_expr_ast_clone(q->atom[k]));
	t->reset = calloc((size_t)c->n_state + 1, sizeof *t->reset);
	if (!t->reset)
		return b->status = SW_ENOMEM;
	for (int k = 0; k < c->n_state; k++)
		if (!(t->reset[k] = sw_expr_ast_clone(reset[k])))
			return b->status = SW_ENOMEM;
	return SW_SUCCESS;
}

/* Identity resets for every state variable, time_in_mode := 0. */
sw_expr_ast **xb_identity_resets(const sw_hcomponent *c)
{
	sw_expr_ast **r = calloc((size_t)c->n_state + 1, sizeof *r);
	for (int k = 0; r && k < c->n_state; k++)
		r[k] = strcmp(c->vars[k].name, "time_in_mode") == 0 ? xn_num(0) : xn_var(c, k);
	return r;
}

void xb_free_resets(sw_expr_ast **r, int n)
{
	for (int k = 0; r && k < n; k++)
		sw_expr_ast_free(r[k]);
	free(r);
}

/* Urgency of one swerve transition whose DNF is f, into the invariant of location loc. */
static void urgency(xb *b, xl_ctx *c, int loc, const xr_dnf *f)
{
	for (int i = 0; i < f->n; i++) {
		const xr_conj *q = &f->d[i];
		sw_expr_ast *neg = NULL;
		if (q->weakened) {
			xb_note(b, c->where, 1,
				"urgency dropped: the guard was weakened, so the location may be left "
				"later than the simulator leaves it");
		} else if (q->n == 0) {
			int k = sw_hcomponent_find_var(c->comp, "time_in_mode");
			xb_inv_add(b, loc, xn_op(SW_EXPR_LE, xn_var(c->comp, k), xn_num(0)));
		} else if (q->n == 1 && (neg = xr_negate_closed(q->atom[0])) != NULL) {
			xb_inv_add(b, loc, xr_atom_finish(neg, b->def.profile));
		} else {
			xb_note(b, c->where, 1,
				"urgency dropped: the negation of a %s is not convex, so no invariant "
				"can stop the flow when the guard becomes true (the export may stay in "
				"the location longer than the simulator)",
				q->n == 1 ? "equality" : "conjunction");
		}
	}
}

/* Mode invariant expr (may be NULL) into the atoms of location loc. */
static int mode_invariant(xb *b, xl_ctx *c, int loc, const sw_expr *inv)
{
	if (!inv)
		return SW_SUCCESS;
	xr_dnf f = {0};
	int st = xl_dnf(c, sw_expr_tree(inv), 0, &f);
	if (st == SW_SUCCESS && f.n == 1) {
		for (int k = 0; k < f.d[0].n; k++) {
			xb_inv_add(b, loc, f.d[0].atom[k]);
			f.d[0].atom[k] = NULL;
		}
	} else if (st == SW_SUCCESS) {
		xb_note(b, c->where, 1,
			"the mode invariant is not a conjunction (%d disjuncts): dropped (true)", f.n);
	}
	xr_dnf_free(&f);
	return st;
}

/* ---- agent and signal components ------------------------------------------------------ */

/* Declares the state variables of unit u (agent or signal) in c. */
static int declare_state(xb *b, sw_hcomponent *c, const struct sw_automaton *a, int u, int signal)
{
	char net[2 * SW_NAME_MAX];
	const char *inst = b->unit_name[u];
	for (int k = 0; !signal && k < SW_STATE_DIM; k++) {
		snprintf(net, sizeof net, "%s_%s", inst, xb_state_names[k]);
		xb_add_var(b, c, xb_state_names[k], SW_HVAR_STATE, xb_state_meaning[k], net);
	}
	snprintf(net, sizeof net, "%s_time_in_mode", inst);
	xb_add_var(b, c, "time_in_mode", SW_HVAR_STATE, "time since the last jump (s)", net);
	for (int k = 0; a && k < a->n_vars; k++) {
		char name[SW_NAME_MAX];
		xi_ident(name, 56, a->vars[k].name);
		if (sw_hcomponent_find_var(c, name) >= 0 || strcmp(name, "t") == 0 ||
		    strcmp(name, "loc") == 0)
			strcat(name, "_v");
		snprintf(net, sizeof net, "%s_%s", inst, name);
		xb_add_var(b, c, name, SW_HVAR_STATE, "automaton variable", net);
	}
	if (signal) {
		snprintf(net, sizeof net, "%s_loc", inst);
		xb_add_var(b, c, "loc", SW_HVAR_STATE, "index of the current location", net);
	}
	return b->status;
}

/* Flows of the automaton's own variables and time_in_mode in location loc (mode q). */
static int own_flows(xb *b, xl_ctx *c, int loc, int q)
{
	sw_hcomponent *comp = c->comp;
	sw_hlocation *l = &comp->locations[loc];
	int k0 = sw_hcomponent_find_var(comp, "time_in_mode");
	l->flow[k0] = xn_num(1);
	for (int k = k0 + 1; k < comp->n_state; k++)
		l->flow[k] = xn_num(0);
	for (int v = 0; c->a && v < c->a->n_vars; v++) {
		int k = k0 + 1 + v;
		if (c->a->vars[v].kind == SW_VAR_CLOCK) {
			sw_expr_ast_free(l->flow[k]);
			l->flow[k] = xn_num(1);
		}
		const sw_expr *fe = c->a->modes[q].flows[v];
		if (!fe)
			continue;
		sw_expr_ast *e = xl_real(c, sw_expr_tree(fe));
		const char *why = NULL;
		sw_expr_ast *p = e ? xr_profile(e, xb_flow_profile(b), &why) : NULL;
		sw_expr_ast_free(e);
		if (!p) {
			char what[SW_DIAG_MSG];
			snprintf(what, sizeof what, "%s: the flow of '%s'", c->where, c->a->vars[v].name);
			return xb_refuse(b, c->a->modes[q].line,
					 "%s has no closed form in the profile (%s); give it one or "
					 "export with --profile exact",
					 what, e ? (why ? why : "?") : c->why);
		}
		sw_expr_ast_free(l->flow[k]);
		l->flow[k] = p;
	}
	for (int k = 0; k < comp->n_state; k++)
		if (!l->flow[k])
			return b->status = SW_ENOMEM;
	return SW_SUCCESS;
}

/* Resets of swerve transition tr into r (identity already there). */
static int automaton_resets(xb *b, xl_ctx *c, const sw_atrans *tr, sw_expr_ast **r)
{
	sw_hcomponent *comp = c->comp;
	int k0 = sw_hcomponent_find_var(comp, "time_in_mode");
	for (int i = 0; i < tr->n_resets; i++) {
		/* a variable follows time_in_mode; x, y, heading, turn_rate, speed by name */
		int k = tr->resets[i].state < 0
			    ? k0 + 1 + tr->resets[i].var
			    : sw_hcomponent_find_var(comp, sw__reset_name(c->a, &tr->resets[i]));
		if (k < 0)
			return xb_refuse(b, tr->line,
					 "%s: a reset of '%s', which the exported component has no "
					 "variable for",
					 c->where, sw__reset_name(c->a, &tr->resets[i]));
		sw_expr_ast *e = xl_real(c, sw_expr_tree(tr->resets[i].expr));
		const char *why = NULL;
		sw_expr_ast *p = e ? xr_profile(e, b->def.profile, &why) : NULL;
		if (p && e->type == SW_EXPR_BOOL && e->op != SW_EXPR_NUM) {
			sw_expr_ast_free(p);
			p = NULL;
			why = "a boolean expression as value";
		}
		sw_expr_ast_free(e);
		if (!p)
			return xb_refuse(b, tr->line,
					 "%s: a reset has no closed form in the profile (%s)", c->where,
					 why ? why : c->why);
		sw_expr_ast_free(r[k]);
		r[k] = p;
	}
	if (c->agent >= 0 && !c->a->modes[tr->to].moves) {
		sw_expr_ast_free(r[SW_STATE_V]);
		sw_expr_ast_free(r[SW_STATE_OMEGA]);
		r[SW_STATE_V] = xn_num(0);
		r[SW_STATE_OMEGA] = xn_num(0);
	}
	if (c->signal >= 0) {
		int k = sw_hcomponent_find_var(comp, "loc");
		sw_expr_ast_free(r[k]);
		r[k] = xn_num(tr->to);
	}
	return SW_SUCCESS;
}

/* Transitions of an automaton, with urgency. */
static int automaton_transitions(xb *b, xl_ctx *c)
{
	const struct sw_automaton *a = c->a;
	for (int k = 0; k < a->n_trans && b->status == SW_SUCCESS; k++) {
		const sw_atrans *tr = &a->trans[k];
		snprintf(c->where, sizeof c->where, "%.60s: transition %.60s -> %.60s (line %d)", c->comp->id,
			 a->modes[tr->from].name, a->modes[tr->to].name, tr->line);
		xr_dnf f = {0};
		int st = tr->guard ? xl_dnf(c, sw_expr_tree(tr->guard), 0, &f) : SW_SUCCESS;
		if (!tr->guard) {
			xr_conj q = {0, 0, NULL, 0};
			f.d = calloc(1, sizeof *f.d);
			if (f.d)
				f.d[f.n++] = q;
		}
		sw_expr_ast **r = xb_identity_resets(c->comp);
		if (!r || (!f.d && st == SW_SUCCESS))
			st = SW_ENOMEM;
		if (st == SW_SUCCESS)
			st = automaton_resets(b, c, tr, r);
		for (int i = 0; st == SW_SUCCESS && i < f.n; i++)
			st = xb_add_transition(b, c->comp, tr->from, tr->to, tr->label, &f.d[i], r, k);
		if (st == SW_SUCCESS)
			urgency(b, c, tr->from, &f);
		xb_free_resets(r, c->comp->n_state);
		xr_dnf_free(&f);
		if (st != SW_SUCCESS && b->status == SW_SUCCESS)
			b->status = st;
		if (a->modes[tr->from].trans_count > 1 && tr == &a->trans[a->modes[tr->from].trans_first])
			xb_note(b, c->where, 1,
				"mode '%s' has %d outgoing transitions: the simulator takes the first "
				"enabled in document order, the export any enabled one",
				a->modes[tr->from].name, a->modes[tr->from].trans_count);
	}
	return b->status;
}

/* Steering target of agent i in mode md (NULL: plain law): target index, -2 - j for agent j,
 * -1 for none; notes the closest-target rule. */
static int steer_target(xb *b, xl_ctx *c, int i, const sw_amode *md)
{
	const sw_model *m = b->m;
	int tp = md ? md->target_param : -1;
	if (md && tp >= 0) {
		int idx = m->bindings[m->agents[i].binding_first + tp].index;
		return c->a->params[tp].kind == SW_PARAM_AGENT ? -2 - idx : idx;
	}
	if (!md && m->agents[i].target >= 0)
		return m->agents[i].target;
	int best = -1;
	double bd = INFINITY;
	for (int k = 0; k < m->n_targets; k++) {
		sw_vec2 q = sw_model_target_position(m, k, 0.0);
		double d = hypot(q.x - m->agents[i].position.x, q.y - m->agents[i].position.y);
		if (d < bd) {
			bd = d;
			best = k;
		}
	}
	if (m->n_targets > 1)
		xb_note(b, c->where, 0,
			"no target is bound: the simulator re-selects the closest target every step; "
			"the export keeps the closest at t = 0 ('%s')",
			m->targets[best].name);
	return best;
}

/* Builds the component of agent i into c. */
static int agent_component(xb *b, int i, sw_hcomponent *comp)
{
	const sw_model *m = b->m;
	const sw_agent *ag = &m->agents[i];
	const struct sw_automaton *a = ag->behaviour >= 0 ? m->automata[ag->behaviour] : NULL;
	xl_ctx c = {b, comp, m, a, i, -1, "", ""};
	if (a)
		xi_ident(comp->id, sizeof comp->id, a->name);
	else
		snprintf(comp->id, sizeof comp->id, "plain_%s", sw_law_name(ag->steer.law));
	if (declare_state(b, comp, a, i, 0) != SW_SUCCESS)
		return b->status;
	if (!a) {
		snprintf(c.where, sizeof c.where, "%.60s (agent '%.60s'): location steer", comp->id, ag->name);
		int tgt = steer_target(b, &c, i, NULL);
		int steer = add_location(b, comp, "steer");
		if (steer < 0 || xb_law_flows(b, &c, steer, &ag->steer, tgt, comp->locations[0].flow))
			return b->status;
		own_flows(b, &c, steer, -1);
		if (tgt < 0 || !ag->stop_at_target)
			return b->status;
		int arr = add_location(b, comp, "arrived");
		if (arr < 0)
			return b->status;
		for (int k = 0; k < SW_STATE_DIM; k++)
			comp->locations[arr].flow[k] = xn_num(0);
		own_flows(b, &c, arr, -1);
		/* dist(target) <= radius, squared: (x - tx(t))^2 + (y - ty(t))^2 <= R^2 */
		const sw_target *tg = &m->targets[tgt];
		if (tg->motion.kind == SW_MOTION_WAYPOINTS) {
			sw_expr_ast **r = xb_identity_resets(comp);
			xr_conj q = {0, 0, NULL, 1};
			if (!r)
				return b->status = SW_ENOMEM;
			sw_expr_ast_free(r[SW_STATE_V]);
			sw_expr_ast_free(r[SW_STATE_OMEGA]);
			r[SW_STATE_V] = xn_num(0);
			r[SW_STATE_OMEGA] = xn_num(0);
			xb_add_transition(b, comp, steer, arr, "arrive", &q, r, -1);
			xb_free_resets(r, comp->n_state);
			snprintf(c.where, sizeof c.where, "%.60s (agent '%.60s'): transition steer -> "
							  "arrived", comp->id, ag->name);
			xb_note(b, c.where, 1,
				"the arrival guard dist(target) <= radius has no closed form (the target "
				"follows waypoints): replaced by true, and its urgency dropped");
			return b->status;
		}
		int kt = tg->motion.kind == SW_MOTION_LINEAR ? xb_time_var(&c) : -1;
		double vx = kt >= 0 ? tg->motion.velocity.x : 0, vy = kt >= 0 ? tg->motion.velocity.y : 0;
		sw_expr_ast *d2 = xn_op(
		    SW_EXPR_ADD,
		    xn_sq_diff(xn_var(comp, 0), xn_moving(tg->position.x, vx, xn_var(comp, kt))),
		    xn_sq_diff(xn_var(comp, 1), xn_moving(tg->position.y, vy, xn_var(comp, kt))));
		xr_dnf f = {0};
		xr_conj q = {0, 0, NULL, 0};
		q.atom = calloc(1, sizeof *q.atom);
		if (q.atom)
			q.atom[q.n++] = xn_op(SW_EXPR_LE, d2, xn_num(tg->radius * tg->radius));
		f.d = &q;
		f.n = 1;
		sw_expr_ast **r = xb_identity_resets(comp);
		if (!r || !q.atom || !q.atom[0]) {
			xb_free_resets(r, comp->n_state);
			sw_expr_ast_free(q.atom ? q.atom[0] : NULL);
			free(q.atom);
			return b->status = SW_ENOMEM;
		}
		sw_expr_ast_free(r[SW_STATE_V]);
		sw_expr_ast_free(r[SW_STATE_OMEGA]);
		r[SW_STATE_V] = xn_num(0);
		r[SW_STATE_OMEGA] = xn_num(0);
		xb_add_transition(b, comp, steer, arr, "arrive", &q, r, -1);
		snprintf(c.where, sizeof c.where, "%.60s (agent '%.60s'): transition steer -> arrived",
			 comp->id, ag->name);
		urgency(b, &c, steer, &f);
		xb_free_resets(r, comp->n_state);
		sw_expr_ast_free(q.atom[0]);
		free(q.atom);
		return b->status;
	}
	for (int q = 0; q < a->n_modes && b->status == SW_SUCCESS; q++) {
		const sw_amode *md = &a->modes[q];
		snprintf(c.where, sizeof c.where, "%.60s (agent '%.60s'): location %.60s", comp->id, ag->name,
			 md->name);
		int loc = add_location(b, comp, md->name);
		if (loc < 0)
			return b->status;
		if (md->moves) {
			sw_steer_def d = md->steer;
			sw__law_personalize(&d, &ag->personality);
			int tgt = steer_target(b, &c, i, md);
			if (xb_law_flows(b, &c, loc, &d, tgt, comp->locations[loc].flow))
				return b->status;
		} else {
			for (int k = 0; k < SW_STATE_DIM; k++)
				comp->locations[loc].flow[k] = xn_num(0);
		}
		own_flows(b, &c, loc, q);
		mode_invariant(b, &c, loc, md->invariant);
	}
	if (b->status == SW_SUCCESS)
		automaton_transitions(b, &c);
	return b->status;
}

/* Builds the component of signal s into c. */
static int signal_component(xb *b, int s, sw_hcomponent *comp)
{
	const sw_model *m = b->m;
	const struct sw_automaton *a = m->automata[m->signals[s].automaton];
	xl_ctx c = {b, comp, m, a, -1, s, "", ""};
	xi_ident(comp->id, sizeof comp->id, a->name);
	if (declare_state(b, comp, a, m->n_agents + s, 1) != SW_SUCCESS)
		return b->status;
	for (int q = 0; q < a->n_modes && b->status == SW_SUCCESS; q++) {
		snprintf(c.where, sizeof c.where, "%.60s (signal '%.60s'): location %.60s", comp->id,
			 m->signals[s].name, a->modes[q].name);
		int loc = add_location(b, comp, a->modes[q].name);
		if (loc < 0)
			return b->status;
		own_flows(b, &c, loc, q);
		mode_invariant(b, &c, loc, a->modes[q].invariant);
	}
	if (b->status == SW_SUCCESS)
		automaton_transitions(b, &c);
	return b->status;
}

/* Input bounds and collected atoms become the location invariants. */
static void finish_invariants(xb *b, sw_hcomponent *c)
{
	for (int l = 0; l < c->n_locations; l++) {
		sw_expr_ast *inv = NULL;
		for (int k = 0; k < b->inv[l].n; k++)
			inv = xn_and(inv, b->inv[l].atom[k]);
		free(b->inv[l].atom);
		for (int v = 0; v < c->n_vars; v++) {
			if (c->vars[v].role != SW_HVAR_INPUT)
				continue;
			double lo = 0.0, hi = 0.0;
			for (int k = 0; k < b->n_bounds; k++)
				if (b->bounds[k].loc == l && b->bounds[k].var == v) {
					lo = b->bounds[k].lo;
					hi = b->bounds[k].hi;
				}
			/* an infinite bound (linear abstraction) is no constraint */
			if (isfinite(lo))
				inv = xn_and(inv, xn_op(SW_EXPR_GE, xn_var(c, v), xn_num(lo)));
			if (isfinite(hi))
				inv = xn_and(inv, xn_op(SW_EXPR_LE, xn_var(c, v), xn_num(hi)));
		}
		c->locations[l].invariant = inv;
	}
	free(b->inv);
	b->inv = NULL;
	b->n_bounds = 0;
}

int xb_component(xb *b, int u, sw_hcomponent *comp)
{
	const sw_model *m = b->m;
	int mark = b->h->n_approx;
	b->n_bounds = 0;
	int st = u < m->n_agents ? agent_component(b, u, comp)
				 : signal_component(b, u - m->n_agents, comp);
	char unit[96];
	snprintf(unit, sizeof unit, "%s '%.60s'", u < m->n_agents ? "agent" : "signal",
		 u < m->n_agents ? m->agents[u].name : m->signals[u - m->n_agents].name);
	if (st == SW_SUCCESS && b->status == SW_SUCCESS && b->inv)
		xb_lift_bearings(b, comp, u, unit);
	if (st == SW_SUCCESS && b->status == SW_SUCCESS && b->inv)
		xb_freeze_weights(b, comp, u, mark);
	if (st == SW_SUCCESS && b->status == SW_SUCCESS && b->inv &&
	    (b->def.profile == SW_PROFILE_HYST || b->def.profile == SW_PROFILE_JULIAREACH))
		xb_simple_invariants(b, comp, u, unit);
	if (st == SW_SUCCESS && b->status == SW_SUCCESS)
		xb_polynomial_guards(b, comp, unit);
	if (st == SW_SUCCESS && b->status == SW_SUCCESS && b->def.linear && b->inv)
		st = xb_linearize(b, comp, u);
	if (b->inv)
		finish_invariants(b, comp);
	return st != SW_SUCCESS ? st : b->status;
}
