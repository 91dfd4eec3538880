/* sim/pool.c - the fork-join pool that steps blocks of agents (step.c).
 *
 * Why a pool of our own rather than OpenMP: a world step is three short parallel passes, so a
 * 200-agent crowd meets a few thousand barriers per second of simulated time.  libgomp's
 * threads spin at a barrier (up to about 300 000 polls) before they sleep; on a machine whose
 * processors are all busy a spinning thread burns the time slice its partner needs to reach the
 * barrier, and `swerve run -j 2` of the GLM circle swap (models/crowd_circle_glm.xml) took 24 s
 * against 0.37 s on one thread (load 13 on two processors).  The remedy, OMP_WAIT_POLICY=passive,
 * is read from the environment once, by libgomp's constructor, before main() runs: a library cannot
 * set it, and forcing it on every user would cost an idle machine a sleep and a wake-up per pass
 * (small crowds then ran 2.5 times slower).
 *
 * Method.  Every waiter (a worker waiting for work, the caller waiting for the workers) polls
 * for a bounded time, then sleeps on a condition variable.  The bound adapts per
 * waiter, like an adaptive mutex: it doubles (up to SPIN_MAX) when the wait ended while
 * polling and halves (down to SPIN_MIN) when it had to sleep.  On an idle machine with small
 * blocks the partner arrives within the polls and nobody sleeps; with large blocks, or when the
 * partner is not running because the machine is busy, the bound falls to SPIN_MIN within a few
 * passes and the waiter yields its processor almost at once.
 *
 * Parts are claimed, not assigned: the caller and every awake worker take the next unclaimed
 * part until none is left, so the caller never waits for a worker that has not been scheduled
 * yet (with more threads than free processors it would otherwise wait a time slice per pass);
 * it waits only for parts already under way.  A part carries its own data (block k of a pass
 * uses the world's worker context k, sim/worker.c: its scratch, events and diagnostics), so
 * which thread runs it changes nothing and results are the same for any number of threads.
 *
 * Workers block every signal, so that signals reach the calling thread as they would without
 * threads. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "pool.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "swerve/core.h"

/* How long a waiter polls before it sleeps, in nanoseconds: the bound's range.  SPIN_MAX is
 * longer than the serial gap between two passes of a step (the snapshot and the neighbour grid
 * of 10^4 agents, 0.1-0.2 ms).  With a bound of some tens of microseconds a worker slept through
 * every such gap, and on the 2-core virtual machine it woke about 0.5 ms late: the caller had
 * claimed both blocks of a 10^4-agent crowd pass by then, and two threads ran no faster than one
 * (bench_swerve crowd-ttc 10000: x1.0; x1.4-1.7 with this bound).  On a busy machine the adaptation
 * still halves the bound at every wait that ends asleep (four busy loops on the two processors:
 * swerve run -j 2 of models/crowd_circle_glm.xml took 1.00 s against 0.88 s with -j 1, and of
 * crowd_circle_ttc.xml -d 20 1.46 s against 1.63 s; not the twenty-fold of a long spin).  Time,
 * not a count of polls: a pause hint costs from 10 to over 100 cycles depending on the CPU. */
#define SPIN_MAX 1000000
#define SPIN_MIN 2000

typedef struct worker {
	struct sw_pool *p;
	int k;    /* part this worker runs */
	int spin; /* its current bound */
} worker;

struct sw_pool {
	int n;                /* threads, the caller included */
	pthread_t *tid;       /* workers 1 .. n - 1 (entry 0 unused) */
	worker *w;            /* their arguments */
	pthread_mutex_t mu;   /* guards the job below and the sleeps */
	pthread_cond_t go;    /* gen moved: a new job (or stop) */
	pthread_cond_t done;  /* finished reached parts */
	atomic_uint gen;      /* bumped by each job and by stop */
	_Atomic uint64_t claim; /* the current job's generation (high half) and next part (low) */
	atomic_uint finished; /* parts of the current job done */
	int parts;            /* the current job */
	sw_pool_fn fn;
	void *ctx;
	int quit;
	int spin;             /* the caller's bound */
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* Monotonic time, ns. */
static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Polls *a until it differs from `from` (differ) or equals it (!differ), for at most spin ns;
 * returns whether that happened (the clock is read every 64 polls). */
static int poll_for(atomic_uint *a, unsigned from, int differ, int spin)
{
	uint64_t t0 = now_ns();
	for (unsigned s = 1;; s++) {
		unsigned v = atomic_load_explicit(a, memory_order_acquire);
		if ((v != from) == differ)
			return 1;
		cpu_relax();
		if ((s & 63) == 0 && now_ns() - t0 >= (uint64_t)spin)
			return 0;
	}
}

/* The adaptive bound after a wait that ended while polling (ok) or in a sleep. */
static void adapt(int *spin, int ok)
{
	if (ok)
		*spin = *spin < SPIN_MAX / 2 ? 2 * *spin : SPIN_MAX;
	else
		*spin = *spin > 2 * SPIN_MIN ? *spin / 2 : SPIN_MIN;
}

/* The next unclaimed part of job gen, or -1 when none is left or that job is over (a worker
 * that woke late never takes a part of a newer job with the older job's function). */
static int claim(sw_pool *p, unsigned gen, int parts)
{
	uint64_t v = atomic_load(&p->claim);
	for (;;) {
		if ((unsigned)(v >> 32) != gen || (int)(v & 0xffffffffu) >= parts)
			return -1;
		if (atomic_compare_exchange_weak(&p->claim, &v, v + 1))
			return (int)(v & 0xffffffffu);
	}
}

/* Runs parts of job gen until none is left; returns 1 when this thread finished the job's
 * last part. */
static int run_parts(sw_pool *p, unsigned gen, int parts, sw_pool_fn fn, void *ctx)
{
	int ran = 0, k;
	while ((k = claim(p, gen, parts)) >= 0) {
		fn(ctx, k);
		ran++;
	}
	return ran > 0 && atomic_fetch_add(&p->finished, (unsigned)ran) + (unsigned)ran == (unsigned)parts;
}

static void *work(void *arg)
{
	worker *me = arg;
	sw_pool *p = me->p;
	unsigned seen = 0; /* the pool is created with gen 0 */
	for (;;) {
		int ok = poll_for(&p->gen, seen, 1, me->spin);
		adapt(&me->spin, ok);
		pthread_mutex_lock(&p->mu);
		while (atomic_load(&p->gen) == seen)
			pthread_cond_wait(&p->go, &p->mu);
		seen = atomic_load(&p->gen);
		int quit = p->quit, parts = p->parts;
		sw_pool_fn fn = p->fn;
		void *ctx = p->ctx;
		pthread_mutex_unlock(&p->mu);
		if (quit)
			return NULL;
		if (run_parts(p, seen, parts, fn, ctx)) {
			pthread_mutex_lock(&p->mu);
			pthread_cond_signal(&p->done);
			pthread_mutex_unlock(&p->mu);
		}
	}
}

/* Stops the first `started` workers (1 .. started) and frees the pool. */
static void stop(sw_pool *p, int started)
{
	pthread_mutex_lock(&p->mu);
	p->quit = 1;
	atomic_fetch_add(&p->gen, 1);
	pthread_cond_broadcast(&p->go);
	pthread_mutex_unlock(&p->mu);
	for (int k = 1; k <= started; k++)
		pthread_join(p->tid[k], NULL);
	pthread_cond_destroy(&p->done);
	pthread_cond_destroy(&p->go);
	pthread_mutex_destroy(&p->mu);
	free(p->w);
	free(p->tid);
	free(p);
}

int sw__pool_create(int n, sw_pool **out)
{
	if (!out)
		return SW_EUSAGE;
	*out = NULL;
	if (n <= 1)
		return SW_SUCCESS;
	sw_pool *p = calloc(1, sizeof *p);
	if (!p)
		return SW_ENOMEM;
	p->tid = calloc((size_t)n, sizeof *p->tid);
	p->w = calloc((size_t)n, sizeof *p->w);
	if (!p->tid || !p->w || pthread_mutex_init(&p->mu, NULL) != 0) {
		free(p->tid);
		free(p->w);
		free(p);
		return SW_ENOMEM;
	}
	pthread_cond_init(&p->go, NULL);
	pthread_cond_init(&p->done, NULL);
	atomic_init(&p->gen, 0);
	atomic_init(&p->finished, 0);
	atomic_init(&p->claim, 0);
	p->n = n;
	p->spin = SPIN_MAX;
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old); /* inherited by the workers */
	int started = 0;
	for (int k = 1; k < n; k++) {
		p->w[k] = (worker){p, k, SPIN_MAX};
		if (pthread_create(&p->tid[k], NULL, work, &p->w[k]) != 0)
			break;
		started = k;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (started < n - 1) {
		stop(p, started);
		return SW_ENOMEM; /* out of threads: memory or a process limit */
	}
	*out = p;
	return SW_SUCCESS;
}

void sw__pool_destroy(sw_pool *p)
{
	if (p)
		stop(p, p->n - 1);
}

void sw__pool_run(sw_pool *p, int n, sw_pool_fn fn, void *ctx)
{
	if (!p || n <= 1) {
		for (int k = 0; k < n; k++)
			fn(ctx, k);
		return;
	}
	pthread_mutex_lock(&p->mu);
	unsigned gen = atomic_load(&p->gen) + 1;
	p->parts = n;
	p->fn = fn;
	p->ctx = ctx;
	atomic_store(&p->finished, 0);
	atomic_store(&p->claim, (uint64_t)gen << 32);
	atomic_store(&p->gen, gen);
	pthread_cond_broadcast(&p->go);
	pthread_mutex_unlock(&p->mu);
	if (run_parts(p, gen, n, fn, ctx))
		return; /* the caller finished the last part: nobody to wait for */
	int ok = poll_for(&p->finished, (unsigned)n, 0, p->spin);
	adapt(&p->spin, ok);
	if (ok)
		return;
	pthread_mutex_lock(&p->mu);
	while (atomic_load(&p->finished) != (unsigned)n)
		pthread_cond_wait(&p->done, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

int sw__pool_processors(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}
