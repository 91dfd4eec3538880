/* steer/emit_internal.h - the tree helpers and the scene of the symbolic emitters, shared by
 * emit.c (GLM, FW, potential field, wall following) and emit_crowd.c (<ttc>, <sf>, <csm>); not
 * part of the API.  Every constructor takes ownership of its operands and returns NULL on
 * failure (a NULL operand gives NULL), so a failure anywhere reaches the root once. */
#ifndef SWERVE_STEER_EMIT_INTERNAL_H
#define SWERVE_STEER_EMIT_INTERNAL_H

#include <math.h>

#include "steer_internal.h"

/* Most outputs of one per-obstacle builder. */
#define SW_EMIT_K 5

typedef sw_expr_ast ast;

/* --- tree helpers: each takes ownership of its operands and propagates NULL ----------------- */

/* A number; a negative one as the negation of its magnitude, the tree the parser builds from
 * its printed text (so emitted trees print and parse back to equal trees). */
static inline ast *num(double v)
{
	if (signbit(v) && !isnan(v))
		return sw_expr_ast_node(SW_EXPR_NEG, sw_expr_ast_number(-v), NULL, NULL);
	return sw_expr_ast_number(v);
}

static inline ast *cp(const ast *a)
{
	return a ? sw_expr_ast_clone(a) : NULL;
}

static inline ast *op1(sw_expr_op op, ast *a)
{
	return sw_expr_ast_node(op, a, NULL, NULL);
}

static inline ast *op2(sw_expr_op op, ast *a, ast *b)
{
	return sw_expr_ast_node(op, a, b, NULL);
}

static inline ast *ifx(ast *c, ast *a, ast *b)
{
	return sw_expr_ast_node(SW_EXPR_IF, c, a, b);
}

#define ADD(a, b) op2(SW_EXPR_ADD, a, b)
#define SUB(a, b) op2(SW_EXPR_SUB, a, b)
#define MUL(a, b) op2(SW_EXPR_MUL, a, b)
#define DIV(a, b) op2(SW_EXPR_DIV, a, b)
#define MIN(a, b) op2(SW_EXPR_MIN, a, b)
#define MAX(a, b) op2(SW_EXPR_MAX, a, b)
#define LT(a, b) op2(SW_EXPR_LT, a, b)
#define LE(a, b) op2(SW_EXPR_LE, a, b)
#define GT(a, b) op2(SW_EXPR_GT, a, b)
#define EQ(a, b) op2(SW_EXPR_EQ, a, b)
#define AND(a, b) op2(SW_EXPR_AND, a, b)
#define OR(a, b) op2(SW_EXPR_OR, a, b)
#define ATAN2(a, b) op2(SW_EXPR_ATAN2, a, b)
#define NEG(a) op1(SW_EXPR_NEG, a)
#define SIN(a) op1(SW_EXPR_SIN, a)
#define COS(a) op1(SW_EXPR_COS, a)
#define EXP(a) op1(SW_EXPR_EXP, a)
#define SQRT(a) op1(SW_EXPR_SQRT, a)
#define ABS(a) op1(SW_EXPR_ABS, a)

static inline void free_all(ast **a, int n)
{
	for (int i = 0; i < n; i++) {
		sw_expr_ast_free(a[i]);
		a[i] = NULL;
	}
}

/* Folds terms[0..n-1] (taken) with a binary op: left to right up to SW_EMIT_LINEAR terms (the
 * native loop's order), balanced halves beyond.  n == 0 gives NULL (callers handle it). */
ast *sw__emit_fold(sw_expr_op op, ast **terms, int n);

/* --- the scene ------------------------------------------------------------------------------ */

/* The emission: context plus the state variables. */
typedef struct em {
	const sw_emit_ctx *c;
} em;

static inline ast *var(const em *e, int k)
{
	return sw_expr_ast_variable(e->c->name[k], e->c->slot[k], SW_EXPR_REAL);
}

/* p0 + v t (p0 alone when v == 0). */
static inline ast *moving(const em *e, double p0, double v)
{
	if (v == 0.0)
		return num(p0);
	return ADD(num(p0),
		   MUL(num(v), sw_expr_ast_variable(e->c->t_name, e->c->t_slot, SW_EXPR_REAL)));
}

/* One percept as trees (all owned): vector to the reference point, its length, rho (NULL: the
 * constant rho_c) and the clearance. */
typedef struct pex {
	ast *dx, *dy, *dist, *rho, *clr;
	double rho_c;
} pex;

/* An obstacle or agent as the perception presents it: p[0] is the percept (the near one for a
 * segment seen both ways), p[1] the far percept when `near` (the condition choosing p[0]) is set;
 * `clr` of p[0] is the clearance that the perception radius cuts. */
typedef struct item {
	int is_agent;
	int agent; /* index into ctx->agents when is_agent */
	ast *near;
	pex p[2];
} item;

static inline ast *len(const ast *dx, const ast *dy)
{
	return SQRT(ADD(MUL(cp(dx), cp(dx)), MUL(cp(dy), cp(dy))));
}

/* Frees the n items (and the array). */
void sw__emit_items_free(item *it, int n);

/* Builds the items of the scene in the perception's order (obstacles, then agents).  wall_near
 * as sw__wall_near(): the GLM parameter, INFINITY for the other laws.  Returns NULL when memory
 * runs out. */
item *sw__emit_items_build(const em *e, double wall_near, int *n);

/* A builder turns one percept into k trees (out[0..k-1], new). */
typedef void (*builder)(const em *e, const void *law, const pex *p, ast **out);

/* The k terms of item m: the builder's over the percept, if() over near/far, then the
 * perception cut-off clearance <= limit (none when limit is +inf) with fallback values.
 * Returns 1 when every tree was built. */
int sw__emit_item_terms(const em *e, const item *m, builder b, const void *law, int k, double limit,
			const double *fallback, ast **out);

/* Folds the per-item terms of every item (n items, k outputs) into sums[0..k-1], output j with
 * the operator ops[j]; an empty fold (no items) is NULL.  Returns 1 on success. */
int sw__emit_sum_items(const em *e, const item *it, int n, builder b, const void *law, int k,
		       double limit, const double *fallback, const sw_expr_op *ops, ast **sums);

/* cos(phi) dx + sin(phi) dy and sin(phi) dx - cos(phi) dy: the dot and cross products of the
 * heading with (dx, dy). */
static inline ast *dot_h(const em *e, const ast *dx, const ast *dy)
{
	return ADD(MUL(COS(var(e, SW_STATE_PHI)), cp(dx)), MUL(SIN(var(e, SW_STATE_PHI)), cp(dy)));
}

static inline ast *cross_h(const em *e, const ast *dx, const ast *dy)
{
	return SUB(MUL(SIN(var(e, SW_STATE_PHI)), cp(dx)), MUL(COS(var(e, SW_STATE_PHI)), cp(dy)));
}

/* Target vector (T(t) - p) into *dx, *dy. */
static inline void target_vec(const em *e, ast **dx, ast **dy)
{
	const sw_emit_ctx *c = e->c;
	*dx = SUB(moving(e, c->tx, c->tvx), var(e, SW_STATE_X));
	*dy = SUB(moving(e, c->ty, c->tvy), var(e, SW_STATE_Y));
}

/* The crowd laws (emit_crowd.c): out[] as sw_steer_emit() fills it; SW_SUCCESS, SW_ENOMEM, or
 * SW_EUSAGE when the scene is beyond what the law's emitter folds (see emit_crowd.c). */
int sw__emit_ttc(const em *e, const sw_ttc_params *p, ast *out[SW_STATE_DIM]);
int sw__emit_sf(const em *e, const sw_sf_params *p, ast *out[SW_STATE_DIM]);
int sw__emit_csm(const em *e, const sw_csm_params *p, ast *out[SW_STATE_DIM]);

#endif
