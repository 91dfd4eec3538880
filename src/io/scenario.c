/* io/scenario.c - reading scenario files (format: docs/scenario-format.md).
 *
 * A load runs five stages, each reporting into the caller's sw_diag as "file:line: message":
 *
 *  1. bytes: the file is read into memory here (so "cannot open" is ours, with errno's reason);
 *  2. XML: libxml2 parses with network access off and no entity substitution.  A DOCTYPE is
 *     refused as soon as the parser sees it (SAX internalSubset hook + xmlStopParser), before
 *     any entity declaration is read: this closes billion-laughs and external-entity attacks
 *     without relying on libxml2's amplification limits.  Errors arrive through the parser
 *     context's own structured handler (no global handler is touched);
 *  3. schema: the RELAX NG schema compiled into the library (schema/scenario.rng) validates the
 *     document; every error it reports is collected;
 *  4. walk: the tree is read through the attribute tables below, which also know every element
 *     and attribute.  The walk always runs, because libxml2's RELAX NG messages are sometimes
 *     vague ("Extra element glm in interleave"): it names the unknown attribute or element and
 *     lists what was expected, and rejects values the schema admits but the model cannot use
 *     (INF, NaN, an integer out of range).  When both stages report, schema messages on lines
 *     the walk already explained, without a line, or that only say an ancestor "failed to
 *     validate" are dropped as duplicates;
 *  5. build: only a document that passed 3 and 4 reaches the model builder (sw_model_add_*,
 *     sw_model_set_run, sw_model_finalize), which checks ranges and the scene and cites the line
 *     stored in each def.
 *
 * Diagnostics added by one load are sorted by line at the end (stable), so the stages interleave
 * in reading order.  Thread safety: libxml2 is initialised once (pthread_once); every load uses
 * its own parser, schema and validation contexts. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/relaxng.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemastypes.h>

#include "io/io_internal.h"
#include "swerve/io.h"

/* Generated from schema/scenario.rng by scripts/embed.sh. */
extern const char sw_scenario_schema_text[];

const char *sw_scenario_schema(void)
{
	return sw_scenario_schema_text;
}

#if LIBXML_VERSION >= 21200
typedef const xmlError *xml_error_ptr;
#else
typedef xmlErrorPtr xml_error_ptr;
#endif

/* Pending messages are held at most this many; further ones go straight to the diag. */
#define PENDING_MAX 4096


/* --- loader state and messages ----------------------------------------------------------- */


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

/* Reports an error found by the walk at the line of node. */
void sw__walk_error(sw__loader *ld, xmlNodePtr node, const char *fmt, ...)
{
	char buf[SW_DIAG_MSG];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	ld->walk_errors++;
	sw__loader_msg(ld, sw__node_line(node), 0, SW_SEV_ERROR, 0, buf);
}

/* Copies a libxml2 message without its trailing newline and spaces. */
static void trim_message(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src ? src : "unknown error");
	size_t len = strlen(dst);
	while (len > 0 && (dst[len - 1] == '\n' || dst[len - 1] == ' ' || dst[len - 1] == '\r'))
		dst[--len] = '\0';
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
	/* Misplaced children of the root are the usual order mistake: say the order. */
	const char *hint = "";
	xmlNodePtr node = err->node;
	if (node && node->type == XML_ELEMENT_NODE && node->parent &&
	    node->parent->type == XML_ELEMENT_NODE && node->parent->parent &&
	    node->parent->parent->type == XML_DOCUMENT_NODE)
		hint = " (the children of <scenario> come in the order <description>, <run>, "
		       "<world>, then one or more <agent>)";
	char full[SW_DIAG_MSG + 128];
	snprintf(full, sizeof full, "not a valid scenario: %s%s", text, hint);
	sw__loader_msg(ld, line, 0, sev, 1, full);
}

/* Errors while compiling the built-in schema (a bug in schema/scenario.rng). */
static void on_internal_error(void *user, xml_error_ptr err)
{
	sw__loader *ld = user;
	if (!ld || !err)
		return;
	char text[SW_DIAG_MSG - 64]; /* room for the prefix added below */
	trim_message(text, sizeof text, err->message);
	char full[SW_DIAG_MSG];
	snprintf(full, sizeof full, "internal error in the built-in scenario schema: %s", text);
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
 * everything this load added by line. */
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
	if (!ld->diag)
		return;
	/* Insertion sort: stable, and the lists are short (at most SW_DIAG_MAX entries). */
	sw_diag_entry *e = ld->diag->entry;
	for (int i = ld->first + 1; i < ld->diag->count; i++) {
		int j = i;
		if (e[j - 1].line <= e[j].line)
			continue;
		sw_diag_entry tmp = e[i];
		while (j > ld->first && e[j - 1].line > tmp.line) {
			e[j] = e[j - 1];
			j--;
		}
		e[j] = tmp;
	}
}

/* --- the load ---------------------------------------------------------------------------- */

static pthread_once_t xml_once = PTHREAD_ONCE_INIT;

static void xml_init(void)
{
	xmlInitParser();
	/* Both lazy initialisations are not thread-safe in libxml2 2.9: the XSD datatype library
	 * the schema uses ('token', 'double', ...) must be registered before threads load. */
	xmlSchemaInitTypes();
	xmlRelaxNGInitTypes();
}

/* Stage 2: parses buf; returns the document or NULL (errors recorded in ld). */
static xmlDocPtr parse_xml(sw__loader *ld, const char *buf, int len)
{
	xmlParserCtxtPtr ctxt = xmlCreateMemoryParserCtxt(buf, len);
	if (!ctxt) {
		ld->oom = 1;
		return NULL;
	}
	ctxt->_private = ld;
	ctxt->sax->serror = on_parse_error;
	ctxt->sax->internalSubset = on_doctype;
	/* No XML_PARSE_NOENT (entity substitution), DTDLOAD, DTDATTR or DTDVALID; no HUGE. */
	xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
	xmlParseDocument(ctxt);
	xmlDocPtr doc = ctxt->myDoc;
	int ok = ctxt->wellFormed && ld->parse_errors == 0;
	ctxt->myDoc = NULL;
	xmlFreeParserCtxt(ctxt);
	if (ld->dtd_line > 0 || (doc && (doc->intSubset || doc->extSubset))) {
		sw__loader_msg(ld, ld->dtd_line, 0, SW_SEV_ERROR, 0,
			"document type declarations (<!DOCTYPE ...>) are not allowed in scenario "
			"files: they can declare entities, which swerve refuses for safety "
			"(billion laughs, external files); remove the DOCTYPE");
		ok = 0;
	}
	if (!ok && ld->parse_errors == 0 && ld->dtd_line == 0)
		sw__loader_msg(ld, 0, 0, SW_SEV_ERROR, 0, "malformed XML: the document could not be parsed");
	if (!ok) {
		xmlFreeDoc(doc);
		return NULL;
	}
	if (!doc || !xmlDocGetRootElement(doc)) {
		xmlFreeDoc(doc);
		sw__loader_msg(ld, 0, 0, SW_SEV_ERROR, 0, "malformed XML: the document has no root element");
		return NULL;
	}
	return doc;
}

/* Stage 3: validates ld->doc against the built-in schema; returns 1 when valid. */
static int validate(sw__loader *ld)
{
	xmlRelaxNGParserCtxtPtr pctxt = xmlRelaxNGNewMemParserCtxt(
		sw_scenario_schema_text, (int)strlen(sw_scenario_schema_text));
	if (!pctxt) {
		ld->oom = 1;
		return 0;
	}
	xmlRelaxNGSetParserStructuredErrors(pctxt, on_internal_error, ld);
	xmlRelaxNGPtr schema = xmlRelaxNGParse(pctxt);
	xmlRelaxNGFreeParserCtxt(pctxt);
	if (!schema) {
		sw__loader_msg(ld, 0, 0, SW_SEV_ERROR, 0,
			"internal error: the built-in scenario schema could not be compiled");
		return 0;
	}
	xmlRelaxNGValidCtxtPtr vctxt = xmlRelaxNGNewValidCtxt(schema);
	int rc = -1;
	if (vctxt) {
		xmlRelaxNGSetValidStructuredErrors(vctxt, on_schema_error, ld);
		rc = xmlRelaxNGValidateDoc(vctxt, ld->doc);
		xmlRelaxNGFreeValidCtxt(vctxt);
	} else {
		ld->oom = 1;
	}
	xmlRelaxNGFree(schema);
	if (rc != 0 && ld->schema_errors == 0 && !ld->oom) {
		sw__loader_msg(ld, 0, 0, SW_SEV_ERROR, 1,
			"not a valid scenario (the schema validator gave no detail)");
		ld->schema_errors++;
	}
	return rc == 0;
}

static int load_buffer(const char *buf, size_t len, const char *file, sw_model **out,
		       sw_diag *diag)
{
	pthread_once(&xml_once, xml_init);
	sw__loader ld;
	memset(&ld, 0, sizeof ld);
	ld.diag = diag;
	ld.file = file ? file : "";
	ld.first = diag ? diag->count : 0;
	int status = SW_EINPUT;
	if (len > INT_MAX) {
		sw_diag_add(diag, SW_SEV_ERROR, ld.file, 0, 0,
			    "the document is too large (%zu bytes; at most %d)", len, INT_MAX);
		return SW_EINPUT;
	}
	if (len == 0) {
		sw_diag_add(diag, SW_SEV_ERROR, ld.file, 0, 0,
			    "the document is empty; expected a <scenario> element");
		return SW_EINPUT;
	}
	ld.doc = parse_xml(&ld, buf, (int)len);
	if (ld.doc) {
		xmlNodePtr root = xmlDocGetRootElement(ld.doc);
		int valid = validate(&ld);
		if (root->ns && root->ns->href) {
			sw__walk_error(&ld, root,
				   "the root element <%s> is in namespace '%s'; expected <scenario> "
				   "without a namespace (remove the xmlns attribute)",
				   (const char *)root->name, (const char *)root->ns->href);
		} else if (!sw__is_element(root, "scenario")) {
			sw__walk_error(&ld, root, "the root element is <%s>; expected <scenario>",
				   (const char *)root->name);
		} else {
			/* Stage 5 runs only on a valid document: the builder would otherwise add
			 * follow-on errors (an unknown target after a misspelt <target>). */
			if (valid && ld.walk_errors == 0 && !ld.oom) {
				ld.m = sw_model_alloc(NULL, ld.file);
				if (!ld.m)
					ld.oom = 1;
			}
			sw__read_scenario(&ld, root);
		}
		if (ld.m && valid && ld.walk_errors == 0 && ld.build_status == SW_SUCCESS &&
		    !ld.oom) {
			int st = sw_model_finalize(ld.m, diag);
			if (st == SW_ENOMEM)
				ld.oom = 1;
			ld.build_status = st;
		}
		if (valid && ld.walk_errors == 0 && ld.build_status == SW_SUCCESS && !ld.oom &&
		    ld.m) {
			*out = ld.m;
			ld.m = NULL;
			status = SW_SUCCESS;
		}
		xmlFreeDoc(ld.doc);
	}
	if (ld.oom) {
		status = SW_ENOMEM;
		sw__loader_msg(&ld, 0, 0, SW_SEV_ERROR, 0, "out of memory while reading the scenario");
	}
	sw__release_strings(&ld);
	sw_model_free(ld.m);
	flush(&ld);
	free(ld.msgs);
	return status;
}

int sw_scenario_load_memory(const char *buf, size_t len, const char *name, sw_model **out,
			    sw_diag *diag)
{
	if (!out)
		return SW_EUSAGE;
	*out = NULL;
	if (!buf && len > 0)
		return SW_EUSAGE;
	return load_buffer(buf, len, name, out, diag);
}

/* Reads the whole file into a new buffer; returns SW_SUCCESS, SW_EIO or SW_ENOMEM. */
static int read_file(const char *path, char **buf, size_t *len, sw_diag *diag)
{
	char reason[256];
	FILE *f = fopen(path, "rb");
	if (!f) {
		if (strerror_r(errno, reason, sizeof reason) != 0)
			snprintf(reason, sizeof reason, "error %d", errno);
		sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "cannot open %s: %s", path, reason);
		return SW_EIO;
	}
	size_t cap = 1 << 16, n = 0;
	char *data = malloc(cap);
	int status = data ? SW_SUCCESS : SW_ENOMEM;
	while (status == SW_SUCCESS) {
		if (n == cap) {
			char *p = cap <= SIZE_MAX / 2 ? realloc(data, cap * 2) : NULL;
			if (!p) {
				status = SW_ENOMEM;
				break;
			}
			data = p;
			cap *= 2;
		}
		size_t got = fread(data + n, 1, cap - n, f);
		n += got;
		if (got == 0) {
			if (ferror(f)) {
				int e = errno;
				if (strerror_r(e, reason, sizeof reason) != 0)
					snprintf(reason, sizeof reason, "error %d", e);
				sw_diag_add(diag, SW_SEV_ERROR, path, 0, 0, "cannot read %s: %s", path,
					    reason);
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

int sw_scenario_load(const char *path, sw_model **out, sw_diag *diag)
{
	if (!out)
		return SW_EUSAGE;
	*out = NULL;
	if (!path)
		return SW_EUSAGE;
	char *buf = NULL;
	size_t len = 0;
	int status = read_file(path, &buf, &len, diag);
	if (status != SW_SUCCESS)
		return status;
	status = load_buffer(buf, len, path, out, diag);
	free(buf);
	return status;
}
