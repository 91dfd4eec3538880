/* bench/bench_crowd.c - the crowd benchmark of the crowd issue: circle swap at N = 10^2 .. 10^6,
 * and the 3-D flock of models/crowd_flock3d.xml.
 *
 * Scene: agents stand on concentric rings 1 m apart, 1 m apart along each ring, and walk to the
 * antipode of their start on their own ring (one target per agent).  Radius 0.2 m, perception
 * 1.25 m, so that an agent perceives about 10 others during the timed steps (the crowd packs as it
 * walks in: counted between chunks of timed steps and printed); GLM with the crowd settings of
 * models/crowd_circle_glm.xml (d0 = 0.5 m, d1 = 0.2 m, t2c = 0.5 s), noise 0.02, explicit Euler with
 * h = 0.1 s.
 *
 * Speed: a fixed number of steps from the start (about 2·10^6 agent-steps per size), on a fresh
 * world for 1 and for 2 threads, as agent-steps per second and ns per agent-step (wall clock; with
 * one thread also the process CPU time, which a busy machine inflates less).  Memory: bytes the
 * world allocates per agent (glibc's mallinfo2 before and after sw_world_create: the state of the
 * issue's "≤ 256 bytes of state per agent"), and the model's bytes per agent (agents, their
 * targets and names).  Quality: for N = 100 and 1000, runs to the end (4 R / v_max + 20 s) and
 * reports the fraction that reached their target, the number of agents that ever overlapped
 * another and the worst overlap depth. */
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "swerve/swerve.h"

#include "bench.h"

/* Steps per timed chunk (the neighbour count is sampled between chunks). */
#define SW_BENCH_CHUNK 20

/* Bytes currently allocated through malloc (glibc). */
static double heap_bytes(void)
{
	struct mallinfo2 mi = mallinfo2();
	return (double)mi.uordblks + (double)mi.hblkhd;
}

/* The law of the circle swap's agents: GLM (h = 0.1 s) or the time-to-collision law at its
 * defaults (h = 0.01 s, the step it needs to keep agents apart: docs/models.md section 7). */
static sw_law g_law = SW_LAW_GLM;
/* A step other than the law's (> 0), for the cost per simulated second at the step a law
 * needs for the overlap target (bench/README.md); 0: the law's. */
static double g_step = 0.0;

static double law_step(void)
{
	if (g_step > 0.0)
		return g_step;
	/* the steps the crowd models use (docs/models.md sections 7-9) */
	switch (g_law) {
	case SW_LAW_TTC:
	case SW_LAW_CSM: return 0.01;
	case SW_LAW_SF: return 0.002;
	default: return 0.1;
	}
}

/* The circle-swap model with n agents; *rmax receives the outer ring's radius. */
static sw_model *circle_model(int n, double *rmax)
{
	sw_model *m = sw_model_alloc("crowd_circle", NULL);
	char name[32];
	int placed = 0;
	double r = 5.0;
	/* Targets first (agents name theirs), ring by ring, then the agents. */
	for (int pass = 0; pass < 2; pass++) {
		placed = 0;
		r = 5.0;
		while (placed < n) {
			int k = (int)floor(2 * M_PI * r / 1.0);
			if (k > n - placed)
				k = n - placed;
			for (int j = 0; j < k; j++, placed++) {
				double a = 2 * M_PI * j / k + 0.5 * r; /* rings staggered */
				snprintf(name, sizeof name, "t%d", placed);
				if (pass == 0) {
					sw_target_def t = sw_default_target_def();
					t.name = name;
					t.position = sw_v2(-r * cos(a), -r * sin(a));
					t.radius = 0.3;
					sw_model_add_target(m, &t, NULL);
				} else {
					sw_agent_def ad = sw_default_agent_def();
					ad.position = sw_v2(r * cos(a), r * sin(a));
					ad.heading = a + M_PI;
					ad.target = name;
					ad.radius = 0.2;
					ad.perception = 1.25;
					ad.steer.glm.d0 = 0.5;
					ad.steer.glm.d1 = 0.2;
					ad.steer.glm.t2c = 0.5;
					if (g_law == SW_LAW_TTC) {
						ad.steer.law = SW_LAW_TTC;
						ad.steer.ttc = sw_default_ttc_params();
					} else if (g_law == SW_LAW_SF) {
						ad.steer.law = SW_LAW_SF;
						ad.steer.sf = sw_default_sf_params();
					} else if (g_law == SW_LAW_CSM) {
						/* the pedestrian crowd setting (time gap 0.5 s) */
						ad.steer.law = SW_LAW_CSM;
						ad.steer.csm = sw_default_csm_params();
						ad.steer.csm.time_gap = 0.5;
					}
					sw_model_add_agent(m, &ad, NULL);
				}
			}
			r += 1.0;
		}
	}
	*rmax = r - 1.0;
	sw_run_def run = sw_default_run_def();
	run.step = law_step();
	run.duration = 4.0 * *rmax + 20.0;
	sw_model_set_run(m, &run, 0, NULL);
	if (sw_model_finalize(m, NULL) != SW_SUCCESS) {
		sw_model_free(m);
		return NULL;
	}
	return m;
}

/* Mean number of agents each agent perceives at the start (every agent for n <= 10^4, else a
 * sample of 10^4). */
static double mean_neighbours(sw_world *w, int n)
{
	static sw_percept buf[4096];
	sw_situation s;
	int stride = n > 10000 ? n / 10000 : 1, cnt = 0;
	long sum = 0;
	for (int i = 0; i < n; i += stride, cnt++)
		sum += sw_world_perceive(w, i, &s, buf, 4096);
	return (double)sum / cnt;
}

static void speed(int n, int t_lo, int t_hi)
{
	double rmax, h0 = heap_bytes();
	sw_model *m = circle_model(n, &rmax);
	if (!m) {
		printf("crowd %d: model failed\n", n);
		return;
	}
	double h1 = heap_bytes();
	sw_world *w = NULL;
	if (sw_world_create(m, NULL, &w, NULL) != SW_SUCCESS) {
		printf("crowd %d: world failed\n", n);
		sw_model_free(m);
		return;
	}
	double h2 = heap_bytes();
	double nb = 0.0;
	int steps = (int)(2e6 / n);
	if (steps < 3)
		steps = 3;
	if (steps > 200)
		steps = 200;
	double rate[2] = {0, 0}, nb_sum = 0.0;
	int nb_count = 0;
	for (int t = t_lo; t <= t_hi; t++) {
		if (t > t_lo) { /* a fresh world: each thread count times the same steps */
			sw_world_destroy(w);
			w = NULL;
			if (sw_world_create(m, NULL, &w, NULL) != SW_SUCCESS) {
				printf("crowd %d: world failed\n", n);
				sw_model_free(m);
				return;
			}
		}
		sw_world_set_threads(w, t);
		sw_world_step(w, NULL); /* warm up the threads and caches */
		double dt = 0.0, dc = 0.0;
		/* Timed in chunks; between them (off the clock) the neighbour count is sampled, as
		 * the crowd packs tighter while it walks in. */
		for (int k = 0; k < steps; k += SW_BENCH_CHUNK) {
			double t0 = bench_now(), c0 = bench_cpu_now();
			for (int q = k; q < steps && q < k + SW_BENCH_CHUNK; q++)
				sw_world_step(w, NULL);
			dt += bench_now() - t0;
			dc += bench_cpu_now() - c0;
			nb_sum += mean_neighbours(w, n);
			nb_count++;
		}
		rate[t - 1] = (double)n * steps / dt;
		double ns = 1e9 * dt / ((double)n * steps);
		printf("crowd circle %s N %8d threads %d : %10.3g agent-steps/s %7.0f ns/agent-step "
		       "(h %g s: %.1f us per agent per simulated second)",
		       sw_law_name(g_law), n, t, rate[t - 1], ns, law_step(), 1e-3 * ns / law_step());
		if (t == 1)
			printf(" (cpu %4.0f ns)", 1e9 * dc / ((double)n * steps));
		printf("\n");
	}
	nb = nb_sum / nb_count;
	if (t_lo == t_hi) {
		printf("crowd circle N %8d : %.1f neighbours/agent, world %.0f B/agent\n", n, nb,
		       (h2 - h1) / n);
		sw_world_destroy(w);
		sw_model_free(m);
		return;
	}
	printf("crowd circle N %8d : %.1f neighbours/agent, speed-up x%.2f on 2 threads, world "
	       "%.0f B/agent, model %.0f B/agent\n",
	       n, nb, rate[1] / rate[0], (h2 - h1) / n, (h1 - h0) / n);
	sw_world_destroy(w);
	sw_model_free(m);
}

static void quality(int n)
{
	double rmax;
	sw_model *m = circle_model(n, &rmax);
	sw_world *w = NULL;
	if (!m || sw_world_create(m, NULL, &w, NULL) != SW_SUCCESS) {
		printf("crowd quality %d: failed\n", n);
		sw_model_free(m);
		return;
	}
	sw_world_set_threads(w, 0);
	int st = sw_world_run(w, NULL, NULL, NULL);
	int reached = 0, overlapped = 0;
	double worst = 0.0, tsum = 0.0;
	for (int i = 0; i < n; i++) {
		const sw_agent_metrics *mt = sw_world_metrics(w, i);
		reached += mt->reached;
		if (mt->reached)
			tsum += mt->t_reached;
		overlapped += mt->agent_collisions > 0;
		if (-mt->min_agent_clearance > worst)
			worst = -mt->min_agent_clearance;
	}
	printf("crowd circle N %8d quality: %s, %.1f s simulated, %.1f%% reached (mean time %.1f s), "
	       "%d agents overlapped another, worst overlap %.3f m\n",
	       n, st == SW_SUCCESS ? "ok" : "FAILED", sw_world_time(w), 100.0 * reached / n,
	       reached ? tsum / reached : 0.0, overlapped, worst);
	sw_world_destroy(w);
	sw_model_free(m);
}

void bench_crowd_all(int max_n)
{
	for (int n = 100; n <= max_n; n *= 10)
		speed(n, 1, 2);
	quality(100);
	quality(1000);
	/* The crowd laws (the pedestrian behaviour's ttc and csm, and sf) on the same rings at
	 * N = 10^4. */
	if (max_n >= 10000) {
		bench_crowd_law(SW_LAW_TTC, 10000, 0, 0.0);
		bench_crowd_law(SW_LAW_CSM, 10000, 0, 0.0);
		bench_crowd_law(SW_LAW_SF, 10000, 0, 0.0);
	}
}

void bench_crowd_one(int n, int threads)
{
	speed(n, threads, threads);
}

void bench_crowd_law(sw_law law, int n, int threads, double step)
{
	g_law = law;
	g_step = step;
	if (threads > 0)
		speed(n, threads, threads);
	else
		speed(n, 1, 2);
	g_law = SW_LAW_GLM;
	g_step = 0.0;
}

/* The 3-D flock of 500 (models/crowd_flock3d.xml, run from the repository root): world steps
 * per second on 1 and 2 threads, 200 steps after 10 warm-up steps. */
void bench_flock3d(void)
{
	sw_model *m = NULL;
	if (sw_scenario_load("models/crowd_flock3d.xml", &m, NULL) != SW_SUCCESS) {
		printf("flock3d: models/crowd_flock3d.xml not loaded (run from the repository root)\n");
		return;
	}
	for (int t = 1; t <= 2; t++) {
		sw_world *w = NULL;
		if (sw_world_create(m, NULL, &w, NULL) != SW_SUCCESS || sw_world_set_threads(w, t)) {
			sw_world_destroy(w);
			break;
		}
		for (int k = 0; k < 10; k++)
			sw_world_step(w, NULL);
		int n = m->n_agents, steps = 200;
		double t0 = bench_now();
		for (int k = 0; k < steps; k++)
			sw_world_step(w, NULL);
		double dt = bench_now() - t0;
		printf("flock3d N %d threads %d : %10.3g agent-steps/s %7.0f ns/agent-step\n", n, t,
		       n * steps / dt, 1e9 * dt / ((double)n * steps));
		sw_world_destroy(w);
	}
	sw_model_free(m);
}
