/* export/invariants.c - Flow*-friendly invariants: frozen weights, lifted conjuncts (the last
 * passes of the component builder, build.c's xb_component).
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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"

typedef struct xb xb;

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

void xb_freeze_weights(xb *b, sw_hcomponent *c, int u, int mark)
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

void xb_simple_invariants(xb *b, sw_hcomponent *c, int u, const char *unit)
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
