/* swerve/plan.h - global planning: harmonic navigation fields and user vector fields
 * (docs/models.md section 4).
 *
 * A navigation field is a scalar phi on a regular grid of nodes over a scenario's static world:
 * phi = 1 on the target's nodes, phi = 0 on obstacle nodes (static obstacles grown by a clearance,
 * normally the agent radius) and on the grid border, and discrete Laplace (5-point mean) on every
 * other node.  phi is harmonic, so it has no local maximum inside the free space: following its
 * gradient (ascent: towards the target) cannot get trapped.  Far from the target phi is
 * exponentially small; it is stored as it is (not as u = 1 - phi, which would round to 1), the
 * solver converges in a relative sense, and gradient directions are taken from grad(phi) / phi,
 * which is scale-free (see src/plan/solve.c for the measurements behind the method).
 *
 * A vector field is a 2-D vector per node loaded from a text file (format: docs/scenario-format.md
 * "Vector field files").  Both kinds share sw_grid and are sampled by bilinear interpolation. */
#ifndef SWERVE_PLAN_H
#define SWERVE_PLAN_H

#include "swerve/api.h"

#include <stdint.h>

#include "swerve/core.h"
#include "swerve/geom.h"
#include "swerve/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Kinds of grid fields. */
typedef enum {
	SW_GRID_NAV = 0,   /**< harmonic navigation field: one scalar phi per node */
	SW_GRID_VECTOR = 1 /**< user vector field: (vx, vy) per node */
} sw_grid_kind;

/** A field sampled on nodes (x0 + i h, y0 + j h), i < nx, j < ny; node (i, j) is entry
 * i + j nx.  Allocated by sw_grid_alloc, freed by sw_grid_free. */
typedef struct sw_grid {
	sw_grid_kind kind;    /**< what v holds */
	int nx, ny;           /**< nodes per row and per column (>= 3 each) */
	double x0, y0;        /**< position of node (0, 0), m */
	double h;             /**< node spacing, m (> 0) */
	double *v;            /**< nav: phi per node; vector: vx, vy per node (interleaved) */
	unsigned char *fixed; /**< nav: 1 where phi is a Dirichlet value (target, obstacle,
				  border), 0 where it is solved for; NULL for vector fields */
} sw_grid;

/** Allocates a grid of nx * ny nodes with every value 0 and (nav) every node free.  Returns
 * NULL when out of memory or when nx, ny < 3 or h is not a positive finite number. */
SW_API sw_grid *sw_grid_alloc(sw_grid_kind kind, int nx, int ny, double x0, double y0, double h);

/** Frees a grid.  NULL is allowed. */
SW_API void sw_grid_free(sw_grid *g);

/** Settings of the Laplace solver.  Obtain defaults from sw_default_solver_def(). */
typedef struct sw_solver_def {
	double tol;     /**< stop when every free node's relative change over one sweep,
			     |dphi| / phi, is below tol; default 1e-8 */
	int max_sweeps; /**< most red-black sweeps on the finest grid; default 100000 */
	double omega;   /**< SOR relaxation factor in (0, 2); 0 = the optimum of the bounding
			     rectangle, 2 / (1 + sin(pi / max(nx, ny))); default 0 */
	int multigrid;  /**< 1: multigrid W-cycles on the correction equation to the relative
			     tolerance (SOR finishes only if they stall); 0: SOR only;
			     default 1 (src/plan/solve.c explains the choice) */
} sw_solver_def;

/** What a solve did. */
typedef struct sw_solve_stats {
	int sweeps;        /**< red-black SOR sweeps on the finest grid (after the V-cycles) */
	int cycles;        /**< multigrid V-cycles */
	double omega;      /**< relaxation factor used */
	double rel_change; /**< largest relative change of the last sweep */
	int converged;     /**< 1 when rel_change < tol */
	int from_cache;    /**< 1 when the field was read from the cache (no solve) */
} sw_solve_stats;

/** Defaults (the one place where they live). */
SW_API sw_solver_def sw_default_solver_def(void);

/** Solves the discrete Laplace equation on the free nodes of a nav grid: fixed nodes keep their
 * values (any finite values, not only 0 and 1); free nodes start from their current values.
 * Every border node must be fixed.  Returns SW_SUCCESS (also when max_sweeps ran out: see
 * stats->converged), SW_EUSAGE (not a nav grid, a free border node, bad settings) or
 * SW_ENOMEM.  stats may be NULL. */
SW_API int sw_grid_solve(sw_grid *g, const sw_solver_def *def, sw_solve_stats *stats);

/** Direction of steepest ascent of a nav field (towards its target) or of a vector field at p,
 * by bilinear interpolation of node directions: nav nodes contribute grad(phi) / phi by central
 * differences (free nodes with phi > 0 only), vector nodes their vector.  Returns 1 and the unit
 * vector in *dir, or 0 (and *dir = 0) outside the grid or where no node contributes. */
SW_API int sw_grid_direction(const sw_grid *g, sw_vec2 p, sw_vec2 *dir);

/** Follows the field's direction from p for a path length `dist` in steps of at most h, and
 * stores the end point in *out.  Returns 0 (and *out = p) when the direction at p is undefined;
 * otherwise 1 (stopping early where the direction becomes undefined). */
SW_API int sw_grid_lookahead(const sw_grid *g, sw_vec2 p, double dist, sw_vec2 *out);

/** sw_grid_lookahead() that also stops before the first point after the first step for which
 * keep(q, ctx) returns 0, storing the last point kept (corners="avoid" keeps the points an
 * agent reaches in a straight line).  keep may be NULL (keep every point). */
SW_API int sw_grid_lookahead_while(const sw_grid *g, sw_vec2 p, double dist,
				   int (*keep)(sw_vec2 q, void *ctx), void *ctx, sw_vec2 *out);

/** Value of a nav field at p by bilinear interpolation (0 outside the grid). */
SW_API double sw_grid_value(const sw_grid *g, sw_vec2 p);

/* --- navigation fields over a model ----------------------------------------------------- */

struct sw_field_store;

/** How fields are prepared: the solver, and whether solved navigation fields go through the
 * application's store (sw_field_store; the library keeps no cache and reads no environment
 * variable).  Obtain defaults from sw_default_plan_options(). */
typedef struct sw_plan_options {
	const struct sw_field_store *store; /**< store of solved fields (the CLI's: files under
				    --field-cache, $XDG_CACHE_HOME/swerve or ~/.cache/swerve);
				    NULL = none: fields are computed; default NULL */
	sw_solver_def solver;  /**< solver settings; default sw_default_solver_def() */
} sw_plan_options;

SW_API sw_plan_options sw_default_plan_options(void);

/** Rasterizes the static world of m for a navigation field to target `target` (index): nodes
 * spaced `resolution` m over the bounding box of the static obstacles, the targets and the
 * agents' start positions grown by `margin` m; a node is an obstacle node when a disc of radius
 * `clearance` centred on it overlaps a static obstacle (sw_model_obstacle_clearance < 0) or lies
 * inside a closed polygon; target nodes lie within the target's radius (at least the node
 * nearest to the target); border nodes are fixed at 0.  Scripted obstacles are ignored (the
 * local steering layer avoids them).  Returns SW_SUCCESS with a new grid in *out, SW_EINPUT
 * (moving target, grid larger than SW_GRID_MAX_NODES, the target buried in obstacles; a
 * diagnostic cites `line`) or SW_ENOMEM. */
SW_API int sw_navgrid_rasterize(const sw_model *m, int target, double resolution, double clearance,
				double margin, int line, sw_grid **out, sw_diag *diag);

/** As sw_navgrid_rasterize, over the rectangle [x0, x1] x [y0, y1] (x0 < x1, y0 < y1) instead
 * of the world's bounding box: node (0, 0) at (x0, y0), spacing `resolution`, up to x1 and y1
 * (inclusive, rounded down to a node, at least 3 nodes each way).  Obstacles outside are cut
 * off by the rectangle's border (phi = 0 there); the target must lie inside. */
SW_API int sw_navgrid_rasterize_area(const sw_model *m, int target, double resolution,
				     double clearance, const double area[4], int line, sw_grid **out,
				     sw_diag *diag);

/** Largest number of nodes of a rasterized navigation grid. */
#define SW_GRID_MAX_NODES (64L * 1024L * 1024L)

/** Content key of a rasterized nav problem: a 64-bit FNV-1a hash of the grid geometry, the
 * fixed-node mask and values, and the solver settings (and a format version). */
SW_API uint64_t sw_navgrid_key(const sw_grid *g, const sw_solver_def *def);

/** Where solved navigation fields are kept between runs: the application's store (the CLI keeps
 * files under ~/.cache/swerve); the library keeps none and reads or writes no file for it. */
typedef struct sw_field_store {
	/** Fills v (nx * ny values, g's layout) with the field stored under key for a grid of
	 * g's geometry, and *stats with the statistics stored with it; returns 1 when it did, 0
	 * on a miss.  What it returns is used only when it solves g's problem (fixed nodes equal
	 * to g's values, free values finite in [0, 1], the 5-point equation to the solver's
	 * tolerance): a store may return anything. */
	int (*load)(void *ctx, uint64_t key, const sw_grid *g, double *v, sw_solve_stats *stats);
	/** Stores a converged field under key; returns 0, or -1 with errno set and what failed
	 * (a path) in where (n bytes): the library then adds a warning and goes on. */
	int (*save)(void *ctx, uint64_t key, const sw_grid *g, const sw_solve_stats *stats,
		    char *where, size_t n);
	void *ctx; /**< passed to load and save */
} sw_field_store;

/** Solves a rasterized nav grid, taking the field from store (may be NULL: none) when it holds
 * a valid one for the key sw_navgrid_key(g, def) (then stats->from_cache is 1), else solving it
 * and offering the converged result to the store.  Returns SW_SUCCESS or the status of
 * sw_grid_solve; store failures are only warnings in diag. */
SW_API int sw_navgrid_solve_stored(sw_grid *g, const sw_solver_def *def,
				   const sw_field_store *store, sw_solve_stats *stats,
				   sw_diag *diag);

/** Fills a rasterized nav grid with the geodesic method (<navfield method="distance">): each
 * free node gets phi = 1 / (1 + D), D its shortest-path distance, m, through free nodes to the
 * target nodes over a 16-neighbour stencil (at most 2.8 % above the Euclidean distance); free
 * nodes cut off from the target get 0; fixed nodes keep their values.  Never stored: it costs
 * about as much as reading one.  Returns SW_SUCCESS, SW_EUSAGE (not a nav grid) or SW_ENOMEM. */
SW_API int sw_navgrid_distance(sw_grid *g);

/* --- routes (<routes>, docs/models.md section 4) ------------------------------------------ */

/** Rasterizes the static world of m for planned routes: nodes spaced `resolution` m over the
 * static obstacles, the targets and the agents' start discs grown by 2 m; a node is fixed
 * (impassable) when a disc of radius `clearance` on it overlaps a static obstacle or lies inside
 * a closed polygon, and on the border; the value of a free node labels its connected part of the
 * free space (1, 2, ...: nodes joined by the moves of sw_route_find), 0 on fixed nodes.  Returns
 * SW_SUCCESS with a new grid in
 * *out, SW_EINPUT (more than SW_GRID_MAX_NODES nodes; the diagnostic cites line), SW_EUSAGE (no
 * model, a bad resolution or clearance, a world with nothing in it) or SW_ENOMEM. */
SW_API int sw_routemap_rasterize(const sw_model *m, double resolution, double clearance, int line,
				 sw_grid **out, sw_diag *diag);

/** The working memory of route searches on one grid (20 bytes per node, allocated on the first
 * search, 4 more with a margin and 4 more with discs to avoid, plus the search's queue, 16 bytes
 * per entry, which grows with the nodes a search reaches): one per thread; searches on it are
 * independent of each other. */
typedef struct sw_route_search sw_route_search;

/** A search context for map (which must outlive it).  NULL when out of memory. */
SW_API sw_route_search *sw_route_search_new(const sw_grid *map);

/** Frees a search context.  NULL is allowed. */
SW_API void sw_route_search_free(sw_route_search *s);

/** Discs for the following searches of s to keep out of: discs[3k .. 3k + 2] = (x, y, r), n of
 * them (0: none).  A move onto a node strictly inside one costs `factor` (>= 1) times its
 * length, so a route passes through them only when going round is more than that much longer;
 * and a route is pulled taut only along lines that keep out of every disc that does not hold
 * the line's start.  With a factor of 1 the discs change nothing.  The discs
 * are copied.  Returns SW_SUCCESS, SW_EUSAGE (NULL s, n < 0, a factor below 1, a negative
 * radius or a value that is not finite) or SW_ENOMEM (4 bytes per node on the first discs). */
SW_API int sw_route_search_avoid(sw_route_search *s, const double *discs, int n, double factor);

/** A margin for the following searches of s: a move onto a node whose distance to the nearest
 * fixed node of the map (by the chamfer transform, at most 8.3 % long) is d < margin costs
 * 1 + (factor - 1) (margin - d) / margin times its length, so routes keep `margin` m away from
 * the grown obstacles where they have room and take gaps along their middle.  Margin 0 or factor
 * 1: none (the default).  Returns SW_SUCCESS or SW_EUSAGE (NULL s, a negative margin, a factor
 * below 1, a value that is not finite).  The distances take 4 bytes per node, computed on the
 * next search. */
SW_API int sw_route_search_margin(sw_route_search *s, double margin, double factor);

/** A shortest route on the free nodes of map (sw_routemap_rasterize) from a to b: A* over the
 * 16-neighbour stencil of the distance method (sw_navgrid_distance: a move is allowed when the
 * nodes it passes between are free too), from the free node nearest a to the free node of a's
 * connected part nearest b (each within `snap` m of its point; a map not made by
 * sw_routemap_rasterize needs its values set to 0, or labelled likewise), then pulled taut: from
 * the start, then from each kept corner, the later nodes of the path are taken while the
 * straight line to them is clear -- by clear(p, q, ctx) != 0 when clear is not NULL (the
 * simulator sweeps a disc of the clearance along it against the static obstacles; the first
 * stretch then starts at a itself), else when every node nearest to the line is free -- and the
 * last of them is the next corner.  The route's corners after a go to (*pts)[0 .. n - 1], *pts
 * grown with realloc as needed (*cap entries; *pts may be NULL with *cap 0); the last is b
 * itself, or, when b's own nearest free node lies in another part (a pocket the clearance does
 * not fit into, the far side of a thin wall), that node of a's part: as near as the agent fits.
 * Returns n >= 1; 0 when no free node lies within snap of a, none of a's part within snap of
 * b, or b's node cannot be reached from a's; -1 when out of memory or given NULL or a snap that
 * is not finite and >= 0.  The result depends only on map, a, b, snap, the margin, the avoided
 * discs and the answers of clear. */
SW_API int sw_route_find(sw_route_search *s, sw_vec2 a, sw_vec2 b, double snap,
			 int (*clear)(sw_vec2 p, sw_vec2 q, void *ctx), void *ctx, sw_vec2 **pts,
			 int *cap);

/** Loads a vector field file (format: docs/scenario-format.md).  Returns SW_SUCCESS with a new
 * SW_GRID_VECTOR grid in *out (free with sw_grid_free()), SW_EIO (cannot read) or SW_EINPUT with a diagnostic citing
 * path:line and what was expected, or SW_ENOMEM. */
SW_API int sw_vfield_load(const char *path, sw_grid **out, sw_diag *diag);

/** The prepared fields of one finalised model (the planning step's result): one grid per
 * field the model declares.  Made by sw_plan_fields, read-only afterwards: any number of worlds
 * (sw_world_def.plan) and threads share it.  It keeps a pointer to its model. */
typedef struct sw_plan sw_plan;

/** Prepares every field of m that the model does not hold already (vector fields read with the
 * scenario are held by the model): navigation fields are rasterized and solved -- through the
 * application's store o->store when there is one --,
 * vector fields declared without a grid are loaded from their files.  o may be NULL
 * (defaults: no store).  m is not changed.  Returns SW_SUCCESS with a new plan in *out (free
 * with sw_plan_free, after every world using it), SW_EUSAGE (m NULL or not finalised) or the
 * first failure, with diagnostics.  Pass the plan to worlds in sw_world_def.plan: a world
 * created without one computes the fields its laws use for itself (no cache). */
SW_API int sw_plan_fields(const sw_model *m, const sw_plan_options *o, sw_plan **out,
			  sw_diag *diag);

/** Frees a plan and the grids it made.  NULL is allowed. */
SW_API void sw_plan_free(sw_plan *p);

/** The grid of field k as a world of p's model uses it (the model's own for fields it holds,
 * else the plan's), or NULL when k is out of range. */
SW_API const sw_grid *sw_plan_grid(const sw_plan *p, int k);

/** The model p was made for. */
SW_API const sw_model *sw_plan_model(const sw_plan *p);

/** Builds the grid of model field k (see sw_plan_fields) into *out; the caller owns the new grid
 * (sw_grid_free()). */
SW_API int sw_plan_build_field(const sw_model *m, int k, const sw_plan_options *o, sw_grid **out,
			       sw_solve_stats *stats, sw_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
