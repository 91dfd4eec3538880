/* swerve/expr.h - expressions: guards, resets, invariants and flow equations.
 *
 * Behaviour files carry expressions as infix text ("dist(goal) lt 0.5 and not waiting").  The text
 * is parsed once into a tree (sw_expr_ast), with every name resolved through a caller-supplied
 * symbol table, and compiled to a compact stack bytecode (sw_expr) that the simulator evaluates
 * millions of times without allocating.  Trees can be printed back (print -> parse gives an equal
 * tree), differentiated symbolically (for export to hybrid-system verifiers) and built
 * programmatically (for the symbolic emitters of the steering laws).
 *
 * Two expression types exist: real numbers and booleans.  Booleans evaluate to 1.0 or 0.0.  A
 * boolean expression also has a continuous signed margin (sw_expr_margin) used to locate the
 * instant a guard becomes true by root finding.  The language is described for authors in
 * docs/expressions.md. */
#ifndef SWERVE_EXPR_H
#define SWERVE_EXPR_H

#include "swerve/api.h"

#include <stddef.h>

#include "swerve/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most arguments a function (built-in or host) may take. */
#define SW_EXPR_MAX_ARGS 8
/** Deepest nesting of parentheses, calls and prefix operators the parser accepts; deeper text is
 * rejected with "nesting too deep" (the parser is recursive and must not overflow the C stack). */
#define SW_EXPR_MAX_NESTING 100
/** Greatest height of any expression tree (a chain "a + b + c ..." of n terms has height n);
 * parsing, building or differentiating beyond it fails cleanly. */
#define SW_EXPR_MAX_HEIGHT 1000
/** Evaluation-stack entries available to sw_expr_eval(); compiling an expression that needs more
 * fails.  The stack lives in the evaluator's frame (2 KiB), never in the shared sw_expr. */
#define SW_EXPR_MAX_STACK 256

/** Type of an expression or variable. */
typedef enum {
	SW_EXPR_REAL = 0, /**< a real number (also used for integers and enumerations) */
	SW_EXPR_BOOL = 1, /**< a truth value, evaluated as 1.0 (true) or 0.0 (false) */
	SW_EXPR_ANY = 2   /**< only as an expected type: either of the above is accepted */
} sw_expr_type;

/** Node kinds of an expression tree.  Operators and built-in functions share one list; the
 * comment gives the written form. */
typedef enum {
	SW_EXPR_NUM = 0, /**< number literal, value in .value */
	SW_EXPR_BOOLEAN, /**< `true` / `false`, value 1 or 0 in .value */
	SW_EXPR_VAR,     /**< variable: .name, .slot, .type */
	SW_EXPR_NAME,  /**< name argument of a host function: .name and its resolved id in .slot */
	SW_EXPR_NEG,   /**< `-a` */
	SW_EXPR_NOT,   /**< `not a`, `!a` */
	SW_EXPR_ADD,   /**< `a + b` */
	SW_EXPR_SUB,   /**< `a - b` */
	SW_EXPR_MUL,   /**< `a * b` */
	SW_EXPR_DIV,   /**< `a / b` */
	SW_EXPR_POW,   /**< `a ^ b`, `pow(a, b)` */
	SW_EXPR_LT,    /**< `a < b`, `a lt b` */
	SW_EXPR_LE,    /**< `a <= b`, `a le b` */
	SW_EXPR_GT,    /**< `a > b`, `a gt b` */
	SW_EXPR_GE,    /**< `a >= b`, `a ge b` */
	SW_EXPR_EQ,    /**< `a == b`, `a eq b` */
	SW_EXPR_NE,    /**< `a != b`, `a ne b` */
	SW_EXPR_AND,   /**< `a and b`, `a && b` */
	SW_EXPR_OR,    /**< `a or b`, `a || b` */
	SW_EXPR_IF,    /**< `if(c, a, b)` */
	SW_EXPR_SIN,   /**< `sin(a)` */
	SW_EXPR_COS,   /**< `cos(a)` */
	SW_EXPR_TAN,   /**< `tan(a)` */
	SW_EXPR_ASIN,  /**< `asin(a)` */
	SW_EXPR_ACOS,  /**< `acos(a)` */
	SW_EXPR_ATAN,  /**< `atan(a)` */
	SW_EXPR_ATAN2, /**< `atan2(y, x)` */
	SW_EXPR_EXP,   /**< `exp(a)` */
	SW_EXPR_LOG,   /**< `log(a)`, natural logarithm */
	SW_EXPR_SQRT,  /**< `sqrt(a)` */
	SW_EXPR_TANH,  /**< `tanh(a)` */
	SW_EXPR_SINH,  /**< `sinh(a)` */
	SW_EXPR_COSH,  /**< `cosh(a)` */
	SW_EXPR_ABS,   /**< `abs(a)` */
	SW_EXPR_SIGN,  /**< `sign(a)`: -1, 0 or 1 */
	SW_EXPR_MIN,   /**< `min(a, b)` */
	SW_EXPR_MAX,   /**< `max(a, b)` */
	SW_EXPR_FLOOR, /**< `floor(a)` */
	SW_EXPR_CEIL,  /**< `ceil(a)` */
	SW_EXPR_HOST,  /**< call of a host function: .name, host id in .slot, arguments in .kid */
	SW_EXPR_OP_COUNT /**< number of node kinds (not a kind) */
} sw_expr_op;

/** Operator spellings used by the printer.  All of them parse back to the same tree. */
typedef enum {
	SW_EXPR_SYNTAX_PLAIN = 0, /**< `<` `<=` ... with `and` `or` `not` (the canonical form) */
	SW_EXPR_SYNTAX_XML =
	    1,                /**< `lt` `le` ... with `and` `or` `not`: no character XML escapes */
	SW_EXPR_SYNTAX_C = 2, /**< `<` `<=` ... with `&&` `||` `!` */
	SW_EXPR_SYNTAX_COUNT = 3 /**< number of syntaxes (not a syntax) */
} sw_expr_syntax;

/** One node of an expression tree.  Trees are read freely (the fields are public) but built only
 * with the sw_expr_ast_* constructors, which check types and heights; every node owns its
 * children and its name.  A tree is immutable once built and may be read by many threads. */
typedef struct sw_expr_ast {
	sw_expr_op op;     /**< node kind */
	sw_expr_type type; /**< result type: SW_EXPR_REAL or SW_EXPR_BOOL (SW_EXPR_REAL for NAME) */
	double value;      /**< NUM: the value (radians for angle literals); BOOLEAN: 1 or 0 */
	int slot;          /**< VAR: slot index; NAME: resolved name id; HOST: host function id */
	int nkid;          /**< number of children (operands or arguments, in written order) */
	struct sw_expr_ast *kid[SW_EXPR_MAX_ARGS]; /**< children, owned; unused entries NULL */
	char *name;     /**< VAR, NAME, HOST: the identifier as written (owned); else NULL */
	int line;       /**< 1-based source line of the node's token, 0 when built */
	int column;     /**< 1-based source column of the node's token, 0 when built */
	int height;     /**< 1 for a leaf, else 1 + the greatest child height */
	int degrees;    /**< NUM: 1 when written as an angle in degrees ("15deg") */
	double written; /**< NUM with degrees: the number as written (15 for "15deg") */
} sw_expr_ast;

/** A variable the host declares: a name bound to an index into the slot array the evaluator
 * reads.  Boolean variables are true when their slot is non-zero. */
typedef struct sw_expr_var {
	const char *name;  /**< identifier, borrowed for the duration of the parse */
	int slot;          /**< index into the slots array passed to sw_expr_eval (>= 0) */
	sw_expr_type type; /**< SW_EXPR_REAL or SW_EXPR_BOOL */
} sw_expr_var;

/** Kind of one argument of a host function. */
typedef enum {
	SW_EXPR_ARG_REAL = 0, /**< a real-valued expression, evaluated at run time */
	SW_EXPR_ARG_NAME =
	    1 /**< a bare identifier resolved once at compile time to an integer id */
} sw_expr_arg_kind;

/** A host function ("perception"): dist(goal), inside(crosswalk), progress(goal, 2.0), ... */
typedef struct sw_expr_func {
	const char *name;                       /**< identifier, borrowed for the parse */
	int id;                                 /**< passed back to the host's callbacks */
	int arity;                              /**< number of arguments, 0..SW_EXPR_MAX_ARGS */
	sw_expr_arg_kind arg[SW_EXPR_MAX_ARGS]; /**< kind of each argument */
	sw_expr_type result;                    /**< SW_EXPR_REAL or SW_EXPR_BOOL */
} sw_expr_func;

/** The names an expression may use, supplied by the host (automaton reader, scenario reader,
 * exporter).  Built-in functions, `pi`, `true`, `false`, `if` and the word operators are
 * reserved and take precedence over host names.  Only read during the call it is passed to. */
typedef struct sw_expr_symbols {
	const sw_expr_var *vars;   /**< variables, may be NULL when nvars == 0 */
	int nvars;                 /**< number of variables */
	const sw_expr_func *funcs; /**< host functions, may be NULL when nfuncs == 0 */
	int nfuncs;                /**< number of host functions */
	/** Resolves the name written as argument `arg` (0-based) of host function f into *id;
	 * returns 0 when the name is known, non-zero otherwise (the parser then reports "unknown
	 * name").  May be NULL: every name argument is then unknown. */
	int (*resolve_name)(void *ctx, const sw_expr_func *f, int arg, const char *name, int *id);
	/** Builds into *out the derivative with respect to slot `slot` of `call`, a SW_EXPR_HOST
	 * node (the host knows which state its perception depends on; it may use
	 * sw_expr_ast_derivative for the chain rule through real arguments).  Returns 0 on success
	 * with *out a new tree the caller of sw_expr_ast_derivative will own, non-zero when no
	 * derivative exists.  May be NULL: host calls then have no derivative. */
	int (*derive)(void *ctx, const sw_expr_ast *call, int slot, sw_expr_ast **out);
	void *ctx; /**< passed to the callbacks, may be NULL */
} sw_expr_symbols;

/** Where an expression's text comes from and what it must be. */
typedef struct sw_expr_def {
	const char *file;    /**< file named in diagnostics; NULL means none.  Default NULL */
	int line;            /**< line of the text's first character in that file. Default 1 */
	int column;          /**< column of the text's first character. Default 1 */
	sw_expr_type expect; /**< required result type, or SW_EXPR_ANY.  Default SW_EXPR_ANY */
} sw_expr_def;

/** Returns the default sw_expr_def (no file, line 1, column 1, any type). */
SW_API sw_expr_def sw_default_expr_def(void);

/** Host callbacks used at evaluation time.  Both receive the host function id, the resolved ids
 * of its name arguments (names[j] = j-th name argument in written order) and the values of its
 * real arguments (args[j] = j-th real argument in written order). */
typedef struct sw_expr_env {
	/** Value of a host function; booleans return non-zero for true (NaN stays NaN).  NULL
	 * makes every host call evaluate to NaN, booleans included. */
	double (*call)(void *ctx, int func, const int *names, const double *args);
	/** Signed margin of a boolean host function (> 0 when true, < 0 when false, continuous
	 * where possible).  NULL: +1 when call() says true, -1 otherwise. */
	double (*margin)(void *ctx, int func, const int *names, const double *args);
	void *ctx; /**< passed to the callbacks (e.g. the world and agent index), may be NULL */
} sw_expr_env;

/** A compiled expression: bytecode plus a copy of its tree.  Immutable after compiling; one
 * sw_expr may be evaluated by many threads at once. */
typedef struct sw_expr sw_expr;

/* ---- trees ---------------------------------------------------------------------------- */

/** Parses text (NUL-terminated, may span lines) into *out with names resolved through sym (NULL
 * means no variables or host functions) and positions taken from def (NULL = defaults).  On
 * success returns SW_SUCCESS and stores a new tree the caller frees with sw_expr_ast_free().  On
 * failure stores NULL, adds one error to diag (may be NULL) citing file:line:column and what was
 * expected, and returns SW_EINPUT (SW_ENOMEM if memory ran out, SW_EUSAGE for NULL text/out). */
SW_API int sw_expr_ast_parse(const char *text, const sw_expr_symbols *sym, const sw_expr_def *def,
			     sw_diag *diag, sw_expr_ast **out);

/** Frees a tree and all its nodes.  a may be NULL. */
SW_API void sw_expr_ast_free(sw_expr_ast *a);

/** Returns a deep copy of a (NULL when a is NULL or memory runs out); the caller frees it. */
SW_API sw_expr_ast *sw_expr_ast_clone(const sw_expr_ast *a);

/** Returns 1 when a and b are the same tree (kinds, values, slots, names and children; source
 * positions and the degree spelling of angle literals are ignored), else 0.  NULL equals NULL. */
SW_API int sw_expr_ast_equal(const sw_expr_ast *a, const sw_expr_ast *b);

/** Returns a new number leaf (the caller owns it), or NULL when memory runs out. */
SW_API sw_expr_ast *sw_expr_ast_number(double value);

/** Returns a new variable leaf for slot `slot` written `name` (copied), of type SW_EXPR_REAL or
 * SW_EXPR_BOOL; NULL when name is NULL, the type is invalid or memory runs out. */
SW_API sw_expr_ast *sw_expr_ast_variable(const char *name, int slot, sw_expr_type type);

/** Returns a new name-argument leaf written `name` (copied) with resolved id `id`, for use as
 * an argument of sw_expr_ast_host(); NULL when name is NULL or memory runs out. */
SW_API sw_expr_ast *sw_expr_ast_name(const char *name, int id);

/** Returns a new operator or built-in function node of kind op (SW_EXPR_NEG .. SW_EXPR_CEIL)
 * over the operands a, b, c in written order (pass NULL for unused ones; if(c, a, b) takes
 * three).  Takes ownership of the operands, even on failure.  Returns NULL when an operand is
 * missing, a type does not fit, the tree would exceed SW_EXPR_MAX_HEIGHT or memory runs out. */
SW_API sw_expr_ast *sw_expr_ast_node(sw_expr_op op, sw_expr_ast *a, sw_expr_ast *b, sw_expr_ast *c);

/** Returns a new call of host function f with args[0..f->arity-1] (NAME leaves where f takes
 * a name, real expressions elsewhere).  Takes ownership of the arguments, even on failure.
 * Returns NULL when f is NULL, an argument is missing or of the wrong kind, the tree would
 * exceed SW_EXPR_MAX_HEIGHT or memory runs out. */
SW_API sw_expr_ast *sw_expr_ast_host(const sw_expr_func *f, sw_expr_ast *const *args);

/** Prints a into buf (size n, may be 0 with buf NULL) in the given syntax, NUL-terminated and
 * truncated to fit; numbers use the shortest of %.15g/%.16g/%.17g (C locale) that reads back
 * exactly, and parentheses appear only where precedence or associativity needs them.  Returns
 * the length the full text needs, excluding the NUL (as snprintf does). */
SW_API int sw_expr_ast_print(const sw_expr_ast *a, sw_expr_syntax syntax, char *buf, size_t n);

/** Builds into *out d a / d slot, the derivative of the real expression a with respect to the
 * variable bound to slot `slot`, simplified (0*x, x+0, x*1, x^1 ... removed).  Non-smooth
 * functions use their derivative almost everywhere: abs -> sign(x)*x', sign/floor/ceil -> 0,
 * min/max/if -> if(...) over the branch derivatives.  Host calls are differentiated by
 * sym->derive (sym may be NULL).  Returns SW_SUCCESS with a new tree the caller frees;
 * SW_EUSAGE when a is boolean or a host call has no derivative ("no derivative for 'dist'",
 * added to diag, which may be NULL); SW_ENOMEM or SW_EINPUT (result deeper than
 * SW_EXPR_MAX_HEIGHT) otherwise.  *out is NULL on failure. */
SW_API int sw_expr_ast_derivative(const sw_expr_ast *a, int slot, const sw_expr_symbols *sym,
				  sw_diag *diag, sw_expr_ast **out);

/* ---- compiled expressions --------------------------------------------------------------- */

/** Parses and compiles text in one call (see sw_expr_ast_parse for the arguments and errors).
 * On success stores into *out a new compiled expression the caller frees with sw_expr_free(). */
SW_API int sw_expr_compile(const char *text, const sw_expr_symbols *sym, const sw_expr_def *def,
			   sw_diag *diag, sw_expr **out);

/** Compiles a tree (copied; the caller keeps a).  Returns SW_SUCCESS and a new sw_expr in *out,
 * SW_EINPUT (added to diag, may be NULL) when it needs more than SW_EXPR_MAX_STACK stack
 * entries, SW_ENOMEM, or SW_EUSAGE when a or out is NULL. */
SW_API int sw_expr_compile_ast(const sw_expr_ast *a, sw_diag *diag, sw_expr **out);

/** Frees a compiled expression.  e may be NULL. */
SW_API void sw_expr_free(sw_expr *e);

/** Evaluates e with variables read from slots (may be NULL when e reads none) and host calls
 * made through env (may be NULL when e calls none).  Booleans give 1.0 or 0.0.  Does not
 * allocate; safe to call concurrently on one e. */
SW_API double sw_expr_eval(const sw_expr *e, const double *slots, const sw_expr_env *env);

/** Signed margin of a boolean expression: m > 0 where e is true and m < 0 where e is false;
 * m == 0 on the boundary, where the value decides.  a > b and a >= b give a - b; a < b and
 * a <= b give b - a; a == b gives -|a - b| (never positive: true only at m == 0); a != b gives
 * |a - b|; and = min, or = max, not = -m; true/false and boolean variables +1/-1; if(c, p, q) the
 * margin of the chosen branch; host booleans through env->margin.  For a real expression returns
 * its value.  Same threading and allocation guarantees as sw_expr_eval(). */
SW_API double sw_expr_margin(const sw_expr *e, const double *slots, const sw_expr_env *env);

/** Returns the result type of e (SW_EXPR_REAL or SW_EXPR_BOOL). */
SW_API sw_expr_type sw_expr_result_type(const sw_expr *e);

/** Returns e's tree, owned by e and valid until sw_expr_free(e). */
SW_API const sw_expr_ast *sw_expr_tree(const sw_expr *e);

/** Prints e's tree (see sw_expr_ast_print). */
SW_API int sw_expr_print(const sw_expr *e, sw_expr_syntax syntax, char *buf, size_t n);

/** Returns the evaluation-stack entries e needs (at most SW_EXPR_MAX_STACK). */
SW_API int sw_expr_stack_depth(const sw_expr *e);

/* ---- interval evaluation ---------------------------------------------------------------- */

/** Sound interval evaluation of tree a over the box slot k in [lo[k], hi[k]] (infinite bounds
 * allowed: unbounded; lo and hi may be NULL when a reads no variable; every slot a reads must
 * exist).  Stores into [*out_lo, *out_hi] an enclosure of every value of a that is not NaN at a
 * point of the box, both as the exact real function and as sw_expr_eval() computes it: bounds
 * are rounded outward (one ulp for + - * / sqrt unless exact, SW_IV_ULPS = 4 ulps for libm's
 * other functions, which are not correctly rounded).  Booleans give [0, 0], [1, 1] or [0, 1];
 * host calls are unknown ((-inf, inf) or [0, 1]).  Returns SW_SUCCESS when a is defined at every
 * point; SW_ENUMERIC when a may be NaN somewhere (an operand reaches outside a domain: log or
 * sqrt below 0, asin/acos beyond 1, 0 / 0, inf - inf, a host call...): the bounds are then
 * clipped to the defined points, and empty (*out_lo = +inf > *out_hi = -inf) when none is;
 * SW_EUSAGE when a or an output is NULL, or a slot's box is NaN or has lo > hi (bounds then
 * (-inf, inf)).  Does not allocate; recursion depth is a's height.  See src/expr/interval.c. */
SW_API int sw_expr_interval(const sw_expr_ast *a, const double *lo, const double *hi,
			    double *out_lo, double *out_hi);

#ifdef __cplusplus
}
#endif
#endif
