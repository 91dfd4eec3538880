/* tests/test_crowd_index.c - crowds among many obstacles: the primitive index (src/sim/prim_grid.c)
 * against the loop over every primitive, for the run's bits, obstacle metrics, sight lines and
 * clearance(), and the skipped obstacle measurements against measuring every step.  Runs are
 * compared with tests/test_crowd.c's test_outcome (tests.h). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "swerve/io.h"
#include "swerve/sim.h"
#include "sim/sim_internal.h"
#include "tests.h"

/* 30 agents crossing a field of 60 discs, 12 walls and 2 moving discs, perceiving 2.5 m; with
 * `blind`, every fifth agent perceives only 0.05 m and walks into obstacles; with `per_obstacle`
 * 0, the run keeps only each agent's smallest obstacle clearance (obstacle-clearances off). */
static sw_model *obstacle_field_with(int index, int blind, int per_obstacle)
{
	sw_model *m = sw_model_alloc("field", NULL);
	unsigned s = 7;
	char name[32];
	for (int k = 0; k < 74; k++) {
		sw_obstacle_def o = sw_default_obstacle_def();
		snprintf(name, sizeof name, "o%d", k);
		o.name = name;
		s = s * 1664525u + 1013904223u;
		double x = 4.0 + 30.0 * (s >> 8) / 16777216.0;
		s = s * 1664525u + 1013904223u;
		double y = -12.0 + 24.0 * (s >> 8) / 16777216.0;
		if (k >= 60 && k < 72) {
			o.shape = SW_SHAPE_SEGMENT;
			o.a = sw_v2(x, y);
			o.b = sw_v2(x + 2.0, y + 1.0);
		} else {
			o.center = sw_v2(x, y);
			o.radius = 0.3;
			if (k >= 72) {
				o.motion.kind = SW_MOTION_LINEAR;
				o.motion.velocity = sw_v2(0.0, 0.5);
			}
		}
		ck_assert_int_eq(sw_model_add_obstacle(m, &o, NULL), SW_SUCCESS);
	}
	sw_target_def t = sw_default_target_def();
	t.name = "east";
	t.position = sw_v2(40.0, 0.0);
	ck_assert_int_eq(sw_model_add_target(m, &t, NULL), SW_SUCCESS);
	for (int i = 0; i < 30; i++) {
		sw_agent_def ad = sw_default_agent_def();
		ad.position = sw_v2(0.0, -14.5 + i);
		ad.radius = 0.2;
		ad.perception = blind && i % 5 == 0 ? 0.05 : 2.5;
		ad.target = "east";
		ck_assert_int_eq(sw_model_add_agent(m, &ad, NULL), SW_SUCCESS);
	}
	sw_run_def r = sw_default_run_def();
	r.duration = 40.0;
	r.neighbor_grid = index;
	r.obstacle_clearances = per_obstacle;
	ck_assert_int_eq(sw_model_set_run(m, &r, 0, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_model_finalize(m, NULL), SW_SUCCESS);
	return m;
}

static sw_model *obstacle_field(int index)
{
	return obstacle_field_with(index, 0, 1);
}

static sw_model *obstacle_field_ex(int index, int clearances)
{
	return obstacle_field_with(index, 0, clearances);
}

START_TEST(obstacle_index_gives_the_bits_of_the_loop_over_all_primitives)
{
	/* With neighbor_grid on, perception finds primitives through the static-primitive index
	 * (74 primitives: above the threshold) and agents through their grid; off, it loops over
	 * everything.  Same bits, events and metrics; and the agents did meet obstacles. */
	sw_model *a = obstacle_field(1), *b = obstacle_field(0);
	test_outcome x = test_outcome_run(a, 2, 1), y = test_outcome_run(b, 1, 1);
	test_assert_same(&x, &y, a->n_agents);
	double closest = INFINITY;
	for (int i = 0; i < a->n_agents; i++)
		closest = fmin(closest, x.mt[i].min_clearance);
	ck_assert_double_lt(closest, 1.0);
	test_outcome_free(&x);
	test_outcome_free(&y);
	sw_model_free(a);
	sw_model_free(b);
}
END_TEST

/* With obstacle-clearances off, the obstacle metrics are measured through the primitive index
 * (step.c measure_obstacles): the same smallest clearances, collisions, deepest overlaps and
 * overlap times as measuring every obstacle, with agents that walk into obstacles (every fifth
 * is nearly blind) and out again. */
START_TEST(obstacle_metrics_through_the_index_are_those_of_every_obstacle)
{
	sw_model *a = obstacle_field_with(1, 1, 0), *b = obstacle_field_with(0, 1, 0);
	test_outcome x = test_outcome_run(a, 2, 1), y = test_outcome_run(b, 1, 1);
	test_assert_same(&x, &y, a->n_agents);
	int collisions = 0;
	for (int i = 0; i < a->n_agents; i++) {
		ck_assert(x.mt[i].max_penetration == y.mt[i].max_penetration);
		ck_assert(x.mt[i].overlap_time == y.mt[i].overlap_time);
		collisions += x.mt[i].collisions;
	}
	ck_assert_int_ge(collisions, 5); /* the blind ones did walk into obstacles */
	test_outcome_free(&x);
	test_outcome_free(&y);
	sw_model_free(a);
	sw_model_free(b);
}
END_TEST

/* An agent put far from every obstacle, near a disc, into it, far away, then into the disc again
 * (its path grown by each move, as stepping would): two collision episodes with the disc.  The far position is beyond the index's
 * reach of the disc, so the index alone would not see the first episode end; measure_obstacles
 * measures every obstacle after a measure that found an overlap. */
START_TEST(an_overlap_left_beyond_the_index_reach_ends)
{
	sw_model *m = sw_model_alloc("reenter", NULL);
	char name[32];
	for (int k = 0; k < 40; k++) {
		sw_obstacle_def o = sw_default_obstacle_def();
		snprintf(name, sizeof name, "o%d", k);
		o.name = name;
		o.center = sw_v2(3.0 * k, 5.0);
		o.radius = 0.3;
		ck_assert_int_eq(sw_model_add_obstacle(m, &o, NULL), SW_SUCCESS);
	}
	sw_agent_def ad = sw_default_agent_def();
	ad.position = sw_v2(0.0, -10.0);
	ad.radius = 0.2;
	ad.perception = 1.0;
	ck_assert_int_eq(sw_model_add_agent(m, &ad, NULL), SW_SUCCESS);
	sw_run_def r = sw_default_run_def();
	r.obstacle_clearances = 0;
	ck_assert_int_eq(sw_model_set_run(m, &r, 0, NULL), SW_SUCCESS);
	ck_assert_int_eq(sw_model_finalize(m, NULL), SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	ck_assert(w->pg.on);
	const sw_vec2 at[] = {{0.0, -10.0}, {0.0, 4.0}, {0.0, 5.1}, {1.5, 0.0}, {0.0, 5.1}, {1.5, 0.0}};
	double *y = w->unit.y + w->unit.off[0];
	sw_vec2 was = at[0];
	for (int s = 0; s < 6; s++) {
		y[SW_STATE_X] = at[s].x;
		y[SW_STATE_Y] = at[s].y;
		w->meas.metrics[0].path_length += sw_v2_dist(was, at[s]);
		was = at[s];
		ck_assert_int_eq(sw__sense_range(w, sw__serial(w), 0, 1, 0.1), SW_SUCCESS);
		if (s == 0) /* beyond the perception radius of everything: still the true minimum */
			ck_assert_double_eq_tol(w->meas.metrics[0].min_clearance, 14.5, 1e-12);
	}
	ck_assert_int_eq(w->meas.metrics[0].collisions, 2);
	ck_assert_double_eq_tol(w->meas.metrics[0].overlap_time, 0.2, 1e-12);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* Lines of sight (navigate.c, for navigation fields) through the primitive index against the loop
 * over every primitive: 4000 segments of 0.1 to 60 m, from inside the field to beyond it, for a
 * disc of radius 0 to 1.5 m, among 60 discs, 12 walls and 2 moving discs (ignored by both).  The
 * same answer for each, and both answers occur. */
START_TEST(sight_through_the_index_is_the_loop_over_every_primitive)
{
	sw_model *m = obstacle_field(1);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	ck_assert(w->pg.on);
	unsigned s = 11;
	int clear = 0, blocked = 0;
	for (int k = 0; k < 4000; k++) {
		double u[6];
		for (int j = 0; j < 6; j++) {
			s = s * 1664525u + 1013904223u;
			u[j] = (s >> 8) / 16777216.0;
		}
		sw_vec2 p = sw_v2(-10.0 + 50.0 * u[0], -20.0 + 40.0 * u[1]);
		double len = 0.1 + 60.0 * u[2] * u[2], a = 6.283185307179586 * u[3];
		sw_vec2 q = sw_v2(p.x + len * cos(a), p.y + len * sin(a));
		double r = 1.5 * u[4] * u[4];
		int want = sw__clear_sight(NULL, m, p, q, r), got = sw__clear_sight(w, m, p, q, r);
		ck_assert_msg(got == want, "(%g, %g) -> (%g, %g), r %g: %d, all %d", p.x, p.y, q.x, q.y,
			      r, got, want);
		clear += want, blocked += !want;
	}
	ck_assert_int_gt(clear, 100);
	ck_assert_int_gt(blocked, 100);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

/* The guard function clearance() through the primitive index (sw__nearest_clearance) against
 * the smallest clearance over every obstacle, at a lattice of points from inside obstacles to
 * far from all of them, at two instants: 40 discs, a moving disc, a thin closed polygon and a
 * closed square 30 m wide with a disc in its middle (there the disc is within the query's reach
 * but every edge of the square is not: only the list of wide polygons finds that the point is
 * inside).  Equal bits everywhere. */
START_TEST(nearest_clearance_through_the_index_is_the_global_one)
{
	sw_model *m = sw_model_alloc("clear", NULL);
	char name[32];
	for (int k = 0; k < 42; k++) {
		sw_obstacle_def o = sw_default_obstacle_def();
		snprintf(name, sizeof name, "o%d", k);
		o.name = name;
		o.center = sw_v2(2.0 + 0.9 * k, 3.0 * sin(0.7 * k));
		o.radius = 0.3;
		if (k == 41) {
			o.motion.kind = SW_MOTION_LINEAR;
			o.motion.velocity = sw_v2(0.0, 1.0);
		}
		if (k == 40)
			o.center = sw_v2(70.0, 0.0); /* in the middle of the wide square */
		ck_assert_int_eq(sw_model_add_obstacle(m, &o, NULL), SW_SUCCESS);
	}
	const sw_vec2 thin[] = {{10, 8}, {30, 8}, {30, 8.5}, {10, 8.5}};
	const sw_vec2 wide[] = {{55, -15}, {85, -15}, {85, 15}, {55, 15}};
	const sw_vec2 *poly[] = {thin, wide};
	for (int k = 0; k < 2; k++) {
		sw_obstacle_def o = sw_default_obstacle_def();
		o.name = k ? "wide" : "thin";
		o.shape = SW_SHAPE_POLYGON;
		o.n_vertices = 4;
		o.vertices = poly[k];
		o.closed = 1;
		ck_assert_int_eq(sw_model_add_obstacle(m, &o, NULL), SW_SUCCESS);
	}
	sw_target_def tg = sw_default_target_def();
	tg.name = "east";
	tg.position = sw_v2(40.0, 0.0);
	ck_assert_int_eq(sw_model_add_target(m, &tg, NULL), SW_SUCCESS);
	for (int i = 0; i < 2; i++) {
		sw_agent_def ad = sw_default_agent_def();
		ad.position = sw_v2(0.0, -3.0 + 6.0 * i);
		ad.radius = 0.25;
		ad.perception = 2.0 + 3.0 * i;
		ad.target = "east";
		ck_assert_int_eq(sw_model_add_agent(m, &ad, NULL), SW_SUCCESS);
	}
	ck_assert_int_eq(sw_model_finalize(m, NULL), SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
	ck_assert(w->pg.on);
	ck_assert_int_eq(w->pg.n_big, 1);
	int inside = 0, near = 0;
	for (int ti = 0; ti < 2; ti++)
		for (double y = -20.0; y <= 20.0; y += 0.7)
			for (double x = -5.0; x <= 90.0; x += 0.7)
				for (int i = 0; i < 2; i++) {
					double t = 4.0 * ti, r = m->agents[i].radius, want = INFINITY;
					sw_vec2 p = sw_v2(x, y);
					for (int j = 0; j < m->n_obstacles; j++)
						want = fmin(want,
							    sw_model_obstacle_clearance(m, j, t, p, r));
					double got = sw__nearest_clearance(&w->pg, m, sw__serial(w),
									   i, t, p, r);
					ck_assert_msg(got == want, "(%g, %g) t %g agent %d: %.17g, all %.17g",
						      x, y, t, i, got, want);
					inside += want < -10.0;
					near += want <= m->agents[i].perception;
				}
	ck_assert_int_gt(inside, 10); /* deep inside the wide square */
	ck_assert_int_gt(near, 1000); /* answered through the index */
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

START_TEST(skipped_obstacle_measurements_change_no_metric)
{
	/* measure_obstacles skips static obstacles that cannot have come closer than their
	 * recorded minimum (a Lipschitz bound on the path length).  Recompute every agent's
	 * clearance to every obstacle after every step here, by brute force, and compare the
	 * per-obstacle minima, overlap episodes and deepest overlaps: exactly equal.  Without
	 * per-obstacle minima (run obstacle-clearances off: far longer skips, only the agent's
	 * smallest clearance has to hold) the smallest clearance and the overlap episodes are
	 * still exact. */
	for (int keep = 1; keep >= 0; keep--) {
		sw_model *m = obstacle_field_ex(1, keep);
		sw_world *w = NULL;
		ck_assert_int_eq(sw_world_create(m, NULL, &w, NULL), SW_SUCCESS);
		int n = m->n_agents, no = m->n_obstacles;
		double *mins = malloc((size_t)n * no * sizeof *mins);
		unsigned char *over = calloc((size_t)n * no, 1);
		int *episodes = calloc((size_t)n, sizeof *episodes);
		for (size_t k = 0; k < (size_t)n * no; k++)
			mins[k] = INFINITY;
		long steps = lround(m->run.duration / m->run.step);
		for (long s = 0; s <= steps; s++) {
			if (s > 0)
				ck_assert_int_eq(sw_world_step(w, NULL), SW_SUCCESS);
			for (int i = 0; i < n; i++) {
				sw_agent_state st;
				sw_world_agent(w, i, &st);
				sw_vec2 p = sw_v2(st.y[SW_STATE_X], st.y[SW_STATE_Y]);
				for (int j = 0; j < no; j++) {
					size_t k = (size_t)i * no + j;
					double c = sw_model_obstacle_clearance(
					    m, j, sw_world_time(w), p, m->agents[i].radius);
					mins[k] = fmin(mins[k], c);
					episodes[i] += c < 0.0 && !over[k];
					over[k] = c < 0.0;
				}
			}
		}
		int measured_below_1m = 0;
		for (int i = 0; i < n; i++) {
			double least = INFINITY;
			for (int j = 0; j < no; j++) {
				double got = sw_world_min_clearance(w, i, j),
				       want = mins[(size_t)i * no + j];
				least = fmin(least, want);
				if (keep)
					ck_assert_msg(got == want,
						      "agent %d obstacle %d: %.17g, brute force %.17g",
						      i, j, got, want);
				else
					ck_assert(isnan(got)); /* not kept */
				measured_below_1m += want < 1.0;
			}
			ck_assert_msg(sw_world_metrics(w, i)->min_clearance == least,
				      "keep %d agent %d: %.17g, brute force %.17g", keep, i,
				      sw_world_metrics(w, i)->min_clearance, least);
			ck_assert_int_eq(sw_world_metrics(w, i)->collisions, episodes[i]);
		}
		ck_assert_int_gt(measured_below_1m, 20); /* the agents did pass obstacles */
		free(mins);
		free(over);
		free(episodes);
		sw_world_destroy(w);
		sw_model_free(m);
	}
}
END_TEST

Suite *crowd_index_suite(void)
{
	Suite *s = suite_create("crowd_index");
	TCase *tc = tcase_create("crowd_index");
	tcase_add_test(tc, obstacle_index_gives_the_bits_of_the_loop_over_all_primitives);
	tcase_add_test(tc, obstacle_metrics_through_the_index_are_those_of_every_obstacle);
	tcase_add_test(tc, an_overlap_left_beyond_the_index_reach_ends);
	tcase_add_test(tc, sight_through_the_index_is_the_loop_over_every_primitive);
	tcase_add_test(tc, nearest_clearance_through_the_index_is_the_global_one);
	tcase_add_test(tc, skipped_obstacle_measurements_change_no_metric);
	suite_add_tcase(s, tc);
	return s;
}
