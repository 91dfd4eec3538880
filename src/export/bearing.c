/* export/bearing.c - bearings as state variables: exact Fajen-Warren flows for Flow*.
 *
 * The FW law (docs/models.md, eq. (13)) reads the goal and every obstacle through the wrapped
 * bearing e = wrap(phi - psi), which the emitter writes
 *     e = atan2(A, B),  A = sin(phi) (X - x) - cos(phi) (Y - y),  B = cos(phi) (X - x) + sin(phi) (Y - y),
 * and through |e| and the perception cut-off if(clearance <= P, term, 0).  atan2 is outside the
 * hyst and juliareach profiles, so flows.c would replace the turning acceleration by a bounded
 * input; here it stays exact instead:
 *   - e becomes a lifted state variable (sw_hvar.lifted = atan2(A, B)) whose flow is its time
 *     derivative along the location's flows, and whose initial value is atan2's interval over
 *     the initial set (xb_lifted_initial).  A and B are the rotation by -phi of (DX, DY) =
 *     (X - x, Y - y), so e = phi - psi (mod 2 pi) with psi = atan2(DY, DX), and
 *         e' = phi' - psi',  psi' = (DX DY' - DY DX') / (DX^2 + DY^2),
 *     rational in the state (with sin and cos of the heading) and much shorter than the
 *     derivative of atan2(A, B) itself, (B A' - A B') / (A^2 + B^2), which is used for a
 *     bearing of any other shape;
 *   - the simulator's e jumps by -+2 pi when it passes +-pi (sw_wrap_angle), the lifted one is
 *     continuous: every location where e moves gets the invariant -pi <= e <= pi and two
 *     self-loops, e >= pi -> e := e - 2 pi and e <= -pi -> e := e + 2 pi (time_in_mode kept),
 *     so the exported e equals the simulator's at all times; at +-pi exactly both values are
 *     allowed (the law is discontinuous there), an over-approximation;
 *   - |e| is written sqrt(e^2) (rewrite.c), exact;
 *   - a perception cut-off if(clearance <= P, term, 0) is decided by interval arithmetic over
 *     the reachable box (x, y within the start, widened by --initial, +- speed T: FW's speed is
 *     constant), exact up to the cfg horizon T; an undecided one becomes term * u with an input
 *     u in [0, 1] (the obstacle terms are tiny near the perception radius, exp(-c4 d)).
 * FW and GLM agents in a static scene are lifted, plain or through a behaviour automaton whose
 * moving modes all use them (the reachable box then takes the fastest mode's speed); a moving
 * scene puts t into the bearing.  GLM: lift.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core_internal.h"
#include "export_internal.h"

/* What decide_ifs() needs to add an input for an undecided cut-off. */
typedef struct cutoffs {
	struct xb *b;
	xl_ctx *c;
	int loc;
	int decided, relaxed; /* cut-offs decided, and written with an input */
} cutoffs;

/* Replaces every if() of *pa whose condition the box decides (xf_decide_cond, lift.c) by the
 * branch taken; an undecided if(cond, term, 0) becomes term * u with a new input u in [0, 1]
 * (both values of the if are in term [0, 1]: an over-approximation, one input per cut-off since
 * each holds on its own); -1 for any other undecided if. */
static int decide_ifs(sw_expr_ast **pa, const xf_box *bx, cutoffs *co)
{
	sw_expr_ast *a = *pa;
	for (int i = 0; i < a->nkid; i++)
		if (decide_ifs(&a->kid[i], bx, co) != 0)
			return -1;
	if (a->op != SW_EXPR_IF)
		return 0;
	int r = xf_decide_cond(a->kid[0], bx);
	if (r >= 0) {
		int keep = r == 1 ? 1 : 2;
		*pa = a->kid[keep];
		a->kid[keep] = NULL;
		sw_expr_ast_free(a);
		co->decided++;
		return 0;
	}
	if (a->kid[2]->op != SW_EXPR_NUM || a->kid[2]->value != 0.0)
		return -1;
	char name[SW_NAME_MAX];
	snprintf(name, sizeof name, "u_perceive_%d", co->relaxed + 1);
	int k = xb_input_var(co->b, co->c->comp, co->loc, name, 0.0, 1.0,
			     "perception cut-off of one obstacle term (0 or 1)");
	if (k < 0)
		return -1;
	*pa = xn_op(SW_EXPR_MUL, a->kid[1], xn_var(co->c->comp, k));
	a->kid[1] = NULL;
	sw_expr_ast_free(a);
	co->relaxed++;
	return *pa ? 0 : -1;
}

/* a with every atan2 and asin replaced by 0 (a new tree): what the profile must accept once
 * they are state. */
static sw_expr_ast *without_lifted(const sw_expr_ast *a)
{
	if (a->op == SW_EXPR_ATAN2 || a->op == SW_EXPR_ASIN)
		return xn_num(0);
	sw_expr_ast *t = sw_expr_ast_clone(a);
	for (int i = 0; t && i < t->nkid; i++) {
		sw_expr_ast_free(t->kid[i]);
		if (!(t->kid[i] = without_lifted(a->kid[i]))) {
			sw_expr_ast_free(t);
			return NULL;
		}
	}
	return t;
}

static int reads_var(const sw_expr_ast *a, int k)
{
	if (a->op == SW_EXPR_VAR && a->slot == k)
		return 1;
	for (int i = 0; i < a->nkid; i++)
		if (reads_var(a->kid[i], k))
			return 1;
	return 0;
}

/* Start box of agent ag's state (its world state widened by the --initial ranges) into
 * slo, shi (n slots, the others unbounded), and of x, y into *xlo.. (the reachable box's centre). */
static void start_box(const struct xb *b, int agent, int n, double *slo, double *shi)
{
	const sw_agent *ag = &b->m->agents[agent];
	int dim = 0;
	const double *y = sw_world_unit_state(b->w, agent, &dim);
	for (int k = 0; k < n; k++) {
		slo[k] = k < SW_STATE_DIM && k < dim ? y[k] : -INFINITY;
		shi[k] = k < SW_STATE_DIM && k < dim ? y[k] : INFINITY;
	}
	for (int r = 0; r < b->def.n_ranges; r++) {
		const sw_export_range *g = &b->def.ranges[r];
		if (!g->agent || strcmp(g->agent, ag->name) != 0 || !g->var)
			continue;
		for (int k = 0; k < SW_STATE_DIM && k < n; k++)
			if (strcmp(g->var, xb_state_names[k]) == 0)
				slo[k] = fmin(slo[k], g->lo), shi[k] = fmax(shi[k], g->hi);
	}
}

sw_expr_ast *xb_bearing_flow(struct xb *b, xl_ctx *c, int loc, const sw_steer_def *def,
			     const sw_expr_ast *flow)
{
	sw_export_profile p = b->def.profile;
	if (!(sw__law_flags(def->law) & SW__LAW_EXPORT_BEARINGS) || b->scene_moves || b->def.linear ||
	    (p != SW_PROFILE_HYST && p != SW_PROFILE_JULIAREACH))
		return NULL;
	const sw_agent *ag = &c->m->agents[c->agent];
	double T = b->def.time_horizon > 0 ? b->def.time_horizon : c->m->run.duration;
	/* another agent's position (perceived agents) has no flow here: its bearing's rate would
	 * need the other's velocity, so such flows keep the over-approximation */
	for (int k = c->comp->n_state; k < c->comp->n_vars; k++)
		if (c->comp->vars[k].role == SW_HVAR_READ && reads_var(flow, k))
			return NULL;
	/* the reachable box: the fastest of the agent's moving modes (each with bearings) */
	double speed = 0.0;
	for (int q = 0; q < (c->a ? c->a->n_modes : 1); q++) {
		const sw_steer_def *d = c->a ? &c->a->modes[q].steer : def;
		if (c->a && !c->a->modes[q].moves)
			continue;
		const sw__law_table *t = sw__law_table_of(d->law);
		if (!t || !(t->flags & SW__LAW_EXPORT_BEARINGS) || !(t->flags & SW__LAW_SPEED_CAPPED))
			return NULL;
		speed = fmax(speed, fabs(sw__law_at(d, t->speed_off)));
	}
	double reach = speed * T;
	int n = c->comp->n_vars;
	double *lo = malloc(((size_t)n + 1) * sizeof *lo), *hi = malloc(((size_t)n + 1) * sizeof *hi);
	double *slo = malloc(((size_t)n + 1) * sizeof *slo), *shi = malloc(((size_t)n + 1) * sizeof *shi);
	sw_expr_ast *t = sw_expr_ast_clone(flow);
	if (!lo || !hi || !slo || !shi || !t) {
		free(lo);
		free(hi);
		free(slo);
		free(shi);
		sw_expr_ast_free(t);
		b->status = SW_ENOMEM;
		return NULL;
	}
	start_box(b, c->agent, n, slo, shi);
	double xlo = fmin(slo[SW_STATE_X], ag->position.x), xhi = fmax(shi[SW_STATE_X], ag->position.x);
	double ylo = fmin(slo[SW_STATE_Y], ag->position.y), yhi = fmax(shi[SW_STATE_Y], ag->position.y);
	for (int k = 0; k < n; k++)
		lo[k] = -INFINITY, hi[k] = INFINITY;
	lo[SW_STATE_X] = xlo - reach, hi[SW_STATE_X] = xhi + reach;
	lo[SW_STATE_Y] = ylo - reach, hi[SW_STATE_Y] = yhi + reach;
	cutoffs co = {b, c, loc, 0, 0};
	xf_box bx = {n, lo, hi, NULL, 0};
	int ok = def->law != SW_LAW_GLM || xf_glm_flow(b, c, loc, def, &t, &bx, slo, shi) >= 0;
	ok = ok && decide_ifs(&t, &bx, &co) == 0;
	xf_box_free(&bx);
	free(lo);
	free(hi);
	free(slo);
	free(shi);
	sw_expr_ast *probe = ok ? without_lifted(t) : NULL;
	const char *why = NULL;
	sw_expr_ast *q = probe ? xr_profile(probe, p, &why) : NULL;
	sw_expr_ast_free(probe);
	if (!q) {
		sw_expr_ast_free(t);
		return NULL;
	}
	sw_expr_ast_free(q);
	b->bearings = 1;
	if (co.decided)
		xb_note(b, c->where, 1,
			"%d perception cut-offs (clearance <= %.10g) decided over the reachable box "
			"x in [%.10g, %.10g], y in [%.10g, %.10g] (start +- speed %.10g x horizon "
			"%.10g s): exact up to the horizon",
			co.decided, ag->perception, xlo - reach, xhi + reach, ylo - reach, yhi + reach,
			speed, T);
	if (co.relaxed)
		xb_note(b, c->where, 1,
			"%d perception cut-offs if(clearance <= %.10g, term, 0) undecided over the "
			"reachable box: written term * u_perceive_K with an input u_perceive_K in [0, 1]",
			co.relaxed, ag->perception);
	return t;
}

/* The first node of kind op in a (depth first), or NULL. */
static const sw_expr_ast *find_op(const sw_expr_ast *a, sw_expr_op op)
{
	if (!a)
		return NULL;
	if (a->op == op)
		return a;
	for (int i = 0; i < a->nkid; i++) {
		const sw_expr_ast *f = find_op(a->kid[i], op);
		if (f)
			return f;
	}
	return NULL;
}

/* Whether f is atan2(sin(h) DX - cos(h) DY, cos(h) DX + sin(h) DY) (the emitter's bearing);
 * then *h, *dx, *dy point into f. */
static int bearing_parts(const sw_expr_ast *f, const sw_expr_ast **h, const sw_expr_ast **dx,
			 const sw_expr_ast **dy)
{
	const sw_expr_ast *A = f->kid[0], *B = f->kid[1];
	if (A->op != SW_EXPR_SUB || B->op != SW_EXPR_ADD)
		return 0;
	const sw_expr_ast *a1 = A->kid[0], *a2 = A->kid[1], *b1 = B->kid[0], *b2 = B->kid[1];
	if (a1->op != SW_EXPR_MUL || a2->op != SW_EXPR_MUL || b1->op != SW_EXPR_MUL ||
	    b2->op != SW_EXPR_MUL)
		return 0;
	if (a1->kid[0]->op != SW_EXPR_SIN || a2->kid[0]->op != SW_EXPR_COS ||
	    b1->kid[0]->op != SW_EXPR_COS || b2->kid[0]->op != SW_EXPR_SIN)
		return 0;
	*h = a1->kid[0]->kid[0];
	*dx = a1->kid[1];
	*dy = a2->kid[1];
	return sw_expr_ast_equal(a2->kid[0]->kid[0], *h) && sw_expr_ast_equal(b1->kid[0]->kid[0], *h) &&
	       sw_expr_ast_equal(b2->kid[0]->kid[0], *h) && sw_expr_ast_equal(b1->kid[1], *dx) &&
	       sw_expr_ast_equal(b2->kid[1], *dy);
}

/* The flow of bearing g in location l: phi' - psi' for the emitter's bearings, else the
 * derivative of g itself (NULL with *why on failure). */
static sw_expr_ast *bearing_rate(struct xb *b, const sw_hcomponent *c, int l, const sw_expr_ast *g,
				 const char **why)
{
	const sw_expr_ast *h, *dx, *dy;
	if (!bearing_parts(g, &h, &dx, &dy))
		return xb_lie_derivative(b, c, l, g, why);
	sw_expr_ast *psi = xn_op(SW_EXPR_ATAN2, sw_expr_ast_clone(dy), sw_expr_ast_clone(dx));
	sw_expr_ast *dh = xb_lie_derivative(b, c, l, h, why);
	sw_expr_ast *dpsi = psi ? xb_lie_derivative(b, c, l, psi, why) : NULL;
	sw_expr_ast_free(psi);
	if (!dh || !dpsi) {
		sw_expr_ast_free(dh);
		sw_expr_ast_free(dpsi);
		return NULL;
	}
	if (dpsi->op == SW_EXPR_NUM && dpsi->value == 0.0) {
		sw_expr_ast_free(dpsi);
		return dh;
	}
	return xn_op(SW_EXPR_SUB, dh, dpsi);
}

/* Replaces every subtree of *pa equal to f by variable k of c. */
static int replace_equal(sw_expr_ast **pa, const sw_expr_ast *f, const sw_hcomponent *c, int k)
{
	if (sw_expr_ast_equal(*pa, f)) {
		sw_expr_ast *v = xn_var(c, k);
		if (!v)
			return SW_ENOMEM;
		sw_expr_ast_free(*pa);
		*pa = v;
		return SW_SUCCESS;
	}
	for (int i = 0; i < (*pa)->nkid; i++)
		if (replace_equal(&(*pa)->kid[i], f, c, k) != SW_SUCCESS)
			return SW_ENOMEM;
	return SW_SUCCESS;
}

/* Invariant -pi <= e <= pi and the two wrapping self-loops of bearing k in location l. */
static void wrap_bearing(struct xb *b, sw_hcomponent *c, int l, int k)
{
	xb_inv_add(b, l, xn_op(SW_EXPR_LE, xn_var(c, k), xn_num(SW_PI)));
	xb_inv_add(b, l, xn_op(SW_EXPR_GE, xn_var(c, k), xn_num(-SW_PI)));
	for (int side = 0; side < 2 && b->status == SW_SUCCESS; side++) {
		sw_expr_ast **r = calloc((size_t)c->n_state + 1, sizeof *r);
		sw_expr_ast *atom = xn_op(side ? SW_EXPR_LE : SW_EXPR_GE, xn_var(c, k),
					  xn_num(side ? -SW_PI : SW_PI));
		int ok = r && atom;
		for (int j = 0; ok && j < c->n_state; j++)
			ok = (r[j] = j == k ? xn_op(SW_EXPR_ADD, xn_var(c, k),
						    xn_num(side ? 2 * SW_PI : -2 * SW_PI))
					    : xn_var(c, j)) != NULL;
		xr_conj q = {1, 1, &atom, 0};
		if (ok)
			xb_add_transition(b, c, l, l, "", &q, r, -1);
		else
			b->status = SW_ENOMEM;
		sw_expr_ast_free(atom);
		xb_free_resets(r, c->n_state);
	}
}

/* The rate of lifted variable k in every location (flows[l], new): a bearing's by
 * bearing_rate(), anything else its time derivative; NULL entries with *why on failure. */
static int lifted_rates(struct xb *b, sw_hcomponent *c, int k, sw_expr_ast **flows,
			const char **why)
{
	const sw_expr_ast *g = c->vars[k].lifted;
	for (int l = 0; l < c->n_locations; l++) {
		flows[l] = g->op == SW_EXPR_ATAN2 ? bearing_rate(b, c, l, g, why)
						  : xb_lie_derivative(b, c, l, g, why);
		if (!flows[l])
			return 0;
	}
	return 1;
}

/* Invariant dpsi <= asin(N / R) (d >= R) of a lifted GLM half-width k whose d a zone of agent u
 * names, in every location where it moves; the zone or NULL. */
static const xb_zone_t *half_width_zone(struct xb *b, sw_hcomponent *c, int u, int k)
{
	const sw_expr_ast *q = c->vars[k].lifted->kid[0];
	const xb_zone_t *z = NULL;
	for (int j = 0; !z && j < b->n_zones; j++)
		if (b->zones[j].agent == u && q->op == SW_EXPR_DIV && q->kid[0]->op == SW_EXPR_NUM &&
		    q->kid[0]->value == b->zones[j].N && sw_expr_ast_equal(q->kid[1], b->zones[j].d))
			z = &b->zones[j];
	for (int l = 0; z && l < c->n_locations && b->status == SW_SUCCESS; l++) {
		const sw_expr_ast *fl = c->locations[l].flow[k];
		if (!(fl->op == SW_EXPR_NUM && fl->value == 0.0))
			xb_inv_add(b, l, xn_op(SW_EXPR_LE, xn_var(c, k), xn_num(asin(z->N / z->R))));
	}
	return z;
}

/* What a lifted variable is, for report.txt. */
static void lifted_note(struct xb *b, sw_hcomponent *c, int u, int k, const char *where)
{
	int half = c->vars[k].lifted->op == SW_EXPR_ASIN; /* the profile has no asin to print */
	char *arg = half ? xw_expr(b->h, c->vars[k].lifted->kid[0]) : NULL;
	size_t n = arg ? strlen(arg) + 8 : 0;
	char *text = half ? (arg ? malloc(n) : NULL) : xw_expr(b->h, c->vars[k].lifted);
	if (text && half)
		snprintf(text, n, "asin(%s)", arg);
	free(arg);
	if (!text) {
		b->status = SW_ENOMEM;
		return;
	}
	if (half) {
		const xb_zone_t *z = half_width_zone(b, c, u, k);
		snprintf(c->vars[k].meaning, sizeof c->vars[k].meaning, "GLM half-width: %.70s",
			 text);
		if (z)
			xb_note(b, where, 1,
				"the GLM window half-width %s (eqs. (5)-(6)) is the state variable %s "
				"(flow: its time derivative q' / sqrt(1 - q^2)); its contact branch, the "
				"window cap and the speed law (12) are decided on the region distance >= "
				"%.10g m, kept by the invariant %s <= %.10g; the unsafe set of that "
				"obstacle is widened to the same disc (a flowpipe leaving the region "
				"touches it)",
				text, c->vars[k].name, z->R, c->vars[k].name, asin(z->N / z->R));
		else
			xb_note(b, where, 1,
				"the GLM window half-width %s (eqs. (5)-(6)) is the state variable %s "
				"(flow: its time derivative q' / sqrt(1 - q^2)); its branches are "
				"decided over the reachable box",
				text, c->vars[k].name);
		free(text);
		return;
	}
	int moving = 0;
	for (int l = 0; l < c->n_locations && b->status == SW_SUCCESS; l++) {
		const sw_expr_ast *fl = c->locations[l].flow[k];
		if (fl->op == SW_EXPR_NUM && fl->value == 0.0)
			continue;
		wrap_bearing(b, c, l, k);
		moving = 1;
	}
	snprintf(c->vars[k].meaning, sizeof c->vars[k].meaning, "bearing: %.80s", text);
	xb_note(b, where, 1,
		"the bearing %s (FW eq. (13), GLM eqs. (3)-(4)) is the state variable %s: its flow "
		"is its time derivative (heading' - psi' with psi the direction to the point), its "
		"initial value atan2 over the initial set%s; the law's terms in it stay exact",
		text, c->vars[k].name,
		moving ? ", and self-loops wrap it into [-pi, pi] as the simulator does "
			 "(both values at +-pi)"
		       : "");
	free(text);
}

/* Every atan2 (bearings) and asin (GLM half-widths, lift.c) of the flows of c becomes a lifted
 * state variable: first all of them with placeholder flows, each replaced in every flow by its
 * variable; then their rates, which read x', y' and heading' with the others as variables. */
int xb_lift_bearings(struct xb *b, sw_hcomponent *c, int u, const char *unit)
{
	if (!b->bearings)
		return SW_SUCCESS;
	b->bearings = 0;
	char where[256];
	snprintf(where, sizeof where, "%.60s (%.60s)", c->id, unit);
	int first = c->n_state;
	for (;;) {
		const sw_expr_ast *f = NULL;
		for (int pass = 0; !f && pass < 2; pass++)
			for (int l = 0; !f && l < c->n_locations; l++)
				for (int k = 0; !f && k < c->n_state; k++)
					f = find_op(c->locations[l].flow[k],
						    pass ? SW_EXPR_ASIN : SW_EXPR_ATAN2);
		if (!f || b->status != SW_SUCCESS)
			break;
		sw_expr_ast *g = sw_expr_ast_clone(f);
		sw_expr_ast **flows = calloc((size_t)c->n_locations + 1, sizeof *flows);
		char *text = g ? xw_expr(b->h, g) : NULL;
		int ok = g && flows && text;
		for (int l = 0; ok && l < c->n_locations; l++)
			ok = (flows[l] = xn_num(0)) != NULL;
		if (!ok) {
			for (int l = 0; flows && l < c->n_locations; l++)
				sw_expr_ast_free(flows[l]);
			free(flows);
			sw_expr_ast_free(g);
			free(text);
			return b->status = SW_ENOMEM;
		}
		int k = xb_add_lifted(b, c, u, g, flows, text);
		free(flows);
		free(text);
		if (k < 0)
			return b->status;
		for (int l = 0; l < c->n_locations && b->status == SW_SUCCESS; l++)
			for (int j = 0; j < c->n_state && b->status == SW_SUCCESS; j++)
				if (replace_equal(&c->locations[l].flow[j], c->vars[k].lifted, c, k))
					b->status = SW_ENOMEM;
	}
	int last = c->n_state;
	for (int k = first; k < last && b->status == SW_SUCCESS; k++) {
		sw_expr_ast **flows = calloc((size_t)c->n_locations + 1, sizeof *flows);
		const char *why = NULL;
		int ok = flows && lifted_rates(b, c, k, flows, &why);
		for (int l = 0; flows && l < c->n_locations; l++) {
			if (ok) {
				sw_expr_ast_free(c->locations[l].flow[k]);
				c->locations[l].flow[k] = flows[l];
			} else {
				sw_expr_ast_free(flows[l]);
			}
		}
		free(flows);
		if (!ok && why)
			return xb_refuse(b, 0, "%s: the time derivative of a lifted atan2 or asin has "
					       "no form in the profile (%s)", where, why);
		if (!ok)
			return b->status = SW_ENOMEM;
	}
	for (int k = first; k < last && b->status == SW_SUCCESS; k++)
		lifted_note(b, c, u, k, where);
	/* The flows now read bearings as variables: into the profile (abs -> sqrt). */
	for (int l = 0; l < c->n_locations && b->status == SW_SUCCESS; l++)
		for (int j = 0; j < c->n_state && b->status == SW_SUCCESS; j++) {
			const char *why = NULL;
			sw_expr_ast *p = xr_profile(c->locations[l].flow[j], b->def.profile, &why);
			if (!p)
				return xb_refuse(b, 0, "%s: a flow keeps a function outside the profile "
						       "after lifting its bearings (%s)", where,
						 why ? why : "?");
			sw_expr_ast_free(c->locations[l].flow[j]);
			c->locations[l].flow[j] = p;
		}
	return b->status;
}
