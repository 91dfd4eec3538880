/* expr/interval.c - sound interval evaluation of expression trees (sw_expr_interval).
 *
 * Semantics.  The result [out_lo, out_hi] encloses every value that is not NaN which
 * sw_expr_eval() can return, and every value the exact real function takes, at any point of the
 * box (slot k in [lo[k], hi[k]]).  Alongside the bounds every intermediate result carries a
 * "may be NaN" flag: an operand outside a function's domain (sqrt, log, asin, acos of values out
 * of range, a negative base to a non-integer power, 0 / 0, inf - inf, 0 * inf, sin(inf)) makes
 * the flag true and the bounds are clipped to the points where the function is defined.  A
 * division by an interval holding 0 gives (-inf, inf): x / +-0 is +-inf with the sign of the
 * zero, which the bounds do not track (ceil(-0.5) is -0); so does an odd negative power.  NaN is
 * followed the way the bytecode interpreter treats it (comparisons with NaN are false, `not NaN`
 * is false, if(NaN, a, b) takes a, pow(NaN, 0) = 1), so that the flag never hides a value.  The
 * function returns SW_ENUMERIC when the flag is set at the root: the bounds then still enclose
 * every defined value, and are empty (out_lo = +inf > out_hi = -inf) when no point is defined.
 *
 * Infinite bounds of the box mean "unbounded": its points are real numbers, so sin(x) of an
 * unbounded variable is not NaN.  Infinite values computed on the way (exp overflowing, 1 / 0,
 * x + y overflowing) lie in the closed extended interval, and an operation that could meet one
 * where it gives NaN (inf - inf, 0 * inf, sin(inf)) sets the flag.  Booleans are intervals within [0, 1]: [0, 0] false, [1, 1] true, [0, 1]
 * undecided.  Host calls are unknown: real ones give (-inf, inf) and the NaN flag, boolean ones
 * [0, 1] and the flag.
 *
 * Rounding.  Each bound is rounded outward.  + - * / are exact-checked (TwoSum, fma residues):
 * an exact result is kept, an inexact one moves one ulp outward (nextafter), so that 1 - 1 is
 * exactly 0 and a box face such as w = 1 gives exact zeros.  sqrt is correctly rounded (IEEE 754)
 * and moves one ulp unless exact.  libm's other functions are not correctly rounded (glibc
 * documents errors of up to 2-3 ulps for tanh, asin, atan2, pow ...), and a computed function
 * need not be monotone to the last ulp, so their bounds move SW_IV_ULPS = 4 ulps outward;
 * known exact values (sin 0 = 0, cos 0 = 1, exp 0 = 1, log 1 = 0, the extrema +-1 of sin and
 * cos, pi / 2 as an upper bound of asin, atan ...) are used as such.  Bounds of sin, cos, tanh,
 * asin, acos, atan, atan2 are also clipped to their mathematical ranges (the clip uses
 * nextafter(SW_PI) etc. since SW_PI < pi).  Trees with two equal operands of * or - (x * x,
 * x - x) are evaluated as squares and zeros (the same value at every point), which keeps
 * sqrt(dx * dx + dy * dy) defined. */
#include <float.h>
#include <math.h>

#include "core/core_internal.h"
#include "swerve/expr.h"

#define SW_IV_ULPS 4

typedef struct {
	double lo, hi; /* empty when lo > hi */
	int nan;       /* may be NaN at some point */
	int fin;       /* every value is finite even if a bound is infinite (a variable: the points
			  of the box are real numbers) */
} iv;

static const iv IV_ENTIRE = {-INFINITY, INFINITY, 0, 0};

static iv mk(double lo, double hi, int nan)
{
	iv r = {lo, hi, nan, 0};
	return r;
}

/* Whether a may hold an infinite value (overflow, division by zero, log 0 ...). */
static int may_inf(iv a)
{
	return !a.fin && (isinf(a.lo) || isinf(a.hi));
}

static int is_empty(iv a)
{
	return !(a.lo <= a.hi);
}

static iv empty_nan(void)
{
	return mk(INFINITY, -INFINITY, 1);
}

static double ulps(double x, int n, double dir)
{
	for (int k = 0; k < n && !isinf(x); k++)
		x = nextafter(x, dir);
	return x;
}

static double dn(double x, int n)
{
	return isnan(x) ? -INFINITY : ulps(x, n, -INFINITY);
}

static double up(double x, int n)
{
	return isnan(x) ? INFINITY : ulps(x, n, INFINITY);
}

static iv hull(iv a, iv b)
{
	if (is_empty(a))
		return mk(b.lo, b.hi, a.nan | b.nan);
	if (is_empty(b))
		return mk(a.lo, a.hi, a.nan | b.nan);
	return mk(fmin(a.lo, b.lo), fmax(a.hi, b.hi), a.nan | b.nan);
}

/* ---- outward-rounded arithmetic ---------------------------------------------------------- */

/* a + b rounded down (dir < 0) or up (dir > 0); a, b not infinite of opposite signs. */
static double add_r(double a, double b, int dir)
{
	double s = a + b;
	if (isinf(a) || isinf(b))
		return s;
	if (isinf(s)) /* finite operands overflowed: |a + b| > DBL_MAX */
		return dir < 0 ? (s > 0 ? DBL_MAX : -INFINITY) : (s > 0 ? INFINITY : -DBL_MAX);
	double bp = s - a, ap = s - bp, err = (a - ap) + (b - bp); /* TwoSum: a + b = s + err */
	if (err == 0.0)
		return s;
	if (dir < 0)
		return err < 0 ? nextafter(s, -INFINITY) : s;
	return err > 0 ? nextafter(s, INFINITY) : s;
}

/* Tiny results: residues may underflow, so no exactness is claimed below this. */
#define TINY 0x1p-960

/* a * b rounded down or up; 0 * anything is 0 (set semantics: infinite bounds are unbounded). */
static double mul_r(double a, double b, int dir)
{
	if (a == 0.0 || b == 0.0)
		return 0.0;
	double r = a * b;
	if (isinf(a) || isinf(b))
		return r;
	if (isinf(r))
		return dir < 0 ? (r > 0 ? DBL_MAX : -INFINITY) : (r > 0 ? INFINITY : -DBL_MAX);
	if (fabs(r) < TINY)
		return nextafter(r, dir < 0 ? -INFINITY : INFINITY);
	double err = fma(a, b, -r); /* a b = r + err exactly */
	if (err == 0.0)
		return r;
	if (dir < 0)
		return err < 0 ? nextafter(r, -INFINITY) : r;
	return err > 0 ? nextafter(r, INFINITY) : r;
}

/* a / b rounded down or up, b != 0. */
static double div_r(double a, double b, int dir)
{
	if (a == 0.0 || (isinf(b) && !isinf(a)))
		return 0.0; /* 0 / b = 0, a / inf = 0 */
	double r = a / b;
	if (isinf(a))
		return r;
	if (isinf(r))
		return dir < 0 ? (r > 0 ? DBL_MAX : -INFINITY) : (r > 0 ? INFINITY : -DBL_MAX);
	if (fabs(r) < TINY)
		return nextafter(r, dir < 0 ? -INFINITY : INFINITY);
	double err = fma(r, b, -a); /* r b - a; r - a / b has the sign of err * sign(b) */
	if (err == 0.0)
		return r;
	double s = b > 0 ? err : -err;
	if (dir < 0)
		return s > 0 ? nextafter(r, -INFINITY) : r;
	return s < 0 ? nextafter(r, INFINITY) : r;
}

static iv iv_add(iv a, iv b)
{
	if (is_empty(a) || is_empty(b))
		return empty_nan();
	int nan = a.nan | b.nan;
	if (may_inf(a) && may_inf(b) &&
	    ((a.hi == INFINITY && b.lo == -INFINITY) || (a.lo == -INFINITY && b.hi == INFINITY)))
		nan = 1; /* inf - inf */
	return mk(add_r(a.lo, b.lo, -1), add_r(a.hi, b.hi, 1), nan);
}

static iv iv_neg(iv a)
{
	iv r = mk(-a.hi, -a.lo, a.nan);
	r.fin = a.fin;
	return r;
}

static iv iv_mul(iv a, iv b)
{
	if (is_empty(a) || is_empty(b))
		return empty_nan();
	int nan = a.nan | b.nan;
	/* 0 * inf: a NaN is possible when an operand holds 0 and the other an infinite value */
	if ((a.lo <= 0 && a.hi >= 0 && may_inf(b)) || (b.lo <= 0 && b.hi >= 0 && may_inf(a)))
		nan = 1;
	double p[4] = {mul_r(a.lo, b.lo, -1), mul_r(a.lo, b.hi, -1), mul_r(a.hi, b.lo, -1),
		       mul_r(a.hi, b.hi, -1)};
	double q[4] = {mul_r(a.lo, b.lo, 1), mul_r(a.lo, b.hi, 1), mul_r(a.hi, b.lo, 1),
		       mul_r(a.hi, b.hi, 1)};
	double lo = p[0], hi = q[0];
	for (int k = 1; k < 4; k++) {
		lo = fmin(lo, p[k]);
		hi = fmax(hi, q[k]);
	}
	return mk(lo, hi, nan);
}

/* x * x for the same x. */
static iv iv_sqr(iv a)
{
	if (is_empty(a))
		return empty_nan();
	double m = fmax(fabs(a.lo), fabs(a.hi)), n = a.lo > 0 ? a.lo : a.hi < 0 ? -a.hi : 0.0;
	return mk(mul_r(n, n, -1), mul_r(m, m, 1), a.nan);
}

static iv iv_div(iv a, iv b)
{
	if (is_empty(a) || is_empty(b))
		return empty_nan();
	int nan = a.nan | b.nan;
	if (b.lo > 0 || b.hi < 0) {
		if (may_inf(b) && may_inf(a))
			nan = 1; /* inf / inf */
		double lo = INFINITY, hi = -INFINITY;
		double x[2] = {a.lo, a.hi}, y[2] = {b.lo, b.hi};
		for (int i = 0; i < 2; i++)
			for (int j = 0; j < 2; j++) {
				if (isinf(x[i]) && isinf(y[j])) { /* the quotient's sign only */
					double s = (x[i] > 0) == (y[j] > 0) ? 1.0 : -1.0;
					lo = fmin(lo, s > 0 ? 0.0 : -INFINITY);
					hi = fmax(hi, s > 0 ? INFINITY : 0.0);
					continue;
				}
				lo = fmin(lo, div_r(x[i], y[j], -1));
				hi = fmax(hi, div_r(x[i], y[j], 1));
			}
		return mk(lo, hi, nan);
	}
	/* The divisor holds 0: 0 / 0 is NaN, and x / +-0 is +-inf with the sign of the zero, which
	 * the bounds do not track (ceil(-0.5) is -0): both infinities, hence everything. */
	if (a.lo <= 0 && a.hi >= 0)
		nan = 1;
	if (b.lo == 0 && b.hi == 0 && a.lo == 0 && a.hi == 0)
		return empty_nan();
	return mk(-INFINITY, INFINITY, nan);
}

/* ---- elementary functions --------------------------------------------------------------- */

/* f(x) rounded outward by SW_IV_ULPS unless x is the point where f is known exactly. */
static double f_dn(double (*f)(double), double x, double x0, double f0)
{
	if (x == x0)
		return f0;
	return dn(f(x), SW_IV_ULPS);
}

static double f_up(double (*f)(double), double x, double x0, double f0)
{
	if (x == x0)
		return f0;
	return up(f(x), SW_IV_ULPS);
}

/* Increasing f with f(x0) = f0 exactly. */
static iv mono_inc(iv a, double (*f)(double), double x0, double f0)
{
	if (is_empty(a))
		return a;
	return mk(f_dn(f, a.lo, x0, f0), f_up(f, a.hi, x0, f0), a.nan);
}

static iv clip(iv a, double lo, double hi)
{
	if (!is_empty(a)) {
		a.lo = fmax(a.lo, lo);
		a.hi = fmin(a.hi, hi);
	}
	return a;
}

/* Whether [lo, hi] may hold a point c + k * period (k an integer), conservatively: yes when
 * unsure (the answer only decides whether an extremum is taken as reached). */
static int holds_point(double lo, double hi, double c, double period)
{
	double a = (lo - c) / period, b = (hi - c) / period;
	double slack = 1e-9 * (1.0 + fabs(a) + fabs(b));
	return floor(b + slack) >= ceil(a - slack);
}

static const double PI_UP = 3.1415926535897936;   /* nextafter(SW_PI, inf) > pi */
static const double HALF_PI_UP = 1.5707963267948968; /* nextafter(SW_PI_2, inf) > pi / 2 */

/* sin (phase 0) or cos (phase 1) over a. */
static iv iv_trig(iv a, int cosine)
{
	if (is_empty(a))
		return a;
	int nan = a.nan | may_inf(a); /* sin(inf) is NaN */
	if (!(a.hi - a.lo < 6.0) || fabs(a.lo) > 1e9 || fabs(a.hi) > 1e9)
		return mk(-1.0, 1.0, nan);
	double (*f)(double) = cosine ? cos : sin;
	double x0 = 0.0, f0 = cosine ? 1.0 : 0.0;
	double lo = fmin(f_dn(f, a.lo, x0, f0), f_dn(f, a.hi, x0, f0));
	double hi = fmax(f_up(f, a.lo, x0, f0), f_up(f, a.hi, x0, f0));
	/* maxima at pi/2 + 2k pi (sin) or 2k pi (cos); minima half a period later */
	double cmax = cosine ? 0.0 : SW_PI_2, cmin = cosine ? SW_PI : -SW_PI_2;
	if (holds_point(a.lo, a.hi, cmax, 2.0 * SW_PI))
		hi = 1.0;
	if (holds_point(a.lo, a.hi, cmin, 2.0 * SW_PI))
		lo = -1.0;
	return mk(fmax(lo, -1.0), fmin(hi, 1.0), nan);
}

static iv iv_tan(iv a)
{
	if (is_empty(a))
		return a;
	int nan = a.nan | may_inf(a);
	if (!(a.hi - a.lo < 3.0) || fabs(a.lo) > 1e9 || fabs(a.hi) > 1e9 ||
	    holds_point(a.lo, a.hi, SW_PI_2, SW_PI))
		return mk(-INFINITY, INFINITY, nan);
	return mk(f_dn(tan, a.lo, 0.0, 0.0), f_up(tan, a.hi, 0.0, 0.0), nan);
}

/* Restricts a to the domain [dlo, dhi], setting the NaN flag when it reached outside. */
static iv domain(iv a, double dlo, double dhi)
{
	if (is_empty(a))
		return a;
	if (a.lo < dlo || a.hi > dhi)
		a.nan = 1;
	if (a.hi < dlo || a.lo > dhi)
		return empty_nan();
	return clip(a, dlo, dhi);
}

static iv iv_asin(iv a)
{
	a = domain(a, -1.0, 1.0);
	if (is_empty(a))
		return a;
	double lo = a.lo == -1.0 ? -HALF_PI_UP : f_dn(asin, a.lo, 0.0, 0.0);
	double hi = a.hi == 1.0 ? HALF_PI_UP : f_up(asin, a.hi, 0.0, 0.0);
	return mk(fmax(lo, -HALF_PI_UP), fmin(hi, HALF_PI_UP), a.nan);
}

static iv iv_acos(iv a)
{
	a = domain(a, -1.0, 1.0);
	if (is_empty(a))
		return a;
	double lo = a.hi == 1.0 ? 0.0 : dn(acos(a.hi), SW_IV_ULPS);
	double hi = a.lo == -1.0 ? PI_UP : up(acos(a.lo), SW_IV_ULPS);
	return mk(fmax(lo, 0.0), fmin(hi, PI_UP), a.nan);
}

static iv iv_atan2(iv y, iv x)
{
	if (is_empty(y) || is_empty(x))
		return empty_nan();
	int nan = y.nan | x.nan;
	iv all = mk(-PI_UP, PI_UP, nan);
	/* touches the origin, or meets the branch cut (the negative x axis, y = +-0) */
	if (y.lo <= 0 && y.hi >= 0 && x.lo <= 0)
		return all;
	/* the box is convex and misses the origin and the cut: the angle is continuous on it and
	 * extremal at a corner (infinite corners are exact limits of atan2) */
	double ys[2] = {y.lo, y.hi}, xs[2] = {x.lo, x.hi};
	double lo = INFINITY, hi = -INFINITY;
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++) {
			double t = atan2(ys[i], xs[j]);
			lo = fmin(lo, dn(t, SW_IV_ULPS));
			hi = fmax(hi, up(t, SW_IV_ULPS));
		}
	return mk(fmax(lo, -PI_UP), fmin(hi, PI_UP), nan);
}

static iv iv_log(iv a)
{
	a = domain(a, 0.0, INFINITY);
	if (is_empty(a))
		return a;
	double lo = a.lo == 0.0 ? -INFINITY : f_dn(log, a.lo, 1.0, 0.0);
	return mk(lo, f_up(log, a.hi, 1.0, 0.0), a.nan);
}

static double sqrt_r(double x, int dir)
{
	double r = sqrt(x);
	if (isinf(r) || r == 0.0 || fma(r, r, -x) == 0.0)
		return r;
	return nextafter(r, dir < 0 ? -INFINITY : INFINITY);
}

static iv iv_sqrt(iv a)
{
	a = domain(a, 0.0, INFINITY);
	if (is_empty(a))
		return a;
	return mk(fmax(0.0, sqrt_r(a.lo, -1)), sqrt_r(a.hi, 1), a.nan);
}

static iv iv_cosh(iv a)
{
	if (is_empty(a))
		return a;
	double m = fmax(fabs(a.lo), fabs(a.hi)), n = a.lo > 0 ? a.lo : a.hi < 0 ? -a.hi : 0.0;
	return mk(fmax(1.0, f_dn(cosh, n, 0.0, 1.0)), f_up(cosh, m, 0.0, 1.0), a.nan);
}

static iv iv_abs(iv a)
{
	if (is_empty(a))
		return a;
	double m = fmax(fabs(a.lo), fabs(a.hi)), n = a.lo > 0 ? a.lo : a.hi < 0 ? -a.hi : 0.0;
	return mk(n, m, a.nan);
}

static iv iv_sign(iv a)
{
	if (is_empty(a))
		return a;
	double lo = a.lo > 0 ? 1.0 : a.lo == 0 ? 0.0 : -1.0;
	double hi = a.hi < 0 ? -1.0 : a.hi == 0 ? 0.0 : 1.0;
	return mk(lo, hi, a.nan);
}

/* Whether the degenerate interval a is an integer. */
static int is_int_point(iv a)
{
	return a.lo == a.hi && isfinite(a.lo) && floor(a.lo) == a.lo;
}

static void span(double *lo, double *hi, double v)
{
	*lo = fmin(*lo, dn(v, SW_IV_ULPS));
	*hi = fmax(*hi, up(v, SW_IV_ULPS));
}

/* x^n for an integer n (pow(x, n) as the interpreter computes it). */
static iv pow_int(iv x, double n)
{
	if (n == 0.0)
		return mk(1.0, 1.0, 0); /* pow(anything, 0) = 1, NaN included */
	int odd = fmod(n, 2.0) != 0.0;
	double lo = INFINITY, hi = -INFINITY;
	int nan = x.nan;
	if (n > 0) {
		if (odd || x.lo >= 0) {
			span(&lo, &hi, pow(x.lo, n));
			span(&lo, &hi, pow(x.hi, n));
		} else if (x.hi <= 0) {
			span(&lo, &hi, pow(x.lo, n));
			span(&lo, &hi, pow(x.hi, n));
		} else { /* even power of an interval holding 0 */
			span(&lo, &hi, pow(x.lo, n));
			span(&lo, &hi, pow(x.hi, n));
			lo = 0.0;
		}
		if (!odd)
			lo = fmax(lo, 0.0);
		return mk(lo, hi, nan);
	}
	/* n < 0: monotone on each side of 0, a pole at 0 (+-inf with the sign of the zero) */
	if (x.lo > 0 || x.hi < 0) {
		span(&lo, &hi, pow(x.lo, n));
		span(&lo, &hi, pow(x.hi, n));
		if (!odd)
			lo = fmax(lo, 0.0);
		return mk(lo, hi, nan);
	}
	if (!odd) {
		double m = fmax(fabs(x.lo), fabs(x.hi));
		return mk(fmax(0.0, dn(pow(m, n), SW_IV_ULPS)), INFINITY, nan);
	}
	return mk(-INFINITY, INFINITY, nan); /* pow(+-0, odd < 0) = +-inf */
}

static iv iv_pow(iv x, iv y)
{
	/* pow(NaN, 0) = 1 and pow(1, NaN) = 1: a NaN operand may still give 1 */
	int one = (x.nan && y.lo <= 0 && y.hi >= 0) || (y.nan && x.lo <= 1 && x.hi >= 1);
	iv r;
	if (y.lo == 0 && y.hi == 0)
		return mk(1.0, 1.0, y.nan); /* pow(x, 0) = 1 for every x, NaN included */
	if (is_empty(x) || is_empty(y)) {
		r = empty_nan();
	} else if (is_int_point(y)) {
		r = pow_int(x, y.lo);
		r.nan |= y.nan;
	} else {
		int nan = x.nan | y.nan;
		iv neg = mk(INFINITY, -INFINITY, 0);
		if (x.lo < 0) {
			/* negative bases are defined only for integer exponents */
			double k0 = ceil(y.lo), k1 = floor(y.hi);
			if (k0 <= k1)
				neg = mk(-INFINITY, INFINITY, 0);
			if (!(k0 == k1 && y.lo == y.hi))
				nan = 1;
			if (x.lo == -INFINITY) /* pow(-inf, y) is +-0 or +-inf for every y */
				neg = mk(-INFINITY, INFINITY, 0);
		}
		if (x.lo <= 0 && x.hi >= 0 && y.lo < 0) /* pow(-0, odd < 0) = -inf */
			neg = mk(-INFINITY, is_empty(neg) ? -INFINITY : neg.hi, 0);
		iv pos = mk(INFINITY, -INFINITY, 0);
		if (x.hi >= 0) {
			/* x^y on [x0, x1] x [y0, y1], x >= 0: monotone in each variable on each
			 * quadrant cut at x = 1 and y = 0, so extremal at the corners of the cuts */
			double xs[3] = {fmax(x.lo, 0.0), x.hi, 1.0}, ys[3] = {y.lo, y.hi, 0.0};
			int nx = (xs[0] < 1.0 && xs[1] > 1.0) ? 3 : 2;
			int ny = (ys[0] < 0.0 && ys[1] > 0.0) ? 3 : 2;
			double lo = INFINITY, hi = -INFINITY;
			for (int i = 0; i < nx; i++)
				for (int j = 0; j < ny; j++) {
					double v = pow(xs[i], ys[j]);
					if (isnan(v)) { /* inf^0 and the like: be wide */
						lo = fmin(lo, 0.0);
						hi = INFINITY;
						continue;
					}
					span(&lo, &hi, v);
				}
			pos = mk(fmax(lo, 0.0), hi, 0);
		}
		r = hull(neg, pos);
		r.nan = nan;
		if (is_empty(r))
			r = empty_nan();
	}
	if (one)
		r = hull(r, mk(1.0, 1.0, r.nan));
	return r;
}

/* ---- booleans ----------------------------------------------------------------------------- */

static iv boolean(int can_false, int can_true, int nan)
{
	return mk(can_false ? 0.0 : 1.0, can_true ? 1.0 : 0.0, nan);
}

/* The truth of a value: nonzero is true (NaN too, as the interpreter's jumps test != 0). */
static int may_zero(iv a)
{
	return !is_empty(a) && a.lo <= 0 && a.hi >= 0;
}

static int may_nonzero(iv a)
{
	return a.nan || (!is_empty(a) && !(a.lo == 0 && a.hi == 0));
}

static iv compare(sw_expr_op op, iv a, iv b)
{
	int nan = a.nan || b.nan; /* every comparison with NaN is false; != is true */
	int can_t = 0, can_f = 0;
	if (!is_empty(a) && !is_empty(b)) {
		switch (op) {
		case SW_EXPR_LT: can_t = a.lo < b.hi; can_f = a.hi >= b.lo; break;
		case SW_EXPR_LE: can_t = a.lo <= b.hi; can_f = a.hi > b.lo; break;
		case SW_EXPR_GT: can_t = a.hi > b.lo; can_f = a.lo <= b.hi; break;
		case SW_EXPR_GE: can_t = a.hi >= b.lo; can_f = a.lo < b.hi; break;
		case SW_EXPR_EQ:
			can_t = a.lo <= b.hi && b.lo <= a.hi;
			can_f = !(a.lo == a.hi && b.lo == b.hi && a.lo == b.lo);
			break;
		default: /* NE */
			can_f = a.lo <= b.hi && b.lo <= a.hi;
			can_t = !(a.lo == a.hi && b.lo == b.hi && a.lo == b.lo);
			break;
		}
	}
	if (nan) {
		if (op == SW_EXPR_NE)
			can_t = 1;
		else
			can_f = 1;
	}
	return boolean(can_f, can_t, 0);
}

/* ---- the walk --------------------------------------------------------------------------- */

typedef struct {
	const double *lo, *hi;
	int bad; /* a slot box was invalid */
} ctx;

static iv eval(ctx *c, const sw_expr_ast *a);

static int same(const sw_expr_ast *x, const sw_expr_ast *y)
{
	return x->height == y->height && x->op == y->op && sw_expr_ast_equal(x, y);
}

static iv eval(ctx *c, const sw_expr_ast *a)
{
	iv x, y, z;
	switch (a->op) {
	case SW_EXPR_NUM:
	case SW_EXPR_BOOLEAN: return mk(a->value, a->value, isnan(a->value));
	case SW_EXPR_VAR: {
		if (!c->lo || !c->hi || a->slot < 0) {
			c->bad = 1;
			return IV_ENTIRE;
		}
		double lo = c->lo[a->slot], hi = c->hi[a->slot];
		if (isnan(lo) || isnan(hi) || lo > hi) {
			c->bad = 1;
			return IV_ENTIRE;
		}
		if (a->type == SW_EXPR_BOOL) /* a boolean slot is true when nonzero */
			return boolean(lo <= 0 && hi >= 0, !(lo == 0 && hi == 0), 0);
		iv v = mk(lo, hi, 0);
		v.fin = 1; /* the box's points are real numbers */
		return v;
	}
	case SW_EXPR_NAME: return mk(-INFINITY, INFINITY, 1);
	case SW_EXPR_HOST:
		return a->type == SW_EXPR_BOOL ? mk(0.0, 1.0, 1) : mk(-INFINITY, INFINITY, 1);
	case SW_EXPR_NEG: return iv_neg(eval(c, a->kid[0]));
	case SW_EXPR_NOT:
		x = eval(c, a->kid[0]); /* NaN == 0 is false: not NaN is 0 */
		return boolean(may_nonzero(x), may_zero(x), 0);
	case SW_EXPR_ADD: return iv_add(eval(c, a->kid[0]), eval(c, a->kid[1]));
	case SW_EXPR_SUB:
		x = eval(c, a->kid[0]);
		if (same(a->kid[0], a->kid[1])) { /* x - x: 0, or NaN for NaN and infinite x */
			int nan = x.nan || may_inf(x);
			return is_empty(x) ? empty_nan() : mk(0.0, 0.0, nan);
		}
		return iv_add(x, iv_neg(eval(c, a->kid[1])));
	case SW_EXPR_MUL:
		x = eval(c, a->kid[0]);
		if (same(a->kid[0], a->kid[1]))
			return iv_sqr(x);
		return iv_mul(x, eval(c, a->kid[1]));
	case SW_EXPR_DIV: return iv_div(eval(c, a->kid[0]), eval(c, a->kid[1]));
	case SW_EXPR_POW: return iv_pow(eval(c, a->kid[0]), eval(c, a->kid[1]));
	case SW_EXPR_LT:
	case SW_EXPR_LE:
	case SW_EXPR_GT:
	case SW_EXPR_GE:
	case SW_EXPR_EQ:
	case SW_EXPR_NE: return compare(a->op, eval(c, a->kid[0]), eval(c, a->kid[1]));
	case SW_EXPR_AND:
		/* a == 0 ? a : b (short circuit; NaN counts as true and yields b) */
		x = eval(c, a->kid[0]);
		y = eval(c, a->kid[1]);
		z = may_nonzero(x) ? y : mk(INFINITY, -INFINITY, 0);
		return may_zero(x) ? hull(mk(0.0, 0.0, 0), z) : z;
	case SW_EXPR_OR:
		/* a != 0 ? a : b: the value of a when nonzero (NaN included) */
		x = eval(c, a->kid[0]);
		y = eval(c, a->kid[1]);
		z = may_zero(x) ? y : mk(INFINITY, -INFINITY, 0);
		return may_nonzero(x) ? hull(z, x) : z;
	case SW_EXPR_IF:
		x = eval(c, a->kid[0]);
		y = may_nonzero(x) ? eval(c, a->kid[1]) : mk(INFINITY, -INFINITY, 0);
		z = may_zero(x) ? eval(c, a->kid[2]) : mk(INFINITY, -INFINITY, 0);
		return hull(y, z);
	case SW_EXPR_SIN: return iv_trig(eval(c, a->kid[0]), 0);
	case SW_EXPR_COS: return iv_trig(eval(c, a->kid[0]), 1);
	case SW_EXPR_TAN: return iv_tan(eval(c, a->kid[0]));
	case SW_EXPR_ASIN: return iv_asin(eval(c, a->kid[0]));
	case SW_EXPR_ACOS: return iv_acos(eval(c, a->kid[0]));
	case SW_EXPR_ATAN:
		return clip(mono_inc(eval(c, a->kid[0]), atan, 0.0, 0.0), -HALF_PI_UP, HALF_PI_UP);
	case SW_EXPR_ATAN2: return iv_atan2(eval(c, a->kid[0]), eval(c, a->kid[1]));
	case SW_EXPR_EXP:
		x = mono_inc(eval(c, a->kid[0]), exp, 0.0, 1.0);
		return clip(x, 0.0, INFINITY);
	case SW_EXPR_LOG: return iv_log(eval(c, a->kid[0]));
	case SW_EXPR_SQRT: return iv_sqrt(eval(c, a->kid[0]));
	case SW_EXPR_TANH: return clip(mono_inc(eval(c, a->kid[0]), tanh, 0.0, 0.0), -1.0, 1.0);
	case SW_EXPR_SINH: return mono_inc(eval(c, a->kid[0]), sinh, 0.0, 0.0);
	case SW_EXPR_COSH: return iv_cosh(eval(c, a->kid[0]));
	case SW_EXPR_ABS: return iv_abs(eval(c, a->kid[0]));
	case SW_EXPR_SIGN: return iv_sign(eval(c, a->kid[0]));
	case SW_EXPR_MIN:
	case SW_EXPR_MAX:
		x = eval(c, a->kid[0]);
		y = eval(c, a->kid[1]);
		if (is_empty(x) || is_empty(y))
			return empty_nan();
		if (a->op == SW_EXPR_MIN)
			return mk(fmin(x.lo, y.lo), fmin(x.hi, y.hi), x.nan | y.nan);
		return mk(fmax(x.lo, y.lo), fmax(x.hi, y.hi), x.nan | y.nan);
	case SW_EXPR_FLOOR:
		x = eval(c, a->kid[0]);
		return is_empty(x) ? x : mk(floor(x.lo), floor(x.hi), x.nan);
	case SW_EXPR_CEIL:
		x = eval(c, a->kid[0]);
		return is_empty(x) ? x : mk(ceil(x.lo), ceil(x.hi), x.nan);
	case SW_EXPR_OP_COUNT: break;
	}
	return mk(-INFINITY, INFINITY, 1);
}

int sw_expr_interval(const sw_expr_ast *a, const double *lo, const double *hi, double *out_lo,
		     double *out_hi)
{
	if (out_lo)
		*out_lo = -INFINITY;
	if (out_hi)
		*out_hi = INFINITY;
	if (!a || !out_lo || !out_hi)
		return SW_EUSAGE;
	ctx c = {lo, hi, 0};
	iv r = eval(&c, a);
	if (c.bad)
		return SW_EUSAGE;
	if (is_empty(r)) {
		*out_lo = INFINITY;
		*out_hi = -INFINITY;
		return SW_ENUMERIC;
	}
	*out_lo = r.lo;
	*out_hi = r.hi;
	return r.nan ? SW_ENUMERIC : SW_SUCCESS;
}
