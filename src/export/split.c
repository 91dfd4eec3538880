/* export/split.c - independent systems of an export: agents that cannot perceive each other.
 *
 * HyST flattens a SpaceEx network into one product automaton, whose size is the product of the
 * instances' locations and whose dimension is the sum of their variables, and Flow*'s cost grows
 * steeply with both.  Agents that neither read each other's variables nor synchronise on a label
 * are independent: the product of their systems is exactly the system of their products, and an
 * unsafe set that reads one of them is reachable in the network iff it is in that agent's own
 * system.  So each group of coupled agents is written as its own network, with the signals and
 * the clock it reads (autonomous instances: they read no agent and share no label with one, so
 * copying them into several groups changes nothing), and the unsafe sets that read it.
 *
 * Coupling is the union of: an instance reads a variable another non-autonomous instance
 * controls; two instances share a network label.  A group's network is a view of the whole one:
 * it shares the components' and instances' contents and owns its arrays, its variable and label
 * lists (in the order of the whole network) and copies of its unsafe sets with their variables
 * renumbered. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"

static int find(int *up, int i)
{
	while (up[i] != i)
		i = up[i] = up[up[i]];
	return i;
}

static void unite(int *up, int a, int b)
{
	a = find(up, a);
	b = find(up, b);
	if (a != b)
		up[a > b ? a : b] = a < b ? a : b;
}

/* Instance controlling network variable name (-1 when none). */
static int controller(const sw_hybrid *h, const char *name)
{
	for (int i = 0; i < h->n_instances; i++) {
		const sw_hinstance *in = &h->instances[i];
		const sw_hcomponent *c = &h->components[in->component];
		for (int k = 0; k < c->n_state; k++)
			if (strcmp(in->map[k], name) == 0)
				return i;
	}
	return -1;
}

/* Whether instances i and j share a network label. */
static int share_label(const sw_hybrid *h, int i, int j)
{
	const sw_hinstance *a = &h->instances[i], *b = &h->instances[j];
	int na = h->components[a->component].n_labels, nb = h->components[b->component].n_labels;
	for (int p = 0; p < na; p++)
		for (int q = 0; q < nb; q++)
			if (strcmp(a->label_map[p], b->label_map[q]) == 0)
				return 1;
	return 0;
}

/* Whether instance i reads a variable instance j controls. */
static int reads_from(const sw_hybrid *h, int i, int j)
{
	const sw_hinstance *in = &h->instances[i];
	const sw_hcomponent *c = &h->components[in->component];
	for (int k = c->n_state; k < c->n_vars; k++)
		if (in->map[k][0] && controller(h, in->map[k]) == j)
			return 1;
	return 0;
}

/* Network variables the tree reads (slots), marked in used[]. */
static void set_vars(const sw_expr_ast *a, char *used, int n)
{
	if (a->op == SW_EXPR_VAR && a->slot >= 0 && a->slot < n)
		used[a->slot] = 1;
	for (int i = 0; i < a->nkid; i++)
		set_vars(a->kid[i], used, n);
}

/* Renumbers the variables of a (slots of the whole network) by map (-1: not in the part). */
static int renumber(sw_expr_ast *a, const int *map)
{
	if (a->op == SW_EXPR_VAR) {
		if (a->slot < 0 || map[a->slot] < 0)
			return -1;
		a->slot = map[a->slot];
	}
	for (int i = 0; i < a->nkid; i++)
		if (renumber(a->kid[i], map) != 0)
			return -1;
	return 0;
}

void sw_hybrid_parts_free(sw_hybrid **parts, int n)
{
	for (int p = 0; parts && p < n; p++) {
		sw_hybrid *v = parts[p];
		if (!v)
			continue;
		free(v->components);
		free(v->instances);
		free(v->netvars);
		free(v->netlabels);
		for (int k = 0; k < v->n_forbidden; k++)
			sw_expr_ast_free(v->forbidden[k].set);
		free(v->forbidden);
		free(v);
	}
	free(parts);
}

/* The part of h made of the instances with in_part[i] set and the unsafe sets with
 * set_part[k] == p (NULL when memory runs out or a set reads outside the part). */
static sw_hybrid *make_part(const sw_hybrid *h, const char *in_part, const int *set_part, int p)
{
	sw_hybrid *v = calloc(1, sizeof *v);
	int *comp_map = malloc(((size_t)h->n_components + 1) * sizeof *comp_map);
	int *var_map = malloc(((size_t)h->n_netvars + 1) * sizeof *var_map);
	if (!v || !comp_map || !var_map)
		goto fail;
	*v = *h;
	v->def.scenario = v->scenario;
	v->def.directions = v->directions;
	v->components = calloc((size_t)h->n_components + 1, sizeof *v->components);
	v->instances = calloc((size_t)h->n_instances + 1, sizeof *v->instances);
	v->netvars = calloc((size_t)h->n_netvars + 1, sizeof *v->netvars);
	v->netlabels = calloc((size_t)h->n_netlabels + 1, sizeof *v->netlabels);
	v->forbidden = calloc((size_t)h->n_forbidden + 1, sizeof *v->forbidden);
	v->n_components = v->n_instances = v->n_netvars = v->n_netlabels = v->n_forbidden = 0;
	if (!v->components || !v->instances || !v->netvars || !v->netlabels || !v->forbidden)
		goto fail;
	const char *first = NULL;
	for (int c = 0; c < h->n_components; c++)
		comp_map[c] = -1;
	for (int i = 0; i < h->n_instances; i++) {
		if (!in_part[i])
			continue;
		const sw_hinstance *in = &h->instances[i];
		if (comp_map[in->component] < 0) {
			comp_map[in->component] = v->n_components;
			v->components[v->n_components++] = h->components[in->component];
		}
		v->instances[v->n_instances] = *in;
		v->instances[v->n_instances++].component = comp_map[in->component];
		if (!first && in->agent >= 0)
			first = in->name;
	}
	/* the whole network's variables and labels that the part's instances bind, in order */
	for (int k = 0; k < h->n_netvars; k++) {
		var_map[k] = -1;
		for (int i = 0; var_map[k] < 0 && i < h->n_instances; i++) {
			const sw_hinstance *in = &h->instances[i];
			const sw_hcomponent *c = &h->components[in->component];
			for (int j = 0; in_part[i] && j < c->n_vars; j++)
				if (strcmp(in->map[j], h->netvars[k]) == 0) {
					var_map[k] = v->n_netvars;
					memcpy(v->netvars[v->n_netvars++], h->netvars[k],
					       sizeof *v->netvars);
					break;
				}
		}
	}
	for (int k = 0; k < h->n_netlabels; k++) {
		int used = 0;
		for (int i = 0; !used && i < h->n_instances; i++) {
			const sw_hinstance *in = &h->instances[i];
			const sw_hcomponent *c = &h->components[in->component];
			for (int j = 0; in_part[i] && j < c->n_labels; j++)
				used |= strcmp(in->label_map[j], h->netlabels[k]) == 0;
		}
		if (used)
			memcpy(v->netlabels[v->n_netlabels++], h->netlabels[k], sizeof *v->netlabels);
	}
	for (int k = 0; k < h->n_forbidden; k++) {
		if (set_part[k] != p)
			continue;
		sw_hforbidden *f = &v->forbidden[v->n_forbidden++];
		*f = h->forbidden[k];
		if (!(f->set = sw_expr_ast_clone(h->forbidden[k].set)) ||
		    renumber(f->set, var_map) != 0)
			goto fail;
	}
	/* NAME__AGENT, each half cut to fit an identifier of SW_NAME_MAX */
	int half = (int)sizeof v->name / 2 - 2;
	snprintf(v->name, sizeof v->name, "%.*s__%.*s", half, h->name, half - 1,
		 first ? first : "signals");
	free(comp_map);
	free(var_map);
	return v;
fail:
	free(comp_map);
	free(var_map);
	if (v)
		sw_hybrid_parts_free(&v, 1), v = NULL;
	return NULL;
}

int sw_hybrid_parts(const sw_hybrid *h, sw_hybrid ***parts, int *n_parts)
{
	if (!h || !parts || !n_parts)
		return SW_EUSAGE;
	*parts = NULL;
	*n_parts = 0;
	int n = h->n_instances, st = SW_ENOMEM, agents = 0;
	int *up = malloc(((size_t)n + 1) * sizeof *up);
	char *autonomous = calloc((size_t)n + 1, 1), *in_part = calloc((size_t)n + 1, 1);
	int *set_part = calloc((size_t)h->n_forbidden + 1, sizeof *set_part);
	int *group = malloc(((size_t)n + 1) * sizeof *group);
	char *used = calloc((size_t)h->n_netvars + 1, 1);
	if (!up || !autonomous || !in_part || !set_part || !group || !used)
		goto done;
	for (int i = 0; i < n; i++) {
		up[i] = i;
		agents += h->instances[i].agent >= 0;
	}
	/* autonomous: not an agent, reads no agent, shares no label with one */
	for (int i = 0; i < n; i++) {
		autonomous[i] = h->instances[i].agent < 0;
		for (int j = 0; autonomous[i] && j < n; j++)
			if (j != i && h->instances[j].agent >= 0 &&
			    (reads_from(h, i, j) || share_label(h, i, j)))
				autonomous[i] = 0;
	}
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if (i != j && !autonomous[i] && !autonomous[j] &&
			    (reads_from(h, i, j) || share_label(h, i, j)))
				unite(up, i, j);
	/* groups: classes of non-autonomous instances, numbered in instance order */
	int ng = 0;
	for (int i = 0; i < n; i++)
		group[i] = -1;
	for (int i = 0; i < n; i++) {
		if (autonomous[i])
			continue;
		int r = find(up, i);
		if (group[r] < 0)
			group[r] = ng++;
		group[i] = group[r];
	}
	/* each unsafe set belongs to the one group whose variables it reads */
	int split = ng > 1 && agents > 1;
	for (int k = 0; split && k < h->n_forbidden; k++) {
		memset(used, 0, (size_t)h->n_netvars);
		set_vars(h->forbidden[k].set, used, h->n_netvars);
		set_part[k] = -1;
		for (int v = 0; v < h->n_netvars; v++) {
			int i = used[v] ? controller(h, h->netvars[v]) : -1;
			if (i < 0 || autonomous[i])
				continue;
			if (set_part[k] >= 0 && set_part[k] != group[i])
				split = 0; /* a set across groups: they interact after all */
			set_part[k] = group[i];
		}
		if (set_part[k] < 0)
			split = 0;
	}
	if (!split) {
		st = SW_SUCCESS; /* one system: the whole network */
		goto done;
	}
	sw_hybrid **out = calloc((size_t)ng + 1, sizeof *out);
	if (!out)
		goto done;
	for (int p = 0; p < ng; p++) {
		/* the group with the autonomous instances it reads (closed under reading) */
		for (int i = 0; i < n; i++)
			in_part[i] = !autonomous[i] && group[i] == p;
		for (int changed = 1; changed;) {
			changed = 0;
			for (int i = 0; i < n; i++)
				for (int j = 0; in_part[i] && j < n; j++)
					if (autonomous[j] && !in_part[j] && reads_from(h, i, j))
						in_part[j] = changed = 1;
		}
		if (!(out[p] = make_part(h, in_part, set_part, p))) {
			sw_hybrid_parts_free(out, p);
			goto done;
		}
	}
	*parts = out;
	*n_parts = ng;
	st = SW_SUCCESS;
done:
	free(up);
	free(autonomous);
	free(in_part);
	free(set_part);
	free(group);
	free(used);
	return st;
}
