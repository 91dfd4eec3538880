/* tests/test_export.c - the hybrid-automaton export (src/export): schema validity, structure of
 * the SpaceEx files, the exported flows against the native right-hand side (twin rule), a native
 * run against a run of the exported automaton, determinism, and the report of approximations. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_rng.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "swerve/export.h"
#include "swerve/io.h"
#include "swerve/sim.h"
#include "tests.h"

/* ---- fixtures --------------------------------------------------------------------------- */

/* Two GLM agents with dynamic weights and no noise, three discs, one target each; agents do not
 * perceive each other (so the native synchronous stepping is exactly the coupled ODE). */
static const char *plain_xml =
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

static sw_model *load_mem(const char *xml)
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

static sw_model *load_file(const char *path)
{
	sw_diag d;
	sw_diag_init(&d);
	sw_model *m = NULL;
	ck_assert_msg(sw_scenario_load(path, &m, &d) == SW_SUCCESS, "cannot load %s", path);
	return m;
}

static sw_hybrid *build(const sw_model *m, sw_export_profile p)
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

static const char *scenario_files[] = {"models/glm_barrier.xml", "models/seek_room.xml",
				       "models/fw_two_obstacles.xml", "tests/data/crossing.xml",
				       "models/glm_moving_target.xml"};
#define N_FILES (int)(sizeof scenario_files / sizeof scenario_files[0])

/* ---- schema ----------------------------------------------------------------------------- */

START_TEST(test_spaceex_exports_validate_against_schema)
{
	for (int f = 0; f < N_FILES + 1; f++) {
		sw_model *m = f < N_FILES ? load_file(scenario_files[f]) : load_mem(approx_xml);
		for (int p = SW_PROFILE_SPACEEX; p < SW_PROFILE_COUNT; p++) {
			sw_hybrid *h = build(m, (sw_export_profile)p);
			char *xml = NULL;
			size_t len = 0;
			ck_assert_int_eq(sw_hybrid_spaceex_xml(h, &xml, &len), SW_SUCCESS);
			sw_diag d;
			sw_diag_init(&d);
			ck_assert_msg(sw_spaceex_validate(xml, len, "export.xml", &d) == SW_SUCCESS,
				      "%s (%s): %s", f < N_FILES ? scenario_files[f] : "approx",
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
	for (int f = 0; f < N_FILES + 1; f++) {
		sw_model *m = f < N_FILES ? load_file(scenario_files[f]) : load_mem(approx_xml);
		sw_hybrid *h = build(m, SW_PROFILE_HYST);
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

/* ---- exported flows = native right-hand side -------------------------------------------- */

/* Compiles the exact-profile flows of location loc of component c, parsed back from their text. */
static void compile_flows(const sw_hybrid *h, const sw_hcomponent *c, int loc, sw_expr **out)
{
	sw_expr_var *vars = calloc((size_t)c->n_vars, sizeof *vars);
	ck_assert_ptr_nonnull(vars);
	for (int k = 0; k < c->n_vars; k++)
		vars[k] = (sw_expr_var){c->vars[k].name, k, SW_EXPR_REAL};
	sw_expr_symbols sym = {vars, c->n_vars, NULL, 0, NULL, NULL, NULL};
	for (int k = 0; k < c->n_state; k++) {
		char text[65536];
		ck_assert_int_lt(sw_expr_ast_print(c->locations[loc].flow[k], SW_EXPR_SYNTAX_PLAIN,
						   text, sizeof text),
				 (int)sizeof text);
		sw_diag d;
		sw_diag_init(&d);
		out[k] = NULL;
		ck_assert_msg(sw_expr_compile(text, &sym, NULL, &d, &out[k]) == SW_SUCCESS,
			      "flow of %s does not parse back: %s", c->vars[k].name,
			      d.count ? d.entry[0].message : "");
	}
	(void)h;
	free(vars);
}

START_TEST(test_exported_glm_flows_equal_native_rhs)
{
	sw_model *m = load_mem(plain_xml);
	sw_hybrid *h = build(m, SW_PROFILE_EXACT);
	const sw_hinstance *in = &h->instances[0];
	ck_assert_int_eq(in->agent, 0);
	const sw_hcomponent *c = &h->components[in->component];
	ck_assert_int_eq(c->n_locations, 2);
	sw_expr *f[64];
	ck_assert_int_le(c->n_state, 64);
	compile_flows(h, c, 0, f);
	const sw_agent *ag = &m->agents[0];
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 7);
	double *slots = calloc((size_t)c->n_vars, sizeof *slots);
	int tested = 0;
	for (int it = 0; it < 2000 && tested < 500; it++) {
		double y[SW_STATE_DIM] = {gsl_rng_uniform(rng) * 12 - 6, gsl_rng_uniform(rng) * 8 - 4,
					  gsl_rng_uniform(rng) * 8 - 4, 0,
					  gsl_rng_uniform(rng) * 1.2, gsl_rng_uniform(rng),
					  gsl_rng_uniform(rng)};
		sw_percept obs[8];
		sw_situation s = {y[0], y[1], ag->radius, 1, m->targets[0].position.x,
				  m->targets[0].position.y, 0, obs, NULL};
		int overlap = 0;
		for (int k = 0; k < m->n_prims; k++) {
			double dx = m->prims[k].a.x - y[0], dy = m->prims[k].a.y - y[1];
			double dist = hypot(dx, dy), cl = dist - m->prims[k].radius - ag->radius;
			overlap |= cl <= 0.05;
			obs[s.n_obs++] = (sw_percept){dx, dy, dist, m->prims[k].radius, cl, k, 0.0, 0.0};
		}
		if (overlap)
			continue;
		double dydt[SW_STATE_DIM];
		ck_assert_int_eq(sw_steer_rhs(&ag->steer, &ag->personality, &s, y, dydt, NULL),
				 SW_SUCCESS);
		for (int k = 0; k < c->n_vars; k++)
			slots[k] = k < SW_STATE_DIM ? y[k] : 0.0;
		/* without a speed lag the native x' uses the commanded speed, not y[V] */
		for (int k = 0; k < SW_STATE_DIM; k++) {
			double e = sw_expr_eval(f[k], slots, NULL);
			ck_assert_msg(fabs(e - dydt[k]) <= 1e-9 * fmax(1.0, fmax(fabs(e), fabs(dydt[k]))),
				      "component %d at (%g, %g, %g): exported %.17g, native %.17g", k,
				      y[0], y[1], y[2], e, dydt[k]);
		}
		tested++;
	}
	ck_assert_int_ge(tested, 200);
	for (int k = 0; k < c->n_state; k++)
		sw_expr_free(f[k]);
	free(slots);
	gsl_rng_free(rng);
	sw_hybrid_free(h);
	sw_model_free(m);
}
END_TEST

/* An FW agent with two pillars in the hyst profile: its bearings are state (bearing.c), and the
 * exported flows, parsed back and evaluated with each bearing at its wrapped value, equal the
 * native right-hand side at 10^4 states (the twin rule). */
static const char fw_pillars_xml[] =
    "<scenario name=\"fw_pillars\"><run duration=\"6\" step=\"0.05\" integrator=\"rk4\"/>"
    "<world><target name=\"goal\" x=\"8\" y=\"0\" radius=\"0.3\"/>"
    "<disc name=\"p1\" x=\"4\" y=\"1.5\" radius=\"0.3\"/>"
    "<disc name=\"p2\" x=\"3\" y=\"-2\" radius=\"0.2\"/></world>"
    "<agent name=\"walker\" x=\"0\" y=\"0\" heading=\"0\" radius=\"0.25\" perception=\"15\" "
    "target=\"goal\"><fw speed=\"1.0\"/></agent></scenario>";

START_TEST(test_exported_fw_bearing_flows_equal_native_rhs)
{
	sw_model *m = load_mem(fw_pillars_xml);
	sw_hybrid *h = build(m, SW_PROFILE_HYST);
	const sw_hcomponent *c = &h->components[h->instances[0].component];
	int n_bearings = 0;
	for (int k = 0; k < c->n_vars; k++) {
		ck_assert(c->vars[k].role != SW_HVAR_INPUT); /* no u_turn_rate: the law is exact */
		n_bearings += c->vars[k].lifted && c->vars[k].lifted->op == SW_EXPR_ATAN2;
	}
	ck_assert_int_eq(n_bearings, 3); /* the goal and two pillars */
	sw_expr *f[64], *def[64] = {NULL};
	ck_assert_int_le(c->n_state, 64);
	compile_flows(h, c, 0, f);
	for (int k = 0; k < c->n_state; k++)
		if (c->vars[k].lifted)
			ck_assert_int_eq(sw_expr_compile_ast(c->vars[k].lifted, NULL, &def[k]), SW_SUCCESS);
	const sw_agent *ag = &m->agents[0];
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 13);
	double *slots = calloc((size_t)c->n_vars, sizeof *slots);
	int tested = 0;
	while (tested < 10000) {
		double y[SW_STATE_DIM] = {gsl_rng_uniform(rng) * 12 - 6, gsl_rng_uniform(rng) * 12 - 6,
					  gsl_rng_uniform(rng) * 20 - 10, gsl_rng_uniform(rng) * 4 - 2,
					  0, 0, 0};
		sw_percept obs[4];
		sw_situation s = {y[0], y[1], ag->radius, 1, m->targets[0].position.x,
				  m->targets[0].position.y, 0, obs, NULL};
		int near = 0;
		for (int k = 0; k < m->n_prims; k++) {
			double dx = m->prims[k].a.x - y[0], dy = m->prims[k].a.y - y[1];
			double dist = hypot(dx, dy), cl = dist - m->prims[k].radius - ag->radius;
			near |= dist < 1e-3;
			obs[s.n_obs++] = (sw_percept){dx, dy, dist, m->prims[k].radius, cl, k, 0.0, 0.0};
		}
		if (near)
			continue;
		double dydt[SW_STATE_DIM];
		ck_assert_int_eq(sw_steer_rhs(&ag->steer, &ag->personality, &s, y, dydt, NULL),
				 SW_SUCCESS);
		for (int k = 0; k < c->n_vars; k++)
			slots[k] = k < SW_STATE_DIM ? y[k] : 0.0;
		for (int k = SW_STATE_DIM; k < c->n_state; k++)
			if (def[k]) /* a lifted variable holds its expression's value (wrapped atan2) */
				slots[k] = sw_expr_eval(def[k], slots, NULL);
		for (int k = 0; k < SW_STATE_DIM; k++) {
			double e = sw_expr_eval(f[k], slots, NULL);
			ck_assert_msg(fabs(e - dydt[k]) <= 1e-9 * fmax(1.0, fmax(fabs(e), fabs(dydt[k]))),
				      "component %d at (%g, %g, %g): exported %.17g, native %.17g", k,
				      y[0], y[1], y[2], e, dydt[k]);
		}
		tested++;
	}
	for (int k = 0; k < c->n_state; k++) {
		sw_expr_free(f[k]);
		sw_expr_free(def[k]);
	}
	free(slots);
	gsl_rng_free(rng);
	sw_hybrid_free(h);
	sw_model_free(m);
}
END_TEST

/* ---- native run = run of the exported automaton --------------------------------------- */

typedef struct {
	const sw_hybrid *h;
	sw_expr **flows[8];    /* per instance: compiled flows of its initial location */
	int *netidx[8];        /* per instance: network index of each component variable */
	double *slots;
} netsys;

static int net_rhs(double t, const double y[], double dydt[], void *params)
{
	(void)t;
	netsys *ns = params;
	const sw_hybrid *h = ns->h;
	for (int i = 0; i < h->n_instances; i++) {
		const sw_hcomponent *c = &h->components[h->instances[i].component];
		for (int k = 0; k < c->n_vars; k++)
			ns->slots[k] = ns->netidx[i][k] >= 0 ? y[ns->netidx[i][k]] : 0.0;
		for (int k = 0; k < c->n_state; k++)
			dydt[ns->netidx[i][k]] = sw_expr_eval(ns->flows[i][k], ns->slots, NULL);
	}
	return GSL_SUCCESS;
}

START_TEST(test_native_run_matches_exported_automaton)
{
	sw_model *m = load_mem(plain_xml);
	sw_hybrid *h = build(m, SW_PROFILE_EXACT);
	ck_assert_int_le(h->n_instances, 8);
	netsys ns = {h, {NULL}, {NULL}, calloc(256, sizeof(double))};
	double *y = calloc((size_t)h->n_netvars, sizeof *y);
	for (int i = 0; i < h->n_instances; i++) {
		const sw_hinstance *in = &h->instances[i];
		const sw_hcomponent *c = &h->components[in->component];
		ns.flows[i] = calloc((size_t)c->n_state, sizeof(sw_expr *));
		ns.netidx[i] = calloc((size_t)c->n_vars, sizeof(int));
		compile_flows(h, c, in->initial_location, ns.flows[i]);
		for (int k = 0; k < c->n_vars; k++) {
			ns.netidx[i][k] = -1;
			for (int v = 0; v < h->n_netvars; v++)
				if (strcmp(h->netvars[v], in->map[k]) == 0)
					ns.netidx[i][k] = v;
			if (k < c->n_state)
				y[ns.netidx[i][k]] = in->init_lo[k];
		}
	}
	gsl_odeiv2_system sys = {net_rhs, NULL, (size_t)h->n_netvars, &ns};
	gsl_odeiv2_driver *drv =
	    gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-3, 1e-13, 1e-13);
	double t = 0.0;
	ck_assert_int_eq(gsl_odeiv2_driver_apply(drv, &t, 5.0, y), GSL_SUCCESS);
	gsl_odeiv2_driver_free(drv);

	sw_world *w = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
	while (sw_world_time(w) < 5.0 - 1e-9)
		ck_assert_int_eq(sw_world_step(w, &d), SW_SUCCESS);
	for (int i = 0; i < h->n_instances; i++) {
		const sw_hinstance *in = &h->instances[i];
		sw_agent_state s;
		sw_world_agent(w, in->agent, &s);
		ck_assert_int_eq(s.mode, 0); /* still steering: no transition on either side */
		for (int k = 0; k < SW_STATE_DIM; k++) {
			if (k == SW_STATE_V || k == SW_STATE_OMEGA)
				continue; /* algebraic speed natively; 0 = 0 */
			double e = y[ns.netidx[i][k]];
			ck_assert_msg(fabs(e - s.y[k]) <= 1e-6 * fmax(1.0, fabs(s.y[k])),
				      "agent %d component %d: exported %.12g, native %.12g", in->agent,
				      k, e, s.y[k]);
		}
		const sw_hcomponent *c = &h->components[in->component];
		for (int k = 0; k < c->n_state; k++)
			sw_expr_free(ns.flows[i][k]);
		free(ns.flows[i]);
		free(ns.netidx[i]);
	}
	sw_world_destroy(w);
	free(ns.slots);
	free(y);
	sw_hybrid_free(h);
	sw_model_free(m);
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
	sw_model *m = load_file("models/seek_room.xml");
	sw_hybrid *a = build(m, SW_PROFILE_SPACEEX), *b = build(m, SW_PROFILE_SPACEEX);
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
	sw_model *m = load_file("models/glm_barrier.xml");
	sw_hybrid *h = build(m, SW_PROFILE_HYST);
	ck_assert(has_note(h, "w_tar starts at 0", 0));
	ck_assert(!has_note(h, "w_obs starts at 0", 0));
	sw_hybrid_free(h);
	sw_model_free(m);
	/* pillar_aside starts with both weights positive */
	m = load_file("tests/verify/pillar_aside.xml");
	h = build(m, SW_PROFILE_HYST);
	ck_assert(!has_note(h, "starts at 0", 0));
	sw_hybrid_free(h);
	sw_model_free(m);
}
END_TEST

START_TEST(test_report_lists_overapproximations)
{
	sw_model *m = load_mem(approx_xml);
	sw_hybrid *h = build(m, SW_PROFILE_SPACEEX);
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
	sw_model *m = load_mem(plain_xml);
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
	sw_model *m = load_mem(plain_xml);
	sw_hybrid *h = build(m, SW_PROFILE_JULIAREACH);
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
	sw_hybrid *e = build(m, SW_PROFILE_EXACT);
	ck_assert_int_eq(sw_hybrid_write(e, SW_EXPORT_SPACEEX, dir, NULL), SW_EUSAGE);
	sw_hybrid_free(e);
	sw_hybrid_free(h);
	sw_model_free(m);
}
END_TEST

/* ---- linear abstraction ------------------------------------------------------------------ */

static sw_hybrid *build_linear(const sw_model *m, sw_export_profile p)
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
static void input_bounds(const sw_hcomponent *c, int l, int v, double *lo, double *hi)
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
	sw_model *m = load_mem(plain_xml);
	sw_hybrid *h = build_linear(m, SW_PROFILE_SPACEEX);
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
				input_bounds(c, l, f->slot, &lo, &hi);
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
	for (int f = 0; f < N_FILES; f++) {
		sw_model *mf = load_file(scenario_files[f]);
		for (int p = SW_PROFILE_SPACEEX; p < SW_PROFILE_COUNT; p++) {
			sw_hybrid *hf = build_linear(mf, (sw_export_profile)p);
			ck_assert_int_eq(sw_hybrid_spaceex_xml(hf, &xml, &len), SW_SUCCESS);
			sw_diag_init(&d);
			ck_assert_msg(sw_spaceex_validate(xml, len, "linear.xml", &d) == SW_SUCCESS,
				      "%s: %s", scenario_files[f], d.count ? d.entry[0].message : "");
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
	for (int f = 0; f < N_FILES + 1; f++) {
		sw_model *m = f < N_FILES ? load_file(scenario_files[f]) : load_mem(approx_xml);
		for (int p = SW_PROFILE_HYST; p <= SW_PROFILE_JULIAREACH; p++) {
			sw_hybrid *h = build(m, (sw_export_profile)p);
			char *xml = NULL, what[256];
			size_t len = 0;
			snprintf(what, sizeof what, "%s (%s)", f < N_FILES ? scenario_files[f] : "approx",
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
	sw_model *m = load_mem(drop_xml);
	sw_hybrid *h = build(m, SW_PROFILE_HYST);
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

/* The lifted variable's flow is the time derivative of its expression along the exported flows
 * (central differences at random states), its expression is the squared distance to the target
 * for an arrival, its resets keep it equal to the expression, and the guard reads it. */
START_TEST(test_lifted_variable_tracks_its_expression)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 11);
	int checked = 0, arrivals = 0, bearings = 0;
	for (int f = 0; f < N_FILES; f++) {
		sw_model *m = load_file(scenario_files[f]);
		sw_hybrid *h = build(m, SW_PROFILE_HYST);
		for (int i = 0; i < h->n_instances; i++) {
			const sw_hinstance *in = &h->instances[i];
			const sw_hcomponent *c = &h->components[in->component];
			double *s = calloc((size_t)c->n_vars, sizeof *s), *sp = calloc((size_t)c->n_vars, sizeof *s),
			       *sm = calloc((size_t)c->n_vars, sizeof *s), *rate = calloc((size_t)c->n_vars, sizeof *s);
			int kt = sw_hcomponent_find_var(c, "t");
			/* every lifted variable at its expression's value (a consistent state) */
			sw_expr *ldef[64] = {NULL};
			for (int k = 0; k < c->n_state && k < 64; k++)
				if (c->vars[k].lifted)
					ck_assert_int_eq(sw_expr_compile_ast(c->vars[k].lifted, NULL,
									     &ldef[k]),
							 SW_SUCCESS);
			for (int g = 0; g < c->n_state; g++) {
				if (!c->vars[g].lifted)
					continue;
				sw_expr *def = NULL;
				ck_assert_int_eq(sw_expr_compile_ast(c->vars[g].lifted, NULL, &def), SW_SUCCESS);
				const sw_agent *ag = in->agent >= 0 ? &m->agents[in->agent] : NULL;
				/* a bearing (FW, bearing.c) is atan2, wrapped by self-loops */
				int bearing = c->vars[g].lifted->op == SW_EXPR_ATAN2;
				/* a GLM half-width (lift.c) is asin(N / d) */
				int half = c->vars[g].lifted->op == SW_EXPR_ASIN;
				int arrival = ag && ag->behaviour < 0 && ag->target >= 0 && !bearing && !half;
				for (int l = 0; l < c->n_locations; l++) {
					sw_expr *fl[64];
					ck_assert_int_le(c->n_state, 64);
					compile_flows(h, c, l, fl);
					for (int it = 0; it < 200; it++) {
						for (int k = 0; k < c->n_vars; k++) {
							double lo = -20, hi = 40;
							if (c->vars[k].role == SW_HVAR_INPUT)
								input_bounds(c, l, k, &lo, &hi);
							s[k] = lo + (hi - lo) * gsl_rng_uniform(rng);
						}
						if (kt >= 0)
							s[kt] = 10 * gsl_rng_uniform(rng);
						int near = 0; /* a GLM half-width outside its region */
						for (int k = 0; k < c->n_state && k < 64; k++)
							if (ldef[k]) {
								s[k] = sw_expr_eval(ldef[k], s, NULL);
								near |= c->vars[k].lifted->op == SW_EXPR_ASIN &&
									!(s[k] < 1.2);
							}
						if (near)
							continue;
						double hstep = 1e-5;
						memcpy(sp, s, (size_t)c->n_vars * sizeof *s);
						memcpy(sm, s, (size_t)c->n_vars * sizeof *s);
						for (int k = 0; k < c->n_state; k++) {
							rate[k] = sw_expr_eval(fl[k], s, NULL);
							sp[k] += hstep * rate[k];
							sm[k] -= hstep * rate[k];
						}
						if (kt >= 0) {
							sp[kt] += hstep;
							sm[kt] -= hstep;
						}
						double fd = (sw_expr_eval(def, sp, NULL) - sw_expr_eval(def, sm, NULL)) /
							    (2 * hstep);
						if (bearing && fabs(fd) * 2 * hstep > 1)
							continue; /* across atan2's cut: the self-loops' job */
						ck_assert_msg(fabs(fd - rate[g]) <= 1e-5 * (1 + fabs(rate[g])),
							      "%s: %s' = %.12g, finite difference %.12g",
							      scenario_files[f], c->vars[g].name, rate[g], fd);
						if (arrival) { /* the squared distance to the agent's target */
							sw_vec2 q = sw_model_target_position(m, ag->target, kt >= 0 ? s[kt] : 0);
							double d2 = (s[0] - q.x) * (s[0] - q.x) + (s[1] - q.y) * (s[1] - q.y);
							ck_assert(fabs(sw_expr_eval(def, s, NULL) - d2) <= 1e-9 * (1 + d2));
						}
						checked++;
					}
					for (int k = 0; k < c->n_state; k++)
						sw_expr_free(fl[k]);
				}
				for (int t = 0; t < c->n_transitions; t++) {
					const sw_expr_ast *r = c->transitions[t].reset[g];
					ck_assert_ptr_nonnull(r);
					const sw_htransition *tr = &c->transitions[t];
					if (bearing) { /* wrap self-loops: g -+ 2 pi; identity elsewhere */
						double v = 1.0;
						sw_expr *rs = NULL;
						ck_assert_int_eq(sw_expr_compile_ast(r, NULL, &rs), SW_SUCCESS);
						for (int k = 0; k < c->n_vars; k++)
							s[k] = k == g ? v : 0.0;
						double after = sw_expr_eval(rs, s, NULL);
						sw_expr_free(rs);
						const sw_expr_ast *gd = tr->guard;
						if (tr->source == tr->target && gd && gd->kid[0]->op == SW_EXPR_VAR &&
						    gd->kid[0]->slot == g)
							ck_assert(fabs(fabs(after - v) - 2 * M_PI) < 1e-12);
						else
							ck_assert(r->op == SW_EXPR_VAR && r->slot == g);
						bearings++;
					}
					if (arrival && tr->source != tr->target) { /* identity reset, guard over it */
						ck_assert(r->op == SW_EXPR_VAR && r->slot == g);
						const sw_expr_ast *gd = c->transitions[t].guard;
						ck_assert(gd && gd->op == SW_EXPR_LE && gd->kid[0]->op == SW_EXPR_VAR &&
							  gd->kid[0]->slot == g);
						arrivals++;
					}
				}
				/* the initial value is the expression's value at the initial state */
				for (int k = 0; k < c->n_vars; k++)
					s[k] = k < c->n_state ? in->init_lo[k] : 0.0;
				double v0 = sw_expr_eval(def, s, NULL);
				ck_assert(in->init_lo[g] <= v0 && v0 <= in->init_hi[g]);
				ck_assert(in->init_hi[g] - in->init_lo[g] <= 1e-9 * (1 + fabs(v0)));
				sw_expr_free(def);
			}
			for (int k = 0; k < 64; k++)
				sw_expr_free(ldef[k]);
			free(s);
			free(sp);
			free(sm);
			free(rate);
		}
		sw_hybrid_free(h);
		sw_model_free(m);
	}
	ck_assert_int_gt(checked, 1000);
	ck_assert_int_gt(arrivals, 0);
	ck_assert_int_gt(bearings, 0); /* fw_two_obstacles' bearings */
	gsl_rng_free(rng);
}
END_TEST

START_TEST(test_unread_weights_frozen_outside_exact)
{
	sw_model *m = load_file("models/glm_barrier.xml");
	sw_hybrid *sx = build(m, SW_PROFILE_SPACEEX), *ex = build(m, SW_PROFILE_EXACT);
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

/* plain_xml with a finer step: 500 steps of two agents */
static const char *plain_fine_xml =
    "<scenario name='plain'>"
    "<run duration='5' step='0.01' integrator='rk8pd' rtol='1e-10' atol='1e-10' "
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

START_TEST(test_linear_bounds_contain_native_derivatives)
{
	sw_model *m = load_mem(plain_fine_xml);
	sw_hybrid *h = build_linear(m, SW_PROFILE_SPACEEX);
	sw_world *w = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
	int states = 0;
	double wmin = INFINITY, wmax = -INFINITY;
	while (sw_world_time(w) < 5.0 - 1e-9) {
		ck_assert_int_eq(sw_world_step(w, &d), SW_SUCCESS);
		for (int i = 0; i < h->n_instances; i++) {
			const sw_hinstance *in = &h->instances[i];
			if (in->agent < 0)
				continue;
			const sw_agent *ag = &m->agents[in->agent];
			const sw_hcomponent *c = &h->components[in->component];
			sw_agent_state s;
			sw_world_agent(w, in->agent, &s);
			sw_percept obs[8];
			const sw_target *tg = &m->targets[ag->target];
			sw_situation sit = {s.y[0], s.y[1], ag->radius, 1, tg->position.x,
					    tg->position.y, 0, obs, NULL};
			for (int k = 0; k < m->n_prims; k++) {
				double dx = m->prims[k].a.x - s.y[0], dy = m->prims[k].a.y - s.y[1];
				double dist = hypot(dx, dy);
				obs[sit.n_obs++] = (sw_percept){dx, dy, dist, m->prims[k].radius,
								dist - m->prims[k].radius - ag->radius, k, 0.0, 0.0};
			}
			double dydt[SW_STATE_DIM];
			ck_assert_int_eq(
			    sw_steer_rhs(&ag->steer, &ag->personality, &sit, s.y, dydt, NULL),
			    SW_SUCCESS);
			for (int k = 0; k < SW_STATE_DIM; k++) {
				const sw_expr_ast *f = c->locations[s.mode].flow[k];
				double lo = f->value, hi = f->value;
				if (f->op != SW_EXPR_NUM)
					input_bounds(c, s.mode, f->slot, &lo, &hi);
				ck_assert_msg(lo <= dydt[k] && dydt[k] <= hi,
					      "agent %d t = %g: %s' = %.17g outside [%.17g, %.17g]",
					      in->agent, sw_world_time(w), c->vars[k].name, dydt[k], lo,
					      hi);
			}
			wmin = fmin(wmin, fmin(s.y[SW_STATE_WTAR], s.y[SW_STATE_WOBS]));
			wmax = fmax(wmax, fmax(s.y[SW_STATE_WTAR], s.y[SW_STATE_WOBS]));
			states++;
		}
	}
	ck_assert_int_ge(states, 1000);
	/* the weight box the export proved invariant holds for the native run too */
	ck_assert(wmin >= 0.0 && wmax <= 1.0 + 1e-6);
	sw_world_destroy(w);
	sw_hybrid_free(h);
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
	tcase_add_test(tc, test_exported_glm_flows_equal_native_rhs);
	tcase_add_test(tc, test_exported_fw_bearing_flows_equal_native_rhs);
	tcase_add_test(tc, test_native_run_matches_exported_automaton);
	tcase_add_test(tc, test_export_is_deterministic);
	tcase_add_test(tc, test_report_lists_overapproximations);
	tcase_add_test(tc, test_initial_ranges_and_errors);
	tcase_add_test(tc, test_write_creates_files_atomically);
	tcase_add_test(tc, test_linear_export_has_only_bounded_rate_flows);
	tcase_add_test(tc, test_linear_bounds_contain_native_derivatives);
	tcase_add_test(tc, test_tool_profiles_have_simple_invariants);
	tcase_add_test(tc, test_lifted_variable_tracks_its_expression);
	tcase_add_test(tc, test_report_says_a_weight_stuck_at_zero);
	tcase_add_test(tc, test_unread_weights_frozen_outside_exact);
	suite_add_tcase(s, tc);
	return s;
}
