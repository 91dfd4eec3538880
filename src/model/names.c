/* model/names.c - name lookups in O(log n) for scenarios with 10^5-10^6 objects.
 *
 * Targets, agents and obstacles are found by name while a scenario is built (an agent names its
 * target) and when it is finalised (bindings); a linear search made that quadratic.  Each
 * kind gets a sorted array of pointers to its records' names (the name is the first member of
 * sw_target, sw_agent and sw_obstacle, so a record's index is its offset from the array start
 * over the record size), built with qsort and searched with bsearch.  An index is rebuilt when
 * its array grew or moved since it was built; until then lookups fall back to a linear search,
 * so a stale index never gives a wrong answer. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

_Static_assert(offsetof(sw_target, name) == 0, "a target's name must be its first member");
_Static_assert(offsetof(sw_agent, name) == 0, "an agent's name must be its first member");
_Static_assert(offsetof(sw_obstacle, name) == 0, "an obstacle's name must be its first member");

static int cmp_name(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int c = strcmp(x, y);
	return c ? c : (x > y) - (x < y); /* equal names: in record order */
}

/* The records of a kind: base, count and record size. */
static void records(const sw_model *m, int kind, const char **base, int *n, size_t *stride)
{
	switch (kind) {
	case SW_NAMES_TARGET:
		*base = (const char *)m->targets, *n = m->n_targets, *stride = sizeof *m->targets;
		break;
	case SW_NAMES_AGENT:
		*base = (const char *)m->agents, *n = m->n_agents, *stride = sizeof *m->agents;
		break;
	default:
		*base = (const char *)m->obstacles, *n = m->n_obstacles;
		*stride = sizeof *m->obstacles;
		break;
	}
}

int sw__names_build(sw_model *m, int kind)
{
	const char *base;
	int n;
	size_t stride;
	records(m, kind, &base, &n, &stride);
	sw_name_index *ix = &m->names[kind];
	if (ix->n == n && ix->base == base)
		return SW_SUCCESS;
	const char **p = realloc(ix->sorted, ((size_t)n + 1) * sizeof *p);
	if (!p)
		return SW_ENOMEM;
	for (int i = 0; i < n; i++)
		p[i] = base + (size_t)i * stride;
	qsort(p, (size_t)n, sizeof *p, cmp_name);
	ix->sorted = p;
	ix->n = n;
	ix->base = base;
	return SW_SUCCESS;
}

void sw__names_free(sw_model *m)
{
	for (int k = 0; k < SW_NAMES_KINDS; k++)
		free(m->names[k].sorted);
}

static int cmp_key(const void *key, const void *elem)
{
	return strcmp((const char *)key, *(const char *const *)elem);
}

int sw__names_find(const sw_model *m, int kind, const char *name)
{
	const char *base;
	int n;
	size_t stride;
	records(m, kind, &base, &n, &stride);
	const sw_name_index *ix = &m->names[kind];
	if (ix->n == n && ix->base == base && n > 0) {
		const char *const *hit = bsearch(name, ix->sorted, (size_t)n, sizeof *ix->sorted, cmp_key);
		if (!hit)
			return -1;
		while (hit > ix->sorted && strcmp(hit[-1], name) == 0)
			hit--; /* the first record of that name */
		return (int)((size_t)(*hit - base) / stride);
	}
	for (int i = 0; i < n; i++)
		if (strcmp(base + (size_t)i * stride, name) == 0)
			return i;
	return -1;
}
