/* tests/test_io.c - the scenario reader: every field of a full file lands in the model, angles
 * and numbers parse as documented, and every error path (one fixture each in tests/data/) is
 * reported with its line, a sentence saying what was expected, and no model. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "io/io_internal.h"
#include "swerve/io.h"
#include "tests.h"

static const double PI = 3.14159265358979323846;

/* Loads tests/data/name; *diag receives the diagnostics. */
static int load(const char *name, sw_model **m, sw_diag *diag)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", SW_TEST_DATA, name);
	sw_diag_init(diag);
	return sw_scenario_load(path, m, diag);
}

/* Prints the diagnostics (shown when a test fails). */
static void dump(const sw_diag *d)
{
	for (int i = 0; i < d->count; i++) {
		char buf[SW_DIAG_MSG + SW_DIAG_FILE + 64];
		sw_diag_format(d, i, buf, sizeof buf);
		fprintf(stderr, "  %s\n", buf);
	}
}

/* Returns 1 when an error at line (any line if < 0) contains phrase. */
static int has_error(const sw_diag *d, int line, const char *phrase)
{
	for (int i = 0; i < d->count; i++)
		if (d->entry[i].severity == SW_SEV_ERROR && (line < 0 || d->entry[i].line == line) &&
		    strstr(d->entry[i].message, phrase))
			return 1;
	return 0;
}

/* Loads a bad fixture and checks status, no model, the file name, the line and a phrase. */
static void expect_error(const char *name, int status, int line, const char *phrase)
{
	sw_model *m = (sw_model *)&m; /* must be reset to NULL */
	sw_diag d;
	int st = load(name, &m, &d);
	if (!has_error(&d, line, phrase))
		dump(&d);
	ck_assert_int_eq(st, status);
	ck_assert_ptr_null(m);
	ck_assert_int_ge(d.errors, 1);
	ck_assert_msg(has_error(&d, line, phrase), "%s: no error at line %d containing '%s'", name,
		      line, phrase);
	ck_assert_msg(strstr(d.entry[0].file, name) != NULL, "diagnostic names file %s, not %s",
		      d.entry[0].file, name);
}

#define EPS 1e-12
#define ck_near(a, b) ck_assert_double_eq_tol((a), (b), EPS)

static void check_glm(const sw_glm_params *g, const sw_glm_params *e)
{
	ck_near(g->a, e->a);
	ck_near(g->d0, e->d0);
	ck_near(g->delta, e->delta);
	ck_near(g->margin, e->margin);
	ck_near(g->r_floor, e->r_floor);
	ck_near(g->wall_near, e->wall_near);
	ck_near(g->a1_scale, e->a1_scale);
	ck_near(g->g21, e->g21);
	ck_near(g->c1, e->c1);
	ck_near(g->c2, e->c2);
	ck_assert_int_eq(g->weights, e->weights);
	ck_near(g->eps, e->eps);
	ck_near(g->w_floor, e->w_floor);
	ck_near(g->w_restart, e->w_restart);
	ck_assert_int_eq(g->speed, e->speed);
	ck_near(g->v_max, e->v_max);
	ck_near(g->d1, e->d1);
	ck_near(g->t2c, e->t2c);
	ck_assert_int_eq(g->arrive, e->arrive);
	ck_near(g->sigma_phi, e->sigma_phi);
}

static void check_personality(const sw_personality *p, const sw_personality *e)
{
	ck_assert_int_eq(p->has_agility, e->has_agility);
	ck_near(p->agility, e->agility);
	ck_near(p->lambda_k_min, e->lambda_k_min);
	ck_near(p->lambda_k_max, e->lambda_k_max);
	ck_assert_int_eq(p->has_mass, e->has_mass);
	ck_near(p->mass, e->mass);
	ck_near(p->lambda_m_min, e->lambda_m_min);
	ck_near(p->lambda_m_max, e->lambda_m_max);
	ck_assert_int_eq(p->has_courage, e->has_courage);
	ck_near(p->courage, e->courage);
	ck_near(p->d0_floor, e->d0_floor);
}

static void check_point(const sw_model *m, int i, double x, double y)
{
	ck_assert_int_lt(i, m->n_points);
	ck_near(m->points[i].x, x);
	ck_near(m->points[i].y, y);
}

/* --- valid files ------------------------------------------------------------------------- */

START_TEST(test_full_every_field_lands_in_the_model)
{
	sw_model *m = NULL;
	sw_diag d;
	int st = load("full.xml", &m, &d);
	if (st != SW_SUCCESS)
		dump(&d);
	ck_assert_int_eq(st, SW_SUCCESS);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(d.errors, 0);
	ck_assert(m->finalized);
	ck_assert_str_eq(m->name, "full");
	ck_assert_str_eq(m->file, SW_TEST_DATA "/full.xml");

	/* <run> */
	ck_near(m->run.duration, 12.5);
	ck_near(m->run.step, 0.125);
	ck_near(m->run.sample, 0.5);
	ck_assert(m->run.seed == UINT64_MAX);
	ck_assert_str_eq(m->run.integrator, "rkf45");
	ck_assert_int_eq(m->run.fixed, 1);
	ck_assert_int_eq(m->run.substeps, 4);
	ck_near(m->run.rtol, 1e-5);
	ck_near(m->run.atol, 1e-8);
	ck_near(m->run.event_tol, 1e-7);
	ck_assert_int_eq(m->run.agents_perceive, 0);

	/* targets */
	ck_assert_int_eq(m->n_targets, 2);
	const sw_target *t = &m->targets[0];
	ck_assert_str_eq(t->name, "goal");
	ck_assert_int_eq(t->line, 8);
	ck_near(t->position.x, 20);
	ck_near(t->position.y, 1.5);
	ck_near(t->radius, 0.75);
	ck_assert_int_eq(t->motion.kind, SW_MOTION_NONE);
	t = &m->targets[1];
	ck_assert_str_eq(t->name, "bus");
	ck_near(t->position.x, 30);
	ck_near(t->position.y, -2);
	ck_near(t->radius, 1.25);
	ck_assert_int_eq(t->motion.kind, SW_MOTION_LINEAR);
	ck_near(t->motion.velocity.x, -0.5);
	ck_near(t->motion.velocity.y, 0.25);

	/* obstacles, in document order */
	ck_assert_int_eq(m->n_obstacles, 5);
	const sw_obstacle *o = &m->obstacles[0];
	ck_assert_str_eq(o->name, "pillar");
	ck_assert_int_eq(o->shape, SW_SHAPE_DISC);
	ck_assert_int_eq(o->line, 10);
	ck_near(o->center.x, 8);
	ck_near(o->center.y, 0.5);
	ck_near(o->radius, 0.6);
	ck_assert_int_eq(o->motion.kind, SW_MOTION_NONE);
	o = &m->obstacles[1];
	ck_assert_str_eq(o->name, "obstacle1"); /* unnamed: automatic name */
	ck_assert_int_eq(o->shape, SW_SHAPE_DISC);
	ck_near(o->center.x, 12);
	ck_near(o->center.y, -3);
	ck_near(o->radius, 0.4);
	ck_assert_int_eq(o->motion.kind, SW_MOTION_WAYPOINTS);
	ck_near(o->motion.speed, 0.8);
	ck_assert_int_eq(o->motion.count, 3);
	check_point(m, o->motion.first + 0, 12, -3);
	check_point(m, o->motion.first + 1, 12, 3);
	check_point(m, o->motion.first + 2, 14, 3);
	o = &m->obstacles[2];
	ck_assert_str_eq(o->name, "wall");
	ck_assert_int_eq(o->shape, SW_SHAPE_SEGMENT);
	ck_assert_int_eq(o->count, 2);
	check_point(m, o->first, 5, 4);
	check_point(m, o->first + 1, 15, 4.5);
	o = &m->obstacles[3];
	ck_assert_str_eq(o->name, "box");
	ck_assert_int_eq(o->shape, SW_SHAPE_POLYGON);
	ck_assert_int_eq(o->closed, 1);
	ck_assert_int_eq(o->count, 4);
	check_point(m, o->first + 0, 16, -6);
	check_point(m, o->first + 1, 18, -6);
	check_point(m, o->first + 2, 18, -4);
	check_point(m, o->first + 3, 16, -4);
	ck_assert_int_eq(o->motion.kind, SW_MOTION_LINEAR);
	ck_near(o->motion.velocity.x, 0);
	ck_near(o->motion.velocity.y, 0.1);
	o = &m->obstacles[4];
	ck_assert_str_eq(o->name, "fence");
	ck_assert_int_eq(o->closed, 0);
	ck_assert_int_eq(o->count, 3);
	check_point(m, o->first + 2, 6, -7);

	/* agent "ann": GLM with every parameter, full personality (courage applied by finalize) */
	ck_assert_int_eq(m->n_agents, 4);
	const sw_agent *a = &m->agents[0];
	ck_assert_str_eq(a->name, "ann");
	ck_assert_int_eq(a->line, 22);
	ck_near(a->position.x, 0);
	ck_near(a->position.y, 0);
	ck_near(a->heading, 15.0 * PI / 180.0);
	ck_near(a->speed, 0.5);
	ck_near(a->radius, 0.3);
	ck_near(a->perception, 9);
	ck_assert_int_eq(a->target, 0);
	ck_assert_int_eq(a->stop_at_target, 0);
	ck_assert_int_eq(a->steer.law, SW_LAW_GLM);
	sw_personality pe = sw_default_personality();
	pe.has_agility = pe.has_mass = pe.has_courage = 1;
	pe.agility = 0.7;
	pe.mass = 0.2;
	pe.courage = 0.9;
	pe.lambda_k_min = 0.75;
	pe.lambda_k_max = 15;
	pe.lambda_m_min = 0.6;
	pe.lambda_m_max = 12;
	pe.d0_floor = 0.1;
	check_personality(&a->personality, &pe);
	sw_glm_params ge = {
		.a = 1.5, .d0 = 1.25, .delta = PI / 4, .margin = 0.1, .r_floor = 0.002,
		.wall_near = 2, .a1_scale = 0.3, .g21 = 0.07, .c1 = 3, .c2 = 4,
		.weights = SW_WEIGHTS_DYNAMIC, .eps = 0.1, .w_floor = 0.005, .w_restart = 0.02,
		.speed = SW_SPEED_CONSTANT, .v_max = 1.4, .d1 = 0.6, .t2c = 1.5, .arrive = 1,
		.sigma_phi = 0.01};
	sw_glm_params gc = sw_glm_with_personality(&ge, &pe);
	check_glm(&a->steer.glm, &gc);

	/* agent "bob": FW, personality with mass only, defaults elsewhere */
	a = &m->agents[1];
	ck_assert_str_eq(a->name, "bob");
	ck_near(a->heading, -0.5);
	ck_near(a->position.y, -2);
	ck_near(a->speed, 0);
	ck_near(a->radius, sw_default_agent_def().radius);
	ck_assert(isinf(a->perception));
	ck_assert_int_eq(a->target, 1);
	ck_assert_int_eq(a->stop_at_target, 1);
	ck_assert_int_eq(a->steer.law, SW_LAW_FW);
	ck_near(a->steer.fw.b, 3);
	ck_near(a->steer.fw.kg, 7);
	ck_near(a->steer.fw.c1, 0.5);
	ck_near(a->steer.fw.c2, 0.3);
	ck_near(a->steer.fw.ko, 150);
	ck_near(a->steer.fw.c3, 6);
	ck_near(a->steer.fw.c4, 0.7);
	ck_near(a->steer.fw.speed, 1.1);
	pe = sw_default_personality();
	pe.has_mass = 1;
	pe.mass = 0.4;
	check_personality(&a->personality, &pe);

	/* agent "cy": potential field, no target (closest) */
	a = &m->agents[2];
	ck_assert_str_eq(a->name, "cy");
	ck_near(a->heading, 0.3);
	ck_near(a->radius, 0.2);
	ck_assert_int_eq(a->target, -1);
	ck_assert_int_eq(a->steer.law, SW_LAW_PF);
	ck_near(a->steer.pf.kp, 2);
	ck_near(a->steer.pf.eta, 0.5);
	ck_near(a->steer.pf.rho0, 1.5);
	ck_near(a->steer.pf.r_floor, 0.01);
	ck_near(a->steer.pf.speed, 0.9);

	/* the unnamed agent: every default */
	a = &m->agents[3];
	ck_assert_str_eq(a->name, "agent3");
	ck_assert_int_eq(a->steer.law, SW_LAW_GLM);
	sw_glm_params gd = sw_default_glm_params();
	check_glm(&a->steer.glm, &gd);
	pe = sw_default_personality();
	check_personality(&a->personality, &pe);
	sw_model_free(m);
}
END_TEST

START_TEST(test_minimal_takes_every_default)
{
	sw_model *m = NULL;
	sw_diag d;
	ck_assert_int_eq(load("minimal.xml", &m, &d), SW_SUCCESS);
	ck_assert_ptr_nonnull(m);
	sw_run_def r = sw_default_run_def();
	ck_near(m->run.duration, r.duration);
	ck_near(m->run.step, r.step);
	ck_near(m->run.sample, r.step); /* sample defaults to step */
	ck_assert(m->run.seed == r.seed);
	ck_assert_str_eq(m->run.integrator, r.integrator);
	ck_assert_int_eq(m->run.fixed, r.fixed);
	ck_assert_int_eq(m->run.substeps, r.substeps);
	ck_near(m->run.rtol, r.rtol);
	ck_near(m->run.atol, r.atol);
	ck_near(m->run.event_tol, r.event_tol);
	ck_assert_int_eq(m->run.agents_perceive, r.agents_perceive);
	ck_assert_int_eq(m->n_targets, 0);
	ck_assert_int_eq(m->n_obstacles, 0);
	ck_assert_int_eq(m->n_agents, 1);
	sw_agent_def ad = sw_default_agent_def();
	const sw_agent *a = &m->agents[0];
	ck_assert_int_eq(a->line, 4);
	ck_near(a->position.x, 1);
	ck_near(a->position.y, 2);
	ck_near(a->heading, ad.heading);
	ck_near(a->speed, ad.speed);
	ck_near(a->radius, ad.radius);
	ck_assert(isinf(a->perception) && isinf(ad.perception));
	ck_assert_int_eq(a->target, -1);
	ck_assert_int_eq(a->stop_at_target, ad.stop_at_target);
	ck_assert_int_eq(a->steer.law, ad.steer.law);
	check_glm(&a->steer.glm, &ad.steer.glm);
	check_personality(&a->personality, &ad.personality);
	sw_model_free(m);
}
END_TEST

START_TEST(test_barrier_example_loads)
{
	sw_model *m = NULL;
	sw_diag d;
	int st = load("barrier.xml", &m, &d);
	if (st != SW_SUCCESS)
		dump(&d);
	ck_assert_int_eq(st, SW_SUCCESS);
	ck_assert_str_eq(m->name, "barrier");
	ck_assert_int_eq(m->n_agents, 3);
	ck_assert_int_eq(m->n_obstacles, 5);
	ck_assert_int_eq(m->agents[2].steer.law, SW_LAW_FW);
	ck_near(m->agents[1].heading, 10.0 * PI / 180.0);
	ck_assert_int_eq(m->agents[1].personality.has_courage, 1);
	sw_model_free(m);
}
END_TEST

START_TEST(test_memory_load_uses_name_in_diagnostics)
{
	static const char good[] = "<scenario name='mem'>\n"
				   "  <agent x=' 1.5 ' y='-2e0' heading='90 deg'/>\n"
				   "</scenario>\n";
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory(good, strlen(good), "inline", &m, &d), SW_SUCCESS);
	ck_assert_str_eq(m->name, "mem");
	ck_near(m->agents[0].position.x, 1.5);
	ck_near(m->agents[0].position.y, -2);
	ck_assert(m->agents[0].heading == PI / 2); /* exact: 90 / 180 * pi */
	sw_model_free(m);

	static const char bad[] = "<scenario>\n  <agent x='0'/>\n</scenario>\n";
	m = (sw_model *)&m;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory(bad, strlen(bad), "inline", &m, &d), SW_EINPUT);
	ck_assert_ptr_null(m);
	ck_assert(has_error(&d, 2, "needs attribute y"));
	ck_assert_str_eq(d.entry[0].file, "inline");

	m = (sw_model *)&m;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory("", 0, "empty", &m, &d), SW_EINPUT);
	ck_assert_ptr_null(m);
	ck_assert(has_error(&d, 0, "empty"));
	ck_assert_int_eq(sw_scenario_load_memory(good, strlen(good), "x", NULL, &d), SW_EUSAGE);
}
END_TEST

START_TEST(test_schema_is_compiled_in)
{
	const char *s = sw_scenario_schema();
	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(strstr(s, "<grammar"));
	ck_assert_ptr_nonnull(strstr(s, "name=\"personality\""));
}
END_TEST

/* --- numbers and angles ------------------------------------------------------------------ */

START_TEST(test_angles_in_degrees_and_radians)
{
	double v = 0;
	ck_assert_int_eq(sw_parse_angle("15deg", &v), SW_SUCCESS);
	ck_near(v, 15.0 * PI / 180.0);
	ck_assert_int_eq(sw_parse_angle("-0.5rad", &v), SW_SUCCESS);
	ck_near(v, -0.5);
	ck_assert_int_eq(sw_parse_angle("0.3", &v), SW_SUCCESS);
	ck_near(v, 0.3);
	ck_assert_int_eq(sw_parse_angle(" 180 deg ", &v), SW_SUCCESS);
	ck_assert(v == PI);
	ck_assert_int_eq(sw_parse_angle("-90deg", &v), SW_SUCCESS);
	ck_assert(v == -PI / 2);
	ck_assert_int_eq(sw_parse_angle("+.5e1deg", &v), SW_SUCCESS);
	ck_near(v, 5.0 * PI / 180.0);
	ck_assert_int_eq(sw_parse_angle("2.", &v), SW_SUCCESS);
	ck_near(v, 2.0);
	static const char *bad[] = {"",    "deg",     "15degs", "15 degrees", "pi", "1,5",
				    "0x10", "INF",     "NaN",    "inf",        "1e999deg", "1e",
				    ".",   "15deg5", "- 3",    "3rad deg",   NULL};
	for (int i = 0; bad[i]; i++) {
		v = 42;
		ck_assert_msg(sw_parse_angle(bad[i], &v) == SW_EINPUT, "'%s' was accepted", bad[i]);
		ck_assert_msg(v == 42, "'%s' changed the output", bad[i]);
	}
	ck_assert_int_eq(sw_parse_angle(NULL, &v), SW_EINPUT);
}
END_TEST

START_TEST(test_numbers_are_decimal_and_finite)
{
	double v = 0;
	ck_assert_int_eq(sw__parse_number(" -1.25e2 ", &v), SW__NUM_OK);
	ck_near(v, -125);
	ck_assert_int_eq(sw__parse_number(".5", &v), SW__NUM_OK);
	ck_near(v, 0.5);
	ck_assert_int_eq(sw__parse_number("INF", &v), SW__NUM_NONFINITE);
	ck_assert_int_eq(sw__parse_number("-INF", &v), SW__NUM_NONFINITE);
	ck_assert_int_eq(sw__parse_number("NaN", &v), SW__NUM_NONFINITE);
	ck_assert_int_eq(sw__parse_number("1e400", &v), SW__NUM_NONFINITE);
	ck_assert_int_eq(sw__parse_number("0x1p3", &v), SW__NUM_SYNTAX);
	ck_assert_int_eq(sw__parse_number("nan", &v), SW__NUM_SYNTAX);
	ck_assert_int_eq(sw__parse_number("1.5m", &v), SW__NUM_SYNTAX);
	ck_assert_int_eq(sw__parse_number("", &v), SW__NUM_SYNTAX);
	ck_near(v, 0.5); /* untouched by failures */
}
END_TEST

/* --- error paths, one fixture each ------------------------------------------------------- */

START_TEST(test_malformed_xml)
{
	expect_error("bad_malformed.xml", SW_EINPUT, 6, "malformed XML: Opening and ending tag mismatch");
}
END_TEST

START_TEST(test_unknown_element)
{
	expect_error("bad_unknown_element.xml", SW_EINPUT, 6, "unknown element <wall> inside <world>; expected <target>, <disc>, <segment>, <polygon>, <region>, <signal>, <navfield>, <vectorfield> or <routes>");
}
END_TEST

START_TEST(test_unknown_attribute)
{
	expect_error("bad_unknown_attribute.xml", SW_EINPUT, 7, "unknown attribute colour on <agent>; expected name, x, y");
}
END_TEST

START_TEST(test_unknown_law)
{
	expect_error("bad_unknown_law.xml", SW_EINPUT, 8, "unknown element <rvo> inside <agent>");
	expect_error("bad_unknown_law.xml", SW_EINPUT, 8, "<glm>, <fw>, <potential> or <wall>");
}
END_TEST

START_TEST(test_unknown_target_name)
{
	expect_error("bad_unknown_target.xml", SW_EINPUT, 7, "unknown target 'gaol'");
}
END_TEST

START_TEST(test_negative_radius)
{
	expect_error("bad_negative_radius.xml", SW_EINPUT, 6, "radius = -0.5");
}
END_TEST

START_TEST(test_nan_and_inf_rejected)
{
	expect_error("bad_nonfinite.xml", SW_EINPUT, 6, "attribute radius of <disc>: 'NaN' is not a finite number");
	expect_error("bad_nonfinite.xml", SW_EINPUT, 8, "attribute speed of <agent>: '-INF' is not a finite number");
}
END_TEST

START_TEST(test_bad_angle_text)
{
	expect_error("bad_angle.xml", SW_EINPUT, 4, "'15degs' is not an angle");
	expect_error("bad_angle.xml", SW_EINPUT, 5, "attribute delta of <glm>: 'pi/4' is not an angle");
}
END_TEST

START_TEST(test_agent_inside_obstacle)
{
	expect_error("bad_agent_in_obstacle.xml", SW_EINPUT, 9, "agent 'stuck' starts overlapping obstacle 'room'");
}
END_TEST

START_TEST(test_billion_laughs_refused_at_doctype)
{
	expect_error("bad_dtd.xml", SW_EINPUT, 3, "document type declarations (<!DOCTYPE ...>) are not allowed");
	sw_model *m = NULL;
	sw_diag d;
	load("bad_dtd.xml", &m, &d);
	ck_assert_int_eq(d.count, 1); /* one clear message, no parser noise after the stop */
}
END_TEST

START_TEST(test_external_entity_and_dtd_refused)
{
	expect_error("bad_external_entity.xml", SW_EINPUT, 4, "<!DOCTYPE ...>) are not allowed");
	expect_error("bad_external_dtd.xml", SW_EINPUT, 2, "<!DOCTYPE ...>) are not allowed");
}
END_TEST

START_TEST(test_schema_order_error_has_line_and_hint)
{
	expect_error("bad_order.xml", SW_EINPUT, 8, "Did not expect element run there (the children of <scenario> come in the order");
}
END_TEST

START_TEST(test_missing_file)
{
	expect_error("does-not-exist.xml", SW_EIO, 0, "cannot open " SW_TEST_DATA "/does-not-exist.xml: No such file");
}
END_TEST

START_TEST(test_every_error_is_reported)
{
	/* Five independent problems on five lines: all reported, sorted by line. */
	static const char doc[] = "<scenario>\n"
				  "  <run duration='NaN' integrator='rk5'/>\n"
				  "  <world><disk x='1' y='1'/></world>\n"
				  "  <agent x='0' y='0' heading='north'/>\n"
				  "  <agent x='1' y='1'><glm bogus='1'/></agent>\n"
				  "  <agent x='2' y='2'><personality courage='brave'/></agent>\n"
				  "</scenario>\n";
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory(doc, strlen(doc), "many", &m, &d), SW_EINPUT);
	ck_assert_ptr_null(m);
	ck_assert(has_error(&d, 2, "'NaN' is not a finite number"));
	ck_assert(has_error(&d, 2, "'rk5' is not allowed; expected euler, rk2"));
	ck_assert(has_error(&d, 3, "unknown element <disk>"));
	ck_assert(has_error(&d, 4, "'north' is not an angle"));
	ck_assert(has_error(&d, 5, "unknown attribute bogus on <glm>"));
	ck_assert(has_error(&d, 6, "'brave' is not a number"));
	for (int i = 1; i < d.count; i++)
		ck_assert_int_le(d.entry[i - 1].line, d.entry[i].line);
}
END_TEST

/* --- threads ----------------------------------------------------------------------------- */

static void *load_repeatedly(void *arg)
{
	int *ok = arg;
	for (int i = 0; i < 5; i++) {
		sw_model *m = NULL;
		sw_diag d;
		if (load("full.xml", &m, &d) == SW_SUCCESS && m && m->n_agents == 4)
			(*ok)++;
		sw_model_free(m);
		if (load("bad_unknown_attribute.xml", &m, &d) == SW_EINPUT && !m &&
		    has_error(&d, 7, "colour"))
			(*ok)++;
	}
	return NULL;
}

START_TEST(test_concurrent_loads)
{
	enum { N = 4 };
	pthread_t th[N];
	int ok[N] = {0};
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, load_repeatedly, &ok[i]), 0);
	for (int i = 0; i < N; i++) {
		pthread_join(th[i], NULL);
		ck_assert_int_eq(ok[i], 10);
	}
}
END_TEST

Suite *io_suite(void)
{
	Suite *s = suite_create("io");
	TCase *tc = tcase_create("scenario");
	tcase_add_test(tc, test_full_every_field_lands_in_the_model);
	tcase_add_test(tc, test_minimal_takes_every_default);
	tcase_add_test(tc, test_barrier_example_loads);
	tcase_add_test(tc, test_memory_load_uses_name_in_diagnostics);
	tcase_add_test(tc, test_schema_is_compiled_in);
	tcase_add_test(tc, test_angles_in_degrees_and_radians);
	tcase_add_test(tc, test_numbers_are_decimal_and_finite);
	tcase_add_test(tc, test_malformed_xml);
	tcase_add_test(tc, test_unknown_element);
	tcase_add_test(tc, test_unknown_attribute);
	tcase_add_test(tc, test_unknown_law);
	tcase_add_test(tc, test_unknown_target_name);
	tcase_add_test(tc, test_negative_radius);
	tcase_add_test(tc, test_nan_and_inf_rejected);
	tcase_add_test(tc, test_bad_angle_text);
	tcase_add_test(tc, test_agent_inside_obstacle);
	tcase_add_test(tc, test_billion_laughs_refused_at_doctype);
	tcase_add_test(tc, test_external_entity_and_dtd_refused);
	tcase_add_test(tc, test_schema_order_error_has_line_and_hint);
	tcase_add_test(tc, test_missing_file);
	tcase_add_test(tc, test_every_error_is_reported);
	tcase_add_test(tc, test_concurrent_loads);
	suite_add_tcase(s, tc);
	return s;
}
