/* cli/graph_dot.c - the mode graph of automata as Graphviz DOT, drawn to be read (swerve graph).
 *
 * One node per mode: the name in bold, then what the mode does -- its steering law with the
 * bound target parameter and every law parameter that differs from its default (`glm -> corner
 * v-max=1.4`), or "stand still" -- then its flows (`waited' = 1`) and invariant.  The initial mode
 * has a double border, an arrival mode a green fill.  One edge per transition: its label in bold
 * (numbered by priority when its mode has several), its guard wrapped to short lines, and its
 * resets in italics (`c := 0`); a guard longer than GUARD_LINES lines is cut with an ellipsis,
 * and the whole transition is the edge's tooltip (SVG).  Every transition is urgent (fires the
 * instant its guard holds), so none is marked as such.
 *
 * Signals: in a scenario, each signal automaton is its own cluster, and a dashed edge runs from a
 * signal's mode to every mode with a transition whose guard reads it through in(param, mode),
 * labelled with the world signal bound to param.  For an automaton file alone, a dashed note
 * stands for each signal parameter that guards read.
 *
 * Layout for compactness: top to bottom (a cycle of modes becomes a column rather than a long
 * row of wide guard labels), small fonts and separations. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "core/core_internal.h"
#include "model/automaton_impl.h"
#include "steer/steer_internal.h"

/* Characters per line of a wrapped guard, law or flow text. */
#define WRAP 26
/* Lines of a guard shown on its edge; the rest is elided (the tooltip has it whole). */
#define GUARD_LINES 3
/* Longest expression printed. */
#define EXPR_MAX 1024
/* Colours: arrival fill, signal links. */
#define ARRIVAL_FILL "#d8f0d0"
#define SIGNAL_COLOR "#8a6d00"

/* Writes s as the inside of a DOT double-quoted string. */
static void dot_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* Writes n characters of s as HTML-like label text, comparisons as their mathematical signs. */
static void html_n(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		char c = s[i], d = i + 1 < n ? s[i + 1] : '\0';
		if (d == '=' && (c == '<' || c == '>' || c == '!')) {
			fputs(c == '<' ? "&le;" : c == '>' ? "&ge;" : "&ne;", f);
			i++;
		} else if (c == '=' && d == '=') {
			fputc('=', f);
			i++;
		} else if (c == '<') {
			fputs("&lt;", f);
		} else if (c == '>') {
			fputs("&gt;", f);
		} else if (c == '&') {
			fputs("&amp;", f);
		} else if (c == '"') {
			fputs("&quot;", f);
		} else {
			fputc(c, f);
		}
	}
}

static void html(FILE *f, const char *s)
{
	html_n(f, s, strlen(s));
}

/* Starts a line of a label: a <br/> before every line but the first (*n counts them). */
static void line(FILE *f, int *n)
{
	if ((*n)++ > 0)
		fputs("<br/>", f);
}

/* Writes s wrapped at spaces into lines of at most WRAP characters (a longer word is a line of
 * its own), at most max_lines of them; an elided rest ends the last line with an ellipsis. */
static void html_wrapped(FILE *f, const char *s, int max_lines, int *n)
{
	int lines = 0;
	while (*s == ' ')
		s++;
	while (*s && lines < max_lines) {
		size_t len = strlen(s), cut = len;
		if (len > WRAP) {
			cut = 0;
			for (size_t i = 1; i <= WRAP; i++)
				if (s[i] == ' ')
					cut = i;
			if (cut == 0) /* one long word: up to its end */
				for (cut = WRAP; s[cut] && s[cut] != ' '; cut++)
					;
		}
		line(f, n);
		html_n(f, s, cut);
		s += cut;
		while (*s == ' ')
			s++;
		lines++;
		if (*s && lines == max_lines)
			fputs(" &hellip;", f);
	}
}

static void node_id(FILE *f, const sw_automaton *a, int q)
{
	fputc('"', f);
	dot_str(f, a->name);
	fputc('.', f);
	dot_str(f, a->modes[q].name);
	fputc('"', f);
}

/* Row q of a law's table as " name=value" (the attribute names of the scenario format) when its
 * value in the parameter struct p differs from the default's in p0, appended to t. */
static void law_param(sw__text *t, const sw__law_param *q, const void *p, const void *p0)
{
	double x = sw__law_param_get(q, p);
	if (x == sw__law_param_get(q, p0))
		return;
	switch (q->type) {
	case SW__P_NUM: sw__text_printf(t, " %s=%g", q->name, x); break;
	case SW__P_ANGLE: sw__text_printf(t, " %s=%gdeg", q->name, x * 180 / SW_PI); break;
	case SW__P_BOOL: sw__text_printf(t, " %s=%s", q->name, (int)x ? "true" : "false"); break;
	case SW__P_CHOICE: sw__text_printf(t, " %s=%s", q->name, q->choices[(int)x]); break;
	case SW__P_SIDE: sw__text_printf(t, " %s=%s", q->name, x > 0 ? "right" : "left"); break;
	}
}

/* The law parameters of def that differ from their defaults, as name=value, appended to t: the
 * wall's side first (as the graphs have always written it), then the rest in the table's order. */
static void law_params(sw__text *t, const sw_steer_def *def)
{
	const sw_steer_def d0 = sw_default_steer_def();
	const sw__law_table *lt = sw__law_table_of(def->law);
	if (lt) {
		const char *p = (const char *)def + lt->def_off, *p0 = (const char *)&d0 + lt->def_off;
		for (int side = 1; side >= 0; side--)
			for (int k = 0; k < lt->n; k++)
				if ((lt->p[k].type == SW__P_SIDE) == side)
					law_param(t, &lt->p[k], p, p0);
	}
	if (def->field[0]) {
		sw__text_printf(t, " field=%s", def->field);
		if (def->lookahead != d0.lookahead)
			sw__text_printf(t, " lookahead=%g", def->lookahead);
		if (def->avoid_corners)
			sw__text_put(t, " corners=avoid");
	}
}

static void graph_modes(FILE *f, const sw_automaton *a, const char *indent)
{
	char buf[EXPR_MAX];
	for (int q = 0; q < a->n_modes; q++) {
		const sw_amode *md = &a->modes[q];
		fputs(indent, f);
		node_id(f, a, q);
		fputs(" [label=<<b>", f);
		html(f, md->name);
		fputs("</b>", f);
		int n = 1;
		if (a->is_signal) {
			/* a signal has no body: nothing to say about motion */
		} else if (md->moves) {
			sw__text t = sw__text_fixed(buf, sizeof buf);
			sw__text_printf(&t, "%s", sw_law_name(md->steer.law));
			if (md->target_param >= 0)
				sw__text_printf(&t, " \xe2\x86\x92 %s",
						a->params[md->target_param].name);
			law_params(&t, &md->steer);
			sw__text_end(&t);
			html_wrapped(f, buf, 4, &n);
		} else {
			line(f, &n);
			fputs("<i>stand still</i>", f);
		}
		for (int k = 0; k < a->n_vars; k++) {
			if (!md->flows || !md->flows[k])
				continue;
			sw__text t = sw__text_fixed(buf, sizeof buf);
			sw__text_printf(&t, "%s' = ", a->vars[k].name);
			sw__text_end(&t);
			size_t len = strlen(buf);
			sw_expr_print(md->flows[k], SW_EXPR_SYNTAX_PLAIN, buf + len,
				      sizeof buf - len);
			html_wrapped(f, buf, 2, &n);
		}
		if (md->invariant) {
			snprintf(buf, sizeof buf, "inv ");
			sw_expr_print(md->invariant, SW_EXPR_SYNTAX_PLAIN, buf + 4, sizeof buf - 4);
			html_wrapped(f, buf, 2, &n);
		}
		if (md->arrival) {
			line(f, &n);
			fputs("<i>arrival</i>", f);
		}
		fputs(">", f);
		if (q == a->initial)
			fputs(", peripheries=2", f);
		if (md->arrival)
			fputs(", style=\"rounded,filled\", fillcolor=\"" ARRIVAL_FILL "\"", f);
		fputs("];\n", f);
	}
}

/* The guard of transition tr as plain text ("true" when it has none), into buf. */
static void guard_text(const sw_atrans *tr, char *buf, size_t size)
{
	if (tr->guard)
		sw_expr_print(tr->guard, SW_EXPR_SYNTAX_PLAIN, buf, size);
	else
		snprintf(buf, size, "true");
}

/* The whole transition k as plain text (the edge's tooltip). */
static void transition_text(FILE *f, const sw_automaton *a, int k)
{
	const sw_atrans *tr = &a->trans[k];
	char buf[EXPR_MAX];
	if (tr->label[0]) {
		dot_str(f, tr->label);
		fputs(": ", f);
	}
	guard_text(tr, buf, sizeof buf);
	dot_str(f, buf);
	for (int r = 0; r < tr->n_resets; r++) {
		sw_expr_print(tr->resets[r].expr, SW_EXPR_SYNTAX_PLAIN, buf, sizeof buf);
		fprintf(f, "; ");
		dot_str(f, sw__reset_name(a, &tr->resets[r]));
		fputs(" := ", f);
		dot_str(f, buf);
	}
}

static void graph_transitions(FILE *f, const sw_automaton *a, const char *indent)
{
	char buf[EXPR_MAX];
	for (int k = 0; k < a->n_trans; k++) {
		const sw_atrans *tr = &a->trans[k];
		const sw_amode *from = &a->modes[tr->from];
		fputs(indent, f);
		node_id(f, a, tr->from);
		fputs(" -> ", f);
		node_id(f, a, tr->to);
		fputs(" [label=<", f);
		int n = 0;
		if (tr->label[0] || from->trans_count > 1) {
			line(f, &n);
			fputs("<b>", f);
			if (from->trans_count > 1)
				fprintf(f, "%d%s", k - from->trans_first + 1,
					tr->label[0] ? " " : "");
			html(f, tr->label);
			fputs("</b>", f);
		}
		guard_text(tr, buf, sizeof buf);
		html_wrapped(f, buf, GUARD_LINES, &n);
		for (int r = 0; r < tr->n_resets; r++) {
			sw_expr_print(tr->resets[r].expr, SW_EXPR_SYNTAX_PLAIN, buf, sizeof buf);
			line(f, &n);
			fputs("<i>", f);
			html(f, sw__reset_name(a, &tr->resets[r]));
			fputs(" := ", f);
			html(f, buf);
			fputs("</i>", f);
		}
		fputs(">, tooltip=\"", f);
		transition_text(f, a, k);
		fputs("\"];\n", f);
	}
}

/* Called for every in(param, mode) call in the guard of transition k of a. */
typedef void (*in_visit)(FILE *f, const sw_automaton *a, int k, const sw_expr_ast *call,
			 const void *ctx);

static void find_in(FILE *f, const sw_automaton *a, int k, const sw_expr_ast *e, in_visit visit,
		    const void *ctx)
{
	if (!e)
		return;
	if (e->op == SW_EXPR_HOST && e->slot == SW_HF_IN && e->nkid == 2)
		visit(f, a, k, e, ctx);
	for (int i = 0; i < e->nkid; i++)
		find_in(f, a, k, e->kid[i], visit, ctx);
}

static void each_in(FILE *f, const sw_automaton *a, in_visit visit, const void *ctx)
{
	for (int k = 0; k < a->n_trans; k++)
		if (a->trans[k].guard)
			find_in(f, a, k, sw_expr_tree(a->trans[k].guard), visit, ctx);
}

#define SIGNAL_EDGE "style=dashed, color=\"" SIGNAL_COLOR "\", fontcolor=\"" SIGNAL_COLOR "\""

/* Automaton alone: a dashed note per signal parameter, linked to the modes whose guards read
 * it, the edge naming the signal mode read. */
static void link_param(FILE *f, const sw_automaton *a, int k, const sw_expr_ast *call,
		       const void *ctx)
{
	(void)ctx;
	fputs("  \"", f);
	dot_str(f, a->name);
	fputs("/", f);
	dot_str(f, call->kid[0]->name);
	fputs("\" -> ", f);
	node_id(f, a, a->trans[k].from);
	fputs(" [label=<", f);
	html(f, call->kid[1]->name);
	fputs(">, " SIGNAL_EDGE ", arrowhead=odot];\n", f);
}

static void param_notes(FILE *f, const sw_automaton *a)
{
	for (int p = 0; p < a->n_params; p++) {
		if (a->params[p].kind != SW_PARAM_SIGNAL)
			continue;
		fputs("  \"", f);
		dot_str(f, a->name);
		fputs("/", f);
		dot_str(f, a->params[p].name);
		fputs("\" [label=<", f);
		html(f, a->params[p].name);
		fputs("<br/><i>signal</i>>, shape=note, style=dashed, color=\"" SIGNAL_COLOR
		      "\"];\n",
		      f);
	}
	each_in(f, a, link_param, NULL);
}

/* Scenario: for the call in(param, mode) in a guard of a, a dashed edge from that mode of every
 * world signal some agent running a binds param to. */
static void link_signal(FILE *f, const sw_automaton *a, int k, const sw_expr_ast *call,
			const void *ctx)
{
	const sw_model *m = ctx;
	int p = call->kid[0]->slot, ai = sw_model_find_automaton(m, a->name);
	for (int s = 0; s < m->n_signals; s++) {
		int bound = 0;
		for (int g = 0; g < m->n_agents && !bound; g++) {
			const sw_agent *ag = &m->agents[g];
			bound =
			    ag->behaviour == ai && m->bindings[ag->binding_first + p].index == s;
		}
		if (!bound)
			continue;
		const sw_automaton *sa = m->automata[m->signals[s].automaton];
		int q = 0;
		while (q < sa->n_modes && strcmp(sa->modes[q].name, call->kid[1]->name) != 0)
			q++;
		if (q == sa->n_modes)
			continue;
		fputs("  ", f);
		node_id(f, sa, q);
		fputs(" -> ", f);
		node_id(f, a, a->trans[k].from);
		fputs(" [label=<", f);
		html(f, m->signals[s].name);
		fputs(">, " SIGNAL_EDGE ", arrowhead=odot, constraint=false];\n", f);
	}
}

static void graph_header(FILE *f, const char *name)
{
	fputs("digraph \"", f);
	dot_str(f, name);
	fputs("\" {\n"
	      "  rankdir=TB; nodesep=0.25; ranksep=0.3; newrank=true;\n"
	      "  fontname=\"Helvetica\"; fontsize=11;\n"
	      "  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=10, "
	      "margin=\"0.08,0.03\"];\n"
	      "  edge [fontname=\"Helvetica\", fontsize=8, arrowsize=0.6];\n",
	      f);
}

void graph_write_automaton(FILE *f, const sw_automaton *a)
{
	graph_header(f, a->name);
	graph_modes(f, a, "  ");
	graph_transitions(f, a, "  ");
	param_notes(f, a);
	fputs("}\n", f);
}

void graph_write_model(FILE *f, const sw_model *m)
{
	graph_header(f, m->name);
	if (m->n_automata == 0)
		fputs("  none [label=\"no behaviour automata: every agent runs its law\", "
		      "shape=plaintext];\n",
		      f);
	for (int k = 0; k < m->n_automata; k++) {
		const sw_automaton *a = m->automata[k];
		fprintf(f, "  subgraph \"cluster_%d\" {\n    label=<<b>", k);
		html(f, a->name);
		fputs("</b>", f);
		if (a->is_signal) {
			fputs(" (signal", f);
			int n = 0;
			for (int s = 0; s < m->n_signals; s++)
				if (m->signals[s].automaton == k) {
					fputs(n++ ? ", " : ": ", f);
					html(f, m->signals[s].name);
				}
			fputs(")", f);
		} else {
			int n = 0;
			for (int g = 0; g < m->n_agents; g++)
				n += m->agents[g].behaviour == k;
			fprintf(f, " (%d agent%s)", n, n == 1 ? "" : "s");
		}
		fputs(">;\n    style=rounded; color=gray60;\n", f);
		graph_modes(f, a, "    ");
		graph_transitions(f, a, "    ");
		fputs("  }\n", f);
	}
	/* Behaviour automata one below the other (invisible edges from every mode of one to the
	 * initial mode of the next), so that the width is the widest one's, not their sum; signal
	 * automata, small, stay beside them. */
	const sw_automaton *above = NULL;
	for (int k = 0; k < m->n_automata; k++) {
		const sw_automaton *a = m->automata[k];
		if (a->is_signal)
			continue;
		for (int p = 0; above && p < above->n_modes; p++) {
			fputs("  ", f);
			node_id(f, above, p);
			fputs(" -> ", f);
			node_id(f, a, a->initial);
			fputs(" [style=invis, weight=0];\n", f);
		}
		above = a;
	}
	for (int k = 0; k < m->n_automata; k++)
		each_in(f, m->automata[k], link_signal, m);
	fputs("}\n", f);
}
