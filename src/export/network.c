/* export/network.c - sw_hybrid_build: instances, the network `system`, the initial and the
 * forbidden sets.
 *
 * Every agent and signal becomes an instance named after it (as an identifier); its controlled
 * variables are mapped to network variables INSTANCE_VAR, its labels to INSTANCE_LABEL (distinct
 * per instance, so instances never synchronise: swerve's agents interleave), its read variables
 * to their owners' network variables.  A component `clock` with t' = 1 exists when the scene
 * moves by script or an expression reads t.  The forbidden sets are conjunctive (one .cfg each):
 * agent-disc overlap (x - cx(t))^2 + (y - cy(t))^2 <= (r + ra)^2; for a wall or polygon edge the
 * capsule swept by the agent's disc, as a rectangle and two end discs (an agent cannot enter a
 * polygon without first overlapping an edge, so edges cover polygons); agent-agent overlap when
 * agents perceive each other (the simulator's collision metrics). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"

typedef struct xb xb;

static int comp_id_taken(const sw_hybrid *h, const char *id)
{
	for (int c = 0; c < h->n_components; c++)
		if (strcmp(h->components[c].id, id) == 0)
			return 1;
	return strcmp(id, "system") == 0;
}

/* Adds comp (moved) unless an equal one exists; returns its index. */
static int place_component(xb *b, sw_hcomponent *comp, const char *inst)
{
	sw_hybrid *h = b->h;
	for (int c = 0; c < h->n_components; c++)
		if (xi_component_equal(&h->components[c], comp)) {
			xi_component_clear(comp);
			return c;
		}
	if (comp_id_taken(h, comp->id)) {
		char base[SW_NAME_MAX];
		snprintf(base, sizeof base, "%s", comp->id);
		snprintf(comp->id, sizeof comp->id, "%.30s_%.30s", base, inst);
		for (int k = 2; comp_id_taken(h, comp->id); k++)
			snprintf(comp->id, sizeof comp->id, "%.30s_%.20s_%d", base, inst, k);
	}
	if (xi_grow((void **)&h->components, &b->cap_comp, h->n_components + 1,
		    sizeof *h->components)) {
		xi_component_clear(comp);
		return -1;
	}
	h->components[h->n_components] = *comp;
	memset(comp, 0, sizeof *comp);
	return h->n_components++;
}

/* Adds an instance of component ci for unit u (or the clock when u < 0). */
static int add_instance(xb *b, int ci, int u, const char *name)
{
	sw_hybrid *h = b->h;
	const sw_model *m = b->m;
	if (xi_grow((void **)&h->instances, &b->cap_inst, h->n_instances + 1, sizeof *h->instances))
		return SW_ENOMEM;
	sw_hinstance *in = &h->instances[h->n_instances++];
	const sw_hcomponent *c = &h->components[ci];
	snprintf(in->name, sizeof in->name, "%s", name);
	in->component = ci;
	in->agent = u >= 0 && u < m->n_agents ? u : -1;
	in->signal = u >= m->n_agents ? u - m->n_agents : -1;
	in->map = calloc((size_t)c->n_vars + 1, sizeof *in->map);
	in->label_map = calloc((size_t)c->n_labels + 1, sizeof *in->label_map);
	in->init_lo = calloc((size_t)c->n_state + 1, sizeof *in->init_lo);
	in->init_hi = calloc((size_t)c->n_state + 1, sizeof *in->init_hi);
	if (!in->map || !in->label_map || !in->init_lo || !in->init_hi)
		return SW_ENOMEM;
	for (int k = 0; k < c->n_vars; k++)
		memcpy(in->map[k], b->map[k], sizeof in->map[k]);
	for (int k = 0; k < c->n_labels; k++)
		snprintf(in->label_map[k], sizeof in->label_map[k], "%s_%s", name, c->labels[k]);
	if (u < 0)
		return SW_SUCCESS; /* the clock: t = 0 in location run */
	int dim = 0;
	const double *y = sw_world_unit_state(b->w, u, &dim);
	int mode = sw_world_unit_mode(b->w, u);
	in->initial_location = mode < c->n_locations ? mode : 0;
	for (int k = 0; k < c->n_state; k++) {
		double v = 0.0; /* lifted variables: lifted_initial() */
		if (c->vars[k].lifted)
			;
		else if (in->signal >= 0)
			v = strcmp(c->vars[k].name, "loc") == 0 ? mode : y[SW_STATE_DIM + k];
		else
			v = k < dim ? y[k] : 0.0;
		in->init_lo[k] = in->init_hi[k] = v;
	}
	return SW_SUCCESS;
}

/* Initial intervals of the lifted variables, from the (widened) initial set. */
static int lifted_initial(xb *b)
{
	sw_hybrid *h = b->h;
	for (int i = 0; i < h->n_instances; i++) {
		sw_hinstance *in = &h->instances[i];
		const sw_hcomponent *c = &h->components[in->component];
		for (int k = 0; k < c->n_state; k++) {
			if (!c->vars[k].lifted)
				continue;
			int st = xb_lifted_initial(c, (const char(*)[2 * SW_NAME_MAX])in->map, k,
						   in->init_lo, in->init_hi, &in->init_lo[k],
						   &in->init_hi[k]);
			if (st == SW_ENOMEM)
				return b->status = SW_ENOMEM;
			if (st != SW_SUCCESS)
				return xb_refuse(b, 0,
						 "the initial value of the lifted variable '%s' of "
						 "'%s' is not finite; export with --profile spaceex",
						 c->vars[k].name, in->name);
		}
	}
	return SW_SUCCESS;
}

static int add_name(char (**list)[2 * SW_NAME_MAX], int *n, int *cap, const char *s)
{
	for (int k = 0; k < *n; k++)
		if (strcmp((*list)[k], s) == 0)
			return SW_SUCCESS;
	if (xi_grow((void **)list, cap, *n + 1, sizeof **list))
		return SW_ENOMEM;
	snprintf((*list)[(*n)++], 2 * SW_NAME_MAX, "%s", s);
	return SW_SUCCESS;
}

static int network_names(xb *b)
{
	sw_hybrid *h = b->h;
	for (int i = 0; i < h->n_instances; i++) {
		const sw_hinstance *in = &h->instances[i];
		const sw_hcomponent *c = &h->components[in->component];
		for (int k = 0; k < c->n_state; k++)
			if (add_name(&h->netvars, &h->n_netvars, &b->cap_netvar, in->map[k]))
				return SW_ENOMEM;
		for (int k = 0; k < c->n_labels; k++)
			if (add_name(&h->netlabels, &h->n_netlabels, &b->cap_netlabel, in->label_map[k]))
				return SW_ENOMEM;
	}
	/* every read variable must be some instance's state */
	for (int i = 0; i < h->n_instances; i++) {
		const sw_hinstance *in = &h->instances[i];
		const sw_hcomponent *c = &h->components[in->component];
		for (int k = c->n_state; k < c->n_vars; k++) {
			if (c->vars[k].role != SW_HVAR_READ)
				continue;
			int found = 0;
			for (int v = 0; v < h->n_netvars; v++)
				found |= strcmp(h->netvars[v], in->map[k]) == 0;
			if (!found)
				return xb_refuse(b, 0, "internal: '%s' reads '%s', which no instance owns",
						 in->name, in->map[k]);
		}
	}
	return SW_SUCCESS;
}

/* ---- forbidden sets ----------------------------------------------------------------- */

static sw_expr_ast *nvar(const sw_hybrid *h, const char *name)
{
	for (int k = 0; k < h->n_netvars; k++)
		if (strcmp(h->netvars[k], name) == 0)
			return sw_expr_ast_variable(h->netvars[k], k, SW_EXPR_REAL);
	return NULL;
}

static sw_expr_ast *ivar(const sw_hybrid *h, const char *inst, const char *var)
{
	char name[2 * SW_NAME_MAX + 8];
	snprintf(name, sizeof name, "%s_%s", inst, var);
	return nvar(h, name);
}

static int add_forbidden(xb *b, sw_expr_ast *set, const char *name, const char *what)
{
	sw_hybrid *h = b->h;
	if (!set || xi_grow((void **)&h->forbidden, &b->cap_forb, h->n_forbidden + 1,
			    sizeof *h->forbidden)) {
		sw_expr_ast_free(set);
		return b->status = SW_ENOMEM;
	}
	sw_hforbidden *f = &h->forbidden[h->n_forbidden++];
	memset(f, 0, sizeof *f);
	snprintf(f->name, sizeof f->name, "%s", name);
	snprintf(f->what, sizeof f->what, "%s", what);
	f->set = set;
	return SW_SUCCESS;
}

/* Point p0 + v t of an obstacle, coordinate by coordinate. */
static sw_expr_ast *moving(const sw_hybrid *h, double p0, double v)
{
	return xn_moving(p0, v, v != 0.0 ? nvar(h, "t") : NULL);
}

/* (X - p(t))^2 + (Y - q(t))^2 <= r^2 */
static sw_expr_ast *disc_set(const sw_hybrid *h, const char *inst, sw_vec2 c, sw_vec2 v, double r)
{
	sw_expr_ast *d2 = xn_op(SW_EXPR_ADD, xn_sq_diff(ivar(h, inst, "x"), moving(h, c.x, v.x)),
				xn_sq_diff(ivar(h, inst, "y"), moving(h, c.y, v.y)));
	return xn_op(SW_EXPR_LE, d2, xn_num(r * r));
}

/* The rectangle of the capsule of segment a-b grown by r: 0 <= (p - a).d <= |d|^2 and
 * |(p - a) x d| <= r |d|. */
static sw_expr_ast *rect_set(const sw_hybrid *h, const char *inst, sw_vec2 a, sw_vec2 bb,
			     sw_vec2 v, double r)
{
	double dx = bb.x - a.x, dy = bb.y - a.y, l2 = dx * dx + dy * dy, l = sqrt(l2);
	sw_expr_ast *px = xn_op(SW_EXPR_SUB, ivar(h, inst, "x"), moving(h, a.x, v.x));
	sw_expr_ast *py = xn_op(SW_EXPR_SUB, ivar(h, inst, "y"), moving(h, a.y, v.y));
	sw_expr_ast *dot = xn_op(SW_EXPR_ADD, xn_op(SW_EXPR_MUL, xn_num(dx), px),
				 xn_op(SW_EXPR_MUL, xn_num(dy), py));
	sw_expr_ast *dot2 = dot ? sw_expr_ast_clone(dot) : NULL;
	sw_expr_ast *px2 = px ? sw_expr_ast_clone(px) : NULL, *py2 = py ? sw_expr_ast_clone(py) : NULL;
	sw_expr_ast *cr = xn_op(SW_EXPR_SUB, xn_op(SW_EXPR_MUL, xn_num(dy), px2),
				xn_op(SW_EXPR_MUL, xn_num(dx), py2));
	sw_expr_ast *cr2 = cr ? sw_expr_ast_clone(cr) : NULL;
	sw_expr_ast *s = xn_op(SW_EXPR_GE, dot, xn_num(0));
	s = xn_and(s, xn_op(SW_EXPR_LE, dot2, xn_num(l2)));
	s = xn_and(s, xn_op(SW_EXPR_LE, cr, xn_num(r * l)));
	return xn_and(s, xn_op(SW_EXPR_GE, cr2, xn_num(-r * l)));
}

/* A disc obstacle moving along waypoints: the set its overlaps can reach is the capsule swept by
 * the grown disc along each leg of the loop, whatever the time (a time-free superset: sound, but
 * it may report unsafe states the timing excludes). */
static void swept_sets(xb *b, int i, const sw_obstacle *obs, const char *ob, const char *what)
{
	const sw_model *m = b->m;
	sw_hybrid *h = b->h;
	const char *inst = b->unit_name[i];
	const sw_vec2 *w = m->points + obs->motion.first;
	int n = obs->motion.count, piece = 0;
	char name[2 * SW_NAME_MAX], where[256];
	snprintf(where, sizeof where, "agent '%.60s', obstacle '%.60s'", m->agents[i].name,
		 obs->name);
	for (int k = obs->prim_first; k < obs->prim_first + obs->prim_count; k++) {
		const sw_prim *pr = &m->prims[k];
		if (pr->is_segment) {
			xb_note(b, where, 0,
				"a wall or polygon moving along waypoints has no forbidden set: "
				"collisions with it are not checked");
			return;
		}
		double r = pr->radius + m->agents[i].radius;
		for (int e = 0; e < n; e++) {
			sw_vec2 p0 = sw_v2_add(pr->a, sw_v2_sub(w[e], w[0]));
			sw_vec2 p1 = sw_v2_add(pr->a, sw_v2_sub(w[(e + 1) % n], w[0]));
			snprintf(name, sizeof name, "%s__%s_%d", inst, ob, ++piece);
			add_forbidden(b, disc_set(h, inst, p0, sw_v2(0, 0), r), name, what);
			if (p0.x == p1.x && p0.y == p1.y)
				continue;
			snprintf(name, sizeof name, "%s__%s_%d", inst, ob, ++piece);
			add_forbidden(b, rect_set(h, inst, p0, p1, sw_v2(0, 0), r), name, what);
		}
	}
	xb_note(b, where, 1,
		"the obstacle moves along waypoints: its unsafe sets are the capsules swept along "
		"its loop, at any time");
}

static void forbidden_sets(xb *b)
{
	const sw_model *m = b->m;
	sw_hybrid *h = b->h;
	char name[2 * SW_NAME_MAX], what[160], ob[SW_NAME_MAX];
	for (int i = 0; i < m->n_agents && b->status == SW_SUCCESS; i++) {
		const char *inst = b->unit_name[i];
		double ra = m->agents[i].radius;
		for (int o = 0; o < m->n_obstacles; o++) {
			const sw_obstacle *obs = &m->obstacles[o];
			sw_vec2 v = obs->motion.kind == SW_MOTION_LINEAR ? obs->motion.velocity
									   : sw_v2(0, 0);
			xi_ident(ob, 48, obs->name);
			int piece = 0;
			snprintf(what, sizeof what, "agent '%.60s' overlaps obstacle '%.60s'",
				 m->agents[i].name, obs->name);
			if (obs->motion.kind == SW_MOTION_WAYPOINTS) {
				swept_sets(b, i, obs, ob, what);
				continue;
			}
			for (int k = obs->prim_first; k < obs->prim_first + obs->prim_count; k++) {
				const sw_prim *pr = &m->prims[k];
				if (!pr->is_segment) {
					/* a GLM region of exact flows (lift.c) widens the set */
					double r = pr->radius + ra;
					char zw[240];
					snprintf(zw, sizeof zw, "%s", what);
					for (int z = 0; z < b->n_zones; z++)
						if (b->zones[z].agent == i && b->zones[z].prim == k &&
						    b->zones[z].R > r) {
							r = b->zones[z].R;
							snprintf(zw, sizeof zw,
								 "agent '%.40s' within %.4g m of obstacle "
								 "'%.40s' (overlap: %.4g m; GLM exact-flow "
								 "region)",
								 m->agents[i].name, r, obs->name,
								 pr->radius + ra);
						}
					snprintf(name, sizeof name, "%s__%s", inst, ob);
					zw[159] = '\0'; /* sw_hforbidden.what */
					add_forbidden(b, disc_set(h, inst, pr->a, v, r), name, zw);
					continue;
				}
				snprintf(name, sizeof name, "%s__%s_%d", inst, ob, ++piece);
				add_forbidden(b, rect_set(h, inst, pr->a, pr->b, v, ra), name, what);
				sw_vec2 ends[2] = {pr->a, pr->b};
				for (int e = 0; e < 2; e++) {
					int dup = 0; /* a vertex shared with an earlier edge */
					for (int j = obs->prim_first; j < k; j++)
						dup |= (m->prims[j].a.x == ends[e].x &&
							m->prims[j].a.y == ends[e].y) ||
						       (m->prims[j].b.x == ends[e].x &&
							m->prims[j].b.y == ends[e].y);
					if (e == 1 && pr->b.x == m->prims[obs->prim_first].a.x &&
					    pr->b.y == m->prims[obs->prim_first].a.y)
						dup = 1;
					if (dup)
						continue;
					snprintf(name, sizeof name, "%s__%s_%d", inst, ob, ++piece);
					add_forbidden(b, disc_set(h, inst, ends[e], v, ra), name, what);
				}
			}
		}
		for (int j = i + 1; m->run.agents_perceive && j < m->n_agents; j++) {
			const char *jn = b->unit_name[j];
			snprintf(name, sizeof name, "%s__%s", inst, jn);
			snprintf(what, sizeof what, "agents '%.60s' and '%.60s' overlap",
				 m->agents[i].name, m->agents[j].name);
			double r = ra + m->agents[j].radius;
			sw_expr_ast *d2 =
			    xn_op(SW_EXPR_ADD, xn_sq_diff(ivar(h, inst, "x"), ivar(h, jn, "x")),
				  xn_sq_diff(ivar(h, inst, "y"), ivar(h, jn, "y")));
			add_forbidden(b, xn_op(SW_EXPR_LE, d2, xn_num(r * r)), name, what);
		}
	}
}

/* ---- initial ranges and global notes ------------------------------------------------- */

static int apply_ranges(xb *b, const sw_export_def *def)
{
	sw_hybrid *h = b->h;
	for (int r = 0; def && r < def->n_ranges; r++) {
		const sw_export_range *g = &def->ranges[r];
		int i = g->agent ? sw_model_find_agent(b->m, g->agent) : -1;
		sw_hinstance *in = NULL;
		for (int k = 0; i >= 0 && k < h->n_instances; k++)
			if (h->instances[k].agent == i)
				in = &h->instances[k];
		if (!in)
			return xb_refuse(b, 0, "--initial: '%s' is not an agent of the scenario%s",
					 g->agent ? g->agent : "", "");
		const sw_hcomponent *c = &h->components[in->component];
		int k = sw_hcomponent_find_var(c, g->var);
		if (k < 0 || k >= c->n_state || c->vars[k].lifted)
			return xb_refuse(b, 0,
					 "--initial: '%s' is not a variable of agent '%s'; expected x, "
					 "y, heading, turn_rate, speed, w_tar, w_obs, time_in_mode or a "
					 "variable of its automaton",
					 g->var ? g->var : "", g->agent);
		if (!(isfinite(g->lo) && isfinite(g->hi) && g->lo <= g->hi))
			return xb_refuse(b, 0, "--initial %s.%s: expected a finite interval [lo, hi] "
					       "with lo <= hi",
					 g->agent, g->var);
		in->init_lo[k] = g->lo;
		in->init_hi[k] = g->hi;
	}
	return SW_SUCCESS;
}

/* Whether weight var (w_tar or w_obs) of agent i's instance starts at exactly 0 and moves
 * somewhere: w = 0 is then a fixed point of (8) (w' has the factor w) and the exported weight
 * stays 0, while the simulator floors every warm start at w_floor. */
static int weight_stuck_at_zero(const xb *b, int i, const char *var)
{
	const sw_hybrid *h = b->h;
	for (int j = 0; j < h->n_instances; j++) {
		const sw_hinstance *in = &h->instances[j];
		if (in->agent != i)
			continue;
		const sw_hcomponent *c = &h->components[in->component];
		int k = sw_hcomponent_find_var(c, var);
		if (k < 0 || k >= c->n_state || in->init_lo[k] != 0.0 || in->init_hi[k] != 0.0)
			return 0;
		for (int l = 0; l < c->n_locations; l++) {
			const sw_expr_ast *f = c->locations[l].flow[k];
			if (!(f->op == SW_EXPR_NUM && f->value == 0.0))
				return 1;
		}
	}
	return 0;
}

static void global_notes(xb *b)
{
	const sw_model *m = b->m;
	for (int i = 0; i < m->n_agents; i++) {
		const sw_agent *ag = &m->agents[i];
		const struct sw_automaton *a = ag->behaviour >= 0 ? m->automata[ag->behaviour] : NULL;
		int nm = a ? a->n_modes : 1, noise = 0, relax = 0;
		double wfloor = 0.0; /* the warm starts' floor of a relaxing mode */
		for (int q = 0; q < nm; q++) {
			const sw_steer_def *d = a ? &a->modes[q].steer : &ag->steer;
			if ((a && !a->modes[q].moves) || d->law != SW_LAW_GLM)
				continue;
			noise |= d->glm.sigma_phi > 0.0;
			relax |= d->glm.weights != SW_WEIGHTS_DYNAMIC;
			if (d->glm.weights == SW_WEIGHTS_RELAX)
				wfloor = d->glm.w_floor;
		}
		char where[160];
		snprintf(where, sizeof where, "agent '%s'", ag->name);
		if (noise)
			xb_note(b, where, 0,
				"the heading noise of eq. (1) (sigma_phi > 0) is not part of the "
				"export: it describes the deterministic flow");
		if (relax)
			xb_note(b, where, 0,
				"the simulator relaxes the GLM weights to their fixed point every step; "
				"the export integrates them as state, w' = rhs(8) / eps (their "
				"continuous-time meaning)");
		for (int w = 0; wfloor > 0.0 && w < 2; w++) {
			const char *var = w ? "w_obs" : "w_tar";
			if (weight_stuck_at_zero(b, i, var))
				xb_note(b, where, 0,
					"%s starts at 0 (the weights' fixed point at the start): w = 0 is "
					"a fixed point of (8) (w' has the factor w), so the exported %s "
					"stays 0 for ever, while the simulator floors every warm start at "
					"w_floor = %g and its weight can grow again; widen it with "
					"--initial %s.%s=[%g,%g] so that it can grow as in the simulator",
					var, var, wfloor, ag->name, var, wfloor, wfloor);
		}
	}
	int walls = 0, hidable = m->n_agents > 1 && m->run.agents_perceive;
	for (int k = 0; k < m->n_prims; k++) {
		walls |= m->prims[k].is_segment;
		hidable |= !m->prims[k].is_segment;
	}
	if (walls && hidable)
		xb_note(b, "system", 0,
			"the simulator hides discs and agents behind walls from an agent's perception; "
			"the export does not model occlusion (its flows see through walls)");
	if (m->n_agents > 1 && m->run.agents_perceive)
		xb_note(b, "system", 0,
			"the simulator couples agents through positions frozen at each step start; the "
			"export couples them continuously (the monolithic semantics; the difference "
			"vanishes with the step)");
	int automata = m->n_signals > 0;
	for (int i = 0; i < m->n_agents; i++)
		automata |= m->agents[i].behaviour >= 0;
	if (automata)
		xb_note(b, "system", 0,
		"a jump into a location whose urgent guard already holds strictly is blocked by "
		"that location's urgency invariant (SpaceEx checks the target invariant), while the "
		"simulator chains the jumps at the same instant");
}

/* ---- the build ----------------------------------------------------------------------- */

static int check_def(xb *b, const sw_export_def *d)
{
	static const char *scen[] = {"supp", "stc", "phaver", "simu"};
	sw_hybrid *h = b->h;
	int ok = 0;
	for (int k = 0; k < 4; k++)
		ok |= d->scenario && strcmp(d->scenario, scen[k]) == 0;
	if (!ok)
		return xb_refuse(b, 0, "unknown SpaceEx scenario '%s'; expected supp, stc, phaver or "
				       "simu%s",
				 d->scenario ? d->scenario : "", "");
	const char *dir = d->directions ? d->directions : "";
	ok = strcmp(dir, "box") == 0 || strcmp(dir, "oct") == 0 ||
	     (strncmp(dir, "uni", 3) == 0 && dir[3] && strspn(dir + 3, "0123456789") == strlen(dir + 3) &&
	      strlen(dir) < sizeof h->directions);
	if (!ok)
		return xb_refuse(b, 0, "unknown template directions '%s'; expected box, oct or uniN "
				       "(N a number)%s",
				 dir, "");
	if ((unsigned)d->profile >= SW_PROFILE_COUNT)
		return xb_refuse(b, 0, "unknown export profile%s%s", "", "");
	snprintf(h->scenario, sizeof h->scenario, "%s", d->scenario);
	snprintf(h->directions, sizeof h->directions, "%s", dir);
	h->def = *d;
	h->def.scenario = h->scenario;
	h->def.directions = h->directions;
	h->def.n_ranges = 0;
	h->def.ranges = NULL;
	return SW_SUCCESS;
}

static void build_all(xb *b)
{
	const sw_model *m = b->m;
	sw_hybrid *h = b->h;
	for (int o = 0; o < m->n_obstacles; o++) {
		b->scene_moves |= m->obstacles[o].motion.kind == SW_MOTION_LINEAR;
	}
	for (int k = 0; k < m->n_targets; k++)
		b->scene_moves |= m->targets[k].motion.kind == SW_MOTION_LINEAR;
	b->need_t = b->scene_moves;
	/* The initial states are a world's at t = 0: they need perception and the automata's entry
	 * (docs/architecture.md, "The state at t = 0"). */
	int st = sw_world_create(m, NULL, &b->w, b->diag);
	if (st != SW_SUCCESS || xb_unit_names(b) != SW_SUCCESS) {
		b->status = st != SW_SUCCESS ? st : SW_ENOMEM;
		return;
	}
	for (int u = 0; u < m->n_agents + m->n_signals && b->status == SW_SUCCESS; u++) {
		sw_hcomponent comp;
		memset(&comp, 0, sizeof comp);
		if (xb_component(b, u, &comp) != SW_SUCCESS) {
			xi_component_clear(&comp);
			break;
		}
		int ci = place_component(b, &comp, b->unit_name[u]);
		if (ci < 0 || add_instance(b, ci, u, b->unit_name[u]) != SW_SUCCESS)
			b->status = SW_ENOMEM;
		if (b->def.progress) /* the build is most of an export's work; writing the rest */
			b->def.progress(0.9 * (u + 1) / (m->n_agents + m->n_signals),
					b->def.progress_ctx);
	}
	if (b->status == SW_SUCCESS && b->need_t) {
		sw_hcomponent clk;
		memset(&clk, 0, sizeof clk);
		snprintf(clk.id, sizeof clk.id, "clock");
		int loc;
		if (xb_add_var(b, &clk, "t", SW_HVAR_STATE, "global time (s)", "t") != 0 ||
		    !(clk.locations = calloc(1, sizeof *clk.locations)) ||
		    !(clk.locations[0].flow = calloc(1, sizeof *clk.locations[0].flow)) ||
		    !(clk.locations[0].flow[0] = xn_num(1))) {
			xi_component_clear(&clk);
			b->status = SW_ENOMEM;
			return;
		}
		clk.n_locations = 1;
		snprintf(clk.locations[0].name, SW_NAME_MAX, "run");
		loc = place_component(b, &clk, "clock");
		if (loc < 0 || add_instance(b, loc, -1, "clock") != SW_SUCCESS)
			b->status = SW_ENOMEM;
	}
	if (b->status == SW_SUCCESS)
		b->status = network_names(b);
	if (b->status == SW_SUCCESS)
		forbidden_sets(b);
	(void)h;
}

/* The laws without an interval over-approximation (SW__LAW_EXPORT_BOUNDED unset: the crowd laws
 * <ttc>, <sf>, <csm> of steer/emit_crowd.c) export in the exact profile only: their flows need
 * if, min and max (cut-offs, tau's cases, the swept strip, the hard walls), which the tools'
 * profiles lack, and no interval over-approximation of them is known here.  A law without a
 * symbolic emitter (SW__LAW_EMIT unset) does not export at all.  Two more refusals keep the
 * exported flows equal to the simulated ones: a law that reads the other agents' velocities
 * (SW__LAW_READS_VELOCITIES: <ttc>, <sf>) reads speed (cos heading, sin heading), so those must be
 * state in every moving mode of theirs (not the algebraic outputs the simulator rewrites after
 * each step: <csm>, the potential field, GLM without a mass lag), and a jump from such a mode
 * into a mode of such a law would hand over a velocity the export's heading and speed never
 * followed. */
static int algebraic_velocity(const sw_steer_def *d, const sw_agent *ag)
{
	unsigned f = sw__law_flags(d->law);
	return (f & SW__LAW_ALGEBRAIC_VELOCITY) ||
	       ((f & SW__LAW_MASS_LAG) && !ag->personality.has_mass);
}

/* Whether agent j has a moving mode with an algebraic velocity. */
static int algebraic_agent(const sw_model *m, int j)
{
	const sw_agent *ag = &m->agents[j];
	const struct sw_automaton *a = ag->behaviour >= 0 ? m->automata[ag->behaviour] : NULL;
	for (int q = 0; q < (a ? a->n_modes : 1); q++) {
		const sw_steer_def *d = a ? &a->modes[q].steer : &ag->steer;
		if ((!a || a->modes[q].moves) && algebraic_velocity(d, ag))
			return 1;
	}
	return 0;
}

/* The refusals of law d of agent i (mode q of automaton a, or its plain law). */
static int refuse_mode(xb *b, int i, const struct sw_automaton *a, int q, const sw_steer_def *d)
{
	const sw_model *m = b->m;
	const sw_agent *ag = &m->agents[i];
	const sw__law_table *t = sw__law_table_of(d->law);
	char who[2 * SW_NAME_MAX + 96];
	snprintf(who, sizeof who, "agent '%s'%s%s%s uses the %s <%s>", ag->name,
		 a ? " (mode '" : "", a ? a->modes[q].name : "", a ? "')" : "",
		 t ? t->title : "unknown law", sw_law_name(d->law));
	if (!t || !(t->flags & SW__LAW_EMIT))
		return xb_refuse(b, ag->line,
				 "%s, which has no symbolic flow (steer/emit.c) and cannot be "
				 "exported; expected a law the export knows%s",
				 who, "");
	if (!(t->flags & SW__LAW_EXPORT_BOUNDED) &&
	    (b->def.profile != SW_PROFILE_EXACT || b->def.linear))
		return xb_refuse(b, ag->line,
				 "%s, which cannot be exported in the %s profile: its flows need "
				 "if, min and max and no over-approximation is known; expected "
				 "--profile exact (without --linear)",
				 who, b->def.linear ? "linear" : sw_export_profile_name(b->def.profile));
	if (!(t->flags & SW__LAW_READS_VELOCITIES))
		return SW_SUCCESS;
	for (int j = 0; m->run.agents_perceive && j < m->n_agents; j++)
		if (j != i && algebraic_agent(m, j))
			return xb_refuse(b, ag->line,
					 "%s, which reads the velocity of agent '%s'; that velocity "
					 "cannot be exported: it is algebraic in a mode of that agent "
					 "(csm, glm without a mass lag or potential), not state; "
					 "expected agents with ttc, sf, fw, wall or glm with mass",
					 who, m->agents[j].name);
	for (int k = 0; a && k < a->n_trans; k++) {
		const sw_atrans *tr = &a->trans[k];
		if (tr->to == q && a->modes[tr->from].moves &&
		    algebraic_velocity(&a->modes[tr->from].steer, ag))
			return xb_refuse(b, tr->line,
					 "%s; the jump into it from mode '%s' cannot be exported: the "
					 "simulator hands over the velocity that mode computed, which "
					 "the exported heading and speed do not follow",
					 who, a->modes[tr->from].name);
	}
	return SW_SUCCESS;
}

/* Most agent-percept terms the crowd laws' flows of one export may hold: each is thousands of
 * expression nodes (about 6 500 in a <ttc> heading flow), so 400 take about 1 GB to build. */
#define XB_CROWD_TERMS_MAX 400
#define XB_STR(x) #x
#define XB_XSTR(x) XB_STR(x)

static int refuse_laws(xb *b)
{
	const sw_model *m = b->m;
	long terms = 0;
	int others = m->run.agents_perceive ? m->n_agents - 1 : 0;
	for (int i = 0; i < m->n_agents; i++) {
		const sw_agent *ag = &m->agents[i];
		const struct sw_automaton *a = ag->behaviour >= 0 ? m->automata[ag->behaviour] : NULL;
		for (int q = 0; q < (a ? a->n_modes : 1); q++) {
			const sw_steer_def *d = a ? &a->modes[q].steer : &ag->steer;
			/* whether a pair steers round each other would depend on both agents'
			 * locations: not in the exported flows */
			if (a && a->modes[q].ghost && others > 0)
				return xb_refuse(b, a->modes[q].line,
						 "mode '%s' of behaviour '%s' is a ghost mode (agents "
						 "walk through each other), which the export does not "
						 "model yet; expected no ghost modes, or "
						 "agents-perceive=\"false\"",
						 a->modes[q].name, a->name);
			if (a && !a->modes[q].moves)
				continue;
			if (refuse_mode(b, i, a, q, d) != SW_SUCCESS)
				return b->status;
			if (!(sw__law_flags(d->law) & SW__LAW_CROWD))
				continue;
			terms += m->n_prims + others;
			if (terms > XB_CROWD_TERMS_MAX)
				return xb_refuse(b, ag->line,
						 "the crowd laws of this scene cannot be exported: their "
						 "flows would hold more than %s agent-percept terms (each "
						 "thousands of expression nodes; agents x (obstacles + other "
						 "agents) per crowd-law mode); expected a smaller scene (agent "
						 "'%s' is where the count passes it)",
						 XB_XSTR(XB_CROWD_TERMS_MAX), ag->name);
		}
	}
	return SW_SUCCESS;
}

int sw_hybrid_build(const sw_model *m, const sw_export_def *def, sw_hybrid **out,
		    sw_diag *diag)
{
	if (out)
		*out = NULL;
	if (!m || !out || !m->finalized)
		return SW_EUSAGE;
	sw_export_def d = def ? *def : sw_default_export_def();
	if (d.sampling_time <= 0)
		d.sampling_time = m->run.step;
	if (d.time_horizon <= 0)
		d.time_horizon = m->run.duration;
	xb b;
	memset(&b, 0, sizeof b);
	b.m = m;
	b.def = d;
	b.diag = diag;
	b.h = calloc(1, sizeof *b.h);
	if (!b.h)
		return SW_ENOMEM;
	xi_ident(b.h->name, sizeof b.h->name, m->name[0] ? m->name : "model");
	snprintf(b.h->scenario_file, sizeof b.h->scenario_file, "%s", m->file);
	if (m->dim3) /* the exported flows are the planar laws' (steer/emit.c) */
		xb_refuse(&b, m->dim3_line,
			  "a 3-D scenario (<world dimensions=\"3\">) cannot be exported yet: the "
			  "symbolic flows are the planar laws'; expected a 2-D scenario%s%s",
			  "", "");
	else if (refuse_laws(&b) == SW_SUCCESS && check_def(&b, &d) == SW_SUCCESS)
		build_all(&b);
	if (b.status == SW_SUCCESS)
		apply_ranges(&b, &d);
	if (b.status == SW_SUCCESS)
		lifted_initial(&b);
	if (b.status == SW_SUCCESS)
		global_notes(&b);
	if (b.status == SW_SUCCESS)
		xb_integration_note(&b);
	sw_world_destroy(b.w);
	free(b.unit_name);
	free(b.map);
	free(b.bounds);
	for (int z = 0; z < b.n_zones; z++)
		sw_expr_ast_free(b.zones[z].d);
	free(b.zones);
	if (b.status != SW_SUCCESS) {
		sw_hybrid_free(b.h);
		return b.status;
	}
	*out = b.h;
	return SW_SUCCESS;
}
