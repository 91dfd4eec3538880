/* bench/bench_plan.c - navigation field solve time and iterations for n x n grids.
 *
 * The problem is the U-shaped trap scaled to the unit square: walls 0.02 thick (an open U with
 * its mouth towards the start side), the target a disc of radius 0.03 behind its base, border
 * fixed at 0.  Each size is solved once from scratch (no cache) with the default solver
 * settings (multigrid), then the smaller sizes with SOR alone; the largest size is
 * SWERVE_BENCH_PLAN_MAX (default 2048). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "swerve/plan.h"

void bench_plan(void);

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* 1 when (x, y) is inside a wall of the U: arms y = 0.35 and 0.65 for x in [0.35, 0.6], base
 * x = 0.6 for y in [0.35, 0.65]. */
static int in_wall(double x, double y)
{
	double t = 0.01;
	int arm = x >= 0.35 - t && x <= 0.6 + t && (fabs(y - 0.35) <= t || fabs(y - 0.65) <= t);
	int base = y >= 0.35 - t && y <= 0.65 + t && fabs(x - 0.6) <= t;
	return arm || base;
}

/* The U trap on an n x n grid. */
static sw_grid *u_trap(int n)
{
	double h = 1.0 / (n - 1);
	sw_grid *g = sw_grid_alloc(SW_GRID_NAV, n, n, 0.0, 0.0, h);
	if (!g)
		return NULL;
	for (int j = 0; j < n; j++)
		for (int i = 0; i < n; i++) {
			size_t k = (size_t)j * n + i;
			double x = i * h, y = j * h;
			int border = i == 0 || j == 0 || i == n - 1 || j == n - 1;
			if (border || in_wall(x, y))
				g->fixed[k] = 1;
			else if (hypot(x - 0.85, y - 0.5) <= 0.03)
				g->fixed[k] = 1, g->v[k] = 1.0;
		}
	return g;
}

static void solve_row(int n, int multigrid)
{
	sw_grid *g = u_trap(n);
	if (!g)
		return;
	sw_solver_def def = sw_default_solver_def();
	def.multigrid = multigrid;
	sw_solve_stats st;
	double t0 = seconds();
	sw_grid_solve(g, &def, &st);
	double t1 = seconds();
	printf("%5d^2 %10ld %-10s %8d %8d %10.5f %10.3f%s\n", n, (long)n * n,
	       multigrid ? "multigrid" : "SOR only", st.cycles, st.sweeps, st.omega, t1 - t0,
	       st.converged ? "" : "  (not converged)");
	fflush(stdout);
	sw_grid_free(g);
}

void bench_plan(void)
{
	const char *env = getenv("SWERVE_BENCH_PLAN_MAX");
	int max = env ? atoi(env) : 2048;
	printf("\nnavigation field (U trap on the unit square, default solver, no cache)\n");
	printf("%8s %10s %-10s %8s %8s %10s %10s\n", "grid", "nodes", "method", "cycles", "sweeps",
	       "omega", "solve (s)");
	for (int n = 128; n <= max; n *= 2)
		solve_row(n, 1);
	/* SOR alone for comparison (O(n) sweeps: stopped at 512^2 to keep the bench short). */
	for (int n = 128; n <= 512 && n <= max; n *= 2)
		solve_row(n, 0);
}
