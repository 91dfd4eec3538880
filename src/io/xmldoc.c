/* io/xmldoc.c - the document stages shared by the scenario and automaton readers.
 *
 * A load runs five stages, each reporting into the caller's sw_diag as "file:line: message":
 *
 *  1. bytes: the file is read into memory here (so "cannot open" is ours, with errno's reason);
 *  2. XML: libxml2 parses with network access off and no entity substitution.  A DOCTYPE is
 *     refused as soon as the parser sees it (SAX internalSubset hook + xmlStopParser), before
 *     any entity declaration is read: this closes billion-laughs and external-entity attacks
 *     without relying on libxml2's amplification limits.  Errors arrive through the parser
 *     context's own structured handler; the few libxml2 raises without a context (encoding
 *     conversion) through this thread's handlers, set only for the parse and then restored.
 *     A NUL byte and a document over SW_IO_MAX_BYTES are refused before libxml2 sees them.
 *     A SAX startElementNs hook records the byte offset at which each start tag ends, so that
 *     expressions can be located to the column (libxml2 only keeps lines);
 *  3. schema: a RELAX NG schema compiled into the library validates the document (or, for an
 *     automaton written inside a scenario, a copy of that element); every error is collected;
 *  4. walk: the reader walks the tree through attribute tables (attrs.c) that know every element
 *     and attribute.  The walk always runs, because libxml2's RELAX NG messages are sometimes
 *     vague ("Extra element glm in interleave"): it names the unknown attribute or element and
 *     lists what was expected, and rejects values the schema admits but the model cannot use.
 *     When both stages report, schema messages on lines the walk already explained, without a
 *     line, or that only say an ancestor "failed to validate" are dropped as duplicates;
 *  5. build: only what passed 3 and 4 reaches the builders (sw_model_add_*,
 *     sw_automaton_compile, sw_model_finalize), which cite the positions stored in each def.
 *
 * Diagnostics added by one load are sorted by line at the end (stable), so the stages interleave
 * in reading order; those from another file (a <use>d automaton) keep their own file name and
 * sort at the line of the element that loaded them.
 *
 * The positions of expressions in the raw text are found in xmlpos.c.
 *
 * Thread safety: libxml2 is initialised once (pthread_once); every load uses its own parser,
 * schema and validation contexts. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/relaxng.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemastypes.h>

#include "core/core_internal.h"
#include "io/io_internal.h"

#if LIBXML_VERSION >= 21200
typedef const xmlError *xml_error_ptr;
#else
typedef xmlErrorPtr xml_error_ptr;
#endif

/* Pending messages are held at most this many; further ones go straight to the diag. */
#define PENDING_MAX 4096

/* --- loader state and messages ----------------------------------------------------------- */

void sw__loader_init(sw__loader *ld, sw_diag *diag, const char *file, const char *what,
		     const char *buf, size_t len)
{
	memset(ld, 0, sizeof *ld);
	ld->diag = diag;
	ld->file = file ? file : "";
	ld->what = what;
	ld->first = diag ? diag->count : 0;
	ld->buf = buf;
	ld->len = len;
	ld->positions_ok = 1;
}

void sw__loader_msg(sw__loader *ld, int line, int column, sw_severity sev, int from_schema,
		    const char *text)
{
	/* Drop an exact repeat of the previous message (libxml2 sometimes says things twice). */
	if (ld->n_msgs > 0) {
		const sw__pending *p = &ld->msgs[ld->n_msgs - 1];
		if (p->line == line && strcmp(p->message, text) == 0)
			return;
	}
	if (ld->n_msgs >= PENDING_MAX) {
		sw_diag_add(ld->diag, sev, ld->file, line, column, "%s", text);
		return;
	}
	if (ld->n_msgs == ld->cap_msgs) {
		int cap = ld->cap_msgs ? 2 * ld->cap_msgs : 16;
		sw__pending *p = realloc(ld->msgs, (size_t)cap * sizeof *p);
		if (!p) {
			ld->oom = 1;
			sw_diag_add(ld->diag, sev, ld->file, line, column, "%s", text);
			return;
		}
		ld->msgs = p;
		ld->cap_msgs = cap;
	}
	sw__pending *p = &ld->msgs[ld->n_msgs++];
	p->line = line;
	p->column = column;
	p->severity = sev;
	p->from_schema = from_schema;
	snprintf(p->message, sizeof p->message, "%s", text);
}

int sw__node_line(xmlNodePtr node)
{
	long l = node ? xmlGetLineNo(node) : 0;
	return l > 0 && l <= INT_MAX ? (int)l : 0;
}

int sw__is_element(xmlNodePtr n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && n->ns == NULL &&
	       strcmp((const char *)n->name, name) == 0;
}

/* A walk message of severity sev at node's line (errors count as walk errors). */
static void walk_msg(sw__loader *ld, xmlNodePtr node, sw_severity sev, const char *fmt,
		     va_list ap)
{
	char buf[SW_DIAG_MSG];
	vsnprintf(buf, sizeof buf, fmt, ap);
	if (sev == SW_SEV_ERROR)
		ld->walk_errors++;
	sw__loader_msg(ld, sw__node_line(node), 0, sev, 0, buf);
}

void sw__walk_error(sw__loader *ld, xmlNodePtr node, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	walk_msg(ld, node, SW_SEV_ERROR, fmt, ap);
	va_end(ap);
}

void sw__walk_warning(sw__loader *ld, xmlNodePtr node, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	walk_msg(ld, node, SW_SEV_WARNING, fmt, ap);
	va_end(ap);
}

void sw__walk_error_at(sw__loader *ld, int line, int column, const char *fmt, ...)
{
	char buf[SW_DIAG_MSG];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	ld->walk_errors++;
	sw__loader_msg(ld, line, column, SW_SEV_ERROR, 0, buf);
}

void sw__loader_foreign(sw__loader *ld, int first, int line)
{
	if (!ld->diag || ld->diag->count <= first)
		return;
	if (ld->n_foreign == ld->cap_foreign) {
		int cap = ld->cap_foreign ? 2 * ld->cap_foreign : 8;
		sw__foreign *f = realloc(ld->foreign, (size_t)cap * sizeof *f);
		if (!f)
			return; /* only the order of the messages suffers */
		ld->foreign = f;
		ld->cap_foreign = cap;
	}
	ld->foreign[ld->n_foreign++] = (sw__foreign){first, ld->diag->count, line};
}

/* Copies a libxml2 message without its trailing newline and spaces. */
static void trim_message(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src ? src : "unknown error");
	size_t len = strlen(dst);
	while (len > 0 && (dst[len - 1] == '\n' || dst[len - 1] == ' ' || dst[len - 1] == '\r'))
		dst[--len] = '\0';
	for (size_t i = 0; i < len; i++) /* one line per message ("...UTF-8!\nBytes: 0xC3...") */
		if (dst[i] == '\n' || dst[i] == '\r')
			dst[i] = ' ';
}

/* Structured error handler of the XML parser (userData is the parser context). */
static void on_parse_error(void *user, xml_error_ptr err)
{
	xmlParserCtxtPtr ctxt = user;
	sw__loader *ld = ctxt ? ctxt->_private : NULL;
	if (!ld || !err || ld->dtd_line > 0) /* after a refused DOCTYPE, the rest is noise */
		return;
	char text[SW_DIAG_MSG - 64]; /* room for the prefix added below */
	trim_message(text, sizeof text, err->message);
	sw_severity sev = err->level == XML_ERR_WARNING ? SW_SEV_WARNING : SW_SEV_ERROR;
	if (sev == SW_SEV_ERROR)
		ld->parse_errors++;
	char full[SW_DIAG_MSG];
	snprintf(full, sizeof full, "malformed XML: %s", text);
	sw__loader_msg(ld, err->line, err->int2 > 0 ? err->int2 : 0, sev, 0, full);
}

/* Errors libxml2 raises without a parser context (encoding conversion, "encoder error"), which
 * would otherwise go to the thread's default handler, i.e. stderr.  Installed for this thread
 * only while sw__parse runs; the line is the parser's current one. */
static void on_context_free_error(void *user, xml_error_ptr err)
{
	sw__loader *ld = user;
	if (!ld || !err || ld->dtd_line > 0)
		return;
	xmlParserCtxtPtr ctxt = ld->parsing;
	int line = err->line;
	if (line <= 0)
		line = ctxt && ctxt->input && ctxt->input->line > 0 ? ctxt->input->line : 0;
	char text[SW_DIAG_MSG - 64];
	trim_message(text, sizeof text, err->message);
	char full[SW_DIAG_MSG];
	snprintf(full, sizeof full, "malformed XML: %s", text);
	if (err->level != XML_ERR_WARNING)
		ld->parse_errors++;
	sw__loader_msg(ld, line, 0, err->level == XML_ERR_WARNING ? SW_SEV_WARNING : SW_SEV_ERROR,
		       0, full);
}

/* The same for libxml2's unstructured messages: dropped (every one we know of also arrives
 * structured). */
static void on_generic_error(void *user, const char *fmt, ...)
{
	(void)user;
	(void)fmt;
}

/* SAX hook called at <!DOCTYPE ...>, before its internal subset is read: refuse and stop. */
static void on_doctype(void *user, const xmlChar *name, const xmlChar *external_id,
		       const xmlChar *system_id)
{
	(void)name;
	(void)external_id;
	(void)system_id;
	xmlParserCtxtPtr ctxt = user;
	sw__loader *ld = ctxt->_private;
	if (ld && ld->dtd_line == 0)
		ld->dtd_line = ctxt->input && ctxt->input->line > 0 ? ctxt->input->line : 1;
	xmlStopParser(ctxt);
}

/* SAX hook at every start tag: builds the node (libxml2's own handler), then records where the
 * start tag ends.  The parser stands on the '>' (or the "/>") at this point. */
static void on_start_element(void *user, const xmlChar *localname, const xmlChar *prefix,
			     const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
			     int nb_attributes, int nb_defaulted, const xmlChar **attributes)
{
	xmlParserCtxtPtr ctxt = user;
	xmlSAX2StartElementNs(ctxt, localname, prefix, uri, nb_namespaces, namespaces,
			      nb_attributes, nb_defaulted, attributes);
	sw__loader *ld = ctxt->_private;
	xmlParserInputPtr in = ctxt->input;
	if (!ld || !ld->positions_ok || !in || !in->cur || !in->base)
		return;
	if (!ctxt->node || ctxt->node->type != XML_ELEMENT_NODE ||
	    !xmlStrEqual(ctxt->node->name, localname))
		return;                    /* the node was not built (out of memory) */
	if (in->buf && in->buf->encoder) { /* converted text: offsets are not the file's */
		ld->positions_ok = 0;
		return;
	}
	if (ld->n_tags == ld->cap_tags) {
		size_t cap = ld->cap_tags ? 2 * ld->cap_tags : 64;
		sw__tag *t = realloc(ld->tags, cap * sizeof *t);
		if (!t) {
			ld->positions_ok = 0;
			return;
		}
		ld->tags = t;
		ld->cap_tags = cap;
	}
	ld->tags[ld->n_tags++] =
	    (sw__tag){ctxt->node, (size_t)in->consumed + (size_t)(in->cur - in->base)};
}

int sw__tag_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const sw__tag *)a)->node,
		  y = (uintptr_t)((const sw__tag *)b)->node;
	return x < y ? -1 : x > y;
}

/* Structured error handler of RELAX NG validation. */
static void on_schema_error(void *user, xml_error_ptr err)
{
	sw__loader *ld = user;
	if (!ld || !err)
		return;
	char text[SW_DIAG_MSG - 64]; /* room for the prefix added below */
	trim_message(text, sizeof text, err->message);
	int line = err->line;
	if (line <= 0 && err->node)
		line = sw__node_line((xmlNodePtr)err->node);
	sw_severity sev = err->level == XML_ERR_WARNING ? SW_SEV_WARNING : SW_SEV_ERROR;
	if (sev == SW_SEV_ERROR)
		ld->schema_errors++;
	/* Misplaced children are the usual order mistake: say the order. */
	const char *hint = "";
	xmlNodePtr node = err->node;
	xmlNodePtr parent = node && node->type == XML_ELEMENT_NODE ? node->parent : NULL;
	/* libxml2 says "Expecting an element , got nothing" when an element ends before a child
	 * it requires: name the element, and give the order of its children. */
	static const char missing[] = "Expecting an element , got nothing";
	if (node && node->type == XML_ELEMENT_NODE &&
	    strncmp(text, missing, sizeof missing - 1) == 0) {
		snprintf(text, sizeof text, "<%s> ends before an element it requires",
			 (const char *)node->name);
		parent = node;
	}
	if (parent && parent->type == XML_ELEMENT_NODE) {
		int top = parent->parent && parent->parent->type == XML_DOCUMENT_NODE;
		if (top && sw__is_element(parent, "scenario"))
			hint =
			    " (the children of <scenario> come in the order <description>, <run>, "
			    "<behaviours>, <world>, then one or more <agent> or <group>)";
		else if (sw__is_element(parent, "automaton"))
			hint = " (the children of <automaton> come in the order <description>, "
			       "<param> and <var> declarations, then one or more <mode>)";
		else if (sw__is_element(parent, "mode"))
			hint =
			    " (the children of <mode> come in the order: at most one steering "
			    "law, <flow> elements, at most one <invariant>, <transition> elements)";
	}
	char full[SW_DIAG_MSG + 192];
	snprintf(full, sizeof full, "not a valid %s: %s%s", ld->what, text, hint);
	sw__loader_msg(ld, line, 0, sev, 1, full);
}

/* Errors while compiling a built-in schema (a bug in schema/ *.rng). */
static void on_internal_error(void *user, xml_error_ptr err)
{
	sw__loader *ld = user;
	if (!ld || !err)
		return;
	char text[SW_DIAG_MSG - 64]; /* room for the prefix added below */
	trim_message(text, sizeof text, err->message);
	char full[SW_DIAG_MSG];
	snprintf(full, sizeof full, "internal error in the built-in %s schema: %s", ld->what, text);
	sw__loader_msg(ld, 0, 0, SW_SEV_ERROR, 0, full);
}

/* Returns 1 when a walk error was reported on line. */
static int walk_reported_line(const sw__loader *ld, int line)
{
	for (int i = 0; i < ld->n_msgs; i++)
		if (!ld->msgs[i].from_schema && ld->msgs[i].severity == SW_SEV_ERROR &&
		    ld->msgs[i].line == line)
			return 1;
	return 0;
}

/* Moves the pending messages into the diag (dropping duplicated schema messages), then sorts
 * everything this load added by line (foreign entries by the line that loaded them). */
static void flush(sw__loader *ld)
{
	for (int i = 0; i < ld->n_msgs; i++) {
		const sw__pending *p = &ld->msgs[i];
		if (p->from_schema && ld->walk_errors > 0 &&
		    (p->line <= 0 || walk_reported_line(ld, p->line) ||
		     strstr(p->message, "failed to validate") != NULL))
			continue;
		sw_diag_add(ld->diag, p->severity, ld->file, p->line, p->column, "%s", p->message);
	}
	ld->n_msgs = 0;
	if (!ld->diag || ld->diag->count - ld->first < 2)
		return;
	int n = ld->diag->count - ld->first;
	int key[SW_DIAG_MAX];
	sw_diag_entry *e = ld->diag->entry + ld->first;
	for (int i = 0; i < n; i++) {
		key[i] = e[i].line;
		for (int f = 0; f < ld->n_foreign; f++)
			if (ld->first + i >= ld->foreign[f].first &&
			    ld->first + i < ld->foreign[f].end)
				key[i] = ld->foreign[f].line;
	}
	/* Insertion sort: stable, and the lists are short (at most SW_DIAG_MAX entries). */
	for (int i = 1; i < n; i++) {
		if (key[i - 1] <= key[i])
			continue;
		sw_diag_entry tmp = e[i];
		int k = key[i], j = i;
		while (j > 0 && key[j - 1] > k) {
			e[j] = e[j - 1];
			key[j] = key[j - 1];
			j--;
		}
		e[j] = tmp;
		key[j] = k;
	}
}

void sw__loader_done(sw__loader *ld)
{
	if (ld->oom)
		sw__loader_msg(ld, 0, 0, SW_SEV_ERROR, 0,
			       "out of memory while reading the document");
	sw__release_strings(ld);
	free(ld->strs);
	ld->strs = NULL;
	ld->cap_strs = 0;
	if (ld->doc)
		xmlFreeDoc(ld->doc);
	ld->doc = NULL;
	flush(ld);
	free(ld->msgs);
	free(ld->tags);
	free(ld->line_starts);
	free(ld->foreign);
	ld->msgs = NULL;
	ld->tags = NULL;
	ld->line_starts = NULL;
	ld->foreign = NULL;
}

/* --- stages 2 and 3 ---------------------------------------------------------------------- */

/* The message for a document over SW_IO_MAX_BYTES; size 0 when unknown (read from a stream). */
static void too_large(char *text, size_t n, uintmax_t size)
{
	char got[64] = "";
	if (size > 0)
		snprintf(got, sizeof got, " (%ju bytes)", size);
	snprintf(text, n,
		 "the document is too large%s: swerve reads scenario and automaton files of at "
		 "most %zu bytes (%zu MiB)",
		 got, SW_IO_MAX_BYTES, SW_IO_MAX_BYTES >> 20);
}

static pthread_once_t xml_once = PTHREAD_ONCE_INIT;

static void xml_init(void)
{
	xmlInitParser();
	/* Both lazy initialisations are not thread-safe in libxml2 2.9: the XSD datatype library
	 * the schemas use ('token', 'double', ...) must be registered before threads load. */
	xmlSchemaInitTypes();
	xmlRelaxNGInitTypes();
}

int sw__parse(sw__loader *ld)
{
	pthread_once(&xml_once, xml_init);
	if (ld->len > SW_IO_MAX_BYTES) { /* a document in memory; files are checked when read */
		char text[SW_DIAG_MSG];
		too_large(text, sizeof text, (uintmax_t)ld->len);
		sw__loader_msg(ld, 0, 0, SW_SEV_ERROR, 0, text);
		return 0;
	}
	if (ld->len == 0 || !ld->buf) {
		char text[128];
		snprintf(text, sizeof text, "the document is empty; expected a <%s> root element",
			 ld->what);
		sw__loader_msg(ld, 0, 0, SW_SEV_ERROR, 0, text);
		return 0;
	}
	/* XML text never contains U+0000.  libxml2 takes a NUL byte for the end of the input and
	 * then complains about a "premature end"; say what is wrong instead.  Only for documents
	 * in an ASCII-compatible encoding: UTF-16 and UTF-32 have NUL bytes in their first four. */
	const char *nul = memchr(ld->buf, '\0', ld->len);
	if (nul && nul - ld->buf >= 4) {
		int line, column;
		sw__position(ld, (size_t)(nul - ld->buf), &line, &column);
		sw__loader_msg(ld, line, column, SW_SEV_ERROR, 0,
			       "malformed XML: a NUL byte (0x00); XML text cannot contain NUL "
			       "characters (is this a binary file?)");
		return 0;
	}
	xmlParserCtxtPtr ctxt = xmlCreateMemoryParserCtxt(ld->buf, (int)ld->len);
	if (!ctxt) {
		ld->oom = 1;
		return 0;
	}
	ctxt->_private = ld;
	ctxt->sax->serror = on_parse_error;
	ctxt->sax->internalSubset = on_doctype;
	if (ctxt->sax->initialized == XML_SAX2_MAGIC &&
	    ctxt->sax->startElementNs == xmlSAX2StartElementNs)
		ctxt->sax->startElementNs = on_start_element;
	else
		ld->positions_ok = 0;
	/* No XML_PARSE_NOENT (entity substitution), DTDLOAD, DTDATTR or DTDVALID; no HUGE. */
	xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
	/* Route context-free errors to this load (thread-local handlers, restored below). */
	xmlStructuredErrorFunc old_s = xmlStructuredError;
	void *old_sctx = xmlStructuredErrorContext;
	xmlGenericErrorFunc old_g = xmlGenericError;
	void *old_gctx = xmlGenericErrorContext;
	xmlSetStructuredErrorFunc(ld, on_context_free_error);
	xmlSetGenericErrorFunc(ld, on_generic_error);
	ld->parsing = ctxt;
	xmlParseDocument(ctxt);
	ld->parsing = NULL;
	xmlSetStructuredErrorFunc(old_sctx, old_s);
	xmlSetGenericErrorFunc(old_gctx, old_g);
	xmlDocPtr doc = ctxt->myDoc;
	int ok = ctxt->wellFormed && ld->parse_errors == 0;
	ctxt->myDoc = NULL;
	xmlFreeParserCtxt(ctxt);
	if (ld->dtd_line > 0 || (doc && (doc->intSubset || doc->extSubset))) {
		char text[SW_DIAG_MSG];
		snprintf(text, sizeof text,
			 "document type declarations (<!DOCTYPE ...>) are not allowed in %s files: "
			 "they can declare entities, which swerve refuses for safety (billion "
			 "laughs, external files); remove the DOCTYPE",
			 ld->what);
		sw__loader_msg(ld, ld->dtd_line, 0, SW_SEV_ERROR, 0, text);
		ok = 0;
	}
	if (!ok && ld->parse_errors == 0 && ld->dtd_line == 0)
		sw__loader_msg(ld, 0, 0, SW_SEV_ERROR, 0,
			       "malformed XML: the document could not be parsed");
	if (ok && (!doc || !xmlDocGetRootElement(doc))) {
		sw__loader_msg(ld, 0, 0, SW_SEV_ERROR, 0,
			       "malformed XML: the document has no root element");
		ok = 0;
	}
	if (!ok) {
		xmlFreeDoc(doc);
		return 0;
	}
	ld->doc = doc;
	if (ld->positions_ok && ld->n_tags > 1)
		qsort(ld->tags, ld->n_tags, sizeof *ld->tags, sw__tag_cmp);
	return 1;
}

int sw__validate(sw__loader *ld, const char *schema_text, xmlDocPtr doc)
{
	xmlRelaxNGParserCtxtPtr pctxt =
	    xmlRelaxNGNewMemParserCtxt(schema_text, (int)strlen(schema_text));
	if (!pctxt) {
		ld->oom = 1;
		return 0;
	}
	xmlRelaxNGSetParserStructuredErrors(pctxt, on_internal_error, ld);
	xmlRelaxNGPtr schema = xmlRelaxNGParse(pctxt);
	xmlRelaxNGFreeParserCtxt(pctxt);
	if (!schema) {
		char text[128];
		snprintf(text, sizeof text,
			 "internal error: the built-in %s schema could not be compiled", ld->what);
		sw__loader_msg(ld, 0, 0, SW_SEV_ERROR, 0, text);
		return 0;
	}
	xmlRelaxNGValidCtxtPtr vctxt = xmlRelaxNGNewValidCtxt(schema);
	int rc = -1, before = ld->schema_errors;
	if (vctxt) {
		xmlRelaxNGSetValidStructuredErrors(vctxt, on_schema_error, ld);
		rc = xmlRelaxNGValidateDoc(vctxt, doc);
		xmlRelaxNGFreeValidCtxt(vctxt);
	} else {
		ld->oom = 1;
	}
	xmlRelaxNGFree(schema);
	if (rc != 0 && ld->schema_errors == before && !ld->oom) {
		char text[128];
		snprintf(text, sizeof text, "not a valid %s (the schema validator gave no detail)",
			 ld->what);
		sw__loader_msg(ld, 0, 0, SW_SEV_ERROR, 1, text);
		ld->schema_errors++;
	}
	return rc == 0;
}

int sw__validate_element(sw__loader *ld, const char *schema_text, xmlNodePtr node)
{
	xmlDocPtr tmp = xmlNewDoc((const xmlChar *)"1.0");
	xmlNodePtr copy = tmp ? xmlDocCopyNode(node, tmp, 1) : NULL;
	if (!copy) {
		xmlFreeDoc(tmp);
		ld->oom = 1;
		return 0;
	}
	xmlDocSetRootElement(tmp, copy);
	const char *what = ld->what;
	ld->what = "automaton";
	int ok = sw__validate(ld, schema_text, tmp);
	ld->what = what;
	xmlFreeDoc(tmp);
	return ok;
}

/* --- stage 1 ----------------------------------------------------------------------------- */

int sw__read_file(const char *path, char **buf, size_t *len, sw_diag *diag)
{
	char reason[256];
	/* Regular files only: a FIFO would block the open or the reads, a device (/dev/zero)
	 * never ends. */
	int fd = sw__file_open_regular(path, reason, sizeof reason);
	FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
	if (!f) {
		if (fd >= 0) {
			if (strerror_r(errno, reason, sizeof reason) != 0)
				snprintf(reason, sizeof reason, "error %d", errno);
			close(fd);
		}
		sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "cannot open %s: %s%s", path, reason,
			    fd == -2 ? "; expected a regular file" : "");
		return fd == -2 ? SW_EINPUT : SW_EIO;
	}
	/* Too large: refused from its size, else (the file grew) as soon as more than
	 * SW_IO_MAX_BYTES have been read. */
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && st.st_size > 0 &&
	    (uintmax_t)st.st_size > SW_IO_MAX_BYTES) {
		fclose(f);
		char text[SW_DIAG_MSG];
		too_large(text, sizeof text, (uintmax_t)st.st_size);
		sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "%s", text);
		return SW_EINPUT;
	}
	size_t cap = 1 << 16, n = 0;
	char *data = malloc(cap);
	int status = data ? SW_SUCCESS : SW_ENOMEM;
	while (status == SW_SUCCESS) {
		if (n > SW_IO_MAX_BYTES) {
			char text[SW_DIAG_MSG];
			too_large(text, sizeof text, 0);
			sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "%s", text);
			status = SW_EINPUT;
			break;
		}
		if (n == cap) { /* grows to at most one byte past the limit */
			size_t want = cap * 2 < SW_IO_MAX_BYTES + 1 ? cap * 2 : SW_IO_MAX_BYTES + 1;
			char *p = realloc(data, want);
			if (!p) {
				status = SW_ENOMEM;
				break;
			}
			data = p;
			cap = want;
		}
		size_t got = fread(data + n, 1, cap - n, f);
		n += got;
		if (got == 0) {
			if (ferror(f)) {
				int e = errno;
				if (strerror_r(e, reason, sizeof reason) != 0)
					snprintf(reason, sizeof reason, "error %d", e);
				sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "cannot read %s: %s",
					    path, reason);
				status = SW_EIO;
			}
			break;
		}
	}
	fclose(f);
	if (status == SW_ENOMEM)
		sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "out of memory while reading %s", path);
	if (status != SW_SUCCESS) {
		free(data);
		return status;
	}
	*buf = data;
	*len = n;
	return SW_SUCCESS;
}
