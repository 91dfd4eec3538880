/* cli/cmd_import.c - `swerve import-steersuite`: a SteerSuite test case as a swerve scenario. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void import_usage(FILE *f)
{
	fputs("usage: swerve import-steersuite CASE.xml -o SCENARIO.xml [OPTIONS]\n"
	      "\n"
	      "Reads a SteerSuite test case (root <SteerBenchTestCase> in the namespace\n"
	      "http://www.magix.ucla.edu/steerbench) and writes the equivalent swerve scenario,\n"
	      "its generated behaviour automata inline (docs/steersuite.md).  `swerve run` of the\n"
	      "written file and of the test case itself (same seed) are the same run.\n"
	      "\n"
	      "options:\n"
	      "  -o, --output FILE    the scenario file to write (required)\n"
	      "  -s, --seed N         seed of the random placements and of the run (default 1)\n"
	      "  -d, --duration T     run duration, s (default: the largest sum of an agent's\n"
	      "                       goal time budgets)\n"
	      "      --step H         run step, s (default 0.01: the time-to-collision law of\n"
	      "                       the pedestrian goals needs it)\n"
	      "      --frame F        SteerBench frame, s (default 0.05, SteerSuite's 20 frames\n"
	      "                       per second; one step when not a whole number of steps)\n"
	      "      --no-fields      no navigation fields (default: one per place the goals\n"
	      "                       lead to, within a node budget; docs/steersuite.md)\n"
	      "      --no-squeeze     a walker stalled by others again after a detour turns\n"
	      "                       aside again (default: it squeezes past them for up to\n"
	      "                       3 s, a ghost mode whose overlaps are counted;\n"
	      "                       docs/steersuite.md)\n"
	      "      --squeeze        the default, kept for scripts that name it\n"
	      "  -q, -v, -V, -h       quiet, verbose, version, this text\n",
	      f);
}

/* Writes len bytes of text to path atomically (sw_atomic_open), so that a failure never leaves
 * a partial file.  Returns 0, or -1 with errno set. */
static int write_atomic(const char *path, const char *text, size_t len)
{
	size_t n = SW_ATOMIC_TMP_LEN(strlen(path));
	char *tmp = malloc(n);
	if (!tmp)
		return -1;
	FILE *f = sw_atomic_open(path, tmp, n, NULL);
	int st = SW_EIO;
	if (f && fwrite(text, 1, len, f) == len)
		st = sw_atomic_commit(f, tmp, path, NULL);
	else if (f)
		sw_atomic_abort(f, tmp);
	int err = errno;
	free(tmp);
	errno = err;
	return st == SW_SUCCESS ? 0 : -1;
}

int cmd_import(int argc, char **argv)
{
	static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
					     {"seed", required_argument, NULL, 's'},
					     {"duration", required_argument, NULL, 'd'},
					     {"step", required_argument, NULL, 'S'},
					     {"frame", required_argument, NULL, 'F'},
					     {"no-fields", no_argument, NULL, 'N'},
					     {"squeeze", no_argument, NULL, 'Q'},
					     {"no-squeeze", no_argument, NULL, 'P'},
					     CLI_LONG};
	const char *out = NULL;
	sw_steersuite_def def = sw_default_steersuite_def();
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:s:d:" CLI_SHORT, opts, NULL)) != -1) {
		char *end = NULL;
		switch (c) {
		case 'o':
			if (cli_output_option("-o", optarg))
				return EXIT_BAD_INPUT;
			out = optarg;
			break;
		case 's':
			errno = 0;
			def.seed = strtoull(optarg, &end, 10);
			if (errno || !*optarg || *end || optarg[0] == '-') {
				return cli_usage_error("--seed '%s': expected a non-negative integer",
						       optarg);
			}
			break;
		case 'd':
			if (cli_number("import-steersuite", "--duration", optarg, 1e-9,
				       &def.duration))
				return EXIT_BAD_INPUT;
			break;
		case 'S':
			if (cli_number("import-steersuite", "--step", optarg, 1e-9, &def.step))
				return EXIT_BAD_INPUT;
			break;
		case 'F':
			if (cli_number("import-steersuite", "--frame", optarg, 1e-9, &def.frame))
				return EXIT_BAD_INPUT;
			break;
		case 'N':
			def.fields = 0;
			break;
		case 'Q':
			def.squeeze = 1;
			break;
		case 'P':
			def.squeeze = 0;
			break;
		default: {
			int code = cli_option(c, argv, opts, import_usage);
			if (code >= 0)
				return code;
		}
		}
	}
	if (optind != argc - 1 || !out)
		return cli_usage_error("expected one test case and -o FILE");
	static sw_diag diag;
	cli_diag_init(&diag);
	char *xml = NULL;
	size_t len = 0;
	sw_model *m = NULL;
	/* The model is loaded too: only a scenario that reads back is written. */
	int st = sw_steersuite_import(argv[optind], &def, &xml, &len, &m, &diag);
	cli_print_diag(&diag);
	if (st != SW_SUCCESS)
		return cli_load_exit_code(st);
	int code = EXIT_OK;
	if (cli_refuse_input("import-steersuite", out, m))
		code = EXIT_BAD_INPUT;
	else if (write_atomic(out, xml, len) != 0) {
		fprintf(stderr, "swerve import-steersuite: cannot write %s: %s\n", out,
			strerror(errno));
		code = EXIT_RUNTIME; /* a write failure (docs/swerve.1, EXIT STATUS) */
	}
	free(xml);
	sw_model_free(m);
	return code;
}
