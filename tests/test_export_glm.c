/* tests/test_export_glm.c - GLM flows exported exact in the hyst profile (export/lift.c,
 * export/bearing.c): the flows parsed back from the component equal the native right-hand side
 * at 10^4 states of the region where they are exact (the twin rule), and the unsafe sets are
 * widened to that region. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "swerve/export.h"
#include "swerve/io.h"
#include "swerve/sim.h"
#include "tests.h"

/* A GLM agent with dynamic weights, no noise, two pillars off its path and a target. */
static const char glm_pillars_xml[] =
    "<scenario name=\"glm_pillars\"><run duration=\"6\" step=\"0.05\" integrator=\"rk4\"/>"
    "<world><target name=\"goal\" x=\"8\" y=\"0\" radius=\"0.4\"/>"
    "<disc name=\"p1\" x=\"4\" y=\"2\" radius=\"0.3\"/>"
    "<disc name=\"p2\" x=\"3\" y=\"-2.5\" radius=\"0.4\"/></world>"
    "<agent name=\"walker\" x=\"0\" y=\"0\" heading=\"0\" radius=\"0.25\" target=\"goal\">"
    "<glm a=\"1\" d0=\"3.0\" delta=\"0.8\" v-max=\"1.0\" d1=\"0.3\" t2c=\"1.0\" sigma=\"0\" "
    "weights=\"dynamic\"/></agent></scenario>";

/* The radius of the region where the exported GLM flows are exact (export/lift.c), written
 * independently: no contact and no window cap (q <= cos(delta / 2)), no obstacle slowing the
 * agent ((d - rho - r - d1) / t2c >= v_max). */
static double region_radius(const sw_glm_params *p, double rho, double r)
{
	double margin = p->margin < 0 ? p->d1 : p->margin, N = rho + r + margin;
	return fmax(N / cos(p->delta / 2), rho + r + p->d1 + p->v_max * p->t2c);
}

START_TEST(test_exported_glm_lifted_flows_equal_native_rhs)
{
	sw_diag d;
	sw_diag_init(&d);
	sw_model *m = NULL;
	ck_assert_int_eq(sw_scenario_load_memory(glm_pillars_xml, strlen(glm_pillars_xml),
						 "mem.xml", &m, &d),
			 SW_SUCCESS);
	sw_export_def def = sw_default_export_def();
	def.profile = SW_PROFILE_HYST;
	sw_hybrid *h = NULL;
	ck_assert_int_eq(sw_hybrid_build(m, &def, &h, &d), SW_SUCCESS);
	const sw_hcomponent *c = &h->components[h->instances[0].component];
	const sw_agent *ag = &m->agents[0];
	const sw_glm_params *p = &ag->steer.glm;
	/* two bearings and two half-widths lifted; the only input is u_competition */
	int n_atan2 = 0, n_asin = 0, u_comp = -1;
	for (int k = 0; k < c->n_vars; k++) {
		if (c->vars[k].role == SW_HVAR_INPUT) {
			ck_assert_str_eq(c->vars[k].name, "u_competition");
			u_comp = k;
		}
		n_atan2 += c->vars[k].lifted && c->vars[k].lifted->op == SW_EXPR_ATAN2;
		n_asin += c->vars[k].lifted && c->vars[k].lifted->op == SW_EXPR_ASIN;
	}
	ck_assert_int_eq(n_atan2, 2);
	ck_assert_int_eq(n_asin, 2);
	ck_assert_int_ge(u_comp, 0);
	/* the unsafe sets are the discs of the region */
	ck_assert_int_eq(h->n_forbidden, 2);
	for (int i = 0; i < 2; i++) {
		double R = region_radius(p, m->prims[i].radius, ag->radius);
		char want[64];
		snprintf(want, sizeof want, "%.6g", R * R);
		char text[512];
		ck_assert_int_lt(sw_expr_ast_print(h->forbidden[i].set, SW_EXPR_SYNTAX_PLAIN, text,
						   sizeof text),
				 (int)sizeof text);
		double r2 = atof(strrchr(text, '=') + 1);
		ck_assert_msg(fabs(r2 - R * R) < 1e-6, "unsafe set %s, expected radius^2 %s", text,
			      want);
	}
	/* flows and lifted definitions */
	sw_expr_var *vars = calloc((size_t)c->n_vars, sizeof *vars);
	for (int k = 0; k < c->n_vars; k++)
		vars[k] = (sw_expr_var){c->vars[k].name, k, SW_EXPR_REAL};
	sw_expr_symbols sym = {vars, c->n_vars, NULL, 0, NULL, NULL, NULL};
	sw_expr *f[64], *lift[64] = {NULL};
	ck_assert_int_le(c->n_state, 64);
	static char text[1 << 17];
	for (int k = 0; k < c->n_state; k++) {
		ck_assert_int_lt(sw_expr_ast_print(c->locations[0].flow[k], SW_EXPR_SYNTAX_PLAIN, text,
						   sizeof text),
				 (int)sizeof text);
		ck_assert_msg(sw_expr_compile(text, &sym, NULL, &d, &f[k]) == SW_SUCCESS,
			      "flow of %s does not parse back", c->vars[k].name);
		if (c->vars[k].lifted)
			ck_assert_int_eq(sw_expr_compile_ast(c->vars[k].lifted, NULL, &lift[k]),
					 SW_SUCCESS);
	}
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 20);
	double *slots = calloc((size_t)c->n_vars, sizeof *slots);
	int tested = 0;
	while (tested < 10000) {
		double y[SW_STATE_DIM] = {gsl_rng_uniform(rng) * 12 - 4, gsl_rng_uniform(rng) * 10 - 5,
					  gsl_rng_uniform(rng) * 20 - 10, 0, 0,
					  gsl_rng_uniform(rng), gsl_rng_uniform(rng)};
		sw_percept obs[4];
		sw_situation s = {y[0], y[1], ag->radius, 1, m->targets[0].position.x,
				  m->targets[0].position.y, 0, obs, NULL, 0};
		int outside = 0;
		for (int k = 0; k < m->n_prims; k++) {
			double dx = m->prims[k].a.x - y[0], dy = m->prims[k].a.y - y[1];
			double dist = hypot(dx, dy), cl = dist - m->prims[k].radius - ag->radius;
			outside |= dist < region_radius(p, m->prims[k].radius, ag->radius) * 1.000001;
			obs[s.n_obs++] = (sw_percept){dx, dy, dist, m->prims[k].radius, cl, k, 0.0, 0.0};
		}
		if (outside || hypot(y[0] - 8, y[1]) < 0.4)
			continue;
		double dydt[SW_STATE_DIM];
		sw_glm_terms t;
		ck_assert_int_eq(sw_steer_rhs(&ag->steer, &ag->personality, &s, y, dydt, &t),
				 SW_SUCCESS);
		for (int k = 0; k < c->n_vars; k++)
			slots[k] = k < SW_STATE_DIM ? y[k] : 0.0;
		for (int k = SW_STATE_DIM; k < c->n_state; k++)
			if (lift[k]) /* a lifted variable holds its expression's value */
				slots[k] = sw_expr_eval(lift[k], slots, NULL);
		/* the input at the native value of P_tar P_obs: g12 = exp(-c2 (u + 1)) */
		slots[u_comp] = -log(t.g12) / p->c2 - 1.0;
		for (int k = 0; k < SW_STATE_DIM; k++) {
			double e = sw_expr_eval(f[k], slots, NULL);
			ck_assert_msg(fabs(e - dydt[k]) <= 1e-8 * fmax(1.0, fmax(fabs(e), fabs(dydt[k]))),
				      "component %d at (%g, %g, %g, %g, %g): exported %.17g, native %.17g",
				      k, y[0], y[1], y[2], y[5], y[6], e, dydt[k]);
		}
		tested++;
	}
	for (int k = 0; k < c->n_state; k++) {
		sw_expr_free(f[k]);
		sw_expr_free(lift[k]);
	}
	free(vars);
	free(slots);
	gsl_rng_free(rng);
	sw_hybrid_free(h);
	sw_model_free(m);
}
END_TEST

Suite *export_glm_suite(void)
{
	Suite *s = suite_create("export_glm");
	TCase *tc = tcase_create("export_glm");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_exported_glm_lifted_flows_equal_native_rhs);
	suite_add_tcase(s, tc);
	return s;
}
