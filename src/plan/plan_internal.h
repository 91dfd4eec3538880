/* plan/plan_internal.h - what the plan module's files share: the priority queue and the
 * 16-neighbour stencil of the shortest-path searches (distance.c's fields, route.c's routes),
 * and the obstacle rasterization (grid.c). */
#ifndef SW_PLAN_INTERNAL_H
#define SW_PLAN_INTERNAL_H

#include <stddef.h>

#include "swerve/plan.h"

/* A binary min-heap of (key, node) pairs (distance.c).  None of swerve's libraries (GSL,
 * libxml2, cairo, Check) offers a priority queue for C, and the heap is twenty lines. */
typedef struct sw__heap_item {
	double d;
	size_t k;
} sw__heap_item;

typedef struct sw__heap {
	sw__heap_item *a;
	size_t n, cap;
} sw__heap;

/* Returns 0 when out of memory (the heap is unchanged), else 1. */
int sw__heap_push(sw__heap *h, double d, size_t k);
/* The smallest key's item; h->n > 0. */
sw__heap_item sw__heap_pop(sw__heap *h);

/* A move of the stencil: (di, dj), its length in node spacings, and for a move that is not to a
 * direct neighbour the two nodes it passes between (offsets (ai, aj), (bi, bj)), which must be
 * passable; between = 0 for the four direct neighbours. */
typedef struct sw__move {
	int di, dj, ai, aj, bi, bj, between;
	double len;
} sw__move;

/* The 16 moves: the 8 neighbours and the 8 knight moves (distance.c).  Shortest paths over them
 * exceed the Euclidean distance by at most 2.8 %. */
enum { SW__STENCIL = 16 };
void sw__stencil16(sw__move mv[SW__STENCIL]);

/* Marks as fixed every node of g (any area) within `clearance` of a static obstacle or inside a
 * closed polygon, and the border nodes (grid.c). */
void sw__mark_obstacles(const sw_model *m, sw_grid *g, double clearance);

/* The rectangle a planning grid covers by default: the static obstacles, the targets and the
 * agents' start discs, grown by margin (grid.c). */
void sw__world_area(const sw_model *m, double margin, double area[4]);

/* Labels the connected parts of a route map's free nodes (moves of the stencil between free
 * nodes, as the route search makes them): v = 1, 2, ... per part, 0 on fixed nodes (route.c).
 * Returns SW_SUCCESS or SW_ENOMEM. */
int sw__route_components(sw_grid *g);

#endif
