/* tests/test_pedestrian.c - what crowds that arrive rest on: the walking convention and arrival of
 * the time-to-collision law (bias, t-arrive) against closed forms, hard walls (t-contact: the
 * velocity cut and the invariant it guarantees, and that without it the same walk overlaps),
 * field="auto", refused values, oncoming(), and the cheap targets of automata/pedestrian.xml on the shipped
 * crowd models (every agent arrives, no obstacle overlap, agent overlap at most 0.02 m). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swerve/io.h"
#include "swerve/sim.h"
#include "tests.h"

START_TEST(bias_rotates_the_goal_force_and_t_arrive_caps_the_speed)
{
	sw_ttc_params p = sw_default_ttc_params();
	ck_assert(p.bias == 0.0 && p.t_arrive == 0.0 && p.t_contact == 0.1);
	sw_situation s = {0.0, 0.0, 0.25, 1, 10.0, 0.0, 0, NULL, NULL, 0};
	double vel[2] = {0.0, 0.0}, acc[2];
	/* Goal straight ahead along +x, bias -30 degrees: the goal force points 30 degrees to the
	 * right, (v_pref cos b, v_pref sin b) / xi. */
	p.bias = -M_PI / 6.0;
	sw_ttc_accel(&p, &s, vel, acc);
	ck_assert_double_eq_tol(acc[0], 1.3 * sqrt(3.0) / 2.0 / 0.54, 1e-12);
	ck_assert_double_eq_tol(acc[1], -1.3 * 0.5 / 0.54, 1e-12);
	/* 0.5 m from the goal with t-arrive 1 s: preferred speed 0.5 m/s, not 1.3. */
	p.bias = 0.0;
	p.t_arrive = 1.0;
	s.tx = 0.0;
	s.ty = 0.5;
	vel[1] = 0.2;
	sw_ttc_accel(&p, &s, vel, acc);
	ck_assert_double_eq_tol(acc[0], 0.0, 1e-15);
	ck_assert_double_eq_tol(acc[1], (0.5 - 0.2) / 0.54, 1e-12);
	/* Farther than v_pref t_arrive: the full preferred speed. */
	s.ty = 3.0;
	sw_ttc_accel(&p, &s, vel, acc);
	ck_assert_double_eq_tol(acc[1], (1.3 - 0.2) / 0.54, 1e-12);
}
END_TEST

START_TEST(wall_velocity_cuts_only_the_approach_beyond_clearance_over_t_contact)
{
	sw_ttc_params p = sw_default_ttc_params(); /* t_contact 0.1 s */
	/* A wall point 1 m ahead (+x) with 0.05 m of clearance: closing speed at most 0.5 m/s. */
	sw_percept wall = {1.0, 0.0, 1.0, 0.0, 0.05, 3, 0, 0};
	sw_situation s = {0.0, 0.0, 0.25, 0, 0.0, 0.0, 1, &wall, NULL, 0};
	double u[2] = {1.0, 0.5}, out[2];
	sw_ttc_wall_velocity(&p, &s, u, out);
	ck_assert_double_eq_tol(out[0], 0.5, 1e-15);
	ck_assert(out[1] == 0.5); /* sliding along the wall is untouched */
	/* Moving away, or closing slowly enough: unchanged. */
	u[0] = -1.0;
	sw_ttc_wall_velocity(&p, &s, u, out);
	ck_assert(out[0] == -1.0 && out[1] == 0.5);
	u[0] = 0.4;
	sw_ttc_wall_velocity(&p, &s, u, out);
	ck_assert(out[0] == 0.4);
	/* Touching or overlapping: no closing at all. */
	wall.clearance = -0.01;
	u[0] = 1.0;
	sw_ttc_wall_velocity(&p, &s, u, out);
	ck_assert(out[0] == 0.0 && out[1] == 0.5);
	/* Another agent is not a wall: left to the law's forces. */
	wall.id = -1;
	sw_ttc_wall_velocity(&p, &s, u, out);
	ck_assert(out[0] == 1.0 && out[1] == 0.5);
	/* A corner: walls ahead (+x) and to the left (+y), both touched: no motion into either. */
	sw_percept corner[2] = {{1.0, 0.0, 1.0, 0.0, 0.0, 1, 0, 0}, {0.0, 1.0, 1.0, 0.0, 0.0, 2, 0, 0}};
	s.obs = corner;
	s.n_obs = 2;
	u[0] = 0.7;
	u[1] = 0.9;
	sw_ttc_wall_velocity(&p, &s, u, out);
	ck_assert(out[0] == 0.0 && out[1] == 0.0);
	/* Off: the velocity itself. */
	p.t_contact = 0.0;
	sw_ttc_wall_velocity(&p, &s, u, out);
	ck_assert(out[0] == 0.7 && out[1] == 0.9);
}
END_TEST

/* An agent whose target lies beyond a wall, 40 degrees off the wall's normal, pushed along by the
 * goal force: the law's %s attributes. */
static const char wall_xml[] =
    "<scenario name=\"wall\">\n"
    "  <run duration=\"8\" step=\"0.01\" sample=\"0.5\"/>\n"
    "  <world>\n"
    "    <segment name=\"w\" x1=\"-10\" y1=\"1\" x2=\"10\" y2=\"1\"/>\n"
    "    <target name=\"t\" x=\"4\" y=\"6\" radius=\"0.2\"/>\n"
    "  </world>\n"
    "  <agent name=\"a\" x=\"0\" y=\"0\" heading=\"50deg\" speed=\"1.3\" radius=\"0.25\" "
    "target=\"t\"><ttc %s/></agent>\n"
    "</scenario>\n";

/* Loads the scenario text (named `name` in messages), runs it to its end; *m receives the model. */
static sw_world *run_text(const char *text, const char *name, sw_model **m)
{
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory(text, strlen(text), name, m, &d), SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(*m, NULL, &w, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, &d), SW_SUCCESS);
	return w;
}

static double wall_clearance(const char *attrs)
{
	char buf[1024];
	snprintf(buf, sizeof buf, wall_xml, attrs);
	sw_model *m = NULL;
	sw_world *w = run_text(buf, "wall.xml", &m);
	double c = sw_world_metrics(w, 0)->min_clearance;
	sw_world_destroy(w);
	sw_model_free(m);
	return c;
}

START_TEST(a_wall_pressed_by_the_goal_force_is_never_overlapped)
{
	/* With hard walls the clearance stays positive; without them the goal force presses the
	 * agent into the wall (this is what the cut is for, and the test's ability to fail). */
	double hard = wall_clearance("");
	ck_assert_msg(hard > 0.0, "clearance %g", hard);
	double soft = wall_clearance("t-contact=\"0\"");
	ck_assert_msg(soft < 0.0, "clearance %g without hard walls", soft);
}
END_TEST

/* A target behind a wall that blocks the straight line; a navigation field leads round it. */
static const char auto_xml[] =
    "<scenario name=\"auto\">\n"
    "  <run duration=\"30\" step=\"0.01\" sample=\"0.5\"/>\n"
    "  <world>\n"
    "    <segment name=\"w\" x1=\"3\" y1=\"-3\" x2=\"3\" y2=\"3\"/>\n"
    "    <target name=\"t\" x=\"6\" y=\"0\" radius=\"0.3\"/>\n"
    "    <navfield name=\"%s\" target=\"t\" resolution=\"0.1\"/>\n"
    "  </world>\n"
    "  <agent name=\"a\" x=\"0\" y=\"0\" heading=\"0\" radius=\"0.25\" target=\"t\">"
    "<ttc %s/></agent>\n"
    "</scenario>\n";

static int auto_reaches(const char *field_name, const char *attrs, sw_diag *d)
{
	char buf[1024];
	snprintf(buf, sizeof buf, auto_xml, field_name, attrs);
	sw_model *m = NULL;
	sw_diag_init(d);
	if (sw_scenario_load_memory(buf, strlen(buf), "auto.xml", &m, d) != SW_SUCCESS)
		return -1;
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, d), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, d), SW_SUCCESS);
	int r = sw_world_metrics(w, 0)->reached;
	sw_world_destroy(w);
	sw_model_free(m);
	return r;
}

START_TEST(field_auto_follows_the_navigation_field_of_the_target)
{
	sw_diag d;
	ck_assert_int_eq(auto_reaches("nav", "field=\"auto\"", &d), 1);
	ck_assert_int_eq(auto_reaches("nav", "", &d), 0); /* straight at it: stuck at the wall */
	/* "auto" is reserved: no field may have that name. */
	ck_assert_int_eq(auto_reaches("auto", "", &d), -1);
	char msg[512];
	sw_diag_format(&d, 0, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "auto.xml:6") && strstr(msg, "reserved"), "%s", msg);
}
END_TEST

START_TEST(bad_values_are_refused_with_their_line)
{
	static const char *bad[] = {"bias=\"200deg\"", "t-arrive=\"-1\"", "t-contact=\"-0.1\""};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		char buf[1024];
		snprintf(buf, sizeof buf, wall_xml, bad[k]);
		sw_model *m = NULL;
		sw_diag d;
		sw_diag_init(&d);
		ck_assert_int_ne(sw_scenario_load_memory(buf, strlen(buf), "wall.xml", &m, &d),
				 SW_SUCCESS);
		ck_assert_ptr_null(m);
		char msg[512];
		sw_diag_format(&d, 0, msg, sizeof msg);
		ck_assert_msg(strstr(msg, "wall.xml:7"), "%s: %s", bad[k], msg);
	}
}
END_TEST

/* Agent a walks east to its goal; b starts 2.5 m ahead of it, 0.5 m to the side, walking west
 * (%s: its heading) at 1 m/s with a fixed-speed law.  a's automaton jumps to `met` when
 * oncoming(goal, 3) ge 1. */
static const char oncoming_xml[] =
    "<scenario name='oncoming'>\n"
    "<run duration='1' step='0.01'/>\n"
    "<behaviours><automaton name='look'><param name='goal' kind='target'/>\n"
    "<mode name='walk' initial='true'><ttc target='goal'/>\n"
    "<transition to='met' guard='oncoming(goal, 3) ge 1'/></mode>\n"
    "<mode name='met'/></automaton></behaviours>\n"
    "<world><target name='g' x='10' y='0'/><target name='h' x='%s' y='0.5'/></world>\n"
    "<agent name='a' x='0' y='0' heading='0' speed='1' radius='0.2' behaviour='look'>"
    "<bind param='goal' value='g'/></agent>\n"
    "<agent name='b' x='2.5' y='0.5' heading='%s' radius='0.2' target='h'>"
    "<wall speed='1'/></agent>\n"
    "</scenario>\n";

static int met_after_one_second(const char *heading, const char *bx)
{
	char buf[2048];
	snprintf(buf, sizeof buf, oncoming_xml, bx, heading);
	sw_model *m = NULL;
	sw_world *w = run_text(buf, "oncoming.xml", &m);
	sw_agent_state st;
	sw_world_agent(w, 0, &st);
	int met = st.mode == 1;
	sw_world_destroy(w);
	sw_model_free(m);
	return met;
}

START_TEST(oncoming_counts_only_agents_ahead_walking_back)
{
	/* b walks west towards a: oncoming.  b walks east, away: not (it is ahead, within 3 m). */
	ck_assert_int_eq(met_after_one_second("180deg", "-20"), 1);
	ck_assert_int_eq(met_after_one_second("0deg", "20"), 0);
}
END_TEST

/* Two walkers head-on in a corridor too narrow for both (walls 0.9 m apart, radii 0.25 m):
 * stalled for 2 s, each goes to `squeeze` (ghost=%s) for 3 s.  Arrival is the mode `there`. */
static const char corridor_xml[] =
    "<scenario name='corridor'>\n"
    "<run duration='30' step='0.01'/>\n"
    "<behaviours><automaton name='walker'><param name='goal' kind='target'/>\n"
    "<mode name='walk' initial='true'><ttc target='goal'/>\n"
    "<transition to='there' guard='dist(goal) le 0.3'/>\n"
    "<transition to='squeeze' guard='time_in_mode ge 2 and progress(goal, 2) lt 0.2'/></mode>\n"
    "<mode name='squeeze' ghost='%s'><ttc target='goal'/>\n"
    "<transition to='there' guard='dist(goal) le 0.3'/>\n"
    "<transition to='walk' guard='time_in_mode ge 3'/></mode>\n"
    "<mode name='there' arrival='true'/></automaton></behaviours>\n"
    "<world><segment name='n' x1='-8' y1='0.45' x2='8' y2='0.45'/>\n"
    "<segment name='s' x1='-8' y1='-0.45' x2='8' y2='-0.45'/>\n"
    "<target name='east' x='5' y='0'/><target name='west' x='-5' y='0'/></world>\n"
    "<agent name='a' x='-5' y='0' heading='0' radius='0.25' behaviour='walker'>"
    "<bind param='goal' value='east'/></agent>\n"
    "<agent name='b' x='5' y='0' heading='180deg' radius='0.25' behaviour='walker'>"
    "<bind param='goal' value='west'/></agent>\n"
    "</scenario>\n";

START_TEST(ghost_modes_walk_through_others_and_the_overlap_is_measured)
{
	for (int ghost = 0; ghost <= 1; ghost++) {
		char buf[4096];
		snprintf(buf, sizeof buf, corridor_xml, ghost ? "true" : "false");
		sw_model *m = NULL;
		sw_world *w = run_text(buf, "corridor.xml", &m);
		for (int i = 0; i < 2; i++) {
			const sw_agent_metrics *mt = sw_world_metrics(w, i);
			/* without the ghost mode the two stand face to face until the end; with it
			 * both pass and arrive, and the overlap while passing is counted */
			ck_assert_msg(mt->reached == ghost, "ghost=%d agent %d reached %d", ghost, i,
				      mt->reached);
			if (ghost)
				ck_assert_msg(mt->agent_collisions >= 1 && mt->min_agent_clearance < 0.0,
					      "agent %d: %d overlaps, clearance %g", i,
					      mt->agent_collisions, mt->min_agent_clearance);
			else
				ck_assert_msg(mt->min_agent_clearance > 0.0, "agent %d: clearance %g", i,
					      mt->min_agent_clearance);
			ck_assert_msg(mt->min_clearance > -1e-9, "agent %d touched a wall: %g", i,
				      mt->min_clearance);
		}
		sw_world_destroy(w);
		sw_model_free(m);
	}
}
END_TEST

/* The corridor's two walkers, both in a ghost mode from the start. */
static const char ghost_pair_xml[] =
    "<scenario name='pair'><run duration='1' step='0.01'/>\n"
    "<behaviours><automaton name='g'><param name='goal' kind='target'/>\n"
    "<mode name='through' initial='true' ghost='true'><ttc target='goal'/></mode>"
    "</automaton></behaviours>\n"
    "<world><segment name='n' x1='-8' y1='0.45' x2='8' y2='0.45'/>\n"
    "<segment name='s' x1='-8' y1='-0.45' x2='8' y2='-0.45'/>\n"
    "<target name='east' x='5' y='0'/><target name='west' x='-5' y='0'/></world>\n"
    "<agent name='a' x='-1' y='0' heading='0' radius='0.25' behaviour='g'>"
    "<bind param='goal' value='east'/></agent>\n"
    "<agent name='b' x='1' y='0' heading='180deg' radius='0.25' behaviour='g'>"
    "<bind param='goal' value='west'/></agent></scenario>\n";

START_TEST(the_public_perception_puts_walked_through_agents_after_the_laws_percepts)
{
	/* agent a sees the two walls for its law and b (percept id -2) as walked through, after
	 * them */
	const char *buf = ghost_pair_xml;
	sw_diag d;
	sw_diag_init(&d);
	sw_model *m = NULL;
	ck_assert_int_eq(sw_scenario_load_memory(buf, strlen(buf), "c.xml", &m, &d), SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
	sw_percept p[8];
	sw_situation s;
	ck_assert_int_eq(sw_world_perceive(w, 0, &s, p, 8), 3);
	ck_assert_int_eq(s.n_obs, 2);
	ck_assert_int_eq(s.n_pass, 1);
	ck_assert_int_eq(p[0].id >= 0 && p[1].id >= 0 && p[2].id == -2, 1);
	/* cut to the room given: the law's percepts first */
	ck_assert_int_eq(sw_world_perceive(w, 0, &s, p, 2), 3);
	ck_assert_int_eq(s.n_obs, 2);
	ck_assert_int_eq(s.n_pass, 0);
	ck_assert_int_eq(sw_world_perceive(w, 0, &s, p, 1), 3);
	ck_assert_int_eq(s.n_obs + s.n_pass, 1);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

START_TEST(ghost_modes_are_refused_where_they_mean_nothing)
{
	/* a signal's mode, and a 3-D world: their lines and what is expected */
	static const char sig[] =
	    "<scenario name='s'><run duration='1'/><behaviours>\n"
	    "<automaton name='light' kind='signal'><mode name='red' initial='true' ghost='true'/>"
	    "</automaton></behaviours>\n"
	    "<world><target name='g' x='1' y='0'/></world>\n"
	    "<signal name='l' behaviour='light'/>\n"
	    "<agent name='a' x='0' y='0' target='g'><ttc/></agent></scenario>\n";
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_ne(sw_scenario_load_memory(sig, strlen(sig), "sig.xml", &m, &d), SW_SUCCESS);
	ck_assert_msg(d.count > 0 && strstr(d.entry[0].message, "ghost"), "%s",
		      d.count ? d.entry[0].message : "(no message)");
	ck_assert_int_eq(d.entry[0].line, 2);
	sw_model_free(m);
	m = NULL;
	/* a 3-D world */
	static const char sky[] =
	    "<scenario name='k'><run duration='1'/><behaviours>\n"
	    "<automaton name='b'><param name='g' kind='target'/>\n"
	    "<mode name='fly' initial='true' ghost='true'><glm target='g'/></mode>"
	    "</automaton></behaviours>\n"
	    "<world dimensions='3'><target name='t' x='5' y='0' z='1'/></world>\n"
	    "<agent name='a' x='0' y='0' z='1' behaviour='b'><bind param='g' value='t'/></agent>"
	    "</scenario>\n";
	sw_diag_init(&d);
	ck_assert_int_ne(sw_scenario_load_memory(sky, strlen(sky), "sky.xml", &m, &d), SW_SUCCESS);
	ck_assert_msg(d.count > 0 && strstr(d.entry[0].message, "ghost") &&
			  strstr(d.entry[0].message, "3-D"),
		      "%s", d.count ? d.entry[0].message : "(no message)");
	ck_assert_int_eq(d.entry[0].line, 3);
	sw_model_free(m);
}
END_TEST

/* Runs a shipped model; checks every agent arrived within `within` s, never touched an obstacle
 * and overlapped another agent by at most 0.02 m. */
static void every_agent_arrives(const char *path, double within)
{
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load(path, &m, &d), SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, &d), SW_SUCCESS);
	for (int i = 0; i < m->n_agents; i++) {
		const sw_agent_metrics *mt = sw_world_metrics(w, i);
		ck_assert_msg(mt->reached && mt->t_reached <= within, "%s: %s arrived %d at %g s",
			      path, m->agents[i].name, mt->reached, mt->t_reached);
		ck_assert_msg(mt->collisions == 0, "%s: %s overlaps an obstacle", path,
			      m->agents[i].name);
		ck_assert_msg(mt->min_agent_clearance >= -0.02, "%s: %s overlaps by %g m", path,
			      m->agents[i].name, -mt->min_agent_clearance);
	}
	sw_world_destroy(w);
	sw_model_free(m);
}

START_TEST(pedestrian_crowds_arrive)
{
	every_agent_arrives("models/crowd_circle.xml", 120.0); /* RVO2: the last at about 120 s */
	every_agent_arrives("models/crowd_door.xml", 120.0);
	every_agent_arrives("models/crowd_corridor.xml", 2.0 * 31.0 / 1.3);
}
END_TEST

Suite *pedestrian_suite(void)
{
	Suite *s = suite_create("pedestrian");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, bias_rotates_the_goal_force_and_t_arrive_caps_the_speed);
	tcase_add_test(tc, wall_velocity_cuts_only_the_approach_beyond_clearance_over_t_contact);
	tcase_add_test(tc, a_wall_pressed_by_the_goal_force_is_never_overlapped);
	tcase_add_test(tc, field_auto_follows_the_navigation_field_of_the_target);
	tcase_add_test(tc, bad_values_are_refused_with_their_line);
	tcase_add_test(tc, oncoming_counts_only_agents_ahead_walking_back);
	tcase_add_test(tc, pedestrian_crowds_arrive);
	tcase_add_test(tc, ghost_modes_walk_through_others_and_the_overlap_is_measured);
	tcase_add_test(tc, the_public_perception_puts_walked_through_agents_after_the_laws_percepts);
	tcase_add_test(tc, ghost_modes_are_refused_where_they_mean_nothing);
	suite_add_tcase(s, tc);
	return s;
}
