/* plan/cache.c - solved navigation fields cached on disk, keyed by the rasterized problem.
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
 * On read every part is checked (a regular file of the exact size, magic, key, geometry,
 * checksum, fixed nodes equal to the problem's values, free values finite in [0, 1] that solve
 * the problem to the solver's tolerance); any mismatch means a miss and the field is solved
 * again and the entry rewritten.  Writes go through sw_atomic_open (a mkstemp file in the same
 * folder, synced and renamed into place), so readers never see a partial entry. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core_internal.h"
#include "plan/plan_internal.h"
#include "swerve/plan.h"

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

/* Whether v solves g's problem: on every free node the 5-point equation holds to 4 tol
 * relative (a converged solve leaves under 0.05 tol on the shipped models), exactly where phi is
 * 0 (regions the target cannot be reached from).  The checksum only detects damage: an entry
 * written with other values and a recomputed checksum is refused here.  The discrete Dirichlet
 * problem has one solution, so an entry that passes is that solution to the solver's tolerance. */
static int solves(const sw_grid *g, const double *v, double tol)
{
	int nx = g->nx, ny = g->ny;
	for (int j = 1; j < ny - 1; j++)
		for (int i = 1; i < nx - 1; i++) {
			size_t k = (size_t)j * (size_t)nx + (size_t)i;
			if (g->fixed[k])
				continue;
			double r = fabs(0.25 * (v[k - 1] + v[k + 1] + v[k - (size_t)nx] +
						v[k + (size_t)nx]) -
					v[k]);
			if (!(r <= 4.0 * tol * v[k] + 1e-300))
				return 0;
		}
	return 1;
}

/* Reads a cache entry into g->v when it is valid for key and solves g's problem (solver
 * tolerance tol); returns 1 on a hit.  Only a regular file of the exact size is read: a FIFO
 * planted as an entry would block, a device never end. */
static int cache_read(const char *path, uint64_t key, double tol, sw_grid *g,
		      sw_solve_stats *stats)
{
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
	double *v = malloc(n * sizeof *v);
	header hd;
	trailer tr;
	char extra;
	int ok = v && fread(&hd, sizeof hd, 1, f) == 1 && fread(v, sizeof *v, n, f) == n &&
		 fread(&tr, sizeof tr, 1, f) == 1 && fread(&extra, 1, 1, f) == 0;
	fclose(f);
	ok = ok && memcmp(hd.magic, magic, sizeof magic) == 0 && hd.key == key && hd.nx == g->nx &&
	     hd.ny == g->ny && hd.x0 == g->x0 && hd.y0 == g->y0 && hd.h == g->h &&
	     tr.checksum == sw__plan_checksum(v, n);
	for (size_t k = 0; ok && k < n; k++)
		ok = g->fixed[k] ? v[k] == g->v[k] : (isfinite(v[k]) && v[k] >= 0.0 && v[k] <= 1.0);
	ok = ok && solves(g, v, tol);
	if (ok) {
		memcpy(g->v, v, n * sizeof *v);
		stats->sweeps = tr.sweeps;
		stats->cycles = tr.cycles;
		stats->converged = 1;
		stats->from_cache = 1;
	}
	free(v);
	return ok;
}

/* Writes the entry atomically; returns 0 or -1 (errno set). */
static int cache_write(const char *dir, const char *path, uint64_t key, const sw_grid *g,
		       const sw_solve_stats *stats)
{
	if (sw_make_dirs(dir) != 0)
		return -1;
	char tmp[4200];
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
	tr.checksum = sw__plan_checksum(g->v, n);
	int ok = fwrite(&hd, sizeof hd, 1, f) == 1 && fwrite(g->v, sizeof *g->v, n, f) == n &&
		 fwrite(&tr, sizeof tr, 1, f) == 1;
	if (!ok) {
		sw_atomic_abort(f, tmp);
		return -1;
	}
	return sw_atomic_commit(f, tmp, path, NULL) == SW_SUCCESS ? 0 : -1;
}

int sw_navgrid_solve_cached(sw_grid *g, const sw_solver_def *def, const char *cache_dir,
			    sw_solve_stats *stats, sw_diag *diag)
{
	sw_solve_stats local;
	if (!stats)
		stats = &local;
	memset(stats, 0, sizeof *stats);
	char path[4096];
	uint64_t key = sw_navgrid_key(g, def);
	int cached = cache_dir && cache_dir[0] &&
		     snprintf(path, sizeof path, "%s/navfield-%016" PRIx64 ".bin", cache_dir, key) <
			 (int)sizeof path;
	if (cached && cache_read(path, key, def->tol, g, stats))
		return SW_SUCCESS;
	int st = sw_grid_solve(g, def, stats);
	if (st != SW_SUCCESS)
		return st;
	if (cached && stats->converged && cache_write(cache_dir, path, key, g, stats) != 0)
		sw_diag_add(diag, SW_SEV_WARNING, path, 0, 0,
			    "cannot write the navigation field cache (%s); the field was solved "
			    "and is used, but will be solved again next time",
			    strerror(errno));
	return SW_SUCCESS;
}
