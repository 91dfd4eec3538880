/* tests/test_worlddef.c - the world definition (sw_world_def): what varies per run comes with
 * it and not from the model, which no run writes.  A run defined with seed S equals a run of
 * the scenario whose <run> says seed="S"; a finalised model's bytes are the same after runs of
 * other seeds, durations and thread counts; the duration of the definition is where a run
 * stops. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swerve/swerve.h"
#include "tests.h"

/* seek_room with its <run> seed replaced by `seed` (a scenario with heading noise: the seed
 * decides the trajectory); duration shortened to 8 s. */
static sw_model *seek_room(const char *seed)
{
	FILE *f = fopen("models/seek_room.xml", "rb");
	ck_assert_ptr_nonnull(f);
	static char text[1 << 16];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	char *run = strstr(text, "<run duration=\"40\"");
	ck_assert_ptr_nonnull(run);
	memcpy(run, "<run duration=\"08\"", 18);
	char *s = strstr(run, "seed=\"11\"");
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(strlen(seed), 2);
	memcpy(s + 6, seed, 2);
	/* The automata it uses, from the checkout's top (where the tests run). */
	for (char *u; (u = strstr(text, "\"../automata/"));)
		memmove(u + 1, u + 4, strlen(u + 4) + 1);
	n = strlen(text);
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	int st = sw_scenario_load_memory(text, n, "models/seek_room.xml", &m, &d);
	char msg[SW_DIAG_FILE + SW_DIAG_MSG + 64] = "";
	if (d.count > 0)
		sw_diag_format(&d, 0, msg, sizeof msg);
	ck_assert_msg(st == SW_SUCCESS, "%s", msg);
	return m;
}

/* Hash of every unit's state and mode at every step of a run of m as def says. */
static uint64_t run_hash(const sw_model *m, const sw_world_def *def, double *t_end)
{
	sw_world *w = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_world_create(m, def, &w, &d), SW_SUCCESS);
	uint64_t h = SW_HASH_INIT;
	while (sw_world_steps(w) < sw_world_total_steps(w)) {
		ck_assert_int_eq(sw_world_step(w, &d), SW_SUCCESS);
		for (int u = 0; u < sw_world_n_units(w); u++) {
			int dim = 0;
			const double *y = sw_world_unit_state(w, u, &dim);
			int mode = sw_world_unit_mode(w, u);
			h = sw_hash_bytes(h, y, (size_t)dim * sizeof *y);
			h = sw_hash_bytes(h, &mode, sizeof mode);
		}
	}
	if (t_end)
		*t_end = sw_world_time(w);
	sw_world_destroy(w);
	return h;
}

START_TEST(a_defined_seed_equals_the_scenario_seed)
{
	sw_model *m11 = seek_room("11"), *m07 = seek_room("07");
	sw_world_def def = sw_default_world_def(m11);
	ck_assert(def.seed == 11);
	ck_assert_double_eq(def.duration, 8.0);
	ck_assert_int_eq(def.threads, 1);
	def.seed = 7;
	uint64_t by_def = run_hash(m11, &def, NULL);
	uint64_t by_file = run_hash(m07, NULL, NULL);
	uint64_t own = run_hash(m11, NULL, NULL);
	ck_assert_uint_eq(by_def, by_file);
	ck_assert_uint_ne(by_def, own); /* the seed matters in this scenario */
	/* Two threads, the same bytes. */
	def.threads = 2;
	ck_assert_uint_eq(run_hash(m11, &def, NULL), by_file);
	sw_model_free(m11);
	sw_model_free(m07);
}
END_TEST

/* Bytes of everything a model owns that a run could touch: the struct and its arrays. */
static uint64_t model_bytes(const sw_model *m)
{
	uint64_t h = sw_hash_bytes(SW_HASH_INIT, m, sizeof *m);
	h = sw_hash_bytes(h, m->agents, (size_t)m->n_agents * sizeof *m->agents);
	h = sw_hash_bytes(h, m->obstacles, (size_t)m->n_obstacles * sizeof *m->obstacles);
	h = sw_hash_bytes(h, m->prims, (size_t)m->n_prims * sizeof *m->prims);
	h = sw_hash_bytes(h, m->targets, (size_t)m->n_targets * sizeof *m->targets);
	h = sw_hash_bytes(h, m->points, (size_t)m->n_points * sizeof *m->points);
	h = sw_hash_bytes(h, m->fields, (size_t)m->n_fields * sizeof *m->fields);
	h = sw_hash_bytes(h, m->bindings, (size_t)m->n_bindings * sizeof *m->bindings);
	return h;
}

START_TEST(runs_leave_the_finalised_model_unchanged)
{
	static const char *paths[] = {"models/seek_room.xml", "models/street_crossing.xml",
				      "models/seek_escape_maze.xml"};
	for (size_t k = 0; k < sizeof paths / sizeof paths[0]; k++) {
		sw_model *m = NULL;
		sw_diag d;
		sw_diag_init(&d);
		ck_assert_int_eq(sw_scenario_load(paths[k], &m, &d), SW_SUCCESS);
		sw_model before = *m;
		uint64_t h0 = model_bytes(m);
		sw_world_def def = sw_default_world_def(m);
		def.seed = 99;
		def.duration = 3.0;
		def.threads = 2;
		double t_end = 0.0;
		run_hash(m, &def, &t_end);
		ck_assert_double_eq_tol(t_end, 3.0, m->run.step);
		run_hash(m, NULL, NULL);
		ck_assert_msg(memcmp(&before, m, sizeof before) == 0, "%s: the model changed",
			      paths[k]);
		ck_assert_uint_eq(model_bytes(m), h0);
		ck_assert(m->run.seed == before.run.seed);
		sw_model_free(m);
	}
}
END_TEST

/* Writing a finalised model (as the CLI once did to change seed or duration) is caught when a
 * world is created from it; a struct copy (a private variant sharing the arrays) is not. */
START_TEST(a_model_written_after_finalize_is_refused)
{
	sw_model *m = seek_room("11");
	ck_assert(sw_model_frozen(m));
	sw_world *w = NULL;
	sw_diag d;
	sw_diag_init(&d);
	m->run.seed = 7;
	ck_assert(!sw_model_frozen(m));
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_EUSAGE);
	ck_assert_ptr_null(w);
	ck_assert_int_eq(d.errors, 1);
	ck_assert_ptr_nonnull(strstr(d.entry[0].message, "written after sw_model_finalize"));
	m->run.seed = 11;
	ck_assert(sw_model_frozen(m));
	m->run.duration = 9.0;
	ck_assert(!sw_model_frozen(m));
	m->run.duration = 8.0;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
	sw_world_destroy(w);
	sw_model copy = *m;
	copy.run.fixed = 1;
	ck_assert(sw_model_frozen(&copy));
	sw_model_free(m);
}
END_TEST

/* A vector field of a model built in C has no grid until planned: creating a world does not read
 * its file (SW_EUSAGE naming the field); with the plan of sw_plan_fields it runs. */
START_TEST(a_world_reads_no_vector_field_file)
{
	sw_model *m = sw_model_alloc("vf", NULL);
	sw_target_def t = sw_default_target_def();
	t.name = "goal";
	t.position = sw_v2(10.0, 0.0);
	ck_assert_int_eq(sw_model_add_target(m, &t, NULL), SW_SUCCESS);
	sw_field_def f = sw_default_field_def();
	f.name = "wind";
	f.kind = SW_FIELD_VECTOR;
	f.file = SW_TEST_DATA "/wind_north.txt";
	ck_assert_int_eq(sw_model_add_field(m, &f, NULL), SW_SUCCESS);
	sw_agent_def a = sw_default_agent_def();
	a.name = "a";
	a.target = "goal";
	snprintf(a.steer.field, sizeof a.steer.field, "wind");
	ck_assert_int_eq(sw_model_add_agent(m, &a, NULL), SW_SUCCESS);
	sw_run_def r = sw_default_run_def();
	r.duration = 2.0;
	ck_assert_int_eq(sw_model_set_run(m, &r, 0, NULL), SW_SUCCESS);
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_model_finalize(m, &d), SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_EUSAGE);
	ck_assert_ptr_null(w);
	ck_assert_ptr_nonnull(strstr(d.entry[d.count - 1].message, "vector field 'wind'"));
	sw_plan *plan = NULL;
	ck_assert_int_eq(sw_plan_fields(m, NULL, &plan, &d), SW_SUCCESS);
	sw_world_def def = sw_default_world_def(m);
	def.plan = plan;
	ck_assert_int_eq(sw_world_create(m, &def, &w, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, &d), SW_SUCCESS);
	sw_world_destroy(w);
	sw_plan_free(plan);
	sw_model_free(m);
}
END_TEST

static void count_progress(double frac, void *ctx)
{
	double *seen = ctx;
	seen[0] += 1.0;
	seen[1] = frac;
}

START_TEST(the_definition_sets_duration_threads_and_callbacks)
{
	sw_model *m = seek_room("11");
	sw_world_def def = sw_default_world_def(m);
	double seen[2] = {0.0, 0.0};
	def.duration = 1.0;
	def.threads = 2;
	def.progress_fn = count_progress;
	def.progress_ctx = seen;
	sw_world *w = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_world_create(m, &def, &w, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_world_threads(w), 2);
	ck_assert(sw_world_seed(w) == 11);
	ck_assert_double_eq(sw_world_duration(w), 1.0);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, &d), SW_SUCCESS);
	ck_assert_double_eq_tol(sw_world_time(w), 1.0, 1e-12);
	ck_assert_int_eq((int)seen[0], (int)sw_world_steps(w));
	ck_assert_double_eq(seen[1], 1.0);
	sw_world_destroy(w);
	/* A negative thread count is a usage error; no world is made. */
	def.threads = -1;
	ck_assert_int_eq(sw_world_create(m, &def, &w, &d), SW_EUSAGE);
	ck_assert_ptr_null(w);
	sw_model_free(m);
}
END_TEST

static int count_samples(const sw_world *w, void *ctx)
{
	(void)w;
	++*(int *)ctx;
	return SW_SUCCESS;
}

/* The sample interval of the definition is when sw_world_run samples (t = 0, then every
 * interval: 1 + 8 s / 0.5 s calls), 0 means the model's, and one that is not a whole number of
 * steps is refused with a diagnostic; the run itself (its states at every step) is the same. */
START_TEST(the_definition_sets_the_sample_interval)
{
	sw_model *m = seek_room("11");
	sw_world_def def = sw_default_world_def(m);
	ck_assert_double_eq(def.sample, m->run.sample);
	uint64_t h0 = run_hash(m, &def, NULL);
	def.sample = 0.5;
	ck_assert(run_hash(m, &def, NULL) == h0);
	sw_world *w = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_world_create(m, &def, &w, &d), SW_SUCCESS);
	ck_assert_double_eq(sw_world_sample(w), 0.5);
	int calls = 0;
	ck_assert_int_eq(sw_world_run(w, count_samples, &calls, &d), SW_SUCCESS);
	ck_assert_int_eq(calls, 1 + (int)lround(8.0 / 0.5));
	sw_world_destroy(w);
	def.sample = 0.0;
	ck_assert_int_eq(sw_world_create(m, &def, &w, &d), SW_SUCCESS);
	ck_assert_double_eq(sw_world_sample(w), m->run.sample);
	sw_world_destroy(w);
	def.sample = 1.5 * m->run.step;
	ck_assert_int_eq(sw_world_create(m, &def, &w, &d), SW_EINPUT);
	ck_assert_ptr_null(w);
	char msg[SW_DIAG_FILE + SW_DIAG_MSG + 64] = "";
	sw_diag_format(&d, d.count - 1, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "not a positive multiple of its step"), "%s", msg);
	sw_model_free(m);
}
END_TEST

Suite *worlddef_suite(void)
{
	Suite *s = suite_create("worlddef");
	TCase *tc = tcase_create("worlddef");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, a_defined_seed_equals_the_scenario_seed);
	tcase_add_test(tc, runs_leave_the_finalised_model_unchanged);
	tcase_add_test(tc, the_definition_sets_duration_threads_and_callbacks);
	tcase_add_test(tc, the_definition_sets_the_sample_interval);
	tcase_add_test(tc, a_model_written_after_finalize_is_refused);
	tcase_add_test(tc, a_world_reads_no_vector_field_file);
	suite_add_tcase(s, tc);
	return s;
}
