/* render/scene.c - building scenes, writing them atomically, and the SVG writer (libxml2's
 * text writer).  See scene.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/xmlwriter.h>

#include "render/scene_impl.h"

static const int palette[] = {0x1f77b4, 0xd62728, 0x2ca02c, 0xff7f0e, 0x9467bd,
			      0x8c564b, 0xe377c2, 0x17becf, 0xbcbd22, 0x7f7f7f};
#define N_PALETTE ((int)(sizeof palette / sizeof palette[0]))

/* Past the ten base colours, darker and then lighter shades of them, so that up to 30 mode keys
 * are told apart (the legend shows 20). */
int sc_palette(int k)
{
	k = (k % (3 * N_PALETTE) + 3 * N_PALETTE) % (3 * N_PALETTE);
	int c = palette[k % N_PALETTE], shade = k / N_PALETTE, out = 0;
	for (int sh = 0; sh <= 16; sh += 8) {
		int ch = (c >> sh) & 0xff;
		ch = shade == 1 ? ch * 6 / 10 : shade == 2 ? ch + (255 - ch) * 5 / 10 : ch;
		out |= ch << sh;
	}
	return out;
}

sc_style sc_stroke(int colour, double width)
{
	return (sc_style){SC_NONE, colour, width, {0, 0}};
}

sc_style sc_filled(int fill, int stroke, double width)
{
	return (sc_style){fill, stroke, width, {0, 0}};
}

/* Grows array *p of *cap elements of size sz to hold need; sets the scene's failure flag. */
static int reserve(sw_scene *s, void **p, int *cap, int need, size_t sz)
{
	if (s->failed)
		return 0;
	if (need <= *cap)
		return 1;
	int nc = *cap ? *cap : 64;
	while (nc < need)
		nc *= 2;
	void *q = realloc(*p, (size_t)nc * sz);
	if (!q) {
		s->failed = 1;
		return 0;
	}
	*p = q;
	*cap = nc;
	return 1;
}

/* Copies str into the string pool; returns its offset, -1 for NULL or on failure. */
static int pool_add(sw_scene *s, const char *str)
{
	if (!str)
		return -1;
	int len = (int)strlen(str) + 1;
	if (!reserve(s, (void **)&s->pool, &s->cap_pool, s->n_pool + len, 1))
		return -1;
	memcpy(s->pool + s->n_pool, str, (size_t)len);
	s->n_pool += len;
	return s->n_pool - len;
}

const char *sc_str(const sw_scene *s, int off) { return off < 0 ? NULL : s->pool + off; }

static sc_item *item_add(sw_scene *s, sc_kind kind, const char *cls, sc_style st,
			 const char *title)
{
	if (!reserve(s, (void **)&s->items, &s->cap_items, s->n_items + 1, sizeof *s->items))
		return NULL;
	int c = pool_add(s, cls), t = pool_add(s, title);
	if (s->failed)
		return NULL;
	sc_item *it = &s->items[s->n_items++];
	memset(it, 0, sizeof *it);
	it->kind = kind;
	it->cls = c;
	it->title = t;
	it->text = -1;
	it->anim = -1;
	it->st = st;
	return it;
}

sw_scene *sc_new(double w, double h, const char *title)
{
	sw_scene *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->w = w;
	s->h = h;
	s->open_poly = -1;
	s->title = pool_add(s, title ? title : "");
	sc_rect(s, "background", 0, 0, w, h, sc_filled(0xffffff, SC_NONE, 0));
	if (s->failed) {
		sc_free(s);
		return NULL;
	}
	return s;
}

void sc_free(sw_scene *s)
{
	if (!s)
		return;
	free(s->items);
	free(s->pts);
	free(s->pool);
	free(s->anims);
	free(s->keys);
	free(s);
}

double sc_width(const sw_scene *s) { return s->w; }
double sc_height(const sw_scene *s) { return s->h; }

void sc_circle(sw_scene *s, const char *cls, double cx, double cy, double r, sc_style st,
	       const char *title)
{
	sc_item *it = item_add(s, SC_CIRCLE, cls, st, title);
	if (it)
		it->a[0] = cx, it->a[1] = cy, it->a[2] = r;
}

void sc_line(sw_scene *s, const char *cls, double x1, double y1, double x2, double y2,
	     sc_style st, const char *title)
{
	sc_item *it = item_add(s, SC_LINE, cls, st, title);
	if (it)
		it->a[0] = x1, it->a[1] = y1, it->a[2] = x2, it->a[3] = y2;
}

void sc_rect(sw_scene *s, const char *cls, double x, double y, double w, double h, sc_style st)
{
	sc_item *it = item_add(s, SC_RECT, cls, st, NULL);
	if (it)
		it->a[0] = x, it->a[1] = y, it->a[2] = w, it->a[3] = h;
}

void sc_text(sw_scene *s, const char *cls, double x, double y, sc_anchor anchor, double size,
	     double angle, int colour, const char *text)
{
	sc_item *it = item_add(s, SC_TEXT, cls, sc_filled(colour, SC_NONE, 0), NULL);
	int t = pool_add(s, text);
	if (!it || s->failed)
		return;
	it->a[0] = x, it->a[1] = y, it->a[2] = size;
	it->angle = angle;
	it->anchor = anchor;
	it->text = t;
}

void sc_poly_begin(sw_scene *s, const char *cls, int closed, sc_style st, const char *title)
{
	sc_item *it = item_add(s, SC_POLY, cls, st, title);
	if (it) {
		it->closed = closed;
		it->first = s->n_pts;
		it->n = 0;
		s->open_poly = s->n_items - 1;
	}
}

void sc_point(sw_scene *s, double x, double y)
{
	if (s->failed || s->open_poly < 0 ||
	    !reserve(s, (void **)&s->pts, &s->cap_pts, s->n_pts + 2, sizeof *s->pts))
		return;
	s->pts[s->n_pts++] = x;
	s->pts[s->n_pts++] = y;
	s->items[s->open_poly].n++;
}

void sc_poly_end(sw_scene *s) { s->open_poly = -1; }

void sc_group_begin(sw_scene *s, const char *cls, double tx, double ty, double angle)
{
	sc_item *it = item_add(s, SC_GROUP, cls, sc_filled(SC_NONE, SC_NONE, 0), NULL);
	if (it)
		it->a[0] = tx, it->a[1] = ty, it->angle = angle;
}

void sc_group_end(sw_scene *s) { item_add(s, SC_GROUP_END, NULL, sc_filled(SC_NONE, SC_NONE, 0), NULL); }

void sc_group_animate(sw_scene *s, double dur, int n, const double *t, const double *x,
		      const double *y, const double *angle, const int *fill)
{
	if (s->failed || s->n_items == 0 || s->items[s->n_items - 1].kind != SC_GROUP || n < 1 ||
	    !reserve(s, (void **)&s->anims, &s->cap_anims, s->n_anims + 1, sizeof *s->anims) ||
	    !reserve(s, (void **)&s->keys, &s->cap_keys, s->n_keys + n, sizeof *s->keys))
		return;
	sc_anim *an = &s->anims[s->n_anims];
	an->dur = dur;
	an->first = s->n_keys;
	an->n = n;
	an->rotate = angle != NULL;
	an->fill = fill != NULL;
	for (int k = 0; k < n; k++)
		s->keys[s->n_keys++] = (sc_key){t[k], x[k], y[k], angle ? angle[k] : 0.0,
						fill ? fill[k] : SC_NONE};
	s->items[s->n_items - 1].anim = s->n_anims++;
}

void sc_rect_grow(sw_scene *s, double dur)
{
	if (!s->failed && s->n_items > 0 && s->items[s->n_items - 1].kind == SC_RECT)
		s->items[s->n_items - 1].grow = dur;
}

/* --- SVG ------------------------------------------------------------------------------ */

static void attr(xmlTextWriterPtr wr, const char *name, const char *value)
{
	xmlTextWriterWriteAttribute(wr, BAD_CAST name, BAD_CAST value);
}

/* Numbers with 2 decimals (pixels) are plenty and keep files small. */
static void attr_num(xmlTextWriterPtr wr, const char *name, double value)
{
	xmlTextWriterWriteFormatAttribute(wr, BAD_CAST name, "%.2f", value);
}

static void attr_colour(xmlTextWriterPtr wr, const char *name, int c)
{
	if (c == SC_INHERIT)
		return;
	if (c == SC_NONE)
		attr(wr, name, "none");
	else
		xmlTextWriterWriteFormatAttribute(wr, BAD_CAST name, "#%06x", (unsigned)c);
}

static void svg_style(xmlTextWriterPtr wr, const sc_style *st)
{
	attr_colour(wr, "fill", st->fill);
	attr_colour(wr, "stroke", st->stroke);
	if (st->stroke != SC_NONE)
		xmlTextWriterWriteFormatAttribute(wr, BAD_CAST "stroke-width", "%g", st->width);
	if (st->dash[0] > 0)
		xmlTextWriterWriteFormatAttribute(wr, BAD_CAST "stroke-dasharray", "%g %g",
						  st->dash[0], st->dash[1]);
}

/* The key-frame list of an animation: one "%.4g"-formatted field per key, ';'-separated. */
static void anim_values(xmlTextWriterPtr wr, const sw_scene *s, const sc_anim *an, int what)
{
	char buf[64];
	xmlTextWriterStartAttribute(wr, BAD_CAST(what == 0 ? "keyTimes" : "values"));
	for (int k = 0; k < an->n; k++) {
		const sc_key *q = &s->keys[an->first + k];
		const char *sep = k ? ";" : "";
		if (what == 0)
			snprintf(buf, sizeof buf, "%s%.6f", sep, an->dur > 0 ? q->t / an->dur : 0.0);
		else if (what == 1)
			snprintf(buf, sizeof buf, "%s%.2f %.2f", sep, q->x, q->y);
		else if (what == 2)
			snprintf(buf, sizeof buf, "%s%.2f", sep, q->angle);
		else
			snprintf(buf, sizeof buf, "%s#%06x", sep, (unsigned)q->fill);
		xmlTextWriterWriteString(wr, BAD_CAST buf);
	}
	xmlTextWriterEndAttribute(wr);
}

/* SMIL: the group's translation (and rotation, in a nested group) and its items' fill follow
 * the key frames; the static attributes are the first key frame, so viewers without SMIL show
 * the start. */
static void svg_anim(xmlTextWriterPtr wr, const sw_scene *s, const sc_anim *an, int part)
{
	static const char *types[] = {NULL, "translate", "rotate"};
	xmlTextWriterStartElement(wr, BAD_CAST(part == 3 ? "animate" : "animateTransform"));
	attr(wr, "attributeName", part == 3 ? "fill" : "transform");
	if (part != 3)
		attr(wr, "type", types[part]);
	xmlTextWriterWriteFormatAttribute(wr, BAD_CAST "dur", "%gs", an->dur > 0 ? an->dur : 1e-3);
	attr(wr, "repeatCount", "indefinite");
	if (part == 3)
		attr(wr, "calcMode", "discrete");
	anim_values(wr, s, an, 0);
	anim_values(wr, s, an, part);
	xmlTextWriterEndElement(wr);
}

static void svg_item(xmlTextWriterPtr wr, const sw_scene *s, const sc_item *it)
{
	static const char *names[] = {"circle", "line", "rect", "polyline", "text", "g"};
	char buf[96];
	if (it->kind == SC_GROUP_END) {
		xmlTextWriterEndElement(wr); /* the rotation group */
		xmlTextWriterEndElement(wr);
		return;
	}
	const char *name = it->kind == SC_POLY && it->closed ? "polygon" : names[it->kind];
	xmlTextWriterStartElement(wr, BAD_CAST name);
	if (it->cls >= 0)
		attr(wr, "class", sc_str(s, it->cls));
	const sc_anim *an = it->anim >= 0 ? &s->anims[it->anim] : NULL;
	switch (it->kind) {
	case SC_CIRCLE:
		attr_num(wr, "cx", it->a[0]);
		attr_num(wr, "cy", it->a[1]);
		attr_num(wr, "r", it->a[2]);
		break;
	case SC_LINE:
		attr_num(wr, "x1", it->a[0]);
		attr_num(wr, "y1", it->a[1]);
		attr_num(wr, "x2", it->a[2]);
		attr_num(wr, "y2", it->a[3]);
		break;
	case SC_RECT:
		attr_num(wr, "x", it->a[0]);
		attr_num(wr, "y", it->a[1]);
		/* a growing rect starts empty (viewers without SMIL show t = 0 too) */
		attr_num(wr, "width", it->grow > 0 ? 0.0 : it->a[2]);
		attr_num(wr, "height", it->a[3]);
		break;
	case SC_POLY:
		xmlTextWriterStartAttribute(wr, BAD_CAST "points");
		for (int k = 0; k < it->n; k++) {
			const double *p = s->pts + it->first + 2 * k;
			snprintf(buf, sizeof buf, "%s%.2f,%.2f", k ? " " : "", p[0], p[1]);
			xmlTextWriterWriteString(wr, BAD_CAST buf);
		}
		xmlTextWriterEndAttribute(wr);
		break;
	case SC_TEXT:
		attr_num(wr, "x", it->a[0]);
		attr_num(wr, "y", it->a[1]);
		attr(wr, "text-anchor", it->anchor == SC_START ? "start" : it->anchor == SC_MIDDLE ? "middle" : "end");
		attr(wr, "font-family", "sans-serif");
		xmlTextWriterWriteFormatAttribute(wr, BAD_CAST "font-size", "%g", it->a[2]);
		if (it->angle != 0)
			xmlTextWriterWriteFormatAttribute(wr, BAD_CAST "transform", "rotate(%g %.2f %.2f)",
							  it->angle, it->a[0], it->a[1]);
		break;
	case SC_GROUP:
		snprintf(buf, sizeof buf, "translate(%.2f %.2f)", it->a[0], it->a[1]);
		attr(wr, "transform", buf);
		if (an && an->fill)
			attr_colour(wr, "fill", s->keys[an->first].fill);
		break;
	default: break;
	}
	if (it->kind != SC_GROUP && it->kind != SC_TEXT)
		svg_style(wr, &it->st);
	else if (it->kind == SC_TEXT && it->st.fill != 0)
		attr_colour(wr, "fill", it->st.fill);
	if (it->title >= 0)
		xmlTextWriterWriteElement(wr, BAD_CAST "title", BAD_CAST sc_str(s, it->title));
	if (it->kind == SC_RECT && it->grow > 0) {
		xmlTextWriterStartElement(wr, BAD_CAST "animate");
		attr(wr, "attributeName", "width");
		attr(wr, "from", "0");
		attr_num(wr, "to", it->a[2]);
		xmlTextWriterWriteFormatAttribute(wr, BAD_CAST "dur", "%gs", it->grow);
		attr(wr, "repeatCount", "indefinite");
		xmlTextWriterEndElement(wr);
	}
	if (it->kind == SC_TEXT)
		xmlTextWriterWriteString(wr, BAD_CAST sc_str(s, it->text));
	if (it->kind == SC_GROUP) {
		if (an) {
			svg_anim(wr, s, an, 1);
			if (an->fill)
				svg_anim(wr, s, an, 3);
		}
		/* The rotation lives in a nested group so that it turns about the moving origin. */
		xmlTextWriterStartElement(wr, BAD_CAST "g");
		xmlTextWriterWriteFormatAttribute(wr, BAD_CAST "transform", "rotate(%.2f)", it->angle);
		if (an && an->rotate)
			svg_anim(wr, s, an, 2);
		return; /* closed by the matching SC_GROUP_END */
	}
	xmlTextWriterEndElement(wr);
}

/* Writes the scene as SVG to f (left open: the atomic writer closes it). */
static int xml_write(void *ctx, const char *buf, int len)
{
	sc_xml *x = ctx;
	errno = 0;
	if (fwrite(buf, 1, (size_t)len, x->f) == (size_t)len)
		return len;
	if (!x->err)
		x->err = errno ? errno : EIO;
	return -1;
}

static int xml_close(void *ctx)
{
	(void)ctx; /* the caller closes the file (sw_atomic_commit) */
	return 0;
}

static void xml_quiet(void *ctx, const xmlError *e)
{
	(void)ctx; /* a failed write is reported once, with its errno, by the caller */
	(void)e;
}

xmlTextWriterPtr sc_xml_open(sc_xml *x, FILE *f)
{
	x->f = f;
	x->err = 0;
	x->old = xmlStructuredError;
	x->old_ctx = xmlStructuredErrorContext;
	xmlSetStructuredErrorFunc(NULL, (xmlStructuredErrorFunc)xml_quiet);
	xmlOutputBufferPtr out = xmlOutputBufferCreateIO(xml_write, xml_close, x, NULL);
	xmlTextWriterPtr wr = out ? xmlNewTextWriter(out) : NULL;
	if (!wr && out)
		xmlOutputBufferClose(out);
	if (!wr)
		xmlSetStructuredErrorFunc(x->old_ctx, x->old);
	return wr;
}

int sc_xml_close(sc_xml *x, xmlTextWriterPtr wr, int ok, int *err)
{
	xmlFreeTextWriter(wr); /* flushes what is left */
	xmlSetStructuredErrorFunc(x->old_ctx, x->old);
	if (x->err)
		ok = 0;
	*err = x->err;
	return ok;
}

static int write_svg(const sw_scene *s, FILE *f, int *err)
{
	char buf[128];
	sc_xml x;
	*err = ENOMEM;
	xmlTextWriterPtr wr = sc_xml_open(&x, f);
	if (!wr)
		return 0;
	xmlTextWriterSetIndent(wr, 1);
	int ok = xmlTextWriterStartDocument(wr, "1.0", "UTF-8", NULL) >= 0;
	xmlTextWriterStartElement(wr, BAD_CAST "svg");
	attr(wr, "xmlns", "http://www.w3.org/2000/svg");
	attr_num(wr, "width", s->w);
	attr_num(wr, "height", s->h);
	snprintf(buf, sizeof buf, "0 0 %.2f %.2f", s->w, s->h);
	attr(wr, "viewBox", buf);
	xmlTextWriterWriteElement(wr, BAD_CAST "title", BAD_CAST sc_str(s, s->title));
	for (int k = 0; k < s->n_items; k++)
		svg_item(wr, s, &s->items[k]);
	xmlTextWriterEndElement(wr);
	ok = ok && xmlTextWriterEndDocument(wr) >= 0;
	return sc_xml_close(&x, wr, ok, err);
}

int sw_image_format_of(const char *path, sw_image_format *fmt)
{
	const char *dot = strrchr(path, '.');
	if (dot && strcmp(dot, ".png") == 0)
		*fmt = SW_IMAGE_PNG;
	else if (dot && strcmp(dot, ".svg") == 0)
		*fmt = SW_IMAGE_SVG;
	else
		return SW_EUSAGE;
	return SW_SUCCESS;
}

int sc_write(const sw_scene *s, sw_image_format fmt, const char *path, sw_diag *diag)
{
	if (s->failed)
		return sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "out of memory drawing the picture"),
		       SW_ENOMEM;
	if (fmt != SW_IMAGE_SVG && fmt != SW_IMAGE_PNG)
		return sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "unknown picture format %d",
				   (int)fmt),
		       SW_EUSAGE;
	if (fmt == SW_IMAGE_PNG && !(s->w <= SC_PNG_MAX && s->h <= SC_PNG_MAX))
		return sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0,
				   "a %.0f x %.0f px picture is too large for PNG (at most %d px a "
				   "side); use a smaller width or SVG",
				   s->w, s->h, SC_PNG_MAX),
		       SW_EUSAGE;
	char tmp[SW_ATOMIC_TMP_LEN(4096)];
	FILE *f = sw_atomic_open(path, tmp, sizeof tmp, diag);
	if (!f)
		return SW_EIO;
	int ok, err = 0;
	if (fmt == SW_IMAGE_SVG) {
		ok = write_svg(s, f, &err);
	} else {
		/* The PNG writer closes the descriptor it is given: a duplicate, so that f (the
		 * same open file) is still there to be synced and closed. */
		int fd = dup(fileno(f));
		err = errno;
		ok = fd >= 0 && sc_write_png(s, fd, &err);
	}
	if (!ok) {
		sw_atomic_abort(f, tmp);
		if (!err)
			return sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0,
					   "cannot draw the picture (cairo failed)"),
			       SW_EIO;
		return sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "cannot write the picture: %s",
				   strerror(err)),
		       SW_EIO;
	}
	return sw_atomic_commit(f, tmp, path, diag);
}
