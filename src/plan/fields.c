/* plan/fields.c - preparing the fields a model declares (<navfield>, <vectorfield>): the
 * planning step whose result (an sw_plan) worlds receive through sw_world_def.plan.  The model
 * is never written; the only files read are the vector-field files a model names without
 * holding their grid (solved fields are kept by the application's store, if any). */
#include <stdlib.h>
#include <string.h>

#include "swerve/plan.h"

struct sw_plan {
	const sw_model *m;
	int n;
	sw_grid **own;          /* per field: the grid made here, or NULL */
	const sw_grid **grid;   /* per field: what a world uses (the model's or own) */
};

sw_plan_options sw_default_plan_options(void)
{
	sw_plan_options o = {.store = NULL, .solver = sw_default_solver_def()};
	return o;
}

int sw_plan_build_field(const sw_model *m, int k, const sw_plan_options *o, sw_grid **out,
			sw_solve_stats *stats, sw_diag *diag)
{
	*out = NULL;
	if (!m || k < 0 || k >= m->n_fields)
		return SW_EUSAGE;
	sw_plan_options def = sw_default_plan_options();
	if (!o)
		o = &def;
	const sw_model_field *f = &m->fields[k];
	if (f->kind == SW_FIELD_VECTOR)
		return sw_vfield_load(f->file, out, diag);
	double clearance = f->clearance;
	if (clearance < 0.0) {
		clearance = 0.0;
		for (int i = 0; i < m->n_agents; i++)
			if (m->agents[i].radius > clearance)
				clearance = m->agents[i].radius;
	}
	sw_grid *g = NULL;
	int st = f->has_area ? sw_navgrid_rasterize_area(m, f->target, f->resolution, clearance,
							 f->area, f->line, &g, diag)
			     : sw_navgrid_rasterize(m, f->target, f->resolution, clearance,
						    f->margin, f->line, &g, diag);
	if (st != SW_SUCCESS)
		return st;
	if (f->method == SW_NAV_DISTANCE)
		st = sw_navgrid_distance(g);
	else
		st = sw_navgrid_solve_stored(g, &o->solver, o->store, stats, diag);
	if (st != SW_SUCCESS) {
		sw_grid_free(g);
		return st;
	}
	*out = g;
	return SW_SUCCESS;
}

int sw_plan_fields(const sw_model *m, const sw_plan_options *o, sw_plan **out, sw_diag *diag)
{
	*out = NULL;
	if (!m || !m->finalized)
		return SW_EUSAGE;
	sw_plan *p = calloc(1, sizeof *p);
	if (!p)
		return SW_ENOMEM;
	p->m = m;
	p->n = m->n_fields;
	p->own = calloc((size_t)p->n + 1, sizeof *p->own);
	p->grid = calloc((size_t)p->n + 1, sizeof *p->grid);
	if (!p->own || !p->grid) {
		sw_plan_free(p);
		return SW_ENOMEM;
	}
	for (int k = 0; k < p->n; k++) {
		if (m->fields[k].grid) {
			p->grid[k] = m->fields[k].grid;
			continue;
		}
		int st = sw_plan_build_field(m, k, o, &p->own[k], NULL, diag);
		if (st != SW_SUCCESS) {
			sw_plan_free(p);
			return st;
		}
		p->grid[k] = p->own[k];
	}
	*out = p;
	return SW_SUCCESS;
}

void sw_plan_free(sw_plan *p)
{
	if (!p)
		return;
	for (int k = 0; p->own && k < p->n; k++)
		sw_grid_free(p->own[k]);
	free(p->own);
	free((void *)p->grid);
	free(p);
}

const sw_grid *sw_plan_grid(const sw_plan *p, int k)
{
	return p && k >= 0 && k < p->n ? p->grid[k] : NULL;
}

const sw_model *sw_plan_model(const sw_plan *p)
{
	return p ? p->m : NULL;
}
