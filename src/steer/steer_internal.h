/* steer/steer_internal.h - helpers shared by the steering-law sources (not part of the API). */
#ifndef SWERVE_STEER_INTERNAL_H
#define SWERVE_STEER_INTERNAL_H

#include "core/core_internal.h"
#include "swerve/core.h"
#include "swerve/steer.h"

/* GLM constants, one copy for the scalar (glm.c), vector and batch (glm_simd.c) loops and the
 * emitter (emit.c).  Smallest sin(dpsi): keeps dpsi > 0 for a point agent facing a point
 * obstacle without margin (docs/models.md section 1.1, the dpsi decision in glm.c). */
#define SW_GLM_Q_MIN 1e-6
/* Window argument above which W = 1 / (1 + exp(-2 x)) rounds to 1 (exp(-38) < 2^-53); there the
 * dropped derivative 2 h1 exp(-2 x) |sin e| is below 1e-16 h1 and the exp call is saved. */
#define SW_GLM_W_SAT 19.0

/* Wall following (sw_wall_params): the correction gain (clearance - distance) is clamped to
 * [-SW_WALL_CORR_MAX, SW_WALL_CORR_MAX] rad, so the heading stays within pi/4 of the wall's
 * tangent; one copy for the law (wall.c) and its emitted expression (emit.c). */
#define SW_WALL_CORR_MAX (SW_PI / 4)

/* The commanded GLM forward speed at heading phi: eq. (12) (or v_max), with the arrival cap of
 * section 1.3 when p->arrive is set.  sw_glm_eval() reports the same value in v_cmd. */
double sw__glm_speed(const sw_glm_params *p, const sw_situation *s, double phi);

/* The per-obstacle part of one GLM evaluation (eqs. (3)-(7) summed, and the closest clearance in
 * front for eq. (12)) at the heading with sine sphi and cosine cphi. */
typedef struct sw__glm_obs_sums {
	double f_obs, df_obs; /* eq. (3) summed, and its derivative in phi */
	double sum_d, sum_w;  /* sum_i D_i (7) and sum_i W_i (5) */
	double r_min;         /* smallest clearance with |e_i| < pi/2 (valid when found) */
	int found;            /* 1 when some obstacle is in front */
} sw__glm_obs_sums;

/** cos(delta) and sin(delta) of the window margin (5) into cs[0], cs[1]: libm's values, kept per
 * thread for the last delta (a crowd evaluates the same delta for every agent and step). */
void sw__glm_delta_cs(double delta, double cs[2]);

/* The scalar reference loop of sw_glm_eval() (glm.c): one obstacle at a time with libm. */
void sw__glm_obstacles_scalar(const sw_glm_params *p, const sw_situation *s, double sphi,
			      double cphi, sw__glm_obs_sums *out);

/* The vectorised loop (glm_simd.c): 4 obstacles at a time with SLEEF's AVX2 functions, or 8 with
 * its AVX-512 ones where the CPU has them (the same bits).  Returns 1 and fills *out when the
 * fast path ran; returns 0 (leaving *out untouched) when the library was built without
 * SW_HAVE_SLEEF or the CPU lacks AVX2 and FMA.  Agrees with the scalar reference to rounding
 * (tests/test_steer_simd.c states the bound). */
int sw__glm_obstacles_simd(const sw_glm_params *p, const sw_situation *s, double sphi,
			   double cphi, sw__glm_obs_sums *out);

/* Agents whose vectorised loops run together (sw__glm_obstacles_simd_batch() cuts longer
 * batches into runs of this many). */
#define SW_GLM_BATCH 16

/* sw__glm_obstacles_simd() for the agents s[0..n) (each with its parameters, heading sine and
 * cosine) into out[0..n): the same bits as n single calls, but the vectorised stages of several
 * agents overlap.  Returns 0 (out untouched) where the fast path is missing. */
int sw__glm_obstacles_simd_batch(int n, const sw_glm_params *const p[],
				 const sw_situation *const s[], const double sphi[],
				 const double cphi[], sw__glm_obs_sums out[]);

/* Forces the vector width of the loop (4: AVX2, 8: AVX-512; 0: the widest the CPU runs, the
 * default) for tests that compare the widths; returns 0, changing nothing, when the CPU or the
 * build lacks that width.  Not thread-safe: call it before stepping. */
int sw__glm_simd_force(int width);

/* sw__glm_obstacles_simd() that also stores each percept's term f_i of eq. (3) in each[i] (for the
 * 3-D law, which turns each term about its own axis). */
int sw__glm_obstacles_simd_each(const sw_glm_params *p, const sw_situation *s, double sphi,
				double cphi, sw__glm_obs_sums *out, double *each);

/* sw__hard_walls when s has percepts and t_contact > 0 (ttc.c). */
void sw__hard_walls_some(double t_contact, double range, const sw_situation *s, const double u[2],
			 double out[2]);

/* Hard walls (<ttc>, <csm>): u less, for each static obstacle percept within range (in two passes,
 * for corners), the part of its component towards the obstacle beyond max(clearance, 0) /
 * t_contact, into out (which may not alias u); out = u when t_contact <= 0.  Inline, the test
 * apart: a crowd's sensing passes only the obstacles' percepts, usually none (the call's
 * entry cost it about 30 instructions an agent and step). */
static inline void sw__hard_walls(double t_contact, double range, const sw_situation *s,
				  const double u[2], double out[2])
{
	if (t_contact > 0.0 && s->n_obs > 0) {
		sw__hard_walls_some(t_contact, range, s, u, out);
		return;
	}
	out[0] = u[0];
	out[1] = u[1];
}

/* sw_sf_accel() for a situation from the simulator's perception, whose percepts' dist is
 * sqrt(dx dx + dy dy): taken from the percept rather than computed again (the same bits). */
void sw__sf_accel_perceived(const sw_sf_params *p, const sw_situation *s, double v,
			    const double e[2], double acc[2]);

/* A crowd law's (ttc, sf, csm) sensing of a moving agent, as the simulator does it at a step's
 * end: its algebraic outputs written into y (sw_steer_algebraic) and the flow sw_steer_rhs then
 * gives at y, as (dx, dy, dphi, dv) into flow, with the same bits as those two calls but each
 * quantity computed once, for a situation as perception makes it: each percept's dist is
 * sqrt(dx dx + dy dy) (SF reads it instead of computing it), and the percepts that may be static
 * obstacles (id >= 0) are the first n_prim (or pass s->n_obs), agents after them (the hard walls
 * read only those).  he: the heading's cosine and sine (sw_steer_velocity(1, phi)) when the
 * caller has them, else NULL.  SW_SUCCESS, SW_ENUMERIC when the flow is not finite (y is written
 * still), SW_EUSAGE for another law. */
int sw__crowd_sense(const sw_steer_def *def, const sw_situation *s, int n_prim, const double *he,
		    double y[SW_STATE_DIM], double flow[4]);

/* --- parameter tables (params.c) ---------------------------------------------------------- */

/* Number of laws (sw_law values 0 .. SW__N_LAWS - 1). */
#define SW__N_LAWS 7

/* How a parameter is stored and written: NUM, ANGLE ("deg"/"rad" suffix allowed) a double;
 * BOOL, CHOICE (index into the names), SIDE (wall side, +1 right or -1 left) an int. */
typedef enum { SW__P_NUM, SW__P_ANGLE, SW__P_BOOL, SW__P_CHOICE, SW__P_SIDE } sw__param_type;

/* The values the model accepts (model/model.c sw__check_steer): any, finite, > 0, >= 0, in
 * [0, 1], a speed (>= 0 and at most SW__SPEED_MAX), an angle in [-pi, pi], one of the choices,
 * +1 or -1. */
typedef enum {
	SW__CK_NONE,
	SW__CK_FINITE,
	SW__CK_POS,
	SW__CK_NONNEG,
	SW__CK_UNIT,
	SW__CK_SPEED,
	SW__CK_PI,
	SW__CK_CHOICE,
	SW__CK_SIDE
} sw__param_check;

/* Speeds above this are refused as input mistakes (m/s; the fastest sprinters run about 12). */
#define SW__SPEED_MAX 15.0

/* One parameter of a law. */
typedef struct sw__law_param {
	const char *name;           /* attribute of the law's element */
	sw__param_type type;
	size_t off;                 /* offset in the law's parameter struct */
	double def;                 /* default */
	sw__param_check check;
	const char *const *choices; /* CHOICE: the names of 0, 1, ... (NULL-terminated) */
} sw__law_param;

/* What a law is, as the code outside src/steer needs to know it (sw__law_table.flags). */
enum {
	/* A crowd law (emit_crowd.c, sw__crowd_sense): the simulator keeps its sensed flow for
	 * explicit Euler (sim: fast_crowd); the export counts its agent-percept terms, thousands of
	 * expression nodes each. */
	SW__LAW_CROWD = 1u << 0,
	/* Its flow switches (hard walls, perception cut-offs, capped forces): the model advises
	 * Euler instead of an adaptive stepper (model/advice.c). */
	SW__LAW_SWITCHES = 1u << 1,
	/* Reads the other agents' velocities (sw_situation.vel), which are its own state (v e(phi)):
	 * the world keeps the velocity snapshot; the export makes other agents' heading and speed
	 * state, and a crowd law keeps its heading's cosine and sine for its sensing. */
	SW__LAW_READS_VELOCITIES = 1u << 2,
	/* Speed and heading are algebraic outputs of its sensing (sw_steer_algebraic), not
	 * integrated. */
	SW__LAW_ALGEBRAIC_VELOCITY = 1u << 3,
	/* Its speed is algebraic unless the agent's mass trait lags it (sw_personality.has_mass). */
	SW__LAW_MASS_LAG = 1u << 4,
	/* Never faster than its speed parameter (speed_off) at both ends of a step; without the
	 * flag forces may push past it (sw__law_speed_bound). */
	SW__LAW_SPEED_CAPPED = 1u << 5,
	/* Has a 3-D form (glm3.c): a 3-D scenario accepts it. */
	SW__LAW_3D = 1u << 6,
	/* Has a symbolic emitter (sw_steer_emit): exported, in the exact profile at least. */
	SW__LAW_EMIT = 1u << 7,
	/* The flows of it that depend on the scene have a sound interval over-approximation
	 * (export/flows.c): exported in every profile. */
	SW__LAW_EXPORT_BOUNDED = 1u << 8,
	/* Its flows' bearings may be lifted into the state (export/bearing.c). */
	SW__LAW_EXPORT_BEARINGS = 1u << 9,
	/* Takes no field= (lookahead=, corners=): it follows walls, not a target. */
	SW__LAW_NO_FIELD = 1u << 10,
};

/* The descriptor of one law: its element and name, its parameter table (rows in the order the
 * reader lists them), what it is (flags) and where its speed cap, heading noise and alignment
 * gain live.  A new law is a row of sw__laws (params.c) and its code in this folder. */
typedef struct sw__law_table {
	const char *element; /* "glm", "fw", "potential", "wall", "ttc", "sf", "csm" */
	sw_law law;
	size_t size;         /* sizeof the parameter struct */
	size_t def_off;      /* offset of the parameter struct in sw_steer_def */
	const sw__law_param *p;
	int n;
	const char *title;   /* its name in a sentence: "social force law" */
	unsigned flags;      /* SW__LAW_* */
	/* Offsets in sw_steer_def of double parameters, 0 for none: the speed the law moves at
	 * (at most, with SW__LAW_SPEED_CAPPED); the heading noise's standard deviation
	 * (rad / sqrt(s), drawn when > 0); the alignment gain (the other agents' headings are read
	 * when it is not 0). */
	size_t speed_off, noise_off, align_off;
	/* A personality's effect on the parameters (applied once per agent), or NULL for none. */
	void (*personalize)(sw_steer_def *def, const sw_personality *pers);
} sw__law_table;

/* The descriptors, indexed by sw_law (params.c). */
extern const sw__law_table sw__laws[SW__N_LAWS];

/* The table of a law, or of the law element named element; NULL for others. */
const sw__law_table *sw__law_table_of(sw_law law);
const sw__law_table *sw__law_table_named(const char *element);

/* The flags of law (SW__LAW_*); 0 for a value that is no law. */
static inline unsigned sw__law_flags(sw_law law)
{
	return (unsigned)law < SW__N_LAWS ? sw__laws[law].flags : 0u;
}

/* The double parameter at offset off of def (off from a descriptor: speed_off, ...). */
static inline double sw__law_at(const sw_steer_def *def, size_t off)
{
	return *(const double *)(const void *)((const char *)def + off);
}

/* The standard deviation of def's heading noise (rad / sqrt(s)); 0 when it draws none. */
static inline double sw__law_noise(const sw_steer_def *def)
{
	size_t off = (unsigned)def->law < SW__N_LAWS ? sw__laws[def->law].noise_off : 0;
	return off ? sw__law_at(def, off) : 0.0;
}

/* Whether def reads the other agents' headings (its alignment gain is not 0). */
static inline int sw__law_reads_headings(const sw_steer_def *def)
{
	size_t off = (unsigned)def->law < SW__N_LAWS ? sw__laws[def->law].align_off : 0;
	return off && sw__law_at(def, off) != 0.0;
}

/* def with the personality's effect on its law's parameters (pers may be NULL). */
void sw__law_personalize(sw_steer_def *def, const sw_personality *pers);

/* The largest speed an agent of def may reach in a step whose ends have speeds of magnitude at
 * most ends (m/s): the law's speed cap, or (SW__LAW_SPEED_CAPPED unset) twice the larger of
 * ends and its preferred speed, which no tested scene has exceeded within a step. */
double sw__law_speed_bound(const sw_steer_def *def, double ends);

/* The value of parameter p in a law's parameter struct (an int parameter as a double). */
double sw__law_param_get(const sw__law_param *p, const void *params);

/* x clamped to [0, 1]; NaN maps to 0. */
static inline double sw__unit(double x)
{
	return x > 1.0 ? 1.0 : (x > 0.0 ? x : 0.0);
}

#endif
