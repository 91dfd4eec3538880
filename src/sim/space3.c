/* sim/space3.c - three-dimensional worlds (docs/models.md section 1.5).
 *
 * State.  A 3-D agent keeps the 2-D entries (x, y, heading, omega, speed, w_tar, w_obs, and for
 * automaton units time_in_mode and the variables) and carries SW_STATE3_DIM more at the end:
 * z, the heading unit vector u, and Omega, the lagged angular velocity of the agility trait
 * (section 1.4 with a vector: Omega' = lambda_k (omega~ - Omega)).  heading is kept equal to the
 * azimuth atan2(uy, ux), continued without jumps, and omega to Omega_z, so that the 2-D outputs
 * (trajectory columns, pictures, plots) show the horizontal projection.
 *
 * Law.  GLM only (model/model3.c refuses the others): sw_glm3_eval gives the angular velocity
 * omega~ = |w_tar| sum omega_tar + |w_obs| sum omega_obs, and the flow is
 *     (x, y, z)' = v u,    u' = Omega x u   (Omega = omega~ without agility),
 * heading' = the azimuth rate (ux uy' - uy ux') / (ux^2 + uy^2) (0 when u is vertical), the
 * weights and speed as in 2-D.
 *
 * Single evaluation.  As in 2-D (step.c), with explicit Euler the law is evaluated once per agent
 * and step: the sensing at the step start keeps omega~ (in w->fast.data) and the commanded speed
 * (in y[V]), and the flow at that instant and state reuses them (not with the mass lag or dynamic
 * weights); the results are the same bits either way (tested).
 *
 * Integration.  With explicit Euler (the default and the publications' scheme) the step of u is
 * not the straight line u + h u', which leaves the sphere, but the rotation of u by the angle
 * h |u'| about u x u' (the exponential map of u' = Omega x u; first order like Euler): in the
 * plane this is exactly the 2-D phi + h phi', so a planar 3-D scene follows its 2-D twin to
 * rounding (tested).  GSL steppers integrate u' = Omega x u as it stands.  In both cases u is
 * then projected back to |u| = 1 (divided by its length) after every step and the heading entry
 * re-synchronised: a projection, documented in docs/crowds.md; |u| = 1 is tested.
 *
 * Perception.  Obstacles are vertical (discs are infinite cylinders, segments and polygons
 * extruded walls), so the 2-D perception at the agent's (x, y) is also the 3-D one with the
 * direction horizontal (dz = 0); a pillar acts as the sphere cut at the agent's height
 * (Decision: its half-width is asin((rho + rho_a + m) / dist) in every plane through the
 * horizontal direction).  Agents are spheres: the 2-D perception (through the neighbour grid,
 * with visibility through walls) returns a superset of the agents within the 3-D sphere -- a
 * centre within perception + radii in 3-D is within it in projection, and an extruded wall hides
 * a 3-D segment exactly when it crosses its projection -- which is filtered by the 3-D distance,
 * keeping the index order; so the grid result equals brute force as in 2-D (tested).  The cost is
 * that agents stacked vertically above an agent's perception disc are candidates too. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>

#include "sim_internal.h"

static double *st3(const struct sw_world *w, int u, double *y)
{
	return y + w->unit.dim[u] - SW_STATE3_DIM;
}

void sw__space3_layout(struct sw_world *w, sw_arena *a)
{
	if (!w->m->dim3)
		return;
	w->space3.on = 1;
	w->space3.cap = w->m->n_prims + w->n + 1;
	w->space3.snap = sw__arena_take(a, 4 * (size_t)w->n + 1, sizeof *w->space3.snap);
}

void sw__start3(struct sw_world *w, int i)
{
	const sw_agent *a = &w->m->agents[i];
	double *y = w->unit.y + w->unit.off[i], *q = st3(w, i, y);
	q[SW_STATE3_Z] = a->z;
	q[SW_STATE3_UX] = cos(a->pitch) * cos(a->heading);
	q[SW_STATE3_UY] = cos(a->pitch) * sin(a->heading);
	q[SW_STATE3_UZ] = sin(a->pitch);
	if (fabs(a->pitch) == 1.57079632679489661923) /* exactly vertical: no azimuth */
		q[SW_STATE3_UX] = q[SW_STATE3_UY] = 0.0;
}

void sw__snapshot3(sw_space3 *s3, const struct sw_world *w, int lo, int hi)
{
	for (int j = lo; j < hi; j++) {
		const double *q = st3(w, j, w->unit.y + w->unit.off[j]);
		memcpy(s3->snap + 4 * (size_t)j, q, 4 * sizeof *q);
	}
}

static double len3(double x, double y, double z)
{
	return sqrt(x * x + y * y + z * z);
}

/* Height of agent i's current steering target (0 without one). */
static double target_z(const struct sw_world *w, int i)
{
	if (w->agent.tkind[i] == TGT_TARGET)
		return w->m->targets[w->agent.tindex[i]].z;
	if (w->agent.tkind[i] == TGT_AGENT)
		return w->space3.snap[4 * (size_t)w->agent.tindex[i]];
	return 0.0;
}

int sw__perceive3(const struct sw_world *w, sw_worker *wk, int i, double t, const double *y,
		  sw_situation3 *s)
{
	const sw_model *m = w->m;
	const sw_agent *a = &m->agents[i];
	const double *q = y + w->unit.dim[i] - SW_STATE3_DIM;
	sw_situation s2;
	const sw_steer_def *def = sw__steer_of(w, i, w->unit.mode[i]);
	/* The planar perception returns the agents within reach in projection; with the height
	 * set, the grid already drops those out of reach in space (a subset that keeps every
	 * agent the filter below keeps, in the same order). */
	wk->grid_qz = q[SW_STATE3_Z];
	int np = sw__perceive_grow(w, wk, i, t, y, sw__wall_near(def), &s2);
	wk->grid_qz = NAN;
	if (np < 0)
		return -1;
	s->x = s2.x;
	s->y = s2.y;
	s->z = q[SW_STATE3_Z];
	s->radius = s2.radius;
	s->has_target = s2.has_target;
	s->tx = s2.tx;
	s->ty = s2.ty;
	s->tz = target_z(w, i);
	int n = 0;
	for (int k = 0; k < s2.n_obs && n < w->space3.cap; k++) {
		const sw_percept *o = &s2.obs[k];
		sw_percept3 *r = &wk->scratch3[n];
		*r = (sw_percept3){o->dx, o->dy, 0.0, o->dist, o->rho, o->clearance, o->id,
				   0.0, 0.0, 0.0};
		if (o->id < 0) { /* an agent: a sphere, seen in 3-D */
			const double *sj = w->space3.snap + 4 * (size_t)(-1 - o->id);
			r->dz = sj[0] - s->z;
			r->dist = len3(r->dx, r->dy, r->dz);
			r->clearance = r->dist - o->rho - a->radius;
			if (r->clearance > a->perception)
				continue;
			r->hx = sj[1];
			r->hy = sj[2];
			r->hz = sj[3];
		}
		n++;
	}
	s->n_obs = n;
	s->obs = wk->scratch3;
	return n;
}

/* Agent-agent clearances of agent i from its 3-D percepts and the agent it chases. */
static void measure_agents3(struct sw_world *w, int i, const sw_situation3 *s)
{
	const sw_model *m = w->m;
	if (!m->run.agents_perceive)
		return;
	double c = INFINITY;
	for (int k = 0; k < s->n_obs; k++)
		if (s->obs[k].id < 0)
			c = fmin(c, s->obs[k].clearance);
	if (w->agent.tkind[i] == TGT_AGENT) {
		int j = w->agent.tindex[i];
		const double *p = w->snap.pos + 2 * (size_t)j;
		double cj = len3(p[0] - s->x, p[1] - s->y, w->space3.snap[4 * (size_t)j] - s->z) -
			    m->agents[j].radius - m->agents[i].radius;
		if (cj <= m->agents[i].perception)
			c = fmin(c, cj);
	}
	sw_agent_metrics *mt = &w->meas.metrics[i];
	mt->min_agent_clearance = fmin(mt->min_agent_clearance, c);
	int hit = c < 0.0;
	if (hit && !w->meas.agent_overlap[i])
		mt->agent_collisions++;
	w->meas.agent_overlap[i] = (unsigned char)hit;
}

int sw__sense3(struct sw_world *w, sw_worker *wk, int i, const sw_steer_def *def, int moving)
{
	double *y = w->unit.y + w->unit.off[i], *q = st3(w, i, y);
	sw_situation3 s;
	if (sw__perceive3(w, wk, i, w->t, y, &s) < 0)
		return SW_ENOMEM;
	const sw_glm_params *p = &def->glm;
	if (!moving) {
		y[SW_STATE_V] = 0.0;
		y[SW_STATE_OMEGA] = 0.0;
		q[SW_STATE3_WX] = q[SW_STATE3_WY] = q[SW_STATE3_WZ] = 0.0;
	} else {
		/* The weights relaxed to the stable fixed point of (8) for the parameters (9)-(10)
		 * of this instant, warm-started or restarted (section 1.2), as in 2-D. */
		sw_glm3_terms tm;
		sw_glm3_eval(p, &s, q + SW_STATE3_UX, 1.0, 1.0, &tm);
		if (p->weights != SW_WEIGHTS_DYNAMIC) {
			int restart = p->weights == SW_WEIGHTS_RESTART;
			double wt[2] = {restart ? p->w_restart : fmax(fabs(y[SW_STATE_WTAR]), p->w_floor),
					restart ? p->w_restart : fmax(fabs(y[SW_STATE_WOBS]), p->w_floor)};
			int st = sw_glm_relax(tm.a1, tm.a2, tm.g12, tm.g21, wt);
			if (st != SW_SUCCESS)
				return st;
			y[SW_STATE_WTAR] = wt[0];
			y[SW_STATE_WOBS] = wt[1];
		}
		if (!sw__pers(w, i)->has_mass)
			y[SW_STATE_V] = tm.v_cmd;
		if (w->fast.on && !w->unit.type && !sw__pers(w, i)->has_mass &&
		    p->weights != SW_WEIGHTS_DYNAMIC) {
			/* The single-evaluation path of step.c in 3-D: omega~ of (1) with the
			 * relaxed weights, the operations of sw_glm3_eval (tested bit for bit). */
			double *f = sw__fast(w, i);
			for (int k = 0; k < 3; k++)
				f[k] = fabs(y[SW_STATE_WTAR]) * tm.omega_tar[k] +
				       fabs(y[SW_STATE_WOBS]) * tm.omega_obs[k];
		}
	}
	measure_agents3(w, i, &s);
	return SW_SUCCESS;
}

int sw__flow3(const struct sw_world *w, sw_worker *wk, int u, double t, const double *y,
	      double *dydt)
{
	int dim = w->unit.dim[u];
	memset(dydt, 0, (size_t)dim * sizeof *dydt);
	const sw_steer_def *def = sw__steer_of(w, u, w->unit.mode[u]);
	const sw_glm_params *p = &def->glm;
	const sw_personality *pers = sw__pers(w, u);
	const double *q = y + dim - SW_STATE3_DIM;
	double *dq = dydt + dim - SW_STATE3_DIM;
	sw_glm3_terms tm;
	const double *f = sw__fast(w, u);
	if (!w->unit.type && t == w->t && !isnan(f[0])) {
		/* sensed at this state (sw__sense3): omega~, and the commanded speed in y[V] */
		memcpy(tm.omega, f, sizeof tm.omega);
		tm.v_cmd = y[SW_STATE_V];
	} else {
		sw_situation3 s;
		if (sw__perceive3(w, wk, u, t, y, &s) < 0)
			return SW_ENOMEM;
		sw_glm3_eval(p, &s, q + SW_STATE3_UX, y[SW_STATE_WTAR], y[SW_STATE_WOBS], &tm);
	}

	/* Turning: omega~ directly, or through the agility lag (section 1.4, a vector). */
	const double *om = tm.omega;
	if (pers->has_agility) {
		double lk = pers->lambda_k_min +
			    fmin(fmax(pers->agility, 0.0), 1.0) * (pers->lambda_k_max - pers->lambda_k_min);
		for (int k = 0; k < 3; k++)
			dq[SW_STATE3_WX + k] = lk * (tm.omega[k] - q[SW_STATE3_WX + k]);
		dydt[SW_STATE_OMEGA] = dq[SW_STATE3_WZ];
		om = q + SW_STATE3_WX;
	}
	const double *uu = q + SW_STATE3_UX;
	double du[3] = {om[1] * uu[2] - om[2] * uu[1], om[2] * uu[0] - om[0] * uu[2],
			om[0] * uu[1] - om[1] * uu[0]};
	for (int k = 0; k < 3; k++)
		dq[SW_STATE3_UX + k] = du[k];
	double h2 = uu[0] * uu[0] + uu[1] * uu[1];
	if (h2 > 0.0)
		dydt[SW_STATE_PHI] = (uu[0] * du[1] - uu[1] * du[0]) / h2;

	/* Speed: commanded (12), or through the mass lag. */
	double v = tm.v_cmd;
	if (pers->has_mass) {
		double lm = pers->lambda_m_max -
			    fmin(fmax(pers->mass, 0.0), 1.0) * (pers->lambda_m_max - pers->lambda_m_min);
		v = y[SW_STATE_V];
		dydt[SW_STATE_V] = lm * (tm.v_cmd - v);
	}
	dydt[SW_STATE_X] = v * uu[0];
	dydt[SW_STATE_Y] = v * uu[1];
	dq[SW_STATE3_Z] = v * uu[2];

	if (p->weights == SW_WEIGHTS_DYNAMIC) {
		double dw[2];
		sw_glm_weights_rhs(tm.a1, tm.a2, tm.g12, tm.g21, &y[SW_STATE_WTAR], dw);
		dydt[SW_STATE_WTAR] = dw[0] / p->eps;
		dydt[SW_STATE_WOBS] = dw[1] / p->eps;
	}
	for (int k = 0; k < dim; k++)
		if (!isfinite(dydt[k])) {
			wk->fault_k = k;
			wk->fault_t = t;
			return SW_ENUMERIC;
		}
	return SW_SUCCESS;
}

void sw__fix3(const struct sw_world *w, int u, double *y)
{
	double *q = st3(w, u, y);
	double n = len3(q[SW_STATE3_UX], q[SW_STATE3_UY], q[SW_STATE3_UZ]);
	if (n > 0.0 && isfinite(n))
		for (int k = SW_STATE3_UX; k <= SW_STATE3_UZ; k++)
			q[k] /= n;
	if (q[SW_STATE3_UX] != 0.0 || q[SW_STATE3_UY] != 0.0)
		y[SW_STATE_PHI] +=
		    sw_wrap_angle(atan2(q[SW_STATE3_UY], q[SW_STATE3_UX]) - y[SW_STATE_PHI]);
}

int sw__euler3(const struct sw_world *w, sw_worker *wk, int u, double t0, double t1, double *y)
{
	int n = w->m->run.substeps, dim = w->unit.dim[u];
	double h = (t1 - t0) / n;
	double *dydt = wk->dydt, *q = st3(w, u, y);
	for (int k = 0; k < n; k++) {
		agent_ctx c = {w, wk, u};
		if (sw__agent_flow(t0 + k * h, y, dydt, &c) != GSL_SUCCESS)
			return wk->rhs_status ? wk->rhs_status : SW_ENUMERIC;
		const double *du = dydt + dim - SW_STATE3_DIM + SW_STATE3_UX;
		double u0[3] = {q[SW_STATE3_UX], q[SW_STATE3_UY], q[SW_STATE3_UZ]};
		for (int j = 0; j < dim; j++)
			y[j] += h * dydt[j];
		/* u rotated by h |u'| toward u' (the exponential map; |u| = 1, u' is normal to u) */
		double r = len3(du[0], du[1], du[2]), a = h * r;
		double ca = cos(a), sa = a > 0.0 ? sin(a) / r : 0.0;
		for (int j = 0; j < 3; j++)
			q[SW_STATE3_UX + j] = u0[j] * ca + du[j] * sa;
		sw__fix3(w, u, y);
	}
	return SW_SUCCESS;
}

void sw__noise3(const struct sw_world *w, int u, gsl_rng *r, double sd, double *y)
{
	/* An isotropic increment normal to u: a 3-D normal vector with the part along u removed
	 * (the Euler-Maruyama step of Brownian motion on the sphere, then the projection). */
	double *q = st3(w, u, y), g[3];
	for (int k = 0; k < 3; k++)
		g[k] = gsl_ran_gaussian_ziggurat(r, 1.0);
	double gu = g[0] * q[SW_STATE3_UX] + g[1] * q[SW_STATE3_UY] + g[2] * q[SW_STATE3_UZ];
	for (int k = 0; k < 3; k++)
		q[SW_STATE3_UX + k] += sd * (g[k] - gu * q[SW_STATE3_UX + k]);
	sw__fix3(w, u, y);
}

double sw__target_dist3(const struct sw_world *w, int i, int k, double t, const double *y)
{
	sw_vec2 p = sw__target_at(w, k, t);
	const double *q = y + w->unit.dim[i] - SW_STATE3_DIM;
	return len3(p.x - y[SW_STATE_X], p.y - y[SW_STATE_Y], w->m->targets[k].z - q[SW_STATE3_Z]);
}

int sw__closest_target3(const struct sw_world *w, int i, double t)
{
	const double *y = w->unit.y + w->unit.off[i];
	double bd = INFINITY;
	int best = -1;
	for (int k = 0; k < w->m->n_targets; k++) {
		double d = sw__target_dist3(w, i, k, t, y);
		if (d < bd) {
			bd = d;
			best = k;
		}
	}
	return best;
}

double sw__chord3(const struct sw_world *w, int u, const double *y)
{
	const double *p = w->snap.pos + 2 * (size_t)u;
	const double *q = y + w->unit.dim[u] - SW_STATE3_DIM;
	return len3(y[SW_STATE_X] - p[0], y[SW_STATE_Y] - p[1],
		    q[SW_STATE3_Z] - w->space3.snap[4 * (size_t)u]);
}

int sw__host3(const struct sw_world *w, sw_worker *wk, int u, double t, const double *y, int func,
	      int kind, int idx, const double *args, double *out)
{
	const double *q = y + w->unit.dim[u] - SW_STATE3_DIM;
	if (func == SW_HF_DIST && kind == SW_PARAM_TARGET) {
		*out = sw__target_dist3(w, u, idx, t, y);
		return 1;
	}
	if (func == SW_HF_DIST && kind == SW_PARAM_AGENT) {
		const double *p = w->snap.pos + 2 * (size_t)idx;
		*out = len3(p[0] - y[SW_STATE_X], p[1] - y[SW_STATE_Y],
			    w->space3.snap[4 * (size_t)idx] - q[SW_STATE3_Z]);
		return 1;
	}
	if (func != SW_HF_NEIGHBORS)
		return 0;
	/* The 2-D grid's candidates include every agent within args[0] in 3-D. */
	int count = 0, *cand = NULL, nc = w->n;
	if (w->grid.on && args[0] >= 0.0)
		nc = sw__grid_query(&w->grid, wk, u, sw_v2(y[SW_STATE_X], y[SW_STATE_Y]), args[0],
				    &cand);
	for (int k = 0; k < nc; k++) {
		int j = cand ? cand[k] : k;
		const double *p = w->snap.pos + 2 * (size_t)j;
		if (j != u && !sw__gone(w, j) && len3(p[0] - y[SW_STATE_X], p[1] - y[SW_STATE_Y],
				   w->space3.snap[4 * (size_t)j] - q[SW_STATE3_Z]) <= args[0])
			count++;
	}
	*out = count;
	return 1;
}

/* --- public ------------------------------------------------------------------------------- */

int sw_world_is_3d(const sw_world *w)
{
	return w->space3.on;
}

const double *sw_world_agent3(const sw_world *w, int i)
{
	return w->space3.on ? st3(w, i, w->unit.y + w->unit.off[i]) : NULL;
}

int sw_world_perceive3(sw_world *w, int i, sw_situation3 *s, sw_percept3 *buf, int cap)
{
	if (!w->space3.on)
		return -2;
	sw_worker *wk = sw__serial(w);
	int n = sw__perceive3(w, wk, i, w->t, w->unit.y + w->unit.off[i], s);
	s->n_obs = n < cap ? n : cap; /* what fits */
	if (s->n_obs > 0)
		memcpy(buf, wk->scratch3, (size_t)s->n_obs * sizeof *buf);
	else
		s->n_obs = 0;
	s->obs = buf;
	return n < 0 ? -1 : n;
}
