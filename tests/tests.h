/* tests/tests.h - the Check suites of swerve, one per module plus scenario-level suites. */
#ifndef SWERVE_TESTS_H
#define SWERVE_TESTS_H

#include <check.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "swerve/core.h"
#include "swerve/export.h"
#include "swerve/io.h"
#include "swerve/model.h"
#include "swerve/sim.h"
#include "swerve/steer.h"

Suite *core_suite(void);
Suite *geom_suite(void);
Suite *expr_suite(void);
Suite *expr_host_suite(void);
Suite *steer_suite(void);
Suite *steer_fw_pf_suite(void);
Suite *steer_simd_suite(void);
Suite *competition_suite(void);
Suite *model_suite(void);
Suite *sim_suite(void);
Suite *hybrid_suite(void);
Suite *io_suite(void);
Suite *io_automata_suite(void);
Suite *scenarios_suite(void);
Suite *render_suite(void);
Suite *emit_suite(void);
Suite *emit_crowd_suite(void);
Suite *export_suite(void);
Suite *export_flows_suite(void);
Suite *export_glm_suite(void);
Suite *export_parts_suite(void);
Suite *interval_suite(void);
Suite *analyze_suite(void);
Suite *plot_suite(void);
Suite *crowd_suite(void);
Suite *crowd_index_suite(void);
Suite *sensing_suite(void);
Suite *steersuite_suite(void);
Suite *steersuite_run_suite(void);
Suite *steersuite_crowds_suite(void);
Suite *steersuite_emit_suite(void);
Suite *progress_suite(void);
Suite *ensemble_suite(void);
Suite *plan_suite(void);
Suite *hostile_suite(void);
Suite *faults_suite(void);
Suite *space3_suite(void);
Suite *atomic_suite(void);
Suite *locate_suite(void);
Suite *events_suite(void);
Suite *bounds_suite(void);
Suite *ttc_suite(void);
Suite *sf_suite(void);
Suite *csm_suite(void);
Suite *pedestrian_suite(void);
Suite *worlddef_suite(void);
Suite *params_suite(void);
Suite *worker_suite(void);
Suite *laws_suite(void);
Suite *route_suite(void);

/** The scenario text fmt with its one %s replaced by fill, loaded as file `name`; NULL (and the
 * diagnostics in d) when refused (tests/law_util.c). */
sw_model *test_load_filled(const char *fmt, const char *fill, const char *name, sw_diag *d);

/** Checks that export in the default (spaceex) profile refuses model m (the crowd laws export in
 * the exact profile only) with a message naming `where` (file:line) and `what`; frees m. */
void test_export_refuses(sw_model *m, const char *where, const char *what);

/** The thread-count scene of the crowd-law suites (tests/law_util.c): 24 agents of radius 0.2 m on a
 * ring of the given radius, each running `law` (an element such as "<ttc/>") to the antipode,
 * with <run run_attrs/>, on `threads` threads.  Returns the agents' final states (malloc'd,
 * *len bytes) and the smallest agent-agent clearance of the run in *worst. */
double *test_ring_run(const char *law, double radius, const char *run_attrs, int threads,
		      size_t *len, double *worst);

/* The export suites' fixtures and builders (tests/test_export.c), used by
 * tests/test_export_flows.c: two GLM agents with dynamic weights that do not perceive each other, and the scenario files
 * every profile is checked on. */
extern const char *const test_export_plain_xml;
#define TEST_EXPORT_N_FILES 5
extern const char *const test_export_files[TEST_EXPORT_N_FILES];
/** The scenario text xml loaded as mem.xml (the test fails, printing the diagnostics, when
 * refused). */
sw_model *test_export_load(const char *xml);
/** The scenario file at path loaded (the test fails when refused). */
sw_model *test_export_load_file(const char *path);
/** m exported in profile p (the test fails when refused); the caller frees it. */
sw_hybrid *test_export_build(const sw_model *m, sw_export_profile p);
/** m exported in profile p with the linear abstraction (the test fails when refused). */
sw_hybrid *test_export_build_linear(const sw_model *m, sw_export_profile p);
/** Bounds of input variable v in the invariant of location l of c ((-inf, inf) when absent). */
void test_export_input_bounds(const sw_hcomponent *c, int l, int v, double *lo, double *hi);

/* The crowd suites' run records (tests/test_crowd.c), used by tests/test_crowd_index.c. */
/** Everything a world exposes about its units after a run. */
typedef struct {
	int nu;
	double *y;   /* concatenated unit states */
	size_t ny;
	int *mode;
	sw_agent_metrics *mt;
	int n_ev;
	double ev_t[256], ev_x[256];
	int ev_u[256], ev_to[256];
	int status;
} test_outcome;
/** A run of m to its end on `threads` threads, with the fast path on or off; events recorded. */
test_outcome test_outcome_run(const sw_model *m, int threads, int fast);
/** Frees what test_outcome_run allocated in o. */
void test_outcome_free(test_outcome *o);
/** Checks bit-for-bit equality of two outcomes (states, modes, metrics of n_agents, events). */
void test_assert_same(const test_outcome *a, const test_outcome *b, int n_agents);

/** Fails the test unless |a - b| <= tol, printing both values. */
#define ck_close(a, b, tol)                                                                        \
	ck_assert_msg(fabs((a) - (b)) <= (tol), "%s = %.17g, expected %.17g (tol %.3g)", #a,       \
		      (double)(a), (double)(b), (double)(tol))

/* The steering suites' random scenes (tests/test_steer.c), used by tests/test_steer_fw_pf.c. */
#define TEST_STEER_N_RANDOM 2000
/** a wrapped to (-pi, pi], written independently of the library (fmod, not remainder). */
double test_ref_wrap(double a);
/** A random situation and the percepts it points to. */
typedef struct {
	sw_situation s;
	sw_percept obs[16];
} test_scene;
/** A random situation for GLM parameters p: discs and wall points around the agent, built from
 * world geometry so that dist, clearance and (dx, dy) are consistent. */
void test_random_scene(gsl_rng *r, const sw_glm_params *p, test_scene *sc);

/** Directory of test fixtures (tests/data), relative to the repository root. */
#define SW_TEST_DATA "tests/data"

/** The <header> of the small SteerSuite test cases of the SteerSuite suites: a 40 m square world
 * (tests/law_util.c). */
extern const char *const TEST_SS_HEAD;

/** Imports TEST_SS_HEAD + body + the closing tag, named case.xml, with def (NULL: the defaults);
 * the model into *m, the scenario text into *xml when xml is not NULL, diagnostics into d. */
int test_ss_import(const char *body, const sw_steersuite_def *def, sw_model **m, char **xml,
		   sw_diag *d);

/** test_ss_import() with the default import settings and the given seed, which must succeed
 * (prints the diagnostics when it does not; tests/test_steersuite.c). */
void test_ss_import_ok(const char *body, uint64_t seed, sw_model **m, char **xml);

/** An <agent> on one line into buf (n bytes): position (x, z), direction (dx, dz), radius r,
 * initial speed v, goals (the inside of <goalSequence>); returns buf
 * (tests/test_steersuite_run.c). */
char *test_ss_agent(char *buf, size_t n, const char *name, double x, double z, double dx,
		    double dz, double r, double v, const char *goals);

#endif
