/* export/export_internal.h - shared by the files of the export module. */
#ifndef SWERVE_EXPORT_INTERNAL_H
#define SWERVE_EXPORT_INTERNAL_H

#include "model/automaton_impl.h"
#include "steer/steer_internal.h"
#include "swerve/export.h"
#include "swerve/sim.h"

/* ---- tree helpers (rewrite.c) ------------------------------------------------------------ */

/* Short constructors; every one takes ownership of its operands and returns NULL on failure
 * (a NULL operand propagates). */
sw_expr_ast *xn_num(double v);
sw_expr_ast *xn_var(const sw_hcomponent *c, int k);
sw_expr_ast *xn_op(sw_expr_op op, sw_expr_ast *a, sw_expr_ast *b);
sw_expr_ast *xn_call(sw_expr_op op, sw_expr_ast *a);
/* (a - b)^2 */
sw_expr_ast *xn_sq_diff(sw_expr_ast *a, sw_expr_ast *b);
/* p + v * t, or p alone when v == 0 or t is NULL (t is consumed). */
sw_expr_ast *xn_moving(double p, double v, sw_expr_ast *t);
/* Conjunction of a and b where either may be NULL (true). */
sw_expr_ast *xn_and(sw_expr_ast *a, sw_expr_ast *b);

/* Rewrites a (not consumed) into the function set of profile p: exact rewrites (tanh, abs,
 * sinh, cosh, tan for HyST, x^0.5) are applied; returns NULL when something remains that the
 * profile lacks (*why receives the first offending function's name). */
sw_expr_ast *xr_profile(const sw_expr_ast *a, sw_export_profile p, const char **why);

/* Makes an atom (relation) tool-friendly in place: closure of strict relations for profiles other
 * than exact, and sqrt(A) op c -> A op c^2 for c >= 0.  Consumes a, returns the new atom. */
sw_expr_ast *xr_atom_finish(sw_expr_ast *a, sw_export_profile p);

/* Returns the closure of the negation of an inequality atom (a < b -> a >= b ...), a new tree,
 * or NULL when a is not an inequality. */
sw_expr_ast *xr_negate_closed(const sw_expr_ast *a);

/* A guard in disjunctive normal form: disjuncts, each a list of atoms. */
typedef struct xr_conj {
	int n, cap;
	sw_expr_ast **atom;
	int weakened; /* an atom without closed form was replaced by true */
} xr_conj;

typedef struct xr_dnf {
	int n, cap;
	xr_conj *d;
	int overflow; /* too many disjuncts: collapsed to one weakened `true` */
} xr_dnf;

void xr_dnf_free(xr_dnf *f);

/* ---- translation of automaton expressions (build.c provides the context) --------------- */

struct xb;

/* Translation context of one agent or signal component. */
typedef struct xl_ctx {
	struct xb *b;              /* builder */
	sw_hcomponent *comp;       /* component under construction */
	const sw_model *m;
	const struct sw_automaton *a; /* NULL for plain-law agents */
	int agent;                 /* agent index, -1 for signals */
	int signal;                /* signal index, -1 for agents */
	char where[256];           /* for approximation notes */
	char why[SW_DIAG_MSG];     /* last reason a translation failed */
} xl_ctx;

/* Translates a real automaton expression into component variables (host functions replaced by
 * closed forms, parameters and labels folded in).  Returns NULL with c->why set when some part has
 * no closed form. */
sw_expr_ast *xl_real(xl_ctx *c, const sw_expr_ast *a);

/* Translates a boolean automaton expression into DNF over profile atoms; atoms without closed
 * form become true (the conjunction is marked weakened and a note is recorded). */
int xl_dnf(xl_ctx *c, const sw_expr_ast *a, int neg, xr_dnf *out);

/* Builder services used by the translation (build.c). */
int xb_read_var(xl_ctx *c, const char *name, const char *net, const char *meaning);
int xb_time_var(xl_ctx *c);
int xb_other_agent_var(xl_ctx *c, int j, int coord);
/* report.txt: the simulator's fixed-step integration error against the exported ODE (twin.c). */
void xb_integration_note(struct xb *b);
void xb_note(struct xb *b, const char *where, int sound, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;
sw_export_profile xb_profile(const struct xb *b);
int xb_max_disjuncts(const struct xb *b);

/* ---- the builder (build.c, invariants.c, flows.c) ------------------------------------- */

/* A region of exact GLM flows (lift.c): agent's flows are exact where the distance d (a tree over
 * the agent's x, y) to disc primitive prim is at least R; N = radius + r_a + margin. */
typedef struct xb_zone_t {
	int agent, prim;
	sw_expr_ast *d;
	double N, R;
} xb_zone_t;

/* Bound of an input in one location. */
typedef struct {
	int loc, var;
	double lo, hi;
} xb_bound;

struct xb {
	const sw_model *m;
	sw_export_def def;
	sw_hybrid *h;
	sw_diag *diag;
	sw_world *w;
	int status;
	int scene_moves, need_t;
	int cap_comp, cap_inst, cap_netvar, cap_netlabel, cap_forb, cap_approx;
	char (*unit_name)[SW_NAME_MAX]; /* instance names: agents, then signals */
	/* component under construction */
	char (*map)[2 * SW_NAME_MAX];   /* per variable: network name ("" for inputs) */
	int cap_map;
	xb_bound *bounds;
	int n_bounds, cap_bounds;
	xr_conj *inv;                   /* per location: invariant atoms */
	int bearings;                   /* flows of the component keep atan2 for bearing.c */
	xb_zone_t *zones;               /* GLM regions (lift.c); network.c widens unsafe sets */
	int n_zones, cap_zones;
};

extern const char *const xb_state_names[SW_STATE_DIM];
extern const char *const xb_state_meaning[SW_STATE_DIM];
int xb_add_var(struct xb *b, sw_hcomponent *c, const char *name, sw_hvar_role role,
	       const char *meaning, const char *net);
int xb_input_var(struct xb *b, sw_hcomponent *c, int loc, const char *name, double lo, double hi,
		 const char *meaning);
int xb_inv_add(struct xb *b, int loc, sw_expr_ast *atom);
int xb_refuse(struct xb *b, int line, const char *fmt, const char *a1, const char *a2);
/* Fills flow[0..6] of location loc with the law's flows for the agent of c steering to tgt
 * (>= 0: a target index; -2 - j: agent j; -1: none), over-approximated where needed. */
int xb_law_flows(struct xb *b, xl_ctx *c, int loc, const sw_steer_def *def, int tgt,
		 sw_expr_ast *flow[SW_STATE_DIM]);

/* Profile in which flows are built: exact under the linear abstraction (every flow is then
 * bounded by intervals, whatever functions it uses), else the export's profile. */
sw_export_profile xb_flow_profile(const struct xb *b);
/* Linear abstraction of component comp of unit u (agent or n_agents + signal), before the
 * invariants are finished: every non-constant flow becomes a bounded rate input (flows.c). */
int xb_linearize(struct xb *b, sw_hcomponent *comp, int u);

/* Rewrites the guard atoms of comp that are not polynomial into polynomial form where one exists
 * (comparisons of distances: squared; a disjunction becomes extra transitions), in the hyst
 * profile replaces the others by true; each step is reported (guards.c).  Profiles other than
 * exact only. */
int xb_polynomial_guards(struct xb *b, sw_hcomponent *comp, const char *unit);

/* Interval of lifted state variable k of c (vars[k].lifted) when its state variables lie in
 * [slo[j], shi[j]] and t = 0 (map: network names, "t" for the time).  Returns SW_SUCCESS,
 * SW_EINPUT when the interval is not finite, or SW_ENOMEM (invariants.c). */
int xb_lifted_initial(const sw_hcomponent *c, const char (*map)[2 * SW_NAME_MAX], int k,
		      const double *slo, const double *shi, double *lo, double *hi);

/* Pieces of the component builder other passes use: a transition with guard atoms q and resets
 * (both cloned); identity resets with time_in_mode := 0 (caller frees with xb_free_resets)
 * (build.c); the time derivative of f along the flows of location l, in the flow profile (NULL
 * with *why when it has none); and a lifted state variable g == f (f and flows[l] consumed)
 * appended to the state of c, returning its index or -1 (invariants.c). */
int xb_add_transition(struct xb *b, sw_hcomponent *c, int from, int to, const char *label,
		      const xr_conj *q, sw_expr_ast **reset, int origin);
sw_expr_ast **xb_identity_resets(const sw_hcomponent *c);
void xb_free_resets(sw_expr_ast **r, int n);
sw_expr_ast *xb_lie_derivative(struct xb *b, const sw_hcomponent *c, int l, const sw_expr_ast *f,
			       const char **why);
int xb_add_lifted(struct xb *b, sw_hcomponent *c, int u, sw_expr_ast *f, sw_expr_ast **flows,
		  const char *text);

/* Bearings as state (bearing.c): in the hyst and juliareach profiles, FW flows whose only
 * obstacles to the profile are atan2 (the wrapped bearing of the goal and of each obstacle),
 * abs of them and perception cut-offs decided over the reachable region are kept exact.
 * xb_bearing_flow() checks and prepares one such flow in location loc (returns the tree to keep,
 * with atan2 still in it, or NULL when the flow cannot be kept so); xb_lift_bearings() then makes
 * every atan2 of component c a lifted state variable with rational flow, wrapped into
 * [-pi, pi] by self-loop jumps as the simulator wraps it, and rewrites the flows into the
 * profile. */
sw_expr_ast *xb_bearing_flow(struct xb *b, xl_ctx *c, int loc, const sw_steer_def *def,
			     const sw_expr_ast *flow);
int xb_lift_bearings(struct xb *b, sw_hcomponent *c, int u, const char *unit);

/* Deciding branches over a region (lift.c).  A box over the n variables of a component, with
 * facts: subtrees known to lie in [lo, hi] over the region. */
typedef struct xf_fact {
	sw_expr_ast *expr;
	double lo, hi;
} xf_fact;

typedef struct xf_box {
	int n;
	double *lo, *hi;
	xf_fact *fact;
	int n_facts;
} xf_box;

/* Decides boolean cond over the box (bisecting): 1, 0, or -1 undecided. */
int xf_decide_cond(const sw_expr_ast *cond, const xf_box *bx);
/* Interval of a over the box with its facts (sw_expr_interval's status). */
int xf_interval(const sw_expr_ast *a, const xf_box *bx, double *lo, double *hi);
/* Replaces in *pa every if, min, max, sign and abs that the box decides by the branch taken,
 * counting them in *decided; SW_ENOMEM or SW_SUCCESS. */
int xf_decide(sw_expr_ast **pa, const xf_box *bx, int *decided);
void xf_box_free(xf_box *bx);
/* GLM flow *pt of location loc made exact over its region (lift.c, header): unit bearings,
 * regions of the discs (facts, zones), decisions, the competition input.  slo, shi: the start
 * box of the state.  Returns the number of decisions, or -1 when the flow cannot be kept. */
int xf_glm_flow(struct xb *b, xl_ctx *c, int loc, const sw_steer_def *def, sw_expr_ast **pt,
		xf_box *bx, const double *slo, const double *shi);
/* Records the region d >= R of agent's exact flows near disc prim (once per pair). */
int xb_zone(struct xb *b, int agent, int prim, const sw_expr_ast *d, double N, double R);

/* Unique instance names of agents and signals into b->unit_name (build.c). */
int xb_unit_names(struct xb *b);
/* Builds the component of unit u (agent, or n_agents + signal index) into comp (build.c). */
int xb_component(struct xb *b, int u, sw_hcomponent *comp);
/* Freezes w_tar and w_obs of agent component c (unit u) when only their own flows read them,
 * outside the exact profile, dropping the weights' notes from approximation note `mark` on
 * (invariants.c). */
void xb_freeze_weights(struct xb *b, sw_hcomponent *c, int u, int mark);
/* Makes every collected invariant atom of c simple, lifting or dropping the others (HyST and
 * JuliaReach profiles; unit names the unit in reports; invariants.c). */
void xb_simple_invariants(struct xb *b, sw_hcomponent *c, int u, const char *unit);

/* ---- IR helpers (ir.c) ------------------------------------------------------------------ */

int xi_add_var(sw_hcomponent *c, const char *name, sw_hvar_role role, const char *meaning);
void xi_component_clear(sw_hcomponent *c);
int xi_component_equal(const sw_hcomponent *a, const sw_hcomponent *b);
/* Copies src into dst as an identifier [A-Za-z_][A-Za-z0-9_]* (other characters -> '_'). */
void xi_ident(char *dst, size_t n, const char *src);
int xi_grow(void **p, int *cap, int need, size_t size);

/* ---- writers ------------------------------------------------------------------------------ */

/* Prints e in the profile's text form (exact: swerve's plain syntax; else SpaceEx syntax) into
 * a malloc'd string (NULL when out of memory). */
char *xw_expr(const sw_hybrid *h, const sw_expr_ast *e);
/* Initial set of h as a cfg predicate (malloc'd). */
char *xw_initially(const sw_hybrid *h);

#endif
