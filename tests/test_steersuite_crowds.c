/* tests/test_steersuite_crowds.c - crowds of imported SteerSuite cases get where they go.
 *
 * tests/data/steersuite/four-way-block.xml (written for these tests): four streams of 20
 * pedestrians of radius 0.5 m cross a crossing of 20 m wide halls round a 12 m block, each
 * stream to the far end of the hall opposite.  Where the streams meet at the block's corners
 * they stall against each other; a walker that stalls while passing steps aside to the right
 * (docs/steersuite.md, "Agents walk as pedestrians"), so the streams circulate one way round
 * the block.  Every agent is done by 200 s (107 s measured); without that transition (stuck
 * passers go back to plain walking) 67 are done at 200 s, the last one at 291 s. */
#include <stdlib.h>

#include "swerve/swerve.h"
#include "tests.h"

START_TEST(four_streams_round_a_block_all_arrive)
{
	sw_steersuite_def def = sw_default_steersuite_def();
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_steersuite_load(SW_TEST_DATA "/steersuite/four-way-block.xml", &def,
					    &m, &d),
			 SW_SUCCESS);
	ck_assert_int_eq(m->n_agents, 80);
	sw_world_def wd = sw_default_world_def(m);
	wd.duration = 200.0;
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, &wd, &w, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, &d), SW_SUCCESS);
	ck_assert_msg(sw_world_done(w), "%d of 80 done at %.1f s", sw_world_agents_done(w),
		      sw_world_time(w));
	for (int i = 0; i < m->n_agents; i++)
		ck_assert(sw_world_metrics(w, i)->reached);
	sw_world_destroy(w);
	sw_model_free(m);
}
END_TEST

Suite *steersuite_crowds_suite(void)
{
	Suite *s = suite_create("steersuite_crowds");
	TCase *tc = tcase_create("steersuite_crowds");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, four_streams_round_a_block_all_arrive);
	suite_add_tcase(s, tc);
	return s;
}
