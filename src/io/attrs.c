/* io/attrs.c - attribute tables: one table per element, shared by the scenario and automaton
 * readers.
 *
 * Each element has a table of its attributes (name, kind, offset of the def field the value goes
 * to).  sw__read_attrs() reads a node through its table, so one table both fills the sw_*_def
 * structs and names unknown attributes with the list of expected ones.  Values the schema admits
 * but the model cannot use (INF, NaN, integers out of range) are refused here. */
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "core/core_internal.h"
#include "io/io_internal.h"
#include "steer/steer_internal.h" /* the laws' parameter tables */

/* Longest attribute value quoted in a message. */
#define QUOTE_MAX 40

const sw__attr_spec sw__no_attrs[] = {SW__END};

const sw__attr_spec sw__point_attrs[] = {SW__REQ_NUM("x", sw_vec2, x), SW__REQ_NUM("y", sw_vec2, y),
					 SW__END};

/* The law elements' attribute tables, built once from the laws' parameter tables
 * (steer/params.c): the parameters in their order, then (except <wall>) field, lookahead and
 * corners, read by read_field. */
#define LAW_SPECS_MAX 40
static sw__attr_spec law_specs[SW__N_LAWS][LAW_SPECS_MAX];
static pthread_once_t law_specs_once = PTHREAD_ONCE_INIT;

static void build_law_specs(void)
{
	for (int l = 0; l < SW__N_LAWS; l++) {
		const sw__law_table *t = sw__law_table_of((sw_law)l);
		sw__attr_spec *o = law_specs[l];
		int n = 0;
		for (int k = 0; k < t->n && n < LAW_SPECS_MAX - 4; k++) {
			const sw__law_param *q = &t->p[k];
			static const sw__attr_kind kind[] = {
			    [SW__P_NUM] = SW__A_NUMBER, [SW__P_ANGLE] = SW__A_ANGLE,
			    [SW__P_BOOL] = SW__A_BOOL,   [SW__P_CHOICE] = SW__A_CHOICE,
			    [SW__P_SIDE] = SW__A_OTHER}; /* the side: read_side */
			o[n++] = (sw__attr_spec){q->name, kind[q->type], q->off, 0, q->choices, 0};
		}
		if (!(t->flags & SW__LAW_NO_FIELD)) {
			o[n++] = (sw__attr_spec)SW__OTHER("field", 0);
			o[n++] = (sw__attr_spec)SW__OTHER("lookahead", 0);
			o[n++] = (sw__attr_spec)SW__OTHER("corners", 0);
		}
		o[n] = (sw__attr_spec)SW__END;
	}
}

const sw__attr_spec sw__personality_attrs[] = {
    SW__OTHER("agility", 0), /* a number or a distribution: read_trait() */
    SW__OTHER("mass", 0),
    SW__OTHER("courage", 0),
    SW__NUM("lambda-k-min", sw_personality, lambda_k_min),
    SW__NUM("lambda-k-max", sw_personality, lambda_k_max),
    SW__NUM("lambda-m-min", sw_personality, lambda_m_min),
    SW__NUM("lambda-m-max", sw_personality, lambda_m_max),
    SW__NUM("d0-floor", sw_personality, d0_floor),
    SW__END};

const sw__attr_spec *sw__law_attrs(const char *element)
{
	const sw__law_table *t = sw__law_table_named(element);
	if (t) {
		pthread_once(&law_specs_once, build_law_specs);
		return law_specs[t->law];
	}
	if (strcmp(element, "personality") == 0)
		return sw__personality_attrs;
	return NULL;
}

/* --- reading values ---------------------------------------------------------------------- */

/* Writes "a, b or c" (the names of one or two tables, or of a list) into buf. */
static void join_names(char *buf, size_t n, const sw__attr_spec *specs, const sw__attr_spec *extra,
		       const char *const *list)
{
	const char *names[64];
	size_t count = 0;
	if (list)
		while (list[count] && count < 64)
			names[count] = list[count], count++;
	for (const sw__attr_spec *s = specs; s && s->name && count < 64; s++)
		names[count++] = s->name;
	for (const sw__attr_spec *s = extra; s && s->name && count < 64; s++)
		names[count++] = s->name;
	sw__text t = sw__text_fixed(buf, n);
	for (size_t i = 0; i < count; i++) {
		sw__text_put(&t, i == 0 ? "" : i + 1 == count ? " or " : ", ");
		sw__text_put(&t, names[i]);
	}
	sw__text_end(&t);
}

void sw__collapse_space(char *s)
{
	char *w = s;
	int space = 0;
	for (const char *r = s; *r; r++) {
		if (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r') {
			space = w != s;
			continue;
		}
		if (space)
			*w++ = ' ';
		space = 0;
		*w++ = *r;
	}
	*w = '\0';
}

int sw__parse_bool(const char *s, int *out)
{
	char buf[8];
	if (strlen(s) >= sizeof buf)
		return -1;
	snprintf(buf, sizeof buf, "%s", s);
	sw__collapse_space(buf);
	if (strcmp(buf, "true") == 0 || strcmp(buf, "1") == 0)
		*out = 1;
	else if (strcmp(buf, "false") == 0 || strcmp(buf, "0") == 0)
		*out = 0;
	else
		return -1;
	return 0;
}

int sw__parse_int(const char *s, int allow_negative, unsigned long long limit, int *negative,
		  unsigned long long *mag)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	*negative = 0;
	if (*s == '+' || *s == '-') {
		*negative = *s == '-';
		s++;
	}
	if (*s < '0' || *s > '9')
		return -1;
	unsigned long long v = 0;
	int overflow = 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (v > (ULLONG_MAX - d) / 10)
			overflow = 1;
		else
			v = v * 10 + d;
	}
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	if (*s != '\0')
		return -1;
	if (*negative && v != 0 && !allow_negative)
		return -1;
	if (overflow || v > limit + (*negative ? 1ULL : 0ULL))
		return 1;
	*mag = v;
	return 0;
}

/* Reports a bad value of attribute spec of node at the value's file:line:column. */
static void value_error(sw__loader *ld, xmlNodePtr node, const sw__attr_spec *spec, const char *fmt,
			...) __attribute__((format(printf, 4, 5)));
static void value_error(sw__loader *ld, xmlNodePtr node, const sw__attr_spec *spec, const char *fmt,
			...)
{
	char buf[SW_DIAG_MSG];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	int line, column;
	sw__attr_position(ld, node, spec->name, &line, &column);
	sw__walk_error_at(ld, line, column, "%s", buf);
}

/* Parses one attribute value into base + spec->off; reports problems at its value. */
static void read_value(sw__loader *ld, xmlNodePtr node, const sw__attr_spec *spec, xmlChar *xval,
		       void *base)
{
	const char *val = (const char *)xval;
	char *field = (char *)base + spec->off;
	const char *el = (const char *)node->name;
	char expected[256];
	switch (spec->kind) {
	case SW__A_NUMBER: {
		int r = sw__parse_number(val, (double *)(void *)field);
		if (r == SW__NUM_NONFINITE)
			value_error(
			    ld, node, spec,
			    "attribute %s of <%s>: '%.*s' is not a finite number; expected a "
			    "decimal number such as 0.5, -2 or 1e-3",
			    spec->name, el, QUOTE_MAX, val);
		else if (r != SW__NUM_OK)
			value_error(
			    ld, node, spec,
			    "attribute %s of <%s>: '%.*s' is not a number; expected a decimal "
			    "number such as 0.5, -2 or 1e-3",
			    spec->name, el, QUOTE_MAX, val);
		break;
	}
	case SW__A_ANGLE:
		if (sw_parse_angle(val, (double *)(void *)field) != SW_SUCCESS)
			value_error(
			    ld, node, spec,
			    "attribute %s of <%s>: '%.*s' is not an angle; expected a number "
			    "in radians, or a number followed by deg or rad (e.g. 15deg, "
			    "-0.5rad)",
			    spec->name, el, QUOTE_MAX, val);
		break;
	case SW__A_BOOL:
		if (sw__parse_bool(val, (int *)(void *)field) != 0)
			value_error(ld, node, spec,
				    "attribute %s of <%s>: '%.*s' is not a boolean; expected true, "
				    "false, 1 or 0",
				    spec->name, el, QUOTE_MAX, val);
		break;
	case SW__A_INT:
	case SW__A_SEED: {
		int neg = 0;
		unsigned long long mag = 0;
		int seed = spec->kind == SW__A_SEED;
		int r = sw__parse_int(val, !seed, seed ? UINT64_MAX : (unsigned long long)INT_MAX,
				      &neg, &mag);
		if (r < 0)
			value_error(
			    ld, node, spec,
			    "attribute %s of <%s>: '%.*s' is not %s; expected a whole number "
			    "such as 4",
			    spec->name, el, QUOTE_MAX, val,
			    seed ? "a non-negative integer" : "an integer");
		else if (r > 0)
			value_error(
			    ld, node, spec,
			    "attribute %s of <%s>: '%.*s' is out of range; expected at most "
			    "%llu",
			    spec->name, el, QUOTE_MAX, val,
			    seed ? (unsigned long long)UINT64_MAX : (unsigned long long)INT_MAX);
		else if (seed)
			*(uint64_t *)(void *)field = (uint64_t)mag;
		else
			*(int *)(void *)field = neg ? -(int)(mag - 1) - 1 : (int)mag;
		break;
	}
	case SW__A_NAME:
		sw__collapse_space((char *)xval);
		*(const char **)(void *)field = val;
		break;
	case SW__A_CHOICE:
	case SW__A_CHOICE_STR: {
		char word[64];
		snprintf(word, sizeof word, "%s", val);
		sw__collapse_space(word);
		int k = 0;
		while (spec->choices[k] && strcmp(spec->choices[k], word) != 0)
			k++;
		if (!spec->choices[k]) {
			join_names(expected, sizeof expected, NULL, NULL, spec->choices);
			value_error(ld, node, spec,
				    "attribute %s of <%s>: '%.*s' is not allowed; expected %s",
				    spec->name, el, QUOTE_MAX, val, expected);
		} else if (spec->kind == SW__A_CHOICE) {
			*(int *)(void *)field = k;
		} else {
			snprintf(field, spec->size, "%s", spec->choices[k]);
		}
		break;
	}
	case SW__A_OTHER: break;
	}
}

int sw__keep_string(sw__loader *ld, xmlChar *s)
{
	if (ld->n_strs == ld->cap_strs) {
		int cap = ld->cap_strs ? 2 * ld->cap_strs : 16;
		xmlChar **p = realloc(ld->strs, (size_t)cap * sizeof *p);
		if (!p) {
			xmlFree(s);
			ld->oom = 1;
			return -1;
		}
		ld->strs = p;
		ld->cap_strs = cap;
	}
	ld->strs[ld->n_strs++] = s;
	return 0;
}

void sw__release_strings_to(sw__loader *ld, int mark)
{
	while (ld->n_strs > mark)
		xmlFree(ld->strs[--ld->n_strs]);
}

void sw__release_strings(sw__loader *ld)
{
	sw__release_strings_to(ld, 0);
}

static const sw__attr_spec *find_spec(const sw__attr_spec *specs, const char *name)
{
	for (const sw__attr_spec *s = specs; s && s->name; s++)
		if (strcmp(s->name, name) == 0)
			return s;
	return NULL;
}

int sw__read_attrs2(sw__loader *ld, xmlNodePtr node, const sw__attr_spec *specs, void *base,
		    const sw__attr_spec *extra, void *extra_base)
{
	int before = ld->walk_errors;
	const char *el = (const char *)node->name;
	for (xmlAttrPtr a = node->properties; a; a = a->next) {
		const sw__attr_spec *spec = NULL;
		void *into = base;
		if (a->ns == NULL) {
			spec = find_spec(specs, (const char *)a->name);
			if (!spec && (spec = find_spec(extra, (const char *)a->name)) != NULL)
				into = extra_base;
		}
		if (!spec) {
			char expected[512];
			join_names(expected, sizeof expected, specs, extra, NULL);
			const char *prefix =
			    a->ns && a->ns->prefix ? (const char *)a->ns->prefix : "";
			if (!expected[0])
				sw__walk_error(ld, node,
					       "unknown attribute %s%s%s on <%s>; <%s> takes no "
					       "attributes",
					       prefix, *prefix ? ":" : "", (const char *)a->name,
					       el, el);
			else
				sw__walk_error(ld, node,
					       "unknown attribute %s%s%s on <%s>; expected %s",
					       prefix, *prefix ? ":" : "", (const char *)a->name,
					       el, expected);
			continue;
		}
		if (spec->kind == SW__A_OTHER)
			continue;
		xmlChar *val = xmlNodeListGetString(ld->doc, a->children, 1);
		if (!val) {
			val = xmlStrdup((const xmlChar *)"");
			if (!val) {
				ld->oom = 1;
				continue;
			}
		}
		read_value(ld, node, spec, val, into);
		if (spec->kind == SW__A_NAME) {
			if (sw__keep_string(ld, val) !=
			    0) /* referenced by the def until released */
				*(const char **)(void *)((char *)into + spec->off) = NULL;
		} else {
			xmlFree(val);
		}
	}
	for (int t = 0; t < 2; t++)
		for (const sw__attr_spec *s = t ? extra : specs; s && s->name; s++)
			if (s->required && !xmlHasProp(node, (const xmlChar *)s->name))
				sw__walk_error(ld, node, "<%s> needs attribute %s", el, s->name);
	return ld->walk_errors - before;
}

int sw__read_attrs(sw__loader *ld, xmlNodePtr node, const sw__attr_spec *specs, void *base)
{
	return sw__read_attrs2(ld, node, specs, base, NULL, NULL);
}

void sw__unknown_child(sw__loader *ld, xmlNodePtr child, const char *parent, const char *expected)
{
	if (child->ns && child->ns->href)
		sw__walk_error(ld, child,
			       "element <%s> in namespace '%s' inside <%s>; %s files use no "
			       "namespace: expected %s",
			       (const char *)child->name, (const char *)child->ns->href, parent,
			       ld->what, expected);
	else
		sw__walk_error(ld, child, "unknown element <%s> inside <%s>; expected %s",
			       (const char *)child->name, parent, expected);
}

int sw__no_children(sw__loader *ld, xmlNodePtr node, const char *why)
{
	int bad = 0;
	for (xmlNodePtr c = node->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE)
			bad++, sw__unknown_child(ld, c, (const char *)node->name, why);
	return bad;
}

int sw__is_law(xmlNodePtr node)
{
	return node->type == XML_ELEMENT_NODE && node->ns == NULL &&
	       sw__law_table_named((const char *)node->name) != NULL;
}

/* A side attribute (SW__P_SIDE rows, such as side= of <wall>): right (+1) or left (-1). */
static int read_side(sw__loader *ld, xmlNodePtr node, const char *name, int *side)
{
	xmlChar *v = xmlGetNoNsProp(node, (const xmlChar *)name);
	if (!v)
		return 0;
	char word[16];
	snprintf(word, sizeof word, "%s", (const char *)v);
	sw__collapse_space(word);
	int bad = 0;
	if (strcmp(word, "right") == 0)
		*side = 1;
	else if (strcmp(word, "left") == 0)
		*side = -1;
	else
		bad = 1, sw__walk_error(ld, node,
					"attribute %s of <%s>: '%.*s' is not allowed; "
					"expected right or left",
					name, (const char *)node->name, QUOTE_MAX, (const char *)v);
	xmlFree(v);
	return bad;
}

/* The field, lookahead and corners attributes of the laws that steer to a target (every law
 * without SW__LAW_NO_FIELD; the schema and the attribute tables refuse them on the others). */
static int read_field(sw__loader *ld, xmlNodePtr node, sw_steer_def *steer)
{
	sw_steer_def d = sw_default_steer_def();
	snprintf(steer->field, sizeof steer->field, "%s", d.field);
	steer->lookahead = d.lookahead;
	steer->avoid_corners = d.avoid_corners;
	int bad = 0;
	xmlChar *v = xmlGetNoNsProp(node, (const xmlChar *)"field");
	if (v) {
		char word[256];
		snprintf(word, sizeof word, "%s", (const char *)v);
		sw__collapse_space(word);
		if (!word[0] || strlen((const char *)v) >= SW_FIELD_NAME_MAX)
			bad = 1, sw__walk_error(ld, node,
						"attribute field of <%s>: expected the name of a "
						"<navfield> or <vectorfield> (1 to %d characters)",
						(const char *)node->name, SW_FIELD_NAME_MAX - 1);
		else
			memcpy(steer->field, word, strlen(word) + 1);
		xmlFree(v);
	}
	v = xmlGetNoNsProp(node, (const xmlChar *)"lookahead");
	if (v) {
		double x = 0.0;
		if (sw__parse_number((const char *)v, &x) != SW__NUM_OK || !(x > 0.0))
			bad = 1, sw__walk_error(ld, node,
						"attribute lookahead of <%s>: '%.*s' is not "
						"allowed; expected a number > 0 (m)",
						(const char *)node->name, QUOTE_MAX,
						(const char *)v);
		else
			steer->lookahead = x;
		xmlFree(v);
	}
	v = xmlGetNoNsProp(node, (const xmlChar *)"corners");
	if (v) {
		int avoid = xmlStrcmp(v, (const xmlChar *)"avoid") == 0;
		if (!avoid && xmlStrcmp(v, (const xmlChar *)"cut") != 0)
			bad = 1, sw__walk_error(ld, node,
						"attribute corners of <%s>: '%.*s' is not allowed; "
						"expected cut or avoid",
						(const char *)node->name, QUOTE_MAX,
						(const char *)v);
		else
			steer->avoid_corners = avoid;
		xmlFree(v);
	}
	return bad;
}

int sw__read_law(sw__loader *ld, xmlNodePtr node, sw_steer_def *steer, const sw__attr_spec *extra,
		 void *extra_base)
{
	/* A law element (the callers check): its table; anything else reads as <wall>, as before. */
	const sw__law_table *t = sw__law_table_named((const char *)node->name);
	if (!t)
		t = sw__law_table_of(SW_LAW_WALL);
	steer->law = t->law;
	sw_steer_def d = sw_default_steer_def(); /* the law's defaults */
	memcpy((char *)steer + t->def_off, (const char *)&d + t->def_off, t->size);
	int bad = sw__read_attrs2(ld, node, sw__law_attrs(t->element), (char *)steer + t->def_off,
				  extra, extra_base);
	for (int k = 0; k < t->n; k++)
		if (t->p[k].type == SW__P_SIDE)
			bad += read_side(ld, node, t->p[k].name,
					 (int *)(void *)((char *)steer + t->def_off + t->p[k].off));
	bad += read_field(ld, node, steer);
	return bad + sw__no_children(ld, node, "no child elements (parameters are attributes)");
}

/* The two numbers of "NAME(a, b)" after the opening parenthesis; 0 on success. */
static int two_numbers(const char *args, double *a, double *b)
{
	char buf[128];
	snprintf(buf, sizeof buf, "%s", args);
	char *comma = strchr(buf, ','), *close = strrchr(buf, ')');
	if (!comma || !close || close < comma || close[1] != '\0')
		return -1;
	*comma = *close = '\0';
	return sw__parse_number(buf, a) != SW__NUM_OK || sw__parse_number(comma + 1, b) != SW__NUM_OK;
}

/* A personality trait: a number, or uniform(lo, hi) / normal(mean, sd) drawn per agent (the
 * ranges are checked with the personality, in the model). */
static int read_trait(sw__loader *ld, xmlNodePtr node, const char *name, int *has, double *value,
		      sw_trait_dist *dist)
{
	xmlChar *v = xmlGetNoNsProp(node, (const xmlChar *)name);
	*has = v != NULL;
	if (!v)
		return 0;
	char text[128];
	snprintf(text, sizeof text, "%s", (const char *)v);
	sw__collapse_space(text);
	int bad = 0;
	*dist = (sw_trait_dist){SW_TRAIT_FIXED, 0.0, 0.0};
	if (strncmp(text, "uniform", 7) == 0 || strncmp(text, "normal", 6) == 0) {
		int uni = text[0] == 'u';
		const char *open = strchr(text, '(');
		if (!open || two_numbers(open + 1, &dist->p1, &dist->p2) != 0)
			bad = 1;
		dist->kind = uni ? SW_TRAIT_UNIFORM : SW_TRAIT_NORMAL;
		*value = uni ? 0.5 * (dist->p1 + dist->p2) : dist->p1; /* until drawn */
	} else if (sw__parse_number(text, value) != SW__NUM_OK) {
		bad = 1;
	}
	if (bad)
		sw__walk_error(ld, node,
			       "attribute %s of <personality>: '%.*s' is not a number or a "
			       "distribution; expected a number in [0, 1], uniform(lo, hi) or "
			       "normal(mean, sd)",
			       name, QUOTE_MAX, (const char *)v);
	xmlFree(v);
	return bad;
}

int sw__read_personality(sw__loader *ld, xmlNodePtr node, sw_personality *p)
{
	int bad = sw__read_attrs(ld, node, sw__personality_attrs, p);
	bad += read_trait(ld, node, "agility", &p->has_agility, &p->agility, &p->agility_dist);
	bad += read_trait(ld, node, "mass", &p->has_mass, &p->mass, &p->mass_dist);
	bad += read_trait(ld, node, "courage", &p->has_courage, &p->courage, &p->courage_dist);
	return bad + sw__no_children(ld, node, "no child elements (parameters are attributes)");
}
