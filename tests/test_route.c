/* tests/test_route.c - planned routes (<routes>, plan/route.c, sim/navigate.c).
 *
 * The search against closed forms: on an open grid the route is the straight line (one corner,
 * the goal); round a wall it is the taut string over the wall's end grown by the clearance, whose
 * length is known; a goal walled in has no route; round a disc to keep out of, the taut string
 * round the disc.  In a world: an agent in a U-shaped trap
 * reaches its target with routes and does not without; the runs are the same on one thread and
 * two, and a run restored from a checkpoint taken mid-way ends as the uninterrupted one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"
#include "swerve/swerve.h"
#include "tests.h"

static sw_model *load(const char *xml, sw_diag *d)
{
	sw_model *m = NULL;
	sw_diag_init(d);
	if (sw_scenario_load_memory(xml, strlen(xml), "route.xml", &m, d) != SW_SUCCESS) {
		for (int k = 0; k < d->count; k++)
			fprintf(stderr, "%s\n", d->entry[k].message);
		return NULL;
	}
	return m;
}

/* Length of the polyline a, pts[0 .. n - 1]. */
static double route_length(sw_vec2 a, const sw_vec2 *pts, int n)
{
	double len = 0.0;
	for (int k = 0; k < n; k++) {
		len += hypot(pts[k].x - a.x, pts[k].y - a.y);
		a = pts[k];
	}
	return len;
}

static const char *const wall_xml =
    "<scenario name=\"wall\"><run duration=\"1\"/><world>"
    "<target name=\"t\" x=\"3\" y=\"0\"/>"
    "<segment name=\"w\" x1=\"0\" y1=\"-4\" x2=\"0\" y2=\"4\"/>"
    "<polygon name=\"box\"><vertex x=\"9\" y=\"-1\"/><vertex x=\"11\" y=\"-1\"/>"
    "<vertex x=\"11\" y=\"1\"/><vertex x=\"9\" y=\"1\"/></polygon>"
    "<segment name=\"r1\" x1=\"-12\" y1=\"-2\" x2=\"-8\" y2=\"-2\"/>"
    "<segment name=\"r2\" x1=\"-8\" y1=\"-2\" x2=\"-8\" y2=\"2\"/>"
    "<segment name=\"r3\" x1=\"-8\" y1=\"2\" x2=\"-12\" y2=\"2\"/>"
    "<segment name=\"r4\" x1=\"-12\" y1=\"2\" x2=\"-12\" y2=\"-2\"/>"
    "</world><agent name=\"a\" x=\"-3\" y=\"0\" target=\"t\"/></scenario>";

/* wall_xml's route map at spacing h = 0.05 m for clearance c = 0.5 m, and a search on it. */
typedef struct {
	sw_model *m;
	sw_grid *g;
	sw_route_search *s;
} wall_map;

static const double WALL_H = 0.05, WALL_C = 0.5;

static wall_map wall_map_new(void)
{
	sw_diag d;
	wall_map w = {load(wall_xml, &d), NULL, NULL};
	ck_assert_ptr_nonnull(w.m);
	ck_assert_int_eq(sw_routemap_rasterize(w.m, WALL_H, WALL_C, 0, &w.g, &d), SW_SUCCESS);
	w.s = sw_route_search_new(w.g);
	ck_assert_ptr_nonnull(w.s);
	return w;
}

static void wall_map_free(wall_map *w)
{
	sw_route_search_free(w->s);
	sw_grid_free(w->g);
	sw_model_free(w->m);
}

START_TEST(routes_match_the_taut_string)
{
	wall_map w = wall_map_new();
	const sw_model *m = w.m;
	const sw_grid *g = w.g;
	sw_route_search *s = w.s;
	const double h = WALL_H, c = WALL_C;
	sw_vec2 *pts = NULL;
	int cap = 0;
	/* Open ground: the straight line, one corner (the goal itself). */
	sw_vec2 a = sw_v2(-3.0, 6.0), b = sw_v2(3.0, 6.5);
	ck_assert_int_eq(sw_route_find(s, a, b, 1.0, NULL, NULL, &pts, &cap), 1);
	ck_assert(pts[0].x == b.x && pts[0].y == b.y);
	/* Round the wall: over its end (0, 4) grown by c, the two tangent lengths from (-3, 0)
	 * and (3, 0) to the circle of radius c round (0, 4) and the arc between them. */
	a = sw_v2(-3.0, 0.0), b = sw_v2(3.0, 0.0);
	int n = sw_route_find(s, a, b, 1.0, NULL, NULL, &pts, &cap);
	ck_assert_int_ge(n, 2);
	double dc = hypot(3.0, 4.0), tan_len = sqrt(dc * dc - c * c);
	double turn = M_PI - 2.0 * (atan2(4.0, 3.0) + asin(c / dc)); /* the arc's angle */
	double exact = 2.0 * tan_len + c * (turn > 0.0 ? turn : 0.0);
	double len = route_length(a, pts, n);
	/* Never shorter than the string (every corner keeps the clearance); longer by what the
	 * grid costs: the stencil's 2.8 % and corners taken only among the searched path's nodes,
	 * which may pass the end a node or two wide (measured: 5.5 %, corners 0.57 m from the
	 * end). */
	ck_assert_msg(len >= exact - 1e-9 && len <= 1.06 * exact, "route %g m, string %g m", len,
		      exact);
	for (int k = 0; k < n; k++) /* every corner keeps the clearance */
		ck_assert_double_ge(sw_model_obstacle_clearance(m, 0, 0.0, pts[k], c - 1e-9), 0.0);
	/* The same answer from another context (a function of map, a, b only). */
	sw_route_search *s2 = sw_route_search_new(g);
	sw_vec2 *pts2 = NULL;
	int cap2 = 0;
	ck_assert_int_eq(sw_route_find(s2, a, b, 1.0, NULL, NULL, &pts2, &cap2), n);
	ck_assert_int_eq(memcmp(pts, pts2, (size_t)n * sizeof *pts), 0);
	/* A goal inside the closed box: no free node within the snap distance. */
	ck_assert_int_eq(sw_route_find(s, a, sw_v2(10.0, 0.0), 0.5, NULL, NULL, &pts, &cap), 0);
	/* A room walled all round: its inside is a part of its own (the map's labels), so a goal
	 * in it has no route from outside, and one outside none from inside. */
	double in = g->v[(size_t)lround((0.0 - g->y0) / h) * (size_t)g->nx +
			 (size_t)lround((-10.0 - g->x0) / h)];
	double out = g->v[(size_t)lround((0.0 - g->y0) / h) * (size_t)g->nx +
			  (size_t)lround((-5.0 - g->x0) / h)];
	ck_assert(in > 0.0 && out > 0.0 && in != out);
	ck_assert_int_eq(sw_route_find(s, a, sw_v2(-10.0, 0.0), 1.0, NULL, NULL, &pts, &cap), 0);
	/* A goal 0.3 m inside the room's wall: its own nearest free node is inside, but a node
	 * outside lies within the snap distance: the route ends there, as near as the agent fits,
	 * not at the goal. */
	n = sw_route_find(s, a, sw_v2(-8.3, 0.0), 1.0, NULL, NULL, &pts, &cap);
	ck_assert_int_ge(n, 1);
	ck_assert(pts[n - 1].x > -8.0 + c - 1e-9 && pts[n - 1].x < -8.0 + c + 2.0 * h);
	ck_assert_int_eq(sw_route_find(s, sw_v2(-10.0, 0.0), a, 1.0, NULL, NULL, &pts, &cap), 0);
	ck_assert_int_eq(sw_route_find(s, sw_v2(-10.5, 0.5), sw_v2(-9.5, -0.5), 1.0, NULL, NULL,
				       &pts, &cap),
			 1);
	free(pts);
	free(pts2);
	sw_route_search_free(s2);
	wall_map_free(&w);
}
END_TEST

/* A margin (sw_route_search_margin) round the wall's end: without one the route's corners keep
 * the clearance c exactly (the taut string); with one they keep c plus most of the margin, the
 * route a little longer. */
START_TEST(routes_keep_a_margin)
{
	wall_map w = wall_map_new();
	const sw_model *m = w.m;
	sw_route_search *s = w.s;
	const double h = WALL_H, c = WALL_C, M = 0.5;
	sw_vec2 *pts = NULL, a = sw_v2(-3.0, 0.0), b = sw_v2(3.0, 0.0);
	int cap = 0;
	double least[2], len[2];
	for (int with = 0; with < 2; with++) {
		ck_assert_int_eq(sw_route_search_margin(s, with ? M : 0.0, 3.0), SW_SUCCESS);
		int n = sw_route_find(s, a, b, 1.0, NULL, NULL, &pts, &cap);
		ck_assert_int_ge(n, 2);
		least[with] = INFINITY;
		for (int k = 0; k < n - 1; k++) /* the corners before the goal */
			least[with] = fmin(least[with],
					   sw_model_obstacle_clearance(m, 0, 0.0, pts[k], 0.0));
		len[with] = route_length(a, pts, n);
	}
	/* A new margin recomputes the distances: the same route as a fresh context's. */
	ck_assert_int_eq(sw_route_search_margin(s, 0.25, 3.0), SW_SUCCESS);
	int n1 = sw_route_find(s, a, b, 1.0, NULL, NULL, &pts, &cap);
	sw_route_search *s2 = sw_route_search_new(w.g);
	ck_assert_int_eq(sw_route_search_margin(s2, 0.25, 3.0), SW_SUCCESS);
	sw_vec2 *pts2 = NULL;
	int cap2 = 0;
	ck_assert_int_eq(sw_route_find(s2, a, b, 1.0, NULL, NULL, &pts2, &cap2), n1);
	ck_assert_int_eq(memcmp(pts, pts2, (size_t)n1 * sizeof *pts), 0);
	free(pts2);
	sw_route_search_free(s2);
	ck_assert_msg(least[0] < c + 2.0 * h, "no margin: %g m from the wall", least[0]);
	ck_assert_msg(least[1] >= c + 0.6 * M, "margin: %g m from the wall", least[1]);
	ck_assert(len[1] > len[0] && len[1] < 1.1 * len[0]);
	ck_assert_int_eq(sw_route_search_margin(s, -1.0, 3.0), SW_EUSAGE);
	ck_assert_int_eq(sw_route_search_margin(s, 0.5, 0.9), SW_EUSAGE);
	ck_assert_int_eq(sw_route_search_margin(s, INFINITY, 3.0), SW_EUSAGE);
	ck_assert_int_eq(sw_route_search_margin(NULL, 0.5, 3.0), SW_EUSAGE);
	free(pts);
	wall_map_free(&w);
}
END_TEST

/* A GLM agent in a U whose opening faces away from its target (%s: the routes element). */
static const char *const trap_xml =
    "<scenario name=\"trap\"><run duration=\"60\" step=\"0.05\"/><world>"
    "<target name=\"goal\" x=\"10\" y=\"0\" radius=\"0.3\"/>"
    "<target name=\"goal2\" x=\"10\" y=\"-3\" radius=\"0.3\"/>"
    "<target name=\"goal3\" x=\"-4\" y=\"6\" radius=\"0.3\"/>"
    "<segment name=\"w1\" x1=\"4\" y1=\"-3\" x2=\"4\" y2=\"3\"/>"
    "<segment name=\"w2\" x1=\"4\" y1=\"3\" x2=\"1\" y2=\"3\"/>"
    "<segment name=\"w3\" x1=\"4\" y1=\"-3\" x2=\"1\" y2=\"-3\"/>"
    "<disc name=\"d\" x=\"7\" y=\"0.5\" radius=\"0.6\"/>%s</world>"
    "<agent name=\"a\" x=\"2\" y=\"0\" heading=\"0\" speed=\"1\" target=\"goal\" radius=\"0.3\">"
    "<glm field=\"auto\"/></agent>"
    "<agent name=\"b\" x=\"2.5\" y=\"-1.5\" heading=\"0\" speed=\"1\" target=\"goal2\" "
    "radius=\"0.3\"><glm field=\"auto\"/></agent>"
    "<agent name=\"c\" x=\"3\" y=\"1\" heading=\"3\" speed=\"1\" target=\"goal3\" "
    "radius=\"0.3\"><glm field=\"auto\"/></agent></scenario>";

static sw_model *trap(int routes)
{
	sw_diag d;
	sw_diag_init(&d);
	sw_model *m = test_load_filled(trap_xml, routes ? "<routes resolution=\"0.1\"/>" : "",
				       "trap.xml", &d);
	ck_assert_ptr_nonnull(m);
	return m;
}

/* A disc to keep out of (sw_route_search_avoid, the simulator's agents in a stalled agent's way)
 * on the straight line of open ground: the route goes round it along the taut string, the two
 * tangents from a and b and the arc between them; with a factor of 1 the discs change nothing. */
START_TEST(routes_keep_out_of_avoided_discs)
{
	wall_map w = wall_map_new();
	sw_route_search *s = w.s;
	const double R = 1.0, dd = 3.0;
	sw_vec2 *pts = NULL, c = sw_v2(4.5, 0.0);
	int cap = 0;
	sw_vec2 a = sw_v2(c.x - dd, 0.0), b = sw_v2(c.x + dd, 0.0);
	const double disc[3] = {c.x, c.y, R};
	ck_assert_int_eq(sw_route_search_avoid(s, disc, 1, 20.0), SW_SUCCESS);
	int n = sw_route_find(s, a, b, 1.0, NULL, NULL, &pts, &cap);
	ck_assert_int_ge(n, 2);
	double exact = 2.0 * sqrt(dd * dd - R * R) + R * (M_PI - 2.0 * acos(R / dd));
	double len = route_length(a, pts, n);
	ck_assert_msg(len >= exact - 1e-9 && len <= 1.06 * exact, "route %g m, string %g m", len,
		      exact);
	sw_vec2 from = a;
	for (int k = 0; k < n; k++) { /* no stretch enters the disc */
		ck_assert_double_ge(sw_segment_distance(from, pts[k], c), R - 1e-9);
		from = pts[k];
	}
	/* From a start inside the disc (a walker touching the one in its way) the disc does not
	 * bound the stretches from there (route.c, clear_of_avoided: measured better in crowds):
	 * the search still leaves it the cheapest way, and the line from the start is pulled
	 * taut over it, here straight to b. */
	sw_vec2 in = sw_v2(c.x - 0.5, 0.1);
	ck_assert_int_eq(sw_route_find(s, in, b, 1.0, NULL, NULL, &pts, &cap), 1);
	/* Factor 1: the straight line, as without discs; no discs: the same. */
	ck_assert_int_eq(sw_route_search_avoid(s, disc, 1, 1.0), SW_SUCCESS);
	ck_assert_int_eq(sw_route_find(s, a, b, 1.0, NULL, NULL, &pts, &cap), 1);
	ck_assert_int_eq(sw_route_search_avoid(s, NULL, 0, 1.0), SW_SUCCESS);
	ck_assert_int_eq(sw_route_find(s, a, b, 1.0, NULL, NULL, &pts, &cap), 1);
	/* Refused: a factor below 1, a count below 0, a value that is not finite. */
	const double bad[3] = {NAN, 0.0, 1.0};
	ck_assert_int_eq(sw_route_search_avoid(s, disc, 1, 0.5), SW_EUSAGE);
	ck_assert_int_eq(sw_route_search_avoid(s, disc, -1, 2.0), SW_EUSAGE);
	ck_assert_int_eq(sw_route_search_avoid(s, bad, 1, 2.0), SW_EUSAGE);
	ck_assert_int_eq(sw_route_search_avoid(NULL, disc, 1, 2.0), SW_EUSAGE);
	free(pts);
	wall_map_free(&w);
}
END_TEST

START_TEST(routes_lead_out_of_a_trap)
{
	for (int routes = 0; routes <= 1; routes++) {
		sw_model *m = trap(routes);
		test_outcome o = test_outcome_run(m, 1, 1);
		ck_assert_int_eq(o.status, SW_SUCCESS);
		/* b: reached with routes, held in the U without; a reached either way (without
		 * routes pushed out by b, later); c (the U's mouth towards its target) either way */
		ck_assert_int_eq(o.mt[1].reached, routes);
		ck_assert_int_eq(o.mt[2].reached, 1);
		if (routes) { /* measured: 26.6 s, 27.2 s; without, a got out at 41.4 s, pushed */
			ck_assert(o.mt[0].reached);
			ck_assert(o.mt[1].t_reached < 30.0);
		}
		if (routes) {
			ck_assert_int_eq(o.mt[0].collisions, 0);
			/* the same outcome on two threads */
			test_outcome o2 = test_outcome_run(m, 2, 1);
			test_assert_same(&o, &o2, 3);
			test_outcome_free(&o2);
		}
		test_outcome_free(&o);
		sw_model_free(m);
	}
}
END_TEST

/* Two walkers (ttc, radius 0.5) meet head-on in a gap of 1.2 m in a wall, the way of both routes;
 * another gap as wide lies 6.6 m along.  Stalled, they plan again round each other (the agents
 * within SW_ROUTE_CROWD m as discs to keep out of): one takes the other gap, and both arrive
 * (measured: 41.5 s and 44.6 s; without the second plan one of them stays in the first gap for
 * the whole minute).  The routes keep a margin from the obstacles, so the one in the second gap
 * passes its corners (planned at the clearance exactly, it stopped against the gap's end). */
static const char *const gaps_xml =
    "<scenario name=\"gaps\"><run duration=\"60\" step=\"0.01\" stop-when-done=\"true\"/><world>"
    "<routes/>"
    "<polygon name=\"w1\"><vertex x=\"-12\" y=\"-0.2\"/><vertex x=\"-0.6\" y=\"-0.2\"/>"
    "<vertex x=\"-0.6\" y=\"0.2\"/><vertex x=\"-12\" y=\"0.2\"/></polygon>"
    "<polygon name=\"w2\"><vertex x=\"0.6\" y=\"-0.2\"/><vertex x=\"6\" y=\"-0.2\"/>"
    "<vertex x=\"6\" y=\"0.2\"/><vertex x=\"0.6\" y=\"0.2\"/></polygon>"
    "<polygon name=\"w3\"><vertex x=\"7.2\" y=\"-0.2\"/><vertex x=\"12\" y=\"-0.2\"/>"
    "<vertex x=\"12\" y=\"0.2\"/><vertex x=\"7.2\" y=\"0.2\"/></polygon>"
    "<target name=\"up\" x=\"0\" y=\"4\" radius=\"0.3\"/>"
    "<target name=\"down\" x=\"0\" y=\"-4\" radius=\"0.3\"/></world>"
    "<agent name=\"a\" x=\"0\" y=\"-4\" heading=\"1.5708\" radius=\"0.5\" perception=\"10\" "
    "target=\"up\"><ttc v-pref=\"1.3\" field=\"auto\"/></agent>"
    "<agent name=\"b\" x=\"0.05\" y=\"4\" heading=\"-1.5708\" radius=\"0.5\" perception=\"10\" "
    "target=\"down\"><ttc v-pref=\"1.3\" field=\"auto\"/></agent></scenario>";

START_TEST(stalled_walkers_plan_round_each_other)
{
	sw_diag d;
	sw_model *m = load(gaps_xml, &d);
	ck_assert_ptr_nonnull(m);
	test_outcome o = test_outcome_run(m, 1, 1);
	ck_assert_int_eq(o.status, SW_SUCCESS);
	for (int i = 0; i < 2; i++) {
		ck_assert_msg(o.mt[i].reached, "agent %d did not arrive", i);
		ck_assert_int_eq(o.mt[i].agent_collisions, 0);
	}
	test_outcome o2 = test_outcome_run(m, 2, 1); /* the same on two threads */
	test_assert_same(&o, &o2, 2);
	test_outcome_free(&o2);
	test_outcome_free(&o);
	sw_model_free(m);
}
END_TEST

/* Two walls across the way from a to its target: the route goes over both walls' ends.  A
 * closed room of 2 m x 2 m below a, off the way. */
static const char *const repair_xml =
    "<scenario name=\"repair\"><run duration=\"10\"/><world><routes/>"
    "<segment name=\"w1\" x1=\"0\" y1=\"-4\" x2=\"0\" y2=\"4\"/>"
    "<segment name=\"w2\" x1=\"4\" y1=\"-4\" x2=\"4\" y2=\"4\"/>"
    "<segment name=\"r1\" x1=\"-4\" y1=\"-9\" x2=\"-2\" y2=\"-9\"/>"
    "<segment name=\"r2\" x1=\"-2\" y1=\"-9\" x2=\"-2\" y2=\"-7\"/>"
    "<segment name=\"r3\" x1=\"-2\" y1=\"-7\" x2=\"-4\" y2=\"-7\"/>"
    "<segment name=\"r4\" x1=\"-4\" y1=\"-7\" x2=\"-4\" y2=\"-9\"/>"
    "<target name=\"t\" x=\"7\" y=\"0\" radius=\"0.3\"/></world>"
    "<agent name=\"a\" x=\"-3\" y=\"0\" radius=\"0.3\" target=\"t\">"
    "<ttc field=\"auto\"/></agent></scenario>";

/* A re-plan from aside plans to the corner it lost from sight and keeps the rest of the route
 * (sim/navigate.c SW_ROUTE_REPAIR): the route is set by hand to corners the search would not
 * give, so a whole new plan shows.  A stalled agent plans the whole way; so does one that lost
 * a corner it cannot reach (inside the room, 0.3 m from its wall, where the search would end at
 * a node outside it). */
START_TEST(a_lost_corner_is_planned_to_and_the_rest_kept)
{
	sw_diag d;
	sw_model *m = load(repair_xml, &d);
	ck_assert_ptr_nonnull(m);
	/* case 0: corner 0 behind w1 (out of sight from the agent, 4.5 m away); 1 (stalled): a
	 * detour above the walls; 2: corner 0 in the room, 8 m away behind its wall; the target
	 * last */
	const sw_vec2 set[3][5] = {{{1.5, 0.0}, {2.5, -6.0}, {7.0, 0.0}},
				   {{-2.0, 5.0}, {1.5, 6.0}, {3.0, 7.0}, {6.0, 6.0}, {7.0, 0.0}},
				   {{-2.3, -8.0}, {7.0, 0.0}}};
	const int count[3] = {3, 5, 2};
	for (int c = 0; c < 3; c++) {
		int stalled = c == 1, n0 = count[c], j = 0;
		sw_world *w = NULL;
		ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
		sw_route *r = &w->nav.route[0];
		ck_assert_int_eq(r->tgt, 0); /* planned at creation */
		sw_vec2 *pts = realloc(r->pts, (size_t)n0 * sizeof *pts);
		ck_assert_ptr_nonnull(pts);
		r->pts = pts;
		r->cap = r->n = n0;
		memcpy(r->pts, set[c], (size_t)n0 * sizeof *pts);
		r->next = 0;
		w->t = 5.0;
		r->t_plan = 0.0;
		r->from = sw_v2(-10.0, 0.0); /* far from where it was planned */
		r->t_seen = w->t - m->run.step;
		r->anchor = sw_v2(-3.0, 0.0); /* stalled since t = 0 */
		r->t_anchor = stalled ? 0.0 : w->t;
		ck_assert_int_eq(sw__route_update(w, sw__serial(w), 0), SW_SUCCESS);
		ck_assert_double_eq(r->t_plan, 5.0); /* planned again */
		if (c > 0) { /* the whole way: over w1's and w2's ends (about 14.6 m), nowhere near
			      * the room, not by the detour (19.8 m) */
			for (int k = 0; k < r->n; k++)
				ck_assert_msg(r->pts[k].y > -6.0, "corner %d: (%g, %g)", k,
					      r->pts[k].x, r->pts[k].y);
			ck_assert(r->pts[r->n - 1].x == 7.0 && r->pts[r->n - 1].y == 0.0);
			double len = route_length(sw_v2(-3.0, 0.0), r->pts, r->n);
			ck_assert_msg(len < 17.0, "%g m", len);
			sw_world_destroy(w);
			continue;
		}
		/* ends with corner j and the corners after it, as they were */
		ck_assert_int_gt(r->n, n0 - j);
		for (int k = j; k < n0; k++) {
			sw_vec2 q = r->pts[r->n - n0 + k];
			ck_assert_msg(q.x == set[c][k].x && q.y == set[c][k].y,
				      "corner %d: (%g, %g)", k, q.x, q.y);
		}
		double len = route_length(sw_v2(-3.0, 0.0), r->pts, r->n - n0 + j + 1);
		/* round an end of w1 grown by the clearance: the taut string over (0, +-4.3) is
		 * 9.8 m; the margin adds some */
		ck_assert_msg(len > hypot(3.0, 4.3) + hypot(1.5, 4.3) && len < 12.0, "%g m", len);
		sw_world_destroy(w);
	}
	sw_model_free(m);
}
END_TEST

START_TEST(a_restored_route_continues_the_run)
{
	sw_model *m = trap(1);
	sw_diag d;
	sw_diag_init(&d);
	sw_world *w = NULL, *v = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
	for (int k = 0; k < 200; k++) /* 10 s: the agents are out of the U, routes half walked */
		ck_assert_int_eq(sw_world_step(w, &d), SW_SUCCESS);
	void *ck = NULL;
	size_t len = 0;
	ck_assert_int_eq(sw_world_checkpoint(w, &ck, &len), SW_SUCCESS);
	ck_assert_int_eq(sw_world_create(m, NULL, &v, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_world_restore(v, ck, len, "ck", &d), SW_SUCCESS);
	/* and into a world created to be restored, which plans no routes first */
	sw_world_def ud = sw_default_world_def(m);
	ud.restoring = 1;
	sw_world *u = NULL;
	ck_assert_int_eq(sw_world_create(m, &ud, &u, &d), SW_SUCCESS);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(u->nav.route[i].tgt, -1);
	ck_assert_int_eq(sw_world_restore(u, ck, len, "ck", &d), SW_SUCCESS);
	for (int k = 0; k < 600; k++) {
		ck_assert_int_eq(sw_world_step(w, &d), SW_SUCCESS);
		ck_assert_int_eq(sw_world_step(v, &d), SW_SUCCESS);
		ck_assert_int_eq(sw_world_step(u, &d), SW_SUCCESS);
	}
	for (int i = 0; i < 3; i++) {
		sw_agent_state a, b, c;
		sw_world_agent(w, i, &a);
		sw_world_agent(v, i, &b);
		sw_world_agent(u, i, &c);
		ck_assert_int_eq(memcmp(&a, &b, sizeof a), 0);
		ck_assert_int_eq(memcmp(&a, &c, sizeof a), 0);
	}
	sw_world_destroy(u);
	/* A hostile route section is refused, with the world left as it was: agent 2's route (the
	 * last section) claims more corners than its grid has nodes, and the checksum is made
	 * right again.  The section is the route's target, next and count (ints), its planning
	 * time and place, its stall anchor's place and time and when it was last followed
	 * (doubles), then its corners. */
	void *ck2 = NULL;
	size_t len2 = 0;
	ck_assert_int_eq(sw_world_checkpoint(v, &ck2, &len2), SW_SUCCESS);
	unsigned char *b = ck2;
	size_t sum_at = len2 - sizeof(uint64_t);
	/* the section's start: the corner count n that a section of n corners ending there holds
	 * (agent 2 is out of the U by now: a few corners).  A wrong smaller n would need the int
	 * read inside a later double to equal n, its low 32 mantissa bits: not for this run's
	 * values, and the assertion below would catch it as a failed restore. */
	size_t at = 0;
	int n2 = 0;
	for (int n = 1; n <= 64 && n2 == 0; n++) {
		at = sum_at - (3 * sizeof(int) + 7 * sizeof(double) + 2 * (size_t)n * sizeof(double));
		int c;
		memcpy(&c, b + at + 2 * sizeof(int), sizeof c);
		n2 = c == n ? n : 0;
	}
	ck_assert_int_gt(n2, 0);
	n2 = 1 << 30;
	memcpy(b + at + 2 * sizeof(int), &n2, sizeof n2);
	uint64_t sum = sw_hash_bytes(SW_HASH_INIT, b, sum_at);
	memcpy(b + sum_at, &sum, sizeof sum);
	sw_agent_state before, after;
	sw_world_agent(v, 0, &before);
	ck_assert_int_eq(sw_world_restore(v, ck2, len2, "bad", &d), SW_EINPUT);
	sw_world_agent(v, 0, &after);
	ck_assert_int_eq(memcmp(&before, &after, sizeof before), 0);
	free(ck2);
	free(ck);
	sw_world_destroy(w);
	sw_world_destroy(v);
	sw_model_free(m);
}
END_TEST

START_TEST(routes_errors_cite_their_line)
{
	static const char *const bad[][2] = {
	    {"\n<routes resolution=\"0\"/>", "resolution = 0"},
	    {"\n<routes resolution=\"0.1\" clearance=\"inf\"/>", "clearance"},
	    {"<routes/>\n<routes/>", "a second <routes>"},
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		sw_diag d;
		sw_diag_init(&d);
		sw_model *m = test_load_filled(trap_xml, bad[k][0], "trap.xml", &d);
		ck_assert_ptr_null(m);
		int found = 0;
		for (int e = 0; e < d.count; e++)
			found |= strstr(d.entry[e].message, bad[k][1]) != NULL && d.entry[e].line == 2;
		ck_assert_msg(found, "no error '%s' at line 2 for %s", bad[k][1], bad[k][0]);
	}
	/* Not in a periodic world (its grid would not wrap). */
	static const char *const periodic =
	    "<scenario name=\"p\"><world periodic-x=\"40\">\n<routes/>"
	    "<target name=\"t\" x=\"30\" y=\"0\"/></world>"
	    "<agent name=\"a\" x=\"5\" y=\"0\" target=\"t\" perception=\"3\"><ttc field=\"auto\"/>"
	    "</agent></scenario>";
	sw_diag d;
	sw_model *m = load(periodic, &d);
	ck_assert_ptr_null(m);
	int found = 0;
	for (int e = 0; e < d.count; e++)
		found |= strstr(d.entry[e].message, "routes are not supported in periodic") != NULL &&
			 d.entry[e].line == 2;
	ck_assert(found);
}
END_TEST

Suite *route_suite(void)
{
	Suite *s = suite_create("route");
	TCase *tc = tcase_create("route");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, routes_match_the_taut_string);
	tcase_add_test(tc, routes_keep_out_of_avoided_discs);
	tcase_add_test(tc, routes_keep_a_margin);
	tcase_add_test(tc, routes_lead_out_of_a_trap);
	tcase_add_test(tc, a_restored_route_continues_the_run);
	tcase_add_test(tc, a_lost_corner_is_planned_to_and_the_rest_kept);
	tcase_add_test(tc, stalled_walkers_plan_round_each_other);
	tcase_add_test(tc, routes_errors_cite_their_line);
	suite_add_tcase(s, tc);
	return s;
}
