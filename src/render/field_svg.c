/* render/field_svg.c - a field over the map as SVG: obstacles, the region the field treats as
 * blocked (obstacles grown by the clearance, from the grid mask, drawn as row runs), the
 * targets, the agents' start positions and streamlines of the field (ascent of a navigation
 * field, the vector direction of a vector field) seeded on a lattice.  Written with libxml2's
 * text writer to a temporary file renamed into place. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/xmlwriter.h>

#include "render/scene_impl.h"
#include "swerve/plan.h"
#include "swerve/render.h"

sw_field_svg_def sw_default_field_svg_def(void)
{
	sw_field_svg_def d = {.width = 900.0, .spacing = 1.0, .max_length = 200.0};
	return d;
}

typedef struct fview {
	double x0, y1, s; /* world x0, top y, pixels per metre */
} fview;

static double px(const fview *v, double x)
{
	return (x - v->x0) * v->s;
}
static double py(const fview *v, double y)
{
	return (v->y1 - y) * v->s;
}

static void num(xmlTextWriterPtr wr, const char *name, double value)
{
	xmlTextWriterWriteFormatAttribute(wr, BAD_CAST name, "%.2f", value);
}

static void str(xmlTextWriterPtr wr, const char *name, const char *value)
{
	xmlTextWriterWriteAttribute(wr, BAD_CAST name, BAD_CAST value);
}

static void disc(xmlTextWriterPtr wr, const fview *v, sw_vec2 c, double r, const char *cls,
		 const char *fill)
{
	xmlTextWriterStartElement(wr, BAD_CAST "circle");
	str(wr, "class", cls);
	num(wr, "cx", px(v, c.x));
	num(wr, "cy", py(v, c.y));
	num(wr, "r", r * v->s);
	str(wr, "fill", fill);
	xmlTextWriterEndElement(wr);
}

/* The blocked region of a nav grid as one rect per run of fixed nodes in a row. */
static void draw_blocked(xmlTextWriterPtr wr, const fview *v, const sw_grid *g)
{
	xmlTextWriterStartElement(wr, BAD_CAST "g");
	str(wr, "class", "blocked");
	str(wr, "fill", "#e8e0d0");
	for (int j = 1; j < g->ny - 1; j++)
		for (int i = 1; i < g->nx - 1; i++) {
			size_t k = (size_t)j * (size_t)g->nx + (size_t)i;
			if (!g->fixed[k] || g->v[k] > 0.0)
				continue;
			int e = i;
			while (e + 1 < g->nx - 1 && g->fixed[k + (size_t)(e + 1 - i)] &&
			       g->v[k + (size_t)(e + 1 - i)] == 0.0)
				e++;
			xmlTextWriterStartElement(wr, BAD_CAST "rect");
			num(wr, "x", px(v, g->x0 + (i - 0.5) * g->h));
			num(wr, "y", py(v, g->y0 + (j + 0.5) * g->h));
			num(wr, "width", (e - i + 1) * g->h * v->s);
			num(wr, "height", g->h * v->s);
			xmlTextWriterEndElement(wr);
			i = e;
		}
	xmlTextWriterEndElement(wr);
}

static void draw_obstacles(xmlTextWriterPtr wr, const fview *v, const sw_model *m)
{
	xmlTextWriterStartElement(wr, BAD_CAST "g");
	str(wr, "class", "obstacles");
	for (int k = 0; k < m->n_prims; k++) {
		const sw_prim *p = &m->prims[k];
		xmlTextWriterStartElement(wr, BAD_CAST(p->is_segment ? "line" : "circle"));
		if (p->is_segment) {
			num(wr, "x1", px(v, p->a.x));
			num(wr, "y1", py(v, p->a.y));
			num(wr, "x2", px(v, p->b.x));
			num(wr, "y2", py(v, p->b.y));
			str(wr, "stroke", "#404040");
			str(wr, "stroke-width", "2");
		} else {
			num(wr, "cx", px(v, p->a.x));
			num(wr, "cy", py(v, p->a.y));
			num(wr, "r", p->radius * v->s);
			str(wr, "fill", "#808080");
		}
		xmlTextWriterEndElement(wr);
	}
	xmlTextWriterEndElement(wr);
}

/* One streamline from p: points every h/2 along the field until it stops. */
static void streamline(xmlTextWriterPtr wr, const fview *v, const sw_grid *g, sw_vec2 p,
		       double max_len)
{
	double step = 0.5 * g->h;
	int nmax = (int)(max_len / step);
	sw_vec2 d;
	if (!sw_grid_direction(g, p, &d))
		return;
	xmlTextWriterStartElement(wr, BAD_CAST "polyline");
	xmlTextWriterStartAttribute(wr, BAD_CAST "points");
	xmlTextWriterWriteFormatString(wr, "%.1f,%.1f", px(v, p.x), py(v, p.y));
	for (int n = 0; n < nmax; n++) {
		if (!sw_grid_direction(g, p, &d))
			break;
		sw_vec2 q = sw_v2_add(p, sw_v2_scale(d, step));
		if (g->kind == SW_GRID_NAV && sw_grid_value(g, q) >= 1.0 - 1e-12)
			break; /* reached the target */
		p = q;
		if (n % 4 == 3)
			xmlTextWriterWriteFormatString(wr, " %.1f,%.1f", px(v, p.x), py(v, p.y));
	}
	xmlTextWriterEndAttribute(wr);
	xmlTextWriterEndElement(wr);
}

int sw_render_field_svg(const sw_model *m, const sw_grid *g, const sw_field_svg_def *def,
			const char *path, sw_diag *diag)
{
	if (!m || !g || !def || !(def->width > 0.0) || !(def->spacing > 0.0))
		return SW_EUSAGE;
	double wm = (g->nx - 1) * g->h, hm = (g->ny - 1) * g->h;
	fview v = {g->x0, g->y0 + hm, def->width / wm};
	char tmp[SW_ATOMIC_TMP_LEN(4096)];
	FILE *f = sw_atomic_open(path, tmp, sizeof tmp, diag);
	if (!f)
		return SW_EIO;
	sc_xml sink;
	xmlTextWriterPtr wr = sc_xml_open(&sink, f);
	if (!wr) {
		sw_atomic_abort(f, tmp);
		return sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "cannot write the picture"),
		       SW_EIO;
	}
	xmlTextWriterSetIndent(wr, 1);
	int ok = xmlTextWriterStartDocument(wr, "1.0", "UTF-8", NULL) >= 0;
	xmlTextWriterStartElement(wr, BAD_CAST "svg");
	str(wr, "xmlns", "http://www.w3.org/2000/svg");
	num(wr, "width", wm * v.s);
	num(wr, "height", hm * v.s);
	xmlTextWriterStartElement(wr, BAD_CAST "rect");
	str(wr, "width", "100%");
	str(wr, "height", "100%");
	str(wr, "fill", "white");
	xmlTextWriterEndElement(wr);
	if (g->kind == SW_GRID_NAV)
		draw_blocked(wr, &v, g);
	draw_obstacles(wr, &v, m);
	xmlTextWriterStartElement(wr, BAD_CAST "g");
	str(wr, "class", "streamlines");
	str(wr, "fill", "none");
	str(wr, "stroke", "#1f77b4");
	str(wr, "stroke-width", "1");
	for (double y = g->y0 + 0.5 * def->spacing; y < g->y0 + hm; y += def->spacing)
		for (double x = g->x0 + 0.5 * def->spacing; x < g->x0 + wm; x += def->spacing)
			streamline(wr, &v, g, sw_v2(x, y), def->max_length);
	xmlTextWriterEndElement(wr);
	for (int k = 0; k < m->n_targets; k++)
		disc(wr, &v, m->targets[k].position, m->targets[k].radius, "target", "#2ca02c");
	for (int k = 0; k < m->n_agents; k++)
		disc(wr, &v, m->agents[k].position, m->agents[k].radius, "agent", "#d62728");
	xmlTextWriterEndElement(wr);
	ok = ok && xmlTextWriterEndDocument(wr) >= 0;
	int err;
	ok = sc_xml_close(&sink, wr, ok, &err); /* flushes into f, which stays open */
	if (!ok) {
		sw_atomic_abort(f, tmp);
		return sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "cannot write the picture: %s",
				   strerror(err ? err : EIO)),
		       SW_EIO;
	}
	return sw_atomic_commit(f, tmp, path, diag);
}
