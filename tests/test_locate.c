/* tests/test_locate.c - the one event locator (sim/locate.c) shared by guards and arrival: it
 * finds a crossing to run.event_tol on the right side, and a bracket it cannot shrink is an
 * error, never a silent accept. */
#include <math.h>
#include <string.h>

#include <check.h>

#include "sim/sim_internal.h"
#include "swerve/io.h"
#include "swerve/sim.h"
#include "tests.h"

/* A margin crossing zero at t = 1.25 + a tiny offset (not a step end, not a nice double). */
static double linear(struct sw_world *w, int u, double t0, double t, const double *y,
		     const void *arg)
{
	(void)w, (void)u, (void)t0, (void)y;
	return t - *(const double *)arg;
}

/* A margin whose sign never tells: the bracket cannot even be set. */
static double undefined(struct sw_world *w, int u, double t0, double t, const double *y,
			const void *arg)
{
	(void)w, (void)u, (void)t0, (void)t, (void)y, (void)arg;
	return NAN;
}

static sw_world *demo_world(sw_model **m)
{
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load("models/demo.xml", m, &d), SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(*m, &w, &d), SW_SUCCESS);
	return w;
}

START_TEST(locates_to_the_tolerance_on_the_true_side)
{
	sw_model *m = NULL;
	sw_world *w = demo_world(&m);
	const double cross = 1.25 + 1e-7 * M_PI;
	double y0[64];
	memcpy(y0, w->y + w->off[0], (size_t)w->dim[0] * sizeof *y0);
	for (int k = 0; k < 3; k++) {
		double tol = k == 0 ? 1e-9 : k == 1 ? 1e-4 : 1e-2;
		m->run.event_tol = tol;
		double ts = NAN;
		ck_assert_int_eq(sw__locate(w, 0, 1.0, 1.5, y0, linear, &cross, &ts), SW_SUCCESS);
		ck_assert(ts >= cross);            /* the upper end: known to be past the crossing */
		ck_assert(ts - cross <= tol);      /* within event-tol of it */
	}
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

START_TEST(no_convergence_is_an_error)
{
	sw_model *m = NULL;
	sw_world *w = demo_world(&m);
	double y0[64], ts = 0.0;
	memcpy(y0, w->y + w->off[0], (size_t)w->dim[0] * sizeof *y0);
	ck_assert_int_eq(sw__locate(w, 0, 1.0, 1.5, y0, undefined, NULL, &ts), SW_ENUMERIC);
	ck_assert_int_eq(w->fault_locate, 1);
	char buf[256];
	sw__fault_describe(w, 0, SW_ENUMERIC, y0, buf, sizeof buf);
	ck_assert_msg(strstr(buf, "did not converge") && strstr(buf, "t = 1 s"), "%s", buf);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

Suite *locate_suite(void)
{
	Suite *s = suite_create("locate");
	TCase *tc = tcase_create("locate");
	tcase_add_test(tc, locates_to_the_tolerance_on_the_true_side);
	tcase_add_test(tc, no_convergence_is_an_error);
	suite_add_tcase(s, tc);
	return s;
}
