/* tests/test_render.c - pictures checked structurally: the SVG parses, has the expected
 * elements in the expected numbers, and every coordinate lies inside the picture. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

START_TEST(svg_has_scene_trajectories_and_markers_in_range)
{
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load("models/demo.xml", &m, &d), SW_SUCCESS);
	sw_world *w = NULL;
	sw_trace *tr = sw_trace_alloc(m);
	ck_assert_int_eq(sw_world_create(m, &w, &d), SW_SUCCESS);
	sw_world_set_event_fn(w, sw_trace_event, tr);
	ck_assert_int_eq(sw_world_run(w, sw_trace_sample, tr, NULL, &d), SW_SUCCESS);
	char path[] = "/tmp/swerve_render_XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	sw_render_def def = sw_default_render_def();
	double at[] = {10.0};
	def.instants = at;
	def.n_instants = 1;
	ck_assert_int_eq(sw_render_svg(w, tr, &def, path, &d), SW_SUCCESS);
	xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
	ck_assert_ptr_nonnull(doc);
	xmlNodePtr root = xmlDocGetRootElement(doc);
	ck_assert_str_eq((const char *)root->name, "svg");
	xmlChar *ws = xmlGetProp(root, BAD_CAST "width"), *hs = xmlGetProp(root, BAD_CAST "height");
	double wpx = atof((char *)ws), hpx = atof((char *)hs);
	xmlFree(ws);
	xmlFree(hs);
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
	ck_assert(in_range(root, wpx, hpx));
	xmlFreeDoc(doc);
	unlink(path);
	sw_world_destroy(w);
	sw_trace_free(tr);
	sw_model_free(m);
}
END_TEST

Suite *render_suite(void)
{
	Suite *s = suite_create("render");
	TCase *tc = tcase_create("render");
	tcase_add_test(tc, svg_has_scene_trajectories_and_markers_in_range);
	suite_add_tcase(s, tc);
	return s;
}
