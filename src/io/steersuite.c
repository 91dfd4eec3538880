/* io/steersuite.c - SteerSuite test cases (docs/steersuite.md): the walk and the loads.
 *
 * A test case is read in three steps:
 *   1. this file parses it with the shared loader (xmldoc.c: no network, no DOCTYPE, every
 *      message with the file's line) and walks <SteerBenchTestCase> into an ss_case.  SteerSuite's
 *      XSD is stale and its reader accepts elements the XSD lacks, so there is no schema stage:
 *      the walk knows every element of the format (including the reader-only extensions) and
 *      reports anything else, or anything swerve cannot model, by name with its line;
 *   2. steersuite_place.c draws the random placements and steersuite_emit.c writes the
 *      equivalent swerve scenario document (with one generated automaton per agent element);
 *   3. that document goes through the ordinary scenario reader, so `swerve run CASE.xml` and a
 *      run of the file `swerve import-steersuite` writes are the same run.  Problems the scenario
 *      reader finds (an agent starting inside an obstacle, a bad per-goal parameter) are mapped
 *      back to the test case's lines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "io/steersuite_internal.h"

#define XSI_NS "http://www.w3.org/2001/XMLSchema-instance"

int ss_is(xmlNodePtr node, const char *name)
{
	return node && node->type == XML_ELEMENT_NODE && node->ns && node->ns->href &&
	       strcmp((const char *)node->ns->href, SS_NS) == 0 &&
	       strcmp((const char *)node->name, name) == 0;
}

xmlNodePtr ss_elem(xmlNodePtr node)
{
	while (node && node->type != XML_ELEMENT_NODE)
		node = node->next;
	return node;
}

#define EACH_CHILD(c, node) for (xmlNodePtr c = ss_elem((node)->children); c; c = ss_elem(c->next))

int ss_no_attrs(sw__loader *ld, xmlNodePtr node)
{
	int bad = 0;
	for (xmlAttrPtr a = node->properties; a; a = a->next) {
		if (a->ns && a->ns->href && strcmp((const char *)a->ns->href, XSI_NS) == 0 &&
		    node->parent && node->parent->type == XML_DOCUMENT_NODE)
			continue; /* xsi:schemaLocation on the root */
		if (ss_is(node, "polygonObstacle") && !a->ns &&
		    strcmp((const char *)a->name, "isClosed") == 0)
			continue;
		sw__walk_error(ld, node, "unknown attribute %s on <%s>; SteerSuite elements take no "
					 "attributes (except isClosed on <polygonObstacle>)",
			       (const char *)a->name, (const char *)node->name);
		bad++;
	}
	return bad;
}

/* Reports child as unknown in parent; expected lists what may come. */
static int unknown(sw__loader *ld, xmlNodePtr child, xmlNodePtr parent, const char *expected)
{
	if (!child->ns || !child->ns->href || strcmp((const char *)child->ns->href, SS_NS) != 0)
		sw__walk_error(ld, child,
			       "element <%s> in <%s> is not in the SteerSuite namespace %s; expected "
			       "%s",
			       (const char *)child->name, (const char *)parent->name, SS_NS, expected);
	else
		sw__walk_error(ld, child, "unknown element <%s> in <%s>; expected %s",
			       (const char *)child->name, (const char *)parent->name, expected);
	return 1;
}

/* The text of a leaf element (no child elements), whitespace-collapsed; NULL after a report. */
static char *leaf_text(sw__loader *ld, xmlNodePtr node, const char *expected)
{
	ss_no_attrs(ld, node);
	xmlNodePtr c = ss_elem(node->children);
	if (c) {
		sw__walk_error(ld, c, "unexpected element <%s> in <%s>; expected %s",
			       (const char *)c->name, (const char *)node->name, expected);
		return NULL;
	}
	char *s = (char *)xmlNodeGetContent(node);
	if (!s) {
		ld->oom = 1;
		return NULL;
	}
	sw__collapse_space(s);
	return s;
}

int ss_number(sw__loader *ld, xmlNodePtr node, double *out)
{
	char *s = leaf_text(ld, node, "a number");
	if (!s)
		return 1;
	int r = sw__parse_number(s, out);
	if (r != SW__NUM_OK)
		sw__walk_error(ld, node, "<%s>: '%s' is not %s; expected a decimal number such as "
					 "1.5 or -2e-3",
			       (const char *)node->name, s,
			       r == SW__NUM_NONFINITE ? "a finite number" : "a number");
	xmlFree(s);
	return r != SW__NUM_OK;
}

int ss_bool(sw__loader *ld, xmlNodePtr node, int *out)
{
	char *s = leaf_text(ld, node, "true or false");
	if (!s)
		return 1;
	int bad = sw__parse_bool(s, out) != 0;
	if (bad)
		sw__walk_error(ld, node, "<%s>: '%s' is not a boolean; expected true, false, 1 or 0",
			       (const char *)node->name, s);
	xmlFree(s);
	return bad;
}

/* Reads the children of node named in names[] (at most 6) as numbers into v[]; missing ones
 * whose bit is set in required are errors.  Returns problems. */
static int number_children(sw__loader *ld, xmlNodePtr node, const char *const *names, int count,
			   unsigned required, double *v, const char *expected)
{
	int bad = ss_no_attrs(ld, node);
	unsigned seen = 0;
	EACH_CHILD(c, node)
	{
		int k = 0;
		while (k < count && !ss_is(c, names[k]))
			k++;
		if (k == count) {
			bad += unknown(ld, c, node, expected);
		} else if (seen & (1u << k)) {
			sw__walk_error(ld, c, "<%s> given twice in <%s>; expected it once", names[k],
				       (const char *)node->name);
			bad++;
		} else {
			seen |= 1u << k;
			bad += ss_number(ld, c, &v[k]);
		}
	}
	for (int k = 0; k < count; k++)
		if ((required & (1u << k)) && !(seen & (1u << k))) {
			sw__walk_error(ld, node, "<%s> has no <%s>; expected %s",
				       (const char *)node->name, names[k], expected);
			bad++;
		}
	return bad;
}

int ss_point_read(sw__loader *ld, xmlNodePtr node, ss_point *p)
{
	static const char *const xyz[] = {"x", "y", "z"};
	memset(p, 0, sizeof *p);
	xmlNodePtr c = ss_elem(node->children);
	if (c && ss_is(c, "random")) {
		int bad = ss_no_attrs(ld, node) + ss_bool(ld, c, &p->random);
		if (ss_elem(c->next)) {
			sw__walk_error(ld, ss_elem(c->next),
				       "<%s> holds <random> and more; expected either <random> or "
				       "<x>, <y>, <z>",
				       (const char *)node->name);
			bad++;
		}
		if (!bad && !p->random) {
			sw__walk_error(ld, c, "<random>false</random> in <%s> gives no point; "
					      "expected <x>, <y>, <z> instead",
				       (const char *)node->name);
			bad++;
		}
		return bad;
	}
	double v[3] = {0, 0, 0};
	int bad = number_children(ld, node, xyz, 3, 0x5, v, "<x>, <y> and <z> (or <random>true</random>)");
	p->x = v[0];
	p->z = v[2];
	return bad;
}

int ss_bounds_read(sw__loader *ld, xmlNodePtr node, double b[4])
{
	static const char *const names[] = {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};
	double v[6] = {0, 0, 0, 0, 0, 0};
	int bad = number_children(ld, node, names, 6, 0x33, v,
				  "<xmin>, <xmax>, <ymin>, <ymax>, <zmin>, <zmax>");
	b[0] = v[0], b[1] = v[1], b[2] = v[4], b[3] = v[5];
	if (!bad && (b[0] > b[1] || b[2] > b[3])) {
		/* SteerSuite's reader takes the numbers as they come; some public cases give
		 * min and max the wrong way round. */
		sw__walk_warning(ld, node, "<%s>: min and max inverted (x %g..%g, z %g..%g); read as the box "
				  "between them",
			(const char *)node->name, b[0], b[1], b[2], b[3]);
		for (int k = 0; k < 4; k += 2)
			if (b[k] > b[k + 1]) {
				double t = b[k];
				b[k] = b[k + 1], b[k + 1] = t;
			}
	}
	if (!bad && (!(b[0] < b[1]) || !(b[2] < b[3]))) {
		sw__walk_error(ld, node, "<%s>: empty box (x %g..%g, z %g..%g); expected xmin < xmax "
					 "and zmin < zmax",
			       (const char *)node->name, b[0], b[1], b[2], b[3]);
		bad++;
	}
	return bad;
}

/* Copies a name element's text into dst (SW_NAME_MAX). */
static int name_read(sw__loader *ld, xmlNodePtr node, char *dst)
{
	char *s = leaf_text(ld, node, "text");
	if (!s)
		return 1;
	int bad = 0;
	if (!*s || strlen(s) >= SW_NAME_MAX) {
		sw__walk_error(ld, node, "<%s>: '%s' is not a usable name; expected 1 to %d "
					 "characters",
			       (const char *)node->name, s, SW_NAME_MAX - 1);
		bad = 1;
	} else {
		snprintf(dst, SW_NAME_MAX, "%s", s);
	}
	xmlFree(s);
	return bad;
}

/* Elements whose content swerve does not use, but checks (cameras, colours, free text). */
static int ignored(sw__loader *ld, xmlNodePtr node, const char *const *kids)
{
	int bad = ss_no_attrs(ld, node);
	EACH_CHILD(c, node)
	{
		int k = 0;
		while (kids && kids[k] && !ss_is(c, kids[k]))
			k++;
		if (!kids || !kids[k])
			bad += unknown(ld, c, node, kids ? "its documented children" : "text only");
		else
			bad += ss_no_attrs(ld, c);
	}
	return bad;
}

static int header_read(sw__loader *ld, xmlNodePtr node, ss_case *c)
{
	static const char *const pc_none[] = {NULL};
	int bad = ss_no_attrs(ld, node), have_bounds = 0;
	EACH_CHILD(k, node)
	{
		if (ss_is(k, "version")) {
			char *s = leaf_text(ld, k, "1.0");
			if (!s) {
				bad++;
				continue;
			}
			if (strcmp(s, "1.0") != 0 && strcmp(s, "1.2") != 0) {
				sw__walk_error(ld, k, "unsupported test-case version '%s'; expected 1.0 "
						      "(or 1.2)",
					       s);
				bad++;
			}
			xmlFree(s);
		} else if (ss_is(k, "name")) {
			bad += name_read(ld, k, c->name);
		} else if (ss_is(k, "description")) {
			char *s = leaf_text(ld, k, "text");
			if (s) {
				xmlFree(c->description);
				c->description = s;
			} else {
				bad++;
			}
		} else if (ss_is(k, "worldBounds")) {
			bad += ss_bounds_read(ld, k, c->world);
			have_bounds = 1;
		} else if (ss_is(k, "passingCriteria")) {
			bad += ignored(ld, k, pc_none);
		} else {
			bad += unknown(ld, k, node,
				       "<version>, <name>, <description>, <worldBounds> or "
				       "<passingCriteria>");
		}
	}
	if (!have_bounds) {
		sw__walk_error(ld, node, "<header> has no <worldBounds>; expected <worldBounds> "
					 "(random positions are drawn inside it)");
		bad++;
	}
	return bad;
}

static ss_obstacle *new_obstacle(sw__loader *ld, ss_case *c, int kind, xmlNodePtr node)
{
	ss_obstacle *o = realloc(c->obs, (size_t)(c->n_obs + 1) * sizeof *o);
	if (!o) {
		ld->oom = 1;
		return NULL;
	}
	c->obs = o;
	o += c->n_obs++;
	memset(o, 0, sizeof *o);
	o->kind = kind;
	o->line = sw__node_line(node);
	return o;
}

/* <orientedBoxObstacle>: thetaY (degrees), size, position; <circleObstacle>: radius, height,
 * position. */
static int shape_read(sw__loader *ld, xmlNodePtr node, ss_obstacle *o)
{
	int bad = ss_no_attrs(ld, node), have = 0;
	const char *expected = o->kind == SS_OBOX ? "<thetaY>, <size> and <position>"
						  : "<radius>, <height> and <position>";
	ss_point p;
	double height = 0;
	EACH_CHILD(k, node)
	{
		if (ss_is(k, "position")) {
			bad += ss_point_read(ld, k, &p);
			if (p.random) {
				sw__walk_error(ld, k, "a random obstacle position is not supported; "
						      "expected <x>, <y>, <z>");
				bad++;
			}
			o->cx = p.x, o->cz = p.z, have |= 1;
		} else if (o->kind == SS_OBOX && ss_is(k, "thetaY")) {
			bad += ss_number(ld, k, &o->theta), have |= 2;
		} else if (o->kind == SS_OBOX && ss_is(k, "size")) {
			bad += ss_point_read(ld, k, &p);
			o->sx = p.x, o->sz = p.z, have |= 4;
			if (!p.random && (!(p.x > 0) || !(p.z > 0))) {
				sw__walk_error(ld, k, "<size>: x = %g, z = %g; expected both > 0", p.x,
					       p.z);
				bad++;
			}
		} else if (o->kind == SS_CIRCLE && ss_is(k, "radius")) {
			bad += ss_number(ld, k, &o->radius), have |= 2 | 4;
			if (!(o->radius > 0)) {
				sw__walk_error(ld, k, "<radius> = %g; expected a number > 0", o->radius);
				bad++;
			}
		} else if (o->kind == SS_CIRCLE && ss_is(k, "height")) {
			bad += ss_number(ld, k, &height);
		} else {
			bad += unknown(ld, k, node, expected);
		}
	}
	if (have != 7) {
		sw__walk_error(ld, node, "<%s> is incomplete; expected %s", (const char *)node->name,
			       expected);
		bad++;
	}
	return bad;
}

static int polygon_read(sw__loader *ld, xmlNodePtr node, ss_obstacle *o)
{
	int bad = ss_no_attrs(ld, node);
	o->closed = 1;
	xmlChar *cl = xmlGetNoNsProp(node, BAD_CAST "isClosed");
	if (cl) {
		if (sw__parse_bool((const char *)cl, &o->closed) != 0) {
			sw__walk_error(ld, node, "attribute isClosed of <polygonObstacle>: '%s'; "
						 "expected true or false",
				       (const char *)cl);
			bad++;
		}
		xmlFree(cl);
	}
	EACH_CHILD(k, node)
	{
		if (!ss_is(k, "vertex")) {
			bad += unknown(ld, k, node, "<vertex> elements");
			continue;
		}
		ss_point p;
		bad += ss_point_read(ld, k, &p);
		double *v = realloc(o->v, (size_t)(o->n + 1) * 2 * sizeof *v);
		if (!v) {
			ld->oom = 1;
			return bad + 1;
		}
		o->v = v;
		v[2 * o->n] = p.x, v[2 * o->n + 1] = p.z;
		o->n++;
	}
	if (o->n < (o->closed ? 3 : 2)) {
		sw__walk_error(ld, node, "<polygonObstacle> has %d vertices; expected at least %d",
			       o->n, o->closed ? 3 : 2);
		bad++;
	}
	return bad;
}

static int region_read(sw__loader *ld, xmlNodePtr node, ss_obstacle *o)
{
	int bad = ss_no_attrs(ld, node), have = 0;
	double num = 0, height = 0;
	const char *expected = "<numObstacles>, <obstacleSize>, <obstacleHeight> and <regionBounds>";
	EACH_CHILD(k, node)
	{
		if (ss_is(k, "numObstacles"))
			bad += ss_number(ld, k, &num), have |= 1;
		else if (ss_is(k, "obstacleSize"))
			bad += ss_number(ld, k, &o->size), have |= 2;
		else if (ss_is(k, "obstacleHeight"))
			bad += ss_number(ld, k, &height);
		else if (ss_is(k, "regionBounds"))
			bad += ss_bounds_read(ld, k, o->b), have |= 4;
		else
			bad += unknown(ld, k, node, expected);
	}
	if (have != 7) {
		sw__walk_error(ld, node, "<obstacleRegion> is incomplete; expected %s", expected);
		return bad + 1;
	}
	/* the squares' centres lie in regionBounds shrunk by the size on every edge (as
	 * SteerSuite's reader draws them; steersuite_place.c squares_place) */
	if (!(num >= 0 && num <= 1e5) || num != floor(num) || !(o->size > 0) ||
	    2.0 * o->size > o->b[1] - o->b[0] || 2.0 * o->size > o->b[3] - o->b[2]) {
		sw__walk_error(ld, node, "<obstacleRegion>: numObstacles = %g, obstacleSize = %g; "
					 "expected a whole number in 0..100000 and a size > 0 of at "
					 "most half of regionBounds' width and depth (the squares' "
					 "centres keep the size from its edges)",
			       num, o->size);
		return bad + 1;
	}
	o->n = (int)num;
	return bad;
}

static int initial_read(sw__loader *ld, xmlNodePtr node, ss_agents *a)
{
	static const char *const color[] = {"r", "g", "b", NULL};
	int bad = ss_no_attrs(ld, node), have_radius = 0;
	EACH_CHILD(k, node)
	{
		if (ss_is(k, "position") && !a->region) {
			bad += ss_point_read(ld, k, &a->pos);
			a->has_pos = 1;
		} else if (ss_is(k, "direction")) {
			bad += ss_point_read(ld, k, &a->dir);
			a->has_dir = 1;
			if (!a->dir.random && a->dir.x == 0 && a->dir.z == 0) {
				sw__walk_error(ld, k, "<direction> is the zero vector; expected a "
						      "direction (x, z not both 0)");
				bad++;
			}
		} else if (ss_is(k, "radius")) {
			bad += ss_number(ld, k, &a->radius);
			have_radius = 1;
		} else if (ss_is(k, "speed")) {
			bad += ss_number(ld, k, &a->speed);
		} else if (ss_is(k, "color")) {
			bad += ignored(ld, k, color);
		} else if (ss_is(k, "position")) {
			sw__walk_error(ld, k, "<position> in the <initialConditions> of an "
					      "<agentRegion>: positions are drawn in regionBounds; "
					      "expected no <position>");
			bad++;
		} else {
			bad += unknown(ld, k, node,
				       a->region ? "<direction>, <radius>, <speed> or <color>"
						 : "<position>, <direction>, <radius>, <speed> or "
						   "<color>");
		}
	}
	if ((!a->region && !a->has_pos) || !a->has_dir || !have_radius) {
		sw__walk_error(ld, node, "<initialConditions> is incomplete; expected %s<direction> "
					 "and <radius>",
			       a->region ? "" : "<position>, ");
		bad++;
	}
	return bad;
}

static int agents_read(sw__loader *ld, xmlNodePtr node, ss_case *c, int region)
{
	ss_agents *a = realloc(c->agents, (size_t)(c->n_agents + 1) * sizeof *a);
	if (!a) {
		ld->oom = 1;
		return 1;
	}
	c->agents = a;
	a += c->n_agents++;
	memset(a, 0, sizeof *a);
	a->line = sw__node_line(node);
	a->region = region;
	a->n = 1;
	int bad = ss_no_attrs(ld, node), have = 0;
	double num = 0;
	const char *expected = region ? "<numAgents>, <regionBounds>, <initialConditions> and "
					"<goalSequence>"
				      : "<name>, <initialConditions> and <goalSequence>";
	EACH_CHILD(k, node)
	{
		if (!region && ss_is(k, "name")) {
			bad += name_read(ld, k, a->name);
		} else if (region && ss_is(k, "numAgents")) {
			bad += ss_number(ld, k, &num), have |= 4 | 8;
			if (!(num >= 1 && num <= 1e5) || num != floor(num)) {
				sw__walk_error(ld, k, "<numAgents> = %g; expected a whole number in "
						      "1..100000",
					       num);
				bad++;
			} else {
				a->n = (int)num;
			}
		} else if (region && ss_is(k, "regionBounds")) {
			bad += ss_bounds_read(ld, k, a->bounds), have |= 16;
		} else if (ss_is(k, "initialConditions")) {
			bad += initial_read(ld, k, a), have |= 1;
		} else if (ss_is(k, "goalSequence")) {
			bad += ss_goals_read(ld, k, &a->goals, &a->n_goals), have |= 2;
		} else {
			bad += unknown(ld, k, node, expected);
		}
	}
	/* An agent without a <goalSequence> stands where it is and is done from the start
	 * (SteerSuite's reader allows it; the polygon cases rely on it). */
	if ((have | 2) != (region ? 31 : 3)) {
		sw__walk_error(ld, node, "<%s> is incomplete; expected %s", (const char *)node->name,
			       expected);
		bad++;
	}
	if (have & 1 && !(a->radius > 0)) {
		sw__walk_error(ld, node, "<%s>: radius = %g; expected a number > 0",
			       (const char *)node->name, a->radius);
		bad++;
	}
	if (have & 1 && !(a->speed >= 0)) {
		sw__walk_error(ld, node, "<%s>: speed = %g; expected a number >= 0",
			       (const char *)node->name, a->speed);
		bad++;
	}
	return bad;
}

/* An <agentEmitter>: read as an <agent> (the same children), with at least one goal: an
 * emitted agent without goals is disabled at once, and SteerSuite would emit another at every
 * frame. */
static int emitter_read(sw__loader *ld, xmlNodePtr node, ss_case *c)
{
	int bad = agents_read(ld, node, c, 0);
	if (c->n_agents == 0 || c->agents[c->n_agents - 1].line != sw__node_line(node))
		return bad; /* out of memory */
	ss_agents *a = &c->agents[c->n_agents - 1];
	a->emitter = 1;
	if (a->has_pos && a->pos.random)
		sw__walk_warning(ld, node, "<agentEmitter> with a random <position>: SteerSuite's "
					   "reader skips it (it never emits); swerve draws its place "
					   "once, as for an <agent>");
	if (!bad && a->n_goals == 0) {
		sw__walk_error(ld, node, "<agentEmitter> has no goals: each agent it emits would be "
					 "done at once and another emitted at every frame; expected a "
					 "<goalSequence> with at least one goal");
		bad++;
	}
	return bad;
}

/* Most agents, and most obstacles, of a whole test case. */
#define SS_MAX_TOTAL 100000

/* Stage 4: the walk over the root. */
static int case_read(sw__loader *ld, xmlNodePtr root, ss_case *c)
{
	static const char *const camera[] = {"position",   "lookat",        "up", "fovy",
					     "targetTime", "targetTangent", NULL};
	const char *expected = "<header>, <suggestedCameraView>, <obstacle>, <obstacleRegion>, "
			       "<circleObstacle>, <orientedBoxObstacle>, <polygonObstacle>, "
			       "<agent>, <agentRegion> or <agentEmitter>";
	int bad = ss_no_attrs(ld, root), have_header = 0;
	snprintf(c->name, sizeof c->name, "steersuite");
	EACH_CHILD(k, root)
	{
		ss_obstacle *o = NULL;
		if (ss_is(k, "header")) {
			bad += header_read(ld, k, c);
			have_header = 1;
		} else if (ss_is(k, "suggestedCameraView")) {
			bad += ignored(ld, k, camera);
		} else if (ss_is(k, "obstacle")) {
			if ((o = new_obstacle(ld, c, SS_BOX, k)))
				bad += ss_bounds_read(ld, k, o->b);
		} else if (ss_is(k, "obstacleRegion")) {
			if ((o = new_obstacle(ld, c, SS_REGION, k)))
				bad += region_read(ld, k, o);
		} else if (ss_is(k, "circleObstacle")) {
			if ((o = new_obstacle(ld, c, SS_CIRCLE, k)))
				bad += shape_read(ld, k, o);
		} else if (ss_is(k, "orientedBoxObstacle")) {
			if ((o = new_obstacle(ld, c, SS_OBOX, k)))
				bad += shape_read(ld, k, o);
		} else if (ss_is(k, "polygonObstacle")) {
			if ((o = new_obstacle(ld, c, SS_POLY, k)))
				bad += polygon_read(ld, k, o);
		} else if (ss_is(k, "agent")) {
			bad += agents_read(ld, k, c, 0);
		} else if (ss_is(k, "agentRegion")) {
			bad += agents_read(ld, k, c, 1);
		} else if (ss_is(k, "agentEmitter")) {
			bad += emitter_read(ld, k, c);
		} else if (ss_is(k, "orientedWallObstacle")) {
			sw__walk_error(ld, k, "<%s> is not supported by swerve's importer (see "
					      "docs/steersuite.md); expected %s",
				       (const char *)k->name, expected);
			bad++;
		} else {
			bad += unknown(ld, k, root, expected);
		}
	}
	if (!have_header) {
		sw__walk_error(ld, root, "<SteerBenchTestCase> has no <header>; expected a <header> "
					 "with <worldBounds>");
		bad++;
	}
	/* Each region holds at most 100 000 agents or obstacles; the case as a whole is capped too,
	 * before any is placed (30 full regions took minutes to place). */
	long n_agents = 0, n_obstacles = 0;
	for (int i = 0; i < c->n_agents; i++)
		n_agents += c->agents[i].n;
	for (int i = 0; i < c->n_obs; i++)
		n_obstacles += c->obs[i].kind == SS_REGION ? c->obs[i].n : 1;
	if (n_agents > SS_MAX_TOTAL || n_obstacles > SS_MAX_TOTAL) {
		sw__walk_error(ld, root, "the test case has %ld agents and %ld obstacles; expected at "
					 "most %d of each in all (docs/steersuite.md)",
			       n_agents, n_obstacles, SS_MAX_TOTAL);
		bad++;
	}
	/* SteerSuite loads a case without agents (a map) and ends its run at once: there is
	 * nothing to simulate or score, and a swerve scenario holds at least one agent. */
	if (c->n_agents == 0 && !bad) {
		sw__walk_error(ld, root, "the test case places no agent (no <agent>, <agentRegion> or "
					 "<agentEmitter>): it is a map only, and SteerSuite's run of it "
					 "ends at once with nothing simulated; swerve has nothing to run "
					 "or score and refuses it; expected at least one agent");
		bad++;
	}
	return bad;
}

static void case_free(ss_case *c)
{
	for (int i = 0; i < c->n_obs; i++)
		free(c->obs[i].v);
	for (int i = 0; i < c->n_agents; i++)
		ss_goals_free(c->agents[i].goals, c->agents[i].n_goals);
	free(c->obs);
	free(c->agents);
	xmlFree(c->description);
}

/* Diagnostics [first, count) of the scenario load cite lines of the generated text: each is
 * moved to the test-case line of the element it was reported at (columns dropped). */
static void map_lines(sw_diag *diag, int first, const char *file, const char *xml, size_t len,
		      const int *srcline, int n_src)
{
	xmlDocPtr doc = xmlReadMemory(xml, (int)len, NULL, NULL, XML_PARSE_NONET);
	if (!doc)
		return;
	/* line_of[L] = the test-case line of the last element starting at or before line L. */
	int n_lines = 1;
	for (size_t i = 0; i < len; i++)
		n_lines += xml[i] == '\n';
	int *line_of = calloc((size_t)n_lines + 2, sizeof *line_of);
	if (line_of) {
		int k = 0;
		xmlNodePtr node = xmlDocGetRootElement(doc);
		while (node && k < n_src) {
			int l = sw__node_line(node);
			if (l > 0 && l <= n_lines)
				line_of[l] = srcline[k];
			k++;
			if (ss_elem(node->children)) {
				node = ss_elem(node->children);
				continue;
			}
			while (node && !ss_elem(node->next))
				node = node->parent && node->parent->type == XML_ELEMENT_NODE
					   ? node->parent
					   : NULL;
			if (node)
				node = ss_elem(node->next);
		}
		for (int l = 1; l <= n_lines; l++)
			if (!line_of[l])
				line_of[l] = line_of[l - 1];
		for (int i = first; diag && i < diag->count; i++) {
			sw_diag_entry *e = &diag->entry[i];
			if (strcmp(e->file, file) != 0 || e->line <= 0 || e->line > n_lines)
				continue;
			e->line = line_of[e->line];
			e->column = 0;
			/* "(line N)" inside a message cites another element of the text too. */
			char *p = strstr(e->message, "(line ");
			int l = 0, used = 0;
			if (p && sscanf(p, "(line %d)%n", &l, &used) == 1 && used > 0 && l > 0 &&
			    l <= n_lines) {
				char tail[SW_DIAG_MSG];
				snprintf(tail, sizeof tail, "%s", p + used);
				snprintf(p, sizeof e->message - (size_t)(p - e->message),
					 "(line %d)%s", line_of[l], tail);
			}
		}
	}
	free(line_of);
	xmlFreeDoc(doc);
}

sw_steersuite_def sw_default_steersuite_def(void)
{
	sw_steersuite_def d = {1u, 0.01, 0.0, 2.5, 0.05, 1, 1};
	return d;
}

/* Some public test cases put the XML declaration after a leading comment (a licence header),
 * which XML forbids and libxml2 refuses, though SteerSuite's reader takes it.  When that is so,
 * returns a copy of buf with the declaration blanked (spaces, so every line and column stays
 * where it was) and warns; otherwise returns NULL (also when out of memory: the parser then
 * reports the misplaced declaration itself). */
static char *late_declaration(const char *buf, size_t len, const char *file, sw_diag *diag)
{
	size_t i = 0;
	int comments = 0;
	for (;;) {
		while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' ||
				   buf[i] == '\n'))
			i++;
		if (len - i < 4 || memcmp(buf + i, "<!--", 4) != 0)
			break;
		const char *end = NULL;
		for (size_t k = i + 4; k + 3 <= len && !end; k++)
			if (memcmp(buf + k, "-->", 3) == 0)
				end = buf + k + 3;
		if (!end)
			return NULL;
		i = (size_t)(end - buf);
		comments++;
	}
	if (!comments || len - i < 6 || memcmp(buf + i, "<?xml", 5) != 0 ||
	    !(buf[i + 5] == ' ' || buf[i + 5] == '\t' || buf[i + 5] == '\r' || buf[i + 5] == '\n'))
		return NULL;
	size_t e = i;
	while (e + 1 < len && !(buf[e] == '?' && buf[e + 1] == '>'))
		e++;
	if (e + 1 >= len)
		return NULL;
	char *copy = malloc(len + 1);
	if (!copy)
		return NULL;
	memcpy(copy, buf, len);
	copy[len] = '\0';
	int line = 1;
	for (size_t k = 0; k < i; k++)
		line += buf[k] == '\n';
	for (size_t k = i; k <= e + 1; k++)
		if (copy[k] != '\n')
			copy[k] = ' ';
	sw_diag_add(diag, SW_SEV_WARNING, file, line, 0,
		    "the XML declaration comes after a comment (XML allows it only at the very "
		    "start); read as if it came first, as SteerSuite's reader does");
	return copy;
}

/* Reads the test case in buf and writes its scenario text (*xml, *len) and the test-case line
 * of every element written (*srcline, *n_src). */
static int convert(const char *buf, size_t len, const char *file, const sw_steersuite_def *def,
		   char **xml, size_t *xml_len, int **srcline, int *n_src, sw_diag *diag)
{
	char *fixed = late_declaration(buf, len, file, diag);
	if (fixed)
		buf = fixed;
	sw__loader ld;
	sw__loader_init(&ld, diag, file, "SteerBenchTestCase", buf, len);
	int status = SW_EINPUT;
	ss_case c;
	memset(&c, 0, sizeof c);
	if (sw__parse(&ld)) {
		xmlNodePtr root = xmlDocGetRootElement(ld.doc);
		if (!ss_is(root, "SteerBenchTestCase")) {
			sw__walk_error(&ld, root, "the root element is <%s>; expected "
						  "<SteerBenchTestCase xmlns=\"%s\">",
				       (const char *)root->name, SS_NS);
		} else if (case_read(&ld, root, &c) == 0 && !ld.oom && ld.walk_errors == 0) {
			status = ss_emit(&ld, &c, def, xml, xml_len, srcline, n_src);
		}
	}
	if (ld.oom)
		status = SW_ENOMEM;
	case_free(&c);
	sw__loader_done(&ld);
	free(fixed);
	return status;
}

/* Whether def is usable (sw_steersuite_import's SW_EUSAGE). */
static int def_ok(const sw_steersuite_def *def)
{
	return def && def->step > 0 && def->duration >= 0 && def->reach > 0 &&
	       isfinite(def->reach) && def->frame > 0 && isfinite(def->frame);
}

int sw_steersuite_import_memory(const char *buf, size_t len, const char *name,
				const sw_steersuite_def *def, char **xml, size_t *xml_len,
				sw_model **out, sw_diag *diag)
{
	if (xml)
		*xml = NULL;
	if (out)
		*out = NULL;
	if ((!buf && len > 0) || !def_ok(def))
		return SW_EUSAGE;
	if (!name)
		name = "";
	char *text = NULL;
	size_t n = 0;
	int *srcline = NULL, n_src = 0;
	int st = convert(buf, len, name, def, &text, &n, &srcline, &n_src, diag);
	if (st != SW_SUCCESS)
		return st;
	int first = diag ? diag->count : 0;
	sw_model *m = NULL;
	st = sw_scenario_load_memory(text, n, name, &m, diag);
	/* errors, or warnings of a load that succeeded (none that generated text can cause is
	 * known: the reader's warnings need an adaptive integrator or a field's target; kept so
	 * that any new one cites the case) */
	if (diag && diag->count > first)
		map_lines(diag, first, name, text, n, srcline, n_src);
	free(srcline);
	if (st == SW_SUCCESS && out)
		*out = m;
	else
		sw_model_free(m);
	if (st == SW_SUCCESS && xml) {
		*xml = text;
		if (xml_len)
			*xml_len = n;
	} else {
		free(text);
	}
	return st;
}

int sw_steersuite_import(const char *path, const sw_steersuite_def *def, char **xml, size_t *len,
			 sw_model **out, sw_diag *diag)
{
	if (!path)
		return SW_EUSAGE;
	char *buf = NULL;
	size_t n = 0;
	int st = sw__read_file(path, &buf, &n, diag);
	if (st == SW_SUCCESS)
		st = sw_steersuite_import_memory(buf, n, path, def, xml, len, out, diag);
	free(buf);
	return st;
}

int sw_steersuite_map_diag(const char *path, const sw_steersuite_def *def, sw_diag *diag,
			   int first)
{
	if (!path || !def_ok(def) || !diag || first < 0)
		return SW_EUSAGE;
	int cited = 0; /* (no entry cites the case: nothing to convert) */
	for (int i = first; i < diag->count && !cited; i++)
		cited = strcmp(diag->entry[i].file, path) == 0 && diag->entry[i].line > 0;
	if (!cited)
		return SW_SUCCESS;
	char *buf = NULL, *text = NULL;
	size_t n = 0, len = 0;
	int *srcline = NULL, n_src = 0;
	/* (no diagnostics: the conversion's own were reported at the import) */
	int st = sw__read_file(path, &buf, &n, NULL);
	if (st == SW_SUCCESS)
		st = convert(buf, n, path, def, &text, &len, &srcline, &n_src, NULL);
	if (st == SW_SUCCESS)
		map_lines(diag, first, path, text, len, srcline, n_src);
	free(srcline);
	free(text);
	free(buf);
	return st;
}

int sw_steersuite_load(const char *path, const sw_steersuite_def *def, sw_model **out,
		       sw_diag *diag)
{
	if (!out)
		return SW_EUSAGE;
	return sw_steersuite_import(path, def, NULL, NULL, out, diag);
}
