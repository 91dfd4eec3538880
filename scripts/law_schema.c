/* scripts/law_schema.c - writes the RELAX NG definitions of the steering laws' elements from
 * the laws' descriptors (src/steer/params.c, sw__laws), so that a new law or parameter is a row
 * of that table and never an edit of the schemas.
 *
 * Built and run by the Makefile (linked with src/steer/params.c alone): its output replaces the
 * line holding "@LAWS@" in schema/scenario.rng and schema/automaton.rng, and the spliced files
 * (build/gen/scenario.rng, build/gen/automaton.rng) are what the library compiles in and
 * `make install` installs.  The output is the same for both schemas; what differs is in the
 * two definitions each schema writes itself:
 *   - law-common: attributes every law element takes there (the automaton's target=);
 *   - law-field: field=, lookahead= and corners=, taken by every law without SW__LAW_NO_FIELD.
 * It writes:
 *   - law: a choice of every law element;
 *   - per law, its element with one optional attribute per parameter row, typed by the row
 *     (number, angle, boolean, or the row's choices). */
#include <stdio.h>
#include <string.h>

#include "steer/steer_internal.h"

/* Names, choices and titles go into the schema as they are: refuse one that XML would need
 * escaped, or that would end the comment it stands in ("--"), here at build time rather than
 * as a schema libxml2 rejects when the library first loads a file. */
static int plain(const char *text)
{
	if (strpbrk(text, "<>&\"'") || strstr(text, "--")) {
		fprintf(stderr, "law_schema: '%s' in the laws' table cannot go into the schema as it "
				"is\n",
			text);
		return 0;
	}
	return 1;
}

static void attribute(const sw__law_param *p)
{
	printf("        <optional><attribute name=\"%s\">", p->name);
	switch (p->type) {
	case SW__P_NUM:
		printf("<ref name=\"number\"/>");
		break;
	case SW__P_ANGLE:
		printf("<ref name=\"angle\"/>");
		break;
	case SW__P_BOOL:
		printf("<ref name=\"boolean\"/>");
		break;
	case SW__P_SIDE:
		/* The reader's words for +1 and -1 (io/attrs.c read_side). */
		printf("<choice><value>right</value><value>left</value></choice>");
		break;
	case SW__P_CHOICE:
		printf("<choice>");
		for (const char *const *c = p->choices; *c; c++)
			printf("<value>%s</value>", *c);
		printf("</choice>");
		break;
	}
	printf("</attribute></optional>\n");
}

int main(void)
{
	for (int k = 0; k < SW__N_LAWS; k++) {
		const sw__law_table *t = &sw__laws[k];
		if (!plain(t->element) || !plain(t->title))
			return 1;
		for (int i = 0; i < t->n; i++) {
			if (!plain(t->p[i].name))
				return 1;
			for (const char *const *c = t->p[i].choices; c && *c; c++)
				if (!plain(*c))
					return 1;
		}
	}
	printf("  <!-- The steering laws: written by scripts/law_schema.c from the laws' table "
	       "(src/steer/params.c). -->\n");
	printf("  <define name=\"law\">\n    <choice>\n");
	for (int k = 0; k < SW__N_LAWS; k++)
		printf("      <ref name=\"%s\"/>\n", sw__laws[k].element);
	printf("    </choice>\n  </define>\n");
	for (int k = 0; k < SW__N_LAWS; k++) {
		const sw__law_table *t = &sw__laws[k];
		printf("\n  <!-- The %s. -->\n", t->title);
		printf("  <define name=\"%s\">\n    <element name=\"%s\">\n      <interleave>\n",
		       t->element, t->element);
		for (int i = 0; i < t->n; i++)
			attribute(&t->p[i]);
		printf("        <ref name=\"law-common\"/>\n");
		if (!(t->flags & SW__LAW_NO_FIELD))
			printf("        <ref name=\"law-field\"/>\n");
		printf("      </interleave>\n      <empty/>\n    </element>\n  </define>\n");
	}
	return ferror(stdout) || fflush(stdout) != 0;
}
