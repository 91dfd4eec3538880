/* cli/cmd_plot.c - `swerve plot`: run a scenario to time T and plot a GLM agent's heading
 * dynamics (f_tar, f_obs, phidot and the fixed points), or an agent's heading, speed and weights
 * over time (--series); SVG or PNG by the output's extension. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "swerve/render.h"

static void plot_usage(FILE *f)
{
	fputs("usage: swerve plot SCENARIO --agent NAME --at T [-o OUT.svg|OUT.png]\n"
	      "       swerve plot SCENARIO --agent NAME --series [--at T] [-o OUT.svg|OUT.png]\n"
	      "\n"
	      "Simulates SCENARIO up to time T, then plots the heading dynamics of the GLM agent\n"
	      "NAME for the situation it perceives and its weights at that time: the target\n"
	      "attractor f_tar, the obstacle repeller f_obs and the heading rate\n"
	      "phidot = |w_tar| f_tar + |w_obs| f_obs over headings -180..180 degrees, with the\n"
	      "agent's heading and the fixed points of phidot (filled: stable, open: unstable).\n"
	      "With --series it plots instead the agent's heading, speed and GLM weights |w_tar|,\n"
	      "|w_obs| against time from 0 to T (default: the whole run), with its transitions.\n"
	      "The format follows the output's extension: .svg or .png.\n"
	      "\n"
	      "options:\n"
	      "  -n, --agent NAME     the agent to plot (required; must steer with glm at T)\n"
	      "  -a, --at T           time of the plot, s (required without --series; >= 0)\n"
	      "  -S, --series         time series of heading, speed and weights (any law)\n"
	      "  -o, --output FILE    plot path (default SCENARIO_AGENT_plot.svg, or\n"
	      "                       SCENARIO_AGENT_series.svg with --series)\n"
	      "  -s, --seed N         override the scenario seed\n"
	      "  -h, --help           this text\n"
	      "\n"
	      "Progress is shown on stderr when it is a terminal.\n",
	      f);
}

/* --series: record the run up to T (at < 0: its duration) and plot the agent's time series. */
static int plot_series(const char *path, const char *agent, double at, double seed,
		       const char *outpath, sw_image_format fmt)
{
	static sw_diag diag;
	sw_diag_init(&diag);
	sw_model *m = NULL;
	int code = cli_load(path, seed, at, &m);
	if (code != EXIT_OK)
		return code;
	int ai = sw_model_find_agent(m, agent);
	if (ai < 0) {
		fprintf(stderr, "swerve plot: %s has no agent '%s'\n", path, agent);
		sw_model_free(m);
		return EXIT_BAD_INPUT;
	}
	char defpath[2 * SW_NAME_MAX + 16];
	if (!outpath) {
		char safe[SW_NAME_MAX], safe_agent[SW_NAME_MAX];
		cli_safe_name(m->name, safe, sizeof safe);
		cli_safe_name(agent, safe_agent, sizeof safe_agent);
		snprintf(defpath, sizeof defpath, "%s_%s_series.svg", safe, safe_agent);
		outpath = defpath;
	}
	sw_world *w = NULL;
	sw_trace *tr = NULL;
	int st = cli_record(m, isatty(STDERR_FILENO), &w, &tr, &diag);
	if (st == SW_SUCCESS)
		st = sw_plot_series(w, tr, ai, fmt, outpath, &diag);
	cli_print_diag(&diag);
	if (st == SW_SUCCESS)
		printf("swerve: time series of %s up to t = %g s in %s\n", agent, sw_world_time(w),
		       outpath);
	sw_world_destroy(w);
	sw_trace_free(tr);
	sw_model_free(m);
	return st == SW_EUSAGE ? EXIT_BAD_INPUT : cli_exit_code(st);
}

int cmd_plot(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"agent", required_argument, NULL, 'n'}, {"at", required_argument, NULL, 'a'},
	    {"output", required_argument, NULL, 'o'}, {"seed", required_argument, NULL, 's'},
	    {"series", no_argument, NULL, 'S'},
	    {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0}};
	const char *agent = NULL, *outpath = NULL;
	double at = -1, seed = -1;
	int c, series = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "n:a:o:s:Sh", opts, NULL)) != -1) {
		switch (c) {
		case 'n': agent = optarg; break;
		case 'a':
			if (cli_number("plot", "--at", optarg, 0, &at))
				return EXIT_BAD_INPUT;
			break;
		case 'o': outpath = optarg; break;
		case 'S': series = 1; break;
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
	if (!agent || (at < 0 && !series)) {
		fprintf(stderr, "swerve plot: --agent NAME and --at T are required\n");
		return EXIT_BAD_INPUT;
	}
	sw_image_format fmt = SW_IMAGE_SVG;
	if (outpath && sw_image_format_of(outpath, &fmt) != SW_SUCCESS) {
		fprintf(stderr, "swerve plot: %s: expected a .svg or .png file name\n", outpath);
		return EXIT_BAD_INPUT;
	}
	if (series)
		return plot_series(argv[optind], agent, at, seed, outpath, fmt);
	sw_model *m = NULL;
	sw_world *w = NULL;
	int idx = -1;
	int code = cli_world_at("plot", argv[optind], agent, at, seed, &m, &w, &idx);
	if (code != EXIT_OK)
		return code;
	char defpath[2 * SW_NAME_MAX + 16];
	if (!outpath) {
		char safe[SW_NAME_MAX], safe_agent[SW_NAME_MAX];
		cli_safe_name(m->name, safe, sizeof safe);
		cli_safe_name(agent, safe_agent, sizeof safe_agent);
		snprintf(defpath, sizeof defpath, "%s_%s_plot.svg", safe, safe_agent);
		outpath = defpath;
	}
	static sw_diag diag;
	sw_diag_init(&diag);
	int st = sw_plot_heading(w, idx, fmt, outpath, &diag);
	cli_print_diag(&diag);
	if (st == SW_SUCCESS)
		printf("swerve: heading plot of %s at t = %g s in %s\n", agent, sw_world_time(w),
		       outpath);
	sw_world_destroy(w);
	sw_model_free(m);
	/* SW_EUSAGE: the agent does not steer with GLM now (the diagnostic says so): bad input. */
	return st == SW_EUSAGE ? EXIT_BAD_INPUT : cli_exit_code(st);
}
