/* cli/cmd_run.c - `swerve run`: load, simulate, write outputs atomically. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void run_usage(FILE *f)
{
	fputs("usage: swerve run SCENARIO [OPTIONS]\n"
	      "\n"
	      "Simulates SCENARIO (an XML scenario file, see docs/scenario-format.md, or a\n"
	      "SteerSuite test case, see docs/steersuite.md) and writes\n"
	      "DIR/trajectory.csv (one row per agent per sample), DIR/events.jsonl (transitions)\n"
	      "and DIR/summary.json (per agent: target reached and when, path length, clearances,\n"
	      "collisions).  Files appear only when the run completed, or stopped at a runtime\n"
	      "failure (then up to the last good step, with \"status\": \"failed\").\n"
	      "\n"
	      "options:\n"
	      "  -o, --output DIR     output directory (default: out/NAME, NAME the scenario's)\n"
	      "  -s, --seed N         override the scenario seed\n"
	      "  -d, --duration T     override the simulated duration, s\n"
	      "      --sample T       override the output interval, s (a multiple of the step):\n"
	      "                       fewer trajectory rows; the run itself is the same\n"
	      "  -j, --threads N      threads stepping the agents (default 0: one per processor;\n"
	      "                       outputs are identical for every N)\n"
	      "  -q, --quiet          no progress and no summary (errors only)\n"
	      "  -v, --verbose        also notes: what was loaded, threads\n"
	      "      --variables      also DIR/variables.csv: every behaviour agent's and signal's\n"
	      "                       mode and automaton variables at every sample\n"
	      "      --checkpoint-every T  write DIR/checkpoint.swck at the first sample at or\n"
	      "                       after every T simulated seconds (removed when the run ends)\n"
	      "      --resume         continue from DIR/checkpoint.swck (same scenario and\n"
	      "                       options); the outputs are those of an uninterrupted run\n"
	      "      --halt-at T      stop at the first sample at or after T, keeping the\n"
	      "                       checkpoint and no outputs, as an interruption would\n"
	      "                       (for testing --resume); exit status 1\n"
	      "      --field-cache DIR  cache solved navigation fields in DIR (default\n"
	      "                       $XDG_CACHE_HOME/swerve or ~/.cache/swerve)\n"
	      "      --no-field-cache solve navigation fields without reading or writing a cache\n"
	      "  -V, --version        the version\n"
	      "  -h, --help           this text\n"
	      "\n"
	      "The summary line and progress (on a terminal) go to standard error.\n",
	      f);
}

/* 1 (after saying why) when a file run would write in dir -- an output named by flags, or the
 * checkpoint when `ckpt` -- is a file m reads (cli_refuse_input): `-o DIR` holding the scenario
 * as DIR/summary.json must not replace it. */
static int replaces_input(const char *dir, const sw_model *m, unsigned flags, int ckpt)
{
	char path[4200];
	for (int k = 0; sw_output_file_name(flags, k); k++) {
		snprintf(path, sizeof path, "%s/%s", dir, sw_output_file_name(flags, k));
		if (cli_refuse_input("run", path, m))
			return 1;
	}
	cli_ckpt_path(path, sizeof path, dir);
	return ckpt && cli_refuse_input("run", path, m);
}

int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
					     {"seed", required_argument, NULL, 's'},
					     {"duration", required_argument, NULL, 'd'},
					     {"sample", required_argument, NULL, OPT_SAMPLE},
					     {"threads", required_argument, NULL, 'j'},
					     {"checkpoint-every", required_argument, NULL, 'C'},
					     {"resume", no_argument, NULL, 'R'},
					     {"variables", no_argument, NULL, OPT_VARIABLES},
					     {"halt-at", required_argument, NULL, 'H'},
					     {"field-cache", required_argument, NULL, OPT_FIELD_CACHE},
					     {"no-field-cache", no_argument, NULL, OPT_NO_FIELD_CACHE},
					     CLI_LONG};
	const char *outdir = NULL, *cache = NULL;
	int have_seed = 0, no_cache = 0, c;
	uint64_t seed = 0;
	double duration = 0.0, sample = 0.0, threads = 0.0, every = 0.0, halt_at = 0.0;
	int resume = 0, variables = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:s:d:j:" CLI_SHORT, opts, NULL)) != -1) {
		char *end = NULL;
		switch (c) {
		case 'o':
			if (cli_output_option("-o", optarg))
				return EXIT_BAD_INPUT;
			outdir = optarg;
			break;
		case 's':
			errno = 0;
			seed = strtoull(optarg, &end, 10);
			if (errno || !*optarg || *end || optarg[0] == '-') {
				return cli_usage_error("--seed '%s': expected a non-negative integer",
						       optarg);
			}
			have_seed = 1;
			break;
		case 'd':
			if (cli_number("run", "--duration", optarg, 1e-9, &duration))
				return EXIT_BAD_INPUT;
			break;
		case OPT_SAMPLE:
			if (cli_number("run", "--sample", optarg, 1e-9, &sample))
				return EXIT_BAD_INPUT;
			break;
		case 'j':
			if (cli_number("run", "--threads", optarg, 0.0, &threads))
				return EXIT_BAD_INPUT;
			if (threads != floor(threads) || threads > 1024) {
				return cli_usage_error("--threads '%s': expected an integer from 0 "
						       "to 1024", optarg);
			}
			break;
		case 'C':
			if (cli_number("run", "--checkpoint-every", optarg, 1e-9, &every))
				return EXIT_BAD_INPUT;
			break;
		case 'H':
			if (cli_number("run", "--halt-at", optarg, 1e-9, &halt_at))
				return EXIT_BAD_INPUT;
			break;
		case 'R': resume = 1; break;
		case OPT_VARIABLES: variables = 1; break;
		case OPT_FIELD_CACHE: cache = optarg; break;
		case OPT_NO_FIELD_CACHE: no_cache = 1; break;
		default: {
			int code = cli_option(c, argv, opts, run_usage);
			if (code >= 0)
				return code;
		}
		}
	}
	if (optind != argc - 1)
		return cli_usage_error("expected exactly one scenario file");
	const char *path = argv[optind];
	static sw_diag diag;
	cli_diag_init(&diag);
	sw_model *m = NULL;
	sw_world_def wd;
	int st = cli_read_model(path, have_seed, seed, duration, &m, &wd, &diag);
	if (st != SW_SUCCESS) {
		cli_print_diag(&diag);
		return cli_load_exit_code(st);
	}
	if (sample > 0.0 && !sw_run_multiple(sample, m->run.step)) {
		fprintf(stderr,
			"swerve run: --sample %g s: expected a positive multiple of the run's step, "
			"%g s\n",
			sample, m->run.step);
		sw_model_free(m);
		return EXIT_BAD_INPUT;
	}
	if (sample > 0.0)
		wd.sample = sample;
	/* Checkpoint times are passed one interval at a time: at most SW_RUN_MAX_STEPS of them. */
	if (every > 0.0 && !(wd.duration / every <= (double)SW_RUN_MAX_STEPS)) {
		fprintf(stderr,
			"swerve run: --checkpoint-every %g s: more than %ld intervals in the %g s "
			"run (SW_RUN_MAX_STEPS); expected a longer interval\n",
			every, SW_RUN_MAX_STEPS, wd.duration);
		sw_model_free(m);
		return EXIT_BAD_INPUT;
	}
	char defdir[SW_NAME_MAX + 8];
	if (!outdir) {
		char safe[SW_NAME_MAX];
		cli_safe_name(m->name, safe, sizeof safe);
		snprintf(defdir, sizeof defdir, "out/%s", safe);
		outdir = defdir;
	}
	unsigned flags = variables ? SW_OUTPUT_VARIABLES : 0;
	if (replaces_input(outdir, m, flags, every > 0.0 || halt_at > 0.0)) {
		sw_model_free(m);
		return EXIT_BAD_INPUT;
	}
	cli_note_model(path, m, &wd);
	sw_world *w = NULL;
	sw_output *o = NULL;
	sw_plan *plan = NULL;
	st = cli_plan_fields(m, cache, no_cache, &plan);
	wd.plan = plan;
	int tty = cli_verbosity >= 0 && isatty(STDERR_FILENO);
	wd.threads = (int)threads;
	wd.progress_fn = tty ? cli_progress_fn : NULL;
	wd.restoring = resume;
	if (st == SW_SUCCESS)
		st = sw_world_create(m, &wd, &w, &diag);
	if (st == SW_SUCCESS)
		cli_note("stepping on %d thread%s, outputs to %s/", sw_world_threads(w),
			 sw_world_threads(w) == 1 ? "" : "s", outdir);
	if (st == SW_SUCCESS && resume) {
		/* Before any folder or file is made: nothing to resume leaves nothing behind. */
		char ck_path[4200];
		cli_ckpt_path(ck_path, sizeof ck_path, outdir);
		if (access(ck_path, R_OK) != 0) {
			sw_diag_add(&diag, SW_SEV_ERROR, ck_path, 0, 0,
				    "cannot read the checkpoint: %s; expected the file a run with "
				    "--checkpoint-every left in its output directory",
				    strerror(errno));
			st = SW_EUSAGE;
		}
	}
	if (st == SW_SUCCESS)
		st = sw_output_open_ex(outdir, m, flags, &o, &diag);
	cli_ckpt ck = {o, outdir, every, every, halt_at, 0, &diag};
	if (st == SW_SUCCESS && resume) {
		st = cli_ckpt_resume(outdir, w, o, &diag);
		double t = sw_world_time(w);
		while (every > 0.0 && ck.next <= t + 1e-9 * fmax(1.0, t))
			ck.next += every;
	}
	if (st == SW_SUCCESS) {
		sw_output_attach(o, w);
		int ckpt = every > 0.0 || halt_at > 0.0;
		if (tty)
			cli_progress_start(wd.duration);
		st = sw_world_run(w, ckpt ? cli_ckpt_sample : sw_output_sample, ckpt ? (void *)&ck : o,
				  &diag);
		if (ck.halted) {
			sw_output_abort(o);
			cli_print_diag(&diag);
			fprintf(stderr, "swerve run: halted at t = %.9g s as asked; continue with "
					"--resume\n", sw_world_time(w));
			sw_world_destroy(w);
			sw_plan_free(plan);
			sw_model_free(m);
			return EXIT_RUNTIME;
		}
		if (st == SW_SUCCESS || st == SW_ENUMERIC || st == SW_EZENO || st == SW_EMODEL) {
			/* A runtime failure keeps everything up to the last good step. */
			char msg[SW_DIAG_MSG + SW_DIAG_FILE + 64] = "";
			cli_map_diag(&diag); /* a test case's lines in summary.json too */
			int last = diag.count - 1; /* the failure: the last error, not a warning */
			while (last >= 0 && diag.entry[last].severity != SW_SEV_ERROR)
				last--;
			if (st != SW_SUCCESS && last >= 0)
				sw_diag_format(&diag, last, msg, sizeof msg);
			int cst = sw_output_commit(o, w, st != SW_SUCCESS ? msg : NULL, &diag);
			if (st == SW_SUCCESS && (every > 0.0 || resume) && cst == SW_SUCCESS)
				cli_ckpt_remove(outdir); /* the run is complete */
			if (st == SW_SUCCESS)
				st = cst;
			else if (cst == SW_SUCCESS)
				fprintf(stderr, "swerve run: outputs up to t = %.9g s are in %s/\n",
					sw_world_time(w), outdir);
			o = NULL;
		}
	}
	if (st == SW_EIO)
		sw_output_report(o, &diag); /* which file, and why (ENOSPC: "No space left ...") */
	sw_output_abort(o);
	cli_print_diag(&diag);
	int code = cli_exit_code(st);
	if (st == SW_SUCCESS && cli_verbosity >= 0) {
		int reached = 0;
		for (int i = 0; i < m->n_agents; i++)
			reached += sw_world_metrics(w, i)->reached;
		fprintf(stderr, "swerve: %s: %d agents, %.6g s simulated, %d reached their target; outputs "
		       "in %s/ (trajectory.csv, events.jsonl, summary.json)\n",
		       m->name, m->n_agents, sw_world_time(w), reached, outdir);
	} else if (st != SW_SUCCESS && diag.count == 0) {
		fprintf(stderr, "swerve run: %s\n", sw_strerror(st));
	}
	sw_world_destroy(w);
	sw_plan_free(plan);
	sw_model_free(m);
	return code;
}
