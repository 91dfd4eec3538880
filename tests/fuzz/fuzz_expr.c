/* tests/fuzz/fuzz_expr.c - libFuzzer harness of the expression parser (src/expr).
 *
 * The input is an expression text (any bytes; cut at the first NUL).  It is parsed against a
 * small host symbol table (real and boolean variables, host functions taking names and reals).
 * Every accepted tree is also compiled and evaluated, printed in each syntax and parsed back
 * (which must give an equal tree: the printer's documented round trip), evaluated over an
 * interval box and differentiated.  A rejected text must leave *out NULL and one error in the
 * diagnostics.  Any violation aborts, which libFuzzer (and tests/fuzz/replay.c) report. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swerve/core.h"
#include "swerve/expr.h"
#include "fuzz.h"

enum { NSLOTS = 6 };

static const sw_expr_var vars[] = {
    {"x", 0, SW_EXPR_REAL}, {"y", 1, SW_EXPR_REAL},           {"t", 2, SW_EXPR_REAL},
    {"p", 3, SW_EXPR_BOOL}, {"light.green", 4, SW_EXPR_BOOL}, {"speed", 5, SW_EXPR_REAL},
};

static const sw_expr_func funcs[] = {
    {"dist", 1, 1, {SW_EXPR_ARG_NAME}, SW_EXPR_REAL},
    {"inside", 2, 1, {SW_EXPR_ARG_NAME}, SW_EXPR_BOOL},
    {"progress", 3, 2, {SW_EXPR_ARG_NAME, SW_EXPR_ARG_REAL}, SW_EXPR_REAL},
    {"near", 4, 2, {SW_EXPR_ARG_REAL, SW_EXPR_ARG_REAL}, SW_EXPR_BOOL},
    {"clearance", 5, 0, {SW_EXPR_ARG_REAL}, SW_EXPR_REAL},
};

static int resolve(void *ctx, const sw_expr_func *f, int arg, const char *name, int *id)
{
	(void)ctx;
	(void)f;
	(void)arg;
	if (strcmp(name, "goal") == 0 || strcmp(name, "crosswalk") == 0) {
		*id = name[0] == 'g' ? 7 : 8;
		return 0;
	}
	return 1;
}

static const sw_expr_symbols syms = {
    vars, sizeof vars / sizeof vars[0], funcs, sizeof funcs / sizeof funcs[0], resolve, NULL, NULL};

static double host_call(void *ctx, int func, const int *names, const double *args)
{
	(void)ctx;
	return func == 1   ? names[0]
	       : func == 3 ? names[0] + args[0]
	       : func == 4 ? args[0] < args[1]
			   : 0.5;
}

/* Prints a in the given syntax into a buffer of exactly the size the printer asks for. */
static char *print_tree(const sw_expr_ast *a, sw_expr_syntax syntax)
{
	int n = sw_expr_ast_print(a, syntax, NULL, 0);
	FUZZ_CHECK(n >= 0);
	char *buf = malloc((size_t)n + 1);
	FUZZ_CHECK(buf != NULL);
	FUZZ_CHECK(sw_expr_ast_print(a, syntax, buf, (size_t)n + 1) == n);
	FUZZ_CHECK(strlen(buf) == (size_t)n);
	return buf;
}

static void exercise(const sw_expr_ast *a, sw_diag *diag)
{
	/* Print -> parse gives an equal tree, in every syntax. */
	for (int s = 0; s < SW_EXPR_SYNTAX_COUNT; s++) {
		char *text = print_tree(a, (sw_expr_syntax)s);
		sw_expr_ast *b = NULL;
		int rc = sw_expr_ast_parse(text, &syms, NULL, diag, &b);
		if (rc != SW_SUCCESS || !sw_expr_ast_equal(a, b)) {
			char msg[SW_DIAG_MSG + 64];
			sw_diag_format(diag, diag->count - 1, msg, sizeof msg);
			fprintf(stderr, "round trip failed (syntax %d, status %d): %s\n%s\n", s, rc,
				text, rc == SW_SUCCESS ? "(a different tree)" : msg);
			abort();
		}
		sw_expr_ast_free(b);
		free(text);
	}
	/* Compile and evaluate (value and margin) at a fixed state. */
	sw_expr *e = NULL;
	if (sw_expr_compile_ast(a, diag, &e) == SW_SUCCESS) {
		double slots[NSLOTS] = {0.5, -2.0, 3.0, 1.0, 0.0, 1.25};
		sw_expr_env env = {host_call, NULL, NULL};
		double v = sw_expr_eval(e, slots, &env);
		double m = sw_expr_margin(e, slots, &env);
		if (sw_expr_result_type(e) == SW_EXPR_BOOL)
			FUZZ_CHECK(v == 0.0 || v == 1.0);
		(void)m;
		FUZZ_CHECK(sw_expr_stack_depth(e) <= SW_EXPR_MAX_STACK);
		sw_expr_free(e);
	}
	/* Interval evaluation over a box, and derivatives with respect to x. */
	double lo[NSLOTS] = {-1, -1, 0, 0, 0, 0}, hi[NSLOTS] = {1, 2, 10, 1, 1, 2}, ol, oh;
	(void)sw_expr_interval(a, lo, hi, &ol, &oh);
	if (a->type == SW_EXPR_REAL) {
		sw_expr_ast *d = NULL;
		if (sw_expr_ast_derivative(a, 0, &syms, diag, &d) == SW_SUCCESS)
			FUZZ_CHECK(d != NULL);
		sw_expr_ast_free(d);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096) /* longer texts only repeat what shorter ones exercise */
		return 0;
	char *text = malloc(size + 1);
	FUZZ_CHECK(text != NULL);
	memcpy(text, data, size);
	text[size] = '\0';
	static sw_diag diag;
	sw_diag_init(&diag);
	sw_expr_def def = sw_default_expr_def();
	def.file = "fuzz.expr";
	sw_expr_ast *a = (sw_expr_ast *)&def; /* must be overwritten */
	int rc = sw_expr_ast_parse(text, &syms, &def, &diag, &a);
	if (rc == SW_SUCCESS) {
		FUZZ_CHECK(a != NULL && diag.errors == 0);
		exercise(a, &diag);
		sw_expr_ast_free(a);
	} else {
		FUZZ_CHECK(a == NULL && (rc == SW_EINPUT || rc == SW_ENOMEM));
		FUZZ_CHECK(diag.errors == 1 && diag.count == 1);
		FUZZ_CHECK(strcmp(diag.entry[0].file, "fuzz.expr") == 0 && diag.entry[0].line >= 1);
	}
	free(text);
	return 0;
}
