/* tests/emit_util.c - random scenes, native perception and the twin check shared by the emitter
 * tests (declarations and the rules followed: tests/emit_util.h, tests/test_emit.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_util.h"
#include "tests.h"

const char *const et_state_names[SW_STATE_DIM] = {"x",     "y",     "heading", "turn_rate",
						  "speed", "w_tar", "w_obs"};
const char *const et_agent_names[4 * MAX_AGENTS] = {"x1", "y1", "v1", "h1", "x2", "y2", "v2", "h2",
						    "x3", "y3", "v3", "h3", "x4", "y4", "v4", "h4"};

gsl_rng *et_rng_new(unsigned long seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, seed);
	return r;
}

double et_unif(gsl_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * gsl_rng_uniform(r);
}

int et_coin(gsl_rng *r, double p)
{
	return gsl_rng_uniform(r) < p;
}

void et_scene_init(et_scene *sc)
{
	memset(sc, 0, sizeof *sc);
	sw_emit_ctx *c = &sc->ctx;
	for (int k = 0; k < SW_STATE_DIM; k++) {
		c->slot[k] = k;
		c->name[k] = et_state_names[k];
	}
	c->t_slot = SLOT_T;
	c->t_name = "t";
	c->radius = 0.25;
	c->perception = INFINITY;
	c->obs = sc->obs;
	c->agents = sc->agents;
}

void et_add_disc(et_scene *sc, double x, double y, double r, double vx, double vy)
{
	sw_emit_obstacle *o = &sc->obs[sc->ctx.n_obs];
	memset(o, 0, sizeof *o);
	o->ax = x;
	o->ay = y;
	o->radius = r;
	o->vx = vx;
	o->vy = vy;
	o->id = sc->ctx.n_obs++;
}

void et_add_segment(et_scene *sc, double ax, double ay, double bx, double by, double vx, double vy)
{
	sw_emit_obstacle *o = &sc->obs[sc->ctx.n_obs];
	memset(o, 0, sizeof *o);
	o->is_segment = 1;
	o->ax = ax;
	o->ay = ay;
	o->bx = bx;
	o->by = by;
	o->vx = vx;
	o->vy = vy;
	o->id = sc->ctx.n_obs++;
}

void et_add_agent(et_scene *sc, double x, double y, double r)
{
	int j = sc->ctx.n_agents++;
	sw_emit_agent *a = &sc->agents[j];
	a->x_slot = SLOT_AGENT(j);
	a->y_slot = SLOT_AGENT(j) + 1;
	a->v_slot = SLOT_AGENT(j) + 2;
	a->phi_slot = SLOT_AGENT(j) + 3;
	a->x_name = et_agent_names[4 * j];
	a->y_name = et_agent_names[4 * j + 1];
	a->v_name = et_agent_names[4 * j + 2];
	a->phi_name = et_agent_names[4 * j + 3];
	a->radius = r;
	a->id = -1 - j;
	sc->agent_xy[j][0] = x;
	sc->agent_xy[j][1] = y;
	sc->agent_vphi[j][0] = 0.0;
	sc->agent_vphi[j][1] = 0.0;
}

/* A random scene: 0..8 discs, 0..3 segments, some moving, 0..3 agents, target, perception. */
void et_random_scene(gsl_rng *r, et_scene *sc)
{
	et_random_scene_n(r, sc, 8, 3, 3, 0);
}

void et_random_scene_n(gsl_rng *r, et_scene *sc, int nd_max, int ns_max, int na_max, int velocities)
{
	et_scene_init(sc);
	sc->ctx.radius = et_unif(r, 0.0, 0.4);
	sc->t = et_coin(r, 0.3) ? 0.0 : et_unif(r, 0.0, 8.0);
	int nd = (int)gsl_rng_uniform_int(r, (unsigned long)nd_max + 1);
	int ns = (int)gsl_rng_uniform_int(r, (unsigned long)ns_max + 1);
	for (int i = 0; i < nd; i++) {
		int mv = et_coin(r, 0.3);
		et_add_disc(sc, et_unif(r, -6.0, 6.0), et_unif(r, -6.0, 6.0),
			    et_coin(r, 0.1) ? 0.0 : et_unif(r, 0.05, 1.2),
			    mv ? et_unif(r, -1.0, 1.0) : 0.0, mv ? et_unif(r, -1.0, 1.0) : 0.0);
	}
	for (int i = 0; i < ns; i++) {
		int mv = et_coin(r, 0.2);
		double ax = et_unif(r, -6.0, 6.0), ay = et_unif(r, -6.0, 6.0),
		       len = et_unif(r, 0.2, 8.0);
		double th = et_unif(r, -PI, PI);
		if (et_coin(r, 0.05))
			len = 0.0; /* degenerate */
		et_add_segment(sc, ax, ay, ax + len * cos(th), ay + len * sin(th),
			       mv ? et_unif(r, -1.0, 1.0) : 0.0, mv ? et_unif(r, -1.0, 1.0) : 0.0);
	}
	int na = (int)gsl_rng_uniform_int(r, (unsigned long)na_max + 1);
	for (int j = 0; j < na; j++) {
		et_add_agent(sc, et_unif(r, -6.0, 6.0), et_unif(r, -6.0, 6.0),
			     et_unif(r, 0.1, 0.4));
		if (velocities) { /* speed (sometimes 0: stopped or arrived) and heading */
			sc->agent_vphi[j][0] = et_coin(r, 0.2) ? 0.0 : et_unif(r, -0.5, 1.6);
			sc->agent_vphi[j][1] = et_unif(r, -PI, PI);
		}
	}
	sc->ctx.has_target = et_coin(r, 0.85);
	sc->ctx.tx = et_unif(r, -8.0, 8.0);
	sc->ctx.ty = et_unif(r, -8.0, 8.0);
	if (et_coin(r, 0.3)) {
		sc->ctx.tvx = et_unif(r, -0.8, 0.8);
		sc->ctx.tvy = et_unif(r, -0.8, 0.8);
	}
	sc->ctx.perception = et_coin(r, 0.5) ? INFINITY : et_unif(r, 0.3, 6.0);
}

/* --- the native side: perception as src/sim/perceive.c ------------------------------------- */

static void et_put(sw_percept *o, double dx, double dy, double rho, double c, int id)
{
	o->dx = dx;
	o->dy = dy;
	o->dist = sqrt(dx * dx + dy * dy);
	o->rho = rho;
	o->clearance = c;
	o->id = id;
}

void et_perceive(et_scene *sc, const double *y, double wall_near, sw_situation *s, sw_percept *buf)
{
	const sw_emit_ctx *c = &sc->ctx;
	double px = y[SW_STATE_X], py = y[SW_STATE_Y], t = sc->t, ra = c->radius;
	s->x = px;
	s->y = py;
	s->radius = ra;
	s->has_target = c->has_target;
	s->tx = c->tx + c->tvx * t;
	s->ty = c->ty + c->tvy * t;
	int n = 0;
	for (int k = 0; k < c->n_obs; k++) {
		const sw_emit_obstacle *o = &c->obs[k];
		double ax = o->ax + o->vx * t, ay = o->ay + o->vy * t;
		double bx = o->bx + o->vx * t, by = o->by + o->vy * t;
		if (!o->is_segment) {
			double dx = ax - px, dy = ay - py;
			double cl = sqrt(dx * dx + dy * dy) - o->radius - ra;
			if (cl <= c->perception)
				et_put(&buf[n++], dx, dy, o->radius, cl, k);
			continue;
		}
		/* sw_segment_closest */
		double abx = bx - ax, aby = by - ay, len2 = abx * abx + aby * aby, u = 0.0;
		if (len2 > 0.0) {
			u = ((px - ax) * abx + (py - ay) * aby) / len2;
			u = u < 0.0 ? 0.0 : (u > 1.0 ? 1.0 : u);
		}
		double cx = ax + abx * u, cy = ay + aby * u;
		double cl = sqrt((cx - px) * (cx - px) + (cy - py) * (cy - py)) - ra;
		if (cl > c->perception)
			continue;
		double half = 0.5 * sqrt(abx * abx + aby * aby);
		if (cl < wall_near * half) {
			et_put(&buf[n++], cx - px, cy - py, 0.0, cl, k);
		} else {
			double mx = (ax + bx) * 0.5, my = (ay + by) * 0.5;
			double dax = ax - px, day = ay - py, dbx = bx - px, dby = by - py;
			double ang = atan2(fabs(dax * dby - day * dbx), dax * dbx + day * dby);
			double dmx = mx - px, dmy = my - py;
			et_put(&buf[n++], dmx, dmy, sqrt(dmx * dmx + dmy * dmy) * sin(0.5 * ang),
			       cl, k);
		}
	}
	for (int j = 0; j < c->n_agents; j++) {
		double dx = sc->agent_xy[j][0] - px, dy = sc->agent_xy[j][1] - py;
		double cl = sqrt(dx * dx + dy * dy) - c->agents[j].radius - ra;
		if (cl <= c->perception)
			et_put(&buf[n++], dx, dy, c->agents[j].radius, cl, -1 - j);
	}
	s->n_obs = n;
	s->obs = buf;
	/* the snapshot velocities speed (cos heading, sin heading) (src/sim/step.c) */
	for (int j = 0; j < c->n_agents; j++)
		sw_steer_velocity(sc->agent_vphi[j][0], sc->agent_vphi[j][1], sc->agent_v[j]);
	s->agent_v = &sc->agent_v[0][0];
}

static double et_wall_near_of(const sw_steer_def *d)
{
	return d->law == SW_LAW_GLM ? d->glm.wall_near : INFINITY;
}

/* Native right-hand side at state y of the et_scene. */
int et_native_rhs(const sw_steer_def *def, const sw_personality *pers, et_scene *sc,
		  const double *y, double *dydt)
{
	sw_situation s;
	sw_percept buf[MAX_OBS + MAX_AGENTS];
	et_perceive(sc, y, et_wall_near_of(def), &s, buf);
	return sw_steer_rhs(def, pers, &s, y, dydt, NULL);
}

/* A random state; half of the time close to an obstacle or agent of the et_scene. */
void et_random_state(gsl_rng *r, const et_scene *sc, double *y)
{
	y[SW_STATE_X] = et_unif(r, -7.0, 7.0);
	y[SW_STATE_Y] = et_unif(r, -7.0, 7.0);
	int n = sc->ctx.n_obs + sc->ctx.n_agents;
	if (n > 0 && et_coin(r, 0.5)) {
		int k = (int)gsl_rng_uniform_int(r, (unsigned long)n);
		double cx, cy, rad;
		if (k < sc->ctx.n_obs) {
			const sw_emit_obstacle *o = &sc->obs[k];
			double u = o->is_segment ? et_unif(r, -0.2, 1.2) : 0.0;
			cx = o->ax + u * (o->bx - o->ax) + o->vx * sc->t;
			cy = o->ay + u * (o->by - o->ay) + o->vy * sc->t;
			rad = o->is_segment ? 0.0 : o->radius;
		} else {
			int j = k - sc->ctx.n_obs;
			cx = sc->agent_xy[j][0];
			cy = sc->agent_xy[j][1];
			rad = sc->agents[j].radius;
		}
		double ang = et_unif(r, -PI, PI),
		       dist = rad + sc->ctx.radius + et_unif(r, -0.2, 1.2);
		if (dist < 1e-3)
			dist = 1e-3;
		y[SW_STATE_X] = cx + dist * cos(ang);
		y[SW_STATE_Y] = cy + dist * sin(ang);
	}
	y[SW_STATE_PHI] = et_coin(r, 0.2) ? et_unif(r, -20.0, 20.0) : et_unif(r, -PI, PI);
	y[SW_STATE_OMEGA] = et_unif(r, -3.0, 3.0);
	y[SW_STATE_V] = et_unif(r, -1.0, 1.5);
	y[SW_STATE_WTAR] = et_unif(r, -1.2, 1.2);
	y[SW_STATE_WOBS] = et_unif(r, -1.2, 1.2);
}

void et_fill_slots(const et_scene *sc, const double *y, double *slots)
{
	for (int k = 0; k < SW_STATE_DIM; k++)
		slots[k] = y[k];
	slots[SLOT_T] = sc->t;
	for (int j = 0; j < MAX_AGENTS; j++) {
		slots[SLOT_AGENT(j)] = sc->agent_xy[j][0];
		slots[SLOT_AGENT(j) + 1] = sc->agent_xy[j][1];
		slots[SLOT_AGENT(j) + 2] = sc->agent_vphi[j][0];
		slots[SLOT_AGENT(j) + 3] = sc->agent_vphi[j][1];
	}
}

/* Emits and compiles the law for the et_scene into e[]; fails the test otherwise. */
void et_emit_compiled(const sw_steer_def *def, const sw_personality *pers, const et_scene *sc,
		      sw_expr *e[SW_STATE_DIM])
{
	sw_expr_ast *out[SW_STATE_DIM];
	int st = sw_steer_emit(def, pers, &sc->ctx, out);
	ck_assert_int_eq(st, SW_SUCCESS);
	for (int k = 0; k < SW_STATE_DIM; k++) {
		ck_assert_ptr_nonnull(out[k]);
		ck_assert_int_le(out[k]->height, SW_EXPR_MAX_HEIGHT);
		ck_assert_int_eq(sw_expr_compile_ast(out[k], NULL, &e[k]), SW_SUCCESS);
		sw_expr_ast_free(out[k]);
	}
}

double et_rel_diff(double a, double b)
{
	double m = fmax(1.0, fmax(fabs(a), fabs(b)));
	if (a == b)
		return 0.0;
	return fabs(a - b) / m;
}

double et_twin_check(unsigned long seed, et_def_maker make, et_scene_maker scene, int n_scenes,
		     int per_scene)
{
	/* SW_TEST_SCALE in (0, 1]: the share of the scenes to run (make asan runs a tenth: the
	 * sanitizers make these tree-heavy checks ten times slower; make test runs them all). */
	const char *scale_env = getenv("SW_TEST_SCALE");
	double scale = scale_env ? atof(scale_env) : 1.0;
	if (scale > 0.0 && scale < 1.0)
		n_scenes = (int)ceil(n_scenes * scale);
	gsl_rng *r = et_rng_new(seed);
	static et_scene sc; /* large: keep it off the stack */
	double worst = 0.0;
	for (int i = 0; i < n_scenes; i++) {
		sw_steer_def def = sw_default_steer_def();
		sw_personality pers = sw_default_personality();
		if (!scene)
			et_random_scene(r, &sc);
		make(r, &def, &pers);
		if (scene)
			scene(r, &sc, &def);
		sw_expr *e[SW_STATE_DIM];
		et_emit_compiled(&def, &pers, &sc, e);
		for (int k = 0; k < per_scene; k++) {
			double y[SW_STATE_DIM], dy[SW_STATE_DIM], slots[N_SLOTS];
			et_random_state(r, &sc, y);
			if (et_native_rhs(&def, &pers, &sc, y, dy) != SW_SUCCESS)
				continue; /* not finite natively (e.g. a percept at distance 0) */
			et_fill_slots(&sc, y, slots);
			for (int j = 0; j < SW_STATE_DIM; j++) {
				double v = sw_expr_eval(e[j], slots, NULL);
				double d = et_rel_diff(v, dy[j]);
				ck_assert_msg(
				    d <= TWIN_REL,
				    "law %d et_scene %d state %d entry %d: emitted %.17g, native "
				    "%.17g (x=%.17g y=%.17g phi=%.17g)",
				    (int)def.law, i, k, j, v, dy[j], y[0], y[1], y[2]);
				if (d > worst)
					worst = d;
			}
		}
		for (int j = 0; j < SW_STATE_DIM; j++)
			sw_expr_free(e[j]);
	}
	gsl_rng_free(r);
	return worst;
}

void et_report(const char *law, double worst)
{
	if (getenv("SW_EMIT_REPORT"))
		fprintf(stderr, "emit twin %-16s max rel diff %.3g\n", law, worst);
}
