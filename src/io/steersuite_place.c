/* io/steersuite_place.c - the random places of a SteerSuite test case: its region squares, its
 * agents' positions and headings, and their goals' targets.
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
 * obstacles of large regions (5000 of each).  steersuite_emit.c writes the scenario. */
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


/* --- obstacles as shapes ------------------------------------------------------------------ */

static void rect(ss_shape *s, double x0, double x1, double z0, double z1)
{
	double v[8] = {x0, z0, x1, z0, x1, z1, x0, z1};
	memcpy(s->v, v, sizeof v);
	s->n = 4;
	s->closed = 1;
}

/* Clearance of a disc of radius r at (x, z) to shape s, m (< 0: overlap). */
static double clearance(const ss_shape *s, double x, double z, double r)
{
	sw_vec2 p = sw_v2(x, z);
	if (s->disc)
		return hypot(x - s->cx, z - s->cz) - s->r - r;
	const double *v = ss_shape_v(s);
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
static ss_shape *shapes_make(const ss_case *c, int *n_out)
{
	int n = 0;
	for (int i = 0; i < c->n_obs; i++)
		n += c->obs[i].kind == SS_REGION ? c->obs[i].n : 1;
	ss_shape *s = calloc((size_t)n + 1, sizeof *s);
	if (!s)
		return NULL;
	int k = 0;
	for (int i = 0; i < c->n_obs; i++) {
		const ss_obstacle *o = &c->obs[i];
		ss_shape *t = &s[k];
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


typedef struct placer {
	sw__loader *ld;
	gsl_rng *rng;
	const ss_shape *shapes;
	int n_shapes;
	ss_inst *in;
	int n_in;
	int indexed;    /* 1: the grids below hold every shape and every placed agent */
	sw_bucket obs;  /* the shapes' boxes, by shape index */
	sw_bucket ags;  /* the placed agents' boxes (centre +- radius), by agent index */
	int *cand;      /* a query's ids (cap_cand) */
	int cap_cand;
} placer;

/* Bounding box of shape s. */
static void shape_box(const ss_shape *s, double b[4])
{
	if (s->disc) {
		b[0] = s->cx - s->r, b[1] = s->cz - s->r, b[2] = s->cx + s->r, b[3] = s->cz + s->r;
		return;
	}
	const double *v = ss_shape_v(s);
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
 * distances tested, so a ss_shape or agent left out is clear of the disc by a margin. */
static void query_box(double x, double z, double r, double q[4])
{
	double s = r + 1e-6 * (1.0 + fabs(x) + fabs(z) + r);
	q[0] = x - s, q[1] = z - s, q[2] = x + s, q[3] = z + s;
}

/* Whether a disc of radius r at (x, z) overlaps none of the shapes placed so far: those in g
 * (every other obstacle, and the squares before square k), each tested exactly. */
static int clear_of_placed(const sw_bucket *g, const ss_shape *s, int n, int k, double x, double z,
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
static int squares_place(sw__loader *ld, const ss_case *c, gsl_rng *rng, ss_shape *s, int n)
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
static const ss_inst *g_sort_in; /* the array being sorted (qsort has no context argument) */

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
static int names_unique(sw__loader *ld, const ss_case *c, ss_inst *in, int n)
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
		ss_inst *in = &p->in[i];
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

/* Allocates the agents of the scenario, named after their <name> or agentN. */
static ss_inst *insts_alloc(const ss_case *c, int *n_out)
{
	int n = 0, goals = 0;
	for (int e = 0; e < c->n_agents; e++) {
		n += c->agents[e].n;
		goals += c->agents[e].n * c->agents[e].n_goals;
	}
	ss_inst *in = calloc((size_t)n + 1, sizeof *in);
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

static void insts_free(ss_inst *in)
{
	if (in) {
		free(in[0].tx);
		free(in[0].tagent);
	}
	free(in);
}

int ss_place(sw__loader *ld, const ss_case *c, uint64_t seed, ss_placed *out)
{
	memset(out, 0, sizeof *out);
	gsl_rng *rng = sw_rng_stream_alloc(seed, SS_STREAM);
	out->shapes = rng ? shapes_make(c, &out->n_shapes) : NULL;
	out->in = out->shapes ? insts_alloc(c, &out->n_in) : NULL;
	int placed = -1;
	if (out->in) {
		placer p = {.ld = ld, .rng = rng, .shapes = out->shapes, .n_shapes = out->n_shapes,
			    .in = out->in, .n_in = out->n_in};
		/* squares first (the stream's order), then the agents */
		int sq = squares_place(ld, c, rng, out->shapes, out->n_shapes);
		placed = sq < 0	  ? -1
			 : sq > 0 ? 0
			 : names_unique(ld, c, out->in, out->n_in) == 0 ? place(&p, c) == 0
									 : -1;
	}
	if (rng)
		gsl_rng_free(rng);
	if (placed <= 0)
		ss_placed_free(out);
	return placed;
}

void ss_placed_free(ss_placed *pl)
{
	insts_free(pl->in);
	free(pl->shapes);
	memset(pl, 0, sizeof *pl);
}
