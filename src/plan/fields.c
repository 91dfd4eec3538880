/* plan/fields.c - preparing the fields a model declares (<navfield>, <vectorfield>). */
#include <string.h>

#include "swerve/plan.h"

sw_plan_options sw_default_plan_options(void)
{
	sw_plan_options o = {.cache_dir = NULL, .solver = sw_default_solver_def()};
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
	char dir[4096];
	if (f->method == SW_NAV_DISTANCE)
		st = sw_navgrid_distance(g);
	else
		st = sw_navgrid_solve_cached(g, &o->solver, sw_plan_cache_dir(o, dir, sizeof dir),
					     stats, diag);
	if (st != SW_SUCCESS) {
		sw_grid_free(g);
		return st;
	}
	*out = g;
	return SW_SUCCESS;
}

int sw_plan_prepare(sw_model *m, const sw_plan_options *o, sw_diag *diag)
{
	if (!m)
		return SW_EUSAGE;
	for (int k = 0; k < m->n_fields; k++) {
		if (m->fields[k].grid)
			continue;
		sw_grid *g = NULL;
		int st = sw_plan_build_field(m, k, o, &g, NULL, diag);
		if (st != SW_SUCCESS)
			return st;
		m->fields[k].grid = g;
		m->fields[k].grid_free = sw_grid_free;
	}
	return SW_SUCCESS;
}
