/* sim/steerbench.c - SteerBench metrics of every agent (docs/steersuite.md, "Metrics").
 *
 * SteerSuite's AgentMetricsCollector accumulates per frame while an agent is enabled; here a
 * frame is run.steerbench_frame (a whole number of steps; by default one step; 0.05 s in
 * imported cases, SteerSuite's 20 frames per second, whatever the step the law needs) and an
 * agent is enabled until it enters a terminal mode: a
 * mode of its automaton with no steering law and no transition out (the `done` mode of an
 * imported goal sequence), or, for a plain-law agent that stops at its target, its arrival.
 * For every frame that began with the agent enabled, at the frame's end (h: the frame's length):
 *
 *   frames += 1,  time_enabled += h,
 *   distance += |p(t1) - p(t0)|                      (chord of the step, m)
 *   degrees_turned += |wrap(phi(t1) - phi(t0))| * 180/pi
 *   kinetic_energy_sum += (|p(t1) - p(t0)| / h)^2 / 2  (mass 1; the speed SteerBench sees: the
 *                        displacement over the frame, not the state's v; NOT multiplied by h)
 *   unique_collisions += obstacle overlap episodes deeper than SW_SB_DEPTH begun in the step
 *                        (one per obstacle, from overlap to separation) + agents it began
 *                        overlapping by more than SW_SB_DEPTH in the step (one per other agent
 *                        still in the world)
 *
 * The kinetic-energy sum grows as 1/h for the same motion and the collision counts depend on
 * which step ends fall inside an overlap: both depend on the frame rate.  Distance and degrees
 * turned are sums of chords and of heading increments, which converge to the path length and to
 * the integral of |phi'| as h shrinks.  Everything is computed from the state at step ends, in
 * one call per agent and step (sw__steerbench_agent, from the step's sensing pass, in parallel
 * blocks like the rest of it), after the world has refreshed its snapshot. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/core_internal.h"
#include "sim_internal.h"

/* Overlap depth below which SteerBench does not count a collision, m (its collision test asks
 * for a penetration beyond 0.001). */
#define SW_SB_DEPTH 0.001

struct sw_steerbench {
	sw_steerbench_metrics *m; /* per agent: the sums */
	unsigned char *deep;    /* per agent and obstacle: overlapping deeper than SW_SB_DEPTH */
	int *obs_episodes;      /* per agent: deep obstacle overlap episodes begun so far */
	int *prev_episodes;     /* per agent: obs_episodes at the start of the step */
	unsigned char *enabled; /* per agent: enabled at the start of the current step */
	double *prev;           /* per agent: x, y, phi at the start of the current step */
	int **contact;          /* per agent: agents it overlaps (ascending), at the last step end */
	int *n_contact, *cap_contact;
};

int sw__agent_done(const sw_world *w, int i)
{
	if (w->unit.aut[i]) {
		const sw_amode *md = &w->unit.aut[i]->modes[w->unit.mode[i]];
		return !md->moves && md->trans_count == 0;
	}
	return w->unit.mode[i] == MODE_ARRIVED;
}

/* Starts agent i's next frame from its state now (writes only sb's entries of agent i). */
static void remember(struct sw_steerbench *sb, const sw_world *w, int i)
{
	const double *y = w->unit.y + w->unit.off[i];
	double *p = sb->prev + 3 * (size_t)i;
	p[0] = y[SW_STATE_X];
	p[1] = y[SW_STATE_Y];
	p[2] = y[SW_STATE_PHI];
	sb->prev_episodes[i] = sb->obs_episodes[i];
	sb->enabled[i] = (unsigned char)!sw__agent_done(w, i);
}

void sw__steerbench_free(sw_world *w)
{
	for (int i = 0; w->meas.sb && i < w->n; i++)
		free(w->meas.sb->contact[i]);
}

void sw__steerbench_layout(sw_world *w, sw_arena *a)
{
	if (!w->m->run.steerbench)
		return; /* not asked for: no cost */
	size_t n = (size_t)w->n + 1;
	struct sw_steerbench *sb = sw__arena_take(a, 1, sizeof *sb), t;
	t.m = sw__arena_take(a, n, sizeof *t.m);
	t.deep = sw__arena_take(a, n * (size_t)w->m->n_obstacles + 1, 1);
	t.obs_episodes = sw__arena_take(a, n, sizeof *t.obs_episodes);
	t.prev_episodes = sw__arena_take(a, n, sizeof *t.prev_episodes);
	t.enabled = sw__arena_take(a, n, 1);
	t.prev = sw__arena_take(a, 3 * n, sizeof *t.prev);
	t.contact = sw__arena_take(a, n, sizeof *t.contact);
	t.n_contact = sw__arena_take(a, n, sizeof *t.n_contact);
	t.cap_contact = sw__arena_take(a, n, sizeof *t.cap_contact);
	if (sb)
		*sb = t;
	w->meas.sb = sb;
}

void sw__steerbench_start(sw_world *w)
{
	/* Overlaps present at t = 0 are not collisions begun during the run (agents start clear of
	 * obstacles; agents overlapping each other at the start are counted from the first step
	 * on only if they separate and meet again). */
	for (int i = 0; w->meas.sb && i < w->n; i++)
		remember(w->meas.sb, w, i);
}

/* The agents overlapping agent i now (ascending) into wk->found (n + SW_GRID_SLACK entries);
 * returns their number. */
static int overlapping(const sw_world *w, sw_worker *wk, int i)
{
	const sw_model *m = w->m;
	if (!m->run.agents_perceive)
		return 0; /* ghosts to each other, as in sim/world.c's metrics */
	const double *y = w->snap.pos + 2 * (size_t)i;
	double r = m->agents[i].radius;
	int *cand = NULL, nc = w->n, k = 0, *out = wk->found;
	if (w->grid.on)
		nc = sw__grid_query(&w->grid, wk, i, sw_v2(y[0], y[1]), r + w->grid.rmax, &cand);
	for (int q = 0; q < nc; q++) {
		int j = cand ? cand[q] : q;
		const double *yj = w->snap.pos + 2 * (size_t)j;
		if (j != i && !sw__gone(w, j) &&
		    hypot(yj[0] - y[0], yj[1] - y[1]) < r + m->agents[j].radius - SW_SB_DEPTH)
			out[k++] = j; /* k <= q: in place when cand is the same buffer */
	}
	return k;
}

/* Replaces agent i's contact list by the k agents in list; returns how many are new. */
static int contacts_update(struct sw_steerbench *sb, int i, const int *list, int k)
{
	int fresh = 0, a = 0;
	for (int q = 0; q < k; q++) {
		while (a < sb->n_contact[i] && sb->contact[i][a] < list[q])
			a++;
		fresh += !(a < sb->n_contact[i] && sb->contact[i][a] == list[q]);
	}
	if (k > sb->cap_contact[i]) {
		int *c = realloc(sb->contact[i], (size_t)k * sizeof *c);
		if (!c)
			return -1;
		sb->contact[i] = c;
		sb->cap_contact[i] = k;
	}
	if (k > 0)
		memcpy(sb->contact[i], list, (size_t)k * sizeof *list);
	sb->n_contact[i] = k;
	return fresh;
}

int sw__steerbench_agent(struct sw_steerbench *sb, const sw_world *w, sw_worker *wk, int i)
{
	if (!sb->enabled[i])
		return SW_SUCCESS;
	double h = w->m->run.step;
	if (w->m->run.steerbench_frame > 0.0) { /* only at the end of a frame */
		long long k = llround(w->m->run.steerbench_frame / h);
		if (w->steps % k != 0)
			return SW_SUCCESS;
		h *= (double)k;
	}
	sw_steerbench_metrics *mt = &sb->m[i];
	const double *y = w->unit.y + w->unit.off[i], *p = sb->prev + 3 * (size_t)i;
	/* The step has just flagged whether i overlaps any agent: only then look for which ones
	 * (the usual case costs nothing). */
	int k = w->meas.agent_overlap[i] ? overlapping(w, wk, i) : 0;
	int fresh = contacts_update(sb, i, wk->found, k);
	if (fresh < 0)
		return SW_ENOMEM;
	mt->sb_frames++;
	mt->sb_time = (double)mt->sb_frames * h;
	mt->sb_distance += hypot(y[SW_STATE_X] - p[0], y[SW_STATE_Y] - p[1]);
	mt->sb_degrees += fabs(sw_wrap_angle(y[SW_STATE_PHI] - p[2])) * (180.0 / SW_PI);
	double vf = hypot(y[SW_STATE_X] - p[0], y[SW_STATE_Y] - p[1]) / h;
	mt->sb_energy += 0.5 * vf * vf;
	mt->sb_collisions += sb->obs_episodes[i] - sb->prev_episodes[i] + fresh;
	remember(sb, w, i);
	return SW_SUCCESS;
}

void sw__steerbench_moved(struct sw_steerbench *sb, int i, double dx, double dy, double dphi)
{
	double *p = sb->prev + 3 * (size_t)i;
	p[0] += dx;
	p[1] += dy;
	p[2] += dphi;
}

void sw__steerbench_obstacle(struct sw_steerbench *sb, const sw_model *m, int i, int j, double c)
{
	size_t k = (size_t)i * (size_t)m->n_obstacles + (size_t)j;
	int deep = c < -SW_SB_DEPTH;
	if (deep && !sb->deep[k])
		sb->obs_episodes[i]++;
	sb->deep[k] = (unsigned char)deep;
}

const sw_steerbench_metrics *sw_world_steerbench(const sw_world *w, int i)
{
	return w->meas.sb ? &w->meas.sb->m[i] : NULL;
}

double sw_steerbench_composite01(const sw_steerbench_metrics *mt)
{
	return 50.0 * mt->sb_collisions + mt->sb_time + mt->sb_energy;
}

int sw__steerbench_save(const sw_world *w, void **out, size_t *len)
{
	const struct sw_steerbench *sb = w->meas.sb;
	size_t n = (size_t)w->n, nd = n * (size_t)w->m->n_obstacles,
	       total = n * sizeof *sb->m + n + 3 * n * sizeof(double) + n * sizeof(int) + nd;
	for (size_t i = 0; i < n; i++)
		total += sizeof(int) + (size_t)sb->n_contact[i] * sizeof(int);
	unsigned char *p = malloc(total + 1), *q = p;
	if (!p)
		return SW_ENOMEM;
	memcpy(q, sb->m, n * sizeof *sb->m), q += n * sizeof *sb->m;
	memcpy(q, sb->enabled, n), q += n;
	memcpy(q, sb->prev, 3 * n * sizeof(double)), q += 3 * n * sizeof(double);
	/* at a step end prev_episodes = obs_episodes: one copy is kept */
	memcpy(q, sb->obs_episodes, n * sizeof(int)), q += n * sizeof(int);
	if (nd > 0)
		memcpy(q, sb->deep, nd), q += nd;
	for (size_t i = 0; i < n; i++) {
		memcpy(q, &sb->n_contact[i], sizeof(int)), q += sizeof(int);
		if (sb->n_contact[i] > 0) /* contact[i] may be NULL when empty */
			memcpy(q, sb->contact[i], (size_t)sb->n_contact[i] * sizeof(int));
		q += (size_t)sb->n_contact[i] * sizeof(int);
	}
	*out = p;
	*len = total;
	return SW_SUCCESS;
}

int sw__steerbench_restore(sw_world *w, const void *data, size_t len)
{
	struct sw_steerbench *sb = w->meas.sb;
	size_t n = (size_t)w->n, nd = n * (size_t)w->m->n_obstacles,
	       fixed = n * sizeof *sb->m + n + 3 * n * sizeof(double) + n * sizeof(int) + nd;
	const unsigned char *q = data, *end = q + len;
	if (len < fixed)
		return SW_EINPUT;
	memcpy(sb->m, q, n * sizeof *sb->m), q += n * sizeof *sb->m;
	memcpy(sb->enabled, q, n), q += n;
	memcpy(sb->prev, q, 3 * n * sizeof(double)), q += 3 * n * sizeof(double);
	memcpy(sb->obs_episodes, q, n * sizeof(int)), q += n * sizeof(int);
	memcpy(sb->prev_episodes, sb->obs_episodes, n * sizeof(int));
	for (size_t i = 0; i < n; i++)
		if (sb->obs_episodes[i] < 0)
			return SW_EINPUT;
	if (nd > 0)
		memcpy(sb->deep, q, nd), q += nd;
	for (size_t k = 0; k < nd; k++)
		if (sb->deep[k] > 1)
			return SW_EINPUT;
	for (size_t i = 0; i < n; i++) {
		int k;
		if ((size_t)(end - q) < sizeof k)
			return SW_EINPUT;
		memcpy(&k, q, sizeof k), q += sizeof k;
		if (k < 0 || k > w->n || (size_t)(end - q) < (size_t)k * sizeof(int))
			return SW_EINPUT;
		if (k > sb->cap_contact[i]) {
			int *c = realloc(sb->contact[i], (size_t)k * sizeof *c);
			if (!c)
				return SW_ENOMEM;
			sb->contact[i] = c;
			sb->cap_contact[i] = k;
		}
		if (k > 0) /* contact[i] may be NULL when empty */
			memcpy(sb->contact[i], q, (size_t)k * sizeof(int));
		for (int a = 0; a < k; a++) /* agents, ascending (contacts_update merges them) */
			if (sb->contact[i][a] < (a > 0 ? sb->contact[i][a - 1] + 1 : 0) ||
			    sb->contact[i][a] >= w->n)
				return SW_EINPUT;
		q += (size_t)k * sizeof(int);
		sb->n_contact[i] = k;
	}
	return q == end ? SW_SUCCESS : SW_EINPUT;
}
