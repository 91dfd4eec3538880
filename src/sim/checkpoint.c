/* sim/checkpoint.c - a world's state as bytes, and back (checkpoints and resume).
 *
 * Everything a step changes is saved: time and step count, every unit's state and mode, the
 * steering targets, the random streams, the metrics and their per-obstacle minima and overlap
 * flags, the sensed flow of the single-evaluation path, the position history of progress(), and
 * the SteerBench accumulators, and the velocities and headings of the snapshot (snap.v, snap.h:
 * taken before the sensing's algebraic outputs -- a time-to-collision agent's speed floored at 0,
 * a speed model's heading and speed -- changed the states they come from, so they cannot be
 * rebuilt from the saved states).  What a world derives from its model when it is created (steer
 * entries, drawn personalities, fields, indexes) is not: a checkpoint is restored into a world
 * freshly created from the same model, and then continues exactly as the uninterrupted world
 * would (tested bit for bit).  The snapshot's positions and the neighbour grid are rebuilt from
 * the states.
 *
 * Format: "SWCK", a format version, a layout key (counts and sizes that must match the world
 * restored into), the sections in a fixed order, and a 64-bit FNV-1a checksum of all that; the
 * whole buffer is checked before anything is applied, so a damaged or foreign checkpoint is
 * refused with a message and leaves the world untouched.  Raw structs are written: a checkpoint
 * is for the same build of swerve on the same kind of machine. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"
#include "swerve/plan.h"

/* 2: the snapshot's velocities and headings (snap.v, snap.h) after the position history;
 * 3: the planned routes (<routes>) after the SteerBench sums;
 * 4: each route's stall anchor (place and time); 5: and when the route was last followed */
#define CK_VERSION 5u

/* A growable output buffer. */
typedef struct {
	unsigned char *p;
	size_t n, cap;
	int oom;
} obuf;

static void put(obuf *b, const void *data, size_t n)
{
	if (b->oom || n == 0)
		return;
	if (b->n + n > b->cap) {
		size_t nc = 2 * (b->cap + n);
		unsigned char *q = realloc(b->p, nc);
		if (!q) {
			b->oom = 1;
			return;
		}
		b->p = q;
		b->cap = nc;
	}
	memcpy(b->p + b->n, data, n);
	b->n += n;
}

/* A reader over a checked buffer. */
typedef struct {
	const unsigned char *p;
	size_t n, at;
	int short_read;
} ibuf;

static void get(ibuf *b, void *data, size_t n)
{
	if (b->short_read || n > b->n - b->at) {
		b->short_read = 1;
		return;
	}
	if (n == 0)
		return;
	memcpy(data, b->p + b->at, n);
	b->at += n;
}

/* Bytes of the agents' random streams (none when no mode draws: world.c). */
static size_t rng_bytes(const sw_world *w)
{
	return w->agent.rng ? (size_t)w->n * SW_RNG_TYPE->size : 0;
}

static size_t total_dim(const sw_world *w)
{
	return w->unit.off[w->nu - 1] + (size_t)w->unit.dim[w->nu - 1];
}

/* What must match between the saved world and the one restored into. */
static uint64_t layout_key(const sw_world *w)
{
	uint64_t v[11] = {(uint64_t)w->n,
			  (uint64_t)w->nu,
			  (uint64_t)total_dim(w),
			  (uint64_t)w->m->n_obstacles,
			  (uint64_t)SW_RNG_TYPE->size,
			  (uint64_t)sizeof(sw_agent_metrics),
			  (uint64_t)(w->hist.buf != NULL),
			  (uint64_t)(w->meas.sb != NULL),
			  w->def.seed,
			  (uint64_t)w->m->n_prims,
			  (uint64_t)(w->nav.route != NULL)};
	return sw_hash_bytes(SW_HASH_INIT, v, sizeof v);
}

int sw_world_checkpoint(const sw_world *w, void **out, size_t *len)
{
	if (!w || !out || !len)
		return SW_EUSAGE;
	obuf b = {NULL, 0, 0, 0};
	size_t n = (size_t)w->n, no = n * (size_t)w->m->n_obstacles;
	uint32_t version = CK_VERSION;
	uint64_t key = layout_key(w);
	put(&b, "SWCK", 4);
	put(&b, &version, sizeof version);
	put(&b, &key, sizeof key);
	put(&b, &w->t, sizeof w->t);
	put(&b, &w->steps, sizeof w->steps);
	put(&b, w->unit.y, total_dim(w) * sizeof *w->unit.y);
	put(&b, w->unit.mode, (size_t)w->nu * sizeof *w->unit.mode);
	put(&b, w->agent.tkind, n * sizeof *w->agent.tkind);
	put(&b, w->agent.tindex, n * sizeof *w->agent.tindex);
	put(&b, w->agent.rng, rng_bytes(w));
	put(&b, w->meas.metrics, n * sizeof *w->meas.metrics);
	put(&b, w->meas.min_clear, no * sizeof *w->meas.min_clear);
	put(&b, w->meas.overlap, no);
	put(&b, w->meas.agent_overlap, n);
	for (size_t i = 0; i < n; i++) { /* the three GLM entries of each (sw__fast) */
		/* a crowd law's flow is not kept: its agent's entry reads as nothing sensed */
		static const double none[3] = {NAN, 0.0, 0.0};
		int crowd = sw__crowd_law(sw__steer_of(w, (int)i, w->unit.mode[i])->law);
		put(&b, crowd ? none : sw__fast(w, (int)i), 3 * sizeof *w->fast.data);
	}
	if (w->hist.buf) {
		put(&b, &w->hist.len, sizeof w->hist.len);
		put(&b, &w->hist.head, sizeof w->hist.head);
		put(&b, w->hist.buf, n * SW_HISTORY * 3 * sizeof *w->hist.buf);
	}
	if (w->snap.v)
		put(&b, w->snap.v, 2 * n * sizeof *w->snap.v);
	if (w->snap.h)
		put(&b, w->snap.h, 2 * n * sizeof *w->snap.h);
	if (w->meas.sb) {
		void *sbp = NULL;
		size_t sbn = 0;
		if (sw__steerbench_save(w, &sbp, &sbn) != SW_SUCCESS)
			b.oom = 1;
		put(&b, &sbn, sizeof sbn);
		put(&b, sbp, sbn);
		free(sbp);
	}
	for (size_t i = 0; w->nav.route && i < n; i++) { /* planned routes (navigate.c) */
		const sw_route *r = &w->nav.route[i];
		put(&b, &r->tgt, sizeof r->tgt);
		put(&b, &r->next, sizeof r->next);
		put(&b, &r->n, sizeof r->n);
		put(&b, &r->t_plan, sizeof r->t_plan);
		put(&b, &r->from, sizeof r->from);
		put(&b, &r->anchor, sizeof r->anchor);
		put(&b, &r->t_anchor, sizeof r->t_anchor);
		put(&b, &r->t_seen, sizeof r->t_seen);
		put(&b, r->pts, (size_t)r->n * sizeof *r->pts);
	}
	uint64_t sum = sw_hash_bytes(SW_HASH_INIT, b.p, b.n);
	put(&b, &sum, sizeof sum);
	if (b.oom) {
		free(b.p);
		return SW_ENOMEM;
	}
	*out = b.p;
	*len = b.n;
	return SW_SUCCESS;
}

/* An agent's planned route (navigate.c), checked: a target index of the model or -1, a corner
 * index within the corners, at most one corner per node of the routes' grid, finite corners.
 * Returns SW_SUCCESS, SW_EINPUT or SW_ENOMEM. */
static int restore_route(const sw_world *w, sw_route *r, ibuf *b)
{
	int tgt, next, n;
	double t_plan, t_anchor, t_seen;
	sw_vec2 from, anchor;
	get(b, &tgt, sizeof tgt);
	get(b, &next, sizeof next);
	get(b, &n, sizeof n);
	get(b, &t_plan, sizeof t_plan);
	get(b, &from, sizeof from);
	get(b, &anchor, sizeof anchor);
	get(b, &t_anchor, sizeof t_anchor);
	get(b, &t_seen, sizeof t_seen);
	size_t most = (size_t)w->nav.route_map->nx * (size_t)w->nav.route_map->ny;
	if (b->short_read || tgt < -1 || tgt >= w->m->n_targets || n < 0 || (size_t)n > most ||
	    next < 0 || (n > 0 && next >= n) || (size_t)n * sizeof(sw_vec2) > b->n - b->at ||
	    !isfinite(t_plan) || !isfinite(from.x) || !isfinite(from.y) || !isfinite(t_anchor) ||
	    !isfinite(t_seen) || !isfinite(anchor.x) || !isfinite(anchor.y))
		return SW_EINPUT;
	if (n > r->cap) {
		sw_vec2 *p = realloc(r->pts, (size_t)n * sizeof *p);
		if (!p)
			return SW_ENOMEM;
		r->pts = p;
		r->cap = n;
	}
	get(b, r->pts, (size_t)n * sizeof *r->pts);
	for (int k = 0; k < n; k++)
		if (!isfinite(r->pts[k].x) || !isfinite(r->pts[k].y))
			return SW_EINPUT;
	r->tgt = tgt, r->next = next, r->n = n, r->t_plan = t_plan, r->from = from;
	r->anchor = anchor, r->t_anchor = t_anchor, r->t_seen = t_seen;
	return SW_SUCCESS;
}

/* The values a step indexes with or counts by, range-checked before anything is applied: a
 * checkpoint whose checksum was recomputed after an edit is still untrusted input (a negative
 * step count once ran past the duration).  b is positioned after the layout key; returns 0, or
 * -1 with what is wrong in why. */
static int check_values(const sw_world *w, ibuf b, char *why, size_t n_why)
{
	const sw_model *m = w->m;
	long total = w->total_steps;
	double t = 0.0;
	long steps = 0;
	get(&b, &t, sizeof t);
	get(&b, &steps, sizeof steps);
	/* t is the sum of `steps` steps of run.step: equal to their product up to rounding. */
	double h = m->run.step;
	if (steps < 0 || steps > total || !isfinite(t) ||
	    fabs(t - (double)steps * h) > 1e-6 * fmax(h, t))
		return snprintf(why, n_why,
				"step count %ld at t = %g s; expected 0..%ld steps of %g s and the "
				"time they reach",
				steps, t, total, h),
		       -1;
	size_t dim = total_dim(w);
	for (size_t k = 0; k < dim; k++) {
		double v = 0.0;
		get(&b, &v, sizeof v);
		if (!isfinite(v))
			return snprintf(why, n_why, "state entry %zu is %g; expected a finite number",
					k, v),
			       -1;
	}
	for (int u = 0; u < w->nu; u++) {
		int md = 0, nm = w->unit.aut[u] ? w->unit.aut[u]->n_modes : MODE_ARRIVED + 1;
		get(&b, &md, sizeof md);
		if (md < 0 || md >= nm)
			return snprintf(why, n_why, "unit %d is in mode %d; expected 0..%d", u, md,
					nm - 1),
			       -1;
	}
	ibuf kinds = b; /* tkind[n], then tindex[n] */
	b.at += (size_t)w->n * sizeof *w->agent.tkind;
	int most_any = m->n_targets > w->n ? m->n_targets : w->n;
	for (int i = 0; i < w->n; i++) {
		unsigned char kind = 0;
		int idx = 0;
		get(&kinds, &kind, sizeof kind);
		get(&b, &idx, sizeof idx);
		int most = kind == TGT_TARGET ? m->n_targets
			   : kind == TGT_AGENT ? w->n
					       : (most_any > 1 ? most_any : 1);
		if (kind > TGT_AGENT || idx < 0 || idx >= most)
			return snprintf(why, n_why,
					"agent %d has target kind %d and index %d; expected a kind "
					"0..2 and an index 0..%d",
					i, kind, idx, most - 1),
			       -1;
	}
	if (w->hist.buf) { /* after rng, metrics, min_clear, overlap, agent_overlap and fast */
		size_t n = (size_t)w->n, no = n * (size_t)m->n_obstacles;
		b.at += rng_bytes(w) + n * sizeof *w->meas.metrics +
			no * sizeof *w->meas.min_clear + no + n + 3 * n * sizeof *w->fast.data;
		int len = 0, head = 0;
		get(&b, &len, sizeof len);
		get(&b, &head, sizeof head);
		if (len < 0 || len > SW_HISTORY || head < 0 || head >= SW_HISTORY)
			return snprintf(why, n_why,
					"position history of length %d at %d; expected 0..%d and "
					"0..%d",
					len, head, SW_HISTORY, SW_HISTORY - 1),
			       -1;
	}
	return b.short_read ? (snprintf(why, n_why, "it is truncated"), -1) : 0;
}

int sw_world_restore(sw_world *w, const void *data, size_t len, const char *name, sw_diag *diag)
{
	if (!w || !data)
		return SW_EUSAGE;
	const unsigned char *p = data;
	uint64_t sum;
	if (len < 4 + sizeof(uint32_t) + 2 * sizeof sum || memcmp(p, "SWCK", 4) != 0)
		return sw_diag_add(diag, SW_SEV_ERROR, name, 0, 0,
				   "not a swerve checkpoint; expected a file written by swerve run "
				   "--checkpoint-every"),
		       SW_EINPUT;
	memcpy(&sum, p + len - sizeof sum, sizeof sum);
	if (sw_hash_bytes(SW_HASH_INIT, p, len - sizeof sum) != sum)
		return sw_diag_add(diag, SW_SEV_ERROR, name, 0, 0,
				   "the checkpoint is damaged (its checksum does not match); "
				   "expected an intact checkpoint"),
		       SW_EINPUT;
	ibuf b = {p + 4, len - 4 - sizeof sum, 0, 0};
	uint32_t version;
	uint64_t key;
	get(&b, &version, sizeof version);
	get(&b, &key, sizeof key);
	if (version != CK_VERSION || key != layout_key(w))
		return sw_diag_add(diag, SW_SEV_ERROR, name, 0, 0,
				   "the checkpoint belongs to another scenario, seed or build of "
				   "swerve; expected one written for this scenario with the same "
				   "options"),
		       SW_EINPUT;
	/* Read into a copy first: nothing of the world changes unless everything is there. */
	size_t n = (size_t)w->n, no = n * (size_t)w->m->n_obstacles;
	ibuf probe = b;
	size_t need = sizeof w->t + sizeof w->steps + total_dim(w) * sizeof *w->unit.y +
		      (size_t)w->nu * sizeof *w->unit.mode +
		      n * (sizeof *w->agent.tkind + sizeof *w->agent.tindex) + rng_bytes(w) +
		      n * sizeof *w->meas.metrics + no * (sizeof(double) + 1) + n +
		      3 * n * sizeof *w->fast.data;
	if (w->hist.buf)
		need += 2 * sizeof(int) + n * SW_HISTORY * 3 * sizeof *w->hist.buf;
	need += ((w->snap.v != NULL) + (w->snap.h != NULL)) * 2 * n * sizeof(double);
	if (need > probe.n - probe.at)
		return sw_diag_add(diag, SW_SEV_ERROR, name, 0, 0,
				   "the checkpoint is truncated; expected an intact checkpoint"),
		       SW_EINPUT;
	char why[SW_DIAG_MSG / 2];
	if (check_values(w, b, why, sizeof why) != 0)
		return sw_diag_add(diag, SW_SEV_ERROR, name, 0, 0,
				   "the checkpoint holds a value out of range (%s); expected one "
				   "written by this run",
				   why),
		       SW_EINPUT;
	/* The last checks can only be made while applying (the length of the last section, the
	 * SteerBench values): the world's own state is kept and put back on such a refusal, so that
	 * a refused checkpoint leaves the world as it was. */
	void *undo = NULL;
	size_t undo_len = 0;
	if (sw_world_checkpoint(w, &undo, &undo_len) != SW_SUCCESS)
		return sw_diag_add(diag, SW_SEV_ERROR, name, 0, 0,
				   "out of memory while restoring the checkpoint"),
		       SW_ENOMEM;
	get(&b, &w->t, sizeof w->t);
	get(&b, &w->steps, sizeof w->steps);
	get(&b, w->unit.y, total_dim(w) * sizeof *w->unit.y);
	get(&b, w->unit.mode, (size_t)w->nu * sizeof *w->unit.mode);
	get(&b, w->agent.tkind, n * sizeof *w->agent.tkind);
	get(&b, w->agent.tindex, n * sizeof *w->agent.tindex);
	get(&b, w->agent.rng, rng_bytes(w));
	get(&b, w->meas.metrics, n * sizeof *w->meas.metrics);
	get(&b, w->meas.min_clear, no * sizeof *w->meas.min_clear);
	get(&b, w->meas.overlap, no);
	for (size_t k = 0; k < no; k++) /* skipping leaves results unchanged: measure afresh */
		w->meas.clear_until[k] = -INFINITY;
	if (w->meas.touch)
		memset(w->meas.touch, 1, n); /* and through the primitive index: every obstacle */
	get(&b, w->meas.agent_overlap, n);
	for (size_t i = 0; i < n; i++) {
		double *f = sw__fast(w, (int)i);
		get(&b, f, 3 * sizeof *w->fast.data);
		/* A crowd law's flow is not kept (its fourth entry is not in the checkpoint): the
		 * first step evaluates it again, to the same bits. */
		if (sw__crowd_law(sw__steer_of(w, (int)i, w->unit.mode[i])->law))
			f[0] = NAN;
	}
	if (w->hist.buf) {
		get(&b, &w->hist.len, sizeof w->hist.len);
		get(&b, &w->hist.head, sizeof w->hist.head);
		get(&b, w->hist.buf, n * SW_HISTORY * 3 * sizeof *w->hist.buf);
	}
	/* applied after the snapshot below, which would overwrite them */
	size_t at_v = b.at, at_h = b.at + (w->snap.v ? 2 * n * sizeof *w->snap.v : 0);
	b.at = at_h + (w->snap.h ? 2 * n * sizeof *w->snap.h : 0);
	if (b.at > b.n)
		b.short_read = 1;
	int st = SW_SUCCESS;
	if (w->meas.sb) {
		size_t sbn = 0;
		get(&b, &sbn, sizeof sbn);
		if (!b.short_read && sbn <= b.n - b.at) {
			st = sw__steerbench_restore(w, b.p + b.at, sbn);
			b.at += sbn;
		} else {
			b.short_read = 1;
		}
	}
	for (size_t i = 0; w->nav.route && i < n && st == SW_SUCCESS && !b.short_read; i++)
		st = restore_route(w, &w->nav.route[i], &b);
	if (b.short_read || b.at != b.n || st != SW_SUCCESS) {
		sw_world_restore(w, undo, undo_len, name, NULL); /* its own state: accepted */
		free(undo);
		return sw_diag_add(diag, SW_SEV_ERROR, name, 0, 0,
				   "the checkpoint's sections do not fit this world; expected one "
				   "written for this scenario"),
		       st == SW_ENOMEM ? SW_ENOMEM : SW_EINPUT;
	}
	free(undo);
	sw__snapshot(w);
	if (w->snap.v)
		memcpy(w->snap.v, b.p + at_v, 2 * n * sizeof *w->snap.v);
	if (w->snap.h)
		memcpy(w->snap.h, b.p + at_h, 2 * n * sizeof *w->snap.h);
	return SW_SUCCESS;
}
