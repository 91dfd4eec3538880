/* sim/grid.c - the neighbour index of agents (steering-models.md section 5).
 *
 * Each step the agents' start-of-step positions are binned into a uniform grid whose cells are
 * hashed into a table of buckets (counting sort: no per-step allocation).  A query for agent i at
 * its current position p returns every agent whose snapshot centre lies within R of p, R being
 * i's perception plus both radii, by scanning the buckets of the cells overlapping the square of
 * half-side R around p.  The candidates are filtered by the same test the brute-force loop uses
 * and returned in increasing index order, so the percepts, and therefore every result, are
 * bit-identical to the brute-force loop (tested).  Used when every agent has a finite perception
 * radius; otherwise perception stays brute force. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"

/* Cell coordinates to a bucket.  Linear in ix, so that the cells of one row of a query are
 * consecutive buckets (a query touches a few contiguous runs of memory, not 9 random places);
 * the row multiplier is a large odd constant, which spreads rows over the table. */
static unsigned bucket(const struct sw_world *w, long ix, long iy)
{
	uint64_t h = (uint64_t)ix + (uint64_t)iy * 0x9e3779b97f4a7c15ULL;
	return (unsigned)(h & (uint64_t)(w->grid_buckets - 1));
}

int sw__grid_alloc(struct sw_world *w)
{
	const sw_model *m = w->m;
	w->grid_on = 0;
	if (!m->run.agents_perceive || !m->run.neighbor_grid || w->n < 2)
		return SW_SUCCESS;
	double pmax = 0.0, rmax = 0.0;
	for (int i = 0; i < w->n; i++) {
		if (!isfinite(m->agents[i].perception))
			return SW_SUCCESS; /* brute force */
		pmax = fmax(pmax, m->agents[i].perception);
		rmax = fmax(rmax, m->agents[i].radius);
	}
	w->grid_cell = pmax + 2.0 * rmax;
	w->grid_rmax = rmax;
	unsigned nb = 16;
	while (nb < (unsigned)w->n)
		nb *= 2;
	w->grid_buckets = (int)nb;
	w->grid_start = calloc((size_t)nb + 1, sizeof *w->grid_start);
	w->grid_items = calloc((size_t)w->n, sizeof *w->grid_items);
	w->grid_key = calloc((size_t)w->n, sizeof *w->grid_key);
	w->grid_found = calloc((size_t)w->n, sizeof *w->grid_found);
	w->grid_px = calloc((size_t)w->n, sizeof *w->grid_px);
	w->grid_py = calloc((size_t)w->n, sizeof *w->grid_py);
	w->grid_cx = calloc((size_t)w->n, sizeof *w->grid_cx);
	w->grid_cy = calloc((size_t)w->n, sizeof *w->grid_cy);
	if (!w->grid_start || !w->grid_items || !w->grid_key || !w->grid_found || !w->grid_px ||
	    !w->grid_py || !w->grid_cx || !w->grid_cy)
		return SW_ENOMEM;
	w->grid_on = 1;
	return SW_SUCCESS;
}

void sw__grid_free(struct sw_world *w)
{
	free(w->grid_start);
	free(w->grid_items);
	free(w->grid_key);
	free(w->grid_found);
	free(w->grid_px);
	free(w->grid_py);
	free(w->grid_cx);
	free(w->grid_cy);
}

void sw__grid_build(struct sw_world *w)
{
	if (!w->grid_on)
		return;
	int nb = w->grid_buckets;
	memset(w->grid_start, 0, (size_t)(nb + 1) * sizeof *w->grid_start);
	for (int j = 0; j < w->n; j++) {
		const double *y = w->snap + 2 * (size_t)j;
		long ix = (long)floor(y[0] / w->grid_cell);
		long iy = (long)floor(y[1] / w->grid_cell);
		w->grid_key[j] = bucket(w, ix, iy);
		w->grid_start[w->grid_key[j] + 1]++;
	}
	for (int b = 0; b < nb; b++)
		w->grid_start[b + 1] += w->grid_start[b];
	/* Placement with per-bucket cursors kept in grid_start itself (j ascending within
	 * each bucket); each slot also keeps the agent's cell and position, so that queries read
	 * contiguous memory (structure of arrays in bucket order). */
	for (int j = 0; j < w->n; j++) {
		int k = w->grid_start[w->grid_key[j]]++;
		const double *y = w->snap + 2 * (size_t)j;
		w->grid_items[k] = j;
		w->grid_px[k] = y[0];
		w->grid_py[k] = y[1];
		w->grid_cx[k] = (int32_t)(long)floor(y[0] / w->grid_cell);
		w->grid_cy[k] = (int32_t)(long)floor(y[1] / w->grid_cell);
	}
	/* grid_start[b] now holds the end of bucket b: shift back to starts. */
	for (int b = nb; b > 0; b--)
		w->grid_start[b] = w->grid_start[b - 1];
	w->grid_start[0] = 0;
}

int sw__grid_query(struct sw_world *w, int i, sw_vec2 p, double reach, int **out)
{
	double cs = w->grid_cell;
	long x0 = (long)floor((p.x - reach) / cs), x1 = (long)floor((p.x + reach) / cs);
	long y0 = (long)floor((p.y - reach) / cs), y1 = (long)floor((p.y + reach) / cs);
	/* Centres farther than reach cannot be perceived (reach covers perception and both
	 * radii); the slack keeps rounding from ever dropping one the exact test would keep. */
	double r2 = reach * reach * (1.0 + 1e-9);
	int n = 0, *found = w->grid_found;
	for (long ix = x0; ix <= x1; ix++)
		for (long iy = y0; iy <= y1; iy++) {
			unsigned b = bucket(w, ix, iy);
			for (int k = w->grid_start[b]; k < w->grid_start[b + 1]; k++) {
				if (w->grid_cx[k] != (int32_t)ix || w->grid_cy[k] != (int32_t)iy)
					continue; /* another cell hashed to this bucket */
				double dx = w->grid_px[k] - p.x, dy = w->grid_py[k] - p.y;
				int j = w->grid_items[k];
				if (dx * dx + dy * dy > r2 || j == i)
					continue;
				/* Insertion in increasing index order (the brute-force loop's
				 * order): the lists are short, and already sorted within a cell. */
				int q = n++;
				while (q > 0 && found[q - 1] > j) {
					found[q] = found[q - 1];
					q--;
				}
				found[q] = j;
			}
		}
	*out = found;
	return n;
}
