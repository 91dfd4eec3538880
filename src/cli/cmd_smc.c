/* cli/cmd_smc.c - `swerve smc`: statistical model checking of a property over runs with seeds
 * base, base + 1, ...: the probability with a Clopper-Pearson (or Wilson) interval, a fixed
 * number of runs or sequentially until the interval is narrow enough, or Wald's SPRT against a
 * threshold.  Runs are computed in batches over MPI ranks and threads; the stopping rule scans
 * the results in run order, so the answer does not depend on ranks, threads or batch size. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void smc_usage(FILE *f)
{
	fputs(
	    "usage: swerve smc SCENARIO PROPERTY-OPTIONS [OPTIONS]\n"
	    "\n"
	    "Estimates the probability that a run of SCENARIO satisfies a property, over runs\n"
	    "with seeds S, S+1, ... (S the scenario seed or --seed; `swerve run --seed` replays\n"
	    "one).  Runs write no files.  Parallel over threads, and over MPI ranks with\n"
	    "`mpirun -n N swerve smc ...`; the result is the same for any N.  Guide:\n"
	    "docs/ensembles.md.\n"
	    "\n"
	    "property (several are joined with `and`):\n"
	    "  -P, --property EXPR   boolean expression over the run, e.g.\n"
	    "                        'reach(walker, goal) <= 20 and min_clearance(walker) > 0.1'\n"
	    "      --reach A:T[:TIME]  agent A reaches target T (within TIME s)\n"
	    "      --safe            no agent ever overlaps an obstacle\n"
	    "      --mode U:M[:TIME] agent or signal U enters mode M (within TIME s)\n"
	    "\n"
	    "stopping (default: --runs 1000):\n"
	    "  -n, --runs N          exactly N runs (seeds S .. S+N-1)\n"
	    "      --width W         runs until the interval is at most W wide\n"
	    "      --sprt THETA      Wald's SPRT: is the probability above or below THETA?\n"
	    "      --indifference D  SPRT indifference half-width (default 0.01)\n"
	    "      --alpha A, --beta B  SPRT error bounds (default 0.05 each)\n"
	    "      --max-runs N      most runs of --width and --sprt (default 100000)\n"
	    "\n"
	    "options:\n"
	    "  -c, --confidence C    interval confidence (default 0.95)\n"
	    "      --wilson          Wilson score interval instead of Clopper-Pearson\n"
	    "      --failed-as V     a failed run counts as false (default) or true\n"
	    "  -s, --seed S          first seed (default: the scenario's)\n"
	    "  -d, --duration T      override the simulated duration, s\n"
	    "  -p, --param NAME=V    override a scenario value (names: docs/ensembles.md)\n"
	    "  -j, --threads N       threads per process (default: cores; 1 per MPI rank)\n"
	    "  -b, --batch N         runs per batch between stopping checks (default 256)\n"
	    "      --csv FILE        also write the summary of every counted run as CSV\n"
	    "  -q, --quiet           no progress and no notes on stderr beyond errors and\n"
	    "                        failed runs\n"
	    "  -v, --verbose         also notes (what was loaded, threads)\n"
	    "  -V, --version         the version\n"
	    "  -h, --help            this text\n"
	    "\n"
	    "Prints `key: value` lines (estimate, interval, runs, successes, failed, ...) on\n"
	    "standard output; progress (on a terminal: runs so far and runs per second),\n"
	    "notes and errors go to standard error.\n"
	    "Exit status 1 when any run failed (listed; counted as --failed-as says).\n",
	    f);
}

static int add_part(char *buf, size_t n, const char *part)
{
	size_t len = strlen(buf);
	int w = snprintf(buf + len, n - len, "%s(%s)", len ? " and " : "", part);
	return w < 0 || (size_t)w >= n - len ? -1 : 0;
}

/* A:B[:C] into a, b and c ("" when absent); returns the number of fields or -1. */
static int split3(const char *s, char *a, char *b, char *c, size_t n)
{
	const char *p1 = strchr(s, ':'), *p2 = p1 ? strchr(p1 + 1, ':') : NULL;
	if (!p1 || (p2 && strchr(p2 + 1, ':')) || strlen(s) >= n)
		return -1;
	snprintf(a, n, "%.*s", (int)(p1 - s), s);
	snprintf(b, n, "%.*s", (int)((p2 ? p2 : s + strlen(s)) - p1 - 1), p1 + 1);
	snprintf(c, n, "%s", p2 ? p2 + 1 : "");
	return p2 ? 3 : 2;
}

/* --reach A:T[:TIME] and --mode U:M[:TIME] as expressions. */
static int shorthand(int reach, const char *arg, char *prop, size_t n)
{
	char a[128], b[128], c[128], part[512];
	double t;
	int k = split3(arg, a, b, c, sizeof a);
	if (k < 0 || !*a || !*b ||
	    (k == 3 && cli_number("smc", reach ? "--reach" : "--mode", c, 0.0, &t))) {
		fprintf(
		    stderr, "swerve smc: %s '%s': expected %s\n", reach ? "--reach" : "--mode", arg,
		    reach ? "AGENT:TARGET or AGENT:TARGET:TIME" : "UNIT:MODE or UNIT:MODE:TIME");
		return -1;
	}
	if (reach)
		snprintf(part, sizeof part, "reach(%s, %s) <= %s", a, b, k == 3 ? c : "t_end");
	else if (k == 3)
		snprintf(part, sizeof part, "visit(%s, %s) <= %s", a, b, c);
	else
		snprintf(part, sizeof part, "visited(%s, %s)", a, b);
	return add_part(prop, n, part);
}

static int count_opt(const char *opt, const char *text, int64_t max, int64_t *out)
{
	char *end = NULL;
	errno = 0;
	double v = strtod(text, &end);
	if (errno || !*text || *end || !(v >= 1.0) || v != floor(v) || v > (double)max) {
		cli_usage_error("%s '%s': expected a whole number in 1..%lld", opt, text,
				(long long)max);
		return -1;
	}
	*out = (int64_t)v;
	return 0;
}

static void report(const sw_ens_tally *t, const sw_ens_stop *s, const char *prop, int64_t computed)
{
	printf("property: %s\n", prop);
	printf("runs: %" PRId64 "\n", t->n);
	printf("successes: %" PRId64 "\n", t->k);
	printf("failed: %" PRId64 "\n", t->failed);
	printf("estimate: %.9g\n", t->n ? (double)t->k / (double)t->n : NAN);
	printf("interval: %.9g %.9g\n", t->lo, t->hi);
	printf("method: %s, confidence %g\n", s->wilson ? "wilson" : "clopper-pearson", s->conf);
	printf("stopped: %s\n", t->why ? t->why : "runs");
	if (s->use_sprt)
		printf("sprt: %s (theta %g, indifference %g, alpha %g, beta %g, llr %.9g)\n",
		       t->decision > 0   ? "above"
		       : t->decision < 0 ? "below"
					 : "undecided",
		       s->sprt.theta, s->sprt.delta, s->sprt.alpha, s->sprt.beta, t->llr);
	/* On stderr: how far the last batch overshot depends on the batch size. */
	if (computed > t->n && cli_verbosity >= 0)
		fprintf(stderr,
			"swerve smc: %" PRId64 " runs computed, %" PRId64 " of them beyond the "
			"stopping point (not counted)\n",
			computed, computed - t->n);
}

static int64_t list_failures(const sw_ens_result *r, int64_t count, int64_t used_before,
			     int64_t used)
{
	int64_t n = 0;
	for (int64_t j = 0; j < count; j++) {
		if (r[j].status == SW_SUCCESS)
			continue;
		n++;
		printf("failed-run: %lld seed %llu%s: %s\n", (long long)r[j].run,
		       (unsigned long long)r[j].seed,
		       r[j].run >= used_before + used ? " (beyond the stopping point)" : "",
		       r[j].message);
	}
	return n;
}

int cmd_smc(int argc, char **argv)
{
	static const struct option opts[] = {{"property", required_argument, NULL, 'P'},
					     {"reach", required_argument, NULL, 'R'},
					     {"safe", no_argument, NULL, 'S'},
					     {"mode", required_argument, NULL, 'M'},
					     {"runs", required_argument, NULL, 'n'},
					     {"width", required_argument, NULL, 'L'},
					     {"sprt", required_argument, NULL, 'T'},
					     {"indifference", required_argument, NULL, 'D'},
					     {"alpha", required_argument, NULL, 'A'},
					     {"beta", required_argument, NULL, 'B'},
					     {"max-runs", required_argument, NULL, 'X'},
					     {"confidence", required_argument, NULL, 'c'},
					     {"wilson", no_argument, NULL, 'W'},
					     {"failed-as", required_argument, NULL, 'F'},
					     {"seed", required_argument, NULL, 's'},
					     {"duration", required_argument, NULL, 'd'},
					     {"param", required_argument, NULL, 'p'},
					     {"threads", required_argument, NULL, 'j'},
					     {"batch", required_argument, NULL, 'b'},
					     {"csv", required_argument, NULL, 'C'},
					     CLI_LONG};
	static char prop[4096];
	static cli_param params[CLI_PARAMS];
	int n_params = 0, have_seed = 0, c;
	int64_t runs = 0, max_runs = 100000, batch = 256, threads = 0;
	double duration = 0.0, v;
	uint64_t seed = 0;
	const char *csv = NULL;
	sw_ens_stop stop = {0};
	stop.conf = 0.95;
	stop.sprt = (sw_ens_sprt){0.0, 0.01, 0.05, 0.05};
	prop[0] = '\0';
	optind = 1;
	while ((c = getopt_long(argc, argv, ":P:n:c:s:d:p:j:b:" CLI_SHORT, opts, NULL)) != -1) {
		int bad = 0;
		switch (c) {
		case 'P': bad = add_part(prop, sizeof prop, optarg); break;
		case 'R': bad = shorthand(1, optarg, prop, sizeof prop); break;
		case 'M': bad = shorthand(0, optarg, prop, sizeof prop); break;
		case 'S': bad = add_part(prop, sizeof prop, "safe()"); break;
		case 'n': bad = count_opt("--runs", optarg, CLI_MAX_RUNS, &runs); break;
		case 'X': bad = count_opt("--max-runs", optarg, CLI_MAX_RUNS, &max_runs); break;
		case 'b': bad = count_opt("--batch", optarg, CLI_MAX_BATCH, &batch); break;
		case 'j': bad = count_opt("--threads", optarg, CLI_MAX_THREADS, &threads); break;
		case 'L': bad = cli_number("smc", "--width", optarg, 1e-9, &stop.width); break;
		case 'T':
			stop.use_sprt = 1;
			bad = cli_number("smc", "--sprt", optarg, 0.0, &stop.sprt.theta);
			break;
		case 'D':
			bad = cli_number("smc", "--indifference", optarg, 0, &stop.sprt.delta);
			break;
		case 'A': bad = cli_number("smc", "--alpha", optarg, 0.0, &stop.sprt.alpha); break;
		case 'B': bad = cli_number("smc", "--beta", optarg, 0.0, &stop.sprt.beta); break;
		case 'c':
			bad = cli_number("smc", "--confidence", optarg, 0.0, &stop.conf);
			if (!bad && !(stop.conf > 0.0 && stop.conf < 1.0))
				bad = 1, cli_usage_error("--confidence: expected a number in (0, 1)");
			break;
		case 'W': stop.wilson = 1; break;
		case 'F':
			if (strcmp(optarg, "false") == 0 || strcmp(optarg, "true") == 0)
				stop.failed_as = optarg[0] == 't';
			else
				bad = 1, cli_usage_error("--failed-as '%s': expected false or true",
							 optarg);
			break;
		case 's':
			if (cli_number("smc", "--seed", optarg, 0.0, &v))
				return EXIT_BAD_INPUT;
			if (v != floor(v) || v > 1e18)
				return cli_usage_error("--seed: expected a non-negative integer");
			seed = (uint64_t)v;
			have_seed = 1;
			break;
		case 'd': bad = cli_number("smc", "--duration", optarg, 1e-9, &duration); break;
		case 'p':
			if (n_params == CLI_PARAMS)
				return cli_usage_error("more than %d --param", CLI_PARAMS);
			bad = cli_param_parse("smc", optarg, 0, &params[n_params++]);
			break;
		case 'C':
			if (cli_output_option("--csv", optarg))
				return EXIT_BAD_INPUT;
			csv = optarg;
			break;
		default: {
			int code = cli_option(c, argv, opts, smc_usage);
			if (code >= 0)
				return code;
		}
		}
		if (bad) {
			if (c == 'P' || c == 'S')
				cli_usage_error("the property is too long");
			else if (c == 'p' || c == 'R' || c == 'M')
				cli_try_help(); /* after the message of the option's parser */
			return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc - 1 || !prop[0])
		return cli_usage_error("expected one scenario file and a property (--property, "
				       "--reach, --safe or --mode)");
	if (stop.use_sprt && !sw_ens_sprt_valid(&stop.sprt)) {
		return cli_usage_error("--sprt %g with --indifference %g: expected 0 < THETA - D < "
				       "THETA + D < 1, and --alpha, --beta in (0, 0.5)",
				       stop.sprt.theta, stop.sprt.delta);
	}
	if (runs && (stop.width > 0.0 || stop.use_sprt))
		return cli_usage_error("--runs fixes the number of runs; it does not combine with "
				       "--width or --sprt (use --max-runs)");
	stop.max_runs = runs ? runs : stop.width > 0.0 || stop.use_sprt ? max_runs : 1000;

	cli_ens ens;
	int code = cli_ens_init(&ens, "smc");
	if (code != EXIT_OK)
		return cli_ens_finish(&ens, code);
	sw_model **models = calloc(1, sizeof *models);
	sw_ens_property **props = calloc(1, sizeof *props);
	sw_plan **plans = calloc(1, sizeof *plans);
	sw_ens_result *res = calloc((size_t)batch, sizeof *res);
	if (!models || !props || !plans || !res) {
		fprintf(stderr, "swerve smc: out of memory\n");
		code = EXIT_RUNTIME;
	} else {
		code = cli_grid_load("smc", argv[optind], params, n_params, 1, prop, models,
				     props, plans);
	}
	char tmp[4200];
	FILE *out = NULL;
	if (code == EXIT_OK && csv && ens.rank == 0) {
		code = cli_out_open("smc", csv, models[0], tmp, sizeof tmp, &out);
	}
	code = cli_ens_bcast(&ens, code);
	if (code != EXIT_OK) {
		cli_grid_free(models, props, plans, 1);
		free(res);
		return cli_ens_finish(&ens, code);
	}
	if (out)
		cli_csv_header(out, params, 0);
	sw_ens_plan plan = {1, (const sw_model *const *)models,
			    (const sw_ens_property *const *)props, INT64_MAX,
			    have_seed ? seed : models[0]->run.seed, duration,
			    (const sw_plan *const *)plans};
	sw_ens_tally tally;
	sw_ens_tally_init(&tally);
	int64_t first = 0, n_failed = 0;
	int st = SW_SUCCESS, done = 0;
	int nthreads = cli_ens_threads(&ens, (int)threads);
	cli_note("property %s; at most %lld runs in batches of %lld, %d thread%s per process, %d "
		 "process%s",
		 prop, (long long)stop.max_runs, (long long)batch, nthreads,
		 nthreads == 1 ? "" : "s", ens.size, ens.size == 1 ? "" : "es");
	/* Progress as run's (a terminal, not -q; rank 0): runs so far, after every batch, of a
	 * fixed number (--runs, the default) or of at most --max-runs (--width, --sprt). */
	int tty = ens.rank == 0 && cli_verbosity >= 0 && isatty(STDERR_FILENO);
	int upto = stop.width > 0.0 || stop.use_sprt;
	if (tty) {
		cli_progress_start(0.0);
		cli_progress_runs(0, stop.max_runs, upto, 0);
	}
	while (!done) {
		int64_t count = batch < stop.max_runs - first ? batch : stop.max_runs - first;
		st = cli_ens_batch(&ens, &plan, first, count, nthreads, res);
		if (st != SW_SUCCESS)
			break;
		if (ens.rank == 0) {
			int64_t before = tally.n;
			int64_t used = sw_ens_scan(&tally, &stop, res, count);
			n_failed += list_failures(res, count, before, used);
			for (int64_t j = 0; out && j < used; j++)
				cli_csv_row(out, &res[j], params, 0);
			done = tally.done;
			if (tty)
				cli_progress_runs(tally.n, stop.max_runs, upto, done);
		}
		first += count;
		done = cli_ens_bcast(&ens, done);
	}
	if (tty && st != SW_SUCCESS)
		fputc('\n', stderr); /* end the progress line */
	if (st != SW_SUCCESS) {
		fprintf(stderr, "swerve smc: %s\n", sw_strerror(st));
		code = EXIT_RUNTIME;
	} else if (ens.rank == 0) {
		report(&tally, &stop, prop, first);
		if (n_failed)
			fprintf(stderr,
				"swerve smc: %lld runs failed (listed as failed-run; counted "
				"as %s)\n",
				(long long)n_failed, stop.failed_as ? "true" : "false");
		code = n_failed ? EXIT_RUNTIME : EXIT_OK;
	}
	if (out && cli_out_close("smc", out, csv, tmp, st == SW_SUCCESS) != 0)
		code = EXIT_RUNTIME;
	cli_grid_free(models, props, plans, 1);
	free(res);
	return cli_ens_finish(&ens, code);
}
