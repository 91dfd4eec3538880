/* tests/test_render.c - pictures checked structurally: the SVG parses, has the expected
 * elements in the expected numbers, and every coordinate lies inside the picture; the PNG of
 * the same scene, read back with cairo, has the SVG's size and the SVG's colours where the SVG
 * puts filled shapes; the animation's key frames follow the recorded samples; frames grow with
 * time; the time series' curves map back to independently recorded states. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cairo.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "swerve/swerve.h"
#include "tests.h"

static int count(xmlNodePtr n, const char *name, const char *cls)
{
	int c = 0;
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (strcmp((const char *)n->name, name) == 0) {
			xmlChar *k = xmlGetProp(n, BAD_CAST "class");
			if (!cls || (k && strcmp((const char *)k, cls) == 0))
				c++;
			xmlFree(k);
		}
		c += count(n->children, name, cls);
	}
	return c;
}

/* Every numeric coordinate attribute of circles and lines lies in [0, w] x [0, h]. */
static int in_range(xmlNodePtr n, double w, double h)
{
	static const char *xs[] = {"cx", "x1", "x2"}, *ys[] = {"cy", "y1", "y2"};
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		for (int k = 0; k < 3; k++) {
			xmlChar *a = xmlGetProp(n, BAD_CAST xs[k]), *b = xmlGetProp(n, BAD_CAST ys[k]);
			int bad = (a && (atof((char *)a) < -1e-9 || atof((char *)a) > w + 1e-9)) ||
				  (b && (atof((char *)b) < -1e-9 || atof((char *)b) > h + 1e-9));
			xmlFree(a);
			xmlFree(b);
			if (bad)
				return 0;
		}
		if (!in_range(n->children, w, h))
			return 0;
	}
	return 1;
}

/* A recorded run of models/demo.xml (3 agents, one moving obstacle) with, independently of
 * the trace, every sample's heading and speed of agent 0. */
typedef struct {
	sw_model *m;
	sw_world *w;
	sw_trace *tr;
	int n;
	double t[4096], heading[4096], speed[4096];
} run_rec;

static int rec_sample(const sw_world *w, void *ctx)
{
	run_rec *r = ctx;
	sw_agent_state s;
	sw_world_agent(w, 0, &s);
	if (r->n < 4096) {
		r->t[r->n] = sw_world_time(w);
		r->heading[r->n] = s.y[SW_STATE_PHI];
		r->speed[r->n] = s.y[SW_STATE_V];
		r->n++;
	}
	return sw_trace_sample(w, r->tr);
}

static run_rec *record(const char *path)
{
	run_rec *r = calloc(1, sizeof *r);
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load(path, &r->m, &d), SW_SUCCESS);
	r->tr = sw_trace_alloc(r->m);
	ck_assert_int_eq(sw_world_create(r->m, NULL, &r->w, &d), SW_SUCCESS);
	sw_world_set_event_fn(r->w, sw_trace_event, r->tr);
	ck_assert_int_eq(sw_world_run(r->w, rec_sample, r, &d), SW_SUCCESS);
	ck_assert_int_eq(r->n, sw_trace_n_samples(r->tr));
	return r;
}

static void record_free(run_rec *r)
{
	sw_world_destroy(r->w);
	sw_trace_free(r->tr);
	sw_model_free(r->m);
	free(r);
}

static char *tmp_path(const char *ext)
{
	static char buf[8][64];
	static int k;
	char *p = buf[k++ % 8];
	snprintf(p, 64, "/tmp/swerve_render_XXXXXX");
	int fd = mkstemp(p);
	ck_assert_int_ge(fd, 0);
	close(fd);
	unlink(p);
	strcat(p, ext);
	return p;
}

static double num_prop(xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetProp(n, BAD_CAST name);
	double d = v ? atof((const char *)v) : NAN;
	xmlFree(v);
	return d;
}

static int has_class(xmlNodePtr n, const char *name, const char *cls)
{
	if (n->type != XML_ELEMENT_NODE || strcmp((const char *)n->name, name) != 0)
		return 0;
	xmlChar *k = xmlGetProp(n, BAD_CAST "class");
	int ok = !cls || (k && strcmp((const char *)k, cls) == 0);
	xmlFree(k);
	return ok;
}

/* The k-th element (document order) named name with class cls, or NULL. */
static xmlNodePtr nth(xmlNodePtr n, const char *name, const char *cls, int *k)
{
	for (; n; n = n->next) {
		if (has_class(n, name, cls) && (*k)-- == 0)
			return n;
		xmlNodePtr c = nth(n->children, name, cls, k);
		if (c)
			return c;
	}
	return NULL;
}

static xmlNodePtr find(xmlNodePtr root, const char *name, const char *cls, int k)
{
	return nth(root, name, cls, &k);
}

static xmlDocPtr parse_svg(const char *path, double *w, double *h)
{
	xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
	ck_assert_ptr_nonnull(doc);
	xmlNodePtr root = xmlDocGetRootElement(doc);
	ck_assert_str_eq((const char *)root->name, "svg");
	*w = num_prop(root, "width");
	*h = num_prop(root, "height");
	ck_assert(*w > 0 && *h > 0);
	return doc;
}

/* The pixel colour 0xRRGGBB at (x, y) of a cairo RGB24/ARGB32 image. */
static int pixel(cairo_surface_t *img, double x, double y)
{
	int ix = (int)floor(x), iy = (int)floor(y);
	ck_assert(ix >= 0 && iy >= 0 && ix < cairo_image_surface_get_width(img) &&
		  iy < cairo_image_surface_get_height(img));
	const unsigned char *row =
	    cairo_image_surface_get_data(img) + (size_t)iy * cairo_image_surface_get_stride(img);
	uint32_t v;
	memcpy(&v, row + 4 * ix, 4);
	return (int)(v & 0xffffff);
}

static int colour_prop(xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetProp(n, BAD_CAST name);
	ck_assert_ptr_nonnull(v);
	int c = (int)strtol((const char *)v + 1, NULL, 16);
	ck_assert_int_eq(v[0], '#');
	xmlFree(v);
	return c;
}

START_TEST(svg_has_scene_trajectories_and_markers_in_range)
{
	run_rec *r = record("models/demo.xml");
	sw_diag d;
	sw_diag_init(&d);
	char *path = tmp_path(".svg");
	sw_render_def def = sw_default_render_def();
	double at[] = {10.0};
	def.instants = at;
	def.n_instants = 1;
	ck_assert_int_eq(sw_render_svg(r->w, r->tr, &def, path, &d), SW_SUCCESS);
	double wpx, hpx;
	xmlDocPtr doc = parse_svg(path, &wpx, &hpx);
	xmlNodePtr root = xmlDocGetRootElement(doc);
	ck_assert_double_eq_tol(wpx, 900.0, 1e-9);
	/* demo: 4 discs (+1 moving drawn again at the end) and 1 wall; 3 targets; 3 agents, each
	 * with a steer piece and an arrived piece; 3 arrival markers; agents drawn twice. */
	ck_assert_int_eq(count(root, "circle", "obstacle"), 5);
	ck_assert_int_eq(count(root, "line", "obstacle"), 1);
	ck_assert_int_eq(count(root, "circle", "target"), 3);
	ck_assert_int_eq(count(root, "polyline", "trajectory"), 6);
	ck_assert_int_eq(count(root, "polygon", "transition"), 3);
	ck_assert_int_eq(count(root, "circle", "agent"), 3);
	ck_assert_int_eq(count(root, "circle", "agent-instant"), 3);
	ck_assert_int_ge(count(root, "circle", "tick"), 3);
	/* the legend lists the two modes once (the agents share them); a name per agent */
	ck_assert_int_eq(count(root, "text", "legend"), 2);
	ck_assert_int_eq(count(root, "text", "agent-name"), 3);
	ck_assert(in_range(root, wpx, hpx));
	xmlFreeDoc(doc);
	unlink(path);
	record_free(r);
}
END_TEST

/* The PNG is the SVG's scene: same size, and at the centre of every filled obstacle disc and
 * inside every agent disc (away from its heading stroke) the SVG's fill colour. */
START_TEST(png_matches_svg_sizes_and_colours)
{
	run_rec *r = record("models/demo.xml");
	sw_diag d;
	sw_diag_init(&d);
	char *svg = tmp_path(".svg"), *png = tmp_path(".png");
	ck_assert_int_eq(sw_render_image(r->w, r->tr, NULL, SW_IMAGE_SVG, svg, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_render_image(r->w, r->tr, NULL, SW_IMAGE_PNG, png, &d), SW_SUCCESS);
	double wpx, hpx;
	xmlDocPtr doc = parse_svg(svg, &wpx, &hpx);
	xmlNodePtr root = xmlDocGetRootElement(doc);
	cairo_surface_t *img = cairo_image_surface_create_from_png(png);
	ck_assert_int_eq(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
	ck_assert_int_eq(cairo_image_surface_get_width(img), (int)ceil(wpx));
	ck_assert_int_eq(cairo_image_surface_get_height(img), (int)ceil(hpx));
	int checked = 0;
	for (int k = 0;; k++) {
		xmlNodePtr c = find(root, "circle", "obstacle", k);
		if (!c)
			break;
		if (num_prop(c, "r") < 3)
			continue;
		ck_assert_int_eq(pixel(img, num_prop(c, "cx"), num_prop(c, "cy")),
				 colour_prop(c, "fill"));
		checked++;
	}
	ck_assert_int_ge(checked, 4);
	for (int k = 0; k < 3; k++) {
		xmlNodePtr c = find(root, "circle", "agent", k), h = find(root, "line", "heading", k);
		ck_assert(c && h);
		double cx = num_prop(c, "cx"), cy = num_prop(c, "cy");
		double x = cx - 0.3 * (num_prop(h, "x2") - cx), y = cy - 0.3 * (num_prop(h, "y2") - cy);
		/* every agent arrived: the arrived mode's colour, not the steering one */
		ck_assert_int_eq(colour_prop(c, "fill"), 0xd62728);
		ck_assert_int_eq(pixel(img, x, y), 0xd62728);
	}
	/* Far from everything (the middle of the empty band above the scene): white. */
	ck_assert_int_eq(pixel(img, 0.5 * wpx, 0.3 * hpx), 0xffffff);
	cairo_surface_destroy(img);
	xmlFreeDoc(doc);
	unlink(svg);
	unlink(png);
	record_free(r);
}
END_TEST

/* Splits "a;b;c" into numbers (each field's first number when it holds two, or both). */
static int fields(const char *s, double *out, int cap, int per)
{
	int n = 0;
	while (*s && n + per <= cap) {
		char *end;
		for (int q = 0; q < per; q++) {
			out[n++] = strtod(s, &end);
			ck_assert_ptr_ne(end, s);
			s = end;
		}
		while (*s == ' ')
			s++;
		if (*s == ';')
			s++;
	}
	return n / per;
}

/* Each agent's group moves through every sample: keyTimes rise from 0 to 1 with the samples'
 * times, translations stay inside the picture and end where the static picture's agent disc
 * is; the fill follows the mode (discrete). */
START_TEST(animation_follows_the_samples)
{
	run_rec *r = record("models/demo.xml");
	sw_diag d;
	sw_diag_init(&d);
	char *anim = tmp_path(".svg"), *still = tmp_path(".svg");
	sw_render_def def = sw_default_render_def();
	def.anim_speed = 2.0;
	ck_assert_int_eq(sw_render_animation(r->w, r->tr, &def, anim, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_render_svg(r->w, r->tr, &def, still, &d), SW_SUCCESS);
	double wpx, hpx, w2, h2;
	xmlDocPtr doc = parse_svg(anim, &wpx, &hpx), sdoc = parse_svg(still, &w2, &h2);
	ck_assert_double_eq_tol(wpx, w2, 1e-9);
	xmlNodePtr root = xmlDocGetRootElement(doc), sroot = xmlDocGetRootElement(sdoc);
	ck_assert_int_eq(count(root, "g", "agent-anim"), 3);
	ck_assert_int_eq(count(root, "g", "obstacle-anim"), 1); /* the cart */
	int n = r->n;
	double *v = malloc(2 * (size_t)n * sizeof *v);
	for (int i = 0; i < 3; i++) {
		xmlNodePtr g = find(root, "g", "agent-anim", i), tr = NULL, fill = NULL;
		for (xmlNodePtr c = g->children; c; c = c->next) {
			if (c->type != XML_ELEMENT_NODE)
				continue;
			xmlChar *a = xmlGetProp(c, BAD_CAST "type"), *an = xmlGetProp(c, BAD_CAST "attributeName");
			if (a && strcmp((char *)a, "translate") == 0)
				tr = c;
			if (an && strcmp((char *)an, "fill") == 0)
				fill = c;
			xmlFree(a);
			xmlFree(an);
		}
		ck_assert(tr && fill);
		/* duration: the run at twice real time */
		ck_assert_double_eq_tol(num_prop(tr, "dur"), (r->t[n - 1] - r->t[0]) / 2.0, 1e-6);
		xmlChar *kt = xmlGetProp(tr, BAD_CAST "keyTimes"), *vals = xmlGetProp(tr, BAD_CAST "values");
		ck_assert_int_eq(fields((char *)kt, v, 2 * n, 1), n);
		for (int k = 0; k < n; k++)
			ck_assert_double_eq_tol(v[k], (r->t[k] - r->t[0]) / (r->t[n - 1] - r->t[0]), 1e-6);
		ck_assert_int_eq(fields((char *)vals, v, 2 * n, 2), n);
		for (int k = 0; k < n; k++)
			ck_assert(v[2 * k] >= 0 && v[2 * k] <= wpx && v[2 * k + 1] >= 0 &&
				  v[2 * k + 1] <= hpx);
		xmlNodePtr disc = find(sroot, "circle", "agent", i);
		ck_assert_double_eq_tol(v[2 * n - 2], num_prop(disc, "cx"), 0.011);
		ck_assert_double_eq_tol(v[2 * n - 1], num_prop(disc, "cy"), 0.011);
		xmlFree(kt);
		xmlFree(vals);
		xmlChar *cm = xmlGetProp(fill, BAD_CAST "calcMode"), *fv = xmlGetProp(fill, BAD_CAST "values");
		ck_assert_str_eq((char *)cm, "discrete");
		/* starts steering (blue), ends arrived (red) */
		ck_assert(strncmp((char *)fv, "#1f77b4", 7) == 0);
		ck_assert_str_eq((char *)fv + strlen((char *)fv) - 7, "#d62728");
		xmlFree(cm);
		xmlFree(fv);
	}
	free(v);
	xmlFreeDoc(doc);
	xmlFreeDoc(sdoc);
	unlink(anim);
	unlink(still);
	record_free(r);
}
END_TEST

/* Frames keep the picture's size; at t = 0 every trajectory is one point, where the agent's
 * disc is; later frames hold more trajectory points, up to the full picture's. */
START_TEST(frames_grow_with_time)
{
	run_rec *r = record("models/demo.xml");
	sw_diag d;
	sw_diag_init(&d);
	char *f0 = tmp_path(".svg"), *f1 = tmp_path(".svg"), *full = tmp_path(".svg");
	ck_assert_int_eq(sw_render_frame(r->w, r->tr, NULL, 0.0, SW_IMAGE_SVG, f0, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_render_frame(r->w, r->tr, NULL, 10.0, SW_IMAGE_SVG, f1, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_render_svg(r->w, r->tr, NULL, full, &d), SW_SUCCESS);
	double w0, h0, w1, h1, w2, h2;
	xmlDocPtr d0 = parse_svg(f0, &w0, &h0), d1 = parse_svg(f1, &w1, &h1),
		  d2 = parse_svg(full, &w2, &h2);
	ck_assert(w0 == w2 && h0 == h2 && w1 == w2 && h1 == h2);
	xmlNodePtr r0 = xmlDocGetRootElement(d0), r1 = xmlDocGetRootElement(d1),
		   r2 = xmlDocGetRootElement(d2);
	ck_assert_int_eq(count(r0, "polyline", "trajectory"), 3);
	ck_assert_int_eq(count(r0, "circle", "agent"), 3);
	ck_assert_int_eq(count(r0, "circle", "obstacle"), 4); /* the cart once, at t */
	ck_assert_int_eq(count(r0, "polygon", "transition"), 0);
	for (int i = 0; i < 3; i++) {
		xmlNodePtr pl = find(r0, "polyline", "trajectory", i), disc = find(r0, "circle", "agent", i);
		xmlChar *pts = xmlGetProp(pl, BAD_CAST "points");
		double x, y;
		ck_assert_int_eq(sscanf((char *)pts, "%lf,%lf", &x, &y), 2);
		ck_assert_double_eq_tol(x, num_prop(disc, "cx"), 1e-9);
		ck_assert_double_eq_tol(y, num_prop(disc, "cy"), 1e-9);
		xmlFree(pts);
	}
	ck_assert(in_range(r1, w1, h1));
	/* Points: 1 per agent at t = 0; at t = 10 s, 41 samples per agent; the full picture has
	 * every sample (plus the joints between mode pieces). */
	int p1 = 0, p2 = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int k = 0;; k++) {
			xmlNodePtr pl = find(pass ? r2 : r1, "polyline", "trajectory", k);
			if (!pl)
				break;
			xmlChar *pts = xmlGetProp(pl, BAD_CAST "points");
			for (const char *c = (char *)pts; *c; c++)
				*(pass ? &p2 : &p1) += *c == ',';
			xmlFree(pts);
		}
	ck_assert_int_eq(p1, 3 * 41);
	ck_assert_int_ge(p2, 3 * r->n);
	xmlFreeDoc(d0);
	xmlFreeDoc(d1);
	xmlFreeDoc(d2);
	unlink(f0);
	unlink(f1);
	unlink(full);
	record_free(r);
}
END_TEST

/* The time series: three framed panels; the heading and speed curves, mapped back through
 * their frames, give the independently recorded states of every sample. */
START_TEST(series_curves_map_back_to_the_states)
{
	run_rec *r = record("models/demo.xml");
	sw_diag d;
	sw_diag_init(&d);
	char *svg = tmp_path(".svg"), *png = tmp_path(".png");
	ck_assert_int_eq(sw_plot_series(r->w, r->tr, 0, SW_IMAGE_SVG, svg, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_plot_series(r->w, r->tr, 0, SW_IMAGE_PNG, png, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_plot_series(r->w, r->tr, 7, SW_IMAGE_SVG, svg, &d), SW_EUSAGE);
	double wpx, hpx;
	xmlDocPtr doc = parse_svg(svg, &wpx, &hpx);
	xmlNodePtr root = xmlDocGetRootElement(doc);
	ck_assert_int_eq(count(root, "rect", "frame"), 3);
	ck_assert_int_ge(count(root, "polyline", "heading"), 1);
	ck_assert_int_eq(count(root, "polyline", "speed"), 1);
	ck_assert_int_eq(count(root, "polyline", "w-tar"), 1);
	ck_assert_int_eq(count(root, "polyline", "w-obs"), 1);
	/* ann arrives once: a transition line in each panel */
	ck_assert_int_eq(count(root, "line", "transition"), 3);
	xmlNodePtr fr0 = find(root, "rect", "frame", 0), fr1 = find(root, "rect", "frame", 1);
	double fy = num_prop(fr0, "y"), fh = num_prop(fr0, "height");
	double fx = num_prop(fr0, "x"), fw = num_prop(fr0, "width");
	/* heading unwrapped (each sample the last plus the smallest turn), shown over its data
	 * range padded by 5 % each side (at least 20 degrees wide) */
	double *uw = malloc((size_t)r->n * sizeof *uw), hlo = INFINITY, hhi = -INFINITY;
	ck_assert_ptr_nonnull(uw);
	for (int q = 0; q < r->n; q++) {
		double deg = r->heading[q] * 180.0 / M_PI;
		uw[q] = q == 0 ? deg : uw[q - 1] + remainder(deg - uw[q - 1], 360.0);
		hlo = fmin(hlo, uw[q]), hhi = fmax(hhi, uw[q]);
	}
	if (hhi - hlo < 20.0) {
		double c = 0.5 * (hlo + hhi);
		hlo = c - 10.0, hhi = c + 10.0;
	}
	double pad = 0.05 * (hhi - hlo);
	hlo -= pad, hhi += pad;
	int k = 0;
	for (int q = 0;; q++) {
		xmlNodePtr pl = find(root, "polyline", "heading", q);
		if (!pl)
			break;
		xmlChar *pts = xmlGetProp(pl, BAD_CAST "points");
		const char *p = (char *)pts;
		double x, y;
		int used;
		while (sscanf(p, " %lf,%lf%n", &x, &y, &used) == 2) {
			ck_assert_int_lt(k, r->n);
			double t = r->t[0] + (x - fx) / fw * (r->t[r->n - 1] - r->t[0]);
			double deg = hhi - (hhi - hlo) * (y - fy) / fh;
			double want = uw[k];
			ck_assert_double_eq_tol(t, r->t[k], 0.01 * (r->t[r->n - 1] / fw));
			ck_assert_msg(fabs(deg - want) < (hhi - hlo) * 0.011 / fh + 1e-9,
				      "heading at sample %d: plotted %.4f, recorded %.4f", k, deg, want);
			k++;
			p += used;
		}
		xmlFree(pts);
	}
	ck_assert_int_eq(k, r->n);
	free(uw);
	/* the transition is labelled with the new mode along its line in the heading panel */
	ck_assert_int_eq(count(root, "text", "transition-label"), 1);
	/* speed: the panel shows the data range [vmin, vmax] padded by 5 % each side (documented
	 * layout), so sample k sits at 0.05/1.1 + (vmax - v_k) / (vmax - vmin) / 1.1 of the height */
	double vmin = INFINITY, vmax = -INFINITY;
	for (int q = 0; q < r->n; q++)
		vmin = fmin(vmin, r->speed[q]), vmax = fmax(vmax, r->speed[q]);
	ck_assert(vmax - vmin > 0.2);
	double sy = num_prop(fr1, "y"), sh = num_prop(fr1, "height");
	xmlNodePtr sp = find(root, "polyline", "speed", 0);
	xmlChar *pts = xmlGetProp(sp, BAD_CAST "points");
	double x, y;
	int used, q = 0;
	for (const char *p = (char *)pts; sscanf(p, " %lf,%lf%n", &x, &y, &used) == 2; p += used, q++) {
		ck_assert_int_lt(q, r->n);
		double want = 0.05 / 1.1 + (vmax - r->speed[q]) / (vmax - vmin) / 1.1;
		ck_assert_double_eq_tol((y - sy) / sh, want, 0.011 / sh + 1e-9);
	}
	ck_assert_int_eq(q, r->n);
	xmlFree(pts);
	cairo_surface_t *img = cairo_image_surface_create_from_png(png);
	ck_assert_int_eq(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
	ck_assert_int_eq(cairo_image_surface_get_width(img), (int)ceil(wpx));
	ck_assert_int_eq(cairo_image_surface_get_height(img), (int)ceil(hpx));
	cairo_surface_destroy(img);
	xmlFreeDoc(doc);
	unlink(svg);
	unlink(png);
	record_free(r);
}
END_TEST

/* Colours belong to (automaton, mode): in seek_escape_room the seek agent's `go` and the
 * seek_escape agent's `seek` are both mode 0 of their automata, yet each has its own legend row
 * ("automaton: mode") and its own colour; no row or colour repeats, and every agent's final
 * disc has the colour of its row. */
START_TEST(legend_has_one_row_and_colour_per_automaton_mode)
{
	run_rec *r = record("models/seek_escape_room.xml");
	sw_diag d;
	sw_diag_init(&d);
	char *path = tmp_path(".svg");
	ck_assert_int_eq(sw_render_svg(r->w, r->tr, NULL, path, &d), SW_SUCCESS);
	double wpx, hpx;
	xmlDocPtr doc = parse_svg(path, &wpx, &hpx);
	xmlNodePtr root = xmlDocGetRootElement(doc);
	int rows = count(root, "text", "legend");
	ck_assert_int_eq(count(root, "line", "legend-key"), rows);
	ck_assert_int_ge(rows, 3);
	char text[32][160];
	int colour[32];
	ck_assert_int_le(rows, 32);
	for (int q = 0; q < rows; q++) {
		xmlChar *c = xmlNodeGetContent(find(root, "text", "legend", q));
		snprintf(text[q], sizeof text[q], "%s", (char *)c);
		xmlFree(c);
		colour[q] = colour_prop(find(root, "line", "legend-key", q), "stroke");
		for (int p = 0; p < q; p++) {
			ck_assert_str_ne(text[p], text[q]);
			ck_assert_int_ne(colour[p], colour[q]);
		}
	}
	for (int i = 0; i < r->m->n_agents; i++) {
		sw_agent_state s;
		sw_world_agent(r->w, i, &s);
		char want[160];
		snprintf(want, sizeof want, "%s: %s",
			 sw_automaton_name(r->m->automata[r->m->agents[i].behaviour]),
			 sw_world_mode_name(r->w, i, s.mode));
		int row = -1;
		for (int q = 0; q < rows; q++)
			if (strcmp(text[q], want) == 0)
				row = q;
		ck_assert_msg(row >= 0, "no legend row \"%s\"", want);
		ck_assert_int_eq(colour_prop(find(root, "circle", "agent", i), "fill"), colour[row]);
	}
	xmlFreeDoc(doc);
	unlink(path);
	record_free(r);
}
END_TEST

/* 200 agents on a circle: at most 30 names are written, and no two of them overlap (boxes of
 * 0.6 em a character, as documented); the demo's three agents are all named. */
START_TEST(crowd_names_are_thinned_out)
{
	run_rec *r = record("models/crowd_circle.xml");
	ck_assert_int_eq(r->m->n_agents, 200);
	sw_diag d;
	sw_diag_init(&d);
	char *path = tmp_path(".svg");
	ck_assert_int_eq(sw_render_svg(r->w, r->tr, NULL, path, &d), SW_SUCCESS);
	double wpx, hpx;
	xmlDocPtr doc = parse_svg(path, &wpx, &hpx);
	xmlNodePtr root = xmlDocGetRootElement(doc);
	int n = count(root, "text", "agent-name");
	ck_assert_int_le(n, 30);
	ck_assert_int_ge(n, 10);
	for (int a = 0; a < n; a++)
		for (int b = 0; b < a; b++) {
			xmlNodePtr p = find(root, "text", "agent-name", a),
				   q = find(root, "text", "agent-name", b);
			xmlChar *tp = xmlNodeGetContent(p), *tq = xmlNodeGetContent(q);
			double size = num_prop(p, "font-size");
			double half = 0.3 * size * (double)(strlen((char *)tp) + strlen((char *)tq));
			ck_assert_msg(fabs(num_prop(p, "x") - num_prop(q, "x")) >= half ||
					      fabs(num_prop(p, "y") - num_prop(q, "y")) >= size,
				      "names %s and %s overlap", (char *)tp, (char *)tq);
			xmlFree(tp);
			xmlFree(tq);
		}
	xmlFreeDoc(doc);
	unlink(path);
	record_free(r);
}
END_TEST

/* The fill of the signal lamp (class "signal") in a picture. */
static int lamp_fill(const char *path)
{
	double wpx, hpx;
	xmlDocPtr doc = parse_svg(path, &wpx, &hpx);
	xmlNodePtr root = xmlDocGetRootElement(doc);
	ck_assert_int_eq(count(root, "circle", "signal"), 1);
	int c = colour_prop(find(root, "circle", "signal", 0), "fill");
	xmlFreeDoc(doc);
	return c;
}

/* street_crossing's light (automata/traffic_light.xml: cars green for t in [0, 20), amber
 * [20, 23), red with walk [23, 43), green again from 43 and at the end, 90 s) is drawn lit in
 * its mode's colour: green in a frame at 10 s, red at 30 s, green at the end in the still
 * picture (whose label names the mode); in the animation its fill runs through the phases. */
START_TEST(traffic_light_is_drawn_in_its_state)
{
	run_rec *r = record("models/street_crossing.xml");
	sw_diag d;
	sw_diag_init(&d);
	char *f10 = tmp_path(".svg"), *f30 = tmp_path(".svg"), *still = tmp_path(".svg"),
	     *anim = tmp_path(".svg");
	ck_assert_int_eq(sw_render_frame(r->w, r->tr, NULL, 10.0, SW_IMAGE_SVG, f10, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_render_frame(r->w, r->tr, NULL, 30.0, SW_IMAGE_SVG, f30, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_render_svg(r->w, r->tr, NULL, still, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_render_animation(r->w, r->tr, NULL, anim, &d), SW_SUCCESS);
	ck_assert_int_eq(lamp_fill(f10), 0x2ca02c);
	ck_assert_int_eq(lamp_fill(f30), 0xd62728);
	ck_assert_int_eq(lamp_fill(still), 0x2ca02c);
	double wpx, hpx;
	xmlDocPtr doc = parse_svg(still, &wpx, &hpx);
	xmlChar *txt = xmlNodeGetContent(find(xmlDocGetRootElement(doc), "text", "signal-label", 0));
	ck_assert_str_eq((char *)txt, "light: cars_green");
	xmlFree(txt);
	/* the phase bar: green, amber, red, green, amber, red, green (the run ends at 90 s) */
	ck_assert_int_eq(count(xmlDocGetRootElement(doc), "rect", "signal-phase"), 7);
	xmlFreeDoc(doc);
	doc = parse_svg(anim, &wpx, &hpx);
	xmlNodePtr g = find(xmlDocGetRootElement(doc), "g", "signal-anim", 0);
	ck_assert_ptr_nonnull(g);
	int found = 0;
	for (xmlNodePtr c = g->children; c; c = c->next) {
		xmlChar *an = c->type == XML_ELEMENT_NODE ? xmlGetProp(c, BAD_CAST "attributeName") : NULL;
		if (an && strcmp((char *)an, "fill") == 0) {
			xmlChar *v = xmlGetProp(c, BAD_CAST "values");
			/* every sample: 361 values from 0 to 90 s; sample 40 (10 s) green, 120 (30 s) red */
			ck_assert_int_eq((int)strlen((char *)v), 361 * 8 - 1);
			ck_assert(strncmp((char *)v + 40 * 8, "#2ca02c", 7) == 0);
			ck_assert(strncmp((char *)v + 120 * 8, "#d62728", 7) == 0);
			found = 1;
			xmlFree(v);
		}
		xmlFree(an);
	}
	ck_assert(found);
	xmlFreeDoc(doc);
	unlink(f10);
	unlink(f30);
	unlink(still);
	unlink(anim);
	record_free(r);
}
END_TEST

/* The map of a picture of street_crossing from its "street" region (x in [-30, 30], y in
 * [-2.5, 2.5], the first region polygon: corners (-30, -2.5), (30, -2.5), (30, 2.5), ...):
 * world (x, y) to pixels, independently of the renderer's view. */
static void street_map(xmlNodePtr root, double x, double y, double *cx, double *cy)
{
	xmlChar *pts = xmlGetProp(find(root, "polygon", "region", 0), BAD_CAST "points");
	double x0, yb, x1, skip, yt;
	ck_assert_int_eq(
	    sscanf((char *)pts, "%lf,%lf %lf,%lf %lf,%lf", &x0, &yb, &x1, &skip, &skip, &yt), 6);
	xmlFree(pts);
	*cx = x0 + (x + 30) / 60 * (x1 - x0);
	*cy = yb + (y + 2.5) / 5 * (yt - yb);
}

/* The light of street_crossing stands at (x, y) = (3.6, -3) (<signal x= y=>): its lamp (the one
 * circle of class "signal") is drawn at that point of the map, green in a frame at 10 s, red at
 * 30 s (automata/traffic_light.xml: cars green for t in [0, 20), red with walk [23, 43)), and
 * the animation's lamp group stands there too.  A signal without a position (the same light in
 * tests/data/crossing.xml) stays in the panel at the top right (18 px from the right edge). */
START_TEST(positioned_light_is_drawn_at_its_place_in_its_state)
{
	run_rec *r = record("models/street_crossing.xml");
	ck_assert(r->m->n_signals == 1 && r->m->signals[0].has_position);
	ck_assert(r->m->signals[0].position.x == 3.6 && r->m->signals[0].position.y == -3);
	sw_diag d;
	sw_diag_init(&d);
	char *f[3] = {tmp_path(".svg"), tmp_path(".svg"), tmp_path(".svg")};
	ck_assert_int_eq(sw_render_frame(r->w, r->tr, NULL, 10.0, SW_IMAGE_SVG, f[0], &d), SW_SUCCESS);
	ck_assert_int_eq(sw_render_frame(r->w, r->tr, NULL, 30.0, SW_IMAGE_SVG, f[1], &d), SW_SUCCESS);
	ck_assert_int_eq(sw_render_animation(r->w, r->tr, NULL, f[2], &d), SW_SUCCESS);
	const int want[2] = {0x2ca02c, 0xd62728};
	for (int k = 0; k < 3; k++) {
		double wpx, hpx, cx, cy;
		xmlDocPtr doc = parse_svg(f[k], &wpx, &hpx);
		xmlNodePtr root = xmlDocGetRootElement(doc);
		street_map(root, 3.6, -3, &cx, &cy);
		ck_assert_int_eq(count(root, "circle", "signal"), 1);
		if (k < 2) {
			xmlNodePtr lamp = find(root, "circle", "signal", 0);
			ck_assert_double_eq_tol(num_prop(lamp, "cx"), cx, 0.02);
			ck_assert_double_eq_tol(num_prop(lamp, "cy"), cy, 0.02);
			ck_assert_int_eq(colour_prop(lamp, "fill"), want[k]);
		} else {
			xmlChar *tf = xmlGetProp(find(root, "g", "signal-anim", 0), BAD_CAST "transform");
			double gx, gy;
			ck_assert_int_eq(sscanf((char *)tf, "translate(%lf %lf)", &gx, &gy), 2);
			ck_assert_double_eq_tol(gx, cx, 0.02);
			ck_assert_double_eq_tol(gy, cy, 0.02);
			xmlFree(tf);
		}
		xmlFreeDoc(doc);
		unlink(f[k]);
	}
	record_free(r);
	r = record("tests/data/crossing.xml");
	ck_assert(!r->m->signals[0].has_position);
	ck_assert_int_eq(sw_render_frame(r->w, r->tr, NULL, 10.0, SW_IMAGE_SVG, f[0], &d), SW_SUCCESS);
	double wpx, hpx;
	xmlDocPtr doc = parse_svg(f[0], &wpx, &hpx);
	xmlNodePtr lamp = find(xmlDocGetRootElement(doc), "circle", "signal", 0);
	ck_assert_double_eq_tol(num_prop(lamp, "cx"), wpx - 18, 0.02);
	xmlFreeDoc(doc);
	unlink(f[0]);
	record_free(r);
}
END_TEST

/* Targets and regions are named: in street_crossing both regions' names stand inside their
 * rectangles (the polygons of class "region", in file order), and the targets' labels name
 * distinct targets, each next to its circle; in the demo all three targets are named. */
START_TEST(targets_and_regions_are_labelled)
{
	run_rec *r = record("models/street_crossing.xml");
	sw_diag d;
	sw_diag_init(&d);
	char *path = tmp_path(".svg");
	ck_assert_int_eq(sw_render_svg(r->w, r->tr, NULL, path, &d), SW_SUCCESS);
	double wpx, hpx;
	xmlDocPtr doc = parse_svg(path, &wpx, &hpx);
	xmlNodePtr root = xmlDocGetRootElement(doc);
	ck_assert_int_eq(count(root, "text", "region-label"), 2);
	for (int k = 0; k < 2; k++) {
		xmlNodePtr t = find(root, "text", "region-label", k), pg = find(root, "polygon", "region", k);
		xmlChar *name = xmlNodeGetContent(t), *pts = xmlGetProp(pg, BAD_CAST "points");
		ck_assert_str_eq((char *)name, r->m->regions[k].name);
		double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY, x, y;
		int used;
		for (const char *c = (char *)pts; sscanf(c, " %lf,%lf%n", &x, &y, &used) == 2; c += used)
			x0 = fmin(x0, x), x1 = fmax(x1, x), y0 = fmin(y0, y), y1 = fmax(y1, y);
		ck_assert(num_prop(t, "x") > x0 && num_prop(t, "x") < x1);
		ck_assert(num_prop(t, "y") > y0 && num_prop(t, "y") < y1);
		xmlFree(name);
		xmlFree(pts);
	}
	int nt = count(root, "text", "target-label");
	ck_assert_int_ge(nt, 6); /* the six destinations stand apart */
	for (int k = 0; k < nt; k++) {
		xmlNodePtr t = find(root, "text", "target-label", k);
		xmlChar *name = xmlNodeGetContent(t);
		int which = -1;
		for (int q = 0; q < r->m->n_targets; q++)
			if (strcmp(r->m->targets[q].name, (char *)name) == 0)
				which = q;
		ck_assert_int_ge(which, 0);
		for (int q = 0; q < k; q++) {
			xmlChar *other = xmlNodeGetContent(find(root, "text", "target-label", q));
			ck_assert_str_ne((char *)other, (char *)name);
			xmlFree(other);
		}
		xmlNodePtr c = find(root, "circle", "target", which);
		ck_assert(fabs(num_prop(t, "x") - num_prop(c, "cx")) < num_prop(c, "r") + 5);
		ck_assert(fabs(num_prop(t, "y") - num_prop(c, "cy")) < 10);
		xmlFree(name);
	}
	xmlFreeDoc(doc);
	unlink(path);
	record_free(r);
	r = record("models/demo.xml");
	ck_assert_int_eq(sw_render_svg(r->w, r->tr, NULL, path, &d), SW_SUCCESS);
	doc = parse_svg(path, &wpx, &hpx);
	ck_assert_int_eq(count(xmlDocGetRootElement(doc), "text", "target-label"), 3);
	xmlFreeDoc(doc);
	unlink(path);
	record_free(r);
}
END_TEST

/* Axes in metres and a scale bar: two x tick labels give the pixels per metre and the offset;
 * through them every agent's final disc maps back to its final position, and the scale bar's
 * length in pixels is the length its label states. */
START_TEST(axes_and_scale_bar_are_in_metres)
{
	run_rec *r = record("models/demo.xml");
	sw_diag d;
	sw_diag_init(&d);
	char *path = tmp_path(".svg");
	ck_assert_int_eq(sw_render_svg(r->w, r->tr, NULL, path, &d), SW_SUCCESS);
	double wpx, hpx;
	xmlDocPtr doc = parse_svg(path, &wpx, &hpx);
	xmlNodePtr root = xmlDocGetRootElement(doc);
	ck_assert_int_ge(count(root, "text", "axis-x"), 3);
	ck_assert_int_ge(count(root, "text", "axis-y"), 3);
	ck_assert_int_eq(count(root, "line", "scale-bar"), 1);
	double xv[2], xp[2], yv[2], yp[2];
	for (int k = 0; k < 2; k++) {
		xmlNodePtr t = find(root, "text", "axis-x", k), u = find(root, "text", "axis-y", k);
		xmlChar *a = xmlNodeGetContent(t), *b = xmlNodeGetContent(u);
		xv[k] = atof((char *)a);
		xp[k] = num_prop(t, "x");
		yv[k] = atof((char *)b);
		yp[k] = num_prop(u, "y") - 4; /* labels sit 4 px below their tick */
		xmlFree(a);
		xmlFree(b);
	}
	double sx = (xp[1] - xp[0]) / (xv[1] - xv[0]), sy = (yp[1] - yp[0]) / (yv[1] - yv[0]);
	ck_assert(sx > 0);
	ck_assert_double_eq_tol(sy, -sx, 1e-2 * sx); /* same scale, y up */
	for (int i = 0; i < r->m->n_agents; i++) {
		sw_agent_state s;
		sw_world_agent(r->w, i, &s);
		xmlNodePtr c = find(root, "circle", "agent", i);
		ck_assert_double_eq_tol(xv[0] + (num_prop(c, "cx") - xp[0]) / sx, s.y[SW_STATE_X], 0.02);
		ck_assert_double_eq_tol(yv[0] + (num_prop(c, "cy") - yp[0]) / sy, s.y[SW_STATE_Y], 0.02);
	}
	xmlNodePtr bar = find(root, "line", "scale-bar", 0), lab = find(root, "text", "scale-label", 0);
	xmlChar *txt = xmlNodeGetContent(lab);
	double metres = 0;
	char unit[4] = "";
	ck_assert_int_eq(sscanf((char *)txt, "%lf %3s", &metres, unit), 2);
	ck_assert_str_eq(unit, "m");
	ck_assert_double_eq_tol((num_prop(bar, "x2") - num_prop(bar, "x1")) / sx, metres, 0.01);
	xmlFree(txt);
	ck_assert(in_range(root, wpx, hpx));
	xmlFreeDoc(doc);
	/* axes off: no gutter, nothing of the axes */
	sw_render_def def = sw_default_render_def();
	def.axes = 0;
	ck_assert_int_eq(sw_render_svg(r->w, r->tr, &def, path, &d), SW_SUCCESS);
	doc = parse_svg(path, &wpx, &hpx);
	ck_assert_int_eq(count(xmlDocGetRootElement(doc), "line", "scale-bar"), 0);
	ck_assert_int_eq(count(xmlDocGetRootElement(doc), "text", "axis-x"), 0);
	xmlFreeDoc(doc);
	unlink(path);
	record_free(r);
}
END_TEST

START_TEST(image_format_from_extension)
{
	sw_image_format f = SW_IMAGE_PNG;
	ck_assert_int_eq(sw_image_format_of("a/b.svg", &f), SW_SUCCESS);
	ck_assert_int_eq(f, SW_IMAGE_SVG);
	ck_assert_int_eq(sw_image_format_of("b.png", &f), SW_SUCCESS);
	ck_assert_int_eq(f, SW_IMAGE_PNG);
	ck_assert_int_eq(sw_image_format_of("b.jpg", &f), SW_EUSAGE);
	ck_assert_int_eq(sw_image_format_of("png", &f), SW_EUSAGE);
}
END_TEST

Suite *render_suite(void)
{
	Suite *s = suite_create("render");
	TCase *tc = tcase_create("render");
	tcase_add_test(tc, svg_has_scene_trajectories_and_markers_in_range);
	tcase_add_test(tc, png_matches_svg_sizes_and_colours);
	tcase_add_test(tc, animation_follows_the_samples);
	tcase_add_test(tc, frames_grow_with_time);
	tcase_add_test(tc, series_curves_map_back_to_the_states);
	tcase_add_test(tc, image_format_from_extension);
	tcase_add_test(tc, legend_has_one_row_and_colour_per_automaton_mode);
	tcase_add_test(tc, crowd_names_are_thinned_out);
	tcase_add_test(tc, traffic_light_is_drawn_in_its_state);
	tcase_add_test(tc, positioned_light_is_drawn_at_its_place_in_its_state);
	tcase_add_test(tc, targets_and_regions_are_labelled);
	tcase_add_test(tc, axes_and_scale_bar_are_in_metres);
	suite_add_tcase(s, tc);
	return s;
}
