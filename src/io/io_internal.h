/* io/io_internal.h - helpers shared by the files of the io module (not public).
 *
 *   xmldoc.c          the document stages every reader shares: bytes, XML (with the byte offset
 *                     of every start tag, for exact expression columns), RELAX NG validation,
 *                     messages;
 *   xmlpos.c          positions in the raw text and expression texts cut from it;
 *   attrs.c           per-element attribute tables, value parsing, the steering-law and
 *                     personality elements both readers use;
 *   scenario.c        scenario loads (sw_scenario_load*), root detection;
 *   scenario_read.c   the walk over <scenario>: run, behaviours, world, agents, groups;
 *   automaton_read.c  the walk over <automaton> (files, <use>d files, inline elements) into an
 *                     sw_automaton_def, compiled by sw_automaton_compile; sw_automaton_load*;
 *   steersuite*.c     SteerSuite test cases into scenario documents (steersuite_internal.h). */
#ifndef SWERVE_IO_INTERNAL_H
#define SWERVE_IO_INTERNAL_H

#include <stdio.h>

#include <stddef.h>

#include <libxml/tree.h>

#include "swerve/io.h"

/** Result of sw__parse_number(). */
enum {
	SW__NUM_OK = 0,       /**< a finite number was read */
	SW__NUM_SYNTAX = 1,   /**< the text is not a decimal number */
	SW__NUM_NONFINITE = 2 /**< INF, NaN, or a decimal number too large for a double */
};

/** Parses a decimal number as written in files: optional sign, digits with an optional decimal
 * point, optional exponent ("-1.5", ".5", "2e-3"), optional surrounding whitespace.  The decimal
 * point is '.' whatever the process locale.  Hexadecimal numbers are refused.  Returns
 * SW__NUM_OK and *out, or SW__NUM_SYNTAX / SW__NUM_NONFINITE (then *out is untouched). */
int sw__parse_number(const char *text, double *out);

/* --- loads (xmldoc.c) ------------------------------------------------------------------- */

/* One message of a load, held until the load ends (then filtered and sorted into the diag). */
typedef struct sw__pending {
	int line, column;
	sw_severity severity;
	int from_schema; /* 1: a RELAX NG message (may be dropped as a duplicate) */
	char message[SW_DIAG_MSG];
} sw__pending;

/* Byte offset of the '>' (or the '/' of "/>") ending the start tag of an element. */
typedef struct sw__tag {
	const void *node;
	size_t end;
} sw__tag;

/* Orders tags by node address (qsort/bsearch over sw__loader.tags; xmldoc.c). */
int sw__tag_cmp(const void *a, const void *b);

/* Diagnostics [first, end) of the diag came from another file (a <use>d automaton): they sort
 * with the line of the element that loaded it. */
typedef struct sw__foreign {
	int first, end, line;
} sw__foreign;

typedef struct sw__loader {
	sw_diag *diag;
	const char *file;  /* name used in diagnostics ("" when none) */
	const char *what;  /* document kind in messages: "scenario" or "automaton" */
	int first;         /* diag->count when the load started */
	sw__pending *msgs; /* messages of stages 2-4, flushed by sw__flush() */
	int n_msgs, cap_msgs;
	int parse_errors;  /* stage 2 errors */
	int dtd_line;      /* > 0: a DOCTYPE was seen on that line */
	void *parsing;     /* the libxml2 parser context while sw__parse runs, else NULL */
	int schema_errors; /* stage 3 errors */
	int walk_errors;   /* stage 4 errors */
	int load_errors;   /* automata the document uses (inline or <use>d) that failed */
	int build_status;  /* first failing builder status, SW_SUCCESS if none */
	int oom;           /* an allocation failed */
	sw_model *m;       /* the model being built; NULL while only checking */
	int dim3;          /* 1 after <world dimensions="3"> (heights allowed) */
	int from_file;     /* 1: file is a path (<use file> is relative to its folder) */
	xmlDocPtr doc;
	/* The raw text, for exact columns (positions are off when the text is not UTF-8). */
	const char *buf;
	size_t len;
	size_t *line_starts; /* offset of the first byte of each line, built on first use */
	int n_lines;
	sw__tag *tags; /* every start tag, sorted by node address after the parse */
	size_t n_tags, cap_tags;
	int positions_ok; /* 0: the tags table is unusable (encoding conversion, no memory) */
	/* Attribute strings referenced by the defs being built (sw__keep_string). */
	xmlChar **strs;
	int n_strs, cap_strs;
	sw__foreign *foreign;
	int n_foreign, cap_foreign;
} sw__loader;

/** Starts a load of buf (may be NULL until sw__parse) named file, a document of kind what. */
void sw__loader_init(sw__loader *ld, sw_diag *diag, const char *file, const char *what,
		     const char *buf, size_t len);

/** Ends a load: frees the document and tables, moves the messages into the diag (sorted by
 * line, foreign ranges with their citing line) and frees them. */
void sw__loader_done(sw__loader *ld);

/** Stage 2: parses ld->buf into ld->doc, recording start-tag offsets; returns 1 on success.
 * Refuses DOCTYPEs, empty and oversized documents. */
int sw__parse(sw__loader *ld);

/** Stage 3: validates doc (ld->doc, or a document holding a copy of a subtree) against the
 * RELAX NG schema text; returns 1 when valid. */
int sw__validate(sw__loader *ld, const char *schema_text, xmlDocPtr doc);

/** Stage 3 for one element: validates a copy of node (lines kept) against schema_text. */
int sw__validate_element(sw__loader *ld, const char *schema_text, xmlNodePtr node);

/** Queues a message of the current load (from_schema: a RELAX NG message, which the walk may
 * make redundant). */
void sw__loader_msg(sw__loader *ld, int line, int column, sw_severity sev, int from_schema,
		    const char *text);

/** Queues an error found by the walk, at the line of node. */
void sw__walk_error(sw__loader *ld, xmlNodePtr node, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/** sw__walk_error() as a warning: reported, but the walk goes on and the load succeeds. */
void sw__walk_warning(sw__loader *ld, xmlNodePtr node, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/** Queues an error found by the walk at line:column. */
void sw__walk_error_at(sw__loader *ld, int line, int column, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/** Records that diag entries added from index first on came from another file loaded by the
 * element on line. */
void sw__loader_foreign(sw__loader *ld, int first, int line);

/** Reads the whole file into a new buffer; returns SW_SUCCESS, SW_EIO or SW_ENOMEM. */
int sw__read_file(const char *path, char **buf, size_t *len, sw_diag *diag);

/** Source line of node, 0 when unknown. */
int sw__node_line(xmlNodePtr node);

/** 1 when n is the element name (no namespace). */
int sw__is_element(xmlNodePtr n, const char *name);

/* --- positions in the raw text (xmlpos.c) ------------------------------------------------ */

/** Line and column (1-based, columns in bytes) of byte offset off of the raw text. */
void sw__position(sw__loader *ld, size_t off, int *line, int *column);

/** Position of the first character of the value of attribute name of node (column 0 when the
 * raw text cannot be used). */
void sw__attr_position(sw__loader *ld, xmlNodePtr node, const char *name, int *line, int *column);

/** The value of attribute name of node as an expression text whose byte offsets are those of
 * the file (see the comment in xmlpos.c), with *line, *column of its first character.  New
 * string (free()), or NULL when the attribute is absent or memory ran out (ld->oom). */
char *sw__attr_expr(sw__loader *ld, xmlNodePtr node, const char *name, int *line, int *column);

/** The text content of node as an expression text (same conventions), starting right after the
 * '>' of its start tag. */
char *sw__content_expr(sw__loader *ld, xmlNodePtr node, int *line, int *column);

/* --- attribute tables (attrs.c) ----------------------------------------------------------- */

typedef enum {
	SW__A_NUMBER,     /* double, finite */
	SW__A_ANGLE,      /* double, radians; "deg"/"rad" suffix allowed */
	SW__A_BOOL,       /* int 0/1 from true, false, 1, 0 */
	SW__A_INT,        /* int */
	SW__A_SEED,       /* uint64_t */
	SW__A_NAME,       /* const char *, whitespace-collapsed, kept until released */
	SW__A_CHOICE,     /* int index into choices */
	SW__A_CHOICE_STR, /* char[size] copy of one of choices */
	SW__A_OTHER       /* known attribute read by the caller (e.g. an expression) */
} sw__attr_kind;

typedef struct sw__attr_spec {
	const char *name;
	sw__attr_kind kind;
	size_t off; /* offset of the field in the def the values go to */
	int required;
	const char *const *choices; /* A_CHOICE, A_CHOICE_STR: NULL-terminated */
	size_t size;                /* A_CHOICE_STR: size of the char array */
} sw__attr_spec;

#define SW__NUM(n, type, field)                                                                    \
	{                                                                                          \
		n, SW__A_NUMBER, offsetof(type, field), 0, NULL, 0                                 \
	}
#define SW__REQ_NUM(n, type, field)                                                                \
	{                                                                                          \
		n, SW__A_NUMBER, offsetof(type, field), 1, NULL, 0                                 \
	}
#define SW__ANGLE(n, type, field)                                                                  \
	{                                                                                          \
		n, SW__A_ANGLE, offsetof(type, field), 0, NULL, 0                                  \
	}
#define SW__BOOL(n, type, field)                                                                   \
	{                                                                                          \
		n, SW__A_BOOL, offsetof(type, field), 0, NULL, 0                                   \
	}
#define SW__NAME(n, type, field, req)                                                              \
	{                                                                                          \
		n, SW__A_NAME, offsetof(type, field), req, NULL, 0                                 \
	}
#define SW__CHOICE(n, type, field, list)                                                           \
	{                                                                                          \
		n, SW__A_CHOICE, offsetof(type, field), 0, list, 0                                 \
	}
#define SW__OTHER(n, req)                                                                          \
	{                                                                                          \
		n, SW__A_OTHER, 0, req, NULL, 0                                                    \
	}
#define SW__END                                                                                    \
	{                                                                                          \
		NULL, SW__A_NUMBER, 0, 0, NULL, 0                                                  \
	}

extern const sw__attr_spec sw__no_attrs[];
extern const sw__attr_spec sw__point_attrs[];
extern const sw__attr_spec sw__personality_attrs[];

/** The attribute table of element <glm>, <fw>, <potential>, <wall> or <personality>; NULL for
 * others. */
const sw__attr_spec *sw__law_attrs(const char *element);

/** The attribute table of <run>, <agent>, or as sw__law_attrs; NULL for others. */
const sw__attr_spec *sw__scenario_attrs(const char *element);

/** Applies numeric overrides (docs/ensembles.md) to the parsed scenario document ld->doc before
 * it is validated; unknown names and impossible overrides are errors in ld->diag.  Returns the
 * number of errors. */
int sw__apply_overrides(sw__loader *ld, const sw_override *ov, int n);

/** Reads the attributes of node into base according to specs, and those named in extra (may be
 * NULL) into extra_base; reports unknown and missing attributes and bad values.  Returns the
 * number of problems found. */
int sw__read_attrs(sw__loader *ld, xmlNodePtr node, const sw__attr_spec *specs, void *base);
int sw__read_attrs2(sw__loader *ld, xmlNodePtr node, const sw__attr_spec *specs, void *base,
		    const sw__attr_spec *extra, void *extra_base);

/** Keeps an attribute string alive until released; returns 0, or -1 when out of memory (then
 * s is freed). */
int sw__keep_string(sw__loader *ld, xmlChar *s);

/** Frees the kept strings from index mark on (sw__release_strings: all of them). */
void sw__release_strings_to(sw__loader *ld, int mark);
void sw__release_strings(sw__loader *ld);

/** Reports an element where none (or another one) was expected. */
void sw__unknown_child(sw__loader *ld, xmlNodePtr child, const char *parent, const char *expected);

/** Reports every child element of node (which takes none); returns their number. */
int sw__no_children(sw__loader *ld, xmlNodePtr node, const char *why);

/** 1 when node is <glm>, <fw> or <potential>. */
int sw__is_law(xmlNodePtr node);

/** Reads a law element into steer (law and parameters); extra/extra_base as for
 * sw__read_attrs2.  Returns the number of problems. */
int sw__read_law(sw__loader *ld, xmlNodePtr node, sw_steer_def *steer, const sw__attr_spec *extra,
		 void *extra_base);

/** Reads a <personality> element into p. */
int sw__read_personality(sw__loader *ld, xmlNodePtr node, sw_personality *p);

/** Trims and collapses whitespace in place (the xsd:token normalisation). */
void sw__collapse_space(char *s);

/** Parses true, false, 1, 0 (surrounding spaces allowed); returns 0 or -1. */
int sw__parse_bool(const char *s, int *out);

/** Parses an optionally signed decimal integer within [-(limit+1), limit] (negative values only
 * when allow_negative); returns 0, -1 (syntax) or 1 (out of range). */
int sw__parse_int(const char *s, int allow_negative, unsigned long long limit, int *negative,
		  unsigned long long *mag);

/* --- readers ------------------------------------------------------------------------------ */

/** Stage 4 of a scenario: reads the <scenario> element root; calls the builder when ld->m is
 * set. */
void sw__read_scenario(sw__loader *ld, xmlNodePtr root);

/** Reads an <automaton> element (of a file, or inline in a scenario) and, when the walk found no
 * problem and valid is 1, compiles it.  Returns SW_SUCCESS with *out, or SW_EINPUT/SW_ENOMEM. */
int sw__read_automaton(sw__loader *ld, xmlNodePtr node, int valid, sw_automaton **out);

/** Loads an automaton document held in buf (file: its name in diagnostics, and the path its
 * messages cite).  Same results as sw_automaton_load(). */
int sw__automaton_load_buffer(const char *buf, size_t len, const char *file, sw_automaton **out,
			      sw_diag *diag);

/** Generated from build/gen/automaton.rng (schema/automaton.rng with the laws' elements of
 * scripts/law_schema.c) by scripts/embed.sh. */
extern const char sw_automaton_schema_text[];

/** Path of `file` relative to the folder of the file being read (absolute paths unchanged),
 * malloc'ed; NULL when out of memory (ld->oom set). */
char *sw__relative_path(sw__loader *ld, const char *file);

/** Reads a <navfield> or <vectorfield> of <world> (field_read.c). */
void sw__read_field(sw__loader *ld, xmlNodePtr node);
/** Reads the <routes> of <world> (field_read.c). */
void sw__read_routes(sw__loader *ld, xmlNodePtr node);

#endif
