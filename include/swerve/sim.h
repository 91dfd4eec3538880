/* swerve/sim.h - world state and stepping.
 *
 * A world holds all mutable state of one run of a model: per-agent continuous state, GSL
 * drivers, RNG streams, metrics.  Agents step synchronously: each macro step every agent
 * perceives the others as they were at the start of the step (a snapshot), so results do not
 * depend on the order agents are processed in. */
#ifndef SWERVE_SIM_H
#define SWERVE_SIM_H

#include "swerve/api.h"

#include "swerve/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sw_world sw_world;
struct sw_plan;

/** Snapshot of one agent. */
typedef struct sw_agent_state {
	double y[SW_STATE_DIM]; /**< continuous state (layout SW_STATE_*) */
	int mode;               /**< current mode: 0 = steering, 1 = arrived (until automata land) */
	int target;             /**< target currently steered to, -1 none */
} sw_agent_state;

/** Metrics accumulated per agent during a run. */
typedef struct sw_agent_metrics {
	double t_reached;      /**< time it did, s (located to run.event_tol); NAN if not */
	double path_length;    /**< distance travelled, m (sum of chord lengths between steps) */
	double min_clearance;  /**< smallest clearance to any obstacle, m */
	double overlap_time;   /**< time spent overlapping an obstacle, s (step resolution) */
	double max_penetration; /**< deepest overlap with an obstacle, m (0 if none) */
	double min_agent_clearance; /**< smallest clearance to another agent, m (INFINITY if alone) */
	int reached;           /**< 1 once the agent reached its target */
	int collisions;        /**< overlap episodes with obstacles (entering overlap counts one) */
	int agent_collisions;  /**< overlap episodes with other agents */
} sw_agent_metrics;

/** SteerBench metrics (SteerSuite's AgentMetrics) of one agent, accumulated per frame = macro
 * step while the agent is enabled, i.e. until it enters a terminal mode (no law, no transition
 * out) or arrives and stops; definitions in docs/steersuite.md.  Kept only when the run asks
 * for them (sw_run_def.steerbench). */
typedef struct sw_steerbench_metrics {
	double sb_time;        /**< time enabled, s (sb_frames * run.step) */
	double sb_distance;    /**< distance travelled while enabled, m (sum of step chords) */
	double sb_degrees;     /**< total degrees turned while enabled, deg (sum of |heading
				    increments| per step) */
	double sb_energy;      /**< sum over enabled frames of speed^2 / 2 at the frame's end (mass
				    1, not multiplied by the step: frame-rate dependent), m^2/s^2 */
	long sb_frames;        /**< frames (steps) the agent was enabled for */
	int sb_collisions;     /**< unique collisions: overlap episodes begun, one per obstacle and
				    per other agent */
} sw_steerbench_metrics;

/** SteerBench's composite01 score of one agent: 50 * sb_collisions + sb_time + sb_energy (the
 * CAVW 2008 weights alpha = 50, beta = gamma = 1).  The scenario score is its mean over agents. */
SW_API double sw_steerbench_composite01(const sw_steerbench_metrics *mt);

/** Most macro steps one run may take (run.duration / run.step, rounded up): at the default step
 * of 0.25 s about 290 days of simulated time.  A run asking for more is refused before it starts
 * (docs/robustness.md, "Bounds"). */
#define SW_RUN_MAX_STEPS 100000000L
/** Most sub-steps per macro step (run.substeps). */
#define SW_RUN_MAX_SUBSTEPS 10000
/** Most units (agents and signals) in one world. */
#define SW_WORLD_MAX_UNITS 1000000

/** Checks m's run against the bounds above (duration and step finite, at most SW_RUN_MAX_STEPS
 * steps, substeps in 1 .. SW_RUN_MAX_SUBSTEPS, at most SW_WORLD_MAX_UNITS agents and signals)
 * and stores the number of macro steps in *steps (may be NULL).  Returns SW_SUCCESS, or
 * SW_EINPUT with a diagnostic naming the model's file and what was asked.  The duration checked
 * is the model's own (<run duration>); sw_world_create checks the world definition's. */
SW_API int sw_run_steps(const sw_model *m, long *steps, sw_diag *diag);

/** Called at every discrete transition of a unit (agent or signal, see sw_world_n_units): time t
 * (s), modes from and to, the transition's label ("" when it has none) and its guard as text. */
typedef void (*sw_event_fn)(const sw_world *w, int agent, double t, int from, int to,
			    const char *label, const char *guard, void *ctx);

/** Called after every macro step of sw_world_run with the fraction of the run done (0..1]. */
typedef void (*sw_progress_fn)(double frac, void *ctx);

/** What varies from one run of a model to the next (the model itself is frozen at
 * sw_model_finalize and shared, read-only, by every world made from it; MuJoCo's model/data
 * split).  Obtain one from sw_default_world_def(m), change what the run needs, and pass it to
 * sw_world_create, which copies it (the def need not outlive the call; its plan and the
 * callbacks' contexts must outlive the world). */
typedef struct sw_world_def {
	uint64_t seed;        /**< seed of the agents' random streams and drawn personalities;
				   default the model's <run seed> (run.seed) */
	double duration;      /**< stop time of sw_world_run, s (> 0, finite, at most
				   SW_RUN_MAX_STEPS steps); default the model's <run duration> */
	double sample;        /**< interval of sw_world_run's sample calls (the output rows), s:
				   a positive multiple of the model's step; default (and 0) the
				   model's <run sample>.  Changes what is recorded, not the run */
	int threads;          /**< threads sw_world_step uses (see sw_world_set_threads; 0 =
				   automatic); default 1 */
	const struct sw_plan *plan; /**< prepared fields (plan.h: sw_plan_fields) of this model,
				   borrowed: it must outlive the world; NULL (default): the
				   navigation fields the model's laws use are computed for this
				   world alone, without a store (a vector field the model does not
				   hold needs the plan: the world reads no file) */
	sw_event_fn event_fn; /**< called at every discrete transition, including those during
				   sw_world_create (agents starting at their target, signals
				   entering their first mode); NULL (default): none */
	void *event_ctx;      /**< passed to event_fn; default NULL */
	sw_progress_fn progress_fn; /**< called by sw_world_run after every step; default NULL */
	void *progress_ctx;   /**< passed to progress_fn; default NULL */
	int restoring;        /**< 1: the world is only for sw_world_restore before it steps,
				   so creating it plans no routes (<routes>; the checkpoint holds
				   them, and planning thousands costs minutes).  Stepped without a
				   restore, such a world differs from one created with 0: its
				   agents steer at their targets over the first step, whose end
				   plans the routes.  Default 0 */
} sw_world_def;

/** The definition of a run of m as its scenario file gives it: seed, duration and sample
 * interval from m's <run> (library defaults when m is NULL), one thread, no plan, no
 * callbacks. */
SW_API sw_world_def sw_default_world_def(const sw_model *m);

/** Creates a world for a finalised model at t = 0.  def may be NULL: sw_default_world_def(m).
 * Reads and writes no file.  Returns SW_SUCCESS, SW_EUSAGE (model not finalised or written
 * since (sw_model_frozen), threads < 0, a plan made for another model, a vector field with no
 * grid and no plan),
 * SW_EINPUT (unknown integrator, a run beyond the bounds of sw_run_steps for def's duration,
 * or a sample interval that is not a positive multiple of the step, with a diagnostic) or SW_ENOMEM
 * (SW_EUSAGE with a diagnostic also reports an internal inconsistency, a bug).  The world keeps a pointer to m, which must
 * outlive it; it never writes m. */
SW_API int sw_world_create(const sw_model *m, const sw_world_def *def, sw_world **out,
			   sw_diag *diag);

/** The seed the world runs with (its definition's). */
SW_API uint64_t sw_world_seed(const sw_world *w);

/** The stop time of sw_world_run, s (its definition's duration). */
SW_API double sw_world_duration(const sw_world *w);

/** The interval of sw_world_run's sample calls, s (its definition's sample). */
SW_API double sw_world_sample(const sw_world *w);

/** Macro steps sw_world_run takes from t = 0 to the world's duration (rounded up). */
SW_API long sw_world_total_steps(const sw_world *w);

/** Destroys a world.  NULL is allowed. */
SW_API void sw_world_destroy(sw_world *w);

/** Advances every agent by one macro step (model->run.step).  On a numeric failure it returns
 * SW_ENUMERIC and adds a diagnostic naming the agent, the time and the last good state; the world
 * then keeps the last good state.  When an allocation fails (a signal's switch that cannot be
 * recorded) it returns SW_ENOMEM with the same diagnostic. */
SW_API int sw_world_step(sw_world *w, sw_diag *diag);

/** The model the world runs (never NULL). */
SW_API const sw_model *sw_world_model(const sw_world *w);

/** Current time, s. */
SW_API double sw_world_time(const sw_world *w);

/** Number of macro steps taken. */
SW_API long sw_world_steps(const sw_world *w);

/** Agents done at the current time: in a terminal mode of their automaton (no law, no
 * transition out, e.g. an imported goal sequence's `done`), or arrived and stopped. */
SW_API int sw_world_agents_done(const sw_world *w);

/** 1 when the run is over before its duration: run.stop_when_done is set and every agent is
 * done (sw_world_run and the ensemble runners stop there), else 0. */
SW_API int sw_world_done(const sw_world *w);

/** Copies agent i's state into *out. */
SW_API void sw_world_agent(const sw_world *w, int i, sw_agent_state *out);

/** The steering law and parameters agent i runs in its current mode (personality applied);
 * valid until the world is destroyed.  An agent standing still in a mode without a law still
 * reports that mode's (unused) definition. */
SW_API const sw_steer_def *sw_world_steer(const sw_world *w, int i);

/** Metrics of agent i (pointer valid until the world is destroyed). */
SW_API const sw_agent_metrics *sw_world_metrics(const sw_world *w, int i);

/** SteerBench metrics of agent i (pointer valid until the world is destroyed), or NULL when the
 * run does not keep them (sw_run_def.steerbench = 0). */
SW_API const sw_steerbench_metrics *sw_world_steerbench(const sw_world *w, int i);

/** Minimum clearance of agent i to obstacle j over the run so far, m; NAN when the run does
 * not keep them (sw_run_def.obstacle_clearances 0). */
SW_API double sw_world_min_clearance(const sw_world *w, int i, int j);

/** The situation agent i perceives at the world's current time and state, into *s, with
 * percepts written to buf (capacity cap; *s->obs points into it): s->n_obs the law's percepts,
 * then s->n_pass agents walked through (ghost modes), as many of each as fit in that order.
 * Returns the number of percepts available, both kinds (may exceed cap: then only cap are
 * stored), or -1 when out of memory.
 * The world is not const: the query writes (and may grow) the world's perception scratch and
 * neighbour-grid scratch, like sw_world_glm_terms() and sw_world_perceive3(), so these three
 * must not run on one world from several threads at once, nor during sw_world_step.  The
 * world's state, time and outputs are not changed. */
SW_API int sw_world_perceive(sw_world *w, int i, sw_situation *s, sw_percept *buf, int cap);

/** Agent i's personality, with the traits drawn for this world when the scenario gives
 * distributions (uniform(lo, hi), normal(mean, sd)). */
SW_API const sw_personality *sw_world_personality(const sw_world *w, int i);

/** GLM evaluation of agent i at the current state (for outputs and analysis); returns SW_EUSAGE
 * when the agent does not run GLM, and in a 3-D world (whose law is sw_glm3_eval), SW_ENOMEM
 * when out of memory.  Uses the world's scratch as sw_world_perceive() does (not thread-safe on
 * one world; state unchanged). */
SW_API int sw_world_glm_terms(sw_world *w, int i, sw_glm_terms *out);

/** Registers fn (may be NULL) to be called at every transition from now on, replacing the
 * definition's event_fn (events during sw_world_create reach only the definition's). */
SW_API void sw_world_set_event_fn(sw_world *w, sw_event_fn fn, void *ctx);

/** Static name of mode `mode` of unit i: for plain-law agents "steer" or "arrived", else the
 * automaton's mode name. */
SW_API const char *sw_world_mode_name(const sw_world *w, int i, int mode);

/** Units are the agents (0 .. n_agents - 1) followed by the signals; their number. */
SW_API int sw_world_n_units(const sw_world *w);
/** Name of unit u (agent or signal name; the model's string, valid while the model lives). */
SW_API const char *sw_world_unit_name(const sw_world *w, int u);
/** Current mode of unit u. */
SW_API int sw_world_unit_mode(const sw_world *w, int u);
/** Continuous state of unit u: [steering state 0..6, then for automaton units time_in_mode and
 * the automaton's variables in declaration order]; *dim (may be NULL) receives its length. */
SW_API const double *sw_world_unit_state(const sw_world *w, int u, int *dim);

/* --- Three dimensions (sim/space3.c; docs/models.md section 1.5) -------------------------- */

/** In a 3-D world (sw_model_set_3d) every agent's state carries SW_STATE3_DIM more entries at its
 * end (after time_in_mode and the variables of automaton units): height, heading unit vector,
 * and the angular velocity Omega of the agility lag (zero without it).  The 2-D entries stay:
 * heading = azimuth atan2(uy, ux) (continuous), omega = Omega_z, the others as in 2-D. */
enum {
	SW_STATE3_Z = 0,  /**< z, m */
	SW_STATE3_UX = 1, /**< heading unit vector u (|u| = 1) */
	SW_STATE3_UY = 2,
	SW_STATE3_UZ = 3,
	SW_STATE3_WX = 4, /**< lagged angular velocity Omega (agility), rad/s */
	SW_STATE3_WY = 5,
	SW_STATE3_WZ = 6,
	SW_STATE3_DIM = 7
};

/** 1 when the world is three-dimensional. */
SW_API int sw_world_is_3d(const sw_world *w);

/** Agent i's SW_STATE3_DIM 3-D entries (a pointer into its state), or NULL in a 2-D world. */
SW_API const double *sw_world_agent3(const sw_world *w, int i);

/** The 3-D situation agent i perceives now (3-D worlds; like sw_world_perceive): percepts are
 * copied to buf (capacity cap).  Returns the number available, -1 when out of memory, -2 in a
 * 2-D world.  Uses the world's scratch as sw_world_perceive() does (not thread-safe on one
 * world; state unchanged). */
SW_API int sw_world_perceive3(sw_world *w, int i, sw_situation3 *s, sw_percept3 *buf,
			      int cap);

/** Number of threads sw_world_step uses (sw_world_def.threads sets it at creation); n = 0:
 * automatic, one per processor but at most one per 1024 agents (small worlds step on one
 * thread).  Results are identical for every n (each agent's step reads only the step-start
 * snapshot of the others and writes only its own data).  Default 1.  Starts n - 1 worker threads (the caller is the first), which sleep between steps
 * and after a short spin at every hand-over, so a busy machine does not make several threads
 * slower than one; they end with the world.  Allocates per-thread scratch here, never inside a
 * step.  Returns SW_SUCCESS, SW_EUSAGE, or SW_ENOMEM (out of memory or threads). */
SW_API int sw_world_set_threads(sw_world *w, int n);

/** The number of threads in use. */
SW_API int sw_world_threads(const sw_world *w);

/** Turns the single-evaluation path of explicit Euler GLM agents on (default) or off; results
 * are bit for bit the same either way (for tests and benchmarks). */
SW_API void sw_world_set_fast_path(sw_world *w, int on);

/** The world's state as bytes (a malloc'ed buffer the caller frees): time, step count, every
 * unit's state and mode, targets, random streams, metrics, the position history and the
 * SteerBench sums, with a layout key and a checksum.  Returns SW_SUCCESS, SW_EUSAGE or
 * SW_ENOMEM. */
SW_API int sw_world_checkpoint(const sw_world *w, void **out, size_t *len);

/** Restores a checkpoint into w, a world freshly created from the same model (same scenario
 * and build) and the same world definition's seed and duration (with sw_world_def.restoring
 * set its creation skips work the checkpoint replaces); then w continues exactly as the
 * checkpointed world would have.  A damaged,
 * truncated or foreign checkpoint is refused with a diagnostic naming `name` (SW_EINPUT) and
 * leaves w as it was. */
SW_API int sw_world_restore(sw_world *w, const void *data, size_t len, const char *name,
			    sw_diag *diag);

/** Called at every sample (t = 0 and every sw_world_sample seconds); non-zero return stops the
 * run with that status. */
typedef int (*sw_sample_fn)(const sw_world *w, void *ctx);

/** Runs to the world's duration (sw_world_duration), calling sample (may be NULL) at t = 0 and
 * every sw_world_sample seconds, and the definition's progress_fn after each step with the
 * fraction done.
 * Returns the first failing status.
 * A world that has already stepped (e.g. restored from a checkpoint) continues from its time and
 * is not sampled again at it. */
SW_API int sw_world_run(sw_world *w, sw_sample_fn sample, void *ctx, sw_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
