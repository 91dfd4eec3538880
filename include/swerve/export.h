/* swerve/export.h - a scenario's hybrid automaton for reachability checkers.
 *
 * Export goes in two stages.  sw_hybrid_build() turns a finalised model into a symbolic hybrid
 * automaton network (the IR, sw_hybrid): one base component per behaviour automaton (and per
 * steering law for plain-law agents), one per signal automaton, a clock component when the scene
 * moves by script, and the network `system` that binds every agent and signal instance.  Flows
 * come from the steering laws' symbolic emitters (sw_steer_emit) with the static scene folded in;
 * guards have their perception functions replaced by closed forms; urgency becomes location
 * invariants.  A tool profile then restricts the expression language: whatever a tool cannot
 * express is rewritten exactly where possible and otherwise over-approximated soundly (the
 * exported automaton has at least the behaviours of the simulated one), and every such step is
 * recorded in the IR's list of approximations.
 *
 * The printers write the IR as SpaceEx XML + .cfg files (the portable profile of
 * docs/export.md, "The SpaceEx profile", validated against schema/spaceex.rng), Graphviz DOT,
 * JSON, and a plain-text
 * report.  Output is deterministic: the same model and definition give the same bytes.
 * docs/export.md describes every choice. */
#ifndef SWERVE_EXPORT_H
#define SWERVE_EXPORT_H

#include "swerve/api.h"

#include <stdio.h>

#include "swerve/expr.h"
#include "swerve/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Target tools, which decide the expression language of an export. */
typedef enum {
	SW_PROFILE_EXACT = 0,     /**< every swerve function kept (JSON/DOT, swerve's own checks) */
	SW_PROFILE_SPACEEX = 1,   /**< SpaceEx: sin cos tan exp sqrt, + - * / ^, relations, & */
	SW_PROFILE_HYST = 2,      /**< HyST -> Flow*: as SpaceEx without tan, closed relations only */
	SW_PROFILE_JULIAREACH = 3, /**< JuliaReach: as HyST */
	SW_PROFILE_COUNT = 4      /**< number of profiles (not a profile) */
} sw_export_profile;

/** Output formats of sw_hybrid_write(). */
typedef enum {
	SW_EXPORT_SPACEEX = 0, /**< NAME.xml, NAME.cfg and one NAME.forbid-K.cfg per unsafe set */
	SW_EXPORT_DOT = 1,     /**< NAME.dot */
	SW_EXPORT_JSON = 2     /**< NAME.json */
} sw_export_format;

/** An interval widening the initial value of one agent variable. */
typedef struct sw_export_range {
	const char *agent; /**< agent name */
	const char *var;   /**< component variable name (x, y, heading, speed, a <var> name ...) */
	double lo, hi;     /**< the interval, lo <= hi; it should contain the scenario's value */
} sw_export_range;

/** What to export and how.  Obtain defaults from sw_default_export_def(). */
typedef struct sw_export_def {
	sw_export_profile profile; /**< expression language; default SW_PROFILE_SPACEEX */
	int n_ranges;              /**< initial-value widenings; default 0 */
	const sw_export_range *ranges; /**< n_ranges of them (borrowed for the build); NULL */
	const char *scenario;      /**< cfg `scenario`: supp, stc, phaver or simu; default "supp" */
	const char *directions;    /**< cfg `directions`: box, oct or uniN; default "oct" */
	double sampling_time;      /**< cfg `sampling-time`, s; <= 0 means run.step; default 0 */
	double time_horizon;       /**< cfg `time-horizon`, s; <= 0 means run.duration; default 0 */
	int iter_max;              /**< cfg `iter-max`, -1 unbounded; default -1 */
	double rel_err;            /**< cfg `rel-err`; default 1e-12 */
	double abs_err;            /**< cfg `abs-err`; default 1e-13 */
	int max_disjuncts;         /**< most transitions one disjunctive guard is split into; a
				        guard needing more is over-approximated; default 16 */
	int linear;                /**< 1: linear abstraction (a linear hybrid automaton): in every
				        location each non-constant flow x' == f becomes x' == rate_x,
				        an input bounded by the interval of the exact f over the
				        location's region (sw_expr_interval), sound up to
				        time_horizon; constant flows stay.  Default 0 */
	void (*progress)(double frac, void *ctx); /**< called as the build advances (after each
				        agent or signal) and when the files are written, frac in
				        [0, 1]; the library prints nothing.  Default NULL (none) */
	void *progress_ctx;        /**< passed to progress; default NULL */
} sw_export_def;

/** Returns the default export definition (the one place where the defaults live). */
SW_API sw_export_def sw_default_export_def(void);

/** Static name of a profile ("exact", "spaceex", "hyst", "juliareach"); "?" when invalid. */
SW_API const char *sw_export_profile_name(sw_export_profile p);

/** Parses a profile name into *out; returns SW_SUCCESS or SW_EINPUT. */
SW_API int sw_export_profile_parse(const char *name, sw_export_profile *out);

/* --- the IR (read-only once built) -------------------------------------------------------- */

/** Roles of component variables. */
typedef enum {
	SW_HVAR_STATE = 0, /**< controlled: has a flow in every location and a reset on every jump */
	SW_HVAR_INPUT = 1, /**< uncontrolled and local: a bounded nondeterministic input (bounds in
			        every location's invariant) */
	SW_HVAR_READ = 2   /**< uncontrolled, non-local: another component's state (other agents'
			        positions, a signal's location index, the global time t) */
} sw_hvar_role;

/** A component variable.  Expression trees of a component refer to variable k with a
 * SW_EXPR_VAR node named vars[k].name in slot k. */
typedef struct sw_hvar {
	char name[SW_NAME_MAX]; /**< identifier in the component */
	sw_hvar_role role;
	char meaning[96];       /**< what it stands for, for reports ("position x", ...) */
	sw_expr_ast *lifted;    /**< a lifted state variable (HyST/JuliaReach profiles): the
				     expression over the component's state variables and t that it
				     equals at all times (its flow is the expression's time
				     derivative, its resets the expression after the jump, its
				     initial value the expression's interval over the initial set);
				     NULL for every other variable */
} sw_hvar;

/** A location. */
typedef struct sw_hlocation {
	char name[SW_NAME_MAX]; /**< identifier; SpaceEx id is its index + 1 */
	sw_expr_ast **flow;     /**< flow[k] = derivative of state variable k (n_state entries) */
	sw_expr_ast *invariant; /**< conjunction, or NULL for true */
} sw_hlocation;

/** A transition (one per disjunct of a swerve guard). */
typedef struct sw_htransition {
	int source, target;     /**< location indices */
	char label[SW_NAME_MAX]; /**< label ("" none); a label of the component */
	sw_expr_ast *guard;     /**< conjunction, or NULL for true */
	sw_expr_ast **reset;    /**< reset[k] = post-jump value of state variable k (n_state entries,
				     identity included), pre-jump values on the right */
	int origin;             /**< index of the swerve transition it comes from (-1 built-in) */
} sw_htransition;

/** A base component. */
typedef struct sw_hcomponent {
	char id[SW_NAME_MAX];
	int n_vars, n_state;    /**< variables; the first n_state are SW_HVAR_STATE */
	sw_hvar *vars;
	int n_labels;
	char (*labels)[SW_NAME_MAX];
	int n_locations;
	sw_hlocation *locations;
	int n_transitions;
	sw_htransition *transitions;
} sw_hcomponent;

/** An instance of a component in the network `system`. */
typedef struct sw_hinstance {
	char name[SW_NAME_MAX];   /**< identifier (the bind's `as`) */
	int component;            /**< index into components */
	int agent, signal;        /**< the agent or signal it stands for (-1 when not) */
	char (*map)[2 * SW_NAME_MAX]; /**< per component variable: network variable, "" for inputs */
	char (*label_map)[2 * SW_NAME_MAX]; /**< per component label: network label */
	int initial_location;     /**< location at t = 0 (after the jumps enabled at t = 0) */
	double *init_lo, *init_hi; /**< per state variable: initial interval */
} sw_hinstance;

/** A conjunctive unsafe set (one .cfg per set: Flow* mishandles disjunctions). */
typedef struct sw_hforbidden {
	char name[2 * SW_NAME_MAX]; /**< identifier, e.g. "ann__pillar_1" */
	char what[160];         /**< sentence: what overlaps what */
	sw_expr_ast *set;       /**< conjunction over network variables (slot = netvar index) */
} sw_hforbidden;

/** One approximation or semantic difference, for the report. */
typedef struct sw_happrox {
	char where[256];        /**< component / location / transition concerned */
	char what[SW_DIAG_MSG]; /**< what was done, as a sentence */
	int sound;              /**< 1: over-approximation (more behaviours); 0: the export differs
				     from the simulator in a way that is not an over-approximation */
} sw_happrox;

/** The exported hybrid automaton network. */
typedef struct sw_hybrid {
	char name[SW_NAME_MAX]; /**< identifier derived from the scenario name */
	char scenario_file[SW_DIAG_FILE]; /**< source file of the model ("" in memory) */
	sw_export_def def;      /**< the definition used (ranges not kept: n_ranges 0; scenario and
				     directions point into this struct) */
	char scenario[16];      /**< storage of def.scenario */
	char directions[32];    /**< storage of def.directions */
	int n_components;       /**< base components; the network `system` is implicit */
	sw_hcomponent *components;
	int n_instances;
	sw_hinstance *instances;
	int n_netvars, n_netlabels;
	char (*netvars)[2 * SW_NAME_MAX];   /**< variables of `system`, in binding order */
	char (*netlabels)[2 * SW_NAME_MAX]; /**< labels of `system` */
	int n_forbidden;
	sw_hforbidden *forbidden;
	int n_approx;
	sw_happrox *approx;
} sw_hybrid;

/** Builds the IR of finalised model m under def (NULL = defaults).  Returns SW_SUCCESS with *out
 * owned by the caller (sw_hybrid_free), SW_EINPUT with diagnostics when the model cannot be
 * exported soundly (waypoint motion in a flow, a user flow or reset without a closed form in the
 * profile, an unknown agent or variable in def->ranges), SW_EUSAGE, or SW_ENOMEM. */
SW_API int sw_hybrid_build(const sw_model *m, const sw_export_def *def, sw_hybrid **out,
			   sw_diag *diag);

/** Frees an IR.  NULL is allowed. */
SW_API void sw_hybrid_free(sw_hybrid *h);

/** Index of the component variable named name, or -1. */
SW_API int sw_hcomponent_find_var(const sw_hcomponent *c, const char *name);

/* --- printers ---------------------------------------------------------------------------- */

/** Prints e in SpaceEx syntax (%.17g numbers, every power and unary minus parenthesised, `&`
 * for conjunction) into buf of size n (snprintf-style: returns the length needed). */
SW_API int sw_hybrid_print_expr(const sw_expr_ast *e, char *buf, size_t n);

/** Writes the SpaceEx XML of h into a new buffer *xml (NUL-terminated, length *len; free with
 * free()).  Returns SW_SUCCESS, SW_EUSAGE when h's profile is exact (SpaceEx cannot read it),
 * or SW_ENOMEM. */
SW_API int sw_hybrid_spaceex_xml(const sw_hybrid *h, char **xml, size_t *len);

/** Writes the SpaceEx configuration of h to f: forbidden = -1 for none, else unsafe set k. */
SW_API int sw_hybrid_spaceex_cfg(const sw_hybrid *h, int forbidden, FILE *f);

/** Writes the whole network as Graphviz DOT to f (one cluster per instance). */
SW_API int sw_hybrid_dot(const sw_hybrid *h, FILE *f);

/** Writes the IR as JSON to f. */
SW_API int sw_hybrid_json(const sw_hybrid *h, FILE *f);

/** Writes the plain-text export report (approximations, the files of format fmt, variables)
 * to f. */
SW_API int sw_hybrid_report(const sw_hybrid *h, sw_export_format fmt, FILE *f);

/** Writes the files of format fmt and report.txt into directory dir (created if missing), each
 * atomically (temporary file + rename); a SpaceEx export of independent systems
 * (sw_hybrid_parts) is written as one model and cfg set per system, NAME__AGENT.xml ....  SpaceEx XML is validated against the schema first.
 * Returns SW_SUCCESS, SW_EUSAGE (exact profile with SpaceEx), SW_EIO with a diagnostic. */
SW_API int sw_hybrid_write(const sw_hybrid *h, sw_export_format fmt, const char *dir,
			   sw_diag *diag);

/** Independent systems of h (src/export/split.c): groups of agents that neither read each other's
 * variables nor share a label, each as its own network view with the signals and the clock it
 * reads and the unsafe sets that read it, named NAME__AGENT (its first agent).  *parts receives
 * n >= 2 views (free with sw_hybrid_parts_free; they borrow h's components and instances, so h
 * must outlive them), or NULL with *n_parts = 0 when h is one system.  Returns SW_SUCCESS,
 * SW_EUSAGE or SW_ENOMEM.  sw_hybrid_write() writes SpaceEx exports as these parts. */
SW_API int sw_hybrid_parts(const sw_hybrid *h, sw_hybrid ***parts, int *n_parts);

/** Frees the n views of sw_hybrid_parts() (NULL allowed). */
SW_API void sw_hybrid_parts_free(sw_hybrid **parts, int n);

/** Validates a SpaceEx document (len bytes) against schema/spaceex.rng; problems go to diag
 * citing name:line.  Returns SW_SUCCESS or SW_EINPUT. */
SW_API int sw_spaceex_validate(const char *xml, size_t len, const char *name, sw_diag *diag);

/** The text of the SpaceEx profile schema compiled into the library (NUL-terminated). */
SW_API const char *sw_spaceex_schema(void);

#ifdef __cplusplus
}
#endif
#endif
