/* tests/test_sim.c - the simulator against closed forms: arrival instants located by root
 * finding, heading relaxation, collision metrics, sampling, determinism, integrator choice. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "swerve/sim.h"
#include "tests.h"

/* A one-agent model: agent at the origin heading 0, target at (tx, ty) with radius 0.5. */
static sw_model *simple_model(sw_law law, double tx, double ty, const char *integrator)
{
	sw_model *m = sw_model_alloc("sim", NULL);
	sw_target_def t = sw_default_target_def();
	t.name = "goal";
	t.position = sw_v2(tx, ty);
	t.radius = 0.5;
	ck_assert_int_eq(sw_model_add_target(m, &t, NULL), SW_SUCCESS);
	sw_agent_def a = sw_default_agent_def();
	a.name = "a";
	a.target = "goal";
	a.steer.law = law;
	a.steer.glm.speed = SW_SPEED_CONSTANT;
	a.steer.glm.v_max = 1.0;
	a.steer.glm.sigma_phi = 0.0;
	ck_assert_int_eq(sw_model_add_agent(m, &a, NULL), SW_SUCCESS);
	sw_run_def r = sw_default_run_def();
	r.duration = 20.0;
	snprintf(r.integrator, sizeof r.integrator, "%s", integrator);
	r.rtol = 1e-10;
	r.atol = 1e-12;
	ck_assert_int_eq(sw_model_set_run(m, &r, 0, NULL), SW_SUCCESS);
	return m;
}

static const char *integrators[] = {"euler", "rk4", "rkf45", "rk8pd", "msbdf"};

START_TEST(arrival_instant_is_located_not_rounded_to_the_step)
{
	/* Straight at 1 m/s to a target 10.1 m ahead with arrival radius 0.5: t* = 9.6 s, between
	 * the step ends 9.5 and 9.75. */
	sw_model *m = simple_model(SW_LAW_GLM, 10.1, 0.0, integrators[_i]);
	ck_assert_int_eq(sw_model_finalize(m, NULL), SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, NULL), SW_SUCCESS);
	const sw_agent_metrics *mt = sw_world_metrics(w, 0);
	ck_assert_int_eq(mt->reached, 1);
	ck_assert_double_eq_tol(mt->t_reached, 9.6, 1e-8);
	sw_agent_state s;
	sw_world_agent(w, 0, &s);
	ck_assert_double_eq_tol(s.y[SW_STATE_X], 9.6, 1e-8);
	ck_assert_double_eq_tol(s.y[SW_STATE_Y], 0.0, 1e-12);
	ck_assert_double_eq(s.y[SW_STATE_V], 0.0);
	ck_assert_str_eq(sw_world_mode_name(w, 0, s.mode), "arrived");
	ck_assert_double_eq_tol(mt->path_length, 9.6, 1e-8);
	ck_assert_double_eq_tol(sw_world_time(w), 20.0, 1e-12);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

START_TEST(heading_relaxes_as_the_closed_form_of_eq2)
{
	/* Agent fixed in place (v_max = 0), target only: w_tar = 1 and phi' = -a sin(phi - psi),
	 * whose solution is tan(e/2) = tan(e0/2) exp(-a t) with e = phi - psi. */
	double psi = 1.0, phi0 = -1.5, a = 1.3;
	sw_model *m = sw_model_alloc("relax", NULL);
	sw_target_def t = sw_default_target_def();
	t.name = "goal";
	t.position = sw_v2(10 * cos(psi), 10 * sin(psi));
	sw_model_add_target(m, &t, NULL);
	sw_agent_def ad = sw_default_agent_def();
	ad.heading = phi0;
	ad.steer.glm.a = a;
	ad.steer.glm.speed = SW_SPEED_CONSTANT;
	ad.steer.glm.v_max = 0.0;
	ad.steer.glm.sigma_phi = 0.0;
	sw_model_add_agent(m, &ad, NULL);
	sw_run_def r = sw_default_run_def();
	r.duration = 3.0;
	strcpy(r.integrator, "rk8pd");
	r.rtol = 1e-12;
	r.atol = 1e-12;
	sw_model_set_run(m, &r, 0, NULL);
	ck_assert_int_eq(sw_model_finalize(m, NULL), SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, NULL), SW_SUCCESS);
	sw_agent_state s;
	sw_world_agent(w, 0, &s);
	double e = 2.0 * atan(tan(0.5 * (phi0 - psi)) * exp(-a * 3.0));
	ck_assert_double_eq_tol(s.y[SW_STATE_PHI], psi + e, 1e-8);
	ck_assert_double_eq_tol(s.y[SW_STATE_WTAR], 1.0, 1e-9);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

START_TEST(collision_metrics_of_a_straight_pass_through_a_disc)
{
	/* FW without obstacle term keeps heading 0 towards a goal straight ahead and drives
	 * through a disc of radius 0.5 at x = 5: deepest overlap 0.5 + 0.25 at x = 5. */
	sw_model *m = simple_model(SW_LAW_FW, 10.0, 0.0, "euler");
	m->agents[0].steer.fw.ko = 0.0;
	sw_obstacle_def o = sw_default_obstacle_def();
	o.name = "disc";
	o.center = sw_v2(5.0, 0.0);
	o.radius = 0.5;
	ck_assert_int_eq(sw_model_add_obstacle(m, &o, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_model_finalize(m, NULL), SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, NULL), SW_SUCCESS);
	const sw_agent_metrics *mt = sw_world_metrics(w, 0);
	ck_assert_int_eq(mt->collisions, 1);
	ck_assert_double_eq_tol(mt->max_penetration, 0.75, 1e-9);
	ck_assert_double_eq_tol(mt->min_clearance, -0.75, 1e-9);
	ck_assert_double_eq_tol(sw_world_min_clearance(w, 0, 0), -0.75, 1e-9);
	/* True overlap lasts 1.5 s; it is measured at step ends (h = 0.25). */
	ck_assert(mt->overlap_time >= 1.5 - 0.25 - 1e-9 && mt->overlap_time <= 1.5 + 1e-9);
	ck_assert_double_eq_tol(mt->t_reached, 9.5, 1e-8);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

START_TEST(potential_field_moves_straight_to_the_goal)
{
	sw_model *m = simple_model(SW_LAW_PF, 0.0, -8.0, "rk4");
	ck_assert_int_eq(sw_model_finalize(m, NULL), SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, NULL), SW_SUCCESS);
	/* Default PF speed 0.5 m/s over 7.5 m. */
	ck_assert_double_eq_tol(sw_world_metrics(w, 0)->t_reached, 15.0, 1e-8);
	sw_agent_state s;
	sw_world_agent(w, 0, &s);
	ck_assert_double_eq_tol(s.y[SW_STATE_X], 0.0, 1e-12);
	ck_assert_double_eq_tol(s.y[SW_STATE_Y], -7.5, 1e-8);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

static int count_samples(const sw_world *w, void *ctx)
{
	double *times = ctx;
	int n = (int)times[0]++;
	times[1 + n] = sw_world_time(w);
	return SW_SUCCESS;
}

START_TEST(samples_every_interval_including_start_and_end)
{
	sw_model *m = simple_model(SW_LAW_GLM, 50.0, 0.0, "euler");
	m->run.duration = 2.0;
	m->run.sample = 0.5;
	ck_assert_int_eq(sw_model_finalize(m, NULL), SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	double times[32] = {0};
	ck_assert_int_eq(sw_world_run(w, count_samples, times, NULL), SW_SUCCESS);
	ck_assert_int_eq((int)times[0], 5);
	for (int k = 0; k < 5; k++)
		ck_assert_double_eq_tol(times[1 + k], 0.5 * k, 1e-12);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* Three noisy GLM agents among obstacles; returns the final states. */
static void noisy_run(uint64_t seed, double *out)
{
	sw_model *m = sw_model_alloc("noisy", NULL);
	sw_target_def t = sw_default_target_def();
	t.name = "goal";
	t.position = sw_v2(12, 0);
	sw_model_add_target(m, &t, NULL);
	sw_obstacle_def o = sw_default_obstacle_def();
	o.center = sw_v2(5, 0.2);
	sw_model_add_obstacle(m, &o, NULL);
	for (int i = 0; i < 3; i++) {
		sw_agent_def a = sw_default_agent_def();
		a.position = sw_v2(0, -1.0 + i);
		a.steer.glm.sigma_phi = 0.2;
		sw_model_add_agent(m, &a, NULL);
	}
	sw_run_def r = sw_default_run_def();
	r.duration = 10.0;
	r.seed = seed;
	sw_model_set_run(m, &r, 0, NULL);
	ck_assert_int_eq(sw_model_finalize(m, NULL), SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, NULL), SW_SUCCESS);
	for (int i = 0; i < 3; i++) {
		sw_agent_state s;
		sw_world_agent(w, i, &s);
		memcpy(out + i * SW_STATE_DIM, s.y, sizeof s.y);
	}
	sw_world_destroy(w);
	sw_model_free(m);
}

START_TEST(same_seed_same_bits_other_seed_differs)
{
	double a[3 * SW_STATE_DIM], b[3 * SW_STATE_DIM], c[3 * SW_STATE_DIM];
	noisy_run(11, a);
	noisy_run(11, b);
	noisy_run(12, c);
	ck_assert_int_eq(memcmp(a, b, sizeof a), 0);
	ck_assert_int_ne(memcmp(a, c, sizeof a), 0);
}
END_TEST

START_TEST(unknown_integrator_is_bad_input)
{
	sw_model *m = simple_model(SW_LAW_GLM, 5.0, 0.0, "rk99");
	ck_assert_int_eq(sw_model_finalize(m, NULL), SW_SUCCESS);
	sw_diag d;
	sw_diag_init(&d);
	sw_world *w = (sw_world *)1;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_EINPUT);
	ck_assert_ptr_null(w);
	ck_assert(strstr(d.entry[0].message, "unknown integrator 'rk99'") != NULL);
	sw_model_free(m);
}
END_TEST

START_TEST(wall_following_heading_keeps_the_wall_on_the_chosen_side)
{
	/* Wall point 1 m to the right (-y) of an agent at the origin. */
	sw_wall_params p = sw_default_wall_params();
	sw_percept w = {0.0, -1.0, 1.0, 0.0, 1.0 - 0.25, 0, 0.0, 0.0};
	sw_situation s = {0, 0, 0.25, 0, 0, 0, 1, &w, NULL, 0};
	p.distance = 0.75; /* at the desired clearance: walk along +x, wall on the right */
	ck_assert_double_eq_tol(sw_wall_heading(&p, &s, 0.3), 0.0, 1e-15);
	p.distance = 0.55; /* 0.2 m too far: turn towards the wall by gain * 0.2 */
	ck_assert_double_eq_tol(sw_wall_heading(&p, &s, 0.3), -p.gain * 0.2, 1e-15);
	p.side = -1; /* wall on the left: walk along -x */
	p.distance = 0.75;
	ck_assert_double_eq_tol(fabs(sw_wall_heading(&p, &s, 0.3)), M_PI, 1e-15);
	p.distance = -10; /* far too far: the correction saturates at pi/4 */
	p.side = 1;
	ck_assert_double_eq_tol(sw_wall_heading(&p, &s, 0.3), -M_PI / 4, 1e-15);
	s.n_obs = 0; /* nothing perceived, no target: keep the heading */
	ck_assert_double_eq(sw_wall_heading(&p, &s, 0.3), 0.3);
}
END_TEST

/* 80 agents on a circle walking to the antipodes, perceiving each other within 2.5 m. */
static void circle_swap(int grid, double *out, sw_agent_metrics *mt)
{
	sw_model *m = sw_model_alloc("swap", NULL);
	enum { N = 80 };
	char names[N][16];
	for (int i = 0; i < N; i++) {
		double a = 2 * M_PI * i / N;
		sw_target_def t = sw_default_target_def();
		snprintf(names[i], sizeof names[i], "t%d", i);
		t.name = names[i];
		t.position = sw_v2(-12 * cos(a), -12 * sin(a));
		ck_assert_int_eq(sw_model_add_target(m, &t, NULL), SW_SUCCESS);
	}
	for (int i = 0; i < N; i++) {
		double a = 2 * M_PI * i / N;
		sw_agent_def ad = sw_default_agent_def();
		ad.position = sw_v2(12 * cos(a), 12 * sin(a));
		ad.heading = a + M_PI;
		ad.target = names[i];
		ad.perception = 2.5;
		ad.radius = 0.2;
		ad.steer.glm.sigma_phi = 0.1;
		ck_assert_int_eq(sw_model_add_agent(m, &ad, NULL), SW_SUCCESS);
	}
	sw_run_def r = sw_default_run_def();
	r.duration = 12.0;
	r.neighbor_grid = grid;
	ck_assert_int_eq(sw_model_set_run(m, &r, 0, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_model_finalize(m, NULL), SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, NULL), SW_SUCCESS);
	for (int i = 0; i < N; i++) {
		sw_agent_state st;
		sw_world_agent(w, i, &st);
		memcpy(out + i * SW_STATE_DIM, st.y, sizeof st.y);
		mt[i] = *sw_world_metrics(w, i);
	}
	sw_world_destroy(w);
	sw_model_free(m);
}

START_TEST(neighbour_grid_gives_the_same_bits_as_the_loop_over_all_agents)
{
	static double a[80 * SW_STATE_DIM], b[80 * SW_STATE_DIM];
	static sw_agent_metrics ma[80], mb[80];
	circle_swap(1, a, ma);
	circle_swap(0, b, mb);
	ck_assert_int_eq(memcmp(a, b, sizeof a), 0);
	int met = 0;
	for (int i = 0; i < 80; i++) {
		ck_assert_int_eq(ma[i].agent_collisions, mb[i].agent_collisions);
		ck_assert(ma[i].min_agent_clearance == mb[i].min_agent_clearance);
		met += isfinite(ma[i].min_agent_clearance);
	}
	ck_assert_int_gt(met, 40); /* the agents did meet in the middle */
}
END_TEST

Suite *sim_suite(void)
{
	Suite *s = suite_create("sim");
	TCase *tc = tcase_create("sim");
	tcase_add_loop_test(tc, arrival_instant_is_located_not_rounded_to_the_step, 0,
			    (int)(sizeof integrators / sizeof integrators[0]));
	tcase_add_test(tc, heading_relaxes_as_the_closed_form_of_eq2);
	tcase_add_test(tc, collision_metrics_of_a_straight_pass_through_a_disc);
	tcase_add_test(tc, potential_field_moves_straight_to_the_goal);
	tcase_add_test(tc, samples_every_interval_including_start_and_end);
	tcase_add_test(tc, same_seed_same_bits_other_seed_differs);
	tcase_add_test(tc, unknown_integrator_is_bad_input);
	tcase_add_test(tc, wall_following_heading_keeps_the_wall_on_the_chosen_side);
	tcase_add_test(tc, neighbour_grid_gives_the_same_bits_as_the_loop_over_all_agents);
	suite_add_tcase(s, tc);
	return s;
}
