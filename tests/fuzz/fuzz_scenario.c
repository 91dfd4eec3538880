/* tests/fuzz/fuzz_scenario.c - libFuzzer harness of the scenario loader (src/io): the input is a
 * scenario file's bytes, loaded from memory (<use file=".."/> paths are relative to the current
 * directory, so the corpus refers to automata/ of the repository); see fuzz_check_load(). */
#include "swerve/io.h"
#include "swerve/model.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static sw_diag diag; /* large: kept out of the stack */
	sw_diag_init(&diag);
	sw_model *m = NULL;
	int rc = sw_scenario_load_memory((const char *)data, size, "fuzz.xml", &m, &diag);
	fuzz_check_load(rc, m, &diag, "fuzz.xml");
	sw_model_free(m);
	return 0;
}
