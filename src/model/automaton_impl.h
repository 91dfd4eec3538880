/* model/automaton_impl.h - the compiled automaton, shared by the model and sim modules.
 *
 * Expression slot layout (what sw_expr_eval reads for an agent running automaton a):
 *   0..6                 the steering state: x, y, heading, turn_rate, speed, w_tar, w_obs
 *   SW_SLOT_T            world time t
 *   SW_SLOT_TMODE        time_in_mode
 *   SW_SLOT_VARS + k     variable k
 *   param_slot + j       real parameter j (bound per agent; other kinds leave 0)
 *   label_slot + l       enum label l (its index within its enumeration)
 * The agent's continuous state vector is [steering 0..6, time_in_mode, vars...]: state index of
 * slot s >= SW_SLOT_TMODE is s - 1. */
#ifndef SWERVE_AUTOMATON_IMPL_H
#define SWERVE_AUTOMATON_IMPL_H

#include "swerve/expr.h"
#include "swerve/model.h"

enum { SW_SLOT_T = 7, SW_SLOT_TMODE = 8, SW_SLOT_VARS = 9 };

/** Host ("perception") functions of behaviour expressions. */
enum {
	SW_HF_DIST = 0,     /* dist(obj): centre distance to a target/agent, clearance to an
			       obstacle, distance to a region (0 inside), m */
	SW_HF_BEARING = 1,  /* bearing(obj): wrap(direction of obj - heading), rad */
	SW_HF_VISIBLE = 2,  /* visible(obj): no obstacle crosses the line of sight */
	SW_HF_INSIDE = 3,   /* inside(region) */
	SW_HF_CLEARANCE = 4, /* clearance(): smallest clearance to any obstacle, m */
	SW_HF_NEIGHBORS = 5, /* neighbors(r): number of other agents within r (centre distance) */
	SW_HF_PROGRESS = 6, /* progress(obj, w): how much dist(obj) shrank over the last w s */
	SW_HF_IN = 7,       /* in(signal, mode): the signal is in that mode */
	SW_HF_ONCOMING = 8, /* oncoming(obj, r): other agents within r, between the agent and obj
			       (ahead of it, towards obj), walking towards the agent's side */
	SW_HF_COUNT = 9
};

typedef struct sw_aparam {
	char name[SW_NAME_MAX];
	int line;
	sw_param_kind kind;
	int has_default;
	double def_value;
	char def_name[SW_NAME_MAX];
} sw_aparam;

typedef struct sw_avar {
	char name[SW_NAME_MAX];
	int line;
	sw_var_kind kind;
	double init;
} sw_avar;

typedef struct sw_areset {
	int var;        /* variable index, or -1 for a steering-state entry (state) */
	int state;      /* -1, or the steering-state entry it resets: SW_STATE_X, SW_STATE_Y,
			   SW_STATE_PHI, SW_STATE_OMEGA or SW_STATE_V */
	sw_expr *expr;
} sw_areset;

/** The state-vector index a reset writes: a steering-state entry, or variable var's. */
static inline int sw__reset_index(const sw_areset *r)
{
	return r->state >= 0 ? r->state : SW_STATE_DIM + 1 + r->var;
}

typedef struct sw_atrans {
	int from, to, line;
	sw_expr *guard; /* NULL = true */
	int n_resets;
	sw_areset *resets;
	char label[SW_NAME_MAX]; /* "" = none */
} sw_atrans;

typedef struct sw_amode {
	char name[SW_NAME_MAX];
	int line;
	int moves;
	int arrival;      /* entering it is the agent's arrival (sw_mode_def.arrival) */
	int ghost;        /* the agent and the others do not steer round each other
			     (sw_mode_def.ghost) */
	sw_steer_def steer;
	int target_param; /* parameter index steered to, -1 = closest target */
	sw_expr **flows;  /* per variable: NULL = 0 (clocks: 1) */
	sw_expr *invariant; /* NULL = true */
	int trans_first, trans_count; /* outgoing transitions, in priority order */
} sw_amode;

struct sw_automaton {
	char name[SW_NAME_MAX];
	char file[SW_DIAG_FILE];
	int line;
	int is_signal;
	int uses_progress; /* 1 when an expression calls progress() */
	int uses_oncoming; /* 1 when an expression calls oncoming() */
	int resets_state;  /* 1 when a reset sets the agent's x, y, heading, turn_rate or speed */
	int n_params, n_vars, n_modes, n_trans, n_labels, n_names;
	sw_aparam *params;
	sw_avar *vars;
	sw_amode *modes;
	sw_atrans *trans;
	double *label_value; /* per enum label: its index in its enumeration */
	char (*names)[SW_NAME_MAX]; /* interned name arguments that are not parameters (modes of
				       signals in in(signal, mode)) */
	int initial;
	int param_slot, label_slot, n_slots;
};

/** Checks the values of a steering definition (model.c); problems go to diag at file:line with
 * `what` naming the owner ("mode 'go'"). */
int sw__check_steer(const sw_model *m, const sw_steer_def *def, int line, const char *what,
		    sw_diag *diag);

/** Checks that every field a law of the model names is declared (model/field.c); reports each
 * unknown one at the law's file:line. */
int sw__check_fields(const sw_model *m, sw_diag *diag);

/** 3-D checks (model/model3.c): an agent's z and pitch when it is added, and at finalisation
 * what a 3-D scenario cannot do (and heights in a 2-D one). */
int sw__check_agent3(const sw_model *m, const sw_agent_def *def, const char *what, sw_diag *diag);
int sw__check_model3(const sw_model *m, sw_diag *diag);

/** Periodic-world checks at finalisation (model/periodic.c): what the seam would break. */
int sw__check_periodic(const sw_model *m, sw_diag *diag);

/* Warns about settings that run, but badly: a switching law (<ttc>, <sf>) under an adaptive
 * stepper (advice.c).  Never an error. */
void sw__advise_integrator(const sw_model *m, sw_diag *diag);

/** Frees the model's fields and their grids (model/field.c). */
void sw__free_fields(sw_model *m);

/** The name a reset assigns (as written in the file): a variable's, or a steering entry's. */
static inline const char *sw__reset_name(const struct sw_automaton *a, const sw_areset *r)
{
	static const char *const steering[SW_STATE_DIM] = {"x",     "y",     "heading", "turn_rate",
							   "speed", "w_tar", "w_obs"};
	return r->state >= 0 ? steering[r->state] : a->vars[r->var].name;
}

/** Dimension of the continuous state of an agent running a (7 + 1 + n_vars). */
static inline int sw__automaton_dim(const struct sw_automaton *a)
{
	return SW_STATE_DIM + 1 + a->n_vars;
}

#endif
