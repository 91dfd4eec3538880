/* tests/emit_util.h - random scenes for the twin tests of the symbolic emitters (tests/test_emit.c,
 * tests/test_emit_crowd.c): the emitter's context, the same scene perceived as src/sim/perceive.c
 * does, random states, and the twin check itself (tests/emit_util.c). */
#ifndef SWERVE_TESTS_EMIT_UTIL_H
#define SWERVE_TESTS_EMIT_UTIL_H

#include <gsl/gsl_rng.h>

#include "swerve/expr.h"
#include "swerve/steer.h"

#define PI 3.14159265358979323846
/* Agreement of emitted and native values: |a - b| <= TWIN_REL max(1, |a|, |b|). */
#define TWIN_REL 1e-9
#define MAX_OBS 100
#define MAX_AGENTS 4
/* Slots: the 7 state entries, the time, then x, y, speed and heading of each other agent. */
#define SLOT_T SW_STATE_DIM
#define SLOT_AGENT(j) (SW_STATE_DIM + 1 + 4 * (j))
#define N_SLOTS (SW_STATE_DIM + 1 + 4 * MAX_AGENTS)

extern const char *const et_state_names[SW_STATE_DIM];
extern const char *const et_agent_names[4 * MAX_AGENTS];

/* A scene: the emitter's context plus what the native side needs. */
typedef struct et_scene {
	sw_emit_ctx ctx;
	sw_emit_obstacle obs[MAX_OBS];
	sw_emit_agent agents[MAX_AGENTS];
	double agent_xy[MAX_AGENTS][2];
	double agent_vphi[MAX_AGENTS][2]; /* speed and heading of each other agent */
	double agent_v[MAX_AGENTS][2];    /* their velocities, as the native side reads them */
	double t;
} et_scene;

/* A random generator (mt19937) seeded with seed; the caller frees it. */
gsl_rng *et_rng_new(unsigned long seed);
/* Uniform on [lo, hi). */
double et_unif(gsl_rng *r, double lo, double hi);
/* 1 with probability p. */
int et_coin(gsl_rng *r, double p);

/* An empty scene: state in slots 0..6, time in SLOT_T, radius 0.25, no perception limit. */
void et_scene_init(et_scene *sc);
void et_add_disc(et_scene *sc, double x, double y, double r, double vx, double vy);
void et_add_segment(et_scene *sc, double ax, double ay, double bx, double by, double vx, double vy);
/* Another agent at (x, y) of radius r, standing (speed 0) until agent_vphi says otherwise. */
void et_add_agent(et_scene *sc, double x, double y, double r);
/* A random scene: 0..8 discs, 0..3 segments, some moving, 0..3 agents, target, perception. */
void et_random_scene(gsl_rng *r, et_scene *sc);
/* The same with 0..nd_max discs, 0..ns_max segments and 0..na_max agents; velocities: the other
 * agents get a random speed and heading. */
void et_random_scene_n(gsl_rng *r, et_scene *sc, int nd_max, int ns_max, int na_max,
		       int velocities);

/* The situation perceive.c builds at state y (the percepts in buf, MAX_OBS + MAX_AGENTS). */
void et_perceive(et_scene *sc, const double *y, double wall_near, sw_situation *s, sw_percept *buf);
/* Native right-hand side at state y of the scene. */
int et_native_rhs(const sw_steer_def *def, const sw_personality *pers, et_scene *sc,
		  const double *y, double *dydt);
/* A random state; half of the time close to an obstacle or agent of the scene. */
void et_random_state(gsl_rng *r, const et_scene *sc, double *y);
/* The slots of state y in the scene (N_SLOTS). */
void et_fill_slots(const et_scene *sc, const double *y, double *slots);
/* Emits and compiles the law for the scene into e[]; fails the test otherwise. */
void et_emit_compiled(const sw_steer_def *def, const sw_personality *pers, const et_scene *sc,
		      sw_expr *e[SW_STATE_DIM]);
/* |a - b| / max(1, |a|, |b|). */
double et_rel_diff(double a, double b);

/* Draws the law's parameters for one scene. */
typedef void (*et_def_maker)(gsl_rng *r, sw_steer_def *d, sw_personality *p);
/* Draws a scene for the law d (NULL in et_twin_check: et_random_scene before the law). */
typedef void (*et_scene_maker)(gsl_rng *r, et_scene *sc, const sw_steer_def *d);

/* The twin check: n_scenes scenes x per_scene states (n_scenes scaled by the environment's
 * SW_TEST_SCALE when it is in (0, 1)); returns the largest relative difference and fails at the
 * first one above TWIN_REL. */
double et_twin_check(unsigned long seed, et_def_maker make, et_scene_maker scene, int n_scenes,
		     int per_scene);

/* Prints a twin check's largest difference for law when SW_EMIT_REPORT is set. */
void et_report(const char *law, double worst);

#endif
