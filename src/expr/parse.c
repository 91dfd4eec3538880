/* expr/parse.c - recursive-descent parser: text -> typed tree with names resolved.
 *
 * Grammar, loosest first (docs/expressions.md):
 *   or    := and  { ("or" | "||") and }
 *   and   := not  { ("and" | "&&") not }
 *   not   := ("not" | "!") not | cmp
 *   cmp   := add  [ ("<" | "lt" | ... ) add ]          comparisons do not chain
 *   add   := mul  { ("+" | "-") mul }
 *   mul   := unary { ("*" | "/") unary }
 *   unary := ("-" | "+") unary | power
 *   power := primary [ "^" unary ]                     right-associative; -2^2 = -(2^2)
 *   primary := number | "true" | "false" | ident | ident "(" [args] ")" | "(" or ")"
 * Every recursion that the text can repeat (parentheses, calls, prefix operators, exponents)
 * passes through enter(), which stops at SW_EXPR_MAX_NESTING levels, so hostile input cannot
 * overflow the C stack; left-associative chains are loops but their trees are bounded by
 * SW_EXPR_MAX_HEIGHT in sw_expr_node_check().  The first error stops the parse. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/core_internal.h"
#include "expr/expr_internal.h"

/* Longest identifier, in bytes. */
#define IDENT_MAX 200

typedef struct parser {
	const char *text;
	size_t pos;    /* lexer position (after the current token) */
	token tok;     /* current token */
	int line, col; /* position of the current token */
	size_t lc_off; /* offset up to which line/col have been counted */
	int lc_line, lc_col;
	const sw_expr_symbols *sym;
	int depth;
	int status; /* SW_SUCCESS until the first error */
	int err_line, err_col;
	char msg[SW_DIAG_MSG];
} parser;

static void fail_at(parser *p, int line, int col, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static void fail_at(parser *p, int line, int col, int status, const char *fmt, ...)
{
	if (p->status != SW_SUCCESS)
		return;
	p->status = status;
	p->err_line = line;
	p->err_col = col;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->msg, sizeof p->msg, fmt, ap);
	va_end(ap);
}

#define FAIL(p, ...) fail_at(p, (p)->line, (p)->col, SW_EINPUT, __VA_ARGS__)
#define NOMEM(p) fail_at(p, (p)->line, (p)->col, SW_ENOMEM, "out of memory")

/* Advances the line/column count to byte offset off (tokens arrive in text order). */
static void locate(parser *p, size_t off)
{
	for (; p->lc_off < off; p->lc_off++) {
		if (p->text[p->lc_off] == '\n') {
			p->lc_line++;
			p->lc_col = 1;
		} else {
			p->lc_col++;
		}
	}
}

static void next(parser *p)
{
	char msg[SW_DIAG_MSG];
	if (p->status != SW_SUCCESS)
		return;
	int st = sw_expr_lex(p->text, &p->pos, &p->tok, msg, sizeof msg);
	locate(p, p->tok.start);
	p->line = p->lc_line;
	p->col = p->lc_col;
	if (st != SW_SUCCESS) {
		fail_at(p, p->line, p->col, st, "%s", msg);
		p->tok.kind = TOK_END;
	}
}

/* Describes the current token for "got ..." in messages. */
static const char *describe(const parser *p, char *buf, size_t n)
{
	if (p->tok.kind == TOK_END)
		return "the end of the expression";
	int len = p->tok.len > 40 ? 40 : (int)p->tok.len;
	snprintf(buf, n, "'%.*s'", len, p->text + p->tok.start);
	return buf;
}

static int enter(parser *p)
{
	if (++p->depth > SW_EXPR_MAX_NESTING) {
		FAIL(p,
		     "nesting too deep (more than %d levels of parentheses, calls or prefix "
		     "operators)",
		     SW_EXPR_MAX_NESTING);
		return 0;
	}
	return 1;
}

/* Where an operator token was, and how it was written. */
typedef struct at {
	int line, col;
	char spelled[8];
} at;

static at here(const parser *p)
{
	at a = {p->line, p->col, ""};
	size_t n = p->tok.len < sizeof a.spelled ? p->tok.len : sizeof a.spelled - 1;
	memcpy(a.spelled, p->text + p->tok.start, n);
	a.spelled[n] = '\0';
	return a;
}

/* Builds an operator node over kids[0..nkid-1] (always consumed) and type-checks it. */
static sw_expr_ast *build(parser *p, sw_expr_op op, const at *where, int nkid, sw_expr_ast **kids)
{
	sw_expr_ast *n = NULL;
	int ok = p->status == SW_SUCCESS;
	for (int i = 0; i < nkid; i++)
		ok = ok && kids[i];
	if (ok && !(n = sw_expr_node_alloc(op)))
		NOMEM(p);
	if (!n) {
		for (int i = 0; i < nkid; i++)
			sw_expr_ast_free(kids[i]);
		return NULL;
	}
	n->nkid = nkid;
	for (int i = 0; i < nkid; i++)
		n->kid[i] = kids[i];
	n->line = where->line;
	n->column = where->col;
	char msg[SW_DIAG_MSG];
	if (sw_expr_node_check(n, where->spelled[0] ? where->spelled : NULL, msg, sizeof msg)) {
		fail_at(p, where->line, where->col, SW_EINPUT, "%s", msg);
		sw_expr_ast_free(n);
		return NULL;
	}
	return n;
}

static sw_expr_ast *binary(parser *p, sw_expr_op op, const at *where, sw_expr_ast *l,
			   sw_expr_ast *r)
{
	sw_expr_ast *kids[2] = {l, r};
	return build(p, op, where, 2, kids);
}

static sw_expr_ast *parse_or(parser *p);
static sw_expr_ast *parse_unary(parser *p);

static int is_cmp(tok_kind k)
{
	return k >= TOK_LT && k <= TOK_NE;
}

static sw_expr_op cmp_op(tok_kind k)
{
	static const sw_expr_op map[] = {SW_EXPR_LT, SW_EXPR_LE, SW_EXPR_GT,
					 SW_EXPR_GE, SW_EXPR_EQ, SW_EXPR_NE};
	return map[k - TOK_LT];
}

/* Copies the identifier of the current token into name (IDENT_MAX + 1 bytes). */
static int ident_text(parser *p, char *name)
{
	if (p->tok.len > IDENT_MAX) {
		FAIL(p, "identifier too long (more than %d characters)", IDENT_MAX);
		return 0;
	}
	memcpy(name, p->text + p->tok.start, p->tok.len);
	name[p->tok.len] = '\0';
	return 1;
}

static const sw_expr_func *find_func(const parser *p, const char *name)
{
	const sw_expr_symbols *s = p->sym;
	for (int i = 0; s && s->funcs && i < s->nfuncs; i++)
		if (s->funcs[i].name && strcmp(s->funcs[i].name, name) == 0)
			return &s->funcs[i];
	return NULL;
}

static const sw_expr_var *find_var(const parser *p, const char *name)
{
	const sw_expr_symbols *s = p->sym;
	for (int i = 0; s && s->vars && i < s->nvars; i++)
		if (s->vars[i].name && strcmp(s->vars[i].name, name) == 0)
			return &s->vars[i];
	return NULL;
}

/* A name argument: a bare identifier followed by ',' or ')', resolved by the host. */
static sw_expr_ast *parse_name_arg(parser *p, const sw_expr_func *f, int i)
{
	char name[IDENT_MAX + 1];
	char got[64];
	if (p->tok.kind != TOK_IDENT) {
		FAIL(p, "argument %d of '%s' must be a name, got %s", i + 1, f->name,
		     describe(p, got, sizeof got));
		return NULL;
	}
	if (!ident_text(p, name))
		return NULL;
	int line = p->line, col = p->col;
	next(p);
	if (p->status == SW_SUCCESS && p->tok.kind != TOK_COMMA && p->tok.kind != TOK_RPAREN) {
		fail_at(p, line, col, SW_EINPUT,
			"argument %d of '%s' must be a name, got an expression", i + 1, f->name);
		return NULL;
	}
	int id = 0;
	const sw_expr_symbols *s = p->sym;
	if (!s->resolve_name || s->resolve_name(s->ctx, f, i, name, &id) != 0) {
		fail_at(p, line, col, SW_EINPUT, "unknown name '%s' for argument %d of '%s'", name,
			i + 1, f->name);
		return NULL;
	}
	sw_expr_ast *n = sw_expr_ast_name(name, id);
	if (!n) {
		NOMEM(p);
		return NULL;
	}
	n->line = line;
	n->column = col;
	return n;
}

/* Counts the arguments left in a call whose current token starts an argument (for the arity
 * message), without moving the parser: 1 + the commas before the matching ')'. */
static int count_rest(const parser *p)
{
	size_t pos = p->pos;
	int depth = p->tok.kind == TOK_LPAREN, count = 1;
	token t;
	char msg[SW_DIAG_MSG];
	while (sw_expr_lex(p->text, &pos, &t, msg, sizeof msg) == SW_SUCCESS && t.kind != TOK_END) {
		if (t.kind == TOK_LPAREN)
			depth++;
		else if (t.kind == TOK_RPAREN && depth-- == 0)
			break;
		else if (t.kind == TOK_COMMA && depth == 0)
			count++;
	}
	return count;
}

/* Function call; the current token is the '(' after the name. */
static sw_expr_ast *parse_call(parser *p, const char *name, const at *where)
{
	int bop = sw_expr_builtin_lookup(name, strlen(name));
	const sw_expr_func *hf = bop < 0 ? find_func(p, name) : NULL;
	if (bop < 0 && !hf) {
		fail_at(p, where->line, where->col, SW_EINPUT, "unknown function '%s'", name);
		return NULL;
	}
	if (!enter(p))
		return NULL;
	next(p);
	sw_expr_ast *args[SW_EXPR_MAX_ARGS] = {NULL};
	int nargs = 0;
	char got[64];
	int arity = hf ? hf->arity : sw_expr_ops[bop].arity;
	while (p->status == SW_SUCCESS && p->tok.kind != TOK_RPAREN) {
		sw_expr_ast *arg;
		if (nargs == arity) { /* too many: count them rather than parse them */
			nargs += count_rest(p);
			break;
		}
		if (hf && nargs < hf->arity && hf->arg[nargs] == SW_EXPR_ARG_NAME)
			arg = parse_name_arg(p, hf, nargs);
		else
			arg = parse_or(p);
		if (!arg)
			break;
		args[nargs++] = arg;
		if (p->tok.kind == TOK_RPAREN)
			break;
		if (p->tok.kind != TOK_COMMA) {
			FAIL(p, "expected ')' after argument list of '%s', got %s", name,
			     describe(p, got, sizeof got));
			break;
		}
		next(p); /* an argument must follow the comma */
		if (p->tok.kind == TOK_RPAREN)
			FAIL(p, "expected an argument after ',' in the call of '%s'", name);
	}
	int kept = nargs < arity ? nargs : arity;
	if (p->status == SW_SUCCESS && nargs != arity)
		fail_at(p, where->line, where->col, SW_EINPUT, "'%s' takes %d argument%s, got %d",
			name, arity, arity == 1 ? "" : "s", nargs);
	next(p);
	p->depth--;
	if (p->status != SW_SUCCESS) {
		for (int i = 0; i < kept; i++)
			sw_expr_ast_free(args[i]);
		return NULL;
	}
	if (!hf)
		return build(p, (sw_expr_op)bop, where, nargs, args);
	for (int i = 0; i < nargs; i++) {
		if (args[i]->op != SW_EXPR_NAME && args[i]->type != SW_EXPR_REAL) {
			fail_at(p, args[i]->line, args[i]->column, SW_EINPUT,
				"type error: argument %d of '%s' must be a number, got a boolean",
				i + 1, name);
			for (int k = 0; k < nargs; k++)
				sw_expr_ast_free(args[k]);
			return NULL;
		}
	}
	sw_expr_ast *n = sw_expr_ast_host(hf, args);
	if (!n) {
		fail_at(p, where->line, where->col, SW_EINPUT,
			"expression too deep (more than %d nested operations)", SW_EXPR_MAX_HEIGHT);
		return NULL;
	}
	n->line = where->line;
	n->column = where->col;
	return n;
}

static sw_expr_ast *leaf(parser *p, sw_expr_op op, double value)
{
	sw_expr_ast *n = sw_expr_node_alloc(op);
	if (!n) {
		NOMEM(p);
		return NULL;
	}
	n->value = value;
	n->line = p->line;
	n->column = p->col;
	return n;
}

static sw_expr_ast *parse_identifier(parser *p)
{
	char name[IDENT_MAX + 1];
	if (!ident_text(p, name))
		return NULL;
	at where = here(p);
	where.spelled[0] = '\0';
	next(p);
	if (p->status != SW_SUCCESS)
		return NULL;
	if (p->tok.kind == TOK_LPAREN)
		return parse_call(p, name, &where);
	if (strcmp(name, "pi") == 0) {
		sw_expr_ast *n = sw_expr_ast_number(SW_PI);
		if (!n)
			NOMEM(p);
		else
			n->line = where.line, n->column = where.col;
		return n;
	}
	const sw_expr_var *v = find_var(p, name);
	if (v) {
		sw_expr_ast *n = sw_expr_ast_variable(name, v->slot, v->type);
		if (!n) {
			fail_at(p, where.line, where.col, SW_EUSAGE,
				"variable '%s' is declared with an invalid slot or type", name);
			return NULL;
		}
		n->line = where.line;
		n->column = where.col;
		return n;
	}
	if (sw_expr_builtin_lookup(name, strlen(name)) >= 0 || find_func(p, name))
		fail_at(p, where.line, where.col, SW_EINPUT, "'%s' is a function: write '%s(...)'",
			name, name);
	else
		fail_at(p, where.line, where.col, SW_EINPUT, "unknown variable '%s'", name);
	return NULL;
}

static sw_expr_ast *parse_primary(parser *p)
{
	char got[64];
	sw_expr_ast *n;
	switch (p->tok.kind) {
	case TOK_NUM:
		if ((n = leaf(p, SW_EXPR_NUM, p->tok.value))) {
			n->degrees = p->tok.degrees;
			n->written = p->tok.written;
		}
		next(p);
		return n;
	case TOK_TRUE:
	case TOK_FALSE:
		n = leaf(p, SW_EXPR_BOOLEAN, p->tok.kind == TOK_TRUE ? 1.0 : 0.0);
		next(p);
		return n;
	case TOK_IDENT: return parse_identifier(p);
	case TOK_LPAREN: {
		int line = p->line, col = p->col;
		if (!enter(p))
			return NULL;
		next(p);
		n = parse_or(p);
		if (n && p->tok.kind != TOK_RPAREN) {
			FAIL(p, "expected ')' to match the '(' at %d:%d, got %s", line, col,
			     describe(p, got, sizeof got));
			sw_expr_ast_free(n);
			n = NULL;
		}
		next(p);
		p->depth--;
		return n;
	}
	default:
		FAIL(p, "expected an expression, got %s", describe(p, got, sizeof got));
		return NULL;
	}
}

static sw_expr_ast *parse_power(parser *p)
{
	sw_expr_ast *base = parse_primary(p);
	if (!base || p->tok.kind != TOK_CARET)
		return base;
	at where = here(p);
	if (!enter(p)) {
		sw_expr_ast_free(base);
		return NULL;
	}
	next(p);
	sw_expr_ast *e = parse_unary(p);
	p->depth--;
	return binary(p, SW_EXPR_POW, &where, base, e);
}

static sw_expr_ast *parse_unary(parser *p)
{
	if (p->tok.kind != TOK_MINUS && p->tok.kind != TOK_PLUS)
		return parse_power(p);
	at where = here(p);
	tok_kind k = p->tok.kind;
	if (!enter(p))
		return NULL;
	next(p);
	sw_expr_ast *a = parse_unary(p);
	p->depth--;
	if (a && k == TOK_PLUS && a->type != SW_EXPR_REAL) {
		fail_at(p, where.line, where.col, SW_EINPUT,
			"type error: '+' needs a number operand, got a boolean");
		sw_expr_ast_free(a);
		return NULL;
	}
	if (k == TOK_PLUS)
		return a; /* unary plus leaves no node */
	return build(p, SW_EXPR_NEG, &where, 1, &a);
}

static sw_expr_ast *parse_mul(parser *p)
{
	sw_expr_ast *l = parse_unary(p);
	while (l && (p->tok.kind == TOK_STAR || p->tok.kind == TOK_SLASH)) {
		at where = here(p);
		sw_expr_op op = p->tok.kind == TOK_STAR ? SW_EXPR_MUL : SW_EXPR_DIV;
		next(p);
		l = binary(p, op, &where, l, parse_unary(p));
	}
	return l;
}

static sw_expr_ast *parse_add(parser *p)
{
	sw_expr_ast *l = parse_mul(p);
	while (l && (p->tok.kind == TOK_PLUS || p->tok.kind == TOK_MINUS)) {
		at where = here(p);
		sw_expr_op op = p->tok.kind == TOK_PLUS ? SW_EXPR_ADD : SW_EXPR_SUB;
		next(p);
		l = binary(p, op, &where, l, parse_mul(p));
	}
	return l;
}

static sw_expr_ast *parse_cmp(parser *p)
{
	sw_expr_ast *l = parse_add(p);
	if (!l || !is_cmp(p->tok.kind))
		return l;
	at where = here(p);
	sw_expr_op op = cmp_op(p->tok.kind);
	next(p);
	sw_expr_ast *n = binary(p, op, &where, l, parse_add(p));
	if (n && is_cmp(p->tok.kind)) {
		FAIL(p, "comparisons do not chain: write 'a < b and b < c' instead of 'a < b < c'");
		sw_expr_ast_free(n);
		return NULL;
	}
	return n;
}

static sw_expr_ast *parse_not(parser *p)
{
	if (p->tok.kind != TOK_NOT)
		return parse_cmp(p);
	at where = here(p);
	if (!enter(p))
		return NULL;
	next(p);
	sw_expr_ast *a = parse_not(p);
	p->depth--;
	return build(p, SW_EXPR_NOT, &where, 1, &a);
}

static sw_expr_ast *parse_and(parser *p)
{
	sw_expr_ast *l = parse_not(p);
	while (l && p->tok.kind == TOK_AND) {
		at where = here(p);
		next(p);
		l = binary(p, SW_EXPR_AND, &where, l, parse_not(p));
	}
	return l;
}

static sw_expr_ast *parse_or(parser *p)
{
	sw_expr_ast *l = parse_and(p);
	while (l && p->tok.kind == TOK_OR) {
		at where = here(p);
		next(p);
		l = binary(p, SW_EXPR_OR, &where, l, parse_and(p));
	}
	return l;
}

int sw_expr_ast_parse(const char *text, const sw_expr_symbols *sym, const sw_expr_def *def,
		      sw_diag *diag, sw_expr_ast **out)
{
	if (!out)
		return SW_EUSAGE;
	*out = NULL;
	sw_expr_def d = def ? *def : sw_default_expr_def();
	if (!text)
		return SW_EUSAGE;
	static const sw_expr_symbols none = {NULL, 0, NULL, 0, NULL, NULL, NULL};
	parser p = {0};
	p.text = text;
	p.sym = sym ? sym : &none;
	p.lc_line = d.line > 0 ? d.line : 1;
	p.lc_col = d.column > 0 ? d.column : 1;
	p.status = SW_SUCCESS;
	next(&p);
	int first_line = p.line, first_col = p.col;
	sw_expr_ast *a = NULL;
	char got[64];
	if (p.status == SW_SUCCESS && p.tok.kind == TOK_END)
		FAIL(&p, "the expression is empty");
	else if (p.status == SW_SUCCESS)
		a = parse_or(&p);
	if (a && p.tok.kind != TOK_END)
		FAIL(&p, "expected an operator or the end of the expression, got %s",
		     describe(&p, got, sizeof got));
	if (a && p.status == SW_SUCCESS && d.expect != SW_EXPR_ANY && a->type != d.expect)
		fail_at(&p, first_line, first_col, SW_EINPUT,
			d.expect == SW_EXPR_BOOL
			    ? "expected a condition (a boolean expression), got a number"
			    : "expected a number, got a condition (a boolean expression)");
	if (p.status != SW_SUCCESS) {
		sw_expr_ast_free(a);
		sw_diag_add(diag, SW_SEV_ERROR, d.file, p.err_line, p.err_col, "%s", p.msg);
		return p.status;
	}
	*out = a;
	return SW_SUCCESS;
}
