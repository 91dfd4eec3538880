/* export/translate.c - automaton expressions -> component expressions.
 *
 * A compiled guard reads expression slots (automaton_impl.h) and calls perception functions.
 * Here slots become component variables (x, ..., time_in_mode, the automaton's variables, the
 * global time t); real parameters and enumeration labels are folded in as numbers (components are
 * per agent, deduplicated afterwards); and perception calls become closed forms where one exists:
 *     dist(target)   = sqrt((x - tx(t))^2 + (y - ty(t))^2),  tx(t) = tx + tvx t (linear motion)
 *     dist(agent)    = sqrt((x - o_x)^2 + (y - o_y)^2)       (o_x, o_y: the other's state)
 *     dist(disc)     = sqrt((x - cx(t))^2 + (y - cy(t))^2) - r - rho_a
 *     bearing(obj)   = atan2(sin(psi - heading), cos(psi - heading)),  psi = atan2(dy, dx)
 *     inside(region) = one half-plane per edge, when the region is convex
 *     in(sig, mode)  = sig_loc == index of mode (sig_loc: the signal's location variable)
 * Guards go to disjunctive normal form: negations are pushed to the atoms (not (a < b) is
 * a >= b, a != b is a < b or a > b), so an `or` becomes two SpaceEx transitions.  A part with no
 * closed form (visible, progress, neighbors, clearance, dist to walls/polygons/regions,
 * non-convex regions, if) becomes `true` in its conjunction: the transition may then fire earlier
 * than in the simulator, never later - an over-approximation that keeps a verifier's "safe"
 * sound.  Each such step is recorded for the report. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"

static const sw_binding *binding(const xl_ctx *c, int param)
{
	return &c->m->bindings[c->m->agents[c->agent].binding_first + param];
}

static sw_expr_ast *cvar(xl_ctx *c, int k)
{
	return k >= 0 ? xn_var(c->comp, k) : NULL;
}

/* Position of target idx as trees (NULL on waypoint motion, with c->why set). */
static int target_xy(xl_ctx *c, int idx, sw_expr_ast **tx, sw_expr_ast **ty)
{
	const sw_target *tg = &c->m->targets[idx];
	if (tg->motion.kind == SW_MOTION_WAYPOINTS) {
		snprintf(c->why, sizeof c->why, "target '%s' follows waypoints (no closed form)",
			 tg->name);
		return -1;
	}
	int lin = tg->motion.kind == SW_MOTION_LINEAR;
	*tx = xn_moving(tg->position.x, lin ? tg->motion.velocity.x : 0.0,
			lin && tg->motion.velocity.x != 0.0 ? cvar(c, xb_time_var(c)) : NULL);
	*ty = xn_moving(tg->position.y, lin ? tg->motion.velocity.y : 0.0,
			lin && tg->motion.velocity.y != 0.0 ? cvar(c, xb_time_var(c)) : NULL);
	return 0;
}

/* Reference point of object parameter j (target, agent, disc obstacle) as trees, and the
 * distance offset of dist() (radius sum for discs).  Returns -1 when there is no closed form. */
static int object_xy(xl_ctx *c, int j, sw_expr_ast **ox, sw_expr_ast **oy, double *offset)
{
	const struct sw_automaton *a = c->a;
	const sw_binding *b = binding(c, j);
	*offset = 0.0;
	*ox = *oy = NULL;
	switch (a->params[j].kind) {
	case SW_PARAM_TARGET: return target_xy(c, b->index, ox, oy);
	case SW_PARAM_AGENT:
		*ox = cvar(c, xb_other_agent_var(c, b->index, 0));
		*oy = cvar(c, xb_other_agent_var(c, b->index, 1));
		return 0;
	case SW_PARAM_OBSTACLE: {
		const sw_obstacle *o = &c->m->obstacles[b->index];
		if (o->shape != SW_SHAPE_DISC || o->motion.kind == SW_MOTION_WAYPOINTS) {
			snprintf(c->why, sizeof c->why,
				 "the clearance to obstacle '%s' has no closed form (only static or "
				 "linearly moving discs have one)",
				 o->name);
			return -1;
		}
		int lin = o->motion.kind == SW_MOTION_LINEAR;
		*ox = xn_moving(o->center.x, lin ? o->motion.velocity.x : 0.0,
				lin && o->motion.velocity.x != 0.0 ? cvar(c, xb_time_var(c)) : NULL);
		*oy = xn_moving(o->center.y, lin ? o->motion.velocity.y : 0.0,
				lin && o->motion.velocity.y != 0.0 ? cvar(c, xb_time_var(c)) : NULL);
		*offset = o->radius + c->m->agents[c->agent].radius;
		return 0;
	}
	default:
		snprintf(c->why, sizeof c->why, "the distance to region '%s' has no closed form",
			 b->text);
		return -1;
	}
}

static sw_expr_ast *host_real(xl_ctx *c, const sw_expr_ast *a)
{
	sw_expr_ast *ox, *oy;
	double off;
	switch (a->slot) {
	case SW_HF_DIST: {
		if (object_xy(c, a->kid[0]->slot, &ox, &oy, &off) != 0)
			return NULL;
		sw_expr_ast *d = xn_call(SW_EXPR_SQRT,
					 xn_op(SW_EXPR_ADD, xn_sq_diff(cvar(c, 0), ox),
					       xn_sq_diff(cvar(c, 1), oy)));
		return off != 0.0 ? xn_op(SW_EXPR_SUB, d, xn_num(off)) : d;
	}
	case SW_HF_BEARING: {
		if (object_xy(c, a->kid[0]->slot, &ox, &oy, &off) != 0)
			return NULL;
		sw_expr_ast *psi = xn_op(SW_EXPR_ATAN2, xn_op(SW_EXPR_SUB, oy, cvar(c, 1)),
					 xn_op(SW_EXPR_SUB, ox, cvar(c, 0)));
		sw_expr_ast *e = xn_op(SW_EXPR_SUB, psi, cvar(c, 2));
		sw_expr_ast *e2 = e ? sw_expr_ast_clone(e) : NULL;
		return xn_op(SW_EXPR_ATAN2, xn_call(SW_EXPR_SIN, e), xn_call(SW_EXPR_COS, e2));
	}
	default:
		snprintf(c->why, sizeof c->why, "%s() has no closed form", a->name);
		return NULL;
	}
}

sw_expr_ast *xl_real(xl_ctx *c, const sw_expr_ast *a)
{
	if (!a)
		return NULL;
	switch (a->op) {
	case SW_EXPR_NUM: return xn_num(a->value);
	case SW_EXPR_BOOLEAN: return xn_num(a->value != 0.0 ? 1.0 : 0.0);
	case SW_EXPR_VAR: {
		int s = a->slot;
		if (s < SW_STATE_DIM)
			return cvar(c, c->signal >= 0 ? -1 : s);
		if (s == SW_SLOT_T)
			return cvar(c, xb_time_var(c));
		if (s == SW_SLOT_TMODE)
			return cvar(c, sw_hcomponent_find_var(c->comp, "time_in_mode"));
		const struct sw_automaton *au = c->a;
		if (s < au->param_slot)
			return cvar(c, sw_hcomponent_find_var(c->comp, au->vars[s - SW_SLOT_VARS].name));
		if (s < au->label_slot) {
			int j = s - au->param_slot;
			return xn_num(c->agent >= 0 ? binding(c, j)->value : au->params[j].def_value);
		}
		return xn_num(au->label_value[s - au->label_slot]);
	}
	case SW_EXPR_HOST: return host_real(c, a);
	case SW_EXPR_NAME: return NULL;
	default: break;
	}
	sw_expr_ast *k[3] = {NULL, NULL, NULL};
	for (int i = 0; i < a->nkid && i < 3; i++) {
		k[i] = xl_real(c, a->kid[i]);
		if (!k[i]) {
			for (int j = 0; j < i; j++)
				sw_expr_ast_free(k[j]);
			return NULL;
		}
	}
	return sw_expr_ast_node(a->op, k[0], k[1], k[2]);
}

/* ---- DNF ------------------------------------------------------------------------------- */

static int conj_add(xr_conj *q, sw_expr_ast *atom)
{
	if (!atom)
		return SW_ENOMEM;
	if (xi_grow((void **)&q->atom, &q->cap, q->n + 1, sizeof *q->atom) != SW_SUCCESS) {
		sw_expr_ast_free(atom);
		return SW_ENOMEM;
	}
	q->atom[q->n++] = atom;
	return SW_SUCCESS;
}

static int dnf_add(xr_dnf *f, xr_conj q)
{
	if (xi_grow((void **)&f->d, &f->cap, f->n + 1, sizeof *f->d) != SW_SUCCESS)
		return SW_ENOMEM;
	f->d[f->n++] = q;
	return SW_SUCCESS;
}

/* One disjunct with a single atom (consumed). */
static int dnf_atom(xl_ctx *c, xr_dnf *f, sw_expr_ast *atom)
{
	xr_conj q = {0, 0, NULL, 0};
	if (conj_add(&q, xr_atom_finish(atom, xb_profile(c->b))) != SW_SUCCESS)
		return SW_ENOMEM;
	return dnf_add(f, q);
}

/* The formula `true` (weakened when it stands for an atom without closed form). */
static int dnf_true(xr_dnf *f, int weakened)
{
	xr_conj q = {0, 0, NULL, weakened};
	return dnf_add(f, q);
}

static void weaken(xl_ctx *c, const sw_expr_ast *a, const char *why)
{
	char text[256];
	sw_expr_ast_print(a, SW_EXPR_SYNTAX_PLAIN, text, sizeof text);
	xb_note(c->b, c->where, 1,
		"'%s' is replaced by true (%s): the transition may fire whenever the rest of its "
		"guard holds",
		text, why);
}

static sw_expr_op negate_op(sw_expr_op op)
{
	switch (op) {
	case SW_EXPR_LT: return SW_EXPR_GE;
	case SW_EXPR_LE: return SW_EXPR_GT;
	case SW_EXPR_GT: return SW_EXPR_LE;
	case SW_EXPR_GE: return SW_EXPR_LT;
	case SW_EXPR_EQ: return SW_EXPR_NE;
	default: return SW_EXPR_EQ;
	}
}

/* Relation l op r (both consumed) into f; != becomes two disjuncts. */
static int dnf_relation(xl_ctx *c, xr_dnf *f, sw_expr_op op, sw_expr_ast *l, sw_expr_ast *r,
			const sw_expr_ast *orig)
{
	const char *why = NULL;
	sw_export_profile p = xb_profile(c->b);
	sw_expr_ast *pl = xr_profile(l, p, &why), *pr = xr_profile(r, p, &why);
	sw_expr_ast_free(l);
	sw_expr_ast_free(r);
	if (!pl || !pr) {
		sw_expr_ast_free(pl);
		sw_expr_ast_free(pr);
		char msg[160];
		snprintf(msg, sizeof msg, "the %s profile has no %s", sw_export_profile_name(p),
			 why ? why : "form for it");
		weaken(c, orig, msg);
		return dnf_true(f, 1);
	}
	if (op == SW_EXPR_NE) {
		sw_expr_ast *pl2 = sw_expr_ast_clone(pl), *pr2 = sw_expr_ast_clone(pr);
		if (dnf_atom(c, f, xn_op(SW_EXPR_LT, pl, pr)) != SW_SUCCESS)
			return SW_ENOMEM;
		return dnf_atom(c, f, xn_op(SW_EXPR_GT, pl2, pr2));
	}
	return dnf_atom(c, f, xn_op(op, pl, pr));
}

/* Conjunction of two DNFs: the cross product (b is consumed into out; a too). */
static int dnf_product(xl_ctx *c, xr_dnf *a, xr_dnf *b, xr_dnf *out)
{
	if (a->n * b->n > xb_max_disjuncts(c->b) || a->overflow || b->overflow) {
		xr_dnf_free(a);
		xr_dnf_free(b);
		out->overflow = 1;
		xb_note(c->b, c->where, 1,
			"the guard has more than %d disjuncts: replaced by true",
			xb_max_disjuncts(c->b));
		return dnf_true(out, 1);
	}
	for (int i = 0; i < a->n; i++)
		for (int j = 0; j < b->n; j++) {
			xr_conj q = {0, 0, NULL, a->d[i].weakened || b->d[j].weakened};
			for (int k = 0; k < a->d[i].n; k++)
				conj_add(&q, sw_expr_ast_clone(a->d[i].atom[k]));
			for (int k = 0; k < b->d[j].n; k++)
				conj_add(&q, sw_expr_ast_clone(b->d[j].atom[k]));
			if (dnf_add(out, q) != SW_SUCCESS)
				return SW_ENOMEM;
		}
	xr_dnf_free(a);
	xr_dnf_free(b);
	return SW_SUCCESS;
}

/* Half-planes of a convex region (CCW-normalised): cross(b - a, p - a) >= 0 inside. Returns the
 * vertex count, or 0 when the region is not convex. */
static int convex_region(const sw_model *m, int r, const sw_vec2 **v, double *orient)
{
	const sw_region *rg = &m->regions[r];
	*v = m->points + rg->first;
	int n = rg->count, pos = 0, neg = 0;
	double area = 0.0;
	for (int k = 0; k < n; k++) {
		sw_vec2 a = (*v)[k], b = (*v)[(k + 1) % n], d = (*v)[(k + 2) % n];
		double cr = (b.x - a.x) * (d.y - b.y) - (b.y - a.y) * (d.x - b.x);
		pos += cr > 0.0;
		neg += cr < 0.0;
		area += a.x * b.y - b.x * a.y;
	}
	*orient = area >= 0.0 ? 1.0 : -1.0;
	return pos && neg ? 0 : n;
}

static int dnf_host(xl_ctx *c, const sw_expr_ast *a, int neg, xr_dnf *f)
{
	if (a->slot == SW_HF_INSIDE) {
		int r = binding(c, a->kid[0]->slot)->index;
		const sw_vec2 *v;
		double o;
		int n = convex_region(c->m, r, &v, &o);
		if (!n) {
			weaken(c, a, "the region is not convex");
			return dnf_true(f, 1);
		}
		xr_conj q = {0, 0, NULL, 0};
		for (int k = 0; k < n; k++) {
			sw_vec2 p0 = v[k], p1 = v[(k + 1) % n];
			/* o ((p1 - p0) x (p - p0)) > 0 inside */
			sw_expr_ast *cr = xn_op(
			    SW_EXPR_SUB,
			    xn_op(SW_EXPR_MUL, xn_num(o * (p1.x - p0.x)),
				  xn_op(SW_EXPR_SUB, cvar(c, 1), xn_num(p0.y))),
			    xn_op(SW_EXPR_MUL, xn_num(o * (p1.y - p0.y)),
				  xn_op(SW_EXPR_SUB, cvar(c, 0), xn_num(p0.x))));
			sw_expr_ast *atom =
			    xr_atom_finish(xn_op(neg ? SW_EXPR_LE : SW_EXPR_GT, cr, xn_num(0)),
					   xb_profile(c->b));
			if (neg) {
				xr_conj one = {0, 0, NULL, 0};
				if (conj_add(&one, atom) != SW_SUCCESS || dnf_add(f, one) != SW_SUCCESS)
					return SW_ENOMEM;
			} else if (conj_add(&q, atom) != SW_SUCCESS) {
				return SW_ENOMEM;
			}
		}
		return neg ? SW_SUCCESS : dnf_add(f, q);
	}
	if (a->slot == SW_HF_IN) {
		const sw_binding *b = binding(c, a->kid[0]->slot);
		const sw_signal *sg = &c->m->signals[b->index];
		const struct sw_automaton *sa = c->m->automata[sg->automaton];
		const char *mode = c->a->names[a->kid[1]->slot];
		int idx = -1;
		for (int q = 0; q < sa->n_modes; q++)
			if (strcmp(sa->modes[q].name, mode) == 0)
				idx = q;
		char name[SW_NAME_MAX], net[2 * SW_NAME_MAX], id[SW_NAME_MAX];
		xi_ident(id, sizeof id, c->a->params[a->kid[0]->slot].name);
		snprintf(name, sizeof name, "%.50s_loc", id);
		xi_ident(id, sizeof id, sg->name);
		snprintf(net, sizeof net, "%s_loc", id);
		int k = xb_read_var(c, name, net, "location index of a signal");
		for (int q = 0; q < sa->n_modes; q++) {
			if ((q == idx) == neg)
				continue;
			if (dnf_atom(c, f, xn_op(SW_EXPR_EQ, cvar(c, k), xn_num(q))) != SW_SUCCESS)
				return SW_ENOMEM;
		}
		return SW_SUCCESS;
	}
	weaken(c, a, a->slot == SW_HF_VISIBLE ? "line of sight has no closed form"
					       : "no closed form");
	return dnf_true(f, 1);
}

int xl_dnf(xl_ctx *c, const sw_expr_ast *a, int neg, xr_dnf *out)
{
	switch (a->op) {
	case SW_EXPR_BOOLEAN:
		return ((a->value != 0.0) != neg) ? dnf_true(out, 0) : SW_SUCCESS;
	case SW_EXPR_NOT: return xl_dnf(c, a->kid[0], !neg, out);
	case SW_EXPR_AND:
	case SW_EXPR_OR: {
		int conj = (a->op == SW_EXPR_AND) != neg;
		xr_dnf l = {0}, r = {0};
		int st = xl_dnf(c, a->kid[0], neg, &l);
		if (st == SW_SUCCESS)
			st = xl_dnf(c, a->kid[1], neg, &r);
		if (st != SW_SUCCESS) {
			xr_dnf_free(&l);
			xr_dnf_free(&r);
			return st;
		}
		if (conj)
			return dnf_product(c, &l, &r, out);
		for (int i = 0; i < l.n; i++)
			dnf_add(out, l.d[i]);
		for (int i = 0; i < r.n; i++)
			dnf_add(out, r.d[i]);
		free(l.d);
		free(r.d);
		if (out->n > xb_max_disjuncts(c->b)) {
			xr_dnf_free(out);
			out->overflow = 1;
			xb_note(c->b, c->where, 1, "the guard has more than %d disjuncts: replaced by true",
				xb_max_disjuncts(c->b));
			return dnf_true(out, 1);
		}
		return SW_SUCCESS;
	}
	case SW_EXPR_LT:
	case SW_EXPR_LE:
	case SW_EXPR_GT:
	case SW_EXPR_GE:
	case SW_EXPR_EQ:
	case SW_EXPR_NE: {
		sw_expr_ast *l = xl_real(c, a->kid[0]);
		sw_expr_ast *r = l ? xl_real(c, a->kid[1]) : NULL;
		if (!l || !r) {
			sw_expr_ast_free(l);
			weaken(c, a, c->why);
			return dnf_true(out, 1);
		}
		return dnf_relation(c, out, neg ? negate_op(a->op) : a->op, l, r, a);
	}
	case SW_EXPR_VAR: {
		sw_expr_ast *v = xl_real(c, a);
		if (!v)
			return SW_ENOMEM;
		return dnf_atom(c, out, xn_op(SW_EXPR_EQ, v, xn_num(neg ? 0.0 : 1.0)));
	}
	case SW_EXPR_HOST: return dnf_host(c, a, neg, out);
	default:
		weaken(c, a, "a conditional expression has no closed form");
		return dnf_true(out, 1);
	}
}
