/* steer/rhs.c - whole right-hand sides of the agent state for each law, and the algebraic
 * outputs written after a step.
 *
 * State layout SW_STATE_*.  The heading noise of eq. (1) is not part of the right-hand side: the
 * simulator adds sigma_phi sqrt(h) N(0, 1) per step (Euler-Maruyama).  Personality: agility and
 * mass act here as first-order lags (section 1.4); courage is not applied here, because it
 * changes the law's parameters once per agent (sw_glm_with_personality(), applied by the model
 * when agents are finalised) and applying it again here would compound it.  Agility and mass only
 * act on the GLM law; FW has its own turning-rate state and both FW and PF move at constant speed;
 * TTC and SF integrate speed and heading as second-order laws (their own inertia and relaxation);
 * CSM is first order in the position (speed and heading algebraic).
 * Traits outside [0, 1] are clamped. */
/* sincos() (a GNU extension of the C library): one call instead of sin and cos on the path that
 * runs once per agent and step. */
#define _GNU_SOURCE
#include <math.h>

#include "steer_internal.h"

void sw_steer_velocity(double v, double phi, double vel[2])
{
	double s, c;
	sincos(phi, &s, &c);
	vel[0] = v * c;
	vel[1] = v * s;
}

/* GLM: heading rate from (1) with the weights of the state; lags; dynamic weights (8) / eps. */
static void glm_rhs(const sw_glm_params *p, const sw_personality *pers, const sw_situation *s,
		    const double y[], double dydt[], sw_glm_terms *terms)
{
	sw_glm_terms t;
	sw_glm_eval(p, s, y[SW_STATE_PHI], y[SW_STATE_WTAR], y[SW_STATE_WOBS], &t);

	if (pers && pers->has_agility) {
		double lk = pers->lambda_k_min +
			    sw__unit(pers->agility) * (pers->lambda_k_max - pers->lambda_k_min);
		dydt[SW_STATE_PHI] = y[SW_STATE_OMEGA];
		dydt[SW_STATE_OMEGA] = lk * (t.phidot - y[SW_STATE_OMEGA]);
	} else {
		dydt[SW_STATE_PHI] = t.phidot;
		dydt[SW_STATE_OMEGA] = 0.0;
	}

	double v = t.v_cmd;
	if (pers && pers->has_mass) {
		double lm = pers->lambda_m_max -
			    sw__unit(pers->mass) * (pers->lambda_m_max - pers->lambda_m_min);
		v = y[SW_STATE_V];
		dydt[SW_STATE_V] = lm * (t.v_cmd - v);
	} else {
		dydt[SW_STATE_V] = 0.0;
	}
	sw_steer_velocity(v, y[SW_STATE_PHI], &dydt[SW_STATE_X]);

	/* (8) is odd in each weight, so the signed weights are used as they are. */
	if (p->weights == SW_WEIGHTS_DYNAMIC) {
		double dw[2];
		sw_glm_weights_rhs(t.a1, t.a2, t.g12, t.g21, &y[SW_STATE_WTAR], dw);
		dydt[SW_STATE_WTAR] = dw[0] / p->eps;
		dydt[SW_STATE_WOBS] = dw[1] / p->eps;
	} else {
		dydt[SW_STATE_WTAR] = dydt[SW_STATE_WOBS] = 0.0;
	}
	if (terms)
		*terms = t;
}

/* Second-order laws (TTC, SF): the velocity vector u = v e(phi) driven by an acceleration a:
 * v' = a.e and phi' = a.e_perp / v (the rotation of u), with |v| floored at v_min (keeps it
 * finite at rest).  Unless backwards is set, v' is held at 0 while v <= 0 and a points backwards,
 * so that the speed stays non-negative (a TTC agent pushed from the front stops and turns rather
 * than walking backwards); with backwards (SF) v is signed and a push moves the agent back. */
static void velocity_rhs(const double a[2], const double e[2], double v, double v_min,
			 int backwards, double dydt[])
{
	double along = a[0] * e[0] + a[1] * e[1], perp = a[1] * e[0] - a[0] * e[1];
	dydt[SW_STATE_V] = backwards || v > 0.0 || along > 0.0 ? along : 0.0;
	dydt[SW_STATE_PHI] = perp / (backwards ? copysign(fmax(fabs(v), v_min), v) : fmax(v, v_min));
}

/* The heading's unit vector: he when given (the simulator's snapshot computed it), else from phi;
 * the same bits either way. */
static const double *heading(const double *he, double phi, double e[2])
{
	if (he)
		return he;
	sw_steer_velocity(1.0, phi, e);
	return e;
}

/* TTC: a = sw_ttc_accel(); the position moves with u less what would close on a static obstacle
 * faster than its clearance / t_contact (sw_ttc_wall_velocity's sw__hard_walls, called
 * directly: inline when there is no obstacle; walls: s, or the part of s that holds its
 * obstacles' percepts). */
static void ttc_rhs(const sw_ttc_params *p, const sw_situation *s, const sw_situation *walls,
		    const double y[], const double *he, double dydt[])
{
	double eb[2], a[2], v = y[SW_STATE_V];
	const double *e = heading(he, y[SW_STATE_PHI], eb);
	double u[2] = {v * e[0], v * e[1]};
	sw_ttc_accel(p, s, u, a);
	velocity_rhs(a, e, v, p->v_min, 0, dydt);
	sw__hard_walls(p->t_contact, p->range, walls, u, &dydt[SW_STATE_X]);
}

/* SF: a = sw_sf_accel(); the speed is signed (the law's velocity is a free vector: the body
 * force may push an agent backwards); the position moves with u.  perceived: s comes from the
 * simulator's perception (sw__sf_accel_perceived). */
static void sf_rhs(const sw_sf_params *p, const sw_situation *s, const double y[],
		   const double *he, int perceived, double dydt[])
{
	double eb[2], a[2], v = y[SW_STATE_V];
	const double *e = heading(he, y[SW_STATE_PHI], eb);
	if (perceived)
		sw__sf_accel_perceived(p, s, v, e, a);
	else
		sw_sf_accel(p, s, v, e, a);
	velocity_rhs(a, e, v, p->v_min, 1, dydt);
	dydt[SW_STATE_X] = v * e[0];
	dydt[SW_STATE_Y] = v * e[1];
}

/* CSM: first order; the position moves with the model's velocity less what would close on a
 * static obstacle faster than its clearance / t_contact.  Heading and speed are algebraic
 * (sw_steer_algebraic). */
static void csm_rhs(const sw_csm_params *p, const sw_situation *s, const double y[], double dydt[])
{
	double u[2];
	sw_csm_velocity(p, s, y[SW_STATE_PHI], u);
	sw__hard_walls(p->t_contact, p->range, s, u, &dydt[SW_STATE_X]);
}

/* PF: direction of steepest descent of U; y[PHI] when the gradient vanishes. */
static double pf_heading(const sw_pf_params *p, const sw_situation *s, double phi)
{
	double g[2];
	sw_pf_gradient(p, s, g);
	if (g[0] == 0.0 && g[1] == 0.0)
		return phi;
	return atan2(-g[1], -g[0]);
}

int sw_steer_rhs(const sw_steer_def *def, const sw_personality *pers, const sw_situation *s,
		 const double y[SW_STATE_DIM], double dydt[SW_STATE_DIM], sw_glm_terms *terms)
{
	if (!def || !s || !y || !dydt)
		return SW_EUSAGE;
	for (int i = 0; i < SW_STATE_DIM; i++)
		dydt[i] = 0.0;

	switch (def->law) {
	case SW_LAW_GLM: glm_rhs(&def->glm, pers, s, y, dydt, terms); break;
	case SW_LAW_FW: {
		/* Eq. (13): phi' = omega, omega' = phi''; constant speed. */
		double v = def->fw.speed;
		dydt[SW_STATE_PHI] = y[SW_STATE_OMEGA];
		dydt[SW_STATE_OMEGA] = sw_fw_accel(&def->fw, s, y[SW_STATE_PHI], y[SW_STATE_OMEGA]);
		sw_steer_velocity(v, y[SW_STATE_PHI], &dydt[SW_STATE_X]);
		break;
	}
	case SW_LAW_PF: {
		/* Section 3: motion along -grad U at constant speed; phi is algebraic. */
		double th = pf_heading(&def->pf, s, y[SW_STATE_PHI]);
		dydt[SW_STATE_X] = def->pf.speed * cos(th);
		dydt[SW_STATE_Y] = def->pf.speed * sin(th);
		break;
	}
	case SW_LAW_WALL: {
		double psi = sw_wall_heading(&def->wall, s, y[SW_STATE_PHI]);
		dydt[SW_STATE_PHI] = -def->wall.a * sin(y[SW_STATE_PHI] - psi);
		sw_steer_velocity(def->wall.speed, y[SW_STATE_PHI], &dydt[SW_STATE_X]);
		break;
	}
	case SW_LAW_TTC: ttc_rhs(&def->ttc, s, s, y, NULL, dydt); break;
	case SW_LAW_SF: sf_rhs(&def->sf, s, y, NULL, 0, dydt); break;
	case SW_LAW_CSM: csm_rhs(&def->csm, s, y, dydt); break;
	default: return SW_EUSAGE;
	}

	for (int i = 0; i < SW_STATE_DIM; i++)
		if (!isfinite(dydt[i]))
			return SW_ENUMERIC;
	return SW_SUCCESS;
}

void sw_steer_algebraic(const sw_steer_def *def, const sw_personality *pers, const sw_situation *s,
			double y[SW_STATE_DIM])
{
	if (!def || !s || !y)
		return;
	switch (def->law) {
	case SW_LAW_GLM:
		if (!(pers && pers->has_mass))
			y[SW_STATE_V] = sw__glm_speed(&def->glm, s, y[SW_STATE_PHI]);
		break;
	case SW_LAW_FW: y[SW_STATE_V] = def->fw.speed; break;
	case SW_LAW_WALL: y[SW_STATE_V] = def->wall.speed; break;
	case SW_LAW_PF:
		y[SW_STATE_V] = def->pf.speed;
		y[SW_STATE_PHI] = pf_heading(&def->pf, s, y[SW_STATE_PHI]);
		break;
	case SW_LAW_TTC: /* speed is state: a step may overshoot below 0 */
		y[SW_STATE_V] = fmax(y[SW_STATE_V], 0.0);
		break;
	case SW_LAW_SF: break; /* signed speed, all state */
	case SW_LAW_CSM: { /* the velocity of the end state (walls cut), as speed and heading */
		double u[2], c[2];
		double phi = sw_csm_velocity(&def->csm, s, y[SW_STATE_PHI], u);
		sw__hard_walls(def->csm.t_contact, def->csm.range, s, u, c);
		y[SW_STATE_V] = sqrt(c[0] * c[0] + c[1] * c[1]);
		y[SW_STATE_PHI] = phi;
		break;
	}
	}
}

int sw__crowd_sense(const sw_steer_def *def, const sw_situation *s, int n_prim, const double *he,
		    double y[SW_STATE_DIM], double flow[4])
{
	double d[SW_STATE_DIM] = {0.0};
	/* The hard walls read only obstacle percepts (id >= 0), which are the first n_prim: the
	 * others would be skipped one by one. */
	sw_situation walls = *s;
	walls.n_obs = n_prim < s->n_obs ? n_prim : s->n_obs;
	switch (def->law) {
	case SW_LAW_TTC:
		/* fmax's bits, as sw_steer_algebraic's fmax (a speed of -0 becomes +0) */
		y[SW_STATE_V] = sw__fmax(y[SW_STATE_V], 0.0);
		ttc_rhs(&def->ttc, s, &walls, y, he, d);
		break;
	case SW_LAW_SF: sf_rhs(&def->sf, s, y, he, 1, d); break;
	case SW_LAW_CSM: {
		/* sw_steer_algebraic, then csm_rhs at the new heading: the model's velocity does not
		 * depend on the heading unless its direction vanishes, when it is 0 times the
		 * heading's cosine and sine (signed zeros: evaluated again at the new heading). */
		const sw_csm_params *p = &def->csm;
		double u[2], c[2];
		double phi = sw_csm_velocity(p, s, y[SW_STATE_PHI], u);
		sw__hard_walls(p->t_contact, p->range, &walls, u, c);
		y[SW_STATE_V] = sqrt(c[0] * c[0] + c[1] * c[1]);
		y[SW_STATE_PHI] = phi;
		if (u[0] == 0.0 && u[1] == 0.0) {
			csm_rhs(p, s, y, d);
		} else {
			d[SW_STATE_X] = c[0];
			d[SW_STATE_Y] = c[1];
		}
		break;
	}
	default: return SW_EUSAGE;
	}
	flow[0] = d[SW_STATE_X];
	flow[1] = d[SW_STATE_Y];
	flow[2] = d[SW_STATE_PHI];
	flow[3] = d[SW_STATE_V];
	for (int k = 0; k < 4; k++)
		if (!isfinite(flow[k]))
			return SW_ENUMERIC;
	return SW_SUCCESS;
}
