/* ensemble/property.c - properties of a run: boolean expressions (the project's expression
 * language, src/expr) over functions of the finished run, with the monitors they need.
 *
 * Most functions read the world's metrics at the end of the run.  Two need watching during the
 * run and are compiled into monitor lists: reach(agent, target) (first time the agent's centre
 * is within the target's arrival radius, checked at every step end, and taken from the exact
 * arrival time when the target is the plain-law agent's own) and visit(unit, mode) (first entry,
 * from the world's transition events and the modes at t = 0). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/core_internal.h"
#include "ensemble/ensemble_internal.h"

enum {
	F_REACH,
	F_VISIT,
	F_VISITED,
	F_ENDS_IN,
	F_SAFE,
	F_REACHED,
	F_T_REACHED,
	F_COLLISIONS,
	F_AGENT_COLLISIONS,
	F_MIN_CLEARANCE,
	F_MIN_AGENT_CLEARANCE,
	F_PATH_LENGTH,
	F_OVERLAP_TIME,
	F_MAX_PENETRATION,
	F_X,
	F_Y,
	F_HEADING,
	F_SPEED,
	F_CLEARANCE,
	F_COUNT
};

/* Name-argument kinds, by what they resolve against. */
enum { K_AGENT, K_TARGET, K_UNIT, K_MODE, K_OBSTACLE };

#define N SW_EXPR_ARG_NAME
static const sw_expr_func funcs[F_COUNT] = {
    {"reach", F_REACH, 2, {N, N}, SW_EXPR_REAL},
    {"visit", F_VISIT, 2, {N, N}, SW_EXPR_REAL},
    {"visited", F_VISITED, 2, {N, N}, SW_EXPR_BOOL},
    {"ends_in", F_ENDS_IN, 2, {N, N}, SW_EXPR_BOOL},
    {"safe", F_SAFE, 0, {0}, SW_EXPR_BOOL},
    {"reached", F_REACHED, 1, {N}, SW_EXPR_BOOL},
    {"t_reached", F_T_REACHED, 1, {N}, SW_EXPR_REAL},
    {"collisions", F_COLLISIONS, 1, {N}, SW_EXPR_REAL},
    {"agent_collisions", F_AGENT_COLLISIONS, 1, {N}, SW_EXPR_REAL},
    {"min_clearance", F_MIN_CLEARANCE, 1, {N}, SW_EXPR_REAL},
    {"min_agent_clearance", F_MIN_AGENT_CLEARANCE, 1, {N}, SW_EXPR_REAL},
    {"path_length", F_PATH_LENGTH, 1, {N}, SW_EXPR_REAL},
    {"overlap_time", F_OVERLAP_TIME, 1, {N}, SW_EXPR_REAL},
    {"max_penetration", F_MAX_PENETRATION, 1, {N}, SW_EXPR_REAL},
    {"x", F_X, 1, {N}, SW_EXPR_REAL},
    {"y", F_Y, 1, {N}, SW_EXPR_REAL},
    {"heading", F_HEADING, 1, {N}, SW_EXPR_REAL},
    {"speed", F_SPEED, 1, {N}, SW_EXPR_REAL},
    {"clearance", F_CLEARANCE, 2, {N, N}, SW_EXPR_REAL},
};
#undef N

static int arg_kind(int f, int arg)
{
	switch (f) {
	case F_REACH: return arg == 0 ? K_AGENT : K_TARGET;
	case F_VISIT:
	case F_VISITED:
	case F_ENDS_IN: return arg == 0 ? K_UNIT : K_MODE;
	case F_CLEARANCE: return arg == 0 ? K_AGENT : K_OBSTACLE;
	default: return K_AGENT;
	}
}

static int find_unit(const sw_model *m, const char *name)
{
	int i = sw_model_find_agent(m, name);
	if (i >= 0)
		return i;
	i = sw_model_find_signal(m, name);
	return i >= 0 ? m->n_agents + i : -1;
}

static int resolve(void *ctx, const sw_expr_func *f, int arg, const char *name, int *id)
{
	const sw_model *m = ctx;
	switch (arg_kind(f->id, arg)) {
	case K_AGENT: *id = sw_model_find_agent(m, name); break;
	case K_TARGET: *id = sw_model_find_target(m, name); break;
	case K_UNIT: *id = find_unit(m, name); break;
	case K_OBSTACLE: *id = sw_model_find_obstacle(m, name); break;
	default: *id = 0; return 0; /* modes are checked against their unit after the parse */
	}
	return *id < 0;
}

/* Mode index of mode `name` of unit u, -1 when it has none; the names of u's modes go to list. */
static int find_mode(const sw_model *m, int u, const char *name, char *list, size_t n)
{
	int aut = u < m->n_agents ? m->agents[u].behaviour : m->signals[u - m->n_agents].automaton;
	static const char *const plain[] = {"steer", "arrived"};
	int nm = aut >= 0 ? sw_automaton_n_modes(m->automata[aut]) : 2;
	int found = -1;
	sw__text t = sw__text_fixed(list, n);
	for (int k = 0; k < nm; k++) {
		const char *mn = aut >= 0 ? sw_automaton_mode_name(m->automata[aut], k) : plain[k];
		if (strcmp(mn, name) == 0)
			found = k;
		sw__text_printf(&t, "%s%s", k ? ", " : "", mn);
	}
	sw__text_end(&t);
	return found;
}

/* Checks the mode arguments and turns each visit/visited/ends_in call's mode argument into the
 * index of a monitor (visit pairs) or a mode index (ends_in); registers reach pairs. */
static int fix_up(sw_ens_property *p, sw_expr_ast *a, sw_diag *diag)
{
	int bad = 0;
	for (int i = 0; i < a->nkid; i++)
		bad += fix_up(p, a->kid[i], diag);
	if (a->op != SW_EXPR_HOST)
		return bad;
	if (a->slot == F_CLEARANCE && !p->m->run.obstacle_clearances)
		return bad + (sw_diag_add(diag, SW_SEV_ERROR, "property", a->line, a->column,
					  "clearance(agent, obstacle): the scenario's run sets "
					  "obstacle-clearances=\"false\", so per-obstacle clearances "
					  "are not kept; expected min_clearance(agent), or the run "
					  "with obstacle-clearances=\"true\"") != 0);
	if (a->slot == F_REACH) {
		int ag = a->kid[0]->slot, tg = a->kid[1]->slot, k = 0;
		while (k < p->n_reach && !(p->reach[k].unit == ag && p->reach[k].what == tg))
			k++;
		if (k == p->n_reach && k < SW_ENS_MONITORS)
			p->reach[p->n_reach++] = (sw__ens_pair){ag, tg};
		if (k == SW_ENS_MONITORS)
			return bad +
			       (sw_diag_add(diag, SW_SEV_ERROR, "property", a->line, a->column,
					    "more than %d reach() pairs", SW_ENS_MONITORS) != 0);
		a->kid[1]->slot = k;
		return bad;
	}
	if (a->slot != F_VISIT && a->slot != F_VISITED && a->slot != F_ENDS_IN)
		return bad;
	int u = a->kid[0]->slot;
	char list[400];
	int mode = find_mode(p->m, u, a->kid[1]->name, list, sizeof list);
	if (mode < 0)
		return bad +
		       (sw_diag_add(diag, SW_SEV_ERROR, "property", a->kid[1]->line,
				    a->kid[1]->column, "%s has no mode '%s'; expected one of: %s",
				    a->kid[0]->name, a->kid[1]->name, list) != 0);
	if (a->slot == F_ENDS_IN) {
		a->kid[1]->slot = mode;
		return bad;
	}
	int k = 0;
	while (k < p->n_visit && !(p->visit[k].unit == u && p->visit[k].what == mode))
		k++;
	if (k == SW_ENS_MONITORS)
		return bad + (sw_diag_add(diag, SW_SEV_ERROR, "property", a->line, a->column,
					  "more than %d visit pairs", SW_ENS_MONITORS) != 0);
	if (k == p->n_visit)
		p->visit[p->n_visit++] = (sw__ens_pair){u, mode};
	a->kid[1]->slot = k;
	return bad;
}

int sw_ens_property_compile(const sw_model *m, const char *text, sw_ens_property **out,
			    sw_diag *diag)
{
	if (!m || !text || !out)
		return SW_EUSAGE;
	*out = NULL;
	sw_ens_property *p = calloc(1, sizeof *p);
	if (!p)
		return SW_ENOMEM;
	p->m = m;
	static const sw_expr_var vars[] = {{"t_end", 0, SW_EXPR_REAL}};
	sw_expr_symbols sym = {vars, 1, funcs, F_COUNT, resolve, NULL, (void *)m};
	sw_expr_def def = sw_default_expr_def();
	def.file = "property";
	def.expect = SW_EXPR_BOOL;
	sw_expr_ast *ast = NULL;
	int st = sw_expr_ast_parse(text, &sym, &def, diag, &ast);
	if (st == SW_SUCCESS && fix_up(p, ast, diag) > 0)
		st = SW_EINPUT;
	if (st == SW_SUCCESS)
		st = sw_expr_compile_ast(ast, diag, &p->expr);
	sw_expr_ast_free(ast);
	if (st != SW_SUCCESS) {
		sw_ens_property_free(p);
		return st;
	}
	*out = p;
	return SW_SUCCESS;
}

void sw_ens_property_free(sw_ens_property *p)
{
	if (!p)
		return;
	sw_expr_free(p->expr);
	free(p);
}

/* --- monitoring ------------------------------------------------------------------------------ */

void sw__ens_monitor_start(sw__ens_monitor *mon, const sw_ens_property *p, const sw_world *w)
{
	mon->p = p;
	for (int k = 0; k < SW_ENS_MONITORS; k++)
		mon->t_reach[k] = mon->t_visit[k] = INFINITY;
	if (!p)
		return;
	for (int k = 0; k < p->n_visit; k++)
		if (sw_world_unit_mode(w, p->visit[k].unit) == p->visit[k].what)
			mon->t_visit[k] = 0.0;
	sw__ens_monitor_step(mon, w);
}

void sw__ens_monitor_event(const sw_world *w, int unit, double t, int from, int to,
			   const char *label, const char *guard, void *ctx)
{
	(void)w, (void)from, (void)label, (void)guard;
	sw__ens_monitor *mon = ctx;
	for (int k = 0; k < mon->p->n_visit; k++)
		if (mon->p->visit[k].unit == unit && mon->p->visit[k].what == to &&
		    t < mon->t_visit[k])
			mon->t_visit[k] = t;
}

void sw__ens_monitor_step(sw__ens_monitor *mon, const sw_world *w)
{
	if (!mon->p)
		return;
	const sw_model *m = sw_world_model(w);
	double t = sw_world_time(w);
	for (int k = 0; k < mon->p->n_reach; k++) {
		if (mon->t_reach[k] < INFINITY)
			continue;
		int i = mon->p->reach[k].unit, tg = mon->p->reach[k].what;
		sw_agent_state s;
		sw_world_agent(w, i, &s);
		const sw_agent_metrics *mt = sw_world_metrics(w, i);
		if (m->agents[i].behaviour < 0 && s.target == tg && mt->reached) {
			mon->t_reach[k] = mt->t_reached; /* located to event-tol */
			continue;
		}
		sw_vec2 c = sw_model_target_position(m, tg, t);
		if (hypot(s.y[SW_STATE_X] - c.x, s.y[SW_STATE_Y] - c.y) <= m->targets[tg].radius)
			mon->t_reach[k] = t;
	}
}

typedef struct {
	const sw_world *w;
	const sw__ens_monitor *mon;
} eval_ctx;

static double call(void *ctx, int f, const int *names, const double *args)
{
	(void)args;
	const eval_ctx *e = ctx;
	const sw_world *w = e->w;
	int i = names[0];
	if (f == F_REACH)
		return e->mon->t_reach[names[1]];
	if (f == F_VISIT || f == F_VISITED) {
		double t = e->mon->t_visit[names[1]];
		return f == F_VISIT ? t : t < INFINITY;
	}
	if (f == F_ENDS_IN)
		return sw_world_unit_mode(w, i) == names[1];
	if (f == F_SAFE) {
		for (int a = 0; a < sw_world_model(w)->n_agents; a++)
			if (sw_world_metrics(w, a)->collisions > 0 ||
			    sw_world_metrics(w, a)->max_penetration > 0.0)
				return 0.0;
		return 1.0;
	}
	if (f == F_CLEARANCE)
		return sw_world_min_clearance(w, i, names[1]);
	const sw_agent_metrics *mt = sw_world_metrics(w, i);
	sw_agent_state s;
	sw_world_agent(w, i, &s);
	switch (f) {
	case F_REACHED: return mt->reached;
	case F_T_REACHED: return mt->reached ? mt->t_reached : INFINITY;
	case F_COLLISIONS: return mt->collisions;
	case F_AGENT_COLLISIONS: return mt->agent_collisions;
	case F_MIN_CLEARANCE: return mt->min_clearance;
	case F_MIN_AGENT_CLEARANCE: return mt->min_agent_clearance;
	case F_PATH_LENGTH: return mt->path_length;
	case F_OVERLAP_TIME: return mt->overlap_time;
	case F_MAX_PENETRATION: return mt->max_penetration;
	case F_X: return s.y[SW_STATE_X];
	case F_Y: return s.y[SW_STATE_Y];
	case F_HEADING: return s.y[SW_STATE_PHI];
	default: return s.y[SW_STATE_V];
	}
}

int sw__ens_monitor_value(const sw__ens_monitor *mon, const sw_world *w)
{
	eval_ctx e = {w, mon};
	sw_expr_env env = {call, NULL, &e};
	double t_end = sw_world_time(w);
	return sw_expr_eval(mon->p->expr, &t_end, &env) != 0.0;
}
