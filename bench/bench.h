/* bench/bench.h - what the benchmark files share. */
#ifndef SWERVE_BENCH_H
#define SWERVE_BENCH_H

#include "swerve/steer.h"

/** Wall-clock time, s (monotonic). */
double bench_now(void);
/** CPU time of the whole process (all threads), s. */
double bench_cpu_now(void);
/** The crowd benchmark (bench_crowd.c): speed and memory for N = 100 .. max_n (x10), quality
 * at N = 100 and 1000. */
void bench_crowd_all(int max_n);
/** Speed of the circle swap at N = n with `threads` threads only (for profiling). */
void bench_crowd_one(int n, int threads);
/** The speed part with a crowd law (ttc and csm at h = 0.01 s, csm with the time gap 0.5 s of
 * the pedestrian crowds; sf at 0.002 s), on 1 and 2 threads (threads 0) or on `threads`, at the
 * law's step (step 0) or at `step` s. */
void bench_crowd_law(sw_law law, int n, int threads, double step);
/** The 3-D flock of models/crowd_flock3d.xml on 1 and 2 threads. */
void bench_flock3d(void);
/** Cost of event detection: behaviour agents with 0, 1 and 5 distance guards (bench_events.c). */
void bench_events(const char *only_integrator /* NULL: euler and rk4 */);
/** One case of bench_events (0 to 5 guards), best of `reps` runs (for profiling). */
void bench_events_one(const char *integrator, int guards, int reps);

#endif
