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

/* The routes' clearance: the model's, or (negative) the largest agent radius. */
static double route_clearance(const sw_model *m)
{
	double c = m->routes.clearance;
	if (c >= 0.0)
		return c;
	c = 0.0;
	for (int i = 0; i < m->n_agents; i++)
		c = fmax(c, m->agents[i].radius);
	return c;
}

int sw__field_of(const sw_model *m, const char *name)
{
	if (strcmp(name, SW_FIELD_AUTO) == 0) {
		int nav = m->routes.resolution > 0.0; /* routes: only field="auto" follows them */
		for (int f = 0; f < m->n_fields; f++)
			nav |= m->fields[f].kind == SW_FIELD_NAV;
		return nav ? SW__FIELD_AUTO : -1;
	}
	return name[0] ? sw_model_find_field(m, name) : -1;
}

void sw__fields_layout(struct sw_world *w, sw_arena *a, int fields, int autos)
{
	const sw_model *m = w->m;
	/* no law uses a field: no entries, and perception need not ask (perceive.c) */
	size_t ns = fields ? (size_t)w->agent.n_steer + 1 : 0;
	w->nav.steer_field = sw__arena_take(a, ns, sizeof *w->nav.steer_field);
	w->nav.field_grid = sw__arena_take(a, (size_t)m->n_fields + 1, sizeof *w->nav.field_grid);
	w->nav.field_owned = sw__arena_take(a, (size_t)m->n_fields + 1, sizeof *w->nav.field_owned);
	w->nav.route = sw__arena_take(a, autos && m->routes.resolution > 0.0 ? (size_t)w->n + 1 : 0,
				      sizeof *w->nav.route);
}

int sw__fields_setup(struct sw_world *w, sw_diag *diag)
{
	const sw_model *m = w->m;
	int used = w->nav.steer_field != NULL;
	for (int k = 0; used && k < w->agent.n_steer; k++)
		w->nav.steer_field[k] = sw__field_of(m, w->agent.steer[k].field);
	if (w->nav.route) { /* the routes' grid (the static obstacles grown by the clearance) */
		int st = sw_routemap_rasterize(m, m->routes.resolution, route_clearance(m),
					       m->routes.line, &w->nav.route_map, diag);
		if (st != SW_SUCCESS)
			return st;
		for (int i = 0; i < w->n; i++)
			w->nav.route[i].tgt = -1;
	}
	/* Fields come from the world definition's plan (sw_plan_fields, the application's
	 * planning call, which may use a store) or the model (vector fields read with it); the
	 * navigation fields left are computed for this world (and owned by it) without a store.
	 * Creating a world reads and writes no files: a vector field that is in neither (a model
	 * built in C) is refused rather than read from its file here. */
	sw_plan_options uncached = sw_default_plan_options();
	for (int f = 0; used && f < m->n_fields; f++) {
		const sw_grid *g =
		    m->fields[f].grid ? m->fields[f].grid : sw_plan_grid(w->def.plan, f);
		if (g) {
			w->nav.field_grid[f] = g;
			continue;
		}
		if (m->fields[f].kind == SW_FIELD_VECTOR)
			return sw_diag_add(diag, SW_SEV_ERROR, m->file, m->fields[f].line, 0,
					   "vector field '%s' is not loaded; expected a plan from "
					   "sw_plan_fields in sw_world_def.plan (creating a world "
					   "reads no file)",
					   m->fields[f].name),
			       SW_EUSAGE;
		int st = sw_plan_build_field(m, f, &uncached, &w->nav.field_owned[f], NULL, diag);
		if (st != SW_SUCCESS)
			return st;
		w->nav.field_grid[f] = w->nav.field_owned[f];
	}
	return SW_SUCCESS;
}

void sw__fields_free(struct sw_world *w)
{
	for (int i = 0; w->nav.route && i < w->n; i++)
		free(w->nav.route[i].pts);
	sw_grid_free(w->nav.route_map);
	for (int f = 0; w->nav.field_owned && f < w->m->n_fields; f++)
		sw_grid_free(w->nav.field_owned[f]);
}

/* Distance between segments [a, b] and [c, d]. */
static double segment_gap(sw_vec2 a, sw_vec2 b, sw_vec2 c, sw_vec2 d)
{
	if (sw_segments_intersect(a, b, c, d))
		return 0.0;
	double g = fmin(sw_segment_distance(a, b, c), sw_segment_distance(a, b, d));
	return fmin(g, fmin(sw_segment_distance(c, d, a), sw_segment_distance(c, d, b)));
}

/* 1 when static primitive k comes within r of the segment p-q, whose box grown by r is
 * [x0, x1] x [y0, y1]; primitives whose bounding box misses that box are rejected first. */
static int blocks_sight(const sw_model *m, int k, sw_vec2 p, sw_vec2 q, double r,
			const double box[4])
{
	const sw_prim *pr = &m->prims[k];
	double e = pr->is_segment ? 0.0 : pr->radius;
	sw_vec2 a = pr->a, b = pr->is_segment ? pr->b : pr->a;
	if ((a.x + e < box[0] && b.x + e < box[0]) || (a.x - e > box[2] && b.x - e > box[2]) ||
	    (a.y + e < box[1] && b.y + e < box[1]) || (a.y - e > box[3] && b.y - e > box[3]))
		return 0;
	if (m->obstacles[pr->owner].motion.kind != SW_MOTION_NONE)
		return 0;
	double gap = pr->is_segment ? segment_gap(p, q, pr->a, pr->b)
				    : sw_segment_distance(p, q, pr->a) - pr->radius;
	return gap < r;
}

/* Through the primitive index (prim_grid.c), when the world has one: the cells within r of the
 * segment, visited from p towards q (samples every half cell along the segment, each with the
 * cells its square of half-side r + a quarter cell meets: together they cover every point within
 * r of the segment), so a line blocked near the agent is decided after a few cells.  A primitive
 * within r of the segment lies in a visited cell (the cell holding its point nearest the
 * segment), so the answer is the loop's over every primitive; only the work differs. */
static int clear_sight_indexed(const struct sw_world *w, sw_vec2 p, sw_vec2 q, double r,
			       const double box[4])
{
	const sw_model *m = w->m;
	double cs = w->pg.cell, len = sw_v2_dist(p, q), half = r + 0.25 * cs;
	int n = (int)ceil(len / (0.5 * cs)) + 1;
	size_t seen[32]; /* the cells visited last: a march revisits only recent cells */
	int n_seen = 0, head = 0;
	for (int s = 0; s < n; s++) {
		double t = n > 1 ? (double)s / (n - 1) : 0.0;
		sw_vec2 c = sw_v2(p.x + t * (q.x - p.x), p.y + t * (q.y - p.y));
		long x0 = (long)floor((c.x - half - w->pg.x0) / cs),
		     x1 = (long)floor((c.x + half - w->pg.x0) / cs);
		long y0 = (long)floor((c.y - half - w->pg.y0) / cs),
		     y1 = (long)floor((c.y + half - w->pg.y0) / cs);
		x0 = x0 < 0 ? 0 : x0, y0 = y0 < 0 ? 0 : y0;
		x1 = x1 > w->pg.nx - 1 ? w->pg.nx - 1 : x1,
		y1 = y1 > w->pg.ny - 1 ? w->pg.ny - 1 : y1;
		for (long iy = y0; iy <= y1; iy++)
			for (long ix = x0; ix <= x1; ix++) {
				size_t cell = (size_t)iy * (size_t)w->pg.nx + (size_t)ix;
				int again = 0;
				for (int k = 0; k < n_seen && !again; k++)
					again = seen[k] == cell;
				if (again)
					continue;
				seen[head] = cell;
				head = (head + 1) % 32;
				n_seen += n_seen < 32;
				for (int e = w->pg.start[cell]; e < w->pg.start[cell + 1]; e++)
					if (blocks_sight(m, w->pg.items[e], p, q, r, box))
						return 0;
			}
	}
	return 1;
}

int sw__clear_sight(const struct sw_world *w, const sw_model *m, sw_vec2 p, sw_vec2 q, double r)
{
	const double box[4] = {(p.x < q.x ? p.x : q.x) - r, (p.y < q.y ? p.y : q.y) - r,
			       (p.x < q.x ? q.x : p.x) + r, (p.y < q.y ? q.y : p.y) + r};
	if (w && w->pg.on)
		return clear_sight_indexed(w, p, q, r, box);
	for (int k = 0; k < m->n_prims; k++)
		if (blocks_sight(m, k, p, q, r, box))
			return 0;
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
	const struct sw_world *w;
	const sw_model *m;
	sw_vec2 p;
	double r;
} sight;

static int in_sight(sw_vec2 q, void *ctx)
{
	const sight *s = ctx;
	return sw__clear_sight(s->w, s->m, s->p, q, s->r);
}

static int visible_lookahead(const sw_grid *g, const struct sw_world *w, sw_vec2 p, double dist,
			     double r, sw_vec2 *out)
{
	sight s = {w, w->m, p, r};
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

/* --- planned routes ---------------------------------------------------------------------- */

/* The field agent i's law steers by in its current mode (an entry of nav.steer_field), -1 when
 * no law steers by one. */
static int steer_field_of(const struct sw_world *w, int i)
{
	if (!w->nav.steer_field)
		return -1;
	return w->nav.steer_field[w->agent.steer_first[i] + (w->unit.aut[i] ? w->unit.mode[i] : 0)];
}

/* The target agent i follows a route to now: field="auto" in its current mode, a static target
 * without a navigation field, and routes on; else -1. */
static int route_target(const struct sw_world *w, int i)
{
	if (!w->nav.route || w->agent.tkind[i] != TGT_TARGET ||
	    steer_field_of(w, i) != SW__FIELD_AUTO)
		return -1;
	int k = w->agent.tindex[i];
	if (w->m->targets[k].motion.kind != SW_MOTION_NONE || nav_field_of(w->m, k) >= 0)
		return -1;
	return k;
}

/* Seconds between two plans of one agent: a corner out of sight is planned round again no
 * sooner (pushed aside by a crowd, an agent regains sight of its corner by itself mostly), and
 * a target that could not be reached is tried again no sooner either. */
#define SW_ROUTE_REPLAN 2.0
/* Distance from where the last plan was made before a corner out of sight is planned round
 * again, m: from (nearly) the same place the search would give (nearly) the same route. */
#define SW_ROUTE_MOVED 0.5
#define SW_ROUTE_RETRY 10.0
/* A corner out of sight at most SW_ROUTE_REPAIR m away is planned to, and the rest of the route
 * kept (nearly a shortest route from there: the rest was one from that corner, unless a plan
 * round a crowd made it): searching the whole way again from a few decimetres aside gives
 * nearly the same route, at the cost of a search across the world each time (SteerSuite's
 * scenarioSpace, 800 x 800 nodes: bench/README.md, "Clutter").  A corner the search does not
 * reach (it ends at another node, of the agent's part, near the corner) has the whole way
 * planned again.  A plan round a crowd (SW_ROUTE_STALL) is always of the whole way: made to
 * rejoin the route at its first corner beyond the crowd, it left more walkers in the clumps of
 * SteerSuite's scenarioSpace (docs/steersuite.md, "scenarioSpace"). */
#define SW_ROUTE_REPAIR 10.0
/* An agent that has not got SW_ROUTE_MOVED m from where it was SW_ROUTE_STALL s ago has stalled:
 * another agent or several stand in its way (a gap between obstacles one agent wide, met from
 * both sides, is the common case).  It plans again with the agents whose centres are within
 * SW_ROUTE_CROWD m of its own as discs of their radius plus its own, each metre through
 * them costing SW_ROUTE_DETOUR m: it takes another gap when there is one less than that much
 * longer. */
#define SW_ROUTE_STALL 3.0
#define SW_ROUTE_CROWD 6.0
#define SW_ROUTE_DETOUR 20.0
#define SW_ROUTE_CROWD_MAX 64
/* Routes keep SW_ROUTE_MARGIN m from the grown obstacles where they have room (a move nearer
 * costs up to SW_ROUTE_MARGIN_COST times its length) and are pulled taut with half of it: a
 * corner exactly at the clearance would have the agent graze the obstacle, and the laws' wall
 * terms stop it there. */
#define SW_ROUTE_MARGIN 0.5
#define SW_ROUTE_MARGIN_COST 3.0
/* Corners passed in one sensing at most (each costs a sight test). */
#define SW_ROUTE_SKIP 4

/* sw_route_find's test of a straight stretch: a disc of the clearance swept along it. */
static int route_clear(sw_vec2 a, sw_vec2 b, void *ctx)
{
	const sight *s = ctx;
	return sw__clear_sight(s->w, s->m, a, b, s->r);
}

/* The agents that stand in stalled agent i's way (see SW_ROUTE_STALL) as discs (x, y, r) for
 * sw_route_search_avoid, the nearest SW_ROUTE_CROWD_MAX of them; returns how many.  Agents it
 * walks through (a ghost mode, its own or theirs) are not in its way. */
static int crowd_discs(const struct sw_world *w, sw_worker *wk, int i, sw_vec2 p, double rad,
		       double *discs)
{
	if (sw__ghost_mode(w, i))
		return 0;
	int *near = NULL,
	    n_near = w->grid.on ? sw__grid_query(&w->grid, wk, i, p, SW_ROUTE_CROWD, &near) : w->n;
	double d2[SW_ROUTE_CROWD_MAX];
	int n = 0;
	for (int q = 0; q < n_near; q++) {
		int j = near ? near[q] : q;
		if (j == i || sw__gone(w, j) || sw__ghost(w, j))
			continue;
		const double *yj = w->unit.y + w->unit.off[j];
		double dx = yj[SW_STATE_X] - p.x, dy = yj[SW_STATE_Y] - p.y, e = dx * dx + dy * dy;
		if (!(e < SW_ROUTE_CROWD * SW_ROUTE_CROWD))
			continue;
		/* kept in order of distance (ties: the lower index first, as found) */
		int at = n < SW_ROUTE_CROWD_MAX ? n++ : SW_ROUTE_CROWD_MAX;
		while (at > 0 && d2[at - 1] > e) {
			if (at < SW_ROUTE_CROWD_MAX) {
				d2[at] = d2[at - 1];
				memcpy(&discs[3 * at], &discs[3 * (at - 1)], 3 * sizeof *discs);
			}
			at--;
		}
		if (at < SW_ROUTE_CROWD_MAX) {
			d2[at] = e;
			discs[3 * at] = yj[SW_STATE_X];
			discs[3 * at + 1] = yj[SW_STATE_Y];
			discs[3 * at + 2] = sw__radius(w, j) + rad; /* where the two touch */
		}
	}
	return n;
}

/* Replaces the corners of r up to its next one by a route from p to that corner; returns the
 * route's corners (> 0), 0 when the search does not reach the corner, -1 when out of memory (r
 * unchanged then). */
static int route_repair(sw_worker *wk, sw_route *r, sw_vec2 p, double snap, sight *sg)
{
	int j = r->next;
	int n = sw_route_find(wk->route_search, p, r->pts[j], snap, route_clear, sg,
			      &wk->route_pts, &wk->route_cap);
	/* A route to another node near the corner (the corner in another part of the free space
	 * than the agent, which got there through a gap narrower than the clearance or was
	 * pushed into the obstacles' band) would join the rest across an obstacle.  The corners
	 * are nodes, or the target, which is the route's end whenever its part is the agent's. */
	if (n <= 0)
		return n;
	sw_vec2 end = wk->route_pts[n - 1];
	if (end.x != r->pts[j].x || end.y != r->pts[j].y)
		return 0;
	int tail = r->n - j - 1;
	if (n + tail > r->cap) {
		sw_vec2 *q = realloc(r->pts, (size_t)(n + tail) * sizeof *q);
		if (!q)
			return -1;
		r->pts = q;
		r->cap = n + tail;
	}
	memmove(r->pts + n, r->pts + j + 1, (size_t)tail * sizeof *r->pts);
	memcpy(r->pts, wk->route_pts, (size_t)n * sizeof *r->pts);
	return n + tail;
}

int sw__route_update(struct sw_world *w, sw_worker *wk, int i)
{
	int k = route_target(w, i);
	if (k < 0 || w->nav.defer)
		return SW_SUCCESS;
	const sw_model *m = w->m;
	sw_route *r = &w->nav.route[i];
	const double *y = w->unit.y + w->unit.off[i];
	sw_vec2 p = sw_v2(y[SW_STATE_X], y[SW_STATE_Y]);
	double rad = m->agents[i].radius, h = w->nav.route_map->h;
	int plan = r->tgt != k, crowd = 0, repair = 0;
	/* The anchor restarts where the agent has moved on, and after a pause in following the
	 * route (a mode without it, a wait): time spent not following it is no stall. */
	if (plan || !(sw_v2_dist(p, r->anchor) < SW_ROUTE_MOVED) ||
	    w->t - r->t_seen > 1.5 * m->run.step) {
		r->anchor = p;
		r->t_anchor = w->t;
	}
	r->t_seen = w->t;
	if (!plan && r->n == 0) {
		plan = w->t - r->t_plan >= SW_ROUTE_RETRY;
	} else if (!plan) {
		for (int s = 0; s < SW_ROUTE_SKIP && r->next < r->n - 1; s++) {
			if (!(sw_v2_dist(p, r->pts[r->next]) <= rad + h) &&
			    !sw__clear_sight(w, m, p, r->pts[r->next + 1], rad))
				break;
			r->next++;
		}
		plan = w->t - r->t_plan >= SW_ROUTE_REPLAN && sw_v2_dist(p, r->from) >= SW_ROUTE_MOVED &&
		       !sw__clear_sight(w, m, p, r->pts[r->next], rad);
		repair = plan && sw_v2_dist(p, r->pts[r->next]) <= SW_ROUTE_REPAIR;
		crowd = !plan && w->t - r->t_anchor >= SW_ROUTE_STALL &&
			w->t - r->t_plan >= SW_ROUTE_REPLAN;
		if (crowd) {
			plan = 1;
			r->t_anchor = w->t; /* stalled again SW_ROUTE_STALL s later */
		}
	}
	if (!plan)
		return SW_SUCCESS;
	if (!wk->route_search) {
		if (!(wk->route_search = sw_route_search_new(w->nav.route_map)))
			return SW_ENOMEM;
		sw_route_search_margin(wk->route_search, SW_ROUTE_MARGIN, SW_ROUTE_MARGIN_COST);
	}
	/* An agent or a target inside the obstacles' grown band is snapped to the nearest node
	 * outside it (the band is the clearance wide). */
	double c = route_clearance(m);
	double snap = c + m->targets[k].radius + 2.0 * h;
	/* taut where a disc of the clearance and half the margin passes (in_sight) */
	sight sg = {w, m, p, c + 0.5 * SW_ROUTE_MARGIN};
	double discs[3 * SW_ROUTE_CROWD_MAX];
	int nd = crowd ? crowd_discs(w, wk, i, p, rad, discs) : 0;
	if (sw_route_search_avoid(wk->route_search, discs, nd, SW_ROUTE_DETOUR) != SW_SUCCESS)
		return SW_ENOMEM;
	int n = repair ? route_repair(wk, r, p, snap, &sg) : 0;
	if (n == 0) /* the whole way (a repair that does not reach the corner too) */
		n = sw_route_find(wk->route_search, p, m->targets[k].position, snap, route_clear,
				  &sg, &r->pts, &r->cap);
	sw_route_search_avoid(wk->route_search, NULL, 0, 1.0);
	if (n < 0) { /* the corners may be half written: no route (planned again next time) */
		r->n = 0;
		r->tgt = -1;
		return SW_ENOMEM;
	}
	r->tgt = k;
	r->n = n;
	r->next = 0;
	r->t_plan = w->t;
	r->from = p;
	return SW_SUCCESS;
}

/* A goal point from p put out along its bearing to the target's distance: the direction is the
 * route's, and arrival caps (arrive, t-arrive) and distance terms read the distance left, not the
 * few metres to a corner or a point pulled back by one. */
static void out_to_target(sw_vec2 p, const sw_vec2 *target, sw_vec2 *goal)
{
	double c = sw_v2_len(sw_v2_sub(*goal, p));
	if (target && c > 0.0)
		*goal = sw_v2_add(p, sw_v2_scale(sw_v2_sub(*goal, p),
						 sw_v2_len(sw_v2_sub(*target, p)) / c));
}

/* The corner agent i steers at, put out to the target's distance; 0 when it steers at the
 * target itself. */
static int route_goal(const struct sw_world *w, int i, sw_vec2 p, const sw_vec2 *target,
		      sw_vec2 *goal)
{
	const sw_route *r = &w->nav.route[i];
	if (r->tgt != w->agent.tindex[i] || r->next >= r->n - 1)
		return 0;
	*goal = r->pts[r->next];
	out_to_target(p, target, goal);
	return 1;
}

int sw__field_goal(const struct sw_world *w, int i, sw_vec2 p, const sw_vec2 *target, sw_vec2 *goal)
{
	int f = steer_field_of(w, i);
	if (f == SW__FIELD_AUTO && route_target(w, i) >= 0)
		return route_goal(w, i, p, target, goal);
	if (f == SW__FIELD_AUTO)
		f = w->agent.tkind[i] == TGT_TARGET ? nav_field_of(w->m, w->agent.tindex[i]) : -1;
	if (f < 0 || !w->nav.field_grid[f])
		return 0;
	const sw_model *m = w->m;
	const sw_steer_def *def = sw__steer_of(w, i, w->unit.mode[i]);
	int nav = m->fields[f].kind == SW_FIELD_NAV, avoid = nav && def->avoid_corners;
	/* With corners="avoid" the sight line keeps the field's clearance, as the route does. */
	double r = avoid ? fmax(m->fields[f].clearance, m->agents[i].radius) : m->agents[i].radius;
	if (nav && target && sw__clear_sight(w, m, p, *target, r))
		return 0;
	if (avoid) {
		if (!visible_lookahead(w->nav.field_grid[f], w, p, def->lookahead, r, goal))
			return 0;
		out_to_target(p, target, goal);
		return 1;
	}
	return sw_grid_lookahead(w->nav.field_grid[f], p, def->lookahead, goal);
}
