/* tests/test_laws.c - the laws' descriptor table (steer/params.c sw__laws), which the code outside
 * src/steer reads instead of switching on the law:
 *   - every law has its row, at its index, with an element, a title and a parameter table, and
 *     names no other law's;
 *   - the parameters the row points at (speed cap, heading noise, alignment gain) are rows of
 *     the law's own parameter table;
 *   - the flags agree with each other and with what the laws' code does: the crowd laws are
 *     those sw__crowd_sense takes, the exported ones those sw_steer_emit emits, the ones that
 *     read velocities those whose flow changes with another agent's velocity, the algebraic
 *     velocities those whose sensing rewrites the heading, the mass lag the one whose sensing
 *     leaves the speed to a mass trait, and the laws without field= those the reader gives
 *     none. */
#include <math.h>
#include <string.h>

#include "emit_util.h"
#include "io/io_internal.h"
#include "steer/steer_internal.h"
#include "tests.h"

/* The row of law l, failing the test where it is missing. */
static const sw__law_table *row(int l)
{
	const sw__law_table *t = sw__law_table_of((sw_law)l);
	ck_assert_msg(t != NULL, "law %d: no row", l);
	ck_assert_msg(t->element != NULL && t->title != NULL && t->p != NULL && t->n > 0,
		      "law %d: its row in sw__laws (steer/params.c) is missing or incomplete", l);
	return t;
}

/* The default steer definition of law l. */
static sw_steer_def def_of(int l)
{
	sw_steer_def d = sw_default_steer_def();
	d.law = (sw_law)l;
	return d;
}

START_TEST(every_law_has_a_complete_row)
{
	const sw_steer_def d0 = sw_default_steer_def();
	for (int l = 0; l < SW__N_LAWS; l++) {
		const sw__law_table *t = row(l);
		ck_assert_int_eq(t->law, l);
		ck_assert_str_eq(sw_law_name((sw_law)l), t->element);
		ck_assert_ptr_eq(sw__law_table_named(t->element), t);
		ck_assert_msg(t->size > 0 && t->def_off > 0 && t->def_off + t->size <= sizeof d0,
			      "<%s>: its parameter struct is not inside sw_steer_def", t->element);
		for (int k = 0; k < t->n; k++) {
			size_t w = t->p[k].type == SW__P_NUM || t->p[k].type == SW__P_ANGLE
				       ? sizeof(double)
				       : sizeof(int);
			ck_assert_msg(t->p[k].name && t->p[k].off + w <= t->size,
				      "<%s> row %d: outside the parameter struct", t->element, k);
			for (int j = 0; j < k; j++)
				ck_assert_msg(strcmp(t->p[j].name, t->p[k].name) != 0,
					      "<%s> %s: twice", t->element, t->p[k].name);
		}
		for (int m = 0; m < l; m++) {
			ck_assert_msg(strcmp(row(m)->element, t->element) != 0, "<%s>: two laws",
				      t->element);
			ck_assert_msg(strcmp(row(m)->title, t->title) != 0, "'%s': two laws",
				      t->title);
			ck_assert_msg(row(m)->def_off != t->def_off, "<%s> and <%s>: one struct",
				      row(m)->element, t->element);
		}
	}
	ck_assert_ptr_null(sw__law_table_of((sw_law)SW__N_LAWS));
	ck_assert_ptr_null(sw__law_table_of((sw_law)-1));
	ck_assert_uint_eq(sw__law_flags((sw_law)SW__N_LAWS), 0u);
}
END_TEST

/* Whether off (an offset in sw_steer_def) is a double parameter of t's own table. */
static int own_number(const sw__law_table *t, size_t off)
{
	for (int k = 0; k < t->n; k++)
		if (t->def_off + t->p[k].off == off)
			return t->p[k].type == SW__P_NUM || t->p[k].type == SW__P_ANGLE;
	return 0;
}

START_TEST(named_parameters_are_the_laws_own)
{
	for (int l = 0; l < SW__N_LAWS; l++) {
		const sw__law_table *t = row(l);
		ck_assert_msg(t->speed_off && own_number(t, t->speed_off),
			      "<%s>: the speed is not a number of its table", t->element);
		ck_assert_msg(!t->noise_off || own_number(t, t->noise_off),
			      "<%s>: the noise is not a number of its table", t->element);
		ck_assert_msg(!t->align_off || own_number(t, t->align_off),
			      "<%s>: the alignment gain is not a number of its table", t->element);
		sw_steer_def d = def_of(l);
		double s = sw__law_at(&d, t->speed_off);
		ck_assert_double_eq(sw__law_speed_bound(&d, 0.0),
				    t->flags & SW__LAW_SPEED_CAPPED ? s : 2.0 * s);
		ck_assert_double_eq(sw__law_noise(&d), t->noise_off ? sw__law_at(&d, t->noise_off) : 0.0);
	}
	/* what the simulator reads today: GLM's noise and alignment */
	sw_steer_def g = def_of(SW_LAW_GLM);
	g.glm.sigma_phi = 0.25;
	g.glm.alignment = 0.0;
	ck_assert_double_eq(sw__law_noise(&g), 0.25);
	ck_assert_int_eq(sw__law_reads_headings(&g), 0);
	g.glm.alignment = 0.5;
	ck_assert_int_eq(sw__law_reads_headings(&g), 1);
}
END_TEST

START_TEST(flags_agree_with_each_other)
{
	for (int l = 0; l < SW__N_LAWS; l++) {
		const sw__law_table *t = row(l);
		unsigned f = t->flags;
		if (f & SW__LAW_EXPORT_BOUNDED)
			ck_assert_msg(f & SW__LAW_EMIT, "<%s>: bounded export without emitter",
				      t->element);
		if (f & SW__LAW_EXPORT_BEARINGS)
			ck_assert_msg((f & SW__LAW_EXPORT_BOUNDED) && (f & SW__LAW_SPEED_CAPPED),
				      "<%s>: bearings need a bounded export and a speed cap",
				      t->element);
		if (f & SW__LAW_MASS_LAG)
			ck_assert_msg(!(f & SW__LAW_ALGEBRAIC_VELOCITY),
				      "<%s>: a lagged speed is not algebraic", t->element);
	}
}
END_TEST

/* A scene: the agent (radius 0.25 m) at the origin heading 0.3 rad, a target at (10, 0), another
 * agent 2 m ahead (percept id -1), a third touching it behind (id -2, 0.05 m overlap: contact
 * forces) and a wall 1.5 m to the left; v: the velocities of the other two (vx, vy each). */
static sw_situation scene(sw_percept p[3], const double v[4])
{
	p[0] = (sw_percept){2.0, 0.0, 2.0, 0.25, 1.5, -1, 0.0, 0.0};
	p[1] = (sw_percept){-0.45, 0.0, 0.45, 0.25, -0.05, -2, 0.0, 0.0};
	p[2] = (sw_percept){0.0, 1.5, 1.5, 0.0, 1.25, 0, 0.0, 0.0};
	return (sw_situation){0.0, 0.0, 0.25, 1, 10.0, 0.0, 3, p, v, 0};
}

START_TEST(flags_agree_with_the_laws_code)
{
	for (int l = 0; l < SW__N_LAWS; l++) {
		const sw__law_table *t = row(l);
		const sw_steer_def d = def_of(l);
		sw_percept p[3];
		const double still[4] = {0.0, 0.0, 0.0, 0.0}, coming[4] = {-1.0, 0.2, 0.3, 0.4};
		sw_situation s = scene(p, still), s2 = scene(p, coming);
		const double y0[SW_STATE_DIM] = {0.0, 0.0, 0.3, 0.0, 0.7, 1.0, 1.0};

		/* crowd laws: the ones sw__crowd_sense senses */
		double y[SW_STATE_DIM], flow[4];
		memcpy(y, y0, sizeof y);
		int st = sw__crowd_sense(&d, &s, s.n_obs, NULL, y, flow);
		ck_assert_msg(!(t->flags & SW__LAW_CROWD) == (st == SW_EUSAGE),
			      "<%s>: SW__LAW_CROWD disagrees with sw__crowd_sense (%d)", t->element,
			      st);

		/* reads velocities: the flow changes with the other agent's velocity */
		double a[SW_STATE_DIM], b[SW_STATE_DIM];
		ck_assert_int_eq(sw_steer_rhs(&d, NULL, &s, y0, a, NULL), SW_SUCCESS);
		ck_assert_int_eq(sw_steer_rhs(&d, NULL, &s2, y0, b, NULL), SW_SUCCESS);
		int reads = memcmp(a, b, sizeof a) != 0;
		ck_assert_msg(!(t->flags & SW__LAW_READS_VELOCITIES) == !reads,
			      "<%s>: SW__LAW_READS_VELOCITIES disagrees with sw_steer_rhs",
			      t->element);

		/* algebraic velocity: sensing rewrites the heading */
		memcpy(y, y0, sizeof y);
		sw_steer_algebraic(&d, NULL, &s, y);
		ck_assert_msg(!(t->flags & SW__LAW_ALGEBRAIC_VELOCITY) == (y[SW_STATE_PHI] == 0.3),
			      "<%s>: SW__LAW_ALGEBRAIC_VELOCITY disagrees with sw_steer_algebraic",
			      t->element);

		/* mass lag: a mass trait leaves the speed to the state */
		sw_personality light = {0}, heavy = {0};
		heavy.has_mass = 1;
		double yl[SW_STATE_DIM], yh[SW_STATE_DIM];
		memcpy(yl, y0, sizeof yl);
		memcpy(yh, y0, sizeof yh);
		sw_steer_algebraic(&d, &light, &s, yl);
		sw_steer_algebraic(&d, &heavy, &s, yh);
		ck_assert_msg(!(t->flags & SW__LAW_MASS_LAG) == (yl[SW_STATE_V] == yh[SW_STATE_V]),
			      "<%s>: SW__LAW_MASS_LAG disagrees with sw_steer_algebraic", t->element);

		/* exported: the emitter gives its flows */
		et_scene sc;
		et_scene_init(&sc);
		sc.ctx.has_target = 1;
		sc.ctx.tx = 10.0;
		et_add_disc(&sc, 2.0, 1.0, 0.3, 0.0, 0.0);
		sw_expr_ast *out[SW_STATE_DIM];
		st = sw_steer_emit(&d, NULL, &sc.ctx, out);
		for (int k = 0; st == SW_SUCCESS && k < SW_STATE_DIM; k++)
			sw_expr_ast_free(out[k]);
		ck_assert_msg(!(t->flags & SW__LAW_EMIT) == (st != SW_SUCCESS),
			      "<%s>: SW__LAW_EMIT disagrees with sw_steer_emit (%d)", t->element,
			      st);

		/* field=: the reader's attributes have it unless the law takes none */
		int field = 0;
		for (const sw__attr_spec *a2 = sw__law_attrs(t->element); a2 && a2->name; a2++)
			field |= strcmp(a2->name, "field") == 0;
		ck_assert_msg(!(t->flags & SW__LAW_NO_FIELD) == !!field,
			      "<%s>: SW__LAW_NO_FIELD disagrees with the reader", t->element);
	}
}
END_TEST

Suite *laws_suite(void)
{
	Suite *s = suite_create("laws");
	TCase *tc = tcase_create("table");
	tcase_add_test(tc, every_law_has_a_complete_row);
	tcase_add_test(tc, named_parameters_are_the_laws_own);
	tcase_add_test(tc, flags_agree_with_each_other);
	tcase_add_test(tc, flags_agree_with_the_laws_code);
	suite_add_tcase(s, tc);
	return s;
}
