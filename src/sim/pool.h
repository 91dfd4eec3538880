/* sim/pool.h - a fork-join pool of POSIX threads that waits politely (pool.c). */
#ifndef SW_SIM_POOL_H
#define SW_SIM_POOL_H

/** A pool of n - 1 worker threads; the caller of sw__pool_run is thread 0. */
typedef struct sw_pool sw_pool;

/** Job run by sw__pool_run: part k of n. */
typedef void (*sw_pool_fn)(void *ctx, int k);

/** Starts a pool for n threads (n - 1 workers, which sleep until work comes).  Returns
 * SW_SUCCESS with *out set (NULL when n <= 1: no pool is needed), SW_ENOMEM, or SW_EUSAGE when
 * the system refuses to start a thread (none is left running then). */
int sw__pool_create(int n, sw_pool **out);

/** Stops and joins the workers and frees the pool; NULL is accepted. */
void sw__pool_destroy(sw_pool *p);

/** Calls fn(ctx, k) once for each k = 0 .. n - 1, on the calling thread or a worker, whichever
 * claims part k first, and returns when all have returned; fn must not depend on the thread
 * that runs it.  With a NULL pool the caller runs them all in order.  Allocates nothing. */
void sw__pool_run(sw_pool *p, int n, sw_pool_fn fn, void *ctx);

/** Number of processors this process may run on (at least 1). */
int sw__pool_processors(void);

#endif
