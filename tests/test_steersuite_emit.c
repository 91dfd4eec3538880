/* tests/test_steersuite_emit.c - resets of an agent's own continuous state (x, y, heading,
 * turn_rate, speed) at a jump (docs/automata-format.md), and SteerSuite's agent emitters built
 * on them (docs/steersuite.md, "Emitters"); the test case without agents.
 *
 * Every scene is written here.  Motion is straight at constant speed (GLM with speed="constant"
 * and no noise, explicit Euler: exact), so the jump instants, the places and the path lengths
 * have closed forms. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swerve/swerve.h"
#include "tests.h"

/* A walker at 1 m/s along +x from the origin (target far away, step 0.1 s, 5 s) whose clock
 * jump every 2 s puts it back at the origin and counts the jumps in n; %s: more resets. */
static const char *const LOOP =
    "<scenario name=\"loop\"><run duration=\"5\" step=\"0.1\" steerbench=\"true\"/>\n"
    "<behaviours><automaton name=\"loop\">\n"
    "<param name=\"g\" kind=\"target\"/><var name=\"c\" kind=\"clock\"/>\n"
    "<var name=\"n\" kind=\"int\"/>\n"
    "<mode name=\"walk\"><glm target=\"g\" speed=\"constant\" v-max=\"1\" sigma=\"0\"/>\n"
    "<transition to=\"walk\" guard=\"c ge 2\" label=\"back\"><reset var=\"c\">0</reset>\n"
    "<reset var=\"n\">n + 1</reset>%s</transition></mode>\n"
    "</automaton></behaviours>\n"
    "<world><target name=\"t\" x=\"100\" y=\"0\"/></world>\n"
    "<agent name=\"a\" x=\"0\" y=\"0\" heading=\"0\" behaviour=\"loop\">"
    "<bind param=\"g\" value=\"t\"/></agent></scenario>\n";

/* The diagnostics of d as one string (for messages and assertions). */
static void diag_text(const sw_diag *d, char *buf, size_t n)
{
	buf[0] = '\0';
	for (int i = 0; i < d->count; i++) {
		size_t k = strlen(buf);
		sw_diag_format(d, i, buf + k, n - k);
	}
}

typedef struct {
	int n;
	double t[8];
	char label[8][32];
} events;

static void on_event(const sw_world *w, int agent_i, double t, int from, int to, const char *label,
		     const char *guard, void *ctx)
{
	(void)w, (void)agent_i, (void)from, (void)to, (void)guard;
	events *e = ctx;
	if (e->n < 8) {
		e->t[e->n] = t;
		snprintf(e->label[e->n], sizeof e->label[0], "%s", label ? label : "");
		e->n++;
	}
}

/* Runs world w to its end recording events. */
static void run_all(sw_world *w, events *ev)
{
	memset(ev, 0, sizeof *ev);
	sw_world_set_event_fn(w, on_event, ev);
	sw_diag d;
	sw_diag_init(&d);
	int st = sw_world_run(w, NULL, NULL, &d);
	char msg[1024];
	diag_text(&d, msg, sizeof msg);
	ck_assert_msg(st == SW_SUCCESS, "run: %s", msg);
}

static char *summary_of(sw_world *w)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(sw_summary_write_json(f, w, NULL), SW_SUCCESS);
	fclose(f);
	return buf;
}

/* --- resets of the agent's state -------------------------------------------------------- */

/* Jumps at t = 2 and 4 put the walker back at the origin: at t = 5 it is at x = 1 with n = 2;
 * it walked 5 m in 5 s (path length and SteerBench distance leave the 2 m moves out), and the
 * SteerBench energy sum is 50 frames of v^2 / 2 = 0.5 (the moves would add (2 / 0.1)^2 / 2 =
 * 200 each). */
START_TEST(test_reset_moves_the_agent)
{
	sw_diag d;
	sw_model *m = test_load_filled(LOOP,
				       "<reset var=\"x\">0</reset><reset var=\"y\">0</reset>"
				       "<reset var=\"heading\">0</reset>",
				       "loop.xml", &d);
	ck_assert_ptr_nonnull(m);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	events ev;
	run_all(w, &ev);
	ck_assert_int_eq(ev.n, 2);
	ck_assert_double_eq_tol(ev.t[0], 2.0, 1e-9);
	ck_assert_double_eq_tol(ev.t[1], 4.0, 1e-9);
	sw_agent_state st;
	sw_world_agent(w, 0, &st);
	ck_assert_double_eq_tol(st.y[SW_STATE_X], 1.0, 1e-9);
	ck_assert_double_eq_tol(st.y[SW_STATE_Y], 0.0, 1e-12);
	ck_assert_double_eq_tol(sw_world_metrics(w, 0)->path_length, 5.0, 1e-9);
	const sw_steerbench_metrics *sb = sw_world_steerbench(w, 0);
	ck_assert_double_eq_tol(sb->sb_distance, 5.0, 1e-9);
	ck_assert_double_eq_tol(sb->sb_energy, 50 * 0.5, 1e-9);
	char *json = summary_of(w);
	ck_assert_msg(strstr(json, "\"vars\": {\"c\": ") && strstr(json, "\"n\": 2}"), "%s", json);
	free(json);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* A reset of the heading turns the walker without moving it: just after the jump at t = 2 it
 * heads about +y (GLM turns it back towards the target within the next step) at x = 2. */
START_TEST(test_reset_heading_turns_in_place)
{
	sw_diag d;
	sw_model *m = test_load_filled(LOOP,
				       "<reset var=\"heading\">90deg</reset>"
				       "<reset var=\"turn_rate\">0</reset>",
				       "loop.xml", &d);
	ck_assert_ptr_nonnull(m);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	sw_diag_init(&d);
	for (int k = 0; k < 21; k++) /* to t = 2.1 */
		ck_assert_int_eq(sw_world_step(w, &d), SW_SUCCESS);
	sw_agent_state st;
	sw_world_agent(w, 0, &st);
	ck_assert_msg(st.y[SW_STATE_PHI] > 1.0 && st.y[SW_STATE_PHI] <= M_PI / 2 + 1e-12,
		      "heading %g", st.y[SW_STATE_PHI]);
	ck_assert_double_eq_tol(st.y[SW_STATE_X], 2.0, 0.01);
	ck_assert_double_eq_tol(st.y[SW_STATE_Y], 0.1, 0.01);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* A negative speed is not a state: the run stops at the jump, naming agent, modes and time. */
START_TEST(test_reset_negative_speed_stops_the_run)
{
	sw_diag d;
	sw_model *m = test_load_filled(LOOP, "<reset var=\"speed\">-1</reset>", "loop.xml", &d);
	ck_assert_ptr_nonnull(m);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	sw_diag_init(&d);
	int st = sw_world_run(w, NULL, NULL, &d);
	ck_assert_int_eq(st, SW_EMODEL);
	char msg[1024];
	diag_text(&d, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "'a'") && strstr(msg, "from mode 'walk' to 'walk'") &&
			  strstr(msg, "t = 2") && strstr(msg, "resets speed to -1"),
		      "got '%s'", msg);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* GLM's weights are not settable, and one value per variable and transition. */
START_TEST(test_reset_names_checked)
{
	sw_diag d;
	char msg[2048];
	ck_assert_ptr_null(test_load_filled(LOOP, "<reset var=\"w_tar\">1</reset>", "loop.xml", &d));
	diag_text(&d, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "loop.xml:7") &&
			  strstr(msg, "reset of 'w_tar', which is not a variable") &&
			  strstr(msg, "x, y, heading, turn_rate, speed"),
		      "got '%s'", msg);
	ck_assert_ptr_null(test_load_filled(
	    LOOP, "<reset var=\"x\">0</reset><reset var=\"x\">1</reset>", "loop.xml", &d));
	diag_text(&d, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "second reset of 'x'"), "got '%s'", msg);
}
END_TEST

/* 3-D worlds keep their own heading vector and path: resets of the state are refused there. */
START_TEST(test_reset_refused_in_3d)
{
	const char *doc =
	    "<scenario name=\"s3\"><behaviours><automaton name=\"j\">"
	    "<var name=\"c\" kind=\"clock\"/><mode name=\"m\"><transition to=\"m\" "
	    "guard=\"c ge 1\"><reset var=\"c\">0</reset><reset var=\"x\">0</reset>"
	    "</transition></mode></automaton></behaviours>\n<world dimensions=\"3\"/>\n"
	    "<agent name=\"a\" x=\"0\" y=\"0\" behaviour=\"j\"/></scenario>\n";
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory(doc, strlen(doc), "s3.xml", &m, &d), SW_EINPUT);
	ck_assert_ptr_null(m);
	char msg[2048];
	diag_text(&d, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "s3.xml:3") && strstr(msg, "resets the agent's x, y, heading"),
		      "got '%s'", msg);
}
END_TEST

/* The exported network assigns the reset values (SpaceEx: x' == 0). */
START_TEST(test_reset_exported)
{
	sw_diag d;
	sw_model *m = test_load_filled(LOOP, "<reset var=\"x\">0</reset><reset var=\"y\">0.5</reset>",
				       "loop.xml", &d);
	ck_assert_ptr_nonnull(m);
	sw_export_def def = sw_default_export_def();
	sw_hybrid *h = NULL;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_hybrid_build(m, &def, &h, &d), SW_SUCCESS);
	char *xml = NULL;
	size_t len = 0;
	ck_assert_int_eq(sw_hybrid_spaceex_xml(h, &xml, &len), SW_SUCCESS);
	ck_assert_msg(strstr(xml, "x' == 0 &amp; y' == 0.5 &amp; heading' == heading") &&
			  strstr(xml, "n' == n + 1"),
		      "%s", xml);
	free(xml);
	sw_hybrid_free(h);
	sw_model_free(m);
}
END_TEST

/* --- emitters ------------------------------------------------------------------------------ */


/* An emitter at (0, 0) facing +x, radius 0.5, initial speed 1, walking at 1 m/s (GLM keeping
 * its speed) to (5, 0): reached within 1.25 m.  %s: more goals. */
static const char *const EMITTER =
    "<agentEmitter><name>E</name><initialConditions><radius>0.5</radius>"
    "<position><x>0</x><y>0</y><z>0</z></position>"
    "<direction><x>1</x><y>0</y><z>0</z></direction><speed>1</speed></initialConditions>\n"
    "<goalSequence><seekStaticTarget><targetLocation><x>5</x><y>0</y><z>0</z></targetLocation>"
    "<desiredSpeed>1</desiredSpeed><timeDuration>100</timeDuration>"
    "<Behaviour><SteeringAlgorithm>glm</SteeringAlgorithm><Parameters>"
    "<parameter><key>sigma</key><value>0</value></parameter>"
    "<parameter><key>speed</key><value>constant</value></parameter>"
    "</Parameters></Behaviour></seekStaticTarget>%s</goalSequence></agentEmitter>\n";

static int import_case(const char *body, double duration, sw_model **m, char **xml, sw_diag *d)
{
	sw_steersuite_def def = sw_default_steersuite_def();
	def.duration = duration;
	return test_ss_import(body, &def, m, xml, d);
}
/* The emitted walker reaches its goal at t1 = 3.75 s, the next one stands at the emitter for
 * two frames (0.1 s) and walks from t = 3.85 s, reaches at 7.6 s; the third starts at 7.7 s and
 * is at x = 0.3 at t = 8: three emitted, 7.8 m walked, never done (the run lasts its 8 s). */
START_TEST(test_emitter_starts_again_where_it_stands)
{
	char body[4096];
	snprintf(body, sizeof body, EMITTER, "");
	sw_model *m = NULL;
	sw_diag d;
	int st = import_case(body, 8.0, &m, NULL, &d);
	char msg[2048];
	diag_text(&d, msg, sizeof msg);
	ck_assert_msg(st == SW_SUCCESS, "%s", msg);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	events ev;
	run_all(w, &ev);
	ck_assert_double_eq_tol(sw_world_time(w), 8.0, 1e-9);
	ck_assert_int_eq(ev.n, 4);
	const char *labels[] = {"reached0", "start", "reached0", "start"};
	const double times[] = {3.75, 3.85, 7.6, 7.7};
	for (int k = 0; k < 4; k++) {
		ck_assert_str_eq(ev.label[k], labels[k]);
		ck_assert_double_eq_tol(ev.t[k], times[k], 1e-6);
	}
	sw_agent_state s;
	sw_world_agent(w, 0, &s);
	ck_assert_double_eq_tol(s.y[SW_STATE_X], 0.3, 1e-6);
	ck_assert_double_eq_tol(sw_world_metrics(w, 0)->path_length, 3.75 + 3.75 + 0.3, 1e-6);
	ck_assert_int_eq(sw_world_agents_done(w), 0);
	char *json = summary_of(w);
	ck_assert_msg(strstr(json, "\"emitted\": 3}") && strstr(json, "\"mode\": \"goal0\""), "%s",
		      json);
	free(json);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* The generated automaton: the counter, the jump to `emit` with the emitter's place and
 * heading, the frame's wait, the start at the emitter's speed, no `done`. */
START_TEST(test_emitter_automaton_resets)
{
	char body[4096];
	snprintf(body, sizeof body, EMITTER, "");
	sw_model *m = NULL;
	char *xml = NULL;
	sw_diag d;
	ck_assert_int_eq(import_case(body, 8.0, &m, &xml, &d), SW_SUCCESS);
	ck_assert_ptr_nonnull(xml);
	ck_assert_msg(strstr(xml, "<var name=\"emitted\" kind=\"int\" init=\"1\"/>") &&
			  strstr(xml, "<transition to=\"emit\" guard=\"dist(g0) le 1.25\" "
				      "label=\"reached0\">") &&
			  strstr(xml, "<reset var=\"x\">0</reset>") &&
			  strstr(xml, "<reset var=\"heading\">0</reset>") &&
			  strstr(xml, "<transition to=\"goal0\" guard=\"c ge 0.1\" label=\"start\">") &&
			  strstr(xml, "<reset var=\"speed\">1</reset>") &&
			  !strstr(xml, "name=\"done\""),
		      "%s", xml);
	free(xml);
	sw_model_free(m);
}
END_TEST

/* An emitter beside an ordinary agent: the run lasts its duration although the agent is done
 * early, and a second goal's budget running out also starts the next agent. */
START_TEST(test_emitter_budget_ends_its_sequence)
{
	char body[4096];
	snprintf(body, sizeof body, EMITTER,
		 "<idle><desiredSpeed>1</desiredSpeed><timeDuration>1</timeDuration></idle>");
	sw_model *m = NULL;
	sw_diag d;
	ck_assert_int_eq(import_case(body, 6.0, &m, NULL, &d), SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	events ev;
	run_all(w, &ev);
	/* reached0 3.75, timeout1 4.75 (emit), start 4.85 */
	ck_assert_int_ge(ev.n, 3);
	ck_assert_str_eq(ev.label[1], "timeout1");
	ck_assert_double_eq_tol(ev.t[1], 4.75, 1e-6);
	ck_assert_str_eq(ev.label[2], "start");
	ck_assert_double_eq_tol(sw_world_time(w), 6.0, 1e-9);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* Refusals a user would agree with, each saying why: an emitter without goals, a map only. */
START_TEST(test_emitter_and_empty_case_refusals)
{
	sw_model *m = NULL;
	sw_diag d;
	char msg[2048];
	const char *nogoal =
	    "<agentEmitter><name>E</name><initialConditions><radius>0.5</radius>"
	    "<position><x>0</x><y>0</y><z>0</z></position>"
	    "<direction><x>1</x><y>0</y><z>0</z></direction></initialConditions></agentEmitter>\n";
	ck_assert_int_eq(import_case(nogoal, 0, &m, NULL, &d), SW_EINPUT);
	ck_assert_ptr_null(m);
	diag_text(&d, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "case.xml:5") && strstr(msg, "<agentEmitter> has no goals"),
		      "got '%s'", msg);
	const char *map = "<obstacle><xmin>0</xmin><xmax>1</xmax><ymin>0</ymin><ymax>1</ymax>"
			  "<zmin>0</zmin><zmax>1</zmax></obstacle>\n";
	ck_assert_int_eq(import_case(map, 0, &m, NULL, &d), SW_EINPUT);
	ck_assert_ptr_null(m);
	diag_text(&d, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "case.xml:2") && strstr(msg, "places no agent") &&
			  strstr(msg, "map only") && strstr(msg, "refuses it"),
		      "got '%s'", msg);
}
END_TEST

/* --- pedestrian detours ------------------------------------------------------------------- */

/* A walker (radius 0.5) with its goal 10 m ahead and a 0.98 m square squarely in the way, 1 m
 * ahead: the time-to-collision law's push off the square and the goal's pull balance, and it
 * stands against the square (without the detours, for its whole 60 s budget: seen).  Without
 * navigation fields (--no-fields) the walk stalls at 4.15 s, the detour to the right takes it
 * round and it arrives at 12.17 s; with a field it walks round the square from the start. */
static const char *const SQUARE_IN_THE_WAY =
    "<obstacle><xmin>1.51</xmin><xmax>2.49</xmax><ymin>0</ymin><ymax>1</ymax><zmin>-0.49</zmin>"
    "<zmax>0.49</zmax></obstacle>\n"
    "<agent><name>a</name><initialConditions><radius>0.5</radius>"
    "<position><x>0</x><y>0</y><z>0</z></position><direction><x>1</x><y>0</y><z>0</z></direction>"
    "<speed>0</speed></initialConditions><goalSequence><seekStaticTarget>"
    "<targetLocation><x>10</x><y>0</y><z>0</z></targetLocation><desiredSpeed>1.3</desiredSpeed>"
    "<timeDuration>60</timeDuration></seekStaticTarget></goalSequence></agent>\n";

START_TEST(test_pedestrian_detours_round_an_obstacle_in_its_way)
{
	for (int fields = 0; fields < 2; fields++) {
		sw_steersuite_def def = sw_default_steersuite_def();
		def.fields = fields;
		sw_model *m = NULL;
		sw_diag d;
		ck_assert_int_eq(test_ss_import(SQUARE_IN_THE_WAY, &def, &m, NULL, &d), SW_SUCCESS);
		ck_assert_int_eq(m->n_fields, fields);
		sw_world *w = NULL;
		ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
		events ev;
		run_all(w, &ev);
		ck_assert_int_eq(sw_world_agents_done(w), 1);
		ck_assert_str_eq(ev.label[ev.n - 1], "reached0");
		char *json = summary_of(w); /* the final mode, done, has no law */
		ck_assert_msg(strstr(json, "\"law\": null, \"target\"") != NULL, "%s", json);
		free(json);
		if (fields) {
			ck_assert_int_eq(ev.n, 1);
			ck_assert_double_lt(ev.t[0], 9.0);
		} else {
			ck_assert_int_eq(ev.n, 3);
			ck_assert_str_eq(ev.label[0], "stalled0");
			ck_assert_double_eq_tol(ev.t[0], 4.15, 1e-6);
			ck_assert_str_eq(ev.label[1], "unstall0");
			ck_assert_double_eq_tol(ev.t[1], 6.15, 1e-6);
			ck_assert_double_eq_tol(ev.t[2], 12.171, 1e-3);
		}
		sw_world_destroy(w);
		sw_model_free(m);
	}
}
END_TEST

Suite *steersuite_emit_suite(void)
{
	Suite *s = suite_create("steersuite_emit");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_reset_moves_the_agent);
	tcase_add_test(tc, test_reset_heading_turns_in_place);
	tcase_add_test(tc, test_reset_negative_speed_stops_the_run);
	tcase_add_test(tc, test_reset_names_checked);
	tcase_add_test(tc, test_reset_exported);
	tcase_add_test(tc, test_reset_refused_in_3d);
	tcase_add_test(tc, test_emitter_starts_again_where_it_stands);
	tcase_add_test(tc, test_emitter_automaton_resets);
	tcase_add_test(tc, test_emitter_budget_ends_its_sequence);
	tcase_add_test(tc, test_emitter_and_empty_case_refusals);
	tcase_add_test(tc, test_pedestrian_detours_round_an_obstacle_in_its_way);
	suite_add_tcase(s, tc);
	return s;
}
