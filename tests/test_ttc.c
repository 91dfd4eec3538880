/* tests/test_ttc.c - the anticipatory time-to-collision law (steer/ttc.c): tau against closed
 * forms, the force against a central-difference gradient of the energy and against an
 * independent transcription of the paper's closed form, the caps, the XML element and its
 * checks, the refusal by export, the agents' velocities, thread-count equality and a head-on pair
 * that swaps places without touching. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swerve/export.h"
#include "swerve/io.h"
#include "swerve/sim.h"
#include "tests.h"

/* Defaults with a cap that never binds (the paper's law itself). */
static sw_ttc_params uncapped(void)
{
	sw_ttc_params p = sw_default_ttc_params();
	p.f_max = 1e300;
	return p;
}

START_TEST(defaults_are_the_published_parameters)
{
	sw_ttc_params p = sw_default_ttc_params();
	ck_assert(p.k == 1.5 && p.tau0 == 3.0 && p.xi == 0.54 && p.v_pref == 1.3 &&
		  p.range == 10.0);
	ck_assert_str_eq(sw_law_name(SW_LAW_TTC), "ttc");
	sw_steer_def a = sw_default_steer_def(), b = a;
	a.law = b.law = SW_LAW_TTC;
	ck_assert(sw_steer_def_equal(&a, &b));
	b.ttc.tau0 = 2.0;
	ck_assert(!sw_steer_def_equal(&a, &b));
}
END_TEST

START_TEST(tau_matches_closed_forms)
{
	/* Head on: the gap d - r closes at speed u. */
	double x[2] = {4.0, 0.0}, v[2] = {-2.0, 0.0};
	ck_assert_double_eq_tol(sw_ttc_tau(x, v, 0.5), (4.0 - 0.5) / 2.0, 1e-15);
	/* Lateral offset h < r: contact when the x gap is sqrt(r^2 - h^2). */
	double h = 0.3, r = 0.5, d = 6.0, u = 1.5;
	double xo[2] = {d, h}, vo[2] = {-u, 0.0};
	ck_assert_double_eq_tol(sw_ttc_tau(xo, vo, r), (d - sqrt(r * r - h * h)) / u, 1e-14);
	/* An oblique approach: the root of |x + v t| = r found by bisection. */
	double xb[2] = {3.0, -2.0}, vb[2] = {-1.1, 0.9};
	double lo = 0.0, hi = 2.5; /* |x + v t| - r changes sign once in [0, 2.5] */
	for (int k = 0; k < 200; k++) {
		double mid = 0.5 * (lo + hi);
		double px = xb[0] + vb[0] * mid, py = xb[1] + vb[1] * mid;
		if (hypot(px, py) > 0.7)
			lo = mid;
		else
			hi = mid;
	}
	ck_assert_double_eq_tol(sw_ttc_tau(xb, vb, 0.7), lo, 1e-12);
	/* Misses, receding, at rest, overlapping. */
	double xm[2] = {d, 0.6};
	ck_assert(sw_ttc_tau(xm, vo, r) == INFINITY);
	double vr[2] = {u, 0.0};
	ck_assert(sw_ttc_tau(xo, vr, r) == INFINITY);
	double v0[2] = {0.0, 0.0};
	ck_assert(sw_ttc_tau(xo, v0, r) == INFINITY);
	double xi[2] = {0.2, 0.1};
	ck_assert(sw_ttc_tau(xi, vo, r) == 0.0);
}
END_TEST

/* E(tau(x)) for the finite differences. */
static double energy_at(const sw_ttc_params *p, double x0, double x1, const double v[2], double r)
{
	double x[2] = {x0, x1};
	return sw_ttc_energy(p, sw_ttc_tau(x, v, r));
}

/* The paper's closed form, transcribed independently of steer/ttc.c:
 * F = -[k exp(-tau/tau0) / (|v|^2 tau^2)] (2/tau + 1/tau0)
 *     [v - (v^2 x - (x.v) v) / sqrt((x.v)^2 - v^2 (x^2 - r^2))]. */
static void paper_force(const sw_ttc_params *p, const double x[2], const double v[2], double r,
			double f[2])
{
	double vv = v[0] * v[0] + v[1] * v[1], xv = x[0] * v[0] + x[1] * v[1];
	double xx = x[0] * x[0] + x[1] * x[1];
	double tau = (-xv - sqrt(xv * xv - vv * (xx - r * r))) / vv;
	double s = sqrt(xv * xv - vv * (xx - r * r));
	double pre = -p->k * exp(-tau / p->tau0) / (vv * tau * tau) * (2.0 / tau + 1.0 / p->tau0);
	for (int i = 0; i < 2; i++)
		f[i] = pre * (v[i] - (vv * x[i] - xv * v[i]) / s);
}

START_TEST(force_is_minus_the_gradient_of_the_energy)
{
	sw_ttc_params p = uncapped();
	/* Approaching pairs at various offsets, speeds and radii (all with a collision ahead). */
	static const double cases[][5] = {
	    /* x0, x1, v0, v1, r */
	    {4.0, 0.3, -1.3, 0.0, 0.5},  {3.0, -2.0, -1.1, 0.9, 0.7}, {-2.5, 1.0, 2.0, -0.5, 0.4},
	    {1.2, 0.1, -0.4, 0.05, 0.5}, {8.0, 1.5, -2.6, -0.45, 0.6}, {0.9, -0.6, -1.0, 0.8, 0.45},
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		double x[2] = {cases[c][0], cases[c][1]}, v[2] = {cases[c][2], cases[c][3]};
		double r = cases[c][4], f[2], fp[2];
		double tau = sw_ttc_force(&p, x, v, r, f);
		ck_assert_msg(tau > 0.0 && tau < INFINITY, "case %zu: no collision ahead", c);
		for (int i = 0; i < 2; i++) {
			double h = 1e-6 * fmax(1.0, fabs(x[i]));
			double xp[2] = {x[0], x[1]}, xm[2] = {x[0], x[1]};
			xp[i] += h;
			xm[i] -= h;
			double g = (energy_at(&p, xp[0], xp[1], v, r) - energy_at(&p, xm[0], xm[1], v, r)) /
				   (2.0 * h);
			double tol = 1e-6 * fmax(1.0, hypot(f[0], f[1]));
			ck_assert_msg(fabs(f[i] + g) <= tol, "case %zu, component %d: F = %.12g, -dE/dx = %.12g",
				      c, i, f[i], -g);
		}
		paper_force(&p, x, v, r, fp);
		for (int i = 0; i < 2; i++)
			ck_assert_double_eq_tol(f[i], fp[i], 1e-12 * fmax(1.0, fabs(fp[i])));
		/* It pushes away from the contact point: F.(x + tau v) > 0. */
		ck_assert(f[0] * (x[0] + tau * v[0]) + f[1] * (x[1] + tau * v[1]) > 0.0);
	}
}
END_TEST

START_TEST(forces_are_capped_and_overlaps_pushed_apart)
{
	sw_ttc_params p = sw_default_ttc_params();
	double f[2];
	/* Nearly touching and approaching fast: uncapped |F| is far above f_max. */
	double x[2] = {0.52, 0.01}, v[2] = {-2.0, 0.0};
	sw_ttc_force(&p, x, v, 0.5, f);
	ck_assert_double_eq_tol(hypot(f[0], f[1]), p.f_max, 1e-12);
	ck_assert(f[0] > 0.0);
	/* Overlapping: straight apart along x with magnitude f_max, whatever the velocity. */
	double xo[2] = {0.3, -0.4}, vo[2] = {1.0, 1.0};
	ck_assert(sw_ttc_force(&p, xo, vo, 0.6, f) == 0.0);
	ck_assert_double_eq_tol(f[0], p.f_max * 0.6, 1e-12);
	ck_assert_double_eq_tol(f[1], -p.f_max * 0.8, 1e-12);
	/* No collision ahead: no force. */
	double xr[2] = {3.0, 0.0}, vr[2] = {1.0, 0.0};
	ck_assert(sw_ttc_force(&p, xr, vr, 0.5, f) == INFINITY);
	ck_assert(f[0] == 0.0 && f[1] == 0.0);
}
END_TEST

START_TEST(acceleration_sums_goal_and_percept_forces)
{
	sw_ttc_params p = uncapped();
	/* An agent at the origin moving +x at 1 m/s toward a target at (10, 0); another agent (1)
	 * 3 m ahead (slightly off axis) coming back at 1 m/s; a static disc out of range. */
	sw_percept o[2] = {{3.0, 0.2, hypot(3.0, 0.2), 0.25, hypot(3.0, 0.2) - 0.5, -2, 0, 0},
			   {20.0, 0.0, 20.0, 1.0, 18.75, 0, 0, 0}};
	double agent_v[4] = {0.0, 0.0, -1.0, 0.0};
	sw_situation s = {0.0, 0.0, 0.25, 1, 10.0, 0.0, 2, o, agent_v, 0};
	double vel[2] = {1.0, 0.0}, acc[2], f[2];
	sw_ttc_accel(&p, &s, vel, acc);
	double x[2] = {-3.0, -0.2}, v[2] = {2.0, 0.0};
	sw_ttc_force(&p, x, v, 0.5, f);
	ck_assert_double_eq_tol(acc[0], (1.3 - 1.0) / 0.54 + f[0], 1e-12);
	ck_assert_double_eq_tol(acc[1], f[1], 1e-12);
	ck_assert(f[0] < 0.0 && f[1] < 0.0); /* brakes and sidesteps away from the other's side */
	/* The whole right-hand side: v' = a.e, phi' = a.e_perp / v, motion along the heading. */
	sw_steer_def def = sw_default_steer_def();
	def.law = SW_LAW_TTC;
	def.ttc = p;
	double y[SW_STATE_DIM] = {0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0}, dy[SW_STATE_DIM];
	ck_assert_int_eq(sw_steer_rhs(&def, NULL, &s, y, dy, NULL), SW_SUCCESS);
	ck_assert_double_eq_tol(dy[SW_STATE_V], acc[0], 1e-12);
	ck_assert_double_eq_tol(dy[SW_STATE_PHI], acc[1] / 1.0, 1e-12);
	ck_assert(dy[SW_STATE_X] == 1.0 && dy[SW_STATE_Y] == 0.0);
	/* At rest with the force pointing backwards the speed does not go negative. */
	y[SW_STATE_V] = 0.0;
	s.tx = -10.0;
	s.n_obs = 0;
	ck_assert_int_eq(sw_steer_rhs(&def, NULL, &s, y, dy, NULL), SW_SUCCESS);
	ck_assert(dy[SW_STATE_V] == 0.0);
	y[SW_STATE_V] = -0.01;
	sw_steer_algebraic(&def, NULL, &s, y);
	ck_assert(y[SW_STATE_V] == 0.0);
}
END_TEST

static const char pair_xml[] =
    "<scenario name=\"pair\">\n"
    "  <run duration=\"20\" step=\"0.01\" sample=\"0.5\"/>\n"
    "  <world>\n"
    "    <target name=\"tl\" x=\"-5\" y=\"0\" radius=\"0.2\"/>\n"
    "    <target name=\"tr\" x=\"5\" y=\"0.1\" radius=\"0.2\"/>\n"
    "  </world>\n"
    "  <agent name=\"a\" x=\"-5\" y=\"0\" heading=\"0\" speed=\"1.3\" radius=\"0.25\" "
    "target=\"tr\"><ttc/></agent>\n"
    "  <agent name=\"b\" x=\"5\" y=\"0.1\" heading=\"180deg\" speed=\"1.3\" radius=\"0.25\" "
    "target=\"tl\"><ttc %s/></agent>\n"
    "</scenario>\n";

/* The pair scenario with extra attributes on b's <ttc>; NULL and the diagnostic when refused. */
static sw_model *load_pair(const char *attrs, sw_diag *d)
{
	return test_load_filled(pair_xml, attrs, "pair.xml", d);
}

START_TEST(head_on_pair_swaps_places_without_overlap)
{
	sw_diag d;
	sw_model *m = load_pair("", &d);
	ck_assert_ptr_nonnull(m);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, &d), SW_SUCCESS);
	for (int i = 0; i < 2; i++) {
		const sw_agent_metrics *mt = sw_world_metrics(w, i);
		ck_assert_msg(mt->reached, "agent %d did not arrive", i);
		/* Free walking takes 10 m / 1.3 m/s = 7.7 s; the detour costs little. */
		ck_assert(mt->t_reached < 1.2 * 10.0 / 1.3);
		ck_assert_msg(mt->min_agent_clearance > 0.0, "agent %d: clearance %g", i,
			      mt->min_agent_clearance);
		ck_assert_int_eq(mt->agent_collisions, 0);
	}
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

START_TEST(situations_carry_the_other_agents_velocity)
{
	sw_diag d;
	sw_model *m = load_pair("", &d);
	ck_assert_ptr_nonnull(m);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
	for (int k = 0; k < 50; k++)
		ck_assert_int_eq(sw_world_step(w, &d), SW_SUCCESS);
	sw_agent_state b;
	sw_world_agent(w, 1, &b);
	sw_situation s;
	sw_percept buf[4];
	ck_assert_int_eq(sw_world_perceive(w, 0, &s, buf, 4), 1);
	double vb[2];
	sw_steer_velocity(b.y[SW_STATE_V], b.y[SW_STATE_PHI], vb);
	ck_assert(buf[0].id == -2 && s.agent_v && s.agent_v[2] == vb[0] && s.agent_v[3] == vb[1]);
	ck_assert(vb[0] < -1.0);
	ck_assert(s.agent_v[0] > 1.0); /* and a's own, walking +x */
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

START_TEST(attributes_are_read_and_bad_values_refused)
{
	sw_diag d;
	sw_model *m = load_pair("k=\"2\" tau0=\"4\" xi=\"0.5\" v-pref=\"1.1\" range=\"8\" f-max=\"9\" "
				"v-min=\"0.2\"",
				&d);
	ck_assert_ptr_nonnull(m);
	const sw_ttc_params *p = &m->agents[1].steer.ttc;
	ck_assert_int_eq(m->agents[1].steer.law, SW_LAW_TTC);
	ck_assert(p->k == 2 && p->tau0 == 4 && p->xi == 0.5 && p->v_pref == 1.1 && p->range == 8 &&
		  p->f_max == 9 && p->v_min == 0.2);
	sw_model_free(m);
	static const char *const bad[][2] = {
	    {"tau0=\"0\"", "ttc tau0"},       {"xi=\"-1\"", "ttc xi"},
	    {"k=\"0\"", "ttc k"},             {"v-pref=\"40\"", "ttc v-pref"},
	    {"range=\"0\"", "ttc range"},     {"f-max=\"-2\"", "ttc f-max"},
	    {"v-min=\"0\"", "ttc v-min"},     {"tau=\"1\"", "unknown attribute tau"},
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		ck_assert_ptr_null(load_pair(bad[k][0], &d));
		char msg[800];
		sw_diag_format(&d, 0, msg, sizeof msg);
		ck_assert_msg(strstr(msg, bad[k][1]) && strstr(msg, "pair.xml:"),
			      "%s: got '%s'", bad[k][0], msg);
	}
}
END_TEST

START_TEST(export_refuses_the_law_with_its_line)
{
	sw_diag d;
	test_export_refuses(load_pair("", &d), "pair.xml:7", "time-to-collision");
}
END_TEST

/* Static obstacles through the same law: a pillar in the path (off axis by 0.1 m) is passed
 * without contact; a wall across the way to a target behind it is approached and not crossed. */
static const char obstacles_xml[] =
    "<scenario name=\"obs\">\n"
    "  <run duration=\"20\" step=\"0.01\"/>\n"
    "  <world>\n"
    "    <disc name=\"pillar\" x=\"0\" y=\"0.1\" radius=\"0.5\"/>\n"
    "    <segment name=\"wall\" x1=\"6\" y1=\"-2\" x2=\"6\" y2=\"2\"/>\n"
    "    <target name=\"t\" x=\"5\" y=\"0\" radius=\"0.2\"/>\n"
    "    <target name=\"u\" x=\"10\" y=\"0\" radius=\"0.2\"/>\n"
    "  </world>\n"
    "  <agent name=\"a\" x=\"-5\" y=\"0\" heading=\"0\" speed=\"1.3\" radius=\"0.25\" "
    "target=\"t\"><ttc/></agent>\n"
    "  <agent name=\"b\" x=\"3\" y=\"0.5\" heading=\"0\" speed=\"1.3\" radius=\"0.25\" "
    "target=\"u\"><ttc/></agent>\n"
    "</scenario>\n";

START_TEST(a_pillar_is_passed_and_a_wall_not_crossed)
{
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory(obstacles_xml, strlen(obstacles_xml), "obs.xml",
						 &m, &d),
			 SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, &d), SW_SUCCESS);
	const sw_agent_metrics *a = sw_world_metrics(w, 0), *b = sw_world_metrics(w, 1);
	ck_assert(a->reached);
	ck_assert_msg(a->min_clearance > 0.0 && a->collisions == 0, "pillar clearance %g",
		      a->min_clearance);
	ck_assert(!b->reached);
	ck_assert_msg(b->min_clearance >= 0.0 && b->collisions == 0, "wall clearance %g",
		      b->min_clearance);
	sw_agent_state s;
	sw_world_agent(w, 1, &s);
	ck_assert(s.y[SW_STATE_X] < 6.0); /* still on its side of the wall */
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST


START_TEST(one_and_three_threads_give_identical_bits)
{
	size_t n1, n3;
	double w1, w3; /* the ring of ttc agents */
	double *a = test_ring_run("<ttc/>", 4.0, "duration=\"6\" step=\"0.05\"", 1, &n1, &w1);
	double *b = test_ring_run("<ttc/>", 4.0, "duration=\"6\" step=\"0.05\"", 3, &n3, &w3);
	ck_assert(n1 == n3 && memcmp(a, b, n1) == 0);
	free(a);
	free(b);
}
END_TEST

Suite *ttc_suite(void)
{
	Suite *s = suite_create("ttc");
	TCase *tc = tcase_create("ttc");
	tcase_add_test(tc, defaults_are_the_published_parameters);
	tcase_add_test(tc, tau_matches_closed_forms);
	tcase_add_test(tc, force_is_minus_the_gradient_of_the_energy);
	tcase_add_test(tc, forces_are_capped_and_overlaps_pushed_apart);
	tcase_add_test(tc, acceleration_sums_goal_and_percept_forces);
	tcase_add_test(tc, head_on_pair_swaps_places_without_overlap);
	tcase_add_test(tc, situations_carry_the_other_agents_velocity);
	tcase_add_test(tc, attributes_are_read_and_bad_values_refused);
	tcase_add_test(tc, export_refuses_the_law_with_its_line);
	tcase_add_test(tc, a_pillar_is_passed_and_a_wall_not_crossed);
	tcase_add_test(tc, one_and_three_threads_give_identical_bits);
	suite_add_tcase(s, tc);
	return s;
}
