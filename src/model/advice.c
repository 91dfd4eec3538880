/* model/advice.c - warnings about settings that run, but badly (sw_model_finalize).
 *
 * Some laws switch (SW__LAW_SWITCHES: time-to-collision, social force, collision-free speed):
 * hard walls cap a velocity component, perception takes obstacles in and out, forces are capped.
 * An adaptive GSL stepper meets each switch with a step shrunk to its tolerance: one agent among
 * ten discs took five minutes for a minute of simulated time with rk4 at the default tolerances,
 * against a tenth of a second with Euler at 0.01 s (the setting the crowd models and docs/models.md sections 7-8 use). */
#include <string.h>

#include "automaton_impl.h"
#include "steer/steer_internal.h"

/* The element of d's law when the law switches (SW__LAW_SWITCHES), else NULL. */
static const char *switching_law(const sw_steer_def *d)
{
	const sw__law_table *t = sw__law_table_of(d->law);
	return t && t->flags & SW__LAW_SWITCHES ? t->element : NULL;
}

void sw__advise_integrator(const sw_model *m, sw_diag *diag)
{
	if (strcmp(m->run.integrator, "euler") == 0 || m->run.fixed)
		return;
	for (int i = 0; i < m->n_agents; i++) {
		const sw_agent *a = &m->agents[i];
		const char *law = NULL, *file = m->file;
		int line = a->line;
		if (a->behaviour < 0) {
			law = switching_law(&a->steer);
		} else {
			const struct sw_automaton *au = m->automata[a->behaviour];
			for (int q = 0; q < au->n_modes && !law; q++)
				if ((law = switching_law(&au->modes[q].steer)) != NULL) {
					file = au->file[0] ? au->file : m->file;
					line = au->modes[q].line;
				}
		}
		if (!law)
			continue;
		sw_diag_add(diag, SW_SEV_WARNING, file, line, 0,
			    "agent '%s' steers with <%s> under the adaptive stepper '%s': the law "
			    "switches (hard walls, perception, capped forces), and an adaptive stepper "
			    "shrinks its steps at every switch and crawls; expected integrator=\"euler\" "
			    "with a step of about 0.01 s (or fixed=\"true\")",
			    a->name, law, m->run.integrator);
		return; /* once per scenario */
	}
}
