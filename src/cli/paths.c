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

/* The test case cli_read_model loaded last (cli_map_diag), and per diag the entries that cite
 * its lines already: [0, upto).  A diag is forgotten when emptied (cli_diag_init). */
enum { MAPPED_MAX = 16 };
static struct {
	int on;
	char path[SW_DIAG_FILE];
	sw_steersuite_def def;
	struct {
		const sw_diag *diag;
		int upto;
	} done[MAPPED_MAX];
	int n_done;
} imported;

/* The record of diag (made, with upto 0, when there is none and room). */
static int *mapped_upto(const sw_diag *diag)
{
	for (int k = 0; k < imported.n_done; k++)
		if (imported.done[k].diag == diag)
			return &imported.done[k].upto;
	if (imported.n_done == MAPPED_MAX)
		return NULL;
	imported.done[imported.n_done].diag = diag;
	imported.done[imported.n_done].upto = 0;
	return &imported.done[imported.n_done++].upto;
}

void cli_diag_init(sw_diag *diag)
{
	sw_diag_init(diag);
	for (int k = 0; k < imported.n_done; k++)
		if (imported.done[k].diag == diag)
			imported.done[k].upto = 0;
}

void cli_map_diag(sw_diag *diag)
{
	if (!imported.on || !diag)
		return;
	int *upto = mapped_upto(diag);
	/* (with no room for its record a diag's entries are left where they are: better a line of
	 * the generated text than an entry moved twice) */
	if (upto && *upto < diag->count)
		sw_steersuite_map_diag(imported.path, &imported.def, diag, *upto);
	if (upto)
		*upto = diag->count;
}

int cli_read_model(const char *path, int have_seed, uint64_t seed, double duration, sw_model **m,
		   sw_world_def *wd, sw_diag *diag)
{
	*m = NULL;
	imported.on = 0;
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
		/* (a path too long for a diagnostic's file name is never cited in full) */
		imported.on = st == SW_SUCCESS && strlen(path) < sizeof imported.path;
		imported.n_done = 0;
		if (imported.on) {
			snprintf(imported.path, sizeof imported.path, "%s", path);
			imported.def = def;
			int *upto = diag ? mapped_upto(diag) : NULL;
			if (upto) /* the import cited the case's lines itself */
				*upto = diag->count;
		}
	} else if (st == SW_SUCCESS) {
		st = sw_scenario_load(path, m, diag);
	}
	if (st != SW_SUCCESS)
		return st;
	if (wd) {
		*wd = sw_default_world_def(*m);
		if (have_seed)
			wd->seed = seed;
		if (duration > 0.0)
			wd->duration = duration;
	}
	return SW_SUCCESS;
}

int cli_output_option(const char *opt, const char *value)
{
	if (value && !*value)
		return cli_usage_error("option '%s' is empty; expected a file or directory name",
				       opt);
	return 0;
}

/* 1 (after printing why) when out and the input file `in` (what: how m reads it) are the same
 * file: the same device and inode, whatever the names. */
static int same_file(const char *cmd, const char *out, const struct stat *os, const char *in,
		     const char *what, const char *name, const sw_model *m)
{
	struct stat is;
	if (!in || !*in || stat(in, &is) != 0 || is.st_dev != os->st_dev || is.st_ino != os->st_ino)
		return 0;
	if (!name) /* the scenario (or test case) itself, by this or another name */
		fprintf(stderr, "swerve %s: %s is a file the scenario reads (%s, %s); refusing to "
				"replace it; choose another output\n",
			cmd, out, what, in);
	else
		fprintf(stderr, "swerve %s: %s is a file the scenario reads (%s '%s' of %s); "
				"refusing to replace it; choose another output\n",
			cmd, out, what, name, m->file[0] ? m->file : "the scenario");
	return 1;
}

int cli_refuse_input(const char *cmd, const char *out, const sw_model *m)
{
	struct stat st;
	if (stat(out, &st) != 0 || !S_ISREG(st.st_mode))
		return 0; /* nothing there yet (or not a file we would replace) */
	if (m) {
		if (same_file(cmd, out, &st, m->file, "the scenario itself", NULL, m))
			return 1;
		for (int k = 0; k < m->n_automata; k++)
			if (same_file(cmd, out, &st, sw_automaton_file(m->automata[k]), "automaton",
				      sw_automaton_name(m->automata[k]), m))
				return 1;
		for (int k = 0; k < m->n_fields; k++)
			if (m->fields[k].kind == SW_FIELD_VECTOR &&
			    same_file(cmd, out, &st, m->fields[k].file, "vector field",
				      m->fields[k].name, m))
				return 1;
	}
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
