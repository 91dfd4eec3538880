/* swerve/render.h - pictures of runs: the world and the agents' trajectories, animations, the
 * heading-dynamics plot and time series.
 *
 * A trace records what a run did (samples of every agent and its transitions) through the
 * world's sample and event callbacks; sw_render_image draws it over the scene: obstacles,
 * named regions and targets, trajectories coloured by (automaton, mode) with a legend,
 * transition markers, agent discs at chosen instants, time ticks, signals lit in their mode's
 * colour, axes in metres and a scale bar (docs/pictures.md).  Every picture is built once as a list of drawing items and written
 * either as SVG (libxml2's text writer) or as PNG (cairo), so both formats show the same
 * geometry.  sw_render_animation writes an animated SVG (SMIL), sw_render_frame one PNG/SVG
 * frame of a video. */
#ifndef SWERVE_RENDER_H
#define SWERVE_RENDER_H

#include "swerve/api.h"

#include "swerve/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Picture formats. */
typedef enum {
	SW_IMAGE_SVG = 0, /**< SVG 1.1, written with libxml2 */
	SW_IMAGE_PNG = 1  /**< PNG, drawn with cairo */
} sw_image_format;

/** The format named by path's extension (".svg" or ".png") into *fmt; SW_EUSAGE for any other
 * extension. */
SW_API int sw_image_format_of(const char *path, sw_image_format *fmt);

/** A recording of a run. */
typedef struct sw_trace sw_trace;

/** Allocates an empty trace for runs of model m (which must outlive it); NULL when out of
 * memory.  Free with sw_trace_free(). */
SW_API sw_trace *sw_trace_alloc(const sw_model *m);

/** Frees a trace.  NULL is allowed. */
SW_API void sw_trace_free(sw_trace *tr);

/** Records every agent at the world's current time: an sw_sample_fn (pass the trace as ctx). */
SW_API int sw_trace_sample(const sw_world *w, void *ctx);

/** Records one transition: an sw_event_fn (pass the trace as ctx). */
SW_API void sw_trace_event(const sw_world *w, int unit, double t, int from, int to,
			   const char *label, const char *guard, void *ctx);

/** Number of samples recorded per agent. */
SW_API int sw_trace_n_samples(const sw_trace *tr);

/** Drawing options; defaults from sw_default_render_def(). */
typedef struct sw_render_def {
	double width;        /**< picture width in pixels; default 900 */
	double margin;       /**< margin around the scene, m; default 1 */
	double tick_every;   /**< a time tick on every trajectory each tick_every s; 0 none;
				  default 5 */
	int n_instants;      /**< agent discs drawn at these times (plus the final one) */
	const double *instants; /**< times, s; may be NULL when n_instants == 0 */
	int legend;          /**< 1: the colour of every (automaton, mode) in a legend, and the
				  agents' names at the starts of their trajectories; default 1 */
	double anim_speed;   /**< animations: simulated seconds per second of playback; default 1 */
	int axes;            /**< 1: axes with tick labels in metres along the left and bottom
				  edges (in gutters of 46 and 30 px) and a scale bar; pictures
				  narrower than 200 px never get them; default 1 */
} sw_render_def;

/** The default drawing options. */
SW_API sw_render_def sw_default_render_def(void);

/** Writes a picture of trace tr (recorded from world w, for mode names; def may be NULL for the
 * defaults) to path in format fmt, atomically.  Returns SW_SUCCESS, or SW_EIO / SW_ENOMEM with a
 * diagnostic. */
SW_API int sw_render_image(const sw_world *w, const sw_trace *tr, const sw_render_def *def,
			   sw_image_format fmt, const char *path, sw_diag *diag);

/** sw_render_image() in SVG. */
SW_API int sw_render_svg(const sw_world *w, const sw_trace *tr, const sw_render_def *def,
			 const char *path, sw_diag *diag);

/** Writes the picture of trace tr as it was at time t (s): trajectories up to t, the agents'
 * discs and moving obstacles at t (the last sample at or before t), the legend of the whole run
 * (when def->legend), no instants or agent names; the frame's size and colours do not depend on
 * t (a video's frames line up).  Same returns as sw_render_image(). */
SW_API int sw_render_frame(const sw_world *w, const sw_trace *tr, const sw_render_def *def,
			   double t, sw_image_format fmt, const char *path, sw_diag *diag);

/** Writes an animated SVG of trace tr to path, atomically: the scene, the trajectories drawn
 * faintly, and every agent as a disc with a heading stroke that moves through the samples
 * (SMIL animateTransform translate/rotate, its fill following the mode's colour), moving
 * obstacles likewise, and a time bar; it plays in def->anim_speed times real time and repeats.
 * Viewers without SMIL show t = 0.  Same returns as sw_render_image(). */
SW_API int sw_render_animation(const sw_world *w, const sw_trace *tr, const sw_render_def *def,
			       const char *path, sw_diag *diag);

/* --- Heading plot ------------------------------------------------------------------------- */

/** Writes an SVG plot of GLM agent `agent`'s heading dynamics at the world's current time to
 * path, atomically: f_tar(phi), f_obs(phi) and phidot = |w_tar| f_tar + |w_obs| f_obs (eq. (1)
 * without noise) over phi in [-180, 180] degrees, for the situation the agent perceives now and
 * its current weights; the zero line, the agent's heading (vertical line) and the fixed points of
 * phidot (zero crossings refined with GSL's Brent solver) as filled (stable, negative slope) or
 * open (unstable) circles.  Curves are polylines of class "f-tar", "f-obs" and "phidot"; fixed
 * points circles of class "fixed-stable" / "fixed-unstable"; the plot area a rect of class
 * "frame".  Returns SW_SUCCESS, SW_EUSAGE (agent out of range or not running GLM in its current
 * mode, with a diagnostic) or SW_EIO.  Perceives through sw_world_perceive(), so it uses the
 * world's scratch (not thread-safe on one world; the world's state is unchanged). */
SW_API int sw_plot_heading_svg(sw_world *w, int agent, const char *path, sw_diag *diag);

/** sw_plot_heading_svg() in format fmt. */
SW_API int sw_plot_heading(sw_world *w, int agent, sw_image_format fmt, const char *path,
			   sw_diag *diag);

/** Writes time series of agent `agent` from trace tr (recorded from world w) to path in format
 * fmt, atomically: three panels over the run's time, heading (degrees, wrapped to [-180, 180),
 * polyline class "heading", broken at the wrap), speed (m/s, class "speed") and the GLM weights
 * |w_tar| and |w_obs| (classes "w-tar", "w-obs"; zero for other laws), with the agent's
 * transitions as vertical lines of class "transition".  Each panel's plot area is a rect of
 * class "frame".  Returns SW_SUCCESS, SW_EUSAGE (agent out of range or an empty trace, with a
 * diagnostic), SW_ENOMEM or SW_EIO. */
SW_API int sw_plot_series(const sw_world *w, const sw_trace *tr, int agent, sw_image_format fmt,
			  const char *path, sw_diag *diag);

/* --- Tables (CSV) and their charts ------------------------------------------------------ */

/** A table read from a CSV file: a header row of column names and rows of text cells, each cell
 * remembering its file line and column for diagnostics.  Immutable once read. */
typedef struct sw_table sw_table;

/** Reads the CSV file at path into *out (RFC 4180: comma-separated, fields optionally in double
 * quotes with "" for a quote, LF or CRLF line ends; blank lines are skipped).  The first row names
 * the columns (non-empty, distinct); every later row must have as many fields.  On success
 * returns SW_SUCCESS and a table the caller frees with sw_table_free().  Otherwise *out is NULL
 * and the status is SW_EIO (unreadable, or not a regular file) or SW_EINPUT (no header, no rows,
 * a row of the wrong width, an unterminated quote, a NUL byte, a duplicate or empty column
 * name) with one error in diag citing file:line:column, or SW_ENOMEM. */
SW_API int sw_table_load(const char *path, sw_table **out, sw_diag *diag);

/** sw_table_load() from the len bytes at text (need not be NUL-terminated); name is the file
 * named in diagnostics (may be NULL). */
SW_API int sw_table_parse(const char *text, size_t len, const char *name, sw_table **out,
			  sw_diag *diag);

/** Frees a table.  NULL is allowed. */
SW_API void sw_table_free(sw_table *t);

/** Number of data rows (the header not counted; at least 1) and of columns of t. */
SW_API int sw_table_n_rows(const sw_table *t);
SW_API int sw_table_n_cols(const sw_table *t);

/** The name of column col (0-based), owned by t; NULL when col is out of range. */
SW_API const char *sw_table_col_name(const sw_table *t, int col);

/** The index of the column called name, or -1 when there is none. */
SW_API int sw_table_find(const sw_table *t, const char *name);

/** The text of the cell in data row row (0-based) and column col, owned by t; NULL when out of
 * range. */
SW_API const char *sw_table_cell(const sw_table *t, int row, int col);

/** The column called name as numbers into out[0 .. n_rows): every cell must be a finite number
 * (strtod syntax; spaces around it allowed).  Returns SW_SUCCESS, or SW_EINPUT with one error in
 * diag: no such column (citing the header, with the columns there are) or the first cell that
 * is not a finite number (citing its file:line:column). */
SW_API int sw_table_numbers(const sw_table *t, const char *name, double *out, sw_diag *diag);

/** What sw_plot_table() draws; defaults from sw_default_table_plot_def(). */
typedef struct sw_table_plot_def {
	const char *x;              /**< column on the horizontal axis; required (default NULL) */
	const char *const *y;       /**< columns drawn as series: markers joined by lines in the
				         order of x; borrowed; default NULL */
	int n_y;                    /**< number of y columns, >= 1; default 0 */
	const char *by;             /**< column whose distinct values (in order of first
				         appearance) split the rows into one series each; NULL: one
				         series per y column; default NULL */
	const char *const *line;    /**< columns drawn as lines without markers over all rows (in
				         the order of x, one point per distinct x), e.g. an empirical
				         reference; borrowed; may be NULL; default NULL */
	int n_line;                 /**< number of line columns; default 0 */
	const char *curve;          /**< a dashed reference curve y(x) over the axis's x range: a
				         named curve ("weidmann": 1.34 (1 - exp(-1.913 (1/x - 1/5.4)))
				         m/s, speed against density in 1/m^2) or an expression in x
				         (docs/expressions.md); NULL none; default NULL */
	const char *title;          /**< title; NULL: "Y against X" with the columns' names (the
				         y columns joined by ", "); default NULL */
	const char *xlabel;         /**< x axis label; NULL: the x column's name; default NULL */
	const char *ylabel;         /**< y axis label; NULL: the y columns' names; default NULL */
	double width;               /**< picture width, px; default 900 */
	double height;              /**< picture height, px; default 560 */
} sw_table_plot_def;

/** The default table chart (no columns chosen: x and y must be set). */
SW_API sw_table_plot_def sw_default_table_plot_def(void);

/** Writes a chart of table t to path in format fmt, atomically: axes with ticks and labels,
 * each series as markers (circles of class "marker", the row's values as tooltip) joined by a
 * polyline of class "series" in its own palette colour, each line column as a polyline of class
 * "line", the curve as a dashed polyline of class "curve", and a legend (texts of class
 * "legend") naming every series ("BY-VALUE", or "BY-VALUE Y" with several y columns), line and
 * curve.  Returns SW_SUCCESS; SW_EINPUT (unknown column, a non-numeric cell in a column drawn,
 * a curve expression that does not parse) or SW_EUSAGE (no x or y, a size under 200 x 150 px)
 * with an error in diag and nothing written; SW_ENOMEM or SW_EIO. */
SW_API int sw_plot_table(const sw_table *t, const sw_table_plot_def *def, sw_image_format fmt,
			 const char *path, sw_diag *diag);

/* --- Fields (global planning, plan.h) ----------------------------------------------------- */

struct sw_grid;

/** Options of sw_render_field_svg; defaults from sw_default_field_svg_def(). */
typedef struct sw_field_svg_def {
	double width;      /**< picture width in pixels; default 900 */
	double spacing;    /**< streamline seeds on a lattice of this spacing, m; default 1 */
	double max_length; /**< longest streamline, m; default 200 */
} sw_field_svg_def;

SW_API sw_field_svg_def sw_default_field_svg_def(void);

/** Writes an SVG picture of field grid g over model m's map to path, atomically (see
 * render/field_svg.c): blocked region (class "blocked"), obstacles, streamlines (polylines in
 * the group of class "streamlines"), targets and agents' start positions.  Returns SW_SUCCESS,
 * SW_EUSAGE or SW_EIO with a diagnostic. */
SW_API int sw_render_field_svg(const sw_model *m, const struct sw_grid *g,
			       const sw_field_svg_def *def, const char *path, sw_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
