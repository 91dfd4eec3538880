/* tests/test_steersuite.c - SteerSuite test cases imported (docs/steersuite.md): obstacles,
 * agent regions, planned goals, refused and warned-about input.
 *
 * Every case here is written for these tests from the format description.  Geometry is checked
 * against hand-computed clearances, random placement against the region bounds, the obstacles
 * and the other agents.  The goal types and the SteerBench metrics, run, are in
 * tests/test_steersuite_run.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swerve/swerve.h"
#include "tests.h"

static const double PI = 3.14159265358979323846;

/* The header every in-memory case starts with; the body begins on line 5. */
#define HEAD TEST_SS_HEAD

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

void test_ss_import_ok(const char *body, uint64_t seed, sw_model **m, char **xml)
{
	sw_diag d;
	int st = import_case(body, seed, m, xml, &d);
	if (st != SW_SUCCESS)
		dump(&d);
	ck_assert_int_eq(st, SW_SUCCESS);
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
	test_ss_import_ok(body, 3, &m[0], NULL);
	test_ss_import_ok(body, 3, &m[1], NULL);
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
	test_ss_import_ok(REGION_CASE, 5, &m, &x1);
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
	test_ss_import_ok(REGION_CASE, 5, &m, &x2);
	sw_model_free(m);
	test_ss_import_ok(REGION_CASE, 6, &m, &x3);
	sw_model_free(m);
	ck_assert_str_eq(x1, x2);
	ck_assert_str_ne(x1, x3);
	free(x1);
	free(x2);
	free(x3);
}
END_TEST

/* --- obstacle regions ------------------------------------------------------------------------ */

/* A fixed box, a region of 60 squares of side 0.98 in 20 m x 20 m, another box (after the region
 * in the file, placed before its squares all the same), then 20 agents with a random target
 * anywhere (worldBounds -20 .. 20). */
static const char *const FOREST_CASE =
    "<obstacle><xmin>-1</xmin><xmax>1</xmax><ymin>0</ymin><ymax>1</ymax><zmin>-1</zmin>"
    "<zmax>1</zmax></obstacle>\n"
    "<obstacleRegion><numObstacles>%d</numObstacles><regionBounds><xmin>-10</xmin>"
    "<xmax>%d</xmax><ymin>0</ymin><ymax>0</ymax><zmin>-10</zmin><zmax>%d</zmax></regionBounds>"
    "<obstacleSize>0.98</obstacleSize><obstacleHeight>1</obstacleHeight></obstacleRegion>\n"
    "<obstacle><xmin>4</xmin><xmax>6</xmax><ymin>0</ymin><ymax>1</ymax><zmin>4</zmin>"
    "<zmax>6</zmax></obstacle>\n"
    "<agentRegion><numAgents>20</numAgents><regionBounds><xmin>-15</xmin><xmax>15</xmax>"
    "<ymin>0</ymin><ymax>0</ymax><zmin>-15</zmin><zmax>15</zmax></regionBounds>"
    "<initialConditions><direction><random>true</random></direction><radius>0.5</radius>"
    "<speed>0</speed></initialConditions><goalSequence><seekStaticTarget><targetLocation>"
    "<random>true</random></targetLocation><desiredSpeed>1.3</desiredSpeed><timeDuration>100"
    "</timeDuration></seekStaticTarget></goalSequence></agentRegion>\n";

/* SteerSuite's reader places a region's squares after the other obstacles, each centre uniform in
 * the region shrunk by the side, drawn again until a disc of the side's radius about it overlaps
 * no obstacle placed before: checked through the model's own clearance function.  Random targets
 * anywhere are 1 m clear of every obstacle, as SteerSuite's AIs draw them. */
START_TEST(test_region_squares_placed_as_steersuite_does)
{
	char body[2048];
	snprintf(body, sizeof body, FOREST_CASE, 60, 10, 10);
	sw_model *m = NULL;
	char *xml = NULL;
	test_ss_import_ok(body, 3, &m, &xml);
	ck_assert_int_eq(m->n_obstacles, 62);
	const double side = 0.98;
	for (int k = 1; k <= 60; k++) {
		const sw_obstacle *o = &m->obstacles[k];
		ck_assert_int_eq(o->count, 4);
		sw_vec2 c = sw_v2(0.0, 0.0);
		for (int v = 0; v < 4; v++)
			c = sw_v2_add(c, sw_v2_scale(m->points[o->first + v], 0.25));
		ck_assert(c.x >= -10 + side - 1e-9 && c.x <= 10 - side + 1e-9);
		ck_assert(c.y >= -10 + side - 1e-9 && c.y <= 10 - side + 1e-9);
		for (int j = 0; j < m->n_obstacles; j++) /* both boxes, the squares placed before */
			if (j < k || j == 61)
				ck_assert_msg(sw_model_obstacle_clearance(m, j, 0.0, c, side) >= -1e-9,
					      "square %d within %g m of obstacle %d", k, side, j);
	}
	for (int t = 0; t < m->n_targets; t++)
		for (int k = 0; k < m->n_obstacles; k++)
			ck_assert(sw_model_obstacle_clearance(m, k, 0.0, m->targets[t].position, 1.0) >=
				  0.0);
	free(xml);
	sw_model_free(m);
	/* No room: 200 such squares in 4 m x 4 m, an error at the region's line (6). */
	snprintf(body, sizeof body, FOREST_CASE, 200, -6, -6);
	sw_diag d;
	ck_assert_int_eq(import_case(body, 3, &m, NULL, &d), SW_EINPUT);
	int found = 0;
	for (int e = 0; e < d.count; e++)
		found |= strstr(d.entry[e].message, "no free place for square") != NULL &&
			 d.entry[e].line == 6;
	if (!found)
		dump(&d);
	ck_assert(found);
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
	test_ss_import_ok(A0 IDLE "\n" A0 "</agent>\n", 1, &m, NULL);
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
	test_ss_import_ok(body, 1, &m, NULL);
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
		 exit_goal, test_ss_agent(one, sizeof one, "last", 7, 0, -1, 0, 0.25, 0, exit_goal));
	sw_model *m = NULL;
	char *xml = NULL;
	test_ss_import_ok(body, 2, &m, &xml);
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
	test_ss_import_ok(body, 1, &m, &xml);
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
	test_ss_import_ok(body, 1, &m, &xml);
	ck_assert_ptr_null(strstr(xml, "navfield"));
	free(xml);
	sw_model_free(m);
}
END_TEST

/* Goals spread over a large world: one geodesic field per place, the grids coarsened to fit
 * the node budget (SS_FIELD_NODES) but never beyond half the agent radius, else no fields but
 * planned routes on one grid at half the agent radius (the 304 m square at 0.25 m: 1.5 M nodes,
 * within SS_ROUTE_NODES).
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
		test_ss_import_ok(body, 1, &m, &xml);
		if (c == 0) {
			ck_assert_int_eq(count(xml, "<navfield "), 40);
			ck_assert_int_eq(count(xml, "method=\"distance\" resolution=\"0.4\"/>"), 40);
			ck_assert_int_eq(count(xml, "<routes"), 0);
		} else {
			ck_assert_int_eq(count(xml, "navfield"), 0);
			ck_assert_int_eq(count(xml, "<routes resolution=\"0.25\"/>"), 1);
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

/* Messages made after an import (an export's, a run's) cite lines of the generated scenario;
 * sw_steersuite_map_diag moves them to the test case's: here the agent 'chaser', whose lines in
 * both texts are found by searching them. */
static int line_at(const char *text, const char *at)
{
	int l = 1;
	for (const char *c = text; c < at; c++)
		l += *c == '\n';
	return l;
}

START_TEST(test_later_messages_cite_the_case)
{
	const char *path = "tests/data/steersuite/mixed.xml";
	sw_steersuite_def def = sw_default_steersuite_def();
	char *xml = NULL, *src = NULL;
	size_t len = 0;
	static sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_steersuite_import(path, &def, &xml, &len, NULL, &d), SW_SUCCESS);
	const char *g = strstr(xml, "<agent name=\"chaser\"");
	ck_assert_ptr_nonnull(g);
	int gen = line_at(xml, g);
	/* the test case's <agent> element that names chaser */
	FILE *f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	src = calloc(1 << 16, 1);
	ck_assert_uint_gt(fread(src, 1, (1 << 16) - 1, f), 0);
	fclose(f);
	const char *nm = strstr(src, "<name>chaser</name>"), *ag = NULL;
	ck_assert_ptr_nonnull(nm);
	for (const char *c = src; c && c < nm; c = strstr(c + 1, "<agent>"))
		if (strncmp(c, "<agent>", 7) == 0)
			ag = c;
	ck_assert_ptr_nonnull(ag);
	int want = line_at(src, ag);
	ck_assert_int_ne(want, gen);
	sw_diag_init(&d);
	sw_diag_add(&d, SW_SEV_ERROR, path, gen, 3, "kept (before first)");
	sw_diag_add(&d, SW_SEV_ERROR, path, gen, 3, "agent 'x' (line %d): moved", gen);
	sw_diag_add(&d, SW_SEV_WARNING, "other.xml", gen, 3, "another file: kept");
	ck_assert_int_eq(sw_steersuite_map_diag(path, &def, &d, 1), SW_SUCCESS);
	ck_assert_int_eq(d.entry[0].line, gen);
	ck_assert_int_eq(d.entry[0].column, 3);
	ck_assert_int_eq(d.entry[1].line, want);
	ck_assert_int_eq(d.entry[1].column, 0);
	char expect[64];
	snprintf(expect, sizeof expect, "agent 'x' (line %d): moved", want);
	ck_assert_str_eq(d.entry[1].message, expect);
	ck_assert_int_eq(d.entry[2].line, gen);
	/* misuse and an unreadable case leave the entries as they are */
	ck_assert_int_eq(sw_steersuite_map_diag(NULL, &def, &d, 0), SW_EUSAGE);
	ck_assert_int_eq(sw_steersuite_map_diag(path, &def, &d, -1), SW_EUSAGE);
	const char *none = "tests/data/steersuite/none.xml";
	ck_assert_int_eq(sw_steersuite_map_diag(none, &def, &d, 0), SW_SUCCESS); /* none cited */
	sw_diag_add(&d, SW_SEV_ERROR, none, gen, 3, "cites a file that is not there");
	ck_assert_int_eq(sw_steersuite_map_diag(none, &def, &d, 0), SW_EIO);
	ck_assert_int_eq(d.entry[0].line, gen);
	ck_assert_int_eq(d.entry[3].line, gen);
	ck_assert_int_eq(d.count, 4);
	free(src);
	free(xml);
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
	tcase_add_test(tc, test_region_squares_placed_as_steersuite_does);
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
	tcase_add_test(tc, test_endless_budget_is_capped);
	tcase_add_test(tc, test_goalless_agent_inside_obstacle);
	tcase_add_test(tc, test_later_messages_cite_the_case);
	suite_add_tcase(s, tc);
	return s;
}
