/* sim/world.c - world creation and destruction, and what callers read from a world.  The step
 * itself is in sim/step.c. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>

#include "sim_internal.h"
#include "swerve/plan.h"


static const struct {
	const char *name;
	const gsl_odeiv2_step_type **type;
} integrators[] = {
	{"rk2", &gsl_odeiv2_step_rk2},       {"rk4", &gsl_odeiv2_step_rk4},
	{"rkf45", &gsl_odeiv2_step_rkf45},   {"rkck", &gsl_odeiv2_step_rkck},
	{"rk8pd", &gsl_odeiv2_step_rk8pd},   {"rk1imp", &gsl_odeiv2_step_rk1imp},
	{"rk2imp", &gsl_odeiv2_step_rk2imp}, {"rk4imp", &gsl_odeiv2_step_rk4imp},
	{"bsimp", &gsl_odeiv2_step_bsimp},   {"msadams", &gsl_odeiv2_step_msadams},
	{"msbdf", &gsl_odeiv2_step_msbdf},
};

/* Most jumps of one unit at one instant before a Zeno error. */
#define SW_ZENO_MAX 64

void sw_world_destroy(sw_world *w)
{
	if (!w)
		return;
	for (int u = 0; u < w->nu; u++) {
		if (w->unit.type && w->unit.drv && w->unit.drv[u])
			gsl_odeiv2_driver_free(w->unit.drv[u]);
	}
	sw__steerbench_free(w);
	free(w->sig.switches);
	sw__pool_destroy(w->threads.pool);
	for (int k = 0; k < w->threads.n; k++)
		sw__worker_free(&w->threads.workers[k]);
	free(w->threads.workers);
	sw__prim_grid_free(w);
	sw__fields_free(w);
	free(w); /* with the arrays it holds: last, the frees above may read them */
}

static double *agent_y(const sw_world *w, int i)
{
	return w->unit.y + w->unit.off[i];
}

const char *sw_world_mode_name(const sw_world *w, int i, int mode)
{
	if (w->unit.aut[i])
		return sw_automaton_mode_name(w->unit.aut[i], mode);
	return mode == MODE_ARRIVED ? "arrived" : "steer";
}

const char *sw_world_unit_name(const sw_world *w, int u)
{
	return u < w->n ? w->m->agents[u].name : w->m->signals[u - w->n].name;
}

int sw_world_n_units(const sw_world *w)
{
	return w->nu;
}

void sw_world_set_event_fn(sw_world *w, sw_event_fn fn, void *ctx)
{
	w->def.event_fn = fn;
	w->def.event_ctx = ctx;
}

/* What creation computes before the world's one allocation (world_size): the sizes of the arrays
 * world.c carves, and what decides which optional ones exist. */
typedef struct world_layout {
	size_t n, nu, no, ns;   /* agents, units, agent-obstacle pairs, GSL systems */
	size_t ny;              /* state entries of all units */
	size_t nsteer;          /* distinct steering entries (agents with equal laws share) */
	int flags, rad, hist;   /* snap.flags, agent.rad, hist.buf present (else NULL) */
	int pers, noise;        /* personalities drawn; random streams (a law draws noise) */
	int need_h, need_v;     /* snapshot headings; velocities */
	int fields, autos;      /* a law steers by a field; by field="auto" (navigate.c) */
} world_layout;

/* Lays out (a->base NULL: sizes) the world itself and every array it holds, the modules' too. */
static void world_carve(sw_world *w, const world_layout *L, sw_arena *a)
{
	sw__arena_take(a, 1, sizeof *w); /* the world, at the block's start */
	size_t n = L->n, nu = L->nu;
	w->unit.dim = sw__arena_take(a, nu, sizeof *w->unit.dim);
	w->unit.off = sw__arena_take(a, nu, sizeof *w->unit.off);
	w->unit.mode = sw__arena_take(a, nu, sizeof *w->unit.mode);
	w->unit.aut = sw__arena_take(a, nu, sizeof *w->unit.aut);
	w->unit.y = sw__arena_take(a, L->ny + 1, sizeof *w->unit.y);
	w->agent.steer = sw__arena_take(a, L->nsteer + 1, sizeof *w->agent.steer);
	w->agent.steer_first = sw__arena_take(a, n + 1, sizeof *w->agent.steer_first);
	w->agent.pers = sw__arena_take(a, L->pers ? n : 0, sizeof *w->agent.pers);
	w->agent.tkind = sw__arena_take(a, n + 1, sizeof *w->agent.tkind);
	w->agent.tindex = sw__arena_take(a, n + 1, sizeof *w->agent.tindex);
	w->agent.rng = sw__arena_take(a, L->noise ? n + 1 : 0, SW_RNG_TYPE->size);
	w->agent.rad = sw__arena_take(a, L->rad ? n : 0, sizeof *w->agent.rad);
	w->meas.metrics = sw__arena_take(a, n + 1, sizeof *w->meas.metrics);
	w->meas.min_clear = sw__arena_take(a, L->no + 1, sizeof *w->meas.min_clear);
	w->meas.overlap = sw__arena_take(a, L->no + 1, sizeof *w->meas.overlap);
	w->meas.clear_until = sw__arena_take(a, L->no + 1, sizeof *w->meas.clear_until);
	w->meas.agent_overlap = sw__arena_take(a, n + 1, sizeof *w->meas.agent_overlap);
	w->snap.pos = sw__arena_take(a, 2 * n + 1, sizeof *w->snap.pos);
	w->snap.h = sw__arena_take(a, L->need_h ? 2 * n : 0, sizeof *w->snap.h);
	w->snap.v = sw__arena_take(a, L->need_v ? 2 * n : 0, sizeof *w->snap.v);
	w->snap.flags = sw__arena_take(a, L->flags ? n + 1 : 0, sizeof *w->snap.flags);
	w->fast.data = sw__arena_take(a, (size_t)w->fast.stride * n + 1, sizeof *w->fast.data);
	/* GSL systems and drivers only for GSL steppers (explicit Euler needs none). */
	w->unit.sys = sw__arena_take(a, L->ns, sizeof *w->unit.sys);
	w->unit.drv = sw__arena_take(a, L->ns, sizeof *w->unit.drv);
	w->unit.ctx = sw__arena_take(a, L->ns, sizeof *w->unit.ctx);
	w->sig.mode0 = sw__arena_take(a, nu - n + 1, sizeof *w->sig.mode0);
	w->hist.buf = sw__arena_take(a, L->hist ? n * SW_HISTORY * 3 + 1 : 0, sizeof *w->hist.buf);
	sw__space3_layout(w, a); /* before the grid: its heights */
	sw__grid_layout(w, a);
	sw__prim_grid_layout(w, a);
	sw__hybrid_layout(w, a);
	sw__fields_layout(w, a, L->fields, L->autos);
	sw__steerbench_layout(w, a);
}

/* One trait from its distribution (SW_TRAIT_FIXED keeps the value). */
static double draw_trait(gsl_rng *r, const sw_trait_dist *d, double value)
{
	switch (d->kind) {
	case SW_TRAIT_UNIFORM: return gsl_ran_flat(r, d->p1, d->p2);
	case SW_TRAIT_NORMAL: return fmin(fmax(d->p1 + gsl_ran_gaussian(r, d->p2), 0.0), 1.0);
	default: return value;
	}
}

/* Whether some agent of m draws a personality trait from a distribution. */
static int draws_personalities(const sw_model *m)
{
	int any = 0;
	for (int i = 0; i < m->n_agents; i++) {
		const sw_personality *p = &m->agents[i].personality;
		any |= p->agility_dist.kind || p->mass_dist.kind || p->courage_dist.kind;
	}
	return any;
}

/* Agent i's personality ("personality drawn per agent from distributions"): with r (when the
 * scenario draws any trait), agility, mass and courage drawn, in that order, from the agent's
 * own stream seeded from (scenario seed ^ "pers", agent index), independent of its noise stream
 * and of threads; else the model's. */
static sw_personality personality(const sw_world *w, gsl_rng *r, int i)
{
	sw_personality p = w->m->agents[i].personality;
	if (!r)
		return p;
	sw_rng_stream_seed(r, w->def.seed ^ 0x7065727300000000ULL, (uint64_t)i);
	p.agility = draw_trait(r, &p.agility_dist, p.agility);
	p.mass = draw_trait(r, &p.mass_dist, p.mass);
	p.courage = draw_trait(r, &p.courage_dist, p.courage);
	return p;
}

const sw_personality *sw_world_personality(const sw_world *w, int i)
{
	return sw__pers(w, i);
}

/* Agent i's steering in mode q with personality p applied. */
static sw_steer_def agent_steer(const sw_model *m, int i, int q, const sw_personality *p)
{
	const struct sw_automaton *a = sw__unit_automaton(m, i);
	sw_steer_def d;
	if (!a) {
		d = m->agents[i].steer; /* fixed courage applied at finalize */
		if (m->agents[i].personality.courage_dist.kind != SW_TRAIT_FIXED)
			sw__law_personalize(&d, p);
		return d;
	}
	d = a->modes[q].steer;
	sw__law_personalize(&d, p);
	return d;
}

/* The state dimension of unit u of m: its automaton's or the plain law's, and the 3-D entries at
 * the end of an agent's in a 3-D model (space3.c). */
static int unit_dim(const sw_model *m, int u)
{
	const struct sw_automaton *a = sw__unit_automaton(m, u);
	int dim = a ? sw__automaton_dim(a) : SW_STATE_DIM;
	return m->dim3 && u < m->n_agents ? dim + SW_STATE3_DIM : dim;
}

/* Modes of unit u (1 for a plain-law agent). */
static int unit_modes(const sw_model *m, int u)
{
	const struct sw_automaton *a = sw__unit_automaton(m, u);
	return a ? a->n_modes : 1;
}

/* Whether agent i (personality p) steers as agent i - 1 (personality q) in every mode: then it
 * shares i - 1's steering entries.  prev: i - 1's entries when they are stored, else NULL
 * (computed again). */
static int same_steering(const sw_model *m, int i, const sw_personality *p,
			 const sw_personality *q, const sw_steer_def *prev)
{
	if (i == 0 || sw__unit_automaton(m, i) != sw__unit_automaton(m, i - 1))
		return 0;
	for (int k = 0; k < unit_modes(m, i); k++) {
		sw_steer_def d = agent_steer(m, i, k, p);
		sw_steer_def e = prev ? prev[k] : agent_steer(m, i - 1, k, q);
		if (!sw_steer_def_equal(&d, &e))
			return 0;
	}
	return 1;
}

/* The layout pass of world.c's arrays: their sizes, from the model alone (r: the personalities'
 * stream, NULL when none is drawn); the modules size theirs in world_carve.  Sets the scalars
 * the sizes depend on (maxdim, max_slots, n_steer, fast.stride and fast.crowd).  SW_ENOMEM when
 * the states exceed 2^32 entries. */
static int world_size(sw_world *w, gsl_rng *r, world_layout *L)
{
	const sw_model *m = w->m;
	size_t off = 0;
	w->unit.maxdim = SW_STATE_DIM;
	w->threads.max_slots = 1;
	for (int u = 0; u < w->nu; u++) {
		const struct sw_automaton *a = sw__unit_automaton(m, u);
		int dim = unit_dim(m, u);
		if (off > UINT32_MAX - (size_t)dim)
			return SW_ENOMEM; /* beyond 2^32 state entries: too large for this machine */
		off += (size_t)dim;
		w->unit.maxdim = dim > w->unit.maxdim ? dim : w->unit.maxdim;
		if (a && a->n_slots > w->threads.max_slots)
			w->threads.max_slots = a->n_slots;
	}
	L->ny = off;
	/* The distinct steering entries (as fill_layout stores them), and what they read. */
	int used = 0, crowd = 0;
	sw_personality prev = {0}, p;
	for (int i = 0; i < w->n; i++, prev = p) {
		const struct sw_automaton *a = sw__unit_automaton(m, i);
		p = personality(w, r, i);
		int nm = unit_modes(m, i);
		if (same_steering(m, i, &p, &prev, NULL))
			continue;
		used += nm;
		for (int q = 0; q < nm; q++) {
			sw_steer_def d = agent_steer(m, i, q, &p);
			L->need_h |= sw__law_reads_headings(&d);
			L->need_v |= (sw__law_flags(d.law) & SW__LAW_READS_VELOCITIES) ||
				     (a && a->uses_oncoming);
			crowd |= sw__crowd_law(d.law);
			/* Random streams only where something draws: a law's heading noise. */
			L->noise |= sw__law_noise(&d) > 0.0;
			int f = sw__field_of(m, d.field);
			L->fields |= f >= 0 || f == SW__FIELD_AUTO;
			L->autos |= f == SW__FIELD_AUTO;
		}
	}
	L->nsteer = (size_t)used;
	w->agent.n_steer = used;
	/* The crowd laws' sensed flows (step.c sense_one, integrate.c), with explicit Euler. */
	w->fast.crowd = crowd && strcmp(m->run.integrator, "euler") == 0 && !m->dim3;
	w->fast.stride = w->fast.crowd ? 4 : 3;
	return SW_SUCCESS;
}

/* Fills the layout's arrays: dimensions, offsets, automata, personalities, steering entries. */
static void fill_layout(sw_world *w, gsl_rng *r)
{
	const sw_model *m = w->m;
	uint32_t off = 0; /* world_size checked the total */
	for (int u = 0; u < w->nu; u++) {
		w->unit.aut[u] = sw__unit_automaton(m, u);
		w->unit.dim[u] = unit_dim(m, u);
		w->unit.off[u] = off;
		off += (uint32_t)w->unit.dim[u];
	}
	/* Agents whose laws (personality applied) equal the previous agent's share its entries:
	 * crowds and groups of one kind then hold one copy instead of one per agent. */
	int used = 0;
	for (int i = 0; i < w->n; i++) {
		sw_personality p = personality(w, r, i);
		if (w->agent.pers)
			w->agent.pers[i] = p;
		int k = i > 0 ? w->agent.steer_first[i - 1] : 0;
		if (same_steering(m, i, &p, NULL, w->agent.steer + k)) {
			w->agent.steer_first[i] = w->agent.steer_first[i - 1];
			continue;
		}
		w->agent.steer_first[i] = used;
		for (int q = 0; q < unit_modes(m, i); q++)
			w->agent.steer[used++] = agent_steer(m, i, q, &p);
	}
	for (int i = 0; i < w->n; i++)
		sw__fast(w, i)[0] = NAN;
}

/* Step counts are computed in double and compared with the bound before any conversion: a
 * double beyond the range of long converts to an undefined value (1e308 / 0.25 became 0 steps
 * and an empty "complete" run). */
static int run_steps(const sw_model *m, double duration, long *steps, sw_diag *diag)
{
	if (!m)
		return SW_EUSAGE;
	const sw_run_def *r = &m->run;
	if (!(duration > 0.0 && isfinite(duration)) || !(r->step > 0.0 && isfinite(r->step)))
		return sw_diag_add(diag, SW_SEV_ERROR, m->file, m->run_line, 0,
				   "run: duration %g s with step %g s; expected finite numbers > 0",
				   duration, r->step),
		       SW_EINPUT;
	double total = ceil(duration / r->step - 1e-9); /* may be inf */
	if (!(total <= (double)SW_RUN_MAX_STEPS))
		return sw_diag_add(diag, SW_SEV_ERROR, m->file, m->run_line, 0,
				   "run: duration %g s at step %g s is %.3g steps; expected at most "
				   "%ld steps (SW_RUN_MAX_STEPS): a shorter duration or a longer step",
				   duration, r->step, total, SW_RUN_MAX_STEPS),
		       SW_EINPUT;
	if (r->substeps < 1 || r->substeps > SW_RUN_MAX_SUBSTEPS)
		return sw_diag_add(diag, SW_SEV_ERROR, m->file, m->run_line, 0,
				   "run: substeps = %d; expected an integer in 1..%d "
				   "(SW_RUN_MAX_SUBSTEPS)",
				   r->substeps, SW_RUN_MAX_SUBSTEPS),
		       SW_EINPUT;
	if ((long)m->n_agents + m->n_signals > SW_WORLD_MAX_UNITS)
		return sw_diag_add(diag, SW_SEV_ERROR, m->file, 0, 0,
				   "%d agents and %d signals; expected at most %d in all "
				   "(SW_WORLD_MAX_UNITS)",
				   m->n_agents, m->n_signals, SW_WORLD_MAX_UNITS),
		       SW_EINPUT;
	if (steps)
		*steps = (long)total; /* 0 when the duration is below a billionth of a step */
	return SW_SUCCESS;
}

int sw_run_steps(const sw_model *m, long *steps, sw_diag *diag)
{
	return run_steps(m, m ? m->run.duration : 0.0, steps, diag);
}

sw_world_def sw_default_world_def(const sw_model *m)
{
	sw_run_def r = m ? m->run : sw_default_run_def();
	sw_world_def d = {
		.seed = r.seed, .duration = r.duration, .sample = r.sample, .threads = 1};
	return d;
}

int sw_world_create(const sw_model *m, const sw_world_def *def, sw_world **out, sw_diag *diag)
{
	*out = NULL;
	if (!m || !m->finalized || (def && (def->threads < 0 ||
					      (def->plan && sw_plan_model(def->plan) != m))))
		return SW_EUSAGE;
	if (!sw_model_frozen(m))
		return sw_diag_add(diag, SW_SEV_ERROR, m->file, 0, 0,
				   "the model was written after sw_model_finalize; a finalised model "
				   "is read-only (a run's seed, duration and threads go in its "
				   "sw_world_def)"),
		       SW_EUSAGE;
	sw_world_def own = sw_default_world_def(m);
	if (!def)
		def = &own;
	long total = 0;
	int bounds = run_steps(m, def->duration, &total, diag);
	if (bounds != SW_SUCCESS)
		return bounds;
	double sample = def->sample == 0.0 ? m->run.sample : def->sample;
	if (!sw_run_multiple(sample, m->run.step))
		return sw_diag_add(diag, SW_SEV_ERROR, m->file, 0, 0,
				   "the run's sample interval, %g s, is not a positive multiple of "
				   "its step, %g s",
				   sample, m->run.step),
		       SW_EINPUT;
	const gsl_odeiv2_step_type *type = NULL;
	if (strcmp(m->run.integrator, "euler") != 0) {
		for (size_t k = 0; k < sizeof integrators / sizeof integrators[0]; k++)
			if (strcmp(m->run.integrator, integrators[k].name) == 0)
				type = *integrators[k].type;
		if (!type)
			return sw_diag_add(diag, SW_SEV_ERROR, m->file, 0, 0,
					   "unknown integrator '%s'; expected euler, rk2, rk4, rkf45, "
					   "rkck, rk8pd, rk1imp, rk2imp, rk4imp, bsimp, msadams or msbdf",
					   m->run.integrator);
	}
	/* The world's scalars into a probe, the layout pass over it, then the one allocation: the
	 * probe copied to its start and the arrays carved after it. */
	sw_world probe;
	memset(&probe, 0, sizeof probe);
	sw_world *w = &probe;
	int n = m->n_agents, nu = n + m->n_signals;
	size_t no = (size_t)n * (size_t)m->n_obstacles;
	w->m = m;
	w->def = *def;
	w->def.sample = sample;
	w->total_steps = total;
	w->n = n;
	w->ns = m->n_signals;
	w->nu = nu;
	w->unit.type = type;
	w->unit.zeno_max = SW_ZENO_MAX;
	w->threads.cap0 = m->n_prims + (n < 256 ? n : 256) + 1; /* grows when an agent sees more */
	for (int i = 0; i < n; i++)
		w->agent.rmax = fmax(w->agent.rmax, m->agents[i].radius);
	/* Radii as perception reads them: one value when all agents share it (crowds), else an
	 * array (the model's agent records are large, one cache line or more each). */
	w->agent.r0 = n > 0 ? m->agents[0].radius : 0.0;
	int radii_differ = 0;
	for (int i = 0; i < n; i++)
		radii_differ |= m->agents[i].radius != w->agent.r0;
	int need_hist = 0, ghosts = 0;
	for (int i = 0; i < n; i++) {
		const sw_automaton *a = sw__unit_automaton(m, i);
		need_hist |= a && a->uses_progress;
		for (int q = 0; a && q < a->n_modes; q++)
			ghosts |= a->modes[q].ghost; /* snap.flags carries the ghost flags */
	}
	for (int k = 0; k < m->n_prims; k++)
		if (!m->prims[k].is_segment)
			w->pg.rmax = fmax(w->pg.rmax, m->prims[k].radius);
	w->pg.speed_max = sw__obstacle_speed_max(m); /* rate.c */
	w->fast.on = 1;
	w->threads.sense_group = SW_SENSE_GROUP;
	world_layout L = {.n = (size_t)n, .nu = (size_t)nu, .no = no,
			  .ns = type ? (size_t)nu + 1 : 1, .flags = m->run.leave_when_done || ghosts,
			  .rad = radii_differ, .hist = need_hist, .pers = draws_personalities(m)};
	/* the personalities' stream, freed once the layout is filled */
	gsl_rng *r = L.pers ? gsl_rng_alloc(SW_RNG_TYPE) : NULL;
	sw_arena ar = {NULL, 0};
	if ((L.pers && !r) || world_size(w, r, &L) != SW_SUCCESS) {
		gsl_rng_free(r);
		return SW_ENOMEM;
	}
	world_carve(w, &L, &ar);
	if (!(w = sw__block_alloc(ar.at))) {
		gsl_rng_free(r);
		return SW_ENOMEM;
	}
	*w = probe;
	ar = (sw_arena){(char *)w, 0};
	world_carve(w, &L, &ar);
	fill_layout(w, r);
	gsl_rng_free(r);
	for (int j = 0; w->agent.rad && j < n; j++)
		w->agent.rad[j] = m->agents[j].radius;
	sw__hybrid_init(w);
	int built = sw__prim_grid_build(w);
	if (built == SW_SUCCESS)
		built = sw_world_set_threads(w, 1);
	if (built != SW_SUCCESS) {
		if (built == SW_EUSAGE) /* not the caller's mistake: say what it is */
			sw_diag_add(diag, SW_SEV_ERROR, m->file, 0, 0,
				    "internal error: the obstacles' index has more entries than its "
				    "layout counted (please report it with the scenario)");
		sw_world_destroy(w);
		return built;
	}
	int fst = sw__fields_setup(w, diag);
	if (fst != SW_SUCCESS) {
		sw_world_destroy(w);
		return fst;
	}
	for (size_t k = 0; k < no; k++) {
		w->meas.min_clear[k] = INFINITY;
		w->meas.clear_until[k] = -INFINITY; /* measure at the first sensing */
	}
	for (int u = 0; u < nu; u++) {
		double *y = agent_y(w, u);
		if (u < n) {
			const sw_agent *a = &m->agents[u];
			y[SW_STATE_X] = a->position.x;
			y[SW_STATE_Y] = a->position.y;
			y[SW_STATE_PHI] = a->heading;
			y[SW_STATE_V] = a->speed;
			/* Initial weights: both constraints on; relaxation selects the stable point. */
			y[SW_STATE_WTAR] = 1.0;
			y[SW_STATE_WOBS] = 1.0;
			if (w->space3.on)
				sw__start3(w, u);
			if (w->agent.rng) {
				gsl_rng rng = sw__rng(w, u);
				sw_rng_stream_seed(&rng, w->def.seed, (uint64_t)u);
			}
			w->meas.metrics[u].t_reached = NAN;
			w->meas.metrics[u].min_clearance = INFINITY;
			w->meas.metrics[u].min_agent_clearance = INFINITY;
		}
		for (int k = 0; w->unit.aut[u] && k < w->unit.aut[u]->n_vars; k++)
			y[SW_STATE_DIM + 1 + k] = w->unit.aut[u]->vars[k].init;
		if (type) {
			w->unit.ctx[u] = (agent_ctx){w, NULL, u}; /* the worker: sw__integrate */
			w->unit.sys[u] = (gsl_odeiv2_system){sw__agent_flow, sw__agent_jac,
							(size_t)w->unit.dim[u], &w->unit.ctx[u]};
			w->unit.drv[u] = gsl_odeiv2_driver_alloc_y_new(
			    &w->unit.sys[u], type, 0.1 * m->run.step, m->run.atol, m->run.rtol);
			if (!w->unit.drv[u]) {
				sw_world_destroy(w);
				return SW_ENOMEM;
			}
		}
	}
	sw__snapshot(w);
	int st = SW_SUCCESS;
	/* Signals first: agents' guards read them.  The serial worker enters the initial modes. */
	sw_worker *wk = sw__serial(w);
	for (int u = n; u < nu && st == SW_SUCCESS; u++)
		st = sw__hybrid_start(w, wk, u, 0.0, diag);
	for (int s = 0; s < w->ns; s++)
		w->sig.mode0[s] = w->unit.mode[n + s];
	w->sig.n_switch = 0;
	for (int i = 0; i < n && st == SW_SUCCESS; i++) {
		if (w->unit.aut[i])
			st = sw__hybrid_start(w, wk, i, 0.0, diag);
		else
			sw__start_plain(w, wk, i);
	}
	/* SteerBench's sums start after the first sensing: an overlap present at t = 0 counts
	 * once the first step sees it (its depth marks are not set by this sensing) */
	struct sw_steerbench *sb = w->meas.sb;
	w->meas.sb = NULL;
	if (st == SW_SUCCESS) {
		sw__snapshot(w);
		w->nav.defer = def->restoring != 0;
		st = sw__sense_all(w, 0.0, diag);
		w->nav.defer = 0;
	}
	w->meas.sb = sb;
	if (st != SW_SUCCESS) {
		sw_world_destroy(w);
		return st;
	}
	sw__history_push(&w->hist, w);
	sw__steerbench_start(w);
	st = def->threads != 1 ? sw_world_set_threads(w, def->threads) : SW_SUCCESS;
	if (st != SW_SUCCESS) {
		sw_world_destroy(w);
		return st;
	}
	*out = w;
	return SW_SUCCESS;
}

const sw_model *sw_world_model(const sw_world *w) { return w->m; }

uint64_t sw_world_seed(const sw_world *w) { return w->def.seed; }

double sw_world_duration(const sw_world *w) { return w->def.duration; }

double sw_world_sample(const sw_world *w) { return w->def.sample; }

long sw_world_total_steps(const sw_world *w) { return w->total_steps; }

double sw_world_time(const sw_world *w) { return w->t; }

long sw_world_steps(const sw_world *w) { return w->steps; }

int sw_world_agents_done(const sw_world *w) { return w->snap.n_done; }

int sw_world_done(const sw_world *w)
{
	return w->m->run.stop_when_done && w->n > 0 && w->snap.n_done == w->n;
}

void sw_world_agent(const sw_world *w, int i, sw_agent_state *out)
{
	memcpy(out->y, agent_y(w, i), sizeof out->y);
	out->mode = w->unit.mode[i];
	out->target = w->agent.tkind[i] == TGT_TARGET ? w->agent.tindex[i] : -1;
}

int sw_world_unit_mode(const sw_world *w, int u)
{
	return w->unit.mode[u];
}

const double *sw_world_unit_state(const sw_world *w, int u, int *dim)
{
	if (dim)
		*dim = w->unit.dim[u];
	return agent_y(w, u);
}

const sw_steer_def *sw_world_steer(const sw_world *w, int i)
{
	return sw__steer_of(w, i, w->unit.mode[i]);
}

const sw_agent_metrics *sw_world_metrics(const sw_world *w, int i) { return &w->meas.metrics[i]; }

double sw_world_min_clearance(const sw_world *w, int i, int j)
{
	if (!w->m->run.obstacle_clearances)
		return NAN; /* not kept (run obstacle-clearances="false") */
	return w->meas.min_clear[(size_t)i * w->m->n_obstacles + j];
}

int sw_world_perceive(sw_world *w, int i, sw_situation *s, sw_percept *buf, int cap)
{
	/* Perceive into the serial worker's buffer (room for everything), then copy what fits. */
	const sw_steer_def *def = sw__steer_of(w, i, w->unit.mode[i]);
	sw_worker *wk = sw__serial(w);
	int n = sw__perceive_grow(w, wk, i, w->t, agent_y(w, i), sw__wall_near(def), s);
	if (n < 0)
		return -1;
	/* n = s->n_obs + s->n_pass (the agents walked through after the others): the law's
	 * percepts first, then those, each cut to what fits */
	int room = cap > 0 ? cap : 0;
	int k = s->n_obs < room ? s->n_obs : room;
	int kp = s->n_pass < room - k ? s->n_pass : room - k;
	if (k + kp > 0)
		memcpy(buf, wk->scratch, (size_t)(k + kp) * sizeof *buf);
	s->obs = buf;
	s->n_obs = k;
	s->n_pass = kp;
	return n;
}

int sw_world_glm_terms(sw_world *w, int i, sw_glm_terms *out)
{
	const sw_steer_def *def = sw__steer_of(w, i, w->unit.mode[i]);
	if (def->law != SW_LAW_GLM || w->space3.on) /* 3-D: sw_glm3_eval, not these terms */
		return SW_EUSAGE;
	const double *y = agent_y(w, i);
	sw_situation s;
	if (sw__perceive_grow(w, sw__serial(w), i, w->t, y, def->glm.wall_near, &s) < 0)
		return SW_ENOMEM;
	sw_glm_eval(&def->glm, &s, y[SW_STATE_PHI], y[SW_STATE_WTAR], y[SW_STATE_WOBS], out);
	return SW_SUCCESS;
}

int sw_world_run(sw_world *w, sw_sample_fn sample, void *ctx, sw_diag *diag)
{
	long total = w->total_steps; /* checked against the bounds by sw_world_create */
	/* Samples every `every` steps; an interval longer than the run samples its end only. */
	double k = nearbyint(w->def.sample / w->m->run.step);
	long every = k >= 1.0 && k <= (double)total ? (long)k : k >= 1.0 ? total : 1;
	/* A world that has stepped already (restored from a checkpoint) was sampled at its time. */
	int st = sample && w->steps == 0 ? sample(w, ctx) : SW_SUCCESS;
	while (st == SW_SUCCESS && w->steps < total && !sw_world_done(w)) {
		st = sw_world_step(w, diag);
		if (st == SW_SUCCESS && sample &&
		    (w->steps % every == 0 || w->steps == total || sw_world_done(w)))
			st = sample(w, ctx);
		if (w->def.progress_fn)
			w->def.progress_fn((double)w->steps / (double)total, w->def.progress_ctx);
	}
	return st;
}
