/* bench/bench_main.c - `make bench`: cost of the steering right-hand sides and of world steps.
 *
 * Prints ns per right-hand-side evaluation for GLM and FW with 1, 10, 100 and 1000 obstacles,
 * and agent-steps per second for 10^4 independent agents each seeing 10 obstacles.  Timing uses
 * CLOCK_MONOTONIC over repeated calls; each figure is the best of 5 repetitions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "swerve/swerve.h"

#include "bench.h"

double bench_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* CPU time of the whole process (all threads), s: with one thread it is insensitive to other
 * load on the machine, so figures taken on a busy machine can be compared. */
double bench_cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static double urand(unsigned *s)
{
	*s = *s * 1664525u + 1013904223u;
	return (*s >> 8) / 16777216.0;
}

/* Obstacle percepts scattered 1..9 m around the agent. */
static void make_percepts(sw_percept *p, int n, unsigned seed)
{
	for (int i = 0; i < n; i++) {
		double ang = 2 * M_PI * urand(&seed), d = 1.0 + 8.0 * urand(&seed);
		p[i].dx = d * cos(ang);
		p[i].dy = d * sin(ang);
		p[i].dist = d;
		p[i].rho = 0.2 + 0.3 * urand(&seed);
		p[i].clearance = d - p[i].rho - 0.25;
		p[i].id = i;
	}
}

static volatile double sink;

static void bench_rhs(sw_law law, int n)
{
	sw_percept *p = malloc((size_t)n * sizeof *p);
	make_percepts(p, n, 12345u + (unsigned)n);
	sw_steer_def def = sw_default_steer_def();
	def.law = law;
	sw_personality pers = sw_default_personality();
	sw_situation s = {0.0, 0.0, 0.25, 1, 10.0, 1.0, n, p, NULL, 0};
	double y[SW_STATE_DIM] = {0, 0, 0.3, 0.1, 1.0, 0.9, 0.5}, dy[SW_STATE_DIM];
	long reps = 2000000 / n + 100;
	double best = INFINITY;
	for (int r = 0; r < 5; r++) {
		double t0 = bench_now();
		for (long k = 0; k < reps; k++) {
			y[SW_STATE_PHI] = 0.3 + 1e-9 * (double)k;
			sw_steer_rhs(&def, &pers, &s, y, dy, NULL);
			sink += dy[SW_STATE_PHI];
		}
		double dt = (bench_now() - t0) / reps;
		if (dt < best)
			best = dt;
	}
	printf("rhs %-9s obstacles %5d : %9.1f ns/eval\n", sw_law_name(law), n, best * 1e9);
	free(p);
}

static void bench_world(int n_agents, const char *integrator)
{
	sw_model *m = sw_model_alloc("bench", NULL);
	sw_target_def t = sw_default_target_def();
	t.name = "goal";
	t.position = sw_v2(1000, 0);
	sw_model_add_target(m, &t, NULL);
	unsigned seed = 99;
	for (int k = 0; k < 10; k++) {
		sw_obstacle_def o = sw_default_obstacle_def();
		o.center = sw_v2(20 + 6 * k, 8.0 * (urand(&seed) - 0.5));
		o.radius = 0.3;
		sw_model_add_obstacle(m, &o, NULL);
	}
	for (int i = 0; i < n_agents; i++) {
		sw_agent_def a = sw_default_agent_def();
		a.position = sw_v2(-10.0 * urand(&seed), 30.0 * (urand(&seed) - 0.5));
		a.target = "goal";
		sw_model_add_agent(m, &a, NULL);
	}
	sw_run_def r = sw_default_run_def();
	r.agents_perceive = 0;
	snprintf(r.integrator, sizeof r.integrator, "%s", integrator);
	sw_model_set_run(m, &r, 0, NULL);
	if (sw_model_finalize(m, NULL) != SW_SUCCESS) {
		printf("world bench: model failed\n");
		sw_model_free(m);
		return;
	}
	sw_world *w = NULL;
	sw_world_create(m, NULL, &w, NULL);
	int steps = 20;
	double t0 = bench_now();
	for (int k = 0; k < steps; k++)
		sw_world_step(w, NULL);
	double dt = bench_now() - t0;
	printf("world %-6s %6d agents x 10 obstacles : %10.3g agent-steps/s (%7.0f ns per "
	       "agent-step)\n",
	       integrator, n_agents, n_agents * steps / dt, dt / (n_agents * steps) * 1e9);
	sw_world_destroy(w);
	sw_model_free(m);
}

/* Ensemble throughput: runs of tests/data/coin.xml (one GLM agent, 80 Euler steps) with a
 * reach() property, over 1 and 2 threads. */
static void bench_ensemble(int runs)
{
	sw_model *m = NULL;
	sw_ens_property *p = NULL;
	if (sw_scenario_load("tests/data/coin.xml", &m, NULL) != SW_SUCCESS ||
	    sw_ens_property_compile(m, "reach(walker, upper) <= t_end", &p, NULL) != SW_SUCCESS) {
		printf("ensemble bench: tests/data/coin.xml failed to load\n");
		sw_model_free(m);
		return;
	}
	const sw_model *ms[] = {m};
	const sw_ens_property *ps[] = {p};
	sw_ens_plan plan = {1, ms, ps, runs, 1, 0.0, NULL};
	sw_ens_result *r = calloc((size_t)runs, sizeof *r);
	for (int threads = 1; r && threads <= 2; threads++) {
		double t0 = bench_now();
		sw_ens_execute(&plan, 0, runs, threads, r);
		double dt = bench_now() - t0;
		printf("ensemble coin.xml, %d thread%s        : %10.3g runs/s (%7.0f us per run)\n",
		       threads, threads > 1 ? "s" : " ", runs / dt, dt / runs * 1e6);
	}
	free(r);
	sw_ens_property_free(p);
	sw_model_free(m);
}

void bench_plan(void); /* bench_plan.c */

int main(int argc, char **argv)
{
	/* `bench_swerve crowd [MAX_N]` runs only the crowd section. */
	if (argc > 1 && strcmp(argv[1], "crowd") == 0) {
		bench_crowd_all(argc > 2 ? atoi(argv[2]) : 1000000);
		bench_flock3d();
		return 0;
	}
	/* `bench_swerve crowd-ttc|crowd-csm|crowd-sf [N [THREADS [STEP]]]`: the speed part with a
	 * crowd law (on 1 and 2 threads, or on THREADS only, for profiling), at the law's step or at
	 * STEP s (0: the law's). */
	if (argc > 1 && strncmp(argv[1], "crowd-", 6) == 0 && strcmp(argv[1], "crowd-one") != 0) {
		static const sw_law laws[] = {SW_LAW_TTC, SW_LAW_CSM, SW_LAW_SF};
		for (int k = 0; k < 3; k++)
			if (strcmp(argv[1] + 6, sw_law_name(laws[k])) == 0) {
				bench_crowd_law(laws[k], argc > 2 ? atoi(argv[2]) : 10000,
						argc > 3 ? atoi(argv[3]) : 0,
						argc > 4 ? atof(argv[4]) : 0.0);
				return 0;
			}
	}
	/* `bench_swerve crowd-one N [THREADS]`: the speed part at one size (for profiling). */
	if (argc > 2 && strcmp(argv[1], "crowd-one") == 0) {
		bench_crowd_one(atoi(argv[2]), argc > 3 ? atoi(argv[3]) : 1);
		return 0;
	}
	/* `bench_swerve events [euler|rk4]`: the cost of event detection only. */
	if (argc > 1 && strcmp(argv[1], "events") == 0) {
		bench_events(argc > 2 ? argv[2] : NULL);
		return 0;
	}
	/* `bench_swerve events-one euler|rk4 GUARDS [REPS]`: one case of it (for profiling). */
	if (argc > 3 && strcmp(argv[1], "events-one") == 0) {
		bench_events_one(argv[2], atoi(argv[3]), argc > 4 ? atoi(argv[4]) : 3);
		return 0;
	}
	int sizes[] = {1, 10, 100, 1000};
	for (int k = 0; k < 4; k++)
		bench_rhs(SW_LAW_GLM, sizes[k]);
	for (int k = 0; k < 4; k++)
		bench_rhs(SW_LAW_FW, sizes[k]);
	bench_world(10000, "euler");
	bench_world(10000, "rk4");
	bench_events(NULL);
	bench_crowd_all(1000000);
	bench_flock3d();
	bench_ensemble(4000);
	bench_plan();
	return 0;
}
