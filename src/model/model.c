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
