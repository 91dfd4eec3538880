/* sim/prim_grid.c - the neighbour index of obstacle primitives (docs/models.md section 5).
 *
 * Static primitives (of obstacles without scripted motion) are binned once, when the world is
 * created, into a dense uniform grid over their bounding box: each primitive goes into every cell
 * its bounding box overlaps (a long wall into several).  A query for an agent at p returns every
 * primitive whose bounding box comes within distance R of p -- R is the agent's
 * perception plus its radius plus the largest radius of anything a wall could hide, so every
 * primitive the agent could perceive, and every wall that could hide something from it, is a
 * candidate -- plus every moving primitive, in increasing index order.  Perception then applies
 * exactly the tests of the loop over all primitives, in the same order, so the percepts are the
 * same bits (tested).  Used when every agent has a finite perception radius and the scene has at
 * least SW_PRIM_GRID_MIN primitives (a short loop is cheaper than the index).
 *
 * The obstacles' boxes are also kept by obstacle in a box grid (geom/bucket.h): the obstacles
 * within a distance d of a point, for the measures of a step (step.c) and the guard function
 * clearance(), whose answers lie within an agent's radius plus a small clearance - far less
 * than the perception reach the primitive query covers. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"

/* Fewest primitives for which the index is built. */
#define SW_PRIM_GRID_MIN 32
/* Most cells of the index (its cell size grows until the grid fits). */
#define SW_PRIM_GRID_CELLS (1 << 22)
/* Primitives a cell holds on average, about, where they are dense (see the cell size). */
#define SW_PRIM_GRID_FILL 4.0

/* Bounding box of primitive k (static: its position at t = 0). */
static void prim_box(const sw_model *m, int k, double box[4])
{
	const sw_prim *p = &m->prims[k];
	if (p->is_segment) {
		box[0] = fmin(p->a.x, p->b.x), box[1] = fmin(p->a.y, p->b.y);
		box[2] = fmax(p->a.x, p->b.x), box[3] = fmax(p->a.y, p->b.y);
	} else {
		box[0] = p->a.x - p->radius, box[1] = p->a.y - p->radius;
		box[2] = p->a.x + p->radius, box[3] = p->a.y + p->radius;
	}
}

static int is_static(const sw_model *m, int k)
{
	return m->obstacles[m->prims[k].owner].motion.kind == SW_MOTION_NONE;
}

/* Cell range [c0, c1] of the interval [lo, hi] along one axis, clipped to [0, n - 1]; returns 0
 * when it misses the grid. */
static int cells(double lo, double hi, double origin, double cs, int n, int *c0, int *c1)
{
	double a = floor((lo - origin) / cs), b = floor((hi - origin) / cs);
	if (b < 0.0 || a > n - 1)
		return 0;
	*c0 = a < 0.0 ? 0 : (int)a;
	*c1 = b > n - 1 ? n - 1 : (int)b;
	return 1;
}

/* Entries of the index over [x0, x0 + nx cs) x [y0, y0 + ny cs): one per static primitive and
 * cell its box overlaps. */
static size_t index_entries(const sw_model *m, double x0, double y0, double cs, int nx, int ny)
{
	size_t n = 0;
	double box[4];
	for (int k = 0; k < m->n_prims; k++) {
		int cx0, cx1, cy0, cy1;
		prim_box(m, k, box);
		if (is_static(m, k) && cells(box[0], box[2], x0, cs, nx, &cx0, &cx1) &&
		    cells(box[1], box[3], y0, cs, ny, &cy0, &cy1))
			n += (size_t)(cx1 - cx0 + 1) * (size_t)(cy1 - cy0 + 1);
	}
	return n;
}

void sw__prim_grid_layout(struct sw_world *w, sw_arena *a)
{
	const sw_model *m = w->m;
	w->pg.on = 0;
	if (!m->run.neighbor_grid || m->n_prims < SW_PRIM_GRID_MIN || w->n < 1)
		return;
	double reach = 0.0;
	for (int i = 0; i < w->n; i++) {
		if (!isfinite(m->agents[i].perception))
			return; /* brute force */
		reach = fmax(reach, m->agents[i].perception + m->agents[i].radius);
	}
	w->pg.hide = fmax(w->agent.rmax, w->pg.rmax);
	reach += w->pg.hide;
	double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY}, box[4];
	int n_static = 0, n_moving = 0;
	for (int k = 0; k < m->n_prims; k++) {
		if (!is_static(m, k)) {
			n_moving++;
			continue;
		}
		n_static++;
		prim_box(m, k, box);
		lo[0] = fmin(lo[0], box[0]), lo[1] = fmin(lo[1], box[1]);
		hi[0] = fmax(hi[0], box[2]), hi[1] = fmax(hi[1], box[3]);
	}
	if (n_static == 0)
		return;
	/* Cells of reach / k: a query then visits (2k + 1)^2 cells, only those across its circle's
	 * edge testing their primitives' boxes (sw__prim_grid_query).  k (1 to 4) keeps about
	 * SW_PRIM_GRID_FILL primitives a cell, from the mean density over the extent. */
	double area = fmax((hi[0] - lo[0]) * (hi[1] - lo[1]), reach * reach);
	double per_reach_cell = n_static * reach * reach / area;
	int split = (int)sqrt(per_reach_cell / SW_PRIM_GRID_FILL);
	double cs = reach / (split < 1 ? 1 : split > 4 ? 4 : split);
	int nx, ny;
	for (;;) {
		double fx = floor((hi[0] - lo[0]) / cs) + 1, fy = floor((hi[1] - lo[1]) / cs) + 1;
		if (fx * fy <= SW_PRIM_GRID_CELLS) {
			nx = (int)fx, ny = (int)fy;
			break;
		}
		cs *= 2.0;
	}
	w->pg.x0 = lo[0], w->pg.y0 = lo[1], w->pg.cell = cs, w->pg.nx = nx, w->pg.ny = ny;
	size_t n_items = index_entries(m, lo[0], lo[1], cs, nx, ny), np = (size_t)m->n_prims;
	w->pg.n_items = n_items;
	size_t no = (size_t)m->n_obstacles;
	w->pg.start = sw__arena_take(a, (size_t)nx * ny + 1, sizeof *w->pg.start);
	w->pg.items = sw__arena_take(a, n_items + 1, sizeof *w->pg.items);
	w->pg.ibox = sw__arena_take(a, 4 * n_items + 1, sizeof *w->pg.ibox);
	w->pg.moving = sw__arena_take(a, (size_t)n_moving + 1, sizeof *w->pg.moving);
	w->pg.ends = sw__arena_take(a, 4 * np + 1, sizeof *w->pg.ends);
	w->pg.disc = sw__arena_take(a, np / 64 + 1, sizeof *w->pg.disc);
	w->pg.cull = sw__arena_take(a, np + 1, sizeof *w->pg.cull);
	w->pg.face = sw__arena_take(a, np + 1, sizeof *w->pg.face);
	w->pg.nline = sw__arena_take(a, 6 * np + 1, sizeof *w->pg.nline);
	w->pg.big = sw__arena_take(a, no + 1, sizeof *w->pg.big);
	w->pg.obox = sw__arena_take(a, 4 * no + 1, sizeof *w->pg.obox);
	/* zeroed: no overlap before the first measure */
	w->meas.touch = sw__arena_take(a, (size_t)w->n, sizeof *w->meas.touch);
}

/* +1 (counterclockwise) or -1 (clockwise) when obstacle j is a static closed convex polygon:
 * its edges (its primitives, in order) chain end to start and turn one way (collinear ones
 * allowed, no reversal), once round, and it is at least 1e-6 m wide across every edge (no
 * sliver within rounding of its own edges); else 0.  At most 64 edges (the width is checked
 * for every edge and vertex). */
static int convex_turn(const sw_model *m, int j)
{
	const sw_obstacle *o = &m->obstacles[j];
	if (o->shape != SW_SHAPE_POLYGON || !o->closed || o->prim_count < 3 ||
	    o->prim_count > 64 || o->motion.kind != SW_MOTION_NONE)
		return 0;
	int f = o->prim_first, n = o->prim_count, sign = 0;
	double turn = 0.0;
	for (int i = 0; i < n; i++) {
		const sw_prim *e = &m->prims[f + i], *g = &m->prims[f + (i + 1) % n];
		if (!e->is_segment || !g->is_segment || e->b.x != g->a.x || e->b.y != g->a.y)
			return 0;
		sw_vec2 u = sw_v2_sub(e->b, e->a), v = sw_v2_sub(g->b, g->a);
		double c = sw_v2_cross(u, v), d = sw_v2_dot(u, v);
		int s = (c > 0.0) - (c < 0.0);
		if ((s != 0 && sign != 0 && s != sign) || (s == 0 && !(d > 0.0)))
			return 0;
		sign = s != 0 ? s : sign;
		turn += atan2(c, d);
	}
	if (sign == 0 || !(fabs(fabs(turn) - 2.0 * SW_PI) < 1e-6))
		return 0;
	for (int i = 0; i < n; i++) {
		const sw_prim *e = &m->prims[f + i];
		sw_vec2 u = sw_v2_sub(e->b, e->a);
		double far = 0.0;
		for (int k = 0; k < n; k++)
			far = fmax(far, fabs(sw_v2_cross(u, sw_v2_sub(m->prims[f + k].a, e->a))));
		if (!(far >= 1e-6 * sw_v2_len(u)))
			return 0;
	}
	return sign;
}

int sw__prim_grid_build(struct sw_world *w)
{
	const sw_model *m = w->m;
	if (!w->pg.start)
		return SW_SUCCESS; /* no index (sw__prim_grid_layout) */
	int nx = w->pg.nx, ny = w->pg.ny;
	double cs = w->pg.cell, lo[2] = {w->pg.x0, w->pg.y0}, box[4];
	for (int k = 0; k < m->n_prims; k++) {
		const sw_prim *pr = &m->prims[k];
		double *e = w->pg.ends + 4 * (size_t)k;
		e[0] = pr->a.x + 0.0, e[1] = pr->a.y + 0.0, e[2] = pr->b.x + 0.0, e[3] = pr->b.y + 0.0;
		if (!pr->is_segment)
			w->pg.disc[k >> 6] |= (uint64_t)1 << (k & 63);
	}
	/* Counting sort of (cell, primitive) pairs: count, prefix sums, place (ascending k); the
	 * entries are those index_entries counted. */
	for (int pass = 0; pass < 2; pass++) {
		for (int k = 0; k < m->n_prims; k++) {
			int x0, x1, y0, y1;
			prim_box(m, k, box);
			if (!is_static(m, k) || !cells(box[0], box[2], lo[0], cs, nx, &x0, &x1) ||
			    !cells(box[1], box[3], lo[1], cs, ny, &y0, &y1))
				continue;
			for (int iy = y0; iy <= y1; iy++)
				for (int ix = x0; ix <= x1; ix++) {
					size_t c = (size_t)iy * nx + ix;
					if (pass == 0) {
						w->pg.start[c + 1]++;
						continue;
					}
					int at = w->pg.start[c]++;
					w->pg.items[at] = k;
					memcpy(w->pg.ibox + 4 * (size_t)at, box, sizeof box);
				}
		}
		for (size_t c = 0; pass == 0 && c < (size_t)nx * ny; c++)
			w->pg.start[c + 1] += w->pg.start[c];
		/* The layout sized items by index_entries; the placing pass must not write past it
		 * should the two counts ever drift apart. */
		if (pass == 0 && (size_t)w->pg.start[(size_t)nx * ny] != w->pg.n_items)
			return SW_EUSAGE;
	}
	for (size_t c = (size_t)nx * ny; c > 0; c--) /* back from ends to starts */
		w->pg.start[c] = w->pg.start[c - 1];
	w->pg.start[0] = 0;
	for (int k = 0; k < m->n_prims; k++)
		if (!is_static(m, k))
			w->pg.moving[w->pg.n_moving++] = k;
	/* Closed polygons whose box is at least 2 R wide and high, R the smallest query reach
	 * (perception plus radius) of any agent: only they can contain a point with no edge
	 * within its query reach (sw__nearest_clearance). */
	double rmin = INFINITY;
	for (int i = 0; i < w->n; i++)
		rmin = fmin(rmin, m->agents[i].perception + m->agents[i].radius);
	w->pg.n_big = 0;
	for (int k = 0; k < m->n_prims; k++)
		w->pg.cull[k] = -1, w->pg.face[k] = 0.0;
	for (int j = 0; j < m->n_obstacles; j++) {
		const sw_obstacle *o = &m->obstacles[j];
		int turn = convex_turn(m, j), f = o->prim_first, n = o->prim_count;
		for (int i = 0; turn != 0 && i < n; i++) {
			w->pg.cull[f + i] = j, w->pg.face[f + i] = turn;
			for (int side = 0; side < 2; side++) { /* the edges before and after */
				const sw_prim *e = &m->prims[f + (side ? i + 1 : i + n - 1) % n];
				sw_vec2 u = sw_v2_sub(e->b, e->a);
				double len = sw_v2_len(u), *l = w->pg.nline + 6 * (size_t)(f + i) + 3 * side;
				l[0] = -u.y / len, l[1] = u.x / len;
				l[2] = l[0] * e->a.x + l[1] * e->a.y;
			}
		}
		double *bx = w->pg.obox + 4 * (size_t)j;
		bx[0] = bx[1] = INFINITY, bx[2] = bx[3] = -INFINITY;
		for (int k = o->prim_first; k < o->prim_first + o->prim_count; k++) {
			double pb[4];
			prim_box(m, k, pb);
			bx[0] = fmin(bx[0], pb[0]), bx[1] = fmin(bx[1], pb[1]);
			bx[2] = fmax(bx[2], pb[2]), bx[3] = fmax(bx[3], pb[3]);
		}
		if (o->motion.kind != SW_MOTION_NONE)
			bx[0] = bx[1] = bx[2] = bx[3] = NAN; /* no bound: always measured */
		if (o->shape == SW_SHAPE_POLYGON && o->closed && bx[2] - bx[0] >= 2.0 * rmin &&
		    bx[3] - bx[1] >= 2.0 * rmin)
			w->pg.big[w->pg.n_big++] = j;
	}
	/* The obstacles' boxes by obstacle (moving ones, with NaN boxes, in the wide list), in cells
	 * about twice an agent's width: the queries of measure_obstacles and
	 * sw__nearest_clearance reach about a radius plus a small clearance. */
	if (sw__bucket_init(&w->pg.ob, fmax(4.0 * w->agent.rmax, 1.0), m->n_obstacles))
		return SW_ENOMEM;
	for (int j = 0; j < m->n_obstacles; j++)
		if (sw__bucket_add(&w->pg.ob, j, w->pg.obox + 4 * (size_t)j))
			return SW_ENOMEM;
	if (sw__bucket_pack(&w->pg.ob))
		return SW_ENOMEM;
	w->pg.on = 1;
	return SW_SUCCESS;
}

/* A lower bound of obstacle j's clearance from a disc of radius r at p, from its box at rest:
 * the distance from p to the box minus r, valid when p is outside the box (then p is outside the
 * obstacle, whose clearance is its smallest primitive distance minus r).  -INFINITY (no bound)
 * when p is inside the box or the obstacle moves (a NaN box). */
static double clearance_floor(const sw_prim_index *pg, int j, sw_vec2 p, double r)
{
	const double *b = pg->obox + 4 * (size_t)j;
	double dx = p.x < b[0] ? b[0] - p.x : p.x > b[2] ? p.x - b[2] : 0.0;
	double dy = p.y < b[1] ? b[1] - p.y : p.y > b[3] ? p.y - b[3] : 0.0;
	if (!(dx > 0.0 || dy > 0.0))
		return -INFINITY; /* inside the box, or a moving obstacle */
	return sqrt(dx * dx + dy * dy) - r;
}

/* min(best, clearance of obstacle j), skipping the measure when j's lower bound is above best
 * by more than any rounding of the measure (1e-9 relative: the clearances are sums of a few
 * rounded terms); the minimum is the same number either way. */
static double lower_clearance(const sw_prim_index *pg, const sw_model *m, int j, double t,
			      sw_vec2 p, double r, double best)
{
	double lb = clearance_floor(pg, j, p, r);
	if (lb - best > 1e-9 * (1.0 + fabs(lb)))
		return best;
	return fmin(best, sw_model_obstacle_clearance(m, j, t, p, r));
}

int sw__obstacles_near(const sw_prim_index *pg, const sw_model *m, sw_worker *wk, sw_vec2 p,
		       double d, const int **out)
{
	if (!pg->on)
		return -1;
	/* widened far beyond the rounding of a clearance (a few units in the last place of the
	 * coordinates) */
	double s = d + 1e-9 * (1.0 + fabs(p.x) + fabs(p.y) + d);
	double q[4] = {p.x - s, p.y - s, p.x + s, p.y + s};
	*out = wk->pg_found;
	return sw__bucket_query(&pg->ob, q, wk->pg_found, m->n_prims + 1);
}

/* Exact: the obstacles whose boxes come within d of p (sw__obstacles_near: every other one has a
 * clearance above d - r) are measured, nearest box first, skipping those whose box is farther
 * than the smallest clearance found so far (lower_clearance); when that smallest clearance is at
 * most d - r it is the global one, else d grows to it plus r (or fourfold when nothing was
 * found) and the search repeats.  When the index refuses (too far a search), the primitive
 * query of agent i decides as below, or else every obstacle is measured.  The minimum is the same number either way (tested bit for bit against the loop
 * over every obstacle). */
double sw__nearest_clearance(const sw_prim_index *pg, const sw_model *m, sw_worker *wk, int i,
			     double t, sw_vec2 p, double r)
{
	double best = INFINITY;
	for (double d = r + pg->ob.cell;;) {
		const int *list;
		int n = sw__obstacles_near(pg, m, wk, p, d, &list), near = -1;
		if (n < 0)
			break;
		double near_lb = INFINITY;
		for (int s = 0; s < n; s++) { /* the candidate with the nearest box first */
			double lb = clearance_floor(pg, list[s], p, r);
			if (near < 0 || lb < near_lb)
				near = list[s], near_lb = lb;
		}
		best = near >= 0 ? sw_model_obstacle_clearance(m, near, t, p, r) : INFINITY;
		for (int s = 0; s < n; s++)
			if (list[s] != near)
				best = lower_clearance(pg, m, list[s], t, p, r, best);
		if (best + r <= d)
			return best;
		d = best < INFINITY ? best + r : 4.0 * d;
	}
	best = INFINITY;
	if (pg->on && i >= 0 && i < m->n_agents) {
		/* Every obstacle left out by the primitive query has all its primitives' boxes
		 * farther than R >= perception + radius from p, so its clearance exceeds the
		 * perception radius - unless p lies inside it, which a closed polygon narrower than
		 * 2 R in x or y cannot do without an edge within R of p; the wider ones are always
		 * tested (pg.big).  A smallest clearance within the perception radius is therefore
		 * the global one. */
		const int *list;
		int n = sw__prim_grid_query(pg, m, wk, i, p, &list), last = -1;
		for (int s = 0; s < n; s++) {
			int j = m->prims[list[s]].owner; /* ascending: an obstacle's primitives in a row */
			if (j != last)
				best = lower_clearance(pg, m, j, t, p, r, best);
			last = j;
		}
		for (int s = 0; s < pg->n_big; s++)
			best = fmin(best, sw_model_obstacle_clearance(m, pg->big[s], t, p, r));
		if (best <= m->agents[i].perception)
			return best;
		best = INFINITY;
	}
	for (int j = 0; j < m->n_obstacles; j++)
		best = pg->on ? lower_clearance(pg, m, j, t, p, r, best)
				: fmin(best, sw_model_obstacle_clearance(m, j, t, p, r));
	return best;
}

void sw__prim_grid_free(struct sw_world *w)
{
	sw__bucket_free(&w->pg.ob);
}

int sw__prim_grid_query(const sw_prim_index *pg, const sw_model *m, sw_worker *wk, int i, sw_vec2 p,
			const int **out)
{
	const sw_agent *a = &m->agents[i];
	double r = a->perception + a->radius + pg->hide;
	int n = 0, *found = wk->pg_found, x0, x1, y0, y1;
	/* A bit per primitive marks the candidates (a primitive can sit in several cells); reading
	 * the words in order lists them once each, in increasing index order -- the order of the
	 * loop over all primitives -- and clears them for the next query.  (Sorting the
	 * concatenated cell lists instead cost a fifth of forest's run time.) */
	uint64_t *bits = wk->pg_bits;
	double r2 = r * r * (1.0 + 1e-9); /* slack: rounding never drops one the tests would keep */
	size_t lo = SIZE_MAX, hi = 0;
	/* A cell wholly within r of p: each primitive it holds passes the test below, so it is
	 * taken without one; a cell wholly beyond r: each primitive it holds is either beyond r
	 * or also in a nearer cell.  (Margins of 1e-9 and 1e-6 relative to r^2, far above the
	 * rounding of the cell bounds.) */
	double in2 = r * r * (1.0 - 1e-9), out2 = r2 * (1.0 + 1e-6), cs = pg->cell;
	if (cells(p.x - r, p.x + r, pg->x0, cs, pg->nx, &x0, &x1) &&
	    cells(p.y - r, p.y + r, pg->y0, cs, pg->ny, &y0, &y1))
		for (int iy = y0; iy <= y1; iy++) {
			double cy0 = pg->y0 + iy * cs, cy1 = cy0 + cs;
			double ny = cy0 - p.y > p.y - cy1 ? cy0 - p.y : p.y - cy1; /* nearest */
			double fy = p.y - cy0 > cy1 - p.y ? p.y - cy0 : cy1 - p.y; /* farthest */
			ny = ny > 0.0 ? ny : 0.0;
			for (int ix = x0; ix <= x1; ix++) {
				size_t c = (size_t)iy * pg->nx + ix;
				int s0 = pg->start[c], s1 = pg->start[c + 1];
				if (s0 == s1)
					continue;
				double cx0 = pg->x0 + ix * cs, cx1 = cx0 + cs;
				double nx = cx0 - p.x > p.x - cx1 ? cx0 - p.x : p.x - cx1;
				double fx = p.x - cx0 > cx1 - p.x ? p.x - cx0 : cx1 - p.x;
				nx = nx > 0.0 ? nx : 0.0;
				if (nx * nx + ny * ny > out2)
					continue;
				/* ascending within a cell: its first and last items bound its words */
				size_t w0 = (size_t)pg->items[s0] >> 6,
				       w1 = (size_t)pg->items[s1 - 1] >> 6;
				lo = w0 < lo ? w0 : lo;
				hi = w1 > hi ? w1 : hi;
				if (fx * fx + fy * fy <= in2) {
					for (int s = s0; s < s1; s++) {
						unsigned k = (unsigned)pg->items[s];
						bits[k >> 6] |= (uint64_t)1 << (k & 63);
					}
					continue;
				}
				for (int s = s0; s < s1; s++) {
					unsigned k = (unsigned)pg->items[s];
					const double *b = pg->ibox + 4 * (size_t)s;
					double dx = b[0] - p.x > p.x - b[2] ? b[0] - p.x : p.x - b[2];
					double dy = b[1] - p.y > p.y - b[3] ? b[1] - p.y : p.y - b[3];
					dx = dx > 0.0 ? dx : 0.0;
					dy = dy > 0.0 ? dy : 0.0;
					if (dx * dx + dy * dy > r2)
						continue; /* farther than r: neither seen nor hiding */
					bits[k >> 6] |= (uint64_t)1 << (k & 63);
				}
			}
		}
	for (int s = 0; s < pg->n_moving; s++) {
		unsigned k = (unsigned)pg->moving[s];
		bits[k >> 6] |= (uint64_t)1 << (k & 63);
		lo = k >> 6 < lo ? k >> 6 : lo;
		hi = k >> 6 > hi ? k >> 6 : hi;
	}
	for (size_t wd = lo; wd <= hi && lo != SIZE_MAX; wd++) {
		uint64_t b = bits[wd];
		bits[wd] = 0;
		while (b) {
			found[n++] = (int)(wd * 64 + (size_t)__builtin_ctzll(b)); /* GCC and Clang */
			b &= b - 1;
		}
	}
	*out = found;
	return n;
}
