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
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
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
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
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
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
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

/* --- charts of CSV tables (render/table.c, render/table_plot.c) ------------------------- */

/* Weidmann's speed-density relation, transcribed independently of render/table_plot.c. */
static double weidmann_speed(double rho)
{
	return 1.34 * (1.0 - exp(-1.913 * (1.0 / rho - 1.0 / 5.4)));
}

typedef struct {
	double mx[16], my[16]; /* marker centres */
	int n_markers;
	double cx[512], cy[512]; /* the curve's points */
	int n_curve;
	int n_legend;
	char legend[8][64];
} chart_info;

static void chart_walk(xmlNodePtr n, chart_info *ci)
{
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		xmlChar *cls = xmlGetProp(n, BAD_CAST "class");
		const char *c = cls ? (const char *)cls : "";
		if (strcmp(c, "marker") == 0 && ci->n_markers < 16) {
			ci->mx[ci->n_markers] = num_prop(n, "cx");
			ci->my[ci->n_markers++] = num_prop(n, "cy");
		} else if (strcmp(c, "curve") == 0) {
			xmlChar *pts = xmlGetProp(n, BAD_CAST "points");
			const char *p = pts ? (const char *)pts : "";
			int used;
			while (ci->n_curve < 512 && sscanf(p, " %lf,%lf%n", &ci->cx[ci->n_curve],
							   &ci->cy[ci->n_curve], &used) == 2)
				ci->n_curve++, p += used;
			xmlFree(pts);
		} else if (strcmp(c, "legend") == 0 && ci->n_legend < 8) {
			xmlChar *t = xmlNodeGetContent(n);
			snprintf(ci->legend[ci->n_legend++], 64, "%s", (const char *)t);
			xmlFree(t);
		}
		xmlFree(cls);
		chart_walk(n->children, ci);
	}
}

/* A temporary output path that does not exist yet. */
static void temp_path(char *path)
{
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	unlink(path);
}

/* Speeds on Weidmann's curve at densities 1, 2, 3 (rows out of order), charted with the named
 * curve: each marker lies on the curve's polyline (linear between its samples) within 0.5 px. */
START_TEST(table_markers_lie_on_the_named_curve)
{
	char csv[256];
	snprintf(csv, sizeof csv, "walker,density,speed\nw,3,%.9f\nw,1,%.9f\nw,2,%.9f\n",
		 weidmann_speed(3), weidmann_speed(1), weidmann_speed(2));
	sw_diag d;
	sw_diag_init(&d);
	sw_table *t = NULL;
	ck_assert_int_eq(sw_table_parse(csv, strlen(csv), "fd.csv", &t, &d), SW_SUCCESS);
	const char *y[] = {"speed"};
	sw_table_plot_def def = sw_default_table_plot_def();
	def.x = "density", def.y = y, def.n_y = 1, def.by = "walker", def.curve = "weidmann";
	char path[] = "/tmp/swerve_table_XXXXXX";
	temp_path(path);
	ck_assert_int_eq(sw_plot_table(t, &def, SW_IMAGE_SVG, path, &d), SW_SUCCESS);
	xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
	unlink(path);
	ck_assert_ptr_nonnull(doc);
	chart_info ci;
	memset(&ci, 0, sizeof ci);
	chart_walk(xmlDocGetRootElement(doc), &ci);
	ck_assert_int_eq(ci.n_markers, 3);
	ck_assert_int_ge(ci.n_curve, 100);
	ck_assert_int_eq(ci.n_legend, 2);
	ck_assert_str_eq(ci.legend[0], "w");
	ck_assert_str_eq(ci.legend[1], "Weidmann (1993)");
	for (int k = 0; k < 3; k++) {
		int j = 1;
		while (j < ci.n_curve - 1 && ci.cx[j] < ci.mx[k])
			j++;
		double f = (ci.mx[k] - ci.cx[j - 1]) / (ci.cx[j] - ci.cx[j - 1]);
		double on = ci.cy[j - 1] + f * (ci.cy[j] - ci.cy[j - 1]);
		ck_assert_msg(fabs(on - ci.my[k]) < 0.5, "marker %d at y %.2f px, the curve at %.2f px",
			      k, ci.my[k], on);
	}
	xmlFreeDoc(doc);
	sw_table_free(t);
}
END_TEST

/* Quoted fields (a comma, a doubled quote, a line end inside), CRLF, a byte-order mark, blank
 * lines and spaces around cells; a cell that is not a number is reported at its line:column. */
START_TEST(table_reader_keeps_cells_and_their_places)
{
	static const char csv[] = "\xef\xbb\xbfname, v\r\n\"a,\"\"b\", 1.5\r\n\r\n"
				  "\"two\nlines\",2\n  plain ,  x\n";
	sw_diag d;
	sw_diag_init(&d);
	sw_table *t = NULL;
	ck_assert_int_eq(sw_table_parse(csv, strlen(csv), "q.csv", &t, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_table_n_cols(t), 2);
	ck_assert_int_eq(sw_table_n_rows(t), 3);
	ck_assert_str_eq(sw_table_col_name(t, 1), "v");
	ck_assert_str_eq(sw_table_cell(t, 0, 0), "a,\"b");
	ck_assert_str_eq(sw_table_cell(t, 1, 0), "two\nlines");
	ck_assert_str_eq(sw_table_cell(t, 2, 0), "plain");
	ck_assert_ptr_null(sw_table_cell(t, 3, 0));
	double v[3];
	ck_assert_int_eq(sw_table_numbers(t, "v", v, &d), SW_EINPUT);
	ck_assert_int_eq(d.count, 1);
	ck_assert_str_eq(d.entry[0].file, "q.csv");
	ck_assert_int_eq(d.entry[0].line, 6);
	ck_assert_int_eq(d.entry[0].column, 12);
	ck_assert_int_eq(sw_table_numbers(t, "nothing", v, &d), SW_EINPUT);
	ck_assert_int_eq(d.entry[1].line, 1);
	sw_table_free(t);
	/* the same table without the bad cell reads its numbers */
	sw_diag_init(&d);
	ck_assert_int_eq(sw_table_parse(csv, strlen(csv) - 13, "q.csv", &t, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_table_numbers(t, "v", v, &d), SW_SUCCESS);
	ck_assert(v[0] == 1.5 && v[1] == 2.0);
	sw_table_free(t);
}
END_TEST

/* Malformed tables and bad chart columns: SW_EINPUT, one error at the place, nothing written. */
START_TEST(table_bad_input_is_refused_without_output)
{
	static const struct {
		const char *csv, *x, *y, *by, *curve;
		int line, column;
	} cases[] = {
	    {"", "a", "b", NULL, NULL, 1, 1},
	    {"a,b\n\n", "a", "b", NULL, NULL, 3, 1},
	    {"a,b\n1,2,3\n", "a", "b", NULL, NULL, 2, 5},
	    {"a,,c\n1,2,3\n", "a", "b", NULL, NULL, 1, 3},
	    {"a,b\n1,\"2\n", "a", "b", NULL, NULL, 2, 3},
	    {"a,b\n1,2\n", "a", "c", NULL, NULL, 1, 1},
	    {"a,b\n1,2\n", "a", "b", "c", NULL, 1, 1},
	    {"a,b\n1,2\n1e999,3\n", "a", "b", NULL, NULL, 3, 1},
	    {"a,b\n1,2\n", "a", "b", NULL, "x +* 2", 1, 4},
	    {"a,b\n1,2\n", "a", "b", NULL, "x > 1", 1, 1},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		sw_diag d;
		sw_diag_init(&d);
		sw_table *t = NULL;
		int st = sw_table_parse(cases[k].csv, strlen(cases[k].csv), "bad.csv", &t, &d);
		char path[] = "/tmp/swerve_table_bad_XXXXXX";
		temp_path(path);
		if (st == SW_SUCCESS) {
			const char *y[] = {cases[k].y};
			sw_table_plot_def def = sw_default_table_plot_def();
			def.x = cases[k].x, def.y = y, def.n_y = 1, def.by = cases[k].by;
			def.curve = cases[k].curve;
			st = sw_plot_table(t, &def, SW_IMAGE_SVG, path, &d);
		}
		ck_assert_msg(st == SW_EINPUT, "case %zu: status %d", k, st);
		ck_assert_msg(d.count == 1 && d.entry[0].line == cases[k].line &&
				  d.entry[0].column == cases[k].column,
			      "case %zu: %d entries, first at %d:%d (%s)", k, d.count, d.entry[0].line,
			      d.entry[0].column, d.entry[0].message);
		ck_assert_int_ne(access(path, F_OK), 0);
		sw_table_free(t);
	}
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
	tc = tcase_create("table");
	tcase_add_test(tc, table_markers_lie_on_the_named_curve);
	tcase_add_test(tc, table_reader_keeps_cells_and_their_places);
	tcase_add_test(tc, table_bad_input_is_refused_without_output);
	suite_add_tcase(s, tc);
	return s;
}
