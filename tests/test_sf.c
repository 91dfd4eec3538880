/* tests/test_sf.c - the social force law (steer/sf.c): the force against an independent
 * transcription of Helbing, Farkas & Vicsek (2000) eqs. (2)-(3) written with the paper's own
 * quantities (two positions, two velocities, n_ij, t_ij), its normal part against a
 * central-difference gradient of the repulsive potential, body force and friction only on
 * overlap, the anisotropy weight, the acceleration and right-hand side, a wall approached to the
 * closed-form standoff A exp(-c/B) = m v0 / tau, a pillar passed, the XML element and its checks,
 * the refusal by export and thread-count equality. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swerve/export.h"
#include "swerve/io.h"
#include "swerve/sim.h"
#include "tests.h"

START_TEST(defaults_are_the_published_parameters)
{
	sw_sf_params p = sw_default_sf_params();
	/* HFV 2000: tau 0.5 s, A 2e3 N, B 0.08 m, k 1.2e5 kg/s^2, kappa 2.4e5 kg/(m s), m 80 kg;
	 * HM 1995: mean desired speed 1.34 m/s. */
	ck_assert(p.tau == 0.5 && p.a == 2000.0 && p.b == 0.08 && p.k == 1.2e5 &&
		  p.kappa == 2.4e5 && p.mass == 80.0 && p.v0 == 1.34 && p.lambda == 1.0);
	ck_assert_str_eq(sw_law_name(SW_LAW_SF), "sf");
	sw_steer_def a = sw_default_steer_def(), b = a;
	a.law = b.law = SW_LAW_SF;
	ck_assert(sw_steer_def_equal(&a, &b));
	b.sf.kappa = 1.0;
	ck_assert(!sw_steer_def_equal(&a, &b));
}
END_TEST

/* HFV eq. (2), transcribed from the paper's notation independently of steer/sf.c: pedestrian i
 * at ri with velocity vi and radius ai, pedestrian j at rj, vj, aj:
 *     f_ij = {A exp[(r_ij - d_ij)/B] + k g(r_ij - d_ij)} n_ij + kappa g(r_ij - d_ij) dv_ji t_ij,
 * r_ij = ai + aj, d_ij = |ri - rj|, n_ij = (ri - rj)/d_ij, t_ij = (-n_ij2, n_ij1),
 * dv_ji = (vj - vi).t_ij, g(z) = z for z > 0, else 0. */
static void paper_pair(const sw_sf_params *p, const double ri[2], const double vi[2], double ai,
		       const double rj[2], const double vj[2], double aj, double f[2])
{
	double rij = ai + aj;
	double dij = hypot(ri[0] - rj[0], ri[1] - rj[1]);
	double n1 = (ri[0] - rj[0]) / dij, n2 = (ri[1] - rj[1]) / dij;
	double t1 = -n2, t2 = n1;
	double dvt = (vj[0] - vi[0]) * t1 + (vj[1] - vi[1]) * t2;
	double g = rij - dij > 0 ? rij - dij : 0;
	double radial = p->a * exp((rij - dij) / p->b) + p->k * g;
	f[0] = radial * n1 + p->kappa * g * dvt * t1;
	f[1] = radial * n2 + p->kappa * g * dvt * t2;
}

/* HFV eq. (3): a wall point rw at distance d_iW:
 *     f_iW = {A exp[(ai - d_iW)/B] + k g(ai - d_iW)} n_iW - kappa g(ai - d_iW) (vi.t_iW) t_iW. */
static void paper_wall(const sw_sf_params *p, const double ri[2], const double vi[2], double ai,
		       const double rw[2], double f[2])
{
	double diw = hypot(ri[0] - rw[0], ri[1] - rw[1]);
	double n1 = (ri[0] - rw[0]) / diw, n2 = (ri[1] - rw[1]) / diw, t1 = -n2, t2 = n1;
	double g = ai - diw > 0 ? ai - diw : 0;
	double radial = p->a * exp((ai - diw) / p->b) + p->k * g;
	double vt = vi[0] * t1 + vi[1] * t2;
	f[0] = radial * n1 - p->kappa * g * vt * t1;
	f[1] = radial * n2 - p->kappa * g * vt * t2;
}

START_TEST(force_matches_the_published_equations)
{
	sw_sf_params p = sw_default_sf_params();
	static const double cases[][10] = {
	    /* ri, vi, ai, rj, vj, aj */
	    {0.0, 0.0, 1.2, 0.1, 0.3, 0.6, 0.2, -1.0, 0.0, 0.25},  /* 8 cm apart */
	    {0.0, 0.0, 1.2, 0.1, 0.3, 0.45, 0.1, -1.0, 0.3, 0.25}, /* overlapping 0.09 m */
	    {1.0, -2.0, 0.0, 0.0, 0.28, 1.2, -1.6, 0.4, 0.9, 0.3}, /* 13 cm overlap, sliding */
	    {3.0, 1.0, -0.5, 0.8, 0.2, 2.7, 1.4, 0.0, 0.0, 0.2},   /* 10 cm apart */
	    {0.0, 0.0, 0.0, 0.0, 0.3, -0.2, 0.15, 0.7, -0.2, 0.3}, /* 35 cm overlap */
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		const double *q = cases[c];
		double ri[2] = {q[0], q[1]}, vi[2] = {q[2], q[3]}, rj[2] = {q[5], q[6]},
		       vj[2] = {q[7], q[8]};
		double x[2] = {ri[0] - rj[0], ri[1] - rj[1]},
		       du[2] = {vj[0] - vi[0], vj[1] - vi[1]};
		double e[2] = {1.0, 0.0}, f[2], fp[2];
		double gap = sw_sf_force(&p, x, du, q[4] + q[9], e, f);
		ck_assert_double_eq_tol(gap, hypot(x[0], x[1]) - q[4] - q[9], 1e-15);
		paper_pair(&p, ri, vi, q[4], rj, vj, q[9], fp);
		for (int i = 0; i < 2; i++)
			ck_assert_msg(fabs(f[i] - fp[i]) <= 1e-12 * fmax(1.0, hypot(fp[0], fp[1])),
				      "case %zu, component %d: %.15g against the paper's %.15g", c,
				      i, f[i], fp[i]);
		/* The wall form: the same agent against a wall point at rj (radius 0, static). */
		double dw[2] = {-vi[0], -vi[1]};
		sw_sf_force(&p, x, dw, q[4], e, f);
		paper_wall(&p, ri, vi, q[4], rj, fp);
		for (int i = 0; i < 2; i++)
			ck_assert_msg(fabs(f[i] - fp[i]) <= 1e-12 * fmax(1.0, hypot(fp[0], fp[1])),
				      "wall case %zu, component %d: %.15g against %.15g", c, i,
				      f[i], fp[i]);
	}
}
END_TEST

START_TEST(normal_force_is_minus_the_gradient_of_the_potential)
{
	sw_sf_params p = sw_default_sf_params();
	static const double cases[][3] = {
	    /* x0, x1, r */
	    {0.6, 0.1, 0.5}, {0.3, -0.3, 0.5},  {-0.1, 0.45, 0.6},
	    {1.5, 0.7, 0.4}, {0.05, 0.02, 0.4}, {-0.35, -0.2, 0.45},
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		double x[2] = {cases[c][0], cases[c][1]}, r = cases[c][2];
		double du[2] = {0.0, 0.0}, e[2] = {0.0, 1.0}, f[2];
		sw_sf_force(&p, x, du, r, e, f);
		for (int i = 0; i < 2; i++) {
			double h = 1e-7, xp[2] = {x[0], x[1]}, xm[2] = {x[0], x[1]};
			xp[i] += h;
			xm[i] -= h;
			double g =
			    (sw_sf_potential(&p, xp, r) - sw_sf_potential(&p, xm, r)) / (2 * h);
			ck_assert_msg(fabs(f[i] + g) <= 1e-6 * fmax(1.0, hypot(f[0], f[1])),
				      "case %zu, component %d: F = %.12g, -dU/dx = %.12g", c, i,
				      f[i], -g);
		}
	}
}
END_TEST

START_TEST(body_force_and_friction_act_only_on_overlap)
{
	sw_sf_params p = sw_default_sf_params();
	double e[2] = {1.0, 0.0}, du[2] = {0.0, 3.0}, f[2];
	/* 1 mm apart, sliding past at 3 m/s: the social term alone, along n = +x. */
	double x[2] = {0.501, 0.0};
	sw_sf_force(&p, x, du, 0.5, e, f);
	ck_assert(f[1] == 0.0);
	ck_assert_double_eq_tol(f[0], p.a * exp(-0.001 / p.b), 1e-9);
	/* 1 cm overlap: k * 0.01 more along n and kappa * 0.01 * (du.t) along t = (0, 1). */
	double xo[2] = {0.49, 0.0};
	sw_sf_force(&p, xo, du, 0.5, e, f);
	ck_assert_double_eq_tol(f[0], p.a * exp(0.01 / p.b) + p.k * 0.01, 1e-9);
	ck_assert_double_eq_tol(f[1], p.kappa * 0.01 * 3.0, 1e-9);
	/* Coincident centres: no direction, no force. */
	double x0[2] = {0.0, 0.0};
	sw_sf_force(&p, x0, du, 0.5, e, f);
	ck_assert(f[0] == 0.0 && f[1] == 0.0);
}
END_TEST

START_TEST(anisotropy_weights_the_social_term_by_direction)
{
	sw_sf_params p = sw_default_sf_params();
	p.lambda = 0.3;
	double du[2] = {0.0, 0.0}, e[2] = {1.0, 0.0}, f[2], s = p.a * exp(-0.2 / p.b);
	double ahead[2] = {-0.7, 0.0}, behind[2] = {0.7, 0.0}, side[2] = {0.0, 0.7};
	sw_sf_force(&p, ahead, du, 0.5, e, f); /* the percept straight ahead: w = 1 */
	ck_assert_double_eq_tol(f[0], -s, 1e-12);
	sw_sf_force(&p, behind, du, 0.5, e, f); /* behind: w = lambda */
	ck_assert_double_eq_tol(f[0], 0.3 * s, 1e-12);
	sw_sf_force(&p, side, du, 0.5, e, f); /* beside: w = (1 + lambda) / 2 */
	ck_assert_double_eq_tol(f[1], 0.65 * s, 1e-12);
	/* The body force is not weighted. */
	double over[2] = {0.4, 0.0};
	sw_sf_force(&p, over, du, 0.5, e, f);
	ck_assert_double_eq_tol(f[0], 0.3 * p.a * exp(0.1 / p.b) + p.k * 0.1, 1e-9);
}
END_TEST

START_TEST(acceleration_and_rhs_sum_driving_force_and_percepts)
{
	sw_sf_params p = sw_default_sf_params();
	/* An agent at the origin walking +x at 1 m/s toward (10, 0); agent 1 overlapping it ahead,
	 * walking -y; a wall point below; a disc out of range. */
	sw_percept o[3] = {{0.35, 0.1, hypot(0.35, 0.1), 0.2, hypot(0.35, 0.1) - 0.45, -2, 0, 0},
			   {0.0, -0.3, 0.3, 0.0, 0.05, 3, 0, 0},
			   {20.0, 0.0, 20.0, 1.0, 18.75, 0, 0, 0}};
	double agent_v[4] = {1.0, 0.0, 0.0, -0.8};
	sw_situation s = {0.0, 0.0, 0.25, 1, 10.0, 0.0, 3, o, agent_v, 0};
	double e[2] = {1.0, 0.0}, acc[2], f1[2], f2[2];
	sw_sf_accel(&p, &s, 1.0, e, acc);
	double x1[2] = {-0.35, -0.1}, du1[2] = {-1.0, -0.8}, x2[2] = {0.0, 0.3},
	       du2[2] = {-1.0, 0.0};
	sw_sf_force(&p, x1, du1, 0.45, e, f1);
	sw_sf_force(&p, x2, du2, 0.25, e, f2);
	ck_assert_double_eq_tol(acc[0], (1.34 - 1.0) / 0.5 + (f1[0] + f2[0]) / 80.0, 1e-12);
	ck_assert_double_eq_tol(acc[1], (f1[1] + f2[1]) / 80.0, 1e-12);
	/* The right-hand side: v' = a.e, phi' = a.e_perp / v, motion along the heading. */
	sw_steer_def def = sw_default_steer_def();
	def.law = SW_LAW_SF;
	double y[SW_STATE_DIM] = {0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0}, dy[SW_STATE_DIM];
	ck_assert_int_eq(sw_steer_rhs(&def, NULL, &s, y, dy, NULL), SW_SUCCESS);
	ck_assert_double_eq_tol(dy[SW_STATE_V], acc[0], 1e-12);
	ck_assert_double_eq_tol(dy[SW_STATE_PHI], acc[1], 1e-12);
	ck_assert(dy[SW_STATE_X] == 1.0 && dy[SW_STATE_Y] == 0.0);
	/* At rest with the force pointing backwards the agent is pushed backwards (signed speed),
	 * without turning; the algebraic pass leaves the signed speed alone. */
	y[SW_STATE_V] = 0.0;
	s.tx = -10.0;
	s.n_obs = 0;
	ck_assert_int_eq(sw_steer_rhs(&def, NULL, &s, y, dy, NULL), SW_SUCCESS);
	ck_assert_double_eq_tol(dy[SW_STATE_V], -1.34 / 0.5, 1e-12);
	ck_assert(dy[SW_STATE_PHI] == 0.0);
	y[SW_STATE_V] = -0.01;
	sw_steer_algebraic(&def, NULL, &s, y);
	ck_assert(y[SW_STATE_V] == -0.01);
	/* Moving backwards the position moves against the heading. */
	ck_assert_int_eq(sw_steer_rhs(&def, NULL, &s, y, dy, NULL), SW_SUCCESS);
	ck_assert(dy[SW_STATE_X] == -0.01 && dy[SW_STATE_Y] == 0.0);
}
END_TEST

static const char pair_xml[] =
    "<scenario name=\"pair\">\n"
    "  <run duration=\"20\" step=\"0.005\" sample=\"0.5\"/>\n"
    "  <world>\n"
    "    <target name=\"tl\" x=\"-5\" y=\"0\" radius=\"0.2\"/>\n"
    "    <target name=\"tr\" x=\"5\" y=\"0.1\" radius=\"0.2\"/>\n"
    "  </world>\n"
    "  <agent name=\"a\" x=\"-5\" y=\"0\" heading=\"0\" speed=\"1.34\" radius=\"0.25\" "
    "target=\"tr\"><sf/></agent>\n"
    "  <agent name=\"b\" x=\"5\" y=\"0.1\" heading=\"180deg\" speed=\"1.34\" radius=\"0.25\" "
    "target=\"tl\"><sf %s/></agent>\n"
    "</scenario>\n";

/* The pair scenario with extra attributes on b's <sf>; NULL and the diagnostic when refused. */
static sw_model *load_pair(const char *attrs, sw_diag *d)
{
	return test_load_filled(pair_xml, attrs, "pair.xml", d);
}

/* Two agents meeting almost head on (0.1 m off axis): the short-ranged social force (B = 8 cm)
 * barely deflects them; they meet, press against each other and slide past (about 10.4 s for
 * 10 m, free walking 7.5 s; a Cartesian Euler transcription of the same equations at 0.002 s
 * takes 9.9 s), touching by at most a few millimetres. */
START_TEST(head_on_pair_passes_with_a_shallow_contact)
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
		ck_assert(mt->t_reached < 1.5 * 10.0 / 1.34);
		ck_assert_msg(mt->min_agent_clearance > -0.01, "agent %d: clearance %g", i,
			      mt->min_agent_clearance);
	}
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

START_TEST(attributes_are_read_and_bad_values_refused)
{
	sw_diag d;
	sw_model *m =
	    load_pair("tau=\"0.4\" v0=\"1.1\" a=\"1500\" b=\"0.1\" k=\"1e5\" kappa=\"2e5\" "
		      "mass=\"70\" lambda=\"0.5\" range=\"2\" v-min=\"0.2\"",
		      &d);
	ck_assert_ptr_nonnull(m);
	const sw_sf_params *p = &m->agents[1].steer.sf;
	ck_assert_int_eq(m->agents[1].steer.law, SW_LAW_SF);
	ck_assert(p->tau == 0.4 && p->v0 == 1.1 && p->a == 1500 && p->b == 0.1 && p->k == 1e5 &&
		  p->kappa == 2e5 && p->mass == 70 && p->lambda == 0.5 && p->range == 2 &&
		  p->v_min == 0.2);
	sw_model_free(m);
	static const char *const bad[][2] = {
	    {"tau=\"0\"", "sf tau"},         {"v0=\"40\"", "sf v0"},
	    {"v0=\"-1\"", "sf v0"},          {"a=\"0\"", "sf a"},
	    {"b=\"-0.08\"", "sf b"},         {"k=\"0\"", "sf k"},
	    {"kappa=\"-1\"", "sf kappa"},    {"mass=\"0\"", "sf mass"},
	    {"lambda=\"1.5\"", "sf lambda"}, {"range=\"0\"", "sf range"},
	    {"v-min=\"0\"", "sf v-min"},     {"xi=\"1\"", "unknown attribute xi"},
	    {"tau=\"fast\"", "tau"},
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		ck_assert_ptr_null(load_pair(bad[k][0], &d));
		char msg[800];
		sw_diag_format(&d, 0, msg, sizeof msg);
		ck_assert_msg(strstr(msg, bad[k][1]) && strstr(msg, "pair.xml:8:"), "%s: got '%s'",
			      bad[k][0], msg);
	}
	/* An agent radius of 0 is refused for every law. */
	char buf[2048];
	snprintf(buf, sizeof buf, pair_xml, "");
	char *r = strstr(buf, "radius=\"0.25\" target=\"tl\"");
	ck_assert_ptr_nonnull(r);
	memcpy(r, "radius=\"0.00\"", 13);
	ck_assert_int_ne(sw_scenario_load_memory(buf, strlen(buf), "pair.xml", &m, &d), SW_SUCCESS);
}
END_TEST

START_TEST(export_refuses_the_law_with_its_line)
{
	sw_diag d;
	test_export_refuses(load_pair("", &d), "pair.xml:7", "social force law <sf>");
}
END_TEST

/* A wall across the way to a target behind it: the agent comes to rest where the wall's social
 * force balances the driving force, A exp(-c/B) = m v0 / tau, i.e. at the clearance
 * c = B ln(A tau / (m v0)) = 0.179 m with the defaults.  A pillar in another agent's path
 * (0.1 m off its axis) is passed and its target reached. */
static const char obstacles_xml[] =
    "<scenario name=\"obs\">\n"
    "  <run duration=\"20\" step=\"0.005\"/>\n"
    "  <world>\n"
    "    <disc name=\"pillar\" x=\"0\" y=\"10.1\" radius=\"0.5\"/>\n"
    "    <segment name=\"wall\" x1=\"6\" y1=\"-2\" x2=\"6\" y2=\"2\"/>\n"
    "    <target name=\"t\" x=\"5\" y=\"10\" radius=\"0.2\"/>\n"
    "    <target name=\"u\" x=\"10\" y=\"0\" radius=\"0.2\"/>\n"
    "  </world>\n"
    "  <agent name=\"a\" x=\"-5\" y=\"10\" heading=\"0\" speed=\"1.34\" radius=\"0.25\" "
    "target=\"t\"><sf/></agent>\n"
    "  <agent name=\"b\" x=\"3\" y=\"0\" heading=\"0\" speed=\"1.34\" radius=\"0.25\" "
    "target=\"u\"><sf/></agent>\n"
    "</scenario>\n";

START_TEST(a_wall_is_approached_to_the_force_balance_and_a_pillar_passed)
{
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(
	    sw_scenario_load_memory(obstacles_xml, strlen(obstacles_xml), "obs.xml", &m, &d),
	    SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, &d), SW_SUCCESS);
	const sw_agent_metrics *a = sw_world_metrics(w, 0), *b = sw_world_metrics(w, 1);
	ck_assert(a->reached);
	ck_assert_msg(a->min_clearance > -0.05, "pillar clearance %g", a->min_clearance);
	ck_assert(!b->reached);
	sw_sf_params p = sw_default_sf_params();
	double c = p.b * log(p.a * p.tau / (p.mass * p.v0));
	sw_agent_state s;
	sw_world_agent(w, 1, &s);
	/* At rest (after the approach the speed relaxes to 0) at the balance point. */
	ck_assert_msg(fabs(6.0 - 0.25 - s.y[SW_STATE_X] - c) < 1e-3, "clearance %g, balance %g",
		      6.0 - 0.25 - s.y[SW_STATE_X], c);
	ck_assert(s.y[SW_STATE_V] < 1e-3);
	ck_assert_msg(b->min_clearance > 0.0, "wall clearance %g", b->min_clearance);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* The ring of sf agents (v0 = 4 m/s, a panic: the discs overlap at the centre, so the body force
 * and friction act) on 1 and 3 threads. */
START_TEST(one_and_three_threads_give_identical_bits)
{
	size_t n1, n3;
	double w1, w3;
	double *a = test_ring_run("<sf v0=\"4\"/>", 1.6, "duration=\"4\" step=\"0.005\"", 1, &n1, &w1);
	double *b = test_ring_run("<sf v0=\"4\"/>", 1.6, "duration=\"4\" step=\"0.005\"", 3, &n3, &w3);
	ck_assert_msg(w1 < 0.0, "the ring should crowd its centre (worst clearance %g)", w1);
	ck_assert(n1 == n3 && memcmp(a, b, n1) == 0);
	free(a);
	free(b);
}
END_TEST

Suite *sf_suite(void)
{
	Suite *s = suite_create("sf");
	TCase *tc = tcase_create("sf");
	tcase_add_test(tc, defaults_are_the_published_parameters);
	tcase_add_test(tc, force_matches_the_published_equations);
	tcase_add_test(tc, normal_force_is_minus_the_gradient_of_the_potential);
	tcase_add_test(tc, body_force_and_friction_act_only_on_overlap);
	tcase_add_test(tc, anisotropy_weights_the_social_term_by_direction);
	tcase_add_test(tc, acceleration_and_rhs_sum_driving_force_and_percepts);
	tcase_add_test(tc, head_on_pair_passes_with_a_shallow_contact);
	tcase_add_test(tc, attributes_are_read_and_bad_values_refused);
	tcase_add_test(tc, export_refuses_the_law_with_its_line);
	tcase_add_test(tc, a_wall_is_approached_to_the_force_balance_and_a_pillar_passed);
	tcase_add_test(tc, one_and_three_threads_give_identical_bits);
	suite_add_tcase(s, tc);
	return s;
}
