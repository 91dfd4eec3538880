/* steer/emit_crowd.c - the symbolic emitters of the crowd laws <ttc>, <sf> and <csm> (twin rule:
 * docs/export.md, "Crowd laws").
 *
 * Each emitter writes trees that equal sw_steer_rhs() for the situation src/sim/perceive.c builds
 * (the scene through emit_internal.h: discs at their centres, segments at their closest point
 * with rho = 0 -- sw__wall_near() is +inf for these laws --, obstacles in linear motion, other
 * agents at their state variables), in the native operation order of ttc.c, sf.c, csm.c and
 * rhs.c, so that both agree to rounding.  A percept acts when its clearance is within both the
 * perception radius and the law's range: one if(clearance <= min(perception, range)) per term.
 * Other agents' velocities, which <ttc> and <sf> read (the simulator's snapshot
 * speed (cos heading, sin heading)), are their speed and heading variables.
 *
 * Where the native code branches, the tree has the same branch or an equal non-smooth form:
 *   - <ttc>: the pair force is if(pushed apart, f_max x / |x|, if(collision ahead, F, 0)) with
 *     "pushed" = c < 0 or (a, b, d > 0 and tau = 0) and "ahead" = a, b, d > 0 and tau > 0,
 *     exactly sw_ttc_tau's cases; the cap g *= f_max / |F| when |F| > f_max is
 *     g min(1, f_max / |F|) (equal: f_max / |F| rounds below 1 exactly when |F| > f_max does
 *     not round it to 1, where both give g).
 *   - speed held non-negative (rhs.c velocity_rhs): (v > 0 or a.e > 0) ? a.e : 0 is
 *     max(a.e, if(v > 0, -DBL_MAX, 0)), a.e once.
 *   - <sf>: the body force and friction act while the overlap r - d is positive: k max(r - d, 0)
 *     added and kappa max(r - d, 0) (du.t) t, which are exactly 0 otherwise; copysign(m, v) is
 *     if(v < 0, -1, 1) m (they differ only at v = -0).
 *   - <csm>: the spacing enters through V(s) = min(v0, max(0, s / T)), nondecreasing, so
 *     V(min_j s_j) = min_j V(s_j): each body in the swept strip ahead contributes
 *     if(in strip, V(s_j), v0) and the minimum of those (v0 when none) is the speed.  The
 *     direction sum's negated terms are added (zx - t = zx + (-t)), so long sums may be folded
 *     in halves.  The agent moves only while |z| > 0 (with nothing around and no target z is
 *     exactly 0), else its velocity is 0 (native: 0 times the heading).
 *   - the hard walls (<ttc>, <csm> with t_contact > 0, sw__hard_walls): two passes over the
 *     static obstacles in order, each out -= if(acts, max(excess, 0) n, 0).  Each step uses the
 *     running velocity three times, so the tree grows by a factor of about 3 per obstacle and
 *     pass.
 * Beyond SW_EMIT_MAX_NODES nodes per flow (large crowds: a term per percept, quadratic for <csm>
 * whose spacing reads the direction; or the hard walls) the emitter gives up with SW_EUSAGE, the
 * export refusing such scenes and saying why, rather than build a tree no tool could read.
 *
 * <csm> is first order: the flow of x and y is the cut velocity; heading and speed are
 * algebraic outputs the simulator rewrites after every step (rhs.c sw_steer_algebraic), their
 * flow is 0 here as in sw_steer_rhs(). */
#include <float.h>
#include <stdlib.h>

#include "emit_internal.h"

/* Largest tree (nodes) the hard-wall cut may build for one flow. */
#define SW_EMIT_MAX_NODES 1000000L

static long tree_size(const ast *a)
{
	if (!a)
		return 0;
	long n = 1;
	for (int i = 0; i < a->nkid; i++)
		n += tree_size(a->kid[i]);
	return n;
}

/* Wraps term in the range cut if(clearance <= limit, term, 0) (nothing when limit is +inf). */
static ast *cut(const pex *o, double limit, ast *term)
{
	if (limit == INFINITY)
		return term;
	return ifx(LE(cp(o->clr), num(limit)), term, num(0.0));
}

/* The agent's own velocity component k (0: x, 1: y): speed * cos/sin(heading). */
static ast *own_vel(const em *e, int k)
{
	return MUL(var(e, SW_STATE_V), (k ? SIN(var(e, SW_STATE_PHI)) : COS(var(e, SW_STATE_PHI))));
}

/* Component k of the velocity of the other agent of item m. */
static ast *other_vel(const em *e, const item *m, int k)
{
	const sw_emit_agent *a = &e->c->agents[m->agent];
	ast *phi = sw_expr_ast_variable(a->phi_name, a->phi_slot, SW_EXPR_REAL);
	return MUL(sw_expr_ast_variable(a->v_name, a->v_slot, SW_EXPR_REAL),
		   k ? SIN(phi) : COS(phi));
}

/* first + terms[0] + terms[1] + ... folded in that order (all taken; first may be NULL). */
static ast *sum_after(ast *first, ast **terms, int n)
{
	if (n == 0)
		return first;
	if (!first)
		return sw__emit_fold(SW_EXPR_ADD, terms, n);
	ast **all = malloc(((size_t)n + 1) * sizeof *all);
	if (!all) {
		sw_expr_ast_free(first);
		free_all(terms, n);
		return NULL;
	}
	all[0] = first;
	for (int i = 0; i < n; i++)
		all[i + 1] = terms[i];
	ast *s = sw__emit_fold(SW_EXPR_ADD, all, n + 1);
	free(all);
	return s;
}

/* A list of trees with a failure flag and their total size. */
typedef struct list {
	ast **t;
	int n;
	int ok;
	long nodes;
} list;

static void list_push(list *l, ast *a)
{
	if (!a)
		l->ok = 0;
	l->nodes += tree_size(a);
	l->t[l->n++] = a;
}

/* Whether the terms so far already make a flow larger than SW_EMIT_MAX_NODES (the heading and
 * speed flows of <ttc> and <sf> hold both components of the acceleration). */
static int too_big(const list *a, const list *b)
{
	return a->nodes + (b ? b->nodes : 0) > SW_EMIT_MAX_NODES;
}

static void list_free(list *l)
{
	if (l->t)
		free_all(l->t, l->n);
	free(l->t);
	l->t = NULL;
	l->n = 0;
}

static int list_init(list *l, int cap)
{
	l->t = calloc((size_t)cap + 1, sizeof *l->t);
	l->n = 0;
	l->nodes = 0;
	l->ok = l->t != NULL;
	return l->ok;
}

/* sw__hard_walls() on (out[0], out[1]) (taken and replaced): two passes over the static obstacles
 * within limit.  Returns SW_SUCCESS, SW_ENOMEM or SW_EUSAGE (tree beyond SW_EMIT_MAX_NODES). */
static int hard_walls(const item *it, int n, double t_contact, double limit, ast *out[2])
{
	if (!(t_contact > 0.0))
		return SW_SUCCESS;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < n; i++) {
			const item *m = &it[i];
			if (m->is_agent)
				continue;
			const pex *o = &m->p[0];
			/* each output takes its own running value twice and the other's once */
			long s0 = tree_size(out[0]), s1 = tree_size(out[1]);
			if (2 * s0 + s1 > SW_EMIT_MAX_NODES || s0 + 2 * s1 > SW_EMIT_MAX_NODES)
				return SW_EUSAGE;
			/* n = d / |d|, cap = max(clearance, 0) / t_contact, excess = out.n - cap */
			ast *acts = GT(cp(o->dist), num(0.0));
			if (limit != INFINITY)
				acts = AND(acts, LE(cp(o->clr), num(limit)));
			ast *nx = DIV(cp(o->dx), cp(o->dist)), *ny = DIV(cp(o->dy), cp(o->dist));
			ast *cap = DIV(MAX(cp(o->clr), num(0.0)), num(t_contact));
			ast *excess =
			    SUB(ADD(MUL(cp(out[0]), cp(nx)), MUL(cp(out[1]), cp(ny))), cap);
			ast *mx = ifx(cp(acts), MUL(MAX(cp(excess), num(0.0)), nx), num(0.0));
			ast *my = ifx(acts, MUL(MAX(excess, num(0.0)), ny), num(0.0));
			out[0] = SUB(out[0], mx);
			out[1] = SUB(out[1], my);
			if (!out[0] || !out[1])
				return SW_ENOMEM;
		}
	return SW_SUCCESS;
}

/* Speed and heading rates of a second-order law from the acceleration (a0, a1) (taken), as rhs.c
 * velocity_rhs: along = a.e, perp = a1 e0 - a0 e1 (a0, a1 each used once per flow). */
static void velocity_flows(const em *e, ast *a0, ast *a1, double v_min, int backwards,
			   ast *out[SW_STATE_DIM])
{
	ast *c = COS(var(e, SW_STATE_PHI)), *s = SIN(var(e, SW_STATE_PHI));
	ast *along = ADD(MUL(cp(a0), cp(c)), MUL(cp(a1), cp(s)));
	ast *perp = SUB(MUL(a1, c), MUL(a0, s));
	ast *v = var(e, SW_STATE_V);
	if (backwards) {
		out[SW_STATE_V] = along;
		ast *sg = ifx(LT(cp(v), num(0.0)), num(-1.0), num(1.0));
		out[SW_STATE_PHI] = DIV(perp, MUL(sg, MAX(ABS(v), num(v_min))));
	} else {
		out[SW_STATE_V] = MAX(along, ifx(GT(cp(v), num(0.0)), num(-DBL_MAX), num(0.0)));
		out[SW_STATE_PHI] = DIV(perp, MAX(v, num(v_min)));
	}
}

/* --- <ttc>: Karamouzas, Skinner & Guy 2014 (ttc.c) ------------------------------------------ */

/* The pair force of item m (sw_ttc_force with x = -d, v = u - u_j), components into f[0..1]. */
static void ttc_pair(const em *e, const sw_ttc_params *p, const item *m, ast *f[2])
{
	const pex *o = &m->p[0];
	ast *x[2] = {NEG(cp(o->dx)), NEG(cp(o->dy))}, *v[2];
	for (int k = 0; k < 2; k++) {
		v[k] = own_vel(e, k);
		if (m->is_agent)
			v[k] = SUB(v[k], other_vel(e, m, k));
	}
	double r = o->rho_c + e->c->radius;
	ast *c = SUB(ADD(MUL(cp(x[0]), cp(x[0])), MUL(cp(x[1]), cp(x[1]))), num(r * r));
	ast *a = ADD(MUL(cp(v[0]), cp(v[0])), MUL(cp(v[1]), cp(v[1])));
	ast *b = NEG(ADD(MUL(cp(x[0]), cp(v[0])), MUL(cp(x[1]), cp(v[1]))));
	ast *d = SUB(MUL(cp(b), cp(b)), MUL(cp(a), cp(c)));
	ast *tau = DIV(cp(c), ADD(cp(b), SQRT(cp(d))));
	ast *valid = AND(AND(GT(a, num(0.0)), GT(b, num(0.0))), GT(cp(d), num(0.0)));
	ast *pushed = OR(LT(c, num(0.0)), AND(cp(valid), EQ(cp(tau), num(0.0))));
	ast *ahead = AND(valid, GT(cp(tau), num(0.0)));
	/* g = k exp(-tau / tau0) / tau^2 (2 / tau + 1 / tau0) / sqrt(d), capped at f_max / |n| */
	ast *g = DIV(
	    MUL(DIV(MUL(num(p->k), EXP(DIV(NEG(cp(tau)), num(p->tau0)))), MUL(cp(tau), cp(tau))),
		ADD(DIV(num(2.0), cp(tau)), num(1.0 / p->tau0))),
	    SQRT(d));
	ast *nv[2];
	for (int k = 0; k < 2; k++)
		nv[k] = ADD(cp(x[k]), MUL(cp(tau), cp(v[k])));
	sw_expr_ast_free(tau);
	ast *mag = MUL(cp(g), SQRT(ADD(MUL(cp(nv[0]), cp(nv[0])), MUL(cp(nv[1]), cp(nv[1])))));
	g = MUL(g, MIN(num(1.0), DIV(num(p->f_max), mag)));
	for (int k = 0; k < 2; k++) {
		ast *push = ifx(GT(cp(o->dist), num(0.0)),
				DIV(MUL(num(p->f_max), cp(x[k])), cp(o->dist)), num(0.0));
		f[k] = ifx(cp(pushed), push, ifx(cp(ahead), MUL(cp(g), nv[k]), num(0.0)));
		sw_expr_ast_free(x[k]);
		sw_expr_ast_free(v[k]);
	}
	sw_expr_ast_free(pushed);
	sw_expr_ast_free(ahead);
	sw_expr_ast_free(g);
}

/* The goal velocity (v_pref rotated e_goal, arrival-capped) into g[0..1]; NULL without target. */
static void ttc_goal(const em *e, const sw_ttc_params *p, ast *g[2])
{
	g[0] = g[1] = NULL;
	if (!e->c->has_target)
		return;
	ast *dx, *dy;
	target_vec(e, &dx, &dy);
	ast *dist = len(dx, dy);
	ast *vp = num(p->v_pref);
	if (p->t_arrive > 0.0)
		vp = ifx(LT(cp(dist), num(p->v_pref * p->t_arrive)),
			 DIV(cp(dist), num(p->t_arrive)), vp);
	ast *ex = DIV(dx, cp(dist)), *ey = DIV(dy, cp(dist));
	if (p->bias != 0.0) {
		double sb = sin(p->bias), cb = cos(p->bias);
		ast *rx = SUB(MUL(num(cb), cp(ex)), MUL(num(sb), cp(ey)));
		ey = ADD(MUL(num(sb), ex), MUL(num(cb), ey));
		ex = rx;
	}
	g[0] = ifx(GT(cp(dist), num(0.0)), MUL(cp(vp), ex), num(0.0));
	g[1] = ifx(GT(dist, num(0.0)), MUL(vp, ey), num(0.0));
}

int sw__emit_ttc(const em *e, const sw_ttc_params *p, ast *out[SW_STATE_DIM])
{
	int n = 0;
	item *it = sw__emit_items_build(e, INFINITY, &n);
	if (!it)
		return SW_ENOMEM;
	double limit = fmin(e->c->perception, p->range);
	list fx, fy;
	int ok = list_init(&fx, n) & list_init(&fy, n);
	for (int i = 0; ok && i < n; i++) {
		ast *f[2];
		ttc_pair(e, p, &it[i], f);
		list_push(&fx, cut(&it[i].p[0], limit, f[0]));
		list_push(&fy, cut(&it[i].p[0], limit, f[1]));
		ok = fx.ok && fy.ok;
	}
	if (ok && too_big(&fx, &fy)) {
		list_free(&fx);
		list_free(&fy);
		sw__emit_items_free(it, n);
		return SW_EUSAGE;
	}
	ast *g[2];
	ttc_goal(e, p, g);
	ast *acc[2] = {NULL, NULL};
	for (int k = 0; k < 2 && ok; k++) {
		/* (g - u) / xi, then the pair forces in the perception's order */
		ast *base = DIV(SUB(g[k] ? g[k] : num(0.0), own_vel(e, k)), num(p->xi));
		g[k] = NULL;
		list *l = k ? &fy : &fx;
		acc[k] = sum_after(base, l->t, l->n);
		l->n = 0;
		ok = acc[k] != NULL;
	}
	sw_expr_ast_free(g[0]);
	sw_expr_ast_free(g[1]);
	list_free(&fx);
	list_free(&fy);
	int st = SW_ENOMEM;
	if (!ok) {
		sw_expr_ast_free(acc[0]);
		sw_expr_ast_free(acc[1]);
	} else {
		velocity_flows(e, acc[0], acc[1], p->v_min, 0, out);
		ast *u[2] = {own_vel(e, 0), own_vel(e, 1)};
		st = u[0] && u[1] ? hard_walls(it, n, p->t_contact, limit, u) : SW_ENOMEM;
		out[SW_STATE_X] = u[0];
		out[SW_STATE_Y] = u[1];
	}
	sw__emit_items_free(it, n);
	return st;
}

/* --- <sf>: Helbing & Molnar 1995, Helbing, Farkas & Vicsek 2000 (sf.c) ---------------------- */

/* The force of item m on the agent (sw_sf_force with x = -d, du = u_j - u). */
static void sf_pair(const em *e, const sw_sf_params *p, const item *m, ast *f[2])
{
	const pex *o = &m->p[0];
	ast *du[2];
	for (int k = 0; k < 2; k++) {
		du[k] = NEG(own_vel(e, k));
		if (m->is_agent)
			du[k] = ADD(du[k], other_vel(e, m, k));
	}
	ast *nx = DIV(NEG(cp(o->dx)), cp(o->dist)), *ny = DIV(NEG(cp(o->dy)), cp(o->dist));
	ast *ov = SUB(num(o->rho_c + e->c->radius), cp(o->dist));
	/* anisotropy w = lambda + (1 - lambda) 0.5 (1 - em.n), em the direction of motion */
	ast *w;
	if (p->lambda == 1.0) {
		w = num(1.0);
	} else {
		ast *dot = ADD(MUL(COS(var(e, SW_STATE_PHI)), cp(nx)),
			       MUL(SIN(var(e, SW_STATE_PHI)), cp(ny)));
		dot = MUL(ifx(LT(var(e, SW_STATE_V), num(0.0)), num(-1.0), num(1.0)), dot);
		w = ADD(num(p->lambda), MUL(num((1.0 - p->lambda) * 0.5), SUB(num(1.0), dot)));
	}
	ast *pos = MAX(cp(ov), num(0.0));
	ast *normal = ADD(MUL(MUL(w, num(p->a)), EXP(DIV(ov, num(p->b)))), MUL(num(p->k), cp(pos)));
	/* t = (-n_y, n_x): slide = kappa g(r - d) (du.t) */
	ast *slide = MUL(MUL(num(p->kappa), pos), ADD(MUL(du[0], NEG(cp(ny))), MUL(du[1], cp(nx))));
	ast *on = GT(cp(o->dist), num(0.0));
	f[0] = ifx(cp(on), ADD(MUL(cp(slide), NEG(cp(ny))), MUL(cp(normal), cp(nx))), num(0.0));
	f[1] = ifx(on, ADD(MUL(slide, nx), MUL(normal, ny)), num(0.0));
}

int sw__emit_sf(const em *e, const sw_sf_params *p, ast *out[SW_STATE_DIM])
{
	const sw_emit_ctx *c = e->c;
	int n = 0;
	item *it = sw__emit_items_build(e, INFINITY, &n);
	if (!it)
		return SW_ENOMEM;
	double limit = fmin(c->perception, p->range);
	list fx, fy;
	int ok = list_init(&fx, n) & list_init(&fy, n);
	for (int i = 0; ok && i < n; i++) {
		ast *f[2];
		sf_pair(e, p, &it[i], f);
		list_push(&fx, cut(&it[i].p[0], limit, f[0]));
		list_push(&fy, cut(&it[i].p[0], limit, f[1]));
		ok = fx.ok && fy.ok;
	}
	sw__emit_items_free(it, n);
	if (ok && too_big(&fx, &fy)) {
		list_free(&fx);
		list_free(&fy);
		return SW_EUSAGE;
	}
	/* driving velocity v0 e0 */
	ast *g[2] = {NULL, NULL};
	if (c->has_target) {
		ast *dx, *dy;
		target_vec(e, &dx, &dy);
		ast *dist = len(dx, dy);
		g[0] = ifx(GT(cp(dist), num(0.0)), DIV(MUL(num(p->v0), dx), cp(dist)), num(0.0));
		g[1] = ifx(GT(cp(dist), num(0.0)), DIV(MUL(num(p->v0), dy), cp(dist)), num(0.0));
		sw_expr_ast_free(dist);
	}
	ast *acc[2] = {NULL, NULL};
	for (int k = 0; k < 2 && ok; k++) {
		/* (g - u) / tau + (sum of forces) / m */
		ast *drive = DIV(SUB(g[k] ? g[k] : num(0.0), own_vel(e, k)), num(p->tau));
		g[k] = NULL;
		list *l = k ? &fy : &fx;
		ast *f = sum_after(NULL, l->t, l->n);
		l->n = 0;
		acc[k] =
		    f ? ADD(drive, DIV(f, num(p->mass))) : ADD(drive, DIV(num(0.0), num(p->mass)));
		ok = acc[k] != NULL;
	}
	sw_expr_ast_free(g[0]);
	sw_expr_ast_free(g[1]);
	list_free(&fx);
	list_free(&fy);
	if (!ok) {
		sw_expr_ast_free(acc[0]);
		sw_expr_ast_free(acc[1]);
		return SW_ENOMEM;
	}
	velocity_flows(e, acc[0], acc[1], p->v_min, 1, out);
	out[SW_STATE_X] = own_vel(e, 0);
	out[SW_STATE_Y] = own_vel(e, 1);
	return SW_SUCCESS;
}

/* --- <csm>: Tordeux, Chraibi & Seyfried 2016; walls as Xu et al. 2019 (csm.c) --------------- */

/* 1 for a wall percept as csm.c sees it: a static primitive seen with rho 0. */
static int csm_wall(const item *m)
{
	return !m->is_agent && m->p[0].rho == NULL && m->p[0].rho_c == 0.0;
}

int sw__emit_csm(const em *e, const sw_csm_params *p, ast *out[SW_STATE_DIM])
{
	const sw_emit_ctx *c = e->c;
	int n = 0;
	item *it = sw__emit_items_build(e, INFINITY, &n);
	if (!it)
		return SW_ENOMEM;
	double limit = fmin(c->perception, p->range);
	/* Direction sum z = e0 - sum_j r_j d_j / |d_j| (the goal direction first). */
	list zx, zy;
	int ok = list_init(&zx, n + 1) & list_init(&zy, n + 1);
	ast *tdx = NULL, *tdy = NULL, *tdist = NULL;
	if (ok && c->has_target) {
		target_vec(e, &tdx, &tdy);
		tdist = len(tdx, tdy);
		list_push(&zx, ifx(GT(cp(tdist), num(0.0)), DIV(cp(tdx), cp(tdist)), num(0.0)));
		list_push(&zy, ifx(GT(cp(tdist), num(0.0)), DIV(cp(tdy), cp(tdist)), num(0.0)));
		ok = zx.ok && zy.ok;
	}
	for (int i = 0; ok && i < n; i++) {
		const pex *o = &it[i].p[0];
		int wall = csm_wall(&it[i]);
		ast *r = MUL(num(wall ? p->a_wall : p->a),
			     EXP(DIV(NEG(cp(o->clr)), num(wall ? p->d_wall : p->d))));
		ast *acts = GT(cp(o->dist), num(0.0));
		if (limit != INFINITY)
			acts = AND(LE(cp(o->clr), num(limit)), acts);
		list_push(&zx,
			  ifx(cp(acts), NEG(DIV(MUL(cp(r), cp(o->dx)), cp(o->dist))), num(0.0)));
		list_push(&zy, ifx(acts, NEG(DIV(MUL(r, cp(o->dy)), cp(o->dist))), num(0.0)));
		ok = zx.ok && zy.ok;
	}
	ast *z[2] = {NULL, NULL};
	if (ok) {
		z[0] = zx.n ? sw__emit_fold(SW_EXPR_ADD, zx.t, zx.n) : num(0.0);
		z[1] = zy.n ? sw__emit_fold(SW_EXPR_ADD, zy.t, zy.n) : num(0.0);
		zx.n = zy.n = 0;
		ok = z[0] && z[1];
	}
	list_free(&zx);
	list_free(&zy);
	ast *zl = ok ? len(z[0], z[1]) : NULL;
	ast *dir[2] = {DIV(cp(z[0]), cp(zl)), DIV(cp(z[1]), cp(zl))};
	sw_expr_ast_free(z[0]);
	sw_expr_ast_free(z[1]);

	/* Speed: min over the bodies in the swept strip ahead of V(s_j), v0 when none. */
	list vs;
	ok = list_init(&vs, n) && ok;
	for (int i = 0; ok && i < n; i++) {
		if (csm_wall(&it[i]))
			continue;
		const pex *o = &it[i].p[0];
		ast *ahead = ADD(MUL(cp(o->dx), cp(dir[0])), MUL(cp(o->dy), cp(dir[1])));
		ast *side = SUB(MUL(cp(o->dx), cp(dir[1])), MUL(cp(o->dy), cp(dir[0])));
		ast *in = AND(GT(ahead, num(0.0)), LT(ABS(side), num(o->rho_c + c->radius)));
		if (limit != INFINITY)
			in = AND(LE(cp(o->clr), num(limit)), in);
		ast *v = MIN(MAX(DIV(cp(o->clr), num(p->time_gap)), num(0.0)), num(p->v0));
		list_push(&vs, ifx(in, v, num(p->v0)));
		ok = vs.ok && !too_big(&vs, NULL);
	}
	int big = vs.ok && too_big(&vs, NULL);
	ast *v = NULL;
	if (ok) {
		v = vs.n ? sw__emit_fold(SW_EXPR_MIN, vs.t, vs.n) : num(p->v0);
		vs.n = 0;
		if (p->t_arrive > 0.0 && c->has_target)
			v = MIN(v, DIV(cp(tdist), num(p->t_arrive)));
	}
	list_free(&vs);
	sw_expr_ast_free(tdx);
	sw_expr_ast_free(tdy);
	sw_expr_ast_free(tdist);
	/* u = V e while |z| > 0, else 0; then the hard walls */
	ast *moves = GT(zl, num(0.0));
	ast *u[2] = {ifx(cp(moves), MUL(cp(v), dir[0]), num(0.0)),
		     ifx(moves, MUL(v, dir[1]), num(0.0))};
	int st = big            ? SW_EUSAGE
		 : u[0] && u[1] ? hard_walls(it, n, p->t_contact, limit, u)
				: SW_ENOMEM;
	sw__emit_items_free(it, n);
	out[SW_STATE_X] = u[0];
	out[SW_STATE_Y] = u[1];
	return st;
}
