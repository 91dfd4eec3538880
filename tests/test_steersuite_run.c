/* tests/test_steersuite_run.c - SteerSuite cases run (docs/steersuite.md): each goal type against
 * the closed-form instant its transition must fire at (straight constant-speed motion), and the
 * SteerBench metrics against sums computed by hand.  Every case is written for these tests from the
 * format description; the import itself is tested in tests/test_steersuite.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swerve/swerve.h"
#include "tests.h"

/* Deterministic constant-speed GLM for a goal: no heading noise, speed = desiredSpeed. */
#define EXACT                                                                                      \
	"<Behaviour><SteeringAlgorithm>glm</SteeringAlgorithm><Parameters>"                        \
	"<parameter><key>sigma</key><value>0</value></parameter>"                                  \
	"<parameter><key>speed</key><value>constant</value></parameter>"                           \
	"</Parameters></Behaviour>"

char *test_ss_agent(char *buf, size_t n, const char *name, double x, double z, double dx,
		    double dz, double r, double v, const char *goals)
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
	test_ss_import_ok(body, 1, m, NULL);
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

/* --- goals ---------------------------------------------------------------------------------- */

/* Seek: from (0, 0) towards (6, 0) at 1.2 m/s, reached within 2.5 radii (0.5 m each):
 * t = (6 - 1.25) / 1.2. */
START_TEST(test_goal_seek_static)
{
	char a[2048];
	test_ss_agent(a, sizeof a, "walker", 0, 0, 1, 0, 0.5, 1.2,
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
	test_ss_agent(a, sizeof a, "runner", 0, 0, 1, 0, 0.5, 1,
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
	test_ss_agent(a, sizeof a, "chaser", 0, 0, 1, 0, 0.5, 1,
	      "<seekDynamicTarget><targetName>sitter</targetName><desiredSpeed>1</desiredSpeed>"
	      "<timeDuration>50</timeDuration>" EXACT "</seekDynamicTarget>");
	test_ss_agent(b, sizeof b, "sitter", 6, 0, 1, 0, 0.5, 0,
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
	test_ss_agent(a, sizeof a, "chaser", -6, 0, 1, 0, 0.5, 0,
	      "<seekDynamicTarget><targetName>sitter</targetName><desiredSpeed>1.3</desiredSpeed>"
	      "<timeDuration>60</timeDuration></seekDynamicTarget>");
	test_ss_agent(b, sizeof b, "sitter", 6, 0, 1, 0, 0.5, 0,
	      "<idle><timeDuration>100</timeDuration></idle>");
	snprintf(body, sizeof body, "%s%s%s", wall, a, b);
	sw_model *m = NULL;
	char *xml = NULL;
	test_ss_import_ok(body, 1, &m, &xml);
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
	test_ss_agent(b, sizeof b, "sitter", 6, 0, 1, 0, 0.5, 0,
	      "<seekStaticTarget><targetLocation><x>10</x><y>0</y><z>5</z></targetLocation>"
	      "<desiredSpeed>1</desiredSpeed><timeDuration>60</timeDuration>"
	      "</seekStaticTarget>");
	snprintf(body, sizeof body, "%s%s%s", wall, a, b);
	test_ss_import_ok(body, 1, &m, &xml);
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
	test_ss_agent(a, sizeof a, "fleer", 0, 0, 1, 0, 0.5, 1,
	      "<fleeDynamicTarget><targetName>sitter</targetName><desiredSpeed>1</desiredSpeed>"
	      "<timeDuration>3</timeDuration>" EXACT "</fleeDynamicTarget>");
	test_ss_agent(b, sizeof b, "sitter", -5, 0, 1, 0, 0.5, 0,
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
	test_ss_agent(a, sizeof a, "drifter", 0, 0, 1, 0, 0.5, 1,
	      "<flowStaticDirection><targetDirection><x>0</x><y>0</y><z>1</z></targetDirection>"
	      "<desiredSpeed>1</desiredSpeed><timeDuration>20</timeDuration>" EXACT
	      "</flowStaticDirection>");
	sw_model *m;
	events ev;
	sw_world *w = run_case(a, 19, &m, &ev);
	sw_agent_state s;
	sw_world_agent(w, 0, &s);
	ck_assert_double_eq_tol(s.y[SW_STATE_PHI], M_PI / 2, 1e-3);
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
	test_ss_agent(a, sizeof a, "waiter", 1, 2, 1, 0, 0.5, 0,
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
	test_ss_agent(a, sizeof a, "boxer", 0, 0, 1, 0, 0.5, 1,
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
	test_ss_agent(a, sizeof a, "fw", 0, 0, 1, 0, 0.5, 0,
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
	test_ss_agent(a, sizeof a, "line", 0, 0, 1, 0, 0.5, v,
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

/* An agent that a jump at t = 0 puts into an obstacle: SteerBench counts that overlap as one
 * collision, as the plain metrics do (the sums start after the world's first sensing). */
START_TEST(test_metrics_overlap_from_a_jump_at_the_start)
{
	static const char doc[] =
	    "<scenario name='sbobs'><run duration='1' step='0.01' steerbench='true'/>"
	    "<behaviours><automaton name='jumper'><param name='goal' kind='target'/>"
	    "<mode name='start' initial='true'><glm target='goal'/>"
	    "<transition to='walk' guard='true'><reset var='x'>3.1</reset></transition></mode>"
	    "<mode name='walk'><glm target='goal'/></mode></automaton></behaviours>"
	    "<world><disc name='d' x='3.3' y='0' radius='0.5'/><target name='east' x='9' y='0'/>"
	    "</world><agent name='a' x='0' y='0' heading='0' radius='0.25' behaviour='jumper'>"
	    "<bind param='goal' value='east'/></agent></scenario>";
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory(doc, strlen(doc), "sbobs.xml", &m, &d), SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_metrics(w, 0)->collisions, 1);
	ck_assert_int_eq(sw_world_steerbench(w, 0)->sb_collisions, 1);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* The same walk ending at the target: reached at t* = (5.5 - 1.25) / 1.2 inside frame 71, so
 * 71 frames are enabled; the distance stops at 4.25 m, and the last frame's kinetic energy is
 * that of its displacement (0.05 m in 0.05 s), not of the state's speed (0 at its end). */
START_TEST(test_metrics_until_arrival)
{
	char a[2048];
	const double v = 1.2, h = 0.05;
	test_ss_agent(a, sizeof a, "arrive", 0, 0, 1, 0, 0.5, v,
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
	test_ss_agent(a, sizeof a, "east", 0, 0, 1, 0, 0.5, 1,
	      "<seekStaticTarget><targetLocation><x>20</x><y>0</y><z>0</z></targetLocation>"
	      "<desiredSpeed>1</desiredSpeed><timeDuration>100</timeDuration>" EXACT
	      "</seekStaticTarget>");
	test_ss_agent(b, sizeof b, "west", 10, 0, -1, 0, 0.5, 1,
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
	test_ss_agent(a, sizeof a, "still", 0, 0, 1, 0, 0.5, 0,
	      "<seekStaticTarget><targetLocation><x>1</x><y>0</y><z>0</z></targetLocation>"
	      "<desiredSpeed>1</desiredSpeed><timeDuration>100</timeDuration>" EXACT
	      "</seekStaticTarget>");
	test_ss_agent(b, sizeof b, "walker", -6, 0, 1, 0, 0.5, 1,
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

Suite *steersuite_run_suite(void)
{
	Suite *s = suite_create("steersuite_run");
	TCase *tg = tcase_create("goals");
	tcase_add_test(tg, test_goal_seek_static);
	tcase_add_test(tg, test_goal_flee_static);
	tcase_add_test(tg, test_goal_seek_dynamic);
	tcase_add_test(tg, test_goal_flee_dynamic);
	tcase_add_test(tg, test_goal_flow);
	tcase_add_test(tg, test_goal_idle);
	tcase_add_test(tg, test_goal_box_region);
	tcase_add_test(tg, test_goal_behaviour_law);
	tcase_add_test(tg, test_chasing_a_standing_agent_plans_round_obstacles);
	suite_add_tcase(s, tg);
	TCase *tm = tcase_create("metrics");
	tcase_add_test(tm, test_metrics_straight_line);
	tcase_add_test(tm, test_metrics_until_arrival);
	tcase_add_test(tm, test_metrics_head_on_collision);
	tcase_add_test(tm, test_metrics_opt_in);
	tcase_add_test(tm, test_metrics_overlap_from_a_jump_at_the_start);
	tcase_add_test(tm, test_finished_agents_leave);
	suite_add_tcase(s, tm);
	return s;
}
