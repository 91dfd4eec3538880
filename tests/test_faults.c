/* tests/test_faults.c - numeric faults: non-finite states, non-finite flows, step-size underflow
 * and stiff blow-ups stop a run with a message naming agent, mode and time, and the outputs up to
 * the last good step are complete and valid.
 *
 * Each scenario is an automaton whose flow misbehaves in a known way: z' = z^2 from z = 1 (the
 * exact solution 1/(1 - t) is singular at t = 1), z' = 1/(1 - t) (singular flow at t = 1), the
 * stiff z' = -1e6 (z - 1) under explicit Euler (unstable: |1 - h 1e6| >> 1) and z' = sqrt(z - 2)
 * from z = 1 (NaN at once).  The failure instants are compared with the closed forms or with
 * the recurrence of the explicit method computed here independently.  The outputs are run
 * through the library's own writer (as `swerve run` does) and then parsed: the CSV row by row,
 * the JSON documents by a small syntax checker (no JSON library is a swerve dependency). */
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "swerve/core.h"
#include "swerve/io.h"
#include "swerve/model.h"
#include "swerve/sim.h"
#include "tests.h"

Suite *faults_suite(void);

/* ---- a JSON syntax checker (RFC 8259 grammar; values are not kept) ------------------------- */

typedef struct {
	const char *p, *end;
} jcur;

static void jws(jcur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\n' || *c->p == '\t' || *c->p == '\r'))
		c->p++;
}

static int jlit(jcur *c, const char *lit)
{
	size_t n = strlen(lit);
	if ((size_t)(c->end - c->p) < n || memcmp(c->p, lit, n) != 0)
		return 0;
	c->p += n;
	return 1;
}

static int jvalue(jcur *c, int depth);

static int jstring(jcur *c)
{
	if (c->p >= c->end || *c->p != '"')
		return 0;
	for (c->p++; c->p < c->end; c->p++) {
		unsigned char ch = (unsigned char)*c->p;
		if (ch == '"') {
			c->p++;
			return 1;
		}
		if (ch < 0x20)
			return 0;
		if (ch == '\\') {
			c->p++;
			if (c->p >= c->end || !strchr("\"\\/bfnrtu", *c->p))
				return 0;
			if (*c->p == 'u')
				for (int k = 0; k < 4; k++)
					if (++c->p >= c->end || !isxdigit((unsigned char)*c->p))
						return 0;
		}
	}
	return 0;
}

static int jnumber(jcur *c)
{
	const char *s = c->p;
	if (c->p < c->end && *c->p == '-')
		c->p++;
	if (c->p >= c->end || !isdigit((unsigned char)*c->p))
		return 0;
	if (*c->p == '0')
		c->p++;
	else
		while (c->p < c->end && isdigit((unsigned char)*c->p))
			c->p++;
	if (c->p < c->end && *c->p == '.') {
		c->p++;
		if (c->p >= c->end || !isdigit((unsigned char)*c->p))
			return 0;
		while (c->p < c->end && isdigit((unsigned char)*c->p))
			c->p++;
	}
	if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
		c->p++;
		if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
			c->p++;
		if (c->p >= c->end || !isdigit((unsigned char)*c->p))
			return 0;
		while (c->p < c->end && isdigit((unsigned char)*c->p))
			c->p++;
	}
	return c->p > s;
}

static int jcontainer(jcur *c, int depth, char close, int object)
{
	c->p++;
	jws(c);
	if (c->p < c->end && *c->p == close) {
		c->p++;
		return 1;
	}
	for (;;) {
		if (object) {
			if (!jstring(c))
				return 0;
			jws(c);
			if (c->p >= c->end || *c->p++ != ':')
				return 0;
		}
		if (!jvalue(c, depth + 1))
			return 0;
		jws(c);
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			jws(c);
			continue;
		}
		if (c->p < c->end && *c->p == close) {
			c->p++;
			return 1;
		}
		return 0;
	}
}

static int jvalue(jcur *c, int depth)
{
	if (depth > 64)
		return 0;
	jws(c);
	if (c->p >= c->end)
		return 0;
	switch (*c->p) {
	case '{': return jcontainer(c, depth, '}', 1);
	case '[': return jcontainer(c, depth, ']', 0);
	case '"': return jstring(c);
	case 't': return jlit(c, "true");
	case 'f': return jlit(c, "false");
	case 'n': return jlit(c, "null");
	default: return jnumber(c);
	}
}

/* 1 when text[0, n) is exactly one JSON value (surrounded by white space). */
static int json_valid(const char *text, size_t n)
{
	jcur c = {text, text + n};
	if (!jvalue(&c, 0))
		return 0;
	jws(&c);
	return c.p == c.end;
}

START_TEST(the_json_checker_can_fail)
{
	static const char *good[] = {"{}", "[1, -2.5e3, true, null, \"a\\n\\u00e9\"]",
				     "{\"a\": {\"b\": [0.5, {}]}}"};
	static const char *bad[] = {"{",     "{\"a\" 1}", "[1,]",         "[01]", "nan",
				    "[1] 2", "\"a\nb\"",  "{\"a\": inf}", "[.5]", "{'a': 1}"};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		ck_assert_msg(json_valid(good[i], strlen(good[i])), "rejected %s", good[i]);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(!json_valid(bad[i], strlen(bad[i])), "accepted %s", bad[i]);
}
END_TEST

/* ---- running a faulty scenario ------------------------------------------------------------ */

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "%s is missing", path);
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	ck_assert_int_ge(len, 0);
	rewind(f);
	char *s = malloc((size_t)len + 1);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(fread(s, 1, (size_t)len, f), (size_t)len);
	s[len] = '\0';
	fclose(f);
	*n = (size_t)len;
	return s;
}

/* The outcome of one run. */
typedef struct {
	int status;
	char message[SW_DIAG_MSG + SW_DIAG_FILE + 64];
	double t_end;  /* world time at the end (the last good step) */
	double last_t; /* time of the last trajectory row */
	int rows;      /* trajectory rows */
	double z_last; /* not read from the CSV: the automaton variable is not an output */
} outcome;

/* Checks the three output files in dir and fills o->rows and o->last_t: the CSV has a header
 * and rows of the same number of fields, all numbers but the agent and mode, finite, with
 * non-decreasing times; events.jsonl holds one JSON object per line; summary.json is JSON
 * with the status and, for a failure, the error message.  No other file is left behind. */
static void check_outputs(const char *dir, const char *status, outcome *o)
{
	char path[512];
	size_t n;
	snprintf(path, sizeof path, "%s/trajectory.csv", dir);
	char *csv = slurp(path, &n);
	char *save = NULL, *line = strtok_r(csv, "\n", &save);
	ck_assert_ptr_nonnull(line);
	int fields = 1;
	for (const char *p = line; *p; p++)
		fields += *p == ',';
	ck_assert_int_ge(fields, 6);
	ck_assert_msg(strncmp(line, "t,agent,mode,", 13) == 0, "header: %s", line);
	o->rows = 0;
	o->last_t = -INFINITY;
	while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
		int k = 0;
		char *fsave = NULL;
		for (char *f = strtok_r(line, ",", &fsave); f;
		     f = strtok_r(NULL, ",", &fsave), k++) {
			if (k == 1 || k == 2)
				continue; /* agent and mode names */
			char *end = NULL;
			double v = strtod(f, &end);
			ck_assert_msg(end != f && *end == '\0' && isfinite(v),
				      "row %d field %d is not a finite number: '%s'", o->rows + 1,
				      k + 1, f);
			if (k == 0) {
				ck_assert_msg(v >= o->last_t, "time goes back at row %d",
					      o->rows + 1);
				o->last_t = v;
			}
		}
		ck_assert_msg(k == fields, "row %d has %d fields, the header %d", o->rows + 1, k,
			      fields);
		o->rows++;
	}
	free(csv);

	snprintf(path, sizeof path, "%s/events.jsonl", dir);
	char *ev = slurp(path, &n);
	for (char *p = ev, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		ck_assert_msg(nl != NULL, "events.jsonl does not end with a line break");
		ck_assert_msg(json_valid(p, (size_t)(nl - p)), "bad event line: %.*s",
			      (int)(nl - p), p);
	}
	free(ev);

	snprintf(path, sizeof path, "%s/summary.json", dir);
	char *sum = slurp(path, &n);
	ck_assert_msg(json_valid(sum, n), "summary.json is not valid JSON:\n%s", sum);
	char want[64];
	snprintf(want, sizeof want, "\"status\": \"%s\"", status);
	ck_assert_msg(strstr(sum, want) != NULL, "summary.json lacks %s", want);
	ck_assert_int_eq(strstr(sum, "\"error\": ") != NULL, strcmp(status, "failed") == 0);
	free(sum);

	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	int files = 0;
	for (struct dirent *e; (e = readdir(d)) != NULL;) {
		if (e->d_name[0] == '.')
			continue;
		ck_assert_msg(strcmp(e->d_name, "trajectory.csv") == 0 ||
				  strcmp(e->d_name, "events.jsonl") == 0 ||
				  strcmp(e->d_name, "summary.json") == 0,
			      "left behind: %s", e->d_name);
		files++;
	}
	closedir(d);
	ck_assert_int_eq(files, 3);
}

static void remove_outputs(const char *dir)
{
	static const char *names[] = {"trajectory.csv", "events.jsonl", "summary.json"};
	char path[512];
	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

/* Runs a one-agent scenario whose automaton has variable z (initial value z0) with flow `flow`,
 * under `integrator`, for `duration` s with step h, exactly as `swerve run` does; checks the
 * outputs and returns the outcome. */
static outcome run_flow(const char *flow, double z0, const char *integrator, double duration,
			double h)
{
	char doc[2048];
	snprintf(doc, sizeof doc,
		 "<?xml version=\"1.0\"?>\n"
		 "<scenario name=\"fault\">\n"
		 "  <run duration=\"%g\" step=\"%g\" integrator=\"%s\"/>\n"
		 "  <behaviours>\n"
		 "    <automaton name=\"f\">\n"
		 "      <var name=\"z\" kind=\"real\" init=\"%.17g\"/>\n"
		 "      <mode name=\"grow\">\n"
		 "        <flow var=\"z\">%s</flow>\n"
		 "      </mode>\n"
		 "    </automaton>\n"
		 "  </behaviours>\n"
		 "  <world><target name=\"here\" x=\"5\" y=\"0\"/></world>\n"
		 "  <agent name=\"bomb\" x=\"0\" y=\"0\" behaviour=\"f\"/>\n"
		 "</scenario>\n",
		 duration, h, integrator, z0, flow);
	static sw_diag diag;
	sw_diag_init(&diag);
	sw_model *m = NULL;
	ck_assert_int_eq(sw_scenario_load_memory(doc, strlen(doc), "fault.xml", &m, &diag),
			 SW_SUCCESS);
	char dir[] = "/tmp/swerve_faults_XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	sw_world *w = NULL;
	sw_output *o = NULL;
	ck_assert_int_eq(sw_world_create(m, NULL, &w, &diag), SW_SUCCESS);
	ck_assert_int_eq(sw_output_open(dir, m, &o, &diag), SW_SUCCESS);
	sw_output_attach(o, w);
	outcome r;
	memset(&r, 0, sizeof r);
	r.status = sw_world_run(w, sw_output_sample, o, &diag);
	if (r.status != SW_SUCCESS && diag.count > 0)
		sw_diag_format(&diag, diag.count - 1, r.message, sizeof r.message);
	ck_assert_int_eq(sw_output_commit(o, w, r.status != SW_SUCCESS ? r.message : NULL, &diag),
			 SW_SUCCESS);
	r.t_end = sw_world_time(w);
	int dim = 0;
	const double *y = sw_world_unit_state(w, 0, &dim);
	r.z_last = y[dim - 1];
	check_outputs(dir, r.status == SW_SUCCESS ? "complete" : "failed", &r);
	/* The last trajectory row is the last good step, and it is where the world stopped. */
	ck_assert_double_eq_tol(r.last_t, r.t_end, 1e-12);
	remove_outputs(dir);
	sw_world_destroy(w);
	sw_model_free(m);
	return r;
}

/* The time the message names ("... at t = 0.75 s: ..."). */
static double message_time(const char *msg)
{
	const char *p = strstr(msg, "at t = ");
	ck_assert_msg(p != NULL, "no time in: %s", msg);
	return strtod(p + 7, NULL);
}

static void expect_named(const outcome *r, const char *what)
{
	ck_assert_msg(r->status == SW_ENUMERIC, "status %d: %s", r->status, r->message);
	ck_assert_msg(
	    strstr(r->message, "fault.xml:13: error: agent 'bomb' (mode 'grow') at t = ") ==
		r->message,
	    "message: %s", r->message);
	ck_assert_msg(strstr(r->message, what) != NULL, "'%s' not in: %s", what, r->message);
	ck_assert_msg(strstr(r->message, "last good state") != NULL, "%s", r->message);
	ck_assert_double_eq_tol(message_time(r->message), r->t_end, 1e-9);
}

START_TEST(explicit_blow_up_stops_at_the_step_the_recurrence_overflows)
{
	/* Euler on z' = z^2: z_{k+1} = z_k + h z_k^2.  The first k whose z_k+1 (or its flow z_k^2)
	 * is not finite, computed here, is the step the run must stop at. */
	double h = 0.25, z = 1.0;
	int k = 0;
	while (isfinite(z * z) && isfinite(z + h * z * z)) {
		z += h * z * z;
		k++;
	}
	outcome r = run_flow("z * z", 1.0, "euler", 10, h);
	expect_named(&r, "'z'");
	ck_assert_double_eq_tol(r.t_end, k * h, 1e-12);
	ck_assert_double_eq(r.z_last, z);
	ck_assert_int_eq(r.rows, k + 1); /* t = 0, h, ..., k h */
}
END_TEST

START_TEST(adaptive_integration_reports_step_size_underflow_at_the_singularity)
{
	/* z' = z^2, z(0) = 1: z = 1/(1 - t) blows up at t = 1.  rkf45 cannot pass: its step
	 * shrinks until t + h == t, close to t = 1. */
	outcome r = run_flow("z * z", 1.0, "rkf45", 10, 0.25);
	expect_named(&r, "step-size underflow");
	const char *at = strstr(r.message, "resolution of t at t = ");
	ck_assert_ptr_nonnull(at);
	double t_stop = strtod(at + 23, NULL);
	ck_assert_msg(fabs(t_stop - 1.0) < 1e-6, "stopped at t = %.17g, not near 1", t_stop);
	ck_assert_double_eq_tol(r.t_end, 0.75, 1e-12); /* the last whole step */
	/* The last good z is the exact solution there, to the tolerance. */
	ck_assert_double_eq_tol(r.z_last, 1.0 / (1.0 - 0.75), 1e-4);
	/* Other adaptive methods may cross t = 1 with a huge z before failing; every one stops
	 * within a step of the singularity, naming agent, mode and time. */
	static const char *methods[] = {"rkck", "rk8pd", "rk4imp", "msadams"};
	for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
		outcome o = run_flow("z * z", 1.0, methods[i], 10, 0.25);
		expect_named(&o, "");
		ck_assert_msg(o.t_end >= 0.75 && o.t_end <= 1.0, "%s stopped at %g", methods[i],
			      o.t_end);
	}
	/* z' = 1/(1 - t): z = -log(1 - t), singular flow at t = 1. */
	r = run_flow("1 / (1 - t)", 0.0, "rkf45", 10, 0.25);
	expect_named(&r, "step-size underflow");
	ck_assert_double_eq_tol(r.z_last, -log(0.25), 1e-4);
}
END_TEST

START_TEST(a_singular_flow_under_euler_is_named_with_its_variable)
{
	/* Euler evaluates the flow at the step starts 0, 0.25, 0.5, 0.75, 1: 1/(1 - 1) = inf. */
	outcome r = run_flow("1 / (1 - t)", 0.0, "euler", 10, 0.25);
	expect_named(&r, "the flow of 'z' is not finite at t = 1 s");
	ck_assert_double_eq(r.t_end, 1.0);
	ck_assert_double_eq_tol(r.z_last, 0.25 * (1 + 1 / 0.75 + 1 / 0.5 + 1 / 0.25), 1e-15);
	/* A step that never lands on t = 1 passes the pole: the run completes (a finite, wrong
	 * answer is the explicit method's business, not a fault). */
	outcome ok = run_flow("1 / (1 - t)", 0.0, "euler", 2, 0.3);
	ck_assert_int_eq(ok.status, SW_SUCCESS);
}
END_TEST

START_TEST(a_stiff_system_blows_up_under_euler_and_runs_under_bdf)
{
	/* z' = -1e6 (z - 1): Euler multiplies the error by (1 - h 1e6) each step. */
	double h = 0.25, z = 0.0;
	int k = 0;
	while (isfinite(-1e6 * (z - 1.0)) && isfinite(z + h * -1e6 * (z - 1.0))) {
		z += h * -1e6 * (z - 1.0);
		k++;
	}
	outcome r = run_flow("-1e6 * (z - 1)", 0.0, "euler", 30, h);
	expect_named(&r, "'z'");
	ck_assert_double_eq_tol(r.t_end, k * h, 1e-12);
	ck_assert_double_eq(r.z_last, z);
	/* The implicit BDF method is stable: it completes, at the fixed point z = 1. */
	outcome ok = run_flow("-1e6 * (z - 1)", 0.0, "msbdf", 30, h);
	ck_assert_int_eq(ok.status, SW_SUCCESS);
	ck_assert_double_eq_tol(ok.z_last, 1.0, 1e-6);
}
END_TEST

/* z' = -1e9 (z - 1) under the explicit adaptive rkf45: stability holds its step near 3e-9 s, so
 * one 0.25 s macro step would take some 10^8 steps.  The integration gives up after 10^5 steps
 * (SW_ODE_MAX_STEPS) in the first macro step, naming the cause, instead of crawling for hours;
 * the implicit msbdf passes. */
START_TEST(a_stiff_system_under_an_explicit_adaptive_stepper_stops_with_a_reason)
{
	outcome r = run_flow("-1e9 * (z - 1)", 0.0, "rkf45", 30, 0.25);
	expect_named(&r, "the adaptive integrator took more than 100000 steps within one macro "
			 "step");
	ck_assert_double_eq(r.t_end, 0.0);
	outcome ok = run_flow("-1e9 * (z - 1)", 0.0, "msbdf", 30, 0.25);
	ck_assert_int_eq(ok.status, SW_SUCCESS);
	ck_assert_double_eq_tol(ok.z_last, 1.0, 1e-6);
}
END_TEST

START_TEST(a_nan_flow_stops_the_run_at_its_first_step)
{
	outcome r = run_flow("sqrt(z - 2)", 1.0, "euler", 10, 0.25);
	expect_named(&r, "the flow of 'z' is not finite at t = 0 s");
	ck_assert_double_eq(r.t_end, 0.0);
	ck_assert_int_eq(r.rows, 1); /* the initial sample only */
	r = run_flow("sqrt(z - 2)", 1.0, "rk4", 10, 0.25);
	ck_assert_int_eq(r.status, SW_ENUMERIC);
	ck_assert_ptr_nonnull(strstr(r.message, "agent 'bomb' (mode 'grow') at t = 0 s"));
}
END_TEST

Suite *faults_suite(void)
{
	Suite *s = suite_create("faults");
	TCase *tc = tcase_create("numeric faults");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, the_json_checker_can_fail);
	tcase_add_test(tc, explicit_blow_up_stops_at_the_step_the_recurrence_overflows);
	tcase_add_test(tc, adaptive_integration_reports_step_size_underflow_at_the_singularity);
	tcase_add_test(tc, a_singular_flow_under_euler_is_named_with_its_variable);
	tcase_add_test(tc, a_stiff_system_blows_up_under_euler_and_runs_under_bdf);
	tcase_add_test(tc, a_stiff_system_under_an_explicit_adaptive_stepper_stops_with_a_reason);
	tcase_add_test(tc, a_nan_flow_stops_the_run_at_its_first_step);
	suite_add_tcase(s, tc);
	return s;
}
