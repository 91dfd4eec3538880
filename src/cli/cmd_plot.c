/* cli/cmd_plot.c - `swerve plot`: run a scenario to time T and plot a GLM agent's heading
 * dynamics (f_tar, f_obs, phidot and the fixed points) as SVG. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "swerve/render.h"

static void plot_usage(FILE *f)
{
	fputs("usage: swerve plot SCENARIO --agent NAME --at T [-o OUT.svg]\n"
	      "\n"
	      "Simulates SCENARIO up to time T, then plots the heading dynamics of the GLM agent\n"
	      "NAME for the situation it perceives and its weights at that time: the target\n"
	      "attractor f_tar, the obstacle repeller f_obs and the heading rate\n"
	      "phidot = |w_tar| f_tar + |w_obs| f_obs over headings -180..180 degrees, with the\n"
	      "agent's heading and the fixed points of phidot (filled: stable, open: unstable).\n"
	      "\n"
	      "options:\n"
	      "  -n, --agent NAME     the agent to plot (required; must steer with glm at T)\n"
	      "  -a, --at T           time of the plot, s (required; >= 0)\n"
	      "  -o, --output FILE    plot path (default SCENARIO_AGENT_plot.svg)\n"
	      "  -s, --seed N         override the scenario seed\n"
	      "  -h, --help           this text\n",
	      f);
}

int cmd_plot(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"agent", required_argument, NULL, 'n'}, {"at", required_argument, NULL, 'a'},
	    {"output", required_argument, NULL, 'o'}, {"seed", required_argument, NULL, 's'},
	    {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0}};
	const char *agent = NULL, *outpath = NULL;
	double at = -1, seed = -1;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "n:a:o:s:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n': agent = optarg; break;
		case 'a':
			if (cli_number("plot", "--at", optarg, 0, &at))
				return EXIT_BAD_INPUT;
			break;
		case 'o': outpath = optarg; break;
		case 's':
			if (cli_number("plot", "--seed", optarg, 0, &seed))
				return EXIT_BAD_INPUT;
			break;
		case 'h': plot_usage(stdout); return EXIT_OK;
		default: plot_usage(stderr); return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "swerve plot: expected exactly one scenario file\n");
		return EXIT_BAD_INPUT;
	}
	if (!agent || at < 0) {
		fprintf(stderr, "swerve plot: --agent NAME and --at T are required\n");
		return EXIT_BAD_INPUT;
	}
	sw_model *m = NULL;
	sw_world *w = NULL;
	int idx = -1;
	int code = cli_world_at("plot", argv[optind], agent, at, seed, &m, &w, &idx);
	if (code != EXIT_OK)
		return code;
	char defpath[2 * SW_NAME_MAX + 16];
	if (!outpath) {
		snprintf(defpath, sizeof defpath, "%s_%s_plot.svg", m->name, agent);
		outpath = defpath;
	}
	static sw_diag diag;
	sw_diag_init(&diag);
	int st = sw_plot_heading_svg(w, idx, outpath, &diag);
	cli_print_diag(&diag);
	if (st == SW_SUCCESS)
		printf("swerve: heading plot of %s at t = %g s in %s\n", agent, sw_world_time(w),
		       outpath);
	sw_world_destroy(w);
	sw_model_free(m);
	/* SW_EUSAGE: the agent does not steer with GLM now (the diagnostic says so): bad input. */
	return st == SW_EUSAGE ? EXIT_BAD_INPUT : cli_exit_code(st);
}
