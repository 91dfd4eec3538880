/* export/text.c - the DOT, JSON and report printers of the IR. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core_internal.h"
#include "export_internal.h"

static const char *role_name(sw_hvar_role r)
{
	return r == SW_HVAR_STATE ? "state" : r == SW_HVAR_INPUT ? "input" : "read";
}

/* ---- DOT ------------------------------------------------------------------------------ */

static void dot_str(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

int sw_hybrid_dot(const sw_hybrid *h, FILE *f)
{
	if (!h || !f)
		return SW_EUSAGE;
	fputs("digraph \"", f);
	dot_str(f, h->name);
	fputs("\" {\n  rankdir=LR;\n  node [shape=box, style=rounded];\n", f);
	for (int i = 0; i < h->n_instances; i++) {
		const sw_hinstance *in = &h->instances[i];
		const sw_hcomponent *c = &h->components[in->component];
		fprintf(f, "  subgraph \"cluster_%s\" {\n    label=\"%s: %s\";\n", in->name, in->name,
			c->id);
		for (int q = 0; q < c->n_locations; q++) {
			fprintf(f, "    \"%s.%s\" [label=\"%s", in->name, c->locations[q].name,
				c->locations[q].name);
			if (c->locations[q].invariant) {
				char *s = xw_expr(h, c->locations[q].invariant);
				fputs("\\ninv: ", f);
				dot_str(f, s);
				free(s);
			}
			fprintf(f, "\"%s];\n", q == in->initial_location ? ", peripheries=2" : "");
		}
		for (int k = 0; k < c->n_transitions; k++) {
			const sw_htransition *t = &c->transitions[k];
			fprintf(f, "    \"%s.%s\" -> \"%s.%s\" [label=\"", in->name,
				c->locations[t->source].name, in->name, c->locations[t->target].name);
			if (t->label[0])
				fprintf(f, "%s: ", t->label);
			char *s = t->guard ? xw_expr(h, t->guard) : NULL;
			dot_str(f, s ? s : "true");
			free(s);
			fputs("\"];\n", f);
		}
		fputs("  }\n", f);
	}
	fputs("}\n", f);
	return ferror(f) ? SW_EIO : SW_SUCCESS;
}

/* ---- JSON ----------------------------------------------------------------------------- */

static void jexpr(FILE *f, const sw_hybrid *h, const sw_expr_ast *e)
{
	if (!e) {
		fputs("null", f);
		return;
	}
	char *s = xw_expr(h, e);
	sw__json_str(f, s ? s : "");
	free(s);
}

static void json_component(FILE *f, const sw_hybrid *h, const sw_hcomponent *c)
{
	fputs("    {\"id\": ", f);
	sw__json_str(f, c->id);
	fputs(",\n     \"variables\": [", f);
	for (int k = 0; k < c->n_vars; k++) {
		fputs(k ? ", " : "", f);
		fputs("{\"name\": ", f);
		sw__json_str(f, c->vars[k].name);
		fprintf(f, ", \"role\": \"%s\", \"meaning\": ", role_name(c->vars[k].role));
		sw__json_str(f, c->vars[k].meaning);
		if (c->vars[k].lifted) {
			fputs(", \"lifted\": ", f);
			jexpr(f, h, c->vars[k].lifted);
		}
		fputs("}", f);
	}
	fputs("],\n     \"labels\": [", f);
	for (int k = 0; k < c->n_labels; k++) {
		fputs(k ? ", " : "", f);
		sw__json_str(f, c->labels[k]);
	}
	fputs("],\n     \"locations\": [", f);
	for (int q = 0; q < c->n_locations; q++) {
		const sw_hlocation *l = &c->locations[q];
		fprintf(f, "%s\n      {\"id\": %d, \"name\": ", q ? "," : "", q + 1);
		sw__json_str(f, l->name);
		fputs(", \"invariant\": ", f);
		jexpr(f, h, l->invariant);
		fputs(", \"flow\": [", f);
		for (int k = 0; k < c->n_state; k++) {
			fputs(k ? ", " : "", f);
			fputs("{\"var\": ", f);
			sw__json_str(f, c->vars[k].name);
			fputs(", \"rate\": ", f);
			jexpr(f, h, l->flow[k]);
			fputs("}", f);
		}
		fputs("]}", f);
	}
	fputs("],\n     \"transitions\": [", f);
	for (int k = 0; k < c->n_transitions; k++) {
		const sw_htransition *t = &c->transitions[k];
		fprintf(f, "%s\n      {\"source\": %d, \"target\": %d, \"label\": ", k ? "," : "",
			t->source + 1, t->target + 1);
		sw__json_str(f, t->label);
		fputs(", \"guard\": ", f);
		jexpr(f, h, t->guard);
		fputs(", \"reset\": [", f);
		for (int v = 0; v < c->n_state; v++) {
			fputs(v ? ", " : "", f);
			fputs("{\"var\": ", f);
			sw__json_str(f, c->vars[v].name);
			fputs(", \"value\": ", f);
			jexpr(f, h, t->reset[v]);
			fputs("}", f);
		}
		fputs("]}", f);
	}
	fputs("]}", f);
}

int sw_hybrid_json(const sw_hybrid *h, FILE *f)
{
	if (!h || !f)
		return SW_EUSAGE;
	fputs("{\"scenario\": ", f);
	sw__json_str(f, h->name);
	fputs(", \"file\": ", f);
	sw__json_str(f, h->scenario_file);
	fputs(", \"profile\": ", f);
	sw__json_str(f, sw_export_profile_name(h->def.profile));
	fputs(",\n  \"components\": [\n", f);
	for (int c = 0; c < h->n_components; c++) {
		json_component(f, h, &h->components[c]);
		fputs(c + 1 < h->n_components ? ",\n" : "\n", f);
	}
	fputs("  ],\n  \"instances\": [", f);
	for (int i = 0; i < h->n_instances; i++) {
		const sw_hinstance *in = &h->instances[i];
		const sw_hcomponent *c = &h->components[in->component];
		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		sw__json_str(f, in->name);
		fputs(", \"component\": ", f);
		sw__json_str(f, c->id);
		fputs(", \"initial_location\": ", f);
		sw__json_str(f, c->locations[in->initial_location].name);
		fputs(", \"map\": [", f);
		for (int k = 0; k < c->n_vars; k++) {
			fputs(k ? ", " : "", f);
			fputs("{\"key\": ", f);
			sw__json_str(f, c->vars[k].name);
			fputs(", \"value\": ", f);
			sw__json_str(f, in->map[k]);
			fputs("}", f);
		}
		fputs("], \"initial\": [", f);
		for (int k = 0; k < c->n_state; k++) {
			char lo[40], hi[40];
			fprintf(f, "%s{\"var\": \"%s\", \"lo\": %s, \"hi\": %s}", k ? ", " : "",
				c->vars[k].name, sw_fmt_num(lo, sizeof lo, in->init_lo[k]),
				sw_fmt_num(hi, sizeof hi, in->init_hi[k]));
		}
		fputs("]}", f);
	}
	fputs("],\n  \"variables\": [", f);
	for (int k = 0; k < h->n_netvars; k++) {
		fputs(k ? ", " : "", f);
		sw__json_str(f, h->netvars[k]);
	}
	fputs("],\n  \"labels\": [", f);
	for (int k = 0; k < h->n_netlabels; k++) {
		fputs(k ? ", " : "", f);
		sw__json_str(f, h->netlabels[k]);
	}
	fputs("],\n  \"forbidden\": [", f);
	for (int k = 0; k < h->n_forbidden; k++) {
		fprintf(f, "%s\n    {\"name\": ", k ? "," : "");
		sw__json_str(f, h->forbidden[k].name);
		fputs(", \"what\": ", f);
		sw__json_str(f, h->forbidden[k].what);
		fputs(", \"set\": ", f);
		jexpr(f, h, h->forbidden[k].set);
		fputs("}", f);
	}
	fputs("],\n  \"approximations\": [", f);
	for (int k = 0; k < h->n_approx; k++) {
		fprintf(f, "%s\n    {\"where\": ", k ? "," : "");
		sw__json_str(f, h->approx[k].where);
		fprintf(f, ", \"sound\": %s, \"what\": ", h->approx[k].sound ? "true" : "false");
		sw__json_str(f, h->approx[k].what);
		fputs("}", f);
	}
	fputs("]}\n", f);
	return ferror(f) ? SW_EIO : SW_SUCCESS;
}

/* ---- report --------------------------------------------------------------------------- */

/* One line on a system HyST flattens: its agents, and the product's size stated up front. */
static void system_line(FILE *f, const sw_hybrid *h)
{
	int agents = 0, dim = 0;
	double locs = 1;
	for (int i = 0; i < h->n_instances; i++) {
		const sw_hcomponent *c = &h->components[h->instances[i].component];
		agents += h->instances[i].agent >= 0;
		dim += c->n_state;
		locs *= c->n_locations;
	}
	fprintf(f, "  system %s: %d instance%s (%d agent%s%s), product of %.6g locations, %d state "
		   "variables, %d unsafe set%s\n",
		h->name, h->n_instances, h->n_instances == 1 ? "" : "s", agents,
		agents == 1 ? "" : "s", agents > 1 ? " interacting: they perceive each other" : "",
		locs, dim, h->n_forbidden, h->n_forbidden == 1 ? "" : "s");
}

int sw_hybrid_report(const sw_hybrid *h, sw_export_format fmt, FILE *f)
{
	if (!h || !f)
		return SW_EUSAGE;
	int n_sound = 0;
	for (int k = 0; k < h->n_approx; k++)
		n_sound += h->approx[k].sound;
	fprintf(f, "swerve export report\n\nscenario: %s%s%s%s\nprofile:  %s\n", h->name,
		h->scenario_file[0] ? " (" : "", h->scenario_file, h->scenario_file[0] ? ")" : "",
		sw_export_profile_name(h->def.profile));
	/* Only what this export wrote (each --format rewrites this report). */
	sw_hybrid **parts = NULL;
	int n_parts = 0;
	if (fmt == SW_EXPORT_SPACEEX && sw_hybrid_parts(h, &parts, &n_parts) != SW_SUCCESS)
		return SW_ENOMEM;
	if (fmt == SW_EXPORT_SPACEEX && n_parts) {
		fprintf(f, "files:    %d independent systems (agents that cannot perceive each other "
			   "are not a product): per system S below, S.xml, S.cfg and one "
			   "S.forbid-SET.cfg per unsafe set of S\n", n_parts);
		for (int p = 0; p < n_parts; p++)
			system_line(f, parts[p]);
	} else if (fmt == SW_EXPORT_SPACEEX) {
		fprintf(f, "files:    %s.xml (SpaceEx model), %s.cfg (settings, no unsafe set)", h->name,
			h->name);
		if (h->n_forbidden > 0)
			fprintf(f, " and %d %s.forbid-SET.cfg (one per unsafe set, below)",
				h->n_forbidden, h->name);
		fputs("\n", f);
		system_line(f, h);
	} else {
		fprintf(f, "files:    %s.%s\n", h->name, fmt == SW_EXPORT_DOT ? "dot" : "json");
	}
	sw_hybrid_parts_free(parts, n_parts);
	fputs("numbers in this report are rounded to 10 digits; the files hold them exactly\n\n", f);
	fputs("components:\n", f);
	for (int c = 0; c < h->n_components; c++) {
		const sw_hcomponent *cp = &h->components[c];
		fprintf(f, "  %s: %d locations, %d transitions; variables", cp->id, cp->n_locations,
			cp->n_transitions);
		for (int k = 0; k < cp->n_vars; k++)
			fprintf(f, "%s %s (%s)", k ? "," : "", cp->vars[k].name,
				role_name(cp->vars[k].role));
		fputs("\n", f);
	}
	fputs("instances:\n", f);
	for (int i = 0; i < h->n_instances; i++)
		fprintf(f, "  %s: %s, starts in %s\n", h->instances[i].name,
			h->components[h->instances[i].component].id,
			h->components[h->instances[i].component]
			    .locations[h->instances[i].initial_location]
			    .name);
	fprintf(f, "\nover-approximations (%d): the exported automaton has more behaviours than the "
		   "simulated one, so a verifier's \"safe\" remains true of the simulation\n",
		n_sound);
	for (int k = 0; k < h->n_approx; k++)
		if (h->approx[k].sound)
			fprintf(f, "  - %s: %s\n", h->approx[k].where, h->approx[k].what);
	fprintf(f, "\ndifferences from the simulator that are not over-approximations (%d)\n",
		h->n_approx - n_sound);
	for (int k = 0; k < h->n_approx; k++)
		if (!h->approx[k].sound)
			fprintf(f, "  - %s: %s\n", h->approx[k].where, h->approx[k].what);
	fprintf(f, "\nunsafe sets (%d)%s\n", h->n_forbidden,
		fmt == SW_EXPORT_SPACEEX ? ", one configuration file each:" : ":");
	for (int k = 0; k < h->n_forbidden; k++)
		if (fmt == SW_EXPORT_SPACEEX)
			fprintf(f, "  %s.forbid-%s.cfg: %s\n", h->name, h->forbidden[k].name,
				h->forbidden[k].what);
		else
			fprintf(f, "  %s: %s\n", h->forbidden[k].name, h->forbidden[k].what);
	return ferror(f) ? SW_EIO : SW_SUCCESS;
}
