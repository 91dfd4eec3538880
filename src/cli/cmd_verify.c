/* cli/cmd_verify.c - `swerve verify`: export, HyST -> Flow*, an honest verdict, and a search for
 * a simulated counterexample.
 *
 * Method.  The scenario is exported in the `hyst` profile (one .cfg per conjunctive unsafe set,
 * docs/export.md) into a scratch folder; each unsafe set is converted by HyST's Flow* printer
 * with the Flow* settings of the options and computed by Flow*, one job at a time, each bounded
 * by --timeout.  Flow*'s last line ("Result of the safety verification on the computed
 * flowpipes: SAFE") speaks only of the flowpipes it computed, so a set is SAFE only when Flow*
 * also printed "Computation completed" and no flowpipe touches the set; a flowpipe inside the
 * set is UNSAFE (every state reachable then is unsafe), one touching it UNKNOWN, a computation
 * that stopped early or ran out of --timeout INCOMPLETE (with the flowpipes and the last time
 * Flow* printed), and a tool that failed or crashed ERROR.  The scenario's verdict is the worst of its
 * sets (ERROR > INCOMPLETE > UNKNOWN > SAFE), UNSAFE above all.
 *
 * Whatever Flow* says, the initial set is then sampled (its corners over the widened x, y,
 * heading and speed, its centre and --samples uniform points) and each sample simulated with
 * the scenario's own integrator; the first overlap of an agent with an obstacle or another agent
 * is a witness and makes the verdict UNSAFE.  A witness under a SAFE from Flow* means the
 * simulation leaves the exported ODE (the differences listed in report.txt, such as a fixed
 * step): it is reported as such.  docs/verification.md has the measurements. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "swerve/export.h"

/* Exit codes beyond the common 0, 1, 2 (docs/verification.md, swerve verify --help). */
enum { EXIT_UNSAFE = 3, EXIT_UNKNOWN = 4, EXIT_INCOMPLETE = 5, EXIT_NO_TOOLS = 6 };

/* Verdicts, in increasing order of severity (the scenario takes the worst of its sets). */
typedef enum { V_SAFE = 0, V_UNKNOWN, V_INCOMPLETE, V_ERROR, V_UNSAFE } verdict;
static const char *const verdict_name[] = {"SAFE", "UNKNOWN", "INCOMPLETE", "ERROR", "UNSAFE"};

/* Settings of one verification: the Flow* settings HyST writes, the limits and the sampling. */
typedef struct vsettings {
	double step;      /* Flow* fixed step, s */
	int order_min, order_max; /* adaptive Taylor model orders */
	double remainder; /* Flow* remainder estimation */
	double cutoff;    /* Flow* cutoff */
	double timeout;   /* wall-clock limit of each HyST and each Flow* job, s */
	int samples;      /* uniform samples of the initial set besides its corners and centre */
	unsigned long seed; /* of the samples */
} vsettings;

/* What one unsafe set came to. */
typedef struct vresult {
	verdict v;
	long flowpipes;      /* Flow*'s count, -1 when it printed none */
	int completed;       /* Flow* printed "Computation completed" */
	char flowstar[16];   /* Flow*'s own word: SAFE, UNSAFE, UNKNOWN or "" */
	char last[96];       /* the last "mode: M, time = T" Flow* printed ("" none) */
	long steps;          /* "mode:" lines Flow* printed (one per flowpipe) */
	double box[4];       /* x and y extent of the last flowpipe written (NAN unknown) */
	double seconds;      /* HyST + Flow* wall time */
	char why[256];       /* for ERROR: what failed */
} vresult;

static void verify_usage(FILE *f)
{
	fputs("usage: swerve verify SCENARIO [-o FILE] [--initial AGENT.VAR=[LO,HI]]...\n"
	      "                     [--hyst-jar JAR] [--flowstar PATH] [--keep DIR] [settings]\n"
	      "\n"
	      "Exports the scenario (profile hyst), converts each unsafe set with HyST to Flow*,\n"
	      "runs Flow* and reads its answer honestly; then simulates corners, the centre and\n"
	      "samples of the initial set looking for a collision (a witness).  Prints one line\n"
	      "per unsafe set and the verdict.  See docs/verification.md.\n"
	      "\n"
	      "options:\n"
	      "  -o, --output FILE       also write a JSON summary there\n"
	      "  -i, --initial A.V=[L,H] widen the initial value of variable V of agent A\n"
	      "                          (repeatable, as for export)\n"
	      "      --horizon S         time horizon, s (default: run duration)\n"
	      "      --hyst-jar JAR      HyST's jar (default: $SWERVE_HYST_JAR)\n"
	      "      --flowstar PATH     the flowstar program (default: $SWERVE_FLOWSTAR)\n"
	      "      --keep DIR          keep the export, Flow* models and logs in DIR\n"
	      "      --step S            Flow* fixed step, s (default 0.05)\n"
	      "      --orders MIN-MAX    Flow* adaptive Taylor orders (default 3-5)\n"
	      "      --remainder R       Flow* remainder estimation (default 1e-4)\n"
	      "      --cutoff C          Flow* cutoff (default 1e-10)\n"
	      "      --timeout S         limit of each HyST and each Flow* job, s (default 120)\n"
	      "      --samples N         simulated samples of the initial set besides its corners\n"
	      "                          and centre (default 100)\n"
	      "      --seed N            seed of the samples (default 1)\n"
	      "  -q, --quiet             only the verdict line\n"
	      "  -v, --verbose           also notes (the commands run)\n"
	      "  -V, --version           the version\n"
	      "  -h, --help              this text\n"
	      "\n"
	      "Verdicts: SAFE (Flow* completed the horizon and no flowpipe touches an unsafe\n"
	      "set), UNSAFE (a simulated witness, or a flowpipe inside an unsafe set), UNKNOWN\n"
	      "(a flowpipe touches an unsafe set), INCOMPLETE (Flow* stopped early or ran out\n"
	      "of --timeout), ERROR (HyST or Flow* failed or crashed; HyST out of time).\n"
	      "Exit status: 0 SAFE, 1 ERROR or a write failure, 2 bad usage or bad input,\n"
	      "3 UNSAFE, 4 UNKNOWN, 5 INCOMPLETE, 6 java, HyST or Flow* not found.\n",
	      f);
}

/* ---- tools --------------------------------------------------------------------------------- */

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* snprintf into buf of size n (through a va_list: paths are checked for length once, where the
 * folder is chosen). */
static void fmt(char *buf, size_t n, const char *f, ...) __attribute__((format(printf, 3, 4)));
static void fmt(char *buf, size_t n, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	vsnprintf(buf, n, f, ap);
	va_end(ap);
}

/* 1 when name is an executable file, or (without a '/') one in $PATH. */
static int executable(const char *name)
{
	if (strchr(name, '/'))
		return access(name, X_OK) == 0;
	const char *path = getenv("PATH");
	char buf[4096];
	while (path && *path) {
		size_t n = strcspn(path, ":");
		snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n ? path : ".", name);
		struct stat st;
		if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
			return 1;
		path += n + (path[n] == ':');
	}
	return 0;
}

/* Runs argv in dir (NULL: here) with standard input from in (NULL: /dev/null) and standard
 * output and error into out, for at most timeout seconds (then its process group is killed).
 * Returns the exit status, -1 when it could not start, -2 on time-out, -3 when a signal ended
 * it (*sig the signal). */
static int run_tool(char *const argv[], const char *dir, const char *in, const char *out,
		    double timeout, int *sig)
{
	int fds[2];
	if (pipe(fds) != 0)
		return -1;
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		setpgid(0, 0);
		close(fds[0]);
		int fi = open(in ? in : "/dev/null", O_RDONLY);
		int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int err = 0;
		if (fi < 0 || fo < 0 || (dir && chdir(dir) != 0) || dup2(fi, 0) < 0 || dup2(fo, 1) < 0 ||
		    dup2(fo, 2) < 0)
			err = errno ? errno : EIO;
		else {
			execvp(argv[0], argv);
			err = errno;
		}
		if (write(fds[1], &err, sizeof err) < 0)
			_exit(127);
		_exit(127);
	}
	close(fds[1]);
	int err = 0;
	ssize_t got = read(fds[0], &err, sizeof err);
	close(fds[0]);
	if (got == (ssize_t)sizeof err) {
		waitpid(pid, NULL, 0);
		errno = err;
		return -1;
	}
	double t0 = wall_now();
	int status = 0;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -1;
		if (wall_now() - t0 > timeout) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -2;
		}
		struct timespec nap = {0, 20000000L};
		nanosleep(&nap, NULL);
	}
	if (WIFSIGNALED(status)) {
		*sig = WTERMSIG(status);
		return -3;
	}
	return WEXITSTATUS(status);
}

/* Removes dir and what it holds (the scratch folder this command made). */
static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *e;
		char p[4096];
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
			struct stat st;
			if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
				remove_tree(p);
			else
				unlink(p);
		}
		closedir(d);
	}
	rmdir(dir);
}

/* ---- reading Flow*'s answer ---------------------------------------------------------------- */

/* Reads Flow*'s log at path into r (ANSI colour codes skipped). */
static void read_flowstar_log(const char *path, vresult *r)
{
	FILE *f = fopen(path, "r");
	char line[1024], clean[1024];
	r->flowpipes = -1;
	while (f && fgets(line, sizeof line, f)) {
		size_t k = 0;
		for (const char *p = line; *p && k + 1 < sizeof clean; p++) {
			if (*p == '\x1b') {
				while (*p && *p != 'm')
					p++;
				if (!*p)
					break;
				continue;
			}
			if (*p != '\n' && *p != '\r')
				clean[k++] = *p;
		}
		clean[k] = '\0';
		long n;
		const char *s;
		if (sscanf(clean, "Computation completed: %ld", &n) == 1) {
			r->completed = 1;
			r->flowpipes = n;
		} else if (sscanf(clean, "Computation not completed: %ld", &n) == 1) {
			r->completed = 0;
			r->flowpipes = n;
		} else if ((s = strstr(clean, "on the computed flowpipes:")) != NULL) {
			s += strlen("on the computed flowpipes:");
			while (*s == ' ')
				s++;
			snprintf(r->flowstar, sizeof r->flowstar, "%.15s", s);
			r->flowstar[strcspn(r->flowstar, " \t")] = '\0';
		} else if (strncmp(clean, "mode: ", 6) == 0) {
			/* "mode: steer,\ttime = 7.2,\tstep = ..." -> "steer, time = 7.2" */
			char mode[64];
			double t;
			if (sscanf(clean, "mode: %63[^,], time = %lf", mode, &t) == 2) {
				snprintf(r->last, sizeof r->last, "%s at t = %g s", mode, t);
				r->steps++;
			}
		}
	}
	if (f)
		fclose(f);
}

/* The x-y extent of the last flowpipe in Flow*'s gnuplot file (octagons separated by blank
 * lines); r->box stays NAN when there is none. */
static void read_last_box(const char *path, vresult *r)
{
	for (int k = 0; k < 4; k++)
		r->box[k] = NAN;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char line[256];
	double b[4] = {INFINITY, -INFINITY, INFINITY, -INFINITY};
	int open_block = 0;
	while (fgets(line, sizeof line, f)) {
		double x, y;
		if (sscanf(line, "%lf %lf", &x, &y) == 2) {
			if (!open_block) {
				b[0] = b[2] = INFINITY;
				b[1] = b[3] = -INFINITY;
				open_block = 1;
			}
			b[0] = fmin(b[0], x), b[1] = fmax(b[1], x);
			b[2] = fmin(b[2], y), b[3] = fmax(b[3], y);
		} else if (open_block) {
			memcpy(r->box, b, sizeof b);
			open_block = 0;
		}
	}
	if (open_block)
		memcpy(r->box, b, sizeof b);
	fclose(f);
}

/* The verdict of one set from what Flow* printed. */
/* One HyST + Flow* job: unsafe set `set` of system sys (-1: the plain cfg, no unsafe set). */
typedef struct vjob {
	const sw_hybrid *sys;
	int set;
} vjob;

static verdict set_verdict(const vresult *r)
{
	if (strcmp(r->flowstar, "UNSAFE") == 0)
		return V_UNSAFE;
	if (!r->completed)
		return V_INCOMPLETE;
	if (strcmp(r->flowstar, "UNKNOWN") == 0)
		return V_UNKNOWN;
	return V_SAFE;
}

/* Converts cfg (in work, with model xml) with HyST and runs Flow* on it in work/sub; fills r. */
static void check_set(const char *java, const char *jar, const char *flowstar, const char *work,
		      const char *xml, const char *cfg, const char *sub, const vsettings *s,
		      vresult *r)
{
	char params[512], dir[4096], model[4096], log[4096], in_xml[4096], in_cfg[4096];
	fmt(params, sizeof params,
		 "-ode \"nonpoly ode\" -step %.15g-%.15g -orders %d-%d -rem %.15g -cutoff %.15g "
		 "-aggregation interval",
		 s->step, s->step, s->order_min, s->order_max, s->remainder, s->cutoff);
	fmt(dir, sizeof dir, "%s/%s", work, sub);
	fmt(model, sizeof model, "%s/flowstar.model", dir);
	fmt(in_xml, sizeof in_xml, "%s/%s", work, xml);
	fmt(in_cfg, sizeof in_cfg, "%s/%s", work, cfg);
	memset(r, 0, sizeof *r);
	r->flowpipes = -1;
	for (int k = 0; k < 4; k++)
		r->box[k] = NAN;
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		r->v = V_ERROR;
		fmt(r->why, sizeof r->why, "cannot create %s: %s", dir, strerror(errno));
		return;
	}
	char *hyst_argv[] = {(char *)java, "-jar", (char *)jar, "-t", "flowstar", params, "-i",
			     in_xml, in_cfg, "-o", model, NULL};
	cli_note("%s -jar %s -t flowstar '%s' -i %s %s -o %s", java, jar, params, in_xml, in_cfg,
		 model);
	fmt(log, sizeof log, "%s/hyst.log", dir);
	double t0 = wall_now();
	int sig = 0;
	int rc = run_tool(hyst_argv, NULL, NULL, log, s->timeout, &sig);
	struct stat st;
	if (rc != 0 || stat(model, &st) != 0 || st.st_size == 0) {
		r->v = V_ERROR;
		r->seconds = wall_now() - t0;
		fmt(r->why, sizeof r->why,
			 rc == -2   ? "HyST ran out of time (--timeout)"
			 : rc == -1 ? "HyST did not start"
				    : "HyST failed (its messages are in hyst.log; --keep DIR keeps it)");
		return;
	}
	/* Line-buffered through stdbuf when there is one: a job stopped at the time-out has then
	 * printed how far it got (a full buffer is lost with the process). */
	char *fs_argv[] = {"stdbuf", "-oL", (char *)flowstar, NULL};
	char **fs = executable("stdbuf") ? fs_argv : fs_argv + 2;
	cli_note("(cd %s && %s < flowstar.model)", dir, flowstar);
	fmt(log, sizeof log, "%s/flowstar.log", dir);
	rc = run_tool(fs, dir, model, log, s->timeout, &sig);
	r->seconds = wall_now() - t0;
	read_flowstar_log(log, r);
	fmt(log, sizeof log, "%s/outputs/out.plt", dir);
	read_last_box(log, r);
	if (rc == -2) { /* stopped by us: as far as it got */
		r->v = V_INCOMPLETE;
		r->completed = 0;
		r->flowstar[0] = '\0';
		if (r->flowpipes < 0)
			r->flowpipes = r->steps;
		fmt(r->why, sizeof r->why, "Flow* ran out of time (--timeout %g s)", s->timeout);
		return;
	}
	if (rc == -3 || rc == -1 || r->flowpipes < 0) {
		r->v = V_ERROR;
		if (rc == -3)
			fmt(r->why, sizeof r->why, "Flow* ended by signal %d (%s)%s%s", sig,
				 strsignal(sig), r->last[0] ? " in " : "", r->last);
		else
			fmt(r->why, sizeof r->why, "Flow* printed no result (exit status %d)",
				 rc);
		return;
	}
	r->v = set_verdict(r);
}

/* ---- simulated witnesses ------------------------------------------------------------------- */

/* A simulated collision: the initial values of the sample and when it happened. */
typedef struct witness {
	int found;
	int agent;        /* the colliding agent */
	int with_agent;   /* 1: with another agent, 0: with an obstacle */
	double t;         /* time of the step that ended in overlap, s */
	int n_vars;
	char names[4 * 8][2 * SW_NAME_MAX]; /* "agent.var" sampled */
	double values[4 * 8];
	int runs;         /* simulations made */
} witness;

/* Variables sampled: those of sw_agent's initial state a range can widen. */
static double *agent_field(sw_agent *a, const char *var)
{
	if (strcmp(var, "x") == 0)
		return &a->position.x;
	if (strcmp(var, "y") == 0)
		return &a->position.y;
	if (strcmp(var, "heading") == 0)
		return &a->heading;
	if (strcmp(var, "speed") == 0)
		return &a->speed;
	return NULL;
}

/* Simulates m from its current initial values; returns 1 with *w filled on a collision, 0
 * without one, -1 when the run failed (diag). */
static int simulate_one(const sw_model *m, double horizon, witness *w, sw_diag *diag)
{
	sw_world *world = NULL;
	if (sw_world_create(m, NULL, &world, diag) != SW_SUCCESS) {
		sw_world_destroy(world);
		return -1;
	}
	int hit = 0;
	while (!hit && sw_world_time(world) < horizon - 1e-9 && !sw_world_done(world)) {
		if (sw_world_step(world, diag) != SW_SUCCESS) {
			sw_world_destroy(world);
			return -1;
		}
		for (int i = 0; i < m->n_agents && !hit; i++) {
			const sw_agent_metrics *mt = sw_world_metrics(world, i);
			if (mt->collisions > 0 || mt->agent_collisions > 0) {
				hit = 1;
				w->agent = i;
				w->with_agent = mt->collisions == 0;
				w->t = sw_world_time(world);
			}
		}
	}
	sw_world_destroy(world);
	return hit;
}

/* Simulates the corners and centre of the sampled ranges, then s->samples uniform points;
 * stops at the first collision.  Returns 0, or -1 when a run failed.  The sampled initial
 * values go into a private copy of the agents, seen through a copy of the model that shares
 * its other (read-only) arrays: the loaded model stays as sw_model_finalize left it. */
static int search_witness(const sw_model *model, const sw_export_range *ranges, int n_ranges,
			  double horizon, const vsettings *s, witness *w, sw_diag *diag)
{
	sw_agent *agents = malloc((size_t)model->n_agents * sizeof *agents);
	if (!agents)
		return -1;
	memcpy(agents, model->agents, (size_t)model->n_agents * sizeof *agents);
	sw_model sampled = *model;
	sampled.agents = agents;
	const sw_model *m = &sampled;
	double *field[4 * 8], lo[4 * 8], hi[4 * 8];
	int n = 0;
	for (int r = 0; r < n_ranges && n < 4 * 8; r++) {
		int i = sw_model_find_agent(model, ranges[r].agent);
		double *p = i >= 0 ? agent_field(&agents[i], ranges[r].var) : NULL;
		if (!p) {
			cli_note("--initial %s.%s is not sampled by the witness search (only x, y, "
				 "heading and speed are)",
				 ranges[r].agent, ranges[r].var);
			continue;
		}
		field[n] = p;
		lo[n] = ranges[r].lo;
		hi[n] = ranges[r].hi;
		snprintf(w->names[n], sizeof w->names[n], "%s.%s", ranges[r].agent, ranges[r].var);
		n++;
	}
	w->n_vars = n;
	long corners = n <= 10 ? 1L << n : 1024;
	long total = corners + 1 + s->samples;
	unsigned long long state = s->seed * 0x9E3779B97F4A7C15ULL + 1;
	int rc = 0;
	for (long k = 0; k < total && !w->found && rc == 0; k++) {
		for (int v = 0; v < n; v++) {
			double u;
			if (k < corners)
				u = (k >> v) & 1 ? 1.0 : 0.0;
			else if (k == corners)
				u = 0.5;
			else {
				/* splitmix64: a reproducible stream without global state */
				unsigned long long z = (state += 0x9E3779B97F4A7C15ULL);
				z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
				z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
				u = (double)((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
			}
			*field[v] = lo[v] + u * (hi[v] - lo[v]);
		}
		if (n == 0 && k > 0)
			break; /* a point initial set: one run is all there is */
		int hit = simulate_one(m, horizon, w, diag);
		w->runs++;
		if (hit < 0)
			rc = -1;
		else if (hit) {
			w->found = 1;
			for (int v = 0; v < n; v++)
				w->values[v] = *field[v];
		}
	}
	free(agents);
	return rc;
}

/* ---- the summary ----------------------------------------------------------------------------- */

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void json_num(FILE *f, double x)
{
	if (isfinite(x))
		fprintf(f, "%.17g", x);
	else
		fputs("null", f);
}

/* Writes the JSON summary to path (through a temporary file renamed into place). */
static int write_summary(const char *path, const sw_model *m, const sw_hybrid *h,
			 const vjob *jobs, int n, const vresult *res, verdict v, const witness *w,
			 const vsettings *s, double horizon, const char *jar, const char *flowstar)
{
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return -1;
	fputs("{\n  \"scenario\": ", f);
	json_str(f, m->file);
	fputs(",\n  \"verdict\": ", f);
	json_str(f, verdict_name[v]);
	fputs(",\n  \"horizon\": ", f);
	json_num(f, horizon);
	fputs(",\n  \"tools\": {\"hyst_jar\": ", f);
	json_str(f, jar);
	fputs(", \"flowstar\": ", f);
	json_str(f, flowstar);
	fprintf(f, "},\n  \"settings\": {\"step\": ");
	json_num(f, s->step);
	fprintf(f, ", \"orders\": [%d, %d], \"remainder\": ", s->order_min, s->order_max);
	json_num(f, s->remainder);
	fputs(", \"cutoff\": ", f);
	json_num(f, s->cutoff);
	fputs(", \"timeout\": ", f);
	json_num(f, s->timeout);
	fprintf(f, ", \"samples\": %d, \"seed\": %lu},\n  \"unsafe_sets\": [", s->samples, s->seed);
	for (int k = 0; k < n; k++) {
		const vresult *r = &res[k];
		const sw_hybrid *y = jobs[k].sys;
		int q0 = jobs[k].set;
		fputs(k ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
		json_str(f, q0 >= 0 ? y->forbidden[q0].name : "");
		fputs(", \"system\": ", f);
		json_str(f, y->name);
		fputs(", \"what\": ", f);
		json_str(f, q0 >= 0 ? y->forbidden[q0].what : "reachability only");
		fputs(", \"verdict\": ", f);
		json_str(f, verdict_name[r->v]);
		fprintf(f, ", \"completed\": %s, \"flowpipes\": %ld, \"flowstar_result\": ",
			r->completed ? "true" : "false", r->flowpipes);
		json_str(f, r->flowstar);
		fputs(", \"last\": ", f);
		json_str(f, r->last);
		fputs(", \"seconds\": ", f);
		json_num(f, r->seconds);
		fputs(", \"last_box\": [", f);
		for (int q = 0; q < 4; q++) {
			if (q)
				fputs(", ", f);
			json_num(f, r->box[q]);
		}
		fputs("], \"error\": ", f);
		json_str(f, r->why);
		fputc('}', f);
	}
	fprintf(f, "\n  ],\n  \"simulations\": %d,\n  \"witness\": ", w->runs);
	if (!w->found)
		fputs("null", f);
	else {
		fputs("{\"agent\": ", f);
		json_str(f, m->agents[w->agent].name);
		fprintf(f, ", \"with\": \"%s\", \"time\": ", w->with_agent ? "agent" : "obstacle");
		json_num(f, w->t);
		fputs(", \"initial\": {", f);
		for (int q = 0; q < w->n_vars; q++) {
			fputs(q ? ", " : "", f);
			json_str(f, w->names[q]);
			fputs(": ", f);
			json_num(f, w->values[q]);
		}
		fputs("}}", f);
	}
	int differences = 0;
	for (int k = 0; k < h->n_approx; k++)
		differences += !h->approx[k].sound;
	fprintf(f, ",\n  \"export_differences\": %d\n}\n", differences);
	int bad = ferror(f);
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path) != 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* ---- the command ----------------------------------------------------------------------------- */

static int parse_orders(const char *s, int *lo, int *hi)
{
	char *end;
	long a = strtol(s, &end, 10);
	if (end == s || *end != '-')
		return -1;
	const char *t = end + 1;
	long b = strtol(t, &end, 10);
	if (end == t || *end || a < 1 || b < a || b > 30)
		return -1;
	*lo = (int)a;
	*hi = (int)b;
	return 0;
}

/* The tools, from the options or the environment; prints what is missing and returns 0 when
 * all are there. */
static int find_tools(const char **jar, const char **flowstar, const char *java)
{
	if (!*jar)
		*jar = getenv("SWERVE_HYST_JAR");
	if (!*flowstar)
		*flowstar = getenv("SWERVE_FLOWSTAR");
	int missing = 0;
	if (!*jar || !**jar) {
		fprintf(stderr, "swerve verify: HyST's jar is not given: use --hyst-jar JAR or set "
				"SWERVE_HYST_JAR (docs/verification.md says how to get it)\n");
		missing = 1;
	} else if (access(*jar, R_OK) != 0) {
		fprintf(stderr, "swerve verify: cannot read HyST's jar '%s': %s\n", *jar,
			strerror(errno));
		missing = 1;
	}
	if (!*flowstar || !**flowstar) {
		fprintf(stderr, "swerve verify: Flow* is not given: use --flowstar PATH or set "
				"SWERVE_FLOWSTAR (docs/verification.md says how to build it)\n");
		missing = 1;
	} else if (!executable(*flowstar)) {
		fprintf(stderr, "swerve verify: '%s' is not an executable Flow*\n", *flowstar);
		missing = 1;
	}
	if (!executable(java)) {
		fprintf(stderr, "swerve verify: '%s' not found: HyST needs Java (17 works)\n", java);
		missing = 1;
	}
	return missing;
}

int cmd_verify(int argc, char **argv)
{
	enum {
		OPT_HORIZON = 256, OPT_JAR, OPT_FLOWSTAR, OPT_KEEP, OPT_STEP, OPT_ORDERS, OPT_REM,
		OPT_CUTOFF, OPT_TIMEOUT, OPT_SAMPLES, OPT_SEED
	};
	static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
					     {"initial", required_argument, NULL, 'i'},
					     {"horizon", required_argument, NULL, OPT_HORIZON},
					     {"hyst-jar", required_argument, NULL, OPT_JAR},
					     {"flowstar", required_argument, NULL, OPT_FLOWSTAR},
					     {"keep", required_argument, NULL, OPT_KEEP},
					     {"step", required_argument, NULL, OPT_STEP},
					     {"orders", required_argument, NULL, OPT_ORDERS},
					     {"remainder", required_argument, NULL, OPT_REM},
					     {"cutoff", required_argument, NULL, OPT_CUTOFF},
					     {"timeout", required_argument, NULL, OPT_TIMEOUT},
					     {"samples", required_argument, NULL, OPT_SAMPLES},
					     {"seed", required_argument, NULL, OPT_SEED},
					     CLI_LONG};
	vsettings s = {.step = 0.05, .order_min = 3, .order_max = 5, .remainder = 1e-4,
		       .cutoff = 1e-10, .timeout = 120, .samples = 100, .seed = 1};
	const char *out = NULL, *jar = NULL, *flowstar = NULL, *keep = NULL;
	double horizon = 0, num;
	sw_export_range *ranges = calloc((size_t)argc + 1, sizeof *ranges);
	if (!ranges)
		return EXIT_RUNTIME;
	int n_ranges = 0, c, bad = 0;
	optind = 1;
	while (!bad && (c = getopt_long(argc, argv, ":o:i:" CLI_SHORT, opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'i':
			if (cli_parse_initial(optarg, &ranges[n_ranges]) != 0)
				bad = fprintf(stderr, "swerve verify: --initial expects AGENT.VAR=[LO,HI] "
						      "or AGENT.VAR=VALUE\n");
			else
				n_ranges++;
			break;
		case OPT_HORIZON: bad = cli_number("verify", "--horizon", optarg, 1e-9, &horizon); break;
		case OPT_JAR: jar = optarg; break;
		case OPT_FLOWSTAR: flowstar = optarg; break;
		case OPT_KEEP: keep = optarg; break;
		case OPT_STEP: bad = cli_number("verify", "--step", optarg, 1e-9, &s.step); break;
		case OPT_ORDERS:
			if (parse_orders(optarg, &s.order_min, &s.order_max) != 0)
				bad = fprintf(stderr, "swerve verify: --orders expects MIN-MAX, 1 <= MIN "
						      "<= MAX <= 30\n");
			break;
		case OPT_REM: bad = cli_number("verify", "--remainder", optarg, 1e-300, &s.remainder); break;
		case OPT_CUTOFF: bad = cli_number("verify", "--cutoff", optarg, 0, &s.cutoff); break;
		case OPT_TIMEOUT: bad = cli_number("verify", "--timeout", optarg, 1e-3, &s.timeout); break;
		case OPT_SAMPLES:
			bad = cli_number("verify", "--samples", optarg, 0, &num);
			if (!bad && num > 1e6)
				bad = fprintf(stderr, "swerve verify: --samples: at most 1000000\n");
			s.samples = (int)num;
			break;
		case OPT_SEED:
			bad = cli_number("verify", "--seed", optarg, 0, &num);
			s.seed = (unsigned long)num;
			break;
		default: {
			int code = cli_option(c, argv, opts, verify_usage);
			if (code >= 0) {
				free(ranges);
				return code;
			}
		}
		}
	}
	if (bad) {
		if (bad > 0)
			cli_try_help();
		free(ranges);
		return EXIT_BAD_INPUT;
	}
	if ((out && cli_output_option("-o", out)) || (keep && cli_output_option("--keep", keep))) {
		free(ranges);
		return EXIT_BAD_INPUT;
	}
	if (optind != argc - 1) {
		free(ranges);
		return cli_usage_error("expected exactly one scenario file");
	}
	const char *java = getenv("SWERVE_JAVA") && *getenv("SWERVE_JAVA") ? getenv("SWERVE_JAVA")
									    : "java";
	if (find_tools(&jar, &flowstar, java)) {
		free(ranges);
		return EXIT_NO_TOOLS;
	}

	/* Export (profile hyst) into the scratch or kept folder. */
	sw_model *m = NULL;
	int loaded = cli_load(argv[optind], -1, 0.0, &m, NULL); /* prints the load's diagnostics */
	if (loaded != EXIT_OK) {
		free(ranges);
		return loaded;
	}
	static sw_diag diag;
	cli_diag_init(&diag);
	int st;
	sw_export_def def = sw_default_export_def();
	def.profile = SW_PROFILE_HYST;
	def.n_ranges = n_ranges;
	def.ranges = ranges;
	def.time_horizon = horizon > 0 ? horizon : m->run.duration;
	def.sampling_time = s.step;
	sw_hybrid *h = NULL;
	char work[4096];
	if (keep) {
		snprintf(work, sizeof work, "%s", keep);
	} else {
		const char *tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
		snprintf(work, sizeof work, "%s/swerve-verify-XXXXXX", tmpdir);
		if (!mkdtemp(work)) {
			fprintf(stderr, "swerve verify: cannot create a scratch folder in %s: %s\n",
				tmpdir, strerror(errno));
			sw_model_free(m);
			free(ranges);
			return EXIT_RUNTIME;
		}
	}
	st = sw_hybrid_build(m, &def, &h, &diag);
	if (st == SW_SUCCESS)
		st = sw_hybrid_write(h, SW_EXPORT_SPACEEX, work, &diag);
	cli_print_diag(&diag);
	if (st != SW_SUCCESS) {
		if (!keep)
			remove_tree(work);
		sw_hybrid_free(h);
		sw_model_free(m);
		free(ranges);
		return st == SW_EIO || st == SW_ENOMEM ? EXIT_RUNTIME : cli_exit_code(st);
	}

	/* One HyST + Flow* job per unsafe set of each independent system (export/split.c), one at
	 * a time; a system's plain cfg when it has none. */
	sw_hybrid **parts = NULL;
	int n_parts = 0;
	if (sw_hybrid_parts(h, &parts, &n_parts) != SW_SUCCESS)
		n_parts = 0, parts = NULL;
	const sw_hybrid *one[1] = {h};
	const sw_hybrid *const *sys = n_parts ? (const sw_hybrid *const *)parts : one;
	int n_sys = n_parts ? n_parts : 1, n_jobs = 0;
	for (int p = 0; p < n_sys; p++)
		n_jobs += sys[p]->n_forbidden ? sys[p]->n_forbidden : 1;
	vresult *res = calloc((size_t)n_jobs, sizeof *res);
	vjob *jobs = calloc((size_t)n_jobs, sizeof *jobs);
	if (!res || !jobs) {
		free(res);
		free(jobs);
		sw_hybrid_parts_free(parts, n_parts);
		if (!keep)
			remove_tree(work);
		sw_hybrid_free(h);
		sw_model_free(m);
		free(ranges);
		return EXIT_RUNTIME;
	}
	n_jobs = 0;
	for (int p = 0; p < n_sys; p++)
		for (int k = 0; k < (sys[p]->n_forbidden ? sys[p]->n_forbidden : 1); k++)
			jobs[n_jobs++] = (vjob){sys[p], sys[p]->n_forbidden ? k : -1};
	/* the size of what HyST flattens, stated up front */
	for (int p = 0; cli_verbosity >= 0 && p < n_sys; p++) {
		const sw_hybrid *y = sys[p];
		int agents = 0, dim = 0;
		double locs = 1;
		for (int i = 0; i < y->n_instances; i++) {
			agents += y->instances[i].agent >= 0;
			dim += y->components[y->instances[i].component].n_state;
			locs *= y->components[y->instances[i].component].n_locations;
		}
		printf("system %s: %d agent%s%s, product of %.6g locations, %d state variables, %d "
		       "unsafe set%s\n",
		       y->name, agents, agents == 1 ? "" : "s",
		       agents > 1 ? " interacting (one product automaton)" : "", locs, dim,
		       y->n_forbidden, y->n_forbidden == 1 ? "" : "s");
	}
	char xml[SW_NAME_MAX + 8], cfg[4 * SW_NAME_MAX + 32], sub[4 * SW_NAME_MAX + 32];
	verdict v = V_SAFE;
	for (int k = 0; k < n_jobs; k++) {
		const sw_hybrid *y = jobs[k].sys;
		int q = jobs[k].set;
		snprintf(xml, sizeof xml, "%s.xml", y->name);
		if (q >= 0) {
			snprintf(cfg, sizeof cfg, "%s.forbid-%s.cfg", y->name, y->forbidden[q].name);
			snprintf(sub, sizeof sub, "flowstar-%s", y->forbidden[q].name);
		} else {
			snprintf(cfg, sizeof cfg, "%s.cfg", y->name);
			snprintf(sub, sizeof sub, n_parts ? "flowstar-%s" : "flowstar", y->name);
		}
		check_set(java, jar, flowstar, work, xml, cfg, sub, &s, &res[k]);
		const vresult *r = &res[k];
		if (r->v > v)
			v = r->v;
		if (cli_verbosity >= 0) {
			printf("%-28s %-10s", q >= 0 ? y->forbidden[q].name : n_parts ? y->name : "(no unsafe set)",
			       verdict_name[r->v]);
			if (r->flowpipes >= 0)
				printf(" %ld flowpipes%s", r->flowpipes,
				       r->completed ? "" : " (not completed)");
			printf(" %.1f s", r->seconds);
			if (r->v == V_INCOMPLETE && r->last[0])
				printf("; stopped after %s", r->last);
			if (r->why[0])
				printf("; %s", r->why);
			if (isfinite(r->box[0]))
				printf("; last flowpipe x [%.4g, %.4g] y [%.4g, %.4g]", r->box[0],
				       r->box[1], r->box[2], r->box[3]);
			putchar('\n');
			fflush(stdout);
		}
	}

	/* The witness search: corners, centre and samples of the initial set, simulated. */
	witness w;
	memset(&w, 0, sizeof w);
	if (search_witness(m, ranges, n_ranges, def.time_horizon, &s, &w, &diag) != 0)
		cli_print_diag(&diag);
	verdict flowstar_v = v;
	if (w.found)
		v = V_UNSAFE;
	int differences = 0;
	for (int k = 0; k < h->n_approx; k++)
		differences += !h->approx[k].sound;
	printf("verdict: %s", verdict_name[v]);
	if (w.found) {
		printf(" (simulated witness: agent '%s' overlaps %s at t = %g s from", m->agents[w.agent].name,
		       w.with_agent ? "another agent" : "an obstacle", w.t);
		if (!w.n_vars)
			printf(" the scenario's initial state");
		for (int q = 0; q < w.n_vars; q++)
			printf(" %s=%.17g", w.names[q], w.values[q]);
		printf(")");
		if (flowstar_v == V_SAFE)
			printf("; Flow* proved the exported ODE safe: the simulation departs from it "
			       "(%d differences in report.txt)",
			       differences);
	} else
		printf(" (%d simulations of the initial set without a collision)", w.runs);
	if (h->n_forbidden == 0)
		printf("; the scenario has no unsafe set");
	putchar('\n');

	int code = v == V_SAFE	       ? EXIT_OK
		   : v == V_UNSAFE     ? EXIT_UNSAFE
		   : v == V_UNKNOWN    ? EXIT_UNKNOWN
		   : v == V_INCOMPLETE ? EXIT_INCOMPLETE
				       : EXIT_RUNTIME;
	if (out && write_summary(out, m, h, jobs, n_jobs, res, v, &w, &s, def.time_horizon, jar,
				 flowstar) != 0) {
		fprintf(stderr, "swerve verify: cannot write %s: %s\n", out, strerror(errno));
		code = EXIT_RUNTIME;
	}
	if (keep && cli_verbosity >= 0)
		fprintf(stderr, "swerve verify: export, Flow* models and logs kept in %s\n", keep);
	if (!keep)
		remove_tree(work);
	free(res);
	free(jobs);
	sw_hybrid_parts_free(parts, n_parts);
	sw_hybrid_free(h);
	sw_model_free(m);
	free(ranges);
	return code;
}
