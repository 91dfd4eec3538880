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

double sw__wall_near(const sw_steer_def *def)
{
	return def->law == SW_LAW_GLM ? def->glm.wall_near : INFINITY;
}

const sw_steer_def *sw__steer_of(const struct sw_world *w, int i, int mode)
{
	return &w->steer[w->steer_first[i] + (w->aut[i] ? mode : 0)];
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
	switch (w->tkind[i]) {
	case TGT_TARGET: /* scalar copies: a returned sw_vec2 would take the same stall */
		target_k_xy(w, w->tindex[i], t, x, y);
		return 1;
	case TGT_AGENT: {
		const double *yj = w->snap + 2 * (size_t)w->tindex[i];
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

static void put(sw_percept *o, sw_vec2 d, double rho, double clearance, int id)
{
	o->dx = d.x;
	o->dy = d.y;
	o->dist = sw_v2_len(d);
	o->rho = rho;
	o->clearance = clearance;
	o->hx = o->hy = 0.0;
	o->id = id;
}

/* The occluding walls of one perceiving agent: occl[0, n), each with its position at
 * t, and, when there are many, binned by the directions they cover as seen from the agent. */
enum { OCC_SECTORS = 64, OCC_MIN = 24, OCC_TESTS = 4, OCC_CAP = 4096, OCC_BIN_MAX = 1024 };
typedef struct occluders {
	const struct sw_world *w;
	const int *occl;              /* the walls: primitive indices */
	double t;
	sw_vec2 p;
	int n;
	int tests;                    /* sight lines tested so far */
	int binned;                   /* 0: every wall is tested (few walls or sight lines, or the
				       * bins would overflow) */
	int start[OCC_SECTORS + 1];   /* sector s: items[start[s] .. start[s + 1]) */
	int items[OCC_CAP];           /* indices into occl */
	double ab[OCC_BIN_MAX][4];    /* walls 0 .. OCC_BIN_MAX - 1 at t: a.x, a.y, b.x, b.y (as
				       * occl_wall computes them), kept as perception meets them */
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

/* Sector of direction d != 0: its pseudo-angle, a monotone function of the angle in [0, 4) that
 * needs no atan2, cut into OCC_SECTORS equal parts.  Rounding can move a direction to the next
 * sector; the bins are widened by one sector on each side for that. */
static int sector_of(sw_vec2 d)
{
	double ax = fabs(d.x), ay = fabs(d.y), r = ay / (ax + ay); /* in [0, 1] */
	double pa = d.y >= 0.0 ? (d.x >= 0.0 ? r : 2.0 - r) : (d.x < 0.0 ? 2.0 + r : 4.0 - r);
	int s = (int)(pa * (OCC_SECTORS / 4));
	return s < 0 ? 0 : s >= OCC_SECTORS ? OCC_SECTORS - 1 : s;
}

/* The sectors wall [a, b] covers as seen from p: *first and a count (OCC_SECTORS: all). */
static int wall_sectors(sw_vec2 p, sw_vec2 a, sw_vec2 b, int *first)
{
	sw_vec2 da = sw_v2_sub(a, p), db = sw_v2_sub(b, p);
	double cross = sw_v2_cross(da, db);
	*first = 0;
	/* The wall passes through or very near p, or p is (nearly) on its line: the directions it
	 * covers are not resolved; it is tested for every sight line. */
	if (!(cross * cross > 1e-18 * sw_v2_dot(da, da) * sw_v2_dot(db, db)))
		return OCC_SECTORS;
	/* The arc (shorter than a half turn) from da to db counterclockwise when cross > 0. */
	int s0 = sector_of(cross > 0.0 ? da : db), s1 = sector_of(cross > 0.0 ? db : da);
	int count = (s1 - s0 + OCC_SECTORS) % OCC_SECTORS + 1 + 2; /* widened by one each side */
	if (count >= OCC_SECTORS)
		return OCC_SECTORS;
	*first = (s0 - 1 + OCC_SECTORS) % OCC_SECTORS;
	return count;
}

/* Bins the walls by sector (a counting sort); leaves o->binned 0 when there are more than
 * OCC_BIN_MAX walls or the bins would hold more than OCC_CAP entries.  Which walls are tested
 * for a sight line changes, not the answer: a wall crossing the segment p-q at a point x != p
 * covers x's direction, which is q's, and a wall through p is in every sector. */
static void occluders_bin(occluders *o)
{
	unsigned char first[OCC_BIN_MAX], count[OCC_BIN_MAX]; /* each wall's sectors */
	if (o->n > OCC_BIN_MAX)
		return;
	memset(o->start, 0, sizeof o->start);
	int total = 0;
	for (int k = 0; k < o->n; k++) {
		sw_vec2 a, b;
		int f;
		occl_wall(o, k, &a, &b);
		int c = wall_sectors(o->p, a, b, &f);
		first[k] = (unsigned char)f, count[k] = (unsigned char)c;
		total += c;
		if (f + c <= OCC_SECTORS) { /* counts per sector as a difference array */
			o->start[f]++, o->start[f + c]--;
		} else {
			o->start[f]++, o->start[OCC_SECTORS]--;
			o->start[0]++, o->start[f + c - OCC_SECTORS]--;
		}
	}
	if (total > OCC_CAP)
		return;
	/* per-sector counts, then their prefix sums (start[s] = first entry of sector s) */
	int fill[OCC_SECTORS + 1], run = 0, at = 0;
	for (int s = 0; s < OCC_SECTORS; s++) {
		run += o->start[s];
		fill[s] = at;
		at += run;
	}
	fill[OCC_SECTORS] = at;
	memcpy(o->start, fill, sizeof fill);
	for (int k = 0; k < o->n; k++)
		for (int c = 0, s = first[k]; c < count[k]; c++, s = s + 1 < OCC_SECTORS ? s + 1 : 0)
			o->items[fill[s]++] = k;
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

/* Whether no wall of o crosses the segment from the agent (o->p) to q: over the walls of q's
 * sector when they are binned, else over all of them (the same answer). */
static int visible(occluders *o, sw_vec2 q)
{
	sw_vec2 p = o->p;
	/* plain comparisons: fmin/fmax are library calls here (NaN rules) */
	double x0 = p.x < q.x ? p.x : q.x, x1 = p.x < q.x ? q.x : p.x;
	double y0 = p.y < q.y ? p.y : q.y, y1 = p.y < q.y ? q.y : p.y;
	sw_vec2 d = sw_v2_sub(q, p);
	/* Binning costs about two plain tests per wall: worth it from the OCC_TESTS-th sight line on
	 * when there are many walls. */
	if (++o->tests == OCC_TESTS && o->n >= OCC_MIN)
		occluders_bin(o);
	/* (a zero or NaN direction has no sector: every wall is tested) */
	if (o->binned && (d.x != 0.0 || d.y != 0.0) && d.x == d.x && d.y == d.y) {
		int s = sector_of(d);
		for (int e = o->start[s]; e < o->start[s + 1]; e++)
			if (crosses(o, o->items[e], q, x0, x1, y0, y1))
				return 0;
		return 1;
	}
	for (int k = 0; k < o->n; k++)
		if (crosses(o, k, q, x0, x1, y0, y1))
			return 0;
	return 1;
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
	if (w->steer_field) {
		sw_vec2 la, q = sw_v2(s->tx, s->ty);
		if (sw__field_goal(w, i, p, s->has_target ? &q : NULL, &la)) {
			s->tx = la.x;
			s->ty = la.y;
			s->has_target = 1;
		}
	}
	int n = 0, n_occl = 0;
	double occl_reach = a->perception + fmax(w->agent_rmax, w->prim_rmax);
	const int *plist = NULL; /* through the primitive index when it is on */
	int np = w->pg_on ? sw__prim_grid_query(w, wk, i, p, &plist) : m->n_prims;
	int qi = 0;
	/* No primitive moves (the index lists none): each is where the model put it */
	int still = w->pg_on && w->pg_n_moving == 0;
	occluders occ; /* the walls that may hide something (about 50 KB of stack) */
	for (; qi < np && n < cap; qi++) {
		int k = plist ? plist[qi] : qi;
		const sw_prim *pr = &m->prims[k];
		/* The candidates are scattered over the primitives of a large scene: their loads
		 * miss the caches, so they are asked for a few iterations ahead. */
		if (plist && qi + SW_PREFETCH < np)
			__builtin_prefetch(&m->prims[plist[qi + SW_PREFETCH]]); /* GCC and Clang */
		sw_vec2 pa, pb;
		int fixed = still || m->obstacles[pr->owner].motion.kind == SW_MOTION_NONE;
		if (fixed) { /* sw_model_prim_at's sum with a zero displacement, without the call */
			pa = sw_v2(pr->a.x + 0.0, pr->a.y + 0.0);
			pb = sw_v2(pr->b.x + 0.0, pr->b.y + 0.0);
		} else {
			sw_model_prim_at(m, k, t, &pa, &pb);
		}
		if (!pr->is_segment) {
			sw_vec2 d = sw_v2_sub(pa, p);
			double c = sw_v2_len(d) - pr->radius - a->radius;
			if (c <= a->perception)
				put(&buf[n++], d, pr->radius, c, k);
			continue;
		}
		sw_vec2 cp = sw_segment_closest(pa, pb, p, NULL);
		double c = sw_v2_dist(cp, p) - a->radius;
		if (c <= occl_reach) { /* may hide a disc or an agent */
			if (n_occl < OCC_BIN_MAX) {
				double *e = occ.ab[n_occl];
				e[0] = fixed ? pr->a.x : pa.x, e[1] = fixed ? pr->a.y : pa.y;
				e[2] = fixed ? pr->b.x : pb.x, e[3] = fixed ? pr->b.y : pb.y;
			}
			wk->occl[n_occl++] = k;
		}
		if (c > a->perception)
			continue;
		double half = 0.5 * sw_v2_dist(pa, pb);
		if (c < wall_near * half) {
			put(&buf[n++], sw_v2_sub(cp, p), 0.0, c, k);
		} else {
			/* Midpoint repeller; rho such that asin(rho / dist) is half the angle the
			 * wall subtends from p. */
			sw_vec2 mid = sw_v2_scale(sw_v2_add(pa, pb), 0.5);
			sw_vec2 da = sw_v2_sub(pa, p), db = sw_v2_sub(pb, p), dm = sw_v2_sub(mid, p);
			double ang = atan2(fabs(sw_v2_cross(da, db)), sw_v2_dot(da, db));
			put(&buf[n++], dm, sw_v2_len(dm) * sin(0.5 * ang), c, k);
		}
	}
	if (qi < np)
		return cap; /* the buffer filled before every primitive was seen: report it full
			     * (the filter below could make an incomplete list look complete) */
	occ.w = w, occ.occl = wk->occl, occ.t = t, occ.p = p, occ.n = n_occl, occ.tests = 0;
	occ.binned = 0;
	if (n_occl > 0) { /* drop the discs hidden behind a wall */
		int kept = 0;
		for (int k = 0; k < n; k++) {
			const sw_percept *o = &buf[k];
			if (m->prims[o->id].is_segment ||
			    visible(&occ, sw_v2(p.x + o->dx, p.y + o->dy)))
				buf[kept++] = *o;
		}
		n = kept;
	}
	if (m->run.agents_perceive) {
		/* Other agents at their start-of-step positions: through the grid when it is on
		 * (same candidates in the same order as the loop over every agent).  In a periodic
		 * world each agent is seen at its nearest image, and near the seam the grid is asked
		 * a second time at the image of p beyond it (model/periodic.c makes the strip longer
		 * than twice the reach, so no agent is found twice). */
		double reach = a->perception + a->radius + w->grid_rmax, L = m->periodic_x;
		sw_vec2 q[2];
		int passes = sw__image_queries(w, p, reach, q);
		/* The agent steered to is the target, not an obstacle: a chaser does not keep a
		 * safety distance from what it chases. */
		int chased = w->tkind[i] == TGT_AGENT ? w->tindex[i] : -1;
		for (int pass = 0; pass < passes; pass++) {
			int *cand = NULL, nc = w->n;
			if (w->grid_on)
				nc = sw__grid_query(w, wk, i, q[pass], reach, &cand);
			for (int k = 0; k < nc && n < cap; k++) {
				int j = cand ? cand[k] : k;
				if (cand && k + SW_PREFETCH < nc) /* as for the primitives */
					__builtin_prefetch(w->snap + 2 * (size_t)cand[k + SW_PREFETCH]);
				if (j == i || j == chased || sw__gone(w, j))
					continue;
				const double *yj = w->snap + 2 * (size_t)j;
				sw_vec2 d = sw_v2(sw__image_dx(w, yj[0] - p.x), yj[1] - p.y);
				double rj = sw__radius(w, j);
				double c = sw_v2_len(d) - rj - a->radius;
				if (c <= a->perception &&
				    (n_occl == 0 ||
				     visible(&occ, L > 0.0 ? sw_v2_add(p, d) : sw_v2(yj[0], yj[1])))) {
					put(&buf[n], d, rj, c, -1 - j);
					if (w->snap_h) {
						buf[n].hx = w->snap_h[2 * (size_t)j];
						buf[n].hy = w->snap_h[2 * (size_t)j + 1];
					}
					n++;
				}
			}
		}
	}
	s->n_obs = n;
	s->obs = buf;
	s->agent_v = w->snap_v; /* the time-to-collision law's (NULL when no agent runs it) */
	return n;
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

int sw__perceive_grow(const struct sw_world *w, sw_worker *wk, int i, double t, const double *y,
		      double wall_near, sw_situation *s)
{
	return sw__perceive_from(w, wk, i, t, y, wall_near, s, 0, 0);
}
