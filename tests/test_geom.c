/* tests/test_geom.c - geometry queries against brute force and closed forms. */
#include <math.h>

#include "swerve/geom.h"
#include "tests.h"

/* Deterministic pseudo-random numbers in [lo, hi) for test inputs. */
static double urand(unsigned *s, double lo, double hi)
{
	*s = *s * 1664525u + 1013904223u;
	return lo + (hi - lo) * ((*s >> 8) / 16777216.0);
}

START_TEST(segment_distance_equals_dense_sampling)
{
	unsigned s = 7;
	for (int k = 0; k < 200; k++) {
		sw_vec2 a = sw_v2(urand(&s, -5, 5), urand(&s, -5, 5));
		sw_vec2 b = sw_v2(urand(&s, -5, 5), urand(&s, -5, 5));
		sw_vec2 p = sw_v2(urand(&s, -8, 8), urand(&s, -8, 8));
		double best = INFINITY;
		for (int i = 0; i <= 20000; i++) {
			double u = i / 20000.0;
			best = fmin(best, sw_v2_dist(sw_v2(a.x + u * (b.x - a.x), a.y + u * (b.y - a.y)), p));
		}
		double d = sw_segment_distance(a, b, p);
		ck_assert(d <= best + 1e-12);
		ck_assert_double_eq_tol(d, best, 1e-3 * sw_v2_dist(a, b) + 1e-12);
	}
	/* Degenerate segment. */
	ck_assert_double_eq_tol(sw_segment_distance(sw_v2(1, 1), sw_v2(1, 1), sw_v2(4, 5)), 5.0, 1e-15);
}
END_TEST

START_TEST(polygon_contains_square_and_concave)
{
	sw_vec2 sq[] = {{0, 0}, {2, 0}, {2, 2}, {0, 2}};
	ck_assert_int_eq(sw_polygon_contains(sq, 4, sw_v2(1, 1)), 1);
	ck_assert_int_eq(sw_polygon_contains(sq, 4, sw_v2(3, 1)), 0);
	ck_assert_int_eq(sw_polygon_contains(sq, 4, sw_v2(-0.1, 1)), 0);
	/* U shape: the notch is outside. */
	sw_vec2 u[] = {{0, 0}, {3, 0}, {3, 3}, {2, 3}, {2, 1}, {1, 1}, {1, 3}, {0, 3}};
	ck_assert_int_eq(sw_polygon_contains(u, 8, sw_v2(1.5, 2)), 0);
	ck_assert_int_eq(sw_polygon_contains(u, 8, sw_v2(0.5, 2)), 1);
	ck_assert_int_eq(sw_polygon_contains(u, 8, sw_v2(1.5, 0.5)), 1);
}
END_TEST

START_TEST(segments_intersect_cases)
{
	ck_assert_int_eq(sw_segments_intersect(sw_v2(0, 0), sw_v2(2, 2), sw_v2(0, 2), sw_v2(2, 0)), 1);
	ck_assert_int_eq(sw_segments_intersect(sw_v2(0, 0), sw_v2(1, 0), sw_v2(0, 1), sw_v2(1, 1)), 0);
	ck_assert_int_eq(sw_segments_intersect(sw_v2(0, 0), sw_v2(1, 0), sw_v2(1, 0), sw_v2(2, 5)), 1);
	ck_assert_int_eq(sw_segments_intersect(sw_v2(0, 0), sw_v2(2, 0), sw_v2(1, 0), sw_v2(3, 0)), 1);
	ck_assert_int_eq(sw_segments_intersect(sw_v2(0, 0), sw_v2(1, 0), sw_v2(2, 0), sw_v2(3, 0)), 0);
}
END_TEST

START_TEST(polyline_loop_positions)
{
	sw_vec2 sq[] = {{0, 0}, {4, 0}, {4, 3}};
	/* Loop 0,0 -> 4,0 -> 4,3 -> 0,0: lengths 4, 3, 5. */
	ck_assert_double_eq_tol(sw_polyline_loop_length(sq, 3), 12.0, 1e-14);
	sw_vec2 t;
	sw_vec2 p = sw_polyline_loop_at(sq, 3, 2.0, &t);
	ck_assert_double_eq_tol(p.x, 2.0, 1e-14);
	ck_assert_double_eq_tol(t.x, 1.0, 1e-14);
	p = sw_polyline_loop_at(sq, 3, 5.5, NULL);
	ck_assert_double_eq_tol(p.x, 4.0, 1e-14);
	ck_assert_double_eq_tol(p.y, 1.5, 1e-14);
	p = sw_polyline_loop_at(sq, 3, 7.0 + 2.5 + 12.0, NULL); /* halfway down the hypotenuse */
	ck_assert_double_eq_tol(p.x, 2.0, 1e-12);
	ck_assert_double_eq_tol(p.y, 1.5, 1e-12);
	p = sw_polyline_loop_at(sq, 3, -1.0, NULL); /* 1 m before the start on the hypotenuse */
	ck_assert_double_eq_tol(p.x, 0.8, 1e-12);
	ck_assert_double_eq_tol(p.y, 0.6, 1e-12);
}
END_TEST

Suite *geom_suite(void)
{
	Suite *s = suite_create("geom");
	TCase *tc = tcase_create("geom");
	tcase_add_test(tc, segment_distance_equals_dense_sampling);
	tcase_add_test(tc, polygon_contains_square_and_concave);
	tcase_add_test(tc, segments_intersect_cases);
	tcase_add_test(tc, polyline_loop_positions);
	suite_add_tcase(s, tc);
	return s;
}
