/* tests/test_core.c - diagnostics, status names, RNG streams, angle wrapping. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "core/core_internal.h"
#include "swerve/core.h"
#include "tests.h"

START_TEST(wrap_angle_matches_atan2_form_and_range)
{
	/* Independent form: atan2(sin a, cos a) lies in (-pi, pi]. */
	for (int k = -2000; k <= 2000; k++) {
		double a = k * 0.0123456789 * 7.3;
		double w = sw_wrap_angle(a);
		ck_assert(w > -M_PI && w <= M_PI);
		ck_assert_double_eq_tol(w, atan2(sin(a), cos(a)), 1e-9);
	}
	ck_assert_double_eq(sw_wrap_angle(M_PI), M_PI);
	ck_assert_double_eq(sw_wrap_angle(-M_PI), M_PI);
	ck_assert_double_eq(sw_wrap_angle(3 * M_PI), M_PI);
}
END_TEST

START_TEST(rng_streams_reproducible_and_distinct)
{
	gsl_rng *a = sw_rng_stream_alloc(42, 0), *b = sw_rng_stream_alloc(42, 0);
	gsl_rng *c = sw_rng_stream_alloc(42, 1), *d = sw_rng_stream_alloc(43, 0);
	int same_ab = 1, same_ac = 1, same_ad = 1;
	for (int i = 0; i < 100; i++) {
		unsigned long x = gsl_rng_get(a), y = gsl_rng_get(b);
		unsigned long z = gsl_rng_get(c), v = gsl_rng_get(d);
		same_ab &= x == y;
		same_ac &= x == z;
		same_ad &= x == v;
	}
	ck_assert_int_eq(same_ab, 1);
	ck_assert_int_eq(same_ac, 0);
	ck_assert_int_eq(same_ad, 0);
	gsl_rng_free(a);
	gsl_rng_free(b);
	gsl_rng_free(c);
	gsl_rng_free(d);
}
END_TEST

START_TEST(mix64_is_injective_on_a_sample)
{
	/* A bijection cannot map distinct inputs to equal outputs. */
	uint64_t seen[512];
	for (int i = 0; i < 512; i++) {
		seen[i] = sw_mix64((uint64_t)i * 0x100000001ULL);
		for (int j = 0; j < i; j++)
			ck_assert(seen[i] != seen[j]);
	}
}
END_TEST

START_TEST(diag_formats_location_and_counts_errors)
{
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_diag_has_error(&d), 0);
	ck_assert_int_eq(sw_diag_add(&d, SW_SEV_WARNING, "a.xml", 3, 0, "careful %d", 1),
			 SW_SUCCESS);
	ck_assert_int_eq(sw_diag_add(&d, SW_SEV_ERROR, "a.xml", 12, 7, "bad %s", "thing"),
			 SW_EINPUT);
	ck_assert_int_eq(sw_diag_has_error(&d), 1);
	char buf[1024];
	sw_diag_format(&d, 0, buf, sizeof buf);
	ck_assert_str_eq(buf, "a.xml:3: warning: careful 1");
	sw_diag_format(&d, 1, buf, sizeof buf);
	ck_assert_str_eq(buf, "a.xml:12:7: error: bad thing");
	for (int i = 0; i < SW_DIAG_MAX + 5; i++)
		sw_diag_add(&d, SW_SEV_ERROR, NULL, 0, 0, "x");
	ck_assert_int_eq(d.count, SW_DIAG_MAX);
	ck_assert_int_eq(d.dropped, 7);
	ck_assert_int_eq(d.errors, SW_DIAG_MAX + 6);
	sw_diag_add(NULL, SW_SEV_ERROR, NULL, 0, 0, "discarded"); /* must not crash */
}
END_TEST

/* The shortest text that reads back: fewest digits, and no exponent where plain digits are
 * shorter (30, not 3e+01). */
START_TEST(fmt_num_is_the_shortest_exact_text)
{
	static const struct {
		double v;
		const char *text;
	} cases[] = {{30, "30"},       {100, "100"},          {1000, "1000"},   {1e6, "1e+06"},
		     {0.1, "0.1"},     {1234.5, "1234.5"},    {1e-7, "1e-07"},  {-2.5, "-2.5"},
		     {0, "0"},         {123456789, "123456789"}, {1.0 / 3.0, "0.3333333333333333"}};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		char buf[64];
		ck_assert_str_eq(sw_fmt_num(buf, sizeof buf, cases[k].v), cases[k].text);
		ck_assert(strtod(buf, NULL) == cases[k].v);
	}
}
END_TEST

START_TEST(status_names_cover_ours_and_gsl)
{
	ck_assert_str_eq(sw_strerror(SW_SUCCESS), "success");
	ck_assert_str_eq(sw_strerror(SW_EINPUT), "bad input");
	ck_assert_str_eq(sw_strerror(GSL_ENOMEM), gsl_strerror(GSL_ENOMEM));
	ck_assert(SW_EINPUT > 1024);
}
END_TEST

START_TEST(text_builder_fixed_truncates_and_measures)
{
	char buf[8];
	memset(buf, 'x', sizeof buf);
	sw__text t = sw__text_fixed(buf, sizeof buf);
	sw__text_put(&t, "abc");
	sw__text_put(&t, "");
	sw__text_put(&t, "defghij"); /* 10 characters: 7 fit with the terminator */
	ck_assert_int_eq(sw__text_end(&t), 10);
	ck_assert_str_eq(buf, "abcdefg");
	sw__text m = sw__text_fixed(NULL, 99); /* no buffer: only measures */
	sw__text_put(&m, "hello, ");
	sw__text_put(&m, "world");
	ck_assert_int_eq(sw__text_end(&m), 12);
	char one[1] = {'x'};
	sw__text z = sw__text_fixed(one, 1);
	sw__text_put(&z, "abc");
	ck_assert_int_eq(sw__text_end(&z), 3);
	ck_assert_int_eq(one[0], '\0');
	char six[6];
	sw__text p = sw__text_fixed(six, sizeof six);
	sw__text_printf(&p, "%d-%s", 42, "ab");   /* "42-ab" fits exactly */
	sw__text_printf(&p, "%.3f", 0.5);       /* "0.500" does not */
	ck_assert_int_eq(sw__text_end(&p), 10);
	ck_assert_str_eq(six, "42-ab");
}
END_TEST

START_TEST(text_builder_heap_grows_and_hands_over)
{
	sw__text t = sw__text_heap();
	char *empty = sw__text_take(&t);
	ck_assert_ptr_nonnull(empty);
	ck_assert_str_eq(empty, "");
	free(empty);
	char want[1201];
	for (int i = 0; i < 400; i++) { /* past the first 256 bytes and two doublings */
		sw__text_put(&t, "ab");
		sw__text_put(&t, i % 2 ? "c" : "d");
		memcpy(want + 3 * i, i % 2 ? "abc" : "abd", 3);
	}
	want[1200] = '\0';
	ck_assert_int_eq((int)t.len, 1200);
	ck_assert_str_eq(t.buf, want); /* terminated all along */
	sw__text_printf(&t, "%0300d|", 7); /* 301 characters at once: another doubling */
	ck_assert_int_eq((int)t.len, 1501);
	ck_assert_int_eq(t.buf[1500], '|');
	ck_assert_int_eq(t.buf[1499], '7');
	ck_assert_int_eq(t.buf[1200], '0');
	t.buf[1200] = '\0';
	t.len = 1200;
	char *s = sw__text_take(&t);
	ck_assert_str_eq(s, want);
	ck_assert_ptr_null(t.buf); /* the builder is left empty */
	free(s);
	t.failed = 1; /* as after a failed realloc: appends stop, take returns NULL */
	sw__text_put(&t, "x");
	ck_assert_ptr_null(sw__text_take(&t));
}
END_TEST

START_TEST(json_strings_and_numbers)
{
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);
	ck_assert_ptr_nonnull(f);
	sw__json_str(f, "a\"b\\c\n\x01\x1f caf\xc3\xa9 ~");
	fputc(' ', f);
	sw__json_str(f, NULL);
	fputc(' ', f);
	sw__json_num(f, 0.1);
	fputc(' ', f);
	sw__json_num(f, -1e23);
	fputc(' ', f);
	sw__json_num(f, NAN);
	fputc(' ', f);
	sw__json_num(f, -INFINITY);
	fclose(f);
	ck_assert_str_eq(out, "\"a\\\"b\\\\c\\u000a\\u0001\\u001f caf\xc3\xa9 ~\" \"\" "
			      "0.1 -1e+23 null null"); /* the shortest text that reads back */
	free(out);
}
END_TEST

/* sw__fmax gives fmax's bits: NaN on either side, zeros of both signs, ties, infinities. */
START_TEST(fmax_by_comparisons_is_fmax)
{
	const double v[] = {0.0, -0.0, 1.0, -1.0, 2.5, DBL_MIN, INFINITY, -INFINITY, NAN, -NAN};
	int n = (int)(sizeof v / sizeof v[0]);
	/* through a pointer: GCC takes fmax as commutative and may swap a direct call's arguments,
	 * which would hide the tie rule (of equal zeros glibc returns y) */
	double (*volatile lib)(double, double) = fmax;
	for (int a = 0; a < n; a++)
		for (int b = 0; b < n; b++) {
			volatile double x = v[a], y = v[b]; /* (no folding at compile time) */
			double r = sw__fmax(x, y), e = lib(x, y);
			if (isnan(e)) {
				ck_assert(isnan(r));
				continue;
			}
			ck_assert_msg(memcmp(&r, &e, sizeof r) == 0, "fmax(%g, %g): %g, not %g", x,
				      y, r, e);
		}
}
END_TEST

Suite *core_suite(void)
{
	Suite *s = suite_create("core");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, wrap_angle_matches_atan2_form_and_range);
	tcase_add_test(tc, rng_streams_reproducible_and_distinct);
	tcase_add_test(tc, mix64_is_injective_on_a_sample);
	tcase_add_test(tc, diag_formats_location_and_counts_errors);
	tcase_add_test(tc, fmt_num_is_the_shortest_exact_text);
	tcase_add_test(tc, status_names_cover_ours_and_gsl);
	tcase_add_test(tc, text_builder_fixed_truncates_and_measures);
	tcase_add_test(tc, text_builder_heap_grows_and_hands_over);
	tcase_add_test(tc, json_strings_and_numbers);
	tcase_add_test(tc, fmax_by_comparisons_is_fmax);
	suite_add_tcase(s, tc);
	return s;
}
