/* bench/bench_events.c - cost of guaranteed event detection (sim/locate.c, issue 18).
 *
 * 1000 independent behaviour agents (agents-perceive off, no obstacles) walk along +x at 1 m/s
 * (GLM, constant speed, goal dead ahead) for 200 steps of 0.25 s, past five marks each (targets
 * at x = 8, 16, 24, 32, 40 m, 0.12-0.6 m off the agent's line).  Three automata, one mode each:
 * no transition; one guard dist(m1) le 0.1; five guards dist(mK) le 0.1.  No guard ever holds
 * (every mark is more than 0.1 m off), but the marks 0.12-0.225 m off are within the rate bound
 * of a step (L h / 2 = 0.125 m), so the locator halves those steps to prove them false: the
 * worst case short of an event.  Best of 3 runs each, ns per agent-step. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "swerve/io.h"
#include "swerve/sim.h"

#define N_AG 1000
#define STEPS 200

static double run_case(int guards, const char *integrator, int reps)
{
	static char xml[N_AG * 700 + 8000];
	int len = 0;
	len += snprintf(xml + len, sizeof xml - (size_t)len,
			"<scenario name=\"events\"><run duration=\"60\" step=\"0.25\" integrator=\"%s\" "
			"agents-perceive=\"false\"/><behaviours><automaton name=\"walk\">"
			"<param name=\"goal\" kind=\"target\"/>",
			integrator);
	for (int k = 1; k <= 5; k++)
		len += snprintf(xml + len, sizeof xml - (size_t)len,
				"<param name=\"m%d\" kind=\"target\"/>", k);
	len += snprintf(xml + len, sizeof xml - (size_t)len,
			"<mode name=\"go\" initial=\"true\"><glm target=\"goal\" speed=\"constant\" "
			"v-max=\"1\" sigma=\"0\"/>");
	for (int k = 1; k <= guards; k++)
		len += snprintf(xml + len, sizeof xml - (size_t)len,
				"<transition to=\"seen\" guard=\"dist(m%d) le 0.1\"/>", k);
	len += snprintf(xml + len, sizeof xml - (size_t)len,
			"</mode><mode name=\"seen\"/></automaton></behaviours><world>");
	unsigned s = 12345u;
	for (int i = 0; i < N_AG; i++) {
		double y = 2.0 * i;
		len += snprintf(xml + len, sizeof xml - (size_t)len,
				"<target name=\"g%d\" x=\"1000\" y=\"%g\"/>", i, y);
		for (int k = 1; k <= 5; k++) {
			s = s * 1103515245u + 12345u;
			double off = 0.12 + 0.48 * (double)(s >> 8) / 16777216.0;
			len += snprintf(xml + len, sizeof xml - (size_t)len,
					"<target name=\"m%d_%d\" x=\"%d\" y=\"%.6f\"/>", k, i, 8 * k,
					y + ((k & 1) ? off : -off));
		}
	}
	len += snprintf(xml + len, sizeof xml - (size_t)len, "</world>");
	for (int i = 0; i < N_AG; i++) {
		len += snprintf(xml + len, sizeof xml - (size_t)len,
				"<agent name=\"a%d\" x=\"0\" y=\"%g\" heading=\"0\" speed=\"1\" "
				"behaviour=\"walk\"><bind param=\"goal\" value=\"g%d\"/>",
				i, 2.0 * i, i);
		for (int k = 1; k <= 5; k++)
			len += snprintf(xml + len, sizeof xml - (size_t)len,
					"<bind param=\"m%d\" value=\"m%d_%d\"/>", k, k, i);
		len += snprintf(xml + len, sizeof xml - (size_t)len, "</agent>");
	}
	len += snprintf(xml + len, sizeof xml - (size_t)len, "</scenario>");
	sw_diag d;
	sw_diag_init(&d);
	sw_model *m = NULL;
	if (sw_scenario_load_memory(xml, (size_t)len, "events.xml", &m, &d) != SW_SUCCESS) {
		char buf[1024];
		sw_diag_format(&d, 0, buf, sizeof buf);
		printf("events bench: %s\n", buf);
		return 0.0;
	}
	double best = 1e300;
	for (int rep = 0; rep < reps; rep++) {
		sw_world *w = NULL;
		if (sw_world_create(m, NULL, &w, &d) != SW_SUCCESS)
			break;
		double t0 = bench_now();
		for (int k = 0; k < STEPS; k++)
			sw_world_step(w, NULL);
		double dt = bench_now() - t0;
		if (dt < best)
			best = dt;
		sw_world_destroy(w);
	}
	sw_model_free(m);
	return best / ((double)N_AG * STEPS) * 1e9;
}

void bench_events(const char *only)
{
	const char *integ[] = {"euler", "rk4"};
	for (int k = 0; k < 2; k++) {
		if (only && strcmp(only, integ[k]) != 0)
			continue;
		double none = run_case(0, integ[k], 3), one = run_case(1, integ[k], 3),
		       five = run_case(5, integ[k], 3);
		printf("events %-5s %d agents, 5 marks 0.12-0.6 m off: no guard %6.0f ns, one "
		       "distance guard %6.0f ns, five %6.0f ns per agent-step (five / none %.2f)\n",
		       integ[k], N_AG, none, one, five, five / none);
	}
}

void bench_events_one(const char *integrator, int guards, int reps)
{
	printf("events %-5s %d agents, %d distance guard%s: %6.0f ns per agent-step (best of %d)\n",
	       integrator, N_AG, guards, guards == 1 ? "" : "s", run_case(guards, integrator, reps),
	       reps);
}
