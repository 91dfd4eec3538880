/* ensemble/runner.c - one run of a model into an sw_ens_result, and a pool of POSIX threads over
 * run indices.  Runs are independent (each has its own world, RNG streams and diagnostics) and
 * read the shared, immutable model; the result of run r lands in out[r - first] whichever thread
 * computed it, so the output does not depend on the number of threads. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "ensemble/ensemble_internal.h"

static void summarise(const sw_world *w, sw_ens_result *out)
{
	const sw_model *m = sw_world_model(w);
	double sum_t = 0.0, sum_path = 0.0;
	out->t_end = sw_world_time(w);
	out->n_agents = m->n_agents;
	out->reached = out->collisions = out->agent_collisions = 0;
	out->min_clearance = out->min_agent_clearance = INFINITY;
	for (int i = 0; i < m->n_agents; i++) {
		const sw_agent_metrics *mt = sw_world_metrics(w, i);
		if (mt->reached) {
			out->reached++;
			sum_t += mt->t_reached;
		}
		sum_path += mt->path_length;
		out->min_clearance = fmin(out->min_clearance, mt->min_clearance);
		out->min_agent_clearance = fmin(out->min_agent_clearance, mt->min_agent_clearance);
		out->collisions += mt->collisions;
		out->agent_collisions += mt->agent_collisions;
	}
	out->mean_t_reached = out->reached ? sum_t / out->reached : NAN;
	out->mean_path = m->n_agents ? sum_path / m->n_agents : 0.0;
}

static void failed(sw_ens_result *out, int st, const sw_diag *diag)
{
	out->status = st;
	out->value = -1;
	if (diag->count > 0)
		sw_diag_format(diag, diag->count - 1, out->message, sizeof out->message);
	else
		snprintf(out->message, sizeof out->message, "%s", sw_strerror(st));
}

int sw_ens_run_one(const sw_model *m, const sw_world_def *def, const sw_ens_property *p,
		   sw_ens_result *out)
{
	int64_t run = out->run, point = out->point;
	memset(out, 0, sizeof *out);
	out->run = run;
	out->point = point;
	/* The seed is the one setting that differs between runs of a model: it comes with the
	 * world definition, and every run reads the same (frozen) model. */
	sw_world_def wd = def ? *def : sw_default_world_def(m);
	wd.event_fn = NULL;
	wd.progress_fn = NULL;
	out->seed = wd.seed;
	out->value = -1;
	sw_diag *diag = malloc(sizeof *diag);
	if (!diag)
		return SW_ENOMEM;
	sw_diag_init(diag);
	sw_world *w = NULL;
	int st = sw_world_create(m, &wd, &w, diag);
	if (st == SW_ENOMEM) {
		free(diag);
		return SW_ENOMEM;
	}
	if (st != SW_SUCCESS) {
		failed(out, st, diag);
		free(diag);
		return SW_SUCCESS;
	}
	sw__ens_monitor mon;
	sw__ens_monitor_start(&mon, p, w);
	if (p)
		sw_world_set_event_fn(w, sw__ens_monitor_event, &mon);
	/* The same number of steps as sw_world_run (and so `swerve run`). */
	long total = sw_world_total_steps(w);
	while (st == SW_SUCCESS && sw_world_steps(w) < total && !sw_world_done(w)) {
		st = sw_world_step(w, diag);
		if (st == SW_SUCCESS)
			sw__ens_monitor_step(&mon, w);
	}
	summarise(w, out);
	if (st == SW_ENOMEM) {
		sw_world_destroy(w);
		free(diag);
		return SW_ENOMEM;
	}
	if (st != SW_SUCCESS)
		failed(out, st, diag);
	else if (p)
		out->value = sw__ens_monitor_value(&mon, w);
	sw_world_destroy(w);
	free(diag);
	return SW_SUCCESS;
}

int64_t sw_ens_plan_runs(const sw_ens_plan *plan)
{
	return (int64_t)plan->n_points * plan->seeds_per_point;
}

typedef struct pool {
	const sw_ens_plan *plan;
	int64_t first, count;
	sw_ens_result *out;
	atomic_llong next; /* next offset to compute */
	atomic_int status; /* SW_ENOMEM once any run ran out of memory */
} pool;

static void *worker(void *arg)
{
	pool *pl = arg;
	const sw_ens_plan *plan = pl->plan;
	for (;;) {
		long long j = atomic_fetch_add(&pl->next, 1);
		if (j >= pl->count || atomic_load(&pl->status) != SW_SUCCESS)
			break;
		int64_t r = pl->first + j;
		int64_t point = r / plan->seeds_per_point;
		sw_ens_result *o = &pl->out[j];
		o->run = r;
		o->point = point;
		sw_world_def def = sw_default_world_def(plan->models[point]);
		def.seed = plan->base_seed + (uint64_t)(r % plan->seeds_per_point);
		if (plan->duration > 0.0)
			def.duration = plan->duration;
		def.plan = plan->plans ? plan->plans[point] : NULL;
		if (sw_ens_run_one(plan->models[point], &def,
				   plan->props ? plan->props[point] : NULL, o) != SW_SUCCESS)
			atomic_store(&pl->status, SW_ENOMEM);
	}
	return NULL;
}

int sw_ens_execute(const sw_ens_plan *plan, int64_t first, int64_t count, int threads,
		   sw_ens_result *out)
{
	if (!plan || !out || plan->n_points < 1 || plan->seeds_per_point < 1 || first < 0 ||
	    count < 0 || first + count > sw_ens_plan_runs(plan))
		return SW_EUSAGE;
	pool pl = {plan, first, count, out, 0, SW_SUCCESS};
	if (threads < 1)
		threads = 1;
	if (threads > count)
		threads = count > 0 ? (int)count : 1;
	pthread_t *tid = threads > 1 ? calloc((size_t)threads, sizeof *tid) : NULL;
	if (threads > 1 && !tid)
		return SW_ENOMEM;
	int started = 0;
	for (int k = 1; k < threads; k++) {
		if (pthread_create(&tid[k], NULL, worker, &pl) != 0)
			break; /* fewer threads: the same results, later */
		started = k;
	}
	worker(&pl);
	for (int k = 1; k <= started; k++)
		pthread_join(tid[k], NULL);
	free(tid);
	return atomic_load(&pl.status);
}
