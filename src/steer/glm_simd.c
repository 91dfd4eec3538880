/* steer/glm_simd.c - the per-obstacle loop of sw_glm_eval() across 4 obstacles at a time.
 *
 * Method.  The loop computes, for every percept, the quantities of the scalar reference
 * (sw__glm_obstacles_scalar() in glm.c, whose header comment derives them from eqs. (3)-(7)) with
 * the same operations in the same order, 4 obstacles per AVX2 register, with SLEEF's vector
 * functions in place of libm's: exp with error bound 1.0 ULP (u10), atan2 and asin with 3.5 ULP
 * (u35: about half the cost of u10; the results still agree with the reference to the bound
 * below):
 *
 *   - cos e, sin e from the dot and cross products with the unit vector to the obstacle;
 *     e = atan2(sin e + 0, cos e) in (-pi, pi]                     (one atan2, replaces wrap)
 *   - q = sin dpsi = (rho_i + rho_a + m) / dist_i clamped to [q_min, 1]; dpsi = asin q;
 *     cos(2 dpsi) = 1 - 2 q^2, cos c = cos(2 dpsi) cos delta - 2 q sqrt(1 - q^2) sin delta when
 *     2 dpsi + delta < pi, else -1                                       (one asin, eqs. (5)-(6))
 *   - D = exp(-r (1 / d0)), 1 / d0 once per evaluation                         (one exp, eq. (7))
 *   - R = (e / dpsi) exp(1 - |e| / dpsi), dR/de = (1 / dpsi) exp(1 - |e| / dpsi)(1 - |e| / dpsi)
 *                                                                              (one exp, eq. (4))
 *   - W = 1 / (1 + exp(-2 x)), x = h1 (cos e - cos c), h1 = 4 / (cos(2 dpsi) - cos c);
 *     dW/de = -2 h1 W (1 - W) sin e with 1 - W = exp(-2 x) W; W = 1, dW = 0 for x > 19; the step
 *     (1, 1/2, 0) with dW = 0 where h1 is not a positive finite number   (one exp, eqs. (5)-(6))
 *   - f_i = R W D and d f_i / d phi = D (dR W + R dW), eq. (3).
 *
 * Every lane evaluates every branch and the results are selected with masks, so that a block
 * costs one atan2, one asin and three exp of 4 lanes.  Blocks go through these stages in chunks
 * (geometry, atan2, asin, the rest) so that independent SLEEF calls follow each other and overlap
 * in the processor.  R D could be one exp of 1 - |e|/dpsi - r/d0,
 * but sum_i D_i (eq. (9)) needs D alone, so that saves nothing.  The exp of W is not skipped in the
 * saturated window (as the scalar loop does) because the lanes rarely all saturate.
 *
 * Obstacles are read from the percept array 4 at a time; the last 1-3 are copied into a stack
 * block padded with a harmless percept whose lanes are masked out of the sums.  The four partial
 * sums of each quantity are added at the end ((l0 + l1) + (l2 + l3)); together with the SLEEF
 * functions and the reciprocal of d0 these are the only differences from the scalar reference:
 * results agree to rounding
 * (tests/test_steer_simd.c bounds the difference by 1e-13 of the sum of |terms| weighted by the
 * condition number 1 + |e|/dpsi of exp(1 - |e|/dpsi)).  The closest clearance in front (eq. (12))
 * is a minimum and is exact.
 *
 * Dispatch.  The library is built for the baseline ISA (-O2, no -march); only the functions
 * below carry the avx2,fma target, and sw__glm_obstacles_simd() enters them after
 * __builtin_cpu_supports() has confirmed AVX2 and FMA (which also checks that the OS saves the
 * YMM registers).  SLEEF's ...avx2 entry points are called directly: its ISA-less dispatchers
 * (Sleef_expd4_u10) also require AVX and add an indirect call.  Built without SW_HAVE_SLEEF, or on
 * other architectures, sw__glm_obstacles_simd() returns 0 and the scalar loop runs. */
#include "steer_internal.h"

/* The scalar and vector loops must round alike, so no a * b + c may be contracted into an FMA:
 * GCC's ISO C modes (-std=c11) default to -ffp-contract=off; clang needs the standard pragma. */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

/* GCC: runtime dispatch from a baseline build.  Clang passes __m256d arguments of external
 * functions on the stack unless the whole translation unit targets AVX (its ABI ignores a
 * declaration's target attribute), so with clang the fast path needs -mavx2 -mfma (or
 * -march=native) and is otherwise left out. */
#if defined(SW_HAVE_SLEEF) && defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && \
	(!defined(__clang__) || (defined(__AVX2__) && defined(__FMA__)))
#define SW_GLM_SIMD 1
#endif

#ifdef SW_GLM_SIMD

#include <math.h>

/* sleef.h declares its AVX2 functions only when __AVX__ is defined; GCC's target pragma defines
 * it for the headers (and for the kernels below) without changing the rest of the build. */
#ifndef __clang__
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif
#include <immintrin.h>
#include <sleef.h>

#define SW_AVX2 __attribute__((target("avx2,fma")))


/* Smallest sin(dpsi) and window saturation, as SW_GLM_Q_MIN and SW_GLM_W_SAT in glm.c. */
#define SW_SIMD_Q_MIN 1e-6
#define SW_SIMD_W_SAT 19.0

/* Blocks of 4 percepts processed stage by stage (obstacles_avx2). */
#define SW_SIMD_CHUNK 8

/* Per-evaluation constants broadcast to 4 lanes. */
typedef struct glm_vconst {
	__m256d sphi, cphi; /* heading sine and cosine */
	__m256d rho_a, margin; /* agent radius and personal-space margin m */
	__m256d delta, cdel, sdel; /* window margin and its cosine and sine */
	__m256d r_floor, inv_d0; /* clearance floor, 1 / d0 */
} glm_vconst;

/* Four percepts' fields, one lane each. */
typedef struct glm_block {
	__m256d dx, dy, dist, rho, clear;
} glm_block;

/* Running sums (one partial sum per lane). */
typedef struct glm_vacc {
	__m256d f, df, d, w, r_min;
	int front; /* OR of the in-front lane masks */
} glm_vacc;

SW_AVX2 static inline __m256d v_set(double x)
{
	return _mm256_set1_pd(x);
}

SW_AVX2 static inline __m256d v_abs(__m256d x)
{
	return _mm256_andnot_pd(_mm256_set1_pd(-0.0), x);
}

/* a where mask is set, else b. */
SW_AVX2 static inline __m256d v_sel(__m256d mask, __m256d a, __m256d b)
{
	return _mm256_blendv_pd(b, a, mask);
}

SW_AVX2 static inline glm_block load_block(const sw_percept *o)
{
	glm_block b;
	b.dx = _mm256_set_pd(o[3].dx, o[2].dx, o[1].dx, o[0].dx);
	b.dy = _mm256_set_pd(o[3].dy, o[2].dy, o[1].dy, o[0].dy);
	b.dist = _mm256_set_pd(o[3].dist, o[2].dist, o[1].dist, o[0].dist);
	b.rho = _mm256_set_pd(o[3].rho, o[2].rho, o[1].rho, o[0].rho);
	b.clear = _mm256_set_pd(o[3].clearance, o[2].clearance, o[1].clearance, o[0].clearance);
	return b;
}

/* A block between the stages: its percepts and what stage 1 computed. */
typedef struct glm_stage {
	glm_block b;
	__m256d valid;
	__m256d ce, se, q; /* cos e, sin e, sin dpsi clamped */
	__m256d e, dpsi;   /* atan2 and asin results */
} glm_stage;

/* Stage 1 of eqs. (3)-(7) for the 4 lanes of st->b: relative direction and q. */
SW_AVX2 static inline void stage_geometry(const glm_vconst *k, glm_stage *st)
{
	const glm_block *b = &st->b;
	const __m256d zero = _mm256_setzero_pd(), one = v_set(1.0);

	/* Relative direction: cos e and sin e (the heading (cphi, sphi) itself for a zero vector). */
	__m256d len = _mm256_sqrt_pd(_mm256_add_pd(_mm256_mul_pd(b->dx, b->dx),
						   _mm256_mul_pd(b->dy, b->dy)));
	__m256d inv_len = _mm256_div_pd(one, len);
	__m256d ce = _mm256_mul_pd(
		_mm256_add_pd(_mm256_mul_pd(k->cphi, b->dx), _mm256_mul_pd(k->sphi, b->dy)), inv_len);
	__m256d se = _mm256_mul_pd(
		_mm256_sub_pd(_mm256_mul_pd(k->sphi, b->dx), _mm256_mul_pd(k->cphi, b->dy)), inv_len);
	__m256d nonzero = _mm256_cmp_pd(len, zero, _CMP_GT_OQ);
	st->ce = v_sel(nonzero, ce, k->cphi);
	st->se = v_sel(nonzero, se, k->sphi);

	/* q = sin dpsi clamped to [q_min, 1] (NaN and dist = 0 give 1).  (Not times inv_len: a
	 * percept's dist may differ from |(dx, dy)| in the last bits, which asin amplifies near
	 * q = 1.) */
	__m256d q = _mm256_div_pd(_mm256_add_pd(_mm256_add_pd(b->rho, k->rho_a), k->margin),
				  b->dist);
	q = v_sel(_mm256_cmp_pd(q, one, _CMP_LT_OQ), q, one);
	st->q = _mm256_max_pd(q, v_set(SW_SIMD_Q_MIN));
}

/* Stage 2: e = wrap(phi - psi_i) in (-pi, pi] (+ 0 turns a -0 sine into +0: e = pi behind). */
SW_AVX2 static inline void stage_atan2(glm_stage *st)
{
	st->e = Sleef_atan2d4_u35avx2(_mm256_add_pd(st->se, _mm256_setzero_pd()), st->ce);
}

/* Stage 3: dpsi = asin q. */
SW_AVX2 static inline void stage_asin(glm_stage *st)
{
	st->dpsi = Sleef_asind4_u35avx2(st->q);
}

/* Stage 4: the rest of eqs. (3)-(7) and (12) into the partial sums; lanes outside st->valid add
 * nothing.  With each not NULL, the 4 lanes' f_i are stored there too. */
SW_AVX2 static inline void stage_finish(const glm_vconst *k, const glm_stage *st, glm_vacc *acc,
					double *each)
{
	const glm_block *b = &st->b;
	const __m256d zero = _mm256_setzero_pd(), one = v_set(1.0), two = v_set(2.0);
	const __m256d valid = st->valid, ce = st->ce, se = st->se, q = st->q, e = st->e,
		      dpsi = st->dpsi;

	/* cos 2 dpsi and cos c. */
	__m256d cos2 = _mm256_sub_pd(one, _mm256_mul_pd(_mm256_mul_pd(two, q), q));
	__m256d sin2_sdel = _mm256_mul_pd(
		_mm256_mul_pd(_mm256_mul_pd(two, q),
			      _mm256_sqrt_pd(_mm256_sub_pd(one, _mm256_mul_pd(q, q)))),
		k->sdel);
	__m256d c_lt_pi = _mm256_cmp_pd(_mm256_add_pd(_mm256_mul_pd(two, dpsi), k->delta),
					v_set(SW_PI), _CMP_LT_OQ);
	__m256d cosc = v_sel(c_lt_pi, _mm256_sub_pd(_mm256_mul_pd(cos2, k->cdel), sin2_sdel),
			     v_set(-1.0));

	/* Eq. (7) with the clearance floored (max_pd returns the floor for a NaN clearance, as
	 * fmax does). */
	__m256d r = _mm256_max_pd(b->clear, k->r_floor);
	__m256d dval = Sleef_expd4_u10avx2(
		_mm256_mul_pd(_mm256_xor_pd(r, _mm256_set1_pd(-0.0)), k->inv_d0));

	/* Eq. (4) and its derivative in e. */
	__m256d inv = _mm256_div_pd(one, dpsi);
	__m256d ae = _mm256_mul_pd(v_abs(e), inv);
	__m256d ex = Sleef_expd4_u10avx2(_mm256_sub_pd(one, ae));
	__m256d rv = _mm256_mul_pd(_mm256_mul_pd(e, inv), ex);
	__m256d dr = _mm256_mul_pd(_mm256_mul_pd(inv, ex), _mm256_sub_pd(one, ae));

	/* Eqs. (5)-(6): the logistic window where 0 < h1 < inf, else the step. */
	__m256d h1 = _mm256_div_pd(v_set(4.0), _mm256_sub_pd(cos2, cosc));
	__m256d smooth = _mm256_and_pd(_mm256_cmp_pd(h1, zero, _CMP_GT_OQ),
				       _mm256_cmp_pd(h1, v_set(INFINITY), _CMP_LT_OQ));
	__m256d x = _mm256_mul_pd(h1, _mm256_sub_pd(ce, cosc));
	__m256d big = Sleef_expd4_u10avx2(_mm256_mul_pd(v_set(-2.0), x));
	__m256d wl = _mm256_div_pd(one, _mm256_add_pd(one, big));
	__m256d one_minus_w = v_sel(_mm256_cmp_pd(big, v_set(INFINITY), _CMP_EQ_OQ), one,
				    _mm256_mul_pd(big, wl));
	__m256d dwl = _mm256_mul_pd(
		_mm256_mul_pd(_mm256_mul_pd(_mm256_mul_pd(v_set(-2.0), h1), wl), one_minus_w), se);
	__m256d sat = _mm256_cmp_pd(x, v_set(SW_SIMD_W_SAT), _CMP_GT_OQ);
	wl = v_sel(sat, one, wl);
	dwl = v_sel(sat, zero, dwl);
	__m256d ws = v_sel(_mm256_cmp_pd(ce, cosc, _CMP_GT_OQ), one,
			   v_sel(_mm256_cmp_pd(ce, cosc, _CMP_EQ_OQ), v_set(0.5), zero));
	__m256d w = v_sel(smooth, wl, ws);
	__m256d dw = _mm256_and_pd(smooth, dwl);

	/* Eq. (3) and its derivative, masked to the valid lanes, into the partial sums. */
	__m256d f = _mm256_mul_pd(_mm256_mul_pd(rv, w), dval);
	if (each)
		_mm256_storeu_pd(each, f);
	__m256d df = _mm256_mul_pd(dval, _mm256_add_pd(_mm256_mul_pd(dr, w), _mm256_mul_pd(rv, dw)));
	acc->f = _mm256_add_pd(acc->f, _mm256_and_pd(valid, f));
	acc->df = _mm256_add_pd(acc->df, _mm256_and_pd(valid, df));
	acc->d = _mm256_add_pd(acc->d, _mm256_and_pd(valid, dval));
	acc->w = _mm256_add_pd(acc->w, _mm256_and_pd(valid, w));

	/* Eq. (12): the smallest clearance among obstacles in front (|e_i| < pi/2, cos e > 0). */
	__m256d front = _mm256_and_pd(valid, _mm256_cmp_pd(ce, zero, _CMP_GT_OQ));
	acc->r_min = _mm256_min_pd(acc->r_min, v_sel(front, b->clear, v_set(INFINITY)));
	acc->front |= _mm256_movemask_pd(front);
}

/* (l0 + l1) + (l2 + l3). */
SW_AVX2 static inline double hsum(__m256d v)
{
	__m128d lo = _mm256_castpd256_pd128(v), hi = _mm256_extractf128_pd(v, 1);
	__m128d s = _mm_add_pd(_mm_unpacklo_pd(lo, hi), _mm_unpackhi_pd(lo, hi));
	return _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)));
}

SW_AVX2 static inline double hmin(__m256d v)
{
	__m128d lo = _mm256_castpd256_pd128(v), hi = _mm256_extractf128_pd(v, 1);
	__m128d m = _mm_min_pd(lo, hi);
	return _mm_cvtsd_f64(_mm_min_sd(m, _mm_unpackhi_pd(m, m)));
}

SW_AVX2 __attribute__((noinline)) static void obstacles_avx2(const sw_glm_params *p,
							     const sw_situation *s, double sphi,
							     double cphi, sw__glm_obs_sums *out,
							     double *each)
{
	glm_vconst k;
	k.sphi = v_set(sphi);
	k.cphi = v_set(cphi);
	k.rho_a = v_set(s->radius);
	k.margin = v_set(p->margin < 0.0 ? p->d1 : p->margin);
	k.delta = v_set(p->delta);
	double dcs[2];
	sw__glm_delta_cs(p->delta, dcs);
	k.cdel = v_set(dcs[0]);
	k.sdel = v_set(dcs[1]);
	k.r_floor = v_set(p->r_floor);
	k.inv_d0 = v_set(1.0 / p->d0);

	glm_vacc acc;
	acc.f = acc.df = acc.d = acc.w = _mm256_setzero_pd();
	acc.r_min = v_set(INFINITY);
	acc.front = 0;

	/* Chunks of up to SW_SIMD_CHUNK blocks, stage by stage: the SLEEF calls of one stage are
	 * independent of each other, so the processor overlaps them (one block's chain of calls
	 * is longer than its reorder window).  The operations of each lane are those of the
	 * block-at-a-time order, and the blocks are summed in the same order. */
	const __m256d all = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
	glm_stage st[SW_SIMD_CHUNK];
	int n = s->n_obs;
	for (int i0 = 0; i0 < n; i0 += 4 * SW_SIMD_CHUNK) {
		int nbk = 0;
		for (int i = i0; i < n && nbk < SW_SIMD_CHUNK; i += 4, nbk++) {
			if (i + 4 <= n) {
				st[nbk].b = load_block(&s->obs[i]);
				st[nbk].valid = all;
				continue;
			}
			/* The last 1-3 percepts, padded with a point 1 m ahead along +x. */
			sw_percept tail[4];
			for (int j = 0; j < 4; j++) {
				if (i + j < n)
					tail[j] = s->obs[i + j];
				else
					tail[j] = (sw_percept){1.0, 0.0, 1.0, 0.0, 1.0, 0, 0.0, 0.0};
			}
			int m = n - i;
			st[nbk].valid = _mm256_castsi256_pd(
				_mm256_set_epi64x(m > 3 ? -1 : 0, m > 2 ? -1 : 0, m > 1 ? -1 : 0, -1));
			st[nbk].b = load_block(tail);
		}
		for (int b = 0; b < nbk; b++)
			stage_geometry(&k, &st[b]);
		for (int b = 0; b < nbk; b++)
			stage_atan2(&st[b]);
		for (int b = 0; b < nbk; b++)
			stage_asin(&st[b]);
		for (int b = 0; b < nbk; b++) {
			double lanes[4], *dst = each ? lanes : NULL;
			stage_finish(&k, &st[b], &acc, dst);
			for (int j = 0; each && j < 4 && i0 + 4 * b + j < n; j++)
				each[i0 + 4 * b + j] = lanes[j];
		}
	}

	out->f_obs = hsum(acc.f);
	out->df_obs = hsum(acc.df);
	out->sum_d = hsum(acc.d);
	out->sum_w = hsum(acc.w);
	out->found = acc.front != 0;
	out->r_min = acc.front ? hmin(acc.r_min) : INFINITY;
}

#ifndef __clang__
#pragma GCC pop_options
#endif

int sw__glm_obstacles_simd_each(const sw_glm_params *p, const sw_situation *s, double sphi,
				double cphi, sw__glm_obs_sums *out, double *each)
{
	if (!(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")))
		return 0;
	if (s->n_obs <= 0) {
		*out = (sw__glm_obs_sums){0.0, 0.0, 0.0, 0.0, INFINITY, 0};
		return 1;
	}
	obstacles_avx2(p, s, sphi, cphi, out, each);
	return 1;
}

int sw__glm_obstacles_simd(const sw_glm_params *p, const sw_situation *s, double sphi,
			   double cphi, sw__glm_obs_sums *out)
{
	return sw__glm_obstacles_simd_each(p, s, sphi, cphi, out, NULL);
}

#else /* !SW_GLM_SIMD */

int sw__glm_obstacles_simd_each(const sw_glm_params *p, const sw_situation *s, double sphi,
				double cphi, sw__glm_obs_sums *out, double *each)
{
	(void)p;
	(void)s;
	(void)sphi;
	(void)cphi;
	(void)out;
	(void)each;
	return 0;
}

int sw__glm_obstacles_simd(const sw_glm_params *p, const sw_situation *s, double sphi,
			   double cphi, sw__glm_obs_sums *out)
{
	return sw__glm_obstacles_simd_each(p, s, sphi, cphi, out, NULL);
}

#endif
