/* cli/cmd_graph.c - `swerve graph`: the mode graph of automata as Graphviz DOT. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void graph_usage(FILE *f)
{
	fputs("usage: swerve graph FILE [-o OUT.dot]\n"
	      "\n"
	      "Prints the mode graph of an automaton file, or of every automaton a scenario uses,\n"
	      "as Graphviz DOT: one node per mode with its steering law, target and non-default\n"
	      "parameters, flows and invariant (initial mode: double border; arrival: green); one\n"
	      "edge per transition with its label, priority, guard (wrapped; whole in the tooltip)\n"
	      "and resets.  In a scenario, dashed edges run from a signal's mode to the modes whose\n"
	      "guards read it with in().  Render with `dot -Tsvg` or `dot -Tpng`.\n"
	      "\n"
	      "options:\n"
	      "  -o, --output FILE   write to FILE instead of standard output\n"
	      "  -q, -v, -V, -h      quiet, verbose, version, this text\n",
	      f);
}

int cmd_graph(int argc, char **argv)
{
	static const struct option opts[] = {{"output", required_argument, NULL, 'o'}, CLI_LONG};
	const char *outpath = NULL;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:" CLI_SHORT, opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (cli_output_option("-o", optarg))
				return EXIT_BAD_INPUT;
			outpath = optarg;
			break;
		default: {
			int code = cli_option(c, argv, opts, graph_usage);
			if (code >= 0)
				return code;
		}
		}
	}
	if (optind != argc - 1)
		return cli_usage_error("expected exactly one file");
	const char *path = argv[optind];
	static sw_diag diag;
	cli_diag_init(&diag);
	int kind = 0;
	int st = sw_xml_root_kind(path, &kind, &diag);
	sw_model *m = NULL;
	sw_automaton *a = NULL;
	if (st == SW_SUCCESS)
		st = kind == SW_XML_AUTOMATON ? sw_automaton_load(path, &a, &diag)
					      : sw_scenario_load(path, &m, &diag);
	if (st != SW_SUCCESS) {
		cli_print_diag(&diag);
		return cli_load_exit_code(st);
	}
	/* -o FILE: written atomically (sw_atomic_open), so a failure leaves FILE as it was; never
	 * over an input file. */
	if (outpath && cli_refuse_input("graph", outpath, m)) {
		sw_automaton_free(a);
		sw_model_free(m);
		return EXIT_BAD_INPUT;
	}
	char tmp[4200];
	FILE *f = outpath ? sw_atomic_open(outpath, tmp, sizeof tmp, NULL) : stdout;
	if (!f) {
		fprintf(stderr, "swerve graph: cannot write %s: %s\n", outpath, strerror(errno));
		sw_automaton_free(a);
		sw_model_free(m);
		return EXIT_RUNTIME;
	}
	if (a)
		graph_write_automaton(f, a);
	else
		graph_write_model(f, m);
	int bad = 0; /* the standard output: main checks it */
	if (outpath) {
		bad = sw_atomic_commit(f, tmp, outpath, NULL) != SW_SUCCESS;
		if (bad)
			fprintf(stderr, "swerve graph: cannot write %s: %s\n", outpath,
				strerror(errno));
	}
	sw_automaton_free(a);
	sw_model_free(m);
	return bad ? EXIT_RUNTIME : EXIT_OK;
}
