/* tests/fuzz/fuzz_files.h - files for the harnesses whose code under test reads paths (vector
 * fields, cache entries, the CLI): a private temporary folder and helpers.  Defined in
 * tests/fuzz/fuzz_files.c. */
#ifndef SWERVE_FUZZ_FILES_H
#define SWERVE_FUZZ_FILES_H

#include <stddef.h>

#include "swerve/core.h"

/** A folder of this process's own, created under $TMPDIR (else /tmp) at the first call and
 * removed with everything in it at exit.  NULL when it cannot be created. */
const char *fuzz_private_dir(void);

/** Writes len bytes to path (created or truncated, mode 0600).  Returns 0 or -1. */
int fuzz_write_file(const char *path, const void *data, size_t len);

/** Reads the whole file at path into a malloc'ed buffer (*len bytes); NULL when it cannot. */
void *fuzz_read_file(const char *path, size_t *len);

/** Removes everything inside the folder dir (not dir itself), never following a symlink.
 * Returns 0 or -1. */
int fuzz_clear_dir(const char *dir);

/** The first error entry of diag, or NULL. */
const sw_diag_entry *fuzz_first_error(const sw_diag *diag);

#endif
