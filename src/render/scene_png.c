/* render/scene_png.c - the PNG writer of scenes: cairo draws every item of the scene (the same
 * description the SVG writer prints) onto an ARGB image surface of the scene's size, which is
 * written as PNG.  Animations are SVG-only: a group is drawn in its static pose. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include <cairo.h>

#include "core/core_internal.h"
#include "render/scene_impl.h"

static void set_rgb(cairo_t *cr, int c)
{
	cairo_set_source_rgb(cr, ((c >> 16) & 0xff) / 255.0, ((c >> 8) & 0xff) / 255.0,
			     (c & 0xff) / 255.0);
}

/* Fills and strokes the current path with st (fill SC_INHERIT: the enclosing group's). */
static void paint(cairo_t *cr, const sc_style *st, int inherited)
{
	int fill = st->fill == SC_INHERIT ? inherited : st->fill;
	if (fill >= 0) {
		set_rgb(cr, fill);
		if (st->stroke >= 0)
			cairo_fill_preserve(cr);
		else
			cairo_fill(cr);
	}
	if (st->stroke >= 0) {
		set_rgb(cr, st->stroke);
		cairo_set_line_width(cr, st->width > 0 ? st->width : 1.0);
		if (st->dash[0] > 0)
			cairo_set_dash(cr, st->dash, 2, 0);
		else
			cairo_set_dash(cr, NULL, 0, 0);
		cairo_stroke(cr);
	}
	cairo_new_path(cr);
}

static void text(cairo_t *cr, const sw_scene *s, const sc_item *it)
{
	const char *str = sc_str(s, it->text);
	cairo_save(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, it->a[2]);
	cairo_translate(cr, it->a[0], it->a[1]);
	cairo_rotate(cr, it->angle * SW_PI / 180.0);
	cairo_text_extents_t ex;
	cairo_text_extents(cr, str, &ex);
	double dx = it->anchor == SC_START ? 0 : it->anchor == SC_MIDDLE ? -0.5 * ex.x_advance
									 : -ex.x_advance;
	cairo_move_to(cr, dx, 0);
	set_rgb(cr, it->st.fill >= 0 ? it->st.fill : 0);
	cairo_show_text(cr, str);
	cairo_restore(cr);
}

static void draw(cairo_t *cr, const sw_scene *s)
{
	int fills[64], depth = 0; /* the fill each open group passes on */
	fills[0] = 0;
	for (int k = 0; k < s->n_items; k++) {
		const sc_item *it = &s->items[k];
		switch (it->kind) {
		case SC_CIRCLE:
			cairo_new_sub_path(cr);
			cairo_arc(cr, it->a[0], it->a[1], it->a[2], 0, 2 * SW_PI);
			paint(cr, &it->st, fills[depth]);
			break;
		case SC_LINE:
			cairo_move_to(cr, it->a[0], it->a[1]);
			cairo_line_to(cr, it->a[2], it->a[3]);
			paint(cr, &it->st, fills[depth]);
			break;
		case SC_RECT:
			cairo_rectangle(cr, it->a[0], it->a[1], it->a[2], it->a[3]);
			paint(cr, &it->st, fills[depth]);
			break;
		case SC_POLY:
			for (int q = 0; q < it->n; q++) {
				const double *p = s->pts + it->first + 2 * q;
				if (q)
					cairo_line_to(cr, p[0], p[1]);
				else
					cairo_move_to(cr, p[0], p[1]);
			}
			if (it->closed)
				cairo_close_path(cr);
			paint(cr, &it->st, fills[depth]);
			break;
		case SC_TEXT: text(cr, s, it); break;
		case SC_GROUP:
			cairo_save(cr);
			cairo_translate(cr, it->a[0], it->a[1]);
			cairo_rotate(cr, it->angle * SW_PI / 180.0);
			if (depth + 1 < (int)(sizeof fills / sizeof fills[0])) {
				depth++;
				fills[depth] = fills[depth - 1];
				if (it->anim >= 0 && s->anims[it->anim].fill)
					fills[depth] = s->keys[s->anims[it->anim].first].fill;
			}
			break;
		case SC_GROUP_END:
			cairo_restore(cr);
			if (depth > 0)
				depth--;
			break;
		}
	}
}

typedef struct png_sink {
	FILE *f;
	int err; /* errno of the first failed write */
} png_sink;

static cairo_status_t to_file(void *closure, const unsigned char *data, unsigned int length)
{
	png_sink *k = closure;
	errno = 0;
	if (fwrite(data, 1, length, k->f) == length)
		return CAIRO_STATUS_SUCCESS;
	if (!k->err)
		k->err = errno ? errno : EIO;
	return CAIRO_STATUS_WRITE_ERROR;
}

int sc_write_png(const sw_scene *s, int fd, int *err)
{
	*err = 0;
	png_sink k = {fdopen(fd, "wb"), 0};
	FILE *f = k.f;
	if (!f) {
		*err = errno;
		close(fd);
		return 0;
	}
	int w = (int)ceil(s->w), h = (int)ceil(s->h);
	cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
	cairo_t *cr = cairo_create(surf);
	cairo_set_source_rgb(cr, 1, 1, 1); /* the last, partly covered pixel row too */
	cairo_paint(cr);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
	draw(cr, s);
	int ok = cairo_status(cr) == CAIRO_STATUS_SUCCESS;
	cairo_destroy(cr);
	cairo_surface_flush(surf);
	ok = ok && cairo_surface_write_to_png_stream(surf, to_file, &k) == CAIRO_STATUS_SUCCESS;
	cairo_surface_destroy(surf);
	errno = 0;
	if (fclose(f) != 0) {
		ok = 0;
		if (!k.err)
			k.err = errno ? errno : EIO;
	}
	*err = k.err;
	return ok;
}
