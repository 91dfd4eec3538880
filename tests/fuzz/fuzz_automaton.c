/* tests/fuzz/fuzz_automaton.c - libFuzzer harness of the automaton loader (src/io): the input is
 * an automaton file's bytes, loaded from memory; see fuzz_check_load() for what is checked. */
#include "swerve/io.h"
#include "swerve/model.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static sw_diag diag; /* large: kept out of the stack */
	sw_diag_init(&diag);
	sw_automaton *a = NULL;
	int rc = sw_automaton_load_memory((const char *)data, size, "fuzz.xml", &a, &diag);
	fuzz_check_load(rc, a, &diag, "fuzz.xml");
	sw_automaton_free(a);
	return 0;
}
