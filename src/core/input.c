/* core/input.c - opening input files: regular files only (docs/robustness.md section 7). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core_internal.h"

/* What a file of mode `mode` is, for messages. */
static const char *kind_of(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a plain file";
}

int sw__file_open_regular(const char *path, char *why, size_t n)
{
	/* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. */
	int fd = path ? open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		int e = path ? errno : EINVAL;
		if (fd >= 0)
			close(fd);
		if (n > 0 && strerror_r(e, why, n) != 0)
			snprintf(why, n, "error %d", e);
		errno = e;
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		if (n > 0)
			snprintf(why, n, "%s, not a regular file", kind_of(st.st_mode));
		return -2;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}
