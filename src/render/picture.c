/* render/picture.c - pictures of runs: the world with trajectories (sw_render_image), one frame
 * of a video (sw_render_frame) and an animated SVG (sw_render_animation), all built as scenes.
 *
 * The picture maps the scene's bounding box (every obstacle, region, target and sampled
 * position, plus a margin) onto `width` pixels (less a gutter for the axes), y pointing up.  Trajectories are polylines split
 * where the mode changes, each coloured by its mode key; transitions are marked with a small
 * diamond whose tooltip names the modes and the guard.
 *
 * Colours belong to (automaton, mode) pairs, not to mode indices: mode 3 of the hunter and mode
 * 3 of the prey are different behaviours, and the prey's `caught` is not the hunter's.  The keys
 * are numbered in order of first appearance in the trace (sample by sample, agents in order),
 * so a picture uses the first palette colours for what it shows, every picture of one trace
 * (still, frames, animation) colours alike, and the legend has one row per key. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core_internal.h"
#include "render/scene.h"
#include "render/trace.h"

/* Agent names drawn at most (a crowd's 200 names would hide the picture), and labels placed at
 * most (names, the legend's box). */
enum { NAMES_MAX = 30, LABELS_MAX = 256 };

/* Axes: gutters for the tick labels, px, and the narrowest picture that gets them. */
enum { GUTTER_LEFT = 46, GUTTER_BOTTOM = 30, AXES_MIN_WIDTH = 200 };

/* Signal panel rows, px apart; its top in frames (below the clock) and elsewhere.  Lamp radii
 * and housing half-sizes, px, in the panel and on the map; the phase bar's width, px. */
enum { SIGNAL_ROW = 30, SIGNAL_TOP_FRAME = 26, SIGNAL_TOP = 4 };
enum { LAMP_PANEL = 7, HOUSING_PANEL = 10, LAMP_MAP = 5, HOUSING_MAP = 7, PHASE_BAR = 160,
       PHASE_BAR_MAP = 48 };

sw_render_def sw_default_render_def(void)
{
	sw_render_def d = {900.0, 1.0, 5.0, 0, NULL, 1, 1.0, 1};
	return d;
}

/* The world-to-picture map.  With axes, the map leaves a gutter on the left and at the bottom
 * for the tick labels. */
typedef struct {
	double x0, y1, s; /* left edge, top edge (m), pixels per metre */
	double w, h;      /* picture size, px */
	double ox, gb;    /* left and bottom gutters, px (0 without axes) */
	double xlo, xhi, ylo, yhi; /* the mapped area, m */
} view;

static void grow_box(double *b, double x, double y, double r)
{
	if (!isfinite(x) || !isfinite(y))
		return;
	b[0] = fmin(b[0], x - r);
	b[1] = fmin(b[1], y - r);
	b[2] = fmax(b[2], x + r);
	b[3] = fmax(b[3], y + r);
}

static view make_view(const sw_world *w, const sw_trace *tr, const sw_render_def *def)
{
	const sw_model *m = tr->m;
	double b[4] = {INFINITY, INFINITY, -INFINITY, -INFINITY};
	double tend = sw_world_time(w);
	for (int k = 0; k < m->n_prims; k++) {
		sw_vec2 a, c;
		sw_model_prim_at(m, k, 0.0, &a, &c);
		grow_box(b, a.x, a.y, m->prims[k].radius);
		if (m->prims[k].is_segment)
			grow_box(b, c.x, c.y, 0);
		sw_model_prim_at(m, k, tend, &a, &c);
		grow_box(b, a.x, a.y, m->prims[k].radius);
	}
	for (int k = 0; k < m->n_targets; k++) {
		sw_vec2 p = sw_model_target_position(m, k, 0.0);
		grow_box(b, p.x, p.y, m->targets[k].radius);
	}
	for (int k = 0; k < m->n_signals; k++)
		if (m->signals[k].has_position)
			grow_box(b, m->signals[k].position.x, m->signals[k].position.y, 0);
	for (int k = 0; k < m->n_regions; k++)
		for (int q = 0; q < m->regions[k].count; q++) {
			sw_vec2 p = m->points[m->regions[k].first + q];
			grow_box(b, p.x, p.y, 0);
		}
	for (size_t k = 0; k < (size_t)tr->n_samples * tr->n_agents; k++)
		grow_box(b, tr->pts[k].x, tr->pts[k].y, m->agents[k % tr->n_agents].radius);
	if (!(b[2] > b[0]) || !(b[3] > b[1]))
		b[0] = b[1] = -1, b[2] = b[3] = 1;
	view v;
	int axes = def->axes && def->width >= AXES_MIN_WIDTH;
	v.ox = axes ? GUTTER_LEFT : 0;
	v.gb = axes ? GUTTER_BOTTOM : 0;
	v.x0 = b[0] - def->margin;
	v.y1 = b[3] + def->margin;
	double wm = b[2] - b[0] + 2 * def->margin, hm = b[3] - b[1] + 2 * def->margin;
	v.s = (def->width - v.ox) / wm;
	v.w = def->width;
	v.h = hm * v.s + v.gb;
	v.xlo = v.x0, v.xhi = v.x0 + wm, v.yhi = v.y1, v.ylo = v.y1 - hm;
	return v;
}

/* The colour keys of a trace: key (a, mode) of automaton a (-1: the plain law, whose modes are
 * steer and arrived) is col[first[a + 1] + mode], its number in order of first appearance, or -1
 * when no agent was in it; order[k] = (a, mode) of key k. */
typedef struct {
	int *first, *col;
	int n_slots;  /* entries of col */
	int n_keys;
	int (*order)[2];
} mode_keys;

static void keys_free(mode_keys *mk)
{
	free(mk->first);
	free(mk->col);
	free(mk->order);
}

static int n_modes_of(const sw_model *m, int a)
{
	return a < 0 ? 2 : sw_automaton_n_modes(m->automata[a]);
}

/* Numbers the keys the agents of trace tr visit; 0, or -1 when out of memory. */
static int keys_build(mode_keys *mk, const sw_trace *tr)
{
	const sw_model *m = tr->m;
	memset(mk, 0, sizeof *mk);
	mk->first = malloc((size_t)(m->n_automata + 1) * sizeof *mk->first);
	if (!mk->first)
		return -1;
	for (int a = -1; a < m->n_automata; a++) {
		mk->first[a + 1] = mk->n_slots;
		mk->n_slots += n_modes_of(m, a);
	}
	mk->col = malloc((size_t)mk->n_slots * sizeof *mk->col);
	mk->order = malloc((size_t)mk->n_slots * sizeof *mk->order);
	if (!mk->col || !mk->order) {
		keys_free(mk);
		return -1;
	}
	for (int k = 0; k < mk->n_slots; k++)
		mk->col[k] = -1;
	for (int k = 0; k < tr->n_samples; k++)
		for (int i = 0; i < tr->n_agents; i++) {
			int a = m->agents[i].behaviour, md = trace_at(tr, k, i)->mode;
			if (md < 0 || md >= n_modes_of(m, a))
				continue;
			int *c = &mk->col[mk->first[a + 1] + md];
			if (*c < 0) {
				mk->order[mk->n_keys][0] = a;
				mk->order[mk->n_keys][1] = md;
				*c = mk->n_keys++;
			}
		}
	/* Modes entered and left between two samples: known from the transitions only. */
	for (int k = 0; k < tr->n_events; k++) {
		const trace_ev *e = &tr->events[k];
		if (e->unit >= tr->n_agents)
			continue;
		int a = m->agents[e->unit].behaviour;
		if (e->to < 0 || e->to >= n_modes_of(m, a))
			continue;
		int *c = &mk->col[mk->first[a + 1] + e->to];
		if (*c < 0) {
			mk->order[mk->n_keys][0] = a;
			mk->order[mk->n_keys][1] = e->to;
			*c = mk->n_keys++;
		}
	}
	return 0;
}

/* The colour of agent i's mode md. */
static int mode_colour(const mode_keys *mk, const sw_model *m, int i, int md)
{
	int a = m->agents[i].behaviour;
	if (md < 0 || md >= n_modes_of(m, a) || mk->col[mk->first[a + 1] + md] < 0)
		return 0x808080; /* not recorded (a transition lost when out of memory) */
	return sc_palette(mk->col[mk->first[a + 1] + md]);
}

static double px(const view *v, double x) { return v->ox + (x - v->x0) * v->s; }
static double py(const view *v, double y) { return (v->y1 - y) * v->s; }

static int moves(const sw_model *m, int prim)
{
	return m->obstacles[m->prims[prim].owner].motion.kind != SW_MOTION_NONE;
}

/* Obstacle primitive k at time t, translated by (dx, dy) px; light: the lighter colour. */
static void draw_prim(sw_scene *sc, const view *v, const sw_model *m, int k, double t, int light,
		      double dx, double dy)
{
	int col = light ? 0xd0d0d0 : 0x808080;
	sw_vec2 a, b;
	sw_model_prim_at(m, k, t, &a, &b);
	if (!m->prims[k].is_segment)
		sc_circle(sc, "obstacle", px(v, a.x) + dx, py(v, a.y) + dy, m->prims[k].radius * v->s,
			  sc_filled(col, 0x404040, 1), NULL);
	else
		sc_line(sc, "obstacle", px(v, a.x) + dx, py(v, a.y) + dy, px(v, b.x) + dx,
			py(v, b.y) + dy, sc_stroke(col, fmax(2.0, 0.08 * v->s)), NULL);
}

/* Regions, targets and the obstacles: static ones always; moving ones at t0 (t0 < 0: none) and
 * again, lighter, at t1 (t1 < 0: not again). */
static void draw_world(sw_scene *sc, const view *v, const sw_model *m, double t0, double t1)
{
	for (int k = 0; k < m->n_regions; k++) {
		sc_poly_begin(sc, "region", 1, sc_filled(0xfff3b0, 0xc9a400, 1), m->regions[k].name);
		for (int q = 0; q < m->regions[k].count; q++) {
			sw_vec2 p = m->points[m->regions[k].first + q];
			sc_point(sc, px(v, p.x), py(v, p.y));
		}
		sc_poly_end(sc);
	}
	for (int k = 0; k < m->n_prims; k++)
		if (!moves(m, k) || t0 >= 0)
			draw_prim(sc, v, m, k, moves(m, k) ? t0 : 0.0, 0, 0, 0);
	for (int k = 0; t1 >= 0 && k < m->n_prims; k++)
		if (moves(m, k))
			draw_prim(sc, v, m, k, t1, 1, 0, 0);
	for (int k = 0; k < m->n_targets; k++) {
		sw_vec2 p = sw_model_target_position(m, k, 0.0);
		sc_style st = sc_stroke(0x2ca02c, 1);
		st.dash[0] = 4, st.dash[1] = 3;
		sc_circle(sc, "target", px(v, p.x), py(v, p.y), m->targets[k].radius * v->s, st,
			  m->targets[k].name);
	}
}

/* Every agent's trajectory up to sample kmax, a polyline per stretch in one mode, and its time
 * ticks; faint: thin and pale (the animation's backdrop). */
static void draw_trajectories(sw_scene *sc, const view *v, const sw_trace *tr,
			      const mode_keys *mk, const sw_render_def *def, int kmax, int faint)
{
	for (int i = 0; i < tr->n_agents; i++) {
		int s = 0;
		while (s <= kmax) {
			int mode = trace_at(tr, s, i)->mode, e = s;
			while (e + 1 <= kmax && trace_at(tr, e + 1, i)->mode == mode)
				e++;
			/* Include the next sample so that consecutive pieces join. */
			int last = e + 1 <= kmax ? e + 1 : e;
			sc_style st = sc_stroke(faint ? 0xc0c0c0 : mode_colour(mk, tr->m, i, mode),
						faint ? 1 : 2);
			sc_poly_begin(sc, "trajectory", 0, st, NULL);
			for (int k = s; k <= last; k++)
				sc_point(sc, px(v, trace_at(tr, k, i)->x), py(v, trace_at(tr, k, i)->y));
			sc_poly_end(sc);
			s = e + 1;
		}
		/* Time ticks: the first sample at or after each multiple of tick_every. */
		double next = def->tick_every;
		for (int k = 0; !faint && def->tick_every > 0 && k <= kmax; k++) {
			const trace_pt *p = trace_at(tr, k, i);
			if (p->t + 1e-9 < next)
				continue;
			char buf[SW_NAME_MAX + 48];
			snprintf(buf, sizeof buf, "%s at t = %g s", tr->m->agents[i].name, p->t);
			sc_circle(sc, "tick", px(v, p->x), py(v, p->y), 2.0,
				  sc_filled(0x000000, SC_NONE, 0), buf);
			while (next <= p->t + 1e-9)
				next += def->tick_every;
		}
	}
}

/* A disc with a heading stroke per agent at sample k; fill by mode or white. */
static void draw_agents_at(sw_scene *sc, const view *v, const sw_trace *tr,
			   const mode_keys *mk, int k, const char *cls, int by_mode)
{
	for (int i = 0; i < tr->n_agents; i++) {
		const trace_pt *p = trace_at(tr, k, i);
		double r = tr->m->agents[i].radius * v->s, x = px(v, p->x), y = py(v, p->y);
		char buf[SW_NAME_MAX + 32];
		snprintf(buf, sizeof buf, "%s at t = %g s", tr->m->agents[i].name, p->t);
		int fill = by_mode ? mode_colour(mk, tr->m, i, p->mode) : 0xffffff;
		sc_circle(sc, cls, x, y, r, sc_filled(fill, 0, 1), buf);
		sc_line(sc, "heading", x, y, x + 1.6 * r * cos(p->heading),
			y - 1.6 * r * sin(p->heading), sc_stroke(0, 1), NULL);
	}
}

/* Transition markers of the agents up to time tmax. */
static void draw_events(sw_scene *sc, const view *v, const sw_world *w, const sw_trace *tr,
			const mode_keys *mk, double tmax)
{
	char buf[400];
	for (int k = 0; k < tr->n_events; k++) {
		const trace_ev *e = &tr->events[k];
		if (e->unit >= tr->n_agents || e->t > tmax + 1e-9)
			continue; /* signals have no position */
		double x = px(v, e->x), y = py(v, e->y);
		snprintf(buf, sizeof buf, "%s t=%.3f %s -> %s%s%s [%s]", sw_world_unit_name(w, e->unit),
			 e->t, sw_world_mode_name(w, e->unit, e->from),
			 sw_world_mode_name(w, e->unit, e->to), e->label[0] ? " " : "", e->label,
			 e->guard);
		sc_poly_begin(sc, "transition", 1,
			      sc_filled(mode_colour(mk, tr->m, e->unit, e->to), 0x000000, 1), buf);
		sc_point(sc, x, y - 5);
		sc_point(sc, x + 5, y);
		sc_point(sc, x, y + 5);
		sc_point(sc, x - 5, y);
		sc_poly_end(sc);
	}
}

/* Labels placed so far (text boxes estimated at 0.6 em a character; the legend blocks its box
 * too).  A label that would overlap one already placed is left out, so a crowd's names thin
 * themselves out where agents stand close instead of overprinting into a block. */
typedef struct {
	double box[LABELS_MAX][4]; /* x0 y0 x1 y1, px */
	int n;
} labels;

static void labels_block(labels *lb, double x0, double y0, double x1, double y1)
{
	if (lb->n < LABELS_MAX) {
		double *b = lb->box[lb->n++];
		b[0] = x0, b[1] = y0, b[2] = x1, b[3] = y1;
	}
}

/* Draws text at (x, y) when its box overlaps no placed label and lies in the picture; 1 when
 * drawn. */
static int label(sw_scene *sc, labels *lb, const char *cls, double x, double y, sc_anchor anchor,
		 double size, int colour, const char *text)
{
	double w = 0.6 * size * (double)strlen(text);
	double x0 = anchor == SC_START ? x : anchor == SC_MIDDLE ? x - 0.5 * w : x - w;
	double b[4] = {x0 - 1, y - 0.8 * size, x0 + w + 1, y + 0.25 * size};
	if (lb->n >= LABELS_MAX || b[0] < 0 || b[1] < 0 || b[2] > sc_width(sc) ||
	    b[3] > sc_height(sc))
		return 0;
	for (int k = 0; k < lb->n; k++)
		if (b[0] < lb->box[k][2] && lb->box[k][0] < b[2] && b[1] < lb->box[k][3] &&
		    lb->box[k][1] < b[3])
			return 0;
	labels_block(lb, b[0], b[1], b[2], b[3]);
	sc_text(sc, cls, x, y, anchor, size, 0, colour, text);
	return 1;
}

/* Axes in metres along the left and bottom edges of the map (a frame, ticks every "nice" step,
 * 1, 2 or 5 times a power of ten, giving about 8 along x, the same step along y), their titles,
 * and a scale bar of about a fifth of the map's width at its bottom right.  The scale bar's box
 * blocks labels. */
static void draw_axes(sw_scene *sc, const view *v, labels *lb)
{
	if (v->ox <= 0)
		return;
	char buf[48];
	double bottom = v->h - v->gb, step = sc_nice_step(v->xhi - v->xlo, 8);
	sc_rect(sc, "map-frame", v->ox, 0, v->w - v->ox, bottom, sc_filled(SC_NONE, 0x909090, 1));
	sc_style tick = sc_stroke(0x606060, 1);
	for (double x = ceil(v->xlo / step - 1e-9) * step; x <= v->xhi + 1e-9 * step; x += step) {
		double X = px(v, x);
		snprintf(buf, sizeof buf, "%g", fabs(x) < 1e-9 * step ? 0.0 : x);
		sc_line(sc, "axis-tick", X, bottom, X, bottom + 5, tick, NULL);
		if (X > v->ox + 8 && X < v->w - 40) /* clear of the corner and of the title */
			sc_text(sc, "axis-x", X, bottom + 17, SC_MIDDLE, 11, 0, 0x404040, buf);
	}
	for (double y = ceil(v->ylo / step - 1e-9) * step; y <= v->yhi + 1e-9 * step; y += step) {
		double Y = py(v, y);
		snprintf(buf, sizeof buf, "%g", fabs(y) < 1e-9 * step ? 0.0 : y);
		sc_line(sc, "axis-tick", v->ox - 5, Y, v->ox, Y, tick, NULL);
		if (Y > 26 && Y < bottom - 4) /* clear of the title and of the corner */
			sc_text(sc, "axis-y", v->ox - 7, Y + 4, SC_END, 11, 0, 0x404040, buf);
	}
	sc_text(sc, "axis-title", v->w - 4, v->h - 8, SC_END, 11, 0, 0x404040, "x (m)");
	sc_text(sc, "axis-title", 4, 12, SC_START, 11, 0, 0x404040, "y (m)");
	/* The scale bar: a nice length near a fifth of the width, end ticks, its length above. */
	double len = sc_nice_step(v->xhi - v->xlo, 5), x1 = v->w - 14, x0 = x1 - len * v->s;
	double y = bottom - 12;
	sc_style bar = sc_stroke(0x000000, 3);
	sc_line(sc, "scale-bar", x0, y, x1, y, bar, NULL);
	sc_line(sc, "scale-end", x0, y - 5, x0, y + 5, sc_stroke(0x000000, 1), NULL);
	sc_line(sc, "scale-end", x1, y - 5, x1, y + 5, sc_stroke(0x000000, 1), NULL);
	snprintf(buf, sizeof buf, "%g m", len);
	sc_text(sc, "scale-label", 0.5 * (x0 + x1), y - 6, SC_MIDDLE, 11, 0, 0, buf);
	labels_block(lb, x0 - 2, y - 18, x1 + 2, y + 6);
}

/* The legend: one row per mode key ("automaton: mode", or the mode alone for the plain law) in
 * the keys' order, at most MAX_ROWS (then a row saying how many more). */
static void draw_legend(sw_scene *sc, const view *v, const sw_trace *tr, const mode_keys *mk,
			labels *lb)
{
	double x = v->ox + 3;
	enum { MAX_ROWS = 20 };
	char text[MAX_ROWS + 1][2 * SW_NAME_MAX + 8];
	int rows = mk->n_keys < MAX_ROWS ? mk->n_keys : MAX_ROWS;
	for (int q = 0; q < rows; q++) {
		int a = mk->order[q][0], md = mk->order[q][1];
		if (a < 0)
			snprintf(text[q], sizeof text[q], "%s", md == 1 ? "arrived" : "steer");
		else
			snprintf(text[q], sizeof text[q], "%s: %s",
				 sw_automaton_name(tr->m->automata[a]),
				 sw_automaton_mode_name(tr->m->automata[a], md));
	}
	int more = mk->n_keys - rows;
	if (more > 0)
		snprintf(text[rows], sizeof text[rows], "(%d more)", more);
	int lines = rows + (more > 0);
	/* A white box behind it (text widths estimated at 7 px a character at 12 px). */
	size_t longest = 0;
	for (int q = 0; q < lines; q++)
		longest = strlen(text[q]) > longest ? strlen(text[q]) : longest;
	if (lines > 0) {
		double bw = 38 + 7.0 * (double)longest, bh = 15.0 * lines + 6;
		sc_rect(sc, "legend-box", x, 3, bw, bh, sc_filled(0xffffff, 0xc0c0c0, 1));
		labels_block(lb, x, 3, x + bw, 3 + bh);
	}
	for (int q = 0; q < lines; q++) {
		double y = 16 + 15 * q;
		if (q < rows)
			sc_line(sc, "legend-key", x + 5, y - 4, x + 25, y - 4,
				sc_stroke(sc_palette(q), 3), NULL);
		sc_text(sc, q < rows ? "legend" : "legend-more", x + 31, y, SC_START, 12, 0, 0,
			text[q]);
	}
}

/* Agents' names above (or else below) the starts of their trajectories, in file order: at most
 * NAMES_MAX, and none over another label. */
static void draw_names(sw_scene *sc, const view *v, const sw_trace *tr, labels *lb)
{
	for (int i = 0, drawn = 0; i < tr->n_agents && tr->n_samples > 0 && drawn < NAMES_MAX; i++) {
		const trace_pt *p = trace_at(tr, 0, i);
		double r = tr->m->agents[i].radius * v->s;
		/* above the disc, or below it when that leaves the picture or meets a label */
		int ok = label(sc, lb, "agent-name", px(v, p->x), py(v, p->y) - r - 4, SC_MIDDLE, 11,
			       0x404040, tr->m->agents[i].name) ||
			 label(sc, lb, "agent-name", px(v, p->x), py(v, p->y) + r + 12, SC_MIDDLE, 11,
			       0x404040, tr->m->agents[i].name);
		drawn += ok;
	}
}

/* Every region's name inside its top left corner (of its bounding box), at most NAMES_MAX. */
static void draw_region_labels(sw_scene *sc, const view *v, const sw_model *m, labels *lb)
{
	for (int k = 0, drawn = 0; k < m->n_regions && drawn < NAMES_MAX; k++) {
		double x = INFINITY, y = -INFINITY;
		for (int q = 0; q < m->regions[k].count; q++) {
			sw_vec2 p = m->points[m->regions[k].first + q];
			x = fmin(x, p.x);
			y = fmax(y, p.y);
		}
		drawn += label(sc, lb, "region-label", px(v, x) + 4, py(v, y) + 13, SC_START, 11,
			       0x806000, m->regions[k].name);
	}
}

/* Every target's name to the right of its circle (or else to the left), at time t, at most
 * NAMES_MAX. */
static void draw_target_labels(sw_scene *sc, const view *v, const sw_model *m, double t,
			       labels *lb)
{
	for (int k = 0, drawn = 0; k < m->n_targets && drawn < NAMES_MAX; k++) {
		sw_vec2 p = sw_model_target_position(m, k, t);
		double r = m->targets[k].radius * v->s, x = px(v, p.x), y = py(v, p.y) + 4;
		int ok = label(sc, lb, "target-label", x + r + 3, y, SC_START, 10, 0x1a701a,
			       m->targets[k].name) ||
			 label(sc, lb, "target-label", x - r - 3, y, SC_END, 10, 0x1a701a,
			       m->targets[k].name);
		drawn += ok;
	}
}

/* --- Signals ------------------------------------------------------------------------------
 * A signal (a traffic light) with a position (<signal x= y=>) is drawn where it stands on the
 * map; one without is drawn in a panel at the top right of the picture.  Either way: a dark
 * housing with a lamp in the colour of its current mode and its name and mode beside it.  A mode whose name holds a colour word (cars_red_walk, green, amber ...) is
 * lit in that colour, so a traffic light looks like one; other modes take the palette colour
 * of their index. */

/* The mode of signal sg at time t: its automaton's initial mode, then its recorded
 * transitions (in time order) up to t. */
static int signal_mode_at(const sw_trace *tr, int sg, double t)
{
	int md = sw_automaton_initial(tr->m->automata[tr->m->signals[sg].automaton]);
	for (int k = 0; k < tr->n_events && tr->events[k].t <= t + 1e-9; k++)
		if (tr->events[k].unit == tr->n_agents + sg)
			md = tr->events[k].to;
	return md;
}

static int signal_colour(const sw_model *m, int sg, int md)
{
	static const struct { const char *word; int colour; } lamp[] = {
	    {"red", 0xd62728},   {"green", 0x2ca02c},  {"amber", 0xffb000},
	    {"yellow", 0xffb000}, {"orange", 0xffb000}};
	const char *name = sw_automaton_mode_name(m->automata[m->signals[sg].automaton], md);
	for (const char *c = name ? name : ""; *c;) {
		size_t n = 0;
		while (isalpha((unsigned char)c[n]))
			n++;
		for (size_t q = 0; n > 0 && q < sizeof lamp / sizeof lamp[0]; q++) {
			size_t same = 0;
			while (same < n && lamp[q].word[same] &&
			       tolower((unsigned char)c[same]) == lamp[q].word[same])
				same++;
			if (same == n && !lamp[q].word[n])
				return lamp[q].colour;
		}
		c += n ? n : 1;
	}
	return sc_palette(md);
}

/* The centre of signal sg's lamp: where it stands on the map (returns 1), or in the panel from
 * pixel row top, one row per signal without a position (returns 0). */
static int signal_lamp(const sw_scene *sc, const view *v, const sw_model *m, double top, int sg,
		       double *x, double *y)
{
	if (m->signals[sg].has_position) {
		*x = px(v, m->signals[sg].position.x);
		*y = py(v, m->signals[sg].position.y);
		return 1;
	}
	int row = 0;
	for (int k = 0; k < sg; k++)
		row += !m->signals[k].has_position;
	*x = sc_width(sc) - 18;
	*y = top + 12 + SIGNAL_ROW * row;
	return 0;
}

/* The housing and the name (with the mode at time t when with_mode) of every signal; in the
 * panel from pixel row top their boxes block labels, on the map the name is a label placed
 * right of the housing (or left of it when that place is taken). */
static void draw_signal_rows(sw_scene *sc, const view *v, const sw_trace *tr, double top,
			     double t, int with_mode, labels *lb)
{
	const sw_model *m = tr->m;
	for (int sg = 0; sg < m->n_signals; sg++) {
		double x, y;
		int on_map = signal_lamp(sc, v, m, top, sg, &x, &y);
		char text[2 * SW_NAME_MAX + 4];
		const sw_automaton *a = m->automata[m->signals[sg].automaton];
		if (with_mode)
			snprintf(text, sizeof text, "%s: %s", m->signals[sg].name,
				 sw_automaton_mode_name(a, signal_mode_at(tr, sg, t)));
		else
			snprintf(text, sizeof text, "%s", m->signals[sg].name);
		double h = on_map ? HOUSING_MAP : HOUSING_PANEL;
		sc_rect(sc, "signal-housing", x - h, y - h, 2 * h, 2 * h, sc_filled(0x303030, 0, 1));
		if (on_map) {
			labels_block(lb, x - h, y - h, x + h, y + h);
			if (!label(sc, lb, "signal-label", x + h + 3, y + 4, SC_START, 11, 0, text))
				label(sc, lb, "signal-label", x - h - 3, y + 4, SC_END, 11, 0, text);
			continue;
		}
		sc_text(sc, "signal-label", x - 16, y + 4, SC_END, 12, 0, 0, text);
		labels_block(lb, x - 16 - 7.0 * (double)strlen(text), y - 11, x + 11, y + 11);
	}
}

/* The lamps lit at time t (still pictures and frames). */
static void draw_signal_lamps(sw_scene *sc, const view *v, const sw_trace *tr, double top,
			      double t)
{
	const sw_model *m = tr->m;
	for (int sg = 0; sg < m->n_signals; sg++) {
		double x, y;
		int on_map = signal_lamp(sc, v, m, top, sg, &x, &y);
		int md = signal_mode_at(tr, sg, t);
		char tip[2 * SW_NAME_MAX + 48];
		snprintf(tip, sizeof tip, "%s: %s at t = %g s", m->signals[sg].name,
			 sw_automaton_mode_name(m->automata[m->signals[sg].automaton], md), t);
		sc_circle(sc, "signal", x, y, on_map ? LAMP_MAP : LAMP_PANEL,
			  sc_filled(signal_colour(m, sg, md), 0, 1), tip);
	}
}

/* Under every signal's row, its phases over [t0, t1] as coloured stretches of a bar (still
 * pictures: when the light was what). */
static void draw_signal_phases(sw_scene *sc, const view *v, const sw_trace *tr, double top,
			       double t0, double t1)
{
	const sw_model *m = tr->m;
	double span = t1 > t0 ? t1 - t0 : 1.0;
	for (int sg = 0; sg < m->n_signals; sg++) {
		double x, y;
		int on_map = signal_lamp(sc, v, m, top, sg, &x, &y);
		/* in the panel, right-aligned with the housing; on the map, centred under it */
		double len = on_map ? PHASE_BAR_MAP : PHASE_BAR;
		double left = on_map ? x - 0.5 * len : x + HOUSING_PANEL - len;
		double bar = y + (on_map ? HOUSING_MAP + 2 : HOUSING_PANEL + 2);
		const sw_automaton *a = m->automata[m->signals[sg].automaton];
		int md = sw_automaton_initial(a);
		double from = t0;
		for (int k = 0; k <= tr->n_events; k++) {
			const trace_ev *e = k < tr->n_events ? &tr->events[k] : NULL;
			if (e && e->unit != tr->n_agents + sg)
				continue;
			double to = e ? fmin(fmax(e->t, t0), t1) : t1;
			if (to > from)
				sc_rect(sc, "signal-phase", left + (from - t0) / span * len, bar,
					(to - from) / span * len, 4,
					sc_filled(signal_colour(m, sg, md), SC_NONE, 0));
			if (e) {
				md = e->to;
				from = fmax(from, to);
			}
		}
	}
}

/* The options (def or the defaults) into *d, the view into *v, the colour keys into *mk and an
 * empty scene of the view's size (NULL when out of memory, with a diagnostic; *mk is then
 * freed). */
static sw_scene *begin(const sw_world *w, const sw_trace *tr, const sw_render_def *def,
		       sw_render_def *d, view *v, mode_keys *mk, const char *path, sw_diag *diag)
{
	*d = def ? *def : sw_default_render_def();
	*v = make_view(w, tr, d);
	if (keys_build(mk, tr) != 0) {
		sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "out of memory");
		return NULL;
	}
	sw_scene *sc = sc_new(v->w, v->h, tr->m->name);
	if (!sc) {
		keys_free(mk);
		sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "out of memory");
	}
	return sc;
}

int sw_render_image(const sw_world *w, const sw_trace *tr, const sw_render_def *def,
		    sw_image_format fmt, const char *path, sw_diag *diag)
{
	sw_render_def d;
	view v;
	mode_keys mk;
	sw_scene *sc = begin(w, tr, def, &d, &v, &mk, path, diag);
	if (!sc)
		return SW_ENOMEM;
	draw_world(sc, &v, tr->m, 0.0, sw_world_time(w));
	if (tr->n_samples > 0) {
		draw_trajectories(sc, &v, tr, &mk, &d, tr->n_samples - 1, 0);
		draw_events(sc, &v, w, tr, &mk, INFINITY);
		for (int k = 0; k < d.n_instants; k++)
			draw_agents_at(sc, &v, tr, &mk, trace_sample_before(tr, d.instants[k]),
				       "agent-instant", 0);
		draw_agents_at(sc, &v, tr, &mk, tr->n_samples - 1, "agent", 1);
	}
	/* Signals as they are at the end, and their phases over the run. */
	labels lb = {.n = 0};
	draw_axes(sc, &v, &lb);
	double t0 = tr->n_samples ? trace_at(tr, 0, 0)->t : 0.0;
	double tend = tr->n_samples ? trace_at(tr, tr->n_samples - 1, 0)->t : sw_world_time(w);
	draw_signal_rows(sc, &v, tr, SIGNAL_TOP, tend, 1, &lb);
	draw_signal_lamps(sc, &v, tr, SIGNAL_TOP, tend);
	draw_signal_phases(sc, &v, tr, SIGNAL_TOP, t0, tend);
	if (d.legend) {
		draw_legend(sc, &v, tr, &mk, &lb);
		draw_region_labels(sc, &v, tr->m, &lb);
		draw_names(sc, &v, tr, &lb);
		draw_target_labels(sc, &v, tr->m, 0.0, &lb);
	}
	int st = sc_write(sc, fmt, path, diag);
	sc_free(sc);
	keys_free(&mk);
	return st;
}

int sw_render_svg(const sw_world *w, const sw_trace *tr, const sw_render_def *def,
		  const char *path, sw_diag *diag)
{
	return sw_render_image(w, tr, def, SW_IMAGE_SVG, path, diag);
}

int sw_render_frame(const sw_world *w, const sw_trace *tr, const sw_render_def *def, double t,
		    sw_image_format fmt, const char *path, sw_diag *diag)
{
	sw_render_def d;
	view v;
	mode_keys mk;
	sw_scene *sc = begin(w, tr, def, &d, &v, &mk, path, diag);
	if (!sc)
		return SW_ENOMEM;
	draw_world(sc, &v, tr->m, t, -1.0);
	if (tr->n_samples > 0) {
		int k = trace_sample_before(tr, t);
		draw_trajectories(sc, &v, tr, &mk, &d, k, 0);
		draw_events(sc, &v, w, tr, &mk, t);
		draw_agents_at(sc, &v, tr, &mk, k, "agent", 1);
	}
	labels lb = {.n = 0};
	draw_axes(sc, &v, &lb);
	labels_block(&lb, v.w - 120, 0, v.w, SIGNAL_TOP_FRAME); /* the clock */
	draw_signal_rows(sc, &v, tr, SIGNAL_TOP_FRAME, t, 1, &lb);
	draw_signal_lamps(sc, &v, tr, SIGNAL_TOP_FRAME, t);
	if (d.legend) {
		draw_legend(sc, &v, tr, &mk, &lb);
		draw_region_labels(sc, &v, tr->m, &lb);
		draw_target_labels(sc, &v, tr->m, 0.0, &lb);
	}
	char buf[64];
	snprintf(buf, sizeof buf, "t = %.2f s", t);
	sc_text(sc, "clock", v.w - 8, 18, SC_END, 14, 0, 0, buf);
	int st = sc_write(sc, fmt, path, diag);
	sc_free(sc);
	keys_free(&mk);
	return st;
}

/* Wraps an angle difference to (-180, 180] degrees. */
static double wrap_deg(double a)
{
	a = fmod(a + 180.0, 360.0);
	return (a <= 0 ? a + 360.0 : a) - 180.0;
}

int sw_render_animation(const sw_world *w, const sw_trace *tr, const sw_render_def *def,
			const char *path, sw_diag *diag)
{
	if (def && !(def->anim_speed > 0))
		return sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0,
				   "animation speed %g: expected a number > 0", def->anim_speed),
		       SW_EUSAGE;
	const sw_model *m = tr->m;
	sw_render_def d;
	view v;
	mode_keys mk;
	int n = tr->n_samples;
	sw_scene *sc = begin(w, tr, def, &d, &v, &mk, path, diag);
	if (!sc)
		return SW_ENOMEM;
	double *buf = malloc(4 * (size_t)(n > 0 ? n : 1) * sizeof *buf);
	int *fill = malloc((size_t)(n > 0 ? n : 1) * sizeof *fill);
	if (!buf || !fill) {
		sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "out of memory");
		sc_free(sc);
		keys_free(&mk);
		free(buf);
		free(fill);
		return SW_ENOMEM;
	}
	double *kt = buf, *kx = buf + n, *ky = kx + n, *ka = ky + n;
	double t0 = n ? trace_at(tr, 0, 0)->t : 0.0, t1 = n ? trace_at(tr, n - 1, 0)->t : 0.0;
	double dur = (t1 - t0) / d.anim_speed;
	for (int k = 0; k < n; k++)
		kt[k] = (trace_at(tr, k, 0)->t - t0) / d.anim_speed;
	draw_world(sc, &v, m, -1.0, -1.0);
	if (n > 0) {
		draw_trajectories(sc, &v, tr, &mk, &d, n - 1, 1);
		draw_events(sc, &v, w, tr, &mk, INFINITY);
	}
	/* Moving obstacles: drawn at t0 inside a group translated by their displacement. */
	for (int q = 0; q < m->n_prims && n > 0; q++) {
		if (!moves(m, q))
			continue;
		sw_vec2 a0, b0, a, b;
		sw_model_prim_at(m, q, t0, &a0, &b0);
		for (int k = 0; k < n; k++) {
			sw_model_prim_at(m, q, trace_at(tr, k, 0)->t, &a, &b);
			kx[k] = (a.x - a0.x) * v.s;
			ky[k] = -(a.y - a0.y) * v.s;
		}
		sc_group_begin(sc, "obstacle-anim", 0, 0, 0);
		sc_group_animate(sc, dur, n, kt, kx, ky, NULL, NULL);
		draw_prim(sc, &v, m, q, t0, 0, 0, 0);
		sc_group_end(sc);
	}
	/* Agents: a disc and a heading stroke in their own frame, moved and turned. */
	for (int i = 0; i < tr->n_agents && n > 0; i++) {
		double r = m->agents[i].radius * v.s;
		for (int k = 0; k < n; k++) {
			const trace_pt *p = trace_at(tr, k, i);
			kx[k] = px(&v, p->x);
			ky[k] = py(&v, p->y);
			double a = -p->heading * 180.0 / SW_PI; /* clockwise on screen */
			ka[k] = k ? ka[k - 1] + wrap_deg(a - ka[k - 1]) : a;
			fill[k] = mode_colour(&mk, m, i, p->mode);
		}
		sc_group_begin(sc, "agent-anim", kx[0], ky[0], ka[0]);
		sc_group_animate(sc, dur, n, kt, kx, ky, ka, fill);
		sc_circle(sc, "agent", 0, 0, r, sc_filled(SC_INHERIT, 0, 1), m->agents[i].name);
		sc_line(sc, "heading", 0, 0, 1.6 * r, 0, sc_stroke(0, 1), NULL);
		sc_group_end(sc);
	}
	/* Signals: each lamp a group whose fill follows the signal's mode at every sample. */
	labels lb = {.n = 0};
	draw_axes(sc, &v, &lb);
	draw_signal_rows(sc, &v, tr, SIGNAL_TOP, 0.0, 0, &lb);
	for (int sg = 0; sg < m->n_signals && n > 0; sg++) {
		double x, y;
		int on_map = signal_lamp(sc, &v, m, SIGNAL_TOP, sg, &x, &y);
		int md = sw_automaton_initial(m->automata[m->signals[sg].automaton]), ev = 0;
		for (int k = 0; k < n; k++) {
			/* signal_mode_at, walking the transitions once for all samples */
			double t = trace_at(tr, k, 0)->t;
			for (; ev < tr->n_events && tr->events[ev].t <= t + 1e-9; ev++)
				if (tr->events[ev].unit == tr->n_agents + sg)
					md = tr->events[ev].to;
			kx[k] = x;
			ky[k] = y;
			fill[k] = signal_colour(m, sg, md);
		}
		sc_group_begin(sc, "signal-anim", x, y, 0);
		sc_group_animate(sc, dur, n, kt, kx, ky, NULL, fill);
		sc_circle(sc, "signal", 0, 0, on_map ? LAMP_MAP : LAMP_PANEL,
			  sc_filled(SC_INHERIT, 0, 1), m->signals[sg].name);
		sc_group_end(sc);
	}
	/* The clock: a bar along the bottom edge that fills up over the run. */
	sc_rect(sc, "clock-track", 0, v.h - 5, v.w, 5, sc_filled(0xe0e0e0, SC_NONE, 0));
	sc_rect(sc, "clock", 0, v.h - 5, v.w, 5, sc_filled(0x1f77b4, SC_NONE, 0));
	sc_rect_grow(sc, dur);
	if (d.legend) {
		draw_legend(sc, &v, tr, &mk, &lb);
		draw_region_labels(sc, &v, m, &lb);
		draw_names(sc, &v, tr, &lb);
		draw_target_labels(sc, &v, m, 0.0, &lb);
	}
	free(buf);
	free(fill);
	int st = sc_write(sc, SW_IMAGE_SVG, path, diag);
	sc_free(sc);
	keys_free(&mk);
	return st;
}
