/* io/override.c - numeric overrides of a scenario (sweeps: `swerve sweep --param NAME=...`).
 *
 * An override rewrites one attribute of the parsed document before it is validated and walked,
 * so the value meets every check a value written in the file meets, and derived values
 * (personality applied to the law, group inheritance) follow from it exactly as from the file.
 * Names (docs/ensembles.md):
 *
 *   run.ATTR                 an attribute of <run> (duration, step, sample, rtol, ...)
 *   AGENT.ATTR               a number attribute of the agent (x, y, heading, speed, radius, ...)
 *   OWNER.LAW.ATTR           a parameter of the law element (glm, fw, potential, wall) of OWNER
 *   OWNER.personality.ATTR   a personality trait of OWNER
 *   OWNER.bind.PARAM         the value bound to behaviour parameter PARAM by OWNER
 *   *.LAW.ATTR, *.personality.ATTR   the same for every agent and group it applies to
 *   ATTR                     (no dot) *.glm.ATTR
 *
 * OWNER is an agent name or groupK, the K-th <group> of the file (1-based). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "core/core_internal.h"
#include "io/io_internal.h"

#define PART 128

static void err(sw__loader *ld, const char *name, const char *fmt, const char *a, const char *b)
{
	char msg[1024];
	snprintf(msg, sizeof msg, fmt, a, b);
	sw_diag_add(ld->diag, SW_SEV_ERROR, ld->file, 0, 0, "parameter '%s': %s", name, msg);
}

static xmlNodePtr child(xmlNodePtr node, const char *name)
{
	for (xmlNodePtr c = node->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && sw__is_element(c, name))
			return c;
	return NULL;
}

static xmlNodePtr law_child(xmlNodePtr node)
{
	for (xmlNodePtr c = node->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && sw__is_law(c))
			return c;
	return NULL;
}

static int has_attr(xmlNodePtr n, const char *attr)
{
	return xmlHasProp(n, (const xmlChar *)attr) != NULL;
}

/* A new empty element <name> in node: before `before` (NULL: at the end).  Its line is node's,
 * so messages about it cite the element it was added to. */
static xmlNodePtr add_child(sw__loader *ld, xmlNodePtr node, const char *name, xmlNodePtr before)
{
	xmlNodePtr n = xmlNewNode(NULL, (const xmlChar *)name);
	if (!n) {
		ld->oom = 1;
		return NULL;
	}
	n->line = node->line;
	if (before)
		xmlAddPrevSibling(before, n);
	else
		xmlAddChild(node, n);
	return n;
}

/* 1 when attr is a number attribute of element el. */
static int numeric(const char *el, const char *attr)
{
	const sw__attr_spec *s = sw__scenario_attrs(el);
	for (; s && s->name; s++)
		if (strcmp(s->name, attr) == 0)
			return s->kind == SW__A_NUMBER || s->kind == SW__A_ANGLE ||
			       s->kind == SW__A_INT || s->kind == SW__A_SEED ||
			       /* the traits: a number, or a distribution */
			       (strcmp(el, "personality") == 0 && s->kind == SW__A_OTHER);
	return 0;
}

static void list_numeric(const char *el, char *buf, size_t n)
{
	sw__text t = sw__text_fixed(buf, n);
	for (const sw__attr_spec *s = sw__scenario_attrs(el); s && s->name; s++)
		if (numeric(el, s->name)) {
			sw__text_put(&t, t.len ? ", " : "");
			sw__text_put(&t, s->name);
		}
	sw__text_end(&t);
}

static int set_attr(sw__loader *ld, xmlNodePtr n, const char *attr, double v)
{
	char text[40];
	snprintf(text, sizeof text, "%.17g", v);
	if (!xmlSetProp(n, (const xmlChar *)attr, (const xmlChar *)text))
		ld->oom = 1;
	return 1;
}

/* The behaviour an agent or group runs ("" none); an agent in a group inherits the group's. */
static int runs_behaviour(xmlNodePtr owner)
{
	if (has_attr(owner, "behaviour"))
		return 1;
	return sw__is_element(owner, "agent") && owner->parent &&
	       sw__is_element(owner->parent, "group") && has_attr(owner->parent, "behaviour");
}

/* OWNER.LAW.ATTR or OWNER.personality.ATTR on one agent or group.  quiet: part of a "*"
 * override (owners it does not apply to are skipped, not errors).  Returns 1 when applied, 0
 * when skipped, -1 on error. */
static int apply_element(sw__loader *ld, const char *name, xmlNodePtr owner, const char *el,
			 const char *attr, double v, int quiet)
{
	int is_law = strcmp(el, "personality") != 0;
	xmlNodePtr own = is_law ? law_child(owner) : child(owner, el);
	xmlNodePtr grp = sw__is_element(owner, "agent") && owner->parent &&
				 sw__is_element(owner->parent, "group")
			     ? owner->parent
			     : NULL;
	if (own && strcmp((const char *)own->name, el) != 0) {
		if (quiet)
			return 0;
		err(ld, name, "it runs <%s>, not <%s>", (const char *)own->name, el);
		return -1;
	}
	if (!own && is_law && runs_behaviour(owner)) {
		if (quiet)
			return 0;
		err(ld, name,
		    "it runs a behaviour whose modes choose the law%s%s; expected an "
		    "override of a bound parameter (OWNER.bind.PARAM)",
		    "", "");
		return -1;
	}
	if (!own && grp && (is_law ? law_child(grp) : child(grp, el))) {
		if (quiet)
			return 0; /* the group's element is overridden with the group */
		err(ld, name,
		    "the agent takes its <%s> from its <group>; expected groupK.%s... (the "
		    "group's position among the groups, from 1)",
		    is_law ? "law" : el, el);
		return -1;
	}
	if (!own) {
		/* Order in an agent or group: law, personality, bind..., agent... */
		xmlNodePtr before = owner->children;
		while (before && before->type != XML_ELEMENT_NODE)
			before = before->next;
		if (!is_law && before && sw__is_law(before))
			for (before = before->next; before && before->type != XML_ELEMENT_NODE;)
				before = before->next;
		own = add_child(ld, owner, el, before);
		if (!own)
			return -1;
	}
	return set_attr(ld, own, attr, v);
}

static int apply_bind(sw__loader *ld, const char *name, xmlNodePtr owner, const char *param,
		      double v)
{
	if (!runs_behaviour(owner)) {
		err(ld, name,
		    "it runs no behaviour; expected an agent or group with a behaviour "
		    "attribute%s%s",
		    "", "");
		return -1;
	}
	for (xmlNodePtr c = owner->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE || !sw__is_element(c, "bind"))
			continue;
		xmlChar *p = xmlGetNoNsProp(c, (const xmlChar *)"param");
		int same = p && strcmp((const char *)p, param) == 0;
		xmlFree(p);
		if (same) {
			char text[40];
			snprintf(text, sizeof text, "%.17g", v);
			if (!xmlSetProp(c, (const xmlChar *)"value", (const xmlChar *)text))
				ld->oom = 1;
			return 1;
		}
	}
	/* Binds come after law and personality, before a group's agents. */
	xmlNodePtr before = child(owner, "agent");
	xmlNodePtr b = add_child(ld, owner, "bind", before);
	if (!b)
		return -1;
	char text[40];
	snprintf(text, sizeof text, "%.17g", v);
	if (!xmlSetProp(b, (const xmlChar *)"param", (const xmlChar *)param) ||
	    !xmlSetProp(b, (const xmlChar *)"value", (const xmlChar *)text))
		ld->oom = 1;
	return 1;
}

/* The agent or group named owner (agent name or groupK), NULL when none. */
static xmlNodePtr find_owner(xmlNodePtr root, const char *owner)
{
	int k = 0;
	char gname[24];
	for (xmlNodePtr c = root->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (sw__is_element(c, "group")) {
			snprintf(gname, sizeof gname, "group%d", ++k);
			if (strcmp(gname, owner) == 0)
				return c;
		}
		xmlNodePtr first = sw__is_element(c, "group") ? c->children : c;
		for (xmlNodePtr a = first; a; a = sw__is_element(c, "group") ? a->next : NULL) {
			if (a->type != XML_ELEMENT_NODE || !sw__is_element(a, "agent"))
				continue;
			xmlChar *n = xmlGetNoNsProp(a, (const xmlChar *)"name");
			int same = n && strcmp((const char *)n, owner) == 0;
			xmlFree(n);
			if (same)
				return a;
		}
	}
	return NULL;
}

/* "*.EL.ATTR": every agent and group, in document order. */
static int apply_all(sw__loader *ld, const char *name, xmlNodePtr root, const char *el,
		     const char *attr, double v)
{
	int applied = 0;
	for (xmlNodePtr c = root->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE ||
		    (!sw__is_element(c, "agent") && !sw__is_element(c, "group")))
			continue;
		if (sw__is_element(c, "group") && (strcmp(el, "personality") == 0 || law_child(c)))
			applied += apply_element(ld, name, c, el, attr, v, 1) > 0;
		int members = sw__is_element(c, "group");
		for (xmlNodePtr a = members ? c->children : c; a; a = members ? a->next : NULL)
			if (a->type == XML_ELEMENT_NODE && sw__is_element(a, "agent"))
				applied += apply_element(ld, name, a, el, attr, v, 1) > 0;
	}
	if (applied == 0)
		err(ld, name,
		    "no agent or group it applies to (every agent runs another law or a "
		    "behaviour)%s%s",
		    "", "");
	return applied ? 0 : 1;
}

static int apply_one(sw__loader *ld, xmlNodePtr root, const sw_override *o)
{
	char a[PART] = "", b[PART] = "", c[PART] = "", list[400];
	const char *name = o->name;
	const char *d1 = strchr(name, '.'), *d2 = d1 ? strchr(d1 + 1, '.') : NULL;
	if (strlen(name) >= PART || (d2 && strchr(d2 + 1, '.'))) {
		err(ld, name,
		    "expected run.ATTR, AGENT.ATTR, OWNER.LAW.ATTR, "
		    "OWNER.personality.ATTR, OWNER.bind.PARAM or a GLM parameter%s%s",
		    "", "");
		return 1;
	}
	int three = d2 || !d1; /* OWNER.EL.ATTR, or a bare GLM parameter */
	if (!d1) {
		snprintf(a, sizeof a, "*");
		snprintf(b, sizeof b, "glm");
		snprintf(c, sizeof c, "%s", name);
	} else {
		snprintf(a, sizeof a, "%.*s", (int)(d1 - name), name);
		if (d2) {
			snprintf(b, sizeof b, "%.*s", (int)(d2 - d1 - 1), d1 + 1);
			snprintf(c, sizeof c, "%s", d2 + 1);
		} else {
			snprintf(c, sizeof c, "%s", d1 + 1);
		}
	}
	if (!three && strcmp(a, "run") == 0) {
		if (!numeric("run", c)) {
			list_numeric("run", list, sizeof list);
			err(ld, name, "<run> has no number attribute '%s'; expected one of: %s", c,
			    list);
			return 1;
		}
		xmlNodePtr run = child(root, "run");
		if (!run) { /* <run> follows <description> */
			xmlNodePtr first = root->children;
			while (first && first->type != XML_ELEMENT_NODE)
				first = first->next;
			if (first && sw__is_element(first, "description"))
				for (first = first->next; first && first->type != XML_ELEMENT_NODE;)
					first = first->next;
			run = add_child(ld, root, "run", first);
			if (!run)
				return 1;
		}
		return !set_attr(ld, run, c, o->value);
	}
	if (three && strcmp(b, "bind") != 0 && !sw__law_attrs(b)) {
		err(ld, name, "'%s' is not glm, fw, potential, wall, personality or bind", b, "");
		return 1;
	}
	if (three && strcmp(b, "bind") != 0 && !numeric(b, c)) {
		list_numeric(b, list, sizeof list);
		err(ld, name, "<%s> has no number parameter '%s'", b, c);
		sw_diag_add(ld->diag, SW_SEV_NOTE, ld->file, 0, 0,
			    "the number parameters of <%s> "
			    "are: %s",
			    b, list);
		return 1;
	}
	if (strcmp(a, "*") == 0) {
		if (!three || strcmp(b, "bind") == 0) {
			err(ld, name,
			    "'*' applies to law and personality parameters only "
			    "(*.LAW.ATTR, *.personality.ATTR)%s%s",
			    "", "");
			return 1;
		}
		return apply_all(ld, name, root, b, c, o->value);
	}
	xmlNodePtr owner = find_owner(root, a);
	if (!owner) {
		err(ld, name,
		    "no agent named '%s' and no group '%s' (groups are group1, group2, "
		    "... in file order)",
		    a, a);
		return 1;
	}
	if (!three) {
		if (!sw__is_element(owner, "agent") || !numeric("agent", c)) {
			list_numeric("agent", list, sizeof list);
			err(ld, name, "an agent has no number attribute '%s'; expected one of: %s",
			    c, list);
			return 1;
		}
		return !set_attr(ld, owner, c, o->value);
	}
	if (strcmp(b, "bind") == 0)
		return apply_bind(ld, name, owner, c, o->value) < 0;
	return apply_element(ld, name, owner, b, c, o->value, 0) < 0;
}

int sw__apply_overrides(sw__loader *ld, const sw_override *ov, int n)
{
	xmlNodePtr root = ld->doc ? xmlDocGetRootElement(ld->doc) : NULL;
	if (n <= 0 || !root || !sw__is_element(root, "scenario"))
		return 0;
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += apply_one(ld, root, &ov[i]);
	return bad + ld->oom;
}
