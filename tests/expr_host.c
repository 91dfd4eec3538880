/* tests/expr_host.c - the host of the expression suites (tests/test_expr.c,
 * tests/test_expr_host.c): variables, perception functions and their callbacks (expr_host.h). */
#include <math.h>
#include <string.h>

#include "expr_host.h"
#include "tests.h"

const sw_expr_var eh_vars[EH_N_VARS] = {
    {"x", X, SW_EXPR_REAL},           {"y", Y, SW_EXPR_REAL}, {"z", Z, SW_EXPR_REAL},
    {"t", T, SW_EXPR_REAL},           {"p", P, SW_EXPR_BOOL}, {"q", Q, SW_EXPR_BOOL},
    {"light.green", 6, SW_EXPR_BOOL},
};

const sw_expr_func eh_funcs[EH_N_FUNCS] = {
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

const sw_expr_symbols eh_syms = {eh_vars, EH_N_VARS, eh_funcs, EH_N_FUNCS, resolve, derive, NULL};

int eh_host_calls;

double eh_host_call(void *ctx, int func, const int *names, const double *args)
{
	const double *s = ctx;
	eh_host_calls++;
	switch (func) {
	case F_DIST: return hypot(s[X] - names[0], s[Y]);
	case F_INSIDE: return s[X] > 0.1 * names[0];
	case F_PROGRESS: return sin(args[0]) + names[0];
	case F_NEAR: return args[0] * args[0] + args[1] * args[1] < 1.0;
	case F_SCALE: return 2.0 * args[0];
	default: return NAN;
	}
}

double eh_host_margin(void *ctx, int func, const int *names, const double *args)
{
	const double *s = ctx;
	if (func == F_INSIDE)
		return s[X] - 0.1 * names[0];
	return 1.0 - args[0] * args[0] - args[1] * args[1]; /* near */
}

void eh_random_slots(gsl_rng *r, double *s)
{
	for (int i = 0; i < NSLOTS; i++)
		s[i] = -2.0 + 4.0 * gsl_rng_uniform(r);
	s[P] = gsl_rng_uniform(r) < 0.5;
	s[Q] = gsl_rng_uniform(r) < 0.5;
	s[6] = gsl_rng_uniform(r) < 0.5;
}

sw_expr *eh_compile_ok(const char *text)
{
	sw_diag d;
	sw_diag_init(&d);
	sw_expr *e = NULL;
	int st = sw_expr_compile(text, &eh_syms, NULL, &d, &e);
	char buf[1024] = "";
	if (d.count)
		sw_diag_format(&d, 0, buf, sizeof buf);
	ck_assert_msg(st == SW_SUCCESS && e, "'%s' did not compile: %s", text, buf);
	return e;
}

double eh_eval_at(const char *text, double *s)
{
	sw_expr *e = eh_compile_ok(text);
	sw_expr_env env = {eh_host_call, eh_host_margin, s};
	double v = sw_expr_eval(e, s, &env);
	sw_expr_free(e);
	return v;
}

double eh_eval0(const char *text)
{
	double s[NSLOTS] = {0};
	return eh_eval_at(text, s);
}
