/* io/scenario_read.c - stage 4 of the scenario reader: the walk over the parsed tree.
 *
 * Each element has a table of its attributes (name, kind, offset of the def field the value goes
 * to).  read_attrs() reads a node through its table, so one table both fills the sw_*_def structs
 * and names unknown attributes with the list of expected ones.  Values the schema admits but the
 * model cannot use (INF, NaN, integers out of range) are refused here.  When the loader holds a
 * model (a valid document), each finished object is handed to the builder. */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "io/io_internal.h"
#include "swerve/io.h"

/* Longest attribute value quoted in a message. */
#define QUOTE_MAX 40

/* --- attribute tables -------------------------------------------------------------------- */

typedef enum {
	A_NUMBER,     /* double, finite */
	A_ANGLE,      /* double, radians; "deg"/"rad" suffix allowed */
	A_BOOL,       /* int 0/1 from true, false, 1, 0 */
	A_INT,        /* int */
	A_SEED,       /* uint64_t */
	A_NAME,       /* const char *, whitespace-collapsed, kept alive until the object is added */
	A_CHOICE,     /* int index into choices */
	A_CHOICE_STR  /* char[size] copy of one of choices */
} attr_kind;

typedef struct attr_spec {
	const char *name;
	attr_kind kind;
	size_t off;                 /* offset of the field in the def the values go to */
	int required;
	const char *const *choices; /* A_CHOICE, A_CHOICE_STR: NULL-terminated */
	size_t size;                /* A_CHOICE_STR: size of the char array */
} attr_spec;

#define NUM(n, type, field) {n, A_NUMBER, offsetof(type, field), 0, NULL, 0}
#define REQ_NUM(n, type, field) {n, A_NUMBER, offsetof(type, field), 1, NULL, 0}
#define ANGLE(n, type, field) {n, A_ANGLE, offsetof(type, field), 0, NULL, 0}
#define BOOL(n, type, field) {n, A_BOOL, offsetof(type, field), 0, NULL, 0}
#define NAME(n, type, field, req) {n, A_NAME, offsetof(type, field), req, NULL, 0}
#define CHOICE(n, type, field, list) {n, A_CHOICE, offsetof(type, field), 0, list, 0}
#define END {NULL, A_NUMBER, 0, 0, NULL, 0}

_Static_assert(SW_WEIGHTS_RELAX == 0 && SW_WEIGHTS_RESTART == 1 && SW_WEIGHTS_DYNAMIC == 2,
	       "weights choices follow the enum");
_Static_assert(SW_SPEED_T2C == 0 && SW_SPEED_CONSTANT == 1, "speed choices follow the enum");

static const char *const integrators[] = {"euler",  "rk2",    "rk4",   "rkf45", "rkck",
					  "rk8pd",  "rk1imp", "rk2imp", "rk4imp", "bsimp",
					  "msadams", "msbdf", NULL};
static const char *const weights_modes[] = {"relax", "restart", "dynamic", NULL};
static const char *const speed_modes[] = {"t2c", "constant", NULL};

static const attr_spec no_attrs[] = {END};

static const attr_spec run_attrs[] = {
	NUM("duration", sw_run_def, duration),
	NUM("step", sw_run_def, step),
	NUM("sample", sw_run_def, sample),
	{"seed", A_SEED, offsetof(sw_run_def, seed), 0, NULL, 0},
	{"integrator", A_CHOICE_STR, offsetof(sw_run_def, integrator), 0, integrators,
	 sizeof(((sw_run_def *)0)->integrator)},
	BOOL("fixed", sw_run_def, fixed),
	{"substeps", A_INT, offsetof(sw_run_def, substeps), 0, NULL, 0},
	NUM("rtol", sw_run_def, rtol),
	NUM("atol", sw_run_def, atol),
	NUM("event-tol", sw_run_def, event_tol),
	BOOL("agents-perceive", sw_run_def, agents_perceive),
	END};

static const attr_spec target_attrs[] = {
	NAME("name", sw_target_def, name, 1),
	REQ_NUM("x", sw_target_def, position.x),
	REQ_NUM("y", sw_target_def, position.y),
	NUM("radius", sw_target_def, radius),
	END};

static const attr_spec disc_attrs[] = {
	NAME("name", sw_obstacle_def, name, 0),
	REQ_NUM("x", sw_obstacle_def, center.x),
	REQ_NUM("y", sw_obstacle_def, center.y),
	NUM("radius", sw_obstacle_def, radius),
	END};

static const attr_spec segment_attrs[] = {
	NAME("name", sw_obstacle_def, name, 0),
	REQ_NUM("x1", sw_obstacle_def, a.x),
	REQ_NUM("y1", sw_obstacle_def, a.y),
	REQ_NUM("x2", sw_obstacle_def, b.x),
	REQ_NUM("y2", sw_obstacle_def, b.y),
	END};

static const attr_spec polygon_attrs[] = {
	NAME("name", sw_obstacle_def, name, 0),
	BOOL("closed", sw_obstacle_def, closed),
	END};

static const attr_spec point_attrs[] = {
	REQ_NUM("x", sw_vec2, x),
	REQ_NUM("y", sw_vec2, y),
	END};

static const attr_spec linear_attrs[] = {
	REQ_NUM("vx", sw_motion_def, velocity.x),
	REQ_NUM("vy", sw_motion_def, velocity.y),
	END};

static const attr_spec waypoints_attrs[] = {
	REQ_NUM("speed", sw_motion_def, speed),
	END};

static const attr_spec agent_attrs[] = {
	NAME("name", sw_agent_def, name, 0),
	REQ_NUM("x", sw_agent_def, position.x),
	REQ_NUM("y", sw_agent_def, position.y),
	ANGLE("heading", sw_agent_def, heading),
	NUM("speed", sw_agent_def, speed),
	NUM("radius", sw_agent_def, radius),
	NUM("perception", sw_agent_def, perception),
	NAME("target", sw_agent_def, target, 0),
	BOOL("stop-at-target", sw_agent_def, stop_at_target),
	END};

static const attr_spec glm_attrs[] = {
	NUM("a", sw_glm_params, a),
	NUM("d0", sw_glm_params, d0),
	ANGLE("delta", sw_glm_params, delta),
	NUM("margin", sw_glm_params, margin),
	NUM("r-floor", sw_glm_params, r_floor),
	NUM("wall-near", sw_glm_params, wall_near),
	NUM("a1-scale", sw_glm_params, a1_scale),
	NUM("g21", sw_glm_params, g21),
	NUM("c1", sw_glm_params, c1),
	NUM("c2", sw_glm_params, c2),
	CHOICE("weights", sw_glm_params, weights, weights_modes),
	NUM("eps", sw_glm_params, eps),
	NUM("w-floor", sw_glm_params, w_floor),
	NUM("w-restart", sw_glm_params, w_restart),
	CHOICE("speed", sw_glm_params, speed, speed_modes),
	NUM("v-max", sw_glm_params, v_max),
	NUM("d1", sw_glm_params, d1),
	NUM("t2c", sw_glm_params, t2c),
	BOOL("arrive", sw_glm_params, arrive),
	NUM("sigma", sw_glm_params, sigma_phi),
	END};

static const attr_spec fw_attrs[] = {
	NUM("b", sw_fw_params, b),
	NUM("kg", sw_fw_params, kg),
	NUM("c1", sw_fw_params, c1),
	NUM("c2", sw_fw_params, c2),
	NUM("ko", sw_fw_params, ko),
	NUM("c3", sw_fw_params, c3),
	NUM("c4", sw_fw_params, c4),
	NUM("speed", sw_fw_params, speed),
	END};

static const attr_spec potential_attrs[] = {
	NUM("kp", sw_pf_params, kp),
	NUM("eta", sw_pf_params, eta),
	NUM("rho0", sw_pf_params, rho0),
	NUM("r-floor", sw_pf_params, r_floor),
	NUM("speed", sw_pf_params, speed),
	END};

static const attr_spec personality_attrs[] = {
	NUM("agility", sw_personality, agility),
	NUM("mass", sw_personality, mass),
	NUM("courage", sw_personality, courage),
	NUM("lambda-k-min", sw_personality, lambda_k_min),
	NUM("lambda-k-max", sw_personality, lambda_k_max),
	NUM("lambda-m-min", sw_personality, lambda_m_min),
	NUM("lambda-m-max", sw_personality, lambda_m_max),
	NUM("d0-floor", sw_personality, d0_floor),
	END};

/* --- reading values ---------------------------------------------------------------------- */

int sw__is_element(xmlNodePtr n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && n->ns == NULL &&
	       strcmp((const char *)n->name, name) == 0;
}

/* Writes "a, b or c" (the names of a table or list) into buf. */
static void join_names(char *buf, size_t n, const attr_spec *specs, const char *const *list)
{
	size_t count = 0, used = 0;
	while (specs ? specs[count].name != NULL : list[count] != NULL)
		count++;
	buf[0] = '\0';
	for (size_t i = 0; i < count && used < n; i++) {
		const char *name = specs ? specs[i].name : list[i];
		const char *sep = i == 0 ? "" : i + 1 == count ? " or " : ", ";
		int w = snprintf(buf + used, n - used, "%s%s", sep, name);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/* Trims and collapses whitespace in place (the xsd:token normalisation). */
static void collapse_space(char *s)
{
	char *w = s;
	int space = 0;
	for (const char *r = s; *r; r++) {
		if (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r') {
			space = w != s;
			continue;
		}
		if (space)
			*w++ = ' ';
		space = 0;
		*w++ = *r;
	}
	*w = '\0';
}

static int parse_bool(const char *s, int *out)
{
	char buf[8];
	snprintf(buf, sizeof buf, "%s", s);
	collapse_space(buf);
	if (strlen(s) >= sizeof buf)
		return -1;
	if (strcmp(buf, "true") == 0 || strcmp(buf, "1") == 0)
		*out = 1;
	else if (strcmp(buf, "false") == 0 || strcmp(buf, "0") == 0)
		*out = 0;
	else
		return -1;
	return 0;
}

/* Parses an optionally signed decimal integer; returns 0, -1 (syntax) or 1 (out of range). */
static int parse_integer(const char *s, int allow_negative, unsigned long long limit,
			 int *negative, unsigned long long *mag)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	*negative = 0;
	if (*s == '+' || *s == '-') {
		*negative = *s == '-';
		s++;
	}
	if (*s < '0' || *s > '9')
		return -1;
	unsigned long long v = 0;
	int overflow = 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (v > (ULLONG_MAX - d) / 10)
			overflow = 1;
		else
			v = v * 10 + d;
	}
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	if (*s != '\0')
		return -1;
	if (*negative && v != 0 && !allow_negative)
		return -1;
	if (overflow || v > limit + (*negative ? 1ULL : 0ULL))
		return 1;
	*mag = v;
	return 0;
}

/* Parses one attribute value into base + spec->off; reports problems at node. */
static void read_value(sw__loader *ld, xmlNodePtr node, const attr_spec *spec, xmlChar *xval,
		       void *base)
{
	const char *val = (const char *)xval;
	char *field = (char *)base + spec->off;
	const char *el = (const char *)node->name;
	char expected[256];
	switch (spec->kind) {
	case A_NUMBER: {
		int r = sw__parse_number(val, (double *)(void *)field);
		if (r == SW__NUM_NONFINITE)
			sw__walk_error(ld, node,
				   "attribute %s of <%s>: '%.*s' is not a finite number; expected a "
				   "decimal number such as 0.5, -2 or 1e-3",
				   spec->name, el, QUOTE_MAX, val);
		else if (r != SW__NUM_OK)
			sw__walk_error(ld, node,
				   "attribute %s of <%s>: '%.*s' is not a number; expected a decimal "
				   "number such as 0.5, -2 or 1e-3",
				   spec->name, el, QUOTE_MAX, val);
		break;
	}
	case A_ANGLE:
		if (sw_parse_angle(val, (double *)(void *)field) != SW_SUCCESS)
			sw__walk_error(ld, node,
				   "attribute %s of <%s>: '%.*s' is not an angle; expected a number "
				   "in radians, or a number followed by deg or rad (e.g. 15deg, "
				   "-0.5rad)",
				   spec->name, el, QUOTE_MAX, val);
		break;
	case A_BOOL:
		if (parse_bool(val, (int *)(void *)field) != 0)
			sw__walk_error(ld, node,
				   "attribute %s of <%s>: '%.*s' is not a boolean; expected true, "
				   "false, 1 or 0",
				   spec->name, el, QUOTE_MAX, val);
		break;
	case A_INT:
	case A_SEED: {
		int neg = 0;
		unsigned long long mag = 0;
		int seed = spec->kind == A_SEED;
		int r = parse_integer(val, !seed, seed ? UINT64_MAX : (unsigned long long)INT_MAX,
				      &neg, &mag);
		if (r < 0)
			sw__walk_error(ld, node,
				   "attribute %s of <%s>: '%.*s' is not %s; expected a whole number "
				   "such as 4",
				   spec->name, el, QUOTE_MAX, val,
				   seed ? "a non-negative integer" : "an integer");
		else if (r > 0)
			sw__walk_error(ld, node,
				   "attribute %s of <%s>: '%.*s' is out of range; expected at most "
				   "%llu",
				   spec->name, el, QUOTE_MAX, val,
				   seed ? (unsigned long long)UINT64_MAX
					: (unsigned long long)INT_MAX);
		else if (seed)
			*(uint64_t *)(void *)field = (uint64_t)mag;
		else
			*(int *)(void *)field = neg ? -(int)(mag - 1) - 1 : (int)mag;
		break;
	}
	case A_NAME:
		collapse_space((char *)xval);
		*(const char **)(void *)field = val;
		break;
	case A_CHOICE:
	case A_CHOICE_STR: {
		char word[64];
		snprintf(word, sizeof word, "%s", val);
		collapse_space(word);
		int k = 0;
		while (spec->choices[k] && strcmp(spec->choices[k], word) != 0)
			k++;
		if (!spec->choices[k]) {
			join_names(expected, sizeof expected, NULL, spec->choices);
			sw__walk_error(ld, node, "attribute %s of <%s>: '%.*s' is not allowed; expected %s",
				   spec->name, el, QUOTE_MAX, val, expected);
		} else if (spec->kind == A_CHOICE) {
			*(int *)(void *)field = k;
		} else {
			snprintf(field, spec->size, "%s", spec->choices[k]);
		}
		break;
	}
	}
}

/* Reads the attributes of node into base according to specs; reports unknown and missing
 * attributes and bad values.  Returns the number of problems found. */
static int read_attrs(sw__loader *ld, xmlNodePtr node, const attr_spec *specs, void *base)
{
	int before = ld->walk_errors;
	const char *el = (const char *)node->name;
	for (xmlAttrPtr a = node->properties; a; a = a->next) {
		const attr_spec *spec = NULL;
		if (a->ns == NULL)
			for (const attr_spec *s = specs; s->name; s++)
				if (strcmp(s->name, (const char *)a->name) == 0)
					spec = s;
		if (!spec) {
			char expected[512];
			join_names(expected, sizeof expected, specs, NULL);
			const char *prefix = a->ns && a->ns->prefix ? (const char *)a->ns->prefix : "";
			if (specs[0].name == NULL)
				sw__walk_error(ld, node,
					   "unknown attribute %s%s%s on <%s>; <%s> takes no attributes",
					   prefix, *prefix ? ":" : "", (const char *)a->name, el, el);
			else
				sw__walk_error(ld, node, "unknown attribute %s%s%s on <%s>; expected %s",
					   prefix, *prefix ? ":" : "", (const char *)a->name, el,
					   expected);
			continue;
		}
		xmlChar *val = xmlNodeListGetString(ld->doc, a->children, 1);
		if (!val) {
			val = xmlStrdup((const xmlChar *)"");
			if (!val) {
				ld->oom = 1;
				continue;
			}
		}
		int keep = spec->kind == A_NAME &&
			   ld->n_strs < (int)(sizeof ld->strs / sizeof *ld->strs);
		if (spec->kind != A_NAME || keep)
			read_value(ld, node, spec, val, base);
		if (keep)
			ld->strs[ld->n_strs++] = val; /* referenced by the def until it is added */
		else
			xmlFree(val);
	}
	for (const attr_spec *s = specs; s->name; s++)
		if (s->required && !xmlHasProp(node, (const xmlChar *)s->name))
			sw__walk_error(ld, node, "<%s> needs attribute %s", el, s->name);
	return ld->walk_errors - before;
}

/* Frees the attribute strings the finished object referenced. */
void sw__release_strings(sw__loader *ld)
{
	for (int i = 0; i < ld->n_strs; i++)
		xmlFree(ld->strs[i]);
	ld->n_strs = 0;
}

static void unknown_child(sw__loader *ld, xmlNodePtr child, const char *parent, const char *expected)
{
	if (child->ns && child->ns->href)
		sw__walk_error(ld, child,
			   "element <%s> in namespace '%s' inside <%s>; scenario files use no "
			   "namespace: expected %s",
			   (const char *)child->name, (const char *)child->ns->href, parent, expected);
	else
		sw__walk_error(ld, child, "unknown element <%s> inside <%s>; expected %s",
			   (const char *)child->name, parent, expected);
}

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
			bad += read_attrs(ld, c, point_attrs, &pts[i]);
			for (xmlNodePtr g = c->children; g; g = g->next)
				if (g->type == XML_ELEMENT_NODE)
					bad++, unknown_child(ld, g, kind, "no child elements");
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
		bad = read_attrs(ld, node, linear_attrs, mo);
		for (xmlNodePtr c = node->children; c; c = c->next)
			if (c->type == XML_ELEMENT_NODE)
				bad++, unknown_child(ld, c, "linear", "no child elements");
		return bad;
	}
	mo->kind = SW_MOTION_WAYPOINTS;
	bad = read_attrs(ld, node, waypoints_attrs, mo);
	for (xmlNodePtr c = node->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && !sw__is_element(c, "point"))
			bad++, unknown_child(ld, c, "waypoints", "<point x= y=/>");
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

/* --- elements ---------------------------------------------------------------------------- */

static void read_run(sw__loader *ld, xmlNodePtr node)
{
	sw_run_def run = sw_default_run_def();
	int bad = read_attrs(ld, node, run_attrs, &run);
	for (xmlNodePtr c = node->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE)
			bad++, unknown_child(ld, c, "run", "no child elements (settings are attributes)");
	if (ld->m && bad == 0)
		built(ld, sw_model_set_run(ld->m, &run, sw__node_line(node), ld->diag));
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
		bad = read_attrs(ld, node, target_attrs, &t);
	} else if (strcmp(el, "disc") == 0) {
		o.shape = SW_SHAPE_DISC;
		bad = read_attrs(ld, node, disc_attrs, &o);
	} else if (strcmp(el, "segment") == 0) {
		o.shape = SW_SHAPE_SEGMENT;
		bad = read_attrs(ld, node, segment_attrs, &o);
	} else {
		o.shape = SW_SHAPE_POLYGON;
		bad = read_attrs(ld, node, polygon_attrs, &o);
	}
	int motions = 0;
	for (xmlNodePtr c = node->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (sw__is_element(c, "linear") || sw__is_element(c, "waypoints")) {
			if (motions++ > 0) {
				sw__walk_error(ld, c, "<%s> has more than one motion; expected at most one "
						  "<linear> or <waypoints>", el);
				bad++;
				continue;
			}
			bad += read_motion(ld, c, mo, &waypoints);
		} else if (!(is_polygon && sw__is_element(c, "vertex"))) {
			unknown_child(ld, c, el,
				      is_polygon ? "<vertex x= y=/> (two or more), then optionally "
						   "<linear> or <waypoints>"
						 : "optionally one <linear> or <waypoints>");
			bad++;
		}
	}
	if (is_polygon) {
		bad += read_points(ld, node, "vertex", &vertices, &o.n_vertices);
		o.vertices = vertices;
		if (o.n_vertices < 2) {
			sw__walk_error(ld, node, "<polygon> has %d <vertex>; expected at least 2 (3 when "
					     "closed)", o.n_vertices);
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

static void read_world(sw__loader *ld, xmlNodePtr node)
{
	read_attrs(ld, node, no_attrs, NULL);
	for (xmlNodePtr c = node->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (sw__is_element(c, "target") || sw__is_element(c, "disc") || sw__is_element(c, "segment") ||
		    sw__is_element(c, "polygon"))
			read_world_object(ld, c);
		else
			unknown_child(ld, c, "world", "<target>, <disc>, <segment> or <polygon>");
	}
}

static void read_agent(sw__loader *ld, xmlNodePtr node)
{
	sw_agent_def a = sw_default_agent_def();
	a.line = sw__node_line(node);
	int bad = read_attrs(ld, node, agent_attrs, &a);
	int laws = 0, personalities = 0;
	for (xmlNodePtr c = node->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (sw__is_element(c, "glm") || sw__is_element(c, "fw") || sw__is_element(c, "potential")) {
			if (laws++ > 0) {
				sw__walk_error(ld, c, "<agent> has more than one steering law; expected at "
						  "most one of <glm>, <fw> or <potential>");
				bad++;
				continue;
			}
			if (sw__is_element(c, "glm")) {
				a.steer.law = SW_LAW_GLM;
				a.steer.glm = sw_default_glm_params();
				bad += read_attrs(ld, c, glm_attrs, &a.steer.glm);
			} else if (sw__is_element(c, "fw")) {
				a.steer.law = SW_LAW_FW;
				a.steer.fw = sw_default_fw_params();
				bad += read_attrs(ld, c, fw_attrs, &a.steer.fw);
			} else {
				a.steer.law = SW_LAW_PF;
				a.steer.pf = sw_default_pf_params();
				bad += read_attrs(ld, c, potential_attrs, &a.steer.pf);
			}
		} else if (sw__is_element(c, "personality")) {
			if (personalities++ > 0) {
				sw__walk_error(ld, c, "<agent> has more than one <personality>; expected at "
						  "most one");
				bad++;
				continue;
			}
			sw_personality *p = &a.personality;
			bad += read_attrs(ld, c, personality_attrs, p);
			p->has_agility = xmlHasProp(c, (const xmlChar *)"agility") != NULL;
			p->has_mass = xmlHasProp(c, (const xmlChar *)"mass") != NULL;
			p->has_courage = xmlHasProp(c, (const xmlChar *)"courage") != NULL;
		} else {
			unknown_child(ld, c, "agent",
				      "optionally one of <glm>, <fw> or <potential>, and optionally "
				      "<personality>");
			bad++;
			continue;
		}
		for (xmlNodePtr g = c->children; g; g = g->next)
			if (g->type == XML_ELEMENT_NODE)
				bad++, unknown_child(ld, g, (const char *)c->name,
						     "no child elements (parameters are attributes)");
	}
	if (ld->m && bad == 0)
		built(ld, sw_model_add_agent(ld->m, &a, ld->diag));
	sw__release_strings(ld);
}

void sw__read_scenario(sw__loader *ld, xmlNodePtr root)
{
	static const attr_spec name_attr[] = {NAME("name", sw_agent_def, name, 0), END};
	sw_agent_def holder; /* only its name field is used */
	holder.name = NULL;
	read_attrs(ld, root, name_attr, &holder);
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
			read_attrs(ld, c, no_attrs, NULL);
			for (xmlNodePtr g = c->children; g; g = g->next)
				if (g->type == XML_ELEMENT_NODE)
					unknown_child(ld, g, "description", "plain text");
		} else if (sw__is_element(c, "run")) {
			read_run(ld, c);
		} else if (sw__is_element(c, "world")) {
			read_world(ld, c);
		} else if (sw__is_element(c, "agent")) {
			read_agent(ld, c);
		} else {
			unknown_child(ld, c, "scenario",
				      "<description>, <run>, <world> or <agent> (in that order)");
		}
	}
}
