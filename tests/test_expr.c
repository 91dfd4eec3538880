/* tests/test_expr.c - expressions: parsing, errors, evaluation, printing, hostile input (margins,
 * host functions, derivatives and the constructors are in tests/test_expr_host.c).
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
#include "expr_host.h"
#include "tests.h"

Suite *expr_suite(void);

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
		sw_expr *e = eh_compile_ok(cases[i].text);
		for (int k = 0; k < 500; k++) {
			double s[NSLOTS];
			eh_random_slots(r, s);
			sw_expr_env env = {eh_host_call, eh_host_margin, s};
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
	ck_assert_double_eq(eh_eval0("2^3^2"), 512);
	ck_assert_double_eq(eh_eval0("-2^2"), -4);
	ck_assert_double_eq(eh_eval0("(-2)^2"), 4);
	ck_assert_double_eq(eh_eval0("2^-1"), 0.5);
	ck_assert_double_eq(eh_eval0("1 - 2 - 3"), -4);
	ck_assert_double_eq(eh_eval0("8/4/2"), 1);
	ck_assert_double_eq(eh_eval0("2 + 3*4"), 14);
	ck_assert_double_eq(eh_eval0("-3*-2"), 6);
	ck_assert_double_eq(eh_eval0("+4 - +1"), 3);
	ck_assert_double_eq(eh_eval0("true or false and false"), 1); /* and binds tighter */
	ck_assert_double_eq(eh_eval0("(true or false) and false"), 0);
	ck_assert_double_eq(eh_eval0("not true or true"), 1); /* (not true) or true */
	ck_assert_double_eq(eh_eval0("not 1 gt 2"), 1);       /* not (1 > 2) */
	ck_assert_double_eq(eh_eval0("!(1 < 2) || 2 == 2"), 1);
	ck_assert_double_eq(eh_eval0("1 lt 2 and 3 ge 3 and 2 le 2 and 3 gt 2 and 1 eq 1 and 1 ne 2"),
			    1);
	ck_assert_double_eq(eh_eval0("1 < 2 && 3 >= 3 && 2 <= 2 && 3 > 2 && 1 == 1 && 1 != 2"), 1);
	ck_assert_double_eq(eh_eval0("not not true"), 1);
	ck_assert_double_eq(eh_eval0("if(1 > 2, 10, 20)"), 20);
	ck_assert_double_eq(eh_eval0("if(1 < 2, 10, 20)"), 10);
	ck_assert_double_eq(eh_eval0("15deg"), 15 * (M_PI / 180.0));
	ck_assert_double_eq(eh_eval0("3rad"), 3);
	ck_assert_double_eq(eh_eval0("pi"), M_PI);
	ck_assert_double_eq(eh_eval0("1e-3"), 1e-3);
	ck_assert_double_eq(eh_eval0("1E3 + .25 + 2."), 1002.25);
	ck_assert_double_eq(eh_eval0("pow(2, 10)"), 1024);
	ck_assert_double_eq(eh_eval0("min(3, -1) + max(3, -1)"), 2);
	ck_assert_double_eq(eh_eval0("sign(-0.5) + sign(0) + sign(2)"), 0);
	ck_assert_double_eq(eh_eval0("  2 *\n\t( 1 + 1 )  "), 4);
}
END_TEST

START_TEST(boolean_variables_and_short_circuit)
{
	double s[NSLOTS] = {0};
	s[P] = 1.0;
	s[6] = 2.0; /* any non-zero slot is true */
	ck_assert_double_eq(eh_eval_at("p and light.green", s), 1);
	ck_assert_double_eq(eh_eval_at("q or not p", s), 0);
	eh_host_calls = 0;
	ck_assert_double_eq(eh_eval_at("false and dist(goal) > 0", s), 0);
	ck_assert_double_eq(eh_eval_at("true or dist(goal) > 0", s), 1);
	ck_assert_double_eq(eh_eval_at("if(p, 1, dist(goal))", s), 1);
	ck_assert_int_eq(eh_host_calls, 0);
	ck_assert_double_eq(eh_eval_at("if(q, 1, dist(goal))", s), 7);
	ck_assert_int_eq(eh_host_calls, 1);
	sw_expr *e = eh_compile_ok("p and q");
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
	int st = sw_expr_compile(text, &eh_syms, &def, &d, &e);
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
	ck_assert_int_eq(sw_expr_compile("x gt", &eh_syms, &def, &d, &e), SW_EINPUT);
	char buf[512];
	sw_diag_format(&d, 0, buf, sizeof buf);
	ck_assert_str_eq(buf, "a.xml:3:18: error: expected an expression, got the end of the "
			      "expression");
	ck_assert_int_eq(sw_expr_compile(NULL, &eh_syms, &def, &d, &e), SW_EUSAGE);
	ck_assert_int_eq(sw_expr_compile("x", &eh_syms, &def, &d, NULL), SW_EUSAGE);
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
		int st = sw_expr_ast_parse(text, &eh_syms, NULL, &d, &b);
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
			eh_random_slots(r, s);
			sw_expr_env env = {eh_host_call, eh_host_margin, s};
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
		ck_assert_int_eq(sw_expr_ast_parse(corpus[i], &eh_syms, NULL, NULL, &a), SW_SUCCESS);
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
		sw_expr *e = eh_compile_ok(forms[i].in);
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
				return sw_expr_ast_host(&eh_funcs[0], &n);
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
			return sw_expr_ast_host(&eh_funcs[2], args);
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
			return sw_expr_ast_host(&eh_funcs[1], &n);
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
		return sw_expr_ast_host(&eh_funcs[3], args);
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
		int st = sw_expr_compile(buf, &eh_syms, NULL, &d, &e);
		if (st == SW_SUCCESS) {
			accepted++;
			ck_assert_int_eq(d.count, 0);
			double s[NSLOTS];
			eh_random_slots(r, s);
			sw_expr_env env = {eh_host_call, eh_host_margin, s};
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
	ck_assert_int_eq(sw_expr_compile(s, &eh_syms, NULL, &d, &e), SW_EINPUT);
	ck_assert_str_eq(d.entry[0].message,
			 "expression too deep (more than 1000 nested operations)");
	for (size_t i = 0; i < n; i++)
		s[i] = i % 2 ? ' ' : 'x';
	sw_diag_init(&d);
	ck_assert_int_eq(sw_expr_compile(s, &eh_syms, NULL, &d, &e), SW_EINPUT);
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
	tcase_add_test(tc, garbled_input_is_rejected_cleanly);
	suite_add_tcase(s, tc);
	return s;
}
