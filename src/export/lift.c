/* export/lift.c - deciding the law's branches over a region, and exact GLM flows for Flow*.
 *
 * The hyst and juliareach profiles lack atan2, asin, min, max, if, sign and |x| with a useful
 * Taylor model.  bearing.c lifts atan2 and asin into state variables; this file removes the
 * rest where the location's region decides it, so that the flows stay the law's own:
 *
 *   - xf_decide() replaces every if(c, a, b), min(a, b), max(a, b), sign(a) and |a| whose
 *     condition (c; a <= b; a >= b; the sign of a) interval arithmetic decides over a box of the
 *     state, with "facts": subtrees known to lie in an interval there (the distance to an
 *     obstacle within the location's region, below).  A condition undecided over the whole
 *     box is bisected along the widest variable it reads (at most XF_BISECT evaluations):
 *     decided when every piece decides it the same way.  Branches are removed only when
 *     decided, so the result equals the original at every point of the box.
 *
 *   - GLM (docs/models.md, eqs. (1)-(12); the emitter's tree, steer/emit.c): per obstacle disc
 *     i with N_i = rho_i + r_a + margin, the window half-width is dpsi_i = asin(q_i),
 *     q_i = clamp(N_i / d_i, q_min, 1), with a contact branch (q_i = 1: a step window) and the
 *     cap c = min(2 dpsi + delta, pi); the speed (12) takes if(in front, (r_i - d1) / t2c,
 *     v_max).  All of these are decided on the region d_i >= R_i with
 *         R_i = max(N_i / cos(delta / 2),  N_i - margin + d1 + v_max t2c)
 *     (first: q_i <= cos(delta / 2) < 1, so no contact and c = 2 dpsi + delta < pi, and the
 *     window's argument |x| <= 4 / sin^2(delta / 2) stays inside the emitter's clamp; second:
 *     (r_i - d1) / t2c >= v_max, so no obstacle slows the agent; for contact speed the
 *     corresponding radius sqrt(N^2 + (v_max t2c + N)^2)).  Where the reachable box
 *     (start +- v_max T) comes closer than R_i, the location gets the invariant d_i >= R_i
 *     (written asin(N_i / d_i) <= asin(N_i / R_i) over the lifted half-width) and the unsafe
 *     set of the obstacle becomes the disc of radius R_i (network.c): a flowpipe never meets
 *     the invariant's boundary without touching the unsafe set, so "safe" stays sound, and
 *     every flow is exact where it is computed.
 *     Further exact identities: dot / d = cos(e_i), cross / d = sin(e_i) with e_i the lifted
 *     bearing (e = atan2(cross, dot) and d = |(cross, dot)|); |w| = w for the weights, because
 *     w = 0 is invariant under (8) (w' has the factor w) and the unit square is forward
 *     invariant when a1_scale, g21 >= 0, so a start in [0, 1]^2 stays there.
 *     One over-approximation remains: in g12 = exp(-c2 (P_tar P_obs + 1)) the product P_tar
 *     P_obs = sgn(df_tar) e^(-c1 |f_tar|) sgn(df_obs) e^(-c1 |f_obs|) sum W has no smooth
 *     form (two signs); it becomes an input u_competition bounded by its interval over the
 *     region ([-sum W, sum W] at most).  It enters only the weights' competition (8). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core_internal.h"
#include "export_internal.h"

/* Most interval evaluations spent bisecting one condition. */
#define XF_BISECT 2048
/* Deepest bisection of one condition. */
#define XF_DEPTH 16
/* Relative slack of a region's radius, so that decisions at its boundary are not lost to the
 * outward rounding of interval arithmetic. */
#define XF_SLACK 1e-9

/* ---- deciding over a box with facts ----------------------------------------------------- */

/* Slots of the variables a reads, into used[] (n slots). */
static void reads_slots(const sw_expr_ast *a, int n, char *used)
{
	if (a->op == SW_EXPR_VAR && a->slot >= 0 && a->slot < n)
		used[a->slot] = 1;
	for (int i = 0; i < a->nkid; i++)
		reads_slots(a->kid[i], n, used);
}

/* a with every subtree equal to a fact replaced by the fact's slot (a new tree). */
static sw_expr_ast *with_facts(const sw_expr_ast *a, const xf_box *bx)
{
	for (int j = 0; j < bx->n_facts; j++)
		if (sw_expr_ast_equal(a, bx->fact[j].expr))
			return sw_expr_ast_variable("fact", bx->n + j, SW_EXPR_REAL);
	sw_expr_ast *t = sw_expr_ast_clone(a);
	for (int i = 0; t && i < t->nkid; i++) {
		sw_expr_ast_free(t->kid[i]);
		if (!(t->kid[i] = with_facts(a->kid[i], bx))) {
			sw_expr_ast_free(t);
			return NULL;
		}
	}
	return t;
}

/* Decides boolean c over [lo, hi] (n slots), bisecting; 1, 0, or -1 undecided. */
static int decide_box(const sw_expr_ast *c, double *lo, double *hi, int n, const char *used,
		      int depth, int *budget)
{
	double l, h;
	if (--*budget < 0)
		return -1;
	int st = sw_expr_interval(c, lo, hi, &l, &h);
	if (st == SW_SUCCESS && l == h && (l == 0 || l == 1))
		return (int)l;
	if (st != SW_SUCCESS && st != SW_ENUMERIC)
		return -1;
	if (depth >= XF_DEPTH)
		return -1;
	int k = -1;
	double w = 0;
	for (int j = 0; j < n; j++)
		if (used[j] && isfinite(lo[j]) && isfinite(hi[j]) && hi[j] - lo[j] > w) {
			w = hi[j] - lo[j];
			k = j;
		}
	if (k < 0)
		return -1;
	double a = lo[k], b = hi[k], mid = 0.5 * (a + b);
	hi[k] = mid;
	int r1 = decide_box(c, lo, hi, n, used, depth + 1, budget);
	hi[k] = b;
	if (r1 < 0)
		return -1;
	lo[k] = mid;
	int r2 = decide_box(c, lo, hi, n, used, depth + 1, budget);
	lo[k] = a;
	return r1 == r2 ? r1 : -1;
}

int xf_decide_cond(const sw_expr_ast *cond, const xf_box *bx)
{
	int n = bx->n + bx->n_facts;
	sw_expr_ast *c = with_facts(cond, bx);
	double *lo = malloc(((size_t)n + 1) * sizeof *lo), *hi = malloc(((size_t)n + 1) * sizeof *hi);
	char *used = calloc((size_t)n + 1, 1);
	int r = -1;
	if (c && lo && hi && used) {
		memcpy(lo, bx->lo, (size_t)bx->n * sizeof *lo);
		memcpy(hi, bx->hi, (size_t)bx->n * sizeof *hi);
		for (int j = 0; j < bx->n_facts; j++)
			lo[bx->n + j] = bx->fact[j].lo, hi[bx->n + j] = bx->fact[j].hi;
		reads_slots(c, n, used);
		int budget = XF_BISECT;
		r = decide_box(c, lo, hi, n, used, 0, &budget);
	}
	sw_expr_ast_free(c);
	free(lo);
	free(hi);
	free(used);
	return r;
}

int xf_interval(const sw_expr_ast *a, const xf_box *bx, double *l, double *h)
{
	int n = bx->n + bx->n_facts;
	sw_expr_ast *c = with_facts(a, bx);
	double *lo = malloc(((size_t)n + 1) * sizeof *lo), *hi = malloc(((size_t)n + 1) * sizeof *hi);
	int st = c && lo && hi ? SW_SUCCESS : SW_ENOMEM;
	if (st == SW_SUCCESS) {
		memcpy(lo, bx->lo, (size_t)bx->n * sizeof *lo);
		memcpy(hi, bx->hi, (size_t)bx->n * sizeof *hi);
		for (int j = 0; j < bx->n_facts; j++)
			lo[bx->n + j] = bx->fact[j].lo, hi[bx->n + j] = bx->fact[j].hi;
		st = sw_expr_interval(c, lo, hi, l, h);
	}
	sw_expr_ast_free(c);
	free(lo);
	free(hi);
	return st;
}

/* A relation over clones of a and b. */
static sw_expr_ast *rel(sw_expr_op op, const sw_expr_ast *a, const sw_expr_ast *b)
{
	return xn_op(op, sw_expr_ast_clone(a), sw_expr_ast_clone(b));
}

/* Replaces *pa by its kid k (the others freed). */
static void keep_kid(sw_expr_ast **pa, int k)
{
	sw_expr_ast *a = *pa;
	*pa = a->kid[k];
	a->kid[k] = NULL;
	sw_expr_ast_free(a);
}

int xf_decide(sw_expr_ast **pa, const xf_box *bx, int *decided)
{
	sw_expr_ast *a = *pa;
	for (int i = 0; i < a->nkid; i++)
		if (xf_decide(&a->kid[i], bx, decided) != SW_SUCCESS)
			return SW_ENOMEM;
	sw_expr_ast *c = NULL, *c2 = NULL;
	int r = -1, r2 = -1;
	switch (a->op) {
	case SW_EXPR_IF:
		if ((r = xf_decide_cond(a->kid[0], bx)) >= 0) {
			keep_kid(pa, r == 1 ? 1 : 2);
			++*decided;
		}
		return SW_SUCCESS;
	case SW_EXPR_MIN:
	case SW_EXPR_MAX:
		/* min: a when a <= b holds, b when b <= a holds (either at equality) */
		for (int side = 0; side < 2; side++) {
			sw_expr_op op = a->op == SW_EXPR_MIN ? SW_EXPR_LE : SW_EXPR_GE;
			c = rel(op, a->kid[side], a->kid[1 - side]);
			if (!c)
				return SW_ENOMEM;
			r = xf_decide_cond(c, bx);
			sw_expr_ast_free(c);
			if (r == 1) {
				keep_kid(pa, side);
				++*decided;
				return SW_SUCCESS;
			}
		}
		return SW_SUCCESS;
	case SW_EXPR_SIGN:
	case SW_EXPR_ABS: {
		sw_expr_ast *zero = xn_num(0);
		c = zero ? rel(SW_EXPR_GT, a->kid[0], zero) : NULL;
		c2 = zero ? rel(SW_EXPR_LT, a->kid[0], zero) : NULL;
		sw_expr_ast_free(zero);
		if (!c || !c2) {
			sw_expr_ast_free(c);
			sw_expr_ast_free(c2);
			return SW_ENOMEM;
		}
		r = xf_decide_cond(c, bx);   /* a > 0 */
		r2 = xf_decide_cond(c2, bx); /* a < 0 */
		sw_expr_ast_free(c);
		sw_expr_ast_free(c2);
		int sg = r == 1 ? 1 : r2 == 1 ? -1 : r == 0 && r2 == 0 ? 0 : 2;
		if (sg == 2) {
			/* |a| = a also when a >= 0 (a > 0 undecided but a < 0 false) */
			if (a->op == SW_EXPR_ABS && r2 == 0) {
				keep_kid(pa, 0);
				++*decided;
			}
			return SW_SUCCESS;
		}
		if (a->op == SW_EXPR_SIGN) {
			sw_expr_ast_free(a);
			*pa = xn_num(sg);
		} else if (sg >= 0) {
			keep_kid(pa, 0);
		} else {
			*pa = xn_call(SW_EXPR_NEG, a->kid[0]);
			a->kid[0] = NULL;
			sw_expr_ast_free(a);
		}
		++*decided;
		return *pa ? SW_SUCCESS : SW_ENOMEM;
	}
	default: return SW_SUCCESS;
	}
}

/* ---- GLM --------------------------------------------------------------------------------- */

/* Whether a is the emitter's dot product cos(phi) dx + sin(phi) dy (then *dx, *dy into a). */
static int dot_parts(const sw_expr_ast *a, const sw_expr_ast **dx, const sw_expr_ast **dy)
{
	if (a->op != SW_EXPR_ADD || a->kid[0]->op != SW_EXPR_MUL || a->kid[1]->op != SW_EXPR_MUL)
		return 0;
	const sw_expr_ast *m1 = a->kid[0], *m2 = a->kid[1];
	if (m1->kid[0]->op != SW_EXPR_COS || m2->kid[0]->op != SW_EXPR_SIN ||
	    !sw_expr_ast_equal(m1->kid[0]->kid[0], m2->kid[0]->kid[0]))
		return 0;
	*dx = m1->kid[1];
	*dy = m2->kid[1];
	return 1;
}

/* sqrt(dx * dx + dy * dy), the emitter's length (new tree). */
static sw_expr_ast *length_of(const sw_expr_ast *dx, const sw_expr_ast *dy)
{
	return xn_call(SW_EXPR_SQRT,
		       xn_op(SW_EXPR_ADD,
			     xn_op(SW_EXPR_MUL, sw_expr_ast_clone(dx), sw_expr_ast_clone(dx)),
			     xn_op(SW_EXPR_MUL, sw_expr_ast_clone(dy), sw_expr_ast_clone(dy))));
}

/* Rewrites dot * (1 / d) -> cos(e) and cross * (1 / d) -> sin(e) for bearing e = atan2(cross,
 * dot) (d its length); returns how many, or -1 when memory runs out. */
static int unit_bearing(sw_expr_ast **pa, const sw_expr_ast *e, const sw_expr_ast *len)
{
	sw_expr_ast *a = *pa;
	if (a->op == SW_EXPR_MUL && a->kid[1]->op == SW_EXPR_DIV &&
	    a->kid[1]->kid[0]->op == SW_EXPR_NUM && a->kid[1]->kid[0]->value == 1.0 &&
	    sw_expr_ast_equal(a->kid[1]->kid[1], len)) {
		int which = sw_expr_ast_equal(a->kid[0], e->kid[1])   ? SW_EXPR_COS
			    : sw_expr_ast_equal(a->kid[0], e->kid[0]) ? SW_EXPR_SIN
								      : -1;
		if (which >= 0) {
			sw_expr_ast *n = xn_call((sw_expr_op)which, sw_expr_ast_clone(e));
			if (!n)
				return -1;
			sw_expr_ast_free(a);
			*pa = n;
			return 1;
		}
	}
	int n = 0;
	for (int i = 0; i < a->nkid; i++) {
		int k = unit_bearing(&a->kid[i], e, len);
		if (k < 0)
			return -1;
		n += k;
	}
	return n;
}

/* Collects the distinct atan2 nodes of a (at most cap). */
static void collect_op(const sw_expr_ast *a, sw_expr_op op, const sw_expr_ast **out, int *n,
		       int cap)
{
	if (a->op == op) {
		for (int j = 0; j < *n; j++)
			if (sw_expr_ast_equal(out[j], a))
				return;
		if (*n < cap)
			out[(*n)++] = a;
		return;
	}
	for (int i = 0; i < a->nkid; i++)
		collect_op(a->kid[i], op, out, n, cap);
}

/* Whether a is the emitter's distance sqrt((X - x) (X - x) + (Y - y) (Y - y)) to a constant point
 * (X, Y) (into *X, *Y). */
static int point_distance(const sw_expr_ast *a, double *X, double *Y)
{
	const sw_expr_ast *s = a->op == SW_EXPR_SQRT ? a->kid[0] : NULL;
	if (!s || s->op != SW_EXPR_ADD)
		return 0;
	double P[2];
	for (int j = 0; j < 2; j++) {
		const sw_expr_ast *m = s->kid[j], *d;
		if (m->op != SW_EXPR_MUL || !sw_expr_ast_equal(m->kid[0], m->kid[1]))
			return 0;
		d = m->kid[0];
		if (d->op != SW_EXPR_SUB || d->kid[1]->op != SW_EXPR_VAR ||
		    d->kid[1]->slot != (j ? SW_STATE_Y : SW_STATE_X))
			return 0;
		double h;
		if (sw_expr_interval(d->kid[0], NULL, NULL, &P[j], &h) != SW_SUCCESS || P[j] != h)
			return 0;
	}
	*X = P[0];
	*Y = P[1];
	return 1;
}

/* The distinct distances of a to disc primitives of the scene (trees into d, primitives into
 * prim, at most cap). */
static void collect_discs(const sw_model *m, const sw_expr_ast *a, const sw_expr_ast **d,
			  int *prim, int *n, int cap)
{
	double X, Y;
	if (point_distance(a, &X, &Y)) {
		for (int j = 0; j < *n; j++)
			if (sw_expr_ast_equal(d[j], a))
				return;
		for (int k = 0; k < m->n_prims && *n < cap; k++)
			if (!m->prims[k].is_segment && m->prims[k].a.x == X && m->prims[k].a.y == Y) {
				d[*n] = a;
				prim[(*n)++] = k;
				return;
			}
		return;
	}
	for (int i = 0; i < a->nkid; i++)
		collect_discs(m, a->kid[i], d, prim, n, cap);
}

static int has_op(const sw_expr_ast *a, sw_expr_op op)
{
	if (a->op == op)
		return 1;
	for (int i = 0; i < a->nkid; i++)
		if (has_op(a->kid[i], op))
			return 1;
	return 0;
}

/* Replaces each product of two factors that both hold a sign (P_tar P_obs of g12) by input
 * u_competition, bounded by the product's interval over the region. */
static int competition_input(struct xb *b, xl_ctx *c, int loc, sw_expr_ast **pa,
			     const xf_box *bx, int *made)
{
	sw_expr_ast *a = *pa;
	if (a->op == SW_EXPR_MUL && has_op(a->kid[0], SW_EXPR_SIGN) &&
	    has_op(a->kid[1], SW_EXPR_SIGN)) {
		double l, h;
		int st = xf_interval(a, bx, &l, &h);
		/* NaN only where the flow itself is (at the target's centre) */
		if ((st != SW_SUCCESS && st != SW_ENUMERIC) || !isfinite(l) || !isfinite(h))
			return -1;
		int k = xb_input_var(b, c->comp, loc, "u_competition", l, h,
				     "P_tar P_obs of g12, eq. (10): signs of the slopes times the "
				     "attractor and repeller shares");
		if (k < 0)
			return -1;
		sw_expr_ast_free(a);
		*pa = xn_var(c->comp, k);
		++*made;
		return *pa ? 0 : -1;
	}
	for (int i = 0; i < a->nkid; i++)
		if (competition_input(b, c, loc, &a->kid[i], bx, made) != 0)
			return -1;
	return 0;
}

/* Radius of the region where every branch of obstacle term (N) is decided (header). */
static double glm_radius(const sw_glm_params *p, double margin, double N)
{
	double R = N / cos(0.5 * p->delta);
	if (p->speed == SW_SPEED_T2C)
		R = fmax(R, N - margin + p->d1 + fabs(p->v_max) * p->t2c);
	else if (p->speed == SW_SPEED_CONTACT)
		R = fmax(R, sqrt(N * N + pow(fabs(p->v_max) * p->t2c + N, 2)));
	return R * (1 + XF_SLACK) + XF_SLACK;
}

int xf_glm_flow(struct xb *b, xl_ctx *c, int loc, const sw_steer_def *def, sw_expr_ast **pt,
		xf_box *bx, const double *slo, const double *shi)
{
	enum { CAP = 256 };
	const sw_glm_params *p = &def->glm;
	const sw_agent *ag = &c->m->agents[c->agent];
	double margin = p->margin < 0.0 ? p->d1 : p->margin;
	if (!(p->delta > 1e-3 && p->delta < SW_PI) || p->arrive)
		return -1;
	/* the weights stay in [0, 1] (header) */
	if (p->a1_scale >= 0 && p->g21 >= 0 && slo[SW_STATE_WTAR] >= 0 && shi[SW_STATE_WTAR] <= 1 &&
	    slo[SW_STATE_WOBS] >= 0 && shi[SW_STATE_WOBS] <= 1) {
		bx->lo[SW_STATE_WTAR] = bx->lo[SW_STATE_WOBS] = 0.0;
		bx->hi[SW_STATE_WTAR] = bx->hi[SW_STATE_WOBS] = 1.0;
	}
	/* dot / d, cross / d -> cos e, sin e */
	const sw_expr_ast *at[CAP];
	int na = 0;
	collect_op(*pt, SW_EXPR_ATAN2, at, &na, CAP);
	sw_expr_ast *bearings[CAP];
	for (int j = 0; j < na; j++)
		bearings[j] = sw_expr_ast_clone(at[j]);
	int ok = 1;
	for (int j = 0; j < na; j++) {
		const sw_expr_ast *dx, *dy;
		if (!bearings[j] || !dot_parts(bearings[j]->kid[1], &dx, &dy))
			continue;
		sw_expr_ast *len = length_of(dx, dy);
		ok = len && unit_bearing(pt, bearings[j], len) >= 0;
		sw_expr_ast_free(len);
		if (!ok)
			break;
	}
	for (int j = 0; j < na; j++)
		sw_expr_ast_free(bearings[j]);
	if (!ok)
		return b->status = SW_ENOMEM, -1;
	/* regions of the discs: facts d_i in [R_i, box], zones where the box comes closer */
	const sw_expr_ast *d[CAP];
	int prims[CAP], nq = 0;
	collect_discs(c->m, *pt, d, prims, &nq, CAP);
	if (nq == CAP)
		return -1;
	bx->fact = calloc((size_t)nq + 1, sizeof *bx->fact);
	if (!bx->fact)
		return b->status = SW_ENOMEM, -1;
	for (int j = 0; j < nq; j++) {
		int prim = prims[j];
		double N = c->m->prims[prim].radius + ag->radius + margin;
		double R = glm_radius(p, margin, N), bl, bh, il, ih;
		bx->n_facts = j; /* the box alone for this one */
		if (xf_interval(d[j], bx, &bl, &bh) != SW_SUCCESS ||
		    sw_expr_interval(d[j], slo, shi, &il, &ih) != SW_SUCCESS || !isfinite(bh))
			return -1;
		if (bl < R) {
			if (il <= R) /* the start is already inside the zone */
				return -1;
			if (xb_zone(b, c->agent, prim, d[j], N, R) != SW_SUCCESS)
				return -1;
		}
		bx->fact[j].expr = sw_expr_ast_clone(d[j]);
		bx->fact[j].lo = fmax(bl, R);
		bx->fact[j].hi = bh;
		if (!bx->fact[j].expr)
			return b->status = SW_ENOMEM, -1;
	}
	bx->n_facts = nq;
	int decided = 0;
	if (xf_decide(pt, bx, &decided) != SW_SUCCESS)
		return b->status = SW_ENOMEM, -1;
	int made = 0;
	if (competition_input(b, c, loc, pt, bx, &made) != 0)
		return -1;
	if (made)
		xb_note(b, c->where, 1,
			"weights: in g12 = exp(-c2 (P_tar P_obs + 1)) (eq. (10)) the product P_tar "
			"P_obs holds sgn(df_tar) sgn(df_obs), which has no smooth form; it is exported "
			"as an input u_competition bounded by its interval over the region (the rest of "
			"(8)-(10) stays exact)");
	return decided;
}

int xb_zone(struct xb *b, int agent, int prim, const sw_expr_ast *d, double N, double R)
{
	/* modes of an automaton may need different radii: the region is the largest */
	for (int k = 0; k < b->n_zones; k++)
		if (b->zones[k].agent == agent && b->zones[k].prim == prim && b->zones[k].N == N &&
		    sw_expr_ast_equal(b->zones[k].d, d)) {
			b->zones[k].R = fmax(b->zones[k].R, R);
			return SW_SUCCESS;
		}
	if (xi_grow((void **)&b->zones, &b->cap_zones, b->n_zones + 1, sizeof *b->zones))
		return b->status = SW_ENOMEM;
	xb_zone_t *z = &b->zones[b->n_zones];
	z->agent = agent;
	z->prim = prim;
	z->N = N;
	z->R = R;
	if (!(z->d = sw_expr_ast_clone(d)))
		return b->status = SW_ENOMEM;
	b->n_zones++;
	return SW_SUCCESS;
}

void xf_box_free(xf_box *bx)
{
	for (int j = 0; bx->fact && j < bx->n_facts; j++)
		sw_expr_ast_free(bx->fact[j].expr);
	free(bx->fact);
	bx->fact = NULL;
	bx->n_facts = 0;
}
