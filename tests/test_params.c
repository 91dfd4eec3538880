/* tests/test_params.c - the laws' parameter tables (steer/params.c) against what a user reads and
 * what the reader and the model do with them:
 *   - docs/scenario-format.md has, in each law's section, a row for every parameter with the
 *     table's default, and no row for a parameter the table lacks;
 *   - every parameter with a check is read from its attribute and refused out of range with a
 *     message naming "<element> <attribute>" (the reader's and the model's tables are the same);
 *   - the compiled schemas hold every law element with exactly its table's attributes (asked of
 *     the schemas alone, with libxml2's RELAX NG validator). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/relaxng.h>

#include "steer/steer_internal.h"
#include "swerve/core.h"
#include "swerve/io.h"
#include "swerve/steer.h"
#include "tests.h"

/* docs/scenario-format.md, read whole (NUL-terminated, malloc'd). */
static char *read_doc(void)
{
	FILE *f = fopen("docs/scenario-format.md", "rb");
	ck_assert_ptr_nonnull(f);
	char *buf = malloc(1 << 20);
	ck_assert_ptr_nonnull(buf);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* The section of element el ("### `<el>`" up to the next "### "), NUL-terminated in place. */
static char *section(char *doc, const char *el)
{
	char head[64];
	snprintf(head, sizeof head, "\n### `<%s>`", el);
	char *at = strstr(doc, head);
	ck_assert_msg(at != NULL, "docs/scenario-format.md has no section for <%s>", el);
	at += 1;
	char *end = strstr(at + 4, "\n### ");
	if (end)
		*end = '\0';
	return at;
}

/* The default cell of the row of attribute name in sec (the third cell), or NULL. */
static const char *default_cell(const char *sec, const char *name, char *cell, size_t n)
{
	char key[64];
	snprintf(key, sizeof key, "\n| `%s` |", name);
	const char *row = strstr(sec, key);
	if (!row)
		return NULL;
	const char *c = strchr(row + strlen(key), '|'); /* after the kind */
	if (!c)
		return NULL;
	c++;
	const char *e = strchr(c, '|');
	size_t len = e ? (size_t)(e - c) : strlen(c);
	if (len >= n)
		len = n - 1;
	memcpy(cell, c, len);
	cell[len] = '\0';
	return cell;
}

START_TEST(every_parameter_is_documented_with_its_default)
{
	char *doc = read_doc();
	for (int l = 0; l < SW__N_LAWS; l++) {
		const sw__law_table *t = sw__law_table_of((sw_law)l);
		char *copy = strdup(doc);
		const char *sec = section(copy, t->element);
		for (int k = 0; k < t->n; k++) {
			const sw__law_param *q = &t->p[k];
			char cell[128], want[64];
			ck_assert_msg(default_cell(sec, q->name, cell, sizeof cell) != NULL,
				      "<%s> %s: no row in docs/scenario-format.md", t->element, q->name);
			const char *tick = strchr(cell, '`');
			ck_assert_msg(tick != NULL, "<%s> %s: no default in its row", t->element,
				      q->name);
			switch (q->type) {
			case SW__P_NUM:
			case SW__P_ANGLE: {
				double v = strtod(tick + 1, NULL);
				ck_assert_msg(v == q->def, "<%s> %s: documented default %g, table %g",
					      t->element, q->name, v, q->def);
				continue;
			}
			case SW__P_BOOL: snprintf(want, sizeof want, "`%s`", q->def ? "true" : "false"); break;
			case SW__P_CHOICE: snprintf(want, sizeof want, "`%s`", q->choices[(int)q->def]); break;
			case SW__P_SIDE: snprintf(want, sizeof want, "`%s`", q->def > 0 ? "right" : "left"); break;
			}
			ck_assert_msg(strncmp(tick, want, strlen(want)) == 0,
				      "<%s> %s: documented default %s, table %s", t->element, q->name,
				      cell, want);
		}
		/* and no documented attribute that the table lacks (besides the common ones) */
		for (const char *r = strstr(sec, "\n| `"); r; r = strstr(r + 1, "\n| `")) {
			char name[64];
			if (sscanf(r, "\n| `%63[^`]`", name) != 1)
				continue;
			int known = strcmp(name, "target") == 0 || strcmp(name, "field") == 0 ||
				    strcmp(name, "lookahead") == 0 || strcmp(name, "corners") == 0;
			for (int k = 0; k < t->n && !known; k++)
				known = strcmp(t->p[k].name, name) == 0;
			ck_assert_msg(known, "<%s>: docs/scenario-format.md documents `%s`, which the "
					     "law's table lacks", t->element, name);
		}
		free(copy);
	}
	free(doc);
}
END_TEST

/* A scenario with one agent whose law element is %s. */
static const char *const one_agent =
    "<scenario name=\"p\"><world><target name=\"t\" x=\"5\" y=\"0\"/></world>"
    "<agent name=\"a\" x=\"0\" y=\"0\" target=\"t\">%s</agent></scenario>";

/* A value outside what check accepts (NULL: none). */
static const char *bad_value(sw__param_check check)
{
	switch (check) {
	case SW__CK_FINITE: return NULL; /* the reader refuses INF itself */
	case SW__CK_POS: return "0";
	case SW__CK_NONNEG: return "-1";
	case SW__CK_UNIT: return "2";
	case SW__CK_SPEED: return "16";
	case SW__CK_PI: return "4";
	default: return NULL; /* choices, booleans and sides: refused by the reader */
	}
}

START_TEST(every_checked_parameter_is_read_and_refused_out_of_range)
{
	int tried = 0;
	for (int l = 0; l < SW__N_LAWS; l++) {
		const sw__law_table *t = sw__law_table_of((sw_law)l);
		for (int k = 0; k < t->n; k++) {
			const sw__law_param *q = &t->p[k];
			const char *v = bad_value(q->check);
			if (!v)
				continue;
			char law[128], field[64];
			snprintf(law, sizeof law, "<%s %s=\"%s\"/>", t->element, q->name, v);
			snprintf(field, sizeof field, "%s %s", t->element, q->name);
			sw_diag d;
			sw_diag_init(&d);
			sw_model *m = test_load_filled(one_agent, law, "p.xml", &d);
			ck_assert_msg(m == NULL, "%s=%s accepted", field, v);
			int named = 0;
			for (int e = 0; e < d.count; e++)
				named |= strstr(d.entry[e].message, field) != NULL;
			ck_assert_msg(named, "%s=%s refused without naming %s (%s)", field, v, field,
				      d.count ? d.entry[0].message : "no message");
			tried++;
		}
	}
	ck_assert_int_ge(tried, 50);
}
END_TEST

/* A valid value of q as its attribute's text (the default). */
static void valid_value(const sw__law_param *q, char *buf, size_t n)
{
	switch (q->type) {
	case SW__P_NUM:
	case SW__P_ANGLE: snprintf(buf, n, "%.17g", q->def); break;
	case SW__P_BOOL: snprintf(buf, n, "%s", q->def ? "true" : "false"); break;
	case SW__P_CHOICE: snprintf(buf, n, "%s", q->choices[(int)q->def]); break;
	case SW__P_SIDE: snprintf(buf, n, "%s", q->def > 0 ? "right" : "left"); break;
	}
}

/* Law element t with every attribute of its table (and lookahead= where it takes a field, and
 * extra, may be ""), into buf. */
static void full_element(const sw__law_table *t, const char *extra, char *buf, size_t n)
{
	size_t at = (size_t)snprintf(buf, n, "<%s", t->element);
	for (int k = 0; k < t->n && at < n; k++) {
		char v[64];
		valid_value(&t->p[k], v, sizeof v);
		at += (size_t)snprintf(buf + at, n - at, " %s=\"%s\"", t->p[k].name, v);
	}
	if (at < n && !(t->flags & SW__LAW_NO_FIELD))
		at += (size_t)snprintf(buf + at, n - at, " lookahead=\"0.5\"");
	if (at < n)
		snprintf(buf + at, n - at, "%s/>", extra);
}

static void quiet(void *ctx, const char *msg, ...)
{
	(void)ctx, (void)msg;
}

/* 1 when doc is valid against the RELAX NG schema text (the schema alone, not the reader). */
static int schema_accepts(const char *schema, const char *doc)
{
	xmlRelaxNGParserCtxtPtr pc = xmlRelaxNGNewMemParserCtxt(schema, (int)strlen(schema));
	xmlRelaxNGPtr rng = xmlRelaxNGParse(pc);
	xmlRelaxNGFreeParserCtxt(pc);
	ck_assert_ptr_nonnull(rng);
	xmlRelaxNGValidCtxtPtr vc = xmlRelaxNGNewValidCtxt(rng);
	xmlRelaxNGSetValidErrors(vc, quiet, quiet, NULL);
	xmlDocPtr d = xmlReadMemory(doc, (int)strlen(doc), "t.xml", NULL, XML_PARSE_NONET);
	ck_assert_ptr_nonnull(d);
	int ok = xmlRelaxNGValidateDoc(vc, d) == 0;
	xmlFreeDoc(d);
	xmlRelaxNGFreeValidCtxt(vc);
	xmlRelaxNGFree(rng);
	return ok;
}

/* The schemas' law elements are written from the table at build time (scripts/law_schema.c):
 * each law element with every attribute its rows name passes the compiled scenario and automaton
 * schemas (and loads), and an attribute no row names is refused by the schemas themselves (the
 * reader's attribute tables would refuse it too, so they are asked apart). */
START_TEST(every_law_element_of_the_table_is_in_both_schemas)
{
	static const char *const automaton =
	    "<automaton name=\"w\"><param name=\"goal\" kind=\"target\"/>"
	    "<mode name=\"go\" initial=\"true\">%s</mode></automaton>";
	for (int l = 0; l < SW__N_LAWS; l++) {
		const sw__law_table *t = sw__law_table_of((sw_law)l);
		char law[2048], doc[4096];
		full_element(t, "", law, sizeof law);
		sw_diag d;
		sw_diag_init(&d);
		sw_model *m = test_load_filled(one_agent, law, "p.xml", &d);
		ck_assert_msg(m != NULL, "scenario refuses %s: %s", law,
			      d.count ? d.entry[0].message : "no message");
		sw_model_free(m);

		full_element(t, " target=\"goal\"", law, sizeof law);
		snprintf(doc, sizeof doc, automaton, law);
		sw_diag_init(&d);
		sw_automaton *a = NULL;
		int st = sw_automaton_load_memory(doc, strlen(doc), "w.xml", &a, &d);
		ck_assert_msg(st == SW_SUCCESS, "automaton refuses %s: %s", law,
			      d.count ? d.entry[0].message : "no message");
		sw_automaton_free(a);

		/* the schemas alone: the full element, and one attribute more */
		const struct {
			const char *schema, *wrap, *extra;
			int valid;
		} ask[] = {
		    {sw_scenario_schema(), one_agent, "", 1},
		    {sw_scenario_schema(), one_agent, " no-such-parameter=\"1\"", 0},
		    {sw_automaton_schema(), automaton, " target=\"goal\"", 1},
		    {sw_automaton_schema(), automaton, " target=\"goal\" no-such-parameter=\"1\"", 0},
		};
		for (int q = 0; q < 4; q++) {
			full_element(t, ask[q].extra, law, sizeof law);
			snprintf(doc, sizeof doc, ask[q].wrap, law);
			ck_assert_msg(schema_accepts(ask[q].schema, doc) == ask[q].valid,
				      "the schema %s %s", ask[q].valid ? "refuses" : "accepts", law);
		}
	}
}
END_TEST

Suite *params_suite(void)
{
	Suite *s = suite_create("params");
	TCase *tc = tcase_create("tables");
	tcase_add_test(tc, every_parameter_is_documented_with_its_default);
	tcase_add_test(tc, every_checked_parameter_is_read_and_refused_out_of_range);
	tcase_add_test(tc, every_law_element_of_the_table_is_in_both_schemas);
	suite_add_tcase(s, tc);
	return s;
}
