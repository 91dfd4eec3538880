/* io/summary.c - the run summary as JSON.  JSON is written directly with stdio: no JSON
 * library is among swerve's dependencies and the document is flat; names are escaped, and
 * non-finite numbers written as null, by core/text.c. */
#include <stdio.h>

#include "core/core_internal.h"
#include "io_internal.h"
#include "swerve/io.h"

/* The SteerBench metrics of one agent, or their means over the agents (scale = 1 / n). */
static void steerbench(FILE *f, const sw_world *w, int only, double scale)
{
	const sw_model *m = sw_world_model(w);
	double v[7] = {0, 0, 0, 0, 0, 0, 0};
	for (int i = only < 0 ? 0 : only; i < (only < 0 ? m->n_agents : only + 1); i++) {
		const sw_steerbench_metrics *mt = sw_world_steerbench(w, i);
		v[0] += mt->sb_collisions;
		v[1] += mt->sb_time;
		v[2] += (double)mt->sb_frames;
		v[3] += mt->sb_distance;
		v[4] += mt->sb_degrees;
		v[5] += mt->sb_energy;
		v[6] += sw_steerbench_composite01(mt);
	}
	static const char *const keys[] = {"unique_collisions", "time_enabled", "frames_enabled",
					   "distance_travelled", "degrees_turned",
					   "kinetic_energy_sum", "composite01"};
	fputs("{", f);
	for (int k = 0; k < 7; k++) {
		fprintf(f, "%s\"%s\": ", k ? ", " : "", keys[k]);
		sw__json_num(f, v[k] * scale);
	}
	fputs("}", f);
}

int sw_summary_write_json(FILE *f, const sw_world *w, const char *error)
{
	const sw_model *m = sw_world_model(w);
	fputs("{\n  \"scenario\": ", f);
	sw__json_str(f, m->name);
	fputs(",\n  \"status\": ", f);
	sw__json_str(f, error ? "failed" : "complete");
	if (error) {
		fputs(",\n  \"error\": ", f);
		sw__json_str(f, error);
	}
	fprintf(f, ",\n  \"time\": ");
	sw__json_num(f, sw_world_time(w));
	fprintf(f, ",\n  \"steps\": %ld,\n  \"seed\": %llu,\n  \"integrator\": ", sw_world_steps(w),
		(unsigned long long)sw_world_seed(w));
	sw__json_str(f, m->run.integrator);
	/* SteerBench: per agent below; here the means over the agents (composite01 = the
	 * benchmark's scenario score). */
	if (sw_world_steerbench(w, 0)) {
		fputs(",\n  \"steerbench\": ", f);
		steerbench(f, w, -1, m->n_agents > 0 ? 1.0 / m->n_agents : 0.0);
	}
	fputs(",\n  \"agents\": [", f);
	for (int i = 0; i < m->n_agents; i++) {
		const sw_agent *a = &m->agents[i];
		const sw_agent_metrics *mt = sw_world_metrics(w, i);
		sw_agent_state st;
		sw_world_agent(w, i, &st);
		fputs(i ? ",\n    {" : "\n    {", f);
		fputs("\"name\": ", f);
		sw__json_str(f, a->name);
		/* the law the agent ran last: its final mode's for a behaviour agent (null when
		 * that mode has none, e.g. an arrival) */
		const sw_steer_def *law = &a->steer;
		if (a->behaviour >= 0)
			law = sw_automaton_mode_steer(m->automata[a->behaviour], st.mode);
		fputs(", \"law\": ", f);
		if (law)
			sw__json_str(f, sw_law_name(law->law));
		else
			fputs("null", f);
		fputs(", \"target\": ", f);
		if (st.target >= 0)
			sw__json_str(f, m->targets[st.target].name);
		else
			fputs("null", f);
		fprintf(f, ", \"reached\": %s, \"t_reached\": ", mt->reached ? "true" : "false");
		sw__json_num(f, mt->t_reached);
		fputs(", \"path_length\": ", f);
		sw__json_num(f, mt->path_length);
		fputs(", \"min_clearance\": ", f);
		sw__json_num(f, mt->min_clearance);
		fprintf(f, ", \"collisions\": %d, \"overlap_time\": ", mt->collisions);
		sw__json_num(f, mt->overlap_time);
		fputs(", \"max_penetration\": ", f);
		sw__json_num(f, mt->max_penetration);
		fprintf(f, ", \"agent_collisions\": %d, \"min_agent_clearance\": ",
			mt->agent_collisions);
		sw__json_num(f, mt->min_agent_clearance);
		fputs(",\n      \"final\": {\"x\": ", f);
		sw__json_num(f, st.y[SW_STATE_X]);
		fputs(", \"y\": ", f);
		sw__json_num(f, st.y[SW_STATE_Y]);
		fputs(", \"heading\": ", f);
		sw__json_num(f, sw_wrap_angle(st.y[SW_STATE_PHI]));
		fputs(", \"speed\": ", f);
		sw__json_num(f, st.y[SW_STATE_V]);
		fputs(", \"mode\": ", f);
		sw__json_str(f, sw_world_mode_name(w, i, st.mode));
		/* an automaton agent's variables, by name (counters such as an emitter's) */
		const sw_automaton *au = a->behaviour >= 0 ? m->automata[a->behaviour] : NULL;
		if (au && sw_automaton_n_vars(au) > 0) {
			const double *ys = sw_world_unit_state(w, i, NULL);
			fputs(", \"vars\": {", f);
			for (int k = 0; k < sw_automaton_n_vars(au); k++) {
				fputs(k ? ", " : "", f);
				sw__json_str(f, sw_automaton_var_name(au, k));
				fputs(": ", f);
				sw__json_num(f, ys[SW_STATE_DIM + 1 + k]);
			}
			fputs("}", f);
		}
		fputs("}", f);
		if (sw_world_steerbench(w, i)) {
			fputs(",\n      \"steerbench\": ", f);
			steerbench(f, w, i, 1.0);
		}
		if (!m->run.obstacle_clearances) { /* not kept */
			fputs("}", f);
			continue;
		}
		fputs(",\n      \"clearance\": {", f);
		for (int j = 0; j < m->n_obstacles; j++) {
			fputs(j ? ", " : "", f);
			sw__json_str(f, m->obstacles[j].name);
			fputs(": ", f);
			sw__json_num(f, sw_world_min_clearance(w, i, j));
		}
		fputs("}}", f);
	}
	fputs("\n  ]\n}\n", f);
	return ferror(f) ? SW_EIO : SW_SUCCESS;
}
