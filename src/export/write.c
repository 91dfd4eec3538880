/* export/write.c - export files written atomically into a directory.
 *
 * Every file goes to a temporary file (sw_atomic_open) in the destination directory; only when
 * all of them have been written, flushed and synced are they renamed into place (rename is atomic
 * within a file system), so a failed export never leaves half-written files behind.  SpaceEx XML is
 * validated against the built-in schema before anything is written. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export_internal.h"

typedef struct {
	char tmp[4200], final[4200];
	FILE *f;
} pending;

typedef struct {
	pending *p;
	int n, cap;
	const char *dir;
	sw_diag *diag;
	int failed;
} batch;

/* Flushes, syncs and closes the file of entry k (after a failure, removes it). */
static void batch_close(batch *b, int k)
{
	pending *q = &b->p[k];
	if (!q->f)
		return;
	if (b->failed)
		sw_atomic_abort(q->f, q->tmp);
	else if (sw_atomic_close(q->f, q->tmp, q->final, b->diag) != SW_SUCCESS)
		b->failed = 1;
	if (b->failed)
		q->tmp[0] = '\0'; /* removed */
	q->f = NULL;
}

/* Opens a temporary file for `name` (closing the previous one); returns its stream or NULL
 * (batch failed). */
static FILE *batch_open(batch *b, const char *name)
{
	if (b->n > 0)
		batch_close(b, b->n - 1);
	if (b->failed || xi_grow((void **)&b->p, &b->cap, b->n + 1, sizeof *b->p)) {
		b->failed = 1;
		return NULL;
	}
	pending *q = &b->p[b->n];
	memset(q, 0, sizeof *q);
	snprintf(q->final, sizeof q->final, "%s/%s", b->dir, name);
	if (!(q->f = sw_atomic_open(q->final, q->tmp, sizeof q->tmp, b->diag))) {
		b->failed = 1;
		return NULL;
	}
	b->n++;
	return q->f;
}

static int batch_finish(batch *b)
{
	for (int k = 0; k < b->n; k++)
		batch_close(b, k);
	for (int k = 0; !b->failed && k < b->n; k++) {
		if (sw_atomic_rename(b->p[k].tmp, b->p[k].final, b->diag) != SW_SUCCESS)
			b->failed = 1;
		b->p[k].tmp[0] = '\0'; /* renamed, or removed on failure */
	}
	if (b->failed) {
		for (int k = 0; k < b->n; k++)
			sw_atomic_abort(NULL, b->p[k].tmp);
		if (!b->diag || !b->diag->errors)
			sw_diag_add(b->diag, SW_SEV_ERROR, b->dir, 0, 0, "writing the export failed");
	}
	free(b->p);
	return b->failed ? SW_EIO : SW_SUCCESS;
}

int sw_hybrid_write(const sw_hybrid *h, sw_export_format fmt, const char *dir, sw_diag *diag)
{
	if (!h || !dir)
		return SW_EUSAGE;
	if (fmt == SW_EXPORT_SPACEEX && h->def.profile == SW_PROFILE_EXACT) {
		sw_diag_add(diag, SW_SEV_ERROR, NULL, 0, 0,
			    "the exact profile keeps functions SpaceEx cannot read; export SpaceEx "
			    "with --profile spaceex, hyst or juliareach");
		return SW_EUSAGE;
	}
	char name[320];
	/* SpaceEx: one model per independent system (split.c), or the whole network */
	sw_hybrid **parts = NULL;
	int n_parts = 0, st = SW_SUCCESS;
	if (fmt == SW_EXPORT_SPACEEX && (st = sw_hybrid_parts(h, &parts, &n_parts)) != SW_SUCCESS)
		return st;
	const sw_hybrid *one[1] = {h};
	const sw_hybrid *const *sys = n_parts ? (const sw_hybrid *const *)parts : one;
	int n_sys = n_parts ? n_parts : 1;
	char **xml = calloc((size_t)n_sys, sizeof *xml);
	size_t *len = calloc((size_t)n_sys, sizeof *len);
	if (!xml || !len)
		st = SW_ENOMEM;
	for (int p = 0; fmt == SW_EXPORT_SPACEEX && st == SW_SUCCESS && p < n_sys; p++) {
		st = sw_hybrid_spaceex_xml(sys[p], &xml[p], &len[p]);
		snprintf(name, sizeof name, "%s.xml", sys[p]->name);
		if (st == SW_SUCCESS && sw_spaceex_validate(xml[p], len[p], name, diag) != SW_SUCCESS)
			st = SW_EINPUT;
	}
	if (st != SW_SUCCESS) {
		for (int p = 0; xml && p < n_sys; p++)
			free(xml[p]);
		free(xml);
		free(len);
		sw_hybrid_parts_free(parts, n_parts);
		return st;
	}
	if (sw_make_dirs(dir) != 0) {
		for (int p = 0; p < n_sys; p++)
			free(xml[p]);
		free(xml);
		free(len);
		sw_hybrid_parts_free(parts, n_parts);
		sw_diag_add(diag, SW_SEV_ERROR, dir, 0, 0, "cannot create output directory: %s",
			    strerror(errno));
		return SW_EIO;
	}
	batch b = {NULL, 0, 0, dir, diag, 0};
	FILE *f;
	switch (fmt) {
	case SW_EXPORT_SPACEEX:
		for (int p = 0; p < n_sys; p++) {
			const sw_hybrid *v = sys[p];
			snprintf(name, sizeof name, "%s.xml", v->name);
			if ((f = batch_open(&b, name)) != NULL)
				fwrite(xml[p], 1, len[p], f);
			snprintf(name, sizeof name, "%s.cfg", v->name);
			if ((f = batch_open(&b, name)) != NULL)
				sw_hybrid_spaceex_cfg(v, -1, f);
			for (int k = 0; k < v->n_forbidden; k++) {
				snprintf(name, sizeof name, "%s.forbid-%s.cfg", v->name,
					 v->forbidden[k].name);
				if ((f = batch_open(&b, name)) != NULL)
					sw_hybrid_spaceex_cfg(v, k, f);
			}
		}
		break;
	case SW_EXPORT_DOT:
		snprintf(name, sizeof name, "%s.dot", h->name);
		if ((f = batch_open(&b, name)) != NULL)
			sw_hybrid_dot(h, f);
		break;
	case SW_EXPORT_JSON:
		snprintf(name, sizeof name, "%s.json", h->name);
		if ((f = batch_open(&b, name)) != NULL)
			sw_hybrid_json(h, f);
		break;
	default: b.failed = 1; break;
	}
	for (int p = 0; p < n_sys; p++)
		free(xml[p]);
	free(xml);
	free(len);
	sw_hybrid_parts_free(parts, n_parts);
	if ((f = batch_open(&b, "report.txt")) != NULL)
		sw_hybrid_report(h, fmt, f);
	st = batch_finish(&b);
	if (st == SW_SUCCESS && h->def.progress)
		h->def.progress(1.0, h->def.progress_ctx);
	return st;
}
