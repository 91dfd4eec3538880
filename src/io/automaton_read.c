/* io/automaton_read.c - reading behaviour and signal automata (format: docs/automata-format.md).
 *
 * One walk serves automaton files, files a scenario <use>s and <automaton> elements written
 * inside a scenario: it reads the element into an sw_automaton_def (transitions flattened in
 * document order, which is their priority) and, when the walk found nothing wrong, hands it to
 * sw_automaton_compile(), which resolves names and compiles the expressions.  Every expression
 * carries the line and column of its first character in the file (xmlpos.c explains how they
 * are found), so the compiler's messages point into guards and flows exactly.
 *
 * The walk checks what the schema cannot say well: at most one initial mode, a guard given
 * once, labels only for enumerations and init values that fit the kind, names that are not
 * reserved words of the expression language, no steering law in a signal automaton, and a
 * default for every parameter of a signal automaton (signals are not bound by agents). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "io/io_internal.h"
#include "swerve/io.h"

const char *sw_automaton_schema(void)
{
	return sw_automaton_schema_text;
}

/* Words the expression language keeps for itself (docs/expressions.md). */
static const char *const reserved_words[] = {
    "and",  "or",   "not", "lt",   "le",   "gt",   "ge",    "eq",    "ne",  "true", "false", "pi",
    "if",   "sin",  "cos", "tan",  "asin", "acos", "atan",  "atan2", "exp", "log",  "sqrt",  "tanh",
    "sinh", "cosh", "abs", "sign", "min",  "max",  "floor", "ceil",  "pow", "deg",  "rad",   NULL};

/* Names every behaviour expression already has: the agent's state and the perception
 * functions of the simulator. */
static const char *const builtin_names[] = {
    "x",      "y",         "heading",      "turn_rate", "speed",   "w_tar",
    "w_obs",  "t",         "time_in_mode", "dist",      "bearing", "visible",
    "inside", "clearance", "neighbors",    "progress",  "in",      NULL};

static const char *const automaton_kinds[] = {"behaviour", "signal", NULL};
static const char *const param_kinds[] = {"real",   "target", "region", "obstacle",
					  "signal", "agent",  NULL};
static const char *const var_kinds[] = {"real", "int", "enum", "clock", "bool", NULL};

_Static_assert(SW_PARAM_REAL == 0 && SW_PARAM_TARGET == 1 && SW_PARAM_REGION == 2 &&
		   SW_PARAM_OBSTACLE == 3 && SW_PARAM_SIGNAL == 4 && SW_PARAM_AGENT == 5,
	       "param kinds follow the enum");
_Static_assert(SW_VAR_REAL == 0 && SW_VAR_INT == 1 && SW_VAR_ENUM == 2 && SW_VAR_CLOCK == 3 &&
		   SW_VAR_BOOL == 4,
	       "var kinds follow the enum");

/* Attribute values read by the tables below. */
typedef struct {
	const char *name;
	int kind;                  /* automaton: 1 = signal; param, var: the kind */
	const char *text1, *text2; /* param: default; var: init, labels */
	int initial, arrival, ghost; /* mode */
} fields;

static const sw__attr_spec automaton_attrs[] = {
    SW__NAME("name", fields, name, 1), SW__CHOICE("kind", fields, kind, automaton_kinds), SW__END};

static const sw__attr_spec param_attrs[] = {SW__NAME("name", fields, name, 1),
					    SW__CHOICE("kind", fields, kind, param_kinds),
					    SW__NAME("default", fields, text1, 0), SW__END};

static const sw__attr_spec var_attrs[] = {
    SW__NAME("name", fields, name, 1), SW__CHOICE("kind", fields, kind, var_kinds),
    SW__NAME("init", fields, text1, 0), SW__NAME("labels", fields, text2, 0), SW__END};

static const sw__attr_spec mode_attrs[] = {SW__NAME("name", fields, name, 1),
					   SW__BOOL("initial", fields, initial),
					   SW__BOOL("arrival", fields, arrival),
					   SW__BOOL("ghost", fields, ghost), SW__END};

static const sw__attr_spec law_target_attr[] = {SW__NAME("target", sw_mode_def, target, 0),
						SW__END};

static const sw__attr_spec flow_attrs[] = {SW__NAME("var", sw_assign_def, var, 1), SW__END};

static const sw__attr_spec transition_attrs[] = {
    SW__NAME("to", sw_transition_def, to, 1), SW__OTHER("guard", 0),
    SW__NAME("label", sw_transition_def, label, 0), SW__END};

/* A mode or transition with the index of its first flow or reset in walk.assigns (an index,
 * because that array still moves while the walk goes on). */
typedef struct {
	sw_mode_def d;
	int first;
} mode_entry;

typedef struct {
	sw_transition_def d;
	int first;
} trans_entry;

/* State of one automaton walk. */
typedef struct {
	sw__loader *ld;
	sw_automaton_def def;
	sw_param_def *params;
	sw_var_def *vars;
	mode_entry *modes;
	trans_entry *trans;
	sw_assign_def *assigns;
	sw_mode_def *mode_defs; /* the final arrays, built by link() */
	sw_transition_def *trans_defs;
	int n_assigns, cap_params, cap_vars, cap_modes, cap_trans, cap_assigns;
	void **owned; /* expression texts, label arrays: freed at the end */
	int n_owned, cap_owned;
	xmlNodePtr initial_node; /* the mode marked initial="true", if any */
} walk;

/* Takes ownership of p (freed at the end of the walk); returns p, or NULL when p is NULL or
 * memory ran out (then p is freed). */
static void *own(walk *w, void *p)
{
	if (!p) {
		w->ld->oom = 1;
		return NULL;
	}
	if (w->n_owned == w->cap_owned) {
		int cap = w->cap_owned ? 2 * w->cap_owned : 32;
		void **o = realloc(w->owned, (size_t)cap * sizeof *o);
		if (!o) {
			free(p);
			w->ld->oom = 1;
			return NULL;
		}
		w->owned = o;
		w->cap_owned = cap;
	}
	w->owned[w->n_owned++] = p;
	return p;
}

static int is_identifier(const char *s)
{
	if (!s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return 0;
	for (s++; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
		      (*s >= '0' && *s <= '9')))
			return 0;
	return 1;
}

static int in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (strcmp(*list, s) == 0)
			return 1;
	return 0;
}

/* Checks a name that expressions use: an identifier of at most 63 characters that is neither a
 * reserved word nor (unless may_be_builtin) a built-in name.  what: "parameter", ... */
static int check_name(walk *w, xmlNodePtr node, const char *attr, const char *name,
		      const char *what, int may_be_builtin)
{
	int line, col;
	if (!name)
		return 1;
	sw__attr_position(w->ld, node, attr, &line, &col);
	if (!is_identifier(name)) {
		sw__walk_error_at(w->ld, line, col,
				  "%s name '%.40s' is not an identifier; expected a letter or _ "
				  "followed by letters, digits or _",
				  what, name);
		return 1;
	}
	if (strlen(name) >= SW_NAME_MAX) {
		sw__walk_error_at(w->ld, line, col,
				  "%s name '%.40s...' is longer than %d characters", what, name,
				  SW_NAME_MAX - 1);
		return 1;
	}
	if (in_list(reserved_words, name)) {
		sw__walk_error_at(w->ld, line, col,
				  "%s name '%s' is a reserved word of the expression language; "
				  "expected another name",
				  what, name);
		return 1;
	}
	if (!may_be_builtin && in_list(builtin_names, name)) {
		sw__walk_error_at(
		    w->ld, line, col,
		    "%s name '%s' is already a built-in name of behaviour expressions "
		    "(the agent's state x, y, heading, turn_rate, speed, w_tar, w_obs, t, "
		    "time_in_mode, or a perception function); expected another name",
		    what, name);
		return 1;
	}
	return 0;
}

/* Grows an array to hold one more element; returns 0 or -1 (out of memory). */
static int grow(walk *w, void **arr, int *cap, int n, size_t size)
{
	if (n < *cap)
		return 0;
	int c = *cap ? 2 * *cap : 8;
	void *p = realloc(*arr, (size_t)c * size);
	if (!p) {
		w->ld->oom = 1;
		return -1;
	}
	*arr = p;
	*cap = c;
	return 0;
}

#define GROW(w, arr, cap, n) grow(w, (void **)&(w)->arr, &(w)->cap, n, sizeof *(w)->arr)

/* --- declarations -------------------------------------------------------------------------- */

static void read_param(walk *w, xmlNodePtr node)
{
	sw__loader *ld = w->ld;
	fields f = {NULL, SW_PARAM_REAL, NULL, NULL, 0, 0, 0};
	int bad = sw__read_attrs(ld, node, param_attrs, &f);
	bad += sw__no_children(ld, node, "no child elements");
	bad += check_name(w, node, "name", f.name, "parameter", 0);
	sw_param_def p;
	memset(&p, 0, sizeof p);
	p.name = f.name;
	p.kind = (sw_param_kind)f.kind;
	sw__attr_position(ld, node, "name", &p.line, &p.column);
	if (f.text1) {
		p.has_default = 1;
		if (p.kind == SW_PARAM_REAL) {
			if (sw__parse_number(f.text1, &p.def_value) != SW__NUM_OK) {
				int l, c;
				sw__attr_position(ld, node, "default", &l, &c);
				sw__walk_error_at(
				    ld, l, c,
				    "default of real parameter '%s': '%.40s' is not a "
				    "finite number; expected a decimal number such as 0.5",
				    f.name ? f.name : "", f.text1);
				bad++;
			}
		} else {
			p.def_name = f.text1;
		}
	} else if (w->def.is_signal && f.name) {
		sw__walk_error_at(
		    ld, p.line, p.column,
		    "parameter '%s' of signal automaton '%s' has no default; expected "
		    "default=\"...\" (signals are not bound by agents)",
		    f.name, w->def.name ? w->def.name : "");
		bad++;
	}
	if (bad || GROW(w, params, cap_params, w->def.n_params))
		return;
	w->params[w->def.n_params++] = p;
}

/* Splits the labels of an enumeration into an owned array; returns the count or -1. */
static int split_labels(walk *w, xmlNodePtr node, const char *text, const char ***out)
{
	char *copy = own(w, strdup(text));
	const char **labels = own(w, calloc(SW_ENUM_MAX + 1, sizeof *labels));
	if (!copy || !labels)
		return -1;
	int n = 0, bad = 0;
	for (char *save = NULL, *tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (n == SW_ENUM_MAX) {
			sw__walk_error(w->ld, node,
				       "<var> has more than %d labels; expected at most %d",
				       SW_ENUM_MAX, SW_ENUM_MAX);
			return -1;
		}
		bad += check_name(w, node, "labels", tok, "label", 0);
		for (int k = 0; k < n; k++)
			if (strcmp(labels[k], tok) == 0) {
				sw__walk_error(w->ld, node, "label '%s' is listed twice", tok);
				bad++;
			}
		labels[n++] = tok;
	}
	if (n == 0) {
		sw__walk_error(w->ld, node,
			       "<var kind=\"enum\"> has no labels; expected "
			       "labels=\"name name ...\"");
		return -1;
	}
	*out = labels;
	return bad ? -1 : n;
}

static void read_var(walk *w, xmlNodePtr node)
{
	sw__loader *ld = w->ld;
	fields f = {NULL, SW_VAR_REAL, NULL, NULL, 0, 0, 0};
	int bad = sw__read_attrs(ld, node, var_attrs, &f);
	bad += sw__no_children(ld, node, "no child elements");
	bad += check_name(w, node, "name", f.name, "variable", 0);
	sw_var_def v;
	memset(&v, 0, sizeof v);
	v.name = f.name;
	v.kind = (sw_var_kind)f.kind;
	sw__attr_position(ld, node, "name", &v.line, &v.column);
	const char *name = f.name ? f.name : "";
	if (v.kind == SW_VAR_ENUM) {
		const char **labels = NULL;
		if (!f.text2) {
			sw__walk_error(ld, node,
				       "enumeration '%s' needs attribute labels (its values, "
				       "separated by spaces)",
				       name);
			bad++;
		} else if ((v.n_labels = split_labels(w, node, f.text2, &labels)) < 0) {
			bad++;
		} else {
			v.labels = labels;
		}
	} else if (f.text2) {
		int l, c;
		sw__attr_position(ld, node, "labels", &l, &c);
		sw__walk_error_at(ld, l, c,
				  "attribute labels of <var> is only for kind=\"enum\"; '%s' "
				  "is of kind %s",
				  name, var_kinds[v.kind]);
		bad++;
	}
	if (f.text1 && !bad) {
		int l, c, ok = 1, neg = 0, b = 0;
		unsigned long long mag = 0;
		const char *expect = "";
		sw__attr_position(ld, node, "init", &l, &c);
		switch (v.kind) {
		case SW_VAR_REAL:
		case SW_VAR_CLOCK:
			ok = sw__parse_number(f.text1, &v.init) == SW__NUM_OK;
			expect = "a decimal number such as 0.5";
			break;
		case SW_VAR_INT:
			ok = sw__parse_int(f.text1, 1, 1ULL << 53, &neg, &mag) == 0;
			v.init = neg ? -(double)mag : (double)mag;
			expect = "a whole number such as 3";
			break;
		case SW_VAR_BOOL:
			ok = sw__parse_bool(f.text1, &b) == 0;
			v.init = b;
			expect = "true or false";
			break;
		case SW_VAR_ENUM:
			ok = 0;
			for (int k = 0; k < v.n_labels; k++)
				if (strcmp(v.labels[k], f.text1) == 0)
					ok = 1, v.init = k;
			expect = "one of its labels";
			break;
		}
		if (!ok) {
			sw__walk_error_at(ld, l, c, "init of %s variable '%s': '%.40s' is not %s",
					  var_kinds[v.kind], name, f.text1, expect);
			bad++;
		}
	}
	if (bad || GROW(w, vars, cap_vars, w->def.n_vars))
		return;
	w->vars[w->def.n_vars++] = v;
}

/* --- modes and transitions ----------------------------------------------------------------- */

/* Reads the expression text of element node (its content) into an assignment's text. */
static const char *content(walk *w, xmlNodePtr node, int *line, int *column)
{
	return own(w, sw__content_expr(w->ld, node, line, column));
}

static int add_assign(walk *w, const sw_assign_def *a)
{
	if (GROW(w, assigns, cap_assigns, w->n_assigns))
		return -1;
	w->assigns[w->n_assigns++] = *a;
	return 0;
}

static int read_transition(walk *w, xmlNodePtr node, const char *from)
{
	sw__loader *ld = w->ld;
	sw_transition_def t;
	memset(&t, 0, sizeof t);
	t.from = from;
	t.line = sw__node_line(node);
	int bad = sw__read_attrs(ld, node, transition_attrs, &t);
	if (t.label && !is_identifier(t.label)) {
		sw__walk_error(ld, node,
			       "label '%.40s' is not an identifier; expected a letter or _ "
			       "followed by letters, digits or _",
			       t.label);
		bad++;
	}
	if (xmlHasProp(node, (const xmlChar *)"guard"))
		t.guard = own(w, sw__attr_expr(ld, node, "guard", &t.guard_line, &t.guard_column));
	int first = w->n_assigns;
	xmlNodePtr guard_el = NULL;
	for (xmlNodePtr c = node->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (sw__is_element(c, "guard")) {
			bad += sw__read_attrs(ld, c, sw__no_attrs, NULL);
			bad += sw__no_children(ld, c, "the guard's expression as text");
			if (guard_el) {
				sw__walk_error(ld, c,
					       "<transition> has a second <guard> (the first is on "
					       "line %d); expected at most one",
					       sw__node_line(guard_el));
				bad++;
			} else if (t.guard) {
				sw__walk_error(ld, c,
					       "<transition> has both a guard attribute and a "
					       "<guard> element; expected one of them");
				bad++;
			} else {
				t.guard = content(w, c, &t.guard_line, &t.guard_column);
			}
			guard_el = c;
		} else if (sw__is_element(c, "reset")) {
			sw_assign_def a;
			memset(&a, 0, sizeof a);
			int b = sw__read_attrs(ld, c, flow_attrs, &a);
			b += sw__no_children(ld, c, "the assigned value's expression as text");
			a.expr = content(w, c, &a.line, &a.column);
			bad += b;
			if (!b && add_assign(w, &a) != 0)
				bad++;
		} else {
			sw__unknown_child(ld, c, "transition",
					  "an optional <guard> and <reset var=\"...\"> elements");
			bad++;
		}
	}
	t.n_resets = w->n_assigns - first;
	if (bad || GROW(w, trans, cap_trans, w->def.n_transitions))
		return 1;
	w->trans[w->def.n_transitions++] = (trans_entry){t, first};
	return 0;
}

static void read_mode(walk *w, xmlNodePtr node)
{
	sw__loader *ld = w->ld;
	fields f = {NULL, 0, NULL, NULL, 0, 0, 0};
	sw_mode_def md;
	memset(&md, 0, sizeof md);
	md.line = sw__node_line(node);
	int bad = sw__read_attrs(ld, node, mode_attrs, &f);
	bad += check_name(w, node, "name", f.name, "mode", 1);
	md.name = f.name;
	md.arrival = f.arrival;
	md.ghost = f.ghost;
	const char *name = f.name ? f.name : "";
	if (f.initial) {
		if (w->initial_node) {
			sw__walk_error(ld, node,
				       "mode '%s' is marked initial, but so is the mode on line "
				       "%d; expected at most one initial mode",
				       name, sw__node_line(w->initial_node));
			bad++;
		} else {
			w->initial_node = node;
			w->def.initial = f.name;
		}
	}
	int first_flow = w->n_assigns, laws = 0;
	xmlNodePtr inv = NULL;
	for (xmlNodePtr c = node->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (sw__is_law(c)) {
			if (w->def.is_signal) {
				sw__walk_error(
				    ld, c,
				    "<%s> in mode '%s' of signal automaton '%s': signals "
				    "do not move; expected no steering law",
				    (const char *)c->name, name, w->def.name ? w->def.name : "");
				bad++;
			} else if (laws++ > 0) {
				sw__walk_error(ld, c,
					       "mode '%s' has more than one steering law; expected "
					       "at most one of <glm>, <fw>, <potential> or <wall>",
					       name);
				bad++;
			} else {
				md.moves = 1;
				bad += sw__read_law(ld, c, &md.steer, law_target_attr, &md);
			}
		} else if (sw__is_element(c, "flow")) {
			sw_assign_def a;
			memset(&a, 0, sizeof a);
			int b = sw__read_attrs(ld, c, flow_attrs, &a);
			b += sw__no_children(ld, c, "the flow's expression as text");
			a.expr = content(w, c, &a.line, &a.column);
			bad += b;
			if (!b && add_assign(w, &a) != 0)
				bad++;
		} else if (sw__is_element(c, "invariant")) {
			bad += sw__read_attrs(ld, c, sw__no_attrs, NULL);
			bad += sw__no_children(ld, c, "the invariant's expression as text");
			if (inv) {
				sw__walk_error(
				    ld, c,
				    "mode '%s' has a second <invariant> (the first is on "
				    "line %d); expected at most one (join conditions "
				    "with 'and')",
				    name, sw__node_line(inv));
				bad++;
			}
			inv = c;
			md.invariant = content(w, c, &md.inv_line, &md.inv_column);
		} else if (!sw__is_element(c, "transition")) {
			sw__unknown_child(
			    ld, c, "mode",
			    "at most one of <glm>, <fw>, <potential> or <wall>, then <flow>, "
			    "<invariant> and <transition> elements");
			bad++;
		}
	}
	md.n_flows = w->n_assigns - first_flow;
	if (!bad && !GROW(w, modes, cap_modes, w->def.n_modes))
		w->modes[w->def.n_modes++] = (mode_entry){md, first_flow};
	/* Transitions after the mode's own content, so that its flows stay contiguous. */
	for (xmlNodePtr c = node->children; c; c = c->next)
		if (sw__is_element(c, "transition"))
			read_transition(w, c, md.name);
}

/* Builds the def's arrays once every array has its final address; returns 0 or -1. */
static int link(walk *w)
{
	w->mode_defs = calloc((size_t)w->def.n_modes + 1, sizeof *w->mode_defs);
	w->trans_defs = calloc((size_t)w->def.n_transitions + 1, sizeof *w->trans_defs);
	if (!w->mode_defs || !w->trans_defs) {
		w->ld->oom = 1;
		return -1;
	}
	for (int m = 0; m < w->def.n_modes; m++) {
		w->mode_defs[m] = w->modes[m].d;
		w->mode_defs[m].flows =
		    w->modes[m].d.n_flows ? w->assigns + w->modes[m].first : NULL;
	}
	for (int k = 0; k < w->def.n_transitions; k++) {
		w->trans_defs[k] = w->trans[k].d;
		w->trans_defs[k].resets =
		    w->trans[k].d.n_resets ? w->assigns + w->trans[k].first : NULL;
	}
	w->def.params = w->params;
	w->def.vars = w->vars;
	w->def.modes = w->mode_defs;
	w->def.transitions = w->trans_defs;
	return 0;
}

/* --- the automaton ------------------------------------------------------------------------- */

int sw__read_automaton(sw__loader *ld, xmlNodePtr node, int valid, sw_automaton **out)
{
	*out = NULL;
	walk w;
	memset(&w, 0, sizeof w);
	w.ld = ld;
	int mark = ld->n_strs, before = ld->walk_errors;
	fields f = {NULL, 0, NULL, NULL, 0, 0, 0};
	sw__read_attrs(ld, node, automaton_attrs, &f);
	w.def.name = f.name;
	w.def.is_signal = f.kind == 1;
	w.def.file = ld->file;
	w.def.line = sw__node_line(node);
	if (f.name && (!f.name[0] || strlen(f.name) >= SW_NAME_MAX))
		sw__walk_error(ld, node,
			       "automaton name '%.40s' is empty or longer than %d "
			       "characters",
			       f.name, SW_NAME_MAX - 1);
	int descriptions = 0, modes = 0;
	for (xmlNodePtr c = node->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (sw__is_element(c, "description")) {
			if (descriptions++ > 0)
				sw__walk_error(ld, c,
					       "<automaton> has a second <description>; "
					       "expected at most one");
			sw__read_attrs(ld, c, sw__no_attrs, NULL);
			sw__no_children(ld, c, "plain text");
		} else if (sw__is_element(c, "param")) {
			read_param(&w, c);
		} else if (sw__is_element(c, "var")) {
			read_var(&w, c);
		} else if (sw__is_element(c, "mode")) {
			modes++;
			read_mode(&w, c);
		} else {
			sw__unknown_child(
			    ld, c, "automaton",
			    "<description>, <param>, <var> or <mode> (in that order)");
		}
	}
	if (modes == 0)
		sw__walk_error(ld, node, "automaton '%s' has no <mode>; expected at least one",
			       f.name ? f.name : "");
	int status = SW_EINPUT;
	if (!ld->oom && valid && ld->walk_errors == before) {
		if (link(&w) == 0) {
			status = sw_automaton_compile(&w.def, out, ld->diag);
			if (status == SW_ENOMEM)
				ld->oom = 1;
		}
	}
	if (ld->oom)
		status = SW_ENOMEM;
	if (status != SW_SUCCESS) {
		sw_automaton_free(*out);
		*out = NULL;
	}
	for (int i = 0; i < w.n_owned; i++)
		free(w.owned[i]);
	free(w.owned);
	free(w.params);
	free(w.vars);
	free(w.modes);
	free(w.trans);
	free(w.assigns);
	free(w.mode_defs);
	free(w.trans_defs);
	sw__release_strings_to(ld, mark);
	return status;
}

/* --- loads ----------------------------------------------------------------------------------- */

int sw__automaton_load_buffer(const char *buf, size_t len, const char *file, sw_automaton **out,
			      sw_diag *diag)
{
	sw__loader ld;
	sw__loader_init(&ld, diag, file, "automaton", buf, len);
	ld.from_file = 1;
	int status = SW_EINPUT;
	if (sw__parse(&ld)) {
		xmlNodePtr root = xmlDocGetRootElement(ld.doc);
		int valid = sw__validate(&ld, sw_automaton_schema_text, ld.doc);
		if (root->ns && root->ns->href) {
			sw__walk_error(
			    &ld, root,
			    "the root element <%s> is in namespace '%s'; expected <automaton> "
			    "without a namespace (remove the xmlns attribute)",
			    (const char *)root->name, (const char *)root->ns->href);
		} else if (sw__is_element(root, "scenario")) {
			sw__walk_error(&ld, root,
				       "the root element is <scenario>: this is a scenario "
				       "file, not an automaton; expected <automaton>");
		} else if (!sw__is_element(root, "automaton")) {
			sw__walk_error(&ld, root, "the root element is <%s>; expected <automaton>",
				       (const char *)root->name);
		} else {
			sw_automaton *a = NULL;
			int st = sw__read_automaton(&ld, root, valid, &a);
			if (st == SW_SUCCESS && valid && ld.walk_errors == 0 && !ld.oom) {
				*out = a;
				status = SW_SUCCESS;
			} else {
				sw_automaton_free(a);
			}
		}
	}
	if (ld.oom)
		status = SW_ENOMEM;
	sw__loader_done(&ld);
	return status;
}

int sw_automaton_load_memory(const char *buf, size_t len, const char *name, sw_automaton **out,
			     sw_diag *diag)
{
	if (!out)
		return SW_EUSAGE;
	*out = NULL;
	if (!buf && len > 0)
		return SW_EUSAGE;
	return sw__automaton_load_buffer(buf, len, name, out, diag);
}

int sw_automaton_load(const char *path, sw_automaton **out, sw_diag *diag)
{
	if (!out)
		return SW_EUSAGE;
	*out = NULL;
	if (!path)
		return SW_EUSAGE;
	char *buf = NULL;
	size_t len = 0;
	int status = sw__read_file(path, &buf, &len, diag);
	if (status != SW_SUCCESS)
		return status;
	status = sw__automaton_load_buffer(buf, len, path, out, diag);
	free(buf);
	return status;
}
