/* plan/store.c - solved navigation fields kept between runs by the application.
 *
 * The library keeps no files: sw_navgrid_solve_stored asks the application's store (hooks in
 * sw_field_store; the CLI's keeps files under ~/.cache/swerve, src/cli/field_cache.c) for the
 * field stored under the problem's key, and uses what it gets only when it solves the problem:
 * fixed nodes hold exactly the problem's values, free values are finite in [0, 1], and on every
 * free node the 5-point equation holds to 4 tol relative (a converged solve leaves under
 * 0.05 tol on the shipped models), exactly where phi is 0 (regions the target cannot be reached
 * from).  The discrete Dirichlet problem has one solution, so a stored field that passes is that
 * solution to the solver's tolerance, whatever the store's integrity checks did or missed.  A
 * field solved here is offered to the store when the solve converged. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "swerve/plan.h"

/* Whether v solves g's problem to the solver tolerance tol (see the top of the file). */
static int solves(const sw_grid *g, const double *v, double tol)
{
	size_t n = (size_t)g->nx * (size_t)g->ny;
	for (size_t k = 0; k < n; k++)
		if (g->fixed[k] ? v[k] != g->v[k] : !(isfinite(v[k]) && v[k] >= 0.0 && v[k] <= 1.0))
			return 0;
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

/* Asks the store for g's field; copies it into g->v and returns 1 when it solves the problem. */
static int load(const sw_field_store *store, uint64_t key, double tol, sw_grid *g,
		sw_solve_stats *stats)
{
	size_t n = (size_t)g->nx * (size_t)g->ny;
	double *v = malloc(n * sizeof *v);
	sw_solve_stats got;
	memset(&got, 0, sizeof got);
	int ok = v && store->load(store->ctx, key, g, v, &got) == 1 && solves(g, v, tol);
	if (ok) {
		memcpy(g->v, v, n * sizeof *v);
		stats->sweeps = got.sweeps;
		stats->cycles = got.cycles;
		stats->converged = 1;
		stats->from_cache = 1;
	}
	free(v);
	return ok;
}

int sw_navgrid_solve_stored(sw_grid *g, const sw_solver_def *def, const sw_field_store *store,
			    sw_solve_stats *stats, sw_diag *diag)
{
	sw_solve_stats local;
	if (!stats)
		stats = &local;
	memset(stats, 0, sizeof *stats);
	uint64_t key = sw_navgrid_key(g, def);
	if (store && store->load && load(store, key, def->tol, g, stats))
		return SW_SUCCESS;
	int st = sw_grid_solve(g, def, stats);
	if (st != SW_SUCCESS)
		return st;
	char where[4096] = "";
	if (store && store->save && stats->converged &&
	    store->save(store->ctx, key, g, stats, where, sizeof where) != 0)
		sw_diag_add(diag, SW_SEV_WARNING, where, 0, 0,
			    "cannot write the navigation field cache (%s); the field was solved "
			    "and is used, but will be solved again next time",
			    strerror(errno));
	return SW_SUCCESS;
}
