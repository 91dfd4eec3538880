/* tests/test_crowd.c - crowds: the single-evaluation path against the full evaluation, and
 * parallel stepping against one thread (identical bits, events and metrics). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "swerve/io.h"
#include "swerve/sim.h"
#include "sim/sim_internal.h"
#include "tests.h"

/* n agents on a circle of radius rad walking to the antipodes, perceiving each other within
 * 2.5 m, with heading noise, explicit Euler (the default integrator). */
static sw_model *circle_model(int n, double rad)
{
	sw_model *m = sw_model_alloc("swap", NULL);
	char name[16];
	for (int i = 0; i < n; i++) {
		double a = 2 * M_PI * i / n;
		sw_target_def t = sw_default_target_def();
		snprintf(name, sizeof name, "t%d", i);
		t.name = name;
		t.position = sw_v2(-rad * cos(a), -rad * sin(a));
		ck_assert_int_eq(sw_model_add_target(m, &t, NULL), SW_SUCCESS);
	}
	for (int i = 0; i < n; i++) {
		double a = 2 * M_PI * i / n;
		sw_agent_def ad = sw_default_agent_def();
		snprintf(name, sizeof name, "t%d", i);
		ad.position = sw_v2(rad * cos(a), rad * sin(a));
		ad.heading = a + M_PI;
		ad.target = name;
		ad.perception = 2.5;
		ad.radius = 0.2;
		ad.steer.glm.sigma_phi = 0.1;
		ad.steer.glm.d0 = 0.5; /* the crowd settings of models/crowd_circle_glm.xml */
		ad.steer.glm.d1 = 0.2;
		ad.steer.glm.t2c = 0.5;
		ck_assert_int_eq(sw_model_add_agent(m, &ad, NULL), SW_SUCCESS);
	}
	sw_run_def r = sw_default_run_def();
	r.duration = 4.0 * rad + 10.0;
	ck_assert_str_eq(r.integrator, "euler");
	ck_assert_int_eq(sw_model_set_run(m, &r, 0, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_model_finalize(m, NULL), SW_SUCCESS);
	return m;
}

static void on_event(const sw_world *w, int u, double t, int from, int to, const char *label,
		     const char *guard, void *ctx)
{
	(void)from;
	(void)label;
	(void)guard;
	test_outcome *o = ctx;
	if (o->n_ev < 256) {
		o->ev_t[o->n_ev] = t;
		o->ev_u[o->n_ev] = u;
		o->ev_to[o->n_ev] = to;
		o->ev_x[o->n_ev] = sw_world_unit_state(w, u, NULL)[SW_STATE_X]; /* at the event */
		ck_assert_int_eq(sw_world_unit_mode(w, u), to);
	}
	o->n_ev++;
}

/* Copies the world's final states, modes and metrics into o. */
static void collect(const sw_world *w, test_outcome *o)
{
	const sw_model *m = sw_world_model(w);
	o->nu = sw_world_n_units(w);
	o->mode = calloc((size_t)o->nu, sizeof *o->mode);
	o->mt = calloc((size_t)m->n_agents, sizeof *o->mt);
	int dim;
	for (int u = 0; u < o->nu; u++) {
		sw_world_unit_state(w, u, &dim);
		o->ny += (size_t)dim;
	}
	o->y = calloc(o->ny, sizeof *o->y);
	size_t k = 0;
	for (int u = 0; u < o->nu; u++) {
		const double *y = sw_world_unit_state(w, u, &dim);
		memcpy(o->y + k, y, (size_t)dim * sizeof *y);
		k += (size_t)dim;
		o->mode[u] = sw_world_unit_mode(w, u);
	}
	for (int i = 0; i < m->n_agents; i++)
		o->mt[i] = *sw_world_metrics(w, i);
}

test_outcome test_outcome_run(const sw_model *m, int threads, int fast)
{
	test_outcome o;
	memset(&o, 0, sizeof o);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_set_threads(w, threads), SW_SUCCESS);
	sw_world_set_fast_path(w, fast);
	sw_world_set_event_fn(w, on_event, &o);
	o.status = sw_world_run(w, NULL, NULL, NULL);
	collect(w, &o);
	sw_world_destroy(w);
	return o;
}

void test_outcome_free(test_outcome *o)
{
	free(o->y);
	free(o->mode);
	free(o->mt);
}

/* Bit-for-bit equality of two outcomes. */
void test_assert_same(const test_outcome *a, const test_outcome *b, int n_agents)
{
	ck_assert_int_eq(a->status, b->status);
	ck_assert_int_eq(a->nu, b->nu);
	ck_assert_uint_eq(a->ny, b->ny);
	ck_assert_int_eq(memcmp(a->y, b->y, a->ny * sizeof *a->y), 0);
	ck_assert_int_eq(memcmp(a->mode, b->mode, (size_t)a->nu * sizeof *a->mode), 0);
	for (int i = 0; i < n_agents; i++) {
		const sw_agent_metrics *x = &a->mt[i], *y = &b->mt[i];
		ck_assert_int_eq(x->reached, y->reached);
		ck_assert(x->t_reached == y->t_reached || (isnan(x->t_reached) && isnan(y->t_reached)));
		ck_assert(x->path_length == y->path_length);
		ck_assert(x->min_clearance == y->min_clearance);
		ck_assert(x->min_agent_clearance == y->min_agent_clearance);
		ck_assert_int_eq(x->agent_collisions, y->agent_collisions);
		ck_assert_int_eq(x->collisions, y->collisions);
	}
	ck_assert_int_eq(a->n_ev, b->n_ev);
	for (int k = 0; k < a->n_ev && k < 256; k++) {
		ck_assert(a->ev_t[k] == b->ev_t[k]);
		ck_assert(a->ev_x[k] == b->ev_x[k]);
		ck_assert_int_eq(a->ev_u[k], b->ev_u[k]);
		ck_assert_int_eq(a->ev_to[k], b->ev_to[k]);
	}
}

/* A wall named "wall" on x = 0 from y = -h to y = h. */
static void add_wall(sw_model *m, double h)
{
	sw_obstacle_def o = sw_default_obstacle_def();
	o.shape = SW_SHAPE_SEGMENT;
	o.name = "wall";
	o.a = sw_v2(0.0, -h);
	o.b = sw_v2(0.0, h);
	ck_assert_int_eq(sw_model_add_obstacle(m, &o, NULL), SW_SUCCESS);
}

/* A world of the model m with a default run of 1 s (m finalised here). */
static sw_world *world_for_one_second(sw_model *m)
{
	sw_run_def r = sw_default_run_def();
	r.duration = 1.0;
	ck_assert_int_eq(sw_model_set_run(m, &r, 0, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_model_finalize(m, NULL), SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	return w;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* The neighbour lists' sort (rank sort padded to 16 or 32 lanes, insertion above) against qsort,
 * for every length across the three paths, on distinct indices in random order. */
START_TEST(index_sort_agrees_with_qsort_at_every_length)
{
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	for (int n = 0; n <= 80; n++) {
		for (int rep = 0; rep < 20; rep++) {
			int a[80], b[80];
			/* distinct: a sparse increasing draw, then shuffled */
			for (int k = 0; k < n; k++)
				a[k] = (k ? a[k - 1] : 0) + 1 + (int)gsl_rng_uniform_int(g, 1000);
			if (rep == 0 && n > 0)
				a[n - 1] = INT_MAX - 1; /* the largest index beside the padding */
			if (n > 1)
				gsl_ran_shuffle(g, a, (size_t)n, sizeof *a);
			memcpy(b, a, sizeof a);
			sw__sort_indices(a, n);
			qsort(b, (size_t)n, sizeof *b, cmp_int);
			ck_assert_msg(memcmp(a, b, (size_t)n * sizeof *a) == 0, "n = %d", n);
		}
	}
	gsl_rng_free(g);
}
END_TEST

/* The neighbour grid's query against brute force, with each row scan the processor has (scalar,
 * AVX2, AVX-512: clang and processors without AVX2 run the scalar one), on clustered agents (rows of more than 16 slots, runs that end inside a vector) and
 * a few far away (the hashed layout), from every agent and from points between them. */
START_TEST(grid_query_equals_brute_force_with_both_scans)
{
	for (int layout = 0; layout < 2; layout++) {
		gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
		gsl_rng_set(g, 11 + layout);
		sw_model *m = sw_model_alloc("grid", NULL);
		int n = 400;
		for (int i = 0; i < n; i++) {
			sw_agent_def ad = sw_default_agent_def();
			double x = 6.0 * gsl_rng_uniform(g), y = 6.0 * gsl_rng_uniform(g);
			if (layout == 1 && i % 100 == 0) /* kilometres away: hashed layout */
				x += 5000.0 * (i / 100);
			ad.position = sw_v2(x, y);
			ad.perception = 0.5 + 1.5 * gsl_rng_uniform(g);
			ad.radius = 0.1 + 0.2 * gsl_rng_uniform(g);
			ck_assert_int_eq(sw_model_add_agent(m, &ad, NULL), SW_SUCCESS);
		}
		sw_world *w = world_for_one_second(m);
		ck_assert(w->grid.on);
		ck_assert_int_eq(w->grid.dense, layout == 0);
		int avx512 = w->grid.avx512, avx2 = w->grid.avx2, checked = 0;
		for (int scan = 0; scan < 3; scan++) {
			if ((scan == 1 && !avx2) || (scan == 2 && !avx512))
				continue; /* not on this processor (or compiler) */
			w->grid.avx2 = scan == 1;
			w->grid.avx512 = scan == 2;
			for (int q = 0; q < 2 * n; q++) {
				int i = q % n;
				sw_vec2 p = sw_v2(w->snap.pos[2 * i], w->snap.pos[2 * i + 1]);
				if (q >= n) /* a point near agent i, not its centre */
					p = sw_v2(p.x + gsl_rng_uniform(g) - 0.5,
						  p.y + gsl_rng_uniform(g) - 0.5);
				const sw_agent *ai = &m->agents[i];
				double reach = ai->perception + ai->radius + w->grid.rmax;
				double r2 = reach * reach * (1.0 + 1e-9);
				int want[400], nw = 0, *got = NULL;
				for (int j = 0; j < n; j++) {
					double dx = w->snap.pos[2 * j] - p.x;
					double dy = w->snap.pos[2 * j + 1] - p.y;
					if (j != i && dx * dx + dy * dy <= r2)
						want[nw++] = j;
				}
				int ng = sw__grid_query(&w->grid, sw__serial(w), i, p, reach, &got);
				ck_assert_int_eq(ng, nw);
				ck_assert(memcmp(got, want, (size_t)nw * sizeof *want) == 0);
				checked += nw > 16;
			}
		}
		ck_assert_int_gt(checked, 100); /* long lists were among them */
		w->grid.avx512 = avx512;
		w->grid.avx2 = avx2;
		sw_world_destroy(w);
		sw_model_free(m);
		gsl_rng_free(g);
	}
}
END_TEST

/* A wall with many discs behind it and 32 agents that see all of them: the percept buffer fills
 * within a group (perception stops early and the hidden discs are dropped afterwards).  Grouped
 * sensing gives the bits of sensing one agent at a time, for 1 and 3 threads. */
START_TEST(grouped_sensing_equals_one_agent_at_a_time)
{
	sw_model *m = sw_model_alloc("groups", NULL);
	add_wall(m, 20.0);
	sw_obstacle_def o;
	char name[32];
	for (int k = 0; k < 200; k++) { /* three in four behind the wall */
		o = sw_default_obstacle_def();
		snprintf(name, sizeof name, "d%d", k);
		o.name = name;
		o.center = sw_v2((k % 4 ? 2.0 : -6.0) + 0.01 * k, -15.0 + 0.15 * k);
		o.radius = 0.1;
		ck_assert_int_eq(sw_model_add_obstacle(m, &o, NULL), SW_SUCCESS);
	}
	sw_target_def t = sw_default_target_def();
	t.name = "goal";
	t.position = sw_v2(-3.0, 30.0);
	ck_assert_int_eq(sw_model_add_target(m, &t, NULL), SW_SUCCESS);
	for (int i = 0; i < 32; i++) {
		sw_agent_def ad = sw_default_agent_def();
		ad.position = sw_v2(-1.0 - 0.05 * (i % 4), -4.0 + 0.3 * i);
		ad.perception = 40.0;
		ad.radius = 0.1;
		ad.heading = 1.5;
		ad.steer.glm.sigma_phi = 0.1;
		ck_assert_int_eq(sw_model_add_agent(m, &ad, NULL), SW_SUCCESS);
	}
	sw_world *ref = world_for_one_second(m);
	/* After one agent's percepts the buffer has less room than there are primitives. */
	static sw_percept big[400];
	sw_situation s1;
	int n1 = sw_world_perceive(ref, 0, &s1, big, 400);
	ck_assert_int_lt(sw__serial(ref)->cap - n1, ref->m->n_prims);
	ref->threads.sense_group = 1;
	for (int k = 0; k < 5; k++)
		ck_assert_int_eq(sw_world_step(ref, NULL), SW_SUCCESS);
	size_t ny = (size_t)(ref->unit.off[ref->n - 1] + ref->unit.dim[ref->n - 1]);
	for (int threads = 1; threads <= 3; threads += 2) {
		sw_world *w = NULL;
		ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
		ck_assert_int_eq(sw_world_set_threads(w, threads), SW_SUCCESS);
		for (int k = 0; k < 5; k++)
			ck_assert_int_eq(sw_world_step(w, NULL), SW_SUCCESS);
		ck_assert_msg(memcmp(w->unit.y, ref->unit.y, ny * sizeof *w->unit.y) == 0,
			      "%d threads", threads);
		sw_world_destroy(w);
	}
	sw_world_destroy(ref);
	sw_model_free(m);
}
END_TEST

START_TEST(single_evaluation_path_gives_the_bits_of_the_full_evaluation)
{
	/* The step senses once at its end and Euler reuses that heading rate; turning the reuse
	 * off makes every flow evaluation perceive and evaluate the law again (sw_steer_rhs). */
	sw_model *m = circle_model(60, 11.5);
	test_outcome a = test_outcome_run(m, 1, 1), b = test_outcome_run(m, 1, 0);
	test_assert_same(&a, &b, m->n_agents);
	int reached = 0, met = 0;
	for (int i = 0; i < m->n_agents; i++) {
		reached += a.mt[i].reached;
		met += isfinite(a.mt[i].min_agent_clearance);
	}
	ck_assert_int_gt(reached, 10); /* the run did something: agents met and arrived */
	ck_assert_int_gt(met, 30);
	test_outcome_free(&a);
	test_outcome_free(&b);
	sw_model_free(m);
}
END_TEST

/* The crowd laws (ttc, sf, csm: plain agents on a ring, and the pedestrian behaviour's automaton
 * at the door) reuse the flow they sensed at the step end as the next step's flow; turning the
 * reuse off gives the same bits.  The reuse must be valid: it is checked against the state and
 * mode it was sensed at. */
START_TEST(crowd_laws_reuse_the_sensed_flow_with_the_same_bits)
{
	char xml[16384];
	size_t n = (size_t)sprintf(xml, "<scenario name='mix'><run duration='8' step='0.01'/><world>"
					"<disc name='p' x='0.3' y='0.2' radius='0.3'/>");
	for (int i = 0; i < 12; i++)
		n += (size_t)sprintf(xml + n, "<target name='t%d' x='%.6f' y='%.6f'/>", i,
				     -3.0 * cos(2 * M_PI * i / 12), -3.0 * sin(2 * M_PI * i / 12));
	n += (size_t)sprintf(xml + n, "</world>");
	static const char *const laws[] = {"<ttc/>", "<sf/>", "<csm time-gap='0.5'/>"};
	for (int i = 0; i < 12; i++)
		n += (size_t)sprintf(xml + n,
				     "<agent name='a%d' x='%.6f' y='%.6f' heading='%.6f' radius='0.2' "
				     "perception='3' target='t%d'>%s</agent>",
				     i, 3.0 * cos(2 * M_PI * i / 12), 3.0 * sin(2 * M_PI * i / 12),
				     2 * M_PI * i / 12 + M_PI, i, laws[i % 3]);
	n += (size_t)sprintf(xml + n, "</scenario>");
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory(xml, n, "mix.xml", &m, &d), SW_SUCCESS);
	test_outcome a = test_outcome_run(m, 1, 1), b = test_outcome_run(m, 1, 0);
	ck_assert_int_eq(a.status, SW_SUCCESS);
	test_assert_same(&a, &b, m->n_agents);
	test_outcome_free(&a);
	test_outcome_free(&b);
	sw_model_free(m);
	ck_assert_int_eq(sw_scenario_load("models/crowd_door.xml", &m, &d), SW_SUCCESS);
	a = test_outcome_run(m, 1, 1);
	b = test_outcome_run(m, 1, 0);
	ck_assert_int_eq(a.status, SW_SUCCESS);
	test_assert_same(&a, &b, m->n_agents);
	ck_assert_int_gt(a.n_ev, 40); /* the automata switched modes */
	test_outcome_free(&a);
	test_outcome_free(&b);
	sw_model_free(m);
}
END_TEST

START_TEST(one_two_and_four_threads_give_identical_bits)
{
	sw_model *m = circle_model(97, 18.5); /* blocks of unequal size */
	test_outcome a = test_outcome_run(m, 1, 1);
	for (int t = 2; t <= 4; t += 2) {
		test_outcome b = test_outcome_run(m, t, 1);
		test_assert_same(&a, &b, m->n_agents);
		test_outcome_free(&b);
	}
	test_outcome_free(&a);
	sw_model_free(m);
}
END_TEST

/* Scenarios with automata, signals, events and other integrators: threads change nothing. */
static const char *scenarios[] = {"models/flock.xml", "models/street_crossing.xml",
				  "models/pursuit_evasion.xml", "models/seek_escape_trap.xml"};

START_TEST(automata_scenarios_step_identically_on_one_and_three_threads)
{
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load(scenarios[_i], &m, &d), SW_SUCCESS);
	test_outcome a = test_outcome_run(m, 1, 1), b = test_outcome_run(m, 3, 1);
	ck_assert_int_eq(a.status, SW_SUCCESS);
	test_assert_same(&a, &b, m->n_agents);
	ck_assert_int_gt(a.n_ev, 0); /* transitions happened and were delivered */
	test_outcome_free(&a);
	test_outcome_free(&b);
	sw_model_free(m);
}
END_TEST

START_TEST(thread_count_is_checked)
{
	sw_model *m = circle_model(4, 3.0);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_threads(w), 1);
	ck_assert_int_eq(sw_world_set_threads(w, -1), SW_EUSAGE);
	ck_assert_int_eq(sw_world_set_threads(w, 0), SW_SUCCESS);
	ck_assert_int_ge(sw_world_threads(w), 1);
	ck_assert_int_eq(sw_world_set_threads(w, 8), SW_SUCCESS); /* more threads than agents */
	ck_assert_int_eq(sw_world_step(w, NULL), SW_SUCCESS);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Threads waiting for the next pass sleep after a bounded spin: on a busy machine a spinning
 * waiter takes the processor its partner needs (libgomp's default spin, about 300 000 polls,
 * made -j 2 twenty times slower than -j 1 under load).  Between steps the caller pauses
 * 5 x 50 ms; a worker polls at most 1 ms of each pause (sim/pool.c SPIN_MAX) before it sleeps,
 * so the process spends about 5 ms of processor time meanwhile.  A worker that never slept would
 * spend the whole 250 ms, or at least a third of it on a machine whose two processors are busy
 * with other jobs; the bound, 40 ms, lies between with room on both sides (a loaded machine under
 * AddressSanitizer measured 12 ms where 5 were expected). */
START_TEST(threads_waiting_for_work_sleep)
{
	sw_model *m = circle_model(8, 3.0);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	int ok = sw_world_set_threads(w, 2) == SW_SUCCESS;
	double spent = 0.0;
	for (int k = 0; k < 5 && ok; k++) {
		ok = sw_world_step(w, NULL) == SW_SUCCESS;
		double c0 = cpu_seconds();
		nanosleep(&(struct timespec){0, 50000000}, NULL);
		spent += cpu_seconds() - c0;
	}
	sw_world_destroy(w); /* before the checks, so a failure leaks nothing */
	sw_model_free(m);
	ck_assert_msg(ok, "setting two threads or stepping failed");
	ck_assert_msg(spent < 40e-3, "%.1f ms of processor time while idle", 1e3 * spent);
}
END_TEST

START_TEST(flock_attractors_match_their_closed_forms)
{
	/* Two neighbours (agent percepts) and no target: f_tar is the sum of the cohesion and
	 * alignment attractors -k sin(phi - psi) with psi the centroid's and the mean heading's
	 * directions. */
	sw_glm_params p = sw_default_glm_params();
	p.cohesion = 0.7;
	p.alignment = 0.4;
	sw_percept o[3] = {{1.0, 2.0, hypot(1.0, 2.0), 0.25, 1.5, -2, cos(0.3), sin(0.3)},
			   {3.0, -1.0, hypot(3.0, -1.0), 0.25, 2.6, -3, cos(1.1), sin(1.1)},
			   {-4.0, 0.5, hypot(-4.0, 0.5), 0.5, 3.0, 7, 0.0, 0.0}}; /* an obstacle */
	sw_situation s = {0.0, 0.0, 0.25, 0, 0.0, 0.0, 3, o, NULL, 0};
	double psi_c = atan2(0.5, 2.0); /* centroid (2, 0.5) of the agents only */
	double psi_h = atan2(sin(0.3) + sin(1.1), cos(0.3) + cos(1.1));
	for (double phi = -3.0; phi < 3.2; phi += 0.37) {
		sw_glm_terms t;
		sw_glm_eval(&p, &s, phi, 1.0, 1.0, &t);
		ck_assert_double_eq_tol(t.f_tar, -0.7 * sin(phi - psi_c) - 0.4 * sin(phi - psi_h),
					1e-14);
		ck_assert_double_eq_tol(t.df_tar, -0.7 * cos(phi - psi_c) - 0.4 * cos(phi - psi_h),
					1e-14);
	}
	p.cohesion = p.alignment = 0.0;
	sw_glm_terms t;
	sw_glm_eval(&p, &s, 0.5, 1.0, 1.0, &t);
	ck_assert_double_eq(t.f_tar, 0.0);
}
END_TEST

/* Polarisation |mean heading unit vector| of every agent. */
static double polarisation(const sw_world *w, int n)
{
	double hx = 0.0, hy = 0.0;
	for (int i = 0; i < n; i++) {
		double phi = sw_world_unit_state(w, i, NULL)[SW_STATE_PHI];
		hx += cos(phi);
		hy += sin(phi);
	}
	return hypot(hx, hy) / n;
}

START_TEST(alignment_brings_a_disordered_group_to_a_common_heading)
{
	/* 25 agents on a 5 x 5 lattice 2 m apart with scattered headings, all perceiving each
	 * other, slow (0.2 m/s) and without a target: with alignment the group polarises (|mean
	 * heading| -> 1); without it the headings stay scattered (the repellers alone do not align
	 * them).  (With short perception and faster agents a group splits into locally aligned
	 * parts, as flocking models do.) */
	double pol[2];
	for (int with = 0; with < 2; with++) {
		sw_model *m = sw_model_alloc("align", NULL);
		for (int i = 0; i < 25; i++) {
			sw_agent_def ad = sw_default_agent_def();
			ad.position = sw_v2(2.0 * (i % 5), 2.0 * (i / 5));
			ad.heading = fmod(2.399963 * i, 2 * M_PI); /* golden-angle scatter */
			ad.perception = 20.0;
			ad.steer.glm.speed = SW_SPEED_CONSTANT;
			ad.steer.glm.v_max = 0.2;
			ad.steer.glm.sigma_phi = 0.0;
			ad.steer.glm.alignment = with ? 1.0 : 0.0;
			ck_assert_int_eq(sw_model_add_agent(m, &ad, NULL), SW_SUCCESS);
		}
		sw_run_def r = sw_default_run_def();
		r.duration = 30.0;
		r.step = 0.1;
		ck_assert_int_eq(sw_model_set_run(m, &r, 0, NULL), SW_SUCCESS);
		ck_assert_int_eq(sw_model_finalize(m, NULL), SW_SUCCESS);
		sw_world *w = NULL;
		ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
		ck_assert_double_lt(polarisation(w, 25), 0.2);
		ck_assert_int_eq(sw_world_run(w, NULL, NULL, NULL), SW_SUCCESS);
		pol[with] = polarisation(w, 25);
		sw_world_destroy(w);
		sw_model_free(m);
	}
	ck_assert_double_gt(pol[1], 0.9);
	ck_assert_double_lt(pol[0], 0.6);
}
END_TEST

START_TEST(perception_buffers_grow_for_dense_crowds)
{
	/* 300 agents in a 20 m x 15 m block, unlimited perception: every agent perceives the 299
	 * others, more than the initial percept buffers hold (primitives + 256); the buffers grow
	 * and the runs on one and two threads still agree bit for bit. */
	sw_model *m = sw_model_alloc("dense", NULL);
	for (int i = 0; i < 300; i++) {
		sw_agent_def ad = sw_default_agent_def();
		ad.position = sw_v2(1.0 * (i % 20), 1.0 * (i / 20));
		ad.heading = 0.1 * i;
		ad.radius = 0.2;
		ad.steer.glm.speed = SW_SPEED_CONSTANT;
		ck_assert_int_eq(sw_model_add_agent(m, &ad, NULL), SW_SUCCESS);
	}
	sw_world *w = world_for_one_second(m);
	static sw_percept buf[400];
	sw_situation s;
	ck_assert_int_eq(sw_world_perceive(w, 0, &s, buf, 400), 299);
	ck_assert_int_eq(s.n_obs, 299);
	for (int k = 0; k < 299; k++)
		ck_assert_int_eq(buf[k].id, -2 - k); /* agents 1 .. 299 in index order */
	sw_world_destroy(w);
	test_outcome a = test_outcome_run(m, 1, 1), b = test_outcome_run(m, 2, 1);
	test_assert_same(&a, &b, m->n_agents);
	test_outcome_free(&a);
	test_outcome_free(&b);
	sw_model_free(m);
}
END_TEST

START_TEST(walls_hide_agents_and_discs)
{
	/* A wall x = 0, -5 <= y <= 5.  Agent A at (-1, 0) perceives (5 m) the wall and agent C on
	 * its side, but neither agent B nor the disc on the other side; with the grid on and off. */
	for (int grid = 0; grid < 2; grid++) {
		sw_model *m = sw_model_alloc("walls", NULL);
		add_wall(m, 5.0);
		sw_obstacle_def o = sw_default_obstacle_def();
		o.name = "pillar";
		o.center = sw_v2(1.5, 2.0);
		o.radius = 0.3;
		ck_assert_int_eq(sw_model_add_obstacle(m, &o, NULL), SW_SUCCESS);
		const double xy[3][2] = {{-1.0, 0.0}, {1.0, 0.0}, {-1.0, 3.0}};
		for (int i = 0; i < 3; i++) {
			sw_agent_def ad = sw_default_agent_def();
			ad.position = sw_v2(xy[i][0], xy[i][1]);
			ad.perception = 5.0;
			ck_assert_int_eq(sw_model_add_agent(m, &ad, NULL), SW_SUCCESS);
		}
		sw_run_def r = sw_default_run_def();
		r.neighbor_grid = grid;
		ck_assert_int_eq(sw_model_set_run(m, &r, 0, NULL), SW_SUCCESS);
		ck_assert_int_eq(sw_model_finalize(m, NULL), SW_SUCCESS);
		sw_world *w = NULL;
		ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
		sw_percept buf[8];
		sw_situation s;
		ck_assert_int_eq(sw_world_perceive(w, 0, &s, buf, 8), 2);
		ck_assert_int_eq(buf[0].id, 0);  /* the wall (primitive 0) */
		ck_assert_int_eq(buf[1].id, -3); /* agent C */
		/* B sees the pillar and no agent; C sees the wall and A. */
		ck_assert_int_eq(sw_world_perceive(w, 1, &s, buf, 8), 2);
		ck_assert_int_eq(buf[0].id, 0);
		ck_assert_int_eq(buf[1].id, 1);
		ck_assert_int_eq(sw_world_perceive(w, 2, &s, buf, 8), 2);
		ck_assert_int_eq(buf[1].id, -1);
		sw_world_destroy(w);
		sw_model_free(m);
	}
}
END_TEST

/* A model of n agents standing apart, each with a personality whose agility is drawn from
 * `agility` and courage from normal(0.5, 0.2); loaded from XML so the reader is exercised. */
static sw_model *drawn_model(int n, const char *agility, unsigned seed)
{
	char *xml = malloc(200 + (size_t)n * 160);
	int len = sprintf(xml, "<scenario name=\"p\"><run duration=\"1\" seed=\"%u\"/><world/>"
			       "<group><personality agility=\"%s\" courage=\"normal(0.5, 0.2)\"/>",
			  seed, agility);
	for (int i = 0; i < n; i++)
		len += sprintf(xml + len, "<agent x=\"%d\" y=\"0\" perception=\"1\"/>", 3 * i);
	sprintf(xml + len, "</group></scenario>");
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	int st = sw_scenario_load_memory(xml, strlen(xml), "drawn.xml", &m, &d);
	free(xml);
	ck_assert_int_eq(st, SW_SUCCESS);
	return m;
}

START_TEST(personality_traits_are_drawn_per_agent_from_their_distributions)
{
	/* uniform(0.2, 0.6) over 2000 agents: every draw in range, the mean within 4 standard
	 * errors of 0.4 (sd of the mean 0.4 / sqrt(12 * 2000) = 0.0026); the same seed draws the
	 * same values, another seed others; courage normal(0.5, 0.2) clamped to [0, 1] moves d0. */
	sw_model *m = drawn_model(2000, "uniform(0.2, 0.6)", 5);
	sw_world *w = NULL, *w2 = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_create(m, NULL, &w2, NULL), SW_SUCCESS);
	double sum = 0.0, d0_min = INFINITY, d0_max = 0.0;
	for (int i = 0; i < 2000; i++) {
		const sw_personality *p = sw_world_personality(w, i);
		ck_assert(p->has_agility && p->has_courage);
		ck_assert(p->agility >= 0.2 && p->agility <= 0.6);
		ck_assert(p->courage >= 0.0 && p->courage <= 1.0);
		ck_assert(p->agility == sw_world_personality(w2, i)->agility);
		sum += p->agility;
		double d0 = sw_world_steer(w, i)->glm.d0;
		d0_min = fmin(d0_min, d0);
		d0_max = fmax(d0_max, d0);
	}
	ck_assert_double_lt(fabs(sum / 2000 - 0.4), 4 * 0.4 / sqrt(12.0 * 2000));
	ck_assert_double_lt(d0_min, d0_max); /* courage differs, so d0 does */
	ck_assert(sw_world_personality(w, 0)->agility != sw_world_personality(w, 1)->agility);
	sw_world_destroy(w);
	sw_world_destroy(w2);
	sw_model_free(m);
	m = drawn_model(50, "uniform(0.2, 0.6)", 6);
	sw_model *m5 = drawn_model(50, "uniform(0.2, 0.6)", 5);
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_create(m5, NULL, &w2, NULL), SW_SUCCESS);
	int same = 0;
	for (int i = 0; i < 50; i++)
		same += sw_world_personality(w, i)->agility == sw_world_personality(w2, i)->agility;
	ck_assert_int_eq(same, 0);
	sw_world_destroy(w);
	sw_world_destroy(w2);
	sw_model_free(m);
	sw_model_free(m5);
}
END_TEST

START_TEST(bad_trait_distributions_are_errors)
{
	const char *bad[] = {"uniform(0.7, 0.2)", "uniform(0.2)", "normal(0.5, -1)",
			     "uniform(0, 2)", "gamma(1, 2)"};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		char xml[512];
		snprintf(xml, sizeof xml,
			 "<scenario name=\"p\"><world/>\n<agent x=\"0\" y=\"0\">\n"
			 "<personality agility=\"%s\"/></agent></scenario>",
			 bad[k]);
		sw_model *m = NULL;
		sw_diag d;
		sw_diag_init(&d);
		ck_assert_int_eq(sw_scenario_load_memory(xml, strlen(xml), "bad.xml", &m, &d),
				 SW_EINPUT);
		ck_assert_ptr_null(m);
		ck_assert_int_ge(d.count, 1);
		ck_assert_msg(d.entry[0].line >= 2, "%s: no line", bad[k]);
	}
}
END_TEST

/* Runs m for `first` steps, checkpoints, restores into a fresh world and runs on: the outcome of
 * the resumed world, with the checkpoint's bytes in *ck (freed by the caller). */
static test_outcome resumed(const sw_model *m, long first, int threads, void **ck, size_t *ckn)
{
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_set_threads(w, threads), SW_SUCCESS);
	test_outcome o;
	memset(&o, 0, sizeof o);
	sw_world_set_event_fn(w, on_event, &o);
	for (long k = 0; k < first; k++)
		ck_assert_int_eq(sw_world_step(w, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_checkpoint(w, ck, ckn), SW_SUCCESS);
	sw_world_destroy(w);
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_set_threads(w, threads), SW_SUCCESS);
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_world_restore(w, *ck, *ckn, "ck", &d), SW_SUCCESS);
	ck_assert_int_eq(sw_world_steps(w), first);
	sw_world_set_event_fn(w, on_event, &o);
	o.status = sw_world_run(w, NULL, NULL, NULL);
	collect(w, &o);
	sw_world_destroy(w);
	return o;
}

START_TEST(a_resumed_world_continues_bit_for_bit)
{
	/* Run to the end versus: run 37 % of the steps, checkpoint, restore into a new world,
	 * run on.  Same states, modes, metrics, and the same events (those before the
	 * checkpoint are recorded by the first world, the rest by the second).  Scenarios with
	 * automata, signals, progress() histories, SteerBench sums and noise. */
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load(scenarios[_i], &m, &d), SW_SUCCESS);
	test_outcome a = test_outcome_run(m, 1, 1);
	long total = (long)ceil(m->run.duration / m->run.step - 1e-9);
	void *ck = NULL;
	size_t ckn = 0;
	test_outcome b = resumed(m, (long)(0.37 * total), 2, &ck, &ckn);
	test_assert_same(&a, &b, m->n_agents);
	/* Damage: one flipped byte, a truncation, another seed: refused, world untouched. */
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	double x0 = sw_world_unit_state(w, 0, NULL)[SW_STATE_X];
	unsigned char *bytes = ck;
	bytes[ckn / 2] ^= 0x10;
	ck_assert_int_eq(sw_world_restore(w, ck, ckn, "ck", &d), SW_EINPUT);
	bytes[ckn / 2] ^= 0x10;
	ck_assert_int_eq(sw_world_restore(w, ck, ckn - 9, "ck", &d), SW_EINPUT);
	ck_assert(sw_world_unit_state(w, 0, NULL)[SW_STATE_X] == x0);
	ck_assert_int_eq(sw_world_steps(w), 0);
	sw_world_destroy(w);
	sw_world_def other = sw_default_world_def(m);
	other.seed += 1;
	ck_assert_int_eq(sw_world_create(m, &other, &w, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_restore(w, ck, ckn, "ck", &d), SW_EINPUT);
	sw_world_destroy(w);
	free(ck);
	test_outcome_free(&a);
	test_outcome_free(&b);
	sw_model_free(m);
}
END_TEST

/* Crowd models whose sensing changes an agent's state after the snapshot was taken (a
 * time-to-collision agent's speed floored at 0; the speed model's algebraic heading and speed):
 * a world restored mid-run steps on with the same bits as the world it came from, over the next
 * 150 steps.  (The snapshot's velocities are in the checkpoint: rebuilt from the restored states,
 * they differed in the first step.) */
static const char *crowd_resumes[] = {"models/crowd_circle_ttc.xml", "models/crowd_door.xml"};

START_TEST(crowd_worlds_restored_mid_run_step_on_bit_for_bit)
{
	sw_model *m = NULL;
	ck_assert_int_eq(sw_scenario_load(crowd_resumes[_i], &m, NULL), SW_SUCCESS);
	sw_world *a = NULL, *b = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &a, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_world_create(m, NULL, &b, NULL), SW_SUCCESS);
	for (int k = 0; k < 400; k++)
		ck_assert_int_eq(sw_world_step(a, NULL), SW_SUCCESS);
	void *ck = NULL;
	size_t len = 0;
	ck_assert_int_eq(sw_world_checkpoint(a, &ck, &len), SW_SUCCESS);
	ck_assert_int_eq(sw_world_restore(b, ck, len, "ck", NULL), SW_SUCCESS);
	for (int k = 0; k < 150; k++) {
		ck_assert_int_eq(sw_world_step(a, NULL), SW_SUCCESS);
		ck_assert_int_eq(sw_world_step(b, NULL), SW_SUCCESS);
		for (int u = 0; u < sw_world_n_units(a); u++) {
			int da = 0, db = 0;
			const double *ya = sw_world_unit_state(a, u, &da);
			const double *yb = sw_world_unit_state(b, u, &db);
			ck_assert_int_eq(da, db);
			ck_assert_msg(memcmp(ya, yb, (size_t)da * sizeof *ya) == 0,
				      "%s: unit %d differs %d steps after the restore", crowd_resumes[_i],
				      u, k + 1);
			ck_assert_int_eq(sw_world_unit_mode(a, u), sw_world_unit_mode(b, u));
		}
	}
	free(ck);
	sw_world_destroy(a);
	sw_world_destroy(b);
	sw_model_free(m);
}
END_TEST

Suite *crowd_suite(void)
{
	Suite *s = suite_create("crowd");
	TCase *tc = tcase_create("crowd");
	tcase_add_test(tc, index_sort_agrees_with_qsort_at_every_length);
	tcase_add_test(tc, grid_query_equals_brute_force_with_both_scans);
	tcase_add_test(tc, grouped_sensing_equals_one_agent_at_a_time);
	tcase_add_test(tc, single_evaluation_path_gives_the_bits_of_the_full_evaluation);
	tcase_add_test(tc, one_two_and_four_threads_give_identical_bits);
	tcase_add_test(tc, crowd_laws_reuse_the_sensed_flow_with_the_same_bits);
	tcase_add_loop_test(tc, automata_scenarios_step_identically_on_one_and_three_threads, 0,
			    (int)(sizeof scenarios / sizeof scenarios[0]));
	tcase_add_test(tc, thread_count_is_checked);
	tcase_add_test(tc, threads_waiting_for_work_sleep);
	tcase_add_loop_test(tc, a_resumed_world_continues_bit_for_bit, 0,
			    (int)(sizeof scenarios / sizeof scenarios[0]));
	tcase_add_loop_test(tc, crowd_worlds_restored_mid_run_step_on_bit_for_bit, 0,
			    (int)(sizeof crowd_resumes / sizeof *crowd_resumes));
	tcase_add_test(tc, flock_attractors_match_their_closed_forms);
	tcase_add_test(tc, perception_buffers_grow_for_dense_crowds);
	tcase_add_test(tc, walls_hide_agents_and_discs);
	tcase_add_test(tc, personality_traits_are_drawn_per_agent_from_their_distributions);
	tcase_add_test(tc, bad_trait_distributions_are_errors);
	tcase_add_test(tc, alignment_brings_a_disordered_group_to_a_common_heading);
	suite_add_tcase(s, tc);
	return s;
}
