/* export/flows.c - the flows of a moving location: emitted, profiled, over-approximated.
 *
 * The law's flows come from its symbolic emitter (sw_steer_emit) with the scene folded in.  In
 * the exact profile they are kept as they are.  Otherwise each one is rewritten into the
 * profile's functions (rewrite.c); a flow that still needs a function the tool lacks (the GLM
 * heading needs atan2 and asin, the speed law min and if) is replaced by a sound interval
 * over-approximation: the quantity becomes a bounded input u (an uncontrolled variable with its
 * bounds in the location invariant), from bounds that hold for every state:
 *   GLM heading rate   |w_tar f_tar + w_obs f_obs| <= |a| + N   (|f_tar| <= |a|, |R W D| <= 1
 *                      per obstacle, weights in [0, 1]; N = obstacles and agents perceivable);
 *                      with agility the lag stays exact: turn_rate' = lk (u - turn_rate)
 *   GLM speed          v_cmd in [-v_max, v_max] (eq. 12; [v_max, v_max] for constant speed);
 *                      x' = v cos(heading), y' = v sin(heading) stay exact with v = u_speed (or
 *                      the speed state with a mass lag, speed' = lm (u_speed - speed))
 *   GLM weights        w(1 - w^2) <= 2 / (3 sqrt 3) on [0, 1], a1 <= |a1_scale|, a2 in [0, 1],
 *                      g12 <= exp(|c2| (N + 1)):
 *                      w_tar' in [-(|a1s| K + g12max) / eps, |a1s| K / eps],
 *                      w_obs' in [-(K + |g21|) / eps, K / eps]
 *   FW                 turn_rate' = -b turn_rate + u, |u| <= kg pi (1 + c2) + N ko peak(c3)
 *   wall following     heading' = u, |u| <= |a|
 *   potential field    x' = u_x, y' = u_y, |u| <= speed
 * Every replacement is recorded for the report. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core_internal.h"
#include "export_internal.h"
#include "swerve/steer.h"

/* 2 / (3 sqrt 3): the largest value of w (1 - w^2) on [0, 1]. */
static const double CUBIC_MAX = 0.38490017945975052;

const char *const xb_state_names[SW_STATE_DIM] = {"x",     "y",     "heading", "turn_rate",
						  "speed", "w_tar", "w_obs"};
const char *const xb_state_meaning[SW_STATE_DIM] = {
    "position x (m)", "position y (m)", "heading (rad)", "turning rate (rad/s)",
    "speed (m/s)",    "target weight",  "obstacle weight"};

sw_export_profile xb_profile(const struct xb *b)
{
	return b->def.profile;
}

int xb_max_disjuncts(const struct xb *b)
{
	return b->def.max_disjuncts > 0 ? b->def.max_disjuncts : 1;
}

void xb_note(struct xb *b, const char *where, int sound, const char *fmt, ...)
{
	sw_hybrid *h = b->h;
	if (xi_grow((void **)&h->approx, &b->cap_approx, h->n_approx + 1, sizeof *h->approx))
		return;
	sw_happrox *a = &h->approx[h->n_approx];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->what, sizeof a->what, fmt, ap);
	va_end(ap);
	snprintf(a->where, sizeof a->where, "%s", where);
	a->sound = sound;
	/* the same sentence at the same place once */
	for (int k = 0; k < h->n_approx; k++)
		if (strcmp(h->approx[k].where, a->where) == 0 && strcmp(h->approx[k].what, a->what) == 0)
			return;
	h->n_approx++;
}

int xb_add_var(struct xb *b, sw_hcomponent *c, const char *name, sw_hvar_role role,
	       const char *meaning, const char *net)
{
	int n = c->n_vars;
	int k = xi_add_var(c, name, role, meaning);
	if (k < 0 || xi_grow((void **)&b->map, &b->cap_map, c->n_vars, sizeof *b->map))
		return b->status = SW_ENOMEM, -1;
	if (k == n)
		snprintf(b->map[k], sizeof b->map[k], "%s", net ? net : "");
	return k;
}

int xb_read_var(xl_ctx *c, const char *name, const char *net, const char *meaning)
{
	return xb_add_var(c->b, c->comp, name, SW_HVAR_READ, meaning, net);
}

int xb_time_var(xl_ctx *c)
{
	c->b->need_t = 1;
	return xb_read_var(c, "t", "t", "global time (s)");
}

int xb_other_agent_var(xl_ctx *c, int j, int coord)
{
	char name[SW_NAME_MAX], net[2 * SW_NAME_MAX], meaning[96];
	snprintf(name, sizeof name, "o%d_%s", j < c->agent ? j + 1 : j, coord ? "y" : "x");
	snprintf(net, sizeof net, "%s_%s", c->b->unit_name[j], coord ? "y" : "x");
	snprintf(meaning, sizeof meaning, "position %s of agent '%.60s' (m)", coord ? "y" : "x",
		 c->m->agents[j].name);
	return xb_read_var(c, name, net, meaning);
}

int xb_input_var(struct xb *b, sw_hcomponent *c, int loc, const char *name, double lo, double hi,
		 const char *meaning)
{
	int k = xb_add_var(b, c, name, SW_HVAR_INPUT, meaning, "");
	if (k < 0 || xi_grow((void **)&b->bounds, &b->cap_bounds, b->n_bounds + 1, sizeof *b->bounds))
		return b->status = SW_ENOMEM, -1;
	b->bounds[b->n_bounds++] = (xb_bound){loc, k, lo, hi};
	return k;
}

int xb_inv_add(struct xb *b, int loc, sw_expr_ast *atom)
{
	xr_conj *q = &b->inv[loc];
	if (!atom || xi_grow((void **)&q->atom, &q->cap, q->n + 1, sizeof *q->atom)) {
		sw_expr_ast_free(atom);
		return b->status = SW_ENOMEM;
	}
	q->atom[q->n++] = atom;
	return SW_SUCCESS;
}

int xb_refuse(struct xb *b, int line, const char *fmt, const char *a1, const char *a2)
{
	sw_diag_add(b->diag, SW_SEV_ERROR, b->m->file, line, 0, fmt, a1, a2);
	if (b->status == SW_SUCCESS)
		b->status = SW_EINPUT;
	return SW_EINPUT;
}

/* Largest |e exp(-c3 |e|)| for |e| <= pi. */
static double fw_obstacle_peak(double c3)
{
	if (c3 > 0.0 && 1.0 / c3 < M_PI)
		return 1.0 / (c3 * M_E);
	return M_PI * exp(-c3 * M_PI);
}

static sw_expr_ast *times_trig(sw_expr_ast *v, const sw_hcomponent *comp, sw_expr_op trig)
{
	return xn_op(SW_EXPR_MUL, v, xn_call(trig, xn_var(comp, SW_STATE_PHI)));
}

/* GLM replacements (see the header comment). */
static void glm_overapprox(struct xb *b, xl_ctx *c, int loc, const sw_glm_params *p,
			   const sw_personality *pers, int n_obs, sw_expr_ast *flow[],
			   const int bad[], int done[], const char *why)
{
	sw_hcomponent *comp = c->comp;
	double B = fabs(p->a) + n_obs;
	double vlo = p->speed == SW_SPEED_CONSTANT ? p->v_max : -p->v_max, vhi = p->v_max;
	int agile = pers && pers->has_agility, heavy = pers && pers->has_mass;
	double lk = 0.0, lm = 0.0;
	if (agile)
		lk = pers->lambda_k_min + fmin(1.0, fmax(0.0, pers->agility)) *
						(pers->lambda_k_max - pers->lambda_k_min);
	if (heavy)
		lm = pers->lambda_m_max -
		     fmin(1.0, fmax(0.0, pers->mass)) * (pers->lambda_m_max - pers->lambda_m_min);
#define SET(k, e)                                                                                  \
	do {                                                                                       \
		sw_expr_ast_free(flow[k]);                                                         \
		flow[k] = (e);                                                                     \
		done[k] = 1;                                                                       \
	} while (0)
	if (bad[SW_STATE_PHI] || bad[SW_STATE_OMEGA]) {
		int u = xb_input_var(b, comp, loc, "u_heading", -B, B,
				     "heading rate of the law before any lag (rad/s)");
		if (agile) {
			SET(SW_STATE_PHI, xn_var(comp, SW_STATE_OMEGA));
			SET(SW_STATE_OMEGA,
			    xn_op(SW_EXPR_MUL, xn_num(lk),
				  xn_op(SW_EXPR_SUB, xn_var(comp, u), xn_var(comp, SW_STATE_OMEGA))));
		} else {
			SET(SW_STATE_PHI, xn_var(comp, u));
			SET(SW_STATE_OMEGA, xn_num(0));
		}
		xb_note(b, c->where, 1,
			"heading rate: the GLM law needs %s; exported as an input u_heading in "
			"[-%.10g, %.10g] (|a| + %d perceivable obstacles: |f_tar| <= |a|, |f_obs_i| "
			"<= 1, weights in [0, 1])%s",
			why, B, B, n_obs, agile ? ", passed through the agility lag" : "");
	}
	if (bad[SW_STATE_V] || bad[SW_STATE_X] || bad[SW_STATE_Y]) {
		int u = xb_input_var(b, comp, loc, "u_speed", vlo, vhi,
				     "commanded speed of the law (m/s)");
		sw_expr_ast *v = heavy ? xn_var(comp, SW_STATE_V) : xn_var(comp, u);
		sw_expr_ast *v2 = v ? sw_expr_ast_clone(v) : NULL;
		if (heavy)
			SET(SW_STATE_V,
			    xn_op(SW_EXPR_MUL, xn_num(lm),
				  xn_op(SW_EXPR_SUB, xn_var(comp, u), xn_var(comp, SW_STATE_V))));
		else
			SET(SW_STATE_V, xn_num(0));
		SET(SW_STATE_X, times_trig(v, comp, SW_EXPR_COS));
		SET(SW_STATE_Y, times_trig(v2, comp, SW_EXPR_SIN));
		xb_note(b, c->where, 1,
			"speed: the speed law (12) needs functions outside the profile; exported as "
			"an input u_speed in [%.10g, %.10g]%s; x' = v cos(heading) and y' = v "
			"sin(heading) stay exact",
			vlo, vhi, heavy ? " passed through the mass lag" : "");
	}
	if (bad[SW_STATE_WTAR] || bad[SW_STATE_WOBS]) {
		double g12 = exp(fabs(p->c2) * (n_obs + 1.0)), a1 = fabs(p->a1_scale);
		double tl = -(a1 * CUBIC_MAX + g12) / p->eps, th = a1 * CUBIC_MAX / p->eps;
		double ol = -(CUBIC_MAX + fabs(p->g21)) / p->eps, oh = CUBIC_MAX / p->eps;
		int ut = xb_input_var(b, comp, loc, "u_w_tar", tl, th, "rate of w_tar (1/s)");
		int uo = xb_input_var(b, comp, loc, "u_w_obs", ol, oh, "rate of w_obs (1/s)");
		SET(SW_STATE_WTAR, xn_var(comp, ut));
		SET(SW_STATE_WOBS, xn_var(comp, uo));
		xb_note(b, c->where, 1,
			"weights: the competition (8)-(10) needs %s; w_tar' and w_obs' are exported "
			"as inputs in [%.10g, %.10g] and [%.10g, %.10g] (weights in [0, 1], a2 in "
			"[0, 1], g12 <= exp(|c2| (N + 1)))",
			why, tl, th, ol, oh);
	}
#undef SET
}

/* Replaces the flows marked bad by sound interval over-approximations. */
static int overapprox(struct xb *b, xl_ctx *c, int loc, const sw_steer_def *def,
		      const sw_personality *pers, int n_obs, sw_expr_ast *flow[SW_STATE_DIM],
		      const int bad[SW_STATE_DIM], const char *why)
{
	sw_hcomponent *comp = c->comp;
	int done[SW_STATE_DIM] = {0};
	int u;
	switch (def->law) {
	case SW_LAW_GLM:
		glm_overapprox(b, c, loc, &def->glm, pers, n_obs, flow, bad, done, why);
		break;
	case SW_LAW_FW: {
		const sw_fw_params *p = &def->fw;
		double K = fabs(p->kg) * M_PI * (1.0 + fabs(p->c2)) +
			   n_obs * fabs(p->ko) * fw_obstacle_peak(p->c3);
		if (bad[SW_STATE_PHI] || bad[SW_STATE_OMEGA]) {
			u = xb_input_var(b, comp, loc, "u_turn_rate", -K, K,
					 "goal and obstacle terms of eq. (13) (rad/s^2)");
			sw_expr_ast_free(flow[SW_STATE_PHI]);
			sw_expr_ast_free(flow[SW_STATE_OMEGA]);
			flow[SW_STATE_PHI] = xn_var(comp, SW_STATE_OMEGA);
			flow[SW_STATE_OMEGA] =
			    xn_op(SW_EXPR_ADD,
				  xn_op(SW_EXPR_MUL, xn_num(-p->b), xn_var(comp, SW_STATE_OMEGA)),
				  xn_var(comp, u));
			done[SW_STATE_PHI] = done[SW_STATE_OMEGA] = 1;
			xb_note(b, c->where, 1,
				"turning acceleration: the FW law needs %s; exported as -b turn_rate + "
				"u_turn_rate with u_turn_rate in [-%.10g, %.10g]",
				why, K, K);
		}
		if (bad[SW_STATE_X] || bad[SW_STATE_Y]) {
			sw_expr_ast_free(flow[SW_STATE_X]);
			sw_expr_ast_free(flow[SW_STATE_Y]);
			flow[SW_STATE_X] = times_trig(xn_num(p->speed), comp, SW_EXPR_COS);
			flow[SW_STATE_Y] = times_trig(xn_num(p->speed), comp, SW_EXPR_SIN);
			done[SW_STATE_X] = done[SW_STATE_Y] = 1;
		}
		break;
	}
	case SW_LAW_WALL: {
		const sw_wall_params *p = &def->wall;
		if (bad[SW_STATE_PHI]) {
			u = xb_input_var(b, comp, loc, "u_heading", -fabs(p->a), fabs(p->a),
					 "heading rate of the law (rad/s)");
			sw_expr_ast_free(flow[SW_STATE_PHI]);
			flow[SW_STATE_PHI] = xn_var(comp, u);
			done[SW_STATE_PHI] = 1;
			xb_note(b, c->where, 1,
				"heading rate: the wall-following law needs %s; exported as an input "
				"u_heading in [-%.10g, %.10g]",
				why, fabs(p->a), fabs(p->a));
		}
		if (bad[SW_STATE_X] || bad[SW_STATE_Y]) {
			sw_expr_ast_free(flow[SW_STATE_X]);
			sw_expr_ast_free(flow[SW_STATE_Y]);
			flow[SW_STATE_X] = times_trig(xn_num(p->speed), comp, SW_EXPR_COS);
			flow[SW_STATE_Y] = times_trig(xn_num(p->speed), comp, SW_EXPR_SIN);
			done[SW_STATE_X] = done[SW_STATE_Y] = 1;
		}
		break;
	}
	case SW_LAW_PF: {
		double s = fabs(def->pf.speed);
		if (bad[SW_STATE_X] || bad[SW_STATE_Y]) {
			int ux = xb_input_var(b, comp, loc, "u_x", -s, s, "velocity x (m/s)");
			int uy = xb_input_var(b, comp, loc, "u_y", -s, s, "velocity y (m/s)");
			sw_expr_ast_free(flow[SW_STATE_X]);
			sw_expr_ast_free(flow[SW_STATE_Y]);
			flow[SW_STATE_X] = xn_var(comp, ux);
			flow[SW_STATE_Y] = xn_var(comp, uy);
			done[SW_STATE_X] = done[SW_STATE_Y] = 1;
			xb_note(b, c->where, 1,
				"velocity: the potential-field direction needs %s; x' and y' are "
				"exported as inputs in [-%.10g, %.10g]",
				why, s, s);
		}
		break;
	}
	case SW_LAW_TTC:
	case SW_LAW_SF: break; /* refused before any flow is built (network.c refuse_laws) */
	}
	if (b->status != SW_SUCCESS)
		return b->status;
	for (int k = 0; k < SW_STATE_DIM; k++) {
		if (bad[k] && !done[k])
			return xb_refuse(b, c->m->agents[c->agent].line,
					 "%s: the flow of '%s' has no form in the profile and no "
					 "over-approximation is known for it",
					 c->where, xb_state_names[k]);
		if (!flow[k])
			return b->status = SW_ENOMEM;
	}
	return SW_SUCCESS;
}

/* The emitter's view of the scene: obstacles and the other agents. */
static int emit_scene(struct xb *b, xl_ctx *c, sw_emit_ctx *ec, sw_emit_obstacle *obs,
		      sw_emit_agent *oth)
{
	const sw_model *m = b->m;
	for (int k = 0; k < m->n_prims; k++) {
		const sw_prim *pr = &m->prims[k];
		const sw_motion *mo = &m->obstacles[pr->owner].motion;
		obs[k] = (sw_emit_obstacle){pr->is_segment, pr->a.x, pr->a.y, pr->b.x, pr->b.y,
					    pr->radius, 0.0, 0.0, k};
		if (mo->kind == SW_MOTION_LINEAR) {
			obs[k].vx = mo->velocity.x;
			obs[k].vy = mo->velocity.y;
		}
	}
	ec->n_obs = m->n_prims;
	ec->obs = obs;
	int n = 0;
	for (int j = 0; m->run.agents_perceive && j < m->n_agents; j++) {
		if (j == c->agent)
			continue;
		int kx = xb_other_agent_var(c, j, 0), ky = xb_other_agent_var(c, j, 1);
		if (kx < 0 || ky < 0)
			return SW_ENOMEM;
		oth[n++] = (sw_emit_agent){kx, ky, c->comp->vars[kx].name, c->comp->vars[ky].name,
					   m->agents[j].radius, -1 - j};
	}
	ec->n_agents = n;
	ec->agents = oth;
	return SW_SUCCESS;
}

/* Whether state component k of a law's flow depends on the scene (the components each law's
 * over-approximation replaces). */
static int scene_dependent(const sw_steer_def *def, int k)
{
	switch (def->law) {
	case SW_LAW_GLM: return 1;
	case SW_LAW_FW: return k == SW_STATE_PHI || k == SW_STATE_OMEGA;
	case SW_LAW_WALL: return k == SW_STATE_PHI;
	case SW_LAW_PF: return k == SW_STATE_X || k == SW_STATE_Y;
	default: return 1;
	}
}

int xb_law_flows(struct xb *b, xl_ctx *c, int loc, const sw_steer_def *def, int tgt,
		 sw_expr_ast *flow[SW_STATE_DIM])
{
	const sw_model *m = b->m;
	const sw_agent *ag = &m->agents[c->agent];
	sw_emit_ctx ec;
	memset(&ec, 0, sizeof ec);
	ec.t_slot = -1;
	if (b->scene_moves && (ec.t_slot = xb_time_var(c)) < 0)
		return SW_ENOMEM;
	ec.radius = ag->radius;
	ec.perception = ag->perception;
	/* Scenes the emitter cannot fold exactly: the flows that depend on them are forced to
	 * their interval over-approximations (whose bounds hold whatever the scene does). */
	const char *forced = tgt <= -2 ? "the position of another agent as its target" : NULL;
	for (int o = 0; o < m->n_obstacles; o++)
		if (m->obstacles[o].motion.kind == SW_MOTION_WAYPOINTS)
			forced = "an obstacle moving along waypoints (no closed form in time)";
	if (tgt >= 0) {
		const sw_target *tg = &m->targets[tgt];
		if (tg->motion.kind == SW_MOTION_WAYPOINTS)
			forced = "a target moving along waypoints (no closed form in time)";
		ec.has_target = 1;
		ec.tx = tg->position.x;
		ec.ty = tg->position.y;
		if (tg->motion.kind == SW_MOTION_LINEAR) { /* waypoints: forced above */
			ec.tvx = tg->motion.velocity.x;
			ec.tvy = tg->motion.velocity.y;
		}
	}
	sw_emit_obstacle *obs = calloc((size_t)m->n_prims + 1, sizeof *obs);
	sw_emit_agent *oth = calloc((size_t)m->n_agents + 1, sizeof *oth);
	int st = obs && oth ? emit_scene(b, c, &ec, obs, oth) : SW_ENOMEM;
	/* names last: the scene may have added variables (vars may have moved) */
	for (int k = 0; k < SW_STATE_DIM; k++) {
		ec.slot[k] = k;
		ec.name[k] = c->comp->vars[k].name;
	}
	if (ec.t_slot >= 0)
		ec.t_name = c->comp->vars[ec.t_slot].name;
	for (int j = 0; st == SW_SUCCESS && j < ec.n_agents; j++) {
		oth[j].x_name = c->comp->vars[oth[j].x_slot].name;
		oth[j].y_name = c->comp->vars[oth[j].y_slot].name;
	}
	sw_expr_ast *out[SW_STATE_DIM] = {NULL};
	const sw_personality *pp = &ag->personality;
	if (st == SW_SUCCESS && (pp->agility_dist.kind || pp->mass_dist.kind || pp->courage_dist.kind)) {
		free(obs);
		free(oth);
		return xb_refuse(b, ag->line,
				 "%s: personality traits drawn from a distribution differ from run to "
				 "run; expected fixed numbers in an exported model%s",
				 c->where, "");
	}
	if (st == SW_SUCCESS && def->law == SW_LAW_GLM &&
	    (def->glm.cohesion != 0.0 || def->glm.alignment != 0.0)) {
		free(obs);
		free(oth);
		return xb_refuse(b, ag->line,
				 "%s: the flocking attractors (glm cohesion, alignment) have no "
				 "symbolic form yet; expected cohesion=\"0\" and alignment=\"0\" in an "
				 "exported model%s",
				 c->where, "");
	}
	if (st == SW_SUCCESS && def->field[0]) {
		/* A grid field (plan.h) has no symbolic form the tools could read. */
		free(obs);
		free(oth);
		return xb_refuse(b, ag->line,
				 "%s: the law steers by the field '%s', which cannot be exported "
				 "(a grid has no symbolic flow); expected a law without field=",
				 c->where, def->field);
	}
	if (st == SW_SUCCESS)
		st = sw_steer_emit(def, &ag->personality, &ec, out);
	free(obs);
	free(oth);
	if (st == SW_ENOMEM)
		return b->status = SW_ENOMEM;
	if (st != SW_SUCCESS)
		return xb_refuse(b, ag->line, "%s: the symbolic emitter of the law failed (%s)",
				 c->where, sw_strerror(st));
	int bad[SW_STATE_DIM] = {0}, any = 0;
	const char *why = NULL;
	for (int k = 0; k < SW_STATE_DIM; k++) {
		const char *w1 = NULL;
		flow[k] = NULL;
		if (!(forced && scene_dependent(def, k)))
			flow[k] = xr_profile(out[k], xb_flow_profile(b), &w1);
		sw_expr_ast_free(out[k]);
		if (!flow[k]) {
			bad[k] = any = 1;
			if (!why && w1)
				why = w1;
		}
	}
	if (!any)
		return SW_SUCCESS;
	char whybuf[128];
	snprintf(whybuf, sizeof whybuf, "%s",
		 forced ? forced : why ? why : "functions outside the profile");
	int n_obs = m->n_prims + (m->run.agents_perceive ? m->n_agents - 1 : 0);
	return overapprox(b, c, loc, def, &ag->personality, n_obs, flow, bad, whybuf);
}

/* ---- linear abstraction --------------------------------------------------------------------
 *
 * Every non-constant flow x' == f of a location becomes x' == rate_x, rate_x an input bounded
 * by sw_expr_interval(f) over the location's region: a box that contains every state the
 * exported automaton can be in, in that location, during the time horizon T of the cfg.
 *   - x, y: init +- V T, V the agent's speed bound (|x'|, |y'| <= V in every location: GLM
 *     v_max, clamped by eq. (12) and the arrival cap; FW, wall and PF their constant speed (PF
 *     along a unit vector); the speed state when a mass lag makes it one).
 *   - speed, w_tar, w_obs: a candidate box, kept only when it contains the initial interval,
 *     every reset keeps it and, in every location, the flow on each face points inward
 *     (checked by interval arithmetic over the region: Nagumo's condition, so the box is
 *     invariant): speed in [-V, V] (a lag towards a command in [-v_max, v_max]); weights, both
 *     at once, in the first of [0, 1 + d], [0, 1], [-1 - d, 1 + d], [-1, 1] that passes
 *     (d = 1e-6 absorbs the simulator's integration error), else unbounded.  For eq. (8),
 *     w_tar' = (a1 w (1 - w^2) - g12 w_obs^2 w) / eps: w = 0 is an equilibrium (the flow is
 *     exactly 0 on that face), and on the face w = 1 + d the flow is <= 0 because
 *     a1 = a1_scale (1 - tanh D) >= 0 when a1_scale >= 0, 1 - w^2 < 0 and g12 = exp(.) > 0;
 *     likewise w_obs with a2 = tanh D and g21 >= 0.  The check is done on the exported trees,
 *     so other parameters (a1_scale < 0, g21 < 0) fall back to a wider box or none.
 *   - variables whose flow is a constant c in every location (clocks, time_in_mode, frozen
 *     variables, signal indices) and whose resets are identities or constants: the hull of the
 *     initial interval and the reset constants, plus [min(0, c) T, max(0, c) T].
 *   - t in [0, T]; other agents' positions as their own x, y; inputs their bounds in the
 *     location; everything else (heading, turning rate, automaton variables) unbounded.
 *   - intersected with the simple bounds (variable <= constant ...) of the location invariant.
 * Bounds are widened by a relative 1e-9 where computed in floating point. */

#define LIN_DRIFT 1e-6

typedef struct {
	int n;
	double *lo, *hi;
} lbox;

static double wlo(double v)
{
	return isfinite(v) ? v - 1e-9 * (1.0 + fabs(v)) : v;
}

static double whi(double v)
{
	return isfinite(v) ? v + 1e-9 * (1.0 + fabs(v)) : v;
}

/* Speed bound V of agent i over its moving modes (the laws' speeds) and its initial speed. */
static double speed_bound(const struct xb *b, int i, const double *v0, int *lag)
{
	const sw_model *m = b->m;
	const sw_agent *ag = &m->agents[i];
	const struct sw_automaton *a = ag->behaviour >= 0 ? m->automata[ag->behaviour] : NULL;
	double V = fmax(fabs(v0[0]), fabs(v0[1]));
	*lag = ag->personality.has_mass;
	for (int q = 0; q < (a ? a->n_modes : 1); q++) {
		if (a && !a->modes[q].moves)
			continue;
		const sw_steer_def *d = a ? &a->modes[q].steer : &ag->steer;
		switch (d->law) {
		case SW_LAW_GLM: {
			sw_glm_params g = sw_glm_with_personality(&d->glm, &ag->personality);
			V = fmax(V, fmax(fabs(g.v_max), fabs(d->glm.v_max)));
			break;
		}
		case SW_LAW_FW: V = fmax(V, fabs(d->fw.speed)); break;
		case SW_LAW_WALL: V = fmax(V, fabs(d->wall.speed)); break;
		case SW_LAW_PF: V = fmax(V, fabs(d->pf.speed)); break;
		default: V = INFINITY; break;
		}
	}
	return V;
}

/* Initial interval of state k of unit u (the world's value widened by def.ranges). */
static void init_range(const struct xb *b, const sw_hcomponent *c, int u, int k, double *lo,
		       double *hi)
{
	const sw_model *m = b->m;
	int dim = 0;
	const double *y = sw_world_unit_state(b->w, u, &dim);
	double v;
	if (c->vars[k].lifted) { /* its expression over the others' initial ranges */
		double *sl = calloc((size_t)c->n_state + 1, sizeof *sl);
		double *sh = calloc((size_t)c->n_state + 1, sizeof *sh);
		for (int j = 0; sl && sh && j < c->n_state; j++)
			if (!c->vars[j].lifted)
				init_range(b, c, u, j, &sl[j], &sh[j]);
		*lo = -INFINITY;
		*hi = INFINITY;
		if (!sl || !sh || xb_lifted_initial(c, (const char(*)[2 * SW_NAME_MAX])b->map, k, sl,
						    sh, lo, hi) != SW_SUCCESS) {
			*lo = -INFINITY;
			*hi = INFINITY;
		}
		free(sl);
		free(sh);
		return;
	}
	if (u >= m->n_agents)
		v = strcmp(c->vars[k].name, "loc") == 0 ? sw_world_unit_mode(b->w, u)
							 : y[SW_STATE_DIM + k];
	else
		v = k < dim ? y[k] : 0.0;
	*lo = *hi = v;
	for (int r = 0; u < m->n_agents && r < b->def.n_ranges; r++) {
		const sw_export_range *g = &b->def.ranges[r];
		if (g->agent && g->var && sw_model_find_agent(m, g->agent) == u &&
		    strcmp(g->var, c->vars[k].name) == 0 && isfinite(g->lo) && isfinite(g->hi) &&
		    g->lo <= g->hi) {
			*lo = g->lo;
			*hi = g->hi;
		}
	}
}

/* Position box of agent j over the horizon into lo[0..1], hi[0..1]; its speed bound in *V. */
static void position_box(const struct xb *b, const sw_hcomponent *c, int j, double T, double lo[2],
			 double hi[2])
{
	double v0[2];
	int lag;
	init_range(b, c, j, SW_STATE_V, &v0[0], &v0[1]);
	double V = speed_bound(b, j, v0, &lag);
	for (int k = 0; k < 2; k++) {
		init_range(b, c, j, k, &lo[k], &hi[k]);
		lo[k] = wlo(lo[k] - V * T);
		hi[k] = whi(hi[k] + V * T);
	}
}

/* Whether every reset of state k in c keeps it in [lo, hi] (identity or a constant inside). */
static int resets_keep(const sw_hcomponent *c, int k, double lo, double hi)
{
	for (int t = 0; t < c->n_transitions; t++) {
		const sw_expr_ast *r = c->transitions[t].reset[k];
		if (r->op == SW_EXPR_VAR && r->slot == k)
			continue;
		if (r->op == SW_EXPR_NUM && r->value >= lo && r->value <= hi)
			continue;
		return 0;
	}
	return 1;
}

/* Nagumo's condition for state k and the box [lo, hi] (already in box): on each face the flow
 * of k points inward in every location, the other variables ranging over box. */
static int box_invariant(const sw_hcomponent *c, int k, lbox *box, double lo, double hi,
			 const double *inlo, const double *inhi)
{
	double il, ih, ol, oh, save_lo = box->lo[k], save_hi = box->hi[k];
	int ok = !(inlo[k] < lo || inhi[k] > hi) && resets_keep(c, k, lo, hi);
	for (int l = 0; ok && l < c->n_locations; l++) {
		const sw_expr_ast *f = c->locations[l].flow[k];
		box->lo[k] = box->hi[k] = lo;
		int st = sw_expr_interval(f, box->lo, box->hi, &il, &ih);
		box->lo[k] = box->hi[k] = hi;
		int st2 = sw_expr_interval(f, box->lo, box->hi, &ol, &oh);
		ok = st != SW_EUSAGE && st2 != SW_EUSAGE && (il > ih || il >= 0.0) &&
		     (ol > oh || oh <= 0.0);
	}
	box->lo[k] = save_lo;
	box->hi[k] = save_hi;
	return ok;
}

/* The location-independent region of component c (unit u) into box. */
static void base_region(struct xb *b, const sw_hcomponent *c, int u, lbox *box, double *inlo,
			double *inhi, char *text, size_t n)
{
	const sw_model *m = b->m;
	double T = b->def.time_horizon > 0 ? b->def.time_horizon : m->run.duration;
	int agent = u < m->n_agents;
	for (int k = 0; k < c->n_vars; k++) {
		box->lo[k] = -INFINITY;
		box->hi[k] = INFINITY;
	}
	for (int k = 0; k < c->n_state; k++)
		init_range(b, c, u, k, &inlo[k], &inhi[k]);
	/* constant flows and constant resets */
	for (int k = 0; k < c->n_state; k++) {
		double cmin = 0.0, cmax = 0.0, lo = inlo[k], hi = inhi[k];
		int ok = 1;
		for (int l = 0; ok && l < c->n_locations; l++) {
			const sw_expr_ast *f = c->locations[l].flow[k];
			ok = f->op == SW_EXPR_NUM && isfinite(f->value);
			if (ok) {
				cmin = fmin(cmin, f->value);
				cmax = fmax(cmax, f->value);
			}
		}
		for (int t = 0; ok && t < c->n_transitions; t++) {
			const sw_expr_ast *r = c->transitions[t].reset[k];
			if (r->op == SW_EXPR_NUM) {
				lo = fmin(lo, r->value);
				hi = fmax(hi, r->value);
			} else {
				ok = r->op == SW_EXPR_VAR && r->slot == k;
			}
		}
		if (ok) {
			box->lo[k] = wlo(lo + cmin * T);
			box->hi[k] = whi(hi + cmax * T);
		}
	}
	sw__text why = sw__text_fixed(text, n);
	if (agent) {
		int lag;
		double pl[2], ph[2];
		double V = speed_bound(b, u, &inlo[SW_STATE_V], &lag);
		(void)lag;
		position_box(b, c, u, T, pl, ph);
		/* speed in [-V, V] when invariant (it bounds |x'| and |y'|) */
		int vok = isfinite(V) && box_invariant(c, SW_STATE_V, box, -V, V, inlo, inhi);
		if (vok) {
			box->lo[SW_STATE_V] = -V;
			box->hi[SW_STATE_V] = V;
		}
		for (int k = 0; vok && k < 2; k++) {
			box->lo[k] = pl[k];
			box->hi[k] = ph[k];
		}
		sw__text_printf(&why, "x, y within the start +- V T (V = %.10g m/s, T = %.10g s)%s", V,
				T, vok ? "" : " not proven: speed unbounded");
		/* weights, jointly: [0, 1 + d], [0, 1], [-1 - d, 1 + d] or [-1, 1] */
		static const double cand[4][2] = {
		    {0.0, 1.0 + LIN_DRIFT}, {0.0, 1.0}, {-1.0 - LIN_DRIFT, 1.0 + LIN_DRIFT}, {-1.0, 1.0}};
		int wok = 0;
		for (int ci = 0; ci < 4 && !wok; ci++) {
			double wl = cand[ci][0], wh = cand[ci][1];
			box->lo[SW_STATE_WTAR] = box->lo[SW_STATE_WOBS] = wl;
			box->hi[SW_STATE_WTAR] = box->hi[SW_STATE_WOBS] = wh;
			wok = box_invariant(c, SW_STATE_WTAR, box, wl, wh, inlo, inhi) &&
			      box_invariant(c, SW_STATE_WOBS, box, wl, wh, inlo, inhi);
			if (wok)
				sw__text_printf(&why,
						"; w_tar, w_obs in [%.10g, %.10g] (invariant: "
						"checked on its faces)",
						wl, wh);
		}
		if (!wok) {
			for (int k = SW_STATE_WTAR; k <= SW_STATE_WOBS; k++) {
				box->lo[k] = -INFINITY;
				box->hi[k] = INFINITY;
			}
			sw__text_put(&why, "; weights unbounded");
		}
	}
	/* read variables: t, other agents' positions */
	for (int k = c->n_state; k < c->n_vars; k++) {
		if (c->vars[k].role != SW_HVAR_READ)
			continue;
		if (strcmp(b->map[k], "t") == 0) {
			box->lo[k] = 0.0;
			box->hi[k] = whi(T);
		}
		for (int j = 0; j < m->n_agents; j++) {
			char nx[2 * SW_NAME_MAX], ny[2 * SW_NAME_MAX];
			snprintf(nx, sizeof nx, "%s_x", b->unit_name[j]);
			snprintf(ny, sizeof ny, "%s_y", b->unit_name[j]);
			int which = strcmp(b->map[k], nx) == 0 ? 0 : strcmp(b->map[k], ny) == 0 ? 1 : -1;
			if (which < 0)
				continue;
			double pl[2], ph[2];
			position_box(b, c, j, T, pl, ph);
			box->lo[k] = pl[which];
			box->hi[k] = ph[which];
		}
	}
	sw__text_put(&why, why.len ? "; " : "");
	sw__text_put(&why, "clocks and constant-rate variables from their rates; the rest unbounded");
	sw__text_end(&why);
}

/* Intersects box with the simple bounds VAR op NUM / NUM op VAR of the invariant atoms q. */
static void invariant_bounds(const xr_conj *q, lbox *box)
{
	for (int i = 0; i < q->n; i++) {
		const sw_expr_ast *a = q->atom[i];
		if (!a || a->nkid != 2)
			continue;
		int le = a->op == SW_EXPR_LE || a->op == SW_EXPR_LT;
		int ge = a->op == SW_EXPR_GE || a->op == SW_EXPR_GT;
		const sw_expr_ast *v = a->kid[0], *c = a->kid[1];
		if (v->op == SW_EXPR_NUM && c->op == SW_EXPR_VAR) { /* c op v: swap */
			const sw_expr_ast *t = v;
			v = c;
			c = t;
			int s = le;
			le = ge;
			ge = s;
		}
		if ((!le && !ge) || v->op != SW_EXPR_VAR || c->op != SW_EXPR_NUM ||
		    v->type != SW_EXPR_REAL || v->slot < 0 || v->slot >= box->n || isnan(c->value))
			continue;
		if (le)
			box->hi[v->slot] = fmin(box->hi[v->slot], c->value);
		else
			box->lo[v->slot] = fmax(box->lo[v->slot], c->value);
	}
}

/* The rate input of state k (created on first use, with a unique name). */
static int rate_var(struct xb *b, sw_hcomponent *comp, int loc, int k, int *rate, double lo,
		    double hi)
{
	char name[SW_NAME_MAX], meaning[96];
	if (rate[k] < 0) {
		snprintf(name, sizeof name, "rate_%.40s", comp->vars[k].name);
		for (int s = 2; s < 1000 && sw_hcomponent_find_var(comp, name) >= 0; s++)
			snprintf(name, sizeof name, "rate_%.40s_%d", comp->vars[k].name, s);
	} else {
		snprintf(name, sizeof name, "%s", comp->vars[rate[k]].name);
	}
	snprintf(meaning, sizeof meaning, "rate of %.60s (linear abstraction)", comp->vars[k].name);
	int v = xb_input_var(b, comp, loc, name, lo, hi, meaning);
	if (v >= 0)
		rate[k] = v;
	return v;
}

/* The analytic bound B of the GLM heading rate in location l of agent u's component (no
 * agility: heading' = |w_tar| f_tar + |w_obs| sum f_i with |f_tar| <= |a|, |f_i| <= 1, so
 * |heading'| <= (|a| + N) wmax, wmax the weights' proven bound), or INFINITY when none. */
static double glm_heading_bound(const struct xb *b, const sw_hcomponent *c, int u, int l,
				const lbox *base)
{
	const sw_model *m = b->m;
	if (u >= m->n_agents)
		return INFINITY;
	const sw_agent *ag = &m->agents[u];
	const struct sw_automaton *a = ag->behaviour >= 0 ? m->automata[ag->behaviour] : NULL;
	const sw_steer_def *d = NULL;
	if (!a && strcmp(c->locations[l].name, "steer") == 0)
		d = &ag->steer;
	else if (a && l < a->n_modes && a->modes[l].moves)
		d = &a->modes[l].steer;
	if (!d || d->law != SW_LAW_GLM || ag->personality.has_agility)
		return INFINITY;
	double wmax = 0.0;
	for (int k = SW_STATE_WTAR; k <= SW_STATE_WOBS; k++)
		wmax = fmax(wmax, fmax(fabs(base->lo[k]), fabs(base->hi[k])));
	sw_glm_params g = sw_glm_with_personality(&d->glm, &ag->personality);
	int n = m->n_prims + (m->run.agents_perceive ? m->n_agents - 1 : 0);
	return whi((fmax(fabs(g.a), fabs(d->glm.a)) + n) * wmax);
}

sw_export_profile xb_flow_profile(const struct xb *b)
{
	return b->def.linear ? SW_PROFILE_EXACT : b->def.profile;
}

int xb_linearize(struct xb *b, sw_hcomponent *comp, int u)
{
	const sw_model *m = b->m;
	int n0 = comp->n_vars, ns = comp->n_state;
	lbox base = {n0, calloc((size_t)n0 + 1, sizeof(double)), calloc((size_t)n0 + 1, sizeof(double))};
	lbox box = {n0, calloc((size_t)n0 + 1, sizeof(double)), calloc((size_t)n0 + 1, sizeof(double))};
	double *inlo = calloc((size_t)ns + 1, sizeof(double)), *inhi = calloc((size_t)ns + 1, sizeof(double));
	int *rate = malloc(((size_t)ns + 1) * sizeof *rate);
	char region[SW_DIAG_MSG - 64], where[256];
	if (!base.lo || !base.hi || !box.lo || !box.hi || !inlo || !inhi || !rate) {
		b->status = SW_ENOMEM;
		goto done;
	}
	for (int k = 0; k < ns; k++)
		rate[k] = -1;
	base_region(b, comp, u, &base, inlo, inhi, region, sizeof region);
	const char *unit = u < m->n_agents ? m->agents[u].name : m->signals[u - m->n_agents].name;
	snprintf(where, sizeof where, "%.60s (%s '%.60s')", comp->id,
		 u < m->n_agents ? "agent" : "signal", unit);
	int any = 0;
	for (int l = 0; l < comp->n_locations && b->status == SW_SUCCESS; l++) {
		memcpy(box.lo, base.lo, (size_t)n0 * sizeof(double));
		memcpy(box.hi, base.hi, (size_t)n0 * sizeof(double));
		for (int k = ns; k < n0; k++) {
			if (comp->vars[k].role != SW_HVAR_INPUT)
				continue;
			box.lo[k] = box.hi[k] = 0.0;
			for (int i = 0; i < b->n_bounds; i++)
				if (b->bounds[i].loc == l && b->bounds[i].var == k) {
					box.lo[k] = b->bounds[i].lo;
					box.hi[k] = b->bounds[i].hi;
				}
		}
		invariant_bounds(&b->inv[l], &box);
		for (int k = 0; k < n0; k++)
			if (box.lo[k] > box.hi[k]) { /* an empty invariant: no state, any rate */
				box.lo[k] = -INFINITY;
				box.hi[k] = INFINITY;
			}
		char lwhere[256 + SW_NAME_MAX];
		snprintf(lwhere, sizeof lwhere, "%.120s: location %s", where, comp->locations[l].name);
		for (int k = 0; k < ns && b->status == SW_SUCCESS; k++) {
			sw_expr_ast **f = &comp->locations[l].flow[k];
			if ((*f)->op == SW_EXPR_NUM)
				continue; /* constant flows stay exact */
			double lo, hi;
			int st = sw_expr_interval(*f, box.lo, box.hi, &lo, &hi);
			if (st == SW_EUSAGE) {
				xb_refuse(b, 0, "internal: %s: interval of the flow of '%s' failed", lwhere,
					  comp->vars[k].name);
				break;
			}
			if (lo > hi) { /* defined nowhere in the region: no state there */
				lo = -INFINITY;
				hi = INFINITY;
			}
			const char *also = "";
			if (k == SW_STATE_PHI && comp->vars[k].role == SW_HVAR_STATE &&
			    u < m->n_agents) {
				double B = glm_heading_bound(b, comp, u, l, &base);
				if (B < hi || -B > lo)
					also = ", intersected with the GLM bound (|a| + N) max|w| "
					       "(|f_tar| <= |a|, each repeller |R W D| <= 1)";
				lo = fmax(lo, -B);
				hi = fmin(hi, B);
			}
			sw_expr_ast *nf;
			if (st == SW_SUCCESS && lo == hi && isfinite(lo)) {
				nf = xn_num(lo); /* constant over the region: exact */
			} else {
				int rv = rate_var(b, comp, l, k, rate, lo, hi);
				if (rv < 0)
					break;
				nf = xn_var(comp, rv);
				xb_note(b, lwhere, 1,
					"linear abstraction: %s' == %s with %s in [%.10g, %.10g], the "
					"interval of its exact flow over the location's region%s%s",
					comp->vars[k].name, comp->vars[rv].name, comp->vars[rv].name, lo, hi,
					also, st == SW_ENUMERIC ? " (the flow may be undefined at some points of "
							    "the region: the bounds cover the points where "
							    "it is defined; an infinite bound is no "
							    "constraint)"
							  : "");
				any = 1;
			}
			if (!nf) {
				b->status = SW_ENOMEM;
				break;
			}
			sw_expr_ast_free(*f);
			*f = nf;
		}
	}
	if (any && b->status == SW_SUCCESS)
		xb_note(b, where, 1,
			"linear abstraction: the rate bounds hold over each location's region, which "
			"contains every state reachable within the cfg time horizon (not beyond): %s",
			region);
done:
	free(base.lo);
	free(base.hi);
	free(box.lo);
	free(box.hi);
	free(inlo);
	free(inhi);
	free(rate);
	return b->status;
}
