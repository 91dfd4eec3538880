/* expr/compile.c - tree -> stack bytecode (value program and margin program).
 *
 * The value program computes the expression (booleans as 1/0); `and`, `or` and `if` jump, so
 * only the branch that decides is evaluated.  A boolean expression also gets a margin program
 * that computes its signed margin (expr.h, sw_expr_margin): comparisons become differences,
 * `and`/`or` become min/max of the operands' margins, `not` negates, `if` selects; real-valued
 * operands inside it use value code.  While emitting, the compiler tracks the stack pointer of
 * every path, so the evaluator can use a fixed array of SW_EXPR_MAX_STACK entries. */
#include <stdlib.h>
#include <string.h>

#include "expr/expr_internal.h"

typedef struct compiler {
	insn *code;
	int n, cap;
	host_call *hosts;
	int nhosts, hcap;
	int sp, max;
	int nomem;
} compiler;

/* Appends an instruction and returns its index (-1 once memory has run out). */
static int emit(compiler *c, int op, int a, double k)
{
	if (c->nomem)
		return -1;
	if (c->n == c->cap) {
		int cap = c->cap ? 2 * c->cap : 32;
		insn *code = realloc(c->code, (size_t)cap * sizeof *code);
		if (!code) {
			c->nomem = 1;
			return -1;
		}
		c->code = code;
		c->cap = cap;
	}
	insn in = {op, a, k};
	c->code[c->n] = in;
	return c->n++;
}

static void patch(compiler *c, int at)
{
	if (at >= 0)
		c->code[at].a = c->n;
}

static void push(compiler *c)
{
	if (++c->sp > c->max)
		c->max = c->sp;
}

/* VM instruction for operators and built-ins that map one to one (0 = none). */
static const int direct[SW_EXPR_OP_COUNT] = {
    [SW_EXPR_NEG] = VM_NEG,     [SW_EXPR_NOT] = VM_NOT,     [SW_EXPR_ADD] = VM_ADD,
    [SW_EXPR_SUB] = VM_SUB,     [SW_EXPR_MUL] = VM_MUL,     [SW_EXPR_DIV] = VM_DIV,
    [SW_EXPR_POW] = VM_POW,     [SW_EXPR_LT] = VM_LT,       [SW_EXPR_LE] = VM_LE,
    [SW_EXPR_GT] = VM_GT,       [SW_EXPR_GE] = VM_GE,       [SW_EXPR_EQ] = VM_EQ,
    [SW_EXPR_NE] = VM_NE,       [SW_EXPR_SIN] = VM_SIN,     [SW_EXPR_COS] = VM_COS,
    [SW_EXPR_TAN] = VM_TAN,     [SW_EXPR_ASIN] = VM_ASIN,   [SW_EXPR_ACOS] = VM_ACOS,
    [SW_EXPR_ATAN] = VM_ATAN,   [SW_EXPR_ATAN2] = VM_ATAN2, [SW_EXPR_EXP] = VM_EXP,
    [SW_EXPR_LOG] = VM_LOG,     [SW_EXPR_SQRT] = VM_SQRT,   [SW_EXPR_TANH] = VM_TANH,
    [SW_EXPR_SINH] = VM_SINH,   [SW_EXPR_COSH] = VM_COSH,   [SW_EXPR_ABS] = VM_ABS,
    [SW_EXPR_SIGN] = VM_SIGN,   [SW_EXPR_MIN] = VM_MIN,     [SW_EXPR_MAX] = VM_MAX,
    [SW_EXPR_FLOOR] = VM_FLOOR, [SW_EXPR_CEIL] = VM_CEIL,
};

static void emit_value(compiler *c, const sw_expr_ast *a);
static void emit_margin(compiler *c, const sw_expr_ast *a);

/* Host call: real arguments are pushed in order, name ids go to the call table. */
static void emit_host(compiler *c, const sw_expr_ast *a, int op)
{
	host_call h = {a->slot, 0, {0}};
	int nnames = 0;
	for (int i = 0; i < a->nkid; i++) {
		if (a->kid[i]->op == SW_EXPR_NAME) {
			h.names[nnames++] = a->kid[i]->slot;
		} else {
			emit_value(c, a->kid[i]);
			h.nreal++;
		}
	}
	if (c->nhosts == c->hcap) {
		int cap = c->hcap ? 2 * c->hcap : 4;
		host_call *hosts = realloc(c->hosts, (size_t)cap * sizeof *hosts);
		if (!hosts) {
			c->nomem = 1;
			return;
		}
		c->hosts = hosts;
		c->hcap = cap;
	}
	c->hosts[c->nhosts] = h;
	emit(c, op, c->nhosts++, 0.0);
	c->sp -= h.nreal;
	push(c);
}

/* if(cond, a, b): both branches start from the same stack height. */
static void emit_if(compiler *c, const sw_expr_ast *a,
		    void (*branch)(compiler *, const sw_expr_ast *))
{
	emit_value(c, a->kid[0]);
	int jf = emit(c, VM_JF_POP, 0, 0.0);
	c->sp--;
	branch(c, a->kid[1]);
	int jend = emit(c, VM_JMP, 0, 0.0);
	c->sp--;
	patch(c, jf);
	branch(c, a->kid[2]);
	patch(c, jend);
}

static void emit_value(compiler *c, const sw_expr_ast *a)
{
	switch (a->op) {
	case SW_EXPR_NUM:
	case SW_EXPR_BOOLEAN:
		emit(c, VM_CONST, 0, a->value);
		push(c);
		return;
	case SW_EXPR_VAR:
		emit(c, a->type == SW_EXPR_BOOL ? VM_LOADB : VM_LOAD, a->slot, 0.0);
		push(c);
		return;
	case SW_EXPR_AND:
	case SW_EXPR_OR: {
		emit_value(c, a->kid[0]);
		int j = emit(c, a->op == SW_EXPR_AND ? VM_JF_KEEP : VM_JT_KEEP, 0, 0.0);
		c->sp--;
		emit_value(c, a->kid[1]);
		patch(c, j);
		return;
	}
	case SW_EXPR_IF: emit_if(c, a, emit_value); return;
	case SW_EXPR_HOST: emit_host(c, a, a->type == SW_EXPR_BOOL ? VM_HOSTB : VM_HOST); return;
	default:
		for (int i = 0; i < a->nkid; i++)
			emit_value(c, a->kid[i]);
		emit(c, direct[a->op], 0, 0.0);
		c->sp -= a->nkid - 1;
		return;
	}
}

static void emit_margin(compiler *c, const sw_expr_ast *a)
{
	int op = 0;
	switch (a->op) {
	case SW_EXPR_BOOLEAN:
		emit(c, VM_CONST, 0, a->value != 0.0 ? 1.0 : -1.0);
		push(c);
		return;
	case SW_EXPR_VAR:
		emit_value(c, a);
		emit(c, VM_MBOOL, 0, 0.0);
		return;
	case SW_EXPR_NOT:
		emit_margin(c, a->kid[0]);
		emit(c, VM_NEG, 0, 0.0);
		return;
	case SW_EXPR_AND:
	case SW_EXPR_OR:
		emit_margin(c, a->kid[0]);
		emit_margin(c, a->kid[1]);
		emit(c, a->op == SW_EXPR_AND ? VM_MIN : VM_MAX, 0, 0.0);
		c->sp--;
		return;
	case SW_EXPR_IF: emit_if(c, a, emit_margin); return;
	case SW_EXPR_HOST: emit_host(c, a, VM_HOSTM); return;
	case SW_EXPR_LT:
	case SW_EXPR_LE: op = VM_MLT; break;
	case SW_EXPR_GT:
	case SW_EXPR_GE: op = VM_MGT; break;
	case SW_EXPR_EQ: op = VM_MEQ; break;
	case SW_EXPR_NE: op = VM_MNE; break;
	default: /* every boolean kind is listed above */
		emit_value(c, a);
		emit(c, VM_MBOOL, 0, 0.0);
		return;
	}
	emit_value(c, a->kid[0]);
	emit_value(c, a->kid[1]);
	emit(c, op, 0, 0.0);
	c->sp--;
}

void sw_expr_free(sw_expr *e)
{
	if (!e)
		return;
	free(e->code);
	free(e->mcode);
	free(e->hosts);
	sw_expr_ast_free(e->ast);
	free(e);
}

/* Compiles a tree that the new sw_expr takes over (freed on failure); file names diagnostics. */
static int compile_owned(sw_expr_ast *a, const char *file, sw_diag *diag, sw_expr **out)
{
	sw_expr *e = calloc(1, sizeof *e);
	if (!e) {
		sw_expr_ast_free(a);
		return SW_ENOMEM;
	}
	e->ast = a;
	e->type = a->type;
	compiler c = {0};
	emit_value(&c, a);
	e->code = c.code;
	e->ncode = c.n;
	int depth = c.max;
	if (a->type == SW_EXPR_BOOL && !c.nomem) {
		/* The margin program shares the host-call table. */
		c.code = NULL;
		c.n = c.cap = c.sp = c.max = 0;
		emit_margin(&c, a);
		e->mcode = c.code;
		e->nmcode = c.n;
		if (c.max > depth)
			depth = c.max;
	}
	e->hosts = c.hosts;
	e->nhosts = c.nhosts;
	e->depth = depth;
	if (c.nomem) {
		sw_expr_free(e);
		return SW_ENOMEM;
	}
	if (depth > SW_EXPR_MAX_STACK) {
		int line = a->line, column = a->column;
		sw_expr_free(e);
		return sw_diag_add(diag, SW_SEV_ERROR, file, line, column,
				   "expression needs more than %d evaluation-stack entries; split "
				   "it into simpler expressions",
				   SW_EXPR_MAX_STACK);
	}
	*out = e;
	return SW_SUCCESS;
}

int sw_expr_compile_ast(const sw_expr_ast *a, sw_diag *diag, sw_expr **out)
{
	if (!out)
		return SW_EUSAGE;
	*out = NULL;
	if (!a || a->op == SW_EXPR_NAME)
		return SW_EUSAGE;
	sw_expr_ast *copy = sw_expr_ast_clone(a);
	if (!copy)
		return SW_ENOMEM;
	return compile_owned(copy, NULL, diag, out);
}

int sw_expr_compile(const char *text, const sw_expr_symbols *sym, const sw_expr_def *def,
		    sw_diag *diag, sw_expr **out)
{
	if (!out)
		return SW_EUSAGE;
	*out = NULL;
	sw_expr_ast *a = NULL;
	int st = sw_expr_ast_parse(text, sym, def, diag, &a);
	if (st != SW_SUCCESS)
		return st;
	return compile_owned(a, def ? def->file : NULL, diag, out);
}

sw_expr_type sw_expr_result_type(const sw_expr *e)
{
	return e->type;
}

const sw_expr_ast *sw_expr_tree(const sw_expr *e)
{
	return e->ast;
}

int sw_expr_stack_depth(const sw_expr *e)
{
	return e->depth;
}

int sw_expr_print(const sw_expr *e, sw_expr_syntax syntax, char *buf, size_t n)
{
	return sw_expr_ast_print(e->ast, syntax, buf, n);
}
