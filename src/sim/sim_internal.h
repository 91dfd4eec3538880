/* sim/sim_internal.h - the world structure shared by the files of the sim module. */
#ifndef SWERVE_SIM_INTERNAL_H
#define SWERVE_SIM_INTERNAL_H

#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_rng.h>

#include "swerve/sim.h"

/** Agent modes until behaviour automata land. */
enum { MODE_STEER = 0, MODE_ARRIVED = 1 };

struct sw_world;

/** What an agent's GSL system receives as params. */
typedef struct agent_ctx {
	struct sw_world *w;
	int i;
} agent_ctx;

struct sw_world {
	const sw_model *m;
	double t;               /* current time, s */
	long steps;             /* macro steps taken */
	int n;                  /* number of agents */
	double *y;              /* n * SW_STATE_DIM current states */
	double *y_snap;         /* states at the start of the step (what others perceive) */
	double *y_work;         /* n * SW_STATE_DIM scratch for event location */
	int *mode;              /* per agent: MODE_* */
	int *target;            /* per agent: target steered to (-1 none) */
	gsl_rng **rng;          /* per agent random stream */
	sw_agent_metrics *metrics;
	double *min_clear;      /* n * n_obstacles minimum clearances */
	unsigned char *overlap; /* n * n_obstacles: overlapping at the last check */
	unsigned char *agent_overlap; /* n: overlapping some agent at the last check */
	const gsl_odeiv2_step_type *type; /* NULL: explicit Euler */
	gsl_odeiv2_system *sys; /* n systems */
	gsl_odeiv2_driver **drv; /* n drivers (NULL for Euler) */
	agent_ctx *ctx;         /* n contexts */
	sw_percept *scratch;    /* percept buffer (cap entries) */
	int cap;
	int rhs_status;
	sw_event_fn event_fn;    /* called at every discrete transition (may be NULL) */
	void *event_ctx;         /* first non-success status of an rhs call in this integration */
};

/** Perceives for agent i at time t with its own state y (others from y_snap), into s and buf
 * (capacity cap).  wall_near: a wall is seen at its closest point when its clearance is below
 * wall_near times its half length, else at its midpoint (INFINITY: always the closest point).
 * Returns the number of percepts (at most cap). */
int sw__perceive(const struct sw_world *w, int i, double t, const double *y, double wall_near,
		 sw_situation *s, sw_percept *buf, int cap);

/** Wall-near factor the agent's law wants (GLM's parameter, else INFINITY). */
double sw__wall_near(const sw_agent *a);

/** Integrates agent i's state y from t0 to t1 (t1 >= t0) with the world's integrator.
 * Returns SW_SUCCESS or an error status. */
int sw__integrate(struct sw_world *w, int i, double t0, double t1, double *y);

/** The GSL right-hand side of agent i (params: agent_ctx). */
int sw__agent_flow(double t, const double y[], double dydt[], void *params);

/** Finite-difference Jacobian for the implicit GSL steppers (params: agent_ctx). */
int sw__agent_jac(double t, const double y[], double *dfdy, double dfdt[], void *params);

#endif
