/* sim/grid.c - the neighbour index of agents (docs/models.md section 5).
 *
 * Each step the agents' start-of-step positions are binned into a uniform grid of square cells
 * (side: the largest perception plus twice the largest radius) by a counting sort, into arrays
 * allocated once (no per-step allocation).  Each slot keeps the agent's index and position
 * (structure of arrays in cell order), so a query reads contiguous memory.
 *
 * Two layouts, chosen at every build:
 *   - dense: when the bounding box of the agents has no more cells than the hashed table has
 *     buckets (1/2 to 1 per agent: any crowd), cell (ix, iy) is bucket (iy - iy0) nx + (ix - ix0), so the cells of one row of a
 *     query are one run of consecutive slots and no slot belongs to a cell outside the query;
 *   - hashed: otherwise (a few agents kilometres apart), cells are hashed into a power-of-two
 *     table, linear in ix; a slot may then belong to a far cell that shares the bucket.
 * A query for agent i at p returns every agent whose centre lies within `reach` of p (reach
 * covers i's perception and both radii).  Candidates of the scanned runs are filtered by the
 * distance alone, without branches: a slot outside the query's cells that passes the distance
 * test is a true neighbour too, and every slot is scanned at most once because the runs are
 * disjoint (dense) or the cells are checked (hashed, where two runs can share buckets).  The
 * result is sorted into increasing index order, the brute-force loop's, so that the percepts and
 * every result are bit-identical to the brute-force loop (tested).  Used when every agent has a
 * finite perception radius; otherwise perception stays brute force. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"

/* The scan of a row may use AVX-512 or AVX2 (GCC: runtime dispatch from a baseline build). */
#if defined(__GNUC__) && !defined(__clang__) && (defined(__x86_64__) || defined(__i386__))
#define SW_GRID_X86 1
#include <immintrin.h>
#endif

/* Slots of the grid's arrays beyond one per agent: a group of four that starts at the last
 * slot stays inside the allocation (what the padding and any slot past the last placed agent
 * hold is read but masked off). */
#define SW_GRID_PAD 3

/* Longest list sorted by ranks (sw__sort_indices). */
#define SW_RANK_SORT 32

/* Hashed layout: cell coordinates to a bucket.  Linear in ix, so that the cells of one row of a
 * query are consecutive buckets; the row multiplier is a large odd constant, which spreads rows
 * over the table. */
static unsigned bucket(const sw_agent_grid *g, long ix, long iy)
{
	uint64_t h = (uint64_t)ix + (uint64_t)iy * 0x9e3779b97f4a7c15ULL;
	return (unsigned)(h & (uint64_t)(g->buckets - 1));
}

void sw__grid_layout(struct sw_world *w, sw_arena *a)
{
	const sw_model *m = w->m;
	sw_agent_grid *g = &w->grid;
	g->on = 0;
	if (!m->run.agents_perceive || !m->run.neighbor_grid || w->n < 2)
		return;
	double pmax = 0.0, rmax = 0.0;
	for (int i = 0; i < w->n; i++) {
		if (!isfinite(m->agents[i].perception))
			return; /* brute force */
		pmax = fmax(pmax, m->agents[i].perception);
		rmax = fmax(rmax, m->agents[i].radius);
	}
	g->cell = pmax + 2.0 * rmax;
	g->rmax = rmax;
	/* Between a half and one bucket per agent: the hashed layout's chains stay short, and a
	 * crowd's bounding box (a few agents per cell) still fits the dense layout. */
	unsigned nb = 16;
	while (2 * nb < (unsigned)w->n)
		nb *= 2;
	g->buckets = (int)nb;
	/* The dense layout uses the hashed one's table when the box has no more cells than it
	 * (between 1/2 and 1 per agent).  A query's result goes to the worker's buffer
	 * (sw_worker found). */
	g->cap = nb;
	size_t n = (size_t)w->n;
	g->start = sw__arena_take(a, (size_t)nb + 1, sizeof *g->start);
	/* (SW_GRID_PAD slots beyond the last, zero: the AVX2 scan reads groups of four) */
	g->items = sw__arena_take(a, n + SW_GRID_PAD, sizeof *g->items);
	g->px = sw__arena_take(a, n + SW_GRID_PAD, sizeof *g->px);
	g->py = sw__arena_take(a, n + SW_GRID_PAD, sizeof *g->py);
	g->pz = sw__arena_take(a, w->space3.on ? n : 0, sizeof *g->pz); /* space3 laid out first */
	g->on = 1;
#ifdef SW_GRID_X86
	g->avx512 = __builtin_cpu_supports("avx512f");
	g->avx2 = __builtin_cpu_supports("avx2");
#endif
}

/* Cell coordinate of x. */
static long cell_of(const sw_agent_grid *g, double x)
{
	return (long)floor(x / g->cell);
}

/* Chooses the layout for a snapshot whose positions lie in box (x0, x1, y0, y1; sets dense,
 * ix0, iy0, nx, ny). */
static void choose_layout(sw_agent_grid *g, const double box[4])
{
	double x0 = box[0], x1 = box[1], y0 = box[2], y1 = box[3];
	g->dense = 0;
	if (!(isfinite(x0) && isfinite(x1) && isfinite(y0) && isfinite(y1)))
		return; /* the hashed layout copes with anything */
	double nx = floor(x1 / g->cell) - floor(x0 / g->cell) + 1.0;
	double ny = floor(y1 / g->cell) - floor(y0 / g->cell) + 1.0;
	if (nx * ny > (double)g->cap)
		return;
	g->dense = 1;
	g->ix0 = cell_of(g, x0);
	g->iy0 = cell_of(g, y0);
	g->nx = (long)nx;
	g->ny = (long)ny;
}

/* Bucket of the point (x, y) in the current layout. */
static unsigned key_of(const sw_agent_grid *g, double x, double y)
{
	long ix = cell_of(g, x), iy = cell_of(g, y);
	return g->dense ? (unsigned)((iy - g->iy0) * g->nx + (ix - g->ix0))
			     : bucket(g, ix, iy);
}

void sw__grid_build(sw_agent_grid *g, const struct sw_world *w, const double box[4], int *key)
{
	if (!g->on)
		return;
	choose_layout(g, box);
	int nb = g->dense ? (int)(g->nx * g->ny) : g->buckets;
	memset(g->start, 0, (size_t)(nb + 1) * sizeof *g->start);
	/* Each agent's bucket, kept for the placement (two divisions and floors an agent: once,
	 * not twice); agents that left are in no bucket. */
	for (int j = 0; j < w->n; j++) {
		const double *y = w->snap.pos + 2 * (size_t)j;
		key[j] = sw__gone(w, j) ? -1 : (int)key_of(g, y[0], y[1]);
		if (key[j] >= 0)
			g->start[key[j] + 1]++;
	}
	for (int b = 0; b < nb; b++)
		g->start[b + 1] += g->start[b];
	/* Placement with per-bucket cursors kept in start itself (j ascending within each
	 * bucket). */
	for (int j = 0; j < w->n; j++) {
		if (key[j] < 0)
			continue;
		const double *y = w->snap.pos + 2 * (size_t)j;
		int k = g->start[key[j]]++;
		g->items[k] = j;
		g->px[k] = y[0];
		g->py[k] = y[1];
		if (g->pz)
			g->pz[k] = w->space3.snap[4 * (size_t)j]; /* z (space3.c) */
	}
	/* start[b] now holds the end of bucket b: shift back to starts. */
	for (int b = nb; b > 0; b--)
		g->start[b] = g->start[b - 1];
	g->start[0] = 0;
}

/* The cells of a dense layout's query, clipped to the occupied box (non-empty): columns
 * cx0 .. cx1 of rows cy0 .. cy1, relative to (ix0, iy0). */
typedef struct query_box {
	long cx0, cx1, cy0, cy1;
} query_box;

/* The run of slots [*lo, *hi) of row iy of box b: its cells are consecutive buckets. */
static inline void run_of(const sw_agent_grid *g, const query_box *b, long iy, int *lo, int *hi)
{
	long c = iy * g->nx;
	*lo = g->start[c + b->cx0];
	*hi = g->start[c + b->cx1 + 1];
}

#ifdef SW_GRID_X86
/* The lanes of an AVX2 compress (scan_box_avx2): for each 4-bit mask of kept lanes, the byte
 * shuffle that moves the kept 32-bit items to the front, in order. */
static const unsigned char compress4[16][16] = {
#define L(a) 4 * (a), 4 * (a) + 1, 4 * (a) + 2, 4 * (a) + 3
#define Z 0x80, 0x80, 0x80, 0x80
	{Z, Z, Z, Z},		  {L(0), Z, Z, Z},	    {L(1), Z, Z, Z},
	{L(0), L(1), Z, Z},	  {L(2), Z, Z, Z},	    {L(0), L(2), Z, Z},
	{L(1), L(2), Z, Z},	  {L(0), L(1), L(2), Z},    {L(3), Z, Z, Z},
	{L(0), L(3), Z, Z},	  {L(1), L(3), Z, Z},	    {L(0), L(1), L(3), Z},
	{L(2), L(3), Z, Z},	  {L(0), L(2), L(3), Z},    {L(1), L(2), L(3), Z},
	{L(0), L(1), L(2), L(3)},
#undef L
#undef Z
};

/* Slots k .. k + c - 1 (c <= 4) of positions gx, gy and items gi, by plain loads of four: the
 * arrays have SW_GRID_PAD slots beyond the last (inside the allocation), and lanes c .. 3 are
 * masked off.  (The arrays, not the grid: the stores to found may alias it, so its fields would be
 * loaded again for every group.) */
__attribute__((target("avx2"))) static inline int
scan4_avx2(const double *gx, const double *gy, const int *gi, int k, int c, __m256d px,
	   __m256d py, __m256d rr, __m128i self, int *found, int n)
{
	__m256d x = _mm256_loadu_pd(gx + k), y = _mm256_loadu_pd(gy + k);
	__m128i items = _mm_loadu_si128((const __m128i *)(gi + k));
	__m256d dx = _mm256_sub_pd(x, px), dy = _mm256_sub_pd(y, py);
	__m256d d2 = _mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy));
	int near = _mm256_movemask_pd(_mm256_cmp_pd(d2, rr, _CMP_LE_OQ)) & ((1 << c) - 1);
	int me = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(items, self)));
	int keep = near & ~me;
	__m128i sh = _mm_loadu_si128((const __m128i *)compress4[keep]);
	_mm_storeu_si128((__m128i *)(found + n), _mm_shuffle_epi8(items, sh));
	return n + __builtin_popcount((unsigned)keep);
}

/* scan_box() 4 slots at a time with AVX2 (processors without AVX-512; GCC dispatches at run
 * time from a baseline build): the same distance tests (dx dx + dy dy <= r2, not contracted: the
 * build is ISO C, -ffp-contract=off), the kept items moved to the front of the four by a byte
 * shuffle from compress4 and stored four at a time (found has SW_GRID_SLACK entries of room
 * beyond one per agent), so the result is the scalar loop's.  The scalar loop spends about 17
 * instructions per candidate: it cannot be vectorised by the compiler (the store index depends
 * on the data).  Every row of the query in one call: the broadcasts and the dispatch once.  Not
 * inlined (a baseline build cannot inline it anyway): inlined into the query, its loop lost
 * registers to the caller's values (measured: more instructions). */
__attribute__((target("avx2"), noinline)) static int scan_box_avx2(const sw_agent_grid *g,
							 const query_box *b, int i, sw_vec2 p,
							 double r2, int *found)
{
	const __m256d px = _mm256_set1_pd(p.x), py = _mm256_set1_pd(p.y), rr = _mm256_set1_pd(r2);
	const __m128i self = _mm_set1_epi32(i);
	const double *gx = g->px, *gy = g->py;
	const int *gi = g->items;
	int n = 0;
	for (long iy = b->cy0; iy <= b->cy1; iy++) {
		int k, hi;
		run_of(g, b, iy, &k, &hi);
		for (; k + 4 <= hi; k += 4)
			n = scan4_avx2(gx, gy, gi, k, 4, px, py, rr, self, found, n);
		if (k < hi) /* the run's last, partial group */
			n = scan4_avx2(gx, gy, gi, k, hi - k, px, py, rr, self, found, n);
	}
	return n;
}

/* scan_box() 8 slots at a time with AVX-512: the same distance tests (dx dx + dy dy <= r2, not
 * contracted), the kept items compressed in a register and stored 16 at a time (found has
 * SW_GRID_SLACK entries of room beyond one per agent), so the result is the scalar loop's. */
__attribute__((target("avx512f"))) static int scan_box_avx512(const sw_agent_grid *g,
							       const query_box *b, int i,
							       sw_vec2 p, double r2, int *found)
{
	const __m512d px = _mm512_set1_pd(p.x), py = _mm512_set1_pd(p.y),
		      rr = _mm512_set1_pd(r2);
	const __m512i self = _mm512_set1_epi32(i);
	int n = 0;
	for (long iy = b->cy0; iy <= b->cy1; iy++) {
		int lo, hi;
		run_of(g, b, iy, &lo, &hi);
		for (int k = lo; k < hi; k += 8) {
			__mmask8 in = hi - k >= 8 ? 0xff : (__mmask8)((1u << (hi - k)) - 1u);
			__m512d dx = _mm512_sub_pd(_mm512_maskz_loadu_pd(in, g->px + k), px);
			__m512d dy = _mm512_sub_pd(_mm512_maskz_loadu_pd(in, g->py + k), py);
			__m512d d2 = _mm512_add_pd(_mm512_mul_pd(dx, dx), _mm512_mul_pd(dy, dy));
			__mmask8 near = _mm512_mask_cmp_pd_mask(in, d2, rr, _CMP_LE_OQ);
			__m512i items = _mm512_maskz_loadu_epi32((__mmask16)in, g->items + k);
			__mmask16 keep =
			    _mm512_mask_cmpneq_epi32_mask((__mmask16)near, items, self);
			_mm512_storeu_si512(found + n, _mm512_maskz_compress_epi32(keep, items));
			n += __builtin_popcount(keep);
		}
	}
	return n;
}
#endif

/* Appends to found[n..] the items of slots [lo, hi) within sqrt(r2) of p (except i; in 3-D of
 * the height qz unless NAN), without branches on the data; returns the new count. */
static int scan_run(const sw_agent_grid *g, int lo, int hi, int i, sw_vec2 p, double qz,
		    double r2, int *found, int n)
{
	if (!isnan(qz)) { /* 3-D: the distance in space (sw__perceive3) */
		for (int k = lo; k < hi; k++) {
			double dx = g->px[k] - p.x, dy = g->py[k] - p.y;
			double dz = g->pz[k] - qz;
			int j = g->items[k];
			found[n] = j;
			n += (dx * dx + dy * dy + dz * dz <= r2) & (j != i);
		}
		return n;
	}
	for (int k = lo; k < hi; k++) {
		double dx = g->px[k] - p.x, dy = g->py[k] - p.y;
		int j = g->items[k];
		found[n] = j;
		n += (dx * dx + dy * dy <= r2) & (j != i);
	}
	return n;
}

/* The items of the rows of box b within sqrt(r2) of p (except i; in 3-D of the height qz unless
 * NAN) into found, in row order; returns their count.  In the plane with AVX-512 or AVX2 when
 * the processor has it (the same items in the same order). */
static int scan_box(const sw_agent_grid *g, const query_box *b, int i, sw_vec2 p, double qz,
		    double r2, int *found)
{
#ifdef SW_GRID_X86
	if (isnan(qz) && g->avx512)
		return scan_box_avx512(g, b, i, p, r2, found);
	if (isnan(qz) && g->avx2)
		return scan_box_avx2(g, b, i, p, r2, found);
#endif
	int n = 0;
	for (long iy = b->cy0; iy <= b->cy1; iy++) {
		int lo, hi;
		run_of(g, b, iy, &lo, &hi);
		n = scan_run(g, lo, hi, i, p, qz, r2, found, n);
	}
	return n;
}

/* Hashed layout: as scan_run, but only the slots of cell (ix, iy). */
static int scan_cell(const sw_agent_grid *g, long ix, long iy, int i, sw_vec2 p, double r2,
		     int *found, int n)
{
	unsigned b = bucket(g, ix, iy);
	for (int k = g->start[b]; k < g->start[b + 1]; k++) {
		double dx = g->px[k] - p.x, dy = g->py[k] - p.y;
		int j = g->items[k];
		found[n] = j;
		n += (dx * dx + dy * dy <= r2) & (j != i) & (cell_of(g, g->px[k]) == ix) &
		     (cell_of(g, g->py[k]) == iy);
	}
	return n;
}

/* Ranks of a[0..n) (n <= width, width 8, 16 or 32: a constant trip count, which the compiler
 * unrolls) scattered into place: each index counts the smaller ones, with no data-dependent
 * branch (insertion sort mispredicts at almost every shift).
 * The lanes are padded to the fixed width (the padding's counts are never used) and advance
 * together, 4 per vector in a baseline (SSE2) build and 8 where the build targets AVX2 (GNU C
 * vector extension): one broadcast compare per element and per vector.  (Measured: 8-lane
 * vectors in a baseline build cost 6 % more of a crowd step than the plain loop; these do not.) */
#ifdef __GNUC__
/* The widest integer vector the build targets natively (GCC splits wider ones through memory). */
#ifdef __AVX2__
#define SW_RANK_LANES 8
#else
#define SW_RANK_LANES 4
#endif
typedef int sw_vi __attribute__((vector_size(4 * SW_RANK_LANES)));

static inline void rank_sort(int *a, int n, int width)
{
	union {
		sw_vi v[SW_RANK_SORT / SW_RANK_LANES];
		int s[SW_RANK_SORT];
	} tmp, r;
	for (int x = 0; x < width; x++) /* (not memcpy: a call for a variable length) */
		tmp.s[x] = x < n ? a[x] : INT_MAX;
	for (int c = 0; c < width / SW_RANK_LANES; c++)
		r.v[c] = (sw_vi){0};
	for (int y = 0; y < n; y++) {
		sw_vi v = (sw_vi){0} + tmp.s[y];
		for (int c = 0; c < width / SW_RANK_LANES; c++)
			r.v[c] -= v < tmp.v[c]; /* a true comparison is -1 */
	}
	for (int x = 0; x < n; x++)
		a[r.s[x]] = tmp.s[x];
}
#else
static inline void rank_sort(int *a, int n, int width)
{
	int tmp[SW_RANK_SORT], r[SW_RANK_SORT] = {0};
	memcpy(tmp, a, (size_t)n * sizeof *tmp);
	for (int x = n; x < width; x++)
		tmp[x] = INT_MAX;
	for (int y = 0; y < n; y++)
		for (int x = 0; x < width; x++)
			r[x] += tmp[y] < tmp[x];
	for (int x = 0; x < n; x++)
		a[r[x]] = tmp[x];
}
#endif

void sw__sort_indices(int *a, int n)
{
	/* Short lists by ranks (above); a long one by insertion (the lists of both grids are
	 * sorted within cells).  (An AVX-512 bitonic network for up to 16 took 2 % fewer
	 * instructions but 2 % more cycles: its ten steps form one dependency chain.) */
	if (n <= SW_RANK_SORT / 4) { /* a crowd's usual neighbours: one AVX2 vector of ranks */
		rank_sort(a, n, SW_RANK_SORT / 4);
		return;
	}
	if (n <= SW_RANK_SORT / 2) {
		rank_sort(a, n, SW_RANK_SORT / 2);
		return;
	}
	if (n <= SW_RANK_SORT) {
		rank_sort(a, n, SW_RANK_SORT);
		return;
	}
	for (int x = 1; x < n; x++) {
		int j = a[x], q = x;
		while (q > 0 && a[q - 1] > j) {
			a[q] = a[q - 1];
			q--;
		}
		a[q] = j;
	}
}

int sw__grid_query_any(const sw_agent_grid *g, sw_worker *wk, int i, sw_vec2 p, double reach,
		       int **out)
{
	long x0 = cell_of(g, p.x - reach), x1 = cell_of(g, p.x + reach);
	long y0 = cell_of(g, p.y - reach), y1 = cell_of(g, p.y + reach);
	/* Centres farther than reach cannot be perceived (reach covers perception and both
	 * radii); the slack keeps rounding from ever dropping one the exact test would keep. */
	double r2 = reach * reach * (1.0 + 1e-9);
	int n = 0, *found = wk->found;
	if (g->dense) {
		/* Clip to the occupied box: rows and columns outside it hold no agent. */
		query_box b = {.cx0 = x0 > g->ix0 ? x0 - g->ix0 : 0,
			       .cx1 = x1 - g->ix0 < g->nx - 1 ? x1 - g->ix0 : g->nx - 1,
			       .cy0 = y0 > g->iy0 ? y0 - g->iy0 : 0,
			       .cy1 = y1 - g->iy0 < g->ny - 1 ? y1 - g->iy0 : g->ny - 1};
		if (b.cx0 <= b.cx1 && b.cy0 <= b.cy1)
			n = scan_box(g, &b, i, p, wk->grid_qz, r2, found);
	} else {
		for (long iy = y0; iy <= y1; iy++)
			for (long ix = x0; ix <= x1; ix++)
				n = scan_cell(g, ix, iy, i, p, r2, found, n);
	}
	*out = found;
	return n;
}

int sw__grid_query(const sw_agent_grid *g, sw_worker *wk, int i, sw_vec2 p, double reach,
		   int **out)
{
	int n = sw__grid_query_any(g, wk, i, p, reach, out);
	sw__sort_indices(*out, n); /* the brute-force loop's order */
	return n;
}
