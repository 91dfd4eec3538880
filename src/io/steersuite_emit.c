/* io/steersuite_emit.c - the swerve scenario of a SteerSuite test case, from the places
 * steersuite_place.c draws (ss_place).
 *
 * The scenario is written with libxml2's xmlTextWriter; every element's test-case line is
 * recorded so that the scenario reader's messages can be mapped back (steersuite.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/core_internal.h"
#include "io/steersuite_internal.h"
#include "swerve/geom.h"

/* Longest run of a test case without a given duration, s (an hour of walking). */
#define SS_MAX_DURATION 3600.0
/* Navigation fields of a case (one per place that static goals lead to; see use_fields):
 * node spacing, m, to begin with; free border, m (the <navfield> default); most nodes of all
 * the fields together (9 bytes each: about 600 MB). */
#define SS_FIELD_H 0.1
#define SS_FIELD_MARGIN 2.0
#define SS_FIELD_NODES (64.0 * 1024.0 * 1024.0)
/* Planned routes of a case whose places are too many for fields: most nodes of the one grid,
 * about (the estimate's box is use_fields', the grid's sw_routemap_rasterize's); each thread's
 * searches hold 20 bytes per node (80 MB) and their queue. */
#define SS_ROUTE_NODES (4.0 * 1024.0 * 1024.0)

/* --- writer helpers ----------------------------------------------------------------------- */

static void keep(ss_writer *sw, int rc)
{
	if (rc < 0 && sw->rc == 0)
		sw->rc = rc;
}

void ss_start(ss_writer *sw, const char *name, int line)
{
	if (sw->n == sw->cap) {
		int cap = sw->cap ? 2 * sw->cap : 256;
		int *l = realloc(sw->lines, (size_t)cap * sizeof *l);
		if (!l) {
			keep(sw, -1);
			return;
		}
		sw->lines = l;
		sw->cap = cap;
	}
	sw->lines[sw->n++] = line;
	keep(sw, xmlTextWriterStartElement(sw->w, BAD_CAST name));
}

void ss_end(ss_writer *sw) { keep(sw, xmlTextWriterEndElement(sw->w)); }

void ss_text(ss_writer *sw, const char *text)
{
	keep(sw, xmlTextWriterWriteString(sw->w, BAD_CAST text));
}

void ss_attr(ss_writer *sw, const char *k, const char *v)
{
	keep(sw, xmlTextWriterWriteAttribute(sw->w, BAD_CAST k, BAD_CAST v));
}

void ss_attr_num(ss_writer *sw, const char *k, double v)
{
	char buf[32];
	ss_attr(sw, k, sw_fmt_num(buf, sizeof buf, v));
}

/* --- the scenario document ------------------------------------------------------------------ */

static void vertex(ss_writer *sw, double x, double y, int line)
{
	ss_start(sw, "vertex", line);
	ss_attr_num(sw, "x", x);
	ss_attr_num(sw, "y", y);
	ss_end(sw);
}

/* Whether goal k of agent i steers to a fixed place (and may use a navigation field to get
 * there): static and box goals, and chases of an agent that stands still. */
static int fixed_place(const ss_inst *in, int i, int k, const ss_goal *g)
{
	return g->kind == SS_SEEK_STATIC || g->kind == SS_SEEK_BOX || in[i].standing[k];
}

/* A goal with a target point of its own: static, flow and box goals, chases of an agent that
 * stands still (not idle, not other agents). */
static int has_target(const ss_inst *in, int i, int k, const ss_goal *g)
{
	return g->kind != SS_IDLE && (in[i].tagent[k] < 0 || in[i].standing[k]);
}

/* Whether every goal of agent element a is idle: its agents stand where they were placed. */
static int stands_still(const ss_agents *a)
{
	for (int k = 0; k < a->n_goals; k++)
		if (a->goals[k].kind != SS_IDLE)
			return 0;
	return a->n_goals > 0;
}

/* Agents placed where another one already stands (curve4 puts three at the origin): loaded as
 * written, with a warning at the later one, since SteerBench counts the overlap as a collision
 * at the first frame and no law can avoid it.  Agents of regions are drawn clear of the others,
 * so only the pairs of <agent> elements are checked (quadratic in their number, a few hundred
 * in the public cases). */
static void warn_overlaps(sw__loader *ld, const ss_case *c, const ss_inst *in, int n_in)
{
	for (int j = 0; j < n_in; j++) {
		const ss_agents *b = &c->agents[in[j].elem];
		for (int i = 0; !b->region && i < j; i++) {
			const ss_agents *a = &c->agents[in[i].elem];
			double depth = a->radius + b->radius - hypot(in[j].x - in[i].x, in[j].z - in[i].z);
			if (a->region || !(depth > 0.0))
				continue;
			char msg[SW_DIAG_MSG];
			snprintf(msg, sizeof msg,
				 "agent '%s' starts overlapping agent '%s' by %g m; SteerBench counts "
				 "it as a collision at the first frame",
				 in[j].name, in[i].name, depth);
			sw__loader_msg(ld, b->line, 0, SW_SEV_WARNING, 0, msg);
			break;
		}
	}
}

/* A seekDynamicTarget goal whose agents all chase agents that stand still (every goal idle, as
 * the chased agent of EXAMPLE) is a walk to a fixed place: it gets a target at the chased
 * agent's place, and with it a navigation field round the obstacles, which a chase of a moving
 * agent cannot have.  It is still reached within q<k> of the agent's centre.  Marked per
 * element, since the element's automaton declares the goal's parameter a target or an agent. */
static void mark_standing(const ss_case *c, ss_inst *in)
{
	int first = 0;
	for (int e = 0; e < c->n_agents; e++) {
		const ss_agents *a = &c->agents[e];
		for (int k = 0; k < a->n_goals; k++) {
			int all = a->goals[k].kind == SS_SEEK_DYNAMIC;
			for (int i = first; all && i < first + a->n; i++)
				all = in[i].tagent[k] >= 0 &&
				      stands_still(&c->agents[in[in[i].tagent[k]].elem]);
			for (int i = first; i < first + a->n; i++) {
				in[i].standing[k] = all;
				if (all) {
					in[i].tx[k] = in[in[i].tagent[k]].x;
					in[i].tz[k] = in[in[i].tagent[k]].z;
				}
			}
		}
		first += a->n;
	}
}

typedef struct place_key {
	double x, z;
	int i, k;
} place_key;

static int place_cmp(const void *pa, const void *pb)
{
	const place_key *a = pa, *b = pb;
	if (a->x != b->x)
		return a->x < b->x ? -1 : 1;
	if (a->z != b->z)
		return a->z < b->z ? -1 : 1;
	if (a->i != b->i)
		return a->i < b->i ? -1 : 1;
	return (a->k > b->k) - (a->k < b->k);
}

/* Goals with a fixed place that lead to the same point share one target (the first in
 * document order, share_i/share_k): a crowd walking to one exit has one target and so one
 * navigation field.  Every other goal is its own.  Sorting keeps it O(N log N) for crowds of
 * thousands.  Returns 0, or -1 when out of memory. */
static int share_targets(const ss_case *c, ss_inst *in, int n_in)
{
	size_t n = 0;
	for (int i = 0; i < n_in; i++)
		n += (size_t)c->agents[in[i].elem].n_goals;
	place_key *key = malloc((n + 1) * sizeof *key);
	if (!key)
		return -1;
	n = 0;
	for (int i = 0; i < n_in; i++) {
		const ss_agents *a = &c->agents[in[i].elem];
		for (int k = 0; k < a->n_goals; k++) {
			in[i].share_i[k] = i;
			in[i].share_k[k] = k;
			if (has_target(in, i, k, &a->goals[k]) && fixed_place(in, i, k, &a->goals[k]))
				key[n++] = (place_key){in[i].tx[k], in[i].tz[k], i, k};
		}
	}
	qsort(key, n, sizeof *key, place_cmp);
	for (size_t s = 1; s < n; s++)
		if (key[s].x == key[s - 1].x && key[s].z == key[s - 1].z) {
			const ss_inst *first = &in[key[s - 1].i];
			in[key[s].i].share_i[key[s].k] = first->share_i[key[s - 1].k];
			in[key[s].i].share_k[key[s].k] = first->share_k[key[s - 1].k];
		}
	free(key);
	return 0;
}

/* Whether goal k of agent i owns its target (is the first to lead to its point). */
static int owns_target(const ss_inst *in, int i, int k)
{
	return in[i].share_i[k] == i && in[i].share_k[k] == k;
}

/* The name of the target goal k of agent i steers to. */
static void target_name(char *buf, size_t n, const ss_inst *in, int i, int k)
{
	snprintf(buf, n, "%s_g%d", in[in[i].share_i[k]].name, in[i].share_k[k]);
}

static void grow(double box[4], double x, double z, double r)
{
	box[0] = fmin(box[0], x - r);
	box[1] = fmax(box[1], x + r);
	box[2] = fmin(box[2], z - r);
	box[3] = fmax(box[3], z + r);
}

/* Global planning, as SteerSuite's AI modules plan their paths: when the case has obstacles,
 * each point its static and box goals lead to gets a navigation field and the goals steer along
 * it (docs/steersuite.md).  The fields are geodesic (<navfield method="distance">: shortest
 * routes, found in one pass over the grid, nothing cached), so a case may have many.  Their
 * grids cover the obstacles, targets and start positions (as sw_navgrid_rasterize does); the
 * spacing starts at SS_FIELD_H and doubles while all the fields together would have more than
 * SS_FIELD_NODES nodes, as long as it stays within half the smallest agent radius (a gap one
 * diameter plus one spacing wide is then always open).  Returns the spacing, or 0 for no
 * fields: no obstacles, no fixed places, a flow goal (its far target, SS_FLOW_REACH away, would
 * stretch every grid over it), or too many places for the budget.  In that last case *routes
 * is set to the spacing of planned routes instead (<routes>: one grid, a route planned per agent
 * and goal): half the smallest agent radius, doubled while the grid would have more than
 * SS_ROUTE_NODES nodes; else it is 0. */
static double use_fields(const ss_case *c, const ss_shape *s, int n_shapes, const ss_inst *in,
			 int n_in, double *routes)
{
	*routes = 0.0;
	int n = 0;
	double rmin = INFINITY, box[4] = {INFINITY, -INFINITY, INFINITY, -INFINITY};
	for (int k = 0; k < n_shapes; k++) {
		if (s[k].disc)
			grow(box, s[k].cx, s[k].cz, s[k].r);
		else
			for (int q = 0; q < s[k].n; q++)
				grow(box, ss_shape_v(&s[k])[2 * q], ss_shape_v(&s[k])[2 * q + 1], 0.0);
	}
	for (int i = 0; i < n_in; i++) {
		const ss_agents *a = &c->agents[in[i].elem];
		rmin = fmin(rmin, a->radius);
		grow(box, in[i].x, in[i].z, 0.0);
		for (int k = 0; k < a->n_goals; k++) {
			const ss_goal *g = &a->goals[k];
			if (g->kind == SS_FLOW_STATIC)
				return 0.0;
			if (has_target(in, i, k, g) && fixed_place(in, i, k, g) &&
			    owns_target(in, i, k)) {
				n++;
				grow(box, in[i].tx[k], in[i].tz[k], 0.0);
			}
		}
	}
	if (n_shapes == 0 || n == 0)
		return 0.0;
	for (double h = SS_FIELD_H; h <= 0.5 * rmin; h *= 2.0) {
		double nodes = (floor((box[1] - box[0] + 2 * SS_FIELD_MARGIN) / h) + 1) *
			       (floor((box[3] - box[2] + 2 * SS_FIELD_MARGIN) / h) + 1);
		if (n * nodes <= SS_FIELD_NODES)
			return h;
	}
	for (double h = 0.5 * rmin;; h *= 2.0) {
		double nodes = (floor((box[1] - box[0] + 2 * SS_FIELD_MARGIN) / h) + 1) *
			       (floor((box[3] - box[2] + 2 * SS_FIELD_MARGIN) / h) + 1);
		if (nodes <= SS_ROUTE_NODES) {
			*routes = h;
			break;
		}
	}
	return 0.0;
}

/* The <world>: obstacles, targets, regions, and with h > 0 (use_fields' spacing) the fields,
 * with routes > 0 the planned routes. */
static void world_write(ss_writer *sw, const ss_case *c, const ss_shape *s, int n_shapes,
			const ss_inst *in, int n_in, double h, double routes)
{
	ss_start(sw, "world", 0);
	if (routes > 0.0) {
		ss_start(sw, "routes", 0);
		ss_attr_num(sw, "resolution", routes);
		ss_end(sw);
	}
	for (int k = 0; k < n_shapes; k++) {
		if (s[k].disc) {
			ss_start(sw, "disc", s[k].line);
			ss_attr_num(sw, "x", s[k].cx);
			ss_attr_num(sw, "y", s[k].cz);
			ss_attr_num(sw, "radius", s[k].r);
		} else {
			ss_start(sw, "polygon", s[k].line);
			if (!s[k].closed)
				ss_attr(sw, "closed", "false");
			for (int q = 0; q < s[k].n; q++)
				vertex(sw, ss_shape_v(&s[k])[2 * q], ss_shape_v(&s[k])[2 * q + 1],
				       s[k].line);
		}
		ss_end(sw);
	}
	char name[2 * SW_NAME_MAX];
	for (int i = 0; i < n_in; i++) {
		const ss_agents *a = &c->agents[in[i].elem];
		for (int k = 0; k < a->n_goals; k++) {
			const ss_goal *g = &a->goals[k];
			if (!has_target(in, i, k, g))
				continue;
			snprintf(name, sizeof name, "%s_g%d", in[i].name, k);
			if (owns_target(in, i, k)) {
				ss_start(sw, "target", g->line);
				ss_attr(sw, "name", name);
				ss_attr_num(sw, "x", in[i].tx[k]);
				ss_attr_num(sw, "y", in[i].tz[k]);
				ss_attr_num(sw, "radius", a->radius);
				ss_end(sw);
			}
			if (h > 0.0 && fixed_place(in, i, k, g) && owns_target(in, i, k)) {
				char field[2 * SW_NAME_MAX + 8];
				snprintf(field, sizeof field, "%s_n%d", in[i].name, k);
				ss_start(sw, "navfield", g->line);
				ss_attr(sw, "name", field);
				ss_attr(sw, "target", name);
				ss_attr(sw, "method", "distance");
				if (h != SS_FIELD_H)
					ss_attr_num(sw, "resolution", h);
				ss_end(sw);
			}
			if (g->kind != SS_SEEK_BOX)
				continue;
			snprintf(name, sizeof name, "%s_r%d", in[i].name, k);
			ss_start(sw, "region", g->line);
			ss_attr(sw, "name", name);
			ss_attr_num(sw, "x1", g->box[0]);
			ss_attr_num(sw, "y1", g->box[2]);
			ss_attr_num(sw, "x2", g->box[1]);
			ss_attr_num(sw, "y2", g->box[3]);
			ss_end(sw);
		}
	}
	ss_end(sw);
}

static void bind(ss_writer *sw, char prefix, int k, const char *value, int line)
{
	char param[16];
	snprintf(param, sizeof param, "%c%d", prefix, k);
	ss_start(sw, "bind", line);
	ss_attr(sw, "param", param);
	ss_attr(sw, "value", value);
	ss_end(sw);
}

static void agent_write(ss_writer *sw, const ss_case *c, const ss_inst *in, int i, double reach)
{
	const ss_inst *me = &in[i];
	const ss_agents *a = &c->agents[me->elem];
	char aut[32], name[2 * SW_NAME_MAX];
	snprintf(aut, sizeof aut, "steersuite%d", me->elem);
	ss_start(sw, "agent", a->line);
	ss_attr(sw, "name", me->name);
	ss_attr_num(sw, "x", me->x);
	ss_attr_num(sw, "y", me->z);
	ss_attr_num(sw, "heading", me->heading);
	ss_attr_num(sw, "speed", a->speed);
	ss_attr_num(sw, "radius", a->radius);
	if (isfinite(ss_perception(a)))
		ss_attr_num(sw, "perception", ss_perception(a));
	ss_attr(sw, "behaviour", aut);
	for (int k = 0; k < a->n_goals; k++) {
		const ss_goal *g = &a->goals[k];
		if (g->kind == SS_IDLE)
			continue;
		int j = me->tagent[k];
		if (j >= 0 && !me->standing[k]) {
			bind(sw, 'g', k, in[j].name, g->line);
		} else {
			target_name(name, sizeof name, in, i, k);
			bind(sw, 'g', k, name, g->line);
		}
		if (g->kind == SS_SEEK_DYNAMIC) {
			/* reached as a static target is, with the chased disc as the target */
			sw_fmt_num(name, sizeof name,
				   c->agents[in[j].elem].radius + reach * a->radius);
			bind(sw, 'q', k, name, g->line);
		}
		if (g->kind == SS_SEEK_BOX) {
			snprintf(name, sizeof name, "%s_r%d", me->name, k);
			bind(sw, 'r', k, name, g->line);
		}
	}
	ss_end(sw);
}

/* The run's duration: the one given, else the longest goal sequence's time budget (every
 * agent is done or expired by then), at least one step and at most SS_MAX_DURATION: machine-
 * written cases give budgets such as 3e33 s to mean "no limit", and the run stops anyway when
 * every agent is done (stop-when-done). */
static double run_duration(sw__loader *ld, const ss_case *c, const sw_steersuite_def *def)
{
	if (def->duration > 0)
		return def->duration;
	double duration = 0.0;
	int longest = 0;
	for (int e = 0; e < c->n_agents; e++) {
		double sum = 0;
		for (int k = 0; k < c->agents[e].n_goals; k++)
			sum += c->agents[e].goals[k].duration;
		if (sum > duration)
			duration = sum, longest = e;
	}
	if (duration > SS_MAX_DURATION) {
		char msg[SW_DIAG_MSG];
		snprintf(msg, sizeof msg,
			 "the goal sequence's time budget is %g s; the run lasts at most %g s (it "
			 "ends earlier when every agent is done; -d sets another length)",
			 duration, SS_MAX_DURATION);
		sw__loader_msg(ld, c->agents[longest].line, 0, SW_SEV_WARNING, 0, msg);
		duration = SS_MAX_DURATION;
	}
	return duration < def->step ? def->step : duration;
}

static void scenario_write(ss_writer *sw, const ss_case *c, const sw_steersuite_def *def,
			   double duration, const ss_shape *s, int n_shapes, const ss_inst *in, int n_in)
{
	keep(sw, xmlTextWriterSetIndent(sw->w, 1));
	keep(sw, xmlTextWriterSetIndentString(sw->w, BAD_CAST "  "));
	keep(sw, xmlTextWriterStartDocument(sw->w, "1.0", "UTF-8", NULL));
	keep(sw, xmlTextWriterWriteComment(
		     sw->w, BAD_CAST " Generated by swerve import-steersuite from a SteerSuite test "
				     "case (docs/steersuite.md). "));
	ss_start(sw, "scenario", 0);
	ss_attr(sw, "name", c->name);
	if (c->description && c->description[0]) {
		ss_start(sw, "description", 0);
		ss_text(sw, c->description);
		ss_end(sw);
	}
	ss_start(sw, "run", 0);
	ss_attr_num(sw, "duration", duration);
	ss_attr_num(sw, "step", def->step);
	char seed[32];
	snprintf(seed, sizeof seed, "%llu", (unsigned long long)def->seed);
	ss_attr(sw, "seed", seed);
	ss_attr(sw, "steerbench", "true");
	/* frames of def->frame when that is a whole number of steps, else one step each */
	double k = def->frame / def->step;
	if (k >= 1.0 && k < 1e9 && fabs(k - nearbyint(k)) <= 1e-9 * k)
		ss_attr_num(sw, "steerbench-frame", def->frame);
	ss_attr(sw, "leave-when-done", "true"); /* SteerSuite disables finished agents */
	ss_attr(sw, "stop-when-done", "true");
	ss_attr(sw, "obstacle-clearances", "false"); /* SteerBench counts overlaps, not minima */
	ss_end(sw);
	ss_start(sw, "behaviours", 0);
	char aut[32];
	double routes = 0.0;
	double h = def->fields ? use_fields(c, s, n_shapes, in, n_in, &routes) : 0.0;
	for (int e = 0, first = 0; e < c->n_agents; first += c->agents[e++].n) {
		const ss_agents *a = &c->agents[e];
		/* an emitter's agents start where it was placed, and walk two frames (or steps)
		 * after the last one finished, as in SteerSuite (steersuite_goals.c) */
		double wait = 2.0 * (def->frame / def->step >= 1.0 ? def->frame : def->step);
		ss_emission emit = {a->n > 0 ? in[first].x : 0.0, a->n > 0 ? in[first].z : 0.0,
				    a->n > 0 ? in[first].heading : 0.0, a->speed, wait};
		snprintf(aut, sizeof aut, "steersuite%d", e);
		ss_automaton_write(sw, a, aut, def->reach, h > 0.0 || routes > 0.0,
				   a->n > 0 ? in[first].standing : NULL, a->emitter ? &emit : NULL);
	}
	ss_end(sw);
	world_write(sw, c, s, n_shapes, in, n_in, h, routes);
	for (int i = 0; i < n_in; i++)
		agent_write(sw, c, in, i, def->reach);
	ss_end(sw);
	keep(sw, xmlTextWriterEndDocument(sw->w));
}

int ss_emit(sw__loader *ld, const ss_case *c, const sw_steersuite_def *def, char **xml,
	    size_t *len, int **srcline, int *n_src)
{
	*xml = NULL;
	*srcline = NULL;
	ss_placed pl;
	int placed = ss_place(ld, c, def->seed, &pl);
	xmlBufferPtr buf = placed > 0 ? xmlBufferCreate() : NULL;
	ss_writer sw = {buf ? xmlNewTextWriterMemory(buf, 0) : NULL, NULL, 0, 0, 0, def->squeeze};
	int status = placed == 0 ? SW_EINPUT : SW_ENOMEM;
	if (sw.w) {
		warn_overlaps(ld, c, pl.in, pl.n_in);
		mark_standing(c, pl.in);
		if (share_targets(c, pl.in, pl.n_in) == 0) {
			scenario_write(&sw, c, def, run_duration(ld, c, def), pl.shapes, pl.n_shapes,
				       pl.in, pl.n_in);
			xmlFreeTextWriter(sw.w); /* flushes into buf */
			sw.w = NULL;
			size_t n = (size_t)xmlBufferLength(buf);
			*xml = sw.rc == 0 ? malloc(n + 1) : NULL;
			if (*xml) {
				memcpy(*xml, xmlBufferContent(buf), n);
				(*xml)[n] = '\0';
				*len = n;
				*srcline = sw.lines;
				*n_src = sw.n;
				sw.lines = NULL;
				status = SW_SUCCESS;
			}
		}
	}
	if (sw.w)
		xmlFreeTextWriter(sw.w);
	if (buf)
		xmlBufferFree(buf);
	free(sw.lines);
	ss_placed_free(&pl);
	return status;
}
