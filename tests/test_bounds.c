/* tests/test_bounds.c - requested work and untrusted state are bounded before a run starts
 * (docs/robustness.md, "Bounds"): step counts, sub-steps and agents; SteerSuite cases; input
 * files that are not regular files (a FIFO, /dev/zero); checkpoints and cache entries forged
 * with a recomputed checksum.  Every case that used to hang runs under an alarm, so that a
 * regression fails instead of stalling the suite. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <check.h>

#include "sim/sim_internal.h"
#include "cli/field_cache.h"
#include "swerve/io.h"
#include "swerve/plan.h"
#include "swerve/sim.h"
#include "tests.h"

/* Seconds a case that once hung may take before the alarm fails it. */
#define HANG_SECONDS 20

static const char *scenario_with_run(char *buf, size_t n, const char *run)
{
	snprintf(buf, n,
		 "<scenario name=\"b\"><run %s/><world><target name=\"goal\" x=\"10\" y=\"0\"/>"
		 "</world><agent name=\"a\" x=\"0\" y=\"0\" target=\"goal\"/></scenario>",
		 run);
	return buf;
}

static sw_model *load_text(const char *text, sw_diag *d)
{
	sw_model *m = NULL;
	sw_diag_init(d);
	ck_assert_int_eq(sw_scenario_load_memory(text, strlen(text), "b.xml", &m, d), SW_SUCCESS);
	return m;
}

/* Creating a world for m (as def says; NULL: its own run) is refused with a message containing
 * `what`. */
static void assert_refused_def(const sw_model *m, const sw_world_def *def, const char *what)
{
	sw_diag d;
	sw_diag_init(&d);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, def, &w, &d), SW_EINPUT);
	ck_assert_ptr_null(w);
	ck_assert_int_ge(d.count, 1);
	ck_assert_msg(strstr(d.entry[0].message, what) != NULL, "message '%s' lacks '%s'",
		      d.entry[0].message, what);
	ck_assert_str_eq(d.entry[0].file, "b.xml");
}

static void assert_refused(const sw_model *m, const char *what)
{
	assert_refused_def(m, NULL, what);
}

START_TEST(runs_beyond_the_step_bound_are_refused_before_they_start)
{
	/* These once converted an out-of-range double to long: 0 steps, a "complete" run. */
	char buf[512];
	sw_diag d;
	const char *runs[] = {"duration=\"1e308\"", "step=\"1e-300\"",
			      "duration=\"1e18\" step=\"0.05\""};
	for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
		sw_model *m = load_text(scenario_with_run(buf, sizeof buf, runs[k]), &d);
		assert_refused(m, "SW_RUN_MAX_STEPS");
		sw_model_free(m);
	}
	/* A duration given by the world definition (swerve run -d 1e18) is checked the same way. */
	sw_model *m = load_text(scenario_with_run(buf, sizeof buf, "duration=\"10\" step=\"0.25\""),
				&d);
	sw_world_def def = sw_default_world_def(m);
	def.duration = 1e18;
	assert_refused_def(m, &def, "SW_RUN_MAX_STEPS");
	def.duration = NAN;
	assert_refused_def(m, &def, "expected finite numbers > 0");
	/* The bound itself is allowed, one step more is not. */
	def.duration = 0.25 * (double)SW_RUN_MAX_STEPS;
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, &def, &w, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_total_steps(w), SW_RUN_MAX_STEPS);
	sw_world_destroy(w);
	def.duration += 0.25;
	assert_refused_def(m, &def, "SW_RUN_MAX_STEPS");
	/* The model's own run is what sw_run_steps checks: 10 s of 0.25 s. */
	long steps = 0;
	ck_assert_int_eq(sw_run_steps(m, &steps, NULL), SW_SUCCESS);
	ck_assert_int_eq(steps, 40);
	sw_model_free(m);
}
END_TEST

START_TEST(substeps_beyond_their_bound_are_refused)
{
	char buf[512];
	sw_diag d;
	sw_model *m = load_text(
	    scenario_with_run(buf, sizeof buf, "integrator=\"rk4\" fixed=\"true\" substeps=\"10000\""),
	    &d);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	sw_world_destroy(w);
	sw_model_free(m);
	m = load_text(
	    scenario_with_run(buf, sizeof buf, "integrator=\"rk4\" fixed=\"true\" substeps=\"10001\""),
	    &d);
	assert_refused(m, "SW_RUN_MAX_SUBSTEPS");
	sw_model_free(m);
}
END_TEST

/* Seconds since t0. */
static double since(const struct timespec *t0)
{
	struct timespec t1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

START_TEST(a_steersuite_case_over_the_total_agent_cap_is_refused_quickly)
{
	/* 30 regions of 100 000 agents: each region is within its own bound, the case is not. */
	size_t cap = 1 << 16, n = 0;
	char *doc = malloc(cap);
	ck_assert_ptr_nonnull(doc);
	n += (size_t)snprintf(doc + n, cap - n,
			      "<SteerBenchTestCase xmlns=\"http://www.magix.ucla.edu/steerbench\">"
			      "<header><version>1.0</version><name>many</name><worldBounds>"
			      "<xmin>-1000</xmin><xmax>1000</xmax><ymin>0</ymin><ymax>0</ymax>"
			      "<zmin>-1000</zmin><zmax>1000</zmax></worldBounds></header>");
	for (int r = 0; r < 30; r++)
		n += (size_t)snprintf(
		    doc + n, cap - n,
		    "<agentRegion><numAgents>100000</numAgents><regionBounds><xmin>-1000</xmin>"
		    "<xmax>1000</xmax><ymin>0</ymin><ymax>0</ymax><zmin>-1000</zmin>"
		    "<zmax>1000</zmax></regionBounds><initialConditions><direction><random>true"
		    "</random></direction><radius>0.2</radius><speed>0</speed></initialConditions>"
		    "<goalSequence><seekStaticTarget><targetLocation><x>0</x><y>0</y><z>0</z>"
		    "</targetLocation><desiredSpeed>1</desiredSpeed><timeDuration>10"
		    "</timeDuration></seekStaticTarget></goalSequence></agentRegion>");
	n += (size_t)snprintf(doc + n, cap - n, "</SteerBenchTestCase>");
	ck_assert_uint_lt(n, cap - 1);
	sw_steersuite_def def = sw_default_steersuite_def();
	sw_diag d;
	sw_diag_init(&d);
	sw_model *m = NULL;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	alarm(HANG_SECONDS);
	ck_assert_int_eq(sw_steersuite_import_memory(doc, n, "many.xml", &def, NULL, NULL, &m, &d),
			 SW_EINPUT);
	alarm(0);
	ck_assert_double_lt(since(&t0), 2.0);
	ck_assert_ptr_null(m);
	int found = 0;
	for (int i = 0; i < d.count; i++)
		found |= strstr(d.entry[i].message, "3000000 agents") != NULL &&
			 strstr(d.entry[i].message, "at most 100000") != NULL;
	ck_assert_msg(found, "no message names the total and the cap");
	free(doc);
}
END_TEST

/* A fresh FIFO in a fresh directory; *dir receives the directory (caller removes both). */
static void make_fifo(char *dir, char *path, size_t n, const char *name)
{
	strcpy(dir, "/tmp/swerve-boundsXXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, n, "%s/%s", dir, name);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
}

/* The first message of d contains `what` and names `file`. */
static void assert_message(const sw_diag *d, const char *file, const char *what)
{
	ck_assert_int_ge(d->count, 1);
	ck_assert_str_eq(d->entry[0].file, file);
	ck_assert_msg(strstr(d->entry[0].message, what) != NULL, "message '%s' lacks '%s'",
		      d->entry[0].message, what);
}

START_TEST(input_files_that_are_not_regular_files_are_refused_without_blocking)
{
	char dir[64], fifo[128];
	make_fifo(dir, fifo, sizeof fifo, "scenario.xml");
	sw_diag d;
	sw_model *m = NULL;
	sw_automaton *a = NULL;
	int kind = -1;
	alarm(HANG_SECONDS);
	/* A FIFO as a scenario, an automaton, a file whose kind is asked: refused at once. */
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load(fifo, &m, &d), SW_EINPUT);
	assert_message(&d, fifo, "a FIFO, not a regular file");
	sw_diag_init(&d);
	ck_assert_int_eq(sw_automaton_load(fifo, &a, &d), SW_EINPUT);
	assert_message(&d, fifo, "a FIFO, not a regular file");
	sw_diag_init(&d);
	ck_assert_int_ne(sw_xml_root_kind(fifo, &kind, &d), SW_SUCCESS);
	assert_message(&d, fifo, "a FIFO");
	/* Devices and directories: /dev/zero would be read up to the size limit, a directory
	 * failed only at its first read. */
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load("/dev/zero", &m, &d), SW_EINPUT);
	assert_message(&d, "/dev/zero", "a character device, not a regular file");
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load(dir, &m, &d), SW_EINPUT);
	assert_message(&d, dir, "a directory, not a regular file");
	/* A missing file is still an I/O error with errno's text. */
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load("/nonexistent/x.xml", &m, &d), SW_EIO);
	assert_message(&d, "/nonexistent/x.xml", "No such file or directory");
	alarm(0);
	ck_assert_ptr_null(m);
	ck_assert_ptr_null(a);
	unlink(fifo);
	rmdir(dir);
}
END_TEST

START_TEST(a_vector_field_file_that_is_not_a_regular_file_is_refused)
{
	/* /dev/zero once looped forever (fgets of NUL bytes: every line blank). */
	sw_grid *g = NULL;
	sw_diag d;
	sw_diag_init(&d);
	alarm(HANG_SECONDS);
	ck_assert_int_eq(sw_vfield_load("/dev/zero", &g, &d), SW_EINPUT);
	assert_message(&d, "/dev/zero", "a character device, not a regular file");
	char dir[64], fifo[128];
	make_fifo(dir, fifo, sizeof fifo, "wind.txt");
	sw_diag_init(&d);
	ck_assert_int_eq(sw_vfield_load(fifo, &g, &d), SW_EINPUT);
	assert_message(&d, fifo, "a FIFO, not a regular file");
	/* Through a scenario: the <vectorfield> line is cited too. */
	char doc[512];
	snprintf(doc, sizeof doc,
		 "<scenario name=\"v\"><world><target name=\"east\" x=\"20\" y=\"0\"/>\n"
		 "<vectorfield name=\"wind\" file=\"%s\"/></world><agent name=\"a\" x=\"0\" "
		 "y=\"0\" target=\"east\"><glm field=\"wind\"/></agent></scenario>",
		 fifo);
	sw_model *m = NULL;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory(doc, strlen(doc), "v.xml", &m, &d), SW_EINPUT);
	alarm(0);
	int cited = 0;
	for (int i = 0; i < d.count; i++)
		cited |= strcmp(d.entry[i].file, "v.xml") == 0 && d.entry[i].line == 2;
	ck_assert(cited);
	ck_assert_ptr_null(g);
	ck_assert_ptr_null(m);
	/* A short file asking for a large grid is refused before the grid is allocated. */
	char small[160];
	snprintf(small, sizeof small, "%s/small.txt", dir);
	FILE *f = fopen(small, "w");
	ck_assert_ptr_nonnull(f);
	fputs("swerve-vectorfield 1\norigin 0 0\nspacing 1\nsize 8000 8000\n0 0\n", f);
	fclose(f);
	sw_diag_init(&d);
	ck_assert_int_eq(sw_vfield_load(small, &g, &d), SW_EINPUT);
	assert_message(&d, small, "one 'VX VY' line per node");
	ck_assert_ptr_null(g);
	unlink(small);
	unlink(fifo);
	rmdir(dir);
}
END_TEST

/* --- checkpoints ------------------------------------------------------------------------ */

/* Offsets of the sections of a world checkpoint (sim/checkpoint.c), for forging. */
typedef struct ck_layout {
	size_t t, steps, y, mode, tkind, tindex, hist_len, hist_head;
} ck_layout;

static ck_layout layout_of(const sw_world *w)
{
	ck_layout l;
	size_t n = (size_t)w->n, no = n * (size_t)w->m->n_obstacles, dim = 0;
	for (int u = 0; u < w->nu; u++)
		dim += (size_t)w->unit.dim[u];
	l.t = 4 + sizeof(uint32_t) + sizeof(uint64_t);
	l.steps = l.t + sizeof(double);
	l.y = l.steps + sizeof(long);
	l.mode = l.y + dim * sizeof(double);
	l.tkind = l.mode + (size_t)w->nu * sizeof(int);
	l.tindex = l.tkind + n;
	l.hist_len = l.tindex + n * sizeof(int) + (w->agent.rng ? n * SW_RNG_TYPE->size : 0) +
		     n * sizeof(sw_agent_metrics) + no * sizeof(double) + no + n +
		     3 * n * sizeof(double);
	l.hist_head = l.hist_len + sizeof(int);
	return l;
}

/* A copy of ck with `size` bytes at `at` replaced by value and the checksum recomputed. */
static unsigned char *forge(const void *ck, size_t len, size_t at, const void *value, size_t size)
{
	unsigned char *b = malloc(len);
	ck_assert_ptr_nonnull(b);
	memcpy(b, ck, len);
	memcpy(b + at, value, size);
	uint64_t sum = sw_hash_bytes(SW_HASH_INIT, b, len - sizeof sum);
	memcpy(b + len - sizeof sum, &sum, sizeof sum);
	return b;
}

/* Restoring the forged copy into a fresh world is refused, naming `what`, and leaves it at t = 0. */
static void assert_forgery_refused(const sw_model *m, const void *ck, size_t len, size_t at,
				   const void *value, size_t size, const char *what)
{
	unsigned char *b = forge(ck, len, at, value, size);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	double x0 = sw_world_unit_state(w, 0, NULL)[SW_STATE_X];
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_world_restore(w, b, len, "forged.swck", &d), SW_EINPUT);
	assert_message(&d, "forged.swck", what);
	ck_assert_int_eq(sw_world_steps(w), 0);
	ck_assert(sw_world_time(w) == 0.0);
	ck_assert(sw_world_unit_state(w, 0, NULL)[SW_STATE_X] == x0);
	sw_world_destroy(w);
	free(b);
}

START_TEST(forged_checkpoints_with_a_valid_checksum_are_refused)
{
	/* seek_escape_trap: automata (modes, targets) and progress() (the position history). */
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load("models/seek_escape_trap.xml", &m, &d), SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
	ck_assert_ptr_nonnull(w->hist.buf);
	for (int k = 0; k < 20; k++)
		ck_assert_int_eq(sw_world_step(w, &d), SW_SUCCESS);
	void *ck = NULL;
	size_t len = 0;
	ck_assert_int_eq(sw_world_checkpoint(w, &ck, &len), SW_SUCCESS);
	ck_layout l = layout_of(w);
	int first_mode = w->unit.mode[0], n_modes = w->unit.aut[0]->n_modes;
	sw_world_destroy(w);
	long total = 0;
	ck_assert_int_eq(sw_run_steps(m, &total, NULL), SW_SUCCESS);
	/* The unforged checkpoint (re-signed unchanged) is accepted. */
	unsigned char *same = forge(ck, len, l.mode, &first_mode, sizeof first_mode);
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_restore(w, same, len, "ck", &d), SW_SUCCESS);
	ck_assert_int_eq(sw_world_steps(w), 20);
	sw_world_destroy(w);
	free(same);
	/* A negative step count once ran past the duration; one beyond the run, or a time that
	 * is not the steps', is refused too. */
	long steps = -1000000;
	assert_forgery_refused(m, ck, len, l.steps, &steps, sizeof steps, "step count -1000000");
	steps = total + 1;
	assert_forgery_refused(m, ck, len, l.steps, &steps, sizeof steps, "step count");
	double t = 1e9;
	assert_forgery_refused(m, ck, len, l.t, &t, sizeof t, "at t = 1e+09");
	t = NAN;
	assert_forgery_refused(m, ck, len, l.t, &t, sizeof t, "step count");
	double inf = INFINITY;
	assert_forgery_refused(m, ck, len, l.y, &inf, sizeof inf, "state entry 0");
	/* Mode and target indices index arrays. */
	int mode = n_modes;
	assert_forgery_refused(m, ck, len, l.mode, &mode, sizeof mode, "unit 0 is in mode");
	mode = -1;
	assert_forgery_refused(m, ck, len, l.mode, &mode, sizeof mode, "unit 0 is in mode -1");
	unsigned char kind = TGT_TARGET;
	unsigned char *k1 = forge(ck, len, l.tkind, &kind, 1);
	int idx = m->n_targets;
	assert_forgery_refused(m, k1, len, l.tindex, &idx, sizeof idx, "agent 0 has target kind 1");
	free(k1);
	kind = 7;
	assert_forgery_refused(m, ck, len, l.tkind, &kind, 1, "target kind 7");
	/* The history ring's length and head. */
	int bad_len = SW_HISTORY + 1, bad_head = -1;
	assert_forgery_refused(m, ck, len, l.hist_len, &bad_len, sizeof bad_len,
			       "position history");
	assert_forgery_refused(m, ck, len, l.hist_head, &bad_head, sizeof bad_head,
			       "position history");
	free(ck);
	sw_model_free(m);
}
END_TEST

/* --- navigation field cache ---------------------------------------------------------------- */

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *b = malloc(*len);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(fread(b, 1, *len, f), *len);
	fclose(f);
	return b;
}

static void spit(const char *path, const void *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(b, 1, n, f), n);
	fclose(f);
}

START_TEST(a_cache_entry_that_does_not_solve_its_problem_is_recomputed)
{
	char dir[] = "/tmp/swerve-bounds-cacheXXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load("models/seek_escape_room.xml", &m, &d), SW_SUCCESS);
	const sw_model_field *f = &m->fields[0];
	sw_solver_def def = sw_default_solver_def();
	sw_grid *g[4];
	for (int k = 0; k < 4; k++)
		ck_assert_int_eq(sw_navgrid_rasterize(m, f->target, f->resolution, 0.25, f->margin, 0,
						      &g[k], &d),
				 SW_SUCCESS);
	size_t n = (size_t)g[0]->nx * (size_t)g[0]->ny;
	sw_solve_stats st;
	ck_assert_int_eq(cli_navgrid_solve_cached(g[0], &def, dir, &st, &d), SW_SUCCESS);
	ck_assert_int_eq(st.from_cache, 0);
	char path[512];
	snprintf(path, sizeof path, "%s/navfield-%016llx.bin", dir,
		 (unsigned long long)sw_navgrid_key(g[0], &def));
	/* The forgery: the same key, geometry and fixed nodes, every free value halved (still in
	 * [0, 1]) and the checksum recomputed.  Steering would follow it without complaint. */
	size_t len;
	unsigned char *b = slurp(path, &len);
	size_t head = 8 + 8 + 2 * 4 + 3 * 8;
	ck_assert_uint_eq(len, head + n * sizeof(double) + 16);
	double *v = malloc(n * sizeof *v);
	ck_assert_ptr_nonnull(v);
	memcpy(v, b + head, n * sizeof *v);
	for (size_t k = 0; k < n; k++)
		if (!g[0]->fixed[k])
			v[k] *= 0.5;
	memcpy(b + head, v, n * sizeof *v);
	uint64_t sum = sw_hash_bytes(SW_HASH_INIT, v, n * sizeof *v);
	memcpy(b + len - sizeof sum, &sum, sizeof sum);
	spit(path, b, len);
	ck_assert_int_eq(cli_navgrid_solve_cached(g[1], &def, dir, &st, &d), SW_SUCCESS);
	ck_assert_int_eq(st.from_cache, 0);
	ck_assert_mem_eq(g[0]->v, g[1]->v, n * sizeof *g[0]->v);
	/* The rewritten entry is a hit again. */
	ck_assert_int_eq(cli_navgrid_solve_cached(g[2], &def, dir, &st, &d), SW_SUCCESS);
	ck_assert_int_eq(st.from_cache, 1);
	ck_assert_mem_eq(g[0]->v, g[2]->v, n * sizeof *g[0]->v);
	/* A FIFO in the entry's place: a miss at once (it once blocked the open), then replaced. */
	unlink(path);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	alarm(HANG_SECONDS);
	ck_assert_int_eq(cli_navgrid_solve_cached(g[3], &def, dir, &st, &d), SW_SUCCESS);
	alarm(0);
	ck_assert_int_eq(st.from_cache, 0);
	ck_assert_mem_eq(g[0]->v, g[3]->v, n * sizeof *g[0]->v);
	struct stat sb;
	ck_assert_int_eq(stat(path, &sb), 0);
	ck_assert(S_ISREG(sb.st_mode));
	ck_assert_int_eq(d.errors, 0);
	for (int k = 0; k < 4; k++)
		sw_grid_free(g[k]);
	free(v);
	free(b);
	unlink(path);
	rmdir(dir);
	sw_model_free(m);
}
END_TEST

Suite *bounds_suite(void)
{
	Suite *s = suite_create("bounds");
	TCase *tc = tcase_create("bounds");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, runs_beyond_the_step_bound_are_refused_before_they_start);
	tcase_add_test(tc, substeps_beyond_their_bound_are_refused);
	tcase_add_test(tc, a_steersuite_case_over_the_total_agent_cap_is_refused_quickly);
	tcase_add_test(tc, input_files_that_are_not_regular_files_are_refused_without_blocking);
	tcase_add_test(tc, a_vector_field_file_that_is_not_a_regular_file_is_refused);
	tcase_add_test(tc, forged_checkpoints_with_a_valid_checksum_are_refused);
	tcase_add_test(tc, a_cache_entry_that_does_not_solve_its_problem_is_recomputed);
	suite_add_tcase(s, tc);
	return s;
}
