/* ensemble/ensemble_internal.h - shared by the files of the ensemble module (not public).
 *
 *   property.c   properties: compile (expression + monitor lists), monitor a run, evaluate;
 *   runner.c     one run into an sw_ens_result, and a thread pool over run indices;
 *   stats.c      Clopper-Pearson and Wilson intervals, SPRT, the sequential scan. */
#ifndef SWERVE_ENSEMBLE_INTERNAL_H
#define SWERVE_ENSEMBLE_INTERNAL_H

#include "swerve/ensemble.h"
#include "swerve/expr.h"
#include "swerve/sim.h"

/** Most reach() and visit() pairs one property watches. */
#define SW_ENS_MONITORS 16

/* A watched pair: (agent, target) for reach, (unit, mode) for visit. */
typedef struct sw__ens_pair {
	int unit, what;
} sw__ens_pair;

struct sw_ens_property {
	const sw_model *m; /* the model names were resolved against */
	sw_expr *expr;     /* boolean; reads slot 0 = t_end */
	int n_reach, n_visit;
	sw__ens_pair reach[SW_ENS_MONITORS];
	sw__ens_pair visit[SW_ENS_MONITORS];
};

/* What one run of a property has seen so far. */
typedef struct sw__ens_monitor {
	const sw_ens_property *p; /* NULL: nothing to watch */
	double t_reach[SW_ENS_MONITORS];
	double t_visit[SW_ENS_MONITORS];
} sw__ens_monitor;

/** Starts watching w (just created) for p (may be NULL). */
void sw__ens_monitor_start(sw__ens_monitor *mon, const sw_ens_property *p, const sw_world *w);

/** Checks the reach pairs at the world's current time (call after every step). */
void sw__ens_monitor_step(sw__ens_monitor *mon, const sw_world *w);

/** The world's event callback (ctx: the monitor). */
void sw__ens_monitor_event(const sw_world *w, int unit, double t, int from, int to,
			   const char *label, const char *guard, void *ctx);

/** The property's value on the finished run (mon->p must not be NULL). */
int sw__ens_monitor_value(const sw__ens_monitor *mon, const sw_world *w);

#endif
