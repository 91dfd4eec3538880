/* cli/cli.h - subcommands of the swerve tool.  Each returns the process exit code:
 * 0 success, 1 simulation/runtime failure, 2 bad usage or bad input. */
#ifndef SWERVE_CLI_H
#define SWERVE_CLI_H

#include "swerve/render.h"
#include "swerve/swerve.h"

enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_BAD_INPUT = 2 };

int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_graph(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_import(int argc, char **argv);

/** Prints every entry of diag to stderr, one per line. */
void cli_print_diag(const sw_diag *diag);

/** Exit code for a library status: 0, 2 for bad input/usage, 1 otherwise. */
int cli_exit_code(int status);

/** Exit code for a failed load: an unreadable input file is bad input too (2). */
int cli_load_exit_code(int status);

/** Parses text as a finite number >= lo for option opt of command cmd into *out; on failure
 * prints "swerve CMD: OPT 'TEXT': expected a number >= LO" and returns -1. */
int cli_number(const char *cmd, const char *opt, const char *text, double lo, double *out);

/** Progress on stderr: "\rswerve: NN%" when the percentage changes, a newline at 100 %.  Use
 * only when stderr is a terminal (isatty); a new task starts again below 100 %. */
void cli_progress(double frac);

/** Loads the scenario at path into *m, overriding its seed when seed >= 0 and its duration when
 * duration > 0.  Returns EXIT_OK, or prints the diagnostics and returns the exit code. */
int cli_load(const char *path, double seed, double duration, sw_model **m);

/** Creates a world for m and runs it to its duration recording a trace (progress on stderr when
 * `progress`); *w and *tr are set even on failure (caller destroys both).  Returns a status;
 * problems go to diag. */
int cli_record(const sw_model *m, int progress, sw_world **w, sw_trace **tr, sw_diag *diag);

/** Loads the scenario at path (seed overridden when seed >= 0), finds the agent named `agent`
 * (NULL: the only agent), creates a world and steps it until its time reaches at.  On success
 * returns EXIT_OK with *m, *w and *agent_index set (caller frees both); otherwise prints what
 * went wrong, frees everything and returns the exit code. */
int cli_world_at(const char *cmd, const char *path, const char *agent, double at, double seed,
		 sw_model **m, sw_world **w, int *agent_index);

#endif
