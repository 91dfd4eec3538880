/* tests/fuzz/loader_check.c - the post-conditions every file loader shares (see fuzz.h). */
#include <string.h>

#include "fuzz.h"

void fuzz_check_load(int status, const void *out, const sw_diag *diag, const char *name)
{
	if (status == SW_SUCCESS) {
		FUZZ_CHECK(out != NULL && diag->errors == 0);
		return;
	}
	FUZZ_CHECK(out == NULL);
	FUZZ_CHECK(status == SW_EINPUT || status == SW_EIO || status == SW_ENOMEM);
	FUZZ_CHECK(diag->errors > 0 && diag->count > 0);
	int named = 0; /* the first error names a file (this one, or a file it uses) */
	for (int i = 0; i < diag->count; i++)
		if (diag->entry[i].severity == SW_SEV_ERROR) {
			named = diag->entry[i].file[0] != '\0';
			break;
		}
	FUZZ_CHECK(named);
	(void)name;
}
