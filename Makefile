# swerve - plain GNU make.  `make help` lists the targets.
.DEFAULT_GOAL := all
.SUFFIXES:
SHELL := /bin/sh

PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
CC      ?= cc
PKGS    := gsl libxml-2.0 cairo
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   = $(shell pkg-config --libs check 2>/dev/null)

# SLEEF (optional): SIMD exp/atan2/asin for the GLM obstacle loop; without it the scalar path runs.
SLEEF_CFLAGS := $(shell pkg-config --exists sleef 2>/dev/null && echo -DSW_HAVE_SLEEF $$(pkg-config --cflags sleef))
SLEEF_LIBS   := $(shell pkg-config --exists sleef 2>/dev/null && pkg-config --libs sleef)
# Its AVX-512 functions (8 lanes) are used where the library has them (a link probe).
SLEEF_CFLAGS += $(shell pkg-config --exists sleef 2>/dev/null && $(CC) -mavx512f $$(pkg-config --cflags sleef) \
	scripts/probe_sleef_avx512.c -o /dev/null $$(pkg-config --libs sleef) 2>/dev/null && echo -DSW_HAVE_SLEEF_AVX512)

# Open MPI (optional): with mpicc, `swerve smc` and `swerve sweep` spread runs over the ranks of
# `mpirun -n N`; the CLI is then linked by mpicc and still runs as one process without mpirun.
MPICC   := $(shell command -v mpicc 2>/dev/null)
MPI_CFLAGS := $(if $(MPICC),-DSW_HAVE_MPI $(shell $(MPICC) --showme:compile 2>/dev/null))
CLI_LD  := $(if $(MPICC),$(MPICC),$(CC))

WARN    := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla
OPT     ?= -O2 -g
CFLAGS  ?= $(OPT)
ALL_CFLAGS = -std=c11 -D_DEFAULT_SOURCE $(WARN) -fno-math-errno -ffp-contract=off -fPIC -Iinclude -Isrc $(PKG_CFLAGS) $(SLEEF_CFLAGS) $(CFLAGS)
LDLIBS  = $(PKG_LIBS) $(SLEEF_LIBS) -lm -pthread

# Library sources: every C file of each module's folder (a new file of a module needs no line
# here).
LIB_MODULES := core expr geom steer model plan sim io ensemble render export
LIB_SRC := $(foreach m,$(LIB_MODULES),$(sort $(wildcard src/$(m)/*.c)))
GEN_SRC := $(BUILD)/gen/scenario_schema.c $(BUILD)/gen/automaton_schema.c \
	$(BUILD)/gen/spaceex_schema.c

CLI_SRC := src/cli/main.c src/cli/cmd_run.c src/cli/cmd_check.c src/cli/cmd_graph.c src/cli/graph_dot.c src/cli/cmd_render.c src/cli/cmd_export.c src/cli/cmd_analyze.c src/cli/cmd_plot.c src/cli/cmd_import.c \
	src/cli/cmd_smc.c src/cli/cmd_sweep.c src/cli/ensemble_cli.c src/cli/checkpoint_cli.c src/cli/paths.c \
	src/cli/cmd_verify.c src/cli/field_cache.c

TEST_SRC := tests/check_main.c tests/test_core.c tests/test_geom.c tests/test_expr.c tests/test_steer.c tests/test_steer_simd.c \
	tests/test_competition.c tests/test_model.c tests/test_sim.c tests/test_hybrid.c tests/test_io.c tests/test_io_automata.c tests/test_render.c tests/test_emit.c tests/test_export.c tests/test_interval.c tests/test_analyze.c tests/test_plot.c tests/test_progress.c \
	tests/test_steersuite.c tests/test_steersuite_emit.c tests/test_steersuite_crowds.c tests/test_ensemble.c tests/test_scenarios.c tests/test_crowd.c tests/test_plan.c \
	tests/test_hostile.c tests/test_faults.c tests/test_space3.c tests/test_atomic.c tests/test_locate.c tests/test_events.c \
	tests/test_bounds.c tests/test_worlddef.c tests/test_params.c tests/test_laws.c \
	tests/test_ttc.c tests/test_pedestrian.c tests/test_sf.c tests/test_csm.c tests/law_util.c tests/emit_util.c tests/test_emit_crowd.c tests/test_sensing.c

TEST_SRC += tests/test_export_glm.c tests/test_export_parts.c tests/test_worker.c tests/test_route.c
TEST_SRC += tests/test_export_flows.c tests/test_crowd_index.c tests/test_steersuite_run.c \
	tests/test_steer_fw_pf.c tests/test_expr_host.c tests/expr_host.c
BENCH_SRC := bench/bench_main.c bench/bench_crowd.c bench/bench_plan.c bench/bench_events.c

# Fuzz harnesses (tests/fuzz/): libFuzzer with clang (`make fuzz`), replayed over their corpus
# by tests/fuzz/replay.c in the normal build (`make test`, `make asan`).
FUZZ_TARGETS := expr automaton scenario steersuite vfield cache checkpoint cli
FUZZ_REPLAY  := $(FUZZ_TARGETS:%=$(BUILD)/fuzz_replay_%)
FUZZ_TIME    ?= 600
FUZZ_RUNS    ?= -1
FUZZ_FLAGS   ?=

LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/scenario_schema.o \
	$(BUILD)/gen/automaton_schema.o $(BUILD)/gen/spaceex_schema.o
CLI_OBJ   := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ  := $(TEST_SRC:%.c=$(BUILD)/%.o)
BENCH_OBJ := $(BENCH_SRC:%.c=$(BUILD)/%.o)

LIB_A  := $(BUILD)/libswerve.a
LIB_SO := $(BUILD)/libswerve.so
CLI    := $(BUILD)/swerve
TESTS  := $(BUILD)/check_swerve
BENCH  := $(BUILD)/bench_swerve

.PHONY: all deps test verify-test demo bench asan fuzz fuzz-replay valgrind install uninstall format clean help

all: $(LIB_A) $(LIB_SO) $(CLI)

help:
	@echo "make demo     install missing packages, build, run the default scenario"
	@echo "make test     install missing packages, build, run every test suite"
	@echo "make verify-test  export -> HyST -> Flow* round trip (skips without the tools)"
	@echo "make bench    build and run the benchmarks (prints figures)"
	@echo "make asan     run the tests under AddressSanitizer + UndefinedBehaviorSanitizer"
	@echo "make valgrind run the tests and a few CLI runs under valgrind memcheck"
	@echo "make fuzz     libFuzzer (clang) on each harness: FUZZ_TIME=s per target, FUZZ_RUNS=n"
	@echo "make install  install library, headers, swerve.pc, CLI, man page, schemas (PREFIX, DESTDIR)"
	@echo "make format   clang-format every source file"
	@echo "make clean    remove build outputs"

deps:
	@sh scripts/deps.sh

$(BUILD)/%.o: %.c $(wildcard include/swerve/*.h) $(wildcard src/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -c $< -o $@

# The schemas are compiled into the library so the binary needs no data files at run time.
# The steering laws' elements are written from the laws' table by scripts/law_schema.c (linked
# with src/steer/params.c alone, without the build's sanitizer or fuzzer flags: it only prints)
# where schema/scenario.rng and schema/automaton.rng hold the comment @LAWS@; build/gen/*.rng
# are the complete schemas.  HOSTCC builds the writer, which runs here (cross builds set it).
HOSTCC ?= $(CC)
$(BUILD)/gen/law_schema: scripts/law_schema.c src/steer/params.c src/steer/steer_internal.h \
		include/swerve/steer.h
	@mkdir -p $(dir $@)
	$(HOSTCC) -std=c11 -D_DEFAULT_SOURCE $(WARN) -Iinclude -Isrc $(PKG_CFLAGS) \
		$(filter -I% -D%,$(CFLAGS)) $(CPPFLAGS) -o $@ \
		scripts/law_schema.c src/steer/params.c -lm

$(BUILD)/gen/laws.rng: $(BUILD)/gen/law_schema
	$(BUILD)/gen/law_schema > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/scenario.rng $(BUILD)/gen/automaton.rng: $(BUILD)/gen/%.rng: schema/%.rng \
		$(BUILD)/gen/laws.rng
	@grep -q '^  <!-- @LAWS@ -->$$' $< || \
		{ echo "$<: no line '  <!-- @LAWS@ -->' for the laws' elements" >&2; exit 1; }
	sed -e '/^  <!-- @LAWS@ -->$$/{r $(BUILD)/gen/laws.rng' -e 'd;}' $< > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/scenario_schema.c: $(BUILD)/gen/scenario.rng scripts/embed.sh
	sh scripts/embed.sh sw_scenario_schema_text $< > $@

$(BUILD)/gen/automaton_schema.c: $(BUILD)/gen/automaton.rng scripts/embed.sh
	sh scripts/embed.sh sw_automaton_schema_text $< > $@

$(BUILD)/gen/spaceex_schema.c: schema/spaceex.rng scripts/embed.sh
	@mkdir -p $(dir $@)
	sh scripts/embed.sh sw_spaceex_schema_text $< > $@

$(BUILD)/gen/%.o: $(BUILD)/gen/%.c include/swerve/api.h
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB_A): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# libswerve.so exports only the functions include/swerve/ marks SW_API (swerve/api.h); the
# static library keeps every symbol for the CLI, tests and benches.  tests/symbols_test.sh checks.
$(LIB_OBJ): ALL_CFLAGS += -fvisibility=hidden

$(LIB_SO): $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,libswerve.so.0 -o $@ $^ $(LDLIBS)

$(BUILD)/src/cli/ensemble_cli.o: ALL_CFLAGS += $(MPI_CFLAGS)

$(CLI): $(CLI_OBJ) $(LIB_A)
	$(CLI_LD) $(CFLAGS) -o $@ $(CLI_OBJ) $(LIB_A) $(LDLIBS)

# The tests of the field cache call the CLI's (src/cli/field_cache.c).
$(TESTS): $(TEST_OBJ) $(BUILD)/src/cli/field_cache.o $(LIB_A)
	$(CC) $(CFLAGS) -o $@ $(TEST_OBJ) $(BUILD)/src/cli/field_cache.o $(LIB_A) $(CHECK_LIBS) \
		$(LDLIBS)

# Counts allocations by replacing malloc (glibc): not under the sanitizers or valgrind.
$(BUILD)/noalloc: $(BUILD)/tests/noalloc.o $(LIB_A)
	$(CC) $(CFLAGS) -o $@ $< $(LIB_A) $(LDLIBS)

$(BUILD)/fuzz_replay_%: $(BUILD)/tests/fuzz/replay.o $(BUILD)/tests/fuzz/fuzz_%.o \
		$(BUILD)/tests/fuzz/loader_check.o $(BUILD)/tests/fuzz/fuzz_files.o $(LIB_A)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/fuzz_replay_cache: $(BUILD)/tests/fuzz/replay.o $(BUILD)/tests/fuzz/fuzz_cache.o \
		$(BUILD)/tests/fuzz/loader_check.o $(BUILD)/tests/fuzz/fuzz_files.o \
		$(BUILD)/src/cli/field_cache.o $(LIB_A)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/fuzz_cache: $(BUILD)/tests/fuzz/fuzz_cache.o $(BUILD)/tests/fuzz/loader_check.o \
		$(BUILD)/tests/fuzz/fuzz_files.o $(BUILD)/src/cli/field_cache.o $(LIB_A)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

# libFuzzer binaries: the library and harness instrumented, linked with -fsanitize=fuzzer.
$(BUILD)/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/tests/fuzz/loader_check.o \
		$(BUILD)/tests/fuzz/fuzz_files.o $(LIB_A)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

.SECONDARY: $(addprefix $(BUILD)/tests/fuzz/,replay.o loader_check.o fuzz_files.o \
	$(FUZZ_TARGETS:%=fuzz_%.o))

# The CLI harness runs the commands in its own process: the CLI's objects with main() renamed
# (and Open MPI's libraries when the CLI was built with them; it joins no job without mpirun).
FUZZ_CLI_OBJ := $(filter-out $(BUILD)/src/cli/main.o,$(CLI_OBJ)) $(BUILD)/tests/fuzz/cli_main.o
FUZZ_CLI_LIBS = $(if $(MPICC),$(shell $(MPICC) --showme:link 2>/dev/null))

$(BUILD)/tests/fuzz/cli_main.o: src/cli/main.c $(wildcard include/swerve/*.h) $(wildcard src/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -Dmain=sw_cli_main -c $< -o $@

$(BUILD)/fuzz_replay_cli: $(BUILD)/tests/fuzz/replay.o $(BUILD)/tests/fuzz/fuzz_cli.o \
		$(BUILD)/tests/fuzz/loader_check.o $(BUILD)/tests/fuzz/fuzz_files.o $(FUZZ_CLI_OBJ) \
		$(LIB_A)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(FUZZ_CLI_LIBS)

$(BUILD)/fuzz_cli: $(BUILD)/tests/fuzz/fuzz_cli.o $(BUILD)/tests/fuzz/loader_check.o \
		$(BUILD)/tests/fuzz/fuzz_files.o $(FUZZ_CLI_OBJ) $(LIB_A)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS) $(FUZZ_CLI_LIBS)

# Replays the corpus of every harness (seeds and kept crash inputs) without libFuzzer.
fuzz-replay: $(FUZZ_REPLAY)
	for t in $(FUZZ_TARGETS); do $(BUILD)/fuzz_replay_$$t tests/fuzz/corpus/$$t || exit 1; done

$(BENCH): $(BENCH_OBJ) $(LIB_A)
	$(CC) $(CFLAGS) -o $@ $(BENCH_OBJ) $(LIB_A) $(LDLIBS)

test: deps
	@sh scripts/deps.sh cmark python3
	@$(MAKE) --no-print-directory $(TESTS) $(CLI) $(LIB_SO) $(BUILD)/noalloc
	sh tests/symbols_test.sh $(LIB_SO)
	SWERVE=$(CLI) CK_DEFAULT_TIMEOUT=600 $(TESTS)
	sh tests/cli_test.sh $(CLI)
	sh tests/csv_test.sh $(CLI)
	sh tests/install_test.sh
	CC="$(CC)" CFLAGS="$(ALL_CFLAGS)" LIBS="$(LIB_A) $(LDLIBS)" sh tests/docs_test.sh $(BUILD)
	sh tests/cli_bounds.sh $(CLI)
	sh tests/cli_outputs.sh $(CLI)
	sh tests/plot_table_test.sh $(CLI)
	sh tests/clutter_test.sh $(CLI)
	sh tests/export_inputs_test.sh $(CLI)
	sh tests/export_guards_test.sh $(CLI)
	sh tests/verify_cli_test.sh $(CLI)
	$(BUILD)/noalloc
	@$(MAKE) --no-print-directory fuzz-replay

# The verifier round trip (docs/verification.md); skips, saying so, without HyST and Flow*.
verify-test: deps
	@$(MAKE) --no-print-directory $(CLI)
	sh tests/verify_test.sh $(CLI)

demo: deps
	@$(MAKE) --no-print-directory $(CLI)
	$(CLI) run models/demo.xml -o out/demo
	$(CLI) render models/demo.xml -o out/demo/demo.svg
	@echo "demo outputs: out/demo/trajectory.csv out/demo/summary.json out/demo/events.jsonl out/demo/demo.svg"

bench: deps
	@$(MAKE) --no-print-directory OPT="-O3 -g -march=native" BUILD=build-bench build-bench/bench_swerve
	build-bench/bench_swerve

asan: deps
	@$(MAKE) --no-print-directory BUILD=build-asan \
		OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		build-asan/check_swerve build-asan/swerve
	ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
		UBSAN_OPTIONS=print_stacktrace=1 SWERVE=build-asan/swerve SW_TEST_SCALE=0.1 \
		CK_FORK=no CK_DEFAULT_TIMEOUT=1200 build-asan/check_swerve
	ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
		sh tests/cli_test.sh build-asan/swerve
	ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
		sh tests/cli_bounds.sh build-asan/swerve
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 $(MAKE) --no-print-directory \
		BUILD=build-asan \
		OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		fuzz-replay

# valgrind memcheck: the Check suites that read files, parse, simulate and fail (VALGRIND_SUITES;
# the whole set takes too long under valgrind for CI), the fuzz corpora, and CLI runs.  A report
# makes valgrind exit with 1 (check_swerve, replays) or 3 (CLI runs, whose own codes are 0-2).
VALGRIND_SUITES ?= core expr model sim hybrid io io_automata hostile faults
VALGRIND := valgrind -q --leak-check=full --track-fds=no
valgrind:
	@sh scripts/deps.sh valgrind
	@$(MAKE) --no-print-directory $(TESTS) $(CLI) $(FUZZ_REPLAY)
	for s in $(VALGRIND_SUITES); do \
		CK_FORK=no CK_RUN_SUITE=$$s SWERVE=$(CLI) $(VALGRIND) --error-exitcode=1 $(TESTS) \
			|| exit 1; done
	for t in $(FUZZ_TARGETS); do \
		$(VALGRIND) --error-exitcode=1 --suppressions=tests/fuzz/valgrind.supp \
			$(BUILD)/fuzz_replay_$$t tests/fuzz/corpus/$$t || exit 1; done
	@rm -rf $(BUILD)/valgrind-out
	$(VALGRIND) --error-exitcode=3 $(CLI) check -q models/*.xml automata/*.xml
	$(VALGRIND) --error-exitcode=3 $(CLI) run -q -d 5 -o $(BUILD)/valgrind-out/demo models/demo.xml
	$(VALGRIND) --error-exitcode=3 $(CLI) run -q -o $(BUILD)/valgrind-out/cross models/street_crossing.xml
	$(VALGRIND) --error-exitcode=3 $(CLI) run -q -o $(BUILD)/valgrind-out/blow tests/data/blowup.xml; \
		test $$? = 1
	$(VALGRIND) --error-exitcode=3 $(CLI) run -q -o $(BUILD)/valgrind-out/bad tests/data/bad_dtd.xml; \
		test $$? = 2
	$(VALGRIND) --error-exitcode=3 $(CLI) export -o $(BUILD)/valgrind-out/exp models/glm_barrier.xml
	@rm -rf $(BUILD)/valgrind-out

# Each harness runs FUZZ_TIME seconds (or FUZZ_RUNS executions), one after the other, on a
# working corpus in build-fuzz/ seeded from tests/fuzz/corpus/ (which it does not modify).
# Crash inputs land in build-fuzz/artifacts/; keep each one in tests/fuzz/corpus/<target>/.
# Paths are absolute: the CLI harness runs each command in a working folder of its own.
fuzz:
	@sh scripts/deps.sh clang
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang \
		OPT="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		$(FUZZ_TARGETS:%=build-fuzz/fuzz_%)
	@mkdir -p build-fuzz/artifacts
	for t in $(FUZZ_TARGETS); do \
		mkdir -p build-fuzz/corpus/$$t && \
		LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
		build-fuzz/fuzz_$$t -max_total_time=$(FUZZ_TIME) -runs=$(FUZZ_RUNS) \
			-artifact_prefix=$(CURDIR)/build-fuzz/artifacts/$$t- -print_final_stats=1 \
			$(FUZZ_FLAGS) $(CURDIR)/build-fuzz/corpus/$$t $(CURDIR)/tests/fuzz/corpus/$$t \
			|| exit 1; \
	done

install: all
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/swerve \
		$(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
		$(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/swerve
	install -m 644 $(LIB_A) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(LIB_SO) $(DESTDIR)$(PREFIX)/lib/libswerve.so.0
	ln -sf libswerve.so.0 $(DESTDIR)$(PREFIX)/lib/libswerve.so
	install -m 644 include/swerve/*.h $(DESTDIR)$(PREFIX)/include/swerve/
	install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBS_PRIVATE@|$(strip $(SLEEF_LIBS) -lm -pthread)|' \
		docs/swerve.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/swerve.pc
	install -m 644 docs/swerve.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(BUILD)/gen/scenario.rng $(BUILD)/gen/automaton.rng schema/spaceex.rng \
		$(DESTDIR)$(PREFIX)/share/swerve/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/lib/libswerve.a $(DESTDIR)$(PREFIX)/lib/libswerve.so* \
		$(DESTDIR)$(PREFIX)/bin/swerve $(DESTDIR)$(PREFIX)/lib/pkgconfig/swerve.pc \
		$(DESTDIR)$(PREFIX)/share/man/man1/swerve.1
	rm -rf $(DESTDIR)$(PREFIX)/include/swerve $(DESTDIR)$(PREFIX)/share/swerve

format:
	clang-format -i include/swerve/*.h src/*/*.c src/*/*.h tests/*.c bench/*.c 2>/dev/null || \
		clang-format -i include/swerve/*.h src/*/*.c tests/*.c bench/*.c

clean:
	rm -rf build build-asan build-bench build-fuzz out
