/* swerve/core.h - status codes, diagnostics, random-number streams and atomic file writing.
 *
 * Every fallible swerve function returns an int status: SW_SUCCESS (0, equal to GSL_SUCCESS) or an
 * error code.  GSL's own codes pass through unchanged; swerve's codes start above 1024, the range
 * GSL reserves for applications.  The library never aborts and never exits. */
#ifndef SWERVE_CORE_H
#define SWERVE_CORE_H

#include "swerve/api.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <gsl/gsl_rng.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Status codes.  0 and 1..1024 are GSL's (e.g. GSL_ENOMEM = 8); ours start at 1025. */
enum {
	SW_SUCCESS = 0,     /**< equal to GSL_SUCCESS */
	SW_EINPUT = 1025,   /**< bad input: malformed or invalid file, unknown name, value out of range */
	SW_EIO = 1026,      /**< a file could not be read or written */
	SW_ENUMERIC = 1027, /**< non-finite state or step-size underflow during a run */
	SW_EZENO = 1028,    /**< too many discrete jumps at one instant */
	SW_EMODEL = 1029,   /**< the model became inconsistent at run time (e.g. invariant violated) */
	SW_ENOMEM = 1030,   /**< an allocation failed */
	SW_EUSAGE = 1031    /**< a library function was called with invalid arguments */
};

/** Returns a static, human-readable name for a status code (swerve's or GSL's). Never NULL. */
SW_API const char *sw_strerror(int status);

/** Maximum number of entries a diagnostic list holds; later entries are counted but dropped. */
#define SW_DIAG_MAX 64
/** Maximum length of one diagnostic message, including the terminating NUL. */
#define SW_DIAG_MSG 512
/** Maximum length of a file name kept in a diagnostic, including the terminating NUL. */
#define SW_DIAG_FILE 256

/** Severity of one diagnostic entry. */
typedef enum { SW_SEV_ERROR = 0, SW_SEV_WARNING = 1, SW_SEV_NOTE = 2 } sw_severity;

/** One diagnostic: where (file:line:column, 0 when unknown) and what, as one sentence. */
typedef struct sw_diag_entry {
	sw_severity severity;     /**< error, warning or note */
	char file[SW_DIAG_FILE];  /**< source file, "" when not from a file */
	int line;                 /**< 1-based line, 0 when unknown */
	int column;               /**< 1-based column, 0 when unknown */
	char message[SW_DIAG_MSG]; /**< what is wrong and what was expected */
} sw_diag_entry;

/** A caller-owned list of diagnostics filled by loaders, checkers and the simulator.
 * Initialise with sw_diag_init(); it holds no heap memory and needs no free. */
typedef struct sw_diag {
	int count;                       /**< entries stored (<= SW_DIAG_MAX) */
	int dropped;                     /**< entries that did not fit */
	int errors;                      /**< number of SW_SEV_ERROR entries added, including dropped ones */
	sw_diag_entry entry[SW_DIAG_MAX]; /**< the entries, in the order they were added */
} sw_diag;

/** Empties a diagnostic list.  diag may be NULL (then nothing happens). */
SW_API void sw_diag_init(sw_diag *diag);

/** Appends an entry (printf-style message).  diag may be NULL: diagnostics are then discarded.
 * file may be NULL.  Returns SW_EINPUT for errors so that loaders can write
 * `return sw_diag_add(...)`, and SW_SUCCESS for warnings and notes. */
SW_API int sw_diag_add(sw_diag *diag, sw_severity severity, const char *file, int line, int column,
		       const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 6, 7)))
#endif
	;

/** Formats entry i as "file:line:col: error: message" (fields omitted when unknown) into buf of
 * size n.  Returns the number of characters that would have been written (snprintf-style). */
SW_API int sw_diag_format(const sw_diag *diag, int i, char *buf, size_t n);

/** Returns 1 when the list holds at least one error. */
SW_API int sw_diag_has_error(const sw_diag *diag);

/** The generator of swerve's random streams: GSL's taus2 (L'Ecuyer's maximally equidistributed
 * combined Tausworthe generator, period 2^88), whose 24 bytes of state allow one stream per
 * agent in crowds of 10^6 (MT19937 keeps 5 kB). */
#define SW_RNG_TYPE gsl_rng_taus2

/** Creates the random-number stream of one agent: a gsl_rng of type SW_RNG_TYPE seeded from
 * (seed, stream) by sw_rng_stream_seed().  Returns NULL when allocation fails; the caller frees
 * it with gsl_rng_free(). */
SW_API gsl_rng *sw_rng_stream_alloc(uint64_t seed, uint64_t stream);

/** Seeds r (of type SW_RNG_TYPE, possibly with caller-provided state storage) from (seed,
 * stream) through the SplitMix64 mixer, so streams of different agents are independent and do
 * not depend on thread count or scheduling. */
SW_API void sw_rng_stream_seed(gsl_rng *r, uint64_t seed, uint64_t stream);

/** SplitMix64 finaliser: a bijective 64-bit mixer (used for seeding and content hashing). */
SW_API uint64_t sw_mix64(uint64_t x);

/** Start value of sw_hash_bytes(). */
#define SW_HASH_INIT 0xcbf29ce484222325ULL

/** 64-bit FNV-1a hash of n bytes continued from h (start with SW_HASH_INIT): content keys of
 * caches and checksums of checkpoints (detects damage, not tampering). */
SW_API uint64_t sw_hash_bytes(uint64_t h, const void *data, size_t n);

/** Creates directory dir and its missing parents (like mkdir -p).  Returns 0, or -1 with errno
 * set. */
SW_API int sw_make_dirs(const char *dir);

/** Writes v into buf (size n, 32 is enough) as the shortest decimal text (%.Ng, N = 1..17)
 * that reads back to exactly v in the C locale: 0.1, not 0.10000000000000001; 30, not 3e+01.
 * Returns buf. */
SW_API const char *sw_fmt_num(char *buf, size_t n, double v);

/* Atomic file writing: every file swerve writes goes through these.  A file is written to a
 * temporary beside it and renamed over its final name only when complete, so a reader (or a
 * crash) sees the old file or the whole new one, never a part; on any failure the temporary is
 * removed, errno keeps the cause and diag (which may be NULL) gets an error naming the final
 * path with the errno text. */

/** Largest temporary name sw_atomic_open() writes for a final path of n characters (the path
 * plus ".", ".XXXXXX" and the NUL). */
#define SW_ATOMIC_TMP_LEN(n) ((n) + 9)

/** Starts writing path atomically: creates a temporary file with mkstemps in path's directory,
 * named ".STEM.XXXXXX.EXT" after path's STEM.EXT (the extension is kept so that programs which
 * choose a format by it, such as ffmpeg, can write the temporary), mode 0666 & ~umask.  Its name
 * cannot be guessed and a file or symlink already at that name is never opened or followed.
 * The name is stored in tmp (n bytes, SW_ATOMIC_TMP_LEN(strlen(path)) suffice).  Returns the
 * stream to write, to be ended by sw_atomic_commit() (or sw_atomic_close() and
 * sw_atomic_rename()) or sw_atomic_abort(); NULL on failure (tmp is then ""). */
SW_API FILE *sw_atomic_open(const char *path, char *tmp, size_t n, sw_diag *diag);

/** Ends writing the temporary tmp of path without renaming it: checks f for earlier write
 * errors, flushes, fsyncs and closes it.  Returns SW_SUCCESS, or SW_EIO after removing tmp.
 * f is closed in both cases. */
SW_API int sw_atomic_close(FILE *f, const char *tmp, const char *path, sw_diag *diag);

/** Renames the closed temporary tmp over path (atomic within one file system, never following a
 * symlink at path).  Returns SW_SUCCESS, or SW_EIO after removing tmp. */
SW_API int sw_atomic_rename(const char *tmp, const char *path, sw_diag *diag);

/** sw_atomic_close() then sw_atomic_rename(): the usual end of writing one file. */
SW_API int sw_atomic_commit(FILE *f, const char *tmp, const char *path, sw_diag *diag);

/** Gives up writing: closes f (may be NULL) and removes tmp (may be NULL or ""); errno is kept. */
SW_API void sw_atomic_abort(FILE *f, const char *tmp);

/** Makes the renames and removals made in directory dir ("" or NULL: the current one) durable by
 * fsyncing it; writers of a set of files use it to order the set's commit on disk.  Returns 0,
 * or -1 with errno set. */
SW_API int sw_sync_dir(const char *dir);

/** Wraps an angle to (-pi, pi] (docs/models.md, "Conventions": wrap). */
SW_API double sw_wrap_angle(double a);

#ifdef __cplusplus
}
#endif
#endif
