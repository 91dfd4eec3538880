/* plan/distance.c - geodesic distance on a nav grid (<navfield method="distance">,
 * docs/models.md section 4).
 *
 * A harmonic field's routes keep to the middle of the free space: they never trap an agent, but
 * they prefer wide passages, and in clutter the route they pick can be a fifth longer than the
 * shortest one.  The distance method instead gives every free node its shortest-path distance D
 * to the target nodes through free nodes, by Dijkstra's algorithm over a 16-neighbour stencil
 * (the 8 neighbours and the 8 knight moves; a move is allowed when the nodes it passes between
 * are free), and stores phi = 1 / (1 + D): 1 on the target, falling with the distance, 0 on
 * obstacle and border nodes and on free nodes cut off from the target.  phi is a monotone
 * function of -D, so the field's direction (grad phi / phi, grid.c) follows the distance's
 * steepest descent and, like the harmonic field, has no local maximum off the target: every
 * reached node has a neighbour that is closer.  The 16-neighbour stencil's distances exceed the
 * Euclidean ones by at most 2.8 % (the 8-neighbour stencil's by 8 %), and the route's homotopy
 * class is the shortest one up to that; corners="avoid" then pulls the walked path taut.
 *
 * The priority queue and the stencil are shared with the routes' search (plan_internal.h). */
#include <math.h>
#include <stdlib.h>

#include "plan/plan_internal.h"
#include "swerve/core.h"
#include "swerve/plan.h"

int sw__heap_push(sw__heap *h, double d, size_t k)
{
	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 1024;
		sw__heap_item *a = realloc(h->a, cap * sizeof *a);
		if (!a)
			return 0;
		h->a = a;
		h->cap = cap;
	}
	size_t i = h->n++;
	while (i > 0 && h->a[(i - 1) / 2].d > d) {
		h->a[i] = h->a[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->a[i] = (sw__heap_item){d, k};
	return 1;
}

sw__heap_item sw__heap_pop(sw__heap *h)
{
	sw__heap_item top = h->a[0], last = h->a[--h->n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->a[c + 1].d < h->a[c].d)
			c++;
		if (h->a[c].d >= last.d)
			break;
		h->a[i] = h->a[c];
		i = c;
	}
	if (h->n > 0)
		h->a[i] = last;
	return top;
}

void sw__stencil16(sw__move mv[SW__STENCIL])
{
	int nm = 0;
	for (int di = -2; di <= 2; di++)
		for (int dj = -2; dj <= 2; dj++) {
			int ai = abs(di), aj = abs(dj);
			if ((ai == 0 && aj == 0) || ai + aj > 3 || (ai == 2 && aj == 2) ||
			    (ai == 2 && aj == 0) || (ai == 0 && aj == 2))
				continue;
			sw__move m = {di, dj, 0, 0, 0, 0, 0, hypot(di, dj)};
			if (ai == 1 && aj == 1)
				m = (sw__move){di, dj, di, 0, 0, dj, 1, m.len};
			else if (ai == 2)
				m = (sw__move){di, dj, di / 2, 0, di / 2, dj, 1, m.len};
			else if (aj == 2)
				m = (sw__move){di, dj, 0, dj / 2, di, dj / 2, 1, m.len};
			mv[nm++] = m;
		}
}

int sw_navgrid_distance(sw_grid *g)
{
	if (!g || g->kind != SW_GRID_NAV || !g->fixed)
		return SW_EUSAGE;
	size_t n = (size_t)g->nx * (size_t)g->ny;
	double *dist = malloc(n * sizeof *dist);
	sw__heap h = {NULL, 0, 0};
	if (!dist)
		return SW_ENOMEM;
	int ok = 1;
	for (size_t k = 0; k < n; k++) {
		int target = g->fixed[k] && g->v[k] > 0.0;
		dist[k] = target ? 0.0 : INFINITY;
		if (target)
			ok = ok && sw__heap_push(&h, 0.0, k);
	}
	sw__move mv[SW__STENCIL];
	sw__stencil16(mv);
	const int nm = SW__STENCIL;
	while (ok && h.n > 0) {
		sw__heap_item it = sw__heap_pop(&h);
		if (it.d > dist[it.k])
			continue; /* a stale entry */
		int i = (int)(it.k % (size_t)g->nx), j = (int)(it.k / (size_t)g->nx);
		for (int q = 0; q < nm && ok; q++) {
			int ni = i + mv[q].di, nj = j + mv[q].dj;
			if (ni < 0 || nj < 0 || ni >= g->nx || nj >= g->ny)
				continue;
			size_t nk = (size_t)nj * (size_t)g->nx + (size_t)ni;
			if (g->fixed[nk])
				continue;
			if (mv[q].between) {
				size_t a = (size_t)(j + mv[q].aj) * (size_t)g->nx + (size_t)(i + mv[q].ai);
				size_t b = (size_t)(j + mv[q].bj) * (size_t)g->nx + (size_t)(i + mv[q].bi);
				if ((g->fixed[a] && !(g->v[a] > 0.0)) || (g->fixed[b] && !(g->v[b] > 0.0)))
					continue;
			}
			double nd = it.d + g->h * mv[q].len;
			if (nd < dist[nk]) {
				dist[nk] = nd;
				ok = sw__heap_push(&h, nd, nk);
			}
		}
	}
	free(h.a);
	if (!ok) {
		free(dist);
		return SW_ENOMEM;
	}
	for (size_t k = 0; k < n; k++)
		if (!g->fixed[k])
			g->v[k] = isfinite(dist[k]) ? 1.0 / (1.0 + dist[k]) : 0.0;
	free(dist);
	return SW_SUCCESS;
}
