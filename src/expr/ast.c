/* expr/ast.c - the node table, tree constructors with type checking, copy, equality, free. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr/expr_internal.h"

#define R SW_EXPR_REAL
#define B SW_EXPR_BOOL
#define A SW_EXPR_ANY
/* clang-format off */
#define INFIX(prec, ra, na, opnd, res, plain, xml, c) \
	{ NULL, FORM_INFIX, 2, prec, ra, na, opnd, res, { plain, xml, c } }
#define FUNC(name, n) { name, FORM_CALL, n, PREC_ATOM, 0, 0, R, R, { NULL, NULL, NULL } }
/* clang-format on */

const op_info sw_expr_ops[SW_EXPR_OP_COUNT] = {
    [SW_EXPR_NUM] = {NULL, FORM_LEAF, -1, PREC_ATOM, 0, 0, R, R, {NULL, NULL, NULL}},
    [SW_EXPR_BOOLEAN] = {NULL, FORM_LEAF, -1, PREC_ATOM, 0, 0, B, B, {NULL, NULL, NULL}},
    [SW_EXPR_VAR] = {NULL, FORM_LEAF, -1, PREC_ATOM, 0, 0, A, A, {NULL, NULL, NULL}},
    [SW_EXPR_NAME] = {NULL, FORM_LEAF, -1, PREC_ATOM, 0, 0, A, R, {NULL, NULL, NULL}},
    [SW_EXPR_NEG] = {NULL, FORM_PREFIX, 1, PREC_NEG, 0, 0, R, R, {"-", "-", "-"}},
    [SW_EXPR_NOT] = {NULL, FORM_PREFIX, 1, PREC_NOT, 0, 0, B, B, {"not ", "not ", "!"}},
    [SW_EXPR_ADD] = INFIX(PREC_ADD, 0, 0, R, R, " + ", " + ", " + "),
    [SW_EXPR_SUB] = INFIX(PREC_ADD, 0, 0, R, R, " - ", " - ", " - "),
    [SW_EXPR_MUL] = INFIX(PREC_MUL, 0, 0, R, R, "*", "*", "*"),
    [SW_EXPR_DIV] = INFIX(PREC_MUL, 0, 0, R, R, "/", "/", "/"),
    [SW_EXPR_POW] = INFIX(PREC_POW, 1, 0, R, R, "^", "^", "^"),
    [SW_EXPR_LT] = INFIX(PREC_CMP, 0, 1, R, B, " < ", " lt ", " < "),
    [SW_EXPR_LE] = INFIX(PREC_CMP, 0, 1, R, B, " <= ", " le ", " <= "),
    [SW_EXPR_GT] = INFIX(PREC_CMP, 0, 1, R, B, " > ", " gt ", " > "),
    [SW_EXPR_GE] = INFIX(PREC_CMP, 0, 1, R, B, " >= ", " ge ", " >= "),
    [SW_EXPR_EQ] = INFIX(PREC_CMP, 0, 1, R, B, " == ", " eq ", " == "),
    [SW_EXPR_NE] = INFIX(PREC_CMP, 0, 1, R, B, " != ", " ne ", " != "),
    [SW_EXPR_AND] = INFIX(PREC_AND, 0, 0, B, B, " and ", " and ", " && "),
    [SW_EXPR_OR] = INFIX(PREC_OR, 0, 0, B, B, " or ", " or ", " || "),
    [SW_EXPR_IF] = {"if", FORM_CALL, 3, PREC_ATOM, 0, 0, A, A, {NULL, NULL, NULL}},
    [SW_EXPR_SIN] = FUNC("sin", 1),
    [SW_EXPR_COS] = FUNC("cos", 1),
    [SW_EXPR_TAN] = FUNC("tan", 1),
    [SW_EXPR_ASIN] = FUNC("asin", 1),
    [SW_EXPR_ACOS] = FUNC("acos", 1),
    [SW_EXPR_ATAN] = FUNC("atan", 1),
    [SW_EXPR_ATAN2] = FUNC("atan2", 2),
    [SW_EXPR_EXP] = FUNC("exp", 1),
    [SW_EXPR_LOG] = FUNC("log", 1),
    [SW_EXPR_SQRT] = FUNC("sqrt", 1),
    [SW_EXPR_TANH] = FUNC("tanh", 1),
    [SW_EXPR_SINH] = FUNC("sinh", 1),
    [SW_EXPR_COSH] = FUNC("cosh", 1),
    [SW_EXPR_ABS] = FUNC("abs", 1),
    [SW_EXPR_SIGN] = FUNC("sign", 1),
    [SW_EXPR_MIN] = FUNC("min", 2),
    [SW_EXPR_MAX] = FUNC("max", 2),
    [SW_EXPR_FLOOR] = FUNC("floor", 1),
    [SW_EXPR_CEIL] = FUNC("ceil", 1),
    [SW_EXPR_HOST] = {NULL, FORM_CALL, -1, PREC_ATOM, 0, 0, A, A, {NULL, NULL, NULL}},
};

int sw_expr_builtin_lookup(const char *name, size_t len)
{
	if (len == 3 && memcmp(name, "pow", 3) == 0)
		return SW_EXPR_POW;
	for (int op = 0; op < SW_EXPR_OP_COUNT; op++) {
		const char *f = sw_expr_ops[op].fname;
		if (f && strlen(f) == len && memcmp(f, name, len) == 0)
			return op;
	}
	return -1;
}

const char *sw_expr_type_word(sw_expr_type t)
{
	return t == SW_EXPR_BOOL ? "boolean" : "number";
}

sw_expr_def sw_default_expr_def(void)
{
	sw_expr_def d = {NULL, 1, 1, SW_EXPR_ANY};
	return d;
}

sw_expr_ast *sw_expr_node_alloc(sw_expr_op op)
{
	sw_expr_ast *a = calloc(1, sizeof *a);
	if (a) {
		a->op = op;
		a->type = sw_expr_ops[op].result == SW_EXPR_BOOL ? SW_EXPR_BOOL : SW_EXPR_REAL;
		a->height = 1;
	}
	return a;
}

void sw_expr_ast_free(sw_expr_ast *a)
{
	if (!a)
		return;
	for (int i = 0; i < a->nkid; i++)
		sw_expr_ast_free(a->kid[i]);
	free(a->name);
	free(a);
}

/* Height is checked before types so that a too-deep tree is reported as such. */
int sw_expr_node_check(sw_expr_ast *a, const char *spelled, char *msg, size_t n)
{
	const op_info *oi = &sw_expr_ops[a->op];
	int h = 0;
	for (int i = 0; i < a->nkid; i++)
		if (a->kid[i]->height > h)
			h = a->kid[i]->height;
	a->height = h + 1;
	if (a->height > SW_EXPR_MAX_HEIGHT) {
		snprintf(msg, n, "expression too deep (more than %d nested operations)",
			 SW_EXPR_MAX_HEIGHT);
		return SW_EINPUT;
	}
	if (!spelled)
		spelled = oi->form == FORM_CALL ? oi->fname : oi->spell[0];
	/* Trim the blanks around infix spellings for messages. */
	char op[16];
	size_t k = 0;
	for (const char *s = spelled; *s && k + 1 < sizeof op; s++)
		if (*s != ' ')
			op[k++] = *s;
	op[k] = '\0';
	if (a->op == SW_EXPR_IF) {
		if (a->kid[0]->type != SW_EXPR_BOOL) {
			snprintf(msg, n,
				 "type error: the condition of 'if' must be a boolean, got a %s",
				 sw_expr_type_word(a->kid[0]->type));
			return SW_EINPUT;
		}
		if (a->kid[1]->type != a->kid[2]->type) {
			snprintf(
			    msg, n,
			    "type error: the branches of 'if' must have the same type, got a %s "
			    "and a %s",
			    sw_expr_type_word(a->kid[1]->type), sw_expr_type_word(a->kid[2]->type));
			return SW_EINPUT;
		}
		a->type = a->kid[1]->type;
		return SW_SUCCESS;
	}
	for (int i = 0; i < a->nkid; i++) {
		if (a->kid[i]->type == oi->operand)
			continue;
		if (oi->form == FORM_CALL)
			snprintf(msg, n, "type error: argument %d of '%s' must be a %s, got a %s",
				 i + 1, op, sw_expr_type_word(oi->operand),
				 sw_expr_type_word(a->kid[i]->type));
		else if (oi->form == FORM_PREFIX)
			snprintf(msg, n, "type error: '%s' needs a %s operand, got a %s", op,
				 sw_expr_type_word(oi->operand),
				 sw_expr_type_word(a->kid[i]->type));
		else
			snprintf(msg, n, "type error: '%s' needs %s operands, got a %s", op,
				 sw_expr_type_word(oi->operand),
				 sw_expr_type_word(a->kid[i]->type));
		return SW_EINPUT;
	}
	a->type = oi->result;
	return SW_SUCCESS;
}

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

sw_expr_ast *sw_expr_ast_number(double value)
{
	sw_expr_ast *a = sw_expr_node_alloc(SW_EXPR_NUM);
	if (a)
		a->value = value;
	return a;
}

sw_expr_ast *sw_expr_ast_variable(const char *name, int slot, sw_expr_type type)
{
	if (!name || (type != SW_EXPR_REAL && type != SW_EXPR_BOOL) || slot < 0)
		return NULL;
	sw_expr_ast *a = sw_expr_node_alloc(SW_EXPR_VAR);
	if (!a)
		return NULL;
	a->name = dup_str(name);
	if (!a->name) {
		free(a);
		return NULL;
	}
	a->slot = slot;
	a->type = type;
	return a;
}

sw_expr_ast *sw_expr_ast_name(const char *name, int id)
{
	if (!name)
		return NULL;
	sw_expr_ast *a = sw_expr_node_alloc(SW_EXPR_NAME);
	if (!a)
		return NULL;
	a->name = dup_str(name);
	if (!a->name) {
		free(a);
		return NULL;
	}
	a->slot = id;
	return a;
}

sw_expr_ast *sw_expr_ast_node(sw_expr_op op, sw_expr_ast *a, sw_expr_ast *b, sw_expr_ast *c)
{
	sw_expr_ast *in[3] = {a, b, c};
	sw_expr_ast *n = NULL;
	int arity = op >= 0 && op < SW_EXPR_OP_COUNT ? sw_expr_ops[op].arity : -1;
	int ok = arity >= 1 && arity <= 3;
	for (int i = 0; i < 3; i++)
		if ((i < arity) != (in[i] != NULL) || (in[i] && in[i]->op == SW_EXPR_NAME))
			ok = 0;
	if (ok)
		n = sw_expr_node_alloc(op);
	if (!n) {
		for (int i = 0; i < 3; i++)
			sw_expr_ast_free(in[i]);
		return NULL;
	}
	n->nkid = arity;
	for (int i = 0; i < arity; i++)
		n->kid[i] = in[i];
	char msg[128];
	if (sw_expr_node_check(n, NULL, msg, sizeof msg) != SW_SUCCESS) {
		sw_expr_ast_free(n);
		return NULL;
	}
	return n;
}

sw_expr_ast *sw_expr_ast_host(const sw_expr_func *f, sw_expr_ast *const *args)
{
	int arity = f ? f->arity : 0;
	int ok = f && f->name && arity >= 0 && arity <= SW_EXPR_MAX_ARGS && (args || arity == 0);
	int h = 0;
	for (int i = 0; ok && i < arity; i++) {
		if (!args[i])
			ok = 0;
		else if ((f->arg[i] == SW_EXPR_ARG_NAME) != (args[i]->op == SW_EXPR_NAME))
			ok = 0;
		else if (f->arg[i] == SW_EXPR_ARG_REAL && args[i]->type != SW_EXPR_REAL)
			ok = 0;
		else if (args[i]->height > h)
			h = args[i]->height;
	}
	sw_expr_ast *n = ok && h < SW_EXPR_MAX_HEIGHT ? sw_expr_node_alloc(SW_EXPR_HOST) : NULL;
	if (n)
		n->name = dup_str(f->name);
	if (!n || !n->name) {
		free(n);
		for (int i = 0; args && i < arity; i++)
			sw_expr_ast_free(args[i]);
		return NULL;
	}
	n->slot = f->id;
	n->type = f->result == SW_EXPR_BOOL ? SW_EXPR_BOOL : SW_EXPR_REAL;
	n->nkid = arity;
	n->height = h + 1;
	for (int i = 0; i < arity; i++)
		n->kid[i] = args[i];
	return n;
}

sw_expr_ast *sw_expr_ast_clone(const sw_expr_ast *a)
{
	if (!a)
		return NULL;
	sw_expr_ast *c = malloc(sizeof *c);
	if (!c)
		return NULL;
	*c = *a;
	c->name = NULL;
	c->nkid = 0;
	if (a->name && !(c->name = dup_str(a->name))) {
		free(c);
		return NULL;
	}
	for (int i = 0; i < a->nkid; i++) {
		c->kid[i] = sw_expr_ast_clone(a->kid[i]);
		if (!c->kid[i]) {
			sw_expr_ast_free(c);
			return NULL;
		}
		c->nkid = i + 1;
	}
	return c;
}

int sw_expr_ast_equal(const sw_expr_ast *a, const sw_expr_ast *b)
{
	if (!a || !b)
		return a == b;
	if (a->op != b->op || a->type != b->type || a->nkid != b->nkid)
		return 0;
	if (a->value != b->value && !(isnan(a->value) && isnan(b->value)))
		return 0;
	if ((a->op == SW_EXPR_VAR || a->op == SW_EXPR_NAME || a->op == SW_EXPR_HOST) &&
	    (a->slot != b->slot || strcmp(a->name, b->name) != 0))
		return 0;
	for (int i = 0; i < a->nkid; i++)
		if (!sw_expr_ast_equal(a->kid[i], b->kid[i]))
			return 0;
	return 1;
}

int sw_expr_depends(const sw_expr_ast *a, int slot)
{
	if (a->op == SW_EXPR_HOST)
		return 1; /* perception may read any state */
	if (a->op == SW_EXPR_VAR)
		return a->slot == slot;
	for (int i = 0; i < a->nkid; i++)
		if (sw_expr_depends(a->kid[i], slot))
			return 1;
	return 0;
}
