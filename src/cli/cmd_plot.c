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
	      "  -A, --agent NAME     the agent to plot (required; must steer with glm at T)\n"
	      "  -a, --at T           time of the plot, s (required without --series; from 0 to\n"
	      "                       the run's duration)\n"
	      "  -S, --series         time series of heading, speed and weights (any law)\n"
	      "  -o, --output FILE    plot path (default SCENARIO_AGENT_plot.svg, or\n"
	      "                       SCENARIO_AGENT_series.svg with --series)\n"
	      "  -s, --seed N         override the scenario seed\n"
	      "  -q, --quiet          no progress and no summary (errors only)\n"
	      "  -v, --verbose        also notes (what was loaded)\n"
	      "  -V, --version        the version\n"
	      "  -h, --help           this text\n"
	      "\n"
	      "Progress (on a terminal) and the summary go to standard error.\n"
	      "Exit status: 0 written, 1 simulation or write failure, 2 bad usage, bad input,\n"
	      "unknown agent, T after the end of the run, or (heading plot) an agent that does\n"
	      "not steer with GLM at T or has arrived and stands still then, or (--series) one\n"
	      "that never moves.\n",
	      f);
}

/* --series: record the run up to T (at < 0: its duration) and plot the agent's time series. */
static int plot_series(const char *path, const char *agent, double at, double seed,
		       const char *outpath, sw_image_format fmt)
{
	static sw_diag diag;
	sw_diag_init(&diag);
	sw_model *m = NULL;
	int code = cli_load(path, seed, 0.0, &m);
	if (code != EXIT_OK)
		return code;
	if (at > m->run.duration * (1.0 + 1e-12)) {
		fprintf(stderr, "swerve plot: --at %g s is after the end of the run (%s lasts %g s)\n",
			at, path, m->run.duration);
		sw_model_free(m);
		return EXIT_BAD_INPUT;
	}
	if (at > 0.0)
		m->run.duration = at;
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
	if (cli_refuse_input("plot", outpath, m)) {
		sw_model_free(m);
		return EXIT_BAD_INPUT;
	}
	sw_world *w = NULL;
	sw_trace *tr = NULL;
	int st = cli_record(m, cli_verbosity >= 0 && isatty(STDERR_FILENO), &w, &tr, &diag);
	if (st == SW_SUCCESS && sw_world_metrics(w, ai)->path_length == 0.0) {
		/* Heading, speed and weights of an agent that never moved are flat lines. */
		fprintf(stderr, "swerve plot: agent '%s' never moves up to t = %.9g s: a time series "
				"of its motion needs motion\n",
			agent, sw_world_time(w));
		sw_world_destroy(w);
		sw_trace_free(tr);
		sw_model_free(m);
		return EXIT_BAD_INPUT;
	}
	if (st == SW_SUCCESS)
		st = sw_plot_series(w, tr, ai, fmt, outpath, &diag);
	cli_print_diag(&diag);
	if (st == SW_SUCCESS && cli_verbosity >= 0)
		fprintf(stderr, "swerve: time series of %s up to t = %g s in %s\n", agent, sw_world_time(w),
		       outpath);
	sw_world_destroy(w);
	sw_trace_free(tr);
	sw_model_free(m);
	return st == SW_EUSAGE ? EXIT_BAD_INPUT : cli_exit_code(st);
}

int cmd_plot(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"agent", required_argument, NULL, 'A'},  {"at", required_argument, NULL, 'a'},
	    {"output", required_argument, NULL, 'o'}, {"seed", required_argument, NULL, 's'},
	    {"series", no_argument, NULL, 'S'},       CLI_LONG};
	const char *agent = NULL, *outpath = NULL;
	double at = -1, seed = -1;
	int c, series = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":A:a:o:s:S" CLI_SHORT, opts, NULL)) != -1) {
		switch (c) {
		case 'A': agent = optarg; break;
		case 'a':
			if (cli_number("plot", "--at", optarg, 0, &at))
				return EXIT_BAD_INPUT;
			break;
		case 'o':
			if (cli_output_option("-o", optarg))
				return EXIT_BAD_INPUT;
			outpath = optarg;
			break;
		case 'S': series = 1; break;
		case 's':
			if (cli_number("plot", "--seed", optarg, 0, &seed))
				return EXIT_BAD_INPUT;
			break;
		default: {
			int code = cli_option(c, argv, opts, plot_usage);
			if (code >= 0)
				return code;
		}
		}
	}
	if (optind != argc - 1)
		return cli_usage_error("expected exactly one scenario file");
	if (!agent || (at < 0 && !series))
		return cli_usage_error(series ? "--agent NAME is required"
					      : "--agent NAME and --at T are required");
	sw_image_format fmt = SW_IMAGE_SVG;
	if (outpath && sw_image_format_of(outpath, &fmt) != SW_SUCCESS) {
		return cli_usage_error("%s: expected a .svg or .png file name", outpath);
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
	if (cli_refuse_input("plot", outpath, m)) {
		sw_world_destroy(w);
		sw_model_free(m);
		return EXIT_BAD_INPUT;
	}
	static sw_diag diag;
	sw_diag_init(&diag);
	int st = sw_plot_heading(w, idx, fmt, outpath, &diag);
	cli_print_diag(&diag);
	if (st == SW_SUCCESS && cli_verbosity >= 0)
		fprintf(stderr, "swerve: heading plot of %s at t = %g s in %s\n", agent, sw_world_time(w),
		       outpath);
	sw_world_destroy(w);
	sw_model_free(m);
	/* SW_EUSAGE: the agent does not steer with GLM now (the diagnostic says so): bad input. */
	return st == SW_EUSAGE ? EXIT_BAD_INPUT : cli_exit_code(st);
}
