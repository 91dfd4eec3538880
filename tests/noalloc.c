/* tests/noalloc.c - a steady-state world step allocates nothing (the crowd issue: "no allocation
 * inside a step").
 *
 * A separate program rather than a Check test: it counts every malloc, calloc and realloc of the
 * process (library, GSL, libgomp) by defining them over glibc's exported __libc_* entry points.
 * The sanitizers and valgrind replace the allocator themselves, so `make asan` and `make
 * valgrind` do not build it; `make test` runs it.
 *
 * Each scene is created and stepped for WARM steps (percept buffers grow to the largest
 * neighbourhood seen, threads start), then ALLOC_CHECK_STEPS further steps must make no
 * allocation, with 1 and with 2 threads.  The scenes cover the circle crowd (agent grid, GLM,
 * weight relaxation), walls and a door (visibility, obstacle index), a 3-D flock (alignment,
 * drawn personalities) and behaviour automata with signals.
 *
 * The same override makes realloc fail during one step of a signal that switches: the step must
 * fail with SW_ENOMEM and a message naming the signal rather than drop the switch (sim/hybrid.c
 * fire).
 *
 * Known exception, left out: models/crowd_flock.xml.  There the weight relaxation often starts in
 * the undecided region of the bistable competition and integrates (u, s) with GSL's implicit
 * msbdf stepper (steer/competition.c); its driver is allocated once per thread, but GSL 2.7's
 * LU decomposition allocates a pivot vector at every Newton iteration (about 40 allocations of
 * 40 bytes per step of that scene). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swerve/swerve.h"

#define WARM 40
#define ALLOC_CHECK_STEPS 40

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

static atomic_int counting;
static atomic_long allocations;
static atomic_int failing; /* 1: realloc fails (an allocation failure inside a step) */

void *malloc(size_t n)
{
	if (atomic_load(&counting))
		atomic_fetch_add(&allocations, 1);
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	if (atomic_load(&counting))
		atomic_fetch_add(&allocations, 1);
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	if (atomic_load(&counting))
		atomic_fetch_add(&allocations, 1);
	if (atomic_load(&failing))
		return NULL;
	return __libc_realloc(p, n);
}

void free(void *p)
{
	__libc_free(p);
}

/* Steps the scene in `path` with `threads` threads; returns the allocations counted in the
 * checked steps, or -1 when the scene cannot be run. */
static long check(const char *path, int threads)
{
	sw_model *m = NULL;
	sw_world *w = NULL;
	sw_diag d;
	sw_diag_init(&d);
	if (sw_scenario_load(path, &m, &d) != SW_SUCCESS || sw_world_create(m, NULL, &w, &d) != SW_SUCCESS ||
	    sw_world_set_threads(w, threads) != SW_SUCCESS) {
		for (int k = 0; k < d.count; k++)
			fprintf(stderr, "%s\n", d.entry[k].message);
		sw_world_destroy(w);
		sw_model_free(m);
		return -1;
	}
	long got = -1;
	int ok = 1;
	for (int k = 0; k < WARM && ok; k++)
		ok = sw_world_step(w, NULL) == SW_SUCCESS;
	if (ok) {
		atomic_store(&allocations, 0);
		atomic_store(&counting, 1);
		for (int k = 0; k < ALLOC_CHECK_STEPS && ok; k++)
			ok = sw_world_step(w, NULL) == SW_SUCCESS;
		atomic_store(&counting, 0);
		got = ok ? atomic_load(&allocations) : -1;
	}
	sw_world_destroy(w);
	sw_model_free(m);
	return got;
}

/* A signal that switches within the first step while realloc fails: the switch cannot be
 * recorded for the agents reading the signal, and the step must fail with SW_ENOMEM and a
 * message naming the signal, not go on with the switch dropped.  Returns 0 when it does. */
static int check_switch_failure(void)
{
	static const char xml[] =
	    "<scenario name=\"blink\"><run duration=\"2\" step=\"0.25\"/><behaviours>"
	    "<automaton name=\"blink\" kind=\"signal\"><mode name=\"on\" initial=\"true\">"
	    "<transition to=\"off\" guard=\"time_in_mode ge 0.1\"/></mode><mode name=\"off\"/>"
	    "</automaton><automaton name=\"stand\"><mode name=\"still\" initial=\"true\"/>"
	    "</automaton></behaviours><world><signal name=\"s\" automaton=\"blink\"/></world>"
	    "<agent name=\"a\" x=\"0\" y=\"0\" behaviour=\"stand\"/></scenario>";
	sw_model *m = NULL;
	sw_world *w = NULL;
	sw_diag d;
	sw_diag_init(&d);
	if (sw_scenario_load_memory(xml, sizeof xml - 1, "blink.xml", &m, &d) != SW_SUCCESS ||
	    sw_world_create(m, NULL, &w, &d) != SW_SUCCESS) {
		sw_model_free(m);
		return 1;
	}
	sw_diag_init(&d);
	atomic_store(&failing, 1);
	int st = sw_world_step(w, &d);
	atomic_store(&failing, 0);
	int ok = st == SW_ENOMEM && d.count == 1 && strstr(d.entry[0].message, "signal 's'") &&
		 strstr(d.entry[0].message, "out of memory");
	printf("noalloc: a signal switch that cannot be recorded %s (status %d, %s)\n",
	       ok ? "fails the step" : "is NOT an out-of-memory error", st,
	       d.count ? d.entry[0].message : "no message");
	sw_world_destroy(w);
	sw_model_free(m);
	return !ok;
}

int main(void)
{
	static const char *const scenes[] = {
	    "models/crowd_circle.xml",     "models/crowd_door.xml",   "models/crowd_flock3d.xml",
	    "models/street_crossing.xml", "models/glm_barrier.xml", "models/crowd_corridor.xml"};
	int failed = 0;
	for (size_t s = 0; s < sizeof scenes / sizeof *scenes; s++)
		for (int threads = 1; threads <= 2; threads++) {
			long n = check(scenes[s], threads);
			printf("noalloc: %-28s %d thread%s: %ld allocations in %d steady steps\n",
			       scenes[s], threads, threads > 1 ? "s" : " ", n, ALLOC_CHECK_STEPS);
			failed |= n != 0;
		}
	failed |= check_switch_failure();
	if (failed)
		printf("noalloc: FAILED (a steady-state step allocated, a scene did not run, or a "
		       "signal switch was dropped)\n");
	return failed;
}
