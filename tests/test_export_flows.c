/* tests/test_export_flows.c - the exported flows against the native side (src/export; the twin
 * rule): GLM and FW flows parsed back equal the native right-hand side, a native run equals a run
 * of the exported automaton, lifted variables track their expressions, and the linear
 * abstraction's bounds contain the native derivatives along a run.  Fixtures and builders come
 * from tests/test_export.c (declared in tests.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_rng.h>

#include "swerve/export.h"
#include "swerve/io.h"
#include "swerve/sim.h"
#include "tests.h"

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
	sw_model *m = test_export_load(test_export_plain_xml);
	sw_hybrid *h = test_export_build(m, SW_PROFILE_EXACT);
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
				  m->targets[0].position.y, 0, obs, NULL, 0};
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
	sw_model *m = test_export_load(fw_pillars_xml);
	sw_hybrid *h = test_export_build(m, SW_PROFILE_HYST);
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
				  m->targets[0].position.y, 0, obs, NULL, 0};
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
	sw_model *m = test_export_load(test_export_plain_xml);
	sw_hybrid *h = test_export_build(m, SW_PROFILE_EXACT);
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

/* The lifted variable's flow is the time derivative of its expression along the exported flows
 * (central differences at random states), its expression is the squared distance to the target
 * for an arrival, its resets keep it equal to the expression, and the guard reads it. */
START_TEST(test_lifted_variable_tracks_its_expression)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 11);
	int checked = 0, arrivals = 0, bearings = 0;
	for (int f = 0; f < TEST_EXPORT_N_FILES; f++) {
		sw_model *m = test_export_load_file(test_export_files[f]);
		sw_hybrid *h = test_export_build(m, SW_PROFILE_HYST);
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
								test_export_input_bounds(c, l, k, &lo, &hi);
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
							      test_export_files[f], c->vars[g].name, rate[g], fd);
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

/* test_export_plain_xml with a finer step: 500 steps of two agents */
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
	sw_model *m = test_export_load(plain_fine_xml);
	sw_hybrid *h = test_export_build_linear(m, SW_PROFILE_SPACEEX);
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
					    tg->position.y, 0, obs, NULL, 0};
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
					test_export_input_bounds(c, s.mode, f->slot, &lo, &hi);
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

Suite *export_flows_suite(void)
{
	Suite *s = suite_create("export_flows");
	TCase *tc = tcase_create("export_flows");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_exported_glm_flows_equal_native_rhs);
	tcase_add_test(tc, test_exported_fw_bearing_flows_equal_native_rhs);
	tcase_add_test(tc, test_native_run_matches_exported_automaton);
	tcase_add_test(tc, test_linear_bounds_contain_native_derivatives);
	tcase_add_test(tc, test_lifted_variable_tracks_its_expression);
	suite_add_tcase(s, tc);
	return s;
}
