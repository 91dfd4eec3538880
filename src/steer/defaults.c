/* steer/defaults.c - the default parameters of every steering law and of personality.
 *
 * This is the one place where the defaults live; the values are those documented beside each
 * field in swerve/steer.h and come from docs/steering-models.md (published settings). */
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

const char *sw_law_name(sw_law law)
{
	switch (law) {
	case SW_LAW_GLM: return "glm";
	case SW_LAW_FW: return "fw";
	case SW_LAW_PF: return "potential";
	case SW_LAW_WALL: return "wall";
	}
	return "unknown";
}
