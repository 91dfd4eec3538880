/* swerve/swerve.h - the whole public API of libswerve.
 *
 * What is public: the functions these headers declare (each marked SW_API, swerve/api.h; the
 * shared library exports nothing else) and the types and constants they define.  Names under
 * src/ (sw__*, *_internal.h) are internal and may change.
 *
 * Who owns what (every function follows these rules; its comment says when it differs):
 *   - A function returning a new object (through `T **out`, or as the result of an *_alloc or
 *     sw_expr_ast_* constructor) hands it to the caller, who frees it with that type's free or
 *     destroy function (sw_model_free, sw_automaton_free, sw_world_destroy, sw_grid_free,
 *     sw_trace_free...; each accepts NULL).  On failure nothing is handed over.  Buffers
 *     returned as `char **` or `void **` are malloc'ed: free() them.
 *   - Passing an object to a function that takes it (sw_model_add_automaton, the operands of the
 *     sw_expr_ast_* constructors) transfers it, on failure too; the comment says so.
 *   - `const T *` arguments are borrowed for the call.  An object that keeps a pointer to
 *     another says so, and the other must outlive it: a world keeps its model, an output set
 *     its model, a world the ctx of its event callback.
 *   - Strings and structures returned as `const` pointers (names, parameters, personalities,
 *     schema texts) point into the object they were read from (or are static) and stay valid
 *     while that object lives and is not changed; they are never freed by the caller.
 *   - Diagnostics (sw_diag) are caller-owned and hold no heap memory. */
#ifndef SWERVE_SWERVE_H
#define SWERVE_SWERVE_H

#define SWERVE_VERSION "0.1.0"

#include "swerve/core.h"
#include "swerve/expr.h"
#include "swerve/export.h"
#include "swerve/ensemble.h"
#include "swerve/geom.h"
#include "swerve/io.h"
#include "swerve/model.h"
#include "swerve/plan.h"
#include "swerve/render.h"
#include "swerve/sim.h"
#include "swerve/steer.h"

#endif
