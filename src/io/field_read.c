/* io/field_read.c - <navfield> and <vectorfield> in a scenario's <world> (global planning,
 * docs/scenario-format.md).  A vector field's file is read here, while loading, so that its
 * problems are reported with the file's own path:line like every other input error. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "io/io_internal.h"
#include "swerve/plan.h"

_Static_assert(SW_NAV_HARMONIC == 0 && SW_NAV_DISTANCE == 1, "methods follow the enum");
static const char *const methods[] = {"harmonic", "distance", NULL};

static const sw__attr_spec navfield_attrs[] = {
    SW__NAME("name", sw_field_def, name, 1),         SW__NAME("target", sw_field_def, target, 1),
    SW__NUM("resolution", sw_field_def, resolution), SW__NUM("clearance", sw_field_def, clearance),
    SW__NUM("margin", sw_field_def, margin),         SW__CHOICE("method", sw_field_def, method, methods),
    SW__NUM("x1", sw_field_def, area[0]),            SW__NUM("y1", sw_field_def, area[1]),
    SW__NUM("x2", sw_field_def, area[2]),            SW__NUM("y2", sw_field_def, area[3]),
    SW__END};

static const sw__attr_spec vectorfield_attrs[] = {SW__NAME("name", sw_field_def, name, 1),
						  SW__NAME("file", sw_field_def, file, 1), SW__END};

typedef struct {
	double resolution, clearance;
} routes_fields;

static const sw__attr_spec routes_attrs[] = {SW__NUM("resolution", routes_fields, resolution),
					     SW__NUM("clearance", routes_fields, clearance),
					     SW__END};

/* Records a builder status (first failure wins; out of memory remembered). */
static void record(sw__loader *ld, int status)
{
	if (status == SW_ENOMEM)
		ld->oom = 1;
	if (status != SW_SUCCESS && ld->build_status == SW_SUCCESS)
		ld->build_status = status;
}

void sw__read_field(sw__loader *ld, xmlNodePtr node)
{
	sw_field_def d = sw_default_field_def();
	d.line = sw__node_line(node);
	int is_vector = sw__is_element(node, "vectorfield");
	d.kind = is_vector ? SW_FIELD_VECTOR : SW_FIELD_NAV;
	int bad = sw__read_attrs(ld, node, is_vector ? vectorfield_attrs : navfield_attrs, &d);
	bad += sw__no_children(ld, node, "no child elements");
	if (!is_vector) {
		/* The area: all four rectangle corners x1 y1 x2 y2, as a <region> gives them. */
		static const char *const corners[] = {"x1", "y1", "x2", "y2"};
		int n = 0;
		for (int k = 0; k < 4; k++)
			n += xmlHasProp(node, (const xmlChar *)corners[k]) != NULL;
		if (n > 0 && n < 4) {
			sw__walk_error(ld, node,
				       "<navfield> area needs all of x1, y1, x2 and y2 (got %d of "
				       "them)",
				       n);
			bad++;
		}
		d.has_area = n == 4;
	}
	char *path = NULL;
	if (is_vector && d.file && !bad) {
		path = sw__relative_path(ld, d.file);
		if (!path)
			bad++;
		d.file = path;
	}
	if (ld->m && bad == 0) {
		int st = sw_model_add_field(ld->m, &d, ld->diag);
		if (st == SW_SUCCESS && is_vector) {
			sw_model_field *f = &ld->m->fields[ld->m->n_fields - 1];
			st = sw_vfield_load(path, &f->grid, ld->diag);
			if (st == SW_SUCCESS)
				f->grid_free = sw_grid_free;
			else if (st != SW_ENOMEM)
				sw__walk_error(
				    ld, node,
				    "<vectorfield file=\"%s\">: %s; expected a readable "
				    "vector field file (docs/scenario-format.md)",
				    path, st == SW_EIO ? "cannot read it" : "errors in the file");
		}
		record(ld, st == SW_EIO ? SW_EINPUT : st);
	}
	free(path);
	sw__release_strings(ld);
}

void sw__read_routes(sw__loader *ld, xmlNodePtr node)
{
	routes_fields d = {0.25, -1.0}; /* the defaults (docs/scenario-format.md "Routes") */
	int bad = sw__read_attrs(ld, node, routes_attrs, &d);
	bad += sw__no_children(ld, node, "no child elements");
	if (ld->m && ld->m->routes.line > 0) {
		sw__walk_error(ld, node, "a second <routes> (the first is on line %d); expected one",
			       ld->m->routes.line);
		bad++;
	}
	if (ld->m && bad == 0)
		record(ld, sw_model_set_routes(ld->m, d.resolution, d.clearance, sw__node_line(node),
					       ld->diag));
	sw__release_strings(ld);
}
