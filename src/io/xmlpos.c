/* io/xmlpos.c - positions in the raw text of a loaded document (the loader of xmldoc.c):
 * line and column of a byte offset, of an attribute, and expression texts cut from the file.
 *
 * Expression texts and columns.  An expression is handed to the compiler as a string whose byte
 * offsets are those of the raw file: it is cut from the file itself (not from libxml2's decoded
 * value), and every markup construct inside it is replaced by a text of the same length.  A run
 * of character references ("&lt;", "&amp;&amp;") becomes spaces followed by the characters it
 * stands for ("   <", "        &&"), a comment or processing instruction becomes spaces (line
 * breaks kept), and the delimiters of a CDATA section become spaces.  Every position the
 * compiler reports is therefore exact, except that an operator written as character references
 * is reported at the last character of its references.  CR LF line ends become " \n".  When the
 * document was not UTF-8 (libxml2 converted it), the file's columns are not known: expressions
 * then use libxml2's text, at the element's line, with columns counted from the start of the
 * expression. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "core/core_internal.h"
#include "io/io_internal.h"

void sw__position(sw__loader *ld, size_t off, int *line, int *column)
{
	*line = 0;
	*column = 0;
	if (!ld->line_starts) {
		int n = 1;
		for (size_t i = 0; i < ld->len; i++)
			n += ld->buf[i] == '\n';
		ld->line_starts = malloc((size_t)n * sizeof *ld->line_starts);
		if (!ld->line_starts)
			return;
		ld->line_starts[0] = 0;
		ld->n_lines = 1;
		for (size_t i = 0; i < ld->len; i++)
			if (ld->buf[i] == '\n')
				ld->line_starts[ld->n_lines++] = i + 1;
	}
	int lo = 0, hi = ld->n_lines - 1;
	while (lo < hi) { /* last line start <= off */
		int mid = lo + (hi - lo + 1) / 2;
		if (ld->line_starts[mid] <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	size_t col = off - ld->line_starts[lo] + 1;
	*line = lo + 1;
	*column = col <= INT_MAX ? (int)col : 0;
}

/* Finds the start tag of node in the raw text: *start at its '<', *end at its '>' or the '/' of
 * "/>".  Returns 0, or -1 when positions are not available. */
static int tag_span(sw__loader *ld, xmlNodePtr node, size_t *start, size_t *end)
{
	if (!ld->positions_ok || !ld->buf || ld->n_tags == 0)
		return -1;
	sw__tag key = {node, 0};
	const sw__tag *t = bsearch(&key, ld->tags, ld->n_tags, sizeof *ld->tags, sw__tag_cmp);
	if (!t || t->end >= ld->len || (ld->buf[t->end] != '>' && ld->buf[t->end] != '/'))
		return -1;
	size_t s = t->end; /* '<' never occurs inside a start tag, so the previous one starts it */
	while (s > 0 && ld->buf[s] != '<')
		s--;
	size_t n = strlen((const char *)node->name);
	const char *name = ld->buf + s + 1;
	if (node->ns && node->ns->prefix) { /* prefix:name */
		size_t p = strlen((const char *)node->ns->prefix);
		if (s + 1 + p + 1 > t->end || name[p] != ':')
			return -1;
		name += p + 1;
	}
	if (ld->buf[s] != '<' || (size_t)(name - ld->buf) + n > t->end ||
	    memcmp(name, node->name, n) != 0)
		return -1;
	*start = s;
	*end = t->end;
	return 0;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Finds the value of attribute name in the start tag [start, end): [*vs, *ve). */
static int attr_span(const sw__loader *ld, size_t start, size_t end, const char *name, size_t *vs,
		     size_t *ve)
{
	const char *b = ld->buf;
	size_t p = start + 1, want = strlen(name);
	while (p < end && !is_blank(b[p]) && b[p] != '/' && b[p] != '>')
		p++;
	for (;;) {
		while (p < end && is_blank(b[p]))
			p++;
		if (p >= end || b[p] == '/' || b[p] == '>')
			return -1;
		size_t ns = p;
		while (p < end && !is_blank(b[p]) && b[p] != '=')
			p++;
		size_t nlen = p - ns;
		while (p < end && is_blank(b[p]))
			p++;
		if (p >= end || b[p] != '=')
			return -1;
		p++;
		while (p < end && is_blank(b[p]))
			p++;
		if (p >= end || (b[p] != '"' && b[p] != '\''))
			return -1;
		char q = b[p++];
		size_t s = p;
		while (p < end && b[p] != q)
			p++;
		if (p >= end)
			return -1;
		if (nlen == want && memcmp(b + ns, name, want) == 0) {
			*vs = s;
			*ve = p;
			return 0;
		}
		p++;
	}
}

void sw__attr_position(sw__loader *ld, xmlNodePtr node, const char *name, int *line, int *column)
{
	size_t s, e, vs, ve;
	if (tag_span(ld, node, &s, &e) == 0 && attr_span(ld, s, e, name, &vs, &ve) == 0) {
		sw__position(ld, vs, line, column);
		return;
	}
	*line = sw__node_line(node);
	*column = 0;
}

/* Appends the UTF-8 encoding of code point c to out (at most 4 bytes); returns the length. */
static size_t put_utf8(unsigned long c, char *out)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xC0 | (c >> 6));
		out[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xE0 | (c >> 12));
		out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
		out[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (c >> 18));
	out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
	out[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

/* Decodes the reference starting at s[0] == '&' (s < end): writes its bytes to out and returns
 * the length of the reference, or 0 when it is not one.  White space becomes ' ' so that a
 * reference never adds a line. */
static size_t decode_ref(const char *s, const char *end, char *out, size_t *n)
{
	static const struct {
		const char *ref;
		char c;
	} named[] = {
	    {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
	for (size_t k = 0; k < sizeof named / sizeof named[0]; k++) {
		size_t len = strlen(named[k].ref);
		if ((size_t)(end - s) >= len && memcmp(s, named[k].ref, len) == 0) {
			out[0] = named[k].c;
			*n = 1;
			return len;
		}
	}
	if (end - s < 4 || s[1] != '#')
		return 0;
	const char *p = s + 2;
	int hex = *p == 'x';
	p += hex;
	unsigned long c = 0;
	const char *digits = p;
	while (p < end && *p != ';' && p - digits < 8) {
		int d = *p >= '0' && *p <= '9'          ? *p - '0'
			: hex && *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
			: hex && *p >= 'A' && *p <= 'F' ? *p - 'A' + 10
							: -1;
		if (d < 0)
			return 0;
		c = c * (hex ? 16u : 10u) + (unsigned long)d;
		p++;
	}
	if (p >= end || *p != ';' || p == digits || c > 0x10FFFF)
		return 0;
	if (c == '\t' || c == '\n' || c == '\r')
		c = ' ';
	*n = put_utf8(c, out);
	return (size_t)(p + 1 - s);
}

/* Copies raw[from, to) into dst (same length) as described at the top of this file; content:
 * the text of an element (comments, CDATA, processing instructions allowed; stops at the first
 * other '<').  Returns the number of bytes written. */
static size_t decode_span(const char *raw, size_t from, size_t to, int content, char *dst)
{
	size_t i = from, w = 0;
	while (i < to) {
		char c = raw[i];
		if (c == '&') {
			/* A run of references: padding first, then the characters. */
			char dec[64];
			size_t nd = 0, j = i;
			while (j < to && raw[j] == '&' && nd + 4 <= sizeof dec) {
				size_t n = 0, r = decode_ref(raw + j, raw + to, dec + nd, &n);
				if (r == 0)
					break;
				j += r;
				nd += n;
			}
			if (j == i) { /* not a reference: keep the character */
				dst[w++] = c;
				i++;
				continue;
			}
			size_t pad = (j - i) - nd;
			memset(dst + w, ' ', pad);
			memcpy(dst + w + pad, dec, nd);
			w += j - i;
			i = j;
		} else if (c == '\r') {
			dst[w++] =
			    ' '; /* CR LF: the LF follows; a lone CR is no line end for libxml2 */
			i++;
		} else if (content && c == '<') {
			const char *close = NULL;
			size_t open = 0, shut = 0;
			if (to - i >= 4 && memcmp(raw + i, "<!--", 4) == 0)
				close = "-->", open = 4, shut = 3;
			else if (to - i >= 9 && memcmp(raw + i, "<![CDATA[", 9) == 0)
				close = "]]>", open = 9, shut = 3;
			else if (to - i >= 2 && raw[i + 1] == '?')
				close = "?>", open = 2, shut = 2;
			if (!close)
				break; /* an end tag or a child element */
			int cdata = open == 9;
			size_t j = i + open, clen = strlen(close);
			while (j + clen <= to && memcmp(raw + j, close, clen) != 0)
				j++;
			if (j + clen > to)
				break;
			memset(dst + w, ' ', open);
			w += open;
			for (size_t k = i + open; k < j; k++) {
				char x = raw[k];
				dst[w++] = cdata ? (x == '\r' ? ' ' : x) : (x == '\n' ? '\n' : ' ');
			}
			memset(dst + w, ' ', shut);
			w += shut;
			i = j + shut;
		} else {
			dst[w++] = c;
			i++;
		}
	}
	dst[w] = '\0';
	return w;
}

/* End of the text content starting at raw[from]: the first '<' that does not open a comment,
 * a CDATA section or a processing instruction. */
static size_t content_end(const char *raw, size_t from, size_t len)
{
	size_t i = from;
	while (i < len) {
		if (raw[i] != '<') {
			i++;
			continue;
		}
		const char *close = NULL;
		size_t open = 0;
		if (len - i >= 4 && memcmp(raw + i, "<!--", 4) == 0)
			close = "-->", open = 4;
		else if (len - i >= 9 && memcmp(raw + i, "<![CDATA[", 9) == 0)
			close = "]]>", open = 9;
		else if (len - i >= 2 && raw[i + 1] == '?')
			close = "?>", open = 2;
		if (!close)
			return i;
		size_t j = i + open, clen = strlen(close);
		while (j + clen <= len && memcmp(raw + j, close, clen) != 0)
			j++;
		if (j + clen > len)
			return i;
		i = j + clen;
	}
	return len;
}

char *sw__attr_expr(sw__loader *ld, xmlNodePtr node, const char *name, int *line, int *column)
{
	size_t s, e, vs, ve;
	if (tag_span(ld, node, &s, &e) == 0 && attr_span(ld, s, e, name, &vs, &ve) == 0) {
		char *text = malloc(ve - vs + 1);
		if (!text) {
			ld->oom = 1;
			return NULL;
		}
		decode_span(ld->buf, vs, ve, 0, text);
		sw__position(ld, vs, line, column);
		return text;
	}
	xmlChar *v = xmlGetNoNsProp(node, (const xmlChar *)name);
	if (!v)
		return NULL;
	char *text = strdup((const char *)v);
	xmlFree(v);
	if (!text)
		ld->oom = 1;
	*line = sw__node_line(node);
	*column = 0;
	return text;
}

char *sw__content_expr(sw__loader *ld, xmlNodePtr node, int *line, int *column)
{
	size_t s, e;
	if (tag_span(ld, node, &s, &e) == 0) {
		size_t from = ld->buf[e] == '/' ? e + 2 : e + 1;
		if (from > ld->len)
			from = ld->len;
		size_t to = ld->buf[e] == '/' ? from : content_end(ld->buf, from, ld->len);
		char *text = malloc(to - from + 1);
		if (!text) {
			ld->oom = 1;
			return NULL;
		}
		decode_span(ld->buf, from, to, 1, text);
		sw__position(ld, from, line, column);
		return text;
	}
	xmlChar *v = xmlNodeGetContent(node);
	char *text = strdup(v ? (const char *)v : "");
	xmlFree(v);
	if (!text)
		ld->oom = 1;
	*line = sw__node_line(node);
	*column = 0;
	return text;
}
