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
 * mode, with a diagnostic) or SW_EIO. */
SW_API int sw_plot_heading_svg(const sw_world *w, int agent, const char *path, sw_diag *diag);

/** sw_plot_heading_svg() in format fmt. */
SW_API int sw_plot_heading(const sw_world *w, int agent, sw_image_format fmt, const char *path,
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
