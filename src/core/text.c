/* core/text.c - the library's one text builder and one JSON writer for strings and numbers.
 *
 * The builder appends to a caller's fixed buffer, truncating like snprintf (its length counts
 * the whole text, so a pass without a buffer measures it), or to a heap buffer it grows by
 * doubling; a failed allocation marks it failed and later appends do nothing. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/core_internal.h"
#include "swerve/core.h"

sw__text sw__text_fixed(char *buf, size_t n)
{
	sw__text t = {buf, buf ? n : 0, 0, 0, 0};
	return t;
}

sw__text sw__text_heap(void)
{
	sw__text t = {NULL, 0, 0, 1, 0};
	return t;
}

/* Heap builder: room for k more characters and the terminator; 0 when it failed. */
static int reserve(sw__text *t, size_t k)
{
	if (t->failed)
		return 0;
	if (t->len + k + 1 > t->cap) {
		size_t nc = t->cap ? 2 * t->cap : 256;
		while (nc < t->len + k + 1)
			nc *= 2;
		char *p = realloc(t->buf, nc);
		if (!p) {
			t->failed = 1;
			return 0;
		}
		t->buf = p;
		t->cap = nc;
	}
	return 1;
}

void sw__text_put(sw__text *t, const char *s)
{
	size_t k = strlen(s);
	if (!t->grow) {
		if (t->len + 1 < t->cap) {
			size_t room = t->cap - 1 - t->len;
			memcpy(t->buf + t->len, s, k < room ? k : room);
		}
		t->len += k;
		return;
	}
	if (!reserve(t, k))
		return;
	memcpy(t->buf + t->len, s, k + 1);
	t->len += k;
}

void sw__text_printf(sw__text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (!t->grow) {
		size_t room = t->len < t->cap ? t->cap - t->len : 0;
		int k = vsnprintf(room ? t->buf + t->len : NULL, room, fmt, ap);
		if (k > 0)
			t->len += (size_t)k;
	} else {
		va_list again;
		va_copy(again, ap);
		int k = vsnprintf(NULL, 0, fmt, ap);
		if (k > 0 && reserve(t, (size_t)k)) {
			vsnprintf(t->buf + t->len, (size_t)k + 1, fmt, again);
			t->len += (size_t)k;
		}
		va_end(again);
	}
	va_end(ap);
}

int sw__text_end(sw__text *t)
{
	if (t->cap > 0)
		t->buf[t->len < t->cap ? t->len : t->cap - 1] = '\0';
	return (int)t->len;
}

char *sw__text_take(sw__text *t)
{
	char *s = t->buf;
	int failed = t->failed;
	*t = sw__text_heap();
	if (failed) {
		free(s);
		return NULL;
	}
	return s ? s : calloc(1, 1);
}

void sw__json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void sw__json_num(FILE *f, double v)
{
	char num[40];
	if (isfinite(v))
		fputs(sw_fmt_num(num, sizeof num, v), f); /* the shortest text that reads back */
	else
		fputs("null", f);
}
