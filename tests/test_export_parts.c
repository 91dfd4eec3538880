/* tests/test_export_parts.c - independent systems of an export (export/split.c): agents that
 * cannot perceive each other become one network each, with the signals they read and their own
 * unsafe sets; agents that perceive each other stay one product. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swerve/export.h"
#include "swerve/io.h"
#include "tests.h"

static sw_hybrid *build_mem(const char *xml, sw_model **m)
{
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory(xml, strlen(xml), "mem.xml", m, &d), SW_SUCCESS);
	sw_export_def def = sw_default_export_def();
	def.profile = SW_PROFILE_HYST;
	sw_hybrid *h = NULL;
	ck_assert_int_eq(sw_hybrid_build(*m, &def, &h, &d), SW_SUCCESS);
	return h;
}

/* Two FW walkers, blind to each other, each with its pillar; optionally a light both read
 * through a guard (automata/traffic_light.xml has no agent in it). */
static const char two_xml[] =
    "<scenario name='two'><run duration='4' step='0.05' agents-perceive='%s'/>"
    "<world><target name='g1' x='8' y='0'/><target name='g2' x='0' y='8'/>"
    "<disc name='p1' x='4' y='1.5' radius='0.3'/><disc name='p2' x='-1.5' y='4' radius='0.3'/>"
    "</world>"
    "<agent name='a' x='0' y='0' heading='0' target='g1'><fw speed='1'/></agent>"
    "<agent name='b' x='0' y='0.5' heading='90deg' target='g2'><fw speed='1'/></agent>"
    "</scenario>";

START_TEST(test_blind_agents_export_as_independent_systems)
{
	char xml[2048];
	snprintf(xml, sizeof xml, two_xml, "false");
	sw_model *m = NULL;
	sw_hybrid *h = build_mem(xml, &m);
	sw_hybrid **parts = NULL;
	int n = 0;
	ck_assert_int_eq(sw_hybrid_parts(h, &parts, &n), SW_SUCCESS);
	ck_assert_int_eq(n, 2);
	int sets = 0;
	for (int p = 0; p < n; p++) {
		const sw_hybrid *v = parts[p];
		ck_assert_int_eq(v->n_instances, 1);
		const char *agent = v->instances[0].name;
		char want[160];
		snprintf(want, sizeof want, "two__%s", agent);
		ck_assert_str_eq(v->name, want);
		/* its own variables only, and unsafe sets of its own agent (one per pillar) */
		for (int k = 0; k < v->n_netvars; k++)
			ck_assert_msg(strncmp(v->netvars[k], agent, strlen(agent)) == 0 &&
					  v->netvars[k][strlen(agent)] == '_',
				      "%s holds %s", v->name, v->netvars[k]);
		ck_assert_int_eq(v->n_forbidden, 2);
		for (int k = 0; k < v->n_forbidden; k++) {
			ck_assert(strncmp(v->forbidden[k].name, agent, strlen(agent)) == 0);
			char text[512];
			ck_assert_int_lt(sw_hybrid_print_expr(v->forbidden[k].set, text, sizeof text),
					 (int)sizeof text);
			ck_assert_msg(strstr(text, agent) != NULL, "%s", text);
		}
		sets += v->n_forbidden;
		char *doc = NULL;
		size_t len = 0;
		ck_assert_int_eq(sw_hybrid_spaceex_xml(v, &doc, &len), SW_SUCCESS);
		ck_assert_int_eq(sw_spaceex_validate(doc, len, v->name, NULL), SW_SUCCESS);
		free(doc);
	}
	ck_assert_int_eq(sets, h->n_forbidden);
	sw_hybrid_parts_free(parts, n);
	sw_hybrid_free(h);
	sw_model_free(m);

	/* perceiving each other: one product, no parts */
	snprintf(xml, sizeof xml, two_xml, "true");
	h = build_mem(xml, &m);
	ck_assert_int_eq(sw_hybrid_parts(h, &parts, &n), SW_SUCCESS);
	ck_assert_int_eq(n, 0);
	ck_assert_ptr_null(parts);
	sw_hybrid_free(h);
	sw_model_free(m);
}
END_TEST

/* A light read by two blind pedestrians goes into both systems. */
START_TEST(test_signal_read_by_both_is_in_both_systems)
{
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load("tests/verify/light_crossing.xml", &m, &d), SW_SUCCESS);
	sw_export_def def = sw_default_export_def();
	def.profile = SW_PROFILE_HYST;
	sw_hybrid *h = NULL;
	ck_assert_int_eq(sw_hybrid_build(m, &def, &h, &d), SW_SUCCESS);
	sw_hybrid **parts = NULL;
	int n = 0;
	ck_assert_int_eq(sw_hybrid_parts(h, &parts, &n), SW_SUCCESS);
	ck_assert_int_eq(n, 2);
	for (int p = 0; p < n; p++) {
		int agents = 0, signals = 0;
		for (int i = 0; i < parts[p]->n_instances; i++) {
			agents += parts[p]->instances[i].agent >= 0;
			signals += parts[p]->instances[i].signal >= 0;
		}
		ck_assert_int_eq(agents, 1);
		ck_assert_int_eq(signals, 1);
		char *doc = NULL;
		size_t len = 0;
		ck_assert_int_eq(sw_hybrid_spaceex_xml(parts[p], &doc, &len), SW_SUCCESS);
		ck_assert_int_eq(sw_spaceex_validate(doc, len, parts[p]->name, NULL), SW_SUCCESS);
		free(doc);
	}
	sw_hybrid_parts_free(parts, n);
	sw_hybrid_free(h);
	sw_model_free(m);
}
END_TEST

Suite *export_parts_suite(void)
{
	Suite *s = suite_create("export_parts");
	TCase *tc = tcase_create("export_parts");
	tcase_add_test(tc, test_blind_agents_export_as_independent_systems);
	tcase_add_test(tc, test_signal_read_by_both_is_in_both_systems);
	suite_add_tcase(s, tc);
	return s;
}
