/* tests/fuzz/fuzz_steersuite.c - libFuzzer harness of the SteerSuite test-case import
 * (src/io/steersuite*.c, sw_steersuite_import_memory): the input is a test case's bytes.
 *
 * Checked: fuzz_check_load() (an imported model and no error, or nothing returned, a documented
 * status and an error naming the file); on success the scenario text is NUL-terminated, its
 * length is the one returned, and it loads again with the scenario reader (the import promises
 * that the model is the one its text describes).  SW_EUSAGE is not allowed: the settings are the
 * defaults.  Inputs asking for more than MAX_COUNT agents or obstacles in a region are skipped:
 * they are slow, not wrong (the import's own caps are tested in the Check suites). */
#include <stdlib.h>
#include <string.h>

#include "swerve/io.h"
#include "swerve/model.h"
#include "fuzz.h"

enum { MAX_COUNT = 200 };

/* 1 when the text after any "numAgents>" or "numObstacles>" starts with a number above
 * MAX_COUNT (the text need not be NUL-terminated). */
static int too_many(const char *s, size_t n)
{
	static const char *const tags[] = {"numAgents>", "numObstacles>"};
	for (size_t i = 0; i < n; i++)
		for (int t = 0; t < 2; t++) {
			size_t tl = strlen(tags[t]);
			if (n - i < tl || memcmp(s + i, tags[t], tl) != 0)
				continue;
			size_t k = i + tl;
			while (k < n && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r' ||
					 s[k] == '+' || s[k] == '0'))
				k++;
			double v = 0.0;
			for (; k < n && ((s[k] >= '0' && s[k] <= '9') || s[k] == '.' || s[k] == 'e' ||
					 s[k] == 'E');
			     k++)
				if (s[k] >= '0' && s[k] <= '9')
					v = 10.0 * v + (s[k] - '0');
				else
					return 1; /* decimals and exponents: could be anything */
			if (v > MAX_COUNT)
				return 1;
		}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static sw_diag diag; /* large: kept out of the stack */
	if (too_many((const char *)data, size))
		return 0;
	sw_diag_init(&diag);
	sw_steersuite_def def = sw_default_steersuite_def();
	sw_model *m = NULL;
	char *xml = NULL;
	size_t xml_len = 0;
	int rc = sw_steersuite_import_memory((const char *)data, size, "case.xml", &def, &xml,
					     &xml_len, &m, &diag);
	fuzz_check_load(rc, m, &diag, "case.xml");
	if (rc != SW_SUCCESS) {
		FUZZ_CHECK(xml == NULL);
	} else {
		FUZZ_CHECK(xml != NULL && strlen(xml) == xml_len);
		sw_model *again = NULL;
		sw_diag_init(&diag);
		int rc2 = sw_scenario_load_memory(xml, xml_len, "imported.xml", &again, &diag);
		FUZZ_CHECK(rc2 == SW_SUCCESS || rc2 == SW_ENOMEM);
		if (rc2 == SW_SUCCESS)
			FUZZ_CHECK(again->n_agents == m->n_agents &&
				   again->n_obstacles == m->n_obstacles);
		sw_model_free(again);
	}
	free(xml);
	sw_model_free(m);
	return 0;
}
