/* tests/fuzz/fuzz.h - shared by the fuzz harnesses and the corpus replay driver. */
#ifndef SWERVE_FUZZ_H
#define SWERVE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "swerve/core.h"

/** Aborts with the failed condition when cond is false: the harness found a broken guarantee. */
#define FUZZ_CHECK(cond)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__,      \
				#cond);                                                            \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

/** The libFuzzer entry point each harness defines. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/** Checks what every loader promises on return: success with an object and no error, or
 * failure with no object, a status among the documented ones and at least one error that
 * names the file.  Defined in tests/fuzz/loader_check.c. */
void fuzz_check_load(int status, const void *out, const sw_diag *diag, const char *name);

#endif
