/* tests/test_model.c - the model builder: value checks, name resolution, scene checks,
 * compiled geometry and scripted motion. */
#include <math.h>
#include <string.h>

#include "swerve/model.h"
#include "tests.h"

static int has_message(const sw_diag *d, int line, const char *phrase)
{
	for (int i = 0; i < d->count; i++)
		if (d->entry[i].line == line && strstr(d->entry[i].message, phrase))
			return 1;
	return 0;
}

START_TEST(bad_values_are_reported_with_their_line)
{
	sw_model *m = sw_model_alloc("t", "t.xml");
	sw_diag d;
	sw_diag_init(&d);
	sw_obstacle_def o = sw_default_obstacle_def();
	o.name = "o";
	o.line = 5;
	o.radius = -1.0;
	ck_assert_int_eq(sw_model_add_obstacle(m, &o, &d), SW_EINPUT);
	ck_assert(has_message(&d, 5, "radius"));
	o.radius = 1.0;
	o.center.x = NAN;
	ck_assert_int_eq(sw_model_add_obstacle(m, &o, &d), SW_EINPUT);
	ck_assert(has_message(&d, 5, "finite"));
	sw_agent_def a = sw_default_agent_def();
	a.line = 9;
	a.speed = -2;
	ck_assert_int_eq(sw_model_add_agent(m, &a, &d), SW_EINPUT);
	ck_assert(has_message(&d, 9, "speed"));
	a.speed = 0;
	a.target = "nowhere";
	ck_assert_int_eq(sw_model_add_agent(m, &a, &d), SW_EINPUT);
	ck_assert(has_message(&d, 9, "unknown target 'nowhere'"));
	a.target = NULL;
	a.steer.glm.d0 = INFINITY;
	ck_assert_int_eq(sw_model_add_agent(m, &a, &d), SW_EINPUT);
	ck_assert(has_message(&d, 9, "d0"));
	sw_run_def r = sw_default_run_def();
	r.sample = 0.3; /* not a multiple of 0.25 */
	ck_assert_int_eq(sw_model_set_run(m, &r, 2, &d), SW_EINPUT);
	ck_assert(has_message(&d, 2, "multiple of step"));
	ck_assert_int_eq(m->n_obstacles, 0);
	ck_assert_int_eq(m->n_agents, 0);
	sw_model_free(m);
}
END_TEST

START_TEST(agent_inside_obstacle_and_duplicates_fail_finalize)
{
	sw_model *m = sw_model_alloc("t", "t.xml");
	sw_diag d;
	sw_diag_init(&d);
	sw_obstacle_def o = sw_default_obstacle_def();
	o.name = "rock";
	o.line = 3;
	o.center = sw_v2(1.0, 0.0);
	o.radius = 0.5;
	ck_assert_int_eq(sw_model_add_obstacle(m, &o, &d), SW_SUCCESS);
	o.line = 4;
	o.center = sw_v2(10.0, 0.0);
	ck_assert_int_eq(sw_model_add_obstacle(m, &o, &d), SW_SUCCESS);
	sw_agent_def a = sw_default_agent_def();
	a.name = "walker";
	a.line = 7;
	a.position = sw_v2(0.3, 0.0); /* radius 0.25: overlaps the rock by 0.45 */
	ck_assert_int_eq(sw_model_add_agent(m, &a, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_model_finalize(m, &d), SW_EINPUT);
	ck_assert(has_message(&d, 7, "starts overlapping obstacle 'rock'"));
	ck_assert(has_message(&d, 4, "already used"));
	sw_model_free(m);
}
END_TEST

START_TEST(polygon_expands_to_edges_and_interior_is_forbidden)
{
	sw_model *m = sw_model_alloc("t", NULL);
	sw_vec2 v[] = {{0, 0}, {4, 0}, {4, 2}, {0, 2}};
	sw_obstacle_def o = sw_default_obstacle_def();
	o.shape = SW_SHAPE_POLYGON;
	o.vertices = v;
	o.n_vertices = 4;
	o.closed = 1;
	ck_assert_int_eq(sw_model_add_obstacle(m, &o, NULL), SW_SUCCESS);
	o.closed = 0;
	ck_assert_int_eq(sw_model_add_obstacle(m, &o, NULL), SW_SUCCESS);
	ck_assert_int_eq(m->obstacles[0].prim_count, 4);
	ck_assert_int_eq(m->obstacles[1].prim_count, 3);
	/* Inside the closed one at (1, 1): nearest edge 1 m away; disc radius 0.25. */
	ck_assert_double_eq_tol(sw_model_obstacle_clearance(m, 0, 0.0, sw_v2(1, 1), 0.25), -1.25,
				1e-12);
	/* The open one has no interior: clearance is the distance to its edges minus the radius. */
	ck_assert_double_eq_tol(sw_model_obstacle_clearance(m, 1, 0.0, sw_v2(1, 1), 0.25), 0.75,
				1e-12);
	ck_assert_double_eq_tol(sw_model_obstacle_clearance(m, 0, 0.0, sw_v2(7, 1), 0.5), 2.5, 1e-12);
	sw_model_free(m);
}
END_TEST

START_TEST(scripted_motion_closed_forms)
{
	sw_model *m = sw_model_alloc("t", NULL);
	sw_target_def t = sw_default_target_def();
	t.name = "lin";
	t.position = sw_v2(1, 2);
	t.motion.kind = SW_MOTION_LINEAR;
	t.motion.velocity = sw_v2(0.5, -0.25);
	ck_assert_int_eq(sw_model_add_target(m, &t, NULL), SW_SUCCESS);
	sw_vec2 pts[] = {{0, 0}, {3, 0}, {3, 4}};
	t.name = "loop";
	t.position = sw_v2(0, 0);
	t.motion.kind = SW_MOTION_WAYPOINTS;
	t.motion.speed = 2.0;
	t.motion.points = pts;
	t.motion.n_points = 3;
	ck_assert_int_eq(sw_model_add_target(m, &t, NULL), SW_SUCCESS);
	sw_vec2 p = sw_model_target_position(m, 0, 4.0);
	ck_assert_double_eq_tol(p.x, 3.0, 1e-14);
	ck_assert_double_eq_tol(p.y, 1.0, 1e-14);
	/* Loop length 3 + 4 + 5 = 12 m at 2 m/s: period 6 s; at t = 2.5 s, s = 5 m: (3, 2). */
	p = sw_model_target_position(m, 1, 2.5);
	ck_assert_double_eq_tol(p.x, 3.0, 1e-12);
	ck_assert_double_eq_tol(p.y, 2.0, 1e-12);
	p = sw_model_target_position(m, 1, 6.0 * 7 + 2.5);
	ck_assert_double_eq_tol(p.x, 3.0, 1e-9);
	ck_assert_double_eq_tol(p.y, 2.0, 1e-9);
	ck_assert_int_eq(sw_model_find_target(m, "loop"), 1);
	ck_assert_int_eq(sw_model_find_target(m, "none"), -1);
	sw_model_free(m);
}
END_TEST

START_TEST(courage_is_applied_at_finalize)
{
	sw_model *m = sw_model_alloc("t", NULL);
	sw_agent_def a = sw_default_agent_def();
	a.steer.glm.d0 = 2.0;
	a.personality.has_courage = 1;
	a.personality.courage = 0.0;
	ck_assert_int_eq(sw_model_add_agent(m, &a, NULL), SW_SUCCESS);
	a.personality.courage = 0.75;
	ck_assert_int_eq(sw_model_add_agent(m, &a, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_model_finalize(m, NULL), SW_SUCCESS);
	/* co = 0: d0 = d0_base, d1 = d0_base (section 1.4). */
	ck_assert_double_eq_tol(m->agents[0].steer.glm.d0, 2.0, 1e-12);
	ck_assert_double_eq_tol(m->agents[0].steer.glm.d1, 2.0, 1e-12);
	/* co = 0.75: d0 = exp(ln 3 * 0.25) - 1, d1 = 2 * 2 * 0.25 = 1. */
	ck_assert_double_eq_tol(m->agents[1].steer.glm.d0, pow(3.0, 0.25) - 1.0, 1e-12);
	ck_assert_double_eq_tol(m->agents[1].steer.glm.d1, 1.0, 1e-12);
	ck_assert_int_eq(sw_model_add_agent(m, &a, NULL), SW_EUSAGE); /* frozen */
	sw_model_free(m);
}
END_TEST

Suite *model_suite(void)
{
	Suite *s = suite_create("model");
	TCase *tc = tcase_create("model");
	tcase_add_test(tc, bad_values_are_reported_with_their_line);
	tcase_add_test(tc, agent_inside_obstacle_and_duplicates_fail_finalize);
	tcase_add_test(tc, polygon_expands_to_edges_and_interior_is_forbidden);
	tcase_add_test(tc, scripted_motion_closed_forms);
	tcase_add_test(tc, courage_is_applied_at_finalize);
	suite_add_tcase(s, tc);
	return s;
}
