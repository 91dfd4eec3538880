/* steer/emit.c - the symbolic emitters of the steering laws (twin rule: docs/export.md, Flows).
 *
 * sw_steer_emit() writes, for each entry of the state vector, an expression tree over the
 * variables of an sw_emit_ctx that equals what sw_steer_rhs() computes for the situation the
 * simulator perceives (src/sim/perceive.c) in the same scene.  Perception is part of the tree:
 *
 *   - a disc (static, in linear motion p0 + v t, or another agent at its state variables) is a
 *     percept at its centre with rho = its radius and clearance dist - radius - rho_a;
 *   - a segment [a, b] is seen at its closest point cp = a + (b - a) clamp(u, 0, 1),
 *     u = ((p - a).(b - a)) / |b - a|^2, with rho = 0 and clearance |cp - p| - rho_a, when that
 *     clearance is below wall_near * half length (GLM only; every other law uses the closest
 *     point, as sw__wall_near() says), else at its midpoint with rho = |m - p| sin(ang / 2),
 *     ang = atan2(|cross(a - p, b - p)|, dot(a - p, b - p)): an if() over the two percepts;
 *   - with a finite perception radius P every obstacle term becomes if(clearance <= P, term,
 *     value without the obstacle).
 *
 * The crowd laws <ttc>, <sf>, <csm> are emitted by emit_crowd.c; the tree helpers and the scene
 * above are shared through emit_internal.h.
 *
 * Each law mirrors the operation order of its native code (glm.c, fw.c, pf.c, wall.c, rhs.c) so
 * that the two agree to rounding; where the native code has a numerical shortcut the tree keeps
 * the exact formula it stands for:
 *
 *   - e_i = wrap(phi - psi_i) = atan2(cross, dot) of the heading (cos phi, sin phi) and the
 *     direction (dx, dy): in (-pi, pi], no wrap and no atan2 of the direction needed.
 *   - GLM window (5)-(6) literally, c = min(2 dpsi + delta, pi), h1 = 4 / (cos 2 dpsi - cos c),
 *     W as the logistic 1 / (1 + exp(-2 x)) (= 0.5 (tanh x + 1), full relative accuracy in the
 *     tail) and dW/dphi = -2 h1 W (1 - W) sin e with W (1 - W) = 1 / (2 + 2 cosh 2x) (x once, no
 *     cancellation); x is clamped to [-300, 300] (SW_EMIT_X_SAT).  glm.c's saturation shortcut
 *     (W = 1, dW = 0 for x > 19) differs from this by less than 1e-16 h1.  When sin dpsi = q
 *     reaches 1 (contact within the margin) h1 is infinite and W is the step it tends to, as in
 *     glm.c: if(q < 1, logistic, step).  dpsi = if(q < 1, asin q, pi/2), equal in value to
 *     asin(min(1, .)), so that derivative trees are finite at contact.
 *   - The speed law (12) takes the minimum over obstacles of if(in front, (r_i - d1) / t2c, v_max)
 *     then clamps: (r - d1) / t2c is monotone, so this equals clamping the smallest clearance in
 *     front, and v_max when nothing is in front.
 *   - Sums over obstacles are folded left, in the native order, up to SW_EMIT_LINEAR terms and
 *     balanced beyond, so that a tree's height grows like log n for large scenes.
 *
 * Per-obstacle subtrees are built once and cloned where reused; the trees share nothing, so their
 * size is linear in the number of obstacles: a static disc adds about 540 nodes to the GLM heading
 * flow and 2100 to the w_tar flow (which needs f_obs, df_obs and sum W), a segment seen near and
 * far about seven times that (test_tree_sizes_and_heights prints sizes with SW_EMIT_REPORT set).
 * Every constructor takes ownership of its operands and returns NULL on failure, so a failure
 * anywhere propagates to the root and is reported once. */
#include <stdlib.h>

#include "emit_internal.h"

/* Sums and minima of at most this many terms are folded left (the native order). */
#define SW_EMIT_LINEAR 32
/* Below this window margin delta (rad) the GLM window tests its own denominator (see
 * glm_obstacle). */
#define SW_EMIT_DELTA_MIN 1e-3
/* The window argument x is clamped to [-SAT, SAT]: 1 / (1 + exp(2 SAT)) ~ 1e-261 is what W or
 * 1 - W then differ by from glm.c, and exp(2 x) never overflows, so the derivative trees of the
 * window stay finite (the quotient rule would give inf / inf). */
#define SW_EMIT_X_SAT 300.0

/* --- folds and the scene (emit_internal.h) ------------------------------------------------- */

ast *sw__emit_fold(sw_expr_op op, ast **terms, int n)
{
	if (n <= 0)
		return NULL;
	if (n > SW_EMIT_LINEAR) {
		int h = n / 2;
		return op2(op, sw__emit_fold(op, terms, h), sw__emit_fold(op, terms + h, n - h));
	}
	ast *acc = terms[0];
	for (int i = 1; i < n; i++)
		acc = op2(op, acc, terms[i]);
	return acc;
}

static void pex_free(pex *p)
{
	sw_expr_ast_free(p->dx);
	sw_expr_ast_free(p->dy);
	sw_expr_ast_free(p->dist);
	sw_expr_ast_free(p->rho);
	sw_expr_ast_free(p->clr);
}

static int pex_ok(const pex *p)
{
	return p->dx && p->dy && p->dist && p->clr;
}

/* A disc of radius rho at (X, Y) (trees, taken) seen by the agent: (X - x, Y - y). */
static void disc_pex(const em *e, ast *X, ast *Y, double rho, pex *p)
{
	p->dx = SUB(X, var(e, SW_STATE_X));
	p->dy = SUB(Y, var(e, SW_STATE_Y));
	p->dist = len(p->dx, p->dy);
	p->rho = NULL;
	p->rho_c = rho;
	p->clr = SUB(SUB(cp(p->dist), num(rho)), num(e->c->radius));
}

/* A segment: the closest-point percept into near, and when far != NULL the midpoint percept
 * (sharing the closest-point clearance). */
static void segment_pex(const em *e, const sw_emit_obstacle *o, pex *near, pex *far)
{
	double abx = o->bx - o->ax, aby = o->by - o->ay;
	double len2 = abx * abx + aby * aby;
	ast *px = var(e, SW_STATE_X), *py = var(e, SW_STATE_Y);
	/* u = clamp(((p - a).(b - a)) / |b - a|^2, 0, 1); cp - p = (a + (b - a) u) - p. */
	ast *u = DIV(ADD(MUL(SUB(cp(px), moving(e, o->ax, o->vx)), num(abx)),
			 MUL(SUB(cp(py), moving(e, o->ay, o->vy)), num(aby))),
		     num(len2));
	u = MIN(MAX(u, num(0.0)), num(1.0));
	near->dx = SUB(ADD(moving(e, o->ax, o->vx), MUL(num(abx), cp(u))), cp(px));
	near->dy = SUB(ADD(moving(e, o->ay, o->vy), MUL(num(aby), cp(u))), cp(py));
	sw_expr_ast_free(u);
	near->dist = len(near->dx, near->dy);
	near->rho = NULL;
	near->rho_c = 0.0;
	near->clr = SUB(cp(near->dist), num(e->c->radius));
	if (far) {
		double mx = (o->ax + o->bx) * 0.5, my = (o->ay + o->by) * 0.5;
		far->dx = SUB(moving(e, mx, o->vx), cp(px));
		far->dy = SUB(moving(e, my, o->vy), cp(py));
		far->dist = len(far->dx, far->dy);
		ast *dax = SUB(moving(e, o->ax, o->vx), cp(px));
		ast *day = SUB(moving(e, o->ay, o->vy), cp(py));
		ast *dbx = SUB(moving(e, o->bx, o->vx), cp(px));
		ast *dby = SUB(moving(e, o->by, o->vy), cp(py));
		ast *crs = SUB(MUL(cp(dax), cp(dby)), MUL(cp(day), cp(dbx)));
		ast *dot = ADD(MUL(dax, dbx), MUL(day, dby));
		ast *ang = ATAN2(ABS(crs), dot);
		far->rho = MUL(cp(far->dist), SIN(MUL(num(0.5), ang)));
		far->rho_c = 0.0;
		far->clr = cp(near->clr);
	}
	sw_expr_ast_free(px);
	sw_expr_ast_free(py);
}

void sw__emit_items_free(item *it, int n)
{
	if (!it)
		return;
	for (int i = 0; i < n; i++) {
		sw_expr_ast_free(it[i].near);
		pex_free(&it[i].p[0]);
		pex_free(&it[i].p[1]);
	}
	free(it);
}

item *sw__emit_items_build(const em *e, double wall_near, int *n)
{
	const sw_emit_ctx *c = e->c;
	int total = c->n_obs + c->n_agents;
	*n = total;
	item *it = calloc(total > 0 ? (size_t)total : 1, sizeof *it);
	if (!it)
		return NULL;
	int ok = 1;
	for (int k = 0; k < c->n_obs; k++) {
		const sw_emit_obstacle *o = &c->obs[k];
		item *m = &it[k];
		double abx = o->bx - o->ax, aby = o->by - o->ay;
		double half = 0.5 * sqrt(abx * abx + aby * aby);
		if (!o->is_segment || !(half > 0.0)) {
			/* A degenerate segment is seen at its point with rho = 0 either way. */
			disc_pex(e, moving(e, o->ax, o->vx), moving(e, o->ay, o->vy),
				 o->is_segment ? 0.0 : o->radius, &m->p[0]);
			ok = ok && pex_ok(&m->p[0]);
			continue;
		}
		double thr = wall_near * half;
		if (thr == INFINITY) { /* always near */
			segment_pex(e, o, &m->p[0], NULL);
		} else if (thr == -INFINITY || isnan(thr)) { /* never near: the far percept */
			pex near;
			segment_pex(e, o, &near, &m->p[0]);
			pex_free(&near);
		} else {
			segment_pex(e, o, &m->p[0], &m->p[1]);
			m->near = LT(cp(m->p[0].clr), num(thr));
			ok = ok && m->near && pex_ok(&m->p[1]) && m->p[1].rho;
		}
		ok = ok && pex_ok(&m->p[0]);
	}
	for (int j = 0; j < c->n_agents; j++) {
		const sw_emit_agent *a = &c->agents[j];
		item *m = &it[c->n_obs + j];
		m->is_agent = 1;
		m->agent = j;
		disc_pex(e, sw_expr_ast_variable(a->x_name, a->x_slot, SW_EXPR_REAL),
			 sw_expr_ast_variable(a->y_name, a->y_slot, SW_EXPR_REAL), a->radius,
			 &m->p[0]);
		ok = ok && pex_ok(&m->p[0]);
	}
	if (!ok) {
		sw__emit_items_free(it, total);
		return NULL;
	}
	return it;
}

int sw__emit_item_terms(const em *e, const item *m, builder b, const void *law, int k, double limit,
			const double *fallback, ast **out)
{
	ast *far[SW_EMIT_K] = {NULL};
	b(e, law, &m->p[0], out);
	if (m->near) {
		b(e, law, &m->p[1], far);
		for (int j = 0; j < k; j++)
			out[j] = ifx(cp(m->near), out[j], far[j]);
	}
	if (limit != INFINITY)
		for (int j = 0; j < k; j++)
			out[j] = ifx(LE(cp(m->p[0].clr), num(limit)), out[j], num(fallback[j]));
	for (int j = 0; j < k; j++)
		if (!out[j]) {
			free_all(out, k);
			return 0;
		}
	return 1;
}

/* wrap(phi - atan2(dy, dx)) in (-pi, pi]. */
static ast *rel_angle(const em *e, const ast *dx, const ast *dy)
{
	return ATAN2(cross_h(e, dx, dy), dot_h(e, dx, dy));
}

int sw__emit_sum_items(const em *e, const item *it, int n, builder b, const void *law, int k,
		       double limit, const double *fallback, const sw_expr_op *ops, ast **sums)
{
	for (int j = 0; j < k; j++)
		sums[j] = NULL;
	if (n == 0)
		return 1;
	ast **terms = calloc((size_t)n * (size_t)k, sizeof *terms);
	if (!terms)
		return 0;
	int ok = 1;
	for (int i = 0; i < n && ok; i++) {
		ast *out[SW_EMIT_K];
		ok = sw__emit_item_terms(e, &it[i], b, law, k, limit, fallback, out);
		for (int j = 0; ok && j < k; j++)
			terms[(size_t)j * (size_t)n + (size_t)i] = out[j];
	}
	if (!ok) {
		free_all(terms, n * k);
		free(terms);
		return 0;
	}
	for (int j = 0; j < k; j++) {
		sums[j] = sw__emit_fold(ops[j], terms + (size_t)j * (size_t)n, n);
		ok = ok && sums[j];
	}
	free(terms);
	if (!ok)
		free_all(sums, k);
	return ok;
}

/* --- GLM, eqs. (1)-(12) --------------------------------------------------------------------- */

typedef struct glm_law {
	const sw_glm_params *p;
	double margin; /* m of the dpsi decision: p->margin, or d1 when negative */
} glm_law;

enum { G_F, G_DF, G_D, G_W, G_V, G_K };

/* f_i = R W D, d f_i / d phi, D_i, W_i and the speed term of eq. (12) for one percept, in the
 * operation order of glm.c (sw__glm_obstacles_scalar, repeller_core). */
static void glm_obstacle(const em *e, const void *law, const pex *o, ast **out)
{
	const glm_law *g = law;
	const sw_glm_params *p = g->p;
	ast *dot = dot_h(e, o->dx, o->dy);
	ast *inv = DIV(num(1.0), cp(o->dist));
	ast *ce = MUL(cp(dot), cp(inv));
	ast *se = MUL(cross_h(e, o->dx, o->dy), inv);
	ast *ev = ATAN2(cross_h(e, o->dx, o->dy), cp(dot));

	/* q = sin dpsi = clamp((rho + rho_a + m) / dist, q_min, 1); dpsi = asin q. */
	ast *numer = o->rho ? ADD(ADD(cp(o->rho), num(e->c->radius)), num(g->margin))
			    : num(o->rho_c + e->c->radius + g->margin);
	ast *q = MIN(MAX(DIV(numer, cp(o->dist)), num(SW_GLM_Q_MIN)), num(1.0));
	/* asin(1) as the constant pi/2, so that derivatives do not meet asin'(1) = inf. */
	ast *dpsi = ifx(LT(cp(q), num(1.0)), op1(SW_EXPR_ASIN, cp(q)), num(SW_PI_2));
	/* Eqs. (5)-(6) literally: c = min(2 dpsi + delta, pi).  (glm.c uses the equal 1 - 2 q^2
	 * and cos(2 dpsi) cos(delta) - sin(2 dpsi) sin(delta): three more copies of q.) */
	ast *cos2 = COS(MUL(num(2.0), cp(dpsi)));
	ast *cosc = COS(MIN(ADD(MUL(num(2.0), cp(dpsi)), num(p->delta)), num(SW_PI)));

	/* Window (5)-(6): the logistic form while h1 = 4 / (cos(2 dpsi) - cos c) is finite and
	 * positive, else the step it tends to (glm.c).  For delta > SW_EMIT_DELTA_MIN that is
	 * exactly while q < 1 (at q = 1, c = pi and cos c = -1), a far smaller condition; below,
	 * the denominator itself is tested. */
	ast *den = SUB(cos2, cp(cosc));
	int general = !(p->delta > SW_EMIT_DELTA_MIN);
	ast *logistic = general ? GT(cp(den), num(0.0)) : LT(cp(q), num(1.0));
	ast *lim = general ? cp(cosc) : num(-1.0);
	ast *wstep = ifx(GT(cp(ce), cp(lim)), num(1.0), ifx(EQ(cp(ce), lim), num(0.5), num(0.0)));
	ast *h1 = DIV(num(4.0), den);
	ast *x = MUL(cp(h1), SUB(cp(ce), cosc));
	x = MAX(num(-SW_EMIT_X_SAT), MIN(x, num(SW_EMIT_X_SAT)));
	ast *wl = DIV(num(1.0), ADD(num(1.0), EXP(MUL(num(-2.0), cp(x)))));
	/* dW/dphi = -2 h1 W (1 - W) sin e with W (1 - W) = 1 / (2 + 2 cosh(2 x)): x once. */
	ast *dwl = DIV(NEG(MUL(h1, se)), ADD(num(1.0), op1(SW_EXPR_COSH, MUL(num(2.0), x))));
	ast *w = ifx(cp(logistic), wl, wstep);
	ast *dw = ifx(logistic, dwl, num(0.0));
	sw_expr_ast_free(ce);
	sw_expr_ast_free(q);

	/* Repeller (4) and its slope. */
	ast *invd = DIV(num(1.0), dpsi);
	ast *ae = MUL(ABS(cp(ev)), cp(invd));
	ast *ex = EXP(SUB(num(1.0), cp(ae)));
	ast *r = MUL(MUL(ev, cp(invd)), cp(ex));
	ast *dr = MUL(MUL(invd, ex), SUB(num(1.0), ae));

	/* Distance factor (7) with the floored clearance. */
	ast *d = EXP(DIV(NEG(MAX(cp(o->clr), num(p->r_floor))), num(p->d0)));

	out[G_F] = MUL(MUL(cp(r), cp(w)), cp(d));
	out[G_DF] = MUL(cp(d), ADD(MUL(dr, cp(w)), MUL(r, dw)));
	out[G_D] = d;
	out[G_W] = w;
	if (p->speed == SW_SPEED_CONTACT) {
		/* glm.c contact_distance: (along - sqrt(rg^2 - lat^2)) / t2c for a percept in
		 * front whose lateral offset is below the grown radius rg, else v_max. */
		ast *rg = o->rho ? ADD(ADD(cp(o->rho), num(e->c->radius)), num(g->margin))
				 : num(o->rho_c + e->c->radius + g->margin);
		ast *lat = cross_h(e, o->dx, o->dy);
		ast *gap = SUB(MUL(cp(rg), cp(rg)), MUL(cp(lat), cp(lat)));
		sw_expr_ast_free(rg);
		sw_expr_ast_free(lat);
		ast *on = op2(SW_EXPR_AND, GT(cp(dot), num(0.0)), GT(cp(gap), num(0.0)));
		out[G_V] = ifx(on, DIV(SUB(dot, SQRT(gap)), num(p->t2c)), num(p->v_max));
		return;
	}
	/* Eq. (12): (r_i - d1) / t2c for an obstacle in front (cos e > 0), else v_max. */
	out[G_V] =
	    ifx(GT(dot, num(0.0)), DIV(SUB(cp(o->clr), num(p->d1)), num(p->t2c)), num(p->v_max));
}

static int emit_glm(const em *e, const sw_glm_params *p, const sw_personality *pers,
		    ast *out[SW_STATE_DIM])
{
	const sw_emit_ctx *c = e->c;
	glm_law g = {p, p->margin < 0.0 ? p->d1 : p->margin};
	int n = 0;
	item *it = sw__emit_items_build(e, p->wall_near, &n);
	if (!it)
		return SW_ENOMEM;
	const double fallback[G_K] = {0.0, 0.0, 0.0, 0.0, p->v_max};
	const sw_expr_op ops[G_K] = {SW_EXPR_ADD, SW_EXPR_ADD, SW_EXPR_ADD, SW_EXPR_ADD,
				     SW_EXPR_MIN};
	ast *s[G_K];
	int ok =
	    sw__emit_sum_items(e, it, n, glm_obstacle, &g, G_K, c->perception, fallback, ops, s);
	sw__emit_items_free(it, n);
	if (!ok)
		return SW_ENOMEM;
	/* Branch on what the scene has, never on a NULL tree: a failure must reach the roots. */
	int tgt = c->has_target, obs = n > 0;

	/* Target attractor (2) from the cross and dot products, as glm.c. */
	ast *f_tar = NULL, *df_tar = NULL, *tdx = NULL, *tdy = NULL;
	if (tgt) {
		target_vec(e, &tdx, &tdy);
		ast *inv = DIV(num(1.0), len(tdx, tdy));
		f_tar = MUL(num(-p->a), MUL(cross_h(e, tdx, tdy), cp(inv)));
		df_tar = MUL(num(-p->a), MUL(dot_h(e, tdx, tdy), inv));
	}

	/* Heading rate (1) without noise. */
	ast *wt = var(e, SW_STATE_WTAR), *wo = var(e, SW_STATE_WOBS);
	ast *phidot;
	if (tgt && obs)
		phidot = ADD(MUL(ABS(cp(wt)), cp(f_tar)), MUL(ABS(cp(wo)), cp(s[G_F])));
	else if (tgt)
		phidot = MUL(ABS(cp(wt)), cp(f_tar));
	else if (obs)
		phidot = MUL(ABS(cp(wo)), cp(s[G_F]));
	else
		phidot = num(0.0);

	/* Competition (9)-(10) and the weights (8) / eps. */
	ast *a2 = obs ? op1(SW_EXPR_TANH, cp(s[G_D])) : num(0.0);
	ast *a1 = MUL(num(p->a1_scale), SUB(num(1.0), cp(a2)));
	ast *g12;
	if (tgt && obs) {
		ast *pt = MUL(op1(SW_EXPR_SIGN, df_tar), EXP(MUL(num(-p->c1), ABS(cp(f_tar)))));
		ast *po = MUL(MUL(op1(SW_EXPR_SIGN, s[G_DF]), EXP(MUL(num(-p->c1), ABS(s[G_F])))),
			      s[G_W]);
		g12 = EXP(MUL(num(-p->c2), ADD(MUL(pt, po), num(1.0))));
	} else {
		/* P_tar or P_obs is 0 (sgn 0): g12 = exp(-c2). */
		sw_expr_ast_free(df_tar);
		free_all(&s[G_F], 1);
		free_all(&s[G_DF], 1);
		free_all(&s[G_W], 1);
		g12 = num(exp(-p->c2));
	}
	sw_expr_ast_free(f_tar);
	ast *dwt = SUB(MUL(MUL(a1, cp(wt)), SUB(num(1.0), MUL(cp(wt), cp(wt)))),
		       MUL(MUL(MUL(g12, cp(wo)), cp(wo)), cp(wt)));
	ast *dwo = SUB(MUL(MUL(a2, cp(wo)), SUB(num(1.0), MUL(cp(wo), cp(wo)))),
		       MUL(MUL(MUL(num(p->g21), cp(wt)), cp(wt)), cp(wo)));
	out[SW_STATE_WTAR] = DIV(dwt, num(p->eps));
	out[SW_STATE_WOBS] = DIV(dwo, num(p->eps));
	sw_expr_ast_free(wt);
	sw_expr_ast_free(wo);

	/* Speed (12) or v_max, clamped, then the arrival cap. */
	ast *v;
	if ((p->speed == SW_SPEED_T2C || p->speed == SW_SPEED_CONTACT) && obs)
		v = MIN(MAX(s[G_V], num(-p->v_max)), num(p->v_max));
	else {
		sw_expr_ast_free(s[G_V]);
		v = num(p->v_max);
	}
	if (p->arrive && tgt)
		v = MIN(v, DIV(len(tdx, tdy), num(p->t2c)));
	sw_expr_ast_free(tdx);
	sw_expr_ast_free(tdy);
	sw_expr_ast_free(s[G_D]);

	/* Personality lags, as rhs.c. */
	if (pers && pers->has_agility) {
		double lk = pers->lambda_k_min +
			    sw__unit(pers->agility) * (pers->lambda_k_max - pers->lambda_k_min);
		out[SW_STATE_PHI] = var(e, SW_STATE_OMEGA);
		out[SW_STATE_OMEGA] = MUL(num(lk), SUB(phidot, var(e, SW_STATE_OMEGA)));
	} else {
		out[SW_STATE_PHI] = phidot;
		out[SW_STATE_OMEGA] = num(0.0);
	}
	if (pers && pers->has_mass) {
		double lm = pers->lambda_m_max -
			    sw__unit(pers->mass) * (pers->lambda_m_max - pers->lambda_m_min);
		out[SW_STATE_V] = MUL(num(lm), SUB(v, var(e, SW_STATE_V)));
		v = var(e, SW_STATE_V);
	} else {
		out[SW_STATE_V] = num(0.0);
	}
	out[SW_STATE_X] = MUL(cp(v), COS(var(e, SW_STATE_PHI)));
	out[SW_STATE_Y] = MUL(v, SIN(var(e, SW_STATE_PHI)));
	return SW_SUCCESS;
}

/* --- FW, eq. (13) --------------------------------------------------------------------------- */

/* ko e exp(-c3 |e| - c4 d) for one point obstacle, as fw.c. */
static void fw_obstacle(const em *e, const void *law, const pex *o, ast **out)
{
	const sw_fw_params *p = law;
	ast *ev = rel_angle(e, o->dx, o->dy);
	out[0] = MUL(MUL(num(p->ko), cp(ev)),
		     EXP(SUB(MUL(num(-p->c3), ABS(ev)), MUL(num(p->c4), cp(o->dist)))));
}

static int emit_fw(const em *e, const sw_fw_params *p, ast *out[SW_STATE_DIM])
{
	const sw_emit_ctx *c = e->c;
	int n = 0;
	item *it = sw__emit_items_build(e, INFINITY, &n);
	if (!it)
		return SW_ENOMEM;
	ast **terms = calloc((size_t)n + 2, sizeof *terms);
	if (!terms) {
		sw__emit_items_free(it, n);
		return SW_ENOMEM;
	}
	/* -b phi' - kg wrap(phi - psi_g) (exp(-c1 d_g) + c2) + sum of the obstacle terms. */
	int k = 0, ok = 1;
	terms[k++] = MUL(num(-p->b), var(e, SW_STATE_OMEGA));
	if (c->has_target) {
		ast *dx, *dy;
		target_vec(e, &dx, &dy);
		ast *goal = MUL(MUL(num(p->kg), rel_angle(e, dx, dy)),
				ADD(EXP(MUL(num(-p->c1), len(dx, dy))), num(p->c2)));
		terms[0] = SUB(terms[0], goal);
		sw_expr_ast_free(dx);
		sw_expr_ast_free(dy);
	}
	const double zero = 0.0;
	for (int i = 0; i < n && ok; i++)
		ok = sw__emit_item_terms(e, &it[i], fw_obstacle, p, 1, c->perception, &zero,
					 &terms[k++]);
	sw__emit_items_free(it, n);
	if (!ok) {
		free_all(terms, k);
		free(terms);
		return SW_ENOMEM;
	}
	out[SW_STATE_OMEGA] = sw__emit_fold(SW_EXPR_ADD, terms, k);
	free(terms);
	out[SW_STATE_PHI] = var(e, SW_STATE_OMEGA);
	out[SW_STATE_X] = MUL(num(p->speed), COS(var(e, SW_STATE_PHI)));
	out[SW_STATE_Y] = MUL(num(p->speed), SIN(var(e, SW_STATE_PHI)));
	return SW_SUCCESS;
}

/* --- potential field, section 3 ------------------------------------------------------------- */

/* The obstacle's part of grad U, k (dx, dy) with k = -dU/drho / dist, as pf.c. */
static void pf_obstacle(const em *e, const void *law, const pex *o, ast **out)
{
	(void)e;
	const sw_pf_params *p = law;
	ast *rho = MAX(cp(o->clr), num(p->r_floor));
	ast *du = DIV(MUL(num(-p->eta), SUB(DIV(num(1.0), cp(rho)), num(1.0 / p->rho0))),
		      MUL(cp(rho), cp(rho)));
	sw_expr_ast_free(rho);
	ast *k = DIV(NEG(du), cp(o->dist));
	out[0] = MUL(cp(k), cp(o->dx));
	out[1] = MUL(k, cp(o->dy));
}

static int emit_pf(const em *e, const sw_pf_params *p, ast *out[SW_STATE_DIM])
{
	const sw_emit_ctx *c = e->c;
	int n = 0;
	item *it = sw__emit_items_build(e, INFINITY, &n);
	if (!it)
		return SW_ENOMEM;
	/* An obstacle acts when perceived and max(clearance, r_floor) <= rho0, that is when
	 * clearance <= min(perception, rho0) (and never when r_floor > rho0). */
	int acts = p->r_floor <= p->rho0 && n > 0;
	ast **gx = calloc((size_t)n + 1, sizeof *gx), **gy = calloc((size_t)n + 1, sizeof *gy);
	int k = 0, ok = gx && gy;
	if (ok && c->has_target) {
		gx[0] = MUL(num(p->kp), SUB(var(e, SW_STATE_X), moving(e, c->tx, c->tvx)));
		gy[0] = MUL(num(p->kp), SUB(var(e, SW_STATE_Y), moving(e, c->ty, c->tvy)));
		k = 1;
	}
	const double zero[2] = {0.0, 0.0};
	double limit = fmin(c->perception, p->rho0);
	for (int i = 0; ok && acts && i < n; i++) {
		ast *o[2];
		ok = sw__emit_item_terms(e, &it[i], pf_obstacle, p, 2, limit, zero, o);
		if (ok) {
			gx[k] = o[0];
			gy[k++] = o[1];
		}
	}
	sw__emit_items_free(it, n);
	if (!ok) {
		if (gx)
			free_all(gx, k);
		if (gy)
			free_all(gy, k);
		free(gx);
		free(gy);
		return SW_ENOMEM;
	}
	ast *fx = sw__emit_fold(SW_EXPR_ADD, gx, k), *fy = sw__emit_fold(SW_EXPR_ADD, gy, k);
	free(gx);
	free(gy);
	if (k == 0) { /* no gradient: keep the heading */
		out[SW_STATE_X] = MUL(num(p->speed), COS(var(e, SW_STATE_PHI)));
		out[SW_STATE_Y] = MUL(num(p->speed), SIN(var(e, SW_STATE_PHI)));
		return SW_SUCCESS;
	}
	/* Along -grad U normalised; the heading's direction where the gradient vanishes. */
	ast *g2 = ADD(MUL(cp(fx), cp(fx)), MUL(cp(fy), cp(fy)));
	ast *gn = SQRT(cp(g2));
	ast *moves = GT(g2, num(0.0));
	out[SW_STATE_X] = ifx(cp(moves), MUL(num(p->speed), DIV(NEG(fx), cp(gn))),
			      MUL(num(p->speed), COS(var(e, SW_STATE_PHI))));
	out[SW_STATE_Y] = ifx(moves, MUL(num(p->speed), DIV(NEG(fy), gn)),
			      MUL(num(p->speed), SIN(var(e, SW_STATE_PHI))));
	return SW_SUCCESS;
}

/* --- wall following ------------------------------------------------------------------------- */

/* psi_d of one obstacle: psi_c + side (pi/2 - clamp(gain (r - distance), -pi/4, pi/4)). */
static ast *wall_psi(const em *e, const sw_wall_params *p, const pex *o)
{
	(void)e;
	ast *corr = MUL(num(p->gain), SUB(cp(o->clr), num(p->distance)));
	corr = MAX(num(-SW_WALL_CORR_MAX), MIN(num(SW_WALL_CORR_MAX), corr));
	return ADD(ATAN2(cp(o->dy), cp(o->dx)), MUL(num((double)p->side), SUB(num(SW_PI_2), corr)));
}

/* Tournament over (key, value) pairs [lo, hi): the value of the first smallest key.  Keys and
 * values are taken. */
static void tournament(ast **key, ast **val, int lo, int hi, ast **k_out, ast **v_out)
{
	if (hi - lo == 1) {
		*k_out = key[lo];
		*v_out = val[lo];
		return;
	}
	int mid = lo + (hi - lo) / 2;
	ast *kl, *vl, *kr, *vr;
	tournament(key, val, lo, mid, &kl, &vl);
	tournament(key, val, mid, hi, &kr, &vr);
	*v_out = ifx(LE(cp(kl), cp(kr)), vl, vr);
	*k_out = MIN(kl, kr);
}

static int emit_wall(const em *e, const sw_wall_params *p, ast *out[SW_STATE_DIM])
{
	const sw_emit_ctx *c = e->c;
	int n = 0;
	item *it = sw__emit_items_build(e, INFINITY, &n);
	if (!it)
		return SW_ENOMEM;
	/* Candidates: perceived primitives (not agents).  A key is the clearance, or a value above
	 * the perception radius for an obstacle out of sight, so the first smallest key is the
	 * closest perceived obstacle and none is perceived when the smallest key exceeds it. */
	int fin = c->perception != INFINITY;
	double beyond = fin ? 2.0 * fabs(c->perception) + 1.0 : 0.0;
	ast **key = calloc((size_t)n + 1, sizeof *key), **val = calloc((size_t)n + 1, sizeof *val);
	int m = 0, ok = key && val;
	for (int i = 0; ok && i < n; i++) {
		if (it[i].is_agent)
			continue;
		const pex *o = &it[i].p[0];
		key[m] = fin ? ifx(LE(cp(o->clr), num(c->perception)), cp(o->clr), num(beyond))
			     : cp(o->clr);
		val[m] = wall_psi(e, p, o);
		ok = key[m] && val[m];
		m++;
	}
	sw__emit_items_free(it, n);
	ast *none = NULL;
	if (ok && c->has_target) {
		ast *dx, *dy;
		target_vec(e, &dx, &dy);
		none = ATAN2(dy, dx);
		ok = none != NULL;
	}
	if (!ok) {
		if (key)
			free_all(key, m);
		if (val)
			free_all(val, m);
		free(key);
		free(val);
		sw_expr_ast_free(none);
		return SW_ENOMEM;
	}
	int steers = m > 0 || c->has_target;
	ast *psi = NULL;
	if (m > 0) {
		ast *kmin;
		tournament(key, val, 0, m, &kmin, &psi);
		if (fin)
			psi = ifx(LE(kmin, num(c->perception)), psi,
				  none ? cp(none) : var(e, SW_STATE_PHI));
		else
			sw_expr_ast_free(kmin);
	} else if (none) {
		psi = cp(none);
	}
	free(key);
	free(val);
	sw_expr_ast_free(none);
	/* phi' = -a sin(phi - psi_d) (0 with nothing perceived and no target). */
	out[SW_STATE_PHI] =
	    steers ? MUL(num(-p->a), SIN(SUB(var(e, SW_STATE_PHI), psi))) : num(0.0);
	out[SW_STATE_X] = MUL(num(p->speed), COS(var(e, SW_STATE_PHI)));
	out[SW_STATE_Y] = MUL(num(p->speed), SIN(var(e, SW_STATE_PHI)));
	return SW_SUCCESS;
}

/* --- entry point ---------------------------------------------------------------------------- */

/* 1 when state entry k is a usable variable of ctx. */
static int has_var(const sw_emit_ctx *c, int k)
{
	return c->name[k] != NULL && c->slot[k] >= 0;
}

/* Checks the context: the variables the law reads, the time variable when something moves. */
static int check_ctx(const sw_steer_def *def, const sw_personality *pers, const sw_emit_ctx *c)
{
	if ((c->n_obs > 0 && !c->obs) || (c->n_agents > 0 && !c->agents) || c->n_obs < 0 ||
	    c->n_agents < 0 || isnan(c->perception))
		return 0;
	int need[SW_STATE_DIM] = {1, 1, 1, 0, 0, 0, 0};
	switch (def->law) {
	case SW_LAW_GLM:
		need[SW_STATE_WTAR] = need[SW_STATE_WOBS] = 1;
		need[SW_STATE_OMEGA] = pers && pers->has_agility;
		need[SW_STATE_V] = pers && pers->has_mass;
		break;
	case SW_LAW_FW: need[SW_STATE_OMEGA] = 1; break;
	case SW_LAW_PF:
	case SW_LAW_WALL: break;
	case SW_LAW_TTC:
	case SW_LAW_SF: need[SW_STATE_PHI] = need[SW_STATE_V] = 1; break;
	case SW_LAW_CSM: need[SW_STATE_PHI] = 1; break;
	default: return 0;
	}
	for (int k = 0; k < SW_STATE_DIM; k++)
		if (need[k] && !has_var(c, k))
			return 0;
	int moves = c->has_target && (c->tvx != 0.0 || c->tvy != 0.0);
	for (int i = 0; i < c->n_obs; i++)
		moves = moves || c->obs[i].vx != 0.0 || c->obs[i].vy != 0.0;
	if (moves && (c->t_slot < 0 || !c->t_name))
		return 0;
	for (int j = 0; j < c->n_agents; j++)
		if (!c->agents[j].x_name || !c->agents[j].y_name || c->agents[j].x_slot < 0 ||
		    c->agents[j].y_slot < 0)
			return 0;
	/* the second-order laws read the others' velocities */
	for (int j = 0; (sw__law_flags(def->law) & SW__LAW_READS_VELOCITIES) && j < c->n_agents; j++)
		if (!c->agents[j].v_name || !c->agents[j].phi_name || c->agents[j].v_slot < 0 ||
		    c->agents[j].phi_slot < 0)
			return 0;
	return 1;
}

int sw_steer_emit(const sw_steer_def *def, const sw_personality *pers, const sw_emit_ctx *ctx,
		  sw_expr_ast *out[SW_STATE_DIM])
{
	if (!out)
		return SW_EUSAGE;
	for (int k = 0; k < SW_STATE_DIM; k++)
		out[k] = NULL;
	if (!def || !ctx || !check_ctx(def, pers, ctx))
		return SW_EUSAGE;
	em e = {ctx};
	int st = SW_EUSAGE;
	switch (def->law) {
	case SW_LAW_GLM: st = emit_glm(&e, &def->glm, pers, out); break;
	case SW_LAW_FW: st = emit_fw(&e, &def->fw, out); break;
	case SW_LAW_PF: st = emit_pf(&e, &def->pf, out); break;
	case SW_LAW_WALL: st = emit_wall(&e, &def->wall, out); break;
	case SW_LAW_TTC: st = sw__emit_ttc(&e, &def->ttc, out); break;
	case SW_LAW_SF: st = sw__emit_sf(&e, &def->sf, out); break;
	case SW_LAW_CSM: st = sw__emit_csm(&e, &def->csm, out); break;
	default: break; /* no emitter: its row leaves SW__LAW_EMIT unset, the export refuses it */
	}
	/* Entries a law leaves alone have derivative 0 (a NULL among the others is a failure). */
	static const unsigned touched[SW__N_LAWS] = {[SW_LAW_GLM] = 0x7fu,
					    [SW_LAW_FW] = 1u << SW_STATE_X | 1u << SW_STATE_Y |
							  1u << SW_STATE_PHI | 1u << SW_STATE_OMEGA,
					    [SW_LAW_PF] = 1u << SW_STATE_X | 1u << SW_STATE_Y,
					    [SW_LAW_WALL] = 1u << SW_STATE_X | 1u << SW_STATE_Y |
							    1u << SW_STATE_PHI,
					    [SW_LAW_TTC] = 1u << SW_STATE_X | 1u << SW_STATE_Y |
							   1u << SW_STATE_PHI | 1u << SW_STATE_V,
					    [SW_LAW_SF] = 1u << SW_STATE_X | 1u << SW_STATE_Y |
							  1u << SW_STATE_PHI | 1u << SW_STATE_V,
					    [SW_LAW_CSM] = 1u << SW_STATE_X | 1u << SW_STATE_Y};
	for (int k = 0; st == SW_SUCCESS && k < SW_STATE_DIM; k++)
		if (!(touched[def->law] >> k & 1u))
			out[k] = num(0.0);
	for (int k = 0; st == SW_SUCCESS && k < SW_STATE_DIM; k++)
		if (!out[k])
			st = SW_ENOMEM;
	if (st != SW_SUCCESS)
		free_all(out, SW_STATE_DIM);
	return st;
}
