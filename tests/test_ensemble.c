/* tests/test_ensemble.c - ensembles: the interval estimators against closed forms and binomial
 * tails, their coverage (exact, and over repeated synthetic experiments), the SPRT's error rates,
 * the fair-coin scenario (tests/data/coin.xml: probability exactly 1/2 by symmetry), results
 * independent of the thread count, failing runs kept, properties and overrides. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "swerve/ensemble.h"
#include "swerve/io.h"
#include "tests.h"

/* k = 0 and k = n have closed forms; otherwise the bounds are where the binomial tails equal
 * alpha/2 (the definition of the interval), checked with GSL's binomial CDFs. */
START_TEST(test_clopper_pearson_definition)
{
	static const int ns[] = {1, 2, 7, 30, 385, 1000, 5000};
	double conf = 0.95, a2 = 0.025;
	for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
		int n = ns[i];
		double lo, hi;
		ck_assert_int_eq(sw_ens_clopper_pearson(0, n, conf, &lo, &hi), SW_SUCCESS);
		ck_assert(lo == 0.0);
		ck_close(hi, 1.0 - pow(a2, 1.0 / n), 1e-10);
		ck_assert_int_eq(sw_ens_clopper_pearson(n, n, conf, &lo, &hi), SW_SUCCESS);
		ck_close(lo, pow(a2, 1.0 / n), 1e-10);
		ck_assert(hi == 1.0);
		for (int k = 1; k<n; k += n> 50 ? n / 37 + 1 : 1) {
			ck_assert_int_eq(sw_ens_clopper_pearson(k, n, conf, &lo, &hi), SW_SUCCESS);
			ck_assert(lo < (double)k / n && (double)k / n < hi);
			/* P(X >= k | lo) = alpha/2 and P(X <= k | hi) = alpha/2. */
			ck_close(gsl_cdf_binomial_Q((unsigned)k - 1, lo, (unsigned)n), a2, 1e-9);
			ck_close(gsl_cdf_binomial_P((unsigned)k, hi, (unsigned)n), a2, 1e-9);
		}
	}
	double lo, hi;
	ck_assert_int_eq(sw_ens_clopper_pearson(3, 2, conf, &lo, &hi), SW_EUSAGE);
	ck_assert_int_eq(sw_ens_clopper_pearson(1, 2, 1.0, &lo, &hi), SW_EUSAGE);
}
END_TEST

/* Wilson's bounds solve (phat - p)^2 = z^2 p (1 - p) / n. */
START_TEST(test_wilson_definition)
{
	double z = gsl_cdf_ugaussian_Pinv(0.975);
	for (int n = 5; n <= 500; n += 55)
		for (int k = 1; k < n; k += 3) {
			double lo, hi, ph = (double)k / n;
			ck_assert_int_eq(sw_ens_wilson(k, n, 0.95, &lo, &hi), SW_SUCCESS);
			ck_close((ph - lo) * (ph - lo), z * z * lo * (1 - lo) / n, 1e-12);
			ck_close((ph - hi) * (ph - hi), z * z * hi * (1 - hi) / n, 1e-12);
		}
}
END_TEST

/* Exact coverage: the sum of the binomial probabilities of the k whose interval holds p.  The
 * Clopper-Pearson interval guarantees at least the nominal confidence for every p. */
START_TEST(test_clopper_pearson_exact_coverage)
{
	static const int ns[] = {10, 50, 200};
	for (size_t i = 0; i < 3; i++) {
		int n = ns[i];
		double *lo = malloc((size_t)(n + 1) * sizeof *lo),
		       *hi = malloc((size_t)(n + 1) * sizeof *hi);
		for (int k = 0; k <= n; k++)
			sw_ens_clopper_pearson(k, n, 0.9, &lo[k], &hi[k]);
		for (double p = 0.005; p < 1.0; p += 0.01) {
			double cover = 0.0;
			for (int k = 0; k <= n; k++)
				if (lo[k] <= p && p <= hi[k])
					cover += gsl_ran_binomial_pdf((unsigned)k, p, (unsigned)n);
			ck_assert_msg(cover >= 0.9 - 1e-12, "n = %d, p = %g: coverage %.6f < 0.9",
				      n, p, cover);
		}
		free(lo);
		free(hi);
	}
}
END_TEST

/* Repeated experiments on Bernoulli draws from a GSL generator, through the same sequential
 * scan the CLI uses: the interval holds the true p in at least the nominal share of them (up to
 * three Monte-Carlo standard errors). */
START_TEST(test_coverage_repeated)
{
	enum { REPS = 2000, N = 60 };
	static const double ps[] = {0.03, 0.2, 0.5, 0.85};
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 12345);
	sw_ens_result *r = calloc(N, sizeof *r);
	sw_ens_stop stop = {0};
	stop.max_runs = N;
	stop.conf = 0.95;
	for (int wilson = 0; wilson <= 1; wilson++)
		for (size_t i = 0; i < 4; i++) {
			int covered = 0;
			for (int rep = 0; rep < REPS; rep++) {
				for (int j = 0; j < N; j++)
					r[j].value = gsl_rng_uniform(rng) < ps[i];
				sw_ens_tally t;
				sw_ens_tally_init(&t);
				stop.wilson = wilson;
				ck_assert_int_eq(sw_ens_scan(&t, &stop, r, N), N);
				covered += t.lo <= ps[i] && ps[i] <= t.hi;
			}
			double se = sqrt(0.95 * 0.05 / REPS);
			/* Wilson is not guaranteed: it may dip a little below nominal (p near 0).
			 */
			double floor_ = wilson ? 0.95 - 0.03 : 0.95 - 3 * se;
			ck_assert_msg((double)covered / REPS >= floor_, "%s p = %g: coverage %.4f",
				      wilson ? "wilson" : "clopper-pearson", ps[i],
				      (double)covered / REPS);
		}
	free(r);
	gsl_rng_free(rng);
}
END_TEST

/* Wald's SPRT at p = theta +- delta: wrong decisions at most about alpha (beta); far from theta
 * it decides right every time. */
START_TEST(test_sprt_error_rates)
{
	enum { REPS = 1000, CAP = 20000 };
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 777);
	sw_ens_result *r = calloc(CAP, sizeof *r);
	sw_ens_stop stop = {0};
	stop.max_runs = CAP;
	stop.conf = 0.95;
	stop.use_sprt = 1;
	stop.sprt = (sw_ens_sprt){0.5, 0.05, 0.05, 0.05};
	ck_assert(sw_ens_sprt_valid(&stop.sprt));
	static const double ps[] = {0.45, 0.55, 0.2, 0.8};
	for (int i = 0; i < 4; i++) {
		int wrong = 0, undecided = 0;
		for (int rep = 0; rep < REPS; rep++) {
			for (int j = 0; j < CAP; j++)
				r[j].value = gsl_rng_uniform(rng) < ps[i];
			sw_ens_tally t;
			sw_ens_tally_init(&t);
			sw_ens_scan(&t, &stop, r, CAP);
			undecided += t.decision == 0;
			wrong += t.decision == (ps[i] < 0.5 ? 1 : -1);
		}
		ck_assert_int_eq(undecided, 0);
		if (i < 2)
			ck_assert_msg(wrong <= 0.05 * REPS + 3 * sqrt(0.05 * 0.95 * REPS),
				      "p = %g: %d wrong of %d", ps[i], wrong, REPS);
		else
			ck_assert_int_eq(wrong, 0);
	}
	sw_ens_sprt bad = {0.5, 0.6, 0.05, 0.05};
	ck_assert(!sw_ens_sprt_valid(&bad));
	free(r);
	gsl_rng_free(rng);
}
END_TEST

/* Where a sequential estimate stops depends on the results in run order only, not on how they
 * were cut into batches. */
START_TEST(test_scan_batch_independent)
{
	enum { N = 5000 };
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 99);
	sw_ens_result *r = calloc(N, sizeof *r);
	for (int j = 0; j < N; j++) {
		r[j].value = gsl_rng_uniform(rng) < 0.3;
		r[j].status = j % 97 == 5 ? SW_ENUMERIC : SW_SUCCESS;
	}
	sw_ens_stop stop = {0};
	stop.max_runs = N;
	stop.conf = 0.95;
	stop.width = 0.05;
	sw_ens_tally whole, cut;
	sw_ens_tally_init(&whole);
	sw_ens_scan(&whole, &stop, r, N);
	ck_assert(whole.done && strcmp(whole.why, "width") == 0 && whole.n < N);
	ck_assert(whole.hi - whole.lo <= 0.05);
	ck_assert_int_eq(whole.failed, (whole.n + 91) / 97);
	sw_ens_tally_init(&cut);
	for (int first = 0; first < N && !cut.done; first += 37)
		sw_ens_scan(&cut, &stop, r + first, first + 37 < N ? 37 : N - first);
	ck_assert_int_eq(cut.n, whole.n);
	ck_assert_int_eq(cut.k, whole.k);
	ck_assert(cut.lo == whole.lo && cut.hi == whole.hi);
	free(r);
	gsl_rng_free(rng);
}
END_TEST

static sw_model *load(const char *file, const sw_override *ov, int n)
{
	static sw_diag diag;
	sw_diag_init(&diag);
	sw_model *m = NULL;
	char path[256];
	snprintf(path, sizeof path, "%s/%s", SW_TEST_DATA, file);
	int st = sw_scenario_load_overrides(path, ov, n, &m, &diag);
	char buf[SW_DIAG_MSG + SW_DIAG_FILE + 64] = "";
	if (diag.count)
		sw_diag_format(&diag, 0, buf, sizeof buf);
	ck_assert_msg(st == SW_SUCCESS, "%s: %s", path, buf);
	return m;
}

static int compile_error(const sw_model *m, const char *text, const char *expect)
{
	static sw_diag diag;
	sw_diag_init(&diag);
	sw_ens_property *p = NULL;
	int st = sw_ens_property_compile(m, text, &p, &diag);
	ck_assert(p == NULL);
	ck_assert_msg(diag.count > 0 && strstr(diag.entry[0].message, expect),
		      "'%s': expected a message with '%s', got '%s'", text, expect,
		      diag.count ? diag.entry[0].message : "");
	return st;
}

/* tests/data/coin.xml: P(pass above) = 1/2 by symmetry.  Every run passes on exactly one side;
 * the 99.9% interval over 1500 runs holds 1/2 (a false alarm has probability <= 0.001); the
 * results are the same with 1 and 2 threads. */
START_TEST(test_fair_coin)
{
	enum { N = 1500 };
	sw_model *m = load("coin.xml", NULL, 0);
	static sw_diag diag;
	sw_ens_property *up = NULL, *one = NULL;
	ck_assert_int_eq(sw_ens_property_compile(m, "reach(walker, upper) <= t_end", &up, &diag),
			 SW_SUCCESS);
	ck_assert_int_eq(sw_ens_property_compile(m,
						 "(reach(walker, upper) <= t_end or "
						 "reach(walker, lower) <= t_end) and not "
						 "(reach(walker, upper) <= t_end and "
						 "reach(walker, lower) <= t_end)",
						 &one, &diag),
			 SW_SUCCESS);
	const sw_model *ms[] = {m};
	const sw_ens_property *ps[] = {up}, *ps1[] = {one};
	sw_ens_plan plan = {1, ms, ps, INT64_MAX, 1, 0.0, NULL};
	sw_ens_result *a = calloc(N, sizeof *a), *b = calloc(N, sizeof *b);
	ck_assert_int_eq(sw_ens_execute(&plan, 0, N, 2, a), SW_SUCCESS);
	ck_assert_int_eq(sw_ens_execute(&plan, 0, N, 1, b), SW_SUCCESS);
	ck_assert(memcmp(a, b, N * sizeof *a) == 0);
	int64_t k = 0;
	for (int j = 0; j < N; j++) {
		ck_assert_int_eq(a[j].status, SW_SUCCESS);
		ck_assert(a[j].run == j && a[j].seed == 1u + (uint64_t)j);
		k += a[j].value;
	}
	double lo, hi;
	sw_ens_clopper_pearson(k, N, 0.999, &lo, &hi);
	ck_assert_msg(lo <= 0.5 && 0.5 <= hi, "P(above) in [%g, %g] (%lld of %d)", lo, hi,
		      (long long)k, N);
	plan.props = ps1;
	ck_assert_int_eq(sw_ens_execute(&plan, 0, 300, 2, b), SW_SUCCESS);
	for (int j = 0; j < 300; j++)
		ck_assert_int_eq(b[j].value, 1);
	/* Run 7 of the ensemble is the scenario run with seed 8: the same summary as one run. */
	sw_ens_result one_run;
	one_run.run = one_run.point = 0;
	sw_world_def def = sw_default_world_def(m);
	def.seed = 8;
	ck_assert_int_eq(sw_ens_run_one(m, &def, up, &one_run), SW_SUCCESS);
	ck_assert(one_run.value == a[7].value && one_run.t_end == a[7].t_end &&
		  one_run.mean_path == a[7].mean_path &&
		  one_run.min_clearance == a[7].min_clearance);
	free(a);
	free(b);
	sw_ens_property_free(up);
	sw_ens_property_free(one);
	sw_model_free(m);
}
END_TEST

/* A run that fails is a result with its status and message, never dropped. */
START_TEST(test_failing_runs_kept)
{
	sw_model *m = load("blowup.xml", NULL, 0);
	static sw_diag diag;
	sw_ens_property *p = NULL;
	ck_assert_int_eq(sw_ens_property_compile(m, "visited(bomb, grow)", &p, &diag), SW_SUCCESS);
	const sw_model *ms[] = {m};
	const sw_ens_property *ps[] = {p};
	sw_ens_plan plan = {1, ms, ps, 4, 10, 0.0, NULL};
	sw_ens_result r[4];
	ck_assert_int_eq(sw_ens_execute(&plan, 0, 4, 3, r), SW_SUCCESS);
	for (int j = 0; j < 4; j++) {
		ck_assert_int_eq(r[j].status, SW_ENUMERIC);
		ck_assert_int_eq(r[j].value, -1);
		ck_assert_msg(strstr(r[j].message, "bomb") && strstr(r[j].message, "t = 3.5"), "%s",
			      r[j].message);
		ck_close(r[j].t_end, 3.5, 1e-12);
	}
	sw_ens_stop stop = {0};
	stop.max_runs = 4;
	stop.conf = 0.95;
	stop.failed_as = 1;
	sw_ens_tally t;
	sw_ens_tally_init(&t);
	sw_ens_scan(&t, &stop, r, 4);
	ck_assert(t.n == 4 && t.failed == 4 && t.k == 4);
	sw_ens_property_free(p);
	sw_model_free(m);
}
END_TEST

START_TEST(test_property_errors)
{
	sw_model *m = load("crossing.xml", NULL, 0);
	ck_assert_int_eq(compile_error(m, "reach(nobody, shop) < 3", "nobody"), SW_EINPUT);
	ck_assert_int_eq(compile_error(m, "visited(p1, flying)", "expected one of"), SW_EINPUT);
	ck_assert_int_eq(compile_error(m, "path_length(p1)", "boolean"), SW_EINPUT);
	static sw_diag diag;
	sw_ens_property *p = NULL;
	ck_assert_int_eq(sw_ens_property_compile(m,
						 "visited(light, cars_red_walk) and "
						 "ends_in(plain, arrived) or safe()",
						 &p, &diag),
			 SW_SUCCESS);
	sw_ens_property_free(p);
	sw_model_free(m);
}
END_TEST

/* Mode entries against the light's closed form (automata/traffic_light.xml: green from 0, amber
 * at 20 s, walk at 23 s, located to event-tol), and reach() of a plain-law agent's own target
 * against its located arrival time. */
START_TEST(test_property_values)
{
	static const char *const props[] = {
	    "visit(light, cars_green) == 0 and abs(visit(light, cars_amber) - 20) < 1e-6 and "
	    "abs(visit(light, cars_red_walk) - 23) < 1e-6 and ends_in(light, cars_red_walk)",
	    "not visited(light, cars_red_walk) and visited(light, cars_amber)",
	    "not reached(idler) and reach(plain, shop) == t_reached(plain) and "
	    "reach(plain, bench) > t_end"};
	static const double durations[] = {30, 22, 60};
	for (int i = 0; i < 3; i++) {
		sw_override ov = {"run.duration", durations[i]};
		sw_model *m = load("crossing.xml", &ov, 1);
		static sw_diag diag;
		sw_diag_init(&diag);
		sw_ens_property *p = NULL;
		ck_assert_int_eq(sw_ens_property_compile(m, props[i], &p, &diag), SW_SUCCESS);
		sw_ens_result r;
		r.run = r.point = 0;
		sw_world_def def = sw_default_world_def(m);
		def.seed = 5;
		ck_assert_int_eq(sw_ens_run_one(m, &def, p, &r), SW_SUCCESS);
		ck_assert_int_eq(r.status, SW_SUCCESS);
		ck_assert_msg(r.value == 1, "'%s' is false", props[i]);
		ck_close(r.t_end, durations[i], 1e-9);
		sw_ens_property_free(p);
		sw_model_free(m);
	}
}
END_TEST

static int override_error(const char *file, const char *name, double v, const char *expect)
{
	static sw_diag diag;
	sw_diag_init(&diag);
	sw_override ov = {name, v};
	sw_model *m = NULL;
	char path[256];
	snprintf(path, sizeof path, "%s/%s", SW_TEST_DATA, file);
	int st = sw_scenario_load_overrides(path, &ov, 1, &m, &diag);
	ck_assert(m == NULL);
	char buf[SW_DIAG_MSG + SW_DIAG_FILE + 64] = "";
	if (diag.count)
		sw_diag_format(&diag, 0, buf, sizeof buf);
	ck_assert_msg(strstr(buf, expect), "%s: expected '%s' in '%s'", name, expect, buf);
	return st;
}

START_TEST(test_overrides)
{
	/* Run settings, a plain agent's law, a group member's binding, a group's personality. */
	sw_override ov[] = {{"run.duration", 7.5},
			    {"plain.wall.distance", 1.25},
			    {"p1.bind.radius", 0.55},
			    {"group1.personality.agility", 0.2},
			    {"idler.x", -9}};
	sw_model *m = load("crossing.xml", ov, 5);
	ck_assert(m->run.duration == 7.5);
	int plain = sw_model_find_agent(m, "plain"), p1 = sw_model_find_agent(m, "p1");
	int p2 = sw_model_find_agent(m, "p2"), idler = sw_model_find_agent(m, "idler");
	ck_assert(m->agents[plain].steer.wall.distance == 1.25);
	ck_assert(m->agents[idler].position.x == -9);
	ck_assert(m->agents[p1].personality.agility == 0.2);
	ck_assert(m->agents[p2].personality.agility == 0.2);
	int found = 0;
	for (int i = 0; i < m->n_bindings; i++) /* p1's radius only; p2 keeps its own 0.3 */
		found += m->bindings[i].value == 0.55;
	ck_assert_int_eq(found, 1);
	sw_model_free(m);
	/* A bare GLM name is *.glm.NAME. */
	sw_override d0 = {"d0", 2.25};
	m = load("coin.xml", &d0, 1);
	ck_assert(m->agents[0].steer.glm.d0 == 2.25);
	sw_model_free(m);
	ck_assert_int_eq(override_error("coin.xml", "walker.glm.nope", 1, "no number parameter"),
			 SW_EINPUT);
	ck_assert_int_eq(override_error("coin.xml", "nobody.glm.d0", 1, "no agent named"),
			 SW_EINPUT);
	ck_assert_int_eq(override_error("coin.xml", "run.integrator", 1, "no number attribute"),
			 SW_EINPUT);
	ck_assert_int_eq(override_error("coin.xml", "walker.fw.kg", 1, "runs <glm>"), SW_EINPUT);
	ck_assert_int_eq(override_error("crossing.xml", "p1.glm.d0", 1, "behaviour"), SW_EINPUT);
	ck_assert_int_eq(override_error("crossing.xml", "p1.personality.mass", 1, "<group>"),
			 SW_EINPUT);
	ck_assert_int_eq(override_error("crossing.xml", "plain.bind.x", 1, "no behaviour"),
			 SW_EINPUT);
	/* The value meets the file's checks. */
	ck_assert_int_eq(override_error("coin.xml", "walker.radius", -1, "radius"), SW_EINPUT);
}
END_TEST

Suite *ensemble_suite(void)
{
	Suite *s = suite_create("ensemble");
	TCase *tc = tcase_create("stats");
	tcase_add_test(tc, test_clopper_pearson_definition);
	tcase_add_test(tc, test_wilson_definition);
	tcase_add_test(tc, test_clopper_pearson_exact_coverage);
	tcase_add_test(tc, test_coverage_repeated);
	tcase_add_test(tc, test_sprt_error_rates);
	tcase_add_test(tc, test_scan_batch_independent);
	suite_add_tcase(s, tc);
	tc = tcase_create("runs");
	tcase_add_test(tc, test_fair_coin);
	tcase_add_test(tc, test_failing_runs_kept);
	tcase_add_test(tc, test_property_errors);
	tcase_add_test(tc, test_property_values);
	tcase_add_test(tc, test_overrides);
	suite_add_tcase(s, tc);
	return s;
}
