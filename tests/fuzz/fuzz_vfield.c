/* tests/fuzz/fuzz_vfield.c - libFuzzer harness of the vector-field file reader
 * (src/plan/vfile.c, sw_vfield_load, used by <vectorfield file=".."> in src/io/field_read.c):
 * the input is the file's bytes, written to a file in a private temporary folder (the reader
 * takes a path).
 *
 * Checked: fuzz_check_load(), and more precisely that every failure's first error names this
 * file and, for SW_EINPUT, a line (>= 1); on success a vector grid of at least 3 x 3 nodes, at
 * most SW_GRID_MAX_NODES, a positive finite spacing, a finite origin and finite vectors. */
#include <math.h>
#include <string.h>

#include "swerve/plan.h"
#include "fuzz.h"
#include "fuzz_files.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static sw_diag diag; /* large: kept out of the stack */
	static char path[4200];
	if (!path[0]) {
		const char *dir = fuzz_private_dir();
		FUZZ_CHECK(dir != NULL);
		snprintf(path, sizeof path, "%s/field.txt", dir);
	}
	FUZZ_CHECK(fuzz_write_file(path, data, size) == 0);
	sw_diag_init(&diag);
	sw_grid *g = NULL;
	int rc = sw_vfield_load(path, &g, &diag);
	fuzz_check_load(rc, g, &diag, path);
	if (rc == SW_SUCCESS) {
		FUZZ_CHECK(g->kind == SW_GRID_VECTOR && g->nx >= 3 && g->ny >= 3 && !g->fixed);
		FUZZ_CHECK((long)g->nx * (long)g->ny <= SW_GRID_MAX_NODES);
		FUZZ_CHECK(isfinite(g->h) && g->h > 0.0 && isfinite(g->x0) && isfinite(g->y0));
		for (size_t k = 0; k < 2 * (size_t)g->nx * (size_t)g->ny; k++)
			FUZZ_CHECK(isfinite(g->v[k]));
	} else {
		const sw_diag_entry *e = fuzz_first_error(&diag);
		FUZZ_CHECK(e && strcmp(e->file, path) == 0);
		FUZZ_CHECK(rc != SW_EINPUT || e->line >= 1);
	}
	sw_grid_free(g);
	return 0;
}
