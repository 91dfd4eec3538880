/* model/finalize.c - sw_model_finalize: names unique and resolved, the scene checked (start
 * overlaps, fields, periodic worlds, 3-D), then the model frozen (sw_model_frozen detects a later
 * write).  Split from model.c, which builds and checks the records one by one. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "automaton_impl.h"
#include "geom/bucket.h"
#include "model_internal.h"
#include "steer/steer_internal.h"

/* Records sorted by name for check_unique (qsort has no context argument, hence the static
 * base and stride: one finalize at a time per thread). */
static _Thread_local const char *uniq_base;
static _Thread_local size_t uniq_stride;

static int by_name_then_index(const void *pa, const void *pb)
{
	int a = *(const int *)pa, b = *(const int *)pb;
	int c = strcmp(uniq_base + (size_t)a * uniq_stride, uniq_base + (size_t)b * uniq_stride);
	return c ? c : (a > b) - (a < b);
}

static void report_duplicate(const sw_model *m, const char *kind, const char *ni, const char *nj,
			     size_t line_off, sw_diag *diag)
{
	int li = *(const int *)(ni + line_off), lj = *(const int *)(nj + line_off);
	sw_diag_add(diag, SW_SEV_ERROR, m->file, li, 0,
		    "%s name '%s' is already used (line %d); expected a unique name", kind, ni, lj);
}

/* Reports every record whose name an earlier record already has, citing the first one, in the
 * order of the records.  Sorting makes this O(n log n): a 32 MiB scenario holds some 10^5
 * obstacles, and comparing every pair took minutes. */
static void check_unique(const sw_model *m, const char *kind, const void *base, int n,
			 size_t stride, size_t line_off, sw_diag *diag, int *bad_out)
{
	const char *b = base;
	int *order = n > 1 ? malloc(2 * (size_t)n * sizeof *order) : NULL;
	if (!order) { /* one record, or no memory for the index: compare every pair */
		for (int i = 0; i < n; i++)
			for (int j = 0; j < i; j++)
				if (strcmp(b + (size_t)i * stride, b + (size_t)j * stride) == 0) {
					report_duplicate(m, kind, b + (size_t)i * stride,
							 b + (size_t)j * stride, line_off, diag);
					*bad_out = 1;
					break;
				}
		return;
	}
	int *first = order + n; /* first[i]: the earliest record with i's name */
	for (int i = 0; i < n; i++)
		order[i] = i;
	uniq_base = b;
	uniq_stride = stride;
	qsort(order, (size_t)n, sizeof *order, by_name_then_index);
	for (int k = 0, lead = order[0]; k < n; k++) {
		if (k > 0 && strcmp(b + (size_t)order[k - 1] * stride,
				    b + (size_t)order[k] * stride) != 0)
			lead = order[k];
		first[order[k]] = lead;
	}
	for (int i = 0; i < n; i++)
		if (first[i] != i) {
			report_duplicate(m, kind, b + (size_t)i * stride,
					 b + (size_t)first[i] * stride, line_off, diag);
			*bad_out = 1;
		}
	free(order);
}

/* Resolves agent i's object parameters to indices. */
static int resolve_bindings(sw_model *m, int i, sw_diag *diag)
{
	const sw_agent *ag = &m->agents[i];
	const struct sw_automaton *a = m->automata[ag->behaviour];
	int st = SW_SUCCESS;
	for (int j = 0; j < a->n_params; j++) {
		sw_binding *b = &m->bindings[ag->binding_first + j];
		const char *t = b->text;
		switch (a->params[j].kind) {
		case SW_PARAM_REAL: continue;
		case SW_PARAM_TARGET: b->index = sw_model_find_target(m, t); break;
		case SW_PARAM_REGION: b->index = sw_model_find_region(m, t); break;
		case SW_PARAM_OBSTACLE: b->index = sw_model_find_obstacle(m, t); break;
		case SW_PARAM_SIGNAL: b->index = sw_model_find_signal(m, t); break;
		case SW_PARAM_AGENT: b->index = sw_model_find_agent(m, t); break;
		}
		if (b->index < 0) {
			static const char *kind[] = {"number", "target", "region", "obstacle",
						     "signal", "agent"};
			st = sw_diag_add(diag, SW_SEV_ERROR, m->file, b->line, 0,
					 "agent '%s': parameter '%s' of behaviour '%s' is bound to "
					 "'%s', which is not a %s of the scenario",
					 ag->name, a->params[j].name, a->name, t, kind[a->params[j].kind]);
		}
	}
	/* Modes named in in(signal, mode) must exist in some signal bound to the agent. */
	for (int k = 0; k < a->n_names && st == SW_SUCCESS; k++) {
		int found = 0;
		for (int j = 0; j < a->n_params; j++) {
			const sw_binding *b = &m->bindings[ag->binding_first + j];
			if (a->params[j].kind != SW_PARAM_SIGNAL || b->index < 0)
				continue;
			const struct sw_automaton *sa = m->automata[m->signals[b->index].automaton];
			for (int q = 0; q < sa->n_modes; q++)
				found |= strcmp(sa->modes[q].name, a->names[k]) == 0;
		}
		if (!found)
			st = sw_diag_add(diag, SW_SEV_ERROR, m->file, ag->line, 0,
					 "agent '%s': behaviour '%s' tests signal mode '%s', which no "
					 "signal bound to the agent has",
					 ag->name, a->name, a->names[k]);
	}
	return st;
}

/* An agent that starts in a terminal mode (no law, no way out) of a world where done agents
 * leave (run.leave_when_done) is never in the world: where it stands does not matter.  (A
 * SteerSuite agent without goals, such as those placed inside the polygons of the polygon
 * cases.) */
static int absent_from_start(const sw_model *m, const sw_agent *a)
{
	if (!m->run.leave_when_done || a->behaviour < 0)
		return 0;
	const sw_automaton *au = m->automata[a->behaviour];
	const sw_amode *md = &au->modes[au->initial];
	return !md->moves && md->trans_count == 0;
}

/* Hash of the model's own members before frozen_key (a model is calloc'ed: its padding bytes
 * are zero and only change when it is written). */
static uint64_t frozen_key(const sw_model *m)
{
	return sw_hash_bytes(SW_HASH_INIT, m, offsetof(sw_model, frozen_key));
}

/* Obstacle j's bounding box at t = 0 (primitives and polygon vertices, displaced by its motion
 * at 0) into b. */
static void obstacle_box0(const sw_model *m, int j, double b[4])
{
	const sw_obstacle *o = &m->obstacles[j];
	b[0] = b[1] = INFINITY, b[2] = b[3] = -INFINITY;
	for (int k = o->prim_first; k < o->prim_first + o->prim_count; k++) {
		sw_vec2 a, e;
		sw_model_prim_at(m, k, 0.0, &a, &e);
		double r = m->prims[k].is_segment ? 0.0 : m->prims[k].radius;
		if (!m->prims[k].is_segment)
			e = a;
		b[0] = fmin(b[0], fmin(a.x, e.x) - r), b[1] = fmin(b[1], fmin(a.y, e.y) - r);
		b[2] = fmax(b[2], fmax(a.x, e.x) + r), b[3] = fmax(b[3], fmax(a.y, e.y) + r);
	}
	if (o->shape == SW_SHAPE_POLYGON && o->closed) {
		sw_vec2 d = sw_motion_displacement(m, &o->motion, 0.0);
		for (int k = o->first; k < o->first + o->count; k++) {
			double x = m->points[k].x + d.x, y = m->points[k].y + d.y;
			b[0] = fmin(b[0], x), b[1] = fmin(b[1], y);
			b[2] = fmax(b[2], x), b[3] = fmax(b[3], y);
		}
	}
	if (!(b[0] <= b[2] && b[1] <= b[3]))
		b[0] = b[1] = b[2] = b[3] = NAN; /* no extent known: the grid's wide list */
}

/* Start overlaps: each agent present from the start against each obstacle it overlaps, in
 * obstacle order.  The obstacles' boxes at t = 0 are kept in a grid (geom/bucket.h) and only
 * those within an agent's radius of it are measured: one left out is clear of it by a margin far
 * above any rounding (the same messages as measuring every pair, at a cost linear in the agents
 * for 5000 agents among 5000 boxes).  Without memory for the grid every pair is measured. */
static void check_start_overlaps(const sw_model *m, sw_diag *diag, int *badf)
{
	double rmax = 0.0;
	for (int i = 0; i < m->n_agents; i++)
		rmax = fmax(rmax, m->agents[i].radius);
	sw_bucket g;
	int cap = m->n_obstacles + 64, *cand = malloc((size_t)cap * sizeof *cand);
	int indexed = cand && sw__bucket_init(&g, fmax(4.0 * rmax, 1.0), m->n_obstacles) ==
				      SW_SUCCESS;
	for (int j = 0; indexed && j < m->n_obstacles; j++) {
		double b[4];
		obstacle_box0(m, j, b);
		if (sw__bucket_add(&g, j, b) != SW_SUCCESS) {
			sw__bucket_free(&g);
			indexed = 0;
		}
	}
	if (indexed)
		sw__bucket_pack(&g); /* (without memory for it, the lists serve) */
	for (int i = 0; i < m->n_agents; i++) {
		const sw_agent *a = &m->agents[i];
		if (absent_from_start(m, a))
			continue;
		sw_vec2 p = a->position;
		double s = a->radius + 1e-6 * (1.0 + fabs(p.x) + fabs(p.y) + a->radius);
		double q[4] = {p.x - s, p.y - s, p.x + s, p.y + s};
		int n = indexed ? sw__bucket_query(&g, q, cand, cap) : -1;
		for (int e = 0; n >= 0 ? e < n : e < m->n_obstacles; e++) {
			int j = n >= 0 ? cand[e] : e;
			double c = sw_model_obstacle_clearance(m, j, 0.0, p, a->radius);
			if (c < 0.0) {
				sw_diag_add(diag, SW_SEV_ERROR, m->file, a->line, 0,
					    "agent '%s' starts overlapping obstacle '%s' (line %d) "
					    "by %.3g m; expected a start position clear of every "
					    "obstacle",
					    a->name, m->obstacles[j].name, m->obstacles[j].line, -c);
				*badf = 1;
			}
		}
	}
	if (indexed)
		sw__bucket_free(&g);
	free(cand);
}

int sw_model_finalize(sw_model *m, sw_diag *diag)
{
	if (!m || m->finalized)
		return SW_EUSAGE;
	int badf = 0;
	check_unique(m, "obstacle", m->obstacles, m->n_obstacles, sizeof *m->obstacles,
		     offsetof(sw_obstacle, line), diag, &badf);
	check_unique(m, "target", m->targets, m->n_targets, sizeof *m->targets,
		     offsetof(sw_target, line), diag, &badf);
	check_unique(m, "agent", m->agents, m->n_agents, sizeof *m->agents,
		     offsetof(sw_agent, line), diag, &badf);
	/* Name indexes for the lookups of finalisation (bindings) and of later users. */
	if (sw__names_build(m, SW_NAMES_OBSTACLE) != SW_SUCCESS ||
	    sw__names_build(m, SW_NAMES_TARGET) != SW_SUCCESS ||
	    sw__names_build(m, SW_NAMES_AGENT) != SW_SUCCESS)
		return SW_ENOMEM;
	if (m->n_agents == 0) {
		sw_diag_add(diag, SW_SEV_ERROR, m->file, 0, 0,
			    "the scenario has no agent; expected at least one <agent>");
		badf = 1;
	}
	check_start_overlaps(m, diag, &badf);
	for (int i = 0; i < m->n_agents; i++) {
		sw_agent *a = &m->agents[i];
		/* Courage drawn per agent is applied by the world that draws it. */
		if (a->personality.courage_dist.kind == SW_TRAIT_FIXED)
			sw__law_personalize(&a->steer, &a->personality);
	}
	check_unique(m, "region", m->regions, m->n_regions, sizeof *m->regions,
		     offsetof(sw_region, line), diag, &badf);
	check_unique(m, "signal", m->signals, m->n_signals, sizeof *m->signals,
		     offsetof(sw_signal, line), diag, &badf);
	for (int i = 0; i < m->n_agents; i++)
		if (m->agents[i].behaviour >= 0 && resolve_bindings(m, i, diag) != SW_SUCCESS)
			badf = 1;
	if (sw__check_fields(m, diag) != SW_SUCCESS)
		badf = 1;
	if (sw__check_model3(m, diag) != SW_SUCCESS) /* model3.c */
		badf = 1;
	if (sw__check_periodic(m, diag) != SW_SUCCESS) /* periodic.c */
		badf = 1;
	if (badf)
		return SW_EINPUT;
	sw__advise_integrator(m, diag);
	m->finalized = 1;
	m->frozen_at = m;
	m->frozen_key = frozen_key(m);
	return SW_SUCCESS;
}

int sw_model_frozen(const sw_model *m)
{
	return m && m->finalized && (m->frozen_at != m || m->frozen_key == frozen_key(m));
}
