/* expr/deriv.c - symbolic derivative d/d(slot) of a real expression, with simplification.
 *
 * Rules (a' = d a / d slot):
 *   (a*b)' = a'b + ab'          (a/b)' = (a'b - ab')/b^2, or a'/b when b' = 0
 *   (a^b)' = b a^(b-1) a' when b' = 0, else a^b (b' log a + b a'/a)
 *   sin' = cos, cos' = -sin, tan' = 1/cos^2, asin' = 1/sqrt(1-x^2), acos' = -asin',
 *   atan' = 1/(1+x^2), atan2(y,x)' = (x y' - y x')/(x^2 + y^2), exp' = exp, log' = 1/x,
 *   sqrt' = 1/(2 sqrt x), tanh' = 1 - tanh^2, sinh' = cosh, cosh' = sinh
 * and, almost everywhere: abs' = sign(x) x', sign' = floor' = ceil' = 0,
 *   min(a,b)' = if(a <= b, a', b'), max(a,b)' = if(a >= b, a', b'), if(c,a,b)' = if(c,a',b').
 * Host calls go to the host's derive callback.  Every node is built by mk(), which folds
 * constants and removes 0*x, x*1, x+0, x-0, 0-x, x/1, 0/x, x^1, x^0, --x and if(c,a,a) as it
 * goes, so derivatives stay readable and the results of chains of derivatives stay small. */
#include <stdlib.h>

#include "expr/expr_internal.h"

typedef struct dctx {
	int slot;
	const sw_expr_symbols *sym;
	sw_diag *diag;
	int status;
} dctx;

static int is_num(const sw_expr_ast *a, double v)
{
	return a && a->op == SW_EXPR_NUM && a->value == v;
}

static sw_expr_ast *num(dctx *d, double v)
{
	sw_expr_ast *a = sw_expr_ast_number(v);
	if (!a && !d->status)
		d->status = SW_ENOMEM;
	return a;
}

static sw_expr_ast *cp(dctx *d, const sw_expr_ast *a)
{
	sw_expr_ast *c = sw_expr_ast_clone(a);
	if (!c && !d->status)
		d->status = SW_ENOMEM;
	return c;
}

/* Detaches the only child of a unary node and frees the node. */
static sw_expr_ast *unwrap(sw_expr_ast *n)
{
	sw_expr_ast *k = n->kid[0];
	n->nkid = 0;
	sw_expr_ast_free(n);
	return k;
}

/* Replaces a number leaf's value (it is no longer an angle as written). */
static sw_expr_ast *set(sw_expr_ast *a, double v)
{
	a->value = v;
	a->degrees = 0;
	return a;
}

/* Builds op(a, b, c) simplified; consumes the operands; NULL (with d->status) on failure. */
static sw_expr_ast *mk(dctx *d, sw_expr_op op, sw_expr_ast *a, sw_expr_ast *b, sw_expr_ast *c)
{
	int arity = sw_expr_ops[op].arity;
	int missing = !a || (arity > 1 && !b) || (arity > 2 && !c);
	if (d->status || missing) {
		if (!d->status)
			d->status = SW_ENOMEM;
		sw_expr_ast_free(a);
		sw_expr_ast_free(b);
		sw_expr_ast_free(c);
		return NULL;
	}
	int na = a->op == SW_EXPR_NUM, nb = b && b->op == SW_EXPR_NUM;
	switch (op) {
	case SW_EXPR_NEG:
		if (na)
			return set(a, -a->value);
		if (a->op == SW_EXPR_NEG)
			return unwrap(a);
		break;
	case SW_EXPR_ADD:
		if (na && nb) {
			set(a, a->value + b->value);
			sw_expr_ast_free(b);
			return a;
		}
		if (is_num(a, 0.0)) {
			sw_expr_ast_free(a);
			return b;
		}
		if (is_num(b, 0.0)) {
			sw_expr_ast_free(b);
			return a;
		}
		if (b->op == SW_EXPR_NEG)
			return mk(d, SW_EXPR_SUB, a, unwrap(b), NULL);
		break;
	case SW_EXPR_SUB:
		if (na && nb) {
			set(a, a->value - b->value);
			sw_expr_ast_free(b);
			return a;
		}
		if (is_num(b, 0.0)) {
			sw_expr_ast_free(b);
			return a;
		}
		if (is_num(a, 0.0)) {
			sw_expr_ast_free(a);
			return mk(d, SW_EXPR_NEG, b, NULL, NULL);
		}
		break;
	case SW_EXPR_MUL:
		if (is_num(a, 0.0) || is_num(b, 0.0)) {
			sw_expr_ast_free(a);
			sw_expr_ast_free(b);
			return num(d, 0.0);
		}
		if (na && nb) {
			set(a, a->value * b->value);
			sw_expr_ast_free(b);
			return a;
		}
		if (is_num(a, 1.0)) {
			sw_expr_ast_free(a);
			return b;
		}
		if (is_num(b, 1.0)) {
			sw_expr_ast_free(b);
			return a;
		}
		if (is_num(a, -1.0)) {
			sw_expr_ast_free(a);
			return mk(d, SW_EXPR_NEG, b, NULL, NULL);
		}
		break;
	case SW_EXPR_DIV:
		if (is_num(a, 0.0)) {
			sw_expr_ast_free(b);
			return a;
		}
		if (is_num(b, 1.0)) {
			sw_expr_ast_free(b);
			return a;
		}
		break;
	case SW_EXPR_POW:
		if (is_num(b, 1.0)) {
			sw_expr_ast_free(b);
			return a;
		}
		if (is_num(b, 0.0)) {
			sw_expr_ast_free(a);
			sw_expr_ast_free(b);
			return num(d, 1.0);
		}
		break;
	case SW_EXPR_IF:
		if (sw_expr_ast_equal(b, c)) {
			sw_expr_ast_free(a);
			sw_expr_ast_free(c);
			return b;
		}
		break;
	default: break;
	}
	int h = a->height;
	if (b && b->height > h)
		h = b->height;
	if (c && c->height > h)
		h = c->height;
	sw_expr_ast *n = sw_expr_ast_node(op, a, b, c);
	if (!n)
		d->status = h >= SW_EXPR_MAX_HEIGHT ? SW_EINPUT : SW_ENOMEM;
	return n;
}

#define MK1(op, a) mk(d, op, a, NULL, NULL)
#define MK2(op, a, b) mk(d, op, a, b, NULL)

static sw_expr_ast *deriv(dctx *d, const sw_expr_ast *a);

static sw_expr_ast *square(dctx *d, const sw_expr_ast *a)
{
	return MK2(SW_EXPR_POW, cp(d, a), num(d, 2.0));
}

/* Derivative of a host call, through the host's callback. */
static sw_expr_ast *deriv_host(dctx *d, const sw_expr_ast *a)
{
	sw_expr_ast *out = NULL;
	const sw_expr_symbols *s = d->sym;
	if (s && s->derive && s->derive(s->ctx, a, d->slot, &out) == 0 && out &&
	    out->type == SW_EXPR_REAL)
		return out;
	sw_expr_ast_free(out);
	if (!d->status) {
		sw_diag_add(d->diag, SW_SEV_ERROR, NULL, a->line, a->column,
			    "no derivative for '%s'", a->name);
		d->status = SW_EUSAGE;
	}
	return NULL;
}

static sw_expr_ast *deriv(dctx *d, const sw_expr_ast *a)
{
	const sw_expr_ast *x = a->kid[0], *y = a->kid[1];
	if (d->status)
		return NULL;
	switch (a->op) {
	case SW_EXPR_VAR: return num(d, a->slot == d->slot ? 1.0 : 0.0);
	case SW_EXPR_NEG: return MK1(SW_EXPR_NEG, deriv(d, x));
	case SW_EXPR_ADD: return MK2(SW_EXPR_ADD, deriv(d, x), deriv(d, y));
	case SW_EXPR_SUB: return MK2(SW_EXPR_SUB, deriv(d, x), deriv(d, y));
	case SW_EXPR_MUL:
		return MK2(SW_EXPR_ADD, MK2(SW_EXPR_MUL, deriv(d, x), cp(d, y)),
			   MK2(SW_EXPR_MUL, cp(d, x), deriv(d, y)));
	case SW_EXPR_DIV: {
		sw_expr_ast *dy = deriv(d, y);
		if (is_num(dy, 0.0)) {
			sw_expr_ast_free(dy);
			return MK2(SW_EXPR_DIV, deriv(d, x), cp(d, y));
		}
		sw_expr_ast *top = MK2(SW_EXPR_SUB, MK2(SW_EXPR_MUL, deriv(d, x), cp(d, y)),
				       MK2(SW_EXPR_MUL, cp(d, x), dy));
		return MK2(SW_EXPR_DIV, top, square(d, y));
	}
	case SW_EXPR_POW: {
		sw_expr_ast *dy = deriv(d, y);
		if (is_num(dy, 0.0)) {
			sw_expr_ast_free(dy);
			sw_expr_ast *pw =
			    MK2(SW_EXPR_POW, cp(d, x), MK2(SW_EXPR_SUB, cp(d, y), num(d, 1.0)));
			return MK2(SW_EXPR_MUL, MK2(SW_EXPR_MUL, cp(d, y), pw), deriv(d, x));
		}
		sw_expr_ast *t1 = MK2(SW_EXPR_MUL, dy, MK1(SW_EXPR_LOG, cp(d, x)));
		sw_expr_ast *t2 =
		    MK2(SW_EXPR_DIV, MK2(SW_EXPR_MUL, cp(d, y), deriv(d, x)), cp(d, x));
		return MK2(SW_EXPR_MUL, cp(d, a), MK2(SW_EXPR_ADD, t1, t2));
	}
	case SW_EXPR_IF: return mk(d, SW_EXPR_IF, cp(d, x), deriv(d, y), deriv(d, a->kid[2]));
	case SW_EXPR_SIN: return MK2(SW_EXPR_MUL, MK1(SW_EXPR_COS, cp(d, x)), deriv(d, x));
	case SW_EXPR_COS:
		return MK2(SW_EXPR_MUL, MK1(SW_EXPR_NEG, MK1(SW_EXPR_SIN, cp(d, x))), deriv(d, x));
	case SW_EXPR_TAN:
		return MK2(SW_EXPR_DIV, deriv(d, x),
			   MK2(SW_EXPR_POW, MK1(SW_EXPR_COS, cp(d, x)), num(d, 2.0)));
	case SW_EXPR_ASIN:
	case SW_EXPR_ACOS: {
		sw_expr_ast *r =
		    MK2(SW_EXPR_DIV, deriv(d, x),
			MK1(SW_EXPR_SQRT, MK2(SW_EXPR_SUB, num(d, 1.0), square(d, x))));
		return a->op == SW_EXPR_ACOS ? MK1(SW_EXPR_NEG, r) : r;
	}
	case SW_EXPR_ATAN:
		return MK2(SW_EXPR_DIV, deriv(d, x), MK2(SW_EXPR_ADD, num(d, 1.0), square(d, x)));
	case SW_EXPR_ATAN2: /* atan2(x = y-coordinate, y = x-coordinate) */
		return MK2(SW_EXPR_DIV,
			   MK2(SW_EXPR_SUB, MK2(SW_EXPR_MUL, cp(d, y), deriv(d, x)),
			       MK2(SW_EXPR_MUL, cp(d, x), deriv(d, y))),
			   MK2(SW_EXPR_ADD, square(d, y), square(d, x)));
	case SW_EXPR_EXP: return MK2(SW_EXPR_MUL, MK1(SW_EXPR_EXP, cp(d, x)), deriv(d, x));
	case SW_EXPR_LOG: return MK2(SW_EXPR_DIV, deriv(d, x), cp(d, x));
	case SW_EXPR_SQRT:
		return MK2(SW_EXPR_DIV, deriv(d, x),
			   MK2(SW_EXPR_MUL, num(d, 2.0), MK1(SW_EXPR_SQRT, cp(d, x))));
	case SW_EXPR_TANH:
		return MK2(SW_EXPR_MUL,
			   MK2(SW_EXPR_SUB, num(d, 1.0),
			       MK2(SW_EXPR_POW, MK1(SW_EXPR_TANH, cp(d, x)), num(d, 2.0))),
			   deriv(d, x));
	case SW_EXPR_SINH: return MK2(SW_EXPR_MUL, MK1(SW_EXPR_COSH, cp(d, x)), deriv(d, x));
	case SW_EXPR_COSH: return MK2(SW_EXPR_MUL, MK1(SW_EXPR_SINH, cp(d, x)), deriv(d, x));
	case SW_EXPR_ABS: return MK2(SW_EXPR_MUL, MK1(SW_EXPR_SIGN, cp(d, x)), deriv(d, x));
	case SW_EXPR_MIN:
	case SW_EXPR_MAX:
		return mk(d, SW_EXPR_IF,
			  MK2(a->op == SW_EXPR_MIN ? SW_EXPR_LE : SW_EXPR_GE, cp(d, x), cp(d, y)),
			  deriv(d, x), deriv(d, y));
	case SW_EXPR_HOST: return deriv_host(d, a);
	default: /* numbers, sign, floor, ceil */ return num(d, 0.0);
	}
}

int sw_expr_ast_derivative(const sw_expr_ast *a, int slot, const sw_expr_symbols *sym,
			   sw_diag *diag, sw_expr_ast **out)
{
	if (!out)
		return SW_EUSAGE;
	*out = NULL;
	if (!a)
		return SW_EUSAGE;
	if (a->type != SW_EXPR_REAL || a->op == SW_EXPR_NAME) {
		sw_diag_add(diag, SW_SEV_ERROR, NULL, a->line, a->column,
			    "cannot differentiate a condition (a boolean expression)");
		return SW_EUSAGE;
	}
	dctx d = {slot, sym, diag, SW_SUCCESS};
	sw_expr_ast *r = deriv(&d, a);
	if (d.status != SW_SUCCESS) {
		sw_expr_ast_free(r);
		if (d.status == SW_EINPUT)
			sw_diag_add(diag, SW_SEV_ERROR, NULL, a->line, a->column,
				    "derivative too deep (more than %d nested operations)",
				    SW_EXPR_MAX_HEIGHT);
		return d.status;
	}
	*out = r;
	return SW_SUCCESS;
}
