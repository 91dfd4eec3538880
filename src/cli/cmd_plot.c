/* cli/cmd_plot.c - `swerve plot`: run a scenario to time T and plot a GLM agent's heading
 * dynamics (f_tar, f_obs, phidot and the fixed points), or an agent's heading, speed and weights
 * over time (--series), or chart the columns of a CSV table (--table); SVG or PNG by the
 * output's extension. */
#include <getopt.h>
#include <sys/stat.h>
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
	      "       swerve plot --table FILE.csv --x COL --y COL[,COL...] [--by COL]\n"
	      "              [--line COL[,COL...]] [--curve EXPR|NAME] [--title T] [--xlabel L]\n"
	      "              [--ylabel L] -o OUT.svg|OUT.png\n"
	      "\n"
	      "Simulates SCENARIO up to time T, then plots the heading dynamics of the GLM agent\n"
	      "NAME for the situation it perceives and its weights at that time: the target\n"
	      "attractor f_tar, the obstacle repeller f_obs and the heading rate\n"
	      "phidot = |w_tar| f_tar + |w_obs| f_obs over headings -180..180 degrees, with the\n"
	      "agent's heading and the fixed points of phidot (filled: stable, open: unstable).\n"
	      "With --series it plots instead the agent's heading, speed and GLM weights |w_tar|,\n"
	      "|w_obs| against time from 0 to T (default: the whole run), with its transitions.\n"
	      "With --table it charts a CSV table instead (header row of column names): column\n"
	      "--x across, each --y column as markers joined by lines, one series per distinct\n"
	      "value of the --by column, --line columns as plain lines (one point per x), the\n"
	      "--curve y(x) dashed (an expression in x, or 'weidmann': speed in m/s against\n"
	      "density in 1/m^2), and a legend.\n"
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
	      "      --table FILE     chart the CSV table FILE (no scenario; -o required)\n"
	      "      --x COL          --table: the column across\n"
	      "      --y COL,...      --table: the columns drawn as series (required)\n"
	      "      --by COL         --table: one series per distinct value of COL\n"
	      "      --line COL,...   --table: columns drawn as lines without markers\n"
	      "      --curve EXPR     --table: a dashed curve y(x), or the name 'weidmann'\n"
	      "      --title T, --xlabel L, --ylabel L\n"
	      "                       --table: the title and axis labels (default: from the\n"
	      "                       column names)\n"
	      "  -q, --quiet          no progress and no summary (errors only)\n"
	      "  -v, --verbose        also notes (what was loaded)\n"
	      "  -V, --version        the version\n"
	      "  -h, --help           this text\n"
	      "\n"
	      "Progress (on a terminal) and the summary go to standard error.\n"
	      "Exit status: 0 written, 1 simulation or write failure, 2 bad usage, bad input,\n"
	      "unknown agent, T after the end of the run, or (heading plot) an agent that does\n"
	      "not steer with GLM at T or has arrived and stands still then, or (--series) one\n"
	      "that never moves, or (--table) a table that cannot be read, is empty, has an\n"
	      "unknown column or a cell that is not a number where a number is drawn (reported\n"
	      "as FILE:LINE:COLUMN), or an output that is the table itself.\n",
	      f);
}

/* --series: record the run up to T (at < 0: its duration) and plot the agent's time series. */
static int plot_series(const char *path, const char *agent, double at, double seed,
		       const char *outpath, sw_image_format fmt)
{
	static sw_diag diag;
	cli_diag_init(&diag);
	sw_model *m = NULL;
	sw_world_def wd;
	int code = cli_load(path, seed, 0.0, &m, &wd);
	if (code != EXIT_OK)
		return code;
	if (at > wd.duration * (1.0 + 1e-12)) {
		fprintf(stderr, "swerve plot: --at %g s is after the end of the run (%s lasts %g s)\n",
			at, path, wd.duration);
		sw_model_free(m);
		return EXIT_BAD_INPUT;
	}
	if (at > 0.0)
		wd.duration = at;
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
	int st = cli_record(m, &wd, cli_verbosity >= 0 && isatty(STDERR_FILENO), &w, &tr, &diag);
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

/* Options of --table. */
typedef struct {
	const char *path, *x, *y, *by, *line, *curve, *title, *xlabel, *ylabel;
} table_opts;

/* Splits the comma-separated list text into at most cap names in place; returns their number,
 * or -1 (after a usage error) when a name is empty or there are too many. */
static int split_names(const char *opt, char *text, const char **names, int cap)
{
	int n = 0;
	for (char *p = text;; p++) {
		char *comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (!*p || n == cap)
			return cli_usage_error("%s: expected COLUMN[,COLUMN...] (at most %d names, none "
					       "empty)",
					       opt, cap),
			       -1;
		names[n++] = p;
		if (!comma)
			return n;
		p = comma;
	}
}

/* --table: chart the CSV table o->path into outpath. */
static int plot_table(const table_opts *o, const char *outpath, sw_image_format fmt)
{
	enum { MAX_COLS = 32 };
	char ybuf[1024], lbuf[1024];
	const char *ys[MAX_COLS], *ls[MAX_COLS];
	sw_table_plot_def def = sw_default_table_plot_def();
	if (strlen(o->y) >= sizeof ybuf || (o->line && strlen(o->line) >= sizeof lbuf))
		return cli_usage_error("--y or --line: the list is too long");
	strcpy(ybuf, o->y);
	if ((def.n_y = split_names("--y", ybuf, ys, MAX_COLS)) < 0)
		return EXIT_BAD_INPUT;
	if (o->line) {
		strcpy(lbuf, o->line);
		if ((def.n_line = split_names("--line", lbuf, ls, MAX_COLS)) < 0)
			return EXIT_BAD_INPUT;
	}
	def.x = o->x, def.y = ys, def.line = ls, def.by = o->by, def.curve = o->curve;
	def.title = o->title, def.xlabel = o->xlabel, def.ylabel = o->ylabel;
	/* Never replace the table (nor a swerve input file) with its chart. */
	struct stat in, out;
	if (stat(o->path, &in) == 0 && stat(outpath, &out) == 0 && in.st_dev == out.st_dev &&
	    in.st_ino == out.st_ino) {
		fprintf(stderr, "swerve plot: %s is the table being charted; refusing to replace "
				"it; choose another output with -o\n",
			outpath);
		return EXIT_BAD_INPUT;
	}
	if (cli_refuse_input("plot", outpath, NULL))
		return EXIT_BAD_INPUT;
	static sw_diag diag;
	cli_diag_init(&diag);
	sw_table *t = NULL;
	int st = sw_table_load(o->path, &t, &diag);
	if (st != SW_SUCCESS) {
		cli_print_diag(&diag);
		return cli_load_exit_code(st);
	}
	cli_note("%s: %d rows, %d columns", o->path, sw_table_n_rows(t), sw_table_n_cols(t));
	st = sw_plot_table(t, &def, fmt, outpath, &diag);
	cli_print_diag(&diag);
	if (st == SW_SUCCESS && cli_verbosity >= 0)
		fprintf(stderr, "swerve: chart of %s (%s against %s) in %s\n", o->path, o->y, o->x,
			outpath);
	sw_table_free(t);
	return cli_exit_code(st);
}

int cmd_plot(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"agent", required_argument, NULL, 'A'},  {"at", required_argument, NULL, 'a'},
	    {"output", required_argument, NULL, 'o'}, {"seed", required_argument, NULL, 's'},
	    {"series", no_argument, NULL, 'S'},       {"table", required_argument, NULL, 1000},
	    {"x", required_argument, NULL, 1001},     {"y", required_argument, NULL, 1002},
	    {"by", required_argument, NULL, 1003},    {"line", required_argument, NULL, 1004},
	    {"curve", required_argument, NULL, 1005}, {"title", required_argument, NULL, 1006},
	    {"xlabel", required_argument, NULL, 1007}, {"ylabel", required_argument, NULL, 1008},
	    CLI_LONG};
	table_opts to = {0};
	const char **tslot[] = {&to.path,  &to.x,     &to.y,      &to.by,    &to.line,
				&to.curve, &to.title, &to.xlabel, &to.ylabel};
	int table_opt = 0; /* any --table option given (its name, for messages) */
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
		case 1000: case 1001: case 1002: case 1003: case 1004: case 1005: case 1006:
		case 1007: case 1008:
			*tslot[c - 1000] = optarg;
			if (!table_opt || c == 1000)
				table_opt = c;
			break;
		default: {
			int code = cli_option(c, argv, opts, plot_usage);
			if (code >= 0)
				return code;
		}
		}
	}
	if (table_opt && !to.path)
		return cli_usage_error("--%s is an option of --table FILE.csv",
				       opts[table_opt - 1000 + 5].name);
	if (to.path) {
		if (optind != argc)
			return cli_usage_error("--table charts a CSV file: expected no scenario "
					       "(got '%s')",
					       argv[optind]);
		if (agent || at >= 0 || series || seed >= 0)
			return cli_usage_error("--table takes none of --agent, --at, --series, --seed");
		if (!to.x || !to.y || !outpath)
			return cli_usage_error("--table needs --x COL, --y COL[,COL...] and "
					       "-o OUT.svg|OUT.png");
		if (!*to.path)
			return cli_usage_error("option '--table' is empty; expected a CSV file");
		sw_image_format tfmt;
		if (sw_image_format_of(outpath, &tfmt) != SW_SUCCESS)
			return cli_usage_error("%s: expected a .svg or .png file name", outpath);
		return plot_table(&to, outpath, tfmt);
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
	cli_diag_init(&diag);
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
