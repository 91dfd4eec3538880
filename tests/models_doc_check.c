/* tests/models_doc_check.c - the defaults printed in docs/models.md are the library's.
 *
 *     models_doc_check docs/models.md
 *
 * Reads every parameter table of the model reference: a row "| `attr` | `field` ... | default |"
 * belongs to the C struct last named in the text above it (`sw_glm_params`, `sw_fw_params`,
 * `sw_pf_params`, `sw_wall_params`, `sw_ttc_params`, `sw_sf_params`, `sw_csm_params`,
 * `sw_personality`).  Its default (the first
 * number of the last cell, or a keyword such as `relax` or `right`) must equal the field's value in the matching
 * sw_default_*() of src/steer/defaults.c, and every field listed below must have a row.
 * Prints one line per mismatch and exits 1 when there is any. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swerve/steer.h"

typedef struct {
	const char *strct, *field;
	double value;
	int seen;
} known;

/* Keywords a default cell may hold instead of a number. */
static const struct {
	const char *word;
	double value;
} words[] = {
    {"`relax`", SW_WEIGHTS_RELAX}, {"`t2c`", SW_SPEED_T2C}, {"`right`", 1}, {"`left`", -1},
    {"`false`", 0},                {"`true`", 1},
};

/* The default of a cell: a keyword, else its first number (U+2212 minus read as '-'); NAN when
 * it has neither. */
static double cell_value(const char *cell)
{
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strstr(cell, words[i].word))
			return words[i].value;
	char buf[256];
	size_t k = 0;
	for (const char *s = cell; *s && k + 1 < sizeof buf; s++) {
		if (strncmp(s, "\xe2\x88\x92", 3) == 0) { /* − */
			buf[k++] = '-';
			s += 2;
		} else {
			buf[k++] = *s;
		}
	}
	buf[k] = '\0';
	for (const char *s = buf; *s; s++) {
		if ((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' && s[1] <= '9')) {
			/* A number inside a word (d0, c1, λ_k) is not a value: it starts a token. */
			if (s > buf && ((s[-1] >= 'a' && s[-1] <= 'z') || s[-1] == '_'))
				continue;
			return strtod(s, NULL);
		}
	}
	return NAN;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: models_doc_check docs/models.md\n");
		return 2;
	}
	sw_glm_params g = sw_default_glm_params();
	sw_fw_params f = sw_default_fw_params();
	sw_pf_params p = sw_default_pf_params();
	sw_wall_params w = sw_default_wall_params();
	sw_personality q = sw_default_personality();
	sw_ttc_params t = sw_default_ttc_params();
	sw_sf_params sf = sw_default_sf_params();
	sw_csm_params cs = sw_default_csm_params();
	known k[] = {
	    {"sw_glm_params", "a", g.a, 0},
	    {"sw_glm_params", "d0", g.d0, 0},
	    {"sw_glm_params", "delta", g.delta, 0},
	    {"sw_glm_params", "margin", g.margin, 0},
	    {"sw_glm_params", "r_floor", g.r_floor, 0},
	    {"sw_glm_params", "wall_near", g.wall_near, 0},
	    {"sw_glm_params", "a1_scale", g.a1_scale, 0},
	    {"sw_glm_params", "g21", g.g21, 0},
	    {"sw_glm_params", "c1", g.c1, 0},
	    {"sw_glm_params", "c2", g.c2, 0},
	    {"sw_glm_params", "weights", g.weights, 0},
	    {"sw_glm_params", "eps", g.eps, 0},
	    {"sw_glm_params", "w_floor", g.w_floor, 0},
	    {"sw_glm_params", "w_restart", g.w_restart, 0},
	    {"sw_glm_params", "speed", g.speed, 0},
	    {"sw_glm_params", "v_max", g.v_max, 0},
	    {"sw_glm_params", "d1", g.d1, 0},
	    {"sw_glm_params", "t2c", g.t2c, 0},
	    {"sw_glm_params", "arrive", g.arrive, 0},
	    {"sw_glm_params", "sigma_phi", g.sigma_phi, 0},
	    {"sw_glm_params", "cohesion", g.cohesion, 0},
	    {"sw_glm_params", "alignment", g.alignment, 0},
	    {"sw_fw_params", "b", f.b, 0},
	    {"sw_fw_params", "kg", f.kg, 0},
	    {"sw_fw_params", "c1", f.c1, 0},
	    {"sw_fw_params", "c2", f.c2, 0},
	    {"sw_fw_params", "ko", f.ko, 0},
	    {"sw_fw_params", "c3", f.c3, 0},
	    {"sw_fw_params", "c4", f.c4, 0},
	    {"sw_fw_params", "speed", f.speed, 0},
	    {"sw_pf_params", "kp", p.kp, 0},
	    {"sw_pf_params", "eta", p.eta, 0},
	    {"sw_pf_params", "rho0", p.rho0, 0},
	    {"sw_pf_params", "r_floor", p.r_floor, 0},
	    {"sw_pf_params", "speed", p.speed, 0},
	    {"sw_wall_params", "a", w.a, 0},
	    {"sw_wall_params", "side", w.side, 0},
	    {"sw_wall_params", "distance", w.distance, 0},
	    {"sw_wall_params", "gain", w.gain, 0},
	    {"sw_wall_params", "speed", w.speed, 0},
	    {"sw_ttc_params", "k", t.k, 0},
	    {"sw_ttc_params", "tau0", t.tau0, 0},
	    {"sw_ttc_params", "xi", t.xi, 0},
	    {"sw_ttc_params", "v_pref", t.v_pref, 0},
	    {"sw_ttc_params", "range", t.range, 0},
	    {"sw_ttc_params", "f_max", t.f_max, 0},
	    {"sw_ttc_params", "v_min", t.v_min, 0},
	    {"sw_ttc_params", "bias", t.bias, 0},
	    {"sw_ttc_params", "t_arrive", t.t_arrive, 0},
	    {"sw_ttc_params", "t_contact", t.t_contact, 0},
	    {"sw_sf_params", "tau", sf.tau, 0},
	    {"sw_sf_params", "v0", sf.v0, 0},
	    {"sw_sf_params", "a", sf.a, 0},
	    {"sw_sf_params", "b", sf.b, 0},
	    {"sw_sf_params", "k", sf.k, 0},
	    {"sw_sf_params", "kappa", sf.kappa, 0},
	    {"sw_sf_params", "mass", sf.mass, 0},
	    {"sw_sf_params", "lambda", sf.lambda, 0},
	    {"sw_sf_params", "range", sf.range, 0},
	    {"sw_sf_params", "v_min", sf.v_min, 0},
	    {"sw_csm_params", "v0", cs.v0, 0},
	    {"sw_csm_params", "time_gap", cs.time_gap, 0},
	    {"sw_csm_params", "a", cs.a, 0},
	    {"sw_csm_params", "d", cs.d, 0},
	    {"sw_csm_params", "a_wall", cs.a_wall, 0},
	    {"sw_csm_params", "d_wall", cs.d_wall, 0},
	    {"sw_csm_params", "range", cs.range, 0},
	    {"sw_csm_params", "t_arrive", cs.t_arrive, 0},
	    {"sw_csm_params", "t_contact", cs.t_contact, 0},
	    /* A trait's own value is its value when it is switched on. */
	    {"sw_personality", "agility", q.agility, 0},
	    {"sw_personality", "lambda_k_min", q.lambda_k_min, 0},
	    {"sw_personality", "lambda_k_max", q.lambda_k_max, 0},
	    {"sw_personality", "mass", q.mass, 0},
	    {"sw_personality", "lambda_m_min", q.lambda_m_min, 0},
	    {"sw_personality", "lambda_m_max", q.lambda_m_max, 0},
	    {"sw_personality", "courage", q.courage, 0},
	    {"sw_personality", "d0_floor", q.d0_floor, 0},
	};
	int nk = (int)(sizeof k / sizeof k[0]);
	static const char *structs[] = {"sw_glm_params", "sw_fw_params", "sw_pf_params",
					"sw_wall_params", "sw_ttc_params", "sw_sf_params", "sw_csm_params",
					"sw_personality"};

	FILE *in = fopen(argv[1], "r");
	if (!in) {
		perror(argv[1]);
		return 2;
	}
	char line[4096];
	const char *cur = NULL;
	int bad = 0, lineno = 0;
	while (fgets(line, sizeof line, in)) {
		lineno++;
		/* The struct last named (as `sw_...`) decides which defaults a table row is. */
		const char *best = NULL;
		for (size_t i = 0; i < sizeof structs / sizeof structs[0]; i++) {
			char tick[64];
			snprintf(tick, sizeof tick, "`%s`", structs[i]);
			const char *at = strstr(line, tick);
			if (at && (!best || at > best)) {
				best = at;
				cur = structs[i];
			}
		}
		if (strncmp(line, "| `", 3) != 0 || !cur)
			continue;
		/* Cells: | `attr` | `field` ... | ... | default | */
		char *cells[16];
		int nc = 0;
		for (char *s = strtok(line + 1, "|"); s && nc < 16; s = strtok(NULL, "|"))
			cells[nc++] = s;
		if (nc < 3 || nc >= 16)
			continue;
		char field[64];
		if (sscanf(cells[1], " `%63[a-z0-9_]`", field) != 1)
			continue;
		char *last = cells[nc - 1];
		if (strspn(last, " \n") == strlen(last))
			last = cells[nc - 2]; /* that was the text after the final '|' */
		while (*last == ' ')
			last++;
		for (size_t n = strlen(last); n > 0 && (last[n - 1] == ' ' || last[n - 1] == '\n');)
			last[--n] = '\0';
		int found = 0;
		for (int i = 0; i < nk; i++) {
			if (strcmp(k[i].strct, cur) != 0 || strcmp(k[i].field, field) != 0)
				continue;
			found = 1;
			k[i].seen = 1;
			double v = cell_value(last);
			if (!(fabs(v - k[i].value) <= 1e-12 * fmax(1.0, fabs(k[i].value)))) {
				fprintf(stderr, "%s:%d: %s.%s: documented default \"%s\", the code's is %g\n",
					argv[1], lineno, cur, field, last, k[i].value);
				bad++;
			}
		}
		if (!found) {
			fprintf(stderr, "%s:%d: %s has no field %s\n", argv[1], lineno, cur, field);
			bad++;
		}
	}
	fclose(in);
	for (int i = 0; i < nk; i++) {
		if (!k[i].seen) {
			fprintf(stderr, "%s: no table row gives the default of %s.%s\n", argv[1],
				k[i].strct, k[i].field);
			bad++;
		}
	}
	if (bad)
		fprintf(stderr, "models_doc_check: %d problem(s)\n", bad);
	return bad ? 1 : 0;
}
