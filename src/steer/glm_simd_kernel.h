/* steer/glm_simd_kernel.h - the vectorised GLM obstacle loop, written once for a vector width.
 *
 * Included by glm_simd.c once per instruction set (AVX2: 4 lanes; AVX-512: 8 lanes), in the
 * manner of GSL's templates_on.h: the includer defines
 *
 *   K_NAME(x)      the instance's name for x (x##_avx2, x##_avx512)
 *   K_ATTR         the target attribute of the instance's functions
 *   K_W            lanes per vector (4 or 8)
 *   VD, VM         vector of doubles and comparison-mask types
 *   v_set(x), v_zero(), v_add, v_sub, v_mul, v_div, v_sqrt, v_max, v_min, v_abs, v_neg
 *   v_cmp(a, b, P) comparison with predicate _CMP_P; v_sel(m, a, b) a where m else b;
 *   v_mand(m1, m2) both masks; v_keep(m, x) x where m else +0; v_bits(m) lane bits as int
 *   v_exp, v_atan2, v_asin     SLEEF's functions of the width
 *   v_load_blocks(o, m, f)  the 5 fields (dx, dy, dist, rho, clearance) of K_W / 4 blocks into
 *                  f[0..5): half h holds o[h][0..m[h]) (o[h] NULL when m[h] is 0), its other
 *                  lanes a point 1 m ahead along +x
 *   v_join(lo, hi) a vector from 4-lane halves (lo alone when K_W is 4)
 *   v_half(x, h)   the 4 lanes of half h as __m256d
 *   v_valid(bits)  the mask of the lanes whose bits are set
 *   v_store(p, x)  K_W doubles to p (unaligned)
 *
 * and glm_simd_undef.h undefines them afterwards.  Work is cut into blocks of 4 percepts of one
 * agent (its last block padded); a vector takes K_W / 4 consecutive blocks, which may belong to
 * different agents, so that the SLEEF calls of several agents overlap.  Every lane performs the
 * operations of the scalar reference in the same order (glm_simd.c states the method), and each
 * agent's partial sums are kept in 4 lanes (lane l sums its percepts l, l + 4, l + 8, ... in
 * order), so that both widths, and any grouping of agents, give the same bits. */

/* The constants of each lane's agent (eqs. (3)-(7)). */
typedef struct K_NAME(vconst) {
	VD sphi, cphi;        /* heading sine and cosine */
	VD rho_a, margin;     /* agent radius and personal-space margin m */
	VD delta, cdel, sdel; /* window margin and its cosine and sine */
	VD r_floor, inv_d0;   /* clearance floor, 1 / d0 */
} K_NAME(vconst);

/* K_W percepts' fields, one lane each. */
typedef struct K_NAME(block) {
	VD dx, dy, dist, rho, clear;
} K_NAME(block);

/* A vector of blocks between the stages: its percepts, its agents' constants, and what the
 * stages computed. */
typedef struct K_NAME(stage) {
	K_NAME(block) b;
	K_NAME(vconst) k;
	VM valid;
	int agent[K_W / 4]; /* each half's agent in the batch, -1 for none */
	int first[K_W / 4]; /* index of each half's first percept */
	int used[K_W / 4];  /* percepts in each half (1 to 4; 0 for none) */
	VD ce, se, q;       /* cos e, sin e, sin dpsi clamped */
	VD e, dpsi;         /* atan2 and asin results */
	VD cosc, inv, ae;   /* cos c, 1 / dpsi, |e| / dpsi */
	VD h1, x;           /* the window's slope and argument */
	VD dval, ex, big;   /* D, exp(1 - |e| / dpsi), exp(-2 x) */
} K_NAME(stage);

/* Stage 1 of eqs. (3)-(7): relative direction and q. */
K_ATTR static inline void K_NAME(stage_geometry)(K_NAME(stage) * st)
{
	const K_NAME(block) *b = &st->b;
	const K_NAME(vconst) *k = &st->k;
	const VD one = v_set(1.0);

	/* Relative direction: cos e and sin e (the heading (cphi, sphi) itself for a zero vector).
	 */
	VD len = v_sqrt(v_add(v_mul(b->dx, b->dx), v_mul(b->dy, b->dy)));
	VD inv_len = v_div(one, len);
	VD ce = v_mul(v_add(v_mul(k->cphi, b->dx), v_mul(k->sphi, b->dy)), inv_len);
	VD se = v_mul(v_sub(v_mul(k->sphi, b->dx), v_mul(k->cphi, b->dy)), inv_len);
	VM nonzero = v_cmp(len, v_zero(), GT_OQ);
	st->ce = v_sel(nonzero, ce, k->cphi);
	st->se = v_sel(nonzero, se, k->sphi);

	/* q = sin dpsi clamped to [q_min, 1] (NaN and dist = 0 give 1).  (Not times inv_len: a
	 * percept's dist may differ from |(dx, dy)| in the last bits, which asin amplifies near
	 * q = 1.) */
	VD q = v_div(v_add(v_add(b->rho, k->rho_a), k->margin), b->dist);
	q = v_sel(v_cmp(q, one, LT_OQ), q, one);
	st->q = v_max(q, v_set(SW_GLM_Q_MIN));
}

/* Stage 2: e = wrap(phi - psi_i) in (-pi, pi] (+ 0 turns a -0 sine into +0: e = pi behind). */
K_ATTR static inline void K_NAME(stage_atan2)(K_NAME(stage) * st)
{
	st->e = v_atan2(v_add(st->se, v_zero()), st->ce);
}

/* Stage 3: dpsi = asin q. */
K_ATTR static inline void K_NAME(stage_asin)(K_NAME(stage) * st)
{
	st->dpsi = v_asin(st->q);
}

/* Stage 4: cos c, and the divisions before the exponentials. */
K_ATTR static inline void K_NAME(stage_window)(K_NAME(stage) * st)
{
	const K_NAME(vconst) *k = &st->k;
	const VD one = v_set(1.0), two = v_set(2.0);
	const VD q = st->q, dpsi = st->dpsi;

	/* cos 2 dpsi and cos c. */
	VD cos2 = v_sub(one, v_mul(v_mul(two, q), q));
	VD sin2_sdel = v_mul(v_mul(v_mul(two, q), v_sqrt(v_sub(one, v_mul(q, q)))), k->sdel);
	VM c_lt_pi = v_cmp(v_add(v_mul(two, dpsi), k->delta), v_set(SW_PI), LT_OQ);
	st->cosc = v_sel(c_lt_pi, v_sub(v_mul(cos2, k->cdel), sin2_sdel), v_set(-1.0));

	/* Eq. (4): 1 / dpsi and |e| / dpsi; eqs. (5)-(6): the window's slope and argument. */
	st->inv = v_div(one, dpsi);
	st->ae = v_mul(v_abs(st->e), st->inv);
	st->h1 = v_div(v_set(4.0), v_sub(cos2, st->cosc));
	st->x = v_mul(st->h1, v_sub(st->ce, st->cosc));
}

/* Stage 5: the three exponentials, eqs. (7), (4) and (5), the clearance floored (max returns the
 * floor for a NaN clearance, as fmax does). */
K_ATTR static inline void K_NAME(stage_exp)(K_NAME(stage) * st)
{
	VD r = v_max(st->b.clear, st->k.r_floor);
	st->dval = v_exp(v_mul(v_neg(r), st->k.inv_d0));
	st->ex = v_exp(v_sub(v_set(1.0), st->ae));
	st->big = v_exp(v_mul(v_set(-2.0), st->x));
}

/* Stage 6: the rest of eqs. (3)-(7) and (12) into each half's agent's partial sums (acc[agent]);
 * lanes outside st->valid add nothing.  With each not NULL (a batch of one agent), the lanes'
 * f_i are stored at each[first] too. */
K_ATTR static inline void K_NAME(stage_finish)(const K_NAME(stage) * st, glm_vacc *acc,
					       double *each)
{
	const K_NAME(block) *b = &st->b;
	const VD zero = v_zero(), one = v_set(1.0);
	const VM valid = st->valid;
	const VD ce = st->ce, se = st->se, e = st->e, cosc = st->cosc, inv = st->inv;
	const VD ae = st->ae, h1 = st->h1, x = st->x, dval = st->dval, ex = st->ex, big = st->big;

	/* Eq. (4) and its derivative in e. */
	VD rv = v_mul(v_mul(e, inv), ex);
	VD dr = v_mul(v_mul(inv, ex), v_sub(one, ae));

	/* Eqs. (5)-(6): the logistic window where 0 < h1 < inf, else the step. */
	VM smooth = v_mand(v_cmp(h1, zero, GT_OQ), v_cmp(h1, v_set(INFINITY), LT_OQ));
	VD wl = v_div(one, v_add(one, big));
	VD one_minus_w = v_sel(v_cmp(big, v_set(INFINITY), EQ_OQ), one, v_mul(big, wl));
	VD dwl = v_mul(v_mul(v_mul(v_mul(v_set(-2.0), h1), wl), one_minus_w), se);
	VM sat = v_cmp(x, v_set(SW_GLM_W_SAT), GT_OQ);
	wl = v_sel(sat, one, wl);
	dwl = v_sel(sat, zero, dwl);
	VD ws = v_sel(v_cmp(ce, cosc, GT_OQ), one, v_sel(v_cmp(ce, cosc, EQ_OQ), v_set(0.5), zero));
	VD w = v_sel(smooth, wl, ws);
	VD dw = v_keep(smooth, dwl);

	/* Eq. (3) and its derivative, masked to the valid lanes; eq. (12): the clearance of
	 * obstacles in front (|e_i| < pi/2, cos e > 0). */
	VD f = v_mul(v_mul(rv, w), dval);
	VD df = v_mul(dval, v_add(v_mul(dr, w), v_mul(rv, dw)));
	VM front = v_mand(valid, v_cmp(ce, zero, GT_OQ));
	VD fv = v_keep(valid, f), dfv = v_keep(valid, df), dv = v_keep(valid, dval);
	VD wv = v_keep(valid, w), rv_min = v_sel(front, b->clear, v_set(INFINITY));
	int fbits = v_bits(front);
	double lanes[K_W];
	if (each)
		v_store(lanes, f);

	/* Each half into its agent's 4-lane sums, in block order. */
	for (int h = 0; h < K_W / 4; h++) {
		if (st->agent[h] < 0)
			continue;
		glm_vacc *a = &acc[st->agent[h]];
		a->f = _mm256_add_pd(a->f, v_half(fv, h));
		a->df = _mm256_add_pd(a->df, v_half(dfv, h));
		a->d = _mm256_add_pd(a->d, v_half(dv, h));
		a->w = _mm256_add_pd(a->w, v_half(wv, h));
		a->r_min = _mm256_min_pd(a->r_min, v_half(rv_min, h));
		a->front |= (fbits >> (4 * h)) & 15;
		for (int j = 0; each && j < st->used[h]; j++)
			each[st->first[h] + j] = lanes[4 * h + j];
	}
}

/* The per-agent constants of eqs. (3)-(7), 4 lanes each. */
K_ATTR static inline void K_NAME(agent_consts)(const sw_glm_params *p, const sw_situation *s,
					       double sphi, double cphi, glm_aconst *c)
{
	c->sphi = _mm256_set1_pd(sphi);
	c->cphi = _mm256_set1_pd(cphi);
	c->rho_a = _mm256_set1_pd(s->radius);
	c->margin = _mm256_set1_pd(p->margin < 0.0 ? p->d1 : p->margin);
	c->delta = _mm256_set1_pd(p->delta);
	double dcs[2];
	sw__glm_delta_cs(p->delta, dcs);
	c->cdel = _mm256_set1_pd(dcs[0]);
	c->sdel = _mm256_set1_pd(dcs[1]);
	c->r_floor = _mm256_set1_pd(p->r_floor);
	c->inv_d0 = _mm256_set1_pd(1.0 / p->d0);
}

/* The loops over the percepts of agents s[0..n) (n <= SW_GLM_BATCH) into acc[0..n): chunks of
 * vectors, stage by stage.  The SLEEF calls of one stage are independent of each other, so the
 * processor overlaps them (one vector's chain of calls is longer than its reorder window). */
K_ATTR __attribute__((noinline)) static void
K_NAME(obstacles)(int n, const sw_glm_params *const p[], const sw_situation *const s[],
		  const double sphi[], const double cphi[], glm_vacc acc[], double *each)
{
	if (n <= 0)
		return;
	glm_aconst c[SW_GLM_BATCH];
	for (int a = 0; a < n; a++)
		K_NAME(agent_consts)(p[a], s[a], sphi[a], cphi[a], &c[a]);

	enum { HALVES = K_W / 4, CHUNK = SW_SIMD_CHUNK_LANES / K_W };
	K_NAME(stage) st[CHUNK];
	int a = 0, i = 0; /* next block: agent a's percepts from i */
	while (a < n && s[a]->n_obs <= 0)
		a++;
	while (a < n) {
		int nv = 0;
		for (; nv < CHUNK && a < n; nv++) {
			K_NAME(stage) *v = &st[nv];
			const sw_percept *o[HALVES];
			const glm_aconst *ck[HALVES];
			int m[HALVES];
			unsigned bits = 0;
			for (int h = 0; h < HALVES; h++) {
				if (a >= n) { /* no block left: a padding half */
					o[h] = NULL;
					m[h] = 0;
					ck[h] = &c[0];
					v->agent[h] = -1;
					v->used[h] = 0;
					continue;
				}
				o[h] = &s[a]->obs[i];
				m[h] = s[a]->n_obs - i < 4 ? s[a]->n_obs - i : 4;
				ck[h] = &c[a];
				v->agent[h] = a;
				v->first[h] = i;
				v->used[h] = m[h];
				bits |= ((1u << m[h]) - 1u) << (4 * h);
				i += 4;
				if (i >= s[a]->n_obs) {
					i = 0;
					do
						a++;
					while (a < n && s[a]->n_obs <= 0);
				}
			}
			/* The blocks' fields (lanes past a block's percepts hold a point 1 m ahead
			 * along +x), and their agents' constants (the high half's are the low
			 * half's again when K_W is 4: v_join ignores them). */
			VD fld[5];
			v_load_blocks(o, m, fld);
			v->b = (K_NAME(block)){fld[0], fld[1], fld[2], fld[3], fld[4]};
			enum { H = HALVES - 1 };
			v->k = (K_NAME(vconst)){v_join(ck[0]->sphi, ck[H]->sphi),
						v_join(ck[0]->cphi, ck[H]->cphi),
						v_join(ck[0]->rho_a, ck[H]->rho_a),
						v_join(ck[0]->margin, ck[H]->margin),
						v_join(ck[0]->delta, ck[H]->delta),
						v_join(ck[0]->cdel, ck[H]->cdel),
						v_join(ck[0]->sdel, ck[H]->sdel),
						v_join(ck[0]->r_floor, ck[H]->r_floor),
						v_join(ck[0]->inv_d0, ck[H]->inv_d0)};
			v->valid = v_valid(bits);
		}
		for (int b = 0; b < nv; b++)
			K_NAME(stage_geometry)(&st[b]);
		for (int b = 0; b < nv; b++)
			K_NAME(stage_atan2)(&st[b]);
		for (int b = 0; b < nv; b++)
			K_NAME(stage_asin)(&st[b]);
		for (int b = 0; b < nv; b++)
			K_NAME(stage_window)(&st[b]);
		for (int b = 0; b < nv; b++)
			K_NAME(stage_exp)(&st[b]);
		for (int b = 0; b < nv; b++)
			K_NAME(stage_finish)(&st[b], acc, each);
	}
}
