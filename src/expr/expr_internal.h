/* expr/expr_internal.h - shared by the files of the expression module (not installed). */
#ifndef SWERVE_EXPR_INTERNAL_H
#define SWERVE_EXPR_INTERNAL_H

#include <stddef.h>

#include "swerve/expr.h"

/* How a node kind is written. */
enum { FORM_LEAF, FORM_PREFIX, FORM_INFIX, FORM_CALL };

/* Precedence levels, loosest first (docs/expressions.md has the same table). */
enum {
	PREC_OR = 1,
	PREC_AND = 2,
	PREC_NOT = 3,
	PREC_CMP = 4,
	PREC_ADD = 5,
	PREC_MUL = 6,
	PREC_NEG = 7,
	PREC_POW = 8,
	PREC_ATOM = 9
};

/* Static description of one node kind: the table that drives the type checker, the printer
 * and the function-name lookup of the parser. */
typedef struct op_info {
	const char *fname;    /* function name for FORM_CALL, NULL otherwise */
	int form;             /* FORM_* */
	int arity;            /* operands; -1 for leaves and host calls */
	int prec;             /* PREC_* when printed */
	int right_assoc;      /* 1 for ^ */
	int non_assoc;        /* 1 for comparisons */
	sw_expr_type operand; /* type every operand must have (SW_EXPR_ANY: see checker) */
	sw_expr_type result;  /* result type (SW_EXPR_ANY: that of the branches, for if) */
	const char *spell[SW_EXPR_SYNTAX_COUNT]; /* operator text per syntax (PREFIX/INFIX) */
} op_info;

extern const op_info sw_expr_ops[SW_EXPR_OP_COUNT];

/* Looks up a built-in function name ("pow" included); returns the op or -1. */
int sw_expr_builtin_lookup(const char *name, size_t len);

/* Allocates a zeroed node (height 1); NULL on allocation failure. */
sw_expr_ast *sw_expr_node_alloc(sw_expr_op op);

/* Sets the height and type of an operator/built-in node whose kids are filled, checking the
 * operand types and the height limit.  On failure writes a sentence into msg (naming the
 * operator as `spelled`, NULL for its plain spelling) and returns SW_EINPUT. */
int sw_expr_node_check(sw_expr_ast *a, const char *spelled, char *msg, size_t n);

/* Returns "number" or "boolean". */
const char *sw_expr_type_word(sw_expr_type t);

/* Converts [s, s+len) (a decimal literal already matched by the lexer) in the C locale. */
double sw_expr_strtod(const char *s, size_t len);

/* Writes the shortest %.15g/%.16g/%.17g form of v that reads back exactly, C locale. */
void sw_expr_format_number(double v, char *buf, size_t n);

/* Returns 1 when the tree depends on slot (through a variable or a host call). */
int sw_expr_depends(const sw_expr_ast *a, int slot);

/* ---- lexer ---------------------------------------------------------------------------- */

typedef enum {
	TOK_END,
	TOK_NUM,
	TOK_IDENT,
	TOK_TRUE,
	TOK_FALSE,
	TOK_LPAREN,
	TOK_RPAREN,
	TOK_COMMA,
	TOK_PLUS,
	TOK_MINUS,
	TOK_STAR,
	TOK_SLASH,
	TOK_CARET,
	TOK_LT,
	TOK_LE,
	TOK_GT,
	TOK_GE,
	TOK_EQ,
	TOK_NE,
	TOK_AND,
	TOK_OR,
	TOK_NOT
} tok_kind;

typedef struct token {
	tok_kind kind;
	size_t start;   /* byte offset in the text */
	size_t len;     /* bytes */
	double value;   /* TOK_NUM: value (radians for angles) */
	int degrees;    /* TOK_NUM: written with "deg" */
	double written; /* TOK_NUM: the number before the unit */
} token;

/* Reads the token starting at or after *pos (blanks skipped) into t and advances *pos.  Returns
 * SW_SUCCESS, or SW_EINPUT with a sentence in msg and t->start at the offending byte. */
int sw_expr_lex(const char *text, size_t *pos, token *t, char *msg, size_t n);

/* ---- bytecode ------------------------------------------------------------------------- */

/* Stack-machine instructions.  Binary operations pop b then a and push the result; jumps go to
 * the absolute instruction index in .a. */
typedef enum {
	VM_CONST, /* push .k */
	VM_LOAD,  /* push slots[.a] */
	VM_LOADB, /* push slots[.a] != 0 */
	VM_NEG,
	VM_NOT,
	VM_ADD,
	VM_SUB,
	VM_MUL,
	VM_DIV,
	VM_POW,
	VM_LT,
	VM_LE,
	VM_GT,
	VM_GE,
	VM_EQ,
	VM_NE,
	VM_JF_KEEP, /* top == 0: jump, keeping it; else pop (short-circuit and) */
	VM_JT_KEEP, /* top != 0: jump, keeping it; else pop (short-circuit or) */
	VM_JF_POP,  /* pop; jump when it was 0 (if) */
	VM_JMP,
	VM_SIN,
	VM_COS,
	VM_TAN,
	VM_ASIN,
	VM_ACOS,
	VM_ATAN,
	VM_ATAN2,
	VM_EXP,
	VM_LOG,
	VM_SQRT,
	VM_TANH,
	VM_SINH,
	VM_COSH,
	VM_ABS,
	VM_SIGN,
	VM_MIN,
	VM_MAX,
	VM_FLOOR,
	VM_CEIL,
	VM_HOST,  /* host value: pops hosts[.a].nreal args, pushes env->call(...) */
	VM_HOSTB, /* same, normalised to 0/1 */
	VM_HOSTM, /* host boolean margin through env->margin */
	VM_MGT,   /* margin of a > b, a >= b: a - b */
	VM_MLT,   /* margin of a < b, a <= b: b - a */
	VM_MEQ,   /* margin of a == b: -|a - b| */
	VM_MNE,   /* margin of a != b: |a - b| */
	VM_MBOOL  /* 0/1 -> -1/+1 */
} vm_op;

typedef struct insn {
	int op;   /* vm_op */
	int a;    /* slot, jump target or host-call index */
	double k; /* constant */
} insn;

typedef struct host_call {
	int func;                    /* host function id */
	int nreal;                   /* real arguments on the stack */
	int names[SW_EXPR_MAX_ARGS]; /* resolved name arguments, in written order */
} host_call;

struct sw_expr {
	sw_expr_type type;
	int depth;  /* evaluation-stack entries needed by either program */
	insn *code; /* value program */
	int ncode;
	insn *mcode; /* margin program (boolean expressions; else NULL) */
	int nmcode;
	host_call *hosts;
	int nhosts;
	sw_expr_ast *ast; /* owned copy of the tree */
};

#endif
