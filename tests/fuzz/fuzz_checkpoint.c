/* tests/fuzz/fuzz_checkpoint.c - libFuzzer harness of checkpoint restore (src/sim/checkpoint.c,
 * sw_world_restore) into a world of a small fixed scenario: three agents (an automaton that
 * reads progress(), so the position history is saved; GLM; FW), a signal automaton, obstacles
 * and the SteerBench metrics, so that every section of a checkpoint is present.
 *
 * The first byte chooses how the rest becomes a checkpoint (random bytes almost never carry a
 * matching layout key and checksum):
 *   mode 0  the rest as it is;
 *   mode 1  the rest with its last 8 bytes replaced by the checksum of the others (forged);
 *   mode 2  a genuine checkpoint of the world after (byte 1 mod 16) steps, patched by records
 *           [offset: 2 bytes, little-endian, taken modulo the size][count: 1 byte][bytes], then
 *           its checksum recomputed (forged but well-formed);
 *   mode 3  as 2 without recomputing the checksum (damage);
 * in modes 2 and 3, flag 4 of the first byte inserts 8 zero bytes before the checksum (a section
 * too long) and flag 8 removes the 8 bytes before it (a section too short).
 *
 * Checked: the status is SW_SUCCESS, SW_EINPUT or SW_ENOMEM; a refusal carries an error naming
 * the checkpoint and leaves the world exactly as it was (its own checkpoint is unchanged); an
 * accepted checkpoint is given back byte for byte by sw_world_checkpoint, holds a step count
 * and a time within the run (0 .. duration / step + 1 steps, 0 .. duration + step s, up to
 * rounding) and finite
 * states, and the world then runs to the end of the scenario (sw_world_run) in no more steps
 * than the run has, without a crash. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "swerve/io.h"
#include "swerve/model.h"
#include "swerve/sim.h"
#include "fuzz.h"

static const char scenario[] =
    "<scenario name=\"ck\">\n"
    "  <run duration=\"1.6\" step=\"0.1\" sample=\"0.4\" seed=\"7\" steerbench=\"true\"/>\n"
    "  <behaviours>\n"
    "    <automaton name=\"walker\">\n"
    "      <param name=\"goal\" kind=\"target\"/>\n"
    "      <var name=\"n\" kind=\"int\" init=\"0\"/>\n"
    "      <mode name=\"go\" initial=\"true\">\n"
    "        <glm target=\"goal\" sigma=\"0.05\"/>\n"
    "        <transition to=\"rest\" guard=\"time_in_mode ge 0.3 and progress(goal, 0.3) lt 5\">\n"
    "          <reset var=\"n\">n + 1</reset>\n"
    "        </transition>\n"
    "      </mode>\n"
    "      <mode name=\"rest\">\n"
    "        <transition to=\"go\" guard=\"time_in_mode ge 0.25\"/>\n"
    "      </mode>\n"
    "    </automaton>\n"
    "    <automaton name=\"blink\" kind=\"signal\">\n"
    "      <var name=\"c\" kind=\"clock\" init=\"0\"/>\n"
    "      <mode name=\"on\" initial=\"true\">\n"
    "        <transition to=\"off\" guard=\"c ge 0.5\"><reset var=\"c\">0</reset></transition>\n"
    "      </mode>\n"
    "      <mode name=\"off\">\n"
    "        <transition to=\"on\" guard=\"c ge 0.5\"><reset var=\"c\">0</reset></transition>\n"
    "      </mode>\n"
    "    </automaton>\n"
    "  </behaviours>\n"
    "  <world>\n"
    "    <target name=\"east\" x=\"6\" y=\"0\" radius=\"0.5\"/>\n"
    "    <disc name=\"post\" x=\"2\" y=\"0.3\" radius=\"0.4\"/>\n"
    "    <segment name=\"wall\" x1=\"0\" y1=\"2\" x2=\"5\" y2=\"2\"/>\n"
    "    <signal name=\"lamp\" automaton=\"blink\"/>\n"
    "  </world>\n"
    "  <agent name=\"a\" x=\"0\" y=\"0\" behaviour=\"walker\"><bind param=\"goal\" "
    "value=\"east\"/></agent>\n"
    "  <agent name=\"b\" x=\"0\" y=\"1\" target=\"east\"><glm/></agent>\n"
    "  <agent name=\"c\" x=\"0\" y=\"-1\" target=\"east\"><fw/></agent>\n"
    "</scenario>\n";

static sw_model *model;
static long max_steps, steps_run;

/* Progress callback of sw_world_run: called after every step. */
static void count_step(double frac, void *ctx)
{
	(void)frac;
	(void)ctx;
	FUZZ_CHECK(++steps_run <= max_steps);
}

static sw_world *fresh_world(void)
{
	sw_world *w = NULL;
	sw_world_def def = sw_default_world_def(model);
	def.progress_fn = count_step;
	FUZZ_CHECK(sw_world_create(model, &def, &w, NULL) == SW_SUCCESS);
	return w;
}

static void *checkpoint_of(const sw_world *w, size_t *len)
{
	void *p = NULL;
	FUZZ_CHECK(sw_world_checkpoint(w, &p, len) == SW_SUCCESS);
	return p;
}

static void set_checksum(unsigned char *p, size_t len)
{
	if (len < 8)
		return;
	uint64_t sum = sw_hash_bytes(SW_HASH_INIT, p, len - 8);
	memcpy(p + len - 8, &sum, sizeof sum);
}

/* Builds the checkpoint the input describes (see the top of the file); *len its size. */
static unsigned char *build(const uint8_t *data, size_t size, size_t *len)
{
	int mode = size > 0 ? data[0] & 3 : 0;
	if (mode < 2) {
		*len = size > 0 ? size - 1 : 0;
		unsigned char *p = malloc(*len ? *len : 1);
		FUZZ_CHECK(p != NULL);
		if (*len)
			memcpy(p, data + 1, *len);
		if (mode == 1)
			set_checksum(p, *len);
		return p;
	}
	sw_world *w = fresh_world();
	int steps = size > 1 ? data[1] % 16 : 0;
	for (int k = 0; k < steps && !sw_world_done(w); k++)
		FUZZ_CHECK(sw_world_step(w, NULL) == SW_SUCCESS);
	unsigned char *p = checkpoint_of(w, len);
	sw_world_destroy(w);
	if ((data[0] & 4) || (data[0] & 8)) {
		/* 8 bytes more or fewer before the checksum (a genuine one is longer than 16). */
		size_t nl = data[0] & 4 ? *len + 8 : *len - 8;
		unsigned char *q = calloc(nl, 1);
		FUZZ_CHECK(q != NULL);
		memcpy(q, p, *len - 16);
		memcpy(q + nl - 8, p + *len - 8, 8);
		if (data[0] & 4)
			memcpy(q + *len - 16, p + *len - 16, 8);
		free(p);
		p = q;
		*len = nl;
	}
	for (size_t at = 2; at + 3 <= size;) {
		size_t off = ((size_t)data[at] | (size_t)data[at + 1] << 8) % *len;
		size_t n = data[at + 2];
		at += 3;
		for (size_t k = 0; k < n && at < size; k++, at++)
			p[(off + k) % *len] = data[at];
	}
	if (mode == 2)
		set_checksum(p, *len);
	return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static sw_diag diag; /* large: kept out of the stack */
	if (!model) {
		sw_diag_init(&diag);
		FUZZ_CHECK(sw_scenario_load_memory(scenario, sizeof scenario - 1, "ck.xml", &model,
						   &diag) == SW_SUCCESS);
	}
	size_t len = 0;
	unsigned char *ck = build(data, size, &len);
	sw_world *w = fresh_world();
	size_t before_len = 0;
	void *before = checkpoint_of(w, &before_len);

	sw_diag_init(&diag);
	int rc = sw_world_restore(w, ck, len, "fuzz.swck", &diag);
	FUZZ_CHECK(rc == SW_SUCCESS || rc == SW_EINPUT || rc == SW_ENOMEM);
	size_t after_len = 0;
	void *after = checkpoint_of(w, &after_len);
	if (rc != SW_SUCCESS) {
		const sw_diag_entry *e = NULL;
		for (int i = 0; i < diag.count && !e; i++)
			if (diag.entry[i].severity == SW_SEV_ERROR)
				e = &diag.entry[i];
		FUZZ_CHECK(e != NULL && strcmp(e->file, "fuzz.swck") == 0);
		FUZZ_CHECK(after_len == before_len && memcmp(after, before, before_len) == 0);
	} else {
		FUZZ_CHECK(diag.errors == 0);
		FUZZ_CHECK(after_len == len && memcmp(after, ck, len) == 0);
		/* The restored state is in range, and the run goes on within its bounds. */
		const sw_run_def *run = &model->run;
		max_steps = (long)ceil(run->duration / run->step) + 1;
		long steps0 = sw_world_steps(w);
		double t0 = sw_world_time(w);
		FUZZ_CHECK(steps0 >= 0 && steps0 <= max_steps);
		/* (the time is the sum of the steps, so equal to steps * step up to rounding) */
		FUZZ_CHECK(isfinite(t0) && t0 >= -1e-6 * run->step &&
			   t0 <= run->duration + run->step);
		for (int u = 0; u < sw_world_n_units(w); u++) {
			int dim = 0;
			const double *y = sw_world_unit_state(w, u, &dim);
			for (int k = 0; k < dim; k++)
				FUZZ_CHECK(isfinite(y[k]));
		}
		steps_run = steps0;
		sw_world_run(w, NULL, NULL, NULL);
		FUZZ_CHECK(isfinite(sw_world_time(w)) && sw_world_steps(w) <= max_steps);
	}
	free(before);
	free(after);
	sw_world_destroy(w);
	free(ck);
	return 0;
}
