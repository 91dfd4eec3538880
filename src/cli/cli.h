/* cli/cli.h - subcommands of the swerve tool.  Each returns the process exit code:
 * 0 success, 1 simulation/runtime failure, 2 bad usage or bad input. */
#ifndef SWERVE_CLI_H
#define SWERVE_CLI_H

#include <getopt.h>
#include <stdio.h>

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
int cmd_smc(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_verify(int argc, char **argv);

/** Parses "AGENT.VAR=[LO,HI]" or "AGENT.VAR=X" (export and verify --initial) into *r, whose
 * agent and var then point into s (modified in place).  Returns 0, or -1 on bad text. */
int cli_parse_initial(char *s, sw_export_range *r);

/** The mode graph of one automaton, or of every automaton of a scenario with its signal links,
 * as Graphviz DOT (graph_dot.c). */
void graph_write_automaton(FILE *f, const sw_automaton *a);
void graph_write_model(FILE *f, const sw_model *m);

/* --- conventions every command follows (main.c) -------------------------------------------
 *
 * Streams: standard output carries a command's data (graph's DOT, analyze's report, smc's
 * estimate, sweep's CSV, the version, help that was asked for); everything else -- progress,
 * the one-line summary of what was written, notes, warnings and errors -- goes to standard
 * error.  -q keeps errors and data only; -v adds notes (what was loaded, how it runs).
 * Short options mean one thing in every command (docs/swerve.1, "OPTIONS").  main flushes the
 * standard output after the command returns and reports a failed write there, once, as
 * "swerve CMD: cannot write the standard output: ERRNO TEXT" with exit status 1. */

/** Name of the running command ("run", ...), for messages; "swerve" before dispatch. */
extern const char *cli_cmd;

/** Verbosity: -1 after -q (errors and data only), 0 by default (also summaries, and progress on
 * a terminal), 1 after -v (also notes).  The last of -q and -v wins. */
extern int cli_verbosity;

/** Options every command accepts: a command's optstring is ":" + its own + CLI_SHORT (the ':'
 * makes getopt report a missing value quietly, cli_option words it) and its long table ends
 * with CLI_LONG. */
#define CLI_SHORT "qvVh"
#define CLI_LONG                                                                                 \
	{"quiet", no_argument, NULL, 'q'}, {"verbose", no_argument, NULL, 'v'},                  \
	{"version", no_argument, NULL, 'V'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}

/** Handles getopt_long's answer c that a command's own options do not: -q, -v, -V, -h, an
 * unknown option or a missing value (opts: the command's long table, usage: its help).
 * Returns -1 when parsing goes on, else the exit code to return now: 0 after --help or
 * --version, EXIT_BAD_INPUT after a usage error (reported as by cli_usage_error). */
int cli_option(int c, char **argv, const struct option *opts, void (*usage)(FILE *));

/** A usage error: prints "swerve CMD: MESSAGE" and the one line "try 'swerve CMD --help'" on
 * stderr and returns EXIT_BAD_INPUT. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** The try line alone (after a message already printed). */
void cli_try_help(void);

/** A note on stderr ("swerve CMD: MESSAGE") printed only with -v. */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** With -v, a note on what was loaded: the file, its agents, and the duration, step and seed
 * of the run wd defines (NULL: the model's own). */
void cli_note_model(const char *path, const sw_model *m, const sw_world_def *wd);

/** Prints every entry of diag to stderr, one per line, after cli_map_diag. */
void cli_print_diag(sw_diag *diag);

/** Exit code for a library status: 0, 2 for bad input/usage, 1 otherwise. */
int cli_exit_code(int status);

/** Exit code for a failed load: an unreadable input file is bad input too (2). */
int cli_load_exit_code(int status);

/** Parses text as a finite number >= lo for option opt of command cmd into *out; on failure
 * prints "swerve CMD: OPT 'TEXT': expected a number >= LO" and the try line, and returns -1. */
int cli_number(const char *cmd, const char *opt, const char *text, double lo, double *out);

/** Progress on stderr: "\rswerve: NN%" when the percentage changes, a newline at 100 %.  Use
 * only when stderr is a terminal (isatty); a new task starts again below 100 %. */
void cli_progress(double frac);

/** cli_progress as a library progress callback (sw_world_def.progress_fn; ctx unused). */
void cli_progress_fn(double frac, void *ctx);

/** Starts a task for cli_progress: a simulation of `simulated` seconds (0: another task), so the
 * line also shows the simulated time, the speed against real time and the time left. */
void cli_progress_start(double simulated);

/** Progress of an ensemble on stderr (only when stderr is a terminal, after
 * cli_progress_start(0)): "\rswerve: NN%  DONE of TOTAL runs, R runs/s, S s left", or, for a
 * sequential test that may stop early (upto), "DONE runs (at most TOTAL), R runs/s"; the final
 * call (last) gives the time taken and ends the line. */
void cli_progress_runs(int64_t done, int64_t total, int upto, int last);

/** Loads the scenario at path into *m and, when wd is not NULL, the definition of its run into
 * *wd: the scenario's <run>, its seed overridden when seed >= 0 and its duration when
 * duration > 0 (the model itself is never changed after loading).  Returns EXIT_OK, or prints
 * the diagnostics and returns the exit code. */
int cli_load(const char *path, double seed, double duration, sw_model **m, sw_world_def *wd);

/* --- inputs and default output names (paths.c) ------------------------------------------- */

/** Copies name into buf (size n) as a safe file name: letters, digits, '_', '-' and '.' (not
 * first) kept, anything else (such as '/') replaced by '_'; "scenario" when nothing is left. */
void cli_safe_name(const char *name, char *buf, size_t n);

/** Loads a scenario or a SteerSuite test case (by its root element) into *m and, when wd is not
 * NULL, the definition of its run into *wd (sw_default_world_def), overriding the seed when
 * have_seed (for a test case also its placements) and the duration when > 0.  Returns a library
 * status; problems go to diag. */
int cli_read_model(const char *path, int have_seed, uint64_t seed, double duration, sw_model **m,
		   sw_world_def *wd, sw_diag *diag);

/** After cli_read_model loaded a test case: the entries of diag made since (an export's, a
 * run's) cite lines of the scenario the import generated; moves them to the test case's lines
 * (sw_steersuite_map_diag).  Each entry is moved once: every diag is remembered with its count
 * when mapped (the load's with its count after the load, which the import mapped itself), and
 * forgotten when emptied by cli_diag_init; so a diag given here is static (the commands'
 * are), never one on the stack whose address a later one could take. */
void cli_map_diag(sw_diag *diag);

/** sw_diag_init for the commands' diags: also forgets what cli_map_diag mapped of diag. */
void cli_diag_init(sw_diag *diag);

/** 1 (after printing why) when out is an existing swerve input file (a scenario, automaton or
 * test case) that an output would replace, or the same file (device and inode) as any file m
 * read (m may be NULL): the scenario or test case, its automata, its vector-field files; else
 * 0. */
int cli_refuse_input(const char *cmd, const char *out, const sw_model *m);

/** The value of an output option (opt: "-o", "--csv") checked: an empty name is a usage error
 * ("option '-o' is empty; ...", exit 2) for every command.  Returns 0 or EXIT_BAD_INPUT. */
int cli_output_option(const char *opt, const char *value);

/** Creates a world for m as wd defines it (NULL: the model's run) and runs it to its duration
 * recording a trace (progress on stderr when `progress`); *w and *tr are set even on failure
 * (caller destroys both).  Returns a status; problems go to diag. */
int cli_record(const sw_model *m, const sw_world_def *wd, int progress, sw_world **w,
	       sw_trace **tr, sw_diag *diag);

/** Loads the scenario at path (seed overridden when seed >= 0), finds the agent named `agent`
 * (NULL: the only agent), creates a world and steps it until its time reaches at.  On success
 * returns EXIT_OK with *m, *w and *agent_index set (caller frees both); otherwise prints what
 * went wrong, frees everything and returns the exit code. */
int cli_world_at(const char *cmd, const char *path, const char *agent, double at, double seed,
		 sw_model **m, sw_world **w, int *agent_index);

/* --- ensembles (ensemble_cli.c): processes, batches, --param, grids, CSV ------------------ */

/** The processes of an ensemble command: one, or the ranks of an MPI job. */
typedef struct cli_ens {
	int rank, size; /**< this process's rank and the number of ranks (0 and 1 without MPI) */
	int mpi;        /**< 1: MPI was initialised */
} cli_ens;

/** Joins the MPI job when the process was started by mpirun (and swerve was built with Open
 * MPI); otherwise a single process.  Ranks other than 0 are silenced (every rank meets the same
 * input errors; rank 0 reports).  Returns an exit code (0 on success). */
int cli_ens_init(cli_ens *e, const char *cmd);

/** Leaves the MPI job; returns rank 0's exit code on every rank. */
int cli_ens_finish(cli_ens *e, int code);

/** Threads per process: asked when > 0, else 1 under MPI with several ranks, else the cores. */
int cli_ens_threads(const cli_ens *e, int asked);

/** Computes runs first .. first + count - 1 of plan, a contiguous block per rank, threads per
 * rank; on rank 0 out[0 .. count - 1] receives every result in run order.  Collective.  Returns
 * SW_SUCCESS or the worst status of any rank. */
int cli_ens_batch(const cli_ens *e, const sw_ens_plan *plan, int64_t first, int64_t count,
		  int threads, sw_ens_result *out);

/** Rank 0's value, on every rank.  Collective. */
int cli_ens_bcast(const cli_ens *e, int value);

/** Most --param options, and most values of one. */
#define CLI_PARAMS 8
#define CLI_PARAM_MAX 10000
/* Most runs one smc or sweep command computes (--runs, --max-runs, grid points x --seeds), most
 * runs per batch and most threads: requested work is refused before it starts beyond these
 * (docs/robustness.md, "Bounds"). */
#define CLI_MAX_RUNS 100000000LL
#define CLI_MAX_BATCH 65536
#define CLI_MAX_THREADS 4096

/** One --param: a name (docs/ensembles.md) and its values. */
typedef struct cli_param {
	char name[128];
	int n;
	double values[CLI_PARAM_MAX];
} cli_param;

/** Parses NAME=VALUE, or with grid also NAME=LO:HI:STEP (LO, LO+STEP, ... up to HI) and
 * NAME=V1,V2,...  Prints what is wrong and returns -1 on bad text. */
int cli_param_parse(const char *cmd, const char *arg, int grid, cli_param *p);

/** Points of the grid of p[0 .. n-1] (their product), and the values of point g (the last
 * parameter varies fastest). */
int64_t cli_grid_points(const cli_param *p, int n);
void cli_grid_values(const cli_param *p, int n, int64_t point, double *v);

/** Loads the scenario once per grid point with that point's overrides, compiles property
 * (may be NULL) and prepares the fields (cli_plan_fields, default cache) for each.  models and props have
 * `points` entries.  On failure prints why (naming the point) and returns the exit code. */
int cli_grid_load(const char *cmd, const char *path, const cli_param *p, int n, int64_t points,
		  const char *property, sw_model **models, sw_ens_property **props,
		  sw_plan **plans);

/** Frees what cli_grid_load made and the arrays themselves. */
void cli_grid_free(sw_model **models, sw_ens_property **props, sw_plan **plans, int64_t points);

/** The per-run CSV: header and one row (grid values of the run's point, status, property, the
 * run summary, the failure message). */
void cli_csv_header(FILE *f, const cli_param *p, int n);
void cli_csv_row(FILE *f, const sw_ens_result *r, const cli_param *p, int n);

/** Opens the output file path ("-" or NULL: stdout) as a temporary file beside it (name into
 * tmp) into *out; cli_out_close renames it into place when keep is 1, else removes it.  Both
 * print why they fail.  cli_out_open returns EXIT_OK, EXIT_BAD_INPUT when path would replace a
 * file m reads (cli_refuse_input), or EXIT_RUNTIME when the temporary cannot be created (a
 * missing directory, no permission: a write failure, as docs/robustness.md has it);
 * cli_out_close returns 0 or -1.  The standard output is checked by main, after every command. */
int cli_out_open(const char *cmd, const char *path, const sw_model *m, char *tmp, size_t n,
		 FILE **out);
int cli_out_close(const char *cmd, FILE *f, const char *path, const char *tmp, int keep);
/** Long-only options shared by run and render: the navigation field cache. */
enum { OPT_FIELD_CACHE = 1000, OPT_NO_FIELD_CACHE = 1001, OPT_FIELD = 1002,
       OPT_FIELD_SPACING = 1003, OPT_VARIABLES = 1004, OPT_SAMPLE = 1005 };

/** The planning step of run, render, sweep and smc: solves (or reads from the cache) every field
 * model m declares into a new plan *out (the caller frees it with sw_plan_free after its worlds;
 * pass it in sw_world_def.plan).  The CLI owns the cache: cache is the folder given with
 * --field-cache, NULL the default ($XDG_CACHE_HOME/swerve, else $HOME/.cache/swerve; none when
 * neither is set), no_cache set by --no-field-cache.  Prints diagnostics; returns a library
 * status. */
int cli_plan_fields(const sw_model *m, const char *cache, int no_cache, sw_plan **out);

/* --- run checkpoints (checkpoint_cli.c) ------------------------------------------------- */

/** Sampling with checkpoints: the outputs' sample, then a checkpoint at the first sample at or
 * after each multiple of `every`, and a halt (as an interruption would) at halt_at. */
typedef struct cli_ckpt {
	sw_output *o;
	const char *dir;   /**< the output directory (holds checkpoint.swck) */
	double every, next; /**< checkpoint interval and the next checkpoint time, s (0: none) */
	double halt_at;    /**< stop the run at this time, leaving the checkpoint (0: never) */
	int halted;        /**< set when the run was halted */
	sw_diag *diag;
} cli_ckpt;

/** DIR/checkpoint.swck into buf (size n). */
void cli_ckpt_path(char *buf, size_t n, const char *dir);
/** A sw_sample_fn over a cli_ckpt. */
int cli_ckpt_sample(const sw_world *w, void *ctx);
/** Writes DIR/checkpoint.swck atomically from w and o. */
int cli_ckpt_write(const char *dir, const sw_world *w, sw_output *o, sw_diag *diag);
/** Restores w (freshly created) and o (freshly opened) from DIR/checkpoint.swck. */
int cli_ckpt_resume(const char *dir, sw_world *w, sw_output *o, sw_diag *diag);
/** Removes DIR/checkpoint.swck (a finished run). */
void cli_ckpt_remove(const char *dir);

#endif
