/* tests/test_io_automata.c - the automaton reader and the scenario additions that use automata
 * (behaviours, regions, signals, bindings, groups): every shipped automaton loads, fields land in
 * the compiled automaton and the model, and every error path (one fixture each, in tests/data/
 * and tests/data/automata/) reports file:line:column and a sentence saying what was expected.
 * Expression errors are reported by sw_automaton_compile (model/automaton.c) at the positions
 * the reader stores: these tests check the whole path, to the exact column. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/io_internal.h"
#include "model/automaton_impl.h"
#include "swerve/io.h"
#include "tests.h"

#define AUTOMATA "automata"
#define FIX SW_TEST_DATA "/automata"

static void dump(const sw_diag *d)
{
	for (int i = 0; i < d->count; i++) {
		char buf[SW_DIAG_MSG + SW_DIAG_FILE + 64];
		sw_diag_format(d, i, buf, sizeof buf);
		fprintf(stderr, "  %s\n", buf);
	}
}

/* Index of the first error in file (NULL: any) at line:column (column < 0: any) containing
 * phrase, or -1. */
static int find_error(const sw_diag *d, const char *file, int line, int column, const char *phrase)
{
	for (int i = 0; i < d->count; i++) {
		const sw_diag_entry *e = &d->entry[i];
		if (e->severity == SW_SEV_ERROR && (!file || strcmp(e->file, file) == 0) &&
		    e->line == line && (column < 0 || e->column == column) &&
		    strstr(e->message, phrase))
			return i;
	}
	return -1;
}

/* Loads an automaton fixture that must fail with an error at line:column containing phrase. */
static void expect_automaton_error(const char *path, int line, int column, const char *phrase)
{
	sw_automaton *a = (sw_automaton *)&a; /* must be reset to NULL */
	sw_diag d;
	sw_diag_init(&d);
	int st = sw_automaton_load(path, &a, &d);
	int k = find_error(&d, path, line, column, phrase);
	if (k < 0)
		dump(&d);
	ck_assert_int_eq(st, SW_EINPUT);
	ck_assert_ptr_null(a);
	ck_assert_msg(k >= 0, "%s: no error at %d:%d containing '%s'", path, line, column, phrase);
}

/* The same for a scenario fixture; file: the file the error must cite (NULL: the scenario). */
static void expect_scenario_error(const char *path, const char *file, int line, int column,
				  const char *phrase)
{
	sw_model *m = (sw_model *)&m;
	sw_diag d;
	sw_diag_init(&d);
	int st = sw_scenario_load(path, &m, &d);
	int k = find_error(&d, file ? file : path, line, column, phrase);
	if (k < 0)
		dump(&d);
	ck_assert_int_eq(st, SW_EINPUT);
	ck_assert_ptr_null(m);
	ck_assert_msg(k >= 0, "%s: no error in %s at %d:%d containing '%s'", path,
		      file ? file : path, line, column, phrase);
}

static sw_automaton *load_ok(const char *path)
{
	sw_automaton *a = NULL;
	sw_diag d;
	sw_diag_init(&d);
	int st = sw_automaton_load(path, &a, &d);
	if (st != SW_SUCCESS)
		dump(&d);
	ck_assert_int_eq(st, SW_SUCCESS);
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(d.count, 0);
	return a;
}

static sw_automaton *load_memory_ok(const char *doc)
{
	sw_automaton *a = NULL;
	sw_diag d;
	sw_diag_init(&d);
	int st = sw_automaton_load_memory(doc, strlen(doc), "inline", &a, &d);
	if (st != SW_SUCCESS)
		dump(&d);
	ck_assert_int_eq(st, SW_SUCCESS);
	return a;
}

/* Checks transition k: source and target mode names, label (NULL none) and printed guard. */
static void check_transition(const sw_automaton *a, int k, const char *from, const char *to,
			     const char *label, const char *guard)
{
	int f = -1, t = -1;
	const char *l = NULL;
	char g[256];
	sw_automaton_transition(a, k, &f, &t, &l, g, sizeof g);
	ck_assert_str_eq(sw_automaton_mode_name(a, f), from);
	ck_assert_str_eq(sw_automaton_mode_name(a, t), to);
	if (label)
		ck_assert_str_eq(l, label);
	else
		ck_assert_ptr_null(l);
	ck_assert_str_eq(g, guard);
}

/* --- the shipped automata ------------------------------------------------------------------ */

START_TEST(test_seek_loads)
{
	sw_automaton *a = load_ok(AUTOMATA "/seek.xml");
	ck_assert_str_eq(sw_automaton_name(a), "seek");
	ck_assert_int_eq(sw_automaton_is_signal(a), 0);
	ck_assert_int_eq(sw_automaton_n_modes(a), 2);
	ck_assert_str_eq(sw_automaton_mode_name(a, 0), "go");
	ck_assert_str_eq(sw_automaton_mode_name(a, 1), "arrived");
	ck_assert_int_eq(sw_automaton_initial(a), 0);
	ck_assert_int_eq(sw_automaton_n_transitions(a), 1);
	check_transition(a, 0, "go", "arrived", "arrive", "dist(goal) <= radius");
	ck_assert_int_eq(a->modes[0].moves, 1);
	ck_assert_int_eq(a->modes[0].steer.law, SW_LAW_GLM);
	ck_assert_int_eq(a->modes[0].steer.glm.arrive, 1);
	ck_assert_int_eq(a->modes[0].target_param, 0);
	ck_assert_int_eq(a->modes[1].moves, 0);
	ck_assert_int_eq(a->n_params, 2);
	ck_assert_int_eq(a->params[0].kind, SW_PARAM_TARGET);
	ck_assert_int_eq(a->params[0].has_default, 0);
	ck_assert_int_eq(a->params[1].kind, SW_PARAM_REAL);
	ck_assert_int_eq(a->params[1].has_default, 1);
	ck_assert_double_eq(a->params[1].def_value, 0.5);
	sw_automaton_free(a);
}
END_TEST

START_TEST(test_patrol_loads)
{
	sw_automaton *a = load_ok(AUTOMATA "/patrol.xml");
	ck_assert_str_eq(sw_automaton_name(a), "patrol");
	ck_assert_int_eq(sw_automaton_n_modes(a), 4);
	ck_assert_int_eq(sw_automaton_n_transitions(a), 4);
	check_transition(a, 0, "to_wp1", "to_wp2", "reach_wp1", "dist(wp1) <= radius");
	check_transition(a, 1, "to_wp2", "to_wp3", "reach_wp2", "dist(wp2) <= radius");
	check_transition(a, 2, "to_wp3", "to_wp4", "reach_wp3", "dist(wp3) <= radius");
	check_transition(a, 3, "to_wp4", "to_wp1", "reach_wp4", "dist(wp4) <= radius");
	for (int m = 0; m < 4; m++)
		ck_assert_int_eq(a->modes[m].target_param, m); /* wp1..wp4 are params 0..3 */
	ck_assert_int_eq(a->n_vars, 1);
	ck_assert_int_eq(a->vars[0].kind, SW_VAR_INT);
	ck_assert_int_eq(a->trans[3].n_resets, 1);
	sw_automaton_free(a);
}
END_TEST

START_TEST(test_traffic_light_loads)
{
	sw_automaton *a = load_ok(AUTOMATA "/traffic_light.xml");
	ck_assert_str_eq(sw_automaton_name(a), "traffic_light");
	ck_assert_int_eq(sw_automaton_is_signal(a), 1);
	ck_assert_int_eq(sw_automaton_n_modes(a), 3);
	ck_assert_int_eq(sw_automaton_initial(a), 0);
	check_transition(a, 0, "cars_green", "cars_amber", "to_amber", "c >= green");
	check_transition(a, 1, "cars_amber", "cars_red_walk", "to_red", "c >= amber");
	check_transition(a, 2, "cars_red_walk", "cars_green", "to_green", "c >= red");
	double phases[3] = {20, 3, 20};
	for (int j = 0; j < 3; j++) {
		ck_assert(a->params[j].has_default);
		ck_assert_double_eq(a->params[j].def_value, phases[j]);
	}
	ck_assert_int_eq(a->vars[0].kind, SW_VAR_CLOCK);
	for (int m = 0; m < 3; m++) {
		ck_assert_int_eq(a->modes[m].moves, 0);
		ck_assert_ptr_nonnull(a->modes[m].invariant);
		ck_assert_int_eq(a->trans[m].n_resets, 1);
	}
	sw_automaton_free(a);
}
END_TEST

START_TEST(test_street_crossing_loads)
{
	sw_automaton *a = load_ok(AUTOMATA "/street_crossing.xml");
	ck_assert_str_eq(sw_automaton_name(a), "street_crossing");
	ck_assert_int_eq(sw_automaton_n_modes(a), 5);
	ck_assert_int_eq(sw_automaton_n_transitions(a), 4);
	check_transition(a, 0, "to_corner", "wait", "at_kerb", "dist(corner) <= radius");
	check_transition(a, 1, "wait", "cross", "walk_light", "in(light, cars_red_walk)");
	check_transition(a, 2, "cross", "walk_on", "crossed", "dist(far_corner) <= radius");
	check_transition(a, 3, "walk_on", "done", "arrive", "dist(destination) <= radius");
	ck_assert_int_eq(a->modes[1].moves, 0);      /* waits standing */
	ck_assert_ptr_nonnull(a->modes[1].flows[0]); /* waited' = 1 */
	ck_assert_int_eq(a->params[3].kind, SW_PARAM_SIGNAL);
	ck_assert_double_eq_tol(a->modes[2].steer.glm.v_max, 1.4, 1e-12);
	sw_automaton_free(a);
}
END_TEST

/* --- fields --------------------------------------------------------------------------------- */

START_TEST(test_every_declaration_lands)
{
	sw_automaton *a = load_ok(FIX "/kinds.xml");
	ck_assert_int_eq(a->n_params, 6);
	static const sw_param_kind kinds[] = {SW_PARAM_TARGET, SW_PARAM_REGION, SW_PARAM_OBSTACLE,
					      SW_PARAM_SIGNAL, SW_PARAM_AGENT,  SW_PARAM_REAL};
	for (int j = 0; j < 6; j++)
		ck_assert_int_eq(a->params[j].kind, kinds[j]);
	ck_assert_str_eq(a->params[0].def_name, "exit");
	ck_assert_double_eq(a->params[5].def_value, -0.25);
	ck_assert_int_eq(a->n_vars, 5);
	static const sw_var_kind vk[] = {SW_VAR_REAL, SW_VAR_INT, SW_VAR_ENUM, SW_VAR_CLOCK,
					 SW_VAR_BOOL};
	static const double init[] = {10.5, -3, 1 /* amber */, 1, 1};
	for (int k = 0; k < 5; k++) {
		ck_assert_int_eq(a->vars[k].kind, vk[k]);
		ck_assert_double_eq(a->vars[k].init, init[k]);
	}
	ck_assert_int_eq(a->n_labels, 3);
	/* modes: the second one is initial; laws with and without target */
	ck_assert_int_eq(sw_automaton_initial(a), 1);
	ck_assert_int_eq(a->modes[0].moves, 0);
	ck_assert_int_eq(a->modes[1].steer.law, SW_LAW_FW);
	ck_assert_double_eq(a->modes[1].steer.fw.speed, 1.25);
	ck_assert_int_eq(a->modes[1].target_param, 4);
	ck_assert_ptr_nonnull(a->modes[1].flows[0]);
	ck_assert_ptr_nonnull(a->modes[1].invariant);
	ck_assert_int_eq(a->modes[2].steer.law, SW_LAW_PF);
	ck_assert_double_eq(a->modes[2].steer.pf.kp, 2);
	ck_assert_int_eq(a->modes[2].target_param, -1);
	ck_assert_int_eq(a->modes[3].steer.law, SW_LAW_WALL);
	ck_assert_int_eq(a->modes[3].steer.wall.side, -1);
	ck_assert_double_eq(a->modes[3].steer.wall.distance, 0.75);
	ck_assert_int_eq(a->modes[3].target_param, 0);
	/* transitions in document order, guard attribute and multi-line <guard> element */
	ck_assert_int_eq(sw_automaton_n_transitions(a), 3);
	check_transition(a, 0, "chase", "idle", "empty", "fuel <= 0 or inside(zone)");
	check_transition(a, 1, "chase", "flee", NULL, "dist(post) < 1 and in(lamp, red_phase)");
	check_transition(a, 2, "flee", "chase", NULL, "dist(post) >= 3 and c >= 2");
	ck_assert_int_eq(a->trans[0].n_resets, 2);
	ck_assert_int_eq(a->trans[1].n_resets, 1);
	sw_automaton_free(a);
}
END_TEST

START_TEST(test_initial_defaults_to_the_first_mode)
{
	sw_automaton *a = load_memory_ok("<automaton name='m'><mode name='a'/><mode name='b'/>"
					 "</automaton>");
	ck_assert_int_eq(sw_automaton_initial(a), 0);
	ck_assert_int_eq(sw_automaton_n_transitions(a), 0);
	sw_automaton_free(a);
	a = load_memory_ok("<automaton name='m'><mode name='a' initial='false'/>"
			   "<mode name='b' initial='true'/></automaton>");
	ck_assert_int_eq(sw_automaton_initial(a), 1);
	sw_automaton_free(a);
}
END_TEST

START_TEST(test_transition_without_guard_is_true)
{
	sw_automaton *a = load_memory_ok("<automaton name='m'>\n"
					 "  <var name='n' kind='int'/>\n"
					 "  <mode name='a'><transition to='b'/></mode>\n"
					 "  <mode name='b'>"
					 "<transition to='a' guard='time_in_mode ge 1'>"
					 "<reset var='n'>n + 1</reset></transition></mode>\n"
					 "</automaton>");
	check_transition(a, 0, "a", "b", NULL, "true");
	check_transition(a, 1, "b", "a", NULL, "time_in_mode >= 1");
	sw_automaton_free(a);
}
END_TEST

/* --- positions ------------------------------------------------------------------------------ */

/* Loads doc from memory; it must fail with an error at line:column containing phrase. */
static void expect_memory_error(const char *doc, int line, int column, const char *phrase)
{
	sw_automaton *a = NULL;
	sw_diag d;
	sw_diag_init(&d);
	int st = sw_automaton_load_memory(doc, strlen(doc), "mem.xml", &a, &d);
	int k = find_error(&d, "mem.xml", line, column, phrase);
	if (k < 0)
		dump(&d);
	ck_assert_int_eq(st, SW_EINPUT);
	ck_assert_ptr_null(a);
	ck_assert_msg(k >= 0, "no error at %d:%d containing '%s'", line, column, phrase);
}

START_TEST(test_guard_attribute_error_has_exact_column)
{
	/* The guard's unknown variable 'waitd' starts at line 7, column 54 (after "&gt;"). */
	expect_automaton_error(FIX "/bad_undeclared_var.xml", 7, 54, "unknown variable 'waitd'");
	/* Attributes on several lines, single quotes, tabs. */
	expect_memory_error("<automaton name='m'>\n"
			    "<mode name='a'>\n"
			    "  <transition\n"
			    "\tto='a'\n"
			    "\tguard = 'x gt 1 and\n"
			    "     y lt zz'/>\n"
			    "</mode></automaton>\n",
			    6, 11, "unknown variable 'zz'");
	/* Character references before the error keep the columns of the file. */
	expect_memory_error(
	    "<automaton name='m'><mode name='a'>"
	    "<transition to='a' guard='x &lt; 1 &amp;&amp; y &gt;= 2 &amp;&amp; q'/>"
	    "</mode></automaton>",
	    1, 103, "unknown variable 'q'");
	/* Two elements on one line: each guard is found in its own start tag. */
	expect_memory_error("<automaton name='m'><mode name='a'><transition to='a' guard='x gt 1'/>"
			    "<transition to='a' guard='bogus'/></mode></automaton>",
			    1, 97, "unknown variable 'bogus'");
}
END_TEST

START_TEST(test_element_text_error_has_exact_column)
{
	expect_automaton_error(FIX "/bad_type_error.xml", 8, 9,
			       "expected a condition (a boolean expression), got a number");
	expect_automaton_error(FIX "/bad_malformed_expr.xml", 5, 38, "expected an expression");
	/* Comments and CDATA inside the text keep the columns of the file. */
	expect_memory_error("<automaton name='m'>\n"
			    "<var name='v'/>\n"
			    "<mode name='a'>\n"
			    "  <flow var='v'><!-- rate\n"
			    "  --> 2 * <![CDATA[ (x < 1 ? ]]></flow>\n"
			    "</mode></automaton>\n",
			    5, 28, "unexpected character '?'");
	expect_memory_error("<automaton name='m'>\n"
			    "<mode name='a'>\n"
			    "  <invariant>x lt 1 and\n"
			    "    y &lt;\n"
			    "    nope</invariant>\n"
			    "</mode></automaton>\n",
			    5, 5, "unknown variable 'nope'");
	expect_memory_error("<automaton name='m'>\n"
			    "<var name='n' kind='int'/>\n"
			    "<mode name='a'><transition to='a' guard='t ge 1'>\r\n"
			    "  <reset var='n'>n +\r\n"
			    "     unknown</reset></transition>\n"
			    "</mode></automaton>\n",
			    5, 6, "unknown variable 'unknown'");
}
END_TEST

START_TEST(test_positions_in_large_and_converted_documents)
{
	/* 300 KB before the automaton: libxml2 discards consumed input as it goes. */
	size_t pad = 300000;
	const char *tail = "\n<automaton name='m'>\n<mode name='a'>\n"
			   "<transition to='a' guard='t ge 1 and late'/>\n</mode></automaton>\n";
	char *doc = malloc(pad + strlen(tail) + 16);
	ck_assert_ptr_nonnull(doc);
	strcpy(doc, "<!--");
	memset(doc + 4, 'x', pad);
	strcpy(doc + 4 + pad, "-->");
	strcat(doc, tail);
	expect_memory_error(doc, 4, 38, "unknown variable 'late'");
	free(doc);
	/* A document libxml2 converts (Latin-1): lines are right, columns count from the start of
	 * the expression text (documented). */
	expect_memory_error("<?xml version='1.0' encoding='ISO-8859-1'?>\n"
			    "<automaton name='m'>\n<mode name='a'>\n"
			    "<transition to='a' guard='t ge 1 and late'/>\n</mode></automaton>\n",
			    4, 12, "unknown variable 'late'");
}
END_TEST

/* --- error fixtures --------------------------------------------------------------------------- */

START_TEST(test_unknown_mode_in_to)
{
	expect_automaton_error(FIX "/bad_unknown_mode.xml", 6, -1,
			       "transition goes to 'arived', which is not a mode");
}
END_TEST

START_TEST(test_two_initial_modes)
{
	expect_automaton_error(
	    FIX "/bad_two_initial.xml", 5, -1,
	    "mode 'c' is marked initial, but so is the mode on line 3; expected at "
	    "most one initial mode");
}
END_TEST

START_TEST(test_law_in_signal_automaton)
{
	expect_automaton_error(
	    FIX "/bad_signal_law.xml", 4, -1,
	    "<glm> in mode 'on' of signal automaton 'walking_light': signals do not "
	    "move; expected no steering law");
}
END_TEST

START_TEST(test_unknown_attribute_in_automaton)
{
	expect_automaton_error(FIX "/bad_unknown_attribute.xml", 4, -1,
			       "unknown attribute speed on <mode>; expected name, initial, arrival or ghost");
}
END_TEST

START_TEST(test_declaration_checks)
{
	const char *f = FIX "/bad_names.xml";
	expect_automaton_error(f, 3, 16, "parameter name 'if' is a reserved word");
	expect_automaton_error(f, 4, 14, "variable name 'speed' is already a built-in name");
	expect_automaton_error(f, 5, 65,
			       "init of enum variable 'colour': 'blue' is not one of its "
			       "labels");
	expect_automaton_error(f, 6, 40, "attribute labels of <var> is only for kind=\"enum\"");
	expect_automaton_error(f, 7, 36,
			       "init of bool variable 'ok': 'maybe' is not true or false");
	expect_memory_error("<automaton name='m'><mode name='a'><transition to='a' guard='true'>"
			    "<guard>false</guard></transition></mode></automaton>",
			    1, -1, "both a guard attribute and a <guard> element");
	expect_memory_error("<automaton name='sig' kind='signal'>\n<param name='p'/>\n"
			    "<mode name='a'/></automaton>",
			    2, 14, "parameter 'p' of signal automaton 'sig' has no default");
	expect_memory_error("<automaton name='m'>\n<mode name='a'>\n<flow var='v'>1</flow>\n"
			    "<glm/>\n</mode></automaton>",
			    4, -1, "the children of <mode> come in the order");
}
END_TEST

START_TEST(test_wrong_root_and_empty)
{
	expect_memory_error("<scenario><agent x='0' y='0'/></scenario>", 1, -1,
			    "this is a scenario file, not an automaton");
	expect_memory_error("<automaton name='m'/>", 1, -1, "has no <mode>");
	sw_automaton *a = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_automaton_load_memory("", 0, "e", &a, &d), SW_EINPUT);
	ck_assert_int_ge(find_error(&d, "e", 0, -1,
				    "the document is empty; expected a <automaton> root element"),
			 0);
	ck_assert_int_eq(sw_automaton_load_memory("x", 1, "e", NULL, &d), SW_EUSAGE);
	sw_diag_init(&d);
	ck_assert_int_eq(sw_automaton_load(FIX "/missing.xml", &a, &d), SW_EIO);
	ck_assert_ptr_null(a);
	sw_model *m = NULL;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load(AUTOMATA "/seek.xml", &m, &d), SW_EINPUT);
	ck_assert_int_ge(find_error(&d, AUTOMATA "/seek.xml", 11, -1,
				    "this is an automaton file, not a scenario"),
			 0);
}
END_TEST

START_TEST(test_schema_texts)
{
	const char *s = sw_automaton_schema();
	ck_assert_ptr_nonnull(strstr(s, "<grammar"));
	ck_assert_ptr_nonnull(strstr(s, "name=\"transition\""));
	/* The law elements of both schemas are written by the build from the laws' table
	 * (scripts/law_schema.c): this guards the splice (every law in both compiled texts, the
	 * same in both, each taking law-common); law-common differs, the automaton's adding
	 * target=. */
	static const char *const laws[] = {"glm", "fw", "potential", "wall", "ttc", "sf", "csm"};
	const char *texts[2] = {sw_scenario_schema(), sw_automaton_schema()};
	for (int k = 0; k < 7; k++) {
		char open[64];
		snprintf(open, sizeof open, "<define name=\"%s\">", laws[k]);
		char *body[2];
		for (int i = 0; i < 2; i++) {
			const char *b = strstr(texts[i], open);
			ck_assert_msg(b != NULL, "no <%s> in schema %d", laws[k], i);
			body[i] = strndup(b, (size_t)(strstr(b, "</define>") - b));
		}
		ck_assert_msg(strcmp(body[0], body[1]) == 0, "<%s> differs between the schemas",
			      laws[k]);
		ck_assert_ptr_nonnull(strstr(body[0], "<ref name=\"law-common\"/>"));
		free(body[0]);
		free(body[1]);
	}
	for (int i = 0; i < 2; i++) {
		const char *c = strstr(texts[i], "<define name=\"law-common\">");
		ck_assert_ptr_nonnull(c);
		const char *target = strstr(c, "<attribute name=\"target\">");
		const char *end = strstr(c, "</define>");
		ck_assert(i == 0 ? !target || target > end : target && target < end);
	}
}
END_TEST

START_TEST(test_root_kind)
{
	int kind = -1;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_xml_root_kind(AUTOMATA "/seek.xml", &kind, &d), SW_SUCCESS);
	ck_assert_int_eq(kind, SW_XML_AUTOMATON);
	ck_assert_int_eq(sw_xml_root_kind(SW_TEST_DATA "/crossing.xml", &kind, &d), SW_SUCCESS);
	ck_assert_int_eq(kind, SW_XML_SCENARIO);
	ck_assert_int_eq(sw_xml_root_kind(SW_TEST_DATA "/bad_dtd.xml", &kind, &d), SW_SUCCESS);
	ck_assert_int_eq(kind, SW_XML_UNKNOWN);
	ck_assert_int_eq(d.count, 0);
	ck_assert_int_eq(sw_xml_root_kind(SW_TEST_DATA "/nope.xml", &kind, &d), SW_EIO);
	ck_assert_int_ge(find_error(&d, SW_TEST_DATA "/nope.xml", 0, 0, "cannot open"), 0);
}
END_TEST

/* --- scenarios -------------------------------------------------------------------------------- */

static const sw_binding *binding(const sw_model *m, int agent, int param)
{
	return &m->bindings[m->agents[agent].binding_first + param];
}

START_TEST(test_crossing_scenario_lands_in_the_model)
{
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	int st = sw_scenario_load(SW_TEST_DATA "/crossing.xml", &m, &d);
	if (st != SW_SUCCESS)
		dump(&d);
	ck_assert_int_eq(st, SW_SUCCESS);
	ck_assert_int_eq(m->n_automata, 4);
	static const char *const names[] = {"traffic_light", "street_crossing", "seek", "loiter"};
	for (int k = 0; k < 4; k++)
		ck_assert_int_eq(sw_model_find_automaton(m, names[k]), k);
	ck_assert_int_eq(m->n_regions, 2);
	const sw_region *r = &m->regions[0];
	ck_assert_str_eq(r->name, "street");
	ck_assert_int_eq(r->count, 4);
	const sw_vec2 rect[4] = {{-20, -2.5}, {20, -2.5}, {20, 2.5}, {-20, 2.5}};
	for (int i = 0; i < 4; i++) {
		ck_assert_double_eq(m->points[r->first + i].x, rect[i].x);
		ck_assert_double_eq(m->points[r->first + i].y, rect[i].y);
	}
	ck_assert_int_eq(m->regions[1].count, 4);
	ck_assert_int_eq(m->n_signals, 1);
	ck_assert_str_eq(m->signals[0].name, "light");
	ck_assert_int_eq(m->signals[0].automaton, 0);

	ck_assert_int_eq(m->n_agents, 5);
	/* p1: the group's behaviour, bindings and personality */
	const sw_agent *a = &m->agents[0];
	ck_assert_int_eq(a->behaviour, 1);
	ck_assert_int_eq(a->personality.has_agility, 1);
	ck_assert_double_eq(a->personality.agility, 0.6);
	ck_assert_int_eq(binding(m, 0, 0)->index, sw_model_find_target(m, "south_corner"));
	ck_assert_int_eq(binding(m, 0, 1)->index, sw_model_find_target(m, "north_corner"));
	ck_assert_int_eq(binding(m, 0, 2)->index, sw_model_find_target(m, "shop"));
	ck_assert_int_eq(binding(m, 0, 3)->index, sw_model_find_signal(m, "light"));
	ck_assert_double_eq(binding(m, 0, 4)->value, 0.4); /* default */
	/* p2: its own binds replace the group's for destination and radius */
	ck_assert_int_eq(m->agents[1].behaviour, 1);
	ck_assert_int_eq(binding(m, 1, 0)->index, sw_model_find_target(m, "south_corner"));
	ck_assert_int_eq(binding(m, 1, 2)->index, sw_model_find_target(m, "bench"));
	ck_assert_double_eq(binding(m, 1, 4)->value, 0.3);
	/* p3: its own behaviour; no group bindings, the group's personality */
	ck_assert_int_eq(m->agents[2].behaviour, 2);
	ck_assert_int_eq(binding(m, 2, 0)->index, sw_model_find_target(m, "shop"));
	ck_assert_double_eq(binding(m, 2, 1)->value, 0.5);
	ck_assert_int_eq(m->agents[2].personality.has_agility, 1);
	/* the inline automaton, and an agent with a plain law */
	ck_assert_int_eq(m->agents[3].behaviour, 3);
	ck_assert_int_eq(m->agents[4].behaviour, -1);
	ck_assert_int_eq(m->agents[4].steer.law, SW_LAW_WALL);
	ck_assert_int_eq(m->agents[4].steer.wall.side, -1);
	ck_assert_double_eq(m->agents[4].steer.wall.distance, 0.8);
	ck_assert_int_eq(m->agents[4].target, sw_model_find_target(m, "shop"));
	sw_model_free(m);
}
END_TEST

START_TEST(test_memory_scenario_uses_paths_from_the_current_directory)
{
	static const char doc[] =
	    "<scenario>\n"
	    "  <behaviours><use file='automata/seek.xml'/></behaviours>\n"
	    "  <world><target name='t' x='5' y='0'/></world>\n"
	    "  <agent x='0' y='0' behaviour='seek'><bind param='goal' value='t'/>"
	    "</agent>\n"
	    "</scenario>\n";
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	int st = sw_scenario_load_memory(doc, strlen(doc), "mem", &m, &d);
	if (st != SW_SUCCESS)
		dump(&d);
	ck_assert_int_eq(st, SW_SUCCESS);
	ck_assert_int_eq(m->agents[0].behaviour, 0);
	sw_model_free(m);
}
END_TEST

START_TEST(test_unknown_behaviour)
{
	expect_scenario_error(SW_TEST_DATA "/bad_unknown_behaviour.xml", NULL, 9, -1,
			      "unknown behaviour 'seak'");
}
END_TEST

START_TEST(test_bind_unknown_param)
{
	expect_scenario_error(SW_TEST_DATA "/bad_bind_unknown_param.xml", NULL, 11, -1,
			      "behaviour 'seek' has no parameter 'raduis'");
}
END_TEST

START_TEST(test_missing_binding)
{
	expect_scenario_error(SW_TEST_DATA "/bad_missing_binding.xml", NULL, 9, -1,
			      "needs a value for parameter 'goal'");
}
END_TEST

START_TEST(test_error_inside_used_file_cites_that_file)
{
	const char *s = SW_TEST_DATA "/bad_use_error.xml";
	expect_scenario_error(s, SW_TEST_DATA "/automata/bad_undeclared_var.xml", 7, 54,
			      "unknown variable 'waitd'");
	expect_scenario_error(s, NULL, 6, -1,
			      "<use file=\"automata/no-such-file.xml\">: cannot open " SW_TEST_DATA
			      "/automata/no-such-file.xml: No such file");
	/* Sorted with the line of the <use> that loaded it: between lines 4 and 6. */
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	sw_scenario_load(s, &m, &d);
	ck_assert_int_eq(d.count, 2);
	ck_assert_str_eq(d.entry[0].file, SW_TEST_DATA "/automata/bad_undeclared_var.xml");
	ck_assert_str_eq(d.entry[1].file, s);
}
END_TEST

START_TEST(test_law_and_behaviour_conflicts)
{
	const char *s = SW_TEST_DATA "/bad_law_and_behaviour.xml";
	expect_scenario_error(s, NULL, 9, -1,
			      "attribute target of <agent> does not apply to an "
			      "agent that runs behaviour 'seek'");
	expect_scenario_error(s, NULL, 10, -1,
			      "<glm> in an agent that runs behaviour 'seek': the "
			      "behaviour's modes choose the law");
	expect_scenario_error(s, NULL, 15, -1, "its <group> (line 13) gives it <fw>");
	expect_scenario_error(s, NULL, 19, -1, "<bind> in an agent without a behaviour");
}
END_TEST

START_TEST(test_region_shapes)
{
	const char *s = SW_TEST_DATA "/bad_region.xml";
	expect_scenario_error(s, NULL, 4, -1, "rectangle needs all of x1, y1, x2 and y2 (got 3");
	expect_scenario_error(s, NULL, 5, -1, "both rectangle corners (x1 y1 x2 y2) and <vertex>");
	expect_scenario_error(s, NULL, 8, -1, "<region> has 2 <vertex>; expected at least 3");
}
END_TEST

/* A signal's position needs both x and y, each a number; errors at the attribute's value. */
START_TEST(test_signal_position)
{
	const char *s = SW_TEST_DATA "/bad_signal_position.xml";
	expect_scenario_error(s, NULL, 5, 54, "<signal> position needs both x and y (got only x)");
	expect_scenario_error(s, NULL, 6, 60, "attribute y of <signal>: 'north' is not a number");
}
END_TEST

START_TEST(test_inline_automaton_errors_cite_the_scenario)
{
	static const char doc[] =
	    "<scenario>\n"
	    "  <behaviours>\n"
	    "    <automaton name='a'>\n"
	    "      <mode name='m' colour='red'>\n"
	    "        <transition to='m' guard='nope'/>\n"
	    "      </mode>\n"
	    "    </automaton>\n"
	    "    <automaton name='b'>\n"
	    "      <mode name='m'><transition to='m' guard='t ge 1 and nix'/></mode>\n"
	    "    </automaton>\n"
	    "  </behaviours>\n"
	    "  <agent x='0' y='0'/>\n"
	    "</scenario>\n";
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory(doc, strlen(doc), "inline.xml", &m, &d),
			 SW_EINPUT);
	ck_assert_ptr_null(m);
	if (find_error(&d, "inline.xml", 4, -1, "unknown attribute colour on <mode>") < 0 ||
	    find_error(&d, "inline.xml", 9, 59, "unknown variable 'nix'") < 0)
		dump(&d);
	ck_assert_int_ge(find_error(&d, "inline.xml", 4, -1, "unknown attribute colour on <mode>"),
			 0);
	ck_assert_int_ge(find_error(&d, "inline.xml", 9, 59, "unknown variable 'nix'"), 0);
}
END_TEST

static void *load_repeatedly(void *arg)
{
	int *ok = arg;
	for (int i = 0; i < 4; i++) {
		sw_model *m = NULL;
		sw_diag d;
		sw_diag_init(&d);
		if (sw_scenario_load(SW_TEST_DATA "/crossing.xml", &m, &d) == SW_SUCCESS && m &&
		    m->n_automata == 4)
			(*ok)++;
		sw_model_free(m);
		sw_diag_init(&d);
		if (sw_scenario_load(SW_TEST_DATA "/bad_use_error.xml", &m, &d) == SW_EINPUT &&
		    find_error(&d, SW_TEST_DATA "/automata/bad_undeclared_var.xml", 7, 54,
			       "waitd") >= 0)
			(*ok)++;
	}
	return NULL;
}

START_TEST(test_concurrent_loads_with_behaviours)
{
	enum { N = 4 };
	pthread_t th[N];
	int ok[N] = {0};
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, load_repeatedly, &ok[i]), 0);
	for (int i = 0; i < N; i++) {
		pthread_join(th[i], NULL);
		ck_assert_int_eq(ok[i], 8);
	}
}
END_TEST

Suite *io_automata_suite(void)
{
	Suite *s = suite_create("io_automata");
	TCase *tc = tcase_create("automata");
	tcase_add_test(tc, test_seek_loads);
	tcase_add_test(tc, test_patrol_loads);
	tcase_add_test(tc, test_traffic_light_loads);
	tcase_add_test(tc, test_street_crossing_loads);
	tcase_add_test(tc, test_every_declaration_lands);
	tcase_add_test(tc, test_initial_defaults_to_the_first_mode);
	tcase_add_test(tc, test_transition_without_guard_is_true);
	tcase_add_test(tc, test_guard_attribute_error_has_exact_column);
	tcase_add_test(tc, test_element_text_error_has_exact_column);
	tcase_add_test(tc, test_positions_in_large_and_converted_documents);
	tcase_add_test(tc, test_unknown_mode_in_to);
	tcase_add_test(tc, test_two_initial_modes);
	tcase_add_test(tc, test_law_in_signal_automaton);
	tcase_add_test(tc, test_unknown_attribute_in_automaton);
	tcase_add_test(tc, test_declaration_checks);
	tcase_add_test(tc, test_wrong_root_and_empty);
	tcase_add_test(tc, test_schema_texts);
	tcase_add_test(tc, test_root_kind);
	suite_add_tcase(s, tc);
	TCase *ts = tcase_create("scenario_behaviours");
	tcase_add_test(ts, test_crossing_scenario_lands_in_the_model);
	tcase_add_test(ts, test_memory_scenario_uses_paths_from_the_current_directory);
	tcase_add_test(ts, test_unknown_behaviour);
	tcase_add_test(ts, test_bind_unknown_param);
	tcase_add_test(ts, test_missing_binding);
	tcase_add_test(ts, test_error_inside_used_file_cites_that_file);
	tcase_add_test(ts, test_law_and_behaviour_conflicts);
	tcase_add_test(ts, test_region_shapes);
	tcase_add_test(ts, test_signal_position);
	tcase_add_test(ts, test_inline_automaton_errors_cite_the_scenario);
	tcase_add_test(ts, test_concurrent_loads_with_behaviours);
	suite_add_tcase(s, ts);
	return s;
}
