/* cli/field_cache.c - the command-line tool's cache of solved navigation fields: files keyed by
 * the rasterized problem, behind the library's store hooks (sw_field_store).  The library asks
 * for a field and checks that what it gets solves the problem; the files are the tool's.
 *
 * File <dir>/navfield-<key as 16 hex digits>.bin, native byte order (a cache, not an exchange
 * format):
 *     char[8]   "SWNAVF1\n"
 *     uint64    key (sw_navgrid_key of the rasterized problem and solver settings)
 *     int32     nx, ny
 *     double    x0, y0, h
 *     double    phi[nx * ny]
 *     int32     sweeps, cycles       (solve statistics, reported on a hit)
 *     uint64    FNV-1a checksum of phi
 * On read the file's parts are checked (a regular file of the exact size, magic, key, geometry,
 * checksum) and the library then checks the values (src/plan/store.c); any mismatch means a miss
 * and the field is solved again and the entry rewritten.  Writes go through sw_atomic_open (a
 * mkstemp file in the same folder, synced and renamed into place), so readers never see a
 * partial entry. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/field_cache.h"
#include "core/core_internal.h"

static const char magic[8] = {'S', 'W', 'N', 'A', 'V', 'F', '1', '\n'};

typedef struct header {
	char magic[8];
	uint64_t key;
	int32_t nx, ny;
	double x0, y0, h;
} header;

typedef struct trailer {
	int32_t sweeps, cycles;
	uint64_t checksum;
} trailer;

static uint64_t checksum(const double *v, size_t n)
{
	return sw_hash_bytes(SW_HASH_INIT, v, n * sizeof *v);
}

/* The entry's path for key, into buf; 0, or -1 when it does not fit. */
static int entry_path(const char *dir, uint64_t key, char *buf, size_t n)
{
	int len = snprintf(buf, n, "%s/navfield-%016" PRIx64 ".bin", dir, key);
	return len > 0 && (size_t)len < n ? 0 : -1;
}

/* Reads the entry for key into v when its file is intact; returns 1 on a hit.  Only a regular
 * file of the exact size is read: a FIFO planted as an entry would block, a device never end. */
static int cache_load(void *ctx, uint64_t key, const sw_grid *g, double *v, sw_solve_stats *stats)
{
	char path[4200];
	if (entry_path(ctx, key, path, sizeof path) != 0)
		return 0;
	size_t n = (size_t)g->nx * (size_t)g->ny;
	int fd = sw__file_open_regular(path, NULL, 0);
	struct stat sb;
	if (fd >= 0 && (fstat(fd, &sb) != 0 ||
			(uintmax_t)sb.st_size != sizeof(header) + n * sizeof(double) + sizeof(trailer))) {
		close(fd);
		return 0;
	}
	FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	header hd;
	trailer tr;
	char extra;
	int ok = fread(&hd, sizeof hd, 1, f) == 1 && fread(v, sizeof *v, n, f) == n &&
		 fread(&tr, sizeof tr, 1, f) == 1 && fread(&extra, 1, 1, f) == 0;
	fclose(f);
	ok = ok && memcmp(hd.magic, magic, sizeof magic) == 0 && hd.key == key && hd.nx == g->nx &&
	     hd.ny == g->ny && hd.x0 == g->x0 && hd.y0 == g->y0 && hd.h == g->h &&
	     tr.checksum == checksum(v, n);
	if (ok) {
		stats->sweeps = tr.sweeps;
		stats->cycles = tr.cycles;
	}
	return ok;
}

/* Writes the entry atomically; returns 0 or -1 (errno set, the path in where). */
static int cache_save(void *ctx, uint64_t key, const sw_grid *g, const sw_solve_stats *stats,
		      char *where, size_t n_where)
{
	const char *dir = ctx;
	char path[4200];
	if (entry_path(dir, key, path, sizeof path) != 0)
		return errno = ENAMETOOLONG, -1;
	snprintf(where, n_where, "%s", path);
	if (sw_make_dirs(dir) != 0)
		return -1;
	char tmp[4400];
	FILE *f = sw_atomic_open(path, tmp, sizeof tmp, NULL);
	if (!f)
		return -1;
	size_t n = (size_t)g->nx * (size_t)g->ny;
	header hd;
	memset(&hd, 0, sizeof hd);
	memcpy(hd.magic, magic, sizeof magic);
	hd.key = key;
	hd.nx = g->nx;
	hd.ny = g->ny;
	hd.x0 = g->x0;
	hd.y0 = g->y0;
	hd.h = g->h;
	trailer tr;
	memset(&tr, 0, sizeof tr);
	tr.sweeps = stats->sweeps;
	tr.cycles = stats->cycles;
	tr.checksum = checksum(g->v, n);
	int ok = fwrite(&hd, sizeof hd, 1, f) == 1 && fwrite(g->v, sizeof *g->v, n, f) == n &&
		 fwrite(&tr, sizeof tr, 1, f) == 1;
	if (!ok) {
		sw_atomic_abort(f, tmp);
		return -1;
	}
	return sw_atomic_commit(f, tmp, path, NULL) == SW_SUCCESS ? 0 : -1;
}

sw_field_store cli_field_cache(const char *dir)
{
	sw_field_store s = {cache_load, cache_save, (void *)dir};
	return s;
}

int cli_navgrid_solve_cached(sw_grid *g, const sw_solver_def *def, const char *dir,
			     sw_solve_stats *stats, sw_diag *diag)
{
	sw_field_store s = cli_field_cache(dir);
	return sw_navgrid_solve_stored(g, def, dir && dir[0] ? &s : NULL, stats, diag);
}
