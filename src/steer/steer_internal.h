/* steer/steer_internal.h - helpers shared by the steering-law sources (not part of the API). */
#ifndef SWERVE_STEER_INTERNAL_H
#define SWERVE_STEER_INTERNAL_H

#include "swerve/core.h"
#include "swerve/steer.h"

/* pi and pi/2 (M_PI is not part of C11 nor of POSIX without XSI). */
#define SW_PI 3.14159265358979323846
#define SW_PI_2 1.57079632679489661923

/* The commanded GLM forward speed at heading phi: eq. (12) (or v_max), with the arrival cap of
 * section 1.3 when p->arrive is set.  sw_glm_eval() reports the same value in v_cmd. */
double sw__glm_speed(const sw_glm_params *p, const sw_situation *s, double phi);

/* x clamped to [0, 1]; NaN maps to 0. */
static inline double sw__unit(double x)
{
	return x > 1.0 ? 1.0 : (x > 0.0 ? x : 0.0);
}

#endif
