/* geom/bucket.h - a hashed uniform grid of axis-aligned boxes (library-internal).
 *
 * Boxes (x0, y0, x1, y1) are added under integer ids; a query returns, in increasing order and
 * once each, the ids of the boxes that meet a query box.  Callers then apply their exact tests
 * to those candidates only, so a result never depends on the cell size.  Used where a loop over
 * every obstacle (or agent) per point made clutter quadratic: the SteerSuite importer's
 * placement draws, the model's start-overlap check, and the world's obstacle measures. */
#ifndef SW_GEOM_BUCKET_H
#define SW_GEOM_BUCKET_H

/** The grid: cells of side `cell` hashed into buckets; each box is entered in every cell it
 * overlaps, boxes over SW_BUCKET_SPAN cells along a side (or not finite) in a list every query
 * returns. */
typedef struct sw_bucket {
	double cell;   /* cell side, m (> 0) */
	int nb;        /* buckets, a power of two */
	int *head;     /* per bucket: its first entry, -1 when empty */
	int *next;     /* per entry: the next entry of its bucket, -1 */
	int *id;       /* per entry: the box's id */
	double *box;   /* per entry: the box (x0, y0, x1, y1) */
	int n, cap;    /* entries */
	int *start;    /* after sw__bucket_pack: bucket b's entries are start[b] .. start[b + 1] - 1
			  (then head and next are unused), else NULL */
	int *wide;     /* ids of the wide boxes */
	int n_wide, cap_wide;
} sw_bucket;

/** Cells per side beyond which a box is kept in the wide list (and a query is refused). */
#define SW_BUCKET_SPAN 64

/** Initialises g with cells of side cell (> 0, finite) and room for about `expect` boxes;
 * returns 0 or SW_ENOMEM (then g holds nothing to free). */
int sw__bucket_init(sw_bucket *g, double cell, int expect);
/** Adds box b (x0 <= x1, y0 <= y1) under id (>= 0); returns 0 or SW_ENOMEM. */
int sw__bucket_add(sw_bucket *g, int id, const double b[4]);
/** Writes to out[0, cap) the ids of the boxes meeting q (closed boxes), ascending, each once;
 * returns their number, or -1 when q is not finite, spans over SW_BUCKET_SPAN cells along a side,
 * or more than cap entries were met: the caller then tests every box itself. */
int sw__bucket_query(const sw_bucket *g, const double q[4], int *out, int cap);
/** Lays the entries out bucket by bucket (queries then read them in a row, not along lists);
 * no box may be added afterwards.  Returns 0, or SW_ENOMEM (then g is unchanged and usable). */
int sw__bucket_pack(sw_bucket *g);
/** Frees what g holds (g itself is the caller's). */
void sw__bucket_free(sw_bucket *g);

#endif
