/* tests/test_steersuite.c - SteerSuite test cases (docs/steersuite.md) and SteerBench metrics.
 *
 * Every case here is written for these tests from the format description.  Geometry is checked
 * against hand-computed clearances, random placement against the region bounds, the obstacles
 * and the other agents, each goal type against the closed-form instant its transition must fire
 * at (straight constant-speed motion), and the metrics against sums computed by hand. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swerve/swerve.h"
#include "tests.h"

static const double PI = 3.14159265358979323846;

/* The header every in-memory case starts with; the body begins on line 5. */
#define HEAD TEST_SS_HEAD

/* Deterministic constant-speed GLM for a goal: no heading noise, speed = desiredSpeed. */
#define EXACT                                                                                      \
	"<Behaviour><SteeringAlgorithm>glm</SteeringAlgorithm><Parameters>"                        \
	"<parameter><key>sigma</key><value>0</value></parameter>"                                  \
	"<parameter><key>speed</key><value>constant</value></parameter>"                           \
	"</Parameters></Behaviour>"

static void dump(const sw_diag *d)
{
	for (int i = 0; i < d->count; i++) {
		char buf[SW_DIAG_MSG + SW_DIAG_FILE + 64];
		sw_diag_format(d, i, buf, sizeof buf);
		fprintf(stderr, "  %s\n", buf);
	}
}

/* Imports HEAD + body + the closing tag with the given seed. */
static int import_case(const char *body, uint64_t seed, sw_model **m, char **xml, sw_diag *d)
{
	sw_steersuite_def def = sw_default_steersuite_def();
	def.seed = seed;
	return test_ss_import(body, &def, m, xml, d);
}

/* import_case() that must succeed (prints the diagnostics when it does not). */
static void import_ok(const char *body, uint64_t seed, sw_model **m, char **xml)
{
	sw_diag d;
	int st = import_case(body, seed, m, xml, &d);
	if (st != SW_SUCCESS)
		dump(&d);
	ck_assert_int_eq(st, SW_SUCCESS);
}

/* An <agent> on one line: position (x, z), direction (dx, dz), radius, initial speed, goals. */
static char *agent(char *buf, size_t n, const char *name, double x, double z, double dx, double dz,
		   double r, double v, const char *goals)
{
	snprintf(buf, n,
		 "<agent><name>%s</name><initialConditions><radius>%g</radius>"
		 "<position><x>%g</x><y>0</y><z>%g</z></position>"
		 "<direction><x>%g</x><y>0</y><z>%g</z></direction><speed>%g</speed>"
		 "</initialConditions><goalSequence>%s</goalSequence></agent>\n",
		 name, r, x, z, dx, dz, v, goals);
	return buf;
}

/* --- transitions ---------------------------------------------------------------------------- */

typedef struct {
	int n;
	double t[16];
	int agent[16];
	char label[16][32];
} events;

static void on_event(const sw_world *w, int agent_i, double t, int from, int to, const char *label,
		     const char *guard, void *ctx)
{
	(void)w, (void)from, (void)to, (void)guard;
	events *e = ctx;
	if (e->n < 16) {
		e->t[e->n] = t;
		e->agent[e->n] = agent_i;
		snprintf(e->label[e->n], sizeof e->label[0], "%s", label);
		e->n++;
	}
}

/* Loads body, runs it to time T recording transitions; returns the world (model in *m). */
static sw_world *run_case(const char *body, double T, sw_model **m, events *ev)
{
	sw_diag d;
	sw_diag_init(&d);
	import_ok(body, 1, m, NULL);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(*m, NULL, &w, &d), SW_SUCCESS);
	memset(ev, 0, sizeof *ev);
	sw_world_set_event_fn(w, on_event, ev);
	while (sw_world_time(w) < T - 1e-9)
		ck_assert_int_eq(sw_world_step(w, &d), SW_SUCCESS);
	return w;
}

static double event_time(const events *ev, int agent_i, const char *label)
{
	for (int k = 0; k < ev->n; k++)
		if (ev->agent[k] == agent_i && strcmp(ev->label[k], label) == 0)
			return ev->t[k];
	return NAN;
}

static void pos(const sw_world *w, int i, double *x, double *y)
{
	sw_agent_state s;
	sw_world_agent(w, i, &s);
	*x = s.y[SW_STATE_X];
	*y = s.y[SW_STATE_Y];
}

/* --- obstacles ------------------------------------------------------------------------------ */

START_TEST(test_obstacle_kinds)
{
	sw_diag d;
	sw_diag_init(&d);
	sw_model *m = NULL;
	sw_steersuite_def def = sw_default_steersuite_def();
	int st = sw_steersuite_load(SW_TEST_DATA "/steersuite/mixed.xml", &def, &m, &d);
	if (st != SW_SUCCESS)
		dump(&d);
	ck_assert_int_eq(st, SW_SUCCESS);
	/* box, oriented box, circle, polygon, 4 region squares */
	ck_assert_int_eq(m->n_obstacles, 8);
	/* Box x -1..1, z 5..6: 5 m from the origin. */
	ck_assert_double_eq_tol(sw_model_obstacle_clearance(m, 0, 0, sw_v2(0, 0), 0), 5.0, 1e-12);
	/* Oriented box 2 x 1 at (8, 8), thetaY 30 deg: its local x axis is (cos 30, -sin 30). */
	double c = cos(PI / 6), s = sin(PI / 6);
	ck_assert_double_eq_tol(
	    sw_model_obstacle_clearance(m, 1, 0, sw_v2(8 + 3 * c, 8 - 3 * s), 0), 2.0, 1e-12);
	ck_assert_double_eq_tol(
	    sw_model_obstacle_clearance(m, 1, 0, sw_v2(8 + 3 * s, 8 + 3 * c), 0), 2.5, 1e-12);
	ck_assert(sw_model_obstacle_clearance(m, 1, 0, sw_v2(8, 8), 0) < 0);
	/* Circle radius 1.5 at (-8, 8). */
	ck_assert_double_eq_tol(sw_model_obstacle_clearance(m, 2, 0, sw_v2(-8, 12), 0.25), 2.25,
				1e-12);
	ck_assert_int_eq(m->obstacles[2].shape, SW_SHAPE_DISC);
	/* Triangle (10,-10) (12,-10) (11,-8): 2 m below its base. */
	ck_assert_double_eq_tol(sw_model_obstacle_clearance(m, 3, 0, sw_v2(11, -12), 0), 2.0, 1e-12);
	ck_assert_int_eq(m->obstacles[3].count, 3);
	/* Region: 4 unit squares inside x -18..-12, z -18..-12. */
	for (int j = 4; j < 8; j++) {
		const sw_obstacle *o = &m->obstacles[j];
		ck_assert_int_eq(o->shape, SW_SHAPE_POLYGON);
		ck_assert_int_eq(o->count, 4);
		const sw_vec2 *v = m->points + o->first;
		for (int k = 0; k < 4; k++) {
			ck_assert(v[k].x >= -18 && v[k].x <= -12 && v[k].y >= -18 && v[k].y <= -12);
			ck_assert_double_eq_tol(sw_v2_dist(v[k], v[(k + 1) % 4]), 1.0, 1e-12);
		}
	}
	sw_model_free(m);
}
END_TEST

/* The scenario text import writes and the test case run the same way, state for state. */
START_TEST(test_import_is_the_same_run)
{
	sw_diag d;
	sw_diag_init(&d);
	sw_model *m1 = NULL, *m2 = NULL;
	char *xml = NULL;
	size_t len = 0;
	sw_steersuite_def def = sw_default_steersuite_def();
	def.seed = 7;
	ck_assert_int_eq(
	    sw_steersuite_import(SW_TEST_DATA "/steersuite/mixed.xml", &def, &xml, &len, &m1, &d),
	    SW_SUCCESS);
	ck_assert_int_eq(sw_scenario_load_memory(xml, len, "written.xml", &m2, &d), SW_SUCCESS);
	ck_assert_int_eq(m1->n_agents, 7);
	ck_assert_int_eq(m2->n_agents, m1->n_agents);
	sw_world *w1 = NULL, *w2 = NULL;
	ck_assert_int_eq(sw_world_create(m1, NULL, &w1, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_world_create(m2, NULL, &w2, &d), SW_SUCCESS);
	for (int k = 0; k < 200; k++) {
		ck_assert_int_eq(sw_world_step(w1, &d), SW_SUCCESS);
		ck_assert_int_eq(sw_world_step(w2, &d), SW_SUCCESS);
		for (int i = 0; i < m1->n_agents; i++) {
			sw_agent_state a, b;
			sw_world_agent(w1, i, &a);
			sw_world_agent(w2, i, &b);
			ck_assert(memcmp(a.y, b.y, sizeof a.y) == 0);
			ck_assert_int_eq(a.mode, b.mode);
		}
	}
	sw_world_destroy(w1);
	sw_world_destroy(w2);
	sw_model_free(m1);
	sw_model_free(m2);
	free(xml);
}
END_TEST

/* Pedestrians perceive as far as the time-to-collision law reaches (its range, 10 m): the
 * import says so, and the run is bit for bit the run with unlimited perception (which keeps
 * the agent and wall grids off) - two groups of 20 crossing a 40 m square among 12 boxes. */
START_TEST(test_pedestrians_perceive_the_law_range)
{
	char body[8192];
	int n = 0;
	for (int b = 0; b < 12; b++) {
		double x = -15.0 + 10.0 * (b % 4), z = -10.0 + 10.0 * (b / 4);
		n += snprintf(body + n, sizeof body - (size_t)n,
			      "<obstacle><xmin>%g</xmin><xmax>%g</xmax><ymin>0</ymin><ymax>1</ymax>"
			      "<zmin>%g</zmin><zmax>%g</zmax></obstacle>\n",
			      x - 0.5, x + 0.5, z + 2.0, z + 3.0);
	}
	for (int g = 0; g < 2; g++) {
		double x0 = g ? 12.0 : -18.0, tx = g ? -18.0 : 18.0;
		n += snprintf(body + n, sizeof body - (size_t)n,
			      "<agentRegion><numAgents>20</numAgents><regionBounds><xmin>%g</xmin>"
			      "<xmax>%g</xmax><ymin>0</ymin><ymax>0</ymax><zmin>-18</zmin>"
			      "<zmax>18</zmax></regionBounds><initialConditions><direction><x>%d</x>"
			      "<y>0</y><z>0</z></direction><radius>0.25</radius><speed>0</speed>"
			      "</initialConditions><goalSequence><seekStaticTarget><targetLocation>"
			      "<x>%g</x><y>0</y><z>0</z></targetLocation><desiredSpeed>1.3"
			      "</desiredSpeed><timeDuration>100</timeDuration></seekStaticTarget>"
			      "</goalSequence></agentRegion>\n",
			      x0, x0 + 6.0, g ? -1 : 1, tx);
	}
	sw_model *m[2];
	import_ok(body, 3, &m[0], NULL);
	import_ok(body, 3, &m[1], NULL);
	ck_assert_int_eq(m[0]->n_agents, 40);
	for (int i = 0; i < m[1]->n_agents; i++) {
		ck_assert_double_eq(m[0]->agents[i].perception, sw_default_ttc_params().range);
		m[1]->agents[i].perception = INFINITY;
	}
	sw_diag d;
	sw_diag_init(&d);
	sw_world *w[2];
	for (int k = 0; k < 2; k++)
		ck_assert_int_eq(sw_world_create(m[k], NULL, &w[k], &d), SW_SUCCESS);
	for (int s = 0; s < 600; s++)
		for (int k = 0; k < 2; k++)
			ck_assert_int_eq(sw_world_step(w[k], &d), SW_SUCCESS);
	double moved = 0.0;
	for (int i = 0; i < 40; i++) {
		sw_agent_state a, b;
		sw_world_agent(w[0], i, &a);
		sw_world_agent(w[1], i, &b);
		ck_assert(memcmp(a.y, b.y, sizeof a.y) == 0);
		ck_assert_int_eq(a.mode, b.mode);
		moved += fabs(a.y[SW_STATE_X] - m[0]->agents[i].position.x);
	}
	ck_assert_double_gt(moved / 40, 3.0); /* they walked (6 s at up to 1.3 m/s) */
	for (int k = 0; k < 2; k++) {
		sw_world_destroy(w[k]);
		sw_model_free(m[k]);
	}
}
END_TEST

/* --- agent regions -------------------------------------------------------------------------- */

static const char *const REGION_CASE =
    "<obstacle><xmin>4</xmin><xmax>6</xmax><ymin>0</ymin><ymax>1</ymax><zmin>-1</zmin>"
    "<zmax>1</zmax></obstacle>\n"
    "<agentRegion><numAgents>30</numAgents><regionBounds><xmin>2</xmin><xmax>8</xmax>"
    "<ymin>0</ymin><ymax>0</ymax><zmin>-3</zmin><zmax>3</zmax></regionBounds>"
    "<initialConditions><direction><random>true</random></direction><radius>0.3</radius>"
    "<speed>0</speed></initialConditions><goalSequence><idle><timeDuration>1</timeDuration>"
    "</idle></goalSequence></agentRegion>\n";

START_TEST(test_agent_region_placement)
{
	sw_model *m = NULL;
	char *x1 = NULL, *x2 = NULL, *x3 = NULL;
	import_ok(REGION_CASE, 5, &m, &x1);
	ck_assert_int_eq(m->n_agents, 30);
	for (int i = 0; i < m->n_agents; i++) {
		const sw_agent *a = &m->agents[i];
		ck_assert(a->position.x - a->radius >= 2 && a->position.x + a->radius <= 8);
		ck_assert(a->position.y - a->radius >= -3 && a->position.y + a->radius <= 3);
		ck_assert(sw_model_obstacle_clearance(m, 0, 0, a->position, a->radius) >= 0);
		ck_assert(a->heading >= -PI && a->heading <= PI);
		for (int j = 0; j < i; j++)
			ck_assert(sw_v2_dist(a->position, m->agents[j].position) >=
				  a->radius + m->agents[j].radius);
	}
	sw_model_free(m);
	/* Same seed, same scenario; another seed, other positions. */
	import_ok(REGION_CASE, 5, &m, &x2);
	sw_model_free(m);
	import_ok(REGION_CASE, 6, &m, &x3);
	sw_model_free(m);
	ck_assert_str_eq(x1, x2);
	ck_assert_str_ne(x1, x3);
	free(x1);
	free(x2);
	free(x3);
}
END_TEST

/* A region with no room for its agents is an error at the region's line. */
START_TEST(test_agent_region_full)
{
	sw_diag d;
	sw_model *m = NULL;
	const char *body =
	    "<agentRegion><numAgents>50</numAgents><regionBounds><xmin>0</xmin><xmax>2</xmax>"
	    "<ymin>0</ymin><ymax>0</ymax><zmin>0</zmin><zmax>2</zmax></regionBounds>"
	    "<initialConditions><direction><x>1</x><y>0</y><z>0</z></direction><radius>0.5</radius>"
	    "</initialConditions><goalSequence><idle><timeDuration>1</timeDuration></idle>"
	    "</goalSequence></agentRegion>\n";
	ck_assert_int_eq(import_case(body, 1, &m, NULL, &d), SW_EINPUT);
	ck_assert_ptr_null(m);
	ck_assert_int_eq(d.entry[0].line, 5);
	ck_assert_ptr_nonnull(strstr(d.entry[0].message, "no free place"));
}
END_TEST

/* --- goals ---------------------------------------------------------------------------------- */

/* Seek: from (0, 0) towards (6, 0) at 1.2 m/s, reached within 2.5 radii (0.5 m each):
 * t = (6 - 1.25) / 1.2. */
START_TEST(test_goal_seek_static)
{
	char a[2048];
	agent(a, sizeof a, "walker", 0, 0, 1, 0, 0.5, 1.2,
	      "<seekStaticTarget><targetLocation><x>6</x><y>0</y><z>0</z></targetLocation>"
	      "<desiredSpeed>1.2</desiredSpeed><timeDuration>100</timeDuration>" EXACT
	      "</seekStaticTarget>");
	sw_model *m;
	events ev;
	sw_world *w = run_case(a, 6, &m, &ev);
	ck_assert_double_eq_tol(event_time(&ev, 0, "reached0"), 4.75 / 1.2, 1e-6);
	ck_assert(isnan(event_time(&ev, 0, "timeout0")));
	ck_assert_str_eq(sw_world_mode_name(w, 0, sw_world_unit_mode(w, 0)), "done");
	/* done is the arrival mode: the summary's reached / t_reached */
	ck_assert(sw_world_metrics(w, 0)->reached);
	ck_assert_double_eq_tol(sw_world_metrics(w, 0)->t_reached, 4.75 / 1.2, 1e-6);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* Flee: heading away from (-5, 0) at 1 m/s for the 4 s budget, then stand: x = 4. */
START_TEST(test_goal_flee_static)
{
	char a[2048];
	agent(a, sizeof a, "runner", 0, 0, 1, 0, 0.5, 1,
	      "<fleeStaticTarget><targetLocation><x>-5</x><y>0</y><z>0</z></targetLocation>"
	      "<desiredSpeed>1</desiredSpeed><timeDuration>4</timeDuration>" EXACT
	      "</fleeStaticTarget>");
	sw_model *m;
	events ev;
	sw_world *w = run_case(a, 6, &m, &ev);
	double x, y;
	pos(w, 0, &x, &y);
	ck_assert_double_eq_tol(event_time(&ev, 0, "timeout0"), 4.0, 1e-9);
	ck_assert_double_eq_tol(x, 4.0, 1e-9);
	ck_assert_double_eq_tol(y, 0.0, 1e-9);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* Seek another agent standing at (6, 0): reached when the centre comes within 2.5 radii of its
 * disc (distance 0.5 + 2.5 x 0.5 = 1.75) at t = 4.25. */
START_TEST(test_goal_seek_dynamic)
{
	char a[2048], b[2048], body[4200];
	agent(a, sizeof a, "chaser", 0, 0, 1, 0, 0.5, 1,
	      "<seekDynamicTarget><targetName>sitter</targetName><desiredSpeed>1</desiredSpeed>"
	      "<timeDuration>50</timeDuration>" EXACT "</seekDynamicTarget>");
	agent(b, sizeof b, "sitter", 6, 0, 1, 0, 0.5, 0,
	      "<idle><timeDuration>50</timeDuration></idle>");
	snprintf(body, sizeof body, "%s%s", a, b);
	sw_model *m;
	events ev;
	sw_world *w = run_case(body, 6, &m, &ev);
	ck_assert_double_eq_tol(event_time(&ev, 0, "reached0"), 4.25, 1e-6);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* Chasing an agent that stands still behind a wall (EXAMPLE's agent B): the chase becomes a walk
 * to a target at its place, with a navigation field round the wall, and ends within 2.5 radii
 * of the chased disc.  A chase of an agent that walks keeps the agent as its target. */
START_TEST(test_chasing_a_standing_agent_plans_round_obstacles)
{
	char a[2048], b[2048], body[6000];
	const char *wall = "<obstacle><xmin>-0.5</xmin><xmax>0.5</xmax><ymin>0</ymin><ymax>1</ymax>"
			   "<zmin>-4</zmin><zmax>4</zmax></obstacle>\n";
	agent(a, sizeof a, "chaser", -6, 0, 1, 0, 0.5, 0,
	      "<seekDynamicTarget><targetName>sitter</targetName><desiredSpeed>1.3</desiredSpeed>"
	      "<timeDuration>60</timeDuration></seekDynamicTarget>");
	agent(b, sizeof b, "sitter", 6, 0, 1, 0, 0.5, 0,
	      "<idle><timeDuration>100</timeDuration></idle>");
	snprintf(body, sizeof body, "%s%s%s", wall, a, b);
	sw_model *m = NULL;
	char *xml = NULL;
	import_ok(body, 1, &m, &xml);
	ck_assert_ptr_nonnull(strstr(xml, "<param name=\"g0\" kind=\"target\"/>"));
	ck_assert_ptr_nonnull(strstr(xml, "<target name=\"chaser_g0\" x=\"6\" y=\"0\""));
	ck_assert_ptr_nonnull(strstr(xml, "<navfield name=\"chaser_n0\" target=\"chaser_g0\""));
	ck_assert_ptr_nonnull(strstr(xml, "guard=\"dist(g0) le q0\""));
	sw_diag d;
	sw_diag_init(&d);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, &d), SW_SUCCESS);
	const sw_agent_metrics *am = sw_world_metrics(w, 0);
	ck_assert(am->reached);
	ck_assert_double_lt(am->t_reached, 30.0); /* round the wall: about 14 m at 1.3 m/s */
	ck_assert_int_eq(am->collisions, 0);
	sw_world_destroy(w);
	free(xml);
	sw_model_free(m);
	/* the sitter walks away: the chaser follows the agent itself */
	agent(b, sizeof b, "sitter", 6, 0, 1, 0, 0.5, 0,
	      "<seekStaticTarget><targetLocation><x>10</x><y>0</y><z>5</z></targetLocation>"
	      "<desiredSpeed>1</desiredSpeed><timeDuration>60</timeDuration>"
	      "</seekStaticTarget>");
	snprintf(body, sizeof body, "%s%s%s", wall, a, b);
	import_ok(body, 1, &m, &xml);
	ck_assert_ptr_nonnull(strstr(xml, "<param name=\"g0\" kind=\"agent\"/>"));
	ck_assert_ptr_null(strstr(xml, "chaser_g0"));
	free(xml);
	sw_model_free(m);
}
END_TEST

/* Flee another agent standing at (-5, 0): straight away at 1 m/s for 3 s. */
START_TEST(test_goal_flee_dynamic)
{
	char a[2048], b[2048], body[4200];
	agent(a, sizeof a, "fleer", 0, 0, 1, 0, 0.5, 1,
	      "<fleeDynamicTarget><targetName>sitter</targetName><desiredSpeed>1</desiredSpeed>"
	      "<timeDuration>3</timeDuration>" EXACT "</fleeDynamicTarget>");
	agent(b, sizeof b, "sitter", -5, 0, 1, 0, 0.5, 0,
	      "<idle><timeDuration>50</timeDuration></idle>");
	snprintf(body, sizeof body, "%s%s", a, b);
	sw_model *m;
	events ev;
	sw_world *w = run_case(body, 5, &m, &ev);
	double x, y;
	pos(w, 0, &x, &y);
	ck_assert_double_eq_tol(event_time(&ev, 0, "timeout0"), 3.0, 1e-9);
	ck_assert_double_eq_tol(x, 3.0, 1e-9);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* Flow along SteerSuite's +z (swerve's +y) starting with heading +x: the heading settles at
 * pi/2 and the agent walks up. */
START_TEST(test_goal_flow)
{
	char a[2048];
	agent(a, sizeof a, "drifter", 0, 0, 1, 0, 0.5, 1,
	      "<flowStaticDirection><targetDirection><x>0</x><y>0</y><z>1</z></targetDirection>"
	      "<desiredSpeed>1</desiredSpeed><timeDuration>20</timeDuration>" EXACT
	      "</flowStaticDirection>");
	sw_model *m;
	events ev;
	sw_world *w = run_case(a, 19, &m, &ev);
	sw_agent_state s;
	sw_world_agent(w, 0, &s);
	ck_assert_double_eq_tol(s.y[SW_STATE_PHI], PI / 2, 1e-3);
	ck_assert(s.y[SW_STATE_Y] > 10);
	ck_assert_int_eq(ev.n, 0);
	while (sw_world_time(w) < 21 - 1e-9)
		ck_assert_int_eq(sw_world_step(w, NULL), SW_SUCCESS);
	ck_assert_double_eq_tol(event_time(&ev, 0, "timeout0"), 20.0, 1e-9);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* Idle for 2 s (standing exactly still), then seek. */
START_TEST(test_goal_idle)
{
	char a[2048];
	agent(a, sizeof a, "waiter", 1, 2, 1, 0, 0.5, 0,
	      "<idle><timeDuration>2</timeDuration></idle>"
	      "<seekStaticTarget><targetLocation><x>9</x><y>0</y><z>2</z></targetLocation>"
	      "<desiredSpeed>1</desiredSpeed><timeDuration>100</timeDuration>" EXACT
	      "</seekStaticTarget>");
	sw_model *m;
	events ev;
	sw_world *w = run_case(a, 1.95, &m, &ev);
	double x, y;
	pos(w, 0, &x, &y);
	ck_assert(x == 1.0 && y == 2.0);
	while (sw_world_time(w) < 12 - 1e-9)
		ck_assert_int_eq(sw_world_step(w, NULL), SW_SUCCESS);
	ck_assert_double_eq_tol(event_time(&ev, 0, "timeout0"), 2.0, 1e-9);
	/* 8 m, minus 2.5 radii of 0.5 m, at 1 m/s after the wait. */
	ck_assert_double_eq_tol(event_time(&ev, 0, "reached1"), 2.0 + 6.75, 1e-6);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* A box x 4..6, z -1..1 without targetLocation: steer to its centre, reached when the disc
 * (radius 0.5) first overlaps it, at x = 3.5, t = 3.5. */
START_TEST(test_goal_box_region)
{
	char a[2048];
	agent(a, sizeof a, "boxer", 0, 0, 1, 0, 0.5, 1,
	      "<seekAxisAlignedBoxRegion><goalRegionBounds><xmin>4</xmin><xmax>6</xmax>"
	      "<ymin>0</ymin><ymax>0</ymax><zmin>-1</zmin><zmax>1</zmax></goalRegionBounds>"
	      "<desiredSpeed>1</desiredSpeed><timeDuration>100</timeDuration>" EXACT
	      "</seekAxisAlignedBoxRegion>");
	sw_model *m;
	events ev;
	sw_world *w = run_case(a, 5, &m, &ev);
	ck_assert_double_eq_tol(event_time(&ev, 0, "reached0"), 3.5, 1e-6);
	double x, y;
	pos(w, 0, &x, &y);
	ck_assert_double_eq_tol(x, 3.5, 1e-6);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* A per-goal <Behaviour> chooses swerve's law and its parameters; desiredSpeed is its speed. */
START_TEST(test_goal_behaviour_law)
{
	char a[2048];
	agent(a, sizeof a, "fw", 0, 0, 1, 0, 0.5, 0,
	      "<seekStaticTarget><targetLocation><x>9</x><y>0</y><z>0</z></targetLocation>"
	      "<desiredSpeed>0.8</desiredSpeed><timeDuration>100</timeDuration><Behaviour>"
	      "<SteeringAlgorithm>fw</SteeringAlgorithm><Parameters><parameter><key>b</key>"
	      "<value>4.5</value></parameter></Parameters></Behaviour></seekStaticTarget>");
	sw_model *m;
	events ev;
	sw_world *w = run_case(a, 0, &m, &ev);
	const sw_steer_def *def = sw_world_steer(w, 0);
	ck_assert_int_eq(def->law, SW_LAW_FW);
	ck_assert_double_eq(def->fw.speed, 0.8);
	ck_assert_double_eq(def->fw.b, 4.5);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* --- metrics -------------------------------------------------------------------------------- */

/* One agent on a straight line at constant speed v for T = 10 s with step h = 0.05 s (target
 * far away): distance v T, no turning, energy sum (T / h) v^2 / 2, composite01 T + energy. */
START_TEST(test_metrics_straight_line)
{
	char a[2048];
	const double v = 1.2, T = 10, h = 0.05;
	agent(a, sizeof a, "line", 0, 0, 1, 0, 0.5, v,
	      "<seekStaticTarget><targetLocation><x>100</x><y>0</y><z>0</z></targetLocation>"
	      "<desiredSpeed>1.2</desiredSpeed><timeDuration>100</timeDuration>" EXACT
	      "</seekStaticTarget>");
	sw_model *m;
	events ev;
	sw_world *w = run_case(a, T, &m, &ev);
	const sw_steerbench_metrics *mt = sw_world_steerbench(w, 0);
	long frames = lround(T / h);
	ck_assert_int_eq(mt->sb_frames, frames);
	ck_assert_double_eq_tol(mt->sb_time, T, 1e-12);
	ck_assert_double_eq_tol(mt->sb_distance, v * T, 1e-9);
	ck_assert_double_eq_tol(mt->sb_degrees, 0.0, 1e-9);
	ck_assert_double_eq_tol(mt->sb_energy, (double)frames * 0.5 * v * v, 1e-9);
	ck_assert_int_eq(mt->sb_collisions, 0);
	ck_assert_double_eq_tol(sw_steerbench_composite01(mt), T + frames * 0.5 * v * v, 1e-9);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* SteerBench sums are kept only when the run asks for them: a native scenario without
 * steerbench="true" has none (and its summary.json no "steerbench" key); with it, a straight
 * constant-speed walk has the closed-form distance v T and T / h frames. */
START_TEST(test_metrics_opt_in)
{
	for (int on = 0; on < 2; on++) {
		char doc[1024];
		snprintf(doc, sizeof doc,
			 "<scenario name=\"sb\"><run duration=\"4\" step=\"0.1\"%s/>"
			 "<world><target name=\"t\" x=\"100\" y=\"0\"/></world>"
			 "<agent name=\"a\" x=\"0\" y=\"0\" heading=\"0\" target=\"t\">"
			 "<glm speed=\"constant\" v-max=\"1.5\" sigma=\"0\"/></agent></scenario>",
			 on ? " steerbench=\"true\"" : "");
		sw_model *m = NULL;
		sw_diag d;
		sw_diag_init(&d);
		ck_assert_int_eq(sw_scenario_load_memory(doc, strlen(doc), "sb.xml", &m, &d),
				 SW_SUCCESS);
		sw_world *w = NULL;
		ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
		ck_assert_int_eq(sw_world_run(w, NULL, NULL, NULL), SW_SUCCESS);
		const sw_steerbench_metrics *mt = sw_world_steerbench(w, 0);
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		ck_assert_int_eq(sw_summary_write_json(f, w, NULL), SW_SUCCESS);
		fclose(f);
		if (!on) {
			ck_assert_ptr_null(mt);
			ck_assert_ptr_null(strstr(buf, "steerbench"));
		} else {
			ck_assert_ptr_nonnull(mt);
			ck_assert_ptr_nonnull(strstr(buf, "\"steerbench\": {\"unique_collisions\""));
			ck_assert_int_eq(mt->sb_frames, 40);
			ck_assert_double_eq_tol(mt->sb_distance, 1.5 * 4.0, 1e-9);
			ck_assert_double_eq_tol(mt->sb_degrees, 0.0, 1e-9);
		}
		free(buf);
		sw_world_destroy(w);
		sw_model_free(m);
	}
}
END_TEST

/* The same walk ending at the target: reached at t* = (5.5 - 1.25) / 1.2 inside frame 71, so
 * 71 frames are enabled; the distance stops at 4.25 m, and the last frame's kinetic energy is
 * that of its displacement (0.05 m in 0.05 s), not of the state's speed (0 at its end). */
START_TEST(test_metrics_until_arrival)
{
	char a[2048];
	const double v = 1.2, h = 0.05;
	agent(a, sizeof a, "arrive", 0, 0, 1, 0, 0.5, v,
	      "<seekStaticTarget><targetLocation><x>5.5</x><y>0</y><z>0</z></targetLocation>"
	      "<desiredSpeed>1.2</desiredSpeed><timeDuration>100</timeDuration>" EXACT
	      "</seekStaticTarget>");
	sw_model *m;
	events ev;
	sw_world *w = run_case(a, 8, &m, &ev);
	const sw_steerbench_metrics *mt = sw_world_steerbench(w, 0);
	double tstar = 4.25 / v;
	long frames = (long)ceil(tstar / h);
	ck_assert_int_eq(frames, 71);
	ck_assert_int_eq(mt->sb_frames, frames);
	ck_assert_double_eq_tol(mt->sb_time, frames * h, 1e-12);
	ck_assert_double_eq_tol(mt->sb_distance, 4.25, 1e-6);
	/* energy from the displacement per frame: 70 whole frames at v, then the last frame's
	 * 4.25 - 70 v h = 0.05 m over h (the agent stops inside it) */
	double last = (4.25 - (double)(frames - 1) * v * h) / h;
	ck_assert_double_eq_tol(mt->sb_energy, (double)(frames - 1) * 0.5 * v * v + 0.5 * last * last,
				1e-6);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* Two agents walking at each other on one line at constant speed barely deviate (their repellers
 * are dead ahead, where GLM's obstacle term nearly vanishes) and pass through each other: one
 * overlap episode, so one unique collision each and 50 points of composite01 each. */
START_TEST(test_metrics_head_on_collision)
{
	char a[2048], b[2048], body[4200];
	agent(a, sizeof a, "east", 0, 0, 1, 0, 0.5, 1,
	      "<seekStaticTarget><targetLocation><x>20</x><y>0</y><z>0</z></targetLocation>"
	      "<desiredSpeed>1</desiredSpeed><timeDuration>100</timeDuration>" EXACT
	      "</seekStaticTarget>");
	agent(b, sizeof b, "west", 10, 0, -1, 0, 0.5, 1,
	      "<seekStaticTarget><targetLocation><x>-10</x><y>0</y><z>0</z></targetLocation>"
	      "<desiredSpeed>1</desiredSpeed><timeDuration>100</timeDuration>" EXACT
	      "</seekStaticTarget>");
	snprintf(body, sizeof body, "%s%s", a, b);
	sw_model *m;
	events ev;
	sw_world *w = run_case(body, 10, &m, &ev);
	for (int i = 0; i < 2; i++) {
		const sw_steerbench_metrics *mt = sw_world_steerbench(w, i);
		sw_agent_state s;
		sw_world_agent(w, i, &s);
		ck_assert(fabs(s.y[SW_STATE_Y]) < 0.2); /* their discs (1 m wide) met */
		ck_assert_int_eq(mt->sb_collisions, 1);
		ck_assert_int_eq(sw_world_metrics(w, i)->agent_collisions, 1);
		ck_assert_double_eq_tol(sw_steerbench_composite01(mt),
					50 + mt->sb_time + mt->sb_energy, 1e-12);
		/* 200 frames at 1 m/s; a frame is 5 steps, and where the two swerve round each
		 * other its chord is a hair shorter than the path */
		ck_assert_double_eq_tol(mt->sb_energy, 200 * 0.5, 1e-3);
	}
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* A finished agent leaves the world and the run ends when all are done: "still" reaches its
 * target at t = 0 (1 m away, within 2.5 radii) and stays at the origin; "walker" crosses the
 * origin on its way from (-6, 0) to (6, 0) exactly straight, as if nobody were there, reaches
 * at (12 - 1.25) / 1 s, and the run stops at the end of that step (of 0.01 s) instead of running
 * the 100 s budget. */
START_TEST(test_finished_agents_leave)
{
	char a[2048], b[2048], body[4200];
	agent(a, sizeof a, "still", 0, 0, 1, 0, 0.5, 0,
	      "<seekStaticTarget><targetLocation><x>1</x><y>0</y><z>0</z></targetLocation>"
	      "<desiredSpeed>1</desiredSpeed><timeDuration>100</timeDuration>" EXACT
	      "</seekStaticTarget>");
	agent(b, sizeof b, "walker", -6, 0, 1, 0, 0.5, 1,
	      "<seekStaticTarget><targetLocation><x>6</x><y>0</y><z>0</z></targetLocation>"
	      "<desiredSpeed>1</desiredSpeed><timeDuration>100</timeDuration>" EXACT
	      "</seekStaticTarget>");
	snprintf(body, sizeof body, "%s%s", a, b);
	sw_model *m;
	events ev;
	sw_world *w = run_case(body, 0, &m, &ev);
	ck_assert(m->run.leave_when_done && m->run.stop_when_done);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, NULL), SW_SUCCESS);
	/* (still's jump at t = 0 happened when the world was made, before events were watched) */
	ck_assert_str_eq(sw_world_mode_name(w, 0, sw_world_unit_mode(w, 0)), "done");
	ck_assert_double_eq_tol(event_time(&ev, 1, "reached0"), 10.75, 1e-6);
	ck_assert(sw_world_time(w) >= 10.75 - 1e-9 && sw_world_time(w) <= 10.76 + 1e-9);
	ck_assert_int_eq(sw_world_agents_done(w), 2);
	ck_assert(sw_world_done(w));
	double x, y;
	pos(w, 1, &x, &y);
	ck_assert(y == 0.0);
	ck_assert_int_eq(sw_world_metrics(w, 1)->agent_collisions, 0);
	ck_assert_int_eq(sw_world_steerbench(w, 1)->sb_collisions, 0);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* --- errors --------------------------------------------------------------------------------- */

typedef struct {
	const char *body;
	int line;
	const char *phrase;
} bad_case;

#define A0 "<agent><name>a</name><initialConditions><radius>0.5</radius>"                          \
	   "<position><x>0</x><y>0</y><z>0</z></position>"                                         \
	   "<direction><x>1</x><y>0</y><z>0</z></direction></initialConditions>\n"
#define IDLE "<goalSequence><idle><timeDuration>1</timeDuration></idle></goalSequence></agent>\n"

static const bad_case bad_cases[] = {
    {"<bogus/>\n" A0 IDLE, 5, "unknown element <bogus> in <SteerBenchTestCase>"},
    {A0 "<goalSequence>\n<seekStaticTarget><targetLocation><x>1</x><y>0</y><z>0</z>"
	"</targetLocation><desiredSpeed>1</desiredSpeed><timeDuration>1</timeDuration>\n"
	"<wobble>3</wobble></seekStaticTarget></goalSequence></agent>\n",
     8, "unknown element <wobble> in <seekStaticTarget>"},
    {A0 "<goalSequence>\n<seekStaticTarget><desiredSpeed>1</desiredSpeed>"
	"<timeDuration>1</timeDuration></seekStaticTarget></goalSequence></agent>\n",
     7, "has no <targetLocation>"},
    {A0 "<goalSequence>\n<idle><desiredSpeed>1</desiredSpeed></idle></goalSequence></agent>\n",
     7, "has no <timeDuration>"},
    {"<orientedWallObstacle/>\n" A0 IDLE, 5, "<orientedWallObstacle> is not supported"},
    {A0 "<goalSequence>\n<flowDynamicDirection/></goalSequence></agent>\n", 7,
     "unsupported goal <flowDynamicDirection>"},
    {"<circleObstacle size=\"3\"><radius>1</radius><height>1</height><position><x>5</x><y>0</y>"
     "<z>5</z></position></circleObstacle>\n" A0 IDLE,
     5, "unknown attribute size on <circleObstacle>"},
    {"<obstacle><xmin>1</xmin><xmax>one</xmax><ymin>0</ymin><ymax>1</ymax><zmin>0</zmin>"
     "<zmax>1</zmax></obstacle>\n" A0 IDLE,
     5, "'one' is not a number"},
    /* A parameter the law does not have: the scenario reader's message, at the test case's
     * line of the <SteeringAlgorithm>. */
    {A0 "<goalSequence><seekStaticTarget><targetLocation><x>1</x><y>0</y><z>0</z>"
	"</targetLocation><desiredSpeed>1</desiredSpeed><timeDuration>1</timeDuration>\n"
	"<Behaviour><SteeringAlgorithm>glm</SteeringAlgorithm><Parameters><parameter>"
	"<key>stiffness</key><value>2</value></parameter></Parameters></Behaviour>"
	"</seekStaticTarget></goalSequence></agent>\n",
     7, "stiffness"},
    /* An agent placed inside an obstacle: reported at the agent's line. */
    {"<circleObstacle><radius>1</radius><height>1</height><position><x>0</x><y>0</y><z>0</z>"
     "</position></circleObstacle>\n\n" A0 IDLE,
     7, "overlapping"},
    {A0 "<goalSequence>\n<seekDynamicTarget><targetName>nobody</targetName>"
	"<desiredSpeed>1</desiredSpeed><timeDuration>1</timeDuration></seekDynamicTarget>"
	"</goalSequence></agent>\n",
     7, "seek target 'nobody' of agent 'a'"},
    {"<agent xmlns=\"urn:other\"><name>a</name></agent>\n" A0 IDLE, 5,
     "not in the SteerSuite namespace"},
};

/* What SteerSuite's reader takes and swerve ignores or maps: loaded, with a warning at the
 * line. */
static const bad_case warn_cases[] = {
    {A0 "<goalSequence><seekStaticTarget><targetLocation><x>1</x><y>0</y><z>0</z>"
	"</targetLocation><desiredSpeed>1</desiredSpeed><timeDuration>1</timeDuration>\n"
	"<Behaviour><SteeringAlgorithm>rvo2dAI</SteeringAlgorithm><Parameters><parameter>"
	"<key>max_neighbors</key><value>10</value></parameter></Parameters></Behaviour>"
	"</seekStaticTarget></goalSequence></agent>\n",
     7, "'rvo2dAI' is a SteerSuite AI module"},
    {A0 "<goalSequence><seekStaticTarget><targetLocation><x>1</x><y>0</y><z>0</z>"
	"</targetLocation><desiredSpeed>1</desiredSpeed><timeDuration>1</timeDuration>\n"
	"<state>5</state></seekStaticTarget></goalSequence></agent>\n",
     7, "<state> in <seekStaticTarget> is ignored"},
    {A0 "<goalSequence><flowStaticDirection><targetDirection><x>1</x><y>0</y><z>0</z>"
	"</targetDirection><desiredSpeed>1</desiredSpeed><timeDuration>1</timeDuration>\n"
	"<targetTime>3</targetTime></flowStaticDirection></goalSequence></agent>\n",
     7, "<targetTime> in <flowStaticDirection> is ignored"},
    {"<obstacle><xmin>3</xmin><xmax>2</xmax><ymin>0</ymin><ymax>1</ymax><zmin>0</zmin>"
     "<zmax>1</zmax></obstacle>\n" A0 IDLE,
     5, "min and max inverted"},
    {A0 IDLE "\n" A0 IDLE, 8, "the agent name is given to more than one agent"},
    {A0 IDLE "\n" A0 IDLE, 8, "agent 'a~2' starts overlapping agent 'a' by 1 m"},
};

START_TEST(test_accepted_with_warning)
{
	const bad_case *bc = &warn_cases[_i];
	sw_diag d;
	sw_model *m = NULL;
	int st = import_case(bc->body, 1, &m, NULL, &d);
	if (st != SW_SUCCESS)
		dump(&d);
	ck_assert_int_eq(st, SW_SUCCESS);
	int found = 0;
	for (int k = 0; k < d.count; k++)
		if (d.entry[k].line == bc->line && d.entry[k].severity == SW_SEV_WARNING &&
		    strstr(d.entry[k].message, bc->phrase))
			found = 1;
	if (!found)
		dump(&d);
	ck_assert_msg(found, "case %d: no warning at case.xml:%d containing '%s'", _i, bc->line,
		      bc->phrase);
	sw_model_free(m);
}
END_TEST

/* Two agents named a: the second is a~2; an agent without goals is done from the start; the
 * run takes at least one step. */
START_TEST(test_names_and_goalless)
{
	sw_model *m = NULL;
	import_ok(A0 IDLE "\n" A0 "</agent>\n", 1, &m, NULL);
	ck_assert_int_eq(m->n_agents, 2);
	ck_assert_str_eq(m->agents[0].name, "a");
	ck_assert_str_eq(m->agents[1].name, "a~2");
	ck_assert_double_eq_tol(m->run.duration, 1.0, 1e-12);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	ck_assert_str_eq(sw_world_mode_name(w, 1, sw_world_unit_mode(w, 1)), "done");
	ck_assert_int_eq(sw_world_agents_done(w), 1);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* An agent without goals is never in the world (done from the start, and done agents leave): it
 * may stand inside an obstacle, as in SteerSuite's polygon cases; one with goals may not. */
START_TEST(test_goalless_agent_inside_obstacle)
{
	const char *disc = "<circleObstacle><radius>1</radius><height>1</height><position><x>0</x>"
			   "<y>0</y><z>0</z></position></circleObstacle>\n";
	char body[2048];
	snprintf(body, sizeof body, "%s%s</agent>\n", disc, A0);
	sw_model *m = NULL;
	import_ok(body, 1, &m, NULL);
	sw_model_free(m);
	snprintf(body, sizeof body, "%s%s%s", disc, A0, IDLE);
	sw_diag d;
	ck_assert_int_eq(import_case(body, 1, &m, NULL, &d), SW_EINPUT);
}
END_TEST

/* A budget meaning "no limit" (machine-written cases give 3e33 s) runs at most an hour, with a
 * warning at the agent. */
START_TEST(test_endless_budget_is_capped)
{
	const char *goal = "<goalSequence><idle><timeDuration>3e33</timeDuration></idle>"
			   "</goalSequence></agent>\n";
	char body[2048];
	snprintf(body, sizeof body, "%s%s", A0, goal);
	sw_model *m = NULL;
	sw_diag d;
	ck_assert_int_eq(import_case(body, 1, &m, NULL, &d), SW_SUCCESS);
	ck_assert_double_eq(m->run.duration, 3600.0);
	ck_assert_int_eq(d.count, 1);
	ck_assert_int_eq(d.entry[0].severity, SW_SEV_WARNING);
	ck_assert_int_eq(d.entry[0].line, 5);
	sw_model_free(m);
}
END_TEST

/* Among obstacles a single agent's static goal steers along a navigation field to its target
 * (global planning, as SteerSuite's AIs plan paths); without obstacles there is none. */
/* Goals that lead to one point share its target and its navigation field: a room of 12
 * agents (a region) and one more agent all head for the same exit point behind a wall with a
 * door, as in bottleneck-evacuation; one <target>, one <navfield>, every agent bound to them,
 * and everyone gets out through the door. */
static int count(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

START_TEST(test_goals_to_one_point_share_a_field)
{
	const char *exit_goal = "<seekStaticTarget><targetLocation><x>-6</x><y>0</y>"
				"<z>5</z></targetLocation><desiredSpeed>1.3</desiredSpeed>"
				"<timeDuration>60</timeDuration></seekStaticTarget>";
	char body[4096], one[1024];
	snprintf(body, sizeof body,
		 "<obstacle><xmin>-0.5</xmin><xmax>0.5</xmax><ymin>0</ymin><ymax>1</ymax>"
		 "<zmin>1</zmin><zmax>8</zmax></obstacle>\n"
		 "<obstacle><xmin>-0.5</xmin><xmax>0.5</xmax><ymin>0</ymin><ymax>1</ymax>"
		 "<zmin>-8</zmin><zmax>-1</zmax></obstacle>\n"
		 "<agentRegion><numAgents>12</numAgents><regionBounds><xmin>2</xmin><xmax>6</xmax>"
		 "<ymin>0</ymin><ymax>0</ymax><zmin>-5</zmin><zmax>5</zmax></regionBounds>"
		 "<initialConditions><direction><random>true</random></direction>"
		 "<radius>0.25</radius><speed>0</speed></initialConditions><goalSequence>%s"
		 "</goalSequence></agentRegion>\n%s",
		 exit_goal, agent(one, sizeof one, "last", 7, 0, -1, 0, 0.25, 0, exit_goal));
	sw_model *m = NULL;
	char *xml = NULL;
	import_ok(body, 2, &m, &xml);
	ck_assert_int_eq(m->n_agents, 13);
	ck_assert_int_eq(count(xml, "<target "), 1);
	ck_assert_int_eq(count(xml, "<navfield "), 1);
	ck_assert_int_eq(count(xml, "<bind param=\"g0\" value=\"agent0_g0\"/>"), 13);
	sw_world *w = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, &d), SW_SUCCESS);
	ck_assert(sw_world_done(w));
	for (int i = 0; i < m->n_agents; i++) {
		ck_assert(sw_world_metrics(w, i)->reached);
		ck_assert_int_eq(sw_world_metrics(w, i)->collisions, 0);
	}
	sw_world_destroy(w);
	free(xml);
	sw_model_free(m);
}
END_TEST

START_TEST(test_static_goals_plan_among_obstacles)
{
	const char *disc = "<circleObstacle><radius>1</radius><height>1</height><position><x>4</x>"
			   "<y>0</y><z>0</z></position></circleObstacle>\n";
	const char *goal = "<goalSequence><seekStaticTarget><targetLocation><x>8</x><y>0</y><z>0</z>"
			   "</targetLocation><desiredSpeed>1</desiredSpeed><timeDuration>30"
			   "</timeDuration></seekStaticTarget></goalSequence></agent>\n";
	char body[2048];
	snprintf(body, sizeof body, "%s%s%s", disc, A0, goal);
	sw_model *m = NULL;
	char *xml = NULL;
	import_ok(body, 1, &m, &xml);
	ck_assert_ptr_nonnull(
	    strstr(xml, "<navfield name=\"a_n0\" target=\"a_g0\" method=\"distance\"/>"));
	/* the pedestrian law follows the field of whatever target it steers to */
	ck_assert_ptr_nonnull(strstr(xml, "<ttc target=\"g0\" v-pref=\"1\" t-arrive=\"1\" "
					  "field=\"auto\"/>"));
	sw_world *w = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, &d), SW_SUCCESS);
	ck_assert(sw_world_done(w) && sw_world_metrics(w, 0)->reached); /* round the disc */
	ck_assert_int_eq(sw_world_metrics(w, 0)->collisions, 0);
	sw_world_destroy(w);
	free(xml);
	sw_model_free(m);
	snprintf(body, sizeof body, "%s%s", A0, goal);
	import_ok(body, 1, &m, &xml);
	ck_assert_ptr_null(strstr(xml, "navfield"));
	free(xml);
	sw_model_free(m);
}
END_TEST

/* Goals spread over a large world: one geodesic field per place, the grids coarsened to fit
 * the node budget (SS_FIELD_NODES) but never beyond half the agent radius, else no fields.
 * Two small obstacles 300 m apart stretch every grid to about 304 m square: 40 places need
 * a spacing of 0.4 m (0.1 and 0.2 m exceed the budget), allowed for agents of radius 1 and not
 * for agents of radius 0.5. */
START_TEST(test_places_all_over_a_large_world_get_coarser_fields)
{
	const double radius[2] = {1.0, 0.5};
	for (int c = 0; c < 2; c++) {
		char body[2048];
		snprintf(body, sizeof body,
			 "<obstacle><xmin>-150</xmin><xmax>-149</xmax><ymin>0</ymin><ymax>1</ymax>"
			 "<zmin>-150</zmin><zmax>-149</zmax></obstacle>\n"
			 "<obstacle><xmin>149</xmin><xmax>150</xmax><ymin>0</ymin><ymax>1</ymax>"
			 "<zmin>149</zmin><zmax>150</zmax></obstacle>\n"
			 "<agentRegion><numAgents>40</numAgents><regionBounds><xmin>-18</xmin>"
			 "<xmax>18</xmax><ymin>0</ymin><ymax>0</ymax><zmin>-18</zmin><zmax>18</zmax>"
			 "</regionBounds><initialConditions><direction><x>1</x><y>0</y><z>0</z>"
			 "</direction><radius>%g</radius><speed>0</speed></initialConditions>"
			 "<goalSequence><seekStaticTarget><targetLocation><random>true</random>"
			 "</targetLocation><desiredSpeed>1.3</desiredSpeed><timeDuration>100"
			 "</timeDuration></seekStaticTarget></goalSequence></agentRegion>\n",
			 radius[c]);
		sw_model *m = NULL;
		char *xml = NULL;
		import_ok(body, 1, &m, &xml);
		if (c == 0) {
			ck_assert_int_eq(count(xml, "<navfield "), 40);
			ck_assert_int_eq(count(xml, "method=\"distance\" resolution=\"0.4\"/>"), 40);
		} else {
			ck_assert_int_eq(count(xml, "navfield"), 0);
		}
		free(xml);
		sw_model_free(m);
	}
}
END_TEST

/* A SteerBench frame must be a whole number of steps. */
START_TEST(test_frame_must_be_a_multiple_of_the_step)
{
	static const char *xml =
	    "<scenario name=\"f\">\n"
	    "  <run duration=\"1\" step=\"0.01\" steerbench=\"true\" steerbench-frame=\"0.033\"/>\n"
	    "  <agent name=\"a\" x=\"0\" y=\"0\"><glm/></agent>\n"
	    "</scenario>\n";
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_ne(sw_scenario_load_memory(xml, strlen(xml), "f.xml", &m, &d), SW_SUCCESS);
	ck_assert_ptr_null(m);
	char msg[512];
	sw_diag_format(&d, 0, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "f.xml:2") && strstr(msg, "steerbench-frame"), "%s", msg);
}
END_TEST

/* A licence comment before the XML declaration (as in SteerSuite's dragon_age cases). */
START_TEST(test_late_declaration)
{
	char body[2048];
	snprintf(body, sizeof body, "<!-- licence\n -->%s%s%s</SteerBenchTestCase>\n", HEAD, A0,
		 IDLE);
	sw_diag d;
	sw_diag_init(&d);
	sw_model *m = NULL;
	sw_steersuite_def def = sw_default_steersuite_def();
	int st = sw_steersuite_import_memory(body, strlen(body), "late.xml", &def, NULL, NULL, &m,
					     &d);
	if (st != SW_SUCCESS)
		dump(&d);
	ck_assert_int_eq(st, SW_SUCCESS);
	ck_assert_int_eq(d.entry[0].line, 2);
	ck_assert_ptr_nonnull(strstr(d.entry[0].message, "XML declaration comes after a comment"));
	sw_model_free(m);
}
END_TEST

START_TEST(test_errors)
{
	const bad_case *bc = &bad_cases[_i];
	sw_diag d;
	sw_model *m = (sw_model *)&m;
	char *xml = (char *)&xml;
	int st = import_case(bc->body, 1, &m, &xml, &d);
	ck_assert_int_eq(st, SW_EINPUT);
	ck_assert_ptr_null(m);
	ck_assert_ptr_null(xml);
	int found = 0;
	for (int k = 0; k < d.count; k++)
		if (d.entry[k].line == bc->line && strcmp(d.entry[k].file, "case.xml") == 0 &&
		    strstr(d.entry[k].message, bc->phrase))
			found = 1;
	if (!found)
		dump(&d);
	ck_assert_msg(found, "case %d: no error at case.xml:%d containing '%s'", _i, bc->line,
		      bc->phrase);
}
END_TEST

/* A swerve scenario is not a test case; a test case without the namespace is refused. */
START_TEST(test_root_and_namespace)
{
	const char *plain = "<SteerBenchTestCase><header/></SteerBenchTestCase>";
	sw_diag d;
	sw_diag_init(&d);
	sw_model *m = NULL;
	sw_steersuite_def def = sw_default_steersuite_def();
	ck_assert_int_eq(sw_steersuite_import_memory(plain, strlen(plain), "p.xml", &def, NULL, NULL,
						     &m, &d),
			 SW_EINPUT);
	ck_assert_ptr_nonnull(strstr(d.entry[0].message, "http://www.magix.ucla.edu/steerbench"));
	int kind = 0;
	ck_assert_int_eq(sw_xml_root_kind(SW_TEST_DATA "/steersuite/mixed.xml", &kind, &d),
			 SW_SUCCESS);
	ck_assert_int_eq(kind, SW_XML_STEERSUITE);
	def.step = 0;
	ck_assert_int_eq(sw_steersuite_import_memory(plain, strlen(plain), "p.xml", &def, NULL, NULL,
						     &m, &d),
			 SW_EUSAGE);
}
END_TEST

Suite *steersuite_suite(void)
{
	Suite *s = suite_create("steersuite");
	TCase *tc = tcase_create("import");
	tcase_add_test(tc, test_obstacle_kinds);
	tcase_add_test(tc, test_pedestrians_perceive_the_law_range);
	tcase_add_test(tc, test_import_is_the_same_run);
	tcase_add_test(tc, test_agent_region_placement);
	tcase_add_test(tc, test_agent_region_full);
	tcase_add_loop_test(tc, test_errors, 0, (int)(sizeof bad_cases / sizeof bad_cases[0]));
	tcase_add_test(tc, test_root_and_namespace);
	tcase_add_loop_test(tc, test_accepted_with_warning, 0,
			    (int)(sizeof warn_cases / sizeof warn_cases[0]));
	tcase_add_test(tc, test_names_and_goalless);
	tcase_add_test(tc, test_late_declaration);
	tcase_add_test(tc, test_frame_must_be_a_multiple_of_the_step);
	tcase_add_test(tc, test_goals_to_one_point_share_a_field);
	tcase_add_test(tc, test_static_goals_plan_among_obstacles);
	tcase_add_test(tc, test_places_all_over_a_large_world_get_coarser_fields);
	tcase_add_test(tc, test_chasing_a_standing_agent_plans_round_obstacles);
	tcase_add_test(tc, test_endless_budget_is_capped);
	tcase_add_test(tc, test_goalless_agent_inside_obstacle);
	suite_add_tcase(s, tc);
	TCase *tg = tcase_create("goals");
	tcase_add_test(tg, test_goal_seek_static);
	tcase_add_test(tg, test_goal_flee_static);
	tcase_add_test(tg, test_goal_seek_dynamic);
	tcase_add_test(tg, test_goal_flee_dynamic);
	tcase_add_test(tg, test_goal_flow);
	tcase_add_test(tg, test_goal_idle);
	tcase_add_test(tg, test_goal_box_region);
	tcase_add_test(tg, test_goal_behaviour_law);
	suite_add_tcase(s, tg);
	TCase *tm = tcase_create("metrics");
	tcase_add_test(tm, test_metrics_straight_line);
	tcase_add_test(tm, test_metrics_until_arrival);
	tcase_add_test(tm, test_metrics_head_on_collision);
	tcase_add_test(tm, test_metrics_opt_in);
	tcase_add_test(tm, test_finished_agents_leave);
	suite_add_tcase(s, tm);
	return s;
}
