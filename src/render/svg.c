/* render/svg.c - traces of runs and their SVG pictures (written with libxml2's text writer).
 *
 * The picture maps the scene's bounding box (every obstacle, region, target and sampled
 * position, plus a margin) onto `width` pixels, y pointing up.  Trajectories are polylines split
 * where the mode changes, each coloured by its mode index; transitions are marked with a small
 * diamond whose <title> names the modes and the guard. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/xmlwriter.h>

#include "swerve/render.h"

typedef struct {
	double t, x, y, heading;
	int mode;
} trace_pt;

typedef struct {
	int unit;
	double t, x, y;
	int from, to;
	char label[64];
	char guard[192];
} trace_ev;

struct sw_trace {
	const sw_model *m;
	int n_agents;
	int n_samples, cap_samples; /* samples: n_samples * n_agents points */
	trace_pt *pts;
	int n_events, cap_events;
	trace_ev *events;
};

static const char *palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
				"#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};
#define N_PALETTE ((int)(sizeof palette / sizeof palette[0]))

sw_trace *sw_trace_alloc(const sw_model *m)
{
	sw_trace *tr = calloc(1, sizeof *tr);
	if (tr) {
		tr->m = m;
		tr->n_agents = m->n_agents;
	}
	return tr;
}

void sw_trace_free(sw_trace *tr)
{
	if (!tr)
		return;
	free(tr->pts);
	free(tr->events);
	free(tr);
}

int sw_trace_n_samples(const sw_trace *tr) { return tr->n_samples; }

int sw_trace_sample(const sw_world *w, void *ctx)
{
	sw_trace *tr = ctx;
	if (tr->n_samples == tr->cap_samples) {
		int nc = tr->cap_samples ? 2 * tr->cap_samples : 64;
		void *p = realloc(tr->pts, (size_t)nc * (size_t)(tr->n_agents ? tr->n_agents : 1) *
						sizeof *tr->pts);
		if (!p)
			return SW_ENOMEM;
		tr->pts = p;
		tr->cap_samples = nc;
	}
	trace_pt *row = tr->pts + (size_t)tr->n_samples * tr->n_agents;
	for (int i = 0; i < tr->n_agents; i++) {
		sw_agent_state s;
		sw_world_agent(w, i, &s);
		row[i] = (trace_pt){sw_world_time(w), s.y[SW_STATE_X], s.y[SW_STATE_Y],
				    s.y[SW_STATE_PHI], s.mode};
	}
	tr->n_samples++;
	return SW_SUCCESS;
}

void sw_trace_event(const sw_world *w, int unit, double t, int from, int to, const char *label,
		    const char *guard, void *ctx)
{
	sw_trace *tr = ctx;
	if (tr->n_events == tr->cap_events) {
		int nc = tr->cap_events ? 2 * tr->cap_events : 32;
		void *p = realloc(tr->events, (size_t)nc * sizeof *tr->events);
		if (!p)
			return; /* the picture loses a marker, nothing else */
		tr->events = p;
		tr->cap_events = nc;
	}
	const double *y = sw_world_unit_state(w, unit, NULL);
	trace_ev *e = &tr->events[tr->n_events++];
	e->unit = unit;
	e->t = t;
	e->x = y[SW_STATE_X];
	e->y = y[SW_STATE_Y];
	e->from = from;
	e->to = to;
	snprintf(e->label, sizeof e->label, "%s", label ? label : "");
	snprintf(e->guard, sizeof e->guard, "%s", guard ? guard : "");
}

sw_render_def sw_default_render_def(void)
{
	sw_render_def d = {900.0, 1.0, 5.0, 0, NULL, 1};
	return d;
}

/* The world-to-picture map. */
typedef struct {
	double x0, y1, s; /* left edge, top edge (m), pixels per metre */
	double w, h;      /* picture size, px */
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
	v.x0 = b[0] - def->margin;
	v.y1 = b[3] + def->margin;
	double wm = b[2] - b[0] + 2 * def->margin, hm = b[3] - b[1] + 2 * def->margin;
	v.s = def->width / wm;
	v.w = def->width;
	v.h = hm * v.s;
	return v;
}

static double px(const view *v, double x) { return (x - v->x0) * v->s; }
static double py(const view *v, double y) { return (v->y1 - y) * v->s; }

/* Attribute helpers: numbers with 2 decimals (pixels) are plenty and keep files small. */
static void attr_num(xmlTextWriterPtr wr, const char *name, double value)
{
	xmlTextWriterWriteFormatAttribute(wr, BAD_CAST name, "%.2f", value);
}

static void attr(xmlTextWriterPtr wr, const char *name, const char *value)
{
	xmlTextWriterWriteAttribute(wr, BAD_CAST name, BAD_CAST value);
}

static void circle(xmlTextWriterPtr wr, double cx, double cy, double r, const char *fill,
		   const char *stroke, const char *cls)
{
	xmlTextWriterStartElement(wr, BAD_CAST "circle");
	attr(wr, "class", cls);
	attr_num(wr, "cx", cx);
	attr_num(wr, "cy", cy);
	attr_num(wr, "r", r);
	attr(wr, "fill", fill);
	attr(wr, "stroke", stroke);
	xmlTextWriterEndElement(wr);
}

static void draw_scene(xmlTextWriterPtr wr, const view *v, const sw_world *w, const sw_trace *tr)
{
	const sw_model *m = tr->m;
	for (int k = 0; k < m->n_regions; k++) {
		char buf[64];
		xmlTextWriterStartElement(wr, BAD_CAST "polygon");
		attr(wr, "class", "region");
		xmlTextWriterStartAttribute(wr, BAD_CAST "points");
		for (int q = 0; q < m->regions[k].count; q++) {
			sw_vec2 p = m->points[m->regions[k].first + q];
			snprintf(buf, sizeof buf, "%s%.2f,%.2f", q ? " " : "", px(v, p.x), py(v, p.y));
			xmlTextWriterWriteString(wr, BAD_CAST buf);
		}
		xmlTextWriterEndAttribute(wr);
		attr(wr, "fill", "#fff3b0");
		attr(wr, "stroke", "#c9a400");
		xmlTextWriterWriteElement(wr, BAD_CAST "title", BAD_CAST m->regions[k].name);
		xmlTextWriterEndElement(wr);
	}
	/* Obstacles at t = 0, and moving ones again (lighter) at the end of the run. */
	for (int pass = 0; pass < 2; pass++) {
		double t = pass ? sw_world_time(w) : 0.0;
		for (int k = 0; k < m->n_prims; k++) {
			const sw_obstacle *o = &m->obstacles[m->prims[k].owner];
			if (pass && o->motion.kind == SW_MOTION_NONE)
				continue;
			const char *col = pass ? "#d0d0d0" : "#808080";
			sw_vec2 a, b;
			sw_model_prim_at(m, k, t, &a, &b);
			if (!m->prims[k].is_segment) {
				circle(wr, px(v, a.x), py(v, a.y), m->prims[k].radius * v->s, col,
				       "#404040", "obstacle");
			} else {
				xmlTextWriterStartElement(wr, BAD_CAST "line");
				attr(wr, "class", "obstacle");
				attr_num(wr, "x1", px(v, a.x));
				attr_num(wr, "y1", py(v, a.y));
				attr_num(wr, "x2", px(v, b.x));
				attr_num(wr, "y2", py(v, b.y));
				attr(wr, "stroke", col);
				attr_num(wr, "stroke-width", fmax(2.0, 0.08 * v->s));
				xmlTextWriterEndElement(wr);
			}
		}
	}
	for (int k = 0; k < m->n_targets; k++) {
		sw_vec2 p = sw_model_target_position(m, k, 0.0);
		xmlTextWriterStartElement(wr, BAD_CAST "circle");
		attr(wr, "class", "target");
		attr_num(wr, "cx", px(v, p.x));
		attr_num(wr, "cy", py(v, p.y));
		attr_num(wr, "r", m->targets[k].radius * v->s);
		attr(wr, "fill", "none");
		attr(wr, "stroke", "#2ca02c");
		attr(wr, "stroke-dasharray", "4 3");
		xmlTextWriterWriteElement(wr, BAD_CAST "title", BAD_CAST m->targets[k].name);
		xmlTextWriterEndElement(wr);
	}
}

static void draw_trajectories(xmlTextWriterPtr wr, const view *v, const sw_trace *tr,
			      const sw_render_def *def)
{
	char buf[64];
	for (int i = 0; i < tr->n_agents; i++) {
		int s = 0;
		while (s < tr->n_samples) {
			int mode = tr->pts[(size_t)s * tr->n_agents + i].mode, e = s;
			while (e + 1 < tr->n_samples &&
			       tr->pts[(size_t)(e + 1) * tr->n_agents + i].mode == mode)
				e++;
			/* Include the next sample so that consecutive pieces join. */
			int last = e + 1 < tr->n_samples ? e + 1 : e;
			xmlTextWriterStartElement(wr, BAD_CAST "polyline");
			attr(wr, "class", "trajectory");
			xmlTextWriterStartAttribute(wr, BAD_CAST "points");
			for (int k = s; k <= last; k++) {
				const trace_pt *p = &tr->pts[(size_t)k * tr->n_agents + i];
				snprintf(buf, sizeof buf, "%s%.2f,%.2f", k > s ? " " : "", px(v, p->x),
					 py(v, p->y));
				xmlTextWriterWriteString(wr, BAD_CAST buf);
			}
			xmlTextWriterEndAttribute(wr);
			attr(wr, "fill", "none");
			attr(wr, "stroke", palette[mode % N_PALETTE]);
			attr(wr, "stroke-width", "2");
			xmlTextWriterEndElement(wr);
			s = e + 1;
		}
		/* Time ticks. */
		double next = def->tick_every;
		for (int k = 0; def->tick_every > 0 && k < tr->n_samples; k++) {
			const trace_pt *p = &tr->pts[(size_t)k * tr->n_agents + i];
			if (p->t + 1e-9 < next)
				continue;
			circle(wr, px(v, p->x), py(v, p->y), 2.0, "#000000", "none", "tick");
			next += def->tick_every;
		}
	}
}

static void draw_agents_at(xmlTextWriterPtr wr, const view *v, const sw_trace *tr, double t,
			   int final)
{
	if (tr->n_samples == 0)
		return;
	int k = tr->n_samples - 1;
	if (!final)
		for (k = 0; k + 1 < tr->n_samples && tr->pts[(size_t)k * tr->n_agents].t + 1e-9 < t;)
			k++;
	for (int i = 0; i < tr->n_agents; i++) {
		const trace_pt *p = &tr->pts[(size_t)k * tr->n_agents + i];
		double r = tr->m->agents[i].radius * v->s;
		circle(wr, px(v, p->x), py(v, p->y), r, final ? palette[p->mode % N_PALETTE] : "#ffffff",
		       "#000000", final ? "agent" : "agent-instant");
		/* heading stroke */
		xmlTextWriterStartElement(wr, BAD_CAST "line");
		attr(wr, "class", "heading");
		attr_num(wr, "x1", px(v, p->x));
		attr_num(wr, "y1", py(v, p->y));
		attr_num(wr, "x2", px(v, p->x) + 1.6 * r * cos(p->heading));
		attr_num(wr, "y2", py(v, p->y) - 1.6 * r * sin(p->heading));
		attr(wr, "stroke", "#000000");
		xmlTextWriterEndElement(wr);
	}
}

static void draw_events(xmlTextWriterPtr wr, const view *v, const sw_world *w, const sw_trace *tr)
{
	char buf[400];
	for (int k = 0; k < tr->n_events; k++) {
		const trace_ev *e = &tr->events[k];
		if (e->unit >= tr->n_agents)
			continue; /* signals have no position */
		double x = px(v, e->x), y = py(v, e->y);
		xmlTextWriterStartElement(wr, BAD_CAST "polygon");
		attr(wr, "class", "transition");
		snprintf(buf, sizeof buf, "%.2f,%.2f %.2f,%.2f %.2f,%.2f %.2f,%.2f", x, y - 5, x + 5, y,
			 x, y + 5, x - 5, y);
		attr(wr, "points", buf);
		attr(wr, "fill", palette[e->to % N_PALETTE]);
		attr(wr, "stroke", "#000000");
		snprintf(buf, sizeof buf, "%s t=%.3f %s -> %s%s%s [%s]", sw_world_unit_name(w, e->unit),
			 e->t, sw_world_mode_name(w, e->unit, e->from),
			 sw_world_mode_name(w, e->unit, e->to), e->label[0] ? " " : "", e->label,
			 e->guard);
		xmlTextWriterWriteElement(wr, BAD_CAST "title", BAD_CAST buf);
		xmlTextWriterEndElement(wr);
	}
}

static void draw_legend(xmlTextWriterPtr wr, const view *v, const sw_world *w, const sw_trace *tr)
{
	char buf[256];
	double y = 16;
	xmlTextWriterStartElement(wr, BAD_CAST "g");
	attr(wr, "class", "legend");
	attr(wr, "font-family", "sans-serif");
	attr(wr, "font-size", "12");
	/* One line per distinct (automaton, mode) in use, in order of first appearance. */
	int shown = 0;
	for (int i = 0; i < tr->n_agents && shown < 20; i++) {
		int seen[N_PALETTE] = {0};
		for (int k = 0; k < tr->n_samples; k++)
			seen[tr->pts[(size_t)k * tr->n_agents + i].mode % N_PALETTE] = 1;
		snprintf(buf, sizeof buf, "%s:", tr->m->agents[i].name);
		xmlTextWriterStartElement(wr, BAD_CAST "text");
		attr_num(wr, "x", 8);
		attr_num(wr, "y", y);
		xmlTextWriterWriteString(wr, BAD_CAST buf);
		for (int q = 0; q < N_PALETTE; q++) {
			if (!seen[q])
				continue;
			xmlTextWriterStartElement(wr, BAD_CAST "tspan");
			attr(wr, "fill", palette[q]);
			snprintf(buf, sizeof buf, " %s", sw_world_mode_name(w, i, q));
			xmlTextWriterWriteString(wr, BAD_CAST buf);
			xmlTextWriterEndElement(wr);
		}
		xmlTextWriterEndElement(wr);
		y += 15;
		shown++;
	}
	(void)v;
	xmlTextWriterEndElement(wr);
}

int sw_render_svg(const sw_world *w, const sw_trace *tr, const sw_render_def *def,
		  const char *path, sw_diag *diag)
{
	sw_render_def d = def ? *def : sw_default_render_def();
	view v = make_view(w, tr, &d);
	char tmp[4096];
	if (snprintf(tmp, sizeof tmp, "%s.tmpXXXXXX", path) >= (int)sizeof tmp)
		return sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "path too long"), SW_EIO;
	int fd = mkstemp(tmp);
	if (fd < 0)
		return sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "cannot write the picture"), SW_EIO;
	close(fd);
	xmlTextWriterPtr wr = xmlNewTextWriterFilename(tmp, 0);
	if (!wr) {
		unlink(tmp);
		return sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "cannot write the picture"), SW_EIO;
	}
	xmlTextWriterSetIndent(wr, 1);
	int ok = xmlTextWriterStartDocument(wr, "1.0", "UTF-8", NULL) >= 0;
	xmlTextWriterStartElement(wr, BAD_CAST "svg");
	attr(wr, "xmlns", "http://www.w3.org/2000/svg");
	attr_num(wr, "width", v.w);
	attr_num(wr, "height", v.h);
	char vb[128];
	snprintf(vb, sizeof vb, "0 0 %.2f %.2f", v.w, v.h);
	attr(wr, "viewBox", vb);
	xmlTextWriterWriteElement(wr, BAD_CAST "title", BAD_CAST tr->m->name);
	xmlTextWriterStartElement(wr, BAD_CAST "rect");
	attr(wr, "width", "100%");
	attr(wr, "height", "100%");
	attr(wr, "fill", "#ffffff");
	xmlTextWriterEndElement(wr);
	draw_scene(wr, &v, w, tr);
	draw_trajectories(wr, &v, tr, &d);
	draw_events(wr, &v, w, tr);
	for (int k = 0; k < d.n_instants; k++)
		draw_agents_at(wr, &v, tr, d.instants[k], 0);
	draw_agents_at(wr, &v, tr, 0.0, 1);
	if (d.legend)
		draw_legend(wr, &v, w, tr);
	xmlTextWriterEndElement(wr);
	ok = ok && xmlTextWriterEndDocument(wr) >= 0;
	xmlFreeTextWriter(wr);
	if (!ok || rename(tmp, path) != 0) {
		unlink(tmp);
		return sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "writing the picture failed"),
		       SW_EIO;
	}
	return SW_SUCCESS;
}
