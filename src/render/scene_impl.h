/* render/scene_impl.h - the representation of a scene, shared by its builder and its two
 * writers (scene.c: SVG, scene_png.c: PNG).  Internal to the render module. */
#ifndef SW_RENDER_SCENE_IMPL_H
#define SW_RENDER_SCENE_IMPL_H

#include <libxml/xmlwriter.h>
#include "render/scene.h"

/** The largest side of a PNG picture, px (cairo's image surfaces stop at 32767). */
#define SC_PNG_MAX 32767

typedef enum {
	SC_CIRCLE = 0, /* a: cx cy r */
	SC_LINE = 1,   /* a: x1 y1 x2 y2 */
	SC_RECT = 2,   /* a: x y w h */
	SC_POLY = 3,   /* points first .. first + 2n in pts */
	SC_TEXT = 4,   /* a: x y size; angle, anchor, text */
	SC_GROUP = 5,  /* a: tx ty; angle; anim */
	SC_GROUP_END = 6
} sc_kind;

typedef struct {
	sc_kind kind;
	int cls, title, text; /* offsets into the string pool, -1 none */
	double a[4];
	double angle;         /* degrees, clockwise */
	int anchor;           /* sc_anchor */
	int first, n, closed; /* polyline points */
	int anim;             /* groups: index into anims, -1 none */
	double grow;          /* rects: seconds the width animation takes, 0 none */
	sc_style st;
} sc_item;

typedef struct {
	double t, x, y, angle;
	int fill;
} sc_key;

typedef struct {
	double dur;
	int first, n;
	int rotate, fill; /* which parts are animated */
} sc_anim;

struct sw_scene {
	double w, h;
	int title;
	int failed;
	int open_poly;
	sc_item *items;
	int n_items, cap_items;
	double *pts; /* x, y pairs */
	int n_pts, cap_pts;
	char *pool;
	int n_pool, cap_pool;
	sc_anim *anims;
	int n_anims, cap_anims;
	sc_key *keys;
	int n_keys, cap_keys;
};

/** The string at pool offset off (NULL for -1). */
const char *sc_str(const sw_scene *s, int off);

/** Draws the scene into a PNG written to fd (closed in all cases); returns 1 on success, else 0
 * with the errno of the failed write in *err (0 when drawing failed). */
int sc_write_png(const sw_scene *s, int fd, int *err);

/** An xmlTextWriter writing to f that keeps libxml2 from printing its own "I/O error" lines
 * (sc_xml_open); sc_xml_close frees it, restores libxml2's error handler and returns 1 when
 * everything was written, else 0 with the errno of the first failed write in *err. */
typedef struct sc_xml {
	FILE *f;
	int err;
	xmlStructuredErrorFunc old;
	void *old_ctx;
} sc_xml;
xmlTextWriterPtr sc_xml_open(sc_xml *x, FILE *f);
int sc_xml_close(sc_xml *x, xmlTextWriterPtr wr, int ok, int *err);

#endif
