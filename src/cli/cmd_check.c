/* cli/cmd_check.c - `swerve check`: validate files and report every problem. */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"

static void check_usage(FILE *f)
{
	fputs("usage: swerve check FILE...\n"
	      "\n"
	      "Validates scenario and automaton files against their schemas and the model rules, and reports every\n"
	      "error found (file:line: message).  Exit status 0 when all files are valid, 2 when\n"
	      "any is not.\n"
	      "\n"
	      "options:\n"
	      "  -q, --quiet   print only errors\n"
	      "  -v, --verbose also notes\n"
	      "  -V, --version the version\n"
	      "  -h, --help    this text\n"
	      "\n"
	      "Everything, the \"ok\" line of each valid file included, goes to standard error.\n",
	      f);
}

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {CLI_LONG};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":" CLI_SHORT, opts, NULL)) != -1) {
		int code = cli_option(c, argv, opts, check_usage);
		if (code >= 0)
			return code;
	}
	if (optind >= argc)
		return cli_usage_error("expected at least one file");
	int worst = EXIT_OK;
	static sw_diag diag;
	for (int k = optind; k < argc; k++) {
		cli_diag_init(&diag);
		sw_model *m = NULL;
		sw_automaton *a = NULL;
		int kind = SW_XML_UNKNOWN;
		int st = sw_xml_root_kind(argv[k], &kind, &diag);
		sw_steersuite_def ss = sw_default_steersuite_def();
		if (st == SW_SUCCESS && kind == SW_XML_STEERSUITE)
			st = sw_steersuite_load(argv[k], &ss, &m, &diag);
		else if (st == SW_SUCCESS)
			st = kind == SW_XML_AUTOMATON ? sw_automaton_load(argv[k], &a, &diag)
						      : sw_scenario_load(argv[k], &m, &diag);
		if (st == SW_SUCCESS && m) /* the bounds `run` applies before it starts */
			st = sw_run_steps(m, NULL, &diag);
		cli_print_diag(&diag);
		if (st == SW_SUCCESS && cli_verbosity >= 0 && m)
			fprintf(stderr, "%s: ok (scenario: %d agents, %d obstacles, %d targets, %d automata)\n",
			       argv[k], m->n_agents, m->n_obstacles, m->n_targets, m->n_automata);
		if (st == SW_SUCCESS && cli_verbosity >= 0 && a)
			fprintf(stderr, "%s: ok (%s automaton '%s': %d modes, %d transitions)\n", argv[k],
			       sw_automaton_is_signal(a) ? "signal" : "behaviour", sw_automaton_name(a),
			       sw_automaton_n_modes(a), sw_automaton_n_transitions(a));
		sw_automaton_free(a);
		if (st != SW_SUCCESS && cli_load_exit_code(st) > worst)
			worst = cli_load_exit_code(st);
		sw_model_free(m);
	}
	return worst;
}
