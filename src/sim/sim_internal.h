/* sim/sim_internal.h - the world structure shared by the files of the sim module.
 *
 * A world steps "units": the n agents, then the signals (instances of signal automata, with no
 * body).  Each unit has its own continuous state vector in y (offset off[u], dimension dim[u]):
 * plain-law agents [steering state 0..6]; automaton units [steering 0..6, time_in_mode, vars]
 * (signals keep zeros in the steering part). */
#ifndef SWERVE_SIM_INTERNAL_H
#define SWERVE_SIM_INTERNAL_H

#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_rng.h>

#include "model/automaton_impl.h"
#include "swerve/sim.h"

/** Modes of plain-law agents. */
enum { MODE_STEER = 0, MODE_ARRIVED = 1 };

/** Kinds of steering target of an agent. */
enum { TGT_NONE = 0, TGT_TARGET = 1, TGT_AGENT = 2 };

/** Positions kept per agent for progress(obj, window). */
#define SW_HISTORY 256

struct sw_world;

/** What a unit's GSL system receives as params. */
typedef struct agent_ctx {
	struct sw_world *w;
	int i;
} agent_ctx;

/** A signal switch during the current step. */
typedef struct sig_switch {
	int sig;
	double t;
	int mode;
} sig_switch;

struct sw_world {
	const sw_model *m;
	double t;               /* current time, s */
	long steps;             /* macro steps taken */
	int n;                  /* agents */
	int ns;                 /* signals */
	int nu;                 /* units: agents then signals */
	int *dim;               /* per unit state dimension */
	size_t *off;            /* per unit offset into y */
	double *y;              /* all unit states */
	double *y_snap;         /* states at the start of the step (what others perceive) */
	double *work;           /* scratch: 4 * maxdim */
	int maxdim;
	int *mode;              /* per unit mode */
	const struct sw_automaton **aut; /* per unit automaton, NULL for plain-law agents */
	sw_steer_def *steer;    /* per agent per mode steering (personality applied) */
	int *steer_first;       /* per agent: its modes' entries in steer */
	int *tkind, *tindex;    /* per agent current steering target */
	gsl_rng **rng;          /* per agent random stream */
	sw_agent_metrics *metrics;
	double *min_clear;      /* n * n_obstacles minimum clearances */
	unsigned char *overlap; /* n * n_obstacles: overlapping at the last check */
	unsigned char *agent_overlap; /* n: overlapping some agent at the last check */
	const gsl_odeiv2_step_type *type; /* NULL: explicit Euler */
	gsl_odeiv2_system *sys; /* per unit */
	gsl_odeiv2_driver **drv; /* per unit (NULL for Euler) */
	agent_ctx *ctx;         /* per unit */
	sw_percept *scratch;    /* percept buffer (cap entries) */
	int cap;
	double *slots;          /* expression slot scratch (max_slots) */
	int max_slots;
	int rhs_status;         /* first non-success status of an rhs call in this integration */
	/* What made the last integration fail (integrate.c, for the failure message): */
	double fault_t;         /* time reached when it failed (NaN: not known) */
	int fault_k;            /* state entry whose flow was not finite, or -1 */
	sw_event_fn event_fn;   /* called at every discrete transition (may be NULL) */
	void *event_ctx;
	int *sig_mode0;         /* per signal: mode at the start of the step */
	sig_switch *switches;   /* signal switches during this step, in time order */
	int n_switch, cap_switch;
	double *hist;           /* per agent SW_HISTORY x (t, x, y) ring of step-end positions */
	int hist_len, hist_head;
	int zeno_max;           /* most jumps of one unit at one instant */
	/* neighbour index of agents (grid.c) */
	int grid_on;            /* 1: perception of agents uses the grid */
	double grid_cell, grid_rmax;
	int grid_buckets;
	int *grid_start, *grid_items, *grid_found;
	unsigned *grid_key;
};

/* perceive.c */
int sw__perceive(const struct sw_world *w, int i, double t, const double *y, double wall_near,
		 sw_situation *s, sw_percept *buf, int cap);
double sw__wall_near(const sw_steer_def *def);
/** Steering definition agent i uses in mode `mode` (plain-law agents: their law). */
const sw_steer_def *sw__steer_of(const struct sw_world *w, int i, int mode);
/** Position of agent i's current steering target at time t; returns 0 when it has none. */
int sw__target_pos(const struct sw_world *w, int i, double t, sw_vec2 *out);

/* grid.c */
int sw__grid_alloc(struct sw_world *w);
void sw__grid_free(struct sw_world *w);
/** Bins the agents' snapshot positions (call after every snapshot). */
void sw__grid_build(struct sw_world *w);
/** Agents (other than i) whose snapshot centre may lie within `reach` of p, in increasing index
 * order, into *out (owned by the world); returns their number. */
int sw__grid_query(struct sw_world *w, int i, sw_vec2 p, double reach, int **out);

/* integrate.c */
int sw__integrate(struct sw_world *w, int u, double t0, double t1, double *y);
int sw__agent_flow(double t, const double y[], double dydt[], void *params);
int sw__agent_jac(double t, const double y[], double *dfdy, double dfdt[], void *params);

/* host.c: expressions of automaton units */
/** Fills w->slots for unit u at time t with state y; returns the slot array. */
double *sw__slots(struct sw_world *w, int u, double t, const double *y);
/** Evaluates e (value) / its margin for unit u at (t, y). */
double sw__eval(struct sw_world *w, int u, double t, const double *y, const sw_expr *e);
double sw__margin(struct sw_world *w, int u, double t, const double *y, const sw_expr *e);
/** Mode of signal s at time t within the current step. */
int sw__signal_mode(const struct sw_world *w, int s, double t);
/** Records agent i's position at the end of a step (for progress()). */
void sw__history_push(struct sw_world *w);

/* hybrid.c */
/** Advances automaton unit u over [t0, t1] with exact transition instants. */
int sw__hybrid_advance(struct sw_world *w, int u, double t0, double t1, sw_diag *diag);
/** Enters the initial mode of unit u at time t (fires transitions enabled at t). */
int sw__hybrid_start(struct sw_world *w, int u, double t, sw_diag *diag);
/** Sets the steering target of agent i for its current mode at time t. */
void sw__retarget(struct sw_world *w, int i, double t);

/* Describes into buf why unit u's step failed with status st: step-size underflow (with the
 * time the integrator reached), a flow that was not finite (naming the variable), a state entry
 * that became non-finite in y (the state after the failed step, may be NULL), or the status. */
void sw__fault_describe(const struct sw_world *w, int u, int st, const double *y, char *buf,
			size_t n);

#endif
