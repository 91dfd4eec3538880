/* cli/ensemble_cli.c - what `swerve smc` and `swerve sweep` share: processes (Open MPI when
 * built with it), batches of runs spread over ranks and threads, --param parsing, loading the
 * models of a grid, per-run CSV rows.
 *
 * A batch of runs [first, first + count) is cut into one contiguous block per rank; each rank
 * computes its block with threads and rank 0 gathers the results in run-index order.  Every run
 * depends only on its index, so rank 0 holds the same results whatever the number of ranks and
 * threads, and makes every decision (stop or go on) from them alone. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef SW_HAVE_MPI
#include <mpi.h>
#endif

#include "cli.h"

/* Set by mpirun (Open MPI, PMIx, MPICH's PMI): the process is one rank of a parallel job. */
static int launched_by_mpirun(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

int cli_ens_init(cli_ens *e, const char *cmd)
{
	memset(e, 0, sizeof *e);
	e->size = 1;
	if (!launched_by_mpirun())
		return EXIT_OK;
#ifdef SW_HAVE_MPI
	if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
		fprintf(stderr, "swerve %s: MPI_Init failed\n", cmd);
		return EXIT_RUNTIME;
	}
	e->mpi = 1;
	MPI_Comm_rank(MPI_COMM_WORLD, &e->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &e->size);
	/* Every rank reads the same arguments and files and meets the same errors: rank 0 alone
	 * speaks. */
	if (e->rank != 0) {
		if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
			return EXIT_RUNTIME;
	}
	return EXIT_OK;
#else
	const char *n = getenv("OMPI_COMM_WORLD_SIZE");
	if (n && strcmp(n, "1") != 0) {
		fprintf(stderr,
			"swerve %s: started by mpirun, but this swerve was built without "
			"MPI; every rank would compute every run (install Open MPI, "
			"libopenmpi-dev, and rebuild)\n",
			cmd);
		return EXIT_BAD_INPUT;
	}
	return EXIT_OK;
#endif
}

int cli_ens_finish(cli_ens *e, int code)
{
#ifdef SW_HAVE_MPI
	if (e->mpi) {
		/* The exit code is rank 0's: the others may have stopped early on the same error.
		 */
		MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
		MPI_Finalize();
	}
#else
	(void)e;
#endif
	return code;
}

int cli_ens_threads(const cli_ens *e, int asked)
{
	if (asked > 0)
		return asked;
	if (e->size > 1)
		return 1; /* one rank per core is mpirun's default */
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

int cli_ens_batch(const cli_ens *e, const sw_ens_plan *plan, int64_t first, int64_t count,
		  int threads, sw_ens_result *out)
{
	int64_t lo = first + count * e->rank / e->size;
	int64_t hi = first + count * (e->rank + 1) / e->size;
	/* Rank 0's block goes straight to out; the others' to a buffer sent to rank 0. */
	sw_ens_result *mine = e->rank == 0 ? out : malloc((size_t)(hi - lo + 1) * sizeof *mine);
	int st = mine ? sw_ens_execute(plan, lo, hi - lo, threads, mine) : SW_ENOMEM;
#ifdef SW_HAVE_MPI
	if (e->mpi && e->size > 1) {
		int all = st;
		MPI_Allreduce(&st, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
		st = all;
		const int tag = 17;
		if (st == SW_SUCCESS && e->rank != 0) {
			MPI_Send(mine, (int)((hi - lo) * (int64_t)sizeof *mine), MPI_BYTE, 0, tag,
				 MPI_COMM_WORLD);
		} else if (st == SW_SUCCESS) {
			for (int r = 1; r < e->size; r++) {
				int64_t a = first + count * r / e->size;
				int64_t b = first + count * (r + 1) / e->size;
				MPI_Recv(out + (a - first), (int)((b - a) * (int64_t)sizeof *out),
					 MPI_BYTE, r, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			}
		}
	}
#endif
	if (e->rank != 0)
		free(mine);
	return st;
}

int cli_ens_bcast(const cli_ens *e, int value)
{
#ifdef SW_HAVE_MPI
	if (e->mpi)
		MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
#else
	(void)e;
#endif
	return value;
}

/* --- parameters ---------------------------------------------------------------------------- */

static int number(const char *cmd, const char *arg, const char *s, const char *end, double *v)
{
	char buf[64];
	char *stop = NULL;
	size_t n = (size_t)(end - s);
	if (n == 0 || n >= sizeof buf)
		goto bad;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	*v = strtod(buf, &stop);
	if (errno || *stop || !isfinite(*v))
		goto bad;
	return 0;
bad:
	fprintf(stderr,
		"swerve %s: --param '%s': '%.*s' is not a number; expected "
		"NAME=VALUE, NAME=LO:HI:STEP or NAME=V1,V2,...\n",
		cmd, arg, (int)n, s);
	return -1;
}

int cli_param_parse(const char *cmd, const char *arg, int grid, cli_param *p)
{
	memset(p, 0, sizeof *p);
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof p->name) {
		fprintf(stderr,
			"swerve %s: --param '%s': expected NAME=%s (names: "
			"docs/ensembles.md)\n",
			cmd, arg, grid ? "LO:HI:STEP or NAME=V1,V2,..." : "VALUE");
		return -1;
	}
	memcpy(p->name, arg, (size_t)(eq - arg));
	const char *v = eq + 1, *c1 = strchr(v, ':');
	if (c1 && grid) {
		const char *c2 = strchr(c1 + 1, ':');
		double lo, hi, step;
		if (!c2 || strchr(c2 + 1, ':') || number(cmd, arg, v, c1, &lo) ||
		    number(cmd, arg, c1 + 1, c2, &hi) ||
		    number(cmd, arg, c2 + 1, v + strlen(v), &step))
			return c2 ? -1
				  : (fprintf(stderr,
					     "swerve %s: --param '%s': expected "
					     "LO:HI:STEP\n",
					     cmd, arg),
				     -1);
		if (!(step > 0.0) || hi < lo) {
			fprintf(stderr, "swerve %s: --param '%s': expected LO <= HI and STEP > 0\n",
				cmd, arg);
			return -1;
		}
		/* Values lo + i * step up to hi (within a relative 1e-9 of a step). */
		double k = floor((hi - lo) / step + 1e-9);
		if (k >= CLI_PARAM_MAX) {
			fprintf(stderr,
				"swerve %s: --param '%s': %.0f values; expected at most %d\n", cmd,
				arg, k + 1, CLI_PARAM_MAX);
			return -1;
		}
		p->n = (int)k + 1;
		for (int i = 0; i < p->n; i++)
			p->values[i] = lo + i * step;
		return 0;
	}
	for (const char *s = v;; p->n++) {
		const char *e = grid ? strchr(s, ',') : NULL;
		if (!e)
			e = s + strlen(s);
		if (p->n == CLI_PARAM_MAX) {
			fprintf(stderr, "swerve %s: --param '%s': more than %d values\n", cmd, arg,
				CLI_PARAM_MAX);
			return -1;
		}
		if (number(cmd, arg, s, e, &p->values[p->n]))
			return -1;
		if (!*e) {
			p->n++;
			return 0;
		}
		s = e + 1;
	}
}

int64_t cli_grid_points(const cli_param *p, int n)
{
	int64_t total = 1;
	for (int i = 0; i < n; i++) /* saturates: 8 parameters of 10 000 values overflow */
		total = total > INT64_MAX / (p[i].n > 0 ? p[i].n : 1) ? INT64_MAX : total * p[i].n;
	return total;
}

void cli_grid_values(const cli_param *p, int n, int64_t point, double *v)
{
	for (int i = n - 1; i >= 0; i--) {
		v[i] = p[i].values[point % p[i].n];
		point /= p[i].n;
	}
}

int cli_grid_load(const char *cmd, const char *path, const cli_param *p, int n, int64_t points,
		  const char *property, sw_model **models, sw_ens_property **props,
		  sw_plan **plans)
{
	static sw_diag diag;
	sw_override ov[CLI_PARAMS];
	double v[CLI_PARAMS];
	for (int64_t g = 0; g < points; g++) {
		cli_diag_init(&diag);
		cli_grid_values(p, n, g, v);
		for (int i = 0; i < n; i++)
			ov[i] = (sw_override){p[i].name, v[i]};
		int st = sw_scenario_load_overrides(path, ov, n, &models[g], &diag);
		if (st == SW_SUCCESS && property)
			st = sw_ens_property_compile(models[g], property, &props[g], &diag);
		/* Fields once per grid point, through the default cache, shared by its runs
		 * (a world would otherwise solve them again for every run). */
		if (st == SW_SUCCESS)
			st = cli_plan_fields(models[g], NULL, 0, &plans[g]);
		if (st != SW_SUCCESS) {
			cli_print_diag(&diag);
			if (n > 0) {
				fprintf(stderr, "swerve %s: at grid point %lld:", cmd,
					(long long)g);
				char num[40];
				for (int i = 0; i < n; i++)
					fprintf(stderr, " %s=%s", p[i].name,
						sw_fmt_num(num, sizeof num, v[i]));
				fputc('\n', stderr);
			}
			return cli_load_exit_code(st);
		}
	}
	return EXIT_OK;
}

void cli_grid_free(sw_model **models, sw_ens_property **props, sw_plan **plans, int64_t points)
{
	for (int64_t g = 0; models && g < points; g++) {
		if (props)
			sw_ens_property_free(props[g]);
		if (plans)
			sw_plan_free(plans[g]);
		sw_model_free(models[g]);
	}
	free(models);
	free(props);
	free(plans);
}

/* --- CSV -------------------------------------------------------------------------------------- */

void cli_csv_header(FILE *f, const cli_param *p, int n)
{
	fputs("run,point,seed", f);
	for (int i = 0; i < n; i++)
		fprintf(f, ",%s", p[i].name);
	fputs(",status,property,t_end,agents,reached,mean_t_reached,mean_path,min_clearance,"
	      "min_agent_clearance,collisions,agent_collisions,message\n",
	      f);
}

void cli_csv_row(FILE *f, const sw_ens_result *r, const cli_param *p, int n)
{
	double v[CLI_PARAMS];
	char num[40];
	cli_grid_values(p, n, r->point, v);
	fprintf(f, "%lld,%lld,%llu", (long long)r->run, (long long)r->point,
		(unsigned long long)r->seed);
	for (int i = 0; i < n; i++)
		fprintf(f, ",%s", sw_fmt_num(num, sizeof num, v[i]));
	fprintf(f, ",%s,", r->status == SW_SUCCESS ? "ok" : "failed");
	if (r->value >= 0)
		fprintf(f, "%d", r->value);
	fprintf(f, ",%.9g,%d,%d,%.9g,%.9g,%.9g,%.9g,%d,%d,", r->t_end, r->n_agents, r->reached,
		r->mean_t_reached, r->mean_path, r->min_clearance, r->min_agent_clearance,
		r->collisions, r->agent_collisions);
	/* RFC 4180: a field with quotes, commas or line breaks is quoted, quotes doubled. */
	if (r->message[0]) {
		fputc('"', f);
		for (const char *s = r->message; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	}
	fputc('\n', f);
}

/* --- output files ------------------------------------------------------------------------- */

/* The file goes through sw_atomic_open (an unpredictable temporary beside it, renamed over it
 * when complete); tmp holds the temporary's name between the two calls. */
int cli_out_open(const char *cmd, const char *path, const sw_model *m, char *tmp, size_t n,
		 FILE **out)
{
	*out = NULL;
	if (!path || strcmp(path, "-") == 0) {
		*out = stdout;
		return EXIT_OK;
	}
	if (cli_refuse_input(cmd, path, m))
		return EXIT_BAD_INPUT;
	if (!(*out = sw_atomic_open(path, tmp, n, NULL))) {
		fprintf(stderr, "swerve %s: cannot write %s: %s\n", cmd, path, strerror(errno));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

int cli_out_close(const char *cmd, FILE *f, const char *path, const char *tmp, int keep)
{
	if (f == stdout)
		return 0; /* main checks the standard output when the command returns */
	if (!keep) {
		sw_atomic_abort(f, tmp);
		return -1;
	}
	if (sw_atomic_commit(f, tmp, path, NULL) == SW_SUCCESS)
		return 0;
	fprintf(stderr, "swerve %s: cannot write %s: %s\n", cmd, path, strerror(errno));
	return -1;
}
