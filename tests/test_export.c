/* tests/test_export.c - the hybrid-automaton export (src/export): schema validity, structure of
 * the SpaceEx files, determinism, the report of approximations, the written files, the linear
 * abstraction and the tool profiles' invariants; the exported flows against the native side are
 * in tests/test_export_flows.c.  The fixtures and builders both use are declared in tests.h. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "swerve/export.h"
#include "swerve/io.h"
#include "swerve/sim.h"
#include "tests.h"

/* ---- fixtures --------------------------------------------------------------------------- */

/* Two GLM agents with dynamic weights and no noise, three discs, one target each; agents do not
 * perceive each other (so the native synchronous stepping is exactly the coupled ODE). */
const char *const test_export_plain_xml =
    "<scenario name='plain'>"
    "<run duration='5' step='0.05' integrator='rk8pd' rtol='1e-12' atol='1e-12' "
    "agents-perceive='false'/>"
    "<world>"
    "<target name='g1' x='30' y='1' radius='0.4'/>"
    "<target name='g2' x='-30' y='2' radius='0.4'/>"
    "<disc name='d1' x='3' y='0.4' radius='0.5'/>"
    "<disc name='d2' x='-3' y='2.5' radius='0.6'/>"
    "<disc name='d3' x='5' y='-2' radius='0.3'/>"
    "</world>"
    "<agent name='a1' x='0' y='0' heading='10deg' target='g1'>"
    "<glm weights='dynamic' sigma='0' d0='2'/></agent>"
    "<agent name='a2' x='0' y='2' heading='170deg' target='g2'>"
    "<glm weights='dynamic' sigma='0' d0='2'/></agent>"
    "</scenario>";

/* An automaton whose guards use visible() and a non-convex region. */
static const char *approx_xml =
    "<scenario name='approx'>"
    "<run duration='10' step='0.1'/>"
    "<behaviours><automaton name='peek'>"
    "<param name='goal' kind='target'/><param name='zone' kind='region'/>"
    "<param name='box' kind='region'/>"
    "<mode name='look' initial='true'><glm target='goal'/>"
    "<transition to='go' guard='visible(goal) and dist(goal) lt 3'/>"
    "<transition to='stop' guard='inside(zone)'/>"
    "<transition to='stop' guard='inside(box) or time_in_mode ge 4'/></mode>"
    "<mode name='go'><glm target='goal'/>"
    "<transition to='stop' guard='dist(goal) le 0.5'/></mode>"
    "<mode name='stop'/>"
    "</automaton></behaviours>"
    "<world>"
    "<target name='g' x='8' y='0'/>"
    "<disc name='pillar' x='4' y='0.3' radius='0.5'/>"
    "<segment name='wall' x1='2' y1='-3' x2='6' y2='-3'/>"
    "<region name='ell'><vertex x='5' y='-1'/><vertex x='7' y='-1'/><vertex x='7' y='1'/>"
    "<vertex x='6' y='1'/><vertex x='6' y='0'/><vertex x='5' y='0'/></region>"
    "<region name='sq' x1='-1' y1='5' x2='1' y2='7'/>"
    "</world>"
    "<agent name='p' x='0' y='0' behaviour='peek'>"
    "<bind param='goal' value='g'/><bind param='zone' value='ell'/>"
    "<bind param='box' value='sq'/></agent>"
    "</scenario>";

sw_model *test_export_load(const char *xml)
{
	sw_diag d;
	sw_diag_init(&d);
	sw_model *m = NULL;
	int st = sw_scenario_load_memory(xml, strlen(xml), "mem.xml", &m, &d);
	if (st != SW_SUCCESS) {
		char buf[800];
		for (int i = 0; i < d.count; i++) {
			sw_diag_format(&d, i, buf, sizeof buf);
			fprintf(stderr, "%s\n", buf);
		}
	}
	ck_assert_int_eq(st, SW_SUCCESS);
	return m;
}

sw_model *test_export_load_file(const char *path)
{
	sw_diag d;
	sw_diag_init(&d);
	sw_model *m = NULL;
	ck_assert_msg(sw_scenario_load(path, &m, &d) == SW_SUCCESS, "cannot load %s", path);
	return m;
}

sw_hybrid *test_export_build(const sw_model *m, sw_export_profile p)
{
	sw_export_def def = sw_default_export_def();
	def.profile = p;
	sw_diag d;
	sw_diag_init(&d);
	sw_hybrid *h = NULL;
	int st = sw_hybrid_build(m, &def, &h, &d);
	if (st != SW_SUCCESS && d.count) {
		char buf[800];
		sw_diag_format(&d, 0, buf, sizeof buf);
		fprintf(stderr, "%s\n", buf);
	}
	ck_assert_int_eq(st, SW_SUCCESS);
	return h;
}

const char *const test_export_files[TEST_EXPORT_N_FILES] = {
    "models/glm_barrier.xml", "models/seek_room.xml", "models/fw_two_obstacles.xml",
    "tests/data/crossing.xml", "models/glm_moving_target.xml"};

/* ---- schema ----------------------------------------------------------------------------- */

START_TEST(test_spaceex_exports_validate_against_schema)
{
	for (int f = 0; f < TEST_EXPORT_N_FILES + 1; f++) {
		sw_model *m = f < TEST_EXPORT_N_FILES ? test_export_load_file(test_export_files[f])
						      : test_export_load(approx_xml);
		for (int p = SW_PROFILE_SPACEEX; p < SW_PROFILE_COUNT; p++) {
			sw_hybrid *h = test_export_build(m, (sw_export_profile)p);
			char *xml = NULL;
			size_t len = 0;
			ck_assert_int_eq(sw_hybrid_spaceex_xml(h, &xml, &len), SW_SUCCESS);
			sw_diag d;
			sw_diag_init(&d);
			ck_assert_msg(sw_spaceex_validate(xml, len, "export.xml", &d) == SW_SUCCESS,
				      "%s (%s): %s", f < TEST_EXPORT_N_FILES ? test_export_files[f] : "approx",
				      sw_export_profile_name((sw_export_profile)p),
				      d.count ? d.entry[0].message : "");
			free(xml);
			sw_hybrid_free(h);
		}
		sw_model_free(m);
	}
}
END_TEST

START_TEST(test_schema_rejects_what_the_profile_forbids)
{
	static const char *head = "<?xml version='1.0'?><sspaceex "
				  "xmlns='http://www-verimag.imag.fr/xml-namespaces/sspaceex' "
				  "version='0.2' math='SpaceEx'>";
	static const char *param = "<param name='x' type='real' local='false' d1='1' d2='1' "
				   "dynamics='any' controlled='true'/>";
	static const char *bodies[] = {
	    /* asap transition */
	    "<component id='c'>%s<location id='1' name='a'><flow>x' == 1</flow></location>"
	    "<transition source='1' target='1' asap='true'><assignment>x' == x</assignment>"
	    "</transition></component>",
	    /* location without flow */
	    "<component id='c'>%s<location id='1' name='a'/></component>",
	    /* a note inside a component */
	    "<component id='c'><note>n</note>%s<location id='1' name='a'><flow>x' == 1</flow>"
	    "</location></component>",
	    /* disjunction in a guard */
	    "<component id='c'>%s<location id='1' name='a'><flow>x' == 1</flow></location>"
	    "<transition source='1' target='1'><guard>x &lt;= 1 | x &gt;= 2</guard>"
	    "<assignment>x' == x</assignment></transition></component>",
	    /* a param without controlled */
	    "<component id='c'><param name='x' type='real' local='false' d1='1' d2='1' "
	    "dynamics='any'/><location id='1' name='a'><flow>x' == 1</flow></location>"
	    "</component>%s",
	    /* a location name that is not an identifier */
	    "<component id='c'>%s<location id='1' name='a-b'><flow>x' == 1</flow></location>"
	    "</component>",
	};
	char doc[2048], body[1024];
	for (size_t k = 0; k < sizeof bodies / sizeof bodies[0]; k++) {
		snprintf(body, sizeof body, bodies[k], param);
		snprintf(doc, sizeof doc, "%s%s</sspaceex>", head, body);
		sw_diag d;
		sw_diag_init(&d);
		ck_assert_msg(sw_spaceex_validate(doc, strlen(doc), "bad.xml", &d) == SW_EINPUT,
			      "case %zu accepted", k);
	}
	/* and the same minimal document without the faults passes */
	snprintf(doc, sizeof doc,
		 "%s<component id='c'>%s<location id='1' name='a'><flow>x' == 1</flow></location>"
		 "</component></sspaceex>",
		 head, param);
	ck_assert_int_eq(sw_spaceex_validate(doc, strlen(doc), "ok.xml", NULL), SW_SUCCESS);
}
END_TEST

/* ---- structure of the XML ------------------------------------------------------------- */

static char *prop(xmlNodePtr n, const char *name)
{
	return (char *)xmlGetProp(n, BAD_CAST name);
}

static int is_elem(xmlNodePtr n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

typedef struct {
	char name[128];
	int local, controlled, label;
} xparam;

typedef struct {
	char id[128];
	int n;
	xparam p[128];
} xcomp;

/* Every identifier in expression text must be a param of the component or a profile function. */
static void check_names(const char *text, const xcomp *c, const char *where)
{
	static const char *fn[] = {"sin", "cos", "tan", "exp", "sqrt"};
	for (const char *s = text; *s;) {
		if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) {
			while (isdigit((unsigned char)*s) || *s == '.')
				s++;
			if (*s == 'e' || *s == 'E') {
				s++;
				if (*s == '+' || *s == '-')
					s++;
				while (isdigit((unsigned char)*s))
					s++;
			}
			continue;
		}
		if (isalpha((unsigned char)*s) || *s == '_') {
			char id[128];
			int k = 0;
			while ((isalnum((unsigned char)*s) || *s == '_') && k < 127)
				id[k++] = *s++;
			id[k] = '\0';
			int ok = 0;
			for (size_t f = 0; f < 5; f++)
				ok |= strcmp(id, fn[f]) == 0 && *s == '(';
			for (int p = 0; p < c->n; p++)
				ok |= !c->p[p].label && strcmp(id, c->p[p].name) == 0;
			ck_assert_msg(ok, "%s: unknown name '%s' in '%s'", where, id, text);
			continue;
		}
		ck_assert_msg(*s != '|' && *s != '!', "%s: '%c' outside the profile", where, *s);
		s++;
	}
}

/* "v' == ..." terms joined by " & ": the primed names, in order, must be the controlled params
 * (flow and assignment expressions contain no conjunction of their own). */
static void check_primed(const char *text, const xcomp *c, const char *where)
{
	const char *s = text;
	int terms = 0;
	for (int p = 0; p < c->n; p++) {
		if (c->p[p].label || !c->p[p].controlled)
			continue;
		ck_assert_msg(s != NULL, "%s: too few terms in '%s'", where, text);
		size_t k = strlen(c->p[p].name);
		ck_assert_msg(strncmp(s, c->p[p].name, k) == 0 && strncmp(s + k, "' == ", 5) == 0,
			      "%s: expected %s' in order in '%s'", where, c->p[p].name, text);
		terms++;
		s = strstr(s, " & ");
		s = s ? s + 3 : NULL;
	}
	ck_assert_msg(s == NULL && terms > 0, "%s: extra terms in '%s'", where, text);
}

static void check_document(const char *xml, size_t len)
{
	xmlDocPtr doc = xmlReadMemory(xml, (int)len, "export.xml", NULL, XML_PARSE_NONET);
	ck_assert_ptr_nonnull(doc);
	static xcomp comps[32];
	int nc = 0, saw_system = 0;
	for (xmlNodePtr c = xmlDocGetRootElement(doc)->children; c; c = c->next) {
		if (!is_elem(c, "component"))
			continue;
		ck_assert_int_lt(nc, 32);
		xcomp *xc = &comps[nc++];
		memset(xc, 0, sizeof *xc);
		char *id = prop(c, "id");
		snprintf(xc->id, sizeof xc->id, "%s", id);
		ck_assert_msg(!saw_system, "component '%s' after system", id);
		saw_system = strcmp(id, "system") == 0;
		xmlFree(id);
		int next_id = 1;
		for (xmlNodePtr e = c->children; e; e = e->next) {
			if (is_elem(e, "param")) {
				xparam *p = &xc->p[xc->n++];
				char *a = prop(e, "name"), *t = prop(e, "type"), *l = prop(e, "local"),
				     *k = prop(e, "controlled");
				snprintf(p->name, sizeof p->name, "%s", a);
				p->label = strcmp(t, "label") == 0;
				p->local = strcmp(l, "true") == 0;
				p->controlled = k && strcmp(k, "true") == 0;
				xmlFree(a), xmlFree(t), xmlFree(l), xmlFree(k);
			} else if (is_elem(e, "location")) {
				char *lid = prop(e, "id");
				ck_assert_int_eq(atoi(lid), next_id++); /* ids 1..N in order */
				xmlFree(lid);
				int flows = 0;
				for (xmlNodePtr g = e->children; g; g = g->next) {
					if (g->type != XML_ELEMENT_NODE)
						continue;
					char *txt = (char *)xmlNodeGetContent(g);
					check_names(txt, xc, xc->id);
					if (is_elem(g, "flow")) {
						check_primed(txt, xc, xc->id);
						flows++;
					}
					xmlFree(txt);
				}
				ck_assert_int_eq(flows, 1);
			} else if (is_elem(e, "transition")) {
				for (xmlNodePtr g = e->children; g; g = g->next) {
					if (g->type != XML_ELEMENT_NODE || is_elem(g, "label"))
						continue;
					char *txt = (char *)xmlNodeGetContent(g);
					check_names(txt, xc, xc->id);
					if (is_elem(g, "assignment"))
						check_primed(txt, xc, xc->id);
					xmlFree(txt);
				}
			} else if (is_elem(e, "bind")) {
				char *cid = prop(e, "component");
				const xcomp *bound = NULL;
				for (int k = 0; k < nc - 1; k++)
					if (strcmp(comps[k].id, cid) == 0)
						bound = &comps[k];
				ck_assert_msg(bound != NULL, "bind of '%s' before its component", cid);
				xmlFree(cid);
				for (int k = 0; k < bound->n; k++) {
					int mapped = 0;
					for (xmlNodePtr g = e->children; g; g = g->next) {
						if (!is_elem(g, "map"))
							continue;
						char *key = prop(g, "key");
						mapped += strcmp(key, bound->p[k].name) == 0;
						xmlFree(key);
					}
					ck_assert_msg(mapped == !bound->p[k].local,
						      "param '%s' of '%s' mapped %d times", bound->p[k].name,
						      bound->id, mapped);
				}
			}
		}
	}
	ck_assert(saw_system);
	xmlFreeDoc(doc);
}

START_TEST(test_spaceex_structure_ids_maps_flow_order)
{
	for (int f = 0; f < TEST_EXPORT_N_FILES + 1; f++) {
		sw_model *m = f < TEST_EXPORT_N_FILES ? test_export_load_file(test_export_files[f])
						      : test_export_load(approx_xml);
		sw_hybrid *h = test_export_build(m, SW_PROFILE_HYST);
		char *xml = NULL;
		size_t len = 0;
		ck_assert_int_eq(sw_hybrid_spaceex_xml(h, &xml, &len), SW_SUCCESS);
		check_document(xml, len);
		/* the IR side: every flow tree present, resets for every state variable */
		for (int c = 0; c < h->n_components; c++) {
			const sw_hcomponent *cp = &h->components[c];
			for (int q = 0; q < cp->n_locations; q++)
				for (int k = 0; k < cp->n_state; k++)
					ck_assert_ptr_nonnull(cp->locations[q].flow[k]);
			for (int t = 0; t < cp->n_transitions; t++)
				for (int k = 0; k < cp->n_state; k++)
					ck_assert_ptr_nonnull(cp->transitions[t].reset[k]);
		}
		free(xml);
		sw_hybrid_free(h);
		sw_model_free(m);
	}
}
END_TEST

/* ---- determinism, report, files --------------------------------------------------------- */

static char *capture(const sw_hybrid *h, int what)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	ck_assert_ptr_nonnull(f);
	if (what == 0)
		sw_hybrid_spaceex_cfg(h, h->n_forbidden > 0 ? 0 : -1, f);
	else if (what == 1)
		sw_hybrid_json(h, f);
	else if (what == 2)
		sw_hybrid_dot(h, f);
	else
		sw_hybrid_report(h, SW_EXPORT_SPACEEX, f);
	fclose(f);
	return buf;
}

START_TEST(test_export_is_deterministic)
{
	sw_model *m = test_export_load_file("models/seek_room.xml");
	sw_hybrid *a = test_export_build(m, SW_PROFILE_SPACEEX),
		  *b = test_export_build(m, SW_PROFILE_SPACEEX);
	char *xa, *xb;
	size_t la, lb;
	ck_assert_int_eq(sw_hybrid_spaceex_xml(a, &xa, &la), SW_SUCCESS);
	ck_assert_int_eq(sw_hybrid_spaceex_xml(b, &xb, &lb), SW_SUCCESS);
	ck_assert_uint_eq(la, lb);
	ck_assert(memcmp(xa, xb, la) == 0);
	for (int k = 0; k < 4; k++) {
		char *ta = capture(a, k), *tb = capture(b, k);
		ck_assert_str_eq(ta, tb);
		free(ta);
		free(tb);
	}
	free(xa);
	free(xb);
	sw_hybrid_free(a);
	sw_hybrid_free(b);
	sw_model_free(m);
}
END_TEST

static int has_note(const sw_hybrid *h, const char *what, int sound)
{
	for (int k = 0; k < h->n_approx; k++)
		if (strstr(h->approx[k].what, what) && h->approx[k].sound == sound)
			return 1;
	return 0;
}

START_TEST(test_report_says_a_weight_stuck_at_zero)
{
	/* glm_barrier starts at the weights' fixed point (0, 1): w_tar = 0 stays 0 under (8) */
	sw_model *m = test_export_load_file("models/glm_barrier.xml");
	sw_hybrid *h = test_export_build(m, SW_PROFILE_HYST);
	ck_assert(has_note(h, "w_tar starts at 0", 0));
	ck_assert(!has_note(h, "w_obs starts at 0", 0));
	sw_hybrid_free(h);
	sw_model_free(m);
	/* pillar_aside starts with both weights positive */
	m = test_export_load_file("tests/verify/pillar_aside.xml");
	h = test_export_build(m, SW_PROFILE_HYST);
	ck_assert(!has_note(h, "starts at 0", 0));
	sw_hybrid_free(h);
	sw_model_free(m);
}
END_TEST

START_TEST(test_report_lists_overapproximations)
{
	sw_model *m = test_export_load(approx_xml);
	sw_hybrid *h = test_export_build(m, SW_PROFILE_SPACEEX);
	ck_assert(has_note(h, "visible(goal)", 1));
	ck_assert(has_note(h, "not convex", 1));
	ck_assert(has_note(h, "urgency dropped", 1));
	ck_assert(has_note(h, "heading rate", 1));
	ck_assert(has_note(h, "outgoing transitions", 1));
	/* the convex region became half-planes, the `or` two transitions */
	const sw_hcomponent *c = &h->components[h->instances[0].component];
	int from_look = 0;
	for (int t = 0; t < c->n_transitions; t++)
		from_look += c->transitions[t].source == 0;
	ck_assert_int_eq(from_look, 4);
	char *r = capture(h, 3), *j = capture(h, 1);
	ck_assert_ptr_nonnull(strstr(r, "visible(goal)"));
	ck_assert_ptr_nonnull(strstr(r, "not convex"));
	ck_assert_ptr_nonnull(strstr(j, "\"approximations\""));
	ck_assert_ptr_nonnull(strstr(j, "not convex"));
	free(r);
	free(j);
	sw_hybrid_free(h);
	sw_model_free(m);
}
END_TEST

START_TEST(test_initial_ranges_and_errors)
{
	sw_model *m = test_export_load(test_export_plain_xml);
	sw_export_range r[2] = {{"a1", "x", -0.5, 0.5}, {"a2", "heading", 3.0, 3.1}};
	sw_export_def def = sw_default_export_def();
	def.n_ranges = 2;
	def.ranges = r;
	sw_hybrid *h = NULL;
	ck_assert_int_eq(sw_hybrid_build(m, &def, &h, NULL), SW_SUCCESS);
	char *cfg = capture(h, 0);
	ck_assert_ptr_nonnull(strstr(cfg, "(-0.5)<=a1_x & a1_x<=0.5"));
	ck_assert_ptr_nonnull(strstr(cfg, "3<=a2_heading & a2_heading<=3.1"));
	ck_assert_ptr_nonnull(strstr(cfg, "loc(a1)==steer"));
	ck_assert_ptr_nonnull(strstr(cfg, "forbidden = "));
	free(cfg);
	sw_hybrid_free(h);
	sw_export_range bad = {"nobody", "x", 0, 1};
	def.n_ranges = 1;
	def.ranges = &bad;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_hybrid_build(m, &def, &h, &d), SW_EINPUT);
	ck_assert_ptr_null(h);
	ck_assert_ptr_nonnull(strstr(d.entry[0].message, "nobody"));
	def.n_ranges = 0;
	def.directions = "diagonal";
	ck_assert_int_eq(sw_hybrid_build(m, &def, &h, NULL), SW_EINPUT);
	sw_model_free(m);
}
END_TEST

START_TEST(test_write_creates_files_atomically)
{
	sw_model *m = test_export_load(test_export_plain_xml);
	sw_hybrid *h = test_export_build(m, SW_PROFILE_JULIAREACH);
	char dir[] = "/tmp/swerve_export_XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(sw_hybrid_write(h, SW_EXPORT_SPACEEX, dir, NULL), SW_SUCCESS);
	char path[512];
	/* a1 and a2 do not perceive each other: one system each (export/split.c) */
	const char *names[] = {"plain__a1.xml", "plain__a1.cfg", "report.txt",
			       "plain__a1.forbid-a1__d1.cfg"};
	for (int k = 0; k < 4; k++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[k]);
		ck_assert_msg(access(path, R_OK) == 0, "%s missing", path);
		unlink(path);
	}
	char cmd[600];
	snprintf(cmd, sizeof cmd, "ls -A %s | grep -c '^\\.' >/dev/null && exit 1; rm -rf %s", dir,
		 dir);
	ck_assert_int_eq(system(cmd), 0); /* no temporary file left */
	sw_hybrid *e = test_export_build(m, SW_PROFILE_EXACT);
	ck_assert_int_eq(sw_hybrid_write(e, SW_EXPORT_SPACEEX, dir, NULL), SW_EUSAGE);
	sw_hybrid_free(e);
	sw_hybrid_free(h);
	sw_model_free(m);
}
END_TEST

/* ---- linear abstraction ------------------------------------------------------------------ */

sw_hybrid *test_export_build_linear(const sw_model *m, sw_export_profile p)
{
	sw_export_def def = sw_default_export_def();
	def.profile = p;
	def.linear = 1;
	sw_diag d;
	sw_diag_init(&d);
	sw_hybrid *h = NULL;
	int st = sw_hybrid_build(m, &def, &h, &d);
	if (st != SW_SUCCESS && d.count)
		fprintf(stderr, "%s\n", d.entry[0].message);
	ck_assert_int_eq(st, SW_SUCCESS);
	return h;
}

/* Bounds of input variable v in the invariant of location l ((-inf, inf) when absent). */
void test_export_input_bounds(const sw_hcomponent *c, int l, int v, double *lo, double *hi)
{
	*lo = -INFINITY;
	*hi = INFINITY;
	const sw_expr_ast *stack[256];
	int sp = 0;
	if (c->locations[l].invariant)
		stack[sp++] = c->locations[l].invariant;
	while (sp) {
		const sw_expr_ast *a = stack[--sp];
		if (a->op == SW_EXPR_AND) {
			stack[sp++] = a->kid[0];
			stack[sp++] = a->kid[1];
			continue;
		}
		if ((a->op == SW_EXPR_GE || a->op == SW_EXPR_LE) && a->kid[0]->op == SW_EXPR_VAR &&
		    a->kid[0]->slot == v && a->kid[1]->op == SW_EXPR_NUM) {
			if (a->op == SW_EXPR_GE)
				*lo = fmax(*lo, a->kid[1]->value);
			else
				*hi = fmin(*hi, a->kid[1]->value);
		}
	}
}

START_TEST(test_linear_export_has_only_bounded_rate_flows)
{
	sw_model *m = test_export_load(test_export_plain_xml);
	sw_hybrid *h = test_export_build_linear(m, SW_PROFILE_SPACEEX);
	char *xml = NULL;
	size_t len = 0;
	ck_assert_int_eq(sw_hybrid_spaceex_xml(h, &xml, &len), SW_SUCCESS);
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_msg(sw_spaceex_validate(xml, len, "linear.xml", &d) == SW_SUCCESS, "%s",
		      d.count ? d.entry[0].message : "");
	check_document(xml, len);
	/* the printed flows are linear: no function at all */
	for (const char *p = xml; (p = strstr(p, "<flow>")) != NULL; p++) {
		const char *e = strstr(p, "</flow>");
		ck_assert_ptr_nonnull(e);
		char flow[4096];
		snprintf(flow, sizeof flow, "%.*s", (int)(e - p), p);
		ck_assert_msg(!strchr(flow, '(') && !strchr(flow, '^') && !strchr(flow, '*') &&
				  !strchr(flow, '/'),
			      "non-linear flow: %s", flow);
	}
	free(xml);
	ck_assert_int_eq(h->n_components, 2); /* the agents' regions differ */
	for (int ci = 0; ci < h->n_components; ci++) {
		const sw_hcomponent *c = &h->components[ci];
		for (int l = 0; l < c->n_locations; l++)
			for (int k = 0; k < c->n_state; k++) {
				const sw_expr_ast *f = c->locations[l].flow[k];
				if (f->op == SW_EXPR_NUM)
					continue;
				ck_assert_int_eq(f->op, SW_EXPR_VAR);
				ck_assert_int_eq(c->vars[f->slot].role, SW_HVAR_INPUT);
				double lo, hi;
				test_export_input_bounds(c, l, f->slot, &lo, &hi);
				/* a plain GLM agent: every rate has finite constant bounds */
				ck_assert_msg(isfinite(lo) && isfinite(hi) && lo <= hi,
					      "%s' in [%g, %g]", c->vars[k].name, lo, hi);
			}
		/* clocks stay exact */
		int tm = sw_hcomponent_find_var(c, "time_in_mode");
		ck_assert_int_eq(c->locations[0].flow[tm]->op, SW_EXPR_NUM);
		ck_assert(c->locations[0].flow[tm]->value == 1.0);
	}
	/* every abstraction is reported as an over-approximation, with the region */
	ck_assert(has_note(h, "linear abstraction: x' == rate_x", 1));
	ck_assert(has_note(h, "linear abstraction: heading' == rate_heading", 1));
	ck_assert(has_note(h, "w_tar, w_obs in [0, 1.000001] (invariant", 1));
	char *r = capture(h, 3);
	ck_assert_ptr_nonnull(strstr(r, "x, y within the start +- V T"));
	free(r);
	sw_hybrid_free(h);
	/* other scenarios and profiles still validate */
	for (int f = 0; f < TEST_EXPORT_N_FILES; f++) {
		sw_model *mf = test_export_load_file(test_export_files[f]);
		for (int p = SW_PROFILE_SPACEEX; p < SW_PROFILE_COUNT; p++) {
			sw_hybrid *hf = test_export_build_linear(mf, (sw_export_profile)p);
			ck_assert_int_eq(sw_hybrid_spaceex_xml(hf, &xml, &len), SW_SUCCESS);
			sw_diag_init(&d);
			ck_assert_msg(sw_spaceex_validate(xml, len, "linear.xml", &d) == SW_SUCCESS,
				      "%s: %s", test_export_files[f], d.count ? d.entry[0].message : "");
			ck_assert_ptr_null(strstr(xml, "sin("));
			ck_assert_ptr_null(strstr(xml, "cos("));
			free(xml);
			sw_hybrid_free(hf);
		}
		sw_model_free(mf);
	}
	sw_model_free(m);
}
END_TEST

/* ---- Flow*-friendly invariants (HyST, JuliaReach) ---------------------------------------- */

/* name relop number, the number possibly a parenthesised negative: "u >= (-8)". */
static int simple_conjunct(const char *s)
{
	if (!(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	while (isalnum((unsigned char)*s) || *s == '_')
		s++;
	static const char *rel[] = {" <= ", " >= ", " == ", " < ", " > "};
	size_t k = 0;
	for (int r = 0; r < 5 && !k; r++)
		if (strncmp(s, rel[r], strlen(rel[r])) == 0)
			k = strlen(rel[r]);
	if (!k)
		return 0;
	s += k;
	int paren = *s == '(';
	if (paren && s[1] != '-')
		return 0;
	s += paren ? 2 : 0;
	char *end;
	strtod(s, &end);
	if (end == s)
		return 0;
	s = end;
	if (paren && *s++ != ')')
		return 0;
	return *s == '\0';
}

static void check_simple_invariants(const char *xml, size_t len, const char *what)
{
	xmlDocPtr doc = xmlReadMemory(xml, (int)len, "export.xml", NULL, XML_PARSE_NONET);
	ck_assert_ptr_nonnull(doc);
	int n = 0;
	for (xmlNodePtr c = xmlDocGetRootElement(doc)->children; c; c = c->next)
		for (xmlNodePtr l = is_elem(c, "component") ? c->children : NULL; l; l = l->next)
			for (xmlNodePtr g = is_elem(l, "location") ? l->children : NULL; g; g = g->next) {
				if (!is_elem(g, "invariant"))
					continue;
				char *txt = (char *)xmlNodeGetContent(g);
				for (char *p = txt, *e; p; p = e ? e + 3 : NULL) {
					e = strstr(p, " & ");
					char one[512];
					snprintf(one, sizeof one, "%.*s", e ? (int)(e - p) : (int)strlen(p), p);
					ck_assert_msg(simple_conjunct(one), "%s: invariant conjunct '%s'", what, one);
					n++;
				}
				xmlFree(txt);
			}
	ck_assert_int_gt(n, 0);
	xmlFreeDoc(doc);
}

START_TEST(test_tool_profiles_have_simple_invariants)
{
	int lifted = 0;
	for (int f = 0; f < TEST_EXPORT_N_FILES + 1; f++) {
		sw_model *m = f < TEST_EXPORT_N_FILES ? test_export_load_file(test_export_files[f])
						      : test_export_load(approx_xml);
		for (int p = SW_PROFILE_HYST; p <= SW_PROFILE_JULIAREACH; p++) {
			sw_hybrid *h = test_export_build(m, (sw_export_profile)p);
			char *xml = NULL, what[256];
			size_t len = 0;
			snprintf(what, sizeof what, "%s (%s)", f < TEST_EXPORT_N_FILES ? test_export_files[f] : "approx",
				 sw_export_profile_name((sw_export_profile)p));
			ck_assert_int_eq(sw_hybrid_spaceex_xml(h, &xml, &len), SW_SUCCESS);
			check_simple_invariants(xml, len, what);
			ck_assert_ptr_null(strstr(xml, "u_w_tar")); /* unread weights: frozen */
			free(xml);
			for (int c = 0; c < h->n_components; c++)
				for (int k = 0; k < h->components[c].n_state; k++)
					lifted += h->components[c].vars[k].lifted != NULL;
			sw_hybrid_free(h);
		}
		sw_model_free(m);
	}
	ck_assert_int_gt(lifted, 0);
	/* an urgency over another agent's position cannot be lifted: dropped and reported */
	static const char *drop_xml =
	    "<scenario name='drop'><run duration='10' step='0.1'/><behaviours>"
	    "<automaton name='chase'><param name='prey' kind='agent'/>"
	    "<param name='goal' kind='target'/><mode name='run' initial='true'><glm target='goal'/>"
	    "<transition to='stop' guard='dist(prey) lt 2'/></mode><mode name='stop'/>"
	    "</automaton></behaviours><world><target name='g' x='8' y='0'/></world>"
	    "<agent name='p' x='0' y='0' behaviour='chase'><bind param='prey' value='q'/>"
	    "<bind param='goal' value='g'/></agent><agent name='q' x='0' y='5' target='g'><glm/>"
	    "</agent></scenario>";
	sw_model *m = test_export_load(drop_xml);
	sw_hybrid *h = test_export_build(m, SW_PROFILE_HYST);
	ck_assert(has_note(h, "cannot be lifted into a state variable (it reads another", 1));
	char *xml = NULL;
	size_t len = 0;
	ck_assert_int_eq(sw_hybrid_spaceex_xml(h, &xml, &len), SW_SUCCESS);
	check_simple_invariants(xml, len, "drop");
	free(xml);
	sw_hybrid_free(h);
	sw_model_free(m);
}
END_TEST

START_TEST(test_unread_weights_frozen_outside_exact)
{
	sw_model *m = test_export_load_file("models/glm_barrier.xml");
	sw_hybrid *sx = test_export_build(m, SW_PROFILE_SPACEEX),
		  *ex = test_export_build(m, SW_PROFILE_EXACT);
	ck_assert(has_note(sx, "w_tar/w_obs not exported: unread", 0));
	ck_assert(!has_note(sx, "weights: the competition", 1));
	const sw_hcomponent *c = &sx->components[0], *e = &ex->components[0];
	ck_assert_int_lt(sw_hcomponent_find_var(c, "u_w_tar"), 0);
	ck_assert_int_lt(sw_hcomponent_find_var(c, "u_w_obs"), 0);
	ck_assert_int_lt(sw_hcomponent_find_var(c, "lifted_1"), 0); /* no lifting for SpaceEx */
	for (int l = 0; l < c->n_locations; l++)
		for (int k = SW_STATE_WTAR; k <= SW_STATE_WOBS; k++)
			ck_assert(c->locations[l].flow[k]->op == SW_EXPR_NUM &&
				  c->locations[l].flow[k]->value == 0.0);
	/* the exact profile keeps the weights' dynamics */
	ck_assert(!has_note(ex, "w_tar/w_obs not exported", 0));
	ck_assert_int_ne(e->locations[0].flow[SW_STATE_WTAR]->op, SW_EXPR_NUM);
	ck_assert_int_lt(sw_hcomponent_find_var(e, "lifted_1"), 0);
	sw_hybrid_free(sx);
	sw_hybrid_free(ex);
	sw_model_free(m);
}
END_TEST

Suite *export_suite(void)
{
	Suite *s = suite_create("export");
	TCase *tc = tcase_create("export");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_spaceex_exports_validate_against_schema);
	tcase_add_test(tc, test_schema_rejects_what_the_profile_forbids);
	tcase_add_test(tc, test_spaceex_structure_ids_maps_flow_order);
	tcase_add_test(tc, test_export_is_deterministic);
	tcase_add_test(tc, test_report_lists_overapproximations);
	tcase_add_test(tc, test_initial_ranges_and_errors);
	tcase_add_test(tc, test_write_creates_files_atomically);
	tcase_add_test(tc, test_linear_export_has_only_bounded_rate_flows);
	tcase_add_test(tc, test_tool_profiles_have_simple_invariants);
	tcase_add_test(tc, test_report_says_a_weight_stuck_at_zero);
	tcase_add_test(tc, test_unread_weights_frozen_outside_exact);
	suite_add_tcase(s, tc);
	return s;
}
