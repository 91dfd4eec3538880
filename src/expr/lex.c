/* expr/lex.c - tokens of the expression language, and numbers in and out of text.
 *
 * Numbers are decimal: digits [. digits] [(e|E) [+-] digits], or . digits, optionally followed by
 * the unit "deg" (converted to radians) or "rad".  strtod() would also accept hexadecimal floats,
 * "inf", "nan" and a locale's decimal comma, so the lexer matches the grammar itself and converts
 * under the "C" locale; printing also runs under the "C" locale (uselocale() is per thread, so
 * this is thread-safe and leaves the caller's locale alone). */
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core_internal.h"
#include "expr/expr_internal.h"

static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static locale_t c_locale = (locale_t)0;

static void c_locale_init(void)
{
	c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

/* Switches this thread to the C numeric locale; returns the previous one for restore(). */
static locale_t to_c_locale(void)
{
	pthread_once(&c_locale_once, c_locale_init);
	return c_locale ? uselocale(c_locale) : (locale_t)0;
}

static void restore_locale(locale_t old)
{
	if (old)
		uselocale(old);
}

double sw_expr_strtod(const char *s, size_t len)
{
	char buf[128];
	if (len >= sizeof buf)
		len = sizeof buf - 1; /* the lexer caps literals well below this */
	memcpy(buf, s, len);
	buf[len] = '\0';
	locale_t old = to_c_locale();
	double v = strtod(buf, NULL);
	restore_locale(old);
	return v;
}

void sw_expr_format_number(double v, char *buf, size_t n)
{
	locale_t old = to_c_locale();
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, n, "%.*g", digits, v);
		if (digits == 17 || strtod(buf, NULL) == v)
			break;
	}
	restore_locale(old);
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_ident_char(char c)
{
	return is_ident_start(c) || is_digit(c);
}

/* Longest number literal accepted, in bytes (digits beyond 17 carry no information). */
#define NUMBER_MAX 100

static int lex_number(const char *text, size_t *pos, token *t, char *msg, size_t n)
{
	const char *s = text + t->start, *p = s;
	while (is_digit(*p))
		p++;
	if (*p == '.') {
		p++;
		while (is_digit(*p))
			p++;
	}
	if ((*p == 'e' || *p == 'E') &&
	    (is_digit(p[1]) || ((p[1] == '+' || p[1] == '-') && is_digit(p[2])))) {
		p += 2;
		while (is_digit(*p))
			p++;
	}
	size_t len = (size_t)(p - s);
	if (len > NUMBER_MAX) {
		snprintf(msg, n, "number too long (more than %d characters)", NUMBER_MAX);
		return SW_EINPUT;
	}
	double v = sw_expr_strtod(s, len);
	if (!isfinite(v)) {
		snprintf(msg, n, "number '%.*s' is out of range", (int)len, s);
		return SW_EINPUT;
	}
	t->value = v;
	t->written = v;
	t->degrees = 0;
	/* A unit suffix, or a stray letter that must not silently start a new token. */
	const char *q = p;
	while (is_ident_char(*q))
		q++;
	size_t slen = (size_t)(q - p);
	if (slen == 3 && memcmp(p, "deg", 3) == 0) {
		t->degrees = 1;
		t->value = v * (SW_PI / 180.0);
	} else if (slen == 3 && memcmp(p, "rad", 3) == 0) {
		/* radians are the internal unit */
	} else if (slen > 0) {
		t->start = (size_t)(p - text);
		if (*p == 'e' || *p == 'E')
			snprintf(msg, n, "expected digits in the exponent of '%.*s%c'", (int)len, s,
				 *p);
		else
			snprintf(
			    msg, n,
			    "unexpected '%.*s' after the number '%.*s' (only the units 'deg' and "
			    "'rad' may follow a number)",
			    (int)(slen > 32 ? 32 : slen), p, (int)len, s);
		return SW_EINPUT;
	} else if (*p == '.') {
		t->start = (size_t)(p - text);
		snprintf(msg, n, "unexpected '.' after the number '%.*s'", (int)len, s);
		return SW_EINPUT;
	}
	t->kind = TOK_NUM;
	t->len = (size_t)(q - s);
	*pos = (size_t)(q - text);
	return SW_SUCCESS;
}

static const struct {
	const char *word;
	tok_kind kind;
} words[] = {
    {"and", TOK_AND}, {"or", TOK_OR},     {"not", TOK_NOT},     {"lt", TOK_LT},
    {"le", TOK_LE},   {"gt", TOK_GT},     {"ge", TOK_GE},       {"eq", TOK_EQ},
    {"ne", TOK_NE},   {"true", TOK_TRUE}, {"false", TOK_FALSE},
};

int sw_expr_lex(const char *text, size_t *pos, token *t, char *msg, size_t n)
{
	size_t i = *pos;
	while (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')
		i++;
	const char *s = text + i;
	t->start = i;
	t->len = 1;
	if (*s == '\0') {
		t->kind = TOK_END;
		t->len = 0;
		*pos = i;
		return SW_SUCCESS;
	}
	if (is_digit(*s) || (*s == '.' && is_digit(s[1])))
		return lex_number(text, pos, t, msg, n);
	if (is_ident_start(*s)) {
		/* Identifiers may contain inner dots ("light.green"). */
		const char *p = s;
		while (is_ident_char(*p) || (*p == '.' && is_ident_start(p[1])))
			p++;
		t->kind = TOK_IDENT;
		t->len = (size_t)(p - s);
		for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
			if (strlen(words[k].word) == t->len &&
			    memcmp(words[k].word, s, t->len) == 0)
				t->kind = words[k].kind;
		*pos = i + t->len;
		return SW_SUCCESS;
	}
	char c = s[0], c1 = s[1];
	switch (c) {
	case '(': t->kind = TOK_LPAREN; break;
	case ')': t->kind = TOK_RPAREN; break;
	case ',': t->kind = TOK_COMMA; break;
	case '+': t->kind = TOK_PLUS; break;
	case '-': t->kind = TOK_MINUS; break;
	case '*': t->kind = TOK_STAR; break;
	case '/': t->kind = TOK_SLASH; break;
	case '^': t->kind = TOK_CARET; break;
	case '<': t->kind = c1 == '=' ? TOK_LE : TOK_LT; break;
	case '>': t->kind = c1 == '=' ? TOK_GE : TOK_GT; break;
	case '!': t->kind = c1 == '=' ? TOK_NE : TOK_NOT; break;
	case '=':
		if (c1 != '=') {
			snprintf(msg, n, "unexpected '='; write '==' or 'eq' to compare");
			return SW_EINPUT;
		}
		t->kind = TOK_EQ;
		break;
	case '&':
	case '|':
		if (c1 != c) {
			snprintf(msg, n, "unexpected '%c'; write '%c%c' or '%s'", c, c, c,
				 c == '&' ? "and" : "or");
			return SW_EINPUT;
		}
		t->kind = c == '&' ? TOK_AND : TOK_OR;
		break;
	default:
		if (c > ' ' && c < 127)
			snprintf(msg, n, "unexpected character '%c'", c);
		else
			snprintf(msg, n, "unexpected byte 0x%02X (expressions are ASCII text)",
				 (unsigned)(unsigned char)c);
		return SW_EINPUT;
	}
	if ((t->kind == TOK_LE || t->kind == TOK_GE || t->kind == TOK_NE || t->kind == TOK_EQ ||
	     t->kind == TOK_AND || t->kind == TOK_OR) &&
	    c1 != '\0' && (c1 == '=' || c1 == c))
		t->len = 2;
	*pos = i + t->len;
	return SW_SUCCESS;
}
