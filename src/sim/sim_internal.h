/* sim/sim_internal.h - the world structure shared by the files of the sim module.
 *
 * A world steps "units": the n agents, then the signals (instances of signal automata, with no
 * body).  Each unit has its own continuous state vector in y (offset off[u], dimension dim[u]):
 * plain-law agents [steering state 0..6]; automaton units [steering 0..6, time_in_mode, vars]
 * (signals keep zeros in the steering part). */
#ifndef SWERVE_SIM_INTERNAL_H
#define SWERVE_SIM_INTERNAL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_roots.h>
#include <gsl/gsl_rng.h>

#include "geom/bucket.h"
#include "model/automaton_impl.h"
#include "pool.h"
#include "steer/steer_internal.h"
#include "swerve/sim.h"

/** Modes of plain-law agents. */
enum { MODE_STEER = 0, MODE_ARRIVED = 1 };

/** Kinds of steering target of an agent. */
enum { TGT_NONE = 0, TGT_TARGET = 1, TGT_AGENT = 2 };

/** Positions kept per agent for progress(obj, window). */
#define SW_HISTORY 256

struct sw_world;
struct sw_worker;

/** What a unit's GSL system receives as params: the world, the worker integrating the unit now
 * (sw__integrate sets it) and the unit. */
typedef struct agent_ctx {
	const struct sw_world *w;
	struct sw_worker *wk;
	int i;
} agent_ctx;

/** A signal switch during the current step. */
typedef struct sig_switch {
	int sig;
	double t;
	int mode;
} sig_switch;

/** Kinds of pass over the agents (worker.c sw__pass; each balances its blocks on its own):
 * step 2's advance, step 4's sensing, the snapshot's headings and velocities. */
enum { SW_PASS_ADVANCE = 0, SW_PASS_SENSE = 1, SW_PASS_MOTION = 2, SW_PASSES = 3 };

/** The neighbour index of agents (grid.c): the agents' snapshot positions binned into square
 * cells.  Carved at creation (sw__grid_layout); rebuilt from the snapshot by sw__grid_build,
 * serially, after every snapshot; read-only during passes (a query writes only its worker). */
typedef struct sw_agent_grid {
	int on;                 /* 1: perception of agents uses the grid (else brute force) */
	double cell;            /* cell side, m: the largest perception plus twice the largest
				   radius */
	double rmax;            /* largest agent radius, m */
	int buckets;            /* hashed layout: buckets of the table (a power of two) */
	size_t cap;             /* buckets start has room for */
	int *start;             /* per bucket: its first slot (one more entry: the end) */
	int *items;             /* per slot, in bucket order: the agent */
	double *px, *py;        /* per slot: the agent's snapshot position, m */
	double *pz;             /* per slot: its height, m (3-D worlds only, else NULL) */
	int avx512;             /* the scan may use AVX-512 */
	int avx2;               /* ... or else AVX2 */
	int dense;              /* 1: dense layout of the current build (the agents' box) */
	long ix0, iy0, nx, ny;  /* dense layout: first cell and box size, in cells */
} sw_agent_grid;

/** The neighbour index of static obstacle primitives (prim_grid.c), and the obstacles' boxes at
 * rest.  Carved (sw__prim_grid_layout) and built (sw__prim_grid_build) at creation; read-only
 * after. */
typedef struct sw_prim_index {
	int on;                 /* 1: perception and clearances use the index */
	double x0, y0, cell;    /* the grid's origin and cell side, m */
	int nx, ny;             /* the grid's size, in cells */
	int *start;             /* per cell: its first entry of items (one more: the end) */
	int *items;             /* per entry: a static primitive, ascending within a cell */
	size_t n_items;         /* entries items has room for (the layout's count) */
	double *ibox;           /* per entry of items: its primitive's bounding box at rest
				   (x0, y0, x1, y1), where the query reads it in a row */
	int *moving, n_moving;  /* the primitives of moving obstacles (always candidates) */
	int *big, n_big;        /* closed polygons that could hold an agent's whole query square */
	double *ends;           /* per primitive: a.x, a.y, b.x, b.y at rest, each plus 0.0 (as
				   sw_model_prim_at gives them with a zero displacement) */
	uint64_t *disc;         /* bit k: primitive k is a disc */
	int *cull;              /* per primitive: its obstacle j when j is a static closed convex
				   polygon, else -1: such an edge facing away from a point outside j
				   hides nothing from it that j's other edges do not (perceive.c) */
	double *face;           /* per primitive: +1 (-1) when cull names its obstacle and the
				   polygon runs counterclockwise (clockwise), else 0 */
	double *nline;          /* per primitive that cull names: the lines of the edges before
				   and after it, each as a unit normal and offset (nx, ny, c: points
				   x on it have nx x.x + ny x.y = c) */
	double rmax;            /* the largest disc radius, m (set whether or not the index is on;
				   visibility, perceive.c) */
	double hide;            /* max(agent.rmax, rmax), m: beyond an agent's perception and
				   radius, the reach of its query */
	double *obox;           /* per obstacle: its bounding box (x0, y0, x1, y1) at rest; NaN
				   for a moving obstacle (sw__nearest_clearance's lower bounds) */
	sw_bucket ob;           /* when on: the obstacles' boxes at rest, moving ones in its wide
				   list (measure_obstacles, sw__nearest_clearance) */
	double speed_max;       /* the obstacles' largest scripted speed, m/s
				   (sw__obstacle_speed_max; set whether or not the index is on) */
} sw_prim_index;

/** The threads and their workers (worker.c).  Changed only by sw_world_set_threads and by
 * sw__pass before and after its blocks run, both serial; the workers' sizes are fixed at
 * creation. */
typedef struct sw_threads {
	int n;                  /* workers (and threads of a pass at most) */
	int split[SW_PASSES];   /* blocks the workers' lo/hi were set for, per kind of pass (0:
				   none) */
	int automatic;          /* 1: n = processors, used from SW_AUTO_BLOCK agents each */
	struct sw_worker *workers; /* n of them; workers[0] also serves the serial paths */
	struct sw_pool *pool;   /* the threads that run them (pool.c), NULL with one thread */
	int cap0;               /* percepts a worker's buffer starts with (it grows) */
	int max_slots;          /* expression slots a worker holds */
	int sense_group;        /* agents sensed together at most (SW_SENSE_GROUP; tests: 1) */
} sw_threads;

/** The units' hybrid state: unit u's continuous state y[off[u] .. off[u] + dim[u]), its mode, and
 * what integrates it.  The layout (dim, off, maxdim, aut, type, sys, carry_stride, zeno_max) is
 * set at creation and read-only after; unit u's entries of y, mode, drv, ctx and carry are
 * written only by unit u's own advance (step 1 for a signal, serially; step 2 for an agent, in
 * its block) and sensing (step 4: the law's algebraic outputs in y), and read by the others only
 * through the snapshot -- but a signal's mode, which agents read within the step through
 * sig. */
typedef struct sw_units {
	int *dim;               /* per unit: its state dimension */
	uint32_t *off;          /* per unit: its offset into y (creation checks the total fits) */
	double *y;              /* all units' states */
	int maxdim;             /* largest unit dimension (the workers' state vectors) */
	int *mode;              /* per unit: its mode (plain-law agents: MODE_*) */
	const struct sw_automaton **aut; /* per unit: its automaton, NULL for plain-law agents */
	const gsl_odeiv2_step_type *type; /* GSL stepper; NULL: explicit Euler */
	gsl_odeiv2_system *sys; /* per unit: its GSL system (NULL for Euler) */
	gsl_odeiv2_driver **drv; /* per unit: its GSL driver (NULL for Euler) */
	agent_ctx *ctx;         /* per unit: its system's params (NULL for Euler) */
	int zeno_max;           /* most jumps of one unit at one instant */
	struct sw_carry *carry; /* per unit: its guards' margin bounds from step to step (hybrid.c);
				   NULL without automaton units */
	int carry_stride;       /* bounds per unit: most guards of a mode, plus the invariant */
} sw_units;

/** The agents' laws and the state their steering adds to the units' (step.c, perceive.c,
 * hybrid.c).  steer, steer_first, n_steer, pers, rad, r0 and rmax are set at creation and
 * read-only after; agent i's entries of tkind, tindex, rng and jumped are written only by agent
 * i's own advance (step 2) and sensing (step 4). */
typedef struct sw_agents {
	sw_steer_def *steer;    /* per agent per mode steering (personality applied); agents with
				   equal laws share entries */
	int *steer_first;       /* per agent: its modes' entries in steer */
	int n_steer;            /* entries in steer */
	sw_personality *pers;   /* per agent personality with drawn traits; NULL when none is
				   drawn */
	double *rad;            /* per agent radius, m; NULL when all agents have radius r0 */
	double r0;              /* the first agent's radius, m */
	double rmax;            /* the largest agent radius, m (visibility, perceive.c) */
	unsigned char *tkind;   /* per agent current steering target: kind (TGT_*) */
	int *tindex;            /* and index */
	unsigned char *rng;     /* per agent random stream (sw__rng): SW_RNG_TYPE states in one
				   block; NULL when no mode draws (only GLM's heading noise does) */
	double *jumped;         /* per agent: (dx, dy) resets moved it by in this step (hybrid.c
				   moved(), taken out of its path by step.c); NULL when no jump
				   resets an agent's position */
} sw_agents;

/** The agents' positions at the ends of the last steps, for progress(obj, window) (host.c).
 * Written serially after each step's sensing (sw__history_push) and by a restore; read-only
 * during passes. */
typedef struct sw_history {
	double *buf;            /* per agent SW_HISTORY x (t, x, y) ring; NULL when no automaton
				   reads progress() */
	int len, head;          /* entries kept, and the next one written */
} sw_history;

/** The snapshot: the agents as the others perceive them during a step, taken at its start
 * (sw__snapshot, step 3 of the previous step or creation).  Written by the snapshot's own pass
 * (SW_PASS_MOTION, each block its agents' entries; serially when there is no pass), n_done
 * summed from the blocks' counts; read-only during the advance and sensing passes. */
enum { SW_SNAP_GONE = 1, SW_SNAP_GHOST = 2 }; /* the bits of sw_snapshot.flags */

typedef struct sw_snapshot {
	double *pos;            /* per agent (x, y), m */
	double *h;              /* per agent heading unit vector, when a law aligns; else NULL */
	double *v;              /* per agent velocity, m/s (0 when not moving), when a law
				   anticipates collisions (ttc); else NULL */
	unsigned char *flags;   /* per agent: SW_SNAP_GONE when done and left the world
				   (run.leave_when_done), SW_SNAP_GHOST when in a ghost mode; NULL
				   when agents never leave and no mode is a ghost mode */
	int n_done;             /* agents done (sw__agent_done) */
} sw_snapshot;

/** Three dimensions (space3.c): agents carry SW_STATE3_DIM entries at the end of their state, at
 * offset dim[i] - SW_STATE3_DIM.  Set at creation, but for snap, written with the snapshot
 * (sw__snapshot3, serial) and read-only during passes. */
typedef struct sw_space3 {
	int on;                 /* 1: a 3-D world */
	double *snap;           /* per agent (z, ux, uy, uz) at the snapshot */
	int cap;                /* 3-D percepts a worker holds: n_prims + n + 1 (never more) */
} sw_space3;

/** What each agent sensed at w->t for the start of its next step (step.c: the law evaluated
 * once per agent and step).  Agent i's entry is written only for agent i: by its sensing (step
 * 4), the snapshot's motion (a ttc or sf heading) and its jumps (step 2, which clear it); it is
 * read by its own integration.  stride and crowd are set at creation, on by
 * sw_world_set_fast_path (between steps). */
typedef struct sw_fast {
	double *data;           /* per agent, stride doubles (sw__fast); the first is NAN when
				   nothing is kept.  GLM: its heading rate (with y[V]), then cos
				   and sin of the heading; ttc, sf, csm (when crowd): the flow
				   (dx, dy, dphi, dv) of its law.  Which of the two a valid entry
				   holds is the law of the agent's mode: every jump clears it. */
	int stride;             /* 3, or 4 when crowd */
	int crowd;              /* 1: some agent runs ttc, sf or csm under explicit Euler in 2-D,
				   and keeps its law's flow */
	int on;                 /* 1 (default): use it */
} sw_fast;

/** The measures of the run (step.c, steerbench.c): agent i's entries (its metrics, its row of
 * the agent-obstacle arrays, its SteerBench sums) are written only by agent i's own sensing
 * (step 4), its advance and jumps (step 2: the path length), and restored by checkpoint.c. */
typedef struct sw_measures {
	sw_agent_metrics *metrics; /* per agent: the summary's figures */
	double *min_clear;      /* n * n_obstacles minimum clearances, m */
	unsigned char *overlap; /* n * n_obstacles: overlapping at the last check */
	double *clear_until;    /* n * n_obstacles: path length below which the obstacle need not be
				   measured (step.c measure_obstacles); -INFINITY: measure */
	unsigned char *agent_overlap; /* per agent: overlapping some agent at the last check */
	unsigned char *touch;   /* per agent: some obstacle overlapped it at the last measure (or
				   unknown, after a restore): measure_obstacles checks them all;
				   NULL when the primitive index is off */
	struct sw_steerbench *sb; /* SteerBench accumulators (steerbench.c), or NULL */
} sw_measures;

/** The signals' switches in the current step (hybrid.c, host.c).  Written only by the signals'
 * advance in step 1 (serial); read-only during the agents' passes, which read a signal's mode at
 * any instant of the step from them (sw__signal_mode). */
typedef struct sw_signals {
	int *mode0;             /* per signal: its mode at the start of the step */
	sig_switch *switches;   /* switches during this step, in time order */
	int n_switch, cap_switch;
} sw_signals;

/** Navigation (navigate.c): the fields the laws steer by, set up at creation and read-only
 * after; the planned routes, agent i's written only by its own sensing (sw__route_update). */
typedef struct sw_navigation {
	int *steer_field;       /* per steer entry: field index, -1 none, -2 auto */
	const struct sw_grid **field_grid; /* per model field: the grid used */
	struct sw_grid **field_owned; /* per model field: built by this world (else NULL) */
	struct sw_route *route; /* per agent; NULL when the model declares no routes */
	struct sw_grid *route_map; /* the static obstacles grown by the clearance (read-only) */
	int defer;              /* 1 while a world to be restored is created: no route planned */
} sw_navigation;

struct sw_world {
	/* The world is the start of one allocation (world.c): the arrays whose sizes creation
	 * fixes follow it, each at a 64-byte offset (world.c world_carve). */
	const sw_model *m;
	sw_world_def def;       /* the definition it was created with, sample resolved (0: the
				   model's); read-only after creation, but for event_fn and
				   event_ctx (sw_world_set_event_fn, between steps).  threads: as
				   asked at creation (the threads now: threads.n) */
	double t;               /* current time, s */
	long steps;             /* macro steps taken */
	int n;                  /* agents */
	int ns;                 /* signals */
	int nu;                 /* units: agents then signals */
	long total_steps;       /* steps of def.duration (sw_run_steps) */
	sw_units unit;          /* the units' hybrid state */
	sw_agents agent;        /* the agents' laws, targets, random streams */
	sw_history hist;        /* the agents' recent positions */
	sw_agent_grid grid;     /* the agents' neighbour index */
	sw_prim_index pg;       /* the static primitives' index */
	sw_threads threads;     /* threads, workers, and what sizes the workers */
	sw_snapshot snap;       /* what the agents perceive of each other */
	sw_space3 space3;       /* three dimensions */
	sw_fast fast;           /* what each agent sensed for its next step */
	sw_measures meas;       /* clearances, metrics, SteerBench */
	sw_signals sig;         /* the signals' switches */
	sw_navigation nav;      /* fields and routes */
};

/** A bound on the margin of one guard (or invariant) of a unit at the end of its last step
 * (hybrid.c): m is at least the margin there, and rate bounds its change while the unit's speed
 * bound stays at most v. */
typedef struct sw_margin_bound {
	double m, rate, v;
	int steady; /* 0: the margin may jump between steps (it reads other agents' snapshot) */
} sw_margin_bound;

/** What a unit's bounds belong to: the step end (time, position, mode); t = NAN: none. */
typedef struct sw_carry {
	double t, x, y;
	int mode;
} sw_carry;

/** A transition event buffered by a thread (delivered after the agents' step, in order). */
typedef struct sw_tevent {
	int u, from, to;
	double t;
	const char *label;
	char guard[256];
	size_t yoff; /* the unit's state at the event, in the worker's evy */
} sw_tevent;

/** A worker: everything a stage writes besides the entries of the units it steps -- its
 * scratch, GSL workspaces, integration status, buffered events and diagnostics (worker.c).
 *
 * The stages of a step (step.c) run over blocks of agents, one block per worker, and follow one
 * rule, which their signatures state:
 *   - `const struct sw_world *w`: the stage only reads the world (the snapshot, the grids, the
 *     model, every agent's state);
 *   - `struct sw_world *w` with a unit u (or agent i): the stage writes unit u's own entries of
 *     the per-unit and per-agent arrays (in unit: its state y, mode, carried bounds, GSL driver
 *     and context; in agent: target, random stream, jump moves; fast: its sensed flow; meas: its
 *     metrics, clearances, SteerBench sums; nav: its route) and nothing else of the world;
 *     serial-only writes (a signal's switches, sig) are marked where they happen;
 *   - `sw_worker *wk`: all other writes go to the worker, which no two threads share.
 * So a pass is free of data races when each unit is in one block, and its results do not depend
 * on the blocks.  workers[0] also serves the serial paths (world creation, the signals' advance,
 * the accessors), which never run during a pass. */
typedef struct sw_worker {
	void *block;            /* one allocation holding the fixed-size buffers below (worker.c) */
	/* perception (perceive.c, grid.c, prim_grid.c, space3.c) */
	sw_percept *scratch;    /* percepts (cap entries, grown when an agent sees more) */
	int cap;
	sw_percept3 *scratch3;  /* 3-D worlds: percepts (w->space3.cap) */
	int *found;             /* a grid query's agents (n + SW_GRID_SLACK) */
	int *occl;              /* walls near the perceiving agent (n_prims + 1) */
	int *pg_found;          /* a primitive query's primitives (n_prims + 1) */
	uint64_t *pg_bits;      /* one bit per primitive, all clear between queries */
	double grid_qz;         /* height of the agent perceiving now (3-D, set by sw__perceive3
				   around its planar perception; NAN otherwise): the grid then keeps
				   only agents within reach in 3-D */
	double *slots;          /* expression slots (w->threads.max_slots; host.c) */
	/* state vectors of w->unit.maxdim entries, cut from one block (work) */
	double *work;
	double *dydt;           /* a flow's value (integrate.c euler, space3.c) */
	double *jac;            /* three: sw__agent_jac's f(y), f(y + h e_j) and y + h e_j */
	double *y_piece;        /* hybrid.c: the state at the start of a piece of the step */
	double *y_trial;        /* locate.c: the state at a trial instant (hybrid.c reuses it) */
	double *y_step;         /* step.c: the unit's state at the start of the step */
	double *y_pre;          /* hybrid.c: the state before a jump's resets */
	sw_relax_ws *relax;     /* the GLM weight relaxation's driver */
	struct sw_route_search *route_search; /* route planning (navigate.c; made on first use) */
	sw_vec2 *route_pts;     /* a repair's corners (navigate.c), route_cap of them */
	int route_cap;
	gsl_root_fsolver *root; /* the event locator's Brent solver */
	/* what made the last integration fail (integrate.c, for the failure message) */
	int rhs_status;         /* first non-success status of an rhs call in this integration */
	double fault_t;         /* time reached when it failed (NaN: not known) */
	int fault_k;            /* state entry whose flow was not finite, or -1 */
	int fault_locate;       /* 1: event location did not converge in [fault_t, fault_t1] */
	double fault_t1;
	int fault_u;            /* first agent whose sensing failed in this block (step.c), or -1 */
	/* a pass's outputs, merged in block order after it (worker.c) */
	int defer;              /* 1 during a pass: transition events are buffered */
	sw_tevent *ev;
	int n_ev, cap_ev;
	double *evy;
	size_t n_evy, cap_evy;
	sw_diag *diag;
	int status;
	/* its block of each kind of pass: agents [lo, hi), and how long the last one took, s (for
	 * the balance of the next) */
	int lo[SW_PASSES], hi[SW_PASSES];
	double took[SW_PASSES];
	/* the snapshot of its block (step.c snap_block): agents done, and the box of their
	 * positions (x0, x1, y0, y1; NaN ignored) that the grid's layout is chosen from */
	int snap_done;
	double snap_box[4];
} sw_worker;

/** A block being laid out (world.c, worker.c): sized (base NULL: only `at` moves), then carved
 * (base: the block, sw__block_alloc(at) bytes). */
typedef struct sw_arena {
	char *base;
	size_t at;              /* bytes laid out so far */
} sw_arena;

/** Takes an array of count elements of size bytes at a->at and moves a->at past it to the next
 * multiple of 64 bytes (a cache line, and more than any member's alignment): a pointer into the
 * block, or NULL when count is 0 or while a is only being sized.  Sizes that overflow make a->at
 * SIZE_MAX, which no allocation satisfies.  The same calls size, then carve, so each must ask
 * the same sizes both times (they depend only on the model and on what the sizing computed). */
static inline void *sw__arena_take(sw_arena *a, size_t count, size_t size)
{
	size_t o = a->at;
	if (a->at == SIZE_MAX || (size > 0 && count > (SIZE_MAX - 64 - a->at) / size)) {
		a->at = SIZE_MAX;
		return NULL;
	}
	a->at += (count * size + 63) / 64 * 64;
	return a->base && count > 0 ? a->base + o : NULL;
}

/** Unit u's automaton in m (agents first, then signals; NULL for a plain-law agent): what
 * w->unit.aut[u] holds, for the layout, which runs before the arrays exist. */
static inline const struct sw_automaton *sw__unit_automaton(const sw_model *m, int u)
{
	if (u < m->n_agents)
		return m->agents[u].behaviour >= 0 ? m->automata[m->agents[u].behaviour] : NULL;
	return m->automata[m->signals[u - m->n_agents].automaton];
}

/** A zeroed block of the given size laid out by sw_arena, aligned to 64 bytes (freed with
 * free()); NULL when out of memory. */
static inline void *sw__block_alloc(size_t bytes)
{
	if (bytes == SIZE_MAX)
		return NULL;
	size_t n = bytes > 0 ? bytes : 64; /* a multiple of 64, as aligned_alloc asks */
	void *b = aligned_alloc(64, n);
	if (b)
		memset(b, 0, n);
	return b;
}

/** The worker of the serial paths (creation, the signals, accessors): the first one, idle
 * outside passes. */
static inline sw_worker *sw__serial(struct sw_world *w)
{
	return &w->threads.workers[0];
}

/** Agent i's personality (its drawn traits when the scenario draws any). */
static inline const sw_personality *sw__pers(const struct sw_world *w, int i)
{
	return w->agent.pers ? &w->agent.pers[i] : &w->m->agents[i].personality;
}

/** Whether agent j has left the world (done, with run.leave_when_done): others skip it. */
static inline int sw__gone(const struct sw_world *w, int j)
{
	return w->snap.flags && (w->snap.flags[j] & SW_SNAP_GONE);
}

/** Whether agent j was in a ghost mode at the snapshot: others do not steer round it. */
static inline int sw__ghost(const struct sw_world *w, int j)
{
	return w->snap.flags && (w->snap.flags[j] & SW_SNAP_GHOST);
}

/** Whether agent i is in a ghost mode now (its own entry: read by agent i's stages only). */
static inline int sw__ghost_mode(const struct sw_world *w, int i)
{
	const sw_automaton *a = w->unit.aut[i];
	return a && a->modes[w->unit.mode[i]].ghost;
}

/** The x difference dx of two agents' positions as the nearest image sees it: dx itself, or in a
 * periodic world (model.periodic_x = L > 0) dx - L nearbyint(dx / L), in [-L/2, L/2]. */
static inline double sw__image_dx(const struct sw_world *w, double dx)
{
	double L = w->m->periodic_x;
	return L > 0.0 ? dx - L * nearbyint(dx / L) : dx;
}

/** Agent j's position q moved to its image nearest to p (q itself unless the world is
 * periodic). */
static inline sw_vec2 sw__image_near(const struct sw_world *w, sw_vec2 q, sw_vec2 p)
{
	if (w->m->periodic_x > 0.0)
		q.x = p.x + sw__image_dx(w, q.x - p.x);
	return q;
}

/** The number of grid queries that find every agent within reach of p (1, or 2 near the seam of
 * a periodic world, the second at q[1], p's image beyond the seam); q[0] = p.  A strip longer
 * than twice the reach (model/periodic.c) means no agent is found by both. */
static inline int sw__image_queries(const struct sw_world *w, sw_vec2 p, double reach,
				    sw_vec2 q[2])
{
	double L = w->m->periodic_x;
	q[0] = q[1] = p;
	if (!(L > 0.0) || !w->grid.on || (p.x >= reach && p.x <= L - reach))
		return 1;
	q[1].x = p.x < reach ? p.x + L : p.x - L;
	return 2;
}

/** Whether a law is a crowd law (SW__LAW_CROWD), whose sensed flow w->fast.data keeps. */
static inline int sw__crowd_law(sw_law law)
{
	return (sw__law_flags(law) & SW__LAW_CROWD) != 0;
}

/** Whether a crowd law's entry in w->fast.data holds its heading's cosine and sine from a
 * snapshot to its sensing (snap_motion, sense_one): the crowd laws whose velocity is state
 * (SW__LAW_ALGEBRAIC_VELOCITY unset: ttc, sf). */
static inline int sw__crowd_heading(sw_law law)
{
	return (sw__law_flags(law) & (SW__LAW_CROWD | SW__LAW_ALGEBRAIC_VELOCITY)) == SW__LAW_CROWD;
}

/** Agent i's entry in w->fast. */
static inline double *sw__fast(const struct sw_world *w, int i)
{
	return w->fast.data + (size_t)w->fast.stride * (size_t)i;
}

/** Radius of agent j. */
static inline double sw__radius(const struct sw_world *w, int j)
{
	return w->agent.rad ? w->agent.rad[j] : w->agent.r0;
}

/* step.c */
/** Agent i's random stream (a gsl_rng is a public struct of a type and a state pointer; the
 * states live in one block rather than in 2 n small allocations). */
static inline gsl_rng sw__rng(const struct sw_world *w, int i)
{
	gsl_rng r = {SW_RNG_TYPE, w->agent.rng + (size_t)i * SW_RNG_TYPE->size};
	return r;
}
/** Index of the target closest to agent i at time t, -1 when there is none. */
int sw__closest_target(const struct sw_world *w, int i, double t);
/** Whether agent i moves under a steering law in its current mode. */
int sw__moving(const struct sw_world *w, int i);
/** Records agent i's first arrival at t (summary "reached", "t_reached"): a plain-law agent at
 * its target, a behaviour agent entering a mode marked arrival. */
void sw__arrived(struct sw_world *w, int i, double t);
/** Records that agent i reached its target at t (stops it when it stops at targets; the event
 * goes through wk). */
void sw__reached(struct sw_world *w, sw_worker *wk, int i, double t);
/** A plain-law agent at the world's creation: its target, and arrival if it starts there. */
void sw__start_plain(struct sw_world *w, sw_worker *wk, int i);
/** Copies the current states to the snapshot others perceive and rebuilds the grid. */
void sw__snapshot(struct sw_world *w);
/** Moving 2-D GLM agents sensed together (their law evaluated by sw_glm_eval_batch). */
#define SW_SENSE_GROUP 16
/** Step 4 of step.c for agents [lo, hi) at w->t (dt: the step just taken, for overlap time) on
 * worker wk; returns the first failure in agent order (the agent in wk->fault_u). */
int sw__sense_range(struct sw_world *w, sw_worker *wk, int lo, int hi, double dt);
/** Step 4 for every agent, in parallel blocks (sw__sense_range per worker). */
int sw__sense_all(struct sw_world *w, double dt, sw_diag *diag);

/* worker.c: workers, and passes over blocks of agents */
/** Allocates worker wk's buffers for world w (SW_ENOMEM on failure, nothing left allocated). */
int sw__worker_alloc(const struct sw_world *w, sw_worker *wk);
void sw__worker_free(sw_worker *wk);
/** Reports a transition of unit u (from, to at t) to the world's event function: at once on a
 * serial worker, buffered during a pass (delivered after it in agent order, with the unit's
 * state as it was at the event). */
void sw__worker_event(const struct sw_world *w, sw_worker *wk, int u, double t, int from, int to,
		      const char *label, const char *guard);
/** A block of a pass: agents [lo, hi) on worker wk; failures go to wk->status (and wk->diag). */
typedef void (*sw_block_fn)(struct sw_world *w, sw_worker *wk, int lo, int hi, const void *arg);
/** Runs fn over agents [0, n) in one block per worker (sw__pass_threads of them, in parallel),
 * then delivers the buffered events and appends the diagnostics in block order; returns the
 * first failure in agent order and its worker in *failed (may be NULL). */
int sw__pass(struct sw_world *w, int kind, sw_block_fn fn, const void *arg, sw_diag *diag,
	     const sw_worker **failed);
/** Workers a pass over the agents uses. */
int sw__pass_threads(const struct sw_world *w);

/* grid.c */
/** Entries a grid query's result buffer has beyond one per agent (the vectorised scan stores 16
 * at a time). */
#define SW_GRID_SLACK 16

/* prim_grid.c */
/** Sizes and carves (sw_arena) the primitive index of w, when w gets one (sets its layout: x0,
 * y0, cell, nx, ny, hide), and meas.touch with it. */
void sw__prim_grid_layout(struct sw_world *w, sw_arena *a);
/** Fills the index laid out (the cells' primitives, the obstacles' boxes) and turns it on;
 * SW_ENOMEM when the obstacles' box grid (geom/bucket.c, its own allocations) cannot be made,
 * SW_EUSAGE should its entries ever outnumber the layout's count (a bug, not an input). */
int sw__prim_grid_build(struct sw_world *w);
/** Frees the obstacles' box grid. */
void sw__prim_grid_free(struct sw_world *w);
/** The primitives agent i of m at p may perceive or be hidden by (every moving one too), in
 * increasing index order, into *out (wk's buffer); returns their number.  Reads only the index
 * and the model, writes only wk. */
int sw__prim_grid_query(const sw_prim_index *pg, const sw_model *m, sw_worker *wk, int i, sw_vec2 p,
			const int **out);
/** The obstacles of m (ascending, in wk's primitive query buffer *out) whose boxes come within d
 * of p, with every moving obstacle: an obstacle left out has a clearance above d minus the
 * radius, rounding included.  -1 when the index is off or refuses (p or d not finite, or d too
 * large): the caller then loops over every obstacle.  Reads only the index and the model,
 * writes only wk. */
int sw__obstacles_near(const sw_prim_index *pg, const sw_model *m, sw_worker *wk, sw_vec2 p,
		       double d, const int **out);
/** The clearance of agent i of m at p (radius r) from the nearest obstacle at time t (the guard
 * function clearance()): through the primitive index pg when it is on, else over every
 * obstacle; the same value either way.  Reads only the index and the model, writes only wk. */
double sw__nearest_clearance(const sw_prim_index *pg, const sw_model *m, sw_worker *wk, int i,
			     double t, sw_vec2 p, double r);
/* navigate.c: 1 when a disc of radius r moved from p to q touches no static obstacle primitive
 * of m; through w's primitive index when it has one (w NULL: the loop over every primitive, the
 * same answer). */
int sw__clear_sight(const struct sw_world *w, const sw_model *m, sw_vec2 p, sw_vec2 q, double r);
/* rate.c: the largest speed of any obstacle's scripted motion (0 when none moves), the rate
 * bound of clearance() beyond the agent's own speed; kept in the world (pg.speed_max). */
double sw__obstacle_speed_max(const sw_model *m);

/* perceive.c */
/* The situation of agent i into buf (capacity cap); the grid queries use wk's buffers.  The
 * percepts of primitives (id >= 0) come first, then those of agents (step.c's crowd sensing
 * relies on it). */
int sw__perceive(const struct sw_world *w, sw_worker *wk, int i, double t, const double *y,
		 double wall_near, sw_situation *s, sw_percept *buf, int cap);
/** How many of the first n percepts of s are primitives' (they lead: sw__perceive). */
static inline int sw__prim_percepts(const sw_situation *s, int n)
{
	int k = 0;
	while (k < n && s->obs[k].id >= 0)
		k++;
	return k;
}
double sw__wall_near(const sw_steer_def *def);
/** sw__perceive into wk's percept buffer (the scratch) from entry `used` on, grown when full;
 * returns the number of percepts, or -1 when out of memory.  With shared != 0 the buffer holds
 * percepts that others still read (entries before `used`, or situations pointing into it): it is
 * not reallocated, and -2 is returned (*s and the rest of the buffer overwritten, nothing
 * perceived) when the rest is too small. */
int sw__perceive_from(const struct sw_world *w, sw_worker *wk, int i, double t, const double *y,
		      double wall_near, sw_situation *s, int used, int shared);
/** sw__perceive into wk's percept buffer, grown when full; returns the number of percepts, or -1
 * when out of memory.  Inline, the usual case a direct call (a layer of calls and spills less an
 * agent and step); when the buffer is full, sw__perceive_from grows it and perceives again. */
static inline int sw__perceive_grow(const struct sw_world *w, sw_worker *wk, int i, double t,
				    const double *y, double wall_near, sw_situation *s)
{
	int n = sw__perceive(w, wk, i, t, y, wall_near, s, wk->scratch, wk->cap);
	return n < wk->cap ? n : sw__perceive_from(w, wk, i, t, y, wall_near, s, 0, 0);
}
/** Steering definition agent i uses in mode `mode` (plain-law agents: their law).  Inline: an
 * agent's step asks for it about five times. */
static inline const sw_steer_def *sw__steer_of(const struct sw_world *w, int i, int mode)
{
	return &w->agent.steer[w->agent.steer_first[i] + (w->unit.aut[i] ? mode : 0)];
}
/** Position of target k at time t. */
sw_vec2 sw__target_at(const struct sw_world *w, int k, double t);
/** Position of agent i's current steering target at time t; returns 0 when it has none. */
int sw__target_pos(const struct sw_world *w, int i, double t, sw_vec2 *out);

/* grid.c */
/** Sizes and carves (sw_arena) w->grid for w's agents (off when perception of agents is off,
 * unbounded, or there are fewer than two agents); after sw__space3_layout (3-D: heights). */
void sw__grid_layout(struct sw_world *w, sw_arena *a);
/** Sorts n distinct indices into increasing order (the grids' results). */
void sw__sort_indices(int *a, int n);
/** Bins w's snapshot positions into g (w->grid; call after every snapshot, serially), whose box
 * (x0, x1, y0, y1: least and greatest coordinates, NaN ignored) is `box`: writes only g and
 * key[0, n) (scratch, e.g. the serial worker's found). */
void sw__grid_build(sw_agent_grid *g, const struct sw_world *w, const double box[4], int *key);
/** Agents (other than i) whose snapshot centre may lie within `reach` of p (in 3-D of the height
 * wk->grid_qz unless NAN), in increasing index order, into *out (wk's buffer); returns their
 * number.  Reads only the grid, writes only wk. */
int sw__grid_query(const sw_agent_grid *g, sw_worker *wk, int i, sw_vec2 p, double reach,
		   int **out);
/** The same agents in the grid's order (for counts, which do not depend on it). */
int sw__grid_query_any(const sw_agent_grid *g, sw_worker *wk, int i, sw_vec2 p, double reach,
		       int **out);

/* navigate.c */
/** steer_field entry of a law with field="auto" (sw__field_of). */
#define SW__FIELD_AUTO (-2)
/** The field a steering definition's field name selects in m: its index, SW__FIELD_AUTO, or -1
 * (none, or "auto" without a navigation field or routes). */
int sw__field_of(const sw_model *m, const char *name);
/** Sizes and carves (sw_arena) w->nav: the entries of the agent.n_steer steering definitions
 * when some of them steers by a field (fields), the model's fields, the routes when one steers
 * by field="auto" (autos) and the model declares routes. */
void sw__fields_layout(struct sw_world *w, sw_arena *a, int fields, int autos);
/** Resolves the fields named by w->agent.steer, builds those the model has not prepared and the
 * routes' grid. */
int sw__fields_setup(struct sw_world *w, sw_diag *diag);
/** Frees what sw__fields_setup built, and the routes' corners. */
void sw__fields_free(struct sw_world *w);

/* An agent's planned route (<routes>): the corners of a shortest route from where it was planned
 * to its target, the last being the target; the agent steers at corner `next`. */
typedef struct sw_route {
	int tgt;        /* target the route leads to, -1 none */
	int next;       /* corner steered at */
	int n, cap;     /* corners; n = 0: no route found (steer at the target) */
	double t_plan;  /* when it was planned, s */
	sw_vec2 from;   /* where it was planned */
	sw_vec2 anchor; /* where the agent last was SW_ROUTE_MOVED m from the anchor before */
	double t_anchor; /* when, s: SW_ROUTE_STALL s later it has stalled */
	double t_seen;  /* when the route was last followed, s (a pause restarts the anchor) */
	sw_vec2 *pts;
} sw_route;

/* Step 4, after the target is picked: plans agent i's route when its target changed, or again
 * (no earlier than SW_ROUTE_REPLAN s after the last plan) when its corner is out of sight and
 * it is SW_ROUTE_MOVED m from where the plan was made (to that corner when it is within
 * SW_ROUTE_REPAIR m), or round the agents near it when it has stalled, and moves on to the
 * next corner once that is in sight.  Writes only route[i] and the worker's search memory.
 * Returns SW_SUCCESS or SW_ENOMEM. */
int sw__route_update(struct sw_world *w, sw_worker *wk, int i);
/** When agent i's current law steers by a field (and, for a navigation field, the target is not
 * in clear line of sight from p), stores the look-ahead point along the field in *goal and
 * returns 1; else returns 0.  target may be NULL (no target). */
int sw__field_goal(const struct sw_world *w, int i, sw_vec2 p, const sw_vec2 *target,
		   sw_vec2 *goal);

/* integrate.c */
/** Unit u's flow from (t0, y) to t1, y in place; writes unit u's GSL driver and context, and
 * wk's scratch and fault fields. */
int sw__integrate(struct sw_world *w, sw_worker *wk, int u, double t0, double t1, double *y);
/** A margin along unit u's flow at time t (state y; t0: the interval's start), for sw__locate:
 * > 0 exactly where the event holds (a guard is true, an invariant is left, the agent is within
 * its arrival radius); a boundary value that holds is returned as +DBL_MIN. */
typedef double (*sw__margin_fn)(const struct sw_world *w, sw_worker *wk, int u, double t0, double t,
				const double *y, const void *arg);
/** The one event locator (locate.c): the first instant in (t0, t1] where margin is > 0, along
 * u's flow re-integrated from (t0, y0), to run.event_tol, into *tstar (INFINITY: none).  m0, m1:
 * the margin at t0 (<= 0) and t1; rate: a bound on |d margin / dt| over the interval
 * (sw__rate_bound), which makes detection guaranteed, or INFINITY (then only a margin > 0 at t1
 * is located).  strict: a piece event_tol wide where the margin may, but is not seen to, reach
 * zero is not the event (see locate.c).  Returns SW_SUCCESS, an integration failure, SW_ENOMEM, or SW_ENUMERIC when it
 * does not converge or a margin is not finite. */
int sw__locate(struct sw_world *w, sw_worker *wk, int u, double t0, double t1, const double *y0,
	       double m0, double m1, double rate, int strict, sw__margin_fn margin, const void *arg,
	       double *tstar);
/* rate.c */
/** Bound on |d margin / dt| of boolean (or real) expression e of unit u along its flow in its
 * current mode, with planar speed at most v; INFINITY when none is known.  *steady (may be
 * NULL) is set to 0 when the margin may also jump between steps (it reads another agent, seen
 * at its step-start position), else 1. */
double sw__rate_bound(const struct sw_world *w, int u, const sw_expr *e, double v, int *steady);
/** Bound on unit u's planar speed over a step in mode `mode` from state y0 to y1. */
double sw__speed_bound(const struct sw_world *w, int u, int mode, const double *y0,
		       const double *y1);
int sw__agent_flow(double t, const double y[], double dydt[], void *params);
int sw__agent_jac(double t, const double y[], double *dfdy, double dfdt[], void *params);

/* host.c: expressions of automaton units */
/** Fills wk->slots for unit u at time t with state y; returns the slot array. */
double *sw__slots(const struct sw_world *w, sw_worker *wk, int u, double t, const double *y);
/** Evaluates e (value) / its margin for unit u at (t, y). */
double sw__eval(const struct sw_world *w, sw_worker *wk, int u, double t, const double *y,
		const sw_expr *e);
double sw__margin(const struct sw_world *w, sw_worker *wk, int u, double t, const double *y,
		  const sw_expr *e);
/** sw__eval and sw__margin with the slot array sw__slots(w, wk, u, t, y) returned (several
 * expressions of one unit at one instant share it). */
double sw__eval_in(const struct sw_world *w, sw_worker *wk, int u, double t, const double *y,
		   const double *slots, const sw_expr *e);
double sw__margin_in(const struct sw_world *w, sw_worker *wk, int u, double t, const double *y,
		     const double *slots, const sw_expr *e);
/** Mode of signal s at time t within the current step (w->sig). */
int sw__signal_mode(const sw_signals *sig, int s, double t);
/** Records every agent's position at w's time into h (w->hist; at the end of a step, for
 * progress()): writes only h. */
void sw__history_push(sw_history *h, const struct sw_world *w);

/* steerbench.c: SteerBench metrics, updated once per agent and step from the step-end state */
/** Sizes and carves (sw_arena) the accumulators, when the run asks for SteerBench. */
void sw__steerbench_layout(struct sw_world *w, sw_arena *a);
/** Starts every agent's first frame from its state at t = 0. */
void sw__steerbench_start(struct sw_world *w);
/** Adds the step just ended to agent i's sums sb (w->meas.sb; from the step's sensing pass):
 * reads w (agent i's state, the snapshot, the grid), writes only sb's entries of agent i and
 * wk; SW_ENOMEM when its contact list cannot grow. */
int sw__steerbench_agent(struct sw_steerbench *sb, const struct sw_world *w, sw_worker *wk,
			 int i);
/** Agent i's clearance c to obstacle j of m was just measured (only when SteerBench is on):
 * counts in sb a SteerBench collision episode when the overlap becomes deeper than its 0.001 m
 * threshold.  Writes only sb's entries of agent i. */
void sw__steerbench_obstacle(struct sw_steerbench *sb, const sw_model *m, int i, int j,
			     double c);
/** Whether agent i is done: in a terminal mode of its automaton (no law, no transition out) or,
 * for a plain-law agent that stops at its target, arrived. */
int sw__agent_done(const struct sw_world *w, int i);
/** Frees the contact lists (they grow; the rest is in the world's block). */
void sw__steerbench_free(struct sw_world *w);
/** The accumulators as bytes (malloc'ed) for a checkpoint, and back (SW_EINPUT when they do not
 * fit this world). */
int sw__steerbench_save(const struct sw_world *w, void **out, size_t *len);
int sw__steerbench_restore(struct sw_world *w, const void *data, size_t len);
/** Agent i was moved by (dx, dy) and turned by dphi at a jump (resets): the current frame's
 * chords start from the moved point in sb, so the move is neither walked nor turned. */
void sw__steerbench_moved(struct sw_steerbench *sb, int i, double dx, double dy, double dphi);

/* hybrid.c */
/** Advances automaton unit u over [t0, t1] with exact transition instants. */
int sw__hybrid_advance(struct sw_world *w, sw_worker *wk, int u, double t0, double t1,
		       sw_diag *diag);
/** Enters the initial mode of unit u at time t (fires transitions enabled at t). */
int sw__hybrid_start(struct sw_world *w, sw_worker *wk, int u, double t, sw_diag *diag);
/** Sizes and carves (sw_arena) w->unit.carry (when the world has automaton units) and
 * w->agent.jumped (when a jump may reset an agent's position). */
void sw__hybrid_layout(struct sw_world *w, sw_arena *a);
/** Marks every unit's carried bounds as none. */
void sw__hybrid_init(struct sw_world *w);
/** Sets the steering target of agent i for its current mode at time t. */
void sw__retarget(struct sw_world *w, int i, double t);

/* space3.c: three dimensions (docs/models.md section 1.5) */
/** In a 3-D model (m->dim3): marks the world 3-D, sizes the workers' 3-D percepts and sizes and
 * carves (sw_arena) its snapshot. */
void sw__space3_layout(struct sw_world *w, sw_arena *a);
/** Agent i's initial height, heading vector (heading, pitch) and Omega = 0. */
void sw__start3(struct sw_world *w, int i);
/** Copies (z, u) of agents [lo, hi) of w into s3->snap (s3: w->space3): writes only their
 * entries of s3->snap. */
void sw__snapshot3(sw_space3 *s3, const struct sw_world *w, int lo, int hi);
/** The 3-D situation of agent i at state y and time t into wk->scratch3; returns the number of
 * percepts or -1 when out of memory. */
int sw__perceive3(const struct sw_world *w, sw_worker *wk, int i, double t, const double *y,
		  sw_situation3 *s);
/** Step 4 of step.c for a 3-D agent after its target was picked: perceives, relaxes the GLM
 * weights (8), writes the commanded speed, measures agent clearances. */
int sw__sense3(struct sw_world *w, sw_worker *wk, int i, const sw_steer_def *def, int moving);
/** The steering part of the flow of 3-D agent u (all of dydt[0, dim) is written). */
int sw__flow3(const struct sw_world *w, sw_worker *wk, int u, double t, const double *y,
	      double *dydt);
/** Explicit Euler for 3-D agent u over [t0, t1] (the heading rotated, see space3.c). */
int sw__euler3(const struct sw_world *w, sw_worker *wk, int u, double t0, double t1, double *y);
/** Projects the heading back to |u| = 1 and sets heading = its continuous azimuth. */
void sw__fix3(const struct sw_world *w, int u, double *y);
/** Heading noise of eq. (1) in 3-D: isotropic increment of standard deviation sd. */
void sw__noise3(const struct sw_world *w, int u, gsl_rng *r, double sd, double *y);
/** 3-D distance from agent i at state y to target k at time t. */
double sw__target_dist3(const struct sw_world *w, int i, int k, double t, const double *y);
/** sw__closest_target in 3-D. */
int sw__closest_target3(const struct sw_world *w, int i, double t);
/** 3-D chord from agent u's snapshot position to y. */
double sw__chord3(const struct sw_world *w, int u, const double *y);
/** Behaviour functions that measure in 3-D (dist of a target or agent, neighbors); returns 1 and
 * sets *out when it handled func. */
int sw__host3(const struct sw_world *w, sw_worker *wk, int u, double t, const double *y, int func,
	      int kind, int idx, const double *args, double *out);

/* Describes into buf why unit u's step on worker wk failed with status st: step-size underflow
 * (with the time the integrator reached), a flow that was not finite (naming the variable), a
 * state entry that became non-finite in y (the state after the failed step, may be NULL), or the
 * status. */
void sw__fault_describe(const struct sw_world *w, const sw_worker *wk, int u, int st,
			const double *y, char *buf, size_t n);

#endif
