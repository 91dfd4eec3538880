/* tests/test_expr.c - expressions: parsing, errors, evaluation, margins, printing, derivatives.
 *
 * Values are compared against the same formulas written in C, derivatives against central
 * finite differences, printing by print -> parse -> equal tree and equal value, and the parser is
 * fed garbled and hostile text (run under -fsanitize=address,undefined for crashes and leaks). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "swerve/core.h"
#include "swerve/expr.h"
#include "tests.h"

Suite *expr_suite(void);

/* ---- a host: variables, perception functions and their callbacks ------------------------- */

enum { X, Y, Z, T, P, Q, NSLOTS = 8 };
enum { F_DIST = 1, F_INSIDE, F_PROGRESS, F_NEAR, F_SCALE };

static const sw_expr_var vars[] = {
    {"x", X, SW_EXPR_REAL},           {"y", Y, SW_EXPR_REAL}, {"z", Z, SW_EXPR_REAL},
    {"t", T, SW_EXPR_REAL},           {"p", P, SW_EXPR_BOOL}, {"q", Q, SW_EXPR_BOOL},
    {"light.green", 6, SW_EXPR_BOOL},
};

static const sw_expr_func funcs[] = {
    {"dist", F_DIST, 1, {SW_EXPR_ARG_NAME}, SW_EXPR_REAL},
    {"inside", F_INSIDE, 1, {SW_EXPR_ARG_NAME}, SW_EXPR_BOOL},
    {"progress", F_PROGRESS, 2, {SW_EXPR_ARG_NAME, SW_EXPR_ARG_REAL}, SW_EXPR_REAL},
    {"near", F_NEAR, 2, {SW_EXPR_ARG_REAL, SW_EXPR_ARG_REAL}, SW_EXPR_BOOL},
    {"scale", F_SCALE, 1, {SW_EXPR_ARG_REAL}, SW_EXPR_REAL},
};

static int resolve(void *ctx, const sw_expr_func *f, int arg, const char *name, int *id)
{
	(void)ctx;
	(void)f;
	(void)arg;
	static const struct {
		const char *name;
		int id;
	} names[] = {{"goal", 7}, {"home", 9}, {"crosswalk", 11}};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(names[i].name, name) == 0) {
			*id = names[i].id;
			return 0;
		}
	return 1;
}

/* scale(a) = 2a is pure, so its derivative is 2a'; every other host call has none. */
static int derive(void *ctx, const sw_expr_ast *call, int slot, sw_expr_ast **out)
{
	(void)ctx;
	if (call->slot != F_SCALE)
		return 1;
	sw_expr_ast *da = NULL;
	if (sw_expr_ast_derivative(call->kid[0], slot, NULL, NULL, &da) != SW_SUCCESS)
		return 1;
	*out = sw_expr_ast_node(SW_EXPR_MUL, sw_expr_ast_number(2.0), da, NULL);
	return *out ? 0 : 1;
}

static const sw_expr_symbols syms = {
    vars, sizeof vars / sizeof vars[0], funcs, sizeof funcs / sizeof funcs[0], resolve, derive,
    NULL};

static int host_calls;

static double host_call(void *ctx, int func, const int *names, const double *args)
{
	const double *s = ctx;
	host_calls++;
	switch (func) {
	case F_DIST: return hypot(s[X] - names[0], s[Y]);
	case F_INSIDE: return s[X] > 0.1 * names[0];
	case F_PROGRESS: return sin(args[0]) + names[0];
	case F_NEAR: return args[0] * args[0] + args[1] * args[1] < 1.0;
	case F_SCALE: return 2.0 * args[0];
	default: return NAN;
	}
}

static double host_margin(void *ctx, int func, const int *names, const double *args)
{
	const double *s = ctx;
	if (func == F_INSIDE)
		return s[X] - 0.1 * names[0];
	return 1.0 - args[0] * args[0] - args[1] * args[1]; /* near */
}

static void random_slots(gsl_rng *r, double *s)
{
	for (int i = 0; i < NSLOTS; i++)
		s[i] = -2.0 + 4.0 * gsl_rng_uniform(r);
	s[P] = gsl_rng_uniform(r) < 0.5;
	s[Q] = gsl_rng_uniform(r) < 0.5;
	s[6] = gsl_rng_uniform(r) < 0.5;
}

static sw_expr *compile_ok(const char *text)
{
	sw_diag d;
	sw_diag_init(&d);
	sw_expr *e = NULL;
	int st = sw_expr_compile(text, &syms, NULL, &d, &e);
	char buf[1024] = "";
	if (d.count)
		sw_diag_format(&d, 0, buf, sizeof buf);
	ck_assert_msg(st == SW_SUCCESS && e, "'%s' did not compile: %s", text, buf);
	return e;
}

static double eval_at(const char *text, double *s)
{
	sw_expr *e = compile_ok(text);
	sw_expr_env env = {host_call, host_margin, s};
	double v = sw_expr_eval(e, s, &env);
	sw_expr_free(e);
	return v;
}

static double eval0(const char *text)
{
	double s[NSLOTS] = {0};
	return eval_at(text, s);
}

static int same(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

/* ---- evaluation ---------------------------------------------------------------------------- */

typedef double (*cfun)(const double *s);
/* clang-format off */
static double c01(const double *s) { return s[X] + s[Y] * s[Z] - s[T] / 3.0; }
static double c02(const double *s) { return sin(s[X]) * cos(s[Y]) + tan(s[Z] / 4.0); }
static double c03(const double *s) { return asin(s[X] / 2.0) + acos(s[Y] / 2.0) + atan(s[Z]); }
static double c04(const double *s) { return atan2(s[Y], s[X]) - exp(s[Z]) * log(fabs(s[T]) + 1.0); }
static double c05(const double *s) { return sqrt(fabs(s[X])) + tanh(s[Y]) + sinh(s[Z]) - cosh(s[T]); }
static double c06(const double *s) { return fabs(s[X]) * (s[Y] > 0 ? 1.0 : s[Y] < 0 ? -1.0 : 0.0); }
static double c07(const double *s) { return fmin(s[X], s[Y]) + fmax(s[Z], s[T]) + floor(s[X] * 3) - ceil(s[Y] * 3); }
static double c08(const double *s) { return pow(fabs(s[X]), s[Y]) + pow(s[Z], 2.0) + pow(2.0, pow(s[T], 2.0)); }
static double c09(const double *s) { return -s[X] * -s[Y] - (-(s[Z])); }
static double c10(const double *s) { return (s[X] < s[Y] && s[Z] >= 0) || !(s[T] != s[T]); }
static double c11(const double *s) { return s[P] != 0 ? s[X] * M_PI : 15.0 * (M_PI / 180.0); }
static double c12(const double *s) { return (s[X] <= 1 && s[P] == 0) || (s[Q] != 0 && s[Y] > s[X]); }
static double c13(const double *s) { return hypot(s[X] - 7, s[Y]) + sin(s[Z]) + 9; }
static double c14(const double *s) { return s[X] * s[X] + s[Y] * s[Y] < 1.0 && s[X] > 1.1; }
static double c15(const double *s) { return 1e-3 * s[X] + .5 - 2. * s[Y] + 1.5e+2; }
/* clang-format on */

START_TEST(eval_matches_c_at_random_points)
{
	/* clang-format off */
	static const struct {
		const char *text;
		cfun f;
	} cases[] = {
		{"x + y*z - t/3", c01}, {"sin(x)*cos(y) + tan(z/4)", c02},
		{"asin(x/2) + acos(y/2) + atan(z)", c03},
		{"atan2(y, x) - exp(z)*log(abs(t) + 1)", c04},
		{"sqrt(abs(x)) + tanh(y) + sinh(z) - cosh(t)", c05}, {"abs(x)*sign(y)", c06},
		{"min(x, y) + max(z, t) + floor(x*3) - ceil(y*3)", c07},
		{"pow(abs(x), y) + z^2 + 2^t^2", c08}, {"-x*-y - -z", c09},
		{"x < y and z >= 0 or not t != t", c10}, {"if(p, x*pi, 15deg)", c11},
		{"x le 1 && !p || q && y gt x", c12}, {"dist(goal) + progress(home, z)", c13},
		{"near(x, y) and x > 1.1", c14}, {"1e-3*x + .5 - 2.*y + 1.5e+2", c15},
	};
	/* clang-format on */
	gsl_rng *r = sw_rng_stream_alloc(1, 0);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		sw_expr *e = compile_ok(cases[i].text);
		for (int k = 0; k < 500; k++) {
			double s[NSLOTS];
			random_slots(r, s);
			sw_expr_env env = {host_call, host_margin, s};
			double v = sw_expr_eval(e, s, &env), c = cases[i].f(s);
			ck_assert_msg(same(v, c) || fabs(v - c) <= 1e-13 * (1 + fabs(c)),
				      "%s: %.17g != %.17g", cases[i].text, v, c);
		}
		sw_expr_free(e);
	}
	gsl_rng_free(r);
}
END_TEST

START_TEST(precedence_associativity_and_word_operators)
{
	ck_assert_double_eq(eval0("2^3^2"), 512);
	ck_assert_double_eq(eval0("-2^2"), -4);
	ck_assert_double_eq(eval0("(-2)^2"), 4);
	ck_assert_double_eq(eval0("2^-1"), 0.5);
	ck_assert_double_eq(eval0("1 - 2 - 3"), -4);
	ck_assert_double_eq(eval0("8/4/2"), 1);
	ck_assert_double_eq(eval0("2 + 3*4"), 14);
	ck_assert_double_eq(eval0("-3*-2"), 6);
	ck_assert_double_eq(eval0("+4 - +1"), 3);
	ck_assert_double_eq(eval0("true or false and false"), 1); /* and binds tighter */
	ck_assert_double_eq(eval0("(true or false) and false"), 0);
	ck_assert_double_eq(eval0("not true or true"), 1); /* (not true) or true */
	ck_assert_double_eq(eval0("not 1 gt 2"), 1);       /* not (1 > 2) */
	ck_assert_double_eq(eval0("!(1 < 2) || 2 == 2"), 1);
	ck_assert_double_eq(eval0("1 lt 2 and 3 ge 3 and 2 le 2 and 3 gt 2 and 1 eq 1 and 1 ne 2"),
			    1);
	ck_assert_double_eq(eval0("1 < 2 && 3 >= 3 && 2 <= 2 && 3 > 2 && 1 == 1 && 1 != 2"), 1);
	ck_assert_double_eq(eval0("not not true"), 1);
	ck_assert_double_eq(eval0("if(1 > 2, 10, 20)"), 20);
	ck_assert_double_eq(eval0("if(1 < 2, 10, 20)"), 10);
	ck_assert_double_eq(eval0("15deg"), 15 * (M_PI / 180.0));
	ck_assert_double_eq(eval0("3rad"), 3);
	ck_assert_double_eq(eval0("pi"), M_PI);
	ck_assert_double_eq(eval0("1e-3"), 1e-3);
	ck_assert_double_eq(eval0("1E3 + .25 + 2."), 1002.25);
	ck_assert_double_eq(eval0("pow(2, 10)"), 1024);
	ck_assert_double_eq(eval0("min(3, -1) + max(3, -1)"), 2);
	ck_assert_double_eq(eval0("sign(-0.5) + sign(0) + sign(2)"), 0);
	ck_assert_double_eq(eval0("  2 *\n\t( 1 + 1 )  "), 4);
}
END_TEST

START_TEST(boolean_variables_and_short_circuit)
{
	double s[NSLOTS] = {0};
	s[P] = 1.0;
	s[6] = 2.0; /* any non-zero slot is true */
	ck_assert_double_eq(eval_at("p and light.green", s), 1);
	ck_assert_double_eq(eval_at("q or not p", s), 0);
	host_calls = 0;
	ck_assert_double_eq(eval_at("false and dist(goal) > 0", s), 0);
	ck_assert_double_eq(eval_at("true or dist(goal) > 0", s), 1);
	ck_assert_double_eq(eval_at("if(p, 1, dist(goal))", s), 1);
	ck_assert_int_eq(host_calls, 0);
	ck_assert_double_eq(eval_at("if(q, 1, dist(goal))", s), 7);
	ck_assert_int_eq(host_calls, 1);
	sw_expr *e = compile_ok("p and q");
	ck_assert_int_eq(sw_expr_result_type(e), SW_EXPR_BOOL);
	ck_assert_int_ge(sw_expr_stack_depth(e), 1);
	sw_expr_free(e);
}
END_TEST

/* ---- errors --------------------------------------------------------------------------------- */

/* Compiles text placed at line 10, column 20 of behaviour.xml and checks the one error. */
static void expect_error_as(const char *text, sw_expr_type expect, int line, int col,
			    const char *message)
{
	sw_diag d;
	sw_diag_init(&d);
	sw_expr_def def = sw_default_expr_def();
	def.file = "behaviour.xml";
	def.line = 10;
	def.column = 20;
	def.expect = expect;
	sw_expr *e = (sw_expr *)1;
	int st = sw_expr_compile(text, &syms, &def, &d, &e);
	ck_assert_msg(st == SW_EINPUT, "'%.60s' gave status %d", text, st);
	ck_assert_ptr_null(e);
	ck_assert_int_eq(d.count, 1);
	ck_assert_str_eq(d.entry[0].file, "behaviour.xml");
	ck_assert_msg(d.entry[0].line == line && d.entry[0].column == col,
		      "'%.60s': error at %d:%d, expected %d:%d (%s)", text, d.entry[0].line,
		      d.entry[0].column, line, col, d.entry[0].message);
	ck_assert_str_eq(d.entry[0].message, message);
}

static void expect_error(const char *text, int line, int col, const char *message)
{
	expect_error_as(text, SW_EXPR_ANY, line, col, message);
}

START_TEST(every_error_names_line_column_and_expectation)
{
	expect_error("x + ", 10, 24, "expected an expression, got the end of the expression");
	expect_error("foo(1)", 10, 20, "unknown function 'foo'");
	expect_error("dist(goal, home)", 10, 20, "'dist' takes 1 argument, got 2");
	expect_error("atan2(x)", 10, 20, "'atan2' takes 2 arguments, got 1");
	expect_error("if(p, 1, 2, 3, 4, 5, 6, 7, 8, 9)", 10, 20, "'if' takes 3 arguments, got 10");
	expect_error("p and 1", 10, 22, "type error: 'and' needs boolean operands, got a number");
	expect_error("x && q", 10, 22, "type error: '&&' needs boolean operands, got a number");
	expect_error("x + p", 10, 22, "type error: '+' needs number operands, got a boolean");
	expect_error("p lt 1", 10, 22, "type error: 'lt' needs number operands, got a boolean");
	expect_error("-p", 10, 20, "type error: '-' needs a number operand, got a boolean");
	expect_error("+p", 10, 20, "type error: '+' needs a number operand, got a boolean");
	expect_error("not x", 10, 20, "type error: 'not' needs a boolean operand, got a number");
	expect_error("sin(p)", 10, 20,
		     "type error: argument 1 of 'sin' must be a number, got a boolean");
	expect_error("if(x, 1, 2)", 10, 20,
		     "type error: the condition of 'if' must be a boolean, got a number");
	expect_error("if(p, 1, q)", 10, 20,
		     "type error: the branches of 'if' must have the same type, got a number and "
		     "a boolean");
	expect_error("progress(goal, p)", 10, 35,
		     "type error: argument 2 of 'progress' must be a number, got a boolean");
	expect_error("max(1, 2", 10, 28,
		     "expected ')' after argument list of 'max', got the end of the expression");
	expect_error("max(1 2)", 10, 26, "expected ')' after argument list of 'max', got '2'");
	expect_error("max(1,)", 10, 26, "expected an argument after ',' in the call of 'max'");
	expect_error("max(1, *)", 10, 27, "expected an expression, got '*'");
	expect_error("(x + 1", 10, 26,
		     "expected ')' to match the '(' at 10:20, got the end of the expression");
	expect_error("x # 2", 10, 22, "unexpected character '#'");
	expect_error("x = 2", 10, 22, "unexpected '='; write '==' or 'eq' to compare");
	expect_error("p & q", 10, 22, "unexpected '&'; write '&&' or 'and'");
	expect_error("p | q", 10, 22, "unexpected '|'; write '||' or 'or'");
	expect_error("x < \xC3\xA9", 10, 24, "unexpected byte 0xC3 (expressions are ASCII text)");
	expect_error("2x", 10, 21,
		     "unexpected 'x' after the number '2' (only the units 'deg' and 'rad' may "
		     "follow a number)");
	expect_error("1e", 10, 21, "expected digits in the exponent of '1e'");
	expect_error("1.5.2", 10, 23, "unexpected '.' after the number '1.5'");
	expect_error("1e999", 10, 20, "number '1e999' is out of range");
	expect_error("1 < x < 2", 10, 26,
		     "comparisons do not chain: write 'a < b and b < c' instead of 'a < b < c'");
	expect_error("nobody + 1", 10, 20, "unknown variable 'nobody'");
	expect_error("sin + 1", 10, 20, "'sin' is a function: write 'sin(...)'");
	expect_error("dist + 1", 10, 20, "'dist' is a function: write 'dist(...)'");
	expect_error("dist(x + 1)", 10, 25,
		     "argument 1 of 'dist' must be a name, got an expression");
	expect_error("dist(3)", 10, 25, "argument 1 of 'dist' must be a name, got '3'");
	expect_error("dist(nowhere)", 10, 25, "unknown name 'nowhere' for argument 1 of 'dist'");
	expect_error("x y", 10, 22, "expected an operator or the end of the expression, got 'y'");
	expect_error("x)", 10, 21, "expected an operator or the end of the expression, got ')'");
	expect_error("", 10, 20, "the expression is empty");
	expect_error("   ", 10, 23, "the expression is empty");
	expect_error("x +\n  y +\n   foo", 12, 4, "unknown variable 'foo'");
	expect_error("(\n(x + 1)", 11, 8,
		     "expected ')' to match the '(' at 10:20, got the end of the expression");
	expect_error_as("x + 1", SW_EXPR_BOOL, 10, 20,
			"expected a condition (a boolean expression), got a number");
	expect_error_as("  p", SW_EXPR_REAL, 10, 22,
			"expected a number, got a condition (a boolean expression)");

	/* Hostile depth: parentheses, prefix operators, exponent towers, calls, long chains. */
	static const char *unit[] = {"(", "-", "not ", "2^", "sin("};
	static const int opening[] = {0, 0, 0, 1, 3}; /* where in the unit the level opens */
	for (size_t u = 0; u < sizeof unit / sizeof unit[0]; u++) {
		size_t k = strlen(unit[u]), n = 10000;
		char *s = malloc(n * k + 2);
		for (size_t i = 0; i < n; i++)
			memcpy(s + i * k, unit[u], k);
		strcpy(s + n * k, "x");
		expect_error(s, 10, 20 + (int)(k * SW_EXPR_MAX_NESTING) + opening[u],
			     "nesting too deep (more than 100 levels of parentheses, calls or "
			     "prefix operators)");
		free(s);
	}
	size_t n = 200000;
	char *s = malloc(2 * n + 2);
	s[0] = 'x';
	for (size_t i = 0; i < n; i++)
		memcpy(s + 1 + 2 * i, "+x", 2);
	s[2 * n + 1] = '\0';
	expect_error(s, 10, 20 + 2 * SW_EXPR_MAX_HEIGHT - 1,
		     "expression too deep (more than 1000 nested operations)");
	memset(s, 'a', 2 * n + 1);
	expect_error(s, 10, 20, "identifier too long (more than 200 characters)");
	memset(s, '7', 2 * n + 1);
	expect_error(s, 10, 20, "number too long (more than 100 characters)");
	free(s);

	/* The formatted diagnostic carries file:line:column. */
	sw_diag d;
	sw_diag_init(&d);
	sw_expr_def def = {"a.xml", 3, 14, SW_EXPR_BOOL};
	sw_expr *e = NULL;
	ck_assert_int_eq(sw_expr_compile("x gt", &syms, &def, &d, &e), SW_EINPUT);
	char buf[512];
	sw_diag_format(&d, 0, buf, sizeof buf);
	ck_assert_str_eq(buf, "a.xml:3:18: error: expected an expression, got the end of the "
			      "expression");
	ck_assert_int_eq(sw_expr_compile(NULL, &syms, &def, &d, &e), SW_EUSAGE);
	ck_assert_int_eq(sw_expr_compile("x", &syms, &def, &d, NULL), SW_EUSAGE);
}
END_TEST

/* ---- printing ------------------------------------------------------------------------------- */

static const char *corpus[] = {
    "x + y*z - t/3",
    "(x + y)*(z - t)",
    "x - (y - z)",
    "x - (y + z)",
    "x/(y*z)",
    "x/y*z",
    "2^3^2",
    "(2^3)^2",
    "-2^2",
    "(-2)^2",
    "2^-x",
    "-(x + y)",
    "--x",
    "-x*-y",
    "sin(x)^2 + cos(x)^2",
    "atan2(y, x) + min(x, max(y, z))",
    "if(p and not q, x, y)",
    "not (p or q) and (x < y or y >= z)",
    "not not p",
    "p or q and light.green",
    "(p or q) and p",
    "x lt y and y le z or z gt t and t ge x or x eq y and y ne z",
    "x == 1e-3 || x != 1.5e+300 && !p",
    "15deg + 0.1 + 1/3 + pi",
    "dist(goal) < 0.5 and inside(crosswalk)",
    "progress(home, x*2) + scale(y)",
    "near(x, y) or near(y - 1, x)",
    "floor(x) + ceil(y) + sign(z) + abs(t)",
    "exp(log(sqrt(tanh(sinh(cosh(x))))))",
    "if(x > 0, if(y > 0, 1, 2), 3)",
    "true and not false",
    "pow(x, 2) + 1e20 + 123456789012345678",
    "asin(x/3) - acos(y/3) + atan(z) + tan(t)",
};

static void check_round_trip(const sw_expr_ast *a, gsl_rng *r)
{
	for (int syn = 0; syn < SW_EXPR_SYNTAX_COUNT; syn++) {
		int len = sw_expr_ast_print(a, (sw_expr_syntax)syn, NULL, 0);
		char *text = malloc((size_t)len + 1);
		ck_assert_int_eq(sw_expr_ast_print(a, (sw_expr_syntax)syn, text, (size_t)len + 1),
				 len);
		ck_assert_int_eq((int)strlen(text), len);
		sw_expr_ast *b = NULL;
		sw_diag d;
		sw_diag_init(&d);
		int st = sw_expr_ast_parse(text, &syms, NULL, &d, &b);
		ck_assert_msg(st == SW_SUCCESS, "printed '%s' does not parse: %s", text,
			      d.count ? d.entry[0].message : "");
		ck_assert_msg(sw_expr_ast_equal(a, b), "'%s' parses to another tree", text);
		if (syn == SW_EXPR_SYNTAX_XML)
			ck_assert_msg(!strpbrk(text, "<>&"), "XML syntax printed '%s'", text);
		sw_expr *ea = NULL, *eb = NULL;
		ck_assert_int_eq(sw_expr_compile_ast(a, NULL, &ea), SW_SUCCESS);
		ck_assert_int_eq(sw_expr_compile_ast(b, NULL, &eb), SW_SUCCESS);
		for (int k = 0; k < 20; k++) {
			double s[NSLOTS];
			random_slots(r, s);
			sw_expr_env env = {host_call, host_margin, s};
			ck_assert(same(sw_expr_eval(ea, s, &env), sw_expr_eval(eb, s, &env)));
			ck_assert(same(sw_expr_margin(ea, s, &env), sw_expr_margin(eb, s, &env)));
		}
		sw_expr_free(ea);
		sw_expr_free(eb);
		sw_expr_ast_free(b);
		free(text);
	}
}

START_TEST(print_parse_round_trip_over_corpus)
{
	gsl_rng *r = sw_rng_stream_alloc(2, 0);
	for (size_t i = 0; i < sizeof corpus / sizeof corpus[0]; i++) {
		sw_expr_ast *a = NULL;
		ck_assert_int_eq(sw_expr_ast_parse(corpus[i], &syms, NULL, NULL, &a), SW_SUCCESS);
		check_round_trip(a, r);
		sw_expr_ast_free(a);
	}
	/* Minimal parentheses and the three spellings. */
	static const struct {
		const char *in, *plain, *xml, *c;
	} forms[] = {
	    {"((x + (y * z)))", "x + y*z", "x + y*z", "x + y*z"},
	    {"(2^3)^2 - (-2)^2", "(2^3)^2 - (-2)^2", "(2^3)^2 - (-2)^2", "(2^3)^2 - (-2)^2"},
	    {"x < y and not p", "x < y and not p", "x lt y and not p", "x < y && !p"},
	    {"!(p || q) && x >= 15deg", "not (p or q) and x >= 15deg",
	     "not (p or q) and x ge 15deg", "!(p || q) && x >= 15deg"},
	    {"0.1 + 3.14159265358979323846 + 1e-300", "0.1 + pi + 1e-300", "0.1 + pi + 1e-300",
	     "0.1 + pi + 1e-300"},
	    {"dist( goal ) le 2", "dist(goal) <= 2", "dist(goal) le 2", "dist(goal) <= 2"},
	};
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		sw_expr *e = compile_ok(forms[i].in);
		char buf[256];
		sw_expr_print(e, SW_EXPR_SYNTAX_PLAIN, buf, sizeof buf);
		ck_assert_str_eq(buf, forms[i].plain);
		sw_expr_print(e, SW_EXPR_SYNTAX_XML, buf, sizeof buf);
		ck_assert_str_eq(buf, forms[i].xml);
		sw_expr_print(e, SW_EXPR_SYNTAX_C, buf, sizeof buf);
		ck_assert_str_eq(buf, forms[i].c);
		/* Truncation keeps the NUL and reports the full length. */
		ck_assert_int_eq(sw_expr_print(e, SW_EXPR_SYNTAX_PLAIN, buf, 4),
				 (int)strlen(forms[i].plain));
		ck_assert_uint_eq(strlen(buf), 3);
		sw_expr_free(e);
	}
	gsl_rng_free(r);
}
END_TEST

/* Random well-typed tree of about the given depth, built with the public constructors. */
static sw_expr_ast *random_tree(gsl_rng *r, int depth, sw_expr_type type)
{
	unsigned long k = gsl_rng_uniform_int(r, 12);
	if (type == SW_EXPR_REAL) {
		if (depth == 0 || k < 3) {
			switch (gsl_rng_uniform_int(r, 5)) {
			case 0: return sw_expr_ast_number(gsl_rng_uniform_int(r, 10));
			case 1:
				return sw_expr_ast_number(
				    gsl_rng_uniform(r) *
				    pow(10, gsl_rng_uniform_int(r, 40) - 20.0));
			case 2: {
				sw_expr_ast *n = sw_expr_ast_name("goal", 7);
				return sw_expr_ast_host(&funcs[0], &n);
			}
			default: {
				static const char *names[] = {"x", "y", "z", "t"};
				int v = (int)gsl_rng_uniform_int(r, 4);
				return sw_expr_ast_variable(names[v], v, SW_EXPR_REAL);
			}
			}
		}
		static const sw_expr_op ops[] = {SW_EXPR_NEG, SW_EXPR_ADD,   SW_EXPR_SUB,
						 SW_EXPR_MUL, SW_EXPR_DIV,   SW_EXPR_POW,
						 SW_EXPR_SIN, SW_EXPR_ATAN2, SW_EXPR_MIN,
						 SW_EXPR_EXP, SW_EXPR_IF,    SW_EXPR_HOST};
		sw_expr_op op = ops[gsl_rng_uniform_int(r, sizeof ops / sizeof ops[0])];
		if (op == SW_EXPR_HOST) {
			sw_expr_ast *args[2] = {sw_expr_ast_name("home", 9),
						random_tree(r, depth - 1, SW_EXPR_REAL)};
			return sw_expr_ast_host(&funcs[2], args);
		}
		if (op == SW_EXPR_IF)
			return sw_expr_ast_node(op, random_tree(r, depth - 1, SW_EXPR_BOOL),
						random_tree(r, depth - 1, SW_EXPR_REAL),
						random_tree(r, depth - 1, SW_EXPR_REAL));
		int arity = op == SW_EXPR_NEG || op == SW_EXPR_SIN || op == SW_EXPR_EXP ? 1 : 2;
		return sw_expr_ast_node(op, random_tree(r, depth - 1, SW_EXPR_REAL),
					arity > 1 ? random_tree(r, depth - 1, SW_EXPR_REAL) : NULL,
					NULL);
	}
	if (depth == 0 || k < 2) {
		switch (gsl_rng_uniform_int(r, 3)) {
		case 0: return sw_expr_ast_variable(k & 1 ? "p" : "q", k & 1 ? P : Q, SW_EXPR_BOOL);
		case 1: {
			sw_expr_ast *n = sw_expr_ast_name("crosswalk", 11);
			return sw_expr_ast_host(&funcs[1], &n);
		}
		default: {
			sw_expr_ast *b =
			    sw_expr_ast_node(SW_EXPR_NOT, sw_expr_ast_number(0), NULL, NULL);
			ck_assert_ptr_null(b); /* type-checked: not of a number */
			sw_expr_ast *l = sw_expr_ast_node(SW_EXPR_LT, sw_expr_ast_number(0),
							  sw_expr_ast_number(1), NULL);
			sw_expr_ast_free(l);
			sw_expr_ast *t = sw_expr_ast_variable("p", P, SW_EXPR_BOOL);
			return sw_expr_ast_node(
			    SW_EXPR_OR, t,
			    sw_expr_ast_node(SW_EXPR_NOT,
					     sw_expr_ast_variable("q", Q, SW_EXPR_BOOL), NULL,
					     NULL),
			    NULL);
		}
		}
	}
	static const sw_expr_op bops[] = {SW_EXPR_NOT, SW_EXPR_AND, SW_EXPR_OR,
					  SW_EXPR_LT,  SW_EXPR_GE,  SW_EXPR_EQ,
					  SW_EXPR_NE,  SW_EXPR_IF,  SW_EXPR_HOST};
	sw_expr_op op = bops[gsl_rng_uniform_int(r, sizeof bops / sizeof bops[0])];
	switch (op) {
	case SW_EXPR_NOT: return sw_expr_ast_node(op, random_tree(r, depth - 1, type), NULL, NULL);
	case SW_EXPR_AND:
	case SW_EXPR_OR:
		return sw_expr_ast_node(op, random_tree(r, depth - 1, type),
					random_tree(r, depth - 1, type), NULL);
	case SW_EXPR_IF:
		return sw_expr_ast_node(op, random_tree(r, depth - 1, type),
					random_tree(r, depth - 1, type),
					random_tree(r, depth - 1, type));
	case SW_EXPR_HOST: {
		sw_expr_ast *args[2] = {random_tree(r, depth - 1, SW_EXPR_REAL),
					random_tree(r, depth - 1, SW_EXPR_REAL)};
		return sw_expr_ast_host(&funcs[3], args);
	}
	default:
		return sw_expr_ast_node(op, random_tree(r, depth - 1, SW_EXPR_REAL),
					random_tree(r, depth - 1, SW_EXPR_REAL), NULL);
	}
}

START_TEST(print_parse_round_trip_over_random_trees)
{
	gsl_rng *r = sw_rng_stream_alloc(3, 0);
	for (int i = 0; i < 400; i++) {
		sw_expr_type type = i % 2 ? SW_EXPR_BOOL : SW_EXPR_REAL;
		sw_expr_ast *a = random_tree(r, 1 + i % 7, type);
		ck_assert_ptr_nonnull(a);
		ck_assert_int_eq(a->type, type);
		sw_expr_ast *c = sw_expr_ast_clone(a);
		ck_assert(sw_expr_ast_equal(a, c));
		sw_expr_ast_free(c);
		check_round_trip(a, r);
		sw_expr_ast_free(a);
	}
	gsl_rng_free(r);
}
END_TEST

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
		sw_expr *e = compile_ok(guards[i]);
		int nonzero = 0;
		for (int k = 0; k < 2000; k++) {
			double s[NSLOTS];
			random_slots(r, s);
			if (k % 10 == 0)
				s[Y] = s[X]; /* visit the boundary of equalities */
			for (int with_margin = 0; with_margin < 2; with_margin++) {
				sw_expr_env env = {host_call, with_margin ? host_margin : NULL, s};
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
	sw_expr_env env = {host_call, host_margin, s};
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
		sw_expr *e = compile_ok(m[i].text);
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
	sw_expr *e = compile_ok("progress(home, x*4)");
	ck_assert_double_eq(sw_expr_eval(e, s, &env), 42.0);
	ck_assert_int_eq(seen_func, F_PROGRESS);
	ck_assert_int_eq(seen_names[0], 9);
	ck_assert_double_eq(seen_args[0], 1.0);
	sw_expr_free(e);
	e = compile_ok("inside(crosswalk)");
	ck_assert_double_eq(sw_expr_eval(e, s, &env), 1.0);   /* booleans come out as 0/1 */
	ck_assert_double_eq(sw_expr_margin(e, s, &env), 1.0); /* no margin callback: +-1 */
	ck_assert_int_eq(seen_names[0], 11);
	ck_assert(isnan(sw_expr_eval(e, s, NULL))); /* no host: NaN, never a crash */
	sw_expr_free(e);
	e = compile_ok("near(x, 2) and dist(goal) > 1");
	sw_expr_eval(e, s, &env);
	ck_assert_int_eq(seen_func, F_DIST);
	ck_assert_int_eq(seen_names[0], 7);
	sw_expr_free(e);
	/* The tree exposes the call for the exporter. */
	sw_expr_ast *a = NULL;
	ck_assert_int_eq(sw_expr_ast_parse("progress(goal, 1)", &syms, NULL, NULL, &a), SW_SUCCESS);
	ck_assert_int_eq(a->op, SW_EXPR_HOST);
	ck_assert_int_eq(a->slot, F_PROGRESS);
	ck_assert_str_eq(a->name, "progress");
	ck_assert_int_eq(a->kid[0]->op, SW_EXPR_NAME);
	ck_assert_int_eq(a->kid[0]->slot, 7);
	ck_assert_str_eq(a->kid[0]->name, "goal");
	sw_expr_ast_free(a);
	/* A symbol table without a resolver knows no names; no table knows no variables. */
	sw_expr_symbols bare = syms;
	bare.resolve_name = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_expr_compile("dist(goal)", &bare, NULL, &d, &e), SW_EINPUT);
	ck_assert_str_eq(d.entry[0].message, "unknown name 'goal' for argument 1 of 'dist'");
	ck_assert_int_eq(sw_expr_compile("x", NULL, NULL, &d, &e), SW_EINPUT);
	ck_assert_double_eq(eval0("2*pi"), 2 * M_PI);
}
END_TEST

/* ---- derivatives ---------------------------------------------------------------------------- */

static double eval_tree(const sw_expr_ast *a, double *s)
{
	sw_expr *e = NULL;
	ck_assert_int_eq(sw_expr_compile_ast(a, NULL, &e), SW_SUCCESS);
	sw_expr_env env = {host_call, host_margin, s};
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
		ck_assert_int_eq(sw_expr_ast_parse(fs[i], &syms, NULL, NULL, &a), SW_SUCCESS);
		for (int slot = X; slot <= Y; slot++) {
			sw_expr_ast *da = NULL;
			int st = sw_expr_ast_derivative(a, slot, &syms, NULL, &da);
			if (strstr(fs[i], "progress")) { /* the host gives no derivative */
				ck_assert_int_eq(st, SW_EUSAGE);
				ck_assert_ptr_null(da);
				continue;
			}
			ck_assert_msg(st == SW_SUCCESS, "d/d%d %s failed", slot, fs[i]);
			for (int k = 0; k < 200; k++) {
				double s[NSLOTS];
				random_slots(r, s);
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
		ck_assert_int_eq(sw_expr_ast_parse(cases[i].f, &syms, NULL, NULL, &a), SW_SUCCESS);
		ck_assert_int_eq(sw_expr_ast_derivative(a, X, &syms, NULL, &da), SW_SUCCESS);
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
	ck_assert_int_eq(sw_expr_ast_parse("x + 2*dist(goal)", &syms, NULL, NULL, &a), SW_SUCCESS);
	ck_assert_int_eq(sw_expr_ast_derivative(a, X, &syms, &d, &da), SW_EUSAGE);
	ck_assert_ptr_null(da);
	ck_assert_str_eq(d.entry[0].message, "no derivative for 'dist'");
	ck_assert_int_eq(d.entry[0].column, 7);
	ck_assert_int_eq(sw_expr_ast_derivative(a, X, NULL, NULL, &da), SW_EUSAGE);
	sw_expr_ast_free(a);
	ck_assert_int_eq(sw_expr_ast_parse("x > 1", &syms, NULL, NULL, &a), SW_SUCCESS);
	ck_assert_int_eq(sw_expr_ast_derivative(a, X, &syms, &d, &da), SW_EUSAGE);
	ck_assert_str_eq(d.entry[1].message,
			 "cannot differentiate a condition (a boolean expression)");
	sw_expr_ast_free(a);
	/* Repeated differentiation stays well-formed (and bounded by the height limit). */
	ck_assert_int_eq(sw_expr_ast_parse("sin(x)*exp(x)", &syms, NULL, NULL, &a), SW_SUCCESS);
	for (int k = 0; k < 6; k++) {
		ck_assert_int_eq(sw_expr_ast_derivative(a, X, &syms, NULL, &da), SW_SUCCESS);
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
	ck_assert_ptr_null(sw_expr_ast_host(&funcs[0], &wrong)); /* dist takes a name */
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

/* ---- hostile input -------------------------------------------------------------------------- */

START_TEST(garbled_input_is_rejected_cleanly)
{
	static const char noise[] = "()+-*/^<>=!&|,.eE0123456789 xyzpq_\n\t#\"'deg";
	gsl_rng *r = sw_rng_stream_alloc(6, 0);
	int accepted = 0, rejected = 0;
	for (int it = 0; it < 30000; it++) {
		const char *src = corpus[it % (sizeof corpus / sizeof corpus[0])];
		char buf[256];
		size_t n = strlen(src);
		memcpy(buf, src, n + 1);
		int edits = 1 + (int)gsl_rng_uniform_int(r, 4);
		for (int k = 0; k < edits; k++) {
			size_t at = n ? gsl_rng_uniform_int(r, n) : 0;
			char c = gsl_rng_uniform(r) < 0.8
				     ? noise[gsl_rng_uniform_int(r, sizeof noise - 1)]
				     : (char)(1 + gsl_rng_uniform_int(r, 255));
			switch (gsl_rng_uniform_int(r, 3)) {
			case 0: /* replace */
				if (n)
					buf[at] = c;
				break;
			case 1: /* insert */
				if (n + 1 < sizeof buf) {
					memmove(buf + at + 1, buf + at, n - at + 1);
					buf[at] = c;
					n++;
				}
				break;
			default: /* delete */
				if (n) {
					memmove(buf + at, buf + at + 1, n - at);
					n--;
				}
			}
		}
		sw_diag d;
		sw_diag_init(&d);
		sw_expr *e = NULL;
		int st = sw_expr_compile(buf, &syms, NULL, &d, &e);
		if (st == SW_SUCCESS) {
			accepted++;
			ck_assert_int_eq(d.count, 0);
			double s[NSLOTS];
			random_slots(r, s);
			sw_expr_env env = {host_call, host_margin, s};
			sw_expr_eval(e, s, &env);
			sw_expr_margin(e, s, &env);
			check_round_trip(sw_expr_tree(e), r);
			sw_expr_free(e);
		} else {
			rejected++;
			ck_assert_int_eq(st, SW_EINPUT);
			ck_assert_ptr_null(e);
			ck_assert_int_eq(d.count, 1);
			ck_assert_int_ge(d.entry[0].line, 1);
			ck_assert_int_ge(d.entry[0].column, 1);
			ck_assert_int_le(d.entry[0].column, (int)n + 1);
			ck_assert_int_gt((int)strlen(d.entry[0].message), 10);
		}
	}
	ck_assert_int_gt(accepted, 100);
	ck_assert_int_gt(rejected, 1000);
	/* A long but shallow input is fine; bytes past the maximum nesting are never read deep. */
	size_t n = 1 << 20;
	char *s = malloc(n + 1);
	for (size_t i = 0; i < n; i++)
		s[i] = "(x)*"[i % 4];
	s[n - 1] = ' ';
	sw_diag d;
	sw_diag_init(&d);
	sw_expr *e = NULL;
	ck_assert_int_eq(sw_expr_compile(s, &syms, NULL, &d, &e), SW_EINPUT);
	ck_assert_str_eq(d.entry[0].message,
			 "expression too deep (more than 1000 nested operations)");
	for (size_t i = 0; i < n; i++)
		s[i] = i % 2 ? ' ' : 'x';
	sw_diag_init(&d);
	ck_assert_int_eq(sw_expr_compile(s, &syms, NULL, &d, &e), SW_EINPUT);
	ck_assert_str_eq(d.entry[0].message,
			 "expected an operator or the end of the expression, got 'x'");
	free(s);
	gsl_rng_free(r);
}
END_TEST

Suite *expr_suite(void)
{
	Suite *s = suite_create("expr");
	TCase *tc = tcase_create("expr");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, eval_matches_c_at_random_points);
	tcase_add_test(tc, precedence_associativity_and_word_operators);
	tcase_add_test(tc, boolean_variables_and_short_circuit);
	tcase_add_test(tc, every_error_names_line_column_and_expectation);
	tcase_add_test(tc, print_parse_round_trip_over_corpus);
	tcase_add_test(tc, print_parse_round_trip_over_random_trees);
	tcase_add_test(tc, margin_sign_equals_truth_at_random_points);
	tcase_add_test(tc, host_functions_receive_name_ids_and_real_arguments);
	tcase_add_test(tc, derivative_matches_central_differences);
	tcase_add_test(tc, derivative_is_simplified_and_reports_what_it_cannot_do);
	tcase_add_test(tc, constructors_check_types_arity_and_limits);
	tcase_add_test(tc, garbled_input_is_rejected_cleanly);
	suite_add_tcase(s, tc);
	return s;
}
