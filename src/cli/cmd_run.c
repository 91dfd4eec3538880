/* cli/cmd_run.c - `swerve run`: load, simulate, write outputs atomically. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void run_usage(FILE *f)
{
	fputs("usage: swerve run SCENARIO [OPTIONS]\n"
	      "\n"
	      "Simulates SCENARIO (an XML scenario file, see docs/scenario-format.md) and writes\n"
	      "DIR/trajectory.csv (one row per agent per sample), DIR/events.jsonl (transitions)\n"
	      "and DIR/summary.json (per agent: target reached and when, path length, clearances,\n"
	      "collisions).  Files appear only when the run completed, or stopped at a runtime\n"
	      "failure (then up to the last good step, with \"status\": \"failed\").\n"
	      "\n"
	      "options:\n"
	      "  -o, --output DIR     output directory (default: out/NAME, NAME the scenario's)\n"
	      "  -s, --seed N         override the scenario seed\n"
	      "  -d, --duration T     override the simulated duration, s\n"
	      "  -q, --quiet          no progress and no final message\n"
	      "  -h, --help           this text\n",
	      f);
}

static void progress(double frac)
{
	static int last = -1;
	int pct = (int)(100.0 * frac);
	if (pct != last) {
		fprintf(stderr, "\rswerve: %3d%%", pct);
		if (pct >= 100)
			fputc('\n', stderr);
		last = pct;
	}
}

int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
					     {"seed", required_argument, NULL, 's'},
					     {"duration", required_argument, NULL, 'd'},
					     {"quiet", no_argument, NULL, 'q'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	const char *outdir = NULL;
	int quiet = 0, have_seed = 0, c;
	uint64_t seed = 0;
	double duration = 0.0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:s:d:qh", opts, NULL)) != -1) {
		char *end = NULL;
		switch (c) {
		case 'o': outdir = optarg; break;
		case 's':
			errno = 0;
			seed = strtoull(optarg, &end, 10);
			if (errno || !*optarg || *end || optarg[0] == '-') {
				fprintf(stderr, "swerve run: --seed '%s': expected a non-negative "
						"integer\n", optarg);
				return EXIT_BAD_INPUT;
			}
			have_seed = 1;
			break;
		case 'd':
			if (cli_number("run", "--duration", optarg, 1e-9, &duration))
				return EXIT_BAD_INPUT;
			break;
		case 'q': quiet = 1; break;
		case 'h': run_usage(stdout); return EXIT_OK;
		default: run_usage(stderr); return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "swerve run: expected exactly one scenario file\n");
		run_usage(stderr);
		return EXIT_BAD_INPUT;
	}
	const char *path = argv[optind];
	static sw_diag diag;
	sw_diag_init(&diag);
	sw_model *m = NULL;
	int st = sw_scenario_load(path, &m, &diag);
	if (st != SW_SUCCESS) {
		cli_print_diag(&diag);
		return cli_load_exit_code(st);
	}
	if (have_seed)
		m->run.seed = seed;
	if (duration > 0.0)
		m->run.duration = duration;
	char defdir[SW_NAME_MAX + 8];
	if (!outdir) {
		snprintf(defdir, sizeof defdir, "out/%s", m->name);
		outdir = defdir;
	}
	sw_world *w = NULL;
	sw_output *o = NULL;
	st = sw_world_create(m, &w, &diag);
	if (st == SW_SUCCESS)
		st = sw_output_open(outdir, m, &o, &diag);
	if (st == SW_SUCCESS) {
		sw_output_attach(o, w);
		int tty = !quiet && isatty(STDERR_FILENO);
		st = sw_world_run(w, sw_output_sample, o, tty ? progress : NULL, &diag);
		if (st == SW_SUCCESS || st == SW_ENUMERIC || st == SW_EZENO || st == SW_EMODEL) {
			/* A runtime failure keeps everything up to the last good step. */
			char msg[SW_DIAG_MSG + SW_DIAG_FILE + 64] = "";
			if (st != SW_SUCCESS && diag.count > 0)
				sw_diag_format(&diag, diag.count - 1, msg, sizeof msg);
			int cst = sw_output_commit(o, w, st != SW_SUCCESS ? msg : NULL, &diag);
			if (st == SW_SUCCESS)
				st = cst;
			else if (cst == SW_SUCCESS)
				fprintf(stderr, "swerve run: outputs up to t = %.9g s are in %s/\n",
					sw_world_time(w), outdir);
			o = NULL;
		}
	}
	sw_output_abort(o);
	cli_print_diag(&diag);
	int code = cli_exit_code(st);
	if (st == SW_SUCCESS && !quiet) {
		int reached = 0;
		for (int i = 0; i < m->n_agents; i++)
			reached += sw_world_metrics(w, i)->reached;
		printf("swerve: %s: %d agents, %.6g s simulated, %d reached their target; outputs "
		       "in %s/ (trajectory.csv, events.jsonl, summary.json)\n",
		       m->name, m->n_agents, sw_world_time(w), reached, outdir);
	} else if (st != SW_SUCCESS && diag.count == 0) {
		fprintf(stderr, "swerve run: %s\n", sw_strerror(st));
	}
	sw_world_destroy(w);
	sw_model_free(m);
	return code;
}
