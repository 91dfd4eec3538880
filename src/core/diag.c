/* core/diag.c - diagnostics lists and status names. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "swerve/core.h"

const char *sw_strerror(int status)
{
	switch (status) {
	case SW_SUCCESS: return "success";
	case SW_EINPUT: return "bad input";
	case SW_EIO: return "input/output error";
	case SW_ENUMERIC: return "numeric failure";
	case SW_EZENO: return "Zeno behaviour (too many jumps at one instant)";
	case SW_EMODEL: return "model error";
	case SW_ENOMEM: return "out of memory";
	case SW_EUSAGE: return "invalid call";
	default: return gsl_strerror(status);
	}
}

void sw_diag_init(sw_diag *diag)
{
	if (diag) {
		diag->count = 0;
		diag->dropped = 0;
		diag->errors = 0;
	}
}

int sw_diag_add(sw_diag *diag, sw_severity severity, const char *file, int line, int column,
		const char *fmt, ...)
{
	int status = severity == SW_SEV_ERROR ? SW_EINPUT : SW_SUCCESS;
	if (!diag)
		return status;
	if (severity == SW_SEV_ERROR)
		diag->errors++;
	if (diag->count >= SW_DIAG_MAX) {
		diag->dropped++;
		return status;
	}
	sw_diag_entry *e = &diag->entry[diag->count++];
	e->severity = severity;
	snprintf(e->file, sizeof e->file, "%s", file ? file : "");
	e->line = line;
	e->column = column;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof e->message, fmt, ap);
	va_end(ap);
	return status;
}

int sw_diag_format(const sw_diag *diag, int i, char *buf, size_t n)
{
	static const char *sev[] = {"error", "warning", "note"};
	if (!diag || i < 0 || i >= diag->count)
		return snprintf(buf, n, "%s", "");
	const sw_diag_entry *e = &diag->entry[i];
	char where[SW_DIAG_FILE + 32] = "";
	if (e->file[0] && e->line > 0 && e->column > 0)
		snprintf(where, sizeof where, "%s:%d:%d: ", e->file, e->line, e->column);
	else if (e->file[0] && e->line > 0)
		snprintf(where, sizeof where, "%s:%d: ", e->file, e->line);
	else if (e->file[0])
		snprintf(where, sizeof where, "%s: ", e->file);
	return snprintf(buf, n, "%s%s: %s", where, sev[e->severity], e->message);
}

int sw_diag_has_error(const sw_diag *diag)
{
	return diag && diag->errors > 0;
}
