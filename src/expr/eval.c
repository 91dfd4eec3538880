/* expr/eval.c - the bytecode interpreter: no allocation, no recursion, a fixed stack array.
 *
 * The compiler has proved that no program needs more than SW_EXPR_MAX_STACK entries, so the
 * stack lives in this frame and the shared sw_expr is never written.  min/max propagate NaN
 * (unlike fmin/fmax) so that a numerical failure is seen rather than masked. */
#include <math.h>

#include "expr/expr_internal.h"

static double nan_min(double a, double b)
{
	return (a < b || isnan(a)) ? a : b;
}

static double nan_max(double a, double b)
{
	return (a > b || isnan(a)) ? a : b;
}

static double sign(double x)
{
	return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : x; /* 0 stays 0, NaN stays NaN */
}

static double host(const host_call *h, const double *args, const sw_expr_env *env, int margin)
{
	if (!env || !env->call)
		return NAN;
	if (margin && env->margin)
		return env->margin(env->ctx, h->func, h->names, args);
	double v = env->call(env->ctx, h->func, h->names, args);
	if (margin)
		return v != 0.0 ? 1.0 : -1.0;
	return v;
}

static double run(const sw_expr *e, const insn *code, int n, const double *slots,
		  const sw_expr_env *env)
{
	double st[SW_EXPR_MAX_STACK];
/* The top of the stack and the entry below it. */
#define T st[sp - 1]
#define U st[sp - 2]
	int sp = 0;
	st[0] = NAN;
	for (int pc = 0; pc < n; pc++) {
		const insn *in = &code[pc];
		switch ((vm_op)in->op) {
		case VM_CONST: st[sp++] = in->k; break;
		case VM_LOAD: st[sp++] = slots[in->a]; break;
		case VM_LOADB: st[sp++] = slots[in->a] != 0.0; break;
		case VM_NEG: T = -T; break;
		case VM_NOT: T = T == 0.0; break;
		case VM_ADD: U += T, sp--; break;
		case VM_SUB: U -= T, sp--; break;
		case VM_MUL: U *= T, sp--; break;
		case VM_DIV: U /= T, sp--; break;
		case VM_POW: U = pow(U, T), sp--; break;
		case VM_LT: U = U < T, sp--; break;
		case VM_LE: U = U <= T, sp--; break;
		case VM_GT: U = U > T, sp--; break;
		case VM_GE: U = U >= T, sp--; break;
		case VM_EQ: U = U == T, sp--; break;
		case VM_NE: U = U != T, sp--; break;
		case VM_JF_KEEP:
			if (T == 0.0)
				pc = in->a - 1;
			else
				sp--;
			break;
		case VM_JT_KEEP:
			if (T != 0.0)
				pc = in->a - 1;
			else
				sp--;
			break;
		case VM_JF_POP:
			sp--;
			if (st[sp] == 0.0)
				pc = in->a - 1;
			break;
		case VM_JMP: pc = in->a - 1; break;
		case VM_SIN: T = sin(T); break;
		case VM_COS: T = cos(T); break;
		case VM_TAN: T = tan(T); break;
		case VM_ASIN: T = asin(T); break;
		case VM_ACOS: T = acos(T); break;
		case VM_ATAN: T = atan(T); break;
		case VM_ATAN2: U = atan2(U, T), sp--; break;
		case VM_EXP: T = exp(T); break;
		case VM_LOG: T = log(T); break;
		case VM_SQRT: T = sqrt(T); break;
		case VM_TANH: T = tanh(T); break;
		case VM_SINH: T = sinh(T); break;
		case VM_COSH: T = cosh(T); break;
		case VM_ABS: T = fabs(T); break;
		case VM_SIGN: T = sign(T); break;
		case VM_MIN: U = nan_min(U, T), sp--; break;
		case VM_MAX: U = nan_max(U, T), sp--; break;
		case VM_FLOOR: T = floor(T); break;
		case VM_CEIL: T = ceil(T); break;
		case VM_HOST:
		case VM_HOSTB:
		case VM_HOSTM: {
			const host_call *h = &e->hosts[in->a];
			sp -= h->nreal;
			double v = host(h, &st[sp], env, in->op == VM_HOSTM);
			st[sp++] = in->op == VM_HOSTB && !isnan(v) ? v != 0.0 : v;
			break;
		}
		case VM_MGT: U = U - T, sp--; break;
		case VM_MLT: U = T - U, sp--; break;
		case VM_MEQ: U = -fabs(U - T), sp--; break;
		case VM_MNE: U = fabs(U - T), sp--; break;
		case VM_MBOOL: T = T != 0.0 ? 1.0 : -1.0; break;
		}
	}
#undef T
#undef U
	return st[0];
}

double sw_expr_eval(const sw_expr *e, const double *slots, const sw_expr_env *env)
{
	return run(e, e->code, e->ncode, slots, env);
}

double sw_expr_margin(const sw_expr *e, const double *slots, const sw_expr_env *env)
{
	if (!e->mcode)
		return run(e, e->code, e->ncode, slots, env);
	return run(e, e->mcode, e->nmcode, slots, env);
}
