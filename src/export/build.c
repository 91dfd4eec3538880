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
 * t = 0, after the jumps enabled at t = 0 (sw_world_create). */
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
			if (d.law == SW_LAW_GLM)
				d.glm = sw_glm_with_personality(&d.glm, &ag->personality);
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

/* ---- Flow*-friendly invariants: frozen weights, lifted conjuncts ------------------------
 *
 * HyST's Flow* printer reads the input ranges out of every location invariant and then needs
 * every conjunct of it to be `variable relop constant`.  In the HyST and JuliaReach profiles a
 * conjunct f op c that is not simple is lifted: a new state variable g == f (flow: the time
 * derivative of f along the location's flows; resets: f after the jump; initial value: f over
 * the initial set) and the conjunct, and every guard atom over the same f, become g op c.  A
 * conjunct whose f reads inputs or other components' variables, or whose derivative leaves the
 * profile, is dropped (more behaviours) and reported.  Independently, in every profile but
 * exact, the GLM weights are frozen when nothing reads them (the heading rate is then an input):
 * w' == 0, and the inputs u_w_tar, u_w_obs disappear. */

static int reads(const sw_expr_ast *a, int k)
{
	if (!a)
		return 0;
	if (a->op == SW_EXPR_VAR && a->slot == k)
		return 1;
	for (int i = 0; i < a->nkid; i++)
		if (reads(a->kid[i], k))
			return 1;
	return 0;
}

/* Rewrites the slot of every variable node of a (ours, not yet published) through newslot. */
static void reslot(sw_expr_ast *a, const int *newslot)
{
	if (!a)
		return;
	if (a->op == SW_EXPR_VAR && a->slot >= 0)
		a->slot = newslot[a->slot];
	for (int i = 0; i < a->nkid; i++)
		reslot(a->kid[i], newslot);
}

/* Renumbers every tree of component c under construction (flows, collected invariant atoms,
 * guards, resets) and the input bounds through newslot. */
static void reslot_all(xb *b, sw_hcomponent *c, const int *newslot)
{
	for (int l = 0; l < c->n_locations; l++) {
		for (int k = 0; k < c->n_state; k++)
			reslot(c->locations[l].flow[k], newslot);
		for (int i = 0; i < b->inv[l].n; i++)
			reslot(b->inv[l].atom[i], newslot);
	}
	for (int t = 0; t < c->n_transitions; t++) {
		reslot(c->transitions[t].guard, newslot);
		for (int k = 0; k < c->n_state; k++)
			reslot(c->transitions[t].reset[k], newslot);
	}
	for (int i = 0; i < b->n_bounds; i++)
		b->bounds[i].var = newslot[b->bounds[i].var];
	for (int k = 0; k < c->n_vars; k++)
		reslot(c->vars[k].lifted, newslot);
}

/* Whether anything but the flows and resets of the variables in the bit mask skip reads
 * variable k. */
static int read_anywhere(const xb *b, const sw_hcomponent *c, int k, unsigned skip)
{
	for (int l = 0; l < c->n_locations; l++) {
		for (int j = 0; j < c->n_state; j++)
			if (!(j < 32 && (skip >> j & 1u)) && reads(c->locations[l].flow[j], k))
				return 1;
		for (int i = 0; i < b->inv[l].n; i++)
			if (reads(b->inv[l].atom[i], k))
				return 1;
	}
	for (int t = 0; t < c->n_transitions; t++) {
		if (reads(c->transitions[t].guard, k))
			return 1;
		for (int j = 0; j < c->n_state; j++)
			if (!(j < 32 && (skip >> j & 1u)) && reads(c->transitions[t].reset[j], k))
				return 1;
	}
	return 0;
}

/* Removes input k (read nowhere) from c, with its bounds. */
static void drop_input(xb *b, sw_hcomponent *c, int k)
{
	int n = c->n_vars, *ns = malloc((size_t)n * sizeof *ns);
	if (!ns) {
		b->status = SW_ENOMEM;
		return;
	}
	for (int j = 0; j < n; j++)
		ns[j] = j < k ? j : j == k ? -1 : j - 1;
	int w = 0;
	for (int i = 0; i < b->n_bounds; i++)
		if (b->bounds[i].var != k)
			b->bounds[w++] = b->bounds[i];
	b->n_bounds = w;
	reslot_all(b, c, ns);
	free(ns);
	memmove(&c->vars[k], &c->vars[k + 1], (size_t)(n - k - 1) * sizeof *c->vars);
	memmove(&b->map[k], &b->map[k + 1], (size_t)(n - k - 1) * sizeof *b->map);
	c->n_vars--;
}

/* Freezes w_tar and w_obs of agent component c when only their own flows read them. */
static void freeze_weights(xb *b, sw_hcomponent *c, int u, int mark)
{
	const int W0 = SW_STATE_WTAR, W1 = SW_STATE_WOBS;
	if (b->def.profile == SW_PROFILE_EXACT || u >= b->m->n_agents || c->n_state <= W1)
		return;
	unsigned skip = 1u << W0 | 1u << W1;
	int moving = 0;
	for (int l = 0; l < c->n_locations; l++)
		for (int k = W0; k <= W1; k++)
			moving |= c->locations[l].flow[k]->op != SW_EXPR_NUM ||
				  c->locations[l].flow[k]->value != 0.0;
	if (!moving || read_anywhere(b, c, W0, skip) || read_anywhere(b, c, W1, skip))
		return;
	for (int l = 0; l < c->n_locations; l++)
		for (int k = W0; k <= W1; k++) {
			sw_expr_ast_free(c->locations[l].flow[k]);
			if (!(c->locations[l].flow[k] = xn_num(0)))
				b->status = SW_ENOMEM;
		}
	for (int k = c->n_vars - 1; k >= c->n_state && b->status == SW_SUCCESS; k--)
		if (c->vars[k].role == SW_HVAR_INPUT && !read_anywhere(b, c, k, 0))
			drop_input(b, c, k);
	/* the notes about the weights' input bounds no longer apply */
	sw_hybrid *h = b->h;
	int w = mark;
	for (int i = mark; i < h->n_approx; i++)
		if (strncmp(h->approx[i].what, "weights: ", 9) != 0)
			h->approx[w++] = h->approx[i];
	h->n_approx = w;
	char where[256];
	snprintf(where, sizeof where, "%.60s (agent '%.60s')", c->id, b->m->agents[u].name);
	xb_note(b, where, 0,
		"w_tar/w_obs not exported: unread (the heading rate and the speed are inputs, and "
		"no other flow, guard, invariant, reset or unsafe set reads the weights): their "
		"flows are 0, they keep their initial values, and u_w_tar/u_w_obs are not "
		"exported; a verdict about any other variable is unaffected");
}

static int simple_atom(const sw_expr_ast *a)
{
	if (a->nkid != 2 || !(a->op == SW_EXPR_LT || a->op == SW_EXPR_LE || a->op == SW_EXPR_GT ||
			      a->op == SW_EXPR_GE || a->op == SW_EXPR_EQ))
		return 0;
	const sw_expr_ast *l = a->kid[0], *r = a->kid[1];
	return (l->op == SW_EXPR_VAR && r->op == SW_EXPR_NUM) ||
	       (l->op == SW_EXPR_NUM && r->op == SW_EXPR_VAR);
}

static sw_expr_op swap_rel(sw_expr_op op)
{
	return op == SW_EXPR_LE ? SW_EXPR_GE : op == SW_EXPR_GE ? SW_EXPR_LE
		: op == SW_EXPR_LT ? SW_EXPR_GT : op == SW_EXPR_GT ? SW_EXPR_LT : op;
}

/* Writes relation a as f op c (f new; a number on the left swaps the relation; two non-numbers
 * give f = left - right, c = 0).  Returns 0 when a is not a relation. */
static int split_atom(const sw_expr_ast *a, sw_expr_ast **f, sw_expr_op *op, double *c)
{
	*f = NULL;
	if (a->nkid != 2 || !(a->op == SW_EXPR_LT || a->op == SW_EXPR_LE || a->op == SW_EXPR_GT ||
			      a->op == SW_EXPR_GE || a->op == SW_EXPR_EQ))
		return 0;
	const sw_expr_ast *l = a->kid[0], *r = a->kid[1];
	*op = a->op;
	if (r->op == SW_EXPR_NUM) {
		*f = sw_expr_ast_clone(l);
		*c = r->value;
	} else if (l->op == SW_EXPR_NUM) {
		*f = sw_expr_ast_clone(r);
		*c = l->value;
		*op = swap_rel(a->op);
	} else {
		*f = xn_op(SW_EXPR_SUB, sw_expr_ast_clone(l), sw_expr_ast_clone(r));
		*c = 0.0;
	}
	return *f != NULL;
}

static int is_time(const xb *b, const sw_hcomponent *c, int k)
{
	return k >= c->n_state && c->vars[k].role == SW_HVAR_READ && strcmp(b->map[k], "t") == 0;
}

/* The flow of g == f in location l: sum over f's variables of df/dv v' (t' = 1), in the flow
 * profile; NULL with *why set when a derivative is missing or leaves the profile. */
sw_expr_ast *xb_lie_derivative(xb *b, const sw_hcomponent *c, int l, const sw_expr_ast *f,
				   const char **why)
{
	sw_expr_ast *sum = NULL;
	for (int k = 0; k < c->n_vars; k++) {
		if (!reads(f, k))
			continue;
		const sw_expr_ast *rate = k < c->n_state ? c->locations[l].flow[k] : NULL;
		if (rate && rate->op == SW_EXPR_NUM && rate->value == 0.0)
			continue;
		sw_expr_ast *d = NULL;
		if (sw_expr_ast_derivative(f, k, NULL, NULL, &d) != SW_SUCCESS) {
			sw_expr_ast_free(sum);
			*why = "a function without a derivative";
			return NULL;
		}
		sw_expr_ast *term = d;
		if (d->op == SW_EXPR_NUM && d->value == 0.0) {
			sw_expr_ast_free(d);
			continue;
		}
		if (rate)
			term = d->op == SW_EXPR_NUM && d->value == 1.0
				   ? (sw_expr_ast_free(d), sw_expr_ast_clone(rate))
				   : xn_op(SW_EXPR_MUL, d, sw_expr_ast_clone(rate));
		sum = sum ? xn_op(SW_EXPR_ADD, sum, term) : term;
		if (!sum) {
			*why = "out of memory";
			return NULL;
		}
	}
	if (!sum)
		return xn_num(0);
	sw_expr_ast *p = xr_profile(sum, xb_flow_profile(b), why);
	sw_expr_ast_free(sum);
	return p;
}

/* Value of f after the jump of transition tr: f with every state variable replaced by its
 * reset (NULL on failure). */
static sw_expr_ast *after_jump(const sw_hcomponent *c, const sw_htransition *tr,
			       const sw_expr_ast *f)
{
	if (f->op == SW_EXPR_VAR && f->slot < c->n_state)
		return sw_expr_ast_clone(tr->reset[f->slot]);
	if (f->nkid == 0)
		return sw_expr_ast_clone(f);
	sw_expr_ast *k[SW_EXPR_MAX_ARGS] = {NULL};
	int ok = 1;
	for (int i = 0; i < f->nkid; i++)
		ok &= (k[i] = after_jump(c, tr, f->kid[i])) != NULL;
	if (ok && f->op != SW_EXPR_HOST)
		return sw_expr_ast_node(f->op, k[0], k[1], f->nkid > 2 ? k[2] : NULL);
	for (int i = 0; i < f->nkid; i++)
		sw_expr_ast_free(k[i]);
	return NULL;
}

/* Adds state variable g == f (f consumed; its flows already computed in flows[], consumed) as
 * the last state variable of c; returns its index. */
int xb_add_lifted(xb *b, sw_hcomponent *c, int u, sw_expr_ast *f, sw_expr_ast **flows,
		      const char *text)
{
	int ns = c->n_state, n = c->n_vars;
	char name[SW_NAME_MAX];
	for (int s = 1; s == 1 || sw_hcomponent_find_var(c, name) >= 0; s++)
		snprintf(name, sizeof name, "lifted_%d", s);
	int *nsl = malloc(((size_t)n + 1) * sizeof *nsl);
	void *v = realloc(c->vars, ((size_t)n + 1) * sizeof *c->vars);
	if (v)
		c->vars = v;
	if (!nsl || !v || xi_grow((void **)&b->map, &b->cap_map, n + 1, sizeof *b->map)) {
		free(nsl);
		sw_expr_ast_free(f);
		return b->status = SW_ENOMEM, -1;
	}
	for (int k = 0; k < n; k++)
		nsl[k] = k < ns ? k : k + 1;
	reslot_all(b, c, nsl);
	reslot(f, nsl);
	for (int l = 0; l < c->n_locations; l++)
		reslot(flows[l], nsl);
	free(nsl);
	memmove(&c->vars[ns + 1], &c->vars[ns], (size_t)(n - ns) * sizeof *c->vars);
	memmove(&b->map[ns + 1], &b->map[ns], (size_t)(n - ns) * sizeof *b->map);
	sw_hvar *g = &c->vars[ns];
	memset(g, 0, sizeof *g);
	snprintf(g->name, sizeof g->name, "%s", name);
	g->role = SW_HVAR_STATE;
	snprintf(g->meaning, sizeof g->meaning, "lifted: %.80s", text);
	g->lifted = f;
	snprintf(b->map[ns], sizeof b->map[ns], "%.60s_%s", b->unit_name[u], g->name);
	c->n_vars++;
	c->n_state++;
	for (int l = 0; l < c->n_locations; l++) {
		sw_expr_ast **p = realloc(c->locations[l].flow, ((size_t)ns + 2) * sizeof *p);
		if (!p) {
			sw_expr_ast_free(flows[l]);
			b->status = SW_ENOMEM;
			continue;
		}
		c->locations[l].flow = p;
		p[ns] = flows[l];
		p[ns + 1] = NULL;
	}
	for (int t = 0; t < c->n_transitions; t++) {
		sw_htransition *tr = &c->transitions[t];
		sw_expr_ast **p = realloc(tr->reset, ((size_t)ns + 2) * sizeof *p);
		if (!p) {
			b->status = SW_ENOMEM;
			continue;
		}
		tr->reset = p;
		int identity = 1;
		for (int k = 0; k < ns; k++)
			identity &= !reads(f, k) ||
				    (p[k]->op == SW_EXPR_VAR && p[k]->slot == k);
		p[ns] = identity ? xn_var(c, ns) : after_jump(c, tr, f);
		p[ns + 1] = NULL;
		if (!p[ns])
			b->status = SW_ENOMEM;
	}
	return b->status == SW_SUCCESS ? ns : -1;
}

/* Index of the lifted variable of c equal to f, or -1. */
static int find_lifted(const sw_hcomponent *c, const sw_expr_ast *f)
{
	for (int k = 0; k < c->n_state; k++)
		if (c->vars[k].lifted && sw_expr_ast_equal(c->vars[k].lifted, f))
			return k;
	return -1;
}

/* Replaces the guard atoms of c over a lifted expression by the lifted variable. */
static void lift_guards(xb *b, sw_hcomponent *c)
{
	for (int t = 0; t < c->n_transitions && b->status == SW_SUCCESS; t++) {
		sw_htransition *tr = &c->transitions[t];
		const sw_expr_ast *stack[64], *atoms[64];
		int sp = 0, na = 0;
		if (tr->guard)
			stack[sp++] = tr->guard;
		while (sp && na < 64) { /* conjuncts in written order */
			const sw_expr_ast *a = stack[--sp];
			if (a->op == SW_EXPR_AND && sp < 62) {
				stack[sp++] = a->kid[1];
				stack[sp++] = a->kid[0];
			} else {
				atoms[na++] = a;
			}
		}
		if (sp)
			continue; /* too deep to rebuild: kept as it is */
		sw_expr_ast *g = NULL;
		int changed = 0;
		for (int i = 0; i < na; i++) {
			sw_expr_ast *f = NULL;
			sw_expr_op op;
			double v;
			int k = !simple_atom(atoms[i]) && split_atom(atoms[i], &f, &op, &v)
				    ? find_lifted(c, f) : -1;
			sw_expr_ast_free(f);
			changed |= k >= 0;
			g = xn_and(g, k >= 0 ? xn_op(op, xn_var(c, k), xn_num(v))
					     : sw_expr_ast_clone(atoms[i]));
			if (!g) {
				b->status = SW_ENOMEM;
				return;
			}
		}
		if (changed) {
			sw_expr_ast_free(tr->guard);
			tr->guard = g;
		} else {
			sw_expr_ast_free(g);
		}
	}
}

/* Makes every collected invariant atom of c simple (HyST and JuliaReach profiles). */
static void simple_invariants(xb *b, sw_hcomponent *c, int u, const char *unit)
{
	char where[256];
	int lifted = 0;
	for (int l = 0; l < c->n_locations && b->status == SW_SUCCESS; l++) {
		xr_conj *q = &b->inv[l];
		snprintf(where, sizeof where, "%.60s (%.60s): location %.60s", c->id, unit,
			 c->locations[l].name);
		for (int i = 0; i < q->n && b->status == SW_SUCCESS; i++) {
			sw_expr_ast *a = q->atom[i], *f = NULL;
			if (simple_atom(a)) {
				if (a->kid[0]->op == SW_EXPR_NUM) { /* number op var -> var op' number */
					q->atom[i] = xn_op(swap_rel(a->op), sw_expr_ast_clone(a->kid[1]),
							   sw_expr_ast_clone(a->kid[0]));
					sw_expr_ast_free(a);
					if (!q->atom[i])
						b->status = SW_ENOMEM;
				}
				continue;
			}
			char *text = xw_expr(b->h, a);
			sw_expr_op op;
			double v;
			const char *why = NULL;
			int k = -1, ok = split_atom(a, &f, &op, &v);
			for (int j = 0; ok && j < c->n_vars; j++)
				if (reads(f, j) && !(j < c->n_state && !c->vars[j].lifted) &&
				    !is_time(b, c, j)) {
					ok = 0;
					why = c->vars[j].role == SW_HVAR_INPUT ? "an input" : "another component's variable";
				}
			if (ok && (k = find_lifted(c, f)) < 0) {
				sw_expr_ast **flows = calloc((size_t)c->n_locations + 1, sizeof *flows);
				for (int m = 0; flows && m < c->n_locations && ok; m++)
					ok = (flows[m] = xb_lie_derivative(b, c, m, f, &why)) != NULL;
				if (flows && ok) {
					k = xb_add_lifted(b, c, u, f, flows, text ? text : "?");
					f = NULL;
					lifted++;
				} else {
					for (int m = 0; flows && m < c->n_locations; m++)
						sw_expr_ast_free(flows[m]);
					ok = 0;
				}
				free(flows);
			}
			sw_expr_ast_free(f);
			if (ok && k >= 0) {
				sw_expr_ast *na = xn_op(op, xn_var(c, k), xn_num(v));
				sw_expr_ast_free(q->atom[i]);
				q->atom[i] = na;
				if (!na)
					b->status = SW_ENOMEM;
				xb_note(b, where, 1,
					"the invariant conjunct %s is written as %s %s %.10g over a "
					"state variable %s equal to its left side (flow: its time "
					"derivative; resets: its value after the jump; initially its "
					"interval over the initial set), since Flow* through HyST "
					"needs every invariant conjunct as variable relop constant",
					text ? text : "?", c->vars[k].name,
					op == SW_EXPR_LE ? "<=" : op == SW_EXPR_GE ? ">=" : op == SW_EXPR_EQ ? "==" : op == SW_EXPR_LT ? "<" : ">",
					v, c->vars[k].name);
			} else if (b->status == SW_SUCCESS) {
				xb_note(b, where, 1,
					"invariant conjunct %s dropped (true): Flow* through HyST needs "
					"every invariant conjunct as variable relop constant, and it "
					"cannot be lifted into a state variable (it reads %s); the "
					"location may be left later than the simulator leaves it",
					text ? text : "?", why ? why : "something without a derivative");
				sw_expr_ast_free(q->atom[i]);
				memmove(&q->atom[i], &q->atom[i + 1], (size_t)(q->n - i - 1) * sizeof *q->atom);
				q->n--;
				i--;
			}
			free(text);
		}
	}
	if (lifted && b->status == SW_SUCCESS)
		lift_guards(b, c);
}

int xb_lifted_initial(const sw_hcomponent *c, const char (*map)[2 * SW_NAME_MAX], int k,
		      const double *slo, const double *shi, double *lo, double *hi)
{
	double *bl = malloc(((size_t)c->n_vars + 1) * sizeof *bl);
	double *bh = malloc(((size_t)c->n_vars + 1) * sizeof *bh);
	int st = bl && bh ? SW_SUCCESS : SW_ENOMEM;
	for (int j = 0; st == SW_SUCCESS && j < c->n_vars; j++) {
		int state = j < c->n_state && !c->vars[j].lifted, t = !state && strcmp(map[j], "t") == 0;
		bl[j] = state ? slo[j] : t ? 0.0 : -INFINITY;
		bh[j] = state ? shi[j] : t ? 0.0 : INFINITY;
	}
	*lo = -INFINITY;
	*hi = INFINITY;
	if (st == SW_SUCCESS && sw_expr_interval(c->vars[k].lifted, bl, bh, lo, hi) != SW_SUCCESS)
		st = SW_EINPUT;
	if (st == SW_SUCCESS && !(isfinite(*lo) && isfinite(*hi) && *lo <= *hi))
		st = SW_EINPUT;
	free(bl);
	free(bh);
	return st;
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
		freeze_weights(b, comp, u, mark);
	if (st == SW_SUCCESS && b->status == SW_SUCCESS && b->inv &&
	    (b->def.profile == SW_PROFILE_HYST || b->def.profile == SW_PROFILE_JULIAREACH))
		simple_invariants(b, comp, u, unit);
	if (st == SW_SUCCESS && b->status == SW_SUCCESS)
		xb_polynomial_guards(b, comp, unit);
	if (st == SW_SUCCESS && b->status == SW_SUCCESS && b->def.linear && b->inv)
		st = xb_linearize(b, comp, u);
	if (b->inv)
		finish_invariants(b, comp);
	return st != SW_SUCCESS ? st : b->status;
}
