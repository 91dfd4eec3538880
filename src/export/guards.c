/* export/guards.c - transition guards in polynomial form for the tool profiles.
 *
 * Flow* (through HyST) needs polynomial guards; a comparison of two distances such as
 * dist(b) <= dist(a) - 1.5 keeps two square roots after translation and HyST prints it into a
 * Flow* syntax error.  After the guards are final (lifted where a lifted variable matches), every
 * atom that is not polynomial is rewritten when it is a comparison of square roots with
 * coefficients +-1 and a constant:  e = s1 sqrt(P) [+ s2 sqrt(Q)] + k  op 0,  op <= or >=
 * (strict relations are closed already outside the exact profile).  With U, V the radicands in
 * the canonical form sqrt(U) - sqrt(V) <= K (op >= swaps the roles), for U, V >= 0:
 *   K >= 0:  sqrt(U) <= sqrt(V) + K  <=>  U <= V + K^2 + 2 K sqrt(V)  (both sides >= 0)
 *            <=>  D <= 0  or  D^2 <= 4 K^2 V,   D = U - V - K^2        (two transitions)
 *   K < 0:   sqrt(U) + m <= sqrt(V), m = -K  <=>  U + 2 m sqrt(U) + m^2 <= V
 *            <=>  E >= 0  and  4 m^2 U <= E^2,  E = V - U - m^2        (one conjunction)
 * and with one root: sqrt(U) <= K  <=>  U <= K^2 (K >= 0; K < 0: U <= K, never true for U >= 0);
 * sqrt(V) >= K  <=>  V >= K^2 (K > 0; K <= 0: always true, the atom is dropped).  These are
 * equivalences where the roots are defined; where a radicand is negative the simulator's guard is
 * false (NaN compares false) and the rewritten one may hold: more behaviours, still sound.  The
 * constants K^2 and 4 K^2 are rounded in the direction that enlarges the set (upward for K >= 0,
 * downward for m^2), and an inexact sum of constants moves K one ulp up; a bigger guard may
 * fire earlier, never later.  In the hyst profile an atom still not polynomial (other forms, ==)
 * is replaced by true (an over-approximation, as for atoms without a closed form); the spaceex
 * and juliareach profiles keep it (SpaceEx reads it).  Every rewrite and relaxation is reported. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"

/* Whether e is a polynomial: numbers, variables, + - *, unary minus, ^ with a natural number
 * exponent, / by a non-zero number. */
static int polynomial(const sw_expr_ast *e)
{
	switch (e->op) {
	case SW_EXPR_NUM:
	case SW_EXPR_VAR: return 1;
	case SW_EXPR_NEG: return polynomial(e->kid[0]);
	case SW_EXPR_ADD:
	case SW_EXPR_SUB:
	case SW_EXPR_MUL: return polynomial(e->kid[0]) && polynomial(e->kid[1]);
	case SW_EXPR_POW:
		return polynomial(e->kid[0]) && e->kid[1]->op == SW_EXPR_NUM &&
		       e->kid[1]->value >= 0.0 && e->kid[1]->value == floor(e->kid[1]->value);
	case SW_EXPR_DIV:
		return polynomial(e->kid[0]) && e->kid[1]->op == SW_EXPR_NUM &&
		       e->kid[1]->value != 0.0 && isfinite(e->kid[1]->value);
	default: return 0;
	}
}

static int polynomial_atom(const sw_expr_ast *a)
{
	return a->nkid == 2 && polynomial(a->kid[0]) && polynomial(a->kid[1]);
}

/* e as s1 sqrt(rad[0]) + s2 sqrt(rad[1]) + k. */
typedef struct {
	double k;
	int inexact; /* a sum of constants was rounded */
	int n;
	double sign[2];
	const sw_expr_ast *rad[2];
} root_sum;

/* Adds s e to r; 0 when e is not such a sum (a variable outside a root, a third root, a
 * coefficient other than +-1, a radicand that is not polynomial). */
static int collect(const sw_expr_ast *e, double s, root_sum *r)
{
	switch (e->op) {
	case SW_EXPR_NUM: {
		double t = s * e->value, sum = r->k + t, bb = sum - r->k;
		r->inexact |= (r->k - (sum - bb)) + (t - bb) != 0.0;
		r->k = sum;
		return isfinite(sum);
	}
	case SW_EXPR_NEG: return collect(e->kid[0], -s, r);
	case SW_EXPR_ADD: return collect(e->kid[0], s, r) && collect(e->kid[1], s, r);
	case SW_EXPR_SUB: return collect(e->kid[0], s, r) && collect(e->kid[1], -s, r);
	case SW_EXPR_MUL:
		if (e->kid[0]->op == SW_EXPR_NUM && fabs(e->kid[0]->value) == 1.0)
			return collect(e->kid[1], s * e->kid[0]->value, r);
		if (e->kid[1]->op == SW_EXPR_NUM && fabs(e->kid[1]->value) == 1.0)
			return collect(e->kid[0], s * e->kid[1]->value, r);
		return 0;
	case SW_EXPR_SQRT:
		if (r->n == 2 || !polynomial(e->kid[0]))
			return 0;
		r->sign[r->n] = s;
		r->rad[r->n++] = e->kid[0];
		return 1;
	default: return 0;
	}
}

/* x^2 rounded up (up != 0) or down. */
static double square(double x, int up)
{
	double p = x * x, err = fma(x, x, -p);
	if (up && err > 0.0)
		return nextafter(p, INFINITY);
	if (!up && err < 0.0)
		return nextafter(p, -INFINITY);
	return p;
}

static sw_expr_ast *cl(const sw_expr_ast *e)
{
	return sw_expr_ast_clone(e);
}

/* A polynomial form of atom a: up to two disjuncts of up to two atoms each (nd = 0: unchanged,
 * nd = 1 with na[0] = 0: true).  Returns 0 when a has no such form, -1 when out of memory. */
static int rewrite_atom(const sw_expr_ast *a, sw_expr_ast *out[2][2], int *nd, int na[2])
{
	*nd = na[0] = na[1] = 0;
	if (a->op != SW_EXPR_LE && a->op != SW_EXPR_GE)
		return 0;
	root_sum r = {0};
	/* a: l op r  ->  e = l - r op 0; op >= becomes -e <= 0 */
	double s = a->op == SW_EXPR_LE ? 1.0 : -1.0;
	if (!collect(a->kid[0], s, &r) || !collect(a->kid[1], -s, &r) || r.n == 0)
		return 0;
	/* now  sum sign_i sqrt(rad_i) + k <= 0 */
	double K = -r.k;
	if (r.inexact)
		K = nextafter(K, INFINITY); /* the set grows with K */
	*nd = 1;
	if (r.n == 1 && r.sign[0] > 0.0) { /* sqrt(U) <= K */
		out[0][0] = K >= 0.0 ? xn_op(SW_EXPR_LE, cl(r.rad[0]), xn_num(square(K, 1)))
				     : xn_op(SW_EXPR_LE, cl(r.rad[0]), xn_num(K));
		na[0] = 1;
	} else if (r.n == 1) { /* sqrt(V) >= -K */
		if (-K <= 0.0)
			return 1; /* always true */
		out[0][0] = xn_op(SW_EXPR_GE, cl(r.rad[0]), xn_num(square(K, 0)));
		na[0] = 1;
	} else if (r.sign[0] == r.sign[1]) {
		*nd = 0;
		return 0; /* a sum of roots: not handled */
	} else {
		const sw_expr_ast *U = r.sign[0] > 0.0 ? r.rad[0] : r.rad[1];
		const sw_expr_ast *V = r.sign[0] > 0.0 ? r.rad[1] : r.rad[0];
		if (K >= 0.0) { /* D <= 0 or D^2 <= 4 K^2 V */
			double c = square(K, 1);
			sw_expr_ast *D = xn_op(SW_EXPR_SUB, xn_op(SW_EXPR_SUB, cl(U), cl(V)), xn_num(c));
			out[0][0] = xn_op(SW_EXPR_LE, cl(D), xn_num(0.0));
			na[0] = 1;
			if (c > 0.0) {
				out[1][0] = xn_op(SW_EXPR_LE, xn_op(SW_EXPR_POW, D, xn_num(2.0)),
						  xn_op(SW_EXPR_MUL, xn_num(4.0 * c), cl(V)));
				na[1] = 1;
				*nd = 2;
			} else {
				sw_expr_ast_free(D);
			}
		} else { /* E >= 0 and 4 m^2 U <= E^2 */
			double c = square(K, 0);
			sw_expr_ast *E = xn_op(SW_EXPR_SUB, xn_op(SW_EXPR_SUB, cl(V), cl(U)), xn_num(c));
			out[0][0] = xn_op(SW_EXPR_GE, cl(E), xn_num(0.0));
			out[0][1] = xn_op(SW_EXPR_LE, xn_op(SW_EXPR_MUL, xn_num(4.0 * c), cl(U)),
					  xn_op(SW_EXPR_POW, E, xn_num(2.0)));
			na[0] = 2;
		}
	}
	for (int d = 0; d < *nd; d++)
		for (int i = 0; i < na[d]; i++)
			if (!out[d][i])
				return -1;
	return 1;
}

/* Conjuncts of g in written order into atoms (at most cap); 0 when there are more. */
static int conjuncts(const sw_expr_ast *g, const sw_expr_ast **atoms, int cap, int *n)
{
	const sw_expr_ast *stack[64];
	int sp = 0;
	*n = 0;
	stack[sp++] = g;
	while (sp) {
		const sw_expr_ast *a = stack[--sp];
		if (a->op == SW_EXPR_AND && sp < 62) {
			stack[sp++] = a->kid[1];
			stack[sp++] = a->kid[0];
		} else if (a->op == SW_EXPR_AND || *n == cap) {
			return 0;
		} else {
			atoms[(*n)++] = a;
		}
	}
	return 1;
}

/* Appends a copy of transition t of c with guard g (consumed). */
static int copy_transition(sw_hcomponent *c, int t, sw_expr_ast *g)
{
	sw_htransition *p = realloc(c->transitions, ((size_t)c->n_transitions + 1) * sizeof *p);
	if (!p) {
		sw_expr_ast_free(g);
		return SW_ENOMEM;
	}
	c->transitions = p;
	sw_htransition *src = &c->transitions[t], *dst = &c->transitions[c->n_transitions];
	*dst = *src;
	dst->guard = g;
	dst->reset = calloc((size_t)c->n_state + 1, sizeof *dst->reset);
	int ok = dst->reset != NULL;
	for (int k = 0; ok && k < c->n_state; k++)
		ok = (dst->reset[k] = sw_expr_ast_clone(src->reset[k])) != NULL;
	c->n_transitions++; /* owned by c from here on, freed with it */
	return ok ? SW_SUCCESS : SW_ENOMEM;
}

#define GUARD_ATOMS 64

int xb_polynomial_guards(struct xb *b, sw_hcomponent *c, const char *unit)
{
	sw_export_profile prof = xb_profile(b);
	if (prof == SW_PROFILE_EXACT)
		return b->status;
	int n0 = c->n_transitions;
	for (int t = 0; t < n0 && b->status == SW_SUCCESS; t++) {
		const sw_expr_ast *atoms[GUARD_ATOMS];
		int n;
		if (!c->transitions[t].guard ||
		    !conjuncts(c->transitions[t].guard, atoms, GUARD_ATOMS, &n))
			continue;
		int all = 1;
		for (int i = 0; i < n; i++)
			all &= polynomial_atom(atoms[i]);
		if (all)
			continue;
		char where[320];
		snprintf(where, sizeof where, "%.60s (%.60s): transition %.60s -> %.60s", c->id, unit,
			 c->locations[c->transitions[t].source].name,
			 c->locations[c->transitions[t].target].name);
		/* the guard as a DNF: each atom's disjuncts multiplied in (at most 2^k, capped) */
		sw_expr_ast *dis[16] = {NULL};
		int nd = 1, ok = 1;
		for (int i = 0; i < n && ok; i++) {
			char *text = NULL;
			if (polynomial_atom(atoms[i])) {
				for (int d = 0; d < nd; d++)
					ok &= (dis[d] = xn_and(dis[d], cl(atoms[i]))) != NULL;
				continue;
			}
			sw_expr_ast *out[2][2] = {{NULL}};
			int rd, na[2];
			int st = rewrite_atom(atoms[i], out, &rd, na);
			text = xw_expr(b->h, atoms[i]);
			if (st < 0 || (st == 1 && rd * nd > 16)) {
				for (int d = 0; d < rd; d++)
					for (int k = 0; k < na[d]; k++)
						sw_expr_ast_free(out[d][k]);
				ok = st >= 0;
				st = 0;
			}
			if (st == 1) {
				/* product: every current disjunct with every disjunct of the atom */
				sw_expr_ast *prod[16] = {NULL};
				int np = 0;
				for (int d = 0; d < nd; d++)
					for (int e = 0; e < rd; e++) {
						sw_expr_ast *q = dis[d] ? cl(dis[d]) : NULL;
						for (int k = 0; k < na[e]; k++)
							q = xn_and(q, cl(out[e][k]));
						prod[np++] = q;
					}
				char *form[2] = {NULL, NULL};
				for (int e = 0; e < rd; e++) {
					sw_expr_ast *q = NULL;
					for (int k = 0; k < na[e]; k++)
						q = xn_and(q, out[e][k]);
					form[e] = q ? xw_expr(b->h, q) : NULL;
					sw_expr_ast_free(q);
				}
				for (int d = 0; d < nd; d++)
					sw_expr_ast_free(dis[d]);
				memcpy(dis, prod, sizeof prod);
				nd = np;
				xb_note(b, where, 1,
					"guard atom %s is not polynomial (Flow* needs polynomial guards): "
					"rewritten %s as %s%s%s%s (squared distances; the constants rounded "
					"so that the guard can only grow)",
					text ? text : "?", rd == 2 ? "into two transitions," : "into one conjunction,",
					na[0] ? (form[0] ? form[0] : "?") : "true",
					rd == 2 ? " or " : "", rd == 2 && form[1] ? form[1] : "",
					rd == 2 ? " (one transition each)" : "");
				free(form[0]);
				free(form[1]);
			} else if (ok && prof == SW_PROFILE_HYST) {
				xb_note(b, where, 1,
					"guard atom %s is not polynomial and has no polynomial form here "
					"(Flow* needs polynomial guards): replaced by true, so the "
					"transition may fire earlier than in the simulator",
					text ? text : "?");
			} else if (ok) {
				for (int d = 0; d < nd; d++)
					ok &= (dis[d] = xn_and(dis[d], cl(atoms[i]))) != NULL;
			}
			free(text);
		}
		if (ok) {
			sw_expr_ast_free(c->transitions[t].guard);
			c->transitions[t].guard = dis[0]; /* NULL: true */
			dis[0] = NULL;
			for (int d = 1; d < nd && ok; d++) {
				ok = copy_transition(c, t, dis[d]) == SW_SUCCESS;
				dis[d] = NULL;
			}
		}
		for (int d = 0; d < nd; d++)
			sw_expr_ast_free(dis[d]);
		if (!ok)
			b->status = SW_ENOMEM;
	}
	return b->status;
}
