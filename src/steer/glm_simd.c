/* steer/glm_simd.c - the per-obstacle loop of sw_glm_eval() across 4 or 8 obstacles at a time,
 * for one agent or for a batch of agents.
 *
 * Method.  The loop computes, for every percept, the quantities of the scalar reference
 * (sw__glm_obstacles_scalar() in glm.c, whose header comment derives them from eqs. (3)-(7)) with
 * the same operations in the same order, 4 obstacles per AVX2 register or 8 per AVX-512
 * register (the kernel is written once, glm_simd_kernel.h), with SLEEF's vector
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
 * Every lane evaluates every branch and the results are selected with masks, so that a vector
 * costs one atan2, one asin and three exp.  Vectors go through these stages in chunks (geometry,
 * atan2, asin, the divisions before the exponentials, the exponentials, the rest) so that
 * independent SLEEF calls and divisions follow each other and overlap in the processor.  One agent's ten-odd percepts fill two or three vectors, too few to overlap (and
 * five divisions and two square roots per lane keep the divider busy), so crowds evaluate 16
 * agents at once (sw__glm_obstacles_simd_batch, used by sw_glm_eval_batch): an agent's percepts
 * are cut into blocks of 4 and an AVX-512 vector takes two consecutive blocks, which may belong
 * to two agents (each lane with its agent's heading, radius and parameters).  R D could be one exp of 1 - |e|/dpsi - r/d0,
 * but sum_i D_i (eq. (9)) needs D alone, so that saves nothing.  The exp of W is not skipped in the
 * saturated window (as the scalar loop does) because the lanes rarely all saturate.
 *
 * Obstacles are read from the percept array 4 at a time; an agent's last 1-3 are copied into a
 * stack block padded with a harmless percept whose lanes are masked out of the sums.  Each agent
 * keeps four partial sums of each quantity (lane l adds its percepts l, l + 4, ... in order, at
 * either width), added at the end ((l0 + l1) + (l2 + l3)): both widths and any batch give the
 * same bits (tests/test_steer_simd.c).  Together with the SLEEF
 * functions and the reciprocal of d0 these are the only differences from the scalar reference:
 * results agree to rounding
 * (tests/test_steer_simd.c bounds the difference by 1e-13 of the sum of |terms| weighted by the
 * condition number 1 + |e|/dpsi of exp(1 - |e|/dpsi)).  The closest clearance in front (eq. (12))
 * is a minimum and is exact.
 *
 * Dispatch.  The library is built for the baseline ISA (-O2, no -march); only the functions
 * below carry the avx2,fma or avx512f targets, and the entry points choose the widest one
 * __builtin_cpu_supports() confirms (which also checks that the OS saves the wider registers;
 * under valgrind, which lacks AVX-512, that is AVX2).  SLEEF's ...avx2 and ...avx512f entry
 * points are called directly: its ISA-less dispatchers (Sleef_expd4_u10) add an indirect call.
 * On this project's machine the AVX-512 functions of SLEEF cost half as much per lane as the
 * AVX2 ones.  Built without SW_HAVE_SLEEF, or on other architectures, the entry points return 0
 * and the scalar loop runs. */
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

/* immintrin.h first, under the build's own target, so that each intrinsic keeps the minimal
 * target the header gives it.  sleef.h declares its AVX2 and AVX-512 functions only when __AVX__
 * and __AVX512F__ are defined; GCC's target pragma defines them for that header only.  The
 * functions below carry their own target attributes, so that the AVX2 instance never contains an
 * AVX-512 instruction. */
#include <immintrin.h>
#ifndef __clang__
#pragma GCC push_options
#pragma GCC target("avx2,fma,avx512f")
#endif
#include <sleef.h>
#ifndef __clang__
#pragma GCC pop_options
#endif

/* AVX-512 with GCC (runtime dispatch), or with clang when the build targets it, where the SLEEF
 * library has its AVX-512 functions (the Makefile checks: SW_HAVE_SLEEF_AVX512). */
#if defined(SW_HAVE_SLEEF_AVX512) && (!defined(__clang__) || defined(__AVX512F__))
#define SW_GLM_SIMD512 1
#endif

#define SW_AVX2 __attribute__((target("avx2,fma")))
#define SW_AVX512 __attribute__((target("avx512f,avx2,fma")))

/* Lanes taken stage by stage (glm_simd_kernel.h): 8 vectors of 4 or 4 of 8. */
#define SW_SIMD_CHUNK_LANES 32

/* An agent's running sums, one partial sum per lane of 4 at either width. */
typedef struct glm_vacc {
	__m256d f, df, d, w, r_min;
	int front; /* OR of the in-front lane masks */
} glm_vacc;

/* An agent's constants of eqs. (3)-(7) broadcast to 4 lanes. */
typedef struct glm_aconst {
	__m256d sphi, cphi;          /* heading sine and cosine */
	__m256d rho_a, margin;       /* agent radius and personal-space margin m */
	__m256d delta, cdel, sdel;   /* window margin and its cosine and sine */
	__m256d r_floor, inv_d0;     /* clearance floor, 1 / d0 */
} glm_aconst;

/* Vector width forced by sw__glm_simd_force() (0: the widest the CPU has). */
static int forced_width;

/* --- AVX2: 4 lanes ------------------------------------------------------------------------ */

/* The mask of the lanes whose bits are set (4 bits). */
SW_AVX2 static inline __m256d avx2_valid(unsigned bits)
{
	return _mm256_castsi256_pd(_mm256_set_epi64x(bits & 8 ? -1 : 0, bits & 4 ? -1 : 0,
						     bits & 2 ? -1 : 0, bits & 1 ? -1 : 0));
}

/* The percept that fills the lanes past the end of an agent's percepts. */
static const sw_percept pad_percept = {1.0, 0.0, 1.0, 0.0, 1.0, 0, 0.0, 0.0};

/* v_load_blocks for one block of 4: the fields by lanes (a copy padded when shorter). */
SW_AVX2 static inline void avx2_load_blocks(const sw_percept *const o[1], const int m[1],
					    __m256d f[5])
{
	const sw_percept *q = o[0];
	sw_percept tail[4];
	if (m[0] < 4) {
		for (int j = 0; j < 4; j++)
			tail[j] = j < m[0] ? o[0][j] : pad_percept;
		q = tail;
	}
	f[0] = _mm256_set_pd(q[3].dx, q[2].dx, q[1].dx, q[0].dx);
	f[1] = _mm256_set_pd(q[3].dy, q[2].dy, q[1].dy, q[0].dy);
	f[2] = _mm256_set_pd(q[3].dist, q[2].dist, q[1].dist, q[0].dist);
	f[3] = _mm256_set_pd(q[3].rho, q[2].rho, q[1].rho, q[0].rho);
	f[4] = _mm256_set_pd(q[3].clearance, q[2].clearance, q[1].clearance, q[0].clearance);
}

#define K_NAME(x) x##_avx2
#define K_ATTR SW_AVX2
#define K_W 4
#define VD __m256d
#define VM __m256d
#define v_set(x) _mm256_set1_pd(x)
#define v_zero() _mm256_setzero_pd()
#define v_add _mm256_add_pd
#define v_sub _mm256_sub_pd
#define v_mul _mm256_mul_pd
#define v_div _mm256_div_pd
#define v_sqrt _mm256_sqrt_pd
#define v_max _mm256_max_pd
#define v_min _mm256_min_pd
#define v_abs(x) _mm256_andnot_pd(_mm256_set1_pd(-0.0), (x))
#define v_neg(x) _mm256_xor_pd((x), _mm256_set1_pd(-0.0))
#define v_cmp(a, b, P) _mm256_cmp_pd((a), (b), _CMP_##P)
#define v_sel(m, a, b) _mm256_blendv_pd((b), (a), (m))
#define v_mand _mm256_and_pd
#define v_keep _mm256_and_pd
#define v_bits _mm256_movemask_pd
#define v_exp Sleef_expd4_u10avx2
#define v_atan2 Sleef_atan2d4_u35avx2
#define v_asin Sleef_asind4_u35avx2
#define v_store _mm256_storeu_pd
#define v_join(lo, hi) (lo)
#define v_half(x, h) (x)
#define v_valid avx2_valid
#define v_load_blocks avx2_load_blocks
#include "glm_simd_kernel.h"
#include "glm_simd_undef.h"

/* --- AVX-512: 8 lanes --------------------------------------------------------------------- */

#ifdef SW_GLM_SIMD512
SW_AVX512 static inline __m512d avx512_neg(__m512d x)
{
	return _mm512_castsi512_pd(
		_mm512_xor_si512(_mm512_castpd_si512(x), _mm512_castpd_si512(_mm512_set1_pd(-0.0))));
}

SW_AVX512 static inline __m512d avx512_join(__m256d lo, __m256d hi)
{
	return _mm512_insertf64x4(_mm512_castpd256_pd512(lo), hi, 1);
}

/* v_load_blocks for two blocks of 4: each by lanes, then joined.  (One masked gather per field
 * measured about 1 % slower.) */
SW_AVX512 static inline void avx512_load_blocks(const sw_percept *const o[2], const int m[2],
						__m512d f[5])
{
	__m256d lo[5], hi[5];
	avx2_load_blocks(&o[0], &m[0], lo);
	avx2_load_blocks(&o[1], &m[1], hi);
	for (int k = 0; k < 5; k++)
		f[k] = avx512_join(lo[k], hi[k]);
}

SW_AVX512 static inline __m256d avx512_half(__m512d x, int h)
{
	return h ? _mm512_extractf64x4_pd(x, 1) : _mm512_castpd512_pd256(x);
}

#define K_NAME(x) x##_avx512
#define K_ATTR SW_AVX512
#define K_W 8
#define VD __m512d
#define VM __mmask8
#define v_set(x) _mm512_set1_pd(x)
#define v_zero() _mm512_setzero_pd()
#define v_add _mm512_add_pd
#define v_sub _mm512_sub_pd
#define v_mul _mm512_mul_pd
#define v_div _mm512_div_pd
#define v_sqrt _mm512_sqrt_pd
#define v_max _mm512_max_pd
#define v_min _mm512_min_pd
#define v_abs _mm512_abs_pd
#define v_neg avx512_neg
#define v_cmp(a, b, P) _mm512_cmp_pd_mask((a), (b), _CMP_##P)
#define v_sel(m, a, b) _mm512_mask_blend_pd((m), (b), (a))
#define v_mand(m1, m2) ((__mmask8)((m1) & (m2)))
#define v_keep _mm512_maskz_mov_pd
#define v_bits(m) ((int)(m))
#define v_exp Sleef_expd8_u10avx512f
#define v_atan2 Sleef_atan2d8_u35avx512f
#define v_asin Sleef_asind8_u35avx512f
#define v_store _mm512_storeu_pd
#define v_join avx512_join
#define v_half avx512_half
#define v_valid(bits) ((__mmask8)(bits))
#define v_load_blocks avx512_load_blocks
#include "glm_simd_kernel.h"
#include "glm_simd_undef.h"
#endif

/* --- dispatch ----------------------------------------------------------------------------- */

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

/* Widest vector the CPU runs (8, 4) or 0.  __builtin_cpu_supports also checks that the OS saves
 * the wider registers. */
static int cpu_width(void)
{
#ifdef SW_GLM_SIMD512
	/* (The 8-lane path also runs the AVX2 and FMA helpers.) */
	if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2") &&
	    __builtin_cpu_supports("fma"))
		return 8;
#endif
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
		return 4;
	return 0;
}

int sw__glm_simd_force(int width)
{
	if (width != 0 && width != 4 && width != 8)
		return 0;
	if (width > cpu_width())
		return 0;
	forced_width = width;
	return 1;
}

/* Agents s[0..n) (n <= SW_GLM_BATCH) into out[0..n); each as sw__glm_obstacles_simd_each (only
 * with n = 1). */
SW_AVX2 static void obstacles(int width, int n, const sw_glm_params *const p[],
			      const sw_situation *const s[], const double sphi[],
			      const double cphi[], sw__glm_obs_sums out[], double *each)
{
	glm_vacc acc[SW_GLM_BATCH];
	for (int a = 0; a < n; a++) {
		acc[a].f = acc[a].df = acc[a].d = acc[a].w = _mm256_setzero_pd();
		acc[a].r_min = _mm256_set1_pd(INFINITY);
		acc[a].front = 0;
	}
#ifdef SW_GLM_SIMD512
	if (width == 8)
		obstacles_avx512(n, p, s, sphi, cphi, acc, each);
	else
#endif
		obstacles_avx2(n, p, s, sphi, cphi, acc, each);
	(void)width;
	for (int a = 0; a < n; a++) {
		out[a].f_obs = hsum(acc[a].f);
		out[a].df_obs = hsum(acc[a].df);
		out[a].sum_d = hsum(acc[a].d);
		out[a].sum_w = hsum(acc[a].w);
		out[a].found = acc[a].front != 0;
		out[a].r_min = acc[a].front ? hmin(acc[a].r_min) : INFINITY;
	}
}

int sw__glm_obstacles_simd_batch(int n, const sw_glm_params *const p[],
				 const sw_situation *const s[], const double sphi[],
				 const double cphi[], sw__glm_obs_sums out[])
{
	int width = forced_width ? forced_width : cpu_width();
	if (width == 0)
		return 0;
	for (int k = 0; k < n; k += SW_GLM_BATCH) /* the kernel's arrays hold SW_GLM_BATCH */
		obstacles(width, n - k < SW_GLM_BATCH ? n - k : SW_GLM_BATCH, p + k, s + k, sphi + k,
			  cphi + k, out + k, NULL);
	return 1;
}

int sw__glm_obstacles_simd_each(const sw_glm_params *p, const sw_situation *s, double sphi,
				double cphi, sw__glm_obs_sums *out, double *each)
{
	int width = forced_width ? forced_width : cpu_width();
	if (width == 0)
		return 0;
	obstacles(width, 1, &p, &s, &sphi, &cphi, out, each);
	return 1;
}

int sw__glm_obstacles_simd(const sw_glm_params *p, const sw_situation *s, double sphi,
			   double cphi, sw__glm_obs_sums *out)
{
	return sw__glm_obstacles_simd_each(p, s, sphi, cphi, out, NULL);
}

#else /* !SW_GLM_SIMD */

int sw__glm_simd_force(int width)
{
	return width == 0;
}

int sw__glm_obstacles_simd_batch(int n, const sw_glm_params *const p[],
				 const sw_situation *const s[], const double sphi[],
				 const double cphi[], sw__glm_obs_sums out[])
{
	(void)n;
	(void)p;
	(void)s;
	(void)sphi;
	(void)cphi;
	(void)out;
	return 0;
}

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
