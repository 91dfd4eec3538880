/* io/steersuite_emit.c - random placement and the swerve scenario of a SteerSuite test case.
 *
 * Random draws come from one GSL stream (mt19937, sw_rng_stream_alloc) seeded from the import
 * seed, in document order: the squares of every <obstacleRegion>, then per agent element and per
 * agent its position (uniform in regionBounds, or in worldBounds for <random>true</random>; the
 * disc kept inside the box when it fits), its direction (uniform angle) and its goals' random
 * targets (uniform in worldBounds, or in the goal box) and random dynamic targets (uniform among
 * the other agents).  A region's squares are placed as SteerSuite places them (squares_place).
 * Positions and targets are redrawn (at most SS_TRIES times) until clear of every obstacle (a
 * target anywhere in the world by SS_GOAL_CLEAR) and, for positions, of every agent placed so
 * far; the same seed gives the same scenario.  The obstacles and the agents placed so far are
 * kept in box grids (geom/bucket.h), so a draw tests only those whose box comes within its
 * radius: the same answers as testing them all, without the cost quadratic in the agents and
 * obstacles of large regions (5000 of each).
 *
 * The scenario is written with libxml2's xmlTextWriter; every element's test-case line is
 * recorded so that the scenario reader's messages can be mapped back (steersuite.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_math.h>
#include <gsl/gsl_rng.h>

#include "core/core_internal.h"
#include "geom/bucket.h"
#include "io/steersuite_internal.h"
#include "swerve/geom.h"

/* Stream number of the placement draws ("SteerSui"): distinct from the agents' streams 0..n-1. */
#define SS_STREAM UINT64_C(0x5374656572537569)
/* Clearance of a random target anywhere in the world from the obstacles, m: SteerSuite's AIs
 * draw one with a disc of 1 m clear of them (rvo2dAI, pprAI). */
#define SS_GOAL_CLEAR 1.0
/* Draws per position before giving up. */
#define SS_TRIES 1000
/* Distance of the target a flowStaticDirection goal steers to, m: its bearing from anywhere
 * within 100 m of the start differs from the flow direction by at most 1e-4 rad. */
#define SS_FLOW_REACH 1e6
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

/* --- obstacles as shapes ------------------------------------------------------------------ */

typedef struct shape {
	int line, disc, closed, n;
	int region;       /* a square of an <obstacleRegion> (squares_place) */
	double cx, cz, r; /* disc */
	double v[8];      /* polygon of up to 4 vertices (boxes) ... */
	const double *pv; /* ... or the vertices of a polygonObstacle */
} shape;

static const double *shape_v(const shape *s) { return s->pv ? s->pv : s->v; }

static void rect(shape *s, double x0, double x1, double z0, double z1)
{
	double v[8] = {x0, z0, x1, z0, x1, z1, x0, z1};
	memcpy(s->v, v, sizeof v);
	s->n = 4;
	s->closed = 1;
}

/* Clearance of a disc of radius r at (x, z) to shape s, m (< 0: overlap). */
static double clearance(const shape *s, double x, double z, double r)
{
	sw_vec2 p = sw_v2(x, z);
	if (s->disc)
		return hypot(x - s->cx, z - s->cz) - s->r - r;
	const double *v = shape_v(s);
	sw_vec2 poly[64];
	double d = INFINITY;
	int m = s->closed ? s->n : s->n - 1;
	for (int k = 0; k < m; k++) {
		int j = (k + 1) % s->n;
		d = fmin(d, sw_segment_distance(sw_v2(v[2 * k], v[2 * k + 1]),
						sw_v2(v[2 * j], v[2 * j + 1]), p));
	}
	if (s->closed && s->n <= 64) {
		for (int k = 0; k < s->n; k++)
			poly[k] = sw_v2(v[2 * k], v[2 * k + 1]);
		if (sw_polygon_contains(poly, s->n, p))
			return -d - r;
	}
	return d - r;
}

/* Expands the obstacles into shapes (a region's squares to be placed by squares_place); NULL when
 * out of memory. */
static shape *shapes_make(const ss_case *c, int *n_out)
{
	int n = 0;
	for (int i = 0; i < c->n_obs; i++)
		n += c->obs[i].kind == SS_REGION ? c->obs[i].n : 1;
	shape *s = calloc((size_t)n + 1, sizeof *s);
	if (!s)
		return NULL;
	int k = 0;
	for (int i = 0; i < c->n_obs; i++) {
		const ss_obstacle *o = &c->obs[i];
		shape *t = &s[k];
		t->line = o->line;
		switch (o->kind) {
		case SS_BOX:
			rect(t, o->b[0], o->b[1], o->b[2], o->b[3]);
			k++;
			break;
		case SS_OBOX: {
			/* Rotation by thetaY about SteerSuite's +y axis (right-handed): the local x
			 * axis goes to (cos, -sin) in swerve's (x, y) = SteerSuite's (x, z). */
			double th = o->theta * SW_PI / 180.0, c0 = cos(th), s0 = sin(th);
			double u[4] = {-1, 1, 1, -1}, w[4] = {-1, -1, 1, 1};
			for (int q = 0; q < 4; q++) {
				double lx = 0.5 * o->sx * u[q], lz = 0.5 * o->sz * w[q];
				t->v[2 * q] = o->cx + lx * c0 + lz * s0;
				t->v[2 * q + 1] = o->cz - lx * s0 + lz * c0;
			}
			t->n = 4;
			t->closed = 1;
			k++;
			break;
		}
		case SS_CIRCLE:
			t->disc = 1, t->cx = o->cx, t->cz = o->cz, t->r = o->radius;
			k++;
			break;
		case SS_POLY:
			t->pv = o->v, t->n = o->n, t->closed = o->closed;
			k++;
			break;
		default: /* SS_REGION: squares placed by squares_place once the others stand */
			for (int q = 0; q < o->n; q++, k++)
				s[k].line = o->line, s[k].region = 1;
		}
	}
	*n_out = n;
	return s;
}

/* --- agents --------------------------------------------------------------------------------- */

/* One agent of the scenario. */
typedef struct inst {
	int elem;              /* index into c->agents */
	char name[SW_NAME_MAX];
	double x, z, heading;
	int placed;            /* position known (fixed, or drawn already) */
	double *tx, *tz;       /* per goal: target point (static, flow, box goals) */
	int *tagent;           /* per goal: agent chased or fled (dynamic goals), -1 none */
	int *share_i, *share_k; /* per goal with a fixed place: the first agent and goal (in
				   document order) whose target is the same point; their target
				   (and navigation field) is this goal's too */
	int *standing;          /* per goal: 1 when it chases an agent that stands still (see
				   mark_standing): tx, tz are that agent's place */
} inst;

typedef struct placer {
	sw__loader *ld;
	gsl_rng *rng;
	const shape *shapes;
	int n_shapes;
	inst *in;
	int n_in;
	int indexed;    /* 1: the grids below hold every shape and every placed agent */
	sw_bucket obs;  /* the shapes' boxes, by shape index */
	sw_bucket ags;  /* the placed agents' boxes (centre +- radius), by agent index */
	int *cand;      /* a query's ids (cap_cand) */
	int cap_cand;
} placer;

/* Bounding box of shape s. */
static void shape_box(const shape *s, double b[4])
{
	if (s->disc) {
		b[0] = s->cx - s->r, b[1] = s->cz - s->r, b[2] = s->cx + s->r, b[3] = s->cz + s->r;
		return;
	}
	const double *v = shape_v(s);
	if (s->n < 1) { /* no vertex: kept in the grid's wide list */
		b[0] = b[1] = b[2] = b[3] = NAN;
		return;
	}
	b[0] = b[2] = v[0], b[1] = b[3] = v[1];
	for (int k = 1; k < s->n; k++) {
		b[0] = fmin(b[0], v[2 * k]), b[2] = fmax(b[2], v[2 * k]);
		b[1] = fmin(b[1], v[2 * k + 1]), b[3] = fmax(b[3], v[2 * k + 1]);
	}
}

/* The query box of a disc of radius r at (x, z): widened far beyond any rounding of the
 * distances tested, so a shape or agent left out is clear of the disc by a margin. */
static void query_box(double x, double z, double r, double q[4])
{
	double s = r + 1e-6 * (1.0 + fabs(x) + fabs(z) + r);
	q[0] = x - s, q[1] = z - s, q[2] = x + s, q[3] = z + s;
}

/* Whether a disc of radius r at (x, z) overlaps none of the shapes placed so far: those in g
 * (every other obstacle, and the squares before square k), each tested exactly. */
static int clear_of_placed(const sw_bucket *g, const shape *s, int n, int k, double x, double z,
			   double r, int *cand, int cap)
{
	double q[4];
	query_box(x, z, r, q);
	int m = sw__bucket_query(g, q, cand, cap);
	if (m < 0) /* too many or too wide: every shape placed so far */
		for (int j = 0; j < n; j++) {
			if ((j < k || !s[j].region) && clearance(&s[j], x, z, r) < 0.0)
				return 0;
		}
	for (int e = 0; e < m; e++)
		if (clearance(&s[cand[e]], x, z, r) < 0.0)
			return 0;
	return 1;
}

/* The squares of every <obstacleRegion> (shapes marked region, in document order), placed as
 * SteerSuite's reader places them: after every other obstacle, each centre uniform in
 * regionBounds shrunk by the side on every edge, drawn again until a disc of the side's radius
 * about it overlaps no obstacle placed before.  Squares therefore never overlap each other: two
 * stand at least half a side apart face to face and (1 - 1/sqrt(2)) of a side corner to face, so
 * a random forest keeps its gaps.  Returns 0, 1 after a report (no room) or -1 when out of
 * memory. */
static int squares_place(sw__loader *ld, const ss_case *c, gsl_rng *rng, shape *s, int n)
{
	double side = 0.0;
	for (int i = 0; i < c->n_obs; i++)
		if (c->obs[i].kind == SS_REGION)
			side = fmax(side, c->obs[i].size);
	if (!(side > 0.0))
		return 0;
	sw_bucket g;
	int cap = n + 64, *cand = malloc((size_t)cap * sizeof *cand);
	if (!cand || sw__bucket_init(&g, fmax(2.0 * side, 1.0), n) != SW_SUCCESS) {
		free(cand);
		return -1;
	}
	int st = 0;
	double b[4];
	for (int k = 0; k < n && st == 0; k++)
		if (!s[k].region) {
			shape_box(&s[k], b);
			st = sw__bucket_add(&g, k, b) == SW_SUCCESS ? 0 : -1;
		}
	for (int i = 0, k = 0; i < c->n_obs && st == 0; i++) {
		const ss_obstacle *o = &c->obs[i];
		if (o->kind != SS_REGION) {
			k++;
			continue;
		}
		double r = o->size;
		for (int q = 0; q < o->n && st == 0; q++, k++) {
			double x = 0.0, z = 0.0;
			int t = 0, clear = 0;
			for (; t < SS_TRIES && !clear; t++) {
				x = o->b[0] + r + gsl_rng_uniform(rng) * (o->b[1] - o->b[0] - 2.0 * r);
				z = o->b[2] + r + gsl_rng_uniform(rng) * (o->b[3] - o->b[2] - 2.0 * r);
				clear = clear_of_placed(&g, s, n, k, x, z, r, cand, cap);
			}
			if (!clear) {
				sw__walk_error_at(ld, o->line, 0,
						  "<obstacleRegion>: no free place for square %d of %d after "
						  "%d random draws (x %g..%g, z %g..%g); expected a region "
						  "with room for squares a side from each other's centres",
						  q + 1, o->n, SS_TRIES, o->b[0], o->b[1], o->b[2], o->b[3]);
				st = 1;
				break;
			}
			rect(&s[k], x - 0.5 * r, x + 0.5 * r, z - 0.5 * r, z + 0.5 * r);
			shape_box(&s[k], b);
			st = sw__bucket_add(&g, k, b) == SW_SUCCESS ? 0 : -1;
		}
	}
	sw__bucket_free(&g);
	free(cand);
	return st;
}

/* Agent j's box in the agents' grid. */
static int agent_add(placer *p, const ss_case *c, int j)
{
	double r = c->agents[p->in[j].elem].radius, x = p->in[j].x, z = p->in[j].z;
	double b[4] = {x - r, z - r, x + r, z + r};
	return sw__bucket_add(&p->ags, j, b);
}

/* Builds the grids over the shapes and the agents placed so far; without memory for them p stays
 * unindexed (every draw then tests everything: the same answers). */
static void placer_index(placer *p, const ss_case *c)
{
	double rmax = 0.0;
	for (int e = 0; e < c->n_agents; e++)
		rmax = fmax(rmax, c->agents[e].radius);
	/* cells about twice a disc's width: a draw's query box meets at most four of them */
	double cell = fmax(4.0 * rmax, 1.0);
	p->cap_cand = p->n_shapes + p->n_in + 64;
	p->cand = malloc((size_t)p->cap_cand * sizeof *p->cand);
	int ok = p->cand && sw__bucket_init(&p->obs, cell, p->n_shapes) == SW_SUCCESS;
	ok = ok && sw__bucket_init(&p->ags, cell, p->n_in) == SW_SUCCESS;
	for (int k = 0; ok && k < p->n_shapes; k++) {
		double b[4];
		shape_box(&p->shapes[k], b);
		ok = sw__bucket_add(&p->obs, k, b) == SW_SUCCESS;
	}
	if (ok)
		sw__bucket_pack(&p->obs); /* (without memory for it, the lists serve) */
	for (int j = 0; ok && j < p->n_in; j++)
		if (p->in[j].placed)
			ok = agent_add(p, c, j) == SW_SUCCESS;
	p->indexed = ok;
}

static void placer_free(placer *p)
{
	sw__bucket_free(&p->obs);
	sw__bucket_free(&p->ags);
	free(p->cand);
	p->cand = NULL;
	p->indexed = 0;
}

static int clear_of_obstacles(const placer *p, double x, double z, double r)
{
	double q[4];
	query_box(x, z, r, q);
	int n = p->indexed ? sw__bucket_query(&p->obs, q, p->cand, p->cap_cand) : -1;
	if (n >= 0) { /* the shapes left out are farther than r */
		for (int s = 0; s < n; s++)
			if (clearance(&p->shapes[p->cand[s]], x, z, r) < 0.0)
				return 0;
		return 1;
	}
	for (int k = 0; k < p->n_shapes; k++)
		if (clearance(&p->shapes[k], x, z, r) < 0.0)
			return 0;
	return 1;
}

/* Whether a disc of radius r at (x, z) overlaps no agent placed so far. */
static int clear_of_agents(const placer *p, const ss_case *c, double x, double z, double r)
{
	double q[4];
	query_box(x, z, r, q);
	int n = p->indexed ? sw__bucket_query(&p->ags, q, p->cand, p->cap_cand) : -1;
	for (int s = 0, j; n >= 0 ? s < n : s < p->n_in; s++) {
		j = n >= 0 ? p->cand[s] : s;
		if (p->in[j].placed &&
		    hypot(p->in[j].x - x, p->in[j].z - z) < r + c->agents[p->in[j].elem].radius)
			return 0;
	}
	return 1;
}

/* Draws a point of box b (the disc of radius r inside it when it fits) clear of the obstacles and,
 * when agents is set, of the agents placed so far (radii from c).  Returns 0, or 1 after a
 * report at line. */
static int draw(placer *p, const ss_case *c, const double b[4], double r, int agents, int line,
		const char *what, double *x, double *z)
{
	double m = (b[1] - b[0] > 2 * r && b[3] - b[2] > 2 * r) ? r : 0.0;
	for (int t = 0; t < SS_TRIES; t++) {
		*x = b[0] + m + gsl_rng_uniform(p->rng) * (b[1] - b[0] - 2 * m);
		*z = b[2] + m + gsl_rng_uniform(p->rng) * (b[3] - b[2] - 2 * m);
		if (clear_of_obstacles(p, *x, *z, r) &&
		    (!agents || clear_of_agents(p, c, *x, *z, r)))
			return 0;
	}
	sw__walk_error_at(p->ld, line, 0,
			  "no free place for %s after %d random draws (x %g..%g, z %g..%g); "
			  "expected a box with room clear of the obstacles%s",
			  what, SS_TRIES, b[0], b[1], b[2], b[3], agents ? " and agents" : "");
	return 1;
}

static int find_agent(const placer *p, const char *name)
{
	for (int j = 0; j < p->n_in; j++)
		if (strcmp(p->in[j].name, name) == 0)
			return j;
	return -1;
}

/* qsort/bsearch order of agent indices by name, then index. */
static const inst *g_sort_in; /* the array being sorted (qsort has no context argument) */

static int by_name(const void *a, const void *b)
{
	int i = *(const int *)a, j = *(const int *)b;
	int c = strcmp(g_sort_in[i].name, g_sort_in[j].name);
	return c ? c : (i > j) - (i < j);
}

static int name_cmp(const void *key, const void *b)
{
	return strcmp((const char *)key, g_sort_in[*(const int *)b].name);
}

/* SteerSuite's reader allows two agents of one name; swerve's names are identifiers of the
 * agents, so the second and later get NAME~2, NAME~3, ... (first free suffix), with a warning.
 * A targetName still finds the first agent of the name, as SteerSuite's lookup does.  Sorting
 * keeps it O(n log n) for the large regions.  Returns 0, or 1 when out of memory. */
static int names_unique(sw__loader *ld, const ss_case *c, inst *in, int n)
{
	int *ord = malloc((size_t)n * sizeof *ord + 1);
	int *renamed = malloc((size_t)n * sizeof *renamed + 1);
	char(*fresh)[SW_NAME_MAX] = malloc((size_t)n * sizeof *fresh + 1); /* applied at the end */
	int n_renamed = 0;
	if (!ord || !renamed || !fresh) {
		free(ord);
		free(renamed);
		free(fresh);
		return 1;
	}
	for (int i = 0; i < n; i++)
		ord[i] = i;
	g_sort_in = in;
	qsort(ord, (size_t)n, sizeof *ord, by_name);
	for (int r = 0; r < n;) {
		int e = r + 1;
		while (e < n && strcmp(in[ord[e]].name, in[ord[r]].name) == 0)
			e++;
		if (e - r > 1)
			sw__loader_msg(ld, c->agents[in[ord[r + 1]].elem].line, 0, SW_SEV_WARNING, 0,
				       "the agent name is given to more than one agent; swerve calls "
				       "the later ones NAME~2, NAME~3, ...");
		int suffix = 2;
		for (int q = r + 1; q < e; q++) {
			char cand[SW_NAME_MAX];
			do {
				char tag[16];
				int t = snprintf(tag, sizeof tag, "~%d", suffix++);
				snprintf(cand, sizeof cand, "%.*s%s", SW_NAME_MAX - 1 - t,
					 in[ord[r]].name, tag);
			} while (bsearch(cand, ord, (size_t)n, sizeof *ord, name_cmp));
			renamed[n_renamed] = ord[q];
			memcpy(fresh[n_renamed++], cand, sizeof cand);
		}
		r = e;
	}
	for (int q = 0; q < n_renamed; q++)
		memcpy(in[renamed[q]].name, fresh[q], sizeof fresh[q]);
	free(fresh);
	free(renamed);
	free(ord);
	g_sort_in = NULL;
	return 0;
}

/* Positions, headings and goal targets of every agent. */
static int place(placer *p, const ss_case *c)
{
	int bad = 0;
	for (int i = 0; i < p->n_in; i++) {
		const ss_agents *a = &c->agents[p->in[i].elem];
		if (!a->region && !a->pos.random) {
			p->in[i].x = a->pos.x, p->in[i].z = a->pos.z;
			p->in[i].placed = 1;
		}
	}
	placer_index(p, c);
	for (int i = 0; i < p->n_in && !bad; i++) {
		inst *in = &p->in[i];
		const ss_agents *a = &c->agents[in->elem];
		if (!in->placed) {
			bad += draw(p, c, a->region ? a->bounds : c->world, a->radius, 1, a->line,
				    "an agent", &in->x, &in->z);
			in->placed = 1;
			if (p->indexed && agent_add(p, c, i) != SW_SUCCESS)
				placer_free(p); /* out of memory: test everything from now on */
		}
		in->heading = a->dir.random ? 2 * SW_PI * gsl_rng_uniform(p->rng) - SW_PI
					    : atan2(a->dir.z, a->dir.x);
		for (int k = 0; k < a->n_goals && !bad; k++) {
			const ss_goal *g = &a->goals[k];
			in->tagent[k] = -1;
			in->tx[k] = g->target.x, in->tz[k] = g->target.z;
			if (g->kind == SS_SEEK_DYNAMIC || g->kind == SS_FLEE_DYNAMIC) {
				if (g->target_name[0] && !g->random_flag) {
					in->tagent[k] = find_agent(p, g->target_name);
				} else if (p->n_in > 1) {
					int j = (int)gsl_rng_uniform_int(p->rng,
									 (unsigned long)p->n_in - 1);
					in->tagent[k] = j >= i ? j + 1 : j;
				}
				if (in->tagent[k] < 0 || in->tagent[k] == i) {
					sw__walk_error_at(p->ld, g->line, 0,
							  "%s target '%s' of agent '%s': %s; "
							  "expected the <name> of another <agent>",
							  g->kind == SS_SEEK_DYNAMIC ? "seek" : "flee",
							  g->target_name, in->name,
							  in->tagent[k] == i ? "the agent itself"
							  : p->n_in > 1      ? "no agent has that name"
									     : "there is no other agent");
					bad++;
				}
			} else if (g->kind == SS_FLOW_STATIC) {
				double th = g->dir.random ? 2 * SW_PI * gsl_rng_uniform(p->rng)
							  : atan2(g->dir.z, g->dir.x);
				in->tx[k] = in->x + SS_FLOW_REACH * cos(th);
				in->tz[k] = in->z + SS_FLOW_REACH * sin(th);
			} else if (g->kind == SS_SEEK_BOX && !g->has_target) {
				in->tx[k] = 0.5 * (g->box[0] + g->box[1]);
				in->tz[k] = 0.5 * (g->box[2] + g->box[3]);
			} else if (g->kind != SS_IDLE && g->target.random) {
				int box = g->kind == SS_SEEK_BOX;
				bad += draw(p, c, box ? g->box : c->world,
					    box ? a->radius : fmax(a->radius, SS_GOAL_CLEAR), 0, g->line,
					    "a random target", &in->tx[k], &in->tz[k]);
			}
		}
	}
	placer_free(p);
	return bad;
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
static int fixed_place(const inst *in, int i, int k, const ss_goal *g)
{
	return g->kind == SS_SEEK_STATIC || g->kind == SS_SEEK_BOX || in[i].standing[k];
}

/* A goal with a target point of its own: static, flow and box goals, chases of an agent that
 * stands still (not idle, not other agents). */
static int has_target(const inst *in, int i, int k, const ss_goal *g)
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
static void warn_overlaps(sw__loader *ld, const ss_case *c, const inst *in, int n_in)
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
static void mark_standing(const ss_case *c, inst *in)
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
static int share_targets(const ss_case *c, inst *in, int n_in)
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
			const inst *first = &in[key[s - 1].i];
			in[key[s].i].share_i[key[s].k] = first->share_i[key[s - 1].k];
			in[key[s].i].share_k[key[s].k] = first->share_k[key[s - 1].k];
		}
	free(key);
	return 0;
}

/* Whether goal k of agent i owns its target (is the first to lead to its point). */
static int owns_target(const inst *in, int i, int k)
{
	return in[i].share_i[k] == i && in[i].share_k[k] == k;
}

/* The name of the target goal k of agent i steers to. */
static void target_name(char *buf, size_t n, const inst *in, int i, int k)
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
static double use_fields(const ss_case *c, const shape *s, int n_shapes, const inst *in,
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
				grow(box, shape_v(&s[k])[2 * q], shape_v(&s[k])[2 * q + 1], 0.0);
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
static void world_write(ss_writer *sw, const ss_case *c, const shape *s, int n_shapes,
			const inst *in, int n_in, double h, double routes)
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
				vertex(sw, shape_v(&s[k])[2 * q], shape_v(&s[k])[2 * q + 1],
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

static void agent_write(ss_writer *sw, const ss_case *c, const inst *in, int i, double reach)
{
	const inst *me = &in[i];
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
			   double duration, const shape *s, int n_shapes, const inst *in, int n_in)
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

/* Allocates the agents of the scenario, named after their <name> or agentN. */
static inst *insts_alloc(const ss_case *c, int *n_out)
{
	int n = 0, goals = 0;
	for (int e = 0; e < c->n_agents; e++) {
		n += c->agents[e].n;
		goals += c->agents[e].n * c->agents[e].n_goals;
	}
	inst *in = calloc((size_t)n + 1, sizeof *in);
	double *d = calloc(2 * (size_t)goals + 1, sizeof *d);
	int *t = calloc(4 * (size_t)goals + 1, sizeof *t);
	if (!in || !d || !t) {
		free(in);
		free(d);
		free(t);
		return NULL;
	}
	int i = 0;
	for (int e = 0; e < c->n_agents; e++)
		for (int q = 0; q < c->agents[e].n; q++, i++) {
			in[i].elem = e;
			if (c->agents[e].name[0])
				snprintf(in[i].name, sizeof in[i].name, "%s", c->agents[e].name);
			else
				snprintf(in[i].name, sizeof in[i].name, "agent%d", i);
			in[i].tx = d;
			in[i].tz = d + c->agents[e].n_goals;
			in[i].tagent = t;
			in[i].share_i = t + goals;
			in[i].share_k = t + 2 * (size_t)goals;
			in[i].standing = t + 3 * (size_t)goals;
			d += 2 * c->agents[e].n_goals;
			t += c->agents[e].n_goals;
		}
	*n_out = n;
	return in;
}

static void insts_free(inst *in)
{
	if (in) {
		free(in[0].tx);
		free(in[0].tagent);
	}
	free(in);
}

int ss_emit(sw__loader *ld, const ss_case *c, const sw_steersuite_def *def, char **xml,
	    size_t *len, int **srcline, int *n_src)
{
	*xml = NULL;
	*srcline = NULL;
	gsl_rng *rng = sw_rng_stream_alloc(def->seed, SS_STREAM);
	int n_shapes = 0, n_in = 0;
	shape *s = rng ? shapes_make(c, &n_shapes) : NULL;
	inst *in = s ? insts_alloc(c, &n_in) : NULL;
	xmlBufferPtr buf = in ? xmlBufferCreate() : NULL;
	ss_writer sw = {buf ? xmlNewTextWriterMemory(buf, 0) : NULL, NULL, 0, 0, 0};
	int status = SW_ENOMEM;
	if (sw.w) {
		placer p = {.ld = ld, .rng = rng, .shapes = s, .n_shapes = n_shapes, .in = in,
			    .n_in = n_in};
		status = SW_EINPUT;
		/* squares first (the stream's order), then the agents */
		int sq = squares_place(ld, c, rng, s, n_shapes);
		int placed = sq < 0 ? -1
			     : sq > 0 ? 0
			     : names_unique(ld, c, in, n_in) == 0 ? place(&p, c) == 0
								 : -1;
		if (placed > 0) {
			warn_overlaps(ld, c, in, n_in);
			mark_standing(c, in);
		}
		if (placed < 0 || (placed && share_targets(c, in, n_in) != 0))
			status = SW_ENOMEM;
		else if (placed) {
			scenario_write(&sw, c, def, run_duration(ld, c, def), s, n_shapes, in,
				       n_in);
			xmlFreeTextWriter(sw.w); /* flushes into buf */
			sw.w = NULL;
			size_t n = (size_t)xmlBufferLength(buf);
			*xml = sw.rc == 0 ? malloc(n + 1) : NULL;
			status = SW_ENOMEM;
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
	insts_free(in);
	free(s);
	if (rng)
		gsl_rng_free(rng);
	return status;
}
