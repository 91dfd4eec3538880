/* export/spaceex.c - the SpaceEx writers: expressions, XML (libxml2's xmlTextWriter), .cfg, and
 * validation against schema/spaceex.rng.
 *
 * The portable profile of docs/export.md (section The SpaceEx profile): root sspaceex version 0.2;
 * base components (param*, location*, transition*) before the network `system` (param*, bind*) that
 * binds them; location ids 1..N; every controlled variable has a flow in every location and an
 * assignment on every transition, in declaration order; every non-local param mapped in its bind.
 * Numbers print with %.17g in the C locale (the C library's own formatting: swerve never calls
 * setlocale), every power and unary minus in parentheses. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/xmlversion.h>
#include <libxml/xmlwriter.h>

#include "core/core_internal.h"
#include "export_internal.h"

extern const char sw_spaceex_schema_text[];

const char *sw_spaceex_schema(void)
{
	return sw_spaceex_schema_text;
}

/* ---- expressions --------------------------------------------------------------------- */

static void num_text(char *b, size_t n, double v);

static void put_num(sw__text *w, double v)
{
	char b[40];
	num_text(b, sizeof b, v);
	sw__text_put(w, b);
}

/* Printing precedence: 1 + -, 2 * /, 5 atoms (leaves, calls, and the parenthesised power and
 * unary minus). */
static int prec(const sw_expr_ast *a)
{
	switch (a->op) {
	case SW_EXPR_ADD:
	case SW_EXPR_SUB: return 1;
	case SW_EXPR_MUL:
	case SW_EXPR_DIV: return 2;
	case SW_EXPR_LT:
	case SW_EXPR_LE:
	case SW_EXPR_GT:
	case SW_EXPR_GE:
	case SW_EXPR_EQ: return 0;
	case SW_EXPR_AND: return -1;
	default: return 5;
	}
}

static void pr(sw__text *w, const sw_expr_ast *a);

static void pr_paren(sw__text *w, const sw_expr_ast *a, int paren)
{
	if (paren)
		sw__text_put(w, "(");
	pr(w, a);
	if (paren)
		sw__text_put(w, ")");
}

static void pr(sw__text *w, const sw_expr_ast *a)
{
	static const char *fn[SW_EXPR_OP_COUNT] = {
	    [SW_EXPR_SIN] = "sin", [SW_EXPR_COS] = "cos",	[SW_EXPR_TAN] = "tan",
	    [SW_EXPR_EXP] = "exp", [SW_EXPR_SQRT] = "sqrt", [SW_EXPR_ATAN2] = "atan2"};
	static const char *rel[SW_EXPR_OP_COUNT] = {
	    [SW_EXPR_LT] = " < ",   [SW_EXPR_LE] = " <= ", [SW_EXPR_GT] = " > ",
	    [SW_EXPR_GE] = " >= ",  [SW_EXPR_EQ] = " == ", [SW_EXPR_AND] = " & ",
	    [SW_EXPR_ADD] = " + ",  [SW_EXPR_SUB] = " - ", [SW_EXPR_MUL] = " * ",
	    [SW_EXPR_DIV] = " / "};
	switch (a->op) {
	case SW_EXPR_NUM: put_num(w, a->value); return;
	case SW_EXPR_BOOLEAN: sw__text_put(w, a->value != 0.0 ? "true" : "false"); return;
	case SW_EXPR_VAR: sw__text_put(w, a->name); return;
	case SW_EXPR_NEG:
		sw__text_put(w, "(-");
		pr_paren(w, a->kid[0], prec(a->kid[0]) < 5);
		sw__text_put(w, ")");
		return;
	case SW_EXPR_POW:
		sw__text_put(w, "(");
		pr_paren(w, a->kid[0], prec(a->kid[0]) < 5);
		sw__text_put(w, "^");
		pr_paren(w, a->kid[1], !(a->kid[1]->op == SW_EXPR_NUM && a->kid[1]->value >= 0));
		sw__text_put(w, ")");
		return;
	default: break;
	}
	if (fn[a->op] || a->nkid == 1 || a->op == SW_EXPR_HOST) {
		/* functions (only the profile's reach a SpaceEx printer) */
		sw__text_put(w, fn[a->op] ? fn[a->op] : a->name ? a->name : "?");
		sw__text_put(w, "(");
		for (int i = 0; i < a->nkid; i++) {
			if (i)
				sw__text_put(w, ", ");
			pr(w, a->kid[i]);
		}
		sw__text_put(w, ")");
		return;
	}
	int p = prec(a), pl = prec(a->kid[0]), pr_ = prec(a->kid[1]);
	int right_strict = a->op == SW_EXPR_SUB || a->op == SW_EXPR_DIV;
	pr_paren(w, a->kid[0], p >= 1 ? pl < p : (p == 0 ? pl <= 0 : 0));
	sw__text_put(w, rel[a->op] ? rel[a->op] : " ? ");
	pr_paren(w, a->kid[1],
		 p >= 1 ? (right_strict ? pr_ <= p : pr_ < p) : (p == 0 ? pr_ <= 0 : pr_ < 0));
}

int sw_hybrid_print_expr(const sw_expr_ast *e, char *buf, size_t n)
{
	sw__text w = sw__text_fixed(buf, n);
	if (e)
		pr(&w, e);
	return sw__text_end(&w);
}

char *xw_expr(const sw_hybrid *h, const sw_expr_ast *e)
{
	int exact = h->def.profile == SW_PROFILE_EXACT;
	int n = exact ? sw_expr_ast_print(e, SW_EXPR_SYNTAX_PLAIN, NULL, 0)
		      : sw_hybrid_print_expr(e, NULL, 0);
	char *s = malloc((size_t)n + 1);
	if (!s)
		return NULL;
	if (exact)
		sw_expr_ast_print(e, SW_EXPR_SYNTAX_PLAIN, s, (size_t)n + 1);
	else
		sw_hybrid_print_expr(e, s, (size_t)n + 1);
	return s;
}

/* Appends the text of e (xw_expr()) to t. */
static void tb_expr(sw__text *t, const sw_hybrid *h, const sw_expr_ast *e)
{
	char *s = xw_expr(h, e);
	if (!s)
		t->failed = 1;
	else
		sw__text_put(t, s);
	free(s);
}

/* "v' == e & ..." for the state variables of c, from trees e[k]. */
static char *primed_list(const sw_hybrid *h, const sw_hcomponent *c, sw_expr_ast *const *e)
{
	sw__text t = sw__text_heap();
	for (int k = 0; k < c->n_state; k++) {
		if (k)
			sw__text_put(&t, " & ");
		sw__text_put(&t, c->vars[k].name);
		sw__text_put(&t, "' == ");
		tb_expr(&t, h, e[k]);
	}
	return sw__text_take(&t);
}

/* A number as an expression: the shortest text that reads back exactly, negatives in
 * parentheses, no "-0". */
static void num_text(char *b, size_t n, double v)
{
	char t[40];
	if (v == 0.0)
		v = 0.0;
	sw_fmt_num(t, sizeof t, fabs(v));
	snprintf(b, n, v < 0 ? "(-%s)" : "%s", t);
}

char *xw_initially(const sw_hybrid *h)
{
	sw__text t = sw__text_heap();
	char b[64];
	for (int i = 0; i < h->n_instances; i++) {
		const sw_hinstance *in = &h->instances[i];
		const sw_hcomponent *c = &h->components[in->component];
		if (i)
			sw__text_put(&t, " & ");
		sw__text_put(&t, "loc(");
		sw__text_put(&t, in->name);
		sw__text_put(&t, ")==");
		sw__text_put(&t, c->locations[in->initial_location].name);
		for (int k = 0; k < c->n_state; k++) {
			sw__text_put(&t, " & ");
			if (in->init_lo[k] == in->init_hi[k]) {
				sw__text_put(&t, in->map[k]);
				num_text(b, sizeof b, in->init_lo[k]);
				sw__text_put(&t, "==");
				sw__text_put(&t, b);
			} else {
				num_text(b, sizeof b, in->init_lo[k]);
				sw__text_put(&t, b);
				sw__text_put(&t, "<=");
				sw__text_put(&t, in->map[k]);
				sw__text_put(&t, " & ");
				sw__text_put(&t, in->map[k]);
				sw__text_put(&t, "<=");
				num_text(b, sizeof b, in->init_hi[k]);
				sw__text_put(&t, b);
			}
		}
	}
	return sw__text_take(&t);
}

/* ---- XML ------------------------------------------------------------------------------ */

#define W(call)                                                                                    \
	do {                                                                                       \
		if ((call) < 0)                                                                    \
			return -1;                                                                 \
	} while (0)

static int attr(xmlTextWriterPtr w, const char *k, const char *v)
{
	return xmlTextWriterWriteAttribute(w, BAD_CAST k, BAD_CAST v);
}

static int param(xmlTextWriterPtr w, const char *name, int label, int local, int controlled)
{
	W(xmlTextWriterStartElement(w, BAD_CAST "param"));
	W(attr(w, "name", name));
	W(attr(w, "type", label ? "label" : "real"));
	W(attr(w, "local", local ? "true" : "false"));
	if (!label) {
		W(attr(w, "d1", "1"));
		W(attr(w, "d2", "1"));
		W(attr(w, "dynamics", "any"));
		W(attr(w, "controlled", controlled ? "true" : "false"));
	}
	return xmlTextWriterEndElement(w);
}

/* Writes element name with text s (freed); fails on NULL. */
static int text_elem(xmlTextWriterPtr w, const char *name, char *s)
{
	if (!s)
		return -1;
	int rc = xmlTextWriterWriteElement(w, BAD_CAST name, BAD_CAST s);
	free(s);
	return rc;
}

static int write_component(xmlTextWriterPtr w, const sw_hybrid *h, const sw_hcomponent *c)
{
	char num[32];
	W(xmlTextWriterStartElement(w, BAD_CAST "component"));
	W(attr(w, "id", c->id));
	for (int k = 0; k < c->n_vars; k++)
		W(param(w, c->vars[k].name, 0, c->vars[k].role == SW_HVAR_INPUT,
			c->vars[k].role == SW_HVAR_STATE));
	for (int k = 0; k < c->n_labels; k++)
		W(param(w, c->labels[k], 1, 0, 0));
	for (int q = 0; q < c->n_locations; q++) {
		const sw_hlocation *l = &c->locations[q];
		W(xmlTextWriterStartElement(w, BAD_CAST "location"));
		snprintf(num, sizeof num, "%d", q + 1);
		W(attr(w, "id", num));
		W(attr(w, "name", l->name));
		if (l->invariant)
			W(text_elem(w, "invariant", xw_expr(h, l->invariant)));
		W(text_elem(w, "flow", primed_list(h, c, l->flow)));
		W(xmlTextWriterEndElement(w));
	}
	for (int k = 0; k < c->n_transitions; k++) {
		const sw_htransition *t = &c->transitions[k];
		W(xmlTextWriterStartElement(w, BAD_CAST "transition"));
		snprintf(num, sizeof num, "%d", t->source + 1);
		W(attr(w, "source", num));
		snprintf(num, sizeof num, "%d", t->target + 1);
		W(attr(w, "target", num));
		if (t->label[0])
			W(xmlTextWriterWriteElement(w, BAD_CAST "label", BAD_CAST t->label));
		if (t->guard)
			W(text_elem(w, "guard", xw_expr(h, t->guard)));
		W(text_elem(w, "assignment", primed_list(h, c, t->reset)));
		W(xmlTextWriterEndElement(w));
	}
	return xmlTextWriterEndElement(w);
}

static int write_network(xmlTextWriterPtr w, const sw_hybrid *h)
{
	W(xmlTextWriterStartElement(w, BAD_CAST "component"));
	W(attr(w, "id", "system"));
	for (int k = 0; k < h->n_netvars; k++)
		W(param(w, h->netvars[k], 0, 0, 1));
	for (int k = 0; k < h->n_netlabels; k++)
		W(param(w, h->netlabels[k], 1, 0, 0));
	for (int i = 0; i < h->n_instances; i++) {
		const sw_hinstance *in = &h->instances[i];
		const sw_hcomponent *c = &h->components[in->component];
		W(xmlTextWriterStartElement(w, BAD_CAST "bind"));
		W(attr(w, "component", c->id));
		W(attr(w, "as", in->name));
		for (int k = 0; k < c->n_vars; k++) {
			if (c->vars[k].role == SW_HVAR_INPUT)
				continue; /* local: never mapped */
			W(xmlTextWriterStartElement(w, BAD_CAST "map"));
			W(attr(w, "key", c->vars[k].name));
			W(xmlTextWriterWriteString(w, BAD_CAST in->map[k]));
			W(xmlTextWriterEndElement(w));
		}
		for (int k = 0; k < c->n_labels; k++) {
			W(xmlTextWriterStartElement(w, BAD_CAST "map"));
			W(attr(w, "key", c->labels[k]));
			W(xmlTextWriterWriteString(w, BAD_CAST in->label_map[k]));
			W(xmlTextWriterEndElement(w));
		}
		W(xmlTextWriterEndElement(w));
	}
	return xmlTextWriterEndElement(w);
}

static int write_doc(xmlTextWriterPtr w, const sw_hybrid *h)
{
	W(xmlTextWriterSetIndent(w, 1));
	W(xmlTextWriterSetIndentString(w, BAD_CAST "  "));
	W(xmlTextWriterStartDocument(w, "1.0", "UTF-8", NULL));
	W(xmlTextWriterStartElement(w, BAD_CAST "sspaceex"));
	W(attr(w, "xmlns", "http://www-verimag.imag.fr/xml-namespaces/sspaceex"));
	W(attr(w, "version", "0.2"));
	W(attr(w, "math", "SpaceEx"));
	for (int c = 0; c < h->n_components; c++)
		W(write_component(w, h, &h->components[c]));
	W(write_network(w, h));
	W(xmlTextWriterEndElement(w));
	return xmlTextWriterEndDocument(w);
}

int sw_hybrid_spaceex_xml(const sw_hybrid *h, char **xml, size_t *len)
{
	if (!h || !xml)
		return SW_EUSAGE;
	*xml = NULL;
	if (len)
		*len = 0;
	if (h->def.profile == SW_PROFILE_EXACT)
		return SW_EUSAGE;
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	if (!w) {
		if (buf)
			xmlBufferFree(buf);
		return SW_ENOMEM;
	}
	int rc = write_doc(w, h);
	xmlFreeTextWriter(w); /* flushes into buf */
	if (rc >= 0) {
		size_t n = (size_t)xmlBufferLength(buf);
		*xml = malloc(n + 1);
		if (*xml) {
			memcpy(*xml, xmlBufferContent(buf), n);
			(*xml)[n] = '\0';
			if (len)
				*len = n;
		}
	}
	xmlBufferFree(buf);
	return *xml ? SW_SUCCESS : SW_ENOMEM;
}

/* ---- cfg ------------------------------------------------------------------------------ */

int sw_hybrid_spaceex_cfg(const sw_hybrid *h, int forbidden, FILE *f)
{
	if (!h || !f || forbidden >= h->n_forbidden)
		return SW_EUSAGE;
	char *init = xw_initially(h);
	char *forb = forbidden >= 0 ? xw_expr(h, h->forbidden[forbidden].set) : NULL;
	if (!init || (forbidden >= 0 && !forb)) {
		free(init);
		free(forb);
		return SW_ENOMEM;
	}
	fprintf(f, "# swerve export of scenario '%s' (profile %s); see report.txt\n", h->name,
		sw_export_profile_name(h->def.profile));
	if (forbidden >= 0)
		fprintf(f, "# unsafe set: %s\n", h->forbidden[forbidden].what);
	fprintf(f, "system = \"system\"\n");
	fprintf(f, "initially = \"%s\"\n", init);
	if (forb)
		fprintf(f, "forbidden = \"%s\"\n", forb);
	fprintf(f, "scenario = \"%s\"\n", h->def.scenario);
	fprintf(f, "directions = \"%s\"\n", h->def.directions);
	char nb[40];
	fprintf(f, "sampling-time = %s\n", sw_fmt_num(nb, sizeof nb, h->def.sampling_time));
	fprintf(f, "time-horizon = %s\n", sw_fmt_num(nb, sizeof nb, h->def.time_horizon));
	fprintf(f, "iter-max = %d\n", h->def.iter_max);
	const char *ox = h->n_netvars > 0 ? h->netvars[0] : "t";
	const char *oy = h->n_netvars > 1 ? h->netvars[1] : ox;
	fprintf(f, "output-variables = \"%s,%s\"\n", ox, oy);
	fprintf(f, "output-format = \"GEN\"\n");
	fprintf(f, "rel-err = %s\n", sw_fmt_num(nb, sizeof nb, h->def.rel_err));
	fprintf(f, "abs-err = %s\n", sw_fmt_num(nb, sizeof nb, h->def.abs_err));
	free(init);
	free(forb);
	return ferror(f) ? SW_EIO : SW_SUCCESS;
}

/* ---- validation ----------------------------------------------------------------------- */

typedef struct {
	sw_diag *diag;
	const char *name;
	int errors;
} vctx;

static void on_error(void *ctx, const xmlError *e)
{
	vctx *v = ctx;
	v->errors++;
	char msg[SW_DIAG_MSG];
	snprintf(msg, sizeof msg, "%s", e && e->message ? e->message : "invalid");
	size_t n = strlen(msg);
	while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		msg[--n] = '\0';
	sw_diag_add(v->diag, SW_SEV_ERROR, v->name, e ? e->line : 0, 0,
		    "export does not match the SpaceEx profile schema: %s", msg);
}

#if LIBXML_VERSION >= 21200
static void on_error_cb(void *ctx, const xmlError *e)
#else
static void on_error_cb(void *ctx, xmlErrorPtr e)
#endif
{
	on_error(ctx, e);
}

int sw_spaceex_validate(const char *xml, size_t len, const char *name, sw_diag *diag)
{
	vctx v = {diag, name ? name : "export", 0};
	xmlDocPtr doc = xmlReadMemory(xml, (int)len, v.name, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR |
								      XML_PARSE_NOWARNING);
	if (!doc) {
		sw_diag_add(diag, SW_SEV_ERROR, v.name, 0, 0, "export is not well-formed XML");
		return SW_EINPUT;
	}
	const char *schema = sw_spaceex_schema_text;
	xmlRelaxNGParserCtxtPtr pc = xmlRelaxNGNewMemParserCtxt(schema, (int)strlen(schema));
	xmlRelaxNGPtr rng = pc ? xmlRelaxNGParse(pc) : NULL;
	if (pc)
		xmlRelaxNGFreeParserCtxt(pc);
	int st = SW_EINPUT;
	if (rng) {
		xmlRelaxNGValidCtxtPtr vc = xmlRelaxNGNewValidCtxt(rng);
		if (vc) {
			xmlRelaxNGSetValidStructuredErrors(vc, on_error_cb, &v);
			int rc = xmlRelaxNGValidateDoc(vc, doc);
			st = rc == 0 && v.errors == 0 ? SW_SUCCESS : SW_EINPUT;
			if (rc != 0 && v.errors == 0)
				sw_diag_add(diag, SW_SEV_ERROR, v.name, 0, 0,
					    "export does not match the SpaceEx profile schema");
			xmlRelaxNGFreeValidCtxt(vc);
		}
		xmlRelaxNGFree(rng);
	} else {
		sw_diag_add(diag, SW_SEV_ERROR, "schema/spaceex.rng", 0, 0,
			    "the built-in SpaceEx schema does not compile");
	}
	xmlFreeDoc(doc);
	return st;
}
