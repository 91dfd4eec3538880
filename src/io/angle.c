/* io/angle.c - numbers and angles as they are written in scenario files.
 *
 * Files give decimal numbers in the xsd:double lexical form and angles as a number in radians
 * or a number followed by "deg" or "rad".  strtod() alone would also accept hexadecimal floats,
 * "inf", "nan" and a locale-dependent decimal point, so the text is first matched against the
 * decimal grammar, then converted by strtod() under the "C" locale (uselocale() is per thread,
 * so this is thread-safe and leaves the caller's locale alone). */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/core_internal.h"
#include "io/io_internal.h"
#include "swerve/io.h"

static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static locale_t c_locale = (locale_t)0;

static void c_locale_init(void)
{
	c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Returns the end of the decimal number at s ([+-] digits [. digits] [(e|E) [+-] digits], at
 * least one mantissa digit), or NULL when s does not start with one. */
static const char *scan_decimal(const char *s)
{
	const char *p = s;
	int digits = 0;
	if (*p == '+' || *p == '-')
		p++;
	while (is_digit(*p)) {
		p++;
		digits++;
	}
	if (*p == '.') {
		p++;
		while (is_digit(*p)) {
			p++;
			digits++;
		}
	}
	if (digits == 0)
		return NULL;
	if (*p == 'e' || *p == 'E') {
		const char *q = p + 1;
		if (*q == '+' || *q == '-')
			q++;
		if (!is_digit(*q))
			return NULL;
		while (is_digit(*q))
			q++;
		p = q;
	}
	return p;
}

/* Converts the decimal number s .. end (already matched by scan_decimal) with the "C" locale. */
static int convert_decimal(const char *s, const char *end, double *out)
{
	pthread_once(&c_locale_once, c_locale_init);
	locale_t old = (locale_t)0;
	if (c_locale != (locale_t)0)
		old = uselocale(c_locale);
	char *stop = NULL;
	double v = strtod(s, &stop);
	if (old != (locale_t)0)
		uselocale(old);
	if (stop != end)
		return SW__NUM_SYNTAX;
	if (!isfinite(v))
		return SW__NUM_NONFINITE;
	*out = v;
	return SW__NUM_OK;
}

static const char *skip_space(const char *s)
{
	while (is_space(*s))
		s++;
	return s;
}

int sw__parse_number(const char *text, double *out)
{
	if (!text || !out)
		return SW__NUM_SYNTAX;
	const char *s = skip_space(text);
	const char *p = s;
	if (*p == '+' || *p == '-')
		p++;
	/* The special values of xsd:double: valid XML Schema, but not usable here. */
	if ((strncmp(p, "INF", 3) == 0 || (p == s && strncmp(p, "NaN", 3) == 0)) &&
	    *skip_space(p + 3) == '\0')
		return SW__NUM_NONFINITE;
	const char *end = scan_decimal(s);
	if (!end || *skip_space(end) != '\0')
		return SW__NUM_SYNTAX;
	return convert_decimal(s, end, out);
}

int sw_parse_angle(const char *text, double *out)
{
	if (!text || !out)
		return SW_EINPUT;
	const char *s = skip_space(text);
	const char *end = scan_decimal(s);
	if (!end)
		return SW_EINPUT;
	const char *unit = skip_space(end);
	int deg = 0;
	const char *rest = unit;
	if (strncmp(unit, "deg", 3) == 0) {
		deg = 1;
		rest = unit + 3;
	} else if (strncmp(unit, "rad", 3) == 0) {
		rest = unit + 3;
	}
	if (*skip_space(rest) != '\0')
		return SW_EINPUT;
	double v;
	if (convert_decimal(s, end, &v) != SW__NUM_OK)
		return SW_EINPUT;
	if (deg)
		v = v / 180.0 * SW_PI; /* v / 180 first: 90deg and 180deg give exactly pi/2 and pi */
	if (!isfinite(v))
		return SW_EINPUT;
	*out = v;
	return SW_SUCCESS;
}
