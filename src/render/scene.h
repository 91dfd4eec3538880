/* render/scene.h - a picture as a list of drawing items (internal to the render module).
 *
 * Every picture swerve draws (world, heading plot, time series, animation) is first built as a
 * scene: circles, lines, polylines/polygons, rectangles, text and groups, in pixels with y
 * pointing down, each with a style, an optional class (for tests and CSS) and an optional
 * tooltip.  One writer turns a scene into SVG (libxml2's text writer, scene_svg.c) and one into
 * PNG (cairo, scene_png.c), so the geometry is computed once, by whoever builds the scene, and
 * the two formats cannot drift apart.
 *
 * Building never fails item by item: an allocation failure sets a flag and later calls do
 * nothing; the writers then return SW_ENOMEM.  Strings are copied into the scene. */
#ifndef SW_RENDER_SCENE_H
#define SW_RENDER_SCENE_H

#include "swerve/render.h"

/** "No colour" (fill or stroke left out). */
#define SC_NONE (-1)
/** Fill taken from the enclosing group (animated agents: the group's fill follows the mode). */
#define SC_INHERIT (-2)

/** How an item is painted. */
typedef struct sc_style {
	int fill;        /**< 0xRRGGBB or SC_NONE */
	int stroke;      /**< 0xRRGGBB or SC_NONE */
	double width;    /**< stroke width, px */
	double dash[2];  /**< dash on/off lengths, px; {0, 0}: solid */
} sc_style;

/** Text alignment relative to its anchor point. */
typedef enum { SC_START = 0, SC_MIDDLE = 1, SC_END = 2 } sc_anchor;

typedef struct sw_scene sw_scene;

/** A new empty scene of w x h pixels with a white background and a title; NULL when out of
 * memory. */
sw_scene *sc_new(double w, double h, const char *title);
void sc_free(sw_scene *s);

double sc_width(const sw_scene *s);
double sc_height(const sw_scene *s);

/* Items.  cls and title may be NULL. */
void sc_circle(sw_scene *s, const char *cls, double cx, double cy, double r, sc_style st,
	       const char *title);
void sc_line(sw_scene *s, const char *cls, double x1, double y1, double x2, double y2,
	     sc_style st, const char *title);
void sc_rect(sw_scene *s, const char *cls, double x, double y, double w, double h, sc_style st);
/** Text of size px at (x, y) (baseline), rotated by angle degrees (clockwise) about it. */
void sc_text(sw_scene *s, const char *cls, double x, double y, sc_anchor anchor, double size,
	     double angle, int colour, const char *text);

/** Starts a polyline (closed: polygon); add its points with sc_point, then sc_poly_end. */
void sc_poly_begin(sw_scene *s, const char *cls, int closed, sc_style st, const char *title);
void sc_point(sw_scene *s, double x, double y);
void sc_poly_end(sw_scene *s);

/** A group translated by (tx, ty) and rotated by angle degrees (clockwise) about its origin;
 * items added until sc_group_end are drawn in its frame. */
void sc_group_begin(sw_scene *s, const char *cls, double tx, double ty, double angle);
void sc_group_end(sw_scene *s);

/** Animates the group just begun (SVG only; PNG draws the group's static pose): over dur
 * seconds, repeated, the group passes through n key frames at times t[k] in [0, dur] with
 * translation (x[k], y[k]) and rotation angle[k] (degrees, may be NULL: no rotation), and its
 * items' fill takes colour fill[k] (may be NULL) from t[k] on.  The arrays are copied. */
void sc_group_animate(sw_scene *s, double dur, int n, const double *t, const double *x,
		      const double *y, const double *angle, const int *fill);

/** Animates the width of the rect just added from 0 to its width over dur seconds (a clock). */
void sc_rect_grow(sw_scene *s, double dur);

/** Writes the scene to path atomically in format fmt.  Returns SW_SUCCESS, SW_ENOMEM (building
 * ran out of memory), SW_EUSAGE (format not available) or SW_EIO, with a diagnostic. */
int sc_write(const sw_scene *s, sw_image_format fmt, const char *path, sw_diag *diag);

/* --- charts (chart.c): a framed plot area with ticks, shared by the plots --------------- */

/** A plot area and the data ranges it shows. */
typedef struct sc_axes {
	double x0, x1, y0, y1;   /**< plot area, px (y0 top) */
	double xlo, xhi, ylo, yhi; /**< data ranges */
} sc_axes;

double sc_ax_x(const sc_axes *a, double x);
/** The pixel row of value v, clamped to the plot area. */
double sc_ax_y(const sc_axes *a, double v);

/** A "nice" tick step (1, 2 or 5 times a power of ten) giving about n ticks over span. */
double sc_nice_step(double span, int n);

/** Frame (rect class "frame"), grid lines, ticks and tick labels every xstep / ystep (0: a nice
 * step), axis labels (may be NULL). */
void sc_axes_draw(sw_scene *s, const sc_axes *a, double xstep, double ystep,
		  const char *xlabel, const char *ylabel);

/** Polyline of class cls through (x[k], y[k]) mapped by a; a point whose value is not finite,
 * or where `breaks` (may be NULL) is non-zero, starts a new piece. */
void sc_axes_curve(sw_scene *s, const sc_axes *a, const char *cls, sc_style st, int n,
		   const double *x, const double *y, const unsigned char *breaks);

/** The data range of v[0..n) (non-finite values ignored; [0, 1] when none is finite) widened
 * to a readable axis: at least min_span wide about its middle, then padded by 5 % each side. */
void sc_range(const double *v, int n, double min_span, double *lo, double *hi);

/** Legend entry `row` (0 first) in the margin right of a's plot area: a short line in style st,
 * a filled circle of radius marker px on it (0: none), and name (class "legend"). */
void sc_legend_key(sw_scene *s, const sc_axes *a, int row, sc_style st, double marker,
		   const char *name);

/** The palette colour for index k (modes, series). */
int sc_palette(int k);

/** Shorthand styles. */
sc_style sc_stroke(int colour, double width);
sc_style sc_filled(int fill, int stroke, double width);

#endif
