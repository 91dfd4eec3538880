/* swerve/geom.h - 2-D vectors and the distance queries the steering laws need. */
#ifndef SWERVE_GEOM_H
#define SWERVE_GEOM_H

#include "swerve/api.h"

#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A 2-D vector or point, metres (or metres per second for velocities). */
typedef struct sw_vec2 {
	double x; /**< x component */
	double y; /**< y component */
} sw_vec2;

static inline sw_vec2 sw_v2(double x, double y) { sw_vec2 v = {x, y}; return v; }
static inline sw_vec2 sw_v2_add(sw_vec2 a, sw_vec2 b) { return sw_v2(a.x + b.x, a.y + b.y); }
static inline sw_vec2 sw_v2_sub(sw_vec2 a, sw_vec2 b) { return sw_v2(a.x - b.x, a.y - b.y); }
static inline sw_vec2 sw_v2_scale(sw_vec2 a, double s) { return sw_v2(a.x * s, a.y * s); }
static inline double sw_v2_dot(sw_vec2 a, sw_vec2 b) { return a.x * b.x + a.y * b.y; }
static inline double sw_v2_cross(sw_vec2 a, sw_vec2 b) { return a.x * b.y - a.y * b.x; }
/* Lengths use sqrt(x^2 + y^2) rather than hypot(): glibc's hypot guards against overflow beyond
 * 1e154 m, which scenes never reach, at several times the cost in the perception hot path. */
static inline double sw_v2_len(sw_vec2 a) { return sqrt(a.x * a.x + a.y * a.y); }
static inline double sw_v2_dist(sw_vec2 a, sw_vec2 b) { return sw_v2_len(sw_v2_sub(a, b)); }

/** Closest point of segment [a, b] to p; *u (may be NULL) receives its parameter in [0, 1].
 * A degenerate segment (a == b) returns a. */
SW_API sw_vec2 sw_segment_closest(sw_vec2 a, sw_vec2 b, sw_vec2 p, double *u);

/** Distance from p to segment [a, b], metres. */
SW_API double sw_segment_distance(sw_vec2 a, sw_vec2 b, sw_vec2 p);

/** Returns 1 when p lies strictly inside the simple polygon v[0..n-1] (even-odd rule), else 0. */
SW_API int sw_polygon_contains(const sw_vec2 *v, int n, sw_vec2 p);

/** Returns 1 when the closed segments [a, b] and [c, d] intersect (touching counts), else 0. */
SW_API int sw_segments_intersect(sw_vec2 a, sw_vec2 b, sw_vec2 c, sw_vec2 d);

/** Position at arc length s along the closed polyline through p[0..n-1] and back to p[0]
 * (s taken modulo the loop length); n == 1 returns p[0].  *tangent (may be NULL) receives the
 * unit direction of travel. */
SW_API sw_vec2 sw_polyline_loop_at(const sw_vec2 *p, int n, double s, sw_vec2 *tangent);

/** Length of the closed polyline through p[0..n-1] and back to p[0], metres. */
SW_API double sw_polyline_loop_length(const sw_vec2 *p, int n);

#ifdef __cplusplus
}
#endif
#endif
