/* swerve/api.h - SW_API, the mark of a function libswerve exports.
 *
 * The library is compiled with -fvisibility=hidden: a function is visible outside libswerve.so
 * only when its declaration in include/swerve/ carries SW_API.  Everything else (the sw__*
 * helpers and the module-private names under src/) stays inside the library, and
 * tests/symbols_test.sh fails when the shared library exports any other name.  The static
 * library keeps every symbol, so the CLI, the tests and the benchmarks link against it. */
#ifndef SWERVE_API_H
#define SWERVE_API_H

#if defined(__GNUC__) || defined(__clang__)
#define SW_API __attribute__((visibility("default")))
#else
#define SW_API
#endif

#endif
