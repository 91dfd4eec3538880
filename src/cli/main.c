/* cli/main.c - the swerve command-line tool: subcommand dispatch and shared helpers. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli/field_cache.h"

const char *cli_cmd = "swerve";
int cli_verbosity = 0;

/* "swerve CMD: " before a message (just "swerve: " outside a command). */
static void prefix(void)
{
	if (strcmp(cli_cmd, "swerve") == 0)
		fputs("swerve: ", stderr);
	else
		fprintf(stderr, "swerve %s: ", cli_cmd);
}

void cli_try_help(void)
{
	if (strcmp(cli_cmd, "swerve") == 0)
		fputs("try 'swerve --help'\n", stderr);
	else
		fprintf(stderr, "try 'swerve %s --help'\n", cli_cmd);
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	prefix();
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	cli_try_help();
	return EXIT_BAD_INPUT;
}

void cli_note(const char *fmt, ...)
{
	if (cli_verbosity < 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	prefix();
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void cli_note_model(const char *path, const sw_model *m, const sw_world_def *wd)
{
	sw_world_def own = sw_default_world_def(m);
	if (!wd)
		wd = &own;
	cli_note("%s: scenario '%s', %d agents, %d obstacles, %d targets, %g s in steps of %g s, "
		 "seed %llu",
		 path, m->name, m->n_agents, m->n_obstacles, m->n_targets, wd->duration,
		 m->run.step, (unsigned long long)wd->seed);
}

/* The option getopt_long stopped at, as the user wrote it: "--name" for a long option (the
 * argument it just consumed, when that names the option reported), else "-c". */
static void option_text(int c, char **argv, const struct option *opts, char *buf, size_t n)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	if (strncmp(arg, "--", 2) == 0) {
		size_t len = strcspn(arg + 2, "=");
		int known = 0;
		for (const struct option *o = opts; o && o->name; o++)
			if (strlen(o->name) == len && strncmp(o->name, arg + 2, len) == 0)
				known = o->val == c || c == 0;
		if (c == 0 || known) {
			snprintf(buf, n, "--%.*s", (int)len, arg + 2);
			return;
		}
	}
	snprintf(buf, n, "-%c", c);
}

int cli_option(int c, char **argv, const struct option *opts, void (*usage)(FILE *))
{
	char opt[128];
	switch (c) {
	case 'q': cli_verbosity = -1; return -1;
	case 'v': cli_verbosity = 1; return -1;
	case 'V': printf("swerve %s\n", SWERVE_VERSION); return EXIT_OK;
	case 'h': usage(stdout); return EXIT_OK;
	case ':':
		option_text(optopt, argv, opts, opt, sizeof opt);
		return cli_usage_error("option '%s' needs a value", opt);
	default:
		option_text(optopt, argv, opts, opt, sizeof opt);
		if (optopt != 0 && strncmp(opt, "--", 2) == 0)
			return cli_usage_error("option '%s' takes no value", opt);
		return cli_usage_error("unknown option '%s'", opt);
	}
}

void cli_print_diag(sw_diag *diag)
{
	cli_map_diag(diag);
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

int cli_number(const char *cmd, const char *opt, const char *text, double lo, double *out)
{
	char *end = NULL;
	errno = 0;
	*out = strtod(text, &end);
	if (errno || !*text || *end || !(*out >= lo) || !(*out < 1e300)) {
		fprintf(stderr, "swerve %s: %s '%s': expected a number >= %g\n", cmd, opt, text, lo);
		cli_try_help();
		return -1;
	}
	return 0;
}

/* The cache folder: --field-cache DIR, else $XDG_CACHE_HOME/swerve, else ~/.cache/swerve, into
 * buf; NULL when there is none or the path does not fit. */
static const char *field_cache_dir(const char *cache, int no_cache, char *buf, size_t n)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int len = -1;
	if (no_cache)
		len = -1;
	else if (cache)
		len = cache[0] ? snprintf(buf, n, "%s", cache) : -1;
	else if (xdg && xdg[0])
		len = snprintf(buf, n, "%s/swerve", xdg);
	else if (home && home[0])
		len = snprintf(buf, n, "%s/.cache/swerve", home);
	return len > 0 && (size_t)len < n ? buf : NULL;
}

int cli_plan_fields(const sw_model *m, const char *cache, int no_cache, sw_plan **out)
{
	static sw_diag diag;
	cli_diag_init(&diag);
	char dir[4096];
	sw_plan_options o = sw_default_plan_options();
	const char *d = field_cache_dir(cache, no_cache, dir, sizeof dir);
	sw_field_store store = cli_field_cache(d);
	o.store = d ? &store : NULL;
	int st = sw_plan_fields(m, &o, out, &diag);
	cli_print_diag(&diag);
	return st;
}

/* The task cli_progress reports on: its simulated length (0: not a simulation) and when it
 * started (wall clock). */
static double progress_total;
static struct timespec progress_t0;
static int progress_last = -1;

static double wall_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

void cli_progress_start(double simulated)
{
	progress_total = simulated;
	progress_last = -1;
	clock_gettime(CLOCK_MONOTONIC, &progress_t0);
}

void cli_progress(double frac)
{
	int pct = (int)(100.0 * frac);
	if (pct == progress_last)
		return;
	if (progress_last < 0 && pct < 100 && !(frac > 0.0))
		clock_gettime(CLOCK_MONOTONIC, &progress_t0); /* a task without cli_progress_start */
	double wall = wall_since(&progress_t0);
	fprintf(stderr, "\rswerve: %3d%%", pct);
	if (progress_total > 0.0)
		fprintf(stderr, "  t = %.4g of %.4g s", frac * progress_total, progress_total);
	if (frac > 0.0 && wall > 0.0) {
		if (progress_total > 0.0)
			fprintf(stderr, ", %.3g x real time", frac * progress_total / wall);
		if (pct < 100)
			fprintf(stderr, ", %.0f s left ", wall * (1.0 - frac) / frac);
		else
			fprintf(stderr, " in %.3g s         ", wall);
	}
	if (pct >= 100) {
		fputc('\n', stderr);
		progress_total = 0.0;
	}
	progress_last = pct >= 100 ? -1 : pct;
}

void cli_progress_fn(double frac, void *ctx)
{
	(void)ctx;
	cli_progress(frac);
}

void cli_progress_runs(int64_t done, int64_t total, int upto, int last)
{
	double wall = wall_since(&progress_t0);
	if (upto)
		fprintf(stderr, "\rswerve: %lld runs (at most %lld)", (long long)done,
			(long long)total);
	else
		fprintf(stderr, "\rswerve: %3d%%  %lld of %lld runs", (int)(100.0 * done / total),
			(long long)done, (long long)total);
	if (done > 0 && wall > 0.0) {
		fprintf(stderr, ", %.3g runs/s", (double)done / wall);
		if (!last && !upto)
			fprintf(stderr, ", %.0f s left ", wall * (double)(total - done) / (double)done);
		else if (last)
			fprintf(stderr, " in %.3g s         ", wall);
	}
	if (last)
		fputc('\n', stderr);
}

int cli_load(const char *path, double seed, double duration, sw_model **m, sw_world_def *wd)
{
	static sw_diag diag;
	cli_diag_init(&diag);
	sw_world_def own;
	if (!wd)
		wd = &own;
	int st = cli_read_model(path, seed >= 0, seed >= 0 ? (uint64_t)seed : 0, duration, m, wd,
				&diag);
	cli_print_diag(&diag); /* the warnings too */
	if (st == SW_SUCCESS)
		cli_note_model(path, *m, wd);
	return st == SW_SUCCESS ? EXIT_OK : cli_load_exit_code(st);
}

int cli_record(const sw_model *m, const sw_world_def *wd, int progress, sw_world **w,
	       sw_trace **tr, sw_diag *diag)
{
	*w = NULL;
	*tr = sw_trace_alloc(m);
	sw_world_def def = wd ? *wd : sw_default_world_def(m);
	if (progress)
		def.progress_fn = cli_progress_fn;
	int st = *tr ? sw_world_create(m, &def, w, diag) : SW_ENOMEM;
	if (st != SW_SUCCESS)
		return st;
	sw_world_set_event_fn(*w, sw_trace_event, *tr);
	if (progress)
		cli_progress_start(def.duration);
	return sw_world_run(*w, sw_trace_sample, *tr, diag);
}

int cli_world_at(const char *cmd, const char *path, const char *agent, double at, double seed,
		 sw_model **m, sw_world **w, int *agent_index)
{
	static sw_diag diag;
	cli_diag_init(&diag);
	*w = NULL;
	sw_world_def wd;
	int code = cli_load(path, seed, 0.0, m, &wd);
	if (code != EXIT_OK)
		return code;
	int st;
	int ai = agent ? sw_model_find_agent(*m, agent) : ((*m)->n_agents == 1 ? 0 : -1);
	if (ai < 0) {
		if (agent)
			fprintf(stderr, "swerve %s: %s has no agent '%s' (agents:", cmd, path, agent);
		else
			fprintf(stderr, "swerve %s: %s has %d agents; choose one with --agent (agents:",
				cmd, path, (*m)->n_agents);
		for (int i = 0; i < (*m)->n_agents; i++)
			fprintf(stderr, " %s", (*m)->agents[i].name);
		fputs(")\n", stderr);
		sw_model_free(*m);
		*m = NULL;
		return EXIT_BAD_INPUT;
	}
	if (at > wd.duration * (1.0 + 1e-12)) {
		fprintf(stderr, "swerve %s: --at %g s is after the end of the run (%s lasts %g s)\n",
			cmd, at, path, wd.duration);
		sw_model_free(*m);
		*m = NULL;
		return EXIT_BAD_INPUT;
	}
	st = sw_world_create(*m, &wd, w, &diag);
	/* Step until the world reaches T (steps of run.step; the last one may end past T), with
	 * progress when stderr is a terminal. */
	int tty = cli_verbosity >= 0 && isatty(STDERR_FILENO) && at > 0;
	int ended = 0; /* every agent done before T (run.stop_when_done) */
	while (st == SW_SUCCESS && sw_world_time(*w) < at - 1e-9 * fmax(1.0, at) &&
	       !(ended = sw_world_done(*w))) {
		st = sw_world_step(*w, &diag);
		if (tty)
			cli_progress(fmin(sw_world_time(*w) / at, 1.0));
	}
	if (tty)
		cli_progress(1.0); /* ends the line even when the run stopped early */
	cli_print_diag(&diag);
	if (st != SW_SUCCESS) {
		if (*w)
			fprintf(stderr, "swerve %s: the run failed at t = %.9g s before T = %.9g s\n",
				cmd, sw_world_time(*w), at);
		sw_world_destroy(*w);
		sw_model_free(*m);
		*w = NULL;
		*m = NULL;
		return cli_exit_code(st);
	}
	/* The heading dynamics at T mean nothing for an agent that has arrived and stands still
	 * (one at rest that has not arrived may be about to accelerate: it is analysed). */
	sw_agent_state as;
	sw_world_agent(*w, ai, &as);
	const sw_agent_metrics *mt = sw_world_metrics(*w, ai);
	if (ended || (as.y[SW_STATE_V] == 0.0 && mt->reached)) {
		if (ended)
			fprintf(stderr, "swerve %s: the run ends at t = %.9g s (every agent done), "
					"before --at %g s\n",
				cmd, sw_world_time(*w), at);
		else
			fprintf(stderr, "swerve %s: agent '%s' stands still at t = %.9g s (mode %s, "
					"speed 0): it reached its target at t = %.9g s, and its heading "
					"dynamics need motion%s\n",
				cmd, (*m)->agents[ai].name, sw_world_time(*w),
				sw_world_mode_name(*w, ai, sw_world_unit_mode(*w, ai)), mt->t_reached,
				mt->t_reached > 0.0 ? "; choose an earlier --at" : "");
		sw_world_destroy(*w);
		sw_model_free(*m);
		*w = NULL;
		*m = NULL;
		return EXIT_BAD_INPUT;
	}
	*agent_index = ai;
	return EXIT_OK;
}

static void usage(FILE *f)
{
	fputs("usage: swerve COMMAND [OPTIONS] [ARGS]\n"
	      "       swerve -V | --version | -h | --help\n"
	      "\n"
	      "Hybrid-automaton steering agents: simulate scenarios of attractor/repeller\n"
	      "heading dynamics.\n"
	      "\n"
	      "commands:\n"
	      "  run SCENARIO [-o DIR]   simulate a scenario; write trajectory.csv,\n"
	      "                          events.jsonl and summary.json\n"
	      "  check FILE...           validate scenario and automaton files; report every error\n"
	      "  graph FILE              mode graph of an automaton or scenario as Graphviz DOT\n"
	      "  render SCENARIO         run a scenario and draw it (SVG or PNG), animate it\n"
	      "                          (animated SVG) or film it (PNG frames, ffmpeg video)\n"
	      "  export SCENARIO         hybrid automaton for verifiers (SpaceEx XML + cfg, DOT, JSON)\n"
	      "  analyze SCENARIO        GLM weight competition of one agent at a time (fixed points,\n"
	      "                          stability)\n"
	      "  plot SCENARIO           heading dynamics of a GLM agent at a time, or an agent's\n"
	      "                          heading, speed and weights over time (SVG or PNG)\n"
	      "  import-steersuite CASE  a SteerSuite test case as a swerve scenario\n"
	      "  smc SCENARIO            probability of a property over seeds (interval, SPRT);\n"
	      "                          threads and MPI ranks\n"
	      "  sweep SCENARIO          parameter grid x seeds: one CSV row per run\n"
	      "  verify SCENARIO         export, HyST -> Flow*, a verdict and a simulated witness\n"
	      "  version                 print the version\n"
	      "  help [COMMAND]          this text, or a command's help\n"
	      "\n"
	      "Every command accepts -q (errors and data only), -v (also notes), -V (version) and\n"
	      "-h (its help); a short option means the same in every command.  Data go to\n"
	      "standard output, progress, summaries and errors to standard error.\n"
	      "`swerve COMMAND --help` describes a command.  Exit status: 0 success,\n"
	      "1 simulation failure, 2 bad usage or bad input.\n",
	      f);
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {{"run", cmd_run},       {"check", cmd_check},
		{"graph", cmd_graph},   {"render", cmd_render},
		{"export", cmd_export}, {"analyze", cmd_analyze},
		{"plot", cmd_plot},     {"import-steersuite", cmd_import},
		{"smc", cmd_smc},       {"sweep", cmd_sweep},
		{"verify", cmd_verify}};

/* 'q', 'v', 'V' or 'h' when a is one of the options every command takes (short or long), else 0. */
static int common_option(const char *a)
{
	static const struct option opts[] = {CLI_LONG};
	for (int k = 0; opts[k].name; k++)
		if (strcmp(a + (a[0] == '-' && a[1] == '-' ? 2 : 0), opts[k].name) == 0 && a[1] == '-')
			return opts[k].val;
	return a[0] == '-' && a[1] && !a[2] && strchr(CLI_SHORT, a[1]) ? a[1] : 0;
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error("expected a command");
	const char *cmd = argv[1];
	int n = (int)(sizeof commands / sizeof commands[0]);
	for (int k = 0; k < n; k++)
		if (strcmp(cmd, commands[k].name) == 0) {
			cli_cmd = commands[k].name;
			return commands[k].fn(argc - 1, argv + 1);
		}
	int version = strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0 ||
		      strcmp(cmd, "-V") == 0;
	if (version || strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 ||
	    strcmp(cmd, "-h") == 0) {
		/* version and help take the options every command takes (-q, -v, -V, -h) as the
		 * commands do: -V asks for the version (`swerve help -V` as `swerve -V`), -h for the
		 * help (the last of the two wins), -q and -v change nothing here; help also takes
		 * one COMMAND. */
		cli_cmd = version ? "version" : "help";
		const char *topic = NULL;
		for (int k = 2; k < argc; k++) {
			int c = common_option(argv[k]);
			if (c == 'V' || c == 'h')
				version = c == 'V';
			else if (c)
				continue;
			else if (argv[k][0] == '-' && argv[k][1])
				return cli_usage_error("unknown option '%s'", argv[k]);
			else if (!topic && strcmp(cli_cmd, "help") == 0)
				topic = argv[k];
			else
				return cli_usage_error("unexpected argument '%s'", argv[k]);
		}
		if (version) {
			printf("swerve %s\n", SWERVE_VERSION);
			return EXIT_OK;
		}
		for (int k = 0; topic && k < n; k++)
			if (strcmp(topic, commands[k].name) == 0) {
				char *hargv[] = {(char *)topic, "--help", NULL};
				cli_cmd = commands[k].name;
				return commands[k].fn(2, hargv);
			}
		if (topic)
			return cli_usage_error("unknown command '%s'", topic);
		usage(stdout);
		return EXIT_OK;
	}
	if (cmd[0] == '-')
		return cli_usage_error("unknown option '%s' (options follow the command)", cmd);
	return cli_usage_error("unknown command '%s'; expected run, check, graph, render, export, "
			       "analyze, plot, import-steersuite, smc, sweep, verify, version or help",
			       cmd);
}

/* The one check of the standard output, after every command: its data were all written (a
 * full disk, a closed pipe or /dev/full make the last flush or an earlier write fail). */
static int finish(int code)
{
	errno = 0;
	int bad = fflush(stdout) != 0;
	int err = errno;
	if (!bad && !ferror(stdout))
		return code;
	prefix();
	fprintf(stderr, "cannot write the standard output: %s\n", strerror(err ? err : EIO));
	return code == EXIT_OK ? EXIT_RUNTIME : code;
}

int main(int argc, char **argv)
{
	return finish(dispatch(argc, argv));
}
