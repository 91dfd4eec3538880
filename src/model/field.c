/* model/field.c - world fields (<navfield>, <vectorfield>): declarations checked and stored in
 * the model, and the check that every field a law names exists.  Solving and loading the fields
 * is the plan module's job (sw_plan_prepare). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/automaton_impl.h"
#include "swerve/model.h"

sw_field_def sw_default_field_def(void)
{
	sw_field_def d = {.name = NULL,
			  .line = 0,
			  .kind = SW_FIELD_NAV,
			  .target = NULL,
			  .resolution = 0.1,
			  .clearance = -1.0,
			  .margin = 2.0,
			  .file = NULL};
	return d;
}

int sw_model_set_routes(sw_model *m, double resolution, double clearance, int line,
			sw_diag *diag)
{
	if (!m || m->finalized)
		return SW_EUSAGE;
	if (!(resolution > 0.0) || !isfinite(resolution))
		return sw_diag_add(diag, SW_SEV_ERROR, m->file, line, 0,
				   "routes: resolution = %g, expected a positive node spacing, m",
				   resolution);
	if (!isfinite(clearance))
		return sw_diag_add(diag, SW_SEV_ERROR, m->file, line, 0,
				   "routes: clearance = %g, expected a finite distance, m (negative: "
				   "the largest agent radius)",
				   clearance);
	m->routes = (sw_routes_def){resolution, clearance, line};
	return SW_SUCCESS;
}

int sw_model_find_field(const sw_model *m, const char *name)
{
	for (int k = 0; name && k < m->n_fields; k++)
		if (strcmp(m->fields[k].name, name) == 0)
			return k;
	return -1;
}

int sw_model_add_field(sw_model *m, const sw_field_def *def, sw_diag *diag)
{
	if (!m || !def || m->finalized)
		return SW_EUSAGE;
	const char *name = def->name ? def->name : "";
	if (!name[0] || strlen(name) >= SW_NAME_MAX)
		return sw_diag_add(diag, SW_SEV_ERROR, m->file, def->line, 0,
				   "field: a name of 1 to %d characters is required",
				   SW_NAME_MAX - 1);
	if (strcmp(name, SW_FIELD_AUTO) == 0)
		return sw_diag_add(diag, SW_SEV_ERROR, m->file, def->line, 0,
				   "field name '%s' is reserved (a law's field=\"%s\" means the "
				   "navigation field of its target); expected another name",
				   name, name);
	if (sw_model_find_field(m, name) >= 0)
		return sw_diag_add(diag, SW_SEV_ERROR, m->file, def->line, 0,
				   "field name '%s' is already used (line %d); expected a unique "
				   "name",
				   name, m->fields[sw_model_find_field(m, name)].line);
	sw_model_field f;
	memset(&f, 0, sizeof f);
	snprintf(f.name, sizeof f.name, "%s", name);
	f.line = def->line;
	f.kind = def->kind;
	f.target = -1;
	f.resolution = def->resolution;
	f.clearance = def->clearance;
	f.margin = def->margin;
	f.method = def->method;
	if (def->kind == SW_FIELD_NAV) {
		if ((unsigned)def->method > SW_NAV_DISTANCE)
			return sw_diag_add(diag, SW_SEV_ERROR, m->file, def->line, 0,
					   "navigation field '%s': method %d, expected harmonic or "
					   "distance",
					   name, (int)def->method);
		f.target = sw_model_find_target(m, def->target);
		if (f.target < 0)
			return sw_diag_add(diag, SW_SEV_ERROR, m->file, def->line, 0,
					   "navigation field '%s': target '%s' is not a target of "
					   "the scenario (targets must come before the field)",
					   name, def->target ? def->target : "");
		if (m->targets[f.target].motion.kind != SW_MOTION_NONE)
			return sw_diag_add(diag, SW_SEV_ERROR, m->file, def->line, 0,
					   "navigation field '%s': target '%s' moves; expected a "
					   "static target",
					   name, def->target);
		if (!(isfinite(def->resolution) && def->resolution > 0.0))
			return sw_diag_add(diag, SW_SEV_ERROR, m->file, def->line, 0,
					   "navigation field '%s': resolution = %g, expected a "
					   "finite number > 0",
					   name, def->resolution);
		if (!(isfinite(def->margin) && def->margin > 0.0))
			return sw_diag_add(diag, SW_SEV_ERROR, m->file, def->line, 0,
					   "navigation field '%s': margin = %g, expected a finite "
					   "number > 0",
					   name, def->margin);
		if (!isfinite(def->clearance))
			return sw_diag_add(diag, SW_SEV_ERROR, m->file, def->line, 0,
					   "navigation field '%s': clearance = %g, expected a "
					   "finite number",
					   name, def->clearance);
		if (def->has_area) {
			const double *a = def->area;
			f.has_area = 1;
			f.area[0] = fmin(a[0], a[2]);
			f.area[1] = fmin(a[1], a[3]);
			f.area[2] = fmax(a[0], a[2]);
			f.area[3] = fmax(a[1], a[3]);
			sw_vec2 p = m->targets[f.target].position;
			if (!(isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]) && isfinite(a[3])) ||
			    !(f.area[2] - f.area[0] >= 2.0 * def->resolution) ||
			    !(f.area[3] - f.area[1] >= 2.0 * def->resolution))
				return sw_diag_add(
				    diag, SW_SEV_ERROR, m->file, def->line, 0,
				    "navigation field '%s': area (%g, %g)-(%g, %g), expected "
				    "finite corners at least two nodes (2 x resolution) apart "
				    "in x and in y",
				    name, a[0], a[1], a[2], a[3]);
			if (!(p.x > f.area[0] && p.x < f.area[2] && p.y > f.area[1] &&
			      p.y < f.area[3]))
				return sw_diag_add(
				    diag, SW_SEV_ERROR, m->file, def->line, 0,
				    "navigation field '%s': target '%s' at (%g, %g) lies outside "
				    "the field's area (%g, %g)-(%g, %g); expected the target "
				    "inside it",
				    name, def->target, p.x, p.y, f.area[0], f.area[1],
				    f.area[2], f.area[3]);
		}
	} else if (def->kind == SW_FIELD_VECTOR) {
		if (!def->file || !def->file[0] || strlen(def->file) >= sizeof f.file)
			return sw_diag_add(diag, SW_SEV_ERROR, m->file, def->line, 0,
					   "vector field '%s': a file path shorter than %zu "
					   "characters is required",
					   name, sizeof f.file);
		snprintf(f.file, sizeof f.file, "%s", def->file);
	} else {
		return SW_EUSAGE;
	}
	if (m->n_fields == m->cap_fields) {
		int cap = m->cap_fields ? 2 * m->cap_fields : 4;
		sw_model_field *p = realloc(m->fields, (size_t)cap * sizeof *p);
		if (!p)
			return SW_ENOMEM;
		m->fields = p;
		m->cap_fields = cap;
	}
	m->fields[m->n_fields++] = f;
	return SW_SUCCESS;
}

/* Reports a law naming an unknown field (an error), or a navigation field leading to another
 * target than the one the law steers to (a warning: the field then leads elsewhere).  target:
 * the law's target index, -1 when it is chosen at run time. */
static int check_one(const sw_model *m, const sw_steer_def *d, int target, const char *file,
		     int line, const char *owner, sw_diag *diag)
{
	if (strcmp(d->field, SW_FIELD_AUTO) == 0)
		return SW_SUCCESS; /* the target's own field, if it has one (sim/navigate.c) */
	int f = d->field[0] ? sw_model_find_field(m, d->field) : -1;
	if (f >= 0 && m->fields[f].kind == SW_FIELD_NAV && target >= 0 &&
	    target != m->fields[f].target)
		sw_diag_add(diag, SW_SEV_WARNING, file, line, 0,
			    "%s steers to target '%s' by navigation field '%s', which leads to "
			    "target '%s'",
			    owner, m->targets[target].name, d->field,
			    m->targets[m->fields[f].target].name);
	if (!d->field[0] || f >= 0)
		return SW_SUCCESS;
	return sw_diag_add(diag, SW_SEV_ERROR, file, line, 0,
			   "%s steers by field '%s', which the scenario's <world> does not "
			   "declare; expected a <navfield> or <vectorfield> of that name",
			   owner, d->field);
}

int sw__check_fields(const sw_model *m, sw_diag *diag)
{
	int st = SW_SUCCESS;
	if (m->routes.resolution > 0.0 && m->dim3)
		st = sw_diag_add(diag, SW_SEV_ERROR, m->file, m->routes.line, 0,
				 "routes are planned on a plane; expected a 2-D world (no "
				 "<routes> in a 3-D scenario)");
	char owner[4 * SW_NAME_MAX + 64];
	for (int i = 0; i < m->n_agents; i++) {
		const sw_agent *a = &m->agents[i];
		if (a->behaviour < 0) {
			snprintf(owner, sizeof owner, "agent '%s'", a->name);
			if (check_one(m, &a->steer, a->target, m->file, a->line, owner, diag) !=
			    SW_SUCCESS)
				st = SW_EINPUT;
			continue;
		}
		const struct sw_automaton *au = m->automata[a->behaviour];
		for (int q = 0; q < au->n_modes; q++) {
			snprintf(owner, sizeof owner,
				 "mode '%s' of behaviour '%s' (used by agent "
				 "'%s')",
				 au->modes[q].name, au->name, a->name);
			int tp = au->modes[q].target_param, tg = -1;
			if (tp >= 0 && au->params[tp].kind == SW_PARAM_TARGET)
				tg = m->bindings[a->binding_first + tp].index;
			if (au->modes[q].moves &&
			    check_one(m, &au->modes[q].steer, tg, au->file[0] ? au->file : m->file,
				      au->modes[q].line, owner, diag) != SW_SUCCESS)
				st = SW_EINPUT;
		}
	}
	return st;
}

void sw__free_fields(sw_model *m)
{
	for (int k = 0; k < m->n_fields; k++)
		if (m->fields[k].grid && m->fields[k].grid_free)
			m->fields[k].grid_free(m->fields[k].grid);
	free(m->fields);
}
