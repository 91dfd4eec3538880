/* model/model3.c - three-dimensional scenarios (docs/models.md section 1.5): the switch and
 * the checks of what a 3-D scenario may contain.
 *
 * A 3-D scenario keeps the 2-D world: discs are vertical pillars (infinite cylinders), segments
 * and polygons vertical walls, regions vertical prisms, so obstacle geometry needs no height.
 * Agents (spheres) and targets take a height z; agents a heading elevation (pitch).  What the
 * 3-D engine (sim/space3.c, steer/glm3.c) does not do is refused here, at the agent's or mode's
 * file:line, rather than silently run in the plane:
 *   - laws other than GLM (FW, potential, wall following are planar laws);
 *   - laws steering by a world field (fields are 2-D grids);
 *   - behaviours that call progress() (its position history is planar);
 *   - the SteerBench metrics (<run steerbench="true">: SteerSuite's measures are planar).
 * Heights and pitch in a 2-D scenario are refused too. */
#include <math.h>

#include "automaton_impl.h"
#include "steer/steer_internal.h"

#define SW_HALF_PI 1.57079632679489661923

int sw_model_set_3d(sw_model *m, int line)
{
	if (!m || m->finalized)
		return SW_EUSAGE;
	m->dim3 = 1;
	m->dim3_line = line;
	return SW_SUCCESS;
}

int sw__check_agent3(const sw_model *m, const sw_agent_def *def, const char *what, sw_diag *diag)
{
	if (!m->dim3) {
		if (def->z != 0.0 || def->pitch != 0.0)
			return sw_diag_add(diag, SW_SEV_ERROR, m->file, def->line, 0,
					   "%s: z and pitch need a 3-D scenario; expected "
					   "<world dimensions=\"3\"> (or no z, pitch)",
					   what);
		return SW_SUCCESS;
	}
	if (!isfinite(def->z))
		return sw_diag_add(diag, SW_SEV_ERROR, m->file, def->line, 0,
				   "%s: z is %g; expected a finite number", what, def->z);
	if (!(fabs(def->pitch) <= SW_HALF_PI))
		return sw_diag_add(diag, SW_SEV_ERROR, m->file, def->line, 0,
				   "%s: pitch is %g rad; expected an angle in [-90deg, 90deg]", what,
				   def->pitch);
	return SW_SUCCESS;
}

/* A law a 3-D agent may run (SW__LAW_3D: GLM only); else reports it at line (owner: "agent 'a'" or "mode 'm' of
 * behaviour 'b' (agent 'a')"). */
static int law3_ok(const char *file, const sw_steer_def *d, int line, const char *owner,
		   sw_diag *diag)
{
	if (!(sw__law_flags(d->law) & SW__LAW_3D))
		return sw_diag_add(diag, SW_SEV_ERROR, file, line, 0,
				   "%s: law '%s' is planar; expected <glm> in a 3-D scenario "
				   "(docs/models.md section 1.5 gives GLM in 3-D)",
				   owner, sw_law_name(d->law)),
		       0;
	if (d->field[0])
		return sw_diag_add(diag, SW_SEV_ERROR, file, line, 0,
				   "%s: the law steers by the field '%s', a 2-D grid; expected no "
				   "field= in a 3-D scenario",
				   owner, d->field),
		       0;
	return 1;
}

int sw__check_model3(const sw_model *m, sw_diag *diag)
{
	int bad = 0;
	char owner[3 * SW_NAME_MAX + 64];
	for (int k = 0; k < m->n_targets; k++) {
		const sw_target *t = &m->targets[k];
		if (!m->dim3 && t->z != 0.0) {
			sw_diag_add(diag, SW_SEV_ERROR, m->file, t->line, 0,
				    "target '%s': z needs a 3-D scenario; expected <world "
				    "dimensions=\"3\"> (or no z)",
				    t->name);
			bad = 1;
		} else if (!isfinite(t->z)) {
			sw_diag_add(diag, SW_SEV_ERROR, m->file, t->line, 0,
				    "target '%s': z is %g; expected a finite number", t->name, t->z);
			bad = 1;
		}
	}
	if (!m->dim3)
		return bad ? SW_EINPUT : SW_SUCCESS;
	if (m->run.steerbench) {
		sw_diag_add(diag, SW_SEV_ERROR, m->file, m->dim3_line, 0,
			    "a 3-D scenario with <run steerbench=\"true\">: the SteerBench metrics "
			    "are planar; expected no steerbench in a 3-D scenario");
		bad = 1;
	}
	for (int i = 0; i < m->n_agents; i++) {
		const sw_agent *a = &m->agents[i];
		if (a->behaviour < 0) {
			snprintf(owner, sizeof owner, "agent '%s'", a->name);
			bad |= !law3_ok(m->file, &a->steer, a->line, owner, diag);
			continue;
		}
		const sw_automaton *au = m->automata[a->behaviour];
		if (au->resets_state) {
			sw_diag_add(diag, SW_SEV_ERROR, m->file, a->line, 0,
				    "agent '%s': its behaviour '%s' resets the agent's x, y, heading, "
				    "turn_rate or speed, which is planar so far; expected resets of "
				    "variables only in a 3-D scenario",
				    a->name, au->name);
			bad = 1;
		}
		if (au->uses_progress) {
			sw_diag_add(diag, SW_SEV_ERROR, m->file, a->line, 0,
				    "agent '%s': its behaviour '%s' calls progress(), which is planar; "
				    "expected a behaviour without progress() in a 3-D scenario",
				    a->name, au->name);
			bad = 1;
		}
		for (int q = 0; q < au->n_modes; q++) {
			snprintf(owner, sizeof owner, "mode '%s' of behaviour '%s' (agent '%s', line %d)",
				 au->modes[q].name, au->name, a->name, a->line);
			if (au->modes[q].moves &&
			    !law3_ok(au->file[0] ? au->file : m->file, &au->modes[q].steer, au->modes[q].line, owner, diag))
				bad = 1;
			if (au->modes[q].ghost) {
				sw_diag_add(diag, SW_SEV_ERROR, au->file[0] ? au->file : m->file,
					    au->modes[q].line, 0,
					    "%s: ghost=\"true\" is planar so far; expected no ghost "
					    "modes in a 3-D scenario",
					    owner);
				bad = 1;
			}
		}
	}
	return bad ? SW_EINPUT : SW_SUCCESS;
}
