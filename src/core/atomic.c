/* core/atomic.c - the one way swerve writes a file: a temporary beside it, renamed over it.
 *
 * The temporary is created by mkstemps in the destination's directory, so its name cannot be
 * guessed and O_EXCL refuses anything already there (a pre-planted file or symlink is never
 * opened, let alone followed), and rename(2) within one file system replaces the final name in
 * one step: a reader sees the old file or the whole new one, never a part.  mkstemp creates mode
 * 0600; the file is given 0666 & ~umask, what fopen would have created.  The data is fsynced
 * before the rename, so after a crash the new name never holds a file whose blocks were lost.
 * On any failure the temporary is removed and errno keeps the cause. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "swerve/core.h"

/* The process's umask.  Linux reports it in /proc/self/status (since 4.7), which leaves it
 * untouched; elsewhere it is read by setting it, briefly racing other threads that create files. */
static mode_t current_umask(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned mask;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "Umask: %o", &mask) == 1) {
			fclose(f);
			return (mode_t)(mask & 0777);
		}
	if (f)
		fclose(f);
	mode_t m = umask(022);
	umask(m);
	return m;
}

/* Adds "cannot VERB: errno text" for path to diag, keeping errno. */
static void report(sw_diag *diag, const char *path, const char *what)
{
	int err = errno;
	sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "cannot %s: %s", what, strerror(err));
	errno = err;
}

FILE *sw_atomic_open(const char *path, char *tmp, size_t n, sw_diag *diag)
{
	if (!path || !tmp || n == 0) {
		errno = EINVAL;
		return NULL;
	}
	tmp[0] = '\0';
	/* DIR/.STEM.XXXXXX.EXT: hidden, in the same directory, the extension kept. */
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t dirlen = (size_t)(base - path);
	if (!base[0]) {
		errno = EISDIR;
		report(diag, path, "write a file there");
		return NULL;
	}
	const char *ext = strrchr(base, '.');
	if (!ext || ext == base)
		ext = base + strlen(base);
	int len = snprintf(tmp, n, "%.*s.%.*s.XXXXXX%s", (int)dirlen, path, (int)(ext - base), base,
			   ext);
	if (len < 0 || (size_t)len >= n) {
		tmp[0] = '\0';
		errno = ENAMETOOLONG;
		report(diag, path, "write");
		return NULL;
	}
	int fd = mkstemps(tmp, (int)strlen(ext));
	if (fd < 0) {
		tmp[0] = '\0';
		report(diag, path, "write");
		return NULL;
	}
	/* Not inherited by programs the caller starts (ffmpeg writes the file by its name). */
	(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
	/* A file system without modes (vfat) refuses fchmod: the file then stays 0600, the safe
	 * side, and is still written. */
	(void)fchmod(fd, 0666 & ~current_umask());
	FILE *f = fdopen(fd, "wb");
	if (!f) {
		int err = errno;
		close(fd);
		unlink(tmp);
		tmp[0] = '\0';
		errno = err;
		report(diag, path, "write");
	}
	return f;
}

int sw_atomic_close(FILE *f, const char *tmp, const char *path, sw_diag *diag)
{
	if (!f)
		return SW_EUSAGE;
	/* errno of a failed write is the best account of an error flag set earlier. */
	int bad = ferror(f) != 0, err = errno;
	if (!bad && (fflush(f) != 0 || fsync(fileno(f)) != 0)) {
		bad = 1;
		err = errno;
	}
	if (fclose(f) != 0 && !bad) {
		bad = 1;
		err = errno;
	}
	if (!bad)
		return SW_SUCCESS;
	if (tmp && tmp[0])
		unlink(tmp);
	errno = err ? err : EIO;
	report(diag, path, "write");
	return SW_EIO;
}

int sw_atomic_rename(const char *tmp, const char *path, sw_diag *diag)
{
	if (!tmp || !tmp[0] || !path)
		return SW_EUSAGE;
	if (rename(tmp, path) == 0)
		return SW_SUCCESS;
	int err = errno;
	unlink(tmp);
	errno = err;
	report(diag, path, "rename the finished file into place");
	return SW_EIO;
}

int sw_atomic_commit(FILE *f, const char *tmp, const char *path, sw_diag *diag)
{
	int st = sw_atomic_close(f, tmp, path, diag);
	return st == SW_SUCCESS ? sw_atomic_rename(tmp, path, diag) : st;
}

void sw_atomic_abort(FILE *f, const char *tmp)
{
	int err = errno;
	if (f)
		fclose(f);
	if (tmp && tmp[0])
		unlink(tmp);
	errno = err;
}

int sw_sync_dir(const char *dir)
{
	int fd = open(dir && dir[0] ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* File systems that cannot sync a directory say EINVAL: nothing more can be done there. */
	int rc = fsync(fd) == 0 || errno == EINVAL ? 0 : -1;
	int err = errno;
	close(fd);
	errno = err;
	return rc;
}
