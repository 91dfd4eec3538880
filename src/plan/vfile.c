/* plan/vfile.c - user vector fields from a text grid file (docs/scenario-format.md, "Vector
 * field files"):
 *
 *     # comment lines and blank lines are ignored anywhere; '#' also ends a line
 *     swerve-vectorfield 1
 *     origin X0 Y0        position of node (0, 0), m
 *     spacing H           node spacing, m (> 0)
 *     size NX NY          nodes per row and per column (each >= 3)
 *     VX VY               NX * NY lines: node (i, j) on line i + j NX of the data, x fastest
 *
 * Numbers are C decimal numbers (strtod) and must be finite.  Each problem is reported as
 * path:line with what was expected, and nothing is returned. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core_internal.h"
#include "swerve/plan.h"

/* Longest line accepted. */
#define LINE_MAX_LEN 1024
/* Largest file accepted: 64 bytes per node of the largest grid. */
#define VFILE_MAX_BYTES ((uintmax_t)SW_GRID_MAX_NODES * 64u)

typedef struct reader {
	FILE *f;
	const char *path;
	int line;
	sw_diag *diag;
	char buf[LINE_MAX_LEN + 2];
} reader;

/* Next line with content (comments stripped) into r->buf; 0 at end of file, -1 on a too long
 * line (reported). */
static int next_line(reader *r)
{
	while (fgets(r->buf, sizeof r->buf, r->f)) {
		r->line++;
		size_t len = strlen(r->buf);
		if (len == sizeof r->buf - 1 && r->buf[len - 1] != '\n') {
			sw_diag_add(r->diag, SW_SEV_ERROR, r->path, r->line, 0,
				    "line longer than %d characters; expected a short line",
				    LINE_MAX_LEN);
			return -1;
		}
		char *hash = strchr(r->buf, '#');
		if (hash)
			*hash = '\0';
		if (strspn(r->buf, " \t\r\n") != strlen(r->buf))
			return 1;
	}
	return 0;
}

/* Parses exactly n finite numbers from s into out; returns 0 or -1. */
static int numbers(const char *s, double *out, int n)
{
	for (int k = 0; k < n; k++) {
		char *end;
		errno = 0;
		out[k] = strtod(s, &end);
		if (end == s || errno == ERANGE || !isfinite(out[k]))
			return -1;
		s = end;
	}
	return strspn(s, " \t\r\n") == strlen(s) ? 0 : -1;
}

/* Reads a header line "word numbers..."; returns 0 or reports and returns -1. */
static int keyword(reader *r, const char *word, double *out, int n, const char *expected)
{
	int st = next_line(r);
	if (st < 0)
		return -1;
	const char *s = r->buf + strspn(r->buf, " \t");
	size_t wl = strlen(word);
	if (st == 0 || strncmp(s, word, wl) != 0 || !strchr(" \t", s[wl]) ||
	    numbers(s + wl, out, n) != 0) {
		sw_diag_add(r->diag, SW_SEV_ERROR, r->path, st == 0 ? r->line + 1 : r->line, 0,
			    "%s; expected '%s %s'", st == 0 ? "unexpected end of file" : "bad line",
			    word, expected);
		return -1;
	}
	return 0;
}

int sw_vfield_load(const char *path, sw_grid **out, sw_diag *diag)
{
	*out = NULL;
	/* A regular file of bounded size: /dev/zero or a FIFO would be read forever. */
	char why[256];
	int fd = sw__file_open_regular(path, why, sizeof why);
	struct stat sb = {0};
	if (fd >= 0 && fstat(fd, &sb) == 0 && (uintmax_t)sb.st_size > VFILE_MAX_BYTES) {
		close(fd);
		sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0,
			    "the vector field file has %ju bytes; expected at most %ju (64 bytes "
			    "for each of the most nodes a grid may have)",
			    (uintmax_t)sb.st_size, (uintmax_t)VFILE_MAX_BYTES);
		return SW_EINPUT;
	}
	reader r = {fd >= 0 ? fdopen(fd, "r") : NULL, path, 0, diag, {0}};
	if (!r.f) {
		if (fd >= 0) {
			snprintf(why, sizeof why, "%s", strerror(errno));
			close(fd);
		}
		sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0,
			    "cannot read the vector field file: %s%s", why,
			    fd == -2 ? "; expected a regular file" : "");
		return fd == -2 ? SW_EINPUT : SW_EIO;
	}
	double ver, org[2], h, size[2];
	int st = SW_EINPUT;
	sw_grid *g = NULL;
	if (keyword(&r, "swerve-vectorfield", &ver, 1, "1 (format version)") != 0)
		goto done;
	if (ver != 1.0) {
		sw_diag_add(diag, SW_SEV_ERROR, path, r.line, 0,
			    "format version %g; expected 'swerve-vectorfield 1'", ver);
		goto done;
	}
	if (keyword(&r, "origin", org, 2, "X0 Y0 (m)") != 0 ||
	    keyword(&r, "spacing", &h, 1, "H (m, > 0)") != 0)
		goto done;
	if (!(h > 0.0)) {
		sw_diag_add(diag, SW_SEV_ERROR, path, r.line, 0,
			    "spacing %g; expected a number > 0", h);
		goto done;
	}
	if (keyword(&r, "size", size, 2, "NX NY (integers >= 3)") != 0)
		goto done;
	if (size[0] != floor(size[0]) || size[1] != floor(size[1]) || size[0] < 3 || size[1] < 3 ||
	    size[0] * size[1] > (double)SW_GRID_MAX_NODES) {
		sw_diag_add(diag, SW_SEV_ERROR, path, r.line, 0,
			    "size %g %g; expected integers >= 3 with at most %ld nodes in all",
			    size[0], size[1], SW_GRID_MAX_NODES);
		goto done;
	}
	/* Every node takes a data line of at least 4 bytes ("0 0\n"): a short file cannot make the
	 * reader allocate a large grid it does not hold (a 50-byte file asking for a gigabyte).
	 * Small grids are read, so that a bad line is reported where it is. */
	if (size[0] * size[1] > 65536.0 && size[0] * size[1] * 4.0 > (double)sb.st_size) {
		sw_diag_add(diag, SW_SEV_ERROR, path, r.line, 0,
			    "size %g %g: %g nodes, but the file has only %ju bytes; expected one "
			    "'VX VY' line per node",
			    size[0], size[1], size[0] * size[1], (uintmax_t)sb.st_size);
		goto done;
	}
	g = sw_grid_alloc(SW_GRID_VECTOR, (int)size[0], (int)size[1], org[0], org[1], h);
	if (!g) {
		st = SW_ENOMEM;
		goto done;
	}
	size_t n = (size_t)g->nx * (size_t)g->ny;
	for (size_t k = 0; k < n; k++) {
		int ln = next_line(&r);
		if (ln < 0)
			goto done;
		if (ln == 0) {
			sw_diag_add(diag, SW_SEV_ERROR, path, r.line + 1, 0,
				    "unexpected end of file after %zu of %zu vectors; expected "
				    "'VX VY' for node (%zu, %zu)",
				    k, n, k % (size_t)g->nx, k / (size_t)g->nx);
			goto done;
		}
		if (numbers(r.buf, &g->v[2 * k], 2) != 0) {
			sw_diag_add(diag, SW_SEV_ERROR, path, r.line, 0,
				    "bad vector for node (%zu, %zu); expected two finite numbers "
				    "'VX VY'",
				    k % (size_t)g->nx, k / (size_t)g->nx);
			goto done;
		}
	}
	int more = next_line(&r);
	if (more != 0) {
		if (more > 0)
			sw_diag_add(diag, SW_SEV_ERROR, path, r.line, 0,
				    "extra data after the %zu vectors of a %d x %d grid; expected "
				    "the end of the file",
				    n, g->nx, g->ny);
		goto done;
	}
	if (ferror(r.f)) {
		sw_diag_add(diag, SW_SEV_ERROR, path, r.line, 0, "read error");
		st = SW_EIO;
		goto done;
	}
	*out = g;
	g = NULL;
	st = SW_SUCCESS;
done:
	fclose(r.f);
	sw_grid_free(g);
	return st;
}
