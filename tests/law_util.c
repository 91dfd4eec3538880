/* tests/law_util.c - what the crowd-law suites (test_ttc.c, test_sf.c, test_csm.c) share: a
 * scenario text with one blank filled in, and the thread-count scene (24 agents on a ring swap
 * places through its centre); and what the SteerSuite suites (test_steersuite.c,
 * test_steersuite_emit.c) share: a small test case imported from memory. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swerve/export.h"
#include "swerve/io.h"
#include "swerve/sim.h"
#include "tests.h"

sw_model *test_load_filled(const char *fmt, const char *fill, const char *name, sw_diag *d)
{
	char buf[8192];
	snprintf(buf, sizeof buf, fmt, fill);
	sw_model *m = NULL;
	sw_diag_init(d);
	if (sw_scenario_load_memory(buf, strlen(buf), name, &m, d) != SW_SUCCESS)
		return NULL;
	return m;
}

void test_export_refuses(sw_model *m, const char *where, const char *what)
{
	ck_assert_ptr_nonnull(m);
	sw_export_def def = sw_default_export_def();
	sw_hybrid *h = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_hybrid_build(m, &def, &h, &d), SW_EINPUT);
	ck_assert_ptr_null(h);
	char msg[800];
	sw_diag_format(&d, 0, msg, sizeof msg);
	ck_assert_msg(strstr(msg, where) && strstr(msg, what), "got '%s'", msg);
	sw_model_free(m);
}

double *test_ring_run(const char *law, double radius, const char *run_attrs, int threads,
		      size_t *len, double *worst)
{
	char *buf = malloc(1 << 16);
	size_t n = (size_t)sprintf(buf, "<scenario name=\"ring\"><run %s/><world>", run_attrs);
	for (int i = 0; i < 24; i++)
		n += (size_t)sprintf(buf + n, "<target name=\"t%d\" x=\"%.6f\" y=\"%.6f\"/>", i,
				     -radius * cos(2 * M_PI * i / 24), -radius * sin(2 * M_PI * i / 24));
	n += (size_t)sprintf(buf + n, "</world>");
	for (int i = 0; i < 24; i++)
		n += (size_t)sprintf(buf + n,
				     "<agent name=\"a%d\" x=\"%.6f\" y=\"%.6f\" heading=\"%.6f\" "
				     "radius=\"0.2\" target=\"t%d\">%s</agent>",
				     i, radius * cos(2 * M_PI * i / 24), radius * sin(2 * M_PI * i / 24),
				     2 * M_PI * i / 24 + M_PI, i, law);
	n += (size_t)sprintf(buf + n, "</scenario>");
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory(buf, n, "ring.xml", &m, &d), SW_SUCCESS);
	free(buf);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_world_set_threads(w, threads), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, &d), SW_SUCCESS);
	double *y = malloc(24 * SW_STATE_DIM * sizeof *y);
	*worst = INFINITY;
	for (int i = 0; i < 24; i++) {
		sw_agent_state s;
		sw_world_agent(w, i, &s);
		memcpy(y + i * SW_STATE_DIM, s.y, sizeof s.y);
		*worst = fmin(*worst, sw_world_metrics(w, i)->min_agent_clearance);
	}
	*len = 24 * SW_STATE_DIM * sizeof *y;
	sw_world_destroy(w);
	sw_model_free(m);
	return y;
}

const char *const TEST_SS_HEAD =
    "<?xml version=\"1.0\"?>\n"
    "<SteerBenchTestCase xmlns=\"http://www.magix.ucla.edu/steerbench\">\n"
    "<header><version>1.0</version><name>t</name>\n"
    "<worldBounds><xmin>-20</xmin><xmax>20</xmax><ymin>0</ymin><ymax>0</ymax><zmin>-20</zmin>"
    "<zmax>20</zmax></worldBounds></header>\n";

int test_ss_import(const char *body, const sw_steersuite_def *def, sw_model **m, char **xml,
		   sw_diag *d)
{
	size_t n = strlen(TEST_SS_HEAD) + strlen(body) + 32;
	char *buf = malloc(n);
	ck_assert_ptr_nonnull(buf);
	snprintf(buf, n, "%s%s</SteerBenchTestCase>\n", TEST_SS_HEAD, body);
	sw_steersuite_def dd = def ? *def : sw_default_steersuite_def();
	sw_diag_init(d);
	int st = sw_steersuite_import_memory(buf, strlen(buf), "case.xml", &dd, xml, NULL, m, d);
	free(buf);
	return st;
}
