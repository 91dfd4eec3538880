/* io/scenario_read.c - stage 4 of the scenario reader: the walk over the parsed tree.
 *
 * Elements are read through their attribute tables (attrs.c).  When the loader holds a model (a
 * valid document), each finished object is handed to the builder.  Automata the scenario uses
 * (<behaviours>) are loaded and compiled here, before the world and the agents that refer to
 * them; a <group> passes its behaviour, law, personality and bindings to its agents. */
#include <math.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "io/io_internal.h"
#include "swerve/io.h"

/* --- attribute tables -------------------------------------------------------------------- */

static const char *const integrators[] = {"euler",   "rk2",    "rk4",    "rkf45",  "rkck",
					  "rk8pd",   "rk1imp", "rk2imp", "rk4imp", "bsimp",
					  "msadams", "msbdf",  NULL};

static const sw__attr_spec run_attrs[] = {
    SW__NUM("duration", sw_run_def, duration),
    SW__NUM("step", sw_run_def, step),
    SW__NUM("sample", sw_run_def, sample),
    {"seed", SW__A_SEED, offsetof(sw_run_def, seed), 0, NULL, 0},
    {"integrator", SW__A_CHOICE_STR, offsetof(sw_run_def, integrator), 0, integrators,
     sizeof(((sw_run_def *)0)->integrator)},
    SW__BOOL("fixed", sw_run_def, fixed),
    {"substeps", SW__A_INT, offsetof(sw_run_def, substeps), 0, NULL, 0},
    SW__NUM("rtol", sw_run_def, rtol),
    SW__NUM("atol", sw_run_def, atol),
    SW__NUM("event-tol", sw_run_def, event_tol),
    SW__BOOL("agents-perceive", sw_run_def, agents_perceive),
    SW__BOOL("steerbench", sw_run_def, steerbench),
    SW__NUM("steerbench-frame", sw_run_def, steerbench_frame),
    SW__BOOL("leave-when-done", sw_run_def, leave_when_done),
    SW__BOOL("stop-when-done", sw_run_def, stop_when_done),
    SW__BOOL("obstacle-clearances", sw_run_def, obstacle_clearances),
    SW__END};

static const sw__attr_spec target_attrs[] = {
    SW__NAME("name", sw_target_def, name, 1), SW__REQ_NUM("x", sw_target_def, position.x),
    SW__REQ_NUM("y", sw_target_def, position.y), SW__NUM("radius", sw_target_def, radius),
    SW__NUM("z", sw_target_def, z), SW__END};

static const sw__attr_spec disc_attrs[] = {SW__NAME("name", sw_obstacle_def, name, 0),
					   SW__REQ_NUM("x", sw_obstacle_def, center.x),
					   SW__REQ_NUM("y", sw_obstacle_def, center.y),
					   SW__NUM("radius", sw_obstacle_def, radius), SW__END};

static const sw__attr_spec segment_attrs[] = {
    SW__NAME("name", sw_obstacle_def, name, 0), SW__REQ_NUM("x1", sw_obstacle_def, a.x),
    SW__REQ_NUM("y1", sw_obstacle_def, a.y),    SW__REQ_NUM("x2", sw_obstacle_def, b.x),
    SW__REQ_NUM("y2", sw_obstacle_def, b.y),    SW__END};

static const sw__attr_spec polygon_attrs[] = {SW__NAME("name", sw_obstacle_def, name, 0),
					      SW__BOOL("closed", sw_obstacle_def, closed), SW__END};

/* A <region>: a name, and either the rectangle x1 y1 x2 y2 or <vertex> children. */
typedef struct {
	const char *name;
	double x1, y1, x2, y2;
} region_fields;

static const sw__attr_spec region_attrs[] = {
    SW__NAME("name", region_fields, name, 1), SW__NUM("x1", region_fields, x1),
    SW__NUM("y1", region_fields, y1),         SW__NUM("x2", region_fields, x2),
    SW__NUM("y2", region_fields, y2),         SW__END};

static const sw__attr_spec signal_attrs[] = {
    SW__NAME("name", sw_signal_def, name, 1), SW__NAME("automaton", sw_signal_def, automaton, 1),
    SW__NUM("x", sw_signal_def, position.x), SW__NUM("y", sw_signal_def, position.y), SW__END};

static const sw__attr_spec linear_attrs[] = {SW__REQ_NUM("vx", sw_motion_def, velocity.x),
					     SW__REQ_NUM("vy", sw_motion_def, velocity.y), SW__END};

static const sw__attr_spec waypoints_attrs[] = {SW__REQ_NUM("speed", sw_motion_def, speed),
						SW__END};

static const sw__attr_spec agent_attrs[] = {
    SW__NAME("name", sw_agent_def, name, 0),
    SW__REQ_NUM("x", sw_agent_def, position.x),
    SW__REQ_NUM("y", sw_agent_def, position.y),
    SW__ANGLE("heading", sw_agent_def, heading),
    SW__NUM("speed", sw_agent_def, speed),
    SW__NUM("radius", sw_agent_def, radius),
    SW__NUM("perception", sw_agent_def, perception),
    SW__NAME("target", sw_agent_def, target, 0),
    SW__BOOL("stop-at-target", sw_agent_def, stop_at_target),
    SW__NAME("behaviour", sw_agent_def, behaviour, 0),
    SW__NUM("z", sw_agent_def, z),
    SW__ANGLE("pitch", sw_agent_def, pitch),
    SW__END};

static const sw__attr_spec group_attrs[] = {SW__NAME("behaviour", sw_agent_def, behaviour, 0),
					    SW__END};

static const sw__attr_spec bind_attrs[] = {SW__NAME("param", sw_binding_def, param, 1),
					   SW__NAME("value", sw_binding_def, value, 1), SW__END};

const sw__attr_spec *sw__scenario_attrs(const char *element)
{
	if (strcmp(element, "run") == 0)
		return run_attrs;
	if (strcmp(element, "agent") == 0)
		return agent_attrs;
	return sw__law_attrs(element);
}

typedef struct {
	const char *file;
} use_fields;

static const sw__attr_spec use_attrs[] = {SW__NAME("file", use_fields, file, 1), SW__END};

/* --- helpers ------------------------------------------------------------------------------- */

/* Records a builder status: the first failure wins, running out of memory is remembered. */
static void built(sw__loader *ld, int status)
{
	if (status == SW_ENOMEM)
		ld->oom = 1;
	if (status != SW_SUCCESS && ld->build_status == SW_SUCCESS)
		ld->build_status = status;
}

/* Reads the children <point>/<vertex> (named kind) of node into a new array *out. */
static int read_points(sw__loader *ld, xmlNodePtr node, const char *kind, sw_vec2 **out, int *n)
{
	int count = 0, bad = 0;
	for (xmlNodePtr c = node->children; c; c = c->next)
		if (sw__is_element(c, kind))
			count++;
	*out = NULL;
	*n = 0;
	if (count == 0)
		return 0;
	sw_vec2 *pts = calloc((size_t)count, sizeof *pts);
	if (!pts) {
		ld->oom = 1;
		return 1;
	}
	int i = 0;
	for (xmlNodePtr c = node->children; c; c = c->next)
		if (sw__is_element(c, kind)) {
			bad += sw__read_attrs(ld, c, sw__point_attrs, &pts[i]);
			bad += sw__no_children(ld, c, "no child elements");
			i++;
		}
	*out = pts;
	*n = count;
	return bad;
}

/* Reads a <linear> or <waypoints> element into mo; *pts receives the waypoint array (caller
 * frees).  Returns the number of problems. */
static int read_motion(sw__loader *ld, xmlNodePtr node, sw_motion_def *mo, sw_vec2 **pts)
{
	int bad;
	if (sw__is_element(node, "linear")) {
		mo->kind = SW_MOTION_LINEAR;
		bad = sw__read_attrs(ld, node, linear_attrs, mo);
		return bad + sw__no_children(ld, node, "no child elements");
	}
	mo->kind = SW_MOTION_WAYPOINTS;
	bad = sw__read_attrs(ld, node, waypoints_attrs, mo);
	for (xmlNodePtr c = node->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && !sw__is_element(c, "point"))
			bad++, sw__unknown_child(ld, c, "waypoints", "<point x= y=/>");
	free(*pts);
	bad += read_points(ld, node, "point", pts, &mo->n_points);
	mo->points = *pts;
	if (mo->n_points < 2) {
		sw__walk_error(ld, node, "<waypoints> has %d <point>; expected at least 2",
			       mo->n_points);
		bad++;
	}
	return bad;
}

/* --- run and behaviours -------------------------------------------------------------------- */

static void read_run(sw__loader *ld, xmlNodePtr node)
{
	sw_run_def run = sw_default_run_def();
	int bad = sw__read_attrs(ld, node, run_attrs, &run);
	bad += sw__no_children(ld, node, "no child elements (settings are attributes)");
	if (ld->m && bad == 0)
		built(ld, sw_model_set_run(ld->m, &run, sw__node_line(node), ld->diag));
}

/* A behaviour the scenario could not load: no model is built any more (agents naming it would
 * only add follow-on errors), but the walk goes on. */
static void behaviour_failed(sw__loader *ld, int status)
{
	ld->load_errors++;
	if (status == SW_ENOMEM)
		ld->oom = 1;
	sw_model_free(ld->m);
	ld->m = NULL;
}

static void add_automaton(sw__loader *ld, sw_automaton *a, int line)
{
	if (ld->m)
		built(ld, sw_model_add_automaton(ld->m, a, line, ld->diag));
	else
		sw_automaton_free(a);
}

/* <use file="..."/>: the path is relative to the scenario's folder (to the current directory
 * for documents loaded from memory); the file's own errors cite the file. */
char *sw__relative_path(sw__loader *ld, const char *file)
{
	const char *slash = ld->from_file ? strrchr(ld->file, '/') : NULL;
	size_t dir = file[0] != '/' && slash ? (size_t)(slash - ld->file) + 1 : 0;
	size_t n = dir + strlen(file) + 1;
	char *path = malloc(n);
	if (!path) {
		ld->oom = 1;
		return NULL;
	}
	snprintf(path, n, "%.*s%s", (int)dir, ld->file, file);
	return path;
}

static void read_use(sw__loader *ld, xmlNodePtr node)
{
	use_fields f = {NULL};
	int bad = sw__read_attrs(ld, node, use_attrs, &f);
	bad += sw__no_children(ld, node, "no child elements");
	if (bad || !f.file)
		return;
	char *path = sw__relative_path(ld, f.file);
	if (!path)
		return;
	char *buf = NULL;
	size_t len = 0;
	sw_diag tmp;
	sw_diag_init(&tmp);
	int st = sw__read_file(path, &buf, &len, &tmp);
	if (st != SW_SUCCESS) {
		/* A wrong path is the scenario's mistake: cite the <use> element. */
		sw__walk_error(ld, node, "<use file=\"%s\">: %s", f.file,
			       tmp.count > 0 ? tmp.entry[0].message : "cannot read the file");
		if (st == SW_ENOMEM)
			ld->oom = 1;
		behaviour_failed(ld, st);
		free(path);
		return;
	}
	int first = ld->diag ? ld->diag->count : 0;
	sw_automaton *a = NULL;
	st = sw__automaton_load_buffer(buf, len, path, &a, ld->diag);
	free(buf);
	sw__loader_foreign(ld, first, sw__node_line(node));
	free(path);
	if (st != SW_SUCCESS)
		behaviour_failed(ld, st);
	else
		add_automaton(ld, a, sw__node_line(node));
}

static void read_behaviours(sw__loader *ld, xmlNodePtr node)
{
	sw__read_attrs(ld, node, sw__no_attrs, NULL);
	for (xmlNodePtr c = node->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (sw__is_element(c, "use")) {
			read_use(ld, c);
		} else if (sw__is_element(c, "automaton")) {
			int valid = sw__validate_element(ld, sw_automaton_schema_text, c);
			sw_automaton *a = NULL;
			int st = sw__read_automaton(ld, c, valid, &a);
			if (st != SW_SUCCESS)
				behaviour_failed(ld, st);
			else
				add_automaton(ld, a, sw__node_line(c));
		} else {
			sw__unknown_child(ld, c, "behaviours",
					  "<use file=\"...\"/> or <automaton> elements");
		}
	}
}

/* --- world --------------------------------------------------------------------------------- */

/* Height attributes (z, pitch) of an element in a 2-D scenario: an error at the attribute. */
static int planar_heights(sw__loader *ld, xmlNodePtr node)
{
	static const char *const names[] = {"z", "pitch"};
	int bad = 0;
	for (int k = 0; !ld->dim3 && k < 2; k++)
		if (xmlHasProp(node, (const xmlChar *)names[k])) {
			sw__walk_error(ld, node,
				       "attribute %s of <%s> needs a 3-D scenario; expected <world "
				       "dimensions=\"3\"> before it (or no %s)",
				       names[k], (const char *)node->name, names[k]);
			bad++;
		}
	return bad;
}

/* Reads a target or obstacle: its attributes, motion and (polygon) vertices. */
static void read_world_object(sw__loader *ld, xmlNodePtr node)
{
	const char *el = (const char *)node->name;
	int is_target = strcmp(el, "target") == 0, is_polygon = strcmp(el, "polygon") == 0;
	sw_target_def t = sw_default_target_def();
	sw_obstacle_def o = sw_default_obstacle_def();
	sw_motion_def *mo = is_target ? &t.motion : &o.motion;
	sw_vec2 *waypoints = NULL, *vertices = NULL;
	int bad;
	t.line = o.line = sw__node_line(node);
	if (is_target) {
		bad = sw__read_attrs(ld, node, target_attrs, &t) + planar_heights(ld, node);
	} else if (strcmp(el, "disc") == 0) {
		o.shape = SW_SHAPE_DISC;
		bad = sw__read_attrs(ld, node, disc_attrs, &o);
	} else if (strcmp(el, "segment") == 0) {
		o.shape = SW_SHAPE_SEGMENT;
		bad = sw__read_attrs(ld, node, segment_attrs, &o);
	} else {
		o.shape = SW_SHAPE_POLYGON;
		bad = sw__read_attrs(ld, node, polygon_attrs, &o);
	}
	int motions = 0;
	for (xmlNodePtr c = node->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (sw__is_element(c, "linear") || sw__is_element(c, "waypoints")) {
			if (motions++ > 0) {
				sw__walk_error(ld, c,
					       "<%s> has more than one motion; expected at most "
					       "one <linear> or <waypoints>",
					       el);
				bad++;
				continue;
			}
			bad += read_motion(ld, c, mo, &waypoints);
		} else if (!(is_polygon && sw__is_element(c, "vertex"))) {
			sw__unknown_child(ld, c, el,
					  is_polygon ? "<vertex x= y=/> (two or more), then "
						       "optionally <linear> or <waypoints>"
						     : "optionally one <linear> or <waypoints>");
			bad++;
		}
	}
	if (is_polygon) {
		bad += read_points(ld, node, "vertex", &vertices, &o.n_vertices);
		o.vertices = vertices;
		if (o.n_vertices < 2) {
			sw__walk_error(ld, node,
				       "<polygon> has %d <vertex>; expected at least 2 (3 "
				       "when closed)",
				       o.n_vertices);
			bad++;
		}
	}
	if (ld->m && bad == 0)
		built(ld, is_target ? sw_model_add_target(ld->m, &t, ld->diag)
				    : sw_model_add_obstacle(ld->m, &o, ld->diag));
	sw__release_strings(ld);
	free(waypoints);
	free(vertices);
}

static void read_region(sw__loader *ld, xmlNodePtr node)
{
	region_fields f = {NULL, 0, 0, 0, 0};
	int bad = sw__read_attrs(ld, node, region_attrs, &f);
	static const char *const corners[] = {"x1", "y1", "x2", "y2"};
	int n_corners = 0;
	for (int k = 0; k < 4; k++)
		n_corners += xmlHasProp(node, (const xmlChar *)corners[k]) != NULL;
	for (xmlNodePtr c = node->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && !sw__is_element(c, "vertex"))
			bad++,
			    sw__unknown_child(ld, c, "region", "<vertex x= y=/> (three or more)");
	sw_vec2 *vertices = NULL, rect[4];
	sw_region_def r;
	memset(&r, 0, sizeof r);
	r.name = f.name;
	r.line = sw__node_line(node);
	bad += read_points(ld, node, "vertex", &vertices, &r.n_vertices);
	if (n_corners > 0 && r.n_vertices > 0) {
		sw__walk_error(ld, node,
			       "<region> has both rectangle corners (x1 y1 x2 y2) and "
			       "<vertex> children; expected one of them");
		bad++;
	} else if (n_corners > 0 && n_corners < 4) {
		sw__walk_error(ld, node,
			       "<region> rectangle needs all of x1, y1, x2 and y2 (got %d "
			       "of them)",
			       n_corners);
		bad++;
	} else if (n_corners == 4) {
		rect[0] = (sw_vec2){f.x1, f.y1};
		rect[1] = (sw_vec2){f.x2, f.y1};
		rect[2] = (sw_vec2){f.x2, f.y2};
		rect[3] = (sw_vec2){f.x1, f.y2};
		r.vertices = rect;
		r.n_vertices = 4;
	} else if (r.n_vertices < 3) {
		sw__walk_error(ld, node,
			       "<region> has %d <vertex>; expected at least 3, or the "
			       "rectangle attributes x1 y1 x2 y2",
			       r.n_vertices);
		bad++;
	} else {
		r.vertices = vertices;
	}
	if (ld->m && bad == 0)
		built(ld, sw_model_add_region(ld->m, &r, ld->diag));
	sw__release_strings(ld);
	free(vertices);
}

static void read_signal(sw__loader *ld, xmlNodePtr node)
{
	sw_signal_def s;
	memset(&s, 0, sizeof s);
	s.line = sw__node_line(node);
	int bad = sw__read_attrs(ld, node, signal_attrs, &s);
	bad += sw__no_children(ld, node, "no child elements");
	/* The optional position: both x and y, or neither. */
	int has_x = xmlHasProp(node, (const xmlChar *)"x") != NULL,
	    has_y = xmlHasProp(node, (const xmlChar *)"y") != NULL;
	if (has_x != has_y) {
		int line, column;
		sw__attr_position(ld, node, has_x ? "x" : "y", &line, &column);
		sw__walk_error_at(ld, line, column,
				  "<signal> position needs both x and y (got only %s)",
				  has_x ? "x" : "y");
		bad++;
	}
	s.has_position = has_x && has_y;
	if (ld->m && bad == 0)
		built(ld, sw_model_add_signal(ld->m, &s, ld->diag));
	sw__release_strings(ld);
}

typedef struct {
	int dimensions;
	double periodic_x;
} world_fields;

static const sw__attr_spec world_attrs[] = {
    {"dimensions", SW__A_INT, offsetof(world_fields, dimensions), 0, NULL, 0},
    {"periodic-x", SW__A_NUMBER, offsetof(world_fields, periodic_x), 0, NULL, 0}, SW__END};

static void read_world(sw__loader *ld, xmlNodePtr node)
{
	world_fields wf = {2, NAN};
	if (sw__read_attrs(ld, node, world_attrs, &wf) == 0) {
		if (!isnan(wf.periodic_x)) {
			if (!(wf.periodic_x > 0.0) || !isfinite(wf.periodic_x))
				sw__walk_error(ld, node, "periodic-x is %g; expected a positive "
						   "length (the period of x, m)", wf.periodic_x);
			else if (ld->m)
				sw_model_set_periodic_x(ld->m, wf.periodic_x, sw__node_line(node));
		}
		if (wf.dimensions == 3) {
			ld->dim3 = 1; /* docs/models.md section 1.5 (model/model3.c) */
			if (ld->m)
				sw_model_set_3d(ld->m, sw__node_line(node));
		} else if (wf.dimensions != 2) {
			sw__walk_error(ld, node, "dimensions is %d; expected 2 or 3",
				       wf.dimensions);
		}
	}
	for (xmlNodePtr c = node->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (sw__is_element(c, "target") || sw__is_element(c, "disc") ||
		    sw__is_element(c, "segment") || sw__is_element(c, "polygon"))
			read_world_object(ld, c);
		else if (sw__is_element(c, "region"))
			read_region(ld, c);
		else if (sw__is_element(c, "signal"))
			read_signal(ld, c);
		else if (sw__is_element(c, "navfield") || sw__is_element(c, "vectorfield"))
			sw__read_field(ld, c);
		else if (sw__is_element(c, "routes"))
			sw__read_routes(ld, c);
		else
			sw__unknown_child(ld, c, "world",
					  "<target>, <disc>, <segment>, <polygon>, <region>, "
					  "<signal>, <navfield>, <vectorfield> or <routes>");
	}
}

/* --- agents and groups --------------------------------------------------------------------- */

/* What an agent has of its own, or what a <group> gives its agents. */
typedef struct {
	const char *behaviour;
	xmlNodePtr node; /* the <agent> or <group> */
	xmlNodePtr law;  /* its law element, NULL if none */
	sw_steer_def steer;
	xmlNodePtr personality; /* its <personality>, NULL if none */
	sw_personality pers;
	int n_binds;
	sw_binding_def *binds; /* owned */
} settings;

/* Reads the law, <personality> and <bind> children of an <agent> or <group> into s (other
 * children are left to the caller: return 0 for them).  Returns 1 when c was one of these. */
static int read_setting(sw__loader *ld, xmlNodePtr c, settings *s, int *bad)
{
	const char *el = (const char *)s->node->name;
	if (sw__is_law(c)) {
		if (s->law) {
			sw__walk_error(ld, c,
				       "<%s> has more than one steering law; expected at most "
				       "one of <glm>, <fw>, <potential> or <wall>",
				       el);
			(*bad)++;
			return 1;
		}
		s->law = c;
		*bad += sw__read_law(ld, c, &s->steer, NULL, NULL);
		return 1;
	}
	if (sw__is_element(c, "personality")) {
		if (s->personality) {
			sw__walk_error(ld, c,
				       "<%s> has more than one <personality>; expected at most "
				       "one",
				       el);
			(*bad)++;
			return 1;
		}
		s->personality = c;
		*bad += sw__read_personality(ld, c, &s->pers);
		return 1;
	}
	if (!sw__is_element(c, "bind"))
		return 0;
	sw_binding_def b;
	memset(&b, 0, sizeof b);
	b.line = sw__node_line(c);
	int e = sw__read_attrs(ld, c, bind_attrs, &b);
	e += sw__no_children(ld, c, "no child elements");
	for (int k = 0; !e && k < s->n_binds; k++)
		if (strcmp(s->binds[k].param, b.param) == 0) {
			sw__walk_error(ld, c,
				       "parameter '%s' is bound twice in this <%s> (first on line "
				       "%d); expected one <bind> per parameter",
				       b.param, el, s->binds[k].line);
			e++;
		}
	*bad += e;
	if (e)
		return 1;
	sw_binding_def *p = realloc(s->binds, (size_t)(s->n_binds + 1) * sizeof *p);
	if (!p) {
		ld->oom = 1;
		return 1;
	}
	s->binds = p;
	s->binds[s->n_binds++] = b;
	return 1;
}

static const char *law_name(const settings *s)
{
	return s->law ? (const char *)s->law->name : "";
}

/* Reads an agent; g holds what its group gives it (NULL outside a group). */
static void read_agent(sw__loader *ld, xmlNodePtr node, const settings *g)
{
	sw_agent_def a = sw_default_agent_def();
	a.line = sw__node_line(node);
	int bad = sw__read_attrs(ld, node, agent_attrs, &a) + planar_heights(ld, node);
	settings own;
	memset(&own, 0, sizeof own);
	own.node = node;
	own.steer = a.steer;
	own.pers = a.personality;
	for (xmlNodePtr c = node->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && !read_setting(ld, c, &own, &bad)) {
			sw__unknown_child(
			    ld, c, "agent",
			    "optionally one of <glm>, <fw>, <potential> or <wall>, optionally "
			    "<personality>, and <bind> elements");
			bad++;
		}
	/* Inheritance: the agent's own settings win, each as a whole. */
	const char *behaviour = a.behaviour ? a.behaviour : g ? g->behaviour : NULL;
	int group_behaviour =
	    g && g->behaviour && (!a.behaviour || strcmp(a.behaviour, g->behaviour) == 0);
	const settings *law = own.law ? &own : g && g->law ? g : NULL;
	const settings *pers = own.personality ? &own : g && g->personality ? g : NULL;
	if (law)
		a.steer = law->steer;
	if (pers)
		a.personality = pers->pers;
	if (behaviour && law && !(law == g && g->behaviour)) { /* else reported with the group */
		if (law == &own)
			sw__walk_error(ld, own.law,
				       "<%s> in an agent that runs behaviour '%s'%s: the "
				       "behaviour's modes choose the law; expected no "
				       "law element (or no behaviour)",
				       law_name(&own), behaviour,
				       a.behaviour ? "" : " (from its <group>)");
		else
			sw__walk_error(ld, node,
				       "agent runs behaviour '%s' but its <group> (line %d) "
				       "gives it <%s>: the behaviour's modes choose the law; "
				       "expected the agent outside the group, or no law in "
				       "the group",
				       behaviour, sw__node_line(g->node), law_name(g));
		bad++;
	}
	if (behaviour && a.target) {
		sw__walk_error(ld, node,
			       "attribute target of <agent> does not apply to an agent that "
			       "runs behaviour '%s': its parameters choose the targets; "
			       "expected <bind param=\"...\" value=\"%s\"/>",
			       behaviour, a.target);
		bad++;
	}
	if (behaviour && xmlHasProp(node, (const xmlChar *)"stop-at-target")) {
		sw__walk_error(ld, node,
			       "attribute stop-at-target of <agent> does not apply to an "
			       "agent that runs behaviour '%s': its modes say when it stops",
			       behaviour);
		bad++;
	}
	if (!behaviour && own.n_binds > 0) {
		sw__walk_error_at(ld, own.binds[0].line, 0,
				  "<bind> in an agent without a behaviour; expected a behaviour "
				  "attribute on the agent or its <group>");
		bad++;
	}
	/* Bindings: the group's (when the agent runs the group's behaviour), then its own. */
	int n = own.n_binds + (group_behaviour ? g->n_binds : 0);
	sw_binding_def *binds = n ? calloc((size_t)n, sizeof *binds) : NULL;
	int nb = 0;
	if (n && !binds) {
		ld->oom = 1;
		bad++;
	}
	for (int k = 0; binds && group_behaviour && k < g->n_binds; k++) {
		int mine = 0;
		for (int q = 0; q < own.n_binds; q++)
			mine |= strcmp(own.binds[q].param, g->binds[k].param) == 0;
		if (!mine)
			binds[nb++] = g->binds[k];
	}
	for (int k = 0; binds && k < own.n_binds; k++)
		binds[nb++] = own.binds[k];
	a.behaviour = behaviour;
	a.n_bindings = nb;
	a.bindings = binds;
	if (ld->m && bad == 0)
		built(ld, sw_model_add_agent(ld->m, &a, ld->diag));
	free(binds);
	free(own.binds);
}

static void read_group(sw__loader *ld, xmlNodePtr node)
{
	int mark = ld->n_strs;
	sw_agent_def holder; /* only its behaviour field is used */
	holder.behaviour = NULL;
	settings g;
	memset(&g, 0, sizeof g);
	g.node = node;
	g.steer = sw_default_agent_def().steer;
	g.pers = sw_default_agent_def().personality;
	int bad = sw__read_attrs(ld, node, group_attrs, &holder);
	g.behaviour = holder.behaviour;
	int agents = 0;
	for (xmlNodePtr c = node->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE || sw__is_element(c, "agent"))
			continue;
		if (!read_setting(ld, c, &g, &bad)) {
			sw__unknown_child(
			    ld, c, "group",
			    "optionally one of <glm>, <fw>, <potential> or <wall>, optionally "
			    "<personality>, <bind> elements, then one or more <agent>");
			bad++;
		}
	}
	if (g.behaviour && g.law)
		sw__walk_error(ld, g.law,
			       "<%s> in a <group> that runs behaviour '%s': the "
			       "behaviour's modes choose the law; expected no law element",
			       law_name(&g), g.behaviour);
	if (!g.behaviour && g.n_binds > 0)
		sw__walk_error_at(ld, g.binds[0].line, 0,
				  "<bind> in a <group> without a behaviour; expected a behaviour "
				  "attribute on the group");
	int shared = ld->n_strs;
	for (xmlNodePtr c = node->children; c; c = c->next)
		if (sw__is_element(c, "agent")) {
			agents++;
			read_agent(ld, c, &g);
			sw__release_strings_to(ld, shared);
		}
	if (agents == 0)
		sw__walk_error(ld, node, "<group> has no <agent>; expected at least one");
	free(g.binds);
	sw__release_strings_to(ld, mark);
}

void sw__read_scenario(sw__loader *ld, xmlNodePtr root)
{
	static const sw__attr_spec name_attr[] = {SW__NAME("name", sw_agent_def, name, 0), SW__END};
	sw_agent_def holder; /* only its name field is used */
	holder.name = NULL;
	sw__read_attrs(ld, root, name_attr, &holder);
	if (holder.name && strlen(holder.name) >= SW_NAME_MAX)
		sw__walk_error(ld, root, "the scenario name is longer than %d characters",
			       SW_NAME_MAX - 1);
	else if (ld->m && holder.name && holder.name[0])
		snprintf(ld->m->name, sizeof ld->m->name, "%s", holder.name);
	sw__release_strings(ld);
	for (xmlNodePtr c = root->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (sw__is_element(c, "description")) {
			sw__read_attrs(ld, c, sw__no_attrs, NULL);
			sw__no_children(ld, c, "plain text");
		} else if (sw__is_element(c, "run")) {
			read_run(ld, c);
		} else if (sw__is_element(c, "behaviours")) {
			read_behaviours(ld, c);
		} else if (sw__is_element(c, "world")) {
			read_world(ld, c);
		} else if (sw__is_element(c, "agent")) {
			read_agent(ld, c, NULL);
			sw__release_strings(ld);
		} else if (sw__is_element(c, "group")) {
			read_group(ld, c);
		} else {
			sw__unknown_child(
			    ld, c, "scenario",
			    "<description>, <run>, <behaviours>, <world>, then <agent> "
			    "or <group> elements (in that order)");
		}
	}
}
