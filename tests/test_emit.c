/* tests/test_emit.c - the symbolic emitters (sw_steer_emit, src/steer/emit.c) against the native
 * right-hand sides: the twin rule of DESIGN.md.
 *
 * For every law (and the GLM personality and parameter variants) random scenes are drawn: 0..8
 * discs, segments near and far, obstacles in linear motion at a random time t, other agents as
 * discs at their own state variables, a target (sometimes moving, sometimes absent), a finite or
 * infinite perception radius, random law parameters.  At random states in each scene the emitted
 * trees are compiled (sw_expr_compile_ast) and evaluated (sw_expr_eval), and compared with
 * sw_steer_rhs() applied to the situation built by et_perceive() below, a transcription of the
 * rules of src/sim/et_perceive.c (disc -> centre with rho = radius; segment -> closest point with
 * rho = 0 when clearance < wall_near * half length, else midpoint with rho = dist sin(half
 * subtended angle); cut-off clearance <= perception; other agents as discs; wall_near only for
 * GLM).  GLM weights are SW_WEIGHTS_DYNAMIC on the native side.  Agreement: |a - b| <= 1e-9 max(1,
 * |a|, |b|) for every entry (the native GLM loop may take the SLEEF path, ~1e-15 off the scalar
 * one).
 *
 * States are drawn anywhere in the scene and, half of the time, close to an obstacle (clearance
 * in [-0.2, 1.2]), where the near/far wall rule, the floored clearance, q = 1 (window step) and
 * the speed law's clamps act. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "swerve/core.h"
#include "swerve/expr.h"
#include "swerve/steer.h"
#include "emit_util.h"
#include "tests.h"

/* --- law configurations --------------------------------------------------------------------- */

static void glm_random_params(gsl_rng *r, sw_glm_params *g)
{
	g->weights = SW_WEIGHTS_DYNAMIC;
	g->a = et_unif(r, 0.5, 2.0);
	g->d0 = et_unif(r, 0.4, 3.0);
	g->delta = et_coin(r, 0.1) ? et_unif(r, 0.0, 1e-3) : et_unif(r, 0.3, 1.2);
	g->margin = et_coin(r, 0.5) ? -1.0 : et_unif(r, 0.0, 0.6);
	g->r_floor = et_coin(r, 0.5) ? 1e-3 : et_unif(r, 0.01, 0.2);
	g->wall_near = et_coin(r, 0.2) ? INFINITY : et_unif(r, 0.3, 2.0);
	g->a1_scale = et_unif(r, 0.2, 0.6);
	g->g21 = et_unif(r, 0.01, 0.1);
	g->c1 = et_unif(r, 1.0, 3.0);
	g->c2 = et_unif(r, 1.0, 3.0);
	g->eps = et_unif(r, 0.02, 0.2);
	g->speed = et_coin(r, 0.6)   ? SW_SPEED_T2C
		   : et_coin(r, 0.5) ? SW_SPEED_CONTACT
				     : SW_SPEED_CONSTANT;
	g->v_max = et_unif(r, 0.5, 1.5);
	g->d1 = et_unif(r, 0.1, 0.8);
	g->t2c = et_unif(r, 0.5, 2.0);
	g->arrive = et_coin(r, 0.3);
}

static void make_glm(gsl_rng *r, sw_steer_def *d, sw_personality *p)
{
	(void)p;
	d->law = SW_LAW_GLM;
	glm_random_params(r, &d->glm);
}

static void make_glm_personality(gsl_rng *r, sw_steer_def *d, sw_personality *p)
{
	d->law = SW_LAW_GLM;
	glm_random_params(r, &d->glm);
	unsigned k = (unsigned)gsl_rng_uniform_int(r, 3); /* agility, mass or both */
	p->has_agility = k != 1;
	p->has_mass = k != 0;
	p->agility = et_unif(r, -0.1, 1.1); /* clamped to [0, 1] */
	p->mass = et_unif(r, -0.1, 1.1);
	p->lambda_k_min = et_unif(r, 0.2, 1.0);
	p->lambda_k_max = et_unif(r, 5.0, 25.0);
	p->lambda_m_min = et_unif(r, 0.2, 1.0);
	p->lambda_m_max = et_unif(r, 5.0, 25.0);
	/* Courage changes the parameters once (as the model does); both sides get the result. */
	p->has_courage = et_coin(r, 0.5);
	p->courage = et_unif(r, 0.0, 1.0);
	d->glm = sw_glm_with_personality(&d->glm, p);
}

static void make_fw(gsl_rng *r, sw_steer_def *d, sw_personality *p)
{
	(void)p;
	d->law = SW_LAW_FW;
	d->fw.b = et_unif(r, 1.0, 5.0);
	d->fw.kg = et_unif(r, 2.0, 10.0);
	d->fw.c1 = et_unif(r, 0.1, 1.0);
	d->fw.c2 = et_unif(r, 0.1, 1.0);
	d->fw.ko = et_unif(r, 50.0, 250.0);
	d->fw.c3 = et_unif(r, 2.0, 8.0);
	d->fw.c4 = et_unif(r, 0.2, 1.6);
	d->fw.speed = et_unif(r, 0.5, 1.5);
}

static void make_pf(gsl_rng *r, sw_steer_def *d, sw_personality *p)
{
	(void)p;
	d->law = SW_LAW_PF;
	d->pf.kp = et_unif(r, 0.2, 2.0);
	d->pf.eta = et_unif(r, 0.2, 2.0);
	d->pf.rho0 = et_coin(r, 0.05) ? 1e-4 : et_unif(r, 0.3, 3.0); /* sometimes below r_floor */
	d->pf.r_floor = et_coin(r, 0.5) ? 1e-3 : et_unif(r, 0.01, 0.2);
	d->pf.speed = et_unif(r, 0.3, 1.0);
}

static void make_wall(gsl_rng *r, sw_steer_def *d, sw_personality *p)
{
	(void)p;
	d->law = SW_LAW_WALL;
	d->wall.a = et_unif(r, 0.5, 3.0);
	d->wall.side = et_coin(r, 0.5) ? 1 : -1;
	d->wall.distance = et_unif(r, 0.2, 1.0);
	d->wall.gain = et_unif(r, 0.5, 3.0);
	d->wall.speed = et_unif(r, 0.3, 1.2);
}

/* Worst relative differences seen, printed once by the last twin test (for the record). */
START_TEST(test_twin_glm)
{
	et_report("glm", et_twin_check(11, make_glm, NULL, 500, 20));
}
END_TEST

START_TEST(test_twin_glm_personality)
{
	et_report("glm+personality", et_twin_check(12, make_glm_personality, NULL, 500, 20));
}
END_TEST

START_TEST(test_twin_fw)
{
	et_report("fw", et_twin_check(13, make_fw, NULL, 500, 20));
}
END_TEST

START_TEST(test_twin_pf)
{
	et_report("pf", et_twin_check(14, make_pf, NULL, 500, 20));
}
END_TEST

START_TEST(test_twin_wall)
{
	et_report("wall", et_twin_check(15, make_wall, NULL, 500, 20));
}
END_TEST

/* --- hand-made situations ------------------------------------------------------------------- */

/* One disc straight ahead between agent and target: the emitted GLM flow turns away from it (the
 * twin of test_eval_obstacle_ahead_turns_away) and the speed law sees it in front. */
START_TEST(test_glm_obstacle_ahead)
{
	static et_scene sc;
	et_scene_init(&sc);
	et_add_disc(&sc, 2.0, 0.05, 0.5, 0.0, 0.0);
	sc.ctx.has_target = 1;
	sc.ctx.tx = 6.0;
	sw_steer_def d = sw_default_steer_def();
	sw_expr *e[SW_STATE_DIM];
	et_emit_compiled(&d, NULL, &sc, e);
	double y[SW_STATE_DIM] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0};
	double slots[N_SLOTS];
	et_fill_slots(&sc, y, slots);
	ck_assert(sw_expr_eval(e[SW_STATE_PHI], slots, NULL) <
		  -0.01); /* obstacle left: turn right */
	double v = sw_expr_eval(e[SW_STATE_X], slots, NULL);
	/* clearance 2.0006 - 0.75 = 1.2506; v = (r - d1) / t2c = 0.7506 */
	ck_assert(fabs(v - (hypot(2.0, 0.05) - 0.75 - 0.5)) < 1e-12);
	y[SW_STATE_PHI] = PI; /* facing away: nothing in front, v = v_max */
	et_fill_slots(&sc, y, slots);
	ck_assert(fabs(sw_expr_eval(e[SW_STATE_X], slots, NULL) + 1.0) < 1e-12);
	for (int j = 0; j < SW_STATE_DIM; j++)
		sw_expr_free(e[j]);
}
END_TEST

/* The perception cut-off and the wall near/far switch happen where et_perceive.c puts them. */
START_TEST(test_perception_and_wall_switch)
{
	static et_scene sc;
	et_scene_init(&sc);
	et_add_segment(&sc, -2.0, 1.0, 2.0, 1.0, 0.0, 0.0); /* half length 2 */
	sc.ctx.perception = 3.0;
	sc.ctx.radius = 0.0;
	sw_steer_def d = sw_default_steer_def();
	d.glm.weights = SW_WEIGHTS_DYNAMIC;
	d.glm.wall_near = 0.5; /* near below clearance 1 */
	sw_expr *e[SW_STATE_DIM];
	et_emit_compiled(&d, NULL, &sc, e);
	double prev = 0.0;
	/* Walk away from the wall along -y: near (< 1), far (1..3), unseen (> 3). */
	const double ys[] = {0.5, 0.05, -0.05, -1.5, -1.95, -2.05, -4.0};
	for (size_t i = 0; i < sizeof ys / sizeof ys[0]; i++) {
		double y[SW_STATE_DIM] = {0.3, ys[i], 0.4, 0.0, 0.0, 0.7, 0.9}, dy[SW_STATE_DIM];
		double slots[N_SLOTS];
		et_fill_slots(&sc, y, slots);
		ck_assert_int_eq(et_native_rhs(&d, NULL, &sc, y, dy), SW_SUCCESS);
		double v = sw_expr_eval(e[SW_STATE_PHI], slots, NULL);
		ck_assert_msg(et_rel_diff(v, dy[SW_STATE_PHI]) <= TWIN_REL, "y=%g: %.17g vs %.17g",
			      ys[i], v, dy[SW_STATE_PHI]);
		if (1.0 - ys[i] > 3.0)
			ck_assert(v == 0.0); /* unseen */
		else
			ck_assert(v != 0.0);
		prev = v;
	}
	(void)prev;
	for (int j = 0; j < SW_STATE_DIM; j++)
		sw_expr_free(e[j]);
}
END_TEST

/* --- derivatives (for the exporter's linearisation) ----------------------------------------- */

/* Central difference of entry j of the native rhs in state entry k with step h. */
static double native_fd(const sw_steer_def *d, const sw_personality *p, et_scene *sc,
			const double *y0, int j, int k, double h)
{
	double yp[SW_STATE_DIM], ym[SW_STATE_DIM], fp[SW_STATE_DIM], fm[SW_STATE_DIM];
	memcpy(yp, y0, sizeof yp);
	memcpy(ym, y0, sizeof ym);
	yp[k] += h;
	ym[k] -= h;
	if (et_native_rhs(d, p, sc, yp, fp) != SW_SUCCESS ||
	    et_native_rhs(d, p, sc, ym, fm) != SW_SUCCESS)
		return NAN;
	return (fp[j] - fm[j]) / (2.0 * h);
}

/* d(flow j)/d(x) of the emitted tree against central differences of the native rhs at random
 * smooth points (where two step sizes agree, i.e. no if/min switch nearby).  Returns the number
 * of points compared. */
static int derivative_check(unsigned long seed, et_def_maker make, int j, int tries)
{
	gsl_rng *r = et_rng_new(seed);
	static et_scene sc;
	int compared = 0;
	for (int i = 0; i < tries; i++) {
		et_random_scene(r, &sc);
		sw_steer_def def = sw_default_steer_def();
		sw_personality pers = sw_default_personality();
		make(r, &def, &pers);
		sw_expr_ast *out[SW_STATE_DIM], *dt = NULL;
		ck_assert_int_eq(sw_steer_emit(&def, &pers, &sc.ctx, out), SW_SUCCESS);
		ck_assert_int_eq(sw_expr_ast_derivative(out[j], SW_STATE_X, NULL, NULL, &dt),
				 SW_SUCCESS);
		sw_expr *e = NULL;
		ck_assert_int_eq(sw_expr_compile_ast(dt, NULL, &e), SW_SUCCESS);
		for (int k = 0; k < 5; k++) {
			double y[SW_STATE_DIM], slots[N_SLOTS];
			et_random_state(r, &sc, y);
			double h = 1e-5;
			double f1 = native_fd(&def, &pers, &sc, y, j, SW_STATE_X, h);
			double f2 = native_fd(&def, &pers, &sc, y, j, SW_STATE_X, 0.5 * h);
			if (!isfinite(f1) || !isfinite(f2) ||
			    fabs(f1 - f2) > 1e-7 * fmax(1.0, fabs(f2)))
				continue; /* a switch or a steep spot nearby */
			et_fill_slots(&sc, y, slots);
			double d = sw_expr_eval(e, slots, NULL);
			ck_assert_msg(fabs(d - f2) <= 1e-6 * fmax(1.0, fabs(f2)),
				      "law %d: d/dx = %.12g, differences %.12g", (int)def.law, d,
				      f2);
			compared++;
		}
		sw_expr_free(e);
		sw_expr_ast_free(dt);
		for (int k = 0; k < SW_STATE_DIM; k++)
			sw_expr_ast_free(out[k]);
	}
	gsl_rng_free(r);
	return compared;
}

START_TEST(test_derivative_glm_heading)
{
	int n = derivative_check(21, make_glm, SW_STATE_PHI, 60);
	if (getenv("SW_EMIT_REPORT"))
		fprintf(stderr, "emit derivative glm: %d smooth points compared\n", n);
	ck_assert_int_ge(n, 100);
}
END_TEST

START_TEST(test_derivative_fw_and_wall)
{
	ck_assert_int_ge(derivative_check(22, make_fw, SW_STATE_OMEGA, 60), 100);
	ck_assert_int_ge(derivative_check(23, make_wall, SW_STATE_PHI, 60), 100);
	ck_assert_int_ge(derivative_check(24, make_pf, SW_STATE_X, 60), 100);
}
END_TEST

/* --- sizes, heights, errors ----------------------------------------------------------------- */

static long tree_size(const sw_expr_ast *a)
{
	long n = 1;
	for (int i = 0; i < a->nkid; i++)
		n += tree_size(a->kid[i]);
	return n;
}

/* A crowded scene of n obstacles (discs and segments seen near and far, moving) and 4 agents with
 * a finite perception radius: every tree compiles (stack) and stays within the height limit,
 * and the size grows linearly. */
static long crowded_size(int n, int *height)
{
	static et_scene sc;
	et_scene_init(&sc);
	gsl_rng *r = et_rng_new(31);
	for (int i = 0; i < n; i++) {
		double x = et_unif(r, -6.0, 6.0), y = et_unif(r, -6.0, 6.0);
		if (i % 3 == 2)
			et_add_segment(&sc, x, y, x + 2.0, y + 1.0, 0.1, 0.0);
		else
			et_add_disc(&sc, x, y, 0.3, i % 2 ? 0.2 : 0.0, 0.0);
	}
	for (int j = 0; j < MAX_AGENTS; j++)
		et_add_agent(&sc, et_unif(r, -6.0, 6.0), et_unif(r, -6.0, 6.0), 0.25);
	gsl_rng_free(r);
	sc.ctx.has_target = 1;
	sc.ctx.tx = 8.0;
	sc.ctx.perception = 4.0;
	sw_steer_def d = sw_default_steer_def();
	sw_personality p = sw_default_personality();
	p.has_agility = p.has_mass = 1;
	sw_expr_ast *out[SW_STATE_DIM];
	ck_assert_int_eq(sw_steer_emit(&d, &p, &sc.ctx, out), SW_SUCCESS);
	long size = 0;
	*height = 0;
	for (int k = 0; k < SW_STATE_DIM; k++) {
		sw_expr *e = NULL;
		ck_assert_int_eq(sw_expr_compile_ast(out[k], NULL, &e), SW_SUCCESS);
		ck_assert_int_le(sw_expr_stack_depth(e), SW_EXPR_MAX_STACK);
		sw_expr_free(e);
		size += tree_size(out[k]);
		if (out[k]->height > *height)
			*height = out[k]->height;
		sw_expr_ast_free(out[k]);
	}
	return size;
}

START_TEST(test_tree_sizes_and_heights)
{
	int h10, h30, h100;
	long s10 = crowded_size(10, &h10), s30 = crowded_size(30, &h30);
	long s100 = crowded_size(100, &h100);
	if (getenv("SW_EMIT_REPORT"))
		fprintf(stderr,
			"emit sizes: 10+4 obstacles %ld nodes (height %d), 30+4 %ld (%d), "
			"100+4 %ld (%d)\n",
			s10, h10, s30, h30, s100, h100);
	ck_assert_int_le(h30, 200);
	ck_assert_int_le(h100, 250);
	/* linear: per-obstacle cost roughly constant */
	ck_assert(s100 < 5 * s30);
}
END_TEST

START_TEST(test_emit_errors)
{
	static et_scene sc;
	et_scene_init(&sc);
	sw_steer_def d = sw_default_steer_def();
	sw_expr_ast *out[SW_STATE_DIM];
	ck_assert_int_eq(sw_steer_emit(NULL, NULL, &sc.ctx, out), SW_EUSAGE);
	ck_assert_int_eq(sw_steer_emit(&d, NULL, NULL, out), SW_EUSAGE);
	ck_assert_int_eq(sw_steer_emit(&d, NULL, &sc.ctx, NULL), SW_EUSAGE);
	/* something moves but there is no time variable */
	et_add_disc(&sc, 1.0, 1.0, 0.2, 0.5, 0.0);
	sc.ctx.t_slot = -1;
	ck_assert_int_eq(sw_steer_emit(&d, NULL, &sc.ctx, out), SW_EUSAGE);
	for (int k = 0; k < SW_STATE_DIM; k++)
		ck_assert_ptr_null(out[k]);
	sc.ctx.t_slot = SLOT_T;
	/* a variable the law reads has no name */
	sc.ctx.name[SW_STATE_WTAR] = NULL;
	ck_assert_int_eq(sw_steer_emit(&d, NULL, &sc.ctx, out), SW_EUSAGE);
	d.law = SW_LAW_FW; /* FW does not read w_tar */
	ck_assert_int_eq(sw_steer_emit(&d, NULL, &sc.ctx, out), SW_SUCCESS);
	for (int k = 0; k < SW_STATE_DIM; k++)
		sw_expr_ast_free(out[k]);
	d.law = (sw_law)1000; /* no law */
	ck_assert_int_eq(sw_steer_emit(&d, NULL, &sc.ctx, out), SW_EUSAGE);
}
END_TEST

/* The emitted trees print and parse back to equal trees that evaluate alike (what the exporter
 * relies on), with no non-finite number printed. */
START_TEST(test_emitted_trees_print_and_parse)
{
	static et_scene sc;
	gsl_rng *r = et_rng_new(41);
	sw_expr_var vars[N_SLOTS];
	int nv = 0;
	for (int k = 0; k < SW_STATE_DIM; k++)
		vars[nv++] = (sw_expr_var){et_state_names[k], k, SW_EXPR_REAL};
	vars[nv++] = (sw_expr_var){"t", SLOT_T, SW_EXPR_REAL};
	for (int j = 0; j < MAX_AGENTS; j++) {
		for (int q = 0; q < 4; q++)
			vars[nv++] = (sw_expr_var){et_agent_names[4 * j + q], SLOT_AGENT(j) + q,
						   SW_EXPR_REAL};
	}
	sw_expr_symbols sym = {vars, nv, NULL, 0, NULL, NULL, NULL};
	for (int i = 0; i < 8; i++) {
		et_random_scene(r, &sc);
		sw_steer_def d = sw_default_steer_def();
		sw_personality p = sw_default_personality();
		d.law = (sw_law)(i % 4);
		p.has_agility = p.has_mass = i >= 4;
		sw_expr_ast *out[SW_STATE_DIM];
		ck_assert_int_eq(sw_steer_emit(&d, &p, &sc.ctx, out), SW_SUCCESS);
		for (int k = 0; k < SW_STATE_DIM; k++) {
			int n = sw_expr_ast_print(out[k], SW_EXPR_SYNTAX_PLAIN, NULL, 0);
			char *buf = malloc((size_t)n + 1);
			ck_assert_ptr_nonnull(buf);
			sw_expr_ast_print(out[k], SW_EXPR_SYNTAX_PLAIN, buf, (size_t)n + 1);
			ck_assert_msg(strstr(buf, "1/0") == NULL && strstr(buf, "0/0") == NULL,
				      "non-finite number printed");
			sw_expr_ast *back = NULL;
			ck_assert_int_eq(sw_expr_ast_parse(buf, &sym, NULL, NULL, &back),
					 SW_SUCCESS);
			ck_assert(sw_expr_ast_equal(out[k], back));
			sw_expr *e1 = NULL, *e2 = NULL;
			ck_assert_int_eq(sw_expr_compile_ast(out[k], NULL, &e1), SW_SUCCESS);
			ck_assert_int_eq(sw_expr_compile_ast(back, NULL, &e2), SW_SUCCESS);
			for (int m = 0; m < 20; m++) {
				double y[SW_STATE_DIM], slots[N_SLOTS];
				et_random_state(r, &sc, y);
				et_fill_slots(&sc, y, slots);
				double a = sw_expr_eval(e1, slots, NULL),
				       b = sw_expr_eval(e2, slots, NULL);
				ck_assert(a == b || (isnan(a) && isnan(b)));
			}
			sw_expr_free(e1);
			sw_expr_free(e2);
			sw_expr_ast_free(back);
			free(buf);
			sw_expr_ast_free(out[k]);
		}
	}
	gsl_rng_free(r);
}
END_TEST

Suite *emit_suite(void)
{
	Suite *s = suite_create("emit");
	TCase *tc = tcase_create("twin");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_twin_glm);
	tcase_add_test(tc, test_twin_glm_personality);
	tcase_add_test(tc, test_twin_fw);
	tcase_add_test(tc, test_twin_pf);
	tcase_add_test(tc, test_twin_wall);
	tcase_add_test(tc, test_glm_obstacle_ahead);
	tcase_add_test(tc, test_perception_and_wall_switch);
	suite_add_tcase(s, tc);
	TCase *td = tcase_create("derivative");
	tcase_set_timeout(td, 300);
	tcase_add_test(td, test_derivative_glm_heading);
	tcase_add_test(td, test_derivative_fw_and_wall);
	suite_add_tcase(s, td);
	TCase *tz = tcase_create("structure");
	tcase_set_timeout(tz, 300);
	tcase_add_test(tz, test_tree_sizes_and_heights);
	tcase_add_test(tz, test_emit_errors);
	tcase_add_test(tz, test_emitted_trees_print_and_parse);
	suite_add_tcase(s, tz);
	return s;
}
