/* cli/checkpoint_cli.c - `swerve run --checkpoint-every T` and `--resume`.
 *
 * A run checkpoint is one file, DIR/checkpoint.swck beside the outputs, replaced atomically
 * (sw_atomic_open: unpredictable temporary, fsync, rename) at the first sample at or after every multiple of T: the run
 * settings it was made with, the world's state (sw_world_checkpoint) and the trajectory and
 * event lines written so far (sw_output_save), then a checksum of all of it.  `--resume` creates
 * the world and the outputs as usual, restores both from the file and runs on; the outputs are
 * then byte for byte those of an uninterrupted run (tests/cli_test.sh).  A finished run removes
 * its checkpoint. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core_internal.h"
#include "cli.h"

#define CK_MAGIC "SWRUN001"
/* Largest checkpoint read back (the outputs are in it): 4 GiB. */
#define CK_MAX_BYTES (4ull << 30)

void cli_ckpt_path(char *buf, size_t n, const char *dir)
{
	snprintf(buf, n, "%s/checkpoint.swck", dir);
}

/* Appends n bytes to f and to the running checksum h. */
static int emit(FILE *f, uint64_t *h, const void *data, size_t n)
{
	*h = sw_hash_bytes(*h, data, n);
	return fwrite(data, 1, n, f) == n ? 0 : -1;
}

int cli_ckpt_write(const char *dir, const sw_world *w, sw_output *o, sw_diag *diag)
{
	void *wb = NULL, *ob = NULL;
	size_t wn = 0, on = 0;
	char tmp[4200], final[4200];
	cli_ckpt_path(final, sizeof final, dir);
	int st = sw_world_checkpoint(w, &wb, &wn);
	if (st == SW_SUCCESS)
		st = sw_output_save(o, &ob, &on);
	if (st == SW_EIO)
		sw_diag_add(diag, SW_SEV_ERROR, final, 0, 0,
			    "cannot write the checkpoint: reading back the outputs failed: %s",
			    strerror(errno));
	FILE *f = st == SW_SUCCESS ? sw_atomic_open(final, tmp, sizeof tmp, diag) : NULL;
	if (st == SW_SUCCESS && !f)
		st = SW_EIO;
	if (f) {
		uint64_t h = SW_HASH_INIT, lw = wn, lo = on;
		double settings[3] = {sw_world_duration(w), sw_world_model(w)->run.step,
				      sw_world_sample(w)};
		int bad = emit(f, &h, CK_MAGIC, 8) || emit(f, &h, settings, sizeof settings) ||
			  emit(f, &h, &lw, sizeof lw) || emit(f, &h, wb, wn) ||
			  emit(f, &h, &lo, sizeof lo) || emit(f, &h, ob, on);
		bad |= fwrite(&h, sizeof h, 1, f) != 1;
		if (bad) {
			sw_atomic_abort(f, tmp);
			sw_diag_add(diag, SW_SEV_ERROR, final, 0, 0, "cannot write the checkpoint: %s",
				    strerror(errno));
			st = SW_EIO;
		} else {
			st = sw_atomic_commit(f, tmp, final, diag);
		}
	}
	free(wb);
	free(ob);
	return st;
}

/* Reads the whole checkpoint file into *buf (malloc'ed). */
static int read_all(const char *path, unsigned char **buf, size_t *len, sw_diag *diag)
{
	/* A regular file only: a FIFO planted in its place would block the resume. */
	char why[256];
	int fd = sw__file_open_regular(path, why, sizeof why);
	int err = errno;
	FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
	if (!f) {
		if (fd >= 0) {
			snprintf(why, sizeof why, "%s", strerror(errno));
			close(fd);
		}
		return sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0,
				   "cannot read the checkpoint: %s; expected the file a run with "
				   "--checkpoint-every left in its output directory",
				   why),
		       fd == -2 || err == ENOENT ? SW_EINPUT : SW_EIO;
	}
	int st = SW_SUCCESS;
	long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
	if (size < 0 || (unsigned long long)size > CK_MAX_BYTES || fseek(f, 0, SEEK_SET) != 0)
		st = (sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0,
				 "the checkpoint cannot be read whole (at most 4 GiB)"), SW_EINPUT);
	*buf = st == SW_SUCCESS ? malloc((size_t)size + 1) : NULL;
	if (st == SW_SUCCESS && !*buf)
		st = SW_ENOMEM;
	if (st == SW_SUCCESS && fread(*buf, 1, (size_t)size, f) != (size_t)size)
		st = (sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "cannot read the checkpoint"), SW_EIO);
	fclose(f);
	*len = (size_t)(size < 0 ? 0 : size);
	return st;
}

int cli_ckpt_resume(const char *dir, sw_world *w, sw_output *o, sw_diag *diag)
{
	char path[4200];
	cli_ckpt_path(path, sizeof path, dir);
	unsigned char *b = NULL;
	size_t n = 0;
	int st = read_all(path, &b, &n, diag);
	uint64_t h, lw, lo;
	double settings[3];
	size_t head = 8 + sizeof settings + sizeof lw;
	if (st == SW_SUCCESS &&
	    (n < head + 2 * sizeof h || memcmp(b, CK_MAGIC, 8) != 0 ||
	     (memcpy(&h, b + n - sizeof h, sizeof h), sw_hash_bytes(SW_HASH_INIT, b, n - sizeof h) != h)))
		st = (sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0,
				 "not an intact swerve run checkpoint (wrong header or checksum)"), SW_EINPUT);
	if (st == SW_SUCCESS) {
		double now[3] = {sw_world_duration(w), sw_world_model(w)->run.step,
				 sw_world_sample(w)};
		memcpy(settings, b + 8, sizeof settings);
		memcpy(&lw, b + 8 + sizeof settings, sizeof lw);
		if (memcmp(settings, now, sizeof now) != 0)
			st = (sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0,
					 "the checkpoint was made with duration %g s, step %g s, sample "
					 "%g s; expected the same as this run (%g, %g, %g)",
					 settings[0], settings[1], settings[2], now[0], now[1], now[2]),
			      SW_EINPUT);
		else if (lw > n - head - 2 * sizeof h)
			st = (sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "the checkpoint is truncated"), SW_EINPUT);
	}
	if (st == SW_SUCCESS)
		st = sw_world_restore(w, b + head, (size_t)lw, path, diag);
	if (st == SW_SUCCESS) {
		memcpy(&lo, b + head + lw, sizeof lo);
		size_t at = head + (size_t)lw + sizeof lo;
		st = lo == n - sizeof h - at ? sw_output_restore(o, b + at, (size_t)lo) : SW_EINPUT;
		if (st != SW_SUCCESS)
			sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0,
				    "the checkpoint's outputs cannot be restored");
	}
	free(b);
	return st;
}

void cli_ckpt_remove(const char *dir)
{
	char path[4200];
	cli_ckpt_path(path, sizeof path, dir);
	unlink(path);
}

int cli_ckpt_sample(const sw_world *w, void *ctx)
{
	cli_ckpt *c = ctx;
	int st = sw_output_sample(w, c->o);
	double t = sw_world_time(w), eps = 1e-9 * fmax(1.0, t);
	if (st == SW_SUCCESS && c->every > 0.0 && t >= c->next - eps && sw_world_steps(w) > 0) {
		st = cli_ckpt_write(c->dir, w, c->o, c->diag);
		while (c->next <= t + eps)
			c->next += c->every;
	}
	if (st == SW_SUCCESS && c->halt_at > 0.0 && t >= c->halt_at - eps) {
		c->halted = 1;
		return SW_EUSAGE; /* stops the run; the caller knows why */
	}
	return st;
}
