/* steer/wall.c - the wall-following law (see sw_wall_params in steer.h for the formula). */
#include <math.h>
#include <stddef.h>

#include "steer_internal.h"
#include "swerve/steer.h"

double sw_wall_heading(const sw_wall_params *p, const sw_situation *s, double phi)
{
	const sw_percept *c = NULL;
	for (int i = 0; i < s->n_obs; i++)
		if (s->obs[i].id >= 0 && s->obs[i].dist > 0.0 &&
		    (!c || s->obs[i].clearance < c->clearance))
			c = &s->obs[i];
	if (!c)
		return s->has_target ? atan2(s->ty - s->y, s->tx - s->x) : phi;
	double corr = p->gain * (c->clearance - p->distance);
	corr = fmax(-SW_WALL_CORR_MAX, fmin(SW_WALL_CORR_MAX, corr));
	return atan2(c->dy, c->dx) + p->side * (SW_PI_2 - corr);
}
