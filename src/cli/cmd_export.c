/* cli/cmd_export.c - `swerve export`: a scenario's hybrid automaton for reachability checkers. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "swerve/export.h"

static void export_usage(FILE *f)
{
	fputs("usage: swerve export SCENARIO [--format spaceex|dot|json] [-o DIR]\n"
	      "                     [--profile spaceex|hyst|juliareach|exact]\n"
	      "                     [--initial AGENT.VAR=[LO,HI]]... [--linear]\n"
	      "\n"
	      "Writes the scenario's hybrid automaton network for reachability checkers:\n"
	      "SpaceEx XML + .cfg files (one per unsafe set; read by SpaceEx, HyST -> Flow*/dReach,\n"
	      "JuliaReach), Graphviz DOT, or JSON, plus report.txt listing every approximation.\n"
	      "Over-approximations are sound: a verifier's \"safe\" holds for the simulation.\n"
	      "See docs/export.md and export/README.md.\n"
	      "\n"
	      "options:\n"
	      "  -f, --format FMT        spaceex (default), dot or json\n"
	      "  -o, --output DIR        output directory (default out/NAME, NAME the scenario's)\n"
	      "      --profile P         expression language: spaceex, hyst, juliareach or exact;\n"
	      "                          default spaceex for --format spaceex, exact otherwise\n"
	      "  -i, --initial A.V=[L,H] widen the initial value of variable V of agent A\n"
	      "                          (repeatable; V is x, y, heading, speed, ... or an\n"
	      "                          automaton variable; a single number fixes it)\n"
	      "      --horizon S         cfg time-horizon in seconds (default: run duration)\n"
	      "      --sampling S        cfg sampling-time in seconds (default: run step)\n"
	      "      --directions D      cfg directions: box, oct (default) or uniN\n"
	      "      --algorithm A       cfg scenario: supp (default), stc, phaver or simu\n"
	      "      --linear            linear abstraction (a linear hybrid automaton): every\n"
	      "                          non-constant flow x' becomes an input rate_x bounded by\n"
	      "                          interval arithmetic over the location's region (x, y\n"
	      "                          within start +- v_max * horizon, ...); sound up to the\n"
	      "                          cfg time horizon; each bound is listed in report.txt\n"
	      "  -q, --quiet             no progress and no summary (errors only)\n"
	      "  -v, --verbose           also notes (what was loaded)\n"
	      "  -V, --version           the version\n"
	      "  -h, --help              this text\n"
	      "\n"
	      "Progress (on a terminal) and the summary go to standard error.\n"
	      "Exit status: 0 written, 1 write failure, 2 bad usage, bad input or a model that\n"
	      "cannot be exported soundly.\n",
	      f);
}

int cli_parse_initial(char *s, sw_export_range *r)
{
	char *eq = strchr(s, '=');
	if (!eq)
		return -1;
	*eq = '\0';
	char *dot = strrchr(s, '.');
	if (!dot || dot == s || !dot[1])
		return -1;
	*dot = '\0';
	r->agent = s;
	r->var = dot + 1;
	char *v = eq + 1, *end;
	if (*v == '[') {
		r->lo = strtod(v + 1, &end);
		if (end == v + 1 || *end != ',')
			return -1;
		v = end + 1;
		r->hi = strtod(v, &end);
		if (end == v || strcmp(end, "]") != 0)
			return -1;
	} else {
		r->lo = r->hi = strtod(v, &end);
		if (end == v || *end)
			return -1;
	}
	return 0;
}

static int positive(const char *s, double *out)
{
	char *end;
	*out = strtod(s, &end);
	return end != s && !*end && *out > 0 ? 0 : -1;
}

int cmd_export(int argc, char **argv)
{
	enum { OPT_HORIZON = 256, OPT_SAMPLING, OPT_DIRECTIONS, OPT_ALGORITHM, OPT_LINEAR, OPT_PROFILE };
	static const struct option opts[] = {{"format", required_argument, NULL, 'f'},
					     {"output", required_argument, NULL, 'o'},
					     {"profile", required_argument, NULL, OPT_PROFILE},
					     {"initial", required_argument, NULL, 'i'},
					     {"horizon", required_argument, NULL, OPT_HORIZON},
					     {"sampling", required_argument, NULL, OPT_SAMPLING},
					     {"directions", required_argument, NULL, OPT_DIRECTIONS},
					     {"algorithm", required_argument, NULL, OPT_ALGORITHM},
					     {"linear", no_argument, NULL, OPT_LINEAR},
					     CLI_LONG};
	sw_export_def def = sw_default_export_def();
	sw_export_format fmt = SW_EXPORT_SPACEEX;
	const char *dir = NULL, *profile = NULL;
	sw_export_range *ranges = calloc((size_t)argc + 1, sizeof *ranges);
	if (!ranges)
		return EXIT_RUNTIME;
	int n_ranges = 0, c, bad = 0;
	optind = 1;
	while (!bad && (c = getopt_long(argc, argv, ":f:o:i:" CLI_SHORT, opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "spaceex") == 0)
				fmt = SW_EXPORT_SPACEEX;
			else if (strcmp(optarg, "dot") == 0)
				fmt = SW_EXPORT_DOT;
			else if (strcmp(optarg, "json") == 0)
				fmt = SW_EXPORT_JSON;
			else
				bad = fprintf(stderr, "swerve export: unknown format '%s'; expected "
						      "spaceex, dot or json\n",
					      optarg);
			break;
		case 'o': dir = optarg; break;
		case OPT_PROFILE: profile = optarg; break;
		case 'i':
			if (cli_parse_initial(optarg, &ranges[n_ranges]) != 0)
				bad = fprintf(stderr, "swerve export: --initial expects AGENT.VAR=[LO,HI] "
						      "or AGENT.VAR=VALUE\n");
			else
				n_ranges++;
			break;
		case OPT_HORIZON:
			if (positive(optarg, &def.time_horizon))
				bad = fprintf(stderr, "swerve export: --horizon expects seconds > 0\n");
			break;
		case OPT_SAMPLING:
			if (positive(optarg, &def.sampling_time))
				bad = fprintf(stderr, "swerve export: --sampling expects seconds > 0\n");
			break;
		case OPT_DIRECTIONS: def.directions = optarg; break;
		case OPT_ALGORITHM: def.scenario = optarg; break;
		case OPT_LINEAR: def.linear = 1; break;
		default: {
			int code = cli_option(c, argv, opts, export_usage);
			if (code >= 0) {
				free(ranges);
				return code;
			}
		}
		}
	}
	if (!bad && dir && cli_output_option("-o", dir)) {
		free(ranges);
		return EXIT_BAD_INPUT;
	}
	if (!bad && optind != argc - 1)
		bad = fprintf(stderr, "swerve export: expected exactly one scenario file\n");
	def.profile = fmt == SW_EXPORT_SPACEEX ? SW_PROFILE_SPACEEX : SW_PROFILE_EXACT;
	if (!bad && profile && sw_export_profile_parse(profile, &def.profile) != SW_SUCCESS)
		bad = fprintf(stderr, "swerve export: unknown profile '%s'; expected spaceex, hyst, "
				      "juliareach or exact\n",
			      profile);
	if (!bad && fmt == SW_EXPORT_SPACEEX && def.profile == SW_PROFILE_EXACT)
		bad = fprintf(stderr, "swerve export: the exact profile keeps functions SpaceEx "
				      "cannot read; use it with --format dot or json\n");
	if (bad) {
		cli_try_help();
		free(ranges);
		return EXIT_BAD_INPUT;
	}
	def.n_ranges = n_ranges;
	def.ranges = ranges;
	if (cli_verbosity >= 0 && isatty(STDERR_FILENO))
		def.progress = cli_progress_fn;
	static sw_diag diag;
	cli_diag_init(&diag);
	sw_model *m = NULL;
	int st = cli_read_model(argv[optind], 0, 0, 0.0, &m, NULL, &diag);
	if (st != SW_SUCCESS) {
		cli_print_diag(&diag);
		free(ranges);
		return cli_load_exit_code(st);
	}
	cli_note_model(argv[optind], m, NULL);
	if (def.time_horizon <= 0)
		def.time_horizon = m->run.duration;
	if (def.sampling_time <= 0)
		def.sampling_time = m->run.step;
	sw_hybrid *h = NULL;
	st = sw_hybrid_build(m, &def, &h, &diag);
	/* Default folder out/NAME/, as `run`: the files are named after the scenario, and in the
	 * scenario's own folder NAME.xml would be the scenario itself. */
	char defdir[SW_NAME_MAX + 8], mainfile[4096 + 2 * SW_NAME_MAX];
	if (!dir) {
		char safe[SW_NAME_MAX];
		cli_safe_name(m->name, safe, sizeof safe);
		snprintf(defdir, sizeof defdir, "out/%s", safe);
		dir = defdir;
	}
	if (st == SW_SUCCESS) {
		snprintf(mainfile, sizeof mainfile, "%s/%s.%s", dir, h->name,
			 fmt == SW_EXPORT_SPACEEX ? "xml" : fmt == SW_EXPORT_DOT ? "dot" : "json");
		if (cli_refuse_input("export", mainfile, m)) {
			cli_print_diag(&diag);
			sw_hybrid_free(h);
			sw_model_free(m);
			free(ranges);
			return EXIT_BAD_INPUT;
		}
		st = sw_hybrid_write(h, fmt, dir, &diag);
	}
	cli_print_diag(&diag);
	if (st == SW_SUCCESS && cli_verbosity >= 0) {
		int sound = 0;
		for (int k = 0; k < h->n_approx; k++)
			sound += h->approx[k].sound;
		fprintf(stderr,
			"swerve export: wrote %s (profile %s) to %s: %d components, %d instances, %d "
			"unsafe sets; %d over-approximations and %d other differences listed in "
			"%s/report.txt\n",
			h->name, sw_export_profile_name(h->def.profile), dir, h->n_components,
			h->n_instances, h->n_forbidden, sound, h->n_approx - sound, dir);
	}
	sw_hybrid_free(h);
	sw_model_free(m);
	free(ranges);
	return st == SW_EIO || st == SW_ENOMEM ? EXIT_RUNTIME : cli_exit_code(st);
}
