/* steer/defaults.c - the default personality and the default steer definition (the laws'
 * defaults are in their parameter tables, steer/params.c). */
#include "swerve/steer.h"

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
