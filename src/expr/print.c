/* expr/print.c - tree -> text with minimal parentheses.
 *
 * Spellings and precedences come from the sw_expr_ops table (ast.c), one column per syntax, so
 * a new operator set (a verifier's dialect) is a new column rather than new code.  A child is
 * parenthesised when it binds more loosely than its parent, or equally loosely on the side that
 * associativity does not group (the right of a left-associative operator, the left of ^, either
 * side of a comparison).  Parser-made trees therefore print to text that parses back to an equal
 * tree; numbers print in the shortest form that reads back exactly. */
#include <math.h>
#include <string.h>

#include "core/core_internal.h"
#include "expr/expr_internal.h"


/* Precedence of a node as printed. */
static int prec_of(const sw_expr_ast *a)
{
	if (a->op == SW_EXPR_NUM)
		return (isfinite(a->value) && signbit(a->value)) ? PREC_NEG : PREC_ATOM;
	return sw_expr_ops[a->op].prec;
}

static void print_node(sw__text *w, const sw_expr_ast *a, sw_expr_syntax syn);

static void print_child(sw__text *w, const sw_expr_ast *kid, int parens, sw_expr_syntax syn)
{
	if (parens)
		sw__text_put(w, "(");
	print_node(w, kid, syn);
	if (parens)
		sw__text_put(w, ")");
}

static void print_number(sw__text *w, const sw_expr_ast *a)
{
	char buf[64];
	if (isnan(a->value)) {
		sw__text_put(w, "(0/0)");
	} else if (isinf(a->value)) {
		sw__text_put(w, a->value > 0 ? "(1/0)" : "(-1/0)");
	} else if (a->value == SW_PI) {
		sw__text_put(w, "pi");
	} else if (a->degrees) {
		sw_expr_format_number(a->written, buf, sizeof buf);
		sw__text_put(w, buf);
		sw__text_put(w, "deg");
	} else {
		sw_expr_format_number(a->value, buf, sizeof buf);
		sw__text_put(w, buf);
	}
}

static void print_node(sw__text *w, const sw_expr_ast *a, sw_expr_syntax syn)
{
	const op_info *oi = &sw_expr_ops[a->op];
	switch (oi->form) {
	case FORM_LEAF:
		if (a->op == SW_EXPR_NUM)
			print_number(w, a);
		else if (a->op == SW_EXPR_BOOLEAN)
			sw__text_put(w, a->value != 0.0 ? "true" : "false");
		else
			sw__text_put(w, a->name);
		return;
	case FORM_PREFIX:
		sw__text_put(w, oi->spell[syn]);
		print_child(w, a->kid[0], prec_of(a->kid[0]) < oi->prec, syn);
		return;
	case FORM_INFIX: {
		int pl = prec_of(a->kid[0]), pr = prec_of(a->kid[1]);
		int left = pl < oi->prec || (pl == oi->prec && (oi->right_assoc || oi->non_assoc));
		int right = pr < oi->prec || (pr == oi->prec && !oi->right_assoc);
		/* The parser reads the right operand of ^ as a prefix expression ("2^-x"), so a
		 * negation there needs no parentheses; adding them would deepen the text, and a
		 * tree parsed at the nesting limit would then not parse back. */
		if (a->op == SW_EXPR_POW && pr == PREC_NEG)
			right = 0;
		print_child(w, a->kid[0], left, syn);
		sw__text_put(w, oi->spell[syn]);
		print_child(w, a->kid[1], right, syn);
		return;
	}
	default:
		sw__text_put(w, a->op == SW_EXPR_HOST ? a->name : oi->fname);
		sw__text_put(w, "(");
		for (int i = 0; i < a->nkid; i++) {
			if (i > 0)
				sw__text_put(w, ", ");
			print_node(w, a->kid[i], syn);
		}
		sw__text_put(w, ")");
		return;
	}
}

int sw_expr_ast_print(const sw_expr_ast *a, sw_expr_syntax syntax, char *buf, size_t n)
{
	sw__text w = sw__text_fixed(buf, n);
	if ((int)syntax < 0 || syntax >= SW_EXPR_SYNTAX_COUNT)
		syntax = SW_EXPR_SYNTAX_PLAIN;
	if (a)
		print_node(&w, a, syntax);
	return sw__text_end(&w);
}
