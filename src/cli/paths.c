/* cli/paths.c - what the commands read and the names they write by default.
 *
 * Every command that takes a scenario also takes a SteerSuite test case (one loader,
 * cli_read_model).  Default output names come from the scenario's name made safe for a file
 * name (cli_safe_name), so a hostile name="../../x" cannot write outside the chosen folder, and
 * no command replaces one of its input files (cli_refuse_input). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

void cli_safe_name(const char *name, char *buf, size_t n)
{
	size_t k = 0;
	for (const char *p = name ? name : ""; *p && k + 1 < n; p++) {
		char c = *p;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			 c == '_' || c == '-' || (c == '.' && k > 0);
		buf[k++] = ok ? c : '_';
	}
	if (n > 0)
		buf[k < n ? k : n - 1] = '\0';
	if (k == 0 && n > 8)
		snprintf(buf, n, "scenario");
}

int cli_read_model(const char *path, int have_seed, uint64_t seed, double duration, sw_model **m,
		   sw_diag *diag)
{
	*m = NULL;
	int kind = SW_XML_UNKNOWN;
	int st = sw_xml_root_kind(path, &kind, diag);
	if (st == SW_SUCCESS && kind == SW_XML_STEERSUITE) {
		/* The seed also draws the test case's random placements. */
		sw_steersuite_def def = sw_default_steersuite_def();
		if (have_seed)
			def.seed = seed;
		if (duration > 0.0)
			def.duration = duration;
		st = sw_steersuite_load(path, &def, m, diag);
	} else if (st == SW_SUCCESS) {
		st = sw_scenario_load(path, m, diag);
	}
	if (st != SW_SUCCESS)
		return st;
	if (have_seed)
		(*m)->run.seed = seed;
	if (duration > 0.0)
		(*m)->run.duration = duration;
	return SW_SUCCESS;
}

int cli_refuse_input(const char *cmd, const char *out)
{
	struct stat st;
	if (stat(out, &st) != 0 || !S_ISREG(st.st_mode))
		return 0; /* nothing there yet (or not a file we would replace) */
	int kind = SW_XML_UNKNOWN;
	if (sw_xml_root_kind(out, &kind, NULL) != SW_SUCCESS || kind == SW_XML_UNKNOWN)
		return 0;
	fprintf(stderr, "swerve %s: %s is a swerve input file (%s); refusing to replace it; "
			"choose another output with -o\n",
		cmd, out,
		kind == SW_XML_SCENARIO     ? "a scenario"
		: kind == SW_XML_AUTOMATON ? "an automaton"
					    : "a SteerSuite test case");
	return 1;
}
