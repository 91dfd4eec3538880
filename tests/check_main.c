/* tests/check_main.c - runs every Check suite; exit status 0 only when all tests pass. */
#include <stdlib.h>

#include "tests.h"

int main(void)
{
	SRunner *sr = srunner_create(core_suite());
	srunner_add_suite(sr, geom_suite());
	srunner_add_suite(sr, expr_suite());
	srunner_add_suite(sr, expr_host_suite());
	srunner_add_suite(sr, steer_suite());
	srunner_add_suite(sr, steer_fw_pf_suite());
	srunner_add_suite(sr, steer_simd_suite());
	srunner_add_suite(sr, competition_suite());
	srunner_add_suite(sr, model_suite());
	srunner_add_suite(sr, sim_suite());
	srunner_add_suite(sr, hybrid_suite());
	srunner_add_suite(sr, io_suite());
	srunner_add_suite(sr, io_automata_suite());
	srunner_add_suite(sr, scenarios_suite());
	srunner_add_suite(sr, render_suite());
	srunner_add_suite(sr, emit_suite());
	srunner_add_suite(sr, emit_crowd_suite());
	srunner_add_suite(sr, export_suite());
	srunner_add_suite(sr, export_flows_suite());
	srunner_add_suite(sr, export_glm_suite());
	srunner_add_suite(sr, export_parts_suite());
	srunner_add_suite(sr, interval_suite());
	srunner_add_suite(sr, analyze_suite());
	srunner_add_suite(sr, plot_suite());
	srunner_add_suite(sr, crowd_suite());
	srunner_add_suite(sr, crowd_index_suite());
	srunner_add_suite(sr, sensing_suite());
	srunner_add_suite(sr, steersuite_suite());
	srunner_add_suite(sr, steersuite_run_suite());
	srunner_add_suite(sr, steersuite_emit_suite());
	srunner_add_suite(sr, steersuite_crowds_suite());
	srunner_add_suite(sr, progress_suite());
	srunner_add_suite(sr, ensemble_suite());
	srunner_add_suite(sr, plan_suite());
	srunner_add_suite(sr, route_suite());
	srunner_add_suite(sr, hostile_suite());
	srunner_add_suite(sr, space3_suite());
	srunner_add_suite(sr, faults_suite());
	srunner_add_suite(sr, atomic_suite());
	srunner_add_suite(sr, locate_suite());
	srunner_add_suite(sr, events_suite());
	srunner_add_suite(sr, bounds_suite());
	srunner_add_suite(sr, ttc_suite());
	srunner_add_suite(sr, sf_suite());
	srunner_add_suite(sr, csm_suite());
	srunner_add_suite(sr, worlddef_suite());
	srunner_add_suite(sr, pedestrian_suite());
	srunner_add_suite(sr, params_suite());
	srunner_add_suite(sr, laws_suite());
	srunner_add_suite(sr, worker_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
