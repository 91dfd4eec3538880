/* io/steersuite_internal.h - the SteerSuite test-case importer, shared by its files (not public).
 *
 *   steersuite.c        the walk over <SteerBenchTestCase> (header, obstacles, agents, regions)
 *                       into an ss_case, with file:line for every problem; public entry points;
 *   steersuite_goals.c  goal sequences: the goal elements, per-goal <Behaviour>, and the
 *                       generated behaviour automaton (one mode per goal, time budgets);
 *   steersuite_place.c  random placement (GSL rng from the seed): region squares, agents,
 *                       goal targets;
 *   steersuite_emit.c   the swerve scenario document (libxml2 xmlTextWriter), each element
 *                       tagged with its test-case line so the scenario reader's diagnostics
 *                       map back.
 *
 * SteerSuite is 3-D with y up and agents on the x-z plane: a SteerSuite point (x, y, z) is the
 * swerve point (x, z); heights are dropped. */
#ifndef SW_STEERSUITE_INTERNAL_H
#define SW_STEERSUITE_INTERNAL_H

#include <gsl/gsl_rng.h>
#include <libxml/tree.h>
#include <libxml/xmlwriter.h>

#include "io/io_internal.h"

#define SS_NS "http://www.magix.ucla.edu/steerbench"

/** Goal kinds (the goal elements of a goalSequence). */
typedef enum {
	SS_SEEK_STATIC,
	SS_FLEE_STATIC,
	SS_SEEK_DYNAMIC,
	SS_FLEE_DYNAMIC,
	SS_FLOW_STATIC,
	SS_IDLE,
	SS_SEEK_BOX
} ss_goal_kind;

/** A point of the test case that may be drawn at random (<random>true</random>). */
typedef struct ss_point {
	int random; /* 1: drawn at random */
	double x, z;
} ss_point;

/** One key/value of a per-goal <Behaviour><Parameters>. */
typedef struct ss_param {
	char key[SW_NAME_MAX];
	char value[SW_NAME_MAX];
	int line;
} ss_param;

typedef struct ss_goal {
	ss_goal_kind kind;
	int line;
	double speed;    /* desiredSpeed, m/s */
	double duration; /* timeDuration, s: the goal's time budget */
	ss_point target; /* targetLocation (static goals, box region) */
	ss_point dir;    /* targetDirection (flow) */
	int has_target, has_dir, has_box, random_flag;
	char target_name[SW_NAME_MAX]; /* targetName (dynamic goals), "" = none */
	double box[4];                 /* goalRegionBounds: xmin xmax zmin zmax */
	char law[16];                  /* <SteeringAlgorithm>, "" = glm defaults */
	int foreign_ai;                /* 1: <SteeringAlgorithm> named a SteerSuite AI module */
	int law_line;
	ss_param *params;
	int n_params;
} ss_goal;

/** An <agent> (n = 1), an <agentRegion> (n = numAgents) or an <agentEmitter> (n = 1, emitter:
 * whenever its agent finishes, another starts where it started: one agent that starts again). */
typedef struct ss_agents {
	int line, region, n, emitter;
	char name[SW_NAME_MAX]; /* <name>, "" = none */
	double bounds[4];       /* regionBounds (regions): xmin xmax zmin zmax */
	ss_point pos, dir;
	int has_pos, has_dir;
	double radius, speed;
	ss_goal *goals;
	int n_goals;
} ss_agents;

enum { SS_BOX, SS_OBOX, SS_CIRCLE, SS_POLY, SS_REGION };

typedef struct ss_obstacle {
	int kind, line;
	double b[4];     /* SS_BOX, SS_REGION bounds: xmin xmax zmin zmax */
	double cx, cz;   /* SS_OBOX, SS_CIRCLE centre */
	double sx, sz;   /* SS_OBOX size */
	double theta;    /* SS_OBOX thetaY, degrees */
	double radius;   /* SS_CIRCLE */
	int n, closed;   /* SS_POLY vertices, SS_REGION numObstacles */
	double size;     /* SS_REGION obstacleSize */
	double *v;       /* SS_POLY: n (x, z) pairs */
} ss_obstacle;

typedef struct ss_case {
	char name[SW_NAME_MAX];
	char *description; /* xmlChar text, or NULL */
	double world[4];   /* worldBounds xmin xmax zmin zmax */
	ss_obstacle *obs;
	int n_obs;
	ss_agents *agents;
	int n_agents;
} ss_case;

/** The scenario text being written, with the test-case line of every element (document order). */
typedef struct ss_writer {
	xmlTextWriterPtr w;
	int *lines;
	int n, cap;
	int rc; /* first failing libxml2 writer result (< 0), else 0 */
	int squeeze; /* sw_steersuite_def.squeeze: each pedestrian goal gets the ghost mode
		      * goal<k>_squeeze */
} ss_writer;

/* steersuite.c */
/** 1 when node is the SteerSuite element name (in the steerbench namespace). */
int ss_is(xmlNodePtr node, const char *name);
/** Next element sibling from node (node itself included), NULL at the end. */
xmlNodePtr ss_elem(xmlNodePtr node);
/** Reports every attribute of node (SteerSuite elements take none); returns their number. */
int ss_no_attrs(sw__loader *ld, xmlNodePtr node);
/** Reads the number in node's text into *out; returns 0 or 1 (a problem was reported). */
int ss_number(sw__loader *ld, xmlNodePtr node, double *out);
/** Reads an XYZ tuple (x, y, z children, or a single <random>true</random>) into *p. */
int ss_point_read(sw__loader *ld, xmlNodePtr node, ss_point *p);
/** Reads a bounds element (xmin xmax ymin ymax zmin zmax) into b = {xmin, xmax, zmin, zmax}. */
int ss_bounds_read(sw__loader *ld, xmlNodePtr node, double b[4]);
/** Reads a boolean text (true, false, 1, 0). */
int ss_bool(sw__loader *ld, xmlNodePtr node, int *out);

/** How an emitter starts its agents (the agent's drawn place and heading, the element's
 * speed) and how long the next one waits before it walks (two SteerBench frames, s). */
typedef struct ss_emission {
	double x, z, heading, speed, wait;
} ss_emission;

/* steersuite_goals.c */
/** Reads a <goalSequence> into *goals, *n (freed with ss_goals_free); returns problems. */
int ss_goals_read(sw__loader *ld, xmlNodePtr seq, ss_goal **goals, int *n);
void ss_goals_free(ss_goal *goals, int n);
/** Writes the <automaton> of one agent element (name aut) with one mode per goal, time
 * budgets and per-goal laws; static targets count as reached within reach agent radii.  With
 * plan, the laws of static and box goals follow the navigation field of their target
 * (field="auto"; pedestrian goals always do).  Its parameters, bound per agent: g<k> (a
 * target, or an agent for dynamic goals), r<k> (the region of a box goal) and q<k> (the reach
 * of a seekDynamicTarget goal, m).  standing (per goal, or NULL): 1 where the element's agents
 * chase agents that stand still; such a goal steers to a target at the chased agent's place,
 * as a static goal, and is reached within q<k>.  emit (emitters only, else NULL): after its last
 * goal the agent starts again where emit says (steersuite_goals.c, "Emitters"). */
void ss_automaton_write(ss_writer *sw, const ss_agents *a, const char *aut, double reach,
			int plan, const int *standing, const ss_emission *emit);
/** The perception radius the agents of element a need: the time-to-collision law's range when
 * every goal walks as a pedestrian (or idles), INFINITY otherwise. */
double ss_perception(const ss_agents *a);

/* --- random places (steersuite_place.c) --- */

/* Distance of the target a flowStaticDirection goal steers to, m: its bearing from anywhere
 * within 100 m of the start differs from the flow direction by at most 1e-4 rad. */
#define SS_FLOW_REACH 1e6

/** An obstacle as a shape: a disc, or a polygon (boxes, region squares, polygonObstacles). */
typedef struct ss_shape {
	int line, disc, closed, n;
	int region;       /* a square of an <obstacleRegion> (placed by ss_place) */
	double cx, cz, r; /* disc */
	double v[8];      /* polygon of up to 4 vertices (boxes) ... */
	const double *pv; /* ... or the vertices of a polygonObstacle */
} ss_shape;

/** A shape's polygon vertices (x, z pairs). */
static inline const double *ss_shape_v(const ss_shape *s) { return s->pv ? s->pv : s->v; }

/** One agent of the scenario. */
typedef struct ss_inst {
	int elem;              /* index into c->agents */
	char name[SW_NAME_MAX];
	double x, z, heading;
	int placed;            /* position known (fixed, or drawn already) */
	double *tx, *tz;       /* per goal: target point (static, flow, box goals) */
	int *tagent;           /* per goal: agent chased or fled (dynamic goals), -1 none */
	int *share_i, *share_k; /* per goal with a fixed place: the first agent and goal (in
				   document order) whose target is the same point; their target
				   (and navigation field) is this goal's too (steersuite_emit.c) */
	int *standing;          /* per goal: 1 when it chases an agent that stands still
				   (steersuite_emit.c mark_standing): tx, tz are that agent's place */
} ss_inst;

/** A case's obstacles as shapes and its agents, placed. */
typedef struct ss_placed {
	ss_shape *shapes;
	int n_shapes;
	ss_inst *in;
	int n_in;
} ss_placed;

/** Places the random squares, the agents and their goals' targets of case c with the import
 * seed; unique agent names (NAME~2, ... with a warning).  Returns 1 (placed: free *out with
 * ss_placed_free), 0 (a problem reported through ld) or -1 (out of memory); *out is empty
 * unless placed. */
int ss_place(sw__loader *ld, const ss_case *c, uint64_t seed, ss_placed *out);
/** Frees what ss_place placed and empties *pl (an empty one too). */
void ss_placed_free(ss_placed *pl);

/* --- the scenario document (steersuite_emit.c) --- */

/** Writes the swerve scenario equivalent to c (random draws from seed) into a new buffer;
 * *srcline (malloc'd, *n_src entries) receives, per element written in document order, the
 * test-case line it came from.
 * Problems found while drawing (no free place) go to ld.  Returns SW_SUCCESS, SW_EINPUT or
 * SW_ENOMEM. */
int ss_emit(sw__loader *ld, const ss_case *c, const sw_steersuite_def *def, char **xml,
	    size_t *len, int **srcline, int *n_src);
/** Starts element name, recording the test-case line it comes from. */
void ss_start(ss_writer *sw, const char *name, int line);
void ss_end(ss_writer *sw);
/** Attribute writers (numbers as sw_fmt_num: the shortest text that reads back exactly). */
void ss_attr(ss_writer *sw, const char *k, const char *v);
/* Text content of the open element. */
void ss_text(ss_writer *sw, const char *text);
void ss_attr_num(ss_writer *sw, const char *k, double v);

#endif
