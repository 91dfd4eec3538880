/* export/twin.c - how far the simulator's fixed-step integration is from the exported ODE.
 *
 * The export writes the flow itself, an ODE; a scenario run with Euler (or a GSL stepper at a
 * fixed step) follows it only to the step's accuracy, and a user comparing a verifier's answer
 * with the simulation ("twin runs") needs to know by how much.  When the scenario integrates
 * that way, the model is run twice from the same seed -- as written, and with an adaptive
 * stepper at tight tolerances (rkf45, rtol 1e-9, atol 1e-12, the same macro step, so the noise
 * increments are the same) -- and report.txt states the largest distance between an agent's
 * two positions over the run, with the agent and the time, and suggests the adaptive stepper. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "export/export_internal.h"
#include "swerve/sim.h"

typedef struct xb xb;

/* Work above which the two runs are not made (agents x steps): the note then says so. */
#define TWIN_MAX_WORK 2000000.0

void xb_integration_note(struct xb *b)
{
	const sw_model *m = b->m;
	int euler = strcmp(m->run.integrator, "euler") == 0;
	if (!euler && !m->run.fixed)
		return;
	char how[96];
	if (euler)
		snprintf(how, sizeof how, "Euler at a %.10g s step", m->run.step);
	else
		snprintf(how, sizeof how, "%s at a fixed %.10g s step", m->run.integrator,
			 m->run.step / (m->run.substeps > 0 ? m->run.substeps : 1));
	double steps = m->run.duration / m->run.step;
	if ((double)m->n_agents * steps > TWIN_MAX_WORK) {
		xb_note(b, "run", 0,
			"the simulator integrates with %s, the export is the exact ODE; their "
			"difference was not measured (more than %.0f agent-steps); for twin runs use "
			"an adaptive stepper (integrator=\"rkf45\")",
			how, TWIN_MAX_WORK);
		return;
	}
	/* Shallow copies share every array of m read-only and outlive their worlds. */
	sw_model fine = *m;
	snprintf(fine.run.integrator, sizeof fine.run.integrator, "rkf45");
	fine.run.fixed = 0;
	fine.run.rtol = 1e-9;
	fine.run.atol = 1e-12;
	sw_diag diag;
	sw_diag_init(&diag);
	sw_world *wa = NULL, *wb = NULL;
	if (sw_world_create(m, NULL, &wa, &diag) != SW_SUCCESS ||
	    sw_world_create(&fine, NULL, &wb, &diag) != SW_SUCCESS) {
		sw_world_destroy(wa);
		return; /* the run itself will report what is wrong */
	}
	double worst = 0.0, t_worst = 0.0;
	int who = -1, stopped = 0;
	while (sw_world_time(wa) < m->run.duration - 0.5 * m->run.step) {
		if (sw_world_step(wa, &diag) != SW_SUCCESS)
			break; /* the run itself will report what is wrong */
		if (sw_world_step(wb, &diag) != SW_SUCCESS) {
			stopped = 1; /* the tight adaptive integration gave up (a stiff stretch) */
			break;
		}
		for (int i = 0; i < m->n_agents; i++) {
			sw_agent_state sa, sb;
			sw_world_agent(wa, i, &sa);
			sw_world_agent(wb, i, &sb);
			double d = hypot(sa.y[SW_STATE_X] - sb.y[SW_STATE_X],
					 sa.y[SW_STATE_Y] - sb.y[SW_STATE_Y]);
			if (d > worst) {
				worst = d;
				t_worst = sw_world_time(wa);
				who = i;
			}
		}
	}
	double t_stop = sw_world_time(wa);
	sw_world_destroy(wa);
	sw_world_destroy(wb);
	if (stopped) {
		xb_note(b, "run", 0,
			"the simulator integrates with %s, the export is the exact ODE; their "
			"difference was measured only up to t = %.4g s (%.2g m at most), where the "
			"adaptive reference (rkf45, rtol 1e-9) could not go on: the flow is stiff "
			"there; for twin runs use an adaptive stepper (integrator=\"rkf45\")",
			how, t_stop, worst);
		return;
	}
	if (who < 0) {
		xb_note(b, "run", 0,
			"the simulator integrates with %s, the export is the exact ODE; over the run "
			"the two agree (adaptive rkf45, rtol 1e-9, from the same seed)",
			how);
		return;
	}
	xb_note(b, "run", 0,
		"the simulator integrates with %s, the export is the exact ODE: the simulated "
		"positions differ from an adaptive integration (rkf45, rtol 1e-9, same seed) by up "
		"to %.2g m (agent '%s', t = %.4g s); for twin runs that match the export use an "
		"adaptive stepper (integrator=\"rkf45\")",
		how, worst, m->agents[who].name, t_worst);
}
