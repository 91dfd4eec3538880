/* tests/test_steer_simd.c - the vectorised GLM obstacle loop (src/steer/glm_simd.c) against the
 * scalar reference (sw__glm_obstacles_scalar), and sw_glm_eval against both.
 *
 * Tolerance.  The two paths perform the same operations in the same order except that the fast
 * one calls SLEEF's u10 atan2, asin and exp (<= 1.0 ULP) instead of libm's and adds its four
 * partial sums at the end.  Every quantity except R reaches those functions with identical
 * arguments, so it differs by a few ULP.  R_i = (e/dpsi) exp(1 - |e|/dpsi) turns an error of
 * e and dpsi into a relative error of about (1 + |e|/dpsi) times it (the condition number of the
 * exp), and a sum of terms of both signs is known only relative to the sum of their magnitudes.
 * The bound checked is therefore
 *
 *     |fast - ref| <= SIMD_REL * sum_i kappa_i |term_i| + SIMD_ABS,   kappa_i = 1 + |e_i|/dpsi_i,
 *
 * with SIMD_REL = 1e-13 (about 450 ULP: covers the 1-ULP errors of atan2, asin and exp on both
 * sides and the summation order for up to 37 terms with a wide margin) and SIMD_ABS = 1e-290
 * (terms in the subnormal range have no relative accuracy).  For f_obs the terms are R W D, for
 * df_obs D (|dR| W + |R dW|) with |dR| bounded by (1/dpsi) exp(1 - |e|/dpsi) (1 + |e|/dpsi)
 * (dR vanishes at the peak |e| = dpsi, so its own size is not a scale); sum_d and sum_w are sums
 * of positive terms (kappa = 1).  The clearance in front (eq. (12)) is a minimum: compared
 * exactly, as is the speed v_cmd.
 *
 * When the library was built without SLEEF or runs on a CPU without AVX2, the fast path reports
 * that it did not run and the comparisons are skipped (the test still passes). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "steer/steer_internal.h"
#include "swerve/core.h"
#include "swerve/steer.h"
#include "tests.h"

#define PI 3.14159265358979323846
#define SIMD_REL 1e-13
#define SIMD_ABS 1e-290
#define N_SITUATIONS 20000
#define MAX_OBS 37

typedef struct {
	sw_glm_params p;
	sw_situation s;
	sw_percept obs[MAX_OBS];
	double phi;
} case_t;

typedef struct {
	double f, df, d, w; /* the weighted sums of magnitudes of the header comment */
} scales;

static gsl_rng *rng_new(unsigned long seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, seed);
	return r;
}

static double unif(gsl_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * gsl_rng_uniform(r);
}

/* Fills a percept at direction ang, centre distance dist, radius rho, agent radius ra. */
static sw_percept percept_at(double ang, double dist, double rho, double ra)
{
	sw_percept o;
	o.dx = dist * cos(ang);
	o.dy = dist * sin(ang);
	o.dist = dist;
	o.rho = rho;
	o.clearance = dist - rho - ra;
	o.id = 0;
	return o;
}

/* One random percept; `kind` picks an edge case now and then. */
static sw_percept random_percept(gsl_rng *r, double phi, double ra, double margin)
{
	double ang = unif(r, -PI, PI), dist = unif(r, 0.2, 12.0), rho = unif(r, 0.0, 0.8);
	unsigned kind = (unsigned)gsl_rng_uniform_int(r, 16);
	switch (kind) {
	case 0: /* contact or overlap: q >= 1, dpsi = pi/2 */
		dist = unif(r, 0.0, 1.0) * (rho + ra + margin);
		break;
	case 1: /* exactly at the contact distance */
		dist = rho + ra + margin;
		if (dist <= 0.0)
			dist = 0.5;
		break;
	case 2: /* behind: e near pi */
		ang = phi + PI + unif(r, -1e-3, 1e-3);
		break;
	case 3: /* straight ahead: e near 0 */
		ang = phi + unif(r, -1e-9, 1e-9);
		break;
	case 4: /* huge distance: D underflows, q at its floor */
		dist = pow(10.0, unif(r, 2.0, 12.0));
		break;
	case 5: /* point obstacle */
		rho = 0.0;
		break;
	case 6: /* obstacle at the agent's centre */
	{
		sw_percept o = {0.0, 0.0, 0.0, rho, -rho - ra, 0, 0.0, 0.0};
		return o;
	}
	case 7: /* beside: e near +-pi/2 (the in-front boundary of eq. (12)) */
		ang = phi + (gsl_rng_uniform(r) < 0.5 ? -1.0 : 1.0) * (PI / 2 + unif(r, -1e-12, 1e-12));
		break;
	default:
		break;
	}
	return percept_at(ang, dist, rho, ra);
}

/* A random situation with n obstacles and random parameters. */
static void random_case(gsl_rng *r, int n, case_t *c)
{
	memset(c, 0, sizeof *c);
	c->p = sw_default_glm_params();
	c->p.delta = unif(r, 0.0, 1.5);
	c->p.d0 = unif(r, 0.05, 3.0);
	if (gsl_rng_uniform(r) < 0.25)
		c->p.margin = 0.0;
	else if (gsl_rng_uniform(r) < 0.5)
		c->p.margin = unif(r, 0.0, 1.0);
	c->p.d1 = unif(r, 0.0, 1.0);
	c->p.r_floor = gsl_rng_uniform(r) < 0.5 ? 1e-3 : unif(r, 1e-6, 0.1);
	c->s.radius = gsl_rng_uniform(r) < 0.1 ? 0.0 : unif(r, 0.1, 0.5);
	c->s.x = unif(r, -5.0, 5.0);
	c->s.y = unif(r, -5.0, 5.0);
	c->s.has_target = gsl_rng_uniform(r) < 0.8;
	c->s.tx = unif(r, -10.0, 10.0);
	c->s.ty = unif(r, -10.0, 10.0);
	c->phi = gsl_rng_uniform(r) < 0.1 ? 0.0 : unif(r, -2.0 * PI, 2.0 * PI);
	double margin = c->p.margin < 0.0 ? c->p.d1 : c->p.margin;
	for (int i = 0; i < n; i++)
		c->obs[i] = random_percept(r, c->phi, c->s.radius, margin);
	c->s.n_obs = n;
	c->s.obs = n > 0 ? c->obs : NULL;
}

/* The weighted magnitudes of the header comment, from libm (literal eqs. (4)-(7)). */
static scales case_scales(const case_t *c)
{
	scales sc = {0.0, 0.0, 0.0, 0.0};
	const sw_glm_params *p = &c->p;
	double margin = p->margin < 0.0 ? p->d1 : p->margin;
	for (int i = 0; i < c->s.n_obs; i++) {
		const sw_percept *o = &c->obs[i];
		double psi = atan2(o->dy, o->dx);
		double e = atan2(sin(c->phi - psi), cos(c->phi - psi));
		double q = (o->rho + c->s.radius + margin) / o->dist;
		q = q < 1.0 ? fmax(q, 1e-6) : 1.0;
		double dpsi = asin(q), inv = 1.0 / dpsi, ae = fabs(e) * inv, ex = exp(1.0 - ae);
		double kappa = 1.0 + ae;
		double cc = fmin(2.0 * dpsi + p->delta, PI), cosc = cos(cc);
		double h1 = 4.0 / (cos(2.0 * dpsi) - cosc), w, dw;
		if (isfinite(h1) && h1 > 0.0) {
			double big = exp(-2.0 * h1 * (cos(e) - cosc));
			w = 1.0 / (1.0 + big);
			dw = 2.0 * h1 * w * (isinf(big) ? 1.0 : big * w) * fabs(sin(e));
		} else {
			w = 1.0;
			dw = 0.0;
		}
		double d = exp(-fmax(o->clearance, p->r_floor) / p->d0);
		sc.f += kappa * fabs(e) * inv * ex * w * d;
		sc.df += kappa * d * (inv * ex * (1.0 + ae) * w + fabs(e) * inv * ex * dw);
		sc.d += d;
		sc.w += w;
	}
	return sc;
}

#define ck_within(fast, ref, scale, what, k)                                                       \
	ck_assert_msg(fabs((fast) - (ref)) <= SIMD_REL * (scale) + SIMD_ABS,                       \
		      "case %d: %s fast %.17g ref %.17g (diff %.3g, scale %.3g)", (k), (what),       \
		      (double)(fast), (double)(ref), fabs((fast) - (ref)), (double)(scale))

/* Compares both paths on one case; returns 0 when the fast path is unavailable. */
static int compare_case(const case_t *c, int k)
{
	double sphi = sin(c->phi), cphi = cos(c->phi);
	sw__glm_obs_sums ref, fast;
	sw__glm_obstacles_scalar(&c->p, &c->s, sphi, cphi, &ref);
	memset(&fast, 0xff, sizeof fast);
	if (!sw__glm_obstacles_simd(&c->p, &c->s, sphi, cphi, &fast))
		return 0;
	scales sc = case_scales(c);
	ck_within(fast.f_obs, ref.f_obs, sc.f, "f_obs", k);
	ck_within(fast.df_obs, ref.df_obs, sc.df, "df_obs", k);
	ck_within(fast.sum_d, ref.sum_d, sc.d, "sum_d", k);
	ck_within(fast.sum_w, ref.sum_w, sc.w, "sum_w", k);
	ck_assert_int_eq(fast.found, ref.found);
	if (ref.found)
		ck_assert_msg(fast.r_min == ref.r_min, "case %d: r_min fast %.17g ref %.17g", k,
			      fast.r_min, ref.r_min);

	/* sw_glm_eval takes the fast path: its sums agree to the same bound, its speed exactly
	 * with the scalar speed law. */
	sw_glm_terms t;
	sw_glm_eval(&c->p, &c->s, c->phi, 0.7, 0.6, &t);
	ck_within(t.f_obs, ref.f_obs, sc.f, "eval f_obs", k);
	ck_within(t.df_obs, ref.df_obs, sc.df, "eval df_obs", k);
	ck_within(t.sum_d, ref.sum_d, sc.d, "eval sum_d", k);
	ck_within(t.sum_w, ref.sum_w, sc.w, "eval sum_w", k);
	ck_assert_msg(t.v_cmd == sw__glm_speed(&c->p, &c->s, c->phi), "case %d: v_cmd", k);
	return 1;
}

START_TEST(test_simd_matches_scalar_random)
{
	gsl_rng *r = rng_new(20240611UL);
	case_t c;
	int ran = 0;
	for (int k = 0; k < N_SITUATIONS; k++) {
		int n = (int)gsl_rng_uniform_int(r, MAX_OBS + 1); /* 0..37 */
		random_case(r, n, &c);
		ran += compare_case(&c, k);
	}
	ck_assert(ran == 0 || ran == N_SITUATIONS);
	gsl_rng_free(r);
}
END_TEST

/* Every block size and tail length 0..37 with the same obstacles: the masked tail adds nothing. */
START_TEST(test_simd_tail_lengths)
{
	gsl_rng *r = rng_new(7UL);
	case_t c;
	random_case(r, MAX_OBS, &c);
	for (int n = 0; n <= MAX_OBS; n++) {
		c.s.n_obs = n;
		c.s.obs = n > 0 ? c.obs : NULL;
		compare_case(&c, n);
	}
	gsl_rng_free(r);
}
END_TEST

/* Hand-made edge cases: exactly behind (e = +pi, not -pi), contact, centre, far away. */
START_TEST(test_simd_edge_cases)
{
	case_t c;
	memset(&c, 0, sizeof c);
	c.p = sw_default_glm_params();
	c.s.radius = 0.25;
	c.phi = 0.0;
	double ra = c.s.radius, m = c.p.d1;
	c.obs[0] = (sw_percept){-3.0, 0.0, 3.0, 0.3, 3.0 - 0.55, 0, 0.0, 0.0}; /* behind, dy = 0: e = pi */
	c.obs[1] = percept_at(0.0, 0.3 + ra + m, 0.3, ra);          /* contact: dpsi = pi/2 */
	c.obs[2] = percept_at(PI, 0.3 + ra + m, 0.3, ra);           /* contact, behind */
	c.obs[3] = (sw_percept){0.0, 0.0, 0.0, 0.3, -0.55, 0, 0.0, 0.0};      /* at the centre */
	c.obs[4] = percept_at(0.0, 2.0, 0.3, ra);                   /* e = 0 exactly */
	c.obs[5] = percept_at(1e-300, 2.0, 0.3, ra);                /* e tiny */
	c.obs[6] = percept_at(0.7, 1e15, 0.3, ra);                  /* huge distance */
	c.obs[7] = percept_at(-0.7, 1e300, 0.0, ra);                /* q below its floor */
	c.obs[8] = percept_at(PI / 2, 1.5, 0.2, ra);                /* beside */
	for (int n = 1; n <= 9; n++) {
		c.s.n_obs = n;
		c.s.obs = c.obs;
		compare_case(&c, 100 + n);
	}
	/* Each alone, so no other term hides an error in the scale. */
	for (int i = 0; i < 9; i++) {
		case_t one = c;
		one.obs[0] = c.obs[i];
		one.s.n_obs = 1;
		one.s.obs = one.obs;
		compare_case(&one, 200 + i);
	}
	/* Zero margin and radius: point agent, point obstacle, q at its floor. */
	c.p.margin = 0.0;
	c.s.radius = 0.0;
	c.obs[0] = percept_at(0.1, 2.0, 0.0, 0.0);
	c.s.n_obs = 1;
	compare_case(&c, 300);
}
END_TEST

/* Both vector widths give the same bits (AVX-512 keeps the partial sums of AVX2's 4 lanes, and
 * SLEEF's functions of both widths round alike): sums and per-percept terms on random cases.
 * Skipped where the CPU lacks AVX-512. */
START_TEST(test_simd_widths_agree_bit_for_bit)
{
	if (!sw__glm_simd_force(8) || !sw__glm_simd_force(4))
		return;
	gsl_rng *r = rng_new(99UL);
	case_t c;
	for (int k = 0; k < N_SITUATIONS; k++) {
		int n = (int)gsl_rng_uniform_int(r, MAX_OBS + 1);
		random_case(r, n, &c);
		double sphi = sin(c.phi), cphi = cos(c.phi);
		sw__glm_obs_sums a, b;
		double ea[MAX_OBS], eb[MAX_OBS];
		memset(&a, 0, sizeof a);
		memset(&b, 0, sizeof b);
		ck_assert(sw__glm_simd_force(4));
		ck_assert(sw__glm_obstacles_simd_each(&c.p, &c.s, sphi, cphi, &a, ea));
		ck_assert(sw__glm_simd_force(8));
		ck_assert(sw__glm_obstacles_simd_each(&c.p, &c.s, sphi, cphi, &b, eb));
		ck_assert_msg(memcmp(&a, &b, sizeof a) == 0, "case %d (%d percepts): sums differ", k,
			      n);
		ck_assert_msg(memcmp(ea, eb, (size_t)n * sizeof *ea) == 0,
			      "case %d (%d percepts): terms differ", k, n);
	}
	sw__glm_simd_force(0);
	gsl_rng_free(r);
}
END_TEST

/* sw_glm_eval_batch gives each agent the bits of its own sw_glm_eval_cs, and the vectorised
 * loop's batch those of its single calls, at both widths, for batches of 0 to 40 agents (longer
 * than one kernel batch) with their own parameters, headings and 0 to 37 percepts (agents below
 * the vectorised loop's minimum and empty ones mixed in). */
START_TEST(test_batch_matches_single_evaluations)
{
	enum { MAXB = 40 };
	static case_t c[MAXB];
	gsl_rng *r = rng_new(4242UL);
	for (int width = 4; width <= 8; width += 4) {
		if (!sw__glm_simd_force(width))
			continue;
		for (int rep = 0; rep < 300; rep++) {
			int n = (int)gsl_rng_uniform_int(r, MAXB + 1);
			const sw_glm_params *p[MAXB];
			const sw_situation *sp[MAXB];
			double cphi[MAXB], sphi[MAXB];
			sw_glm_terms got[MAXB];
			for (int k = 0; k < n; k++) {
				int m = (int)gsl_rng_uniform_int(r, 8) == 0
						? (int)gsl_rng_uniform_int(r, 3)
						: (int)gsl_rng_uniform_int(r, MAX_OBS + 1);
				random_case(r, m, &c[k]);
				c[k].s.obs = m > 0 ? c[k].obs : NULL;
				p[k] = &c[k].p;
				sp[k] = &c[k].s;
				double cs[2];
				sw_steer_velocity(1.0, c[k].phi, cs);
				cphi[k] = cs[0];
				sphi[k] = cs[1];
			}
			memset(got, 0xa5, sizeof got);
			sw_glm_eval_batch(n, p, sp, cphi, sphi, 0.7, -0.4, got);
			for (int k = 0; k < n; k++) {
				sw_glm_terms want;
				sw_glm_eval_cs(p[k], sp[k], cphi[k], sphi[k], 0.7, -0.4, &want);
				ck_assert_msg(memcmp(&want, &got[k], sizeof want) == 0,
					      "width %d batch %d agent %d (%d percepts) differs", width,
					      n, k, c[k].s.n_obs);
			}
			/* The vectorised loop itself, every agent through it (0 to 2 percepts
			 * too, which sw_glm_eval_batch leaves to the scalar loop). */
			sw__glm_obs_sums vo[MAXB];
			memset(vo, 0xa5, sizeof vo);
			ck_assert(sw__glm_obstacles_simd_batch(n, p, sp, sphi, cphi, vo));
			for (int k = 0; k < n; k++) {
				sw__glm_obs_sums one;
				memset(&one, 0x5a, sizeof one);
				ck_assert(sw__glm_obstacles_simd(p[k], sp[k], sphi[k], cphi[k], &one));
				const sw__glm_obs_sums *b = &vo[k];
				ck_assert_msg(one.f_obs == b->f_obs && one.df_obs == b->df_obs &&
						      one.sum_d == b->sum_d && one.sum_w == b->sum_w &&
						      one.found == b->found &&
						      (one.r_min == b->r_min || !one.found),
					      "width %d batch %d agent %d (%d percepts): loop differs",
					      width, n, k, c[k].s.n_obs);
			}
		}
	}
	sw__glm_simd_force(0);
	gsl_rng_free(r);
}
END_TEST

Suite *steer_simd_suite(void)
{
	Suite *s = suite_create("steer_simd");
	TCase *tc = tcase_create("fast_vs_scalar");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_simd_matches_scalar_random);
	tcase_add_test(tc, test_simd_tail_lengths);
	tcase_add_test(tc, test_simd_edge_cases);
	tcase_add_test(tc, test_simd_widths_agree_bit_for_bit);
	tcase_add_test(tc, test_batch_matches_single_evaluations);
	suite_add_tcase(s, tc);
	return s;
}
