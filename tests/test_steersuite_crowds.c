/* tests/test_steersuite_crowds.c - crowds of imported SteerSuite cases get where they go.
 *
 * tests/data/steersuite/four-way-block.xml (written for these tests): four streams of 20
 * pedestrians of radius 0.5 m cross a crossing of 20 m wide halls round a 12 m block, each
 * stream to the far end of the hall opposite.  Where the streams meet at the block's corners
 * they stall against each other; a walker that stalls while passing steps aside to the right
 * (docs/steersuite.md, "Agents walk as pedestrians"), so the streams circulate one way round
 * the block.  Every agent is done by 200 s (85.2 s measured with the default import, 3 walkers
 * squeezing past; 85.6 s with --no-squeeze); without that transition (stuck passers go back to
 * plain walking; measured before squeezing) 67 are done at 200 s, the last one at 291 s.
 *
 * tests/data/steersuite/door-crowd.xml (written for these tests): 40 walkers of radius 0.5 m
 * leave a room through a door 1.4 m wide.  Pressed together at the door they switch to the
 * queue (the collision-free speed model with a time gap of 0.5 s) and file through it: all are
 * done by 124.0 s with the default import (4 squeezes; 116.1 s with --no-squeeze; bound:
 * 200 s).  Without the queue (the time-to-collision law and its passing
 * twin only, as before) they stand in an arch round the door: 4 of 40 done at 300 s.
 *
 * NARROW_WALLS (written here): two walkers of radius 0.5 m face to face in a corridor 1.2 m
 * wide and 12 m long, each bound for the far end.  Imported with squeezing (the default,
 * sw_steersuite_def.squeeze) each stalls, turns aside once (in there the detour cannot free
 * it), stalls again with the other within 1.5 m and squeezes past (a ghost mode for up to 3 s): both
 * are done, the overlap counted.  Without it they stall and turn aside in turn until the end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swerve/swerve.h"
#include "tests.h"

/* Runs test case `file` (under tests/data/steersuite) for at most `duration` s and checks that
 * all of its n agents are done. */
static void all_done_within(const char *file, int n, double duration)
{
	char path[512];
	snprintf(path, sizeof path, "%s/steersuite/%s", SW_TEST_DATA, file);
	sw_steersuite_def def = sw_default_steersuite_def();
	sw_model *m = NULL;
	sw_diag d;
	sw_diag_init(&d);
	ck_assert_int_eq(sw_steersuite_load(path, &def, &m, &d), SW_SUCCESS);
	ck_assert_int_eq(m->n_agents, n);
	sw_world_def wd = sw_default_world_def(m);
	wd.duration = duration;
	sw_world *w = NULL;
	ck_assert_int_eq(sw_world_create(m, &wd, &w, &d), SW_SUCCESS);
	ck_assert_int_eq(sw_world_run(w, NULL, NULL, &d), SW_SUCCESS);
	int done = sw_world_done(w), reached = 0, n_done = sw_world_agents_done(w);
	double t = sw_world_time(w);
	for (int i = 0; i < m->n_agents; i++)
		reached += sw_world_metrics(w, i)->reached;
	sw_world_destroy(w);
	sw_model_free(m);
	ck_assert_msg(done, "%s: %d of %d done at %.1f s", file, n_done, n, t);
	ck_assert_int_eq(reached, n);
}

START_TEST(four_streams_round_a_block_all_arrive)
{
	all_done_within("four-way-block.xml", 80, 200.0);
}
END_TEST

/* The generated queue is automata/pedestrian.xml's at its defaults (settle 0.5, ahead 5,
 * queue_near 1.5, queue_count 2, hold 3, final 1.5, wall_far 0.5), transcribed here from that
 * file: its law, and the guards of dense, oncoming and open; crowded asks for someone coming
 * and nothing else. */
START_TEST(the_queue_is_pedestrian_xmls)
{
	char one[1024];
	const char *goal = "<seekStaticTarget><targetLocation><x>10</x><y>0</y><z>0</z>"
			   "</targetLocation><desiredSpeed>1.3</desiredSpeed>"
			   "<timeDuration>50</timeDuration></seekStaticTarget>";
	sw_model *m = NULL;
	char *xml = NULL;
	test_ss_import_ok(test_ss_agent(one, sizeof one, "a", 0, 0, 1, 0, 0.5, 0, goal), 1, &m,
			  &xml);
	static const char *const want[] = {
	    "<mode name=\"goal0_queue\">",
	    "<csm target=\"g0\" v0=\"1.3\" time-gap=\"0.5\" t-arrive=\"1\" field=\"auto\"/>",
	    "<transition to=\"goal0_queue\" guard=\"time_in_mode ge 0.5 and neighbors(1.5) ge 2 "
	    "and oncoming(g0, 5) eq 0\" label=\"dense0\"/>",
	    "<transition to=\"goal0_pass\" guard=\"time_in_mode ge 0.5 and oncoming(g0, 5) ge 1 "
	    "and dist(g0) gt 1.5 and clearance() ge 0.5\" label=\"oncoming0\"/>",
	    "<transition to=\"goal0\" guard=\"time_in_mode ge 3 and neighbors(1.5) lt 2\" "
	    "label=\"open0\"/>",
	    "<transition to=\"goal0_pass\" guard=\"time_in_mode ge 0.5 and dist(g0) gt 1.5 and "
	    "clearance() ge 0.5 and oncoming(g0, 5) ge 1\" label=\"crowded0\"/>"};
	int missing = -1;
	for (int k = 0; k < (int)(sizeof want / sizeof *want) && missing < 0; k++)
		if (!strstr(xml, want[k]))
			missing = k;
	char head[512];
	snprintf(head, sizeof head, "%s", missing >= 0 ? want[missing] : "");
	free(xml);
	sw_model_free(m);
	ck_assert_msg(missing < 0, "not in the generated automaton: %s", head);
}
END_TEST

START_TEST(a_crowd_files_through_a_door)
{
	all_done_within("door-crowd.xml", 40, 200.0);
}
END_TEST

static const char *const NARROW_WALLS =
    "<obstacle><xmin>-6</xmin><xmax>6</xmax><ymin>0</ymin><ymax>1</ymax><zmin>0.6</zmin>"
    "<zmax>20</zmax></obstacle>\n"
    "<obstacle><xmin>-6</xmin><xmax>6</xmax><ymin>0</ymin><ymax>1</ymax><zmin>-20</zmin>"
    "<zmax>-0.6</zmax></obstacle>\n";

/* The labels of agent 0's first jumps. */
typedef struct {
	int n;
	char label[8][32];
} first_jumps;

static void on_jump(const sw_world *w, int agent_i, double t, int from, int to, const char *label,
		    const char *guard, void *ctx)
{
	(void)w, (void)t, (void)from, (void)to, (void)guard;
	first_jumps *j = ctx;
	if (agent_i == 0 && j->n < 8)
		snprintf(j->label[j->n++], sizeof j->label[0], "%s", label ? label : "");
}

START_TEST(squeeze_only_after_a_detour_that_did_not_free_the_walker)
{
	const char *goal = "<seekStaticTarget><targetLocation><x>%d</x><y>0</y><z>0</z>"
			   "</targetLocation><desiredSpeed>1.3</desiredSpeed>"
			   "<timeDuration>60</timeDuration></seekStaticTarget>";
	char ge[256], gw[256], a[1024], b[1024], body[4096];
	snprintf(ge, sizeof ge, goal, 9);
	snprintf(gw, sizeof gw, goal, -9);
	snprintf(body, sizeof body, "%s%s%s", NARROW_WALLS,
		 test_ss_agent(a, sizeof a, "a", -9, 0, 1, 0, 0.5, 0, ge),
		 test_ss_agent(b, sizeof b, "b", 9, 0, -1, 0, 0.5, 0, gw));
	for (int squeeze = 0; squeeze <= 1; squeeze++) {
		sw_steersuite_def def = sw_default_steersuite_def();
		def.squeeze = squeeze;
		sw_model *m = NULL;
		char *xml = NULL;
		sw_diag d;
		ck_assert_int_eq(test_ss_import(body, &def, &m, &xml, &d), SW_SUCCESS);
		/* the integer tests as src/io/steersuite_goals.c (goal_mode) writes them */
		ck_assert_int_eq(strstr(xml, "and neighbors(1.5) gt 0 and stalls gt 0\" "
					     "label=\"squeeze0\"") != NULL,
				 squeeze);
		ck_assert_int_eq(strstr(xml, "lt min(0.1, 0.5 * dist(g0)) and stalls gt 0\" "
					     "label=\"squeeze0\"") != NULL,
				 squeeze);
		free(xml);
		sw_world_def wd = sw_default_world_def(m);
		wd.duration = 40.0;
		sw_world *w = NULL;
		ck_assert_int_eq(sw_world_create(m, &wd, &w, &d), SW_SUCCESS);
		first_jumps j = {0};
		sw_world_set_event_fn(w, on_jump, &j);
		ck_assert_int_eq(sw_world_run(w, NULL, NULL, &d), SW_SUCCESS);
		int done = sw_world_agents_done(w);
		int overlaps = sw_world_metrics(w, 0)->agent_collisions;
		sw_world_destroy(w);
		sw_model_free(m);
		ck_assert_int_ge(j.n, 3);
		ck_assert_str_eq(j.label[0], "stalled0");
		ck_assert_str_eq(j.label[1], "unstall0");
		if (squeeze) {
			ck_assert_int_eq(j.n, 5);
			ck_assert_str_eq(j.label[2], "squeeze0");
			ck_assert_str_eq(j.label[3], "unsqueeze0");
			ck_assert_str_eq(j.label[4], "reached0");
			ck_assert_int_eq(done, 2);
			ck_assert_int_ge(overlaps, 1);
		} else {
			ck_assert_str_eq(j.label[2], "stalled0");
			ck_assert_int_eq(done, 0);
			ck_assert_int_eq(overlaps, 0);
		}
	}
}
END_TEST

Suite *steersuite_crowds_suite(void)
{
	Suite *s = suite_create("steersuite_crowds");
	TCase *tc = tcase_create("steersuite_crowds");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, four_streams_round_a_block_all_arrive);
	tcase_add_test(tc, a_crowd_files_through_a_door);
	tcase_add_test(tc, the_queue_is_pedestrian_xmls);
	tcase_add_test(tc, squeeze_only_after_a_detour_that_did_not_free_the_walker);
	suite_add_tcase(s, tc);
	return s;
}
