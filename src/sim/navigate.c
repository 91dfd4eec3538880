/* sim/navigate.c - goal directions from world fields (docs/models.md section 4).
 *
 * A law whose steer def names a field (<glm field="nav"/>) is handed, instead of its target, a
 * look-ahead point: the point reached by following the field for `lookahead` metres from the
 * agent.  For a navigation field this happens only while the target is not in clear line of
 * sight (the segment agent-target passes within the agent's radius of a static obstacle); once it
 * is, the law steers at the target itself.  A vector field always gives the direction.  The laws
 * themselves are unchanged: psi_T becomes the field direction, and their obstacle terms keep
 * avoiding what is near (including moving obstacles, which the field ignores).  Where the field
 * gives no direction (outside its grid, or in a region cut off from the target) the law steers at
 * the target. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"
#include "swerve/plan.h"

enum { FIELD_AUTO = -2 }; /* steer_field entry of field="auto" */

int sw__fields_setup(struct sw_world *w, int nsteer, sw_diag *diag)
{
	const sw_model *m = w->m;
	w->steer_field = malloc(((size_t)nsteer + 1) * sizeof *w->steer_field);
	w->field_grid = calloc((size_t)m->n_fields + 1, sizeof *w->field_grid);
	w->field_owned = calloc((size_t)m->n_fields + 1, sizeof *w->field_owned);
	if (!w->steer_field || !w->field_grid || !w->field_owned)
		return SW_ENOMEM;
	int used = 0, nav = 0;
	for (int f = 0; f < m->n_fields; f++)
		nav |= m->fields[f].kind == SW_FIELD_NAV;
	for (int k = 0; k < nsteer; k++) {
		const char *name = w->steer[k].field;
		w->steer_field[k] = strcmp(name, SW_FIELD_AUTO) == 0 ? (nav ? FIELD_AUTO : -1)
				    : name[0]			     ? sw_model_find_field(m, name)
								     : -1;
		used |= w->steer_field[k] >= 0 || w->steer_field[k] == FIELD_AUTO;
	}
	if (!used) { /* no law uses a field: perception need not ask (perceive.c) */
		free(w->steer_field);
		w->steer_field = NULL;
	}
	/* Fields come from the world definition's plan (sw_plan_fields, the application's
	 * planning call, which may use a store) or the model (vector fields read with it); the
	 * navigation fields left are computed for this world (and owned by it) without a store.
	 * Creating a world reads and writes no files: a vector field that is in neither (a model
	 * built in C) is refused rather than read from its file here. */
	sw_plan_options uncached = sw_default_plan_options();
	for (int f = 0; used && f < m->n_fields; f++) {
		const sw_grid *g = m->fields[f].grid ? m->fields[f].grid : sw_plan_grid(w->plan, f);
		if (g) {
			w->field_grid[f] = g;
			continue;
		}
		if (m->fields[f].kind == SW_FIELD_VECTOR)
			return sw_diag_add(diag, SW_SEV_ERROR, m->file, m->fields[f].line, 0,
					   "vector field '%s' is not loaded; expected a plan from "
					   "sw_plan_fields in sw_world_def.plan (creating a world "
					   "reads no file)",
					   m->fields[f].name),
			       SW_EUSAGE;
		int st = sw_plan_build_field(m, f, &uncached, &w->field_owned[f], NULL, diag);
		if (st != SW_SUCCESS)
			return st;
		w->field_grid[f] = w->field_owned[f];
	}
	return SW_SUCCESS;
}

void sw__fields_free(struct sw_world *w)
{
	for (int f = 0; w->field_owned && f < w->m->n_fields; f++)
		sw_grid_free(w->field_owned[f]);
	free(w->field_owned);
	free(w->field_grid);
	free(w->steer_field);
}

/* Distance between segments [a, b] and [c, d]. */
static double segment_gap(sw_vec2 a, sw_vec2 b, sw_vec2 c, sw_vec2 d)
{
	if (sw_segments_intersect(a, b, c, d))
		return 0.0;
	double g = fmin(sw_segment_distance(a, b, c), sw_segment_distance(a, b, d));
	return fmin(g, fmin(sw_segment_distance(c, d, a), sw_segment_distance(c, d, b)));
}

/* 1 when a disc of radius r moved from p to q touches no static obstacle primitive.  Primitives
 * whose bounding box is farther than r from the segment's are skipped first (imported cases
 * have hundreds of wall edges, and every perceiving agent asks every step). */
static int clear_sight(const sw_model *m, sw_vec2 p, sw_vec2 q, double r)
{
	double x0 = (p.x < q.x ? p.x : q.x) - r, x1 = (p.x < q.x ? q.x : p.x) + r;
	double y0 = (p.y < q.y ? p.y : q.y) - r, y1 = (p.y < q.y ? q.y : p.y) + r;
	for (int k = 0; k < m->n_prims; k++) {
		const sw_prim *pr = &m->prims[k];
		double e = pr->is_segment ? 0.0 : pr->radius;
		sw_vec2 a = pr->a, b = pr->is_segment ? pr->b : pr->a;
		if ((a.x + e < x0 && b.x + e < x0) || (a.x - e > x1 && b.x - e > x1) ||
		    (a.y + e < y0 && b.y + e < y0) || (a.y - e > y1 && b.y - e > y1))
			continue;
		if (m->obstacles[pr->owner].motion.kind != SW_MOTION_NONE)
			continue;
		double gap = pr->is_segment ? segment_gap(p, q, pr->a, pr->b)
					    : sw_segment_distance(p, q, pr->a) - pr->radius;
		if (gap < r)
			return 0;
	}
	return 1;
}

/* An agent pushed closer than the field's clearance to an obstacle stands on fixed nodes, where
 * the field gives no direction.  Its way back to the route: the free node of highest phi within
 * clearance + 2 grid spacings (the band it stands in is at most the clearance wide). */
static int nearest_route_node(const sw_grid *g, sw_vec2 p, double r, sw_vec2 *out)
{
	int reach = (int)ceil(r / g->h) + 2;
	int ci = (int)lround((p.x - g->x0) / g->h), cj = (int)lround((p.y - g->y0) / g->h);
	double best = 0.0;
	for (int j = cj - reach; j <= cj + reach; j++)
		for (int i = ci - reach; i <= ci + reach; i++) {
			if (i < 1 || j < 1 || i >= g->nx - 1 || j >= g->ny - 1)
				continue;
			size_t k = (size_t)j * (size_t)g->nx + (size_t)i;
			if (g->fixed[k] || !(g->v[k] > best))
				continue;
			best = g->v[k];
			*out = sw_v2(g->x0 + i * g->h, g->y0 + j * g->h);
		}
	return best > 0.0;
}

/* corners="avoid": walks the route from p in grid-spacing steps for up to `dist` metres and
 * returns the last point that a disc of radius r reaches from p in a straight line without
 * touching a static obstacle (at least the first step's point, so an agent already closer than r
 * to an obstacle still moves along the route).  The route keeps the field's clearance, so the
 * chord to that point does too: the law is never handed a point behind a corner. */
typedef struct sight {
	const sw_model *m;
	sw_vec2 p;
	double r;
} sight;

static int in_sight(sw_vec2 q, void *ctx)
{
	const sight *s = ctx;
	return clear_sight(s->m, s->p, q, s->r);
}

static int visible_lookahead(const sw_grid *g, const sw_model *m, sw_vec2 p, double dist, double r,
			     sw_vec2 *out)
{
	sight s = {m, p, r};
	if (sw_grid_lookahead_while(g, p, dist, in_sight, &s, out))
		return 1;
	return nearest_route_node(g, p, r, out);
}

/* The first navigation field declared for target k, -1 when it has none. */
static int nav_field_of(const sw_model *m, int k)
{
	for (int f = 0; f < m->n_fields; f++)
		if (m->fields[f].kind == SW_FIELD_NAV && m->fields[f].target == k)
			return f;
	return -1;
}

int sw__field_goal(const struct sw_world *w, int i, sw_vec2 p, const sw_vec2 *target, sw_vec2 *goal)
{
	int f =
	    w->steer_field ? w->steer_field[w->steer_first[i] + (w->aut[i] ? w->mode[i] : 0)] : -1;
	if (f == FIELD_AUTO)
		f = w->tkind[i] == TGT_TARGET ? nav_field_of(w->m, w->tindex[i]) : -1;
	if (f < 0 || !w->field_grid[f])
		return 0;
	const sw_model *m = w->m;
	const sw_steer_def *def = sw__steer_of(w, i, w->mode[i]);
	int nav = m->fields[f].kind == SW_FIELD_NAV, avoid = nav && def->avoid_corners;
	/* With corners="avoid" the sight line keeps the field's clearance, as the route does. */
	double r = avoid ? fmax(m->fields[f].clearance, m->agents[i].radius) : m->agents[i].radius;
	if (nav && target && clear_sight(m, p, *target, r))
		return 0;
	if (avoid) {
		if (!visible_lookahead(w->field_grid[f], m, p, def->lookahead, r, goal))
			return 0;
		/* The point goes out along the chord to the target's distance: the direction is
		 * the route's, and arrival caps (arrive, t-arrive) and distance terms read the
		 * distance left, not the few centimetres to a point pulled back by a corner. */
		double c = sw_v2_len(sw_v2_sub(*goal, p));
		if (target && c > 0.0)
			*goal = sw_v2_add(p, sw_v2_scale(sw_v2_sub(*goal, p),
							 sw_v2_len(sw_v2_sub(*target, p)) / c));
		return 1;
	}
	return sw_grid_lookahead(w->field_grid[f], p, def->lookahead, goal);
}
