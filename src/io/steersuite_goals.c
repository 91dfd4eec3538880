/* io/steersuite_goals.c - SteerSuite goal sequences and the automaton generated for them.
 *
 * A goal sequence is linear: each goal ends when it is accomplished or when its timeDuration
 * has passed, and the agent goes on to the next; after the last one it is disabled.  The
 * generated automaton has one mode per goal (goal0, goal1, ...) and two terminal modes without
 * a law: `done` (the sequence is over) and `expired` (the last goal had a place to reach and its
 * budget ran out first).  A terminal agent leaves the world (run leave-when-done) and the
 * SteerBench metrics stop counting there (sim/steerbench.c); an agent without goals starts in
 * `done`.  Each goal mode has, in priority order, its accomplishment transition (reached<k>) and
 * its time budget (timeout<k>: c ge timeDuration, c the goal's clock):
 *
 *   seekStaticTarget          law to target g<k>; reached when dist(g<k>) le reach x the agent
 *                             radius (sw_steersuite_def.reach, default 2.5 as SteerSuite's
 *                             social-force and RVO AIs)
 *   fleeStaticTarget          law with the attractor reversed (GLM a < 0, eq. 2: the target
 *                             becomes a repeller); budget only
 *   seekDynamicTarget         law to agent g<k>; reached when dist(g<k>) le q<k> (the chased
 *                             agent's radius + reach x the agent radius: the static rule with
 *                             the chased disc as the target);
 *                             chasing agents that stand still: to a target at their place
 *   fleeDynamicTarget         reversed attractor on agent g<k>; budget only
 *   flowStaticDirection       law to a far target g<k> placed along targetDirection; budget only
 *   idle                      no law (stand still); budget only
 *   seekAxisAlignedBoxRegion  law to g<k> (targetLocation, default the box centre); reached when
 *                             the agent's disc overlaps box r<k>: dist(r<k>) le the radius
 *
 * A goal with a place to go or a direction to walk and no law of swerve's own walks as
 * automata/pedestrian.xml does: mode goal<k> runs the time-to-collision law (hard walls, arrival,
 * field="auto"), its twin goal<k>_pass passes others on the right and goal<k>_queue keeps
 * pedestrian.xml's time gap with the collision-free speed model in a dense flow;
 * crowded<k>/clear<k> and dense<k>/open<k>/oncoming<k> switch between them with pedestrian.xml's
 * guards, and the budgets count on the clock c, restarted when a goal starts (time_in_mode
 * restarts at every switch).
 * desiredSpeed becomes the law's top speed (TTC v-pref, CSM v0, GLM v-max, FW/potential
 * speed).  A per-goal <Behaviour><SteeringAlgorithm>glm|fw|potential</SteeringAlgorithm>
 * chooses swerve's law for the goal, and its <parameter><key>K</key><value>V</value>
 * </parameter> entries become attributes K="V" of the law element, checked by the scenario
 * reader like any law element. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/steersuite_internal.h"
#include "swerve/steer.h"

#define EACH_CHILD(c, node) for (xmlNodePtr c = ss_elem((node)->children); c; c = ss_elem(c->next))

static const struct {
	const char *name;
	ss_goal_kind kind;
} kinds[] = {
    {"seekStaticTarget", SS_SEEK_STATIC},   {"fleeStaticTarget", SS_FLEE_STATIC},
    {"seekDynamicTarget", SS_SEEK_DYNAMIC}, {"fleeDynamicTarget", SS_FLEE_DYNAMIC},
    {"flowStaticDirection", SS_FLOW_STATIC}, {"idle", SS_IDLE},
    {"seekAxisAlignedBoxRegion", SS_SEEK_BOX},
};
#define N_KINDS (sizeof kinds / sizeof kinds[0])

static const char *const goal_fields = "<desiredSpeed>, <timeDuration>, <targetLocation>, "
				       "<targetDirection>, <targetName>, <random>, <flowType>, "
				       "<goalRegionBounds> or <Behaviour>";

/* A text leaf copied into dst (SW_NAME_MAX); returns problems. */
static int text_read(sw__loader *ld, xmlNodePtr node, char *dst)
{
	int bad = ss_no_attrs(ld, node);
	xmlNodePtr c = ss_elem(node->children);
	if (c) {
		sw__walk_error(ld, c, "unexpected element <%s> in <%s>; expected text",
			       (const char *)c->name, (const char *)node->name);
		return bad + 1;
	}
	char *s = (char *)xmlNodeGetContent(node);
	if (!s) {
		ld->oom = 1;
		return bad + 1;
	}
	sw__collapse_space(s);
	if (strlen(s) >= SW_NAME_MAX) {
		sw__walk_error(ld, node, "<%s> is too long (%zu characters); expected at most %d",
			       (const char *)node->name, strlen(s), SW_NAME_MAX - 1);
		bad++;
	} else {
		snprintf(dst, SW_NAME_MAX, "%s", s);
	}
	xmlFree(s);
	return bad;
}

/* <Behaviour><SteeringAlgorithm/><Parameters><parameter><key/><value/></parameter>*</Parameters> */
static int behaviour_read(sw__loader *ld, xmlNodePtr node, ss_goal *g)
{
	int bad = ss_no_attrs(ld, node);
	EACH_CHILD(c, node)
	{
		if (ss_is(c, "SteeringAlgorithm")) {
			char law[SW_NAME_MAX] = "";
			bad += text_read(ld, c, law);
			g->law_line = sw__node_line(c);
			if (strcmp(law, "glm") != 0 && strcmp(law, "fw") != 0 &&
			    strcmp(law, "potential") != 0) {
				/* A SteerSuite AI module (rvo2dAI, pprAI, footstep, cc, sfAI, ...):
				 * SteerSuite's reader takes any module name, so the goal walks as
				 * a pedestrian and the module's parameters are dropped. */
				sw__walk_warning(ld, c, "steering algorithm '%s' is a SteerSuite AI module "
					       "without a swerve counterpart; this goal walks as swerve's "
					       "pedestrian (ttc) and ignores its parameters",
					law);
				g->foreign_ai = 1;
			} else {
				snprintf(g->law, sizeof g->law, "%s", law);
			}
			continue;
		}
		if (!ss_is(c, "Parameters")) {
			sw__walk_error(ld, c, "unknown element <%s> in <Behaviour>; expected "
					      "<SteeringAlgorithm> or <Parameters>",
				       (const char *)c->name);
			bad++;
			continue;
		}
		bad += ss_no_attrs(ld, c);
		EACH_CHILD(p, c)
		{
			if (!ss_is(p, "parameter")) {
				sw__walk_error(ld, p, "unknown element <%s> in <Parameters>; expected "
						      "<parameter>",
					       (const char *)p->name);
				bad++;
				continue;
			}
			ss_param *np = realloc(g->params, (size_t)(g->n_params + 1) * sizeof *np);
			if (!np) {
				ld->oom = 1;
				return bad + 1;
			}
			g->params = np;
			np += g->n_params++;
			memset(np, 0, sizeof *np);
			np->line = sw__node_line(p);
			bad += ss_no_attrs(ld, p);
			EACH_CHILD(kv, p)
			{
				if (ss_is(kv, "key"))
					bad += text_read(ld, kv, np->key);
				else if (ss_is(kv, "value"))
					bad += text_read(ld, kv, np->value);
				else {
					sw__walk_error(ld, kv, "unknown element <%s> in <parameter>; "
							       "expected <key> and <value>",
						       (const char *)kv->name);
					bad++;
				}
			}
			if (!np->key[0]) {
				sw__walk_error(ld, p, "<parameter> without a <key>; expected <key> "
						      "and <value>");
				bad++;
			}
		}
	}
	if (g->foreign_ai) {
		free(g->params);
		g->params = NULL;
		g->n_params = 0;
	}
	if (!g->law[0] && !g->foreign_ai && g->n_params > 0 && !bad) {
		sw__walk_error(ld, node, "<Behaviour> gives parameters but no <SteeringAlgorithm>; "
					 "expected glm, fw or potential");
		bad++;
	}
	return bad;
}

static int goal_read(sw__loader *ld, xmlNodePtr node, ss_goal *g)
{
	int bad = ss_no_attrs(ld, node), have_speed = 0, have_time = 0;
	g->line = sw__node_line(node);
	EACH_CHILD(c, node)
	{
		if (ss_is(c, "desiredSpeed")) {
			bad += ss_number(ld, c, &g->speed), have_speed = 1;
		} else if (ss_is(c, "timeDuration")) {
			bad += ss_number(ld, c, &g->duration), have_time = 1;
		} else if (ss_is(c, "targetLocation")) {
			bad += ss_point_read(ld, c, &g->target), g->has_target = 1;
		} else if (ss_is(c, "targetDirection")) {
			bad += ss_point_read(ld, c, &g->dir), g->has_dir = 1;
		} else if (ss_is(c, "targetName")) {
			bad += text_read(ld, c, g->target_name);
		} else if (ss_is(c, "random")) {
			bad += ss_bool(ld, c, &g->random_flag);
		} else if (ss_is(c, "flowType") || ss_is(c, "type")) {
			char unused[SW_NAME_MAX];
			/* only flowDynamicDirection reads it; SteerSuite's reader spells it
			 * <type>, its writer <flowType> */
			bad += text_read(ld, c, unused);
		} else if (ss_is(c, "goalRegionBounds")) {
			bad += ss_bounds_read(ld, c, g->box), g->has_box = 1;
		} else if (ss_is(c, "Behaviour")) {
			bad += behaviour_read(ld, c, g);
		} else if (ss_is(c, "state") || ss_is(c, "targetTangent") ||
			   ss_is(c, "targetTime")) {
			/* read by SteerSuite's reader for its own AI modules only */
			sw__walk_warning(ld, c, "<%s> in <%s> is ignored by swerve (SteerSuite reads it for "
				       "some AI modules only)",
				(const char *)c->name, (const char *)node->name);
		} else {
			sw__walk_error(ld, c, "unknown element <%s> in <%s>; expected %s",
				       (const char *)c->name, (const char *)node->name, goal_fields);
			bad++;
		}
	}
	if (bad)
		return bad;
	const char *missing = NULL;
	if (!have_time)
		missing = "<timeDuration>";
	else if (!have_speed && g->kind != SS_IDLE)
		missing = "<desiredSpeed>";
	else if ((g->kind == SS_SEEK_STATIC || g->kind == SS_FLEE_STATIC) && !g->has_target &&
		 !g->random_flag)
		missing = "<targetLocation> (or <random>true</random>)";
	else if ((g->kind == SS_SEEK_DYNAMIC || g->kind == SS_FLEE_DYNAMIC) &&
		 !g->target_name[0] && !g->random_flag)
		missing = "<targetName> (or <random>true</random>)";
	else if (g->kind == SS_FLOW_STATIC && !g->has_dir)
		missing = "<targetDirection>";
	else if (g->kind == SS_SEEK_BOX && !g->has_box)
		missing = "<goalRegionBounds>";
	if (missing) {
		sw__walk_error(ld, node, "<%s> has no %s; expected one", (const char *)node->name,
			       missing);
		return 1;
	}
	if (g->random_flag && (g->kind == SS_SEEK_STATIC || g->kind == SS_FLEE_STATIC))
		g->target.random = 1;
	if (!(g->duration > 0)) {
		sw__walk_error(ld, node, "<%s>: timeDuration = %g; expected a number > 0",
			       (const char *)node->name, g->duration);
		bad++;
	}
	if (g->kind != SS_IDLE && !(g->speed > 0)) {
		sw__walk_error(ld, node, "<%s>: desiredSpeed = %g; expected a number > 0",
			       (const char *)node->name, g->speed);
		bad++;
	}
	if (g->kind == SS_FLOW_STATIC && !g->dir.random && g->dir.x == 0 && g->dir.z == 0) {
		sw__walk_error(ld, node, "<flowStaticDirection>: targetDirection is the zero vector; "
					 "expected a direction");
		bad++;
	}
	if ((g->kind == SS_FLEE_STATIC || g->kind == SS_FLEE_DYNAMIC) && g->law[0] &&
	    strcmp(g->law, "glm") != 0) {
		sw__walk_error(ld, node, "<%s> with steering algorithm '%s': fleeing reverses GLM's "
					 "target attractor (eq. 2); expected glm",
			       (const char *)node->name, g->law);
		bad++;
	}
	if (g->kind == SS_IDLE && g->law[0]) {
		sw__walk_error(ld, node, "<idle> with a <Behaviour>: an idle agent stands still; "
					 "expected no <Behaviour>");
		bad++;
	}
	return bad;
}

int ss_goals_read(sw__loader *ld, xmlNodePtr seq, ss_goal **goals, int *n)
{
	int bad = ss_no_attrs(ld, seq);
	EACH_CHILD(c, seq)
	{
		size_t k = 0;
		while (k < N_KINDS && !ss_is(c, kinds[k].name))
			k++;
		if (k == N_KINDS) {
			sw__walk_error(ld, c, "%s <%s> in <goalSequence>; expected seekStaticTarget, "
					      "fleeStaticTarget, seekDynamicTarget, "
					      "fleeDynamicTarget, flowStaticDirection, idle or "
					      "seekAxisAlignedBoxRegion",
				       ss_is(c, "flowDynamicDirection") ? "unsupported goal"
									: "unknown element",
				       (const char *)c->name);
			bad++;
			continue;
		}
		ss_goal *g = realloc(*goals, (size_t)(*n + 1) * sizeof *g);
		if (!g) {
			ld->oom = 1;
			return bad + 1;
		}
		*goals = g;
		g += (*n)++;
		memset(g, 0, sizeof *g);
		g->kind = kinds[k].kind;
		bad += goal_read(ld, c, g);
	}
	if (*n == 0 && !bad) {
		sw__walk_error(ld, seq, "empty <goalSequence>; expected at least one goal");
		bad++;
	}
	return bad;
}

void ss_goals_free(ss_goal *goals, int n)
{
	for (int k = 0; k < n; k++)
		free(goals[k].params);
	free(goals);
}

/* --- the generated automaton ------------------------------------------------------------ */

static void param(ss_writer *sw, char prefix, int k, const char *kind, int line)
{
	char name[16];
	snprintf(name, sizeof name, "%c%d", prefix, k);
	ss_start(sw, "param", line);
	ss_attr(sw, "name", name);
	ss_attr(sw, "kind", kind);
	ss_end(sw);
}

/* A reset of var to the number v. */
static void reset_num(ss_writer *sw, const char *var, double v, int line)
{
	char num[32];
	ss_start(sw, "reset", line);
	ss_attr(sw, "var", var);
	ss_text(sw, sw_fmt_num(num, sizeof num, v));
	ss_end(sw);
}

/* A transition labelled label<k>.  One that ends the goal (`ends` 1) and starts another restarts
 * the budget clock c, and with `ends` 2 also the detour counter `stalls`; one to an emitter's
 * `emit` also starts the next agent where the emitter stands (emit).  `also` (or NULL): more
 * resets, as pairs var, value, ended by NULL. */
static void transition_to(ss_writer *sw, const char *to, const char *guard, const char *label,
			  int k, int line, int ends, const ss_emission *emit,
			  const char *const *also)
{
	char lab[32];
	snprintf(lab, sizeof lab, "%s%d", label, k);
	ss_start(sw, "transition", line);
	ss_attr(sw, "to", to);
	ss_attr(sw, "guard", guard);
	ss_attr(sw, "label", lab);
	if (ends && (strncmp(to, "goal", 4) == 0 || strcmp(to, "emit") == 0)) {
		reset_num(sw, "c", 0.0, line);
		if (ends > 1)
			reset_num(sw, "stalls", 0.0, line);
	}
	if (emit && strcmp(to, "emit") == 0) {
		reset_num(sw, "x", emit->x, line);
		reset_num(sw, "y", emit->z, line);
		reset_num(sw, "heading", emit->heading, line);
		reset_num(sw, "turn_rate", 0.0, line);
		ss_start(sw, "reset", line);
		ss_attr(sw, "var", "emitted");
		ss_text(sw, "emitted + 1");
		ss_end(sw);
	}
	for (; also && also[0]; also += 2) {
		ss_start(sw, "reset", line);
		ss_attr(sw, "var", also[0]);
		ss_text(sw, also[1]);
		ss_end(sw);
	}
	ss_end(sw);
}

/* transition_to() without further resets. */
static void transition(ss_writer *sw, const char *to, const char *guard, const char *label,
		       int k, int line, int ends, const ss_emission *emit)
{
	transition_to(sw, to, guard, label, k, line, ends, emit, NULL);
}

static int has_key(const ss_goal *g, const char *key)
{
	for (int p = 0; p < g->n_params; p++)
		if (strcmp(g->params[p].key, key) == 0)
			return 1;
	return 0;
}

/* The law element of goal k: target, speed, reversed attractor, navigation field (plan: the
 * field declared for the goal's target, field="auto"), per-goal parameters. */
static void law(ss_writer *sw, const ss_goal *g, int k, int plan)
{
	const char *name = g->law[0] ? g->law : "glm";
	const char *speed_key = strcmp(name, "glm") == 0 ? "v-max" : "speed";
	char target[16];
	snprintf(target, sizeof target, "g%d", k);
	ss_start(sw, name, g->law_line ? g->law_line : g->line);
	ss_attr(sw, "target", target);
	if (!has_key(g, speed_key))
		ss_attr_num(sw, speed_key, g->speed);
	if ((g->kind == SS_FLEE_STATIC || g->kind == SS_FLEE_DYNAMIC) && !has_key(g, "a"))
		ss_attr_num(sw, "a", -1.0);
	if (plan && (g->kind == SS_SEEK_STATIC || g->kind == SS_SEEK_BOX) && !has_key(g, "field"))
		ss_attr(sw, "field", "auto");
	for (int p = 0; p < g->n_params; p++)
		ss_attr(sw, g->params[p].key, g->params[p].value);
	ss_end(sw);
}

/* Whether goal k walks as a pedestrian (the default): it has a place to go or a direction to
 * walk, and names no swerve law of its own (fleeing needs GLM's reversed attractor). */
static int pedestrian(const ss_goal *g)
{
	return !g->law[0] && (g->kind == SS_SEEK_STATIC || g->kind == SS_SEEK_DYNAMIC ||
			      g->kind == SS_SEEK_BOX || g->kind == SS_FLOW_STATIC);
}

/* Pedestrians perceive as far as their laws reach: the time-to-collision law ignores whatever
 * lies beyond its range (clearance), the queue's collision-free speed model beyond its own (2 m
 * by default, less), and the guards of pedestrian modes look within 5 m, so
 * the runs are the same as with unlimited perception (tests/test_steersuite.c compares them),
 * while a finite radius lets the world index agents and walls in grids (docs/crowds.md). */
double ss_perception(const ss_agents *a)
{
	for (int k = 0; k < a->n_goals; k++)
		if (!pedestrian(&a->goals[k]) && a->goals[k].kind != SS_IDLE)
			return INFINITY;
	return sw_default_ttc_params().range;
}

/* The modes of a pedestrian goal: walking, passing others on the right, the two detours
 * around an obstacle that stalls the walk (right and left, taken in turn), queueing in a
 * dense flow (the collision-free speed model), and, with sw_steersuite_def.squeeze only,
 * squeezing past others who stall the walk after a detour (a ghost mode). */
enum { WALK, PASS, DETOUR_RIGHT, DETOUR_LEFT, QUEUE, SQUEEZE, N_ROLES };
static const char *const role_suffix[N_ROLES] = {"",	      "_pass",  "_detour_right",
						 "_detour_left", "_queue", "_squeeze"};
static const char *const role_bias[N_ROLES] = {NULL, "-30deg", "-60deg", "60deg", NULL, NULL};

/* The law of a pedestrian goal's mode: automata/pedestrian.xml's, with the goal's desired speed
 * (and no slowing down when chasing an agent: capped at distance / 1 s it could not catch one
 * that walks away).  QUEUE: the collision-free speed model with pedestrian.xml's time gap of
 * 0.5 s; the others: the time-to-collision law, the role's bias turning the goal direction
 * (PASS: 30 degrees to the right; the detours 60 degrees either way). */
static void pedestrian_law(ss_writer *sw, const ss_goal *g, int k, int role)
{
	char target[16];
	snprintf(target, sizeof target, "g%d", k);
	ss_start(sw, role == QUEUE ? "csm" : "ttc", g->line);
	ss_attr(sw, "target", target);
	ss_attr_num(sw, role == QUEUE ? "v0" : "v-pref", g->speed);
	if (role == QUEUE)
		ss_attr(sw, "time-gap", "0.5");
	if (g->kind != SS_SEEK_DYNAMIC) /* a chaser does not slow down for a moving target */
		ss_attr(sw, "t-arrive", "1");
	ss_attr(sw, "field", "auto");
	if (role_bias[role])
		ss_attr(sw, "bias", role_bias[role]);
	ss_end(sw);
}

/* A transition from a mode of goal k to its mode `role` (`walk` with the role's suffix). */
static void to_role(ss_writer *sw, const char *walk, int role, const char *guard,
		    const char *label, int k, int line)
{
	char to[48];
	snprintf(to, sizeof to, "%s%s", walk, role_suffix[role]);
	transition(sw, to, guard, label, k, line, 0, NULL);
}

/* Mode `role` of goal k (role_suffix; `walk` is the WALK mode's name): its law, the end of the
 * goal (accomplished: `reached`, budget spent: `after_timeout`; both restart the detour counter
 * `stalls` of a pedestrian automaton) and, for a pedestrian:
 *   WALK -> PASS (crowded<k>: someone ahead walks towards the agent) and PASS -> WALK
 *     (clear<k>): automata/pedestrian.xml's guards;
 *   WALK -> QUEUE (dense<k>: at least 2 others within 1.5 m, nobody ahead coming), QUEUE -> PASS
 *     (oncoming<k>) and QUEUE -> WALK (open<k>): pedestrian.xml's, so a crowd at a door files
 *     through it at the speed model's pace instead of standing in an arch (bottleneck-evacuation-2:
 *     7 of 100 out after 400 s without the queue, all 100 by 272.5 s with it);
 *   WALK -> a detour (stalled<k>) as automata/navigate.xml stalls: after 3 s in the mode the
 *     goal came less than min(0.3 m, half the distance left) nearer in the last 3 s (an agent
 *     pressed against an obstacle squarely in its way, where the law's avoidance and the goal
 *     balance); right and left in turn (bool `left`), each detour `stalls` x 2 s long, at most
 *     16 s (unstall<k>), so an agent in a pocket of obstacles searches farther each time;
 *   PASS -> the right-hand detour (stalled<k>, before clear<k>): stuck while passing, less than
 *     min(0.1 m, half the distance left) nearer in the last 2.5 s, not counted in `stalls` (at
 *     least 2 s).  Always to the right: crowds meeting from several sides then circulate one way
 *     (round the block of hallway-four-way-rounded-roundabout) instead of pressing into each
 *     other; a third of the walking stall's threshold, so a queue creeping to a door keeps its
 *     place (tests/test_steersuite_crowds.c; docs/steersuite.md for the figures);
 *   with squeeze only: WALK -> SQUEEZE (squeeze<k>, before the detours) on the walking stall
 *     when another agent is within 1.5 m, PASS -> SQUEEZE on the passing stall (before the
 *     detour), both only once a detour of the goal has not freed the walker (`stalls gt 0`),
 *     SQUEEZE -> WALK after 3 s, or after 1 s with nobody within 1.5 m (unsqueeze<k>): a
 *     ghost mode without a turn, so two walkers face to face in a gap one agent wide pass
 *     through each other (each overlap counted) while a walker stalled by an obstacle alone
 *     still turns aside; walking on as a ghost once clear of the others would only add
 *     overlaps (scenarioSpace's copy: docs/steersuite.md).  The first stall of a
 *     goal always turns aside: in SteerSuite's cases of up to 12 agents that one detour frees
 *     every walker, so none of them squeezes (squeezing at the first stall made wall-squeeze,
 *     double-squeeze and surprise-1 collide; docs/steersuite.md).  (`stalls gt 0` and
 *     `stalls ge 1` mean the same; the first was chosen while the simulator could let the
 *     detour's guard win the tie at the same stall, fixed in sim/hybrid.c's priority.) */
static void goal_mode(ss_writer *sw, const ss_goal *g, int k, const char *walk, int role,
		      int initial, const char *reached, const char *next, const char *after_timeout,
		      int plan, const ss_emission *emit, int stalls)
{
	char guard[192], num[32], mode[48];
	snprintf(mode, sizeof mode, "%s%s", walk, role_suffix[role]);
	ss_start(sw, "mode", g->line);
	ss_attr(sw, "name", mode);
	if (initial)
		ss_attr(sw, "initial", "true");
	if (role == SQUEEZE)
		ss_attr(sw, "ghost", "true"); /* squeezing past: see sw_steersuite_def.squeeze */
	if (pedestrian(g))
		pedestrian_law(sw, g, k, role);
	else if (g->kind != SS_IDLE)
		law(sw, g, k, plan);
	int ends = stalls ? 2 : 1;
	if (reached[0])
		transition(sw, next, reached, "reached", k, g->line, ends, emit);
	snprintf(guard, sizeof guard, "c ge %s", sw_fmt_num(num, sizeof num, g->duration));
	transition(sw, after_timeout, guard, "timeout", k, g->line, ends, emit);
	if (pedestrian(g)) {
		/* the goal's distance: to its target, or to its box */
		char gd[16];
		snprintf(gd, sizeof gd, g->kind == SS_SEEK_BOX ? "r%d" : "g%d", k);
		char to[48];
		if (role == WALK) {
			snprintf(guard, sizeof guard,
				 "time_in_mode ge 0.5 and dist(%s) gt 1.5 and clearance() ge 0.5 and "
				 "oncoming(%s, 5) ge 1",
				 gd, gd);
			to_role(sw, walk, PASS, guard, "crowded", k, g->line);
			snprintf(guard, sizeof guard,
				 "time_in_mode ge 0.5 and neighbors(1.5) ge 2 and oncoming(%s, 5) eq 0",
				 gd);
			to_role(sw, walk, QUEUE, guard, "dense", k, g->line);
			if (sw->squeeze) { /* stalled after a detour, others near: squeeze past */
				snprintf(guard, sizeof guard,
					 "time_in_mode ge 3 and progress(%s, 3) lt min(0.3, 0.5 * "
					 "dist(%s)) and neighbors(1.5) gt 0 and stalls gt 0",
					 gd, gd);
				to_role(sw, walk, SQUEEZE, guard, "squeeze", k, g->line);
			}
			for (int side = DETOUR_RIGHT; side <= DETOUR_LEFT; side++) {
				static const char *const turn[][5] = {
				    {"left", "true", "stalls", "stalls + 1", NULL},
				    {"left", "false", "stalls", "stalls + 1", NULL}};
				snprintf(guard, sizeof guard,
					 "time_in_mode ge 3 and progress(%s, 3) lt min(0.3, 0.5 * "
					 "dist(%s)) and %sleft",
					 gd, gd, side == DETOUR_RIGHT ? "not " : "");
				snprintf(to, sizeof to, "%s%s", walk, role_suffix[side]);
				transition_to(sw, to, guard, "stalled", k, g->line, 0, NULL,
					      turn[side - DETOUR_RIGHT]);
			}
		} else if (role == PASS) {
			snprintf(guard, sizeof guard,
				 "time_in_mode ge 3 and progress(%s, 2.5) lt min(0.1, 0.5 * dist(%s))",
				 gd, gd);
			if (sw->squeeze) { /* stuck while passing, after a detour: squeeze past */
				char sq[sizeof guard + 16];
				snprintf(sq, sizeof sq, "%s and stalls gt 0", guard);
				to_role(sw, walk, SQUEEZE, sq, "squeeze", k, g->line);
			}
			snprintf(to, sizeof to, "%s%s", walk, role_suffix[DETOUR_RIGHT]);
			transition_to(sw, to, guard, "stalled", k, g->line, 0, NULL, NULL);
			snprintf(guard, sizeof guard,
				 "time_in_mode ge 3 and (neighbors(1.5) eq 0 or progress(%s, 2) lt 0.5 "
				 "or dist(%s) lt 1) or clearance() lt 0.2",
				 gd, gd);
			to_role(sw, walk, WALK, guard, "clear", k, g->line);
		} else if (role == QUEUE) {
			snprintf(guard, sizeof guard,
				 "time_in_mode ge 0.5 and oncoming(%s, 5) ge 1 and dist(%s) gt 1.5 and "
				 "clearance() ge 0.5",
				 gd, gd);
			to_role(sw, walk, PASS, guard, "oncoming", k, g->line);
			to_role(sw, walk, WALK, "time_in_mode ge 3 and neighbors(1.5) lt 2", "open", k,
				g->line);
		} else if (role == SQUEEZE) {
			transition(sw, walk,
				   "time_in_mode ge 3 or time_in_mode ge 1 and neighbors(1.5) eq 0",
				   "unsqueeze", k, g->line, 0, NULL);
		} else {
			transition(sw, walk, "time_in_mode ge min(2 * max(stalls, 1), 16)", "unstall", k,
				   g->line, 0, NULL);
		}
	}
	ss_end(sw);
}

/* Emitters.  SteerSuite's engine emits one agent from an <agentEmitter> when the case starts,
 * and whenever an emitted agent is disabled (its goals done) one more, with the emitter's
 * initial conditions: the engine finds the agent disabled in the frame after the one it
 * finished in, creates the new one at that frame's end, and the new one walks from the frame
 * after (SimulationEngine::_simulateOneStep): one live agent per emitter, for as long as the
 * run lasts.  Here that stream is one swerve agent whose last goal, accomplished or out of
 * budget, jumps to mode `emit` with its continuous state reset to the emitter's (position,
 * heading; docs/automata-format.md, resets of the agent's state) and the counter `emitted`
 * (1 at the start) incremented; it stands there for those two frames (c ge wait), then starts
 * goal0 at the emitter's speed.  The wait also keeps a sequence whose goals are all reached
 * where the emitter stands from jumping for ever at one instant.  It has no `done` mode: an
 * emitter is never done, and the run lasts its duration. */
static void emit_mode(ss_writer *sw, const ss_agents *a, const ss_emission *e)
{
	char guard[64], num[32];
	ss_start(sw, "mode", a->line);
	ss_attr(sw, "name", "emit");
	snprintf(guard, sizeof guard, "c ge %s", sw_fmt_num(num, sizeof num, e->wait));
	ss_start(sw, "transition", a->line);
	ss_attr(sw, "to", "goal0");
	ss_attr(sw, "guard", guard);
	ss_attr(sw, "label", "start");
	reset_num(sw, "c", 0.0, a->line);
	reset_num(sw, "speed", e->speed, a->line);
	ss_end(sw);
	ss_end(sw);
}

void ss_automaton_write(ss_writer *sw, const ss_agents *a, const char *aut, double reach,
			int plan, const int *standing, const ss_emission *emit)
{
	ss_start(sw, "automaton", a->line);
	ss_attr(sw, "name", aut);
	for (int k = 0; k < a->n_goals; k++) {
		const ss_goal *g = &a->goals[k];
		int dynamic = (g->kind == SS_SEEK_DYNAMIC && !(standing && standing[k])) ||
			      g->kind == SS_FLEE_DYNAMIC;
		if (g->kind != SS_IDLE)
			param(sw, 'g', k, dynamic ? "agent" : "target", g->line);
		if (g->kind == SS_SEEK_DYNAMIC)
			param(sw, 'q', k, "real", g->line);
		if (g->kind == SS_SEEK_BOX)
			param(sw, 'r', k, "region", g->line);
	}
	/* c: time spent on the current goal (its budget), across walking and passing */
	ss_start(sw, "var", a->line);
	ss_attr(sw, "name", "c");
	ss_attr(sw, "kind", "clock");
	ss_end(sw);
	int stalls = 0; /* the detours' counter and side, when some goal walks as a pedestrian */
	for (int k = 0; k < a->n_goals; k++)
		stalls |= pedestrian(&a->goals[k]);
	if (stalls) {
		ss_start(sw, "var", a->line);
		ss_attr(sw, "name", "stalls");
		ss_attr(sw, "kind", "int");
		ss_attr(sw, "init", "0");
		ss_end(sw);
		ss_start(sw, "var", a->line);
		ss_attr(sw, "name", "left");
		ss_attr(sw, "kind", "bool");
		ss_attr(sw, "init", "false");
		ss_end(sw);
	}
	if (emit) { /* agents emitted so far, this one included */
		ss_start(sw, "var", a->line);
		ss_attr(sw, "name", "emitted");
		ss_attr(sw, "kind", "int");
		ss_attr(sw, "init", "1");
		ss_end(sw);
	}
	for (int k = 0; k < a->n_goals; k++) {
		/* a chase of an agent that stands still walks to its place as a static goal */
		ss_goal fixed = a->goals[k];
		if (standing && standing[k])
			fixed.kind = SS_SEEK_STATIC;
		const ss_goal *g = &fixed;
		char mode[32], next[32], reached[96], num[32];
		snprintf(mode, sizeof mode, "goal%d", k);
		if (k + 1 < a->n_goals)
			snprintf(next, sizeof next, "goal%d", k + 1);
		else
			snprintf(next, sizeof next, emit ? "emit" : "done");
		reached[0] = '\0';
		if (a->goals[k].kind == SS_SEEK_DYNAMIC)
			snprintf(reached, sizeof reached, "dist(g%d) le q%d", k, k);
		else if (g->kind == SS_SEEK_STATIC)
			snprintf(reached, sizeof reached, "dist(g%d) le %s", k,
				 sw_fmt_num(num, sizeof num, reach * a->radius));
		else if (g->kind == SS_SEEK_BOX) /* the disc overlaps the box */
			snprintf(reached, sizeof reached, "dist(r%d) le %s", k,
				 sw_fmt_num(num, sizeof num, a->radius));
		/* The budget of a last goal with a place to reach running out ends the sequence
		 * unaccomplished; for the others (flee, flow, idle) it is how they end. */
		const char *after_timeout =
		    reached[0] && k + 1 == a->n_goals && !emit ? "expired" : next;
		for (int role = WALK; role < (pedestrian(g) ? N_ROLES : PASS); role++)
			if (role != SQUEEZE || sw->squeeze)
				goal_mode(sw, g, k, mode, role, k == 0 && role == WALK, reached,
					  next, after_timeout, plan, emit, stalls);
	}
	if (emit) {
		emit_mode(sw, a, emit);
		ss_end(sw);
		return;
	}
	/* done: every goal accomplished or passed; expired: the last goal's budget ran out.  Both
	 * are terminal (no law, no way out): the agent is disabled, as in SteerSuite. */
	ss_start(sw, "mode", a->line);
	ss_attr(sw, "name", "done");
	ss_attr(sw, "arrival", "true"); /* summary: reached, at the sequence's end */
	if (a->n_goals == 0)
		ss_attr(sw, "initial", "true"); /* no goals: done from the start */
	ss_end(sw);
	if (a->n_goals > 0) {
		ss_start(sw, "mode", a->line);
		ss_attr(sw, "name", "expired");
		ss_end(sw);
	}
	ss_end(sw);
}
