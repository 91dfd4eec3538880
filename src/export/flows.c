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
 *   <ttc>, <sf>, <csm>  none: exported in the exact profile only (SW__LAW_EXPORT_BOUNDED unset,
 *                      network.c refuse_mode); <ttc> and <sf> read the other agents' heading and
 *                      speed (their velocities)
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
	/* x, y, and for the laws that read velocities (<ttc>, <sf>) heading and speed */
	static const char *const what[4] = {"x", "y", "heading", "speed"};
	static const char *const unit[4] = {"position x", "position y", "heading", "speed"};
	static const char *const si[4] = {"m", "m", "rad", "m/s"};
	char name[SW_NAME_MAX], net[2 * SW_NAME_MAX], meaning[96];
	snprintf(name, sizeof name, "o%d_%s", j < c->agent ? j + 1 : j, what[coord]);
	snprintf(net, sizeof net, "%s_%s", c->b->unit_name[j], what[coord]);
	snprintf(meaning, sizeof meaning, "%s of agent '%.60s' (%s)", unit[coord],
		 c->m->agents[j].name, si[coord]);
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
	if (c3 > 0.0 && 1.0 / c3 < SW_PI)
		return 1.0 / (c3 * M_E);
	return SW_PI * exp(-c3 * SW_PI);
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
		double K = fabs(p->kg) * SW_PI * (1.0 + fabs(p->c2)) +
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
	default: break; /* the others (crowd laws, rows without SW__LAW_EXPORT_BOUNDED): exported
			 * in the exact profile only (network.c refuse_mode) */
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

/* The emitter's view of the scene: obstacles and the other agents (with their heading and
 * speed when the law reads velocities). */
static int emit_scene(struct xb *b, xl_ctx *c, sw_emit_ctx *ec, sw_emit_obstacle *obs,
		      sw_emit_agent *oth, int velocities)
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
		int kp = velocities ? xb_other_agent_var(c, j, 2) : -1;
		int kv = velocities ? xb_other_agent_var(c, j, 3) : -1;
		if (velocities && (kp < 0 || kv < 0))
			return SW_ENOMEM;
		oth[n++] = (sw_emit_agent){kx, ky, NULL, NULL, m->agents[j].radius, -1 - j,
					   kv, kp, NULL, NULL};
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
	int vel = !!(sw__law_flags(def->law) & SW__LAW_READS_VELOCITIES);
	int st = obs && oth ? emit_scene(b, c, &ec, obs, oth, vel) : SW_ENOMEM;
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
		if (vel) {
			oth[j].phi_name = c->comp->vars[oth[j].phi_slot].name;
			oth[j].v_name = c->comp->vars[oth[j].v_slot].name;
		}
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
	if (st == SW_EUSAGE && (sw__law_flags(def->law) & SW__LAW_CROWD))
		return xb_refuse(b, ag->line,
				 "%s: the flows of the %s in this scene cannot be exported: they "
				 "would exceed 10^6 expression nodes (a term per agent and obstacle; "
				 "the hard walls, t-contact > 0, triple them per static obstacle; "
				 "emit_crowd.c); expected fewer agents and obstacles or t-contact=\"0\"",
				 c->where, sw_law_name(def->law));
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
		if (!flow[k] && !forced && out[k]) /* bearings lifted into the state (bearing.c) */
			flow[k] = xb_bearing_flow(b, c, loc, def, out[k]);
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

sw_export_profile xb_flow_profile(const struct xb *b)
{
	return b->def.linear ? SW_PROFILE_EXACT : b->def.profile;
}
