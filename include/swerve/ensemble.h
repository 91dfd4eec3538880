/* swerve/ensemble.h - ensembles of runs: properties of a run, statistical model checking
 * (Clopper-Pearson / Wilson intervals, Wald's SPRT) and parameter sweeps.
 *
 * Run r of an ensemble is fully determined by its index: it runs grid point r / seeds_per_point
 * with seed base_seed + r % seeds_per_point (so `swerve run --seed S` replays it), whatever the
 * number of threads or processes that compute it.  A model is immutable and shared by every
 * thread; each run has its own world.  Sequential decisions scan the results in run-index order
 * (sw_ens_scan), so where they stop does not depend on how the runs were distributed.  Users'
 * guide: docs/ensembles.md. */
#ifndef SWERVE_ENSEMBLE_H
#define SWERVE_ENSEMBLE_H

#include "swerve/api.h"

#include <stdint.h>

#include "swerve/model.h"
#include "swerve/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Longest failure message kept per run, including the NUL. */
#define SW_ENS_MSG 240

/** A property of one run: a boolean expression over the run (docs/ensembles.md), compiled
 * against one model.  Immutable after compiling; shared by threads. */
typedef struct sw_ens_property sw_ens_property;

/** Compiles the boolean expression text (language: docs/expressions.md; functions over the run:
 * reach(agent, target), visited(unit, mode), visit(unit, mode), safe(), reached(agent),
 * t_reached(agent), collisions(agent), ... listed in docs/ensembles.md) for model m.  Errors cite
 * "property:1:COLUMN" and say what was expected.  Returns SW_SUCCESS with *out (free with
 * sw_ens_property_free), SW_EINPUT or SW_ENOMEM. */
SW_API int sw_ens_property_compile(const sw_model *m, const char *text, sw_ens_property **out,
				   sw_diag *diag);

/** Frees a property.  NULL is allowed. */
SW_API void sw_ens_property_free(sw_ens_property *p);

/** Summary of one run (fixed size, no pointers: processes exchange it as bytes). */
typedef struct sw_ens_result {
	int64_t run;                /**< run index */
	int64_t point;              /**< grid point index */
	uint64_t seed;              /**< seed the run used */
	int status;                 /**< SW_SUCCESS, or the status of the failure */
	int value;                  /**< property: 1 true, 0 false, -1 none (or failed run) */
	double t_end;               /**< simulated time reached, s */
	int n_agents;               /**< agents */
	int reached;                /**< agents that reached their target */
	double mean_t_reached;      /**< mean arrival time of those that did, s (NAN if none) */
	double mean_path;           /**< mean path length over agents, m */
	double min_clearance;       /**< smallest obstacle clearance of any agent, m */
	int collisions;             /**< obstacle overlap episodes, all agents */
	int agent_collisions;       /**< agent-agent overlap episodes, all agents (each counted by
					 both agents) */
	double min_agent_clearance; /**< smallest agent-agent clearance, m (INFINITY alone) */
	char message[SW_ENS_MSG];   /**< failure message ("" when status is SW_SUCCESS) */
} sw_ens_result;

/** Runs model m once as def says (seed, duration, threads; NULL: sw_default_world_def(m); its
 * callbacks are ignored), without writing files, and fills *out (run and point are left for the
 * caller; out->seed is def's seed); p (may be NULL) is evaluated on the run.  A
 * runtime failure (non-finite state, Zeno, invariant) is recorded in out->status and
 * out->message, never dropped.  Returns SW_SUCCESS when *out was filled (the run itself may have
 * failed), SW_ENOMEM otherwise.  Thread-safe for distinct out. */
SW_API int sw_ens_run_one(const sw_model *m, const sw_world_def *def, const sw_ens_property *p,
			  sw_ens_result *out);

/** An ensemble: n_points grid points (one model and optional property each), seeds_per_point
 * seeds per point.  Run r runs point r / seeds_per_point with seed base_seed +
 * r % seeds_per_point, for `duration` (or its model's), on one thread. */
typedef struct sw_ens_plan {
	int n_points;
	const sw_model *const *models;       /**< n_points models */
	const sw_ens_property *const *props; /**< n_points properties, or NULL */
	int64_t seeds_per_point;             /**< >= 1 */
	uint64_t base_seed;
	double duration;                     /**< stop time of every run, s; 0: each point's
						  model's <run duration> */
	const struct sw_plan *const *plans;  /**< n_points prepared fields (sw_plan_fields), or
						  NULL: each run computes the fields it uses */
} sw_ens_plan;

/** Total runs of a plan (n_points * seeds_per_point). */
SW_API int64_t sw_ens_plan_runs(const sw_ens_plan *plan);

/** Computes runs first .. first + count - 1 of plan into out[0 .. count - 1] with `threads`
 * POSIX threads (< 1: one).  Returns SW_SUCCESS (runs may have failed: see their status),
 * SW_EUSAGE or SW_ENOMEM. */
SW_API int sw_ens_execute(const sw_ens_plan *plan, int64_t first, int64_t count, int threads,
			  sw_ens_result *out);

/* --- statistics ------------------------------------------------------------------------------ */

/** Two-sided Clopper-Pearson interval for k successes in n trials at confidence conf in (0, 1):
 * lo = B^-1(alpha/2; k, n-k+1) (0 when k = 0), hi = B^-1(1-alpha/2; k+1, n-k) (1 when k = n),
 * alpha = 1 - conf, with GSL's beta quantiles.  Returns SW_SUCCESS or SW_EUSAGE. */
SW_API int sw_ens_clopper_pearson(int64_t k, int64_t n, double conf, double *lo, double *hi);

/** Wilson score interval for k in n at confidence conf.  Returns SW_SUCCESS or SW_EUSAGE. */
SW_API int sw_ens_wilson(int64_t k, int64_t n, double conf, double *lo, double *hi);

/** Wald's sequential probability ratio test of H0: p <= theta - delta against
 * H1: p >= theta + delta with error bounds alpha (reject a true H0) and beta (reject a true H1). */
typedef struct sw_ens_sprt {
	double theta, delta, alpha, beta;
} sw_ens_sprt;

/** SPRT decision for k successes in n: +1 accept H1 (p above theta), -1 accept H0 (below), 0 go
 * on; *llr (may be NULL) receives the log likelihood ratio.  Returns 0 also for invalid tests
 * (check with sw_ens_sprt_valid). */
SW_API int sw_ens_sprt_decide(const sw_ens_sprt *t, int64_t k, int64_t n, double *llr);

/** 1 when 0 < theta - delta < theta + delta < 1 and alpha, beta in (0, 0.5). */
SW_API int sw_ens_sprt_valid(const sw_ens_sprt *t);

/** Stopping rules of sw_ens_scan. */
typedef struct sw_ens_stop {
	int64_t max_runs; /**< stop after this many runs (>= 1) */
	double width;     /**< > 0: stop once the interval is at most this wide (hi - lo) */
	double conf;      /**< confidence of the interval */
	int wilson;       /**< 1: Wilson interval; 0: Clopper-Pearson */
	int use_sprt;     /**< 1: stop when the SPRT decides */
	sw_ens_sprt sprt;
	int failed_as; /**< value a failed run counts as: 0 or 1 */
} sw_ens_stop;

/** Running state of a sequential estimate. */
typedef struct sw_ens_tally {
	int64_t n, k;    /**< runs used and successes among them */
	int64_t failed;  /**< failed runs among the used ones */
	double lo, hi;   /**< current interval */
	int decision;    /**< SPRT decision (+1, -1, 0) */
	double llr;      /**< SPRT log likelihood ratio */
	int done;        /**< 1: a stopping rule holds */
	const char *why; /**< "width", "sprt", "max-runs" once done */
} sw_ens_tally;

/** Starts a tally (n = k = 0, interval [0, 1]). */
SW_API void sw_ens_tally_init(sw_ens_tally *t);

/** Adds results r[0 .. count - 1] (consecutive run indices) to t one at a time, in order,
 * stopping at the first one after which a rule of s holds.  Returns how many were used. */
SW_API int64_t sw_ens_scan(sw_ens_tally *t, const sw_ens_stop *s, const sw_ens_result *r,
			   int64_t count);

#ifdef __cplusplus
}
#endif
#endif
