/* plan/route.c - shortest routes for single agents over a grid of the static obstacles
 * (<routes>, docs/models.md section 4).
 *
 * A navigation field answers every start position for one target; a scene with thousands of
 * targets (SteerSuite's random fields: 3 000 to 30 000 places) cannot hold a field for each.  A
 * route answers one start for one target: A* from the agent's node to the target's, with the
 * Euclidean distance as its heuristic (admissible and consistent: a move costs its length times
 * the margin's and the avoided discs' factors, which multiply and are never below 1), over the
 * same 16-neighbour stencil and passability rule as the distance method (distance.c), so
 * without a margin a route is as long as the distance field's descent would be.  Then the route
 * is pulled taut: from each kept corner, the furthest later node that the straight line reaches
 * is the next corner -- reaches by the caller's test (the simulator's: a disc of the clearance
 * swept along it touches no static obstacle), else over free nodes (the node nearest to every
 * point of the line, sampled at a quarter spacing; a line between nodes may then pass up to
 * half a node diagonal closer to an obstacle than the clearance).  Ties are broken by the
 * heap's order, which depends only on the input: a route is a function of the map, a, b, the
 * margin and the discs, whichever thread computes it.
 *
 * A margin (sw_route_search_margin) makes moves onto nodes near the fixed ones dearer, so that a
 * route keeps away from obstacles where it has room and takes a gap along its middle: a law
 * steering at corners that graze the obstacles (at the clearance exactly) stops against them.
 *
 * Discs to keep out of (sw_route_search_avoid: the simulator's agents that stand in the way of
 * a stalled one) make the moves onto their nodes dearer by a factor; the heuristic stays
 * admissible since no move gets cheaper.
 *
 * The map's values label its connected parts (sw__route_components, when it is rasterized), so
 * a goal the agent cannot reach is known before searching.
 *
 * Memory per context: the cost, parent and two generation stamps per node (20 bytes), so a
 * search clears nothing (a stamp wrap, every 2^32 searches, clears the stamps); with a margin the
 * distances (4 bytes), with discs to avoid their stamps (4 bytes). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan_internal.h"
#include "swerve/plan.h"

struct sw_route_search {
	const sw_grid *g;
	size_t n;
	double *cost;    /* from the start node, valid where seen == gen */
	int32_t *parent; /* the node it was reached from (-1 at the start) */
	uint32_t *seen, *done;
	uint32_t gen;
	sw__heap heap;
	sw__move mv[SW__STENCIL];
	int32_t *path; /* the node path, start to goal */
	size_t path_cap;
	double *avoid;   /* discs to keep out of (x, y, r each; sw_route_search_avoid) */
	int n_avoid, avoid_cap;
	double avoid_factor;
	uint32_t *inside; /* node inside an avoided disc where == gen */
	double margin, margin_factor; /* sw_route_search_margin */
	float *near;      /* per node: distance to the nearest fixed node, m, at most margin */
};

sw_route_search *sw_route_search_new(const sw_grid *map)
{
	if (!map || !map->fixed)
		return NULL;
	sw_route_search *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->g = map;
	s->n = (size_t)map->nx * (size_t)map->ny;
	sw__stencil16(s->mv);
	return s;
}

void sw_route_search_free(sw_route_search *s)
{
	if (!s)
		return;
	free(s->cost);
	free(s->parent);
	free(s->seen);
	free(s->done);
	free(s->heap.a);
	free(s->path);
	free(s->avoid);
	free(s->inside);
	free(s->near);
	free(s);
}

int sw_route_search_margin(sw_route_search *s, double margin, double factor)
{
	if (!s || !(margin >= 0.0) || !isfinite(margin) || !(factor >= 1.0) || !isfinite(factor))
		return SW_EUSAGE;
	if (margin != s->margin) {
		free(s->near); /* computed again on the next search */
		s->near = NULL;
	}
	s->margin = margin;
	s->margin_factor = factor;
	return SW_SUCCESS;
}

/* Each node's distance to the nearest fixed node, m, capped at the margin: the two-pass chamfer
 * transform with steps of 1 and sqrt(2) spacings (at most 8.3 % over the Euclidean distance). */
static int near_compute(sw_route_search *s)
{
	const sw_grid *g = s->g;
	float *d = malloc(s->n * sizeof *d);
	if (!d)
		return 0;
	const float cap = (float)s->margin, h = (float)g->h, hd = (float)(g->h * M_SQRT2);
	long nx = g->nx, ny = g->ny;
	for (size_t k = 0; k < s->n; k++)
		d[k] = g->fixed[k] ? 0.0f : cap;
	for (long j = 0; j < ny; j++) /* forward: from the left and below */
		for (long i = 0; i < nx; i++) {
			float *v = &d[j * nx + i];
			if (i > 0)
				*v = fminf(*v, v[-1] + h);
			if (j > 0) {
				*v = fminf(*v, v[-nx] + h);
				if (i > 0)
					*v = fminf(*v, v[-nx - 1] + hd);
				if (i < nx - 1)
					*v = fminf(*v, v[-nx + 1] + hd);
			}
		}
	for (long j = ny - 1; j >= 0; j--) /* backward: from the right and above */
		for (long i = nx - 1; i >= 0; i--) {
			float *v = &d[j * nx + i];
			if (i < nx - 1)
				*v = fminf(*v, v[1] + h);
			if (j < ny - 1) {
				*v = fminf(*v, v[nx] + h);
				if (i < nx - 1)
					*v = fminf(*v, v[nx + 1] + hd);
				if (i > 0)
					*v = fminf(*v, v[nx - 1] + hd);
			}
		}
	s->near = d;
	return 1;
}

int sw_route_search_avoid(sw_route_search *s, const double *discs, int n, double factor)
{
	if (!s || n < 0 || (n > 0 && !discs) || !(factor >= 1.0) || !isfinite(factor))
		return SW_EUSAGE;
	for (int k = 0; k < 3 * n; k++)
		if (!isfinite(discs[k]) || (k % 3 == 2 && discs[k] < 0.0))
			return SW_EUSAGE;
	if (n > s->avoid_cap) {
		double *a = realloc(s->avoid, 3 * (size_t)n * sizeof *a);
		if (!a)
			return SW_ENOMEM;
		s->avoid = a;
		s->avoid_cap = n;
	}
	if (n > 0 && !s->inside && !(s->inside = calloc(s->n, sizeof *s->inside)))
		return SW_ENOMEM;
	if (n > 0)
		memcpy(s->avoid, discs, 3 * (size_t)n * sizeof *discs);
	s->n_avoid = factor > 1.0 ? n : 0; /* a factor of 1: as without discs */
	s->avoid_factor = factor;
	return SW_SUCCESS;
}

static int alloc_nodes(sw_route_search *s)
{
	if (s->cost)
		return 1;
	double *cost = malloc(s->n * sizeof *cost);
	int32_t *parent = malloc(s->n * sizeof *parent);
	uint32_t *seen = calloc(s->n, sizeof *seen), *done = calloc(s->n, sizeof *done);
	if (!cost || !parent || !seen || !done) { /* all or none: a later call tries again */
		free(cost);
		free(parent);
		free(seen);
		free(done);
		return 0;
	}
	s->cost = cost, s->parent = parent, s->seen = seen, s->done = done;
	return 1;
}

static int is_free(const sw_grid *g, long i, long j)
{
	return i >= 0 && j >= 0 && i < g->nx && j < g->ny &&
	       !g->fixed[(size_t)j * (size_t)g->nx + (size_t)i];
}

/* The free node nearest p within snap m (ties: the first in row order), or -1; with label > 0,
 * only nodes of that connected part (sw__route_components). */
static long nearest_free(const sw_grid *g, sw_vec2 p, double snap, double label)
{
	double fi = (p.x - g->x0) / g->h, fj = (p.y - g->y0) / g->h;
	if (!isfinite(fi) || !isfinite(fj))
		return -1;
	/* nodes within snap of p only, and only on the grid (p may lie far outside it) */
	double reach = ceil(snap / g->h) + 1.0;
	double i0 = fmax(fi - reach, 0.0), i1 = fmin(fi + reach, g->nx - 1.0);
	double j0 = fmax(fj - reach, 0.0), j1 = fmin(fj + reach, g->ny - 1.0);
	if (i0 > i1 || j0 > j1)
		return -1;
	long best = -1;
	double bd = snap;
	for (long j = (long)floor(j0); j <= (long)ceil(j1); j++)
		for (long i = (long)floor(i0); i <= (long)ceil(i1); i++) {
			if (!is_free(g, i, j) || (label > 0.0 && g->v[j * (long)g->nx + i] != label))
				continue;
			double d = hypot(g->x0 + (double)i * g->h - p.x, g->y0 + (double)j * g->h - p.y);
			if (d <= bd && (best < 0 || d < bd)) {
				bd = d;
				best = j * (long)g->nx + i;
			}
		}
	return best;
}

static sw_vec2 node_xy(const sw_grid *g, long k)
{
	return sw_v2(g->x0 + (double)(k % g->nx) * g->h, g->y0 + (double)(k / g->nx) * g->h);
}

/* Whether the straight line between nodes a and b passes over free nodes only (the node nearest
 * to each point, sampled at a quarter spacing). */
static int line_free(const sw_grid *g, long a, long b)
{
	double ai = (double)(a % g->nx), aj = (double)(a / g->nx);
	double bi = (double)(b % g->nx), bj = (double)(b / g->nx);
	int n = (int)ceil(4.0 * hypot(bi - ai, bj - aj)) + 1;
	for (int s = 0; s <= n; s++) {
		double t = (double)s / n;
		if (!is_free(g, lround(ai + t * (bi - ai)), lround(aj + t * (bj - aj))))
			return 0;
	}
	return 1;
}

/* Whether the stencil's move mv from free node (i, j) is allowed: to a free node, not passing
 * between fixed ones. */
static int move_ok(const sw_grid *g, long i, long j, const sw__move *mv)
{
	if (!is_free(g, i + mv->di, j + mv->dj))
		return 0;
	return !mv->between ||
	       (is_free(g, i + mv->ai, j + mv->aj) && is_free(g, i + mv->bi, j + mv->bj));
}

int sw__route_components(sw_grid *g)
{
	size_t n = (size_t)g->nx * (size_t)g->ny;
	long *stack = malloc(n * sizeof *stack);
	if (!stack)
		return SW_ENOMEM;
	sw__move mv[SW__STENCIL];
	sw__stencil16(mv);
	for (size_t k = 0; k < n; k++)
		g->v[k] = 0.0;
	double label = 0.0;
	for (size_t k0 = 0; k0 < n; k0++) {
		if (g->fixed[k0] || g->v[k0] != 0.0)
			continue;
		label += 1.0;
		size_t top = 0;
		stack[top++] = (long)k0;
		g->v[k0] = label;
		while (top > 0) {
			long k = stack[--top], i = k % g->nx, j = k / g->nx;
			for (int q = 0; q < SW__STENCIL; q++) {
				if (!move_ok(g, i, j, &mv[q]))
					continue;
				long nk = (j + mv[q].dj) * (long)g->nx + i + mv[q].di;
				if (g->v[nk] == 0.0) {
					g->v[nk] = label;
					stack[top++] = nk; /* each node is pushed once: n entries suffice */
				}
			}
		}
	}
	free(stack);
	return SW_SUCCESS;
}

/* Stamps the nodes strictly inside an avoided disc with gen. */
static void mark_avoided(sw_route_search *s, uint32_t gen)
{
	const sw_grid *g = s->g;
	for (int d = 0; d < s->n_avoid; d++) {
		const double *c = &s->avoid[3 * d];
		double r = c[2];
		/* the nodes of the disc's box, clamped to the grid before any cast */
		double nx1 = g->nx - 1.0, ny1 = g->ny - 1.0;
		long i0 = (long)fmin(fmax(ceil((c[0] - r - g->x0) / g->h), 0.0), g->nx);
		long i1 = (long)fmax(fmin(floor((c[0] + r - g->x0) / g->h), nx1), -1.0);
		long j0 = (long)fmin(fmax(ceil((c[1] - r - g->y0) / g->h), 0.0), g->ny);
		long j1 = (long)fmax(fmin(floor((c[1] + r - g->y0) / g->h), ny1), -1.0);
		for (long j = j0; j <= j1; j++)
			for (long i = i0; i <= i1; i++) {
				double dx = g->x0 + (double)i * g->h - c[0];
				double dy = g->y0 + (double)j * g->h - c[1];
				if (hypot(dx, dy) < r)
					s->inside[(size_t)j * (size_t)g->nx + (size_t)i] = gen;
			}
	}
}

/* Whether the segment p-q keeps out of every avoided disc that does not hold p.  A disc holding
 * p (a walker touching the one in its way) does not bound the stretch: holding the stretches of
 * walkers pressed together to leave every disc they stand in at once handed them corners among
 * the others, and they pushed into them (SteerSuite's random, 4 000 walkers, first 250 s: 1 253
 * agent overlaps and 284 SteerBench collisions, against 172 and 20 without). */
static int clear_of_avoided(const sw_route_search *s, sw_vec2 p, sw_vec2 q)
{
	for (int d = 0; d < s->n_avoid; d++) {
		sw_vec2 c = sw_v2(s->avoid[3 * d], s->avoid[3 * d + 1]);
		double r = s->avoid[3 * d + 2];
		if (sw_v2_dist(p, c) >= r && sw_segment_distance(p, q, c) < r)
			return 0;
	}
	return 1;
}

/* A* from node a to node b; fills s->path; returns its length, 0 when b is not reached, -1 when
 * out of memory. */
static long search(sw_route_search *s, long a, long b)
{
	const sw_grid *g = s->g;
	if (++s->gen == 0) { /* the stamps wrapped: clear them */
		memset(s->seen, 0, s->n * sizeof *s->seen);
		memset(s->done, 0, s->n * sizeof *s->done);
		if (s->inside)
			memset(s->inside, 0, s->n * sizeof *s->inside);
		s->gen = 1;
	}
	uint32_t gen = s->gen;
	mark_avoided(s, gen);
	sw_vec2 goal = node_xy(g, b);
	s->heap.n = 0;
	s->cost[a] = 0.0;
	s->parent[a] = -1;
	s->seen[a] = gen;
	if (!sw__heap_push(&s->heap, sw_v2_dist(node_xy(g, a), goal), (size_t)a))
		return -1;
	int found = 0;
	while (s->heap.n > 0) {
		sw__heap_item it = sw__heap_pop(&s->heap);
		long k = (long)it.k;
		if (s->done[k] == gen)
			continue; /* a stale entry */
		s->done[k] = gen;
		if (k == b) {
			found = 1;
			break;
		}
		long i = k % g->nx, j = k / g->nx;
		for (int q = 0; q < SW__STENCIL; q++) {
			const sw__move *mv = &s->mv[q];
			if (!move_ok(g, i, j, mv))
				continue;
			long nk = (j + mv->dj) * (long)g->nx + i + mv->di;
			if (s->done[nk] == gen)
				continue;
			double f = s->n_avoid > 0 && s->inside[nk] == gen ? s->avoid_factor : 1.0;
			if (s->near) /* dearer the nearer the obstacles, up to margin_factor */
				f *= 1.0 + (s->margin_factor - 1.0) *
					       fmax(s->margin - s->near[nk], 0.0) / s->margin;
			double c = s->cost[k] + g->h * mv->len * f;
			if (s->seen[nk] == gen && !(c < s->cost[nk]))
				continue;
			s->seen[nk] = gen;
			s->cost[nk] = c;
			s->parent[nk] = (int32_t)k;
			if (!sw__heap_push(&s->heap, c + sw_v2_dist(node_xy(g, nk), goal), (size_t)nk))
				return -1;
		}
	}
	if (!found)
		return 0;
	long len = 0;
	for (long k = b; k >= 0; k = s->parent[k])
		len++;
	if ((size_t)len > s->path_cap) {
		int32_t *p = realloc(s->path, (size_t)len * sizeof *p);
		if (!p)
			return -1;
		s->path = p;
		s->path_cap = (size_t)len;
	}
	long at = len;
	for (long k = b; k >= 0; k = s->parent[k])
		s->path[--at] = (int32_t)k;
	return len;
}

int sw_route_find(sw_route_search *s, sw_vec2 a, sw_vec2 b, double snap,
		  int (*clear)(sw_vec2 p, sw_vec2 q, void *ctx), void *ctx, sw_vec2 **pts, int *cap)
{
	if (!s || !pts || !cap || !(snap >= 0.0) || !isfinite(snap))
		return -1;
	if (!alloc_nodes(s))
		return -1;
	if (s->margin > 0.0 && s->margin_factor > 1.0 && !s->near && !near_compute(s))
		return -1;
	const sw_grid *g = s->g;
	/* The route ends at the node of the agent's part of the free space nearest to b within
	 * snap: b itself when that is b's own nearest free node, else (a goal in a pocket whose
	 * ways in are narrower than the clearance, or behind a thin wall) that node, as near as
	 * the agent fits.  A goal more than snap from the agent's part (walled off from it, or
	 * far inside an obstacle) is refused at once instead of by searching all of the agent's
	 * part. */
	long na = nearest_free(g, a, snap, 0.0);
	long nb = na < 0 ? -1 : nearest_free(g, b, snap, g->v[na]);
	if (na < 0 || nb < 0)
		return 0;
	sw_vec2 end = nearest_free(g, b, snap, 0.0) == nb ? b : node_xy(g, nb);
	long len = search(s, na, nb);
	if (len <= 0)
		return (int)len;
	/* Pulled taut: from each kept corner, the later nodes are taken while the straight line
	 * to them is clear, and the last of them becomes the next corner; the last corner is
	 * replaced by b itself.  With the caller's test the first stretch starts at a itself (not
	 * at its node), so that the first corner is one a sees. */
	int n = 0;
	for (long at = 0; at < len - 1;) {
		long next = at + 1;
		sw_vec2 from = at == 0 && clear ? a : node_xy(g, s->path[at]);
		while (next + 1 < len &&
		       clear_of_avoided(s, from, node_xy(g, s->path[next + 1])) &&
		       (clear ? clear(from, node_xy(g, s->path[next + 1]), ctx)
			      : line_free(g, s->path[at], s->path[next + 1])))
			next++;
		if (n == *cap) {
			int c = *cap ? 2 * *cap : 16;
			sw_vec2 *p = realloc(*pts, (size_t)c * sizeof *p);
			if (!p)
				return -1;
			*pts = p;
			*cap = c;
		}
		(*pts)[n++] = node_xy(g, s->path[next]);
		at = next;
	}
	if (n == 0) { /* a and b share a node */
		if (*cap == 0) {
			sw_vec2 *p = realloc(*pts, 16 * sizeof *p);
			if (!p)
				return -1;
			*pts = p;
			*cap = 16;
		}
		n = 1;
	}
	(*pts)[n - 1] = end;
	return n;
}
