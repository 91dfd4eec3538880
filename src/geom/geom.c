/* geom/geom.c - distance queries, polygon containment and waypoint loops. */
#include <stddef.h>

#include "swerve/geom.h"

sw_vec2 sw_segment_closest(sw_vec2 a, sw_vec2 b, sw_vec2 p, double *u)
{
	sw_vec2 ab = sw_v2_sub(b, a);
	double len2 = sw_v2_dot(ab, ab);
	double s = 0.0;
	if (len2 > 0.0) {
		s = sw_v2_dot(sw_v2_sub(p, a), ab) / len2;
		s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
	}
	if (u)
		*u = s;
	return sw_v2_add(a, sw_v2_scale(ab, s));
}

double sw_segment_distance(sw_vec2 a, sw_vec2 b, sw_vec2 p)
{
	return sw_v2_dist(sw_segment_closest(a, b, p, NULL), p);
}

int sw_polygon_contains(const sw_vec2 *v, int n, sw_vec2 p)
{
	/* Even-odd crossing test of a ray towards +x. */
	int inside = 0;
	for (int i = 0, j = n - 1; i < n; j = i++) {
		if ((v[i].y > p.y) != (v[j].y > p.y)) {
			double x = v[j].x + (p.y - v[j].y) * (v[i].x - v[j].x) / (v[i].y - v[j].y);
			if (p.x < x)
				inside = !inside;
		}
	}
	return inside;
}

static int orient(sw_vec2 a, sw_vec2 b, sw_vec2 c)
{
	double o = sw_v2_cross(sw_v2_sub(b, a), sw_v2_sub(c, a));
	return (o > 0.0) - (o < 0.0);
}

static int on_segment(sw_vec2 a, sw_vec2 b, sw_vec2 p)
{
	return fmin(a.x, b.x) <= p.x && p.x <= fmax(a.x, b.x) && fmin(a.y, b.y) <= p.y &&
	       p.y <= fmax(a.y, b.y);
}

int sw_segments_intersect(sw_vec2 a, sw_vec2 b, sw_vec2 c, sw_vec2 d)
{
	int o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
	if (o1 != o2 && o3 != o4)
		return 1;
	return (o1 == 0 && on_segment(a, b, c)) || (o2 == 0 && on_segment(a, b, d)) ||
	       (o3 == 0 && on_segment(c, d, a)) || (o4 == 0 && on_segment(c, d, b));
}

double sw_polyline_loop_length(const sw_vec2 *p, int n)
{
	double len = 0.0;
	for (int i = 0; i < n; i++)
		len += sw_v2_dist(p[i], p[(i + 1) % n]);
	return len;
}

sw_vec2 sw_polyline_loop_at(const sw_vec2 *p, int n, double s, sw_vec2 *tangent)
{
	if (tangent)
		*tangent = sw_v2(0.0, 0.0);
	if (n <= 1)
		return n == 1 ? p[0] : sw_v2(0.0, 0.0);
	double total = sw_polyline_loop_length(p, n);
	if (!(total > 0.0))
		return p[0];
	s = fmod(s, total);
	if (s < 0.0)
		s += total;
	for (int i = 0; i < n; i++) {
		sw_vec2 a = p[i], b = p[(i + 1) % n];
		double len = sw_v2_dist(a, b);
		if (s <= len || i == n - 1) {
			if (len <= 0.0)
				continue;
			sw_vec2 dir = sw_v2_scale(sw_v2_sub(b, a), 1.0 / len);
			if (tangent)
				*tangent = dir;
			return sw_v2_add(a, sw_v2_scale(dir, s < len ? s : len));
		}
		s -= len;
	}
	return p[0];
}
