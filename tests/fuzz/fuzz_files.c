/* tests/fuzz/fuzz_files.c - the private folder and file helpers of the harnesses (see
 * fuzz_files.h). */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_files.h"

static char private_dir[4096];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (ftw->level == 0)
		return 0; /* the folder itself: see the callers */
	return remove(path) == 0 ? 0 : -1;
}

int fuzz_clear_dir(const char *dir)
{
	return nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0 ? 0 : -1;
}

static void remove_private_dir(void)
{
	if (private_dir[0]) {
		fuzz_clear_dir(private_dir);
		rmdir(private_dir);
	}
}

const char *fuzz_private_dir(void)
{
	if (private_dir[0])
		return private_dir;
	const char *tmp = getenv("TMPDIR");
	if (!tmp || !tmp[0])
		tmp = "/tmp";
	char buf[sizeof private_dir];
	if (snprintf(buf, sizeof buf, "%s/swerve-fuzz-XXXXXX", tmp) >= (int)sizeof buf ||
	    !mkdtemp(buf))
		return NULL;
	/* Absolute, so that it stays valid when a harness changes the working folder. */
	if (!realpath(buf, private_dir)) {
		rmdir(buf);
		private_dir[0] = '\0';
		return NULL;
	}
	atexit(remove_private_dir);
	return private_dir;
}

int fuzz_write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -1;
	const char *p = data;
	while (len > 0) {
		ssize_t k = write(fd, p, len);
		if (k <= 0) {
			close(fd);
			return -1;
		}
		p += k;
		len -= (size_t)k;
	}
	return close(fd);
}

void *fuzz_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		char *p = realloc(buf, 2 * cap);
		if (!p) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = p;
		cap *= 2;
	}
	if (buf && ferror(f)) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

const sw_diag_entry *fuzz_first_error(const sw_diag *diag)
{
	for (int i = 0; i < diag->count; i++)
		if (diag->entry[i].severity == SW_SEV_ERROR)
			return &diag->entry[i];
	return NULL;
}
