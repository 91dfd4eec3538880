/* sim/worker.c - workers and the passes of a step over blocks of agents.
 *
 * A worker (sw_worker, sim_internal.h) holds everything a stage writes that is not an entry of
 * the unit it steps: percept buffers, grid-query results, state vectors, the GSL root solver and
 * relaxation driver, the integration's fault record, buffered transition events, diagnostics
 * and a status.  A world has one worker per thread (sw_world_set_threads); a pass (sw__pass)
 * splits the agents into one contiguous block per worker and runs the blocks on the thread pool
 * (pool.c).  Block k always runs on worker k, whichever thread claims it, and a stage writes only
 * its worker and its own agents' entries, so results do not depend on the number of threads or
 * on the blocks' boundaries.  After the blocks, events are delivered and diagnostics appended in
 * block order, which is agent order.
 *
 * The serial paths (world creation, the signals' advance at the start of a step, the accessors
 * that perceive) use workers[0] (sw__serial): it is idle between passes, and it reports events
 * at once rather than buffering them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim_internal.h"
#include "swerve/plan.h"

/* Fewest agents per thread when the number of threads is chosen automatically. */
#define SW_AUTO_BLOCK 1024

/* State vectors of maxdim entries each in a worker's work block (names in sw_worker). */
enum { WORK_DYDT, WORK_JAC, WORK_PIECE = WORK_JAC + 3, WORK_TRIAL, WORK_STEP, WORK_PRE, WORK_N };

void sw__worker_free(sw_worker *wk)
{
	if (!wk)
		return;
	free(wk->block);
	free(wk->scratch);
	free(wk->ev);
	free(wk->evy);
	sw_relax_ws_free(wk->relax);
	sw_route_search_free(wk->route_search);
	free(wk->route_pts);
	if (wk->root)
		gsl_root_fsolver_free(wk->root);
	memset(wk, 0, sizeof *wk);
}

/* Lays out (a->base NULL: sizes) the buffers of wk whose sizes the world fixes. */
static void worker_carve(const struct sw_world *w, sw_worker *wk, sw_arena *a)
{
	size_t md = (size_t)w->unit.maxdim, np = (size_t)w->m->n_prims;
	wk->work = sw__arena_take(a, WORK_N * md, sizeof *wk->work);
	wk->slots = sw__arena_take(a, (size_t)w->threads.max_slots, sizeof *wk->slots);
	wk->found = sw__arena_take(a, (size_t)w->n + SW_GRID_SLACK, sizeof *wk->found);
	wk->occl = sw__arena_take(a, np + 1, sizeof *wk->occl);
	wk->pg_found = sw__arena_take(a, np + 1, sizeof *wk->pg_found);
	wk->pg_bits = sw__arena_take(a, (np + 63) / 64 + 1, sizeof *wk->pg_bits);
	wk->scratch3 =
	    sw__arena_take(a, w->space3.on ? (size_t)w->space3.cap : 0, sizeof *wk->scratch3);
	wk->diag = sw__arena_take(a, 1, sizeof *wk->diag);
}

int sw__worker_alloc(const struct sw_world *w, sw_worker *wk)
{
	memset(wk, 0, sizeof *wk);
	/* The buffers whose sizes the world fixes, in one zeroed block: sized, then carved ... */
	sw_arena ar = {NULL, 0};
	worker_carve(w, wk, &ar);
	wk->block = sw__block_alloc(ar.at);
	/* ... and those that grow or that GSL allocates. */
	wk->cap = w->threads.cap0;
	wk->scratch = calloc((size_t)wk->cap, sizeof *wk->scratch);
	wk->relax = sw_relax_ws_alloc();
	wk->root = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
	if (!wk->block || !wk->scratch || !wk->relax || !wk->root) {
		sw__worker_free(wk);
		return SW_ENOMEM;
	}
	ar = (sw_arena){wk->block, 0};
	worker_carve(w, wk, &ar);
	size_t md = (size_t)w->unit.maxdim;
	wk->dydt = wk->work + WORK_DYDT * md;
	wk->jac = wk->work + WORK_JAC * md;
	wk->y_piece = wk->work + WORK_PIECE * md;
	wk->y_trial = wk->work + WORK_TRIAL * md;
	wk->y_step = wk->work + WORK_STEP * md;
	wk->y_pre = wk->work + WORK_PRE * md;
	wk->grid_qz = NAN;
	wk->fault_u = -1;
	sw_diag_init(wk->diag);
	return SW_SUCCESS;
}

/* --- events --------------------------------------------------------------------------------- */

/* Buffers a transition event with unit u's state now (delivered after the pass). */
static void buffer_event(const struct sw_world *w, sw_worker *wk, int u, double t, int from, int to,
			 const char *label, const char *guard)
{
	int dim = w->unit.dim[u];
	if (wk->n_ev == wk->cap_ev) {
		int nc = wk->cap_ev ? 2 * wk->cap_ev : 16;
		void *p = realloc(wk->ev, (size_t)nc * sizeof *wk->ev);
		if (!p) { /* the event cannot be kept: the step fails rather than lose it */
			wk->status = wk->status == SW_SUCCESS ? SW_ENOMEM : wk->status;
			return;
		}
		wk->ev = p;
		wk->cap_ev = nc;
	}
	if (wk->n_evy + (size_t)dim > wk->cap_evy) {
		size_t nc = 2 * (wk->cap_evy + (size_t)dim);
		void *p = realloc(wk->evy, nc * sizeof *wk->evy);
		if (!p) {
			wk->status = wk->status == SW_SUCCESS ? SW_ENOMEM : wk->status;
			return;
		}
		wk->evy = p;
		wk->cap_evy = nc;
	}
	sw_tevent *e = &wk->ev[wk->n_ev++];
	e->u = u;
	e->t = t;
	e->from = from;
	e->to = to;
	e->label = label;
	snprintf(e->guard, sizeof e->guard, "%s", guard ? guard : "");
	e->yoff = wk->n_evy;
	memcpy(wk->evy + wk->n_evy, w->unit.y + w->unit.off[u], (size_t)dim * sizeof *wk->evy);
	wk->n_evy += (size_t)dim;
}

void sw__worker_event(const struct sw_world *w, sw_worker *wk, int u, double t, int from, int to,
		      const char *label, const char *guard)
{
	if (!w->def.event_fn)
		return;
	if (wk->defer)
		buffer_event(w, wk, u, t, from, to, label, guard);
	else
		w->def.event_fn(w, u, t, from, to, label, guard, w->def.event_ctx);
}

/* Delivers worker wk's buffered events with each unit's state as it was at the event (keep:
 * room for a state outside wk's event buffers). */
static void deliver_events(struct sw_world *w, sw_worker *wk, double *keep)
{
	for (int k = 0; k < wk->n_ev; k++) {
		const sw_tevent *e = &wk->ev[k];
		double *y = w->unit.y + w->unit.off[e->u];
		int dim = w->unit.dim[e->u], mode = w->unit.mode[e->u];
		memcpy(keep, y, (size_t)dim * sizeof *keep);
		memcpy(y, wk->evy + e->yoff, (size_t)dim * sizeof *y);
		w->unit.mode[e->u] = e->to;
		w->def.event_fn(w, e->u, e->t, e->from, e->to, e->label, e->guard,
				w->def.event_ctx);
		memcpy(y, keep, (size_t)dim * sizeof *y);
		w->unit.mode[e->u] = mode;
	}
	wk->n_ev = 0;
	wk->n_evy = 0;
}

/* Appends worker wk's diagnostics to diag. */
static void merge_diag(const sw_worker *wk, sw_diag *diag)
{
	for (int k = 0; k < wk->diag->count && k < SW_DIAG_MAX; k++) {
		const sw_diag_entry *e = &wk->diag->entry[k];
		sw_diag_add(diag, e->severity, e->file, e->line, e->column, "%s", e->message);
	}
}

/* --- passes --------------------------------------------------------------------------------- */

/* Threads to use for a pass over the agents.  Chosen automatically (sw_world_set_threads(w, 0)),
 * a thread gets at least SW_AUTO_BLOCK agents: smaller blocks cost more in synchronisation than
 * they save, and much more on a busy machine.  The result is the same for any number. */
int sw__pass_threads(const struct sw_world *w)
{
	int min_block = w->threads.automatic ? SW_AUTO_BLOCK : 1, nt = w->threads.n;
	if (nt > w->n / min_block)
		nt = w->n / min_block > 0 ? w->n / min_block : 1;
	return nt;
}

/* A pass: its kind, block function and argument. */
typedef struct pass {
	struct sw_world *w;
	int kind;
	sw_block_fn fn;
	const void *arg;
} pass;

/* Monotonic time, s. */
static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Block k of a pass, on worker k (whichever thread runs it). */
static void pass_block(void *ctx, int k)
{
	const pass *ps = ctx;
	sw_worker *wk = &ps->w->threads.workers[k];
	double t_start = now_s();
	ps->fn(ps->w, wk, wk->lo[ps->kind], wk->hi[ps->kind], ps->arg);
	wk->took[ps->kind] = now_s() - t_start;
}

/* The blocks of the next pass of a kind: equal numbers of agents at first, then moved so that
 * each block's share of the last pass's time becomes 1 / nt, assuming that time is spread evenly
 * over a block's agents, and going half of the way there (the times are noisy).  Crowds are not
 * uniform (a ring's inner agents perceive more): two equal halves of a 10^4-agent circle swap
 * took 1.09 and 1.46 ms to sense.  Which agents a block holds changes no result (every agent's
 * step reads only the snapshot and writes only its own entries; events and diagnostics are
 * delivered in block order, which is agent order). */
static void balance(struct sw_world *w, int kind, int nt)
{
	sw_worker *wk = w->threads.workers;
	int n = w->n;
	if (w->threads.split[kind] != nt) { /* first pass of this kind, or another block count */
		for (int k = 0; k < nt; k++) {
			wk[k].lo[kind] = (int)((long)n * k / nt);
			wk[k].hi[kind] = (int)((long)n * (k + 1) / nt);
			wk[k].took[kind] = 0.0;
		}
		w->threads.split[kind] = nt;
		return;
	}
	double total = 0.0;
	for (int k = 0; k < nt; k++)
		total += wk[k].took[kind];
	if (!(total > 0.0) || !isfinite(total))
		return;
	/* Boundary j (between blocks j - 1 and j) where the cumulative time reaches j / nt. */
	int k = 0;
	double before = 0.0; /* time of the blocks before k */
	for (int j = 1; j < nt; j++) {
		double want = total * j / nt;
		while (k < nt - 1 && before + wk[k].took[kind] < want)
			before += wk[k++].took[kind];
		const sw_worker *b = &wk[k];
		int b_lo = k > 0 ? wk[k - 1].hi[kind] : 0; /* its lo may be moved already */
		double frac = b->took[kind] > 0.0 ? (want - before) / b->took[kind] : 0.5;
		double target = b_lo + frac * (b->hi[kind] - b_lo);
		int old = wk[j - 1].hi[kind], at = (int)lround(0.5 * (old + target));
		int floor_at = wk[j - 1].lo[kind]; /* already moved: blocks stay in order */
		at = at < floor_at ? floor_at : at > n ? n : at;
		wk[j].lo[kind] = at;
	}
	for (int j = 0; j < nt; j++)
		wk[j].hi[kind] = j + 1 < nt ? wk[j + 1].lo[kind] : n;
}

int sw__pass(struct sw_world *w, int kind, sw_block_fn fn, const void *arg, sw_diag *diag,
	     const sw_worker **failed)
{
	int nt = sw__pass_threads(w);
	for (int k = 0; k < nt; k++) {
		sw_worker *wk = &w->threads.workers[k];
		sw_diag_init(wk->diag);
		wk->status = SW_SUCCESS;
		wk->n_ev = 0;
		wk->n_evy = 0;
		wk->defer = w->def.event_fn != NULL;
	}
	balance(w, kind, nt);
	pass ps = {w, kind, fn, arg};
	sw__pool_run(w->threads.pool, nt, pass_block, &ps);
	int status = SW_SUCCESS;
	if (failed)
		*failed = NULL;
	for (int k = 0; k < nt; k++) {
		sw_worker *wk = &w->threads.workers[k];
		wk->defer = 0;
		if (w->def.event_fn)
			deliver_events(w, wk, w->threads.workers[0].dydt);
		merge_diag(wk, diag);
		if (status == SW_SUCCESS && wk->status != SW_SUCCESS) {
			status = wk->status;
			if (failed)
				*failed = wk;
		}
	}
	return status;
}

/* --- threads -------------------------------------------------------------------------------- */

int sw_world_set_threads(sw_world *w, int n)
{
	if (!w || n < 0)
		return SW_EUSAGE;
	w->threads.automatic = n == 0;
	if (n == 0)
		n = sw__pool_processors();
	if (n == w->threads.n)
		return SW_SUCCESS;
	sw_worker *wk = calloc((size_t)n, sizeof *wk);
	if (!wk)
		return SW_ENOMEM;
	for (int k = 0; k < n; k++)
		if (sw__worker_alloc(w, &wk[k]) != SW_SUCCESS) {
			for (int j = 0; j < k; j++)
				sw__worker_free(&wk[j]);
			free(wk);
			return SW_ENOMEM;
		}
	sw_pool *pool;
	if (sw__pool_create(n, &pool) != SW_SUCCESS) {
		for (int k = 0; k < n; k++)
			sw__worker_free(&wk[k]);
		free(wk);
		return SW_ENOMEM;
	}
	sw__pool_destroy(w->threads.pool);
	w->threads.pool = pool;
	for (int k = 0; k < w->threads.n; k++)
		sw__worker_free(&w->threads.workers[k]);
	free(w->threads.workers);
	w->threads.workers = wk;
	w->threads.n = n;
	for (int k = 0; k < SW_PASSES; k++)
		w->threads.split[k] = 0; /* new workers: equal blocks first (balance) */
	return SW_SUCCESS;
}

int sw_world_threads(const sw_world *w)
{
	return w->threads.n;
}
