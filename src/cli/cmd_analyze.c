/* cli/cmd_analyze.c - `swerve analyze`: the GLM constraint competition (8) of one agent at one
 * instant (docs/models.md section 1.2): fields, competition parameters, fixed points
 * with their eigenvalues and stability, where the agent's weights sit, and warnings. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/core_internal.h"

static void analyze_usage(FILE *f)
{
	fputs("usage: swerve analyze SCENARIO [--agent NAME] [--at T] [--kclass] [--json]\n"
	      "\n"
	      "Runs the scenario to time T and prints, for a GLM agent, the situation, the fields\n"
	      "f_tar and f_obs with their slopes, sum D, sum W, the competition parameters a1, a2,\n"
	      "g12, g21, the fixed points of the weight system (8) with Jacobian eigenvalues and\n"
	      "stability, the fixed point nearest to the agent's current weights, and warnings\n"
	      "(stable 'both off' point, bistability, at T; and whether the agent's parameter\n"
	      "design allows either in some situation).\n"
	      "\n"
	      "options:\n"
	      "  -A, --agent NAME   the agent to analyse (may be omitted when there is only one)\n"
	      "  -a, --at T         time in seconds (default 0, at most the run's duration); the\n"
	      "                     run stops at the first step at or after T\n"
	      "  -s, --seed N       override the scenario seed\n"
	      "  -k, --kclass       also print the 2-class system solved by the k-class analysis\n"
	      "      --json         JSON output\n"
	      "  -q, --quiet        no progress\n"
	      "  -v, --verbose      also notes (what was loaded)\n"
	      "  -V, --version      the version\n"
	      "  -h, --help         this text\n"
	      "\n"
	      "The analysis goes to standard output; progress (on a terminal) to standard error.\n"
	      "Exit status: 0 success, 1 simulation failure, 2 bad usage, bad input, unknown agent,\n"
	      "T after the end of the run, an agent that does not run GLM at T, or one that has\n"
	      "arrived and stands still at T (the heading dynamics need motion).\n",
	      f);
}

static const char *fp_meaning(double wt, double wo)
{
	int t = wt > 0.0, o = wo > 0.0;
	if (!t && !o)
		return "both off";
	if (!t)
		return "target ignored, only avoid";
	if (!o)
		return "obstacles ignored";
	return "averaging";
}

typedef struct analysis {
	const char *agent, *mode;
	double t, x, y, phi, wt, wo;
	int has_target;
	double tx, ty;
	int n_percepts;
	sw_glm_terms g;
	sw_fixed_point fp[4];
	int n_fp, nearest;
	double nearest_dist;
	int both_off_stable, bistable;
	/* The parameter design over every situation (a2 = tanh(sum D) in [0, 1), a1 = a1_scale
	 * (1 - a2), g12 up to 1 when a target hides behind an obstacle, eqs. (9), (10)). */
	double a1_scale, g21;
	int design_both_off, design_bistable;
	int kclass;
	sw_kfixed_point kfp[4];
	int n_kfp;
} analysis;

static void print_text(FILE *f, const analysis *A)
{
	const sw_glm_terms *g = &A->g;
	fprintf(f, "agent %s at t = %.6g s (mode %s)\n", A->agent, A->t, A->mode);
	fprintf(f, "situation\n");
	fprintf(f, "  position      (%.6g, %.6g) m\n", A->x, A->y);
	fprintf(f, "  heading       %.6g rad (%.4g deg)\n", A->phi, A->phi * 180.0 / SW_PI);
	if (A->has_target)
		fprintf(f, "  target        (%.6g, %.6g) m, direction psi_T = %.6g rad\n", A->tx, A->ty,
			g->psi_t);
	else
		fprintf(f, "  target        none\n");
	fprintf(f, "  percepts      %d\n", A->n_percepts);
	fprintf(f, "fields\n");
	fprintf(f, "  f_tar = %-12.6g  d f_tar/d phi = %.6g\n", g->f_tar, g->df_tar);
	fprintf(f, "  f_obs = %-12.6g  d f_obs/d phi = %.6g\n", g->f_obs, g->df_obs);
	fprintf(f, "  sum D = %-12.6g  sum W = %.6g\n", g->sum_d, g->sum_w);
	fprintf(f, "competition (8)\n");
	fprintf(f, "  a1 = %.6g  a2 = %.6g  g12 = %.6g  g21 = %.6g\n", g->a1, g->a2, g->g12, g->g21);
	fprintf(f, "fixed points\n");
	fprintf(f, "  %-10s %-10s %-24s %-24s %-8s %s\n", "w_tar", "w_obs", "eigenvalue 1",
		"eigenvalue 2", "stable", "meaning");
	for (int i = 0; i < A->n_fp; i++) {
		const sw_fixed_point *p = &A->fp[i];
		char e[2][64];
		for (int k = 0; k < 2; k++) {
			if (p->eig_im[k] != 0.0)
				snprintf(e[k], sizeof e[k], "%.6g%+.6gi", p->eig_re[k], p->eig_im[k]);
			else
				snprintf(e[k], sizeof e[k], "%.6g", p->eig_re[k]);
		}
		fprintf(f, "  %-10.6g %-10.6g %-24s %-24s %-8s %s%s\n", p->w_tar, p->w_obs, e[0], e[1],
			p->stable ? "yes" : "no", fp_meaning(p->w_tar, p->w_obs),
			i == A->nearest ? "  <- agent" : "");
	}
	fprintf(f, "weights\n");
	fprintf(f, "  w_tar = %.6g  w_obs = %.6g; nearest fixed point (%.6g, %.6g) at distance %.3g"
		   " (%s)\n",
		A->wt, A->wo, A->fp[A->nearest].w_tar, A->fp[A->nearest].w_obs, A->nearest_dist,
		A->fp[A->nearest].stable ? "stable" : "unstable");
	if (A->kclass) {
		fprintf(f, "k-class analysis (11), k = 2\n");
		fprintf(f, "  %-8s %-10s %-10s %-24s %-24s %s\n", "support", "w_1", "w_2",
			"eigenvalue 1", "eigenvalue 2", "stable");
		for (int i = 0; i < A->n_kfp; i++) {
			const sw_kfixed_point *p = &A->kfp[i];
			char e[2][64], sup[8];
			snprintf(sup, sizeof sup, "{%s%s%s}", p->support & 1u ? "1" : "",
				 p->support == 3u ? "," : "", p->support & 2u ? "2" : "");
			for (int k = 0; k < 2; k++) {
				if (p->eig_im[k] != 0.0)
					snprintf(e[k], sizeof e[k], "%.6g%+.6gi", p->eig_re[k],
						 p->eig_im[k]);
				else
					snprintf(e[k], sizeof e[k], "%.6g", p->eig_re[k]);
			}
			fprintf(f, "  %-8s %-10.6g %-10.6g %-24s %-24s %s\n", sup, p->w[0], p->w[1],
				e[0], e[1], p->stable ? "yes" : "no");
		}
	}
	int nw = 0;
	if (A->both_off_stable) {
		fprintf(f, "warning: both off: (0, 0) is stable (a1 = %.6g, a2 = %.6g); the agent "
			   "neither seeks nor avoids\n",
			g->a1, g->a2);
		nw++;
	}
	if (A->bistable) {
		fprintf(f, "warning: bistable: g12 > a1 and g21 > a2; the weights' history decides "
			   "between (0, 1) and (1, 0)\n");
		nw++;
	}
	if (!A->fp[A->nearest].stable) {
		fprintf(f, "warning: the weights sit nearest an unstable fixed point\n");
		nw++;
	}
	if (A->design_both_off) {
		fprintf(f, "warning: design: a1-scale = %g makes a1 = 0 in every situation: the target "
			   "weight never grows, and with no obstacle in view (a2 = 0) both weights stay "
			   "off\n",
			A->a1_scale);
		nw++;
	}
	if (A->design_bistable) {
		fprintf(f, "warning: design: bistability is possible (a1-scale = %g, g21 = %g): g21 > "
			   "a2 wherever sum D < atanh(g21) = %.4g, and g12 > a1 where the target hides "
			   "behind an obstacle (g12 -> 1 > a1)\n",
			A->a1_scale, A->g21, A->g21 < 1 ? atanh(A->g21) : INFINITY);
		nw++;
	}
	if (nw == 0)
		fprintf(f, "no warnings\n");
}

static void print_json(FILE *f, const analysis *A)
{
	const sw_glm_terms *g = &A->g;
	fputs("{\"agent\": ", f);
	sw__json_str(f, A->agent);
	fputs(", \"mode\": ", f);
	sw__json_str(f, A->mode);
	fputs(", \"t\": ", f);
	sw__json_num(f, A->t);
	fputs(",\n \"situation\": {\"x\": ", f);
	sw__json_num(f, A->x);
	fputs(", \"y\": ", f);
	sw__json_num(f, A->y);
	fputs(", \"heading\": ", f);
	sw__json_num(f, A->phi);
	fputs(", \"target\": ", f);
	if (A->has_target) {
		fputs("{\"x\": ", f);
		sw__json_num(f, A->tx);
		fputs(", \"y\": ", f);
		sw__json_num(f, A->ty);
		fputs(", \"psi_t\": ", f);
		sw__json_num(f, g->psi_t);
		fputs("}", f);
	} else {
		fputs("null", f);
	}
	fprintf(f, ", \"percepts\": %d},\n \"fields\": {\"f_tar\": ", A->n_percepts);
	sw__json_num(f, g->f_tar);
	fputs(", \"df_tar\": ", f);
	sw__json_num(f, g->df_tar);
	fputs(", \"f_obs\": ", f);
	sw__json_num(f, g->f_obs);
	fputs(", \"df_obs\": ", f);
	sw__json_num(f, g->df_obs);
	fputs(", \"sum_d\": ", f);
	sw__json_num(f, g->sum_d);
	fputs(", \"sum_w\": ", f);
	sw__json_num(f, g->sum_w);
	fputs("},\n \"competition\": {\"a1\": ", f);
	sw__json_num(f, g->a1);
	fputs(", \"a2\": ", f);
	sw__json_num(f, g->a2);
	fputs(", \"g12\": ", f);
	sw__json_num(f, g->g12);
	fputs(", \"g21\": ", f);
	sw__json_num(f, g->g21);
	fputs("},\n \"fixed_points\": [", f);
	for (int i = 0; i < A->n_fp; i++) {
		const sw_fixed_point *p = &A->fp[i];
		fputs(i ? ",\n   {\"w_tar\": " : "\n   {\"w_tar\": ", f);
		sw__json_num(f, p->w_tar);
		fputs(", \"w_obs\": ", f);
		sw__json_num(f, p->w_obs);
		fputs(", \"eig_re\": [", f);
		sw__json_num(f, p->eig_re[0]);
		fputs(", ", f);
		sw__json_num(f, p->eig_re[1]);
		fputs("], \"eig_im\": [", f);
		sw__json_num(f, p->eig_im[0]);
		fputs(", ", f);
		sw__json_num(f, p->eig_im[1]);
		fprintf(f, "], \"stable\": %s, \"meaning\": ", p->stable ? "true" : "false");
		sw__json_str(f, fp_meaning(p->w_tar, p->w_obs));
		fputs("}", f);
	}
	fputs("],\n \"weights\": {\"w_tar\": ", f);
	sw__json_num(f, A->wt);
	fputs(", \"w_obs\": ", f);
	sw__json_num(f, A->wo);
	fprintf(f, ", \"nearest\": %d, \"distance\": ", A->nearest);
	sw__json_num(f, A->nearest_dist);
	fputs("}", f);
	if (A->kclass) {
		fputs(",\n \"kclass\": [", f);
		for (int i = 0; i < A->n_kfp; i++) {
			const sw_kfixed_point *p = &A->kfp[i];
			fprintf(f, "%s{\"support\": %u, \"w\": [", i ? ",\n   " : "\n   ", p->support);
			sw__json_num(f, p->w[0]);
			fputs(", ", f);
			sw__json_num(f, p->w[1]);
			fputs("], \"eig_re\": [", f);
			sw__json_num(f, p->eig_re[0]);
			fputs(", ", f);
			sw__json_num(f, p->eig_re[1]);
			fputs("], \"eig_im\": [", f);
			sw__json_num(f, p->eig_im[0]);
			fputs(", ", f);
			sw__json_num(f, p->eig_im[1]);
			fprintf(f, "], \"stable\": %s}", p->stable ? "true" : "false");
		}
		fputs("]", f);
	}
	fputs(",\n \"warnings\": [", f);
	int nw = 0;
	if (A->both_off_stable)
		fprintf(f, "%s\"both off\"", nw++ ? ", " : "");
	if (A->bistable)
		fprintf(f, "%s\"bistable\"", nw++ ? ", " : "");
	if (!A->fp[A->nearest].stable)
		fprintf(f, "%s\"nearest fixed point unstable\"", nw++ ? ", " : "");
	if (A->design_both_off)
		fprintf(f, "%s\"design: both off\"", nw++ ? ", " : "");
	if (A->design_bistable)
		fprintf(f, "%s\"design: bistable\"", nw++ ? ", " : "");
	fputs("]}\n", f);
}

int cmd_analyze(int argc, char **argv)
{
	enum { OPT_JSON = 256 };
	static const struct option opts[] = {{"agent", required_argument, NULL, 'A'},
					     {"at", required_argument, NULL, 'a'},
					     {"seed", required_argument, NULL, 's'},
					     {"kclass", no_argument, NULL, 'k'},
					     {"json", no_argument, NULL, OPT_JSON},
					     CLI_LONG};
	const char *agent = NULL;
	double at = 0.0, seed = -1;
	int kclass = 0, json = 0, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":A:a:s:k" CLI_SHORT, opts, NULL)) != -1) {
		switch (c) {
		case 'A': agent = optarg; break;
		case 'a':
			if (cli_number("analyze", "--at", optarg, 0.0, &at))
				return EXIT_BAD_INPUT;
			break;
		case 's':
			if (cli_number("analyze", "--seed", optarg, 0.0, &seed))
				return EXIT_BAD_INPUT;
			break;
		case 'k': kclass = 1; break;
		case OPT_JSON: json = 1; break;
		default: {
			int code = cli_option(c, argv, opts, analyze_usage);
			if (code >= 0)
				return code;
		}
		}
	}
	if (optind != argc - 1)
		return cli_usage_error("expected exactly one scenario file");
	sw_model *m = NULL;
	sw_world *w = NULL;
	int ai = -1;
	int code = cli_world_at("analyze", argv[optind], agent, at, seed, &m, &w, &ai);
	if (code != EXIT_OK)
		return code;
	int st;

	analysis A;
	memset(&A, 0, sizeof A);
	A.agent = m->agents[ai].name;
	A.mode = sw_world_mode_name(w, ai, sw_world_unit_mode(w, ai));
	A.t = sw_world_time(w);
	A.kclass = kclass;
	if (sw_world_is_3d(w)) { /* sw_world_glm_terms is the planar evaluation */
		fprintf(stderr, "%s:%d: error: analyze: a 3-D scenario; the analysis is of the planar "
			"law; expected a 2-D scenario\n", m->file, m->dim3_line);
		sw_world_destroy(w);
		sw_model_free(m);
		return EXIT_BAD_INPUT;
	}
	if (sw_world_glm_terms(w, ai, &A.g) != SW_SUCCESS) {
		fprintf(stderr,
			"swerve analyze: agent '%s' does not run the GLM law at t = %.9g s (mode %s); "
			"the competition analysis applies to GLM only\n",
			A.agent, A.t, A.mode);
		sw_world_destroy(w);
		sw_model_free(m);
		return EXIT_BAD_INPUT;
	}
	sw_agent_state as;
	sw_world_agent(w, ai, &as);
	A.x = as.y[SW_STATE_X];
	A.y = as.y[SW_STATE_Y];
	A.phi = atan2(sin(as.y[SW_STATE_PHI]), cos(as.y[SW_STATE_PHI]));
	A.wt = fabs(as.y[SW_STATE_WTAR]);
	A.wo = fabs(as.y[SW_STATE_WOBS]);
	sw_situation s;
	sw_percept pbuf[1];
	A.n_percepts = sw_world_perceive(w, ai, &s, pbuf, 1);
	A.has_target = s.has_target;
	A.tx = s.tx;
	A.ty = s.ty;

	const sw_glm_terms *g = &A.g;
	st = sw_glm_fixed_points(g->a1, g->a2, g->g12, g->g21, A.fp, &A.n_fp);
	if (st == SW_SUCCESS && kclass) {
		double a[2] = {g->a1, g->a2}, gm[4] = {0.0, g->g12, g->g21, 0.0};
		st = sw_competition_kclass(2, a, gm, A.kfp, 4, &A.n_kfp);
	}
	if (st != SW_SUCCESS || A.n_fp == 0) {
		fprintf(stderr, "swerve analyze: the fixed-point analysis failed (status %d)\n", st);
		sw_world_destroy(w);
		sw_model_free(m);
		return cli_exit_code(st == SW_SUCCESS ? SW_ENUMERIC : st);
	}
	A.nearest = 0;
	A.nearest_dist = INFINITY;
	for (int i = 0; i < A.n_fp; i++) {
		double d = hypot(A.wt - A.fp[i].w_tar, A.wo - A.fp[i].w_obs);
		if (d < A.nearest_dist) {
			A.nearest_dist = d;
			A.nearest = i;
		}
		if (A.fp[i].w_tar == 0.0 && A.fp[i].w_obs == 0.0 && A.fp[i].stable)
			A.both_off_stable = 1;
	}
	A.bistable = g->g12 > g->a1 && g->g21 > g->a2;
	/* Design: (0, 0) has eigenvalues a1 and a2 >= 0, so "both off" can only be neutral, which
	 * a1-scale = 0 makes it in every obstacle-free situation.  (0, 1) and (1, 0) are both
	 * stable when g12 > a1 and g21 > a2 (table of section 1.2): g21 > a2 for some situation iff
	 * g21 > 0 (a2 -> 0 with far obstacles); g12 reaches 1 (P_tar P_obs = -1), so g12 > a1 for
	 * some such a2 iff a1_scale (1 - min(g21, 1)) < 1. */
	const sw_glm_params *gp = &sw_world_steer(w, ai)->glm;
	A.a1_scale = gp->a1_scale;
	A.g21 = gp->g21;
	A.design_both_off = gp->a1_scale == 0.0;
	A.design_bistable = gp->g21 > 0 && gp->a1_scale * (1.0 - fmin(gp->g21, 1.0)) < 1.0;

	if (json)
		print_json(stdout, &A);
	else
		print_text(stdout, &A);
	sw_world_destroy(w);
	sw_model_free(m);
	return EXIT_OK; /* main checks the standard output */
}
