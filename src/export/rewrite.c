/* export/rewrite.c - expression trees for the tool profiles.
 *
 * SpaceEx reads only sin, cos, tan, exp and sqrt besides + - * / ^ and relations joined by &;
 * HyST's route to Flow* also loses tan and fractional powers, and Flow* wants closed relations
 * (docs/export.md, section Flows).  Exact rewrites used here:
 *     tanh(z) = 1 - 2 / (exp(2 z) + 1)      (never inf/inf: exp overflow gives 1 - 0 = 1)
 *     sinh(z) = (exp(z) - exp(-z)) / 2,  cosh(z) = (exp(z) + exp(-z)) / 2
 *     abs(z)  = sqrt(z^2),  tan(z) = sin(z) / cos(z) (HyST, JuliaReach),  z^0.5 = sqrt(z)
 * Everything else (atan2, asin, acos, atan, log, min, max, if, sign, floor, ceil, non-integer
 * powers for HyST) has no exact form in the profile: xr_profile() fails and the caller decides
 * how to over-approximate.  Atoms of guards and invariants are closed (a < b -> a <= b: adds only
 * boundary points, an over-approximation) and distances compared with constants are squared
 * (sqrt(A) <= c <-> A <= c^2 for c >= 0) so that guards stay polynomial. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"
#include "expr/expr_internal.h"

sw_expr_ast *xn_num(double v)
{
	return sw_expr_ast_number(v);
}

sw_expr_ast *xn_var(const sw_hcomponent *c, int k)
{
	if (k < 0)
		return NULL;
	return sw_expr_ast_variable(c->vars[k].name, k, SW_EXPR_REAL);
}

sw_expr_ast *xn_op(sw_expr_op op, sw_expr_ast *a, sw_expr_ast *b)
{
	if (!a || !b) {
		sw_expr_ast_free(a);
		sw_expr_ast_free(b);
		return NULL;
	}
	return sw_expr_ast_node(op, a, b, NULL);
}

sw_expr_ast *xn_call(sw_expr_op op, sw_expr_ast *a)
{
	return a ? sw_expr_ast_node(op, a, NULL, NULL) : NULL;
}

sw_expr_ast *xn_sq_diff(sw_expr_ast *a, sw_expr_ast *b)
{
	return xn_op(SW_EXPR_POW, xn_op(SW_EXPR_SUB, a, b), xn_num(2));
}

sw_expr_ast *xn_moving(double p, double v, sw_expr_ast *t)
{
	if (v == 0.0 || !t) {
		sw_expr_ast_free(t);
		return xn_num(p);
	}
	return xn_op(SW_EXPR_ADD, xn_num(p), xn_op(SW_EXPR_MUL, xn_num(v), t));
}

sw_expr_ast *xn_and(sw_expr_ast *a, sw_expr_ast *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	return sw_expr_ast_node(SW_EXPR_AND, a, b, NULL);
}

static int is_int(double v)
{
	return isfinite(v) && v == nearbyint(v) && fabs(v) < 1e15;
}

static sw_expr_ast *fail(const char **why, const char *name)
{
	if (why && !*why)
		*why = name;
	return NULL;
}

sw_expr_ast *xr_profile(const sw_expr_ast *a, sw_export_profile p, const char **why)
{
	if (!a)
		return NULL;
	if (p == SW_PROFILE_EXACT)
		return sw_expr_ast_clone(a);
	int tool = p == SW_PROFILE_HYST || p == SW_PROFILE_JULIAREACH;
	sw_expr_ast *k0 = NULL, *k1 = NULL;
	switch (a->op) {
	case SW_EXPR_NUM:
		return isfinite(a->value) ? xn_num(a->value) : fail(why, "a non-finite number");
	case SW_EXPR_BOOLEAN:
	case SW_EXPR_VAR:
		return sw_expr_ast_clone(a);
	case SW_EXPR_NEG:
	case SW_EXPR_SIN:
	case SW_EXPR_COS:
	case SW_EXPR_EXP:
	case SW_EXPR_SQRT:
		return xn_call(a->op, xr_profile(a->kid[0], p, why));
	case SW_EXPR_ADD:
	case SW_EXPR_SUB:
	case SW_EXPR_MUL:
	case SW_EXPR_DIV:
	case SW_EXPR_LT:
	case SW_EXPR_LE:
	case SW_EXPR_GT:
	case SW_EXPR_GE:
	case SW_EXPR_EQ:
	case SW_EXPR_AND:
		return xn_op(a->op, xr_profile(a->kid[0], p, why), xr_profile(a->kid[1], p, why));
	case SW_EXPR_POW: {
		const sw_expr_ast *e = a->kid[1];
		if (e->op != SW_EXPR_NUM)
			return fail(why, "a power with a variable exponent");
		if (e->value == 0.5)
			return xn_call(SW_EXPR_SQRT, xr_profile(a->kid[0], p, why));
		if (tool && !is_int(e->value))
			return fail(why, "a non-integer power");
		return xn_op(SW_EXPR_POW, xr_profile(a->kid[0], p, why), xn_num(e->value));
	}
	case SW_EXPR_TAN:
		if (!tool)
			return xn_call(SW_EXPR_TAN, xr_profile(a->kid[0], p, why));
		k0 = xr_profile(a->kid[0], p, why);
		k1 = k0 ? sw_expr_ast_clone(k0) : NULL;
		return xn_op(SW_EXPR_DIV, xn_call(SW_EXPR_SIN, k0), xn_call(SW_EXPR_COS, k1));
	case SW_EXPR_TANH:
		/* 1 - 2 / (exp(2 z) + 1) */
		k0 = xr_profile(a->kid[0], p, why);
		return xn_op(SW_EXPR_SUB, xn_num(1),
			     xn_op(SW_EXPR_DIV, xn_num(2),
				   xn_op(SW_EXPR_ADD,
					 xn_call(SW_EXPR_EXP, xn_op(SW_EXPR_MUL, xn_num(2), k0)),
					 xn_num(1))));
	case SW_EXPR_SINH:
	case SW_EXPR_COSH:
		k0 = xr_profile(a->kid[0], p, why);
		k1 = k0 ? sw_expr_ast_clone(k0) : NULL;
		return xn_op(SW_EXPR_DIV,
			     xn_op(a->op == SW_EXPR_SINH ? SW_EXPR_SUB : SW_EXPR_ADD,
				   xn_call(SW_EXPR_EXP, k0),
				   xn_call(SW_EXPR_EXP, xn_call(SW_EXPR_NEG, k1))),
			     xn_num(2));
	case SW_EXPR_ABS:
		return xn_call(SW_EXPR_SQRT,
			       xn_op(SW_EXPR_POW, xr_profile(a->kid[0], p, why), xn_num(2)));
	case SW_EXPR_HOST:
		return fail(why, a->name);
	default:
		return fail(why, a->op == SW_EXPR_NE	 ? "!="
				 : a->op == SW_EXPR_OR	 ? "or"
				 : a->op == SW_EXPR_NOT ? "not"
				 : sw_expr_ops[a->op].fname ? sw_expr_ops[a->op].fname
							    : "an operator");
	}
}

static int is_relation(sw_expr_op op)
{
	return op == SW_EXPR_LT || op == SW_EXPR_LE || op == SW_EXPR_GT || op == SW_EXPR_GE ||
	       op == SW_EXPR_EQ;
}

/* For e = sqrt(A) + k (k a number, possibly absent) stores A and k; returns 1 when e has that
 * form. */
static int sqrt_plus(const sw_expr_ast *e, const sw_expr_ast **A, double *k)
{
	*k = 0.0;
	if (e->op == SW_EXPR_SQRT) {
		*A = e->kid[0];
		return 1;
	}
	if ((e->op == SW_EXPR_SUB || e->op == SW_EXPR_ADD) && e->kid[0]->op == SW_EXPR_SQRT &&
	    e->kid[1]->op == SW_EXPR_NUM) {
		*A = e->kid[0]->kid[0];
		*k = e->op == SW_EXPR_SUB ? -e->kid[1]->value : e->kid[1]->value;
		return 1;
	}
	return 0;
}

sw_expr_ast *xr_atom_finish(sw_expr_ast *a, sw_export_profile p)
{
	if (!a || !is_relation(a->op) || p == SW_PROFILE_EXACT)
		return a;
	sw_expr_op op = a->op == SW_EXPR_LT ? SW_EXPR_LE : a->op == SW_EXPR_GT ? SW_EXPR_GE : a->op;
	const sw_expr_ast *l = a->kid[0], *r = a->kid[1], *A;
	double k;
	sw_expr_ast *out = NULL;
	if (op != SW_EXPR_EQ && r->op == SW_EXPR_NUM && sqrt_plus(l, &A, &k) && r->value - k >= 0)
		out = xn_op(op, sw_expr_ast_clone(A), xn_num((r->value - k) * (r->value - k)));
	else if (op != SW_EXPR_EQ && l->op == SW_EXPR_NUM && sqrt_plus(r, &A, &k) &&
		 l->value - k >= 0)
		out = xn_op(op, xn_num((l->value - k) * (l->value - k)), sw_expr_ast_clone(A));
	else
		out = xn_op(op, sw_expr_ast_clone(l), sw_expr_ast_clone(r));
	sw_expr_ast_free(a);
	return out;
}

sw_expr_ast *xr_negate_closed(const sw_expr_ast *a)
{
	sw_expr_op op;
	switch (a->op) {
	case SW_EXPR_LT:
	case SW_EXPR_LE: op = SW_EXPR_GE; break;
	case SW_EXPR_GT:
	case SW_EXPR_GE: op = SW_EXPR_LE; break;
	default: return NULL;
	}
	return xn_op(op, sw_expr_ast_clone(a->kid[0]), sw_expr_ast_clone(a->kid[1]));
}

void xr_dnf_free(xr_dnf *f)
{
	for (int i = 0; i < f->n; i++) {
		for (int k = 0; k < f->d[i].n; k++)
			sw_expr_ast_free(f->d[i].atom[k]);
		free(f->d[i].atom);
	}
	free(f->d);
	memset(f, 0, sizeof *f);
}
