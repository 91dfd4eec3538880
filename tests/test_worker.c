/* tests/test_worker.c - workers (sim/worker.c): every block of a pass runs on a worker of its
 * own, so the bits of a run do not depend on the number of threads.  The scenes exercise every
 * part of a worker: a 3-D flock (3-D percepts, the grid's height filter), crowds of automata at
 * a door, on a ring and on a plaza (slots, guards, the primitive index, an occluding wall, agents
 * leaving), a time-to-collision crowd (the sensed flow) and small automaton scenes with signals
 * and events (the event locator, buffered events).  Seen failing, each time it ran, with worker
 * 1 made to share worker 0's grid results, percept buffer or expression slots during passes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "swerve/io.h"
#include "swerve/sim.h"
#include "sim/sim_internal.h"
#include "tests.h"

/* Events kept per run. */
#define WK_EVENTS 512

typedef struct {
	double *y; /* every unit's state, concatenated */
	size_t ny;
	int *mode;
	sw_agent_metrics *mt;
	int n_ev;
	int ev_u[WK_EVENTS], ev_to[WK_EVENTS];
	double ev_t[WK_EVENTS], ev_x[WK_EVENTS];
} run_bits;

static void on_event(const sw_world *w, int u, double t, int from, int to, const char *label,
		     const char *guard, void *ctx)
{
	(void)from, (void)label, (void)guard;
	run_bits *r = ctx;
	if (r->n_ev < WK_EVENTS) {
		r->ev_u[r->n_ev] = u;
		r->ev_to[r->n_ev] = to;
		r->ev_t[r->n_ev] = t;
		r->ev_x[r->n_ev] = sw_world_unit_state(w, u, NULL)[SW_STATE_X]; /* at the event */
	}
	r->n_ev++;
}

/* Model m stepped `steps` times on `threads` threads. */
static run_bits stepped(const sw_model *m, int steps, int threads)
{
	run_bits r;
	memset(&r, 0, sizeof r);
	sw_world_def def = sw_default_world_def(m);
	def.threads = threads;
	def.event_fn = on_event;
	def.event_ctx = &r;
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, &def, &w, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_threads(w), threads);
	for (int k = 0; k < steps && !sw_world_done(w); k++)
		ck_assert_int_eq(sw_world_step(w, NULL), SW_SUCCESS);
	int nu = sw_world_n_units(w), dim;
	for (int u = 0; u < nu; u++) {
		sw_world_unit_state(w, u, &dim);
		r.ny += (size_t)dim;
	}
	r.y = malloc(r.ny * sizeof *r.y);
	r.mode = malloc((size_t)nu * sizeof *r.mode);
	r.mt = malloc(((size_t)m->n_agents + 1) * sizeof *r.mt);
	ck_assert(r.y && r.mode && r.mt);
	size_t at = 0;
	for (int u = 0; u < nu; u++) {
		const double *y = sw_world_unit_state(w, u, &dim);
		memcpy(r.y + at, y, (size_t)dim * sizeof *y);
		at += (size_t)dim;
		r.mode[u] = sw_world_unit_mode(w, u);
	}
	for (int i = 0; i < m->n_agents; i++)
		r.mt[i] = *sw_world_metrics(w, i);
	sw_world_destroy(w);
	return r;
}

static void run_bits_free(run_bits *r)
{
	free(r->y);
	free(r->mode);
	free(r->mt);
}

/* Whether two doubles have the same bits (a NaN t_reached equals itself). */
static int same(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

/* Same bits: states, modes, metrics and the events in order with the state each was delivered
 * with. */
static void assert_same_bits(const run_bits *a, const run_bits *b, int nu, int n_agents,
			     int threads)
{
	ck_assert_uint_eq(a->ny, b->ny);
	ck_assert_msg(memcmp(a->y, b->y, a->ny * sizeof *a->y) == 0, "states, %d threads", threads);
	ck_assert_msg(memcmp(a->mode, b->mode, (size_t)nu * sizeof *a->mode) == 0,
		      "modes, %d threads", threads);
	for (int i = 0; i < n_agents; i++) {
		const sw_agent_metrics *x = &a->mt[i], *y = &b->mt[i];
		ck_assert_msg(same(x->t_reached, y->t_reached) &&
				  same(x->path_length, y->path_length) &&
				  same(x->min_clearance, y->min_clearance) &&
				  same(x->overlap_time, y->overlap_time) &&
				  same(x->max_penetration, y->max_penetration) &&
				  same(x->min_agent_clearance, y->min_agent_clearance) &&
				  x->reached == y->reached && x->collisions == y->collisions &&
				  x->agent_collisions == y->agent_collisions,
			      "metrics of agent %d, %d threads", i, threads);
	}
	ck_assert_int_eq(a->n_ev, b->n_ev);
	for (int k = 0; k < a->n_ev && k < WK_EVENTS; k++) {
		ck_assert_int_eq(a->ev_u[k], b->ev_u[k]);
		ck_assert_int_eq(a->ev_to[k], b->ev_to[k]);
		ck_assert(a->ev_t[k] == b->ev_t[k]);
		ck_assert(a->ev_x[k] == b->ev_x[k]);
	}
}

static const struct {
	const char *path;
	int steps;  /* steps taken: enough for agents to meet and automata to switch */
	int events; /* the scene has transitions within them */
} scenes[] = {
    {"models/crowd_flock3d.xml", 40, 0},     /* 3-D */
    {"models/crowd_door.xml", 300, 0},       /* automata, a wall with a door, leaving */
    {"models/crowd_ring.xml", 200, 0},       /* automata */
    {"models/crowd_plaza.xml", 200, 0},      /* automata, a target each */
    {"models/crowd_circle_ttc.xml", 300, 0}, /* the sensed crowd-law flow */
    {"models/pursuit_evasion.xml", 400, 1},  /* guards located, events */
    {"models/street_crossing.xml", 600, 1},  /* signals */
    {"models/seek_escape_trap.xml", 400, 1},
};

START_TEST(one_two_and_three_workers_step_to_the_same_bits)
{
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load(scenes[_i].path, &m, &d), SW_SUCCESS);
	run_bits one = stepped(m, scenes[_i].steps, 1);
	if (scenes[_i].events)
		ck_assert_int_gt(one.n_ev, 0);
	int nu = m->n_agents + m->n_signals;
	for (int threads = 2; threads <= 3; threads++) {
		run_bits more = stepped(m, scenes[_i].steps, threads);
		assert_same_bits(&one, &more, nu, m->n_agents, threads);
		run_bits_free(&more);
	}
	run_bits_free(&one);
	sw_model_free(m);
}
END_TEST

/* No buffer of one worker is another's: the workers of a world own disjoint scratch.  Each buffer
 * is the range of bytes it spans (a carved block's parts are checked, not only their starts), and
 * the state vectors (dydt ... y_pre) lie inside `work`, which spans up to the last one's end. */
START_TEST(workers_own_disjoint_buffers)
{
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load("models/crowd_flock3d.xml", &m, &d), SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_set_threads(w, 3), SW_SUCCESS);
	enum { N_BUF = 11 };
	struct {
		const char *lo, *hi;
	} seen[3 * N_BUF];
	int n = 0;
	size_t md = (size_t)w->unit.maxdim, np = (size_t)m->n_prims;
	for (int k = 0; k < 3; k++) {
		const sw_worker *wk = &w->threads.workers[k];
		const double *vec[] = {wk->dydt, wk->jac, wk->y_piece, wk->y_trial, wk->y_step,
				       wk->y_pre};
		const double *work_end = wk->work;
		for (size_t v = 0; v < sizeof vec / sizeof vec[0]; v++) {
			ck_assert(vec[v] >= wk->work);
			work_end = vec[v] + (v == 1 ? 3 : 1) * md > work_end
				       ? vec[v] + (v == 1 ? 3 : 1) * md
				       : work_end;
		}
		const struct {
			const void *p;
			size_t bytes;
		} own[N_BUF] = {
		    {wk->scratch, (size_t)wk->cap * sizeof *wk->scratch},
		    {wk->scratch3, (size_t)w->space3.cap * sizeof *wk->scratch3},
		    {wk->found, ((size_t)w->n + 1) * sizeof *wk->found},
		    {wk->occl, (np + 1) * sizeof *wk->occl},
		    {wk->pg_found, (np + 1) * sizeof *wk->pg_found},
		    {wk->pg_bits, ((np + 63) / 64 + 1) * sizeof *wk->pg_bits},
		    {wk->slots, (size_t)w->threads.max_slots * sizeof *wk->slots},
		    {wk->work, (size_t)(work_end - wk->work) * sizeof *wk->work},
		    {wk->relax, 1},
		    {wk->root, 1},
		    {wk->diag, sizeof *wk->diag}};
		for (int b = 0; b < N_BUF; b++) {
			ck_assert_ptr_nonnull(own[b].p);
			const char *lo = own[b].p, *hi = lo + own[b].bytes;
			for (int j = 0; j < n; j++)
				ck_assert_msg(hi <= seen[j].lo || seen[j].hi <= lo,
					      "worker %d: buffer %d overlaps another", k, b);
			seen[n].lo = lo, seen[n].hi = hi;
			n++;
		}
	}
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

Suite *worker_suite(void)
{
	Suite *s = suite_create("worker");
	TCase *tc = tcase_create("worker");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, one_two_and_three_workers_step_to_the_same_bits, 0,
			    (int)(sizeof scenes / sizeof scenes[0]));
	tcase_add_test(tc, workers_own_disjoint_buffers);
	suite_add_tcase(s, tc);
	return s;
}
