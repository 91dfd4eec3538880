/* core/files.c - directory creation and number text shared by the output writers (run outputs,
 * exports, imports). */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <sys/stat.h>

#include "swerve/core.h"

int sw_make_dirs(const char *dir)
{
	char buf[4096];
	if (!dir || !dir[0] || snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf) {
		errno = dir && dir[0] ? ENAMETOOLONG : EINVAL; /* never a stale errno */
		return -1;
	}
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0777) != 0 && errno != EEXIST)
		return -1;
	return 0;
}

const char *sw_fmt_num(char *buf, size_t n, double v)
{
	/* %.17g always reads back; the first shorter one that does is the shortest. */
	for (int digits = 1; digits <= 17; digits++) {
		snprintf(buf, n, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}
