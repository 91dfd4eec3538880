/* export/ir.c - the hybrid-automaton IR: defaults, names, storage, comparison, freeing. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"

static const char *profile_names[SW_PROFILE_COUNT] = {"exact", "spaceex", "hyst", "juliareach"};

sw_export_def sw_default_export_def(void)
{
	sw_export_def d;
	memset(&d, 0, sizeof d);
	d.profile = SW_PROFILE_SPACEEX;
	d.scenario = "supp";
	d.directions = "oct";
	d.sampling_time = 0.0;
	d.time_horizon = 0.0;
	d.iter_max = -1;
	d.rel_err = 1e-12;
	d.abs_err = 1e-13;
	d.max_disjuncts = 16;
	return d;
}

const char *sw_export_profile_name(sw_export_profile p)
{
	return (unsigned)p < SW_PROFILE_COUNT ? profile_names[p] : "?";
}

int sw_export_profile_parse(const char *name, sw_export_profile *out)
{
	for (int p = 0; name && p < SW_PROFILE_COUNT; p++)
		if (strcmp(name, profile_names[p]) == 0) {
			*out = (sw_export_profile)p;
			return SW_SUCCESS;
		}
	return SW_EINPUT;
}

int xi_grow(void **p, int *cap, int need, size_t size)
{
	if (need <= *cap)
		return SW_SUCCESS;
	int nc = *cap ? *cap : 8;
	while (nc < need)
		nc *= 2;
	void *q = realloc(*p, (size_t)nc * size);
	if (!q)
		return SW_ENOMEM;
	memset((char *)q + (size_t)*cap * size, 0, (size_t)(nc - *cap) * size);
	*p = q;
	*cap = nc;
	return SW_SUCCESS;
}

void xi_ident(char *dst, size_t n, const char *src)
{
	size_t k = 0;
	if (n == 0)
		return;
	if (!src || !src[0])
		src = "_";
	if (isdigit((unsigned char)src[0]) && k + 1 < n)
		dst[k++] = '_';
	for (; *src && k + 1 < n; src++)
		dst[k++] = (isalnum((unsigned char)*src) || *src == '_') && !((unsigned char)*src & 0x80)
				   ? *src
				   : '_';
	dst[k] = '\0';
}

int xi_add_var(sw_hcomponent *c, const char *name, sw_hvar_role role, const char *meaning)
{
	for (int k = 0; k < c->n_vars; k++)
		if (strcmp(c->vars[k].name, name) == 0)
			return k;
	void *p = realloc(c->vars, (size_t)(c->n_vars + 1) * sizeof *c->vars);
	if (!p)
		return -1;
	c->vars = p;
	sw_hvar *v = &c->vars[c->n_vars];
	memset(v, 0, sizeof *v);
	snprintf(v->name, sizeof v->name, "%s", name);
	v->role = role;
	snprintf(v->meaning, sizeof v->meaning, "%s", meaning ? meaning : "");
	if (role == SW_HVAR_STATE)
		c->n_state++;
	return c->n_vars++;
}

int sw_hcomponent_find_var(const sw_hcomponent *c, const char *name)
{
	for (int k = 0; c && name && k < c->n_vars; k++)
		if (strcmp(c->vars[k].name, name) == 0)
			return k;
	return -1;
}

void xi_component_clear(sw_hcomponent *c)
{
	for (int q = 0; c->locations && q < c->n_locations; q++) {
		sw_hlocation *l = &c->locations[q];
		for (int k = 0; l->flow && k < c->n_state; k++)
			sw_expr_ast_free(l->flow[k]);
		free(l->flow);
		sw_expr_ast_free(l->invariant);
	}
	for (int t = 0; c->transitions && t < c->n_transitions; t++) {
		sw_htransition *tr = &c->transitions[t];
		sw_expr_ast_free(tr->guard);
		for (int k = 0; tr->reset && k < c->n_state; k++)
			sw_expr_ast_free(tr->reset[k]);
		free(tr->reset);
	}
	for (int k = 0; c->vars && k < c->n_vars; k++)
		sw_expr_ast_free(c->vars[k].lifted);
	free(c->locations);
	free(c->transitions);
	free(c->vars);
	free(c->labels);
	memset(c, 0, sizeof *c);
}

int xi_component_equal(const sw_hcomponent *a, const sw_hcomponent *b)
{
	if (a->n_vars != b->n_vars || a->n_state != b->n_state || a->n_labels != b->n_labels ||
	    a->n_locations != b->n_locations || a->n_transitions != b->n_transitions)
		return 0;
	for (int k = 0; k < a->n_vars; k++)
		if (strcmp(a->vars[k].name, b->vars[k].name) != 0 || a->vars[k].role != b->vars[k].role ||
		    !sw_expr_ast_equal(a->vars[k].lifted, b->vars[k].lifted))
			return 0;
	for (int k = 0; k < a->n_labels; k++)
		if (strcmp(a->labels[k], b->labels[k]) != 0)
			return 0;
	for (int q = 0; q < a->n_locations; q++) {
		const sw_hlocation *la = &a->locations[q], *lb = &b->locations[q];
		if (strcmp(la->name, lb->name) != 0 || !sw_expr_ast_equal(la->invariant, lb->invariant))
			return 0;
		for (int k = 0; k < a->n_state; k++)
			if (!sw_expr_ast_equal(la->flow[k], lb->flow[k]))
				return 0;
	}
	for (int t = 0; t < a->n_transitions; t++) {
		const sw_htransition *ta = &a->transitions[t], *tb = &b->transitions[t];
		if (ta->source != tb->source || ta->target != tb->target ||
		    strcmp(ta->label, tb->label) != 0 || !sw_expr_ast_equal(ta->guard, tb->guard))
			return 0;
		for (int k = 0; k < a->n_state; k++)
			if (!sw_expr_ast_equal(ta->reset[k], tb->reset[k]))
				return 0;
	}
	return 1;
}

void sw_hybrid_free(sw_hybrid *h)
{
	if (!h)
		return;
	for (int c = 0; h->components && c < h->n_components; c++)
		xi_component_clear(&h->components[c]);
	for (int i = 0; h->instances && i < h->n_instances; i++) {
		free(h->instances[i].map);
		free(h->instances[i].label_map);
		free(h->instances[i].init_lo);
		free(h->instances[i].init_hi);
	}
	for (int f = 0; h->forbidden && f < h->n_forbidden; f++)
		sw_expr_ast_free(h->forbidden[f].set);
	free(h->components);
	free(h->instances);
	free(h->netvars);
	free(h->netlabels);
	free(h->forbidden);
	free(h->approx);
	free(h);
}
