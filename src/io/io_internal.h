/* io/io_internal.h - helpers shared by the files of the io module (not public). */
#ifndef SWERVE_IO_INTERNAL_H
#define SWERVE_IO_INTERNAL_H

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

/* --- scenario reader (scenario.c: parsing, validation, messages; scenario_read.c: the walk) */

/* One message of a load, held until the load ends (then filtered and sorted into the diag). */
typedef struct sw__pending {
	int line, column;
	sw_severity severity;
	int from_schema; /* 1: a RELAX NG message (may be dropped as a duplicate) */
	char message[SW_DIAG_MSG];
} sw__pending;

typedef struct sw__loader {
	sw_diag *diag;
	const char *file;     /* name used in diagnostics ("" when none) */
	int first;            /* diag->count when the load started */
	sw__pending *msgs;        /* messages of stages 2-4, flushed by flush() */
	int n_msgs, cap_msgs;
	int parse_errors;     /* stage 2 errors */
	int dtd_line;         /* > 0: a DOCTYPE was seen on that line */
	int schema_errors;    /* stage 3 errors */
	int walk_errors;      /* stage 4 errors */
	int build_status;     /* first failing builder status, SW_SUCCESS if none */
	int oom;              /* an allocation failed */
	sw_model *m;          /* the model being built; NULL while only checking */
	xmlDocPtr doc;
	xmlChar *strs[4];     /* attribute strings referenced by the current def */
	int n_strs;
} sw__loader;

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

/** Source line of node, 0 when unknown. */
int sw__node_line(xmlNodePtr node);

/** 1 when n is the element name (no namespace). */
int sw__is_element(xmlNodePtr n, const char *name);

/** Stage 4: reads the <scenario> element root; calls the builder when ld->m is set. */
void sw__read_scenario(sw__loader *ld, xmlNodePtr root);

/** Frees the attribute strings the last object referenced. */
void sw__release_strings(sw__loader *ld);

#endif
