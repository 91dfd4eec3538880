/* render/table.c - a CSV table read for charting (sw_table_*).
 *
 * The reader follows RFC 4180: records end at LF or CRLF, fields are separated by commas and
 * may be enclosed in double quotes (then they may hold commas, line ends and "" for a quote).
 * The first record names the columns.  Every cell keeps the line and column (bytes, 1-based)
 * where it starts, so that a cell found wrong later -- not a number where a number is drawn --
 * is reported at its place in the file.  Spaces around a cell are not part of it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core_internal.h"
#include "render/table.h"

struct sw_table {
	char *file;     /* named in diagnostics; NULL none */
	int n_cols;     /* columns */
	int n_rows;     /* data rows; the header is row -1 in the accessors */
	int *text;      /* (n_rows + 1) * n_cols offsets into pool, header first */
	int *line, *col; /* where each cell starts */
	char *pool;
	size_t n_pool, cap_pool;
	int n_cells, cap_cells;
};

static int cell_reserve(sw_table *t)
{
	if (t->n_cells < t->cap_cells)
		return 0;
	int cap = t->cap_cells ? 2 * t->cap_cells : 64;
	int *a = realloc(t->text, (size_t)cap * sizeof *a);
	if (!a)
		return -1;
	t->text = a;
	a = realloc(t->line, (size_t)cap * sizeof *a);
	if (!a)
		return -1;
	t->line = a;
	a = realloc(t->col, (size_t)cap * sizeof *a);
	if (!a)
		return -1;
	t->col = a;
	t->cap_cells = cap;
	return 0;
}

static int pool_put(sw_table *t, char c)
{
	if (t->n_pool == t->cap_pool) {
		size_t cap = t->cap_pool ? 2 * t->cap_pool : 1024;
		char *p = realloc(t->pool, cap);
		if (!p)
			return -1;
		t->pool = p;
		t->cap_pool = cap;
	}
	t->pool[t->n_pool++] = c;
	return 0;
}

/* Ends the cell begun at pool offset start: trims the spaces around it and records it. */
static int cell_end(sw_table *t, size_t start, int line, int col)
{
	while (t->n_pool > start && (t->pool[t->n_pool - 1] == ' ' || t->pool[t->n_pool - 1] == '\t'))
		t->n_pool--;
	size_t lead = start;
	while (lead < t->n_pool && (t->pool[lead] == ' ' || t->pool[lead] == '\t'))
		lead++;
	if (lead > start) {
		memmove(t->pool + start, t->pool + lead, t->n_pool - lead);
		t->n_pool -= lead - start;
	}
	if (pool_put(t, '\0') || cell_reserve(t))
		return -1;
	t->text[t->n_cells] = (int)start;
	t->line[t->n_cells] = line;
	t->col[t->n_cells] = col;
	t->n_cells++;
	return 0;
}

void sw_table_free(sw_table *t)
{
	if (!t)
		return;
	free(t->file);
	free(t->text);
	free(t->line);
	free(t->col);
	free(t->pool);
	free(t);
}

/* The parser's position in the text. */
typedef struct {
	const char *s;
	size_t len, i;
	int line, col;
} cursor;

static int at_eol(const cursor *c)
{
	return c->i >= c->len || c->s[c->i] == '\n' ||
	       (c->s[c->i] == '\r' && c->i + 1 < c->len && c->s[c->i + 1] == '\n');
}

static void skip_eol(cursor *c)
{
	if (c->i < c->len) {
		c->i += c->s[c->i] == '\r' ? 2 : 1;
		c->line++;
		c->col = 1;
	}
}

/* Reads one record into t's cells; *n gets its number of fields.  Returns SW_SUCCESS,
 * SW_EINPUT (with a diagnostic) or SW_ENOMEM. */
static int read_record(cursor *c, sw_table *t, const char *file, int *n, sw_diag *diag)
{
	*n = 0;
	for (;;) {
		size_t start = t->n_pool;
		/* leading spaces, then maybe a quoted field; the cell's place is its first
		 * character that is not a space */
		size_t j = c->i;
		while (j < c->len && (c->s[j] == ' ' || c->s[j] == '\t'))
			j++;
		int line = c->line, col = c->col + (int)(j - c->i);
		if (j < c->len && c->s[j] == '"') {
			c->col += (int)(j - c->i) + 1;
			c->i = j + 1;
			for (;;) {
				if (c->i >= c->len)
					return sw_diag_add(diag, SW_SEV_ERROR, file, line, col,
							   "unterminated quoted field: expected a "
							   "closing '\"'");
				char ch = c->s[c->i];
				if (ch == '\0')
					return sw_diag_add(diag, SW_SEV_ERROR, file, c->line, c->col,
							   "NUL byte in a CSV file");
				if (ch == '"' && c->i + 1 < c->len && c->s[c->i + 1] == '"') {
					c->i += 2, c->col += 2;
				} else if (ch == '"') {
					c->i++, c->col++;
					break;
				} else if (ch == '\n') {
					c->i++, c->line++, c->col = 1;
				} else {
					c->i++, c->col++;
				}
				if (pool_put(t, ch))
					return SW_ENOMEM;
			}
			while (c->i < c->len && (c->s[c->i] == ' ' || c->s[c->i] == '\t'))
				c->i++, c->col++;
			if (!at_eol(c) && c->s[c->i] != ',')
				return sw_diag_add(diag, SW_SEV_ERROR, file, c->line, c->col,
						   "expected ',' or the end of the line after a "
						   "closing '\"'");
		} else {
			while (!at_eol(c) && c->s[c->i] != ',') {
				if (c->s[c->i] == '\0')
					return sw_diag_add(diag, SW_SEV_ERROR, file, c->line, c->col,
							   "NUL byte in a CSV file");
				if (pool_put(t, c->s[c->i]))
					return SW_ENOMEM;
				c->i++, c->col++;
			}
		}
		if (cell_end(t, start, line, col))
			return SW_ENOMEM;
		(*n)++;
		if (at_eol(c)) {
			skip_eol(c);
			return SW_SUCCESS;
		}
		c->i++, c->col++; /* the comma */
	}
}

/* Skips lines holding only spaces; 1 when the text ends there. */
static int skip_blank(cursor *c)
{
	for (;;) {
		size_t j = c->i;
		while (j < c->len && (c->s[j] == ' ' || c->s[j] == '\t'))
			j++;
		if (j >= c->len)
			return 1;
		cursor k = *c;
		k.i = j;
		if (!at_eol(&k))
			return 0;
		c->i = j;
		skip_eol(c);
	}
}

int sw_table_parse(const char *text, size_t len, const char *name, sw_table **out, sw_diag *diag)
{
	if (!out || (!text && len))
		return SW_EUSAGE;
	*out = NULL;
	sw_table *t = calloc(1, sizeof *t);
	if (!t || (name && !(t->file = strdup(name)))) {
		sw_table_free(t);
		return sw_diag_add(diag, SW_SEV_ERROR, name, 0, 0, "out of memory"), SW_ENOMEM;
	}
	cursor c = {text, len, 0, 1, 1};
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		c.i = 3; /* a UTF-8 byte-order mark */
	int st = SW_SUCCESS, n;
	if (skip_blank(&c)) {
		st = sw_diag_add(diag, SW_SEV_ERROR, name, c.line, 1,
				 "empty table: expected a header row of column names");
		goto done;
	}
	if ((st = read_record(&c, t, name, &t->n_cols, diag)) != SW_SUCCESS)
		goto done;
	for (int k = 0; k < t->n_cols; k++) {
		const char *nk = t->pool + t->text[k];
		if (!*nk) {
			st = sw_diag_add(diag, SW_SEV_ERROR, name, t->line[k], t->col[k],
					 "column %d of the header has no name", k + 1);
			goto done;
		}
		for (int j = 0; j < k; j++)
			if (strcmp(t->pool + t->text[j], nk) == 0) {
				st = sw_diag_add(diag, SW_SEV_ERROR, name, t->line[k], t->col[k],
						 "column '%s' is named twice in the header (also column "
						 "%d)",
						 nk, j + 1);
				goto done;
			}
	}
	while (!skip_blank(&c)) {
		int first = t->n_cells;
		if ((st = read_record(&c, t, name, &n, diag)) != SW_SUCCESS)
			goto done;
		if (n != t->n_cols) {
			int k = n > t->n_cols ? first + t->n_cols : first + n - 1;
			st = sw_diag_add(diag, SW_SEV_ERROR, name, t->line[k], t->col[k],
					 "this row has %d field%s; the header has %d column%s", n,
					 n == 1 ? "" : "s", t->n_cols, t->n_cols == 1 ? "" : "s");
			goto done;
		}
		t->n_rows++;
	}
	if (t->n_rows == 0) {
		st = sw_diag_add(diag, SW_SEV_ERROR, name, c.line, 1,
				 "empty table: no data rows after the header");
		goto done;
	}
done:
	if (st == SW_ENOMEM)
		sw_diag_add(diag, SW_SEV_ERROR, name, 0, 0, "out of memory");
	if (st != SW_SUCCESS) {
		sw_table_free(t);
		return st;
	}
	*out = t;
	return SW_SUCCESS;
}

int sw_table_load(const char *path, sw_table **out, sw_diag *diag)
{
	if (!out)
		return SW_EUSAGE;
	*out = NULL;
	char why[256];
	int fd = sw__file_open_regular(path, why, sizeof why);
	if (fd < 0)
		return sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "cannot read: %s", why), SW_EIO;
	size_t len = 0, cap = 0;
	char *buf = NULL;
	for (;;) {
		if (len == cap) {
			size_t nc = cap ? 2 * cap : 65536;
			char *nb = realloc(buf, nc);
			if (!nb) {
				free(buf);
				close(fd);
				return sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "out of memory"),
				       SW_ENOMEM;
			}
			buf = nb, cap = nc;
		}
		ssize_t r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(buf);
			close(fd);
			return sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "cannot read: %s",
					   strerror(e)),
			       SW_EIO;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	int st = sw_table_parse(buf, len, path, out, diag);
	free(buf);
	return st;
}

int sw_table_n_rows(const sw_table *t) { return t ? t->n_rows : 0; }

int sw_table_n_cols(const sw_table *t) { return t ? t->n_cols : 0; }

const char *sw_table_col_name(const sw_table *t, int col)
{
	return t && col >= 0 && col < t->n_cols ? t->pool + t->text[col] : NULL;
}

int sw_table_find(const sw_table *t, const char *name)
{
	for (int k = 0; t && name && k < t->n_cols; k++)
		if (strcmp(t->pool + t->text[k], name) == 0)
			return k;
	return -1;
}

const char *sw_table_cell(const sw_table *t, int row, int col)
{
	if (!t || row < 0 || row >= t->n_rows || col < 0 || col >= t->n_cols)
		return NULL;
	return t->pool + t->text[(row + 1) * t->n_cols + col];
}

int sw__table_require(const sw_table *t, const char *name, sw_diag *diag)
{
	int col = sw_table_find(t, name);
	if (col >= 0)
		return col;
	char list[512] = "";
	size_t used = 0;
	for (int k = 0; k < t->n_cols && used + 1 < sizeof list; k++) {
		int w = snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "",
				 sw_table_col_name(t, k));
		used += w > 0 ? (size_t)w : 0;
	}
	sw_diag_add(diag, SW_SEV_ERROR, t->file, t->line[0], t->col[0],
		    "no column '%s' in the header (columns: %s)", name ? name : "", list);
	return -1;
}

int sw_table_numbers(const sw_table *t, const char *name, double *out, sw_diag *diag)
{
	if (!t || !out)
		return SW_EUSAGE;
	int col = sw__table_require(t, name, diag);
	if (col < 0)
		return SW_EINPUT;
	for (int r = 0; r < t->n_rows; r++) {
		int k = (r + 1) * t->n_cols + col;
		const char *s = t->pool + t->text[k];
		char *end;
		double v = strtod(s, &end);
		if (end == s || *end || !isfinite(v))
			return sw_diag_add(diag, SW_SEV_ERROR, t->file, t->line[k], t->col[k],
					   "column '%s': '%s' is not a finite number", name, s);
		out[r] = v;
	}
	return SW_SUCCESS;
}
