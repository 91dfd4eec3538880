/* tests/expr_host.h - the host the expression suites compile against (tests/expr_host.c): slots
 * x, y, z, t (real), p, q (boolean) and light.green (slot 6), the host functions dist(name),
 * inside(name), progress(name, real), near(real, real) and scale(real), and their callbacks. */
#ifndef SWERVE_TESTS_EXPR_HOST_H
#define SWERVE_TESTS_EXPR_HOST_H

#include <gsl/gsl_rng.h>

#include "swerve/expr.h"

enum { X, Y, Z, T, P, Q, NSLOTS = 8 };
enum { F_DIST = 1, F_INSIDE, F_PROGRESS, F_NEAR, F_SCALE };
#define EH_N_VARS 7
#define EH_N_FUNCS 5

extern const sw_expr_var eh_vars[EH_N_VARS];
extern const sw_expr_func eh_funcs[EH_N_FUNCS];
/* The symbols of the variables and functions above; names resolve to goal = 7, home = 9,
 * crosswalk = 11; scale() has a derivative, the other host calls none. */
extern const sw_expr_symbols eh_syms;
/* Calls of eh_host_call() so far. */
extern int eh_host_calls;

/* The host functions' values at the slots ctx (a double[NSLOTS]). */
double eh_host_call(void *ctx, int func, const int *names, const double *args);
/* The margins of inside() and near() at the slots ctx. */
double eh_host_margin(void *ctx, int func, const int *names, const double *args);
/* Random slots: reals in [-2, 2), booleans 0 or 1. */
void eh_random_slots(gsl_rng *r, double *s);
/* text compiled against eh_syms; the test fails when it does not compile. */
sw_expr *eh_compile_ok(const char *text);
/* The value of text at the slots s, with the host's callbacks. */
double eh_eval_at(const char *text, double *s);
/* The value of text with every slot 0. */
double eh_eval0(const char *text);

#endif
