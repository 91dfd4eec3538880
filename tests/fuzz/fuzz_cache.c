/* tests/fuzz/fuzz_cache.c - libFuzzer harness of the navigation-field cache's read side (the
 * CLI's files, src/cli/field_cache.c, and the library's check of what a store returns,
 * src/plan/store.c, through cli_navgrid_solve_cached): the input is a cache entry, written under
 * the name the cache looks up for a small fixed problem (a 7 x 6 grid with a target node and an
 * obstacle node) in a private temporary folder.
 *
 * The first byte holds flags that make forged entries reachable (random bytes almost never
 * carry the right key and checksum); the rest is the entry, in which the harness, by flag:
 *   1  writes the problem's key at bytes 8..15,
 *   2  writes the problem's geometry (nx, ny, x0, y0, h) at bytes 16..47,
 *   4  cuts or zero-pads the entry to the size of a genuine one,
 *   8  writes the checksum of the values into the trailer (after 4, when both are set).
 * The layout is that of src/cli/field_cache.c; if it changes the flags only become less useful.
 *
 * Checked: the solve succeeds whatever the entry holds (a bad entry is a miss, never an error);
 * fixed nodes keep their values and free values are finite in [0, 1]; an entry used (from_cache)
 * is exactly the entry's values; otherwise the values are those of a solve without the cache,
 * and the entry has been replaced: a second solve is a hit with those same values. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/field_cache.h"
#include "swerve/plan.h"
#include "fuzz.h"
#include "fuzz_files.h"

enum { NX = 7, NY = 6, N = NX * NY, HEAD = 48, TRAIL = 16, ENTRY = HEAD + 8 * N + TRAIL };

static sw_grid *problem; /* the rasterized problem (values of fixed nodes, free nodes 0) */
static double reference[N]; /* its solution without the cache */
static sw_solver_def def;
static char dir[4200], entry_path[4400];

static sw_grid *copy_problem(void)
{
	sw_grid *g = sw_grid_alloc(SW_GRID_NAV, NX, NY, problem->x0, problem->y0, problem->h);
	FUZZ_CHECK(g != NULL);
	memcpy(g->v, problem->v, N * sizeof *g->v);
	memcpy(g->fixed, problem->fixed, N);
	return g;
}

static void setup(void)
{
	def = sw_default_solver_def();
	problem = sw_grid_alloc(SW_GRID_NAV, NX, NY, -1.5, 0.25, 0.5);
	FUZZ_CHECK(problem != NULL);
	for (int j = 0; j < NY; j++)
		for (int i = 0; i < NX; i++)
			problem->fixed[i + j * NX] = i == 0 || j == 0 || i == NX - 1 || j == NY - 1;
	problem->fixed[4 + 3 * NX] = 1; /* the target */
	problem->v[4 + 3 * NX] = 1.0;
	problem->fixed[2 + 2 * NX] = 1; /* an obstacle */
	sw_grid *g = copy_problem();
	FUZZ_CHECK(sw_grid_solve(g, &def, NULL) == SW_SUCCESS);
	memcpy(reference, g->v, sizeof reference);
	sw_grid_free(g);
	const char *d = fuzz_private_dir();
	FUZZ_CHECK(d != NULL);
	snprintf(dir, sizeof dir, "%s/cache", d);
	snprintf(entry_path, sizeof entry_path, "%s/navfield-%016" PRIx64 ".bin", dir,
		 sw_navgrid_key(problem, &def));
}

/* Solves a copy of the problem through the cache; checks what holds for every result. */
static sw_grid *solve(sw_solve_stats *stats)
{
	static sw_diag diag;
	sw_diag_init(&diag);
	sw_grid *g = copy_problem();
	int rc = cli_navgrid_solve_cached(g, &def, dir, stats, &diag);
	FUZZ_CHECK(rc == SW_SUCCESS && diag.errors == 0);
	for (int k = 0; k < N; k++)
		FUZZ_CHECK(problem->fixed[k] ? g->v[k] == problem->v[k]
					     : isfinite(g->v[k]) && g->v[k] >= 0.0 && g->v[k] <= 1.0);
	return g;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!problem)
		setup();
	int flags = size > 0 ? data[0] : 0;
	size_t len = size > 0 ? size - 1 : 0;
	if (flags & 4)
		len = ENTRY;
	unsigned char *e = calloc(len ? len : 1, 1);
	FUZZ_CHECK(e != NULL);
	if (size > 1)
		memcpy(e, data + 1, size - 1 < len ? size - 1 : len);
	if ((flags & 1) && len >= 16) {
		uint64_t key = sw_navgrid_key(problem, &def);
		memcpy(e + 8, &key, sizeof key);
	}
	if ((flags & 2) && len >= HEAD) {
		int32_t n[2] = {NX, NY};
		double geo[3] = {problem->x0, problem->y0, problem->h};
		memcpy(e + 16, n, sizeof n);
		memcpy(e + 24, geo, sizeof geo);
	}
	if ((flags & 8) && len >= ENTRY) {
		uint64_t sum = sw_hash_bytes(SW_HASH_INIT, e + HEAD, 8 * N);
		memcpy(e + HEAD + 8 * N + 8, &sum, sizeof sum);
	}
	FUZZ_CHECK(fuzz_clear_dir(fuzz_private_dir()) == 0);
	FUZZ_CHECK(sw_make_dirs(dir) == 0 && fuzz_write_file(entry_path, e, len) == 0);

	sw_solve_stats stats;
	sw_grid *g = solve(&stats);
	if (stats.from_cache) {
		FUZZ_CHECK(len >= HEAD + 8 * N && memcmp(g->v, e + HEAD, 8 * N) == 0);
		FUZZ_CHECK(stats.converged);
	} else {
		FUZZ_CHECK(memcmp(g->v, reference, sizeof reference) == 0);
		sw_grid *again = solve(&stats);
		FUZZ_CHECK(stats.from_cache && memcmp(again->v, reference, sizeof reference) == 0);
		sw_grid_free(again);
	}
	sw_grid_free(g);
	free(e);
	return 0;
}
