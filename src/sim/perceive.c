/* sim/perceive.c - what an agent perceives: its target and the obstacles (static primitives
 * displaced by their scripted motion, and other agents as moving discs) inside its perception
 * radius and, where walls exist, visible from it (docs/models.md section 5).  Walls follow
 * section 1.1: far away a wall acts as a repeller at its midpoint whose half-width is half the
 * angle the wall subtends; near it (clearance below wall_near times its half length) it acts at
 * its closest point, like a mirror.
 *
 * Visibility: a disc obstacle or another agent is perceived only when the segment from the
 * agent's centre to its centre crosses no wall (segment primitives: walls and polygon edges).
 * Only walls within reach can cross that segment (a wall crossing it is no farther from the
 * agent than the other centre, which is within perception + both radii), so they are collected
 * while the primitives are scanned and the test costs nothing where no wall is near.  Walls
 * themselves are always perceived; discs do not hide things (a pillar hides part of a person,
 * not all of them).  With many walls near an agent (clutter) they are first binned by the
 * directions they cover as seen from it, and each sight line is tested against its direction's
 * walls only (occluders_bin: the same answers, tested against the loop over every wall). */
#include <math.h>
#include <string.h>

#include "sim_internal.h"

/* Candidates ahead whose data a scan asks the caches for (perception's loops). */
#define SW_PREFETCH 8
/* Primitive candidates taken together by perception's scan (its stack arrays). */
#define PRIM_CHUNK 32

double sw__wall_near(const sw_steer_def *def)
{
	return def->law == SW_LAW_GLM ? def->glm.wall_near : INFINITY;
}

/* Position of target k at time t into two scalars (see target_xy). */
static inline void target_k_xy(const struct sw_world *w, int k, double t, double *x, double *y)
{
	const sw_target *g = &w->m->targets[k];
	if (g->motion.kind != SW_MOTION_NONE) {
		sw_vec2 q = sw_model_target_position(w->m, k, t);
		*x = q.x;
		*y = q.y;
	} else {
		*x = g->position.x;
		*y = g->position.y;
	}
}

sw_vec2 sw__target_at(const struct sw_world *w, int k, double t)
{
	sw_vec2 q;
	target_k_xy(w, k, t, &q.x, &q.y);
	return q;
}

/* sw__target_pos into two scalars.  Perception writes them straight into the situation: through
 * a local sw_vec2, GCC packs the pair through the stack and reads it back as one vector, a
 * store-forwarding stall per agent and step. */
static inline int target_xy(const struct sw_world *w, int i, double t, double *x, double *y)
{
	switch (w->agent.tkind[i]) {
	case TGT_TARGET: /* scalar copies: a returned sw_vec2 would take the same stall */
		target_k_xy(w, w->agent.tindex[i], t, x, y);
		return 1;
	case TGT_AGENT: {
		const double *yj = w->snap.pos + 2 * (size_t)w->agent.tindex[i];
		*x = yj[0];
		*y = yj[1];
		return 1;
	}
	default:
		return 0;
	}
}

int sw__target_pos(const struct sw_world *w, int i, double t, sw_vec2 *out)
{
	return target_xy(w, i, t, &out->x, &out->y);
}

static int prim_is_disc(const struct sw_world *w, int k)
{
	return w->pg.disc ? (int)(w->pg.disc[k >> 6] >> (k & 63) & 1) : !w->m->prims[k].is_segment;
}

/* Percept of offset d, whose length dist is known. */
static void put_at(sw_percept *o, sw_vec2 d, double dist, double rho, double clearance, int id)
{
	o->dx = d.x;
	o->dy = d.y;
	o->dist = dist;
	o->rho = rho;
	o->clearance = clearance;
	o->hx = o->hy = 0.0;
	o->id = id;
}

static void put(sw_percept *o, sw_vec2 d, double rho, double clearance, int id)
{
	put_at(o, d, sw_v2_len(d), rho, clearance, id);
}

/* The occluding walls of one perceiving agent: occl[0, n), each with its position at
 * t, and, when there are many, binned by the directions they cover as seen from the agent. */
enum { OCC_SECTORS = 128, OCC_MIN = 24, OCC_TESTS = 2, OCC_BIN_MAX = 1024 };
typedef struct occluders {
	const struct sw_world *w;
	const int *occl;              /* the walls: primitive indices */
	double t;
	sw_vec2 p;
	int n;
	int tests;                    /* sight lines tested so far */
	int ahead;                    /* sight lines the caller expects to test, about */
	int binned;                   /* 0: every wall is tested (few walls or sight lines) */
	double tiny;                  /* offsets from p shorter than this (in x and y) have no
				       * resolved direction */
	int words;                    /* words of a sector's bit set: (n + 63) / 64 */
	uint64_t bins[OCC_BIN_MAX / 64][OCC_SECTORS]; /* bit k & 63 of bins[k >> 6][s]: wall k is
						       * in sector s */
	double ab[OCC_BIN_MAX][4];    /* walls 0 .. OCC_BIN_MAX - 1 at t: a.x, a.y, b.x, b.y (as
				       * occl_wall computes them), kept as perception meets them */
	/* once binned, per wall: a - p, b - p, b - a and orient(a, b, p) of the exact test
	 * sw_segments_intersect(p, q, a, b), which do not depend on the sight line's end q */
	double rel[OCC_BIN_MAX][6];
	double o3[OCC_BIN_MAX];
} occluders;

/* Wall k of the agent's list at time t. */
static void occl_wall(const occluders *o, int k, sw_vec2 *a, sw_vec2 *b)
{
	if (k < OCC_BIN_MAX) {
		const double *e = o->ab[k];
		*a = sw_v2(e[0], e[1]);
		*b = sw_v2(e[2], e[3]);
		return;
	}
	const sw_model *m = o->w->m;
	const sw_prim *pr = &m->prims[o->occl[k]];
	*a = pr->a;
	*b = pr->b;
	if (m->obstacles[pr->owner].motion.kind != SW_MOTION_NONE)
		sw_model_prim_at(m, o->occl[k], o->t, a, b);
}

/* Pseudo-angle of direction d != 0: a monotone function of its angle, in [0, 4], that needs no
 * atan2 (its slope is between 1/2 and 1 per radian). */
static inline double pseudo_angle(sw_vec2 d)
{
	/* by quadrant: r, 2 - r, 2 + r, 4 - r (looked up: the quadrants come unpredictably) */
	static const double base[4] = {0.0, 2.0, 2.0, 4.0}, sign[4] = {1.0, -1.0, 1.0, -1.0};
	double ax = fabs(d.x), ay = fabs(d.y), r = ay / (ax + ay); /* in [0, 1] */
	int q = 2 * !(d.y >= 0.0) + ((d.y >= 0.0) ? !(d.x >= 0.0) : !(d.x < 0.0));
	return base[q] + sign[q] * r;
}

/* Sector of direction d != 0: its pseudo-angle cut into OCC_SECTORS equal parts. */
static int sector_of(sw_vec2 d)
{
	int s = (int)(pseudo_angle(d) * (OCC_SECTORS / 4));
	return s < 0 ? 0 : s >= OCC_SECTORS ? OCC_SECTORS - 1 : s;
}

/* Pseudo-angle margin of a wall's sectors: far above the rounding of the pseudo-angles of
 * offsets longer than occluders.tiny (their directions are exact to about 1e-16 * |p| / tiny,
 * 1e-10 radians), and of the orientation tests, which can call a sight line crossing only when
 * it passes within rounding of the wall. */
#define OCC_EPS 1e-8

/* Whether offset d from p is too short for its direction to be resolved. */
static int unresolved(const occluders *o, sw_vec2 d)
{
	return !(fabs(d.x) >= o->tiny || fabs(d.y) >= o->tiny);
}

/* The sectors wall [a, b] covers as seen from p: *first and a count (OCC_SECTORS: all). */
static int wall_sectors(const occluders *o, sw_vec2 da, sw_vec2 db, int *first)
{
	double cross = sw_v2_cross(da, db);
	*first = 0;
	/* The wall passes through or very near p, or p is (nearly) on its line: the directions it
	 * covers are not resolved; it is tested for every sight line. */
	if (!(cross * cross > 1e-18 * sw_v2_dot(da, da) * sw_v2_dot(db, db)) ||
	    unresolved(o, da) || unresolved(o, db))
		return OCC_SECTORS;
	/* The arc (shorter than a half turn) from da to db counterclockwise when cross > 0,
	 * widened by OCC_EPS at each end. */
	double lo = pseudo_angle(cross > 0.0 ? da : db) - OCC_EPS;
	double hi = pseudo_angle(cross > 0.0 ? db : da) + OCC_EPS;
	int s0 = (int)((lo < 0.0 ? lo + 4.0 : lo) * (OCC_SECTORS / 4));
	int s1 = (int)((hi >= 4.0 ? hi - 4.0 : hi) * (OCC_SECTORS / 4));
	s0 = s0 >= OCC_SECTORS ? OCC_SECTORS - 1 : s0;
	s1 = s1 >= OCC_SECTORS ? OCC_SECTORS - 1 : s1;
	int count = (s1 - s0 + OCC_SECTORS) % OCC_SECTORS + 1;
	if (count >= OCC_SECTORS - 1)
		return OCC_SECTORS;
	*first = s0;
	return count;
}

/* Bins the walls by sector: each sector's set of walls as bits, built from each wall's first and
 * last sector (toggles, then a running exclusive or over the sectors); leaves o->binned 0 when
 * there are more than OCC_BIN_MAX walls.  Which walls are tested for a sight line changes, not
 * the answer: a wall crossing the segment p-q at a point x != p covers x's direction, which is
 * q's, and a wall through p is in every sector. */
static void occluders_bin(occluders *o)
{
	if (o->n > OCC_BIN_MAX)
		return;
	int nw = o->words = (o->n + 63) / 64;
	memset(o->bins, 0, (size_t)nw * sizeof o->bins[0]);
	sw_vec2 p = o->p;
	for (int k = 0; k < o->n; k++) {
		sw_vec2 a, b;
		int f;
		occl_wall(o, k, &a, &b);
		sw_vec2 da = sw_v2_sub(a, p), db = sw_v2_sub(b, p), u = sw_v2_sub(b, a);
		double *r = o->rel[k];
		r[0] = da.x, r[1] = da.y, r[2] = db.x, r[3] = db.y, r[4] = u.x, r[5] = u.y;
		o->o3[k] = u.x * (p.y - a.y) - u.y * (p.x - a.x);
		int c = wall_sectors(o, da, db, &f), end = f + c;
		uint64_t bit = (uint64_t)1 << (k & 63);
		uint64_t *row = o->bins[k >> 6];
		row[f] ^= bit; /* on from sector f ... */
		if (end < OCC_SECTORS) {
			row[end] ^= bit; /* ... to end - 1 */
		} else if (end > OCC_SECTORS) { /* ... to the last, and from 0 to end - S - 1 */
			row[0] ^= bit;
			row[end - OCC_SECTORS] ^= bit;
		}
	}
	for (int wd = 0; wd < nw; wd++)
		for (int s = 1; s < OCC_SECTORS; s++)
			o->bins[wd][s] ^= o->bins[wd][s - 1];
	o->binned = 1;
}

/* Whether wall k of o crosses the segment p-q, whose bounding box is [x0, x1] x [y0, y1]: a wall
 * whose bounding box misses it cannot, and is skipped before the exact test. */
static int crosses(const occluders *o, int k, sw_vec2 q, double x0, double x1, double y0,
		   double y1)
{
	sw_vec2 a, b;
	occl_wall(o, k, &a, &b);
	if ((a.x < x0 && b.x < x0) || (a.x > x1 && b.x > x1) || (a.y < y0 && b.y < y0) ||
	    (a.y > y1 && b.y > y1))
		return 0;
	return sw_segments_intersect(o->p, q, a, b);
}

/* crosses() for a binned wall k and the sight line d = q - p: the four orientations of
 * sw_segments_intersect(p, q, a, b), computed as it does with the parts kept per wall; when one
 * is zero (or NaN) the exact test decides. */
static int crosses_binned(const occluders *o, int k, sw_vec2 q, sw_vec2 d, double x0, double x1,
			  double y0, double y1)
{
	const double *e = o->ab[k], *r = o->rel[k];
	if (((e[0] < x0) & (e[2] < x0)) | ((e[0] > x1) & (e[2] > x1)) | ((e[1] < y0) & (e[3] < y0)) |
	    ((e[1] > y1) & (e[3] > y1)))
		return 0;
	double o1 = d.x * r[1] - d.y * r[0], o2 = d.x * r[3] - d.y * r[2], o3 = o->o3[k];
	double o4 = r[4] * (q.y - e[1]) - r[5] * (q.x - e[0]);
	if ((o1 > 0.0 || o1 < 0.0) & (o2 > 0.0 || o2 < 0.0) & (o3 > 0.0 || o3 < 0.0) &
	    (o4 > 0.0 || o4 < 0.0))
		return ((o1 > 0.0) != (o2 > 0.0)) & ((o3 > 0.0) != (o4 > 0.0));
	return sw_segments_intersect(o->p, q, sw_v2(e[0], e[1]), sw_v2(e[2], e[3]));
}

/* Whether no wall of o crosses the segment from the agent (o->p) to q: over the walls of q's
 * sector when they are binned, else over all of them (the same answer). */
static int visible(occluders *o, sw_vec2 q)
{
	sw_vec2 p = o->p;
	/* plain comparisons: fmin/fmax are library calls here (NaN rules) */
	double x0 = p.x < q.x ? p.x : q.x, x1 = p.x < q.x ? q.x : p.x;
	double y0 = p.y < q.y ? p.y : q.y, y1 = p.y < q.y ? q.y : p.y;
	sw_vec2 d = sw_v2_sub(q, p);
	/* Binning costs about two plain tests per wall: worth it for OCC_TESTS sight lines or more
	 * when there are many walls. */
	if (!o->binned && o->tests++ < OCC_TESTS && o->n >= OCC_MIN &&
	    (o->tests == OCC_TESTS || o->ahead >= OCC_TESTS))
		occluders_bin(o);
	/* (a short or NaN sight line has no sector: every wall is tested) */
	if (o->binned && !unresolved(o, d)) {
		int s = sector_of(d);
		for (int wd = 0; wd < o->words; wd++)
			for (uint64_t b = o->bins[wd][s]; b; b &= b - 1) {
				int k = wd * 64 + __builtin_ctzll(b); /* GCC and Clang */
				if (crosses_binned(o, k, q, d, x0, x1, y0, y1))
					return 0;
			}
		return 1;
	}
	for (int k = 0; k < o->n; k++)
		if (crosses(o, k, q, x0, x1, y0, y1))
			return 0;
	return 1;
}

/* Whether p is more than 1e-9 m off the line l (unit normal and offset: pg->nline). */
static inline int off_line(const double *l, sw_vec2 p)
{
	return fabs(l[0] * p.x + l[1] * p.y - l[2]) > 1e-9;
}

/* Whether wall k, facing away from p (back[] of sw__perceive's chunk), can be left out of p's
 * occluders: it is an edge of a static closed convex polygon (pg->cull), p is outside the
 * polygon's box, and p is clearly off the lines of the two edges next to it.  In exact
 * arithmetic the first two conditions are enough: a segment from p outside a closed convex (or
 * any simple) polygon first meets it on an edge whose outer side or line holds p (just before
 * that point the segment would be inside otherwise), so no answer changes.  In floating point a
 * sight line along the line of an edge (p on it, within rounding: an agent in line with a box's
 * side) can test as missing that edge and crossing its back-facing neighbour at their common
 * vertex; the third condition keeps such neighbours (tests/test_sensing.c).  Answers can still
 * differ from testing every edge when p or the sight line's end is within rounding (about
 * 1e-12 m) of a vertex, where either answer is a rounding artefact: a one-off random search
 * during review (not kept) found such differences only there.  Every output of the shipped
 * models and of the SteerSuite cases compared stays byte for byte (bench/README.md, "Clutter"). */
static inline int hides_nothing(const sw_prim_index *pg, int k, sw_vec2 p)
{
	const double *box = pg->obox + 4 * (size_t)pg->cull[k];
	/* (p may be inside when inside the box: then every edge can hide something) */
	return (p.x < box[0] || p.x > box[2] || p.y < box[1] || p.y > box[3]) &&
	       off_line(pg->nline + 6 * (size_t)k, p) && off_line(pg->nline + 6 * (size_t)k + 3, p);
}

/* What perception's loop over the other agents reads of the world, copied out of it: the
 * percepts' stores could alias the world, so the compiler would load it for every candidate. */
typedef struct agent_scan {
	const double *pos, *heading, *rad; /* the snapshot's positions and headings; radii (NULL:
					    * every agent's is r0, as sw__radius reads them) */
	const unsigned char *flags;
	double r0, ri, per;                /* agent i's radius and perception */
	sw_vec2 p;                         /* agent i's position */
	int i, chased, ghost_i;
} agent_scan;

/* The percepts of the other agents among candidates cand[0, nc) (every agent when cand is NULL)
 * into buf[*n ..) and, for the pairs that walk through each other, buf[.. *back), until the two
 * meet.  walls: some wall may hide an agent (occ); periodic: the world's x wraps. */
static inline __attribute__((always_inline)) void
scan_agents(const struct sw_world *w, const agent_scan *sc, occluders *occ, const int *cand,
	    int nc, sw_percept *buf, int *n, int *back, int walls, int periodic)
{
	int nn = *n, bk = *back;
	sw_vec2 p = sc->p;
	for (int k = 0; k < nc && nn < bk; k++) {
		int j = cand ? cand[k] : k;
		if (cand && k + SW_PREFETCH < nc) /* as for the primitives */
			__builtin_prefetch(sc->pos + 2 * (size_t)cand[k + SW_PREFETCH]);
		unsigned fl = sc->flags ? sc->flags[j] : 0u; /* sw__gone, sw__ghost */
		if (j == sc->i || j == sc->chased || (fl & SW_SNAP_GONE))
			continue;
		const double *yj = sc->pos + 2 * (size_t)j;
		double dx = yj[0] - p.x;
		sw_vec2 d = sw_v2(periodic ? sw__image_dx(w, dx) : dx, yj[1] - p.y);
		double rj = sc->rad ? sc->rad[j] : sc->r0, len = sw_v2_len(d);
		double c = len - rj - sc->ri;
		if (!(c <= sc->per) ||
		    (walls && !visible(occ, periodic ? sw_v2_add(p, d) : sw_v2(yj[0], yj[1]))))
			continue;
		int at = sc->ghost_i || (fl & SW_SNAP_GHOST) ? --bk : nn++;
		put_at(&buf[at], d, len, rj, c, -1 - j);
		if (sc->heading) {
			buf[at].hx = sc->heading[2 * (size_t)j];
			buf[at].hy = sc->heading[2 * (size_t)j + 1];
		}
	}
	*n = nn;
	*back = bk;
}

int sw__perceive(const struct sw_world *w, sw_worker *wk, int i, double t, const double *y,
		 double wall_near, sw_situation *s, sw_percept *buf, int cap)
{
	const sw_model *m = w->m;
	const sw_agent *a = &m->agents[i];
	sw_vec2 p = sw_v2(y[SW_STATE_X], y[SW_STATE_Y]);
	s->x = p.x;
	s->y = p.y;
	s->radius = a->radius;
	s->tx = 0.0;
	s->ty = 0.0;
	s->has_target = target_xy(w, i, t, &s->tx, &s->ty);
	/* Global planning: a field may replace the target by a look-ahead point (navigate.c). */
	if (w->nav.steer_field) {
		sw_vec2 la, q = sw_v2(s->tx, s->ty);
		if (sw__field_goal(w, i, p, s->has_target ? &q : NULL, &la)) {
			s->tx = la.x;
			s->ty = la.y;
			s->has_target = 1;
		}
	}
	int n = 0, n_occl = 0, first_disc = cap; /* the first disc among the percepts */
	/* (a plain comparison: fmax is a library call here; both are largest radii, never NaN) */
	double rmax = w->agent.rmax > w->pg.rmax ? w->agent.rmax : w->pg.rmax;
	double occl_reach = a->perception + rmax;
	const int *plist = NULL; /* through the primitive index when it is on */
	int np = w->pg.on ? sw__prim_grid_query(&w->pg, m, wk, i, p, &plist) : m->n_prims;
	int qi = 0;
	/* No primitive moves (the index lists none): each is where the model put it, and its end
	 * points come from the index's compact copy */
	const double *ends = w->pg.on && w->pg.n_moving == 0 ? w->pg.ends : NULL;
	/* per primitive: +1 or -1 for an edge of a static closed convex polygon, else 0 */
	const double *faces = w->pg.on ? w->pg.face : NULL;
	occluders occ; /* the walls that may hide something (about 100 KB of stack) */
	while (qi < np && n < cap) {
		/* A chunk of candidates: their end points gathered, then their closest points and
		 * clearances without branches (the divisions and square roots of several candidates
		 * overlap), then sorted into percepts and occluders in order. */
		double ax[PRIM_CHUNK], ay[PRIM_CHUNK], bx[PRIM_CHUNK], by[PRIM_CHUNK];
		double rho[PRIM_CHUNK], cx[PRIM_CHUNK], cy[PRIM_CHUNK], len[PRIM_CHUNK];
		double face[PRIM_CHUNK]; /* +1, -1: a convex polygon's edge, (counter)clockwise */
		int id[PRIM_CHUNK], disc[PRIM_CHUNK], back[PRIM_CHUNK];
		int nc = np - qi < PRIM_CHUNK ? np - qi : PRIM_CHUNK;
		for (int j = 0; j < nc; j++) {
			int q = qi + j, k = plist ? plist[q] : q;
			id[j] = k;
			/* The candidates are scattered over the primitives of a large scene: their
			 * loads miss the caches, so they are asked for a few iterations ahead. */
			if (ends) {
				if (q + SW_PREFETCH < np) /* GCC and Clang */
					__builtin_prefetch(ends + 4 * (size_t)plist[q + SW_PREFETCH]);
				const double *e = ends + 4 * (size_t)k;
				ax[j] = e[0], ay[j] = e[1], bx[j] = e[2], by[j] = e[3];
				disc[j] = prim_is_disc(w, k);
				rho[j] = disc[j] ? m->prims[k].radius : 0.0;
				face[j] = faces[k];
				continue;
			}
			const sw_prim *pr = &m->prims[k];
			if (plist && q + SW_PREFETCH < np)
				__builtin_prefetch(&m->prims[plist[q + SW_PREFETCH]]);
			sw_vec2 pa, pb;
			if (m->obstacles[pr->owner].motion.kind == SW_MOTION_NONE) {
				/* sw_model_prim_at's sum with a zero displacement, without the call */
				pa = sw_v2(pr->a.x + 0.0, pr->a.y + 0.0);
				pb = sw_v2(pr->b.x + 0.0, pr->b.y + 0.0);
			} else {
				sw_model_prim_at(m, k, t, &pa, &pb);
			}
			ax[j] = pa.x, ay[j] = pa.y, bx[j] = pb.x, by[j] = pb.y;
			disc[j] = !pr->is_segment;
			rho[j] = pr->radius;
			face[j] = faces ? faces[k] : 0.0;
		}
		/* sw_segment_closest's operations, in its order; a disc's point is its centre */
		for (int j = 0; j < nc; j++) {
			double ux = bx[j] - ax[j], uy = by[j] - ay[j], len2 = ux * ux + uy * uy;
			double u = ((p.x - ax[j]) * ux + (p.y - ay[j]) * uy) / len2;
			u = len2 > 0.0 ? u : 0.0;
			u = u < 0.0 ? 0.0 : (u > 1.0 ? 1.0 : u);
			double qx = ax[j] + ux * u, qy = ay[j] + uy * u;
			cx[j] = disc[j] ? ax[j] : qx;
			cy[j] = disc[j] ? ay[j] : qy;
			double dx = cx[j] - p.x, dy = cy[j] - p.y;
			len[j] = sqrt(dx * dx + dy * dy);
			/* facing away from p by about 1e-9 m or more: cross(b - a, p - a) is > 0 when p
			 * is on the left, the inside of a counterclockwise polygon */
			double o = ux * (p.y - ay[j]) - uy * (p.x - ax[j]);
			back[j] = face[j] * o > 1e-9 * (fabs(ux) + fabs(uy));
		}
		int j = 0;
		for (; j < nc && n < cap; j++) {
			int k = id[j];
			sw_vec2 d = sw_v2(cx[j] - p.x, cy[j] - p.y);
			if (disc[j]) {
				double c = len[j] - rho[j] - a->radius;
				if (c <= a->perception) {
					first_disc = n < first_disc ? n : first_disc;
					put_at(&buf[n++], d, len[j], rho[j], c, k);
				}
				continue;
			}
			double c = len[j] - a->radius;
			/* may hide a disc or an agent (and is not a back face that cannot) */
			if (c <= occl_reach && !(back[j] && hides_nothing(&w->pg, k, p))) {
				if (n_occl < OCC_BIN_MAX) {
					double *e = occ.ab[n_occl];
					e[0] = ax[j], e[1] = ay[j], e[2] = bx[j], e[3] = by[j];
				}
				wk->occl[n_occl++] = k;
			}
			if (c > a->perception)
				continue;
			sw_vec2 pa = sw_v2(ax[j], ay[j]), pb = sw_v2(bx[j], by[j]);
			double half = 0.5 * sw_v2_dist(pa, pb);
			if (c < wall_near * half) {
				put_at(&buf[n++], d, len[j], 0.0, c, k);
			} else {
				/* Midpoint repeller; rho such that asin(rho / dist) is half the angle
				 * the wall subtends from p. */
				sw_vec2 mid = sw_v2_scale(sw_v2_add(pa, pb), 0.5);
				sw_vec2 da = sw_v2_sub(pa, p), db = sw_v2_sub(pb, p), dm = sw_v2_sub(mid, p);
				double ang = atan2(fabs(sw_v2_cross(da, db)), sw_v2_dot(da, db));
				put(&buf[n++], dm, sw_v2_len(dm) * sin(0.5 * ang), c, k);
			}
		}
		qi += j;
	}
	if (qi < np)
		return cap; /* the buffer filled before every primitive was seen: report it full
			     * (the filter below could make an incomplete list look complete) */
	if (n_occl > 0) { /* (only visible() reads occ, and only when some wall is near) */
		occ.w = w, occ.occl = wk->occl, occ.t = t, occ.p = p, occ.n = n_occl;
		occ.tests = 0;
		occ.ahead = n - first_disc;
		occ.binned = 0;
		occ.tiny = 1e-6 * (1.0 + fabs(p.x) + fabs(p.y));
	}
	if (n_occl > 0 && first_disc < n) { /* drop the discs hidden behind a wall */
		int kept = first_disc;
		for (int k = first_disc; k < n; k++) {
			const sw_percept *o = &buf[k];
			if (!prim_is_disc(w, o->id) || visible(&occ, sw_v2(p.x + o->dx, p.y + o->dy)))
				buf[kept++] = *o;
		}
		n = kept;
	}
	int back = cap; /* the percepts of agents passed through: buf[back .. cap) */
	if (m->run.agents_perceive) {
		/* Other agents at their start-of-step positions: through the grid when it is on
		 * (same candidates in the same order as the loop over every agent).  In a periodic
		 * world each agent is seen at its nearest image, and near the seam the grid is asked
		 * a second time at the image of p beyond it (model/periodic.c makes the strip longer
		 * than twice the reach, so no agent is found twice). */
		double reach = a->perception + a->radius + w->grid.rmax, L = m->periodic_x;
		sw_vec2 q[2];
		int passes = sw__image_queries(w, p, reach, q);
		/* The agent steered to is the target, not an obstacle: a chaser does not keep a
		 * safety distance from what it chases. */
		int chased = w->agent.tkind[i] == TGT_AGENT ? w->agent.tindex[i] : -1;
		/* A pair of which one is in a ghost mode does not steer round each other: its
		 * percept goes to the back of the buffer (n_pass of them, from cap - 1 down), then
		 * after the others, where the measures read it and the laws do not.  Agent i's own
		 * mode is its current one (its own entry); the others' are the snapshot's. */
		agent_scan sc = {.pos = w->snap.pos, .heading = w->snap.h, .rad = w->agent.rad,
				  .flags = w->snap.flags, .r0 = w->agent.r0, .ri = a->radius,
				  .per = a->perception, .p = p, .i = i, .chased = chased,
				  .ghost_i = sw__ghost_mode(w, i)};
		for (int pass = 0; pass < passes; pass++) {
			int *cand = NULL, nc = w->n;
			if (w->grid.on)
				nc = sw__grid_query(&w->grid, wk, i, q[pass], reach, &cand);
			occ.ahead = nc;
			/* Two calls, though the second's arguments are the first's in its case: with
			 * constants the compiler makes the usual crowd's loop (no wall near, a plain
			 * world) without the visibility call, its spills and the image's branches.  One
			 * call with the tests as arguments took 1.7 % more instructions of a crowd
			 * step (callgrind, bench crowd-ttc). */
			if (n_occl == 0 && !(L > 0.0))
				scan_agents(w, &sc, &occ, cand, nc, buf, &n, &back, 0, 0);
			else
				scan_agents(w, &sc, &occ, cand, nc, buf, &n, &back, n_occl > 0, L > 0.0);
		}
	}
	int n_pass = cap - back;
	if (n + n_pass >= cap)
		return cap; /* full (the last candidates may be missing): the caller grows it */
	if (n_pass > 0) /* the passed-through ones after the others (their order is not read) */
		memmove(&buf[n], &buf[back], (size_t)n_pass * sizeof *buf);
	s->n_obs = n;
	s->n_pass = n_pass;
	s->obs = buf;
	s->agent_v = w->snap.v; /* the time-to-collision law's (NULL when no agent runs it) */
	return n + n_pass;
}

int sw__perceive_from(const struct sw_world *w, sw_worker *wk, int i, double t, const double *y,
		      double wall_near, sw_situation *s, int used, int shared)
{
	for (;;) {
		int room = wk->cap - used;
		int n = sw__perceive(w, wk, i, t, y, wall_near, s, wk->scratch + used, room);
		if (n < room)
			return n;
		if (shared)
			return -2;
		/* Full: this agent perceives more than any agent before it did.  The buffer starts
		 * with room for the primitives and 256 agents and doubles (so this allocation
		 * happens a logarithmic number of times per run, not in steady state). */
		sw_percept *p = realloc(wk->scratch, 2 * (size_t)wk->cap * sizeof *p);
		if (!p)
			return -1;
		wk->scratch = p;
		wk->cap *= 2;
	}
}
