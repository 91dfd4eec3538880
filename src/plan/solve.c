/* plan/solve.c - the discrete Laplace equation on a nav grid (docs/models.md section 4).
 *
 * Unknowns: phi on the free nodes; fixed nodes hold Dirichlet values (1 target, 0 obstacles and
 * border for navigation fields).  The 5-point equation is phi_ij = mean of its 4 neighbours.
 *
 * Formulation.  The publication fixes the target at 0 and obstacles at 1 and follows the
 * negative gradient of u.  Far from the target (down a corridor of width w, u - 1 decays like
 * exp(-pi x / w)) u rounds to exactly 1 in double precision after ~35 corridor widths and its
 * gradient is lost.  We solve for phi = 1 - u instead: phi is the same function, but its small
 * values keep their relative precision down to 1e-308, so grad(phi) / phi, whose direction is
 * what the steering uses, stays meaningful everywhere.  tests/test_plan.c checks this on a strip
 * where phi falls to 1e-27 against the closed-form discrete solution.
 *
 * Convergence is relative: every free node's change over a sweep must be below tol times its
 * value.  An absolute test (largest change < 1e-15, as in the publication) would stop while the
 * exponentially small far values are still wrong by orders of magnitude.
 *
 * Method, chosen by measurement (figures in bench/README.md; U trap on the unit square):
 *   - red-black SOR alone, with the relaxation factor optimal for the bounding rectangle,
 *     omega = 2 / (1 + sin(pi / max(nx, ny))), needs O(n) sweeps on an n x n grid: ~2500
 *     sweeps at 1024^2 (~23 s here); worse, on narrow domains in a large box (the strip of
 *     tests/test_plan.c) that omega is far above the optimum and the far, exponentially small
 *     values never converge in the relative sense (relative error 1e9 after 1e5 sweeps);
 *   - a multigrid V-cycle (red-black Gauss-Seidel smoothing with omega 1.15, full-weighting
 *     restriction of the residual, bilinear prolongation) whose coarse masks dilate the
 *     obstacles (a coarse node is fixed when any fine node of its 3 x 3 stencil is: no
 *     correction ever leaks through a wall) converges at only ~0.65 per cycle: the coarse
 *     grids do not correct the band along every obstacle;
 *   - the same with injection on the first levels (a coarse node is fixed when the fine node
 *     under it is: exact while every obstacle is thicker than the coarse spacing) and W-cycles
 *     converges at ~0.4 per cycle, independently of the grid size (23-24 cycles from 128^2 to
 *     2048^2; 1024^2 in 1.7 s).  Injection is used while the coarse spacing is at most the
 *     thinnest obstacle (an estimate from the mask, thinnest()); when the cycles stall anyway
 *     the best iterate is kept and one level fewer is injected, down to pure dilation.
 *   Multigrid converges in the relative sense here because the corrections of a region come from
 *   its own residual, propagated through the same (exponentially decaying) geometry; the stop
 *   test is the relative change over a cycle.  SOR (with omega halved towards 1 whenever its
 *   relative change stalls) only finishes when multigrid stalls for good or is off.
 * GSL offers no sparse direct or multigrid solver (gsl_splinalg has only GMRES, which needs a
 * preconditioner of this kind to be competitive), hence the hand-written smoother. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/core_internal.h"
#include "swerve/plan.h"

sw_solver_def sw_default_solver_def(void)
{
	sw_solver_def d = {.tol = 1e-8, .max_sweeps = 100000, .omega = 0.0, .multigrid = 1};
	return d;
}

/* Fewest nodes per side of the coarsest multigrid level. */
#define MG_MIN 5
/* Smoothing sweeps before and after the coarse correction (relaxation MG_OMEGA), coarse
 * corrections per level (MG_GAMMA = 2: W-cycle), and sweeps on the coarsest level. */
#define MG_PRE 2
#define MG_POST 2
#define MG_COARSE 60
#define MG_GAMMA 2
#define MG_OMEGA 1.15
/* Most V-cycles; they stop earlier when the relative change over a cycle is below the tolerance,
 * or has not halved over MG_STALL_CYCLES cycles (SOR then finishes). */
#define MG_MAX_CYCLES 200
#define MG_STALL_CYCLES 8
/* The relative change is measured every CHECK_EVERY sweeps (a sweep that measures is slower). */
#define CHECK_EVERY 8
/* Fewest measurements without the relative change halving before omega is reduced (omega =
 * 0); the window is at least four times the grid's longer side in sweeps. */
#define STALL_CHECKS 25

/* One red-black SOR sweep over free nodes (colour red first); returns the largest relative
 * change when measure is set (else 0).  f (may be NULL) is a right-hand side: the update solves
 * phi_ij = mean(neighbours) + f_ij. */
static double sweep(int nx, int ny, double *v, const unsigned char *fixed, const double *f,
		    double omega, int measure)
{
	double worst = 0.0;
	for (int colour = 0; colour < 2; colour++) {
		for (int j = 1; j < ny - 1; j++) {
			size_t row = (size_t)j * (size_t)nx;
			for (int i = 1 + ((j + colour) & 1); i < nx - 1; i += 2) {
				size_t k = row + (size_t)i;
				if (fixed[k])
					continue;
				double avg = 0.25 * (v[k - 1] + v[k + 1] + v[k - (size_t)nx] +
						     v[k + (size_t)nx]);
				if (f)
					avg += f[k];
				double nv = v[k] + omega * (avg - v[k]);
				if (measure) {
					double a = fabs(nv);
					double d = fabs(nv - v[k]);
					if (d > 0.0 && (a < 1e-300 || d > worst * a))
						worst = a < 1e-300 ? INFINITY : d / a;
				}
				v[k] = nv;
			}
		}
	}
	return worst;
}

/* One multigrid level: its own grid of unknowns e (correction), right-hand side f, mask. */
typedef struct level {
	int nx, ny;
	double *e, *f;
	unsigned char *fixed;
} level;

static void free_levels(level *lv, int n)
{
	for (int l = 0; l < n; l++) {
		free(lv[l].e);
		free(lv[l].f);
		free(lv[l].fixed);
	}
}

/* Residual r = mean(neighbours) + f - v of level-0 style arrays, on free nodes (0 elsewhere). */
static void residual(int nx, int ny, const double *v, const unsigned char *fixed, const double *f,
		     double *r)
{
	for (int j = 0; j < ny; j++)
		for (int i = 0; i < nx; i++) {
			size_t k = (size_t)j * (size_t)nx + (size_t)i;
			if (fixed[k] || i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
				r[k] = 0.0;
				continue;
			}
			r[k] =
			    0.25 * (v[k - 1] + v[k + 1] + v[k - (size_t)nx] + v[k + (size_t)nx]) -
			    v[k] + (f ? f[k] : 0.0);
		}
}

/* Full-weighting restriction of fine r (nx x ny) to the coarse level; the coarse equation in
 * "mean" form with spacing 2h carries a factor 4 (the 1/h^2 of the Laplacian). */
static void restrict_to(int nx, int ny, const double *r, level *c)
{
	for (int J = 0; J < c->ny; J++)
		for (int I = 0; I < c->nx; I++) {
			size_t K = (size_t)J * (size_t)c->nx + (size_t)I;
			c->e[K] = 0.0;
			if (c->fixed[K]) {
				c->f[K] = 0.0;
				continue;
			}
			int i = 2 * I, j = 2 * J;
			double s = 0.0, wsum = 0.0;
			for (int dj = -1; dj <= 1; dj++)
				for (int di = -1; di <= 1; di++) {
					int ii = i + di, jj = j + dj;
					if (ii < 0 || jj < 0 || ii >= nx || jj >= ny)
						continue;
					double wgt = (di ? 0.5 : 1.0) * (dj ? 0.5 : 1.0);
					s += wgt * r[(size_t)jj * (size_t)nx + (size_t)ii];
					wsum += wgt;
				}
			c->f[K] = 4.0 * s / wsum;
		}
}

/* Adds the bilinear interpolation of the coarse correction to fine v on free nodes. */
static void prolong_add(const level *c, int nx, int ny, double *v, const unsigned char *fixed)
{
	for (int j = 0; j < ny; j++)
		for (int i = 0; i < nx; i++) {
			size_t k = (size_t)j * (size_t)nx + (size_t)i;
			if (fixed[k])
				continue;
			int I = i / 2, J = j / 2;
			int I1 = (i & 1) && I + 1 < c->nx ? I + 1 : I;
			int J1 = (j & 1) && J + 1 < c->ny ? J + 1 : J;
			const double *e = c->e;
			size_t cn = (size_t)c->nx;
			v[k] += 0.25 *
				(e[J * cn + I] + e[J * cn + I1] + e[J1 * cn + I] + e[J1 * cn + I1]);
		}
}

/* Thickness of the thinnest obstacle in nodes, an estimate: each fixed node's thickness is the
 * shorter of the horizontal and vertical runs of fixed nodes through it; runs that reach the
 * border count as unbounded, and thicknesses below 3 (the rounded tips of walls) are ignored
 * (multigrid() falls back when the estimate is too optimistic).  Returns INT_MAX when there is
 * no interior obstacle, -1 when out of memory. */
static int thinnest(int nx, int ny, const unsigned char *fixed)
{
	size_t cnt = (size_t)nx * (size_t)ny;
	int *h = malloc(cnt * sizeof *h);
	if (!h)
		return -1;
	/* Horizontal runs. */
	for (int j = 0; j < ny; j++)
		for (int i = 0; i < nx;) {
			size_t k = (size_t)j * nx + i;
			if (!fixed[k]) {
				h[k] = 0;
				i++;
				continue;
			}
			int e = i;
			while (e < nx && fixed[(size_t)j * nx + e])
				e++;
			int len = i == 0 || e == nx ? INT_MAX : e - i;
			for (int q = i; q < e; q++)
				h[(size_t)j * nx + q] = len;
			i = e;
		}
	int thin = INT_MAX;
	/* Vertical runs, combined with the horizontal ones. */
	for (int i = 0; i < nx; i++)
		for (int j = 0; j < ny;) {
			if (!fixed[(size_t)j * nx + i]) {
				j++;
				continue;
			}
			int e = j;
			while (e < ny && fixed[(size_t)e * nx + i])
				e++;
			int len = j == 0 || e == ny ? INT_MAX : e - j;
			for (int q = j; q < e; q++) {
				int t = h[(size_t)q * nx + i] < len ? h[(size_t)q * nx + i] : len;
				if (t >= 3 && t < thin)
					thin = t;
			}
			j = e;
		}
	free(h);
	return thin;
}

/* Levels whose mask is injected (a coarse node is fixed when the fine node under it is): as long
 * as every obstacle keeps a node on the coarse grid, i.e. while the coarse spacing (in fine
 * nodes) is at most the thinnest obstacle; coarser levels dilate (see build_levels). */
static int inject_levels(int thin)
{
	int n = 0;
	while (n < 30 && (2L << n) <= thin)
		n++;
	return n;
}

/* Builds the coarse levels below a fine mask; returns their number (0 when too small). */
static int build_levels(int nx, int ny, const unsigned char *fixed, level *lv, int cap, int inject)
{
	int n = 0;
	const unsigned char *fm = fixed;
	int fx = nx, fy = ny;
	while (n < cap) {
		int cx = (fx + 1) / 2, cy = (fy + 1) / 2;
		if (cx < MG_MIN || cy < MG_MIN)
			break;
		level *c = &lv[n];
		size_t cnt = (size_t)cx * (size_t)cy;
		c->nx = cx;
		c->ny = cy;
		c->e = calloc(cnt, sizeof *c->e);
		c->f = calloc(cnt, sizeof *c->f);
		c->fixed = malloc(cnt);
		if (!c->e || !c->f || !c->fixed) {
			free_levels(lv, n + 1);
			return -1;
		}
		for (int J = 0; J < cy; J++)
			for (int I = 0; I < cx; I++) {
				int fixed_here = I == 0 || J == 0 || I == cx - 1 || J == cy - 1;
				int reach = n < inject ? 0 : 1;
				for (int dj = -reach; dj <= reach && !fixed_here; dj++)
					for (int di = -reach; di <= reach; di++) {
						int i = 2 * I + di, j = 2 * J + dj;
						if (i >= 0 && j >= 0 && i < fx && j < fy &&
						    fm[(size_t)j * fx + i])
							fixed_here = 1;
					}
				c->fixed[(size_t)J * cx + I] = (unsigned char)fixed_here;
			}
		fm = c->fixed;
		fx = cx;
		fy = cy;
		n++;
	}
	return n;
}

/* One V-cycle on level l (level -1 is the fine grid itself: v, fixed, f = NULL). */
static void vcycle(level *lv, int nl, int l, double *scratch)
{
	level *c = &lv[l];
	if (l == nl - 1) {
		for (int s = 0; s < MG_COARSE; s++)
			sweep(c->nx, c->ny, c->e, c->fixed, c->f, 1.0, 0);
		return;
	}
	for (int s = 0; s < MG_PRE; s++)
		sweep(c->nx, c->ny, c->e, c->fixed, c->f, MG_OMEGA, 0);
	for (int k = 0; k < MG_GAMMA; k++) {
		residual(c->nx, c->ny, c->e, c->fixed, c->f, scratch);
		restrict_to(c->nx, c->ny, scratch, &lv[l + 1]);
		vcycle(lv, nl, l + 1, scratch);
		prolong_add(&lv[l + 1], c->nx, c->ny, c->e, c->fixed);
	}
	for (int s = 0; s < MG_POST; s++)
		sweep(c->nx, c->ny, c->e, c->fixed, c->f, MG_OMEGA, 0);
}

/* One cycle on the fine grid (level lv[0] = g) with coarse levels lv[1..nc]. */
static void fine_cycle(sw_grid *g, level *lv, int nc, double *scratch)
{
	for (int s = 0; s < MG_PRE; s++)
		sweep(g->nx, g->ny, g->v, g->fixed, NULL, MG_OMEGA, 0);
	for (int k = 0; k < MG_GAMMA; k++) {
		residual(g->nx, g->ny, g->v, g->fixed, NULL, scratch);
		restrict_to(g->nx, g->ny, scratch, &lv[1]);
		vcycle(lv + 1, nc, 0, scratch);
		prolong_add(&lv[1], g->nx, g->ny, g->v, g->fixed);
	}
	for (int s = 0; s < MG_POST; s++)
		sweep(g->nx, g->ny, g->v, g->fixed, NULL, MG_OMEGA, 0);
}

/* Largest relative change between prev and v over nodes that changed. */
static double rel_change(const double *v, const double *prev, size_t cnt)
{
	double rel = 0.0;
	for (size_t k = 0; k < cnt; k++) {
		double d = fabs(v[k] - prev[k]), a = fabs(v[k]);
		if (d > 0.0)
			rel = fmax(rel, a > 1e-300 ? d / a : INFINITY);
	}
	return rel;
}

/* Multigrid cycles on the fine grid until the relative change over a cycle is below tol (then
 * *rel_out < tol) or the cycles stall.  The injected depth starts at inject_levels(); when the
 * cycles stall with it (an obstacle the estimate missed lets corrections leak through), the
 * best iterate so far is restored and one level fewer is injected, down to pure dilation, which
 * is always safe.  Returns the number of cycles, or -1 when out of memory. */
static int multigrid(sw_grid *g, double tol, double *rel_out)
{
	enum { CAP = 24 };
	size_t cnt = (size_t)g->nx * (size_t)g->ny;
	double *scratch = malloc(cnt * sizeof *scratch);
	double *prev = malloc(cnt * sizeof *prev);
	double *bestv = malloc(cnt * sizeof *bestv);
	int thin = thinnest(g->nx, g->ny, g->fixed);
	if (!scratch || !prev || !bestv || thin < 0) {
		free(scratch);
		free(prev);
		free(bestv);
		return -1;
	}
	int inject = inject_levels(thin);
	int cycles = 0;
	*rel_out = INFINITY;
	memcpy(bestv, g->v, cnt * sizeof *bestv);
	double best_all = INFINITY;
	for (;;) {
		level lv[CAP + 1];
		memset(lv, 0, sizeof lv);
		int nc = build_levels(g->nx, g->ny, g->fixed, lv + 1, CAP, inject);
		if (nc < 0) {
			cycles = -1;
			break;
		}
		if (nc == 0)
			break;
		double best = INFINITY;
		int since = 0, stalled = 0;
		for (; cycles < MG_MAX_CYCLES; cycles++) {
			memcpy(prev, g->v, cnt * sizeof *prev);
			fine_cycle(g, lv, nc, scratch);
			double rel = rel_change(g->v, prev, cnt);
			if (rel < best_all) {
				best_all = rel;
				*rel_out = rel;
				memcpy(bestv, g->v, cnt * sizeof *bestv);
			}
			if (rel < tol) {
				cycles++;
				break;
			}
			if (rel < 0.5 * best) {
				best = rel;
				since = 0;
			} else if (++since >= MG_STALL_CYCLES || !(rel < 1e3)) {
				cycles++;
				stalled = 1;
				break;
			}
		}
		free_levels(lv + 1, nc);
		if (!stalled || inject == 0)
			break;
		inject--;
		memcpy(g->v, bestv, cnt * sizeof *bestv);
	}
	if (cycles >= 0 && !(*rel_out < tol))
		memcpy(g->v, bestv, cnt * sizeof *bestv);
	free(prev);
	free(scratch);
	free(bestv);
	return cycles;
}

int sw_grid_solve(sw_grid *g, const sw_solver_def *def, sw_solve_stats *stats)
{
	sw_solve_stats st;
	memset(&st, 0, sizeof st);
	if (!g || g->kind != SW_GRID_NAV || !g->fixed || !def || !(def->tol > 0.0) ||
	    def->max_sweeps < 1 || !(def->omega >= 0.0 && def->omega < 2.0))
		return SW_EUSAGE;
	int nx = g->nx, ny = g->ny;
	for (int i = 0; i < nx; i++)
		if (!g->fixed[i] || !g->fixed[(size_t)(ny - 1) * nx + i])
			return SW_EUSAGE;
	for (int j = 0; j < ny; j++)
		if (!g->fixed[(size_t)j * nx] || !g->fixed[(size_t)j * nx + nx - 1])
			return SW_EUSAGE;
	double omega = def->omega;
	if (omega == 0.0)
		omega = 2.0 / (1.0 + sin(SW_PI / (double)(nx > ny ? nx : ny)));
	st.omega = omega;
	if (def->multigrid) {
		double rel = INFINITY;
		st.cycles = multigrid(g, def->tol, &rel);
		if (st.cycles < 0)
			return SW_ENOMEM;
		if (rel < def->tol) {
			st.rel_change = rel;
			st.converged = 1;
			if (stats)
				*stats = st;
			return SW_SUCCESS;
		}
	}
	/* Over-relaxation well above the optimum (narrow domains in a large box) stalls the
	 * relative convergence of the far, exponentially small values: when the relative change
	 * has not halved over STALL_CHECKS measurements, omega is brought halfway to 1. */
	double worst = INFINITY, best = INFINITY;
	int since = 0, side = nx > ny ? nx : ny;
	/* SOR needs a few times side sweeps (2.4 side for the U trap at 1024^2): a shorter window
	 * would mistake slow for stalled. */
	int stall = 4 * side / CHECK_EVERY > STALL_CHECKS ? 4 * side / CHECK_EVERY : STALL_CHECKS;
	for (int s = 1; s <= def->max_sweeps; s++) {
		int measure = s % CHECK_EVERY == 0 || s == def->max_sweeps;
		double wv = sweep(nx, ny, g->v, g->fixed, NULL, omega, measure);
		st.sweeps = s;
		if (measure) {
			worst = wv;
			if (worst < def->tol)
				break;
			if (worst < 0.5 * best) {
				best = worst;
				since = 0;
			} else if (++since >= stall && def->omega == 0.0) {
				omega = 1.0 + 0.5 * (omega - 1.0);
				best = worst;
				since = 0;
			}
		}
	}
	st.omega = omega;
	st.rel_change = worst;
	st.converged = worst < def->tol;
	if (stats)
		*stats = st;
	return SW_SUCCESS;
}
