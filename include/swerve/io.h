/* swerve/io.h - reading scenario and automaton files, and writing run outputs.
 *
 * io is the only module that reads XML.  Files are parsed by libxml2 with network access, DTD
 * loading and entity substitution off, then validated against the RELAX NG schemas compiled
 * into the library (schema/scenario.rng, schema/automaton.rng, with the steering laws' elements
 * written in by the build from the laws' table; sw_scenario_schema() returns the whole text).
 * Every problem becomes a diagnostic with file:line, and file:line:column inside expressions. */
#ifndef SWERVE_IO_H
#define SWERVE_IO_H

#include "swerve/api.h"

#include <stdint.h>
#include <stdio.h>

#include "swerve/model.h"
#include "swerve/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest scenario or automaton document the loaders accept, in bytes (32 MiB; the biggest
 * example model is under 64 KiB).  A larger file is refused before it is read, with a message
 * naming its size, so a hostile or mistaken input (a 100 MB file, /dev/zero) costs neither time
 * nor memory. */
#define SW_IO_MAX_BYTES ((size_t)32 << 20)

/** Loads and finalises the scenario at path (format: docs/scenario-format.md), with the
 * automata it uses: <use file="..."/> paths are relative to the scenario's folder, and errors in
 * those files cite their own path.  On success *out owns a new model (free with
 * sw_model_free()).  On failure *out is NULL, every problem found is in diag, and the status is
 * SW_EINPUT (bad file content), SW_EIO (cannot read) or SW_ENOMEM. */
SW_API int sw_scenario_load(const char *path, sw_model **out, sw_diag *diag);

/** Same as sw_scenario_load() for a document in memory; name is used in diagnostics, and
 * <use file="..."/> paths are relative to the current directory. */
SW_API int sw_scenario_load_memory(const char *buf, size_t len, const char *name, sw_model **out,
				   sw_diag *diag);

/** A numeric override of one scenario value, named as in docs/ensembles.md ("run.duration",
 * "walker.glm.d0", "group1.personality.courage", "walker.bind.wait", "*.glm.d0", or a bare
 * GLM parameter "d0" meaning "*.glm.d0"). */
typedef struct sw_override {
	const char *name;
	double value;
} sw_override;

/** sw_scenario_load() with the values named in ov[0 .. n - 1] replaced before the document is
 * validated and built, so every check of a load applies to them.  A name that matches nothing,
 * or cannot apply (a law parameter of an agent that runs a behaviour...), is an error naming
 * it and what was expected. */
SW_API int sw_scenario_load_overrides(const char *path, const sw_override *ov, int n,
				      sw_model **out, sw_diag *diag);

/** Loads and compiles the automaton file at path (format: docs/automata-format.md).  On success
 * *out owns a new automaton (free with sw_automaton_free(), or hand it to
 * sw_model_add_automaton()).  On failure *out is NULL, every problem found is in diag, and the
 * status is SW_EINPUT, SW_EIO or SW_ENOMEM. */
SW_API int sw_automaton_load(const char *path, sw_automaton **out, sw_diag *diag);

/** Same as sw_automaton_load() for a document in memory; name is used in diagnostics. */
SW_API int sw_automaton_load_memory(const char *buf, size_t len, const char *name,
				    sw_automaton **out, sw_diag *diag);

/** Kinds of swerve XML files, by their root element. */
typedef enum {
	SW_XML_UNKNOWN = 0,  /**< anything else (another root, no root, a DOCTYPE first) */
	SW_XML_SCENARIO = 1, /**< <scenario> */
	SW_XML_AUTOMATON = 2, /**< <automaton> */
	SW_XML_STEERSUITE = 3 /**< <SteerBenchTestCase> (a SteerSuite test case) */
} sw_xml_kind;

/** Looks at the root element of the file at path without parsing it (reads at most 8 KiB) and
 * stores an sw_xml_kind in *kind.  Returns SW_SUCCESS (also for SW_XML_UNKNOWN: the caller then
 * lets a full load report what is wrong) or SW_EIO with a diagnostic. */
SW_API int sw_xml_root_kind(const char *path, int *kind, sw_diag *diag);

/** Settings of a SteerSuite test-case import (docs/steersuite.md); start from
 * sw_default_steersuite_def(). */
typedef struct sw_steersuite_def {
	uint64_t seed;   /**< seed of the random placements and of the run; default 1 */
	double step;     /**< run step = one SteerSuite frame, s (> 0); default 0.01 (the
			      time-to-collision law of the pedestrian goals needs it) */
	double duration; /**< run duration, s; 0 (default) = the largest sum of one agent's goal
			      time budgets (timeDuration) */
	double reach;    /**< a static target counts as reached when the agent's centre is within
			      reach agent radii of it (> 0), a chased agent when within reach
			      agent radii of its disc; default 2.5, the tolerance of
			      SteerSuite's social-force and RVO AI modules */
	double frame;    /**< SteerBench frame, s (a whole multiple of step); default 0.05, the
			      20 frames per second SteerSuite's metrics count in */
	int fields;      /**< 1 (default): navigation fields for the places static goals lead to,
			      within the node budget, else planned routes (<routes>;
			      docs/steersuite.md); 0: neither (agents walk by their law and the
			      goals' detours alone) */
	int squeeze;     /**< 1 (default): a pedestrian stalled for 3 s with another agent
			      within 1.5 m (or stuck while passing one) after a detour of the
			      goal that did not free it squeezes past for up to 3 s: a ghost mode
			      `goal<k>_squeeze` walking on to the goal through the others (the
			      overlaps are measured and counted as SteerBench collisions); a
			      first stall, or one with nobody near, still takes the detours; 0:
			      no such mode (walkers stalled in a crowd turn aside again) */
} sw_steersuite_def;

/** The default import settings. */
SW_API sw_steersuite_def sw_default_steersuite_def(void);

/** Reads the SteerSuite test case at path (root <SteerBenchTestCase> in the namespace
 * http://www.magix.ucla.edu/steerbench) and builds the equivalent swerve scenario: its text
 * (*xml, NUL-terminated, *len bytes, caller frees; xml and len may be NULL) and the model loaded
 * from that text by the scenario reader (*out, free with sw_model_free(); may be NULL).  Every
 * problem is in diag at the test case's file:line.  Returns SW_SUCCESS, SW_EINPUT, SW_EIO,
 * SW_ENOMEM or SW_EUSAGE (bad def); on failure nothing is returned. */
SW_API int sw_steersuite_import(const char *path, const sw_steersuite_def *def, char **xml,
				size_t *len, sw_model **out, sw_diag *diag);

/** Same as sw_steersuite_import() for a test case in memory; name is used in diagnostics. */
SW_API int sw_steersuite_import_memory(const char *buf, size_t len, const char *name,
				       const sw_steersuite_def *def, char **xml, size_t *xml_len,
				       sw_model **out, sw_diag *diag);

/** Diagnostics made after an import (an export, a run) cite lines of the scenario text it
 * generated, under the test case's name: moves entries [first, diag->count) that cite path to the
 * test-case line of the element they were reported at (columns dropped; a "(line N)" in the
 * message too); entries citing a line beyond the generated text stay.  path and def must be
 * those of the import, and the file unchanged since.  Not idempotent: an entry that cites the
 * test case already (the import's own) would be moved again, so pass first = the count after
 * the import, and map each entry once.  Reads and converts the test case again (nothing is
 * loaded) when some entry cites path; leaves diag as it was when that fails.  Returns
 * SW_SUCCESS, SW_EIO, SW_EINPUT, SW_ENOMEM or SW_EUSAGE. */
SW_API int sw_steersuite_map_diag(const char *path, const sw_steersuite_def *def, sw_diag *diag,
				  int first);

/** sw_steersuite_import() returning only the model. */
SW_API int sw_steersuite_load(const char *path, const sw_steersuite_def *def, sw_model **out,
			      sw_diag *diag);

/** Parses an angle: a number in radians, or a number followed by "deg" or "rad".  Returns
 * SW_SUCCESS and *out, or SW_EINPUT for anything else (including non-finite values). */
SW_API int sw_parse_angle(const char *text, double *out);

/** The text of the scenario schema compiled into the library (NUL-terminated). */
SW_API const char *sw_scenario_schema(void);

/** The text of the automaton schema compiled into the library (NUL-terminated). */
SW_API const char *sw_automaton_schema(void);

/** A set of output files written atomically: each is written to a temporary file in the same
 * directory and renamed into place by sw_output_commit(); sw_output_abort() removes them. */
typedef struct sw_output sw_output;

/** Prepares outputs in directory dir (created if missing) for world w: trajectory.csv,
 * events.jsonl and summary.json.  Returns SW_SUCCESS or SW_EIO with a diagnostic.  *out keeps a
 * pointer to m (which must outlive it) and is ended, and freed, by exactly one of
 * sw_output_commit() and sw_output_abort(). */
SW_API int sw_output_open(const char *dir, const sw_model *m, sw_output **out, sw_diag *diag);

/** Options of sw_output_open_ex(). */
enum {
	/** also variables.csv: at every sample, one row (t, unit, mode, variable, value) per
	 * variable of every automaton unit — agents with a behaviour and signals — and, for a
	 * unit without variables, one row with its mode (variable and value empty) */
	SW_OUTPUT_VARIABLES = 1
};

/** sw_output_open() with options (SW_OUTPUT_* flags). */
SW_API int sw_output_open_ex(const char *dir, const sw_model *m, unsigned flags, sw_output **out,
			     sw_diag *diag);

/** The name of the k-th file (k = 0, 1, ...) that an output set opened with flags writes in its
 * directory ("trajectory.csv", "events.jsonl", "summary.json", with SW_OUTPUT_VARIABLES also
 * "variables.csv"), or NULL when k is past the last: for a caller that must check the names
 * before the files are opened (the CLI refuses to replace an input file). */
SW_API const char *sw_output_file_name(unsigned flags, int k);

/** Registers o to log w's transitions to events.jsonl (call right after sw_world_create); w then
 * calls into o, so o must stay open while w steps. */
SW_API void sw_output_attach(sw_output *o, sw_world *w);

/** Appends one trajectory row per agent at the world's current time (an sw_sample_fn: pass the
 * output as ctx). */
SW_API int sw_output_sample(const sw_world *w, void *ctx);

/** Writes the summary of w, closes and renames every file into place.  Frees o.  error (may be
 * NULL) marks a run that stopped early at a runtime failure: the summary then says
 * "status": "failed" with that message, and the files hold everything up to the last good
 * step. */
SW_API int sw_output_commit(sw_output *o, const sw_world *w, const char *error, sw_diag *diag);

/** Removes the temporary files and frees o.  NULL is allowed. */
SW_API void sw_output_abort(sw_output *o);

/** After a write failed (sw_output_sample returned SW_EIO): adds "DIR/FILE: cannot write the
 * output: REASON" (the first failing file and its errno text, e.g. "No space left on device")
 * to diag.  Nothing when nothing failed. */
SW_API void sw_output_report(const sw_output *o, sw_diag *diag);

/** The trajectory and event lines (and variable rows, when written) so far, as bytes (a
 * malloc'ed buffer the caller frees), for a checkpoint; sw_output_restore() puts them into the fresh files of a resumed run.  Return
 * SW_SUCCESS, SW_EIO, SW_ENOMEM, or (restore) SW_EINPUT when the bytes are not such a record. */
SW_API int sw_output_save(sw_output *o, void **out, size_t *len);
SW_API int sw_output_restore(sw_output *o, const void *data, size_t len);

/** Writes the run summary of w as JSON to f (also used by sw_output_commit); error (may be NULL)
 * as in sw_output_commit. */
SW_API int sw_summary_write_json(FILE *f, const sw_world *w, const char *error);

#ifdef __cplusplus
}
#endif
#endif
