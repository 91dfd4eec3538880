/* model/automaton.c - compiling behaviour and signal automata.
 *
 * Names are resolved once: variables, real parameters and enum labels become expression slots
 * (layout in automaton_impl.h); object parameters become name ids of the perception functions;
 * mode names in in(signal, mode) are interned and checked against the signal's automaton when a
 * scenario binds it.  Every expression is compiled with its file:line:column, so a wrong guard is
 * reported where it is written.  A cycle of transitions whose guards are all constantly true
 * would jump forever at one instant; it is rejected here (the simulator also caps jumps per
 * instant at run time for cycles that only happen to be enabled together). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "automaton_impl.h"

static const sw_expr_func host_funcs[SW_HF_COUNT] = {
	{"dist", SW_HF_DIST, 1, {SW_EXPR_ARG_NAME}, SW_EXPR_REAL},
	{"bearing", SW_HF_BEARING, 1, {SW_EXPR_ARG_NAME}, SW_EXPR_REAL},
	{"visible", SW_HF_VISIBLE, 1, {SW_EXPR_ARG_NAME}, SW_EXPR_BOOL},
	{"inside", SW_HF_INSIDE, 1, {SW_EXPR_ARG_NAME}, SW_EXPR_BOOL},
	{"clearance", SW_HF_CLEARANCE, 0, {SW_EXPR_ARG_REAL}, SW_EXPR_REAL},
	{"neighbors", SW_HF_NEIGHBORS, 1, {SW_EXPR_ARG_REAL}, SW_EXPR_REAL},
	{"progress", SW_HF_PROGRESS, 2, {SW_EXPR_ARG_NAME, SW_EXPR_ARG_REAL}, SW_EXPR_REAL},
	{"in", SW_HF_IN, 2, {SW_EXPR_ARG_NAME, SW_EXPR_ARG_NAME}, SW_EXPR_BOOL},
	{"oncoming", SW_HF_ONCOMING, 2, {SW_EXPR_ARG_NAME, SW_EXPR_ARG_REAL}, SW_EXPR_REAL},
};

static const char *state_names[SW_SLOT_VARS] = {"x", "y", "heading", "turn_rate", "speed",
						"w_tar", "w_obs", "t", "time_in_mode"};

/* Compile context: the automaton being built and the def it comes from. */
typedef struct {
	struct sw_automaton *a;
	const sw_automaton_def *def;
	sw_diag *diag;
	int bad;
} cctx;

static const char *kind_name(sw_param_kind k)
{
	static const char *n[] = {"real", "target", "region", "obstacle", "signal", "agent"};
	return (unsigned)k <= SW_PARAM_AGENT ? n[k] : "?";
}

/* Which parameter kinds each name argument accepts. */
static int kind_ok(int func, int arg, sw_param_kind k)
{
	switch (func) {
	case SW_HF_DIST:
	case SW_HF_BEARING:
	case SW_HF_VISIBLE:
		return k == SW_PARAM_TARGET || k == SW_PARAM_OBSTACLE || k == SW_PARAM_REGION ||
		       k == SW_PARAM_AGENT;
	case SW_HF_PROGRESS:
	case SW_HF_ONCOMING:
		return k == SW_PARAM_TARGET || k == SW_PARAM_AGENT || k == SW_PARAM_REGION;
	case SW_HF_INSIDE:
		return k == SW_PARAM_REGION;
	case SW_HF_IN:
		return arg == 0 && k == SW_PARAM_SIGNAL;
	default:
		return 0;
	}
}

static int find_param(const struct sw_automaton *a, const char *name)
{
	for (int j = 0; j < a->n_params; j++)
		if (strcmp(a->params[j].name, name) == 0)
			return j;
	return -1;
}

static int resolve_name(void *ctx, const sw_expr_func *f, int arg, const char *name, int *id)
{
	cctx *c = ctx;
	struct sw_automaton *a = c->a;
	if (f->id == SW_HF_PROGRESS)
		a->uses_progress = 1; /* worlds keep position histories only when needed */
	if (f->id == SW_HF_ONCOMING)
		a->uses_oncoming = 1; /* worlds keep velocity snapshots only when needed */
	if (f->id == SW_HF_IN && arg == 1) {
		/* A mode of the signal: interned, checked when the scenario binds the signal. */
		for (int k = 0; k < a->n_names; k++)
			if (strcmp(a->names[k], name) == 0) {
				*id = k;
				return 0;
			}
		if (strlen(name) >= SW_NAME_MAX)
			return 1;
		void *p = realloc(a->names, (size_t)(a->n_names + 1) * sizeof *a->names);
		if (!p)
			return 1;
		a->names = p;
		snprintf(a->names[a->n_names], SW_NAME_MAX, "%s", name);
		*id = a->n_names++;
		return 0;
	}
	int j = find_param(a, name);
	if (j < 0 || !kind_ok(f->id, arg, a->params[j].kind))
		return 1;
	*id = j;
	return 0;
}

/* Builds the symbol table (vars, params, labels) into vars[] (capacity n). */
static int build_vars(const struct sw_automaton *a, const sw_automaton_def *def, sw_expr_var *v)
{
	int n = 0;
	for (int k = 0; k < SW_SLOT_VARS; k++)
		v[n++] = (sw_expr_var){state_names[k], k, SW_EXPR_REAL};
	for (int k = 0; k < a->n_vars; k++)
		v[n++] = (sw_expr_var){a->vars[k].name, SW_SLOT_VARS + k,
				       a->vars[k].kind == SW_VAR_BOOL ? SW_EXPR_BOOL : SW_EXPR_REAL};
	for (int j = 0; j < a->n_params; j++)
		if (a->params[j].kind == SW_PARAM_REAL)
			v[n++] = (sw_expr_var){a->params[j].name, a->param_slot + j, SW_EXPR_REAL};
	int l = 0;
	for (int k = 0; k < def->n_vars; k++)
		for (int q = 0; def->vars[k].kind == SW_VAR_ENUM && q < def->vars[k].n_labels; q++)
			v[n++] = (sw_expr_var){def->vars[k].labels[q], a->label_slot + l++,
					       SW_EXPR_REAL};
	return n;
}

static sw_expr *compile(cctx *c, const sw_expr_symbols *sym, const char *text, int line, int col,
			sw_expr_type expect)
{
	sw_expr_def d = sw_default_expr_def();
	d.file = c->def->file;
	d.line = line > 0 ? line : 1;
	d.column = col > 0 ? col : 1;
	d.expect = expect;
	sw_expr *e = NULL;
	if (sw_expr_compile(text, sym, &d, c->diag, &e) != SW_SUCCESS) {
		c->bad = 1;
		return NULL;
	}
	return e;
}

static void err(cctx *c, int line, int col, const char *fmt, const char *a1, const char *a2)
{
	sw_diag_add(c->diag, SW_SEV_ERROR, c->def->file, line, col, fmt, a1, a2);
	c->bad = 1;
}

static int find_mode(const sw_automaton_def *def, const char *name)
{
	for (int k = 0; name && k < def->n_modes; k++)
		if (strcmp(def->modes[k].name, name) == 0)
			return k;
	return -1;
}

/* The steering-state entry a reset may set (the agent's position, heading, turning rate and
 * speed: a jump may move the agent, as a reset of continuous state does in any hybrid
 * automaton), or -1.  GLM's competition weights are not: they live on their own manifold. */
static int reset_state(const char *name)
{
	static const int settable[] = {SW_STATE_X, SW_STATE_Y, SW_STATE_PHI, SW_STATE_OMEGA,
				       SW_STATE_V};
	for (size_t k = 0; name && k < sizeof settable / sizeof *settable; k++)
		if (strcmp(name, state_names[settable[k]]) == 0)
			return settable[k];
	return -1;
}

static int find_var(const struct sw_automaton *a, const char *name)
{
	for (int k = 0; name && k < a->n_vars; k++)
		if (strcmp(a->vars[k].name, name) == 0)
			return k;
	return -1;
}

/* Rejects cycles made only of transitions with no guard (or a constant true one). */
static void check_zero_time_cycles(cctx *c)
{
	struct sw_automaton *a = c->a;
	int n = a->n_modes;
	int *state = calloc((size_t)n, sizeof *state); /* 0 new, 1 on stack, 2 done */
	int *stack = calloc((size_t)n + 1, sizeof *stack), *edge = calloc((size_t)n + 1, sizeof *edge);
	if (!state || !stack || !edge) {
		free(state), free(stack), free(edge);
		return;
	}
	for (int s0 = 0; s0 < n && !c->bad; s0++) {
		if (state[s0])
			continue;
		int top = 0;
		stack[0] = s0;
		edge[0] = 0;
		state[s0] = 1;
		while (top >= 0 && !c->bad) {
			int m = stack[top];
			const sw_amode *md = &a->modes[m];
			if (edge[top] >= md->trans_count) {
				state[m] = 2;
				top--;
				continue;
			}
			const sw_atrans *t = &a->trans[md->trans_first + edge[top]++];
			int always = !t->guard;
			if (t->guard && sw_expr_tree(t->guard)->op == SW_EXPR_BOOLEAN &&
			    sw_expr_tree(t->guard)->value != 0.0)
				always = 1;
			if (!always)
				continue;
			if (state[t->to] == 1) {
				sw_diag_add(c->diag, SW_SEV_ERROR, c->def->file, t->line, 0,
					    "zero-time cycle: the transition from '%s' to '%s' closes a "
					    "cycle of transitions that are always enabled; expected a "
					    "guard that becomes false after the jump",
					    a->modes[t->from].name, a->modes[t->to].name);
				c->bad = 1;
			} else if (state[t->to] == 0) {
				state[t->to] = 1;
				stack[++top] = t->to;
				edge[top] = 0;
			}
		}
	}
	free(state);
	free(stack);
	free(edge);
}

void sw_automaton_free(sw_automaton *a)
{
	if (!a)
		return;
	for (int m = 0; a->modes && m < a->n_modes; m++) {
		for (int k = 0; a->modes[m].flows && k < a->n_vars; k++)
			sw_expr_free(a->modes[m].flows[k]);
		free(a->modes[m].flows);
		sw_expr_free(a->modes[m].invariant);
	}
	for (int k = 0; a->trans && k < a->n_trans; k++) {
		sw_expr_free(a->trans[k].guard);
		for (int r = 0; r < a->trans[k].n_resets; r++)
			sw_expr_free(a->trans[k].resets[r].expr);
		free(a->trans[k].resets);
	}
	free(a->params);
	free(a->vars);
	free(a->modes);
	free(a->trans);
	free(a->label_value);
	free(a->names);
	free(a);
}

static int copy_name(cctx *c, char *dst, const char *src, int line, const char *what)
{
	if (!src || !src[0] || strlen(src) >= SW_NAME_MAX) {
		err(c, line, 0, "%s name '%s' is missing or too long; expected an identifier of at "
				"most 63 characters",
		    what, src ? src : "");
		return -1;
	}
	snprintf(dst, SW_NAME_MAX, "%s", src);
	return 0;
}

/* Declarations: parameters, variables, labels, modes (without expressions). */
static void declare(cctx *c)
{
	struct sw_automaton *a = c->a;
	const sw_automaton_def *def = c->def;
	for (int j = 0; j < def->n_params; j++) {
		const sw_param_def *p = &def->params[j];
		sw_aparam *q = &a->params[j];
		copy_name(c, q->name, p->name, p->line, "parameter");
		q->line = p->line;
		q->kind = p->kind;
		q->has_default = p->has_default;
		q->def_value = p->def_value;
		if (p->def_name)
			snprintf(q->def_name, SW_NAME_MAX, "%s", p->def_name);
		if (def->is_signal && p->kind != SW_PARAM_REAL)
			err(c, p->line, p->column,
			    "signal automaton parameter '%s' is a %s; expected only real parameters "
			    "(signals perceive nothing)",
			    q->name, kind_name(p->kind));
		for (int k = 0; k < j; k++)
			if (strcmp(def->params[k].name, q->name) == 0)
				err(c, p->line, p->column, "parameter '%s' is declared twice%s", q->name,
				    "");
	}
	int l = 0;
	for (int k = 0; k < def->n_vars; k++) {
		const sw_var_def *v = &def->vars[k];
		sw_avar *w = &a->vars[k];
		copy_name(c, w->name, v->name, v->line, "variable");
		w->line = v->line;
		w->kind = v->kind;
		w->init = v->init;
		if (v->kind == SW_VAR_ENUM) {
			if (v->n_labels < 1 || v->n_labels > SW_ENUM_MAX)
				err(c, v->line, v->column,
				    "enumeration '%s' needs 1 to 16 labels%s", w->name, "");
			else if (!(v->init >= 0 && v->init < v->n_labels))
				err(c, v->line, v->column,
				    "enumeration '%s' starts outside its labels%s", w->name, "");
			for (int q = 0; q < v->n_labels; q++)
				a->label_value[l++] = q;
		}
		if (find_param(a, w->name) >= 0 || find_var(a, w->name) < k)
			err(c, v->line, v->column, "name '%s' is declared twice%s", w->name, "");
	}
	for (int m = 0; m < def->n_modes; m++) {
		const sw_mode_def *md = &def->modes[m];
		sw_amode *o = &a->modes[m];
		copy_name(c, o->name, md->name, md->line, "mode");
		o->line = md->line;
		o->moves = md->moves;
		o->arrival = md->arrival;
		o->ghost = md->ghost;
		o->steer = md->steer;
		o->target_param = -1;
		if (find_mode(def, md->name) < m)
			err(c, md->line, 0, "mode '%s' is declared twice%s", o->name, "");
		if (def->is_signal && md->moves)
			err(c, md->line, 0, "signal automaton mode '%s' has a steering law; expected "
					    "no law (signals do not move)%s", o->name, "");
		if (def->is_signal && md->ghost)
			err(c, md->line, 0, "signal automaton mode '%s' is marked ghost; expected no "
					    "ghost attribute (signals are not perceived as agents)%s",
			    o->name, "");
		if (md->moves) {
			/* Reuse the model's value checks with this file in the diagnostics. */
			sw_model fake;
			memset(&fake, 0, sizeof fake);
			snprintf(fake.file, sizeof fake.file, "%s", def->file ? def->file : "");
			char what[SW_NAME_MAX + 16];
			snprintf(what, sizeof what, "mode '%s'", o->name);
			if (sw__check_steer(&fake, &md->steer, md->line, what, c->diag) != SW_SUCCESS)
				c->bad = 1;
		}
		if (md->target) {
			int j = find_param(a, md->target);
			if (j < 0 || (a->params[j].kind != SW_PARAM_TARGET &&
				      a->params[j].kind != SW_PARAM_AGENT))
				err(c, md->line, 0,
				    "mode '%s' steers to '%s', which is not a target or agent "
				    "parameter",
				    o->name, md->target);
			o->target_param = j;
		}
	}
}

int sw_automaton_compile(const sw_automaton_def *def, sw_automaton **out, sw_diag *diag)
{
	*out = NULL;
	if (!def || def->n_modes < 1) {
		sw_diag_add(diag, SW_SEV_ERROR, def ? def->file : NULL, def ? def->line : 0, 0,
			    "automaton '%s' has no mode; expected at least one <mode>",
			    def && def->name ? def->name : "");
		return SW_EINPUT;
	}
	struct sw_automaton *a = calloc(1, sizeof *a);
	if (!a)
		return SW_ENOMEM;
	cctx c = {a, def, diag, 0};
	copy_name(&c, a->name, def->name, def->line, "automaton");
	snprintf(a->file, sizeof a->file, "%s", def->file ? def->file : "");
	a->line = def->line;
	a->is_signal = def->is_signal;
	a->n_params = def->n_params;
	a->n_vars = def->n_vars;
	a->n_modes = def->n_modes;
	a->n_trans = def->n_transitions;
	for (int k = 0; k < def->n_vars; k++)
		if (def->vars[k].kind == SW_VAR_ENUM && def->vars[k].n_labels > 0)
			a->n_labels += def->vars[k].n_labels;
	a->params = calloc((size_t)a->n_params + 1, sizeof *a->params);
	a->vars = calloc((size_t)a->n_vars + 1, sizeof *a->vars);
	a->modes = calloc((size_t)a->n_modes, sizeof *a->modes);
	a->trans = calloc((size_t)a->n_trans + 1, sizeof *a->trans);
	a->label_value = calloc((size_t)a->n_labels + 1, sizeof *a->label_value);
	a->param_slot = SW_SLOT_VARS + a->n_vars;
	a->label_slot = a->param_slot + a->n_params;
	a->n_slots = a->label_slot + a->n_labels;
	int nsym = SW_SLOT_VARS + a->n_vars + a->n_params + a->n_labels;
	sw_expr_var *vars = calloc((size_t)nsym, sizeof *vars);
	if (!a->params || !a->vars || !a->modes || !a->trans || !a->label_value || !vars) {
		free(vars);
		sw_automaton_free(a);
		return SW_ENOMEM;
	}
	declare(&c);
	a->initial = def->initial ? find_mode(def, def->initial) : 0;
	if (a->initial < 0)
		err(&c, def->line, 0, "initial mode '%s' is not a mode of automaton '%s'",
		    def->initial, a->name);
	if (c.bad) {
		free(vars);
		sw_automaton_free(a);
		return SW_EINPUT;
	}
	sw_expr_symbols sym = {vars, build_vars(a, def, vars), host_funcs, SW_HF_COUNT,
			       resolve_name, NULL, &c};
	/* Transitions grouped by source mode, document order kept within a source. */
	int k = 0;
	for (int m = 0; m < a->n_modes; m++) {
		a->modes[m].trans_first = k;
		for (int i = 0; i < def->n_transitions; i++) {
			const sw_transition_def *td = &def->transitions[i];
			if (find_mode(def, td->from) != m)
				continue;
			sw_atrans *t = &a->trans[k++];
			t->from = m;
			t->to = find_mode(def, td->to);
			t->line = td->line;
			if (t->to < 0)
				err(&c, td->line, 0,
				    "transition goes to '%s', which is not a mode; expected one of the "
				    "modes of automaton '%s'",
				    td->to ? td->to : "", a->name);
			if (td->label)
				snprintf(t->label, SW_NAME_MAX, "%s", td->label);
			if (td->guard)
				t->guard = compile(&c, &sym, td->guard, td->guard_line, td->guard_column,
						   SW_EXPR_BOOL);
			t->resets = calloc((size_t)td->n_resets + 1, sizeof *t->resets);
			for (int r = 0; t->resets && r < td->n_resets; r++) {
				const sw_assign_def *rd = &td->resets[r];
				int v = find_var(a, rd->var), st = -1;
				if (v < 0 && !def->is_signal)
					st = reset_state(rd->var);
				if (v < 0 && st < 0) {
					err(&c, rd->line, rd->column,
					    "reset of '%s', which is not a variable; expected one of "
					    "the automaton's <var> names%s",
					    rd->var ? rd->var : "",
					    def->is_signal ? ""
							   : " or x, y, heading, turn_rate, speed (the "
							     "agent's own state)");
					continue;
				}
				for (int q = 0; q < t->n_resets; q++)
					if (t->resets[q].var == v && t->resets[q].state == st)
						err(&c, rd->line, rd->column,
						    "second reset of '%s' in one transition; expected "
						    "one value per variable%s",
						    rd->var, "");
				a->resets_state |= st >= 0;
				t->resets[t->n_resets].var = v;
				t->resets[t->n_resets].state = st;
				t->resets[t->n_resets++].expr =
				    compile(&c, &sym, rd->expr, rd->line, rd->column,
					    v >= 0 && a->vars[v].kind == SW_VAR_BOOL ? SW_EXPR_BOOL
										   : SW_EXPR_REAL);
			}
		}
		a->modes[m].trans_count = k - a->modes[m].trans_first;
	}
	for (int i = 0; i < def->n_transitions; i++)
		if (find_mode(def, def->transitions[i].from) < 0)
			err(&c, def->transitions[i].line, 0,
			    "transition leaves '%s', which is not a mode%s",
			    def->transitions[i].from ? def->transitions[i].from : "", "");
	/* Flows and invariants. */
	for (int m = 0; m < a->n_modes; m++) {
		const sw_mode_def *md = &def->modes[m];
		sw_amode *o = &a->modes[m];
		o->flows = calloc((size_t)a->n_vars + 1, sizeof *o->flows);
		for (int f = 0; o->flows && f < md->n_flows; f++) {
			const sw_assign_def *fd = &md->flows[f];
			int v = find_var(a, fd->var);
			if (v < 0 || a->vars[v].kind != SW_VAR_REAL) {
				err(&c, fd->line, fd->column,
				    "flow of '%s': expected a variable of kind real (clocks always "
				    "have rate 1; int, enum and bool variables change only by "
				    "resets)%s",
				    fd->var ? fd->var : "", "");
				continue;
			}
			if (o->flows[v]) {
				err(&c, fd->line, fd->column, "second flow of '%s' in mode '%s'",
				    fd->var, o->name);
				continue;
			}
			o->flows[v] = compile(&c, &sym, fd->expr, fd->line, fd->column, SW_EXPR_REAL);
		}
		if (md->invariant)
			o->invariant = compile(&c, &sym, md->invariant, md->inv_line, md->inv_column,
					       SW_EXPR_BOOL);
	}
	if (!c.bad)
		check_zero_time_cycles(&c);
	free(vars);
	if (c.bad) {
		sw_automaton_free(a);
		return SW_EINPUT;
	}
	*out = a;
	return SW_SUCCESS;
}

const char *sw_automaton_name(const sw_automaton *a) { return a->name; }
const char *sw_automaton_file(const sw_automaton *a) { return a->file; }
int sw_automaton_is_signal(const sw_automaton *a) { return a->is_signal; }
int sw_automaton_n_modes(const sw_automaton *a) { return a->n_modes; }
int sw_automaton_n_vars(const sw_automaton *a) { return a->n_vars; }
const char *sw_automaton_var_name(const sw_automaton *a, int k)
{
	return k >= 0 && k < a->n_vars ? a->vars[k].name : NULL;
}
int sw_automaton_initial(const sw_automaton *a) { return a->initial; }
int sw_automaton_n_transitions(const sw_automaton *a) { return a->n_trans; }

const char *sw_automaton_mode_name(const sw_automaton *a, int mode)
{
	return mode >= 0 && mode < a->n_modes ? a->modes[mode].name : "";
}

const sw_steer_def *sw_automaton_mode_steer(const sw_automaton *a, int mode)
{
	return mode >= 0 && mode < a->n_modes && a->modes[mode].moves ? &a->modes[mode].steer : NULL;
}

void sw_automaton_transition(const sw_automaton *a, int k, int *from, int *to,
			     const char **label, char *guard, size_t guard_size)
{
	const sw_atrans *t = &a->trans[k];
	if (from)
		*from = t->from;
	if (to)
		*to = t->to;
	if (label)
		*label = t->label[0] ? t->label : NULL;
	if (guard && guard_size) {
		if (t->guard)
			sw_expr_print(t->guard, SW_EXPR_SYNTAX_PLAIN, guard, guard_size);
		else
			snprintf(guard, guard_size, "true");
	}
}
