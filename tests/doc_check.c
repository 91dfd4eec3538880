/* tests/doc_check.c - checks Markdown documents as a reader sees them rendered.
 *
 *     doc_check [-h HEADING]... FILE.md...
 *
 * Every FILE is parsed by cmark (the CommonMark reference implementation, Debian package cmark),
 * whose XML rendering (`cmark -t xml`) is read with libxml2, so what is checked is the document
 * tree a Markdown renderer builds, not a guess from the raw text:
 *
 *   - each -h HEADING must be the text of a heading of the first FILE (an unclosed code fence
 *     turns the headings after it into code), and no code block of the first FILE may hold a line
 *     that starts with "## " (a heading swallowed by a code block);
 *   - every link and image destination of every FILE that is relative (no URL scheme) must name
 *     an existing file or directory, relative to the FILE's directory; a fragment (#anchor) on a
 *     link to a Markdown file, or on a link within the FILE, must be the anchor of one of that
 *     file's headings, as GitHub derives anchors (lower case; letters, digits, '-' and '_' kept;
 *     spaces to '-'; other punctuation dropped; the n-th repeat of an anchor gets "-n").
 *
 * Prints one line FILE: problem per failure and exits 1 when there is any, 2 when cmark cannot
 * be run or its output cannot be read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

/* Largest number of headings (and so anchors) of one document. */
#define MAX_HEADINGS 1024
/* Longest anchor kept; longer headings are truncated (and would then simply not match). */
#define MAX_ANCHOR 256

typedef struct {
	int n;
	char text[MAX_HEADINGS][MAX_ANCHOR]; /* heading text, spaces collapsed */
	char anchor[MAX_HEADINGS][MAX_ANCHOR];
} headings;

static int failures;

static void fail(const char *file, const char *fmt, const char *what)
{
	fprintf(stderr, "%s: ", file);
	fprintf(stderr, fmt, what);
	fputc('\n', stderr);
	failures++;
}

/* Runs cmark on path and parses its XML; NULL (with a message) when that fails.  The path is
 * passed in single quotes, so it may not contain one. */
static xmlDocPtr render(const char *path)
{
	if (strchr(path, '\'')) {
		fprintf(stderr, "%s: a quote in the file name is not supported\n", path);
		return NULL;
	}
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "cmark -t xml '%s'", path);
	FILE *p = popen(cmd, "r");
	if (!p) {
		perror("cmark");
		return NULL;
	}
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, p);
		if (n < cap)
			break;
		char *q = realloc(buf, cap * 2);
		if (!q) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = q;
		cap *= 2;
	}
	int st = pclose(p);
	if (!buf || st != 0 || n == 0) {
		fprintf(stderr, "%s: cmark failed (is the cmark package installed?)\n", path);
		free(buf);
		return NULL;
	}
	/* No network and no DTD loading: the CommonMark.dtd of the DOCTYPE is not needed. */
	xmlDocPtr doc = xmlReadMemory(buf, (int)n, path, NULL, XML_PARSE_NONET | XML_PARSE_NOWARNING);
	free(buf);
	if (!doc)
		fprintf(stderr, "%s: cannot read cmark's XML\n", path);
	return doc;
}

static int is(xmlNodePtr node, const char *name)
{
	return node->type == XML_ELEMENT_NODE && strcmp((const char *)node->name, name) == 0;
}

/* The heading's text as displayed: its text and code content, runs of white space as one. */
static void heading_text(xmlNodePtr h, char *out, size_t cap)
{
	xmlChar *c = xmlNodeGetContent(h);
	size_t k = 0;
	int space = 1; /* drops leading white space */
	for (const char *s = c ? (const char *)c : ""; *s && k + 1 < cap; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n') {
			if (!space)
				out[k++] = ' ';
			space = 1;
		} else {
			out[k++] = *s;
			space = 0;
		}
	}
	while (k > 0 && out[k - 1] == ' ')
		k--;
	out[k] = '\0';
	xmlFree(c);
}

/* Whether the code point is punctuation or a symbol that GitHub drops from anchors (the common
 * ones: Latin-1 punctuation and signs, general punctuation, arrows, mathematical operators). */
static int dropped_code_point(unsigned cp)
{
	return (cp >= 0xA0 && cp <= 0xBF) || cp == 0xD7 || cp == 0xF7 ||
	       (cp >= 0x2000 && cp <= 0x206F) || (cp >= 0x2190 && cp <= 0x23FF) ||
	       (cp >= 0x25A0 && cp <= 0x27BF);
}

/* GitHub's anchor of a heading text (see the header comment), without the repeat suffix. */
static void slug(const char *text, char *out, size_t cap)
{
	size_t k = 0;
	const unsigned char *s = (const unsigned char *)text;
	while (*s && k + 5 < cap) {
		unsigned c = *s;
		if (c < 0x80) {
			if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')
				out[k++] = (char)c;
			else if (c >= 'A' && c <= 'Z')
				out[k++] = (char)(c - 'A' + 'a');
			else if (c == ' ')
				out[k++] = '-';
			s++;
			continue;
		}
		/* A UTF-8 sequence: decoded to test it, copied as it is when kept. */
		int len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
		unsigned cp = len == 1 ? c : c & (0x3F >> (len - 1));
		for (int i = 1; i < len; i++)
			cp = (cp << 6) | (s[i] & 0x3F);
		if (!dropped_code_point(cp))
			for (int i = 0; i < len && s[i]; i++)
				out[k++] = (char)s[i];
		for (int i = 0; i < len && *s; i++)
			s++;
	}
	out[k] = '\0';
}

/* Collects the headings of a document with their anchors (repeats numbered as GitHub does). */
static void collect_headings(xmlNodePtr node, headings *h)
{
	for (xmlNodePtr c = node; c; c = c->next) {
		if (is(c, "heading") && h->n < MAX_HEADINGS) {
			heading_text(c, h->text[h->n], MAX_ANCHOR);
			char base[MAX_ANCHOR];
			slug(h->text[h->n], base, sizeof base);
			int repeat = 0;
			for (int i = 0; i < h->n; i++) {
				char other[MAX_ANCHOR];
				slug(h->text[i], other, sizeof other);
				repeat += strcmp(other, base) == 0;
			}
			if (repeat)
				snprintf(h->anchor[h->n], MAX_ANCHOR, "%.200s-%d", base, repeat);
			else
				snprintf(h->anchor[h->n], MAX_ANCHOR, "%s", base);
			h->n++;
		} else if (c->children) {
			collect_headings(c->children, h);
		}
	}
}

static int has_anchor(const headings *h, const char *a)
{
	for (int i = 0; i < h->n; i++)
		if (strcmp(h->anchor[i], a) == 0)
			return 1;
	return 0;
}

/* Headings of the Markdown file at path; 0 when it cannot be rendered. */
static int headings_of(const char *path, headings *h)
{
	xmlDocPtr doc = render(path);
	if (!doc)
		return 0;
	h->n = 0;
	collect_headings(xmlDocGetRootElement(doc), h);
	xmlFreeDoc(doc);
	return 1;
}

/* A destination with a URL scheme ("https:", "mailto:") is not checked. */
static int has_scheme(const char *d)
{
	size_t n = strspn(d, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-");
	return n > 0 && d[n] == ':';
}

/* Checks one link destination of file (whose own headings are self). */
static void check_link(const char *file, const headings *self, const char *dest)
{
	if (has_scheme(dest) || dest[0] == '\0')
		return;
	char path[4096], frag[MAX_ANCHOR] = "";
	const char *hash = strchr(dest, '#');
	size_t plen = hash ? (size_t)(hash - dest) : strlen(dest);
	if (hash)
		snprintf(frag, sizeof frag, "%s", hash + 1);
	if (plen == 0) { /* "#anchor": this file */
		if (!has_anchor(self, frag))
			fail(file, "link to #%s: no heading of this file has that anchor", frag);
		return;
	}
	if (dest[0] == '/') {
		fail(file, "link %s: absolute path (it only resolves on one machine)", dest);
		return;
	}
	const char *slash = strrchr(file, '/');
	int dlen = slash ? (int)(slash - file + 1) : 0;
	snprintf(path, sizeof path, "%.*s%.*s", dlen, file, (int)plen, dest);
	struct stat sb;
	if (stat(path, &sb) != 0) {
		fail(file, "link %s: no such file", dest);
		return;
	}
	size_t n = strlen(path);
	if (!hash || n < 3 || strcmp(path + n - 3, ".md") != 0)
		return;
	static headings other;
	if (!headings_of(path, &other)) {
		failures++;
		return;
	}
	if (!has_anchor(&other, frag))
		fail(file, "link %s: the file has no heading with that anchor", dest);
}

static void check_links(const char *file, xmlNodePtr node, const headings *self)
{
	for (xmlNodePtr c = node; c; c = c->next) {
		if (is(c, "link") || is(c, "image")) {
			xmlChar *d = xmlGetProp(c, (const xmlChar *)"destination");
			if (d)
				check_link(file, self, (const char *)d);
			xmlFree(d);
		}
		if (c->children)
			check_links(file, c->children, self);
	}
}

/* Fails for every code block holding a line that starts with "## ". */
static void check_code_blocks(const char *file, xmlNodePtr node)
{
	for (xmlNodePtr c = node; c; c = c->next) {
		if (is(c, "code_block")) {
			xmlChar *t = xmlNodeGetContent(c);
			for (const char *s = t ? (const char *)t : ""; s; s = strchr(s, '\n')) {
				if (*s == '\n')
					s++;
				if (strncmp(s, "## ", 3) == 0) {
					char line[128];
					snprintf(line, sizeof line, "%.*s", (int)strcspn(s, "\n"), s);
					fail(file, "\"%s\" is inside a code block (an unclosed fence?)",
					     line);
				}
			}
			xmlFree(t);
		} else if (c->children) {
			check_code_blocks(file, c->children);
		}
	}
}

int main(int argc, char **argv)
{
	const char *want[64];
	int nwant = 0, i = 1;
	for (; i + 1 < argc && strcmp(argv[i], "-h") == 0 && nwant < 64; i += 2)
		want[nwant++] = argv[i + 1];
	if (i >= argc) {
		fprintf(stderr, "usage: doc_check [-h HEADING]... FILE.md...\n");
		return 2;
	}
	for (int first = i; i < argc; i++) {
		const char *file = argv[i];
		xmlDocPtr doc = render(file);
		if (!doc)
			return 2;
		xmlNodePtr root = xmlDocGetRootElement(doc);
		static headings self;
		self.n = 0;
		collect_headings(root, &self);
		if (i == first) {
			for (int k = 0; k < nwant; k++) {
				int found = 0;
				for (int j = 0; j < self.n && !found; j++)
					found = strcmp(self.text[j], want[k]) == 0;
				if (!found)
					fail(file, "\"%s\" is not rendered as a heading", want[k]);
			}
			check_code_blocks(file, root);
		}
		check_links(file, root, &self);
		xmlFreeDoc(doc);
	}
	xmlCleanupParser();
	if (failures)
		fprintf(stderr, "doc_check: %d problem(s)\n", failures);
	return failures ? 1 : 0;
}
