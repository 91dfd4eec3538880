/* plan/solve.c - the discrete Laplace equation on a nav grid (steering-models.md section 4).
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
 * Method, chosen by measurement (bench/README.md has the figures):
 *   - red-black SOR with the relaxation factor that is optimal for the bounding rectangle,
 *     omega = 2 / (1 + sin(pi / max(nx, ny))).  Obstacles only shorten the slowest modes, so this
 *     omega is at or above the optimum, where SOR's rate degrades gently (below it, steeply).
 *     Alone, SOR needs O(n) sweeps on an n x n grid (about 6000 at 1024^2, 15 s here);
 *   - so the sweeps are preceded by multigrid V-cycles on the correction equation (red-black
 *     Gauss-Seidel smoothing, full-weighting restriction of the residual, bilinear
 *     prolongation), with the coarse masks made by coarsening the fine one: a coarse node is
 *     fixed when the fine node under it is fixed (injection), so thin walls persist as long as
 *     they hit even nodes and are otherwise corrected by the smoother.  The V-cycles bring the
 *     absolute error to round-off in O(1) cycles; they cannot give relative accuracy where phi is
 *     exponentially small (a coarse correction mixes values across a wall), so SOR finishes to
 *     the relative tolerance.  Starting from the multigrid solution, SOR converges in the far
 *     regions quickly: there the slow modes are those of narrow corridors, whose spectral gap
 *     is set by their width, not by the grid size.
 * GSL offers no sparse direct or multigrid solver (gsl_splinalg has only GMRES, which needs a
 * preconditioner of this kind to be competitive), hence the hand-written smoother. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "swerve/plan.h"

sw_solver_def sw_default_solver_def(void)
{
	sw_solver_def d = {.tol = 1e-8, .max_sweeps = 100000, .omega = 0.0, .multigrid = 1};
	return d;
}

/* Fewest nodes per side of the coarsest multigrid level. */
#define MG_MIN 5
/* Smoothing sweeps before and after the coarse correction, and sweeps on the coarsest level. */
#define MG_PRE 2
#define MG_POST 2
#define MG_COARSE 60
/* Most V-cycles; they stop earlier when the largest update falls below MG_STALL relative to the
 * largest |phi| (round-off reached). */
#define MG_MAX_CYCLES 40
#define MG_STALL 1e-13
/* The relative change is measured every CHECK_EVERY sweeps (a sweep that measures is slower). */
#define CHECK_EVERY 8
/* Fewest measurements without the relative change halving before omega is reduced (omega =
 * 0); the window is at least the grid's longer side in sweeps. */
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
			r[k] = 0.25 * (v[k - 1] + v[k + 1] + v[k - (size_t)nx] + v[k + (size_t)nx]) -
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
			v[k] += 0.25 * (e[J * cn + I] + e[J * cn + I1] + e[J1 * cn + I] +
					e[J1 * cn + I1]);
		}
}

/* Builds the coarse levels below a fine mask; returns their number (0 when too small). */
static int build_levels(int nx, int ny, const unsigned char *fixed, level *lv, int cap)
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
				for (int dj = -1; dj <= 1 && !fixed_here; dj++)
					for (int di = -1; di <= 1; di++) {
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
		sweep(c->nx, c->ny, c->e, c->fixed, c->f, 1.0, 0);
	residual(c->nx, c->ny, c->e, c->fixed, c->f, scratch);
	restrict_to(c->nx, c->ny, scratch, &lv[l + 1]);
	vcycle(lv, nl, l + 1, scratch);
	prolong_add(&lv[l + 1], c->nx, c->ny, c->e, c->fixed);
	for (int s = 0; s < MG_POST; s++)
		sweep(c->nx, c->ny, c->e, c->fixed, c->f, 1.0, 0);
}

/* V-cycles on the fine grid; returns the number run, or -1 when out of memory. */
static int multigrid(sw_grid *g)
{
	enum { CAP = 24 };
	level lv[CAP + 1];
	memset(lv, 0, sizeof lv);
	/* lv[0] mirrors the fine grid (its e is g->v, f = NULL); coarse levels follow. */
	int nc = build_levels(g->nx, g->ny, g->fixed, lv + 1, CAP);
	if (nc < 0)
		return -1;
	if (nc == 0)
		return 0;
	size_t cnt = (size_t)g->nx * (size_t)g->ny;
	double *scratch = malloc(cnt * sizeof *scratch);
	if (!scratch) {
		free_levels(lv + 1, nc);
		return -1;
	}
	lv[0].nx = g->nx;
	lv[0].ny = g->ny;
	lv[0].e = g->v;
	lv[0].f = NULL;
	lv[0].fixed = g->fixed;
	int cycles = 0;
	for (; cycles < MG_MAX_CYCLES; cycles++) {
		double big = 0.0, upd = 0.0;
		for (size_t k = 0; k < cnt; k++)
			big = fmax(big, fabs(g->v[k]));
		for (int s = 0; s < MG_PRE; s++)
			sweep(g->nx, g->ny, g->v, g->fixed, NULL, 1.0, 0);
		residual(g->nx, g->ny, g->v, g->fixed, NULL, scratch);
		restrict_to(g->nx, g->ny, scratch, &lv[1]);
		vcycle(lv + 1, nc, 0, scratch);
		/* Prolongation, measuring the largest update. */
		for (size_t k = 0; k < cnt; k++)
			scratch[k] = g->v[k];
		prolong_add(&lv[1], g->nx, g->ny, g->v, g->fixed);
		for (int s = 0; s < MG_POST; s++)
			sweep(g->nx, g->ny, g->v, g->fixed, NULL, 1.0, 0);
		for (size_t k = 0; k < cnt; k++)
			upd = fmax(upd, fabs(g->v[k] - scratch[k]));
		if (upd <= MG_STALL * fmax(big, 1e-300)) {
			cycles++;
			break;
		}
	}
	free(scratch);
	free_levels(lv + 1, nc);
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
		omega = 2.0 / (1.0 + sin(M_PI / (double)(nx > ny ? nx : ny)));
	st.omega = omega;
	if (def->multigrid) {
		st.cycles = multigrid(g);
		if (st.cycles < 0)
			return SW_ENOMEM;
	}
	/* Over-relaxation well above the optimum (narrow domains in a large box) stalls the
	 * relative convergence of the far, exponentially small values: when the relative change
	 * has not halved over STALL_CHECKS measurements, omega is brought halfway to 1. */
	double worst = INFINITY, best = INFINITY;
	int since = 0, side = nx > ny ? nx : ny;
	/* SOR needs O(side) sweeps: a window shorter than that would mistake slow for stalled. */
	int stall = side / CHECK_EVERY > STALL_CHECKS ? side / CHECK_EVERY : STALL_CHECKS;
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
