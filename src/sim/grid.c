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

/* Cell coordinates to a bucket. */
static unsigned bucket(const struct sw_world *w, long ix, long iy)
{
	uint64_t h = sw_mix64((uint64_t)ix * 0x9e3779b97f4a7c15ULL ^ (uint64_t)iy);
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
	while (nb < 2u * (unsigned)w->n)
		nb *= 2;
	w->grid_buckets = (int)nb;
	w->grid_start = calloc((size_t)nb + 1, sizeof *w->grid_start);
	w->grid_items = calloc((size_t)w->n, sizeof *w->grid_items);
	w->grid_key = calloc((size_t)w->n, sizeof *w->grid_key);
	w->grid_found = calloc((size_t)w->n, sizeof *w->grid_found);
	if (!w->grid_start || !w->grid_items || !w->grid_key || !w->grid_found)
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
}

void sw__grid_build(struct sw_world *w)
{
	if (!w->grid_on)
		return;
	int nb = w->grid_buckets;
	memset(w->grid_start, 0, (size_t)(nb + 1) * sizeof *w->grid_start);
	for (int j = 0; j < w->n; j++) {
		const double *y = w->y_snap + w->off[j];
		long ix = (long)floor(y[SW_STATE_X] / w->grid_cell);
		long iy = (long)floor(y[SW_STATE_Y] / w->grid_cell);
		w->grid_key[j] = bucket(w, ix, iy);
		w->grid_start[w->grid_key[j] + 1]++;
	}
	for (int b = 0; b < nb; b++)
		w->grid_start[b + 1] += w->grid_start[b];
	/* Placement with per-bucket cursors kept in grid_start itself (j ascending within
	 * each bucket). */
	for (int j = 0; j < w->n; j++)
		w->grid_items[w->grid_start[w->grid_key[j]]++] = j;
	/* grid_start[b] now holds the end of bucket b: shift back to starts. */
	for (int b = nb; b > 0; b--)
		w->grid_start[b] = w->grid_start[b - 1];
	w->grid_start[0] = 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int sw__grid_query(struct sw_world *w, int i, sw_vec2 p, double reach, int **out)
{
	double cs = w->grid_cell;
	long x0 = (long)floor((p.x - reach) / cs), x1 = (long)floor((p.x + reach) / cs);
	long y0 = (long)floor((p.y - reach) / cs), y1 = (long)floor((p.y + reach) / cs);
	int n = 0;
	for (long ix = x0; ix <= x1; ix++)
		for (long iy = y0; iy <= y1; iy++) {
			unsigned b = bucket(w, ix, iy);
			for (int k = w->grid_start[b]; k < w->grid_start[b + 1]; k++) {
				int j = w->grid_items[k];
				if (j == i)
					continue;
				const double *yj = w->y_snap + w->off[j];
				long jx = (long)floor(yj[SW_STATE_X] / cs);
				long jy = (long)floor(yj[SW_STATE_Y] / cs);
				if (jx != ix || jy != iy)
					continue; /* another cell hashed to this bucket */
				w->grid_found[n++] = j;
			}
		}
	qsort(w->grid_found, (size_t)n, sizeof *w->grid_found, cmp_int);
	*out = w->grid_found;
	return n;
}
