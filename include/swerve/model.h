/* swerve/model.h - the compiled, immutable scenario.
 *
 * A model is built once (by the XML reader in io, or programmatically with the sw_model_add_*
 * calls and a def struct from sw_default_*_def()), finalised, and then only read: a world never
 * mutates its model, so one model can back many worlds and threads (MuJoCo's model/data split).
 * All values are SI: metres, seconds, radians. */
#ifndef SWERVE_MODEL_H
#define SWERVE_MODEL_H

#include "swerve/api.h"

#include "swerve/core.h"
#include "swerve/geom.h"
#include "swerve/steer.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Longest object name, including the terminating NUL. */
#define SW_NAME_MAX 64

/* --- behaviour automata ------------------------------------------------------------------- */

/** Kinds of automaton variables.  All are stored as doubles in the agent's state; int and enum
 * variables change only through resets, clocks grow at rate 1, reals follow the mode's flow
 * equation (0 when it has none). */
typedef enum {
	SW_VAR_REAL = 0,  /**< continuous, with optional flow x' = expr per mode */
	SW_VAR_INT = 1,   /**< integer, piecewise constant */
	SW_VAR_ENUM = 2,  /**< one of named labels (stored as the label's index) */
	SW_VAR_CLOCK = 3, /**< continuous with rate 1 in every mode */
	SW_VAR_BOOL = 4   /**< true/false, piecewise constant */
} sw_var_kind;

/** Kinds of automaton parameters, bound per agent by the scenario. */
typedef enum {
	SW_PARAM_REAL = 0,     /**< a number */
	SW_PARAM_TARGET = 1,   /**< a world target (name) */
	SW_PARAM_REGION = 2,   /**< a world region (name) */
	SW_PARAM_OBSTACLE = 3, /**< a world obstacle (name) */
	SW_PARAM_SIGNAL = 4,   /**< a world signal (name) */
	SW_PARAM_AGENT = 5     /**< another agent (name) */
} sw_param_kind;

/** Most labels of one enumerated variable. */
#define SW_ENUM_MAX 16

/** Definition of an automaton variable. */
typedef struct sw_var_def {
	const char *name;    /**< identifier, unique in the automaton */
	int line, column;    /**< source position */
	sw_var_kind kind;    /**< kind */
	double init;         /**< initial value (enum: label index; bool: 0/1); default 0 */
	int n_labels;        /**< enum labels (<= SW_ENUM_MAX) */
	const char *const *labels; /**< enum label names (usable as constants in expressions) */
} sw_var_def;

/** Definition of an automaton parameter. */
typedef struct sw_param_def {
	const char *name;    /**< identifier, unique in the automaton */
	int line, column;
	sw_param_kind kind;
	int has_default;     /**< 1: a default exists (real: def_value; others: def_name) */
	double def_value;
	const char *def_name;
} sw_param_def;

/** A flow equation var' = expr, or a reset var := expr. */
typedef struct sw_assign_def {
	const char *var;     /**< assigned variable */
	const char *expr;    /**< right-hand side text */
	int line, column;    /**< position of the expression text */
} sw_assign_def;

/** Definition of a mode. */
typedef struct sw_mode_def {
	const char *name;    /**< identifier, unique in the automaton */
	int line;
	int moves;           /**< 1: runs steer; 0: the agent stands still (speed 0, heading kept) */
	sw_steer_def steer;  /**< law and parameters when moves */
	const char *target;  /**< name of a target/agent parameter steered to; NULL = closest target */
	int n_flows;
	const sw_assign_def *flows; /**< flows of real variables */
	const char *invariant; /**< boolean expression text, NULL = true */
	int inv_line, inv_column;
	int arrival;         /**< 1: entering this mode is the agent's arrival (summary "reached",
				  "t_reached"); default 0 */
	int ghost;           /**< 1: in this mode the agent and the other agents do not steer round
				  each other (they may overlap; overlaps are still measured);
				  default 0 */
} sw_mode_def;

/** Definition of a transition (urgent: fires the instant its guard becomes true). */
typedef struct sw_transition_def {
	const char *from, *to; /**< mode names */
	int line;
	const char *guard;   /**< boolean expression text (NULL = true: fires on entry) */
	int guard_line, guard_column;
	int n_resets;
	const sw_assign_def *resets; /**< assignments with pre-jump values on the right */
	const char *label;   /**< optional label (events, export synchronisation); NULL none */
} sw_transition_def;

/** Definition of a behaviour automaton (or, with is_signal, a signal automaton: no body, no
 * perception, read by agents through in(signal, mode)). */
typedef struct sw_automaton_def {
	const char *name;    /**< automaton name */
	const char *file;    /**< source file for diagnostics (may be NULL) */
	int line;
	int is_signal;
	const char *initial; /**< initial mode name; NULL = the first mode */
	int n_params, n_vars, n_modes, n_transitions;
	const sw_param_def *params;
	const sw_var_def *vars;
	const sw_mode_def *modes;
	const sw_transition_def *transitions; /**< in document order (priority) */
} sw_automaton_def;

/** A compiled automaton (immutable; see model/automaton.c for the expression slot layout). */
typedef struct sw_automaton sw_automaton;

/** Compiles def: resolves names, compiles every expression (errors cite file:line:column and
 * say what was expected), checks types, and detects zero-time cycles whose guards are constant
 * true.  Returns SW_SUCCESS with *out owned by the caller (sw_automaton_free), or SW_EINPUT. */
SW_API int sw_automaton_compile(const sw_automaton_def *def, sw_automaton **out, sw_diag *diag);

/** Frees a compiled automaton.  NULL is allowed. */
SW_API void sw_automaton_free(sw_automaton *a);

/** Name, file, counts and names of a compiled automaton (for tools such as graph output).  The
 * strings belong to the automaton (valid while it lives). */
SW_API const char *sw_automaton_name(const sw_automaton *a);
/** The file the automaton was read from ("" when built in memory). */
SW_API const char *sw_automaton_file(const sw_automaton *a);
SW_API int sw_automaton_is_signal(const sw_automaton *a);
SW_API int sw_automaton_n_modes(const sw_automaton *a);
SW_API const char *sw_automaton_mode_name(const sw_automaton *a, int mode);
/** The steering law of a mode, or NULL for a mode without one (the agent stands still) or out
 * of range; owned by the automaton. */
SW_API const sw_steer_def *sw_automaton_mode_steer(const sw_automaton *a, int mode);
/** Number of variables, and the name of variable k (declaration order; NULL out of range). */
SW_API int sw_automaton_n_vars(const sw_automaton *a);
SW_API const char *sw_automaton_var_name(const sw_automaton *a, int k);
SW_API int sw_automaton_initial(const sw_automaton *a);
SW_API int sw_automaton_n_transitions(const sw_automaton *a);
/** Transition k: source and target modes, label (NULL none) and guard text as printed back. */
SW_API void sw_automaton_transition(const sw_automaton *a, int k, int *from, int *to,
				    const char **label, char *guard, size_t guard_size);

/** Scripted motion of a target or obstacle. */
typedef enum {
	SW_MOTION_NONE = 0,     /**< static */
	SW_MOTION_LINEAR = 1,   /**< constant velocity from t = 0 */
	SW_MOTION_WAYPOINTS = 2 /**< loop through waypoints at constant speed */
} sw_motion_kind;

/** Definition of a scripted motion.  The object is displaced rigidly by d(t):
 * linear: d(t) = velocity * t; waypoints: d(t) = P(speed * t) - P(0) where P is the closed
 * polyline through the waypoints (so the object's reference point should sit on points[0]). */
typedef struct sw_motion_def {
	sw_motion_kind kind;  /**< default SW_MOTION_NONE */
	sw_vec2 velocity;     /**< linear velocity, m/s */
	double speed;         /**< waypoint speed along the loop, m/s (> 0) */
	int n_points;         /**< number of waypoints (>= 2 for SW_MOTION_WAYPOINTS) */
	const sw_vec2 *points; /**< waypoints, copied by the model; may be NULL when n_points == 0 */
} sw_motion_def;

/** Shapes of static or scripted obstacles. */
typedef enum {
	SW_SHAPE_DISC = 0,    /**< disc: center, radius */
	SW_SHAPE_SEGMENT = 1, /**< wall: segment a-b */
	SW_SHAPE_POLYGON = 2  /**< polygon: vertices; closed ones have a forbidden interior */
} sw_shape_kind;

/** Definition of an obstacle. */
typedef struct sw_obstacle_def {
	const char *name;     /**< unique name (copied); NULL or "" = automatic "obstacleN" */
	int line;             /**< source line for diagnostics, 0 if none */
	sw_shape_kind shape;  /**< default SW_SHAPE_DISC */
	sw_vec2 center;       /**< disc centre, m */
	double radius;        /**< disc radius, m (> 0); default 0.5 */
	sw_vec2 a, b;         /**< segment end points, m (distinct) */
	int n_vertices;       /**< polygon vertex count (>= 2, >= 3 when closed) */
	const sw_vec2 *vertices; /**< polygon vertices, copied */
	int closed;           /**< polygon: 1 = closed (default), 0 = open polyline */
	sw_motion_def motion; /**< scripted motion; default none */
} sw_obstacle_def;

/** Definition of a target (an attractor agents steer to). */
typedef struct sw_target_def {
	const char *name;     /**< unique name (copied); required */
	int line;             /**< source line, 0 if none */
	sw_vec2 position;     /**< position at t = 0, m */
	double radius;        /**< arrival radius: reached when the agent centre is within it, m;
				   default 0.5 */
	sw_motion_def motion; /**< scripted motion; default none */
	double z;             /**< height, m (3-D scenarios only, see sw_model_set_3d); default 0 */
} sw_target_def;

/** A named region (a simple polygon; rectangles are 4 vertices): read by inside(region). */
typedef struct sw_region_def {
	const char *name;     /**< unique name (copied); required */
	int line;
	int n_vertices;       /**< >= 3 */
	const sw_vec2 *vertices; /**< copied */
} sw_region_def;

/** A signal in the world: an instance of a signal automaton (e.g. a traffic light). */
typedef struct sw_signal_def {
	const char *name;      /**< unique name (copied); required */
	int line;
	const char *automaton; /**< name of a signal automaton added with sw_model_add_automaton */
	int has_position;      /**< 1: the signal stands at position (pictures draw its light
				    there); 0 (default): it has no place on the map */
	sw_vec2 position;      /**< where it stands, m (finite; used when has_position) */
} sw_signal_def;

/** One parameter binding of an agent's behaviour: param = value (a number for real parameters,
 * an object name for the others). */
typedef struct sw_binding_def {
	const char *param;    /**< parameter name */
	const char *value;    /**< value text */
	int line;
} sw_binding_def;

/** Kinds of world fields (global planning, plan.h). */
typedef enum {
	SW_FIELD_NAV = 0,   /**< harmonic navigation field to a target, solved over the static world */
	SW_FIELD_VECTOR = 1 /**< user vector field read from a grid file */
} sw_field_kind;

/** A law's field attribute with this value steers by the navigation field of whatever target
 * the law steers to at the time (the first <navfield> declared for it), and straight at
 * targets that have none; no field may have this name. */
#define SW_FIELD_AUTO "auto"

/** How a navigation field is computed (docs/models.md section 4). */
typedef enum {
	SW_NAV_HARMONIC = 0, /**< Laplace's equation (Connolly et al.); the default */
	SW_NAV_DISTANCE = 1  /**< geodesic distance to the target (shortest routes) */
} sw_nav_method;

/** Definition of a world field. */
typedef struct sw_field_def {
	const char *name;     /**< unique name (copied); required */
	int line;             /**< source line, 0 if none */
	sw_field_kind kind;   /**< default SW_FIELD_NAV */
	const char *target;   /**< nav: name of a static target (required) */
	double resolution;    /**< nav: node spacing, m (> 0); default 0.1 */
	double clearance;     /**< nav: obstacles grown by this, m (>= 0); negative = the largest
				   agent radius of the scenario; default -1 */
	double margin;        /**< nav: free border round the world's bounding box, m (> 0);
				   default 2 */
	sw_nav_method method; /**< nav: how phi is computed; default SW_NAV_HARMONIC */
	const char *file;     /**< vector: path of the grid file (copied), as the loader resolved
				   it */
	int has_area;         /**< nav: 1 = the grid covers the rectangle `area` instead of the
				   world's bounding box grown by margin; default 0 */
	double area[4];       /**< nav: opposite corners x1 y1 x2 y2 of that rectangle, m */
} sw_field_def;

/** Planned routes (<routes> in <world>, docs/scenario-format.md "Routes"): a law with
 * field="auto" steering to a static target that has no navigation field follows a shortest route
 * planned for its agent over one shared grid of the static obstacles (plan.h: sw_route_find),
 * instead of steering straight at the target.  resolution 0 (the default) = no routes. */
typedef struct sw_routes_def {
	double resolution; /**< node spacing of the obstacle grid, m (> 0); 0 = off */
	double clearance;  /**< obstacles grown by this, m (>= 0); negative = the largest agent
			        radius of the scenario */
	int line;          /**< source line of <routes>, or 0 */
} sw_routes_def;

struct sw_grid;

/** A compiled world field.  grid is set only while the model is built (a vector field read with
 * its scenario) and is then owned by the model; navigation fields are prepared outside the
 * model, by sw_plan_fields (plan.h), and stay NULL here. */
typedef struct sw_model_field {
	char name[SW_NAME_MAX];
	int line;
	sw_field_kind kind;
	int target;           /**< nav: target index */
	double resolution, clearance, margin;
	sw_nav_method method; /**< nav: harmonic or distance */
	int has_area;         /**< nav: the grid covers area (x0 y0 x1 y1, ordered) */
	double area[4];
	char file[SW_DIAG_FILE]; /**< vector: grid file path */
	struct sw_grid *grid; /**< the prepared field, or NULL */
	void (*grid_free)(struct sw_grid *); /**< frees grid (set with it) */
} sw_model_field;

/** Definition of an agent. */
typedef struct sw_agent_def {
	const char *name;     /**< unique name (copied); NULL or "" = automatic "agentN" */
	int line;             /**< source line, 0 if none */
	sw_vec2 position;     /**< initial position, m */
	double heading;       /**< initial heading from +x, rad; default 0 */
	double speed;         /**< initial speed, m/s (>= 0); default 0 */
	double radius;        /**< body radius rho_a, m (> 0); default 0.25 */
	double perception;    /**< perception radius, m (> 0); default INFINITY */
	const char *target;   /**< bound target name; NULL = the closest target (GLM rule) */
	int stop_at_target;   /**< 1: the agent stops when it reaches its target; default 1 */
	sw_steer_def steer;   /**< law and parameters; default GLM with defaults */
	sw_personality personality; /**< traits; default none active */
	const char *behaviour; /**< automaton name (see sw_model_add_automaton); NULL = run `steer`
				    to the target and stop on arrival (the plain-law behaviour) */
	int n_bindings;       /**< parameter bindings of the behaviour */
	const sw_binding_def *bindings; /**< copied */
	double z;             /**< initial height, m (3-D scenarios only); default 0 */
	double pitch;         /**< initial elevation of the heading above the x-y plane, rad, in
				   [-pi/2, pi/2] (3-D scenarios only); default 0 */
} sw_agent_def;

/** Run settings of a scenario (<run>).  Seed and duration are the scenario's defaults for its
 * runs: a run's own come with its world definition (sim.h: sw_world_def, whose defaults are
 * these); everything else here is the model's and fixed at sw_model_finalize. */
typedef struct sw_run_def {
	double duration;      /**< simulated time, s (> 0); default 30 */
	double step;          /**< macro step h, s: the Euler step, the noise step and the largest
				   adaptive step; default 0.25 (the publications') */
	double sample;        /**< output interval, s: a multiple of step; default = step (0) */
	uint64_t seed;        /**< scenario seed; default 1 */
	char integrator[16];  /**< "euler" or a GSL odeiv2 step type name (rk2, rk4, rkf45, rkck,
				   rk8pd, rk1imp, rk2imp, rk4imp, bsimp, msadams, msbdf); default
				   "euler" */
	int fixed;            /**< 1: run the GSL stepper at fixed step step/substeps; default 0 */
	int substeps;         /**< sub-steps per macro step when fixed; default 1 */
	double rtol;          /**< relative tolerance of adaptive steppers; default 1e-6 */
	double atol;          /**< absolute tolerance of adaptive steppers; default 1e-9 */
	double event_tol;     /**< tolerance of event (crossing) location, s; default 1e-9 */
	int agents_perceive;  /**< 1: agents see each other as moving disc obstacles; default 1 */
	int neighbor_grid;    /**< 1: agents find each other through a uniform grid when every
				   perception radius is finite (results are bit-identical to the
				   loop over all agents, only faster); default 1 */
	int steerbench;       /**< 1: accumulate the SteerBench metrics (sw_world_steerbench,
				   docs/steersuite.md); default 0 (on in imported SteerSuite cases) */
	double steerbench_frame; /**< length of a SteerBench frame, s: a whole multiple of step;
				      0 = one step (default; imported cases: 0.05, SteerSuite's
				      20 frames per second) */
	int leave_when_done;  /**< 1: an agent that is done (a terminal mode of its automaton, or
				   arrived and stopped) leaves the world: no other agent perceives,
				   counts or collides with it; default 0 (on in SteerSuite cases) */
	int stop_when_done;   /**< 1: the run ends at the first step end where every agent is
				   done; default 0 (on in SteerSuite cases) */
	int obstacle_clearances; /**< 1: keep each agent's smallest clearance from each obstacle
				      (sw_world_min_clearance, summary.json); 0: only the smallest
				      over all obstacles, which lets far obstacles go unmeasured
				      for longer (large worlds); default 1 (0 in SteerSuite
				      cases) */
} sw_run_def;

/** A compiled motion. */
typedef struct sw_motion {
	sw_motion_kind kind;
	sw_vec2 velocity;
	double speed;
	int first, count;     /**< waypoints model->points[first .. first + count - 1] */
	double loop_length;   /**< length of the waypoint loop, m */
} sw_motion;

/** A compiled obstacle as the user defined it. */
typedef struct sw_obstacle {
	char name[SW_NAME_MAX];
	int line;
	sw_shape_kind shape;
	sw_vec2 center;       /**< disc centre at t = 0 */
	double radius;        /**< disc radius */
	int first, count;     /**< segment/polygon vertices in model->points */
	int closed;           /**< polygon closed */
	sw_motion motion;
	int prim_first, prim_count; /**< its primitives in model->prims */
} sw_obstacle;

/** A perception primitive: a disc or a segment, at t = 0 (displace by its owner's motion). */
typedef struct sw_prim {
	int is_segment;       /**< 0 disc, 1 segment */
	sw_vec2 a, b;         /**< disc: a = centre; segment: end points */
	double radius;        /**< disc radius (0 for segments) */
	int owner;            /**< index of the obstacle it belongs to */
} sw_prim;

/** A compiled target. */
typedef struct sw_target {
	char name[SW_NAME_MAX];
	int line;
	sw_vec2 position;
	double radius;
	sw_motion motion;
	double z;             /**< height (3-D scenarios), m */
} sw_target;

/** A compiled region. */
typedef struct sw_region {
	char name[SW_NAME_MAX];
	int line;
	int first, count;     /**< vertices in model->points */
} sw_region;

/** A compiled signal: an instance of a signal automaton. */
typedef struct sw_signal {
	char name[SW_NAME_MAX];
	int line;
	int automaton;        /**< index into model->automata */
	int has_position;     /**< 1: it stands at position (sw_signal_def) */
	sw_vec2 position;     /**< m */
} sw_signal;

/** A resolved behaviour parameter of one agent. */
typedef struct sw_binding {
	double value;         /**< real parameters */
	int index;            /**< object parameters: index of the target, region, obstacle, signal
				   or agent; -1 for real ones */
	int line;             /**< source line of the binding (or of the agent for defaults) */
	char text[SW_NAME_MAX]; /**< the value as written */
} sw_binding;

/** A compiled agent. */
typedef struct sw_agent {
	char name[SW_NAME_MAX];
	int line;
	sw_vec2 position;
	double heading, speed, radius, perception;
	int target;           /**< bound target index, -1 = closest */
	int stop_at_target;
	sw_steer_def steer;   /**< with courage already applied to GLM parameters */
	sw_personality personality;
	int behaviour;        /**< automaton index, -1 = plain law (steer, stop on arrival) */
	int binding_first;    /**< its parameters' values: model->bindings[binding_first + j] */
	double z, pitch;      /**< initial height and heading elevation (3-D scenarios) */
} sw_agent;

/** Sorted name index of one kind of record (internal; see model/names.c). */
typedef struct sw_name_index {
	const char **sorted; /**< pointers to the records' names, sorted */
	int n;               /**< records indexed */
	const void *base;    /**< record array indexed */
} sw_name_index;

/** The compiled scenario.  The caller who loads or allocates it owns it (sw_model_free).  It is
 * built with the sw_model_add_* and sw_model_set_* calls and frozen by sw_model_finalize():
 * from then on it is read-only -- every setter refuses it (SW_EUSAGE), no library call writes
 * it (worlds, plans, ensembles, exports only read it), and callers must not write its fields
 * either (sw_world_create refuses a model whose own members were written: sw_model_frozen) --
 * so any number of worlds and threads can share it.  What varies per run goes in a
 * world definition (sim.h: sw_world_def), prepared fields in a plan (plan.h: sw_plan_fields). */
typedef struct sw_model {
	char name[SW_NAME_MAX]; /**< scenario name */
	char file[SW_DIAG_FILE]; /**< source file ("" when built in memory) */
	sw_run_def run;
	int n_obstacles, n_prims, n_targets, n_agents, n_points;
	sw_obstacle *obstacles;
	sw_prim *prims;
	sw_target *targets;
	sw_agent *agents;
	sw_vec2 *points;      /**< storage for polygon vertices and waypoints */
	int n_automata, n_regions, n_signals, n_bindings;
	sw_automaton **automata; /**< owned */
	sw_region *regions;
	sw_signal *signals;
	sw_binding *bindings;
	int n_fields, cap_fields;
	sw_model_field *fields; /**< world fields (navigation and vector fields) */
	int finalized;        /**< 1 after sw_model_finalize() succeeded */
	int cap_obstacles, cap_prims, cap_targets, cap_agents, cap_points; /**< internal */
	int cap_automata, cap_regions, cap_signals, cap_bindings; /**< internal */
	sw_name_index names[3]; /**< internal: name lookups of targets, agents, obstacles */
	int dim3;             /**< 1: a 3-D scenario (docs/models.md section 1.5; see
				   sw_model_set_3d); 0 (default): 2-D */
	int dim3_line;        /**< source line that made it 3-D (<world dimensions="3">), or 0 */
	double periodic_x;    /**< > 0: x is periodic with this period, m: the world is the strip
				   0 <= x < periodic_x whose two ends are joined (see
				   sw_model_set_periodic_x); 0 (default): not periodic */
	int periodic_line;    /**< source line that made it periodic, or 0 */
	int run_line;         /**< source line of <run> (sw_model_set_run), or 0 */
	sw_routes_def routes; /**< planned routes (sw_model_set_routes); resolution 0 = none */
	uint64_t frozen_key;  /**< set by sw_model_finalize: hash of the members above (see
				   sw_model_frozen) */
	const struct sw_model *frozen_at; /**< set by sw_model_finalize: the model's address */
} sw_model;

/** Defaults (the one place where they live). */
SW_API sw_obstacle_def sw_default_obstacle_def(void);
SW_API sw_target_def sw_default_target_def(void);
SW_API sw_agent_def sw_default_agent_def(void);
SW_API sw_run_def sw_default_run_def(void);

/** 1 when t is a whole multiple of step, at least one step (to a relative 1e-9): what a run's
 * sample interval and SteerBench frame must be (the frame also at most 10^9 steps); else 0. */
SW_API int sw_run_multiple(double t, double step);

/** Allocates an empty model named name (may be NULL) read from file (may be NULL, used in
 * diagnostics).  Returns NULL when out of memory.  Free with sw_model_free(). */
SW_API sw_model *sw_model_alloc(const char *name, const char *file);

/** Frees a model and everything it owns.  NULL is allowed. */
SW_API void sw_model_free(sw_model *m);

/** Adds an object after checking every value (finite, in range); problems are added to diag at
 * def->line and SW_EINPUT is returned.  Not allowed after finalisation (SW_EUSAGE). */
SW_API int sw_model_add_obstacle(sw_model *m, const sw_obstacle_def *def, sw_diag *diag);
SW_API int sw_model_add_target(sw_model *m, const sw_target_def *def, sw_diag *diag);
SW_API int sw_model_add_agent(sw_model *m, const sw_agent_def *def, sw_diag *diag);
/** Adds a compiled automaton; the model takes ownership of a (also on failure).  Names must be
 * unique.  Agents and signals refer to automata by name, so add automata first. */
SW_API int sw_model_add_automaton(sw_model *m, sw_automaton *a, int line, sw_diag *diag);
SW_API int sw_model_add_region(sw_model *m, const sw_region_def *def, sw_diag *diag);
SW_API int sw_model_add_signal(sw_model *m, const sw_signal_def *def, sw_diag *diag);

/** Defaults of a field definition. */
SW_API sw_field_def sw_default_field_def(void);

/** Adds a world field after checking it (unique name, known static target, resolution and
 * margin > 0).  Fields must be added after the targets they name. */
SW_API int sw_model_add_field(sw_model *m, const sw_field_def *def, sw_diag *diag);

/** Turns planned routes on (<routes resolution="H" clearance="C"/>; see sw_routes_def): H > 0
 * and finite, C finite (negative = the largest agent radius).  sw_model_finalize() refuses them
 * in 3-D and periodic worlds.  Returns SW_SUCCESS, SW_EUSAGE (finalised model) or SW_EINPUT (a
 * bad value; the diagnostic cites line). */
SW_API int sw_model_set_routes(sw_model *m, double resolution, double clearance, int line,
			       sw_diag *diag);

/** Index of the named field, or -1. */
SW_API int sw_model_find_field(const sw_model *m, const char *name);

/** Index of the named automaton, region or signal, or -1. */
SW_API int sw_model_find_automaton(const sw_model *m, const char *name);
SW_API int sw_model_find_region(const sw_model *m, const char *name);
SW_API int sw_model_find_signal(const sw_model *m, const char *name);

/** Sets the run settings after checking them (line: source line for diagnostics). */
SW_API int sw_model_set_run(sw_model *m, const sw_run_def *def, int line, sw_diag *diag);

/** Resolves names, applies personality, and checks the whole scene: duplicate names, unknown
 * targets, agents starting inside an obstacle or overlapping one (an error: a run that starts in
 * collision has no meaningful clearance metrics).  Returns SW_SUCCESS or SW_EINPUT. */
SW_API int sw_model_finalize(sw_model *m, sw_diag *diag);

/** 1 when m is finalised and none of its own members (run settings, counts, array addresses,
 * flags) has been written since sw_model_finalize, else 0.  sw_world_create refuses a model
 * that is not (SW_EUSAGE): what varies per run goes in sw_world_def.  A struct copy of a
 * finalised model (a private variant that shares its arrays) is the copier's: it counts as
 * frozen.  The arrays themselves are not checked. */
SW_API int sw_model_frozen(const sw_model *m);

/** Makes the scenario three-dimensional (before finalisation): agents and targets take heights
 * z, agents a heading elevation (pitch); discs become vertical pillars (infinite cylinders) and
 * segments and polygons vertical walls; agents are spheres.  sw_model_finalize() then refuses
 * what the 3-D engine does not do (laws other than GLM, agility... see model/model3.c).
 * line: the source line saying so (for diagnostics), 0 if none.
 * Returns SW_SUCCESS or SW_EUSAGE (finalised model). */
SW_API int sw_model_set_3d(sw_model *m, int line);

/** Makes x periodic with period length (> 0; <world periodic-x="L">): agents live in the strip
 * 0 <= x < length, leave it at one end and come back at the other, and perceive each other and
 * collide across the seam (the nearest image); targets keep their coordinates (a target far
 * beyond the strip gives every agent the same goal direction).  sw_model_finalize() refuses what
 * the seam would break (docs/scenario-format.md "Periodic worlds"): 3-D, behaviour automata,
 * signals, fields, moving obstacles, obstacles outside 0 <= x <= length or near the seam
 * (corridor walls along x spanning the whole strip excepted), agents starting outside the strip
 * or without a finite perception radius, and strips no longer than twice the largest perception
 * reach.  Returns SW_EUSAGE for a finalised model or a length that is not positive and finite. */
SW_API int sw_model_set_periodic_x(sw_model *m, double length, int line);

/** Index of the named target / obstacle / agent, or -1. */
SW_API int sw_model_find_target(const sw_model *m, const char *name);
SW_API int sw_model_find_obstacle(const sw_model *m, const char *name);
SW_API int sw_model_find_agent(const sw_model *m, const char *name);

/** Displacement of a scripted motion at time t, m. */
SW_API sw_vec2 sw_motion_displacement(const sw_model *m, const sw_motion *mo, double t);

/** Position of target i at time t, m. */
SW_API sw_vec2 sw_model_target_position(const sw_model *m, int i, double t);

/** Primitive i at time t: disc centre (*a) or segment ends (*a, *b) (b may be NULL for discs). */
SW_API void sw_model_prim_at(const sw_model *m, int i, double t, sw_vec2 *a, sw_vec2 *b);

/** Signed clearance between a disc (centre p, radius r) and obstacle i at time t, m: negative
 * when they overlap or, for a closed polygon, when p is inside it. */
SW_API double sw_model_obstacle_clearance(const sw_model *m, int i, double t, sw_vec2 p, double r);

#ifdef __cplusplus
}
#endif
#endif
