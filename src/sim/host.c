/* sim/host.c - what behaviour expressions read: the slot array (state, time, variables,
 * parameters, enum labels) and the perception functions dist, bearing, visible, inside,
 * clearance, neighbors, progress and in (see model/automaton_impl.h for their definitions).
 * Other agents are seen as they were at the start of the step, like in steering. */
#include <math.h>
#include <string.h>

#include "sim_internal.h"

/* Evaluation context handed to the expression callbacks. */
typedef struct {
	const struct sw_world *w;
	sw_worker *wk; /* the evaluating worker: slots and grid queries */
	int u;
	double t;
	const double *y;
} host_ctx;

double *sw__slots(const struct sw_world *w, sw_worker *wk, int u, double t, const double *y)
{
	const struct sw_automaton *a = w->unit.aut[u];
	double *s = wk->slots;
	memcpy(s, y, SW_STATE_DIM * sizeof *s);
	s[SW_SLOT_T] = t;
	memcpy(s + SW_SLOT_TMODE, y + SW_STATE_DIM, (size_t)(1 + a->n_vars) * sizeof *s);
	const sw_binding *b = u < w->n ? w->m->bindings + w->m->agents[u].binding_first : NULL;
	for (int j = 0; j < a->n_params; j++)
		s[a->param_slot + j] = b ? b[j].value : a->params[j].def_value;
	memcpy(s + a->label_slot, a->label_value, (size_t)a->n_labels * sizeof *s);
	return s;
}

int sw__signal_mode(const sw_signals *sig, int s, double t)
{
	int mode = sig->mode0[s];
	for (int k = 0; k < sig->n_switch; k++)
		if (sig->switches[k].sig == s && sig->switches[k].t <= t)
			mode = sig->switches[k].mode;
	return mode;
}

/* Reference point of object parameter j of agent u at time t (targets, agents, obstacle
 * closest points, region centroids).  Returns the binding index or -1. */
static int object_point(const host_ctx *c, int j, sw_vec2 p, sw_vec2 *out, int *kind)
{
	const sw_model *m = c->w->m;
	const struct sw_automaton *a = c->w->unit.aut[c->u];
	int idx = m->bindings[m->agents[c->u].binding_first + j].index;
	*kind = a->params[j].kind;
	switch (*kind) {
	case SW_PARAM_TARGET:
		*out = sw__target_at(c->w, idx, c->t);
		return idx;
	case SW_PARAM_AGENT: {
		const double *yj = c->w->snap.pos + 2 * (size_t)idx;
		*out = sw__image_near(c->w, sw_v2(yj[0], yj[1]), p); /* periodic: nearest image */
		return idx;
	}
	case SW_PARAM_OBSTACLE: {
		const sw_obstacle *o = &m->obstacles[idx];
		double best = INFINITY;
		for (int k = o->prim_first; k < o->prim_first + o->prim_count; k++) {
			sw_vec2 pa, pb, q;
			sw_model_prim_at(m, k, c->t, &pa, &pb);
			q = m->prims[k].is_segment ? sw_segment_closest(pa, pb, p, NULL) : pa;
			if (sw_v2_dist(q, p) < best) {
				best = sw_v2_dist(q, p);
				*out = q;
			}
		}
		return idx;
	}
	case SW_PARAM_REGION: {
		const sw_region *r = &m->regions[idx];
		sw_vec2 sum = sw_v2(0, 0);
		for (int k = 0; k < r->count; k++)
			sum = sw_v2_add(sum, m->points[r->first + k]);
		*out = sw_v2_scale(sum, 1.0 / r->count);
		return idx;
	}
	default:
		return -1;
	}
}

/* Signed distance of p to region idx: > 0 inside (distance to the boundary), < 0 outside. */
static double region_margin(const sw_model *m, int idx, sw_vec2 p)
{
	const sw_region *r = &m->regions[idx];
	const sw_vec2 *v = m->points + r->first;
	double d = INFINITY;
	for (int k = 0; k < r->count; k++)
		d = fmin(d, sw_segment_distance(v[k], v[(k + 1) % r->count], p));
	return sw_polygon_contains(v, r->count, p) ? d : -d;
}

/* 1 when no obstacle other than `skip` (obstacle index or -1) crosses segment p-q. */
static int line_of_sight(const struct sw_world *w, double t, sw_vec2 p, sw_vec2 q, int skip)
{
	const sw_model *m = w->m;
	for (int k = 0; k < m->n_prims; k++) {
		if (m->prims[k].owner == skip)
			continue;
		sw_vec2 a, b;
		sw_model_prim_at(m, k, t, &a, &b);
		if (m->prims[k].is_segment) {
			if (sw_segments_intersect(p, q, a, b))
				return 0;
		} else if (sw_segment_distance(p, q, a) < m->prims[k].radius) {
			return 0;
		}
	}
	return 1;
}

/* Record k of a history ring h (0 the newest): its time, x and y. */
static const double *hist_entry(const struct sw_world *w, const double *h, int k)
{
	return h + 3 * ((w->hist.head - 1 - k + SW_HISTORY) % SW_HISTORY);
}

/* Position of agent u at time tau in the past (history ring, linear interpolation). */
static sw_vec2 past_position(const struct sw_world *w, int u, double tau, sw_vec2 now)
{
	const double *h = w->hist.buf + (size_t)u * SW_HISTORY * 3;
	sw_vec2 later = now;
	double tl = w->t;
	if (!(w->m->periodic_x > 0.0) && w->hist.len > 0) {
		/* The walk below, by bisection: entry k (0 the newest) has time non-increasing in
		 * k, so the first k with time <= tau is found in log2(SW_HISTORY) looks, and
		 * without a seam every entry is its own nearest image.  (In a periodic world each
		 * entry's image depends on the newer one's, a chain only the walk follows.) */
		int lo = 0, hi = w->hist.len;
		while (lo < hi) {
			int mid = (lo + hi) / 2;
			if (hist_entry(w, h, mid)[0] <= tau)
				hi = mid;
			else
				lo = mid + 1;
		}
		int k = lo < w->hist.len ? lo : w->hist.len - 1;
		if (k > 0) {
			const double *r = hist_entry(w, h, k - 1);
			later = sw_v2(r[1], r[2]);
			tl = r[0];
		}
		const double *r = hist_entry(w, h, k);
		if (lo == w->hist.len)
			return sw_v2(r[1], r[2]); /* older than the history: its oldest position */
		double f = tl > r[0] ? (tau - r[0]) / (tl - r[0]) : 0.0;
		return sw_v2(r[1] + f * (later.x - r[1]), r[2] + f * (later.y - r[2]));
	}
	for (int k = 0; k < w->hist.len; k++) {
		const double *r = hist_entry(w, h, k);
		/* periodic world: each entry at its image nearest the later one (unwrapped) */
		sw_vec2 e_xy = sw__image_near(w, sw_v2(r[1], r[2]), later);
		if (r[0] <= tau) {
			double f = tl > r[0] ? (tau - r[0]) / (tl - r[0]) : 0.0;
			return sw_v2(e_xy.x + f * (later.x - e_xy.x), e_xy.y + f * (later.y - e_xy.y));
		}
		later = e_xy;
		tl = r[0];
	}
	return later; /* older than the history: its oldest position */
}

/* The evaluating unit's radius (0 for a signal). */
static double radius(const host_ctx *c)
{
	return c->u < c->w->n ? c->w->m->agents[c->u].radius : 0.0;
}

static double host_value(void *ctx, int func, const int *names, const double *args, int margin)
{
	host_ctx *c = ctx;
	const struct sw_world *w = c->w;
	const sw_model *m = w->m;
	sw_vec2 p = sw_v2(c->y[SW_STATE_X], c->y[SW_STATE_Y]), q;
	int kind;
	if (w->space3.on && c->u < w->n && (func == SW_HF_DIST || func == SW_HF_NEIGHBORS)) {
		/* 3-D world: dist(target or agent) and neighbors(r) measure in 3-D (space3.c) */
		double v;
		int idx = func == SW_HF_DIST ? object_point(c, names[0], p, &q, &kind) : -1;
		if (sw__host3(w, c->wk, c->u, c->t, c->y, func, func == SW_HF_DIST ? kind : -1, idx,
			      args, &v))
			return v;
	}
	switch (func) {
	case SW_HF_DIST: {
		int idx = object_point(c, names[0], p, &q, &kind);
		if (kind == SW_PARAM_OBSTACLE)
			return sw_model_obstacle_clearance(m, idx, c->t, p, radius(c));
		if (kind == SW_PARAM_REGION)
			return fmax(0.0, -region_margin(m, idx, p));
		return sw_v2_dist(p, q);
	}
	case SW_HF_BEARING:
		object_point(c, names[0], p, &q, &kind);
		return sw_wrap_angle(atan2(q.y - p.y, q.x - p.x) - c->y[SW_STATE_PHI]);
	case SW_HF_VISIBLE: {
		int idx = object_point(c, names[0], p, &q, &kind);
		int vis = line_of_sight(w, c->t, p, q, kind == SW_PARAM_OBSTACLE ? idx : -1);
		return margin ? (vis ? 1.0 : -1.0) : vis;
	}
	case SW_HF_INSIDE: {
		int idx = m->bindings[m->agents[c->u].binding_first + names[0]].index;
		double d = region_margin(m, idx, p);
		return margin ? d : d > 0.0;
	}
	case SW_HF_CLEARANCE:
		return sw__nearest_clearance(&w->pg, m, c->wk, c->u, c->t, p, radius(c));
	case SW_HF_NEIGHBORS:
	case SW_HF_ONCOMING: {
		/* Through the neighbour grid when there is one (its candidates include every
		 * agent within the radius), else over every agent; the same test either way.
		 * oncoming(obj, r) counts those ahead towards obj (in front of the normal through
		 * the agent) whose snapshot velocity points back against that direction. */
		int count = 0, *cand = NULL, nc = w->n;
		double ex = 0.0, ey = 0.0, reach = args[0]; /* the real arguments, in order */
		if (func == SW_HF_ONCOMING) {
			object_point(c, names[0], p, &q, &kind);
			double len = sw_v2_dist(p, q);
			if (!(len > 0.0))
				return 0.0;
			ex = (q.x - p.x) / len;
			ey = (q.y - p.y) / len;
		}
		/* hypot(dx, dy) <= reach without hypot where dx^2 + dy^2 is clearly on one side (its
		 * rounding is below 1e-15 relative): the same answer, a fifth of the cost */
		double r2 = reach * reach, r2_in = r2 * (1.0 - 1e-12), r2_out = r2 * (1.0 + 1e-12);
		if (reach < 0.0)
			r2_in = r2_out = -1.0; /* no distance is below a negative reach */
		/* A periodic world: other agents at their nearest images, the grid asked twice
		 * near the seam (sw__image_queries). */
		sw_vec2 qs[2];
		int passes = reach >= 0.0 ? sw__image_queries(w, p, reach, qs) : 1;
		for (int pass = 0; pass < passes; pass++) {
			if (w->grid.on && reach >= 0.0) /* a count: the candidates' order is free */
				nc = sw__grid_query_any(&w->grid, c->wk, c->u, pass ? qs[1] : p,
							reach, &cand);
			for (int k = 0; k < nc; k++) {
				int j = cand ? cand[k] : k;
				if (j == c->u || sw__gone(w, j))
					continue;
				const double *yj = w->snap.pos + 2 * (size_t)j;
				double dx = sw__image_dx(w, yj[0] - p.x), dy = yj[1] - p.y;
				if (func == SW_HF_ONCOMING) {
					const double *vj = w->snap.v + 2 * (size_t)j;
					if (!(dx * ex + dy * ey > 0.0 && vj[0] * ex + vj[1] * ey < 0.0))
						continue;
				}
				double d2 = dx * dx + dy * dy;
				if (d2 < r2_in || (!(d2 > r2_out) && hypot(dx, dy) <= reach))
					count++;
			}
		}
		return count;
	}
	case SW_HF_PROGRESS: {
		object_point(c, names[0], p, &q, &kind);
		double tau = fmax(0.0, c->t - args[0]);
		sw_vec2 pp = past_position(w, c->u, tau, p);
		host_ctx past = *c;
		past.t = tau;
		sw_vec2 qp;
		object_point(&past, names[0], pp, &qp, &kind);
		return sw_v2_dist(pp, qp) - sw_v2_dist(p, q);
	}
	case SW_HF_IN: {
		const sw_binding *b = m->bindings + m->agents[c->u].binding_first;
		int s = b[names[0]].index;
		const struct sw_automaton *sa = m->automata[m->signals[s].automaton];
		int now = sw__signal_mode(&w->sig, s, c->t);
		int in = strcmp(sa->modes[now].name, w->unit.aut[c->u]->names[names[1]]) == 0;
		return margin ? (in ? 1.0 : -1.0) : in;
	}
	default:
		return NAN;
	}
}

static double host_call(void *ctx, int func, const int *names, const double *args)
{
	return host_value(ctx, func, names, args, 0);
}

static double host_margin(void *ctx, int func, const int *names, const double *args)
{
	return host_value(ctx, func, names, args, 1);
}

double sw__eval_in(const struct sw_world *w, sw_worker *wk, int u, double t, const double *y,
		   const double *slots, const sw_expr *e)
{
	host_ctx c = {w, wk, u, t, y};
	sw_expr_env env = {host_call, host_margin, &c};
	return sw_expr_eval(e, slots, &env);
}

double sw__margin_in(const struct sw_world *w, sw_worker *wk, int u, double t, const double *y,
		     const double *slots, const sw_expr *e)
{
	host_ctx c = {w, wk, u, t, y};
	sw_expr_env env = {host_call, host_margin, &c};
	return sw_expr_margin(e, slots, &env);
}

double sw__eval(const struct sw_world *w, sw_worker *wk, int u, double t, const double *y,
		const sw_expr *e)
{
	return sw__eval_in(w, wk, u, t, y, sw__slots(w, wk, u, t, y), e);
}

double sw__margin(const struct sw_world *w, sw_worker *wk, int u, double t, const double *y,
		  const sw_expr *e)
{
	return sw__margin_in(w, wk, u, t, y, sw__slots(w, wk, u, t, y), e);
}

void sw__history_push(sw_history *h, const struct sw_world *w)
{
	if (!h->buf)
		return; /* no automaton reads progress() */
	for (int i = 0; i < w->n; i++) {
		double *r = h->buf + ((size_t)i * SW_HISTORY + h->head) * 3;
		const double *y = w->unit.y + w->unit.off[i];
		r[0] = w->t;
		r[1] = y[SW_STATE_X];
		r[2] = y[SW_STATE_Y];
	}
	h->head = (h->head + 1) % SW_HISTORY;
	if (h->len < SW_HISTORY)
		h->len++;
}
