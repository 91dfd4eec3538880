/* sim/step.c - the synchronous macro step, in parallel blocks of agents.
 *
 * A step of length h (run.step) from t0 to t1:
 *   1. the signals advance first, one after the other (agents read their switches);
 *   2. every agent advances over [t0, t1] from the same snapshot of the others (snap, the
 *      positions at t0): its flow is integrated, the arrival event (plain laws) or every guard
 *      (automata, sim/hybrid.c) is located to run.event_tol, and the heading noise of (1) is
 *      added as an Euler-Maruyama increment sigma sqrt(h) N(0, 1);
 *   3. the snapshot and the neighbour grid are refreshed to the t1 positions;
 *   4. every agent senses at t1 (sw__sense_range()): it picks its target (and follows or plans
 *      its route there, navigate.c, when the model has <routes>), perceives once, relaxes
 *      its GLM weights (8) to the stable fixed point of the competition parameters (9)-(10) (warm
 *      start or restart), writes the algebraic outputs (commanded speed, PF heading) and measures
 *      its clearances and collisions.  Consecutive moving 2-D GLM agents sense as a group whose
 *      laws are evaluated together (sw_glm_eval_batch(): the bits of one evaluation each, so the
 *      group boundaries, which depend on the thread blocks, change nothing).
 * Step 4 at t1 is what step 2 of the next step needs at its start, from the same state and the
 * same snapshot, so the law is evaluated once per agent and step.  With explicit Euler the GLM
 * heading rate from that evaluation is kept (fast.data, NAN when not valid) and the next step's
 * first (and, with one sub-step, only) flow evaluation at t0 reuses it with y[V] instead of
 * perceiving again (the
 * arithmetic is the same as sw_steer_rhs's, so results are bit for bit those of the full path --
 * tested).  The crowd laws (ttc, sf, csm) keep their whole sensed flow (in fast) the same way,
 * used while the agent's state and mode are those it was sensed with (tested likewise).
 *
 * Parallelism (sim/worker.c, on a pool of POSIX threads, sim/pool.c, which sleeps rather than
 * spins when the machine is busy): steps 2 and 4 are passes that split the agents into one
 * contiguous block per worker (sw__pass), and each stage is a function of the world, the worker
 * and a block or unit:
 *
 *     advance_block(w, wk, lo, hi) -> advance_unit(w, wk, u) -> sw__integrate, arrival_in_step,
 *                                     sw__hybrid_advance (hybrid.c, locate.c, host.c)
 *     sense_block(w, wk, lo, hi)   -> sw__sense_range(w, wk, lo, hi) -> sense_one, finish_group
 *                                     (perceive.c, grid.c, prim_grid.c, space3.c, steerbench.c)
 *
 * A stage reads the world (the snapshot, grids, model and every agent's state: a `const struct
 * sw_world *` parameter where it writes nothing else) and writes only the entries of the unit it
 * steps (of unit, agent, fast, meas and nav.route: its state, mode, target, random stream,
 * sensed flow, metrics, clearances; each group of sw_world says who writes it) and its worker
 * (scratch, GSL workspaces, fault record, buffered events, diagnostics, status; see sw_worker in
 * sim_internal.h).  No two workers share anything, so the result does not depend on the number
 * of threads or on where the blocks end.  Transition events are buffered per worker and
 * delivered after step 2 in agent order, with the unit's state as it was at the event;
 * diagnostics are appended in agent order.  A failing agent does not stop the others: every agent
 * takes its own step, the failed ones are left at their t0 state, the step returns the first
 * failure and the world time stays t0.  The signals (step 1) and world creation run on the
 * serial worker (threads.workers[0], idle between passes). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>

#include "sim_internal.h"
#include "steer/steer_internal.h" /* sw__crowd_sense */

/* sqrt(x^2 + y^2): see sw_v2_len. */
static double sw_hypot(double x, double y)
{
	return sqrt(x * x + y * y);
}

static double *agent_y(const struct sw_world *w, int i)
{
	return w->unit.y + w->unit.off[i];
}

int sw__closest_target(const struct sw_world *w, int i, double t)
{
	if (w->space3.on)
		return sw__closest_target3(w, i, t); /* space3.c */
	const double *y = agent_y(w, i);
	double bd = INFINITY;
	int best = -1;
	for (int k = 0; k < w->m->n_targets; k++) {
		sw_vec2 q = sw__target_at(w, k, t);
		double d = sw_hypot(q.x - y[SW_STATE_X], q.y - y[SW_STATE_Y]);
		if (d < bd) {
			bd = d;
			best = k;
		}
	}
	return best;
}

/* Plain-law agents: the target agent i steers to at time t (bound, else closest). */
static void pick_target(struct sw_world *w, int i, double t)
{
	const sw_model *m = w->m;
	if (w->unit.aut[i]) {
		if (m->agents[i].behaviour >= 0 &&
		    w->unit.aut[i]->modes[w->unit.mode[i]].target_param < 0)
			sw__retarget(w, i, t); /* closest target may change */
		return;
	}
	w->agent.tkind[i] = TGT_NONE;
	int k = m->agents[i].target >= 0 ? m->agents[i].target : sw__closest_target(w, i, t);
	if (k >= 0) {
		w->agent.tkind[i] = TGT_TARGET;
		w->agent.tindex[i] = k;
	}
}

/* Signed arrival margin of a plain-law agent: > 0 away, <= 0 inside the arrival radius. */
static double arrival_margin(const struct sw_world *w, int i, double t, const double *y)
{
	int tg = w->agent.tindex[i];
	if (w->space3.on)
		return sw__target_dist3(w, i, tg, t, y) - w->m->targets[tg].radius; /* space3.c */
	sw_vec2 q = sw__target_at(w, tg, t);
	return sw_hypot(q.x - y[SW_STATE_X], q.y - y[SW_STATE_Y]) - w->m->targets[tg].radius;
}

int sw__moving(const struct sw_world *w, int i)
{
	if (w->unit.aut[i])
		return w->unit.aut[i]->modes[w->unit.mode[i]].moves;
	return w->unit.mode[i] != MODE_ARRIVED;
}

void sw__arrived(struct sw_world *w, int i, double t)
{
	sw_agent_metrics *mt = &w->meas.metrics[i];
	if (!mt->reached) {
		mt->reached = 1;
		mt->t_reached = t;
	}
}

void sw__reached(struct sw_world *w, sw_worker *wk, int i, double t)
{
	sw__arrived(w, i, t);
	if (w->m->agents[i].stop_at_target) {
		w->unit.mode[i] = MODE_ARRIVED;
		sw__worker_event(w, wk, i, t, MODE_STEER, MODE_ARRIVED, "arrive",
				 "dist(target) <= radius");
	}
}

void sw__start_plain(struct sw_world *w, sw_worker *wk, int i)
{
	pick_target(w, i, w->t);
	if (w->agent.tkind[i] == TGT_TARGET && arrival_margin(w, i, w->t, agent_y(w, i)) <= 0.0)
		sw__reached(w, wk, i, w->t);
}

/* --- step 4: sensing -------------------------------------------------------------------- */

/* GLM weights relaxed for agent i's evaluation tm (at the heading whose cosine and sine are in
 * fast[1], fast[2]; writes y[WTAR], y[WOBS]); with the fast path on, also the heading rate (1)
 * into fast[0]; the commanded speed into y[V]. */
static int glm_sense(struct sw_world *w, sw_worker *wk, int i, const sw_steer_def *def,
		     const sw_glm_terms *tm)
{
	const sw_glm_params *p = &def->glm;
	const sw_personality *pers = sw__pers(w, i);
	double *y = agent_y(w, i), *fast = sw__fast(w, i);
	if (p->weights != SW_WEIGHTS_DYNAMIC) {
		double wt[2];
		if (p->weights == SW_WEIGHTS_RESTART) {
			wt[0] = wt[1] = p->w_restart;
		} else {
			wt[0] = fmax(fabs(y[SW_STATE_WTAR]), p->w_floor);
			wt[1] = fmax(fabs(y[SW_STATE_WOBS]), p->w_floor);
		}
		int st = sw_glm_relax_ws(tm->a1, tm->a2, tm->g12, tm->g21, wt, wk->relax);
		if (st != SW_SUCCESS)
			return st;
		y[SW_STATE_WTAR] = wt[0];
		y[SW_STATE_WOBS] = wt[1];
	}
	if (!pers->has_mass)
		y[SW_STATE_V] = tm->v_cmd;
	if (w->fast.on && !w->unit.type && !pers->has_agility && !pers->has_mass &&
	    p->weights != SW_WEIGHTS_DYNAMIC) {
		/* The heading rate sw_steer_rhs computes (rhs.c glm_rhs), same operations. */
		fast[0] = fabs(y[SW_STATE_WTAR]) * tm->f_tar + fabs(y[SW_STATE_WOBS]) * tm->f_obs;
	}
	return SW_SUCCESS;
}

/* Obstacle clearances and collision episodes of agent i at its current position.
 *
 * Skipping.  A clearance is 1-Lipschitz in the agent's position, and the agent has moved at most
 * the growth of its path length (a sum of chords) since a static obstacle was last measured, so
 * while that growth stays below the last clearance minus max(recorded minimum, 0) the obstacle
 * can neither lower its minimum nor overlap: it is not measured again until then
 * (clear_until, a path length, with a relative margin of 1e-9 against rounding in the sums).
 * Results are those of measuring every obstacle at every step (tables of models/README.md
 * unchanged); receding and passed obstacles cost nothing, approached ones are measured. */
static void measure_obstacle(struct sw_world *w, int i, int j, sw_vec2 p, int *overlapping)
{
	const sw_model *m = w->m;
	size_t k = (size_t)i * m->n_obstacles + j;
	sw_agent_metrics *mt = &w->meas.metrics[i];
	double path = mt->path_length;
	if (path < w->meas.clear_until[k])
		return; /* cannot matter yet (above) */
	double c = sw_model_obstacle_clearance(m, j, w->t, p, m->agents[i].radius);
	if (c < w->meas.min_clear[k])
		w->meas.min_clear[k] = c;
	if (c < mt->min_clearance)
		mt->min_clearance = c;
	if (c < 0.0) {
		*overlapping = 1;
		if (!w->meas.overlap[k])
			mt->collisions++;
		if (-c > mt->max_penetration)
			mt->max_penetration = -c;
	}
	w->meas.overlap[k] = c < 0.0;
	if (w->meas.sb)
		sw__steerbench_obstacle(w->meas.sb, m, i, j, c);
	/* >= 0 unless overlapping; without per-obstacle minima (run obstacle-clearances off) only
	 * the agent's smallest clearance and overlaps need to stay exact */
	double room =
	    c - fmax(m->run.obstacle_clearances ? w->meas.min_clear[k] : mt->min_clearance, 0.0);
	w->meas.clear_until[k] = c >= 0.0 && m->obstacles[j].motion.kind == SW_MOTION_NONE
				    ? path + room - 1e-9 * (1.0 + fabs(c) + path)
				    : -INFINITY;
}

/* Through the obstacle index (prim_grid.c), when only the agent's smallest clearance and the
 * overlaps count (run obstacle-clearances off) and no obstacle overlapped it at the last measure:
 * an obstacle whose box is farther than d = max(smallest clearance, 0) + radius from the agent
 * (sw__obstacles_near) has a clearance above max(smallest clearance, 0), so it can neither lower
 * the minimum nor overlap, and its flags are already clear.  Only the obstacles within d are
 * measured; when that lowers the minimum below what d assumed (or the agent has none yet: the
 * first measure starts from d = radius plus a cell and widens) the search repeats with the new
 * d (a measure repeated at the same instant changes nothing).  When the index refuses, every
 * obstacle is measured.  The results are those of the loop over every obstacle. */
static void measure_some_obstacles(struct sw_world *w, sw_worker *wk, int i, double dt)
{
	const sw_model *m = w->m;
	const double *y = agent_y(w, i);
	sw_vec2 p = sw_v2(y[SW_STATE_X], y[SW_STATE_Y]);
	sw_agent_metrics *mt = &w->meas.metrics[i];
	double r = m->agents[i].radius;
	int overlapping = 0, done = 0;
	if (w->pg.on && !m->run.obstacle_clearances && !w->meas.touch[i]) {
		double d = fmax(mt->min_clearance, 0.0) + r;
		if (!(d < INFINITY))
			d = r + w->pg.ob.cell;
		for (;;) {
			const int *list;
			int n = sw__obstacles_near(&w->pg, m, wk, p, d, &list);
			if (n < 0)
				break;
			for (int s = 0; s < n; s++)
				measure_obstacle(w, i, list[s], p, &overlapping);
			double need = fmax(mt->min_clearance, 0.0) + r;
			if (need <= d) {
				done = 1;
				break;
			}
			d = need < INFINITY ? need : 4.0 * d;
		}
	}
	if (!done)
		for (int j = 0; j < m->n_obstacles; j++)
			measure_obstacle(w, i, j, p, &overlapping);
	if (w->pg.on)
		w->meas.touch[i] = (unsigned char)overlapping;
	if (overlapping)
		mt->overlap_time += dt;
}

/* measure_some_obstacles, when the model has some.  (The test apart: a crowd without obstacles
 * would otherwise pay that function's entry, about 28 instructions an agent and step.) */
static inline void measure_obstacles(struct sw_world *w, sw_worker *wk, int i, double dt)
{
	if (w->m->n_obstacles > 0)
		measure_some_obstacles(w, wk, i, dt);
	else if (w->pg.on) /* nothing to measure (what the loops leave) */
		w->meas.touch[i] = 0;
}

/* Agent-agent clearances of agent i from its percepts (every other agent within its perception
 * range, except the one it chases, which is checked here).  Agents that do not perceive each
 * other are independent (ghosts, as in the lane experiments): no agent-agent metrics. */
static void measure_agents(struct sw_world *w, int i, const sw_situation *s)
{
	const sw_model *m = w->m;
	if (!m->run.agents_perceive)
		return;
	sw_agent_metrics *mt = &w->meas.metrics[i];
	/* The agents' percepts follow the primitives' (sw__perceive), the agents walked through
	 * (ghost modes) last: their overlaps count too.  Their smallest clearance, NaN ignored,
	 * without branches on the data (a running minimum: one vminsd a percept); it is below the
	 * recorded one, or overlaps, exactly when one of them is (ties keep the earlier value, as
	 * a running minimum over the recorded one and then each percept would). */
	int n = s->n_obs + s->n_pass, k = sw__prim_percepts(s, n);
	double least = INFINITY;
	for (; k < n; k++)
		least = s->obs[k].clearance < least ? s->obs[k].clearance : least;
	int hit = least < 0.0;
	if (least < mt->min_agent_clearance)
		mt->min_agent_clearance = least;
	if (w->agent.tkind[i] == TGT_AGENT) {
		int j = w->agent.tindex[i];
		const double *yj = w->snap.pos + 2 * (size_t)j;
		double c = sw_hypot(yj[0] - s->x, yj[1] - s->y) - sw__radius(w, j) -
			   sw__radius(w, i);
		if (c <= m->agents[i].perception) {
			if (c < mt->min_agent_clearance)
				mt->min_agent_clearance = c;
			if (c < 0.0)
				hit = 1;
		}
	}
	if (hit && !w->meas.agent_overlap[i])
		mt->agent_collisions++;
	w->meas.agent_overlap[i] = (unsigned char)hit;
}

/* Metrics and SteerBench sums of agent i after its law has run with status st.  An agent that
 * has left the world (leave-when-done) is no longer measured: it stands where it finished,
 * where others may walk through it. */
static int sense_tail(struct sw_world *w, sw_worker *wk, int i, const sw_situation *s, double dt,
		      int st)
{
	if (!sw__gone(w, i)) {
		measure_obstacles(w, wk, i, dt);
		measure_agents(w, i, s);
	}
	if (st == SW_SUCCESS && dt > 0.0 && w->meas.sb) /* a frame ended: SteerBench sums */
		st = sw__steerbench_agent(w->meas.sb, w, wk, i);
	return st;
}

/* Moving 2-D GLM agents whose evaluations are made together (sw_glm_eval_batch): their percepts
 * stay in the worker's percept buffer, one after the other, until the group is finished. */
typedef struct glm_group {
	int n, used; /* agents, and percepts they hold in the scratch buffer */
	int idx[SW_SENSE_GROUP];
	const sw_steer_def *def[SW_SENSE_GROUP];
	sw_situation s[SW_SENSE_GROUP];
} glm_group;

/* Finishes the sensing of the group's agents, in order; returns the first failure. */
static int finish_group(struct sw_world *w, sw_worker *wk, glm_group *g, double dt)
{
	const sw_glm_params *p[SW_SENSE_GROUP];
	const sw_situation *sp[SW_SENSE_GROUP];
	double c[SW_SENSE_GROUP], sn[SW_SENSE_GROUP];
	sw_glm_terms tm[SW_SENSE_GROUP];
	for (int k = 0; k < g->n; k++) {
		int i = g->idx[k];
		double *fast = sw__fast(w, i);
		sw_steer_velocity(1.0, agent_y(w, i)[SW_STATE_PHI], fast + 1); /* kept for the flow */
		p[k] = &g->def[k]->glm;
		sp[k] = &g->s[k];
		c[k] = fast[1];
		sn[k] = fast[2];
	}
	sw_glm_eval_batch(g->n, p, sp, c, sn, 1.0, 1.0, tm);
	int status = SW_SUCCESS;
	for (int k = 0; k < g->n; k++) {
		int i = g->idx[k];
		int st = sense_tail(w, wk, i, &g->s[k], dt, glm_sense(w, wk, i, g->def[k], &tm[k]));
		if (st != SW_SUCCESS && status == SW_SUCCESS) {
			status = st;
			if (wk->fault_u < 0)
				wk->fault_u = i;
		}
	}
	g->n = g->used = 0;
	return status;
}

/* Sensing of agent i outside a group (every agent that is not a moving 2-D GLM agent). */
static int sense_one(struct sw_world *w, sw_worker *wk, int i, const sw_steer_def *def, int mv,
		     double dt)
{
	double *y = agent_y(w, i);
	if (w->space3.on) { /* 3-D world: space3.c senses (no SteerBench: model3.c) */
		int st3 = sw__sense3(w, wk, i, def, mv);
		if (st3 == SW_SUCCESS) /* vertical obstacles: the planar clearance */
			measure_obstacles(w, wk, i, dt);
		return st3;
	}
	sw_situation s;
	if (sw__perceive_grow(w, wk, i, w->t, y, sw__wall_near(def), &s) < 0)
		return SW_ENOMEM;
	if (!mv) {
		y[SW_STATE_V] = 0.0;
		y[SW_STATE_OMEGA] = 0.0;
	} else if (w->fast.crowd && w->fast.on && sw__crowd_law(def->law)) {
		/* The algebraic outputs and the flow the next step starts with: the same law, state
		 * and situation (integrate.c uses it while the agent stays in this mode, whose every
		 * jump clears it); the heading's cosine and sine from the snapshot (ttc, sf). */
		double d[4], *f = sw__fast(w, i);
		const double *he = sw__crowd_heading(def->law) ? f + 1 : NULL;
		int n_prim = sw__prim_percepts(&s, s.n_obs);
		if (sw__crowd_sense(def, &s, n_prim, he, y, d) == SW_SUCCESS) {
			f[1] = d[1];
			f[2] = d[2];
			f[3] = d[3];
			f[0] = d[0]; /* valid */
		}
	} else {
		sw_steer_algebraic(def, sw__pers(w, i), &s, y);
	}
	return sense_tail(w, wk, i, &s, dt, SW_SUCCESS);
}

int sw__sense_range(struct sw_world *w, sw_worker *wk, int lo, int hi, double dt)
{
	glm_group g;
	g.n = g.used = 0;
	int status = SW_SUCCESS;
	wk->fault_u = -1;
	for (int i = lo; i < hi; i++) {
		int st = SW_SUCCESS, rst = SW_SUCCESS, mv = sw__moving(w, i);
		sw__fast(w, i)[0] = NAN;
		if (mv) {
			pick_target(w, i, w->t);
			if (w->nav.route) /* navigate.c */
				rst = sw__route_update(w, wk, i);
		}
		const sw_steer_def *def = sw__steer_of(w, i, w->unit.mode[i]);
		if (!w->space3.on && mv && def->law == SW_LAW_GLM) {
			const double *y = agent_y(w, i);
			double wn = sw__wall_near(def);
			int n =
			    sw__perceive_from(w, wk, i, w->t, y, wn, &g.s[g.n], g.used, g.n > 0);
			if (n == -2) { /* the group holds the buffer: finish it first */
				st = finish_group(w, wk, &g, dt);
				n = sw__perceive_from(w, wk, i, w->t, y, wn, &g.s[0], 0, 0);
			}
			if (n < 0) {
				if (st == SW_SUCCESS)
					st = SW_ENOMEM;
			} else {
				g.idx[g.n] = i;
				g.def[g.n++] = def;
				g.used += n;
				if (g.n >= w->threads.sense_group || g.n == SW_SENSE_GROUP) {
					int sg = finish_group(w, wk, &g, dt);
					if (st == SW_SUCCESS)
						st = sg;
				}
			}
		} else {
			/* Finish the group first, so that failures come in agent order. */
			if (g.n > 0)
				st = finish_group(w, wk, &g, dt);
			int so = sense_one(w, wk, i, def, mv, dt);
			if (st == SW_SUCCESS)
				st = so;
		}
		if (st == SW_SUCCESS)
			st = rst;
		if (st != SW_SUCCESS && status == SW_SUCCESS) {
			status = st;
			if (wk->fault_u < 0) /* not set by a group: this agent failed */
				wk->fault_u = i;
		}
	}
	if (g.n > 0) {
		int st = finish_group(w, wk, &g, dt);
		if (status == SW_SUCCESS)
			status = st;
	}
	return status;
}

/* --- step 2: advancing one agent ---------------------------------------------------------- */

#if defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__
#error "swerve detects non-finite states: build without -ffast-math / -ffinite-math-only"
#endif
static inline int finite_sum(const double *y, int dim)
{
	/* y[j] * 0 is NaN exactly when y[j] is infinite or NaN, so the sum is NaN exactly when an
	 * entry is not finite: two operations an entry instead of a test and a branch (an agent's
	 * state is checked twice a step) */
	double z = 0.0;
	for (int j = 0; j < dim; j++)
		z += y[j] * 0.0;
	return z == z;
}

/* Whether y[0, dim) is finite: a plain agent's state (SW_STATE_DIM entries) with a constant trip
 * count, which the compiler unrolls (the vectorised loop's set-up cost more than its work). */
static int state_finite(const double *y, int dim)
{
	return dim == SW_STATE_DIM ? finite_sum(y, SW_STATE_DIM) : finite_sum(y, dim);
}

/* The arrival margin in sw__locate's form: > 0 exactly when within the arrival radius. */
static double arrival_along(const struct sw_world *w, sw_worker *wk, int i, double t0, double t,
			    const double *y, const void *arg)
{
	(void)wk, (void)t0, (void)arg;
	double m = -arrival_margin(w, i, t, y);
	return m == 0.0 ? DBL_MIN : m;
}

/* Agent i (plain law, steering to a target) over [t0, t1] from y0 to y: when it comes within
 * its target's arrival radius inside the step, however briefly, the first such instant is
 * located (sim/locate.c: the margin |p - q| - radius changes at most at the agent's speed bound
 * plus the target's speed) and the agent's state left there (or, when it does not stop at its
 * target, at t1). */
static int arrival_in_step(struct sw_world *w, sw_worker *wk, int i, double t0, double t1,
			   const double *y0, double *y)
{
	if (!state_finite(y, SW_STATE_DIM))
		return SW_SUCCESS; /* reported by the caller */
	const sw_motion *mo = &w->m->targets[w->agent.tindex[i]].motion;
	double tv = mo->kind == SW_MOTION_LINEAR	  ? hypot(mo->velocity.x, mo->velocity.y)
		    : mo->kind == SW_MOTION_WAYPOINTS ? fabs(mo->speed)
						      : 0.0;
	double hi, rate = sw__speed_bound(w, i, 0, y0, y) + tv;
	double m1 = arrival_along(w, wk, i, t0, t1, y, NULL);
	if (!(m1 > 0.0) && m1 + rate * (t1 - t0) < 0.0)
		return SW_SUCCESS; /* out of reach within the step: m <= m1 + rate (t1 - t) < 0 */
	double m0 = arrival_along(w, wk, i, t0, t0, y0, NULL);
	if (m0 > 0.0)
		return SW_SUCCESS; /* within the radius at the start: found at the last step */
	int st = sw__locate(w, wk, i, t0, t1, y0, m0, m1, rate, 0, arrival_along, NULL, &hi);
	if (st != SW_SUCCESS || !(hi <= t1))
		return st;
	memcpy(y, y0, (size_t)w->unit.dim[i] * sizeof *y);
	st = sw__integrate(w, wk, i, t0, hi, y);
	if (st != SW_SUCCESS)
		return st;
	sw__reached(w, wk, i, hi);
	if (w->unit.mode[i] != MODE_ARRIVED) /* keeps going: finish the step */
		st = sw__integrate(w, wk, i, hi, t1, y);
	return st;
}

static int numeric_failure(const struct sw_world *w, int u, const double *y0, int st,
			   const char *what, sw_diag *diag)
{
	if (st == SW_EZENO || st == SW_EMODEL)
		return st; /* already reported with its own message */
	/* Out of memory stays SW_ENOMEM (a signal's switch not recorded, hybrid.c fire); every
	 * other failure of the unit's step is numerical. */
	int code = st == SW_ENOMEM ? SW_ENOMEM : SW_ENUMERIC;
	if (u >= w->n)
		return sw_diag_add(diag, SW_SEV_ERROR, w->m->file, w->m->signals[u - w->n].line, 0,
				   "signal '%s' (mode '%s') at t = %.9g s: %s",
				   w->m->signals[u - w->n].name,
				   sw_world_mode_name(w, u, w->unit.mode[u]), w->t, what),
		       code;
	const sw_agent *a = &w->m->agents[u];
	char vars[200] = "";
	for (int k = 0, len = 0;
	     w->unit.aut[u] && k < w->unit.aut[u]->n_vars && len < (int)sizeof vars; k++)
		len += snprintf(vars + len, sizeof vars - (size_t)len, ", %s = %.17g",
				w->unit.aut[u]->vars[k].name, y0[SW_STATE_DIM + 1 + k]);
	sw_diag_add(diag, SW_SEV_ERROR, w->m->file, a->line, 0,
		    "agent '%s' (mode '%s') at t = %.9g s: %s; last good state x = %.17g, y = %.17g, "
		    "heading = %.17g, speed = %.17g%s",
		    a->name, sw_world_mode_name(w, u, w->unit.mode[u]), w->t, what,
		    y0[SW_STATE_X], y0[SW_STATE_Y], y0[SW_STATE_PHI], y0[SW_STATE_V], vars);
	return code;
}

/* Unit u over [t0, t1] on worker wk: on failure its state is restored to t0 and the error
 * reported. */
static int advance_unit(struct sw_world *w, sw_worker *wk, int u, double t0, double t1,
			sw_diag *diag)
{
	double *y = agent_y(w, u);
	double *y0 = wk->y_step;
	memcpy(y0, y, (size_t)w->unit.dim[u] * sizeof *y0);
	int st = SW_SUCCESS;
	if (w->unit.aut[u]) {
		st = sw__hybrid_advance(w, wk, u, t0, t1, diag);
	} else if (w->unit.mode[u] != MODE_ARRIVED) {
		st = sw__integrate(w, wk, u, t0, t1, y);
		if (st == SW_SUCCESS && w->agent.tkind[u] == TGT_TARGET)
			st = arrival_in_step(w, wk, u, t0, t1, y0, y);
	}
	if (st == SW_SUCCESS && !state_finite(y, w->unit.dim[u]))
		st = SW_ENUMERIC;
	if (st != SW_SUCCESS) {
		char what[SW_DIAG_MSG / 2];
		sw__fault_describe(w, wk, u, st, y, what, sizeof what);
		memcpy(y, y0, (size_t)w->unit.dim[u] * sizeof *y0);
		return numeric_failure(w, u, y0, st, what, diag);
	}
	if (u < w->n) { /* chord from the step-start position (the snapshot), jumps left out */
		const double *ys = w->snap.pos + 2 * (size_t)u;
		double *jd =
		    w->agent.jumped ? w->agent.jumped + 2 * (size_t)u : (double[2]){0.0, 0.0};
		w->meas.metrics[u].path_length +=
		    w->space3.on ? sw__chord3(w, u, y)
			    : sw_hypot(y[SW_STATE_X] - ys[0] - jd[0], y[SW_STATE_Y] - ys[1] - jd[1]);
		jd[0] = jd[1] = 0.0;
	}
	if (u < w->n && sw__moving(w, u)) {
		const sw_steer_def *def = sw__steer_of(w, u, w->unit.mode[u]);
		double sigma = sw__law_noise(def); /* rad / sqrt(s) */
		if (sigma > 0.0) {
			gsl_rng rng = sw__rng(w, u);
			if (w->space3.on) /* 3-D: an isotropic turn of u (space3.c) */
				sw__noise3(w, u, &rng, sigma * sqrt(t1 - t0), y);
			else
				y[SW_STATE_PHI] += sigma * sqrt(t1 - t0) *
						   gsl_ran_gaussian_ziggurat(&rng, 1.0);
		}
	}
	return SW_SUCCESS;
}

/* The snapshot's headings and velocities of agents [lo, hi) (each agent writes only its own
 * entries: a pass over blocks of agents when threads are on).  Headings (cos, sin) for the laws
 * that align.  Velocities for the time-to-collision law: speed along the heading (PF: its
 * algebraic heading); an agent that stands still (arrived, or in a mode that does not move) has
 * none.  A moving ttc or sf agent keeps its heading's cosine and sine in its sensed-flow entry
 * for its sensing (sense_one), which follows without changing the heading. */
static void snap_motion(struct sw_world *w, int lo, int hi)
{
	for (int j = lo; w->snap.h && j < hi; j++) {
		double phi = w->unit.y[w->unit.off[j] + SW_STATE_PHI];
		w->snap.h[2 * (size_t)j] = cos(phi);
		w->snap.h[2 * (size_t)j + 1] = sin(phi);
	}
	for (int j = lo; (w->snap.v || w->fast.crowd) && j < hi; j++) {
		const double *yj = w->unit.y + w->unit.off[j];
		int mv = sw__moving(w, j);
		double *e = NULL;
		if (mv && w->fast.crowd) {
			sw_law law = sw__steer_of(w, j, w->unit.mode[j])->law;
			if (sw__crowd_heading(law)) {
				e = sw__fast(w, j) + 1;
				e[-1] = NAN; /* no flow kept: the entry holds the heading */
				sw_steer_velocity(1.0, yj[SW_STATE_PHI], e);
			}
		}
		if (!w->snap.v)
			continue;
		double *v = w->snap.v + 2 * (size_t)j;
		if (e) { /* sw_steer_velocity(y[V], y[PHI]) with its cosine and sine */
			v[0] = yj[SW_STATE_V] * e[0];
			v[1] = yj[SW_STATE_V] * e[1];
		} else if (mv) {
			sw_steer_velocity(yj[SW_STATE_V], yj[SW_STATE_PHI], v);
		} else {
			v[0] = v[1] = 0.0;
		}
	}
}

/* --- passes --------------------------------------------------------------------------------- */

/* Step 2 for a block: agents [lo, hi) over [t0, t1] (arg: the two times). */
static void advance_block(struct sw_world *w, sw_worker *wk, int lo, int hi, const void *arg)
{
	const double *t = arg;
	for (int i = lo; i < hi; i++) {
		int st = advance_unit(w, wk, i, t[0], t[1], wk->diag);
		if (st != SW_SUCCESS && wk->status == SW_SUCCESS)
			wk->status = st;
	}
}

/* Step 4 for a block (arg: the step just taken). */
static void sense_block(struct sw_world *w, sw_worker *wk, int lo, int hi, const void *arg)
{
	wk->status = sw__sense_range(w, wk, lo, hi, *(const double *)arg);
}

/* The snapshot of agents [lo, hi) (each agent writes only its own entries): positions, headings
 * and velocities (snap_motion), 3-D heights and directions, the done and ghost flags; the
 * block's count of done agents and box of positions into wk (the serial part adds the counts
 * and joins the boxes for the grid). */
static void snap_block(struct sw_world *w, sw_worker *wk, int lo, int hi, const void *arg)
{
	(void)arg;
	/* fmin and fmax by comparisons (NaN ignored alike); joined in block order, they give
	 * the bounds of one loop over every agent */
	double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
	for (int j = lo; j < hi; j++) {
		const double *y = w->unit.y + w->unit.off[j];
		double *q = w->snap.pos + 2 * (size_t)j;
		q[0] = y[SW_STATE_X];
		q[1] = y[SW_STATE_Y];
		x0 = q[0] < x0 ? q[0] : x0;
		x1 = q[0] > x1 ? q[0] : x1;
		y0 = q[1] < y0 ? q[1] : y0;
		y1 = q[1] > y1 ? q[1] : y1;
	}
	wk->snap_box[0] = x0, wk->snap_box[1] = x1, wk->snap_box[2] = y0, wk->snap_box[3] = y1;
	snap_motion(w, lo, hi);
	if (w->space3.on)
		sw__snapshot3(&w->space3, w, lo, hi);
	int done = 0;
	for (int j = lo; j < hi; j++) {
		int d = sw__agent_done(w, j);
		done += d;
		if (w->snap.flags)
			w->snap.flags[j] = (unsigned char)((d && w->m->run.leave_when_done ?
							   SW_SNAP_GONE : 0) |
							  (sw__ghost_mode(w, j) ? SW_SNAP_GHOST : 0));
	}
	wk->snap_done = done;
}

int sw__sense_all(struct sw_world *w, double dt, sw_diag *diag)
{
	const sw_worker *failed;
	int status = sw__pass(w, SW_PASS_SENSE, sense_block, &dt, diag, &failed);
	/* Sensing reports nothing itself: name the agent, mode and time here. */
	int u = failed ? failed->fault_u : -1;
	if (status != SW_SUCCESS && status != SW_ENOMEM && u >= 0) {
		char what[160];
		snprintf(
		    what, sizeof what,
		    "its steering law could not be evaluated at the step end (%s: the perceived "
		    "situation gave no finite heading rate or speed)",
		    sw_strerror(status));
		status = numeric_failure(w, u, agent_y(w, u), status, what, diag);
	}
	return status;
}

void sw_world_set_fast_path(sw_world *w, int on)
{
	w->fast.on = on ? 1 : 0;
	for (int i = 0; !w->fast.on && i < w->n; i++)
		sw__fast(w, i)[0] = NAN;
}

/* --- the step ------------------------------------------------------------------------------- */

void sw__snapshot(struct sw_world *w)
{
	/* In a pass when a cosine and a sine per agent make it worth waking the threads (the
	 * positions and flags come along); else serially, as one block. */
	int nt = sw__pass_threads(w);
	if ((w->snap.h || w->snap.v || w->fast.crowd) && nt > 1) {
		sw__pass(w, SW_PASS_MOTION, snap_block, NULL, NULL, NULL);
	} else {
		nt = 1;
		snap_block(w, sw__serial(w), 0, w->n, NULL);
	}
	/* The blocks' counts and boxes, joined in block order (serial from here; an empty
	 * block's box changes nothing). */
	const sw_worker *wk = w->threads.workers;
	double box[4] = {INFINITY, -INFINITY, INFINITY, -INFINITY};
	int done = 0;
	for (int k = 0; k < nt; k++) {
		const double *b = wk[k].snap_box;
		box[0] = b[0] < box[0] ? b[0] : box[0];
		box[1] = b[1] > box[1] ? b[1] : box[1];
		box[2] = b[2] < box[2] ? b[2] : box[2];
		box[3] = b[3] > box[3] ? b[3] : box[3];
		done += wk[k].snap_done;
	}
	w->snap.n_done = done;
	/* the serial worker's grid-query buffer (n entries and more) holds the agents' buckets */
	sw__grid_build(&w->grid, w, box, sw__serial(w)->found);
}

int sw_world_step(sw_world *w, sw_diag *diag)
{
	const sw_model *m = w->m;
	double h = m->run.step, t0 = w->t, t1 = t0 + h;
	/* snap (and the grid) already hold the step-start positions: they are refreshed at the end
	 * of sw_world_create and of every step, and nothing changes the world in between. */
	for (int s = 0; s < w->ns; s++)
		w->sig.mode0[s] = w->unit.mode[w->n + s];
	w->sig.n_switch = 0;
	/* 1. Signals, in order (agents may read their switches in this step), on the serial
	 * worker. */
	for (int u = w->n; u < w->nu; u++) {
		int st = advance_unit(w, sw__serial(w), u, t0, t1, diag);
		if (st != SW_SUCCESS)
			return st;
	}
	/* 2. Agents, in parallel blocks. */
	double span[2] = {t0, t1};
	int st = sw__pass(w, SW_PASS_ADVANCE, advance_block, span, diag, NULL);
	if (st != SW_SUCCESS)
		return st; /* failed agents are back at t0; the others took their step */
	w->t = t1;
	w->steps++;
	if (m->periodic_x > 0.0) /* a periodic world: back into the strip 0 <= x < L */
		for (int i = 0; i < w->n; i++) {
			double *x = &w->unit.y[w->unit.off[i] + SW_STATE_X];
			*x -= m->periodic_x * floor(*x / m->periodic_x);
			if (*x >= m->periodic_x) /* rounding of a tiny negative x */
				*x = 0.0;
		}
	/* 3. Outputs and metrics use the time-t1 positions of every agent. */
	sw__snapshot(w);
	/* 4. Sensing at t1. */
	if ((st = sw__sense_all(w, h, diag)) != SW_SUCCESS)
		return st;
	sw__history_push(&w->hist, w);
	return SW_SUCCESS;
}
