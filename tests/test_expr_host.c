/* tests/test_expr_host.c - expressions against their host (tests/expr_host.h): margins, host
 * functions, derivatives and the tree constructors.
 *
 * Margins are compared with the truth of their guards at random points, derivatives against
 * central finite differences, host calls against the arguments they must receive. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "swerve/core.h"
#include "swerve/expr.h"
#include "expr_host.h"
#include "tests.h"

/* ---- margins -------------------------------------------------------------------------------- */

START_TEST(margin_sign_equals_truth_at_random_points)
{
	/* clang-format off */
	static const char *guards[] = {
		"x > y", "x >= y", "x < y", "x <= y", "x != y", "x == y", "x > 0 and y < 1",
		"x > 0 or y < 1 and not z > 0.5", "not (x < y)", "p", "not q", "p and x > 0",
		"true", "false", "if(p, x > 0, y > 0)", "inside(crosswalk)",
		"near(x, y) or inside(goal)", "x ge y and y le z or z eq t",
		"sin(x) > cos(y) and (p or not near(z, t))", "floor(x) == floor(y)",
	};
	/* clang-format on */
	gsl_rng *r = sw_rng_stream_alloc(4, 0);
	for (size_t i = 0; i < sizeof guards / sizeof guards[0]; i++) {
		sw_expr *e = eh_compile_ok(guards[i]);
		int nonzero = 0;
		for (int k = 0; k < 2000; k++) {
			double s[NSLOTS];
			eh_random_slots(r, s);
			if (k % 10 == 0)
				s[Y] = s[X]; /* visit the boundary of equalities */
			for (int with_margin = 0; with_margin < 2; with_margin++) {
				sw_expr_env env = {eh_host_call, with_margin ? eh_host_margin : NULL, s};
				double v = sw_expr_eval(e, s, &env), m = sw_expr_margin(e, s, &env);
				ck_assert(v == 0.0 || v == 1.0);
				if (m != 0.0) {
					nonzero++;
					ck_assert_msg((m > 0) == (v == 1.0),
						      "%s: margin %g, value %g", guards[i], m, v);
				}
			}
		}
		ck_assert_int_gt(nonzero, 0);
		sw_expr_free(e);
	}
	gsl_rng_free(r);
	/* The documented formulas. */
	double s[NSLOTS] = {0};
	s[X] = 3;
	s[Y] = 5;
	s[P] = 1;
	sw_expr_env env = {eh_host_call, eh_host_margin, s};
	/* clang-format off */
	static const struct {
		const char *text;
		double m;
	} m[] = {
		{"x > y", -2}, {"x >= y", -2}, {"x < y", 2}, {"x le y", 2}, {"x == y", -2},
		{"x != y", 2}, {"not x > y", 2}, {"x < y and x > 1", 2},
		{"x < y and x > 2.5", 0.5}, {"x > y or x > 2.5", 0.5}, {"p", 1}, {"q", -1},
		{"true", 1}, {"if(p, x > 1, x > 10)", 2}, {"inside(crosswalk)", 1.9}, {"x*2", 6},
	};
	/* clang-format on */
	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
		sw_expr *e = eh_compile_ok(m[i].text);
		ck_assert_double_eq_tol(sw_expr_margin(e, s, &env), m[i].m, 1e-15);
		sw_expr_free(e);
	}
}
END_TEST

/* ---- host functions ------------------------------------------------------------------------- */

static int seen_func, seen_names[2];
static double seen_args[2];

static double record(void *ctx, int func, const int *names, const double *args)
{
	(void)ctx;
	seen_func = func;
	seen_names[0] = names[0];
	seen_args[0] = args[0];
	seen_args[1] = func == F_NEAR ? args[1] : NAN;
	return func == F_INSIDE ? 5.0 : 42.0; /* any non-zero is true */
}

START_TEST(host_functions_receive_name_ids_and_real_arguments)
{
	double s[NSLOTS] = {0};
	s[X] = 0.25;
	sw_expr_env env = {record, NULL, NULL};
	sw_expr *e = eh_compile_ok("progress(home, x*4)");
	ck_assert_double_eq(sw_expr_eval(e, s, &env), 42.0);
	ck_assert_int_eq(seen_func, F_PROGRESS);
	ck_assert_int_eq(seen_names[0], 9);
	ck_assert_double_eq(seen_args[0], 1.0);
	sw_expr_free(e);
	e = eh_compile_ok("inside(crosswalk)");
	ck_assert_double_eq(sw_expr_eval(e, s, &env), 1.0);   /* booleans come out as 0/1 */
	ck_assert_double_eq(sw_expr_margin(e, s, &env), 1.0); /* no margin callback: +-1 */
	ck_assert_int_eq(seen_names[0], 11);
	ck_assert(isnan(sw_expr_eval(e, s, NULL))); /* no host: NaN, never a crash */
	sw_expr_free(e);
	e = eh_compile_ok("near(x, 2) and dist(goal) > 1");
	sw_expr_eval(e, s, &env);
	ck_assert_int_eq(seen_func, F_DIST);
	ck_assert_int_eq(seen_names[0], 7);
	sw_expr_free(e);
	/* The tree exposes the call for the exporter. */
	sw_expr_ast *a = NULL;
	ck_assert_int_eq(sw_expr_ast_parse("progress(goal, 1)", &eh_syms, NULL, NULL, &a), SW_SUCCESS);
	ck_assert_int_eq(a->op, SW_EXPR_HOST);
	ck_assert_int_eq(a->slot, F_PROGRESS);
	ck_assert_str_eq(a->name, "progress");
	ck_assert_int_eq(a->kid[0]->op, SW_EXPR_NAME);
	ck_assert_int_eq(a->kid[0]->slot, 7);
	ck_assert_str_eq(a->kid[0]->name, "goal");
	sw_expr_ast_free(a);
	/* A symbol table without a resolver knows no names; no table knows no variables. */
	sw_expr_symbols bare = eh_syms;
	bare.resolve_name = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_expr_compile("dist(goal)", &bare, NULL, &d, &e), SW_EINPUT);
	ck_assert_str_eq(d.entry[0].message, "unknown name 'goal' for argument 1 of 'dist'");
	ck_assert_int_eq(sw_expr_compile("x", NULL, NULL, &d, &e), SW_EINPUT);
	ck_assert_double_eq(eh_eval0("2*pi"), 2 * M_PI);
}
END_TEST

/* ---- derivatives ---------------------------------------------------------------------------- */

static double eval_tree(const sw_expr_ast *a, double *s)
{
	sw_expr *e = NULL;
	ck_assert_int_eq(sw_expr_compile_ast(a, NULL, &e), SW_SUCCESS);
	sw_expr_env env = {eh_host_call, eh_host_margin, s};
	double v = sw_expr_eval(e, s, &env);
	sw_expr_free(e);
	return v;
}

START_TEST(derivative_matches_central_differences)
{
	/* Arguments are kept inside each function's domain for s in [-2, 2]^n. */
	/* clang-format off */
	static const char *fs[] = {
		"x*y + z", "x/y + y/(x*x + 1)", "x^3 - 2*x^y + y^2", "(x*x + 1)^(y/3)", "sin(x*y)",
		"cos(x + y)", "tan(x/3)", "asin(x/3)", "acos(y/3 - x/9)", "atan(x*y)",
		"atan2(y, x)", "atan2(x*y + 3, x - y)", "exp(x*y/2)", "log(x*x + y*y + 0.1)",
		"sqrt(x*x + 1)", "tanh(x*y)", "sinh(x/2)", "cosh(x - y)",
		"abs(x*y) + abs(x - 0.123)", "sign(x) + floor(x) + ceil(y)*x",
		"min(x, y*y) + max(x*y, 1)", "if(x > y, x*x, sin(y)*x)", "-x*-(y + pi)",
		"scale(x*x*y) + scale(y)", "progress(goal, 1) + z*0", "2^x + x^2",
	};
	/* clang-format on */
	gsl_rng *r = sw_rng_stream_alloc(5, 0);
	for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++) {
		sw_expr_ast *a = NULL;
		ck_assert_int_eq(sw_expr_ast_parse(fs[i], &eh_syms, NULL, NULL, &a), SW_SUCCESS);
		for (int slot = X; slot <= Y; slot++) {
			sw_expr_ast *da = NULL;
			int st = sw_expr_ast_derivative(a, slot, &eh_syms, NULL, &da);
			if (strstr(fs[i], "progress")) { /* the host gives no derivative */
				ck_assert_int_eq(st, SW_EUSAGE);
				ck_assert_ptr_null(da);
				continue;
			}
			ck_assert_msg(st == SW_SUCCESS, "d/d%d %s failed", slot, fs[i]);
			for (int k = 0; k < 200; k++) {
				double s[NSLOTS];
				eh_random_slots(r, s);
				if (fabs(s[X] - s[Y]) < 1e-3 || fabs(s[X] * s[Y] - 1) < 1e-3 ||
				    fabs(s[X] - round(s[X])) < 1e-3 ||
				    fabs(s[Y] - round(s[Y])) < 2e-2 ||
				    fabs(s[X] - s[Y] * s[Y]) < 1e-3 || fabs(s[X] - 0.123) < 1e-3)
					continue; /* away from kinks */
				if (strchr(fs[i], '^') && s[X] <= 0.05)
					s[X] = 0.05 + fabs(s[X]); /* x^y needs x > 0 */
				double h = 1e-5 * (1.0 + fabs(s[slot])), s0 = s[slot];
				s[slot] = s0 + h;
				double fp = eval_tree(a, s);
				s[slot] = s0 - h;
				double fm = eval_tree(a, s);
				s[slot] = s0;
				double fd = (fp - fm) / (2 * h), dv = eval_tree(da, s);
				ck_assert_msg(
				    fabs(fd - dv) <= 1e-6 * (1.0 + fabs(dv)),
				    "d/d%d %s at (%g, %g): %.12g vs finite difference %.12g", slot,
				    fs[i], s[X], s[Y], dv, fd);
			}
			sw_expr_ast_free(da);
		}
		sw_expr_ast_free(a);
	}
	gsl_rng_free(r);
}
END_TEST

START_TEST(derivative_is_simplified_and_reports_what_it_cannot_do)
{
	/* clang-format off */
	static const struct {
		const char *f, *df;
	} cases[] = {
		{"3*x", "3"}, {"x^2", "2*x"}, {"x^3", "3*x^2"}, {"y*0 + x", "1"}, {"sin(y)", "0"},
		{"x*y + x", "y + 1"}, {"x^1 + 0", "1"}, {"sin(x)", "cos(x)"}, {"-x", "-1"},
		{"exp(2*x)", "exp(2*x)*2"}, {"min(x, 1)", "if(x <= 1, 1, 0)"},
		{"abs(x)", "sign(x)"}, {"x/y", "1/y"}, {"sign(x) + floor(x)", "0"},
	};
	/* clang-format on */
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		sw_expr_ast *a = NULL, *da = NULL;
		ck_assert_int_eq(sw_expr_ast_parse(cases[i].f, &eh_syms, NULL, NULL, &a), SW_SUCCESS);
		ck_assert_int_eq(sw_expr_ast_derivative(a, X, &eh_syms, NULL, &da), SW_SUCCESS);
		char buf[128];
		sw_expr_ast_print(da, SW_EXPR_SYNTAX_PLAIN, buf, sizeof buf);
		ck_assert_msg(strcmp(buf, cases[i].df) == 0, "d/dx %s = %s, expected %s",
			      cases[i].f, buf, cases[i].df);
		sw_expr_ast_free(a);
		sw_expr_ast_free(da);
	}
	sw_diag d;
	sw_diag_init(&d);
	sw_expr_ast *a = NULL, *da = (sw_expr_ast *)1;
	ck_assert_int_eq(sw_expr_ast_parse("x + 2*dist(goal)", &eh_syms, NULL, NULL, &a), SW_SUCCESS);
	ck_assert_int_eq(sw_expr_ast_derivative(a, X, &eh_syms, &d, &da), SW_EUSAGE);
	ck_assert_ptr_null(da);
	ck_assert_str_eq(d.entry[0].message, "no derivative for 'dist'");
	ck_assert_int_eq(d.entry[0].column, 7);
	ck_assert_int_eq(sw_expr_ast_derivative(a, X, NULL, NULL, &da), SW_EUSAGE);
	sw_expr_ast_free(a);
	ck_assert_int_eq(sw_expr_ast_parse("x > 1", &eh_syms, NULL, NULL, &a), SW_SUCCESS);
	ck_assert_int_eq(sw_expr_ast_derivative(a, X, &eh_syms, &d, &da), SW_EUSAGE);
	ck_assert_str_eq(d.entry[1].message,
			 "cannot differentiate a condition (a boolean expression)");
	sw_expr_ast_free(a);
	/* Repeated differentiation stays well-formed (and bounded by the height limit). */
	ck_assert_int_eq(sw_expr_ast_parse("sin(x)*exp(x)", &eh_syms, NULL, NULL, &a), SW_SUCCESS);
	for (int k = 0; k < 6; k++) {
		ck_assert_int_eq(sw_expr_ast_derivative(a, X, &eh_syms, NULL, &da), SW_SUCCESS);
		sw_expr_ast_free(a);
		a = da;
	}
	double s[NSLOTS] = {0.7};
	/* e^x sin x = Im e^((1+i)x) and (1+i)^6 = -8i, so the 6th derivative is -8 e^x cos x. */
	ck_assert_double_eq_tol(eval_tree(a, s), -8 * exp(0.7) * cos(0.7), 1e-12);
	sw_expr_ast_free(a);
}
END_TEST

/* ---- constructors and limits ---------------------------------------------------------------- */

START_TEST(constructors_check_types_arity_and_limits)
{
	ck_assert_ptr_null(
	    sw_expr_ast_node(SW_EXPR_AND, sw_expr_ast_number(1), sw_expr_ast_number(2), NULL));
	ck_assert_ptr_null(sw_expr_ast_node(SW_EXPR_ADD, sw_expr_ast_number(1), NULL, NULL));
	ck_assert_ptr_null(sw_expr_ast_node(SW_EXPR_NUM, NULL, NULL, NULL));
	ck_assert_ptr_null(sw_expr_ast_node(SW_EXPR_SIN, sw_expr_ast_name("goal", 7), NULL, NULL));
	ck_assert_ptr_null(sw_expr_ast_variable("v", 0, SW_EXPR_ANY));
	ck_assert_ptr_null(sw_expr_ast_variable(NULL, 0, SW_EXPR_REAL));
	sw_expr_ast *wrong = sw_expr_ast_number(1);
	ck_assert_ptr_null(sw_expr_ast_host(&eh_funcs[0], &wrong)); /* dist takes a name */
	ck_assert_ptr_null(sw_expr_ast_host(NULL, NULL));
	/* A right-deep sum of 300 terms: the tree is legal but needs 300 stack entries. */
	sw_expr_ast *a = sw_expr_ast_variable("x", X, SW_EXPR_REAL);
	for (int i = 0; i < 299; i++)
		a = sw_expr_ast_node(SW_EXPR_ADD, sw_expr_ast_number(1), a, NULL);
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(a->height, 300);
	sw_diag d;
	sw_diag_init(&d);
	sw_expr *e = (sw_expr *)1;
	ck_assert_int_eq(sw_expr_compile_ast(a, &d, &e), SW_EINPUT);
	ck_assert_ptr_null(e);
	ck_assert_str_eq(d.entry[0].message, "expression needs more than 256 evaluation-stack "
					     "entries; split it into simpler expressions");
	/* ... while its left-deep mirror needs two. */
	sw_expr_ast *b = sw_expr_ast_variable("x", X, SW_EXPR_REAL);
	for (int i = 0; i < 299; i++)
		b = sw_expr_ast_node(SW_EXPR_ADD, b, sw_expr_ast_number(1), NULL);
	ck_assert_int_eq(sw_expr_compile_ast(b, &d, &e), SW_SUCCESS);
	ck_assert_int_eq(sw_expr_stack_depth(e), 2);
	double s[NSLOTS] = {0.5};
	ck_assert_double_eq(sw_expr_eval(e, s, NULL), 299.5);
	ck_assert_ptr_nonnull(sw_expr_tree(e));
	sw_expr_free(e);
	/* Height is bounded for built trees too. */
	for (int i = 0; i < SW_EXPR_MAX_HEIGHT && b; i++)
		b = sw_expr_ast_node(SW_EXPR_NEG, b, NULL, NULL);
	ck_assert_ptr_null(b);
	sw_expr_ast_free(a);
	sw_expr_ast_free(NULL);
	sw_expr_free(NULL);
	ck_assert_int_eq(sw_expr_ast_equal(NULL, NULL), 1);
}
END_TEST

Suite *expr_host_suite(void)
{
	Suite *s = suite_create("expr_host");
	TCase *tc = tcase_create("expr_host");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, margin_sign_equals_truth_at_random_points);
	tcase_add_test(tc, host_functions_receive_name_ids_and_real_arguments);
	tcase_add_test(tc, derivative_matches_central_differences);
	tcase_add_test(tc, derivative_is_simplified_and_reports_what_it_cannot_do);
	tcase_add_test(tc, constructors_check_types_arity_and_limits);
	suite_add_tcase(s, tc);
	return s;
}
