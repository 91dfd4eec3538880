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

#include "io_internal.h"
#include "swerve/io.h"

enum { OUT_TRAJ = 0, OUT_EVENTS = 1, OUT_SUMMARY = 2, OUT_N = 3 };
static const char *out_names[OUT_N] = {"trajectory.csv", "events.jsonl", "summary.json"};

struct sw_output {
	const sw_model *m;
	char dir[4096];
	char tmp[OUT_N][4200];
	FILE *f[OUT_N];
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
	for (int k = 0; k < OUT_N; k++)
		sw_atomic_abort(o->f[k], o->tmp[k]);
	free(o);
}

static void on_event(const sw_world *w, int agent, double t, int from, int to, const char *label,
		     const char *guard, void *ctx)
{
	sw_output *o = ctx;
	FILE *f = o->f[OUT_EVENTS];
	fprintf(f, "{\"t\":%.17g,\"agent\":", t);
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

int sw_output_open(const char *dir, const sw_model *m, sw_output **out, sw_diag *diag)
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
	snprintf(o->dir, sizeof o->dir, "%s", dir);
	for (int k = 0; k < OUT_N; k++) {
		char final[4200];
		snprintf(final, sizeof final, "%s/%s", dir, out_names[k]);
		if (!(o->f[k] = sw_atomic_open(final, o->tmp[k], sizeof o->tmp[k], diag))) {
			sw_output_abort(o);
			return SW_EIO;
		}
	}
	/* 3-D scenarios: z and the heading unit vector follow (heading is then the azimuth). */
	if (fprintf(o->f[OUT_TRAJ], "t,agent,mode,x,y,heading,speed,w_tar,w_obs%s\n",
		    m->dim3 ? ",z,ux,uy,uz" : "") < 0)
		fail(o, OUT_TRAJ);
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
	return SW_SUCCESS;
}

int sw_output_commit(sw_output *o, const sw_world *w, const char *error, sw_diag *diag)
{
	if (sw_summary_write_json(o->f[OUT_SUMMARY], w, error) != SW_SUCCESS)
		fail(o, OUT_SUMMARY);
	char final[OUT_N][4200];
	int st = SW_SUCCESS;
	for (int k = 0; k < OUT_N; k++) {
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
	static const int order[OUT_N] = {OUT_TRAJ, OUT_EVENTS, OUT_SUMMARY}; /* summary last */
	for (int i = 0; i < OUT_N && st == SW_SUCCESS; i++) {
		int k = order[i];
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

int sw_output_save(sw_output *o, void **out, size_t *len)
{
	unsigned char *part[2] = {NULL, NULL};
	uint64_t n[2] = {0, 0};
	int st = read_back(o, OUT_TRAJ, &part[0], &n[0]);
	if (st == SW_SUCCESS)
		st = read_back(o, OUT_EVENTS, &part[1], &n[1]);
	unsigned char *buf = st == SW_SUCCESS ? malloc(2 * sizeof n[0] + n[0] + n[1] + 1) : NULL;
	if (st == SW_SUCCESS && !buf)
		st = SW_ENOMEM;
	if (st == SW_SUCCESS) {
		size_t at = 0;
		for (int k = 0; k < 2; k++) {
			memcpy(buf + at, &n[k], sizeof n[k]);
			at += sizeof n[k];
			memcpy(buf + at, part[k], n[k]);
			at += n[k];
		}
		*out = buf;
		*len = at;
	}
	free(part[0]);
	free(part[1]);
	return st;
}

int sw_output_restore(sw_output *o, const void *data, size_t len)
{
	const unsigned char *p = data, *end = p + len;
	int files[2] = {OUT_TRAJ, OUT_EVENTS};
	for (int k = 0; k < 2; k++) {
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
