/* tests/tests.h - the Check suites of swerve, one per module plus scenario-level suites. */
#ifndef SWERVE_TESTS_H
#define SWERVE_TESTS_H

#include <check.h>
#include <stddef.h>

#include "swerve/core.h"
#include "swerve/io.h"
#include "swerve/model.h"

Suite *core_suite(void);
Suite *geom_suite(void);
Suite *expr_suite(void);
Suite *steer_suite(void);
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
Suite *export_glm_suite(void);
Suite *export_parts_suite(void);
Suite *interval_suite(void);
Suite *analyze_suite(void);
Suite *plot_suite(void);
Suite *crowd_suite(void);
Suite *sensing_suite(void);
Suite *steersuite_suite(void);
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

/** Directory of test fixtures (tests/data), relative to the repository root. */
#define SW_TEST_DATA "tests/data"

/** The <header> of the small SteerSuite test cases of the SteerSuite suites: a 40 m square world
 * (tests/law_util.c). */
extern const char *const TEST_SS_HEAD;

/** Imports TEST_SS_HEAD + body + the closing tag, named case.xml, with def (NULL: the defaults);
 * the model into *m, the scenario text into *xml when xml is not NULL, diagnostics into d. */
int test_ss_import(const char *body, const sw_steersuite_def *def, sw_model **m, char **xml,
		   sw_diag *d);

#endif
