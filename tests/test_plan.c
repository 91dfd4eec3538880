/* tests/test_plan.c - harmonic navigation fields and vector fields (plan module).
 *
 * Values are checked against closed forms: a separable harmonic function on the unit square
 * (second-order convergence of the 5-point scheme), and the exact discrete solution on a long
 * strip where phi falls to 1e-27 (relative precision, the reason for solving for phi = 1 - u);
 * example maps have no interior local maximum; the cache hits, misses and survives corruption;
 * vector field files report errors at file:line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/field_cache.h"
#include "swerve/swerve.h"
#include "tests.h"

/* Unit square, n x n nodes, boundary values of phi = sin(pi x) sinh(pi y) / sinh(pi); returns
 * the largest nodal error of the solution. */
static double square_error(int n)
{
	double h = 1.0 / (n - 1);
	sw_grid *g = sw_grid_alloc(SW_GRID_NAV, n, n, 0.0, 0.0, h);
	ck_assert_ptr_nonnull(g);
	for (int j = 0; j < n; j++)
		for (int i = 0; i < n; i++)
			if (i == 0 || j == 0 || i == n - 1 || j == n - 1) {
				size_t k = (size_t)j * n + i;
				g->fixed[k] = 1;
				g->v[k] = sin(M_PI * i * h) * sinh(M_PI * j * h) / sinh(M_PI);
			}
	sw_solver_def def = sw_default_solver_def();
	def.tol = 1e-12;
	sw_solve_stats st;
	ck_assert_int_eq(sw_grid_solve(g, &def, &st), SW_SUCCESS);
	ck_assert(st.converged);
	double err = 0.0;
	for (int j = 1; j < n - 1; j++)
		for (int i = 1; i < n - 1; i++) {
			double exact = sin(M_PI * i * h) * sinh(M_PI * j * h) / sinh(M_PI);
			err = fmax(err, fabs(g->v[(size_t)j * n + i] - exact));
		}
	sw_grid_free(g);
	return err;
}

START_TEST(square_matches_the_separable_solution_with_second_order)
{
	double e1 = square_error(17), e2 = square_error(33), e3 = square_error(65);
	/* The 5-point scheme's error is O(h^2): each halving of h divides it by about 4. */
	ck_assert(e1 < 1e-2);
	ck_assert_double_ge(log2(e1 / e2), 1.8);
	ck_assert_double_ge(log2(e2 / e3), 1.8);
}
END_TEST

START_TEST(strip_keeps_relative_precision_where_phi_is_exponentially_small)
{
	/* Strip [0, L] x [0, 1], phi = sin(pi y) at x = 0 and 0 on y = 0, 1.  The exact discrete
	 * solution is phi_ij = sin(pi y_j) exp(-kappa x_i) with cosh(kappa h) = 2 - cos(pi h). */
	int per = 16, L = 20;
	double h = 1.0 / per, kappa = acosh(2.0 - cos(M_PI * h)) / h;
	int nx = per * L + 1, ny = per + 1;
	sw_grid *g = sw_grid_alloc(SW_GRID_NAV, nx, ny, 0.0, 0.0, h);
	ck_assert_ptr_nonnull(g);
	for (int j = 0; j < ny; j++)
		for (int i = 0; i < nx; i++) {
			size_t k = (size_t)j * nx + i;
			if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
				g->fixed[k] = 1;
				g->v[k] = sin(M_PI * j * h) * exp(-kappa * i * h);
			}
		}
	sw_solver_def def = sw_default_solver_def();
	def.tol = 1e-10;
	sw_solve_stats st;
	ck_assert_int_eq(sw_grid_solve(g, &def, &st), SW_SUCCESS);
	if (!st.converged)
		fprintf(stderr, "strip: %d cycles %d sweeps, change %g\n", st.cycles, st.sweeps,
			st.rel_change);
	ck_assert(st.converged);
	double worst = 0.0;
	for (int j = 1; j < ny - 1; j++)
		for (int i = 1; i < nx - 1; i++) {
			double exact = sin(M_PI * j * h) * exp(-kappa * i * h);
			worst = fmax(worst, fabs(g->v[(size_t)j * nx + i] / exact - 1.0));
		}
	ck_assert_double_lt(worst, 1e-6);
	/* Far end: phi ~ 1e-27, so u = 1 - phi would be exactly 1 (no gradient at all). */
	double far = g->v[(size_t)(ny / 2) * nx + nx - 2];
	ck_assert_double_lt(far, 1e-25);
	ck_assert(1.0 - far == 1.0);
	/* Directions at nodes equal the discrete log-gradient (-sinh(kappa h), cot(pi y) sin(pi
	 * h)) / h, everywhere, the far end included. */
	for (int i = 1; i < nx - 1; i += 7)
		for (int j = 2; j < ny - 2; j += 3) {
			sw_vec2 d;
			ck_assert(sw_grid_direction(g, sw_v2(i * h, j * h), &d));
			double ex = -sinh(kappa * h), ey = sin(M_PI * h) / tan(M_PI * j * h);
			double ang = sw_wrap_angle(atan2(d.y, d.x) - atan2(ey, ex));
			ck_assert_double_lt(fabs(ang), 1e-5);
		}
	/* Between nodes the direction still points along -x on the centre line. */
	sw_vec2 d;
	ck_assert(sw_grid_direction(g, sw_v2(L - 0.53 * h, 0.5), &d));
	ck_assert_double_lt(fabs(d.y), 1e-6);
	ck_assert_double_lt(d.x, 0.0);
	sw_grid_free(g);
}
END_TEST

START_TEST(solver_refuses_a_free_border)
{
	sw_grid *g = sw_grid_alloc(SW_GRID_NAV, 5, 5, 0, 0, 1);
	sw_solver_def def = sw_default_solver_def();
	ck_assert_int_eq(sw_grid_solve(g, &def, NULL), SW_EUSAGE);
	sw_grid_free(g);
	ck_assert_ptr_null(sw_grid_alloc(SW_GRID_NAV, 2, 5, 0, 0, 1));
	ck_assert_ptr_null(sw_grid_alloc(SW_GRID_NAV, 5, 5, 0, 0, 0));
}
END_TEST

static sw_model *load(const char *path)
{
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	int st = sw_scenario_load(path, &m, &d);
	if (st != SW_SUCCESS && d.count > 0)
		fprintf(stderr, "%s\n", d.entry[0].message);
	ck_assert_int_eq(st, SW_SUCCESS);
	return m;
}

static const char *maps[] = {"models/seek_escape_trap.xml", "models/seek_escape_maze.xml",
			     "models/seek_escape_room.xml"};

START_TEST(example_maps_have_no_interior_local_maximum)
{
	sw_model *m = load(maps[_i]);
	sw_plan_options o = sw_default_plan_options();
	sw_grid *g = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_plan_build_field(m, 0, &o, &g, NULL, &d), SW_SUCCESS);
	int nx = g->nx, ny = g->ny, free_nodes = 0;
	for (int j = 1; j < ny - 1; j++)
		for (int i = 1; i < nx - 1; i++) {
			size_t k = (size_t)j * nx + i;
			if (g->fixed[k])
				continue;
			/* phi = 0 exactly: cut off from the target (outside the maze's box). */
			if (g->v[k] == 0.0)
				continue;
			free_nodes++;
			/* Some neighbour is strictly higher: no trap for gradient ascent. */
			double best = fmax(fmax(g->v[k - 1], g->v[k + 1]),
					   fmax(g->v[k - (size_t)nx], g->v[k + (size_t)nx]));
			ck_assert_double_gt(best, g->v[k]);
		}
	ck_assert_int_gt(free_nodes, 1000);
	/* Every agent starts in the target's component; following the field raises phi. */
	for (int a = 0; a < m->n_agents; a++) {
		sw_vec2 p = m->agents[a].position, q;
		ck_assert_double_gt(sw_grid_value(g, p), 0.0);
		ck_assert(sw_grid_lookahead(g, p, 1.0, &q));
		ck_assert_double_gt(sw_grid_value(g, q), sw_grid_value(g, p));
	}
	sw_grid_free(g);
	sw_model_free(m);
}
END_TEST

START_TEST(seek_escape_reaches_the_goal_on_every_map)
{
	sw_model *m = load(maps[_i]);
	sw_diag d;
	sw_diag_init(&d);
	sw_plan *plan = NULL;
	ck_assert_int_eq(sw_plan_fields(m, NULL, &plan, &d), SW_SUCCESS);
	int ai = sw_model_find_agent(m, "seek-escape");
	ck_assert_int_ge(ai, 0);
	for (uint64_t seed = 1; seed <= 3; seed++) {
		sw_world_def def = sw_default_world_def(m);
		def.seed = seed;
		def.plan = plan;
		sw_world *w = NULL;
		ck_assert_int_eq(sw_world_create(m, &def, &w, &d), SW_SUCCESS);
		ck_assert_int_eq(sw_world_run(w, NULL, NULL, &d), SW_SUCCESS);
		sw_agent_state s;
		sw_world_agent(w, ai, &s);
		ck_assert_str_eq(sw_world_mode_name(w, ai, s.mode), "arrived");
		ck_assert_int_eq(sw_world_metrics(w, ai)->collisions, 0);
		sw_world_destroy(w);
	}
	sw_plan_free(plan);
	sw_model_free(m);
}
END_TEST

/* Bytes of a file; caller frees. */
static unsigned char *slurp(const char *path, long *n)
{
	FILE *f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	*n = ftell(f);
	rewind(f);
	unsigned char *b = malloc((size_t)*n);
	ck_assert_int_eq(fread(b, 1, (size_t)*n, f), (size_t)*n);
	fclose(f);
	return b;
}

static void spit(const char *path, const void *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fwrite(b, 1, n, f), n);
	fclose(f);
}

START_TEST(cache_hits_misses_and_replaces_a_corrupt_entry)
{
	char dir[] = "/tmp/swerve-plan-cacheXXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	sw_model *m = load(maps[2]);
	const sw_model_field *f = &m->fields[0];
	sw_diag d;
	sw_diag_init(&d);
	sw_solver_def def = sw_default_solver_def();
	sw_grid *g[4];
	sw_solve_stats st[4];
	for (int k = 0; k < 4; k++) {
		ck_assert_int_eq(sw_navgrid_rasterize(m, f->target, f->resolution, 0.25, f->margin,
						      0, &g[k], &d),
				 SW_SUCCESS);
	}
	size_t n = (size_t)g[0]->nx * g[0]->ny;
	/* Miss: solved and written. */
	ck_assert_int_eq(cli_navgrid_solve_cached(g[0], &def, dir, &st[0], &d), SW_SUCCESS);
	ck_assert_int_eq(st[0].from_cache, 0);
	if (!st[0].converged)
		fprintf(stderr, "room: %d cycles %d sweeps, change %g\n", st[0].cycles,
			st[0].sweeps, st[0].rel_change);
	char path[512];
	snprintf(path, sizeof path, "%s/navfield-%016llx.bin", dir,
		 (unsigned long long)sw_navgrid_key(g[0], &def));
	ck_assert_int_eq(access(path, R_OK), 0);
	/* Hit: the same values without a solve. */
	ck_assert_int_eq(cli_navgrid_solve_cached(g[1], &def, dir, &st[1], &d), SW_SUCCESS);
	ck_assert_int_eq(st[1].from_cache, 1);
	ck_assert_mem_eq(g[0]->v, g[1]->v, n * sizeof *g[0]->v);
	/* Corrupt entry (one byte of phi flipped): a miss, solved again, entry replaced. */
	long len;
	unsigned char *b = slurp(path, &len);
	b[len / 2] ^= 0x40;
	spit(path, b, (size_t)len);
	ck_assert_int_eq(cli_navgrid_solve_cached(g[2], &def, dir, &st[2], &d), SW_SUCCESS);
	ck_assert_int_eq(st[2].from_cache, 0);
	ck_assert_mem_eq(g[0]->v, g[2]->v, n * sizeof *g[0]->v);
	/* Truncated entry: a miss too. */
	spit(path, b, (size_t)len / 3);
	ck_assert_int_eq(cli_navgrid_solve_cached(g[3], &def, dir, &st[3], &d), SW_SUCCESS);
	ck_assert_int_eq(st[3].from_cache, 0);
	free(b);
	/* Other solver settings: another key. */
	sw_solver_def other = def;
	other.tol = 1e-6;
	ck_assert_uint_ne(sw_navgrid_key(g[0], &def), sw_navgrid_key(g[0], &other));
	ck_assert_int_eq(d.errors, 0);
	for (int k = 0; k < 4; k++)
		sw_grid_free(g[k]);
	unlink(path);
	rmdir(dir);
	sw_model_free(m);
}
END_TEST

/* Loads a vector field written from text; returns the status and the first message. */
static int vfield_text(const char *text, sw_grid **g, sw_diag *d)
{
	char path[] = "/tmp/swerve-vfieldXXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	sw_diag_init(d);
	int st = sw_vfield_load(path, g, d);
	unlink(path);
	return st;
}

START_TEST(vector_field_files_load_and_report_errors_at_their_line)
{
	static const char good[] = "# wind\nswerve-vectorfield 1\norigin -1 -1\nspacing 1\n"
				   "size 3 3\n1 0\n1 0\n1 0\n0 1 # comment\n\n0 1\n0 1\n1 1\n1 1\n"
				   "1 1\n";
	sw_grid *g = NULL;
	sw_diag d;
	ck_assert_int_eq(vfield_text(good, &g, &d), SW_SUCCESS);
	sw_vec2 dir;
	/* Bilinear between rows j = 0 (1, 0) and j = 1 (0, 1), half way: along (1, 1). */
	ck_assert(sw_grid_direction(g, sw_v2(0.0, -0.5), &dir));
	ck_assert_double_eq_tol(dir.x, M_SQRT1_2, 1e-9);
	ck_assert_double_eq_tol(dir.y, M_SQRT1_2, 1e-9);
	ck_assert(!sw_grid_direction(g, sw_v2(5.0, 0.0), &dir));
	sw_grid_free(g);

	static const struct {
		const char *text;
		int line;
		const char *says;
	} bad[] = {
	    {"vectorfield 1\n", 1, "expected 'swerve-vectorfield"},
	    {"swerve-vectorfield 2\n", 1, "format version"},
	    {"swerve-vectorfield 1\norigin 0\n", 2, "expected 'origin X0 Y0"},
	    {"swerve-vectorfield 1\norigin 0 0\nspacing -1\n", 3, "expected a number > 0"},
	    {"swerve-vectorfield 1\norigin 0 0\nspacing 1\nsize 2 3\n", 4, "integers >= 3"},
	    {"swerve-vectorfield 1\norigin 0 0\nspacing 1\nsize 3 3\n1 0\n1 x\n", 6,
	     "bad vector for node (1, 0)"},
	    {"swerve-vectorfield 1\norigin 0 0\nspacing 1\nsize 3 3\n1 0\n", 6,
	     "unexpected end of file after 1 of 9"},
	    {"swerve-vectorfield 1\norigin 0 0\nspacing 1\nsize 3 3\n1 0\n1 0\n1 0\n1 0\n1 0\n"
	     "1 0\n1 0\n1 0\n1 0\n7 7\n",
	     14, "extra data"},
	    {"swerve-vectorfield 1\norigin 0 0\nspacing inf\n", 3, "expected 'spacing"},
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		g = NULL;
		ck_assert_int_eq(vfield_text(bad[k].text, &g, &d), SW_EINPUT);
		ck_assert_ptr_null(g);
		ck_assert_int_ge(d.count, 1);
		if (d.entry[0].line != bad[k].line || !strstr(d.entry[0].message, bad[k].says))
			fprintf(stderr, "case %zu: line %d: %s\n", k, d.entry[0].line,
				d.entry[0].message);
		ck_assert_int_eq(d.entry[0].line, bad[k].line);
		ck_assert_ptr_nonnull(strstr(d.entry[0].message, bad[k].says));
	}
	ck_assert_int_eq(sw_vfield_load("/nonexistent/wind.txt", &g, &d), SW_EIO);
}
END_TEST

START_TEST(scenario_field_errors_cite_their_line)
{
	static const struct {
		const char *xml;
		int line;
		const char *says;
	} bad[] = {
	    {"<scenario>\n<world>\n<target name=\"t\" x=\"5\" y=\"0\"/>\n"
	     "<navfield name=\"nav\" target=\"nope\"/>\n</world>\n"
	     "<agent x=\"0\" y=\"0\" target=\"t\"/>\n</scenario>\n",
	     4, "target 'nope' is not a target"},
	    {"<scenario>\n<world>\n<target name=\"t\" x=\"5\" y=\"0\"/>\n</world>\n"
	     "<agent x=\"0\" y=\"0\" target=\"t\">\n<glm field=\"nav\"/>\n</agent>\n"
	     "</scenario>\n",
	     5, "steers by field 'nav'"},
	    {"<scenario>\n<world>\n<target name=\"t\" x=\"5\" y=\"0\"/>\n"
	     "<navfield name=\"nav\" target=\"t\" resolution=\"0\"/>\n</world>\n"
	     "<agent x=\"0\" y=\"0\" target=\"t\"/>\n</scenario>\n",
	     4, "resolution = 0"},
	    {"<scenario>\n<world>\n<target name=\"t\" x=\"5\" y=\"0\"/>\n</world>\n"
	     "<agent x=\"0\" y=\"0\" target=\"t\">\n<glm lookahead=\"-1\"/>\n</agent>\n"
	     "</scenario>\n",
	     6, "lookahead"},
	    {"<scenario>\n<world>\n<target name=\"t\" x=\"5\" y=\"0\"/>\n"
	     "<navfield name=\"nav\" target=\"t\" x1=\"0\" y1=\"-1\" x2=\"6\"/>\n</world>\n"
	     "<agent x=\"0\" y=\"0\" target=\"t\"/>\n</scenario>\n",
	     4, "needs all of x1, y1, x2 and y2 (got 3"},
	    {"<scenario>\n<world>\n<target name=\"t\" x=\"5\" y=\"0\"/>\n"
	     "<navfield name=\"nav\" target=\"t\" x1=\"0\" y1=\"-1\" x2=\"4\" y2=\"1\"/>\n"
	     "</world>\n<agent x=\"0\" y=\"0\" target=\"t\"/>\n</scenario>\n",
	     4, "lies outside the field's area"},
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		sw_model *m = NULL;
		sw_diag d;
		sw_diag_init(&d);
		ck_assert_int_eq(
		    sw_scenario_load_memory(bad[k].xml, strlen(bad[k].xml), "f.xml", &m, &d),
		    SW_EINPUT);
		ck_assert_ptr_null(m);
		int found = 0;
		for (int e = 0; e < d.count; e++)
			found |= d.entry[e].line == bad[k].line &&
				 strstr(d.entry[e].message, bad[k].says) != NULL;
		if (!found)
			fprintf(stderr, "case %zu: line %d: %s\n", k, d.entry[0].line,
				d.entry[0].message);
		ck_assert(found);
	}
}
END_TEST

START_TEST(a_field_to_another_target_is_a_warning)
{
	static const char xml[] = "<scenario>\n<world>\n<target name=\"a\" x=\"5\" y=\"0\"/>\n"
				  "<target name=\"b\" x=\"-5\" y=\"0\"/>\n"
				  "<navfield name=\"nav\" target=\"a\"/>\n</world>\n"
				  "<agent x=\"0\" y=\"0\" target=\"b\">\n<glm field=\"nav\"/>\n"
				  "</agent>\n</scenario>\n";
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory(xml, strlen(xml), "w.xml", &m, &d), SW_SUCCESS);
	ck_assert_int_eq(d.errors, 0);
	ck_assert_int_ge(d.count, 1);
	ck_assert_int_eq(d.entry[0].severity, SW_SEV_WARNING);
	ck_assert_int_eq(d.entry[0].line, 7);
	ck_assert_ptr_nonnull(strstr(d.entry[0].message, "which leads to target 'a'"));
	sw_model_free(m);
}
END_TEST

START_TEST(export_refuses_a_law_that_steers_by_a_field)
{
	sw_model *m = load(maps[2]);
	sw_export_def def = sw_default_export_def();
	sw_hybrid *h = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_hybrid_build(m, &def, &h, &d), SW_EINPUT);
	ck_assert_ptr_null(h);
	int found = 0;
	for (int e = 0; e < d.count; e++)
		found |=
		    strstr(d.entry[e].message, "field 'nav', which cannot be exported") != NULL;
	ck_assert(found);
	sw_model_free(m);
}
END_TEST

START_TEST(a_vector_field_gives_the_goal_direction)
{
	sw_model *m = load(SW_TEST_DATA "/vectorfield.xml");
	sw_world *w = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, &d), SW_SUCCESS);
	sw_agent_state s;
	sw_world_agent(w, 0, &s);
	/* The goal direction is north, not the target's east: eq. (2) with a = 1/s and no
	 * obstacle gives phi' = cos(phi), so phi(t) = gd(t) = 2 atan(tanh(t / 2)), and at the
	 * constant speed v_max = 1 m/s x(t) = gd(t), y(t) = ln cosh(t). */
	double t = 5.0, gd = 2.0 * atan(tanh(0.5 * t));
	ck_assert_double_eq_tol(s.y[SW_STATE_PHI], gd, 1e-4);
	ck_assert_double_eq_tol(s.y[SW_STATE_X], gd, 1e-4);
	ck_assert_double_eq_tol(s.y[SW_STATE_Y], log(cosh(t)), 1e-4);
	sw_world_destroy(w);
	sw_model_free(m);
	/* A bad grid file is reported at its own path and line. */
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load(SW_TEST_DATA "/bad_vectorfield.xml", &m, &d), SW_EINPUT);
	ck_assert_ptr_null(m);
	ck_assert_int_ge(d.count, 1);
	ck_assert_ptr_nonnull(strstr(d.entry[0].file, "bad_wind.txt"));
	ck_assert_int_eq(d.entry[0].line, 6);
}
END_TEST

/* Distance from segment [p, q] to the wall x = 2, -3 <= y <= 1 of tests/data/corners.xml. */
static double gap_to_wall(double px, double py, double qx, double qy)
{
	sw_vec2 p = sw_v2(px, py), q = sw_v2(qx, qy), a = sw_v2(2.0, -3.0), b = sw_v2(2.0, 1.0);
	if (sw_segments_intersect(p, q, a, b))
		return 0.0;
	double g = fmin(sw_segment_distance(p, q, a), sw_segment_distance(p, q, b));
	return fmin(g, fmin(sw_segment_distance(a, b, p), sw_segment_distance(a, b, q)));
}

/* tests/data/corners.xml, with corners="cut" instead of "avoid" when !avoid. */
static sw_model *corners_model(int avoid)
{
	FILE *f = fopen(SW_TEST_DATA "/corners.xml", "rb");
	ck_assert_ptr_nonnull(f);
	static char text[1 << 14];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	char *c = strstr(text, "<glm field=\"nav\" corners=\"avoid\"");
	ck_assert_ptr_nonnull(c);
	c += strlen("<glm field=\"nav\" ");
	if (!avoid) {
		memcpy(c, "corners=\"cut\"", 13);
		memmove(c + 13, c + 15, strlen(c + 15) + 1);
	}
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory(text, strlen(text), SW_TEST_DATA "/corners.xml", &m,
						 &d),
			 SW_SUCCESS);
	ck_assert_int_eq(m->agents[0].steer.avoid_corners, avoid);
	return m;
}

/* corners="avoid": at every step the point handed to the law is reached in a straight line by
 * the agent's disc grown to the field's clearance (0.4 m) -- the documented invariant; with
 * corners="cut" the chord passes the wall's end closer than the agent's radius while the agent
 * rounds it.  Both reach the goal. */
START_TEST(avoided_corners_keep_the_lookahead_in_sight)
{
	for (int avoid = 0; avoid <= 1; avoid++) {
		sw_model *m = corners_model(avoid);
		sw_world *w = NULL;
		sw_diag d;
		sw_diag_init(&d);
		ck_assert_int_eq(sw_world_create(m, NULL, &w, &d), SW_SUCCESS);
		double worst = INFINITY;
		int steps = 0;
		while (sw_world_time(w) < 30.0 - 1e-9) {
			sw_situation s;
			sw_percept buf[16];
			ck_assert_int_ge(sw_world_perceive(w, 0, &s, buf, 16), 0);
			if (!(s.tx == 4.0 && s.ty == 0.0)) /* the field's point, not the target */
				worst = fmin(worst, gap_to_wall(s.x, s.y, s.tx, s.ty));
			ck_assert_int_eq(sw_world_step(w, &d), SW_SUCCESS);
			steps++;
		}
		ck_assert_int_gt(steps, 100);
		if (avoid)
			ck_assert_msg(worst >= 0.4 - 1e-9, "chord within %g m of the wall", worst);
		else
			ck_assert_msg(worst < 0.25, "cut: the chord should pass the wall closer than the "
						    "agent's radius (%g)", worst);
		ck_assert(sw_world_metrics(w, 0)->reached);
		ck_assert_int_eq(sw_world_metrics(w, 0)->collisions, 0);
		sw_world_destroy(w);
		sw_model_free(m);
	}
}
END_TEST

/* method="distance": on an open grid with one target node, D = 1 / phi - 1 is the stencil's
 * shortest-path length, exact along axes, diagonals and knight moves and within 2.8 % of the
 * Euclidean distance everywhere (2.75 % measured: the 16-neighbour stencil's bound; the worst direction lies
 * between a diagonal and a knight move); behind a wall it is the length of the way round. */
START_TEST(distance_field_matches_the_euclidean_distance)
{
	int n = 81;
	double h = 0.1;
	sw_grid *g = sw_grid_alloc(SW_GRID_NAV, n, n, 0.0, 0.0, h);
	ck_assert_ptr_nonnull(g);
	size_t c = (size_t)40 * n + 40;
	g->fixed[c] = 1;
	g->v[c] = 1.0;
	for (int k = 0; k < n; k++) { /* border fixed at 0 */
		g->fixed[k] = g->fixed[(size_t)(n - 1) * n + k] = 1;
		g->fixed[(size_t)k * n] = g->fixed[(size_t)k * n + n - 1] = 1;
	}
	ck_assert_int_eq(sw_navgrid_distance(g), SW_SUCCESS);
	double worst = 0.0;
	for (int j = 1; j < n - 1; j++)
		for (int i = 1; i < n - 1; i++) {
			if (i == 40 && j == 40)
				continue;
			double d = 1.0 / g->v[(size_t)j * n + i] - 1.0;
			double e = h * hypot(i - 40, j - 40);
			int di = abs(i - 40), dj = abs(j - 40);
			if (di == 0 || dj == 0 || di == dj || di == 2 * dj || dj == 2 * di)
				ck_assert_double_eq_tol(d, e, 1e-12);
			ck_assert(d >= e - 1e-12);
			worst = fmax(worst, d / e - 1.0);
		}
	ck_assert_double_lt(worst, 0.028);
	ck_assert_double_gt(worst, 0.01); /* the stencil is not exact: the check can fail */
	/* A wall x = 4.5 m from y = 0 to 6 m (column 45, rows 0..60): the node (6, 1) just
	 * behind it (column 60, row 10) is reached round the wall's end (4.5, 6.1). */
	for (int j = 0; j <= 60; j++) {
		size_t k = (size_t)j * n + 45;
		g->fixed[k] = 1;
		g->v[k] = 0.0;
	}
	for (size_t k = 0; k < (size_t)n * n; k++)
		if (!g->fixed[k])
			g->v[k] = 0.0;
	ck_assert_int_eq(sw_navgrid_distance(g), SW_SUCCESS);
	double d = 1.0 / g->v[(size_t)10 * n + 60] - 1.0;
	double round = hypot(0.5, 2.1) + hypot(1.5, 5.1);
	ck_assert_double_ge(d, round - 0.05);
	ck_assert_double_le(d, round * 1.05); /* the move rule adds ~4 % at the end */
	sw_grid_free(g);
}
END_TEST

/* A field with an area covers exactly that rectangle: node (0, 0) on its lower-left corner
 * (the corners given in any order), the last node at or just past the far corner; and the
 * default grid is the area of the bounding box grown by the margin, computed here by hand. */
START_TEST(an_area_field_covers_its_rectangle)
{
	static const char xml[] =
	    "<scenario>\n<world>\n<target name=\"t\" x=\"5\" y=\"0\" radius=\"0.2\"/>\n"
	    "<disc x=\"2.5\" y=\"0\" radius=\"0.5\"/>\n"
	    "<navfield name=\"whole\" target=\"t\" method=\"distance\"/>\n"
	    "<navfield name=\"part\" target=\"t\" method=\"distance\" x1=\"7\" y1=\"3\" "
	    "x2=\"-2\" y2=\"-3\"/>\n</world>\n"
	    "<agent x=\"0\" y=\"0\" radius=\"0.25\" target=\"t\"/>\n</scenario>\n";
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_scenario_load_memory(xml, strlen(xml), "f.xml", &m, &d), SW_SUCCESS);
	sw_grid *part = NULL, *whole = NULL, *byhand = NULL;
	ck_assert_int_eq(sw_plan_build_field(m, 1, NULL, &part, NULL, &d), SW_SUCCESS);
	ck_assert_double_eq(part->x0, -2.0);
	ck_assert_double_eq(part->y0, -3.0);
	ck_assert_double_ge((part->nx - 1) * part->h, 9.0 - 1e-9);
	ck_assert_double_lt((part->nx - 2) * part->h, 9.0 + 1e-9);
	ck_assert_double_ge((part->ny - 1) * part->h, 6.0 - 1e-9);
	ck_assert_double_lt((part->ny - 2) * part->h, 6.0 + 1e-9);
	/* The bounding box: the agent's disc from x = -0.25, the target's to x = 5.2, the
	 * obstacle's from y = -0.5 to 0.5; grown by the margin 2. */
	const double box[4] = {-2.25, -2.5, 7.2, 2.5};
	ck_assert_int_eq(sw_plan_build_field(m, 0, NULL, &whole, NULL, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_navgrid_rasterize_area(m, 0, 0.1, 0.25, box, 0, &byhand, &d),
			 SW_SUCCESS);
	ck_assert_int_eq(sw_navgrid_distance(byhand), SW_SUCCESS);
	ck_assert_double_eq(whole->x0, byhand->x0);
	ck_assert_double_eq(whole->y0, byhand->y0);
	ck_assert_int_eq(whole->nx, byhand->nx);
	ck_assert_int_eq(whole->ny, byhand->ny);
	ck_assert_mem_eq(whole->v, byhand->v, (size_t)whole->nx * whole->ny * sizeof *whole->v);
	/* Both lead round the disc from the agent's start. */
	sw_vec2 dir;
	ck_assert(sw_grid_direction(part, sw_v2(1.5, 0.05), &dir));
	ck_assert_double_gt(fabs(dir.y), 0.3);
	sw_grid_free(part);
	sw_grid_free(whole);
	sw_grid_free(byhand);
	sw_model_free(m);
}
END_TEST

/* Files under dir, recursively (the cache folder and anything else). */
static int files_under(const char *dir)
{
	int n = 0;
	DIR *dp = opendir(dir);
	for (struct dirent *e; dp && (e = readdir(dp));) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char sub[1024];
		snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
		DIR *inner = opendir(sub);
		if (inner) {
			closedir(inner);
			n += files_under(sub);
		} else {
			n++;
		}
	}
	if (dp)
		closedir(dp);
	return n;
}

/* Planning with default options and creating worlds, with or without a plan, touch no files:
 * with HOME and XDG_CACHE_HOME pointed at an empty folder, it stays empty (the library keeps no
 * cache; the CLI does).  A store given in the options is used, and a world given the plan runs
 * as one that computed its field itself. */
START_TEST(world_creation_and_default_planning_write_no_file)
{
	char dir[] = "/tmp/swerve-plan-nocacheXXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	ck_assert_int_eq(setenv("XDG_CACHE_HOME", dir, 1), 0);
	ck_assert_int_eq(setenv("HOME", dir, 1), 0);
	sw_model *m = load(maps[0]);
	sw_diag d;
	sw_diag_init(&d);
	sw_plan *plan = NULL;
	ck_assert_int_eq(sw_plan_fields(m, NULL, &plan, &d), SW_SUCCESS);
	ck_assert_ptr_nonnull(sw_plan_grid(plan, 0));
	ck_assert_ptr_eq(sw_plan_model(plan), m);
	sw_world_def def = sw_default_world_def(m);
	def.duration = 5.0;
	sw_world *w[2] = {NULL, NULL};
	ck_assert_int_eq(sw_world_create(m, &def, &w[0], &d), SW_SUCCESS);
	def.plan = plan;
	ck_assert_int_eq(sw_world_create(m, &def, &w[1], &d), SW_SUCCESS);
	for (int k = 0; k < 2; k++)
		ck_assert_int_eq(sw_world_run(w[k], NULL, NULL, &d), SW_SUCCESS);
	for (int i = 0; i < m->n_agents; i++) {
		sw_agent_state a, b;
		sw_world_agent(w[0], i, &a);
		sw_world_agent(w[1], i, &b);
		ck_assert(memcmp(a.y, b.y, sizeof a.y) == 0);
	}
	sw_world_destroy(w[0]);
	sw_world_destroy(w[1]);
	ck_assert_int_eq(files_under(dir), 0);
	/* A plan of another model is refused. */
	sw_model *other = load(maps[1]);
	ck_assert_int_eq(sw_world_create(other, &def, &w[0], &d), SW_EUSAGE);
	ck_assert_ptr_null(w[0]);
	sw_model_free(other);
	sw_plan_free(plan);
	/* The store the application gives is used (here the CLI's files). */
	char cache[sizeof dir + 8];
	snprintf(cache, sizeof cache, "%s/c", dir);
	sw_field_store store = cli_field_cache(cache);
	sw_plan_options o = sw_default_plan_options();
	o.store = &store;
	ck_assert_int_eq(mkdir(cache, 0700), 0);
	ck_assert_int_eq(sw_plan_fields(m, &o, &plan, &d), SW_SUCCESS);
	ck_assert_int_eq(files_under(dir), 1);
	sw_plan_free(plan);
	sw_model_free(m);
	if (home)
		setenv("HOME", home, 1);
	free(home);
	unsetenv("XDG_CACHE_HOME");
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

Suite *plan_suite(void)
{
	Suite *s = suite_create("plan");
	TCase *tc = tcase_create("plan");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, square_matches_the_separable_solution_with_second_order);
	tcase_add_test(tc, strip_keeps_relative_precision_where_phi_is_exponentially_small);
	tcase_add_test(tc, solver_refuses_a_free_border);
	tcase_add_loop_test(tc, example_maps_have_no_interior_local_maximum, 0, 3);
	tcase_add_loop_test(tc, seek_escape_reaches_the_goal_on_every_map, 0, 3);
	tcase_add_test(tc, cache_hits_misses_and_replaces_a_corrupt_entry);
	tcase_add_test(tc, vector_field_files_load_and_report_errors_at_their_line);
	tcase_add_test(tc, scenario_field_errors_cite_their_line);
	tcase_add_test(tc, export_refuses_a_law_that_steers_by_a_field);
	tcase_add_test(tc, a_field_to_another_target_is_a_warning);
	tcase_add_test(tc, a_vector_field_gives_the_goal_direction);
	tcase_add_test(tc, avoided_corners_keep_the_lookahead_in_sight);
	tcase_add_test(tc, distance_field_matches_the_euclidean_distance);
	tcase_add_test(tc, an_area_field_covers_its_rectangle);
	tcase_add_test(tc, world_creation_and_default_planning_write_no_file);
	suite_add_tcase(s, tc);
	return s;
}
