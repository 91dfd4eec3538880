/* io/scenario.c - scenario loads (format: docs/scenario-format.md) and root detection.
 *
 * The stages of a load are described in xmldoc.c; the walk is scenario_read.c.  Automata the
 * scenario uses (<behaviours>) are read and compiled during the walk, whether or not the rest of
 * the document is valid, so that their own errors are reported too; the model is built only
 * from a document that passed the schema and the walk. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/tree.h>

#include "core/core_internal.h"
#include "io/io_internal.h"
#include "swerve/io.h"

/* Generated from build/gen/scenario.rng (schema/scenario.rng with the laws' elements of
 * scripts/law_schema.c) by scripts/embed.sh. */
extern const char sw_scenario_schema_text[];

const char *sw_scenario_schema(void)
{
	return sw_scenario_schema_text;
}

static int load_buffer(const char *buf, size_t len, const char *file, int from_file,
		       const sw_override *ov, int n_ov, sw_model **out, sw_diag *diag)
{
	sw__loader ld;
	sw__loader_init(&ld, diag, file, "scenario", buf, len);
	ld.from_file = from_file;
	int status = SW_EINPUT;
	if (sw__parse(&ld) && sw__apply_overrides(&ld, ov, n_ov) == 0) {
		xmlNodePtr root = xmlDocGetRootElement(ld.doc);
		int valid = sw__validate(&ld, sw_scenario_schema_text, ld.doc);
		if (root->ns && root->ns->href) {
			sw__walk_error(
			    &ld, root,
			    "the root element <%s> is in namespace '%s'; expected <scenario> "
			    "without a namespace (remove the xmlns attribute)",
			    (const char *)root->name, (const char *)root->ns->href);
		} else if (sw__is_element(root, "automaton")) {
			sw__walk_error(
			    &ld, root,
			    "the root element is <automaton>: this is an automaton file, "
			    "not a scenario; expected <scenario> (scenarios use automata "
			    "through <behaviours><use file=\"...\"/></behaviours>)");
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
		int clean = valid && ld.walk_errors == 0 && ld.load_errors == 0 && !ld.oom;
		if (ld.m && clean && ld.build_status == SW_SUCCESS) {
			int st = sw_model_finalize(ld.m, diag);
			if (st == SW_ENOMEM)
				ld.oom = 1;
			ld.build_status = st;
		}
		if (ld.m && clean && ld.build_status == SW_SUCCESS && !ld.oom) {
			*out = ld.m;
			ld.m = NULL;
			status = SW_SUCCESS;
		}
	}
	if (ld.oom)
		status = SW_ENOMEM;
	sw_model_free(ld.m);
	ld.m = NULL;
	sw__loader_done(&ld);
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
	return load_buffer(buf, len, name, 0, NULL, 0, out, diag);
}

int sw_scenario_load(const char *path, sw_model **out, sw_diag *diag)
{
	return sw_scenario_load_overrides(path, NULL, 0, out, diag);
}

int sw_scenario_load_overrides(const char *path, const sw_override *ov, int n, sw_model **out,
			       sw_diag *diag)
{
	if (!out)
		return SW_EUSAGE;
	*out = NULL;
	if (!path || n < 0 || (n > 0 && !ov))
		return SW_EUSAGE;
	char *buf = NULL;
	size_t len = 0;
	int status = sw__read_file(path, &buf, &len, diag);
	if (status != SW_SUCCESS)
		return status;
	status = load_buffer(buf, len, path, 1, ov, n, out, diag);
	free(buf);
	return status;
}

/* --- root detection ------------------------------------------------------------------------ */

/* Skips markup before the root element of buf[0, n): the UTF-8 byte order mark, white space,
 * the XML declaration, processing instructions and comments.  Returns the offset of the root's
 * '<', or n when something else (a DOCTYPE, text, the end) comes first. */
static size_t skip_prolog(const char *b, size_t n)
{
	size_t i = 0;
	if (n >= 3 && (unsigned char)b[0] == 0xEF && (unsigned char)b[1] == 0xBB &&
	    (unsigned char)b[2] == 0xBF)
		i = 3;
	for (;;) {
		while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'))
			i++;
		if (i + 1 >= n || b[i] != '<')
			return n;
		const char *close;
		if (b[i + 1] == '?')
			close = "?>";
		else if (i + 3 < n && memcmp(b + i, "<!--", 4) == 0)
			close = "-->";
		else if (b[i + 1] == '!')
			return n; /* DOCTYPE or worse: let the full reader report it */
		else
			return i;
		size_t len = strlen(close), j = i + 2;
		while (j + len <= n && memcmp(b + j, close, len) != 0)
			j++;
		if (j + len > n)
			return n;
		i = j + len;
	}
}

int sw_xml_root_kind(const char *path, int *kind, sw_diag *diag)
{
	if (!path || !kind)
		return SW_EUSAGE;
	*kind = SW_XML_UNKNOWN;
	/* Regular files only (sw__read_file says why not); a FIFO would block here. */
	int fd = sw__file_open_regular(path, NULL, 0);
	FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		/* The same message as a load. */
		char *buf = NULL;
		size_t len = 0;
		int st = sw__read_file(path, &buf, &len, diag);
		free(buf);
		return st == SW_SUCCESS ? SW_EIO : st;
	}
	char head[8192];
	size_t n = fread(head, 1, sizeof head, f);
	fclose(f);
	size_t i = skip_prolog(head, n);
	if (i >= n)
		return SW_SUCCESS;
	size_t j = i + 1;
	while (j < n && head[j] != ' ' && head[j] != '\t' && head[j] != '\n' && head[j] != '\r' &&
	       head[j] != '>' && head[j] != '/')
		j++;
	size_t len = j - i - 1;
	if (j < n && len == 8 && memcmp(head + i + 1, "scenario", 8) == 0)
		*kind = SW_XML_SCENARIO;
	else if (j < n && len == 9 && memcmp(head + i + 1, "automaton", 9) == 0)
		*kind = SW_XML_AUTOMATON;
	else if (j < n && len == 18 && memcmp(head + i + 1, "SteerBenchTestCase", 18) == 0)
		*kind = SW_XML_STEERSUITE; /* the namespace is checked by the import */
	return SW_SUCCESS;
}
