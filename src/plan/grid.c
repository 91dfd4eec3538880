/* plan/grid.c - grids of field values: allocation, rasterizing a model's static world, sampling
 * (bilinear interpolation of node directions) and following a field.
 *
 * Directions of a nav field come from grad(phi) / phi (= grad log phi) at nodes, by central
 * differences: the ratio is independent of how small phi is far from the target, so directions
 * interpolated between nodes whose phi differ by orders of magnitude are still weighted sensibly
 * (interpolating grad(phi) itself would let the larger neighbour dominate). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan_internal.h"
#include "swerve/plan.h"

sw_grid *sw_grid_alloc(sw_grid_kind kind, int nx, int ny, double x0, double y0, double h)
{
	if (nx < 3 || ny < 3 || !(h > 0.0) || !isfinite(h) || !isfinite(x0) || !isfinite(y0) ||
	    (long)nx * (long)ny > SW_GRID_MAX_NODES)
		return NULL;
	sw_grid *g = calloc(1, sizeof *g);
	if (!g)
		return NULL;
	size_t n = (size_t)nx * (size_t)ny;
	g->kind = kind;
	g->nx = nx;
	g->ny = ny;
	g->x0 = x0;
	g->y0 = y0;
	g->h = h;
	g->v = calloc(kind == SW_GRID_VECTOR ? 2 * n : n, sizeof *g->v);
	if (kind == SW_GRID_NAV)
		g->fixed = calloc(n, 1);
	if (!g->v || (kind == SW_GRID_NAV && !g->fixed)) {
		sw_grid_free(g);
		return NULL;
	}
	return g;
}

void sw_grid_free(sw_grid *g)
{
	if (!g)
		return;
	free(g->v);
	free(g->fixed);
	free(g);
}

/* The cell holding p: its lower-left node (i, j) and p's fractions (u, w) in it; 0 outside. */
static int cell_of(const sw_grid *g, sw_vec2 p, int *i, int *j, double *u, double *w)
{
	double fx = (p.x - g->x0) / g->h, fy = (p.y - g->y0) / g->h;
	if (!(fx >= 0.0 && fy >= 0.0 && fx <= g->nx - 1 && fy <= g->ny - 1))
		return 0;
	*i = fx >= g->nx - 1 ? g->nx - 2 : (int)fx;
	*j = fy >= g->ny - 1 ? g->ny - 2 : (int)fy;
	*u = fx - *i;
	*w = fy - *j;
	return 1;
}

/* Direction contributed by node (i, j), unnormalised; returns 0 when it contributes none. */
static int node_dir(const sw_grid *g, int i, int j, sw_vec2 *d)
{
	size_t k = (size_t)j * (size_t)g->nx + (size_t)i;
	if (g->kind == SW_GRID_VECTOR) {
		*d = sw_v2(g->v[2 * k], g->v[2 * k + 1]);
		double len = sw_v2_len(*d);
		if (!(len > 0.0))
			return 0;
		*d = sw_v2_scale(*d, 1.0 / len);
		return 1;
	}
	if (g->fixed[k] || i == 0 || j == 0 || i == g->nx - 1 || j == g->ny - 1)
		return 0;
	double p = g->v[k];
	if (!(p > 0.0))
		return 0;
	size_t nx = (size_t)g->nx;
	double gx = (g->v[k + 1] - g->v[k - 1]) / (2.0 * g->h * p);
	double gy = (g->v[k + nx] - g->v[k - nx]) / (2.0 * g->h * p);
	*d = sw_v2(gx, gy);
	return gx != 0.0 || gy != 0.0;
}

int sw_grid_direction(const sw_grid *g, sw_vec2 p, sw_vec2 *dir)
{
	*dir = sw_v2(0.0, 0.0);
	int i, j;
	double u, w;
	if (!cell_of(g, p, &i, &j, &u, &w))
		return 0;
	sw_vec2 acc = sw_v2(0.0, 0.0);
	int any = 0;
	for (int c = 0; c < 4; c++) {
		int di = c & 1, dj = c >> 1;
		double wgt = (di ? u : 1.0 - u) * (dj ? w : 1.0 - w);
		sw_vec2 d;
		if (!node_dir(g, i + di, j + dj, &d))
			continue;
		/* A node with zero weight still counts as defined (p on a cell edge). */
		any = 1;
		acc = sw_v2_add(acc, sw_v2_scale(d, wgt + 1e-12));
	}
	double len = sw_v2_len(acc);
	if (!any || !(len > 0.0))
		return 0;
	*dir = sw_v2_scale(acc, 1.0 / len);
	return 1;
}

int sw_grid_lookahead_while(const sw_grid *g, sw_vec2 p, double dist,
			    int (*keep)(sw_vec2 q, void *ctx), void *ctx, sw_vec2 *out)
{
	*out = p;
	sw_vec2 d;
	if (!sw_grid_direction(g, p, &d))
		return 0;
	int n = (int)ceil(dist / g->h);
	if (n < 1)
		n = 1;
	double step = dist / n;
	sw_vec2 q = p;
	for (int k = 0; k < n; k++) {
		if (k > 0 && !sw_grid_direction(g, q, &d))
			break;
		q = sw_v2_add(q, sw_v2_scale(d, step));
		if (k > 0 && keep && !keep(q, ctx))
			break;
		*out = q;
	}
	return 1;
}

int sw_grid_lookahead(const sw_grid *g, sw_vec2 p, double dist, sw_vec2 *out)
{
	return sw_grid_lookahead_while(g, p, dist, NULL, NULL, out);
}

double sw_grid_value(const sw_grid *g, sw_vec2 p)
{
	int i, j;
	double u, w;
	if (g->kind != SW_GRID_NAV || !cell_of(g, p, &i, &j, &u, &w))
		return 0.0;
	size_t k = (size_t)j * (size_t)g->nx + (size_t)i, nx = (size_t)g->nx;
	return (1 - u) * (1 - w) * g->v[k] + u * (1 - w) * g->v[k + 1] +
	       (1 - u) * w * g->v[k + nx] + u * w * g->v[k + nx + 1];
}

/* --- rasterizing a model -------------------------------------------------------------------- */

typedef struct box {
	double x0, y0, x1, y1;
} box;

static void grow_box(box *b, sw_vec2 p, double r)
{
	b->x0 = fmin(b->x0, p.x - r);
	b->y0 = fmin(b->y0, p.y - r);
	b->x1 = fmax(b->x1, p.x + r);
	b->y1 = fmax(b->y1, p.y + r);
}

/* Bounding box of obstacle j (static position). */
static box obstacle_box(const sw_model *m, int j)
{
	box b = {INFINITY, INFINITY, -INFINITY, -INFINITY};
	const sw_obstacle *o = &m->obstacles[j];
	for (int k = o->prim_first; k < o->prim_first + o->prim_count; k++) {
		const sw_prim *pr = &m->prims[k];
		grow_box(&b, pr->a, pr->radius);
		if (pr->is_segment)
			grow_box(&b, pr->b, 0.0);
	}
	return b;
}

void sw__world_area(const sw_model *m, double margin, double area[4])
{
	box b = {INFINITY, INFINITY, -INFINITY, -INFINITY};
	for (int j = 0; j < m->n_obstacles; j++) {
		if (m->obstacles[j].motion.kind != SW_MOTION_NONE)
			continue;
		box o = obstacle_box(m, j);
		grow_box(&b, sw_v2(o.x0, o.y0), 0.0);
		grow_box(&b, sw_v2(o.x1, o.y1), 0.0);
	}
	for (int k = 0; k < m->n_targets; k++)
		grow_box(&b, m->targets[k].position, m->targets[k].radius);
	for (int k = 0; k < m->n_agents; k++)
		grow_box(&b, m->agents[k].position, m->agents[k].radius);
	area[0] = b.x0 - margin, area[1] = b.y0 - margin;
	area[2] = b.x1 + margin, area[3] = b.y1 + margin;
}

int sw_navgrid_rasterize(const sw_model *m, int target, double resolution, double clearance,
			 double margin, int line, sw_grid **out, sw_diag *diag)
{
	*out = NULL;
	if (!m || !(margin >= 0.0))
		return SW_EUSAGE;
	double area[4];
	sw__world_area(m, margin, area);
	return sw_navgrid_rasterize_area(m, target, resolution, clearance, area, line, out, diag);
}

void sw__mark_obstacles(const sw_model *m, sw_grid *g, double clearance)
{
	int nx = g->nx, ny = g->ny;
	double x0 = g->x0, y0 = g->y0, resolution = g->h;
	/* Obstacles: only the nodes in each obstacle's box grown by the clearance are tested. */
	for (int j = 0; j < m->n_obstacles; j++) {
		const sw_obstacle *o = &m->obstacles[j];
		if (o->motion.kind != SW_MOTION_NONE)
			continue;
		box ob = obstacle_box(m, j);
		if (o->shape == SW_SHAPE_POLYGON && o->closed)
			for (int k = 0; k < o->count; k++)
				grow_box(&ob, m->points[o->first + k], 0.0);
		int i0 = (int)floor((ob.x0 - clearance - x0) / resolution) - 1;
		int i1 = (int)ceil((ob.x1 + clearance - x0) / resolution) + 1;
		int j0 = (int)floor((ob.y0 - clearance - y0) / resolution) - 1;
		int j1 = (int)ceil((ob.y1 + clearance - y0) / resolution) + 1;
		for (int jj = j0 < 0 ? 0 : j0; jj <= j1 && jj < ny; jj++)
			for (int ii = i0 < 0 ? 0 : i0; ii <= i1 && ii < nx; ii++) {
				size_t k = (size_t)jj * (size_t)nx + (size_t)ii;
				if (g->fixed[k])
					continue;
				sw_vec2 p = sw_v2(x0 + ii * resolution, y0 + jj * resolution);
				/* clearance 0 would make a node exactly on a wall free: use a
				 * tiny positive radius so walls always block. */
				double r = clearance > 0.0 ? clearance : 1e-9;
				if (sw_model_obstacle_clearance(m, j, 0.0, p, r) < 0.0)
					g->fixed[k] = 1;
			}
	}
	for (int i = 0; i < nx; i++)
		g->fixed[i] = g->fixed[(size_t)(ny - 1) * nx + i] = 1;
	for (int jj = 0; jj < ny; jj++)
		g->fixed[(size_t)jj * nx] = g->fixed[(size_t)jj * nx + nx - 1] = 1;
}

/* Nodes of a grid over area at spacing resolution, or 0 (with a diagnostic) past the budget. */
static int grid_size(const sw_model *m, const double area[4], double resolution, int line,
		     const char *what, int *nx, int *ny, sw_diag *diag)
{
	double nxd = floor((area[2] - area[0]) / resolution) + 2;
	double nyd = floor((area[3] - area[1]) / resolution) + 2;
	if (nxd < 3)
		nxd = 3;
	if (nyd < 3)
		nyd = 3;
	if (nxd * nyd > (double)SW_GRID_MAX_NODES) {
		sw_diag_add(diag, SW_SEV_ERROR, m->file, line, 0,
			    "%s: %.0f x %.0f nodes at resolution %g m exceed %ld nodes; expected a "
			    "coarser resolution",
			    what, nxd, nyd, resolution, SW_GRID_MAX_NODES);
		return 0;
	}
	*nx = (int)nxd, *ny = (int)nyd;
	return 1;
}

int sw_routemap_rasterize(const sw_model *m, double resolution, double clearance, int line,
			  sw_grid **out, sw_diag *diag)
{
	*out = NULL;
	if (!m || !(resolution > 0.0) || !isfinite(resolution) || !(clearance >= 0.0))
		return SW_EUSAGE;
	double area[4];
	sw__world_area(m, 2.0, area);
	if (!isfinite(area[0]) || !isfinite(area[1]) || !isfinite(area[2]) || !isfinite(area[3]))
		return SW_EUSAGE; /* nothing in the world to cover */
	int nx, ny;
	if (!grid_size(m, area, resolution, line, "routes", &nx, &ny, diag))
		return SW_EINPUT;
	sw_grid *g = sw_grid_alloc(SW_GRID_NAV, nx, ny, area[0], area[1], resolution);
	if (!g)
		return SW_ENOMEM;
	sw__mark_obstacles(m, g, clearance);
	if (sw__route_components(g) != SW_SUCCESS) {
		sw_grid_free(g);
		return SW_ENOMEM;
	}
	*out = g;
	return SW_SUCCESS;
}

int sw_navgrid_rasterize_area(const sw_model *m, int target, double resolution,
			      double clearance, const double area[4], int line, sw_grid **out,
			      sw_diag *diag)
{
	*out = NULL;
	if (!m || !area || target < 0 || target >= m->n_targets || !(resolution > 0.0) ||
	    !(clearance >= 0.0) || !(area[2] > area[0]) || !(area[3] > area[1]) ||
	    !isfinite(area[0]) || !isfinite(area[1]) || !isfinite(area[2]) || !isfinite(area[3]))
		return SW_EUSAGE;
	const sw_target *tg = &m->targets[target];
	if (tg->motion.kind != SW_MOTION_NONE)
		return sw_diag_add(diag, SW_SEV_ERROR, m->file, line, 0,
				   "navigation field to target '%s': the target moves; expected a "
				   "static target (fields are solved once over the static world)",
				   tg->name);
	double x0 = area[0], y0 = area[1];
	int nx, ny;
	if (!grid_size(m, area, resolution, line, "navigation field", &nx, &ny, diag))
		return SW_EINPUT;
	sw_grid *g = sw_grid_alloc(SW_GRID_NAV, nx, ny, x0, y0, resolution);
	if (!g)
		return SW_ENOMEM;
	sw__mark_obstacles(m, g, clearance);
	/* Target nodes: free nodes within the target's radius; at least the nearest free node. */
	int found = 0, best = -1;
	double bd = INFINITY;
	for (int jj = 1; jj < ny - 1; jj++)
		for (int ii = 1; ii < nx - 1; ii++) {
			size_t k = (size_t)jj * (size_t)nx + (size_t)ii;
			if (g->fixed[k])
				continue;
			double d = sw_v2_dist(sw_v2(x0 + ii * resolution, y0 + jj * resolution),
					      tg->position);
			if (d <= tg->radius) {
				g->v[k] = 1.0;
				found++;
			} else if (d < bd) {
				bd = d;
				best = (int)k;
			}
		}
	if (!found && best >= 0 && bd <= tg->radius + 2.0 * resolution) {
		g->v[best] = 1.0;
		found = 1;
	}
	if (!found) {
		sw_grid_free(g);
		return sw_diag_add(
		    diag, SW_SEV_ERROR, m->file, line, 0,
		    "navigation field to target '%s': every grid node near the "
		    "target is inside an obstacle grown by the clearance %g m; "
		    "expected a reachable target (or a smaller clearance or resolution)",
		    tg->name, clearance);
	}
	for (size_t k = 0; k < (size_t)nx * (size_t)ny; k++)
		if (g->v[k] == 1.0)
			g->fixed[k] = 1;
	*out = g;
	return SW_SUCCESS;
}

/* --- content key ------------------------------------------------------------------------------ */

/* Bump when the solver's method changes what it computes. */
#define NAV_FORMAT_VERSION 1

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
	return sw_hash_bytes(h, data, n);
}

uint64_t sw_navgrid_key(const sw_grid *g, const sw_solver_def *def)
{
	uint64_t h = SW_HASH_INIT;
	int version = NAV_FORMAT_VERSION;
	h = fnv(h, &version, sizeof version);
	h = fnv(h, &g->nx, sizeof g->nx);
	h = fnv(h, &g->ny, sizeof g->ny);
	h = fnv(h, &g->x0, sizeof g->x0);
	h = fnv(h, &g->y0, sizeof g->y0);
	h = fnv(h, &g->h, sizeof g->h);
	size_t n = (size_t)g->nx * (size_t)g->ny;
	h = fnv(h, g->fixed, n);
	for (size_t k = 0; k < n; k++)
		if (g->fixed[k])
			h = fnv(h, &g->v[k], sizeof g->v[k]);
	h = fnv(h, &def->tol, sizeof def->tol);
	h = fnv(h, &def->max_sweeps, sizeof def->max_sweeps);
	h = fnv(h, &def->omega, sizeof def->omega);
	h = fnv(h, &def->multigrid, sizeof def->multigrid);
	return h;
}

