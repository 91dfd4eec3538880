/* io/output.c - run outputs written atomically, committed as a set.
 *
 * Every file is written to a temporary file (sw_atomic_open: mkstemp in the destination
 * directory) and renamed over its final name only when the whole run has been written, so a
 * failed or interrupted run never leaves a half-written output behind.  The set is committed
 * with summary.json as its record: the old summary.json is removed first (and the removal made
 * durable), then trajectory.csv and events.jsonl are renamed into place, and the new summary.json
 * last.  A run killed between two renames therefore leaves no summary.json at all, never an old
 * one saying "complete" beside a new trajectory: outputs without a summary.json are not a
 * finished run (docs/robustness.md, "Output files"). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core_internal.h"
#include "io_internal.h"
#include "swerve/io.h"

enum { OUT_TRAJ = 0, OUT_EVENTS = 1, OUT_SUMMARY = 2, OUT_VARS = 3, OUT_N = 4 };
static const char *out_names[OUT_N] = {"trajectory.csv", "events.jsonl", "summary.json",
				       "variables.csv"};

struct sw_output {
	const sw_model *m;
	char dir[4096];
	char tmp[OUT_N][4200];
	FILE *f[OUT_N];
	int n_files; /* OUT_VARS + 1 with variables.csv, else OUT_VARS */
	int failed; /* a write failed */
	int err, err_file; /* errno and file (OUT_*) of the first failed write */
};

/* Records a failed write to file k (the first one is what the message names). */
static void fail(sw_output *o, int k)
{
	if (!o->failed) {
		o->err = errno ? errno : EIO;
		o->err_file = k;
	}
	o->failed = 1;
}

void sw_output_report(const sw_output *o, sw_diag *diag)
{
	if (!o || !o->failed)
		return;
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", o->dir, out_names[o->err_file]);
	sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "cannot write the output: %s",
		    strerror(o->err));
}

void sw_output_abort(sw_output *o)
{
	if (!o)
		return;
	for (int k = 0; k < o->n_files; k++)
		sw_atomic_abort(o->f[k], o->tmp[k]);
	free(o);
}

static void on_event(const sw_world *w, int agent, double t, int from, int to, const char *label,
		     const char *guard, void *ctx)
{
	sw_output *o = ctx;
	FILE *f = o->f[OUT_EVENTS];
	char num[40];
	fprintf(f, "{\"t\":%s,\"agent\":", sw_fmt_num(num, sizeof num, t));
	sw__json_str(f, sw_world_unit_name(w, agent));
	fputs(",\"from\":", f);
	sw__json_str(f, sw_world_mode_name(w, agent, from));
	fputs(",\"to\":", f);
	sw__json_str(f, sw_world_mode_name(w, agent, to));
	fputs(",\"label\":", f);
	sw__json_str(f, label);
	fputs(",\"guard\":", f);
	sw__json_str(f, guard);
	if (fputs("}\n", f) < 0)
		fail(o, OUT_EVENTS);
}

const char *sw_output_file_name(unsigned flags, int k)
{
	int n = flags & SW_OUTPUT_VARIABLES ? OUT_VARS + 1 : OUT_VARS;
	return k >= 0 && k < n ? out_names[k] : NULL;
}

int sw_output_open(const char *dir, const sw_model *m, sw_output **out, sw_diag *diag)
{
	return sw_output_open_ex(dir, m, 0, out, diag);
}

int sw_output_open_ex(const char *dir, const sw_model *m, unsigned flags, sw_output **out,
		      sw_diag *diag)
{
	*out = NULL;
	if (!dir || !dir[0])
		return sw_diag_add(diag, SW_SEV_ERROR, NULL, 0, 0,
				   "the output directory name is empty; expected a folder name"),
		       SW_EUSAGE;
	if (sw_make_dirs(dir) != 0)
		return sw_diag_add(diag, SW_SEV_ERROR, dir, 0, 0,
				   "cannot create output directory: %s", strerror(errno)),
		       SW_EIO;
	sw_output *o = calloc(1, sizeof *o);
	if (!o)
		return SW_ENOMEM;
	o->m = m;
	while (sw_output_file_name(flags, o->n_files))
		o->n_files++;
	snprintf(o->dir, sizeof o->dir, "%s", dir);
	for (int k = 0; k < o->n_files; k++) {
		char final[4200];
		snprintf(final, sizeof final, "%s/%s", dir, sw_output_file_name(flags, k));
		if (!(o->f[k] = sw_atomic_open(final, o->tmp[k], sizeof o->tmp[k], diag))) {
			sw_output_abort(o);
			return SW_EIO;
		}
	}
	/* 3-D scenarios: z and the heading unit vector follow (heading is then the azimuth). */
	if (fprintf(o->f[OUT_TRAJ], "t,agent,mode,x,y,heading,speed,w_tar,w_obs%s\n",
		    m->dim3 ? ",z,ux,uy,uz" : "") < 0)
		fail(o, OUT_TRAJ);
	if (o->f[OUT_VARS] && fputs("t,unit,mode,variable,value\n", o->f[OUT_VARS]) < 0)
		fail(o, OUT_VARS);
	*out = o;
	return SW_SUCCESS;
}

void sw_output_attach(sw_output *o, sw_world *w)
{
	sw_world_set_event_fn(w, on_event, o);
}

/* Writes one CSV field as RFC 4180 has it: enclosed in double quotes, each quote doubled, when it
 * holds a comma, a quote or a line break (a name "a,b" stays one column for every CSV reader);
 * otherwise as it is, so that ordinary names read as before.  Returns EOF when a write fails. */
static int csv_field(FILE *f, const char *s)
{
	if (s[strcspn(s, ",\"\r\n")] == '\0')
		return fputs(s, f);
	if (fputc('"', f) == EOF)
		return EOF;
	for (; *s; s++)
		if ((*s == '"' && fputc('"', f) == EOF) || fputc(*s, f) == EOF)
			return EOF;
	return fputc('"', f);
}

/* The automaton of unit u (an agent with a behaviour, or a signal), or NULL. */
static const sw_automaton *unit_automaton(const sw_model *m, int u)
{
	if (u < m->n_agents)
		return m->agents[u].behaviour >= 0 ? m->automata[m->agents[u].behaviour] : NULL;
	return m->automata[m->signals[u - m->n_agents].automaton];
}

/* variables.csv rows of every automaton unit at time t. */
static int sample_variables(sw_output *o, const sw_world *w, double t)
{
	FILE *f = o->f[OUT_VARS];
	char num[40]; /* values as the shortest text that reads back (0.3, not 0.29999999999999999) */
	for (int u = 0; u < sw_world_n_units(w); u++) {
		const sw_automaton *a = unit_automaton(o->m, u);
		if (!a)
			continue;
		int dim, nv = sw_automaton_n_vars(a);
		const double *y = sw_world_unit_state(w, u, &dim);
		const double *v = y + SW_STATE_DIM + 1; /* after time_in_mode */
		const char *mode = sw_world_mode_name(w, u, sw_world_unit_mode(w, u));
		for (int k = 0; k < (nv > 0 ? nv : 1); k++) {
			if (fprintf(f, "%.10g,", t) < 0 ||
			    csv_field(f, sw_world_unit_name(w, u)) == EOF || fputc(',', f) == EOF ||
			    csv_field(f, mode) == EOF || fputc(',', f) == EOF ||
			    (nv > 0 && (csv_field(f, sw_automaton_var_name(a, k)) == EOF ||
					fprintf(f, ",%s\n", sw_fmt_num(num, sizeof num, v[k])) < 0)) ||
			    (nv == 0 && fputs(",\n", f) == EOF)) {
				fail(o, OUT_VARS);
				return SW_EIO;
			}
		}
	}
	return SW_SUCCESS;
}

int sw_output_sample(const sw_world *w, void *ctx)
{
	sw_output *o = ctx;
	const sw_model *m = o->m;
	double t = sw_world_time(w);
	for (int i = 0; i < m->n_agents; i++) {
		sw_agent_state s;
		sw_world_agent(w, i, &s);
		const double *y = s.y;
		char tail[128] = "\n"; /* 3-D: z, ux, uy, uz first */
		const double *q = sw_world_agent3(w, i);
		if (q)
			snprintf(tail, sizeof tail, ",%.10g,%.10g,%.10g,%.10g\n", q[SW_STATE3_Z],
				 q[SW_STATE3_UX], q[SW_STATE3_UY], q[SW_STATE3_UZ]);
		FILE *f = o->f[OUT_TRAJ];
		if (fprintf(f, "%.10g,", t) < 0 || csv_field(f, m->agents[i].name) == EOF ||
		    fputc(',', f) == EOF || csv_field(f, sw_world_mode_name(w, i, s.mode)) == EOF ||
		    fprintf(f, ",%.10g,%.10g,%.10g,%.10g,%.10g,%.10g%s", y[SW_STATE_X],
			    y[SW_STATE_Y], sw_wrap_angle(y[SW_STATE_PHI]), y[SW_STATE_V],
			    y[SW_STATE_WTAR], y[SW_STATE_WOBS], tail) < 0) {
			fail(o, OUT_TRAJ);
			return SW_EIO;
		}
	}
	return o->f[OUT_VARS] ? sample_variables(o, w, t) : SW_SUCCESS;
}

int sw_output_commit(sw_output *o, const sw_world *w, const char *error, sw_diag *diag)
{
	if (sw_summary_write_json(o->f[OUT_SUMMARY], w, error) != SW_SUCCESS)
		fail(o, OUT_SUMMARY);
	char final[OUT_N][4200];
	int st = SW_SUCCESS;
	for (int k = 0; k < o->n_files; k++) {
		snprintf(final[k], sizeof final[k], "%s/%s", o->dir, out_names[k]);
		if (st == SW_SUCCESS)
			st = sw_atomic_close(o->f[k], o->tmp[k], final[k], diag);
		else
			sw_atomic_abort(o->f[k], o->tmp[k]);
		o->f[k] = NULL;
		if (st != SW_SUCCESS)
			o->tmp[k][0] = '\0'; /* removed */
	}
	if (st == SW_SUCCESS && o->failed) {
		sw_output_report(o, diag);
		st = SW_EIO;
	}
	/* The old record goes first: from here until the new one is renamed, the directory holds
	 * no summary.json, so a mix of old and new files is never taken for a finished run. */
	if (st == SW_SUCCESS && (unlink(final[OUT_SUMMARY]) != 0 && errno != ENOENT)) {
		sw_diag_add(diag, SW_SEV_ERROR, final[OUT_SUMMARY], 0, 0,
			    "cannot remove the previous run's summary: %s", strerror(errno));
		st = SW_EIO;
	}
	if (st == SW_SUCCESS && sw_sync_dir(o->dir) != 0) {
		sw_diag_add(diag, SW_SEV_ERROR, o->dir, 0, 0, "cannot sync the output directory: %s",
			    strerror(errno));
		st = SW_EIO;
	}
	/* summary.json last: it is the commit record */
	static const int order[OUT_N] = {OUT_TRAJ, OUT_EVENTS, OUT_VARS, OUT_SUMMARY};
	for (int i = 0; i < OUT_N && st == SW_SUCCESS; i++) {
		int k = order[i];
		if (k >= o->n_files)
			continue;
		st = sw_atomic_rename(o->tmp[k], final[k], diag);
		o->tmp[k][0] = '\0'; /* renamed, or removed on failure */
	}
	/* Durable commit record; a failure here leaves a complete set that may not survive a
	 * crash, which is still reported. */
	if (st == SW_SUCCESS && sw_sync_dir(o->dir) != 0) {
		sw_diag_add(diag, SW_SEV_ERROR, o->dir, 0, 0, "cannot sync the output directory: %s",
			    strerror(errno));
		st = SW_EIO;
	}
	if (st != SW_SUCCESS) {
		sw_output_abort(o);
		return SW_EIO;
	}
	free(o);
	return SW_SUCCESS;
}

/* The bytes of output file k written so far (flushed and read back); malloc'ed into *p. */
static int read_back(sw_output *o, int k, unsigned char **p, uint64_t *n)
{
	*p = NULL;
	if (fflush(o->f[k]) != 0)
		return SW_EIO;
	FILE *r = fopen(o->tmp[k], "rb");
	if (!r)
		return SW_EIO;
	int st = SW_SUCCESS;
	if (fseek(r, 0, SEEK_END) != 0)
		st = SW_EIO;
	long size = st == SW_SUCCESS ? ftell(r) : -1;
	if (size < 0 || fseek(r, 0, SEEK_SET) != 0)
		st = SW_EIO;
	if (st == SW_SUCCESS && !(*p = malloc((size_t)size + 1)))
		st = SW_ENOMEM;
	if (st == SW_SUCCESS && fread(*p, 1, (size_t)size, r) != (size_t)size)
		st = SW_EIO;
	fclose(r);
	*n = (uint64_t)(size < 0 ? 0 : size);
	return st;
}

/* The files a checkpoint carries, in its order: trajectory, events, then variables when open. */
static int saved_files(const sw_output *o, int files[3])
{
	files[0] = OUT_TRAJ;
	files[1] = OUT_EVENTS;
	files[2] = OUT_VARS;
	return o->f[OUT_VARS] ? 3 : 2;
}

int sw_output_save(sw_output *o, void **out, size_t *len)
{
	unsigned char *part[3] = {NULL, NULL, NULL};
	uint64_t n[3] = {0, 0, 0};
	int files[3], nf = saved_files(o, files), st = SW_SUCCESS;
	for (int k = 0; k < nf && st == SW_SUCCESS; k++)
		st = read_back(o, files[k], &part[k], &n[k]);
	unsigned char *buf =
	    st == SW_SUCCESS ? malloc(3 * sizeof n[0] + n[0] + n[1] + n[2] + 1) : NULL;
	if (st == SW_SUCCESS && !buf)
		st = SW_ENOMEM;
	if (st == SW_SUCCESS) {
		size_t at = 0;
		for (int k = 0; k < nf; k++) {
			memcpy(buf + at, &n[k], sizeof n[k]);
			at += sizeof n[k];
			memcpy(buf + at, part[k], n[k]);
			at += n[k];
		}
		*out = buf;
		*len = at;
	}
	for (int k = 0; k < 3; k++)
		free(part[k]);
	return st;
}

int sw_output_restore(sw_output *o, const void *data, size_t len)
{
	const unsigned char *p = data, *end = p + len;
	int files[3], nf = saved_files(o, files);
	for (int k = 0; k < nf; k++) {
		uint64_t n;
		if ((size_t)(end - p) < sizeof n)
			return SW_EINPUT;
		memcpy(&n, p, sizeof n);
		p += sizeof n;
		if (n > (uint64_t)(end - p))
			return SW_EINPUT;
		FILE *f = o->f[files[k]];
		/* The fresh file may already hold the CSV header: start it over. */
		if (fflush(f) != 0 || ftruncate(fileno(f), 0) != 0 || fseek(f, 0, SEEK_SET) != 0 ||
		    fwrite(p, 1, (size_t)n, f) != (size_t)n)
			return SW_EIO;
		p += n;
	}
	return p == end ? SW_SUCCESS : SW_EINPUT;
}
