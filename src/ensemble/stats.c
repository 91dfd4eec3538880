/* ensemble/stats.c - interval estimates of a Bernoulli probability and Wald's SPRT, with GSL's
 * distribution functions, and the sequential scan over results in run-index order.
 *
 * Clopper & Pearson (1934): the exact interval from beta quantiles.  Wilson (1927): the score
 * interval.  Wald (1945): the SPRT with thresholds A = ln((1 - beta) / alpha) and
 * B = ln(beta / (1 - alpha)). */
#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_roots.h>

#include "ensemble/ensemble_internal.h"

static int bad_args(int64_t k, int64_t n, double conf)
{
	return n < 1 || k < 0 || k > n || !(conf > 0.0 && conf < 1.0);
}

/* Brent's solver stops when the bracket is within BETA_EPSREL relative (BETA_EPSABS absolute) of
 * the quantile; it needs about 40 iterations. */
#define BETA_EPSABS 1e-15
#define BETA_EPSREL 1e-13
#define BETA_MAX_ITER 200

typedef struct {
	double a, b, q;
} beta_q;

static double beta_cdf_minus_q(double x, void *ctx)
{
	const beta_q *t = ctx;
	return gsl_cdf_beta_P(x, t->a, t->b) - t->q;
}

/* The q-quantile of Beta(a, b): the root of gsl_cdf_beta_P(x) - q on [0, 1] by GSL's Brent
 * solver.  Not gsl_cdf_beta_Pinv: it fails to converge for common arguments once n is a few
 * hundred (e.g. q = 0.975, a = 6, b = 380), and its failure calls GSL's process-wide error
 * handler, which aborts by default. */
static double beta_quantile(double q, double a, double b)
{
	beta_q t = {a, b, q};
	gsl_function f = {beta_cdf_minus_q, &t};
	gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
	if (!s)
		return NAN;
	double lo = 0.0, hi = 1.0, x = 0.5;
	gsl_root_fsolver_set(s, &f, lo, hi);
	for (int it = 0; it < BETA_MAX_ITER; it++) {
		gsl_root_fsolver_iterate(s);
		x = gsl_root_fsolver_root(s);
		lo = gsl_root_fsolver_x_lower(s);
		hi = gsl_root_fsolver_x_upper(s);
		if (gsl_root_test_interval(lo, hi, BETA_EPSABS, BETA_EPSREL) == GSL_SUCCESS)
			break;
	}
	gsl_root_fsolver_free(s);
	return x;
}

int sw_ens_clopper_pearson(int64_t k, int64_t n, double conf, double *lo, double *hi)
{
	if (bad_args(k, n, conf) || !lo || !hi)
		return SW_EUSAGE;
	double alpha = 1.0 - conf;
	double dk = (double)k, dn = (double)n;
	*lo = k == 0 ? 0.0 : beta_quantile(alpha / 2.0, dk, dn - dk + 1.0);
	*hi = k == n ? 1.0 : beta_quantile(1.0 - alpha / 2.0, dk + 1.0, dn - dk);
	return SW_SUCCESS;
}

int sw_ens_wilson(int64_t k, int64_t n, double conf, double *lo, double *hi)
{
	if (bad_args(k, n, conf) || !lo || !hi)
		return SW_EUSAGE;
	double z = gsl_cdf_ugaussian_Pinv(0.5 + conf / 2.0), dn = (double)n;
	double p = (double)k / dn, z2 = z * z;
	double c = (p + z2 / (2.0 * dn)) / (1.0 + z2 / dn);
	double h = z / (1.0 + z2 / dn) * sqrt(p * (1.0 - p) / dn + z2 / (4.0 * dn * dn));
	*lo = fmax(0.0, c - h);
	*hi = fmin(1.0, c + h);
	return SW_SUCCESS;
}

int sw_ens_sprt_valid(const sw_ens_sprt *t)
{
	return t && t->delta > 0.0 && t->theta - t->delta > 0.0 && t->theta + t->delta < 1.0 &&
	       t->alpha > 0.0 && t->alpha < 0.5 && t->beta > 0.0 && t->beta < 0.5;
}

int sw_ens_sprt_decide(const sw_ens_sprt *t, int64_t k, int64_t n, double *llr)
{
	if (!sw_ens_sprt_valid(t) || k < 0 || k > n) {
		if (llr)
			*llr = NAN;
		return 0;
	}
	double p0 = t->theta - t->delta, p1 = t->theta + t->delta;
	double l = (double)k * log(p1 / p0) + (double)(n - k) * log((1.0 - p1) / (1.0 - p0));
	if (llr)
		*llr = l;
	if (l >= log((1.0 - t->beta) / t->alpha))
		return 1;
	if (l <= log(t->beta / (1.0 - t->alpha)))
		return -1;
	return 0;
}

static void interval(sw_ens_tally *t, const sw_ens_stop *s)
{
	if (s->wilson)
		sw_ens_wilson(t->k, t->n, s->conf, &t->lo, &t->hi);
	else
		sw_ens_clopper_pearson(t->k, t->n, s->conf, &t->lo, &t->hi);
}

void sw_ens_tally_init(sw_ens_tally *t)
{
	*t = (sw_ens_tally){0, 0, 0, 0.0, 1.0, 0, 0.0, 0, NULL};
}

int64_t sw_ens_scan(sw_ens_tally *t, const sw_ens_stop *s, const sw_ens_result *r, int64_t count)
{
	int64_t used = 0;
	while (!t->done && used < count) {
		const sw_ens_result *x = &r[used++];
		int v = x->status == SW_SUCCESS ? x->value == 1 : s->failed_as;
		t->failed += x->status != SW_SUCCESS;
		t->n++;
		t->k += v;
		if (s->width > 0.0) /* else computed once below: each costs two root solves */
			interval(t, s);
		if (s->use_sprt) {
			t->decision = sw_ens_sprt_decide(&s->sprt, t->k, t->n, &t->llr);
			if (t->decision != 0) {
				t->done = 1;
				t->why = "sprt";
			}
		}
		if (!t->done && s->width > 0.0 && t->hi - t->lo <= s->width) {
			t->done = 1;
			t->why = "width";
		}
		if (!t->done && t->n >= s->max_runs) {
			t->done = 1;
			t->why = "max-runs";
		}
	}
	if (used > 0)
		interval(t, s);
	return used;
}
