/* tests/test_interval.c - sound interval evaluation of expression trees (src/expr/interval.c):
 * random trees over every operator against point evaluations, exact known ranges, domain
 * edges and the NaN report. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "swerve/expr.h"
#include "tests.h"

Suite *interval_suite(void);

#define NV 3 /* real variables x0 x1 x2 in slots 0..2, a boolean b in slot 3 */

static const char *vnames[NV + 1] = {"x0", "x1", "x2", "b"};

static double uni(gsl_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * gsl_rng_uniform(r);
}

static sw_expr_ast *gen_real(gsl_rng *r, int depth);
static sw_expr_ast *distance(gsl_rng *r);

static sw_expr_ast *gen_bool(gsl_rng *r, int depth)
{
	if (depth <= 0 || gsl_rng_uniform(r) < 0.15) {
		if (gsl_rng_uniform(r) < 0.2) {
			sw_expr_ast *t = NULL;
			sw_expr_ast_parse(gsl_rng_uniform(r) < 0.5 ? "true" : "false", NULL, NULL, NULL,
					  &t);
			return t;
		}
		if (gsl_rng_uniform(r) < 0.5)
			return sw_expr_ast_variable(vnames[NV], NV, SW_EXPR_BOOL);
		sw_expr_ast *t = sw_expr_ast_node(SW_EXPR_LT, sw_expr_ast_number(0),
						  sw_expr_ast_number(1), NULL);
		return gsl_rng_uniform(r) < 0.5 ? t : sw_expr_ast_node(SW_EXPR_NOT, t, NULL, NULL);
	}
	static const sw_expr_op rel[] = {SW_EXPR_LT, SW_EXPR_LE, SW_EXPR_GT,
					 SW_EXPR_GE, SW_EXPR_EQ, SW_EXPR_NE};
	unsigned k = (unsigned)gsl_rng_uniform_int(r, 9);
	if (k < 6)
		return sw_expr_ast_node(rel[k], gen_real(r, depth - 1), gen_real(r, depth - 1),
					NULL);
	if (k == 6)
		return sw_expr_ast_node(SW_EXPR_NOT, gen_bool(r, depth - 1), NULL, NULL);
	return sw_expr_ast_node(k == 7 ? SW_EXPR_AND : SW_EXPR_OR, gen_bool(r, depth - 1),
				gen_bool(r, depth - 1), NULL);
}

static sw_expr_ast *leaf(gsl_rng *r)
{
	static const double nums[] = {0, 1, -1, 0.5, 2, 3, -2.5, M_PI_2, M_PI, 1e-3, 40};
	if (gsl_rng_uniform(r) < 0.55) {
		int v = (int)gsl_rng_uniform_int(r, NV);
		return sw_expr_ast_variable(vnames[v], v, SW_EXPR_REAL);
	}
	if (gsl_rng_uniform(r) < 0.6)
		return sw_expr_ast_number(nums[gsl_rng_uniform_int(r, sizeof nums / sizeof nums[0])]);
	return sw_expr_ast_number(uni(r, -4, 4));
}

static sw_expr_ast *gen_real(gsl_rng *r, int depth)
{
	if (depth <= 0 || gsl_rng_uniform(r) < 0.2)
		return leaf(r);
	static const sw_expr_op un[] = {SW_EXPR_NEG,  SW_EXPR_SIN,  SW_EXPR_COS,  SW_EXPR_TAN,
					SW_EXPR_ASIN, SW_EXPR_ACOS, SW_EXPR_ATAN, SW_EXPR_EXP,
					SW_EXPR_LOG,  SW_EXPR_SQRT, SW_EXPR_TANH, SW_EXPR_SINH,
					SW_EXPR_COSH, SW_EXPR_ABS,  SW_EXPR_SIGN, SW_EXPR_FLOOR,
					SW_EXPR_CEIL};
	static const sw_expr_op bin[] = {SW_EXPR_ADD, SW_EXPR_SUB,   SW_EXPR_MUL, SW_EXPR_DIV,
					 SW_EXPR_POW, SW_EXPR_ATAN2, SW_EXPR_MIN, SW_EXPR_MAX};
	const int nu = (int)(sizeof un / sizeof un[0]), nb = (int)(sizeof bin / sizeof bin[0]);
	int k = (int)gsl_rng_uniform_int(r, (unsigned long)(nu + nb + 4));
	if (k < nu)
		return sw_expr_ast_node(un[k], gen_real(r, depth - 1), NULL, NULL);
	k -= nu;
	if (k < nb) {
		sw_expr_op op = bin[k];
		sw_expr_ast *a = gen_real(r, depth - 1), *b;
		if (op == SW_EXPR_POW && gsl_rng_uniform(r) < 0.6)
			b = sw_expr_ast_number((double)((int)gsl_rng_uniform_int(r, 9) - 4));
		else if ((op == SW_EXPR_MUL || op == SW_EXPR_SUB) && gsl_rng_uniform(r) < 0.3)
			b = sw_expr_ast_clone(a); /* x * x, x - x */
		else
			b = gen_real(r, depth - 1);
		return sw_expr_ast_node(op, a, b, NULL);
	}
	if (k == nb) /* if */
		return sw_expr_ast_node(SW_EXPR_IF, gen_bool(r, depth - 1), gen_real(r, depth - 1),
					gen_real(r, depth - 1));
	if (k == nb + 1) /* a square root of a sum of squares, as the emitters write distances */
		return distance(r);
	return gen_real(r, depth - 1);
}

/* sqrt((x - c)^2 + (y - d)^2) with MUL of clones, as the emitters build distances. */
static sw_expr_ast *distance(gsl_rng *r)
{
	int i = (int)gsl_rng_uniform_int(r, NV), j = (int)gsl_rng_uniform_int(r, NV);
	sw_expr_ast *dx = sw_expr_ast_node(SW_EXPR_SUB,
					   sw_expr_ast_variable(vnames[i], i, SW_EXPR_REAL),
					   sw_expr_ast_number(uni(r, -2, 2)), NULL);
	sw_expr_ast *dy = sw_expr_ast_node(SW_EXPR_SUB,
					   sw_expr_ast_variable(vnames[j], j, SW_EXPR_REAL),
					   sw_expr_ast_number(uni(r, -2, 2)), NULL);
	sw_expr_ast *s = sw_expr_ast_node(
	    SW_EXPR_ADD, sw_expr_ast_node(SW_EXPR_MUL, dx, sw_expr_ast_clone(dx), NULL),
	    sw_expr_ast_node(SW_EXPR_MUL, dy, sw_expr_ast_clone(dy), NULL), NULL);
	return sw_expr_ast_node(SW_EXPR_SQRT, s, NULL, NULL);
}

static void random_box(gsl_rng *r, double *lo, double *hi)
{
	for (int k = 0; k < NV; k++) {
		double c = gsl_rng_uniform(r) < 0.2 ? uni(r, -40, 40) : uni(r, -4, 4);
		double w = gsl_rng_uniform(r) < 0.15 ? 0.0 : pow(10.0, uni(r, -6, 1));
		lo[k] = c - w * gsl_rng_uniform(r);
		hi[k] = lo[k] + w;
		if (gsl_rng_uniform(r) < 0.1)
			lo[k] = hi[k] = (double)((int)gsl_rng_uniform_int(r, 5) - 2);
	}
	static const double bl[3][2] = {{0, 0}, {1, 1}, {0, 1}};
	int b = (int)gsl_rng_uniform_int(r, 3);
	lo[NV] = bl[b][0];
	hi[NV] = bl[b][1];
}

static void random_point(gsl_rng *r, const double *lo, const double *hi, double *x)
{
	for (int k = 0; k < NV; k++) {
		double u = gsl_rng_uniform(r);
		x[k] = u < 0.1 ? lo[k] : u < 0.2 ? hi[k] : uni(r, lo[k], hi[k]);
		if (x[k] > hi[k])
			x[k] = hi[k];
	}
	x[NV] = lo[NV] == hi[NV] ? lo[NV] : (double)gsl_rng_uniform_int(r, 2);
}

START_TEST(test_random_trees_contain_point_values)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 2024);
	long points = 0, nan_points = 0, trees = 0;
	int op_seen[SW_EXPR_OP_COUNT] = {0};
	while (points < 10000) {
		sw_expr_ast *a = gsl_rng_uniform(r) < 0.1 ? distance(r)
			       : gsl_rng_uniform(r) < 0.15 ? gen_bool(r, 4)
							   : gen_real(r, 1 + (int)gsl_rng_uniform_int(r, 5));
		if (!a)
			continue; /* a constructor refused a type (never for these) */
		sw_expr *e = NULL;
		ck_assert_int_eq(sw_expr_compile_ast(a, NULL, &e), SW_SUCCESS);
		trees++;
		/* which operators occur */
		const sw_expr_ast *stack[4096];
		int sp = 0;
		stack[sp++] = a;
		while (sp) {
			const sw_expr_ast *n = stack[--sp];
			op_seen[n->op]++;
			for (int k = 0; k < n->nkid && sp < 4096; k++)
				stack[sp++] = n->kid[k];
		}
		for (int box = 0; box < 4; box++) {
			double lo[NV + 1], hi[NV + 1], ol, oh;
			random_box(r, lo, hi);
			int st = sw_expr_interval(a, lo, hi, &ol, &oh);
			ck_assert(st == SW_SUCCESS || st == SW_ENUMERIC);
			for (int p = 0; p < 8; p++) {
				double x[NV + 1];
				random_point(r, lo, hi, x);
				double v = sw_expr_eval(e, x, NULL);
				points++;
				if (isnan(v)) {
					nan_points++;
					if (st != SW_ENUMERIC) {
						char text[2048];
						sw_expr_ast_print(a, SW_EXPR_SYNTAX_PLAIN, text, sizeof text);
						ck_abort_msg("NaN at (%g, %g, %g) not reported: %s", x[0],
							     x[1], x[2], text);
					}
					continue;
				}
				if (!(ol <= v && v <= oh)) {
					char text[2048];
					sw_expr_ast_print(a, SW_EXPR_SYNTAX_PLAIN, text, sizeof text);
					ck_abort_msg("%.17g outside [%.17g, %.17g] at (%.17g, %.17g, "
						     "%.17g, %g) in box [%.17g,%.17g]x[%.17g,%.17g]x["
						     "%.17g,%.17g]: %s",
						     v, ol, oh, x[0], x[1], x[2], x[3], lo[0], hi[0], lo[1],
						     hi[1], lo[2], hi[2], text);
				}
			}
		}
		sw_expr_free(e);
		sw_expr_ast_free(a);
	}
	for (int op = SW_EXPR_NUM; op < SW_EXPR_OP_COUNT; op++)
		if (op != SW_EXPR_NAME && op != SW_EXPR_HOST)
			ck_assert_msg(op_seen[op] > 0, "operator %d never generated", op);
	ck_assert_int_ge(points, 10000);
	ck_assert_int_gt(nan_points, 0); /* the domains were exercised */
	(void)trees;
	gsl_rng_free(r);
}
END_TEST

/* Interval of text over x in [xl, xh], y in [yl, yh]. */
static int iv2(const char *text, double xl, double xh, double yl, double yh, double *lo,
	       double *hi)
{
	sw_expr_var vars[2] = {{"x", 0, SW_EXPR_REAL}, {"y", 1, SW_EXPR_REAL}};
	sw_expr_symbols sym = {vars, 2, NULL, 0, NULL, NULL, NULL};
	sw_expr_ast *a = NULL;
	ck_assert_int_eq(sw_expr_ast_parse(text, &sym, NULL, NULL, &a), SW_SUCCESS);
	double bl[2] = {xl, yl}, bh[2] = {xh, yh};
	int st = sw_expr_interval(a, bl, bh, lo, hi);
	sw_expr_ast_free(a);
	return st;
}

/* [lo, hi] encloses [el, eh] and exceeds it by at most tol on each side. */
static void near_range(double lo, double hi, double el, double eh, double tol, const char *what)
{
	ck_assert_msg(lo <= el && el - lo <= tol && hi >= eh && hi - eh <= tol,
		      "%s: [%.17g, %.17g], expected [%.17g, %.17g]", what, lo, hi, el, eh);
}

START_TEST(test_exact_known_ranges)
{
	double lo, hi;
	ck_assert_int_eq(iv2("sin(x)", 0, M_PI, 0, 0, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == 0.0 && hi == 1.0); /* sin 0 = 0 exactly, the maximum pi/2 inside */
	ck_assert_int_eq(iv2("cos(x)", -0.1, 0.2, 0, 0, &lo, &hi), SW_SUCCESS);
	ck_assert(hi == 1.0);
	near_range(lo, hi, cos(0.2), 1.0, 1e-15, "cos [-0.1, 0.2]");
	ck_assert_int_eq(iv2("cos(x)", 3, 4, 0, 0, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == -1.0);
	ck_assert_int_eq(iv2("sin(x)", 0.1, 0.2, 0, 0, &lo, &hi), SW_SUCCESS);
	near_range(lo, hi, sin(0.1), sin(0.2), 1e-15, "sin [0.1, 0.2]");
	ck_assert_int_eq(iv2("sin(x)", -100, 100, 0, 0, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == -1.0 && hi == 1.0);
	/* tan: a pole inside gives everything */
	ck_assert_int_eq(iv2("tan(x)", 1, 2, 0, 0, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == -INFINITY && hi == INFINITY);
	ck_assert_int_eq(iv2("tan(x)", -1, 1, 0, 0, &lo, &hi), SW_SUCCESS);
	near_range(lo, hi, tan(-1), tan(1), 1e-14, "tan [-1, 1]");
	/* atan2 */
	ck_assert_int_eq(iv2("atan2(y, x)", 1, 2, 1, 2, &lo, &hi), SW_SUCCESS);
	near_range(lo, hi, atan2(1, 2), atan2(2, 1), 1e-14, "atan2 first quadrant");
	ck_assert_int_eq(iv2("atan2(y, x)", -2, -1, 1, 2, &lo, &hi), SW_SUCCESS);
	near_range(lo, hi, atan2(2, -1), atan2(1, -2), 1e-14, "atan2 second quadrant");
	ck_assert_int_eq(iv2("atan2(y, x)", -2, -1, -1, 1, &lo, &hi), SW_SUCCESS);
	ck_assert(lo <= -M_PI && hi >= M_PI && hi < 3.1416); /* straddles the cut */
	ck_assert_int_eq(iv2("atan2(y, x)", 0, 1, 0, 1, &lo, &hi), SW_SUCCESS);
	ck_assert(lo <= -M_PI && hi >= M_PI); /* touches the origin */
	ck_assert_int_eq(iv2("atan2(y, x)", -2, -1, 0, 1, &lo, &hi), SW_SUCCESS);
	ck_assert(lo <= -M_PI && hi >= M_PI); /* touches the cut: atan2(-0, -1) = -pi */
	ck_assert_int_eq(iv2("atan2(y, x)", -1, 1, 1, 2, &lo, &hi), SW_SUCCESS);
	near_range(lo, hi, atan2(1, 1), atan2(1, -1), 1e-14, "atan2 above the origin");
	/* squares, dependency */
	ck_assert_int_eq(iv2("x * x", -2, 3, 0, 0, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == 0.0 && hi == 9.0);
	ck_assert_int_eq(iv2("x * y", -2, 3, -2, 3, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == -6.0 && hi == 9.0);
	ck_assert_int_eq(iv2("x ^ 2", -2, 3, 0, 0, &lo, &hi), SW_SUCCESS);
	near_range(lo, hi, 0, 9, 1e-14, "x^2");
	ck_assert_int_eq(iv2("x ^ 3", -2, 3, 0, 0, &lo, &hi), SW_SUCCESS);
	near_range(lo, hi, -8, 27, 1e-13, "x^3");
	ck_assert_int_eq(iv2("x ^ (-2)", 1, 2, 0, 0, &lo, &hi), SW_SUCCESS);
	near_range(lo, hi, 0.25, 1, 1e-15, "x^-2");
	ck_assert_int_eq(iv2("x ^ y", 2, 4, 0.5, 2, &lo, &hi), SW_SUCCESS);
	near_range(lo, hi, sqrt(2), 16, 1e-13, "x^y");
	ck_assert_int_eq(iv2("x - x", -5, 7, 0, 0, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == 0.0 && hi == 0.0);
	/* exact arithmetic stays exact: the face w = 1 of a weight flow */
	ck_assert_int_eq(iv2("(0.7 * x * (1 - x * x) - 2 * y * y * x) / 0.05", 1, 1, 0, 1, &lo,
			     &hi),
			 SW_SUCCESS);
	ck_assert(hi == 0.0 && lo < -39.9 && lo > -40.1);
	/* booleans and if */
	ck_assert_int_eq(iv2("if(x < 0, y, 2 * y)", 1, 2, 1, 2, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == 2.0 && hi == 4.0);
	ck_assert_int_eq(iv2("if(x < 0, y, 2 * y)", -1, 2, 1, 2, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == 1.0 && hi == 4.0);
	ck_assert_int_eq(iv2("x < y and not (x > 5)", 0, 1, 2, 3, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == 1.0 && hi == 1.0);
	ck_assert_int_eq(iv2("x == y or x > 10", 0, 1, 0, 1, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == 0.0 && hi == 1.0);
	ck_assert_int_eq(iv2("min(x, y) + max(x, y) + abs(x) + sign(y)", -1, 2, -3, -2, &lo, &hi),
			 SW_SUCCESS);
	near_range(lo, hi, -3 + -1 + 0 - 1, -2 + 2 + 2 - 1, 0, "min max abs sign");
	ck_assert_int_eq(iv2("floor(x) + ceil(y)", 0.5, 2.5, -0.5, 0.5, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == 0.0 && hi == 3.0);
	ck_assert_int_eq(iv2("exp(x) + tanh(y) + cosh(x) + sinh(y)", 0, 1, -1, 0, &lo, &hi),
			 SW_SUCCESS);
	near_range(lo, hi, 1 + tanh(-1) + 1 + sinh(-1), exp(1) + 0 + cosh(1) + 0, 1e-14, "exp..");
}
END_TEST

START_TEST(test_domain_edges)
{
	double lo, hi;
	ck_assert_int_eq(iv2("sqrt(x)", 0, 4, 0, 0, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == 0.0 && hi == 2.0);
	ck_assert_int_eq(iv2("sqrt(x)", -1, 4, 0, 0, &lo, &hi), SW_ENUMERIC);
	ck_assert(lo == 0.0 && hi == 2.0); /* clipped to where it is defined, and reported */
	ck_assert_int_eq(iv2("sqrt(x)", -2, -1, 0, 0, &lo, &hi), SW_ENUMERIC);
	ck_assert(lo > hi); /* empty: defined nowhere */
	ck_assert_int_eq(iv2("log(x)", 0, 1, 0, 0, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == -INFINITY && hi == 0.0);
	ck_assert_int_eq(iv2("log(x)", -1, 1, 0, 0, &lo, &hi), SW_ENUMERIC);
	ck_assert(lo == -INFINITY && hi == 0.0);
	ck_assert_int_eq(iv2("asin(x)", -2, 0.5, 0, 0, &lo, &hi), SW_ENUMERIC);
	ck_assert(lo <= -M_PI_2 && lo > -1.5708 && hi >= asin(0.5));
	ck_assert_int_eq(iv2("acos(x)", -1, 1, 0, 0, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == 0.0 && hi >= M_PI && hi < 3.1416);
	ck_assert_int_eq(iv2("1 / x", 0, 1, 0, 0, &lo, &hi), SW_SUCCESS); /* 1 / -0 = -inf */
	ck_assert(lo == -INFINITY && hi == INFINITY);
	ck_assert_int_eq(iv2("1 / x", 0.5, 1, 0, 0, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == 1.0 && hi == 2.0);
	ck_assert_int_eq(iv2("x / y", 0, 1, 0, 1, &lo, &hi), SW_ENUMERIC); /* 0 / 0 */
	ck_assert_int_eq(iv2("x / y", 1, 2, -1, 1, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == -INFINITY && hi == INFINITY);
	ck_assert_int_eq(iv2("x ^ 0.5", -1, 4, 0, 0, &lo, &hi), SW_ENUMERIC);
	ck_assert(lo == 0.0 && hi >= 2.0 && hi < 2.0001);
	ck_assert_int_eq(iv2("x ^ (-1)", -1, 1, 0, 0, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == -INFINITY && hi == INFINITY);
	ck_assert_int_eq(iv2("exp(x)", 700, 800, 0, 0, &lo, &hi), SW_SUCCESS);
	ck_assert(hi == INFINITY && lo > 1e304);
	/* NaN handled as the interpreter does: comparisons false, if takes the first branch */
	ck_assert_int_eq(iv2("sqrt(x) < 1", -2, -1, 0, 0, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == 0.0 && hi == 0.0);
	ck_assert_int_eq(iv2("if(x < 1, asin(x), 2)", 0, 3, 0, 0, &lo, &hi), SW_ENUMERIC);
	ck_assert(lo == 0.0 && hi == 2.0);
	ck_assert_int_eq(iv2("sqrt(x) ^ 0", -2, -1, 0, 0, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == 1.0 && hi == 1.0);
	/* unbounded variables */
	ck_assert_int_eq(iv2("x + y", -INFINITY, 0, 1, 2, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == -INFINITY && hi == 2.0);
	ck_assert(iv2("cos(x) * 2", -INFINITY, INFINITY, 0, 0, &lo, &hi) != SW_EUSAGE);
	ck_assert(lo == -2.0 && hi == 2.0);
	/* bad boxes */
	ck_assert_int_eq(iv2("x", 1, 0, 0, 0, &lo, &hi), SW_EUSAGE);
	ck_assert_int_eq(iv2("x", NAN, 0, 0, 0, &lo, &hi), SW_EUSAGE);
	ck_assert_int_eq(sw_expr_interval(NULL, NULL, NULL, &lo, &hi), SW_EUSAGE);
	sw_expr_ast *n = sw_expr_ast_number(2.5);
	ck_assert_int_eq(sw_expr_interval(n, NULL, NULL, &lo, &hi), SW_SUCCESS);
	ck_assert(lo == 2.5 && hi == 2.5);
	sw_expr_ast_free(n);
}
END_TEST

Suite *interval_suite(void)
{
	Suite *s = suite_create("interval");
	TCase *tc = tcase_create("interval");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_random_trees_contain_point_values);
	tcase_add_test(tc, test_exact_known_ranges);
	tcase_add_test(tc, test_domain_edges);
	suite_add_tcase(s, tc);
	return s;
}
