/* geom/bucket.c - a hashed uniform grid of axis-aligned boxes (bucket.h).
 *
 * Cell (ix, iy) = (floor(x / cell), floor(y / cell)) is hashed into one of nb buckets, each a
 * singly linked list of entries (id, box); a box is entered once per cell it overlaps.  Hashing
 * needs no extent known in advance, so boxes can be added at any time (the importer adds each
 * agent as it is placed).  A query visits the cells of its box, keeps the entries whose box meets
 * it (which also drops entries of other cells hashed into the same bucket), and sorts and
 * deduplicates the ids.  Hand-written: no library packaged for Debian offers a 2-D box index
 * for C (GEOS's STRtree is C++ and static; libspatialindex is C++). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "geom/bucket.h"
#include "swerve/core.h"

/* Largest |coordinate / cell| kept in the grid: cell numbers then fit an int64 exactly. */
#define BUCKET_COORD_MAX 1e15

int sw__bucket_init(sw_bucket *g, double cell, int expect)
{
	*g = (sw_bucket){0};
	g->cell = cell;
	g->nb = 64;
	while (g->nb < 2 * expect && g->nb < (1 << 24))
		g->nb *= 2;
	g->head = malloc((size_t)g->nb * sizeof *g->head);
	if (!g->head)
		return SW_ENOMEM;
	for (int b = 0; b < g->nb; b++)
		g->head[b] = -1;
	return SW_SUCCESS;
}

void sw__bucket_free(sw_bucket *g)
{
	free(g->head);
	free(g->next);
	free(g->id);
	free(g->box);
	free(g->wide);
	free(g->start);
	*g = (sw_bucket){0};
}

static int bucket_of(const sw_bucket *g, int64_t ix, int64_t iy)
{
	uint64_t h = (uint64_t)ix * UINT64_C(0x9E3779B97F4A7C15) ^
		     (uint64_t)iy * UINT64_C(0xC2B2AE3D27D4EB4F);
	h ^= h >> 29;
	return (int)(h & (uint64_t)(g->nb - 1));
}

/* Cell range of box b along both axes; 0 when b is not finite, too far out, or spans over
 * SW_BUCKET_SPAN cells along a side. */
static int cell_range(const sw_bucket *g, const double b[4], int64_t c[4])
{
	for (int k = 0; k < 4; k++) {
		double v = floor(b[k] / g->cell);
		if (!(fabs(v) <= BUCKET_COORD_MAX))
			return 0;
		c[k] = (int64_t)v;
	}
	return c[2] - c[0] < SW_BUCKET_SPAN && c[3] - c[1] < SW_BUCKET_SPAN;
}

int sw__bucket_add(sw_bucket *g, int id, const double b[4])
{
	if (g->start)
		return SW_EUSAGE; /* packed */
	int64_t c[4];
	if (!cell_range(g, b, c)) {
		if (g->n_wide == g->cap_wide) {
			int cap = g->cap_wide ? 2 * g->cap_wide : 16;
			int *nw = realloc(g->wide, (size_t)cap * sizeof *nw);
			if (!nw)
				return SW_ENOMEM;
			g->wide = nw;
			g->cap_wide = cap;
		}
		g->wide[g->n_wide++] = id;
		return SW_SUCCESS;
	}
	int need = g->n + (int)((c[2] - c[0] + 1) * (c[3] - c[1] + 1));
	if (need > g->cap) {
		int cap = g->cap ? 2 * g->cap : 64;
		while (cap < need)
			cap *= 2;
		int *nx = realloc(g->next, (size_t)cap * sizeof *nx);
		if (nx)
			g->next = nx;
		int *ni = realloc(g->id, (size_t)cap * sizeof *ni);
		if (ni)
			g->id = ni;
		double *nbx = realloc(g->box, 4 * (size_t)cap * sizeof *nbx);
		if (nbx)
			g->box = nbx;
		if (!nx || !ni || !nbx)
			return SW_ENOMEM;
		g->cap = cap;
	}
	for (int64_t iy = c[1]; iy <= c[3]; iy++)
		for (int64_t ix = c[0]; ix <= c[2]; ix++) {
			int e = g->n++, h = bucket_of(g, ix, iy);
			g->id[e] = id;
			for (int k = 0; k < 4; k++)
				g->box[4 * (size_t)e + k] = b[k];
			g->next[e] = g->head[h];
			g->head[h] = e;
		}
	return SW_SUCCESS;
}

int sw__bucket_pack(sw_bucket *g)
{
	int *start = calloc((size_t)g->nb + 1, sizeof *start);
	int *id = malloc(((size_t)g->n + 1) * sizeof *id);
	double *box = malloc((4 * (size_t)g->n + 1) * sizeof *box);
	if (!start || !id || !box) {
		free(start);
		free(id);
		free(box);
		return SW_ENOMEM;
	}
	int at = 0;
	for (int b = 0; b < g->nb; b++) {
		start[b] = at;
		for (int e = g->head[b]; e >= 0; e = g->next[e], at++) {
			id[at] = g->id[e];
			for (int k = 0; k < 4; k++)
				box[4 * (size_t)at + k] = g->box[4 * (size_t)e + k];
		}
	}
	start[g->nb] = at;
	free(g->id);
	free(g->box);
	g->id = id;
	g->box = box;
	g->start = start;
	return SW_SUCCESS;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Whether entry e's box meets q. */
static inline int meets(const sw_bucket *g, int e, const double q[4])
{
	const double *b = g->box + 4 * (size_t)e;
	return !(b[0] > q[2] || b[2] < q[0] || b[1] > q[3] || b[3] < q[1]);
}

/* Appends id to out[0, cap); 0 when full. */
static inline int put(int *out, int *n, int cap, int id)
{
	if (*n == cap)
		return 0;
	out[(*n)++] = id;
	return 1;
}

int sw__bucket_query(const sw_bucket *g, const double q[4], int *out, int cap)
{
	int64_t c[4];
	if (!cell_range(g, q, c))
		return -1;
	int n = 0;
	for (int k = 0; k < g->n_wide; k++)
		if (!put(out, &n, cap, g->wide[k]))
			return -1;
	for (int64_t iy = c[1]; iy <= c[3]; iy++)
		for (int64_t ix = c[0]; ix <= c[2]; ix++) {
			int h = bucket_of(g, ix, iy);
			if (g->start) {
				for (int e = g->start[h]; e < g->start[h + 1]; e++)
					if (meets(g, e, q) && !put(out, &n, cap, g->id[e]))
						return -1;
			} else {
				for (int e = g->head[h]; e >= 0; e = g->next[e])
					if (meets(g, e, q) && !put(out, &n, cap, g->id[e]))
						return -1;
			}
		}
	/* ascending, once each: insertion sort for the usual handful, qsort beyond */
	if (n > 32) {
		qsort(out, (size_t)n, sizeof *out, cmp_int);
	} else {
		for (int i = 1; i < n; i++) {
			int v = out[i], j = i;
			for (; j > 0 && out[j - 1] > v; j--)
				out[j] = out[j - 1];
			out[j] = v;
		}
	}
	int u = 0;
	for (int i = 0; i < n; i++)
		if (u == 0 || out[i] != out[u - 1])
			out[u++] = out[i];
	return u;
}
