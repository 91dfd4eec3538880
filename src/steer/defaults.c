/* steer/defaults.c - the default parameters of every steering law and of personality.
 *
 * This is the one place where the defaults live; the values are those documented beside each
 * field in swerve/steer.h and come from docs/models.md (section 1.6, published settings). */
#include <string.h>

#include "swerve/steer.h"

sw_glm_params sw_default_glm_params(void)
{
	sw_glm_params p = {
	    .a = 1.0,
	    .d0 = 1.0,
	    .delta = 0.8,
	    .margin = -1.0,
	    .r_floor = 1e-3,
	    .wall_near = 1.0,
	    .a1_scale = 0.4,
	    .g21 = 0.05,
	    .c1 = 2.0,
	    .c2 = 2.0,
	    .weights = SW_WEIGHTS_RELAX,
	    .eps = 0.05,
	    .w_floor = 1e-3,
	    .w_restart = 1e-2,
	    .speed = SW_SPEED_T2C,
	    .v_max = 1.0,
	    .d1 = 0.5,
	    .t2c = 1.0,
	    .arrive = 0,
	    .sigma_phi = 0.02,
	    .cohesion = 0.0,
	    .alignment = 0.0,
	};
	return p;
}

sw_fw_params sw_default_fw_params(void)
{
	sw_fw_params p = {
	    .b = 3.25,
	    .kg = 7.50,
	    .c1 = 0.40,
	    .c2 = 0.40,
	    .ko = 198.0,
	    .c3 = 6.5,
	    .c4 = 0.8,
	    .speed = 1.0,
	};
	return p;
}

sw_pf_params sw_default_pf_params(void)
{
	sw_pf_params p = {
	    .kp = 1.0,
	    .eta = 1.0,
	    .rho0 = 1.0,
	    .r_floor = 1e-3,
	    .speed = 0.5,
	};
	return p;
}

sw_personality sw_default_personality(void)
{
	sw_personality p = {
	    .has_agility = 0,
	    .agility = 0.5,
	    .lambda_k_min = 0.5,
	    .lambda_k_max = 20.0,
	    .has_mass = 0,
	    .mass = 0.5,
	    .lambda_m_min = 0.5,
	    .lambda_m_max = 20.0,
	    .has_courage = 0,
	    .courage = 0.5,
	    .d0_floor = 0.05,
	};
	return p;
}

sw_steer_def sw_default_steer_def(void)
{
	sw_steer_def d = {
	    .law = SW_LAW_GLM,
	    .glm = sw_default_glm_params(),
	    .fw = sw_default_fw_params(),
	    .pf = sw_default_pf_params(),
	    .wall = sw_default_wall_params(),
	    .ttc = sw_default_ttc_params(),
	    .sf = sw_default_sf_params(),
	    .csm = sw_default_csm_params(),
	    .field = "",
	    .lookahead = 2.0,
	};
	return d;
}

sw_wall_params sw_default_wall_params(void)
{
	sw_wall_params p = {.a = 2.0, .side = 1, .distance = 0.6, .gain = 1.5, .speed = 0.8};
	return p;
}

/* Karamouzas, Skinner & Guy (2014): k, tau0, the goal relaxation xi, the preferred speed and the
 * neighbour range of their simulations; f_max and v_min are swerve's (docs/models.md). */
sw_ttc_params sw_default_ttc_params(void)
{
	sw_ttc_params p = {.k = 1.5,
			   .tau0 = 3.0,
			   .xi = 0.54,
			   .v_pref = 1.3,
			   .range = 10.0,
			   .f_max = 20.0,
			   .v_min = 0.1,
			   .bias = 0.0,
			   .t_arrive = 0.0,
			   .t_contact = 0.1};
	return p;
}

/* Helbing, Farkas & Vicsek (2000): tau, A, B, k, kappa and the mass; the desired speed is the mean
 * of Helbing & Molnar (1995); lambda = 1 is the 2000 paper's isotropic law; range and v_min are
 * swerve's (docs/models.md). */
sw_sf_params sw_default_sf_params(void)
{
	sw_sf_params p = {.tau = 0.5,
			  .v0 = 1.34,
			  .a = 2000.0,
			  .b = 0.08,
			  .k = 1.2e5,
			  .kappa = 2.4e5,
			  .mass = 80.0,
			  .lambda = 1.0,
			  .range = 3.0,
			  .v_min = 0.01};
	return p;
}

/* Tordeux, Chraibi & Seyfried (2016): the time gap and the repulsion of neighbours (a, D) of their
 * simulations; walls (a_wall, d_wall) as JuPedSim implements the generalised model; the free speed
 * is Weidmann's (1993), the fundamental diagram's free-flow end; range, t_arrive and t_contact are
 * swerve's (docs/models.md section 9). */
sw_csm_params sw_default_csm_params(void)
{
	sw_csm_params p = {.v0 = 1.34,
			   .time_gap = 1.0,
			   .a = 5.0,
			   .d = 0.1,
			   .a_wall = 5.0,
			   .d_wall = 0.02,
			   .range = 2.0,
			   .t_arrive = 0.0,
			   .t_contact = 0.1};
	return p;
}

const char *sw_law_name(sw_law law)
{
	switch (law) {
	case SW_LAW_GLM: return "glm";
	case SW_LAW_FW: return "fw";
	case SW_LAW_PF: return "potential";
	case SW_LAW_WALL: return "wall";
	case SW_LAW_TTC: return "ttc";
	case SW_LAW_SF: return "sf";
	case SW_LAW_CSM: return "csm";
	}
	return "unknown";
}

/* Field by field, not memcmp: the structs have padding whose bytes are not part of the value. */
#define EQ(f) (x->f == y->f)

static int glm_equal(const sw_glm_params *x, const sw_glm_params *y)
{
	return EQ(a) && EQ(d0) && EQ(delta) && EQ(margin) && EQ(r_floor) && EQ(wall_near) &&
	       EQ(a1_scale) && EQ(g21) && EQ(c1) && EQ(c2) && EQ(weights) && EQ(eps) &&
	       EQ(w_floor) && EQ(w_restart) && EQ(speed) && EQ(v_max) && EQ(d1) && EQ(t2c) &&
	       EQ(arrive) && EQ(sigma_phi) && EQ(cohesion) && EQ(alignment);
}

int sw_steer_def_equal(const sw_steer_def *p, const sw_steer_def *q)
{
	if (p->law != q->law || strcmp(p->field, q->field) != 0 || p->lookahead != q->lookahead ||
	    p->avoid_corners != q->avoid_corners)
		return 0;
	switch (p->law) {
	case SW_LAW_GLM: return glm_equal(&p->glm, &q->glm);
	case SW_LAW_FW: {
		const sw_fw_params *x = &p->fw, *y = &q->fw;
		return EQ(b) && EQ(kg) && EQ(c1) && EQ(c2) && EQ(ko) && EQ(c3) && EQ(c4) &&
		       EQ(speed);
	}
	case SW_LAW_PF: {
		const sw_pf_params *x = &p->pf, *y = &q->pf;
		return EQ(kp) && EQ(eta) && EQ(rho0) && EQ(r_floor) && EQ(speed);
	}
	case SW_LAW_TTC: {
		const sw_ttc_params *x = &p->ttc, *y = &q->ttc;
		return EQ(k) && EQ(tau0) && EQ(xi) && EQ(v_pref) && EQ(range) && EQ(f_max) &&
		       EQ(v_min) && EQ(bias) && EQ(t_arrive) &&
		       EQ(t_contact);
	}
	case SW_LAW_SF: {
		const sw_sf_params *x = &p->sf, *y = &q->sf;
		return EQ(tau) && EQ(v0) && EQ(a) && EQ(b) && EQ(k) && EQ(kappa) && EQ(mass) &&
		       EQ(lambda) && EQ(range) && EQ(v_min);
	}
	case SW_LAW_CSM: {
		const sw_csm_params *x = &p->csm, *y = &q->csm;
		return EQ(v0) && EQ(time_gap) && EQ(a) && EQ(d) && EQ(a_wall) && EQ(d_wall) &&
		       EQ(range) && EQ(t_arrive) && EQ(t_contact);
	}
	default: {
		const sw_wall_params *x = &p->wall, *y = &q->wall;
		return EQ(a) && EQ(side) && EQ(distance) && EQ(gain) && EQ(speed);
	}
	}
}
