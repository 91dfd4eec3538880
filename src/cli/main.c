/* cli/main.c - the swerve command-line tool: subcommand dispatch and shared helpers. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

void cli_print_diag(const sw_diag *diag)
{
	char buf[SW_DIAG_FILE + SW_DIAG_MSG + 64];
	for (int i = 0; i < diag->count; i++) {
		sw_diag_format(diag, i, buf, sizeof buf);
		fprintf(stderr, "%s\n", buf);
	}
	if (diag->dropped)
		fprintf(stderr, "(%d more diagnostics not shown)\n", diag->dropped);
}

int cli_exit_code(int status)
{
	if (status == SW_SUCCESS)
		return EXIT_OK;
	if (status == SW_EINPUT || status == SW_EUSAGE)
		return EXIT_BAD_INPUT;
	return EXIT_RUNTIME;
}

int cli_load_exit_code(int status)
{
	return status == SW_EIO ? EXIT_BAD_INPUT : cli_exit_code(status);
}

static void usage(FILE *f)
{
	fputs("usage: swerve COMMAND [OPTIONS] [ARGS]\n"
	      "\n"
	      "Hybrid-automaton steering agents: simulate scenarios of attractor/repeller\n"
	      "heading dynamics.\n"
	      "\n"
	      "commands:\n"
	      "  run SCENARIO [-o DIR]   simulate a scenario; write trajectory.csv,\n"
	      "                          events.jsonl and summary.json\n"
	      "  check FILE...           validate scenario and automaton files; report every error\n"
	      "  graph FILE              mode graph of an automaton or scenario as Graphviz DOT\n"
	      "  render SCENARIO         run a scenario and draw it as SVG\n"
	      "  export SCENARIO         hybrid automaton for verifiers (SpaceEx XML + cfg, DOT, JSON)\n"
	      "  analyze SCENARIO        GLM weight competition of one agent at a time (fixed points,\n"
	      "                          stability)\n"
	      "  plot SCENARIO           heading dynamics of a GLM agent at a time, as SVG\n"
	      "  version                 print the version\n"
	      "  help [COMMAND]          this text, or a command's help\n"
	      "\n"
	      "`swerve COMMAND --help` describes a command.  Exit status: 0 success,\n"
	      "1 simulation failure, 2 bad usage or bad input.\n",
	      f);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "run") == 0)
		return cmd_run(argc - 1, argv + 1);
	if (strcmp(cmd, "check") == 0)
		return cmd_check(argc - 1, argv + 1);
	if (strcmp(cmd, "graph") == 0)
		return cmd_graph(argc - 1, argv + 1);
	if (strcmp(cmd, "render") == 0)
		return cmd_render(argc - 1, argv + 1);
	if (strcmp(cmd, "export") == 0)
		return cmd_export(argc - 1, argv + 1);
	if (strcmp(cmd, "analyze") == 0)
		return cmd_analyze(argc - 1, argv + 1);
	if (strcmp(cmd, "plot") == 0)
		return cmd_plot(argc - 1, argv + 1);
	if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
		printf("swerve %s\n", SWERVE_VERSION);
		return EXIT_OK;
	}
	if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
		if (argc > 2) {
			char *hargv[] = {argv[2], "--help", NULL};
			if (strcmp(argv[2], "run") == 0)
				return cmd_run(2, hargv);
			if (strcmp(argv[2], "check") == 0)
				return cmd_check(2, hargv);
			if (strcmp(argv[2], "graph") == 0)
				return cmd_graph(2, hargv);
			if (strcmp(argv[2], "render") == 0)
				return cmd_render(2, hargv);
			if (strcmp(argv[2], "export") == 0)
				return cmd_export(2, hargv);
			if (strcmp(argv[2], "analyze") == 0)
				return cmd_analyze(2, hargv);
			if (strcmp(argv[2], "plot") == 0)
				return cmd_plot(2, hargv);
		}
		usage(stdout);
		return EXIT_OK;
	}
	fprintf(stderr, "swerve: unknown command '%s'; expected run, check, graph, render, export, analyze, plot, version or help\n",
		cmd);
	return EXIT_BAD_INPUT;
}
