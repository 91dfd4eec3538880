/* tests/test_locate.c - the one event locator (sim/locate.c) shared by guards, invariants and
 * arrival: it finds a crossing to run.event_tol on the right side, with a rate bound it finds
 * the first crossing of a margin that is false at both ends of the step (closed forms of a
 * parabola: two crossings, a tangency, an episode shorter than event-tol), and a bracket it
 * cannot shrink or a margin that is not finite is an error, never a silent accept. */
#include <math.h>
#include <string.h>

#include <check.h>

#include "sim/sim_internal.h"
#include "swerve/io.h"
#include "swerve/sim.h"
#include "tests.h"

/* A margin crossing zero at t = 1.25 + a tiny offset (not a step end, not a nice double). */
static double linear(const struct sw_world *w, sw_worker *wk, int u, double t0, double t,
		     const double *y, const void *arg)
{
	(void)w, (void)wk, (void)u, (void)t0, (void)y;
	return t - *(const double *)arg;
}

/* A margin with a kink at the crossing (steep before, flat after): no interpolation step
 * lands on it, so Brent's bracket must be shrunk to event-tol to get close. */
static double kinked(const struct sw_world *w, sw_worker *wk, int u, double t0, double t,
		     const double *y, const void *arg)
{
	(void)w, (void)wk, (void)u, (void)t0, (void)y;
	double d = t - *(const double *)arg;
	return d < 0.0 ? d : 1e-3 * d;
}

/* A margin whose sign never tells: the bracket cannot even be set. */
static double undefined(const struct sw_world *w, sw_worker *wk, int u, double t0, double t,
			const double *y, const void *arg)
{
	(void)w, (void)wk, (void)u, (void)t0, (void)t, (void)y, (void)arg;
	return NAN;
}

/* A world of demo.xml, its <run event-tol> set to tol (0: as the file says); the model is
 * never changed after loading. */
static sw_world *demo_world_tol(sw_model **m, double tol)
{
	sw_diag d;
	sw_diag_init(&d);
	sw_override ov = {"run.event-tol", tol};
	ck_assert_int_eq(sw_scenario_load_overrides("models/demo.xml", &ov, tol > 0.0, m, &d),
			 SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(*m, NULL, &w, &d), SW_SUCCESS);
	return w;
}

static sw_world *demo_world(sw_model **m)
{
	return demo_world_tol(m, 0.0);
}

/* Replaces *w and *m by a world of demo.xml whose event tolerance is tol. */
static void with_event_tol(sw_world **w, sw_model **m, double tol)
{
	sw_world_destroy(*w);
	sw_model_free(*m);
	*w = demo_world_tol(m, tol);
	ck_assert(sw_world_model(*w)->run.event_tol == tol);
}

/* m(t) = h - (t - c)^2 with c = arg[0], h = arg[1]: a bump inside the step; true on
 * (c - sqrt h, c + sqrt h) when h > 0, touching zero at c when h = 0. */
static double bump(const struct sw_world *w, sw_worker *wk, int u, double t0, double t,
		   const double *y, const void *arg)
{
	(void)w, (void)wk, (void)u, (void)t0, (void)y;
	const double *p = arg;
	double m = p[1] - (t - p[0]) * (t - p[0]);
	return m == 0.0 ? 1e-300 : m; /* true at zero, as sw__locate's margins are */
}

static double at(sw__margin_fn f, double t, const void *arg)
{
	return f(NULL, NULL, 0, 1.0, t, NULL, arg);
}

START_TEST(locates_to_the_tolerance_on_the_true_side)
{
	sw_model *m = NULL;
	sw_world *w = demo_world(&m);
	const double cross = 1.25 + 1e-7 * M_PI;
	double y0[64];
	memcpy(y0, w->unit.y + w->unit.off[0], (size_t)w->unit.dim[0] * sizeof *y0);
	for (int k = 0; k < 12; k++) {
		double tol = k % 3 == 0 ? 1e-9 : k % 3 == 1 ? 1e-4 : 1e-2;
		double rate = k % 6 < 3 ? INFINITY : 1.0; /* Brent at the ends / the scan */
		sw__margin_fn f = k < 6 ? linear : kinked;
		with_event_tol(&w, &m, tol);
		double ts = NAN;
		ck_assert_int_eq(sw__locate(w, sw__serial(w), 0, 1.0, 1.5, y0, at(f, 1.0, &cross),
					    at(f, 1.5, &cross), rate, 0, f, &cross, &ts),
				 SW_SUCCESS);
		ck_assert(ts >= cross);            /* the upper end: known to be past the crossing */
		ck_assert(ts - cross <= tol);      /* within event-tol of it */
	}
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* A bump true for 2 sqrt(h) s in the middle of the step, false at both ends: only the scan
 * with a rate bound sees it, at its first crossing c - sqrt(h), for every width down to a
 * tangency (h = 0) and an episode far shorter than event-tol; the tolerances are those of
 * locate.c: at most event_tol after the crossing, at most event_tol L / s before it (s the
 * slope 2 sqrt(h) there), and within sqrt(L event_tol) of a tangency. */
START_TEST(sees_every_bump_inside_a_step)
{
	sw_model *m = NULL;
	sw_world *w = demo_world(&m);
	double y0[64];
	memcpy(y0, w->unit.y + w->unit.off[0], (size_t)w->unit.dim[0] * sizeof *y0);
	const double L = 1.0; /* |m'| = 2 |t - c| <= 1 on [1, 1.5] with c = 1.3 */
	const double hs[] = {1e-2, 1e-4, 1e-8, 1e-14, 1e-22, 0.0};
	for (int k = 0; k < 9; k++) {
		/* near a tangency the scan takes about 1 / sqrt(event_tol) pieces: 1e-9 only for
		 * the wide bumps */
		double tol = k < 3 ? 1e-9 : 1e-6, p[2] = {1.3 + 1e-9 * M_E, hs[k < 3 ? k : k - 3]};
		with_event_tol(&w, &m, tol);
		double m0 = at(bump, 1.0, p), m1 = at(bump, 1.5, p), ts = NAN;
		ck_assert(m0 < 0.0 && m1 < 0.0);
		/* ends only (no rate bound): not seen, as before this locator */
		ck_assert_int_eq(sw__locate(w, sw__serial(w), 0, 1.0, 1.5, y0, m0, m1, INFINITY, 0,
					    bump, p, &ts),
				 SW_SUCCESS);
		ck_assert(isinf(ts));
		ck_assert_int_eq(
		    sw__locate(w, sw__serial(w), 0, 1.0, 1.5, y0, m0, m1, L, 0, bump, p, &ts),
		    SW_SUCCESS);
		double first = p[0] - sqrt(p[1]), s = 2.0 * sqrt(p[1]);
		double early = s > 0.0 ? fmin(tol * L / s, sqrt(L * tol)) : sqrt(L * tol);
		ck_assert_msg(ts <= first + tol + 1e-15 && ts >= first - early - 1e-15,
			      "h %g tol %g: %.17g, first crossing %.17g", p[1], tol, ts, first);
	}
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* Strict (invariants): only an instant where the margin is positive; a tangency and a miss
 * are not events, a crossing is. */
START_TEST(strict_needs_a_positive_margin)
{
	sw_model *m = NULL;
	sw_world *w = demo_world(&m);
	double y0[64];
	memcpy(y0, w->unit.y + w->unit.off[0], (size_t)w->unit.dim[0] * sizeof *y0);
	with_event_tol(&w, &m, 1e-6);
	const double hs[] = {1e-4, -1e-9, -1e-3};
	for (int k = 0; k < 3; k++) {
		double p[2] = {1.3, hs[k]}, ts = NAN;
		ck_assert_int_eq(sw__locate(w, sw__serial(w), 0, 1.0, 1.5, y0, at(bump, 1.0, p),
					    at(bump, 1.5, p), 1.0, 1, bump, p, &ts),
				 SW_SUCCESS);
		if (k == 0)
			ck_assert(at(bump, ts, p) > 0.0 && ts - (1.3 - 1e-2) <= 1e-6);
		else
			ck_assert(isinf(ts));
	}
	/* not strict: the miss by 1e-9 (within L event_tol / 2) counts, the one by 1e-3 not */
	for (int k = 1; k < 3; k++) {
		double p[2] = {1.3, hs[k]}, ts = NAN;
		ck_assert_int_eq(sw__locate(w, sw__serial(w), 0, 1.0, 1.5, y0, at(bump, 1.0, p),
					    at(bump, 1.5, p), 1.0, 0, bump, p, &ts),
				 SW_SUCCESS);
		ck_assert(k == 1 ? fabs(ts - 1.3) < 1e-3 : isinf(ts));
	}
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

START_TEST(no_convergence_is_an_error)
{
	sw_model *m = NULL;
	sw_world *w = demo_world(&m);
	double y0[64], ts = 0.0;
	memcpy(y0, w->unit.y + w->unit.off[0], (size_t)w->unit.dim[0] * sizeof *y0);
	for (int k = 0; k < 2; k++) {
		ck_assert_int_eq(sw__locate(w, sw__serial(w), 0, 1.0, 1.5, y0, -1.0, 1.0,
					    k ? 1.0 : INFINITY, 0, undefined, NULL, &ts),
				 SW_ENUMERIC);
		ck_assert_int_eq(sw__serial(w)->fault_locate, 1);
		char buf[256];
		sw__fault_describe(w, sw__serial(w), 0, SW_ENUMERIC, y0, buf, sizeof buf);
		ck_assert_msg(strstr(buf, "did not converge") && strstr(buf, "t = 1 s"), "%s", buf);
	}
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* ---- bounds carried from step to step (sim/hybrid.c) -------------------------------------- */

/* Transitions seen by a run: unit, instant and target mode, in order. */
typedef struct {
	int n;
	int u[256], to[256];
	double t[256];
} trace;

static void trace_event(const sw_world *w, int u, double t, int from, int to, const char *label,
			const char *g, void *c)
{
	(void)w, (void)from, (void)label, (void)g;
	trace *e = c;
	if (e->n < 256) {
		e->u[e->n] = u;
		e->t[e->n] = t;
		e->to[e->n++] = to;
	}
}

/* Pairs of agents walking towards each other past marks (some grazing the guard's 0.1 m within
 * 1e-9 m, some moving), with guards on the mark and on the other agent (who moves between steps:
 * its bound may not be carried); run to the end with the bounds carried or, when fresh, dropped
 * before every step (every margin then evaluated at every step end). */
static void run_pairs(const char *integ, int fresh, trace *e, double *state, int n_state)
{
	static char xml[40000];
	int len = snprintf(xml, sizeof xml,
			   "<scenario name=\"pairs\"><run duration=\"30\" step=\"0.25\" "
			   "integrator=\"%s\" agents-perceive=\"false\"/><behaviours>"
			   "<automaton name=\"walk\"><param name=\"goal\" kind=\"target\"/>"
			   "<param name=\"mark\" kind=\"target\"/><param name=\"other\" kind=\"agent\"/>"
			   "<mode name=\"go\" initial=\"true\"><glm target=\"goal\" "
			   "speed=\"constant\" v-max=\"1\" sigma=\"0\"/>"
			   "<transition to=\"near\" guard=\"dist(mark) le 0.1\"/>"
			   "<transition to=\"met\" guard=\"dist(other) le 1\"/></mode>"
			   "<mode name=\"near\"><glm target=\"goal\" speed=\"constant\" v-max=\"1\" "
			   "sigma=\"0\"/><transition to=\"met\" guard=\"dist(other) le 1\"/></mode>"
			   "<mode name=\"met\"><glm target=\"goal\" speed=\"constant\" v-max=\"1\" "
			   "sigma=\"0\"/><transition to=\"go\" guard=\"dist(other) ge 3 and "
			   "time_in_mode ge 2\"/></mode></automaton></behaviours><world>",
			   integ);
	const double offs[] = {0.05, 0.1 + 1e-9, 0.1 - 1e-9, 0.12, 0.2, 0.35};
	for (int i = 0; i < 6; i++)
		len += snprintf(xml + len, sizeof xml - (size_t)len,
				"<target name=\"e%d\" x=\"1000\" y=\"%d\"/><target name=\"w%d\" "
				"x=\"-1000\" y=\"%d\"/><target name=\"m%d\" x=\"%.17g\" y=\"%.17g\">%s"
				"</target>",
				i, 3 * i, i, 3 * i, i, 4.0 + 1.37 * i, 3 * i + offs[i],
				i & 1 ? "<linear vx=\"0.3\" vy=\"0\"/>" : "");
	len += snprintf(xml + len, sizeof xml - (size_t)len, "</world>");
	for (int i = 0; i < 6; i++)
		len += snprintf(xml + len, sizeof xml - (size_t)len,
				"<agent name=\"a%d\" x=\"0\" y=\"%d\" heading=\"0\" speed=\"1\" "
				"behaviour=\"walk\"><bind param=\"goal\" value=\"e%d\"/><bind "
				"param=\"mark\" value=\"m%d\"/><bind param=\"other\" value=\"b%d\"/>"
				"</agent><agent name=\"b%d\" x=\"%.17g\" y=\"%d\" heading=\"180deg\" "
				"speed=\"1\" behaviour=\"walk\"><bind param=\"goal\" value=\"w%d\"/><bind "
				"param=\"mark\" value=\"m%d\"/><bind param=\"other\" value=\"a%d\"/>"
				"</agent>",
				i, 3 * i, i, i, i, i, 14.0 + 2.3 * i, 3 * i, i, i, i);
	snprintf(xml + len, sizeof xml - (size_t)len, "</scenario>");
	sw_diag d;
	sw_diag_init(&d);
	sw_model *m = NULL;
	ck_assert_msg(sw_scenario_load_memory(xml, strlen(xml), "pairs.xml", &m, &d) == SW_SUCCESS,
		      "%s", d.count ? d.entry[0].message : "");
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
	e->n = 0;
	sw_world_set_event_fn(w, trace_event, e);
	for (int k = 0; k < 120; k++) {
		for (int u = 0; fresh && u < w->nu; u++)
			w->unit.carry[u].t = NAN;
		ck_assert_int_eq(sw_world_step(w, &d), SW_SUCCESS);
	}
	int at = 0;
	for (int u = 0; u < w->nu; u++)
		for (int j = 0; j < w->unit.dim[u] && at < n_state; j++)
			state[at++] = w->unit.y[w->unit.off[u] + (uint32_t)j];
	sw_world_destroy(w);
	sw_model_free(m);
}

START_TEST(carried_bounds_change_nothing)
{
	/* A guard's bound is carried to the next step only to skip margins the full test at the
	 * step end would find false throughout: the events and states are bit for bit those of
	 * runs that evaluate every margin at every step end. */
	const char *integ[] = {"euler", "rk4"};
	static trace a, b;
	static double sa[512], sb[512];
	for (int k = 0; k < 2; k++) {
		run_pairs(integ[k], 0, &a, sa, 512);
		run_pairs(integ[k], 1, &b, sb, 512);
		ck_assert_msg(a.n == b.n, "%s: %d events carried, %d fresh", integ[k], a.n, b.n);
		ck_assert_int_ge(a.n, 20); /* every pair meets, parts, and the marks are passed */
		for (int i = 0; i < a.n; i++)
			ck_assert_msg(a.u[i] == b.u[i] && a.to[i] == b.to[i] &&
					      memcmp(&a.t[i], &b.t[i], sizeof a.t[i]) == 0,
				      "%s: event %d: unit %d to %d at %.17g carried, unit %d to %d at "
				      "%.17g fresh",
				      integ[k], i, a.u[i], a.to[i], a.t[i], b.u[i], b.to[i], b.t[i]);
		ck_assert(memcmp(sa, sb, sizeof sa) == 0);
	}
}
END_TEST

Suite *locate_suite(void)
{
	Suite *s = suite_create("locate");
	TCase *tc = tcase_create("locate");
	tcase_add_test(tc, locates_to_the_tolerance_on_the_true_side);
	tcase_add_test(tc, sees_every_bump_inside_a_step);
	tcase_add_test(tc, strict_needs_a_positive_margin);
	tcase_add_test(tc, no_convergence_is_an_error);
	tcase_add_test(tc, carried_bounds_change_nothing);
	suite_add_tcase(s, tc);
	return s;
}
