/* cli/cmd_sweep.c - `swerve sweep`: a grid of parameter values x seeds, one CSV row per run.
 * Every grid point is loaded (and checked) before the first run, so bad input writes nothing;
 * runs are computed in batches over MPI ranks and threads and written by rank 0 in run order. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void sweep_usage(FILE *f)
{
	fputs("usage: swerve sweep SCENARIO [--param NAME=LO:HI:STEP]... [OPTIONS]\n"
	      "\n"
	      "Runs SCENARIO at every point of the grid of the --param values (the last --param\n"
	      "varies fastest) with seeds S .. S+N-1 each, and writes one CSV row per run: run,\n"
	      "point, seed, the parameter values, status (ok or failed), property, t_end, agents,\n"
	      "reached, mean_t_reached, mean_path, min_clearance, min_agent_clearance,\n"
	      "collisions, agent_collisions, message.  Failed runs are rows too.  Parallel over\n"
	      "threads, and over MPI ranks with `mpirun -n N swerve sweep ...`: the CSV is the\n"
	      "same for any N.  Guide: docs/ensembles.md.\n"
	      "\n"
	      "options:\n"
	      "  -p, --param NAME=SPEC  NAME (run.duration, walker.glm.d0, group1.bind.wait,\n"
	      "                         *.glm.d0 or d0 ...: docs/ensembles.md) over SPEC:\n"
	      "                         LO:HI:STEP, V1,V2,... or one value\n"
	      "  -n, --runs N           runs at each grid point, with seeds S .. S+N-1 (default\n"
	      "                         1; --seeds N says the same)\n"
	      "  -s, --seed S           first seed (default: the scenario's)\n"
	      "  -d, --duration T       override the simulated duration, s\n"
	      "  -P, --property EXPR    also evaluate a property per run (column property)\n"
	      "  -o, --output FILE      the CSV file (default: standard output)\n"
	      "  -j, --threads N        threads per process (default: cores; 1 per MPI rank)\n"
	      "  -q, --quiet            errors only on stderr (no progress)\n"
	      "  -v, --verbose          also notes (grid size, threads)\n"
	      "  -V, --version          the version\n"
	      "  -h, --help             this text\n"
	      "\n"
	      "The CSV goes to standard output unless -o is given; progress (on a terminal: runs\n"
	      "done, runs per second, time left), notes and errors to standard error.  Exit\n"
	      "status 1 when any run failed (its row says why).\n",
	      f);
}

/* A whole number from lo to hi for option opt into *out; else a usage error (returns 1). */
static int whole(const char *opt, const char *text, double lo, double hi, double *out)
{
	char *end = NULL;
	errno = 0;
	*out = strtod(text, &end);
	if (errno || !*text || *end || !(*out >= lo && *out <= hi) || *out != floor(*out)) {
		cli_usage_error("%s '%s': expected a whole number from %.0f to %.0f", opt, text, lo,
				hi);
		return 1;
	}
	return 0;
}

int cmd_sweep(int argc, char **argv)
{
	static const struct option opts[] = {{"param", required_argument, NULL, 'p'},
					     {"runs", required_argument, NULL, 'n'},
					     {"seeds", required_argument, NULL, 'n'},
					     {"seed", required_argument, NULL, 's'},
					     {"duration", required_argument, NULL, 'd'},
					     {"property", required_argument, NULL, 'P'},
					     {"output", required_argument, NULL, 'o'},
					     {"threads", required_argument, NULL, 'j'},
					     CLI_LONG};
	static cli_param params[CLI_PARAMS];
	int n_params = 0, have_seed = 0, c;
	double seeds = 1, duration = 0.0, threads = 0, v;
	uint64_t seed = 0;
	const char *property = NULL, *output = NULL;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":p:n:s:d:P:o:j:" CLI_SHORT, opts, NULL)) != -1) {
		int bad = 0;
		switch (c) {
		case 'p':
			if (n_params == CLI_PARAMS)
				return cli_usage_error("more than %d --param", CLI_PARAMS);
			bad = cli_param_parse("sweep", optarg, 1, &params[n_params++]);
			break;
		case 'n': bad = whole("--runs", optarg, 1.0, (double)CLI_MAX_RUNS, &seeds); break;
		case 's':
			bad = whole("--seed", optarg, 0.0, 1e18, &v);
			seed = (uint64_t)v;
			have_seed = 1;
			break;
		case 'd': bad = cli_number("sweep", "--duration", optarg, 1e-9, &duration); break;
		case 'P': property = optarg; break;
		case 'o':
			if (cli_output_option("-o", optarg))
				return EXIT_BAD_INPUT;
			output = optarg;
			break;
		case 'j': bad = whole("--threads", optarg, 1.0, CLI_MAX_THREADS, &threads); break;
		default: {
			int code = cli_option(c, argv, opts, sweep_usage);
			if (code >= 0)
				return code;
		}
		}
		if (bad) {
			if (c == 'p')
				cli_try_help();
			return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc - 1)
		return cli_usage_error("expected exactly one scenario file");
	for (int i = 0; i < n_params; i++)
		for (int k = 0; k < i; k++)
			if (strcmp(params[i].name, params[k].name) == 0)
				return cli_usage_error("--param %s given twice", params[i].name);
	int64_t points = cli_grid_points(params, n_params);
	if (points > 1000000 || (double)points * seeds > (double)CLI_MAX_RUNS) {
		fprintf(stderr,
			"swerve sweep: %lld grid points x %.0f seeds: too many runs; expected at "
			"most %lld in all\n",
			(long long)points, seeds, CLI_MAX_RUNS);
		return EXIT_BAD_INPUT;
	}
	cli_ens ens;
	int code = cli_ens_init(&ens, "sweep");
	if (code != EXIT_OK)
		return cli_ens_finish(&ens, code);
	enum { BATCH = 1024 };
	sw_model **models = calloc((size_t)points, sizeof *models);
	sw_ens_property **props = calloc((size_t)points, sizeof *props);
	sw_plan **plans = calloc((size_t)points, sizeof *plans);
	sw_ens_result *res = calloc(BATCH, sizeof *res);
	if (!models || !props || !plans || !res) {
		fprintf(stderr, "swerve sweep: out of memory\n");
		code = EXIT_RUNTIME;
	} else {
		code = cli_grid_load("sweep", argv[optind], params, n_params, points, property,
				     models, props, plans);
	}
	char tmp[4200];
	FILE *out = NULL;
	if (code == EXIT_OK && ens.rank == 0) {
		code = cli_out_open("sweep", output, models[0], tmp, sizeof tmp, &out);
	}
	code = cli_ens_bcast(&ens, code);
	if (code != EXIT_OK) {
		cli_grid_free(models, props, plans, points);
		free(res);
		return cli_ens_finish(&ens, code);
	}
	sw_ens_plan plan = {(int)points, (const sw_model *const *)models,
			    (const sw_ens_property *const *)props, (int64_t)seeds,
			    have_seed ? seed : models[0]->run.seed, duration,
			    (const sw_plan *const *)plans};
	int64_t total = sw_ens_plan_runs(&plan), failed = 0;
	int st = SW_SUCCESS, nthreads = cli_ens_threads(&ens, (int)threads);
	cli_note("%lld grid points x %.0f seeds = %lld runs, %d thread%s per process, %d "
		 "process%s",
		 (long long)points, seeds, (long long)total, nthreads, nthreads == 1 ? "" : "s",
		 ens.size, ens.size == 1 ? "" : "es");
	if (out)
		cli_csv_header(out, params, n_params);
	/* Progress as run's (a terminal, not -q; rank 0): batches of about 1/50 of the runs, at
	 * least four per thread, so that the line moves; the rows do not depend on the batches. */
	int tty = ens.rank == 0 && cli_verbosity >= 0 && isatty(STDERR_FILENO);
	int64_t step = BATCH;
	if (tty) {
		step = (total + 49) / 50;
		step = step < 4 * (int64_t)nthreads ? 4 * (int64_t)nthreads : step;
		step = step > BATCH ? BATCH : step;
		cli_progress_start(0.0);
		cli_progress_runs(0, total, 0, 0);
	}
	for (int64_t first = 0; first < total && st == SW_SUCCESS; first += step) {
		int64_t count = total - first < step ? total - first : step;
		st = cli_ens_batch(&ens, &plan, first, count, nthreads, res);
		for (int64_t j = 0; out && st == SW_SUCCESS && j < count; j++) {
			cli_csv_row(out, &res[j], params, n_params);
			failed += res[j].status != SW_SUCCESS;
		}
		if (tty && st == SW_SUCCESS)
			cli_progress_runs(first + count, total, 0, first + count == total);
	}
	if (tty && st != SW_SUCCESS)
		fputc('\n', stderr); /* end the progress line */
	if (st != SW_SUCCESS) {
		fprintf(stderr, "swerve sweep: %s\n", sw_strerror(st));
		code = EXIT_RUNTIME;
	} else if (failed) {
		fprintf(stderr,
			"swerve sweep: %lld of %lld runs failed (status failed, message in "
			"the CSV)\n",
			(long long)failed, (long long)total);
		code = EXIT_RUNTIME;
	}
	if (out && cli_out_close("sweep", out, output, tmp, st == SW_SUCCESS) != 0)
		code = EXIT_RUNTIME;
	cli_grid_free(models, props, plans, points);
	free(res);
	return cli_ens_finish(&ens, code);
}
