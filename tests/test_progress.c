/* tests/test_progress.c - the library's progress callbacks (the CLI prints them on a terminal):
 * a run reports after every step, an export after every unit built and once written; fractions
 * never decrease and end at exactly 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "swerve/swerve.h"
#include "tests.h"

static struct {
	int calls, decreasing;
	double last;
} seen;

static void on_run(double frac, void *ctx)
{
	(void)ctx;
	seen.decreasing |= frac < seen.last;
	seen.last = frac;
	seen.calls++;
}

static void on_export(double frac, void *ctx)
{
	*(int *)ctx += 1;
	on_run(frac, NULL);
}

START_TEST(run_reports_every_step_up_to_one)
{
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load("models/glm_barrier.xml", &m, &d), SW_SUCCESS);
	sw_world_def def = sw_default_world_def(m);
	def.duration = 2.0;
	def.progress_fn = on_run;
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, &def, &w, &d), SW_SUCCESS);
	memset(&seen, 0, sizeof seen);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, &d), SW_SUCCESS);
	ck_assert_int_eq(seen.calls, (int)sw_world_steps(w));
	ck_assert_int_eq(seen.calls, (int)(2.0 / m->run.step + 0.5));
	ck_assert(!seen.decreasing);
	ck_assert(seen.last == 1.0);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

START_TEST(export_reports_per_unit_and_when_written)
{
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load("models/demo.xml", &m, &d), SW_SUCCESS);
	sw_export_def def = sw_default_export_def();
	int ctx = 0;
	def.progress = on_export;
	def.progress_ctx = &ctx;
	memset(&seen, 0, sizeof seen);
	sw_hybrid *h = NULL;
	ck_assert_int_eq(sw_hybrid_build(m, &def, &h, &d), SW_SUCCESS);
	ck_assert_int_eq(seen.calls, m->n_agents + m->n_signals);
	ck_assert(seen.last < 1.0);
	char dir[] = "/tmp/swerve_progress_XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(sw_hybrid_write(h, SW_EXPORT_JSON, dir, &d), SW_SUCCESS);
	ck_assert_int_eq(seen.calls, m->n_agents + m->n_signals + 1);
	ck_assert_int_eq(ctx, seen.calls); /* the context is passed through */
	ck_assert(!seen.decreasing);
	ck_assert(seen.last == 1.0);
	char path[128];
	snprintf(path, sizeof path, "%s/%s.json", dir, h->name);
	unlink(path);
	snprintf(path, sizeof path, "%s/report.txt", dir);
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0); /* nothing else was written */
	sw_hybrid_free(h);
	sw_model_free(m);
}
END_TEST

Suite *progress_suite(void)
{
	Suite *s = suite_create("progress");
	TCase *tc = tcase_create("progress");
	tcase_add_test(tc, run_reports_every_step_up_to_one);
	tcase_add_test(tc, export_reports_per_unit_and_when_written);
	suite_add_tcase(s, tc);
	return s;
}
