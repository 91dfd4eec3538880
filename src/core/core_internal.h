/* core/core_internal.h - helpers of the core module shared by the other modules (not public). */
#ifndef SWERVE_CORE_INTERNAL_H
#define SWERVE_CORE_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>

/** pi and pi/2, the library's one definition (M_PI is not part of C11 nor of POSIX without XSI);
 * the digits are those of glibc's M_PI and M_PI_2, so the doubles are the same. */
#define SW_PI 3.14159265358979323846
#define SW_PI_2 1.57079632679489661923

/** fmax(x, y) by comparisons, for the hot paths: the same result as x86-64 glibc's for quiet
 * NaNs (the other argument when one is NaN; of two equal values, zeros of either sign included,
 * y: tested against fmax called through a pointer, which the compiler cannot reorder), without
 * the library call that fmax's NaN and signed-zero rules cost under GCC.  (Other libms may
 * break ties otherwise; the callers that can see -0 need glibc's +0 from fmax(-0, +0).) */
static inline double sw__fmax(double x, double y)
{
	return x > y || isnan(y) ? x : y;
}

/** Opens path for reading when it names a regular file (symbolic links followed).  A FIFO is
 * opened without blocking and, like a device, socket or directory, refused: reading one could
 * wait or run forever.  Returns a file descriptor (the caller closes it); -1 when the file cannot
 * be opened (errno set); -2 when it is not a regular file.  On failure why (n bytes, may be NULL
 * when n is 0) receives the reason: errno's text, or "a FIFO, not a regular file". */
int sw__file_open_regular(const char *path, char *why, size_t n);

/** A text builder (core/text.c), the one every module uses to assemble strings.  Fixed: appends
 * to the caller's buffer, truncating like snprintf, while len counts the whole text (a NULL
 * buffer only measures).  Heap: a buffer grown by doubling from 256 bytes, always terminated;
 * after a failed allocation `failed` is set and later appends do nothing. */
typedef struct sw__text {
	char *buf;  /**< the text so far */
	size_t cap; /**< bytes of buf */
	size_t len; /**< characters the whole text needs (beyond cap - 1 when a fixed one truncated) */
	int grow;   /**< 1: heap buffer grown with realloc; 0: the caller's fixed buffer */
	int failed; /**< heap only: an allocation failed, the text is incomplete */
} sw__text;

/** A builder over buf of n bytes (buf may be NULL: measure only). */
sw__text sw__text_fixed(char *buf, size_t n);
/** An empty growing builder; sw__text_take() hands over (or frees) its memory. */
sw__text sw__text_heap(void);
/** Appends the string s. */
void sw__text_put(sw__text *t, const char *s);
/** Appends printf-style text (an encoding error appends nothing). */
void sw__text_printf(sw__text *t, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
/** Fixed builder: terminates the (possibly truncated) text and returns the length the whole
 * text needs, snprintf-style. */
int sw__text_end(sw__text *t);
/** Heap builder: returns its text (the caller frees it; "" when nothing was appended), or NULL
 * after a failed allocation (the memory is freed).  The builder is left empty. */
char *sw__text_take(sw__text *t);

/** Writes s (NULL as "") as a JSON string: quotes and backslashes escaped, other control
 * characters as \u00XX, everything else (UTF-8 included) as is. */
void sw__json_str(FILE *f, const char *s);
/** Writes v as a JSON number, %.17g (reads back exactly), or null when it is not finite. */
void sw__json_num(FILE *f, double v);

#endif
