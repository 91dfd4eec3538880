/* swerve/steer.h - the built-in steering laws of docs/models.md.
 *
 * Each law is a native right-hand side over the agent state vector (layout SW_STATE_*) given a
 * perceived situation (agent pose, target, obstacles as sw_percept).  The functions are pure: no
 * allocation, no global state, safe to call from any thread.  Two exceptions allocate (and free)
 * GSL workspaces: sw_glm_fixed_points (an eigensolver) and the rare bistable branch of
 * sw_glm_relax (an ODE driver).  Equation numbers (n) refer to docs/models.md. */
#ifndef SWERVE_STEER_H
#define SWERVE_STEER_H

#include "swerve/api.h"

#include "swerve/expr.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Layout of an agent's continuous state vector (same for every law; unused entries have zero
 * derivative). */
enum {
	SW_STATE_X = 0,  /**< position x, m */
	SW_STATE_Y = 1,  /**< position y, m */
	SW_STATE_PHI = 2, /**< heading from +x, rad (not wrapped during integration) */
	SW_STATE_OMEGA = 3, /**< turning rate, rad/s (FW, or GLM with agility lag) */
	SW_STATE_V = 4,  /**< forward speed, m/s */
	SW_STATE_WTAR = 5, /**< GLM target weight w_tar, eq. (8) */
	SW_STATE_WOBS = 6, /**< GLM obstacle weight w_obs, eq. (8) */
	SW_STATE_DIM = 7 /**< number of entries */
};

/** The built-in laws.  Each has a descriptor, its row of the laws' table in src/steer/params.c,
 * which the rest of the library reads instead of switching on the law: a new law is a value
 * here, its parameter struct and member of sw_steer_def, its code and its row in src/steer
 * (docs/architecture.md, "Adding things"). */
typedef enum {
	SW_LAW_GLM = 0, /**< Goldenstein-Large-Metaxas heading dynamics, eqs. (1)-(12) */
	SW_LAW_FW = 1,  /**< Fajen-Warren second-order steering, eq. (13) */
	SW_LAW_PF = 2,  /**< Khatib potential field, direction only (section 3) */
	SW_LAW_WALL = 3, /**< wall following around the closest obstacle (escape behaviour) */
	SW_LAW_TTC = 4, /**< Karamouzas-Skinner-Guy anticipatory time-to-collision law (2014),
			     second order in the velocity (steer/ttc.c) */
	SW_LAW_SF = 5,  /**< Helbing-Molnar social force (1995) with the body force and sliding
			     friction of Helbing-Farkas-Vicsek (2000), second order (steer/sf.c) */
	SW_LAW_CSM = 6  /**< Tordeux-Chraibi-Seyfried collision-free speed model (2016), first
			     order: speed from the spacing ahead, direction from repulsion
			     (steer/csm.c) */
} sw_law;

/** How the GLM competition weights (8) are handled. */
typedef enum {
	SW_WEIGHTS_RELAX = 0,   /**< relaxed to the stable fixed point every step, warm-started (default) */
	SW_WEIGHTS_RESTART = 1, /**< relaxed every step from near zero (the publications' algorithm) */
	SW_WEIGHTS_DYNAMIC = 2  /**< integrated as state with time scale eps: w' = rhs(8) / eps */
} sw_weights_mode;

/** GLM forward-speed law (section 1.3). */
typedef enum {
	SW_SPEED_T2C = 0,      /**< constant time to contact, eq. (12) (default) */
	SW_SPEED_CONSTANT = 1, /**< v = v_max */
	SW_SPEED_CONTACT = 2   /**< swerve's: v = s / t2c, s the distance along the heading to the
				    first obstacle grown by radius + margin on the agent's course */
} sw_speed_mode;

/** Parameters of the GLM law.  Obtain defaults from sw_default_glm_params(). */
typedef struct sw_glm_params {
	double a;        /**< target attractor strength a, eq. (2); default 1 */
	double d0;       /**< obstacle distance decay d0, eq. (7), m; default 1.0 */
	double delta;    /**< window safety margin delta, eq. (5), rad; default 0.8 */
	double margin;   /**< personal-space margin m added to dpsi, m; negative = use d1; default -1 */
	double r_floor;  /**< floor of the clearance r_i, eq. (7), m; default 1e-3 */
	double wall_near; /**< a wall is seen at its closest point when clearance < wall_near * half
			   length, else at its midpoint; default 1 */
	double a1_scale; /**< a1 = a1_scale * (1 - a2), eq. (9); default 0.4 */
	double g21;      /**< competition g21, eq. (9); default 0.05 */
	double c1;       /**< fixed-point detector sharpness c1, eq. (10); default 2 */
	double c2;       /**< competition sharpness c2, eq. (10); default 2 */
	sw_weights_mode weights; /**< weight handling; default SW_WEIGHTS_RELAX */
	double eps;      /**< time scale of dynamic weights, s; default 0.05 */
	double w_floor;  /**< floor of warm-started weights; default 1e-3 */
	double w_restart; /**< starting value of both weights in SW_WEIGHTS_RESTART; default 1e-2 */
	sw_speed_mode speed; /**< forward-speed law; default SW_SPEED_T2C */
	double v_max;    /**< maximum forward speed, m/s; default 1.0 */
	double d1;       /**< safety distance d1 of eq. (12), m; default 0.5 */
	double t2c;      /**< time to contact of eq. (12), s; default 1.0 */
	int arrive;      /**< 1: cap v at dist(T) / t2c (arrival decision, section 1.3); default 0 */
	double sigma_phi; /**< heading noise intensity sigma_phi of eq. (1), rad/sqrt(s); default 0.02 */
	double cohesion;  /**< flocking: strength of an attractor toward the centroid of the perceived
			     agents, like eq. (2), 1/s; default 0 (off) */
	double alignment; /**< flocking: strength of an attractor toward the mean heading of the
			     perceived agents, like eq. (2), 1/s; default 0 (off) */
} sw_glm_params;

/** Parameters of the FW law, eq. (13), with the published fit as defaults. */
typedef struct sw_fw_params {
	double b;   /**< damping, 1/s; default 3.25 */
	double kg;  /**< goal stiffness, 1/s^2; default 7.50 */
	double c1;  /**< goal distance decay, 1/m; default 0.40 */
	double c2;  /**< goal floor; default 0.40 */
	double ko;  /**< obstacle stiffness, 1/s^2; default 198.0 */
	double c3;  /**< obstacle angular decay, 1/rad; default 6.5 */
	double c4;  /**< obstacle distance decay ("risk"), 1/m; default 0.8 */
	double speed; /**< constant forward speed V, m/s; default 1.0 */
} sw_fw_params;

/** Parameters of the potential-field baseline (section 3). */
typedef struct sw_pf_params {
	double kp;    /**< goal gain kp, 1/s^2 (only the direction is used); default 1 */
	double eta;   /**< obstacle gain eta, m^3/s^2; default 1 */
	double rho0;  /**< obstacle influence distance rho0, m; default 1.0 */
	double r_floor; /**< floor of the clearance rho, m; default 1e-3 */
	double speed; /**< constant speed, m/s; default 0.5 */
} sw_pf_params;

/** Parameters of the wall-following law (not in the publications; the escape mode of
 * seek-escape uses it until harmonic navigation fields exist).  With the closest perceived
 * obstacle point in direction psi_c at clearance r, the desired heading keeps that point on one
 * side at the chosen distance:
 *     psi_d = psi_c + side (pi/2 - clamp(gain (r - distance), -pi/4, pi/4))
 *     phi'  = -a sin(phi - psi_d),   v = speed
 * (side = +1 keeps the wall on the agent's right).  With nothing perceived it heads for the
 * target (psi_d = psi_T) or keeps its heading. */
typedef struct sw_wall_params {
	double a;        /**< heading stiffness, 1/s; default 2 */
	int side;        /**< +1: wall on the right, -1: on the left; default +1 */
	double distance; /**< clearance kept to the wall, m; default 0.6 */
	double gain;     /**< heading correction per metre of clearance error, rad/m; default 1.5 */
	double speed;    /**< forward speed, m/s; default 0.8 */
} sw_wall_params;

/** Parameters of the anticipatory time-to-collision law of Karamouzas, Skinner & Guy,
 * "Universal power law governing pedestrian interactions", Phys. Rev. Lett. 113, 238701 (2014)
 * (steer/ttc.c, docs/models.md).  The law acts on the velocity vector u = v e(phi):
 *     u' = (v_pref e_goal - u) / xi + sum_j F_j,   F_j = -grad_x E(tau_j),
 *     E(tau) = k tau^-2 exp(-tau / tau0)
 * with tau_j the projected time to collision with percept j.  Energies and forces are per unit
 * mass (forces are accelerations). */
typedef struct sw_ttc_params {
	double k;      /**< energy scale k, m^2 (E in m^2/s^2 per unit mass); default 1.5 */
	double tau0;   /**< interaction time horizon tau0, s; default 3 */
	double xi;     /**< relaxation time of the goal force xi, s; default 0.54 */
	double v_pref; /**< preferred speed, m/s; default 1.3 */
	double range;  /**< neighbour range: percepts with a larger clearance are ignored, m;
			    default 10 */
	double f_max;  /**< cap on each interaction force, m/s^2 (not in the paper: tau -> 0 makes
			    F unbounded; also the push-out force of an overlap); default 20 */
	double v_min;  /**< speed below which the heading turns as at v_min: phi' = a_perp /
			    max(v, v_min), m/s; default 0.1 */
	double bias;   /**< the goal direction rotated by this angle, rad, counter-clockwise
			    positive (not in the paper: a walking convention, e.g. -pi/3 to pass
			    a jam on its right; docs/models.md); default 0 */
	double t_arrive; /**< arrival: the preferred speed is min(v_pref, dist(T) / t_arrive), s;
			      0 = no slowing down (the paper's goal force); default 0 */
	double t_contact; /**< walls are hard: the position closes on a static obstacle at most at
			       clearance / t_contact (not in the paper; docs/models.md), s; 0 = off;
			       default 0.1 */
} sw_ttc_params;

/** Parameters of the social force law: Helbing & Molnar, "Social force model for pedestrian
 * dynamics", Phys. Rev. E 51, 4282 (1995), with the body force and sliding friction of Helbing,
 * Farkas & Vicsek, "Simulating dynamical features of escape panic", Nature 407, 487 (2000)
 * (steer/sf.c, docs/models.md).  With u the agent's velocity, e0 the goal direction and, for each
 * percept j, n its unit normal (from it to the agent), t = (-n_y, n_x), d the centre distance, r
 * the sum of radii and g(z) = max(z, 0):
 *     m u' = m (v0 e0 - u) / tau + sum_j f_j,
 *     f_j = [w A exp((r - d) / B) + k g(r - d)] n + kappa g(r - d) ((u_j - u).t) t
 * (u_j = 0 for obstacles; w the anisotropy weight, 1 in the 2000 paper). */
typedef struct sw_sf_params {
	double tau;    /**< relaxation time of the driving force, s; default 0.5 */
	double v0;     /**< desired speed, m/s; default 1.34 */
	double a;      /**< social repulsion strength A, N; default 2000 */
	double b;      /**< social repulsion range B, m; default 0.08 */
	double k;      /**< body force coefficient k, kg/s^2; default 1.2e5 */
	double kappa;  /**< sliding friction coefficient kappa, kg/(m s); default 2.4e5 */
	double mass;   /**< the agent's mass m, kg; default 80 */
	double lambda; /**< anisotropy lambda in [0, 1]: the social term is weighted by
			    w = lambda + (1 - lambda) (1 + cos phi) / 2, phi the angle between the
			    direction of motion and the direction to the percept; default 1
			    (isotropic, as in the 2000 paper) */
	double range;  /**< neighbour range: percepts with a larger clearance are ignored, m;
			    default 3 (the social force there is below 1e-13 N) */
	double v_min;  /**< speed below which the heading turns as at v_min: phi' = a_perp / v
			    with |v| floored at v_min, m/s; default 0.01 */
} sw_sf_params;

/** Parameters of the collision-free speed model of Tordeux, Chraibi & Seyfried, "Collision-free
 * speed model for pedestrian dynamics", Traffic and Granular Flow '15 (2016), arXiv:1512.05597,
 * with walls as in the generalised model (Xu et al., Physica A 535, 2019, arXiv:1908.10304)
 * (steer/csm.c, docs/models.md section 9).  First order: x' = V(s) e with
 *     V(s) = min(v0, max(0, s / T)),
 *     e = u(e0 + sum_j a exp(-s_j / D) n_j + sum_walls a_wall exp(-s_w / D_wall) n_w),
 * s the smallest gap to a body ahead on the agent's course, s_j the gap to percept j, n_j the
 * unit vector from it to the agent, u(z) = z / |z|. */
typedef struct sw_csm_params {
	double v0;       /**< free (maximum) speed, m/s; default 1.34 */
	double time_gap; /**< time gap T of the speed model, s; default 1 */
	double a;        /**< repulsion strength of agents and disc obstacles; default 5 */
	double d;        /**< repulsion range D of agents and disc obstacles, m; default 0.1 */
	double a_wall;   /**< repulsion strength of walls; default 5 */
	double d_wall;   /**< repulsion range of walls, m; default 0.02 */
	double range;    /**< neighbour range: percepts with a larger clearance are ignored, m;
			      default 2 */
	double t_arrive; /**< arrival: the speed is at most dist(T) / t_arrive, s; 0 = off (the
			      publication's law); default 0 */
	double t_contact; /**< walls are hard: the position closes on a static obstacle at most at
			       clearance / t_contact (swerve's, as for <ttc>), s; 0 = off;
			       default 0.1 */
} sw_csm_params;

/** How a personality trait is drawn per agent when a world is created ("personality drawn per
 * agent from distributions", docs/models.md section 1.4). */
typedef enum {
	SW_TRAIT_FIXED = 0,   /**< the trait's value as given */
	SW_TRAIT_UNIFORM = 1, /**< uniform on [p1, p2] (0 <= p1 <= p2 <= 1) */
	SW_TRAIT_NORMAL = 2   /**< normal with mean p1 and standard deviation p2, clamped to [0, 1] */
} sw_trait_kind;

/** A trait's distribution. */
typedef struct sw_trait_dist {
	sw_trait_kind kind;
	double p1, p2;
} sw_trait_dist;

/** Personality traits (section 1.4), each in [0, 1]; a trait acts only when its flag is set. */
typedef struct sw_personality {
	int has_agility;  /**< 1: heading rate lags through omega' = lambda_k (phidot~ - omega) */
	double agility;   /**< k in [0, 1]; 1 = most agile; default 0.5 */
	double lambda_k_min; /**< lambda_k at k = 0, 1/s; default 0.5 */
	double lambda_k_max; /**< lambda_k at k = 1, 1/s; default 20 */
	int has_mass;     /**< 1: speed lags through v' = lambda_m (v~ - v) */
	double mass;      /**< in [0, 1]; 1 = heaviest (slowest response); default 0.5 */
	double lambda_m_min; /**< lambda_m at mass = 1, 1/s; default 0.5 */
	double lambda_m_max; /**< lambda_m at mass = 0, 1/s; default 20 */
	int has_courage;  /**< 1: courage sets d0 and d1 from the law's d0 (d0_base) */
	double courage;   /**< co in [0, 1]; default 0.5 */
	double d0_floor;  /**< smallest d0 courage may produce, m; default 0.05 */
	sw_trait_dist agility_dist, mass_dist, courage_dist; /**< per-agent draws (default fixed);
				 the simulator replaces agility, mass and courage by draws from the
				 agent's own stream when a world is created */
} sw_personality;

/** Longest field name in a steer def, including the terminating NUL. */
#define SW_FIELD_NAME_MAX 64

/** A law with its parameters: what a mode (or, before automata, an agent) runs. */
typedef struct sw_steer_def {
	sw_law law;       /**< which law */
	sw_glm_params glm; /**< used when law == SW_LAW_GLM */
	sw_fw_params fw;   /**< used when law == SW_LAW_FW */
	sw_pf_params pf;   /**< used when law == SW_LAW_PF */
	sw_wall_params wall; /**< used when law == SW_LAW_WALL */
	sw_ttc_params ttc; /**< used when law == SW_LAW_TTC */
	sw_sf_params sf;   /**< used when law == SW_LAW_SF */
	sw_csm_params csm; /**< used when law == SW_LAW_CSM */
	char field[SW_FIELD_NAME_MAX]; /**< name of a world field (plan.h) giving the goal
					    direction psi_T; "" = none (default) */
	double lookahead; /**< with a field: distance along it to the point handed to the law as
			       its target, m (> 0); default 2 */
	int avoid_corners; /**< with a navigation field: 1 = the look-ahead point is the farthest
				point of the route within `lookahead` that the agent's disc, grown
				to the field's clearance, reaches in a straight line (the chord
				never cuts a corner through an obstacle); 0 = the point `lookahead`
				along (default) */
} sw_steer_def;

/** One perceived obstacle, relative to the agent (filled by the simulator's perception). */
typedef struct sw_percept {
	double dx, dy;    /**< vector from the agent centre to the obstacle's reference point, m */
	double dist;      /**< hypot(dx, dy), m */
	double rho;       /**< obstacle radius about the reference point, m: a disc's radius; 0 for a
			     wall seen at its closest point; dist * sin(half subtended angle) for a wall
			     seen at its midpoint */
	double clearance; /**< surface-to-surface gap between agent disc and obstacle, m (< 0 overlap) */
	int id;           /**< obstacle primitive index, or -1 - j for agent j */
	double hx, hy;    /**< another agent's heading as a unit vector (for alignment); 0, 0 for
			     obstacles and when no law of the world needs it (last, so that
			     positional initialisers of the fields above need not name them) */
} sw_percept;

/** What an agent perceives at one instant. */
typedef struct sw_situation {
	double x, y;       /**< agent position, m */
	double radius;     /**< agent radius rho_a, m */
	int has_target;    /**< 1 when a target is bound */
	double tx, ty;     /**< target position, m (valid when has_target) */
	int n_obs;         /**< number of percepts */
	const sw_percept *obs; /**< percepts, n_obs of them (may be NULL when n_obs == 0); then
				    obs[n_obs .. n_obs + n_pass): agents this agent walks through
				    (a ghost mode, either side's), measured but not steered round */
	const double *agent_v; /**< velocities of the agents at the snapshot, (vx, vy) of agent j
				    at [2 j], m/s, for the time-to-collision law (percept id -1 - j);
				    NULL (every agent at rest) when no law of the world needs them.
				    A pointer here rather than a field of every percept: percepts
				    stay 64 bytes for the laws that do not need it */
	int n_pass;        /**< agents perceived but walked through, after the n_obs percepts */
} sw_situation;

/** Intermediate quantities of one GLM evaluation (for weights, outputs, analysis and tests). */
typedef struct sw_glm_terms {
	double psi_t;    /**< target direction psi_T, rad */
	double f_tar, df_tar; /**< eq. (2) and its derivative in phi, with the flocking attractors
				 (cohesion, alignment) added: they belong to the attractor class */
	double f_obs, df_obs; /**< eq. (3) summed, and its derivative in phi */
	double sum_d, sum_w;  /**< sum_i D_i (7) and sum_i W_i (5) */
	double a1, a2, g12, g21; /**< competition parameters, eqs. (9)-(10) */
	double phidot;   /**< |w_tar| f_tar + |w_obs| f_obs, eq. (1) without noise, rad/s */
	double v_cmd;    /**< commanded speed, eq. (12) or v_max, m/s */
} sw_glm_terms;

/** A fixed point of the two-weight competition system (8) with its Jacobian eigenvalues. */
typedef struct sw_fixed_point {
	double w_tar, w_obs; /**< location (non-negative representative) */
	double eig_re[2];    /**< real parts of the Jacobian eigenvalues */
	double eig_im[2];    /**< imaginary parts */
	int stable;          /**< 1 when both real parts are negative */
} sw_fixed_point;

/** Defaults (the one place where they live). */
SW_API sw_glm_params sw_default_glm_params(void);
SW_API sw_fw_params sw_default_fw_params(void);
SW_API sw_pf_params sw_default_pf_params(void);
SW_API sw_wall_params sw_default_wall_params(void);
SW_API sw_ttc_params sw_default_ttc_params(void);
SW_API sw_sf_params sw_default_sf_params(void);
SW_API sw_csm_params sw_default_csm_params(void);
SW_API sw_personality sw_default_personality(void);
/** A GLM steer def with default parameters. */
SW_API sw_steer_def sw_default_steer_def(void);

/** 1 when two steer defs behave the same: the same law with the same parameters of that law
 * (the other laws' parameters are ignored), the same field and look-ahead. */
SW_API int sw_steer_def_equal(const sw_steer_def *p, const sw_steer_def *q);

/** Returns the static name of a law ("glm", "fw", "potential", "wall", "ttc", "sf", "csm"). */
SW_API const char *sw_law_name(sw_law law);

/* --- GLM building blocks ------------------------------------------------------------------ */

/** Target attractor f_tar = -a sin(phi - psi_T), eq. (2); *dfdphi (may be NULL) = its slope. */
SW_API double sw_glm_target(double a, double phi, double psi_t, double *dfdphi);

/** One obstacle repeller f_obs_i = R W D, eqs. (3)-(7), for heading error e = wrap(phi - psi_i),
 * half-width dpsi (rad, in (0, pi/2]), clearance r (m, already floored), delta and d0.
 * *dfdphi, *w, *d (each may be NULL) receive d f_obs_i / d phi, W_i and D_i. */
SW_API double sw_glm_repeller(double e, double dpsi, double r, double delta, double d0,
			      double *dfdphi, double *w, double *d);

/** dpsi_i = asin(min(1, (rho + rho_a + margin) / dist)) (decision in section 1.1). */
SW_API double sw_glm_dpsi(double rho, double rho_a, double margin, double dist);

/** Competition parameters a1, a2, g12, g21 from sum D, sum W and the fields, eqs. (9)-(10). */
SW_API void sw_glm_competition(const sw_glm_params *p, double f_tar, double df_tar, double f_obs,
			       double df_obs, double sum_d, double sum_w, double *a1, double *a2,
			       double *g12, double *g21);

/** Right-hand side of (8): (w_tar', w_obs') for weights w[2]. */
SW_API void sw_glm_weights_rhs(double a1, double a2, double g12, double g21, const double w[2],
			       double dw[2]);

/** The fixed points of (8) with non-negative coordinates (up to 4), with their Jacobian
 * eigenvalues computed by GSL; *n receives the count.  Returns SW_SUCCESS or a GSL error. */
SW_API int sw_glm_fixed_points(double a1, double a2, double g12, double g21, sw_fixed_point fp[4],
			       int *n);

/** Relaxes the weights w[2] (in: warm start, out: the stable fixed point reached from it) for
 * fixed parameters, robustly for stiff parameter sets (see competition.c).  Returns SW_SUCCESS or
 * an error code when the relaxation fails. */
SW_API int sw_glm_relax(double a1, double a2, double g12, double g21, double w[2]);

/** A reusable workspace for sw_glm_relax_ws(): the GSL driver of the bistable branch, allocated
 * once instead of at every call that integrates. */
typedef struct sw_relax_ws sw_relax_ws;

/** Allocates a workspace (NULL when out of memory). */
SW_API sw_relax_ws *sw_relax_ws_alloc(void);

/** Frees a workspace.  NULL is allowed. */
SW_API void sw_relax_ws_free(sw_relax_ws *ws);

/** sw_glm_relax() with a workspace (ws may be NULL): the same results, bit for bit, without
 * allocating when ws is given. */
SW_API int sw_glm_relax_ws(double a1, double a2, double g12, double g21, double w[2],
			   sw_relax_ws *ws);

/** Evaluates every GLM term at heading phi for the situation, with weights |w_tar|, |w_obs|. */
SW_API void sw_glm_eval(const sw_glm_params *p, const sw_situation *s, double phi, double w_tar,
			double w_obs, sw_glm_terms *out);

/** sw_glm_eval() for a heading given by its cosine and sine, which a caller may already have
 * (they must be those of sw_steer_velocity(1, phi), so that every path computes the same bits);
 * out->psi_t is NAN (not needed by the law; sw_glm_eval() fills it). */
SW_API void sw_glm_eval_cs(const sw_glm_params *p, const sw_situation *s, double cphi, double sphi,
			   double w_tar, double w_obs, sw_glm_terms *out);

/** sw_glm_eval_cs() for n situations at once: out[k] is what sw_glm_eval_cs(p[k], s[k], cphi[k],
 * sphi[k], w_tar, w_obs, &out[k]) gives, bit for bit.  Faster for crowds: the vectorised obstacle
 * loops of several agents run together, so that their long chains of vector calls overlap. */
SW_API void sw_glm_eval_batch(int n, const sw_glm_params *const p[], const sw_situation *const s[],
			      const double cphi[], const double sphi[], double w_tar, double w_obs,
			      sw_glm_terms out[]);

/** Applies personality courage to GLM parameters (section 1.4); other traits act in the rhs. */
SW_API sw_glm_params sw_glm_with_personality(const sw_glm_params *p, const sw_personality *pers);

/* --- k-class competition, eq. (11) --------------------------------------------------------- */

/** Largest number of classes sw_competition_kclass() accepts. */
#define SW_KCLASS_MAX 8

/** A fixed point of the k-class competition system (11) with its Jacobian eigenvalues. */
typedef struct sw_kfixed_point {
	int k;                          /**< number of classes */
	unsigned support;               /**< bit i set when w_i > 0 */
	double w[SW_KCLASS_MAX];        /**< location, w_i >= 0 (entries >= k are 0) */
	double eig_re[SW_KCLASS_MAX];   /**< real parts of the Jacobian eigenvalues, decreasing */
	double eig_im[SW_KCLASS_MAX];   /**< imaginary parts, in the same order */
	int stable;                     /**< 1 when every real part is negative */
} sw_kfixed_point;

/** The fixed points of (11), w_i' = a_i w_i (1 - w_i^2) - sum_{j != i} g_ij w_j^2 w_i, with
 * w_i >= 0, for k classes (1 <= k <= SW_KCLASS_MAX); a[k], g[k*k] row-major (g[i*k + j] = g_ij,
 * diagonal ignored).  Every support S is tried: M_S w_S^2 = a_S (M_ii = a_i, M_ij = g_ij) is
 * solved by LU and kept when every w_S^2 > 0; the empty support gives 0, a single support {i}
 * always gives w_i = 1.  Supports of two or more classes with a singular M_S (a continuum of
 * fixed points) are skipped.  Points are ordered by support bit mask; eigenvalues of the
 * Jacobian J_ii = a_i (1 - 3 w_i^2) - sum_{j != i} g_ij w_j^2, J_ij = -2 g_ij w_i w_j come from
 * gsl_eigen_nonsymm.  At most cap points are stored in fp; *n receives the number found (which
 * may exceed cap; 2^k always suffices).  Returns SW_SUCCESS, SW_EUSAGE (bad k or NULL
 * arguments), SW_ENUMERIC (non-finite parameters), SW_ENOMEM or a GSL error. */
SW_API int sw_competition_kclass(int k, const double *a, const double *g, sw_kfixed_point *fp,
				 int cap, int *n);

/* --- FW and potential field ---------------------------------------------------------------- */

/** phi'' of eq. (13) at heading phi and turning rate phidot. Obstacles are points at the
 * percepts' reference points; d_i is the centre-to-reference distance. */
SW_API double sw_fw_accel(const sw_fw_params *p, const sw_situation *s, double phi, double phidot);

/** Desired heading psi_d of the wall-following law for the situation (see sw_wall_params). */
SW_API double sw_wall_heading(const sw_wall_params *p, const sw_situation *s, double phi);

/** Gradient of the potential U of section 3 at the agent position, into grad[2]. */
SW_API void sw_pf_gradient(const sw_pf_params *p, const sw_situation *s, double grad[2]);

/* --- Time-to-collision law (steer/ttc.c) -------------------------------------------------- */

/** Projected time to collision of two discs with relative position x[2] (m), relative velocity
 * v[2] (m/s) and sum of radii r (m): the smallest root of |x + v t| = r,
 * tau = (b - sqrt(b^2 - a c)) / a with a = v.v, b = -x.v, c = x.x - r^2.  Returns INFINITY when
 * they never collide (a == 0, discriminant <= 0 or tau < 0) and 0 when they overlap (c < 0). */
SW_API double sw_ttc_tau(const double x[2], const double v[2], double r);

/** Interaction energy E(tau) = k tau^-2 exp(-tau / tau0), m^2/s^2 (0 for tau = INFINITY). */
SW_API double sw_ttc_energy(const sw_ttc_params *p, double tau);

/** Interaction force F = -grad_x E(tau(x, v, r)) on the first disc (x is its position relative
 * to the second one) into f[2], m/s^2:
 *     F = k exp(-tau/tau0) tau^-2 (2/tau + 1/tau0) (x + tau v) / sqrt(b^2 - a c),
 * its magnitude capped at p->f_max; 0 without a collision; overlapping discs (c < 0) are pushed
 * apart along x with magnitude f_max.  Returns tau (as sw_ttc_tau). */
SW_API double sw_ttc_force(const sw_ttc_params *p, const double x[2], const double v[2], double r,
			   double f[2]);

/** Acceleration of an agent with velocity vel[2] (m/s) in the situation, into acc[2] (m/s^2):
 * the goal force (v_pref e_goal - vel) / xi (goal velocity 0 without a target) plus the forces of
 * the percepts within p->range (agents with their velocities from s->agent_v; obstacles static, a
 * wall at its closest point as a disc of radius 0). */
/** The velocity with which an agent of the time-to-collision law moves: u less, for each static
 * obstacle percept (in two passes, for corners), the part of its component towards the
 * obstacle beyond max(clearance, 0) / t_contact.  The clearance c then obeys c' >= -c / t_contact,
 * so it stays positive (with explicit Euler as long as the step is below t_contact).  out may
 * not alias u. */
SW_API void sw_ttc_wall_velocity(const sw_ttc_params *p, const sw_situation *s, const double u[2],
				 double out[2]);

SW_API void sw_ttc_accel(const sw_ttc_params *p, const sw_situation *s, const double vel[2],
			 double acc[2]);

/* --- Collision-free speed model (steer/csm.c) --------------------------------------------- */

/** The speed model V(s) = min(v0, max(0, s / T)) for the spacing s (m; INFINITY: nothing
 * ahead), m/s. */
SW_API double sw_csm_speed(const sw_csm_params *p, double spacing);

/** The direction model into e[2]: the unit vector of e0 (towards the target; none without one)
 * plus the repulsion of every percept within p->range (walls, i.e. percepts of an obstacle
 * primitive with radius 0, with a_wall and d_wall; agents and discs with a and d).  Returns 1,
 * or 0 when the sum vanishes (nothing to do: e is then the heading phi's, and the agent stands). */
SW_API int sw_csm_direction(const sw_csm_params *p, const sw_situation *s, double phi, double e[2]);

/** The spacing along the unit direction e[2]: the smallest clearance of an agent or disc
 * percept within p->range that lies ahead (e.d > 0) and within the agent's swept strip
 * (|e_perp.d| < r + r_j), m; INFINITY when there is none. */
SW_API double sw_csm_spacing(const sw_csm_params *p, const sw_situation *s, const double e[2]);

/** The law's velocity into u[2] (m/s) for an agent with heading phi: V(spacing) along the
 * direction model, capped by dist(T) / t_arrive when t_arrive > 0 (walls not yet cut: see
 * sw_ttc_wall_velocity's rule, which the simulator applies with t_contact).  Returns the heading
 * of the direction, rad. */
SW_API double sw_csm_velocity(const sw_csm_params *p, const sw_situation *s, double phi,
			      double u[2]);

/* --- Social force law (steer/sf.c) ------------------------------------------------------- */

/** Force of one percept on the agent, N, into f[2] (the bracket of sw_sf_params): x[2] is the
 * agent's centre minus the percept's (m), du[2] the percept's velocity minus the agent's (m/s),
 * r the sum of radii (m) and e[2] the agent's unit direction of motion (for the anisotropy).  The
 * body force and friction act only on overlap (d < r); coincident centres give no force.
 * Returns d - r (the gap, m). */
SW_API double sw_sf_force(const sw_sf_params *p, const double x[2], const double du[2], double r,
			  const double e[2], double f[2]);

/** The repulsive potential of the normal force (lambda = 1), J:
 *     U(d) = A B exp((r - d) / B) + k g(r - d)^2 / 2,
 * so that the normal part of sw_sf_force() is -grad_x U. */
SW_API double sw_sf_potential(const sw_sf_params *p, const double x[2], double r);

/** Acceleration of an agent with signed speed v (m/s) along the unit heading e[2] in the
 * situation, into acc[2] (m/s^2): the driving force (v0 e0 - v e) / tau (goal velocity 0 without
 * a target) plus the forces of the percepts within p->range divided by the mass (agents with
 * their velocities from s->agent_v, obstacles static, a wall at its closest point as a disc of
 * radius 0; the anisotropy reads the direction of motion, -e when v < 0). */
SW_API void sw_sf_accel(const sw_sf_params *p, const sw_situation *s, double v, const double e[2],
			double acc[2]);

/* --- Whole right-hand sides --------------------------------------------------------------- */

/** Right-hand side of an agent's state for a law: dydt[SW_STATE_DIM] from y[SW_STATE_DIM].
 * The situation must have been perceived at (y[X], y[Y]).  For GLM, *terms (may be NULL)
 * receives the evaluation; weights are integrated only in SW_WEIGHTS_DYNAMIC (else their
 * derivative is 0).  Without a speed lag, dydt[V] is 0 and the commanded speed is used for the
 * motion.  For PF, phi is algebraic (dydt[PHI] = 0; motion along -grad U).  For TTC, speed and
 * heading carry the velocity vector u = v e(phi): v' = a.e, phi' = a.e_perp / max(v, v_min) with
 * a from sw_ttc_accel() (v' >= 0 while v <= 0, so that v stays non-negative); SF the same
 * with a from sw_sf_accel() and a signed speed (v < 0: pushed backwards, facing phi).
 * Returns SW_SUCCESS, or SW_ENUMERIC when a derivative is not finite. */
SW_API int sw_steer_rhs(const sw_steer_def *def, const sw_personality *pers, const sw_situation *s,
			const double y[SW_STATE_DIM], double dydt[SW_STATE_DIM],
			sw_glm_terms *terms);

/** Velocity (v cos phi, v sin phi) into vel[2]: the motion part of every law's right-hand side
 * (one function, so every path that moves an agent computes the same bits). */
SW_API void sw_steer_velocity(double v, double phi, double vel[2]);

/** The algebraic outputs of a law at state y (after a step): the commanded speed, and for PF the
 * heading of motion.  Writes y[V] (when there is no speed lag) and y[PHI] (PF only); for TTC
 * (speed is state) only clamps y[V] to >= 0; for SF (signed speed) writes nothing. */
SW_API void sw_steer_algebraic(const sw_steer_def *def, const sw_personality *pers,
			       const sw_situation *s, double y[SW_STATE_DIM]);

/* --- Three dimensions, docs/models.md section 1.5 (steer/glm3.c) -------------------------- */

/** One perceived obstacle of a 3-D agent, relative to it (sw_percept with a z component). */
typedef struct sw_percept3 {
	double dx, dy, dz; /**< vector from the agent centre to the obstacle's reference point, m */
	double dist;       /**< |(dx, dy, dz)|, m */
	double rho;        /**< obstacle radius about the reference point, m (as sw_percept.rho) */
	double clearance;  /**< surface-to-surface gap, m (< 0 overlap) */
	int id;            /**< obstacle primitive index, or -1 - j for agent j */
	double hx, hy, hz; /**< another agent's heading unit vector (alignment); 0 for obstacles */
} sw_percept3;

/** What a 3-D agent perceives at one instant. */
typedef struct sw_situation3 {
	double x, y, z;    /**< agent position, m */
	double radius;     /**< agent radius rho_a, m */
	int has_target;    /**< 1 when a target is bound */
	double tx, ty, tz; /**< target position, m (valid when has_target) */
	int n_obs;         /**< number of percepts */
	const sw_percept3 *obs; /**< percepts (may be NULL when n_obs == 0) */
} sw_situation3;

/** One 3-D GLM evaluation.  Each term i acts in the plane of the heading u and its direction
 * d_i: theta_i = angle(u, d_i) in [0, pi], its 2-D scalar f_i is eq. (2) or (3)-(7) at the heading
 * error e_i = -theta_i (d_i lies at +theta_i from u in the plane oriented by
 * n_i = (u x d_i) / |u x d_i|), and its angular velocity is f_i n_i, so that a positive f_i turns u
 * toward d_i (section 1.5).  The competition (8)-(10) reads f_tar = |sum of the attractors'
 * vectors|, df_tar = sum_i d f_i / d e at e_i (the 2-D derivative in each term's plane), and the
 * same for the repellers; in a plane these are |f| and df of the 2-D law. */
typedef struct sw_glm3_terms {
	double omega_tar[3], omega_obs[3]; /**< summed angular velocities of attractors (target,
					       cohesion, alignment) and of repellers, rad/s */
	double f_tar, df_tar, f_obs, df_obs; /**< what the competition reads (see above) */
	double sum_d, sum_w;   /**< sum_i D_i (7) and sum_i W_i (5) */
	double a1, a2, g12, g21; /**< competition parameters, eqs. (9)-(10) */
	double omega[3];       /**< |w_tar| omega_tar + |w_obs| omega_obs: eq. (1) without noise */
	double v_cmd;          /**< commanded speed, eq. (12) (in front: angle(u, d_i) < pi/2) */
} sw_glm3_terms;

/** Evaluates the 3-D GLM law at the unit heading u[3] with weights |w_tar|, |w_obs|. */
SW_API void sw_glm3_eval(const sw_glm_params *p, const sw_situation3 *s, const double u[3],
			 double w_tar, double w_obs, sw_glm3_terms *out);

/* --- Symbolic emitters (the twin rule: docs/export.md, "Flows") --------------------------- */

/** An obstacle as the symbolic emitter folds it into a flow: a disc or a segment, static or in
 * scripted linear motion (position = p0 + velocity * t, t the model's time variable). */
typedef struct sw_emit_obstacle {
	int is_segment;       /**< 0 disc, 1 segment */
	double ax, ay;        /**< disc centre, or first end point, at t = 0 (m) */
	double bx, by;        /**< second end point of a segment (m) */
	double radius;        /**< disc radius (m) */
	double vx, vy;        /**< linear velocity (m/s); 0 for static obstacles */
	int id;               /**< primitive index, as sw_percept.id */
} sw_emit_obstacle;

/** Another agent as a moving disc whose position is state of the exported model. */
typedef struct sw_emit_agent {
	int x_slot, y_slot;   /**< expression slots of its x and y */
	const char *x_name, *y_name; /**< their names */
	double radius;        /**< its radius (m) */
	int id;               /**< -1 - agent index, as sw_percept.id */
	int v_slot, phi_slot; /**< slots of its speed and heading: <ttc> and <sf> read its velocity
				   speed (cos heading, sin heading), as the simulator's snapshot */
	const char *v_name, *phi_name; /**< their names; NULL for laws that do not read them */
} sw_emit_agent;

/** What the emitter needs: where the agent's state lives in the exported model (slots and
 * names of variables, as sw_expr_ast_variable takes them) and the scene folded in. */
typedef struct sw_emit_ctx {
	int slot[SW_STATE_DIM];          /**< slot of x, y, heading, turn_rate, speed, w_tar, w_obs */
	const char *name[SW_STATE_DIM];  /**< their names */
	int t_slot;                      /**< slot of the time variable; -1 when nothing moves */
	const char *t_name;              /**< its name */
	double radius;                   /**< agent radius rho_a (m) */
	double perception;               /**< perception radius (m), INFINITY for none */
	int has_target;                  /**< 1 when a target is bound */
	double tx, ty, tvx, tvy;         /**< target position at t = 0 and its linear velocity */
	int n_obs;                       /**< obstacles */
	const sw_emit_obstacle *obs;
	int n_agents;                    /**< other agents (monolithic coupling) */
	const sw_emit_agent *agents;
} sw_emit_ctx;

/** Builds the exact symbolic right-hand side of a law: out[k] is a new expression tree of
 * d(state k)/dt over the variables of ctx that equals sw_steer_rhs() applied to the situation the
 * simulator would perceive in the same scene (perception included: perception-radius cut-offs
 * and the wall near/far rule become if() nodes).  GLM weights are emitted in their dynamic form
 * w' = rhs(8) / eps whatever def->glm.weights says (the relaxed form has no flow); the noise of
 * eq. (1) is not part of the flow; personality lags are included.  On failure every out[k] is
 * NULL.  The caller frees each tree with sw_expr_ast_free(). */
SW_API int sw_steer_emit(const sw_steer_def *def, const sw_personality *pers,
			 const sw_emit_ctx *ctx, sw_expr_ast *out[SW_STATE_DIM]);

#ifdef __cplusplus
}
#endif
#endif
