/* core/files.c - directory creation and number text shared by the output writers (run outputs,
 * exports, imports). */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
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
	/* %.17g always reads back; the fewest digits that do give the shortest mantissa, but %g
	 * may write it with an exponent ("3e+01") where more digits print shorter without one
	 * ("30"): of the precisions that read back, keep the shortest text (the first on ties). */
	char best[40] = "", cand[40];
	int digits = 1;
	for (; digits <= 17; digits++) {
		snprintf(best, sizeof best, "%.*g", digits, v);
		if (strtod(best, NULL) == v)
			break;
	}
	for (int d = digits + 1; d <= 17 && strchr(best, 'e'); d++) {
		snprintf(cand, sizeof cand, "%.*g", d, v);
		if (strlen(cand) < strlen(best) && strtod(cand, NULL) == v)
			memcpy(best, cand, strlen(cand) + 1);
	}
	snprintf(buf, n, "%s", best);
	return buf;
}
