/* steer/params.c - one table per steering law: every parameter's attribute name in the scenario
 * format, where it lives in the law's parameter struct, its type, its default and the values the
 * model accepts.
 *
 * The tables drive the defaults (sw_default_*_params), the scenario and automaton readers (the
 * attribute tables of io/attrs.c are built from them, in the same order), the model's checks
 * (model/model.c sw__check_steer), the comparison of two steer definitions (sw_steer_def_equal),
 * and a test that docs/scenario-format.md documents every attribute with its default
 * (tests/test_steer.c).  A new parameter is one row here and its field in swerve/steer.h.
 *
 * Each law's descriptor (sw__laws, below) joins its table to what the rest of the library needs
 * to know of the law (steer_internal.h: which laws are crowd laws, read velocities, export, have
 * a 3-D form; where the speed cap, heading noise and alignment gain are): a new law is a row
 * there.  Outside this folder the code names a law only for that law's own features (GLM's
 * grouped sensing, its terms, its export; the export's interval bounds per law, export/flows.c),
 * never for a fact every law has.
 *
 * Defaults (docs/models.md lists their sources):
 *   - glm: the published settings (docs/models.md section 1.6);
 *   - fw: Fajen & Warren (2003);
 *   - ttc: Karamouzas, Skinner & Guy (2014): k, tau0, the goal relaxation xi, the preferred speed
 *     and the neighbour range of their simulations; f_max, v_min, bias, t_arrive and t_contact
 *     are swerve's;
 *   - sf: Helbing, Farkas & Vicsek (2000): tau, A, B, k, kappa and the mass; the desired speed is
 *     the mean of Helbing & Molnar (1995); lambda = 1 is the 2000 paper's isotropic law; range and
 *     v_min are swerve's;
 *   - csm: Tordeux, Chraibi & Seyfried (2016): the time gap and the repulsion of neighbours
 *     (a, D) of their simulations; walls (a_wall, d_wall) as JuPedSim implements the generalised
 *     model; the free speed is Weidmann's (1993); range, t_arrive and t_contact are swerve's;
 *   - potential and wall: swerve's. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "steer_internal.h"

static const char *const weights_names[] = {"relax", "restart", "dynamic", NULL};
static const char *const speed_names[] = {"t2c", "constant", "contact", NULL};

_Static_assert(SW_WEIGHTS_RELAX == 0 && SW_WEIGHTS_RESTART == 1 && SW_WEIGHTS_DYNAMIC == 2,
	       "weights names follow the enum");
_Static_assert(SW_SPEED_T2C == 0 && SW_SPEED_CONSTANT == 1 && SW_SPEED_CONTACT == 2,
	       "speed names follow the enum");

#define NUM(n, T, f, d, ck) {n, SW__P_NUM, offsetof(T, f), d, SW__CK_##ck, NULL}
#define ANGLE(n, T, f, d, ck) {n, SW__P_ANGLE, offsetof(T, f), d, SW__CK_##ck, NULL}
#define BOOL(n, T, f, d) {n, SW__P_BOOL, offsetof(T, f), d, SW__CK_NONE, NULL}
#define CHOICE(n, T, f, d, list) {n, SW__P_CHOICE, offsetof(T, f), d, SW__CK_CHOICE, list}

static const sw__law_param glm_params[] = {
    NUM("a", sw_glm_params, a, 1.0, FINITE),
    NUM("d0", sw_glm_params, d0, 1.0, POS),
    ANGLE("delta", sw_glm_params, delta, 0.8, NONNEG),
    NUM("margin", sw_glm_params, margin, -1.0, FINITE),
    NUM("r-floor", sw_glm_params, r_floor, 1e-3, POS),
    NUM("wall-near", sw_glm_params, wall_near, 1.0, POS),
    NUM("a1-scale", sw_glm_params, a1_scale, 0.4, NONNEG),
    NUM("g21", sw_glm_params, g21, 0.05, NONNEG),
    NUM("c1", sw_glm_params, c1, 2.0, NONNEG),
    NUM("c2", sw_glm_params, c2, 2.0, NONNEG),
    CHOICE("weights", sw_glm_params, weights, SW_WEIGHTS_RELAX, weights_names),
    NUM("eps", sw_glm_params, eps, 0.05, POS),
    NUM("w-floor", sw_glm_params, w_floor, 1e-3, POS),
    NUM("w-restart", sw_glm_params, w_restart, 1e-2, POS),
    CHOICE("speed", sw_glm_params, speed, SW_SPEED_T2C, speed_names),
    NUM("v-max", sw_glm_params, v_max, 1.0, NONNEG),
    NUM("d1", sw_glm_params, d1, 0.5, FINITE),
    NUM("t2c", sw_glm_params, t2c, 1.0, POS),
    BOOL("arrive", sw_glm_params, arrive, 0),
    NUM("sigma", sw_glm_params, sigma_phi, 0.02, NONNEG),
    NUM("cohesion", sw_glm_params, cohesion, 0.0, NONNEG),
    NUM("alignment", sw_glm_params, alignment, 0.0, NONNEG),
};

static const sw__law_param fw_params[] = {
    NUM("b", sw_fw_params, b, 3.25, NONNEG),   NUM("kg", sw_fw_params, kg, 7.50, NONNEG),
    NUM("c1", sw_fw_params, c1, 0.40, NONNEG), NUM("c2", sw_fw_params, c2, 0.40, NONNEG),
    NUM("ko", sw_fw_params, ko, 198.0, NONNEG), NUM("c3", sw_fw_params, c3, 6.5, NONNEG),
    NUM("c4", sw_fw_params, c4, 0.8, NONNEG),  NUM("speed", sw_fw_params, speed, 1.0, NONNEG),
};

static const sw__law_param pf_params[] = {
    NUM("kp", sw_pf_params, kp, 1.0, NONNEG),
    NUM("eta", sw_pf_params, eta, 1.0, NONNEG),
    NUM("rho0", sw_pf_params, rho0, 1.0, POS),
    NUM("r-floor", sw_pf_params, r_floor, 1e-3, POS),
    NUM("speed", sw_pf_params, speed, 0.5, NONNEG),
};

/* side: "right" (+1) or "left" (-1), read by io/attrs.c itself. */
static const sw__law_param wall_params[] = {
    NUM("a", sw_wall_params, a, 2.0, NONNEG),
    {"side", SW__P_SIDE, offsetof(sw_wall_params, side), 1, SW__CK_SIDE, NULL},
    NUM("distance", sw_wall_params, distance, 0.6, NONNEG),
    NUM("gain", sw_wall_params, gain, 1.5, NONNEG),
    NUM("speed", sw_wall_params, speed, 0.8, NONNEG),
};

static const sw__law_param ttc_params[] = {
    NUM("k", sw_ttc_params, k, 1.5, POS),
    NUM("tau0", sw_ttc_params, tau0, 3.0, POS),
    NUM("xi", sw_ttc_params, xi, 0.54, POS),
    NUM("v-pref", sw_ttc_params, v_pref, 1.3, SPEED),
    NUM("range", sw_ttc_params, range, 10.0, POS),
    NUM("f-max", sw_ttc_params, f_max, 20.0, POS),
    NUM("v-min", sw_ttc_params, v_min, 0.1, POS),
    ANGLE("bias", sw_ttc_params, bias, 0.0, PI),
    NUM("t-arrive", sw_ttc_params, t_arrive, 0.0, NONNEG),
    NUM("t-contact", sw_ttc_params, t_contact, 0.1, NONNEG),
};

static const sw__law_param sf_params[] = {
    NUM("tau", sw_sf_params, tau, 0.5, POS),       NUM("v0", sw_sf_params, v0, 1.34, SPEED),
    NUM("a", sw_sf_params, a, 2000.0, POS),        NUM("b", sw_sf_params, b, 0.08, POS),
    NUM("k", sw_sf_params, k, 1.2e5, POS),         NUM("kappa", sw_sf_params, kappa, 2.4e5, POS),
    NUM("mass", sw_sf_params, mass, 80.0, POS),    NUM("lambda", sw_sf_params, lambda, 1.0, UNIT),
    NUM("range", sw_sf_params, range, 3.0, POS),   NUM("v-min", sw_sf_params, v_min, 0.01, POS),
};

static const sw__law_param csm_params[] = {
    NUM("v0", sw_csm_params, v0, 1.34, SPEED),
    NUM("time-gap", sw_csm_params, time_gap, 1.0, POS),
    NUM("a", sw_csm_params, a, 5.0, NONNEG),
    NUM("d", sw_csm_params, d, 0.1, POS),
    NUM("a-wall", sw_csm_params, a_wall, 5.0, NONNEG),
    NUM("d-wall", sw_csm_params, d_wall, 0.02, POS),
    NUM("range", sw_csm_params, range, 2.0, POS),
    NUM("t-arrive", sw_csm_params, t_arrive, 0.0, NONNEG),
    NUM("t-contact", sw_csm_params, t_contact, 0.1, NONNEG),
};

/* Courage's effect on GLM's parameters: here, beside the laws' table, so that the table and
 * its personality hooks need nothing from the laws' code (scripts/law_schema.c links this
 * file alone: a hook or check a row points to must live in this file too). */
sw_glm_params sw_glm_with_personality(const sw_glm_params *p, const sw_personality *pers)
{
	sw_glm_params q = *p;
	if (!pers || !pers->has_courage)
		return q;
	/* Section 1.4: d0(co) = exp(k0 (1 - co)) - 1 with k0 = ln(d0_base + 1), so that co = 0
	 * gives d0_base and co = 1 gives 0 (floored); d1 from the same d0_base.  The trait is
	 * clamped to [0, 1]. */
	double co = sw__unit(pers->courage);
	double base = p->d0;
	double k0 = log1p(base);
	q.d0 = fmax(expm1(k0 * (1.0 - co)), pers->d0_floor);
	q.d1 = co < 0.5 ? base : 2.0 * base * (1.0 - co);
	return q;
}

static void glm_personalize(sw_steer_def *d, const sw_personality *pers)
{
	d->glm = sw_glm_with_personality(&d->glm, pers);
}

/* The laws' descriptors: what the code outside src/steer needs to know of each law (the flags
 * of steer_internal.h; tests/test_laws.c checks the rows against each other and against the
 * laws' code).  Speed caps: GLM's speed relaxes towards [-v_max, v_max]; fw, potential and wall
 * move at their speed; csm's |x'| = V(s) <= v0 (walls only cut); ttc and sf have none
 * (interaction forces push), their preferred speed stands in. */
/* The parameter struct T, its member of sw_steer_def and its rows; a parameter's offset in
 * sw_steer_def. */
#define PARAMS(T, member, rows)                                                                    \
	.size = sizeof(T), .def_off = offsetof(sw_steer_def, member), .p = rows,                   \
	.n = (int)(sizeof rows / sizeof *rows)
#define AT(f) offsetof(sw_steer_def, f)
#define EXPORTS (SW__LAW_EMIT | SW__LAW_EXPORT_BOUNDED)
#define CROWD (SW__LAW_CROWD | SW__LAW_SWITCHES | SW__LAW_EMIT)

const sw__law_table sw__laws[SW__N_LAWS] = {
    [SW_LAW_GLM] = {.element = "glm", .law = SW_LAW_GLM, .title = "Goldenstein-Large-Metaxas law",
		    PARAMS(sw_glm_params, glm, glm_params),
		    .flags = EXPORTS | SW__LAW_MASS_LAG | SW__LAW_SPEED_CAPPED | SW__LAW_3D |
			     SW__LAW_EXPORT_BEARINGS,
		    .speed_off = AT(glm.v_max), .noise_off = AT(glm.sigma_phi),
		    .align_off = AT(glm.alignment), .personalize = glm_personalize},
    [SW_LAW_FW] = {.element = "fw", .law = SW_LAW_FW, .title = "Fajen-Warren law",
		   PARAMS(sw_fw_params, fw, fw_params),
		   .flags = EXPORTS | SW__LAW_SPEED_CAPPED | SW__LAW_EXPORT_BEARINGS,
		   .speed_off = AT(fw.speed)},
    [SW_LAW_PF] = {.element = "potential", .law = SW_LAW_PF, .title = "potential field",
		   PARAMS(sw_pf_params, pf, pf_params),
		   .flags = EXPORTS | SW__LAW_ALGEBRAIC_VELOCITY | SW__LAW_SPEED_CAPPED,
		   .speed_off = AT(pf.speed)},
    [SW_LAW_WALL] = {.element = "wall", .law = SW_LAW_WALL, .title = "wall-following law",
		     PARAMS(sw_wall_params, wall, wall_params),
		     .flags = EXPORTS | SW__LAW_SPEED_CAPPED | SW__LAW_NO_FIELD,
		     .speed_off = AT(wall.speed)},
    [SW_LAW_TTC] = {.element = "ttc", .law = SW_LAW_TTC, .title = "time-to-collision law",
		    PARAMS(sw_ttc_params, ttc, ttc_params),
		    .flags = CROWD | SW__LAW_READS_VELOCITIES, .speed_off = AT(ttc.v_pref)},
    [SW_LAW_SF] = {.element = "sf", .law = SW_LAW_SF, .title = "social force law",
		   PARAMS(sw_sf_params, sf, sf_params),
		   .flags = CROWD | SW__LAW_READS_VELOCITIES, .speed_off = AT(sf.v0)},
    [SW_LAW_CSM] = {.element = "csm", .law = SW_LAW_CSM, .title = "collision-free speed model",
		    PARAMS(sw_csm_params, csm, csm_params),
		    .flags = CROWD | SW__LAW_ALGEBRAIC_VELOCITY | SW__LAW_SPEED_CAPPED,
		    .speed_off = AT(csm.v0)},
};
#undef PARAMS
#undef AT
#undef EXPORTS
#undef CROWD

void sw__law_personalize(sw_steer_def *def, const sw_personality *pers)
{
	const sw__law_table *t = sw__law_table_of(def->law);
	if (t && t->personalize)
		t->personalize(def, pers);
}

double sw__law_speed_bound(const sw_steer_def *def, double ends)
{
	const sw__law_table *t = sw__law_table_of(def->law);
	if (!t || !t->speed_off)
		return INFINITY;
	double s = sw__fmax(ends, fabs(sw__law_at(def, t->speed_off)));
	return t->flags & SW__LAW_SPEED_CAPPED ? s : 2.0 * s;
}

const sw__law_table *sw__law_table_of(sw_law law)
{
	return (unsigned)law < SW__N_LAWS ? &sw__laws[law] : NULL;
}

const sw__law_table *sw__law_table_named(const char *element)
{
	for (int k = 0; element && k < SW__N_LAWS; k++)
		if (strcmp(sw__laws[k].element, element) == 0)
			return &sw__laws[k];
	return NULL;
}

double sw__law_param_get(const sw__law_param *p, const void *params)
{
	const char *at = (const char *)params + p->off;
	if (p->type == SW__P_NUM || p->type == SW__P_ANGLE)
		return *(const double *)(const void *)at;
	return *(const int *)(const void *)at;
}

/* The defaults of law into *params (a zeroed struct first: padding included, so that the
 * defaults compare equal byte for byte). */
static void fill_defaults(sw_law law, void *params)
{
	const sw__law_table *t = &sw__laws[law];
	memset(params, 0, t->size);
	for (int k = 0; k < t->n; k++) {
		char *at = (char *)params + t->p[k].off;
		if (t->p[k].type == SW__P_NUM || t->p[k].type == SW__P_ANGLE)
			*(double *)(void *)at = t->p[k].def;
		else
			*(int *)(void *)at = (int)t->p[k].def;
	}
}

/* The public sw_default_*_params() of each law, from its table. */
#define DEFAULTS(T, fn, law)                                                                       \
	T fn(void)                                                                                 \
	{                                                                                          \
		T p;                                                                               \
		fill_defaults(law, &p);                                                            \
		return p;                                                                          \
	}
DEFAULTS(sw_glm_params, sw_default_glm_params, SW_LAW_GLM)
DEFAULTS(sw_fw_params, sw_default_fw_params, SW_LAW_FW)
DEFAULTS(sw_pf_params, sw_default_pf_params, SW_LAW_PF)
DEFAULTS(sw_wall_params, sw_default_wall_params, SW_LAW_WALL)
DEFAULTS(sw_ttc_params, sw_default_ttc_params, SW_LAW_TTC)
DEFAULTS(sw_sf_params, sw_default_sf_params, SW_LAW_SF)
DEFAULTS(sw_csm_params, sw_default_csm_params, SW_LAW_CSM)

const char *sw_law_name(sw_law law)
{
	return (unsigned)law < SW__N_LAWS ? sw__laws[law].element : "unknown";
}

int sw_steer_def_equal(const sw_steer_def *p, const sw_steer_def *q)
{
	if (p->law != q->law || strcmp(p->field, q->field) != 0 || p->lookahead != q->lookahead ||
	    p->avoid_corners != q->avoid_corners)
		return 0;
	const sw__law_table *t = sw__law_table_of(p->law);
	if (!t)
		return 1; /* an unknown law: nothing more to compare */
	/* Parameter by parameter, not memcmp: padding bytes are not part of the value. */
	const char *x = (const char *)p + t->def_off, *y = (const char *)q + t->def_off;
	for (int k = 0; k < t->n; k++)
		if (sw__law_param_get(&t->p[k], x) != sw__law_param_get(&t->p[k], y))
			return 0;
	return 1;
}
