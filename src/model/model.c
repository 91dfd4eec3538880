/* model/model.c - building, checking and freeing compiled models.
 *
 * Every value is checked where it enters (sw_model_add_*), so programs that build models in C get
 * the same diagnostics as the XML reader.  Finalisation resolves names and checks the scene. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "automaton_impl.h"
#include "geom/bucket.h"
#include "model_internal.h"
#include "steer/steer_internal.h" /* the laws' parameter tables */

sw_obstacle_def sw_default_obstacle_def(void)
{
	sw_obstacle_def d;
	memset(&d, 0, sizeof d);
	d.shape = SW_SHAPE_DISC;
	d.radius = 0.5;
	d.closed = 1;
	return d;
}

sw_target_def sw_default_target_def(void)
{
	sw_target_def d;
	memset(&d, 0, sizeof d);
	d.radius = 0.5;
	return d;
}

sw_agent_def sw_default_agent_def(void)
{
	sw_agent_def d;
	memset(&d, 0, sizeof d);
	d.radius = 0.25;
	d.perception = INFINITY;
	d.stop_at_target = 1;
	d.steer = sw_default_steer_def();
	d.personality = sw_default_personality();
	return d;
}

sw_run_def sw_default_run_def(void)
{
	sw_run_def d;
	memset(&d, 0, sizeof d);
	d.duration = 30.0;
	d.step = 0.25;
	d.sample = 0.0;
	d.seed = 1;
	strcpy(d.integrator, "euler");
	d.fixed = 0;
	d.substeps = 1;
	d.rtol = 1e-6;
	d.atol = 1e-9;
	d.event_tol = 1e-9;
	d.agents_perceive = 1;
	d.neighbor_grid = 1;
	d.obstacle_clearances = 1;
	return d;
}

sw_model *sw_model_alloc(const char *name, const char *file)
{
	sw_model *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	snprintf(m->name, sizeof m->name, "%s", name ? name : "scenario");
	snprintf(m->file, sizeof m->file, "%s", file ? file : "");
	m->run = sw_default_run_def();
	m->run.sample = m->run.step;
	return m;
}

void sw_model_free(sw_model *m)
{
	if (!m)
		return;
	free(m->obstacles);
	free(m->prims);
	free(m->targets);
	free(m->agents);
	free(m->points);
	for (int k = 0; k < m->n_automata; k++)
		sw_automaton_free(m->automata[k]);
	free(m->automata);
	free(m->regions);
	free(m->signals);
	free(m->bindings);
	sw__names_free(m);
	sw__free_fields(m);
	free(m);
}

static int find(const char *name, const void *base, int n, size_t stride);

/* Grows an array to hold at least need elements; returns 0 on success. */
static int grow(void **arr, int *cap, int need, size_t elem)
{
	if (need <= *cap)
		return 0;
	int n = *cap ? *cap : 8;
	while (n < need)
		n *= 2;
	void *p = realloc(*arr, (size_t)n * elem);
	if (!p)
		return -1;
	*arr = p;
	*cap = n;
	return 0;
}

#define GROW(m, field, capf, need) grow((void **)&(m)->field, &(m)->capf, (need), sizeof *(m)->field)

/* Context for value checks: where the object came from. */
typedef struct {
	sw_diag *diag;
	const sw_model *m;
	int line;
	const char *what; /* e.g. "disc 'o1'" */
	int bad;
} checker;

static void bad(checker *c, const char *field, double v, const char *expected)
{
	sw_diag_add(c->diag, SW_SEV_ERROR, c->m->file, c->line, 0, "%s: %s = %g, expected %s",
		    c->what, field, v, expected);
	c->bad = 1;
}

static void need_finite(checker *c, const char *field, double v)
{
	if (!isfinite(v))
		bad(c, field, v, "a finite number");
}

static void positive(checker *c, const char *field, double v)
{
	if (!(isfinite(v) && v > 0.0))
		bad(c, field, v, "a finite number > 0");
}

static void nonneg(checker *c, const char *field, double v)
{
	if (!(isfinite(v) && v >= 0.0))
		bad(c, field, v, "a finite number >= 0");
}

static void unit(checker *c, const char *field, double v)
{
	if (!(isfinite(v) && v >= 0.0 && v <= 1.0))
		bad(c, field, v, "a number in [0, 1]");
}

static void vec(checker *c, const char *field, sw_vec2 v)
{
	if (!isfinite(v.x) || !isfinite(v.y))
		bad(c, field, isfinite(v.x) ? v.y : v.x, "finite coordinates");
}

static int name_ok(checker *c, const char *name)
{
	if (name && strlen(name) >= SW_NAME_MAX) {
		sw_diag_add(c->diag, SW_SEV_ERROR, c->m->file, c->line, 0,
			    "%s: name is longer than %d characters", c->what, SW_NAME_MAX - 1);
		c->bad = 1;
		return 0;
	}
	return 1;
}

static int add_points(sw_model *m, const sw_vec2 *p, int n)
{
	if (GROW(m, points, cap_points, m->n_points + n))
		return -1;
	if (n > 0)
		memcpy(m->points + m->n_points, p, (size_t)n * sizeof *p);
	m->n_points += n;
	return 0;
}

static int compile_motion(sw_model *m, checker *c, const sw_motion_def *d, sw_motion *out)
{
	memset(out, 0, sizeof *out);
	out->kind = d->kind;
	switch (d->kind) {
	case SW_MOTION_NONE:
		return SW_SUCCESS;
	case SW_MOTION_LINEAR:
		vec(c, "velocity", d->velocity);
		out->velocity = d->velocity;
		return SW_SUCCESS;
	case SW_MOTION_WAYPOINTS:
		positive(c, "waypoint speed", d->speed);
		if (d->n_points < 2 || !d->points) {
			bad(c, "waypoint count", d->n_points, "at least 2 waypoints");
			return SW_EINPUT;
		}
		for (int i = 0; i < d->n_points; i++)
			vec(c, "waypoint", d->points[i]);
		if (c->bad)
			return SW_EINPUT;
		out->speed = d->speed;
		out->first = m->n_points;
		out->count = d->n_points;
		out->loop_length = sw_polyline_loop_length(d->points, d->n_points);
		if (!(out->loop_length > 0.0)) {
			bad(c, "waypoint loop length", out->loop_length, "distinct waypoints");
			return SW_EINPUT;
		}
		return add_points(m, d->points, d->n_points) ? SW_ENOMEM : SW_SUCCESS;
	default:
		bad(c, "motion kind", d->kind, "none, linear or waypoints");
		return SW_EINPUT;
	}
}

static int add_prim(sw_model *m, int is_segment, sw_vec2 a, sw_vec2 b, double r, int owner)
{
	if (GROW(m, prims, cap_prims, m->n_prims + 1))
		return -1;
	sw_prim *p = &m->prims[m->n_prims++];
	p->is_segment = is_segment;
	p->a = a;
	p->b = b;
	p->radius = r;
	p->owner = owner;
	return 0;
}

int sw_model_add_obstacle(sw_model *m, const sw_obstacle_def *def, sw_diag *diag)
{
	if (!m || !def || m->finalized)
		return SW_EUSAGE;
	char what[SW_NAME_MAX + 32];
	static const char *shape_name[] = {"disc", "segment", "polygon"};
	const char *shape = def->shape <= SW_SHAPE_POLYGON ? shape_name[def->shape] : "obstacle";
	snprintf(what, sizeof what, "%s '%.*s'", shape, SW_NAME_MAX - 1,
		 def->name && def->name[0] ? def->name : "(unnamed)");
	checker c = {diag, m, def->line, what, 0};
	name_ok(&c, def->name);
	if (GROW(m, obstacles, cap_obstacles, m->n_obstacles + 1))
		return SW_ENOMEM;
	sw_obstacle o;
	memset(&o, 0, sizeof o);
	if (def->name && def->name[0])
		snprintf(o.name, sizeof o.name, "%s", def->name);
	else
		snprintf(o.name, sizeof o.name, "obstacle%d", m->n_obstacles);
	o.line = def->line;
	o.shape = def->shape;
	o.closed = def->closed;
	int idx = m->n_obstacles;
	int np = m->n_prims, npts = m->n_points;
	switch (def->shape) {
	case SW_SHAPE_DISC:
		vec(&c, "centre", def->center);
		positive(&c, "radius", def->radius);
		if (c.bad)
			return SW_EINPUT;
		o.center = def->center;
		o.radius = def->radius;
		if (add_prim(m, 0, def->center, def->center, def->radius, idx))
			return SW_ENOMEM;
		break;
	case SW_SHAPE_SEGMENT: {
		vec(&c, "end point", def->a);
		vec(&c, "end point", def->b);
		if (!c.bad && sw_v2_dist(def->a, def->b) <= 0.0)
			bad(&c, "length", 0.0, "distinct end points");
		if (c.bad)
			return SW_EINPUT;
		sw_vec2 ab[2] = {def->a, def->b};
		o.first = m->n_points;
		o.count = 2;
		if (add_points(m, ab, 2) || add_prim(m, 1, def->a, def->b, 0.0, idx))
			return SW_ENOMEM;
		break;
	}
	case SW_SHAPE_POLYGON: {
		int need = def->closed ? 3 : 2;
		if (def->n_vertices < need || !def->vertices) {
			bad(&c, "vertex count", def->n_vertices,
			    def->closed ? "at least 3 vertices for a closed polygon"
					: "at least 2 vertices");
			return SW_EINPUT;
		}
		for (int i = 0; i < def->n_vertices; i++)
			vec(&c, "vertex", def->vertices[i]);
		if (c.bad)
			return SW_EINPUT;
		o.first = m->n_points;
		o.count = def->n_vertices;
		if (add_points(m, def->vertices, def->n_vertices))
			return SW_ENOMEM;
		int edges = def->closed ? def->n_vertices : def->n_vertices - 1;
		for (int i = 0; i < edges; i++) {
			sw_vec2 a = def->vertices[i], b = def->vertices[(i + 1) % def->n_vertices];
			if (sw_v2_dist(a, b) <= 0.0)
				continue; /* repeated vertex: no edge */
			if (add_prim(m, 1, a, b, 0.0, idx))
				return SW_ENOMEM;
		}
		if (m->n_prims == np) {
			bad(&c, "perimeter", 0.0, "distinct vertices");
			m->n_points = npts;
			return SW_EINPUT;
		}
		break;
	}
	default:
		bad(&c, "shape", def->shape, "disc, segment or polygon");
		return SW_EINPUT;
	}
	o.prim_first = np;
	o.prim_count = m->n_prims - np;
	int st = compile_motion(m, &c, &def->motion, &o.motion);
	if (st != SW_SUCCESS || c.bad) {
		m->n_prims = np;
		m->n_points = npts;
		return st != SW_SUCCESS ? st : SW_EINPUT;
	}
	m->obstacles[m->n_obstacles++] = o;
	return SW_SUCCESS;
}

int sw_model_add_target(sw_model *m, const sw_target_def *def, sw_diag *diag)
{
	if (!m || !def || m->finalized)
		return SW_EUSAGE;
	char what[SW_NAME_MAX + 32];
	snprintf(what, sizeof what, "target '%.*s'", SW_NAME_MAX - 1,
		 def->name ? def->name : "(unnamed)");
	checker c = {diag, m, def->line, what, 0};
	if (!def->name || !def->name[0]) {
		sw_diag_add(diag, SW_SEV_ERROR, m->file, def->line, 0, "target: a name is required");
		return SW_EINPUT;
	}
	name_ok(&c, def->name);
	vec(&c, "position", def->position);
	positive(&c, "radius", def->radius);
	if (c.bad)
		return SW_EINPUT;
	if (GROW(m, targets, cap_targets, m->n_targets + 1))
		return SW_ENOMEM;
	sw_target t;
	memset(&t, 0, sizeof t);
	snprintf(t.name, sizeof t.name, "%s", def->name);
	t.line = def->line;
	t.position = def->position;
	t.radius = def->radius;
	t.z = def->z;
	int npts = m->n_points;
	int st = compile_motion(m, &c, &def->motion, &t.motion);
	if (st != SW_SUCCESS || c.bad) {
		m->n_points = npts;
		return st != SW_SUCCESS ? st : SW_EINPUT;
	}
	m->targets[m->n_targets++] = t;
	return SW_SUCCESS;
}

/* "a, b or c" of a NULL-terminated list of names into buf. */
static void or_list(char *buf, size_t n, const char *const *names)
{
	int count = 0;
	while (names[count])
		count++;
	size_t at = 0;
	buf[0] = '\0';
	for (int k = 0; k < count && at < n; k++)
		at += (size_t)snprintf(buf + at, n - at, "%s%s",
				       k == 0 ? "" : k + 1 == count ? " or " : ", ", names[k]);
}

/* Checks every parameter of the law's table (steer/params.c) in the table's order; a field is
 * named "<element> <attribute>", as the scenario writes it. */
int sw__check_steer(const sw_model *m, const sw_steer_def *def, int line, const char *what,
		     sw_diag *diag)
{
	checker c = {diag, m, line, what, 0};
	const sw__law_table *t = sw__law_table_of(def->law);
	if (!t) {
		bad(&c, "law", def->law, "glm, fw, potential, wall, ttc, sf or csm");
		return SW_EINPUT;
	}
	const char *params = (const char *)def + t->def_off;
	for (int k = 0; k < t->n; k++) {
		const sw__law_param *q = &t->p[k];
		char field[64], list[96];
		snprintf(field, sizeof field, "%s %s", t->element, q->name);
		double v = sw__law_param_get(q, params);
		switch (q->check) {
		case SW__CK_NONE: break;
		case SW__CK_FINITE: need_finite(&c, field, v); break;
		case SW__CK_POS: positive(&c, field, v); break;
		case SW__CK_NONNEG: nonneg(&c, field, v); break;
		case SW__CK_UNIT: unit(&c, field, v); break;
		case SW__CK_SPEED:
			nonneg(&c, field, v);
			if (v > SW__SPEED_MAX)
				bad(&c, field, v, "a speed of at most 15 m/s");
			break;
		case SW__CK_PI:
			if (!(fabs(v) <= SW_PI))
				bad(&c, field, v, "an angle in [-pi, pi]");
			break;
		case SW__CK_CHOICE: {
			int most = 0;
			while (q->choices[most + 1])
				most++;
			or_list(list, sizeof list, q->choices);
			if (!(v >= 0 && v <= most))
				bad(&c, field, v, list);
			break;
		}
		case SW__CK_SIDE:
			if (v != 1 && v != -1)
				bad(&c, field, v, "right (+1) or left (-1)");
			break;
		}
	}
	return c.bad ? SW_EINPUT : SW_SUCCESS;
}

/* A trait's distribution: uniform(lo, hi) with 0 <= lo <= hi <= 1, normal(mean, sd) with the
 * mean in [0, 1] and sd >= 0. */
static void check_trait(checker *c, const char *name, const sw_trait_dist *d)
{
	char what[64];
	snprintf(what, sizeof what, "%s (distribution's first number)", name);
	if (d->kind == SW_TRAIT_UNIFORM) {
		unit(c, what, d->p1);
		snprintf(what, sizeof what, "%s (distribution's second number)", name);
		unit(c, what, d->p2);
		if (d->p1 > d->p2)
			bad(c, name, d->p2, "uniform(lo, hi) with lo <= hi");
	} else if (d->kind == SW_TRAIT_NORMAL) {
		unit(c, what, d->p1);
		snprintf(what, sizeof what, "%s (standard deviation)", name);
		nonneg(c, what, d->p2);
	}
}

static void check_personality(checker *c, const sw_personality *p)
{
	check_trait(c, "agility", &p->agility_dist);
	check_trait(c, "mass", &p->mass_dist);
	check_trait(c, "courage", &p->courage_dist);
	if (p->has_agility) {
		unit(c, "agility", p->agility);
		positive(c, "lambda-k-min", p->lambda_k_min);
		positive(c, "lambda-k-max", p->lambda_k_max);
	}
	if (p->has_mass) {
		unit(c, "mass", p->mass);
		positive(c, "lambda-m-min", p->lambda_m_min);
		positive(c, "lambda-m-max", p->lambda_m_max);
	}
	if (p->has_courage) {
		unit(c, "courage", p->courage);
		positive(c, "d0-floor", p->d0_floor);
	}
}

/* Appends one binding per parameter of automaton a: defaults, then the agent's own values. */
static int add_bindings(sw_model *m, checker *c, const struct sw_automaton *a,
			const sw_agent_def *def, int *first)
{
	if (GROW(m, bindings, cap_bindings, m->n_bindings + a->n_params))
		return SW_ENOMEM;
	/* No parameters: b stays NULL (m->bindings may be NULL, and NULL + 0 is undefined). */
	sw_binding *b = a->n_params > 0 ? m->bindings + m->n_bindings : NULL;
	for (int j = 0; j < a->n_params; j++) {
		memset(&b[j], 0, sizeof b[j]);
		b[j].index = -1;
		b[j].line = -def->line; /* negative: not bound (yet) */
		if (a->params[j].has_default) {
			b[j].line = def->line;
			b[j].value = a->params[j].def_value;
			snprintf(b[j].text, SW_NAME_MAX, "%s", a->params[j].def_name);
		}
	}
	for (int k = 0; k < def->n_bindings; k++) {
		const sw_binding_def *bd = &def->bindings[k];
		int j = 0;
		while (j < a->n_params && strcmp(a->params[j].name, bd->param ? bd->param : "") != 0)
			j++;
		if (j == a->n_params) {
			sw_diag_add(c->diag, SW_SEV_ERROR, m->file, bd->line, 0,
				    "%s: behaviour '%s' has no parameter '%s'", c->what, a->name,
				    bd->param ? bd->param : "");
			c->bad = 1;
			continue;
		}
		b[j].line = bd->line;
		if (a->params[j].kind == SW_PARAM_REAL) {
			/* Plain decimal notation only (strtod alone would take hex, inf, nan). */
			const char *v = bd->value ? bd->value : "";
			char *end = NULL;
			b[j].value = strtod(v, &end);
			if (!bd->value || end == v || *end || !isfinite(b[j].value) ||
			    strspn(v, "0123456789+-.eE") != strlen(v)) {
				sw_diag_add(c->diag, SW_SEV_ERROR, m->file, bd->line, 0,
					    "%s: parameter '%s' = '%s'; expected a finite number",
					    c->what, bd->param, bd->value ? bd->value : "");
				c->bad = 1;
			}
		} else if (!bd->value || strlen(bd->value) >= SW_NAME_MAX) {
			sw_diag_add(c->diag, SW_SEV_ERROR, m->file, bd->line, 0,
				    "%s: parameter '%s' needs the name of a %s", c->what, bd->param,
				    "world object");
			c->bad = 1;
		} else {
			snprintf(b[j].text, SW_NAME_MAX, "%s", bd->value);
		}
	}
	for (int j = 0; j < a->n_params; j++)
		if (b[j].line < 0) {
			sw_diag_add(c->diag, SW_SEV_ERROR, m->file, def->line, 0,
				    "%s: behaviour '%s' needs a value for parameter '%s' (no default); "
				    "expected <bind param=\"%s\" value=\"...\"/>",
				    c->what, a->name, a->params[j].name, a->params[j].name);
			c->bad = 1;
		}
	if (c->bad)
		return SW_EINPUT;
	*first = m->n_bindings;
	m->n_bindings += a->n_params;
	return SW_SUCCESS;
}

int sw_model_add_agent(sw_model *m, const sw_agent_def *def, sw_diag *diag)
{
	if (!m || !def || m->finalized)
		return SW_EUSAGE;
	char what[SW_NAME_MAX + 32];
	snprintf(what, sizeof what, "agent '%.*s'", SW_NAME_MAX - 1,
		 def->name && def->name[0] ? def->name : "(unnamed)");
	checker c = {diag, m, def->line, what, 0};
	name_ok(&c, def->name);
	vec(&c, "position", def->position);
	need_finite(&c, "heading", def->heading);
	nonneg(&c, "speed", def->speed);
	positive(&c, "radius", def->radius);
	if (!(def->perception > 0.0)) /* INFINITY allowed */
		bad(&c, "perception", def->perception, "a number > 0");
	if (def->target && strlen(def->target) >= SW_NAME_MAX)
		bad(&c, "target name length", (double)strlen(def->target), "a shorter name");
	if (sw__check_steer(m, &def->steer, def->line, what, diag) != SW_SUCCESS)
		c.bad = 1;
	check_personality(&c, &def->personality);
	if (sw__check_agent3(m, def, what, diag) != SW_SUCCESS)
		c.bad = 1;
	if (c.bad)
		return SW_EINPUT;
	if (GROW(m, agents, cap_agents, m->n_agents + 1))
		return SW_ENOMEM;
	sw_agent a;
	memset(&a, 0, sizeof a);
	if (def->name && def->name[0])
		snprintf(a.name, sizeof a.name, "%s", def->name);
	else
		snprintf(a.name, sizeof a.name, "agent%d", m->n_agents);
	a.line = def->line;
	a.position = def->position;
	a.heading = def->heading;
	a.speed = def->speed;
	a.radius = def->radius;
	a.perception = def->perception;
	a.z = def->z;
	a.pitch = def->pitch;
	a.stop_at_target = def->stop_at_target;
	a.steer = def->steer;
	a.personality = def->personality;
	a.target = -1; /* the closest target */
	a.behaviour = -1;
	if (def->behaviour && def->behaviour[0]) {
		a.behaviour = sw_model_find_automaton(m, def->behaviour);
		if (a.behaviour < 0 || m->automata[a.behaviour]->is_signal)
			return sw_diag_add(diag, SW_SEV_ERROR, m->file, def->line, 0,
					   "%s: unknown behaviour '%s'; expected the name of a "
					   "behaviour automaton of the scenario",
					   what, def->behaviour);
		int st = add_bindings(m, &c, m->automata[a.behaviour], def, &a.binding_first);
		if (st != SW_SUCCESS)
			return st;
	} else if (def->n_bindings > 0) {
		return sw_diag_add(diag, SW_SEV_ERROR, m->file, def->bindings[0].line, 0,
				   "%s: parameter bindings without a behaviour; expected a "
				   "behaviour attribute",
				   what);
	}
	m->agents[m->n_agents] = a;
	if (def->target && def->target[0]) {
		if (sw__names_build(m, SW_NAMES_TARGET) != SW_SUCCESS)
			return SW_ENOMEM;
		int t = sw_model_find_target(m, def->target);
		if (t < 0) {
			sw_diag_add(diag, SW_SEV_ERROR, m->file, def->line, 0,
				    "%s: unknown target '%s'; expected the name of a <target> defined "
				    "before the agent",
				    what, def->target);
			return SW_EINPUT;
		}
		m->agents[m->n_agents].target = t;
	}
	m->n_agents++;
	return SW_SUCCESS;
}

int sw_model_add_automaton(sw_model *m, sw_automaton *a, int line, sw_diag *diag)
{
	if (!m || !a || m->finalized) {
		sw_automaton_free(a);
		return SW_EUSAGE;
	}
	if (sw_model_find_automaton(m, a->name) >= 0) {
		sw_diag_add(diag, SW_SEV_ERROR, m->file, line, 0,
			    "automaton name '%s' is already used; expected a unique name", a->name);
		sw_automaton_free(a);
		return SW_EINPUT;
	}
	if (GROW(m, automata, cap_automata, m->n_automata + 1)) {
		sw_automaton_free(a);
		return SW_ENOMEM;
	}
	m->automata[m->n_automata++] = a;
	return SW_SUCCESS;
}

int sw_model_add_region(sw_model *m, const sw_region_def *def, sw_diag *diag)
{
	if (!m || !def || m->finalized)
		return SW_EUSAGE;
	char what[SW_NAME_MAX + 32];
	snprintf(what, sizeof what, "region '%.*s'", SW_NAME_MAX - 1, def->name ? def->name : "");
	checker c = {diag, m, def->line, what, 0};
	if (!def->name || !def->name[0])
		return sw_diag_add(diag, SW_SEV_ERROR, m->file, def->line, 0,
				   "region: a name is required");
	name_ok(&c, def->name);
	if (def->n_vertices < 3 || !def->vertices)
		bad(&c, "vertex count", def->n_vertices, "at least 3 vertices");
	for (int i = 0; !c.bad && i < def->n_vertices; i++)
		vec(&c, "vertex", def->vertices[i]);
	if (c.bad)
		return SW_EINPUT;
	if (GROW(m, regions, cap_regions, m->n_regions + 1))
		return SW_ENOMEM;
	sw_region r;
	memset(&r, 0, sizeof r);
	snprintf(r.name, sizeof r.name, "%s", def->name);
	r.line = def->line;
	r.first = m->n_points;
	r.count = def->n_vertices;
	if (add_points(m, def->vertices, def->n_vertices))
		return SW_ENOMEM;
	m->regions[m->n_regions++] = r;
	return SW_SUCCESS;
}

int sw_model_add_signal(sw_model *m, const sw_signal_def *def, sw_diag *diag)
{
	if (!m || !def || m->finalized)
		return SW_EUSAGE;
	if (!def->name || !def->name[0] || strlen(def->name) >= SW_NAME_MAX)
		return sw_diag_add(diag, SW_SEV_ERROR, m->file, def->line, 0,
				   "signal: a name of at most %d characters is required",
				   SW_NAME_MAX - 1);
	int a = def->automaton ? sw_model_find_automaton(m, def->automaton) : -1;
	if (a < 0 || !m->automata[a]->is_signal)
		return sw_diag_add(diag, SW_SEV_ERROR, m->file, def->line, 0,
				   "signal '%s': unknown signal automaton '%s'; expected the name of "
				   "an automaton of kind signal",
				   def->name, def->automaton ? def->automaton : "");
	if (def->has_position && !(isfinite(def->position.x) && isfinite(def->position.y)))
		return sw_diag_add(diag, SW_SEV_ERROR, m->file, def->line, 0,
				   "signal '%s': position (%g, %g) is not finite", def->name,
				   def->position.x, def->position.y);
	if (GROW(m, signals, cap_signals, m->n_signals + 1))
		return SW_ENOMEM;
	sw_signal sg;
	memset(&sg, 0, sizeof sg);
	snprintf(sg.name, sizeof sg.name, "%s", def->name);
	sg.line = def->line;
	sg.automaton = a;
	sg.has_position = def->has_position != 0;
	sg.position = def->position;
	m->signals[m->n_signals++] = sg;
	return SW_SUCCESS;
}

int sw_model_find_automaton(const sw_model *m, const char *name)
{
	for (int k = 0; k < m->n_automata; k++)
		if (strcmp(m->automata[k]->name, name) == 0)
			return k;
	return -1;
}

int sw_model_find_region(const sw_model *m, const char *name)
{
	return find(name, m->regions, m->n_regions, sizeof *m->regions);
}

int sw_model_find_signal(const sw_model *m, const char *name)
{
	return find(name, m->signals, m->n_signals, sizeof *m->signals);
}

int sw_run_multiple(double t, double step)
{
	double k = t / step;
	return fabs(k - nearbyint(k)) <= 1e-9 * k && nearbyint(k) >= 1.0;
}

int sw_model_set_run(sw_model *m, const sw_run_def *def, int line, sw_diag *diag)
{
	if (!m || !def || m->finalized)
		return SW_EUSAGE;
	checker c = {diag, m, line, "run", 0};
	positive(&c, "duration", def->duration);
	positive(&c, "step", def->step);
	if (def->sample != 0.0)
		positive(&c, "sample", def->sample);
	positive(&c, "rtol", def->rtol);
	positive(&c, "atol", def->atol);
	positive(&c, "event-tol", def->event_tol);
	if (def->substeps < 1)
		bad(&c, "substeps", def->substeps, "an integer >= 1");
	if (!c.bad && def->sample != 0.0 && !sw_run_multiple(def->sample, def->step))
		bad(&c, "sample", def->sample, "a positive multiple of step");
	if (!c.bad && def->steerbench_frame != 0.0 &&
	    !(def->steerbench_frame / def->step < 1e9 &&
	      sw_run_multiple(def->steerbench_frame, def->step)))
		bad(&c, "steerbench-frame", def->steerbench_frame, "a positive multiple of step");
	if (c.bad)
		return SW_EINPUT;
	m->run = *def;
	m->run_line = line;
	if (m->run.sample == 0.0)
		m->run.sample = m->run.step;
	return SW_SUCCESS;
}

static int find(const char *name, const void *base, int n, size_t stride)
{
	for (int i = 0; i < n; i++)
		if (strcmp((const char *)base + (size_t)i * stride, name) == 0)
			return i;
	return -1;
}

int sw_model_find_target(const sw_model *m, const char *name)
{
	return sw__names_find(m, SW_NAMES_TARGET, name);
}

int sw_model_find_obstacle(const sw_model *m, const char *name)
{
	return sw__names_find(m, SW_NAMES_OBSTACLE, name);
}

int sw_model_find_agent(const sw_model *m, const char *name)
{
	return sw__names_find(m, SW_NAMES_AGENT, name);
}

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
		if (a->steer.law == SW_LAW_GLM && a->personality.courage_dist.kind == SW_TRAIT_FIXED)
			a->steer.glm = sw_glm_with_personality(&a->steer.glm, &a->personality);
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
