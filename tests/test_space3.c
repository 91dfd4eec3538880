/* tests/test_space3.c - three-dimensional agents and flocks (steering-models.md section 1.5):
 * a planar 3-D scene against its 2-D twin, the closed form of eq. (2) out of the plane,
 * rotation invariance, |u| = 1, the neighbour grid against brute force, thread counts, the 3-D
 * distances of behaviour guards, and bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "swerve/io.h"
#include "swerve/sim.h"
#include "tests.h"

/* Scene options. */
typedef struct {
	int dim3;        /* build a 3-D scenario */
	double R[9];     /* rotation applied to every position and heading (row-major) */
	int n;           /* agents */
	int obstacles;   /* pillars and a wall (then R must turn about z only) */
	int spread_z;    /* agents and target at different heights */
	int agility;     /* odd agents turn through the agility lag */
	double sigma;    /* heading noise */
	int grid;        /* neighbour grid on */
} scene_opt;

static scene_opt default_opt(void)
{
	scene_opt o;
	memset(&o, 0, sizeof o);
	o.R[0] = o.R[4] = o.R[8] = 1.0;
	o.n = 12;
	o.grid = 1;
	return o;
}

/* A 3-D flock at several heights with pillars, a wall and the agility lag. */
static scene_opt flock3_opt(int n, double sigma)
{
	scene_opt o = default_opt();
	o.dim3 = 1;
	o.spread_z = 1;
	o.agility = 1;
	o.obstacles = 1;
	o.n = n;
	o.sigma = sigma;
	return o;
}

static void rot(const double R[9], const double p[3], double out[3])
{
	for (int r = 0; r < 3; r++)
		out[r] = R[3 * r] * p[0] + R[3 * r + 1] * p[1] + R[3 * r + 2] * p[2];
}

/* A flock of o->n agents with cohesion and alignment flying to one target, past two pillars and
 * a wall when asked. */
static sw_model *flock_model(const scene_opt *o)
{
	sw_model *m = sw_model_alloc("flock3", NULL);
	if (o->dim3)
		ck_assert_int_eq(sw_model_set_3d(m, 0), SW_SUCCESS);
	double p[3], q[3];
	sw_target_def t = sw_default_target_def();
	t.name = "roost";
	t.radius = 1.0;
	p[0] = 30.0, p[1] = 2.0, p[2] = o->spread_z ? 6.0 : 0.0;
	rot(o->R, p, q);
	t.position = sw_v2(q[0], q[1]);
	t.z = q[2];
	ck_assert_int_eq(sw_model_add_target(m, &t, NULL), SW_SUCCESS);
	if (o->obstacles) {
		const double disc[2][3] = {{10.0, 1.0, 0.8}, {14.0, -1.5, 0.6}};
		for (int k = 0; k < 2; k++) {
			sw_obstacle_def d = sw_default_obstacle_def();
			p[0] = disc[k][0], p[1] = disc[k][1], p[2] = 0.0;
			rot(o->R, p, q);
			d.center = sw_v2(q[0], q[1]);
			d.radius = disc[k][2];
			ck_assert_int_eq(sw_model_add_obstacle(m, &d, NULL), SW_SUCCESS);
		}
		sw_obstacle_def s = sw_default_obstacle_def();
		s.shape = SW_SHAPE_SEGMENT;
		p[0] = 18.0, p[1] = 3.5, p[2] = 0.0;
		rot(o->R, p, q);
		s.a = sw_v2(q[0], q[1]);
		p[0] = 24.0;
		rot(o->R, p, q);
		s.b = sw_v2(q[0], q[1]);
		ck_assert_int_eq(sw_model_add_obstacle(m, &s, NULL), SW_SUCCESS);
	}
	char name[16];
	for (int i = 0; i < o->n; i++) {
		sw_agent_def a = sw_default_agent_def();
		snprintf(name, sizeof name, "b%d", i);
		a.name = name;
		p[0] = (i % 4) * 0.9, p[1] = (i / 4) * 0.9 - 1.5;
		p[2] = o->spread_z ? (i % 3) * 0.7 : 0.0;
		rot(o->R, p, q);
		a.position = sw_v2(q[0], q[1]);
		double hd = 0.15 * (i % 5) - 0.3, pt = o->spread_z ? 0.1 * (i % 3) - 0.1 : 0.0;
		double u[3] = {cos(pt) * cos(hd), cos(pt) * sin(hd), sin(pt)}, v[3];
		rot(o->R, u, v);
		a.heading = atan2(v[1], v[0]);
		if (o->dim3) {
			a.z = q[2];
			a.pitch = asin(fmax(-1.0, fmin(1.0, v[2])));
		}
		a.radius = 0.2;
		a.perception = 3.0;
		a.speed = 1.0;
		a.stop_at_target = 0;
		a.steer.glm.sigma_phi = o->sigma;
		a.steer.glm.d0 = 0.5;
		a.steer.glm.d1 = 0.2;
		a.steer.glm.t2c = 0.5;
		a.steer.glm.cohesion = 0.3;
		a.steer.glm.alignment = 0.5;
		if (o->agility && i % 2) {
			a.personality.has_agility = 1;
			a.personality.agility = 0.6;
		}
		ck_assert_int_eq(sw_model_add_agent(m, &a, NULL), SW_SUCCESS);
	}
	sw_run_def r = sw_default_run_def();
	r.duration = 30.0;
	r.step = 0.1;
	r.neighbor_grid = o->grid;
	ck_assert_int_eq(sw_model_set_run(m, &r, 0, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_model_finalize(m, NULL), SW_SUCCESS);
	return m;
}

static sw_world *make_world(const sw_model *m)
{
	sw_world *w = NULL;
	sw_diag d;
	sw_diag_init(&d);
	int st = sw_world_create(m, NULL, &w, &d);
	if (st != SW_SUCCESS)
		for (int k = 0; k < d.count; k++)
			fprintf(stderr, "%s:%d: %s\n", d.entry[k].file, d.entry[k].line,
				d.entry[k].message);
	ck_assert_int_eq(st, SW_SUCCESS);
	return w;
}

static void step(sw_world *w)
{
	ck_assert_int_eq(sw_world_step(w, NULL), SW_SUCCESS);
}

/* 1. A 3-D scene in the plane z = 0 follows its 2-D twin: GLM with pillars, a wall, other
 * agents as repellers, cohesion, alignment and (half the agents) the agility lag. */
START_TEST(test_planar_equivalence)
{
	scene_opt o = default_opt();
	o.obstacles = 1;
	o.agility = 1;
	sw_model *m2 = flock_model(&o);
	o.dim3 = 1;
	sw_model *m3 = flock_model(&o);
	sw_world *w2 = make_world(m2), *w3 = make_world(m3);
	ck_assert(!sw_world_is_3d(w2) && sw_world_is_3d(w3));
	double worst = 0.0;
	int moved = 0;
	for (int s = 0; s < 300; s++) {
		step(w2);
		step(w3);
		for (int i = 0; i < o.n; i++) {
			const double *a = sw_world_unit_state(w2, i, NULL);
			const double *b = sw_world_unit_state(w3, i, NULL);
			const double *q = sw_world_agent3(w3, i);
			const double d[] = {a[SW_STATE_X] - b[SW_STATE_X], a[SW_STATE_Y] - b[SW_STATE_Y],
					    a[SW_STATE_PHI] - b[SW_STATE_PHI],
					    a[SW_STATE_OMEGA] - b[SW_STATE_OMEGA],
					    a[SW_STATE_V] - b[SW_STATE_V],
					    a[SW_STATE_WTAR] - b[SW_STATE_WTAR],
					    a[SW_STATE_WOBS] - b[SW_STATE_WOBS],
					    cos(a[SW_STATE_PHI]) - q[SW_STATE3_UX],
					    sin(a[SW_STATE_PHI]) - q[SW_STATE3_UY], q[SW_STATE3_UZ],
					    q[SW_STATE3_Z]};
			for (size_t k = 0; k < sizeof d / sizeof d[0]; k++)
				worst = fmax(worst, fabs(d[k]));
		}
	}
	for (int i = 0; i < o.n; i++)
		moved += sw_world_unit_state(w2, i, NULL)[SW_STATE_X] > 20.0;
	ck_assert_msg(worst < 1e-9, "planar 3-D differs from 2-D by %g", worst);
	ck_assert_int_ge(moved, o.n / 2); /* the scene did something */
	/* the metrics agree too (3-D agent clearances in the plane are the 2-D ones) */
	for (int i = 0; i < o.n; i++) {
		const sw_agent_metrics *a = sw_world_metrics(w2, i), *b = sw_world_metrics(w3, i);
		ck_assert(fabs(a->min_agent_clearance - b->min_agent_clearance) < 1e-9);
		ck_assert(fabs(a->min_clearance - b->min_clearance) < 1e-9);
		ck_assert(fabs(a->path_length - b->path_length) < 1e-8);
	}
	sw_world_destroy(w2);
	sw_world_destroy(w3);
	sw_model_free(m2);
	sw_model_free(m3);
}
END_TEST

/* One agent standing still (v_max = 0), a target out of the horizontal plane: the angle theta
 * between u and the target direction obeys theta' = -a sin(theta) (eq. (2) with w_tar = 1: no
 * obstacles, so a2 = 0 and the weights relax to (1, 0)), whose solution is
 * theta(t) = 2 atan(tan(theta0 / 2) exp(-a t)).  Returns the largest error over 10 s. */
static double closed_form_error(const char *integrator, double h, double a_gain)
{
	sw_model *m = sw_model_alloc("one", NULL);
	ck_assert_int_eq(sw_model_set_3d(m, 0), SW_SUCCESS);
	sw_target_def t = sw_default_target_def();
	t.name = "t";
	t.position = sw_v2(3.0, -4.0);
	t.z = 7.0;
	ck_assert_int_eq(sw_model_add_target(m, &t, NULL), SW_SUCCESS);
	sw_agent_def a = sw_default_agent_def();
	a.position = sw_v2(1.0, 2.0);
	a.z = 0.5;
	a.heading = 2.0;
	a.pitch = -0.4;
	a.steer.glm.v_max = 0.0;
	a.steer.glm.sigma_phi = 0.0;
	a.steer.glm.a = a_gain;
	ck_assert_int_eq(sw_model_add_agent(m, &a, NULL), SW_SUCCESS);
	sw_run_def r = sw_default_run_def();
	r.step = h;
	snprintf(r.integrator, sizeof r.integrator, "%s", integrator);
	r.rtol = 1e-12;
	r.atol = 1e-12;
	ck_assert_int_eq(sw_model_set_run(m, &r, 0, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_model_finalize(m, NULL), SW_SUCCESS);
	sw_world *w = make_world(m);
	const double d[3] = {2.0, -6.0, 6.5};
	double dn = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
	double th0 = 0.0, err = 0.0;
	for (int s = 0; s <= (int)lround(10.0 / h); s++) {
		if (s > 0)
			step(w);
		const double *q = sw_world_agent3(w, 0);
		double c = (q[SW_STATE3_UX] * d[0] + q[SW_STATE3_UY] * d[1] +
			    q[SW_STATE3_UZ] * d[2]) / dn;
		double th = acos(fmax(-1.0, fmin(1.0, c)));
		if (s == 0)
			th0 = th;
		double exact = 2.0 * atan(tan(0.5 * th0) * exp(-a_gain * sw_world_time(w)));
		err = fmax(err, fabs(th - exact));
		ck_assert(fabs(sw_world_unit_state(w, 0, NULL)[SW_STATE_X] - 1.0) < 1e-15);
	}
	ck_assert(th0 > 1.5); /* a real turn, out of the plane */
	sw_world_destroy(w);
	sw_model_free(m);
	return err;
}

START_TEST(test_closed_form)
{
	double e8 = closed_form_error("rk8pd", 0.1, 1.0);
	ck_assert_msg(e8 < 1e-7, "rk8pd: %g", e8);
	double e8b = closed_form_error("rk8pd", 0.1, 2.5);
	ck_assert_msg(e8b < 1e-7, "rk8pd, a = 2.5: %g", e8b);
	/* Euler (rotation by h |u'|) is first order: the error shrinks with h */
	double e1 = closed_form_error("euler", 0.01, 1.0), e2 = closed_form_error("euler", 0.005, 1.0);
	ck_assert_msg(e1 < 1e-2 && e2 < 0.6 * e1, "euler: %g, %g", e1, e2);
}
END_TEST

/* Rotating a scene rotates its trajectories: agents (spheres) and target in 3-D under a generic
 * rotation; pillars and a wall under a rotation about z. */
static void check_rotated(scene_opt o, const double R[9], double tol)
{
	o.dim3 = 1;
	sw_model *ma = flock_model(&o);
	memcpy(o.R, R, sizeof o.R);
	sw_model *mb = flock_model(&o);
	sw_world *wa = make_world(ma), *wb = make_world(mb);
	double worst = 0.0;
	for (int s = 0; s < 150; s++) {
		step(wa);
		step(wb);
		for (int i = 0; i < o.n; i++) {
			const double *ya = sw_world_unit_state(wa, i, NULL);
			const double *yb = sw_world_unit_state(wb, i, NULL);
			const double *qa = sw_world_agent3(wa, i), *qb = sw_world_agent3(wb, i);
			double p[3] = {ya[SW_STATE_X], ya[SW_STATE_Y], qa[SW_STATE3_Z]}, rp[3];
			double ru[3];
			rot(R, p, rp);
			rot(R, qa + SW_STATE3_UX, ru);
			const double d[] = {rp[0] - yb[SW_STATE_X], rp[1] - yb[SW_STATE_Y],
					    rp[2] - qb[SW_STATE3_Z], ru[0] - qb[SW_STATE3_UX],
					    ru[1] - qb[SW_STATE3_UY], ru[2] - qb[SW_STATE3_UZ],
					    ya[SW_STATE_V] - yb[SW_STATE_V]};
			for (size_t k = 0; k < sizeof d / sizeof d[0]; k++)
				worst = fmax(worst, fabs(d[k]));
		}
	}
	ck_assert_msg(worst < tol, "rotated scene differs by %g", worst);
	sw_world_destroy(wa);
	sw_world_destroy(wb);
	sw_model_free(ma);
	sw_model_free(mb);
}

START_TEST(test_rotation_invariance)
{
	/* R about the axis (1, 2, 3) / |.| by 0.7 rad (Rodrigues). */
	double k[3] = {1.0, 2.0, 3.0}, kn = sqrt(14.0), an = 0.7, R[9];
	for (int i = 0; i < 3; i++)
		k[i] /= kn;
	double c = cos(an), s = sin(an);
	const double K[9] = {0, -k[2], k[1], k[2], 0, -k[0], -k[1], k[0], 0};
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++) {
			double kk = 0.0;
			for (int l = 0; l < 3; l++)
				kk += K[3 * i + l] * K[3 * l + j];
			R[3 * i + j] = (i == j) + s * K[3 * i + j] + (1.0 - c) * kk;
		}
	scene_opt o = default_opt();
	o.spread_z = 1;
	o.agility = 1;
	check_rotated(o, R, 1e-8);
	/* about z, with pillars and a wall */
	const double Rz[9] = {cos(1.1), -sin(1.1), 0, sin(1.1), cos(1.1), 0, 0, 0, 1};
	o.obstacles = 1;
	check_rotated(o, Rz, 1e-8);
}
END_TEST

/* Runs a 3-D flock with noise and agility; checks |u| = 1 and heading = azimuth of u at every
 * step, with pillars and a wall. */
START_TEST(test_unit_heading)
{
	scene_opt o = flock3_opt(12, 0.3);
	sw_model *m = flock_model(&o);
	sw_world *w = make_world(m);
	double worst = 0.0, worst_phi = 0.0, zmove = 0.0;
	for (int s = 0; s < 300; s++) {
		step(w);
		for (int i = 0; i < o.n; i++) {
			const double *y = sw_world_unit_state(w, i, NULL);
			const double *q = sw_world_agent3(w, i);
			double n = sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
			worst = fmax(worst, fabs(n - 1.0));
			worst_phi = fmax(worst_phi, fabs(sw_wrap_angle(atan2(q[2], q[1]) -
								       y[SW_STATE_PHI])));
			zmove = fmax(zmove, fabs(q[SW_STATE3_Z]));
		}
	}
	ck_assert_msg(worst < 1e-14, "|u| - 1 = %g", worst);
	ck_assert_msg(worst_phi < 1e-12, "heading vs azimuth %g", worst_phi);
	ck_assert(zmove > 3.0); /* they climbed toward the roost at z = 6 */
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* States and metrics of a run as bytes. */
static double *final_states(const sw_model *m, int threads, int fast, size_t *n)
{
	sw_world *w = make_world(m);
	ck_assert_int_eq(sw_world_set_threads(w, threads), SW_SUCCESS);
	sw_world_set_fast_path(w, fast);
	for (int s = 0; s < 200; s++)
		step(w);
	int nu = sw_world_n_units(w), dim;
	*n = 0;
	for (int u = 0; u < nu; u++) {
		sw_world_unit_state(w, u, &dim);
		*n += (size_t)dim + 4;
	}
	double *out = calloc(*n, sizeof *out), *p = out;
	for (int u = 0; u < nu; u++) {
		const double *y = sw_world_unit_state(w, u, &dim);
		memcpy(p, y, (size_t)dim * sizeof *y);
		p += dim;
		const sw_agent_metrics *mt = sw_world_metrics(w, u);
		*p++ = mt->path_length;
		*p++ = mt->min_clearance;
		*p++ = mt->min_agent_clearance;
		*p++ = mt->agent_collisions;
	}
	sw_world_destroy(w);
	return out;
}

/* The 3-D percepts through the 2-D grid equal the loop over all agents, at every agent, and whole
 * runs are the same bytes with the grid on or off, on 1, 2 or 4 threads, and with the
 * single-evaluation path on or off. */
START_TEST(test_grid_threads)
{
	scene_opt o = flock3_opt(60, 0.2);
	sw_model *mg = flock_model(&o);
	o.grid = 0;
	sw_model *mb = flock_model(&o);
	sw_world *wg = make_world(mg), *wb = make_world(mb);
	sw_percept3 *pg = calloc(256, sizeof *pg), *pb = calloc(256, sizeof *pb);
	int total = 0, some_dropped = 0;
	for (int s = 0; s < 60; s++) {
		step(wg);
		step(wb);
		for (int i = 0; i < o.n; i++) {
			sw_situation3 sg, sb;
			int ng = sw_world_perceive3(wg, i, &sg, pg, 256);
			int nb = sw_world_perceive3(wb, i, &sb, pb, 256);
			ck_assert_int_eq(ng, nb);
			ck_assert_int_lt(ng, 256);
			ck_assert_int_eq(memcmp(pg, pb, (size_t)ng * sizeof *pg), 0);
			total += ng;
			/* every agent percept is within the 3-D perception sphere, and some agent
			 * within the 2-D disc is outside the sphere (the z test acts) */
			const double *y = sw_world_unit_state(wg, i, NULL);
			for (int k = 0; k < ng; k++)
				if (pg[k].id < 0)
					ck_assert(pg[k].clearance <= 3.0);
			for (int j = 0; j < o.n; j++) {
				const double *yj = sw_world_unit_state(wg, j, NULL);
				double dh = hypot(yj[0] - y[0], yj[1] - y[1]) - 0.4;
				double dz = sw_world_agent3(wg, j)[0] - sw_world_agent3(wg, i)[0];
				double d3 = sqrt(pow(dh + 0.4, 2) + dz * dz) - 0.4;
				some_dropped += j != i && dh <= 3.0 && d3 > 3.0;
			}
		}
	}
	ck_assert_int_gt(total, 0);
	ck_assert_int_gt(some_dropped, 0);
	free(pg);
	free(pb);
	sw_world_destroy(wg);
	sw_world_destroy(wb);

	size_t n1, n2, n4, nbf, nsl;
	double *a = final_states(mg, 1, 1, &n1), *b = final_states(mg, 2, 1, &n2);
	double *c = final_states(mg, 4, 1, &n4), *bf = final_states(mb, 1, 1, &nbf);
	double *sl = final_states(mg, 1, 0, &nsl);
	ck_assert(n1 == n2 && n1 == n4 && n1 == nbf && n1 == nsl);
	ck_assert_int_eq(memcmp(a, b, n1 * sizeof *a), 0);
	ck_assert_int_eq(memcmp(a, c, n1 * sizeof *a), 0);
	ck_assert_int_eq(memcmp(a, bf, n1 * sizeof *a), 0);
	ck_assert_int_eq(memcmp(a, sl, n1 * sizeof *a), 0);
	free(sl);
	free(a);
	free(b);
	free(c);
	free(bf);
	sw_model_free(mg);
	sw_model_free(mb);
}
END_TEST

static void on_switch(const sw_world *w, int u, double t, int from, int to, const char *label,
		      const char *guard, void *ctx)
{
	(void)t;
	(void)from;
	(void)to;
	(void)guard;
	if (strcmp(label, "near") != 0)
		return;
	const double *y = sw_world_unit_state(w, u, NULL);
	const double *q = sw_world_agent3(w, u);
	double *out = ctx;
	out[0] = sqrt(pow(y[SW_STATE_X] - 8.0, 2) + pow(y[SW_STATE_Y], 2) +
		      pow(q[SW_STATE3_Z] - 6.0, 2));
	out[1] = hypot(y[SW_STATE_X] - 8.0, y[SW_STATE_Y]);
}

static int load(const char *doc, sw_model **m, sw_diag *d)
{
	sw_diag_init(d);
	return sw_scenario_load_memory(doc, strlen(doc), "mem.xml", m, d);
}

/* A behaviour guard dist(goal) <= 2 switches at the 3-D distance 2 (the horizontal one is
 * smaller), and the stopped mode holds the agent still. */
START_TEST(test_automaton_3d)
{
	const char *doc =
	    "<scenario name='a3'>\n"
	    "  <run duration='20' step='0.05'/>\n"
	    "  <behaviours><automaton name='fly'>\n"
	    "    <param name='goal' kind='target'/>\n"
	    "    <mode name='go' initial='true'><glm target='goal' sigma='0'/>\n"
	    "      <transition to='rest' guard='dist(goal) le 2' label='near'/></mode>\n"
	    "    <mode name='rest'/>\n"
	    "  </automaton></behaviours>\n"
	    "  <world dimensions='3'><target name='t' x='8' y='0' z='6'/></world>\n"
	    "  <agent name='a' x='0' y='0' z='0' pitch='30deg' behaviour='fly'>"
	    "<bind param='goal' value='t'/></agent>\n"
	    "</scenario>\n";
	sw_model *m = NULL;
	sw_diag d;
	int st = load(doc, &m, &d);
	for (int k = 0; st != SW_SUCCESS && k < d.count; k++)
		fprintf(stderr, "%d: %s\n", d.entry[k].line, d.entry[k].message);
	ck_assert_int_eq(st, SW_SUCCESS);
	double first[2] = {NAN, NAN}, end[SW_STATE_DIM + 1 + SW_STATE3_DIM];
	for (int fast = 1; fast >= 0; fast--) { /* the single-evaluation path changes no bit */
		sw_world *w = make_world(m);
		sw_world_set_fast_path(w, fast);
		double at[2] = {NAN, NAN};
		sw_world_set_event_fn(w, on_switch, at);
		ck_assert_int_eq(sw_world_run(w, NULL, NULL, NULL), SW_SUCCESS);
		ck_assert_msg(fabs(at[0] - 2.0) < 1e-6, "3-D distance at the switch %g", at[0]);
		ck_assert(at[1] < 1.9);
		ck_assert_str_eq(sw_world_mode_name(w, 0, sw_world_unit_mode(w, 0)), "rest");
		int dim;
		const double *y = sw_world_unit_state(w, 0, &dim);
		ck_assert_int_eq(dim, (int)(sizeof end / sizeof end[0]));
		if (fast) {
			memcpy(first, at, sizeof at);
			memcpy(end, y, sizeof end);
		} else {
			ck_assert(first[0] == at[0]);
			ck_assert_int_eq(memcmp(end, y, sizeof end), 0);
		}
		sw_world_destroy(w);
	}
	sw_model_free(m);
}
END_TEST

/* Bad input: the message names the line and says what was expected. */
static void expect_error(const char *doc, int line, const char *text)
{
	sw_model *m = NULL;
	sw_diag d;
	ck_assert_int_ne(load(doc, &m, &d), SW_SUCCESS);
	ck_assert_ptr_null(m);
	int found = 0;
	for (int k = 0; k < d.count; k++)
		found |= d.entry[k].line == line && strstr(d.entry[k].message, text) != NULL &&
			 strcmp(d.entry[k].file, "mem.xml") == 0;
	for (int k = 0; !found && k < d.count; k++)
		fprintf(stderr, "%s:%d: %s\n", d.entry[k].file, d.entry[k].line,
			d.entry[k].message);
	ck_assert_msg(found, "no error '%s' at line %d", text, line);
}

START_TEST(test_bad_input)
{
	expect_error("<scenario>\n<world>\n<target name='t' x='1' y='0' z='2'/>\n</world>\n"
		     "<agent x='0' y='0'/>\n</scenario>\n",
		     3, "attribute z of <target> needs a 3-D scenario");
	expect_error("<scenario>\n<world><target name='t' x='1' y='0'/></world>\n"
		     "<agent x='0' y='0' z='1'/>\n</scenario>\n",
		     3, "attribute z of <agent> needs a 3-D scenario");
	expect_error("<scenario>\n<agent x='0' y='0' pitch='10deg'/>\n</scenario>\n", 2,
		     "attribute pitch of <agent> needs a 3-D scenario");
	expect_error("<scenario>\n<world dimensions='3'/>\n<agent x='0' y='0' pitch='91deg'/>\n"
		     "</scenario>\n",
		     3, "expected an angle in [-90deg, 90deg]");
	expect_error("<scenario>\n<world dimensions='3'/>\n<agent x='0' y='0'><fw/></agent>\n"
		     "</scenario>\n",
		     3, "law 'fw' is planar; expected <glm>");
	expect_error("<scenario>\n<run steerbench='true'/>\n<world dimensions='3'/>\n"
		     "<agent x='0' y='0'/>\n</scenario>\n",
		     3, "the SteerBench metrics are planar");
	expect_error("<scenario>\n<world dimensions='5'/>\n<agent x='0' y='0'/>\n</scenario>\n", 2,
		     "dimensions");

	/* the library refuses heights in a 2-D model built in memory too */
	sw_model *m = sw_model_alloc("api", NULL);
	sw_agent_def a = sw_default_agent_def();
	a.z = 1.0;
	a.line = 7;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_model_add_agent(m, &a, &d), SW_EINPUT);
	ck_assert_int_eq(d.entry[0].line, 7);
	ck_assert_ptr_nonnull(strstr(d.entry[0].message, "need a 3-D scenario"));
	sw_model_free(m);
}
END_TEST


/* The 3-D repellers (the vectorised loop when the CPU has it, else the scalar one) against the
 * literal section 1.5 construction written here from the specification: for each percept the
 * angle theta between u and d, the plane normal n = u x d / |u x d| (exactly behind: the vertical
 * plane through u, n = -(z - (z.u) u) / |.|), f = eqs. (3)-(7) at e = -theta from the public
 * building blocks, summed as f n.  Random headings and 3-40 percepts, some exactly behind or
 * ahead, some overlapping. */
START_TEST(test_glm3_repellers_literal)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_taus2);
	gsl_rng_set(r, 7);
	sw_glm_params p = sw_default_glm_params();
	sw_percept3 obs[40];
	for (int k = 0; k < 2000; k++) {
		double u[3] = {gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1)};
		if (k % 7 == 0)
			u[0] = u[1] = 0.0; /* vertical heading */
		double un = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
		for (int j = 0; j < 3; j++)
			u[j] /= un;
		p.d0 = 0.2 + 2.0 * gsl_rng_uniform(r);
		p.delta = 1.2 * gsl_rng_uniform(r);
		sw_situation3 s = {0};
		s.radius = 0.3 * gsl_rng_uniform(r);
		s.n_obs = 3 + (int)gsl_rng_uniform_int(r, 38);
		s.obs = obs;
		for (int i = 0; i < s.n_obs; i++) {
			double d[3], dist = 0.2 + 5.0 * gsl_rng_uniform(r);
			int kind = (int)gsl_rng_uniform_int(r, 8);
			for (int j = 0; j < 3; j++)
				d[j] = kind == 0 ? -u[j] : kind == 1 ? u[j] : gsl_ran_gaussian(r, 1);
			double dn = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
			sw_percept3 *o = &obs[i];
			o->dx = d[0] / dn * dist;
			o->dy = d[1] / dn * dist;
			o->dz = d[2] / dn * dist;
			o->dist = sqrt(o->dx * o->dx + o->dy * o->dy + o->dz * o->dz);
			o->rho = 0.5 * gsl_rng_uniform(r);
			o->clearance = o->dist - o->rho - s.radius;
			o->id = i;
			o->hx = o->hy = o->hz = 0.0;
		}
		sw_glm3_terms t;
		sw_glm3_eval(&p, &s, u, 1.0, 1.0, &t);
		double om[3] = {0, 0, 0}, df = 0, sd = 0, sumw = 0, scale = 0;
		double margin = p.margin < 0.0 ? p.d1 : p.margin;
		for (int i = 0; i < s.n_obs; i++) {
			const sw_percept3 *o = &obs[i];
			double c[3] = {u[1] * o->dz - u[2] * o->dy, u[2] * o->dx - u[0] * o->dz,
				       u[0] * o->dy - u[1] * o->dx};
			double cn = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
			double dot = u[0] * o->dx + u[1] * o->dy + u[2] * o->dz;
			double theta = atan2(cn, dot), n[3] = {0, 0, 0};
			if (cn > 0.0) {
				for (int j = 0; j < 3; j++)
					n[j] = c[j] / cn;
			} else if (dot < 0.0) {
				double v[3] = {-u[2] * u[0], -u[2] * u[1], 1.0 - u[2] * u[2]};
				double vn = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
				if (vn > 0.0)
					for (int j = 0; j < 3; j++)
						n[j] = -v[j] / vn;
				else
					n[0] = -1.0;
			}
			double dfi, wi, di;
			double dpsi = sw_glm_dpsi(o->rho, s.radius, margin, o->dist);
			double f = sw_glm_repeller(-theta, dpsi, fmax(o->clearance, p.r_floor), p.delta,
						   p.d0, &dfi, &wi, &di);
			for (int j = 0; j < 3; j++)
				om[j] += f * n[j];
			df += dfi;
			sd += di;
			sumw += wi;
			scale += fabs(f) + fabs(dfi);
		}
		double tol = 1e-9 * (1.0 + scale);
		for (int j = 0; j < 3; j++)
			ck_assert_msg(fabs(t.omega_obs[j] - om[j]) <= tol,
				      "case %d: omega_obs[%d] %.17g, literal %.17g", k, j,
				      t.omega_obs[j], om[j]);
		ck_assert_msg(fabs(t.df_obs - df) <= tol, "case %d: df_obs %.17g vs %.17g", k,
			      t.df_obs, df);
		ck_assert(fabs(t.sum_d - sd) <= 1e-12 * (1.0 + sd));
		ck_assert(fabs(t.sum_w - sumw) <= 1e-9 * (1.0 + sumw));
	}
	gsl_rng_free(r);
}
END_TEST

Suite *space3_suite(void)
{
	Suite *s = suite_create("space3");
	TCase *tc = tcase_create("space3");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_planar_equivalence);
	tcase_add_test(tc, test_closed_form);
	tcase_add_test(tc, test_rotation_invariance);
	tcase_add_test(tc, test_unit_heading);
	tcase_add_test(tc, test_grid_threads);
	tcase_add_test(tc, test_automaton_3d);
	tcase_add_test(tc, test_bad_input);
	tcase_add_test(tc, test_glm3_repellers_literal);
	suite_add_tcase(s, tc);
	return s;
}
