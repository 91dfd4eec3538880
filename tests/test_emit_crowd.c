/* tests/test_emit_crowd.c - the symbolic emitters of the crowd laws <ttc>, <sf>, <csm>
 * (src/steer/emit_crowd.c) against their native right-hand sides (the twin rule of DESIGN.md),
 * and the export of a small crowd against the native law.
 *
 * Twin: for each law 500 random scenes (0..6 discs and 0..3 segments, some in linear motion; with
 * the hard walls on, 0..2 discs and 0..1 segment, since each static obstacle triples the flow's
 * tree; 0..3 other agents with random speeds and headings; a target, sometimes moving, sometimes
 * absent; perception radius finite or infinite; random law parameters, range finite or infinite)
 * x 20 random states, half of them close to an obstacle or agent (overlaps, collisions ahead,
 * the swept strip), so 10^4 states per law; the emitted trees, compiled and evaluated, equal
 * sw_steer_rhs() on the situation perceive.c builds (tests/emit_util.c) within TWIN_REL.  In static
 * scenes the two agree bit for bit; with obstacles in linear motion they differ by rounding (the
 * emitter's segment direction b - a is the difference of the end points at t = 0, perception's
 * b(t) - a(t) is rounded after the motion, as for the other laws), which <ttc>'s cancellation
 * near contact amplifies to about 3e-11. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_util.h"
#include "swerve/export.h"
#include "swerve/io.h"
#include "tests.h"

/* --- law configurations --------------------------------------------------------------------- */

/* A range: finite, or (1 in 5) none. */
static double random_range(gsl_rng *r, double lo, double hi)
{
	return et_coin(r, 0.2) ? INFINITY : et_unif(r, lo, hi);
}

static void make_ttc(gsl_rng *r, sw_steer_def *d, sw_personality *p)
{
	(void)p;
	d->law = SW_LAW_TTC;
	sw_ttc_params *t = &d->ttc;
	t->k = et_unif(r, 0.5, 3.0);
	t->tau0 = et_unif(r, 1.0, 5.0);
	t->xi = et_unif(r, 0.3, 1.0);
	t->v_pref = et_unif(r, 0.8, 1.6);
	t->range = random_range(r, 1.0, 10.0);
	t->f_max = et_unif(r, 5.0, 40.0);
	t->v_min = et_unif(r, 0.05, 0.2);
	t->bias = et_coin(r, 0.5) ? 0.0 : et_unif(r, -1.0, 1.0);
	t->t_arrive = et_coin(r, 0.5) ? 0.0 : et_unif(r, 0.5, 2.0);
	t->t_contact = et_coin(r, 0.5) ? 0.0 : et_unif(r, 0.05, 0.3);
}

static void make_sf(gsl_rng *r, sw_steer_def *d, sw_personality *p)
{
	(void)p;
	d->law = SW_LAW_SF;
	sw_sf_params *s = &d->sf;
	s->tau = et_unif(r, 0.3, 1.0);
	s->v0 = et_unif(r, 0.8, 1.6);
	s->a = et_unif(r, 500.0, 3000.0);
	s->b = et_unif(r, 0.05, 0.3);
	s->k = et_unif(r, 1e4, 2e5);
	s->kappa = et_unif(r, 1e4, 3e5);
	s->mass = et_unif(r, 50.0, 100.0);
	s->lambda = et_coin(r, 0.5) ? 1.0 : et_unif(r, 0.0, 1.0);
	s->range = random_range(r, 1.0, 5.0);
	s->v_min = et_unif(r, 0.005, 0.1);
}

static void make_csm(gsl_rng *r, sw_steer_def *d, sw_personality *p)
{
	(void)p;
	d->law = SW_LAW_CSM;
	sw_csm_params *c = &d->csm;
	c->v0 = et_unif(r, 0.8, 1.6);
	c->time_gap = et_unif(r, 0.3, 2.0);
	c->a = et_unif(r, 1.0, 10.0);
	c->d = et_unif(r, 0.05, 0.5);
	c->a_wall = et_unif(r, 1.0, 10.0);
	c->d_wall = et_unif(r, 0.01, 0.2);
	c->range = random_range(r, 0.5, 4.0);
	c->t_arrive = et_coin(r, 0.5) ? 0.0 : et_unif(r, 0.5, 2.0);
	c->t_contact = et_coin(r, 0.5) ? 0.0 : et_unif(r, 0.05, 0.3);
}

/* Hard walls on: few static obstacles (the tree triples per obstacle and pass): up to three for
 * <ttc>, one for <csm> with at most one other agent (its velocity, which the walls cut, is a
 * tree quadratic in the number of percepts already). */
static void crowd_scene(gsl_rng *r, et_scene *sc, const sw_steer_def *d)
{
	if (d->law == SW_LAW_TTC && d->ttc.t_contact > 0.0)
		et_random_scene_n(r, sc, 2, 1, 3, 1);
	else if (d->law == SW_LAW_CSM && d->csm.t_contact > 0.0)
		et_random_scene_n(r, sc, 1, 0, 1, 1);
	else
		et_random_scene_n(r, sc, 6, 3, 3, 1);
}

START_TEST(test_twin_ttc)
{
	et_report("ttc", et_twin_check(61, make_ttc, crowd_scene, 500, 20));
}
END_TEST

START_TEST(test_twin_sf)
{
	et_report("sf", et_twin_check(62, make_sf, crowd_scene, 500, 20));
}
END_TEST

START_TEST(test_twin_csm)
{
	et_report("csm", et_twin_check(63, make_csm, crowd_scene, 500, 20));
}
END_TEST

/* --- hand-made situations ------------------------------------------------------------------- */

/* A wedge of two walls meeting at the origin at about 26.6 degrees, the agent deep inside and
 * walking into the apex: the first pass cuts the velocity at wall B (id 1), which pushes it into
 * wall A (id 0), cut only in the second pass.  Emitted and native x', y' agree there and at
 * random states in the wedge, for <ttc> and <csm> (a single pass in the emitter fails here; the
 * random scenes of the twin tests rarely meet such a corner). */
START_TEST(test_hard_walls_corner_two_passes)
{
	static et_scene sc;
	gsl_rng *r = et_rng_new(71);
	for (int law = 0; law < 2; law++) {
		et_scene_init(&sc);
		et_add_segment(&sc, 0.0, 0.0, 10.0, 0.0, 0.0, 0.0);
		et_add_segment(&sc, 0.0, 0.0, 10.0, 5.0, 0.0, 0.0);
		sc.ctx.radius = 0.2;
		sc.ctx.has_target = 1;
		sc.ctx.tx = -5.0; /* beyond the apex */
		sc.ctx.ty = 0.0;
		sw_steer_def d = sw_default_steer_def();
		d.law = law ? SW_LAW_CSM : SW_LAW_TTC;
		d.ttc.t_contact = d.csm.t_contact = 0.1;
		sw_expr *e[SW_STATE_DIM];
		et_emit_compiled(&d, NULL, &sc, e);
		for (int k = 0; k < 200; k++) {
			double y[SW_STATE_DIM] = {0.9, 0.21, PI, 0.0, 1.5, 0.0, 0.0};
			if (k > 0) {
				y[SW_STATE_X] = et_unif(r, 0.5, 3.0);
				y[SW_STATE_Y] = et_unif(r, 0.2, 0.5 * y[SW_STATE_X] - 0.2);
				y[SW_STATE_PHI] = et_unif(r, -PI, PI);
				y[SW_STATE_V] = et_unif(r, 0.0, 2.0);
			}
			double dy[SW_STATE_DIM], slots[N_SLOTS];
			ck_assert_int_eq(et_native_rhs(&d, NULL, &sc, y, dy), SW_SUCCESS);
			et_fill_slots(&sc, y, slots);
			for (int j = 0; j < 2; j++) {
				double v = sw_expr_eval(e[j], slots, NULL);
				ck_assert_msg(
				    et_rel_diff(v, dy[j]) <= TWIN_REL,
				    "law %d state %d entry %d: emitted %.17g, native %.17g",
				    (int)d.law, k, j, v, dy[j]);
			}
		}
		for (int j = 0; j < SW_STATE_DIM; j++)
			sw_expr_free(e[j]);
	}
	gsl_rng_free(r);
}
END_TEST

/* Refusals: <ttc> and <sf> need the other agents' speed and heading; a hard-wall cut beyond the
 * size limit (many static obstacles) is refused, every output NULL. */
START_TEST(test_crowd_emit_errors)
{
	static et_scene sc;
	et_scene_init(&sc);
	et_add_agent(&sc, 1.0, 1.0, 0.2);
	sc.agents[0].v_name = NULL;
	sw_steer_def d = sw_default_steer_def();
	sw_expr_ast *out[SW_STATE_DIM];
	for (int law = SW_LAW_TTC; law <= SW_LAW_CSM; law++) {
		d.law = (sw_law)law;
		int st = sw_steer_emit(&d, NULL, &sc.ctx, out);
		ck_assert_int_eq(st,
				 law == SW_LAW_CSM ? SW_SUCCESS : SW_EUSAGE); /* csm: no velocity */
		for (int k = 0; k < SW_STATE_DIM; k++) {
			if (st != SW_SUCCESS)
				ck_assert_ptr_null(out[k]);
			sw_expr_ast_free(out[k]);
		}
	}
	et_scene_init(&sc);
	for (int i = 0; i < 12; i++)
		et_add_segment(&sc, i, 0.0, i + 0.5, 1.0, 0.0, 0.0);
	d.law = SW_LAW_TTC;
	d.ttc.t_contact = 0.1;
	ck_assert_int_eq(sw_steer_emit(&d, NULL, &sc.ctx, out), SW_EUSAGE);
	for (int k = 0; k < SW_STATE_DIM; k++)
		ck_assert_ptr_null(out[k]);
	d.ttc.t_contact = 0.0; /* without the cut: linear in the scene */
	ck_assert_int_eq(sw_steer_emit(&d, NULL, &sc.ctx, out), SW_SUCCESS);
	for (int k = 0; k < SW_STATE_DIM; k++)
		sw_expr_ast_free(out[k]);
}
END_TEST

/* The crowd trees print and parse back to equal trees (what the exporter writes and the export
 * tests read back), with no non-finite number printed. */
START_TEST(test_crowd_trees_print_and_parse)
{
	static et_scene sc;
	gsl_rng *r = et_rng_new(73);
	sw_expr_var vars[N_SLOTS];
	int nv = 0;
	for (int k = 0; k < SW_STATE_DIM; k++)
		vars[nv++] = (sw_expr_var){et_state_names[k], k, SW_EXPR_REAL};
	vars[nv++] = (sw_expr_var){"t", SLOT_T, SW_EXPR_REAL};
	for (int j = 0; j < 4 * MAX_AGENTS; j++)
		vars[nv++] = (sw_expr_var){et_agent_names[j], SLOT_AGENT(0) + j, SW_EXPR_REAL};
	sw_expr_symbols sym = {vars, nv, NULL, 0, NULL, NULL, NULL};
	static const et_def_maker makers[3] = {make_ttc, make_sf, make_csm};
	for (int i = 0; i < 6; i++) {
		sw_steer_def d = sw_default_steer_def();
		sw_personality p = sw_default_personality();
		makers[i % 3](r, &d, &p);
		crowd_scene(r, &sc, &d);
		sw_expr_ast *out[SW_STATE_DIM];
		ck_assert_int_eq(sw_steer_emit(&d, &p, &sc.ctx, out), SW_SUCCESS);
		for (int k = 0; k < SW_STATE_DIM; k++) {
			int n = sw_expr_ast_print(out[k], SW_EXPR_SYNTAX_PLAIN, NULL, 0);
			char *buf = malloc((size_t)n + 1);
			ck_assert_ptr_nonnull(buf);
			sw_expr_ast_print(out[k], SW_EXPR_SYNTAX_PLAIN, buf, (size_t)n + 1);
			ck_assert(strstr(buf, "1/0") == NULL && strstr(buf, "inf") == NULL &&
				  strstr(buf, "nan") == NULL);
			sw_expr_ast *back = NULL;
			ck_assert_int_eq(sw_expr_ast_parse(buf, &sym, NULL, NULL, &back),
					 SW_SUCCESS);
			ck_assert(sw_expr_ast_equal(out[k], back));
			sw_expr_ast_free(back);
			free(buf);
			sw_expr_ast_free(out[k]);
		}
	}
	gsl_rng_free(r);
}
END_TEST

static long tree_size(const sw_expr_ast *a)
{
	long n = 1;
	for (int i = 0; i < a->nkid; i++)
		n += tree_size(a->kid[i]);
	return n;
}

/* --- derivatives: finite, and equal to differences of the native law where it is smooth ------ */

/* d(flow j)/d(state k) of the emitted tree against central differences of the native rhs at
 * random states of random scenes (where two step sizes agree: no switch nearby); every
 * derivative evaluated is finite.  Returns the number of points compared. */
static int derivative_check(unsigned long seed, et_def_maker make, int j, int k, int tries)
{
	gsl_rng *r = et_rng_new(seed);
	static et_scene sc;
	int compared = 0;
	for (int i = 0; i < tries; i++) {
		sw_steer_def def = sw_default_steer_def();
		sw_personality pers = sw_default_personality();
		make(r, &def, &pers);
		def.ttc.t_contact = 0.0; /* flows j here do not read the hard walls */
		crowd_scene(r, &sc, &def);
		sw_expr_ast *out[SW_STATE_DIM], *dt = NULL;
		ck_assert_int_eq(sw_steer_emit(&def, &pers, &sc.ctx, out), SW_SUCCESS);
		ck_assert_int_eq(sw_expr_ast_derivative(out[j], k, NULL, NULL, &dt), SW_SUCCESS);
		sw_expr *e = NULL;
		ck_assert_int_eq(sw_expr_compile_ast(dt, NULL, &e), SW_SUCCESS);
		for (int q = 0; q < 5; q++) {
			double y[SW_STATE_DIM], slots[N_SLOTS], f[2];
			et_random_state(r, &sc, y);
			double h[2] = {1e-6, 5e-7}, y0 = y[k];
			int ok = 1;
			for (int m = 0; m < 2 && ok; m++) {
				double fp[SW_STATE_DIM], fm[SW_STATE_DIM];
				y[k] = y0 + h[m];
				ok = et_native_rhs(&def, &pers, &sc, y, fp) == SW_SUCCESS;
				y[k] = y0 - h[m];
				ok = ok && et_native_rhs(&def, &pers, &sc, y, fm) == SW_SUCCESS;
				f[m] = (fp[j] - fm[j]) / (2.0 * h[m]);
			}
			y[k] = y0;
			et_fill_slots(&sc, y, slots);
			double d = sw_expr_eval(e, slots, NULL);
			if (!ok)
				continue;
			ck_assert_msg(isfinite(d), "law %d: d(flow %d)/d(state %d) = %g",
				      (int)def.law, j, k, d);
			if (!isfinite(f[0]) || !isfinite(f[1]) ||
			    fabs(f[0] - f[1]) > 1e-6 * fmax(1.0, fabs(f[1])))
				continue; /* a switch or a steep spot nearby */
			ck_assert_msg(fabs(d - f[1]) <= 1e-5 * fmax(1.0, fabs(f[1])),
				      "law %d: d(flow %d)/d(state %d) = %.12g, differences %.12g",
				      (int)def.law, j, k, d, f[1]);
			compared++;
		}
		sw_expr_free(e);
		sw_expr_ast_free(dt);
		for (int m = 0; m < SW_STATE_DIM; m++)
			sw_expr_ast_free(out[m]);
	}
	gsl_rng_free(r);
	return compared;
}

START_TEST(test_derivatives_ttc_sf)
{
	int n1 = derivative_check(91, make_ttc, SW_STATE_PHI, SW_STATE_X, 40);
	int n2 = derivative_check(92, make_sf, SW_STATE_V, SW_STATE_Y, 40);
	int n3 = derivative_check(93, make_sf, SW_STATE_PHI, SW_STATE_PHI, 40);
	if (getenv("SW_EMIT_REPORT"))
		fprintf(stderr, "emit derivatives: ttc %d, sf %d + %d smooth points compared\n", n1,
			n2, n3);
	ck_assert_int_ge(n1, 50);
	ck_assert_int_ge(n2, 50);
	ck_assert_int_ge(n3, 50);
}
END_TEST

/* --- export: the exported flows are the native law ----------------------------------------- */

/* Four agents crossing around a pillar beside a wall (hard walls on for <ttc> and <csm>). */
static const char crowd_xml[] =
    "<scenario name=\"crowd_export\">\n"
    "  <run duration=\"2\" step=\"0.01\" integrator=\"euler\"/>\n"
    "  <world>\n"
    "    <target name=\"e\" x=\"6\" y=\"0.5\" radius=\"0.3\"/>\n"
    "    <target name=\"w\" x=\"-6\" y=\"-0.5\" radius=\"0.3\"/>\n"
    "    <target name=\"n\" x=\"0.5\" y=\"6\" radius=\"0.3\"/>\n"
    "    <disc name=\"pillar\" x=\"0.3\" y=\"0.2\" radius=\"0.4\"/>\n"
    "    <segment name=\"wall\" x1=\"-6\" y1=\"-2\" x2=\"6\" y2=\"-2\"/>\n"
    "  </world>\n"
    "  <agent name=\"a\" x=\"-4\" y=\"0\" heading=\"0\" speed=\"1\" radius=\"0.25\" "
    "target=\"e\"><%s/></agent>\n"
    "  <agent name=\"b\" x=\"4\" y=\"0.3\" heading=\"180deg\" speed=\"1\" radius=\"0.25\" "
    "perception=\"3\" target=\"w\"><%s/></agent>\n"
    "  <agent name=\"c\" x=\"0\" y=\"-1.5\" heading=\"90deg\" speed=\"0.8\" radius=\"0.3\" "
    "target=\"n\"><%s/></agent>\n"
    "  <agent name=\"d\" x=\"-1\" y=\"3\" heading=\"-60deg\" speed=\"1.2\" radius=\"0.2\" "
    "target=\"e\"><%s/></agent>\n"
    "</scenario>\n";

static sw_model *crowd_model(const char *law, sw_diag *d)
{
	char xml[4096];
	snprintf(xml, sizeof xml, crowd_xml, law, law, law, law);
	sw_model *m = NULL;
	sw_diag_init(d);
	if (sw_scenario_load_memory(xml, strlen(xml), "crowd_export.xml", &m, d) != SW_SUCCESS)
		return NULL;
	return m;
}

static sw_hybrid *crowd_build(const sw_model *m, sw_export_profile p, int linear, sw_diag *d)
{
	sw_export_def def = sw_default_export_def();
	def.profile = p;
	def.linear = linear;
	sw_diag_init(d);
	sw_hybrid *h = NULL;
	sw_hybrid_build(m, &def, &h, d);
	return h;
}

/* The state entry k of the agent owning network variable net, or -1. */
static int net_owner(const sw_hybrid *h, const char *net, int *k)
{
	for (int i = 0; i < h->n_instances; i++) {
		const sw_hinstance *in = &h->instances[i];
		for (int v = 0; in->agent >= 0 && v < SW_STATE_DIM; v++)
			if (strcmp(in->map[v], net) == 0) {
				*k = v;
				return in->agent;
			}
	}
	return -1;
}

/* The native scene of agent i of m with the others at their states ys[j]. */
static void model_scene(const sw_model *m, int i, double ys[][SW_STATE_DIM], et_scene *sc)
{
	et_scene_init(sc);
	const sw_agent *ag = &m->agents[i];
	for (int k = 0; k < m->n_prims; k++) {
		const sw_prim *p = &m->prims[k];
		if (p->is_segment)
			et_add_segment(sc, p->a.x, p->a.y, p->b.x, p->b.y, 0.0, 0.0);
		else
			et_add_disc(sc, p->a.x, p->a.y, p->radius, 0.0, 0.0);
	}
	for (int j = 0; j < m->n_agents; j++) {
		if (j == i)
			continue;
		int q = sc->ctx.n_agents;
		et_add_agent(sc, ys[j][SW_STATE_X], ys[j][SW_STATE_Y], m->agents[j].radius);
		sc->agent_vphi[q][0] = ys[j][SW_STATE_V];
		sc->agent_vphi[q][1] = ys[j][SW_STATE_PHI];
	}
	sc->ctx.radius = ag->radius;
	sc->ctx.perception = ag->perception;
	sc->ctx.has_target = 1;
	sc->ctx.tx = m->targets[ag->target].position.x;
	sc->ctx.ty = m->targets[ag->target].position.y;
}

/* Exports the crowd in the exact profile, parses every agent's steering flows back from their
 * printed text and compares them with sw_steer_rhs() on the situation the simulator would
 * perceive, at n random joint states; returns the largest relative difference. */
static double export_twin(const char *law, int n, long *nodes)
{
	sw_diag d;
	sw_model *m = crowd_model(law, &d);
	ck_assert_ptr_nonnull(m);
	sw_hybrid *h = crowd_build(m, SW_PROFILE_EXACT, 0, &d);
	if (!h) {
		char msg[800];
		sw_diag_format(&d, 0, msg, sizeof msg);
		ck_abort_msg("%s: export refused: %s", law, msg);
	}
	ck_assert_int_eq(h->n_instances, m->n_agents);
	gsl_rng *r = et_rng_new(81);
	static et_scene sc;
	double worst = 0.0;
	*nodes = 0;
	for (int ii = 0; ii < h->n_instances; ii++) {
		const sw_hinstance *in = &h->instances[ii];
		const sw_hcomponent *c = &h->components[in->component];
		int i = in->agent;
		sw_expr_var *vars = calloc((size_t)c->n_vars, sizeof *vars);
		int(*src)[2] = calloc((size_t)c->n_vars, sizeof *src);
		double *slots = calloc((size_t)c->n_vars + 1, sizeof *slots);
		ck_assert(vars && src && slots);
		for (int k = 0; k < c->n_vars; k++) {
			vars[k] = (sw_expr_var){c->vars[k].name, k, SW_EXPR_REAL};
			src[k][0] = k < SW_STATE_DIM ? i : net_owner(h, in->map[k], &src[k][1]);
			if (k < SW_STATE_DIM)
				src[k][1] = k;
		}
		sw_expr_symbols sym = {vars, c->n_vars, NULL, 0, NULL, NULL, NULL};
		sw_expr *f[SW_STATE_DIM];
		for (int k = 0; k < SW_STATE_DIM; k++) {
			const sw_expr_ast *a = c->locations[0].flow[k];
			*nodes += tree_size(a);
			int len = sw_expr_ast_print(a, SW_EXPR_SYNTAX_PLAIN, NULL, 0);
			char *text = malloc((size_t)len + 1);
			ck_assert_ptr_nonnull(text);
			sw_expr_ast_print(a, SW_EXPR_SYNTAX_PLAIN, text, (size_t)len + 1);
			sw_diag_init(&d);
			ck_assert_msg(sw_expr_compile(text, &sym, NULL, &d, &f[k]) == SW_SUCCESS,
				      "%s: flow %d does not parse back", law, k);
			free(text);
		}
		int tested = 0;
		for (int s = 0; s < n; s++) {
			double ys[8][SW_STATE_DIM] = {{0}};
			for (int j = 0; j < m->n_agents; j++) {
				ys[j][SW_STATE_X] = et_unif(r, -3.0, 3.0);
				ys[j][SW_STATE_Y] = et_unif(r, -2.5, 3.0);
				ys[j][SW_STATE_PHI] = et_unif(r, -PI, PI);
				ys[j][SW_STATE_V] = et_unif(r, 0.0, 1.6);
			}
			model_scene(m, i, ys, &sc);
			double dy[SW_STATE_DIM];
			if (et_native_rhs(&m->agents[i].steer, &m->agents[i].personality, &sc,
					  ys[i], dy) != SW_SUCCESS)
				continue;
			for (int k = 0; k < c->n_vars; k++)
				slots[k] = src[k][0] >= 0 ? ys[src[k][0]][src[k][1]] : 0.0;
			for (int k = 0; k < SW_STATE_DIM; k++) {
				double v = sw_expr_eval(f[k], slots, NULL);
				double e = et_rel_diff(v, dy[k]);
				ck_assert_msg(e <= TWIN_REL,
					      "%s agent %d state %d entry %d: exported %.17g, "
					      "native %.17g",
					      law, i, s, k, v, dy[k]);
				worst = fmax(worst, e);
			}
			tested++;
		}
		ck_assert_int_ge(tested, n - n / 10);
		for (int k = 0; k < SW_STATE_DIM; k++)
			sw_expr_free(f[k]);
		free(vars);
		free(src);
		free(slots);
	}
	gsl_rng_free(r);
	sw_hybrid_free(h);
	sw_model_free(m);
	return worst;
}

START_TEST(test_export_crowd_flows_equal_native)
{
	static const char *const laws[] = {"ttc", "sf", "csm t-contact=\"0\""};
	for (int l = 0; l < 3; l++) {
		long nodes;
		double worst = export_twin(laws[l], 300, &nodes);
		if (getenv("SW_EMIT_REPORT"))
			fprintf(stderr, "export twin %-20s max rel diff %.3g, %ld flow nodes\n",
				laws[l], worst, nodes);
	}
}
END_TEST

/* Where the export cannot be exact it refuses, naming the agent, the law and why: the tool
 * profiles and --linear; a <ttc> agent reading the velocity of a <csm> agent. */
START_TEST(test_export_crowd_refusals)
{
	sw_diag d;
	char msg[800];
	sw_model *m = crowd_model("ttc", &d);
	ck_assert_ptr_nonnull(m);
	for (int p = SW_PROFILE_SPACEEX; p <= SW_PROFILE_JULIAREACH + 1; p++) {
		int linear = p > SW_PROFILE_JULIAREACH;
		sw_hybrid *h =
		    crowd_build(m, linear ? SW_PROFILE_EXACT : (sw_export_profile)p, linear, &d);
		ck_assert_ptr_null(h);
		sw_diag_format(&d, 0, msg, sizeof msg);
		ck_assert_msg(strstr(msg, "crowd_export.xml:10") && strstr(msg, "<ttc>") &&
				  strstr(msg, "cannot be exported in the") &&
				  strstr(msg, linear ? "linear" : sw_export_profile_name(p)),
			      "got '%s'", msg);
	}
	sw_model_free(m);
	/* csm with its hard walls on beside two static obstacles and three agents: too large */
	m = crowd_model("csm", &d);
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_null(crowd_build(m, SW_PROFILE_EXACT, 0, &d));
	sw_diag_format(&d, 0, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "crowd_export.xml:10") &&
			  strstr(msg, "flows of the csm in this scene cannot be exported") &&
			  strstr(msg, "t-contact"),
		      "got '%s'", msg);
	sw_model_free(m);
	/* 22 sf agents: 22 x 21 agent-percept terms, more than an export takes */
	char *big = malloc(1 << 14);
	ck_assert_ptr_nonnull(big);
	int len = sprintf(big, "<scenario name=\"many\"><world><target name=\"g\" x=\"50\" "
			       "y=\"0\"/></world>");
	for (int k = 0; k < 22; k++)
		len += sprintf(big + len,
			       "\n<agent name=\"p%d\" x=\"%d\" y=\"0\" target=\"g\"><sf/></agent>",
			       k, k);
	len += sprintf(big + len, "</scenario>");
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory(big, (size_t)len, "many.xml", &m, &d), SW_SUCCESS);
	free(big);
	ck_assert_ptr_null(crowd_build(m, SW_PROFILE_EXACT, 0, &d));
	sw_diag_format(&d, 0, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "many.xml:") && strstr(msg, "more than 400 agent-percept terms"),
		      "got '%s'", msg);
	sw_model_free(m);
	/* a ttc agent among csm agents */
	char xml[4096];
	snprintf(xml, sizeof xml, crowd_xml, "ttc", "csm", "csm", "csm");
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory(xml, strlen(xml), "crowd_export.xml", &m, &d),
			 SW_SUCCESS);
	ck_assert_ptr_null(crowd_build(m, SW_PROFILE_EXACT, 0, &d));
	sw_diag_format(&d, 0, msg, sizeof msg);
	ck_assert_msg(strstr(msg, "crowd_export.xml:10") && strstr(msg, "velocity of agent 'b'"),
		      "got '%s'", msg);
	sw_model_free(m);
}
END_TEST

Suite *emit_crowd_suite(void)
{
	Suite *s = suite_create("emit_crowd");
	TCase *tc = tcase_create("twin");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_twin_ttc);
	tcase_add_test(tc, test_twin_sf);
	tcase_add_test(tc, test_twin_csm);
	suite_add_tcase(s, tc);
	TCase *th = tcase_create("hand");
	tcase_set_timeout(th, 120);
	tcase_add_test(th, test_hard_walls_corner_two_passes);
	tcase_add_test(th, test_crowd_emit_errors);
	tcase_add_test(th, test_crowd_trees_print_and_parse);
	tcase_add_test(th, test_derivatives_ttc_sf);
	suite_add_tcase(s, th);
	TCase *tx = tcase_create("export");
	tcase_set_timeout(tx, 300);
	tcase_add_test(tx, test_export_crowd_flows_equal_native);
	tcase_add_test(tx, test_export_crowd_refusals);
	suite_add_tcase(s, tx);
	return s;
}
