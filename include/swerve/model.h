/* swerve/model.h - the compiled, immutable scenario.
 *
 * A model is built once (by the XML reader in io, or programmatically with the sw_model_add_*
 * calls and a def struct from sw_default_*_def()), finalised, and then only read: a world never
 * mutates its model, so one model can back many worlds and threads (MuJoCo's model/data split).
 * All values are SI: metres, seconds, radians. */
#ifndef SWERVE_MODEL_H
#define SWERVE_MODEL_H

#include "swerve/core.h"
#include "swerve/geom.h"
#include "swerve/steer.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Longest object name, including the terminating NUL. */
#define SW_NAME_MAX 64

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
} sw_target_def;

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
} sw_agent_def;

/** Run settings. */
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
} sw_target;

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
} sw_agent;

/** The compiled scenario.  Read-only after sw_model_finalize(). */
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
	int finalized;        /**< 1 after sw_model_finalize() succeeded */
	int cap_obstacles, cap_prims, cap_targets, cap_agents, cap_points; /**< internal */
} sw_model;

/** Defaults (the one place where they live). */
sw_obstacle_def sw_default_obstacle_def(void);
sw_target_def sw_default_target_def(void);
sw_agent_def sw_default_agent_def(void);
sw_run_def sw_default_run_def(void);

/** Allocates an empty model named name (may be NULL) read from file (may be NULL, used in
 * diagnostics).  Returns NULL when out of memory.  Free with sw_model_free(). */
sw_model *sw_model_alloc(const char *name, const char *file);

/** Frees a model and everything it owns.  NULL is allowed. */
void sw_model_free(sw_model *m);

/** Adds an object after checking every value (finite, in range); problems are added to diag at
 * def->line and SW_EINPUT is returned.  Not allowed after finalisation (SW_EUSAGE). */
int sw_model_add_obstacle(sw_model *m, const sw_obstacle_def *def, sw_diag *diag);
int sw_model_add_target(sw_model *m, const sw_target_def *def, sw_diag *diag);
int sw_model_add_agent(sw_model *m, const sw_agent_def *def, sw_diag *diag);
/** Sets the run settings after checking them (line: source line for diagnostics). */
int sw_model_set_run(sw_model *m, const sw_run_def *def, int line, sw_diag *diag);

/** Resolves names, applies personality, and checks the whole scene: duplicate names, unknown
 * targets, agents starting inside an obstacle or overlapping one (an error: a run that starts in
 * collision has no meaningful clearance metrics).  Returns SW_SUCCESS or SW_EINPUT. */
int sw_model_finalize(sw_model *m, sw_diag *diag);

/** Index of the named target / obstacle / agent, or -1. */
int sw_model_find_target(const sw_model *m, const char *name);
int sw_model_find_obstacle(const sw_model *m, const char *name);
int sw_model_find_agent(const sw_model *m, const char *name);

/** Displacement of a scripted motion at time t, m. */
sw_vec2 sw_motion_displacement(const sw_model *m, const sw_motion *mo, double t);

/** Position of target i at time t, m. */
sw_vec2 sw_model_target_position(const sw_model *m, int i, double t);

/** Primitive i at time t: disc centre (*a) or segment ends (*a, *b) (b may be NULL for discs). */
void sw_model_prim_at(const sw_model *m, int i, double t, sw_vec2 *a, sw_vec2 *b);

/** Signed clearance between a disc (centre p, radius r) and obstacle i at time t, m: negative
 * when they overlap or, for a closed polygon, when p is inside it. */
double sw_model_obstacle_clearance(const sw_model *m, int i, double t, sw_vec2 p, double r);

#ifdef __cplusplus
}
#endif
#endif
