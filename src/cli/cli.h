/* cli/cli.h - subcommands of the swerve tool.  Each returns the process exit code:
 * 0 success, 1 simulation/runtime failure, 2 bad usage or bad input. */
#ifndef SWERVE_CLI_H
#define SWERVE_CLI_H

#include "swerve/swerve.h"

enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_BAD_INPUT = 2 };

int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_graph(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_plot(int argc, char **argv);

/** Prints every entry of diag to stderr, one per line. */
void cli_print_diag(const sw_diag *diag);

/** Exit code for a library status: 0, 2 for bad input/usage, 1 otherwise. */
int cli_exit_code(int status);

/** Exit code for a failed load: an unreadable input file is bad input too (2). */
int cli_load_exit_code(int status);

/** Parses text as a finite number >= lo for option opt of command cmd into *out; on failure
 * prints "swerve CMD: OPT 'TEXT': expected a number >= LO" and returns -1. */
int cli_number(const char *cmd, const char *opt, const char *text, double lo, double *out);

/** Loads the scenario at path (seed overridden when seed >= 0), finds the agent named `agent`
 * (NULL: the only agent), creates a world and steps it until its time reaches at.  On success
 * returns EXIT_OK with *m, *w and *agent_index set (caller frees both); otherwise prints what
 * went wrong, frees everything and returns the exit code. */
int cli_world_at(const char *cmd, const char *path, const char *agent, double at, double seed,
		 sw_model **m, sw_world **w, int *agent_index);

/** Long-only options shared by run and render: the navigation field cache. */
enum { OPT_FIELD_CACHE = 1000, OPT_NO_FIELD_CACHE = 1001, OPT_FIELD = 1002,
       OPT_FIELD_SPACING = 1003 };

/** Solves (or reads from the cache) every field model m declares: cache is the folder given
 * with --field-cache (NULL: the default), no_cache set by --no-field-cache.  Prints diagnostics;
 * returns a library status. */
int cli_prepare_fields(sw_model *m, const char *cache, int no_cache);

#endif
