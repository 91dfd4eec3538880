/* tests/test_plot.c - the heading plot checked structurally: the SVG parses, has the three
 * curves with every point inside the picture, and marks the fixed points of phidot where the
 * closed form puts them (target only) or with alternating stability (obstacle ahead). */
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

/* Target only: agent at the origin heading 0, target at (5, 3): psi_T = atan2(3, 5). */
static const char target_only[] =
    "<scenario name=\"plot_target\"><run duration=\"5\" step=\"0.25\" seed=\"1\"/>"
    "<world><target name=\"goal\" x=\"5\" y=\"3\" radius=\"0.3\"/></world>"
    "<agent name=\"a\" x=\"0\" y=\"0\" heading=\"0\" radius=\"0.25\" target=\"goal\">"
    "<glm/></agent></scenario>";

/* Target straight ahead: the repeller behind sits on the -180/180 seam. */
static const char target_ahead[] =
    "<scenario name=\"plot_ahead\"><run duration=\"5\" step=\"0.25\" seed=\"1\"/>"
    "<world><target name=\"goal\" x=\"5\" y=\"0\" radius=\"0.3\"/></world>"
    "<agent name=\"a\" x=\"0\" y=\"0\" heading=\"0\" radius=\"0.25\" target=\"goal\">"
    "<glm/></agent></scenario>";

/* One disc straight ahead, on the way to the target. */
static const char obstacle_ahead[] =
    "<scenario name=\"plot_obstacle\"><run duration=\"5\" step=\"0.25\" seed=\"1\"/>"
    "<world><target name=\"goal\" x=\"8\" y=\"0\" radius=\"0.3\"/>"
    "<disc name=\"d\" x=\"3\" y=\"0\" radius=\"0.5\"/></world>"
    "<agent name=\"a\" x=\"0\" y=\"0\" heading=\"0\" radius=\"0.25\" target=\"goal\">"
    "<glm d0=\"2\"/></agent></scenario>";

/* One disc just beside the way: both weights are on (|w_tar| ~ 1, |w_obs| ~ 0.6 at t = 0). */
static const char obstacle_beside[] =
    "<scenario name=\"plot_beside\"><run duration=\"5\" step=\"0.25\" seed=\"1\"/>"
    "<world><target name=\"goal\" x=\"8\" y=\"0\" radius=\"0.3\"/>"
    "<disc name=\"d\" x=\"3\" y=\"1.5\" radius=\"0.5\"/></world>"
    "<agent name=\"a\" x=\"0\" y=\"0\" heading=\"0\" radius=\"0.25\" target=\"goal\">"
    "<glm d0=\"1\"/></agent></scenario>";

static const char fw_agent[] =
    "<scenario name=\"plot_fw\"><run duration=\"5\" step=\"0.25\" seed=\"1\"/>"
    "<world><target name=\"goal\" x=\"5\" y=\"0\" radius=\"0.3\"/></world>"
    "<agent name=\"a\" x=\"0\" y=\"0\" heading=\"0\" radius=\"0.25\" target=\"goal\">"
    "<fw speed=\"1.0\"/></agent></scenario>";

typedef struct {
	double x; /* cx, px */
	int stable;
} marker;

typedef struct {
	xmlDocPtr doc;
	double w, h;          /* viewBox size */
	double fx, fw;        /* frame: left edge and width, px */
	int n_curves[3];      /* polylines of class f-tar, f-obs, phidot */
	int points_outside;   /* polyline points outside the viewBox */
	int n_points[3];      /* points per curve */
	int n_markers;
	marker markers[64];
} plot_info;

static double num_prop(xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetProp(n, BAD_CAST name);
	double d = v ? atof((const char *)v) : NAN;
	xmlFree(v);
	return d;
}

static void walk(xmlNodePtr n, plot_info *pi)
{
	static const char *curves[] = {"f-tar", "f-obs", "phidot"};
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		xmlChar *cls = xmlGetProp(n, BAD_CAST "class");
		const char *c = cls ? (const char *)cls : "";
		if (strcmp((const char *)n->name, "polyline") == 0) {
			for (int k = 0; k < 3; k++)
				if (strcmp(c, curves[k]) == 0) {
					pi->n_curves[k]++;
					xmlChar *pts = xmlGetProp(n, BAD_CAST "points");
					const char *p = pts ? (const char *)pts : "";
					double x, y;
					int used;
					while (sscanf(p, " %lf,%lf%n", &x, &y, &used) == 2) {
						pi->n_points[k]++;
						if (!(x >= 0 && x <= pi->w && y >= 0 && y <= pi->h))
							pi->points_outside++;
						p += used;
					}
					xmlFree(pts);
				}
		} else if (strcmp((const char *)n->name, "rect") == 0 && strcmp(c, "frame") == 0) {
			pi->fx = num_prop(n, "x");
			pi->fw = num_prop(n, "width");
		} else if (strcmp((const char *)n->name, "circle") == 0 &&
			   (strcmp(c, "fixed-stable") == 0 || strcmp(c, "fixed-unstable") == 0)) {
			ck_assert_int_lt(pi->n_markers, 64);
			/* each marker carries a <title> */
			int titled = 0;
			for (xmlNodePtr ch = n->children; ch; ch = ch->next)
				titled |= ch->type == XML_ELEMENT_NODE &&
					  strcmp((const char *)ch->name, "title") == 0;
			ck_assert_msg(titled, "fixed-point marker without a <title>");
			pi->markers[pi->n_markers++] =
			    (marker){num_prop(n, "cx"), strcmp(c, "fixed-stable") == 0};
		}
		xmlFree(cls);
		walk(n->children, pi);
	}
}

/* Loads the scenario, plots agent 0 at t = 0 and parses the picture. */
static void plot_of(const char *xml, plot_info *pi)
{
	memset(pi, 0, sizeof *pi);
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory(xml, strlen(xml), "plot", &m, &d), SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, &w, &d), SW_SUCCESS);
	char path[] = "/tmp/swerve_plot_XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(sw_plot_heading_svg(w, 0, path, &d), SW_SUCCESS);
	pi->doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
	unlink(path);
	ck_assert_ptr_nonnull(pi->doc);
	xmlNodePtr root = xmlDocGetRootElement(pi->doc);
	ck_assert_str_eq((const char *)root->name, "svg");
	xmlChar *vb = xmlGetProp(root, BAD_CAST "viewBox");
	ck_assert_ptr_nonnull(vb);
	double x0, y0;
	ck_assert_int_eq(sscanf((const char *)vb, "%lf %lf %lf %lf", &x0, &y0, &pi->w, &pi->h), 4);
	xmlFree(vb);
	ck_assert(x0 == 0 && y0 == 0 && pi->w > 0 && pi->h > 0);
	walk(root, pi);
	ck_assert_msg(pi->fw > 0, "no plot frame");
	sw_world_destroy(w);
	sw_model_free(m);
}

/* The heading (deg) a marker's x position stands for. */
static double marker_deg(const plot_info *pi, double x)
{
	return -180.0 + 360.0 * (x - pi->fx) / pi->fw;
}

static double angle_diff_deg(double a, double b)
{
	double d = fmod(a - b + 540.0, 360.0) - 180.0;
	return fabs(d);
}

START_TEST(plot_parses_with_three_curves_inside)
{
	plot_info pi;
	plot_of(obstacle_ahead, &pi);
	for (int k = 0; k < 3; k++) {
		ck_assert_int_eq(pi.n_curves[k], 1);
		ck_assert_int_ge(pi.n_points[k], 361);
	}
	ck_assert_int_eq(pi.points_outside, 0);
	for (int k = 0; k < pi.n_markers; k++)
		ck_assert(pi.markers[k].x >= pi.fx - 1e-6 && pi.markers[k].x <= pi.fx + pi.fw + 1e-6);
	xmlFreeDoc(pi.doc);
}
END_TEST

/* Exactly one stable fixed point at psi_T and one unstable at psi_T + pi, within a sample. */
static void check_target_only(const char *xml, double psi)
{
	plot_info pi;
	plot_of(xml, &pi);
	ck_assert_int_eq(pi.n_markers, 2);
	double sample_deg = 360.0 / 720.0;
	int n_stable = 0;
	for (int k = 0; k < 2; k++) {
		double deg = marker_deg(&pi, pi.markers[k].x);
		double expect = pi.markers[k].stable ? psi : psi + 180.0;
		n_stable += pi.markers[k].stable;
		ck_assert_msg(angle_diff_deg(deg, expect) <= sample_deg,
			      "%s fixed point marked at %.3f deg, expected %.3f",
			      pi.markers[k].stable ? "stable" : "unstable", deg, expect);
	}
	ck_assert_int_eq(n_stable, 1);
	xmlFreeDoc(pi.doc);
}

START_TEST(target_only_marks_attractor_and_repeller)
{
	check_target_only(target_only, atan2(3.0, 5.0) * 180.0 / M_PI);
	check_target_only(target_ahead, 0.0);
}
END_TEST

/* Markers sorted by x around the circle: an even number, alternating stable / unstable (a
 * continuous periodic function's zeros alternate slopes), none marked twice. */
static void check_alternation(const plot_info *pi, marker *s)
{
	ck_assert_int_ge(pi->n_markers, 2);
	ck_assert_int_eq(pi->n_markers % 2, 0);
	memcpy(s, pi->markers, sizeof pi->markers);
	for (int i = 1; i < pi->n_markers; i++)
		for (int j = i; j > 0 && s[j - 1].x > s[j].x; j--) {
			marker t = s[j];
			s[j] = s[j - 1];
			s[j - 1] = t;
		}
	for (int i = 0; i < pi->n_markers; i++) {
		int nx = (i + 1) % pi->n_markers;
		ck_assert_msg(s[i].stable != s[nx].stable,
			      "fixed points %d and %d (%.1f, %.1f deg) have the same stability", i, nx,
			      marker_deg(pi, s[i].x), marker_deg(pi, s[nx].x));
		double gap = angle_diff_deg(marker_deg(pi, s[i].x), marker_deg(pi, s[nx].x));
		ck_assert_msg(gap > 0.25, "fixed point marked twice near %.2f deg",
			      marker_deg(pi, s[i].x));
	}
}

START_TEST(obstacle_ahead_fixed_points_alternate)
{
	plot_info pi;
	marker s[64];
	plot_of(obstacle_ahead, &pi);
	check_alternation(&pi, s);
	/* Straight ahead (phi = 0, the obstacle's and the target's direction) is one of them. */
	int ahead = 0;
	for (int i = 0; i < pi.n_markers; i++)
		ahead |= angle_diff_deg(marker_deg(&pi, s[i].x), 0.0) <= 0.5;
	ck_assert_msg(ahead, "no fixed point straight ahead");
	xmlFreeDoc(pi.doc);
}
END_TEST

START_TEST(obstacle_beside_fixed_points_alternate)
{
	plot_info pi;
	marker s[64];
	plot_of(obstacle_beside, &pi);
	check_alternation(&pi, s);
	xmlFreeDoc(pi.doc);
}
END_TEST

/* The PNG of the same plot: the SVG's size, and at every fixed-point marker the SVG's fill
 * (blue for stable, white for unstable), read back with cairo. */
START_TEST(png_plot_marks_fixed_points_in_colour)
{
	plot_info pi;
	plot_of(obstacle_beside, &pi);
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory(obstacle_beside, strlen(obstacle_beside), "plot",
						 &m, &d),
			 SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, &w, &d), SW_SUCCESS);
	char path[] = "/tmp/swerve_plot_png_XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(sw_plot_heading(w, 0, SW_IMAGE_PNG, path, &d), SW_SUCCESS);
	cairo_surface_t *img = cairo_image_surface_create_from_png(path);
	unlink(path);
	ck_assert_int_eq(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
	ck_assert_int_eq(cairo_image_surface_get_width(img), (int)ceil(pi.w));
	ck_assert_int_eq(cairo_image_surface_get_height(img), (int)ceil(pi.h));
	/* every marker sits on the zero line: find its row from the frame (symmetric axis) */
	xmlNodePtr root = xmlDocGetRootElement(pi.doc);
	double cy = NAN;
	for (xmlNodePtr n = root->children; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, "circle") == 0) {
			xmlChar *c = xmlGetProp(n, BAD_CAST "class");
			if (c && strncmp((const char *)c, "fixed-", 6) == 0)
				cy = num_prop(n, "cy");
			xmlFree(c);
		}
	ck_assert(isfinite(cy));
	const unsigned char *data = cairo_image_surface_get_data(img);
	int stride = cairo_image_surface_get_stride(img);
	for (int k = 0; k < pi.n_markers; k++) {
		uint32_t v;
		memcpy(&v, data + (size_t)(int)cy * stride + 4 * (int)pi.markers[k].x, 4);
		ck_assert_int_eq((int)(v & 0xffffff), pi.markers[k].stable ? 0x1f77b4 : 0xffffff);
	}
	cairo_surface_destroy(img);
	xmlFreeDoc(pi.doc);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

START_TEST(non_glm_agent_is_refused)
{
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory(fw_agent, strlen(fw_agent), "plot", &m, &d),
			 SW_SUCCESS);
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, &w, &d), SW_SUCCESS);
	char path[] = "/tmp/swerve_plot_fw_XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	unlink(path);
	ck_assert_int_eq(sw_plot_heading_svg(w, 0, path, &d), SW_EUSAGE);
	ck_assert_int_eq(sw_plot_heading_svg(w, 5, path, &d), SW_EUSAGE);
	ck_assert_int_ne(access(path, F_OK), 0); /* nothing written */
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

Suite *plot_suite(void)
{
	Suite *s = suite_create("plot");
	TCase *tc = tcase_create("heading");
	tcase_add_test(tc, plot_parses_with_three_curves_inside);
	tcase_add_test(tc, target_only_marks_attractor_and_repeller);
	tcase_add_test(tc, obstacle_ahead_fixed_points_alternate);
	tcase_add_test(tc, obstacle_beside_fixed_points_alternate);
	tcase_add_test(tc, png_plot_marks_fixed_points_in_colour);
	tcase_add_test(tc, non_glm_agent_is_refused);
	suite_add_tcase(s, tc);
	return s;
}
